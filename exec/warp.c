/* exec/warp.c — running one warp: the dispatch loop, call frames and the reconvergence
 * stack.
 *
 * The loop is a fetch / guard / dispatch over pre-decoded instructions. Everything that
 * is not a plain instruction — reaching a reconvergence point, a barrier, an exit, a
 * fault, the end of a time slice — is found by one pointer compare at fetch: brk is the
 * reconvergence pc on top of the stack, or the next pc when a handler asked the warp to
 * leave the loop (exec_warp_yield).
 *
 * Divergence follows the immediate post-dominator scheme: a divergent branch pushes an
 * entry {rpc, restore mask, pending path}; the warp runs one side, then the other, and
 * the lanes meet again at rpc. Lanes that exit leave every mask; lanes that return wait
 * in `returned` until the whole call returns.
 */
#include "core.h"
#include "observe.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

void exec_warp_update_brk(exec_wstate *w) {
    if (w->yield) {
        w->brk = w->ip;
        return;
    }
    w->brk = w->rsp > w->frames[w->depth].rs_base ? w->rs[w->rsp - 1].rpc : NULL;
}

/* Copy the callee's return parameters to the caller's variables and resume the caller.
 * Returns the lanes active in the caller afterwards. */
static uint32_t return_from_call(exec_wstate *w) {
    exec_frame *fr = &w->frames[w->depth];
    exec_frame *caller = &w->frames[w->depth - 1];
    const exec_callsite *cs = fr->site;
    uint32_t lanes = fr->call_mask & w->h.alive;
    if (lanes && cs) {
        const exec_func *callee = fr->func;
        uint32_t n = cs->nrets < callee->pf->nrets ? cs->nrets : callee->pf->nrets;
        for (uint32_t r = 0; r < n; r++) {
            uint32_t size = cs->ret_size[r];
            if (callee->pf->rets[r].size < size) size = (uint32_t)callee->pf->rets[r].size;
            uint32_t from = fr->local_base + callee->ret_off[r];
            uint32_t to = caller->local_base + cs->ret_off[r];
            EXEC_FOR_LANES(lanes, lane) {
                uint8_t *t = exec_lane_local(w, lane, 0);
                memcpy(t + to, t + from, size);
            }
        }
    }
    w->depth--;
    w->rsp = fr->rs_base;
    w->returned = fr->saved_returned;
    w->h.active = fr->restore_mask & w->h.alive & ~w->returned;
    w->h.R = caller->R;
    w->h.P = caller->P;
    exec_warp_enter_code(w, caller->func);
    w->ip = fr->ret_ip;
    exec_warp_update_brk(w);
    return w->h.active;
}

/* Lanes waiting at a __syncwarp and lanes it names that never executed one meet at a
 * reconvergence point: on the GPU the first wait at the __syncwarp, the others at that
 * point, for ever. */
__attribute__((noinline)) static void syncwarp_never_met(exec_wstate *w) {
    char detail[200];
    snprintf(detail, sizeof detail,
             "__syncwarp (bar.warp.sync) can never complete: lanes 0x%08x wait at it for lanes "
             "0x%08x of its mask 0x%08x, which went on without executing one",
             w->syncwarp_waiting, w->syncwarp_missing, w->syncwarp_members);
    const exec_insn *at = w->syncwarp_insn;
    uint32_t lane = (uint32_t)__builtin_ctz(w->syncwarp_waiting);
    w->syncwarp_missing = w->syncwarp_waiting = 0;
    exec_fault_at(&w->h, at, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION, detail);
}

void exec_warp_path_done(exec_wstate *w) {
    for (;;) {
        const exec_frame *fr = &w->frames[w->depth];
        if (w->rsp > fr->rs_base) {
            exec_rentry *e = &w->rs[w->rsp - 1];
            uint32_t live = e->pending_mask & w->h.alive & ~w->returned;
            if (live) {
                if (__builtin_expect((live & w->parked) != 0, 0)) {
                    /* A path that met the others where their threads end (an early return
                     * joining the kernel's exit) leaves now, as independently scheduled
                     * threads would, rather than wait for lanes parked at a barrier that
                     * may be waiting for it. */
                    if (w->h.active && w->ip == e->rpc && exec_ends_thread(w, e->rpc)) {
                        exec_warp_exit_lanes(w, w->h.active);
                        return;
                    }
                    exec_warp_wait_parked(w); /* they wait at a barrier: so does the warp */
                    return;
                }
                e->pending_mask = 0;
                e->pending_at_sync = false;
                w->h.active = live;
                w->ip = e->pending_ip;
                exec_warp_update_brk(w);
                return;
            }
            w->rsp--;
            uint32_t act = e->restore_mask & w->h.alive & ~w->returned;
            if (act) {
                if (!e->rpc) {
                    /* lanes whose paths end at function exit, yet still running: only
                     * possible when a path runs off the end of the code */
                    w->h.active = act;
                    exec_fault_at(&w->h, w->ip > w->code ? w->ip - 1 : w->ip,
                                  (uint32_t)__builtin_ctz(act), EXEC_FAULT_INVALID_PC,
                                  "lanes lost their reconvergence point");
                    return;
                }
                w->h.active = act;
                w->ip = e->rpc;
                if (__builtin_expect(w->syncwarp_missing != 0, 0) &&
                    (act & w->syncwarp_missing) && (act & w->syncwarp_waiting)) {
                    syncwarp_never_met(w);
                    return;
                }
                exec_warp_update_brk(w);
                return;
            }
            continue;
        }
        if (w->depth > 0) {
            if (return_from_call(w)) return;
            continue;
        }
        /* nothing left in the kernel: every lane has exited */
        w->h.active = 0;
        w->status = EXEC_WARP_EXITED;
        exec_warp_yield(w);
        return;
    }
}

/* Lanes of one warp can run as separate paths that meet only at the function's end:
 * lanes let past a meeting point ahead of lanes that spin (exec/control.c), or lanes that
 * went on from a barrier apart from the others (exec/block.c). A warp collective waits
 * until every non-exited lane its membermask names executes it (PTX ISA, shfl.sync and
 * the other .sync instructions), which brings them together again. So when the lanes
 * named but not executing are the pending path of the innermost divergence, the
 * executing lanes wait at the collective and that path runs; when it reaches the same
 * collective, both run it as one path from there on. Named lanes with no path to run
 * (waiting at a meeting point, parked at a barrier) are not waited for: the collective
 * runs without them, as before, and the membermask checker reports it. */
bool exec_warp_sync_meet(exec_wstate *w, const exec_insn *in, uint32_t members) {
    const exec_frame *fr = &w->frames[w->depth];
    if (w->rsp <= fr->rs_base) return false;
    uint32_t live = w->h.alive & ~w->returned;
    uint32_t missing = members & live & ~w->h.active;
    if (!missing) return false;
    exec_rentry *e = &w->rs[w->rsp - 1];
    uint32_t pend = e->pending_mask & live;
    if (!(pend & missing) || (pend & w->parked)) return false;
    if (e->pending_at_sync) {
        if (e->pending_ip != in) return false; /* they wait at another collective */
        /* they wait here: one path runs it again, all of them together */
        e->pending_mask = 0;
        e->pending_at_sync = false;
        w->h.active |= pend;
        w->ip = in;
        exec_warp_yield(w); /* (compiled code goes back to the core to run it) */
        return true;
    }
    const exec_insn *ip = e->pending_ip;
    e->pending_ip = in;
    e->pending_mask = w->h.active;
    e->pending_at_sync = true;
    w->h.active = pend;
    w->ip = ip;
    exec_warp_yield(w);
    return true;
}

void exec_warp_exit_lanes(exec_wstate *w, uint32_t mask) {
    mask &= w->h.alive;
    w->h.alive &= ~mask;
    /* lanes that exit owe no __syncwarp, nor wait at one */
    if (__builtin_expect(w->syncwarp_missing != 0, 0)) {
        w->syncwarp_missing &= ~mask;
        w->syncwarp_waiting &= ~mask;
        if (!w->syncwarp_missing || !w->syncwarp_waiting)
            w->syncwarp_missing = w->syncwarp_waiting = 0;
    }
    w->h.active &= ~mask;
    exec_block_threads_exited(w->h.block, (uint32_t)__builtin_popcount(mask));
    if (!w->h.active) exec_warp_path_done(w);
}

static void fill_constants(exec_frame *fr, const exec_func *f, const exec_kernel *k,
                           uint32_t local_base) {
    for (uint32_t i = 0; i < f->nconsts; i++) {
        const exec_const *c = &f->consts[i];
        uint64_t v = c->value;
        switch (c->kind) {
        case EXEC_CK_LOCAL: v += local_base; break;
        case EXEC_CK_SHARED: v += k->shared_off[c->sid]; break;
        case EXEC_CK_DYN_SHARED: v += k->dyn_base; break;
        default: break;
        }
        uint64_t *r = fr->R + (size_t)c->slot * EXEC_WARP_SIZE;
        for (unsigned l = 0; l < EXEC_WARP_SIZE; l++) r[l] = v;
    }
    fr->P[f->pred_false] = 0;
    fr->P[f->pred_true] = EXEC_FULL_MASK;
}

bool exec_frame_prepare(exec_wstate *w, uint32_t depth, const exec_func *f,
                        uint32_t local_base) {
    if (depth >= w->frames_cap) {
        uint32_t cap = w->frames_cap ? w->frames_cap * 2 : 4;
        while (cap <= depth) cap *= 2;
        exec_frame *nf = realloc(w->frames, cap * sizeof *nf);
        if (!nf) abort();
        memset(nf + w->frames_cap, 0, (cap - w->frames_cap) * sizeof *nf);
        w->frames = nf;
        w->frames_cap = cap;
    }
    exec_frame *fr = &w->frames[depth];
    if (fr->R_cap < f->nslots) {
        free(fr->R);
        size_t bytes = (size_t)f->nslots * EXEC_WARP_SIZE * sizeof(uint64_t);
        fr->R = aligned_alloc(64, bytes);
        if (!fr->R) abort();
        memset(fr->R, 0, bytes);
        fr->R_cap = f->nslots;
        fr->cfunc = NULL;
    }
    if (fr->P_cap < f->npreds) {
        free(fr->P);
        fr->P = calloc(f->npreds, sizeof *fr->P);
        if (!fr->P) abort();
        fr->P_cap = f->npreds;
        fr->cfunc = NULL;
    }
    const exec_kernel *k = w->h.block->k;
    uint64_t serial = k->prog->serial;
    if (fr->cfunc != f || fr->cserial != serial || fr->clocal != local_base || fr->ckernel != k) {
        fill_constants(fr, f, k, local_base);
        fr->cfunc = f;
        fr->cserial = serial;
        fr->clocal = local_base;
        fr->ckernel = k;
    }
    fr->func = f;
    fr->local_base = local_base;
    return true;
}

void exec_warp_enter_code(exec_wstate *w, const exec_func *f) {
    w->code = f->code;
    struct exec_block *b = w->h.block;
    if (!b->L->observer) return;
    w->tally = exec_observe_tally(b, f);
    exec_warp_pick_events(w);
}

void exec_warp_pick_events(exec_wstate *w) {
    const struct exec_block *b = w->h.block;
    w->insn_events = b->L->observer->insn &&
                     (!w->tally || ((b->obs_events & EXEC_OBS_EV_INSN) &&
                                    w->clock <= w->insn_events_until));
    /* every instruction when each is an event (but those the decoder inserted) */
    w->obs_calls = w->insn_events ? ~(1u << EXEC_OBS_K_HIDDEN) : b->obs_calls;
}

/* The run loop, written once and compiled several times (exec_warp_run,
 * exec_warp_run_observed): with observed a constant false the event call disappears, so an
 * unobserved run pays nothing per instruction for the observer's existence. hw_popcount:
 * count lanes with the CPU's instruction (only in a copy compiled for it). */
static inline __attribute__((always_inline)) void run_loop(exec_wstate *w, const bool observed,
                                                           const bool hw_popcount) {
    w->slice_start = w->clock;
    for (;;) {
        const exec_insn *in = w->ip;
        if (__builtin_expect(in == w->brk, 0)) {
            if (exec_warp_at_brk(w)) return;
            continue;
        }
        w->ip = in + 1;
        w->clock++;
        uint32_t m = w->h.active;
        if (in->guard >= 0) {
            uint32_t p = w->h.P[in->guard];
            m &= in->guard_neg ? ~p : p;
        }
        if (observed) {
            /* counted here, without a call, when the observer keeps a tally */
            struct exec_insn_tally *t = w->tally;
            if (t && in->obs != EXEC_OBS_K_HIDDEN)
                exec_tally_count(t + in->src_index, in->obs == EXEC_OBS_K_BRANCH, w->h.active, m,
                                 hw_popcount);
            if ((w->obs_calls >> in->obs) & 1u) exec_observe_insn(w, in, m);
        }
        if (__builtin_expect(m != 0, 1)) in->fn(&w->h, in, m);
    }
}

void exec_warp_run(exec_wstate *w) { run_loop(w, false, false); }

#if defined(__x86_64__) && defined(__GNUC__)
/* Observed runs count the lanes of every partial warp's instruction: on a CPU with a
 * popcount instruction (the baseline x86-64 target has none), a copy that uses it. */
__attribute__((target("popcnt"))) static void run_observed_popcnt(exec_wstate *w) {
    run_loop(w, true, true);
}

void exec_warp_run_observed(exec_wstate *w) {
    static _Atomic int has_popcnt = -1; /* -1: not asked yet */
    int has = atomic_load_explicit(&has_popcnt, memory_order_relaxed);
    if (has < 0) { /* (libgcc's constructor has read the CPU's features by now) */
        has = __builtin_cpu_supports("popcnt") ? 1 : 0;
        atomic_store_explicit(&has_popcnt, has, memory_order_relaxed);
    }
    if (has)
        run_observed_popcnt(w);
    else
        run_loop(w, true, false);
}
#else
void exec_warp_run_observed(exec_wstate *w) { run_loop(w, true, false); }
#endif
