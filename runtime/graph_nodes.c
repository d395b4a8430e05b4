/* runtime/graph_nodes.c — the graph API beyond building and launching (graph.c): node
 * queries (roots, edges, dependencies), kernel node parameters in a graph and in an
 * executable graph, cudaGraphExecUpdate, cloning, the generic cudaGraphAddNode, memory
 * allocation and free nodes (the memory they map: graph_mem.c).
 *
 * Memory nodes. An alloc node's memory is allocated when the node is made (its address
 * is fixed from then on, as CUDA's is) and lives while the device does; the free node
 * names it. An alloc node ordered after the free node of another allocation of its
 * graph takes that allocation's address instead, when the memory holds it.
 *
 * cudaGraphExecUpdate takes the new graph's parameters when the two graphs have the same
 * nodes (by position) of the same types with the same dependencies (child graphs: the same
 * topology again, inside), else fails with cudaErrorGraphExecUpdateFailure and
 * cudaGraphExecUpdateErrorTopologyChanged.
 */
#include "graph_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rt_graph *rt_graph_of(rt_context *c, cudaGraph_t h) {
    return h ? rt_ptrmap_get(&c->graphs, h) : NULL;
}

/* Copy up to *n entries of list to out (when out is given) and say how many there are;
 * the rest of out is zeroed, as CUDA does. */
static void rt_node_list(rt_graph_node *const *list, size_t count, cudaGraphNode_t *out,
                         size_t *n) {
    if (out) {
        size_t k = *n < count ? *n : count;
        for (size_t i = 0; i < k; i++) out[i] = (cudaGraphNode_t)list[i];
        for (size_t i = k; i < *n; i++) out[i] = NULL;
    }
    *n = count;
}

static void rt_zero_edges(cudaGraphEdgeData *edges, size_t n) {
    if (edges) memset(edges, 0, n * sizeof *edges);
}

RT_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                         size_t *pNumRootNodes) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = rt_graph_of(c, graph);
    rt_graph_node **roots = g ? calloc(g->nnodes ? g->nnodes : 1, sizeof *roots) : NULL;
    if (!g || !pNumRootNodes) e = cudaErrorInvalidValue;
    else if (!roots) e = cudaErrorMemoryAllocation;
    else {
        size_t n = 0;
        for (size_t i = 0; i < g->nnodes; i++)
            if (!g->nodes[i]->ndeps) roots[n++] = g->nodes[i];
        rt_node_list(roots, n, pRootNodes, pNumRootNodes);
    }
    free(roots);
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
                                     cudaGraphNode_t *to, cudaGraphEdgeData *edgeData,
                                     size_t *numEdges) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = rt_graph_of(c, graph);
    if (!g || !numEdges || (!from) != (!to)) {
        e = cudaErrorInvalidValue;
    } else {
        size_t n = 0;
        for (size_t i = 0; i < g->nnodes; i++) {
            const rt_graph_node *node = g->nodes[i];
            for (size_t d = 0; d < node->ndeps; d++, n++) {
                if (!from || n >= *numEdges) continue;
                from[n] = (cudaGraphNode_t)node->deps[d];
                to[n] = (cudaGraphNode_t)node;
            }
        }
        if (from) {
            for (size_t k = n; k < *numEdges; k++) from[k] = to[k] = NULL;
            rt_zero_edges(edgeData, *numEdges);
        }
        *numEdges = n;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
                                                cudaGraphNode_t *pDependencies,
                                                cudaGraphEdgeData *edgeData,
                                                size_t *pNumDependencies) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!node || !pNumDependencies) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_node *n = (rt_graph_node *)node;
    if (pDependencies) rt_zero_edges(edgeData, *pNumDependencies);
    rt_node_list(n->deps, n->ndeps, pDependencies, pNumDependencies);
    pthread_mutex_unlock(&c->engine_lock);
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
                                                  cudaGraphNode_t *pDependentNodes,
                                                  cudaGraphEdgeData *edgeData,
                                                  size_t *pNumDependentNodes) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!node || !pNumDependentNodes) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_node *n = (rt_graph_node *)node;
    rt_graph *g = n->graph;
    rt_graph_node **list = calloc(g->nnodes ? g->nnodes : 1, sizeof *list);
    if (!list) {
        e = cudaErrorMemoryAllocation;
    } else {
        size_t k = 0;
        for (size_t i = 0; i < g->nnodes; i++)
            for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
                if (g->nodes[i]->deps[d] == n) {
                    list[k++] = g->nodes[i];
                    break;
                }
        if (pDependentNodes) rt_zero_edges(edgeData, *pNumDependentNodes);
        rt_node_list(list, k, pDependentNodes, pNumDependentNodes);
    }
    free(list);
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to,
                                               const cudaGraphEdgeData *edgeData,
                                               size_t numDependencies) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    (void)edgeData;
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = rt_graph_of(c, graph);
    if (!g || (numDependencies && (!from || !to))) e = cudaErrorInvalidValue;
    for (size_t i = 0; !e && i < numDependencies; i++) {
        rt_graph_node *a = (rt_graph_node *)from[i], *b = (rt_graph_node *)to[i];
        if (!a || !b || a->graph != g || b->graph != g) {
            e = cudaErrorInvalidValue;
            break;
        }
        size_t d = 0;
        while (d < b->ndeps && b->deps[d] != a) d++;
        if (d == b->ndeps) {
            e = cudaErrorInvalidValue; /* no such edge */
            break;
        }
        memmove(&b->deps[d], &b->deps[d + 1], (b->ndeps - d - 1) * sizeof *b->deps);
        b->ndeps--;
    }
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!node) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_node *n = (rt_graph_node *)node;
    rt_graph *g = n->graph;
    for (size_t i = 0; i < g->nnodes; i++) {
        rt_graph_node *m = g->nodes[i];
        for (size_t d = 0; d < m->ndeps;) {
            if (m->deps[d] == n) {
                memmove(&m->deps[d], &m->deps[d + 1], (m->ndeps - d - 1) * sizeof *m->deps);
                m->ndeps--;
            } else {
                d++;
            }
        }
    }
    memmove(&g->nodes[n->index], &g->nodes[n->index + 1],
            (g->nnodes - n->index - 1) * sizeof *g->nodes);
    g->nnodes--;
    for (size_t i = n->index; i < g->nnodes; i++) g->nodes[i]->index = i;
    rt_op_free(n->op);
    free(n->deps);
    free(n->kernel_args);
    free(n->attrs);
    if (n->type == cudaGraphNodeTypeConditional) free(n->x.cond.bodies);
    free(n);
    pthread_mutex_unlock(&c->engine_lock);
    return cudaSuccess;
}

/* ---- kernel node parameters ---- */

/* A kernel node's parameters as CUDA gives them back: kernelParams points into the node's
 * own copy of the arguments (c->lock not held). */
static cudaError_t rt_kernel_params_of(rt_graph_node *n, struct cudaKernelNodeParams *p) {
    if (n->type != cudaGraphNodeTypeKernel || n->op->kind != RT_OP_KERNEL)
        return cudaErrorInvalidValue;
    const rt_op *op = n->op;
    const exec_kernel_info *info = exec_kernel_get_info(op->u.kernel.func->kernel);
    if (!n->kernel_args) {
        n->kernel_args = calloc(info->nparams ? info->nparams : 1, sizeof *n->kernel_args);
        if (!n->kernel_args) return cudaErrorMemoryAllocation;
    }
    for (uint32_t i = 0; i < info->nparams; i++)
        n->kernel_args[i] = op->u.kernel.params + info->param_offsets[i];
    memset(p, 0, sizeof *p);
    p->func = (void *)op->u.kernel.func->host_stub;
    p->gridDim = (dim3){op->u.kernel.grid.x, op->u.kernel.grid.y, op->u.kernel.grid.z};
    p->blockDim = (dim3){op->u.kernel.block.x, op->u.kernel.block.y, op->u.kernel.block.z};
    p->sharedMemBytes = op->u.kernel.dyn_shared;
    p->kernelParams = n->kernel_args;
    p->extra = NULL;
    return cudaSuccess;
}

/* A kernel operation from node parameters (checked as a launch is). */
static cudaError_t rt_kernel_node_op(rt_context *c, const void *func, dim3 grid, dim3 block,
                                     unsigned shared, void **args, void **extra, rt_op **out) {
    if (extra) {
        fprintf(stderr, "vcuda: kernel node parameters through 'extra' are not supported\n");
        return cudaErrorNotSupported;
    }
    return rt_kernel_op(c, func, grid, block, args, shared, out);
}

RT_API cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                                struct cudaKernelNodeParams *pNodeParams) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!node || !pNodeParams) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    e = rt_kernel_params_of((rt_graph_node *)node, pNodeParams);
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                const struct cudaKernelNodeParams *p) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_graph_node *n = (rt_graph_node *)node;
    if (!n || !p || n->type != cudaGraphNodeTypeKernel) return rt_record(cudaErrorInvalidValue);
    rt_op *op = NULL;
    e = rt_kernel_node_op(c, p->func, p->gridDim, p->blockDim, p->sharedMemBytes,
                          p->kernelParams, p->extra, &op);
    if (e) return rt_record(e);
    pthread_mutex_lock(&c->engine_lock);
    rt_op_free(n->op);
    n->op = op;
    pthread_mutex_unlock(&c->engine_lock);
    return cudaSuccess;
}

/* The place of graph node n in executable graph x, or SIZE_MAX (engine_lock held). */
static size_t rt_exec_place(const rt_graph_exec *x, const rt_graph_node *n) {
    for (size_t k = 0; k < x->nops; k++)
        if (x->nodes[k] == n) return k;
    return SIZE_MAX;
}

RT_API cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
                                                    cudaGraphNode_t node,
                                                    const struct cudaKernelNodeParams *p) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_graph_node *n = (rt_graph_node *)node;
    if (!n || !p || n->type != cudaGraphNodeTypeKernel) return rt_record(cudaErrorInvalidValue);
    rt_op *op = NULL;
    e = rt_kernel_node_op(c, p->func, p->gridDim, p->blockDim, p->sharedMemBytes,
                          p->kernelParams, p->extra, &op);
    if (e) return rt_record(e);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_exec *x = hGraphExec ? rt_ptrmap_get(&c->graph_execs, hGraphExec) : NULL;
    size_t k = x ? rt_exec_place(x, n) : SIZE_MAX;
    if (k == SIZE_MAX) {
        e = cudaErrorInvalidValue;
    } else {
        /* launches already issued have their own copies (graph.c) */
        rt_op_free(x->ops[k]);
        x->ops[k] = op;
        op = NULL;
    }
    pthread_mutex_unlock(&c->engine_lock);
    rt_op_free(op);
    return rt_record(e);
}

/* ---- updating an executable graph from another graph ---- */

/* The node types whose parameters cudaGraphExecUpdate takes over (the Runtime API's table
 * for cudaGraphExecNodeSetParams): kernels, copies, sets, host functions, child graphs of
 * the same topology, event records and waits, external semaphore operations (vcuda's hold
 * none: graph_extsem.c). Memory and conditional nodes are not updatable. */
static bool rt_exec_update_takes(enum cudaGraphNodeType type) {
    switch (type) {
    case cudaGraphNodeTypeKernel: case cudaGraphNodeTypeEmpty: case cudaGraphNodeTypeMemcpy:
    case cudaGraphNodeTypeMemset: case cudaGraphNodeTypeHost: case cudaGraphNodeTypeGraph:
    case cudaGraphNodeTypeEventRecord: case cudaGraphNodeTypeWaitEvent:
    case cudaGraphNodeTypeExtSemaphoreSignal: case cudaGraphNodeTypeExtSemaphoreWait:
        return true;
    default:
        return false;
    }
}

RT_API cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                       cudaGraphExecUpdateResultInfo *resultInfo) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!resultInfo) return rt_record(cudaErrorInvalidValue);
    memset(resultInfo, 0, sizeof *resultInfo);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_exec *x = hGraphExec ? rt_ptrmap_get(&c->graph_execs, hGraphExec) : NULL;
    rt_graph *g = rt_graph_of(c, hGraph);
    if (!x || !g) {
        pthread_mutex_unlock(&c->engine_lock);
        return rt_record(cudaErrorInvalidValue);
    }
    /* the graph x came from, node for node */
    enum cudaGraphExecUpdateResult why = cudaGraphExecUpdateSuccess;
    rt_graph_node *bad = NULL;
    if (x->nops != g->nnodes) why = cudaGraphExecUpdateErrorTopologyChanged;
    for (size_t k = 0; !why && k < x->nops; k++) {
        /* what x knows of its node (the graph it came from may be gone) */
        enum cudaGraphNodeType type = x->types[k];
        rt_graph_node *now = x->index[k] < g->nnodes ? g->nodes[x->index[k]] : NULL;
        if (!now || now->type != type || now->ndeps != x->ndeps[k]) {
            why = now && now->type != type ? cudaGraphExecUpdateErrorNodeTypeChanged
                                           : cudaGraphExecUpdateErrorTopologyChanged;
            bad = now;
            break;
        }
        for (size_t d = 0; d < x->ndeps[k] && !why; d++)
            if (now->deps[d]->index != x->index[x->deps[k][d]]) {
                why = cudaGraphExecUpdateErrorTopologyChanged;
                bad = now;
            }
        /* a kernel node may take another kernel (an H200 updates mul for add:
         * tests/cuda/rtapi/graph_update_nodes.cu); a child graph of another topology
         * names no node there */
        if (!why && type == cudaGraphNodeTypeGraph &&
            !rt_graph_same_topology(x->child[k], now->x.child))
            why = cudaGraphExecUpdateErrorTopologyChanged;
        if (!why && !rt_exec_update_takes(type)) {
            why = cudaGraphExecUpdateErrorUnsupportedFunctionChange;
            bad = now;
        }
    }
    rt_op **ops = NULL;
    if (!why) {
        ops = calloc(x->nops ? x->nops : 1, sizeof *ops);
        for (size_t k = 0; ops && k < x->nops; k++) {
            const rt_graph_node *now = g->nodes[x->index[k]];
            /* a child graph node's body is built anew from the new child graph, whose
             * topology is the one x->child[k] keeps */
            ops[k] = x->types[k] == cudaGraphNodeTypeGraph ? rt_graph_child_op(c, x, now)
                                                           : rt_op_clone(now->op);
            if (!ops[k]) {
                for (size_t j = 0; j < k; j++) rt_op_free(ops[j]);
                free(ops);
                ops = NULL;
            }
        }
        if (!ops) e = cudaErrorMemoryAllocation;
        for (size_t k = 0; ops && k < x->nops; k++) {
            rt_op_free(x->ops[k]);
            x->ops[k] = ops[k];
        }
        free(ops);
    } else {
        e = cudaErrorGraphExecUpdateFailure;
        resultInfo->errorNode = (cudaGraphNode_t)bad;
    }
    resultInfo->result = why;
    pthread_mutex_unlock(&c->engine_lock);
    return rt_record(e);
}

/* ---- cloning ---- */

RT_API cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pGraphClone) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = rt_graph_of(c, originalGraph);
    rt_graph *copy = g ? rt_graph_new() : NULL;
    if (!g) e = cudaErrorInvalidValue;
    else if (!copy) e = cudaErrorMemoryAllocation;
    for (size_t i = 0; !e && i < g->nnodes; i++) {
        const rt_graph_node *n = g->nodes[i];
        rt_op *op = rt_op_clone(n->op);
        rt_graph_node **deps = calloc(n->ndeps ? n->ndeps : 1, sizeof *deps);
        for (size_t d = 0; deps && d < n->ndeps; d++) deps[d] = copy->nodes[n->deps[d]->index];
        rt_graph_node *m = op && deps ? rt_graph_add(copy, n->type, op, deps, n->ndeps) : NULL;
        if (!m && !deps) rt_op_free(op);
        free(deps);
        if (!m) {
            e = cudaErrorMemoryAllocation;
            break;
        }
        m->origin = (rt_graph_node *)n;
        m->x = n->x;
        if (n->attrs) {
            m->attrs = malloc(RT_NODE_ATTRS * sizeof *m->attrs);
            if (!m->attrs) e = cudaErrorMemoryAllocation;
            else memcpy(m->attrs, n->attrs, RT_NODE_ATTRS * sizeof *m->attrs);
        }
        if (n->type == cudaGraphNodeTypeConditional) {
            m->x.cond.bodies = malloc(n->x.cond.size * sizeof *m->x.cond.bodies);
            if (!m->x.cond.bodies) e = cudaErrorMemoryAllocation;
            else memcpy(m->x.cond.bodies, n->x.cond.bodies,
                        n->x.cond.size * sizeof *m->x.cond.bodies);
        }
    }
    if (!e && !rt_ptrmap_put(&c->graphs, copy, copy)) e = cudaErrorMemoryAllocation;
    if (e) rt_graph_free(copy);
    pthread_mutex_unlock(&c->engine_lock);
    if (e) return rt_record(e);
    rt_userobj_copy(g, copy);
    *pGraphClone = (cudaGraph_t)copy;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                            cudaGraph_t clonedGraph) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pNode || !originalNode) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = rt_graph_of(c, clonedGraph);
    rt_graph_node *found = NULL;
    for (size_t i = 0; g && i < g->nnodes && !found; i++)
        if (g->nodes[i]->origin == (rt_graph_node *)originalNode) found = g->nodes[i];
    pthread_mutex_unlock(&c->engine_lock);
    if (!found) return rt_record(cudaErrorInvalidValue);
    *pNode = (cudaGraphNode_t)found;
    return cudaSuccess;
}

/* ---- memory nodes ---- */

/* The address an alloc node of g may take over: that of an allocation of the same graph
 * which a free node among the new node's ancestors frees, as CUDA gives it (an allocation
 * ordered after the free of another can use its virtual address: the Programming Guide's
 * "Graph Memory Nodes"; an H200 hands the address on, tests/cuda/rtapi/graph_alloc_reuse.cu).
 * The address qualifies when every alloc node holding it is freed among the ancestors and
 * its memory (the largest size asked of it) holds bytesize; else NULL. */
static void *rt_alloc_reuse(rt_graph *g, const cudaGraphNode_t *deps, size_t ndeps,
                            size_t bytesize) {
    if (!g || !ndeps || !g->nnodes) return NULL;
    bool *seen = calloc(g->nnodes, sizeof *seen);
    rt_graph_node **todo = malloc(g->nnodes * sizeof *todo);
    void *found = NULL;
    if (!seen || !todo) goto out;
    size_t n = 0;
    for (size_t i = 0; i < ndeps; i++) {
        rt_graph_node *d = (rt_graph_node *)deps[i];
        if (!d || d->graph != g || d->index >= g->nnodes || seen[d->index]) continue;
        seen[d->index] = true;
        todo[n++] = d;
    }
    while (n) { /* mark every ancestor */
        rt_graph_node *d = todo[--n];
        for (size_t i = 0; i < d->ndeps; i++)
            if (!seen[d->deps[i]->index]) {
                seen[d->deps[i]->index] = true;
                todo[n++] = d->deps[i];
            }
    }
    for (size_t i = 0; i < g->nnodes && !found; i++) {
        rt_graph_node *f = g->nodes[i];
        if (!seen[i] || f->type != cudaGraphNodeTypeMemFree) continue;
        void *p = f->x.free_ptr;
        size_t holders = 0, frees = 0, room = 0;
        for (size_t k = 0; k < g->nnodes; k++) {
            rt_graph_node *m = g->nodes[k];
            if (m->type == cudaGraphNodeTypeMemAlloc && m->x.alloc.dptr == p) {
                holders++;
                if (m->x.alloc.bytesize > room) room = m->x.alloc.bytesize;
            } else if (m->type == cudaGraphNodeTypeMemFree && m->x.free_ptr == p && seen[k]) {
                frees++;
            }
        }
        if (holders && frees >= holders && room >= bytesize) found = p;
    }
out:
    free(seen);
    free(todo);
    return found;
}

static cudaError_t rt_alloc_node(rt_context *c, cudaGraphNode_t *pNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *deps, size_t ndeps,
                                 const struct cudaMemPoolProps *props,
                                 const struct cudaMemAccessDesc *access, size_t naccess,
                                 size_t bytesize, void **dptr) {
    if (!dptr || !bytesize || props->allocType != cudaMemAllocationTypePinned ||
        props->location.type != cudaMemLocationTypeDevice || (naccess && !access))
        return cudaErrorInvalidValue;
    if (props->location.id != 0) return cudaErrorInvalidDevice;
    pthread_mutex_lock(&c->engine_lock);
    void *p = rt_alloc_reuse(rt_graph_of(c, graph), deps, ndeps, bytesize);
    pthread_mutex_unlock(&c->engine_lock);
    cudaError_t e = p ? cudaSuccess
                      : rt_allocate(c, &p, bytesize, MEM_KIND_DEVICE, RT_MEM_FLAG_GRAPH);
    if (e) return e;
    rt_op *op = rt_op_new(RT_OP_WAIT);
    if (!op) return cudaErrorMemoryAllocation;
    e = rt_graph_add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeMemAlloc, op);
    if (e) return e;
    rt_graph_node *n = (rt_graph_node *)*pNode;
    n->x.alloc.dptr = p;
    n->x.alloc.bytesize = bytesize;
    n->x.alloc.props = *props;
    *dptr = p;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies,
                                            size_t numDependencies,
                                            struct cudaMemAllocNodeParams *nodeParams) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!nodeParams) return rt_record(cudaErrorInvalidValue);
    return rt_record(rt_alloc_node(c, pGraphNode, graph, pDependencies, numDependencies,
                                   &nodeParams->poolProps, nodeParams->accessDescs,
                                   nodeParams->accessDescCount, nodeParams->bytesize,
                                   &nodeParams->dptr));
}

static cudaError_t rt_free_node(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                const cudaGraphNode_t *deps, size_t ndeps, void *dptr) {
    rt_context *c = rt_ctx();
    if (!dptr || !rt_device_range_ok(c, dptr, 1)) return cudaErrorInvalidValue;
    rt_op *op = rt_op_new(RT_OP_WAIT);
    if (!op) return cudaErrorMemoryAllocation;
    cudaError_t e = rt_graph_add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeMemFree, op);
    if (!e) ((rt_graph_node *)*pNode)->x.free_ptr = dptr;
    return e;
}

RT_API cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies,
                                           size_t numDependencies, void *dptr) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    return rt_record(rt_free_node(pGraphNode, graph, pDependencies, numDependencies, dptr));
}

RT_API cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                                  struct cudaMemAllocNodeParams *params_out) {
    rt_graph_node *n = (rt_graph_node *)node;
    if (!n || !params_out || n->type != cudaGraphNodeTypeMemAlloc)
        return rt_record(cudaErrorInvalidValue);
    memset(params_out, 0, sizeof *params_out);
    params_out->poolProps = n->x.alloc.props;
    params_out->bytesize = n->x.alloc.bytesize;
    params_out->dptr = n->x.alloc.dptr;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out) {
    rt_graph_node *n = (rt_graph_node *)node;
    if (!n || !dptr_out || n->type != cudaGraphNodeTypeMemFree)
        return rt_record(cudaErrorInvalidValue);
    memcpy(dptr_out, &n->x.free_ptr, sizeof(void *));
    return cudaSuccess;
}

/* ---- the generic form ---- */

static cudaError_t rt_cond_node(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                const cudaGraphNode_t *deps, size_t ndeps,
                                struct cudaConditionalNodeParams *p) {
    rt_context *c = rt_ctx();
    bool size_ok = p->type == cudaGraphCondTypeWhile  ? p->size == 1
                   : p->type == cudaGraphCondTypeIf   ? p->size == 1 || p->size == 2
                   : p->type == cudaGraphCondTypeSwitch ? p->size >= 1
                                                        : false;
    if (!size_ok || !rt_graph_cond_handle_ok(p->handle)) return cudaErrorInvalidValue;
    rt_graph **bodies = calloc(p->size, sizeof *bodies);
    if (!bodies) return cudaErrorMemoryAllocation;
    cudaError_t e = cudaSuccess;
    for (unsigned i = 0; i < p->size && !e; i++) {
        cudaGraph_t b = NULL;
        e = cudaGraphCreate(&b, 0);
        bodies[i] = (rt_graph *)b;
    }
    rt_op *op = e ? NULL : rt_op_new(RT_OP_WAIT);
    if (!e && !op) e = cudaErrorMemoryAllocation;
    if (!e) e = rt_graph_add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeConditional, op);
    if (e) {
        for (unsigned i = 0; i < p->size; i++)
            if (bodies[i]) cudaGraphDestroy((cudaGraph_t)bodies[i]);
        free(bodies);
        return e;
    }
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_node *n = (rt_graph_node *)*pNode;
    n->x.cond.handle = p->handle;
    n->x.cond.type = p->type;
    n->x.cond.size = p->size;
    n->x.cond.bodies = bodies;
    pthread_mutex_unlock(&c->engine_lock);
    p->phGraph_out = (cudaGraph_t *)n->x.cond.bodies;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies,
                                    const cudaGraphEdgeData *dependencyData,
                                    size_t numDependencies, struct cudaGraphNodeParams *p) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!p) return rt_record(cudaErrorInvalidValue);
    for (size_t i = 0; dependencyData && i < numDependencies; i++) {
        const cudaGraphEdgeData *d = &dependencyData[i];
        if (d->from_port || d->to_port || d->type) {
            fprintf(stderr, "vcuda: cudaGraphAddNode: edge ports and types are not supported\n");
            return rt_record(cudaErrorNotSupported);
        }
    }
    const cudaGraphNode_t *deps = pDependencies;
    size_t nd = numDependencies;
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        rt_op *op = NULL;
        e = rt_kernel_node_op(c, p->kernel.func, p->kernel.gridDim, p->kernel.blockDim,
                              p->kernel.sharedMemBytes, p->kernel.kernelParams,
                              p->kernel.extra, &op);
        if (!e) e = rt_graph_add_node(pGraphNode, graph, deps, nd, cudaGraphNodeTypeKernel, op);
        return rt_record(e);
    }
    case cudaGraphNodeTypeMemcpy:
        return cudaGraphAddMemcpyNode(pGraphNode, graph, deps, nd, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        struct cudaMemsetParams m = {p->memset.dst, p->memset.pitch, p->memset.value,
                                     p->memset.elementSize, p->memset.width, p->memset.height};
        return cudaGraphAddMemsetNode(pGraphNode, graph, deps, nd, &m);
    }
    case cudaGraphNodeTypeHost: {
        struct cudaHostNodeParams h = {p->host.fn, p->host.userData};
        return cudaGraphAddHostNode(pGraphNode, graph, deps, nd, &h);
    }
    case cudaGraphNodeTypeEmpty:
        return cudaGraphAddEmptyNode(pGraphNode, graph, deps, nd);
    case cudaGraphNodeTypeMemAlloc:
        return rt_record(rt_alloc_node(c, pGraphNode, graph, deps, nd, &p->alloc.poolProps,
                                       p->alloc.accessDescs, p->alloc.accessDescCount,
                                       p->alloc.bytesize, &p->alloc.dptr));
    case cudaGraphNodeTypeMemFree:
        return rt_record(rt_free_node(pGraphNode, graph, deps, nd, p->free.dptr));
    case cudaGraphNodeTypeConditional:
        return rt_record(rt_cond_node(pGraphNode, graph, deps, nd, &p->conditional));
    case cudaGraphNodeTypeExtSemaphoreSignal:
    case cudaGraphNodeTypeExtSemaphoreWait:
        return rt_graph_add_extsem_node(pGraphNode, graph, deps, nd, p);
    default:
        fprintf(stderr, "vcuda: cudaGraphAddNode: nodes of type %d are not supported\n",
                (int)p->type);
        return rt_record(cudaErrorNotSupported);
    }
}
