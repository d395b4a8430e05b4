/* gpu/gpu.h — the virtual device: presets, occupancy, and running grids on host threads.
 *
 * A preset is one row of one table (gpu/presets.c): every property the runtime reports
 * and every limit the occupancy calculator and block scheduler obey comes from it.
 */
#ifndef VCUDA_GPU_GPU_H
#define VCUDA_GPU_GPU_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "../exec/exec.h"

typedef struct gpu_preset {
    const char *key;                 /* "h100", "a100", "v100", "k40", "fermi" */
    const char *name;                /* what cudaDeviceProp.name says */
    int major, minor;                /* compute capability */
    uint64_t total_global_mem;
    uint64_t total_const_mem;
    int multiprocessor_count;
    int warp_size;
    int max_threads_per_block;
    int max_block_dim[3];
    int max_grid_dim[3];
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int max_warps_per_sm;
    int regs_per_sm;                 /* 32-bit registers */
    int regs_per_block;
    int max_regs_per_thread;
    int reg_alloc_unit;              /* registers allocated per warp in units of this */
    int warp_alloc_granularity;
    uint64_t shared_per_sm;
    uint64_t shared_per_block;       /* default limit (48 KiB) */
    uint64_t shared_per_block_optin;
    uint64_t reserved_shared_per_block; /* system use per block (1 KiB on sm_80+) */
    int shared_alloc_unit;
    int clock_khz;                   /* SM clock */
    int mem_clock_khz;
    int mem_bus_width;               /* bits */
    int l2_cache_size;
    int async_engine_count;
    int concurrent_kernels;
    int max_texture1d;               /* the few texture limits deviceQuery prints */
    int pci_bus_id, pci_device_id, pci_domain_id;
    int ecc_enabled;
    int integrated;
    int unified_addressing;
    int managed_memory;
    int cooperative_launch;
    int l1_cache_global, l1_cache_local;
    int persisting_l2_max;
    uint64_t mem_pitch;
    int texture_alignment;
    int texture_pitch_alignment;
    int cluster_launch;
    /* SMs of each GPC as the cluster occupancy calculator counts them (0-terminated; a
     * cluster's blocks share a GPC), and the cluster sizes a launch may have: portable
     * (without cudaFuncAttributeNonPortableClusterSizeAllowed) and at most */
    uint8_t gpc_sms[24];
    int cluster_portable, cluster_max;
    int cores_per_sm;                /* FP32 lanes per SM, for deviceQuery's "CUDA Cores" */
    int sectors_per_line;            /* 4 (128-byte lines of 32-byte sectors) */
    int l1_caches_global_loads;      /* Fermi caches global loads in L1 by default */

    /* ---- added: the rest of cudaDeviceProp and cudaDeviceGetAttribute ---- */
    /* texture and surface limits */
    int max_texture1d_mipmap, max_texture1d_linear;
    int max_texture2d[2], max_texture2d_mipmap[2], max_texture2d_linear[3];
    int max_texture2d_gather[2];
    int max_texture3d[3], max_texture3d_alt[3];
    int max_texture_cubemap, max_texture1d_layered[2], max_texture2d_layered[3];
    int max_texture_cubemap_layered[2];
    int max_surface1d, max_surface2d[2], max_surface3d[3], max_surface1d_layered[2];
    int max_surface2d_layered[3], max_surface_cubemap, max_surface_cubemap_layered[2];
    int surface_alignment;
    /* capabilities (0/1 unless noted) */
    int can_map_host_memory;
    int tcc_driver;
    int stream_priorities_supported;
    int is_multi_gpu_board, multi_gpu_board_group_id;
    int host_native_atomic_supported;
    int only_partial_host_native_atomic;
    int pageable_memory_access, pageable_memory_access_uses_host_page_tables;
    int concurrent_managed_access;
    int direct_managed_mem_access_from_host;
    int compute_preemption;
    int can_use_host_pointer_for_registered_mem;
    int cooperative_multi_device_launch; /* attribute 96 (reserved since CUDA 13) */
    int access_policy_max_window_size;   /* bytes */
    int host_register_supported, host_register_read_only_supported;
    int sparse_cuda_array_supported, deferred_mapping_cuda_array_supported;
    int timeline_semaphore_interop_supported;
    int memory_pools_supported, host_memory_pools_supported, host_numa_memory_pools_supported;
    unsigned memory_pool_supported_handle_types; /* bitmask */
    int gpu_direct_rdma_supported;
    unsigned gpu_direct_rdma_flush_writes_options; /* bitmask */
    int gpu_direct_rdma_writes_ordering;
    int ipc_event_supported;
    int unified_function_pointers;
    int numa_config, numa_id, host_numa_id; /* numa_id -1 = none */
    int host_numa_multinode_ipc_supported;
    int mps_enabled;
    unsigned gpu_pci_device_id;      /* PCI device ID << 16 | vendor ID (0x10de) */
    unsigned gpu_pci_subsystem_id;   /* subsystem ID << 16 | subsystem vendor; 0 = unknown */
    int gpu_overlap;                 /* attribute only: copies overlap kernels */
    int kernel_exec_timeout;         /* attribute only */
    int compute_mode;                /* attribute only: 0 = default */
    int single_to_double_perf_ratio; /* attribute only */
    int can_flush_remote_writes;     /* attribute only */
    int mem_sync_domain_count;       /* attribute only */
    int d3d12_cig_supported, vulkan_cig_supported; /* attribute only */
    /* cudaDeviceGetLimit defaults (bytes or counts) */
    uint64_t limit_stack_size, limit_printf_fifo_size, limit_malloc_heap_size;
    uint64_t limit_dev_runtime_sync_depth;   /* 0 = unsupported (CDP2 devices) */
    uint64_t limit_dev_runtime_pending_launch_count;
    uint64_t limit_max_l2_fetch_granularity, limit_persisting_l2_cache_size;
    /* occupancy rules beyond the fields above */
    int max_regs_per_thread_occupancy; /* the calculator's per-thread limit (256 on sm_70+) */
    int shared_carveout_count;       /* SM shared-memory sizes the carveout can pick; 0 = */
    int shared_carveout_kb[12];      /* fixed at shared_per_sm (Fermi, Kepler) */
    const char *arch_name;           /* "Hopper", "Ampere", ... */
} gpu_preset;

extern const gpu_preset gpu_presets[];
extern const size_t gpu_preset_count;

/* The preset named key ("h100", case-insensitive), or NULL. */
const gpu_preset *gpu_preset_find(const char *key);
/* The preset chosen by VCUDA_DEVICE (default h100). If VCUDA_DEVICE names no preset,
 * returns NULL and puts a message listing the valid names in err. */
const gpu_preset *gpu_preset_from_env(char *err, size_t errlen);

enum { GPU_MAX_DEVICES = 16 };
/* The devices a list names, as VCUDA_DEVICE takes it: presets separated by commas, each
 * possibly with a count ("h100,a100", "h100x4", "h100x2,v100"). Fills out[] (at most max)
 * and returns how many, or 0 with a message in err when the list names no preset, is
 * empty or has more than max devices. */
int gpu_preset_list(const char *list, const gpu_preset **out, int max, char *err,
                    size_t errlen);
/* gpu_preset_list of VCUDA_DEVICE (one h100 when it is unset or empty). */
int gpu_presets_from_env(const gpu_preset **out, int max, char *err, size_t errlen);

/* ---- occupancy ---- */
typedef enum gpu_occ_limiter {
    GPU_OCC_WARPS, GPU_OCC_BLOCKS, GPU_OCC_REGISTERS, GPU_OCC_SHARED
} gpu_occ_limiter;

typedef struct gpu_occupancy {
    int blocks_per_sm;     /* 0 when a single block does not fit */
    int warps_per_sm;
    double occupancy;      /* active warps / max warps per SM */
    gpu_occ_limiter limiter;
} gpu_occupancy;

/* The occupancy calculator: resident blocks per SM for this block shape and resources.
 * shared_per_block is the block's whole shared memory (static + dynamic); it may go up to
 * the opt-in limit (as if the kernel had raised its dynamic limit). */
gpu_occupancy gpu_occupancy_calc(const gpu_preset *p, int threads_per_block,
                                 int regs_per_thread, size_t shared_per_block);

/* What the occupancy API knows of a kernel (cudaFuncGetAttributes and the attributes set
 * with cudaFuncSetAttribute). */
typedef struct gpu_occ_kernel {
    int regs_per_thread;
    size_t static_shared;
    size_t max_dynamic_shared;  /* cudaFuncAttributeMaxDynamicSharedMemorySize */
    bool dynamic_shared_raised; /* the program set max_dynamic_shared (opt-in) */
    int carveout;               /* cudaFuncAttributePreferredSharedMemoryCarveout, -1 = none */
} gpu_occ_kernel;

/* A kernel's attributes before the program changes any: the default dynamic limit is the
 * per-block limit less the static part, no carveout preference. */
gpu_occ_kernel gpu_occ_kernel_default(const gpu_preset *p, int regs_per_thread,
                                      size_t static_shared);
/* cudaOccupancyMaxActiveBlocksPerMultiprocessor's answer (blocks_per_sm) with the limiter. */
gpu_occupancy gpu_occupancy_kernel(const gpu_preset *p, const gpu_occ_kernel *k,
                                   int threads_per_block, size_t dynamic_shared);
/* cudaOccupancyAvailableDynamicSMemPerBlock: dynamic shared memory left per block when
 * blocks_per_sm blocks of threads_per_block threads share an SM. false when that many
 * blocks cannot be resident for reasons other than dynamic shared memory. */
bool gpu_occupancy_available_dynamic_shared(const gpu_preset *p, const gpu_occ_kernel *k,
                                            int threads_per_block, int blocks_per_sm,
                                            size_t *available);
/* cudaOccupancyMaxActiveClusters' answer: clusters of cluster_size blocks that fit on the
 * device at once when an SM holds blocks_per_sm of their blocks (gpu/occupancy.c). */
int gpu_occupancy_clusters(const gpu_preset *p, int cluster_size, int blocks_per_sm);
/* cudaFuncAttributes.maxThreadsPerBlock: the largest block a kernel using regs_per_thread
 * registers can launch with (0 when none). */
int gpu_max_threads_per_block(const gpu_preset *p, int regs_per_thread);
/* Name of a limiter for reports: "warps", "blocks", "registers", "shared memory". */
const char *gpu_occ_limiter_name(gpu_occ_limiter l);

/* ---- the device ---- */
typedef struct gpu_device gpu_device;

/* nworkers 0 = one per host core (VCUDA_THREADS overrides). */
gpu_device *gpu_device_new(const gpu_preset *p, unsigned nworkers);
/* A device whose allocations are entered in mem, a table it shares with other devices
 * (unified addressing) and does not free. */
gpu_device *gpu_device_new_shared(const gpu_preset *p, unsigned nworkers, mem_table *mem);
void gpu_device_free(gpu_device *d);
const gpu_preset *gpu_device_preset(const gpu_device *d);
mem_table *gpu_device_mem(gpu_device *d);

/* Where device printf output goes (default: the host's stdout, flushed per grid). */
typedef void (*gpu_print_fn)(const char *data, size_t len, void *ctx);
void gpu_device_set_print(gpu_device *d, gpu_print_fn fn, void *ctx);
/* cudaLimitStackSize: the bytes of stack each thread of a kernel with recursive calls has
 * (the driver gives a kernel whose calls it can bound what they need, whatever the limit). */
void gpu_device_set_stack_limit(gpu_device *d, uint64_t bytes);
/* The device heap, empty, of bytes (cudaLimitMallocHeapSize: set only before kernels use
 * the heap, and at a reset, which frees its blocks). */
void gpu_device_heap_reset(gpu_device *d, uint64_t bytes);

/* Run a whole grid and return when every block has finished or one faulted.
 * L->num_sms, L->clock_khz and L->grid_id are filled in here; each host thread runs blocks
 * with its own copy of *L, whose abort flag the scheduler raises to stop that thread's
 * block (L->abort itself is not used).
 * Blocks run in parallel on the device's workers; printf output is emitted in block
 * order (block 0's output first), so a run prints the same thing every time.
 * Returns EXEC_OK or the first fault (by block order), with fault->msg set. */
exec_fault_kind gpu_run_grid(gpu_device *d, exec_launch *L, exec_fault *fault);

/* What running a grid cost (for reports and benchmarks). */
typedef struct gpu_grid_stats {
    uint64_t warp_instructions;   /* executed warp-instructions, all blocks */
    uint64_t blocks_run;          /* blocks that ran to completion or faulted */
    unsigned host_threads;        /* host threads that ran blocks of the grid */
    double host_seconds;          /* wall-clock time of gpu_run_grid (the grid's own
                                   * blocks: grids they launched are reported apart) */
} gpu_grid_stats;

/* gpu_run_grid, also filling *stats (when not NULL).
 *
 * The scheduler's guarantees, for both:
 *   - Blocks are handed out in linear order (x fastest, then y, then z). Block k runs as
 *     SM (base + k) mod multiprocessor_count, where base is the least loaded SM when the
 *     grid arrives: 0 whenever no other grid is running, so a program whose grids run one
 *     at a time sees block k on SM k mod multiprocessor_count.
 *   - Device printf output appears in block order, each block's output after all of the
 *     output of the blocks before it, written as soon as that order allows.
 *   - When block f faults, blocks before f still run to completion, blocks after f are
 *     stopped or never started and their output is dropped; the fault returned is the one
 *     of the lowest faulting block. So output and result do not depend on the number of
 *     host threads or their timing (as long as blocks do not race through global memory).
 *   - Grids launched from different host threads run at the same time and share the SMs
 *     as a GPU's concurrent kernels do (see gpu_run_grid_opts). The calling thread runs
 *     blocks of its own grid only, so every grid running makes progress whatever the
 *     others do (a grid may wait on another through global memory).
 *   - A grid launched from inside a running block (on one of the device's threads) runs
 *     at once, on that thread, block after block; its output goes where the launching
 *     grid's goes.
 *   - Grids launched by the grid's blocks (dynamic parallelism) run after all of its
 *     blocks have finished, one after another, each with everything it launched; see
 *     gpu/dp.c for the order and what it means for printf output. Their output goes
 *     where the grid's goes. */
exec_fault_kind gpu_run_grid_stats(gpu_device *d, exec_launch *L, exec_fault *fault,
                                   gpu_grid_stats *stats);

/* How a grid shares the device with the grids running beside it. */
typedef struct gpu_grid_opts {
    int priority;        /* lower runs first, as CUDA stream priorities; 0 = default. The
                          * device hands out blocks of higher-priority grids first. */
    int blocks_per_sm;   /* the occupancy calculator's resident blocks per SM for this
                          * grid (gpu_occupancy_kernel); 0 = computed from the block's
                          * threads and dynamic shared memory alone. A block is admitted
                          * onto its SM only while the blocks resident there, of all
                          * grids, leave room: each takes 1/blocks_per_sm of the SM. */
    gpu_print_fn print;  /* where this grid's printf output goes; NULL = the device's */
    void *print_ctx;
    uint64_t *blocks_done; /* when not NULL, counts the grid's blocks as they end (atomic
                            * adds): a progress display reads it while the grid runs */
    bool cooperative;    /* cudaLaunchCooperativeKernel: every block runs at once, each on
                          * a host thread of its own, with a grid workspace for
                          * cooperative groups' grid-wide barrier (gpu/scheduler.c); the
                          * caller has checked that the grid fits on the device at once.
                          * A fault stops every block. */
} gpu_grid_opts;

/* gpu_run_grid_stats with options (opts may be NULL). */
exec_fault_kind gpu_run_grid_opts(gpu_device *d, exec_launch *L, const gpu_grid_opts *opts,
                                  exec_fault *fault, gpu_grid_stats *stats);

/* Host threads a grid may use, the calling thread included (VCUDA_THREADS or cores). */
unsigned gpu_device_threads(const gpu_device *d);

/* ---- dynamic parallelism (gpu/dp.c) ----
 *
 * A grid's blocks may launch grids (and create streams and events) through the device
 * runtime. gpu_run_grid returns only when the grid and everything it launched, to any
 * depth, has finished. What the device runtime answers that the device alone does not
 * know comes from the runtime: */
/* One node of a device graph as the device runs it (device graph launch): a kernel, or a
 * copy or set of device memory. */
typedef struct gpu_graph_item {
    const exec_kernel *kernel;   /* the device's kernel, or NULL: a copy or set */
    exec_dim3 grid, block;
    uint32_t dyn_shared;
    const uint8_t *params;       /* the kernel's parameter buffer ... */
    uint32_t param_size;         /* ... of this many bytes */
    void *dst;                   /* a copy (src) or set (value, of elem-byte elements) */
    const void *src;
    int value;
    unsigned elem;
    size_t count;                /* bytes */
} gpu_graph_item;

typedef struct gpu_dp_host {
    const char *(*error_text)(int code, bool description); /* name or description */
    /* the nodes of executable graph exec for device d, in an order that keeps their
     * dependencies (the runtime's, valid while the graph lives); an error code, or a fault
     * the GPU gives (a graph not instantiated for device launch) in fault */
    int (*graph_items)(gpu_device *d, uint64_t exec, const gpu_graph_item **items, size_t *n,
                       exec_fault *fault);
    int (*get_limit)(gpu_device *d, int limit, uint64_t *value); /* cudaDeviceGetLimit of d */
    int (*get_attribute)(int attr, int device, int *value); /* cudaDeviceGetAttribute */
    /* a grid launched from device code is about to run: the runtime may have a tool watch
     * it (sets L->observer: profiler, checker); what it returns comes back to grid_done */
    void *(*grid_begin)(exec_launch *L);
    /* such a grid has run its blocks (for the per-kernel report and the tools); true when
     * a tool reported its fault itself: the launch then fails as an unspecified launch
     * failure, as under compute-sanitizer, without the executor's message */
    bool (*grid_done)(const exec_launch *L, const gpu_grid_stats *stats, exec_fault_kind k,
                      void *token);
} gpu_dp_host;
void gpu_device_set_dp_host(gpu_device *d, const gpu_dp_host *host);
/* The graph execution environment of a graph launched from the host (CUDA Programming
 * Guide, "Device Graph Launch"): its kernels' grids carry it (exec_launch.graph_env), the
 * graph tail launches they and the grids they launch make wait in it until the whole
 * graph is complete, and a device-launchable graph (exec, else 0) counts as running
 * from now until it is finished or freed. NULL when out of memory. */
typedef struct gpu_dp_env gpu_dp_env;
gpu_dp_env *gpu_graph_env_new(uint64_t exec);
/* The graph is complete: run its tail launches, each with all it launches, to
 * completion (output to sink), and free env. A fault ends the rest and is returned. */
exec_fault_kind gpu_graph_env_finish(gpu_dp_env *env, exec_output *sink, exec_fault *fault);
/* Free env without running its tail launches (the graph did not run). */
void gpu_graph_env_free(gpu_dp_env *env);
/* cudaLimitDevRuntimePendingLaunchCount and cudaLimitDevRuntimeSyncDepth (the preset's
 * defaults until set). */
void gpu_device_set_dp_limits(gpu_device *d, uint64_t pending_launch_count,
                              uint64_t sync_depth);

#endif
