/* runtime/stream_attr.c — stream attributes (cudaStreamSetAttribute, GetAttribute,
 * CopyAttributes) and the persisting-L2 reset.
 *
 * The attributes CUDA defines for streams — the L2 access policy window, the
 * synchronisation policy, the memory synchronisation domain and its map, the priority —
 * are checked as CUDA checks them, kept, and given back by the getter; a stream's
 * priority is the one its grids are scheduled with. The others leave results unchanged:
 * vcuda's memory has no L2 to set aside (the timing model may use the window later).
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

enum { RT_STREAM_ATTR_MAX = 32 };

static bool rt_stream_attr_ok(cudaLaunchAttributeID id) {
    switch (id) {
    case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributeSynchronizationPolicy:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
        return true;
    default:
        return false;
    }
}

/* A value CUDA would refuse (cudaErrorInvalidValue). */
static bool rt_stream_value_ok(rt_context *c, cudaLaunchAttributeID id,
                               const cudaLaunchAttributeValue *v) {
    if (id == cudaLaunchAttributeAccessPolicyWindow) {
        const struct cudaAccessPolicyWindow *w = &v->accessPolicyWindow;
        if (!(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f)) return false;
        if (w->num_bytes > (size_t)rt_cur(c)->preset->access_policy_max_window_size) return false;
        if (w->hitProp > cudaAccessPropertyPersisting || w->missProp > cudaAccessPropertyPersisting)
            return false;
    }
    if (id == cudaLaunchAttributeSynchronizationPolicy)
        return v->syncPolicy >= cudaSyncPolicyAuto && v->syncPolicy <= cudaSyncPolicyBlockingSync;
    if (id == cudaLaunchAttributeMemSyncDomain)
        return v->memSyncDomain == cudaLaunchMemSyncDomainDefault ||
               v->memSyncDomain == cudaLaunchMemSyncDomainRemote;
    return true;
}

/* The stream a handle names with its attributes' storage (engine_lock held). */
static cudaError_t rt_stream_attrs(rt_context *c, cudaStream_t h, rt_stream **out) {
    rt_stream *s = rt_stream_lookup(c, h);
    if (!s) return cudaErrorInvalidResourceHandle;
    if (!s->attrs) {
        s->attrs = calloc(RT_STREAM_ATTR_MAX, sizeof *s->attrs);
        if (!s->attrs) return cudaErrorMemoryAllocation;
        s->attrs[cudaLaunchAttributeSynchronizationPolicy].syncPolicy = cudaSyncPolicyAuto;
    }
    *out = s;
    return cudaSuccess;
}

static cudaError_t rt_stream_set_attr(cudaStream_t h, cudaLaunchAttributeID id,
                                      const cudaLaunchAttributeValue *v) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!v || !rt_stream_attr_ok(id) || !rt_stream_value_ok(c, id, v))
        return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = NULL;
    e = rt_stream_attrs(c, h, &s);
    if (!e) {
        s->attrs[id] = *v;
        if (id == cudaLaunchAttributePriority) {
            /* clamped to the device's range, as cudaStreamCreateWithPriority does */
            int p = v->priority;
            if (p > 0) p = 0;
            if (p < -5) p = -5; /* cudaDeviceGetStreamPriorityRange's greatest */
            s->priority = p;
        }
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

static cudaError_t rt_stream_get_attr(cudaStream_t h, cudaLaunchAttributeID id,
                                      cudaLaunchAttributeValue *v) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!v || !rt_stream_attr_ok(id)) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = NULL;
    e = rt_stream_attrs(c, h, &s);
    if (!e) {
        *v = s->attrs[id];
        if (id == cudaLaunchAttributePriority) v->priority = s->priority;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                          const cudaLaunchAttributeValue *value) {
    return rt_stream_set_attr(hStream, attr, value);
}

RT_API cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                               const cudaLaunchAttributeValue *value) {
    return rt_stream_set_attr(rt_per_thread(hStream), attr, value);
}

RT_API cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                          cudaLaunchAttributeValue *value_out) {
    return rt_stream_get_attr(hStream, attr, value_out);
}

RT_API cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                               cudaLaunchAttributeValue *value_out) {
    return rt_stream_get_attr(rt_per_thread(hStream), attr, value_out);
}

static cudaError_t rt_stream_copy_attrs(cudaStream_t dst, cudaStream_t src) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *d = NULL, *s = NULL;
    e = rt_stream_attrs(c, dst, &d);
    if (!e) e = rt_stream_attrs(c, src, &s);
    if (!e && d != s) {
        memcpy(d->attrs, s->attrs, RT_STREAM_ATTR_MAX * sizeof *d->attrs);
        d->priority = s->priority;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
    return rt_stream_copy_attrs(dst, src);
}

RT_API cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src) {
    return rt_stream_copy_attrs(rt_per_thread(dst), rt_per_thread(src));
}

/* Persisting lines go back to normal: there are none to reset. */
RT_API cudaError_t cudaCtxResetPersistingL2Cache(void) { return rt_enter(rt_ctx()); }
