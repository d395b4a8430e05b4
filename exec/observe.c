/* exec/observe.c — telling a launch's observer (exec/observe.h) what the executor does.
 *
 * The decoder marks each instruction with what an observer must hear of it beyond its
 * issue (exec_observe_classify sets exec_insn.obs), so the observed run loop
 * (exec_warp_run_observed in warp.c, the plain loop compiled with its one event call)
 * never looks at opcodes or modifiers: it calls exec_observe_insn, which reads the
 * operands the instruction's handler is about to use and reports them.
 *
 * Nothing here runs unless the launch has an observer: exec_run_block picks the observed
 * loop and calls the block events only then.
 */
#include "core.h"
#include "observe.h"
#include "native.h"

#include <stdlib.h>
#include <string.h>

/* ---- decoding: what each instruction reports ---- */

/* ld.param naming a kernel parameter: the memory decoder reads it from the launch's
 * parameter buffer at offset imm (no address register). */
static bool is_kernel_param_load(const ptx_func *pf, const ptx_insn *pi) {
    if (!pf->is_entry || pi->nopnds < 2) return false;
    const ptx_operand *a = &pi->opnd[1];
    return a->kind == PTX_OPND_ADDR && a->reg < 0 && a->sym.index >= 0 &&
           a->sym.scope == PTX_SYM_PARAM;
}

void exec_observe_classify(const ptx_func *pf, const ptx_insn *pi, exec_insn *in) {
    uint8_t k = EXEC_OBS_K_NONE;
    switch (pi->op) {
    case PTX_OP_bra: k = EXEC_OBS_K_BRANCH; break;
    case PTX_OP_brx: k = EXEC_OBS_K_BRANCH_IDX; break;
    case PTX_OP_ld: case PTX_OP_ldu:
        if (in->space == PTX_SPACE_PARAM && is_kernel_param_load(pf, pi))
            k = EXEC_OBS_K_LOAD_KPARAM;
        else
            k = EXEC_OBS_K_LOAD;
        break;
    case PTX_OP_st: k = EXEC_OBS_K_STORE; break;
    case PTX_OP_atom: case PTX_OP_red: k = EXEC_OBS_K_ATOMIC; break;
    case PTX_OP_cp:
        /* the copy itself, not commit_group / wait_group / wait_all / mbarrier arrive */
        if (ptx_insn_has_mod(pi, PTX_MOD_async) && !ptx_insn_has_mod(pi, PTX_MOD_bulk) &&
            !ptx_insn_has_mod(pi, PTX_MOD_commit_group) &&
            !ptx_insn_has_mod(pi, PTX_MOD_wait_group) && !ptx_insn_has_mod(pi, PTX_MOD_wait_all) &&
            !exec_dec_has_mod_named(pi, "mbarrier"))
            k = EXEC_OBS_K_CP_ASYNC;
        break;
    case PTX_OP_bar: case PTX_OP_barrier:
        if (exec_dec_has_mod_named(pi, "warp")) {
            if (in->na >= 1) k = EXEC_OBS_K_WARP_SYNC_A0; /* bar.warp.sync membermask */
        } else if (!(exec_dec_has_mod_named(pi, "cluster") && ptx_insn_has_mod(pi, PTX_MOD_arrive))) {
            k = EXEC_OBS_K_BARRIER; /* barrier.cluster.arrive waits for nothing */
        }
        break;
    case PTX_OP_shfl: k = EXEC_OBS_K_WARP_SYNC_A3; break;
    case PTX_OP_vote: case PTX_OP_match: case PTX_OP_redux: k = EXEC_OBS_K_WARP_SYNC_A1; break;
    case PTX_OP_elect: k = EXEC_OBS_K_WARP_SYNC_A0; break;
    case PTX_OP_tex: case PTX_OP_tld4: case PTX_OP_suld: case PTX_OP_sust: k = EXEC_OBS_K_TEX; break;
    default: break;
    }
    in->obs = k;
}

/* ---- running ---- */

static inline exec_site site_of(const exec_wstate *w, const exec_insn *in) {
    const struct exec_block *b = w->h.block;
    exec_site s;
    s.launch = b->L;
    s.ctaid = b->ctaid;
    s.warp = w->h.warp_in_block;
    s.smid = b->smid;
    s.insn = in ? in->src : NULL;
    s.insn_index = in ? in->src_index : 0;
    s.insn_event = in && w->insn_events;
    s.worker_state = b->worker->observer_state;
    return s;
}

static inline uint32_t lane_value32(const exec_wstate *w, uint32_t slot, uint32_t lane) {
    return (uint32_t)EXEC_R(&w->h, slot, lane);
}

/* A memory access of the lanes in m at addr[] (a[0] + imm already added) in space sp.
 * A generic address is resolved per lane by the windows of mem/mem.h; lanes that land in
 * different spaces are reported in one event per space. */
static void report_mem(const exec_observer *o, const exec_site *s, const exec_wstate *w,
                       ptx_space sp, exec_mem_access acc, uint64_t addr[32], uint32_t m,
                       uint32_t size) {
    const struct exec_block *b = w->h.block;
    switch (sp) {
    case PTX_SPACE_GLOBAL: case PTX_SPACE_CONST: case PTX_SPACE_SHARED: case PTX_SPACE_LOCAL:
        o->mem(s, sp, acc, addr, m, size);
        return;
    case PTX_SPACE_PARAM:
        /* a kernel parameter: its offset in the parameter buffer; below EXEC_KPARAM_BASE,
         * a device function's own .param, at that offset of the thread's local memory */
        for (uint32_t r = m; r; r &= r - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(r);
            if (addr[l] >= EXEC_KPARAM_BASE) addr[l] -= EXEC_KPARAM_BASE;
        }
        o->mem(s, PTX_SPACE_PARAM, acc, addr, m, size);
        return;
    default: break;
    }
    /* generic */
    uint64_t params = (uint64_t)(uintptr_t)b->L->params;
    uint32_t param_size = b->k->info.param_size;
    uint32_t shared = 0, local = 0, param = 0;
    for (uint32_t r = m; r; r &= r - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(r);
        uint64_t a = addr[l];
        if (a - MEM_SHARED_WINDOW < MEM_SHARED_WINDOW_SIZE) {
            addr[l] = a - MEM_SHARED_WINDOW;
            shared |= 1u << l;
        } else if (a - MEM_LOCAL_WINDOW < MEM_LOCAL_WINDOW_SIZE) {
            addr[l] = a - MEM_LOCAL_WINDOW;
            local |= 1u << l;
        } else if (params && a - params < param_size) {
            addr[l] = a - params;
            param |= 1u << l;
        }
    }
    uint32_t global = m & ~(shared | local | param);
    /* an instruction no lane executes is still issued: it counts as the global access
     * nvcc's generic accesses nearly always are */
    if (global || m == 0) o->mem(s, PTX_SPACE_GLOBAL, acc, addr, global, size);
    if (shared) o->mem(s, PTX_SPACE_SHARED, acc, addr, shared, size);
    if (local) o->mem(s, PTX_SPACE_LOCAL, acc, addr, local, size);
    if (param) o->mem(s, PTX_SPACE_PARAM, acc, addr, param, size);
}

/* Addresses a[slot] + offset of every lane (those off the path too: an observer looks at
 * the lanes of the event's mask only, and one plain loop over the warp vectorises).
 * restrict: the register file and the event's array never overlap. */
static void lane_addresses(const exec_wstate *w, uint32_t slot, uint64_t offset,
                           uint64_t *restrict addr) {
    const uint64_t *restrict A = &EXEC_R(&w->h, slot, 0);
    for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++) addr[l] = A[l] + offset;
}

/* brx.idx: the lanes of m that go where the first of them goes. */
static uint32_t brx_first_group(const exec_wstate *w, const exec_insn *in, uint32_t m) {
    if (!m) return 0;
    const uint64_t *A = &EXEC_R(&w->h, in->a[0], 0);
    uint32_t idx0 = (uint32_t)A[__builtin_ctz(m)], group = 0;
    for (uint32_t r = m; r; r &= r - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(r);
        if ((uint32_t)A[l] == idx0) group |= 1u << l;
    }
    return group;
}

/* A texture instruction's footprint (some 8 KiB: kept out of exec_observe_insn's frame). */
static __attribute__((noinline)) void report_tex(const exec_observer *o, const exec_site *s,
                                                 exec_wstate *w, const exec_insn *in, uint32_t m) {
    exec_tex_footprint fp;
    exec_tex_footprint_of(&w->h, in, m, &fp);
    o->tex(s, &fp, m);
}

void exec_observe_insn(exec_wstate *w, const exec_insn *in, uint32_t m) {
    if (in->obs == EXEC_OBS_K_HIDDEN) return;
    const exec_observer *o = w->h.block->L->observer;
    uint32_t ev = w->h.block->obs_events;
    if (w->insn_events && w->tally && w->clock > w->insn_events_until) {
        /* the observer's cap: from here on the warp is only tallied */
        exec_warp_pick_events(w);
        if (!((w->obs_calls >> in->obs) & 1u)) return;
    }
    exec_site s = site_of(w, in);
    uint32_t active = w->h.active;
    if (w->insn_events) o->insn(&s, active, m);
    uint64_t addr[32];
    switch ((enum exec_obs_kind)in->obs) {
    case EXEC_OBS_K_BRANCH:
        if (ev & EXEC_OBS_EV_BRANCH) o->branch(&s, active, m);
        return;
    case EXEC_OBS_K_BRANCH_IDX:
        if (ev & EXEC_OBS_EV_BRANCH_IDX) o->branch(&s, active, brx_first_group(w, in, m));
        return;
    case EXEC_OBS_K_LOAD: case EXEC_OBS_K_STORE: case EXEC_OBS_K_ATOMIC: {
        if (!(ev & EXEC_OBS_EV_MEM)) return;
        exec_mem_access acc = in->obs == EXEC_OBS_K_LOAD    ? EXEC_OBS_LOAD
                              : in->obs == EXEC_OBS_K_STORE ? EXEC_OBS_STORE
                                                            : EXEC_OBS_ATOMIC;
        uint32_t size = ptx_type_sizes[in->type] * (in->obs == EXEC_OBS_K_ATOMIC ? 1u : in->vec);
        int64_t off = in->imm;
        unsigned velems;
        /* a vector atomic (atom.global.v2.f32 ...): the whole vector, at the offset its
         * descriptor holds (its imm is the descriptor) */
        if (in->obs == EXEC_OBS_K_ATOMIC && exec_atom_vec_shape(in, &off, &velems)) size *= velems;
        ptx_space sp = (ptx_space)in->space;
        if (off == 0 && (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_SHARED ||
                         sp == PTX_SPACE_LOCAL || sp == PTX_SPACE_CONST)) {
            /* the address registers are the addresses: no copy */
            o->mem(&s, sp, acc, &EXEC_R(&w->h, in->a[0], 0), m, size);
            return;
        }
        lane_addresses(w, in->a[0], (uint64_t)off, addr);
        report_mem(o, &s, w, sp, acc, addr, m, size);
        return;
    }
    case EXEC_OBS_K_LOAD_KPARAM:
        if (!(ev & EXEC_OBS_EV_PARAM)) return;
        for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++)
            addr[l] = (m >> l) & 1u ? (uint64_t)in->imm : 0;
        o->mem(&s, PTX_SPACE_PARAM, EXEC_OBS_LOAD, addr, m,
               ptx_type_sizes[in->type] * (uint32_t)in->vec);
        return;
    case EXEC_OBS_K_CP_ASYNC:
        if (!(ev & EXEC_OBS_EV_MEM)) return;
        lane_addresses(w, in->a[1], (uint64_t)(int64_t)in->target, addr);
        report_mem(o, &s, w, PTX_SPACE_GLOBAL, EXEC_OBS_LOAD, addr, m, in->vec);
        lane_addresses(w, in->a[0], (uint64_t)in->imm, addr);
        o->mem(&s, PTX_SPACE_SHARED, EXEC_OBS_STORE, addr, m, in->vec);
        return;
    case EXEC_OBS_K_TEX:
        if ((ev & EXEC_OBS_EV_MEM) && o->tex) report_tex(o, &s, w, in, m);
        return;
    case EXEC_OBS_K_BARRIER:
        if ((ev & EXEC_OBS_EV_BARRIER) && m)
            o->barrier(&s, exec_barrier_id(&w->h, in, (uint32_t)__builtin_ctz(m)), m,
                       w->h.alive);
        return;
    case EXEC_OBS_K_WARP_SYNC_A0: case EXEC_OBS_K_WARP_SYNC_A1: case EXEC_OBS_K_WARP_SYNC_A3: {
        if (!(ev & EXEC_OBS_EV_WARP_SYNC) || !m) return;
        uint32_t slot = in->obs == EXEC_OBS_K_WARP_SYNC_A0   ? in->a[0]
                        : in->obs == EXEC_OBS_K_WARP_SYNC_A1 ? in->a[1]
                                                             : in->a[3];
        o->warp_sync(&s, lane_value32(w, slot, (uint32_t)__builtin_ctz(m)), m);
        return;
    }
    case EXEC_OBS_K_NONE: case EXEC_OBS_K_HIDDEN:
        return;
    }
}

/* Lane l of a (row-)affine register, in its width. */
static inline uint64_t affine_lane(uint64_t base, int64_t step, int64_t row, uint32_t lw,
                                   uint32_t w32, uint32_t l) {
    uint64_t v = exec_affine_lane(base, step, row, lw, l);
    return w32 ? (uint32_t)v : v;
}

/* exec_observe_affine's ways round the observer's mem_affine, out of line: their 32 lanes
 * on the stack are no part of the common path's frame. First, what the spill would have
 * left: the register's lanes, read as always. */
static __attribute__((noinline, cold)) void affine_as_lanes(exec_wstate *w, const exec_insn *in,
                                                            uint32_t m, uint64_t base,
                                                            int64_t step, int64_t row,
                                                            uint32_t lw, uint32_t w32) {
    uint64_t *R = &EXEC_R(&w->h, in->a[0], 0);
    for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++)
        R[l] = affine_lane(base, step, row, lw, w32, l);
    exec_observe_insn(w, in, m);
}

/* ... and the memory event from its lanes, where the observer declined the description. */
static __attribute__((noinline, cold)) void affine_mem_lanes(const exec_observer *o,
                                                             const exec_site *s, ptx_space sp,
                                                             exec_mem_access acc,
                                                             uint64_t first, int64_t step,
                                                             int64_t row, uint32_t lw,
                                                             uint32_t m, uint32_t size) {
    uint64_t addr[32];
    for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++)
        addr[l] = exec_affine_lane(first, step, row, lw, l);
    o->mem(s, sp, acc, addr, m, size);
}

void exec_observe_affine(exec_wstate *w, const exec_insn *in, uint32_t m, uint64_t base,
                         int64_t step, int64_t row, uint32_t lw, uint32_t w32) {
    const exec_observer *o = w->h.block->L->observer;
    uint32_t ev = w->h.block->obs_events;
    ptx_space sp = (ptx_space)in->space;
    bool plain_space = sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_SHARED ||
                       sp == PTX_SPACE_LOCAL || sp == PTX_SPACE_CONST;
    if (lw > 5) lw = 5;
    /* a 32-bit register's lanes are (row-)affine in 64 bits when none of them wraps: its
     * extremes are at the corners of the rows (steps are 32-bit values, sign-extended) */
    const int64_t big = (int64_t)UINT32_MAX;
    if (w32 && (step > big || step < -big || row > big || row < -big)) {
        plain_space = false;
    } else if (w32) {
        int64_t lo = (int64_t)(uint32_t)base;
        int64_t dx = (int64_t)((1u << lw) - 1u) * step, dy = (int64_t)((32u >> lw) - 1u) * row;
        int64_t min = lo + (dx < 0 ? dx : 0) + (dy < 0 ? dy : 0);
        int64_t max = lo + (dx > 0 ? dx : 0) + (dy > 0 ? dy : 0);
        if (min < 0 || max > (int64_t)UINT32_MAX) plain_space = false;
    }
    if (w32) base = (uint32_t)base;
    if (!o->mem_affine || w->insn_events || !m || !plain_space ||
        (in->obs != EXEC_OBS_K_LOAD && in->obs != EXEC_OBS_K_STORE)) {
        affine_as_lanes(w, in, m, base, step, row, lw, w32);
        return;
    }
    if (!(ev & EXEC_OBS_EV_MEM)) return;
    exec_mem_access acc = in->obs == EXEC_OBS_K_LOAD ? EXEC_OBS_LOAD : EXEC_OBS_STORE;
    uint32_t size = ptx_type_sizes[in->type] * in->vec;
    uint64_t first = base + (uint64_t)in->imm;
    exec_site s = site_of(w, in);
    if (o->mem_affine(&s, sp, acc, first, step, row, lw, m, size)) return;
    affine_mem_lanes(o, &s, sp, acc, first, step, row, lw, m, size);
}

void exec_observe_heap(exec_wstate *w, const exec_insn *in, int op, uint32_t lane,
                       uint64_t ptr, uint64_t size) {
    const exec_observer *o = w->h.block->L->observer;
    if (!o || !o->heap) return;
    exec_site s = site_of(w, in);
    o->heap(&s, (exec_heap_op)op, lane, ptr, size);
}

/* ---- the compiled tier's observed loop ---- */

/* exec_warp_run_observed's loop, but where the warp is in a function with (instrumented)
 * compiled code that the observer keeps a tally of, that code runs it: it counts each
 * instruction into the same tally and calls exec_observe_insn where this loop would
 * (jit/emit.c), so the observer hears the same. Everything else (a function the observer
 * keeps no tally of, whose every instruction is an event; code not compiled; an
 * instruction that is not an entry point) runs here, one instruction at a time, as in the
 * observed loop. */
void exec_warp_run_native_observed(exec_wstate *w) {
    w->slice_start = w->clock;
    for (;;) {
        const exec_insn *in = w->ip;
        if (__builtin_expect(in == w->brk, 0)) {
            if (exec_warp_at_brk(w)) return;
            continue;
        }
        if (w->tally) {
            const exec_func *f = w->frames[w->depth].func;
            exec_native_fn nf = __atomic_load_n(&f->native, __ATOMIC_ACQUIRE);
            if (nf && f->instrumented && in >= f->code && in <= f->code + f->ncode) {
                int r = nf(w, &exec_native_runtime);
                exec_native_returned();
                if (r == 1) return;
                if (r == 0 || w->ip != in) continue;
                /* 2: not one of the code's entry points: interpreted below */
            }
        }
        w->ip = in + 1;
        w->clock++;
        uint32_t m = w->h.active;
        if (in->guard >= 0) {
            uint32_t p = w->h.P[in->guard];
            m &= in->guard_neg ? ~p : p;
        }
        if (w->tally && in->obs != EXEC_OBS_K_HIDDEN)
            exec_tally_count(w->tally + in->src_index, in->obs == EXEC_OBS_K_BRANCH,
                             w->h.active, m, false);
        if ((w->obs_calls >> in->obs) & 1u) exec_observe_insn(w, in, m);
        if (m) in->fn(&w->h, in, m);
    }
}

/* ---- tallies ---- */

/* What a worker's table holds for a function the observer keeps no tally of. */
static exec_insn_tally *const tally_none = (exec_insn_tally *)&tally_none;

exec_insn_tally *exec_observe_tally(struct exec_block *b, const exec_func *f) {
    exec_worker *wk = b->worker;
    const exec_observer *o = b->L->observer;
    /* before block_begin the worker may still hold the previous launch's observer */
    if (!o || !o->tally || wk->observer != o || !f->pf || !f->code) return NULL;
    const exec_program *prog = b->prog;
    uint32_t n = prog->m->nfuncs;
    if (wk->tally_serial != prog->serial || wk->tallies_cap < n) {
        if (wk->tallies_cap < n) {
            exec_insn_tally **t = realloc(wk->tallies, n * sizeof *t);
            if (!t) abort();
            wk->tallies = t;
            wk->tallies_cap = n;
        }
        memset(wk->tallies, 0, wk->tallies_cap * sizeof *wk->tallies);
        wk->tally_serial = prog->serial;
    }
    if (f->index >= n) return NULL;
    if (!wk->tallies[f->index]) {
        exec_insn_tally *t = o->tally(wk->observer_state, f->pf);
        wk->tallies[f->index] = t ? t : tally_none;
    }
    return wk->tallies[f->index] == tally_none ? NULL : wk->tallies[f->index];
}

/* ---- blocks and workers ---- */

/* The events o has callbacks for. */
static uint32_t observed_events(const exec_observer *o) {
    return (o->insn ? EXEC_OBS_EV_INSN : 0) |
           (o->branch ? EXEC_OBS_EV_BRANCH | EXEC_OBS_EV_BRANCH_IDX : 0) |
           (o->mem ? EXEC_OBS_EV_MEM | EXEC_OBS_EV_PARAM : 0) |
           (o->barrier ? EXEC_OBS_EV_BARRIER : 0) | (o->warp_sync ? EXEC_OBS_EV_WARP_SYNC : 0);
}

/* The kinds of instruction (bits by enum exec_obs_kind) that report events ev. */
static uint32_t calls_for(uint32_t ev) {
#define K(kind) (1u << EXEC_OBS_K_##kind)
    return (ev & EXEC_OBS_EV_BRANCH ? K(BRANCH) : 0) |
           (ev & EXEC_OBS_EV_BRANCH_IDX ? K(BRANCH_IDX) : 0) |
           (ev & EXEC_OBS_EV_MEM ? K(LOAD) | K(STORE) | K(ATOMIC) | K(CP_ASYNC) | K(TEX) : 0) |
           (ev & EXEC_OBS_EV_PARAM ? K(LOAD_KPARAM) : 0) |
           (ev & EXEC_OBS_EV_BARRIER ? K(BARRIER) : 0) |
           (ev & EXEC_OBS_EV_WARP_SYNC ? K(WARP_SYNC_A0) | K(WARP_SYNC_A1) | K(WARP_SYNC_A3) : 0);
#undef K
}

void exec_observe_block_begin(struct exec_block *b) {
    exec_worker *wk = b->worker;
    const exec_observer *o = b->L->observer;
    if (wk->observer != o) {
        exec_worker_observe_end(wk);
        wk->observer = o;
        wk->observer_state = o->begin_worker ? o->begin_worker(o->ctx) : NULL;
    }
    if (o->block_begin) {
        exec_site s = site_of(&b->warps[0], NULL);
        s.warp = 0;
        o->block_begin(&s, b->nthreads);
    }
    uint32_t ev = EXEC_OBS_EV_ALL;
    if (o->block_events) {
        exec_site s = site_of(&b->warps[0], NULL);
        s.warp = 0;
        ev = o->block_events(&s);
    }
    b->obs_events = ev & observed_events(o);
    b->obs_calls = calls_for(b->obs_events);
    /* the warps were set up before the worker's observation began: now their tallies */
    for (uint32_t i = 0; i < b->nwarps; i++) {
        exec_wstate *w = &b->warps[i];
        w->insn_events_until = o->insn_event_limit ? w->clock + o->insn_event_limit : UINT64_MAX;
        exec_warp_enter_code(w, w->frames[w->depth].func);
    }
}

void exec_observe_block_end(struct exec_block *b, uint64_t start) {
    const exec_observer *o = b->L->observer;
    if (o->warp_end) {
        for (uint32_t i = 0; i < b->nwarps; i++) {
            exec_site s = site_of(&b->warps[i], NULL);
            o->warp_end(&s, b->warps[i].clock - start);
        }
    }
    if (o->block_end) {
        exec_site s = site_of(&b->warps[0], NULL);
        s.warp = 0;
        o->block_end(&s);
    }
}

void exec_observe_barrier_complete(struct exec_block *b, uint32_t id, uint32_t count) {
    const exec_observer *o = b->L->observer;
    if (!o->barrier_complete || !(b->obs_events & EXEC_OBS_EV_BARRIER)) return;
    exec_site s = site_of(&b->warps[0], NULL);
    s.warp = 0;
    o->barrier_complete(&s, id, count);
}

void exec_worker_observe_end(exec_worker *wk) {
    const exec_observer *o = wk->observer;
    if (!o) return;
    if (o->end_worker) o->end_worker(o->ctx, wk->observer_state);
    wk->observer = NULL;
    wk->observer_state = NULL;
    free(wk->tallies);  /* the tallies themselves were the observer's */
    wk->tallies = NULL;
    wk->tallies_cap = 0;
    wk->tally_serial = 0;
}
