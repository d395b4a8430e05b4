/* runtime/graph_params.c — parameters of host, memcpy (to and from variables too) and
 * memset nodes, in a graph and in an executable graph; child graph nodes; enabling and
 * disabling nodes of an executable graph; its instantiation flags; event record and wait
 * nodes; kernel node attributes; the generic setters; a child graph node of an
 * executable graph updated from another graph; and cudaGraphDebugDotPrint, a
 * picture of a graph in Graphviz's DOT language (`dot -Tsvg graph.dot > graph.svg`).
 *
 * Setting a node's parameters in an executable graph changes what its later launches do;
 * launches already issued keep their own copies (graph.c).
 */
#include "graph_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Replace node n's operation in the graph (set) or in executable graph hx (update),
 * taking op; n must be of type t. */
static cudaError_t rt_node_replace(rt_context *c, cudaGraphExec_t hx, cudaGraphNode_t node,
                                   enum cudaGraphNodeType t, rt_op *op) {
    rt_graph_node *n = (rt_graph_node *)node;
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&c->engine_lock);
    if (!n || n->type != t) {
        e = cudaErrorInvalidValue;
    } else if (!hx) {
        rt_op_free(n->op);
        n->op = op;
        op = NULL;
    } else {
        rt_graph_exec *x = rt_ptrmap_get(&c->graph_execs, hx);
        size_t k = SIZE_MAX;
        for (size_t i = 0; x && i < x->nops && k == SIZE_MAX; i++)
            if (x->nodes[i] == n) k = i;
        if (k == SIZE_MAX) {
            e = cudaErrorInvalidValue;
        } else {
            rt_op_free(x->ops[k]);
            x->ops[k] = op;
            op = NULL;
        }
    }
    pthread_mutex_unlock(&c->engine_lock);
    rt_op_free(op);
    return e;
}

/* ---- host nodes ---- */

static cudaError_t rt_host_set(cudaGraphExec_t hx, cudaGraphNode_t node,
                               const struct cudaHostNodeParams *p) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!p || !p->fn) return rt_record(cudaErrorInvalidValue);
    rt_op *op = rt_op_new(RT_OP_HOST_FN);
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    op->u.host_fn.fn = p->fn;
    op->u.host_fn.data = p->userData;
    return rt_record(rt_node_replace(c, hx, node, cudaGraphNodeTypeHost, op));
}

RT_API cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
                                              struct cudaHostNodeParams *pNodeParams) {
    rt_graph_node *n = (rt_graph_node *)node;
    if (!n || !pNodeParams || n->type != cudaGraphNodeTypeHost)
        return rt_record(cudaErrorInvalidValue);
    pNodeParams->fn = n->op->u.host_fn.fn;
    pNodeParams->userData = n->op->u.host_fn.data;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
                                              const struct cudaHostNodeParams *pNodeParams) {
    return rt_host_set(NULL, node, pNodeParams);
}

RT_API cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                  const struct cudaHostNodeParams *pNodeParams) {
    if (!hGraphExec) return rt_record(cudaErrorInvalidValue);
    return rt_host_set(hGraphExec, node, pNodeParams);
}

/* ---- memset nodes ---- */

static cudaError_t rt_memset_set(cudaGraphExec_t hx, cudaGraphNode_t node,
                                 const struct cudaMemsetParams *p) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_op *op = NULL;
    e = rt_memset_node_op(c, p, &op);
    if (e) return rt_record(e);
    return rt_record(rt_node_replace(c, hx, node, cudaGraphNodeTypeMemset, op));
}

RT_API cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
                                                struct cudaMemsetParams *pNodeParams) {
    rt_graph_node *n = (rt_graph_node *)node;
    if (!n || !pNodeParams || n->type != cudaGraphNodeTypeMemset || n->op->kind != RT_OP_SET2D)
        return rt_record(cudaErrorInvalidValue);
    const rt_op *op = n->op;
    memset(pNodeParams, 0, sizeof *pNodeParams);
    pNodeParams->dst = op->u.set2d.dst;
    pNodeParams->pitch = op->u.set2d.height > 1 ? op->u.set2d.pitch : 0;
    pNodeParams->value = (unsigned)op->u.set2d.value;
    pNodeParams->elementSize = op->u.set2d.elem;
    pNodeParams->width = op->u.set2d.width / op->u.set2d.elem;
    pNodeParams->height = op->u.set2d.height;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                                                const struct cudaMemsetParams *pNodeParams) {
    return rt_memset_set(NULL, node, pNodeParams);
}

RT_API cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
                                                    cudaGraphNode_t node,
                                                    const struct cudaMemsetParams *pNodeParams) {
    if (!hGraphExec) return rt_record(cudaErrorInvalidValue);
    return rt_memset_set(hGraphExec, node, pNodeParams);
}

/* ---- memcpy nodes ---- */

static enum cudaMemcpyKind rt_kind_of(rt_copy_dir d) {
    return d == RT_COPY_H2D ? cudaMemcpyHostToDevice
           : d == RT_COPY_D2H ? cudaMemcpyDeviceToHost
           : d == RT_COPY_H2H ? cudaMemcpyHostToHost
                              : cudaMemcpyDeviceToDevice;
}

RT_API cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
                                                struct cudaMemcpy3DParms *p) {
    rt_graph_node *n = (rt_graph_node *)node;
    if (!n || !p || n->type != cudaGraphNodeTypeMemcpy) return rt_record(cudaErrorInvalidValue);
    const rt_op *op = n->op;
    memset(p, 0, sizeof *p);
    if (op->kind == RT_OP_COPY) {
        size_t b = op->u.copy.bytes;
        p->srcPtr = (struct cudaPitchedPtr){(void *)op->u.copy.src, b, b, 1};
        p->dstPtr = (struct cudaPitchedPtr){op->u.copy.dst, b, b, 1};
        p->extent = (struct cudaExtent){b, 1, 1};
        p->kind = rt_kind_of(op->u.copy.dir);
    } else if (op->kind == RT_OP_COPY2D) {
        size_t w = op->u.copy2d.width, h = op->u.copy2d.height;
        p->srcPtr = (struct cudaPitchedPtr){(void *)op->u.copy2d.src, op->u.copy2d.spitch, w, h};
        p->dstPtr = (struct cudaPitchedPtr){op->u.copy2d.dst, op->u.copy2d.dpitch, w, h};
        p->extent = (struct cudaExtent){w, h, 1};
        p->kind = rt_kind_of(op->u.copy2d.dir);
    } else {
        return rt_record(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

static cudaError_t rt_memcpy_set(cudaGraphExec_t hx, cudaGraphNode_t node,
                                 const struct cudaMemcpy3DParms *p) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_op *op = NULL;
    e = rt_copy_node_op(c, p, &op);
    if (e) return rt_record(e);
    return rt_record(rt_node_replace(c, hx, node, cudaGraphNodeTypeMemcpy, op));
}

static cudaError_t rt_memcpy1d_set(cudaGraphExec_t hx, cudaGraphNode_t node, void *dst,
                                   const void *src, size_t count, enum cudaMemcpyKind kind) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_op *op = NULL;
    e = rt_copy1d_node_op(c, dst, src, count, kind, &op);
    if (e) return rt_record(e);
    return rt_record(rt_node_replace(c, hx, node, cudaGraphNodeTypeMemcpy, op));
}

RT_API cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                                const struct cudaMemcpy3DParms *pNodeParams) {
    return rt_memcpy_set(NULL, node, pNodeParams);
}

RT_API cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec,
                                                    cudaGraphNode_t node,
                                                    const struct cudaMemcpy3DParms *pNodeParams) {
    if (!hGraphExec) return rt_record(cudaErrorInvalidValue);
    return rt_memcpy_set(hGraphExec, node, pNodeParams);
}

RT_API cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst,
                                                  const void *src, size_t count,
                                                  enum cudaMemcpyKind kind) {
    return rt_memcpy1d_set(NULL, node, dst, src, count, kind);
}

RT_API cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec,
                                                      cudaGraphNode_t node, void *dst,
                                                      const void *src, size_t count,
                                                      enum cudaMemcpyKind kind) {
    if (!hGraphExec) return rt_record(cudaErrorInvalidValue);
    return rt_memcpy1d_set(hGraphExec, node, dst, src, count, kind);
}

/* ---- child graph nodes ---- */

RT_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies, cudaGraph_t childGraph) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    /* the node holds its own copy of the graph, as CUDA's does */
    cudaGraph_t copy = NULL;
    e = cudaGraphClone(&copy, childGraph);
    if (e) return e;
    rt_op *op = rt_op_new(RT_OP_WAIT);
    if (!op) e = cudaErrorMemoryAllocation;
    if (!e) e = rt_graph_add_node(pGraphNode, graph, pDependencies, numDependencies,
                                  cudaGraphNodeTypeGraph, op);
    if (e) {
        cudaGraphDestroy(copy);
        return rt_record(e);
    }
    pthread_mutex_lock(&c->engine_lock);
    ((rt_graph_node *)*pGraphNode)->x.child = (rt_graph *)copy;
    pthread_mutex_unlock(&c->engine_lock);
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph) {
    rt_graph_node *n = (rt_graph_node *)node;
    if (!n || !pGraph || n->type != cudaGraphNodeTypeGraph) return rt_record(cudaErrorInvalidValue);
    *pGraph = (cudaGraph_t)n->x.child;
    return cudaSuccess;
}

static rt_graph_exec *rt_exec_node(rt_context *c, cudaGraphExec_t hx, cudaGraphNode_t node,
                                   size_t *k);

bool rt_graph_same_topology(const rt_graph *a, const rt_graph *b) {
    if (a->nnodes != b->nnodes) return false;
    for (size_t i = 0; i < a->nnodes; i++) {
        const rt_graph_node *na = a->nodes[i], *nb = b->nodes[i];
        if (na->type != nb->type || na->ndeps != nb->ndeps) return false;
        for (size_t d = 0; d < na->ndeps; d++) {
            bool found = false;
            for (size_t j = 0; j < nb->ndeps && !found; j++)
                found = nb->deps[j]->index == na->deps[d]->index;
            if (!found) return false;
        }
        if (na->type == cudaGraphNodeTypeGraph && !rt_graph_same_topology(na->x.child, nb->x.child))
            return false;
        if (na->type == cudaGraphNodeTypeConditional) {
            if (na->x.cond.type != nb->x.cond.type || na->x.cond.size != nb->x.cond.size)
                return false;
            for (unsigned k = 0; k < na->x.cond.size; k++)
                if (!rt_graph_same_topology(na->x.cond.bodies[k], nb->x.cond.bodies[k])) return false;
        }
    }
    return true;
}

/* The child graph node of an executable graph takes childGraph's node parameters (same
 * topology, else cudaErrorGraphExecUpdateFailure, as on an H100: tests/cuda/rtapi/
 * expected/graph_child_update.out). Its operations are built from childGraph now, so later
 * changes to childGraph do not reach the executable graph; launches already issued keep
 * the body they were issued with (the executable graph keeps it until it goes). */
RT_API cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec,
                                                        cudaGraphNode_t node,
                                                        cudaGraph_t childGraph) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_graph_node *n = (rt_graph_node *)node;
    pthread_mutex_lock(&c->engine_lock);
    size_t k = 0;
    rt_graph_exec *x = n && n->type == cudaGraphNodeTypeGraph ? rt_exec_node(c, hGraphExec, node, &k)
                                                            : NULL;
    rt_graph *g = childGraph ? rt_ptrmap_get(&c->graphs, childGraph) : NULL;
    if (!x || !g) {
        e = cudaErrorInvalidValue;
    } else if (!rt_graph_same_topology(n->x.child, g)) {
        e = cudaErrorGraphExecUpdateFailure;
    } else {
        rt_graph_node as = *n; /* the node, with childGraph as its graph */
        as.x.child = g;
        rt_op *op = rt_graph_child_op(c, x, &as);
        if (!op) {
            e = cudaErrorMemoryAllocation;
        } else {
            rt_op_free(x->ops[k]);
            x->ops[k] = op;
        }
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

/* ---- executable graphs: enabled nodes, flags ---- */

static rt_graph_exec *rt_exec_node(rt_context *c, cudaGraphExec_t hx, cudaGraphNode_t node,
                                   size_t *k) {
    rt_graph_exec *x = hx ? rt_ptrmap_get(&c->graph_execs, hx) : NULL;
    for (size_t i = 0; x && i < x->nops; i++) {
        if (x->nodes[i] == (rt_graph_node *)node) {
            *k = i;
            return x;
        }
    }
    return NULL;
}

RT_API cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                           unsigned int isEnabled) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    size_t k = 0;
    rt_graph_exec *x = rt_exec_node(c, hGraphExec, hNode, &k);
    enum cudaGraphNodeType t = x ? x->types[k] : cudaGraphNodeTypeEmpty;
    /* kernel, copy and set nodes can be turned off */
    if (!x || (t != cudaGraphNodeTypeKernel && t != cudaGraphNodeTypeMemcpy &&
               t != cudaGraphNodeTypeMemset)) {
        e = cudaErrorInvalidValue;
    } else {
        if (!x->disabled) x->disabled = calloc(x->nops, sizeof *x->disabled);
        if (!x->disabled) e = cudaErrorMemoryAllocation;
        else x->disabled[k] = !isEnabled;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                           unsigned int *isEnabled) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!isEnabled) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    size_t k = 0;
    rt_graph_exec *x = rt_exec_node(c, hGraphExec, hNode, &k);
    if (!x) e = cudaErrorInvalidValue;
    else *isEnabled = !(x->disabled && x->disabled[k]);
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!flags) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_exec *x = graphExec ? rt_ptrmap_get(&c->graph_execs, graphExec) : NULL;
    if (!x) e = cudaErrorInvalidValue;
    else *flags = x->flags;
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

/* ---- a picture of a graph ---- */

static const char *rt_type_name(enum cudaGraphNodeType t) {
    switch (t) {
    case cudaGraphNodeTypeKernel: return "KERNEL";
    case cudaGraphNodeTypeMemcpy: return "MEMCPY";
    case cudaGraphNodeTypeMemset: return "MEMSET";
    case cudaGraphNodeTypeHost: return "HOST";
    case cudaGraphNodeTypeGraph: return "GRAPH";
    case cudaGraphNodeTypeEmpty: return "EMPTY";
    case cudaGraphNodeTypeWaitEvent: return "WAIT_EVENT";
    case cudaGraphNodeTypeEventRecord: return "EVENT_RECORD";
    case cudaGraphNodeTypeMemAlloc: return "MEM_ALLOC";
    case cudaGraphNodeTypeMemFree: return "MEM_FREE";
    case cudaGraphNodeTypeConditional: return "CONDITIONAL";
    case cudaGraphNodeTypeExtSemaphoreSignal: return "EXT_SEMAS_SIGNAL";
    case cudaGraphNodeTypeExtSemaphoreWait: return "EXT_SEMAS_WAIT";
    default: return "NODE";
    }
}

/* One graph's nodes and edges as a DOT cluster; its child and body graphs nested. */
static void rt_dot_graph(FILE *f, const rt_graph *g, const char *prefix, unsigned depth) {
    for (size_t i = 0; i < g->nnodes; i++) {
        const rt_graph_node *n = g->nodes[i];
        fprintf(f, "  \"%s%zu\" [shape=box, label=\"%zu: %s", prefix, i, i, rt_type_name(n->type));
        if (n->type == cudaGraphNodeTypeKernel && n->op->kind == RT_OP_KERNEL) {
            const rt_op *op = n->op;
            char *pretty = ptx_demangle(op->u.kernel.func->name, PTX_DEMANGLE_GNU);
            fprintf(f, "\\n%s\\n<<<(%u,%u,%u), (%u,%u,%u), %u>>>",
                    pretty ? pretty : op->u.kernel.func->name, op->u.kernel.grid.x,
                    op->u.kernel.grid.y, op->u.kernel.grid.z, op->u.kernel.block.x,
                    op->u.kernel.block.y, op->u.kernel.block.z, op->u.kernel.dyn_shared);
            free(pretty);
        } else if (n->type == cudaGraphNodeTypeMemcpy && n->op->kind == RT_OP_COPY) {
            fprintf(f, "\\n%zu bytes", n->op->u.copy.bytes);
        } else if (n->type == cudaGraphNodeTypeMemcpy && n->op->kind == RT_OP_COPY2D) {
            fprintf(f, "\\n%zu x %zu bytes", n->op->u.copy2d.height, n->op->u.copy2d.width);
        } else if (n->type == cudaGraphNodeTypeMemset && n->op->kind == RT_OP_SET2D) {
            fprintf(f, "\\n%zu x %zu bytes = %d", n->op->u.set2d.height, n->op->u.set2d.width,
                    n->op->u.set2d.value);
        } else if (n->type == cudaGraphNodeTypeMemAlloc) {
            fprintf(f, "\\n%zu bytes at %p", n->x.alloc.bytesize, n->x.alloc.dptr);
        } else if (n->type == cudaGraphNodeTypeMemFree) {
            fprintf(f, "\\n%p", n->x.free_ptr);
        } else if (n->type == cudaGraphNodeTypeConditional) {
            static const char *const kinds[] = {"if", "while", "switch"};
            fprintf(f, "\\n%s", (unsigned)n->x.cond.type < 3 ? kinds[n->x.cond.type] : "?");
        }
        fprintf(f, "\"];\n");
        for (size_t d = 0; d < n->ndeps; d++)
            fprintf(f, "  \"%s%zu\" -> \"%s%zu\";\n", prefix, n->deps[d]->index, prefix, i);
        /* nested graphs: a cluster each, entered from the node */
        size_t nsub = n->type == cudaGraphNodeTypeGraph         ? 1
                      : n->type == cudaGraphNodeTypeConditional ? n->x.cond.size
                                                                : 0;
        for (size_t b = 0; b < nsub && depth < 8; b++) {
            const rt_graph *sub = n->type == cudaGraphNodeTypeGraph ? n->x.child
                                                                     : n->x.cond.bodies[b];
            char inner[256];
            snprintf(inner, sizeof inner, "%s%zu_%zu_", prefix, i, b);
            fprintf(f, "  subgraph \"cluster_%s\" {\n  label=\"node %zu, graph %zu\";\n", inner,
                    i, b);
            rt_dot_graph(f, sub, inner, depth + 1);
            fprintf(f, "  }\n");
            if (sub->nnodes)
                fprintf(f, "  \"%s%zu\" -> \"%s0\" [style=dashed];\n", prefix, i, inner);
        }
    }
}

RT_API cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    (void)flags; /* every picture shows the same details */
    if (!path) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = graph ? rt_ptrmap_get(&c->graphs, graph) : NULL;
    FILE *f = g ? fopen(path, "w") : NULL;
    if (!g) {
        e = cudaErrorInvalidValue;
    } else if (!f) {
        e = cudaErrorOperatingSystem;
    } else {
        fprintf(f, "digraph vcuda_graph {\n  rankdir=TB;\n");
        rt_dot_graph(f, g, "n", 0);
        fprintf(f, "}\n");
        if (fclose(f) != 0) e = cudaErrorOperatingSystem;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

/* ---- event record and wait nodes ---- */

static cudaError_t rt_event_node_op(rt_context *c, cudaEvent_t event, bool record,
                                    rt_op **out) {
    pthread_mutex_lock(&c->engine_lock);
    rt_event *ev = event ? rt_ptrmap_get(&c->events, event) : NULL;
    pthread_mutex_unlock(&c->engine_lock);
    if (!ev) return cudaErrorInvalidResourceHandle;
    /* a record node issues an event record at each launch; a wait node an empty operation
     * that the launch makes wait for the event (graph.c) */
    rt_op *op = rt_op_new(record ? RT_OP_EVENT : RT_OP_WAIT);
    if (!op) return cudaErrorMemoryAllocation;
    op->u.event.event = ev;
    *out = op;
    return cudaSuccess;
}

static cudaError_t rt_add_event_node(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps, cudaEvent_t event,
                                     bool record) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_op *op = NULL;
    e = rt_event_node_op(c, event, record, &op);
    if (!e) e = rt_graph_add_node(pNode, graph, deps, ndeps,
                                  record ? cudaGraphNodeTypeEventRecord
                                         : cudaGraphNodeTypeWaitEvent,
                                  op);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies,
                                               size_t numDependencies, cudaEvent_t event) {
    return rt_add_event_node(pGraphNode, graph, pDependencies, numDependencies, event, true);
}

RT_API cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies,
                                             size_t numDependencies, cudaEvent_t event) {
    return rt_add_event_node(pGraphNode, graph, pDependencies, numDependencies, event, false);
}

static cudaError_t rt_event_node_get(cudaGraphNode_t node, cudaEvent_t *out,
                                     enum cudaGraphNodeType t) {
    rt_graph_node *n = (rt_graph_node *)node;
    if (!n || !out || n->type != t) return rt_record(cudaErrorInvalidValue);
    *out = (cudaEvent_t)n->op->u.event.event;
    return cudaSuccess;
}

static cudaError_t rt_event_node_set(cudaGraphExec_t hx, cudaGraphNode_t node, cudaEvent_t event,
                                     enum cudaGraphNodeType t) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_op *op = NULL;
    e = rt_event_node_op(c, event, t == cudaGraphNodeTypeEventRecord, &op);
    if (e) return rt_record(e);
    return rt_record(rt_node_replace(c, hx, node, t, op));
}

RT_API cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
    return rt_event_node_get(node, event_out, cudaGraphNodeTypeEventRecord);
}

RT_API cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
    return rt_event_node_get(node, event_out, cudaGraphNodeTypeWaitEvent);
}

RT_API cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
    return rt_event_node_set(NULL, node, event, cudaGraphNodeTypeEventRecord);
}

RT_API cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
    return rt_event_node_set(NULL, node, event, cudaGraphNodeTypeWaitEvent);
}

RT_API cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec,
                                                        cudaGraphNode_t hNode, cudaEvent_t event) {
    if (!hGraphExec) return rt_record(cudaErrorInvalidValue);
    return rt_event_node_set(hGraphExec, hNode, event, cudaGraphNodeTypeEventRecord);
}

RT_API cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec,
                                                      cudaGraphNode_t hNode, cudaEvent_t event) {
    if (!hGraphExec) return rt_record(cudaErrorInvalidValue);
    return rt_event_node_set(hGraphExec, hNode, event, cudaGraphNodeTypeWaitEvent);
}

/* ---- kernel node attributes ---- */

/* Kept and given back; the cooperative one makes the node's launches cooperative and the
 * cluster dimension gives them that cluster shape (checked as a launch checks it), the
 * others (a preferred cluster shape included: a GPU may fall back to the regular one) leave
 * results unchanged. */
static cudaError_t rt_node_attr_check(cudaLaunchAttributeID id, const cudaLaunchAttributeValue *v) {
    (void)v;
    switch (id) {
    case cudaLaunchAttributeAccessPolicyWindow: case cudaLaunchAttributeCooperative:
    case cudaLaunchAttributePriority: case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain: case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    case cudaLaunchAttributeDeviceUpdatableKernelNode:
    case cudaLaunchAttributeClusterDimension:
    case cudaLaunchAttributePreferredClusterDimension:
        return cudaSuccess;
    default:
        return cudaErrorInvalidValue;
    }
}

/* The cluster shape a node's launches take from its cluster dimension attribute (all
 * zero: none; the kernel's own __cluster_dims__ then apply, as at launch). */
static cudaError_t rt_node_cluster(rt_context *c, rt_graph_node *n, const cudaLaunchAttributeValue *v) {
    rt_op *op = n->op;
    exec_dim3 dim = {v->clusterDim.x, v->clusterDim.y, v->clusterDim.z}, cl;
    bool none = !dim.x && !dim.y && !dim.z;
    exec_dim3 g = op->u.kernel.grid, b = op->u.kernel.block;
    pthread_mutex_lock(&c->lock);
    cudaError_t e = rt_func_resolve(c, op->u.kernel.func);
    if (!e)
        e = rt_check_cluster(c, op->u.kernel.func, (dim3){g.x, g.y, g.z}, (dim3){b.x, b.y, b.z},
                             op->u.kernel.dyn_shared, none ? NULL : &dim, &cl);
    pthread_mutex_unlock(&c->lock);
    if (!e) op->u.kernel.cluster = cl;
    return e;
}

static rt_graph_node *rt_kernel_node(cudaGraphNode_t node) {
    rt_graph_node *n = (rt_graph_node *)node;
    return n && n->type == cudaGraphNodeTypeKernel && n->op->kind == RT_OP_KERNEL ? n : NULL;
}

RT_API cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode,
                                                   cudaLaunchAttributeID attr,
                                                   const cudaLaunchAttributeValue *value) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_graph_node *n = rt_kernel_node(hNode);
    if (!n || !value || (unsigned)attr >= RT_NODE_ATTRS) return rt_record(cudaErrorInvalidValue);
    e = rt_node_attr_check(attr, value);
    if (!e && attr == cudaLaunchAttributeClusterDimension) e = rt_node_cluster(c, n, value);
    if (e) return rt_record(e);
    pthread_mutex_lock(&c->engine_lock);
    if (!n->attrs) n->attrs = calloc(RT_NODE_ATTRS, sizeof *n->attrs);
    if (!n->attrs) {
        e = cudaErrorMemoryAllocation;
    } else {
        n->attrs[attr] = *value;
        if (attr == cudaLaunchAttributeCooperative)
            n->op->u.kernel.cooperative = value->cooperative != 0;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode,
                                                   cudaLaunchAttributeID attr,
                                                   cudaLaunchAttributeValue *value_out) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_graph_node *n = rt_kernel_node(hNode);
    if (!n || !value_out || (unsigned)attr >= RT_NODE_ATTRS) return rt_record(cudaErrorInvalidValue);
    e = rt_node_attr_check(attr, NULL);
    if (e) return rt_record(e);
    pthread_mutex_lock(&c->engine_lock);
    if (n->attrs) *value_out = n->attrs[attr];
    else memset(value_out, 0, sizeof *value_out);
    if (attr == cudaLaunchAttributeCooperative) value_out->cooperative = n->op->u.kernel.cooperative;
    if (attr == cudaLaunchAttributeClusterDimension && n->op->u.kernel.cluster.x) {
        /* the shape the node launches with (a captured cudaLaunchKernelEx's included) */
        value_out->clusterDim.x = n->op->u.kernel.cluster.x;
        value_out->clusterDim.y = n->op->u.kernel.cluster.y;
        value_out->clusterDim.z = n->op->u.kernel.cluster.z;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_graph_node *d = rt_kernel_node(hDst), *s = rt_kernel_node(hSrc);
    if (!d || !s) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    if (d != s && s->attrs) {
        if (!d->attrs) d->attrs = calloc(RT_NODE_ATTRS, sizeof *d->attrs);
        if (!d->attrs) e = cudaErrorMemoryAllocation;
        else memcpy(d->attrs, s->attrs, RT_NODE_ATTRS * sizeof *d->attrs);
    }
    if (!e && d != s) d->op->u.kernel.cooperative = s->op->u.kernel.cooperative;
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

/* ---- the generic setters ---- */

RT_API cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *p) {
    rt_graph_node *n = (rt_graph_node *)node;
    if (!n || !p || p->type != n->type) return rt_record(cudaErrorInvalidValue);
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        struct cudaKernelNodeParams k = {p->kernel.func, p->kernel.gridDim, p->kernel.blockDim,
                                         p->kernel.sharedMemBytes, p->kernel.kernelParams,
                                         p->kernel.extra};
        return cudaGraphKernelNodeSetParams(node, &k);
    }
    case cudaGraphNodeTypeMemcpy:
        return cudaGraphMemcpyNodeSetParams(node, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        struct cudaMemsetParams m = {p->memset.dst, p->memset.pitch, p->memset.value,
                                     p->memset.elementSize, p->memset.width, p->memset.height};
        return cudaGraphMemsetNodeSetParams(node, &m);
    }
    case cudaGraphNodeTypeHost: {
        struct cudaHostNodeParams h = {p->host.fn, p->host.userData};
        return cudaGraphHostNodeSetParams(node, &h);
    }
    case cudaGraphNodeTypeEventRecord:
        return cudaGraphEventRecordNodeSetEvent(node, p->eventRecord.event);
    case cudaGraphNodeTypeWaitEvent:
        return cudaGraphEventWaitNodeSetEvent(node, p->eventWait.event);
    case cudaGraphNodeTypeExtSemaphoreSignal: {
        struct cudaExternalSemaphoreSignalNodeParams q = {
            p->extSemSignal.extSemArray, p->extSemSignal.paramsArray, p->extSemSignal.numExtSems};
        return cudaGraphExternalSemaphoresSignalNodeSetParams(node, &q);
    }
    case cudaGraphNodeTypeExtSemaphoreWait: {
        struct cudaExternalSemaphoreWaitNodeParams q = {
            p->extSemWait.extSemArray, p->extSemWait.paramsArray, p->extSemWait.numExtSems};
        return cudaGraphExternalSemaphoresWaitNodeSetParams(node, &q);
    }
    default:
        fprintf(stderr, "vcuda: cudaGraphNodeSetParams: nodes of type %d cannot be changed\n",
                (int)p->type);
        return rt_record(cudaErrorNotSupported);
    }
}

RT_API cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                              struct cudaGraphNodeParams *p) {
    rt_graph_node *n = (rt_graph_node *)node;
    if (!graphExec || !n || !p || p->type != n->type) return rt_record(cudaErrorInvalidValue);
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        struct cudaKernelNodeParams k = {p->kernel.func, p->kernel.gridDim, p->kernel.blockDim,
                                         p->kernel.sharedMemBytes, p->kernel.kernelParams,
                                         p->kernel.extra};
        return cudaGraphExecKernelNodeSetParams(graphExec, node, &k);
    }
    case cudaGraphNodeTypeMemcpy:
        return cudaGraphExecMemcpyNodeSetParams(graphExec, node, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        struct cudaMemsetParams m = {p->memset.dst, p->memset.pitch, p->memset.value,
                                     p->memset.elementSize, p->memset.width, p->memset.height};
        return cudaGraphExecMemsetNodeSetParams(graphExec, node, &m);
    }
    case cudaGraphNodeTypeHost: {
        struct cudaHostNodeParams h = {p->host.fn, p->host.userData};
        return cudaGraphExecHostNodeSetParams(graphExec, node, &h);
    }
    case cudaGraphNodeTypeEventRecord:
        return cudaGraphExecEventRecordNodeSetEvent(graphExec, node, p->eventRecord.event);
    case cudaGraphNodeTypeWaitEvent:
        return cudaGraphExecEventWaitNodeSetEvent(graphExec, node, p->eventWait.event);
    case cudaGraphNodeTypeGraph:
        return cudaGraphExecChildGraphNodeSetParams(graphExec, node, p->graph.graph);
    case cudaGraphNodeTypeExtSemaphoreSignal: {
        struct cudaExternalSemaphoreSignalNodeParams q = {
            p->extSemSignal.extSemArray, p->extSemSignal.paramsArray, p->extSemSignal.numExtSems};
        return cudaGraphExecExternalSemaphoresSignalNodeSetParams(graphExec, node, &q);
    }
    case cudaGraphNodeTypeExtSemaphoreWait: {
        struct cudaExternalSemaphoreWaitNodeParams q = {
            p->extSemWait.extSemArray, p->extSemWait.paramsArray, p->extSemWait.numExtSems};
        return cudaGraphExecExternalSemaphoresWaitNodeSetParams(graphExec, node, &q);
    }
    default:
        fprintf(stderr, "vcuda: cudaGraphExecNodeSetParams: nodes of type %d cannot be "
                        "changed\n", (int)p->type);
        return rt_record(cudaErrorNotSupported);
    }
}

/* ---- copies to and from a __device__ or __constant__ variable ---- */

/* The copy operation between a symbol (at offset) and other memory, checked as
 * cudaMemcpyToSymbol / cudaMemcpyFromSymbol check it. */
static cudaError_t rt_symbol_copy_op(rt_context *c, const void *symbol, void *other,
                                     size_t count, size_t offset, enum cudaMemcpyKind kind,
                                     bool to_symbol, rt_op **out) {
    pthread_mutex_lock(&c->lock);
    rt_var *v = rt_var_lookup(c, symbol);
    void *addr = NULL;
    cudaError_t e = v ? rt_var_address(c, v, &addr) : cudaErrorInvalidSymbol;
    pthread_mutex_unlock(&c->lock);
    if (e) return e;
    bool kind_ok = kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault ||
                   kind == (to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
    if (!kind_ok) return cudaErrorInvalidMemcpyDirection;
    if (!count || offset > v->size || count > v->size - offset) return cudaErrorInvalidValue;
    char *dev = (char *)addr + offset;
    return to_symbol ? rt_copy1d_node_op(c, dev, other, count, kind, out)
                     : rt_copy1d_node_op(c, other, dev, count, kind, out);
}

static cudaError_t rt_symbol_node(cudaGraphExec_t hx, cudaGraphNode_t *pNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t ndeps, cudaGraphNode_t node,
                                  const void *symbol, void *other, size_t count, size_t offset,
                                  enum cudaMemcpyKind kind, bool to_symbol) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_op *op = NULL;
    e = rt_symbol_copy_op(c, symbol, other, count, offset, kind, to_symbol, &op);
    if (e) return rt_record(e);
    if (pNode)
        return rt_record(rt_graph_add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeMemcpy, op));
    return rt_record(rt_node_replace(c, hx, node, cudaGraphNodeTypeMemcpy, op));
}

RT_API cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies,
                                                  size_t numDependencies, const void *symbol,
                                                  const void *src, size_t count, size_t offset,
                                                  enum cudaMemcpyKind kind) {
    if (!pGraphNode) return rt_record(cudaErrorInvalidValue);
    return rt_symbol_node(NULL, pGraphNode, graph, pDependencies, numDependencies, NULL, symbol,
                          (void *)src, count, offset, kind, true);
}

RT_API cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode,
                                                    cudaGraph_t graph,
                                                    const cudaGraphNode_t *pDependencies,
                                                    size_t numDependencies, void *dst,
                                                    const void *symbol, size_t count,
                                                    size_t offset, enum cudaMemcpyKind kind) {
    if (!pGraphNode) return rt_record(cudaErrorInvalidValue);
    return rt_symbol_node(NULL, pGraphNode, graph, pDependencies, numDependencies, NULL, symbol,
                          dst, count, offset, kind, false);
}

RT_API cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol,
                                                        const void *src, size_t count,
                                                        size_t offset, enum cudaMemcpyKind kind) {
    return rt_symbol_node(NULL, NULL, NULL, NULL, 0, node, symbol, (void *)src, count, offset,
                          kind, true);
}

RT_API cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst,
                                                          const void *symbol, size_t count,
                                                          size_t offset,
                                                          enum cudaMemcpyKind kind) {
    return rt_symbol_node(NULL, NULL, NULL, NULL, 0, node, symbol, dst, count, offset, kind,
                          false);
}

RT_API cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec,
                                                            cudaGraphNode_t node,
                                                            const void *symbol, const void *src,
                                                            size_t count, size_t offset,
                                                            enum cudaMemcpyKind kind) {
    if (!hGraphExec) return rt_record(cudaErrorInvalidValue);
    return rt_symbol_node(hGraphExec, NULL, NULL, NULL, 0, node, symbol, (void *)src, count,
                          offset, kind, true);
}

RT_API cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                                              cudaGraphNode_t node, void *dst,
                                                              const void *symbol, size_t count,
                                                              size_t offset,
                                                              enum cudaMemcpyKind kind) {
    if (!hGraphExec) return rt_record(cudaErrorInvalidValue);
    return rt_symbol_node(hGraphExec, NULL, NULL, NULL, 0, node, symbol, dst, count, offset,
                          kind, false);
}
