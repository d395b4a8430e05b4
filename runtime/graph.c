/* runtime/graph.c — CUDA graphs: building them (node by node, or by stream capture in
 * capture.c), instantiating and launching them.
 *
 * A node holds the operation it issues at each launch (a kernel, a copy, a set, a host
 * function, or nothing for an empty node) and the nodes it follows. Instantiation orders
 * the nodes (dependencies first) and splits them into chains: a node goes on the chain of
 * a node it follows when it is that chain's last, else it starts a chain of its own. Each
 * chain is a stream of the executable graph, so a launch issues every node to its chain's
 * stream with the operations it follows as dependencies (engine.c), and the graph's
 * branches run side by side as captured work did. A launch starts after the work issued
 * before it to the launching stream, and that stream's later work starts after the whole
 * graph. Launches of one executable graph run one after the other, since its chains are
 * its own streams, as CUDA orders them.
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_exec.h"

/* ---- operations as node templates ---- */

rt_op *rt_op_clone(const rt_op *op) {
    rt_op *n = rt_op_new(op->kind);
    if (!n) return NULL;
    n->u = op->u;
    if (op->kind == RT_OP_KERNEL) {
        const exec_kernel_info *info = exec_kernel_get_info(op->u.kernel.func->kernel);
        size_t size = info->param_size ? info->param_size : 1;
        n->u.kernel.params = malloc(size);
        if (!n->u.kernel.params) {
            free(n);
            return NULL;
        }
        memcpy(n->u.kernel.params, op->u.kernel.params, size);
        n->u.kernel.check_site = op->u.kernel.check_site ? strdup(op->u.kernel.check_site) : NULL;
    }
    if (op->kind == RT_OP_COPY) n->u.copy.staging = NULL;
    return n;
}

/* ---- graphs ---- */

rt_graph *rt_graph_new(void) { return calloc(1, sizeof(rt_graph)); }

void rt_graph_free(rt_graph *g) {
    if (!g) return;
    for (size_t i = 0; i < g->nnodes; i++) {
        rt_op_free(g->nodes[i]->op);
        free(g->nodes[i]->deps);
        free(g->nodes[i]->kernel_args);
        free(g->nodes[i]->attrs);
        /* a conditional node's bodies stay graphs of the context until it is reset */
        if (g->nodes[i]->type == cudaGraphNodeTypeConditional) free(g->nodes[i]->x.cond.bodies);
        free(g->nodes[i]);
    }
    free(g->nodes);
    free(g);
}

bool rt_graph_node_follow(rt_graph_node *n, rt_graph_node *dep) {
    for (size_t i = 0; i < n->ndeps; i++)
        if (n->deps[i] == dep) return true;
    if (n->ndeps == n->deps_cap) {
        size_t cap = n->deps_cap ? n->deps_cap * 2 : 4;
        rt_graph_node **d = realloc(n->deps, cap * sizeof *d);
        if (!d) return false;
        n->deps = d;
        n->deps_cap = cap;
    }
    n->deps[n->ndeps++] = dep;
    return true;
}

rt_graph_node *rt_graph_add(rt_graph *g, enum cudaGraphNodeType type, rt_op *op,
                            rt_graph_node *const *deps, size_t ndeps) {
    rt_graph_node *n = calloc(1, sizeof *n);
    if (!n || g->nnodes == SIZE_MAX) {
        free(n);
        rt_op_free(op);
        return NULL;
    }
    if (g->nnodes == g->nodes_cap) {
        size_t cap = g->nodes_cap ? g->nodes_cap * 2 : 16;
        rt_graph_node **a = realloc(g->nodes, cap * sizeof *a);
        if (!a) {
            free(n);
            rt_op_free(op);
            return NULL;
        }
        g->nodes = a;
        g->nodes_cap = cap;
    }
    n->graph = g;
    n->type = type;
    n->op = op;
    n->index = g->nnodes;
    for (size_t i = 0; i < ndeps; i++) {
        if (!rt_graph_node_follow(n, deps[i])) {
            free(n->deps);
            free(n);
            rt_op_free(op);
            return NULL;
        }
    }
    g->nodes[g->nnodes++] = n;
    return n;
}

RT_API cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pGraph || flags != 0) return rt_record(cudaErrorInvalidValue);
    rt_graph *g = rt_graph_new();
    pthread_mutex_lock(&c->engine_lock);
    bool ok = g && rt_ptrmap_put(&c->graphs, g, g);
    pthread_mutex_unlock(&c->engine_lock);
    if (!ok) {
        free(g);
        return rt_record(cudaErrorMemoryAllocation);
    }
    *pGraph = (cudaGraph_t)g;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = graph ? rt_ptrmap_remove(&c->graphs, graph) : NULL;
    pthread_mutex_unlock(&c->engine_lock);
    if (!g) return rt_record(cudaErrorInvalidValue);
    rt_userobj_release_all(g);
    rt_graph_free(g);
    return cudaSuccess;
}

/* Add a node to a graph handle after checking the dependencies name its nodes. */
cudaError_t rt_graph_add_node(cudaGraphNode_t *pNode, cudaGraph_t graph,
                              const cudaGraphNode_t *deps, size_t ndeps,
                              enum cudaGraphNodeType type, rt_op *op) {
    rt_context *c = rt_ctx();
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = graph ? rt_ptrmap_get(&c->graphs, graph) : NULL;
    if (!g || !pNode || (ndeps && !deps)) e = cudaErrorInvalidValue;
    for (size_t i = 0; !e && i < ndeps; i++) {
        const rt_graph_node *d = (const rt_graph_node *)deps[i];
        if (!d || d->graph != g) e = cudaErrorInvalidValue;
    }
    rt_graph_node *n = NULL;
    if (!e) {
        n = rt_graph_add(g, type, op, (rt_graph_node *const *)deps, ndeps);
        op = NULL;
        if (!n) e = cudaErrorMemoryAllocation;
    }
    pthread_mutex_unlock(&c->engine_lock);
    rt_op_free(op);
    if (e) return rt_record(e);
    *pNode = (cudaGraphNode_t)n;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies,
                                          const struct cudaKernelNodeParams *p) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!p) return rt_record(cudaErrorInvalidValue);
    if (p->extra) {
        fprintf(stderr, "vcuda: cudaGraphAddKernelNode: kernel parameters through 'extra' "
                        "are not supported\n");
        return rt_record(cudaErrorNotSupported);
    }
    rt_op *op = NULL;
    e = rt_kernel_op(c, p->func, p->gridDim, p->blockDim, p->kernelParams, p->sharedMemBytes, &op);
    if (e) return rt_record(e);
    return rt_graph_add_node(pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeKernel, op);
}

/* A copy node's operation from cudaMemcpy3DParms between pointers (one slice). */
cudaError_t rt_copy_node_op(rt_context *c, const struct cudaMemcpy3DParms *p, rt_op **out) {
    if (!p) return cudaErrorInvalidValue;
    if (p->srcArray || p->dstArray) {
        fprintf(stderr, "vcuda: graph memcpy nodes: CUDA arrays are not supported\n");
        return cudaErrorNotSupported;
    }
    struct cudaExtent x = p->extent;
    if (x.depth > 1) {
        fprintf(stderr, "vcuda: graph memcpy nodes: 3D copies (depth > 1) are not supported\n");
        return cudaErrorNotSupported;
    }
    if (!x.width || !x.height || !x.depth) return cudaErrorInvalidValue;
    size_t spitch = p->srcPtr.pitch, dpitch = p->dstPtr.pitch;
    const char *src = (const char *)p->srcPtr.ptr + p->srcPos.y * spitch + p->srcPos.x;
    char *dst = (char *)p->dstPtr.ptr + p->dstPos.y * dpitch + p->dstPos.x;
    if (x.width > spitch || x.width > dpitch) return cudaErrorInvalidPitchValue;
    size_t sspan = (x.height - 1) * spitch + x.width, dspan = (x.height - 1) * dpitch + x.width;
    cudaError_t e = rt_check_copy(c, dst, dspan, src, sspan, p->kind);
    if (e) return e;
    rt_op *op = rt_op_new(RT_OP_COPY2D);
    if (!op) return cudaErrorMemoryAllocation;
    op->u.copy2d.dst = dst;
    op->u.copy2d.dpitch = dpitch;
    op->u.copy2d.src = src;
    op->u.copy2d.spitch = spitch;
    op->u.copy2d.width = x.width;
    op->u.copy2d.height = x.height;
    op->u.copy2d.dir = p->kind == cudaMemcpyHostToDevice   ? RT_COPY_H2D
                       : p->kind == cudaMemcpyDeviceToHost ? RT_COPY_D2H
                       : p->kind == cudaMemcpyHostToHost   ? RT_COPY_H2H
                                                           : RT_COPY_D2D;
    *out = op;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies,
                                          const struct cudaMemcpy3DParms *pCopyParams) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_op *op = NULL;
    e = rt_copy_node_op(c, pCopyParams, &op);
    if (e) return rt_record(e);
    return rt_graph_add_node(pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeMemcpy, op);
}

/* A one-dimensional copy node's operation (checked). */
cudaError_t rt_copy1d_node_op(rt_context *c, void *dst, const void *src, size_t count,
                              enum cudaMemcpyKind kind, rt_op **out) {
    if (count == 0 || (unsigned)kind > (unsigned)cudaMemcpyDefault) return cudaErrorInvalidValue;
    cudaError_t e = rt_check_copy(c, dst, count, src, count, kind);
    if (e) return e;
    rt_op *op = rt_op_new(RT_OP_COPY);
    if (!op) return cudaErrorMemoryAllocation;
    op->u.copy.dst = dst;
    op->u.copy.src = src;
    op->u.copy.bytes = count;
    op->u.copy.dir = kind == cudaMemcpyHostToDevice   ? RT_COPY_H2D
                     : kind == cudaMemcpyDeviceToHost ? RT_COPY_D2H
                     : kind == cudaMemcpyHostToHost   ? RT_COPY_H2H
                                                      : RT_COPY_D2D;
    *out = op;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies,
                                            size_t numDependencies, void *dst, const void *src,
                                            size_t count, enum cudaMemcpyKind kind) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_op *op = NULL;
    e = rt_copy1d_node_op(c, dst, src, count, kind, &op);
    if (e) return rt_record(e);
    return rt_graph_add_node(pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeMemcpy, op);
}

/* A set node's operation from cudaMemsetParams (checked). */
cudaError_t rt_memset_node_op(rt_context *c, const struct cudaMemsetParams *p, rt_op **out) {
    if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) || !p->width ||
        !p->height)
        return cudaErrorInvalidValue;
    size_t row = p->width * p->elementSize;
    size_t pitch = p->height > 1 ? p->pitch : row;
    if (pitch < row) return cudaErrorInvalidValue;
    if (!rt_device_range_ok(c, p->dst, (p->height - 1) * pitch + row)) return cudaErrorInvalidValue;
    rt_op *op = rt_op_new(RT_OP_SET2D);
    if (!op) return cudaErrorMemoryAllocation;
    op->u.set2d.dst = p->dst;
    op->u.set2d.pitch = pitch;
    op->u.set2d.value = (int)p->value;
    op->u.set2d.width = row;
    op->u.set2d.height = p->height;
    op->u.set2d.elem = p->elementSize;
    *out = op;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies,
                                          const struct cudaMemsetParams *p) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_op *op = NULL;
    e = rt_memset_node_op(c, p, &op);
    if (e) return rt_record(e);
    return rt_graph_add_node(pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeMemset, op);
}

RT_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies,
                                        const struct cudaHostNodeParams *p) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!p || !p->fn) return rt_record(cudaErrorInvalidValue);
    rt_op *op = rt_op_new(RT_OP_HOST_FN);
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    op->u.host_fn.fn = p->fn;
    op->u.host_fn.data = p->userData;
    return rt_graph_add_node(pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeHost, op);
}

RT_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                         const cudaGraphNode_t *pDependencies,
                                         size_t numDependencies) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_op *op = rt_op_new(RT_OP_WAIT);
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    return rt_graph_add_node(pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeEmpty, op);
}

RT_API cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                            const cudaGraphNode_t *to,
                                            const cudaGraphEdgeData *edgeData,
                                            size_t numDependencies) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (edgeData) {
        for (size_t i = 0; i < numDependencies; i++) {
            const cudaGraphEdgeData *d = &edgeData[i];
            if (d->from_port || d->to_port || d->type) {
                fprintf(stderr, "vcuda: cudaGraphAddDependencies: edge ports and types are "
                                "not supported\n");
                return rt_record(cudaErrorNotSupported);
            }
        }
    }
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = graph ? rt_ptrmap_get(&c->graphs, graph) : NULL;
    if (!g || (numDependencies && (!from || !to))) e = cudaErrorInvalidValue;
    for (size_t i = 0; !e && i < numDependencies; i++) {
        rt_graph_node *a = (rt_graph_node *)from[i], *b = (rt_graph_node *)to[i];
        if (!a || !b || a->graph != g || b->graph != g || a == b) e = cudaErrorInvalidValue;
    }
    for (size_t i = 0; !e && i < numDependencies; i++)
        if (!rt_graph_node_follow((rt_graph_node *)to[i], (rt_graph_node *)from[i]))
            e = cudaErrorMemoryAllocation;
    pthread_mutex_unlock(&c->engine_lock);
    return e ? rt_record(e) : cudaSuccess;
}

RT_API cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = graph ? rt_ptrmap_get(&c->graphs, graph) : NULL;
    if (!g || !numNodes) {
        e = cudaErrorInvalidValue;
    } else {
        if (nodes) {
            size_t n = *numNodes < g->nnodes ? *numNodes : g->nnodes;
            for (size_t i = 0; i < n; i++) nodes[i] = (cudaGraphNode_t)g->nodes[i];
            for (size_t i = n; i < *numNodes; i++) nodes[i] = NULL;
        }
        *numNodes = g->nnodes;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return e ? rt_record(e) : cudaSuccess;
}

RT_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType) {
    if (!node || !pType) return rt_record(cudaErrorInvalidValue);
    *pType = ((rt_graph_node *)node)->type;
    return cudaSuccess;
}

/* ---- instantiating ---- */

void rt_graph_exec_free(rt_context *c, rt_graph_exec *x) {
    if (!x) return;
    rt_graph_mem_forget(x);
    for (size_t i = 0; i < x->nops; i++) {
        rt_op_free(x->ops[i]);
        if (x->deps) free(x->deps[i]);
    }
    for (size_t i = 0; i < x->nchains; i++) {
        /* a chain still running goes once its work is done (engine.c) */
        x->chains[i]->destroyed = true;
        c->reap = true;
    }
    free(x->ops);
    free(x->nodes);
    free(x->types);
    free(x->index);
    free(x->child);
    free(x->disabled);
    rt_graph_exec_conds_free(x);
    free(x->deps);
    free(x->ndeps);
    free(x->chain);
    free(x->leaf);
    free(x->chains);
    rt_graph_device_free(x);
    free(x);
}

/* Order g's nodes dependencies first (Kahn, by node index among the ready ones) and split
 * them into chains (engine_lock held). */
static cudaError_t exec_build(rt_context *c, const rt_graph *g, rt_graph_exec **out) {
    size_t n = g->nnodes;
    rt_graph_exec *x = calloc(1, sizeof *x);
    size_t *order = calloc(n ? n : 1, sizeof *order);
    size_t *pos = calloc(n ? n : 1, sizeof *pos);       /* node index -> place in order */
    size_t *waiting = calloc(n ? n : 1, sizeof *waiting);
    bool *placed = calloc(n ? n : 1, sizeof *placed);
    cudaError_t e = cudaSuccess;
    if (!x || !order || !pos || !waiting || !placed) e = cudaErrorMemoryAllocation;
    for (size_t i = 0; !e && i < n; i++) waiting[i] = g->nodes[i]->ndeps;
    size_t done = 0;
    while (!e && done < n) {
        size_t pick = n;
        for (size_t i = 0; i < n && pick == n; i++)
            if (!placed[i] && waiting[i] == 0) pick = i;
        if (pick == n) {
            e = cudaErrorInvalidValue; /* a cycle */
            break;
        }
        placed[pick] = true;
        pos[pick] = done;
        order[done++] = pick;
        for (size_t j = 0; j < n; j++)
            for (size_t d = 0; d < g->nodes[j]->ndeps; d++)
                if (g->nodes[j]->deps[d] == g->nodes[pick]) waiting[j]--;
    }
    if (!e) {
        x->nops = n;
        x->ops = calloc(n ? n : 1, sizeof *x->ops);
        x->deps = calloc(n ? n : 1, sizeof *x->deps);
        x->ndeps = calloc(n ? n : 1, sizeof *x->ndeps);
        x->chain = calloc(n ? n : 1, sizeof *x->chain);
        x->leaf = calloc(n ? n : 1, sizeof *x->leaf);
        x->chains = calloc(n ? n : 1, sizeof *x->chains);
        x->nodes = calloc(n ? n : 1, sizeof *x->nodes);
        x->types = calloc(n ? n : 1, sizeof *x->types);
        x->index = calloc(n ? n : 1, sizeof *x->index);
        x->child = calloc(n ? n : 1, sizeof *x->child);
        if (!x->ops || !x->deps || !x->ndeps || !x->chain || !x->leaf || !x->chains || !x->nodes ||
            !x->types || !x->index || !x->child)
            e = cudaErrorMemoryAllocation;
    }
    size_t *chain_last = calloc(n ? n : 1, sizeof *chain_last); /* chain -> its last node */
    if (!chain_last) e = cudaErrorMemoryAllocation;
    for (size_t k = 0; !e && k < n; k++) {
        rt_graph_node *node = g->nodes[order[k]];
        x->nodes[k] = node;
        x->types[k] = node->type;
        x->index[k] = node->index;
        if (node->type == cudaGraphNodeTypeGraph) x->child[k] = node->x.child;
        x->ops[k] = node->type == cudaGraphNodeTypeConditional ? rt_graph_cond_op(c, x, node)
                    : node->type == cudaGraphNodeTypeGraph     ? rt_graph_child_op(c, x, node)
                                                                : rt_op_clone(node->op);
        x->ndeps[k] = node->ndeps;
        x->deps[k] = calloc(node->ndeps ? node->ndeps : 1, sizeof **x->deps);
        x->leaf[k] = true;
        if (!x->ops[k] || !x->deps[k]) {
            e = cudaErrorMemoryAllocation;
            break;
        }
        size_t chain = SIZE_MAX;
        for (size_t d = 0; d < node->ndeps; d++) {
            size_t dk = pos[node->deps[d]->index];
            x->deps[k][d] = dk;
            x->leaf[dk] = false;
            if (chain == SIZE_MAX && chain_last[x->chain[dk]] == dk) chain = x->chain[dk];
        }
        if (chain == SIZE_MAX) {
            chain = x->nchains;
            x->chains[x->nchains] = rt_stream_new(c, RT_STREAM_GRAPH, cudaStreamNonBlocking, 0);
            if (!x->chains[x->nchains]) {
                e = cudaErrorMemoryAllocation;
                break;
            }
            x->nchains++;
        }
        x->chain[k] = chain;
        chain_last[chain] = k;
    }
    free(chain_last);
    free(order);
    free(pos);
    free(waiting);
    free(placed);
    if (!e) e = rt_graph_exec_defaults(x, g);
    if (e) {
        if (x && x->ops) {
            rt_graph_exec_free(c, x);
        } else {
            free(x);
        }
        return e;
    }
    *out = x;
    return cudaSuccess;
}

static cudaError_t rt_graph_upload(cudaGraphExec_t graphExec, cudaStream_t stream);

/* Instantiate graph with flags; *result and *bad say what cudaGraphInstantiateWithParams
 * gives back (may be NULL). */
static cudaError_t rt_instantiate_ex(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                     unsigned long long flags,
                                     cudaGraphInstantiateResult *result,
                                     cudaGraphNode_t *bad) {
    rt_context *c = rt_ctx();
    cudaGraphInstantiateResult res = cudaGraphInstantiateError;
    const rt_graph_node *node = NULL;
    if (result) *result = res;
    if (bad) *bad = NULL;
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pGraphExec) return rt_record(cudaErrorInvalidValue);
    if (flags & ~(unsigned long long)(cudaGraphInstantiateFlagAutoFreeOnLaunch |
                                      cudaGraphInstantiateFlagUseNodePriority |
                                      cudaGraphInstantiateFlagDeviceLaunch)) {
        fprintf(stderr, "vcuda: cudaGraphInstantiate: flags 0x%llx are not supported\n", flags);
        return rt_record(cudaErrorNotSupported);
    }
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = graph ? rt_ptrmap_get(&c->graphs, graph) : NULL;
    rt_graph_exec *x = NULL;
    if (!g) e = cudaErrorInvalidValue;
    else if (flags & cudaGraphInstantiateFlagDeviceLaunch)
        e = rt_graph_device_check(c, g, flags, &res, &node);
    if (!e) {
        e = exec_build(c, g, &x);
        res = e == cudaErrorInvalidValue ? cudaGraphInstantiateInvalidStructure
              : e                        ? cudaGraphInstantiateError
                                         : cudaGraphInstantiateSuccess;
    }
    if (!e) {
        x->flags = flags;
        e = rt_graph_mem_init(x);
        if (e) {
            res = cudaGraphInstantiateError;
            rt_graph_exec_free(c, x);
            x = NULL;
        }
    }
    if (!e && !rt_ptrmap_put(&c->graph_execs, x, x)) {
        rt_graph_exec_free(c, x);
        e = cudaErrorMemoryAllocation;
        res = cudaGraphInstantiateError;
    }
    pthread_mutex_unlock(&c->engine_lock);
    if (result) *result = res;
    if (bad) *bad = (cudaGraphNode_t)node;
    if (e) return rt_record(e);
    rt_userobj_copy(g, x); /* the executable graph keeps the graph's user objects */
    *pGraphExec = (cudaGraphExec_t)x;
    return cudaSuccess;
}

static cudaError_t rt_instantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                  unsigned long long flags) {
    return rt_instantiate_ex(pGraphExec, graph, flags, NULL, NULL);
}

RT_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                        unsigned long long flags) {
    return rt_instantiate(pGraphExec, graph, flags);
}

RT_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                 unsigned long long flags) {
    return rt_instantiate(pGraphExec, graph, flags);
}

static cudaError_t rt_instantiate_with_params(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                              cudaGraphInstantiateParams *p, bool per_thread) {
    if (!p) return rt_record(cudaErrorInvalidValue);
    cudaGraphInstantiateResult result;
    cudaGraphNode_t bad;
    cudaError_t e = rt_instantiate_ex(
        pGraphExec, graph, p->flags & ~(unsigned long long)cudaGraphInstantiateFlagUpload,
        &result, &bad);
    if (!e && (p->flags & cudaGraphInstantiateFlagUpload)) {
        e = rt_graph_upload(*pGraphExec, per_thread ? rt_per_thread(p->uploadStream)
                                                    : p->uploadStream);
        if (e) result = cudaGraphInstantiateError;
    }
    p->result_out = result;
    p->errNode_out = bad;
    return e;
}

RT_API cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                  cudaGraphInstantiateParams *instantiateParams) {
    return rt_instantiate_with_params(pGraphExec, graph, instantiateParams, false);
}

RT_API cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec,
                                                       cudaGraph_t graph,
                                                       cudaGraphInstantiateParams *instantiateParams) {
    return rt_instantiate_with_params(pGraphExec, graph, instantiateParams, true);
}

RT_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_exec *x = graphExec ? rt_ptrmap_remove(&c->graph_execs, graphExec) : NULL;
    pthread_mutex_unlock(&c->engine_lock);
    if (x) rt_userobj_release_all(x); /* destructors run without the engine's lock */
    pthread_mutex_lock(&c->engine_lock);
    if (x) rt_graph_exec_free(c, x);
    rt_reap(c);
    pthread_mutex_unlock(&c->engine_lock);
    return x ? cudaSuccess : rt_record(cudaErrorInvalidValue);
}

/* ---- launching ---- */

static void must(bool ok) {
    if (!ok) {
        fprintf(stderr, "vcuda: out of host memory launching a graph\n");
        abort();
    }
}

static cudaError_t rt_graph_launch(cudaGraphExec_t graphExec, cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_exec *x = graphExec ? rt_ptrmap_get(&c->graph_execs, graphExec) : NULL;
    rt_stream *s = x ? rt_stream_lookup(c, stream) : NULL;
    if (!x) e = cudaErrorInvalidValue;
    else if (!s) e = cudaErrorInvalidResourceHandle;
    else e = rt_capture_check(c, s, false);
    if (!e && s->capture) {
        fprintf(stderr, "vcuda: cudaGraphLaunch into a capturing stream (child graphs) is "
                        "not supported\n");
        s->capture->invalid = true;
        e = cudaErrorStreamCaptureUnsupported;
    }
    if (e) {
        pthread_mutex_unlock(&c->engine_lock);
        return rt_record(e);
    }
    /* The graph starts after the stream's earlier work (an empty operation of the stream
     * stands for that point) and the stream goes on after all of the graph's ends. */
    rt_graph_mem_launch(x, s);
    /* Kernels that launch device graphs get the launch's execution environment, where
     * their tail launches wait for the whole graph (an operation after its last nodes
     * runs them); a device graph counts as running from here. */
    gpu_dp_env *env = NULL;
    if (rt_graph_exec_launches_graphs(x)) {
        env = gpu_graph_env_new(x->flags & cudaGraphInstantiateFlagDeviceLaunch
                                    ? (uint64_t)(uintptr_t)x : 0);
        must(env != NULL);
    }
    rt_op *entry = rt_graph_exec_entry_op(x);
    must(entry != NULL);
    rt_mark *start = rt_issue_locked(c, s, entry, true);
    rt_mark **marks = calloc(x->nops ? x->nops : 1, sizeof *marks);
    must(marks != NULL);
    for (size_t k = 0; k < x->nops; k++) {
        /* a disabled node does nothing (cudaGraphNodeSetEnabled) */
        rt_op *op = x->disabled && x->disabled[k] ? rt_op_new(RT_OP_WAIT) : rt_op_clone(x->ops[k]);
        must(op != NULL);
        /* a device graph's kernels know it (cudaGetCurrentGraphExec) */
        if (op->kind == RT_OP_KERNEL && (x->flags & cudaGraphInstantiateFlagDeviceLaunch))
            op->u.kernel.graph_exec = (uint64_t)(uintptr_t)x;
        if (op->kind == RT_OP_KERNEL) op->u.kernel.graph_env = env;
        if (op->kind == RT_OP_COND) op->u.cond.graph_env = env;
        if (x->ndeps[k] == 0) must(rt_op_add_dep(op, start));
        for (size_t d = 0; d < x->ndeps[k]; d++) must(rt_op_add_dep(op, marks[x->deps[k][d]]));
        /* event nodes: a wait follows the event's latest record as the launch is issued; a
         * record becomes the event's latest (as cudaStreamWaitEvent and cudaEventRecord) */
        enum cudaGraphNodeType t = x->types[k];
        rt_event *ev = t == cudaGraphNodeTypeWaitEvent || t == cudaGraphNodeTypeEventRecord
                           ? op->u.event.event : NULL;
        if (ev && !rt_ptrmap_get(&c->events, ev)) { /* destroyed since: nothing to do */
            op->kind = RT_OP_WAIT;
            ev = NULL;
        }
        if (ev && t == cudaGraphNodeTypeWaitEvent && ev->mark) must(rt_op_add_dep(op, ev->mark));
        if (ev && t == cudaGraphNodeTypeEventRecord) ev->refs++; /* the record holds it */
        marks[k] = rt_issue_locked(c, x->chains[x->chain[k]], op, true);
        if (ev && t == cudaGraphNodeTypeEventRecord) {
            rt_mark_unref(c, ev->mark);
            ev->mark = marks[k];
            marks[k]->refs++;
            rt_event_forget_capture(ev);
        }
    }
    rt_op *join = rt_op_new(RT_OP_WAIT);
    must(join != NULL);
    for (size_t k = 0; k < x->nops; k++)
        if (x->leaf[k]) must(rt_op_add_dep(join, marks[k]));
    if (x->nops == 0) must(rt_op_add_dep(join, start));
    rt_issue_locked(c, s, join, false);
    if (env) {
        rt_op *tails = rt_op_new(RT_OP_GRAPH_TAILS);
        if (!tails) gpu_graph_env_free(env);
        must(tails != NULL);
        tails->u.tails.env = env;
        rt_issue_locked(c, s, tails, false);
    }
    rt_progress_graph(c, marks, x->nops);
    for (size_t k = 0; k < x->nops; k++) rt_mark_unref(c, marks[k]);
    rt_mark_unref(c, start);
    free(marks);
    pthread_mutex_unlock(&c->engine_lock);
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
    return rt_graph_launch(graphExec, stream);
}

RT_API cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream) {
    return rt_graph_launch(graphExec, rt_per_thread(stream));
}

/* A device graph gets the list of what the stream's device runs when a kernel launches
 * it (graph_device.c); other graphs have nothing to upload to an emulated device. The
 * arguments are checked either way. */
static cudaError_t rt_graph_upload(cudaGraphExec_t graphExec, cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_exec *x = graphExec ? rt_ptrmap_get(&c->graph_execs, graphExec) : NULL;
    rt_stream *s = x ? rt_stream_lookup(c, stream) : NULL;
    if (!x) e = cudaErrorInvalidValue;
    else if (!s) e = cudaErrorInvalidResourceHandle;
    else if (x->flags & cudaGraphInstantiateFlagDeviceLaunch)
        e = rt_graph_device_upload(c, x, s->device);
    pthread_mutex_unlock(&c->engine_lock);
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
    return rt_graph_upload(graphExec, stream);
}

RT_API cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream) {
    return rt_graph_upload(graphExec, rt_per_thread(stream));
}

/* Graphs and executable graphs go with the context (cudaDeviceReset; engine_lock held). */
void rt_graphs_reset(rt_context *c) {
    for (size_t i = 0; i < c->graph_execs.cap; i++)
        if (c->graph_execs.keys[i]) rt_graph_exec_free(c, c->graph_execs.values[i]);
    rt_ptrmap_free(&c->graph_execs);
    for (size_t i = 0; i < c->graphs.cap; i++)
        if (c->graphs.keys[i]) rt_graph_free(c->graphs.values[i]);
    rt_ptrmap_free(&c->graphs);
}
