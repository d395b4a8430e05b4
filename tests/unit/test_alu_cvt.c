/* tests/unit/test_alu_cvt.c — cvt handlers on a hand-made warp: float -> int rounding and
 * saturation (NaN as the H100 gives it), int -> int extension/truncation/.sat and sign
 * extension into wider registers, int -> float and f64 -> f32 in every rounding mode,
 * f16/bf16/tf32/fp8 conversions (rounding, subnormals, overflow, .relu, .satfinite),
 * rounding to integral values, the NaN rules of each pair. */
#include "test_alu_harness.h"

#define CVT(dt, st, flags, rnd) ti(PTX_OP_cvt, PTX_T_##dt, PTX_T_##st, flags, \
                                   ALU_AUX(EXEC_RND_##rnd, 0, 0))

static void test_float_to_int(void) {
    exec_insn in = CVT(s32, f32, 0, RNI);
    CHECK_EQ(RUN(in, fb(2.5f), 0, 0), 2);
    CHECK_EQ(RUN(in, fb(3.5f), 0, 0), 4);
    CHECK_EQ(RUN(in, fb(-2.5f), 0, 0), 0xfffffffe);
    CHECK_EQ(RUN(in, fb(3e9f), 0, 0), 0x7fffffff);
    CHECK_EQ(RUN(in, fb(-3e9f), 0, 0), 0x80000000);
    CHECK_EQ(RUN(in, 0x7fc00000, 0, 0), 0);                        /* NaN: 0 */
    in = CVT(s32, f32, 0, RZI);
    CHECK_EQ(RUN(in, fb(-2.7f), 0, 0), 0xfffffffe);
    CHECK_EQ(RUN(in, 0xff800000, 0, 0), 0x80000000);
    in = CVT(s32, f32, 0, RMI);
    CHECK_EQ(RUN(in, fb(-2.1f), 0, 0), 0xfffffffd);
    in = CVT(s32, f32, 0, RPI);
    CHECK_EQ(RUN(in, fb(2.1f), 0, 0), 3);
    CHECK_EQ(RUN(in, 0x00000001, 0, 0), 1);                        /* tiny positive: 1 */
    in = CVT(s32, f32, EXEC_F_FTZ, RPI);
    CHECK_EQ(RUN(in, 0x00000001, 0, 0), 0);                        /* flushed first */
    in = CVT(u32, f32, 0, RZI);
    CHECK_EQ(RUN(in, fb(-1.5f), 0, 0), 0);
    CHECK_EQ(RUN(in, fb(5e9f), 0, 0), 0xffffffff);
    in = CVT(u8, f32, 0, RNI);
    CHECK_EQ(RUN(in, fb(300.0f), 0, 0), 0xff);
    in = CVT(s16, f32, 0, RZI);
    CHECK_EQ(RUN(in, fb(-40000.0f), 0, 0), 0x8000);
    /* NaN into a 64-bit type, or from f64: 1 << (width-1) */
    in = CVT(s64, f32, 0, RZI);
    CHECK_EQ(RUN(in, 0x7fc00000, 0, 0), 0x8000000000000000ull);
    in = CVT(u64, f64, 0, RZI);
    CHECK_EQ(RUN(in, 0x7ff8000000000000ull, 0, 0), 0x8000000000000000ull);
    CHECK_EQ(RUN(in, db(1.8446744073709552e19), 0, 0), 0xffffffffffffffffull);
    in = CVT(s32, f64, 0, RZI);
    CHECK_EQ(RUN(in, 0x7ff8000000000000ull, 0, 0), 0x80000000);
    CHECK_EQ(RUN(in, db(2147483647.9), 0, 0), 0x7fffffff);
    in = CVT(s64, f64, 0, RNI);
    CHECK_EQ(RUN(in, db(-9.3e18), 0, 0), 0x8000000000000000ull);
    in = CVT(s32, f16, 0, RNI);
    CHECK_EQ(RUN(in, 0xc500, 0, 0), 0xfffffffb);                   /* -5.0 */
}

static void test_int_to_int(void) {
    exec_insn in = CVT(s32, s8, 0, DEFAULT);
    CHECK_EQ(RUN(in, 0x80, 0, 0), 0xffffff80);
    CHECK_EQ(RUN(in, 0x17f, 0, 0), 0x7f);                          /* source truncated */
    in = CVT(u32, u8, 0, DEFAULT);
    CHECK_EQ(RUN(in, 0x180, 0, 0), 0x80);
    in = CVT(s64, s32, 0, DEFAULT);
    CHECK_EQ(RUN(in, 0xfffffffe, 0, 0), 0xfffffffffffffffeull);
    in = CVT(u64, s32, 0, DEFAULT);
    CHECK_EQ(RUN(in, 0xfffffffe, 0, 0), 0xfffffffffffffffeull);    /* sign-extends a */
    in = CVT(u16, u64, 0, DEFAULT);
    CHECK_EQ(RUN(in, 0x123456789ull, 0, 0), 0x6789);
    in = CVT(s8, s32, EXEC_F_SAT, DEFAULT);
    CHECK_EQ(RUN(in, 300, 0, 0), 0x7f);
    CHECK_EQ(RUN(in, (uint32_t)-300, 0, 0), 0x80);
    in = CVT(u8, s32, EXEC_F_SAT, DEFAULT);
    CHECK_EQ(RUN(in, (uint32_t)-5, 0, 0), 0);
    in = CVT(s32, u32, EXEC_F_SAT, DEFAULT);
    CHECK_EQ(RUN(in, 0x80000000, 0, 0), 0x7fffffff);
    in = CVT(u32, s64, EXEC_F_SAT, DEFAULT);
    CHECK_EQ(RUN(in, 0x100000000ull, 0, 0), 0xffffffff);
    CHECK_EQ(RUN(in, 0xffffffffffffffffull, 0, 0), 0);
    /* a narrow signed result in a wider register is sign-extended into it */
    in = CVT(s8, s32, 0, DEFAULT);
    in.imm = 0xffff;
    CHECK_EQ(RUN(in, 0x80, 0, 0), 0xff80);
    in.imm = 0xffffffff;
    CHECK_EQ(RUN(in, 0x7f, 0, 0), 0x7f);
    in = CVT(u8, s32, 0, DEFAULT);
    CHECK_EQ(RUN(in, 0x180, 0, 0), 0x80);
}

static void test_int_to_float(void) {
    exec_insn in = CVT(f32, s32, 0, RN);
    CHECK_EQ(RUN(in, 16777217, 0, 0), 0x4b800000);                 /* tie: even */
    CHECK_EQ(RUN(in, 16777219, 0, 0), 0x4b800002);
    in = CVT(f32, s32, 0, RP);
    CHECK_EQ(RUN(in, 16777217, 0, 0), 0x4b800001);
    in = CVT(f32, s32, 0, RM);
    CHECK_EQ(RUN(in, (uint32_t)-16777217, 0, 0), 0xcb800001);
    in = CVT(f32, s32, 0, RZ);
    CHECK_EQ(RUN(in, (uint32_t)-16777217, 0, 0), 0xcb800000);
    in = CVT(f32, u64, 0, RZ);
    CHECK_EQ(RUN(in, 0xffffffffffffffffull, 0, 0), 0x5f7fffff);
    in = CVT(f32, u64, 0, RN);
    CHECK_EQ(RUN(in, 0xffffffffffffffffull, 0, 0), 0x5f800000);
    in = CVT(f64, s64, 0, RN);
    CHECK_EQ(RUN(in, 0x8000000000000000ull, 0, 0), db(-0x1p63));
    in = CVT(f64, u64, 0, RP);
    CHECK_EQ(RUN(in, (1ull << 53) + 1, 0, 0), db(0x1p53) + 1);
    in = CVT(f16, s32, 0, RN);
    CHECK_EQ(RUN(in, 65519, 0, 0), 0x7bff);
    CHECK_EQ(RUN(in, 65520, 0, 0), 0x7c00);                        /* rounds to infinity */
    in = CVT(f16, s32, 0, RZ);
    CHECK_EQ(RUN(in, 100000, 0, 0), 0x7bff);
    in = CVT(bf16, u32, 0, RN);
    CHECK_EQ(RUN(in, 257, 0, 0), 0x4380);                          /* 256 + 1: to 256 */
    in = CVT(f32, s32, EXEC_F_SAT, RN);
    CHECK_EQ(RUN(in, 5, 0, 0), fb(1.0f));
    CHECK_EQ(RUN(in, (uint32_t)-5, 0, 0), 0);
}

static void test_float_to_float(void) {
    exec_insn in = CVT(f32, f64, 0, RN);
    CHECK_EQ(RUN(in, db(1.0 + 0x1p-30), 0, 0), 0x3f800000);
    CHECK_EQ(RUN(in, db(1e300), 0, 0), 0x7f800000);
    CHECK_EQ(RUN(in, 0xfff8000000012345ull, 0, 0), 0xffc00000);    /* NaN: sign only */
    in = CVT(f32, f64, 0, RP);
    CHECK_EQ(RUN(in, db(1.0 + 0x1p-30), 0, 0), 0x3f800001);
    CHECK_EQ(RUN(in, db(-1e300), 0, 0), 0xff7fffff);
    in = CVT(f32, f64, 0, RM);
    CHECK_EQ(RUN(in, db(-1e300), 0, 0), 0xff800000);
    CHECK_EQ(RUN(in, db(0x1p-160), 0, 0), 0);                      /* below the subnormals */
    in = CVT(f32, f64, EXEC_F_FTZ, RN);
    CHECK_EQ(RUN(in, db(0x1p-130), 0, 0), 0);
    in = CVT(f32, f64, 0, RN);
    CHECK_EQ(RUN(in, db(0x1p-130), 0, 0), fb(0x1p-130f));
    in = CVT(f64, f32, 0, DEFAULT);
    CHECK_EQ(RUN(in, fb(0.1f), 0, 0), db((double)0.1f));
    CHECK_EQ(RUN(in, 0x7f812345, 0, 0), 0x7ff82468a0000000ull);    /* payload kept, quiet */
    in = CVT(f64, f32, EXEC_F_FTZ, DEFAULT);
    CHECK_EQ(RUN(in, 0x00000001, 0, 0), 0);
    CHECK_EQ(RUN(in, 0x7f812345, 0, 0), 0x7fffffffe0000000ull);    /* canonical f32 first */

    /* f16 */
    in = CVT(f16, f32, 0, RN);
    CHECK_EQ(RUN(in, fb(1.0f + 0x1p-11f), 0, 0), 0x3c00);          /* tie: even */
    CHECK_EQ(RUN(in, fb(1.0f + 0x3p-11f), 0, 0), 0x3c02);          /* tie: even (up) */
    CHECK_EQ(RUN(in, fb(65520.0f), 0, 0), 0x7c00);
    CHECK_EQ(RUN(in, fb(65519.0f), 0, 0), 0x7bff);
    CHECK_EQ(RUN(in, fb(0x1p-24f), 0, 0), 0x0001);                 /* smallest subnormal */
    CHECK_EQ(RUN(in, fb(0x1p-25f), 0, 0), 0x0000);                 /* tie: even */
    CHECK_EQ(RUN(in, fb(0x3p-26f), 0, 0), 0x0001);
    CHECK_EQ(RUN(in, fb(-0x1p-14f), 0, 0), 0x8400);
    CHECK_EQ(RUN(in, 0x7fc12345, 0, 0), 0x7fff);
    in = CVT(f16, f32, 0, RZ);
    CHECK_EQ(RUN(in, fb(1e6f), 0, 0), 0x7bff);
    in = CVT(f16, f32, 0, RM);
    CHECK_EQ(RUN(in, fb(-0x1p-30f), 0, 0), 0x8001);
    in = CVT(f16, f32, 0, RP);
    CHECK_EQ(RUN(in, fb(0x1p-30f), 0, 0), 0x0001);
    CHECK_EQ(RUN(in, fb(1.0f + 0x1p-20f), 0, 0), 0x3c01);
    in = CVT(f16, f32, ALU_F_RELU, RN);
    CHECK_EQ(RUN(in, fb(-1.0f), 0, 0), 0);
    CHECK_EQ(RUN(in, 0x80000000, 0, 0), 0);                        /* -0 too */
    CHECK_EQ(RUN(in, 0xffc00000, 0, 0), 0x7fff);
    in = CVT(f16, f32, ALU_F_SATFINITE, RN);
    CHECK_EQ(RUN(in, fb(1e6f), 0, 0), 0x7bff);
    CHECK_EQ(RUN(in, 0xff800000, 0, 0), 0xfbff);
    in = CVT(f16, f64, 0, RN);
    CHECK_EQ(RUN(in, 0xfff8000000000000ull, 0, 0), 0xfe00);
    /* one rounding from f64: 1 + 2^-11 + 2^-40 is above the tie */
    CHECK_EQ(RUN(in, db(1.0 + 0x1p-11 + 0x1p-40), 0, 0), 0x3c01);
    in = CVT(f32, f16, 0, DEFAULT);
    CHECK_EQ(RUN(in, 0x0001, 0, 0), fb(0x1p-24f));
    CHECK_EQ(RUN(in, 0xfbff, 0, 0), fb(-65504.0f));
    CHECK_EQ(RUN(in, 0x7e01, 0, 0), ALU_F32_CANON_NAN);
    in = CVT(f64, f16, 0, DEFAULT);
    CHECK_EQ(RUN(in, 0x7c01, 0, 0), 0x7ff8040000000000ull);

    /* bf16 */
    in = CVT(bf16, f32, 0, RN);
    CHECK_EQ(RUN(in, 0x3f808000, 0, 0), 0x3f80);                   /* tie: even */
    CHECK_EQ(RUN(in, 0x3f818000, 0, 0), 0x3f82);
    CHECK_EQ(RUN(in, 0x7f7fffff, 0, 0), 0x7f80);
    in = CVT(bf16, f32, 0, RZ);
    CHECK_EQ(RUN(in, 0x3f81ffff, 0, 0), 0x3f81);
    in = CVT(f32, bf16, 0, DEFAULT);
    CHECK_EQ(RUN(in, 0x7f81, 0, 0), 0x7f810000);                   /* bits pass through */
    in = CVT(bf16, f16, 0, RN);
    CHECK_EQ(RUN(in, 0x3c01, 0, 0), 0x3f80);

    /* packing: a into the upper half */
    in = ti(PTX_OP_cvt, PTX_T_f16x2, PTX_T_f32, 0, ALU_AUX(EXEC_RND_RN, 0, 0));
    CHECK_EQ(RUN(in, fb(1.0f), fb(2.0f), 0), 0x3c004000);
    in = ti(PTX_OP_cvt, PTX_T_bf16x2, PTX_T_f32, ALU_F_RELU, ALU_AUX(EXEC_RND_RN, 0, 0));
    CHECK_EQ(RUN(in, fb(-1.0f), fb(2.0f), 0), 0x00004000);
    in = CVT(tf32, f32, 0, RNA);
    CHECK_EQ(RUN(in, 0x3f801000, 0, 0), 0x3f802000);               /* tie: away */
    CHECK_EQ(RUN(in, 0x3f800fff, 0, 0), 0x3f800000);
    CHECK_EQ(RUN(in, 0x7fc12345, 0, 0), 0x7fc12000);
    in = ti(PTX_OP_cvt, PTX_T_e4m3x2, PTX_T_f32, ALU_F_SATFINITE, ALU_AUX(EXEC_RND_RN, 0, 0));
    CHECK_EQ(RUN(in, fb(448.0f), fb(1.0f), 0), 0x7e38);
    CHECK_EQ(RUN(in, fb(1e6f), 0x7fc00000, 0), 0x7e7f);
    CHECK_EQ(RUN(in, fb(-0x1p-9f), fb(0x1p-10f), 0), 0x8100);      /* subnormal, tie -> 0 */
    in = ti(PTX_OP_cvt, PTX_T_f16x2, PTX_T_e4m3x2, 0, ALU_AUX(EXEC_RND_RN, 0, 0));
    CHECK_EQ(RUN(in, 0x7e38, 0, 0), 0x5f003c00);                   /* 448, 1.0 */
    CHECK_EQ(RUN(in, 0x7f01, 0, 0), 0x7fff1800);                   /* NaN, 2^-9 */

    /* integral rounding in float formats */
    in = CVT(f32, f32, 0, RNI);
    CHECK_EQ(RUN(in, fb(2.5f), 0, 0), fb(2.0f));
    CHECK_EQ(RUN(in, fb(-0.5f), 0, 0), 0x80000000);
    in = CVT(f64, f64, 0, RMI);
    CHECK_EQ(RUN(in, db(-0.5), 0, 0), db(-1.0));
    CHECK_EQ(RUN(in, 0x7ff0000000000001ull, 0, 0), 0x7ff8000000000001ull);
    in = CVT(f16, f16, 0, RPI);
    CHECK_EQ(RUN(in, 0x3c01, 0, 0), 0x4000);
    /* plain moves, .ftz, .sat */
    in = CVT(f32, f32, 0, DEFAULT);
    CHECK_EQ(RUN(in, 0x7f812345, 0, 0), 0x7f812345);
    in = CVT(f32, f32, EXEC_F_FTZ, DEFAULT);
    CHECK_EQ(RUN(in, 0x807fffff, 0, 0), 0x80000000);
    CHECK_EQ(RUN(in, 0x7f812345, 0, 0), ALU_F32_CANON_NAN);
    in = CVT(f32, f32, EXEC_F_SAT, DEFAULT);
    CHECK_EQ(RUN(in, fb(1.5f), 0, 0), fb(1.0f));
    CHECK_EQ(RUN(in, 0xffc00000, 0, 0), 0);
}

static void test_lookup_rules(void) {
    /* combinations the ISA forbids have no handler */
    exec_insn in = CVT(s32, f32, 0, DEFAULT);              /* float -> int needs .rni etc. */
    CHECK(exec_alu_lookup(&in) == NULL);
    in = CVT(f32, s32, 0, RNI);                            /* int -> float needs .rn etc. */
    CHECK(exec_alu_lookup(&in) == NULL);
    in = CVT(f32, f64, 0, DEFAULT);                        /* narrowing needs a rounding */
    CHECK(exec_alu_lookup(&in) == NULL);
    in = CVT(f64, f32, 0, RN);                             /* exact widening takes none */
    CHECK(exec_alu_lookup(&in) == NULL);
    in = CVT(s32, s16, 0, RN);
    CHECK(exec_alu_lookup(&in) == NULL);
    in = CVT(f32, f64, ALU_F_RELU, RN);                    /* .relu is for f16/bf16/tf32 */
    CHECK(exec_alu_lookup(&in) == NULL);
    in = CVT(s64, s8, EXEC_F_SAT, DEFAULT);                /* .sat where nothing can clip */
    CHECK(exec_alu_lookup(&in) == NULL);
    in = CVT(s32, u16, EXEC_F_SAT, DEFAULT);
    CHECK(exec_alu_lookup(&in) == NULL);
    in = CVT(s16, u16, EXEC_F_SAT, DEFAULT);
    CHECK(exec_alu_lookup(&in) != NULL);
}

int main(void) {
    test_float_to_int();
    test_int_to_int();
    test_int_to_float();
    test_float_to_float();
    test_lookup_rules();
    return alu_report("test_alu_cvt");
}
