/* reduceFloat — the interleaved and the completely unrolled reductions on float data.
 *
 * The same algorithms as reduceInteger's reduceInterleaved and
 * reduceCompleteUnrollWarps8, over floats with one decimal. Float addition is not
 * associative, so the device's tree and the host's interleaved recursion round
 * differently; each result is compared with a double-precision host sum to a relative
 * 1e-5. The printed sums are deterministic: each kernel adds in a fixed order.
 *
 * Usage: reduceFloat [threads per block: 64..1024, a power of two (default 512)]
 *                    [elements: a multiple of 8 * block (default 1<<20)]
 */
#include "common.h"
#include <cmath>

/* Interleaved-pair float sum on the host, in place. */
static float recursiveReduce(float *data, int size)
{
    if (size == 1)
        return data[0];
    int stride = size / 2;
    for (int i = 0; i < stride; i++)
        data[i] += data[i + stride];
    if (size & 1)
        data[0] += data[size - 1];
    return recursiveReduce(data, stride);
}

__global__ void reduceInterleavedFloat(float *g_idata, float *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    float *idata = g_idata + blockIdx.x * blockDim.x;
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

__global__ void reduceCompleteUnrollWarps8Float(float *g_idata, float *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    float *idata = g_idata + blockIdx.x * blockDim.x * 8;
    if (idx + 7 * blockDim.x < n) {
        float a1 = g_idata[idx];
        float a2 = g_idata[idx + blockDim.x];
        float a3 = g_idata[idx + 2 * blockDim.x];
        float a4 = g_idata[idx + 3 * blockDim.x];
        float b1 = g_idata[idx + 4 * blockDim.x];
        float b2 = g_idata[idx + 5 * blockDim.x];
        float b3 = g_idata[idx + 6 * blockDim.x];
        float b4 = g_idata[idx + 7 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    }
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
    if (tid < 32) {
        volatile float *vmem = idata;
        vmem[tid] += vmem[tid + 32];
        vmem[tid] += vmem[tid + 16];
        vmem[tid] += vmem[tid + 8];
        vmem[tid] += vmem[tid + 4];
        vmem[tid] += vmem[tid + 2];
        vmem[tid] += vmem[tid + 1];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

typedef void (*ReduceKernel)(float *, float *, unsigned int);

static bool runReduce(const char *label, ReduceKernel kernel, int blocks, dim3 block,
                      float *d_idata, float *d_odata, const float *h_idata, float *h_odata,
                      unsigned int size, double reference)
{
    size_t bytes = (size_t)size * sizeof(float);
    CHECK(cudaMemcpy(d_idata, h_idata, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaDeviceSynchronize());
    double t0 = example_seconds();
    kernel<<<blocks, block>>>(d_idata, d_odata, size);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double elapsed = example_seconds() - t0;
    CHECK(cudaMemcpy(h_odata, d_odata, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    float gpuSum = 0.0f;
    for (int i = 0; i < blocks; i++)
        gpuSum += h_odata[i];
    bool ok = fabs((double)gpuSum - reference) <= 1.0e-5 * fabs(reference);
    printf("gpu %-16s", label);
    example_print_elapsed(elapsed);
    printf(" gpu_sum: %.4f <<<grid %d block %d>>>%s\n", gpuSum, blocks, block.x,
           ok ? "" : " MISMATCH");
    return ok;
}

int main(int argc, char **argv)
{
    int blocksize = argc > 1 ? atoi(argv[1]) : 512;
    long long requested = argc > 2 ? atoll(argv[2]) : 1 << 20;
    if (blocksize < 64 || blocksize > 1024 || (blocksize & (blocksize - 1)) != 0 ||
        requested <= 0 || requested > (1LL << 30) || requested % (8LL * blocksize) != 0) {
        printf("usage: reduceFloat [block: 64..1024, power of two] "
               "[elements: multiple of 8 * block]\n");
        return EXIT_FAILURE;
    }
    unsigned int size = (unsigned int)requested;

    int dev = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("reduceFloat starting reduction at device %d: %s\n", dev, prop.name);
    CHECK(cudaSetDevice(dev));
    dim3 block(blocksize, 1);
    int grid = (int)((size + block.x - 1) / block.x);
    printf("    with array size %u  grid %d block %d\n", size, grid, block.x);

    size_t bytes = (size_t)size * sizeof(float);
    float *h_idata = (float *)malloc(bytes);
    float *h_odata = (float *)malloc(grid * sizeof(float));
    float *tmp = (float *)malloc(bytes);
    uint32_t seed = 7u;
    double reference = 0.0;
    for (unsigned int i = 0; i < size; i++) {
        h_idata[i] = (float)(example_rand(&seed) & 0xFF) / 10.0f;
        reference += h_idata[i];
        tmp[i] = h_idata[i];
    }

    double t0 = example_seconds();
    float cpuSum = recursiveReduce(tmp, (int)size);
    double elapsed = example_seconds() - t0;
    printf("cpu reduce          ");
    example_print_elapsed(elapsed);
    printf(" cpu_sum: %.4f (double: %.4f)\n", cpuSum, reference);

    float *d_idata, *d_odata;
    CHECK(cudaMalloc((void **)&d_idata, bytes));
    CHECK(cudaMalloc((void **)&d_odata, grid * sizeof(float)));

    bool ok = true;
    ok &= runReduce("Interleaved", reduceInterleavedFloat, grid, block, d_idata, d_odata,
                    h_idata, h_odata, size, reference);
    ok &= runReduce("Cmptnroll8", reduceCompleteUnrollWarps8Float, grid / 8, block, d_idata,
                    d_odata, h_idata, h_odata, size, reference);

    CHECK(cudaFree(d_idata));
    CHECK(cudaFree(d_odata));
    free(h_idata);
    free(h_odata);
    free(tmp);
    CHECK(cudaDeviceReset());
    printf("%s\n", ok ? "Test passed: sums agree to 1e-5" : "Test failed!");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
