/* driver/memory.c — memory through the driver API: allocation (device, pitched, pinned,
 * registered, managed, stream-ordered), the address-range and pointer queries, copies
 * (HtoD, DtoH, DtoD, unified, 2D, 3D, asynchronous) and sets of 8, 16 and 32-bit elements.
 *
 * The allocations are the runtime's (one table), so a pointer from cudaMalloc works in
 * cuMemcpy and a CUdeviceptr from cuMemAlloc in a <<<>>> launch. Copies and sets are the
 * runtime's operations on the runtime's streams: the same checks, the same ordering.
 * Per-thread default stream variants (_ptds, _ptsz) put work on the calling thread's
 * default stream.
 */
#include "drv.h"
#include "../runtime/texture.h"

#include <string.h>


/* Run a runtime API call without touching the runtime's last error. */
#define DRV_RT(call)                                                                       \
    do {                                                                                   \
        cudaError_t drv_saved_ = drv_rt_begin();                                           \
        return drv_rt_end(drv_saved_, (call));                                             \
    } while (0)

/* ---- allocation ---- */

DRV_API CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize) {
    if (!dptr) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    if (!bytesize) return CUDA_ERROR_INVALID_VALUE; /* the driver refuses empty allocations */
    DRV_RT(cudaMalloc((void **)dptr, bytesize));
}

DRV_API CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
                                    size_t Height, unsigned int ElementSizeBytes) {
    if (!dptr || !pPitch || !WidthInBytes || !Height) return CUDA_ERROR_INVALID_VALUE;
    if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaMallocPitch((void **)dptr, pPitch, WidthInBytes, Height));
}

DRV_API CUresult cuMemFree_v2(CUdeviceptr dptr) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaFree(DRV_PTR(dptr)));
}

DRV_API CUresult cuMemAllocHost_v2(void **pp, size_t bytesize) {
    if (!pp || !bytesize) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaMallocHost(pp, bytesize));
}

DRV_API CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags) {
    if (!pp || !bytesize) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaHostAlloc(pp, bytesize, Flags)); /* CU_MEMHOSTALLOC_* are cudaHostAlloc* */
}

DRV_API CUresult cuMemFreeHost(void *p) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaFreeHost(p));
}

DRV_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaHostGetDevicePointer((void **)pdptr, p, Flags));
}

DRV_API CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaHostGetFlags(pFlags, p));
}

DRV_API CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaHostRegister(p, bytesize, Flags));
}

DRV_API CUresult cuMemHostUnregister(void *p) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaHostUnregister(p));
}

DRV_API CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags) {
    if (!dptr || !bytesize) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaMallocManaged((void **)dptr, bytesize, flags));
}

DRV_API CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream) {
    if (!dptr || !bytesize) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaMallocAsync((void **)dptr, bytesize, (cudaStream_t)hStream));
}

DRV_API CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream) {
    return cuMemAllocAsync(dptr, bytesize, (CUstream)DRV_PT(hStream));
}

DRV_API CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaFreeAsync(DRV_PTR(dptr), (cudaStream_t)hStream));
}

DRV_API CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream) {
    return cuMemFreeAsync(dptr, (CUstream)DRV_PT(hStream));
}

DRV_API CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    DRV_RT(cudaMemGetInfo(free, total));
}

/* The allocation holding p, from the runtime's table. */
static bool drv_find(const void *p, mem_alloc *a) {
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&c->lock);
    bool found = mem_table_find(c->mem, (uint64_t)(uintptr_t)p, a);
    pthread_mutex_unlock(&c->lock);
    return found;
}

DRV_API CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    mem_alloc a;
    if (!drv_find(DRV_PTR(dptr), &a)) return CUDA_ERROR_NOT_FOUND; /* pinned memory too */
    if (a.flags & RT_MEM_FLAG_VMM) drv_vmm_mapping(dptr, &a.base, &a.size); /* its cuMemMap */
    if (pbase) *pbase = (CUdeviceptr)a.base;
    if (psize) *psize = (size_t)a.size;
    return CUDA_SUCCESS;
}

/* One pointer attribute (CUDA_ERROR_INVALID_VALUE for memory CUDA does not know, as the
 * driver answers for the attributes that need an allocation). */
static CUresult drv_pointer_attribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr) {
    if (!data) return CUDA_ERROR_INVALID_VALUE;
    mem_alloc a;
    bool known = drv_find(DRV_PTR(ptr), &a);
    bool host = known && (a.kind == MEM_KIND_HOST || a.kind == MEM_KIND_REGISTERED);
    bool managed = known && a.kind == MEM_KIND_MANAGED;
    switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(CUcontext *)data =
            (CUcontext)drv_primary(drv_get(), a.device ? (int)a.device - 1 : rt_cur(rt_ctx())->ordinal);
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(unsigned *)data = host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(CUdeviceptr *)data = ptr; /* one address space: the same address */
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (!known || (!host && !managed)) return CUDA_ERROR_INVALID_VALUE;
        *(void **)data = DRV_PTR(ptr);
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(unsigned *)data = managed;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(int *)data = a.device ? (int)a.device - 1 : rt_cur(rt_ctx())->ordinal;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(unsigned long long *)data = a.base; /* unique while the allocation lives */
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(CUdeviceptr *)data = a.base;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(size_t *)data = (size_t)a.size;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MAPPED:
        *(unsigned *)data = known;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(unsigned *)data = 1;
        return CUDA_SUCCESS;
    default:
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, "cuPointerGetAttribute",
                        "attribute %d is not supported", (int)attribute);
    }
}

DRV_API CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr) {
    CUresult r = drv_enter(NULL);
    return r ? r : drv_pointer_attribute(data, attribute, ptr);
}

DRV_API CUresult cuPointerGetAttributes(unsigned int numAttributes,
                                        CUpointer_attribute *attributes, void **data,
                                        CUdeviceptr ptr) {
    if (!numAttributes || !attributes || !data) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    for (unsigned i = 0; i < numAttributes; i++) {
        r = drv_pointer_attribute(data[i], attributes[i], ptr);
        /* unlike cuPointerGetAttribute, memory CUDA does not know is answered with zeros */
        if (r == CUDA_ERROR_INVALID_VALUE && data[i]) {
            size_t size = attributes[i] == CU_POINTER_ATTRIBUTE_CONTEXT ||
                                  attributes[i] == CU_POINTER_ATTRIBUTE_DEVICE_POINTER ||
                                  attributes[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER ||
                                  attributes[i] == CU_POINTER_ATTRIBUTE_BUFFER_ID ||
                                  attributes[i] == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR ||
                                  attributes[i] == CU_POINTER_ATTRIBUTE_RANGE_SIZE
                              ? 8 : 4;
            memset(data[i], 0, size);
            r = CUDA_SUCCESS;
        }
        if (r) return r;
    }
    return CUDA_SUCCESS;
}

/* ---- copies ---- */

static CUresult drv_copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                         cudaStream_t stream, bool async) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    return drv_from_rt(rt_memcpy(rt_ctx(), dst, src, n, kind, stream, async));
}

/* Each copy call in its legacy and per-thread forms. */
#define DRV_COPY_SYNC(name, dtype, stype, kind)                                            \
    DRV_API CUresult name(dtype dst, stype src, size_t n) {                                \
        return drv_copy(DRV_PTR(dst), (const void *)(uintptr_t)(src), n, kind, 0, false);  \
    }                                                                                      \
    DRV_API CUresult name##_ptds(dtype dst, stype src, size_t n) {                         \
        return drv_copy(DRV_PTR(dst), (const void *)(uintptr_t)(src), n, kind,             \
                        cudaStreamPerThread, false);                                       \
    }
#define DRV_COPY_ASYNC(name, dtype, stype, kind)                                           \
    DRV_API CUresult name(dtype dst, stype src, size_t n, CUstream s) {                    \
        return drv_copy(DRV_PTR(dst), (const void *)(uintptr_t)(src), n, kind,             \
                        (cudaStream_t)s, true);                                            \
    }                                                                                      \
    DRV_API CUresult name##_ptsz(dtype dst, stype src, size_t n, CUstream s) {             \
        return drv_copy(DRV_PTR(dst), (const void *)(uintptr_t)(src), n, kind, DRV_PT(s),  \
                        true);                                                             \
    }

DRV_COPY_SYNC(cuMemcpyHtoD_v2, CUdeviceptr, const void *, cudaMemcpyHostToDevice)
DRV_COPY_SYNC(cuMemcpyDtoH_v2, void *, CUdeviceptr, cudaMemcpyDeviceToHost)
DRV_COPY_SYNC(cuMemcpyDtoD_v2, CUdeviceptr, CUdeviceptr, cudaMemcpyDeviceToDevice)
DRV_COPY_SYNC(cuMemcpy, CUdeviceptr, CUdeviceptr, cudaMemcpyDefault)
DRV_COPY_ASYNC(cuMemcpyHtoDAsync_v2, CUdeviceptr, const void *, cudaMemcpyHostToDevice)
DRV_COPY_ASYNC(cuMemcpyDtoHAsync_v2, void *, CUdeviceptr, cudaMemcpyDeviceToHost)
DRV_COPY_ASYNC(cuMemcpyDtoDAsync_v2, CUdeviceptr, CUdeviceptr, cudaMemcpyDeviceToDevice)
DRV_COPY_ASYNC(cuMemcpyAsync, CUdeviceptr, CUdeviceptr, cudaMemcpyDefault)

/* Peer copies: unified addressing makes them device-to-device copies; the contexts named
 * must be live. */
static CUresult drv_copy_peer(CUdeviceptr dst, CUcontext dstCtx, CUdeviceptr src,
                              CUcontext srcCtx, size_t n, cudaStream_t stream, bool async) {
    CUresult r = drv_initialised();
    if (r) return r;
    drv_state *s = drv_get();
    if (!drv_ctx_valid(s, dstCtx) || !drv_ctx_valid(s, srcCtx) ||
        ((drv_ctx *)dstCtx)->destroyed || ((drv_ctx *)srcCtx)->destroyed)
        return CUDA_ERROR_INVALID_CONTEXT;
    r = drv_copy(DRV_PTR(dst), (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToDevice, stream,
                 async);
    if (r || async) return r;
    /* cuMemcpyPeer is ordered before later work of both contexts; the copy went to the
     * current one's stream, so the host waits for it (later work of the other context then
     * sees it) */
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaStreamSynchronize(stream));
}

DRV_API CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                              CUcontext srcContext, size_t ByteCount) {
    return drv_copy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, 0, false);
}

DRV_API CUresult cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext,
                                   CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount) {
    return drv_copy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount,
                         cudaStreamPerThread, false);
}

DRV_API CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext,
                                   CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount,
                                   CUstream hStream) {
    return drv_copy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount,
                         (cudaStream_t)hStream, true);
}

DRV_API CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext,
                                        CUdeviceptr srcDevice, CUcontext srcContext,
                                        size_t ByteCount, CUstream hStream) {
    return drv_copy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount,
                         DRV_PT(hStream), true);
}

/* A 2D copy's side: its address (at X, Y) and pitch, or the array it names (*arr, with
 * the position left to the array copy). */
static CUresult drv_copy2d_side(CUmemorytype type, const void *host, CUdeviceptr dev,
                                CUarray array, size_t x, size_t y, size_t pitch,
                                const char **p, rt_array **arr) {
    const char *base;
    *arr = NULL;
    switch (type) {
    case CU_MEMORYTYPE_HOST: base = host; break;
    case CU_MEMORYTYPE_DEVICE: base = DRV_PTR(dev); break;
    case CU_MEMORYTYPE_UNIFIED: base = DRV_PTR(dev); break;
    case CU_MEMORYTYPE_ARRAY:
        if (!(*arr = rt_array_get(rt_ctx(), array))) return CUDA_ERROR_INVALID_VALUE;
        return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    *p = base + y * pitch + x;
    return CUDA_SUCCESS;
}

/* One slice of a copy (srcz, dstz: the slice of an array side); the runtime's array copy
 * when a side is an array, else its 2D copy. */
static CUresult drv_copy_slice(const char *src, rt_array *sa, size_t sx, size_t sy, size_t sz,
                               size_t spitch, const char *dst, rt_array *da, size_t dx, size_t dy,
                               size_t dz, size_t dpitch, size_t width, size_t height,
                               cudaStream_t stream, bool async) {
    rt_context *c = rt_ctx();
    if (sa || da)
        return drv_from_rt(rt_array_copy2d(c, da, dx, dy, dz, (void *)dst, dpitch, sa, sx, sy, sz,
                                           src, spitch, width, height, cudaMemcpyDefault, stream,
                                           async));
    return drv_from_rt(rt_copy2d(c, (void *)dst, dpitch, src, spitch, width, height,
                                 cudaMemcpyDefault, stream, async));
}

static CUresult drv_copy2d(const CUDA_MEMCPY2D *m, cudaStream_t stream, bool async) {
    if (!m) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    const char *src = NULL, *dst = NULL;
    rt_array *sa, *da;
    r = drv_copy2d_side(m->srcMemoryType, m->srcHost, m->srcDevice, m->srcArray, m->srcXInBytes,
                        m->srcY, m->srcPitch, &src, &sa);
    if (!r) r = drv_copy2d_side(m->dstMemoryType, m->dstHost, m->dstDevice, m->dstArray,
                                m->dstXInBytes, m->dstY, m->dstPitch, &dst, &da);
    if (r) return r;
    return drv_copy_slice(src, sa, m->srcXInBytes, m->srcY, 0, m->srcPitch, dst, da,
                          m->dstXInBytes, m->dstY, 0, m->dstPitch, m->WidthInBytes, m->Height,
                          stream, async);
}

DRV_API CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy) { return drv_copy2d(pCopy, 0, false); }
DRV_API CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy) {
    return drv_copy2d(pCopy, cudaStreamPerThread, false);
}
DRV_API CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy) {
    return drv_copy2d(pCopy, 0, false);
}
DRV_API CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy) {
    return drv_copy2d(pCopy, cudaStreamPerThread, false);
}
DRV_API CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream) {
    return drv_copy2d(pCopy, (cudaStream_t)hStream, true);
}
DRV_API CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream) {
    return drv_copy2d(pCopy, DRV_PT(hStream), true);
}

/* A 3D copy, slice by slice (each slice a 2D copy of the runtime's, in stream order). */
static CUresult drv_copy3d(const CUDA_MEMCPY3D *m, cudaStream_t stream, bool async) {
    if (!m) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    if (m->srcLOD || m->dstLOD || m->reserved0 || m->reserved1) return CUDA_ERROR_INVALID_VALUE;
    for (size_t z = 0; z < m->Depth; z++) {
        const char *src = NULL, *dst = NULL;
        rt_array *sa, *da;
        size_t sy = (m->srcZ + z) * m->srcHeight + m->srcY;
        size_t dy = (m->dstZ + z) * m->dstHeight + m->dstY;
        r = drv_copy2d_side(m->srcMemoryType, m->srcHost, m->srcDevice, m->srcArray,
                            m->srcXInBytes, sy, m->srcPitch, &src, &sa);
        if (!r) r = drv_copy2d_side(m->dstMemoryType, m->dstHost, m->dstDevice, m->dstArray,
                                    m->dstXInBytes, dy, m->dstPitch, &dst, &da);
        /* an array side is addressed by (X, Y, Z), not by rows of the height */
        if (!r) r = drv_copy_slice(src, sa, m->srcXInBytes, m->srcY, m->srcZ + z, m->srcPitch,
                                   dst, da, m->dstXInBytes, m->dstY, m->dstZ + z, m->dstPitch,
                                   m->WidthInBytes, m->Height, stream, async);
        if (r) return r;
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy) { return drv_copy3d(pCopy, 0, false); }
DRV_API CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy) {
    return drv_copy3d(pCopy, cudaStreamPerThread, false);
}
DRV_API CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream) {
    return drv_copy3d(pCopy, (cudaStream_t)hStream, true);
}
DRV_API CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream) {
    return drv_copy3d(pCopy, DRV_PT(hStream), true);
}

/* ---- sets ---- */

/* Set height rows of width elements of elem bytes, pitch bytes apart, to value. */
static CUresult drv_set(CUdeviceptr dst, size_t pitch, unsigned value, unsigned elem,
                        size_t width, size_t height, cudaStream_t stream, bool async) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_context *c = rt_ctx();
    if (elem == 1) /* bytes: the runtime's own set */
        return drv_from_rt(rt_set2d(c, DRV_PTR(dst), pitch, (int)value, width, height, stream,
                                    async));
    if (dst % elem) return CUDA_ERROR_INVALID_VALUE; /* elements must be aligned */
    if (!width || !height) return CUDA_SUCCESS;
    size_t row = width * elem;
    if (pitch < row) return CUDA_ERROR_INVALID_VALUE;
    size_t span = (height - 1) * pitch + row;
    if (!rt_device_range_ok(c, DRV_PTR(dst), span)) return CUDA_ERROR_INVALID_VALUE;
    if (async && !rt_stream_valid(c, stream)) return CUDA_ERROR_INVALID_HANDLE;
    rt_op *op = rt_op_new(height == 1 || pitch == row ? RT_OP_SET : RT_OP_SET2D);
    if (!op) return CUDA_ERROR_OUT_OF_MEMORY;
    if (op->kind == RT_OP_SET) {
        op->u.set.dst = DRV_PTR(dst);
        op->u.set.value = (int)value;
        op->u.set.bytes = span;
        op->u.set.elem = elem;
    } else {
        op->u.set2d.dst = DRV_PTR(dst);
        op->u.set2d.pitch = pitch;
        op->u.set2d.value = (int)value;
        op->u.set2d.width = row;
        op->u.set2d.height = height;
        op->u.set2d.elem = elem;
    }
    /* a synchronous set of memory the host reads directly completes before returning */
    mem_alloc a;
    bool host_visible = drv_find(DRV_PTR(dst), &a) && a.kind != MEM_KIND_DEVICE &&
                        a.kind != MEM_KIND_GLOBAL_VAR && a.kind != MEM_KIND_CONST_VAR;
    return drv_from_rt(rt_issue(c, stream, op, !async && host_visible ? RT_WAIT_DONE : RT_ASYNC));
}

#define DRV_SET(name, vtype, elem)                                                         \
    DRV_API CUresult name(CUdeviceptr d, vtype v, size_t n) {                              \
        return drv_set(d, n * elem, v, elem, n, 1, 0, false);                              \
    }                                                                                      \
    DRV_API CUresult name##_ptds(CUdeviceptr d, vtype v, size_t n) {                       \
        return drv_set(d, n * elem, v, elem, n, 1, cudaStreamPerThread, false);            \
    }
#define DRV_SET_ASYNC(name, vtype, elem)                                                   \
    DRV_API CUresult name(CUdeviceptr d, vtype v, size_t n, CUstream s) {                  \
        return drv_set(d, n * elem, v, elem, n, 1, (cudaStream_t)s, true);                 \
    }                                                                                      \
    DRV_API CUresult name##_ptsz(CUdeviceptr d, vtype v, size_t n, CUstream s) {           \
        return drv_set(d, n * elem, v, elem, n, 1, DRV_PT(s), true);                       \
    }
#define DRV_SET2D(name, vtype, elem)                                                       \
    DRV_API CUresult name(CUdeviceptr d, size_t pitch, vtype v, size_t w, size_t h) {      \
        return drv_set(d, pitch, v, elem, w, h, 0, false);                                 \
    }                                                                                      \
    DRV_API CUresult name##_ptds(CUdeviceptr d, size_t pitch, vtype v, size_t w, size_t h) { \
        return drv_set(d, pitch, v, elem, w, h, cudaStreamPerThread, false);               \
    }
#define DRV_SET2D_ASYNC(name, vtype, elem)                                                 \
    DRV_API CUresult name(CUdeviceptr d, size_t pitch, vtype v, size_t w, size_t h,        \
                          CUstream s) {                                                    \
        return drv_set(d, pitch, v, elem, w, h, (cudaStream_t)s, true);                    \
    }                                                                                      \
    DRV_API CUresult name##_ptsz(CUdeviceptr d, size_t pitch, vtype v, size_t w, size_t h, \
                                 CUstream s) {                                             \
        return drv_set(d, pitch, v, elem, w, h, DRV_PT(s), true);                          \
    }

DRV_SET(cuMemsetD8_v2, unsigned char, 1)
DRV_SET(cuMemsetD16_v2, unsigned short, 2)
DRV_SET(cuMemsetD32_v2, unsigned int, 4)
DRV_SET_ASYNC(cuMemsetD8Async, unsigned char, 1)
DRV_SET_ASYNC(cuMemsetD16Async, unsigned short, 2)
DRV_SET_ASYNC(cuMemsetD32Async, unsigned int, 4)
DRV_SET2D(cuMemsetD2D8_v2, unsigned char, 1)
DRV_SET2D(cuMemsetD2D16_v2, unsigned short, 2)
DRV_SET2D(cuMemsetD2D32_v2, unsigned int, 4)
DRV_SET2D_ASYNC(cuMemsetD2D8Async, unsigned char, 1)
DRV_SET2D_ASYNC(cuMemsetD2D16Async, unsigned short, 2)
DRV_SET2D_ASYNC(cuMemsetD2D32Async, unsigned int, 4)
