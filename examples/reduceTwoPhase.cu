/* reduceTwoPhase — sum reduction in two launches of one grid-stride kernel.
 *
 * Phase one: numBlocks blocks; each thread adds every stride-th element (stride = all
 * threads of the grid) into a register, the block reduces those in dynamic shared memory
 * and writes one partial. Phase two: the same kernel with a single block reduces the
 * partials. Blocks cannot wait for each other inside a launch; the end of the first
 * launch is the grid-wide barrier. Versions of the in-block stage:
 *   reduceGridStride        a barrier after every halving step
 *   reduceGridStrideWarp    the last 32 threads finish warp-synchronously (volatile)
 *   reduceGridStrideT<N>    the block size as a template parameter, fully unrolled,
 *                           chosen by a switch over 1, 2, 4, ... 1024
 *   reduceGridStrideShfl    the last warp finishes with register shuffles
 *   reduceOnePhaseAtomic    one launch: each block adds its partial into the total with
 *                           atomicAdd, the usual answer to "can it be done in one phase?"
 *
 * The warp-synchronous stages read up to 32 entries past the block's threads, so the
 * shared buffer is at least 64 ints and the part past blockDim.x is zeroed.
 *
 * Usage: reduceTwoPhase [elements (default 1<<22)] [blocks (default 256)]
 *                       [threads per block: a power of two up to 1024 (default 256)]
 */
#include "common.h"

/* Phase-one grid-stride accumulation plus the shared-buffer setup every version shares. */
__device__ __forceinline__ void loadPartials(int *buffer, const int *in, size_t N,
                                             unsigned int threadsPerBlock)
{
    unsigned int tid = threadIdx.x;
    int sum = 0;
    size_t id = tid + (size_t)threadsPerBlock * blockIdx.x;
    size_t stride = (size_t)threadsPerBlock * gridDim.x;
    for (size_t i = id; i < N; i += stride)
        sum += in[i];
    buffer[tid] = sum;
    for (unsigned int i = threadsPerBlock + tid; i < 64; i += threadsPerBlock)
        buffer[i] = 0;
    __syncthreads();
}

__global__ void reduceGridStride(int *out, const int *in, size_t N)
{
    extern __shared__ int buffer[];
    loadPartials(buffer, in, N, blockDim.x);
    for (unsigned int i = blockDim.x >> 1; i != 0; i >>= 1) {
        if (threadIdx.x < i)
            buffer[threadIdx.x] += buffer[threadIdx.x + i];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = buffer[0];
}

__global__ void reduceGridStrideWarp(int *out, const int *in, size_t N)
{
    extern __shared__ int buffer[];
    loadPartials(buffer, in, N, blockDim.x);
    for (unsigned int i = blockDim.x >> 1; i > 32; i >>= 1) {
        if (threadIdx.x < i)
            buffer[threadIdx.x] += buffer[threadIdx.x + i];
        __syncthreads();
    }
    if (threadIdx.x < 32) {
        volatile int *wsSum = buffer;
        if (blockDim.x > 32)
            wsSum[threadIdx.x] += wsSum[threadIdx.x + 32];
        wsSum[threadIdx.x] += wsSum[threadIdx.x + 16];
        wsSum[threadIdx.x] += wsSum[threadIdx.x + 8];
        wsSum[threadIdx.x] += wsSum[threadIdx.x + 4];
        wsSum[threadIdx.x] += wsSum[threadIdx.x + 2];
        wsSum[threadIdx.x] += wsSum[threadIdx.x + 1];
        if (threadIdx.x == 0)
            out[blockIdx.x] = wsSum[0];
    }
}

template <unsigned int threadsPerBlock>
__global__ void reduceGridStrideT(int *out, const int *in, size_t N)
{
    extern __shared__ int buffer[];
    unsigned int tid = threadIdx.x;
    loadPartials(buffer, in, N, threadsPerBlock);
    if (threadsPerBlock >= 1024) {
        if (tid < 512)
            buffer[tid] += buffer[tid + 512];
        __syncthreads();
    }
    if (threadsPerBlock >= 512) {
        if (tid < 256)
            buffer[tid] += buffer[tid + 256];
        __syncthreads();
    }
    if (threadsPerBlock >= 256) {
        if (tid < 128)
            buffer[tid] += buffer[tid + 128];
        __syncthreads();
    }
    if (threadsPerBlock >= 128) {
        if (tid < 64)
            buffer[tid] += buffer[tid + 64];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *wsSum = buffer;
        if (threadsPerBlock >= 64) wsSum[tid] += wsSum[tid + 32];
        if (threadsPerBlock >= 32) wsSum[tid] += wsSum[tid + 16];
        if (threadsPerBlock >= 16) wsSum[tid] += wsSum[tid + 8];
        if (threadsPerBlock >= 8) wsSum[tid] += wsSum[tid + 4];
        if (threadsPerBlock >= 4) wsSum[tid] += wsSum[tid + 2];
        if (threadsPerBlock >= 2) wsSum[tid] += wsSum[tid + 1];
        if (tid == 0)
            out[blockIdx.x] = wsSum[0];
    }
}

/* Needs at least one full warp per block: the shuffles name all 32 lanes. */
__global__ void reduceGridStrideShfl(int *out, const int *in, size_t N)
{
    extern __shared__ int buffer[];
    loadPartials(buffer, in, N, blockDim.x);
    for (unsigned int i = blockDim.x >> 1; i >= 32; i >>= 1) {
        if (threadIdx.x < i)
            buffer[threadIdx.x] += buffer[threadIdx.x + i];
        __syncthreads();
    }
    if (threadIdx.x < 32) {
        int v = buffer[threadIdx.x];
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (threadIdx.x == 0)
            out[blockIdx.x] = v;
    }
}

/* One launch: the block's partial goes straight into *total (which starts at zero). */
__global__ void reduceOnePhaseAtomic(int *total, const int *in, size_t N)
{
    extern __shared__ int buffer[];
    loadPartials(buffer, in, N, blockDim.x);
    for (unsigned int i = blockDim.x >> 1; i != 0; i >>= 1) {
        if (threadIdx.x < i)
            buffer[threadIdx.x] += buffer[threadIdx.x + i];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(total, buffer[0]);
}

typedef void (*ReduceKernel)(int *, const int *, size_t);

static size_t sharedBytes(int threads)
{
    return (size_t)(threads < 64 ? 64 : threads) * sizeof(int);
}

/* Both phases with one kernel. */
static void twoPhase(ReduceKernel kernel, int *d_res, int *d_partial, const int *d_in, size_t N,
                     int numBlocks, int threads)
{
    size_t shmem = sharedBytes(threads);
    kernel<<<numBlocks, threads, shmem>>>(d_partial, d_in, N);
    CHECK(cudaGetLastError());
    kernel<<<1, threads, shmem>>>(d_res, d_partial, (size_t)numBlocks);
    CHECK(cudaGetLastError());
}

template <int threads>
static void callReduction(int *d_res, int *d_partial, const int *d_in, size_t N, int numBlocks)
{
    twoPhase(reduceGridStrideT<threads>, d_res, d_partial, d_in, N, numBlocks, threads);
}

static bool templatedReduction(int *d_res, int *d_partial, const int *d_in, size_t N,
                               int numBlocks, int threads)
{
    switch (threads) {
    case 1: callReduction<1>(d_res, d_partial, d_in, N, numBlocks); return true;
    case 2: callReduction<2>(d_res, d_partial, d_in, N, numBlocks); return true;
    case 4: callReduction<4>(d_res, d_partial, d_in, N, numBlocks); return true;
    case 8: callReduction<8>(d_res, d_partial, d_in, N, numBlocks); return true;
    case 16: callReduction<16>(d_res, d_partial, d_in, N, numBlocks); return true;
    case 32: callReduction<32>(d_res, d_partial, d_in, N, numBlocks); return true;
    case 64: callReduction<64>(d_res, d_partial, d_in, N, numBlocks); return true;
    case 128: callReduction<128>(d_res, d_partial, d_in, N, numBlocks); return true;
    case 256: callReduction<256>(d_res, d_partial, d_in, N, numBlocks); return true;
    case 512: callReduction<512>(d_res, d_partial, d_in, N, numBlocks); return true;
    case 1024: callReduction<1024>(d_res, d_partial, d_in, N, numBlocks); return true;
    }
    return false;
}

/* Fetch the device's total, print it against the host's, say whether they agree. */
static bool report(const char *label, const int *d_res, long long expected, double elapsed)
{
    int result = 0;
    CHECK(cudaMemcpy(&result, d_res, sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = (long long)result == expected;
    printf("%-22s", label);
    example_print_elapsed(elapsed);
    printf(" sum: %d %s\n", result, ok ? "ok" : "MISMATCH");
    return ok;
}

int main(int argc, char **argv)
{
    long long n = argc > 1 ? atoll(argv[1]) : 1 << 22;
    int numBlocks = argc > 2 ? atoi(argv[2]) : 256;
    int threads = argc > 3 ? atoi(argv[3]) : 256;
    if (n <= 0 || n > (1LL << 24) || numBlocks <= 0 || threads <= 0 || threads > 1024 ||
        (threads & (threads - 1)) != 0) {
        printf("usage: reduceTwoPhase [elements <= 1<<24] [blocks] "
               "[threads: power of two <= 1024]\n");
        return EXIT_FAILURE;
    }
    size_t N = (size_t)n;

    int dev = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("reduceTwoPhase using device %d: %s\n", dev, prop.name);
    printf("elements %zu, phase one <<<%d, %d>>>, phase two <<<1, %d>>>, shared %zu bytes\n",
           N, numBlocks, threads, threads, sharedBytes(threads));

    /* Values in [-100, 100]: any sum of up to 1<<24 of them stays inside int. */
    int *h_in = (int *)malloc(N * sizeof(int));
    uint32_t seed = 99u;
    long long expected = 0;
    for (size_t i = 0; i < N; i++) {
        h_in[i] = (int)(example_rand(&seed) % 201u) - 100;
        expected += h_in[i];
    }
    if (example_timing()) {
        /* The host reference alone (the loop above also makes the input). */
        double t = example_seconds();
        long long again = 0;
        for (size_t i = 0; i < N; i++)
            again += ((volatile int *)h_in)[i];
        printf("host reduce");
        example_print_elapsed(example_seconds() - t);
        printf(" sum: %lld\n", again);
    }
    printf("host sum: %lld\n", expected);

    int *d_in, *d_partial, *d_res;
    CHECK(cudaMalloc((void **)&d_in, N * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_partial, numBlocks * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_res, sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice));

    bool ok = true;
    double t0;

    CHECK(cudaMemset(d_res, 0xFF, sizeof(int)));
    t0 = example_seconds();
    twoPhase(reduceGridStride, d_res, d_partial, d_in, N, numBlocks, threads);
    CHECK(cudaDeviceSynchronize());
    ok &= report("reduceGridStride", d_res, expected, example_seconds() - t0);

    CHECK(cudaMemset(d_res, 0xFF, sizeof(int)));
    t0 = example_seconds();
    twoPhase(reduceGridStrideWarp, d_res, d_partial, d_in, N, numBlocks, threads);
    CHECK(cudaDeviceSynchronize());
    ok &= report("reduceGridStrideWarp", d_res, expected, example_seconds() - t0);

    CHECK(cudaMemset(d_res, 0xFF, sizeof(int)));
    t0 = example_seconds();
    templatedReduction(d_res, d_partial, d_in, N, numBlocks, threads);
    CHECK(cudaDeviceSynchronize());
    char label[32];
    snprintf(label, sizeof label, "reduceGridStrideT<%d>", threads);
    ok &= report(label, d_res, expected, example_seconds() - t0);

    if (threads >= 32) {
        CHECK(cudaMemset(d_res, 0xFF, sizeof(int)));
        t0 = example_seconds();
        twoPhase(reduceGridStrideShfl, d_res, d_partial, d_in, N, numBlocks, threads);
        CHECK(cudaDeviceSynchronize());
        ok &= report("reduceGridStrideShfl", d_res, expected, example_seconds() - t0);
    } else {
        printf("reduceGridStrideShfl   skipped: needs at least 32 threads per block\n");
    }

    CHECK(cudaMemset(d_res, 0, sizeof(int)));
    t0 = example_seconds();
    reduceOnePhaseAtomic<<<numBlocks, threads, sharedBytes(threads)>>>(d_res, d_in, N);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    ok &= report("reduceOnePhaseAtomic", d_res, expected, example_seconds() - t0);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_res));
    free(h_in);
    CHECK(cudaDeviceReset());
    printf("%s\n", ok ? "All reductions match the host sum" : "Test failed!");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
