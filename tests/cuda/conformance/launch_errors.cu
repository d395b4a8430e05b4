// Launch configuration errors and the error state: too many threads per block, a block
// dimension over its limit (z > 64), a grid y dimension over 65535, zero-sized grids and
// blocks, too much dynamic shared memory, too much static plus dynamic shared memory, and
// a kernel launched with more threads than its __launch_bounds__ allow. Each error is
// reported by cudaPeekAtLastError (which keeps it) and cudaGetLastError (which clears it);
// none of them is sticky, so a correct launch afterwards works.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(int *p, int v)
{
    int i = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0 && i < 4) p[i] = v;
}

__global__ void withStatic(int *p)
{
    __shared__ int s[10 * 1024];     // 40 KB static
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    p[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

__global__ void __launch_bounds__(128) bounded(int *p)
{
    p[threadIdx.x] = threadIdx.x * 2;
}

static int *dp;
static void check(const char *what)
{
    cudaError_t peek = cudaPeekAtLastError();
    cudaError_t peek2 = cudaPeekAtLastError();
    cudaError_t get = cudaGetLastError();
    cudaError_t after = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    printf("%-40s peek=%s peek2=%s get=%s after=%s sync=%s\n", what, cudaGetErrorName(peek), cudaGetErrorName(peek2),
           cudaGetErrorName(get), cudaGetErrorName(after), cudaGetErrorName(sync));
}

int main()
{
    cudaMalloc(&dp, 1024 * sizeof(int));
    fill<<<1, 1>>>(dp, 1);
    check("valid <<<1,1>>>");
    fill<<<1, 1025>>>(dp, 2);
    check("1025 threads per block");
    fill<<<1, dim3(32, 32, 2)>>>(dp, 2);
    check("block 32x32x2 (2048 threads)");
    fill<<<1, dim3(1, 1, 65)>>>(dp, 2);
    check("block z = 65");
    fill<<<1, dim3(1025, 1, 1)>>>(dp, 2);
    check("block x = 1025");
    fill<<<dim3(1, 65536), 1>>>(dp, 2);
    check("grid y = 65536");
    fill<<<dim3(1, 1, 65536), 1>>>(dp, 2);
    check("grid z = 65536");
    fill<<<dim3(70000, 1, 1), 1>>>(dp, 3);
    check("grid x = 70000 (valid)");
    fill<<<0, 32>>>(dp, 2);
    check("grid of 0 blocks");
    fill<<<1, 0>>>(dp, 2);
    check("block of 0 threads");
    fill<<<1, 32, 200 * 1024>>>(dp, 2);
    check("200 KB dynamic shared");
    fill<<<1, 32, 48 * 1024>>>(dp, 4);
    check("48 KB dynamic shared (valid)");
    withStatic<<<1, 32, 10 * 1024>>>(dp);
    check("40 KB static + 10 KB dynamic");
    withStatic<<<1, 32, 4 * 1024>>>(dp);
    check("40 KB static + 4 KB dynamic (valid)");
    bounded<<<1, 256>>>(dp);
    check("256 threads, launch bounds 128");
    bounded<<<1, 128>>>(dp);
    check("128 threads, launch bounds 128");
    int h[4];
    cudaMemcpy(h, dp, sizeof h, cudaMemcpyDeviceToHost);
    printf("p[0..3] = %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    // an error from a bad launch is replaced by the next call's result only when read
    fill<<<1, 2000>>>(dp, 9);
    cudaError_t m = cudaMemset(dp, 0, 16);
    printf("cudaMemset after a bad launch returns %s; ", cudaGetErrorName(m));
    printf("then cudaGetLastError=%s\n", cudaGetErrorName(cudaGetLastError()));
    printf("errors: %s | %s | %s\n", cudaGetErrorString(cudaErrorInvalidConfiguration), cudaGetErrorString(cudaErrorInvalidValue),
           cudaGetErrorString(cudaErrorLaunchOutOfResources));
    return 0;
}
