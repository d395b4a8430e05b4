/* reduceInteger — parallel sum of an int array, step by step from the naive in-place
 * tree to fully unrolled, warp-synchronous and templated versions.
 *
 * Every kernel reduces each block's slice of g_idata in place (global memory) and
 * writes one partial sum per block; the host adds the partials. The variants:
 *   reduceNeighbored            neighbour pairs, stride doubling: threads of a warp diverge
 *   reduceNeighboredLess        the same pairs, but consecutive threads do the work
 *   reduceInterleaved           pairs half a block apart, stride halving
 *   reduceUnrolling2/4/8/16     each thread first adds 2/4/8/16 blocks' worth of data
 *   reduceUnrolling8Loop        reduceUnrolling8 with its eight loads written as a loop
 *   reduceUnrollWarps8          unrolling 8, and the last warp reduces without barriers
 *   reduceCompleteUnrollWarps8  the tree fully unrolled (block size up to 1024)
 *   reduceCompleteUnrollWarps8Sync  the last warp with __syncthreads instead of volatile
 *   reduceCompleteUnroll<N>     the block size as a template parameter, chosen by a switch
 * The first reduceNeighbored launch is a warm-up. Each sum is compared with the host's.
 *
 * Usage: reduceInteger [threads per block: 64..1024, a power of two (default 512)]
 *                      [elements: a multiple of 16 * block (default 1<<20)]
 */
#include "common.h"
#include <cstring>

/* Interleaved-pair sum on the host, in place (unsigned so that large inputs wrap the
 * same way the device's 32-bit adds do). */
static unsigned recursiveReduce(unsigned *data, int size)
{
    while (size > 1) {
        int stride = size / 2;
        for (int i = 0; i < stride; i++)
            data[i] += data[i + stride];
        if (size & 1)
            data[0] += data[size - 1];
        size = stride;
    }
    return data[0];
}

__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n)
        return;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n)
        return;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        int index = 2 * stride * tid;   /* thread tid handles pair number tid */
        if (index < blockDim.x)
            idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n)
        return;
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceUnrolling2(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 2;
    if (idx + blockDim.x < n)
        g_idata[idx] += g_idata[idx + blockDim.x];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceUnrolling4(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 4;
    if (idx + 3 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4;
    }
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceUnrolling8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    if (idx + 7 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        int b1 = g_idata[idx + 4 * blockDim.x];
        int b2 = g_idata[idx + 5 * blockDim.x];
        int b3 = g_idata[idx + 6 * blockDim.x];
        int b4 = g_idata[idx + 7 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    }
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* reduceUnrolling8 with the eight strided loads accumulated by a loop. */
__global__ void reduceUnrolling8Loop(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    if (idx + 7 * blockDim.x < n) {
        const int *ptr = g_idata + idx;
        int tmp = 0;
        for (int i = 0; i < 8; i++) {
            tmp += *ptr;
            ptr += blockDim.x;
        }
        g_idata[idx] = tmp;
    }
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceUnrolling16(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 16 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 16;
    if (idx + 15 * blockDim.x < n) {
        int s0 = g_idata[idx] + g_idata[idx + blockDim.x] + g_idata[idx + 2 * blockDim.x] +
                 g_idata[idx + 3 * blockDim.x];
        int s1 = g_idata[idx + 4 * blockDim.x] + g_idata[idx + 5 * blockDim.x] +
                 g_idata[idx + 6 * blockDim.x] + g_idata[idx + 7 * blockDim.x];
        int s2 = g_idata[idx + 8 * blockDim.x] + g_idata[idx + 9 * blockDim.x] +
                 g_idata[idx + 10 * blockDim.x] + g_idata[idx + 11 * blockDim.x];
        int s3 = g_idata[idx + 12 * blockDim.x] + g_idata[idx + 13 * blockDim.x] +
                 g_idata[idx + 14 * blockDim.x] + g_idata[idx + 15 * blockDim.x];
        g_idata[idx] = s0 + s1 + s2 + s3;
    }
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* The first step of every "8" kernel below: each thread folds eight blocks' worth of
 * input into its own element. */
__device__ __forceinline__ void foldEightBlocks(int *g_idata, unsigned int idx, unsigned int n)
{
    if (idx + 7 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        int b1 = g_idata[idx + 4 * blockDim.x];
        int b2 = g_idata[idx + 5 * blockDim.x];
        int b3 = g_idata[idx + 6 * blockDim.x];
        int b4 = g_idata[idx + 7 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    }
}

/* The last 64 partial sums, reduced by the first warp alone. The warp's lanes execute
 * each line together, and volatile makes every step re-read memory, so no barrier is
 * used (the classic warp-synchronous idiom). */
__device__ __forceinline__ void warpReduce(volatile int *vmem, unsigned int tid)
{
    vmem[tid] += vmem[tid + 32];
    vmem[tid] += vmem[tid + 16];
    vmem[tid] += vmem[tid + 8];
    vmem[tid] += vmem[tid + 4];
    vmem[tid] += vmem[tid + 2];
    vmem[tid] += vmem[tid + 1];
}

__global__ void reduceUnrollWarps8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    foldEightBlocks(g_idata, idx, n);
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32)
        warpReduce(idata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceCompleteUnrollWarps8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    foldEightBlocks(g_idata, idx, n);
    __syncthreads();
    if (blockDim.x >= 1024 && tid < 512)
        idata[tid] += idata[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256)
        idata[tid] += idata[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128)
        idata[tid] += idata[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64)
        idata[tid] += idata[tid + 64];
    __syncthreads();
    if (tid < 32)
        warpReduce(idata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* reduceCompleteUnrollWarps8 with the last warp's steps separated by block-wide
 * barriers instead of relying on volatile and warp lockstep. */
__global__ void reduceCompleteUnrollWarps8Sync(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    foldEightBlocks(g_idata, idx, n);
    __syncthreads();
    if (blockDim.x >= 1024 && tid < 512)
        idata[tid] += idata[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256)
        idata[tid] += idata[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128)
        idata[tid] += idata[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64)
        idata[tid] += idata[tid + 64];
    __syncthreads();
    for (int offset = 32; offset > 0; offset >>= 1) {
        /* Read, barrier, write: no lane may overwrite a value another lane still needs. */
        int v = 0;
        if (tid < 32)
            v = idata[tid] + idata[tid + offset];
        __syncthreads();
        if (tid < 32)
            idata[tid] = v;
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

template <unsigned int iBlockSize>
__global__ void reduceCompleteUnroll(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    foldEightBlocks(g_idata, idx, n);
    __syncthreads();
    /* iBlockSize is a constant: the tests below vanish at compile time. */
    if (iBlockSize >= 1024 && tid < 512)
        idata[tid] += idata[tid + 512];
    __syncthreads();
    if (iBlockSize >= 512 && tid < 256)
        idata[tid] += idata[tid + 256];
    __syncthreads();
    if (iBlockSize >= 256 && tid < 128)
        idata[tid] += idata[tid + 128];
    __syncthreads();
    if (iBlockSize >= 128 && tid < 64)
        idata[tid] += idata[tid + 64];
    __syncthreads();
    if (tid < 32)
        warpReduce(idata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

typedef void (*ReduceKernel)(int *, int *, unsigned int);

struct Run {
    int *d_idata, *d_odata;
    const int *h_idata;
    int *h_odata;
    size_t bytes;
    unsigned int size;
    unsigned cpuSum;
    bool allOk;
};

/* Reset the input (every kernel reduces in place), launch `blocks` blocks, add their
 * partial sums on the host and compare with the host's total. */
static void runReduce(Run &r, const char *label, ReduceKernel kernel, int blocks, dim3 block)
{
    CHECK(cudaMemcpy(r.d_idata, r.h_idata, r.bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(r.d_odata, 0, blocks * sizeof(int)));
    CHECK(cudaDeviceSynchronize());
    double t0 = example_seconds();
    kernel<<<blocks, block>>>(r.d_idata, r.d_odata, r.size);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double elapsed = example_seconds() - t0;
    CHECK(cudaMemcpy(r.h_odata, r.d_odata, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    unsigned gpuSum = 0;
    for (int i = 0; i < blocks; i++)
        gpuSum += (unsigned)r.h_odata[i];
    bool ok = gpuSum == r.cpuSum;
    r.allOk &= ok;
    printf("gpu %-16s", label);
    example_print_elapsed(elapsed);
    printf(" gpu_sum: %d <<<grid %d block %d>>>%s\n", (int)gpuSum, blocks, block.x,
           ok ? "" : " MISMATCH");
}

int main(int argc, char **argv)
{
    int blocksize = argc > 1 ? atoi(argv[1]) : 512;
    long long requested = argc > 2 ? atoll(argv[2]) : 1 << 20;
    if (blocksize < 64 || blocksize > 1024 || (blocksize & (blocksize - 1)) != 0 ||
        requested <= 0 || requested > (1LL << 30) || requested % (16LL * blocksize) != 0) {
        printf("usage: reduceInteger [block: 64..1024, power of two] "
               "[elements: multiple of 16 * block]\n");
        return EXIT_FAILURE;
    }
    unsigned int size = (unsigned int)requested;

    int dev = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("reduceInteger starting reduction at device %d: %s\n", dev, prop.name);
    CHECK(cudaSetDevice(dev));

    dim3 block(blocksize, 1);
    int grid = (int)((size + block.x - 1) / block.x);
    printf("    with array size %u  grid %d block %d\n", size, grid, block.x);

    size_t bytes = (size_t)size * sizeof(int);
    int *h_idata = (int *)malloc(bytes);
    int *h_odata = (int *)malloc(grid * sizeof(int));
    unsigned *tmp = (unsigned *)malloc(bytes);
    uint32_t seed = 2024u;
    for (unsigned int i = 0; i < size; i++)
        h_idata[i] = (int)(example_rand(&seed) & 0xFF);
    for (unsigned int i = 0; i < size; i++)
        tmp[i] = (unsigned)h_idata[i];

    double t0 = example_seconds();
    unsigned cpuSum = recursiveReduce(tmp, (int)size);
    double elapsed = example_seconds() - t0;
    printf("cpu reduce          ");
    example_print_elapsed(elapsed);
    printf(" cpu_sum: %d\n", (int)cpuSum);

    Run r;
    r.h_idata = h_idata;
    r.h_odata = h_odata;
    r.bytes = bytes;
    r.size = size;
    r.cpuSum = cpuSum;
    r.allOk = true;
    CHECK(cudaMalloc((void **)&r.d_idata, bytes));
    CHECK(cudaMalloc((void **)&r.d_odata, grid * sizeof(int)));

    runReduce(r, "Warmup", reduceNeighbored, grid, block);
    runReduce(r, "Neighbored", reduceNeighbored, grid, block);
    runReduce(r, "NeighboredLess", reduceNeighboredLess, grid, block);
    runReduce(r, "Interleaved", reduceInterleaved, grid, block);
    runReduce(r, "Unrolling2", reduceUnrolling2, grid / 2, block);
    runReduce(r, "Unrolling4", reduceUnrolling4, grid / 4, block);
    runReduce(r, "Unrolling8", reduceUnrolling8, grid / 8, block);
    runReduce(r, "Unrolling8Loop", reduceUnrolling8Loop, grid / 8, block);
    runReduce(r, "Unrolling16", reduceUnrolling16, grid / 16, block);
    runReduce(r, "UnrollWarp8", reduceUnrollWarps8, grid / 8, block);
    runReduce(r, "Cmptnroll8", reduceCompleteUnrollWarps8, grid / 8, block);
    runReduce(r, "Cmptnroll8Sync", reduceCompleteUnrollWarps8Sync, grid / 8, block);

    ReduceKernel templated = NULL;
    switch (blocksize) {
    case 1024: templated = reduceCompleteUnroll<1024>; break;
    case 512: templated = reduceCompleteUnroll<512>; break;
    case 256: templated = reduceCompleteUnroll<256>; break;
    case 128: templated = reduceCompleteUnroll<128>; break;
    case 64: templated = reduceCompleteUnroll<64>; break;
    }
    runReduce(r, "Cmptnroll", templated, grid / 8, block);

    CHECK(cudaFree(r.d_idata));
    CHECK(cudaFree(r.d_odata));
    free(h_idata);
    free(h_odata);
    free(tmp);
    CHECK(cudaDeviceReset());

    if (!r.allOk)
        printf("Test failed!\n");
    else
        printf("Test passed: every gpu_sum equals cpu_sum\n");
    return r.allOk ? EXIT_SUCCESS : EXIT_FAILURE;
}
