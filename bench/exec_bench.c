/* bench/exec_bench.c — executor speed per kernel, in CPU time: runs the kernels of the
 * reduction or matrix-product example (their PTX, made by nvcc -ptx) straight through
 * the SIMT core on host threads of its own, checks every result, and prints per kernel
 * the warp-instructions executed and the CPU time they took.
 *
 *   exec_bench [-t threads] [-r reps] [-k name-part] [--jit] [--sched] file.ptx reduce N BLOCK
 *   exec_bench [-t threads] [-r reps] [-k name-part] [--jit] [--sched] file.ptx matmul N
 *
 * --jit runs the compiled tier (jit/): the program is compiled (or found in the cache)
 * before the first kernel, and the time it took is printed on stderr.
 *   exec_bench --jit file.ptx compile
 * only compiles (the time, and how many lowered instructions, on stderr).
 *
 * --sched runs each grid through the device's block scheduler (gpu/scheduler.c: the
 * runtime's path, with its locks, residency and output order) on a device of -t threads
 * instead of the benchmark's own counter: the difference is what the scheduler costs.
 * cpu-ms is then the whole process's CPU time over the grid, and each line has two more
 * columns, from the kernel's per-thread scheduler statistics (/proc/self/task/N/schedstat):
 *   ... wait-ms idle-ms
 * wait-ms: the time the process's threads were ready to run but waited for a core (other
 * work on the machine); idle-ms: threads x wall-ms - cpu-ms - wait-ms, the time the
 * scheduler's lanes had nothing to run (waiting for one another, for a block, or to be
 * woken). On cores of its own the grid would take (cpu-ms + idle-ms) / threads: a figure
 * that the machine's load does not move, which wall-ms on a shared machine is not.
 *
 * Output, one line per kernel (tab-separated):
 *   name  warp-instructions  cpu-ms  wall-ms  threads  Mwinst/s-per-core
 * cpu-ms is the CPU time of all the worker threads together (best of the repetitions),
 * so insns / cpu-ms is the rate per host core whatever else the machine runs: with good
 * scaling it stays the same for any thread count.
 *
 * Under valgrind --tool=callgrind --collect-atstart=no each kernel's first repetition is
 * collected and dumped under the kernel's name (host instructions per warp-instruction:
 * a figure independent of load).
 */
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec/exec.h"
#include "gpu/gpu.h"
#include "jit/jit.h"
#include "mem/mem.h"
#include "ptx/ir.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(s) ((void)(s))
#endif

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- running one grid on several host threads ---- */

typedef struct grid_run {
    const exec_launch *L;
    atomic_uint_fast64_t next;   /* next linear block index to hand out */
    uint64_t nblocks;
    unsigned nthreads;
    atomic_int failed;
    char msg[512];
    pthread_mutex_t lock;
} grid_run;

typedef struct worker_slot {
    grid_run *g;
    exec_worker *w;
    double cpu_s;                /* this thread's CPU time for the grid */
    uint64_t insns;
} worker_slot;

static void *worker_main(void *arg) {
    worker_slot *s = arg;
    grid_run *g = s->g;
    const exec_launch *L = g->L;
    double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
    uint64_t i0 = exec_worker_insn_count(s->w);
    exec_output out = {0};
    /* Blocks are taken in runs of consecutive ones, as the device's scheduler hands them
     * out (gpu/scheduler.c, GPU_RUN_MAX): at most 64, a quarter of this thread's share of
     * what is left. One at a time, two threads ran neighbouring blocks at once and paid
     * for each other's lines, which the runtime does not. */
    uint64_t b = 0, end = 0;
    for (;; b++) {
        if (b >= end) {
            uint64_t seen = atomic_load(&g->next), n;
            do {
                uint64_t left = seen < g->nblocks ? g->nblocks - seen : 0;
                n = left / (4u * g->nthreads);
                n = n < 1 ? 1 : n > 64 ? 64 : n;
            } while (!atomic_compare_exchange_weak(&g->next, &seen, seen + n));
            b = seen;
            end = seen + n;
        }
        if (b >= g->nblocks || atomic_load(&g->failed)) break;
        exec_dim3 c = {(uint32_t)(b % L->grid.x), (uint32_t)(b / L->grid.x % L->grid.y),
                       (uint32_t)(b / L->grid.x / L->grid.y)};
        exec_fault f;
        if (exec_run_block(s->w, L, c, (uint32_t)(b % L->num_sms), &out, &f) != EXEC_OK) {
            pthread_mutex_lock(&g->lock);
            if (!atomic_exchange(&g->failed, 1)) snprintf(g->msg, sizeof g->msg, "%s", f.msg);
            pthread_mutex_unlock(&g->lock);
            break;
        }
        out.len = 0;
    }
    free(out.data);
    s->cpu_s = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
    s->insns = exec_worker_insn_count(s->w) - i0;
    return NULL;
}

typedef struct bench {
    mem_table *mem;
    exec_program *prog;
    exec_worker **workers;
    unsigned nthreads;
    gpu_device *dev;             /* --sched: grids go through this device's scheduler */
} bench;

typedef struct timing {
    uint64_t insns;
    double cpu_ms, wall_ms;
    double wait_ms, idle_ms;     /* --sched: waiting for a core, and idle (see above) */
} timing;

/* The process's threads' time waiting for a core (ns), from their scheduler statistics
 * (0 where the kernel keeps none). */
static double tasks_wait_ns(void) {
    DIR *d = opendir("/proc/self/task");
    if (!d) return 0;
    double wait = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        unsigned long long run = 0, waited = 0;
        if (fscanf(f, "%llu %llu", &run, &waited) == 2) wait += (double)waited;
        fclose(f);
    }
    closedir(d);
    return wait;
}

/* Run kernel over grid x block with the given arguments on every worker thread. */
static bool run_grid(bench *B, const exec_kernel *k, exec_dim3 grid, exec_dim3 block,
                     void **args, timing *t) {
    const exec_kernel_info *ki = exec_kernel_get_info(k);
    uint8_t *params = calloc(1, ki->param_size + 16);
    if (!params) abort();
    for (uint32_t i = 0; i < ki->nparams; i++)
        memcpy(params + ki->param_offsets[i], args[i], ki->param_sizes[i]);
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.kernel = k;
    L.grid = grid;
    L.block = block;
    L.params = params;
    L.mem = B->mem;
    L.num_sms = 132;
    L.clock_khz = 1755000;
    static uint64_t grid_id;
    L.grid_id = ++grid_id;
    if (B->dev) {
        /* the scheduler's path: the whole process's CPU time (the pool's lanes too) */
        gpu_grid_stats st;
        exec_fault f;
        double q0 = tasks_wait_ns();
        double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        exec_fault_kind k = gpu_run_grid_stats(B->dev, &L, &f, &st);
        t->wall_ms = (clock_s(CLOCK_MONOTONIC) - w0) * 1e3;
        t->cpu_ms = (clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e3;
        t->wait_ms = (tasks_wait_ns() - q0) / 1e6;
        t->idle_ms = B->nthreads * t->wall_ms - t->cpu_ms - t->wait_ms;
        t->insns = st.warp_instructions;
        free(params);
        if (k != EXEC_OK) {
            fprintf(stderr, "exec_bench: %s faulted: %s\n", ki->name, f.msg);
            return false;
        }
        return true;
    }
    grid_run g;
    memset(&g, 0, sizeof g);
    g.L = &L;
    g.nblocks = (uint64_t)grid.x * grid.y * grid.z;
    g.nthreads = B->nthreads;
    pthread_mutex_init(&g.lock, NULL);
    worker_slot slots[64];
    pthread_t tids[64];
    double w0 = clock_s(CLOCK_MONOTONIC);
    for (unsigned i = 0; i < B->nthreads; i++) {
        slots[i] = (worker_slot){.g = &g, .w = B->workers[i]};
        if (B->nthreads == 1) worker_main(&slots[i]);
        else if (pthread_create(&tids[i], NULL, worker_main, &slots[i]) != 0) abort();
    }
    if (B->nthreads > 1)
        for (unsigned i = 0; i < B->nthreads; i++) pthread_join(tids[i], NULL);
    t->wall_ms = (clock_s(CLOCK_MONOTONIC) - w0) * 1e3;
    t->cpu_ms = 0;
    t->wait_ms = t->idle_ms = 0;
    t->insns = 0;
    for (unsigned i = 0; i < B->nthreads; i++) {
        t->cpu_ms += slots[i].cpu_s * 1e3;
        t->insns += slots[i].insns;
    }
    pthread_mutex_destroy(&g.lock);
    free(params);
    if (atomic_load(&g.failed)) {
        fprintf(stderr, "exec_bench: %s faulted: %s\n", ki->name, g.msg);
        return false;
    }
    return true;
}

static void *dev_alloc(bench *B, size_t size) {
    void *p = aligned_alloc(256, (size + 255) & ~(size_t)255);
    if (!p) abort();
    memset(p, 0, size);
    if (!mem_table_add(B->mem, (uint64_t)(uintptr_t)p, size, MEM_KIND_DEVICE, 0)) abort();
    return p;
}

static void dev_free(bench *B, void *p) {
    mem_alloc a;
    mem_table_remove(B->mem, (uint64_t)(uintptr_t)p, &a);
    free(p);
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    if (s) s[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return s;
}

/* ---- the kernels ---- */

/* Elements one thread of a reduction kernel folds before the tree, from its name. */
static unsigned reduce_unroll(const char *name) {
    if (strstr(name, "Unrolling16")) return 16;
    if (strstr(name, "Unrolling2")) return 2;
    if (strstr(name, "Unrolling4")) return 4;
    if (strstr(name, "8") || strstr(name, "CompleteUnroll")) return 8;
    return 1;
}

/* What to print for a kernel: its C++ name without the mangling (_Z16reduceNeighboredPiS_j
 * -> reduceNeighbored; _Z21reduceCompleteUnrollILj512EEvPiS0_j -> reduceCompleteUnroll<512>). */
static void short_name(const char *mangled, char *out, size_t n) {
    const char *p = mangled;
    if (strncmp(p, "_Z", 2) == 0) {
        p += 2;
        unsigned len = 0;
        while (*p >= '0' && *p <= '9') len = len * 10 + (unsigned)(*p++ - '0');
        if (len && strlen(p) >= len) {
            const char *tmpl = p + len;
            unsigned v = 0;
            if (sscanf(tmpl, "ILj%uE", &v) == 1)
                snprintf(out, n, "%.*s<%u>", (int)len, p, v);
            else
                snprintf(out, n, "%.*s", (int)len, p);
            return;
        }
    }
    snprintf(out, n, "%s", mangled);
}

typedef struct opts {
    unsigned reps;
    const char *filter;
} opts;

static void report(const bench *B, const char *name, const timing *best) {
    printf("%s\t%llu\t%.3f\t%.3f\t%u\t%.1f", name, (unsigned long long)best->insns,
           best->cpu_ms, best->wall_ms, B->nthreads,
           best->cpu_ms > 0 ? best->insns / best->cpu_ms / 1e3 : 0);
    if (B->dev) printf("\t%.3f\t%.3f", best->wait_ms, best->idle_ms);
    printf("\n");
}

static int bench_reduce(bench *B, const opts *o, unsigned n, unsigned block) {
    const ptx_module *m = exec_program_module(B->prog);
    int *in = dev_alloc(B, (size_t)n * 4);
    int *out = dev_alloc(B, (size_t)n / block * 4);
    int *host = malloc((size_t)n * 4);
    if (!host) abort();
    int64_t want = 0;
    for (unsigned i = 0; i < n; i++) {
        host[i] = (int)((i * 2654435761u) >> 24) - 128;
        want += host[i];
    }
    int rc = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_func *pf = &m->funcs[fi];
        if (!pf->is_entry || !strstr(pf->name, "reduce")) continue;
        char name[128];
        short_name(pf->name, name, sizeof name);
        if (o->filter && !strstr(name, o->filter)) continue;
        /* reduceCompleteUnroll<N> is made for blocks of N threads only */
        const char *tmpl = strchr(name, '<');
        if (tmpl && (unsigned)atoi(tmpl + 1) != block) continue;
        unsigned unroll = reduce_unroll(name);
        unsigned blocks = n / block / unroll;
        const exec_kernel *k = exec_program_kernel(B->prog, pf->name);
        timing best = {0, 1e30, 1e30, 0, 0};
        for (unsigned r = 0; r < o->reps; r++) {
            memcpy(in, host, (size_t)n * 4);
            memset(out, 0, (size_t)blocks * 4);
            void *args[] = {&in, &out, &n};
            timing t;
            if (r == 0) CALLGRIND_TOGGLE_COLLECT;
            bool ok = run_grid(B, k, (exec_dim3){blocks, 1, 1}, (exec_dim3){block, 1, 1}, args, &t);
            if (r == 0) {
                CALLGRIND_TOGGLE_COLLECT;
                CALLGRIND_DUMP_STATS_AT(name);
            }
            if (!ok) { rc = 1; break; }
            int64_t got = 0;
            for (unsigned b = 0; b < blocks; b++) got += out[b];
            if ((int32_t)got != (int32_t)want) {
                fprintf(stderr, "exec_bench: %s: sum %lld, expected %lld\n", name, (long long)got,
                        (long long)want);
                rc = 1;
                break;
            }
            if (t.cpu_ms < best.cpu_ms) best = t;
        }
        if (rc) break;
        report(B, name, &best);
    }
    free(host);
    dev_free(B, in);
    dev_free(B, out);
    return rc;
}

static int bench_matmul(bench *B, const opts *o, unsigned n) {
    const ptx_module *m = exec_program_module(B->prog);
    size_t bytes = (size_t)n * n * 4;
    float *a = dev_alloc(B, bytes), *b = dev_alloc(B, bytes), *c = dev_alloc(B, bytes);
    float *ref = malloc(bytes);
    if (!ref) abort();
    for (unsigned i = 0; i < n * n; i++) {
        a[i] = (float)(i % 7);
        b[i] = (float)(i % 5);
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            float s = 0;
            for (unsigned k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
            ref[i * n + j] = s;
        }
    int rc = 0;
    for (uint32_t fi = 0; fi < m->nfuncs && !rc; fi++) {
        const ptx_func *pf = &m->funcs[fi];
        if (!pf->is_entry) continue;
        char name[128];
        short_name(pf->name, name, sizeof name);
        if (o->filter && !strstr(name, o->filter)) continue;
        const exec_kernel *k = exec_program_kernel(B->prog, pf->name);
        timing best = {0, 1e30, 1e30, 0, 0};
        for (unsigned r = 0; r < o->reps; r++) {
            memset(c, 0xff, bytes);
            int ni = (int)n;
            void *args[] = {&a, &b, &ni, &c};
            timing t;
            if (r == 0) CALLGRIND_TOGGLE_COLLECT;
            bool ok = run_grid(B, k, (exec_dim3){n / 16, n / 16, 1}, (exec_dim3){16, 16, 1}, args, &t);
            if (r == 0) {
                CALLGRIND_TOGGLE_COLLECT;
                CALLGRIND_DUMP_STATS_AT(name);
            }
            if (!ok || memcmp(c, ref, bytes) != 0) {
                if (ok) fprintf(stderr, "exec_bench: %s: wrong product\n", name);
                rc = 1;
                break;
            }
            if (t.cpu_ms < best.cpu_ms) best = t;
        }
        if (!rc) report(B, name, &best);
    }
    free(ref);
    dev_free(B, a);
    dev_free(B, b);
    dev_free(B, c);
    return rc;
}

static int usage(void) {
    fprintf(stderr, "usage: exec_bench [-t threads] [-r reps] [-k name-part] [--jit] [--sched] "
                    "file.ptx reduce N BLOCK | matmul N\n");
    return 2;
}

int main(int argc, char **argv) {
    opts o = {3, NULL};
    unsigned threads = 1;
    int i = 1;
    bool jit = false, sched = false;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (!strcmp(argv[i], "--jit") || !strcmp(argv[i], "--sched")) {
            if (argv[i][2] == 'j') jit = true;
            else sched = true;
            i--;
            continue;
        }
        if (!strcmp(argv[i], "-t")) threads = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-r")) o.reps = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-k")) o.filter = argv[i + 1];
        else return usage();
    }
    if (argc - i < 2 || threads < 1 || threads > 64 || o.reps < 1) return usage();
    size_t len;
    char *text = read_file(argv[i], &len);
    if (!text) {
        fprintf(stderr, "exec_bench: cannot read %s\n", argv[i]);
        return 2;
    }
    char err[512];
    bench B = {0};
    B.mem = mem_table_new();
    ptx_module *m = ptx_parse(text, len, argv[i], err, sizeof err);
    free(text);
    if (!m || !(B.prog = exec_program_load(m, B.mem, err, sizeof err))) {
        fprintf(stderr, "exec_bench: %s\n", err);
        return 2;
    }
    jit_job *job = NULL;
    if (jit) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        job = jit_program_start(B.prog, JIT_ALWAYS, err, sizeof err);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (!job) {
            fprintf(stderr, "exec_bench: %s\n", err);
            return 2;
        }
        char desc[256];
        jit_job_describe(job, desc, sizeof desc);
        fprintf(stderr, "exec_bench: %s; ready after %.3f s\n", desc,
                (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    }
    if (jit && argc - i == 2 && !strcmp(argv[i + 1], "compile")) {
        jit_job_free(job);
        exec_program_free(B.prog, B.mem);
        mem_table_free(B.mem);
        return 0;
    }
    B.nthreads = threads;
    B.workers = calloc(threads, sizeof *B.workers);
    for (unsigned t = 0; t < threads; t++) B.workers[t] = exec_worker_new();
    if (sched) {
        B.dev = gpu_device_new_shared(gpu_preset_find("h100"), threads, B.mem);
        if (!B.dev) abort();
    }
    int rc;
    if (argc - i < 3) rc = usage();
    else if (!strcmp(argv[i + 1], "reduce") && argc - i >= 4)
        rc = bench_reduce(&B, &o, (unsigned)atoi(argv[i + 2]), (unsigned)atoi(argv[i + 3]));
    else if (!strcmp(argv[i + 1], "matmul"))
        rc = bench_matmul(&B, &o, (unsigned)atoi(argv[i + 2]));
    else
        rc = usage();
    if (B.dev) gpu_device_free(B.dev);
    for (unsigned t = 0; t < threads; t++) exec_worker_free(B.workers[t]);
    free(B.workers);
    jit_job_free(job);
    exec_program_free(B.prog, B.mem);
    mem_table_free(B.mem);
    return rc;
}
