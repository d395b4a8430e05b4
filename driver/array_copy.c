/* driver/array_copy.c — the driver API's copies to and from CUDA arrays by byte offset
 * (cuMemcpyHtoA, AtoH, AtoA, DtoA, AtoD and the async HtoA and AtoH), and mipmapped arrays
 * (cuMipmappedArrayCreate, GetLevel, Destroy).
 *
 * An offset copy reaches the first row of an array only: an H200 refused (invalid value)
 * any byte count or offset running past the array's width in bytes, for 2D arrays as for
 * 1D ones, and took any byte offset and count within it (tests/driver/array_copies.cu). So
 * each is a one-row copy of the runtime's (rt_array_copy2d), which checks exactly that.
 * A mipmapped array is the runtime's (runtime/texture.h), made and freed by its API.
 */
#include "drv.h"
#include "../runtime/texture.h"

/* The array a handle names; a null or unknown handle is an invalid value here, as an
 * H200 answered for both copies and their async forms. */
static CUresult drv_copy_array(CUarray h, rt_array **out) {
    *out = h ? rt_array_get(rt_ctx(), h) : NULL;
    return *out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* count bytes between byte offset doff of dst (an array, or memory at dptr) and byte
 * offset soff of src (an array, or memory at sptr). */
static CUresult drv_offset_copy(CUarray dst, size_t doff, void *dptr, CUarray src, size_t soff,
                                const void *sptr, size_t count, cudaStream_t stream,
                                bool async) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_array *da = NULL, *sa = NULL;
    if (!dptr && (r = drv_copy_array(dst, &da))) return r;
    if (!sptr && (r = drv_copy_array(src, &sa))) return r;
    return drv_from_rt(rt_array_copy2d(rt_ctx(), da, doff, 0, 0, dptr, count, sa, soff, 0, 0,
                                       sptr, count, count, 1, cudaMemcpyDefault, stream,
                                       async));
}

DRV_API CUresult cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                 size_t ByteCount) {
    return drv_offset_copy(dstArray, dstOffset, NULL, NULL, 0, srcHost, ByteCount, 0, false);
}
DRV_API CUresult cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                      size_t ByteCount) {
    return drv_offset_copy(dstArray, dstOffset, NULL, NULL, 0, srcHost, ByteCount,
                           cudaStreamPerThread, false);
}

DRV_API CUresult cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset,
                                 size_t ByteCount) {
    return drv_offset_copy(NULL, 0, dstHost, srcArray, srcOffset, NULL, ByteCount, 0, false);
}
DRV_API CUresult cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount) {
    return drv_offset_copy(NULL, 0, dstHost, srcArray, srcOffset, NULL, ByteCount,
                           cudaStreamPerThread, false);
}

DRV_API CUresult cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset, CUarray srcArray,
                                 size_t srcOffset, size_t ByteCount) {
    return drv_offset_copy(dstArray, dstOffset, NULL, srcArray, srcOffset, NULL, ByteCount, 0,
                           false);
}
DRV_API CUresult cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray,
                                      size_t srcOffset, size_t ByteCount) {
    return drv_offset_copy(dstArray, dstOffset, NULL, srcArray, srcOffset, NULL, ByteCount,
                           cudaStreamPerThread, false);
}

DRV_API CUresult cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                                 size_t ByteCount) {
    return drv_offset_copy(dstArray, dstOffset, NULL, NULL, 0, DRV_PTR(srcDevice), ByteCount,
                           0, false);
}
DRV_API CUresult cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                                      size_t ByteCount) {
    return drv_offset_copy(dstArray, dstOffset, NULL, NULL, 0, DRV_PTR(srcDevice), ByteCount,
                           cudaStreamPerThread, false);
}

DRV_API CUresult cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                                 size_t ByteCount) {
    return drv_offset_copy(NULL, 0, DRV_PTR(dstDevice), srcArray, srcOffset, NULL, ByteCount,
                           0, false);
}
DRV_API CUresult cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount) {
    return drv_offset_copy(NULL, 0, DRV_PTR(dstDevice), srcArray, srcOffset, NULL, ByteCount,
                           cudaStreamPerThread, false);
}

DRV_API CUresult cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                      size_t ByteCount, CUstream hStream) {
    return drv_offset_copy(dstArray, dstOffset, NULL, NULL, 0, srcHost, ByteCount,
                           (cudaStream_t)hStream, true);
}
DRV_API CUresult cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset,
                                           const void *srcHost, size_t ByteCount,
                                           CUstream hStream) {
    return drv_offset_copy(dstArray, dstOffset, NULL, NULL, 0, srcHost, ByteCount,
                           DRV_PT(hStream), true);
}

DRV_API CUresult cuMemcpyAtoHAsync_v2(void *dstHost, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount, CUstream hStream) {
    return drv_offset_copy(NULL, 0, dstHost, srcArray, srcOffset, NULL, ByteCount,
                           (cudaStream_t)hStream, true);
}
DRV_API CUresult cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset,
                                           size_t ByteCount, CUstream hStream) {
    return drv_offset_copy(NULL, 0, dstHost, srcArray, srcOffset, NULL, ByteCount,
                           DRV_PT(hStream), true);
}

/* ---- mipmapped arrays ---- */

DRV_API CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle,
                                        const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                        unsigned int numMipmapLevels) {
    const CUDA_ARRAY3D_DESCRIPTOR *d = pMipmappedArrayDesc;
    if (!pHandle || !d) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    struct cudaChannelFormatDesc desc;
    if ((r = drv_array_format(d->Format, d->NumChannels, &desc))) return r;
    if (!d->Width) return CUDA_ERROR_INVALID_VALUE;
    /* the runtime clamps the level count to [1, 1 + log2 of the largest side], as the
     * driver does (an H200 made 0 and 6 levels of a 16x8 array) */
    cudaMipmappedArray_t m = NULL;
    struct cudaExtent ext = {d->Width, d->Height, d->Depth};
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, drv_array_channel_error(
                              cudaMallocMipmappedArray(&m, &desc, ext, numMipmapLevels, d->Flags)));
    if (r) return r;
    *pHandle = (CUmipmappedArray)m;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray,
                                          unsigned int level) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    if (!pLevelArray) return CUDA_ERROR_INVALID_VALUE;
    if (!hMipmappedArray) return CUDA_ERROR_INVALID_HANDLE;
    cudaArray_t a = NULL;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, cudaGetMipmappedArrayLevel(&a, (cudaMipmappedArray_t)hMipmappedArray,
                                                     level));
    if (r) return r;
    *pLevelArray = (CUarray)a;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    /* unlike cudaFreeMipmappedArray(NULL), a null handle is an invalid one (an H200) */
    if (!hMipmappedArray) return CUDA_ERROR_INVALID_HANDLE;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaFreeMipmappedArray((cudaMipmappedArray_t)hMipmappedArray));
}
