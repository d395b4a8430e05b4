// A block whose threads need more registers than an SM has: the launch fails with
// cudaErrorLaunchOutOfResources (not sticky), while the same kernel in smaller blocks, or
// bounded with __launch_bounds__ (ptxas then keeps it within the limit), runs.
#include <cstdio>

#define HEAVY_BODY                                                                   \
    float acc[64];                                                                   \
    _Pragma("unroll") for (int k = 0; k < 64; k++) acc[k] = in[(threadIdx.x + k * 37) % n]; \
    _Pragma("unroll") for (int r = 0; r < 8; r++) {                                  \
        _Pragma("unroll") for (int k = 0; k < 64; k++) acc[k] = acc[k] * acc[(k + r + 1) % 64] + 1.0f; \
    }                                                                                \
    float s = 0;                                                                     \
    _Pragma("unroll") for (int k = 0; k < 64; k++) s += acc[k];                      \
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;

__global__ void heavy(const float *in, float *out, int n) { HEAVY_BODY }
__global__ void __launch_bounds__(1024) heavy_bounded(const float *in, float *out, int n) { HEAVY_BODY }

int main() {
    const int n = 4096;
    float *in, *out, h[1024];
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, 1024 * sizeof(float));
    for (int i = 0; i < 1024; ++i) h[i] = (i % 7) * 0.125f - 0.375f;
    cudaMemcpy(in, h, 1024 * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(in + 1024, h, 1024 * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(in + 2048, h, 1024 * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(in + 3072, h, 1024 * sizeof(float), cudaMemcpyHostToDevice);

    cudaFuncAttributes fa;
    cudaFuncGetAttributes(&fa, heavy);
    printf("heavy: more than 64 registers %s, maxThreadsPerBlock %d\n", fa.numRegs > 64 ? "yes" : "no",
           fa.maxThreadsPerBlock);
    cudaFuncGetAttributes(&fa, heavy_bounded);
    printf("heavy_bounded: at most 64 registers %s, maxThreadsPerBlock %d\n",
           fa.numRegs <= 64 ? "yes" : "no", fa.maxThreadsPerBlock);

    int sizes[] = {1024, 800, 768, 256};
    for (int i = 0; i < 4; ++i) {
        heavy<<<1, sizes[i]>>>(in, out, n);
        cudaError_t launch = cudaGetLastError();
        cudaError_t sync = cudaDeviceSynchronize();
        printf("heavy<<<1, %4d>>>: launch %s, sync %s\n", sizes[i], cudaGetErrorName(launch),
               cudaGetErrorName(sync));
    }
    cudaMemset(out, 0, 1024 * sizeof(float));
    heavy<<<1, 256>>>(in, out, n);
    cudaMemcpy(h, out, 256 * sizeof(float), cudaMemcpyDeviceToHost);
    float ref0 = h[0], ref255 = h[255];
    heavy_bounded<<<1, 1024>>>(in, out, n);
    printf("heavy_bounded<<<1, 1024>>>: launch %s, sync %s\n", cudaGetErrorName(cudaGetLastError()),
           cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(h, out, 1024 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("same values in both: %s\n", h[0] == ref0 && h[255] == ref255 ? "yes" : "no");

    int min_grid = 0, block = 0;
    cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, heavy, 0, 0);
    printf("cudaOccupancyMaxPotentialBlockSize: block %d\n", block);
    return 0;
}
