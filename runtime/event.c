/* runtime/event.c — events: creation with flags, records, queries, synchronisation,
 * elapsed time, and a stream waiting for an event.
 *
 * A record is an operation of its stream (engine.c) that completes as soon as the stream
 * reaches it; the event then holds that record's completion (an rt_mark) and its time on
 * the virtual timeline (timeline.c), so cudaEventElapsedTime gives the same answer on
 * every run. Re-recording an event replaces what it holds: queries, waits and elapsed
 * times look at the latest record, as CUDA's do. cudaStreamWaitEvent makes the stream's
 * later work wait for the record the event holds at the time of the call.
 *
 * Codes follow an H100 under CUDA 13 (tests/cuda/probes/expected/events_streams.out): an
 * event never recorded, or created with cudaEventDisableTiming, gives
 * cudaErrorInvalidResourceHandle in cudaEventElapsedTime; cudaEventQuery and
 * cudaEventSynchronize accept an event never recorded; an event recorded but not yet
 * reached gives cudaErrorNotReady.
 */
#include "rt.h"

#include <stdlib.h>

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
    ev->device = rt_cur(c)->ordinal;
    ev->refs = 1; /* the handle */
    if ((flags & cudaEventInterprocess) && !rt_ipc_event_init(ev)) {
        free(ev);
        return rt_record(cudaErrorMemoryAllocation);
    }
    pthread_mutex_lock(&c->engine_lock);
    bool ok = rt_ptrmap_put(&c->events, ev, ev);
    pthread_mutex_unlock(&c->engine_lock);
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

/* The event behind a handle (engine_lock held), or NULL. */
static rt_event *rt_event_get(rt_context *c, cudaEvent_t h) {
    return h ? rt_ptrmap_get(&c->events, h) : NULL;
}

static cudaError_t rt_event_record(cudaEvent_t event, cudaStream_t stream, unsigned flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (flags & ~(unsigned)cudaEventRecordExternal) return rt_record(cudaErrorInvalidValue);
    rt_op *op = rt_op_new(RT_OP_EVENT);
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    pthread_mutex_lock(&c->engine_lock);
    rt_event *ev = rt_event_get(c, event);
    rt_stream *s = ev ? rt_stream_lookup(c, stream) : NULL;
    /* an event is recorded only by its own device's streams (waits may cross devices) */
    if (!s || s->device != ev->device) {
        e = cudaErrorInvalidResourceHandle;
    } else if ((e = rt_capture_check(c, s, false)) == cudaSuccess) {
        if (s->capture) {
            e = rt_capture_event_record(c, s, ev);
        } else {
            /* the record holds the event until it has run (it may be destroyed first) */
            ev->refs++;
            op->u.event.event = ev;
            if (ev->ipc) op->u.event.ipc_seq = rt_ipc_event_recorded(ev);
            rt_mark *m = rt_issue_locked(c, s, op, true);
            op = NULL;
            rt_mark_unref(c, ev->mark);
            ev->mark = m;
            rt_event_forget_capture(ev);
        }
    }
    pthread_mutex_unlock(&c->engine_lock);
    rt_op_free(op);
    return e ? rt_record(e) : cudaSuccess;
}

RT_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    return rt_event_record(event, stream, 0);
}

RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) {
    return rt_event_record(event, rt_per_thread(stream), 0);
}

RT_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                            unsigned int flags) {
    return rt_event_record(event, stream, flags);
}

RT_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                 unsigned int flags) {
    return rt_event_record(event, rt_per_thread(stream), flags);
}

/* Synchronise (wait) or query (give the work the grace, then answer). */
static cudaError_t rt_event_wait(cudaEvent_t event, bool query) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!query && rt_in_host_fn()) return rt_record(cudaErrorNotPermitted);
    pthread_mutex_lock(&c->engine_lock);
    rt_event *ev = rt_event_get(c, event);
    if (ev && ev->ipc_opened) { /* another process records it: look at its shared state */
        pthread_mutex_unlock(&c->engine_lock);
        bool done = rt_ipc_event_wait(ev, query);
        return done ? cudaSuccess : cudaErrorNotReady;
    }
    rt_mark *m = ev && ev->mark ? ev->mark : NULL;
    bool done = true;
    if (m) {
        m->refs++;
        if (query)
            done = rt_in_host_fn() ? m->done
                                   : rt_wait_mark_timed_locked(c, m, rt_host_grace_ms());
        if (done) e = rt_wait_mark_locked(c, m, true);
        rt_mark_unref(c, m);
    }
    pthread_mutex_unlock(&c->engine_lock);
    if (!ev) return rt_record(cudaErrorInvalidResourceHandle);
    if (!done) return cudaErrorNotReady; /* a status, not an error the thread keeps */
    return rt_record(rt_wait_finish(c, e));
}

RT_API cudaError_t cudaEventSynchronize(cudaEvent_t event) { return rt_event_wait(event, false); }
RT_API cudaError_t cudaEventQuery(cudaEvent_t event) { return rt_event_wait(event, true); }

RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!ms) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_event *a = rt_event_get(c, start), *b = rt_event_get(c, end);
    if (!a || !b || !a->mark || !b->mark || (a->flags & cudaEventDisableTiming) ||
        (b->flags & cudaEventDisableTiming) || a->device != b->device)
        e = cudaErrorInvalidResourceHandle;
    else if (!a->mark->done || !b->mark->done)
        e = cudaErrorNotReady; /* recorded, but the device has not reached it yet */
    else
        *ms = (float)(b->mark->vtime - a->mark->vtime);
    pthread_mutex_unlock(&c->engine_lock);
    /* cudaErrorNotReady is a status: the thread's last error keeps what it held (H100:
     * tests/cuda/streams/expected/events_timing.out) */
    return e && e != cudaErrorNotReady ? rt_record(e) : e;
}

/* Allowed while a record is pending: the event goes once the record has run. */
RT_API cudaError_t cudaEventDestroy(cudaEvent_t event) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_event *ev = event ? rt_ptrmap_remove(&c->events, event) : NULL;
    if (ev) {
        ev->destroyed = true;
        rt_event_unref(c, ev);
    }
    pthread_mutex_unlock(&c->engine_lock);
    return ev ? cudaSuccess : rt_record(cudaErrorInvalidResourceHandle);
}

static cudaError_t rt_stream_wait_event(cudaStream_t stream, cudaEvent_t event,
                                        unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (flags & ~(unsigned)cudaEventWaitExternal) return rt_record(cudaErrorInvalidValue);
    rt_op *op = rt_op_new(RT_OP_WAIT);
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    pthread_mutex_lock(&c->engine_lock);
    rt_event *ev = rt_event_get(c, event);
    rt_stream *s = ev ? rt_stream_lookup(c, stream) : NULL;
    if (!s) {
        e = cudaErrorInvalidResourceHandle;
    } else if (ev->ipc_opened) {
        /* recorded by another process: the host waits for that record now (what the
         * stream would wait for), so the stream's later work comes after it */
        pthread_mutex_unlock(&c->engine_lock);
        rt_ipc_event_wait(ev, false);
        rt_op_free(op);
        return cudaSuccess;
    } else if ((e = rt_capture_check(c, s, false)) == cudaSuccess) {
        if (ev->capture || s->capture) {
            e = rt_capture_wait_event(c, s, ev);
        } else if (ev->mark) {
            /* An event never recorded is already complete: nothing to wait for. */
            rt_op_add_dep(op, ev->mark);
            rt_issue_locked(c, s, op, false);
            op = NULL;
        }
    }
    pthread_mutex_unlock(&c->engine_lock);
    rt_op_free(op);
    return e ? rt_record(e) : cudaSuccess;
}

RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    return rt_stream_wait_event(stream, event, flags);
}

RT_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                            unsigned int flags) {
    return rt_stream_wait_event(rt_per_thread(stream), event, flags);
}
