/* test_prof_hooks.c — the executor's hooks fill the counters; counters of several
 * workers merge by addition; instruction classes and memory rows. */
#include <string.h>
#include "prof/hooks.h"
#include "prof_test.h"

#define FULL 0xffffffffu

static prof_rules h100_rules(void)
{
    gpu_preset p = { .key = "h100", .major = 9 };
    return prof_rules_for(&p);
}

static void test_insn_and_branch(void)
{
    prof_rules rules = h100_rules();
    prof_recorder rec;
    prof_recorder_init(&rec, &rules);

    /* a full warp, then half a warp with a guard that holds on 4 lanes, then a guard
     * false everywhere (still executed) */
    prof_on_insn(&rec, PROF_CLASS_FP32, FULL, FULL);
    prof_on_insn(&rec, PROF_CLASS_INTEGER, 0x0000ffffu, 0x0000000fu);
    prof_on_insn(&rec, PROF_CLASS_INTEGER, 0x0000ffffu, 0);
    EXPECT_EQ(rec.c.inst_executed, 3);
    EXPECT_EQ(rec.c.thread_inst_executed, 32 + 16 + 16);
    EXPECT_EQ(rec.c.thread_inst_pred_on, 32 + 4);
    EXPECT_EQ(rec.c.inst_by_class[PROF_CLASS_INTEGER], 2);
    EXPECT_EQ(rec.c.thread_inst_by_class[PROF_CLASS_INTEGER], 4);
    EXPECT_EQ(rec.c.thread_inst_by_class[PROF_CLASS_FP32], 32);

    /* uniform taken, uniform not taken, divergent, taken lanes outside active ignored */
    prof_on_branch(&rec, FULL, FULL);
    prof_on_branch(&rec, FULL, 0);
    prof_on_branch(&rec, FULL, 0x0000ffffu);
    prof_on_branch(&rec, 0x0000ffffu, 0xffff0000u);
    prof_on_branch_multi(&rec, 1);
    prof_on_branch_multi(&rec, 3);
    EXPECT_EQ(rec.c.branches, 6);
    EXPECT_EQ(rec.c.divergent_branches, 2);

    /* residency: 10 cycles with 48 warps, 5 idle cycles */
    prof_on_sm_interval(&rec, 48, 10);
    prof_on_sm_interval(&rec, 0, 5);
    EXPECT_EQ(rec.c.sm_elapsed_cycles, 15);
    EXPECT_EQ(rec.c.sm_active_cycles, 10);
    EXPECT_EQ(rec.c.warps_active_cycles, 480);
}

static void test_mem(void)
{
    prof_rules rules = h100_rules();
    prof_recorder rec;
    prof_recorder_init(&rec, &rules);
    uint64_t a[32];
    for (int i = 0; i < 32; i++)
        a[i] = 0x100000 + (uint64_t)i * 4;

    prof_on_mem(&rec, PROF_SPACE_GLOBAL, PROF_ACCESS_LOAD, a, FULL, 4);
    prof_on_mem(&rec, PROF_SPACE_GLOBAL, PROF_ACCESS_LOAD, a, 0, 4);  /* guard off */
    const prof_mem_counts *g = &rec.c.mem[PROF_MEM_GLOBAL_LD];
    EXPECT_EQ(g->inst, 2);
    EXPECT_EQ(g->requests, 1);
    EXPECT_EQ(g->sectors, 4);
    EXPECT_EQ(g->transactions, 4);
    EXPECT_EQ(g->bytes_requested, 128);
    EXPECT_EQ(g->bytes_used, 128);
    EXPECT_EQ(g->bytes_transferred, 128);

    for (int i = 0; i < 32; i++)
        a[i] = (uint64_t)i * 8;  /* shared, stride 2 words: 2-way */
    prof_on_mem(&rec, PROF_SPACE_SHARED, PROF_ACCESS_STORE, a, FULL, 4);
    const prof_mem_counts *s = &rec.c.mem[PROF_MEM_SHARED_ST];
    EXPECT_EQ(s->inst, 1);
    EXPECT_EQ(s->requests, 1);
    EXPECT_EQ(s->transactions, 2);
    EXPECT_EQ(s->ideal_transactions, 1);
    EXPECT_EQ(s->sass_wavefronts, 2);
    EXPECT_EQ(s->bytes_transferred, 256);

    prof_on_mem(&rec, PROF_SPACE_SHARED, PROF_ACCESS_REDUCTION, a, FULL, 4);
    EXPECT_EQ(rec.c.mem[PROF_MEM_SHARED_ATOM].inst, 1);
    prof_on_mem(&rec, PROF_SPACE_GLOBAL, PROF_ACCESS_REDUCTION, a, FULL, 4);
    EXPECT_EQ(rec.c.mem[PROF_MEM_GLOBAL_RED].transactions, 2);  /* 2 lines of 128 B */

    /* there are no local atomics: nothing is counted */
    prof_counters before = rec.c;
    prof_on_mem(&rec, PROF_SPACE_LOCAL, PROF_ACCESS_ATOMIC, a, FULL, 4);
    EXPECT_EQ(memcmp(&before, &rec.c, sizeof before), 0);
}

static void test_merge(void)
{
    prof_rules rules = h100_rules();
    prof_recorder w1, w2;
    prof_recorder_init(&w1, &rules);
    prof_recorder_init(&w2, &rules);
    uint64_t a[32] = {0};
    prof_on_insn(&w1, PROF_CLASS_LDST, FULL, FULL);
    prof_on_mem(&w1, PROF_SPACE_GLOBAL, PROF_ACCESS_STORE, a, FULL, 4);
    prof_on_insn(&w2, PROF_CLASS_LDST, FULL, 1);
    prof_on_mem(&w2, PROF_SPACE_GLOBAL, PROF_ACCESS_STORE, a, 1, 4);
    prof_on_branch(&w2, FULL, 1);
    prof_on_sm_interval(&w2, 3, 7);

    prof_counters sum;
    prof_counters_clear(&sum);
    prof_counters_add(&sum, &w1.c);
    prof_counters_add(&sum, &w2.c);
    EXPECT_EQ(sum.inst_executed, 2);
    EXPECT_EQ(sum.thread_inst_pred_on, 33);
    EXPECT_EQ(sum.inst_by_class[PROF_CLASS_LDST], 2);
    EXPECT_EQ(sum.mem[PROF_MEM_GLOBAL_ST].inst, 2);
    EXPECT_EQ(sum.mem[PROF_MEM_GLOBAL_ST].requests, 2);
    EXPECT_EQ(sum.mem[PROF_MEM_GLOBAL_ST].bytes_requested, 132);
    EXPECT_EQ(sum.divergent_branches, 1);
    EXPECT_EQ(sum.warps_active_cycles, 21);
    /* adding is order-free */
    prof_counters other;
    prof_counters_clear(&other);
    prof_counters_add(&other, &w2.c);
    prof_counters_add(&other, &w1.c);
    EXPECT_EQ(memcmp(&sum, &other, sizeof sum), 0);
}

static void test_classes_and_rows(void)
{
    EXPECT_EQ(prof_insn_class_of(PTX_OP_add, PTX_T_f32), PROF_CLASS_FP32);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_fma, PTX_T_f64), PROF_CLASS_FP64);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_mul, PTX_T_f16x2), PROF_CLASS_FP16);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_add, PTX_T_s32), PROF_CLASS_INTEGER);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_setp, PTX_T_f32), PROF_CLASS_FP32);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_setp, PTX_T_u64), PROF_CLASS_INTEGER);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_cvt, PTX_T_f32), PROF_CLASS_CONVERSION);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_bra, PTX_T_NONE), PROF_CLASS_CONTROL);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_ret, PTX_T_NONE), PROF_CLASS_CONTROL);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_ld, PTX_T_f32), PROF_CLASS_LDST);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_atom, PTX_T_u32), PROF_CLASS_LDST);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_shfl, PTX_T_b32), PROF_CLASS_INTER_THREAD);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_vote, PTX_T_pred), PROF_CLASS_INTER_THREAD);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_mov, PTX_T_f32), PROF_CLASS_MISC);
    EXPECT_EQ(prof_insn_class_of(PTX_OP_bar, PTX_T_NONE), PROF_CLASS_MISC);
    EXPECT_STR(prof_insn_class_name(PROF_CLASS_CONVERSION), "conversion");

    EXPECT_EQ(prof_mem_kind_of(PROF_SPACE_GLOBAL, PROF_ACCESS_LOAD), PROF_MEM_GLOBAL_LD);
    EXPECT_EQ(prof_mem_kind_of(PROF_SPACE_GLOBAL, PROF_ACCESS_REDUCTION), PROF_MEM_GLOBAL_RED);
    EXPECT_EQ(prof_mem_kind_of(PROF_SPACE_LOCAL, PROF_ACCESS_STORE), PROF_MEM_LOCAL_ST);
    EXPECT_EQ(prof_mem_kind_of(PROF_SPACE_LOCAL, PROF_ACCESS_ATOMIC), PROF_MEM_KIND_COUNT);
    EXPECT_EQ(prof_mem_kind_of(PROF_SPACE_SHARED, PROF_ACCESS_ATOMIC), PROF_MEM_SHARED_ATOM);
    EXPECT_STR(prof_mem_kind_name(PROF_MEM_SHARED_LD), "shared_ld");

    /* generations */
    gpu_preset fermi = { .key = "fermi", .major = 2, .l1_caches_global_loads = 1 };
    gpu_preset k40 = { .key = "k40", .major = 3, .minor = 5 };
    gpu_preset v100 = { .key = "v100", .major = 7 };
    prof_rules r = prof_rules_for(&fermi);
    EXPECT_EQ(r.generation, PROF_GEN_FERMI);
    EXPECT_EQ(r.l1_global_loads, true);
    r = prof_rules_for(&k40);
    EXPECT_EQ(r.generation, PROF_GEN_KEPLER);
    EXPECT_EQ(r.l1_global_loads, false);
    EXPECT_EQ(r.shared_bank_bytes, 4);
    r = prof_rules_for(&v100);
    EXPECT_EQ(r.generation, PROF_GEN_SECTORED);
    EXPECT_EQ(r.shared_pair_merge, true);
}

int main(void)
{
    test_insn_and_branch();
    test_mem();
    test_merge();
    test_classes_and_rows();
    return prof_test_finish("test_prof_hooks");
}
