/* test_exec_spin — lanes of one warp waiting for each other (tests/ptx/exec/spin.cu), as
 * independent thread scheduling allows since Volta: a lock taken by every thread with
 * atomicCAS (the winner must leave the loop while the losers of its warp spin), a flag
 * handed from one side of a branch to the other, and, the other way round, a long
 * divergent loop of plain arithmetic whose lanes must still all be back for the
 * full-warp shuffles after it. */
#include "exec_harness.h"

static void test_warp_lock(harness *h) {
    enum { THREADS = 96, BLOCKS = 2, N = THREADS * BLOCKS };
    int *mutex = harness_alloc(h, 4), *counter = harness_alloc(h, 4), *order = harness_alloc(h, N * 4);
    *mutex = 0;
    *counter = 0;
    for (int i = 0; i < N; i++) order[i] = -1;
    void *args[] = {&mutex, &counter, &order};
    harness_run r = harness_launch(h, "warp_lock", dim(BLOCKS, 1, 1), dim(THREADS, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    CHECK_EQ_U64(*counter, N);          /* every increment happened under the lock */
    CHECK_EQ_U64(*mutex, 0);
    int seen[N] = {0};
    for (int i = 0; i < N; i++)
        if (order[i] >= 0 && order[i] < N) seen[order[i]]++;
    for (int i = 0; i < N; i++) CHECK_EQ_U64(seen[i], 1);
    harness_dealloc(h, mutex);
    harness_dealloc(h, counter);
    harness_dealloc(h, order);
}

static void test_flag_handoff(harness *h) {
    int *flag = harness_alloc(h, 4), *out = harness_alloc(h, 8);
    *flag = 0;
    out[0] = out[1] = 0;
    void *args[] = {&flag, &out};
    harness_run r = harness_launch(h, "flag_handoff", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    CHECK_EQ_U64(out[0], 1);
    CHECK_EQ_U64(out[1], 2);
    harness_dealloc(h, flag);
    harness_dealloc(h, out);
}

static void test_long_divergent_loop(harness *h) {
    int *out = harness_alloc(h, 64 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "long_divergent_loop", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    int sum = 0;
    for (unsigned lane = 0; lane < 32; lane++) {
        unsigned x = lane;
        for (unsigned i = 0; i < lane * 2000; i++) x = x * 1664525u + 1013904223u;
        CHECK_EQ_U64(out[32 + lane], x & 0xff);
        sum += (int)(x & 0xff);
    }
    for (unsigned lane = 0; lane < 32; lane++) CHECK_EQ_U64(out[lane], sum);
    harness_dealloc(h, out);
}

/* Part of warp 0 spins on a flag warp 1 sets only after a long loop; the rest of warp 0
 * waits at __syncthreads() (aligned). The barrier must complete with every thread, for
 * short and long waits (the spinners give way to the waiting lanes after EXEC_SPIN_LIMIT
 * turns, which then wait at the barrier for them). */
static void test_spin_then_syncthreads(harness *h) {
    static const int delays[] = {1, 5000, 300000};
    for (unsigned t = 0; t < sizeof delays / sizeof delays[0]; t++) {
        int *flag = harness_alloc(h, 4), *out = harness_alloc(h, 64 * 4);
        int delay = delays[t];
        void *args[] = {&flag, &out, &delay};
        harness_run r = harness_launch(h, "spin_then_syncthreads", dim(1, 1, 1), dim(64, 1, 1), 0,
                                       args);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        if (r.kind != EXEC_OK) fprintf(stderr, "delay %d: %s\n", delay, r.fault.msg);
        for (unsigned i = 0; i < 62; i++) CHECK_EQ_U64(out[i], i + 1);
        harness_dealloc(h, flag);
        harness_dealloc(h, out);
    }
}

int main(void) {
    harness h = {0};
    if (!harness_load_file(&h, "exec/spin.ptx")) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    test_warp_lock(&h);
    test_flag_handoff(&h);
    test_long_divergent_loop(&h);
    test_spin_then_syncthreads(&h);
    harness_free(&h);
    return harness_report("test_exec_spin");
}
