/* tests/unit/test_alu_half.c — f16/f16x2/bf16/bf16x2 handlers and the exact rounding
 * routine behind every narrowing conversion: round-to-nearest-even ties, fma's single
 * rounding, .ftz, .sat, .relu, NaN, min/max, the packed forms' halves; alu_round_to_fmt
 * checked against alu_f2h_rn / alu_f2bf_rn over every f32 exponent. */
#include "test_alu_harness.h"

#define H(op, t, flags) ti(PTX_OP_##op, PTX_T_##t, 0, (flags), ALU_AUX(EXEC_RND_RN, 0, 0))
#define HN(op, t, flags) ti(PTX_OP_##op, PTX_T_##t, 0, (flags), 0)

static void test_f16_arith(void) {
    exec_insn in = H(add, f16, 0);
    CHECK_EQ(RUN(in, 0x3c00, 0x3c00, 0), 0x4000);                  /* 1 + 1 */
    CHECK_EQ(RUN(in, 0x3c00, 0x1000, 0), 0x3c00);                  /* 1 + 2^-11: tie, even */
    CHECK_EQ(RUN(in, 0x3c01, 0x1000, 0), 0x3c02);                  /* tie, up to even */
    CHECK_EQ(RUN(in, 0x7bff, 0x7bff, 0), 0x7c00);                  /* overflow */
    CHECK_EQ(RUN(in, 0x0001, 0x0001, 0), 0x0002);                  /* subnormals */
    CHECK_EQ(RUN(in, 0x7c00, 0xfc00, 0), 0x7fff);                  /* inf - inf */
    CHECK_EQ(RUN(in, 0x7e01, 0x3c00, 0), 0x7fff);
    in = H(add, f16, EXEC_F_FTZ);
    CHECK_EQ(RUN(in, 0x0001, 0x0001, 0), 0x0000);
    in = H(add, f16, EXEC_F_SAT);
    CHECK_EQ(RUN(in, 0x3c00, 0x3c00, 0), 0x3c00);
    CHECK_EQ(RUN(in, 0xbc00, 0x3800, 0), 0x0000);
    in = H(sub, f16, 0);
    CHECK_EQ(RUN(in, 0x3c00, 0x3c00, 0), 0x0000);
    in = H(mul, f16, 0);
    CHECK_EQ(RUN(in, 0x4200, 0x4200, 0), 0x4880);                  /* 3 * 3 = 9 */
    CHECK_EQ(RUN(in, 0x0400, 0x3800, 0), 0x0200);                  /* to a subnormal */
    /* fma rounds once: (1+2^-10)^2 - (1+2^-9) = 2^-20, lost by mul then add */
    in = H(fma, f16, 0);
    CHECK_EQ(RUN(in, 0x3c01, 0x3c01, 0xbc02), 0x0010);
    exec_insn mul = H(mul, f16, 0), add = H(add, f16, 0);
    CHECK_EQ(RUN(add, RUN(mul, 0x3c01, 0x3c01, 0), 0xbc02, 0), 0x0000);
    in = H(fma, f16, ALU_F_RELU);
    CHECK_EQ(RUN(in, 0x3c00, 0xbc00, 0x0000), 0x0000);             /* -1 -> 0 */
    CHECK_EQ(RUN(in, 0x3c00, 0x4000, 0x0000), 0x4000);
    in = H(fma, f16, EXEC_F_SAT);
    CHECK_EQ(RUN(in, 0x4000, 0x4000, 0x0000), 0x3c00);
    /* packed: each half on its own */
    in = H(add, f16x2, 0);
    CHECK_EQ(RUN(in, 0x3c004000, 0x3c00bc00, 0), 0x40003c00);
    in = H(fma, f16x2, 0);
    CHECK_EQ(RUN(in, 0x40003c00, 0x40003c00, 0x3c00bc00), 0x4500 << 16);
}

static void test_bf16_arith(void) {
    exec_insn in = H(add, bf16, 0);
    CHECK_EQ(RUN(in, 0x3f80, 0x3f80, 0), 0x4000);
    CHECK_EQ(RUN(in, 0x3f80, 0x3b80, 0), 0x3f80);                  /* 1 + 2^-8: tie, even */
    CHECK_EQ(RUN(in, 0x3f80, 0x3b81, 0), 0x3f81);                  /* just above the tie */
    CHECK_EQ(RUN(in, 0x3f80, 0x0001, 0), 0x3f80);                  /* far below: rounded off */
    CHECK_EQ(RUN(in, 0x7f7f, 0x7f7f, 0), 0x7f80);
    in = H(mul, bf16, 0);
    CHECK_EQ(RUN(in, 0x4040, 0x4040, 0), 0x4110);                  /* 3 * 3 */
    in = H(fma, bf16, 0);
    CHECK_EQ(RUN(in, 0x3f81, 0x3b80, 0x3f80), 0x3f81);             /* 1 + 2^-8 + 2^-15 */
    in = H(fma, bf16x2, ALU_F_RELU);
    CHECK_EQ(RUN(in, 0xbf803f80, 0x3f803f80, 0x80000000), 0x00003f80);
    /* bf16 has no .ftz or .sat */
    in = H(add, bf16, EXEC_F_SAT);
    CHECK(exec_alu_lookup(&in) == NULL);
}

static void test_sign_minmax(void) {
    exec_insn in = HN(neg, f16, 0);
    CHECK_EQ(RUN(in, 0x3c00, 0, 0), 0xbc00);
    CHECK_EQ(RUN(in, 0x7e01, 0, 0), 0x7fff);
    in = HN(abs, bf16x2, 0);
    CHECK_EQ(RUN(in, 0xbf80c000, 0, 0), 0x3f804000);
    in = HN(neg, f16, EXEC_F_FTZ);
    CHECK_EQ(RUN(in, 0x0001, 0, 0), 0x8000);
    in = HN(min, f16, 0);
    CHECK_EQ(RUN(in, 0x7e00, 0x3c00, 0), 0x3c00);
    CHECK_EQ(RUN(in, 0x0000, 0x8000, 0), 0x8000);
    in = HN(min, f16, ALU_F_NANMODE);
    CHECK_EQ(RUN(in, 0x7e00, 0x3c00, 0), 0x7fff);
    in = HN(max, bf16x2, 0);
    CHECK_EQ(RUN(in, 0x3f80c000, 0x40003f80, 0), 0x40003f80);
}

static void test_approx(void) {
    exec_insn in = ti(PTX_OP_ex2, PTX_T_f16, 0, EXEC_F_APPROX, 0);
    CHECK_EQ(RUN(in, 0x4200, 0, 0), 0x4800);                       /* 2^3 = 8 */
    CHECK_EQ(RUN(in, 0xfc00, 0, 0), 0x0000);
    in = ti(PTX_OP_ex2, PTX_T_bf16x2, 0, EXEC_F_APPROX | EXEC_F_FTZ, 0);
    CHECK_EQ(RUN(in, 0x3f804000, 0, 0), 0x40004080);               /* 2^1, 2^2 */
    in = ti(PTX_OP_tanh, PTX_T_f16, 0, EXEC_F_APPROX, 0);
    CHECK_EQ(RUN(in, 0x7c00, 0, 0), 0x3c00);
}

/* The general rounding routine agrees with the fast f32 -> f16/bf16 conversions. */
static void test_round_to_fmt(void) {
    uint32_t seed = 99;
    int bad = 0;
    for (uint32_t e = 0; e < 256; e++)
        for (int k = 0; k < 64; k++) {
            seed = seed * 1664525u + 1013904223u;
            uint32_t bits = (seed & 0x807fffffu) | (e << 23);
            static const uint32_t ties[4] = { 0, 0x1000, 0x1001, 0x7fffff };
            if (k < 4) bits = (bits & 0xff800000u) | ties[k];
            float f = bf(bits);
            if (alu_double_to_fmt((double)f, EXEC_RND_RN, &alu_fmt_f16, false) != alu_f2h_rn(f) &&
                f == f)
                bad++;
            if (alu_double_to_fmt((double)f, EXEC_RND_RN, &alu_fmt_bf16, false) != alu_f2bf_rn(f) &&
                f == f)
                bad++;
        }
    CHECK_EQ(bad, 0);
    /* values the routine must get right in every mode: 1 + 2^-11 + 2^-30 as f16 */
    const double x = 1.0 + 0x1p-11 + 0x1p-30;
    CHECK_EQ(alu_double_to_fmt(x, EXEC_RND_RN, &alu_fmt_f16, false), 0x3c01);
    CHECK_EQ(alu_double_to_fmt(x, EXEC_RND_RZ, &alu_fmt_f16, false), 0x3c00);
    CHECK_EQ(alu_double_to_fmt(-x, EXEC_RND_RM, &alu_fmt_f16, false), 0xbc01);
    CHECK_EQ(alu_double_to_fmt(-x, EXEC_RND_RP, &alu_fmt_f16, false), 0xbc00);
    CHECK_EQ(alu_double_to_fmt(1.0 + 0x1p-11, EXEC_RND_RNA, &alu_fmt_f16, false), 0x3c01);
    /* f64 as a format: exact for doubles */
    CHECK_EQ(alu_round_to_fmt(false, 3, -1, EXEC_RND_RN, &alu_fmt_f64, false), db(1.5));
    CHECK_EQ(alu_round_to_fmt(true, UINT64_MAX, 0, EXEC_RND_RZ, &alu_fmt_f64, false),
             db(-0x1.fffffffffffffp63));
    /* e4m3: no infinity; satfinite clamps to 448 */
    CHECK_EQ(alu_double_to_fmt(1000.0, EXEC_RND_RN, &alu_fmt_e4m3, true), 0x7e);
    CHECK_EQ(alu_double_to_fmt(-464.0, EXEC_RND_RN, &alu_fmt_e4m3, true), 0xfe);
    CHECK_EQ(alu_double_to_fmt(0x1p-9, EXEC_RND_RN, &alu_fmt_e4m3, true), 0x01);
    CHECK(alu_fmt_to_double(0x7e, &alu_fmt_e4m3) == 448.0);
    CHECK(alu_fmt_to_double(0x7b, &alu_fmt_e5m2) == 57344.0);
}

int main(void) {
    test_f16_arith();
    test_bf16_arith();
    test_sign_minmax();
    test_approx();
    test_round_to_fmt();
    return alu_report("test_alu_half");
}
