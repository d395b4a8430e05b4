/* tests/unit/test_alu_int.c — integer and bit-manipulation handlers, run directly on a
 * hand-made warp: wrap-around and saturation, high halves and wide products (128-bit
 * mul.hi), 24-bit multiplies, division by zero and overflow as the H100 does them, carry
 * chains, dp4a/dp2a, shifts past the width, shf, prmt (every mode), bfe/bfi edges, bfind,
 * lop3, bmsk, szext, fns. Expected values are worked out by hand (or, for 64x64-bit
 * products, with 32-bit limbs here, independently of the handlers). */
#include "test_alu_harness.h"

#define V(x) ALU_AUX(0, ALU_V_##x, 0)

/* high 64 bits of a 64x64 unsigned product, by 32-bit limbs */
static uint64_t mulhi_u64_ref(uint64_t a, uint64_t b) {
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static uint64_t mulhi_s64_ref(int64_t a, int64_t b) {
    uint64_t h = mulhi_u64_ref((uint64_t)a, (uint64_t)b);
    if (a < 0) h -= (uint64_t)b;
    if (b < 0) h -= (uint64_t)a;
    return h;
}

static void test_add_sub_mul(void) {
    exec_insn in = ti(PTX_OP_add, PTX_T_u32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0xffffffff, 1, 0), 0);
    in = ti(PTX_OP_add, PTX_T_s16, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x7fff, 1, 0), 0x8000);
    in = ti(PTX_OP_add, PTX_T_s32, 0, EXEC_F_SAT, 0);
    CHECK_EQ(RUN(in, 0x7fffffff, 1, 0), 0x7fffffff);
    CHECK_EQ(RUN(in, 0x80000000, 0xffffffff, 0), 0x80000000);
    CHECK_EQ(RUN(in, 5, 0xfffffffd, 0), 2);
    in = ti(PTX_OP_sub, PTX_T_s32, 0, EXEC_F_SAT, 0);
    CHECK_EQ(RUN(in, 0x80000000, 1, 0), 0x80000000);
    CHECK_EQ(RUN(in, 0x7fffffff, 0xffffffff, 0), 0x7fffffff);
    in = ti(PTX_OP_sub, PTX_T_u64, 0, 0, 0);
    CHECK_EQ(RUN(in, 0, 1, 0), 0xffffffffffffffffull);

    in = ti(PTX_OP_mul, PTX_T_s32, 0, 0, V(LO));
    CHECK_EQ(RUN(in, 0x10000, 0x10000, 0), 0);
    CHECK_EQ(RUN(in, 0xfffffffe, 3, 0), 0xfffffffa);
    in = ti(PTX_OP_mul, PTX_T_u16, 0, 0, V(LO));
    CHECK_EQ(RUN(in, 0xffff, 0xffff, 0), 1);
    in = ti(PTX_OP_mul, PTX_T_s32, 0, 0, V(HI));
    CHECK_EQ(RUN(in, 0xfffffffe, 3, 0), 0xffffffff);        /* -6 >> 32 */
    in = ti(PTX_OP_mul, PTX_T_u32, 0, 0, V(HI));
    CHECK_EQ(RUN(in, 0xffffffff, 0xffffffff, 0), 0xfffffffe);
    in = ti(PTX_OP_mul, PTX_T_s16, 0, 0, V(HI));
    CHECK_EQ(RUN(in, 0x8000, 0x8000, 0), 0x4000);
    in = ti(PTX_OP_mul, PTX_T_s32, 0, 0, V(WIDE));
    CHECK_EQ(RUN(in, 0xfffffffe, 3, 0), 0xfffffffffffffffaull);
    in = ti(PTX_OP_mul, PTX_T_u16, 0, 0, V(WIDE));
    CHECK_EQ(RUN(in, 0xffff, 0xffff, 0), 0xfffe0001);
    in = ti(PTX_OP_mul, PTX_T_s16, 0, 0, V(WIDE));
    CHECK_EQ(RUN(in, 0xffff, 0x7fff, 0), 0xffff8001);

    /* 128-bit products */
    static const uint64_t vals[] = { 0, 1, 0xffffffffffffffffull, 0x8000000000000000ull,
                                     0x123456789abcdef0ull, 0x0fedcba987654321ull,
                                     0x7fffffffffffffffull, 0xdeadbeefcafef00dull };
    exec_insn hu = ti(PTX_OP_mul, PTX_T_u64, 0, 0, V(HI));
    exec_insn hs = ti(PTX_OP_mul, PTX_T_s64, 0, 0, V(HI));
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 8; j++) {
            CHECK_EQ(RUN(hu, vals[i], vals[j], 0), mulhi_u64_ref(vals[i], vals[j]));
            CHECK_EQ(RUN(hs, vals[i], vals[j], 0),
                     mulhi_s64_ref((int64_t)vals[i], (int64_t)vals[j]));
        }
    in = ti(PTX_OP_mad, PTX_T_u64, 0, 0, V(HI));
    CHECK_EQ(RUN(in, 0xffffffffffffffffull, 0xffffffffffffffffull, 5), 0xfffffffffffffffe + 5ull);

    in = ti(PTX_OP_mad, PTX_T_s32, 0, 0, V(LO));
    CHECK_EQ(RUN(in, 3, 4, 0xfffffff4), 0);
    in = ti(PTX_OP_mad, PTX_T_s32, 0, EXEC_F_SAT, V(HI));
    CHECK_EQ(RUN(in, 0x7fffffff, 0x7fffffff, 0x7fffffff), 0x7fffffff); /* 0x3fffffff + max */
    CHECK_EQ(RUN(in, 0x80000000, 0x7fffffff, 0x80000000), 0x80000000);
    in = ti(PTX_OP_mad, PTX_T_s32, 0, 0, V(WIDE));
    CHECK_EQ(RUN(in, 0xffffffff, 0xffffffff, 0xfffffffffffffffeull), 0xffffffffffffffffull);

    /* 24-bit multiplies: operands are the low 24 bits */
    in = ti(PTX_OP_mul24, PTX_T_s32, 0, 0, V(HI));
    CHECK_EQ(RUN(in, 0x00800000, 2, 0), 0xffffff00);            /* -2^23 * 2 >> 16 */
    in = ti(PTX_OP_mul24, PTX_T_u32, 0, 0, V(LO));
    CHECK_EQ(RUN(in, 0xff000003, 0x12000005, 0), 15);           /* top bytes ignored */
    in = ti(PTX_OP_mul24, PTX_T_u32, 0, 0, V(HI));
    CHECK_EQ(RUN(in, 0xffffff, 0xffffff, 0), 0xfffffe00);
    in = ti(PTX_OP_mad24, PTX_T_s32, 0, EXEC_F_SAT, V(HI));
    CHECK_EQ(RUN(in, 0x7fffff, 0x7fffff, 0x7fffffff), 0x7fffffff);

    in = ti(PTX_OP_sad, PTX_T_s32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x80000000, 0x7fffffff, 1), 0);            /* |a-b| = 2^32-1, + 1 wraps */
    in = ti(PTX_OP_sad, PTX_T_u32, 0, 0, 0);
    CHECK_EQ(RUN(in, 3, 10, 100), 107);
}

static void test_div_rem(void) {
    exec_insn in = ti(PTX_OP_div, PTX_T_s32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0xfffffff9, 2, 0), 0xfffffffd);            /* -7/2 = -3 */
    CHECK_EQ(RUN(in, 0x80000000, 0xffffffff, 0), 0x80000000);   /* MIN/-1: no trap */
    CHECK_EQ(RUN(in, 7, 0, 0), 0xffffffff);
    CHECK_EQ(RUN(in, 0xfffffff9, 0, 0), 0xffffffff);
    in = ti(PTX_OP_rem, PTX_T_s32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0xfffffff9, 2, 0), 0xffffffff);            /* -7%2 = -1 */
    CHECK_EQ(RUN(in, 0x80000000, 0xffffffff, 0), 0);
    CHECK_EQ(RUN(in, 7, 0, 0), 0xffffffff);
    in = ti(PTX_OP_div, PTX_T_u32, 0, 0, 0);
    CHECK_EQ(RUN(in, 7, 0, 0), 0xffffffff);
    CHECK_EQ(RUN(in, 0xffffffff, 16, 0), 0x0fffffff);
    in = ti(PTX_OP_rem, PTX_T_u64, 0, 0, 0);
    CHECK_EQ(RUN(in, 7, 0, 0), 0xffffffffffffffffull);
    in = ti(PTX_OP_div, PTX_T_s64, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x8000000000000000ull, 0xffffffffffffffffull, 0), 0x8000000000000000ull);
    in = ti(PTX_OP_div, PTX_T_s16, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x8000, 0xffff, 0), 0x8000);
    CHECK_EQ(RUN(in, 5, 0, 0), 0xffff);
}

static void test_abs_min_max(void) {
    exec_insn in = ti(PTX_OP_abs, PTX_T_s32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x80000000, 0, 0), 0x80000000);
    CHECK_EQ(RUN(in, 0xfffffffb, 0, 0), 5);
    in = ti(PTX_OP_neg, PTX_T_s64, 0, 0, 0);
    CHECK_EQ(RUN(in, 1, 0, 0), 0xffffffffffffffffull);
    in = ti(PTX_OP_min, PTX_T_s32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0xffffffff, 1, 0), 0xffffffff);
    in = ti(PTX_OP_min, PTX_T_u32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0xffffffff, 1, 0), 1);
    in = ti(PTX_OP_max, PTX_T_s32, 0, ALU_F_RELU, 0);
    CHECK_EQ(RUN(in, 0xfffffff0, 0xfffffff1, 0), 0);
    CHECK_EQ(RUN(in, 0xfffffff0, 3, 0), 3);
    in = ti(PTX_OP_min, PTX_T_s16x2, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x7fff0001, 0x8000ffff, 0), 0x8000ffff);
    in = ti(PTX_OP_max, PTX_T_u16x2, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x7fff0001, 0x8000ffff, 0), 0x8000ffff);
    in = ti(PTX_OP_max, PTX_T_s16x2, 0, ALU_F_RELU, 0);
    CHECK_EQ(RUN(in, 0xfff00005, 0xfff10002, 0), 0x00000005);
}

static void test_carry_chain(void) {
    /* 96-bit a + b = 0x00000001_ffffffff_ffffffff + 0x0_00000000_00000001 */
    test_warp t;
    tw_init(&t);
    exec_insn lo = ti(PTX_OP_add, PTX_T_u32, 0, EXEC_F_CC_OUT, 0);
    exec_insn mid = ti(PTX_OP_addc, PTX_T_u32, 0, EXEC_F_CC_IN | EXEC_F_CC_OUT, 0);
    exec_insn hi = ti(PTX_OP_addc, PTX_T_u32, 0, EXEC_F_CC_IN, 0);
    if (!TI_FN(lo) || !TI_FN(mid) || !TI_FN(hi)) return;
    lo.d[0] = 6; lo.a[0] = 1; lo.a[1] = 2;
    mid.d[0] = 7; mid.a[0] = 3; mid.a[1] = 4;
    hi.d[0] = 8; hi.a[0] = 5; hi.a[1] = 4;
    tw_fill(&t, 1, 0xffffffff); tw_fill(&t, 2, 1);
    tw_fill(&t, 3, 0xffffffff); tw_fill(&t, 4, 0);
    tw_fill(&t, 5, 1);
    tw_set(&t, 1, 9, 5);                       /* lane 9: no carry at all */
    lo.fn(&t.w, &lo, EXEC_FULL_MASK);
    mid.fn(&t.w, &mid, EXEC_FULL_MASK);
    hi.fn(&t.w, &hi, EXEC_FULL_MASK);
    CHECK_EQ(tw_get(&t, 6, 0), 0);
    CHECK_EQ(tw_get(&t, 7, 0), 0);
    CHECK_EQ(tw_get(&t, 8, 0), 2);
    CHECK_EQ(tw_get(&t, 6, 9), 6);
    CHECK_EQ(tw_get(&t, 7, 9), 0xffffffff);
    CHECK_EQ(tw_get(&t, 8, 9), 1);

    /* sub.cc / subc: the flag is the borrow */
    tw_init(&t);
    exec_insn s1 = ti(PTX_OP_sub, PTX_T_u64, 0, EXEC_F_CC_OUT, 0);
    exec_insn s2 = ti(PTX_OP_subc, PTX_T_u64, 0, EXEC_F_CC_IN, 0);
    if (!TI_FN(s1) || !TI_FN(s2)) return;
    s1.d[0] = 6; s2.d[0] = 7; s2.a[0] = 3; s2.a[1] = 4;
    tw_fill(&t, 1, 0); tw_fill(&t, 2, 1); tw_fill(&t, 3, 10); tw_fill(&t, 4, 2);
    s1.fn(&t.w, &s1, EXEC_FULL_MASK);
    s2.fn(&t.w, &s2, EXEC_FULL_MASK);
    CHECK_EQ(tw_get(&t, 6, 0), 0xffffffffffffffffull);
    CHECK_EQ(tw_get(&t, 7, 0), 7);                 /* 10 - 2 - borrow */

    /* mad.lo.cc + madc.hi: a full 32x32 -> 64 multiply-add */
    tw_init(&t);
    exec_insn m1 = ti(PTX_OP_mad, PTX_T_u32, 0, EXEC_F_CC_OUT, V(LO));
    exec_insn m2 = ti(PTX_OP_madc, PTX_T_u32, 0, EXEC_F_CC_IN, V(HI));
    if (!TI_FN(m1) || !TI_FN(m2)) return;
    m1.d[0] = 6; m2.d[0] = 7; m2.a[2] = 4;
    tw_fill(&t, 1, 0xffffffff); tw_fill(&t, 2, 0xffffffff); tw_fill(&t, 3, 0xffffffff);
    tw_fill(&t, 4, 0);
    m1.fn(&t.w, &m1, EXEC_FULL_MASK);
    m2.fn(&t.w, &m2, EXEC_FULL_MASK);
    /* 0xffffffff^2 + 0xffffffff = 0xffffffff_00000000 */
    CHECK_EQ(tw_get(&t, 6, 0), 0);
    CHECK_EQ(tw_get(&t, 7, 0), 0xffffffff);
}

static void test_dot(void) {
    exec_insn in = ti(PTX_OP_dp4a, PTX_T_s32, PTX_T_s32, 0, 0);
    /* bytes a = {4, 3, 2, 1}, b = {-1, 2, -3, 4} (low byte first): -4+6-6+4 = 0, + 10 */
    CHECK_EQ(RUN(in, 0x01020304, 0x04fd02ff, 10), 10);
    in = ti(PTX_OP_dp4a, PTX_T_u32, PTX_T_u32, 0, 0);
    CHECK_EQ(RUN(in, 0xffffffff, 0xffffffff, 0), 4u * 255 * 255);
    in = ti(PTX_OP_dp4a, PTX_T_u32, PTX_T_s32, 0, 0);
    CHECK_EQ(RUN(in, 0x000000ff, 0x000000ff, 0), 0xffffff01);   /* 255 * -1 */
    in = ti(PTX_OP_dp2a, PTX_T_s32, PTX_T_s32, 0, V(LO));
    /* a = {-2, 3} (16-bit), b low bytes {5, 7}: -10 + 21 = 11 */
    CHECK_EQ(RUN(in, 0x0003fffe, 0x11220705, 0), 11);
    in = ti(PTX_OP_dp2a, PTX_T_s32, PTX_T_s32, 0, V(HI));
    CHECK_EQ(RUN(in, 0x0003fffe, 0x11220705, 0), (uint32_t)(-2 * 0x22 + 3 * 0x11));
}

static void test_logic_shift(void) {
    exec_insn in = ti(PTX_OP_shl, PTX_T_b32, 0, 0, 0);
    CHECK_EQ(RUN(in, 1, 31, 0), 0x80000000);
    CHECK_EQ(RUN(in, 1, 32, 0), 0);
    CHECK_EQ(RUN(in, 1, 0xffffffff, 0), 0);
    in = ti(PTX_OP_shl, PTX_T_b16, 0, 0, 0);
    CHECK_EQ(RUN(in, 0xffff, 8, 0), 0xff00);
    CHECK_EQ(RUN(in, 0xffff, 16, 0), 0);
    in = ti(PTX_OP_shr, PTX_T_s32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x80000000, 31, 0), 0xffffffff);
    CHECK_EQ(RUN(in, 0x80000000, 100, 0), 0xffffffff);
    CHECK_EQ(RUN(in, 0x40000000, 100, 0), 0);
    in = ti(PTX_OP_shr, PTX_T_u32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x80000000, 32, 0), 0);
    in = ti(PTX_OP_shr, PTX_T_b64, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x8000000000000000ull, 63, 0), 1);
    in = ti(PTX_OP_shr, PTX_T_s16, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x8000, 20, 0), 0xffff);
    in = ti(PTX_OP_not, PTX_T_b16, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x00ff, 0, 0), 0xff00);
    in = ti(PTX_OP_cnot, PTX_T_b32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0, 0, 0), 1);
    CHECK_EQ(RUN(in, 5, 0, 0), 0);

    /* lop3: 0x96 = a^b^c, 0xe8 = majority, 0xf0 = a, 0xcc = b, 0xaa = c */
    in = ti(PTX_OP_lop3, PTX_T_b32, 0, 0, 0);
    in.imm = 0x96;
    CHECK_EQ(RUN(in, 0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa), 0x96969696);
    in.imm = 0xe8;
    CHECK_EQ(RUN(in, 0x0000ffff, 0x00ff00ff, 0x0f0f0f0f), 0x000f0fff);
    in.imm = 0xf0;
    CHECK_EQ(RUN(in, 0x12345678, 0xffffffff, 0), 0x12345678);
    in.imm = 0xaa;
    CHECK_EQ(RUN(in, 0, 0, 0xdeadbeef), 0xdeadbeef);

    /* shf: funnel shifts of {b:a} */
    in = ti(PTX_OP_shf, PTX_T_b32, 0, 0, V(L_WRAP));
    CHECK_EQ(RUN(in, 0x80000000, 0x00000001, 1), 0x00000003);
    CHECK_EQ(RUN(in, 0x80000000, 0x00000001, 33), 0x00000003);    /* 33 mod 32 */
    in = ti(PTX_OP_shf, PTX_T_b32, 0, 0, V(L_CLAMP));
    CHECK_EQ(RUN(in, 0x12345678, 0x9abcdef0, 40), 0x12345678);    /* n = 32: a */
    in = ti(PTX_OP_shf, PTX_T_b32, 0, 0, V(R_WRAP));
    CHECK_EQ(RUN(in, 0x00000001, 0x00000003, 1), 0x80000000);
    in = ti(PTX_OP_shf, PTX_T_b32, 0, 0, V(R_CLAMP));
    CHECK_EQ(RUN(in, 0x12345678, 0x9abcdef0, 32), 0x9abcdef0);
    CHECK_EQ(RUN(in, 0x12345678, 0x9abcdef0, 4), 0x01234567);
}

static void test_prmt(void) {
    /* bytes of {b:a}: a = 0x33221100 (b0..b3), b = 0x77665544 (b4..b7) */
    const uint64_t a = 0x33221100, b = 0x77665544;
    exec_insn in = ti(PTX_OP_prmt, PTX_T_b32, 0, 0, 0);
    CHECK_EQ(RUN(in, a, b, 0x3210), a);
    CHECK_EQ(RUN(in, a, b, 0x7654), b);
    CHECK_EQ(RUN(in, a, b, 0x4321), 0x44332211);
    CHECK_EQ(RUN(in, 0x00008000, 0, 0x0009), 0x000000ff);        /* sign of byte 1 */
    CHECK_EQ(RUN(in, 0x00008000, 0, 0x0008), 0x00000000);
    static const struct { unsigned var; uint32_t sel; uint32_t want; } modes[] = {
        { ALU_V_F4E, 1, 0x44332211 }, { ALU_V_F4E, 3, 0x66554433 },
        { ALU_V_B4E, 0, 0x55667700 }, { ALU_V_B4E, 2, 0x77001122 },
        { ALU_V_RC8, 2, 0x22222222 }, { ALU_V_ECL, 1, 0x33221111 },
        { ALU_V_ECR, 2, 0x22221100 }, { ALU_V_RC16, 1, 0x33223322 },
        { ALU_V_RC16, 2, 0x11001100 },
    };
    for (unsigned i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        in = ti(PTX_OP_prmt, PTX_T_b32, 0, 0, ALU_AUX(0, modes[i].var, 0));
        CHECK_EQ(RUN(in, a, b, modes[i].sel | 0x100), modes[i].want); /* c[1:0] only */
    }
}

static void test_bits(void) {
    exec_insn in = ti(PTX_OP_popc, PTX_T_b64, 0, 0, 0);
    CHECK_EQ(RUN(in, 0xffffffffffffffffull, 0, 0), 64);
    in = ti(PTX_OP_clz, PTX_T_b32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0, 0, 0), 32);
    CHECK_EQ(RUN(in, 1, 0, 0), 31);
    in = ti(PTX_OP_clz, PTX_T_b64, 0, 0, 0);
    CHECK_EQ(RUN(in, 0, 0, 0), 64);
    in = ti(PTX_OP_bfind, PTX_T_u32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0, 0, 0), 0xffffffff);
    CHECK_EQ(RUN(in, 0x00010000, 0, 0), 16);
    in = ti(PTX_OP_bfind, PTX_T_s32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0xffffffff, 0, 0), 0xffffffff);             /* -1: no non-sign bit */
    CHECK_EQ(RUN(in, 0xfffffff0, 0, 0), 3);
    in = ti(PTX_OP_bfind, PTX_T_u32, 0, ALU_F_SHIFTAMT, 0);
    CHECK_EQ(RUN(in, 0x00010000, 0, 0), 15);
    CHECK_EQ(RUN(in, 0, 0, 0), 0xffffffff);
    in = ti(PTX_OP_bfind, PTX_T_s64, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x8000000000000000ull, 0, 0), 62);
    in = ti(PTX_OP_brev, PTX_T_b32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x00000001, 0, 0), 0x80000000);
    CHECK_EQ(RUN(in, 0x12345678, 0, 0), 0x1e6a2c48);
    in = ti(PTX_OP_brev, PTX_T_b64, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x3, 0, 0), 0xc000000000000000ull);

    in = ti(PTX_OP_bfe, PTX_T_u32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x12345678, 4, 8), 0x67);
    CHECK_EQ(RUN(in, 0x12345678, 28, 8), 0x1);                   /* runs past bit 31 */
    CHECK_EQ(RUN(in, 0x12345678, 32, 8), 0);
    CHECK_EQ(RUN(in, 0x12345678, 0x104, 8), 0x67);                /* pos uses bits 7:0 */
    CHECK_EQ(RUN(in, 0x12345678, 4, 0), 0);
    in = ti(PTX_OP_bfe, PTX_T_s32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x00000080, 4, 4), 0xfffffff8);
    CHECK_EQ(RUN(in, 0x80000000, 28, 8), 0xfffffff8);            /* sign = a's msb */
    CHECK_EQ(RUN(in, 0x80000000, 40, 8), 0xffffffff);            /* all sign */
    CHECK_EQ(RUN(in, 0x7fffffff, 40, 8), 0);
    CHECK_EQ(RUN(in, 0x80000000, 0, 0), 0);
    in = ti(PTX_OP_bfe, PTX_T_s64, 0, 0, 0);
    CHECK_EQ(RUN(in, 0x0000000080000000ull, 28, 4), 0xfffffffffffffff8ull);

    /* bfi d, a, b, pos, len: sources in slots 1-4 */
    in = ti(PTX_OP_bfi, PTX_T_b32, 0, 0, 0);
    if (TI_FN(in)) {
        test_warp t;
        tw_init(&t);
        static const struct { uint32_t a, b, pos, len, want; } bfi[] = {
            { 0xff, 0x12345678, 8, 4, 0x12345f78 },
            { 0xff, 0x12345678, 28, 8, 0xf2345678 },
            { 0xff, 0x12345678, 32, 8, 0x12345678 },
            { 0xff, 0x12345678, 8, 0, 0x12345678 },
            { 0xffffffff, 0, 0, 32, 0xffffffff },
            { 0xffffffff, 0, 0x100, 0x104, 0xf },                  /* 8-bit fields */
        };
        for (unsigned i = 0; i < sizeof bfi / sizeof bfi[0]; i++) {
            tw_fill(&t, 1, bfi[i].a); tw_fill(&t, 2, bfi[i].b);
            tw_fill(&t, 3, bfi[i].pos); tw_fill(&t, 4, bfi[i].len);
            in.fn(&t.w, &in, EXEC_FULL_MASK);
            CHECK_EQ(tw_get(&t, 0, 0), bfi[i].want);
        }
    }

    in = ti(PTX_OP_bmsk, PTX_T_b32, 0, 0, V(WRAP));
    CHECK_EQ(RUN(in, 1, 2, 0), 0x00000006);                       /* the ISA's example */
    CHECK_EQ(RUN(in, 0, 32, 0), 0);                               /* b wraps to 0: empty */
    in = ti(PTX_OP_bmsk, PTX_T_b32, 0, 0, V(CLAMP));
    CHECK_EQ(RUN(in, 0, 32, 0), 0xffffffff);
    CHECK_EQ(RUN(in, 32, 4, 0), 0);
    CHECK_EQ(RUN(in, 28, 8, 0), 0xf0000000);
    in = ti(PTX_OP_szext, PTX_T_s32, 0, 0, V(CLAMP));
    CHECK_EQ(RUN(in, 0x80, 8, 0), 0xffffff80);
    CHECK_EQ(RUN(in, 0x12345678, 40, 0), 0x12345678);
    CHECK_EQ(RUN(in, 0x12345678, 0, 0), 0);
    in = ti(PTX_OP_szext, PTX_T_u32, 0, 0, V(WRAP));
    CHECK_EQ(RUN(in, 0xffffffff, 0, 0), 0);                       /* the ISA's example */
    CHECK_EQ(RUN(in, 0xffffffff, 36, 0), 0xf);

    /* fns: the ISA's examples */
    in = ti(PTX_OP_fns, PTX_T_b32, 0, 0, 0);
    CHECK_EQ(RUN(in, 0xaaaaaaaa, 3, 1), 3);
    CHECK_EQ(RUN(in, 0xaaaaaaaa, 3, 0xffffffff), 3);
    CHECK_EQ(RUN(in, 0xaaaaaaaa, 2, 1), 3);
    CHECK_EQ(RUN(in, 0xaaaaaaaa, 2, 0xffffffff), 1);
    CHECK_EQ(RUN(in, 0xaaaaaaaa, 2, 0), 0xffffffff);
    CHECK_EQ(RUN(in, 0xaaaaaaaa, 0, 16), 31);
    CHECK_EQ(RUN(in, 0xaaaaaaaa, 0, 17), 0xffffffff);
}

static void test_pred_logic(void) {
    test_warp t;
    tw_init(&t);
    exec_insn in = ti(PTX_OP_and, PTX_T_pred, 0, ALU_F_NEG_A1, 0);
    in.d[0] = 0; in.a[0] = 1; in.a[1] = 2;
    if (!TI_FN(in)) return;
    t.P[0] = 0xffff0000; t.P[1] = 0x0f0f0f0f; t.P[2] = 0x00ff00ff;
    in.fn(&t.w, &in, 0x0000ffff);                 /* upper lanes keep P[0] */
    CHECK_EQ(t.P[0], 0xffff0f00);
    exec_insn n = ti(PTX_OP_not, PTX_T_pred, 0, 0, 0);
    n.d[0] = 3; n.a[0] = 1;
    if (!TI_FN(n)) return;
    n.fn(&t.w, &n, EXEC_FULL_MASK);
    CHECK_EQ(t.P[3], 0xf0f0f0f0);
}

int main(void) {
    test_add_sub_mul();
    test_div_rem();
    test_abs_min_max();
    test_carry_chain();
    test_dot();
    test_logic_shift();
    test_prmt();
    test_bits();
    test_pred_logic();
    return alu_report("test_alu_int");
}
