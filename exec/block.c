/* exec/block.c — running a block: the worker's reusable scratch, warp set-up, round-robin
 * scheduling of the block's warps, and the barrier instructions (bar/barrier sync,
 * arrive, red; bar.warp.sync), memory fences and the other synchronisation no-ops.
 *
 * A warp runs until it waits at a barrier, exits, faults or uses up its time slice.
 * bar.sync completes when the expected number of threads has arrived: the count the
 * instruction names, or else every thread that has not exited. When no warp can run
 * and some still wait, the barrier can never complete: that is reported, not hung on.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>

exec_worker *exec_worker_new(void) {
    exec_worker *w = calloc(1, sizeof *w);
    return w;
}

void exec_worker_free(exec_worker *wk) {
    if (!wk) return;
    exec_worker_observe_end(wk);
    for (uint32_t i = 0; i < wk->warps_cap; i++) {
        exec_wstate *w = &wk->warps[i];
        for (uint32_t f = 0; f < w->frames_cap; f++) {
            free(w->frames[f].R);
            free(w->frames[f].P);
        }
        free(w->frames);
        free(w->rs);
    }
    free(wk->warps);
    free(wk->shared);
    free(wk->local);
    free(wk);
}

uint64_t exec_worker_insn_count(const exec_worker *w) { return w->insn_count; }

static bool reserve(uint8_t **buf, size_t *cap, size_t need) {
    if (need <= *cap) return true;
    size_t n = *cap ? *cap : 4096;
    while (n < need) n *= 2;
    free(*buf);
    *buf = aligned_alloc(64, n);
    if (!*buf) { *cap = 0; return false; }
    memset(*buf, 0, n);
    *cap = n;
    return true;
}

void exec_warp_stop_aborted(exec_wstate *w) {
    exec_fault_block(w->h.block, EXEC_FAULT_ABORTED, "stopped because another block faulted");
    w->h.fault = 1;
    exec_warp_yield(w);
}

void exec_block_forget_ranges(struct exec_block *b) {
    for (uint32_t i = 0; i < EXEC_RANGE_CACHE; i++) {
        b->ranges[i].lo = 1;
        b->ranges[i].hi = 0;
        b->ranges[i].writable = false;
    }
}

/* ---- barriers ---- */

enum { RED_NONE = 0, RED_POPC, RED_AND, RED_OR };
#define BAR_WAIT      (EXEC_F_HANDLER << 8)
#define BAR_ID_REG    (EXEC_F_HANDLER << 9)
#define BAR_COUNT_REG (EXEC_F_HANDLER << 10)

static void deliver_reduction(exec_wstate *w, const exec_barrier *bar) {
    const exec_insn *in = w->bar_insn;
    uint32_t m = w->bar_mask;
    switch (in->aux) {
    case RED_POPC:
        exec_broadcast(&EXEC_R(&w->h, in->d[0], 0), m, bar->red_popc);
        break;
    case RED_AND: case RED_OR: {
        bool r = in->aux == RED_AND ? bar->red_and : bar->red_or;
        w->h.P[in->d[0]] = (w->h.P[in->d[0]] & ~m) | (r ? m : 0);
        break;
    }
    default: break;
    }
}

static void barrier_check(struct exec_block *b, uint32_t id) {
    exec_barrier *bar = &b->bars[id];
    uint32_t need = bar->expected ? bar->expected : b->live_threads;
    if (bar->arrived == 0 || bar->arrived < need) return;
    for (uint32_t i = 0; i < b->nwarps && bar->waiting; i++) {
        exec_wstate *w = &b->warps[i];
        if (w->status != EXEC_WARP_BARRIER || w->bar_id != id) continue;
        if (w->bar_insn->aux != RED_NONE) deliver_reduction(w, bar);
        w->status = EXEC_WARP_RUNNABLE;
        bar->waiting--;
    }
    bar->arrived = 0;
    bar->waiting = 0;
    bar->expected = 0;
}

void exec_block_threads_exited(struct exec_block *b, uint32_t n) {
    b->live_threads -= n;
    for (uint32_t id = 0; id < EXEC_NUM_BARRIERS; id++)
        if (b->bars[id].arrived && !b->bars[id].expected) barrier_check(b, id);
}

uint32_t exec_barrier_id(const exec_warp *hw, const exec_insn *in, uint32_t lane) {
    return in->flags & BAR_ID_REG ? (uint32_t)EXEC_R(hw, in->a[0], lane) : (uint32_t)in->target;
}

static void h_bar(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    struct exec_block *b = hw->block;
    uint32_t lane0 = (uint32_t)__builtin_ctz(mask);
    uint32_t id = exec_barrier_id(hw, in, lane0);
    uint32_t count = in->flags & BAR_COUNT_REG ? (uint32_t)EXEC_R(hw, in->a[1], lane0)
                                               : (uint32_t)in->imm;
    if (id >= EXEC_NUM_BARRIERS) {
        exec_fault_at(hw, in, lane0, EXEC_FAULT_ILLEGAL_INSTRUCTION, "barrier id out of range");
        return;
    }
    if (exec_block_aborted(b)) {
        exec_warp_stop_aborted(w);
        return;
    }
    exec_barrier *bar = &b->bars[id];
    if (bar->arrived == 0) {
        bar->expected = count;
        bar->red_popc = 0;
        bar->red_and = true;
        bar->red_or = false;
    }
    bar->arrived += (uint32_t)__builtin_popcount(mask);
    if (in->aux != RED_NONE) {
        uint32_t p = hw->P[in->a[2]];
        if (in->flags & EXEC_F_NEG_A2) p = ~p;
        p &= mask;
        bar->red_popc += (uint32_t)__builtin_popcount(p);
        if (p != mask) bar->red_and = false;
        if (p) bar->red_or = true;
    }
    if (in->flags & BAR_WAIT) {
        w->status = EXEC_WARP_BARRIER;
        w->bar_id = id;
        w->bar_mask = mask;
        w->bar_insn = in;
        bar->waiting++;
        exec_warp_yield(w);
    }
    barrier_check(b, id);
}

static void h_fence(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    (void)hw; (void)in; (void)mask;
    /* blocks run on several host threads: order this block's memory accesses */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void h_nanosleep(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    (void)in; (void)mask;
    exec_warp_yield(exec_ws(hw)); /* let the block's other warps run */
}

static void h_zero(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_broadcast(&EXEC_R(hw, in->d[0], 0), mask, 0);
}

/* Barrier id (a) and optional thread count (b) operands. */
static bool bar_operands(exec_decoder *d, const ptx_insn *pi, exec_insn *out, unsigned first,
                         unsigned last) {
    if (first >= last) { out->target = 0; return true; }
    const ptx_operand *a = &pi->opnd[first];
    if (a->kind == PTX_OPND_IMM_INT) {
        if (a->ival < 0 || a->ival >= (int64_t)EXEC_NUM_BARRIERS)
            return exec_dec_error(d, pi, "barrier id %lld out of range", (long long)a->ival);
        out->target = (int32_t)a->ival;
    } else {
        if (!exec_dec_src(d, pi, a, PTX_T_u32, &out->a[0])) return false;
        out->flags |= BAR_ID_REG;
    }
    if (first + 1 < last) {
        const ptx_operand *b = &pi->opnd[first + 1];
        if (b->kind == PTX_OPND_IMM_INT) {
            out->imm = b->ival;
        } else {
            if (!exec_dec_src(d, pi, b, PTX_T_u32, &out->a[1])) return false;
            out->flags |= BAR_COUNT_REG;
        }
    }
    return true;
}

int exec_decode_sync(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    switch (pi->op) {
    case PTX_OP_bar: case PTX_OP_barrier: {
        if (exec_dec_has_mod_named(pi, "warp")) { /* bar.warp.sync: lanes run in lockstep already */
            /* the membermask is read only by observers */
            if (pi->nopnds >= 1 && !exec_dec_src(d, pi, &pi->opnd[0], PTX_T_b32, &out->a[0]))
                return -1;
            out->na = pi->nopnds >= 1;
            out->fn = exec_h_nop;
            return 1;
        }
        if (exec_dec_has_mod_named(pi, "cluster"))
            return exec_dec_error(d, pi, "cluster barriers are not supported"), -1;
        out->fn = h_bar;
        if (ptx_insn_has_mod(pi, PTX_MOD_red)) {
            if (pi->nopnds < 3) return exec_dec_error(d, pi, "bar.red needs d, a, c"), -1;
            out->flags |= BAR_WAIT;
            if (ptx_insn_has_mod(pi, PTX_MOD_popc)) out->aux = RED_POPC;
            else if (ptx_insn_has_mod(pi, PTX_MOD_and_)) out->aux = RED_AND;
            else if (ptx_insn_has_mod(pi, PTX_MOD_or_)) out->aux = RED_OR;
            else return exec_dec_error(d, pi, "bar.red needs .popc, .and or .or"), -1;
            if (out->aux == RED_POPC) {
                if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0])) return -1;
            } else {
                out->flags |= EXEC_F_D_PRED;
                if (!exec_dec_pred(d, pi, &pi->opnd[0], &out->d[0], NULL)) return -1;
            }
            bool neg = false;
            if (!exec_dec_pred(d, pi, &pi->opnd[pi->nopnds - 1], &out->a[2], &neg)) return -1;
            if (neg) out->flags |= EXEC_F_NEG_A2;
            return bar_operands(d, pi, out, 1, pi->nopnds - 1u) ? 1 : -1;
        }
        if (!ptx_insn_has_mod(pi, PTX_MOD_arrive)) out->flags |= BAR_WAIT;
        return bar_operands(d, pi, out, 0, pi->nopnds) ? 1 : -1;
    }
    case PTX_OP_mbarrier: return exec_decode_mbarrier(d, pi, out);
    case PTX_OP_membar: case PTX_OP_fence:
        out->fn = h_fence;
        return 1;
    case PTX_OP_nanosleep:
        out->fn = h_nanosleep;
        return 1;
    case PTX_OP_griddepcontrol: case PTX_OP_pmevent:
        out->fn = exec_h_nop;
        return 1;
    case PTX_OP_createpolicy: /* a cache policy value: only ever passed to cache hints */
        if (pi->nopnds < 1 || !exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0])) return -1;
        out->fn = h_zero;
        return 1;
    default:
        return 0;
    }
}

/* ---- running a block ---- */

static void init_warp(exec_wstate *w, struct exec_block *b, uint32_t index, uint64_t clock) {
    const exec_func *f = b->k->func;
    w->h.block = b;
    w->h.warp_in_block = index;
    uint32_t first = index * EXEC_WARP_SIZE;
    uint32_t n = b->nthreads - first < EXEC_WARP_SIZE ? b->nthreads - first : EXEC_WARP_SIZE;
    w->h.nlanes = n;
    w->h.alive = n == EXEC_WARP_SIZE ? EXEC_FULL_MASK : (1u << n) - 1;
    w->h.active = w->h.alive;
    w->h.carry = 0;
    w->h.fault = 0;
    w->h.sync_mask_insn = NULL;
    w->h.sync_mask_missing = 0;
    w->h.sync_mask_excluded = 0;
    w->depth = 0;
    exec_frame_prepare(w, 0, f, 0);
    w->frames[0].rs_base = 0;
    w->frames[0].site = NULL;
    w->h.R = w->frames[0].R;
    w->h.P = w->frames[0].P;
    w->code = f->code;
    w->ip = f->code;
    w->rsp = 0;
    w->returned = 0;
    w->spin_count = 0;
    w->yield = false;
    w->brk = NULL;
    w->status = EXEC_WARP_RUNNABLE;
    w->clock = clock;
}

/* warps_outlive_fault: the warp that faulted leaves the block like exited threads, so
 * barriers the others wait at can still complete. */
static void retire_faulted_warp(struct exec_block *b, exec_wstate *w) {
    uint32_t n = (uint32_t)__builtin_popcount(w->h.alive);
    w->h.alive = w->h.active = 0;
    w->status = EXEC_WARP_EXITED;
    if (n) exec_block_threads_exited(b, n);
}

static void report_deadlock(struct exec_block *b) {
    for (uint32_t id = 0; id < EXEC_NUM_BARRIERS; id++) {
        const exec_barrier *bar = &b->bars[id];
        if (!bar->waiting) continue;
        uint32_t need = bar->expected ? bar->expected : b->live_threads;
        exec_fault_block(b, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                         "barrier %u can never complete: %u of %u threads arrived, %u warps "
                         "wait, and the other threads have exited or wait elsewhere "
                         "(a barrier in divergent code?)",
                         id, bar->arrived, need, bar->waiting);
        return;
    }
    exec_fault_block(b, EXEC_FAULT_ILLEGAL_INSTRUCTION, "no warp of the block can run");
}

exec_fault_kind exec_run_block(exec_worker *wk, const exec_launch *L, exec_dim3 ctaid,
                               uint32_t smid, exec_output *out, exec_fault *fault) {
    const exec_kernel *k = L->kernel;
    struct exec_block *b = &wk->block;
    fault->kind = EXEC_OK;
    fault->msg[0] = 0;
    memset(b, 0, sizeof *b);
    b->L = L;
    b->k = k;
    b->prog = k->prog;
    b->worker = wk;
    b->ctaid = ctaid;
    b->ntid = L->block;
    b->smid = smid;
    b->out = out;
    b->fault = fault;
    b->nthreads = L->block.x * L->block.y * L->block.z;
    b->nwarps = (b->nthreads + EXEC_WARP_SIZE - 1) / EXEC_WARP_SIZE;
    b->live_threads = b->nthreads;
    exec_block_forget_ranges(b);
    if (b->nthreads == 0) return EXEC_OK;
    if (exec_block_aborted(b)) {
        exec_fault_block(b, EXEC_FAULT_ABORTED, "stopped because another block faulted");
        return b->fault_kind;
    }

    b->shared_size = L->dyn_shared ? k->dyn_base + L->dyn_shared : k->info.static_shared;
    b->local_stride = k->info.local_per_thread;
    if (!reserve(&wk->shared, &wk->shared_cap, b->shared_size + 1) ||
        !reserve(&wk->local, &wk->local_cap, (size_t)b->nthreads * b->local_stride + 1)) {
        exec_fault_block(b, EXEC_FAULT_ILLEGAL_ADDRESS,
                         "cannot allocate %u bytes of shared and %zu bytes of local memory",
                         b->shared_size, (size_t)b->nthreads * b->local_stride);
        return b->fault_kind;
    }
    b->shared = wk->shared;
    b->local = wk->local;

    if (b->nwarps > wk->warps_cap) {
        exec_wstate *n = realloc(wk->warps, b->nwarps * sizeof *n);
        if (!n) abort();
        memset(n + wk->warps_cap, 0, (b->nwarps - wk->warps_cap) * sizeof *n);
        wk->warps = n;
        wk->warps_cap = b->nwarps;
    }
    b->warps = wk->warps;
    uint64_t start = wk->insn_count;
    for (uint32_t i = 0; i < b->nwarps; i++) init_warp(&b->warps[i], b, i, start);
    /* one test per block picks the loop; the plain one knows nothing of observers */
    void (*run)(exec_wstate *) = exec_warp_run;
    if (L->observer) {
        exec_observe_block_begin(b);
        run = exec_warp_run_observed;
    }

    for (;;) {
        bool ran = false, all_exited = true;
        for (uint32_t i = 0; i < b->nwarps; i++) {
            exec_wstate *w = &b->warps[i];
            if (w->status == EXEC_WARP_RUNNABLE) {
                run(w);
                ran = true;
                if (b->fault_kind != EXEC_OK) {
                    if (!L->warps_outlive_fault || b->fault_kind == EXEC_FAULT_ABORTED) goto done;
                    if (w->h.fault) retire_faulted_warp(b, w);
                }
            }
            if (w->status != EXEC_WARP_EXITED) all_exited = false;
        }
        if (all_exited) break;
        if (!ran) {
            report_deadlock(b);
            break;
        }
        if (exec_block_aborted(b)) {
            /* (a fault of this block already recorded stays the one reported) */
            exec_fault_block(b, EXEC_FAULT_ABORTED, "stopped because another block faulted");
            break;
        }
    }
done:
    if (L->observer) exec_observe_block_end(b);
    for (uint32_t i = 0; i < b->nwarps; i++) wk->insn_count += b->warps[i].clock - start;
    return b->fault_kind;
}
