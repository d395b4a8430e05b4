/* nestedReduce — recursive reduction with device-side launches that wait for their child
 * (the original dynamic-parallelism model, CDP1).
 *
 * gpuRecursiveReduce: each block adds the upper half of its slice onto the lower half,
 * then thread 0 launches a one-block child grid over the lower half and waits for it with
 * the device-side cudaDeviceSynchronize; a two-element slice ends the recursion. The
 * plain reduceNeighbored kernel is run first for comparison.
 *
 * Device-side cudaDeviceSynchronize exists only in CDP1, which CUDA 12+ offers for
 * devices below compute capability 9.0 when asked for:
 * Build: nvcc -arch=sm_80 -DCUDA_FORCE_CDP1_IF_SUPPORTED -rdc=true nestedReduce.cu -lcudadevrt
 * Usage: nestedReduce [blocks (default 128)] [threads per block: power of two (default 512)]
 */
#include "../common.h"

/* The first error a device-side launch or wait reported (0: none). */
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

__global__ void gpuRecursiveReduce(int *g_idata, int *g_odata, unsigned int isize)
{
    unsigned int tid = threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    int *odata = &g_odata[blockIdx.x];

    if (isize == 2 && tid == 0) {   /* a leaf: two elements left */
        g_odata[blockIdx.x] = idata[0] + idata[1];
        return;
    }
    int istride = isize >> 1;
    if (istride > 1 && tid < istride)
        idata[tid] += idata[tid + istride];
    __syncthreads();   /* the whole half is summed before the child reads it */
    if (tid == 0) {
        gpuRecursiveReduce<<<1, istride>>>(idata, odata, istride);
        recordDeviceError(cudaGetLastError());
        recordDeviceError(cudaDeviceSynchronize());   /* wait for the child grid */
    }
    __syncthreads();
}

static unsigned hostSum(const int *data, int n)
{
    unsigned s = 0;
    for (int i = 0; i < n; i++)
        s += (unsigned)data[i];
    return s;
}

int main(int argc, char **argv)
{
    int nblock = argc > 1 ? atoi(argv[1]) : 128;
    int nthread = argc > 2 ? atoi(argv[2]) : 512;
    if (nblock <= 0 || nthread < 2 || nthread > 1024 || (nthread & (nthread - 1)) != 0) {
        printf("usage: nestedReduce [blocks] [threads per block: power of two, 2..1024]\n");
        return EXIT_FAILURE;
    }
    int size = nblock * nthread;
    dim3 block(nthread, 1);
    dim3 grid(nblock, 1);
    printf("nestedReduce array %d grid %d block %d\n", size, grid.x, block.x);

    /* One nesting level per halving of the block, each waiting on the next. */
    int depth = 0;
    for (int s = nthread; s > 1; s >>= 1)
        depth++;
    cudaError_t limitErr = cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, depth + 1);
    if (limitErr != cudaSuccess) {
        /* Reported, not fatal: the launches below say whether the device can run this. */
        printf("cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, %d): %s\n", depth + 1,
               cudaGetErrorName(limitErr));
        cudaGetLastError();
    }

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

    CHECK(cudaMemcpy(d_idata, h_idata, bytes, cudaMemcpyHostToDevice));
    double t0 = example_seconds();
    reduceNeighbored<<<grid, block>>>(d_idata, d_odata, size);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double elapsed = example_seconds() - t0;
    CHECK(cudaMemcpy(h_odata, d_odata, grid.x * sizeof(int), cudaMemcpyDeviceToHost));
    unsigned gpuSum = hostSum(h_odata, grid.x);
    printf("gpu Neighbored    ");
    example_print_elapsed(elapsed);
    printf(" gpu_sum: %d <<<grid %d block %d>>> %s\n", (int)gpuSum, grid.x, block.x,
           gpuSum == cpuSum ? "ok" : "MISMATCH");
    ok &= gpuSum == cpuSum;

    CHECK(cudaMemcpy(d_idata, h_idata, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_odata, 0, grid.x * sizeof(int)));
    t0 = example_seconds();
    gpuRecursiveReduce<<<grid, block>>>(d_idata, d_odata, block.x);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    elapsed = example_seconds() - t0;
    int deviceError = 0;
    CHECK(cudaMemcpyFromSymbol(&deviceError, g_deviceError, sizeof(int)));
    if (deviceError) {
        printf("device-side launch error: %s\n", cudaGetErrorName((cudaError_t)deviceError));
        ok = false;
    }
    CHECK(cudaMemcpy(h_odata, d_odata, grid.x * sizeof(int), cudaMemcpyDeviceToHost));
    gpuSum = hostSum(h_odata, grid.x);
    printf("gpu nested        ");
    example_print_elapsed(elapsed);
    printf(" gpu_sum: %d <<<grid %d block %d>>> %s\n", (int)gpuSum, grid.x, block.x,
           gpuSum == cpuSum ? "ok" : "MISMATCH");
    ok &= gpuSum == cpuSum;

    CHECK(cudaFree(d_idata));
    CHECK(cudaFree(d_odata));
    free(h_idata);
    free(h_odata);
    CHECK(cudaDeviceReset());
    printf("%s\n", ok ? "Test passed" : "Test failed!");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
