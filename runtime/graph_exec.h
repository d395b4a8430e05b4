/* runtime/graph_exec.h — an instantiated graph, as graph.c builds and launches it and
 * graph_nodes.c (updates of an executable graph) and graph_cond.c (conditional nodes)
 * change it. Private to those files. */
#ifndef VCUDA_RUNTIME_GRAPH_EXEC_H
#define VCUDA_RUNTIME_GRAPH_EXEC_H

#include "rt.h"

struct rt_cond_exec;

/* The graph memory of an executable graph (graph_mem.c): the physical memory its alloc
 * nodes map, which it holds from a launch until cudaDeviceGraphMemTrim takes it back, or a
 * later launch into the same stream takes it over, once its allocations are freed. */
typedef struct rt_graph_mem {
    uint64_t bytes;     /* physical memory its alloc nodes need, in 32 MiB units */
    void **allocs;      /* addresses its alloc nodes allocate that none of its nodes frees */
    bool *live;         /* per allocs entry: allocated by a launch and not freed since */
    size_t nallocs, nlive;
    void **frees;       /* addresses its free nodes free that it does not allocate */
    size_t nfrees;
    bool mapped;        /* holds its physical memory now */
    const void *stream; /* the stream of its last launch */
} rt_graph_mem;

typedef struct rt_graph_exec {
    rt_op **ops;                /* the nodes' operations, dependencies first */
    rt_graph_node **nodes;      /* the graph's node each came from: a key only, never read
                                 * (the graph may be gone), but its type and position: */
    enum cudaGraphNodeType *types;
    size_t *index;
    rt_graph **child;           /* per node: a child graph node's graph at instantiation (a
                                 * graph of the context, kept until it is reset), whose
                                 * topology cudaGraphExecUpdate compares; NULL for others */
    size_t nops;
    size_t **deps;              /* per node: indexes of the nodes it follows */
    size_t *ndeps;
    size_t *chain;              /* per node: its chain */
    bool *leaf;                 /* per node: no node follows it */
    rt_stream **chains;
    size_t nchains;
    /* conditional nodes (graph_cond.c): what they run, and the conditions set to their
     * default value as each launch begins */
    struct rt_cond_exec **conds;
    size_t nconds;
    uint32_t **reset_words;
    uint32_t *reset_values;
    size_t nresets;
    bool *disabled;             /* per node: cudaGraphNodeSetEnabled(0), or NULL */
    unsigned long long flags;   /* what it was instantiated with */
    rt_graph_mem mem;           /* its graph memory (graph_mem.c) */
    /* device graph launch (graph_device.c): per device, what it runs, once uploaded */
    gpu_graph_item *dev_items[GPU_MAX_DEVICES];
    size_t ndev_items[GPU_MAX_DEVICES];
    bool dev_uploaded[GPU_MAX_DEVICES];
    struct rt_graph_items *old_items; /* earlier uploads' lists, freed with the graph */
    size_t nold_items;
} rt_graph_exec;

void rt_graph_exec_free(rt_context *c, rt_graph_exec *x);

/* Kernel node attributes are kept by id, below this (graph_params.c). */
#define RT_NODE_ATTRS 32
/* n follows dep from now on (engine_lock held); false when out of memory. */
bool rt_graph_node_follow(rt_graph_node *n, rt_graph_node *dep);
/* Add a node issuing op (taken) to a graph handle after deps, which must be its nodes. */
cudaError_t rt_graph_add_node(cudaGraphNode_t *pNode, cudaGraph_t graph,
                              const cudaGraphNode_t *deps, size_t ndeps,
                              enum cudaGraphNodeType type, rt_op *op);

/* Node operations from their parameters, checked (graph.c). */
cudaError_t rt_copy_node_op(rt_context *c, const struct cudaMemcpy3DParms *p, rt_op **out);
cudaError_t rt_copy1d_node_op(rt_context *c, void *dst, const void *src, size_t count,
                              enum cudaMemcpyKind kind, rt_op **out);
cudaError_t rt_memset_node_op(rt_context *c, const struct cudaMemsetParams *p, rt_op **out);

/* cudaGraphAddNode of an external semaphore signal or wait node (graph_extsem.c). */
cudaError_t rt_graph_add_extsem_node(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps,
                                     const struct cudaGraphNodeParams *p);

/* ---- graph_device.c: device graph launch ---- */

/* Whether g may be instantiated with cudaGraphInstantiateFlagDeviceLaunch (and flags):
 * the error, the instantiation result, and the node at fault (or NULL). */
cudaError_t rt_graph_device_check(rt_context *c, const rt_graph *g, unsigned long long flags,
                                  cudaGraphInstantiateResult *result, const rt_graph_node **node);
/* Does a launch of x need an execution environment (a kernel launches graphs)? */
bool rt_graph_exec_launches_graphs(const rt_graph_exec *x);
/* cudaGraphUpload: the list device d runs for x (c->lock and engine_lock held). */
cudaError_t rt_graph_device_upload(rt_context *c, rt_graph_exec *x, int d);
void rt_graph_device_free(rt_graph_exec *x);

/* ---- graph_nodes.c: graph memory statistics ---- */

/* At instantiation (the graph is there): what x's memory nodes allocate and free. */
cudaError_t rt_graph_mem_init(rt_graph_exec *x);
/* A launch of x into stream s (engine_lock held): it maps its memory, its allocations are
 * live, and its free nodes free other graphs' allocations. */
void rt_graph_mem_launch(rt_graph_exec *x, const void *s);
/* x is destroyed: its physical memory is unmapped (it stays reserved until a trim). */
void rt_graph_mem_forget(rt_graph_exec *x);

/* ---- graph_cond.c ---- */

/* The operation of conditional node n in x (engine_lock held): it runs its body graphs
 * while (or if) its condition says so. NULL when out of memory. */
rt_op *rt_graph_cond_op(rt_context *c, rt_graph_exec *x, const rt_graph_node *n);
/* The operation of child graph node n: its graph, run as a body that always runs. */
rt_op *rt_graph_child_op(rt_context *c, rt_graph_exec *x, const rt_graph_node *n);
/* Same node count, each node's type and dependencies by position, child graphs and
 * conditional bodies likewise (graph_params.c): what updating a child graph node asks. */
bool rt_graph_same_topology(const rt_graph *a, const rt_graph *b);
/* The conditions of g's handles made with cudaGraphCondAssignDefault, to reset at each
 * launch of x. */
cudaError_t rt_graph_exec_defaults(rt_graph_exec *x, const rt_graph *g);
/* The operation a launch of x starts with (after the stream's earlier work): it sets the
 * conditions to their defaults. */
rt_op *rt_graph_exec_entry_op(rt_graph_exec *x);
void rt_graph_exec_conds_free(rt_graph_exec *x);
/* A child graph node's operation: its graph's operations, in dependency order. */
rt_op *const *rt_graph_child_body(const rt_op *op, size_t *n);

#endif
