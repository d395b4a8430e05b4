/* gpu/device_internal.h — the device object as gpu/device.c and gpu/scheduler.c share it.
 *
 * A device owns a pool of host threads ("lanes" below, to keep them apart from GPU
 * threads). Every host thread that calls gpu_run_grid becomes a lane of its own grid for
 * the length of the call (it runs that grid's blocks only); the pool's lanes, started the
 * first time a grid has more than one block, run blocks of whichever grids are active.
 * Every lane owns an exec_worker, so block scratch (warps, registers, shared memory) is
 * reused from block to block without allocation.
 *
 * Several grids may be active at once (one per calling host thread). They share the SMs:
 * a block is admitted onto its SM only while the blocks resident there, of every grid,
 * leave room for it by the occupancy calculator's count (the "residency" below).
 */
#ifndef VCUDA_GPU_DEVICE_INTERNAL_H
#define VCUDA_GPU_DEVICE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "gpu.h"

struct gpu_grid;
struct gpu_dp_grid;
struct gpu_dp_block;

/* Bytes of a cache line: what keeps apart data that different host threads write (see
 * gpu_lane and gpu/scheduler.c's gpu_grid). */
#define GPU_CACHE_LINE 64

/* A lane writes its own state for every block it runs; the gaps at both ends keep other
 * data (the next lane of d->lanes, a grid on the same stack) off its cache lines. */
typedef struct gpu_lane {
    char gap_before[GPU_CACHE_LINE];
    struct gpu_device *dev;
    unsigned index;               /* pool lanes: 1..n-1; a calling thread's lane: 0 */
    pthread_t thread;             /* pool lanes only */
    exec_worker *worker;
    exec_output out;              /* printf output of the block being run */
    /* blocks of the lane's current run that finished cleanly and are not yet handed to
     * the grid's writer (gpu/scheduler.c): held_n blocks from held_first, their output
     * one after another in held */
    exec_output held;
    uint64_t held_first, held_n;
    exec_fault fault;
    exec_launch launch;           /* this lane's copy of the launch: its own abort flag */
    volatile int abort;           /* set to stop the block this lane is running */
    struct gpu_grid *grid;        /* grid of the block being run (sched_lock) */
    _Atomic uint64_t block;       /* linear index of the block being run, UINT64_MAX idle */
    uint64_t counted_grid;        /* sequence number of the last grid this lane counted in */
    struct gpu_lane *busy_next;   /* in the device's list of lanes running a block */
    struct gpu_lane **busy_prev;
    /* dynamic parallelism (gpu/dp.c): the grid's state, and the running block's (created
     * on the block's first device-runtime call) */
    struct gpu_dp_grid *dp;
    struct gpu_dp_block *dp_block;
    exec_cluster *cluster;        /* the cluster of the block being run (cluster launches) */
    char gap_after[GPU_CACHE_LINE];
} gpu_lane;

struct gpu_device {
    const gpu_preset *preset;
    mem_table *mem;
    bool owns_mem;                /* false: the table is shared with other devices */
    unsigned nlanes;              /* lanes one grid may use, the caller's included */
    uint64_t kernel_timeout_ns;   /* VCUDA_KERNEL_TIMEOUT: how long a grid may run; 0: ever */
    exec_heap heap;               /* the device heap (cudaLimitMallocHeapSize) */
    _Atomic uint32_t stack_limit; /* cudaLimitStackSize: per-thread stack of recursive kernels */

    gpu_print_fn print;
    void *print_ctx;
    pthread_mutex_t print_lock;   /* one writer at a time, nested grids included */

    _Atomic uint64_t next_grid_id;

    /* the scheduler's state, all under sched_lock */
    pthread_mutex_t sched_lock;
    pthread_cond_t sched_wake;    /* a grid arrived, or blocks left an SM while a grid
                                   * waited for room */
    struct gpu_grid *active;      /* grids with blocks not yet handed out, best first */
    uint64_t grid_seq;            /* admission order */
    unsigned room_waiters;        /* lanes waiting for an SM to have room */
    gpu_lane *busy;               /* lanes running a block */
    uint64_t *sm_load;            /* per SM: sum of the resident blocks' shares */

    /* the pool: lanes[1..nlanes-1] start on demand (lanes[0] is unused) */
    gpu_lane *lanes;
    bool pool_started;
    bool shutdown;

    /* dynamic parallelism: launches from device code not yet complete (each counts until
     * its grid and everything that grid launched have finished), the limits the runtime
     * set, and what the runtime answers for device-side queries */
    _Atomic uint64_t dp_outstanding;
    uint64_t dp_pending_limit;
    uint64_t dp_sync_depth_limit;
    gpu_dp_host dp_host;

    /* exec_workers for lanes of calling threads and of nested grids */
    pthread_mutex_t spare_lock;
    exec_worker **spare;
    size_t nspare, spare_cap;
    uint64_t grid_workspace;      /* the workspace of grids not launched cooperatively */
};

/* One SM's capacity in residency units: every block count up to 32 divides it, so a
 * grid holding B blocks per SM takes exactly 1/B of it per block (lcm(1..32)). */
#define GPU_SM_CAPACITY 144403552893600ull

/* Emit bytes through the device's print function (under print_lock). */
void gpu_device_emit(struct gpu_device *d, const char *data, size_t len);
/* Write a block's device diagnostics (failed assertions) to the host's stderr. */
void gpu_device_emit_err(struct gpu_device *d, const char *data, size_t len);
/* Start the pool lanes if they are not running (called with sched_lock held). */
void gpu_pool_start(struct gpu_device *d);
/* A pool lane's loop (gpu/scheduler.c): run blocks of any active grid until shutdown. */
void *gpu_pool_lane_main(void *arg);
/* Run the blocks of a grid (gpu/scheduler.c): what gpu_run_grid_stats does before the
 * grid's device-side work. dp receives what the blocks launched (initialised by the
 * caller); when sink is not NULL the grid's printf output is appended to it instead of
 * being printed (a grid run while a block waits for it: the output belongs there). */
exec_fault_kind gpu_grid_run_blocks(gpu_device *d, exec_launch *L, exec_fault *fault,
                                    gpu_grid_stats *stats, struct gpu_dp_grid *dp,
                                    exec_output *sink);
/* An exec_worker for a calling thread's or a nested grid's lane, or a cooperative grid's
 * block (from the spare list or new), and its return. */
exec_worker *gpu_spare_worker_take(struct gpu_device *d);
/* A grid workspace for cooperative groups (gpu/scheduler.c): 0 when out of memory. */
uint64_t gpu_grid_workspace_new(struct gpu_device *d);
void gpu_grid_workspace_free(struct gpu_device *d, uint64_t base);
void gpu_spare_worker_give(struct gpu_device *d, exec_worker *w);

#endif
