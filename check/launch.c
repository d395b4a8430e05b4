/* check/launch.c — one checked launch: the exec_observer the runtime attaches, the state
 * each executor worker gets, and gathering and printing what the workers found.
 *
 * Every callback hands its event to the running tool (memcheck.c, racecheck.c,
 * synccheck.c, initcheck.c). Reports made on a worker carry the key (block index, order
 * within the block); check_launch_end sorts them by it, so the printed order is that of
 * a device running the blocks one after the other, whatever the host threads did.
 * Racecheck's hazards are summed per pair of instructions over the whole launch and
 * printed as compute-sanitizer's analysis reports ("Race reported between ...").
 */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- reports ---- */

void check_worker_report(check_worker *w, char *text) {
    uint64_t key = w->block_linear << 32 | w->order++;
    if (w->keep_limit && w->nreports >= w->keep_limit) {
        /* this worker makes its reports in block order: those beyond the print limit
         * can only be counted */
        w->unkept++;
        free(text);
        return;
    }
    if (w->nreports == w->reports_cap) {
        size_t cap = w->reports_cap ? w->reports_cap * 2 : 16;
        check_report *r = realloc(w->reports, cap * sizeof *r);
        if (!r) {
            w->unkept++;
            free(text);
            return;
        }
        w->reports = r;
        w->reports_cap = cap;
    }
    w->reports[w->nreports++] = (check_report){key, text};
}

static bool same_pair(const check_hazard *a, const check_hazard *b) {
    return a->first == b->first && a->second == b->second &&
           a->first_access == b->first_access && a->second_access == b->second_access &&
           a->warp_level == b->warp_level && a->global == b->global;
}

/* Add h into the sums of (hazards, n). Returns false when out of memory. */
static bool hazard_merge(check_hazard **hazards, size_t *n, size_t *cap, const check_hazard *h) {
    for (size_t i = *n; i-- > 0;) {
        check_hazard *e = &(*hazards)[i];
        if (!same_pair(e, h)) continue;
        e->count += h->count;
        if (h->first_key < e->first_key) {
            e->first_key = h->first_key;
            e->tid_a = h->tid_a;
            e->tid_b = h->tid_b;
            e->ctaid = h->ctaid;
        }
        return true;
    }
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 8;
        check_hazard *p = realloc(*hazards, c * sizeof *p);
        if (!p) return false;
        *hazards = p;
        *cap = c;
    }
    (*hazards)[(*n)++] = *h;
    return true;
}

void check_hazard_add(check_worker *w, const check_hazard *h) {
    hazard_merge(&w->hazards, &w->nhazards, &w->hazards_cap, h);
}

/* Move a worker's findings into the launch. Called with cl->lock held. */
static void gather(check_launch *cl, check_worker *w) {
    if (w->gathered) return;
    w->gathered = true;
    if (w->nreports) {
        size_t need = cl->nreports + w->nreports;
        if (need > cl->reports_cap) {
            size_t cap = cl->reports_cap ? cl->reports_cap : 16;
            while (cap < need) cap *= 2;
            check_report *r = realloc(cl->reports, cap * sizeof *r);
            if (r) {
                cl->reports = r;
                cl->reports_cap = cap;
            }
        }
        for (size_t i = 0; i < w->nreports; i++) {
            if (cl->nreports < cl->reports_cap) cl->reports[cl->nreports++] = w->reports[i];
            else { free(w->reports[i].text); cl->unkept++; }
        }
    }
    cl->unkept += w->unkept;
    free(w->reports);
    w->reports = NULL;
    w->nreports = w->reports_cap = 0;
    for (size_t i = 0; i < w->nhazards; i++)
        hazard_merge(&cl->hazards, &cl->nhazards, &cl->hazards_cap, &w->hazards[i]);
    free(w->hazards);
    w->hazards = NULL;
    w->nhazards = w->hazards_cap = 0;
}

/* ---- observer callbacks ---- */

static void *cb_begin_worker(void *ctx) {
    check_launch *cl = ctx;
    check_worker *w = calloc(1, sizeof *w);
    if (!w) abort();
    w->cl = cl;
    /* a worker takes blocks in increasing order and makes a block's reports in order, so
     * its reports beyond the print limit could never be among those printed */
    w->keep_limit = cl->st->print_limit;
    pthread_mutex_lock(&cl->lock);
    w->next = cl->workers;
    cl->workers = w;
    pthread_mutex_unlock(&cl->lock);
    return w;
}

static void cb_end_worker(void *ctx, void *ws) {
    check_launch *cl = ctx;
    pthread_mutex_lock(&cl->lock);
    gather(cl, ws);
    pthread_mutex_unlock(&cl->lock);
}

static void cb_block_begin(const exec_site *s, uint32_t nthreads) {
    check_worker *w = s->worker_state;
    const exec_launch *L = s->launch;
    w->ctaid = s->ctaid;
    w->block_linear = s->ctaid.x + (uint64_t)L->grid.x * (s->ctaid.y + (uint64_t)L->grid.y *
                                                                        s->ctaid.z);
    w->order = 0;
    w->nwarps = (nthreads + 31u) / 32u;
    if (w->nwarps > w->warps_cap) {
        free(w->epoch);
        free(w->bepoch);
        free(w->clock);
        free(w->vc);
        free(w->bar_join);
        free(w->last_bar);
        free(w->wsync);
        free(w->issue);
        w->epoch = calloc(w->nwarps, sizeof *w->epoch);
        w->bepoch = calloc(w->nwarps, sizeof *w->bepoch);
        w->clock = calloc(w->nwarps, sizeof *w->clock);
        w->vc = calloc((size_t)w->nwarps * w->nwarps, sizeof *w->vc);
        w->bar_join = calloc((size_t)CHECK_NUM_BARRIERS * w->nwarps, sizeof *w->bar_join);
        w->last_bar = calloc(w->nwarps, sizeof *w->last_bar);
        w->wsync = calloc(w->nwarps, sizeof *w->wsync);
        w->issue = calloc(w->nwarps, sizeof *w->issue);
        if (!w->epoch || !w->bepoch || !w->clock || !w->vc || !w->bar_join || !w->last_bar ||
            !w->wsync || !w->issue)
            abort();
        w->warps_cap = w->nwarps;
    } else {
        memset(w->epoch, 0, w->nwarps * sizeof *w->epoch);
        memset(w->bepoch, 0, w->nwarps * sizeof *w->bepoch);
        memset(w->vc, 0, (size_t)w->nwarps * w->nwarps * sizeof *w->vc);
        memset(w->bar_join, 0, (size_t)CHECK_NUM_BARRIERS * w->nwarps * sizeof *w->bar_join);
        memset(w->last_bar, 0, w->nwarps * sizeof *w->last_bar);
        memset(w->wsync, 0, w->nwarps * sizeof *w->wsync);
        memset(w->issue, 0, w->nwarps * sizeof *w->issue);
    }
    /* clocks start at 1: an access at clock c is ordered before a warp whose vc entry for
     * the accessing warp is at least c, and vc entries start at 0 */
    for (uint32_t i = 0; i < w->nwarps; i++) w->clock[i] = 1;
    memset(w->bar_waiters, 0, sizeof w->bar_waiters);
    w->block_gen++;
    if (w->cl->st->tool == CHECK_TOOL_RACECHECK) check_racecheck_block_begin(w);
}

static void cb_block_end(const exec_site *s) {
    check_synccheck_block_end(s->worker_state, s);
}

static void cb_mem(const exec_site *s, ptx_space space, exec_mem_access access,
                   const uint64_t addr[32], uint32_t mask, uint32_t size) {
    check_worker *w = s->worker_state;
    if (!mask) return;
    switch (w->cl->st->tool) {
    case CHECK_TOOL_MEMCHECK: check_memcheck_mem(w, s, space, access, addr, mask, size); break;
    case CHECK_TOOL_RACECHECK: check_racecheck_mem(w, s, space, access, addr, mask, size); break;
    case CHECK_TOOL_INITCHECK: check_initcheck_mem(w, s, space, access, addr, mask, size); break;
    default: break;
    }
}

static bool is_arrive_only(const ptx_insn *in) {
    return in && (ptx_insn_has_mod(in, PTX_MOD_arrive) && !ptx_insn_has_mod(in, PTX_MOD_red));
}

/* Does barrier instruction in name a thread count (bar.sync a, b; bar.red.op d, a, b, c)?
 * Without one it waits for every thread of the block, as __syncthreads() does. */
static bool has_thread_count(const ptx_insn *in) {
    if (!in) return false;
    return in->nopnds >= (ptx_insn_has_mod(in, PTX_MOD_red) ? 4u : 2u);
}

static void cb_barrier(const exec_site *s, uint32_t id, uint32_t arrived, uint32_t expected) {
    check_worker *w = s->worker_state;
    bool waits = !is_arrive_only(s->insn);
    if (waits && s->warp < w->nwarps) {
        w->epoch[s->warp]++;
        w->last_bar[s->warp] = s->insn;
        /* a barrier of the whole block orders the warp after everything every other warp
         * did before it (one that exited before it too: the rule racecheck always had) */
        if (!has_thread_count(s->insn)) w->bepoch[s->warp]++;
    }
    if (w->cl->st->tool == CHECK_TOOL_RACECHECK && s->warp < w->nwarps)
        check_racecheck_arrive(w, s->warp, id, waits);
    if (w->cl->st->tool == CHECK_TOOL_SYNCCHECK)
        check_synccheck_barrier(w, s, arrived, expected);
}

static void cb_barrier_complete(const exec_site *s, uint32_t id, uint32_t count) {
    (void)count;
    check_worker *w = s->worker_state;
    if (w->cl->st->tool == CHECK_TOOL_RACECHECK) check_racecheck_complete(w, id);
}

static void cb_warp_sync(const exec_site *s, uint32_t membermask, uint32_t active) {
    check_worker *w = s->worker_state;
    const ptx_insn *in = s->insn;
    bool syncwarp = in && (in->op == PTX_OP_bar || in->op == PTX_OP_barrier) &&
                    ptx_insn_has_mod(in, PTX_MOD_warp);
    if (syncwarp && s->warp < w->nwarps) w->wsync[s->warp]++;
    if (w->cl->st->tool == CHECK_TOOL_SYNCCHECK)
        check_synccheck_warp_sync(w, s, membermask, active);
}

/* ---- begin / end ---- */

check_launch *check_launch_begin(check_state *st, exec_launch *L, const ptx_module *module,
                                 const char *kernel_name, bool independent_threads,
                                 const char *launch_site) {
    if (!st || st->tool == CHECK_TOOL_NONE) return NULL;
    check_launch *cl = calloc(1, sizeof *cl);
    if (!cl) return NULL;
    cl->st = st;
    cl->L = L;
    cl->module = module;
    ptx_demangle_into(kernel_name, PTX_DEMANGLE_SANITIZER, cl->kernel, sizeof cl->kernel);
    cl->its = independent_threads;
    if (launch_site) snprintf(cl->launch_site, sizeof cl->launch_site, "%s", launch_site);
    const exec_kernel_info *info = exec_kernel_get_info(L->kernel);
    cl->shared_reserved = info->reserved_shared;
    cl->shared_size = L->dyn_shared ? info->dyn_shared_base + L->dyn_shared
                                    : info->reserved_shared + info->static_shared;
    cl->local_size = info->local_per_thread;
    cl->nthreads = L->block.x * L->block.y * L->block.z;
    pthread_mutex_init(&cl->lock, NULL);

    exec_observer *o = &cl->obs;
    o->ctx = cl;
    o->begin_worker = cb_begin_worker;
    o->end_worker = cb_end_worker;
    o->block_begin = cb_block_begin;
    o->block_end = st->tool == CHECK_TOOL_SYNCCHECK ? cb_block_end : NULL;
    o->mem = st->tool == CHECK_TOOL_SYNCCHECK ? NULL : cb_mem;
    o->barrier = cb_barrier;
    o->barrier_complete = st->tool == CHECK_TOOL_RACECHECK ? cb_barrier_complete : NULL;
    o->warp_sync = cb_warp_sync;
    o->heap = st->tool == CHECK_TOOL_MEMCHECK ? check_memcheck_heap : NULL;
    L->observer = o;
    /* as on a GPU, every warp of the block that reaches a bad access is reported before
     * the kernel stops */
    L->warps_outlive_fault = st->tool == CHECK_TOOL_MEMCHECK;
    /* compute-sanitizer stops a kernel at an access past a block's shared bytes or an
     * allocation's end, where a GPU alone lets it touch the rest of the shared allocation
     * unit or of the device's mapping */
    L->exact_bounds = st->tool == CHECK_TOOL_MEMCHECK;
    return cl;
}

static int cmp_report(const void *a, const void *b) {
    uint64_t x = ((const check_report *)a)->key, y = ((const check_report *)b)->key;
    return x < y ? -1 : x > y;
}

static int cmp_hazard(const void *a, const void *b) {
    const check_hazard *x = a, *y = b;
    if (x->first_key != y->first_key) return x->first_key < y->first_key ? -1 : 1;
    if (x->warp_level != y->warp_level) return x->warp_level - y->warp_level;
    return 0;
}

static const char *access_word(uint8_t access) {
    return access == EXEC_OBS_LOAD ? "Read" : access == EXEC_OBS_STORE ? "Write" : "Atomic";
}

/* One racecheck analysis report. Hazards between warps of a block are errors; between
 * lanes of one warp (possible only with independent thread scheduling) they are
 * compute-sanitizer's "warp level programming" warnings. */
static void print_hazard(check_launch *cl, const check_hazard *h) {
    check_state *st = cl->st;
    char a[700], b[700];
    check_where(a, sizeof a, cl, h->first);
    check_where(b, sizeof b, cl, h->second);
    check_buf buf = {0};
    if (h->warp_level)
        check_line(&buf, "Warning: (Warp Level Programming) Race reported between %s access "
                   "at %s", access_word(h->first_access), a);
    else
        check_line(&buf, "Error: Race reported between %s access at %s",
                   access_word(h->first_access), a);
    check_line(&buf, "    and %s access at %s [%" PRIu64 " hazard%s]",
               access_word(h->second_access), b, h->count, h->count == 1 ? "" : "s");
    exec_dim3 ta = check_thread_index(cl, h->tid_a), tb = check_thread_index(cl, h->tid_b);
    if (h->warp_level) {
        check_line(&buf, "    between threads (%u,%u,%u) and (%u,%u,%u) of one warp in block "
                   "(%u,%u,%u), in __%s__ memory, with no __syncwarp() between the accesses",
                   ta.x, ta.y, ta.z, tb.x, tb.y, tb.z, h->ctaid.x, h->ctaid.y, h->ctaid.z,
                   h->global ? "global" : "shared");
        check_line(&buf, "    Fix: __syncwarp() between the steps, or __shfl_down_sync(): the lanes of "
                   "a warp are not in lockstep since Volta (sm_70), `volatile` does not order them");
    } else {
        check_line(&buf, "    between threads (%u,%u,%u) and (%u,%u,%u) of block (%u,%u,%u), in "
                   "__%s__ memory, with no __syncthreads() between the accesses", ta.x, ta.y,
                   ta.z, tb.x, tb.y, tb.z, h->ctaid.x, h->ctaid.y, h->ctaid.z,
                   h->global ? "global" : "shared");
    }
    check_line(&buf, "%s", "");
    pthread_mutex_lock(&st->lock);
    if (h->warp_level) st->race_warnings++;
    else st->race_errors++;
    pthread_mutex_unlock(&st->lock);
    check_emit(st, buf.p);
    check_buf_free(&buf);
}

bool check_launch_end(check_launch *cl, exec_fault_kind fault) {
    (void)fault;
    if (!cl) return false;
    pthread_mutex_lock(&cl->lock);
    for (check_worker *w = cl->workers; w; w = w->next) gather(cl, w);
    pthread_mutex_unlock(&cl->lock);

    if (cl->nreports) qsort(cl->reports, cl->nreports, sizeof *cl->reports, cmp_report);
    for (size_t i = 0; i < cl->nreports; i++) {
        check_emit(cl->st, cl->reports[i].text);
        free(cl->reports[i].text);
    }
    if (cl->unkept) check_count(cl->st, cl->unkept);
    if (cl->nhazards) qsort(cl->hazards, cl->nhazards, sizeof *cl->hazards, cmp_hazard);
    for (size_t i = 0; i < cl->nhazards; i++) print_hazard(cl, &cl->hazards[i]);

    bool fail = cl->mem_error != 0;
    for (check_worker *w = cl->workers, *n; w; w = n) {
        n = w->next;
        check_racecheck_free(w);
        free(w->epoch);
        free(w->bepoch);
        free(w->clock);
        free(w->vc);
        free(w->bar_join);
        free(w->last_bar);
        free(w->wsync);
        free(w->issue);
        free(w);
    }
    free(cl->reports);
    free(cl->hazards);
    pthread_mutex_destroy(&cl->lock);
    free(cl);
    return fail;
}
