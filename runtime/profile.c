/* runtime/profile.c — the profiler inside the program (`vcuda prof`, in the spirit of
 * nvprof): each launch runs under an observer that counts (prof/session.c), its duration
 * comes from the timing model, and at exit the report goes to stderr so the program's
 * stdout is what it would be without profiling.
 *
 * `vcuda prof` sets the environment this reads:
 *   VCUDA_PROF=1            profile (the summary: per kernel calls and estimated time, and
 *                           each kernel's grid, block, registers, shared memory, occupancy)
 *   VCUDA_PROF_METRICS=a,b  metrics by nvprof or Nsight Compute name, or "all"
 *   VCUDA_PROF_TRACE=1      one line per launch (nvprof's --print-gpu-trace)
 *   VCUDA_PROF_CSV=1        comma-separated output
 *   VCUDA_PROF_LOG=path     write the report there instead of stderr
 *   VCUDA_PROF_COMMAND=...  the command line, for the report's first line
 * and, set by hand, VCUDA_PROF_JIT=0: profiled launches run in the interpreter (by
 * default they run the compiled tier's instrumented code as VCUDA_JIT says, with the
 * same counts: rt_prof_compiled), and VCUDA_PROF_VECTOR=0: the blocks the timing model
 * does not replay run the per-warp instrumented code rather than the vector tier's
 * (exec_native_block_observable; the same counts, to compare the two's cost).
 * Device times are the timing model's estimates (prof/timing.c) for the preset, laid end
 * to end on a virtual clock; the host's speed never shows in them.
 */
#include "rt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../prof/report.h"
#include "../prof/session.h"

typedef struct rt_prof_record {
    char *kernel;                 /* as reports name it (demangled) */
    exec_dim3 grid, block;
    int regs;
    bool regs_from_ptxas;
    uint32_t static_shared, dynamic_shared;
    int stream;                   /* as nvprof numbers streams: 7 is the default stream */
    int device;                   /* the device it ran on */
    double start_s, duration_s;   /* on the virtual clock */
    uint64_t warp_insns;
    prof_counters counters;
    prof_launch launch;
    prof_time_estimate est;
    bool faulted;
} rt_prof_record;

typedef struct rt_profiler {
    bool on, trace, csv;
    prof_selection sel;
    char *log_path;
    const char *command;
    pthread_mutex_t lock;
    rt_prof_record *recs;
    size_t n, cap;
    double clock_s;               /* where the virtual device clock stands */
    prof_table_pool *tables;      /* the sessions' workers' tables, reused launch to launch */
} rt_profiler;

static rt_profiler rt_prof;
static pthread_once_t rt_prof_once = PTHREAD_ONCE_INIT;

struct rt_prof_run {
    size_t first_rec;             /* where its record goes: before those of the grids
                                   * its blocks launched, which end before it does */
    prof_session *session;
    rt_func *func;
    exec_launch *L;
    prof_launch launch;
    bool regs_from_ptxas;
    int stream;
    int device;
    bool timeline;                /* a grid the host launched: its counters go to the
                                   * timeline (trace.c) */
};

static bool env_on(const char *name) {
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static void rt_prof_configure(void) {
    rt_profiler *p = &rt_prof;
    pthread_mutex_init(&p->lock, NULL);
    p->on = env_on("VCUDA_PROF");
    if (!p->on) return;
    p->tables = prof_table_pool_new();  /* NULL: sessions allocate their own */
    p->trace = env_on("VCUDA_PROF_TRACE");
    p->csv = env_on("VCUDA_PROF_CSV");
    p->command = getenv("VCUDA_PROF_COMMAND");
    const char *log = getenv("VCUDA_PROF_LOG");
    if (log && *log) p->log_path = strdup(log);
    const char *metrics = getenv("VCUDA_PROF_METRICS");
    if (metrics && *metrics) {
        char err[256];
        if (!prof_selection_parse(&p->sel, metrics, err, sizeof err)) {
            fprintf(stderr, "vcuda: %s\n", err);
            exit(1);
        }
    }
}

bool rt_prof_enabled(void) {
    pthread_once(&rt_prof_once, rt_prof_configure);
    return rt_prof.on;
}

bool rt_prof_compiled(void) {
    const char *v = getenv("VCUDA_PROF_JIT");
    return rt_prof_enabled() && !(v && strcmp(v, "0") == 0);
}

/* The host memory mapped into the device, for the timing model (prof_session_set_host_ranges). */
typedef struct rt_host_ranges {
    uint64_t (*r)[2];
    size_t n, cap;
    bool failed;
} rt_host_ranges;

static void collect_host_range(const mem_alloc *a, void *ctx) {
    rt_host_ranges *h = ctx;
    if (a->kind != MEM_KIND_HOST && a->kind != MEM_KIND_REGISTERED) return;
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 16;
        uint64_t (*n)[2] = realloc(h->r, cap * sizeof *n);
        if (!n) {
            h->failed = true;
            return;
        }
        h->r = n;
        h->cap = cap;
    }
    h->r[h->n][0] = a->base;
    h->r[h->n][1] = a->base + a->size;
    h->n++;
}

rt_prof_run *rt_prof_begin(rt_context *c, rt_func *f, exec_launch *L, int dev,
                           cudaStream_t stream, bool timeline) {
    if (!rt_prof_enabled()) return NULL;
    const gpu_preset *preset = c->devs[dev].preset;
    if (!preset) return NULL;
    rt_prof_run *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    pthread_mutex_lock(&c->lock);
    int regs = rt_func_regs_per_thread(c, f, &r->regs_from_ptxas);
    const ptx_module *m = f->mod && f->mod->prog ? exec_program_module(f->mod->prog) : NULL;
    /* nvprof numbers the legacy default stream 7 and the program's streams after it */
    pthread_mutex_lock(&c->engine_lock); /* the stream handles' lock */
    rt_stream *s = stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread
                       ? rt_ptrmap_get(&c->streams, stream) : NULL;
    r->stream = s ? 12 + (int)s->id : 7;
    pthread_mutex_unlock(&c->engine_lock);
    pthread_mutex_unlock(&c->lock);
    uint32_t grid[3] = {L->grid.x, L->grid.y, L->grid.z};
    uint32_t block[3] = {L->block.x, L->block.y, L->block.z};
    r->device = dev;
    prof_launch_init(&r->launch, preset, grid, block, (uint32_t)regs, info->static_shared,
                     L->dyn_shared, 0);
    r->launch.carveout = f->carveout;
    r->session = prof_session_new(&r->launch, m, true, rt_prof.tables);
    if (!r->session) {
        free(r);
        return NULL;
    }
    if (c->mem) {
        /* in address order: mem_table_each walks the table so */
        rt_host_ranges h = {0};
        mem_table_each(c->mem, collect_host_range, &h);
        if (!h.failed) prof_session_set_host_ranges(r->session, (const uint64_t(*)[2])h.r, h.n);
        free(h.r);
        rt_memrange_before_grid(c); /* which managed pages the host has touched */
    }
    r->func = f;
    r->L = L;
    r->timeline = timeline;
    pthread_mutex_lock(&rt_prof.lock);
    r->first_rec = rt_prof.n;
    pthread_mutex_unlock(&rt_prof.lock);
    L->observer = prof_session_observer(r->session);
    return r;
}

double rt_kernel_time_ms(rt_context *c, rt_func *f, exec_dim3 grid, exec_dim3 block,
                         uint32_t dyn_shared, uint64_t warp_instructions) {
    if (!rt_cur(c)->preset) return 0;
    pthread_mutex_lock(&c->lock);
    int regs = rt_func_regs_per_thread(c, f, NULL);
    pthread_mutex_unlock(&c->lock);
    prof_kernel_input in;
    memset(&in, 0, sizeof in);
    in.blocks = (uint64_t)grid.x * grid.y * grid.z;
    in.threads_per_block = block.x * block.y * block.z;
    in.regs_per_thread = regs;
    in.shared_per_block = exec_kernel_get_info(f->kernel)->static_shared + (size_t)dyn_shared;
    in.warp_instructions = warp_instructions;
    return prof_estimate_kernel_ms(rt_cur(c)->preset, &in);
}

double rt_prof_end(rt_context *c, rt_prof_run *r, const gpu_grid_stats *stats, bool faulted) {
    if (!r) return -1;
    rt_prof_record rec;
    memset(&rec, 0, sizeof rec);
    rec.est = prof_session_estimate(r->session, stats->warp_instructions);
    /* grids it launched from the device (recorded since it began: profiled grids run one
     * at a time) end before it does, and launching them takes the device runtime long */
    pthread_mutex_lock(&rt_prof.lock);
    size_t from = r->first_rec < rt_prof.n ? r->first_rec : rt_prof.n;
    uint64_t descendants = rt_prof.n - from;
    double child_s = 0, overhead_s = prof_sm_model_for(c->devs[r->device].preset).launch_overhead_s;
    for (size_t i = from; i < rt_prof.n; i++) {
        const rt_prof_record *d = &rt_prof.recs[i];
        /* a grid that launched grids itself already counts their launches */
        if (d->est.limiter && strcmp(d->est.limiter, "device launches") == 0) continue;
        if (d->duration_s - overhead_s > child_s) child_s = d->duration_s - overhead_s;
    }
    pthread_mutex_unlock(&rt_prof.lock);
    if (descendants) {
        double extra = prof_device_launch_s(c->devs[r->device].preset, descendants, child_s);
        rec.est.seconds += extra;
        rec.est.cycles += extra * prof_sm_model_for(c->devs[r->device].preset).clock_hz;
        rec.est.limiter = "device launches";
        rec.est.uncertainty = prof_limiter_uncertainty(rec.est.limiter);
    }
    /* managed memory the grid found on the host, or nowhere yet: page faults */
    uint64_t migrated = 0, returned = 0, populated = 0;
    if (c->mem) rt_memrange_after_grid(c, r->session, &migrated, &returned, &populated);
    double faults = prof_managed_fault_s(c->devs[r->device].preset, migrated, returned,
                                         populated);
    if (faults > 0) {
        if (faults > rec.est.seconds) {
            rec.est.limiter = "page faults";
            rec.est.uncertainty = prof_limiter_uncertainty(rec.est.limiter);
        }
        rec.est.seconds += faults;
        rec.est.cycles += faults * prof_sm_model_for(c->devs[r->device].preset).clock_hz;
    }
    rec.counters = *prof_session_counters(r->session);
    rec.launch = r->launch;
    rec.launch.duration_s = rec.est.seconds;
    rec.duration_s = rec.est.seconds;
    rec.grid = r->L->grid;
    rec.block = r->L->block;
    rec.regs = (int)r->launch.regs_per_thread;
    rec.regs_from_ptxas = r->regs_from_ptxas;
    rec.static_shared = r->launch.static_shared;
    rec.dynamic_shared = r->launch.dynamic_shared;
    rec.stream = r->stream;
    rec.device = r->device;
    rec.warp_insns = stats->warp_instructions;
    rec.faulted = faulted;
    if (getenv("VCUDA_PROF_DEBUG"))
        fprintf(stderr, "vcuda: prof-debug %s: %.0f cycles (makespan %.0f, dram %.0f, l2 %.0f, "
                "atomics %.0f, CAS retries %.0f over %.0f rounds); block: "
                "critical %.0f, issue %.0f, scheduled %.0f; %d blocks/SM, %.2f waves, %s; "
                "managed memory migrated %llu, made %llu bytes\n",
                r->func->name, rec.est.cycles, rec.est.makespan_cycles, rec.est.dram_cycles,
                rec.est.l2_cycles, rec.est.atomic_cycles, rec.est.cas_cycles,
                rec.est.cas_rounds, rec.est.block_critical, rec.est.block_issue,
                rec.est.block_cycles, rec.est.blocks_per_sm, rec.est.waves, rec.est.limiter,
                (unsigned long long)migrated, (unsigned long long)populated);
    char *pretty = ptx_demangle(r->func->name, PTX_DEMANGLE_GNU);
    rec.kernel = pretty ? pretty : strdup(r->func->name);
    if (r->timeline) rt_trace_kernel_measured(&rec.counters, &rec.launch);
    r->L->observer = NULL;
    size_t at = r->first_rec;
    prof_session_free(r->session);
    free(r);

    double ms = rec.duration_s * 1e3;
    rt_profiler *p = &rt_prof;
    pthread_mutex_lock(&p->lock);
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        rt_prof_record *n = realloc(p->recs, cap * sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&p->lock);
            free(rec.kernel);
            return ms;
        }
        p->recs = n;
        p->cap = cap;
    }
    /* the grid starts before the grids it launched (recorded since its begin, profiled
     * grids running one at a time): it goes first, and they move after it */
    if (at > p->n) at = p->n;
    rec.start_s = at < p->n ? p->recs[at].start_s : p->clock_s;
    memmove(&p->recs[at + 1], &p->recs[at], (p->n - at) * sizeof *p->recs);
    for (size_t i = at + 1; i <= p->n; i++) p->recs[i].start_s += rec.duration_s;
    p->recs[at] = rec;
    p->n++;
    p->clock_s += rec.duration_s;
    pthread_mutex_unlock(&p->lock);
    return ms;
}

/* ---- formatting ---- */

/* A duration as nvprof prints it: five significant digits in s, ms, us or ns. */
static void fmt_time(char *buf, size_t n, double s) {
    static const char *const unit[] = {"s", "ms", "us", "ns"};
    double v = s;
    int u = 0;
    while (u < 3 && fabs(v) < 1.0 && v != 0) {
        v *= 1e3;
        u++;
    }
    int decimals = fabs(v) >= 100 ? 2 : fabs(v) >= 10 ? 3 : 4;
    snprintf(buf, n, "%.*f%s", decimals, v, unit[u]);
}

static void fmt_dim(char *buf, size_t n, exec_dim3 d) {
    snprintf(buf, n, "(%u %u %u)", d.x, d.y, d.z);
}

static void fmt_bytes(char *buf, size_t n, uint32_t b) {
    if (b >= 1024 && b % 1024 == 0) snprintf(buf, n, "%.4gKB", b / 1024.0);
    else snprintf(buf, n, "%uB", b);
}

static void csv_string(FILE *o, const char *s) {
    fputc('"', o);
    for (; *s; s++) {
        if (*s == '"') fputc('"', o);
        fputc(*s, o);
    }
    fputc('"', o);
}

typedef struct rt_prof_kernel {
    const char *name;
    uint64_t calls;
    double total, min, max;
    const rt_prof_record *last;
    double occ_sum;      /* achieved occupancy, summed over calls that gave one */
    uint64_t occ_n;
} rt_prof_kernel;

static int by_total(const void *a, const void *b) {
    const rt_prof_kernel *x = a, *y = b;
    if (x->total != y->total) return x->total < y->total ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* Per kernel: calls and times, most time first. */
static rt_prof_kernel *summarise(const rt_profiler *p, size_t *count, double *total) {
    rt_prof_kernel *k = calloc(p->n ? p->n : 1, sizeof *k);
    size_t nk = 0;
    *total = 0;
    for (size_t i = 0; k && i < p->n; i++) {
        const rt_prof_record *r = &p->recs[i];
        size_t j = 0;
        while (j < nk && strcmp(k[j].name, r->kernel) != 0) j++;
        if (j == nk) {
            k[nk].name = r->kernel;
            k[nk].min = r->duration_s;
            k[nk].max = r->duration_s;
            nk++;
        }
        rt_prof_kernel *e = &k[j];
        e->calls++;
        e->total += r->duration_s;
        if (r->duration_s < e->min) e->min = r->duration_s;
        if (r->duration_s > e->max) e->max = r->duration_s;
        e->last = r;
        double occ = prof_metric_value(prof_metric_find("achieved_occupancy", NULL), false,
                                       &r->counters, &r->launch);
        if (!isnan(occ)) {
            e->occ_sum += occ;
            e->occ_n++;
        }
        *total += r->duration_s;
    }
    if (k) qsort(k, nk, sizeof *k, by_total);
    *count = nk;
    return k;
}

/* What nvprof calls each device ("NVIDIA H100 80GB HBM3 (1)"), filled when reporting;
 * every launch is reported with the device it ran on, in its context (1 + the device). */
static char rt_prof_names[GPU_MAX_DEVICES][160];

static void print_summary(const rt_profiler *p, FILE *o, const char *pre, const char *device) {
    size_t nk;
    double total;
    rt_prof_kernel *k = summarise(p, &nk, &total);
    if (!k) return;
    if (p->csv) {
        fprintf(o, "\"Type\",\"Time(%%)\",\"Time\",\"Calls\",\"Avg\",\"Min\",\"Max\",\"Name\"\n");
        fprintf(o, ",%%,us,,us,us,us,\n");
        for (size_t i = 0; i < nk; i++) {
            fprintf(o, "\"GPU activities\",%f,%f,%llu,%f,%f,%f,", 100 * k[i].total / total,
                    k[i].total * 1e6, (unsigned long long)k[i].calls,
                    k[i].total / (double)k[i].calls * 1e6, k[i].min * 1e6, k[i].max * 1e6);
            csv_string(o, k[i].name);
            fputc('\n', o);
        }
        fprintf(o, "\n\"Kernel\",\"Calls\",\"Grid Size\",\"Block Size\",\"Registers Per Thread\","
                   "\"Registers From\",\"Static SMem\",\"Dynamic SMem\",\"Theoretical Occupancy\","
                   "\"Achieved Occupancy\",\"Limiter\"\n");
        for (size_t i = 0; i < nk; i++) {
            const rt_prof_record *r = k[i].last;
            csv_string(o, k[i].name);
            fprintf(o, ",%llu,\"%u %u %u\",\"%u %u %u\",%d,\"%s\",%u,%u,%f,%f,\"%s\"\n",
                    (unsigned long long)k[i].calls, r->grid.x, r->grid.y, r->grid.z, r->block.x,
                    r->block.y, r->block.z, r->regs, r->regs_from_ptxas ? "ptxas" : "estimate",
                    r->static_shared, r->dynamic_shared, r->launch.occupancy.occupancy,
                    k[i].occ_n ? k[i].occ_sum / (double)k[i].occ_n : NAN, r->est.limiter);
        }
        free(k);
        return;
    }
    fprintf(o, "%sProfiling result (device \"%s\"; times estimated by the timing model):\n", pre,
            device);
    fprintf(o, "%16s  %7s  %9s  %8s  %9s  %9s  %9s  %s\n", "Type", "Time(%)", "Time", "Calls",
            "Avg", "Min", "Max", "Name");
    for (size_t i = 0; i < nk; i++) {
        char t[32], avg[32], mn[32], mx[32];
        fmt_time(t, sizeof t, k[i].total);
        fmt_time(avg, sizeof avg, k[i].total / (double)k[i].calls);
        fmt_time(mn, sizeof mn, k[i].min);
        fmt_time(mx, sizeof mx, k[i].max);
        fprintf(o, "%16s  %6.2f%%  %9s  %8llu  %9s  %9s  %9s  %s\n",
                i == 0 ? "GPU activities:" : "", 100 * k[i].total / total, t,
                (unsigned long long)k[i].calls, avg, mn, mx, k[i].name);
    }
    fprintf(o, "\n%sKernels (the last launch's configuration):\n", pre);
    fprintf(o, "%8s  %16s  %16s  %6s  %8s  %8s  %11s  %22s  %s\n", "Calls", "Grid Size",
            "Block Size", "Regs*", "SSMem", "DSMem", "Occupancy", "Limited by", "Name");
    bool any_estimate = false, any_ptxas = false;
    for (size_t i = 0; i < nk; i++) {
        const rt_prof_record *r = k[i].last;
        char g[48], b[48], ss[24], ds[24], occ[32];
        fmt_dim(g, sizeof g, r->grid);
        fmt_dim(b, sizeof b, r->block);
        fmt_bytes(ss, sizeof ss, r->static_shared);
        fmt_bytes(ds, sizeof ds, r->dynamic_shared);
        snprintf(occ, sizeof occ, "%3.0f%% / %3.0f%%", 100 * r->launch.occupancy.occupancy,
                 k[i].occ_n ? 100 * k[i].occ_sum / (double)k[i].occ_n : 0.0);
        char lim[64];
        snprintf(lim, sizeof lim, "%s +-%.0f%%", r->est.limiter ? r->est.limiter : "?",
                 100 * r->est.uncertainty);
        fprintf(o, "%8llu  %16s  %16s  %5d%s  %8s  %8s  %11s  %22s  %s\n",
                (unsigned long long)k[i].calls, g, b, r->regs, r->regs_from_ptxas ? " " : "~", ss,
                ds, occ, lim, k[i].name);
        any_estimate |= !r->regs_from_ptxas;
        any_ptxas |= r->regs_from_ptxas;
    }
    free(k);
    fprintf(o, "\nOccupancy: theoretical / achieved (resident warps over the SMs' active time, "
               "from the timing model's schedule).\n");
    if (any_ptxas)
        fprintf(o, "Regs: registers per thread that ptxas assigns for this device.\n");
    if (any_estimate)
        fprintf(o, "Regs~: estimated from the PTX (ptxas not available for this device).\n");
    fprintf(o, "SSMem: static shared memory per block.  DSMem: dynamic shared memory per block.\n");
}

static void print_trace(const rt_profiler *p, FILE *o, const char *pre) {
    if (p->csv) {
        fprintf(o, "\"Start\",\"Duration\",\"Grid X\",\"Grid Y\",\"Grid Z\",\"Block X\","
                   "\"Block Y\",\"Block Z\",\"Registers Per Thread\",\"Static SMem\","
                   "\"Dynamic SMem\",\"Device\",\"Context\",\"Stream\",\"Name\",\"Correlation_ID\","
                   "\"Limiter\",\"Uncertainty\"\n");
        fprintf(o, "us,us,,,,,,,,B,B,,,,,,,%%\n");
        for (size_t i = 0; i < p->n; i++) {
            const rt_prof_record *r = &p->recs[i];
            fprintf(o, "%f,%f,%u,%u,%u,%u,%u,%u,%d,%u,%u,", r->start_s * 1e6, r->duration_s * 1e6,
                    r->grid.x, r->grid.y, r->grid.z, r->block.x, r->block.y, r->block.z, r->regs,
                    r->static_shared, r->dynamic_shared);
            csv_string(o, rt_prof_names[r->device]);
            fprintf(o, ",%d,%d,", 1 + r->device, r->stream);
            csv_string(o, r->kernel);
            fprintf(o, ",%zu,", i + 1);
            csv_string(o, r->est.limiter ? r->est.limiter : "");
            fprintf(o, ",%.0f\n", 100 * r->est.uncertainty);
        }
        return;
    }
    fprintf(o, "%sProfiling result (device times estimated by the timing model):\n", pre);
    fprintf(o, "%10s  %9s  %16s  %16s  %6s  %8s  %8s  %26s  %7s  %6s  %s\n", "Start", "Duration",
            "Grid Size", "Block Size", "Regs*", "SSMem*", "DSMem*", "Device", "Context", "Stream",
            "Name");
    for (size_t i = 0; i < p->n; i++) {
        const rt_prof_record *r = &p->recs[i];
        char st[32], du[32], g[48], b[48], ss[24], ds[24];
        fmt_time(st, sizeof st, r->start_s);
        fmt_time(du, sizeof du, r->duration_s);
        fmt_dim(g, sizeof g, r->grid);
        fmt_dim(b, sizeof b, r->block);
        fmt_bytes(ss, sizeof ss, r->static_shared);
        fmt_bytes(ds, sizeof ds, r->dynamic_shared);
        fprintf(o, "%10s  %9s  %16s  %16s  %6d  %8s  %8s  %26s  %7d  %6d  %s [%zu]  (%s, +-%.0f%%)\n",
                st, du, g, b, r->regs, ss, ds, rt_prof_names[r->device], 1 + r->device, r->stream,
                r->kernel, i + 1, r->est.limiter ? r->est.limiter : "?", 100 * r->est.uncertainty);
    }
    fprintf(o, "\nRegs: Number of registers used per CUDA thread (%s).\n",
            p->n && !p->recs[0].regs_from_ptxas ? "estimated from the PTX" : "as ptxas assigns them");
    fprintf(o, "SSMem: Static shared memory allocated per CUDA block.\n");
    fprintf(o, "DSMem: Dynamic shared memory allocated per CUDA block.\n");
    fprintf(o, "(limiter, +-N%%): what bounds the estimate, and how far off estimates so "
               "bound typically are.\n");
}

/* --print-gpu-trace with --metrics: one row per launch, one column per metric. */
static void print_metric_trace(const rt_profiler *p, FILE *o, const char *pre) {
    const prof_selection *s = &p->sel;
    if (!p->csv) fprintf(o, "%sMetric result (one line per launch):\n", pre);
    fprintf(o, p->csv ? "\"Device\",\"Context\",\"Stream\",\"Kernel\",\"Correlation_ID\""
                      : "%-26s %7s %6s %6s", p->csv ? "" : "Device", "Context", "Stream", "ID");
    for (size_t m = 0; m < s->count; m++) {
        const char *name = s->as_ncu[m] ? s->metric[m]->ncu : s->metric[m]->nvprof;
        if (p->csv) fprintf(o, ",\"%s\"", name);
        else fprintf(o, " %*s", (int)(strlen(name) > 12 ? strlen(name) : 12), name);
    }
    fprintf(o, p->csv ? "\n" : "  Kernel\n");
    for (size_t i = 0; i < p->n; i++) {
        const rt_prof_record *r = &p->recs[i];
        if (p->csv) {
            csv_string(o, rt_prof_names[r->device]);
            fprintf(o, ",%d,%d,", 1 + r->device, r->stream);
            csv_string(o, r->kernel);
            fprintf(o, ",%zu", i + 1);
        } else {
            fprintf(o, "%-26s %7d %6d %6zu", rt_prof_names[r->device], 1 + r->device, r->stream,
                    i + 1);
        }
        for (size_t m = 0; m < s->count; m++) {
            const prof_metric *mt = s->metric[m];
            double v = prof_metric_value(mt, s->as_ncu[m], &r->counters, &r->launch);
            prof_unit unit = s->as_ncu[m] && mt->unit == PROF_UNIT_RATIO && mt->ncu_scale == 100
                                 ? PROF_UNIT_PERCENT : mt->unit;
            char val[64];
            prof_format_nvprof(val, sizeof val, unit, v, p->csv);
            const char *name = s->as_ncu[m] ? mt->ncu : mt->nvprof;
            if (p->csv) fprintf(o, ",%s", val);
            else fprintf(o, " %*s", (int)(strlen(name) > 12 ? strlen(name) : 12), val);
        }
        if (!p->csv) fprintf(o, "  %s", r->kernel);
        fputc('\n', o);
    }
}

void rt_prof_report(rt_context *c) {
    if (!rt_prof_enabled()) return;
    rt_profiler *p = &rt_prof;
    pthread_mutex_lock(&p->lock);
    FILE *o = stderr;
    if (p->log_path) {
        o = fopen(p->log_path, "w");
        if (!o) {
            fprintf(stderr, "vcuda: cannot write %s\n", p->log_path);
            o = stderr;
        }
    }
    fflush(stdout);
    char pre[32], device[1024];
    snprintf(pre, sizeof pre, "==%d== ", (int)getpid());
    snprintf(device, sizeof device, "%s (0)", c && c->devs[0].preset ? c->devs[0].preset->name : "none");
    for (int d = 0; c && d < c->ndevs; d++)
        snprintf(rt_prof_names[d], sizeof rt_prof_names[d], "%s (%d)", c->devs[d].preset->name, d);
    /* several devices: the summary names them all */
    for (int d = 1; c && d < c->ndevs; d++) {
        size_t len = strlen(device);
        snprintf(device + len, sizeof device - len, "\", \"%s", rt_prof_names[d]);
    }
    if (!p->csv)
        fprintf(o, "%sProfiling application: %s\n", pre, p->command ? p->command : "(unknown)");
    if (p->n == 0) {
        fprintf(o, "%sNo kernels were profiled.\n", pre);
    } else if (p->sel.count == 0) {
        if (p->trace) print_trace(p, o, pre);
        else print_summary(p, o, pre, device);
    } else if (p->trace) {
        print_metric_trace(p, o, pre);
    } else {
        prof_report *rep = prof_report_new(&p->sel);
        for (size_t i = 0; rep && i < p->n; i++)
            prof_report_add(rep, rt_prof_names[p->recs[i].device], p->recs[i].kernel,
                            &p->recs[i].counters,
                            &p->recs[i].launch);
        if (rep) prof_report_print(rep, o, pre, p->csv);
        prof_report_free(rep);
    }
    if (o != stderr) fclose(o);
    else fflush(o);
    pthread_mutex_unlock(&p->lock);
}
