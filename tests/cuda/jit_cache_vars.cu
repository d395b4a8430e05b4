/* jit_cache_vars.cu — kernels that take the addresses of module variables (__constant__ and
 * __device__ arrays indexed by the thread). Their addresses change from run to run, so the
 * compiled tier must not build them into the code it caches: tests/cuda/jit_cache.sh runs
 * this program twice and requires the second run to find every kernel in the cache. */
#include <cstdio>

__constant__ float scale[4][4];
__device__ int table[64];

__global__ void fill_table(int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) table[i] = i * i - 7;
}

__global__ void scaled_sum(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * scale[i & 3][(i >> 2) & 3] + (float)table[i & 63];
}

int main() {
    const int n = 256;
    float h_scale[4][4], h_in[n], h_out[n];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) h_scale[r][c] = 0.5f * (float)(r * 4 + c) - 3.0f;
    for (int i = 0; i < n; i++) h_in[i] = (float)(i % 17) * 0.25f;
    cudaMemcpyToSymbol(scale, h_scale, sizeof h_scale);
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    fill_table<<<1, 64>>>(64);
    scaled_sum<<<n / 128, 128>>>(d_in, d_out, n);
    cudaError_t err = cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        printf("error: %s\n", cudaGetErrorString(err));
        return 1;
    }
    double sum = 0;
    for (int i = 0; i < n; i++) sum += h_out[i];
    printf("out[0] %.4f out[37] %.4f out[255] %.4f sum %.4f\n", h_out[0], h_out[37], h_out[255],
           sum);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
