/* runtime/stream_event.c — streams, events, host functions and stream callbacks.
 *
 * A stream is a handle with flags and a priority; its work goes into the one queue
 * (queue.c). An event record is queued work too: when it runs, the event completes and
 * takes the host time, so cudaEventElapsedTime measures the work between two records.
 * Checks and codes follow an H100 under CUDA 13
 * (tests/cuda/probes/expected/events_streams.out): an event that was never recorded or was
 * created with cudaEventDisableTiming gives cudaErrorInvalidResourceHandle in
 * cudaEventElapsedTime; cudaEventQuery and cudaEventSynchronize accept it.
 */
#include "rt.h"

#include <stdlib.h>

#define RT_PRIORITY_LEAST 0
#define RT_PRIORITY_GREATEST (-5)

/* ---- streams ---- */

static cudaError_t rt_stream_create(cudaStream_t *pStream, unsigned flags, int priority) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pStream || (flags & ~(unsigned)cudaStreamNonBlocking)) return rt_record(cudaErrorInvalidValue);
    rt_stream *s = calloc(1, sizeof *s);
    if (!s) return rt_record(cudaErrorMemoryAllocation);
    s->flags = flags;
    /* Priorities outside the range are clamped, as CUDA does. */
    s->priority = priority > RT_PRIORITY_LEAST      ? RT_PRIORITY_LEAST
                  : priority < RT_PRIORITY_GREATEST ? RT_PRIORITY_GREATEST
                                                    : priority;
    pthread_mutex_lock(&c->lock);
    s->id = c->next_stream_id++;
    bool ok = rt_ptrmap_put(&c->streams, s, s);
    pthread_mutex_unlock(&c->lock);
    if (!ok) {
        free(s);
        return rt_record(cudaErrorMemoryAllocation);
    }
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

/* The stream record behind a handle; NULL for the default streams. Returns false for an
 * unknown handle. Called with c->lock held. */
static bool rt_stream_get(rt_context *c, cudaStream_t h, rt_stream **out) {
    *out = NULL;
    if (h == 0 || h == cudaStreamLegacy || h == cudaStreamPerThread) return true;
    *out = rt_ptrmap_get(&c->streams, h);
    return *out != NULL;
}

RT_API cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    /* Work already queued on the stream still runs (CUDA lets it finish). */
    pthread_mutex_lock(&c->lock);
    rt_stream *s = stream ? rt_ptrmap_remove(&c->streams, stream) : NULL;
    pthread_mutex_unlock(&c->lock);
    if (!s) return rt_record(cudaErrorInvalidResourceHandle);
    free(s);
    return cudaSuccess;
}

static cudaError_t rt_stream_wait(cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    bool ok = rt_stream_valid(c, stream);
    pthread_mutex_unlock(&c->lock);
    if (!ok) return rt_record(cudaErrorInvalidResourceHandle);
    return rt_record(rt_queue_drain(c));
}

RT_API cudaError_t cudaStreamSynchronize(cudaStream_t stream) { return rt_stream_wait(stream); }
RT_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) { return rt_stream_wait(stream); }
/* Finished work is all a query can see once the queue has run. */
RT_API cudaError_t cudaStreamQuery(cudaStream_t stream) { return rt_stream_wait(stream); }
RT_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) { return rt_stream_wait(stream); }

RT_API cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!priority) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_stream *s;
    bool ok = rt_stream_get(c, hStream, &s);
    if (ok) *priority = s ? s->priority : 0;
    pthread_mutex_unlock(&c->lock);
    return ok ? cudaSuccess : rt_record(cudaErrorInvalidResourceHandle);
}

RT_API cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority) {
    return cudaStreamGetPriority(hStream, priority);
}

RT_API cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!flags) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_stream *s;
    bool ok = rt_stream_get(c, hStream, &s);
    if (ok) *flags = s ? s->flags : cudaStreamDefault;
    pthread_mutex_unlock(&c->lock);
    return ok ? cudaSuccess : rt_record(cudaErrorInvalidResourceHandle);
}

RT_API cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags) {
    return cudaStreamGetFlags(hStream, flags);
}

RT_API cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!streamId) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_stream *s;
    bool ok = rt_stream_get(c, hStream, &s);
    if (ok) *streamId = s ? s->id : 0;
    pthread_mutex_unlock(&c->lock);
    return ok ? cudaSuccess : rt_record(cudaErrorInvalidResourceHandle);
}

RT_API cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId) {
    return cudaStreamGetId(hStream, streamId);
}

/* Queue op on stream after checking the handle. */
static cudaError_t rt_stream_push(rt_context *c, cudaStream_t stream, rt_op *op) {
    pthread_mutex_lock(&c->lock);
    bool ok = rt_stream_valid(c, stream);
    pthread_mutex_unlock(&c->lock);
    if (!ok) {
        free(op);
        return rt_record(cudaErrorInvalidResourceHandle);
    }
    op->stream = stream;
    rt_queue_push(c, op);
    return cudaSuccess;
}

RT_API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!fn) return rt_record(cudaErrorInvalidValue);
    rt_op *op = calloc(1, sizeof *op);
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    op->kind = RT_OP_HOST_FN;
    op->u.host_fn.fn = fn;
    op->u.host_fn.data = userData;
    return rt_stream_push(c, stream, op);
}

RT_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
    return cudaLaunchHostFunc(stream, fn, userData);
}

RT_API cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                         void *userData, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!callback || flags != 0) return rt_record(cudaErrorInvalidValue);
    rt_op *op = calloc(1, sizeof *op);
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    op->kind = RT_OP_CALLBACK;
    op->u.callback.fn = callback;
    op->u.callback.data = userData;
    return rt_stream_push(c, stream, op);
}

RT_API cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
                                              void *userData, unsigned int flags) {
    return cudaStreamAddCallback(stream, callback, userData, flags);
}

/* ---- events ---- */

RT_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    if (!event || (flags & ~known) ||
        ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)))
        return rt_record(cudaErrorInvalidValue);
    rt_event *ev = calloc(1, sizeof *ev);
    if (!ev) return rt_record(cudaErrorMemoryAllocation);
    ev->flags = flags;
    pthread_mutex_lock(&c->lock);
    bool ok = rt_ptrmap_put(&c->events, ev, ev);
    pthread_mutex_unlock(&c->lock);
    if (!ok) {
        free(ev);
        return rt_record(cudaErrorMemoryAllocation);
    }
    *event = (cudaEvent_t)ev;
    return cudaSuccess;
}

RT_API cudaError_t cudaEventCreate(cudaEvent_t *event) {
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

static rt_event *rt_event_get(rt_context *c, cudaEvent_t h) {
    return h ? rt_ptrmap_get(&c->events, h) : NULL;
}

static cudaError_t rt_event_record(cudaEvent_t event, cudaStream_t stream, unsigned flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (flags & ~(unsigned)cudaEventRecordExternal) return rt_record(cudaErrorInvalidValue);
    rt_op *op = calloc(1, sizeof *op);
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    pthread_mutex_lock(&c->lock);
    rt_event *ev = rt_event_get(c, event);
    bool ok = ev && rt_stream_valid(c, stream);
    if (ok) {
        ev->recorded = true;
        ev->completed = false;
        ev->pending++;
    }
    pthread_mutex_unlock(&c->lock);
    if (!ok) {
        free(op);
        return rt_record(cudaErrorInvalidResourceHandle);
    }
    op->kind = RT_OP_EVENT;
    op->stream = stream;
    op->u.event.event = ev;
    rt_queue_push(c, op);
    return cudaSuccess;
}

RT_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    return rt_event_record(event, stream, 0);
}

RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) {
    return rt_event_record(event, stream, 0);
}

RT_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                            unsigned int flags) {
    return rt_event_record(event, stream, flags);
}

RT_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                 unsigned int flags) {
    return rt_event_record(event, stream, flags);
}

/* Query and synchronise run the queue: all work issued before them then has finished. */
static cudaError_t rt_event_wait(cudaEvent_t event) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    bool ok = rt_event_get(c, event) != NULL;
    pthread_mutex_unlock(&c->lock);
    if (!ok) return rt_record(cudaErrorInvalidResourceHandle);
    return rt_record(rt_queue_drain(c));
}

RT_API cudaError_t cudaEventSynchronize(cudaEvent_t event) { return rt_event_wait(event); }
RT_API cudaError_t cudaEventQuery(cudaEvent_t event) { return rt_event_wait(event); }

RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!ms) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_event *a = rt_event_get(c, start), *b = rt_event_get(c, end);
    if (!a || !b || !a->recorded || !b->recorded || (a->flags & cudaEventDisableTiming) ||
        (b->flags & cudaEventDisableTiming))
        e = cudaErrorInvalidResourceHandle;
    else if (!a->completed || !b->completed)
        e = cudaErrorNotReady; /* recorded, but the program has not waited for it */
    else
        *ms = (float)(b->time_ms - a->time_ms);
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

RT_API cudaError_t cudaEventDestroy(cudaEvent_t event) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    rt_event *ev = rt_event_get(c, event);
    bool pending = ev && ev->pending;
    pthread_mutex_unlock(&c->lock);
    if (!ev) return rt_record(cudaErrorInvalidResourceHandle);
    /* A queued record still refers to the event: let it run first. */
    if (pending) rt_queue_drain(c);
    pthread_mutex_lock(&c->lock);
    rt_ptrmap_remove(&c->events, ev);
    pthread_mutex_unlock(&c->lock);
    free(ev);
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (flags & ~(unsigned)cudaEventWaitExternal) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    bool ok = rt_event_get(c, event) && rt_stream_valid(c, stream);
    pthread_mutex_unlock(&c->lock);
    /* The single queue already runs the event's work before anything issued later. */
    return ok ? cudaSuccess : rt_record(cudaErrorInvalidResourceHandle);
}

RT_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                            unsigned int flags) {
    return cudaStreamWaitEvent(stream, event, flags);
}

/* ---- the rest of what single-device stream code calls ---- */

RT_API cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!device) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    bool ok = rt_stream_valid(c, hStream);
    pthread_mutex_unlock(&c->lock);
    if (!ok) return rt_record(cudaErrorInvalidResourceHandle);
    *device = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device) {
    return cudaStreamGetDevice(hStream, device);
}

/* Stream capture (CUDA graphs) is not emulated: no stream is ever capturing. */
RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                         enum cudaStreamCaptureStatus *pCaptureStatus) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pCaptureStatus) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    bool ok = rt_stream_valid(c, stream);
    pthread_mutex_unlock(&c->lock);
    if (!ok) return rt_record(cudaErrorInvalidResourceHandle);
    *pCaptureStatus = cudaStreamCaptureStatusNone;
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                              enum cudaStreamCaptureStatus *pCaptureStatus) {
    return cudaStreamIsCapturing(stream, pCaptureStatus);
}

/* Managed memory is visible everywhere at once here: attaching only checks arguments. */
RT_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                            unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
        return rt_record(cudaErrorInvalidValue);
    mem_alloc a;
    if (!mem_table_find(gpu_device_mem(c->dev), (uint64_t)(uintptr_t)devPtr, &a) ||
        a.kind != MEM_KIND_MANAGED || length > a.base + a.size - (uint64_t)(uintptr_t)devPtr)
        return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    bool ok = rt_stream_valid(c, stream);
    pthread_mutex_unlock(&c->lock);
    return ok ? cudaSuccess : rt_record(cudaErrorInvalidResourceHandle);
}

RT_API cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
                                                 unsigned int flags) {
    return cudaStreamAttachMemAsync(stream, devPtr, length, flags);
}
