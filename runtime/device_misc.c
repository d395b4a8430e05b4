/* runtime/device_misc.c — smaller entry points of the runtime API that a single emulated
 * device answers simply: finding the device by PCI bus id, GPUDirect RDMA flushes (nothing to flush), asynchronous
 * notifications (the device never sends one), driver entry points (the driver API
 * functions libvcuda exports), kernel parameter layout, per-device kernel attributes, and
 * the batched prefetches, discards and copies (done one by one, in stream order).
 */
#include "rt.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Declared by the header only under CUDA_API_PER_THREAD_DEFAULT_STREAM (memory3d.c). */
cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p);

RT_API cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId) {
    rt_context *c = rt_ctx();
    if (!device || !pciBusId) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_enter(c);
    if (e) return e;
    /* [domain]:[bus]:[device].[function], every field hexadecimal, the domain optional */
    unsigned dom = 0, bus = 0, dev = 0, fn = 0;
    int n = sscanf(pciBusId, "%x:%x:%x.%x", &dom, &bus, &dev, &fn);
    if (n < 3) {
        dom = 0;
        n = sscanf(pciBusId, "%x:%x.%x", &bus, &dev, &fn);
        if (n < 2) return rt_record(cudaErrorInvalidValue);
    }
    for (int d = 0; d < c->ndevs; d++) {
        const rt_dev *v = &c->devs[d];
        if (dom == (unsigned)v->preset->pci_domain_id && bus == (unsigned)v->preset->pci_bus_id &&
            dev == (unsigned)rt_dev_pci_device(v) && fn == 0) {
            *device = d;
            return cudaSuccess;
        }
    }
    return rt_record(cudaErrorInvalidDevice);
}

RT_API cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(enum cudaFlushGPUDirectRDMAWritesTarget target,
                                                      enum cudaFlushGPUDirectRDMAWritesScope scope) {
    cudaError_t e = rt_enter(rt_ctx());
    if (e) return e;
    if (target != cudaFlushGPUDirectRDMAWritesTargetCurrentDevice ||
        (scope != cudaFlushGPUDirectRDMAWritesToOwner &&
         scope != cudaFlushGPUDirectRDMAWritesToAllDevices))
        return rt_record(cudaErrorInvalidValue);
    return cudaSuccess; /* no third-party device writes into this device's memory */
}

/* Registered callbacks are kept only to be unregistered: a virtual device's memory budget
 * never changes, so no notification is ever sent. */
typedef struct rt_async_cb {
    cudaAsyncCallback fn;
    void *data;
} rt_async_cb;

RT_API cudaError_t cudaDeviceRegisterAsyncNotification(int device, cudaAsyncCallback callbackFunc,
                                                       void *userData,
                                                       cudaAsyncCallbackHandle_t *callback) {
    cudaError_t e = rt_enter(rt_ctx());
    if (e) return e;
    if (!rt_dev_at(rt_ctx(), device)) return rt_record(cudaErrorInvalidDevice);
    if (!callbackFunc || !callback) return rt_record(cudaErrorInvalidValue);
    rt_async_cb *cb = malloc(sizeof *cb);
    if (!cb) return rt_record(cudaErrorMemoryAllocation);
    cb->fn = callbackFunc;
    cb->data = userData;
    *callback = (cudaAsyncCallbackHandle_t)cb;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceUnregisterAsyncNotification(int device,
                                                         cudaAsyncCallbackHandle_t callback) {
    cudaError_t e = rt_enter(rt_ctx());
    if (e) return e;
    if (!rt_dev_at(rt_ctx(), device)) return rt_record(cudaErrorInvalidDevice);
    if (!callback) return rt_record(cudaErrorInvalidValue);
    free(callback);
    return cudaSuccess;
}

/* A driver API function by name: the one libvcuda exports (versioned names as cuda.h's
 * macros make them: the plain name, else _v2 or _v3). */
static cudaError_t rt_driver_entry(const char *symbol, void **funcPtr,
                                   enum cudaDriverEntryPointQueryResult *status) {
    if (!symbol || !funcPtr) return rt_record(cudaErrorInvalidValue);
    static const char *const suffixes[] = {"_v3", "_v2", ""};
    void *f = NULL;
    char name[256];
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes && !f; i++) {
        snprintf(name, sizeof name, "%s%s", symbol, suffixes[i]);
        f = dlsym(RTLD_DEFAULT, name);
    }
    *funcPtr = f;
    if (status) *status = f ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                           unsigned long long flags,
                                           enum cudaDriverEntryPointQueryResult *driverStatus) {
    (void)flags;
    return rt_driver_entry(symbol, funcPtr, driverStatus);
}

RT_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                unsigned long long flags,
                                                enum cudaDriverEntryPointQueryResult *driverStatus) {
    (void)flags;
    return rt_driver_entry(symbol, funcPtr, driverStatus);
}

RT_API cudaError_t cudaGetDriverEntryPointByVersion(
    const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus) {
    (void)cudaVersion;
    (void)flags;
    return rt_driver_entry(symbol, funcPtr, driverStatus);
}

RT_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
    const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus) {
    (void)cudaVersion;
    (void)flags;
    return rt_driver_entry(symbol, funcPtr, driverStatus);
}

RT_API cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                        size_t *paramSize) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!paramOffset || !paramSize) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_func *f = NULL;
    e = rt_func_lookup(c, func, &f);
    if (!e) e = rt_func_resolve(c, f);
    if (!e) {
        const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
        if (paramIndex >= info->nparams) {
            e = cudaErrorInvalidValue;
        } else {
            *paramOffset = info->param_offsets[paramIndex];
            *paramSize = info->param_sizes[paramIndex];
        }
    }
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

RT_API cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, enum cudaFuncAttribute attr,
                                                   int value, int device) {
    cudaError_t e = rt_enter(rt_ctx());
    if (e) return e;
    if (!rt_dev_at(rt_ctx(), device)) return rt_record(cudaErrorInvalidDevice);
    return cudaFuncSetAttribute((const void *)kernel, attr, value);
}

/* ---- batched operations ---- */

/* Prefetches and discards change where managed memory lives, which a virtual device's
 * one memory does not have: each range is checked and the stream too. */
static cudaError_t rt_batch_check(void **dptrs, size_t *sizes, size_t count,
                                  unsigned long long flags, cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!count || !dptrs || !sizes || flags) return rt_record(cudaErrorInvalidValue);
    for (size_t i = 0; i < count; i++)
        if (!rt_device_range_ok(c, dptrs[i], sizes[i])) return rt_record(cudaErrorInvalidValue);
    if (!rt_stream_valid(c, stream)) return rt_record(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

RT_API cudaError_t cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                             struct cudaMemLocation *prefetchLocs,
                                             size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                             unsigned long long flags, cudaStream_t stream) {
    if (!numPrefetchLocs || !prefetchLocs || !prefetchLocIdxs || prefetchLocIdxs[0] != 0)
        return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_batch_check(dptrs, sizes, count, flags, stream);
    if (e) return e;
    /* operation i goes to the last location whose first operation is at or before it;
     * where managed memory was prefetched to is remembered (memrange.c) */
    rt_context *c = rt_ctx();
    size_t loc = 0;
    rt_prefetch_order(stream);
    for (size_t i = 0; i < count; i++) {
        while (loc + 1 < numPrefetchLocs && prefetchLocIdxs[loc + 1] <= i) loc++;
        mem_alloc a;
        if (mem_table_find(c->mem, (uint64_t)(uintptr_t)dptrs[i], &a) &&
            a.kind == MEM_KIND_MANAGED)
            rt_memrange_prefetched(a.base, a.size, a.flags, (uint64_t)(uintptr_t)dptrs[i], sizes[i],
                                   prefetchLocs[loc]);
    }
    return cudaSuccess;
}

RT_API cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                  struct cudaMemLocation *prefetchLocs,
                                                  size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                  unsigned long long flags, cudaStream_t stream) {
    return cudaMemPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                                     numPrefetchLocs, flags, rt_per_thread(stream));
}

/* Discarded contents become undefined: keeping them is one of the allowed outcomes. */
RT_API cudaError_t cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                            unsigned long long flags, cudaStream_t stream) {
    return rt_batch_check(dptrs, sizes, count, flags, stream);
}

RT_API cudaError_t cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                 unsigned long long flags, cudaStream_t stream) {
    return rt_batch_check(dptrs, sizes, count, flags, rt_per_thread(stream));
}

RT_API cudaError_t cudaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                       struct cudaMemLocation *prefetchLocs,
                                                       size_t *prefetchLocIdxs,
                                                       size_t numPrefetchLocs,
                                                       unsigned long long flags,
                                                       cudaStream_t stream) {
    return cudaMemPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                                     numPrefetchLocs, flags, stream);
}

RT_API cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(
    void **dptrs, size_t *sizes, size_t count, struct cudaMemLocation *prefetchLocs,
    size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags,
    cudaStream_t stream) {
    return cudaMemPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                                     numPrefetchLocs, flags, rt_per_thread(stream));
}

/* Each copy in turn, in the stream, its direction inferred (unified addressing). */
RT_API cudaError_t cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs,
                                        const size_t *sizes, size_t count,
                                        struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                        size_t numAttrs, cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!count || !dsts || !srcs || !sizes || !numAttrs || !attrs || !attrsIdxs ||
        attrsIdxs[0] != 0 || stream == 0 || stream == cudaStreamLegacy)
        return rt_record(cudaErrorInvalidValue);
    for (size_t i = 0; i < count && !e; i++)
        e = rt_memcpy(c, dsts[i], srcs[i], sizes[i], cudaMemcpyDefault, stream, true);
    return rt_record(e);
}

RT_API cudaError_t cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs,
                                             const size_t *sizes, size_t count,
                                             struct cudaMemcpyAttributes *attrs,
                                             size_t *attrsIdxs, size_t numAttrs,
                                             cudaStream_t stream) {
    return cudaMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs,
                                rt_per_thread(stream));
}

/* Between devices: there is one, so a copy from device 0 to device 0. */
static cudaError_t rt_peer3d(const struct cudaMemcpy3DPeerParms *p, struct cudaMemcpy3DParms *q) {
    if (!p) return cudaErrorInvalidValue;
    rt_context *c = rt_ctx();
    if (!rt_dev_at(c, p->srcDevice) || !rt_dev_at(c, p->dstDevice)) return cudaErrorInvalidDevice;
    memset(q, 0, sizeof *q);
    q->srcArray = p->srcArray;
    q->srcPos = p->srcPos;
    q->srcPtr = p->srcPtr;
    q->dstArray = p->dstArray;
    q->dstPos = p->dstPos;
    q->dstPtr = p->dstPtr;
    q->extent = p->extent;
    q->kind = cudaMemcpyDefault;
    return cudaSuccess;
}

RT_API cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p) {
    struct cudaMemcpy3DParms q;
    cudaError_t e = rt_peer3d(p, &q);
    return e ? rt_record(e) : cudaMemcpy3D(&q);
}

RT_API cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p) {
    struct cudaMemcpy3DParms q;
    cudaError_t e = rt_peer3d(p, &q);
    return e ? rt_record(e) : cudaMemcpy3D_ptds(&q);
}

RT_API cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p,
                                         cudaStream_t stream) {
    struct cudaMemcpy3DParms q;
    cudaError_t e = rt_peer3d(p, &q);
    return e ? rt_record(e) : cudaMemcpy3DAsync(&q, stream);
}

RT_API cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p,
                                              cudaStream_t stream) {
    return cudaMemcpy3DPeerAsync(p, rt_per_thread(stream));
}
