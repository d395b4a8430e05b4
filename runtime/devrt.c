/* runtime/devrt.c — what the runtime tells the device about dynamic parallelism: the limits
 * the program set (cudaLimitDevRuntimePendingLaunchCount, cudaLimitDevRuntimeSyncDepth)
 * and the answers to device-side queries only the runtime knows (error names and texts,
 * the other limits, device attributes). The device runtime itself is exec/devrt.c and
 * gpu/dp.c.
 */
#include "rt.h"

#include <assert.h>
#include <stdlib.h>

/* exec/ speaks cudaError_t without CUDA's headers: its numbers must be CUDA's. */
static_assert((int)EXEC_DEVRT_INVALID_VALUE == (int)cudaErrorInvalidValue, "cudaError_t value");
static_assert((int)EXEC_DEVRT_MEMORY_ALLOCATION == (int)cudaErrorMemoryAllocation, "cudaError_t value");
static_assert((int)EXEC_DEVRT_INVALID_CONFIGURATION == (int)cudaErrorInvalidConfiguration, "cudaError_t value");
static_assert((int)EXEC_DEVRT_LAUNCH_MAX_DEPTH_EXCEEDED == (int)cudaErrorLaunchMaxDepthExceeded,
              "cudaError_t value");
static_assert((int)EXEC_DEVRT_SYNC_DEPTH_EXCEEDED == (int)cudaErrorSyncDepthExceeded, "cudaError_t value");
static_assert((int)EXEC_DEVRT_LAUNCH_PENDING_COUNT_EXCEEDED == (int)cudaErrorLaunchPendingCountExceeded,
              "cudaError_t value");
static_assert((int)EXEC_DEVRT_INVALID_DEVICE_FUNCTION == (int)cudaErrorInvalidDeviceFunction,
              "cudaError_t value");
static_assert((int)EXEC_DEVRT_INVALID_RESOURCE_HANDLE == (int)cudaErrorInvalidResourceHandle,
              "cudaError_t value");
static_assert((int)EXEC_DEVRT_NOT_SUPPORTED == (int)cudaErrorNotSupported, "cudaError_t value");
/* The special device streams (0x2 per-thread, 0x3 tail launch, 0x4 fire-and-forget) are
 * CUDA's cudaStreamPerThread, cudaStreamTailLaunch and cudaStreamFireAndForget. */

static const char *rt_devrt_error_text(int code, bool description) {
    cudaError_t e = (cudaError_t)code;
    return description ? rt_error_message(e) : rt_error_name(e);
}

/* The limit of the device whose core g is (each device has its own). */
static int rt_devrt_get_limit(gpu_device *g, int limit, uint64_t *value) {
    rt_context *c = rt_ctx();
    if (limit < 0 || limit >= RT_LIMIT_COUNT) return cudaErrorUnsupportedLimit;
    pthread_mutex_lock(&c->lock);
    rt_dev *v = &c->devs[0];
    for (int d = 0; d < c->ndevs; d++)
        if (c->devs[d].gpu == g) v = &c->devs[d];
    cudaError_t e = cudaSuccess;
    if (limit == cudaLimitDevRuntimeSyncDepth && !v->preset->limit_dev_runtime_sync_depth)
        e = cudaErrorUnsupportedLimit;
    else
        *value = v->limits[limit];
    pthread_mutex_unlock(&c->lock);
    return e;
}

static int rt_devrt_get_attribute(int attr, int device, int *value) {
    return cudaDeviceGetAttribute(value, (enum cudaDeviceAttr)attr, device);
}

/* The registered kernel a device-side launch runs. The host may never have launched it
 * (kernels are resolved at their first host launch): it is resolved here then. */
static rt_func *func_of_kernel(rt_context *c, const exec_kernel *k) {
    pthread_mutex_lock(&c->lock);
    rt_func *f = NULL;
    for (rt_func *g = c->funcs; !f && g; g = g->next) {
        if (g->kernel == k) f = g;
        for (int d = 0; !f && d < c->ndevs; d++)
            if (g->dev_kernel[d] == k) f = g;
    }
    /* a kernel of some device's program (each device has its own) */
    for (rt_func *g = c->funcs; !f && g; g = g->next) {
        if (g->mod->state != RT_MOD_LOADED) continue;
        for (int d = 0; !f && d < c->ndevs; d++) {
            if (g->dev_kernel[d] || !g->mod->dev_prog[d]) continue;
            if (exec_program_kernel(g->mod->dev_prog[d], g->name) == k) {
                g->dev_kernel[d] = k;
                if (!g->kernel) g->kernel = exec_program_kernel(g->mod->prog, g->name);
                f = g;
            }
        }
    }
    pthread_mutex_unlock(&c->lock);
    return f;
}

/* The tools watching a grid launched from device code, as they watch a host launch. */
typedef struct rt_devrt_watch {
    rt_prof_run *prof;
    check_launch *check;
} rt_devrt_watch;

static void *rt_devrt_grid_begin(exec_launch *L) {
    rt_context *c = rt_ctx();
    rt_func *f = func_of_kernel(c, L->kernel);
    if (!f) return NULL;
    rt_prof_run *prof = rt_prof_begin(c, f, L, L->device ? (int)L->device - 1 : 0, 0, false);
    check_launch *ck = NULL;
    if (c->check && !L->observer)
        ck = check_launch_begin(c->check, L, exec_program_module(f->mod->prog), f->name,
                                rt_cur(c)->preset->major >= 7, NULL);
    if (!prof && !ck) return NULL;
    rt_devrt_watch *w = calloc(1, sizeof *w);
    if (!w) abort();
    w->prof = prof;
    w->check = ck;
    return w;
}

/* A grid launched from device code counts in its kernel's report like any launch. */
static bool rt_devrt_grid_done(const exec_launch *L, const gpu_grid_stats *stats,
                               exec_fault_kind k, void *token) {
    rt_context *c = rt_ctx();
    rt_devrt_watch *w = token;
    bool check_failed = false;
    if (w) {
        rt_prof_end(c, w->prof, stats, k != EXEC_OK);
        check_failed = check_launch_end(w->check, k);
        free(w);
    }
    rt_func *f = func_of_kernel(c, L->kernel);
    if (!f) return check_failed;
    pthread_mutex_lock(&c->lock);
    rt_kernel_stats *s = &f->stats;
    s->calls++;
    s->warp_insns += stats->warp_instructions;
    s->host_seconds += stats->host_seconds;
    s->last_grid = L->grid;
    s->last_block = L->block;
    if (k != EXEC_OK || check_failed) s->faults++;
    pthread_mutex_unlock(&c->lock);
    return check_failed;
}

static const gpu_dp_host rt_devrt_host = {
    .error_text = rt_devrt_error_text,
    .get_limit = rt_devrt_get_limit,
    .get_attribute = rt_devrt_get_attribute,
    .grid_begin = rt_devrt_grid_begin,
    .grid_done = rt_devrt_grid_done,
    .graph_items = rt_graph_device_items,
};

/* Grids of several streams start at once: the device is told only what changed (under
 * the context lock), so that grids already running never see these written. */
gpu_device *rt_devrt_prepare(rt_context *c, int d) {
    pthread_mutex_lock(&c->lock);
    gpu_device *g = rt_dev_gpu(c, d);
    uint64_t pending = c->devs[d].limits[cudaLimitDevRuntimePendingLaunchCount];
    uint64_t sync_depth = c->devs[d].limits[cudaLimitDevRuntimeSyncDepth];
    if (g && (c->devrt_dev[d] != g || c->devrt_pending[d] != pending ||
              c->devrt_sync_depth[d] != sync_depth)) {
        gpu_device_set_dp_host(g, &rt_devrt_host);
        gpu_device_set_dp_limits(g, pending, sync_depth);
        c->devrt_dev[d] = g;
        c->devrt_pending[d] = pending;
        c->devrt_sync_depth[d] = sync_depth;
    }
    pthread_mutex_unlock(&c->lock);
    return g;
}
