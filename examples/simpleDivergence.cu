/* simpleDivergence — warp divergence and how to avoid it.
 *
 * mathKernel1 branches on the parity of the thread index, so the two paths split every
 * warp; mathKernel2 branches on the parity of the warp index, so each warp takes one
 * path; mathKernel3 is mathKernel1 written as two independent conditions on a saved
 * predicate. warmingup (the same as mathKernel2) runs first so that start-up cost is not
 * charged to the first measured kernel. Each result is checked against the pattern the
 * kernel must produce.
 *
 * Usage: simpleDivergence [threads per block (default 64)] [elements (default 1024)]
 */
#include "common.h"

__global__ void mathKernel1(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;
    if (tid % 2 == 0)
        ia = 100.0f;
    else
        ib = 200.0f;
    c[tid] = ia + ib;
}

__global__ void mathKernel2(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;
    if ((tid / warpSize) % 2 == 0)
        ia = 100.0f;
    else
        ib = 200.0f;
    c[tid] = ia + ib;
}

__global__ void mathKernel3(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;
    bool ipred = (tid % 2 == 0);
    if (ipred)
        ia = 100.0f;
    if (!ipred)
        ib = 200.0f;
    c[tid] = ia + ib;
}

__global__ void warmingup(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;
    if ((tid / warpSize) % 2 == 0)
        ia = 100.0f;
    else
        ib = 200.0f;
    c[tid] = ia + ib;
}

/* Check c against the value each thread must have written: 100 on the "even" path,
 * 200 on the other, where evenness is of the thread (byWarp false) or of its warp. */
static bool checkPattern(const float *c, int n, bool byWarp)
{
    for (int tid = 0; tid < n; tid++) {
        int key = byWarp ? tid / 32 : tid;
        float want = key % 2 == 0 ? 100.0f : 200.0f;
        if (c[tid] != want) {
            printf("  mismatch at %d: got %.1f, expected %.1f\n", tid, c[tid], want);
            return false;
        }
    }
    return true;
}

typedef void (*MathKernel)(float *);

/* Launch one kernel on a poisoned buffer, then fetch and check its result. */
static bool runKernel(const char *name, MathKernel kernel, bool byWarp, dim3 grid, dim3 block,
                      float *d_C, float *h_C, int size, size_t allocBytes)
{
    CHECK(cudaMemset(d_C, 0xFF, allocBytes));
    CHECK(cudaDeviceSynchronize());
    double t0 = example_seconds();
    kernel<<<grid, block>>>(d_C);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double elapsed = example_seconds() - t0;
    CHECK(cudaMemcpy(h_C, d_C, (size_t)size * sizeof(float), cudaMemcpyDeviceToHost));
    bool ok = checkPattern(h_C, size, byWarp);
    printf("%-11s <<< %4d %4d >>>", name, grid.x, block.x);
    example_print_elapsed(elapsed);
    printf(" %s\n", ok ? "result correct" : "RESULT WRONG");
    return ok;
}

int main(int argc, char **argv)
{
    int blocksize = argc > 1 ? atoi(argv[1]) : 64;
    int size = argc > 2 ? atoi(argv[2]) : 1024;
    if (blocksize <= 0 || size <= 0) {
        printf("usage: simpleDivergence [threads per block] [elements]\n");
        return EXIT_FAILURE;
    }

    int dev = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("simpleDivergence using device %d: %s\n", dev, prop.name);
    printf("Data size %d\n", size);

    dim3 block(blocksize, 1);
    dim3 grid((size + block.x - 1) / block.x, 1);
    printf("Execution configure (block %d grid %d)\n", block.x, grid.x);

    /* The kernels have no bounds check (as classically written), so the buffer covers
     * the whole grid; only the first `size` elements are checked. */
    size_t allocBytes = (size_t)grid.x * block.x * sizeof(float);
    float *d_C;
    CHECK(cudaMalloc((void **)&d_C, allocBytes));
    float *h_C = (float *)malloc(allocBytes);

    bool ok = true;
    ok &= runKernel("warmup", warmingup, true, grid, block, d_C, h_C, size, allocBytes);
    ok &= runKernel("mathKernel1", mathKernel1, false, grid, block, d_C, h_C, size, allocBytes);
    ok &= runKernel("mathKernel2", mathKernel2, true, grid, block, d_C, h_C, size, allocBytes);
    ok &= runKernel("mathKernel3", mathKernel3, false, grid, block, d_C, h_C, size, allocBytes);

    printf("%s\n", ok ? "All kernels correct" : "Some kernels wrong");
    CHECK(cudaFree(d_C));
    free(h_C);
    CHECK(cudaDeviceReset());
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
