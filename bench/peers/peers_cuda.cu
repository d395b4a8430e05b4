/* bench/peers/peers_cuda.cu — the peer benchmark's vcuda runner: the seed kernels of
 * examples/reduceInteger.cu, reduceTwoPhase.cu, sumMatrixOnGPU2D.cu and matMult.cu, run
 * at fixed sizes, each checked against the exact answer and timed with the host clock
 * around launch and cudaDeviceSynchronize after warm-up runs.
 *
 * The kernels are the examples' own: each example is included whole inside a namespace
 * of its own (its main renamed), so what is measured is exactly what the examples and
 * their tests run, and a change to an example changes the benchmark too.
 *
 * Usage: peers_cuda reduce_n sum_n mm_n [warmup]; one line per kernel (peers_common.h).
 * Build: vcuda cc -O2 -arch=sm_90 -o peers_cuda bench/peers/peers_cuda.cu
 */
#include "../../examples/common.h"
#include <cmath>
#include <cstring>
#include "peers_common.h"

/* Every header the examples include is already in, so the includes inside the namespaces
 * below are empty (include guards) and only the examples' own code is namespaced. */
#define main reduceInteger_main
namespace ri {
#include "../../examples/reduceInteger.cu"
}
#undef main
#define main reduceTwoPhase_main
namespace tp {
#include "../../examples/reduceTwoPhase.cu"
}
#undef main
#define main sumMatrixOnGPU2D_main
namespace sm {
#include "../../examples/sumMatrixOnGPU2D.cu"
}
#undef main
#define main matMult_main
namespace mm {
#include "../../examples/matMult.cu"
}
#undef main

/* Run `launch` (which must end in cudaDeviceSynchronize) after `prepare`, warm-up times
 * untimed and once timed; returns the timed run's milliseconds. */
template <typename Prepare, typename Launch>
static peers_time timed(int warmup, Prepare prepare, Launch launch)
{
    for (int i = 0; i < warmup; i++) {
        prepare();
        launch();
    }
    prepare();
    peers_time t0 = peers_clock();
    launch();
    return peers_since(t0);
}

/* reduceInteger: each kernel reduces its blocks' slices of the input in place and writes
 * one partial per block; the host adds them, as the example does. */
static void run_reduce_integer(const peers_sizes &s, const int *h_in, long long exact)
{
    struct Variant {
        const char *name;
        ri::ReduceKernel kernel;
        unsigned fold; /* input blocks each block consumes */
    };
    static const Variant variants[] = {
        {"reduceNeighbored", ri::reduceNeighbored, 1},
        {"reduceNeighboredLess", ri::reduceNeighboredLess, 1},
        {"reduceInterleaved", ri::reduceInterleaved, 1},
        {"reduceUnrolling2", ri::reduceUnrolling2, 2},
        {"reduceUnrolling4", ri::reduceUnrolling4, 4},
        {"reduceUnrolling8", ri::reduceUnrolling8, 8},
        {"reduceUnrolling8Loop", ri::reduceUnrolling8Loop, 8},
        {"reduceUnrolling16", ri::reduceUnrolling16, 16},
        {"reduceUnrollWarps8", ri::reduceUnrollWarps8, 8},
        {"reduceCompleteUnrollWarps8", ri::reduceCompleteUnrollWarps8, 8},
        {"reduceCompleteUnrollWarps8Sync", ri::reduceCompleteUnrollWarps8Sync, 8},
        {"reduceCompleteUnroll<512>", ri::reduceCompleteUnroll<PEERS_REDUCE_BLOCK>, 8},
    };
    unsigned n = s.reduce_n;
    size_t bytes = (size_t)n * sizeof(int);
    unsigned maxGrid = n / PEERS_REDUCE_BLOCK;
    int *d_in, *d_out;
    CHECK(cudaMalloc((void **)&d_in, bytes));
    CHECK(cudaMalloc((void **)&d_out, maxGrid * sizeof(int)));
    int *h_out = (int *)malloc(maxGrid * sizeof(int));
    for (const Variant &v : variants) {
        unsigned grid = maxGrid / v.fold;
        peers_time ms = timed(
            s.warmup,
            [&] {
                CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
                CHECK(cudaMemset(d_out, 0, grid * sizeof(int)));
                CHECK(cudaDeviceSynchronize());
            },
            [&] {
                v.kernel<<<grid, PEERS_REDUCE_BLOCK>>>(d_in, d_out, n);
                CHECK(cudaGetLastError());
                CHECK(cudaDeviceSynchronize());
            });
        CHECK(cudaMemcpy(h_out, d_out, grid * sizeof(int), cudaMemcpyDeviceToHost));
        unsigned sum = 0; /* 32-bit wrap, as the device's adds */
        for (unsigned i = 0; i < grid; i++)
            sum += (unsigned)h_out[i];
        peers_report_sum(v.name, ms, (int)sum, exact);
    }
    free(h_out);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
}

/* reduceTwoPhase: a grid-stride first phase, then one block over the partials (the
 * example's twoPhase), or one launch ending in atomicAdd. */
static void run_two_phase(const peers_sizes &s, const int *h_in, long long exact)
{
    struct Variant {
        const char *name;
        tp::ReduceKernel kernel;
        bool atomic;
    };
    static const Variant variants[] = {
        {"reduceGridStride", tp::reduceGridStride, false},
        {"reduceGridStrideWarp", tp::reduceGridStrideWarp, false},
        {"reduceGridStrideT<512>", tp::reduceGridStrideT<PEERS_REDUCE_BLOCK>, false},
        {"reduceGridStrideShfl", tp::reduceGridStrideShfl, false},
        {"reduceOnePhaseAtomic", tp::reduceOnePhaseAtomic, true},
    };
    size_t N = s.reduce_n;
    const int blocks = PEERS_TWOPHASE_BLOCKS, threads = PEERS_REDUCE_BLOCK;
    int *d_in, *d_partial, *d_res;
    CHECK(cudaMalloc((void **)&d_in, N * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_partial, blocks * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_res, sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice));
    for (const Variant &v : variants) {
        peers_time ms = timed(
            s.warmup,
            [&] {
                CHECK(cudaMemset(d_res, v.atomic ? 0 : 0xFF, sizeof(int)));
                CHECK(cudaDeviceSynchronize());
            },
            [&] {
                if (v.atomic) {
                    v.kernel<<<blocks, threads, tp::sharedBytes(threads)>>>(d_res, d_in, N);
                    CHECK(cudaGetLastError());
                } else {
                    tp::twoPhase(v.kernel, d_res, d_partial, d_in, N, blocks, threads);
                }
                CHECK(cudaDeviceSynchronize());
            });
        int result = 0;
        CHECK(cudaMemcpy(&result, d_res, sizeof(int), cudaMemcpyDeviceToHost));
        peers_report_sum(v.name, ms, result, exact);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_res));
}

static void run_sum_matrix(const peers_sizes &s)
{
    int n = s.sum_n;
    size_t count = (size_t)n * n, bytes = count * sizeof(float);
    float *A = (float *)malloc(bytes), *B = (float *)malloc(bytes);
    float *ref = (float *)malloc(bytes), *C = (float *)malloc(bytes);
    peers_sum_input(A, B, ref, count);
    float *d_A, *d_B, *d_C;
    CHECK(cudaMalloc((void **)&d_A, bytes));
    CHECK(cudaMalloc((void **)&d_B, bytes));
    CHECK(cudaMalloc((void **)&d_C, bytes));
    CHECK(cudaMemcpy(d_A, A, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_B, B, bytes, cudaMemcpyHostToDevice));
    dim3 block(PEERS_SUM_BLOCK, PEERS_SUM_BLOCK);
    dim3 grid(n / block.x, n / block.y);
    peers_time ms = timed(
        s.warmup,
        [&] {
            CHECK(cudaMemset(d_C, 0xFF, bytes));
            CHECK(cudaDeviceSynchronize());
        },
        [&] {
            sm::sumMatrixOnGPU2D<<<grid, block>>>(d_A, d_B, d_C, n, n);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
        });
    CHECK(cudaMemcpy(C, d_C, bytes, cudaMemcpyDeviceToHost));
    peers_report_matrix("sumMatrixOnGPU2D", ms, peers_mismatches(C, ref, count), count);
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_B));
    CHECK(cudaFree(d_C));
    free(A);
    free(B);
    free(ref);
    free(C);
}

static void run_mat_mult(const peers_sizes &s)
{
    int n = s.mm_n;
    size_t count = (size_t)n * n, bytes = count * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
    float *ref = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    peers_mm_input(a, b, ref, n);
    float *d_a, *d_b, *d_c;
    CHECK(cudaMalloc((void **)&d_a, bytes));
    CHECK(cudaMalloc((void **)&d_b, bytes));
    CHECK(cudaMalloc((void **)&d_c, bytes));
    CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    struct Variant {
        const char *name;
        mm::MatKernel kernel;
    };
    static const Variant variants[] = {
        {"matMultNaive", mm::matMultNaive},
        {"matMultTiled", mm::matMultTiled},
    };
    dim3 threads(PEERS_MM_BLOCK, PEERS_MM_BLOCK);
    dim3 blocks(n / threads.x, n / threads.y);
    for (const Variant &v : variants) {
        peers_time ms = timed(
            s.warmup,
            [&] {
                CHECK(cudaMemset(d_c, 0xFF, bytes));
                CHECK(cudaDeviceSynchronize());
            },
            [&] {
                v.kernel<<<blocks, threads>>>(d_a, d_b, n, d_c);
                CHECK(cudaGetLastError());
                CHECK(cudaDeviceSynchronize());
            });
        CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));
        peers_report_matrix(v.name, ms, peers_mismatches(c, ref, count), count);
    }
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    free(a);
    free(b);
    free(ref);
    free(c);
}

int main(int argc, char **argv)
{
    peers_sizes s;
    if (peers_parse(argc, argv, &s) != 0)
        return 2;
    CHECK(cudaSetDevice(0));
    int *h_in = (int *)malloc((size_t)s.reduce_n * sizeof(int));
    long long exact = peers_reduce_input(h_in, s.reduce_n);
    run_reduce_integer(s, h_in, exact);
    run_two_phase(s, h_in, exact);
    run_sum_matrix(s);
    run_mat_mult(s);
    free(h_in);
    CHECK(cudaDeviceReset());
    return 0;
}
