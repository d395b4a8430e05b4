/* tests/unit/test_exec_texture.c — the texture sampler (exec/tex_sample.c) on textures
 * built by hand: address modes, missing channels and border colours, normalized
 * coordinates cut to 21 fractional bits, the 8-bit filter weights and how corners share
 * them, 8-bit normalized texels filtered as 16-bit fractions, cube-map faces, layers,
 * gathers, mipmap level selection and txq. Expected values are what an H200 returned
 * (tests/cuda/texture/expected, h200/texture_probe.out), or follow from the rules there. */
#include "exec/tex_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static float as_float(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* A texture over texels of one channel of bytes bytes, w x h x slices. */
static exec_texobj make(void *texels, unsigned kind, unsigned bytes, unsigned nchan, uint32_t w,
                        uint32_t h, uint32_t slices) {
    exec_texobj t;
    memset(&t, 0, sizeof t);
    t.magic = EXEC_TEXOBJ_MAGIC;
    t.dims = h > 1 ? 2 : 1;
    t.nchan = (uint8_t)nchan;
    t.chan_bytes = (uint8_t)bytes;
    t.chan_kind = (uint8_t)kind;
    t.elem_size = (uint8_t)(nchan * bytes);
    t.nlevels = 1;
    t.level[0].base = texels;
    t.level[0].width = w;
    t.level[0].height = h;
    t.level[0].depth = 1;
    t.level[0].pitch = (uint64_t)w * t.elem_size;
    t.level[0].slice = t.level[0].pitch * h;
    (void)slices;
    for (unsigned k = 0; k < 3; k++) t.addr[k] = EXEC_TEX_CLAMP;
    return t;
}

static float sample1(const exec_texobj *t, float x, float y) {
    exec_tex_lookup q;
    memset(&q, 0, sizeof q);
    q.c[0] = x;
    q.c[1] = y;
    uint32_t out[4];
    exec_tex_sample(t, &q, out);
    return as_float(out[0]);
}

static void test_addressing(void) {
    float v[4] = {1, 2, 4, 8};
    exec_texobj t = make(v, EXEC_TEX_FLOAT, 4, 1, 4, 1, 1);
    t.norm_coords = true;
    /* u = -0.1 lands in texel -1 */
    t.addr[0] = EXEC_TEX_WRAP;
    CHECK(sample1(&t, -0.1f, 0) == 8);
    t.addr[0] = EXEC_TEX_MIRROR;
    CHECK(sample1(&t, -0.1f, 0) == 1);
    CHECK(sample1(&t, 1.3f, 0) == 4);   /* texel 5 mirrors to 2 */
    t.addr[0] = EXEC_TEX_CLAMP;
    CHECK(sample1(&t, 7.0f, 0) == 8);
    t.addr[0] = EXEC_TEX_BORDER;
    t.border[0] = 0.25f;
    CHECK(sample1(&t, 1.0f, 0) == 0.25f);
    /* unnormalized coordinates: wrap and mirror clamp */
    t.norm_coords = false;
    t.addr[0] = EXEC_TEX_WRAP;
    CHECK(sample1(&t, -3.5f, 0) == 1);
    CHECK(sample1(&t, 9.5f, 0) == 8);
    /* 0.2f * 5 is 1.0000000298 but the coordinate is cut to 21 bits first: texel 0 */
    float five[5] = {10, 11, 12, 13, 14};
    exec_texobj f = make(five, EXEC_TEX_FLOAT, 4, 1, 5, 1, 1);
    f.norm_coords = true;
    CHECK(sample1(&f, 0.2f, 0) == 10);
}

static void test_channels(void) {
    /* a two-channel float texture read as four: (x, y, 0, 0); its border keeps two */
    float v[2][2] = {{0.25f, -1}, {3, 4}};
    exec_texobj t = make(v, EXEC_TEX_FLOAT, 4, 2, 2, 1, 1);
    t.addr[0] = t.addr[1] = EXEC_TEX_BORDER;
    for (unsigned k = 0; k < 4; k++) t.border[k] = 0.5f + k;
    exec_tex_lookup q;
    memset(&q, 0, sizeof q);
    q.c[0] = 0.5f;
    q.c[1] = 0.5f;
    uint32_t out[4];
    exec_tex_sample(&t, &q, out);
    CHECK(as_float(out[0]) == 0.25f && as_float(out[1]) == -1 && out[2] == 0 && out[3] == 0);
    q.c[0] = 7;
    exec_tex_sample(&t, &q, out);
    CHECK(as_float(out[0]) == 0.5f && as_float(out[1]) == 1.5f && out[2] == 0 && out[3] == 0);
    /* signed 8-bit read as normalized floats: -128 is -1, 127 is 1 */
    int8_t s[2] = {-128, 127};
    exec_texobj c = make(s, EXEC_TEX_SIGNED, 1, 1, 2, 1, 1);
    c.read_normalized = true;
    CHECK(sample1(&c, 0.5f, 0) == -1.0f && sample1(&c, 1.5f, 0) == 1.0f);
    /* element reads of integers: sign-extended */
    exec_texobj e = make(s, EXEC_TEX_SIGNED, 1, 1, 2, 1, 1);
    memset(&q, 0, sizeof q);
    q.c[0] = 0.5f;
    exec_tex_sample(&e, &q, out);
    CHECK(out[0] == (uint32_t)-128);
}

static void test_linear(void) {
    float v[2] = {0, 1};
    exec_texobj t = make(v, EXEC_TEX_FLOAT, 4, 1, 2, 1, 1);
    t.linear = true;
    /* weights have 8 fractional bits, rounded half up (texture_linear's "weights") */
    CHECK(sample1(&t, 0.5f + 1.0f / 1024, 0) == 0.0f);
    CHECK(sample1(&t, 0.5f + 2.0f / 1024, 0) == 1.0f / 256);
    CHECK(sample1(&t, 0.5f + 3.0f / 1024, 0) == 1.0f / 256);
    CHECK(sample1(&t, 0.5f + 6.0f / 1024, 0) == 2.0f / 256);
    /* 1D border: filtered as one row of a 2D texture read at y = 0, half border */
    float one[3] = {1, 3, -2.5f};
    exec_texobj b = make(one, EXEC_TEX_FLOAT, 4, 1, 3, 1, 1);
    b.linear = true;
    b.addr[0] = b.addr[1] = EXEC_TEX_BORDER;
    b.border[0] = 0.125f;
    CHECK(sample1(&b, 0.5f, 0) == 0.5625f);
    CHECK(sample1(&b, 1.5f, 0) == 1.5625f);
    /* x = 0.2 (fraction 0.7 of the way from texel -1): 179 of 256 splits as 90 + 89 over
     * the rows, so the texel row gets an effective 180 (an H200 returns 0.4326171875) */
    CHECK(sample1(&b, 0.20000001788139343f, 0) == 0.4326171875f);
    /* float texels blend as 27-bit fixed point under the larger one's leading bit, the
     * sum rounded with ties away from zero: halfway between 1 and its successor is the
     * successor (texture_probe's "pair 3f800000 3f800001", weight 128) */
    float pair[2] = {1.0f, nextafterf(1.0f, 2.0f)};
    exec_texobj p = make(pair, EXEC_TEX_FLOAT, 4, 1, 2, 1, 1);
    p.linear = true;
    CHECK(sample1(&p, 0.5f + 127.0f / 256 + 1.0f / 512, 0) == pair[1]);
    /* (0.1, 7.77) with weight 1 for 7.77: the 0.1 loses its low bits (H200: 0x3e05147a, exact rounding 0x3e05147b) */
    float pair2[2] = {0.1f, 7.77f};
    exec_texobj p2 = make(pair2, EXEC_TEX_FLOAT, 4, 1, 2, 1, 1);
    p2.linear = true;
    float r2 = sample1(&p2, 0.5f + 0.0f / 256 + 1.0f / 512, 0);
    uint32_t b2;
    memcpy(&b2, &r2, 4);
    CHECK(b2 == 0x3e05147au);
    /* 8-bit normalized: 17/256 of 51 is 870/65535 (0x3c5980da on the H200) */
    uint8_t u8[2] = {0, 51};
    exec_texobj n = make(u8, EXEC_TEX_UNSIGNED, 1, 1, 2, 1, 1);
    n.linear = true;
    n.read_normalized = true;
    float r = sample1(&n, 0.5662f, 0);
    uint32_t bits;
    memcpy(&bits, &r, 4);
    CHECK(bits == 0x3c5980dau);
}

static void test_cube_layers_gather(void) {
    /* 6 faces of 2x2, texel value face * 10 + y * 2 + x */
    float faces[6][2][2];
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++) faces[f][y][x] = (float)(f * 10 + y * 2 + x);
    exec_texobj c = make(faces, EXEC_TEX_FLOAT, 4, 1, 2, 2, 6);
    c.cubemap = true;
    c.dims = 2;
    exec_tex_lookup q;
    memset(&q, 0, sizeof q);
    q.cube = true;
    q.c[0] = 1;
    q.c[1] = 1;
    q.c[2] = 0.99f; /* x and y tie: the +y face (2) */
    uint32_t out[4];
    exec_tex_sample(&c, &q, out);
    CHECK(as_float(out[0]) >= 20 && as_float(out[0]) < 30);
    q.c[0] = 0;
    q.c[1] = 0;
    q.c[2] = -1; /* -z: face 5, centre */
    exec_tex_sample(&c, &q, out);
    CHECK(as_float(out[0]) >= 50 && as_float(out[0]) < 60);

    /* layered: layer -1 is a large unsigned index, clamped to the last layer */
    float layers[3][2] = {{0, 1}, {10, 11}, {20, 21}};
    exec_texobj l = make(layers, EXEC_TEX_FLOAT, 4, 1, 2, 1, 3);
    l.layered = true;
    l.layers = 3;
    memset(&q, 0, sizeof q);
    q.c[0] = 1.5f;
    q.layer = -1;
    exec_tex_sample(&l, &q, out);
    CHECK(as_float(out[0]) == 21);

    /* gather: component 0 of (x0, y1), (x1, y1), (x1, y0), (x0, y0) */
    float g[2][2] = {{0, 1}, {10, 11}};
    exec_texobj t = make(g, EXEC_TEX_FLOAT, 4, 1, 2, 2, 1);
    memset(&q, 0, sizeof q);
    q.c[0] = 1;
    q.c[1] = 1;
    exec_tex_gather(&t, &q, 0, out);
    CHECK(as_float(out[0]) == 10 && as_float(out[1]) == 11 && as_float(out[2]) == 1 &&
          as_float(out[3]) == 0);
}

static void test_mipmaps(void) {
    /* levels 4x1, 2x1, 1x1 holding their own index */
    float l0[4] = {0, 0, 0, 0}, l1[2] = {1, 1}, l2[1] = {2};
    exec_texobj t = make(l0, EXEC_TEX_FLOAT, 4, 1, 4, 1, 1);
    t.nlevels = 3;
    t.level[1] = t.level[0];
    t.level[1].base = (uint8_t *)l1;
    t.level[1].width = 2;
    t.level[2] = t.level[0];
    t.level[2].base = (uint8_t *)l2;
    t.level[2].width = 1;
    t.max_lod = 2;
    t.norm_coords = true;
    exec_tex_lookup q;
    memset(&q, 0, sizeof q);
    q.c[0] = 0.5f;
    q.lod_kind = EXEC_TEX_LOD_LEVEL;
    uint32_t out[4];
    q.lod = 1.4f; /* nearest level */
    exec_tex_sample(&t, &q, out);
    CHECK(as_float(out[0]) == 1);
    q.lod = 7; /* clamped */
    exec_tex_sample(&t, &q, out);
    CHECK(as_float(out[0]) == 2);
    /* between levels: the fraction cut to 8 bits (0.98 -> 250/256) */
    t.mip_linear = true;
    q.lod = 0.98f;
    exec_tex_sample(&t, &q, out);
    CHECK(as_float(out[0]) == 250.0f / 256);
    CHECK(exec_tex_query(&t, EXEC_TXQ_NUM_MIPMAP_LEVELS, -1) == 3);
    CHECK(exec_tex_query(&t, EXEC_TXQ_WIDTH, 1) == 2);
    CHECK(exec_tex_query(&t, EXEC_TXQ_NORMALIZED_COORDS, -1) == 1);
}

/* The rules found in texture_probe2 and texture_corners (tests/cuda/texture/README.md):
 * the corners' tie rule, signed 8-bit blends, half ties, the level of detail from
 * gradients. */
static void test_h200_rules(void) {
    /* 2x2 float texture with 1 at one corner: the result is that corner's weight. wx = 18,
     * wy = 192 puts every product on a half: the H200's weights are 60, 4, 178, 14
     * (texture_linear's "2D float4 clamp" line 46) */
    float corner[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    const float want[4] = {60, 4, 178, 14};
    for (unsigned c = 0; c < 4; c++) {
        exec_texobj t = make(corner[c], EXEC_TEX_FLOAT, 4, 1, 2, 2, 1);
        t.linear = true;
        CHECK(sample1(&t, 0.5f + 18.0f / 256, 0.5f + 192.0f / 256) == want[c] / 256);
    }
    /* signed 8-bit: -3 with weight 17 next to 0 is -52/32767, 3 is 51/32767; -127 with
     * weight 128 is -16383/32767 (texture_probe2's "s8 rows 0,1") */
    int8_t s8[2] = {-3, 0};
    exec_texobj n = make(s8, EXEC_TEX_SIGNED, 1, 1, 2, 1, 1);
    n.linear = true;
    n.read_normalized = true;
    CHECK(sample1(&n, 0.5f + 239.0f / 256, 0) == (float)(-52 / 32767.0));
    s8[0] = 3;
    CHECK(sample1(&n, 0.5f + 239.0f / 256, 0) == (float)(51 / 32767.0));
    s8[0] = -127;
    CHECK(sample1(&n, 0.5f + 128.0f / 256, 0) == (float)(-16383 / 32767.0));
    /* halves blended onto a tie round away from zero (texture_probe's "half linear") */
    uint16_t h[2] = {0x3c03u, 0x0000u}; /* 1 + 3/1024, 0 */
    exec_texobj hf = make(h, EXEC_TEX_FLOAT, 2, 1, 2, 1, 1);
    hf.linear = true;
    /* 3/256 of it is 1540.5 half ulps (2^-17): 1541, where ties to even would give 1540 */
    CHECK(sample1(&hf, 0.5f + 253.0f / 256, 0) == 1541.0f / 131072);
    h[0] = 0xbc03u;
    CHECK(sample1(&hf, 0.5f + 253.0f / 256, 0) == -1541.0f / 131072);
    /* level of detail from a gradient 1 + 2/256 texels long: the table's 4/256 (an H200:
     * lod 0.015625 for mantissas 1.0078125 .. 1.01171875) */
    float l0[4] = {0, 0, 0, 0}, l1[2] = {1, 1};
    exec_texobj m = make(l0, EXEC_TEX_FLOAT, 4, 1, 4, 1, 1);
    m.nlevels = 2;
    m.level[1] = m.level[0];
    m.level[1].base = (uint8_t *)l1;
    m.level[1].width = 2;
    m.max_lod = 1;
    m.norm_coords = true;
    m.mip_linear = true;
    exec_tex_lookup q;
    memset(&q, 0, sizeof q);
    q.c[0] = 0.5f;
    q.lod_kind = EXEC_TEX_LOD_GRAD;
    q.grad[0][0] = (1.0f + 2.0f / 256) / 4; /* in normalized units of a 4-texel level 0 */
    uint32_t out[4];
    exec_tex_sample(&m, &q, out);
    CHECK(as_float(out[0]) == 4.0f / 256);
    /* dx and dy equal and parallel widen the footprint by 11/8: lod log2(1.375) */
    q.grad[0][0] = 0.25f;
    q.grad[1][0] = 0.25f;
    exec_tex_sample(&m, &q, out);
    CHECK(as_float(out[0]) == 118.0f / 256);
}

/* The fast path for plain 2D lookups of float textures (exec_tex_sample_2d) against the
 * general one, bit for bit: 1, 2 and 4 channels, every address mode on each axis, both
 * filters, normalized and texel coordinates, odd sides and rows of one texel, texels and
 * coordinates that include zeros of both signs, subnormals, infinities, NaN and numbers
 * too large for the fixed-point shortcut. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static float odd_float(float scale) {
    static const uint32_t special[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu,
                                       0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7e967699u,
                                       0x3f000000u, 0xbf800000u};
    uint32_t r = rnd32();
    if (r % 16 == 0) return as_float(special[(r >> 4) % 10]);
    if (r % 16 == 1) return (float)((int)(rnd32() % 64) - 24) / 8.0f; /* texel edges */
    return ((float)(rnd32() % 2000001) / 1000000.0f - 1.0f) * scale;
}

static void test_fast_2d(void) {
    static const uint32_t sides[][2] = {{5, 3}, {1, 4}, {7, 1}, {2048, 2}};
    static float texels[2048 * 4 * 4];
    unsigned mismatches = 0, lookups = 0;
    for (unsigned i = 0; i < sizeof texels / sizeof texels[0]; i++) texels[i] = odd_float(4.0f);
    for (unsigned sd = 0; sd < 4; sd++)
        for (unsigned nchan = 1; nchan <= 4; nchan *= 2)
            for (unsigned cfg = 0; cfg < 64; cfg++) {
                exec_texobj t = make(texels, EXEC_TEX_FLOAT, 4, nchan, sides[sd][0],
                                     sides[sd][1], 1);
                t.dims = 2;
                t.addr[0] = (uint8_t)(cfg & 3u);
                t.addr[1] = (uint8_t)((cfg >> 2) & 3u);
                t.linear = (cfg >> 4) & 1u;
                t.norm_coords = (cfg >> 5) & 1u;
                for (unsigned k = 0; k < 4; k++) t.border[k] = odd_float(2.0f);
                CHECK(exec_tex_fast_2d(&t));
                float scale = t.norm_coords ? 3.0f : 3.0f * (float)sides[sd][0];
                for (unsigned n = 0; n < 2000; n++) {
                    exec_tex_lookup q;
                    memset(&q, 0, sizeof q);
                    q.c[0] = odd_float(scale);
                    q.c[1] = odd_float(scale);
                    uint32_t a[4], b[4];
                    exec_tex_sample(&t, &q, a);
                    exec_tex_sample_2d(&t, q.c[0], q.c[1], b);
                    lookups++;
                    if (memcmp(a, b, sizeof a) != 0 && mismatches++ < 5)
                        fprintf(stderr, "fast 2D lookup differs: side %u, %u channels, cfg %u, "
                                        "(%a, %a): %08x against %08x\n",
                                sides[sd][0], nchan, cfg, q.c[0], q.c[1], b[0], a[0]);
                }
            }
    CHECK(mismatches == 0);
    CHECK(lookups == 4 * 3 * 64 * 2000);
    /* what the fast path does not take */
    exec_texobj h = make(texels, EXEC_TEX_FLOAT, 2, 1, 4, 4, 1);
    CHECK(!exec_tex_fast_2d(&h));
    exec_texobj m = make(texels, EXEC_TEX_FLOAT, 4, 1, 4, 4, 1);
    m.nlevels = 2;
    CHECK(!exec_tex_fast_2d(&m));
    m.nlevels = 1;
    m.layered = true;
    CHECK(!exec_tex_fast_2d(&m));
}

int main(void) {
    test_addressing();
    test_channels();
    test_linear();
    test_cube_layers_gather();
    test_mipmaps();
    test_h200_rules();
    test_fast_2d();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
