/* prof/hooks.h — the calls the executor and the block scheduler make while profiling.
 *
 * The caller keeps one prof_recorder per host worker (prof_recorder_init with the launch's
 * rules) and a pointer to it that is NULL when profiling is off, so the whole cost of an
 * unprofiled run is one test of that pointer:
 *
 *     if (w->prof) prof_on_insn(w->prof, cls, active, exec_mask);
 *
 * At the end of the launch the workers' counters are summed with prof_counters_add.
 * The hooks only count; they never allocate, lock or fail.
 *
 * What to call, and when:
 *   prof_on_insn       every warp-level instruction executed, also when the guard predicate
 *                      leaves no lane on (hardware still issues it); active = lanes
 *                      executing before the guard, exec_mask = lanes whose guard held.
 *   prof_on_branch     every bra (after prof_on_insn): active lanes and the lanes that take it.
 *   prof_on_branch_multi  brx.idx: the number of distinct targets the active lanes went to.
 *   prof_on_mem        every ld/st/atom/red of global, local or shared memory (a generic
 *                      address counts in the space it resolves to), with the per-lane
 *                      addresses of the lanes whose guard held; vector accesses pass their
 *                      whole width as size. A warp whose lanes resolve a generic address to
 *                      different spaces makes one call per space, with the lanes of each.
 *   prof_on_tex        every tex, tld4, suld, sust: its requests, sectors and lines.
 *   prof_on_sm_interval  from the block scheduler: an SM held resident_warps warps for
 *                      cycles cycles (0 warps: it sat idle).
 */
#ifndef VCUDA_PROF_HOOKS_H
#define VCUDA_PROF_HOOKS_H

#include <stdint.h>
#include "counters.h"

static inline void prof_on_insn(prof_recorder *p, prof_insn_class cls, uint32_t active,
                                uint32_t exec_mask)
{
    uint32_t on = (uint32_t)__builtin_popcount(exec_mask);
    p->c.inst_executed++;
    p->c.thread_inst_executed += (uint32_t)__builtin_popcount(active);
    p->c.thread_inst_pred_on += on;
    p->c.inst_by_class[cls]++;
    p->c.thread_inst_by_class[cls] += on;
}

/* An instruction that the hardware executes as n instructions (a PTX division that SASS
 * expands into a sequence, say): counted n times. */
static inline void prof_on_insn_n(prof_recorder *p, prof_insn_class cls, uint32_t active,
                                  uint32_t exec_mask, uint32_t n)
{
    uint32_t on = (uint32_t)__builtin_popcount(exec_mask);
    p->c.inst_executed += n;
    p->c.thread_inst_executed += (uint64_t)n * (uint32_t)__builtin_popcount(active);
    p->c.thread_inst_pred_on += (uint64_t)n * on;
    p->c.inst_by_class[cls] += n;
    p->c.thread_inst_by_class[cls] += (uint64_t)n * on;
}

/* A two-way branch: taken = lanes (of active) that jump. It diverges when the active
 * lanes split between jumping and falling through. */
static inline void prof_on_branch(prof_recorder *p, uint32_t active, uint32_t taken)
{
    taken &= active;
    p->c.branches++;
    p->c.divergent_branches += taken != 0 && taken != active;
}

/* A multi-way branch (brx.idx) whose active lanes went to ntargets distinct places. */
static inline void prof_on_branch_multi(prof_recorder *p, uint32_t ntargets)
{
    p->c.branches++;
    p->c.divergent_branches += ntargets > 1;
}

/* One warp-level memory instruction (prof/hooks.c). mask may be 0 (all lanes off by the
 * guard): it then counts as an executed instruction with no request. */
void prof_on_mem(prof_recorder *p, prof_space space, prof_access access,
                 const uint64_t addr[32], uint32_t mask, unsigned size);

/* One warp-level texture or surface instruction (kind PROF_MEM_TEXTURE, _SURFACE_LD or
 * _SURFACE_ST) that made requests L1TEX requests touching sectors sectors and lines cache
 * lines (each counted once per request that touches it), moving bytes bytes. */
static inline void prof_on_tex(prof_recorder *p, prof_mem_kind kind, uint32_t requests,
                               uint32_t sectors, uint32_t lines)
{
    prof_mem_counts *m = &p->c.mem[kind];
    m->inst++;
    m->requests += requests;
    m->sectors += sectors;
    m->set_accesses += lines;
    m->transactions += sectors;
    m->bytes_transferred += 32u * (uint64_t)sectors;
}

static inline void prof_on_sm_interval(prof_recorder *p, uint32_t resident_warps,
                                       uint64_t cycles)
{
    p->c.sm_elapsed_cycles += cycles;
    if (resident_warps) {
        p->c.sm_active_cycles += cycles;
        p->c.warps_active_cycles += (uint64_t)resident_warps * cycles;
    }
}

#endif
