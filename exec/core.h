/* exec/core.h — the SIMT core's private state: the lowered program, the warp and block
 * state the run loop works on, and the helpers shared by the executor's files.
 *
 * Handlers outside the core (exec/alu_*.c, exec/warp_ops.c) see only internal.h; the
 * files that implement loading, the run loop, memory and control include this.
 */
#ifndef VCUDA_EXEC_CORE_H
#define VCUDA_EXEC_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "internal.h"

/* ---- limits and address-space conventions ---- */

/* Kernel parameters have addresses in the param space starting here; anything below is
 * a .param variable of a function frame, which lives in the thread's local memory. */
#define EXEC_KPARAM_BASE 0x40000000ull
/* Function "addresses" (function pointers, .callprototype calls): base + index * 16. */
#define EXEC_FUNC_TOKEN_BASE 0x0002000000000000ull
#define EXEC_FUNC_TOKEN_STEP 16u
/* The index of the function whose token is token (exactly base + index * step), or -1. */
static inline int64_t exec_func_token_index(uint64_t token) {
    if (token < EXEC_FUNC_TOKEN_BASE || (token - EXEC_FUNC_TOKEN_BASE) % EXEC_FUNC_TOKEN_STEP)
        return -1;
    uint64_t index = (token - EXEC_FUNC_TOKEN_BASE) / EXEC_FUNC_TOKEN_STEP;
    return index > UINT32_MAX ? -1 : (int64_t)index;
}
/* Call depth at which a call faults with EXEC_FAULT_STACK_OVERFLOW. */
#define EXEC_MAX_CALL_DEPTH 1024u
/* Extra local memory per thread for kernels whose call graph is recursive. */
#define EXEC_RECURSION_STACK_BYTES (16u * 1024u)
/* A warp spinning without reaching a barrier yields to the block's other warps after
 * this many instructions (checked at backward branches), so spin-waits on shared flags
 * set by another warp make progress. */
#define EXEC_TIME_SLICE 200000u
/* A diverged path that has gone round a loop that may be a spin-wait this many times in a
 * row lets the warp's other lanes run (independent thread scheduling, exec/control.c). */
#define EXEC_SPIN_LIMIT 1000u
#define EXEC_NUM_BARRIERS 16u
/* The barrier barrier.cluster.arrive/wait count the block's threads at, besides the named
 * ones (its completion is the block's arrival at the cluster's barrier, exec/cluster.c). */
#define EXEC_CLUSTER_BARRIER EXEC_NUM_BARRIERS

/* Handler-private flag bits (EXEC_F_HANDLER and up) used by the core's own handlers. */
#define EXEC_F_PSEUDO   (EXEC_F_HANDLER << 0) /* inserted by the decoder, not a PTX insn */
#define EXEC_F_SIGNED   (EXEC_F_HANDLER << 1) /* ld: sign-extend the loaded value */
#define EXEC_F_BACKWARD (EXEC_F_HANDLER << 2) /* bra: target at or before the branch */
#define EXEC_F_SPIN     (EXEC_F_HANDLER << 3) /* bra: closes a loop that may wait on other
                                                 threads (exec/control.c) */

/* Builtin callees: declarations without a body that the core implements itself. */
enum exec_builtin {
    EXEC_BUILTIN_NONE = 0, EXEC_BUILTIN_VPRINTF, EXEC_BUILTIN_ASSERTFAIL,
    EXEC_BUILTIN_MALLOC, EXEC_BUILTIN_FREE,
    EXEC_BUILTIN_DEVRT_FIRST = 64  /* the device runtime's entry points (exec/devrt.c) */
};

/* ---- the lowered program ---- */

/* How a constant slot gets its value when a frame is entered. */
enum exec_const_kind {
    EXEC_CK_VALUE,      /* value as is (immediates, tokens, parameter offsets) */
    EXEC_CK_ADDR,       /* value as is, but the address of a module's .global/.const variable:
                         * it changes from run to run, so compiled code reads it from the
                         * register file instead of holding it (its cache entry stays valid) */
    EXEC_CK_LOCAL,      /* frame's local base + value (.local/.param of the frame) */
    EXEC_CK_SHARED,     /* the running kernel's offset of shared variable sid + value */
    EXEC_CK_DYN_SHARED  /* the running kernel's dynamic shared base + value */
};

typedef struct exec_const {
    uint64_t value;
    uint32_t slot;
    uint32_t sid;
    uint8_t kind;
} exec_const;

typedef struct exec_func exec_func;

/* The compiled tier's code for one function (exec/native.h): runs the warp from w->ip
 * while it stays in this function's code; 1 when the warp leaves the run loop (a yield),
 * 0 when it went on elsewhere (a call, a return, code outside the function), 2 when w->ip
 * is not one of its entry points (the run loop interprets that instruction). */
struct exec_wstate;
struct exec_native_rt;
typedef int (*exec_native_fn)(struct exec_wstate *w, const struct exec_native_rt *rt);
/* The vector tier's code for a kernel (exec/native.h): runs every warp of a block. */
struct exec_block;
struct exec_native_block_rt;
typedef int (*exec_native_block_fn)(struct exec_block *b, const struct exec_native_block_rt *rt);

/* One call instruction's argument passing: where its .param arguments sit in the
 * caller's frame and where they go in the callee's. */
typedef struct exec_callsite {
    const exec_func *callee;   /* NULL for an indirect call (callee from target slot) */
    uint32_t nargs;
    uint32_t *arg_off;         /* caller frame offset of each argument variable */
    uint32_t *arg_size;
    uint32_t nrets;
    uint32_t *ret_off;         /* caller frame offset of each return variable */
    uint32_t *ret_size;
    uint32_t target_slot;      /* indirect calls: slot holding the function token */
} exec_callsite;

struct exec_func {
    const ptx_func *pf;
    uint32_t index;            /* in the module's function list */
    int builtin;               /* enum exec_builtin; code is NULL for builtins */
    exec_insn *code;           /* ncode instructions, then an end sentinel */
    uint32_t ncode;
    uint32_t nslots;           /* register + constant + scratch slots */
    uint32_t npreds;           /* predicate registers + the two constant predicates */
    uint32_t pred_false, pred_true; /* indices of the constant predicates */
    exec_const *consts;
    uint32_t nconsts;
    /* local frame (per thread): own params, return params, then body .local/.param */
    uint32_t frame_size;
    uint32_t *param_off, *ret_off; /* frame offsets; for a kernel: param buffer offsets */
    int32_t *local_off;        /* per body variable: frame offset, or -1 for .shared */
    int32_t *local_sid;        /* per body variable: shared id, or -1 */
    exec_callsite *calls;
    uint32_t ncalls;
    int32_t *jump_tables;      /* brx.idx targets (code indices), insn: target = first, aux = n */
    uint32_t njump;
    uint32_t *used_sids;       /* shared variables the body refers to */
    uint32_t nused_sids;
    uint32_t regs_estimate;
    void **blobs;              /* operand descriptions decoders allocated (exec_dec_blob) */
    uint32_t nblobs;
    /* compiled code (exec/native.h), NULL: interpreted. Installed while launches may run
     * on other threads: written once (release) and read with acquire loads. */
    exec_native_fn native;
    exec_native_block_fn block_native; /* a kernel's whole-block code (exec/native.h), or NULL */
    /* the code to compile is the instrumented kind, which tells an observer what the
     * observed run loop tells it (exec_program_instrument) */
    bool instrumented;
};

struct exec_kernel {
    const exec_program *prog;
    exec_func *func;
    exec_kernel_info info;
    uint32_t *param_offsets, *param_sizes;
    uint32_t *shared_off;      /* per shared id: offset, UINT32_MAX when unused */
    uint32_t dyn_base;         /* offset of the dynamic (extern) shared memory */
};

struct exec_program {
    ptx_module *m;
    mem_table *mem;
    uint64_t serial;           /* unique per load: keys the frames' constant caches */
    exec_func *funcs;          /* one per module function */
    exec_kernel *kernels;
    uint32_t nkernels;
    void **var_addr;           /* per module variable: storage (.global/.const), else NULL */
    bool *var_borrowed;        /* per module variable: another program's storage (managed) */
    exec_program_opts opts;
    int32_t *var_sid;          /* per module variable: shared id, or -1 */
    uint32_t nsids;
    const ptx_var **sid_var;   /* per shared id: its declaration */
    /* the compiled tier: set (release) once some function's native code is installed,
     * read (acquire) when a block starts (exec/native.h); each function's code arrives
     * on its own, so a block also reads the function's pointers (acquire) */
    bool native_ready;
    bool native_on;            /* blocks may use it (tests turn it off to compare) */
    bool instrumented;         /* its compiled code is instrumented: observed blocks run it,
                                * others the interpreter (exec_program_instrument) */
};

/* ---- running ---- */

/* A call frame of one warp. The register storage stays allocated for reuse. */
typedef struct exec_frame {
    const exec_func *func;
    uint64_t *R;
    uint32_t *P;
    uint32_t R_cap, P_cap;     /* allocated slots / predicates */
    uint32_t local_base;       /* this frame's offset in each thread's local memory */
    /* how to resume the caller */
    const exec_insn *ret_ip;
    const exec_callsite *site;
    uint32_t restore_mask;     /* caller's active mask at the call */
    uint32_t call_mask;        /* lanes that made the call */
    uint32_t saved_returned;   /* caller's returned-lanes mask */
    uint32_t rs_base;          /* reconvergence stack depth at the call */
    /* constant-slot cache: what the constant slots were last filled for */
    const exec_func *cfunc;
    uint64_t cserial;
    uint32_t clocal;
    const exec_kernel *ckernel;
} exec_frame;

/* A divergence on the reconvergence stack: lanes of restore_mask meet again at rpc;
 * pending_mask lanes still have to run from pending_ip before that. */
typedef struct exec_rentry {
    const exec_insn *rpc;       /* NULL: they meet only at function exit */
    const exec_insn *pending_ip;
    uint32_t pending_mask;
    uint32_t restore_mask;
    /* The pending lanes spin, and the warp's other lanes were let past the meeting point
     * ahead of them (independent thread scheduling, exec/control.c run_waiting_lanes):
     * on the GPU those lanes would still be waiting for them there. */
    bool ahead_of_spinners;
    /* The pending lanes wait at a warp collective (pending_ip) for the running lanes its
     * membermask names (exec_warp_sync_meet). */
    bool pending_at_sync;
} exec_rentry;

enum exec_warp_status { EXEC_WARP_RUNNABLE, EXEC_WARP_BARRIER, EXEC_WARP_EXITED };

/* Lanes that arrived at a barrier while other lanes of their warp still had a path to
 * run (sm_70 and later count threads, not warps): they wait as the pending path of a
 * reconvergence entry until the barrier completes (exec/block.c). */
typedef struct exec_bar_park {
    const exec_insn *insn;      /* the barrier instruction (bar.red: where the result goes) */
    uint32_t lanes;             /* lanes parked on the path (guard-false ones included) */
    uint32_t arrived;           /* lanes that arrived at the barrier */
    uint32_t depth;             /* frame the instruction belongs to */
    uint32_t id;                /* barrier id */
    int32_t cont;               /* index in exec_wstate.conts when parked in a callee, or -1 */
} exec_bar_park;

typedef struct exec_wstate {
    exec_warp h;                /* what handlers see; first member */
    const exec_insn *ip;        /* next instruction */
    const exec_insn *brk;       /* the run loop leaves its fast path on reaching this */
    const exec_insn *code;      /* current function's code (set by exec_warp_enter_code) */
    /* observed runs: the observer's tally of the current function (NULL: none), indexed
     * like its IR instructions (exec_insn.src_index); insn_events: report every one;
     * obs_calls: the kinds of instruction (bit k: enum exec_obs_kind k) whose issue calls
     * exec_observe_insn */
    struct exec_insn_tally *tally;
    bool insn_events;
    uint32_t obs_calls;
    uint64_t insn_events_until; /* clock at which insn events stop (observer's limit) */
    uint64_t clock;             /* issued instructions (%clock64) */
    uint64_t slice_start;
    uint32_t spin_count;        /* consecutive uniform turns of a possible spin loop */
    uint32_t spin_waits;        /* co-resident blocks: turns of the current spin-wait, */
    uint64_t spin_last;         /* the clock of its last turn, and the barrier flips it */
    uint64_t spin_flips_seen;   /* has seen (exec/control.c) */
    uint64_t cl_target;         /* the cluster barrier generation its last
                                 * barrier.cluster.arrive counts towards */
    uint32_t returned;          /* lanes that returned from the current function */
    uint8_t status;             /* enum exec_warp_status */
    bool yield;                 /* leave the run loop at brk */
    /* co-resident blocks: the warp arrived at the grid barrier (an atomic on its word that
     * did not complete it), and the spin-wait it is in began right after such an arrival,
     * so it polls the barrier's word until the barrier completes (exec/control.c) */
    bool grid_bar_arrived, grid_bar_spin;
    exec_frame *frames;
    uint32_t depth, frames_cap; /* current frame is frames[depth] */
    exec_rentry *rs;
    uint32_t rsp, rs_cap;
    /* barrier wait */
    uint32_t bar_id, bar_mask;
    const exec_insn *bar_insn;
    /* split-warp barriers: lanes parked on pending paths until their barrier completes */
    uint32_t parked;            /* lanes of the parks below */
    bool resume_parked;         /* stopped at a parked path: resume with exec_warp_path_done */
    uint32_t nparks;
    struct exec_bar_cont *conts; /* parked lanes' call frames (exec/block.c) */
    uint32_t nconts;
    /* A __syncwarp (bar.warp.sync) executed by part of its membermask: lanes of a warp
     * run in lockstep here, so the lanes that executed it (waiting) went on; on the GPU
     * they wait there until the others (missing) execute a bar.warp.sync with the same
     * mask. If instead the missing lanes meet the waiting ones at a reconvergence point,
     * neither could ever get there on the GPU: that hang is reported (exec/warp.c). */
    uint32_t syncwarp_members, syncwarp_waiting, syncwarp_missing;
    const exec_insn *syncwarp_insn;
    /* (the arrays last: what a block's start resets sits in the struct's first lines) */
    exec_bar_park parks[EXEC_WARP_SIZE];
    uint32_t sp[EXEC_WARP_SIZE]; /* each lane's stack pointer for alloca (exec/stack.c) */
} exec_wstate;

/* A global allocation an instruction recently accessed: [lo, hi). */
typedef struct exec_range {
    uint64_t lo, hi;
    bool writable;
} exec_range;
/* Entries of a worker's range cache, direct-mapped by instruction address: enough that two
 * memory instructions of one kernel of up to 256 instructions never share one (with 64,
 * the tree reductions' tails evicted their first loads' entries in every block, and each
 * miss is the handler's lane-by-lane path and an allocation-table look-up) */
#define EXEC_RANGE_CACHE 256u

typedef struct exec_barrier {
    uint32_t arrived;           /* threads arrived */
    uint32_t expected;          /* thread count given by the instruction, 0 = all */
    uint32_t waiting;           /* warps waiting */
    uint32_t parked;            /* groups of lanes parked on pending paths (exec_bar_park) */
    uint32_t red_popc;          /* bar.red accumulators */
    bool red_and, red_or;
} exec_barrier;

struct exec_block {
    const exec_launch *L;
    const exec_kernel *k;
    const exec_program *prog;
    exec_worker *worker;
    exec_dim3 ctaid, ntid;
    uint32_t smid;
    uint32_t nthreads, nwarps;
    uint32_t live_threads;      /* threads that have not exited */
    uint8_t *shared;
    uint32_t shared_size;
    uint8_t *local;
    uint32_t local_stride;
    uint32_t stack_base, stack_top; /* each thread's alloca region in its local memory
                                     * (exec/stack.c); empty unless info.dyn_stack */
    exec_output *out;
    exec_fault *fault;
    exec_fault_kind fault_kind;
    exec_barrier bars[EXEC_NUM_BARRIERS + 1]; /* named barriers, then the cluster's */
    uint32_t cl_rank;           /* %cluster_ctarank */
    uint64_t cl_arrivals;       /* times every live thread of the block arrived at the
                                 * cluster barrier (the generations it arrived at) */
    uint32_t cl_waiting;        /* warps waiting at barrier.cluster.wait */
    exec_wstate *warps;
    struct exec_devrt_worker *devrt; /* device-runtime state once the block used it */
    /* observed: the events the observer wants from this block (EXEC_OBS_EV_*, less
     * those it has no callback for), and the kinds of instruction that report them */
    uint32_t obs_events, obs_calls;
};

struct exec_worker {
    /* the observer this worker is telling about the launch it runs, and the state
     * begin_worker made for it (NULL when none) */
    const struct exec_observer *observer;
    void *observer_state;
    /* the observer's tallies of the functions of the program whose serial is
     * tally_serial, asked on first use (index: the exec_func's; NULL = not asked yet,
     * tally_none = asked, none) */
    struct exec_insn_tally **tallies;
    uint32_t tallies_cap;
    uint64_t tally_serial;
    exec_wstate *warps;
    uint32_t warps_cap;
    uint8_t *shared;
    size_t shared_cap;
    uint8_t *local;
    size_t local_cap;
    uint64_t insn_count;
    /* Kept from block to block: the allocation each global memory instruction last hit,
     * so the common case is a range compare (direct-mapped by instruction address).
     * Valid while the allocation table range_mem has lost no entry (mem_removal_epoch is
     * still range_epoch). */
    const mem_table *range_mem;
    uint64_t range_epoch;
    exec_range ranges[EXEC_RANGE_CACHE];
    struct exec_block block;
    /* block.bars may hold an earlier block's state: only the run loop touches barriers
     * (the vector tier keeps its own), so a worker whose blocks all ran there clears them
     * once, not per block */
    bool bars_dirty;
    struct exec_devrt_worker *devrt; /* storage for the blocks' device-runtime state */
};

static inline exec_wstate *exec_ws(exec_warp *w) { return (exec_wstate *)w; }

static inline exec_range *exec_range_of(struct exec_block *b, const exec_insn *in) {
    return &b->worker->ranges[((uintptr_t)in / sizeof(exec_insn)) % EXEC_RANGE_CACHE];
}
/* Forget every cached range of the block's worker. */
void exec_block_forget_ranges(struct exec_block *b);

/* Lane loops of the core's hot handlers: a plain counted loop for the full mask (no
 * per-lane test, so the compiler can unroll or vectorise it), the set bits otherwise.
 * The body comes last and may contain commas. Lanes are independent: a body may read and
 * write the same slot (d == a), but never another lane's element, so the loop carries
 * no dependence and may be vectorised without alias checks (EXEC_LANES_INDEPENDENT). */
#if defined(__clang__)
#define EXEC_LANES_INDEPENDENT _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define EXEC_LANES_INDEPENDENT _Pragma("GCC ivdep")
#else
#define EXEC_LANES_INDEPENDENT
#endif
#define EXEC_EACH_LANE(mask, lane, ...)                                                    \
    do {                                                                                  \
        uint32_t each_m_ = (mask);                                                        \
        if (each_m_ == EXEC_FULL_MASK) {                                                  \
            EXEC_LANES_INDEPENDENT                                                        \
            _Pragma("GCC unroll 8")                                                       \
            for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++) { __VA_ARGS__; }       \
        } else {                                                                          \
            for (; each_m_; each_m_ &= each_m_ - 1) {                                     \
                uint32_t lane = (uint32_t)__builtin_ctz(each_m_);                         \
                __VA_ARGS__;                                                              \
            }                                                                             \
        }                                                                                 \
    } while (0)

/* d[lane] = v for the lanes in mask. */
static inline void exec_broadcast(uint64_t *d, uint32_t mask, uint64_t v) {
    EXEC_EACH_LANE(mask, lane, d[lane] = v);
}

/* ---- warp.c: run loop, frames, reconvergence ---- */
void exec_warp_run(exec_wstate *w);
/* The same loop running the compiled tier's code of each function that has some. */
void exec_warp_run_native(exec_wstate *w);
/* Between warp turns of whole-block native code: has the launch been aborted or run past
 * its deadline? Records the fault and answers true. */
bool exec_block_poll(struct exec_block *b);
/* The same loop telling the launch's observer every event (exec/observe.h). */
void exec_warp_run_observed(exec_wstate *w);
/* The observed loop running the instrumented compiled code of each function that has
 * some (exec/observe.c), for a program whose code is instrumented. */
void exec_warp_run_native_observed(exec_wstate *w);
/* Leave the run loop before the next instruction (barrier, exit, fault, time slice). */
static inline void exec_warp_yield(exec_wstate *w) { w->yield = true; w->brk = w->ip; }
/* Set brk from the top of the reconvergence stack. */
void exec_warp_update_brk(exec_wstate *w);
/* The current path is finished: its lanes have left it (exit, ret) or wait at the
 * reconvergence point on top of the stack. Run the pending side, or reconverge and go on
 * from there, or return from the function, or finish the warp. */
void exec_warp_path_done(exec_wstate *w);
/* Every run loop's head, taken when the next instruction is brk: true when the warp
 * leaves the loop (a handler yielded: brk goes back to the reconvergence stack's top);
 * otherwise the path reached the reconvergence point on top of the stack, whose lanes
 * wait there while the other side runs, or all go on together, and the loop goes on
 * from the warp's new ip. Inline: the loops stay one compare at fetch. */
static inline bool exec_warp_at_brk(exec_wstate *w) {
    if (w->yield) {
        w->yield = false;
        exec_warp_update_brk(w);
        return true;
    }
    exec_warp_path_done(w);
    return false;
}
/* A warp collective (.sync) about to run with the executing lanes; members: the lanes
 * its membermask names. True when it must not run now: the executing lanes were set aside
 * to wait at it while named lanes with a path of their own run, or the lanes waiting at
 * it joined the executing ones and the warp runs it again with them. */
bool exec_warp_sync_meet(exec_wstate *w, const exec_insn *in, uint32_t members);
/* Enter frame depth+1 for callee (frame buffers, constants); false on stack overflow
 * (fault recorded). */
bool exec_frame_push(exec_wstate *w, const exec_insn *in, const exec_func *callee,
                     uint32_t lane_for_fault);
/* Make frames[depth] ready for f at local offset local_base (buffers and constants). */
bool exec_frame_prepare(exec_wstate *w, uint32_t depth, const exec_func *f,
                        uint32_t local_base);
/* Does a thread at p end there (exit, or ret from the kernel, perhaps after a few
 * unconditional branches)? (control.c) */
bool exec_ends_thread(const exec_wstate *w, const exec_insn *p);
/* Lanes in mask leave the warp for good (exit). */
void exec_warp_exit_lanes(exec_wstate *w, uint32_t mask);
/* Push a reconvergence entry: lanes restore meet at rpc; pending_mask lanes still have to
 * run from pending_ip (exec/control.c). */
void exec_warp_push_divergence(exec_wstate *w, const exec_insn *rpc, uint32_t restore,
                               const exec_insn *pending_ip, uint32_t pending_mask);

/* What the observed run loop reports for an instruction besides its issue (exec_insn.obs).
 * Each kind names where the instruction keeps what the event needs. */
enum exec_obs_kind {
    EXEC_OBS_K_NONE = 0,
    EXEC_OBS_K_HIDDEN,       /* no event at all: inserted by the decoder, not a PTX insn */
    EXEC_OBS_K_BRANCH,       /* bra: the guard-true lanes take it */
    EXEC_OBS_K_BRANCH_IDX,   /* brx.idx: lanes going where the first one goes "take" it */
    EXEC_OBS_K_LOAD,         /* ld/ldu: address a[0] + imm, type x vec bytes, in->space */
    EXEC_OBS_K_STORE,        /* st: the same */
    EXEC_OBS_K_ATOMIC,       /* atom/red: address a[0] + imm, type bytes, in->space */
    EXEC_OBS_K_LOAD_KPARAM,  /* ld.param of a kernel parameter by name: offset imm */
    EXEC_OBS_K_CP_ASYNC,     /* cp.async: global a[1] + target -> shared a[0] + imm, vec bytes */
    EXEC_OBS_K_BARRIER,      /* bar/barrier (sync, arrive, red): exec_barrier_id */
    EXEC_OBS_K_WARP_SYNC_A0, /* warp-synchronous op with its membermask in a[0] */
    EXEC_OBS_K_WARP_SYNC_A1, /* ... in a[1] */
    EXEC_OBS_K_WARP_SYNC_A3, /* ... in a[3] */
    EXEC_OBS_K_TEX           /* tex/tld4/suld/sust: exec_tex_footprint_of */
};

/* ---- observe.c: events for the launch's observer (exec/observe.h) ---- */
/* The events of instruction in, issued with guard-true lanes m (0 when none), before it
 * takes effect. */
void exec_observe_insn(exec_wstate *w, const exec_insn *in, uint32_t m);
/* exec_observe_insn of a load or store whose address register a[0] holds, on every lane l,
 * (base + x * step + y * row_step) in its width (w32: the low 32 bits, zero-extended, else
 * all 64), x and y lane l's place in rows of 2^row_log2 lanes (5: base + l * step), without
 * that register spilled: the observer hears it compactly (exec_observer.mem_affine) or
 * from the lanes formed here, the same as exec_observe_insn would tell. */
void exec_observe_affine(exec_wstate *w, const exec_insn *in, uint32_t m, uint64_t base,
                         int64_t step, int64_t row_step, uint32_t row_log2, uint32_t w32);
/* texture.c: what a tex/tld4/suld/sust on the lanes in mask touches (exec/observe.h),
 * without running it or faulting. */
struct exec_tex_footprint;
void exec_tex_footprint_of(exec_warp *w, const exec_insn *in, uint32_t mask,
                           struct exec_tex_footprint *fp);
/* Set in->obs from the IR instruction the decoder just turned into in. */
void exec_observe_classify(const ptx_func *pf, const ptx_insn *pi, exec_insn *in);
/* Device-side malloc/free by lane (exec/observe.h's heap event; nothing without an
 * observer); op is an exec_heap_op. */
void exec_observe_heap(exec_wstate *w, const exec_insn *in, int op, uint32_t lane,
                       uint64_t ptr, uint64_t size);
/* The warp now runs f's code: sets w->code, and in an observed run the tally the
 * instructions of f go to. */
void exec_warp_enter_code(exec_wstate *w, const exec_func *f);
/* In an observed run: whether each of the warp's instructions is an event, and which kinds
 * of instruction call the observer (from its tally, the block's events and the cap). */
void exec_warp_pick_events(exec_wstate *w);
/* The tally of f for this worker's observer (NULL: report f's instructions as events). */
struct exec_insn_tally *exec_observe_tally(struct exec_block *b, const exec_func *f);
/* A block starts / ends on this worker (begins the worker's observation when needed). */
void exec_observe_block_begin(struct exec_block *b);
/* start: the warps' clock when the block began */
void exec_observe_block_end(struct exec_block *b, uint64_t start);
/* Barrier id of the block completed (count: the threads it waited for, 0 = every live
 * thread): after the barrier events of the warps that arrived at it. */
void exec_observe_barrier_complete(struct exec_block *b, uint32_t id, uint32_t count);

/* ---- block.c ---- */
/* The barrier id instruction in (bar, barrier) names for lane. */
uint32_t exec_barrier_id(const exec_warp *w, const exec_insn *in, uint32_t lane);
/* The next path of the warp holds lanes parked at a barrier that has not completed:
 * the warp waits, and resumes with exec_warp_path_done once the barrier completes. */
void exec_warp_wait_parked(exec_wstate *w);
/* Called when threads exit: a barrier waiting for all threads may now be complete. */
void exec_block_threads_exited(struct exec_block *b, uint32_t n);
/* Stop the block because the launch is being aborted (another block faulted). */
void exec_warp_stop_aborted(exec_wstate *w);
/* Is an abort requested for this launch? */
static inline bool exec_block_aborted(const struct exec_block *b) {
    return b->L->abort && *b->L->abort;
}

/* A block of the device heap (L->heap bounds it) entered in the allocation table, or 0
 * when the heap has no room; and its free: false when ptr is no heap block. */
uint64_t exec_heap_malloc(const exec_launch *L, uint64_t size);
bool exec_heap_free(const exec_launch *L, uint64_t ptr);

/* ---- memory.c: address resolution, shared with control.c and printf.c ---- */
enum { EXEC_ACC_READ, EXEC_ACC_WRITE, EXEC_ACC_ATOMIC };
/* Host pointer for size bytes at address addr of space sp (PTX_SPACE_GENERIC: decided by
 * the windows of mem/mem.h); checks alignment to size and bounds. NULL when the access
 * faults (recorded against in and lane). */
void *exec_mem_addr(exec_wstate *w, const exec_insn *in, uint32_t lane, ptx_space sp,
                    uint64_t addr, uint32_t size, int access);
/* The string at generic address addr as lane sees it (local addresses are the lane's
 * own): *p receives the host pointer; returns its length before the NUL, bounded by the
 * memory that contains it, or -1 when the address is invalid. */
long exec_mem_string(exec_wstate *w, uint32_t lane, uint64_t addr, const char **p);

/* Host address of byte off of lane's local memory (the caller keeps off in bounds). */
static inline uint8_t *exec_lane_local(exec_wstate *w, uint32_t lane, uint64_t off) {
    struct exec_block *b = w->h.block;
    return b->local + ((size_t)w->h.warp_in_block * EXEC_WARP_SIZE + lane) * b->local_stride +
           off;
}

/* ---- output (printf.c) ---- */
void exec_output_append(exec_output *o, const char *s, size_t n);
/* Append to the block's diagnostics (o->err) instead of its printf output. */
void exec_output_err_printf(exec_output *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void exec_output_printf(exec_output *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Device printf for one lane: format at generic address fmt, arguments at generic address
 * args. Returns printf's result (number of arguments) or -1 with a fault recorded. */
int exec_vprintf_lane(exec_wstate *w, const exec_insn *in, uint32_t lane, uint64_t fmt,
                      uint64_t args);

/* ---- devrt.c: the device runtime's entry points ---- */
/* The builtin number of a device-runtime function name, or EXEC_BUILTIN_NONE. */
int exec_devrt_builtin_of(const char *name);
/* Is a builtin number the device runtime's cudaGraphLaunch? */
bool exec_devrt_is_graph_launch(int builtin);
/* cudaLaunchDevice (either model): a kernel launch from device code */
bool exec_devrt_is_kernel_launch(int builtin);
/* Run the call for the lanes in mask. */
void exec_devrt_call(exec_wstate *w, const exec_insn *in, const exec_callsite *cs, int builtin,
                     uint32_t mask);
/* Warp warp printed from byte `from` of the block's output on during its last run: tell
 * the grid runner when that output belongs to another launch epoch than the output
 * before it. */
void exec_devrt_note_output(struct exec_block *b, uint32_t warp, size_t from);
/* The block is over: release its parameter buffers. */
void exec_devrt_block_end(struct exec_block *b);
void exec_devrt_worker_free(exec_worker *wk);

/* ---- fault.c ---- */
/* Record a fault that belongs to no instruction (barrier deadlock). */
void exec_fault_block(struct exec_block *b, exec_fault_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Thread index (x,y,z) of lane in warp w. */
exec_dim3 exec_thread_of(const struct exec_block *b, uint32_t warp, uint32_t lane);

/* ---- cluster.c: thread block clusters ---- */
/* A shared::cluster address of another block: (rank + 1) << EXEC_DSMEM_SHIFT | offset (a
 * block's own shared::cta offsets, below that, are also its shared::cluster addresses). */
#define EXEC_DSMEM_SHIFT 24u
/* Blocks of the block's cluster (1 without a cluster launch). */
static inline uint32_t exec_cluster_size(const struct exec_block *b) {
    const exec_dim3 *c = &b->L->cluster_dim;
    return b->L->cluster ? c->x * c->y * c->z : 1u;
}
/* The block starts / has ended (its shared memory is no longer reachable). */
void exec_cluster_enter(struct exec_block *b);
void exec_cluster_leave(struct exec_block *b);
/* Every live thread of the block arrived at the cluster barrier. */
void exec_cluster_block_arrived(struct exec_block *b);
/* Generations of the cluster barrier completed. */
uint64_t exec_cluster_generation(const struct exec_block *b);
/* Sleep a little while the cluster barrier stays at generation seen (the block's warps
 * all wait for other blocks). */
void exec_cluster_sleep(struct exec_block *b, uint64_t seen);
/* A warp spinning on what another block of the cluster does: give the host's cores to
 * the other blocks for a while that grows with round. */
void exec_cluster_nap(struct exec_block *b, uint32_t round);
/* The block of rank in b's cluster (its memory stays while the cluster runs, even after
 * it exits), NULL with *why set when the rank is outside the cluster. */
struct exec_block *exec_cluster_peer(struct exec_block *b, uint32_t rank, const char **why);

/* ---- sreg.c ---- */
void exec_h_sreg(exec_warp *w, const exec_insn *in, uint32_t mask);

/* ---- lower.c: decoder internals used by the class decoders ---- */
struct exec_decoder {
    exec_program *prog;
    const ptx_module *m;
    const ptx_func *pf;
    exec_func *f;
    exec_insn *code;
    uint32_t ncode, code_cap;
    uint32_t *reg_slot;        /* per IR register: slot, or P index for predicates */
    uint32_t next_slot;
    uint32_t *scratch;         /* scratch slots, allocated on first use */
    uint32_t nscratch, scratch_used;
    uint32_t consts_cap;
    uint32_t sids_cap;
    uint32_t calls_cap;
    uint32_t *fixups;          /* code index << 1 | target flag, see exec_dec_fixup */
    uint32_t nfixups, fixups_cap;
    uint32_t *pc_map;          /* IR instruction index -> code index */
    char *err;
    size_t errlen;
    bool failed;
};

uint32_t exec_dec_scratch(exec_decoder *d);
/* A constant slot of the given kind (deduplicated). */
uint32_t exec_dec_const(exec_decoder *d, uint8_t kind, uint32_t sid, uint64_t value);
/* The address of a symbol reference plus addend, as a constant slot. */
bool exec_dec_sym_slot(exec_decoder *d, const ptx_insn *pi, const ptx_symref *s,
                       int64_t addend, uint32_t *slot);
/* Zeroed memory for an instruction's operand description, freed with the function
 * (for instructions with more operands than exec_insn holds: exec/mma.c). */
void *exec_dec_blob(exec_decoder *d, size_t size);
/* Append an instruction to the function's code (the decoder's inserted reads). */
void exec_dec_emit(exec_decoder *d, const exec_insn *in);
/* Does pi carry the modifier spelled name? (for modifiers the .def may not list) */
bool exec_dec_has_mod_named(const ptx_insn *pi, const char *name);
/* The state space a memory instruction names (generic when none). */
ptx_space exec_dec_space(const ptx_insn *pi);
/* The space a symbol reference lives in. */
ptx_space exec_dec_sym_space(exec_decoder *d, const ptx_symref *s);

/* Record that the instruction about to be emitted holds IR indices in reconv (and in
 * target when target is true), to be mapped to code indices once the body is decoded. */
void exec_dec_fixup(exec_decoder *d, bool target);
/* Decode an address operand ([reg+imm], [sym+imm], [imm]) into a[0] and imm. */
bool exec_dec_address(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, ptx_space sp,
                      exec_insn *out);
bool exec_lower_func(exec_program *prog, exec_func *f, uint32_t *reg_slot, uint32_t first_free,
                     char *err, size_t errlen);
/* uniform.c: find the instructions of f (just decoded; reg_slot maps its IR registers)
 * whose operands hold one value across the warp's executing lanes, and make them run once
 * (in->lane_fn keeps the handler of its lane loop). */
void exec_uniform_pass(exec_func *f, const uint32_t *reg_slot);
/* The handler that runs in (whose fn is still its lane handler) once for the warp. */
exec_fn exec_uniform_handler_for(const exec_insn *in);
/* Is fn one of the handlers that run an instruction once for the warp? */
bool exec_is_uniform_handler(exec_fn fn);
/* regs.c: registers per thread, estimated from the most values live at once. */
uint32_t exec_estimate_regs(const ptx_func *pf);

/* Handlers other files name. */
void exec_h_nop(exec_warp *w, const exec_insn *in, uint32_t mask);
void exec_h_ret(exec_warp *w, const exec_insn *in, uint32_t mask);

/* Class decoders: 1 decoded, 0 not theirs, -1 error. */
int exec_decode_memory(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
int exec_decode_atomic(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
bool exec_atom_vec_shape(const exec_insn *in, int64_t *off, unsigned *n);
/* Atomically combine b into the 4- or 8-byte value of type t at host address p with op
 * (PTX_MOD_add, _min, _max, _and_, _or_); the old value. (sured, exec/texture.c) */
uint64_t exec_atomic_red(void *p, ptx_mod op, ptx_type t, uint64_t b);
int exec_decode_control(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
int exec_decode_sync(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
int exec_decode_sreg_mov(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
int exec_decode_mbarrier(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
int exec_decode_cluster(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
/* alloca, stacksave, stackrestore (exec/stack.c); the two handlers the decoder also inserts
 * to give back a function's allocations when it returns (exec/lower.c) */
int exec_decode_stack(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
/* tensormap.replace and tensormap.cp_fenceproxy (exec/tensormap_edit.c) */
int exec_decode_tensormap(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
void exec_h_stacksave(exec_warp *w, const exec_insn *in, uint32_t mask);
void exec_h_stackrestore(exec_warp *w, const exec_insn *in, uint32_t mask);
int exec_decode_mma(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
/* tex, tld4, txq, suld, sust (exec/texture.c) */
int exec_decode_texture(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
int exec_decode_cp_async_arrive(exec_decoder *d, const ptx_insn *pi, exec_insn *out,
                                bool noinc);
/* cp.async.bulk[.tensor|.prefetch], cp.reduce.async.bulk, their commit/wait (exec/bulk.c) */
int exec_decode_bulk(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
/* Complete bytes of an mbarrier's transaction count (exec/mbarrier.c). */
void exec_mbarrier_complete_tx(uint64_t *obj, uint64_t bytes);

/* program.c: the function for a module function index. */
const exec_func *exec_program_func(const exec_program *p, uint32_t index);

#endif
