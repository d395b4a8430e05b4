/* bench/peers/peers_c.c — the peer benchmark's plain C runner: for each seed kernel, the
 * straightforward CPU loop computing the same result on one core (gcc -O2), with the
 * inputs and checks of the other runners, timed with the host clock after warm-up runs.
 *
 *   every reduction          one loop summing the ints
 *   sumMatrixOnGPU2D         one loop adding the matrices element by element
 *   matMultNaive, ...Tiled   the i-j-k triple loop (the tiled kernel computes the same
 *                            product; C's answer to it is the same loop)
 *
 * Usage: peers_c reduce_n sum_n mm_n [warmup]; one line per kernel (peers_common.h).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "peers_common.h"

/* Results pass through here so the compiler cannot drop the work of a warm-up run. */
static volatile long long sink;

/* Tell the compiler memory may have changed: a loop over the same input is then run
 * again, not reused from the warm-up run (the loops are pure functions of memory). */
#define FRESH() __asm__ volatile("" ::: "memory")

static long long sum_ints(const int *a, unsigned n)
{
    int sum = 0;
    for (unsigned i = 0; i < n; i++)
        sum += a[i];
    return sum;
}

static void add_matrices(const float *A, const float *B, float *C, int nx, int ny)
{
    for (int iy = 0; iy < ny; iy++)
        for (int ix = 0; ix < nx; ix++)
            C[iy * nx + ix] = A[iy * nx + ix] + B[iy * nx + ix];
}

static void mat_mult(const float *a, const float *b, float *c, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
    }
}

static const char *const reductions[] = {
    "reduceNeighbored",     "reduceNeighboredLess",     "reduceInterleaved",
    "reduceUnrolling2",     "reduceUnrolling4",         "reduceUnrolling8",
    "reduceUnrolling8Loop", "reduceUnrolling16",        "reduceUnrollWarps8",
    "reduceCompleteUnrollWarps8", "reduceCompleteUnrollWarps8Sync",
    "reduceCompleteUnroll<512>", "reduceGridStride",    "reduceGridStrideWarp",
    "reduceGridStrideT<512>", "reduceGridStrideShfl",   "reduceOnePhaseAtomic",
};

int main(int argc, char **argv)
{
    peers_sizes s;
    if (peers_parse(argc, argv, &s) != 0)
        return 2;

    int *in = malloc((size_t)s.reduce_n * sizeof(int));
    long long exact = peers_reduce_input(in, s.reduce_n);
    for (size_t r = 0; r < sizeof reductions / sizeof reductions[0]; r++) {
        for (int i = 0; i < s.warmup; i++) {
            FRESH();
            sink = sum_ints(in, s.reduce_n);
        }
        FRESH();
        peers_time t0 = peers_clock();
        long long got = sum_ints(in, s.reduce_n);
        peers_time ms = peers_since(t0);
        peers_report_sum(reductions[r], ms, got, exact);
    }
    free(in);

    size_t count = (size_t)s.sum_n * s.sum_n;
    float *A = malloc(count * sizeof(float)), *B = malloc(count * sizeof(float));
    float *ref = malloc(count * sizeof(float)), *C = malloc(count * sizeof(float));
    peers_sum_input(A, B, ref, count);
    for (int i = 0; i < s.warmup; i++) {
        add_matrices(A, B, C, s.sum_n, s.sum_n);
        sink = (long long)C[count - 1];
    }
    memset(C, 0xFF, count * sizeof(float));
    peers_time t0 = peers_clock();
    add_matrices(A, B, C, s.sum_n, s.sum_n);
    peers_time ms = peers_since(t0);
    peers_report_matrix("sumMatrixOnGPU2D", ms, peers_mismatches(C, ref, count), count);
    free(A);
    free(B);
    free(ref);
    free(C);

    count = (size_t)s.mm_n * s.mm_n;
    float *a = malloc(count * sizeof(float)), *b = malloc(count * sizeof(float));
    float *mref = malloc(count * sizeof(float)), *c = malloc(count * sizeof(float));
    peers_mm_input(a, b, mref, s.mm_n);
    static const char *const products[] = {"matMultNaive", "matMultTiled"};
    for (int p = 0; p < 2; p++) {
        for (int i = 0; i < s.warmup; i++) {
            mat_mult(a, b, c, s.mm_n);
            sink = (long long)c[count - 1];
        }
        memset(c, 0xFF, count * sizeof(float));
        t0 = peers_clock();
        mat_mult(a, b, c, s.mm_n);
        ms = peers_since(t0);
        peers_report_matrix(products[p], ms, peers_mismatches(c, mref, count), count);
    }
    free(a);
    free(b);
    free(mref);
    free(c);
    return 0;
}
