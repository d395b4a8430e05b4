/* test_exec_atomics — atom/red (tests/ptx/exec/atomics.cu): every operation and type,
 * run with blocks in sequence and with blocks in parallel on several host threads (the
 * results must not lose updates), plus shared-memory atomics. */
#include "exec_harness.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>

enum { GRID = 8, BLOCK = 128, T = GRID * BLOCK, NTHREADS = 4 };

typedef struct bufs {
    int *i32;
    unsigned *u32;
    unsigned long long *u64;
    long long *s64;
    float *f32;
    double *f64;
    int *order;
} bufs;

static void init_bufs(harness *h, bufs *b) {
    b->i32 = harness_alloc(h, 16 * 4);
    b->u32 = harness_alloc(h, 16 * 4);
    b->u64 = harness_alloc(h, 16 * 8);
    b->s64 = harness_alloc(h, 16 * 8);
    b->f32 = harness_alloc(h, 16 * 4);
    b->f64 = harness_alloc(h, 16 * 8);
    b->order = harness_alloc(h, T * 4);
    b->i32[4] = -1;
    b->u32[3] = UINT_MAX;
    b->s64[1] = LLONG_MIN;
}

static void free_bufs(harness *h, bufs *b) {
    harness_dealloc(h, b->i32); harness_dealloc(h, b->u32); harness_dealloc(h, b->u64);
    harness_dealloc(h, b->s64); harness_dealloc(h, b->f32); harness_dealloc(h, b->f64);
    harness_dealloc(h, b->order);
}

static float half_to_float(uint16_t x) {
    int e = (x >> 10) & 31, m = x & 1023;
    float v = e ? (float)(1024 + m) / 1024.0f : (float)m / 1024.0f;
    for (int k = 15; k < e; k++) v *= 2;
    for (int k = e ? e : 1; k < 15; k++) v /= 2;
    return (x & 0x8000) ? -v : v;
}

static void check_bufs(const bufs *b, bool sequential) {
    int x = 0;
    for (int t = 0; t < T; t++) x ^= t;
    CHECK_EQ_U64(b->i32[0], T);
    CHECK_EQ_U64((uint32_t)b->i32[1], (uint32_t)(-2 * T));
    CHECK_EQ_U64(b->i32[2], T - 1);
    CHECK_EQ_U64((uint32_t)b->i32[3], (uint32_t)(-(T - 1)));
    CHECK_EQ_U64((uint32_t)b->i32[4], 0x80000000u);
    CHECK_EQ_U64(b->i32[5], 0x7fffffff);
    CHECK_EQ_U64(b->i32[6], x);
    CHECK_EQ_U64(b->i32[7], 42);
    CHECK_EQ_U64(b->i32[8], T);
    CHECK_EQ_U64(b->i32[9], 2 * T);
    CHECK_EQ_U64(b->u32[0], T % 10);
    CHECK_EQ_U64(b->u32[1], (6 - T % 6) % 6);
    CHECK_EQ_U64(b->u32[2], 3 * (T - 1));
    CHECK_EQ_U64(b->u32[3], 7);
    CHECK_EQ_U64(b->u64[0], 3ull * T);
    if (sequential) CHECK_EQ_U64(b->u64[1], T); /* each CAS finds its predecessor's value */
    else CHECK(b->u64[1] >= 1 && b->u64[1] <= T);
    CHECK_EQ_U64(b->u64[2], (unsigned long long)(T - 1) << 33);
    CHECK_EQ_U64((unsigned long long)b->s64[0], (unsigned long long)(-(long long)(T - 1)) << 33);
    CHECK_EQ_U64(b->s64[1], T - 1);
    CHECK(b->f32[0] == 0.5f * T);
    CHECK(b->f64[0] == 0.25 * T);
    uint32_t h2;
    memcpy(&h2, &b->f32[1], 4);
    CHECK(half_to_float((uint16_t)h2) == (float)T);
    CHECK(half_to_float((uint16_t)(h2 >> 16)) == 0.5f * T);
    char *seen = calloc(T, 1);
    for (int s = 0; s < T; s++)
        if (b->order[s] >= 0 && b->order[s] < T) seen[b->order[s]]++;
    for (int t = 0; t < T; t++) CHECK_EQ_U64(seen[t], 1);
    free(seen);
}

static void test_sequential(harness *h) {
    bufs b;
    init_bufs(h, &b);
    void *args[] = {&b.i32, &b.u32, &b.u64, &b.s64, &b.f32, &b.f64, &b.order};
    harness_run r = harness_launch(h, "atomics", dim(GRID, 1, 1), dim(BLOCK, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    check_bufs(&b, true);
    free_bufs(h, &b);
}

/* ---- blocks on several host threads ---- */

typedef struct par {
    const exec_launch *L;
    atomic_uint next;
    atomic_int faults;
    unsigned blocks;
} par;

static void *par_worker(void *arg) {
    par *p = arg;
    exec_worker *w = exec_worker_new();
    for (;;) {
        unsigned b = atomic_fetch_add(&p->next, 1);
        if (b >= p->blocks) break;
        exec_output out = {0};
        exec_fault f;
        if (exec_run_block(w, p->L, dim(b % p->L->grid.x, b / p->L->grid.x, 0), b % 4, &out, &f))
            atomic_fetch_add(&p->faults, 1);
        free(out.data);
    }
    exec_worker_free(w);
    return NULL;
}

static int run_parallel(harness *h, const char *kernel, exec_dim3 grid, exec_dim3 block,
                        void **args) {
    const exec_kernel *k = exec_program_kernel(h->prog, kernel);
    uint8_t *params = harness_params(k, args);
    exec_launch L = harness_make_launch(h, k, grid, block, 0, params);
    par p = {.L = &L, .blocks = grid.x * grid.y};
    atomic_init(&p.next, 0);
    atomic_init(&p.faults, 0);
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) pthread_create(&th[i], NULL, par_worker, &p);
    for (int i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);
    free(params);
    return atomic_load(&p.faults);
}

static void test_parallel(harness *h) {
    for (int round = 0; round < 3; round++) {
        bufs b;
        init_bufs(h, &b);
        void *args[] = {&b.i32, &b.u32, &b.u64, &b.s64, &b.f32, &b.f64, &b.order};
        CHECK_EQ_U64(run_parallel(h, "atomics", dim(GRID, 1, 1), dim(BLOCK, 1, 1), args), 0);
        check_bufs(&b, false);
        free_bufs(h, &b);
    }
}

static void test_histogram(harness *h) {
    enum { N = 10000, BLOCKS = 6 };
    int *in = harness_alloc(h, N * 4), *hist = harness_alloc(h, 16 * 4);
    int want[16] = {0};
    for (int i = 0; i < N; i++) { in[i] = (i * 2654435761u) >> 7; want[in[i] & 15] += BLOCKS; }
    int n = N;
    void *args[] = {&in, &hist, &n};
    CHECK_EQ_U64(run_parallel(h, "shared_histogram", dim(BLOCKS, 1, 1), dim(256, 1, 1), args), 0);
    for (int k = 0; k < 16; k++) CHECK_EQ_U64(hist[k], want[k]);
    harness_dealloc(h, in);
    harness_dealloc(h, hist);
}

int main(void) {
    harness h = {0};
    if (!harness_load_file(&h, "exec/atomics.ptx")) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    test_sequential(&h);
    test_parallel(&h);
    test_histogram(&h);
    harness_free(&h);
    return harness_report("test_exec_atomics");
}
