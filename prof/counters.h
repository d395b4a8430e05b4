/* prof/counters.h — what the profiler counts during one kernel launch.
 *
 * Every counter is an integer that only grows, so the copies kept by the host worker
 * threads of one launch merge by addition (prof_counters_add). Metrics (prof/metrics.c)
 * are computed from the merged counters, the device preset and the launch configuration.
 *
 * The counting rules for memory instructions depend on the GPU generation; a prof_rules
 * value (made once per launch from the preset) carries the few facts they need, so the
 * counting code never looks at the preset itself.
 */
#ifndef VCUDA_PROF_COUNTERS_H
#define VCUDA_PROF_COUNTERS_H

#include <stdint.h>
#include <stdbool.h>
#include "../gpu/gpu.h"

/* ---- instruction classes (nvprof's inst_* metrics, ncu's smsp__sass_thread_inst_executed_op_*) ---- */
typedef enum prof_insn_class {
    PROF_CLASS_FP32,          /* single-precision float arithmetic and comparison */
    PROF_CLASS_FP64,          /* double precision */
    PROF_CLASS_FP16,          /* half precision (f16, f16x2, bf16, bf16x2) */
    PROF_CLASS_INTEGER,       /* integer and bit arithmetic, logic, comparison */
    PROF_CLASS_CONVERSION,    /* cvt: nvprof's inst_bit_convert */
    PROF_CLASS_CONTROL,       /* bra, brx, call, ret, exit, trap */
    PROF_CLASS_LDST,          /* loads, stores, atomics of global, local, shared memory */
    PROF_CLASS_INTER_THREAD,  /* shfl, vote, match, redux, activemask, elect */
    PROF_CLASS_MISC,          /* mov, barriers, fences and the rest */
    PROF_CLASS_COUNT
} prof_insn_class;

/* The class of a PTX instruction: op is a ptx_opcode, type its principal ptx_type
 * (the executor's exec_insn.op and .type). Pure; cheap enough to call per instruction,
 * or once at decode time. */
prof_insn_class prof_insn_class_of(unsigned op, unsigned type);
const char *prof_insn_class_name(prof_insn_class c);

/* ---- memory ---- */
typedef enum prof_space { PROF_SPACE_GLOBAL, PROF_SPACE_LOCAL, PROF_SPACE_SHARED } prof_space;

typedef enum prof_access {
    PROF_ACCESS_LOAD,
    PROF_ACCESS_STORE,
    PROF_ACCESS_ATOMIC,     /* atom: read-modify-write that returns the old value */
    PROF_ACCESS_REDUCTION   /* red: read-modify-write without a result */
} prof_access;

/* One row of memory counters per (space, access) pair that the hardware counts apart. */
typedef enum prof_mem_kind {
    PROF_MEM_GLOBAL_LD, PROF_MEM_GLOBAL_ST, PROF_MEM_GLOBAL_ATOM, PROF_MEM_GLOBAL_RED,
    PROF_MEM_LOCAL_LD, PROF_MEM_LOCAL_ST,
    PROF_MEM_SHARED_LD, PROF_MEM_SHARED_ST, PROF_MEM_SHARED_ATOM,
    /* the texture pipe: texture lookups (tex, tld4), surface loads and stores */
    PROF_MEM_TEXTURE, PROF_MEM_SURFACE_LD, PROF_MEM_SURFACE_ST,
    PROF_MEM_KIND_COUNT
} prof_mem_kind;

/* The row for (space, access); PROF_MEM_KIND_COUNT for a pair with no row
 * (local atomics do not exist; shared reductions are counted as shared atomics). */
prof_mem_kind prof_mem_kind_of(prof_space space, prof_access access);
const char *prof_mem_kind_name(prof_mem_kind k);

typedef struct prof_mem_counts {
    uint64_t inst;              /* warp-level instructions (every executed one, even with no lane on) */
    uint64_t requests;          /* L1TEX requests: one per instruction with a lane on (local: one
                                 * per 4-byte word a lane accesses, as local memory interleaves
                                 * words across the warp) */
    uint64_t sectors;           /* global/local: 32-byte sectors fetched, summed over instructions */
    uint64_t set_accesses;      /* global/local: 128-byte line (tag-set) lookups */
    uint64_t transactions;      /* nvprof transactions under the preset's rules; shared: wavefronts */
    uint64_t ideal_transactions;/* shared: wavefronts the access would need without bank conflicts */
    uint64_t sass_wavefronts;   /* shared: wavefronts as the instruction-level counter reports them */
    uint64_t bytes_requested;   /* lanes on x access size */
    uint64_t bytes_used;        /* distinct bytes the lanes on touch (Nsight Compute's data bytes) */
    uint64_t bytes_transferred; /* bytes the transactions moved (sectors x 32 on sm_50 and later) */
} prof_mem_counts;

/* ---- the counters of one launch ---- */
typedef struct prof_counters {
    /* instructions */
    uint64_t inst_executed;          /* warp-level instructions executed (guard-false ones too) */
    uint64_t thread_inst_executed;   /* sum of active lanes over those */
    uint64_t thread_inst_pred_on;    /* sum of lanes whose guard predicate held */
    uint64_t inst_by_class[PROF_CLASS_COUNT];        /* warp-level */
    uint64_t thread_inst_by_class[PROF_CLASS_COUNT]; /* lanes with the guard on */

    /* branches: every executed branch instruction (bra, brx) of a warp */
    uint64_t branches;               /* warp-level branch instructions */
    uint64_t divergent_branches;     /* of those, ones whose active lanes went more than one way */

    /* memory, by prof_mem_kind */
    prof_mem_counts mem[PROF_MEM_KIND_COUNT];

    /* residency, sampled by the block scheduler (see prof_on_sm_interval in hooks.h) */
    uint64_t sm_elapsed_cycles;      /* cycles summed over SMs, idle ones included */
    uint64_t sm_active_cycles;       /* cycles summed over SMs that held at least one warp */
    uint64_t warps_active_cycles;    /* resident warps x cycles, summed over SMs */

    /* caches, as the timing model saw them (its replayed blocks for L1; the launch's
     * traffic past L1 against what DRAM had to supply for L2) */
    uint64_t l1_sector_lookups, l1_sector_hits;
    uint64_t l2_sector_lookups, l2_sector_hits;
} prof_counters;

void prof_counters_clear(prof_counters *c);
/* dst += src, field by field. */
void prof_counters_add(prof_counters *dst, const prof_counters *src);

/* ---- rules that differ between generations ---- */
typedef enum prof_generation {
    PROF_GEN_SECTORED,  /* sm_50 and later: 32-byte sectors, whole-warp requests */
    PROF_GEN_KEPLER,    /* sm_3x */
    PROF_GEN_FERMI      /* sm_2x */
} prof_generation;

typedef struct prof_rules {
    uint8_t generation;              /* prof_generation */
    bool l1_global_loads;            /* global loads cached in L1 (128-byte lines on Fermi/Kepler) */
    uint8_t shared_bank_bytes;       /* 4; 8 in Kepler's eight-byte bank mode */
    bool shared_pair_merge;          /* sm_70+: a wide shared load whose lanes pair up on equal
                                      * addresses is served in half the wavefronts (banks.c) */
    uint16_t shared_wavefront_bytes; /* bytes one shared transaction returns: 128 (Kepler: 256) */
} prof_rules;

/* The rules for a device preset (Kepler presets start in four-byte bank mode). */
prof_rules prof_rules_for(const gpu_preset *p);
/* Kepler's cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByteBankSize): returns
 * false (rules unchanged) on other generations, where the bank size is fixed at 4 bytes. */
bool prof_rules_set_bank_bytes(prof_rules *r, unsigned bytes);

/* What one host worker records: the rules of the launch and its own counters. The
 * executor holds a pointer to one of these, NULL when profiling is off. */
typedef struct prof_recorder {
    prof_rules rules;
    prof_counters c;
} prof_recorder;

void prof_recorder_init(prof_recorder *r, const prof_rules *rules);

#endif
