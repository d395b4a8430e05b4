/* driver/array.c — CUDA arrays, texture and surface objects of the driver API: cuArray*,
 * cuArray3D*, cuTexObject* and cuSurfObject* (the offset copies and mipmapped arrays:
 * array_copy.c).
 *
 * They are the runtime's objects (runtime/texture.h): a CUarray is a cudaArray_t, a
 * CUtexObject a cudaTextureObject_t. Each call converts the driver's descriptors to the
 * runtime's and calls the runtime's API, keeping its last error as it was.
 */
#include "drv.h"
#include "../runtime/texture.h"

#include <string.h>

/* CUarray_format and a channel count as a channel descriptor. */
CUresult drv_array_format(CUarray_format f, unsigned n, struct cudaChannelFormatDesc *d) {
    int bits;
    enum cudaChannelFormatKind kind;
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8: bits = 8; kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: bits = 16; kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: bits = 32; kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_SIGNED_INT8: bits = 8; kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT16: bits = 16; kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT32: bits = 32; kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_HALF: bits = 16; kind = cudaChannelFormatKindFloat; break;
    case CU_AD_FORMAT_FLOAT: bits = 32; kind = cudaChannelFormatKindFloat; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (n != 1 && n != 2 && n != 4) return CUDA_ERROR_INVALID_VALUE;
    memset(d, 0, sizeof *d);
    d->x = bits;
    d->y = n > 1 ? bits : 0;
    d->z = d->w = n > 2 ? bits : 0;
    d->f = kind;
    return CUDA_SUCCESS;
}

/* The reverse: a runtime channel descriptor as CUarray_format and a channel count. */
static void drv_format_from_rt(const struct cudaChannelFormatDesc *d, CUarray_format *f,
                               unsigned *n) {
    *n = (d->x != 0) + (d->y != 0) + (d->z != 0) + (d->w != 0);
    bool fl = d->f == cudaChannelFormatKindFloat, s = d->f == cudaChannelFormatKindSigned;
    switch (d->x) {
    case 8: *f = s ? CU_AD_FORMAT_SIGNED_INT8 : CU_AD_FORMAT_UNSIGNED_INT8; break;
    case 16:
        *f = fl ? CU_AD_FORMAT_HALF : s ? CU_AD_FORMAT_SIGNED_INT16 : CU_AD_FORMAT_UNSIGNED_INT16;
        break;
    default:
        *f = fl ? CU_AD_FORMAT_FLOAT : s ? CU_AD_FORMAT_SIGNED_INT32 : CU_AD_FORMAT_UNSIGNED_INT32;
        break;
    }
}

/* ---- arrays ---- */

/* The driver has no channel-descriptor error: a bad format is an invalid value. */
cudaError_t drv_array_channel_error(cudaError_t e) {
    return e == cudaErrorInvalidChannelDescriptor ? cudaErrorInvalidValue : e;
}

static CUresult drv_array_make(CUarray *out, size_t w, size_t h, size_t d, CUarray_format f,
                               unsigned n, unsigned flags) {
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    struct cudaChannelFormatDesc desc;
    if ((r = drv_array_format(f, n, &desc))) return r;
    /* CUDA_ARRAY3D_LAYERED, SURFACE_LDST, CUBEMAP and TEXTURE_GATHER have the runtime's
     * cudaArray* values */
    if (flags & ~(unsigned)(CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST |
                            CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuArray3DCreate", "flags 0x%x not supported",
                        flags);
    if (!w) return CUDA_ERROR_INVALID_VALUE;
    cudaArray_t a = NULL;
    cudaError_t saved = drv_rt_begin();
    struct cudaExtent ext = {w, h, d};
    r = drv_rt_end(saved, drv_array_channel_error(cudaMalloc3DArray(&a, &desc, ext, flags)));
    if (r) return r;
    *out = (CUarray)a;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *d) {
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    return drv_array_make(pHandle, d->Width, d->Height, 0, d->Format, d->NumChannels, 0);
}

DRV_API CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *d) {
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    return drv_array_make(pHandle, d->Width, d->Height, d->Depth, d->Format, d->NumChannels,
                          d->Flags);
}

/* What the runtime says of an array: format, channels, extent, flags. */
static CUresult drv_array_info(CUarray h, CUarray_format *f, unsigned *n, struct cudaExtent *ext,
                               unsigned *flags) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    struct cudaChannelFormatDesc desc;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, cudaArrayGetInfo(&desc, ext, flags, (cudaArray_t)h));
    if (r) return CUDA_ERROR_INVALID_HANDLE;
    drv_format_from_rt(&desc, f, n);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *d, CUarray hArray) {
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    struct cudaExtent ext;
    unsigned flags, n;
    CUarray_format f;
    CUresult r = drv_array_info(hArray, &f, &n, &ext, &flags);
    if (r) return r;
    d->Width = ext.width;
    d->Height = ext.height;
    d->Format = f;
    d->NumChannels = n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray hArray) {
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    struct cudaExtent ext;
    unsigned flags, n;
    CUarray_format f;
    CUresult r = drv_array_info(hArray, &f, &n, &ext, &flags);
    if (r) return r;
    d->Width = ext.width;
    d->Height = ext.height;
    d->Depth = ext.depth;
    d->Format = f;
    d->NumChannels = n;
    d->Flags = flags;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuArrayDestroy(CUarray hArray) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    if (!hArray) return CUDA_ERROR_INVALID_VALUE;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, cudaFreeArray((cudaArray_t)hArray));
    return r ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
}

/* ---- texture and surface objects ---- */

/* A CUDA_RESOURCE_DESC as the runtime's; *is_float: its texels are floats (half or float),
 * which read as they are whatever CU_TRSF_READ_AS_INTEGER says. */
static CUresult drv_res_to_rt(const CUDA_RESOURCE_DESC *d, struct cudaResourceDesc *o,
                              bool *is_float) {
    memset(o, 0, sizeof *o);
    CUarray_format f = CU_AD_FORMAT_FLOAT;
    unsigned n = 1;
    CUresult r = CUDA_SUCCESS;
    if (d->flags) return CUDA_ERROR_INVALID_VALUE;
    switch (d->resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
        struct cudaExtent ext;
        unsigned flags;
        o->resType = cudaResourceTypeArray;
        o->res.array.array = (cudaArray_t)d->res.array.hArray;
        if ((r = drv_array_info(d->res.array.hArray, &f, &n, &ext, &flags)))
            return CUDA_ERROR_INVALID_VALUE;
        break;
    }
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
        /* the levels share the format: level 0's says whether the texels are floats */
        const rt_mipmap *m = rt_mipmap_get(rt_ctx(), d->res.mipmap.hMipmappedArray);
        if (!m) return CUDA_ERROR_INVALID_VALUE;
        o->resType = cudaResourceTypeMipmappedArray;
        o->res.mipmap.mipmap = (cudaMipmappedArray_t)d->res.mipmap.hMipmappedArray;
        drv_format_from_rt(&m->level[0].desc, &f, &n);
        break;
    }
    case CU_RESOURCE_TYPE_LINEAR:
        o->resType = cudaResourceTypeLinear;
        o->res.linear.devPtr = (void *)(uintptr_t)d->res.linear.devPtr;
        o->res.linear.sizeInBytes = d->res.linear.sizeInBytes;
        f = d->res.linear.format;
        n = d->res.linear.numChannels;
        r = drv_array_format(f, n, &o->res.linear.desc);
        break;
    case CU_RESOURCE_TYPE_PITCH2D:
        o->resType = cudaResourceTypePitch2D;
        o->res.pitch2D.devPtr = (void *)(uintptr_t)d->res.pitch2D.devPtr;
        o->res.pitch2D.width = d->res.pitch2D.width;
        o->res.pitch2D.height = d->res.pitch2D.height;
        o->res.pitch2D.pitchInBytes = d->res.pitch2D.pitchInBytes;
        f = d->res.pitch2D.format;
        n = d->res.pitch2D.numChannels;
        r = drv_array_format(f, n, &o->res.pitch2D.desc);
        break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    *is_float = f == CU_AD_FORMAT_FLOAT || f == CU_AD_FORMAT_HALF;
    return r;
}

DRV_API CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                   const CUDA_TEXTURE_DESC *pTexDesc,
                                   const CUDA_RESOURCE_VIEW_DESC *pResViewDesc) {
    if (!pTexObject || !pResDesc || !pTexDesc) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    struct cudaResourceDesc res;
    bool is_float = false;
    if ((r = drv_res_to_rt(pResDesc, &res, &is_float))) return r;
    const CUDA_TEXTURE_DESC *t = pTexDesc;
    struct cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    for (int k = 0; k < 3; k++) {
        if ((unsigned)t->addressMode[k] > CU_TR_ADDRESS_MODE_BORDER)
            return CUDA_ERROR_INVALID_VALUE;
        tex.addressMode[k] = (enum cudaTextureAddressMode)t->addressMode[k];
    }
    if ((unsigned)t->filterMode > CU_TR_FILTER_MODE_LINEAR ||
        (unsigned)t->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR)
        return CUDA_ERROR_INVALID_VALUE;
    tex.filterMode = (enum cudaTextureFilterMode)t->filterMode;
    /* integer texels read as [0, 1] (or [-1, 1]) floats unless CU_TRSF_READ_AS_INTEGER */
    tex.readMode = (t->flags & CU_TRSF_READ_AS_INTEGER) || is_float
                       ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
    tex.sRGB = !!(t->flags & CU_TRSF_SRGB);
    tex.normalizedCoords = !!(t->flags & CU_TRSF_NORMALIZED_COORDINATES);
    tex.disableTrilinearOptimization = !!(t->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION);
    tex.seamlessCubemap = !!(t->flags & CU_TRSF_SEAMLESS_CUBEMAP);
    memcpy(tex.borderColor, t->borderColor, sizeof tex.borderColor);
    tex.maxAnisotropy = t->maxAnisotropy;
    tex.mipmapFilterMode = (enum cudaTextureFilterMode)t->mipmapFilterMode;
    tex.mipmapLevelBias = t->mipmapLevelBias;
    tex.minMipmapLevelClamp = t->minMipmapLevelClamp;
    tex.maxMipmapLevelClamp = t->maxMipmapLevelClamp;
    struct cudaResourceViewDesc view, *pview = NULL;
    if (pResViewDesc) {
        /* CUresourceViewFormat has cudaResourceViewFormat's values */
        memset(&view, 0, sizeof view);
        view.format = (enum cudaResourceViewFormat)pResViewDesc->format;
        view.width = pResViewDesc->width;
        view.height = pResViewDesc->height;
        view.depth = pResViewDesc->depth;
        view.firstMipmapLevel = pResViewDesc->firstMipmapLevel;
        view.lastMipmapLevel = pResViewDesc->lastMipmapLevel;
        view.firstLayer = pResViewDesc->firstLayer;
        view.lastLayer = pResViewDesc->lastLayer;
        pview = &view;
    }
    cudaTextureObject_t o = 0;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved,
                   drv_array_channel_error(cudaCreateTextureObject(&o, &res, &tex, pview)));
    if (r) return r;
    *pTexObject = (CUtexObject)o;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuTexObjectDestroy(CUtexObject texObject) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, cudaDestroyTextureObject((cudaTextureObject_t)texObject));
    return r ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

DRV_API CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject) {
    if (!pResDesc) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    struct cudaResourceDesc res;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, cudaGetTextureObjectResourceDesc(&res, (cudaTextureObject_t)texObject));
    if (r) return CUDA_ERROR_INVALID_VALUE;
    memset(pResDesc, 0, sizeof *pResDesc);
    CUarray_format f;
    unsigned n;
    switch (res.resType) {
    case cudaResourceTypeArray:
        pResDesc->resType = CU_RESOURCE_TYPE_ARRAY;
        pResDesc->res.array.hArray = (CUarray)res.res.array.array;
        break;
    case cudaResourceTypeMipmappedArray:
        pResDesc->resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
        pResDesc->res.mipmap.hMipmappedArray = (CUmipmappedArray)res.res.mipmap.mipmap;
        break;
    case cudaResourceTypeLinear:
        pResDesc->resType = CU_RESOURCE_TYPE_LINEAR;
        pResDesc->res.linear.devPtr = (CUdeviceptr)(uintptr_t)res.res.linear.devPtr;
        pResDesc->res.linear.sizeInBytes = res.res.linear.sizeInBytes;
        drv_format_from_rt(&res.res.linear.desc, &f, &n);
        pResDesc->res.linear.format = f;
        pResDesc->res.linear.numChannels = n;
        break;
    case cudaResourceTypePitch2D:
        pResDesc->resType = CU_RESOURCE_TYPE_PITCH2D;
        pResDesc->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)res.res.pitch2D.devPtr;
        pResDesc->res.pitch2D.width = res.res.pitch2D.width;
        pResDesc->res.pitch2D.height = res.res.pitch2D.height;
        pResDesc->res.pitch2D.pitchInBytes = res.res.pitch2D.pitchInBytes;
        drv_format_from_rt(&res.res.pitch2D.desc, &f, &n);
        pResDesc->res.pitch2D.format = f;
        pResDesc->res.pitch2D.numChannels = n;
        break;
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc) {
    if (!pSurfObject || !pResDesc) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    /* a surface is made over an array only */
    if (pResDesc->resType != CU_RESOURCE_TYPE_ARRAY) return CUDA_ERROR_INVALID_VALUE;
    struct cudaResourceDesc res;
    bool is_float;
    if ((r = drv_res_to_rt(pResDesc, &res, &is_float))) return r;
    cudaSurfaceObject_t o = 0;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, cudaCreateSurfaceObject(&o, &res));
    if (r) return CUDA_ERROR_INVALID_VALUE;
    *pSurfObject = (CUsurfObject)o;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuSurfObjectDestroy(CUsurfObject surfObject) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, cudaDestroySurfaceObject((cudaSurfaceObject_t)surfObject));
    return r ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
