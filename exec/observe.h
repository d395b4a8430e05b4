/* exec/observe.h — watching a kernel run: the one instrumentation interface of the
 * executor, shared by the profiler (prof/) and the checkers (check/).
 *
 * A launch carries at most one observer (exec_launch.observer; NULL = none). The executor
 * tests that one pointer where an event happens, so an unobserved run pays a predictable
 * branch and nothing else. Several tools at once are composed by the layer above (one
 * observer whose callbacks fan out), never by more hooks in the executor.
 *
 * Callbacks run on the worker thread that runs the block, possibly on many threads at
 * once: per-thread state goes through worker_state, which the executor creates for each
 * worker on first use (begin_worker) and hands back in every event.
 * Any callback may be NULL. Events come before the instruction takes effect, so a checker
 * sees an access even when the executor then faults on it.
 */
#ifndef VCUDA_EXEC_OBSERVE_H
#define VCUDA_EXEC_OBSERVE_H

#include <stdint.h>
#include <stdbool.h>
#include "../ptx/ir.h"
#include "exec.h"

/* Where an event happened: enough to name kernel, block, warp, lanes and source line. */
typedef struct exec_site {
    const exec_launch *launch;
    exec_dim3 ctaid;
    uint32_t warp;            /* warp index within the block; lane l is thread warp*32+l */
    uint32_t smid;
    uint32_t insn_index;      /* insn's index in its function's instructions */
    bool insn_event;          /* insn came through the insn event too (just before) */
    const ptx_insn *insn;     /* the IR instruction (srcloc, opcode); NULL for block events */
    void *worker_state;       /* what begin_worker returned for this worker thread */
} exec_site;

typedef enum exec_mem_access {
    EXEC_OBS_LOAD, EXEC_OBS_STORE, EXEC_OBS_ATOMIC
} exec_mem_access;

/* What the texture pipe reads or writes for one texture or surface instruction: for each
 * lane, the L1TEX sectors (32 bytes) and cache lines (128 bytes) its texels fall in, named
 * by the address of their first byte. CUDA arrays lie in the GPU's block-linear layout,
 * where a sector is 16 bytes of two rows and a line 32 bytes of four rows; linear and
 * pitched memory lie row by row. The unit takes a warp's lanes in groups of `group`
 * (a request each): 4 for lookups of arrays, 8 for fetches from linear memory and for
 * surfaces (what an H200 counted, tests/prof/texture). */
#define EXEC_TEX_FOOTPRINT_MAX 16
typedef enum exec_tex_op { EXEC_TEX_OP_TEXTURE, EXEC_TEX_OP_SURFACE_LD, EXEC_TEX_OP_SURFACE_ST }
    exec_tex_op;
typedef struct exec_tex_lane_footprint {
    uint32_t n;
    uint64_t sector[EXEC_TEX_FOOTPRINT_MAX];
    uint64_t line[EXEC_TEX_FOOTPRINT_MAX];
} exec_tex_lane_footprint;
typedef struct exec_tex_footprint {
    exec_tex_op op;
    uint32_t group;
    /* 0, or the lanes of a request the unit filters in one pass, each pass counting its
     * own sectors and lines: 2 for linear lookups of 3D arrays, a request's active lanes
     * taken two by two in order (what an H200 counted, tests/prof/texture/texture_prof3) */
    uint32_t pass;
    exec_tex_lane_footprint lane[32];
} exec_tex_footprint;

typedef enum exec_heap_op {
    EXEC_OBS_MALLOC, EXEC_OBS_FREE
} exec_heap_op;

/* How often one instruction was issued; of those issues, how many found some lane of the
 * warp off (partial), and for those only, how many lanes were on the current path
 * (active) and how many of them its guard let run (pred_on). Every other issue ran all
 * 32 lanes: the common case costs the executor one increment. */
typedef struct exec_insn_tally {
    uint64_t issued, partial, active, pred_on;
    /* A bra, whose taken lanes are those on the path whose guard holds. Of its partial
     * issues: how many split the path's lanes (diverged) and how many lanes took it
     * then; how many every lane on the path took (all_taken) and how many lanes that
     * was. An issue that is not partial is taken by all 32 lanes. */
    uint64_t diverged, diverged_lanes, all_taken, all_taken_lanes;
} exec_insn_tally;

/* Lanes on the path and lanes run, over every issue a tally counts. */
static inline uint64_t exec_tally_active(const exec_insn_tally *t) {
    return t->active + 32u * (t->issued - t->partial);
}
static inline uint64_t exec_tally_pred_on(const exec_insn_tally *t) {
    return t->pred_on + 32u * (t->issued - t->partial);
}
/* A bra's issues that every lane on the path took, and those lanes. */
static inline uint64_t exec_tally_all_taken(const exec_insn_tally *t) {
    return t->all_taken + (t->issued - t->partial);
}
static inline uint64_t exec_tally_all_taken_lanes(const exec_insn_tally *t) {
    return t->all_taken_lanes + 32u * (t->issued - t->partial);
}

/* Lanes in m, with the CPU's instruction (hw: only in code compiled for a CPU that has
 * one) or without. */
static inline __attribute__((always_inline)) uint32_t exec_count_lanes(uint32_t m, const bool hw) {
    if (hw) return (uint32_t)__builtin_popcount(m);
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* One issue of an instruction into its tally t (d = 1), or one taken back (d = -1, as
 * unsigned): m the lanes its guard lets run, active the lanes on the path; branch: a bra
 * (taken by the lanes of m). */
static inline __attribute__((always_inline)) void exec_tally_step(exec_insn_tally *t, bool branch,
                                                                 uint32_t active, uint32_t m,
                                                                 const bool hw, uint64_t d) {
    t->issued += d;
    if (__builtin_expect(m != 0xffffffffu, 0)) {
        uint64_t n_act = exec_count_lanes(active, hw);
        uint64_t n_on = exec_count_lanes(m, hw);
        t->partial += d;
        t->active += d * n_act;
        t->pred_on += d * n_on;
        if (branch && m) { /* taken by the lanes of m */
            if (m == active) {
                t->all_taken += d;
                t->all_taken_lanes += d * n_act;
            } else {
                t->diverged += d;
                t->diverged_lanes += d * n_on;
            }
        }
    }
}

/* One issue counted. The executor's observed loops count with it (exec/warp.c;
 * exec/observe.c for the compiled tier, whose instrumented code, jit/emit.c and
 * jit/vemit_prof.c, counts the same in its own text: the unit test test_prof_tiers
 * compares the two). */
static inline __attribute__((always_inline)) void exec_tally_count(exec_insn_tally *t, bool branch,
                                                                  uint32_t active, uint32_t m,
                                                                  const bool hw) {
    exec_tally_step(t, branch, active, m, hw, 1);
}

/* Take back one issue exec_tally_count counted with the same arguments: compiled code that
 * counted an instruction and then hands the warp to the interpreter before it (which
 * issues it again) uncounts it (the vector tier's instrumented code, jit/vemit_prof.c,
 * and its runtime's hand-over, exec/native.c). */
static inline void exec_tally_uncount(exec_insn_tally *t, bool branch, uint32_t active,
                                      uint32_t m) {
    exec_tally_step(t, branch, active, m, false, (uint64_t)-1);
}

/* Kinds of event, for exec_observer.block_events. */
enum {
    EXEC_OBS_EV_INSN = 1u << 0,       /* insn */
    EXEC_OBS_EV_BRANCH = 1u << 1,     /* branch, from a bra */
    EXEC_OBS_EV_MEM = 1u << 2,        /* mem, but for loads of kernel parameters by name */
    EXEC_OBS_EV_PARAM = 1u << 3,      /* mem: loads of kernel parameters by name */
    EXEC_OBS_EV_BARRIER = 1u << 4,    /* barrier */
    EXEC_OBS_EV_WARP_SYNC = 1u << 5,  /* warp_sync */
    EXEC_OBS_EV_BRANCH_IDX = 1u << 6, /* branch, from a brx.idx */
    EXEC_OBS_EV_ALL = (1u << 7) - 1
};

typedef struct exec_observer {
    void *ctx;                /* the tool's own state, passed back in begin/end_worker */

    /* Per worker thread: create/destroy the state handed to every event. */
    void *(*begin_worker)(void *ctx);
    void (*end_worker)(void *ctx, void *worker_state);

    /* A block starts / has finished (all its warps exited, or it faulted). */
    void (*block_begin)(const exec_site *s, uint32_t nthreads);
    void (*block_end)(const exec_site *s);

    /* Every warp-instruction issued: active = lanes on the current path, exec = those of
     * them whose guard predicate holds (0 when the guard is false for all). */
    void (*insn)(const exec_site *s, uint32_t active, uint32_t exec);

    /* Counting without an event per instruction (an indirect call per instruction costs
     * about as much as running it). When tally is set, the executor asks it once per
     * worker for each function f of the launch's program and adds every instruction of f
     * it issues into the array returned (f->ninsns entries, indexed like f->insns; the
     * tool owns it and reads it when it likes, at end_worker at the latest). NULL: no
     * tally of f, whose instructions then come through insn in every block. */
    exec_insn_tally *(*tally)(void *worker_state, const ptx_func *f);

    /* Which events a block reports (EXEC_OBS_EV_* bits), asked after block_begin; NULL =
     * all. A tool that needs some events in some blocks only (the profiler's timing
     * replay) spares the others their cost: an event not asked for is not even formed.
     * EXEC_OBS_EV_INSN matters only for tallied functions (see tally). */
    uint32_t (*block_events)(const exec_site *s);

    /* A cap on instruction events in a tallied function: in a block with EXEC_OBS_EV_INSN,
     * each warp reports the instructions among the first insn_event_limit it issues (0:
     * all of them; the decoder's own, never reported, count too) and is then only
     * tallied, its other events coming as before (exec_site.insn_event tells which). A
     * tool that times the start of a long-running warp and extrapolates (the profiler)
     * learns how many instructions each warp issued from warp_end. */
    uint32_t insn_event_limit;

    /* At the end of a block, before block_end, for each of its warps: the instructions
     * it issued in the block. */
    void (*warp_end)(const exec_site *s, uint64_t issued);

    /* A branch (every bra, conditional or not, and brx.idx): active lanes, and those that
     * take it (brx.idx: those going where the first executing lane goes). */
    void (*branch)(const exec_site *s, uint32_t active, uint32_t taken);

    /* A warp-level memory instruction on the lanes in mask. space is the resolved state
     * space (generic addresses already resolved: PTX_SPACE_GLOBAL / SHARED / LOCAL /
     * CONST / PARAM); addr[lane] is the device address for global and const, the offset
     * in the block's shared memory for shared, the offset in the thread's own local
     * memory for local; for param, the offset in the kernel's parameter buffer (a
     * device function's own .param variables: the offset in the thread's local memory);
     * addr[] of lanes outside mask means nothing. size is the bytes per lane (vector
     * accesses: the whole vector). mask may be 0: the guard was false on every lane, yet
     * the instruction was issued (counting tools count it); a generic access then
     * reports PTX_SPACE_GLOBAL. cp.async reports its global read and its shared write. */
    void (*mem)(const exec_site *s, ptx_space space, exec_mem_access access,
                const uint64_t addr[32], uint32_t mask, uint32_t size);

    /* A texture or surface instruction (tex, tld4, suld, sust) on the lanes in mask, with
     * what each lane's texels touch (lanes whose object is not live touch nothing).
     * Comes with EXEC_OBS_EV_MEM. */
    void (*tex)(const exec_site *s, const exec_tex_footprint *fp, uint32_t mask);

    /* A barrier reached by the lanes in arrived (bar.sync/barrier.sync id). expected is
     * the set of the warp's lanes that have not exited. */
    void (*barrier)(const exec_site *s, uint32_t id, uint32_t arrived, uint32_t expected);

    /* Barrier id (bar/barrier, not the cluster's) completed: every arrival reported
     * through barrier since its last completion took part in this one, and the warps
     * that wait there (bar.sync, bar.red) go on. count is the threads it waited for (0:
     * every live thread of the block). Comes with EXEC_OBS_EV_BARRIER; s names no warp
     * or instruction. */
    void (*barrier_complete)(const exec_site *s, uint32_t id, uint32_t count);

    /* A warp-synchronous operation (bar.warp.sync, shfl/vote/match/redux.sync, ...)
     * executed by the lanes in active naming membermask. */
    void (*warp_sync)(const exec_site *s, uint32_t membermask, uint32_t active);

    /* Resident warps on this block's SM over a stretch of issued instructions, for
     * achieved occupancy: called by the scheduler, not per instruction. (Not called at
     * present: the profiler takes residency from its timing model's schedule.) */
    void (*residency)(const exec_site *s, uint32_t resident_warps, uint64_t cycles);

    /* Device-side malloc and free by one lane (the checkers' device-heap tracking):
     * EXEC_OBS_MALLOC after the allocation (ptr is what malloc returns, 0 when it
     * failed; size what was asked), EXEC_OBS_FREE before the block is released (ptr as
     * given, size 0), so a checker sees a bad free even when the executor then faults. */
    void (*heap)(const exec_site *s, exec_heap_op op, uint32_t lane, uint64_t ptr,
                 uint64_t size);

    /* mem, told compactly: lane l's address is base + x * step + y * row_step (mod 2^64)
     * for every lane of mask, x = l mod 2^row_log2 and y = l >> row_log2 (its place in
     * rows of 2^row_log2 lanes; row_log2 = 5: one row, the address base + l * step, as a
     * coalesced access with step = size or a uniform one with step 0), which the compiled
     * tier's vector code knows without forming the lanes. Returns true when the
     * tool counted it so; false: the executor forms the 32 addresses and calls mem (as
     * it does when this is NULL), which must then count what this would have. Comes only
     * for loads and stores of global, shared, local or constant memory, mask non-zero,
     * in blocks without instruction events (exec_native_block_observable). */
    bool (*mem_affine)(const exec_site *s, ptx_space space, exec_mem_access access,
                       uint64_t base, int64_t step, int64_t row_step, uint32_t row_log2,
                       uint32_t mask, uint32_t size);
} exec_observer;

/* Lane l's address of an access told compactly (exec_observer.mem_affine): base +
 * x * step + y * row_step, x = l mod 2^row_log2, y = l >> row_log2 (mod 2^64). */
static inline uint64_t exec_affine_lane(uint64_t base, int64_t step, int64_t row_step,
                                        uint32_t row_log2, uint32_t l) {
    return base + (uint64_t)(l & ((1u << row_log2) - 1u)) * (uint64_t)step +
           (uint64_t)(l >> row_log2) * (uint64_t)row_step;
}

#endif
