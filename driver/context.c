/* driver/context.c — contexts: each device's primary context (the runtime's own) and the
 * contexts a program creates, each host thread's stack of current contexts, the calls
 * that act on the current context (limits, cache configuration, synchronisation), and
 * peer access between contexts of different devices.
 *
 * A context belongs to a device; making it current makes its device the runtime's current
 * device on that thread. Every context of a device sees the same allocations, streams and
 * events (the runtime's). A created context owns the modules loaded while it
 * was current; destroying it unloads them. Resetting the primary context is
 * cudaDeviceReset: everything the device held goes, and the driver's modules with it.
 */
#include "drv.h"

#include <stdlib.h>

enum { DRV_CTX_STACK = 64 };
static _Thread_local drv_ctx *drv_stack[DRV_CTX_STACK];
static _Thread_local int drv_depth;

drv_ctx *drv_current(void) { return drv_depth ? drv_stack[drv_depth - 1] : NULL; }

bool drv_ctx_valid(drv_state *s, CUcontext h) {
    drv_ctx *x = (drv_ctx *)h;
    if (x >= s->primary && x < s->primary + GPU_MAX_DEVICES) return x->primary;
    return x && rt_ptrmap_get(&s->contexts, x) == x;
}

/* The flags a context may be made with: a scheduling policy and the old map-host and
 * local-memory flags. */
static bool drv_ctx_flags_ok(unsigned flags) {
    unsigned sched = flags & CU_CTX_SCHED_MASK;
    unsigned known = CU_CTX_SCHED_MASK | CU_CTX_MAP_HOST | CU_CTX_LMEM_RESIZE_TO_MAX |
                     CU_CTX_COREDUMP_ENABLE | CU_CTX_USER_COREDUMP_ENABLE | CU_CTX_SYNC_MEMOPS;
    return !(flags & ~known) && sched != 3 && sched <= CU_CTX_SCHED_BLOCKING_SYNC;
}

/* ---- primary context ---- */

DRV_API CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_device_check(dev);
    if (r) return r;
    drv_state *s = drv_get();
    rt_context *c = rt_ctx();
    drv_ctx *x = drv_primary(s, dev);
    cudaError_t e = drv_bring_up(c); /* the device comes up with its primary context */
    if (!e) {
        pthread_mutex_lock(&c->lock);
        if (!rt_dev_gpu(c, dev)) e = cudaErrorDevicesUnavailable;
        pthread_mutex_unlock(&c->lock);
    }
    if (e) return drv_from_rt(e);
    pthread_mutex_lock(&s->lock);
    s->primary_refs[dev]++;
    x->destroyed = false;
    pthread_mutex_unlock(&s->lock);
    *pctx = (CUcontext)x;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
    CUresult r = drv_device_check(dev);
    if (r) return r;
    drv_state *s = drv_get();
    pthread_mutex_lock(&s->lock);
    /* Released by every retainer, the context stays for the runtime, which keeps one
     * of its own on a GPU too. */
    r = s->primary_refs[dev] ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
    if (s->primary_refs[dev]) s->primary_refs[dev]--;
    pthread_mutex_unlock(&s->lock);
    return r;
}

DRV_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
    CUresult r = drv_device_check(dev);
    if (r) return r;
    if (!drv_ctx_flags_ok(flags)) return CUDA_ERROR_INVALID_VALUE;
    drv_state *s = drv_get();
    drv_ctx *x = drv_primary(s, dev);
    pthread_mutex_lock(&s->lock);
    x->flags = flags;
    pthread_mutex_unlock(&s->lock);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active) {
    if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_device_check(dev);
    if (r) return r;
    drv_state *s = drv_get();
    bool runtime_up = drv_runtime_up(rt_ctx());
    drv_ctx *x = drv_primary(s, dev);
    pthread_mutex_lock(&s->lock);
    *flags = x->flags;
    *active = s->primary_refs[dev] > 0 || runtime_up;
    pthread_mutex_unlock(&s->lock);
    return CUDA_SUCCESS;
}

/* Unload every module the driver loaded into ctx (NULL: all of them). */
static void drv_unload_modules(drv_state *s, drv_ctx *ctx) {
    for (;;) {
        drv_module *victim = NULL;
        pthread_mutex_lock(&s->lock);
        for (size_t i = 0; i < s->modules.cap && !victim; i++) {
            drv_module *dm = s->modules.keys[i] ? s->modules.values[i] : NULL;
            if (dm && (!ctx || dm->ctx == ctx)) victim = dm;
        }
        pthread_mutex_unlock(&s->lock);
        if (!victim) return;
        drv_module_unload(victim);
    }
}

DRV_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) {
    CUresult r = drv_device_check(dev);
    if (r) return r;
    drv_state *s = drv_get();
    drv_ctx *x = drv_primary(s, dev);
    drv_unload_modules(s, x);
    pthread_mutex_lock(&s->lock);
    s->primary_refs[dev] = 0;
    x->flags = 0;
    pthread_mutex_unlock(&s->lock);
    /* the runtime resets the current device: make it dev for the call */
    rt_thread *t = rt_thread_state();
    int was = t->device;
    t->device = dev;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, cudaDeviceReset());
    t->device = was;
    return r;
}

/* ---- created contexts and the stack ---- */

DRV_API CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags,
                                CUdevice dev) {
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_device_check(dev);
    if (r) return r;
    if (!drv_ctx_flags_ok(flags)) return CUDA_ERROR_INVALID_VALUE;
    if (params && (params->numExecAffinityParams || params->cigParams))
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, "cuCtxCreate",
                        "execution affinity and CIG contexts are not supported");
    if (drv_depth == DRV_CTX_STACK)
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, "cuCtxCreate",
                        "more than %d contexts pushed on one thread", DRV_CTX_STACK);
    rt_context *c = rt_ctx();
    rt_thread_state()->device = dev; /* the new context is current: its device too */
    cudaError_t e = drv_bring_up(c);
    if (e) return drv_from_rt(e);
    drv_state *s = drv_get();
    drv_ctx *x = calloc(1, sizeof *x);
    if (!x) return CUDA_ERROR_OUT_OF_MEMORY;
    x->flags = flags;
    x->device = dev;
    pthread_mutex_lock(&s->lock);
    x->id = s->next_ctx_id++;
    bool ok = rt_ptrmap_put(&s->contexts, x, x);
    pthread_mutex_unlock(&s->lock);
    if (!ok) {
        free(x);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    drv_stack[drv_depth++] = x; /* made current, as cuCtxCreate does */
    *pctx = (CUcontext)x;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxDestroy_v2(CUcontext ctx) {
    CUresult r = drv_initialised();
    if (r) return r;
    drv_state *s = drv_get();
    drv_ctx *x = (drv_ctx *)ctx;
    if (x >= s->primary && x < s->primary + GPU_MAX_DEVICES)
        return CUDA_ERROR_INVALID_CONTEXT; /* primary: release it instead */
    pthread_mutex_lock(&s->lock);
    bool live = x && rt_ptrmap_remove(&s->contexts, x) == x;
    pthread_mutex_unlock(&s->lock);
    if (!live) return CUDA_ERROR_INVALID_CONTEXT;
    /* the context's work ends first, then its modules go */
    rt_thread *t = rt_thread_state();
    int was = t->device;
    t->device = x->device;
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = cudaDeviceSynchronize();
    drv_rt_end(saved, e);
    t->device = was;
    drv_unload_modules(s, x);
    /* off this thread's stack; other threads holding it see it destroyed */
    for (int i = 0; i < drv_depth; i++)
        if (drv_stack[i] == x) {
            for (int j = i; j + 1 < drv_depth; j++) drv_stack[j] = drv_stack[j + 1];
            drv_depth--;
            i--;
        }
    x->destroyed = true; /* kept: another thread may still name it (never reused) */
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!drv_ctx_valid(drv_get(), ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    if (drv_depth == DRV_CTX_STACK) return CUDA_ERROR_OUT_OF_MEMORY;
    drv_stack[drv_depth++] = (drv_ctx *)ctx;
    drv_follow((drv_ctx *)ctx);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxPopCurrent_v2(CUcontext *pctx) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!drv_depth) return CUDA_ERROR_INVALID_CONTEXT;
    drv_ctx *x = drv_stack[--drv_depth];
    if (pctx) *pctx = (CUcontext)x;
    drv_follow(drv_current());
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxSetCurrent(CUcontext ctx) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!ctx) { /* unbinds the current context */
        if (drv_depth) drv_depth--;
        return CUDA_SUCCESS;
    }
    if (!drv_ctx_valid(drv_get(), ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    if (drv_depth) drv_stack[drv_depth - 1] = (drv_ctx *)ctx;
    else drv_stack[drv_depth++] = (drv_ctx *)ctx;
    drv_follow((drv_ctx *)ctx);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetCurrent(CUcontext *pctx) {
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    drv_ctx *x = drv_current();
    rt_context *c = rt_ctx();
    if (!x && drv_runtime_up(c)) /* the runtime made its current device's current */
        x = drv_primary(drv_get(), rt_cur(c)->ordinal);
    *pctx = (CUcontext)x;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetDevice(CUdevice *device) {
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    drv_ctx *x;
    CUresult r = drv_enter(&x);
    if (r) return r;
    *device = x->device;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx) {
    if (!ctx) return cuCtxGetDevice(device);
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    if (!drv_ctx_valid(drv_get(), ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    *device = ((drv_ctx *)ctx)->device;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetFlags(unsigned int *flags) {
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    drv_ctx *x;
    CUresult r = drv_enter(&x);
    if (r) return r;
    *flags = x->flags;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxSetFlags(unsigned int flags) {
    drv_ctx *x;
    CUresult r = drv_enter(&x);
    if (r) return r;
    if (!drv_ctx_flags_ok(flags)) return CUDA_ERROR_INVALID_VALUE;
    x->flags = flags;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId) {
    if (!ctxId) return CUDA_ERROR_INVALID_VALUE;
    drv_ctx *x;
    CUresult r = ctx ? drv_initialised() : drv_enter(&x);
    if (r) return r;
    if (ctx) {
        if (!drv_ctx_valid(drv_get(), ctx)) return CUDA_ERROR_INVALID_CONTEXT;
        x = (drv_ctx *)ctx;
    }
    *ctxId = x->id;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version) {
    if (!version) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = ctx ? drv_initialised() : drv_enter(NULL);
    if (r) return r;
    if (ctx && !drv_ctx_valid(drv_get(), ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    *version = 3020; /* the context API every driver since CUDA 3.2 reports */
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxSynchronize(void) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaDeviceSynchronize());
}

DRV_API CUresult cuCtxSynchronize_v2(CUcontext ctx) {
    if (ctx && !drv_ctx_valid(drv_get(), ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    return cuCtxSynchronize();
}

DRV_API CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaDeviceGetLimit(pvalue, (enum cudaLimit)limit));
}

DRV_API CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaDeviceSetLimit((enum cudaLimit)limit, value));
}

DRV_API CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaDeviceGetCacheConfig((enum cudaFuncCache *)pconfig));
}

DRV_API CUresult cuCtxSetCacheConfig(CUfunc_cache config) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaDeviceSetCacheConfig((enum cudaFuncCache)config));
}

DRV_API CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaDeviceGetStreamPriorityRange(leastPriority, greatestPriority));
}

/* ---- peers ---- */

/* Peer access is kept per device (the runtime's): every context of the current one
 * reaches the peer context's device. */
DRV_API CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags) {
    drv_ctx *x;
    CUresult r = drv_enter(&x);
    if (r) return r;
    drv_ctx *peer = (drv_ctx *)peerContext;
    if (!drv_ctx_valid(drv_get(), peerContext) || peer->destroyed)
        return CUDA_ERROR_INVALID_CONTEXT;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaDeviceEnablePeerAccess(peer->device, Flags));
}

DRV_API CUresult cuCtxDisablePeerAccess(CUcontext peerContext) {
    drv_ctx *x;
    CUresult r = drv_enter(&x);
    if (r) return r;
    drv_ctx *peer = (drv_ctx *)peerContext;
    if (!drv_ctx_valid(drv_get(), peerContext) || peer->destroyed)
        return CUDA_ERROR_INVALID_CONTEXT;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaDeviceDisablePeerAccess(peer->device));
}
