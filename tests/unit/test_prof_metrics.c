/* test_prof_metrics.c — metric values from counters filled through the hooks for a small
 * made-up launch, each expectation worked out by hand; and the table's own consistency. */
#include <ctype.h>
#include <math.h>
#include <string.h>
#include "prof/hooks.h"
#include "prof/metrics.h"
#include "prof_test.h"

#define FULL 0xffffffffu

static gpu_preset h100 = {
    .key = "h100", .name = "NVIDIA H100 80GB HBM3", .major = 9, .minor = 0,
    .multiprocessor_count = 132, .max_warps_per_sm = 64,
};
static gpu_preset k40 = {
    .key = "k40", .name = "Tesla K40c", .major = 3, .minor = 5,
    .multiprocessor_count = 15, .max_warps_per_sm = 64,
};

static double value(const char *name, const prof_counters *c, const prof_launch *L)
{
    bool as_ncu;
    const prof_metric *m = prof_metric_find(name, &as_ncu);
    if (!m) {
        fprintf(stderr, "no metric %s\n", name);
        prof_test_failures++;
        return NAN;
    }
    return prof_metric_value(m, as_ncu, c, L);
}

static void strided(uint64_t *a, uint64_t base, uint64_t stride)
{
    for (int i = 0; i < 32; i++)
        a[i] = base + (uint64_t)i * stride;
}

/* 4 blocks of 64 threads = 8 warps. Per warp: 10 full instructions, one whose guard holds
 * on 16 lanes, a uniform and a divergent branch, two global loads (coalesced; stride 2),
 * a global store misaligned by 4 bytes, a shared load at stride 2 words and a coalesced
 * shared store, an 8-byte local load at one offset, and a reduction on one address. */
static void run_kernel(prof_recorder *rec)
{
    uint64_t a[32];
    for (int w = 0; w < 8; w++) {
        for (int i = 0; i < 10; i++)
            prof_on_insn(rec, PROF_CLASS_INTEGER, FULL, FULL);
        prof_on_insn(rec, PROF_CLASS_FP32, FULL, 0x0000ffffu);
        prof_on_branch(rec, FULL, FULL);
        prof_on_branch(rec, FULL, 0x0000ffffu);
        strided(a, 0x100000 + 4096u * w, 4);
        prof_on_mem(rec, PROF_SPACE_GLOBAL, PROF_ACCESS_LOAD, a, FULL, 4);
        strided(a, 0x200000 + 4096u * w, 8);
        prof_on_mem(rec, PROF_SPACE_GLOBAL, PROF_ACCESS_LOAD, a, FULL, 4);
        strided(a, 0x300000 + 4096u * w + 4, 4);
        prof_on_mem(rec, PROF_SPACE_GLOBAL, PROF_ACCESS_STORE, a, FULL, 4);
        strided(a, 0, 8);
        prof_on_mem(rec, PROF_SPACE_SHARED, PROF_ACCESS_LOAD, a, FULL, 4);
        strided(a, 0, 4);
        prof_on_mem(rec, PROF_SPACE_SHARED, PROF_ACCESS_STORE, a, FULL, 4);
        strided(a, 16, 0);
        prof_on_mem(rec, PROF_SPACE_LOCAL, PROF_ACCESS_LOAD, a, FULL, 8);
        strided(a, 0x400000, 0);
        prof_on_mem(rec, PROF_SPACE_GLOBAL, PROF_ACCESS_REDUCTION, a, FULL, 4);
    }
    /* one SM: 100 cycles with 32 warps, 100 with 16, 50 idle */
    prof_on_sm_interval(rec, 32, 100);
    prof_on_sm_interval(rec, 16, 100);
    prof_on_sm_interval(rec, 0, 50);
}

static void init_launch(prof_launch *L, const gpu_preset *p)
{
    memset(L, 0, sizeof *L);
    L->preset = p;
    L->rules = prof_rules_for(p);
    L->grid[0] = 4, L->grid[1] = 1, L->grid[2] = 1;
    L->block[0] = 64, L->block[1] = 1, L->block[2] = 1;
    L->regs_per_thread = 32;
    L->static_shared = 256;
    L->dynamic_shared = 0;
    L->duration_s = 1e-3;
    /* what the occupancy calculator gives for 64 threads x 32 registers on sm_90 */
    L->occupancy.blocks_per_sm = 32;
    L->occupancy.warps_per_sm = 64;
    L->occupancy.occupancy = 1.0;
}

static void test_values(void)
{
    prof_launch L;
    init_launch(&L, &h100);
    prof_recorder rec;
    prof_recorder_init(&rec, &L.rules);
    run_kernel(&rec);
    const prof_counters *c = &rec.c;

    EXPECT_NEAR(value("inst_executed", c, &L), 88, 0);
    EXPECT_NEAR(value("smsp__inst_executed.sum", c, &L), 88, 0);
    EXPECT_NEAR(value("inst_per_warp", c, &L), 11, 1e-12);
    EXPECT_NEAR(value("warps_launched", c, &L), 8, 0);
    EXPECT_NEAR(value("warp_execution_efficiency", c, &L), 100, 1e-9);
    /* (80 x 32 + 8 x 16) / (88 x 32) */
    EXPECT_NEAR(value("warp_nonpred_execution_efficiency", c, &L), 100.0 * 2688 / 2816, 1e-9);
    EXPECT_NEAR(value("smsp__thread_inst_executed_per_inst_executed.ratio", c, &L), 32, 1e-12);
    EXPECT_NEAR(value("branch_efficiency", c, &L), 50, 1e-9);
    EXPECT_NEAR(value("smsp__sass_average_branch_targets_threads_uniform.pct", c, &L), 50, 1e-9);
    EXPECT_NEAR(value("divergent_branch", c, &L), 8, 0);
    EXPECT_NEAR(value("inst_integer", c, &L), 80 * 32, 0);
    EXPECT_NEAR(value("inst_fp_32", c, &L), 8 * 16, 0);

    /* global loads: (4 + 8) sectors per warp; 256 of 384 bytes used */
    EXPECT_NEAR(value("gld_transactions", c, &L), 96, 0);
    EXPECT_NEAR(value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", c, &L), 96, 0);
    EXPECT_NEAR(value("global_load_requests", c, &L), 16, 0);
    EXPECT_NEAR(value("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", c, &L), 16, 0);
    EXPECT_NEAR(value("gld_transactions_per_request", c, &L), 6, 1e-12);
    EXPECT_NEAR(value("gld_efficiency", c, &L), 100.0 * 2048 / 3072, 1e-9);
    EXPECT_NEAR(value("gld_throughput", c, &L), 3072 / 1e-3, 1e-6);
    EXPECT_NEAR(value("gld_requested_throughput", c, &L), 2048 / 1e-3, 1e-6);
    /* global store: 5 sectors per warp, 128 of 160 bytes */
    EXPECT_NEAR(value("gst_transactions", c, &L), 40, 0);
    EXPECT_NEAR(value("gst_transactions_per_request", c, &L), 5, 1e-12);
    EXPECT_NEAR(value("gst_efficiency", c, &L), 80, 1e-9);
    EXPECT_NEAR(value("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", c, &L),
                80, 1e-9);

    /* shared: loads 2-way (2 wavefronts, 1 conflict), stores 1 wavefront */
    EXPECT_NEAR(value("shared_load_transactions", c, &L), 16, 0);
    EXPECT_NEAR(value("shared_store_transactions", c, &L), 8, 0);
    EXPECT_NEAR(value("shared_load_transactions_per_request", c, &L), 2, 1e-12);
    EXPECT_NEAR(value("shared_store_transactions_per_request", c, &L), 1, 1e-12);
    EXPECT_NEAR(value("shared_ld_bank_conflict", c, &L), 8, 0);
    EXPECT_NEAR(value("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", c, &L), 8, 0);
    EXPECT_NEAR(value("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", c, &L), 0, 0);
    EXPECT_NEAR(value("shared_efficiency", c, &L), 100.0 * 2048 / (24 * 128), 1e-9);

    /* local: 8 bytes at one offset = 2 requests, 8 sectors per warp */
    EXPECT_NEAR(value("local_load_transactions", c, &L), 64, 0);
    EXPECT_NEAR(value("local_load_requests", c, &L), 16, 0);
    EXPECT_NEAR(value("local_load_transactions_per_request", c, &L), 4, 1e-12);
    EXPECT_NEAR(value("local_store_transactions", c, &L), 0, 0);

    /* reductions on one address: 32 rounds of one line lookup each */
    EXPECT_NEAR(value("atomic_transactions", c, &L), 256, 0);
    EXPECT_NEAR(value("atomic_transactions_per_request", c, &L), 32, 1e-12);
    EXPECT_NEAR(value("l1tex__t_set_accesses_pipe_lsu_mem_global_op_red.sum", c, &L), 256, 0);

    /* residency */
    EXPECT_NEAR(value("achieved_occupancy", c, &L), 4800.0 / 200 / 64, 1e-12);
    EXPECT_NEAR(value("sm__warps_active.avg.pct_of_peak_sustained_active", c, &L), 37.5, 1e-9);
    EXPECT_NEAR(value("sm_efficiency", c, &L), 80, 1e-9);
    EXPECT_NEAR(value("theoretical_occupancy", c, &L), 1.0, 0);
    EXPECT_NEAR(value("sm__maximum_warps_per_active_cycle_pct", c, &L), 100, 0);

    /* the launch */
    EXPECT_NEAR(value("launch__registers_per_thread", c, &L), 32, 0);
    EXPECT_NEAR(value("launch__grid_size", c, &L), 4, 0);
    EXPECT_NEAR(value("launch__block_size", c, &L), 64, 0);
    EXPECT_NEAR(value("sm__ctas_launched.sum", c, &L), 4, 0);

    /* instruction counts by kind, under both spellings Nsight Compute has */
    EXPECT_NEAR(value("inst_executed_global_loads", c, &L), 16, 0);
    EXPECT_NEAR(value("smsp__sass_inst_executed_op_global_ld.sum", c, &L), 16, 0);
    EXPECT_NEAR(value("smsp__inst_executed_op_shared_st.sum", c, &L), 8, 0);
    EXPECT_NEAR(value("smsp__sass_inst_executed_op_local_ld.sum", c, &L), 8, 0);
    EXPECT_NEAR(value("inst_executed_global_reductions", c, &L), 8, 0);
    EXPECT_NEAR(value("smsp__sass_thread_inst_executed.sum", c, &L), 88 * 32, 0);
    EXPECT_NEAR(value("ldst_executed", c, &L), 8 * 6, 0);
    EXPECT_NEAR(value("launch__waves_per_multiprocessor", c, &L), 4.0 / (32 * 132), 1e-15);

    /* no timing, no residency samples: not available */
    L.duration_s = 0;
    prof_counters no_samples = *c;
    no_samples.sm_active_cycles = no_samples.sm_elapsed_cycles = no_samples.warps_active_cycles = 0;
    EXPECT_EQ(isnan(value("gld_throughput", c, &L)), 1);
    EXPECT_EQ(isnan(value("achieved_occupancy", &no_samples, &L)), 1);
    EXPECT_EQ(isnan(value("sm_efficiency", &no_samples, &L)), 1);

    /* an empty kernel: ratios are 0, branch efficiency 100% */
    prof_counters empty;
    prof_counters_clear(&empty);
    EXPECT_NEAR(value("gld_efficiency", &empty, &L), 0, 0);
    EXPECT_NEAR(value("shared_load_transactions_per_request", &empty, &L), 0, 0);
    EXPECT_NEAR(value("branch_efficiency", &empty, &L), 100, 0);
}

static void test_kepler_values(void)
{
    /* the same kernel under Kepler's rules: global loads in 32-byte segments, stores in
     * per-line transactions, local loads in 128-byte lines */
    prof_launch L;
    init_launch(&L, &k40);
    prof_recorder rec;
    prof_recorder_init(&rec, &L.rules);
    run_kernel(&rec);
    EXPECT_NEAR(value("gld_transactions", &rec.c, &L), 96, 0);
    /* misaligned store: a 128-byte and a 32-byte transaction per warp */
    EXPECT_NEAR(value("gst_transactions", &rec.c, &L), 16, 0);
    EXPECT_NEAR(value("gst_efficiency", &rec.c, &L), 80, 1e-9);
    /* 8-byte local load at one offset: 2 half-warps x 2 rows = 4 lines per warp */
    EXPECT_NEAR(value("local_load_transactions", &rec.c, &L), 32, 0);
    /* Kepler's shared path is 256 bytes wide */
    EXPECT_NEAR(value("shared_efficiency", &rec.c, &L), 100.0 * 2048 / (24 * 256), 1e-9);
}

static bool valid_nvprof_name(const char *s)
{
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void test_table(void)
{
    for (size_t i = 0; i < prof_metric_count; i++) {
        const prof_metric *m = &prof_metrics[i];
        if (!m->compute || !m->description || !m->ncu_unit || (!m->nvprof && !m->ncu)) {
            fprintf(stderr, "row %zu incomplete\n", i);
            prof_test_failures++;
        }
        if (m->nvprof && !valid_nvprof_name(m->nvprof)) {
            fprintf(stderr, "bad nvprof name %s\n", m->nvprof);
            prof_test_failures++;
        }
        /* ncu names carry a roll-up (.sum, .pct, .ratio, .per_second, .avg...) except the
         * launch__ attributes and the occupancy percentage */
        if (m->ncu && !strstr(m->ncu, "launch__") && !ends_with(m->ncu, "_pct") &&
            !ends_with(m->ncu, ".sum") && !ends_with(m->ncu, ".pct") &&
            !ends_with(m->ncu, ".ratio") && !ends_with(m->ncu, ".per_second") &&
            !ends_with(m->ncu, "pct_of_peak_sustained_active") &&
            !ends_with(m->ncu, "pct_of_peak_sustained_elapsed")) {
            fprintf(stderr, "ncu name without a roll-up: %s\n", m->ncu);
            prof_test_failures++;
        }
        for (size_t j = 0; j < i; j++) {
            const prof_metric *o = &prof_metrics[j];
            if ((m->nvprof && o->nvprof && !strcmp(m->nvprof, o->nvprof)) ||
                (m->ncu && o->ncu && !strcmp(m->ncu, o->ncu))) {
                fprintf(stderr, "name listed twice: row %zu and %zu\n", j, i);
                prof_test_failures++;
            }
        }
    }

    /* every name this layer promises */
    static const char *const promised[] = {
        "achieved_occupancy", "theoretical_occupancy", "sm_efficiency", "branch_efficiency",
        "warp_execution_efficiency", "warp_nonpred_execution_efficiency", "inst_executed",
        "inst_per_warp", "gld_efficiency", "gst_efficiency", "gld_transactions",
        "gst_transactions", "gld_transactions_per_request", "gst_transactions_per_request",
        "gld_throughput", "gst_throughput", "shared_load_transactions",
        "shared_store_transactions", "shared_load_transactions_per_request",
        "shared_store_transactions_per_request", "shared_efficiency",
        "shared_ld_bank_conflict", "shared_st_bank_conflict", "local_load_transactions",
        "local_store_transactions", "atomic_transactions",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "smsp__sass_average_branch_targets_threads_uniform.pct",
        "smsp__thread_inst_executed_per_inst_executed.ratio",
        "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__registers_per_thread",
    };
    for (size_t i = 0; i < sizeof promised / sizeof promised[0]; i++)
        if (!prof_metric_find(promised[i], NULL)) {
            fprintf(stderr, "missing metric %s\n", promised[i]);
            prof_test_failures++;
        }
    EXPECT_EQ(prof_metric_find("no_such_metric", NULL) == NULL, 1);

    bool as_ncu = true;
    const prof_metric *m = prof_metric_find("gld_efficiency", &as_ncu);
    EXPECT_EQ(as_ncu, false);
    EXPECT_EQ(m == prof_metric_find("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
                                    &as_ncu), 1);
    EXPECT_EQ(as_ncu, true);
    /* Nsight Compute names exist from sm_70 on; nvprof names everywhere */
    EXPECT_EQ(prof_metric_available(m, &h100, true), true);
    EXPECT_EQ(prof_metric_available(m, &k40, true), false);
    EXPECT_EQ(prof_metric_available(m, &k40, false), true);
    m = prof_metric_find("launch__registers_per_thread", NULL);
    EXPECT_EQ(prof_metric_available(m, &h100, false), false);
}

int main(void)
{
    test_values();
    test_kepler_values();
    test_table();
    return prof_test_finish("test_prof_metrics");
}
