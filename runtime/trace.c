/* runtime/trace.c — recording the run for `vcuda prof --timeline FILE` (VCUDA_PROF_TIMELINE,
 * set by the command): every operation a stream completes, with its times on the virtual
 * device clock, and every host thread's CUDA API calls that give the device work or wait
 * for it, at the virtual time the host had seen the device reach. At exit the timeline is
 * written as Chrome trace-event JSON, or as an HTML page when FILE ends in .html
 * (prof/timeline.h).
 *
 * Hooks (each returns at once when no timeline is asked for):
 *   rt_trace_op          an operation completed (engine.c, engine_lock held);
 *   rt_trace_kernel_measured  the profiler's counters of the grid this thread just ran
 *                        (profile.c), picked up by the kernel's rt_trace_op on the same
 *                        thread;
 *   rt_trace_api_issue, rt_trace_api_wait   the host issued an operation / waited for one
 *                        (engine.c, engine_lock held); both belong to the API call the host
 *                        stack names (the outermost exported function of this library);
 *   rt_trace_api_end     the API call returns (rt_record, state.c).
 * One API call's issues and waits make one event; it lasts from the device time the host
 * had seen when the call began to the time it had seen when it returned.
 */
#include "rt.h"

#include <execinfo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../prof/metrics.h"
#include "../prof/report.h"
#include "../prof/timeline.h"

bool rt_trace_on;

static struct {
    pthread_mutex_t lock;
    char *path;
    prof_timeline *tl;
    prof_selection sel;
    unsigned host_threads;
} rt_tr = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Per host thread: its track and the API call in progress (an event index, -1: none). */
static __thread int rt_tr_track = -1;
static __thread long rt_tr_open = -1;
static __thread char rt_tr_open_name[64];
/* Per engine thread: what the profiler measured of the grid it just ran. */
static __thread struct {
    bool valid;
    prof_counters counters;
    prof_launch launch;
} rt_tr_measured;

/* The metrics given to kernels as arguments when `vcuda prof --metrics` names none. */
static const char rt_tr_default_metrics[] =
    "achieved_occupancy,sm_efficiency,warp_execution_efficiency,branch_efficiency,"
    "gld_efficiency,gst_efficiency,gld_transactions_per_request,shared_efficiency,"
    "shared_load_transactions_per_request,inst_executed";

void rt_trace_init(rt_context *c) {
    const char *path = getenv("VCUDA_PROF_TIMELINE");
    if (!path || !*path || !rt_cur(c)->preset) return;
    rt_tr.tl = prof_timeline_new(rt_cur(c)->preset);
    rt_tr.path = strdup(path);
    if (!rt_tr.tl || !rt_tr.path) return;
    char err[256];
    const char *metrics = getenv("VCUDA_PROF_METRICS");
    if (!metrics || !*metrics || !prof_selection_parse(&rt_tr.sel, metrics, err, sizeof err)) {
        /* the defaults, those of them that exist */
        memset(&rt_tr.sel, 0, sizeof rt_tr.sel);
        char list[sizeof rt_tr_default_metrics];
        memcpy(list, rt_tr_default_metrics, sizeof list);
        for (char *save = NULL, *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
            prof_selection one;
            if (prof_selection_parse(&one, m, err, sizeof err) && one.count == 1 &&
                rt_tr.sel.count < PROF_SELECTION_MAX) {
                rt_tr.sel.metric[rt_tr.sel.count] = one.metric[0];
                rt_tr.sel.as_ncu[rt_tr.sel.count++] = one.as_ncu[0];
            }
        }
    }
    prof_timeline *t = rt_tr.tl;
    for (size_t m = 0; m < rt_tr.sel.count && t->nmetrics < PROF_TL_MAX_METRICS; m++)
        t->metric_names[t->nmetrics++] =
            rt_tr.sel.as_ncu[m] ? rt_tr.sel.metric[m]->ncu : rt_tr.sel.metric[m]->nvprof;
    rt_trace_on = true;
}

/* ---- the device's streams ---- */

/* With several devices each track says whose it is ("GPU 1: Stream 14"), and each
 * device's legacy stream has a track of its own; one device keeps nvprof's names. */
static int stream_track(const rt_context *c, const rt_stream *s) {
    char name[96];
    uint64_t key;
    int sort;
    int n = 0;
    if (c->ndevs > 1) n = snprintf(name, sizeof name, "GPU %d: ", s->device);
    switch (s->kind) {
    case RT_STREAM_LEGACY:
        key = (uint64_t)s->device;
        sort = 0;
        snprintf(name + n, sizeof name - (size_t)n, "Stream 7 (legacy default stream)");
        break;
    case RT_STREAM_USER: /* numbered as nvprof and --print-gpu-trace number them */
        key = s->id;
        sort = 12 + (int)s->id;
        snprintf(name + n, sizeof name - (size_t)n, "Stream %d", 12 + (int)s->id);
        break;
    case RT_STREAM_PER_THREAD:
        key = (uint64_t)(uintptr_t)s | 1ull << 62;
        sort = 5000 + (int)rt_tr.tl->ntracks;
        snprintf(name + n, sizeof name - (size_t)n, "Per-thread default stream %zu",
                 rt_tr.tl->ntracks);
        break;
    default:
        key = (uint64_t)(uintptr_t)s | 1ull << 63;
        sort = 10000 + (int)rt_tr.tl->ntracks;
        snprintf(name + n, sizeof name - (size_t)n, "Graph branch %zu", rt_tr.tl->ntracks);
        break;
    }
    sort += s->device * 100000; /* a device's tracks together, in device order */
    return prof_timeline_track(rt_tr.tl, key, false, sort, name);
}

static const char *copy_kind(rt_copy_dir d) {
    switch (d) {
    case RT_COPY_H2D: return "HtoD";
    case RT_COPY_D2H: return "DtoH";
    case RT_COPY_D2D: return "DtoD";
    default: return "HtoH";
    }
}

static void kernel_details(rt_context *c, prof_tl_event *e, const rt_op *op) {
    rt_func *f = op->u.kernel.func;
    char *pretty = ptx_demangle(f->name, PTX_DEMANGLE_GNU);
    e->name = pretty ? pretty : strdup(f->name);
    const exec_dim3 *g = &op->u.kernel.grid, *b = &op->u.kernel.block;
    e->grid[0] = g->x, e->grid[1] = g->y, e->grid[2] = g->z;
    e->block[0] = b->x, e->block[1] = b->y, e->block[2] = b->z;
    e->dynamic_shared = op->u.kernel.dyn_shared;
    if (!rt_tr_measured.valid || op->dropped) {
        if (f->kernel) e->static_shared = (uint32_t)exec_kernel_get_info(f->kernel)->static_shared;
        gpu_occupancy occ = gpu_occupancy_calc(rt_cur(c)->preset, (int)(b->x * b->y * b->z), 0,
                                               (size_t)e->static_shared + e->dynamic_shared);
        e->occupancy = occ.occupancy;
        return;
    }
    rt_tr_measured.valid = false;
    const prof_launch *L = &rt_tr_measured.launch;
    e->regs = L->regs_per_thread;
    e->static_shared = L->static_shared;
    e->occupancy = L->occupancy.occupancy;
    for (size_t m = 0; m < rt_tr.sel.count && m < PROF_TL_MAX_METRICS; m++) {
        const prof_metric *mt = rt_tr.sel.metric[m];
        e->metrics[m] = prof_metric_value(mt, rt_tr.sel.as_ncu[m], &rt_tr_measured.counters, L);
        e->nmetrics = (unsigned)m + 1;
    }
}

void rt_trace_kernel_measured(const prof_counters *counters, const prof_launch *launch) {
    if (!rt_trace_on) return;
    rt_tr_measured.counters = *counters;
    rt_tr_measured.launch = *launch;
    rt_tr_measured.valid = true;
}

void rt_trace_op(rt_context *c, const rt_op *op) {
    if (!rt_trace_on) return;
    static const prof_tl_kind kinds[] = {
        [RT_OP_KERNEL] = PROF_TL_KERNEL, [RT_OP_COPY] = PROF_TL_COPY, [RT_OP_SET] = PROF_TL_SET,
        [RT_OP_SET2D] = PROF_TL_SET, [RT_OP_COPY2D] = PROF_TL_COPY, [RT_OP_EVENT] = PROF_TL_EVENT,
        [RT_OP_HOST_FN] = PROF_TL_HOST_FN, [RT_OP_CALLBACK] = PROF_TL_HOST_FN,
        [RT_OP_WAIT] = PROF_TL_WAIT, [RT_OP_LOAD] = PROF_TL_LOAD, [RT_OP_MEMOP] = PROF_TL_WAIT,
        [RT_OP_COND] = PROF_TL_WAIT, [RT_OP_GRAPH_TAILS] = PROF_TL_WAIT};
    /* (every kind has its entry: the table is read with op->kind) */
    _Static_assert(sizeof kinds / sizeof kinds[0] == RT_OP_GRAPH_TAILS + 1,
                   "an operation kind without its timeline kind");
    pthread_mutex_lock(&rt_tr.lock);
    prof_tl_event *e = prof_timeline_add(rt_tr.tl, kinds[op->kind], stream_track(c, op->stream));
    if (e) {
        e->start_ms = op->vstart;
        e->end_ms = op->vend > op->vstart ? op->vend : op->vstart;
        e->id = op->order;
        e->dropped = op->dropped;
        switch (op->kind) {
        case RT_OP_KERNEL:
            kernel_details(c, e, op);
            break;
        case RT_OP_COPY:
            e->bytes = op->u.copy.bytes;
            e->copy_kind = copy_kind(op->u.copy.dir);
            break;
        case RT_OP_COPY2D:
            e->bytes = (uint64_t)op->u.copy2d.width * op->u.copy2d.height;
            e->copy_kind = copy_kind(op->u.copy2d.dir);
            break;
        case RT_OP_SET:
            e->bytes = op->u.set.bytes;
            break;
        case RT_OP_SET2D:
            e->bytes = (uint64_t)op->u.set2d.width * op->u.set2d.height;
            break;
        default:
            break;
        }
        if (!e->name) {
            char name[64];
            switch (op->kind) {
            case RT_OP_COPY:
            case RT_OP_COPY2D:
                snprintf(name, sizeof name, "[CUDA memcpy %s]", e->copy_kind);
                break;
            case RT_OP_SET:
            case RT_OP_SET2D: snprintf(name, sizeof name, "[CUDA memset]"); break;
            case RT_OP_HOST_FN: snprintf(name, sizeof name, "[host function]"); break;
            case RT_OP_CALLBACK: snprintf(name, sizeof name, "[stream callback]"); break;
            case RT_OP_EVENT: snprintf(name, sizeof name, "[event record]"); break;
            case RT_OP_WAIT: snprintf(name, sizeof name, "[stream wait]"); break;
            case RT_OP_MEMOP: snprintf(name, sizeof name, "[runtime bookkeeping]"); break;
            case RT_OP_COND: snprintf(name, sizeof name, "[graph conditional]"); break;
            case RT_OP_GRAPH_TAILS: snprintf(name, sizeof name, "[graph tail launches]"); break;
            default: snprintf(name, sizeof name, "[module load]"); break;
            }
            e->name = strdup(name);
        }
    }
    pthread_mutex_unlock(&rt_tr.lock);
}

/* ---- the host's API calls ---- */

/* The API function the program called: the outermost frame inside this library that is
 * one of its exported functions (nvcc's "__cuda" entry prefix and the per-thread-stream
 * suffixes dropped). */
static void api_name(char *name, size_t n) {
    void *frames[64];
    int k = backtrace(frames, 64);
    if (check_api_frame(frames, k, name, n) < 0) snprintf(name, n, "CUDA API");
}

/* The event of the API call in progress on this thread, extended to [t0, t1]; a new one
 * when none is open or the open one is another function's. Called with rt_tr.lock. */
static prof_tl_event *api_event(double t0, double t1) {
    char name[64];
    api_name(name, sizeof name);
    prof_timeline *t = rt_tr.tl;
    if (rt_tr_open >= 0 && (size_t)rt_tr_open < t->n && !strcmp(rt_tr_open_name, name)) {
        prof_tl_event *e = &t->ev[rt_tr_open];
        if (t1 > e->end_ms) e->end_ms = t1;
        return e;
    }
    if (rt_tr_track < 0) {
        char track[64];
        unsigned k = ++rt_tr.host_threads;
        snprintf(track, sizeof track, "Host thread %u: CUDA API", k);
        rt_tr_track = prof_timeline_track(t, k, true, (int)k, track);
    }
    prof_tl_event *e = prof_timeline_add(t, PROF_TL_API, rt_tr_track);
    if (!e) return NULL;
    e->name = strdup(name);
    e->start_ms = t0;
    e->end_ms = t1 > t0 ? t1 : t0;
    rt_tr_open = (long)(e - t->ev);
    snprintf(rt_tr_open_name, sizeof rt_tr_open_name, "%s", name);
    return e;
}

void rt_trace_api_issue(rt_context *c, uint64_t order) {
    if (!rt_trace_on || rt_in_host_fn()) return;
    pthread_mutex_lock(&rt_tr.lock);
    prof_tl_event *e = api_event(c->host_vtime, c->host_vtime);
    if (e) prof_timeline_issued(e, order);
    pthread_mutex_unlock(&rt_tr.lock);
}

void rt_trace_api_wait(rt_context *c, double since) {
    if (!rt_trace_on || rt_in_host_fn()) return;
    pthread_mutex_lock(&rt_tr.lock);
    api_event(since, c->host_vtime);
    pthread_mutex_unlock(&rt_tr.lock);
}

void rt_trace_api_end(void) { rt_tr_open = -1; }

/* ---- at exit ---- */

static bool has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

void rt_trace_write(rt_context *c) {
    (void)c;
    if (!rt_trace_on) return;
    pthread_mutex_lock(&rt_tr.lock);
    FILE *f = fopen(rt_tr.path, "w");
    bool ok = false;
    if (f) {
        ok = has_suffix(rt_tr.path, ".html") || has_suffix(rt_tr.path, ".htm")
                 ? prof_timeline_write_html(rt_tr.tl, f)
                 : prof_timeline_write_json(rt_tr.tl, f);
        ok = fclose(f) == 0 && ok;
    }
    if (!ok) fprintf(stderr, "vcuda: cannot write the timeline to %s\n", rt_tr.path);
    pthread_mutex_unlock(&rt_tr.lock);
}
