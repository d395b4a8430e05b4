/* bench/peers/peers_common.h — what the three runners of the peer benchmark share (the
 * vcuda driver peers_cuda.cu, the OpenCL host peers_ocl.c for PoCL, the plain C loops
 * peers_c.c): the problem sizes from the command line, the inputs (the same pseudo-random
 * values in every runner), the exact answers to check against, the clocks, and the one line
 * each kernel's run prints for bench/peers/run.py:
 *
 *     <kernel>\t<wall ms>\t<CPU ms>\t<wait ms>\t<ok|WRONG|n/a>\t<detail>
 *
 * C11, also compiled as C++ (the CUDA driver), so everything here is static inline. C
 * includers define _POSIX_C_SOURCE first (clock_gettime, opendir).
 */
#ifndef PEERS_COMMON_H
#define PEERS_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>

/* Threads per block of every reduction (the fixed size). */
#define PEERS_REDUCE_BLOCK 512
/* Blocks of the grid-stride (two-phase) reductions' first phase, as reduceTwoPhase's default. */
#define PEERS_TWOPHASE_BLOCKS 256
/* Block shape of the matrix sum (the book's 32 x 32) and tile of the matrix products. */
#define PEERS_SUM_BLOCK 32
#define PEERS_MM_BLOCK 16

typedef struct {
    unsigned reduce_n; /* ints reduced: a multiple of 16 * PEERS_REDUCE_BLOCK */
    int sum_n;         /* the matrix sum is sum_n x sum_n: a multiple of PEERS_SUM_BLOCK */
    int mm_n;          /* the matrix products are mm_n x mm_n: a multiple of PEERS_MM_BLOCK */
    int warmup;        /* untimed runs of each kernel before the timed one */
} peers_sizes;

/* argv: <reduce_n> <sum_n> <mm_n> [warmup]. Returns 0, or prints usage and returns -1. */
static inline int peers_parse(int argc, char **argv, peers_sizes *s)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s reduce_n sum_n mm_n [warmup]\n", argv[0]);
        return -1;
    }
    long long r = atoll(argv[1]);
    s->sum_n = atoi(argv[2]);
    s->mm_n = atoi(argv[3]);
    s->warmup = argc > 4 ? atoi(argv[4]) : 1;
    if (r <= 0 || r > (1LL << 26) || r % (16 * PEERS_REDUCE_BLOCK) != 0 || s->sum_n <= 0 ||
        s->sum_n % PEERS_SUM_BLOCK != 0 || s->mm_n <= 0 || s->mm_n % PEERS_MM_BLOCK != 0 ||
        s->warmup < 0) {
        fprintf(stderr, "%s: reduce_n must be a multiple of %d up to 2^26, sum_n of %d, "
                        "mm_n of %d\n", argv[0], 16 * PEERS_REDUCE_BLOCK, PEERS_SUM_BLOCK,
                PEERS_MM_BLOCK);
        return -1;
    }
    s->reduce_n = (unsigned)r;
    return 0;
}

/* A kernel's time in milliseconds: wall (what the user waits for, and what shows the
 * threads' scaling), the process's CPU time (all its threads; on a machine shared with
 * other work this excludes the time the run was waiting for a core), and that wait: the
 * time its threads were ready to run while other work had the cores (Linux's per-thread
 * scheduler statistics; 0 where there are none). With wait, a run on a shared machine
 * still says what it would take on cores of its own: about wall - wait / threads. */
typedef struct {
    double wall, cpu, wait;
} peers_time;

/* The process's threads' time waiting for a core so far, ms (/proc/self/task/N/schedstat:
 * CPU time, wait, time slices, in ns). */
static inline double peers_wait_ms(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 0;
    double ns = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        unsigned long long run = 0, wait = 0;
        if (fscanf(f, "%llu %llu", &run, &wait) == 2)
            ns += (double)wait;
        fclose(f);
    }
    closedir(d);
    return ns / 1e6;
}

static inline double peers_clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline peers_time peers_clock(void)
{
    peers_time t;
    t.wait = peers_wait_ms();
    t.wall = peers_clock_ms(CLOCK_MONOTONIC);
    t.cpu = peers_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    return t;
}

/* The time from t0 until now. */
static inline peers_time peers_since(peers_time t0)
{
    peers_time t = peers_clock();
    t.wall -= t0.wall;
    t.cpu -= t0.cpu;
    t.wait -= t0.wait;
    return t;
}

/* The examples' generator (examples/common.h): top 16 bits of a 32-bit LCG. */
static inline uint32_t peers_rand(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 16;
}

/* Reduction input: ints in 0..255, as reduceInteger's. Returns the exact sum (it fits an
 * int for every allowed size: 2^26 * 255 < 2^31). */
static inline long long peers_reduce_input(int *a, unsigned n)
{
    uint32_t seed = 2024u;
    long long sum = 0;
    for (unsigned i = 0; i < n; i++) {
        a[i] = (int)(peers_rand(&seed) & 0xFF);
        sum += a[i];
    }
    return sum;
}

/* Matrix-sum inputs as sumMatrixOnGPU2D's, and the answer (one float add per element: any
 * runner doing the same add gets the same bits). */
static inline void peers_sum_input(float *A, float *B, float *C, size_t count)
{
    uint32_t sa = 11u, sb = 12u;
    for (size_t i = 0; i < count; i++) {
        A[i] = (float)(peers_rand(&sa) & 0xFF) / 10.0f;
        B[i] = (float)(peers_rand(&sb) & 0xFF) / 10.0f;
        C[i] = A[i] + B[i];
    }
}

/* Matrix-product inputs as matMult's: entries in {-2..2}, so every partial sum is a small
 * integer, exact in float in any order. The answer is computed in integers. */
static inline void peers_mm_input(float *a, float *b, float *ref, int n)
{
    int *ai = (int *)malloc((size_t)n * n * sizeof(int));
    int *bi = (int *)malloc((size_t)n * n * sizeof(int));
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            ai[i * n + j] = (i * 7 + j * 3) % 5 - 2;
            bi[i * n + j] = (i * 2 + j * 5 + 1) % 5 - 2;
            a[i * n + j] = (float)ai[i * n + j];
            b[i * n + j] = (float)bi[i * n + j];
        }
    }
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            int s = 0;
            for (int k = 0; k < n; k++)
                s += ai[i * n + k] * bi[k * n + j];
            ref[i * n + j] = (float)s;
        }
    }
    free(ai);
    free(bi);
}

/* Elements of got that differ from want (bitwise float compare: all answers are exact). */
static inline size_t peers_mismatches(const float *got, const float *want, size_t count)
{
    size_t bad = 0;
    for (size_t i = 0; i < count; i++)
        bad += got[i] != want[i];
    return bad;
}

/* The line run.py reads. */
static inline void peers_report(const char *kernel, peers_time t, const char *status,
                                const char *detail)
{
    printf("%s\t%.4f\t%.4f\t%.4f\t%s\t%s\n", kernel, t.wall, t.cpu, t.wait, status, detail);
    fflush(stdout);
}

/* Report a reduction: its total against the exact one. */
static inline void peers_report_sum(const char *kernel, peers_time t, long long got,
                                    long long want)
{
    char detail[96];
    snprintf(detail, sizeof detail, "sum %lld, exact %lld", got, want);
    peers_report(kernel, t, got == want ? "ok" : "WRONG", detail);
}

/* Report a matrix result: how many elements differ from the exact answer. */
static inline void peers_report_matrix(const char *kernel, peers_time t, size_t bad,
                                       size_t count)
{
    char detail[96];
    snprintf(detail, sizeof detail, "%zu of %zu elements differ", bad, count);
    peers_report(kernel, t, bad == 0 ? "ok" : "WRONG", detail);
}

#endif
