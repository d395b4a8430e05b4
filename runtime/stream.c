/* runtime/stream.c — the stream API: creating streams with flags and priorities,
 * destroying them while work is pending, synchronising with and querying them, the
 * default streams (legacy and per-thread), host functions and stream callbacks.
 *
 * The streams themselves run in engine.c. Handles: 0 and cudaStreamLegacy name the legacy
 * default stream, cudaStreamPerThread the calling thread's default stream; the _ptsz
 * entry points (what nvcc --default-stream per-thread calls) read 0 as the per-thread
 * stream. Checks and codes follow an H100 under CUDA 13
 * (tests/cuda/probes/expected/events_streams.out).
 */
#include "rt.h"

#include <stdlib.h>

#define RT_PRIORITY_LEAST 0
#define RT_PRIORITY_GREATEST (-5)

/* ---- creation and destruction ---- */

static cudaError_t rt_stream_create(cudaStream_t *pStream, unsigned flags, int priority) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pStream || (flags & ~(unsigned)cudaStreamNonBlocking))
        return rt_record(cudaErrorInvalidValue);
    /* Priorities outside the range are clamped, as CUDA does. */
    priority = priority > RT_PRIORITY_LEAST      ? RT_PRIORITY_LEAST
               : priority < RT_PRIORITY_GREATEST ? RT_PRIORITY_GREATEST
                                                 : priority;
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_new(c, RT_STREAM_USER, flags, priority);
    bool ok = s && rt_ptrmap_put(&c->streams, s, s);
    if (s && !ok) {
        s->destroyed = true; /* freed by the next reap */
        c->reap = true;
    }
    pthread_mutex_unlock(&c->engine_lock);
    if (!ok) return rt_record(cudaErrorMemoryAllocation);
    *pStream = (cudaStream_t)s;
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamCreate(cudaStream_t *pStream) {
    return rt_stream_create(pStream, cudaStreamDefault, 0);
}

RT_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
    return rt_stream_create(pStream, flags, 0);
}

RT_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
                                                int priority) {
    return rt_stream_create(pStream, flags, priority);
}

/* Work already issued to the stream still runs; the stream goes when it is done. */
RT_API cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = stream ? rt_ptrmap_remove(&c->streams, stream) : NULL;
    if (s) {
        s->destroyed = true;
        c->reap = true;
        rt_reap(c);
    }
    pthread_mutex_unlock(&c->engine_lock);
    return s ? cudaSuccess : rt_record(cudaErrorInvalidResourceHandle);
}

/* ---- synchronisation and queries ---- */

static cudaError_t rt_stream_sync(cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (rt_in_host_fn()) return rt_record(cudaErrorNotPermitted);
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, stream);
    if (!s) e = cudaErrorInvalidResourceHandle;
    else e = rt_capture_check(c, s, true);
    if (e) {
        pthread_mutex_unlock(&c->engine_lock);
        return rt_record(e);
    }
    rt_mark *m = rt_stream_last_mark(c, s);
    if (m) {
        e = rt_wait_mark_locked(c, m, true);
        rt_mark_unref(c, m);
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(rt_wait_finish(c, e));
}

RT_API cudaError_t cudaStreamSynchronize(cudaStream_t stream) { return rt_stream_sync(stream); }
RT_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) {
    return rt_stream_sync(rt_per_thread(stream));
}

/* Done: cudaSuccess (and the host has now seen the stream's work, output and all);
 * cudaErrorNotReady when the work has not finished within the grace (engine.c). */
static cudaError_t rt_stream_query(cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, stream);
    if (!s) e = cudaErrorInvalidResourceHandle;
    else e = rt_capture_check(c, s, true);
    if (e) {
        pthread_mutex_unlock(&c->engine_lock);
        return rt_record(e);
    }
    rt_mark *m = rt_stream_last_mark(c, s);
    bool done = true;
    if (m) {
        done = rt_in_host_fn() ? m->done : rt_wait_mark_timed_locked(c, m, rt_host_grace_ms());
        if (done) e = rt_wait_mark_locked(c, m, true);
        rt_mark_unref(c, m);
    }
    pthread_mutex_unlock(&c->engine_lock);
    if (!done) return cudaErrorNotReady; /* a status, not an error the thread keeps */
    return rt_record(rt_wait_finish(c, e));
}

RT_API cudaError_t cudaStreamQuery(cudaStream_t stream) { return rt_stream_query(stream); }
RT_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) {
    return rt_stream_query(rt_per_thread(stream));
}

/* ---- properties ---- */

/* Look the handle up and read what *out wants of it. */
typedef enum { RT_PROP_PRIORITY, RT_PROP_FLAGS, RT_PROP_ID, RT_PROP_DEVICE } rt_stream_prop;

static cudaError_t rt_stream_prop_get(cudaStream_t h, rt_stream_prop what, void *out) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!out) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, h);
    if (s) {
        bool user = s->kind == RT_STREAM_USER;
        switch (what) {
        case RT_PROP_PRIORITY: *(int *)out = s->priority; break;
        case RT_PROP_FLAGS: *(unsigned *)out = s->flags; break;
        case RT_PROP_ID: *(unsigned long long *)out = user ? s->id : 0; break;
        case RT_PROP_DEVICE: *(int *)out = s->device; break;
        }
    }
    pthread_mutex_unlock(&c->engine_lock);
    return s ? cudaSuccess : rt_record(cudaErrorInvalidResourceHandle);
}

RT_API cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority) {
    return rt_stream_prop_get(hStream, RT_PROP_PRIORITY, priority);
}
RT_API cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority) {
    return rt_stream_prop_get(rt_per_thread(hStream), RT_PROP_PRIORITY, priority);
}
RT_API cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags) {
    return rt_stream_prop_get(hStream, RT_PROP_FLAGS, flags);
}
RT_API cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags) {
    return rt_stream_prop_get(rt_per_thread(hStream), RT_PROP_FLAGS, flags);
}
RT_API cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId) {
    return rt_stream_prop_get(hStream, RT_PROP_ID, streamId);
}
RT_API cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId) {
    return rt_stream_prop_get(rt_per_thread(hStream), RT_PROP_ID, streamId);
}
RT_API cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device) {
    return rt_stream_prop_get(hStream, RT_PROP_DEVICE, device);
}
RT_API cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device) {
    return rt_stream_prop_get(rt_per_thread(hStream), RT_PROP_DEVICE, device);
}

/* ---- host functions and callbacks ---- */

static cudaError_t rt_host_fn(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!fn) return rt_record(cudaErrorInvalidValue);
    rt_op *op = rt_op_new(RT_OP_HOST_FN);
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    op->u.host_fn.fn = fn;
    op->u.host_fn.data = userData;
    return rt_record(rt_issue(c, stream, op, RT_ASYNC));
}

RT_API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
    return rt_host_fn(stream, fn, userData);
}

RT_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
    return rt_host_fn(rt_per_thread(stream), fn, userData);
}

/* The callback hears the device's error (cudaSuccess, or the fault that stopped the work
 * before it); it runs even after a fault, unlike a host function. */
static cudaError_t rt_add_callback(cudaStream_t stream, cudaStream_t as_given,
                                   cudaStreamCallback_t callback, void *userData,
                                   unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!callback || flags != 0) return rt_record(cudaErrorInvalidValue);
    rt_op *op = rt_op_new(RT_OP_CALLBACK);
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    op->u.callback.fn = callback;
    op->u.callback.data = userData;
    op->u.callback.handle = as_given; /* what the callback is told */
    return rt_record(rt_issue(c, stream, op, RT_ASYNC));
}

RT_API cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                         void *userData, unsigned int flags) {
    return rt_add_callback(stream, stream, callback, userData, flags);
}

RT_API cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
                                              void *userData, unsigned int flags) {
    return rt_add_callback(rt_per_thread(stream), stream, callback, userData, flags);
}

/* ---- managed memory ---- */

/* Managed memory is visible everywhere at once here: attaching only checks arguments. */
static cudaError_t rt_attach(cudaStream_t stream, void *devPtr, size_t length, unsigned flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
        return rt_record(cudaErrorInvalidValue);
    mem_alloc a;
    if (!mem_table_find(c->mem, (uint64_t)(uintptr_t)devPtr, &a) ||
        a.kind != MEM_KIND_MANAGED || length > a.base + a.size - (uint64_t)(uintptr_t)devPtr)
        return rt_record(cudaErrorInvalidValue);
    return rt_stream_valid(c, stream) ? cudaSuccess : rt_record(cudaErrorInvalidResourceHandle);
}

RT_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                            unsigned int flags) {
    return rt_attach(stream, devPtr, length, flags);
}

RT_API cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
                                                 unsigned int flags) {
    return rt_attach(rt_per_thread(stream), devPtr, length, flags);
}
