/* tests/unit/test_alu_warp.c — warp collectives on a hand-made warp: shfl in every mode
 * with clamps, segments (width < 32) and the in-range predicate, sources that are not
 * executing; vote all/any/uni/ballot; match any/all; redux; elect; activemask; and the
 * record of membermasks that do not fit the executing lanes. */
#include "test_alu_harness.h"

#define WOP(op, t, var, flags) ti(PTX_OP_##op, PTX_T_##t, 0, (flags), ALU_AUX(0, ALU_V_##var, 0))

/* shfl with value lane*10+1 in slot 1, b in slot 2, c in slot 3, membermask in slot 4;
 * d in slot 0, p in predicate 5. */
static void run_shfl(test_warp *t, exec_insn *in, uint32_t b, uint32_t c, uint32_t mask) {
    tw_init(t);
    for (uint32_t l = 0; l < 32; l++) tw_set(t, 1, l, l * 10 + 1);
    tw_fill(t, 2, b);
    tw_fill(t, 3, c);
    tw_fill(t, 4, mask);
    tw_fill(t, 0, 0xdead);
    in->d[1] = 5;
    in->fn(&t->w, in, mask);
}

static void test_shfl(void) {
    test_warp t;
    exec_insn in = WOP(shfl, b32, IDX, EXEC_F_D2_PRED);
    if (!TI_FN(in)) return;
    run_shfl(&t, &in, 5, 0x1f, EXEC_FULL_MASK);                    /* broadcast lane 5 */
    for (uint32_t l = 0; l < 32; l++) CHECK_EQ(tw_get(&t, 0, l), 51);
    CHECK_EQ(t.P[5], EXEC_FULL_MASK);
    run_shfl(&t, &in, 2, (24u << 8) | 0x1f, EXEC_FULL_MASK);       /* width 8: lane 2 of each */
    CHECK_EQ(tw_get(&t, 0, 13), 8 * 10 + 2 * 10 + 1);
    CHECK_EQ(tw_get(&t, 0, 31), 24 * 10 + 2 * 10 + 1);
    run_shfl(&t, &in, 37, 0x1f, EXEC_FULL_MASK);                   /* b uses bits 4:0 */
    CHECK_EQ(tw_get(&t, 0, 0), 51);

    in = WOP(shfl, b32, UP, EXEC_F_D2_PRED);
    if (!TI_FN(in)) return;
    run_shfl(&t, &in, 1, 0, EXEC_FULL_MASK);
    CHECK_EQ(tw_get(&t, 0, 0), 1);                                 /* own value */
    CHECK_EQ(tw_get(&t, 0, 7), 61);
    CHECK_EQ(t.P[5], 0xfffffffe);
    run_shfl(&t, &in, 2, 24u << 8, EXEC_FULL_MASK);                /* width 8 */
    CHECK_EQ(tw_get(&t, 0, 9), 91);                                /* lane 9 - 2 < 8: own */
    CHECK_EQ(tw_get(&t, 0, 10), 81);
    CHECK_EQ(t.P[5], 0xfcfcfcfc);

    in = WOP(shfl, b32, DOWN, EXEC_F_D2_PRED);
    if (!TI_FN(in)) return;
    run_shfl(&t, &in, 16, 0x1f, EXEC_FULL_MASK);
    CHECK_EQ(tw_get(&t, 0, 3), 191);
    CHECK_EQ(tw_get(&t, 0, 20), 201);
    CHECK_EQ(t.P[5], 0x0000ffff);
    run_shfl(&t, &in, 1, (28u << 8) | 0x1f, EXEC_FULL_MASK);       /* width 4 */
    CHECK_EQ(tw_get(&t, 0, 3), 31);
    CHECK_EQ(tw_get(&t, 0, 4), 51);
    CHECK_EQ(t.P[5], 0x77777777);

    in = WOP(shfl, b32, BFLY, 0);
    if (!TI_FN(in)) return;
    run_shfl(&t, &in, 1, 0x1f, EXEC_FULL_MASK);
    CHECK_EQ(tw_get(&t, 0, 6), 71);
    CHECK_EQ(tw_get(&t, 0, 7), 61);
    run_shfl(&t, &in, 16, 0x0f, EXEC_FULL_MASK);                   /* clamp at lane 15 */
    CHECK_EQ(tw_get(&t, 0, 0), 1);                                 /* 16 > 15: own */

    /* a source lane that is not executing gives 0; lanes outside the mask are untouched */
    in = WOP(shfl, b32, DOWN, EXEC_F_D2_PRED);
    if (!TI_FN(in)) return;
    run_shfl(&t, &in, 1, 0x1f, 0x55555555);
    CHECK_EQ(tw_get(&t, 0, 0), 0);
    CHECK_EQ(t.P[5] & 1u, 1);
    CHECK_EQ(tw_get(&t, 0, 1), 0xdead);
    /* d may be the source register: every lane reads the old values */
    in = WOP(shfl, b32, BFLY, 0);
    if (!TI_FN(in)) return;
    in.d[0] = 1;
    run_shfl(&t, &in, 1, 0x1f, EXEC_FULL_MASK);
    CHECK_EQ(tw_get(&t, 1, 0), 11);
    CHECK_EQ(tw_get(&t, 1, 1), 1);
}

static void test_vote(void) {
    test_warp t;
    exec_insn all = WOP(vote, pred, ALL, EXEC_F_D_PRED), any = WOP(vote, pred, ANY, EXEC_F_D_PRED);
    exec_insn uni = WOP(vote, pred, UNI, EXEC_F_D_PRED), bal = WOP(vote, b32, BALLOT, 0);
    exec_insn nall = WOP(vote, pred, ALL, EXEC_F_D_PRED | ALU_F_NEG_A0);
    exec_insn *v[] = { &all, &any, &uni, &bal, &nall };
    for (unsigned i = 0; i < 5; i++) {
        if (!TI_FN(*v[i])) return;
        v[i]->d[0] = i == 3 ? 0 : 4;
        v[i]->a[0] = 1;                      /* source predicate 1 */
        v[i]->a[1] = 2;                      /* membermask slot 2 */
    }
    static const struct { uint32_t src, mask; unsigned all, any, uni, nall; } c[] = {
        { 0xffffffff, EXEC_FULL_MASK, 1, 1, 1, 0 },
        { 0x0000ffff, EXEC_FULL_MASK, 0, 1, 0, 0 },
        { 0x0000ffff, 0x00000fff, 1, 1, 1, 0 },    /* only executing lanes count */
        { 0x0000ffff, 0xffff0000, 0, 0, 1, 1 },
        { 0, EXEC_FULL_MASK, 0, 0, 1, 1 },
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        tw_init(&t);
        t.P[1] = c[i].src;
        tw_fill(&t, 2, c[i].mask);
        for (unsigned k = 0; k < 5; k++) v[k]->fn(&t.w, v[k], c[i].mask);
        const uint32_t lane = (uint32_t)__builtin_ctz(c[i].mask);
        CHECK_EQ((t.P[4] >> lane) & 1u, c[i].nall);
        CHECK_EQ(tw_get(&t, 0, lane), c[i].src & c[i].mask);
        t.P[4] = 0;
        all.fn(&t.w, &all, c[i].mask);
        CHECK_EQ(t.P[4], c[i].all ? c[i].mask : 0);
        any.fn(&t.w, &any, c[i].mask);
        CHECK_EQ(t.P[4], c[i].any ? c[i].mask : 0);
        uni.fn(&t.w, &uni, c[i].mask);
        CHECK_EQ(t.P[4], c[i].uni ? c[i].mask : 0);
    }
}

static void test_match_redux_elect(void) {
    test_warp t;
    exec_insn any = WOP(match, b32, ANY, 0), all = WOP(match, b64, ALL, EXEC_F_D2_PRED);
    if (!TI_FN(any) || !TI_FN(all)) return;
    tw_init(&t);
    for (uint32_t l = 0; l < 32; l++) tw_set(&t, 1, l, l % 3);
    tw_fill(&t, 2, EXEC_FULL_MASK);
    any.fn(&t.w, &any, EXEC_FULL_MASK);
    CHECK_EQ(tw_get(&t, 0, 0), 0x49249249);                        /* lanes 0, 3, 6, ... */
    CHECK_EQ(tw_get(&t, 0, 4), 0x92492492);
    all.fn(&t.w, &all, EXEC_FULL_MASK);
    CHECK_EQ(tw_get(&t, 0, 0), 0);
    CHECK_EQ(t.P[5], 0);
    /* 64-bit values differing only in the upper word */
    for (uint32_t l = 0; l < 32; l++) tw_set(&t, 1, l, 7 | ((uint64_t)(l < 16) << 40));
    all.fn(&t.w, &all, 0x0000ffff);
    CHECK_EQ(tw_get(&t, 0, 3), 0x0000ffff);
    CHECK_EQ(t.P[5], 0x0000ffff);
    all.fn(&t.w, &all, EXEC_FULL_MASK);
    CHECK_EQ(t.P[5], 0);

    static const struct { unsigned var; ptx_type t; uint32_t want; } rx[] = {
        { ALU_V_ADD, PTX_T_s32, (uint32_t)(-16 * 32 + 496) },
        { ALU_V_MIN, PTX_T_s32, (uint32_t)-16 },
        { ALU_V_MAX, PTX_T_s32, 15 }, { ALU_V_MIN, PTX_T_u32, 0 },
        { ALU_V_MAX, PTX_T_u32, 0xffffffff /* -1 */ }, { ALU_V_AND, PTX_T_b32, 0 },
        { ALU_V_OR, PTX_T_b32, 0xffffffff }, { ALU_V_XOR, PTX_T_b32, 0 },
    };
    for (unsigned i = 0; i < sizeof rx / sizeof rx[0]; i++) {
        exec_insn in = ti(PTX_OP_redux, rx[i].t, 0, 0, ALU_AUX(0, rx[i].var, 0));
        if (!TI_FN(in)) continue;
        tw_init(&t);
        for (uint32_t l = 0; l < 32; l++) tw_set(&t, 1, l, (uint32_t)((int32_t)l - 16));
        tw_fill(&t, 2, EXEC_FULL_MASK);
        in.fn(&t.w, &in, EXEC_FULL_MASK);
        CHECK_EQ(tw_get(&t, 0, 9), rx[i].want);
    }
    exec_insn in = ti(PTX_OP_redux, PTX_T_u32, 0, 0, ALU_AUX(0, ALU_V_ADD, 0));
    if (TI_FN(in)) {
        tw_init(&t);
        tw_fill(&t, 1, 5);
        tw_fill(&t, 2, 0x000000f0);
        in.fn(&t.w, &in, 0x000000f0);
        CHECK_EQ(tw_get(&t, 0, 4), 20);
    }

    in = ti(PTX_OP_elect, PTX_T_NONE, 0, EXEC_F_D2_PRED, 0);
    if (TI_FN(in)) {
        tw_init(&t);
        in.a[0] = 2;
        tw_fill(&t, 2, 0xfffffff0);
        in.fn(&t.w, &in, 0xfffffff0);
        CHECK_EQ(tw_get(&t, 0, 9), 4);
        CHECK_EQ(t.P[5], 0x00000010);
    }
    in = ti(PTX_OP_activemask, PTX_T_b32, 0, 0, 0);
    if (TI_FN(in)) {
        tw_init(&t);
        in.fn(&t.w, &in, 0x00ff00ff);
        CHECK_EQ(tw_get(&t, 0, 0), 0x00ff00ff);
        CHECK_EQ(tw_get(&t, 0, 8), 0);
    }
}

static void test_membermask_record(void) {
    test_warp t;
    exec_insn in = WOP(vote, b32, BALLOT, 0);
    if (!TI_FN(in)) return;
    in.a[0] = 1;
    in.a[1] = 2;
    tw_init(&t);
    t.w.alive = 0x7fffffff;                                          /* lane 31 has exited */
    tw_fill(&t, 2, EXEC_FULL_MASK);
    in.fn(&t.w, &in, 0x0000ffff);
    CHECK(t.w.sync_mask_insn == &in);
    CHECK_EQ(t.w.sync_mask_missing, 0x7fff0000);                    /* exited lane excused */
    CHECK_EQ(t.w.sync_mask_excluded, 0);
    /* only the first problem is kept */
    exec_insn other = in;
    tw_fill(&t, 2, 0x0000000f);
    other.fn(&t.w, &other, 0x000000ff);
    CHECK(t.w.sync_mask_insn == &in);
    /* a lane left out of its own membermask */
    tw_init(&t);
    tw_fill(&t, 2, 0x0000000f);
    in.fn(&t.w, &in, 0x000000ff);
    CHECK(t.w.sync_mask_insn == &in);
    CHECK_EQ(t.w.sync_mask_excluded, 0x000000f0);
    CHECK_EQ(tw_get(&t, 0, 7), 0);                                  /* only 0-3 take part */
    /* a fitting membermask records nothing */
    tw_init(&t);
    tw_fill(&t, 2, 0x000000ff);
    in.fn(&t.w, &in, 0x000000ff);
    CHECK(t.w.sync_mask_insn == NULL);
}

int main(void) {
    test_shfl();
    test_vote();
    test_match_redux_elect();
    test_membermask_record();
    return alu_report("test_alu_warp");
}
