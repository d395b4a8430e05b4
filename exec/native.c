/* exec/native.c — running the compiled tier's code (exec/native.h): the run loop that
 * hands a warp to its function's native code, and installing that code in a program.
 */
#include "native.h"
#include "observe.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
bool exec_native_has_avx;

/* (read before any native code can run: set when the library loads) */
__attribute__((constructor)) static void native_find_avx(void) {
    __builtin_cpu_init();
    exec_native_has_avx = __builtin_cpu_supports("avx");
}
#endif

static volatile int *native_abort_flag(exec_wstate *w) { return w->h.block->L->abort; }

static void native_view(exec_wstate *w, exec_native_view *v) {
    struct exec_block *b = w->h.block;
    v->shared = b->shared;
    v->shared_size = b->shared_size;
    v->ranges = b->worker->ranges;
    v->params = b->L->params;
}

/* Instrumented code's call of the observer: code built at -O1 (the vector tier's, and
 * large functions' per-warp code) leaves the upper halves of the vector registers dirty
 * (that level adds no vzeroupper before a call), and the observer's first legacy SSE
 * instruction then waited on them: 80% of exec_observe_insn's samples on one movd,
 * measured on the AMD host (perf, reduceInteger profiled). The ABI saves no vector
 * register across a call, so clearing them here is safe. */
static void native_observe(exec_wstate *w, const exec_insn *in, uint32_t m) {
    exec_native_returned();
    exec_observe_insn(w, in, m);
}

/* The same for a load or store whose address the vector code holds as base and step
 * (jit/vemit_prof.c): no lanes spilled. */
static void native_observe_affine(exec_wstate *w, const exec_insn *in, uint32_t m,
                                  uint64_t base, int64_t step, int64_t row, uint32_t lw,
                                  uint32_t w32) {
    exec_native_returned();
    exec_observe_affine(w, in, m, base, step, row, lw, w32);
}

const exec_native_rt exec_native_runtime = {
    .abi = EXEC_NATIVE_ABI,
    .path_done = exec_warp_path_done,
    .update_brk = exec_warp_update_brk,
    .abort_flag = native_abort_flag,
    .view = native_view,
    .observe = native_observe,
};

static void block_view(struct exec_block *b, exec_native_block_view *v) {
    v->warps = b->warps;
    v->nwarps = b->nwarps;
    v->shared = b->shared;
    v->shared_size = b->shared_size;
    v->ranges = b->worker->ranges;
    v->params = b->L->params;
    v->fault_kind = &b->fault_kind;
    v->code = b->k->func->code;
    v->ntid[0] = b->ntid.x, v->ntid[1] = b->ntid.y, v->ntid[2] = b->ntid.z;
    v->ctaid[0] = b->ctaid.x, v->ctaid[1] = b->ctaid.y, v->ctaid[2] = b->ctaid.z;
    v->nctaid[0] = b->L->grid.x, v->nctaid[1] = b->L->grid.y, v->nctaid[2] = b->L->grid.z;
}

/* The interpreter's state for every warp of the block (exec_native_block_rt.bail). Warps
 * that wait at a barrier in this round are put back before it: the run loop runs the
 * barrier instruction for them again (their clocks less that issue), which is what they
 * would do had the interpreter been running them; nothing else of a barrier is recorded
 * while the vector code runs. Lanes that exited are gone from alive. */
static int block_bail(struct exec_block *b, uint32_t wi, uint32_t pc, const uint32_t *alive,
                      const uint32_t *res, const uint64_t *clk) {
    const exec_insn *code = b->k->func->code;
    uint32_t live = 0;
    for (uint32_t k = 0; k < b->nwarps; k++) {
        exec_wstate *w = &b->warps[k];
        w->clock = clk[k];
        w->h.alive = w->h.active = alive[k];
        if (!alive[k]) {
            w->status = EXEC_WARP_EXITED;
            continue;
        }
        live += (uint32_t)__builtin_popcount(alive[k]);
        w->status = EXEC_WARP_RUNNABLE;
        if (k == wi) {
            w->ip = code + pc;
        } else if (k < wi) {
            w->ip = code + res[k] - 1;
            w->clock--;
            /* instrumented code counted that barrier's issue (by the warp's lanes, which
             * a barrier it takes has all on its path and unguarded): the run loop counts
             * it again */
            if (w->tally && b->L->observer && w->ip->obs != EXEC_OBS_K_HIDDEN)
                exec_tally_uncount(w->tally + w->ip->src_index, w->ip->obs == EXEC_OBS_K_BRANCH,
                                   alive[k], alive[k]);
        } else {
            w->ip = code + res[k];
        }
    }
    b->live_threads = live;
    return 1;
}

/* The interpreter keeps an if-then region's lanes that skip it as a reconvergence entry
 * (exec/control.c diverge: they wait where the paths meet): one per enclosing region. */
static int block_bail_in_regions(struct exec_block *b, uint32_t wi, uint32_t pc, uint32_t act,
                                 const uint32_t *alive, const uint32_t *res,
                                 const uint64_t *clk, uint32_t nreg, const uint32_t *rpc,
                                 const uint32_t *restore) {
    block_bail(b, wi, pc, alive, res, clk);
    exec_wstate *w = &b->warps[wi];
    const exec_insn *code = b->k->func->code;
    for (uint32_t k = 0; k < nreg; k++)
        exec_warp_push_divergence(w, code + rpc[k], restore[k], NULL, 0);
    w->h.active = act;
    exec_warp_update_brk(w);
    return 1;
}

const exec_native_block_rt exec_native_block_runtime = {
    .abi = EXEC_NATIVE_ABI,
    .view = block_view,
    .poll = exec_block_poll,
    .bail = block_bail,
    .bail_in_regions = block_bail_in_regions,
    .observe = native_observe,
    .observe_affine = native_observe_affine,
};

/* VCUDA_PROF_VECTOR=0 keeps profiled blocks off the vector tier's instrumented code (they
 * run the per-warp instrumented code): the same counts, for comparing the two's cost. */
static int vector_observed = -1;

bool exec_native_block_observable(const struct exec_block *b) {
    const uint32_t per_insn = EXEC_OBS_EV_INSN | EXEC_OBS_EV_BRANCH | EXEC_OBS_EV_BARRIER |
                              EXEC_OBS_EV_WARP_SYNC;
    if (!b->prog->instrumented || !b->k->func->instrumented || (b->obs_events & per_insn))
        return false;
    int on = __atomic_load_n(&vector_observed, __ATOMIC_RELAXED);
    if (on < 0) {
        const char *v = getenv("VCUDA_PROF_VECTOR");
        on = !(v && !strcmp(v, "0"));
        __atomic_store_n(&vector_observed, on, __ATOMIC_RELAXED);
    }
    return on;
}

static uint64_t observed_whole, observed_handed;

void exec_native_observed_block_done(bool whole) {
    __atomic_fetch_add(whole ? &observed_whole : &observed_handed, 1, __ATOMIC_RELAXED);
}

void exec_native_observed_blocks(uint64_t *whole, uint64_t *handed) {
    *whole = __atomic_load_n(&observed_whole, __ATOMIC_RELAXED);
    *handed = __atomic_load_n(&observed_handed, __ATOMIC_RELAXED);
}

/* exec_warp_run's loop, but each instruction that belongs to a function with native code
 * runs there (it goes on as long as the warp stays in that code). What native code
 * leaves to this loop: reaching brk at entry, and instructions outside any compiled
 * function (the resume point of lanes parked in a callee, exec/block.c), run here one at
 * a time exactly as the interpreter does. */
void exec_warp_run_native(exec_wstate *w) {
    w->slice_start = w->clock;
    for (;;) {
        const exec_insn *in = w->ip;
        if (__builtin_expect(in == w->brk, 0)) {
            if (exec_warp_at_brk(w)) return;
            continue;
        }
        const exec_func *f = w->frames[w->depth].func;
        /* (the function's code may arrive while the warp runs: from then on it runs it) */
        exec_native_fn nf = __atomic_load_n(&f->native, __ATOMIC_ACQUIRE);
        if (nf && in >= f->code && in <= f->code + f->ncode) {
            int r = nf(w, &exec_native_runtime);
            exec_native_returned();
            if (r == 1) return;
            if (r == 0 || w->ip != in) continue;
            /* 2: not one of the code's entry points: this instruction is interpreted */
        }
        w->ip = in + 1;
        w->clock++;
        uint32_t m = w->h.active;
        if (in->guard >= 0) {
            uint32_t p = w->h.P[in->guard];
            m &= in->guard_neg ? ~p : p;
        }
        if (m) in->fn(&w->h, in, m);
    }
}

void exec_program_install_native(exec_program *p, uint32_t i, exec_native_fn fn,
                                 exec_native_block_fn bfn) {
    if (i >= p->m->nfuncs || !p->funcs[i].code) return;
    exec_func *f = &p->funcs[i];
    /* the pointers are visible, with the code behind them (loaded by the installing
     * thread), to whoever reads them with acquire; then the program's flag, which makes
     * blocks that start look for them */
    __atomic_store_n(&f->block_native, bfn, __ATOMIC_RELEASE);
    __atomic_store_n(&f->native, fn, __ATOMIC_RELEASE);
    __atomic_store_n(&p->native_ready, true, __ATOMIC_RELEASE);
}

bool exec_kernel_native_ready(const exec_program *p, const exec_kernel *k) {
    if (!exec_program_native_ready(p) || !k || !k->func) return false;
    return __atomic_load_n(&k->func->native, __ATOMIC_ACQUIRE) ||
           __atomic_load_n(&k->func->block_native, __ATOMIC_ACQUIRE);
}

bool exec_program_native_ready(const exec_program *p) {
    return __atomic_load_n(&p->native_ready, __ATOMIC_ACQUIRE) &&
           __atomic_load_n(&p->native_on, __ATOMIC_RELAXED);
}

void exec_program_native_enable(exec_program *p, bool on) {
    __atomic_store_n(&p->native_on, on, __ATOMIC_RELAXED);
}

void exec_program_instrument(exec_program *p, bool on) {
    p->instrumented = on;
    for (uint32_t i = 0; i < p->m->nfuncs; i++) p->funcs[i].instrumented = on;
}

bool exec_program_instrumented(const exec_program *p) { return p->instrumented; }

uint32_t exec_program_nfuncs(const exec_program *p) { return p->m->nfuncs; }
