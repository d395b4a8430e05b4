/* exec/block.c — running a block: the worker's reusable scratch, warp set-up, round-robin
 * scheduling of the block's warps, and the barrier instructions (bar/barrier sync,
 * arrive, red; bar.warp.sync), memory fences and the other synchronisation no-ops.
 *
 * A warp runs until it waits at a barrier, exits, faults or uses up its time slice.
 * bar.sync completes when the expected number of threads has arrived: the count the
 * instruction names, or else every thread that has not exited. When no warp can run
 * and some still wait, the barrier can never complete: that is reported, not hung on.
 *
 * Split warps (sm_70 and later, where barrier.sync without .aligned counts threads, as
 * cooperative groups' sync() compiles to): lanes that reach such a barrier while other
 * lanes of their warp still have a path to run (the other side of an if/else, also in a
 * caller) do not stop the warp. They are parked as the pending path of a new
 * reconvergence entry, and the warp runs the other path until its lanes too arrive at a
 * barrier (the same one or another instruction with that id) or exit; reconvergence then
 * happens as usual, the parked path running once the barrier has completed. Lanes
 * waiting at a reconvergence point behind parked lanes cannot move on: if that keeps a
 * barrier from completing it is reported as a barrier that can never complete.
 * Aligned barriers (bar.sync, which __syncthreads() compiles to, bar.red, and barrier.*
 * .aligned) need the whole warp at the same instruction: part of a warp waiting at one
 * while its other lanes are elsewhere hangs on the GPU (an H200 does), and is reported
 * here; except where those lanes were let past a reconvergence point ahead of lanes that
 * spin (exec/control.c): they are parked as above until the spinners arrive, as on the
 * GPU they would have waited for them at that point. Before sm_70
 * (exec_launch.warp_barriers) no barrier splits a warp.
 *
 * barrier.cluster.arrive counts the block's threads; once every live one has arrived the
 * block arrives at its cluster's barrier (exec/cluster.c), and barrier.cluster.wait waits
 * for the generation the warp's arrive counted towards. When every warp of the block waits
 * for other blocks of the cluster, the block's host thread sleeps until they arrive.
 */
#include "core.h"
#include "native.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Lanes parked at a barrier inside a function called from a path while the path to run
 * next is in a caller: their call frames and reconvergence entries, moved aside until
 * they resume (see park_and_switch). */
typedef struct exec_bar_cont {
    bool used;
    uint32_t lanes;
    uint32_t base;              /* the caller's frame depth: they resume from there */
    uint32_t nframes;           /* their frames were base+1 .. base+nframes */
    exec_frame *frames;         /* those frames while parked; spare buffers otherwise */
    uint32_t frames_cap;
    exec_rentry *rs;            /* their frames' reconvergence entries */
    uint32_t nrs, rs_cap;
    const exec_insn *ip;        /* where they go on */
    uint32_t returned;          /* the innermost frame's returned lanes */
} exec_bar_cont;

static void free_conts(exec_wstate *w) {
    for (uint32_t c = 0; c < w->nconts; c++) {
        exec_bar_cont *ct = &w->conts[c];
        for (uint32_t f = 0; f < ct->frames_cap; f++) {
            free(ct->frames[f].R);
            free(ct->frames[f].P);
        }
        free(ct->frames);
        free(ct->rs);
    }
    free(w->conts);
    w->conts = NULL;
    w->nconts = 0;
}

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
        free_conts(w);
    }
    exec_devrt_worker_free(wk);
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

/* Has the launch run past its deadline (exec_launch.deadline_ns)? Read only between warp
 * turns, never per instruction. */
static bool exec_block_past_deadline(const exec_launch *L) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec >= L->deadline_ns;
}

bool exec_block_poll(struct exec_block *b) {
    if (exec_block_aborted(b)) {
        exec_fault_block(b, EXEC_FAULT_ABORTED, "stopped because another block faulted");
        return true;
    }
    if (b->L->deadline_ns && exec_block_past_deadline(b->L)) {
        exec_fault_block(b, EXEC_FAULT_TIMEOUT,
                         "the kernel ran longer than VCUDA_KERNEL_TIMEOUT allows");
        return true;
    }
    return false;
}

void exec_warp_stop_aborted(exec_wstate *w) {
    exec_fault_block(w->h.block, EXEC_FAULT_ABORTED, "stopped because another block faulted");
    w->h.fault = 1;
    exec_warp_yield(w);
}

void exec_block_forget_ranges(struct exec_block *b) {
    exec_range *r = b->worker->ranges;
    for (uint32_t i = 0; i < EXEC_RANGE_CACHE; i++) {
        r[i].lo = 1;
        r[i].hi = 0;
        r[i].writable = false;
    }
}

/* ---- barriers ---- */

enum { RED_NONE = 0, RED_POPC, RED_AND, RED_OR };
#define BAR_WAIT      (EXEC_F_HANDLER << 8)
#define BAR_ID_REG    (EXEC_F_HANDLER << 9)
#define BAR_COUNT_REG (EXEC_F_HANDLER << 10)
#define BAR_ALIGNED   (EXEC_F_HANDLER << 11) /* bar.*, barrier.*.aligned: one per warp */

/* bar.red's result for lanes m of the frame with registers R and predicates P. */
static void deliver_reduction(const exec_insn *in, uint32_t m, uint64_t *R, uint32_t *P,
                              const exec_barrier *bar) {
    switch (in->aux) {
    case RED_POPC:
        exec_broadcast(R + (size_t)in->d[0] * EXEC_WARP_SIZE, m, bar->red_popc);
        break;
    case RED_AND: case RED_OR: {
        bool r = in->aux == RED_AND ? bar->red_and : bar->red_or;
        P[in->d[0]] = (P[in->d[0]] & ~m) | (r ? m : 0);
        break;
    }
    default: break;
    }
}

/* The barrier completed: the lanes parked at it may run again (their paths run when the
 * warp reaches them), and a warp stopped at one of its parked paths tries again. */
static void release_parked(exec_wstate *w, uint32_t id, exec_barrier *bar) {
    for (uint32_t i = 0; i < w->nparks;) {
        exec_bar_park *p = &w->parks[i];
        if (p->id != id) {
            i++;
            continue;
        }
        if (p->insn->aux != RED_NONE) {
            const exec_bar_cont *ct = p->cont >= 0 ? &w->conts[p->cont] : NULL;
            exec_frame *fr = ct ? &ct->frames[p->depth - ct->base - 1] : &w->frames[p->depth];
            deliver_reduction(p->insn, p->arrived, fr->R, fr->P, bar);
        }
        w->parked &= ~p->lanes;
        *p = w->parks[--w->nparks];
        bar->parked--;
    }
    if (w->resume_parked && w->status == EXEC_WARP_BARRIER) w->status = EXEC_WARP_RUNNABLE;
}

/* Warps waiting at barrier.cluster.wait whose generation has completed go on. */
static void release_cluster_waiters(struct exec_block *b) {
    uint64_t gen = exec_cluster_generation(b);
    exec_barrier *bar = &b->bars[EXEC_CLUSTER_BARRIER];
    for (uint32_t i = 0; i < b->nwarps && b->cl_waiting; i++) {
        exec_wstate *w = &b->warps[i];
        if (w->status != EXEC_WARP_BARRIER || w->resume_parked || w->bar_id != EXEC_CLUSTER_BARRIER ||
            w->cl_target > gen)
            continue;
        w->status = EXEC_WARP_RUNNABLE;
        b->cl_waiting--;
        bar->waiting--;
    }
}

static void barrier_check(struct exec_block *b, uint32_t id) {
    exec_barrier *bar = &b->bars[id];
    uint32_t need = bar->expected ? bar->expected : b->live_threads;
    if (bar->arrived == 0 || bar->arrived < need) return;
    if (id == EXEC_CLUSTER_BARRIER) {
        /* every live thread of the block arrived: the block arrives at the cluster's */
        bar->arrived = 0;
        exec_cluster_block_arrived(b);
        release_cluster_waiters(b);
        return;
    }
    if (b->L->observer) exec_observe_barrier_complete(b, id, bar->expected);
    for (uint32_t i = 0; i < b->nwarps && (bar->waiting || bar->parked); i++) {
        exec_wstate *w = &b->warps[i];
        if (w->nparks) release_parked(w, id, bar);
        if (w->status != EXEC_WARP_BARRIER || w->resume_parked || w->bar_id != id) continue;
        if (w->bar_insn->aux != RED_NONE)
            deliver_reduction(w->bar_insn, w->bar_mask, w->h.R, w->h.P, bar);
        w->status = EXEC_WARP_RUNNABLE;
        bar->waiting--;
    }
    bar->arrived = 0;
    bar->waiting = 0;
    bar->parked = 0;
    bar->expected = 0;
}

void exec_block_threads_exited(struct exec_block *b, uint32_t n) {
    b->live_threads -= n;
    for (uint32_t id = 0; id <= EXEC_CLUSTER_BARRIER; id++)
        if (b->bars[id].arrived && !b->bars[id].expected) barrier_check(b, id);
}

uint32_t exec_barrier_id(const exec_warp *hw, const exec_insn *in, uint32_t lane) {
    return in->flags & BAR_ID_REG ? (uint32_t)EXEC_R(hw, in->a[0], lane) : (uint32_t)in->target;
}

/* The topmost reconvergence entry with a pending path that can run (lanes not exited,
 * not parked, not returned from the entry's function), or -1. The entry may belong to a
 * caller of the current function. */
static int runnable_pending(const exec_wstate *w) {
    uint32_t returned = w->returned, d = w->depth;
    for (uint32_t i = w->rsp; i > 0; i--) {
        while (d > 0 && w->frames[d].rs_base >= i) returned = w->frames[d--].saved_returned;
        if (w->rs[i - 1].pending_mask & w->h.alive & ~returned & ~w->parked) return (int)(i - 1);
    }
    return -1;
}

static void h_resume_parked(exec_warp *hw, const exec_insn *in, uint32_t mask);

/* Where lanes parked inside a callee resume: the pending path of their entry in the
 * caller starts here, and the handler puts their frames back. Not part of any code. */
static const exec_insn resume_parked_insn = {
    .fn = h_resume_parked, .op = PTX_OP_bar, .flags = EXEC_F_PSEUDO, .guard = -1,
    .obs = EXEC_OBS_K_HIDDEN, .reconv = -1,
};

static void swap_frames(exec_frame *a, exec_frame *b) {
    exec_frame t = *a;
    *a = *b;
    *b = t;
}

/* Move the active lanes' frames above depth base, and their reconvergence entries, into
 * a continuation; the warp is left in frame base. Returns the continuation's index. */
static int32_t save_continuation(exec_wstate *w, uint32_t base) {
    uint32_t c = 0;
    while (c < w->nconts && w->conts[c].used) c++;
    if (c == w->nconts) {
        exec_bar_cont *n = realloc(w->conts, (w->nconts + 1) * sizeof *n);
        if (!n) abort();
        memset(&n[w->nconts], 0, sizeof *n);
        w->conts = n;
        w->nconts++;
    }
    exec_bar_cont *ct = &w->conts[c];
    uint32_t nf = w->depth - base;
    if (ct->frames_cap < nf) {
        exec_frame *f = realloc(ct->frames, nf * sizeof *f);
        if (!f) abort();
        memset(f + ct->frames_cap, 0, (nf - ct->frames_cap) * sizeof *f);
        ct->frames = f;
        ct->frames_cap = nf;
    }
    for (uint32_t i = 0; i < nf; i++) swap_frames(&ct->frames[i], &w->frames[base + 1 + i]);
    uint32_t first = ct->frames[0].rs_base, nrs = w->rsp - first;
    if (ct->rs_cap < nrs) {
        exec_rentry *r = realloc(ct->rs, nrs * sizeof *r);
        if (!r) abort();
        ct->rs = r;
        ct->rs_cap = nrs;
    }
    if (nrs) memcpy(ct->rs, &w->rs[first], nrs * sizeof *ct->rs);
    ct->used = true;
    ct->lanes = w->h.active;
    ct->base = base;
    ct->nframes = nf;
    ct->nrs = nrs;
    ct->ip = w->ip;
    ct->returned = w->returned;
    /* back in the caller, as if the call had not been made yet */
    w->returned = ct->frames[0].saved_returned;
    w->rsp = first;
    w->depth = base;
    w->h.R = w->frames[base].R;
    w->h.P = w->frames[base].P;
    exec_warp_enter_code(w, w->frames[base].func);
    return (int32_t)c;
}

static void h_resume_parked(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    exec_bar_cont *ct = NULL;
    for (uint32_t c = 0; c < w->nconts && !ct; c++)
        if (w->conts[c].used && w->conts[c].base == w->depth && (w->conts[c].lanes & mask))
            ct = &w->conts[c];
    if (!ct) {
        exec_fault_at(hw, in, (uint32_t)__builtin_ctz(mask), EXEC_FAULT_INVALID_PC,
                      "lanes parked at a barrier lost their call frames");
        return;
    }
    uint32_t base = ct->base, first = w->rsp;
    int64_t shift = (int64_t)first - (int64_t)ct->frames[0].rs_base;
    for (uint32_t i = 0; i < ct->nframes; i++) {
        ct->frames[i].rs_base = (uint32_t)((int64_t)ct->frames[i].rs_base + shift);
        swap_frames(&ct->frames[i], &w->frames[base + 1 + i]);
    }
    /* the caller's lanes that returned meanwhile stay returned after this call */
    w->frames[base + 1].saved_returned = w->returned;
    for (uint32_t i = 0; i < ct->nrs; i++) {
        exec_warp_push_divergence(w, ct->rs[i].rpc, ct->rs[i].restore_mask, ct->rs[i].pending_ip,
                                  ct->rs[i].pending_mask);
        /* lanes let past their meeting point ahead of spinners stay so across the park */
        w->rs[w->rsp - 1].ahead_of_spinners = ct->rs[i].ahead_of_spinners;
    }
    w->depth = base + ct->nframes;
    w->returned = ct->returned;
    w->h.R = w->frames[w->depth].R;
    w->h.P = w->frames[w->depth].P;
    exec_warp_enter_code(w, w->frames[w->depth].func);
    w->h.active = mask;
    w->ip = ct->ip;
    ct->used = false;
    exec_warp_update_brk(w);
}

/* The active lanes arrived (arrived of them; the others' guard failed) at barrier id of
 * instruction in, and entry k holds a path that can run. Park the active lanes as the
 * pending path of an entry meeting where they would have met, then run entry k's path
 * under an entry meeting at its own reconvergence point, so that when that path is done
 * the parked one (and the rest of the stack above k) resumes in the right order. When k
 * belongs to a caller, the parked lanes' frames above it are moved aside first and come
 * back when their path resumes. */
static void park_and_switch(exec_wstate *w, const exec_insn *in, uint32_t id, uint32_t arrived,
                            uint32_t k) {
    exec_barrier *bar = &w->h.block->bars[id];
    exec_bar_park *p = &w->parks[w->nparks++];
    p->insn = in;
    p->lanes = w->h.active;
    p->arrived = arrived;
    p->depth = w->depth;
    p->id = id;
    p->cont = -1;
    w->parked |= p->lanes;
    bar->parked++;
    const exec_insn *resume_ip = w->ip;
    uint32_t base = w->depth;
    while (w->frames[base].rs_base > k) base--;
    if (base < w->depth) {
        p->cont = save_continuation(w, base);
        resume_ip = &resume_parked_insn;
    }
    const exec_insn *top_rpc = w->rs[w->rsp - 1].rpc;
    const exec_insn *run_rpc = w->rs[k].rpc;
    const exec_insn *run_ip = w->rs[k].pending_ip;
    uint32_t run_mask = w->rs[k].pending_mask & w->h.alive & ~w->returned & ~w->parked;
    w->rs[k].pending_mask = 0;
    /* restore 0: lanes of these entries meet with the others at the entries below */
    exec_warp_push_divergence(w, top_rpc, 0, resume_ip, p->lanes);
    if (run_rpc != top_rpc) exec_warp_push_divergence(w, run_rpc, 0, NULL, 0);
    w->h.active = run_mask;
    w->ip = run_ip;
    exec_warp_update_brk(w);
}

static void h_bar(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    struct exec_block *b = hw->block;
    uint32_t lane0 = (uint32_t)__builtin_ctz(mask);
    uint32_t id = exec_barrier_id(hw, in, lane0);
    uint32_t count = in->flags & BAR_COUNT_REG ? (uint32_t)EXEC_R(hw, in->a[1], lane0)
                                               : (uint32_t)in->imm;
    if (id >= EXEC_NUM_BARRIERS && !(id == EXEC_CLUSTER_BARRIER && !(in->flags & BAR_ID_REG))) {
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
        int k = b->L->warp_barriers ? -1 : runnable_pending(w);
        /* An aligned barrier needs the whole warp: part of a warp here while its other
         * lanes have a path to run hangs on the GPU. Unless these lanes only got here
         * because the others spin and they were let past their meeting point ahead of
         * them (exec/control.c): on the GPU they would be waiting for the spinners at
         * that point and arrive here with them, so here they wait for them instead. */
        if (k >= 0 && (in->flags & BAR_ALIGNED) && !w->rs[k].ahead_of_spinners) k = -1;
        if (k >= 0) {
            park_and_switch(w, in, id, mask, (uint32_t)k);
        } else {
            w->status = EXEC_WARP_BARRIER;
            w->bar_id = id;
            w->bar_mask = mask;
            w->bar_insn = in;
            bar->waiting++;
            exec_warp_yield(w);
        }
    }
    barrier_check(b, id);
}

/* barrier.cluster.arrive: the lanes count towards the block's next arrival at the
 * cluster barrier, whose generation the warp's barrier.cluster.wait waits for. */
static void h_cluster_arrive(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    (void)in;
    exec_wstate *w = exec_ws(hw);
    struct exec_block *b = hw->block;
    w->cl_target = b->cl_arrivals + 1;
    b->bars[EXEC_CLUSTER_BARRIER].arrived += (uint32_t)__builtin_popcount(mask);
    barrier_check(b, EXEC_CLUSTER_BARRIER);
}

/* barrier.cluster.wait: until the generation the warp's arrive counted towards completes
 * (every block of the cluster still running has arrived). */
static void h_cluster_wait(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    struct exec_block *b = hw->block;
    if (exec_cluster_generation(b) >= w->cl_target) return;
    if (exec_block_aborted(b)) {
        exec_warp_stop_aborted(w);
        return;
    }
    w->status = EXEC_WARP_BARRIER;
    w->bar_id = EXEC_CLUSTER_BARRIER;
    w->bar_mask = mask;
    w->bar_insn = in;
    b->bars[EXEC_CLUSTER_BARRIER].waiting++;
    b->cl_waiting++;
    exec_warp_yield(w);
}

/* No warp of the block can run and some wait at barrier.cluster.wait for a generation the
 * block itself has arrived at: the other blocks of the cluster have yet to arrive. Sleep
 * until they do (or for a while); false when the block has not arrived (its own threads
 * are missing: a deadlock) or there is no other block. */
static bool wait_for_cluster(struct exec_block *b) {
    if (!b->cl_waiting || !b->L->cluster) return false;
    for (uint32_t i = 0; i < b->nwarps; i++) {
        const exec_wstate *w = &b->warps[i];
        if (w->status == EXEC_WARP_BARRIER && !w->resume_parked &&
            w->bar_id == EXEC_CLUSTER_BARRIER && w->cl_target > b->cl_arrivals)
            return false;
    }
    uint64_t gen = exec_cluster_generation(b);
    exec_cluster_sleep(b, gen);
    release_cluster_waiters(b);
    return true;
}

/* bar.warp.sync membermask (__syncwarp). The lanes of a warp run in lockstep here, so
 * nothing waits; but when only part of the membermask's live lanes execute it, which of
 * them the others still owe a bar.warp.sync is kept (exec_wstate.syncwarp_*), so that a
 * meeting that could never happen on the GPU is reported where it would hang. */
static void h_bar_warp(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    uint32_t members = in->na ? (uint32_t)EXEC_R(hw, in->a[0], (uint32_t)__builtin_ctz(mask))
                              : EXEC_FULL_MASK;
    if (w->syncwarp_missing && members == w->syncwarp_members) {
        /* lanes owed to an earlier bar.warp.sync with this mask arrive (at it or another) */
        w->syncwarp_missing &= ~mask;
        w->syncwarp_waiting |= mask & members;
        if (!w->syncwarp_missing) w->syncwarp_waiting = 0;
        return;
    }
    uint32_t missing = members & hw->alive & ~mask;
    if (missing && !w->syncwarp_missing) {
        w->syncwarp_members = members;
        w->syncwarp_waiting = mask & members;
        w->syncwarp_missing = missing;
        w->syncwarp_insn = in;
    }
}

void exec_warp_wait_parked(exec_wstate *w) {
    w->h.active = 0;
    w->status = EXEC_WARP_BARRIER;
    w->resume_parked = true;
    exec_warp_yield(w);
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
            if (pi->nopnds >= 1 && !exec_dec_src(d, pi, &pi->opnd[0], PTX_T_b32, &out->a[0]))
                return -1;
            out->na = pi->nopnds >= 1;
            out->fn = h_bar_warp;
            return 1;
        }
        if (exec_dec_has_mod_named(pi, "cluster")) {
            /* barrier.cluster.arrive{.release|.relaxed}{.aligned} and
             * barrier.cluster.wait{.acquire}{.aligned}: blocks run on host threads that
             * order their accesses at the cluster's lock, so the orderings are kept */
            out->target = EXEC_CLUSTER_BARRIER;
            if (ptx_insn_has_mod(pi, PTX_MOD_arrive)) {
                out->fn = h_cluster_arrive;
                return 1;
            }
            if (!ptx_insn_has_mod(pi, PTX_MOD_wait))
                return exec_dec_error(d, pi, "barrier.cluster needs .arrive or .wait"), -1;
            out->fn = h_cluster_wait;
            return 1;
        }
        out->fn = h_bar;
        /* bar.sync/red/arrive are barrier.*.aligned: the whole warp executes the same one */
        if (pi->op == PTX_OP_bar || ptx_insn_has_mod(pi, PTX_MOD_aligned)) out->flags |= BAR_ALIGNED;
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
    case PTX_OP_setmaxnreg: /* moves registers between warpgroups: vcuda's registers are not a
                             * shared pool, so no warp ever waits for them */
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

/* Frame 0 of warp w ready for kernel k's function f, as exec_frame_prepare leaves it. Its
 * constant slots stay filled from the worker's earlier blocks of the kernel (no code writes
 * them, and frame 0 is never moved aside), so every block of a launch after a worker's
 * first finds them so: checked here, without the call. */
static inline void prepare_frame0(exec_wstate *w, const exec_func *f, const exec_kernel *k) {
    exec_frame *fr = w->frames_cap ? &w->frames[0] : NULL;
    if (fr && fr->cfunc == f && fr->ckernel == k && fr->clocal == 0 &&
        fr->cserial == k->prog->serial) {
        fr->func = f;
        fr->local_base = 0;
        return;
    }
    exec_frame_prepare(w, 0, f, 0);
}

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
    prepare_frame0(w, f, b->k);
    w->frames[0].rs_base = 0;
    w->frames[0].site = NULL;
    w->h.R = w->frames[0].R;
    w->h.P = w->frames[0].P;
    w->code = f->code;
    if (b->L->observer) exec_warp_enter_code(w, f);
    w->ip = f->code;
    w->rsp = 0;
    w->returned = 0;
    w->spin_count = 0;
    w->spin_waits = 0;
    w->spin_last = 0;
    w->spin_flips_seen = 0;
    w->grid_bar_arrived = w->grid_bar_spin = false;
    w->cl_target = 0;
    w->yield = false;
    w->brk = NULL;
    w->status = EXEC_WARP_RUNNABLE;
    w->clock = clock;
    w->parked = 0;
    w->resume_parked = false;
    w->syncwarp_members = w->syncwarp_waiting = w->syncwarp_missing = 0;
    w->syncwarp_insn = NULL;
    /* only alloca, stacksave and stackrestore read the lanes' stack pointers, and only a
     * kernel whose reachable functions have one (info.dyn_stack) can run them: the others
     * skip the fill, an eighth of a short block's set-up */
    if (b->k->info.dyn_stack)
        for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++) w->sp[l] = b->stack_top;
    w->nparks = 0;
    for (uint32_t c = 0; c < w->nconts; c++) w->conts[c].used = false;
}

/* warps_outlive_fault: the warp that faulted leaves the block like exited threads, so
 * barriers the others wait at can still complete. */
static void retire_faulted_warp(struct exec_block *b, exec_wstate *w) {
    uint32_t n = (uint32_t)__builtin_popcount(w->h.alive);
    w->h.alive = w->h.active = 0;
    w->status = EXEC_WARP_EXITED;
    if (n) exec_block_threads_exited(b, n);
}

/* Can a thread starting at start (in the kernel's own code) execute a barrier before it
 * ends? Calls and indirect branches count as "maybe". Rare path: a plain search. */
static bool may_reach_barrier(const exec_func *f, const exec_insn *start) {
    uint32_t n = f->ncode + 1, *stack = malloc(n * sizeof *stack);
    uint8_t *seen = calloc(n, 1);
    bool maybe = !stack || !seen;
    uint32_t sp = 0;
    if (!maybe) stack[sp++] = (uint32_t)(start - f->code);
    while (!maybe && sp) {
        uint32_t pc = stack[--sp];
        while (pc < f->ncode && !seen[pc]) {
            seen[pc] = 1;
            const exec_insn *in = &f->code[pc];
            if (in->fn == h_bar || in->op == PTX_OP_call || in->op == PTX_OP_brx) {
                maybe = true;
                break;
            }
            if (in->op == PTX_OP_bra) {
                if (in->target >= 0 && sp < n) stack[sp++] = (uint32_t)in->target;
                if (in->guard < 0) break;
            } else if ((in->op == PTX_OP_ret || in->op == PTX_OP_exit || in->op == PTX_OP_trap) &&
                       in->guard < 0) {
                break;
            }
            pc++;
        }
    }
    free(stack);
    free(seen);
    return maybe;
}

/* A warp waiting at a barrier whose other lanes are held back by divergence: can none of
 * those lanes reach a barrier before they end? They wait at a reconvergence point or as a
 * pending path of the warp's (kernel-level) divergences. */
static bool held_back_lanes_end_freely(const exec_wstate *w) {
    if (w->depth != 0) return false;
    const exec_func *f = w->frames[0].func;
    for (uint32_t i = 0; i < w->rsp; i++) {
        const exec_rentry *e = &w->rs[i];
        if (e->pending_mask && may_reach_barrier(f, e->pending_ip)) return false;
        if (e->rpc && may_reach_barrier(f, e->rpc)) return false;
    }
    return true;
}

/* No warp can run, and warps wait at a barrier that not every thread has reached. When the
 * missing threads are lanes of those very warps held back by divergence, and none of them
 * can reach a barrier before it ends (lanes that took an early return, say, while the
 * others went on to __syncthreads), they would run on to their end on sm_70 and later,
 * where each thread is scheduled on its own (before sm_70 a barrier counted whole warps):
 * the barrier completes without them. Returns whether a barrier was released; a barrier
 * the held-back lanes could still reach stays a reported deadlock. */
static bool release_divergent_barrier(struct exec_block *b) {
    for (uint32_t id = 0; id < EXEC_NUM_BARRIERS; id++) {
        exec_barrier *bar = &b->bars[id];
        if (!bar->waiting) continue;
        uint32_t need = bar->expected ? bar->expected : b->live_threads;
        uint32_t held_back = 0;
        bool free_to_end = true;
        for (uint32_t i = 0; i < b->nwarps && free_to_end; i++) {
            const exec_wstate *w = &b->warps[i];
            if (w->status != EXEC_WARP_BARRIER || w->bar_id != id) continue;
            uint32_t lanes = w->h.alive & ~w->bar_mask;
            if (!lanes) continue;
            free_to_end = held_back_lanes_end_freely(w);
            held_back += (uint32_t)__builtin_popcount(lanes);
        }
        if (free_to_end && held_back && bar->arrived + held_back >= need) {
            bar->arrived = need;
            barrier_check(b, id);
            return true;
        }
    }
    return false;
}

static void report_deadlock(struct exec_block *b) {
    for (uint32_t id = 0; id <= EXEC_CLUSTER_BARRIER; id++) {
        const exec_barrier *bar = &b->bars[id];
        if (!bar->waiting && !bar->parked) continue;
        uint32_t need = bar->expected ? bar->expected : b->live_threads;
        char name[32];
        if (id == EXEC_CLUSTER_BARRIER) snprintf(name, sizeof name, "the cluster barrier");
        else snprintf(name, sizeof name, "barrier %u", id);
        /* a warp only part of which waits at an aligned barrier */
        const char *why = b->L->warp_barriers ? "a barrier in divergent code?"
                                               : "at another barrier, or behind lanes of their "
                                                 "warp that wait at this one?";
        for (uint32_t i = 0; i < b->nwarps; i++) {
            const exec_wstate *w = &b->warps[i];
            if (w->status == EXEC_WARP_BARRIER && !w->resume_parked && w->bar_id == id &&
                (w->bar_insn->flags & BAR_ALIGNED) && (w->h.alive & ~w->bar_mask)) {
                why = "part of a warp waits at an aligned barrier (bar.sync: __syncthreads()) "
                      "while its other lanes are elsewhere, which hangs on the GPU; "
                      "cooperative groups' sync() (barrier.sync) lets a warp split";
                break;
            }
        }
        exec_fault_block(b, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                         "%s can never complete: %u of %u threads arrived, and the "
                         "other threads have exited or wait elsewhere (%s)",
                         name, bar->arrived, need, why);
        return;
    }
    exec_fault_block(b, EXEC_FAULT_ILLEGAL_INSTRUCTION, "no warp of the block can run");
}

static exec_fault_kind run_block(exec_worker *wk, const exec_launch *L, exec_dim3 ctaid,
                                 uint32_t smid, exec_output *out, exec_fault *fault) {
    const exec_kernel *k = L->kernel;
    struct exec_block *b = &wk->block;
    fault->kind = EXEC_OK;
    fault->msg[0] = 0;
    /* every field zero, the barriers' too (most of the struct) only where a run loop ran
     * since they were last cleared (exec_worker.bars_dirty) */
    const size_t bars_at = offsetof(struct exec_block, bars), bars_end = bars_at + sizeof b->bars;
    memset(b, 0, bars_at);
    if (wk->bars_dirty) {
        memset(b->bars, 0, sizeof b->bars);
        wk->bars_dirty = false;
    }
    memset((char *)b + bars_end, 0, sizeof *b - bars_end);
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
    /* the ranges cached by earlier blocks hold while no allocation has gone */
    uint64_t epoch = mem_removal_epoch();
    if (wk->range_mem != L->mem || wk->range_epoch != epoch) {
        exec_block_forget_ranges(b);
        wk->range_mem = L->mem;
        wk->range_epoch = epoch;
    }
    if (b->nthreads == 0) return EXEC_OK;
    if (exec_block_aborted(b)) {
        exec_fault_block(b, EXEC_FAULT_ABORTED, "stopped because another block faulted");
        return b->fault_kind;
    }
    /* a grid of blocks that each end at once still ends at its deadline */
    if (L->deadline_ns && exec_block_past_deadline(L)) {
        exec_fault_block(b, EXEC_FAULT_TIMEOUT,
                         "the kernel ran longer than VCUDA_KERNEL_TIMEOUT allows");
        return b->fault_kind;
    }

    /* the window: the device's reserved shared memory, then the user's (static, then
     * dynamic), which the device allocates, and bounds-checks, in whole allocation units:
     * an H200 lets a block of 1,000 bytes touch bytes 1,000-1,023 and faults at 1,024
     * (tests/cuda/conformance/shared_slack.cu); memcheck keeps the exact bounds, as
     * compute-sanitizer does */
    b->shared_size = L->dyn_shared ? k->dyn_base + L->dyn_shared
                                   : k->info.reserved_shared + k->info.static_shared;
    {
        uint32_t unit = b->prog->opts.shared_alloc_unit;
        uint32_t user = b->shared_size - k->info.reserved_shared;
        if (unit > 1 && !L->exact_bounds)
            b->shared_size = k->info.reserved_shared + (user + unit - 1) / unit * unit;
    }
    b->local_stride = k->info.local_per_thread;
    /* recursion goes as deep as cudaLimitStackSize lets it (a GPU's stack overflow) */
    if (k->info.recursive && L->stack_limit)
        b->local_stride = k->info.local_one_pass > L->stack_limit
                              ? k->info.local_one_pass
                              : (L->stack_limit + 15u) & ~15u;
    /* the alloca region: cudaLimitStackSize bytes above the frames (exec/stack.c) */
    b->stack_base = b->stack_top = b->local_stride;
    if (k->info.dyn_stack) {
        b->local_stride += L->stack_limit ? (L->stack_limit + 15u) & ~15u : 1024u;
        b->stack_top = b->local_stride;
    }
    if (!reserve(&wk->shared, &wk->shared_cap, b->shared_size + 1) ||
        !reserve(&wk->local, &wk->local_cap, (size_t)b->nthreads * b->local_stride + 1)) {
        exec_fault_block(b, EXEC_FAULT_ILLEGAL_ADDRESS,
                         "cannot allocate %u bytes of shared and %zu bytes of local memory",
                         b->shared_size, (size_t)b->nthreads * b->local_stride);
        return b->fault_kind;
    }
    b->shared = wk->shared;
    b->local = wk->local;
    /* the reserved words are zero when a block starts (cooperative groups' barriers of
     * tiles wider than a warp count from there) */
    memset(b->shared, 0, k->info.reserved_shared);
    exec_cluster_enter(b); /* its shared memory is the cluster's from now on */

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
    /* the compiled tier, when the program has some of it: the native loop runs each
     * function's code once it is installed (functions arrive one by one, even while the
     * block runs) and interprets the rest; observed blocks (profiler, checker) run in the
     * interpreter, whose events and counters they read, or in instrumented compiled code
     * where the program has it (the tiers agree byte for byte, so blocks of one grid, or
     * warps of one block, may differ); blocks of a program whose code is instrumented run
     * in the interpreter when nothing observes them */
    bool native = exec_program_native_ready(b->prog);
    if (!L->observer && native && !b->prog->instrumented) run = exec_warp_run_native;
    if (L->observer) {
        exec_observe_block_begin(b);
        /* a profiled program's code is instrumented (exec_program_instrument): it tells
         * the observer what this loop would */
        run = native && b->prog->instrumented ? exec_warp_run_native_observed
                                              : exec_warp_run_observed;
    }
    /* the vector tier runs the whole block when the kernel has it; it hands the block to
     * the loop below when a warp meets what it does not run */
    /* (a profiled block that asks only for memory accesses runs the instrumented kind,
     * which counts and reports what the loop would) */
    bool observed_bn = run == exec_warp_run_native_observed && exec_native_block_observable(b);
    exec_native_block_fn bn = run == exec_warp_run_native || observed_bn
                                  ? __atomic_load_n(&k->func->block_native, __ATOMIC_ACQUIRE)
                                  : NULL;
    if (bn && !L->warps_outlive_fault && b->nwarps <= EXEC_WARP_SIZE) {
        int r = bn(b, &exec_native_block_runtime);
        exec_native_returned();
        if (observed_bn) exec_native_observed_block_done(r == 0);
        if (r == 0) goto done;
    }

    wk->bars_dirty = true;
    for (;;) {
        bool ran = false, all_exited = true;
        if (b->cl_waiting) release_cluster_waiters(b);
        for (uint32_t i = 0; i < b->nwarps; i++) {
            exec_wstate *w = &b->warps[i];
            if (w->status == EXEC_WARP_RUNNABLE) {
                if (w->resume_parked) { /* a barrier completed: on to its parked path */
                    w->resume_parked = false;
                    w->yield = false;
                    exec_warp_path_done(w);
                }
                if (w->status == EXEC_WARP_RUNNABLE) {
                    size_t printed = b->out->len;
                    run(w);
                    /* after device launches, output is ordered by launch epoch
                     * (exec/devrt.c) */
                    if (b->devrt && b->out->len != printed) exec_devrt_note_output(b, i, printed);
                }
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
            if (wait_for_cluster(b)) {
                if (exec_block_aborted(b)) {
                    exec_fault_block(b, EXEC_FAULT_ABORTED, "stopped because another block faulted");
                    break;
                }
                if (L->deadline_ns && exec_block_past_deadline(L)) {
                    exec_fault_block(b, EXEC_FAULT_TIMEOUT,
                                     "the kernel ran longer than VCUDA_KERNEL_TIMEOUT allows");
                    break;
                }
                continue;
            }
            if (release_divergent_barrier(b)) continue;
            report_deadlock(b);
            break;
        }
        if (exec_block_aborted(b)) {
            /* (a fault of this block already recorded stays the one reported) */
            exec_fault_block(b, EXEC_FAULT_ABORTED, "stopped because another block faulted");
            break;
        }
        /* Warps come back here at barriers and every EXEC_TIME_SLICE instructions, so a
         * block that never ends still reads the clock now and then. */
        if (L->deadline_ns && exec_block_past_deadline(L)) {
            exec_fault_block(b, EXEC_FAULT_TIMEOUT,
                             "the kernel ran longer than VCUDA_KERNEL_TIMEOUT allows");
            break;
        }
    }
done:
    exec_devrt_block_end(b);
    if (L->observer) exec_observe_block_end(b, start);
    for (uint32_t i = 0; i < b->nwarps; i++) wk->insn_count += b->warps[i].clock - start;
    return b->fault_kind;
}

exec_fault_kind exec_run_block(exec_worker *wk, const exec_launch *L, exec_dim3 ctaid,
                               uint32_t smid, exec_output *out, exec_fault *fault) {
    exec_fault_kind k = run_block(wk, L, ctaid, smid, out, fault);
    /* the other blocks of its cluster no longer wait for it, nor reach its memory (which
     * stays where it is until the cluster is over: its worker runs no other block) */
    if (L->cluster) {
        wk->block.cl_rank = exec_cluster_rank(L->cluster_dim, ctaid);
        exec_cluster_leave(&wk->block);
    }
    return k;
}
