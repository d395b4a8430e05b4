/* exec/texture.h — texture and surface objects as the executor reads them.
 *
 * A cudaTextureObject_t or cudaSurfaceObject_t is the device address of an exec_texobj:
 * the runtime (or the driver API) fills one in memory it enters in the device's
 * allocation table with EXEC_MEM_FLAG_OBJECT, and the handle is that memory's base. The
 * executor's tex, tld4, txq, suld and sust handlers (exec/texture.c) look the handle up
 * in the table, so a handle that was never made or was destroyed is a device fault, not
 * a host crash; and they check that the texels (store_base, store_size) are still
 * allocated, so a texture whose array was freed faults too.
 *
 * The texels of a level are stored row by row: texel (x, y) of slice s at
 * base + s * slice + y * pitch + x * elem_size, where a slice is a depth slice (3D), a
 * layer (layered), a cube face (cube maps: faces +x -x +y -y +z -z, layer L's faces at
 * slices 6L..6L+5).
 */
#ifndef VCUDA_EXEC_TEXTURE_H
#define VCUDA_EXEC_TEXTURE_H

#include <stdint.h>
#include <stdbool.h>

/* mem_alloc.flags of memory that belongs to a runtime object (an array's texels, a texture
 * or surface descriptor): the program holds no pointer into it, cudaFree refuses it and
 * the checker does not list it among the program's allocations. */
#define EXEC_MEM_FLAG_OBJECT 0x20000000u

#define EXEC_TEXOBJ_MAGIC 0x314a4f54u   /* a texture object */
#define EXEC_SURFOBJ_MAGIC 0x314a4f53u  /* a surface object */
#define EXEC_TEX_MAX_LEVELS 16

/* What a channel holds (cudaChannelFormatKind's first three). A 2-byte float is a half. */
enum exec_tex_kind { EXEC_TEX_SIGNED = 0, EXEC_TEX_UNSIGNED = 1, EXEC_TEX_FLOAT = 2 };
/* Address modes, as cudaTextureAddressMode numbers them. */
enum exec_tex_addr { EXEC_TEX_WRAP = 0, EXEC_TEX_CLAMP = 1, EXEC_TEX_MIRROR = 2,
                     EXEC_TEX_BORDER = 3 };
/* The resource a texture object reads (cudaResourceType's numbers). */
enum exec_tex_res { EXEC_TEX_RES_ARRAY = 0, EXEC_TEX_RES_MIPMAP = 1, EXEC_TEX_RES_LINEAR = 2,
                    EXEC_TEX_RES_PITCH2D = 3 };

typedef struct exec_tex_level {
    uint8_t *base;           /* texel (0, 0) of slice 0 */
    uint32_t width, height, depth; /* height, depth 1 where the shape has none */
    uint64_t pitch;          /* bytes from one row to the next */
    uint64_t slice;          /* bytes from one slice (depth, layer or face) to the next */
} exec_tex_level;

typedef struct exec_texobj {
    uint32_t magic;          /* EXEC_TEXOBJ_MAGIC or EXEC_SURFOBJ_MAGIC */
    uint8_t res;             /* enum exec_tex_res */
    uint8_t dims;            /* 1, 2 or 3 (a cube map is 2) */
    bool layered, cubemap;
    uint32_t layers;         /* layers (cubes for a layered cube map); 0 unless layered */
    /* the format */
    uint8_t nchan;           /* 1, 2 or 4 */
    uint8_t chan_bytes;      /* 1, 2 or 4 */
    uint8_t chan_kind;       /* enum exec_tex_kind */
    uint8_t elem_size;       /* nchan * chan_bytes */
    /* sampling (texture objects) */
    uint8_t addr[3];         /* enum exec_tex_addr per coordinate */
    bool linear;             /* cudaFilterModeLinear */
    bool mip_linear;         /* cudaFilterModeLinear between mipmap levels */
    bool read_normalized;    /* cudaReadModeNormalizedFloat */
    bool norm_coords;        /* normalized coordinates */
    bool srgb;
    bool gather;             /* the array was made with cudaArrayTextureGather */
    float border[4];
    float lod_bias, min_lod, max_lod;
    uint8_t max_aniso;       /* cudaTextureDesc.maxAnisotropy, at most 16; 0 or 1: none */
    uint32_t nlevels;        /* 1 unless a mipmapped array */
    exec_tex_level level[EXEC_TEX_MAX_LEVELS];
    /* the memory holding every texel: while it is allocated the object may be read */
    uint64_t store_base, store_size;
    /* what the resource view was made from, for the API's getters */
    uint64_t resource_handle;
} exec_texobj;

/* Does the texture return integers (an integer format read as elements) rather than
 * floats (a float format, or integers read as normalized floats)? */
static inline bool exec_tex_returns_int(const exec_texobj *t) {
    return t->chan_kind != EXEC_TEX_FLOAT && !t->read_normalized;
}

#endif
