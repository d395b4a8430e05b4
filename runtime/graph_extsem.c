/* runtime/graph_extsem.c — external semaphore signal and wait nodes of graphs
 * (cudaGraphAddExternalSemaphoresSignalNode / WaitNode, their getters and setters, in a
 * graph and in an executable graph, and the generic cudaGraphAddNode form).
 *
 * An external semaphore comes from another API (a Vulkan or Direct3D fence, NvSciSync)
 * through cudaImportExternalSemaphore. vcuda has no such API beside it, so the import is
 * not supported (runtime/unsupported.c) and no semaphore handle can exist: a node may
 * hold none. Such a node is what an H100 accepts and runs as a node that signals or waits
 * for nothing (tests/cuda/rtapi/expected/graph_extsem.out); a node naming semaphores is
 * refused, saying why, with cudaErrorInvalidValue, since none of its handles can be valid.
 * A node keeps no parameters beyond its type, so the getters give back no semaphores.
 */
#include "graph_exec.h"

#include <stdio.h>

/* Check a node's semaphores (none may be given: none can have been imported). */
static cudaError_t rt_extsem_check(const char *fn, const void *sems, const void *params,
                                   unsigned n) {
    (void)sems;
    (void)params;
    if (!n) return cudaSuccess;
    fprintf(stderr, "vcuda: %s: %u external semaphore%s: none can be imported "
                    "(cudaImportExternalSemaphore is not supported), so no handle is valid\n",
            fn, n, n == 1 ? "" : "s");
    return cudaErrorInvalidValue;
}

static cudaError_t rt_extsem_add(const char *fn, cudaGraphNode_t *pNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *deps, size_t ndeps,
                                 enum cudaGraphNodeType type, const void *sems,
                                 const void *params, unsigned n) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    e = rt_extsem_check(fn, sems, params, n);
    if (e) return rt_record(e);
    rt_op *op = rt_op_new(RT_OP_WAIT); /* nothing to signal or wait for */
    if (!op) return rt_record(cudaErrorMemoryAllocation);
    return rt_record(rt_graph_add_node(pNode, graph, deps, ndeps, type, op));
}

RT_API cudaError_t cudaGraphAddExternalSemaphoresSignalNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
    size_t numDependencies, const struct cudaExternalSemaphoreSignalNodeParams *p) {
    if (!p) return rt_record(cudaErrorInvalidValue);
    return rt_extsem_add("cudaGraphAddExternalSemaphoresSignalNode", pGraphNode, graph,
                         pDependencies, numDependencies, cudaGraphNodeTypeExtSemaphoreSignal,
                         p->extSemArray, p->paramsArray, p->numExtSems);
}

RT_API cudaError_t cudaGraphAddExternalSemaphoresWaitNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
    size_t numDependencies, const struct cudaExternalSemaphoreWaitNodeParams *p) {
    if (!p) return rt_record(cudaErrorInvalidValue);
    return rt_extsem_add("cudaGraphAddExternalSemaphoresWaitNode", pGraphNode, graph,
                         pDependencies, numDependencies, cudaGraphNodeTypeExtSemaphoreWait,
                         p->extSemArray, p->paramsArray, p->numExtSems);
}

cudaError_t rt_graph_add_extsem_node(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps,
                                     const struct cudaGraphNodeParams *p) {
    if (p->type == cudaGraphNodeTypeExtSemaphoreSignal)
        return rt_extsem_add("cudaGraphAddNode", pNode, graph, deps, ndeps, p->type,
                             p->extSemSignal.extSemArray, p->extSemSignal.paramsArray,
                             p->extSemSignal.numExtSems);
    return rt_extsem_add("cudaGraphAddNode", pNode, graph, deps, ndeps, p->type,
                         p->extSemWait.extSemArray, p->extSemWait.paramsArray,
                         p->extSemWait.numExtSems);
}

/* A node of the type, in executable graph hx when not NULL. */
static cudaError_t rt_extsem_node(cudaGraphExec_t hx, cudaGraphNode_t node,
                                  enum cudaGraphNodeType type) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    const rt_graph_node *n = (const rt_graph_node *)node;
    if (!n || n->type != type) return cudaErrorInvalidValue;
    if (!hx) return cudaSuccess;
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_exec *x = rt_ptrmap_get(&c->graph_execs, hx);
    bool found = false;
    for (size_t k = 0; x && k < x->nops && !found; k++) found = x->nodes[k] == n;
    pthread_mutex_unlock(&c->engine_lock);
    return found ? cudaSuccess : cudaErrorInvalidValue;
}

RT_API cudaError_t cudaGraphExternalSemaphoresSignalNodeGetParams(
    cudaGraphNode_t hNode, struct cudaExternalSemaphoreSignalNodeParams *params_out) {
    if (!params_out) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_extsem_node(NULL, hNode, cudaGraphNodeTypeExtSemaphoreSignal);
    if (e) return rt_record(e);
    params_out->extSemArray = NULL;
    params_out->paramsArray = NULL;
    params_out->numExtSems = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphExternalSemaphoresWaitNodeGetParams(
    cudaGraphNode_t hNode, struct cudaExternalSemaphoreWaitNodeParams *params_out) {
    if (!params_out) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_extsem_node(NULL, hNode, cudaGraphNodeTypeExtSemaphoreWait);
    if (e) return rt_record(e);
    params_out->extSemArray = NULL;
    params_out->paramsArray = NULL;
    params_out->numExtSems = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphExternalSemaphoresSignalNodeSetParams(
    cudaGraphNode_t hNode, const struct cudaExternalSemaphoreSignalNodeParams *p) {
    if (!p) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_extsem_node(NULL, hNode, cudaGraphNodeTypeExtSemaphoreSignal);
    if (!e) e = rt_extsem_check("cudaGraphExternalSemaphoresSignalNodeSetParams",
                                p->extSemArray, p->paramsArray, p->numExtSems);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphExternalSemaphoresWaitNodeSetParams(
    cudaGraphNode_t hNode, const struct cudaExternalSemaphoreWaitNodeParams *p) {
    if (!p) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_extsem_node(NULL, hNode, cudaGraphNodeTypeExtSemaphoreWait);
    if (!e) e = rt_extsem_check("cudaGraphExternalSemaphoresWaitNodeSetParams",
                                p->extSemArray, p->paramsArray, p->numExtSems);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphExecExternalSemaphoresSignalNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreSignalNodeParams *p) {
    if (!p || !hGraphExec) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_extsem_node(hGraphExec, hNode, cudaGraphNodeTypeExtSemaphoreSignal);
    if (!e) e = rt_extsem_check("cudaGraphExecExternalSemaphoresSignalNodeSetParams",
                                p->extSemArray, p->paramsArray, p->numExtSems);
    return rt_record(e);
}

RT_API cudaError_t cudaGraphExecExternalSemaphoresWaitNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreWaitNodeParams *p) {
    if (!p || !hGraphExec) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_extsem_node(hGraphExec, hNode, cudaGraphNodeTypeExtSemaphoreWait);
    if (!e) e = rt_extsem_check("cudaGraphExecExternalSemaphoresWaitNodeSetParams",
                                p->extSemArray, p->paramsArray, p->numExtSems);
    return rt_record(e);
}
