/* bench/cpu_baseline.c — the plain C loops (built with gcc -O2) that the benchmark
 * compares vcuda against: the same work the reduction and matrix-product examples give
 * the virtual GPU, done directly on one host core.
 *
 *   cpu_baseline reduce N    sums N ints (the reduction examples' work per kernel)
 *   cpu_baseline matmul N    one naive N x N float matrix product
 * Prints the best of several repetitions in milliseconds of CPU time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: immune to other load */
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The result goes through a volatile sink so the compiler keeps the work. */
static volatile long long sink;

static double bench_reduce(long n) {
    int *a = malloc((size_t)n * sizeof *a);
    if (!a) return -1;
    for (long i = 0; i < n; i++) a[i] = (int)(i & 0xff);
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_ms();
        long long sum = 0;
        for (long i = 0; i < n; i++) sum += a[i];
        sink = sum;
        double t = now_ms() - t0;
        if (t < best) best = t;
    }
    free(a);
    return best;
}

static double bench_matmul(int n) {
    float *a = malloc((size_t)n * n * sizeof *a), *b = malloc((size_t)n * n * sizeof *b),
          *c = malloc((size_t)n * n * sizeof *c);
    if (!a || !b || !c) return -1;
    for (int i = 0; i < n * n; i++) {
        a[i] = (float)(i % 7);
        b[i] = (float)(i % 5);
    }
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_ms();
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                float s = 0;
                for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
                c[i * n + j] = s;
            }
        sink = (long long)c[n * n / 2];
        double t = now_ms() - t0;
        if (t < best) best = t;
    }
    free(a);
    free(b);
    free(c);
    return best;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: cpu_baseline reduce|matmul N\n");
        return 2;
    }
    long n = atol(argv[2]);
    double ms = strcmp(argv[1], "reduce") == 0 ? bench_reduce(n)
              : strcmp(argv[1], "matmul") == 0 ? bench_matmul((int)n)
                                               : -1;
    if (ms < 0) {
        fprintf(stderr, "cpu_baseline: bad arguments or out of memory\n");
        return 2;
    }
    printf("%.4f\n", ms);
    return 0;
}
