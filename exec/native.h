/* exec/native.h — the hook the compiled tier (jit/) plugs into. exec/ never includes jit/:
 * it only runs, per function, native code someone installed here.
 *
 * The contract of a function's native code (exec_native_fn, exec/core.h): it runs the warp
 * exactly as exec_warp_run would, from w->ip, on the interpreter's own warp state (frames,
 * masks, reconvergence stack, clock), for as long as the warp stays in that function's
 * code. An instruction it does not specialise it runs by calling the instruction's own
 * handler (in->fn), so every instruction has the interpreter's meaning. It returns 1 when
 * the warp leaves the run loop (the yield the interpreter would return on), 0 when the
 * warp went on elsewhere (into a callee, back to a caller, to an instruction outside the
 * function's code): exec_warp_run_native then goes on with that function's code, or
 * interprets the instruction. It returns 2, having done nothing, when w->ip is not one of
 * its entry points: that instruction is interpreted, and the code asked again at the next.
 * (Native code need not be enterable everywhere: where a warp resumes after a rare exit,
 * a fault seen by a warp that runs on, say, the interpreter takes it to an entry point.)
 *
 * Generated code cannot link against the library's hidden symbols: what it calls in the
 * core it calls through exec_native_rt, and it reaches the warp's fields at the offsets
 * the generator read from exec/core.h (the generated text carries them, so a change of
 * layout changes the text and so the cache key).
 */
#ifndef VCUDA_EXEC_NATIVE_H
#define VCUDA_EXEC_NATIVE_H

#include "core.h"

/* Bumped whenever exec_native_rt or the meaning of the generated code's contract changes. */
#define EXEC_NATIVE_ABI 7u

/* What native code reads of the block it runs in, once per entry: shared memory, and
 * the worker's cache of the allocation each global access last hit (exec_range_of). */
typedef struct exec_native_view {
    uint8_t *shared;
    uint64_t shared_size;
    const exec_range *ranges;   /* EXEC_RANGE_CACHE entries */
    const uint8_t *params;      /* the launch's parameter buffer */
} exec_native_view;

/* The core's entry points that native code calls. */
typedef struct exec_native_rt {
    uint32_t abi;
    void (*path_done)(exec_wstate *w);
    void (*update_brk)(exec_wstate *w);
    /* the launch's abort flag (NULL when none): a backward branch tests it */
    volatile int *(*abort_flag)(exec_wstate *w);
    void (*view)(exec_wstate *w, exec_native_view *v);
    /* instrumented code: what the observed run loop calls before an instruction whose
     * kind (exec_insn.obs) is among the warp's obs_calls, with the same state
     * (exec_observe_insn) */
    void (*observe)(exec_wstate *w, const exec_insn *in, uint32_t m);
} exec_native_rt;

/* The plain memory accesses whose whole-warp fast path native code may inline: a scalar
 * load or store of size bytes (4 or 8, zero-extended) in global (or generic, taken as
 * global) or shared memory, handled by the core's fast-path handlers (exec/memory.c);
 * and a load of a kernel parameter named by symbol (offset in->imm of the parameter
 * buffer, every lane the same value), when it is one zero-extended 4- or 8-byte value. */
enum { EXEC_NATIVE_MEM_NONE, EXEC_NATIVE_MEM_LD_GLOBAL, EXEC_NATIVE_MEM_ST_GLOBAL,
       EXEC_NATIVE_MEM_LD_SHARED, EXEC_NATIVE_MEM_ST_SHARED, EXEC_NATIVE_MEM_LD_KPARAM };
int exec_native_mem_shape(const exec_insn *in, unsigned *size);
/* Is in (its lane handler, when exec/uniform.c made it one for the warp) a move of an
 * address between windows: d = (a[0] + imm) & ((1 << aux) - 1) (aux < 64), else a[0] + imm? */
bool exec_native_is_offset(const exec_insn *in);
/* Is in a load (1: d[0..vec-1] from the address a[0] + imm, or of a kernel parameter) or a
 * store (2: d[0..vec-1] to a[0] + imm) of the general handlers, which read and write only
 * those registers? 0: neither. */
int exec_native_mem_generic(const exec_insn *in);

extern const exec_native_rt exec_native_runtime;

/* Native code is built for the host's CPU (-march=native) and may return with the upper
 * halves of the vector registers in use: the C compiler adds vzeroupper only at -O2 and
 * above, and the code calls back into the core (handlers, the runtime's entry points)
 * with them dirty too. The core is built for the baseline x86-64, whose legacy SSE
 * instructions (a struct copy, a memset, a double's move) then each wait on the whole
 * register (Intel's dirty-upper state): the first of them after a block's native code cost
 * about as much as a warp's turn. Call this when native code has returned. */
#if defined(__x86_64__) && defined(__GNUC__)
extern bool exec_native_has_avx;
static inline void exec_native_returned(void) {
    /* (the clobbers: no value of the caller's stays in a vector register across it) */
    if (exec_native_has_avx)
        __asm__ volatile("vzeroupper" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
                         "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
                         "xmm15");
}
#else
static inline void exec_native_returned(void) {}
#endif

/* The vector tier (exec_native_block_fn): a kernel's code that runs a whole block, each
 * warp's registers in the C compiler's vector locals, the block's warps one after another
 * from barrier to barrier (the order the interpreter runs them in). It returns 0 when the
 * block is over (every warp exited, or a fault recorded in the block), 1 when it handed
 * the block to the run loop (exec_native_block_rt.bail): a warp met what it does not run
 * (a branch that splits the warp where it cannot follow the lanes); the warps' state is
 * then the interpreter's, as if it had run them so far. */
typedef struct exec_native_block_view {
    exec_wstate *warps;        /* the block's warps (their R and P hold spilled values) */
    uint32_t nwarps;
    uint8_t *shared;
    uint64_t shared_size;
    const exec_range *ranges;  /* EXEC_RANGE_CACHE entries */
    const uint8_t *params;
    const exec_fault_kind *fault_kind; /* non-zero once the block faulted */
    const exec_insn *code;     /* the kernel's code */
    uint32_t ntid[3], ctaid[3], nctaid[3]; /* the special registers of the block */
} exec_native_block_view;

typedef struct exec_native_block_rt {
    uint32_t abi;
    void (*view)(struct exec_block *b, exec_native_block_view *v);
    /* between warp turns: the launch was aborted or ran out of time (the fault is
     * recorded): stop */
    bool (*poll)(struct exec_block *b);
    /* warp wi stopped before instruction pc with lanes act; the other warps, by their
     * lanes left (alive), resume points (res: the instruction after the barrier they
     * wait at, when they ran before wi in this round) and clocks: make it the
     * interpreter's state; returns 1 */
    int (*bail)(struct exec_block *b, uint32_t wi, uint32_t pc, const uint32_t *alive,
                const uint32_t *res, const uint64_t *clk);
    /* as bail, with warp wi inside if-then regions: nreg of them, outermost first, each
     * with the instruction where its paths meet (rpc[k]) and the lanes that meet there
     * (restore[k]); act: the lanes on the path now (alive[wi]: all of the warp's) */
    int (*bail_in_regions)(struct exec_block *b, uint32_t wi, uint32_t pc, uint32_t act,
                           const uint32_t *alive, const uint32_t *res, const uint64_t *clk,
                           uint32_t nreg, const uint32_t *rpc, const uint32_t *restore);
    /* instrumented code (a profiled block that asks no event of each instruction,
     * exec_native_block_observable): warp w's memory instruction in, on the lanes m, with
     * its operands spilled into w's registers, as the observed run loop tells it
     * (exec_observe_insn). Last, so that the plain code's view of the others stays. */
    void (*observe)(exec_wstate *w, const exec_insn *in, uint32_t m);
    /* as observe, for a load or store whose address register a[0] is, on lane l,
     * (base + x * step + y * row_step) in its width (w32: 32 bits), x and y its place in
     * rows of 2^row_log2 lanes, not spilled (exec_observe_affine) */
    void (*observe_affine)(exec_wstate *w, const exec_insn *in, uint32_t m, uint64_t base,
                           int64_t step, int64_t row_step, uint32_t row_log2, uint32_t w32);
} exec_native_block_rt;

extern const exec_native_block_rt exec_native_block_runtime;

/* Whether observed block b may run its kernel's instrumented whole-block code: the
 * program's code is instrumented and b asks no event that needs the interpreter's state
 * instruction by instruction (every instruction, branches, barriers, warp-synchronous
 * operations: the profiler's timed blocks), only memory accesses, which the code reports
 * with every instruction's count (jit/vemit_prof.c). */
bool exec_native_block_observable(const struct exec_block *b);
/* Profiled blocks that the instrumented whole-block code ran to their end, and those it
 * handed to the per-warp code (a warp it could not follow), since the process started:
 * the report's proof that a profiled run took that code (VCUDA_REPORT=1). */
void exec_native_observed_blocks(uint64_t *whole, uint64_t *handed);
void exec_native_observed_block_done(bool whole);

/* Install the native code of function i of p: per-warp code fn and, for a kernel of the
 * vector tier, its whole-block code bfn (either may be NULL). Each function's code is
 * installed on its own, as soon as it is loaded, while launches may run on other host
 * threads: blocks that start from then on run the kernel's whole-block code, and a warp
 * running in the native loop (exec_warp_run_native) enters a function's per-warp code at
 * its next entry point. Call at most once per function. */
void exec_program_install_native(exec_program *p, uint32_t i, exec_native_fn fn,
                                 exec_native_block_fn bfn);
/* Has kernel k of p its own code installed (and is the program's code turned on)? */
bool exec_kernel_native_ready(const exec_program *p, const exec_kernel *k);
/* Does p run compiled code in the blocks that start now (some function's installed, and
 * turned on)? Blocks then run in exec_warp_run_native, which runs each function's code
 * once it is there. */
bool exec_program_native_ready(const exec_program *p);
/* Turn the installed code on or off for the blocks that start from now on (a test runs a
 * kernel in both tiers). */
void exec_program_native_enable(exec_program *p, bool on);

/* Make the compiled code of p instrumented (before its compile job starts: the generator
 * reads exec_func.instrumented): each function's code then counts every instruction into
 * the observer's tally and calls exec_observe_insn where the observed run loop does, so
 * that observed blocks (a profiled run) run compiled code with the interpreter's counts,
 * and it has no vector tier; blocks without an observer, or that ask for an event per
 * instruction, are interpreted. */
void exec_program_instrument(exec_program *p, bool on);
bool exec_program_instrumented(const exec_program *p);

/* Functions of a program, for the generator: count, and each one's lowered form. */
uint32_t exec_program_nfuncs(const exec_program *p);

#endif
