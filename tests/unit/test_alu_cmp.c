/* tests/unit/test_alu_cmp.c — setp/set/selp/slct/testp handlers: ordered and unordered
 * float comparisons with NaN, signed vs unsigned, .ftz, the p|q destination, the
 * .and/.or/.xor combination with a (negated) predicate, f16/f16x2/bf16, set's values. */
#include "test_alu_harness.h"

#define CMP(op, t, var, boolop, flags) \
    ti(PTX_OP_##op, PTX_T_##t, 0, (flags), ALU_AUX(0, ALU_V_##var, (boolop)))

static void test_float_compare(void) {
    const uint32_t nan = 0x7fc00000, one = 0x3f800000, two = 0x40000000;
    static const struct { unsigned var; unsigned lt, eq, gt, un; } t[] = {
        /* result for (1 < 2), (1 == 1), (2 > 1) and (NaN vs 1) */
        { ALU_V_EQ, 0, 1, 0, 0 },  { ALU_V_NE, 1, 0, 1, 0 },  { ALU_V_LT, 1, 0, 0, 0 },
        { ALU_V_LE, 1, 1, 0, 0 },  { ALU_V_GT, 0, 0, 1, 0 },  { ALU_V_GE, 0, 1, 1, 0 },
        { ALU_V_EQU, 0, 1, 0, 1 }, { ALU_V_NEU, 1, 0, 1, 1 }, { ALU_V_LTU, 1, 0, 0, 1 },
        { ALU_V_LEU, 1, 1, 0, 1 }, { ALU_V_GTU, 0, 0, 1, 1 }, { ALU_V_GEU, 0, 1, 1, 1 },
        { ALU_V_NUM, 1, 1, 1, 0 }, { ALU_V_NAN, 0, 0, 0, 1 },
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        exec_insn in = ti(PTX_OP_setp, PTX_T_f32, 0, 0, ALU_AUX(0, t[i].var, 0));
        CHECK_EQ(RUNP(in, one, two, 0), t[i].lt);
        CHECK_EQ(RUNP(in, one, one, 0), t[i].eq);
        CHECK_EQ(RUNP(in, two, one, 0), t[i].gt);
        CHECK_EQ(RUNP(in, nan, one, 0), t[i].un);
        CHECK_EQ(RUNP(in, one, nan, 0), t[i].un);
        in = ti(PTX_OP_setp, PTX_T_f64, 0, 0, ALU_AUX(0, t[i].var, 0));
        CHECK_EQ(RUNP(in, db(1.0), db(2.0), 0), t[i].lt);
        CHECK_EQ(RUNP(in, 0x7ff8000000000000ull, db(1.0), 0), t[i].un);
    }
    exec_insn in = CMP(setp, f32, EQ, 0, 0);
    CHECK_EQ(RUNP(in, 0x80000000, 0, 0), 1);                       /* -0 == +0 */
    in = CMP(setp, f32, LT, 0, 0);
    CHECK_EQ(RUNP(in, 0x80000001, 0, 0), 1);                       /* -denormal < 0 */
    in = CMP(setp, f32, LT, 0, EXEC_F_FTZ);
    CHECK_EQ(RUNP(in, 0x80000001, 0, 0), 0);                       /* flushed: -0 < 0 no */
}

static void test_int_compare(void) {
    exec_insn in = CMP(setp, s32, LT, 0, 0);
    CHECK_EQ(RUNP(in, 0xffffffff, 0, 0), 1);
    in = CMP(setp, u32, LT, 0, 0);
    CHECK_EQ(RUNP(in, 0xffffffff, 0, 0), 0);
    in = CMP(setp, u32, HI_CMP, 0, 0);
    CHECK_EQ(RUNP(in, 0xffffffff, 0, 0), 1);
    in = CMP(setp, b32, LS, 0, 0);
    CHECK_EQ(RUNP(in, 0, 0xffffffff, 0), 1);
    in = CMP(setp, s16, GE, 0, 0);
    CHECK_EQ(RUNP(in, 0x8000, 0x7fff, 0), 0);
    in = CMP(setp, s64, GT, 0, 0);
    CHECK_EQ(RUNP(in, 1, 0x8000000000000000ull, 0), 1);
    /* slots hold zero-extended values; a comparison reads its type's width */
    in = CMP(setp, s32, EQ, 0, 0);
    CHECK_EQ(RUNP(in, 0xffffffff, 0xffffffffffffffffull, 0), 1);
    /* illegal spellings have no handler */
    in = CMP(setp, s32, LO_CMP, 0, 0);
    CHECK(exec_alu_lookup(&in) == NULL);
    in = CMP(setp, b32, LT, 0, 0);
    CHECK(exec_alu_lookup(&in) == NULL);
    in = CMP(setp, u32, NAN, 0, 0);
    CHECK(exec_alu_lookup(&in) == NULL);
}

static void test_combine(void) {
    /* p = t op c, q = !t op c */
    exec_insn in = CMP(setp, s32, LT, ALU_BOOL_NONE, EXEC_F_D2_PRED);
    CHECK_EQ(RUNP(in, 1, 2, 0), 1 | 0 << 1);
    CHECK_EQ(RUNP(in, 3, 2, 0), 0 | 1 << 1);
    in = CMP(setp, s32, LT, ALU_BOOL_AND, EXEC_F_D2_PRED);
    CHECK_EQ(RUNP(in, 1, 2, 1), 1 | 0 << 1);
    CHECK_EQ(RUNP(in, 1, 2, 0), 0 | 0 << 1);
    CHECK_EQ(RUNP(in, 3, 2, 1), 0 | 1 << 1);
    in = CMP(setp, s32, LT, ALU_BOOL_OR, EXEC_F_D2_PRED);
    CHECK_EQ(RUNP(in, 3, 2, 1), 1 | 1 << 1);
    CHECK_EQ(RUNP(in, 3, 2, 0), 0 | 1 << 1);
    in = CMP(setp, s32, LT, ALU_BOOL_XOR, EXEC_F_D2_PRED);
    CHECK_EQ(RUNP(in, 1, 2, 1), 0 | 1 << 1);
    in = CMP(setp, s32, LT, ALU_BOOL_AND, EXEC_F_D2_PRED | EXEC_F_NEG_A2);
    CHECK_EQ(RUNP(in, 1, 2, 0), 1 | 0 << 1);                       /* and !c, c = 0 */

    /* the combining predicate may be the destination itself; other lanes are kept */
    test_warp t;
    tw_init(&t);
    in = CMP(setp, s32, LT, ALU_BOOL_AND, 0);
    in.d[0] = 0; in.a[2] = 0;
    if (TI_FN(in)) {
        for (uint32_t l = 0; l < 32; l++) { tw_set(&t, 1, l, l); tw_set(&t, 2, l, 16); }
        t.P[0] = 0xaaaaaaaa;
        in.fn(&t.w, &in, 0x00ffffff);
        /* lanes < 16 with P set, lanes 24-31 untouched */
        CHECK_EQ(t.P[0], 0x0000aaaa | 0xaa000000);
    }
}

static void test_half_compare(void) {
    exec_insn in = CMP(setp, f16, LT, 0, 0);
    CHECK_EQ(RUNP(in, 0x3c00, 0x4000, 0), 1);
    CHECK_EQ(RUNP(in, 0x7e00, 0x4000, 0), 0);
    in = CMP(setp, f16, LT, 0, EXEC_F_FTZ);
    CHECK_EQ(RUNP(in, 0x8001, 0, 0), 0);
    in = CMP(setp, bf16, GTU, 0, 0);
    CHECK_EQ(RUNP(in, 0x7fc1, 0x3f80, 0), 1);
    /* f16x2: p from the lower halves, q from the upper ones */
    in = CMP(setp, f16x2, LT, 0, EXEC_F_D2_PRED);
    CHECK_EQ(RUNP(in, 0x40003c00, 0x3c004000, 0), 1 | 0 << 1);
    CHECK_EQ(RUNP(in, 0x3c004000, 0x40003c00, 0), 0 | 1 << 1);
}

static void test_set_selp_slct(void) {
    exec_insn in = ti(PTX_OP_set, PTX_T_u32, PTX_T_f32, 0, ALU_AUX(0, ALU_V_LT, 0));
    CHECK_EQ(RUN(in, 0x3f800000, 0x40000000, 0), 0xffffffff);
    CHECK_EQ(RUN(in, 0x40000000, 0x3f800000, 0), 0);
    in = ti(PTX_OP_set, PTX_T_u16, PTX_T_s32, 0, ALU_AUX(0, ALU_V_EQ, 0));
    CHECK_EQ(RUN(in, 7, 7, 0), 0xffff);
    /* .f32 results: the integer 1, as the H100 writes it */
    in = ti(PTX_OP_set, PTX_T_f32, PTX_T_s32, 0, ALU_AUX(0, ALU_V_EQ, 0));
    CHECK_EQ(RUN(in, 7, 7, 0), 1);
    /* pair sources: a result per half */
    in = ti(PTX_OP_set, PTX_T_f16x2, PTX_T_f16x2, 0, ALU_AUX(0, ALU_V_LT, 0));
    CHECK_EQ(RUN(in, 0x40003c00, 0x3c004000, 0), 0x00003c00);
    in = ti(PTX_OP_set, PTX_T_u32, PTX_T_f16x2, 0, ALU_AUX(0, ALU_V_LT, 0));
    CHECK_EQ(RUN(in, 0x3c004000, 0x40003c00, 0), 0xffff0000);

    in = ti(PTX_OP_selp, PTX_T_b32, 0, 0, 0);
    if (TI_FN(in)) {
        test_warp t;
        tw_init(&t);
        tw_fill(&t, 1, 111);
        tw_fill(&t, 2, 222);
        t.P[3] = 0x0000ffff;
        in.a[2] = 3;
        in.fn(&t.w, &in, EXEC_FULL_MASK);
        CHECK_EQ(tw_get(&t, 0, 0), 111);
        CHECK_EQ(tw_get(&t, 0, 31), 222);
    }
    in = ti(PTX_OP_slct, PTX_T_b32, PTX_T_s32, 0, 0);
    CHECK_EQ(RUN(in, 1, 2, 0), 1);
    CHECK_EQ(RUN(in, 1, 2, 0xffffffff), 2);
    in = ti(PTX_OP_slct, PTX_T_f32, PTX_T_f32, 0, 0);
    CHECK_EQ(RUN(in, 1, 2, 0x80000000), 1);                        /* -0 >= 0 */
    CHECK_EQ(RUN(in, 1, 2, 0x7fc00000), 2);                        /* NaN */
    CHECK_EQ(RUN(in, 1, 2, 0x80000001), 2);
    in = ti(PTX_OP_slct, PTX_T_f32, PTX_T_f32, EXEC_F_FTZ, 0);
    CHECK_EQ(RUN(in, 1, 2, 0x80000001), 1);                        /* flushed to -0 */
}

static void test_testp(void) {
    static const uint32_t v[] = { 0, 0x80000000, 0x00000001, 0x3f800000, 0x7f800000,
                                  0xff800000, 0x7fc00000, 0x7f800001 };
    /* finite, infinite, number, notanumber, normal (zeros count), subnormal */
    static const unsigned want[8][6] = {
        { 1, 0, 1, 0, 1, 0 }, { 1, 0, 1, 0, 1, 0 }, { 1, 0, 1, 0, 0, 1 }, { 1, 0, 1, 0, 1, 0 },
        { 0, 1, 1, 0, 0, 0 }, { 0, 1, 1, 0, 0, 0 }, { 0, 0, 0, 1, 0, 0 }, { 0, 0, 0, 1, 0, 0 },
    };
    for (unsigned i = 0; i < 8; i++)
        for (unsigned c = 0; c < 6; c++) {
            exec_insn in = ti(PTX_OP_testp, PTX_T_f32, 0, 0, ALU_AUX(0, ALU_V_FINITE + c, 0));
            CHECK_EQ(RUNP(in, v[i], 0, 0), want[i][c]);
            in = ti(PTX_OP_testp, PTX_T_f64, 0, 0, ALU_AUX(0, ALU_V_FINITE + c, 0));
            CHECK_EQ(RUNP(in, db((double)bf(v[i])), 0, 0),
                     i == 2 ? 1u * (c == 0 || c == 2 || c == 4) : want[i][c]);
        }
}

int main(void) {
    test_float_compare();
    test_int_compare();
    test_combine();
    test_half_compare();
    test_set_selp_slct();
    test_testp();
    return alu_report("test_alu_cmp");
}
