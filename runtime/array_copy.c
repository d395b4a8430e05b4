/* runtime/array_copy.c — copies into, out of and between CUDA arrays:
 * cudaMemcpy2DToArray / 2DFromArray / 2DArrayToArray and their async forms, the
 * deprecated offset forms (cudaMemcpyToArray, FromArray, ArrayToArray and async), and
 * cudaMemcpy3D (and async) when a side is an array. An array's rows are memory like any
 * other device memory (runtime/texture.h), so each copy becomes 2D copies of the
 * runtime's own (rt_copy2d) once its rectangle has been checked against the array.
 */
#include "texture.h"

/* Where byte column x of row y of slice z of an array is, if a rectangle of width bytes,
 * height rows and depth slices fits there. */
static bool rt_array_rect(const rt_array *a, size_t x, size_t y, size_t z, size_t width,
                          size_t height, size_t depth, uint8_t **at) {
    if (x > a->pitch || width > a->pitch - x || y > a->rows || height > a->rows - y ||
        z > a->nslices || depth > a->nslices - z)
        return false;
    *at = a->data + z * a->slice + y * a->pitch + x;
    return true;
}

cudaError_t rt_array_copy2d(rt_context *c, rt_array *dst_array, size_t dx, size_t dy, size_t dz,
                            void *dst, size_t dpitch, const rt_array *src_array, size_t sx,
                            size_t sy, size_t sz, const void *src, size_t spitch, size_t width,
                            size_t height, enum cudaMemcpyKind kind, cudaStream_t stream,
                            bool async) {
    if (width == 0 || height == 0) return cudaSuccess;
    if (dst_array) {
        uint8_t *p;
        if (!rt_array_rect(dst_array, dx, dy, dz, width, height, 1, &p)) return cudaErrorInvalidValue;
        dst = p;
        dpitch = dst_array->pitch;
    }
    if (src_array) {
        uint8_t *p;
        if (!rt_array_rect(src_array, sx, sy, sz, width, height, 1, &p)) return cudaErrorInvalidValue;
        src = p;
        spitch = src_array->pitch;
    }
    return rt_copy2d(c, dst, dpitch, src, spitch, width, height, kind, stream, async);
}

/* The deprecated forms: count bytes from (x, y), running on into the following rows. */
static cudaError_t rt_array_copy_linear(rt_context *c, rt_array *dst_array, size_t dx, size_t dy,
                                        void *dst, const rt_array *src_array, size_t sx, size_t sy,
                                        const void *src, size_t count, enum cudaMemcpyKind kind,
                                        cudaStream_t stream, bool async) {
    if (count == 0) return cudaSuccess;
    if (dst_array) {
        const rt_array *a = dst_array;
        if (dx >= a->pitch || dy >= a->rows || count > a->slice - (dy * a->pitch + dx))
            return cudaErrorInvalidValue;
        dst = a->data + dy * a->pitch + dx;
    }
    if (src_array) {
        const rt_array *a = src_array;
        if (sx >= a->pitch || sy >= a->rows || count > a->slice - (sy * a->pitch + sx))
            return cudaErrorInvalidValue;
        src = a->data + sy * a->pitch + sx;
    }
    return rt_memcpy(c, dst, src, count, kind, stream, async);
}

/* ---- cudaMemcpy3D with arrays ---- */

cudaError_t rt_array_memcpy3d(rt_context *c, const struct cudaMemcpy3DParms *p,
                              cudaStream_t stream, bool async) {
    rt_array *sa = NULL, *da = NULL;
    if (p->srcArray && !(sa = rt_array_get(c, p->srcArray))) return cudaErrorInvalidResourceHandle;
    if (p->dstArray && !(da = rt_array_get(c, p->dstArray))) return cudaErrorInvalidResourceHandle;
    if ((p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
        return cudaErrorInvalidValue;
    /* extents and array positions count elements; pointer positions count bytes */
    size_t elem = sa ? sa->elem_size : da->elem_size;
    if (sa && da && sa->elem_size != da->elem_size) return cudaErrorInvalidValue;
    struct cudaExtent x = p->extent;
    if (!x.width || !x.height || !x.depth) return cudaSuccess;
    size_t width = x.width * elem;
    cudaError_t e = cudaSuccess;
    for (size_t z = 0; z < x.depth && e == cudaSuccess; z++) {
        uint8_t *dst = NULL;
        const uint8_t *src = NULL;
        size_t dpitch = 0, spitch = 0;
        if (da) {
            uint8_t *at;
            if (!rt_array_rect(da, p->dstPos.x * elem, p->dstPos.y, p->dstPos.z, width, x.height,
                               x.depth, &at))
                return cudaErrorInvalidValue;
            dst = at + z * da->slice;
            dpitch = da->pitch;
        } else {
            size_t rows = p->dstPtr.ysize ? p->dstPtr.ysize : x.height;
            if (width > p->dstPtr.pitch) return cudaErrorInvalidPitchValue;
            dst = (uint8_t *)p->dstPtr.ptr +
                  ((p->dstPos.z + z) * rows + p->dstPos.y) * p->dstPtr.pitch + p->dstPos.x;
            dpitch = p->dstPtr.pitch;
        }
        if (sa) {
            uint8_t *at;
            if (!rt_array_rect(sa, p->srcPos.x * elem, p->srcPos.y, p->srcPos.z, width, x.height,
                               x.depth, &at))
                return cudaErrorInvalidValue;
            src = at + z * sa->slice;
            spitch = sa->pitch;
        } else {
            size_t rows = p->srcPtr.ysize ? p->srcPtr.ysize : x.height;
            if (width > p->srcPtr.pitch) return cudaErrorInvalidPitchValue;
            src = (const uint8_t *)p->srcPtr.ptr +
                  ((p->srcPos.z + z) * rows + p->srcPos.y) * p->srcPtr.pitch + p->srcPos.x;
            spitch = p->srcPtr.pitch;
        }
        e = rt_copy2d(c, dst, dpitch, src, spitch, width, x.height, p->kind, stream, async);
    }
    return e;
}

/* ---- the API ---- */

static cudaError_t rt_to_array(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                               size_t spitch, size_t width, size_t height,
                               enum cudaMemcpyKind kind, cudaStream_t stream, bool async) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_array *a = rt_array_get(c, dst);
    if (!a) return rt_record(cudaErrorInvalidResourceHandle);
    return rt_record(rt_array_copy2d(c, a, wOffset, hOffset, 0, NULL, 0, NULL, 0, 0, 0, src,
                                     spitch, width, height, kind, stream, async));
}

static cudaError_t rt_from_array(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                 size_t hOffset, size_t width, size_t height,
                                 enum cudaMemcpyKind kind, cudaStream_t stream, bool async) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_array *a = rt_array_get(c, src);
    if (!a) return rt_record(cudaErrorInvalidResourceHandle);
    return rt_record(rt_array_copy2d(c, NULL, 0, 0, 0, dst, dpitch, a, wOffset, hOffset, 0, NULL,
                                     0, width, height, kind, stream, async));
}

static cudaError_t rt_array_to_array(cudaArray_t dst, size_t wd, size_t hd, cudaArray_const_t src,
                                     size_t ws, size_t hs, size_t width, size_t height,
                                     enum cudaMemcpyKind kind, cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_array *da = rt_array_get(c, dst), *sa = rt_array_get(c, src);
    if (!da || !sa) return rt_record(cudaErrorInvalidResourceHandle);
    return rt_record(rt_array_copy2d(c, da, wd, hd, 0, NULL, 0, sa, ws, hs, 0, NULL, 0, width,
                                     height, kind, stream, false));
}

static cudaError_t rt_linear_array(cudaArray_t dst, size_t dx, size_t dy, void *dptr,
                                   cudaArray_const_t src, size_t sx, size_t sy, const void *sptr,
                                   size_t count, enum cudaMemcpyKind kind, cudaStream_t stream,
                                   bool async) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_array *da = NULL, *sa = NULL;
    if (dst && !(da = rt_array_get(c, dst))) return rt_record(cudaErrorInvalidResourceHandle);
    if (src && !(sa = rt_array_get(c, src))) return rt_record(cudaErrorInvalidResourceHandle);
    return rt_record(rt_array_copy_linear(c, da, dx, dy, dptr, sa, sx, sy, sptr, count, kind,
                                          stream, async));
}

RT_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                       const void *src, size_t spitch, size_t width,
                                       size_t height, enum cudaMemcpyKind kind) {
    return rt_to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, 0, false);
}

RT_API cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                            const void *src, size_t spitch, size_t width,
                                            size_t height, enum cudaMemcpyKind kind) {
    return rt_to_array(dst, wOffset, hOffset, src, spitch, width, height, kind,
                       cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                            const void *src, size_t spitch, size_t width,
                                            size_t height, enum cudaMemcpyKind kind,
                                            cudaStream_t stream) {
    return rt_to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, stream, true);
}

RT_API cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                 const void *src, size_t spitch, size_t width,
                                                 size_t height, enum cudaMemcpyKind kind,
                                                 cudaStream_t stream) {
    return rt_to_array(dst, wOffset, hOffset, src, spitch, width, height, kind,
                       rt_per_thread(stream), true);
}

RT_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                         size_t wOffset, size_t hOffset, size_t width,
                                         size_t height, enum cudaMemcpyKind kind) {
    return rt_from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, 0, false);
}

RT_API cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
                                              size_t wOffset, size_t hOffset, size_t width,
                                              size_t height, enum cudaMemcpyKind kind) {
    return rt_from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind,
                         cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                              size_t wOffset, size_t hOffset, size_t width,
                                              size_t height, enum cudaMemcpyKind kind,
                                              cudaStream_t stream) {
    return rt_from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream, true);
}

RT_API cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                                   size_t wOffset, size_t hOffset, size_t width,
                                                   size_t height, enum cudaMemcpyKind kind,
                                                   cudaStream_t stream) {
    return rt_from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind,
                         rt_per_thread(stream), true);
}

RT_API cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                            cudaArray_const_t src, size_t wOffsetSrc,
                                            size_t hOffsetSrc, size_t width, size_t height,
                                            enum cudaMemcpyKind kind) {
    return rt_array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width,
                             height, kind, 0);
}

RT_API cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                 size_t hOffsetDst, cudaArray_const_t src,
                                                 size_t wOffsetSrc, size_t hOffsetSrc,
                                                 size_t width, size_t height,
                                                 enum cudaMemcpyKind kind) {
    return rt_array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width,
                             height, kind, cudaStreamPerThread);
}

/* ---- the deprecated forms ---- */

RT_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t count, enum cudaMemcpyKind kind) {
    return rt_linear_array(dst, wOffset, hOffset, NULL, NULL, 0, 0, src, count, kind, 0, false);
}

RT_API cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t count, enum cudaMemcpyKind kind) {
    return rt_linear_array(dst, wOffset, hOffset, NULL, NULL, 0, 0, src, count, kind,
                           cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t count, enum cudaMemcpyKind kind,
                                          cudaStream_t stream) {
    return rt_linear_array(dst, wOffset, hOffset, NULL, NULL, 0, 0, src, count, kind, stream, true);
}

RT_API cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void *src, size_t count,
                                               enum cudaMemcpyKind kind, cudaStream_t stream) {
    return rt_linear_array(dst, wOffset, hOffset, NULL, NULL, 0, 0, src, count, kind,
                           rt_per_thread(stream), true);
}

RT_API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t count, enum cudaMemcpyKind kind) {
    return rt_linear_array(NULL, 0, 0, dst, src, wOffset, hOffset, NULL, count, kind, 0, false);
}

RT_API cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t count, enum cudaMemcpyKind kind) {
    return rt_linear_array(NULL, 0, 0, dst, src, wOffset, hOffset, NULL, count, kind,
                           cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                            cudaStream_t stream) {
    return rt_linear_array(NULL, 0, 0, dst, src, wOffset, hOffset, NULL, count, kind, stream, true);
}

RT_API cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t count,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream) {
    return rt_linear_array(NULL, 0, 0, dst, src, wOffset, hOffset, NULL, count, kind,
                           rt_per_thread(stream), true);
}

RT_API cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                          cudaArray_const_t src, size_t wOffsetSrc,
                                          size_t hOffsetSrc, size_t count,
                                          enum cudaMemcpyKind kind) {
    return rt_linear_array(dst, wOffsetDst, hOffsetDst, NULL, src, wOffsetSrc, hOffsetSrc, NULL,
                           count, kind, 0, false);
}

RT_API cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                               size_t hOffsetDst, cudaArray_const_t src,
                                               size_t wOffsetSrc, size_t hOffsetSrc, size_t count,
                                               enum cudaMemcpyKind kind) {
    return rt_linear_array(dst, wOffsetDst, hOffsetDst, NULL, src, wOffsetSrc, hOffsetSrc, NULL,
                           count, kind, cudaStreamPerThread, false);
}
