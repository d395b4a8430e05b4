/* runtime/array.c — CUDA arrays and mipmapped arrays: channel descriptors
 * (cudaCreateChannelDesc, cudaGetChannelDesc), cudaMallocArray, cudaMalloc3DArray,
 * cudaMallocMipmappedArray, cudaGetMipmappedArrayLevel, cudaArrayGetInfo, and freeing
 * them. What an array is and how its texels are laid out: runtime/texture.h.
 */
#include "texture.h"

#include <stdio.h>
#include <string.h>

/* Room for a header before the texels, keeping them 256-byte aligned like cudaMalloc's. */
#define RT_ARRAY_HEADER 256u

cudaError_t rt_channel_format(const struct cudaChannelFormatDesc *d, uint8_t *nchan,
                              uint8_t *chan_bytes, uint8_t *chan_kind) {
    const int bits[4] = {d->x, d->y, d->z, d->w};
    unsigned n = 0;
    while (n < 4 && bits[n] != 0) n++;
    for (unsigned k = n; k < 4; k++)
        if (bits[k] != 0) return cudaErrorInvalidChannelDescriptor; /* a gap */
    for (unsigned k = 1; k < n; k++)
        if (bits[k] != bits[0]) return cudaErrorInvalidChannelDescriptor;
    if (n == 0 || n == 3) return cudaErrorInvalidChannelDescriptor;
    if (bits[0] != 8 && bits[0] != 16 && bits[0] != 32) return cudaErrorInvalidChannelDescriptor;
    switch (d->f) {
    case cudaChannelFormatKindSigned: *chan_kind = EXEC_TEX_SIGNED; break;
    case cudaChannelFormatKindUnsigned: *chan_kind = EXEC_TEX_UNSIGNED; break;
    case cudaChannelFormatKindFloat:
        if (bits[0] == 8) return cudaErrorInvalidChannelDescriptor;
        *chan_kind = EXEC_TEX_FLOAT;
        break;
    case cudaChannelFormatKindNone:
        return cudaErrorInvalidChannelDescriptor;
    default:
        fprintf(stderr, "vcuda: channel format kind %d (normalized, block-compressed or "
                "video formats) is not supported\n", (int)d->f);
        return cudaErrorNotSupported;
    }
    *nchan = (uint8_t)n;
    *chan_bytes = (uint8_t)(bits[0] / 8);
    return cudaSuccess;
}

RT_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                          enum cudaChannelFormatKind f) {
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

/* Is the extent within what the preset allows for the array's shape? */
static bool rt_extent_ok(const gpu_preset *p, struct cudaExtent e, unsigned flags) {
    size_t w = e.width, h = e.height, d = e.depth;
    bool layered = flags & cudaArrayLayered, cube = flags & cudaArrayCubemap;
    bool surf = flags & cudaArraySurfaceLoadStore;
    if (w == 0 || (h == 0 && d != 0 && !layered)) return false;
    if (cube) {
        if (w != h || d == 0 || d % 6 != 0 || (!layered && d != 6)) return false;
        if (layered) return w <= (size_t)p->max_texture_cubemap_layered[0] &&
                            d / 6 <= (size_t)p->max_texture_cubemap_layered[1];
        return w <= (size_t)(surf ? p->max_surface_cubemap : p->max_texture_cubemap);
    }
    if (layered) {
        if (d == 0) return false;
        if (h == 0) return w <= (size_t)p->max_texture1d_layered[0] &&
                           d <= (size_t)p->max_texture1d_layered[1];
        return w <= (size_t)p->max_texture2d_layered[0] && h <= (size_t)p->max_texture2d_layered[1] &&
               d <= (size_t)p->max_texture2d_layered[2];
    }
    if (h == 0) return w <= (size_t)(surf ? p->max_surface1d : p->max_texture1d);
    if (d == 0) {
        if (flags & cudaArrayTextureGather)
            return w <= (size_t)p->max_texture2d_gather[0] && h <= (size_t)p->max_texture2d_gather[1];
        return w <= (size_t)(surf ? p->max_surface2d[0] : p->max_texture2d[0]) &&
               h <= (size_t)(surf ? p->max_surface2d[1] : p->max_texture2d[1]);
    }
    return w <= (size_t)p->max_texture3d[0] && h <= (size_t)p->max_texture3d[1] &&
           d <= (size_t)p->max_texture3d[2];
}

/* Fill in a's shape for the format and extent (no storage yet); the bytes it needs. */
static size_t rt_array_shape(rt_array *a, const struct cudaChannelFormatDesc *d, uint8_t nchan,
                             uint8_t cbytes, uint8_t ckind, struct cudaExtent e, unsigned flags) {
    memset(a, 0, sizeof *a);
    a->magic = RT_ARRAY_MAGIC;
    a->desc = *d;
    a->flags = flags;
    a->width = e.width;
    a->height = e.height;
    a->depth = e.depth;
    a->nchan = nchan;
    a->chan_bytes = cbytes;
    a->chan_kind = ckind;
    a->elem_size = (uint8_t)(nchan * cbytes);
    bool layered = flags & cudaArrayLayered, cube = flags & cudaArrayCubemap;
    a->dims = cube || layered ? (e.height ? 2 : 1) : e.depth ? 3 : e.height ? 2 : 1;
    if (layered) a->layers = (uint32_t)(cube ? e.depth / 6 : e.depth);
    a->pitch = e.width * a->elem_size;
    a->rows = e.height ? e.height : 1;
    a->slice = a->pitch * a->rows;
    a->nslices = e.depth ? e.depth : 1;
    return a->slice * a->nslices;
}

static const unsigned rt_array_flags = cudaArrayLayered | cudaArraySurfaceLoadStore |
                                       cudaArrayCubemap | cudaArrayTextureGather;

cudaError_t rt_array_create(rt_context *c, rt_array **out, const struct cudaChannelFormatDesc *d,
                            struct cudaExtent extent, unsigned flags) {
    if (!out || !d) return cudaErrorInvalidValue;
    if (flags & ~rt_array_flags) {
        if (flags & (cudaArraySparse | cudaArrayDeferredMapping)) {
            fprintf(stderr, "vcuda: sparse and deferred-mapping arrays are not supported\n");
            return cudaErrorNotSupported;
        }
        return cudaErrorInvalidValue;
    }
    uint8_t nchan, cbytes, ckind;
    cudaError_t e = rt_channel_format(d, &nchan, &cbytes, &ckind);
    if (e) return e;
    if (!rt_extent_ok(rt_cur(c)->preset, extent, flags)) return cudaErrorInvalidValue;
    rt_array shape;
    size_t bytes = rt_array_shape(&shape, d, nchan, cbytes, ckind, extent, flags);
    void *mem;
    e = rt_allocate(c, &mem, RT_ARRAY_HEADER + bytes, MEM_KIND_DEVICE, EXEC_MEM_FLAG_OBJECT);
    if (e) return e;
    rt_array *a = mem;
    *a = shape;
    a->data = (uint8_t *)mem + RT_ARRAY_HEADER;
    a->store_base = (uint64_t)(uintptr_t)mem;
    a->store_size = RT_ARRAY_HEADER + bytes;
    *out = a;
    return cudaSuccess;
}

/* The object memory at handle: the allocation that holds it, when it is one. */
static bool rt_object_at(rt_context *c, const void *handle, size_t size, mem_alloc *a) {
    uint64_t h = (uint64_t)(uintptr_t)handle;
    if (!handle || ((uintptr_t)handle & 7u)) return false;
    if (!mem_table_find(c->mem, h, a)) return false;
    return (a->flags & EXEC_MEM_FLAG_OBJECT) && h + size <= a->base + a->size;
}

rt_array *rt_array_get(rt_context *c, const void *handle) {
    mem_alloc a;
    if (!rt_object_at(c, handle, sizeof(rt_array), &a)) return NULL;
    rt_array *r = (rt_array *)(uintptr_t)handle;
    return r->magic == RT_ARRAY_MAGIC ? r : NULL;
}

cudaError_t rt_array_destroy(rt_context *c, rt_array *a) {
    if (a->mipmap) return cudaErrorInvalidValue; /* a level goes with its mipmapped array */
    a->magic = 0;
    return rt_release_object(c, a) ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t rt_mipmap_create(rt_context *c, rt_mipmap **out, const struct cudaChannelFormatDesc *d,
                             struct cudaExtent extent, unsigned levels, unsigned flags) {
    if (!out || !d) return cudaErrorInvalidValue;
    if (flags & ~rt_array_flags) return cudaErrorInvalidValue;
    uint8_t nchan, cbytes, ckind;
    cudaError_t e = rt_channel_format(d, &nchan, &cbytes, &ckind);
    if (e) return e;
    if (!rt_extent_ok(rt_cur(c)->preset, extent, flags)) return cudaErrorInvalidValue;
    /* at most as many levels as halvings of the largest spatial dimension, plus one */
    bool slices_are_layers = flags & (cudaArrayLayered | cudaArrayCubemap);
    size_t biggest = extent.width;
    if (extent.height > biggest) biggest = extent.height;
    if (!slices_are_layers && extent.depth > biggest) biggest = extent.depth;
    unsigned most = 1;
    while ((biggest >> most) != 0) most++;
    /* CUDA clamps the level count to [1, 1 + log2 of the largest dimension] */
    if (levels == 0) levels = 1;
    if (levels > most) levels = most;
    if (levels > EXEC_TEX_MAX_LEVELS) return cudaErrorInvalidValue;
    size_t header = (sizeof(rt_mipmap) + RT_ARRAY_HEADER - 1) / RT_ARRAY_HEADER * RT_ARRAY_HEADER;
    rt_mipmap m;
    memset(&m, 0, sizeof m);
    size_t total = header, offs[EXEC_TEX_MAX_LEVELS];
    for (unsigned l = 0; l < levels; l++) {
        struct cudaExtent x = extent;
        x.width = extent.width >> l ? extent.width >> l : 1;
        if (extent.height) x.height = extent.height >> l ? extent.height >> l : 1;
        if (extent.depth && !slices_are_layers) x.depth = extent.depth >> l ? extent.depth >> l : 1;
        size_t bytes = rt_array_shape(&m.level[l], d, nchan, cbytes, ckind, x, flags);
        offs[l] = total;
        total += (bytes + RT_ARRAY_HEADER - 1) / RT_ARRAY_HEADER * RT_ARRAY_HEADER;
    }
    void *mem;
    e = rt_allocate(c, &mem, total, MEM_KIND_DEVICE, EXEC_MEM_FLAG_OBJECT);
    if (e) return e;
    rt_mipmap *r = mem;
    *r = m;
    r->magic = RT_MIPMAP_MAGIC;
    r->nlevels = levels;
    for (unsigned l = 0; l < levels; l++) {
        r->level[l].data = (uint8_t *)mem + offs[l];
        r->level[l].store_base = (uint64_t)(uintptr_t)mem;
        r->level[l].store_size = total;
        r->level[l].mipmap = r;
    }
    *out = r;
    return cudaSuccess;
}

rt_mipmap *rt_mipmap_get(rt_context *c, const void *handle) {
    mem_alloc a;
    if (!rt_object_at(c, handle, sizeof(rt_mipmap), &a)) return NULL;
    rt_mipmap *m = (rt_mipmap *)(uintptr_t)handle;
    return m->magic == RT_MIPMAP_MAGIC ? m : NULL;
}

cudaError_t rt_mipmap_destroy(rt_context *c, rt_mipmap *m) {
    m->magic = 0;
    for (unsigned l = 0; l < m->nlevels; l++) m->level[l].magic = 0;
    return rt_release_object(c, m) ? cudaSuccess : cudaErrorInvalidValue;
}

struct cudaExtent rt_array_extent(const rt_array *a) {
    struct cudaExtent e = {a->width, a->height, a->depth};
    return e;
}

/* ---- the API ---- */

/* Arrays are freed only once the device is done with them, as cudaFree waits. */
static cudaError_t rt_object_free_wait(rt_context *c) {
    cudaError_t e = rt_capture_forbids(c);
    if (!e) e = rt_device_synchronize(c);
    return e;
}

RT_API cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                   size_t width, size_t height, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    /* cudaMallocArray makes 1D and 2D arrays only: no layers, no cube maps */
    if (!array || (flags & (cudaArrayLayered | cudaArrayCubemap)))
        return rt_record(cudaErrorInvalidValue);
    rt_array *a = NULL;
    struct cudaExtent x = {width, height, 0};
    e = rt_array_create(c, &a, desc, x, flags);
    if (e) return rt_record(e);
    *array = (cudaArray_t)a;
    return cudaSuccess;
}

RT_API cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!array) return rt_record(cudaErrorInvalidValue);
    rt_array *a = NULL;
    e = rt_array_create(c, &a, desc, extent, flags);
    if (e) return rt_record(e);
    *array = (cudaArray_t)a;
    return cudaSuccess;
}

RT_API cudaError_t cudaFreeArray(cudaArray_t array) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!array) return cudaSuccess;
    e = rt_object_free_wait(c);
    if (e) return rt_record(e);
    rt_array *a = rt_array_get(c, array);
    if (!a) return rt_record(cudaErrorInvalidResourceHandle);
    return rt_record(rt_array_destroy(c, a));
}

RT_API cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                    unsigned int *flags, cudaArray_t array) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_array *a = rt_array_get(c, array);
    if (!a) return rt_record(cudaErrorInvalidResourceHandle);
    if (desc) *desc = a->desc;
    if (extent) *extent = rt_array_extent(a);
    if (flags) *flags = a->flags;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!desc) return rt_record(cudaErrorInvalidValue);
    rt_array *a = rt_array_get(c, array);
    if (!a) return rt_record(cudaErrorInvalidResourceHandle);
    *desc = a->desc;
    return cudaSuccess;
}

RT_API cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                            const struct cudaChannelFormatDesc *desc,
                                            struct cudaExtent extent, unsigned int numLevels,
                                            unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!mipmappedArray) return rt_record(cudaErrorInvalidValue);
    rt_mipmap *m = NULL;
    e = rt_mipmap_create(c, &m, desc, extent, numLevels, flags);
    if (e) return rt_record(e);
    *mipmappedArray = (cudaMipmappedArray_t)m;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
                                              cudaMipmappedArray_const_t mipmappedArray,
                                              unsigned int level) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!levelArray) return rt_record(cudaErrorInvalidValue);
    rt_mipmap *m = rt_mipmap_get(c, mipmappedArray);
    if (!m) return rt_record(cudaErrorInvalidResourceHandle);
    if (level >= m->nlevels) return rt_record(cudaErrorInvalidValue);
    *levelArray = (cudaArray_t)&m->level[level];
    return cudaSuccess;
}

RT_API cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!mipmappedArray) return cudaSuccess;
    e = rt_object_free_wait(c);
    if (e) return rt_record(e);
    rt_mipmap *m = rt_mipmap_get(c, mipmappedArray);
    if (!m) return rt_record(cudaErrorInvalidResourceHandle);
    return rt_record(rt_mipmap_destroy(c, m));
}
