/* exec/control.c — control flow: bra (uniform and divergent), call/ret to .func bodies
 * (direct and through function pointers, with per-call .param frames in local memory),
 * exit, trap, brkpt, and the builtin callees (vprintf, __assertfail, malloc, free; the
 * device runtime's are in exec/devrt.c).
 */
#include "core.h"
#include "observe.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- bra ---- */

/* Independent thread scheduling. Since Volta the lanes of a diverged warp make progress
 * independently, so a lane may spin until another lane of its own warp does something: a
 * lock taken with atomicCAS by every thread (`while (atomicCAS(&m, 0, 1)) ;` compiles to
 * a two-instruction loop; the winner waits at the loop's exit, the reconvergence point,
 * while the losers spin). The reconvergence stack alone would never run the winner.
 * So when a path that may be spinning (the loop body reads memory other threads write:
 * see loop_may_spin) has gone round EXEC_SPIN_LIMIT times in a row, or used up a time
 * slice, while other lanes of the warp wait, those lanes run instead: the pending side of
 * the divergence if it has not run yet (the two sides swap; they still meet at the same
 * point), or else the lanes waiting at the reconvergence point go on past it, and the
 * spinning lanes become a pending path that meets them at the next reconvergence point out
 * (or at the function's end). Where that next point out is the same point, the enclosing
 * divergence is asked instead, and so on outwards: lane 0 of `if (lane == 0) A; else if
 * (lane >= 4) B;` may be what B's lanes spin for, while lanes 1-3 only wait. */
__attribute__((noinline)) static void run_waiting_lanes(exec_wstate *w) {
    const exec_frame *fr = &w->frames[w->depth];
    uint32_t live = w->h.alive & ~w->returned;
    for (;;) {
        if (w->rsp <= fr->rs_base) break;
        exec_rentry *e = &w->rs[w->rsp - 1];
        uint32_t pending = e->pending_mask & live;
        if (pending & w->parked) break; /* they wait at a barrier (exec/block.c) */
        if (pending) {
            const exec_insn *ip = e->pending_ip;
            e->pending_ip = w->ip;
            e->pending_mask = w->h.active;
            e->pending_at_sync = false;
            w->h.active = pending;
            w->ip = ip;
            break;
        }
        uint32_t waiting = e->restore_mask & live & ~w->h.active;
        if (!waiting || !e->rpc) break;
        const exec_insn *outer = w->rsp - 1 > fr->rs_base ? w->rs[w->rsp - 2].rpc : NULL;
        if (outer == e->rpc) {
            /* Nested divergences that meet at one point (if (a) ... else if (b) ...):
             * letting the waiting lanes past it would only bring them back to it. They
             * wait there for the enclosing divergence, whose entry names them too (its
             * restore mask holds every lane of this one), so this entry goes and the
             * enclosing one is asked: its pending side may be what the spinners wait
             * for (the lanes of an else-if's first branch, when the second spins). */
            w->rsp--;
            continue;
        }
        const exec_insn *rpc = e->rpc;
        e->rpc = outer;
        e->pending_ip = w->ip;
        e->pending_mask = w->h.active;
        e->pending_at_sync = false;
        e->ahead_of_spinners = true;
        w->h.active = waiting;
        w->ip = rpc;
        break;
    }
    exec_warp_update_brk(w);
}

/* A turn of a spin-wait in a grid whose blocks all run at once, each on its own host
 * thread (a cooperative launch): what it waits for is another block's doing, so every 8
 * turns the thread sleeps until the grid barrier completes or for a while (the grid's
 * choice, exec_coresident), leaving the host's cores to the blocks that still have work.
 * A turn more than 64 instructions after the last one starts a new wait. A wait that
 * begins after the warp arrived at the grid barrier polls the barrier's word: nothing but
 * the barrier's completion ends it, so the thread sleeps until then (round 0), instead of
 * waking every millisecond or so to look (with hundreds of blocks on two cores, those
 * wake-ups were most of a cooperative launch's time). */
__attribute__((noinline)) static void coresident_spin(exec_wstate *w) {
    if (w->clock - w->spin_last > 64) {
        w->spin_waits = 0;
        w->grid_bar_spin = w->grid_bar_arrived;
        w->grid_bar_arrived = false;
    }
    w->spin_last = w->clock;
    if (++w->spin_waits % 8) return;
    const exec_coresident *co = w->h.block->L->coresident;
    co->wait(co->ctx, w->grid_bar_spin ? 0 : w->spin_waits / 8, &w->spin_flips_seen);
}

/* A turn of a spin-wait in a block of a cluster: what it waits for may be another block's
 * doing (a remote mbarrier arrive, a flag in distributed shared memory), so every 8 turns
 * the thread naps, leaving the host's cores to the cluster's other blocks. */
__attribute__((noinline)) static void cluster_spin(exec_wstate *w) {
    if (w->clock - w->spin_last > 64) w->spin_waits = 0;
    w->spin_last = w->clock;
    if (++w->spin_waits % 8) return;
    exec_cluster_nap(w->h.block, w->spin_waits / 8);
}

/* One turn of a loop that may be a spin-wait: every lane of the path went round again
 * (uniform), or some left it (the count starts over). A path stuck going round while
 * other lanes of its warp wait lets them run. */
__attribute__((noinline)) static void spin_turn(exec_wstate *w, bool uniform) {
    if (w->h.block->L->coresident) coresident_spin(w);
    else if (w->h.block->L->cluster) cluster_spin(w);
    if (!uniform) {
        w->spin_count = 0;
    } else if (++w->spin_count >= EXEC_SPIN_LIMIT) {
        w->spin_count = 0;
        run_waiting_lanes(w);
    }
}

/* Rare work at a backward branch: a launch being aborted, or a warp that has run long
 * enough to let its siblings run (spin-waits), and its own waiting lanes if this loop may
 * be waiting for them. */
__attribute__((noinline)) static void backward_branch(exec_wstate *w, const exec_insn *in) {
    if (exec_block_aborted(w->h.block)) {
        exec_warp_stop_aborted(w);
    } else if (w->clock - w->slice_start > EXEC_TIME_SLICE) {
        if (in->flags & EXEC_F_SPIN) {
            w->spin_count = 0;
            run_waiting_lanes(w);
        }
        exec_warp_yield(w);
    }
}

void exec_warp_push_divergence(exec_wstate *w, const exec_insn *rpc, uint32_t restore,
                               const exec_insn *pending_ip, uint32_t pending_mask) {
    if (w->rsp == w->rs_cap) {
        uint32_t cap = w->rs_cap ? w->rs_cap * 2 : 16;
        exec_rentry *n = realloc(w->rs, cap * sizeof *n);
        if (!n) abort();
        w->rs = n;
        w->rs_cap = cap;
    }
    exec_rentry *e = &w->rs[w->rsp++];
    e->rpc = rpc;
    e->restore_mask = restore;
    e->pending_ip = pending_ip;
    e->pending_mask = pending_mask;
    e->ahead_of_spinners = false;
    e->pending_at_sync = false;
}

/* Where the paths of divergent branch in meet again: its immediate post-dominator, or
 * when that is the function's exit, the enclosing divergence's meeting point (the lanes
 * that never get there leave by ret or exit). */
static const exec_insn *reconv_point(const exec_wstate *w, const exec_insn *in) {
    if (in->reconv >= 0) return w->code + in->reconv;
    if (w->rsp > w->frames[w->depth].rs_base) return w->rs[w->rsp - 1].rpc;
    return NULL; /* the paths meet only when they return or exit */
}

static void h_exit(exec_warp *hw, const exec_insn *in, uint32_t mask);

static void h_bra(exec_warp *hw, const exec_insn *in, uint32_t mask);

/* Does the thread end at p (an unguarded exit, or ret from the kernel), perhaps after a
 * few unconditional branches (code built with -G returns through a shared ret block)? */
bool exec_ends_thread(const exec_wstate *w, const exec_insn *p) {
    for (unsigned hops = 0; hops < 8 && p->guard < 0; hops++) {
        if (p->fn == h_exit || (p->fn == exec_h_ret && w->depth == 0)) return true;
        if (p->fn != h_bra) return false;
        p = w->code + p->target;
    }
    return false;
}

__attribute__((noinline)) static void diverge(exec_wstate *w, const exec_insn *in,
                                              uint32_t taken, const exec_insn *target) {
    uint32_t not_taken = w->h.active & ~taken;
    const exec_insn *fall = w->ip;
    /* A side that goes straight to the thread's end exits now rather than waiting for the
     * other side: with independent thread scheduling those threads are gone, so they
     * must not hold up a barrier the other side reaches (if (i >= n) return; ...). */
    if (exec_ends_thread(w, target)) {
        exec_warp_exit_lanes(w, taken);
        return;
    }
    if (exec_ends_thread(w, fall)) {
        w->ip = target;
        exec_warp_exit_lanes(w, not_taken);
        return;
    }
    const exec_insn *rpc = reconv_point(w, in);
    uint32_t restore = w->h.active;
    if (fall == rpc) { /* if-then: the not-taken lanes simply wait at rpc */
        exec_warp_push_divergence(w, rpc, restore, NULL, 0);
        w->h.active = taken;
        w->ip = target;
    } else if (target == rpc) {
        exec_warp_push_divergence(w, rpc, restore, NULL, 0);
        w->h.active = not_taken;
    } else { /* fall-through side first, then the taken side */
        exec_warp_push_divergence(w, rpc, restore, target, taken);
        w->h.active = not_taken;
    }
    exec_warp_update_brk(w);
}

static void h_bra(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const exec_insn *target = w->code + in->target;
    if (mask == hw->active) w->ip = target;
    else diverge(w, in, mask, target);
    if (in->flags & EXEC_F_BACKWARD) {
        if (__builtin_expect(exec_block_aborted(hw->block) ||
                                 w->clock - w->slice_start > EXEC_TIME_SLICE, 0))
            backward_branch(w, in);
        else if (__builtin_expect(in->flags & EXEC_F_SPIN, 0))
            spin_turn(w, mask == hw->active);
    }
}

/* brx.idx: each lane jumps to the table entry its index names. Lanes bound for the first
 * lane's target go now; the others wait as a pending path that runs this brx again. */
static void h_brx(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const int32_t *table = w->frames[w->depth].func->jump_tables + in->target;
    uint32_t first = (uint32_t)__builtin_ctz(mask);
    uint32_t group = 0;
    uint64_t idx0 = (uint32_t)EXEC_R(hw, in->a[0], first);
    EXEC_FOR_LANES(mask, lane) {
        uint64_t idx = (uint32_t)EXEC_R(hw, in->a[0], lane);
        if (idx >= in->aux) {
            exec_fault_at(hw, in, lane, EXEC_FAULT_INVALID_PC, "brx.idx index out of range");
            return;
        }
        if (idx == idx0) group |= 1u << lane;
    }
    const exec_insn *target = w->code + table[idx0];
    if (group != hw->active) {
        const exec_insn *rpc = reconv_point(w, in);
        if (mask != hw->active) { /* guarded: the lanes whose guard fails fall through */
            exec_warp_push_divergence(w, rpc, hw->active, w->ip, hw->active & ~mask);
            hw->active = mask;
        }
        if (group != mask) { /* the lanes bound elsewhere run this brx again */
            exec_warp_push_divergence(w, rpc, mask, in, mask & ~group);
            hw->active = group;
        }
        exec_warp_update_brk(w);
    }
    w->ip = target;
    if (exec_block_aborted(hw->block) || w->clock - w->slice_start > EXEC_TIME_SLICE)
        backward_branch(w, in);
}

/* ---- exit / ret / trap ---- */

static void h_exit(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    (void)in;
    exec_warp_exit_lanes(exec_ws(hw), mask);
}

void exec_h_ret(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    (void)in;
    if (w->depth == 0) { /* ret from a kernel ends the thread */
        exec_warp_exit_lanes(w, mask);
        return;
    }
    w->returned |= mask;
    hw->active &= ~mask;
    if (!hw->active) exec_warp_path_done(w);
}

static void h_trap(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_fault_at(hw, in, (uint32_t)__builtin_ctz(mask), EXEC_FAULT_TRAP,
                  in->op == PTX_OP_brkpt ? "brkpt instruction executed" :
                                           "trap instruction executed");
}

/* ---- call ---- */

static void do_call(exec_wstate *w, const exec_insn *in, const exec_callsite *cs,
                    const exec_func *callee, uint32_t mask) {
    struct exec_block *b = w->h.block;
    const exec_frame *cur = &w->frames[w->depth];
    uint32_t base = cur->local_base + cur->func->frame_size;
    if (w->depth + 1 >= EXEC_MAX_CALL_DEPTH ||
        (uint64_t)base + callee->frame_size > b->local_stride) {
        char detail[160];
        snprintf(detail, sizeof detail, "stack overflow calling '%s' at call depth %u",
                 callee->pf->name, w->depth + 1);
        exec_fault_at(&w->h, in, (uint32_t)__builtin_ctz(mask), EXEC_FAULT_STACK_OVERFLOW,
                      detail);
        return;
    }
    exec_frame_prepare(w, w->depth + 1, callee, base);
    cur = &w->frames[w->depth]; /* the frame array may have moved */
    exec_frame *fr = &w->frames[w->depth + 1];
    uint32_t n = cs->nargs < callee->pf->nparams ? cs->nargs : callee->pf->nparams;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t size = cs->arg_size[i];
        if (callee->pf->params[i].size < size) size = (uint32_t)callee->pf->params[i].size;
        uint32_t from = cur->local_base + cs->arg_off[i];
        uint32_t to = base + callee->param_off[i];
        EXEC_FOR_LANES(mask, lane) {
            uint8_t *t = exec_lane_local(w, lane, 0);
            memcpy(t + to, t + from, size);
        }
    }
    fr->ret_ip = w->ip;
    fr->site = cs;
    fr->restore_mask = w->h.active;
    fr->call_mask = mask;
    fr->saved_returned = w->returned;
    fr->rs_base = w->rsp;
    w->depth++;
    w->returned = 0;
    w->h.active = mask;
    w->h.R = fr->R;
    w->h.P = fr->P;
    exec_warp_enter_code(w, callee);
    w->ip = callee->code;
    exec_warp_update_brk(w);
}

static void h_call(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const exec_callsite *cs = &w->frames[w->depth].func->calls[in->target];
    do_call(w, in, cs, cs->callee, mask);
}

static void run_builtin(exec_wstate *w, const exec_insn *in, const exec_callsite *cs,
                        int builtin, uint32_t mask);

/* Through a function pointer: lanes may name different functions. The lanes of the first
 * lane's target go now; the rest wait as a pending path that re-runs this call when the
 * first group is back at the next instruction. */
static void h_call_indirect(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const exec_callsite *cs = &w->frames[w->depth].func->calls[in->target];
    uint32_t first = (uint32_t)__builtin_ctz(mask);
    uint64_t token = EXEC_R(hw, cs->target_slot, first);
    uint32_t group = 0;
    EXEC_FOR_LANES(mask, lane)
        if (EXEC_R(hw, cs->target_slot, lane) == token) group |= 1u << lane;
    const exec_program *p = hw->block->prog;
    int64_t idx = exec_func_token_index(token);
    const exec_func *callee = NULL;
    if (idx >= 0 && (uint64_t)idx < p->m->nfuncs) callee = exec_program_func(p, (uint32_t)idx);
    if (!callee || (!callee->code && !callee->builtin) || callee->pf->is_entry) {
        char detail[120];
        snprintf(detail, sizeof detail, "indirect call to 0x%llx, which is not a function",
                 (unsigned long long)token);
        exec_fault_at(hw, in, first, EXEC_FAULT_INVALID_PC, detail);
        return;
    }
    if (group != mask) {
        exec_warp_push_divergence(w, w->ip, hw->active, in, mask & ~group);
        hw->active = group;
        exec_warp_update_brk(w);
    }
    if (callee->builtin) run_builtin(w, in, cs, callee->builtin, group);
    else do_call(w, in, cs, callee, group);
}

/* ---- builtins ---- */

static uint64_t arg_u64(exec_wstate *w, const exec_callsite *cs, uint32_t lane, uint32_t i) {
    uint64_t v = 0;
    if (i < cs->nargs) {
        uint32_t n = cs->arg_size[i] < 8 ? cs->arg_size[i] : 8;
        memcpy(&v, exec_lane_local(w, lane, w->frames[w->depth].local_base + cs->arg_off[i]), n);
    }
    return v;
}

static void set_ret(exec_wstate *w, const exec_callsite *cs, uint32_t lane, uint64_t v) {
    if (cs->nrets == 0) return;
    uint32_t n = cs->ret_size[0] < 8 ? cs->ret_size[0] : 8;
    memcpy(exec_lane_local(w, lane, w->frames[w->depth].local_base + cs->ret_off[0]), &v, n);
}

/* A NUL-terminated string argument for diagnostics; "" when it cannot be read. */
static const char *string_arg(exec_wstate *w, uint32_t lane, uint64_t addr, char *buf,
                              size_t n) {
    const char *p;
    long len = exec_mem_string(w, lane, addr, &p);
    if (len < 0) return "";
    if ((size_t)len >= n) len = (long)n - 1;
    memcpy(buf, p, (size_t)len);
    buf[len] = 0;
    return buf;
}

static void assert_fail(exec_wstate *w, const exec_insn *in, const exec_callsite *cs,
                        uint32_t mask) {
    struct exec_block *b = w->h.block;
    char msg[256], file[256], func[256];
    EXEC_FOR_LANES(mask, lane) {
        exec_dim3 t = exec_thread_of(b, w->h.warp_in_block, lane);
        exec_output_err_printf(b->out,
                           "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` "
                           "failed.\n",
                           string_arg(w, lane, arg_u64(w, cs, lane, 1), file, sizeof file),
                           (unsigned)arg_u64(w, cs, lane, 2),
                           string_arg(w, lane, arg_u64(w, cs, lane, 3), func, sizeof func),
                           b->ctaid.x, b->ctaid.y, b->ctaid.z, t.x, t.y, t.z,
                           string_arg(w, lane, arg_u64(w, cs, lane, 0), msg, sizeof msg));
    }
    uint32_t first = (uint32_t)__builtin_ctz(mask);
    char detail[300];
    snprintf(detail, sizeof detail, "assertion `%s` failed",
             string_arg(w, first, arg_u64(w, cs, first, 0), msg, sizeof msg));
    exec_fault_at(&w->h, in, first, EXEC_FAULT_ASSERT, detail);
}

static void device_malloc(exec_wstate *w, const exec_insn *in, const exec_callsite *cs,
                          uint32_t mask) {
    EXEC_FOR_LANES(mask, lane) {
        uint64_t size = arg_u64(w, cs, lane, 0);
        uint64_t p = exec_heap_malloc(w->h.block->L, size); /* 0 (NULL): the heap is full */
        set_ret(w, cs, lane, p);
        exec_observe_heap(w, in, EXEC_OBS_MALLOC, lane, p, size);
    }
}

static void device_free(exec_wstate *w, const exec_insn *in, const exec_callsite *cs,
                        uint32_t mask) {
    EXEC_FOR_LANES(mask, lane) {
        uint64_t ptr = arg_u64(w, cs, lane, 0);
        if (!ptr) continue;
        exec_observe_heap(w, in, EXEC_OBS_FREE, lane, ptr, 0);
        if (!exec_heap_free(w->h.block->L, ptr)) {
            char detail[120];
            snprintf(detail, sizeof detail,
                     "free of 0x%llx, which was not returned by device malloc",
                     (unsigned long long)ptr);
            exec_fault_at(&w->h, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, detail);
            return;
        }
    }
}

static void run_builtin(exec_wstate *w, const exec_insn *in, const exec_callsite *cs,
                        int builtin, uint32_t mask) {
    switch (builtin) {
    case EXEC_BUILTIN_VPRINTF:
        EXEC_FOR_LANES(mask, lane) {
            int r = exec_vprintf_lane(w, in, lane, arg_u64(w, cs, lane, 0),
                                      arg_u64(w, cs, lane, 1));
            if (w->h.fault) return;
            set_ret(w, cs, lane, (uint32_t)r);
        }
        break;
    case EXEC_BUILTIN_ASSERTFAIL: assert_fail(w, in, cs, mask); break;
    case EXEC_BUILTIN_MALLOC: device_malloc(w, in, cs, mask); break;
    case EXEC_BUILTIN_FREE: device_free(w, in, cs, mask); break;
    default:
        if (builtin >= EXEC_BUILTIN_DEVRT_FIRST) exec_devrt_call(w, in, cs, builtin, mask);
        break;
    }
}

static void h_call_builtin(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const exec_callsite *cs = &w->frames[w->depth].func->calls[in->target];
    run_builtin(w, in, cs, (int)in->aux, mask);
}

/* ---- decoding ---- */

static bool param_list(exec_decoder *d, const ptx_insn *pi, const ptx_operand *list,
                       uint32_t *n, uint32_t **off, uint32_t **size) {
    *n = 0;
    *off = *size = NULL;
    if (!list) return true;
    *off = calloc(list->vec_n + 1, sizeof **off);
    *size = calloc(list->vec_n + 1, sizeof **size);
    if (!*off || !*size) abort();
    for (uint32_t i = 0; i < list->vec_n; i++) {
        const ptx_operand *o = exec_dec_vec_elem(d, list, i);
        if (!o || o->kind != PTX_OPND_SYM || o->sym.scope != PTX_SYM_LOCAL_VAR ||
            d->f->local_off[o->sym.index] < 0 ||
            d->pf->locals[o->sym.index].space != PTX_SPACE_PARAM)
            return exec_dec_error(d, pi, "call arguments must be .param variables");
        (*off)[i] = (uint32_t)d->f->local_off[o->sym.index];
        (*size)[i] = (uint32_t)d->pf->locals[o->sym.index].size;
        (*n)++;
    }
    return true;
}

static int dec_call(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    const ptx_operand *rets = NULL, *callee = NULL, *args = NULL;
    unsigned i = 0;
    if (i < pi->nopnds && pi->opnd[i].kind == PTX_OPND_LIST) rets = &pi->opnd[i++];
    if (i < pi->nopnds) callee = &pi->opnd[i++];
    if (i < pi->nopnds && pi->opnd[i].kind == PTX_OPND_LIST) args = &pi->opnd[i++];
    if (!callee) return exec_dec_error(d, pi, "call without a callee"), -1;

    exec_func *f = d->f;
    exec_callsite *calls = realloc(f->calls, (f->ncalls + 1) * sizeof *calls);
    if (!calls) abort();
    f->calls = calls;
    exec_callsite *cs = &f->calls[f->ncalls];
    memset(cs, 0, sizeof *cs);
    out->target = (int32_t)f->ncalls++;
    if (!param_list(d, pi, args, &cs->nargs, &cs->arg_off, &cs->arg_size)) return -1;
    if (!param_list(d, pi, rets, &cs->nrets, &cs->ret_off, &cs->ret_size)) return -1;

    if (callee->kind == PTX_OPND_SYM && callee->sym.scope == PTX_SYM_FUNC) {
        const exec_func *g = exec_program_func(d->prog, (uint32_t)callee->sym.index);
        if (g->pf->is_entry)
            return exec_dec_error(d, pi, "call to kernel '%s'", g->pf->name), -1;
        if (g->builtin) {
            cs->callee = g;
            out->fn = h_call_builtin;
            out->aux = (uint32_t)g->builtin;
            return 1;
        }
        if (g->pf->ninsns == 0 && !strncmp(g->pf->name, "__cudaCDP2", 10))
            return exec_dec_error(d, pi, "the device runtime's %s is not supported",
                                  g->pf->name + 10), -1;
        if (g->pf->ninsns == 0)
            return exec_dec_error(d, pi, "unsupported callee '%s' (no body in this module)",
                                  g->pf->name), -1;
        cs->callee = g;
        out->fn = h_call;
        return 1;
    }
    if (callee->kind == PTX_OPND_REG) {
        if (!exec_dec_src(d, pi, callee, PTX_T_u64, &cs->target_slot)) return -1;
        cs->callee = NULL;
        out->fn = h_call_indirect;
        return 1;
    }
    return exec_dec_error(d, pi, "call target is neither a function nor a register"), -1;
}

/* Could the loop from IR instruction first to the backward branch last wait on other
 * threads? Only a loop that reads memory they may write can: atomics, volatile, relaxed
 * or acquire loads, mbarrier waits, nanosleep, or a call (whose body may do any of
 * these). A loop of plain arithmetic, however long, is never taken for a spin-wait, so
 * the lanes that left it keep waiting at its exit (what warp-synchronous code after a
 * divergent loop relies on). */
static bool loop_may_spin(const ptx_func *pf, int32_t first, int32_t last) {
    for (int32_t i = first; i <= last; i++) {
        const ptx_insn *p = &pf->insns[i];
        switch (p->op) {
        case PTX_OP_atom: case PTX_OP_call: case PTX_OP_mbarrier: case PTX_OP_nanosleep:
            return true;
        case PTX_OP_ld:
            if (ptx_insn_has_mod(p, PTX_MOD_volatile_) || ptx_insn_has_mod(p, PTX_MOD_relaxed) ||
                ptx_insn_has_mod(p, PTX_MOD_acquire))
                return true;
            break;
        default: break;
        }
    }
    return false;
}

int exec_decode_control(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    switch (pi->op) {
    case PTX_OP_bra: {
        if (pi->nopnds < 1 || pi->opnd[0].kind != PTX_OPND_LABEL)
            return exec_dec_error(d, pi, "bra needs a label"), -1;
        int32_t to = d->pf->labels[pi->opnd[0].label].insn;
        int32_t self = (int32_t)(pi - d->pf->insns);
        out->target = to;
        out->reconv = pi->reconv;
        if (to <= self) out->flags |= EXEC_F_BACKWARD;
        if (to <= self && loop_may_spin(d->pf, to, self)) out->flags |= EXEC_F_SPIN;
        out->fn = h_bra;
        exec_dec_fixup(d, true);
        return 1;
    }
    case PTX_OP_brx: {
        if (pi->nopnds < 2 || pi->opnd[1].kind != PTX_OPND_LIST)
            return exec_dec_error(d, pi, "brx.idx needs an index and a target list"), -1;
        if (!exec_dec_src(d, pi, &pi->opnd[0], PTX_T_u32, &out->a[0])) return -1;
        const ptx_operand *list = &pi->opnd[1];
        exec_func *f = d->f;
        int32_t *jt = realloc(f->jump_tables, (f->njump + list->vec_n + 1) * sizeof *jt);
        if (!jt) abort();
        f->jump_tables = jt;
        out->target = (int32_t)f->njump;
        out->aux = list->vec_n;
        for (uint32_t k = 0; k < list->vec_n; k++) {
            const ptx_operand *o = exec_dec_vec_elem(d, list, k);
            if (!o || o->kind != PTX_OPND_LABEL)
                return exec_dec_error(d, pi, "brx.idx target is not a label"), -1;
            f->jump_tables[f->njump++] = d->pf->labels[o->label].insn; /* IR index for now */
        }
        out->reconv = pi->reconv;
        out->fn = h_brx;
        exec_dec_fixup(d, false); /* reconv only: target indexes the table */
        return 1;
    }
    case PTX_OP_call: return dec_call(d, pi, out);
    case PTX_OP_ret: out->fn = exec_h_ret; return 1;
    case PTX_OP_exit: out->fn = h_exit; return 1;
    case PTX_OP_trap: case PTX_OP_brkpt: out->fn = h_trap; return 1;
    default: return 0;
    }
}
