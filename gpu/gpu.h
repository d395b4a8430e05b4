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
    int cores_per_sm;                /* FP32 lanes per SM, for deviceQuery's "CUDA Cores" */
    int sectors_per_line;            /* 4 (128-byte lines of 32-byte sectors) */
    int l1_caches_global_loads;      /* Fermi caches global loads in L1 by default */
} gpu_preset;

extern const gpu_preset gpu_presets[];
extern const size_t gpu_preset_count;

/* The preset named key ("h100", case-insensitive), or NULL. */
const gpu_preset *gpu_preset_find(const char *key);
/* The preset chosen by VCUDA_DEVICE (default h100). If VCUDA_DEVICE names no preset,
 * returns NULL and puts a message listing the valid names in err. */
const gpu_preset *gpu_preset_from_env(char *err, size_t errlen);

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

/* The occupancy calculator: resident blocks per SM for this block shape and resources. */
gpu_occupancy gpu_occupancy_calc(const gpu_preset *p, int threads_per_block,
                                 int regs_per_thread, size_t shared_per_block);

/* ---- the device ---- */
typedef struct gpu_device gpu_device;

/* nworkers 0 = one per host core (VCUDA_THREADS overrides). */
gpu_device *gpu_device_new(const gpu_preset *p, unsigned nworkers);
void gpu_device_free(gpu_device *d);
const gpu_preset *gpu_device_preset(const gpu_device *d);
mem_table *gpu_device_mem(gpu_device *d);

/* Where device printf output goes (default: the host's stdout, flushed per grid). */
typedef void (*gpu_print_fn)(const char *data, size_t len, void *ctx);
void gpu_device_set_print(gpu_device *d, gpu_print_fn fn, void *ctx);

/* Run a whole grid and return when every block has finished or one faulted.
 * L->num_sms, L->clock_khz, L->grid_id and L->abort are filled in here.
 * Blocks run in parallel on the device's workers; printf output is emitted in block
 * order (block 0's output first), so a run prints the same thing every time.
 * Returns EXEC_OK or the first fault (by block order), with fault->msg set. */
exec_fault_kind gpu_run_grid(gpu_device *d, exec_launch *L, exec_fault *fault);

#endif
