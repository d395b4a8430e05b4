/* tests/unit/test_jit_affine.c — the vector tier's affine registers against the
 * interpreter: the kernels of tests/unit/data/jit_affine.cu run in both tiers, over the
 * cases where the affine form stops holding (lanes that wrap at 2^32 before a widening,
 * inside and outside an if, in live and in exited lanes; negative steps; strides other
 * than the access size; block shapes whose warps are not one row of consecutive threads;
 * partial warps; div and rem by powers of two and other divisors, zero included; gathers,
 * scatters and stores of some lanes only; shuffles, atomics and unpacking moves, which it
 * runs through their handlers; registers of 32-bit lanes: wrapping, shifts, mixed widths,
 * f32 NaNs, a barrier, a handler and a bail-out with them live; steps known only when
 * the code runs: a tree of pairs 2 * stride * tid apart, zero, negative and wrapping
 * ones), and must leave the same memory.
 */
#include "jit_tier_compare.h"

#define OUT_INTS 8192u

static void run_all(harness *h, tier_outcome *o) {
    memset(o, 0, sizeof *o);
    int32_t *out = harness_alloc(h, OUT_INTS * 4), *out2 = harness_alloc(h, OUT_INTS * 4);
    int32_t *in = harness_alloc(h, OUT_INTS * 4);
    for (uint32_t i = 0; i < OUT_INTS; i++) in[i] = (int32_t)((i * 2654435761u) >> 9) - 3000000;

    /* ja_wrap: j = base + threadIdx.x; blocks of 48 (warp 1 has 16 live lanes) */
    static const struct { uint32_t base, limit, base2; } wraps[] = {
        {0xfffffff0u, 16, 0xffffffffu - 47}, /* wraps in lanes off the if's path; in warp 1's exited lanes */
        {0xffffffe0u, 32, 0xffffffffu - 47}, /* off the path in the if, in exited lanes after */
        {0, 48, 1000},                       /* far from wrapping */
        {0x7ffffff0u, 40, 0x7fffffffu - 47}, /* across the signed limit, in exited lanes */
    };
    for (size_t c = 0; c < sizeof wraps / sizeof wraps[0]; c++) {
        memset(out, 0, OUT_INTS * 4);
        memset(out2, 0, OUT_INTS * 4);
        uint32_t base = wraps[c].base, limit = wraps[c].limit, base2 = wraps[c].base2;
        void *a[] = {&out, &base, &limit, &out2, &base2};
        tier_launch(h, o, "ja_wrap", dim(2, 1, 1), dim(48, 1, 1), a, NULL);
        tier_keep(o, out, 256 * 4);
        tier_keep(o, out2, 256 * 4);
    }

    /* ja_steps: reversed, strided and 8-byte stores, a partial last block */
    memset(out, 0, OUT_INTS * 4);
    memset(out2, 0, OUT_INTS * 4);
    int64_t *wide = harness_alloc(h, 2048 * 8);
    int n = 1000;
    void *s[] = {&in, &out, &out2, &wide, &n};
    tier_launch(h, o, "ja_steps", dim(8, 1, 1), dim(128, 1, 1), s, NULL);
    tier_keep(o, out, 1024 * 4);
    tier_keep(o, out2, 2048 * 4);
    tier_keep(o, wide, 1024 * 8);

    /* ja_shape: 1-D, rows of 32 and 96 (the affine code), rows of 16 and 8 (the general
     * code), 3-D blocks */
    static const uint32_t shapes[][5] = {{64, 1, 1, 3, 1}, {32, 4, 1, 2, 2}, {96, 2, 2, 1, 2},
                                         {16, 16, 1, 2, 2}, {8, 4, 2, 3, 1}, {48, 1, 1, 2, 1},
                                         {32, 2, 3, 1, 1}};
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        memset(out, 0x55, OUT_INTS * 4);
        void *a[] = {&out};
        const uint32_t *sh = shapes[c];
        tier_launch(h, o, "ja_shape", dim(sh[3], sh[4], 1), dim(sh[0], sh[1], sh[2]), a, NULL);
        tier_keep(o, out, OUT_INTS * 4);
    }

    /* ja_divrem: unsigned by a power of two, by others and by zero; signed too */
    static const struct { uint32_t d; int32_t sd; } divs[] = {
        {8, 4}, {12, -3}, {1, 16}, {0, 0}, {1u << 31, -1}, {256, 7}};
    for (size_t c = 0; c < sizeof divs / sizeof divs[0]; c++) {
        memset(out, 0, OUT_INTS * 4);
        uint32_t d = divs[c].d;
        int32_t sd = divs[c].sd;
        void *a[] = {&in, &out, &d, &sd};
        tier_launch(h, o, "ja_divrem", dim(4, 1, 1), dim(256, 1, 1), a, NULL);
        tier_keep(o, out, 4096 * 4);
    }

    /* ja_cmp: comparisons of affine values with values the same for the warp, around
     * every lane's value, and across the unsigned wrap */
    static const struct { int32_t c; uint32_t uc; } cmps[] = {
        {-40, 20}, {-39, 0}, {0, 5}, {11, 0xffffffffu}, {53, 0x80000000u}, {100, 7},
        {-1000, 1u << 31}, {1000, 0xfffffff0u}, {62, 25}};
    for (size_t c = 0; c < sizeof cmps / sizeof cmps[0]; c++) {
        memset(out, 0, OUT_INTS * 4);
        int32_t cc = cmps[c].c;
        uint32_t uc = cmps[c].uc;
        void *a[] = {&out, &cc, &uc};
        tier_launch(h, o, "ja_cmp", dim(2, 1, 1), dim(64, 1, 1), a, NULL);
        tier_keep(o, out, 14 * 128 * 4);
    }

    /* ja_neighbored: tid % (2 * stride) in a tree of barriers */
    memcpy(out, in, OUT_INTS * 4);
    void *nb[] = {&out, &out2};
    tier_launch(h, o, "ja_neighbored", dim(4, 1, 1), dim(256, 1, 1), nb, NULL);
    tier_keep(o, out, 1024 * 4);
    tier_keep(o, out2, 4 * 4);

    /* ja_masked: a gather and a scatter of some lanes whose other lanes' addresses are
     * 1 GiB away, contiguous stores of some lanes (4 and 8 bytes); blocks of 96 */
    memset(out, 0x33, OUT_INTS * 4);
    memset(wide, 0x44, 2048 * 8);
    uint32_t far = 0x10000000u;
    void *mk[] = {&in, &out, &wide, &far};
    tier_launch(h, o, "ja_masked", dim(2, 1, 1), dim(96, 1, 1), mk, NULL);
    tier_keep(o, out, 4096 * 4);
    tier_keep(o, wide, 256 * 8);

    /* ja_hcall: shuffles (all lanes; lanes apart), atomics, a register unpacked */
    memset(out, 0, OUT_INTS * 4);
    memset(wide, 0, 2048 * 8);
    int32_t *counter = harness_alloc(h, 4);
    *counter = 0;
    void *hc[] = {&in, &out, &wide, &counter};
    tier_launch(h, o, "ja_hcall", dim(3, 1, 1), dim(128, 1, 1), hc, NULL);
    tier_keep(o, out, 2048 * 4);
    tier_keep(o, wide, 384 * 8);
    tier_keep(o, counter, 4);
    harness_dealloc(h, counter);

    /* ja_lanes32: registers of 32-bit lanes; partial warps (blocks of 48, n = 137) and
     * whole ones */
    float *fl = harness_alloc(h, 2048 * 4);
    static const struct { uint32_t grid, block; int n; uint32_t d; } l32[] = {
        {3, 48, 137, 7}, {2, 64, 128, 0x80000001u}};
    for (size_t c = 0; c < sizeof l32 / sizeof l32[0]; c++) {
        memset(out, 0x5a, OUT_INTS * 4);
        memset(wide, 0x66, 2048 * 8);
        memset(fl, 0x77, 2048 * 4);
        int ln = l32[c].n;
        uint32_t ld = l32[c].d;
        void *a[] = {&in, &out, &wide, &fl, &ln, &ld};
        tier_launch(h, o, "ja_lanes32", dim(l32[c].grid, 1, 1), dim(l32[c].block, 1, 1), a, NULL);
        tier_keep(o, out, 5120 * 4);
        tier_keep(o, wide, 256 * 8);
        tier_keep(o, fl, 256 * 4);
    }
    harness_dealloc(h, fl);

    /* ja_rstep: steps of the run (k * tid): 1, 0, negative, with products that wrap at
     * 2^31 (in warp 1) and at 2^32 before a widening; blocks of 64 */
    static const struct { int k; uint32_t ku; } rs[] = {
        {1, 5}, {0, 0}, {-2, 0x04000000u}, {3, 0x08000000u}, {-7, 0xfffffff9u}};
    for (size_t c = 0; c < sizeof rs / sizeof rs[0]; c++) {
        memcpy(out2, in, 192 * 4);
        memset(out, 0x11, OUT_INTS * 4);
        memset(wide, 0x22, 2048 * 8);
        int k = rs[c].k;
        uint32_t ku = rs[c].ku;
        void *a[] = {&out2, &out, &wide, &k, &ku};
        tier_launch(h, o, "ja_rstep", dim(3, 1, 1), dim(64, 1, 1), a, NULL);
        tier_keep(o, out2, 192 * 4);
        tier_keep(o, out, 3 * 8 * 64 * 4);
        tier_keep(o, wide, 192 * 8);
    }

    harness_dealloc(h, wide);
    harness_dealloc(h, in);
    harness_dealloc(h, out2);
    harness_dealloc(h, out);
}

/* every launch runs */
static void check_ref(const tier_outcome *ref) {
    for (unsigned k = 0; k < ref->nkinds; k++) CHECK_EQ_U64(ref->kinds[k], EXEC_OK);
}

int main(void) {
    return tier_compare_main("test_jit_affine", "jit_affine.ptx", run_all, check_ref);
}
