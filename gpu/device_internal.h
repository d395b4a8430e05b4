/* gpu/device_internal.h — the device object as gpu/device.c and gpu/scheduler.c share it.
 *
 * A device owns a pool of host threads ("lanes" below, to keep them apart from GPU
 * threads). Lane 0 is whichever host thread calls gpu_run_grid; lanes 1..n-1 are pool
 * threads started the first time a grid has more than one block. Every lane owns an
 * exec_worker, so block scratch (warps, registers, shared memory) is reused from block to
 * block without allocation.
 */
#ifndef VCUDA_GPU_DEVICE_INTERNAL_H
#define VCUDA_GPU_DEVICE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "gpu.h"

struct gpu_grid;
struct gpu_dp_grid;
struct gpu_dp_block;

typedef struct gpu_lane {
    struct gpu_device *dev;
    unsigned index;
    pthread_t thread;             /* pool lanes only */
    exec_worker *worker;
    exec_output out;              /* printf output of the block being run */
    exec_fault fault;
    exec_launch launch;           /* this lane's copy of the launch: its own abort flag */
    volatile int abort;           /* set to stop the block this lane is running */
    _Atomic uint64_t block;       /* linear index of the block being run, UINT64_MAX idle */
    uint64_t seen_generation;     /* last grid generation this pool lane looked at */
    /* dynamic parallelism (gpu/dp.c): the grid's state, and the running block's (created
     * on the block's first device-runtime call) */
    struct gpu_dp_grid *dp;
    struct gpu_dp_block *dp_block;
} gpu_lane;

struct gpu_device {
    const gpu_preset *preset;
    mem_table *mem;
    unsigned nlanes;              /* lanes a grid may use, the caller's included */

    gpu_print_fn print;
    void *print_ctx;
    pthread_mutex_t print_lock;   /* one writer at a time, nested grids included */

    pthread_mutex_t grid_lock;    /* grids of this device run one at a time */
    _Atomic uint64_t next_grid_id;

    /* the pool: lanes[0] is the calling thread's; the others start on demand */
    gpu_lane *lanes;
    bool pool_started;
    pthread_mutex_t pool_lock;
    pthread_cond_t pool_wake;     /* a new grid generation or shutdown */
    pthread_cond_t pool_idle;     /* a pool lane finished its part of the grid */
    uint64_t generation;
    struct gpu_grid *grid;        /* the grid of the current generation while it is open
                                   * to lanes (NULL once every block has been taken) */
    unsigned grid_lanes;          /* lanes it asked for, the caller's included */
    unsigned lanes_joined;        /* pool lanes that joined it */
    unsigned lanes_done;          /* of those, lanes that finished */
    bool shutdown;

    /* dynamic parallelism: launches from device code not yet complete (each counts until
     * its grid and everything that grid launched have finished), the limits the runtime
     * set, and what the runtime answers for device-side queries */
    _Atomic uint64_t dp_outstanding;
    uint64_t dp_pending_limit;
    uint64_t dp_sync_depth_limit;
    gpu_dp_host dp_host;

    /* spare exec_workers for grids launched from inside a running block */
    pthread_mutex_t spare_lock;
    exec_worker **spare;
    size_t nspare, spare_cap;
};

/* Emit bytes through the device's print function (under print_lock). */
void gpu_device_emit(struct gpu_device *d, const char *data, size_t len);
/* Write a block's device diagnostics (failed assertions) to the host's stderr. */
void gpu_device_emit_err(struct gpu_device *d, const char *data, size_t len);
/* Ask the pool to help with grid g using nlanes lanes in all (the caller is lane 0);
 * returns, with the number of lanes that took part, once every lane has finished.
 * Pool lanes that wake after the caller has taken the last block stay out. */
unsigned gpu_pool_run(struct gpu_device *d, struct gpu_grid *g, unsigned nlanes);
/* The lane loop of the scheduler: take blocks of g until none is left. */
void gpu_grid_work(struct gpu_grid *g, gpu_lane *lane);
/* Run the blocks of a grid (gpu/scheduler.c): what gpu_run_grid_stats does before the
 * grid's device-side work. dp receives what the blocks launched (initialised by the
 * caller); when sink is not NULL the grid's printf output is appended to it instead of
 * being printed (a grid run while a block waits for it: the output belongs there). */
exec_fault_kind gpu_grid_run_blocks(gpu_device *d, exec_launch *L, exec_fault *fault,
                                    gpu_grid_stats *stats, struct gpu_dp_grid *dp,
                                    exec_output *sink);
/* An exec_worker for a nested grid (from the spare list or new), and its return. */
exec_worker *gpu_spare_worker_take(struct gpu_device *d);
void gpu_spare_worker_give(struct gpu_device *d, exec_worker *w);

#endif
