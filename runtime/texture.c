/* runtime/texture.c — texture and surface objects: cudaCreateTextureObject over arrays,
 * mipmapped arrays, linear and pitched 2D memory, cudaCreateSurfaceObject over arrays
 * made for surface access, their getters and destruction. An object is the exec_texobj
 * the executor's texture instructions read (exec/texture.h), kept in device-table memory
 * so that its handle can be checked, followed by the descriptors it was made from.
 */
#include "texture.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The descriptor's view of one array (or mipmap level). */
static void rt_level_of(const rt_array *a, exec_tex_level *l) {
    l->base = a->data;
    l->width = (uint32_t)a->width;
    l->height = (uint32_t)a->rows;
    l->depth = a->dims == 3 ? (uint32_t)a->depth : 1;
    l->pitch = a->pitch;
    l->slice = a->slice;
}

static void rt_format_of(exec_texobj *x, const rt_array *a) {
    x->nchan = a->nchan;
    x->chan_bytes = a->chan_bytes;
    x->chan_kind = a->chan_kind;
    x->elem_size = a->elem_size;
    x->dims = a->dims;
    x->layered = (a->flags & cudaArrayLayered) != 0;
    x->cubemap = (a->flags & cudaArrayCubemap) != 0;
    x->layers = a->layers;
    x->gather = (a->flags & cudaArrayTextureGather) != 0;
    x->store_base = a->store_base;
    x->store_size = a->store_size;
}

/* Linear and pitched memory: the allocation that holds [p, p+span) must be device memory. */
static cudaError_t rt_linear_source(rt_context *c, exec_texobj *x, void *p, size_t span,
                                    const struct cudaChannelFormatDesc *d) {
    uint8_t nchan, cbytes, ckind;
    cudaError_t e = rt_channel_format(d, &nchan, &cbytes, &ckind);
    if (e) return e;
    /* CUDA asks for textureAlignment (512 bytes); cudaMalloc here guarantees 256, so a
     * pointer cudaMalloc returned must pass: 256 is the test */
    if (!p || ((uintptr_t)p % 256u) || !rt_device_range_ok(c, p, span ? span : 1))
        return cudaErrorInvalidValue;
    x->nchan = nchan;
    x->chan_bytes = cbytes;
    x->chan_kind = ckind;
    x->elem_size = (uint8_t)(nchan * cbytes);
    x->store_base = (uint64_t)(uintptr_t)p;
    x->store_size = span ? span : 1;
    return cudaSuccess;
}

/* Fill x with the resource (array, mipmap, linear or pitched memory). */
static cudaError_t rt_resource(rt_context *c, exec_texobj *x, const struct cudaResourceDesc *r,
                               bool surface) {
    if (r->flags) return cudaErrorInvalidValue;
    x->nlevels = 1;
    switch (r->resType) {
    case cudaResourceTypeArray: {
        const rt_array *a = rt_array_get(c, r->res.array.array);
        if (!a) return cudaErrorInvalidResourceHandle;
        /* CUDA 13 makes a surface of any array, cudaArraySurfaceLoadStore or not */
        rt_format_of(x, a);
        rt_level_of(a, &x->level[0]);
        x->res = EXEC_TEX_RES_ARRAY;
        return cudaSuccess;
    }
    case cudaResourceTypeMipmappedArray: {
        if (surface) return cudaErrorInvalidValue;
        const rt_mipmap *m = rt_mipmap_get(c, r->res.mipmap.mipmap);
        if (!m) return cudaErrorInvalidResourceHandle;
        rt_format_of(x, &m->level[0]);
        x->nlevels = m->nlevels;
        for (unsigned l = 0; l < m->nlevels; l++) rt_level_of(&m->level[l], &x->level[l]);
        x->res = EXEC_TEX_RES_MIPMAP;
        return cudaSuccess;
    }
    case cudaResourceTypeLinear: {
        if (surface) { /* CUDA checks the format before refusing linear memory */
            uint8_t n, b, k;
            cudaError_t e = rt_channel_format(&r->res.linear.desc, &n, &b, &k);
            return e ? e : cudaErrorInvalidValue;
        }
        size_t size = r->res.linear.sizeInBytes;
        cudaError_t e = rt_linear_source(c, x, r->res.linear.devPtr, size, &r->res.linear.desc);
        if (e) return e;
        /* an empty one is allowed: every fetch reads zero */
        size_t n = size / x->elem_size;
        if (n > (size_t)rt_cur(c)->preset->max_texture1d_linear) return cudaErrorInvalidValue;
        x->dims = 1;
        x->level[0] = (exec_tex_level){r->res.linear.devPtr, (uint32_t)n, 1, 1, size, size};
        x->res = EXEC_TEX_RES_LINEAR;
        return cudaSuccess;
    }
    case cudaResourceTypePitch2D: {
        if (surface) return cudaErrorInvalidValue;
        size_t w = r->res.pitch2D.width, h = r->res.pitch2D.height, pitch = r->res.pitch2D.pitchInBytes;
        const struct cudaChannelFormatDesc *d = &r->res.pitch2D.desc;
        if (w == 0 || h == 0 || pitch == 0) return cudaErrorInvalidValue;
        cudaError_t e = rt_linear_source(c, x, r->res.pitch2D.devPtr, (h - 1) * pitch + 1, d);
        if (e) return e;
        const int *lim = rt_cur(c)->preset->max_texture2d_linear;
        if (pitch % (size_t)rt_cur(c)->preset->texture_pitch_alignment || pitch < w * x->elem_size ||
            w > (size_t)lim[0] || h > (size_t)lim[1] || pitch > (size_t)lim[2])
            return cudaErrorInvalidValue;
        x->store_size = (h - 1) * pitch + w * x->elem_size;
        x->dims = 2;
        x->level[0] = (exec_tex_level){r->res.pitch2D.devPtr, (uint32_t)w, (uint32_t)h, 1, pitch,
                                       pitch * h};
        x->res = EXEC_TEX_RES_PITCH2D;
        return cudaSuccess;
    }
    default:
        return cudaErrorInvalidValue;
    }
}

/* The sampling state of a texture descriptor, checked against the resource. */
static cudaError_t rt_sampling(exec_texobj *x, const struct cudaTextureDesc *t) {
    for (unsigned k = 0; k < 3; k++) {
        if ((unsigned)t->addressMode[k] > cudaAddressModeBorder) return cudaErrorInvalidValue;
        x->addr[k] = (uint8_t)t->addressMode[k];
    }
    if ((unsigned)t->filterMode > cudaFilterModeLinear ||
        (unsigned)t->mipmapFilterMode > cudaFilterModeLinear ||
        (unsigned)t->readMode > cudaReadModeNormalizedFloat)
        return cudaErrorInvalidValue;
    x->read_normalized = t->readMode == cudaReadModeNormalizedFloat;
    /* normalized reads are for 8- and 16-bit integers; other formats read as elements */
    if (x->read_normalized && (x->chan_kind == EXEC_TEX_FLOAT || x->chan_bytes == 4))
        return cudaErrorInvalidNormSetting;
    x->linear = t->filterMode == cudaFilterModeLinear;
    if (x->linear && exec_tex_returns_int(x)) return cudaErrorInvalidFilterSetting;
    x->mip_linear = t->mipmapFilterMode == cudaFilterModeLinear;
    x->norm_coords = t->normalizedCoords != 0;
    if (t->sRGB) {
        fprintf(stderr, "vcuda: cudaCreateTextureObject: sRGB textures are not supported\n");
        return cudaErrorNotSupported;
    }
    memcpy(x->border, t->borderColor, sizeof x->border);
    x->lod_bias = t->mipmapLevelBias;
    x->min_lod = t->minMipmapLevelClamp;
    x->max_lod = x->nlevels > 1 ? t->maxMipmapLevelClamp : 0.0f;
    x->max_aniso = (uint8_t)(t->maxAnisotropy > 16 ? 16 : t->maxAnisotropy);
    /* anisotropic filtering (exec/tex_sample.c) follows a model of what an H200 does that
     * is close but not exact (tests/cuda/texture/README.md): say so */
    if (t->maxAnisotropy > 1 && x->nlevels > 1)
        fprintf(stderr, "vcuda: cudaCreateTextureObject: maxAnisotropy %u is approximated "
                        "(levels and probes close to, not exactly, the GPU's)\n",
                t->maxAnisotropy);
    return cudaSuccess;
}

cudaError_t rt_texobj_create(rt_context *c, rt_texobj **out, const struct cudaResourceDesc *res,
                             const struct cudaTextureDesc *tex,
                             const struct cudaResourceViewDesc *view, bool surface) {
    if (!out || !res) return cudaErrorInvalidValue;
    if (!surface && !tex) return cudaErrorInvalidResourceHandle; /* what CUDA 13 answers */
    if (view) {
        fprintf(stderr, "vcuda: cudaCreateTextureObject: resource views are not supported\n");
        return cudaErrorNotSupported;
    }
    rt_texobj t;
    memset(&t, 0, sizeof t);
    t.x.magic = surface ? EXEC_SURFOBJ_MAGIC : EXEC_TEXOBJ_MAGIC;
    cudaError_t e = rt_resource(c, &t.x, res, surface);
    if (!e && !surface) e = rt_sampling(&t.x, tex);
    if (e) return e;
    t.res = *res;
    if (tex) {
        t.tex = *tex;
        /* the border colour is kept only where an address mode uses it */
        bool border = false;
        for (unsigned k = 0; k < 3; k++) border |= tex->addressMode[k] == cudaAddressModeBorder;
        if (!border) memset(t.tex.borderColor, 0, sizeof t.tex.borderColor);
    }
    void *mem;
    e = rt_allocate(c, &mem, sizeof t, MEM_KIND_DEVICE, EXEC_MEM_FLAG_OBJECT);
    if (e) return e;
    memcpy(mem, &t, sizeof t);
    *out = mem;
    return cudaSuccess;
}

rt_texobj *rt_texobj_get(rt_context *c, uint64_t handle, bool surface) {
    mem_alloc a;
    if (!handle || !mem_table_find(c->mem, handle, &a) || a.base != handle ||
        !(a.flags & EXEC_MEM_FLAG_OBJECT) || a.size < sizeof(rt_texobj))
        return NULL;
    rt_texobj *t = (rt_texobj *)(uintptr_t)handle;
    return t->x.magic == (surface ? EXEC_SURFOBJ_MAGIC : EXEC_TEXOBJ_MAGIC) ? t : NULL;
}

cudaError_t rt_texobj_destroy(rt_context *c, rt_texobj *t) {
    /* the device may still be reading it: let the work issued before finish first */
    cudaError_t e = rt_capture_forbids(c);
    if (!e) e = rt_device_synchronize(c);
    if (e) return e;
    t->x.magic = 0;
    return rt_release_object(c, t) ? cudaSuccess : cudaErrorInvalidValue;
}

/* ---- the API ---- */

RT_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                           const struct cudaResourceDesc *pResDesc,
                                           const struct cudaTextureDesc *pTexDesc,
                                           const struct cudaResourceViewDesc *pResViewDesc) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pTexObject) return rt_record(cudaErrorInvalidValue);
    rt_texobj *t;
    e = rt_texobj_create(c, &t, pResDesc, pTexDesc, pResViewDesc, false);
    if (e) return rt_record(e);
    *pTexObject = (cudaTextureObject_t)(uintptr_t)t;
    return cudaSuccess;
}

RT_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!texObject) return cudaSuccess;
    rt_texobj *t = rt_texobj_get(c, texObject, false);
    if (!t) return rt_record(cudaErrorInvalidValue);
    return rt_record(rt_texobj_destroy(c, t));
}

RT_API cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                    cudaTextureObject_t texObject) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_texobj *t = rt_texobj_get(c, texObject, false);
    if (!pResDesc) return rt_record(cudaErrorInvalidResourceHandle); /* as CUDA 13 */
    if (!t) return rt_record(cudaErrorInvalidValue);
    *pResDesc = t->res;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                   cudaTextureObject_t texObject) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_texobj *t = rt_texobj_get(c, texObject, false);
    if (!pTexDesc) return rt_record(cudaErrorInvalidResourceHandle); /* as CUDA 13 */
    if (!t) return rt_record(cudaErrorInvalidValue);
    *pTexDesc = t->tex;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                        cudaTextureObject_t texObject) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_texobj *t = rt_texobj_get(c, texObject, false);
    if (!pResViewDesc) return rt_record(cudaErrorInvalidResourceHandle); /* as CUDA 13 */
    if (!t) return rt_record(cudaErrorInvalidValue);
    *pResViewDesc = t->view;
    return cudaSuccess;
}

RT_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                           const struct cudaResourceDesc *pResDesc) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pSurfObject) return rt_record(cudaErrorInvalidValue);
    rt_texobj *t;
    e = rt_texobj_create(c, &t, pResDesc, NULL, NULL, true);
    if (e) return rt_record(e);
    *pSurfObject = (cudaSurfaceObject_t)(uintptr_t)t;
    return cudaSuccess;
}

RT_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!surfObject) return cudaSuccess;
    rt_texobj *t = rt_texobj_get(c, surfObject, true);
    if (!t) return rt_record(cudaErrorInvalidValue);
    return rt_record(rt_texobj_destroy(c, t));
}

RT_API cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                    cudaSurfaceObject_t surfObject) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_texobj *t = rt_texobj_get(c, surfObject, true);
    if (!pResDesc) return rt_record(cudaErrorInvalidResourceHandle); /* as CUDA 13 */
    if (!t) return rt_record(cudaErrorInvalidValue);
    *pResDesc = t->res;
    return cudaSuccess;
}
