/* driver/tensormap.c — tensor map objects for the tensor memory accelerator:
 * cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col and cuTensorMapReplaceAddress. The map is
 * written in vcuda's own layout (exec/tensormap.h), which cp.async.bulk.tensor reads; every
 * requirement the driver API reference lists for the arguments is checked, and a violation
 * answers CUDA_ERROR_INVALID_VALUE as the driver does.
 */
#include <string.h>

#include "drv.h"
#include "../exec/tensormap.h"

static unsigned tmap_elem_size(CUtensorMapDataType t) {
    switch (t) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
    case CU_TENSOR_MAP_DATA_TYPE_UINT16: case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
    case CU_TENSOR_MAP_DATA_TYPE_UINT32: case CU_TENSOR_MAP_DATA_TYPE_INT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32: case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32: case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return 4;
    case CU_TENSOR_MAP_DATA_TYPE_UINT64: case CU_TENSOR_MAP_DATA_TYPE_INT64:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
    default: return 0; /* the packed 4- and 6-bit types: not supported */
    }
}

static bool tmap_is_float(CUtensorMapDataType t) {
    return t >= CU_TENSOR_MAP_DATA_TYPE_FLOAT16 && t <= CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ;
}

/* What the two encoders check alike and write alike: the element type, rank, address,
 * dimensions, strides, traversal strides and modes. inner_bytes is the bytes of dimension 0
 * one copy moves per row (box or pixel), which a swizzle span must hold. */
static CUresult tmap_encode(exec_tmap *m, CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                            cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
                            const cuuint64_t *globalStrides, const cuuint32_t *elementStrides,
                            CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                            CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
    unsigned es = tmap_elem_size(tensorDataType);
    if (!tensorMap || ((uintptr_t)tensorMap & 63) || !es || tensorRank == 0 ||
        tensorRank > EXEC_TMAP_MAX_RANK || !globalAddress || ((uintptr_t)globalAddress & 15) ||
        !globalDim || (tensorRank > 1 && !globalStrides) || !elementStrides ||
        (unsigned)l2Promotion > CU_TENSOR_MAP_L2_PROMOTION_L2_256B ||
        (unsigned)oobFill > CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA ||
        (oobFill && !tmap_is_float(tensorDataType)))
        return CUDA_ERROR_INVALID_VALUE;
    /* interleaved layouts and the 128B_ATOM swizzles: refused as unsupported */
    if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE) {
        if ((unsigned)interleave > CU_TENSOR_MAP_INTERLEAVE_32B) return CUDA_ERROR_INVALID_VALUE;
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if ((unsigned)swizzle > CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B) return CUDA_ERROR_INVALID_VALUE;
    if (swizzle > CU_TENSOR_MAP_SWIZZLE_128B) return CUDA_ERROR_NOT_SUPPORTED;
    for (unsigned i = 0; i < tensorRank; i++) {
        if (globalDim[i] == 0 || globalDim[i] > (1ull << 32) || elementStrides[i] == 0 ||
            elementStrides[i] > 8)
            return CUDA_ERROR_INVALID_VALUE;
        m->gdim[i] = globalDim[i];
        m->estride[i] = (uint8_t)elementStrides[i];
    }
    for (unsigned i = 0; i + 1 < tensorRank; i++) {
        if (globalStrides[i] % 16 || globalStrides[i] >= (1ull << 40))
            return CUDA_ERROR_INVALID_VALUE;
        m->gstride[i] = globalStrides[i];
    }
    m->magic = EXEC_TMAP_MAGIC;
    m->rank = (uint8_t)tensorRank;
    m->dtype = (uint8_t)tensorDataType;
    m->elem_size = (uint8_t)es;
    m->interleave = (uint8_t)interleave;
    m->swizzle = (uint8_t)swizzle;
    m->l2promo = (uint8_t)l2Promotion;
    m->oob_nan = oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
    m->gaddr = (uint64_t)(uintptr_t)globalAddress;
    return CUDA_SUCCESS;
}

/* A row of dimension 0 (inner bytes) is whole 16-byte units and fits the swizzle span. */
static bool tmap_inner_ok(uint64_t inner, CUtensorMapSwizzle swizzle) {
    if (inner % 16) return false;
    return swizzle == CU_TENSOR_MAP_SWIZZLE_NONE || inner <= (16u << swizzle);
}

static void tmap_store(CUtensorMap *tensorMap, const exec_tmap *m) {
    memset(tensorMap, 0, sizeof *tensorMap);
    memcpy(tensorMap, m, sizeof *m);
}

DRV_API CUresult cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                                        cuuint32_t tensorRank, void *globalAddress,
                                        const cuuint64_t *globalDim,
                                        const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
                                        const cuuint32_t *elementStrides,
                                        CUtensorMapInterleave interleave,
                                        CUtensorMapSwizzle swizzle,
                                        CUtensorMapL2promotion l2Promotion,
                                        CUtensorMapFloatOOBfill oobFill) {
    exec_tmap m;
    memset(&m, 0, sizeof m);
    if (!boxDim) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = tmap_encode(&m, tensorMap, tensorDataType, tensorRank, globalAddress, globalDim,
                             globalStrides, elementStrides, interleave, swizzle, l2Promotion,
                             oobFill);
    if (r != CUDA_SUCCESS) return r;
    for (unsigned i = 0; i < tensorRank; i++) {
        if (boxDim[i] == 0 || boxDim[i] > 256) return CUDA_ERROR_INVALID_VALUE;
        m.box[i] = boxDim[i];
    }
    if (!tmap_inner_ok((uint64_t)boxDim[0] * m.elem_size, swizzle)) return CUDA_ERROR_INVALID_VALUE;
    tmap_store(tensorMap, &m);
    return CUDA_SUCCESS;
}

/* An im2col map: dimension 0 is the channels (C), 1 .. rank-2 the spatial ones (W, H, D),
 * rank-1 the images (N). The corners bound, per spatial dimension, where the first pixel
 * of a filter position may be: [lower, globalDim - 1 + upper]; their arrays are indexed
 * as the dimensions are (W first). Each corner takes a signed 16-, 8- or 5-bit offset for
 * rank 3, 4 or 5. */
DRV_API CUresult cuTensorMapEncodeIm2col(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                                         cuuint32_t tensorRank, void *globalAddress,
                                         const cuuint64_t *globalDim,
                                         const cuuint64_t *globalStrides,
                                         const int *pixelBoxLowerCorner,
                                         const int *pixelBoxUpperCorner,
                                         cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
                                         const cuuint32_t *elementStrides,
                                         CUtensorMapInterleave interleave,
                                         CUtensorMapSwizzle swizzle,
                                         CUtensorMapL2promotion l2Promotion,
                                         CUtensorMapFloatOOBfill oobFill) {
    exec_tmap m;
    memset(&m, 0, sizeof m);
    if (tensorRank < 3 || tensorRank > 5 || !pixelBoxLowerCorner || !pixelBoxUpperCorner ||
        channelsPerPixel == 0 || channelsPerPixel > 256 || pixelsPerColumn == 0 ||
        pixelsPerColumn > 1024)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = tmap_encode(&m, tensorMap, tensorDataType, tensorRank, globalAddress, globalDim,
                             globalStrides, elementStrides, interleave, swizzle, l2Promotion,
                             oobFill);
    if (r != CUDA_SUCCESS) return r;
    int lim = tensorRank == 3 ? 32768 : tensorRank == 4 ? 128 : 16;
    for (unsigned i = 0; i + 2 < tensorRank; i++) {
        int lo = pixelBoxLowerCorner[i], hi = pixelBoxUpperCorner[i];
        if (lo < -lim || lo >= lim || hi < -lim || hi >= lim) return CUDA_ERROR_INVALID_VALUE;
        /* the bounding box must have non-zero area */
        if ((int64_t)m.gdim[i + 1] - 1 + hi < lo) return CUDA_ERROR_INVALID_VALUE;
        m.ic.lower[i] = (int16_t)lo;
        m.ic.upper[i] = (int16_t)hi;
    }
    if (!tmap_inner_ok((uint64_t)channelsPerPixel * m.elem_size, swizzle))
        return CUDA_ERROR_INVALID_VALUE;
    m.im2col = 1;
    m.ic.channels = channelsPerPixel;
    m.ic.pixels = pixelsPerColumn;
    tmap_store(tensorMap, &m);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuTensorMapReplaceAddress(CUtensorMap *tensorMap, void *globalAddress) {
    if (!tensorMap || ((uintptr_t)tensorMap & 63) || !globalAddress ||
        ((uintptr_t)globalAddress & 15))
        return CUDA_ERROR_INVALID_VALUE;
    exec_tmap m;
    memcpy(&m, tensorMap, sizeof m);
    if (m.magic != EXEC_TMAP_MAGIC) return CUDA_ERROR_INVALID_VALUE;
    m.gaddr = (uint64_t)(uintptr_t)globalAddress;
    memcpy(tensorMap, &m, sizeof m);
    return CUDA_SUCCESS;
}
