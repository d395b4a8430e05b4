// Kernel attributes and the occupancy calculator: cudaFuncGetAttributes (the values that
// do not depend on the register allocator: maxThreadsPerBlock, sharedSizeBytes,
// maxDynamicSharedSizeBytes, constSizeBytes), __launch_bounds__ limits,
// cudaOccupancyMaxActiveBlocksPerMultiprocessor for block sizes and shared-memory sizes
// where threads, blocks or shared memory (not registers) are the limit,
// cudaOccupancyMaxPotentialBlockSize, and cudaFuncSetAttribute for dynamic shared memory.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__constant__ float cTable[256];

__global__ void copyKernel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

__global__ void sharedKernel(float *out)
{
    __shared__ float buf[5120];    // 20 KB
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x] + cTable[threadIdx.x & 255];
}

__global__ void __launch_bounds__(256, 4) boundedKernel(float *out)
{
    out[threadIdx.x] = threadIdx.x;
}

__global__ void __launch_bounds__(64) tinyBounds(float *out)
{
    out[threadIdx.x] = 1.0f;
}

__global__ void dynKernel(float *out)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}

static void attrs(const char *name, const void *f)
{
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, f));
    printf("%-14s maxThreadsPerBlock=%d sharedSizeBytes=%zu maxDynamicSharedSizeBytes=%d constSizeBytes=%zu\n", name,
           a.maxThreadsPerBlock, a.sharedSizeBytes, a.maxDynamicSharedSizeBytes, a.constSizeBytes);
}

static void occ(const char *name, const void *f, int block, size_t dyn)
{
    int blocks = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, block, dyn);
    printf("occupancy %-14s block %4d dyn %6zu: %s, %d blocks/SM (%d warps)\n", name, block, dyn, cudaGetErrorName(e), blocks,
           blocks * ((block + 31) / 32));
}

int main()
{
    attrs("copyKernel", (const void *)copyKernel);
    attrs("sharedKernel", (const void *)sharedKernel);
    attrs("boundedKernel", (const void *)boundedKernel);
    attrs("tinyBounds", (const void *)tinyBounds);
    attrs("dynKernel", (const void *)dynKernel);

    int sizes[] = {32, 64, 96, 128, 256, 512, 768, 1024};
    for (int s : sizes) occ("copyKernel", (const void *)copyKernel, s, 0);
    for (int s : {64, 256, 1024}) occ("sharedKernel", (const void *)sharedKernel, s, 0);
    for (size_t d : {0, 8192, 32768, 49152}) occ("dynKernel", (const void *)dynKernel, 128, d);
    occ("boundedKernel", (const void *)boundedKernel, 256, 0);
    occ("boundedKernel", (const void *)boundedKernel, 512, 0);
    occ("tinyBounds", (const void *)tinyBounds, 64, 0);

    int minGrid = 0, blockSize = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, copyKernel, 0, 0));
    printf("MaxPotentialBlockSize copyKernel: minGridSize=%d blockSize=%d\n", minGrid, blockSize);
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, boundedKernel, 0, 0));
    printf("MaxPotentialBlockSize boundedKernel: minGridSize=%d blockSize=%d\n", minGrid, blockSize);
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, dynKernel, 16384, 0));
    printf("MaxPotentialBlockSize dynKernel (16 KB): minGridSize=%d blockSize=%d\n", minGrid, blockSize);
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, sharedKernel, 0, 512));
    printf("MaxPotentialBlockSize sharedKernel (limit 512): minGridSize=%d blockSize=%d\n", minGrid, blockSize);

    CHECK(cudaFuncSetAttribute(dynKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000));
    attrs("dynKernel", (const void *)dynKernel);
    occ("dynKernel", (const void *)dynKernel, 128, 100000);
    cudaError_t e = cudaFuncSetAttribute(dynKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 300000);
    printf("MaxDynamicSharedMemorySize 300000: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    size_t avail = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, dynKernel, 2, 128));
    printf("available dynamic shared per block with 2 blocks of 128: %zu\n", avail);

    float *d;
    CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
    dynKernel<<<1, 128, 100000>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    float h[128];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("dynKernel with 100000 bytes: out[0]=%g out[127]=%g\n", h[0], h[127]);
    return 0;
}
