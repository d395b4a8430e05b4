/* runtime/capture.c — stream capture: between cudaStreamBeginCapture and
 * cudaStreamEndCapture, work issued to a capturing stream is not run but recorded as the
 * nodes of a graph (graph.c), each following what the stream issued before it.
 *
 * Other streams join a capture the way CUDA lets them: by waiting for an event recorded
 * in a capturing stream (fork); the origin stream takes their work back the same way
 * (join). cudaStreamEndCapture on the origin ends the capture for every stream in it,
 * and fails with cudaErrorStreamCaptureUnjoined if a stream's last work was never joined
 * back, as CUDA does.
 *
 * Capture modes decide which calls a capture forbids ("potentially unsafe" calls that
 * would wait for, or implicitly order against, work that is not running): with
 * cudaStreamCaptureModeGlobal a capture forbids them to every thread whose own mode is
 * global, with ThreadLocal to its own thread only, with Relaxed to none. A forbidden call
 * fails with cudaErrorStreamCaptureUnsupported and invalidates the capture; using the
 * legacy stream while a blocking stream captures fails with cudaErrorStreamCaptureImplicit;
 * synchronising with or querying a capturing stream is cudaErrorStreamCaptureUnsupported.
 * After an invalidation the capture goes on recording nothing, and cudaStreamEndCapture
 * returns cudaErrorStreamCaptureInvalidated.
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the nodes a stream's next node follows ---- */

static bool deps_set(rt_graph_node ***arr, size_t *n, size_t *cap, rt_graph_node *const *nodes,
                     size_t count) {
    if (count > *cap) {
        rt_graph_node **a = realloc(*arr, count * sizeof *a);
        if (!a) return false;
        *arr = a;
        *cap = count;
    }
    if (count) memcpy(*arr, nodes, count * sizeof *nodes);
    *n = count;
    return true;
}

static bool deps_union(rt_stream *s, rt_graph_node *const *nodes, size_t count) {
    for (size_t i = 0; i < count; i++) {
        bool have = false;
        for (size_t j = 0; j < s->ncap_deps && !have; j++) have = s->cap_deps[j] == nodes[i];
        if (have) continue;
        if (s->ncap_deps == s->cap_deps_cap) {
            size_t cap = s->cap_deps_cap ? s->cap_deps_cap * 2 : 4;
            rt_graph_node **a = realloc(s->cap_deps, cap * sizeof *a);
            if (!a) return false;
            s->cap_deps = a;
            s->cap_deps_cap = cap;
        }
        s->cap_deps[s->ncap_deps++] = nodes[i];
    }
    return true;
}

static void stream_leave(rt_stream *s) {
    s->capture = NULL;
    free(s->cap_deps);
    s->cap_deps = NULL;
    s->ncap_deps = s->cap_deps_cap = 0;
}

void rt_event_forget_capture(rt_event *ev) {
    ev->capture = NULL;
    free(ev->cap_nodes);
    ev->cap_nodes = NULL;
    ev->ncap_nodes = 0;
}

/* ---- what a capture forbids ---- */

/* Does capture k forbid unsafe calls to the calling thread? */
static bool forbids_here(const rt_capture *k) {
    enum cudaStreamCaptureMode mine = rt_thread_state()->capture_mode;
    bool own = pthread_equal(k->thread, pthread_self());
    if (mine == cudaStreamCaptureModeRelaxed || k->mode == cudaStreamCaptureModeRelaxed)
        return false;
    if (own) return true;
    return mine == cudaStreamCaptureModeGlobal && k->mode == cudaStreamCaptureModeGlobal;
}

static cudaError_t capture_forbids_locked(rt_context *c) {
    cudaError_t e = cudaSuccess;
    for (rt_capture *k = c->captures; k; k = k->next) {
        if (!forbids_here(k)) continue;
        k->invalid = true;
        e = cudaErrorStreamCaptureUnsupported;
    }
    return e;
}

cudaError_t rt_capture_forbids(rt_context *c) {
    pthread_mutex_lock(&c->engine_lock);
    cudaError_t e = capture_forbids_locked(c);
    pthread_mutex_unlock(&c->engine_lock);
    return e;
}

cudaError_t rt_capture_check(rt_context *c, rt_stream *s, bool waits) {
    if (s->capture) {
        if (!waits) return cudaSuccess;
        s->capture->invalid = true;
        return cudaErrorStreamCaptureUnsupported;
    }
    if (!c->captures) return cudaSuccess;
    if (s->kind == RT_STREAM_LEGACY) {
        /* The legacy stream would order itself after the captured (not running) work. */
        cudaError_t e = cudaSuccess;
        for (rt_stream *b = c->all_streams; b; b = b->all_next) {
            bool blocking = (b->kind == RT_STREAM_USER && !(b->flags & cudaStreamNonBlocking)) ||
                            b->kind == RT_STREAM_PER_THREAD;
            if (b->capture && blocking) {
                b->capture->invalid = true;
                e = cudaErrorStreamCaptureImplicit;
            }
        }
        if (e) return e;
    }
    return cudaSuccess;
}

/* ---- recording ---- */

cudaError_t rt_capture_op(rt_context *c, rt_stream *s, rt_op *op) {
    (void)c;
    rt_capture *k = s->capture;
    if (k->invalid) {
        rt_op_free(op);
        return cudaErrorStreamCaptureInvalidated;
    }
    enum cudaGraphNodeType type;
    switch (op->kind) {
    case RT_OP_KERNEL: type = cudaGraphNodeTypeKernel; break;
    case RT_OP_COPY:
    case RT_OP_COPY2D: type = cudaGraphNodeTypeMemcpy; break;
    case RT_OP_SET:
    case RT_OP_SET2D: type = cudaGraphNodeTypeMemset; break;
    case RT_OP_HOST_FN: type = cudaGraphNodeTypeHost; break;
    default:
        /* stream callbacks cannot be captured (CUDA asks for cudaLaunchHostFunc) */
        rt_op_free(op);
        k->invalid = true;
        return cudaErrorStreamCaptureUnsupported;
    }
    if (op->kind == RT_OP_COPY && op->u.copy.staging) {
        /* A copy from pageable memory becomes a memcpy node like any other: the graph
         * reads the caller's buffer when it runs, not what it held at the capture. */
        free(op->u.copy.staging);
        op->u.copy.staging = NULL;
        op->u.copy.src = op->u.copy.user_src;
    }
    rt_graph_node *n = rt_graph_add(k->graph, type, op, s->cap_deps, s->ncap_deps);
    if (!n) return cudaErrorMemoryAllocation;
    if (!deps_set(&s->cap_deps, &s->ncap_deps, &s->cap_deps_cap, &n, 1))
        return cudaErrorMemoryAllocation;
    return cudaSuccess;
}

/* A memory alloc or free node for cudaMallocAsync or cudaFreeAsync in capturing stream s
 * (mempool.c fills in its parameters), after the stream's last work. Engine lock held. */
cudaError_t rt_capture_mem_node(rt_stream *s, enum cudaGraphNodeType type, rt_graph_node **out) {
    rt_capture *k = s->capture;
    if (k->invalid) return cudaErrorStreamCaptureInvalidated;
    rt_op *op = rt_op_new(RT_OP_WAIT); /* as cudaGraphAddMemAllocNode's: nothing to run */
    if (!op) return cudaErrorMemoryAllocation;
    rt_graph_node *n = rt_graph_add(k->graph, type, op, s->cap_deps, s->ncap_deps);
    if (!n) return cudaErrorMemoryAllocation;
    if (!deps_set(&s->cap_deps, &s->ncap_deps, &s->cap_deps_cap, &n, 1))
        return cudaErrorMemoryAllocation;
    *out = n;
    return cudaSuccess;
}

cudaError_t rt_capture_event_record(rt_context *c, rt_stream *s, rt_event *ev) {
    (void)c;
    if (s->capture->invalid) return cudaErrorStreamCaptureInvalidated;
    size_t cap = 0;
    rt_graph_node **nodes = NULL;
    size_t n = 0;
    if (!deps_set(&nodes, &n, &cap, s->cap_deps, s->ncap_deps)) return cudaErrorMemoryAllocation;
    free(ev->cap_nodes);
    ev->cap_nodes = nodes;
    ev->ncap_nodes = n;
    ev->capture = s->capture;
    return cudaSuccess;
}

cudaError_t rt_capture_wait_event(rt_context *c, rt_stream *s, rt_event *ev) {
    (void)c;
    rt_capture *k = ev->capture;
    if (!k) {
        /* s captures and the event was recorded outside: a dependency across the
         * capture's boundary */
        s->capture->invalid = true;
        return cudaErrorStreamCaptureIsolation;
    }
    if (s->capture && s->capture != k) {
        s->capture->invalid = true;
        k->invalid = true;
        return cudaErrorStreamCaptureIsolation;
    }
    if (k->invalid) return cudaErrorStreamCaptureInvalidated;
    if (!s->capture) {
        /* fork: s joins the capture, its next node following the event's */
        if (s->head || s->running) {
            /* work of s still pending outside the graph cannot be ordered against it */
            k->invalid = true;
            return cudaErrorStreamCaptureIsolation;
        }
        s->capture = k;
        if (!deps_set(&s->cap_deps, &s->ncap_deps, &s->cap_deps_cap, ev->cap_nodes, ev->ncap_nodes))
            return cudaErrorMemoryAllocation;
        return cudaSuccess;
    }
    return deps_union(s, ev->cap_nodes, ev->ncap_nodes) ? cudaSuccess : cudaErrorMemoryAllocation;
}

/* ---- beginning and ending ---- */

/* Begin a capture into a new graph, or into an existing one (into) after deps. */
static cudaError_t rt_begin_capture(cudaStream_t stream, enum cudaStreamCaptureMode mode,
                                    cudaGraph_t into, const cudaGraphNode_t *deps,
                                    size_t ndeps) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if ((unsigned)mode > cudaStreamCaptureModeRelaxed || (ndeps && !deps))
        return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, stream);
    rt_graph *existing = into ? rt_ptrmap_get(&c->graphs, into) : NULL;
    for (size_t i = 0; existing && i < ndeps; i++)
        if (!deps[i] || ((const rt_graph_node *)deps[i])->graph != existing) existing = NULL;
    if (!s) {
        e = cudaErrorInvalidResourceHandle;
    } else if (into && !existing) {
        e = cudaErrorInvalidValue;
    } else if (s->kind == RT_STREAM_LEGACY) {
        e = cudaErrorStreamCaptureUnsupported; /* the legacy stream cannot capture */
    } else if (s->capture) {
        e = cudaErrorIllegalState;
    } else {
        rt_capture *k = calloc(1, sizeof *k);
        rt_graph *g = existing ? existing : rt_graph_new();
        if (!k || !g || (!existing && !rt_ptrmap_put(&c->graphs, g, g)) ||
            !deps_set(&s->cap_deps, &s->ncap_deps, &s->cap_deps_cap,
                      (rt_graph_node *const *)deps, ndeps)) {
            free(k);
            if (!existing) {
                rt_ptrmap_remove(&c->graphs, g);
                rt_graph_free(g);
            }
            e = cudaErrorMemoryAllocation;
        } else {
            k->to_graph = existing != NULL;
            k->first_node = g->nnodes;
            k->graph = g;
            k->mode = mode;
            k->thread = pthread_self();
            k->id = ++c->next_capture_id;
            k->origin = s;
            k->next = c->captures;
            c->captures = k;
            s->capture = k;
        }
    }
    pthread_mutex_unlock(&c->engine_lock);
    return e ? rt_record(e) : cudaSuccess;
}

RT_API cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
    return rt_begin_capture(stream, mode, NULL, NULL, 0);
}

RT_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
                                               enum cudaStreamCaptureMode mode) {
    return rt_begin_capture(rt_per_thread(stream), mode, NULL, NULL, 0);
}

/* Edge data other than the default (ports, programmatic dependencies) is refused. */
static bool rt_plain_edges(const cudaGraphEdgeData *edges, size_t n, const char *fn) {
    for (size_t i = 0; edges && i < n; i++) {
        if (edges[i].from_port || edges[i].to_port || edges[i].type) {
            fprintf(stderr, "vcuda: %s: edge ports and types are not supported\n", fn);
            return false;
        }
    }
    return true;
}

RT_API cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                 const cudaGraphNode_t *dependencies,
                                                 const cudaGraphEdgeData *dependencyData,
                                                 size_t numDependencies,
                                                 enum cudaStreamCaptureMode mode) {
    if (!graph) return rt_record(cudaErrorInvalidValue);
    if (!rt_plain_edges(dependencyData, numDependencies, "cudaStreamBeginCaptureToGraph"))
        return rt_record(cudaErrorNotSupported);
    return rt_begin_capture(stream, mode, graph, dependencies, numDependencies);
}

RT_API cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                      const cudaGraphNode_t *dependencies,
                                                      const cudaGraphEdgeData *dependencyData,
                                                      size_t numDependencies,
                                                      enum cudaStreamCaptureMode mode) {
    return cudaStreamBeginCaptureToGraph(rt_per_thread(stream), graph, dependencies,
                                         dependencyData, numDependencies, mode);
}

/* Every node nothing follows must be one the origin stream's next node would follow. */
static bool all_joined(const rt_capture *k) {
    const rt_graph *g = k->graph;
    for (size_t i = k->first_node; i < g->nnodes; i++) {
        const rt_graph_node *n = g->nodes[i];
        bool followed = false;
        for (size_t j = 0; j < g->nnodes && !followed; j++)
            for (size_t d = 0; d < g->nodes[j]->ndeps && !followed; d++)
                followed = g->nodes[j]->deps[d] == n;
        if (followed) continue;
        bool joined = false;
        for (size_t d = 0; d < k->origin->ncap_deps && !joined; d++)
            joined = k->origin->cap_deps[d] == n;
        if (!joined) return false;
    }
    return true;
}

static void capture_end(rt_context *c, rt_capture *k) {
    for (rt_stream *s = c->all_streams; s; s = s->all_next)
        if (s->capture == k) stream_leave(s);
    for (rt_capture **p = &c->captures; *p; p = &(*p)->next) {
        if (*p == k) {
            *p = k->next;
            break;
        }
    }
    /* events recorded in it keep their nodes only while the graph lives as the capture:
     * waiting for them later is a wait on nothing */
    for (size_t i = 0; i < c->events.cap; i++) {
        if (!c->events.keys[i]) continue;
        rt_event *ev = c->events.values[i];
        if (ev->capture == k) rt_event_forget_capture(ev);
    }
    c->reap = true;
    free(k);
}

static cudaError_t rt_end_capture(cudaStream_t stream, cudaGraph_t *pGraph) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, stream);
    rt_capture *k = s ? s->capture : NULL;
    /* A capture into an existing graph (cudaStreamBeginCaptureToGraph) needs no graph
     * handed back: the program has it (NVIDIA's graphConditionalNodes passes NULL). */
    if (!pGraph && !(k && k->to_graph)) {
        e = cudaErrorInvalidValue;
    } else if (!s) {
        e = cudaErrorInvalidResourceHandle;
    } else if (!k) {
        e = cudaErrorIllegalState;
    } else if (k->origin != s) {
        e = cudaErrorStreamCaptureUnmatched;
        k->invalid = true;
    } else if (k->mode != cudaStreamCaptureModeRelaxed &&
               !pthread_equal(k->thread, pthread_self())) {
        e = cudaErrorStreamCaptureWrongThread;
    } else {
        rt_graph *g = k->graph;
        if (k->invalid) e = cudaErrorStreamCaptureInvalidated;
        else if (!all_joined(k)) e = cudaErrorStreamCaptureUnjoined;
        bool to_graph = k->to_graph;
        capture_end(c, k);
        if (e && !to_graph) {
            rt_ptrmap_remove(&c->graphs, g);
            rt_graph_free(g);
            *pGraph = NULL;
        } else if (pGraph) {
            *pGraph = e ? NULL : (cudaGraph_t)g;
        }
    }
    pthread_mutex_unlock(&c->engine_lock);
    return e ? rt_record(e) : cudaSuccess;
}

RT_API cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph) {
    return rt_end_capture(stream, pGraph);
}

RT_API cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph) {
    return rt_end_capture(rt_per_thread(stream), pGraph);
}

static cudaError_t rt_is_capturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                   unsigned long long *id, cudaGraph_t *graph,
                                   const cudaGraphNode_t **deps, size_t *ndeps) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!status) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, stream);
    if (!s) {
        e = cudaErrorInvalidResourceHandle;
    } else if (s->kind == RT_STREAM_LEGACY && c->captures) {
        /* asking about the legacy stream while a capture runs is an implicit use of it */
        e = rt_capture_check(c, s, false);
    }
    if (!e) {
        rt_capture *k = s->capture;
        *status = !k ? cudaStreamCaptureStatusNone
                  : k->invalid ? cudaStreamCaptureStatusInvalidated
                               : cudaStreamCaptureStatusActive;
        if (id && k) *id = k->id;
        if (graph) *graph = k ? (cudaGraph_t)k->graph : NULL;
        if (deps) *deps = k ? (const cudaGraphNode_t *)s->cap_deps : NULL;
        if (ndeps) *ndeps = k ? s->ncap_deps : 0;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return e ? rt_record(e) : cudaSuccess;
}

RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                         enum cudaStreamCaptureStatus *pCaptureStatus) {
    return rt_is_capturing(stream, pCaptureStatus, NULL, NULL, NULL, NULL);
}

RT_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                              enum cudaStreamCaptureStatus *pCaptureStatus) {
    return rt_is_capturing(rt_per_thread(stream), pCaptureStatus, NULL, NULL, NULL, NULL);
}

RT_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                            enum cudaStreamCaptureStatus *captureStatus_out,
                                            unsigned long long *id_out, cudaGraph_t *graph_out,
                                            const cudaGraphNode_t **dependencies_out,
                                            const cudaGraphEdgeData **edgeData_out,
                                            size_t *numDependencies_out) {
    if (edgeData_out) *edgeData_out = NULL; /* every edge is a plain full dependency */
    return rt_is_capturing(stream, captureStatus_out, id_out, graph_out, dependencies_out,
                           numDependencies_out);
}

RT_API cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                 enum cudaStreamCaptureStatus *captureStatus_out,
                                                 unsigned long long *id_out,
                                                 cudaGraph_t *graph_out,
                                                 const cudaGraphNode_t **dependencies_out,
                                                 const cudaGraphEdgeData **edgeData_out,
                                                 size_t *numDependencies_out) {
    return cudaStreamGetCaptureInfo(rt_per_thread(stream), captureStatus_out, id_out, graph_out,
                                    dependencies_out, edgeData_out, numDependencies_out);
}

RT_API cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) {
    if (!mode || (unsigned)*mode > cudaStreamCaptureModeRelaxed)
        return rt_record(cudaErrorInvalidValue);
    rt_thread *t = rt_thread_state();
    enum cudaStreamCaptureMode old = t->capture_mode;
    t->capture_mode = *mode;
    *mode = old;
    return cudaSuccess;
}

void rt_capture_reset(rt_context *c) {
    while (c->captures) {
        rt_capture *k = c->captures;
        rt_ptrmap_remove(&c->graphs, k->graph);
        rt_graph_free(k->graph);
        capture_end(c, k);
    }
}

/* Replace (cudaStreamSetCaptureDependencies) or add to (cudaStreamAddCaptureDependencies)
 * the nodes the capturing stream's next node follows. */
static cudaError_t rt_update_capture_deps(cudaStream_t stream, cudaGraphNode_t *deps,
                                          const cudaGraphEdgeData *edges, size_t n,
                                          unsigned flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if ((n && !deps) || flags > cudaStreamSetCaptureDependencies)
        return rt_record(cudaErrorInvalidValue);
    if (!rt_plain_edges(edges, n, "cudaStreamUpdateCaptureDependencies"))
        return rt_record(cudaErrorNotSupported);
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, stream);
    if (!s) e = cudaErrorInvalidResourceHandle;
    else if (!s->capture) e = cudaErrorIllegalState;
    for (size_t i = 0; !e && i < n; i++)
        if (!deps[i] || ((rt_graph_node *)deps[i])->graph != s->capture->graph)
            e = cudaErrorInvalidValue;
    if (!e) {
        bool ok = flags == cudaStreamSetCaptureDependencies
                      ? deps_set(&s->cap_deps, &s->ncap_deps, &s->cap_deps_cap,
                                 (rt_graph_node *const *)deps, n)
                      : deps_union(s, (rt_graph_node *const *)deps, n);
        if (!ok) e = cudaErrorMemoryAllocation;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                       cudaGraphNode_t *dependencies,
                                                       const cudaGraphEdgeData *dependencyData,
                                                       size_t numDependencies,
                                                       unsigned int flags) {
    return rt_update_capture_deps(stream, dependencies, dependencyData, numDependencies, flags);
}

RT_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(
    cudaStream_t stream, cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData,
    size_t numDependencies, unsigned int flags) {
    return rt_update_capture_deps(rt_per_thread(stream), dependencies, dependencyData,
                                  numDependencies, flags);
}
