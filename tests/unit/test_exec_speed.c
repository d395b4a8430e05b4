/* test_exec_speed — executor throughput on the shared-memory reduction kernel of
 * tests/ptx/exec/reduce.cu, on one host thread: prints warp-instructions per second
 * (no timing is asserted; the result is checked). `test_exec_speed N` runs N times more
 * blocks for a steadier figure. */
#include "exec_harness.h"

#include <time.h>

/* CPU time of this thread: the figure per host core, whatever else the machine runs. */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    if (scale == 0) scale = 1;
    harness h = {0};
    if (!harness_load_file(&h, "exec/reduce.ptx")) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    enum { BLOCK = 256 };
    const unsigned blocks = 128 * scale, n = blocks * BLOCK;
    int *in = harness_alloc(&h, (size_t)n * 4), *out = harness_alloc(&h, blocks * 4);
    for (unsigned i = 0; i < n; i++) in[i] = (int)(i % 13) - 6;
    void *args[] = {&in, &out, (void *)&n};
    uint64_t before = exec_worker_insn_count(h.worker);
    double t0 = now();
    harness_run r = harness_launch(&h, "reduce", dim(blocks, 1, 1), dim(BLOCK, 1, 1), BLOCK * 4, args);
    double t1 = now();
    uint64_t insns = exec_worker_insn_count(h.worker) - before;
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (unsigned b = 0; b < blocks; b++) {
        int want = 0;
        for (unsigned i = b * BLOCK; i < (b + 1) * BLOCK; i++) want += in[i];
        CHECK_EQ_U64((uint32_t)out[b], (uint32_t)want);
    }
    printf("reduce: %u blocks x %u threads: %llu warp-instructions in %.3f s of CPU "
           "time = %.1f M warp-instructions/s per core\n", blocks, (unsigned)BLOCK, (unsigned long long)insns, t1 - t0,
           (double)insns / (t1 - t0) / 1e6);
    harness_dealloc(&h, in);
    harness_dealloc(&h, out);
    harness_free(&h);
    return harness_report("test_exec_speed");
}
