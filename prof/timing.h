/* prof/timing.h — the timing model: how long a kernel takes on the chosen device preset,
 * and the occupancy it reaches, estimated from what its blocks did.
 *
 * The model in short (prof/timing.c has the whole description and its sources):
 *   - each block's critical path: its warps' instruction streams replayed on a clock with
 *     register dependencies (arithmetic 4-20 cycles, shared memory ~30, global memory:
 *     L1 hit ~35, L2 ~260, first touch from DRAM ~500-800 cycles) and barriers (a warp
 *     leaves __syncthreads when the last one arrives); prof/session.c replays it while the
 *     block runs;
 *   - an SM runs as many blocks at once as the occupancy calculator allows; they share
 *     its warp schedulers (one warp-instruction per cycle each), its shared-memory
 *     wavefronts and its L1 sectors, so a block lasts the longer of its critical path and
 *     its share of those throughputs (the critical path and the issue share combine as
 *     their p-norm: neither hides the other fully); resident warps hide latency up to
 *     that point;
 *   - blocks are handed to SMs in order as slots free (the last, partial wave is the tail
 *     effect), and the grid takes the longest SM plus the launch overhead, or the time its
 *     DRAM and L2 traffic needs at the preset's bandwidth if that is longer;
 *   - narrower units share the SM too (the SFU, the FP64 pipe, the constant cache), and
 *     grid-wide limits may be longer still: global atomics in L2, host-mapped memory over
 *     the host link, printf, device-side launches (the runtime adds those).
 * The estimate says which bound it (limiter) and how sure it is (uncertainty).
 */
#ifndef VCUDA_PROF_TIMING_H
#define VCUDA_PROF_TIMING_H

#include <stdint.h>
#include <stddef.h>
#include "../gpu/gpu.h"

/* The SM and memory system of a preset, as the model sees them. Latencies in SM cycles. */
typedef struct prof_sm_model {
    double clock_hz;
    int sms;
    int schedulers;                 /* warp schedulers per SM, each issuing one warp-insn/cycle */
    int max_warps_per_sm;
    uint32_t lat_alu;               /* dependent integer / fp32 arithmetic */
    uint32_t lat_fp64;
    uint32_t lat_sfu;               /* transcendentals, divisions, square roots */
    uint32_t lat_shuffle;           /* shfl, vote, match, redux */
    uint32_t lat_shared;            /* shared memory load, one wavefront */
    uint32_t lat_l1;                /* global/local load hitting in L1 */
    uint32_t l1_line_cycles;        /* each further 128-byte line one access touches */
    uint32_t lat_l2;                /* ... served by L2 */
    uint32_t lat_dram;              /* ... first touch in the launch: from DRAM */
    uint32_t lat_barrier;           /* from the last arrival to the warps leaving */
    uint32_t divergence_cycles;     /* a divergent branch: setting up and reconverging */
    double shared_wavefronts_per_cycle; /* per SM */
    double l1_sectors_per_cycle;    /* per SM */
    double l1_line_cycles_tput;     /* per SM: each line an access looks up holds the L1's
                                     * tag stage this long (scattered accesses) */
    double l2_bytes_per_cycle;      /* whole device */
    double dram_bytes_per_cycle;    /* whole device */
    double launch_overhead_s;       /* a grid's fixed cost: launch, first block, drain */
    uint32_t block_dispatch_cycles; /* an SM takes a new block at most this often */
    uint32_t printf_cycles;         /* one device printf call, on the calling warp */
    uint32_t printf_record_cycles;  /* each printf record: written one after another */
    uint32_t printf_warp_cycles;    /* each warp's printf call: taken one after another */
    double printf_launch_s;         /* a grid that printed: the buffer's hand-over */
    double dram_efficiency;         /* share of the peak bandwidth streaming achieves */
    double dram_read_efficiency;    /* ... reading (prof_estimate_kernel's DRAM time) */
    double dram_write_efficiency;   /* ... writing */
    double l2_dirty_share;          /* share of L2 a grid's writes may leave there at its end */
    double l2_bytes;                /* L2's capacity: a launch touching more than this finds
                                     * what it touched earlier evicted */
    double l2_thrash_span;          /* ... all of it once the footprint exceeds the capacity
                                     * by this share of it (LRU over sweeps) */
    /* pipes narrower than a warp (per SM sub-partition: a warp-instruction holds it this
     * many cycles) */
    double sfu_cycles;              /* the special-function unit (MUFU: 4 lanes) */
    double fp64_cycles;             /* double precision (16 lanes, measured 2.4) */
    /* the constant cache: each further distinct address of a warp's load, and each further
     * 64-byte line, costs the SM this many cycles (loads are served one address at a time) */
    double const_addr_cycles, const_line_cycles;
    /* global atomics, done in L2: ops on one address are serialised (one int add takes
     * atom_addr_s; a float add atom_float_factor times that); each warp-instruction is one
     * transaction per 128-byte line it touches, served atom_line_s apart when every one
     * goes to one line (back to back), atom_tx_s apart on each line otherwise; all lines
     * together take a transaction every atom_tx_all_s and an op every atom_op_all_s */
    double atom_addr_s, atom_float_factor, atom_line_s, atom_tx_s;
    double atom_tx_all_s, atom_op_all_s;
    /* compare-and-swap retry loops: c threads swapping one address at once take c rounds
     * (one wins each); a round lasts cas_round_s (a failed swap's way back to L2 with the
     * value it returned) plus the time L2 takes over the transactions still retrying */
    double cas_round_s;
    /* host memory mapped into the device (zero-copy): reached over the host link */
    double sys_read_bytes_per_s, sys_write_bytes_per_s;
    uint32_t lat_sys;               /* a load from host memory */
    uint32_t lat_texture;           /* a texture or surface fetch (addresses not followed) */
    uint32_t lat_clock;             /* reading %clock/%clock64/%globaltimer, after the warp's
                                     * earlier instructions have issued */
    /* device-side launches: the parent grid lasts until its children have run; the first
     * costs dp_first_s, n of them dp_first_s * n^dp_exponent (launches overlap) */
    double dp_first_s, dp_exponent;
    /* managed memory (cudaMallocManaged) a grid touches where it is not yet on the device:
     * a grid that faults pays uvm_fault_s once (the fault buffer's first batch, the driver's
     * round trip), then moves the pages the host holds at uvm_migrate_bytes_per_s and makes
     * those nobody touched yet at uvm_populate_bytes_per_s (bench/timing/suite_mm.cu) */
    double uvm_fault_s, uvm_migrate_bytes_per_s, uvm_populate_bytes_per_s;
    /* ... pages the host took back after a grid had them: a grid that only brings such
     * pages back pays uvm_back_fault_s, and moves them at uvm_back_bytes_per_s */
    double uvm_back_fault_s, uvm_back_bytes_per_s;
    /* an SM slot takes its next block this long after the last one ended (the block's
     * retirement and the next one's launch; hidden when other blocks keep the SM busy) */
    uint32_t block_gap_cycles;
    /* a load missing L1 on a sector another block of the same wave touched first (running
     * at once on the GPU: the sector's fill from DRAM is still in flight) waits this share
     * of DRAM's latency beyond L2's */
    double inwave_fill_share;
    /* a block's critical path and its share of the schedulers' issue slots combine as
     * their p-norm (p large: the larger alone; 1: their sum) */
    double issue_overlap_p;
    /* instruction fetch: the L0 instruction cache of a sub-partition and the SM's L1
     * instruction cache hold this much code; an instruction of code longer than L0's
     * holds its warp fetch_l1_cycles more, of code longer than L1's fetch_l2_cycles
     * more, and an SM fetches at most fetch_insts_per_cycle such warp-instructions a
     * cycle (warps at the same place share a fetch) */
    double icache_l0_bytes, icache_l1_bytes;
    double fetch_l1_cycles, fetch_l2_cycles, fetch_insts_per_cycle;
} prof_sm_model;

/* The model's parameters for a preset (by generation). */
prof_sm_model prof_sm_model_for(const gpu_preset *p);

/* What one block did (prof/session.c records one per block). */
typedef struct prof_block_cost {
    uint64_t critical_cycles;   /* its longest warp timeline, each warp issuing alone */
    uint64_t issue_cycles;      /* issue slots its warps used (warp-instructions, SASS-sized) */
    uint64_t shared_wavefronts;
    uint64_t l1_sectors;        /* global and local sectors through L1 */
    uint64_t l1_lines;          /* the 128-byte lines those accesses looked up (a scattered
                                 * warp access: one per lane) */
    uint64_t miss_rounds;       /* on the critical path: sequential waits for data from past
                                 * L1, each charged L2's latency in critical_cycles */
    uint64_t printf_records;    /* device printf calls (one per lane) */
    uint64_t printf_warps;      /* warp-instructions that called printf */
    uint64_t sfu_insts;         /* warp-instructions through the SFU (one MUFU each) */
    uint64_t fp64_insts;        /* warp-instructions through the FP64 pipe (SASS-sized) */
    uint64_t const_cycles;      /* the constant cache's extra cycles for divergent loads */
} prof_block_cost;

/* A grid: its shape and resources, and what its blocks did when that is known. */
typedef struct prof_kernel_input {
    uint64_t blocks;
    uint32_t threads_per_block;
    int regs_per_thread;
    size_t shared_per_block;     /* static + dynamic */
    uint64_t warp_instructions;  /* executed, all blocks */
    /* detail, from a profiled run (NULL / 0 when the grid ran unobserved) */
    const prof_block_cost *block_costs; /* one per block, in linear block order */
    const prof_block_cost *every_block; /* or: the cost of each block (grids too large to
                                         * keep per block: their average) */
    uint64_t l2_bytes;           /* bytes that went past L1 (loads that missed, stores, atomics) */
    uint64_t dram_bytes;         /* bytes first touched in the launch (read or written) */
    uint64_t dram_read_bytes;    /* of those, first touched by a read (an L2 miss: a wait; a
                                  * load's 64-byte DRAM granule, a partial store's sector) */
    uint64_t dram_write_bytes;   /* distinct bytes stored to (written back to DRAM) */
    /* global atomics: the busiest address's ops (weighted: an int op 1, a float op
     * atom_float_factor), transactions (warp-instruction x lines), distinct lines */
    double atomic_hot, atomic_ops;   /* (atomic_ops: all of them, weighted alike) */
    uint64_t atomic_tx, atomic_lines;
    /* of those, the compare-and-swaps (not weighted): the busiest address's, all of them,
     * their transactions and the lines they went to (each taken to sit in a retry loop, as
     * atomic updates built from atomicCAS do) */
    double cas_hot, cas_ops;
    uint64_t cas_tx, cas_lines;
    /* bytes read from and written to host-mapped memory */
    uint64_t sys_read_bytes, sys_write_bytes;
    /* warp-instructions (SASS-sized, all blocks) of code too long for the L0 instruction
     * cache, fetched from L1's each time they run, or from L2 (longer than that too) */
    uint64_t fetch_l1_insts, fetch_l2_insts;
} prof_kernel_input;

typedef struct prof_time_estimate {
    double seconds;              /* the grid's duration */
    double cycles;               /* the same in SM cycles */
    int blocks_per_sm;           /* resident at once (occupancy calculator) */
    double waves;                /* blocks / (blocks_per_sm x SMs) */
    const char *limiter;         /* what bounds it: "latency", "issue", "shared memory",
                                  * "L1", "SFU", "FP64", "constant cache", "L2 bandwidth",
                                  * "DRAM bandwidth", "atomics", "host memory", "printf",
                                  * "launch", "block dispatch" (the SMs take blocks
                                  * more slowly than their slots free), ("device launches":
                                  * set by the runtime) */
    double uncertainty;          /* how far off the estimate typically is for this limiter
                                  * (median |error| on the calibration suite, a fraction) */
    /* residency over the run, for achieved_occupancy and sm_efficiency (sums over SMs, as
     * prof_counters keeps them) */
    uint64_t sm_elapsed_cycles, sm_active_cycles, warps_active_cycles;
    bool detailed;               /* made from per-block detail */
    /* the parts, for reports and tuning: averages over blocks, in cycles */
    double block_critical;       /* critical path */
    double block_issue;          /* issue slots / schedulers */
    double block_cycles;         /* as scheduled (shared SM) */
    double makespan_cycles;      /* last block's end */
    double dram_cycles, l2_cycles; /* traffic / bandwidth */
    double atomic_cycles, sys_cycles; /* L2 atomic units; the host link */
    double cas_cycles;           /* of atomic_cycles' bounds: compare-and-swap retries */
    double cas_rounds;           /* ... the rounds of each wave (contenders per address) */
    double l2_thrash;            /* share of the returns to data past L1 that L2 no longer
                                  * held (a footprint beyond its capacity) */
} prof_time_estimate;

/* The one kernel-time estimate: with block_costs, the full model; without, the same model
 * fed with a typical block made from the instruction count alone. */
prof_time_estimate prof_estimate_kernel(const gpu_preset *p, const prof_kernel_input *in);

/* The typical |error| of an estimate bound by limiter (prof_time_estimate.uncertainty). */
double prof_limiter_uncertainty(const char *limiter);

/* A grid that launched n grids from the device (its descendants), which took child_s
 * beyond their launch overhead at most: how much longer it lasts. */
double prof_device_launch_s(const gpu_preset *p, uint64_t n, double child_s);

/* The seconds a grid spends on page faults over managed memory: migrated bytes were on
 * the host (of them, returned: taken back by the host after a grid had them), populated
 * bytes nowhere yet (runtime/memrange.c follows where pages are). */
double prof_managed_fault_s(const gpu_preset *p, uint64_t migrated, uint64_t returned,
                            uint64_t populated);

/* Milliseconds, for a virtual timeline. */
double prof_estimate_kernel_ms(const gpu_preset *p, const prof_kernel_input *in);

#endif
