/* test_exec_sync — barriers (tests/ptx/exec/reduce.cu): the shared-memory tree
 * reduction with its warp-synchronous tail, exited threads at barriers (also half of a
 * warp), bar.red, a 2-D block, and the halves of a warp waiting at different barriers. */
#include "exec_harness.h"

static void test_reduce(harness *h) {
    enum { N = 5000, BLOCK = 256 };
    const unsigned blocks = (N + BLOCK - 1) / BLOCK;
    int *in = harness_alloc(h, N * 4), *out = harness_alloc(h, blocks * 4);
    for (int i = 0; i < N; i++) in[i] = (i * 7919) % 1000 - 300;
    unsigned n = N;
    void *args[] = {&in, &out, &n};
    harness_run r = harness_launch(h, "reduce", dim(blocks, 1, 1), dim(BLOCK, 1, 1), BLOCK * 4, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (unsigned b = 0; b < blocks; b++) {
        int want = 0;
        for (unsigned i = b * BLOCK; i < (b + 1) * BLOCK && i < N; i++) want += in[i];
        CHECK_EQ_U64((uint32_t)out[b], (uint32_t)want);
    }
    /* without the dynamic shared memory the first store is out of bounds */
    r = harness_launch(h, "reduce", dim(1, 1, 1), dim(BLOCK, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_ILLEGAL_ADDRESS);
    CHECK(strstr(r.fault.msg, "shared") != NULL);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

static void test_early_exit(harness *h) {
    int *out = harness_alloc(h, 256 * 4);
    int live = 77;
    void *args[] = {&out, &live};
    harness_run r = harness_launch(h, "early_exit_barrier", dim(1, 1, 1), dim(256, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int t = 0; t < 256; t++) CHECK_EQ_U64(out[t], t < live ? live * (live + 1) / 2 : 0);
    harness_dealloc(h, out);
}

static void test_bar_red(harness *h) {
    int *out = harness_alloc(h, 128 * 4);
    int vals[] = {0, 50, 128};
    for (int k = 0; k < 3; k++) {
        int v = vals[k];
        void *args[] = {&out, &v};
        harness_run r = harness_launch(h, "sync_reductions", dim(1, 1, 1), dim(128, 1, 1), 0, args);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        int want = v + (v == 128) * 1000 + (v > 0) * 10000;
        for (int t = 0; t < 128; t++) CHECK_EQ_U64(out[t], want);
    }
    harness_dealloc(h, out);
}

static void test_half_warp_barrier(harness *h) {
    int *out = harness_alloc(h, 96 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "half_warp_barrier", dim(1, 1, 1), dim(96, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int t = 0; t < 96; t++) CHECK_EQ_U64(out[t], t % 32 < 16);
    harness_dealloc(h, out);
}

/* Each half of a warp at its own barrier: on sm_70 and later a barrier counts threads,
 * so it completes (tests/unit/test_exec_barriers.c has more of this). */
static void test_divergent_barrier(harness *h) {
    int *out = harness_alloc(h, 64 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "divergent_barrier", dim(1, 1, 1), dim(64, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int t = 0; t < 64; t++) CHECK_EQ_U64(out[t], t % 32 < 16 ? 1 : 2);
    harness_dealloc(h, out);
}

static void test_transpose(harness *h) {
    int *in = harness_alloc(h, 256 * 4), *out = harness_alloc(h, 256 * 4);
    for (int i = 0; i < 256; i++) in[i] = i * 3 + 1;
    void *args[] = {&in, &out};
    harness_run r = harness_launch(h, "transpose", dim(1, 1, 1), dim(16, 16, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) CHECK_EQ_U64(out[y * 16 + x], in[x * 16 + y]);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

int main(void) {
    harness h = {0};
    if (!harness_load_file(&h, "exec/reduce.ptx")) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    test_reduce(&h);
    test_early_exit(&h);
    test_bar_red(&h);
    test_half_warp_barrier(&h);
    test_divergent_barrier(&h);
    test_transpose(&h);
    harness_free(&h);
    return harness_report("test_exec_sync");
}
