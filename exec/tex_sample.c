/* exec/tex_sample.c — the texture sampler: texel addressing (wrap, clamp, mirror,
 * border), format conversion (integers, normalized integers, half and single floats),
 * point and linear filtering, cube-map face selection, mipmap level selection and
 * gathers, as an NVIDIA GPU does them.
 *
 * Linear filtering follows the hardware, not an exact lerp: normalized coordinates are
 * cut to 21 fractional bits, a coordinate's fraction becomes a weight with 8 fractional
 * bits (rounded to nearest), the corners share the weights axis by axis in 256ths with
 * the hardware's tie rule, and texels are blended by format: 8- and 16-bit normalized
 * ones as 16-bit fractions, halves exactly then rounded to a half, floats as fixed point
 * under the largest texel (CUDA Programming Guide, "Linear Filtering"). The level of
 * detail from gradients uses the hardware's footprint and log2 table. All of it is what
 * an H200 returned: tests/cuda/texture/expected/ and tests/cuda/texture/h200/ (README.md
 * there sums the rules up).
 */
#include "tex_internal.h"
#include "alu_internal.h" /* alu_h2f */
#include "observe.h"      /* exec_tex_lane_footprint */

#include <math.h>
#include <string.h>

/* A texel or a blend of texels: floats, or integers for integer element reads. */
typedef struct tex_val {
    float f[4];
    uint32_t u[4];
    bool border;         /* the border colour: u holds 16-bit fractions, not texels */
} tex_val;

/* One channel of a texel as a float (normalized read or float format). */
static float chan_float(const exec_texobj *t, const uint8_t *p) {
    switch (t->chan_kind) {
    case EXEC_TEX_FLOAT:
        if (t->chan_bytes == 2) {
            uint16_t h;
            memcpy(&h, p, 2);
            return alu_h2f(h);
        } else {
            float f;
            memcpy(&f, p, 4);
            return f;
        }
    case EXEC_TEX_UNSIGNED:
        if (t->chan_bytes == 1) return (float)(*p / 255.0);
        else {
            uint16_t v;
            memcpy(&v, p, 2);
            return (float)(v / 65535.0);
        }
    default: {
        double v;
        if (t->chan_bytes == 1) v = (int8_t)*p / 127.0;
        else {
            int16_t s;
            memcpy(&s, p, 2);
            v = s / 32767.0;
        }
        return v < -1.0 ? -1.0f : (float)v;
    }
    }
}

/* One channel of a texel as the integer an element read returns. */
static uint32_t chan_int(const exec_texobj *t, const uint8_t *p) {
    bool sgn = t->chan_kind == EXEC_TEX_SIGNED;
    switch (t->chan_bytes) {
    case 1: return sgn ? (uint32_t)(int32_t)(int8_t)*p : *p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return sgn ? (uint32_t)(int32_t)(int16_t)v : v;
    }
    default: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

_Thread_local struct exec_tex_lane_footprint *exec_tex_trace;

/* Notes texel (x, y) of slice s in exec_tex_trace: the sector and line holding it, in the
 * block-linear layout of a CUDA array (16 bytes of 2 rows, 32 bytes of 4 rows) or the rows
 * of linear and pitched memory (32 and 128 bytes). */
static void note_texel(const exec_texobj *t, const exec_tex_level *lv, uint32_t x, uint32_t y,
                       uint32_t s) {
    exec_tex_lane_footprint *f = exec_tex_trace;
    if (f->n == EXEC_TEX_FOOTPRINT_MAX) return;
    uint64_t plane = (uint64_t)(uintptr_t)(lv->base + s * lv->slice);
    uint64_t xb = (uint64_t)x * t->elem_size;
    if (t->res == EXEC_TEX_RES_LINEAR || t->res == EXEC_TEX_RES_PITCH2D) {
        uint64_t a = plane + y * lv->pitch + xb;
        f->sector[f->n] = a & ~(uint64_t)31;
        f->line[f->n] = a & ~(uint64_t)127;
    } else {
        f->sector[f->n] = plane + (y & ~1u) * lv->pitch + (xb & ~(uint64_t)15);
        f->line[f->n] = plane + (y & ~3u) * lv->pitch + (xb & ~(uint64_t)31);
    }
    f->n++;
}

/* Channels a format lacks read as 0 (the fourth too, unlike OpenGL). */
static void read_texel(const exec_texobj *t, const exec_tex_level *lv, uint32_t x, uint32_t y,
                       uint32_t s, tex_val *v) {
    if (exec_tex_trace) note_texel(t, lv, x, y, s);
    const uint8_t *p = lv->base + s * lv->slice + y * lv->pitch + (uint64_t)x * t->elem_size;
    bool ints = exec_tex_returns_int(t);
    v->border = false;
    for (unsigned k = 0; k < 4; k++) {
        if (k < t->nchan) {
            const uint8_t *c = p + k * t->chan_bytes;
            v->u[k] = chan_int(t, c);
            if (!ints) v->f[k] = chan_float(t, c);
        } else {
            v->u[k] = 0;
            v->f[k] = 0.0f;
        }
    }
}

/* Outside the texture in border mode: the border colour's channels that the format has
 * (an integer texture's border reads as 0). */
static void border_texel(const exec_texobj *t, tex_val *v) {
    v->border = true;
    for (unsigned k = 0; k < 4; k++) {
        v->f[k] = k < t->nchan ? t->border[k] : 0.0f;
        v->u[k] = 0;
        /* what a normalized texture filters: the colour as a 16-bit fraction */
        if (t->read_normalized && t->chan_bytes <= 2) {
            double m = t->chan_kind == EXEC_TEX_SIGNED ? 32767.0 : 65535.0;
            v->u[k] = (uint32_t)(int32_t)floor(v->f[k] * m + 0.5);
        }
    }
}

/* Signed 8-bit normalized texels are blended as they are: the sum P of texel x weight
 * (weights in 256ths, so P is in 256ths of 1/127) becomes a 16-bit fraction (of 32767)
 * as P * (1 + 2^-7 + 2^-15) would, the last term taken from P's bits above the 12th and
 * the sum rounded by shifts (floor): what an H200 returned for every texel at every
 * weight (texture_probe2's "s8 rows" lines, 327680 of 327680). -128 counts as -128; the
 * result is clamped to -1. */
static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return q * b > a ? q - 1 : q;
}

static int32_t s8_fraction(int64_t p) {
    int64_t n = p + floor_div(p + floor_div(p, 4096) * 16 + 64, 128);
    return n < -32767 ? -32767 : (int32_t)n;
}

static bool s8_filter(const exec_texobj *t) {
    return t->chan_kind == EXEC_TEX_SIGNED && t->chan_bytes == 1;
}

/* Map texel index i of a row of n texels by the address mode; false: outside (border). */
static inline bool address(int64_t i, uint32_t n, unsigned mode, uint32_t *out) {
    if (i >= 0 && i < (int64_t)n) {
        *out = (uint32_t)i;
        return true;
    }
    switch (mode) {
    case EXEC_TEX_WRAP: {
        int64_t m = i % (int64_t)n;
        *out = (uint32_t)(m < 0 ? m + n : m);
        return true;
    }
    case EXEC_TEX_MIRROR: {
        int64_t p = 2 * (int64_t)n, m = i % p;
        if (m < 0) m += p;
        *out = (uint32_t)(m >= n ? p - 1 - m : m);
        return true;
    }
    case EXEC_TEX_BORDER:
        return false;
    default:
        *out = i < 0 ? 0 : n - 1;
        return true;
    }
}

/* Wrap and mirror need normalized coordinates; with unnormalized ones they clamp. */
static unsigned mode_of(const exec_texobj *t, unsigned axis) {
    unsigned m = t->addr[axis];
    if (!t->norm_coords && (m == EXEC_TEX_WRAP || m == EXEC_TEX_MIRROR)) return EXEC_TEX_CLAMP;
    return m;
}

/* The texel at integer position (x, y, z) of level lv, slice s (layers, faces), after
 * addressing; dims says how many of x, y, z count. */
static void fetch(const exec_texobj *t, const exec_tex_level *lv, const unsigned *modes,
                  unsigned dims, const int64_t *pos, uint32_t s, tex_val *v) {
    uint32_t at[3] = {0, 0, 0};
    const uint32_t size[3] = {lv->width, lv->height, lv->depth};
    for (unsigned k = 0; k < dims; k++) {
        if (!address(pos[k], size[k], modes[k], &at[k])) {
            border_texel(t, v);
            return;
        }
    }
    if (dims == 3) s = at[2];
    read_texel(t, lv, at[0], at[1], s, v);
}

/* Where a coordinate falls, in texels of a level of n texels: unnormalized coordinates as
 * they are; normalized ones first cut to a fixed-point number with 21 fractional bits
 * (rounded toward zero), then scaled (what an H200 does: tests/cuda/texture, texture_linear's
 * "ramp normalized" lines, 1024 of 1024 lookups). */
/* trunc and floor, by an integer conversion where x is small enough for one (the libm
 * calls cost more than the rest of a point lookup); the same values, but the sign of a
 * zero, which no caller sees. */
static inline double trunc_fast(double x) {
    return fabs(x) < 0x1p52 ? (double)(int64_t)x : trunc(x);
}

static inline double floor_fast(double x) {
    if (!(fabs(x) < 0x1p52)) return floor(x);
    double t = (double)(int64_t)x;
    return t > x ? t - 1 : t;
}

#define TEX_NORM_FRAC_BITS 21
static inline double texel_coord(bool norm, float c, uint32_t n) {
    if (!norm) return (double)c;
    /* scaling by powers of two is exact: ldexp's values */
    double q = trunc_fast((double)c * (double)(1u << TEX_NORM_FRAC_BITS));
    return q * (1.0 / (1u << TEX_NORM_FRAC_BITS)) * n;
}

/* A filter weight as the hardware keeps it: 8 fractional bits, rounded (half up), in
 * 256ths. */
static inline unsigned weight256(double frac) {
    return (unsigned)floor_fast(frac * 256.0 + 0.5);
}

/* Weighted texels being summed: in double precision, or for 8-bit normalized texels as
 * integers (16-bit fractions times weights in 256ths). */
#define TEX_MAX_TERMS 16

typedef struct tex_acc {
    int64_t i[4];                  /* normalized integers: the weighted sum */
    unsigned n;                    /* floats: the weighted texels, summed at the end */
    unsigned w[TEX_MAX_TERMS];
    float f[TEX_MAX_TERMS][4];
} tex_acc;

/* 8- and 16-bit normalized texels are blended as 16-bit fractions and the result rounded
 * to one (an H200's results are all n / 65535, or n / 32767 when signed). */
static bool narrow_filter(const exec_texobj *t) {
    return t->read_normalized && t->chan_bytes <= 2;
}

/* What a normalized texel adds to the blend: unsigned 8-bit t as the 16-bit fraction
 * t * 257 (of 65535), 16-bit ones as they are (signed -32768 as -32767), signed 8-bit
 * ones as 256 times the texel (s8_fraction); the border colour as its 16-bit fraction
 * (for signed 8-bit textures: 256 x 127 times the colour). */
static int32_t fraction16(const exec_texobj *t, const tex_val *v, unsigned k) {
    uint32_t raw = v->u[k];
    if (v->border) {
        if (s8_filter(t)) return (int32_t)floor(t->border[k] * 127.0 * 256.0 + 0.5);
        return (int32_t)raw;
    }
    if (t->chan_bytes == 1) return s8_filter(t) ? (int32_t)raw * 256 : (int32_t)(raw * 257u);
    int32_t s = (int32_t)raw;
    return t->chan_kind == EXEC_TEX_SIGNED && s < -32767 ? -32767 : s;
}

static void accumulate(const exec_texobj *t, const tex_val *v, unsigned weight, tex_acc *acc) {
    if (narrow_filter(t)) {
        for (unsigned k = 0; k < 4; k++)
            acc->i[k] += (int64_t)weight * (k < t->nchan ? fraction16(t, v, k) : 0);
    } else if (acc->n < TEX_MAX_TERMS) {
        acc->w[acc->n] = weight;
        memcpy(acc->f[acc->n], v->f, sizeof v->f);
        acc->n++;
    }
}

/* d rounded to a float, ties away from zero. */
static float round_ties_away(double d) {
    float f = (float)d;
    /* In the normal range, d lies halfway between two floats only where the 29 bits a
     * float drops from a double are 1 and 28 zeros; anywhere else the conversion's
     * nearest is the answer (the search below costs a libm call). */
    if (fabs(d) >= 0x1p-126 && fabs(d) < 0x1p127) {
        uint64_t b;
        memcpy(&b, &d, 8);
        if ((b & 0x1fffffffu) != 0x10000000u) return f;
    }
    double err = d - (double)f;
    if (err != 0) {
        float other = nextafterf(f, err > 0 ? INFINITY : -INFINITY);
        if (fabs(d - (double)other) == fabs(err) && fabsf(other) > fabsf(f)) f = other;
    }
    return f;
}

/* Float texels are blended the way the GPU's filter does (texture_probe's "pair" lines,
 * 2048 of 2048): aligned to the exponent of the largest texel that has a weight, as
 * fixed-point numbers with TEX_BLEND_BITS bits below its leading bit (the rest cut off),
 * summed exactly with their weights, the sum rounded to a float with ties away from
 * zero. */
#define TEX_BLEND_BITS 27

/* 2^p as a double, p in [-1022, 1023]: ldexp(x, p) is x * pow2(p) wherever the product
 * is neither subnormal nor infinite, which the blend's never are. */
static inline double pow2(int p) {
    uint64_t b = (uint64_t)(1023 + p) << 52;
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static float blend_terms(unsigned n_terms, const unsigned *w, const float (*f)[4], unsigned k) {
    float top = 0;
    bool nan = false; /* a NaN texel with a weight: no fixed-point form (the sum is NaN) */
    for (unsigned n = 0; n < n_terms; n++) {
        if (!w[n]) continue;
        float a = fabsf(f[n][k]);
        if (a > top) top = a;
        else if (a != a) nan = true;
    }
    if (nan || top == 0 || !isfinite(top)) {
        double s = 0;
        for (unsigned n = 0; n < n_terms; n++) s += w[n] * (double)f[n][k];
        return (float)(s / 256.0);
    }
    /* e: top in [2^(e-1), 2^e), frexpf's exponent, from the bits unless subnormal */
    uint32_t bits;
    memcpy(&bits, &top, 4);
    int e = (int)(bits >> 23) - 126;
    if (bits >> 23 == 0) frexpf(top, &e);
    int shift = TEX_BLEND_BITS - (e - 1);
    double scale = pow2(shift);
    int64_t sum = 0;
    for (unsigned n = 0; n < n_terms; n++) {
        if (!w[n]) continue;
        /* |f| * 2^shift < 2^28: the conversion truncates as trunc would */
        int64_t fixed = (int64_t)((double)f[n][k] * scale);
        sum += (int64_t)w[n] * fixed;
    }
    return round_ties_away((double)sum * pow2(-shift - 8));
}

static float blend_floats(const tex_acc *acc, unsigned k) {
    return blend_terms(acc->n, acc->w, (const float (*)[4])acc->f, k);
}

static void finish(const exec_texobj *t, const tex_acc *acc, tex_val *out) {
    bool narrow = narrow_filter(t);
    bool half = t->chan_kind == EXEC_TEX_FLOAT && t->chan_bytes == 2;
    double one = t->chan_kind == EXEC_TEX_SIGNED ? 32767.0 : 65535.0;
    for (unsigned k = 0; k < 4; k++) {
        if (narrow && s8_filter(t)) {
            /* acc is in 65536ths of 1/127: P in 256ths, rounded (only a border colour
             * leaves a remainder) */
            int64_t p = floor_div(acc->i[k] + 128, 256);
            out->f[k] = (float)(s8_fraction(p) / 32767.0);
        } else if (narrow) {
            double n = floor(acc->i[k] / 256.0 + 0.5);
            out->f[k] = (float)((n < -one ? -one : n) / one);
        } else if (half) {
            /* half texels: the exact sum rounded to a half, ties away from zero (an
             * H200's tie in texture_probe's "half linear" lines) */
            double s = 0;
            for (unsigned n = 0; n < acc->n; n++) s += acc->w[n] * (double)acc->f[n][k];
            out->f[k] = alu_h2f((uint16_t)alu_double_to_fmt(s / 256.0, EXEC_RND_RNA,
                                                            &alu_fmt_f16, false));
        } else {
            out->f[k] = blend_floats(acc, k);
        }
    }
}

/* Add a linear lookup of level lv, its corners' weights taken out of budget (256ths). */
static void filter_level(const exec_texobj *t, const exec_tex_level *lv, const unsigned *modes,
                         unsigned dims, const float *c, uint32_t s, bool norm, unsigned budget,
                         tex_acc *acc) {
    const uint32_t size[3] = {lv->width, lv->height, lv->depth};
    /* A 1D texture is filtered as a 2D one of one row read at y = 0: half of row 0
     * and half of row -1, which is row 0 again unless the second address mode is
     * border (an H200 returns (texel + border) / 2 there). */
    float c2[3] = {c[0], 0.0f, 0.0f};
    if (dims == 1) {
        c = c2;
        dims = 2;
    }
    int64_t base[3] = {0, 0, 0};
    unsigned w[3] = {0, 0, 0};
    for (unsigned k = 0; k < dims; k++) {
        double x = texel_coord(norm, c[k], size[k]) - 0.5;
        double f = floor_fast(x);
        base[k] = (int64_t)f;
        w[k] = weight256(x - f);
        /* both texels of the axis the same one (clamped at an edge, a row of one): the
         * axis does not split the weight */
        uint32_t lo, hi;
        if (address(base[k], size[k], modes[k], &lo) &&
            address(base[k] + 1, size[k], modes[k], &hi) && lo == hi)
            w[k] = 0;
    }
    /* The corners' weights, in 256ths of the budget (256, or a mipmap level's share):
     * the budget is split along z (3D), then x, then y, each part's upper share rounded
     * to nearest. A tie rounds up, except in the z split and in the y split of a
     * lower-x part, where it rounds down (so that the y weights of the two columns sum
     * to the y weight). What an H200 does: texture_linear's 2D and 3D lookups,
     * texture_probe's rotated image, texture_corners' ties and trilinear lookups. */
    unsigned cw[8], cm[8];
    cw[0] = budget;
    cm[0] = 0;
    unsigned ncorner = 1;
    static const unsigned order2[2] = {0, 1}, order3[3] = {2, 0, 1};
    const unsigned *order = dims == 3 ? order3 : order2;
    for (unsigned j = 0; j < dims; j++) {
        unsigned k = order[j];
        bool last = j + 1 == dims;
        for (unsigned n = ncorner; n-- > 0;) {
            unsigned prod = cw[n] * w[k], hi = prod >> 8, rem = prod & 255u;
            bool tie_up = k == 2 ? false : !last || (cm[n] & 1u);
            if (rem > 128 || (rem == 128 && tie_up)) hi++;
            cw[2 * n + 1] = hi;
            cm[2 * n + 1] = cm[n] | 1u << k;
            cw[2 * n] = cw[n] - hi;
            cm[2 * n] = cm[n];
        }
        ncorner *= 2;
    }
    for (unsigned n = 0; n < ncorner; n++) {
        if (cw[n] == 0) continue;
        int64_t pos[3];
        for (unsigned k = 0; k < dims; k++) pos[k] = base[k] + ((cm[n] >> k) & 1u);
        tex_val v;
        fetch(t, lv, modes, dims, pos, s, &v);
        accumulate(t, &v, cw[n], acc);
    }
}

/* The texel a point lookup of level lv reads. */
static void point_level(const exec_texobj *t, const exec_tex_level *lv, const unsigned *modes,
                        unsigned dims, const float *c, uint32_t s, bool norm, tex_val *out) {
    const uint32_t size[3] = {lv->width, lv->height, lv->depth};
    int64_t pos[3] = {0, 0, 0};
    for (unsigned k = 0; k < dims; k++) pos[k] = (int64_t)floor_fast(texel_coord(norm, c[k], size[k]));
    fetch(t, lv, modes, dims, pos, s, out);
}

static void sample_level(const exec_texobj *t, const exec_tex_level *lv, const unsigned *modes,
                         unsigned dims, const float *c, uint32_t s, bool norm, tex_val *out) {
    if (!t->linear || exec_tex_returns_int(t)) {
        point_level(t, lv, modes, dims, c, s, norm, out);
        return;
    }
    tex_acc acc;
    memset(&acc, 0, sizeof acc);
    filter_level(t, lv, modes, dims, c, s, norm, 256, &acc);
    finish(t, &acc, out);
}

/* Cube map: the face a direction points at and the face's normalized (s, t). */
static unsigned cube_face(const float *d, float *st) {
    float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);
    unsigned face;
    float sc, tc, ma;
    /* ties go to z, then y (an H200 reads (1, 1, 0.99) from the +y face) */
    if (az >= ax && az >= ay) {
        face = d[2] >= 0 ? 4 : 5;
        ma = az;
        sc = d[2] >= 0 ? d[0] : -d[0];
        tc = -d[1];
    } else if (ay >= ax) {
        face = d[1] >= 0 ? 2 : 3;
        ma = ay;
        sc = d[0];
        tc = d[1] >= 0 ? d[2] : -d[2];
    } else {
        face = d[0] >= 0 ? 0 : 1;
        ma = ax;
        sc = d[0] >= 0 ? -d[2] : d[2];
        tc = -d[1];
    }
    st[0] = (sc / ma + 1.0f) * 0.5f;
    st[1] = (tc / ma + 1.0f) * 0.5f;
    return face;
}

/* The layer index is unsigned: a negative one is a large one, clamped to the last layer. */
static uint32_t clamp_layer(const exec_texobj *t, int32_t layer) {
    uint32_t n = t->layers ? t->layers : 1;
    return (uint32_t)layer >= n ? n - 1 : (uint32_t)layer;
}

/* The fraction of log2 the texture unit gives a length whose mantissa starts with
 * 1.j (j its next 8 bits), in 256ths: what an H200 returned for tex2DGrad with
 * gradients of every mantissa (tests/cuda/texture/h200/texture_probe2.out, "grad
 * linear", lengths 2^e * (1 + k/4096) in three octaves: the result depends on the top 8
 * bits alone). */
static const uint8_t tex_log2_frac[256] = {
      0,   2,   4,   5,   6,   8,   9,  11,  12,  13,  15,  16,  18,  19,  20,  22,
     23,  24,  26,  27,  28,  30,  31,  32,  34,  35,  36,  38,  39,  40,  42,  43,
     44,  45,  47,  48,  49,  50,  52,  53,  54,  55,  57,  58,  59,  60,  62,  63,
     64,  65,  66,  68,  69,  70,  71,  72,  74,  75,  76,  77,  78,  79,  81,  82,
     83,  84,  85,  86,  88,  89,  90,  91,  92,  93,  94,  95,  97,  98,  99, 100,
    101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117,
    118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133,
    135, 136, 137, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149,
    150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 162, 163, 164,
    165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176, 177, 178, 179,
    180, 181, 181, 182, 183, 184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193,
    194, 195, 195, 196, 197, 198, 199, 200, 200, 201, 202, 203, 204, 205, 205, 206,
    207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216, 217, 218, 218, 219,
    220, 221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229, 229, 230, 231, 232,
    233, 233, 234, 235, 236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244,
    245, 245, 246, 247, 248, 248, 249, 250, 251, 251, 252, 253, 253, 254, 255, 255,
};

/* x cut (toward zero) to its top 10 significant bits: the precision the texture unit
 * keeps of a gradient's components. */
static double cut10(double x) {
    if (x == 0 || !isfinite(x)) return x;
    int e;
    double m = frexp(x, &e);
    return ldexp(trunc(ldexp(m, 10)), e - 10);
}

/* x rounded to the nearest multiple of 2^(e - bits), e being ref's binary exponent (ref =
 * m * 2^e, m in [0.5, 1)), halves rounding up: the precision the unit keeps of a
 * product. */
static double round_below(double x, double ref, int bits) {
    if (x == 0 || !isfinite(x)) return x;
    int e;
    frexp(ref, &e);
    return ldexp(floor(ldexp(x, bits - e) + 0.5), e - bits);
}

/* |x|, |y| and |z|, largest first. */
static void abs_sorted(double x, double y, double z, double v[3]) {
    v[0] = fabs(x);
    v[1] = fabs(y);
    v[2] = fabs(z);
    for (unsigned i = 0; i < 2; i++)
        for (unsigned j = 0; j + 1 < 3 - i; j++)
            if (v[j] < v[j + 1]) {
                double t = v[j];
                v[j] = v[j + 1];
                v[j + 1] = t;
            }
}

/* A gradient vector's length as the texture unit measures it: the largest component plus
 * 11/32 of the next (an octagon, not a circle), that product rounded to 12 bits below
 * that component's exponent and then cut to 10 significant bits (what an H200 returned
 * for single vectors at every angle, texture_probe2's "grad" lines and texture_lod's
 * random pairs: the exact 11/32 misses 2% of them), plus a quarter of the smallest
 * (texture_lod's 3D lines, where nesting the 2D length matched half). */
static double grad_len(double x, double y, double z) {
    double v[3];
    abs_sorted(x, y, z, v);
    return v[0] + cut10(round_below(v[1] * (11.0 / 32), v[1], 12)) + v[2] / 4;
}

/* 11/16 of the length of a sum or difference of the gradients, the factor distributed
 * over its components, largest first: 11/16 of the largest rounded to nearest (halves
 * up) at 11 bits below its exponent, then cut to 10 significant bits, which drops that
 * bit again where the product falls below the component's binade halved (texture_probe5
 * pins this term to 2^-14 for 384 sums and differences: it is exactly this rounding at
 * every fraction); 121/512 (11/16 of 11/32) of the next and 11/64 (11/16 of 1/4) of the
 * smallest each at 13 bits below its own, cut to 10 bits (12 bits below missed 3 of
 * texture_lod's and texture_lod_npot's 3D gradients; cutting the last term to 10 bits
 * changes nothing recorded). */
static double grad_len_combined(const double c[3]) {
    double v[3];
    abs_sorted(c[0], c[1], c[2], v);
    return cut10(round_below(v[0] * (11.0 / 16), v[0], 11)) +
           cut10(round_below(v[1] * (121.0 / 512), v[1], 13)) +
           cut10(round_below(v[2] * (11.0 / 64), v[2], 13));
}

/* The sum of two components of 10 significant bits as the unit adds them: the one of
 * smaller magnitude aligned to the other's grid with one guard bit (the bits below it
 * dropped), then the result cut to 10 bits. A sum comes out as cut10 of the exact sum;
 * a difference that stays in the larger's binade comes out rounded up from there
 * (8.984375 - 0.9248046875 gives 8.0625, not 8.046875): what 6 of texture_lod's values
 * and one of texture_lod_npot's need, where the plain cut of the exact sum was 1/256 low. */
static double add_aligned(double a, double b) {
    if (a == 0 || b == 0) return a + b;
    double big = fabs(a) >= fabs(b) ? a : b, small = fabs(a) >= fabs(b) ? b : a;
    int e;
    frexp(big, &e); /* the larger's 10-bit grid is 2^(e - 10); one guard bit below it */
    double q = ldexp(1.0, e - 11);
    double kept = floor(fabs(small) / q) * q;
    return cut10(big + (small < 0 ? -kept : kept));
}

/* log2 of a positive finite length in 256ths as the unit takes it: the exponent plus the
 * table's fraction of the mantissa's top 8 bits. */
static int32_t log2_256(double rho) {
    int e;
    double m = frexp(rho, &e); /* rho = m * 2^e, m in [0.5, 1) */
    unsigned j = (unsigned)(ldexp(m, 9) - 256.0);
    return 256 * (e - 1) + tex_log2_frac[j];
}

/* The level of detail from the gradients dP/dx and dP/dy (in texels), in 256ths: the
 * footprint is the longest of |dx|, |dy|, and 11/16 of |dx + dy| and of |dx - dy| (so
 * that parallel gradients widen it), the components of the sum and difference added as
 * the unit adds them (add_aligned) and measured by grad_len_combined; its log2 is its
 * exponent plus the table's fraction of its mantissa. What an H200 gave for every value
 * of texture_lod, texture_lod_npot, texture_corners_all and texture_probe2 to 5 (but
 * for the anisotropic ones). */
static int32_t grad_lod256(const double g[2][3], unsigned dims) {
    double d[2][3], rho = 0;
    for (unsigned v = 0; v < 2; v++)
        for (unsigned k = 0; k < 3; k++) d[v][k] = k < dims ? cut10(g[v][k]) : 0;
    for (unsigned v = 0; v < 4; v++) {
        double c[3];
        for (unsigned k = 0; k < 3; k++)
            c[k] = v < 2 ? d[v][k] : add_aligned(d[0][k], (v == 2 ? 1 : -1) * d[1][k]);
        double len = v >= 2 ? grad_len_combined(c) : grad_len(c[0], c[1], c[2]);
        if (len > rho) rho = len;
    }
    if (!(rho > 0)) return INT32_MIN / 2;
    if (!isfinite(rho)) return INT32_MAX / 2;
    return log2_256(rho);
}

/* A level of detail clamped as the descriptor says and to the levels there are. */
static float clamp_level(const exec_texobj *t, float lod) {
    if (lod < t->min_lod) lod = t->min_lod;
    if (lod > t->max_lod) lod = t->max_lod;
    float top = (float)(t->nlevels - 1);
    if (lod > top) lod = top;
    if (lod < 0) lod = 0;
    return lod;
}

/* A normalized gradient component g scaled to texels by a side of the texture, as the
 * texture unit does it (texture_probe6: every one of 21155 level-of-detail thresholds on
 * sides 3 to 1025): g cut to 10 significant bits (G = m 2^q, m of 10 bits) times the
 * side's mantissa (cut to 10 bits, its trailing zeros a plain power of two) in a
 * truncated multiplier that keeps the partial products' columns down to 3 bits below U,
 * the unit of m times the side's leading power of two, rounds that up to a multiple of U
 * and cuts the result to 10 significant bits. On a power-of-two side that is the exact
 * product; on others the length comes out up to a step of 10 bits above g x side, by an
 * amount that depends on the bits of both. */
static double scale_grad(double g, uint32_t side) {
    if (g == 0 || !isfinite(g) || side == 0) return g * side;
    int e;
    double mf = frexp(fabs(g), &e); /* |g| = mf 2^e, mf in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(mf, 10); /* G = m 2^(e - 10), 512 <= m < 1024 */
    uint32_t so = side;
    int p = 0;
    while (!(so & 1)) {
        so >>= 1;
        p++;
    }
    int b = 0;
    while (so >> b) b++;
    if (b > 10) { /* the side kept to 10 significant bits, cut */
        so >>= b - 10;
        p += b - 10;
        b = 10;
    }
    /* the product m x so in units of U / 2^(b - 1): keep columns i + j >= b - 4 */
    uint64_t t = 0;
    for (int i = 0; i < 10; i++)
        if ((m >> i) & 1)
            for (int j = 0; j < b; j++)
                if (((so >> j) & 1) && i + j >= b - 4) t += (uint64_t)1 << (i + j);
    /* in eighths of U (exact: the kept columns are multiples of U / 8), rounded up to U */
    uint64_t t8 = b >= 4 ? t >> (b - 4) : t << (4 - b);
    uint64_t q = (t8 + 7) >> 3; /* units of U; at least 512, so 10 bits are a shift */
    unsigned nb = 0;
    while (q >> nb) nb++;
    if (nb > 10) q = (q >> (nb - 10)) << (nb - 10);
    double r = ldexp((double)q, e - 10 + p + b - 1);
    return g < 0 ? -r : r;
}

/* The level of detail a lookup asks for, clamped as the descriptor says. */
static float level_of(const exec_texobj *t, const exec_tex_lookup *q) {
    float lod = t->lod_bias;
    if (q->lod_kind == EXEC_TEX_LOD_LEVEL) {
        lod += q->lod;
    } else if (q->lod_kind == EXEC_TEX_LOD_GRAD) {
        unsigned dims = t->cubemap ? 2 : t->dims;
        const exec_tex_level *l0 = &t->level[0];
        const uint32_t size[3] = {l0->width, l0->height, l0->depth};
        double g[2][3];
        for (unsigned v = 0; v < 2; v++)
            for (unsigned k = 0; k < 3; k++)
                g[v][k] = k >= dims ? 0
                          : t->norm_coords ? scale_grad(q->grad[v][k], size[k])
                                           : q->grad[v][k];
        int32_t l256 = grad_lod256(g, dims);
        /* the bias joins the gradients' level in 256ths, cut toward zero (an H200 gave
         * l - 350/256 for a bias of -1.37: texture_lod's "bias" lines) */
        lod = l256 < -(1 << 20) ? -INFINITY
                                : (float)(l256 + (int32_t)(t->lod_bias * 256.0f)) / 256.0f;
    }
    return clamp_level(t, lod);
}

/* Coordinates, slice and addressing of a lookup, resolved for the shapes. */
typedef struct tex_where {
    float c[3];
    unsigned dims;
    uint32_t slice;
    unsigned modes[3];
    bool norm;
} tex_where;

static void where_of(const exec_texobj *t, const exec_tex_lookup *q, tex_where *w) {
    w->dims = t->dims;
    w->slice = 0;
    w->norm = t->norm_coords;
    for (unsigned k = 0; k < 3; k++) {
        w->c[k] = q->c[k];
        w->modes[k] = mode_of(t, k);
    }
    if (t->cubemap) {
        unsigned face = cube_face(q->c, w->c);
        w->dims = 2;
        w->norm = true;
        w->modes[0] = w->modes[1] = EXEC_TEX_CLAMP;
        w->slice = (t->layered ? clamp_layer(t, q->layer) * 6 : 0) + face;
    } else if (t->layered) {
        w->slice = clamp_layer(t, q->layer);
    }
}

static void store(const exec_texobj *t, const tex_val *v, uint32_t out[4]) {
    if (exec_tex_returns_int(t)) {
        memcpy(out, v->u, 4 * sizeof(uint32_t));
    } else {
        for (unsigned k = 0; k < 4; k++) memcpy(&out[k], &v->f[k], 4);
    }
}

/* One lookup of a mipmapped texture at coordinates c and level of detail lod: the level
 * nearest (point mipmap filtering) or the two around it blended. */
static void sample_mip(const exec_texobj *t, const tex_where *w, const float *c, float lod,
                       tex_val *v) {
    if (!t->mip_linear) {
        unsigned l = (unsigned)floorf(lod + 0.5f);
        if (l >= t->nlevels) l = t->nlevels - 1;
        sample_level(t, &t->level[l], w->modes, w->dims, c, w->slice, w->norm, v);
        return;
    }
    /* between levels the weight is the level's fraction cut (not rounded) to 8 bits; it
     * splits the 256ths first, each level's lookup the rest */
    unsigned l = (unsigned)floorf(lod);
    unsigned a = (unsigned)floor((lod - l) * 256.0);
    if (a == 0 || l + 1 >= t->nlevels || exec_tex_returns_int(t)) {
        sample_level(t, &t->level[l], w->modes, w->dims, c, w->slice, w->norm, v);
        return;
    }
    tex_acc acc;
    memset(&acc, 0, sizeof acc);
    for (unsigned k = 0; k < 2; k++) {
        const exec_tex_level *lv = &t->level[l + k];
        unsigned budget = k ? a : 256 - a;
        if (t->linear) {
            filter_level(t, lv, w->modes, w->dims, c, w->slice, w->norm, budget, &acc);
        } else {
            tex_val p;
            point_level(t, lv, w->modes, w->dims, c, w->slice, w->norm, &p);
            accumulate(t, &p, budget, &acc);
        }
    }
    finish(t, &acc, v);
}

/* Anisotropic filtering (maxAnisotropy > 1, tex2DGrad on a mipmapped 2D texture): a model
 * of what an H200 does (tests/cuda/texture/README.md, texture_probe4's "alod" and "imp"
 * lines and texture_lod -DANISO), close to the GPU but not exact.
 *
 * The footprint is the ellipse the gradients span: its axes are the singular values
 * s1 >= s2 of the matrix [dx dy] (in texels), its major axis along u. The ratio's log2 in
 * 256ths, x, is the unit's log2 of s1 oct(u) less that of s2, oct(u) being u's octagonal
 * length (max + 11/32 min of its components), which moves the ramps below with the angle
 * as the GPU's do (30 and 45 degrees); log2 of the probe count, Lp, is a staircase of
 * plateaus and ramps in x (aniso_log2_count) capped at log2(maxAnisotropy), and the
 * level is log2(s1) - Lp, in 256ths. The probes: N = the even count at least r (r =
 * s1 oct(u) / s2, capped at maxAnisotropy), one texel of the level read apart along u
 * and centred on the coordinate, each weighted by its share of a box of min(r, N)
 * spacings (r = 3: 1/6, 1/3, 1/3, 1/6), each a lookup at that level as an isotropic one
 * would be; the weighted sum is formed in double (the GPU's sums with weights of a sixth
 * differ in the last bits). Returns false (the isotropic path decides) where the model
 * does not apply. */
enum { ANISO_MAX_PROBES = 16 };

/* log2 of the probe count the level assumes, in 256ths, for x = log2 of the ratio in
 * 256ths: j on the plateaus, floor(S f - A) (clamped to [0, 256]) above j, f = x - 256 j,
 * capped at log2(maxAnisotropy). S and A are what an H200 gave under maxAnisotropy 16, 4
 * and 2 (texture_probe4's "alod" lines at angle 0, every value); other caps take the
 * nearest recorded one below. */
static int32_t aniso_log2_count(int32_t x, unsigned cap) {
    double S = cap >= 16 ? 2.0 : cap >= 4 ? 1.75 : 1.5;
    double A = cap >= 16 ? 128.0 : cap >= 4 ? 96.75 : 64.5;
    int32_t j = x >= 0 ? x / 256 : -((255 - x) / 256), f = x - 256 * j;
    double v = floor(S * f - A);
    int32_t l = 256 * j + (int32_t)fmin(256.0, fmax(0.0, v));
    int32_t top = (int32_t)floor(256.0 * log2((double)cap));
    return l < top ? l : top;
}

static bool aniso_sample(const exec_texobj *t, const exec_tex_lookup *q, const tex_where *w,
                         tex_val *v) {
    if (t->max_aniso <= 1 || q->lod_kind != EXEC_TEX_LOD_GRAD || t->dims != 2 ||
        t->cubemap || exec_tex_returns_int(t))
        return false;
    const exec_tex_level *l0 = &t->level[0];
    const double size[2] = {l0->width, l0->height};
    double g[2][2];
    for (unsigned d = 0; d < 2; d++)
        for (unsigned k = 0; k < 2; k++)
            g[d][k] = q->grad[d][k] * (t->norm_coords ? size[k] : 1.0);
    /* [dx dy] [dx dy]^T = [[a, b], [b, c]]: its eigenvalues are s1^2 and s2^2 */
    double a = g[0][0] * g[0][0] + g[1][0] * g[1][0];
    double b = g[0][0] * g[0][1] + g[1][0] * g[1][1];
    double c = g[0][1] * g[0][1] + g[1][1] * g[1][1];
    double mid = (a + c) / 2, rad = hypot((a - c) / 2, b);
    double s1 = sqrt(mid + rad), s2 = sqrt(fmax(mid - rad, 0.0));
    if (!(s1 > 0) || !isfinite(s1)) return false;
    double th = 0.5 * atan2(2 * b, a - c), u[2] = {cos(th), sin(th)};
    double au = fabs(u[0]), bu = fabs(u[1]);
    double oct = fmax(au, bu) + 11.0 / 32 * fmin(au, bu);
    double r = s2 > 0 ? s1 / s2 * oct : INFINITY;
    if (r < 1) r = 1;
    unsigned cap = t->max_aniso;
    /* the ratio's log2 as the unit's table gives it, the major axis scaled by u's
     * octagonal length; the level from the exact log2 of the major axis, rounded */
    int32_t x = s2 > 0 && isfinite(r) ? log2_256(s1 * oct) - log2_256(s2) : 256 * 16;
    double l256 = floor(256.0 * log2(s1) + 0.5) - aniso_log2_count(x, cap);
    float lod = clamp_level(t, (float)((l256 + (int32_t)(t->lod_bias * 256.0f)) / 256.0));
    double reff = fmin(r, (double)cap);
    unsigned n = reff <= 1 ? 1 : 2 * (unsigned)ceil(reff / 2);
    if (n > cap) n = cap & ~1u;
    if (n > ANISO_MAX_PROBES) n = ANISO_MAX_PROBES;
    if (n <= 1) {
        sample_mip(t, w, w->c, lod, v);
        return true;
    }
    /* the probes lie one texel of the level read apart (under maxAnisotropy 4, ratios 6 and
     * 8 with a 1-texel minor axis give exactly ratio 4's response with a 2-texel one) */
    double box = fmin(reff, (double)n);
    double step = exp2(t->mip_linear ? (double)lod : floor((double)lod + 0.5));
    double acc[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < n; i++) {
        double p = i - (n - 1) / 2.0; /* the probe's place, in spacings */
        double share = fmin(p + 0.5, box / 2) - fmax(p - 0.5, -box / 2);
        if (!(share > 0)) continue;
        float cc[3] = {w->c[0], w->c[1], w->c[2]};
        for (unsigned k = 0; k < 2; k++)
            cc[k] = (float)(w->c[k] + p * step * u[k] / (w->norm ? size[k] : 1.0));
        tex_val pv;
        memset(&pv, 0, sizeof pv);
        sample_mip(t, w, cc, lod, &pv);
        for (unsigned k = 0; k < 4; k++) acc[k] += share / box * pv.f[k];
    }
    for (unsigned k = 0; k < 4; k++) v->f[k] = (float)acc[k];
    return true;
}

/* ---- plain 2D lookups of float textures ----
 * The commonest lookup (tex2D of a float texture of one level, neither layered nor a cube
 * map) taken straight from the coordinates to the result, for speed: the same arithmetic
 * as exec_tex_sample's path through where_of, sample_level, filter_level or point_level,
 * fetch and blend_floats, without the general lookup, the accumulator and the per-texel
 * format switch. Every result is the general path's, bit for bit (the texture tests run
 * both tiers against the GPU's recordings). */

bool exec_tex_fast_2d(const exec_texobj *t) {
    return t->dims == 2 && !t->layered && !t->cubemap && t->nlevels <= 1 &&
           t->chan_kind == EXEC_TEX_FLOAT && t->chan_bytes == 4 && !exec_tex_trace;
}

/* Texel (x, y) of level lv, or the border colour where outside (at[] false). */
static inline void fast_texel(const exec_texobj *t, const exec_tex_level *lv, bool inside,
                              uint32_t x, uint32_t y, float f[4]) {
    if (!inside) {
        for (unsigned k = 0; k < 4; k++) f[k] = k < t->nchan ? t->border[k] : 0.0f;
        return;
    }
    const uint8_t *p = lv->base + y * lv->pitch + (uint64_t)x * t->elem_size;
    f[0] = f[1] = f[2] = f[3] = 0.0f;
    memcpy(f, p, 4 * (size_t)t->nchan);
}

/* A normalized coordinate on a row of n texels in 2^-21 texels (texel_coord's value, which
 * is q n 2^-21 for an integer q, exactly), where that product fits 52 bits: then the
 * texel and the weight of a lookup follow from it by shifts. False where it does not fit
 * (or c is not finite): the caller takes texel_coord's double. Right shifts of negative
 * numbers are arithmetic (floors), as GCC and Clang define them. */
static inline bool texel_fixed(float c, uint32_t n, int64_t *p) {
    double s = (double)c * (double)(1u << TEX_NORM_FRAC_BITS);
    if (!(fabs(s) * n < 0x1p52)) return false;
    *p = (int64_t)s * (int64_t)n;
    return true;
}

void exec_tex_sample_2d(const exec_texobj *t, float cx, float cy, uint32_t out[4]) {
    const exec_tex_level *lv = &t->level[0];
    const uint32_t size[2] = {lv->width, lv->height};
    const float c[2] = {cx, cy};
    bool norm = t->norm_coords;
    if (!t->linear) {
        uint32_t at[2] = {0, 0};
        bool inside = true;
        for (unsigned k = 0; k < 2 && inside; k++) {
            int64_t pos, fx;
            if (norm && texel_fixed(c[k], size[k], &fx)) pos = fx >> TEX_NORM_FRAC_BITS;
            else pos = (int64_t)floor_fast(texel_coord(norm, c[k], size[k]));
            inside = address(pos, size[k], mode_of(t, k), &at[k]);
        }
        float f[4];
        fast_texel(t, lv, inside, at[0], at[1], f);
        memcpy(out, f, sizeof f);
        return;
    }
    /* filter_level for two dimensions and a budget of 256 */
    uint32_t at[2][2] = {{0, 0}, {0, 0}};
    bool in[2][2];
    unsigned w[2];
    for (unsigned k = 0; k < 2; k++) {
        unsigned mode = mode_of(t, k);
        int64_t base, fx;
        if (norm && texel_fixed(c[k], size[k], &fx)) {
            /* less half a texel: the whole texels and 21 bits of fraction, whose weight
             * in 256ths, rounded half up, is (fraction + 2^12) >> 13 */
            fx -= (int64_t)1 << (TEX_NORM_FRAC_BITS - 1);
            base = fx >> TEX_NORM_FRAC_BITS;
            w[k] = (unsigned)(((fx & ((1 << TEX_NORM_FRAC_BITS) - 1)) + (1 << 12)) >> 13);
        } else {
            double x = texel_coord(norm, c[k], size[k]) - 0.5;
            double f = floor_fast(x);
            base = (int64_t)f;
            w[k] = weight256(x - f);
        }
        in[k][0] = address(base, size[k], mode, &at[k][0]);
        in[k][1] = address(base + 1, size[k], mode, &at[k][1]);
        if (in[k][0] && in[k][1] && at[k][0] == at[k][1]) w[k] = 0;
    }
    /* the x split is exact (256 w / 256); the y split rounds ties up in the upper-x
     * column only (filter_level) */
    unsigned wx[2] = {256 - w[0], w[0]}, cw[4], nt = 0;
    for (unsigned i = 0; i < 2; i++) {
        unsigned prod = wx[i] * w[1], hi = prod >> 8, rem = prod & 255u;
        if (rem > 128 || (rem == 128 && i == 1)) hi++;
        cw[2 * i] = wx[i] - hi;
        cw[2 * i + 1] = hi;
    }
    unsigned tw[4];
    float tf[4][4];
    for (unsigned n = 0; n < 4; n++) {
        if (cw[n] == 0) continue;
        unsigned xi = n >> 1, yi = n & 1u;
        fast_texel(t, lv, in[0][xi] && in[1][yi], at[0][xi], at[1][yi], tf[nt]);
        tw[nt++] = cw[n];
    }
    for (unsigned k = 0; k < 4; k++) {
        float r = k < t->nchan ? blend_terms(nt, tw, (const float (*)[4])tf, k) : 0.0f;
        memcpy(&out[k], &r, 4);
    }
}

void exec_tex_sample(const exec_texobj *t, const exec_tex_lookup *q, uint32_t out[4]) {
    tex_val v;
    memset(&v, 0, sizeof v);
    if (q->int_coords) {
        /* texel indices (tex1Dfetch): no filtering; outside the resource reads zero */
        const exec_tex_level *lv = &t->level[0];
        int64_t pos[3] = {q->ic[0], q->ic[1], q->ic[2]};
        const uint32_t size[3] = {lv->width, lv->height, lv->depth};
        bool inside = true;
        for (unsigned k = 0; k < t->dims; k++)
            if (pos[k] < 0 || pos[k] >= size[k]) inside = false;
        if (inside) read_texel(t, lv, (uint32_t)pos[0], (uint32_t)pos[1],
                               t->dims == 3 ? (uint32_t)pos[2] : clamp_layer(t, q->layer), &v);
        store(t, &v, out);
        return;
    }
    tex_where w;
    where_of(t, q, &w);
    if (t->nlevels <= 1) {
        sample_level(t, &t->level[0], w.modes, w.dims, w.c, w.slice, w.norm, &v);
    } else if (!aniso_sample(t, q, &w, &v)) {
        sample_mip(t, &w, w.c, level_of(t, q), &v);
    }
    store(t, &v, out);
}

void exec_tex_gather(const exec_texobj *t, const exec_tex_lookup *q, unsigned comp,
                     uint32_t out[4]) {
    tex_where w;
    where_of(t, q, &w);
    const exec_tex_level *lv = &t->level[0];
    double x = texel_coord(w.norm, w.c[0], lv->width) - 0.5;
    double y = texel_coord(w.norm, w.c[1], lv->height) - 0.5;
    int64_t x0 = (int64_t)floor(x), y0 = (int64_t)floor(y);
    static const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
    for (unsigned k = 0; k < 4; k++) {
        int64_t pos[3] = {x0 + dx[k], y0 + dy[k], 0};
        tex_val v;
        fetch(t, lv, w.modes, 2, pos, w.slice, &v);
        if (exec_tex_returns_int(t)) out[k] = v.u[comp & 3];
        else memcpy(&out[k], &v.f[comp & 3], 4);
    }
}

uint32_t exec_tex_query(const exec_texobj *t, unsigned what, int level) {
    const exec_tex_level *lv = &t->level[level >= 0 && (uint32_t)level < t->nlevels ? level : 0];
    switch (what) {
    case EXEC_TXQ_WIDTH: return lv->width;
    case EXEC_TXQ_HEIGHT: return t->dims >= 2 ? lv->height : 0;
    case EXEC_TXQ_DEPTH: return t->dims == 3 ? lv->depth : 0;
    case EXEC_TXQ_NORMALIZED_COORDS: return t->norm_coords;
    case EXEC_TXQ_FILTER_MODE: return t->linear;
    case EXEC_TXQ_ADDR_MODE_0: return t->addr[0];
    case EXEC_TXQ_ADDR_MODE_1: return t->addr[1];
    case EXEC_TXQ_ADDR_MODE_2: return t->addr[2];
    case EXEC_TXQ_ARRAY_SIZE: return t->layered ? t->layers : 0;
    case EXEC_TXQ_NUM_MIPMAP_LEVELS: return t->nlevels;
    case EXEC_TXQ_NUM_SAMPLES: return 0;
    default: return 0;
    }
}
