// The occupancy calculator as launch-tuning code uses it: blocks per SM for a small kernel
// over block sizes and dynamic shared memory, the suggested block size (fixed and
// size-dependent shared memory), the shared memory left for a given occupancy, and a grid
// sized from the answer that computes a result.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void scale(float *a, int n, float f)
{
    extern __shared__ float tmp[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { tmp[threadIdx.x % 32] = a[i]; a[i] = tmp[threadIdx.x % 32] * f; }
}

__global__ void __launch_bounds__(256, 4) bounded(int *a) { a[threadIdx.x] = threadIdx.x; }

static size_t smemForBlock(int block) { return block * sizeof(float); }

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("maxThreadsPerMultiProcessor=%d sharedMemPerMultiprocessor=%zu optin=%zu\n",
           p.maxThreadsPerMultiProcessor, p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin);
    int sizes[] = {32, 64, 96, 128, 192, 256, 512, 768, 1024};
    size_t smems[] = {0, 1024, 8192, 20000, 48 * 1024};
    for (int b : sizes) {
        printf("block %4d:", b);
        for (size_t sm : smems) {
            int nb = -1;
            CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, scale, b, sm));
            printf(" %3d", nb);
        }
        printf("\n");
    }
    int minGrid = 0, block = 0;
    CK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, scale, 0, 0));
    printf("potential (no smem): minGrid=%d block=%d\n", minGrid, block);
    CK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, scale, 16384, 0));
    printf("potential (16 KB): minGrid=%d block=%d\n", minGrid, block);
    CK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, scale, 0, 300));
    printf("potential (limit 300): minGrid=%d block=%d\n", minGrid, block);
    CK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&minGrid, &block, scale, smemForBlock, 0));
    printf("potential (variable smem): minGrid=%d block=%d\n", minGrid, block);
    for (int nbl : {1, 2, 4, 8, 16, 17, 32, 33}) {
        size_t avail = 12345;
        cudaError_t ea = cudaOccupancyAvailableDynamicSMemPerBlock(&avail, scale, nbl, 128);
        printf("dynamic smem for %2d blocks of 128: %zu (%s, last error %s)\n", nbl, avail, cudaGetErrorName(ea),
               cudaGetErrorName(cudaGetLastError()));
    }
    int nb = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, bounded, 256, 0));
    printf("launch_bounds(256,4) kernel at 256: %d blocks\n", nb);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb, scale, 128, 0, cudaOccupancyDisableCachingOverride));
    printf("with flags: %d\n", nb);
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, scale, 2048, 0);
    printf("block 2048: %s nb=%d\n", cudaGetErrorName(e), nb);
    printf("last error %s\n", cudaGetErrorName(cudaGetLastError()));
    size_t av = 777;
    e = cudaOccupancyAvailableDynamicSMemPerBlock(&av, scale, 2, 1025);
    printf("available for 2 blocks of 1025 threads: %s %zu\n", cudaGetErrorName(e), av);
    e = cudaOccupancyAvailableDynamicSMemPerBlock(&av, scale, 0, 128);
    printf("available for 0 blocks: %s %zu\n", cudaGetErrorName(e), av);
    e = cudaOccupancyAvailableDynamicSMemPerBlock(&av, bounded, 2, 512);
    printf("available for 2 blocks of 512 of the launch_bounds(256) kernel: %s %zu\n", cudaGetErrorName(e), av);
    cudaGetLastError();

    // size a grid from the answer and use it
    const int n = 1 << 20;
    float *d;
    CK(cudaMalloc(&d, n * sizeof(float)));
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (float)(i & 1023);
    CK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, scale, 32 * sizeof(float), 0));
    int grid = (n + block - 1) / block;
    scale<<<grid, block, 32 * sizeof(float)>>>(d, n, 0.5f);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    double s = 0;
    for (int i = 0; i < n; i++) s += h[i];
    printf("grid=%d sum=%.1f\n", grid, s);
    free(h);
    CK(cudaFree(d));
    return 0;
}
