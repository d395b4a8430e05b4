/* tests/unit/test_alu_float.c — f32/f64 handlers on a hand-made warp: the directed
 * roundings (hand-picked halfway and near-halfway cases, and random cases checked
 * against exact long double arithmetic), fma's single rounding, .ftz, .sat, NaN results,
 * min/max, abs/neg/copysign, the .approx functions' special values, div.approx. */
#include <fenv.h>
#include "test_alu_harness.h"

#define RND(r) ALU_AUX(EXEC_RND_##r, 0, 0)
#define ONE 0x3f800000u

static void test_directed_f32(void) {
    static const unsigned modes[4] = { EXEC_RND_RN, EXEC_RND_RZ, EXEC_RND_RM, EXEC_RND_RP };
    /* 1 + 2^-24: exactly halfway between 1 and 1 + 2^-23 */
    static const uint32_t add_half[4] = { ONE, ONE, ONE, ONE + 1 };
    /* -1 - 2^-24 */
    static const uint32_t sub_half[4] = { 0xbf800000, 0xbf800000, 0xbf800001, 0xbf800000 };
    /* 1 + 3*2^-25: three quarters of an ulp above 1 */
    static const uint32_t add_3q[4] = { ONE + 1, ONE, ONE, ONE + 1 };
    /* 3 * 0x3eaaaaab (1/3 rounded up) = 1 + 2^-25 exactly */
    static const uint32_t mul_third[4] = { ONE, ONE, ONE, ONE + 1 };
    /* 1/3 */
    static const uint32_t div_third[4] = { 0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab };
    /* sqrt(2) = 1.41421356..., 0x3fb504f3 = 1.41421353... */
    static const uint32_t sqrt2[4] = { 0x3fb504f3, 0x3fb504f3, 0x3fb504f3, 0x3fb504f4 };
    /* 1/3 by rcp */
    for (unsigned m = 0; m < 4; m++) {
        exec_insn in = ti(PTX_OP_add, PTX_T_f32, 0, 0, ALU_AUX(modes[m], 0, 0));
        CHECK_EQ(RUN(in, ONE, fb(0x1p-24f), 0), add_half[m]);
        CHECK_EQ(RUN(in, 0xbf800000, fb(-0x1p-24f), 0), sub_half[m]);
        CHECK_EQ(RUN(in, ONE, fb(0x3p-25f), 0), add_3q[m]);
        /* x + (-x) is +0, except -0 when rounding down */
        CHECK_EQ(RUN(in, ONE, 0xbf800000, 0), modes[m] == EXEC_RND_RM ? 0x80000000 : 0);
        in = ti(PTX_OP_mul, PTX_T_f32, 0, 0, ALU_AUX(modes[m], 0, 0));
        CHECK_EQ(RUN(in, fb(3.0f), 0x3eaaaaab, 0), mul_third[m]);
        in = ti(PTX_OP_div, PTX_T_f32, 0, 0, ALU_AUX(modes[m], 0, 0));
        CHECK_EQ(RUN(in, ONE, fb(3.0f), 0), div_third[m]);
        in = ti(PTX_OP_rcp, PTX_T_f32, 0, 0, ALU_AUX(modes[m], 0, 0));
        CHECK_EQ(RUN(in, fb(3.0f), 0, 0), div_third[m]);
        in = ti(PTX_OP_sqrt, PTX_T_f32, 0, 0, ALU_AUX(modes[m], 0, 0));
        CHECK_EQ(RUN(in, fb(2.0f), 0, 0), sqrt2[m]);
        /* overflow: rz/rm of a positive overflow stop at the largest finite value */
        in = ti(PTX_OP_mul, PTX_T_f32, 0, 0, ALU_AUX(modes[m], 0, 0));
        CHECK_EQ(RUN(in, 0x7f7fffff, fb(2.0f), 0),
                 modes[m] == EXEC_RND_RN || modes[m] == EXEC_RND_RP ? 0x7f800000 : 0x7f7fffff);
    }
    /* fma rounds once: (1+2^-23)(1-2^-24) - 1 = 2^-24 - 2^-47 exactly */
    exec_insn in = ti(PTX_OP_fma, PTX_T_f32, 0, 0, RND(RN));
    CHECK_EQ(RUN(in, ONE + 1, 0x3f7fffff, 0xbf800000), 0x337ffffe);
    in = ti(PTX_OP_fma, PTX_T_f32, 0, 0, RND(RM));
    CHECK_EQ(RUN(in, ONE, fb(0x1p-30f), ONE), ONE);
    in = ti(PTX_OP_fma, PTX_T_f32, 0, 0, RND(RP));
    CHECK_EQ(RUN(in, ONE, fb(0x1p-30f), ONE), ONE + 1);

    /* random cases: the exact result in long double (64-bit mantissa) for operands whose
     * exponents are close enough, rounded to float in the mode under test */
    uint32_t seed = 12345;
    for (int i = 0; i < 2000; i++) {
        seed = seed * 1664525u + 1013904223u;
        uint32_t a = (seed & 0x807fffffu) | ((100u + (seed >> 24) % 40u) << 23);
        seed = seed * 1664525u + 1013904223u;
        uint32_t b = (seed & 0x807fffffu) | ((100u + (seed >> 24) % 40u) << 23);
        for (unsigned m = 1; m < 4; m++) {
            static const int fe[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
            long double sum = (long double)bf(a) + (long double)bf(b); /* exact: |ea-eb| < 40 */
            long double prod = (long double)bf(a) * (long double)bf(b); /* exact: 48 bits */
            fesetround(fe[m]);
            volatile long double vs = sum, vp = prod;
            volatile float rs = (float)vs, rp = (float)vp;
            fesetround(FE_TONEAREST);
            exec_insn ia = ti(PTX_OP_add, PTX_T_f32, 0, 0, ALU_AUX(modes[m], 0, 0));
            exec_insn im = ti(PTX_OP_mul, PTX_T_f32, 0, 0, ALU_AUX(modes[m], 0, 0));
            CHECK_EQ(RUN(ia, a, b, 0), fb(rs));
            CHECK_EQ(RUN(im, a, b, 0), fb(rp));
        }
    }
}

static void test_directed_f64(void) {
    const uint64_t one = db(1.0);
    exec_insn in = ti(PTX_OP_add, PTX_T_f64, 0, 0, RND(RN));
    CHECK_EQ(RUN(in, one, db(0x1p-53), 0), one);
    in = ti(PTX_OP_add, PTX_T_f64, 0, 0, RND(RP));
    CHECK_EQ(RUN(in, one, db(0x1p-53), 0), one + 1);
    in = ti(PTX_OP_add, PTX_T_f64, 0, 0, RND(RM));
    CHECK_EQ(RUN(in, db(-1.0), db(-0x1p-60), 0), db(-1.0) + 1);
    in = ti(PTX_OP_div, PTX_T_f64, 0, 0, RND(RZ));
    CHECK_EQ(RUN(in, one, db(3.0), 0), 0x3fd5555555555555ull);
    in = ti(PTX_OP_div, PTX_T_f64, 0, 0, RND(RP));
    CHECK_EQ(RUN(in, one, db(3.0), 0), 0x3fd5555555555556ull);
    in = ti(PTX_OP_fma, PTX_T_f64, 0, 0, RND(RN));
    /* (1+2^-52)(1-2^-53) - 1 = 2^-53 - 2^-105 exactly representable */
    CHECK_EQ(RUN(in, one + 1, 0x3fefffffffffffffull, db(-1.0)), db(0x1p-53 - 0x1p-105));
    in = ti(PTX_OP_sqrt, PTX_T_f64, 0, 0, RND(RM));
    CHECK_EQ(RUN(in, db(2.0), 0, 0), 0x3ff6a09e667f3bccull);
    in = ti(PTX_OP_sqrt, PTX_T_f64, 0, 0, RND(RP));
    CHECK_EQ(RUN(in, db(2.0), 0, 0), 0x3ff6a09e667f3bcdull);
    /* the host's rounding mode is left as it was */
    CHECK(fegetround() == FE_TONEAREST);
}

static void test_ftz_sat_nan(void) {
    exec_insn in = ti(PTX_OP_add, PTX_T_f32, 0, EXEC_F_FTZ, 0);
    CHECK_EQ(RUN(in, 0x00000001, 0, 0), 0);                       /* subnormal input */
    CHECK_EQ(RUN(in, 0x80000001, 0x80000000, 0), 0x80000000);
    in = ti(PTX_OP_add, PTX_T_f32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x00000001, 0, 0), 1);
    in = ti(PTX_OP_mul, PTX_T_f32, 0, EXEC_F_FTZ, 0);
    CHECK_EQ(RUN(in, fb(0x1p-100f), fb(-0x1p-30f), 0), 0x80000000); /* subnormal result */
    in = ti(PTX_OP_mul, PTX_T_f32, 0, 0, 0);
    CHECK_EQ(RUN(in, fb(0x1p-100f), fb(0x1p-30f), 0), fb(0x1p-130f));
    in = ti(PTX_OP_mul, PTX_T_f32, 0, EXEC_F_FTZ, RND(RZ));
    CHECK_EQ(RUN(in, fb(0x1p-100f), fb(0x1p-30f), 0), 0);
    in = ti(PTX_OP_add, PTX_T_f32, 0, EXEC_F_SAT, 0);
    CHECK_EQ(RUN(in, fb(0.75f), fb(0.5f), 0), ONE);
    CHECK_EQ(RUN(in, fb(-1.0f), fb(0.5f), 0), 0);
    CHECK_EQ(RUN(in, 0x7fc00000, ONE, 0), 0);                      /* NaN -> +0 */
    CHECK_EQ(RUN(in, fb(0.25f), fb(0.5f), 0), fb(0.75f));
    in = ti(PTX_OP_fma, PTX_T_f32, 0, EXEC_F_SAT | EXEC_F_FTZ, RND(RN));
    CHECK_EQ(RUN(in, fb(2.0f), fb(2.0f), ONE), ONE);

    /* NaN: canonical for f32, first NaN operand quieted for f64 */
    in = ti(PTX_OP_add, PTX_T_f32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x7fc12345, ONE, 0), ALU_F32_CANON_NAN);
    CHECK_EQ(RUN(in, 0x7f800000, 0xff800000, 0), ALU_F32_CANON_NAN);
    in = ti(PTX_OP_add, PTX_T_f64, 0, 0, 0);
    CHECK_EQ(RUN(in, db(1.0), 0x7ff0000000012345ull, 0), 0x7ff8000000012345ull);
    CHECK_EQ(RUN(in, 0xfff8000000000001ull, 0x7ff8000000000002ull, 0), 0xfff8000000000001ull);
    CHECK_EQ(RUN(in, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0), 0xfff8000000000000ull);
    in = ti(PTX_OP_sqrt, PTX_T_f64, 0, 0, RND(RN));
    CHECK_EQ(RUN(in, db(-1.0), 0, 0), 0xfff8000000000000ull);
    in = ti(PTX_OP_div, PTX_T_f64, 0, 0, RND(RZ));
    CHECK_EQ(RUN(in, 0, 0, 0), 0xfff8000000000000ull);
}

static void test_minmax_sign(void) {
    exec_insn in = ti(PTX_OP_min, PTX_T_f32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x7fc00000, ONE, 0), ONE);
    CHECK_EQ(RUN(in, ONE, 0x7fc00000, 0), ONE);
    CHECK_EQ(RUN(in, 0x7fc00001, 0x7fc00002, 0), ALU_F32_CANON_NAN);
    CHECK_EQ(RUN(in, 0, 0x80000000, 0), 0x80000000);              /* -0 < +0 */
    in = ti(PTX_OP_max, PTX_T_f32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x80000000, 0, 0), 0);
    in = ti(PTX_OP_min, PTX_T_f32, 0, ALU_F_NANMODE, 0);
    CHECK_EQ(RUN(in, 0x7fc00000, ONE, 0), ALU_F32_CANON_NAN);
    in = ti(PTX_OP_min, PTX_T_f32, 0, EXEC_F_FTZ, 0);
    CHECK_EQ(RUN(in, 0x80000001, 0x00000002, 0), 0x80000000);
    in = ti(PTX_OP_max, PTX_T_f32, 0, ALU_F_XORSIGN, 0);
    CHECK_EQ(RUN(in, fb(-3.0f), fb(2.0f), 0), fb(-3.0f));          /* |.| max, sign - ^ + */
    CHECK_EQ(RUN(in, fb(-3.0f), fb(-2.0f), 0), fb(3.0f));
    in = ti(PTX_OP_min, PTX_T_f64, 0, 0, 0);
    CHECK_EQ(RUN(in, db(-1.0), 0x7ff8000000000000ull, 0), db(-1.0));

    in = ti(PTX_OP_abs, PTX_T_f32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x80000001, 0, 0), 1);
    CHECK_EQ(RUN(in, 0xffc12345, 0, 0), ALU_F32_CANON_NAN);
    in = ti(PTX_OP_abs, PTX_T_f32, 0, EXEC_F_FTZ, 0);
    CHECK_EQ(RUN(in, 0x80000001, 0, 0), 0);
    in = ti(PTX_OP_neg, PTX_T_f32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0, 0, 0), 0x80000000);
    in = ti(PTX_OP_neg, PTX_T_f64, 0, 0, 0);
    CHECK_EQ(RUN(in, db(2.0), 0, 0), db(-2.0));
    CHECK_EQ(RUN(in, 0xfff0000000000001ull, 0, 0), 0xfff8000000000001ull);
    in = ti(PTX_OP_copysign, PTX_T_f32, 0, 0, 0);
    CHECK_EQ(RUN(in, fb(-1.0f), fb(2.0f), 0), fb(-2.0f));          /* b with a's sign */
    in = ti(PTX_OP_copysign, PTX_T_f64, 0, 0, 0);
    CHECK_EQ(RUN(in, db(1.0), db(-2.0), 0), db(2.0));
}

static void test_approx(void) {
#define APPROX(op, ftz) ti(PTX_OP_##op, PTX_T_f32, 0, EXEC_F_APPROX | (ftz ? EXEC_F_FTZ : 0), 0)
    exec_insn in = APPROX(sin, 0);
    CHECK_EQ(RUN(in, 0x80000000, 0, 0), 0x80000000);
    CHECK_EQ(RUN(in, 0x7f800000, 0, 0), ALU_F32_CANON_NAN);
    CHECK(fabsf(bf((uint32_t)RUN(in, fb(1.0f), 0, 0)) - sinf(1.0f)) < 0x1p-20f);
    in = APPROX(cos, 0);
    CHECK_EQ(RUN(in, 0x80000000, 0, 0), ONE);
    in = APPROX(lg2, 0);
    CHECK_EQ(RUN(in, 0, 0, 0), 0xff800000);
    CHECK_EQ(RUN(in, 0xbf800000, 0, 0), ALU_F32_CANON_NAN);
    CHECK_EQ(RUN(in, fb(8.0f), 0, 0), fb(3.0f));
    in = APPROX(ex2, 1);
    CHECK_EQ(RUN(in, 0xff800000, 0, 0), 0);
    CHECK_EQ(RUN(in, fb(10.0f), 0, 0), fb(1024.0f));
    CHECK_EQ(RUN(in, fb(-130.0f), 0, 0), 0);                        /* subnormal flushed */
    in = APPROX(ex2, 0);
    CHECK_EQ(RUN(in, fb(-130.0f), 0, 0), fb(0x1p-130f));
    in = APPROX(rsqrt, 0);
    CHECK_EQ(RUN(in, fb(4.0f), 0, 0), fb(0.5f));
    CHECK_EQ(RUN(in, 0x80000000, 0, 0), 0xff800000);
    in = APPROX(rcp, 1);
    CHECK_EQ(RUN(in, 0x00000001, 0, 0), 0x7f800000);               /* flushed to 1/+0 */
    in = APPROX(tanh, 0);
    CHECK_EQ(RUN(in, 0xff800000, 0, 0), 0xbf800000);
    in = APPROX(sqrt, 0);
    CHECK_EQ(RUN(in, fb(9.0f), 0, 0), fb(3.0f));
    /* div.approx: 0 for 2^126 < |b| < 2^128 (NaN for an infinite a) */
    in = ti(PTX_OP_div, PTX_T_f32, 0, EXEC_F_APPROX, 0);
    CHECK_EQ(RUN(in, ONE, 0x7f000000, 0), 0);
    CHECK_EQ(RUN(in, 0x7f800000, 0x7f000000, 0), ALU_F32_CANON_NAN);
    CHECK_EQ(RUN(in, fb(6.0f), fb(3.0f), 0), fb(2.0f));
    in = ti(PTX_OP_div, PTX_T_f32, 0, 0, ALU_AUX(0, ALU_V_FULL, 0));
    CHECK_EQ(RUN(in, fb(6.0f), fb(3.0f), 0), fb(2.0f));
    /* the gross f64 reciprocal: upper word only, low word zero */
    in = ti(PTX_OP_rcp, PTX_T_f64, 0, EXEC_F_APPROX | EXEC_F_FTZ, 0);
    CHECK_EQ(RUN(in, db(2.0), 0, 0), db(0.5));
    CHECK_EQ(RUN(in, db(3.0), 0, 0) & 0xffffffffull, 0);
    CHECK_EQ(RUN(in, 0x7ff8000000000001ull, 0, 0), 0x7fffffff00000000ull);
    CHECK_EQ(RUN(in, 0x8000000000000001ull, 0, 0), 0xfff0000000000000ull);
#undef APPROX
}

/* rsqrt.approx.f64 is correctly rounded on the H100 (tests/cuda/conformance/double_math):
 * 1.0 / sqrt(x) in double is an ulp off for these (0.5: ...3bcc instead of ...3bcd). */
static void test_rsqrt_f64_rounding(void) {
    exec_insn in = ti(PTX_OP_rsqrt, PTX_T_f64, 0, EXEC_F_APPROX, 0);
    CHECK_EQ(RUN(in, db(0.5), 0, 0), 0x3ff6a09e667f3bcdull);      /* sqrt(2) */
    CHECK_EQ(RUN(in, db(3.0), 0, 0), db(0.57735026918962573));
    CHECK_EQ(RUN(in, db(0.001), 0, 0), db(31.622776601683793));
    CHECK_EQ(RUN(in, db(2.5e10), 0, 0), db(6.3245553203367584e-06));
    /* exact powers of four, the extremes (a subnormal input has a normal result) */
    CHECK_EQ(RUN(in, db(0.25), 0, 0), db(2.0));
    CHECK_EQ(RUN(in, db(4.0), 0, 0), db(0.5));
    CHECK_EQ(RUN(in, 0x0000000000000001ull, 0, 0), db(4.4989137945431964e+161));
    CHECK_EQ(RUN(in, 0x7fefffffffffffffull, 0, 0), db(7.4583407312002067e-155));
    /* special values: ±0 -> ±inf, +inf -> 0, negative -> the invalid-operation NaN,
     * NaN -> itself, quieted */
    CHECK_EQ(RUN(in, 0, 0, 0), 0x7ff0000000000000ull);
    CHECK_EQ(RUN(in, 0x8000000000000000ull, 0, 0), 0xfff0000000000000ull);
    CHECK_EQ(RUN(in, 0x7ff0000000000000ull, 0, 0), 0);
    CHECK_EQ(RUN(in, db(-2.0), 0, 0), 0xfff8000000000000ull);
    CHECK_EQ(RUN(in, 0x7ff0000000012345ull, 0, 0), 0x7ff8000000012345ull);
    /* random inputs against long double with the neighbours settled by x*y*y vs 1 */
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 20000; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        uint64_t a = s & 0x7fefffffffffffffull;
        double x = bd(a), y = bd(RUN(in, a, 0, 0));
        if (!(x > 0)) continue;
        /* y is correctly rounded iff 1/sqrt(x) lies between the midpoints around y:
         * checked in long double on y's neighbours, good enough away from ties */
        long double r = 1.0L / sqrtl((long double)x);
        long double err = fabsl(r - y), errUp = fabsl(r - nextafter(y, INFINITY)),
                    errDown = fabsl(r - nextafter(y, 0.0));
        CHECK(err <= errUp && err <= errDown);
    }
}

int main(void) {
    test_directed_f32();
    test_directed_f64();
    test_ftz_sat_nan();
    test_minmax_sign();
    test_approx();
    test_rsqrt_f64_rounding();
    return alu_report("test_alu_float");
}
