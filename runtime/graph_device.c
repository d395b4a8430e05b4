/* runtime/graph_device.c — device graph launch (CUDA Programming Guide, "Device Graph
 * Launch"): graphs instantiated with cudaGraphInstantiateFlagDeviceLaunch, which a kernel
 * launches with cudaGraphLaunch into cudaStreamGraphFireAndForget, cudaStreamGraphTailLaunch
 * or cudaStreamGraphFireAndForgetAsSibling.
 *
 * Instantiation checks what a device graph may hold, as an H100 does
 * (tests/cuda/expected/dpGraphRules.out): kernel nodes whose kernels launch no kernels,
 * memset nodes, memcpy nodes between device-accessible memory (device, pinned, managed),
 * child graphs of those, at least one of them, all on one device's memory (else
 * cudaGraphInstantiateMultipleDevicesNotSupported, derived from the reference), and not with
 * cudaGraphInstantiateFlagAutoFreeOnLaunch; anything else is cudaErrorInvalidValue
 * (cudaGraphInstantiateNodeOperationNotSupported naming the node). For each device that launches it, the graph's nodes become the list of launches,
 * copies and sets the device runs (gpu_graph_item, in the executable graph's order, which
 * keeps the dependencies), built when the graph is uploaded (cudaGraphUpload, or at its
 * first device launch) with that device's kernels; a child graph's nodes take its place. The grid runner (gpu/dp.c) queues them
 * as the launching grid's children or tail launches. A graph launched from device code
 * that was not instantiated for device launch is the illegal-address fault an H100 gives
 * (tests/cuda/expected/dpGraph_notdevice.out).
 */
#include "graph_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is op a copy the device can make (both sides in device-accessible memory: device,
 * pinned or managed; not pageable host memory)? */
static bool rt_device_copy_ok(rt_context *c, const rt_op *op) {
    if (op->kind == RT_OP_COPY)
        return rt_device_range_ok(c, op->u.copy.dst, op->u.copy.bytes) &&
               rt_device_range_ok(c, op->u.copy.src, op->u.copy.bytes);
    if (op->kind != RT_OP_COPY2D || !op->u.copy2d.height) return false;
    size_t h = op->u.copy2d.height - 1, w = op->u.copy2d.width;
    return rt_device_range_ok(c, op->u.copy2d.dst, h * op->u.copy2d.dpitch + w) &&
           rt_device_range_ok(c, op->u.copy2d.src, h * op->u.copy2d.spitch + w);
}

/* Does [p, p+bytes) lie in another device's memory than *dev (0: none seen yet, then
 * set)? A device graph's nodes must all be one device's. */
static bool rt_other_device(rt_context *c, const void *p, size_t bytes, uint32_t *dev) {
    mem_alloc al;
    if (!mem_table_check(c->mem, (uint64_t)(uintptr_t)p, bytes ? bytes : 1, &al) ||
        al.kind != MEM_KIND_DEVICE || !al.device)
        return false;
    if (!*dev) *dev = al.device;
    return al.device != *dev;
}

/* Do op's memory ranges lie on another device than *dev? */
static bool rt_op_other_device(rt_context *c, const rt_op *op, uint32_t *dev) {
    switch (op->kind) {
    case RT_OP_COPY:
        return rt_other_device(c, op->u.copy.dst, op->u.copy.bytes, dev) ||
               rt_other_device(c, op->u.copy.src, op->u.copy.bytes, dev);
    case RT_OP_COPY2D:
        return rt_other_device(c, op->u.copy2d.dst, op->u.copy2d.width, dev) ||
               rt_other_device(c, op->u.copy2d.src, op->u.copy2d.width, dev);
    case RT_OP_SET2D:
        return rt_other_device(c, op->u.set2d.dst, op->u.set2d.width, dev);
    default:
        return false;
    }
}

/* The first node of g (and of its child graphs) a device graph may not hold, or NULL;
 * *work counts its kernel, memcpy and memset nodes, *dev is the device their memory is
 * on, and *multi says the node found uses another device's. */
static const rt_graph_node *rt_device_bad_node(rt_context *c, const rt_graph *g, size_t *work,
                                               uint32_t *dev, bool *multi) {
    for (size_t i = 0; i < g->nnodes; i++) {
        const rt_graph_node *n = g->nodes[i];
        switch (n->type) {
        case cudaGraphNodeTypeKernel:
            /* kernels may launch graphs, not kernels (dynamic parallelism) */
            if (exec_kernel_get_info(n->op->u.kernel.func->kernel)->uses_kernel_launch) return n;
            break;
        case cudaGraphNodeTypeMemcpy:
            if (!rt_device_copy_ok(c, n->op)) return n;
            break;
        case cudaGraphNodeTypeMemset:
            break;
        case cudaGraphNodeTypeGraph: {
            const rt_graph_node *bad = rt_device_bad_node(c, n->x.child, work, dev, multi);
            if (bad) return bad;
            continue;
        }
        default: /* empty, host, event, memory, conditional, semaphore nodes */
            return n;
        }
        if (rt_op_other_device(c, n->op, dev)) {
            *multi = true;
            return n;
        }
        (*work)++;
    }
    return NULL;
}

cudaError_t rt_graph_device_check(rt_context *c, const rt_graph *g, unsigned long long flags,
                                  cudaGraphInstantiateResult *result, const rt_graph_node **node) {
    *node = NULL;
    *result = cudaGraphInstantiateError;
    if (flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) return cudaErrorInvalidValue;
    size_t work = 0;
    uint32_t dev = 0;
    bool multi = false;
    *node = rt_device_bad_node(c, g, &work, &dev, &multi);
    if (*node) {
        *result = multi ? cudaGraphInstantiateMultipleDevicesNotSupported
                        : cudaGraphInstantiateNodeOperationNotSupported;
        return cudaErrorInvalidValue;
    }
    if (!work) return cudaErrorInvalidValue; /* nothing to run (an H100: no node named) */
    *result = cudaGraphInstantiateSuccess;
    return cudaSuccess;
}

bool rt_graph_exec_launches_graphs(const rt_graph_exec *x) {
    for (size_t k = 0; k < x->nops; k++) {
        const rt_op *op = x->ops[k];
        if (op->kind == RT_OP_KERNEL &&
            exec_kernel_get_info(op->u.kernel.func->kernel)->uses_graph_launch)
            return true;
        if (op->kind == RT_OP_COND && rt_graph_cond_launches_graphs(op)) return true;
    }
    return false;
}

/* An earlier upload's list. */
struct rt_graph_items {
    gpu_graph_item *items;
    size_t n;
};

/* A list and the parameter copies its kernels own. */
static void rt_items_free(gpu_graph_item *items, size_t n) {
    for (size_t i = 0; items && i < n; i++) free((void *)items[i].params);
    free(items);
}

/* Append an item (NULL when out of memory). */
static gpu_graph_item *rt_item_add(gpu_graph_item **items, size_t *n, size_t *cap) {
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        gpu_graph_item *m = realloc(*items, ncap * sizeof *m);
        if (!m) return NULL;
        *items = m;
        *cap = ncap;
    }
    gpu_graph_item *it = &(*items)[(*n)++];
    memset(it, 0, sizeof *it);
    return it;
}

/* Append what ops (n of them, in dependency order; disabled: which to leave out, or
 * NULL) make device d do: a kernel launch each, and a copy or set per row. */
static cudaError_t rt_upload_ops(rt_context *c, rt_op *const *ops, size_t nops,
                                 const bool *disabled, int d, gpu_graph_item **items,
                                 size_t *n, size_t *cap) {
    cudaError_t e = cudaSuccess;
    for (size_t k = 0; k < nops && !e; k++) {
        if (disabled && disabled[k]) continue;
        const rt_op *op = ops[k];
        gpu_graph_item *it;
        switch (op->kind) {
        case RT_OP_KERNEL:
            e = rt_func_resolve_on(c, op->u.kernel.func, d);
            if (e) break;
            if (!(it = rt_item_add(items, n, cap))) {
                e = cudaErrorMemoryAllocation;
                break;
            }
            it->kernel = op->u.kernel.func->dev_kernel[d];
            it->grid = op->u.kernel.grid;
            it->block = op->u.kernel.block;
            it->dyn_shared = op->u.kernel.dyn_shared;
            /* the parameters as uploaded (an update of the graph needs a new upload) */
            uint32_t size = exec_kernel_get_info(it->kernel)->param_size;
            uint8_t *params = malloc(size ? size : 1);
            if (!params) {
                e = cudaErrorMemoryAllocation;
                break;
            }
            memcpy(params, op->u.kernel.params, size);
            it->params = params;
            it->param_size = size;
            break;
        case RT_OP_SET2D:
            for (size_t r = 0; r < op->u.set2d.height && !e; r++) {
                if (!(it = rt_item_add(items, n, cap))) {
                    e = cudaErrorMemoryAllocation;
                    break;
                }
                it->dst = (char *)op->u.set2d.dst + r * op->u.set2d.pitch;
                it->value = op->u.set2d.value;
                it->elem = op->u.set2d.elem;
                it->count = op->u.set2d.width;
            }
            break;
        case RT_OP_COPY2D:
            for (size_t r = 0; r < op->u.copy2d.height && !e; r++) {
                if (!(it = rt_item_add(items, n, cap))) {
                    e = cudaErrorMemoryAllocation;
                    break;
                }
                it->dst = (char *)op->u.copy2d.dst + r * op->u.copy2d.dpitch;
                it->src = (const char *)op->u.copy2d.src + r * op->u.copy2d.spitch;
                it->count = op->u.copy2d.width;
            }
            break;
        case RT_OP_COPY:
            if (!(it = rt_item_add(items, n, cap))) {
                e = cudaErrorMemoryAllocation;
                break;
            }
            it->dst = op->u.copy.dst;
            it->src = op->u.copy.src;
            it->count = op->u.copy.bytes;
            break;
        case RT_OP_COND: { /* a child graph (instantiation let no conditional through) */
            size_t nbody = 0;
            rt_op *const *body = rt_graph_child_body(op, &nbody);
            e = rt_upload_ops(c, body, nbody, NULL, d, items, n, cap);
            break;
        }
        default: /* nothing to do */
            break;
        }
    }
    return e;
}

cudaError_t rt_graph_device_upload(rt_context *c, rt_graph_exec *x, int d) {
    gpu_graph_item *items = NULL;
    size_t n = 0, cap = 0;
    cudaError_t e = rt_upload_ops(c, x->ops, x->nops, x->disabled, d, &items, &n, &cap);
    if (e) {
        rt_items_free(items, n);
        return e;
    }
    /* (a device launch of the previous upload still being queued reads the old list: an
     * update needs a new upload, as in CUDA, and the old list goes with the graph) */
    if (x->dev_items[d]) {
        struct rt_graph_items *old = realloc(x->old_items, (x->nold_items + 1) * sizeof *old);
        if (!old) {
            rt_items_free(items, n);
            return cudaErrorMemoryAllocation;
        }
        old[x->nold_items++] = (struct rt_graph_items){x->dev_items[d], x->ndev_items[d]};
        x->old_items = old;
    }
    x->dev_items[d] = items;
    x->ndev_items[d] = n;
    x->dev_uploaded[d] = true;
    return cudaSuccess;
}

void rt_graph_device_free(rt_graph_exec *x) {
    for (int d = 0; d < GPU_MAX_DEVICES; d++) rt_items_free(x->dev_items[d], x->ndev_items[d]);
    for (size_t i = 0; i < x->nold_items; i++)
        rt_items_free(x->old_items[i].items, x->old_items[i].n);
    free(x->old_items);
}

int rt_graph_device_items(gpu_device *g, uint64_t exec, const gpu_graph_item **items,
                          size_t *n, exec_fault *fault) {
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&c->lock); /* (before engine_lock, as everywhere) */
    int d = 0;
    for (int i = 0; i < c->ndevs; i++)
        if (c->devs[i].gpu == g) d = i;
    pthread_mutex_lock(&c->engine_lock);
    rt_graph_exec *x = exec ? rt_ptrmap_get(&c->graph_execs, (const void *)(uintptr_t)exec) : NULL;
    int e = cudaSuccess;
    if (!x || !(x->flags & cudaGraphInstantiateFlagDeviceLaunch)) {
        fault->kind = EXEC_FAULT_ILLEGAL_ADDRESS;
        snprintf(fault->msg, sizeof fault->msg,
                 "cudaGraphLaunch of 0x%llx, %s",
                 (unsigned long long)exec,
                 x ? "a graph not instantiated for device launch "
                     "(cudaGraphInstantiateFlagDeviceLaunch)"
                   : "no executable graph");
    } else {
        if (!x->dev_uploaded[d]) e = rt_graph_device_upload(c, x, d);
        *items = x->dev_items[d];
        *n = x->ndev_items[d];
    }
    pthread_mutex_unlock(&c->engine_lock);
    pthread_mutex_unlock(&c->lock);
    return e;
}

/* ---- tail launches of graphs launched from the host ---- */

void rt_graph_tails_run(rt_context *c, rt_op *op) {
    gpu_dp_env *env = op->u.tails.env;
    op->u.tails.env = NULL; /* finished here */
    exec_output eo = {0};
    exec_fault fault;
    memset(&fault, 0, sizeof fault);
    exec_fault_kind k = gpu_graph_env_finish(env, &eo, &fault);
    op->vend = op->vstart;
    free(eo.err);
    rt_output *out = calloc(1, sizeof *out);
    if (!out) {
        free(eo.data);
        return;
    }
    out->data = eo.data;
    out->len = eo.len;
    out->cap = eo.cap;
    if (k != EXEC_OK) rt_output_set_fault(c, out, k, &fault, "a graph tail launch");
    rt_output_finish(c, op, out);
}
