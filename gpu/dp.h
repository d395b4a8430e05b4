/* gpu/dp.h — dynamic parallelism as gpu/scheduler.c and gpu/dp.c share it: what a grid's
 * blocks launched, their device-side streams and events, and the printf output they
 * produced after their launches. */
#ifndef VCUDA_GPU_DP_H
#define VCUDA_GPU_DP_H

#include "device_internal.h"

/* A grid launched from device code, or a copy or set into a device stream, waiting to
 * run (copies and sets take their place in issue order but are not launches). Kept small:
 * millions may be pending. */
typedef struct gpu_dp_launch {
    struct gpu_dp_launch *next;
    const exec_kernel *kernel;
    exec_dim3 grid, block;
    uint32_t dyn_shared;
    uint32_t depth;         /* of the grid it makes (a host-launched grid is at 0) */
    uint32_t device, peers; /* the launching grid's (exec_launch): the peer rule holds for
                             * the grids it launches */
    uint64_t graph_exec;    /* a node of this device graph (%current_graph_exec), or 0 */
    struct gpu_dp_env *env; /* the graph execution environment it runs in, or NULL */
    bool env_last;          /* the last node of env's graph: once it and all it launched
                             * are done, env is complete (and owned by this launch) */
    struct gpu_dp_copy *copy; /* a cudaMemcpyAsync / cudaMemsetAsync, not a launch */
    uint8_t params[];       /* the kernel's parameter buffer */
} gpu_dp_launch;

typedef struct gpu_dp_copy {
    void *dst;
    const void *src;        /* NULL: set count bytes to value */
    int value;
    unsigned elem;          /* a set: bytes of an element of value (0 or 1: bytes) */
    size_t count;
} gpu_dp_copy;

/* A graph execution environment (CUDA Programming Guide, "Device Graph Launch"): the
 * work of one launch of a graph, with everything its nodes launch fire-and-forget. The
 * graph tail launches its nodes make wait in tails until the environment is complete
 * (its last node and all that node's and the earlier nodes' launches done); they then run
 * in enqueue order, each replacing the environment, so a tail graph's own tail launches
 * run before those queued after it. A graph launched from the host has one too (host):
 * its nodes run on several threads at once, and the runtime completes it after the
 * graph's last node (gpu_graph_env_finish). */
struct gpu_dp_env {
    uint64_t exec;                      /* the graph (cudaGetCurrentGraphExec), or 0 */
    bool host;                          /* launched from the host */
    gpu_device *dev;                    /* host: the device of the tail launches queued */
    pthread_mutex_t lock;               /* host: tails, dev */
    gpu_dp_launch *tails, **tails_end;  /* graph tail launches, in enqueue order */
    _Atomic uint32_t ntails;            /* pending tail launches (at most 255) */
    _Atomic uint32_t nfire;             /* fire-and-forget graphs launched (at most 120) */
    _Atomic bool self_tail;             /* a tail launch of exec itself is queued */
};

/* A device-side stream or event: valid only in the block that created it. */
typedef struct gpu_dp_handle {
    bool is_event;
    bool destroyed;
} gpu_dp_handle;

/* From offset on, a block's output belongs to launch epoch epoch. */
typedef struct gpu_dp_epoch {
    size_t offset;
    uint32_t epoch;
} gpu_dp_epoch;

/* What one block did through the device runtime. */
typedef struct gpu_dp_block {
    uint64_t block;                     /* linear index in its grid */
    struct gpu_dp_env *env;             /* the environment its grid runs in, or NULL */
    gpu_dp_launch *work, **work_end;    /* launches in issue order (tail launches apart) */
    gpu_dp_launch *tails, **tails_end;  /* launches into the tail launch stream */
    gpu_dp_launch *gtails, **gtails_end; /* graph tail launches, for the grid's environment */
    gpu_dp_handle **handles;            /* streams and events it created */
    size_t nhandles, handles_cap;
    struct gpu_dp_epoch *epochs;        /* where its output changes launch epoch */
    size_t nepochs, epochs_cap;
    struct gpu_dp_block *next;
} gpu_dp_block;

/* Output a block printed after a launch, held back (see gpu/dp.c). */
typedef struct gpu_dp_segment {
    uint64_t block;
    uint32_t epoch;         /* how many launches the printing warp had made before */
    uint32_t seq;           /* order within the block */
    char *data;
    size_t len;
} gpu_dp_segment;

typedef struct gpu_dp_grid {
    gpu_device *dev;
    uint32_t depth;
    gpu_dp_env *env;        /* the graph execution environment the grid runs in, or NULL */
    pthread_mutex_t lock;   /* blocks finishing on several lanes */
    gpu_dp_block *done;     /* finished blocks that used the device runtime */
    gpu_dp_segment *late;
    size_t nlate, late_cap;
} gpu_dp_grid;

/* Append bytes to a block's output buffer. */
void gpu_output_append(exec_output *o, const char *data, size_t len);

void gpu_dp_grid_init(gpu_dp_grid *g, gpu_device *d, uint32_t depth);
/* Release everything left (launches that will never run stop counting as pending). */
void gpu_dp_grid_destroy(gpu_dp_grid *g);

/* Block b finished on lane (its output in lane->out). Its device-runtime state joins the
 * grid (keep false: the block was dropped after a fault, its launches are discarded).
 * Returns how many bytes of lane->out to emit now; from the first output of a later
 * launch epoch on, the block's output is held back in g->late. */
size_t gpu_dp_block_finish(gpu_dp_grid *g, gpu_lane *lane, uint64_t b, bool keep);
/* Append the held-back output of blocks up to last_block to out, in the order of the
 * GPU's timing model: by epoch, then by block. */
void gpu_dp_late_output(gpu_dp_grid *g, uint64_t last_block, exec_output *out);
/* Take the grid's launches in the order they run: every block's launches, block by
 * block in issue order, then every block's tail launches likewise. */
gpu_dp_launch *gpu_dp_grid_take_work(gpu_dp_grid *g);
/* Run queued launches to completion, each with everything it launches, one after
 * another. Output goes to sink (NULL: printed). On a fault the rest is discarded and the
 * fault returned. */
exec_fault_kind gpu_dp_run(gpu_device *d, gpu_dp_launch *queue, exec_output *sink,
                           exec_fault *fault);

/* The device runtime as exec/ calls it; the context is the gpu_lane running the block. */
extern const exec_devrt_ops gpu_dp_ops;

#endif
