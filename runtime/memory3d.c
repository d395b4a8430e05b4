/* runtime/memory3d.c — three-dimensional linear memory: cudaMalloc3D, cudaMemset3D and
 * cudaMemcpy3D between pitched pointers, done as one 2D operation per depth slice after
 * the whole region has been checked. A copy that names a CUDA array is
 * runtime/array_copy.c's.
 */
#include "rt.h"
#include "texture.h" /* arrays: rt_array_memcpy3d */

#include <stdio.h>

RT_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pitchedDevPtr) return rt_record(cudaErrorInvalidValue);
    struct cudaPitchedPtr r = {NULL, 0, extent.width, extent.height};
    if (extent.width && extent.height && extent.depth) {
        size_t align = (size_t)rt_cur(c)->preset->texture_alignment; /* as cudaMallocPitch */
        if (extent.width > SIZE_MAX - align) return rt_record(cudaErrorMemoryAllocation);
        r.pitch = (extent.width + align - 1) / align * align;
        if (extent.height > SIZE_MAX / r.pitch / extent.depth) return rt_record(cudaErrorMemoryAllocation);
        e = rt_allocate(c, &r.ptr, r.pitch * extent.height * extent.depth, MEM_KIND_DEVICE, 0);
        if (e) return rt_record(e);
    }
    *pitchedDevPtr = r;
    return cudaSuccess;
}

/* Bytes from a pitched pointer's base to the end of a region of extent at pos. */
static bool rt_span3d(struct cudaPitchedPtr p, struct cudaPos pos, struct cudaExtent x,
                      size_t *first, size_t *span) {
    size_t rows_per_slice = p.ysize ? p.ysize : x.height;
    if (x.width > p.pitch || (p.ysize && pos.y + x.height > p.ysize)) return false;
    *first = (pos.z * rows_per_slice + pos.y) * p.pitch + pos.x;
    *span = ((x.depth - 1) * rows_per_slice + (x.height - 1)) * p.pitch + x.width;
    return true;
}

static cudaError_t rt_memset3d(struct cudaPitchedPtr p, int value, struct cudaExtent x,
                               cudaStream_t stream, bool async) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!x.width || !x.height || !x.depth) return cudaSuccess;
    struct cudaPos zero = {0, 0, 0};
    size_t first, span;
    if (!rt_span3d(p, zero, x, &first, &span) || !rt_device_range_ok(c, p.ptr, span))
        return rt_record(cudaErrorInvalidValue);
    size_t slice = (p.ysize ? p.ysize : x.height) * p.pitch;
    for (size_t z = 0; z < x.depth && e == cudaSuccess; z++)
        e = rt_set2d(c, (char *)p.ptr + z * slice, p.pitch, value, x.width, x.height, stream, async);
    return rt_record(e);
}

RT_API cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
                                struct cudaExtent extent) {
    return rt_memset3d(pitchedDevPtr, value, extent, 0, false);
}

RT_API cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
                                     struct cudaExtent extent) {
    return rt_memset3d(pitchedDevPtr, value, extent, cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                     struct cudaExtent extent, cudaStream_t stream) {
    return rt_memset3d(pitchedDevPtr, value, extent, stream, true);
}

RT_API cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                          struct cudaExtent extent, cudaStream_t stream) {
    return rt_memset3d(pitchedDevPtr, value, extent, rt_per_thread(stream), true);
}

static cudaError_t rt_memcpy3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream,
                               bool async) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!p) return rt_record(cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray) return rt_record(rt_array_memcpy3d(c, p, stream, async));
    struct cudaExtent x = p->extent;
    if (!x.width || !x.height || !x.depth) return cudaSuccess;
    size_t sfirst, sspan, dfirst, dspan;
    if (!rt_span3d(p->srcPtr, p->srcPos, x, &sfirst, &sspan) ||
        !rt_span3d(p->dstPtr, p->dstPos, x, &dfirst, &dspan))
        return rt_record(cudaErrorInvalidPitchValue);
    char *src = (char *)p->srcPtr.ptr + sfirst, *dst = (char *)p->dstPtr.ptr + dfirst;
    e = rt_check_copy(c, dst, dspan, src, sspan, p->kind);
    if (e) return rt_record(e);
    size_t sslice = (p->srcPtr.ysize ? p->srcPtr.ysize : x.height) * p->srcPtr.pitch;
    size_t dslice = (p->dstPtr.ysize ? p->dstPtr.ysize : x.height) * p->dstPtr.pitch;
    for (size_t z = 0; z < x.depth && e == cudaSuccess; z++)
        e = rt_copy2d(c, dst + z * dslice, p->dstPtr.pitch, src + z * sslice, p->srcPtr.pitch,
                      x.width, x.height, p->kind, stream, async);
    return rt_record(e);
}

RT_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
    return rt_memcpy3d(p, 0, false);
}

RT_API cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p) {
    return rt_memcpy3d(p, cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
    return rt_memcpy3d(p, stream, true);
}

RT_API cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
    return rt_memcpy3d(p, rt_per_thread(stream), true);
}
