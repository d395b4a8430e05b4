/* test_exec_barriers — barriers reached by part of a warp (tests/ptx/exec/barriers.cu,
 * compiled optimised and with -G): on sm_70 and later a barrier counts threads, so the
 * halves of a warp may wait at different __syncthreads of an if/else, in nested
 * divergence, in a loop, with bar.red, and with exited threads; every result is checked
 * against a C model of the kernel, and so is the reconvergence afterwards. A true
 * deadlock (named barriers no thread can complete) is still reported, and so is a split
 * barrier when the launch asks for pre-Volta warp barriers. */
#include "exec_harness.h"

/* Run kernel on one block of n threads; warp_barriers selects pre-Volta behaviour. */
static harness_run run_block(harness *h, const char *kernel, uint32_t n, void **args,
                             bool warp_barriers) {
    harness_run r;
    memset(&r, 0, sizeof r);
    const exec_kernel *k = exec_program_kernel(h->prog, kernel);
    if (!k) {
        fprintf(stderr, "no kernel %s\n", kernel);
        r.kind = EXEC_FAULT_INVALID_PC;
        harness_failures++;
        return r;
    }
    uint8_t *params = harness_params(k, args);
    exec_launch L = harness_make_launch(h, k, dim(1, 1, 1), dim(n, 1, 1), 0, params);
    L.warp_barriers = warp_barriers;
    r.kind = exec_run_block(h->worker, &L, dim(0, 0, 0), 0, &r.out, &r.fault);
    if (r.kind != EXEC_OK && !warp_barriers) fprintf(stderr, "%s: %s\n", kernel, r.fault.msg);
    free(params);
    free(r.out.data);
    r.out.data = NULL;
    return r;
}

static const uint32_t sizes[] = { 32, 64, 96, 80, 256, 1024 };
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void test_split_if_else(harness *h) {
    for (unsigned z = 0; z < NSIZES; z++) {
        int n = (int)sizes[z];
        int *out = harness_alloc(h, (size_t)n * 8);
        void *args[] = { &out };
        harness_run r = run_block(h, "split_if_else", (uint32_t)n, args, false);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        for (int t = 0; t < n; t++) {
            int j = (t + 48) % n;
            int sj = j % 32 < 16 ? j * 2 : j * 3 + 1;
            CHECK_EQ_U64(out[t], t % 32 < 16 ? sj : sj + 100000);
            /* reconverged: the whole warp (as many lanes as it has) runs the ballot */
            int lanes = n - t / 32 * 32 < 32 ? n - t / 32 * 32 : 32;
            int upper = lanes > 16 ? lanes - 16 : 0;
            CHECK_EQ_U64(out[n + t], lanes * 100 + upper);
        }
        harness_dealloc(h, out);
    }
}

static void test_split_twice(harness *h) {
    for (unsigned z = 0; z < NSIZES; z++) {
        int n = (int)sizes[z];
        int *out = harness_alloc(h, (size_t)n * 4);
        int *s = calloc((size_t)n, sizeof *s), *v = calloc((size_t)n, sizeof *v);
        void *args[] = { &out };
        harness_run r = run_block(h, "split_twice", (uint32_t)n, args, false);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        for (int t = 0; t < n; t++) s[t] = t;
        for (int t = 0; t < n; t++) v[t] = t & 1 ? s[(t + 1) % n] : s[(t + 3) % n];
        for (int t = 0; t < n; t++) s[t] = t & 1 ? v[t] * 10 : v[t] * 10 + 1;
        for (int t = 0; t < n; t++) v[t] = t & 1 ? s[(t + n - 1) % n] : s[(t + 5) % n] + 7;
        for (int t = 0; t < n; t++) CHECK_EQ_U64(out[t], v[t]);
        free(s);
        free(v);
        harness_dealloc(h, out);
    }
}

static void test_split_nested(harness *h) {
    for (unsigned z = 0; z < NSIZES; z++) {
        int n = (int)sizes[z];
        int *out = harness_alloc(h, (size_t)n * 4);
        int *s = calloc((size_t)n, sizeof *s);
        void *args[] = { &out };
        harness_run r = run_block(h, "split_nested", (uint32_t)n, args, false);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        for (int t = 0; t < n; t++) s[t] = (t % 32 < 8 ? 1000 : t % 32 < 16 ? 2000 : 3000) + t;
        for (int t = 0; t < n; t++) {
            int lane = t % 32;
            int v = lane < 8 ? s[(t + 8) % n] : lane < 16 ? s[(t + 8) % n] * 2 : s[(t + 16) % n] * 3;
            int lanes = n - t / 32 * 32 < 32 ? n - t / 32 * 32 : 32;
            CHECK_EQ_U64(out[t], v + lanes);
        }
        free(s);
        harness_dealloc(h, out);
    }
}

static void test_split_loop(harness *h) {
    for (unsigned z = 0; z < NSIZES; z++) {
        int n = (int)sizes[z], rounds = 5;
        int *out = harness_alloc(h, (size_t)n * 4);
        int *s = calloc((size_t)n, sizeof *s), *acc = calloc((size_t)n, sizeof *acc);
        void *args[] = { &out, &rounds };
        harness_run r = run_block(h, "split_loop", (uint32_t)n, args, false);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        for (int t = 0; t < n; t++) acc[t] = t;
        for (int k = 0; k < rounds; k++) {
            for (int t = 0; t < n; t++) s[t] = (t + k) % 2 ? acc[t] : acc[t] * 2;
            for (int t = 0; t < n; t++) acc[t] += (t + k) % 2 ? s[(t + 1) % n] : -s[(t + 1) % n];
        }
        for (int t = 0; t < n; t++) CHECK_EQ_U64(out[t], acc[t]);
        free(s);
        free(acc);
        harness_dealloc(h, out);
    }
}

static void test_split_count(harness *h) {
    int lives[] = { 1, 17, 40, 64 };
    for (unsigned z = 0; z < sizeof lives / sizeof lives[0]; z++) {
        int n = 64, live = lives[z];
        int *out = harness_alloc(h, (size_t)n * 4);
        void *args[] = { &out, &live };
        harness_run r = run_block(h, "split_count", (uint32_t)n, args, false);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        int popc = 0;
        for (int t = 0; t < live; t++) popc += t % 3 == 0 ? t % 2 : t % 5 == 0;
        for (int t = 0; t < n; t++)
            CHECK_EQ_U64(out[t], t >= live ? 0 : (t % 3 == 0 ? popc : popc + 1000) + 100000);
        harness_dealloc(h, out);
    }
}

static void test_deadlocks(harness *h) {
    int *out = harness_alloc(h, 64 * 8);
    void *args[] = { &out };
    /* each warp waits at a named barrier that needs the other warp too */
    harness_run r = run_block(h, "named_deadlock", 64, args, false);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_ILLEGAL_INSTRUCTION);
    CHECK(strstr(r.fault.msg, "barrier 1 can never complete: 32 of 64 threads arrived") != NULL);
    /* before Volta a warp does not run another path while part of it waits */
    r = run_block(h, "split_if_else", 64, args, true);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_ILLEGAL_INSTRUCTION);
    CHECK(strstr(r.fault.msg, "barrier 0 can never complete") != NULL);
    CHECK(strstr(r.fault.msg, "divergent") != NULL);
    /* the same block without split barriers still runs in that mode */
    int rounds = 0;
    void *args2[] = { &out, &rounds };
    r = run_block(h, "split_loop", 64, args2, true);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    harness_dealloc(h, out);
}

int main(void) {
    static const char *const files[] = { "exec/barriers.ptx", "exec/barriers.G.ptx" };
    for (unsigned f = 0; f < 2; f++) {
        harness h = {0};
        if (!harness_load_file(&h, files[f])) {
            fprintf(stderr, "load %s: %s\n", files[f], h.err);
            return 1;
        }
        int before = harness_failures;
        test_split_if_else(&h);
        test_split_twice(&h);
        test_split_nested(&h);
        test_split_loop(&h);
        test_split_count(&h);
        test_deadlocks(&h);
        if (harness_failures != before) fprintf(stderr, "(failures above: %s)\n", files[f]);
        harness_free(&h);
    }
    return harness_report("test_exec_barriers");
}
