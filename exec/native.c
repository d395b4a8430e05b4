/* exec/native.c — running the compiled tier's code (exec/native.h): the run loop that
 * hands a warp to its function's native code, and installing that code in a program.
 */
#include "native.h"

static volatile int *native_abort_flag(exec_wstate *w) { return w->h.block->L->abort; }

static void native_view(exec_wstate *w, exec_native_view *v) {
    struct exec_block *b = w->h.block;
    v->shared = b->shared;
    v->shared_size = b->shared_size;
    v->ranges = b->worker->ranges;
    v->params = b->L->params;
}

const exec_native_rt exec_native_runtime = {
    .abi = EXEC_NATIVE_ABI,
    .path_done = exec_warp_path_done,
    .update_brk = exec_warp_update_brk,
    .abort_flag = native_abort_flag,
    .view = native_view,
};

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
            if (w->yield) {
                w->yield = false;
                exec_warp_update_brk(w);
                return;
            }
            exec_warp_path_done(w);
            continue;
        }
        const exec_func *f = w->frames[w->depth].func;
        if (f->native && in >= f->code && in <= f->code + f->ncode) {
            int r = f->native(w, &exec_native_runtime);
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

void exec_program_set_native(exec_program *p, const exec_native_fn *fns) {
    for (uint32_t i = 0; i < p->m->nfuncs; i++)
        if (p->funcs[i].code) p->funcs[i].native = fns[i];
    __atomic_store_n(&p->native_on, true, __ATOMIC_RELAXED);
    /* the functions' pointers are visible to whoever sees the flag */
    __atomic_store_n(&p->native_ready, true, __ATOMIC_RELEASE);
}

bool exec_program_native_ready(const exec_program *p) {
    return __atomic_load_n(&p->native_ready, __ATOMIC_ACQUIRE) &&
           __atomic_load_n(&p->native_on, __ATOMIC_RELAXED);
}

void exec_program_native_enable(exec_program *p, bool on) {
    __atomic_store_n(&p->native_on, on, __ATOMIC_RELAXED);
}

uint32_t exec_program_nfuncs(const exec_program *p) { return p->m->nfuncs; }
