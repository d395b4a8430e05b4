/* nestedReduce2 — recursive reductions with device-side launches that never wait
 * (dynamic parallelism as on compute capability 9.0, CDP2).
 *
 *   gpuRecursiveReduceNosync  nestedReduce's recursion without the barriers and without
 *                             the wait: each block's thread 0 launches its child right
 *                             after its own addition.
 *   gpuRecursiveReduce2       one launcher per level: thread 0 of block 0 launches the
 *                             next level for all blocks at once, each level with half
 *                             the threads (the parent's block size is passed down so
 *                             every block finds its slice).
 *   gpuRecursiveReduceTail    the waiting version rewritten for CDP2: instead of waiting
 *                             for its child, thread 0 puts it in the tail-launch stream,
 *                             which starts it once the launching grid has finished.
 * The Nosync and Reduce2 versions let a child start while blocks of its parent may still
 * be adding; that is the classic shape of these kernels, and the check says whether the
 * device got the right sum anyway. The tail version is ordered by construction.
 *
 * Build: nvcc -arch=sm_90 -rdc=true nestedReduce2.cu -lcudadevrt
 * Usage: nestedReduce2 [blocks (default 128)] [threads per block: power of two (default 512)]
 */
#include "../common.h"

/* The first error a device-side launch reported (0: none). */
__device__ int g_deviceError = 0;

__device__ void recordDeviceError(cudaError_t err)
{
    if (err != cudaSuccess)
        atomicCAS(&g_deviceError, 0, (int)err);
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

__global__ void gpuRecursiveReduceNosync(int *g_idata, int *g_odata, unsigned int isize)
{
    unsigned int tid = threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    int *odata = &g_odata[blockIdx.x];
    if (isize == 2 && tid == 0) {
        g_odata[blockIdx.x] = idata[0] + idata[1];
        return;
    }
    int istride = isize >> 1;
    if (istride > 1 && tid < istride) {
        idata[tid] += idata[tid + istride];
        if (tid == 0) {
            gpuRecursiveReduceNosync<<<1, istride>>>(idata, odata, istride);
            recordDeviceError(cudaGetLastError());
        }
    }
}

__global__ void gpuRecursiveReduce2(int *g_idata, int *g_odata, int iStride, int const iDim)
{
    int *idata = g_idata + blockIdx.x * iDim;
    if (iStride == 1 && threadIdx.x == 0) {
        g_odata[blockIdx.x] = idata[0] + idata[1];
        return;
    }
    idata[threadIdx.x] += idata[threadIdx.x + iStride];
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        gpuRecursiveReduce2<<<gridDim.x, iStride / 2>>>(g_idata, g_odata, iStride / 2, iDim);
        recordDeviceError(cudaGetLastError());
    }
}

__global__ void gpuRecursiveReduceTail(int *g_idata, int *g_odata, unsigned int isize)
{
    unsigned int tid = threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    int *odata = &g_odata[blockIdx.x];
    if (isize == 2 && tid == 0) {
        g_odata[blockIdx.x] = idata[0] + idata[1];
        return;
    }
    int istride = isize >> 1;
    if (istride > 1 && tid < istride)
        idata[tid] += idata[tid + istride];
    /* No barrier or wait needed: a tail launch starts only after this whole grid, and
     * everything it launched, has finished, so the child sees every addition. */
    if (tid == 0 && istride > 1) {
        gpuRecursiveReduceTail<<<1, istride, 0, cudaStreamTailLaunch>>>(idata, odata, istride);
        recordDeviceError(cudaGetLastError());
    }
}

static unsigned hostSum(const int *data, int n)
{
    unsigned s = 0;
    for (int i = 0; i < n; i++)
        s += (unsigned)data[i];
    return s;
}

enum Variant { NEIGHBORED, NOSYNC, REDUCE2, TAIL };

static bool runVariant(Variant v, const char *label, dim3 grid, dim3 block, int *d_idata,
                       int *d_odata, const int *h_idata, int *h_odata, int size, unsigned cpuSum)
{
    size_t bytes = (size_t)size * sizeof(int);
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(g_deviceError, &zero, sizeof(int)));
    CHECK(cudaMemcpy(d_idata, h_idata, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_odata, 0, grid.x * sizeof(int)));
    CHECK(cudaDeviceSynchronize());
    double t0 = example_seconds();
    switch (v) {
    case NEIGHBORED: reduceNeighbored<<<grid, block>>>(d_idata, d_odata, size); break;
    case NOSYNC: gpuRecursiveReduceNosync<<<grid, block>>>(d_idata, d_odata, block.x); break;
    case REDUCE2:
        gpuRecursiveReduce2<<<grid, block.x / 2>>>(d_idata, d_odata, block.x / 2, block.x);
        break;
    case TAIL: gpuRecursiveReduceTail<<<grid, block>>>(d_idata, d_odata, block.x); break;
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double elapsed = example_seconds() - t0;

    bool ok = true;
    int deviceError = 0;
    CHECK(cudaMemcpyFromSymbol(&deviceError, g_deviceError, sizeof(int)));
    if (deviceError) {
        printf("device-side launch error: %s\n", cudaGetErrorName((cudaError_t)deviceError));
        ok = false;
    }
    CHECK(cudaMemcpy(h_odata, d_odata, grid.x * sizeof(int), cudaMemcpyDeviceToHost));
    unsigned gpuSum = hostSum(h_odata, grid.x);
    ok &= gpuSum == cpuSum;
    printf("gpu %-14s", label);
    example_print_elapsed(elapsed);
    printf(" gpu_sum: %d <<<grid %d block %d>>> %s\n", (int)gpuSum, grid.x,
           v == REDUCE2 ? block.x / 2 : block.x, ok ? "ok" : "MISMATCH");
    return ok;
}

int main(int argc, char **argv)
{
    int nblock = argc > 1 ? atoi(argv[1]) : 128;
    int nthread = argc > 2 ? atoi(argv[2]) : 512;
    if (nblock <= 0 || nthread < 2 || nthread > 1024 || (nthread & (nthread - 1)) != 0) {
        printf("usage: nestedReduce2 [blocks] [threads per block: power of two, 2..1024]\n");
        return EXIT_FAILURE;
    }
    int size = nblock * nthread;
    dim3 block(nthread, 1);
    dim3 grid(nblock, 1);
    printf("nestedReduce2 array %d grid %d block %d\n", size, grid.x, block.x);

    size_t bytes = (size_t)size * sizeof(int);
    int *h_idata = (int *)malloc(bytes);
    int *h_odata = (int *)malloc(grid.x * sizeof(int));
    uint32_t seed = 5u;
    for (int i = 0; i < size; i++)
        h_idata[i] = (int)(example_rand(&seed) & 0xFF);
    unsigned cpuSum = hostSum(h_idata, size);
    printf("cpu reduce         cpu_sum: %d\n", (int)cpuSum);

    int *d_idata, *d_odata;
    CHECK(cudaMalloc((void **)&d_idata, bytes));
    CHECK(cudaMalloc((void **)&d_odata, grid.x * sizeof(int)));

    bool ok = true;
    ok &= runVariant(NEIGHBORED, "Neighbored", grid, block, d_idata, d_odata, h_idata, h_odata,
                     size, cpuSum);
    ok &= runVariant(NOSYNC, "nestedNosync", grid, block, d_idata, d_odata, h_idata, h_odata,
                     size, cpuSum);
    ok &= runVariant(REDUCE2, "nested2", grid, block, d_idata, d_odata, h_idata, h_odata, size,
                     cpuSum);
    ok &= runVariant(TAIL, "nestedTail", grid, block, d_idata, d_odata, h_idata, h_odata, size,
                     cpuSum);

    CHECK(cudaFree(d_idata));
    CHECK(cudaFree(d_odata));
    free(h_idata);
    free(h_odata);
    CHECK(cudaDeviceReset());
    printf("%s\n", ok ? "Test passed" : "Test failed!");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
