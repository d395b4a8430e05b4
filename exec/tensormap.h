/* exec/tensormap.h — the layout of a tensor map (CUtensorMap, 128 opaque bytes) as vcuda
 * encodes it: written by cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col
 * (driver/tensormap.c), read by cp.async.bulk.tensor (exec/bulk_tensor.c) and edited by
 * tensormap.replace. Programs treat the object as opaque, so the layout is vcuda's own; the
 * magic word marks an encoded map.
 */
#ifndef VCUDA_EXEC_TENSORMAP_H
#define VCUDA_EXEC_TENSORMAP_H

#include <stdint.h>

#define EXEC_TMAP_MAGIC 0x504d5476u /* "vTMP" */
#define EXEC_TMAP_MAX_RANK 5

typedef struct {
    uint32_t magic;
    uint8_t rank;        /* 1..5 */
    uint8_t dtype;       /* CUtensorMapDataType */
    uint8_t elem_size;   /* bytes */
    uint8_t interleave;  /* CUtensorMapInterleave (only NONE is copied) */
    uint8_t swizzle;     /* CUtensorMapSwizzle */
    uint8_t l2promo;
    uint8_t oob_nan;     /* out-of-bounds float elements read as NaN instead of zero */
    uint8_t im2col;      /* an im2col map (cuTensorMapEncodeIm2col): the union's second form */
    uint32_t pad1;
    uint64_t gaddr;                              /* global address of element 0 */
    uint64_t gstride[EXEC_TMAP_MAX_RANK - 1];    /* bytes between steps of dims 1..rank-1 */
    uint64_t gdim[EXEC_TMAP_MAX_RANK];           /* elements per dimension (dim 0 innermost) */
    union {
        uint32_t box[EXEC_TMAP_MAX_RANK];        /* tiled: box size per dimension, in elements */
        struct {                                 /* im2col */
            uint32_t channels;                   /* channelsPerPixel: elements of dim 0 */
            uint32_t pixels;                     /* pixelsPerColumn */
            int16_t lower[EXEC_TMAP_MAX_RANK - 2]; /* bounding box corners of dims 1..rank-2 */
            int16_t upper[EXEC_TMAP_MAX_RANK - 2];
        } ic;
    };
    uint8_t estride[EXEC_TMAP_MAX_RANK];         /* traversal stride per dimension (1..8) */
} exec_tmap;

_Static_assert(sizeof(exec_tmap) <= 128, "a tensor map is 128 bytes");

#endif
