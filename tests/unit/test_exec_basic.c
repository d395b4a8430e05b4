/* test_exec_basic — kernels from tests/ptx/exec/basic.cu through the SIMT core: vector
 * add, if/else, nested branches, early return, per-lane loop trip counts with break, and
 * lockstep after reconvergence. */
#include "exec_harness.h"

static void test_vecadd(harness *h) {
    enum { N = 1000 };
    float *a = harness_alloc(h, N * 4), *b = harness_alloc(h, N * 4), *c = harness_alloc(h, N * 4 + 64);
    for (int i = 0; i < N; i++) { a[i] = (float)i * 0.5f; b[i] = (float)(N - i); }
    int n = N;
    void *args[] = {&a, &b, &c, &n};
    /* 4 blocks of 256: the last block is partly past n (and its last warp partial) */
    harness_run r = harness_launch(h, "vecadd", dim(4, 1, 1), dim(256, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int i = 0; i < N; i++) CHECK(c[i] == a[i] + b[i]);
    CHECK(c[N] == 0.0f);
    /* a block size that is not a multiple of 32 */
    memset(c, 0, N * 4);
    r = harness_launch(h, "vecadd", dim(20, 1, 1), dim(50, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int i = 0; i < N; i++) CHECK(c[i] == a[i] + b[i]);
    harness_dealloc(h, a); harness_dealloc(h, b); harness_dealloc(h, c);
}

static void test_branches(harness *h) {
    enum { N = 200 };
    int *out = harness_alloc(h, N * 4), *nested = harness_alloc(h, N * 4), *early = harness_alloc(h, N * 4);
    void *args[] = {&out, &nested, &early};
    harness_run r = harness_launch(h, "branches", dim(2, 1, 1), dim(100, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int i = 0; i < N; i++) {
        CHECK_EQ_U64(out[i], (i & 1) ? i * 3 : i * 5);
        int v = i % 4 < 2 ? (i % 2 ? 10 + i : 20 + i) : (i % 8 == 2 ? 30 + i : 40 + i);
        CHECK_EQ_U64(nested[i], v);
        CHECK_EQ_U64(early[i], i % 3 == 0 ? 0 : 7 + i);
    }
    harness_dealloc(h, out); harness_dealloc(h, nested); harness_dealloc(h, early);
}

static void test_loops(harness *h) {
    enum { N = 96 };
    int *out = harness_alloc(h, N * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "loops", dim(1, 1, 1), dim(N, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int i = 0; i < N; i++) {
        int sum = 0;
        for (int j = 0; j < i % 7; j++) {
            sum += j * i;
            for (int k = 0; k < (j & 3); k++) sum ^= k + j;
            if (sum > 5000) break;
        }
        CHECK_EQ_U64((uint32_t)out[i], (uint32_t)sum);
    }
    harness_dealloc(h, out);
}

static void test_reconverge(harness *h) {
    enum { N = 64 };
    int *out = harness_alloc(h, N * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "reconverge", dim(1, 1, 1), dim(N, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int i = 0; i < N; i++) {
        int j = i ^ 1;
        int v = j % 3 == 0 ? j * 2 : j % 3 == 1 ? j * 3 : j * 4;
        CHECK_EQ_U64(out[i], v);
    }
    harness_dealloc(h, out);
}

int main(void) {
    harness h = {0};
    if (!harness_load_file(&h, "exec/basic.ptx")) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    test_vecadd(&h);
    test_branches(&h);
    test_loops(&h);
    test_reconverge(&h);
    harness_free(&h);
    return harness_report("test_exec_basic");
}
