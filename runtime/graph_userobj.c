/* runtime/graph_userobj.c — user objects (cudaUserObjectCreate, Retain, Release) and the
 * references graphs hold to them (cudaGraphRetainUserObject, cudaGraphReleaseUserObject).
 *
 * A user object is a reference count and a destructor: the destructor runs, on the thread
 * that drops the last reference, when the count reaches 0. A graph holds the references
 * given to it until it is destroyed; an executable graph holds its graph's references from
 * instantiation until it is destroyed, so resources a graph's work needs outlive every
 * launch that may use them.
 */
#include "rt.h"

#include <stdlib.h>

typedef struct rt_user_object {
    void *ptr;
    cudaHostFn_t destroy;
    unsigned refs;
} rt_user_object;

/* References held by graphs and executable graphs (owner: their handle). */
typedef struct rt_userobj_hold {
    const void *owner;
    rt_user_object *obj;
    unsigned count;
    struct rt_userobj_hold *next;
} rt_userobj_hold;

static pthread_mutex_t rt_uo_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_userobj_hold *rt_uo_holds;
static rt_ptrmap rt_uo_objects; /* live objects */

/* Drop count references (rt_uo_lock held); the destructor runs after the lock is let go. */
static cudaHostFn_t rt_uo_drop(rt_user_object *o, unsigned count, void **arg) {
    o->refs -= count < o->refs ? count : o->refs;
    if (o->refs) return NULL;
    rt_ptrmap_remove(&rt_uo_objects, o);
    cudaHostFn_t fn = o->destroy;
    *arg = o->ptr;
    free(o);
    return fn;
}

RT_API cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr,
                                        cudaHostFn_t destroy, unsigned int initialRefcount,
                                        unsigned int flags) {
    if (!object_out || !destroy || !initialRefcount || flags != cudaUserObjectNoDestructorSync)
        return rt_record(cudaErrorInvalidValue);
    rt_user_object *o = malloc(sizeof *o);
    if (!o) return rt_record(cudaErrorMemoryAllocation);
    o->ptr = ptr;
    o->destroy = destroy;
    o->refs = initialRefcount;
    pthread_mutex_lock(&rt_uo_lock);
    bool ok = rt_ptrmap_put(&rt_uo_objects, o, o);
    pthread_mutex_unlock(&rt_uo_lock);
    if (!ok) {
        free(o);
        return rt_record(cudaErrorMemoryAllocation);
    }
    *object_out = (cudaUserObject_t)o;
    return cudaSuccess;
}

RT_API cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count) {
    pthread_mutex_lock(&rt_uo_lock);
    rt_user_object *o = object ? rt_ptrmap_get(&rt_uo_objects, object) : NULL;
    if (o && count) o->refs += count;
    pthread_mutex_unlock(&rt_uo_lock);
    return o && count ? cudaSuccess : rt_record(cudaErrorInvalidValue);
}

RT_API cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count) {
    pthread_mutex_lock(&rt_uo_lock);
    rt_user_object *o = object ? rt_ptrmap_get(&rt_uo_objects, object) : NULL;
    void *arg = NULL;
    cudaHostFn_t fn = o && count ? rt_uo_drop(o, count, &arg) : NULL;
    pthread_mutex_unlock(&rt_uo_lock);
    if (fn) fn(arg);
    return o && count ? cudaSuccess : rt_record(cudaErrorInvalidValue);
}

static bool rt_graph_known(cudaGraph_t graph) {
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&c->engine_lock);
    bool ok = graph && rt_ptrmap_get(&c->graphs, graph);
    pthread_mutex_unlock(&c->engine_lock);
    return ok;
}

RT_API cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                             unsigned int count, unsigned int flags) {
    if (!count || (flags & ~(unsigned)cudaGraphUserObjectMove) || !rt_graph_known(graph))
        return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&rt_uo_lock);
    rt_user_object *o = object ? rt_ptrmap_get(&rt_uo_objects, object) : NULL;
    rt_userobj_hold *h = NULL;
    for (h = rt_uo_holds; o && h; h = h->next)
        if (h->owner == graph && h->obj == o) break;
    if (o && !h && (h = calloc(1, sizeof *h))) {
        h->owner = graph;
        h->obj = o;
        h->next = rt_uo_holds;
        rt_uo_holds = h;
    }
    if (h) {
        h->count += count;
        if (!(flags & cudaGraphUserObjectMove)) o->refs += count; /* else the caller's move */
    }
    pthread_mutex_unlock(&rt_uo_lock);
    if (!o) return rt_record(cudaErrorInvalidValue);
    return h ? cudaSuccess : rt_record(cudaErrorMemoryAllocation);
}

RT_API cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                              unsigned int count) {
    if (!count || !rt_graph_known(graph)) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&rt_uo_lock);
    rt_userobj_hold **ph = &rt_uo_holds;
    while (*ph && !((*ph)->owner == graph && (*ph)->obj == (rt_user_object *)object))
        ph = &(*ph)->next;
    rt_userobj_hold *h = *ph;
    cudaHostFn_t fn = NULL;
    void *arg = NULL;
    if (h && count <= h->count) {
        h->count -= count;
        rt_user_object *o = h->obj;
        if (!h->count) {
            *ph = h->next;
            free(h);
        }
        fn = rt_uo_drop(o, count, &arg);
    } else {
        h = NULL;
    }
    pthread_mutex_unlock(&rt_uo_lock);
    if (fn) fn(arg);
    return h ? cudaSuccess : rt_record(cudaErrorInvalidValue);
}

void rt_userobj_copy(const void *from, const void *to) {
    pthread_mutex_lock(&rt_uo_lock);
    for (rt_userobj_hold *h = rt_uo_holds; h; h = h->next) {
        if (h->owner != from) continue;
        rt_userobj_hold *n = calloc(1, sizeof *n);
        if (!n) break; /* out of memory: the copy holds fewer references */
        n->owner = to;
        n->obj = h->obj;
        n->count = h->count;
        h->obj->refs += h->count;
        n->next = rt_uo_holds;
        rt_uo_holds = n;
    }
    pthread_mutex_unlock(&rt_uo_lock);
}

void rt_userobj_release_all(const void *owner) {
    for (;;) {
        pthread_mutex_lock(&rt_uo_lock);
        rt_userobj_hold **ph = &rt_uo_holds;
        while (*ph && (*ph)->owner != owner) ph = &(*ph)->next;
        rt_userobj_hold *h = *ph;
        cudaHostFn_t fn = NULL;
        void *arg = NULL;
        if (h) {
            *ph = h->next;
            fn = rt_uo_drop(h->obj, h->count, &arg);
            free(h);
        }
        pthread_mutex_unlock(&rt_uo_lock);
        if (!h) return;
        if (fn) fn(arg);
    }
}
