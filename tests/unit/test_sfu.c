/* tests/unit/test_sfu.c — the special function unit (exec/alu_sfu.c) against an H200.
 *
 * The H200's results are too many to keep here, so the test keeps their FNV-1a hashes
 * (bench/sfu_check --sums computed them from the GPU's tables; tests/sfu/README.md says
 * how the tables were made) and compares them with the hashes of vcuda's results:
 * - every 13th input of the exhaustive ranges probe_tables.cu covers (rcp, ex2, lg2, sin,
 *   cos on [1, 2), rsqrt and sqrt on [1, 4), ex2 on (-2, -1], tanh on [0.25, 0.5)), sin
 *   on [0.25, 1), and tanh on every 64th input of [2^-12, 32), through alu_sfu's functions;
 * - the 131072 operands of probe3.cu's sample (every exponent, both signs, 256 fractions
 *   each) through the 15 f32 .approx instructions, and 131072 pairs through div.approx,
 *   div.approx.ftz, div.full, div.full.ftz, each run by its ALU handler;
 * - every f16 and bf16 operand of ex2.approx.f16, tanh.approx.f16, ex2.approx.ftz.bf16
 *   and tanh.approx.bf16, and the f16x2/bf16x2 forms (each half as the scalar form).
 * A mismatch names the set; bench/sfu_check, given the tables, names the inputs. */
#include "test_alu_harness.h"
#include "exec/alu_sfu.h"
#include "../sfu/probe_functions.h"

static uint64_t fnv(uint64_t h, uint32_t v) {
    for (int i = 0; i < 4; i++) { h ^= (v >> (8 * i)) & 0xffu; h *= 0x100000001b3ull; }
    return h;
}
#define FNV0 0xcbf29ce484222325ull
#define HASH_CHECK(what, got, want)                                                     \
    do {                                                                                \
        if ((got) != (want)) {                                                          \
            fprintf(stderr, "%s: hash 0x%016llx, the H200's 0x%016llx\n", what,         \
                    (unsigned long long)(got), (unsigned long long)(want));             \
            alu_failures++;                                                             \
        }                                                                               \
    } while (0)

/* ---- exhaustive ranges, every 13th input ---- */
static const struct { int fn; uint32_t first, n; uint64_t h200; } ranges[] = {
    {0, 0x3f800000u, 8388608u, 0xe5c9ef24ffb3785dull},
    {1, 0x3f800000u, 16777216u, 0x41c6ea328b93b204ull},
    {2, 0x3f800000u, 8388608u, 0x2d100333a000ee91ull},
    {2, 0xbf800000u, 8388608u, 0xb45bfecb9bd70be4ull},
    {3, 0x3f800000u, 8388608u, 0x4b72dbdbfd3c046bull},
    {4, 0x3f800000u, 8388608u, 0x6948aa981c9353d3ull},
    {5, 0x3f800000u, 8388608u, 0x13d5f00efd1aebe8ull},
    {6, 0x3f800000u, 16777216u, 0x6ef94922db10c491ull},
    {7, 0x3e800000u, 8388608u, 0x20ee135ca640a232ull},
    {4, 0x3e800000u, 16777216u, 0x0d4998750c8987b0ull},   /* probe3: sin on [0.25, 1) */
};
static const char *const range_names[] = {"rcp", "rsqrt", "ex2", "lg2", "sin", "cos", "sqrt", "tanh"};

static void test_ranges(void) {
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        uint64_t h = FNV0;
        for (uint32_t i = 0; i < ranges[r].n; i += 13) h = fnv(h, sfu_probe_model(ranges[r].fn, ranges[r].first + i));
        char what[64];
        snprintf(what, sizeof what, "%s from %08x", range_names[ranges[r].fn], ranges[r].first);
        HASH_CHECK(what, h, ranges[r].h200);
    }
    uint64_t h = FNV0;
    for (uint32_t i = 0; i < 17u << 17; i++) h = fnv(h, alu_sfu_tanh((0x73u << 23) + i * 64u));
    HASH_CHECK("tanh every 64th input of [2^-12, 32)", h, 0x875602ff7ffc0671ull);
}

/* ---- probe3's sample and div pairs, through the handlers ---- */
#define NS 131072u
static uint32_t sample[NS];
static void make_sample(void) {
    /* as probe3.cu makes them: fixed fractions first, then its xorshift's */
    static const uint32_t fixed[9] = {0, 1, 2, 3, 0x7fffff, 0x7ffffe, 0x400000, 0x400001, 0x3fffff};
    uint64_t rs = 0x1234567887654321ull;
    for (uint32_t i = 0; i < NS; i++) {
        uint32_t e = (i >> 8) & 255, s = i >> 16, k = i & 255, m;
        if (k < 9) m = fixed[k];
        else {
            rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
            m = (uint32_t)(rs >> 11) & 0x7fffff;
        }
        sample[i] = s << 31 | e << 23 | m;
    }
}

/* The hash of in's results on n operand pairs (a[i], b ? b[i] : 0) of bits bits. */
static uint64_t run_hash(exec_insn in, const uint32_t *a, const uint32_t *b, uint32_t n, int bits) {
    static test_warp t;
    if (!TI_FN(in)) return 0;
    uint64_t h = FNV0;
    for (uint32_t i0 = 0; i0 < n; i0 += EXEC_WARP_SIZE) {
        tw_init(&t);
        for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++) {
            tw_set(&t, 1, l, a[i0 + l]);
            tw_set(&t, 2, l, b ? b[i0 + l] : 0);
        }
        in.fn(&t.w, &in, EXEC_FULL_MASK);
        for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++) {
            uint64_t r = tw_get(&t, 0, l);
            if (bits == 16) h = fnv(h, (uint32_t)r & 0xffffu);
            else h = fnv(h, (uint32_t)r);
        }
    }
    return h;
}

static void test_sample(void) {
    static const struct { unsigned op; bool ftz; uint64_t h200; const char *name; } v[15] = {
        {PTX_OP_rcp, 1, 0x86cb43004dcdce28ull, "rcp.approx.ftz"},
        {PTX_OP_rcp, 0, 0xdb765e6ef72e7b3aull, "rcp.approx"},
        {PTX_OP_rsqrt, 1, 0x13792e76e9f40fabull, "rsqrt.approx.ftz"},
        {PTX_OP_rsqrt, 0, 0x7d363cde5ef7ef78ull, "rsqrt.approx"},
        {PTX_OP_sqrt, 1, 0x89def15253a462dbull, "sqrt.approx.ftz"},
        {PTX_OP_sqrt, 0, 0xe5060813afc1077aull, "sqrt.approx"},
        {PTX_OP_ex2, 1, 0x1986d8f5bc40b215ull, "ex2.approx.ftz"},
        {PTX_OP_ex2, 0, 0x217ed61d6b86e58full, "ex2.approx"},
        {PTX_OP_lg2, 1, 0x5c7699da9efc7000ull, "lg2.approx.ftz"},
        {PTX_OP_lg2, 0, 0xb93a3bcdb9138857ull, "lg2.approx"},
        {PTX_OP_sin, 1, 0x2bce8dcb64b34a49ull, "sin.approx.ftz"},
        {PTX_OP_sin, 0, 0x2bce8dcb64b34a49ull, "sin.approx"},
        {PTX_OP_cos, 1, 0x59cf15862e43fc3aull, "cos.approx.ftz"},
        {PTX_OP_cos, 0, 0x59cf15862e43fc3aull, "cos.approx"},
        {PTX_OP_tanh, 0, 0x18126299b84aa872ull, "tanh.approx"},
    };
    for (int k = 0; k < 15; k++) {
        exec_insn in = ti(v[k].op, PTX_T_f32, 0, EXEC_F_APPROX | (v[k].ftz ? EXEC_F_FTZ : 0), 0);
        HASH_CHECK(v[k].name, run_hash(in, sample, NULL, NS, 32), v[k].h200);
    }
    static uint32_t b[NS];
    for (uint32_t i = 0; i < NS; i++) b[i] = sample[(i * 40503u + 7919u) % NS];
    static const struct { bool full, ftz; uint64_t h200; const char *name; } d[4] = {
        {0, 0, 0x8838047789e5f5deull, "div.approx"}, {0, 1, 0x4ff94b010c9febe8ull, "div.approx.ftz"},
        {1, 0, 0xc57f4ca3114a435dull, "div.full"}, {1, 1, 0x55b80fb80c2e55d5ull, "div.full.ftz"},
    };
    for (int k = 0; k < 4; k++) {
        exec_insn in = d[k].full ? ti(PTX_OP_div, PTX_T_f32, 0, d[k].ftz ? EXEC_F_FTZ : 0, ALU_AUX(0, ALU_V_FULL, 0))
                                 : ti(PTX_OP_div, PTX_T_f32, 0, EXEC_F_APPROX | (d[k].ftz ? EXEC_F_FTZ : 0), 0);
        HASH_CHECK(d[k].name, run_hash(in, sample, b, NS, 32), d[k].h200);
    }
}

/* ---- 16-bit forms, every operand ---- */
static void test_half(void) {
    static uint32_t x[65536], x2[65536];
    for (uint32_t i = 0; i < 65536; i++) x[i] = i;
    static const struct { unsigned op; ptx_type t, t2; bool ftz; uint64_t h200; const char *name; } v[4] = {
        {PTX_OP_ex2, PTX_T_f16, PTX_T_f16x2, 0, 0x1631f36756ec9663ull, "ex2.approx.f16"},
        {PTX_OP_tanh, PTX_T_f16, PTX_T_f16x2, 0, 0x68369ae20f7b5105ull, "tanh.approx.f16"},
        {PTX_OP_ex2, PTX_T_bf16, PTX_T_bf16x2, 1, 0x9b4e0ba7f28e38d0ull, "ex2.approx.ftz.bf16"},
        {PTX_OP_tanh, PTX_T_bf16, PTX_T_bf16x2, 0, 0x740efb1ddaeff19dull, "tanh.approx.bf16"},
    };
    for (int k = 0; k < 4; k++) {
        const uint32_t fl = EXEC_F_APPROX | (v[k].ftz ? EXEC_F_FTZ : 0);
        exec_insn in = ti(v[k].op, v[k].t, 0, fl, 0);
        HASH_CHECK(v[k].name, run_hash(in, x, NULL, 65536, 16), v[k].h200);
        /* x2: each half as the scalar form (the halves differ: high = low ^ 0x8001) */
        for (uint32_t i = 0; i < 65536; i++) x2[i] = i | (i ^ 0x8001u) << 16;
        exec_insn s = ti(v[k].op, v[k].t, 0, fl, 0), p = ti(v[k].op, v[k].t2, 0, fl, 0);
        if (!TI_FN(s) || !TI_FN(p)) continue;
        static test_warp t, u;
        for (uint32_t i0 = 0; i0 < 65536; i0 += EXEC_WARP_SIZE) {
            tw_init(&t);
            tw_init(&u);
            for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++) {
                tw_set(&t, 1, l, x2[i0 + l]);
                tw_set(&u, 1, l, x2[i0 + l] & 0xffffu);
                tw_set(&u, 2, l, x2[i0 + l] >> 16);
            }
            p.fn(&t.w, &p, EXEC_FULL_MASK);
            s.fn(&u.w, &s, EXEC_FULL_MASK);
            exec_insn s2 = s;
            s2.a[0] = 2;
            s2.d[0] = 3;
            s2.fn(&u.w, &s2, EXEC_FULL_MASK);
            for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++)
                if (tw_get(&t, 0, l) != ((tw_get(&u, 0, l) & 0xffffu) | (tw_get(&u, 3, l) & 0xffffu) << 16)) {
                    fprintf(stderr, "%s x2 of %08x: 0x%08" PRIx64 "\n", v[k].name, x2[i0 + l], tw_get(&t, 0, l));
                    alu_failures++;
                    i0 = 65536;
                    break;
                }
        }
    }
}

/* ---- a few values by hand (what the H200 printed for the conformance programs) ---- */
static void test_values(void) {
    CHECK_EQ(alu_sfu_ptx_div(fb(-1.25f), fb(0.75f), false, false), fb(-1.66666675f));
    CHECK_EQ(alu_sfu_lg2(fb(1.0f)), 0);
    CHECK_EQ(alu_sfu_lg2(fb(0.5f)), 0xbf7ffffeu);     /* -1 + 2^-23 */
    CHECK_EQ(alu_sfu_tanh(fb(0.5f)), fb(0.462114811f));
    CHECK_EQ(alu_sfu_tanh(0x00000001u), 0x00000001u); /* a denormal passes through */
    CHECK_EQ(alu_sfu_ptx_sin(fb(-0.001f), false), fb(-0.000999970012f));
}

int main(void) {
    make_sample();
    test_values();
    test_ranges();
    test_sample();
    test_half();
    return alu_report("test_sfu");
}
