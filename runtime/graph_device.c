/* runtime/graph_device.c — device graph launch (CUDA Programming Guide, "Device Graph
 * Launch"): graphs instantiated with cudaGraphInstantiateFlagDeviceLaunch, which a kernel
 * launches with cudaGraphLaunch into cudaStreamGraphFireAndForget, cudaStreamGraphTailLaunch
 * or cudaStreamGraphFireAndForgetAsSibling.
 *
 * Instantiation checks what a device graph may hold (kernel, memset, memcpy and empty
 * nodes; not with cudaGraphInstantiateFlagAutoFreeOnLaunch: cudaErrorInvalidValue, as on an
 * H100). For each device that launches it, the graph's nodes become the list of launches,
 * copies and sets the device runs (gpu_graph_item, in the executable graph's order, which
 * keeps the dependencies), built when the graph is uploaded (cudaGraphUpload, or at its
 * first device launch) with that device's kernels. The grid runner (gpu/dp.c) queues them
 * as the launching grid's children or tail launches. A graph launched from device code
 * that was not instantiated for device launch is the illegal-address fault an H100 gives
 * (tests/cuda/expected/dpGraph_notdevice.out).
 */
#include "graph_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cudaError_t rt_graph_device_check(rt_context *c, const rt_graph_exec *x) {
    if (x->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) return cudaErrorInvalidValue;
    for (size_t k = 0; k < x->nops; k++) {
        const rt_op *op = x->ops[k];
        switch (x->types[k]) {
        case cudaGraphNodeTypeKernel:
        case cudaGraphNodeTypeMemset:
        case cudaGraphNodeTypeEmpty:
            break;
        case cudaGraphNodeTypeMemcpy:
            /* device-accessible memory only: the device makes the copy */
            if (op->kind != RT_OP_COPY2D || !op->u.copy2d.height ||
                !rt_device_range_ok(c, op->u.copy2d.dst, op->u.copy2d.width) ||
                !rt_device_range_ok(c, op->u.copy2d.src, op->u.copy2d.width))
                return cudaErrorInvalidValue;
            break;
        default:
            return cudaErrorInvalidValue; /* host, event, memory, child, conditional nodes */
        }
    }
    return cudaSuccess;
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

cudaError_t rt_graph_device_upload(rt_context *c, rt_graph_exec *x, int d) {
    gpu_graph_item *items = NULL;
    size_t n = 0, cap = 0;
    cudaError_t e = cudaSuccess;
    for (size_t k = 0; k < x->nops && !e; k++) {
        if (x->disabled && x->disabled[k]) continue;
        const rt_op *op = x->ops[k];
        gpu_graph_item *it;
        switch (op->kind) {
        case RT_OP_KERNEL:
            e = rt_func_resolve_on(c, op->u.kernel.func, d);
            if (e) break;
            if (!(it = rt_item_add(&items, &n, &cap))) {
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
                if (!(it = rt_item_add(&items, &n, &cap))) {
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
                if (!(it = rt_item_add(&items, &n, &cap))) {
                    e = cudaErrorMemoryAllocation;
                    break;
                }
                it->dst = (char *)op->u.copy2d.dst + r * op->u.copy2d.dpitch;
                it->src = (const char *)op->u.copy2d.src + r * op->u.copy2d.spitch;
                it->count = op->u.copy2d.width;
            }
            break;
        default: /* an empty node */
            break;
        }
    }
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
