/* driver/state.c — the driver's own state and the checks every call starts with:
 * cuInit, the mapping of the runtime's error codes onto CUresult, and the loud failure
 * that names an unsupported call.
 *
 * Calls before cuInit fail with CUDA_ERROR_NOT_INITIALIZED, as the driver does; a call
 * that needs a context finds the calling thread's current one, or, when the thread has
 * none but the runtime has brought up the device, the primary context (the runtime makes
 * it current on the threads that use it).
 */
#include "drv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static drv_state drv_the_state = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .primary = {{.primary = true, .id = 1}},
    .next_ctx_id = 2,
};

drv_state *drv_get(void) { return &drv_the_state; }

CUresult drv_from_rt(cudaError_t e) {
    switch (e) {
    /* runtime-only codes: what the driver answers for the same misuse */
    case cudaErrorInvalidDeviceFunction:
    case cudaErrorInvalidResourceHandle:
        return CUDA_ERROR_INVALID_HANDLE;
    case cudaErrorInvalidSymbol:
        return CUDA_ERROR_NOT_FOUND;
    case cudaErrorInvalidConfiguration:
    case cudaErrorInvalidPitchValue:
    case cudaErrorInvalidHostPointer:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
    case cudaErrorMissingConfiguration:
        return CUDA_ERROR_INVALID_VALUE;
    default:
        /* CUDA numbers the codes the two APIs share alike */
        return (CUresult)e;
    }
}

cudaError_t drv_rt_begin(void) { return rt_thread_state()->last_error; }

CUresult drv_rt_end(cudaError_t saved, cudaError_t e) {
    rt_thread_state()->last_error = saved;
    return drv_from_rt(e);
}

CUresult drv_fail(CUresult r, const char *call, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "vcuda: %s: %s\n", call, msg);
    return r;
}

/* The stubs gen_api.py writes for the functions of cuda.h vcuda does not implement. */
int drv_unsupported(const char *name);
int drv_unsupported(const char *name) {
    fprintf(stderr, "vcuda: %s is not supported by vcuda's driver API\n", name);
    return CUDA_ERROR_NOT_SUPPORTED;
}

DRV_API CUresult cuInit(unsigned int Flags) {
    drv_state *s = drv_get();
    if (Flags != 0) return CUDA_ERROR_INVALID_VALUE;
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&s->lock);
    if (!rt_cur(c)->preset) s->init_error = CUDA_ERROR_NO_DEVICE; /* VCUDA_DEVICE named no preset */
    else s->initialised = true;
    CUresult r = s->init_error;
    pthread_mutex_unlock(&s->lock);
    return r;
}

CUresult drv_initialised(void) {
    drv_state *s = drv_get();
    pthread_mutex_lock(&s->lock);
    CUresult r = s->initialised ? CUDA_SUCCESS
                 : s->init_error ? s->init_error : CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_unlock(&s->lock);
    /* the runtime initialises the driver when it starts (a program that made a runtime
     * call may go on with driver calls, no cuInit of its own) */
    if (r == CUDA_ERROR_NOT_INITIALIZED && rt_runtime_started()) r = cuInit(0);
    return r;
}

CUresult drv_device_check(CUdevice dev) {
    CUresult r = drv_initialised();
    if (r) return r;
    return rt_dev_at(rt_ctx(), dev) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

drv_ctx *drv_primary(drv_state *s, int dev) {
    drv_ctx *x = &s->primary[dev];
    pthread_mutex_lock(&s->lock);
    if (!x->primary) { /* device 0's is made statically (id 1); the others' on first use */
        x->primary = true;
        x->device = dev;
        x->id = s->next_ctx_id++;
    }
    pthread_mutex_unlock(&s->lock);
    return x;
}

void drv_follow(const drv_ctx *x) {
    if (x) rt_thread_state()->device = x->device;
}

cudaError_t drv_bring_up(rt_context *c) {
    pthread_mutex_lock(&c->lock);
    bool was_up = rt_cur(c)->gpu != NULL;
    pthread_mutex_unlock(&c->lock);
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = rt_enter_device(c);
    drv_rt_end(saved, e);
    if (!e && !was_up) {
        drv_state *s = drv_get();
        pthread_mutex_lock(&s->lock);
        s->device_by_driver = true;
        pthread_mutex_unlock(&s->lock);
    }
    return e;
}

bool drv_runtime_up(rt_context *c) {
    pthread_mutex_lock(&c->lock);
    bool up = rt_cur(c)->gpu != NULL;
    pthread_mutex_unlock(&c->lock);
    drv_state *s = drv_get();
    pthread_mutex_lock(&s->lock);
    up = up && !s->device_by_driver;
    pthread_mutex_unlock(&s->lock);
    return up;
}

CUresult drv_enter(drv_ctx **out) {
    CUresult r = drv_initialised();
    if (r) return r;
    drv_ctx *ctx = drv_current();
    rt_context *c = rt_ctx();
    if (!ctx) {
        /* the runtime's calls make the primary context current where they run */
        if (!drv_runtime_up(c)) return CUDA_ERROR_INVALID_CONTEXT;
        ctx = drv_primary(drv_get(), rt_cur(c)->ordinal);
    }
    drv_follow(ctx);
    if (ctx->destroyed) return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (out) *out = ctx;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, rt_enter(c));
}
