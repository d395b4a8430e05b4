/* exec/tex_internal.h — the texture sampler inside the executor: what exec/tex_sample.c
 * computes for the tex, tld4 and txq handlers of exec/texture.c (and for unit tests).
 *
 * A sample's result is four 32-bit values: floats (their bit patterns) when the texture
 * returns floats (a float format, or cudaReadModeNormalizedFloat), else the channels'
 * integers, sign- or zero-extended (exec_tex_returns_int).
 */
#ifndef VCUDA_EXEC_TEX_INTERNAL_H
#define VCUDA_EXEC_TEX_INTERNAL_H

#include <stdint.h>
#include <stdbool.h>
#include "texture.h"

/* What one lookup asks for. */
typedef struct exec_tex_lookup {
    float c[3];          /* coordinates (x, y, z), as the instruction gives them */
    int32_t ic[3];       /* integer coordinates (texel indices) when int_coords */
    bool int_coords;     /* .s32 coordinates: texel indices, no filtering */
    int32_t layer;       /* array layer of a layered texture */
    bool cube;           /* c is a direction: a cube-map lookup */
    uint8_t lod_kind;    /* enum exec_tex_lod */
    float lod;           /* EXEC_TEX_LOD_LEVEL: the level of detail */
    float grad[2][3];    /* EXEC_TEX_LOD_GRAD: dP/dx and dP/dy */
} exec_tex_lookup;

enum exec_tex_lod { EXEC_TEX_LOD_BASE, EXEC_TEX_LOD_LEVEL, EXEC_TEX_LOD_GRAD };

/* While set (by exec_tex_footprint_of, on its own thread, for one lookup), every texel a
 * lookup reads is also noted there: the profiler's sectors of the texture pipe. */
struct exec_tex_lane_footprint;
extern _Thread_local struct exec_tex_lane_footprint *exec_tex_trace;

/* tex: the filtered value at the lookup. */
void exec_tex_sample(const exec_texobj *t, const exec_tex_lookup *q, uint32_t out[4]);
/* The fast path of tex for plain 2D lookups at float coordinates (x, y): whether texture
 * t allows it (a float texture of one level, neither layered nor a cube map, no footprint
 * being traced), and the lookup, whose result is exec_tex_sample's. */
bool exec_tex_fast_2d(const exec_texobj *t);
void exec_tex_sample_2d(const exec_texobj *t, float x, float y, uint32_t out[4]);
/* tld4: channel comp of the four texels a bilinear lookup of a 2D texture would blend, in
 * the order (x0, y1), (x1, y1), (x1, y0), (x0, y0). */
void exec_tex_gather(const exec_texobj *t, const exec_tex_lookup *q, unsigned comp,
                     uint32_t out[4]);

/* txq queries (PTX's names), and what each gives for a texture (level: for .level forms;
 * -1: the object's base). */
enum exec_txq {
    EXEC_TXQ_WIDTH, EXEC_TXQ_HEIGHT, EXEC_TXQ_DEPTH, EXEC_TXQ_CHANNEL_DATA_TYPE,
    EXEC_TXQ_CHANNEL_ORDER, EXEC_TXQ_NORMALIZED_COORDS, EXEC_TXQ_FILTER_MODE,
    EXEC_TXQ_ADDR_MODE_0, EXEC_TXQ_ADDR_MODE_1, EXEC_TXQ_ADDR_MODE_2, EXEC_TXQ_ARRAY_SIZE,
    EXEC_TXQ_NUM_MIPMAP_LEVELS, EXEC_TXQ_NUM_SAMPLES
};
uint32_t exec_tex_query(const exec_texobj *t, unsigned what, int level);

#endif
