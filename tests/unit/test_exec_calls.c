/* test_exec_calls — calls (tests/ptx/exec/calls.cu): recursion through .func with
 * per-call param frames, the call depth limit, calls through function pointers whose
 * targets differ per lane, device printf and device malloc/free. */
#include "exec_harness.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static void test_recursion(harness *h) {
    int *out = harness_alloc(h, 64 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "recursion", dim(1, 1, 1), dim(40, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int t = 0; t < 40; t++) CHECK_EQ_U64(out[t], fib(t % 15));
    harness_dealloc(h, out);
}

static void test_depth(harness *h) {
    int *out = harness_alloc(h, 8);
    int n = 300;
    void *args[] = {&out, &n};
    harness_run r = harness_launch(h, "deep", dim(1, 1, 1), dim(1, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    CHECK_EQ_U64(out[0], 300);
    n = 1000000;
    r = harness_launch(h, "deep", dim(1, 1, 1), dim(1, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_STACK_OVERFLOW);
    CHECK(strstr(r.fault.msg, "stack overflow") != NULL);
    harness_dealloc(h, out);
}

static void test_pointers(harness *h) {
    int *out = harness_alloc(h, 64 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "pointers", dim(1, 1, 1), dim(64, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int i = 0; i < 64; i++) {
        int want = i % 3 == 0 ? 2 * i : i % 3 == 1 ? i * i : -i;
        CHECK_EQ_U64((uint32_t)out[i], (uint32_t)want);
    }
    harness_dealloc(h, out);
}

static void test_printf(harness *h) {
    char *name = harness_alloc(h, 16);
    strcpy(name, "vcuda");
    int a = 300;
    double d = 3.14159265358979;
    void *args[] = {&a, &d, &name};
    harness_run r = harness_launch(h, "print", dim(1, 1, 1), dim(4, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    char want[2048];
    size_t n = 0;
    for (int t = 0; t < 4; t++)
        n += (size_t)snprintf(want + n, sizeof want - n, "t=%d a=%5d|%-4d|%04x|%X|%o %c %s\n", t,
                              a + t, t, a, a, 8, 'A' + t, name);
    n += (size_t)snprintf(want + n, sizeof want - n,
                          "%.3f %e %g %10.2f|%-8.1f|%+d %lld %llu %u %hhd %%\n", d, d, d, d, d, a,
                          -1234567890123LL, 18446744073709551615ULL, 4000000000u,
                          (signed char)300);
    n += (size_t)snprintf(want + n, sizeof want - n, "%ld %i %5s|%-5s|%.2s\n", (long)-5, -7,
                          "ab", "cd", "xyz");
    n += (size_t)snprintf(want + n, sizeof want - n, "no args\n");
    CHECK(r.out.data != NULL);
    if (r.out.data) {
        CHECK_EQ_U64(r.out.len, n);
        CHECK(strcmp(r.out.data, want) == 0);
        if (strcmp(r.out.data, want)) fprintf(stderr, "got:\n%s\nwanted:\n%s\n", r.out.data, want);
    }
    free(r.out.data);
    harness_dealloc(h, name);
}

static void test_heap(harness *h) {
    enum { T = 32 }; /* one warp: a later warp's malloc could reuse a freed block */
    int **ptrs = harness_alloc(h, T * sizeof(int *));
    int *sums = harness_alloc(h, T * 4);
    void *args[] = {&ptrs, &sums};
    harness_run r = harness_launch(h, "heap", dim(1, 1, 1), dim(T, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int t = 0; t < T; t++) {
        CHECK_EQ_U64(sums[t], t * 40 + 6);
        mem_alloc al;
        bool present = mem_table_find(h->mem, (uint64_t)(uintptr_t)ptrs[t], &al);
        CHECK(present == (t % 2 == 0));
        if (present) {
            CHECK(al.flags & EXEC_MEM_FLAG_DEVICE_HEAP);
            CHECK_EQ_U64(ptrs[t][3], t * 10 + 3);
            mem_table_remove(h->mem, al.base, &al);
            free(ptrs[t]);
        }
    }
    harness_dealloc(h, ptrs);
    harness_dealloc(h, sums);
}

int main(void) {
    harness h = {0};
    if (!harness_load_file(&h, "exec/calls.ptx")) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    test_recursion(&h);
    test_depth(&h);
    test_pointers(&h);
    test_printf(&h);
    test_heap(&h);
    harness_free(&h);
    return harness_report("test_exec_calls");
}
