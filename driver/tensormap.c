/* driver/tensormap.c — tensor map objects for the tensor memory accelerator:
 * cuTensorMapEncodeTiled and cuTensorMapReplaceAddress. The map is written in vcuda's own
 * layout (exec/tensormap.h), which cp.async.bulk.tensor reads; every requirement the
 * driver API reference lists for the arguments is checked, and a violation answers
 * CUDA_ERROR_INVALID_VALUE as the driver does. Im2col maps are not supported.
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

DRV_API CUresult cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                                        cuuint32_t tensorRank, void *globalAddress,
                                        const cuuint64_t *globalDim,
                                        const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
                                        const cuuint32_t *elementStrides,
                                        CUtensorMapInterleave interleave,
                                        CUtensorMapSwizzle swizzle,
                                        CUtensorMapL2promotion l2Promotion,
                                        CUtensorMapFloatOOBfill oobFill) {
    unsigned es = tmap_elem_size(tensorDataType);
    if (!tensorMap || ((uintptr_t)tensorMap & 63) || !es || tensorRank == 0 ||
        tensorRank > EXEC_TMAP_MAX_RANK || !globalAddress || ((uintptr_t)globalAddress & 15) ||
        !globalDim || (tensorRank > 1 && !globalStrides) || !boxDim || !elementStrides ||
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
    exec_tmap m;
    memset(&m, 0, sizeof m);
    for (unsigned i = 0; i < tensorRank; i++) {
        if (globalDim[i] == 0 || globalDim[i] > (1ull << 32) || boxDim[i] == 0 ||
            boxDim[i] > 256 || elementStrides[i] == 0 || elementStrides[i] > 8)
            return CUDA_ERROR_INVALID_VALUE;
        m.gdim[i] = globalDim[i];
        m.box[i] = boxDim[i];
        m.estride[i] = (uint8_t)elementStrides[i];
    }
    for (unsigned i = 0; i + 1 < tensorRank; i++) {
        if (globalStrides[i] % 16 || globalStrides[i] >= (1ull << 40))
            return CUDA_ERROR_INVALID_VALUE;
        m.gstride[i] = globalStrides[i];
    }
    uint64_t inner = (uint64_t)boxDim[0] * es;
    if (inner % 16) return CUDA_ERROR_INVALID_VALUE;
    if (swizzle != CU_TENSOR_MAP_SWIZZLE_NONE && inner > (16u << swizzle))
        return CUDA_ERROR_INVALID_VALUE; /* 32, 64 or 128 bytes at most */
    m.magic = EXEC_TMAP_MAGIC;
    m.rank = (uint8_t)tensorRank;
    m.dtype = (uint8_t)tensorDataType;
    m.elem_size = (uint8_t)es;
    m.interleave = (uint8_t)interleave;
    m.swizzle = (uint8_t)swizzle;
    m.l2promo = (uint8_t)l2Promotion;
    m.oob_nan = oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
    m.gaddr = (uint64_t)(uintptr_t)globalAddress;
    memset(tensorMap, 0, sizeof *tensorMap);
    memcpy(tensorMap, &m, sizeof m);
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
