/* tests/unit/test_gpu_scheduler.c — the device's block scheduler: output in block order
 * whatever the thread count and timing, the first fault in block order, stopping later
 * blocks soon after a fault, SM numbering, grid coordinates, nested grids, statistics,
 * and grids of several host threads running at once within the SMs' residency limits.
 *
 * Blocks here are scripted: this file provides the four exec functions the scheduler
 * calls (exec_worker_new/free/insn_count, exec_run_block), running a "kernel" that
 * describes per block how long to work, what to print and whether to fault. (The static
 * library's own exec objects are then not linked into this test.) */
#include "gpu/gpu.h"
#include "exec/observe.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

/* ---- scripted blocks ---- */

struct exec_kernel {
    unsigned work_us_mod;      /* block b works ((b * 7919) % mod) microseconds (0: none) */
    uint64_t slow_block;       /* this block works slow_us instead */
    unsigned slow_us;
    uint64_t fault_a, fault_b; /* blocks that fault (UINT64_MAX: none) */
    unsigned fault_a_delay_us; /* fault_a faults only after this long */
    uint64_t spin_from;        /* blocks >= this spin until aborted (at most 20 s) */
    int lines;                 /* printf lines per block */
    gpu_device *nested_dev;    /* block nested_block launches nested_kernel on it */
    uint64_t nested_block;
    const struct exec_kernel *nested_kernel;
    _Atomic int smid_errors, coord_errors, ran_after_fault;
    bool any_smid;             /* blocks may run on any SM (grids sharing the device) */
    _Atomic int *raise;        /* set to 1 when a block starts (NULL: none) */
    _Atomic int *wait_for;     /* blocks wait until it is non-zero, at most 20 s (NULL: none) */
    unsigned hold_us;          /* blocks stay this long among the running ones */
    _Atomic int started, running, most_running, waited_in_vain;
    /* clusters: blocks that ran in one, that waited for their cluster in vain, and that
     * found another cluster's blocks in theirs */
    _Atomic int in_cluster, cluster_apart, cluster_mixed;
    /* runs of consecutive blocks the workers ran (a block that is not its worker's last
     * block plus one starts a run) */
    _Atomic int runs;
};

struct exec_worker {
    uint64_t insns;
    const struct exec_kernel *last_kernel; /* what the worker ran last */
    uint64_t last_block;
    const exec_observer *observer; /* whose per-worker state this worker holds */
};

static _Atomic int workers_made;
exec_worker *exec_worker_new(void) {
    atomic_fetch_add(&workers_made, 1);
    return calloc(1, sizeof(exec_worker));
}
void exec_worker_free(exec_worker *w) { free(w); }
uint64_t exec_worker_insn_count(const exec_worker *w) { return w->insns; }

/* clusters: the scheduler makes the object a cluster's blocks share, and frees it; here
 * it counts the blocks that arrived, so that each can wait for all of its cluster */
struct exec_cluster {
    exec_dim3 dim;
    _Atomic int arrived;
    _Atomic int64_t first;     /* the cluster's coordinates (x | y << 20 | z << 40), -1 unset */
};
exec_cluster *exec_cluster_new(exec_dim3 dim) {
    exec_cluster *c = calloc(1, sizeof *c);
    if (c) {
        c->dim = dim;
        atomic_init(&c->first, -1);
    }
    return c;
}
void exec_cluster_free(exec_cluster *c) { free(c); }

/* As the executor does: a worker begins an observer's state at its first observed block
 * and ends it here (or when a block of another observer comes). */
void exec_worker_observe_end(exec_worker *w) {
    if (w->observer && w->observer->end_worker)
        w->observer->end_worker(w->observer->ctx, NULL);
    w->observer = NULL;
}

static void out_printf(exec_output *o, const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (o->len + (size_t)n + 1 > o->cap) {
        o->cap = (o->len + (size_t)n + 1) * 2;
        o->data = realloc(o->data, o->cap);
    }
    memcpy(o->data + o->len, buf, (size_t)n);
    o->len += (size_t)n;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_us(unsigned us) {
    struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

exec_fault_kind exec_run_block(exec_worker *w, const exec_launch *L, exec_dim3 ctaid,
                               uint32_t smid, exec_output *out, exec_fault *fault) {
    struct exec_kernel *k = (struct exec_kernel *)L->kernel;
    uint64_t b = ctaid.x + (uint64_t)L->grid.x * (ctaid.y + (uint64_t)L->grid.y * ctaid.z);
    if (ctaid.x >= L->grid.x || ctaid.y >= L->grid.y || ctaid.z >= L->grid.z)
        atomic_fetch_add(&k->coord_errors, 1);
    if (w->last_kernel != k || b != w->last_block + 1)
        atomic_fetch_add(&k->runs, 1);
    w->last_kernel = k;
    w->last_block = b;
    if ((!k->any_smid && smid != b % L->num_sms) || smid >= L->num_sms || L->num_sms == 0)
        atomic_fetch_add(&k->smid_errors, 1);
    atomic_fetch_add(&k->started, 1);
    int now_running = atomic_fetch_add(&k->running, 1) + 1;
    int most = atomic_load(&k->most_running);
    while (now_running > most && !atomic_compare_exchange_weak(&k->most_running, &most, now_running)) {
    }
    if (L->cluster) {
        /* the blocks of a cluster run at once: each waits for all of them to arrive */
        exec_cluster *c = L->cluster;
        int size = (int)(c->dim.x * c->dim.y * c->dim.z);
        int64_t id = (int64_t)(ctaid.x / c->dim.x) | (int64_t)(ctaid.y / c->dim.y) << 20 |
                     (int64_t)(ctaid.z / c->dim.z) << 40, none = -1;
        if (!atomic_compare_exchange_strong(&c->first, &none, id) && none != id)
            atomic_fetch_add(&k->cluster_mixed, 1);
        atomic_fetch_add(&k->in_cluster, 1);
        atomic_fetch_add(&c->arrived, 1);
        double until = now() + 20.0;
        while (atomic_load(&c->arrived) < size && now() < until)
            sleep_us(50);
        if (atomic_load(&c->arrived) < size)
            atomic_fetch_add(&k->cluster_apart, 1);
    }
    if (k->raise)
        atomic_store(k->raise, 1);
    if (k->wait_for) {
        double until = now() + 20.0;
        while (!atomic_load(k->wait_for) && now() < until)
            sleep_us(100);
        if (!atomic_load(k->wait_for))
            atomic_fetch_add(&k->waited_in_vain, 1);
    }
    if (k->hold_us)
        sleep_us(k->hold_us);
    atomic_fetch_sub(&k->running, 1);
    w->insns += 10;
    if (L->observer && w->observer != L->observer) {
        exec_worker_observe_end(w);
        w->observer = L->observer;
        if (w->observer->begin_worker)
            w->observer->begin_worker(w->observer->ctx);
    }
    fault->kind = EXEC_OK;
    for (int i = 0; i < k->lines; i++)
        out_printf(out, "block %llu line %d\n", (unsigned long long)b, i);
    if (b == k->fault_b || (b == k->fault_a && k->fault_a_delay_us == 0)) {
        fault->kind = EXEC_FAULT_ILLEGAL_ADDRESS;
        snprintf(fault->msg, sizeof fault->msg, "fault in block %llu", (unsigned long long)b);
        return fault->kind;
    }
    if (b == k->fault_a) {
        sleep_us(k->fault_a_delay_us);
        fault->kind = EXEC_FAULT_TRAP;
        snprintf(fault->msg, sizeof fault->msg, "trap in block %llu", (unsigned long long)b);
        return fault->kind;
    }
    if (k->nested_kernel && b == k->nested_block) {
        exec_launch inner = {.kernel = (const exec_kernel *)k->nested_kernel,
                             .grid = {5, 1, 1}, .block = {32, 1, 1}};
        exec_fault f;
        exec_fault_kind r = gpu_run_grid(k->nested_dev, &inner, &f);
        out_printf(out, "nested grid returned %d\n", (int)r);
    }
    if (b >= k->spin_from) {
        double until = now() + 20.0;
        while (!__atomic_load_n(L->abort, __ATOMIC_RELAXED) && now() < until)
            sleep_us(100);
        if (__atomic_load_n(L->abort, __ATOMIC_RELAXED)) {
            fault->kind = EXEC_FAULT_ABORTED;
            return fault->kind;
        }
        atomic_fetch_add(&k->ran_after_fault, 1);
    }
    unsigned us = b == k->slow_block ? k->slow_us
                  : k->work_us_mod ? (unsigned)((b * 7919) % k->work_us_mod) : 0;
    if (us)
        sleep_us(us);
    return EXEC_OK;
}

/* ---- capturing the output ---- */

typedef struct capture {
    char *data;
    size_t len, cap;
    int calls;
} capture;

static void capture_print(const char *data, size_t len, void *ctx) {
    capture *c = ctx;
    if (c->len + len + 1 > c->cap) {
        c->cap = (c->len + len + 1) * 2;
        c->data = realloc(c->data, c->cap);
    }
    memcpy(c->data + c->len, data, len);
    c->len += len;
    c->data[c->len] = 0;
    c->calls++;
}

static char *expected_output(uint64_t first, uint64_t last, int lines) {
    capture c = {0};
    for (uint64_t b = first; b <= last; b++) {
        for (int i = 0; i < lines; i++) {
            char buf[64];
            int n = snprintf(buf, sizeof buf, "block %llu line %d\n", (unsigned long long)b, i);
            capture_print(buf, (size_t)n, &c);
        }
    }
    return c.data ? c.data : calloc(1, 1);
}

static struct exec_kernel plain_kernel(void) {
    struct exec_kernel k;
    memset(&k, 0, sizeof k);
    k.fault_a = k.fault_b = UINT64_MAX;
    k.slow_block = UINT64_MAX;
    k.spin_from = UINT64_MAX;
    k.nested_block = UINT64_MAX;
    k.lines = 2;
    return k;
}

static exec_fault_kind run(gpu_device *d, struct exec_kernel *k, exec_dim3 grid, capture *c,
                           exec_fault *f, gpu_grid_stats *st) {
    exec_launch L = {.kernel = (const exec_kernel *)k, .grid = grid, .block = {64, 1, 1}};
    memset(c, 0, sizeof *c);
    gpu_device_set_print(d, capture_print, c);
    exec_fault_kind r = gpu_run_grid_stats(d, &L, f, st);
    CHECK(L.num_sms == (uint32_t)gpu_device_preset(d)->multiprocessor_count);
    CHECK(L.clock_khz == (uint32_t)gpu_device_preset(d)->clock_khz);
    if (!c->data)
        c->data = calloc(1, 1);
    return r;
}

static const unsigned thread_counts[] = {1, 2, 3, 8};

/* Output in block order, whatever the thread count and how long blocks take. */
static void test_output_order(void) {
    for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
        gpu_device *d = gpu_device_new(gpu_preset_find("h100"), thread_counts[t]);
        CHECK(gpu_device_threads(d) == thread_counts[t]);
        struct exec_kernel k = plain_kernel();
        k.work_us_mod = 300;
        k.lines = 3;
        capture c;
        exec_fault f;
        gpu_grid_stats st;
        exec_fault_kind r = run(d, &k, (exec_dim3){300, 1, 1}, &c, &f, &st);
        char *want = expected_output(0, 299, 3);
        CHECK(r == EXEC_OK && f.kind == EXEC_OK);
        CHECK(strcmp(c.data, want) == 0);
        CHECK(st.blocks_run == 300 && st.warp_instructions == 3000);
        CHECK(st.host_threads >= 1 && st.host_threads <= thread_counts[t]);
        CHECK(k.smid_errors == 0 && k.coord_errors == 0);
        free(want);
        free(c.data);
        gpu_device_free(d);
    }
}

/* 3-D grids: coordinates within bounds, SM = linear index mod SM count, every block once. */
static void test_coordinates(void) {
    gpu_device *d = gpu_device_new(gpu_preset_find("k40"), 4);
    struct exec_kernel k = plain_kernel();
    k.lines = 1;
    capture c;
    exec_fault f;
    gpu_grid_stats st;
    CHECK(run(d, &k, (exec_dim3){7, 5, 3}, &c, &f, &st) == EXEC_OK);
    char *want = expected_output(0, 7 * 5 * 3 - 1, 1);
    CHECK(strcmp(c.data, want) == 0);
    CHECK(k.smid_errors == 0 && k.coord_errors == 0 && st.blocks_run == 105);
    free(want);
    free(c.data);
    /* an empty grid does nothing */
    CHECK(run(d, &k, (exec_dim3){0, 1, 1}, &c, &f, &st) == EXEC_OK && c.len == 0);
    CHECK(st.blocks_run == 0);
    free(c.data);
    gpu_device_free(d);
}

/* Two faulting blocks, the later one faulting first in time: the earlier one is reported,
 * its output and that of every block before it is written, nothing after. */
static void test_first_fault_in_block_order(void) {
    for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
        gpu_device *d = gpu_device_new(gpu_preset_find("h100"), thread_counts[t]);
        struct exec_kernel k = plain_kernel();
        k.work_us_mod = 50;
        k.fault_a = 37;
        k.fault_a_delay_us = 20000;
        k.fault_b = 40;
        capture c;
        exec_fault f;
        gpu_grid_stats st;
        exec_fault_kind r = run(d, &k, (exec_dim3){200, 1, 1}, &c, &f, &st);
        CHECK(r == EXEC_FAULT_TRAP && f.kind == EXEC_FAULT_TRAP);
        CHECK(strcmp(f.msg, "trap in block 37") == 0);
        char *want = expected_output(0, 37, 2);
        CHECK(strcmp(c.data, want) == 0);
        free(want);
        free(c.data);

        /* the device is fine afterwards */
        struct exec_kernel k2 = plain_kernel();
        CHECK(run(d, &k2, (exec_dim3){10, 1, 1}, &c, &f, &st) == EXEC_OK);
        want = expected_output(0, 9, 2);
        CHECK(strcmp(c.data, want) == 0 && f.kind == EXEC_OK && f.msg[0] == 0);
        free(want);
        free(c.data);
        gpu_device_free(d);
    }
}

/* Blocks after a fault that would run for 20 s are stopped at once; blocks before it
 * are not. */
static void test_stop_after_fault(void) {
    gpu_device *d = gpu_device_new(gpu_preset_find("h100"), 4);
    struct exec_kernel k = plain_kernel();
    k.fault_a = 3;
    k.fault_a_delay_us = 30000;
    k.spin_from = 4;
    capture c;
    exec_fault f;
    gpu_grid_stats st;
    double t0 = now();
    exec_fault_kind r = run(d, &k, (exec_dim3){1000, 1, 1}, &c, &f, &st);
    double took = now() - t0;
    CHECK(r == EXEC_FAULT_TRAP && strcmp(f.msg, "trap in block 3") == 0);
    CHECK(k.ran_after_fault == 0);
    CHECK(took < 10.0); /* the spinning blocks would hold it for 20 s */
    CHECK(st.blocks_run < 10);
    char *want = expected_output(0, 3, 2);
    CHECK(strcmp(c.data, want) == 0);
    free(want);
    free(c.data);
    gpu_device_free(d);
}

/* One very slow early block: thousands of later blocks finish first and wait their turn;
 * the output is still in order, and the first blocks' output is written as soon as
 * they finish (the print function is called many times, not once at the end). */
static void test_slow_block_and_streaming(void) {
    gpu_device *d = gpu_device_new(gpu_preset_find("h100"), 3);
    struct exec_kernel k = plain_kernel();
    k.slow_block = 5;
    k.slow_us = 200000;
    k.lines = 1;
    capture c;
    exec_fault f;
    gpu_grid_stats st;
    CHECK(run(d, &k, (exec_dim3){10000, 1, 1}, &c, &f, &st) == EXEC_OK);
    char *want = expected_output(0, 9999, 1);
    CHECK(strcmp(c.data, want) == 0);
    CHECK(c.calls > 5);
    free(want);
    free(c.data);
    gpu_device_free(d);
}

/* A block launching a grid on its own device: it runs at once, on that thread. */
static void test_nested_grid(void) {
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        gpu_device *d = gpu_device_new(gpu_preset_find("h100"), threads);
        struct exec_kernel inner = plain_kernel();
        inner.lines = 1;
        inner.fault_b = 3;
        struct exec_kernel k = plain_kernel();
        k.lines = 1;
        k.nested_dev = d;
        k.nested_block = 2;
        k.nested_kernel = &inner;
        capture c;
        exec_fault f;
        gpu_grid_stats st;
        CHECK(run(d, &k, (exec_dim3){6, 1, 1}, &c, &f, &st) == EXEC_OK);
        /* the inner grid prints its blocks 0..3 (3 faults: cudaErrorIllegalAddress, 1) as
         * it runs, before outer block 2's own output */
        const char *want = "block 0 line 0\nblock 1 line 0\n"
                           "block 0 line 0\nblock 1 line 0\nblock 2 line 0\nblock 3 line 0\n"
                           "block 2 line 0\nnested grid returned 1\n"
                           "block 3 line 0\nblock 4 line 0\nblock 5 line 0\n";
        if (threads == 1) {
            CHECK(strcmp(c.data, want) == 0);
        } else {
            /* outer blocks 0 and 1 may be written while the inner grid prints */
            CHECK(strlen(c.data) == strlen(want));
            CHECK(strstr(c.data, "block 2 line 0\nnested grid returned 1\nblock 3 line 0\n"
                                 "block 4 line 0\nblock 5 line 0\n"));
        }
        CHECK(k.smid_errors == 0 && inner.smid_errors == 0);
        free(c.data);
        gpu_device_free(d);
    }
}

/* ---- grids of several host threads ---- */

typedef struct grid_job {
    gpu_device *dev;
    struct exec_kernel *kernel;
    exec_dim3 grid;
    int blocks_per_sm;
    exec_fault_kind result;
} grid_job;

static void *run_job(void *arg) {
    grid_job *j = arg;
    exec_launch L = {.kernel = (const exec_kernel *)j->kernel, .grid = j->grid, .block = {32, 1, 1}};
    gpu_grid_opts o = {.blocks_per_sm = j->blocks_per_sm};
    j->result = gpu_run_grid_opts(j->dev, &L, &o, NULL, NULL);
    return NULL;
}

static void wait_until(_Atomic int *v, int at_least) {
    double until = now() + 20.0;
    while (atomic_load(v) < at_least && now() < until)
        sleep_us(200);
}

/* Two one-block grids of two host threads, one waiting until the other runs: with a
 * device of a single host thread they still both run (each calling thread runs its own
 * grid), as two kernels of different streams do on a GPU. */
static void test_grids_wait_for_each_other(void) {
    gpu_device *d = gpu_device_new(gpu_preset_find("h100"), 1);
    _Atomic int b_ran = 0;
    struct exec_kernel a = plain_kernel(), b = plain_kernel();
    a.any_smid = b.any_smid = true;
    a.wait_for = &b_ran;
    b.raise = &b_ran;
    capture c = {0};
    gpu_device_set_print(d, capture_print, &c);
    grid_job ja = {d, &a, {1, 1, 1}, 0, EXEC_FAULT_TRAP}, jb = {d, &b, {1, 1, 1}, 0, EXEC_FAULT_TRAP};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, run_job, &ja);
    wait_until(&a.started, 1);
    pthread_create(&tb, NULL, run_job, &jb);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK(ja.result == EXEC_OK && jb.result == EXEC_OK);
    CHECK(a.waited_in_vain == 0 && a.smid_errors == 0 && b.smid_errors == 0);
    free(c.data);
    gpu_device_free(d);
}

/* Residency: a grid holding one block per SM on every SM leaves no room, so another
 * grid's block waits until one leaves; at two blocks per SM there is room beside it. */
static void test_residency_between_grids(void) {
    for (int per_sm = 1; per_sm <= 2; per_sm++) {
        const gpu_preset *p = gpu_preset_find("fermi");
        int sms = p->multiprocessor_count;
        gpu_device *d = gpu_device_new(p, (unsigned)sms + 4);
        _Atomic int release = 0, b_started = 0;
        struct exec_kernel a = plain_kernel(), b = plain_kernel();
        a.any_smid = b.any_smid = true;
        a.lines = b.lines = 0;
        a.wait_for = &release;
        b.raise = &b_started;
        grid_job ja = {d, &a, {(uint32_t)sms, 1, 1}, per_sm, EXEC_FAULT_TRAP};
        grid_job jb = {d, &b, {1, 1, 1}, per_sm, EXEC_FAULT_TRAP};
        pthread_t ta, tb;
        pthread_create(&ta, NULL, run_job, &ja);
        wait_until(&a.running, sms); /* every SM holds one of a's blocks */
        CHECK(atomic_load(&a.running) == sms);
        pthread_create(&tb, NULL, run_job, &jb);
        if (per_sm == 1) {
            sleep_us(100000);
            CHECK(atomic_load(&b_started) == 0); /* no room anywhere */
        } else {
            wait_until(&b_started, 1);
            CHECK(atomic_load(&b_started) == 1); /* room beside a's blocks */
            CHECK(atomic_load(&a.running) == sms);
        }
        atomic_store(&release, 1);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        CHECK(ja.result == EXEC_OK && jb.result == EXEC_OK && b_started == 1);
        CHECK(a.most_running == sms && a.waited_in_vain == 0);
        gpu_device_free(d);
    }
}

/* A grid that fits one block per SM never has two on one SM, however many threads could
 * run them: resident blocks are capped at the SM count. */
static void test_residency_within_grid(void) {
    const gpu_preset *p = gpu_preset_find("fermi");
    int sms = p->multiprocessor_count;
    gpu_device *d = gpu_device_new(p, (unsigned)sms * 2);
    struct exec_kernel k = plain_kernel();
    k.lines = 0;
    k.hold_us = 2000;
    grid_job j = {d, &k, {(uint32_t)sms * 6, 1, 1}, 1, EXEC_FAULT_TRAP};
    run_job(&j);
    CHECK(j.result == EXEC_OK && k.smid_errors == 0);
    CHECK(k.most_running <= sms && k.most_running > 1);
    gpu_device_free(d);
}

/* An observed launch: every worker's observer state has ended when the grid returns. */
typedef struct obs_count {
    _Atomic int begins, ends;
} obs_count;

static void *obs_begin(void *ctx) {
    atomic_fetch_add(&((obs_count *)ctx)->begins, 1);
    return NULL;
}

static void obs_end(void *ctx, void *state) {
    (void)state;
    atomic_fetch_add(&((obs_count *)ctx)->ends, 1);
}

static void test_observed_launch(void) {
    gpu_device *d = gpu_device_new(gpu_preset_find("h100"), 4);
    obs_count n = {0, 0};
    exec_observer obs = {.ctx = &n, .begin_worker = obs_begin, .end_worker = obs_end};
    struct exec_kernel k = plain_kernel();
    k.lines = 0;
    k.work_us_mod = 200;
    capture c = {0};
    gpu_device_set_print(d, capture_print, &c);
    for (int round = 0; round < 3; round++) {
        exec_launch L = {.kernel = (const exec_kernel *)&k, .grid = {300, 1, 1},
                         .block = {32, 1, 1}, .observer = &obs};
        gpu_grid_stats st;
        CHECK(gpu_run_grid_stats(d, &L, NULL, &st) == EXEC_OK);
        CHECK(atomic_load(&n.begins) == atomic_load(&n.ends));
        CHECK(atomic_load(&n.begins) >= (round + 1) * 1);
        CHECK(st.blocks_run == 300);
    }
    free(c.data);
    gpu_device_free(d);
}

static void test_thread_count_from_env(void) {
    setenv("VCUDA_THREADS", "3", 1);
    gpu_device *d = gpu_device_new(gpu_preset_find("fermi"), 0);
    CHECK(gpu_device_threads(d) == 3);
    CHECK(gpu_device_mem(d) != NULL && gpu_device_preset(d) == gpu_preset_find("fermi"));
    gpu_device_free(d);
    setenv("VCUDA_THREADS", "2", 1);
    d = gpu_device_new(gpu_preset_find("fermi"), 5); /* an explicit count wins */
    CHECK(gpu_device_threads(d) == 5);
    gpu_device_free(d);
    unsetenv("VCUDA_THREADS");
    d = gpu_device_new(gpu_preset_find("fermi"), 0);
    CHECK(gpu_device_threads(d) >= 1);
    gpu_device_free(d);
}

/* Grid ids increase; a one-block launch costs little (printed, not asserted). */
static void test_small_launches(void) {
    gpu_device *d = gpu_device_new(gpu_preset_find("h100"), 8);
    struct exec_kernel k = plain_kernel();
    k.lines = 0;
    exec_launch L = {.kernel = (const exec_kernel *)&k, .grid = {1, 1, 1}, .block = {32, 1, 1}};
    uint64_t last = 0;
    int n = 2000;
    double t0 = now();
    for (int i = 0; i < n; i++) {
        CHECK(gpu_run_grid(d, &L, NULL) == EXEC_OK);
        CHECK(L.grid_id > last);
        last = L.grid_id;
    }
    double one = (now() - t0) / n;
    L.grid = (exec_dim3){4, 1, 1};
    t0 = now();
    for (int i = 0; i < n; i++)
        CHECK(gpu_run_grid(d, &L, NULL) == EXEC_OK);
    double four = (now() - t0) / n;
    printf("one-block launch: %.1f us, four-block launch: %.1f us\n", one * 1e6, four * 1e6);
    gpu_device_free(d);
}

/* Clusters: every block of a cluster runs while the others do (each waits for all of its
 * cluster), the blocks of one cluster only, output in block order, whatever the threads. */
static void test_clusters(void) {
    const exec_dim3 shapes[][2] = {{{64, 1, 1}, {4, 1, 1}}, {{8, 6, 2}, {2, 3, 1}},
                                   {{16, 1, 1}, {16, 1, 1}}};
    for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
        for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
            gpu_device *d = gpu_device_new(gpu_preset_find("h100"), thread_counts[t]);
            struct exec_kernel k = plain_kernel();
            k.lines = 1;
            k.any_smid = true; /* a cluster's blocks take consecutive SMs */
            exec_dim3 g = shapes[sh][0];
            exec_launch L = {.kernel = (const exec_kernel *)&k, .grid = g, .block = {64, 1, 1},
                             .cluster_dim = shapes[sh][1], .explicit_cluster = true};
            capture c;
            memset(&c, 0, sizeof c);
            gpu_device_set_print(d, capture_print, &c);
            exec_fault f;
            uint64_t n = (uint64_t)g.x * g.y * g.z;
            CHECK(gpu_run_grid(d, &L, &f) == EXEC_OK);
            char *want = expected_output(0, n - 1, 1);
            CHECK(c.data && strcmp(c.data, want) == 0);
            CHECK(k.in_cluster == (int)n && k.cluster_apart == 0 && k.cluster_mixed == 0);
            CHECK(k.coord_errors == 0 && k.smid_errors == 0);
            free(want);
            free(c.data);
            gpu_device_free(d);
        }
    }
}

/* Each lane runs long runs of consecutive blocks, so that two lanes are seldom at
 * neighbouring blocks at once (whose memory is usually neighbouring too: their cores then
 * pull each other's cache lines). 4,096 blocks on two lanes that both work: fewer than 128
 * runs (a block at a time would be about 4,096, runs of 16 at least 230). */
static void test_long_runs(void) {
    gpu_device *d = gpu_device_new(gpu_preset_find("h100"), 2);
    struct exec_kernel k = plain_kernel();
    k.lines = 1;
    k.hold_us = 20; /* so that the pool's lane gets its share */
    capture c;
    exec_fault f;
    gpu_grid_stats st;
    CHECK(run(d, &k, (exec_dim3){4096, 1, 1}, &c, &f, &st) == EXEC_OK);
    CHECK(st.blocks_run == 4096 && st.host_threads == 2);
    CHECK(k.runs > 1 && k.runs < 128);
    char *want = expected_output(0, 4095, 1);
    CHECK(strcmp(c.data, want) == 0);
    free(want);
    free(c.data);
    gpu_device_free(d);
}

/* A cooperative grid runs every block at once, each with a worker of its own; the
 * workers are kept for the next launch (each new one costs its memory's page faults
 * again): launched again, the grid makes no new worker. */
static void test_cooperative_keeps_workers(void) {
    gpu_device *d = gpu_device_new(gpu_preset_find("h100"), 2);
    struct exec_kernel k = plain_kernel();
    k.lines = 1;
    gpu_grid_opts o = {.cooperative = true};
    int made[2];
    for (int i = 0; i < 2; i++) {
        capture c;
        memset(&c, 0, sizeof c);
        gpu_device_set_print(d, capture_print, &c);
        exec_launch L = {.kernel = (const exec_kernel *)&k, .grid = {40, 1, 1},
                         .block = {64, 1, 1}};
        exec_fault f;
        gpu_grid_stats st;
        int before = atomic_load(&workers_made);
        CHECK(gpu_run_grid_opts(d, &L, &o, &f, &st) == EXEC_OK);
        made[i] = atomic_load(&workers_made) - before;
        CHECK(st.blocks_run == 40 && st.host_threads == 40);
        char *want = expected_output(0, 39, 1);
        CHECK(c.data && strcmp(c.data, want) == 0);
        free(want);
        free(c.data);
    }
    CHECK(made[0] >= 38 && made[1] == 0);
    gpu_device_free(d);
}

int main(void) {
    test_long_runs();
    test_cooperative_keeps_workers();
    test_clusters();
    test_output_order();
    test_coordinates();
    test_first_fault_in_block_order();
    test_stop_after_fault();
    test_slow_block_and_streaming();
    test_nested_grid();
    test_grids_wait_for_each_other();
    test_residency_between_grids();
    test_residency_within_grid();
    test_observed_launch();
    test_thread_count_from_env();
    test_small_launches();
    if (failures) {
        fprintf(stderr, "test_gpu_scheduler: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_gpu_scheduler: ok\n");
    return 0;
}
