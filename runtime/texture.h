/* runtime/texture.h — CUDA arrays, mipmapped arrays, texture and surface objects as the
 * runtime makes them; the interface the driver API's cuArray*, cuTexObject* and
 * cuSurfObject* can share (the objects are the same whichever API made them).
 *
 * Every object lives in memory entered in the device's allocation table with
 * EXEC_MEM_FLAG_OBJECT (exec/texture.h), so a handle is checked by looking it up there: a
 * stale or made-up handle is an error, never a host crash, and cudaDeviceReset frees them
 * with the rest of device memory. An array's header and texels are one allocation; a
 * mipmapped array holds its levels' headers and texels in one allocation too. A texture
 * or surface object begins with the exec_texobj the executor reads.
 *
 * Texels are stored row by row with no padding (pitch = width * element size), slices
 * (depth slices, layers, cube faces) one after the other; a program cannot tell.
 */
#ifndef VCUDA_RUNTIME_TEXTURE_H
#define VCUDA_RUNTIME_TEXTURE_H

#include "rt.h"
#include "../exec/texture.h"

#define RT_ARRAY_MAGIC 0x59415252u  /* an array or a mipmap level */
#define RT_MIPMAP_MAGIC 0x50494d4du /* a mipmapped array */

typedef struct rt_array {
    uint32_t magic;
    struct cudaChannelFormatDesc desc;
    unsigned flags;                 /* cudaArrayLayered, cudaArrayCubemap, ... */
    size_t width, height, depth;    /* the extent as made (0 where the shape has none) */
    uint8_t dims;                   /* 1, 2 or 3 (a cube map and its layers: 2) */
    uint8_t nchan, chan_bytes, chan_kind, elem_size; /* the format (exec_tex_kind) */
    uint32_t layers;                /* layered: layers (cubes of a layered cube map) */
    size_t pitch;                   /* bytes per row */
    size_t rows;                    /* rows per slice (height, at least 1) */
    size_t slice;                   /* bytes per slice */
    size_t nslices;                 /* depth, layers, faces: at least 1 */
    uint8_t *data;                  /* texel (0, 0) of slice 0 */
    uint64_t store_base, store_size;/* the allocation that holds it */
    struct rt_mipmap *mipmap;       /* the mipmapped array of a level, else NULL */
} rt_array;

typedef struct rt_mipmap {
    uint32_t magic;
    uint32_t nlevels;
    rt_array level[EXEC_TEX_MAX_LEVELS];
} rt_mipmap;

/* ---- array.c ---- */

/* Check a channel descriptor and say what it means (nchan, bytes per channel, kind);
 * cudaErrorInvalidChannelDescriptor (or cudaErrorNotSupported, with a message, for the
 * formats vcuda does not emulate) otherwise. */
cudaError_t rt_channel_format(const struct cudaChannelFormatDesc *d, uint8_t *nchan,
                              uint8_t *chan_bytes, uint8_t *chan_kind);
/* Make an array of the extent (elements; height and depth 0 where absent) and flags. */
cudaError_t rt_array_create(rt_context *c, rt_array **out, const struct cudaChannelFormatDesc *d,
                            struct cudaExtent extent, unsigned flags);
cudaError_t rt_array_destroy(rt_context *c, rt_array *a);
/* The array a handle names, or NULL (levels of mipmapped arrays included). */
rt_array *rt_array_get(rt_context *c, const void *handle);
cudaError_t rt_mipmap_create(rt_context *c, rt_mipmap **out, const struct cudaChannelFormatDesc *d,
                             struct cudaExtent extent, unsigned levels, unsigned flags);
cudaError_t rt_mipmap_destroy(rt_context *c, rt_mipmap *m);
rt_mipmap *rt_mipmap_get(rt_context *c, const void *handle);
/* The extent a program is told (cudaArrayGetInfo). */
struct cudaExtent rt_array_extent(const rt_array *a);

/* ---- array_copy.c ---- */

/* Copy a rectangle of width bytes by height rows between an array (at byte column x, row
 * y, slice z) and linear memory, or between two arrays (src_array set). */
cudaError_t rt_array_copy2d(rt_context *c, rt_array *dst_array, size_t dx, size_t dy, size_t dz,
                            void *dst, size_t dpitch, const rt_array *src_array, size_t sx,
                            size_t sy, size_t sz, const void *src, size_t spitch, size_t width,
                            size_t height, enum cudaMemcpyKind kind, cudaStream_t stream,
                            bool async);
/* cudaMemcpy3D and its async form when a side is an array. */
cudaError_t rt_array_memcpy3d(rt_context *c, const struct cudaMemcpy3DParms *p,
                              cudaStream_t stream, bool async);

/* ---- texture.c ---- */

/* A texture or surface object as the runtime keeps it: what the executor reads, then what
 * it was made from (for the getters). */
typedef struct rt_texobj {
    exec_texobj x;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
    struct cudaResourceViewDesc view;
    bool has_view;
} rt_texobj;

cudaError_t rt_texobj_create(rt_context *c, rt_texobj **out, const struct cudaResourceDesc *res,
                             const struct cudaTextureDesc *tex,
                             const struct cudaResourceViewDesc *view, bool surface);
/* The object a handle names (of the kind asked), or NULL. */
rt_texobj *rt_texobj_get(rt_context *c, uint64_t handle, bool surface);
cudaError_t rt_texobj_destroy(rt_context *c, rt_texobj *t);

#endif
