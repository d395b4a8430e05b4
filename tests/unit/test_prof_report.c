/* test_prof_report.c — values and tables printed the way nvprof and Nsight Compute print
 * them. The nvprof lines are laid out after nvprof's own output, e.g.
 *   Invocations                               Metric Name                        Metric Description         Min         Max         Avg
 *             1                            gld_efficiency             Global Memory Load Efficiency     100.00%     100.00%     100.00%
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "prof/hooks.h"
#include "prof/report.h"
#include "prof_test.h"

#define FULL 0xffffffffu

static gpu_preset h100 = {
    .key = "h100", .name = "NVIDIA H100 80GB HBM3", .major = 9, .minor = 0,
    .multiprocessor_count = 132, .max_warps_per_sm = 64,
};
static gpu_preset k40 = { .key = "k40", .name = "Tesla K40c", .major = 3, .minor = 5 };

static void test_values(void)
{
    char b[64];
    prof_format_nvprof(b, sizeof b, PROF_UNIT_COUNT, 2641920, false);
    EXPECT_STR(b, "2641920");
    prof_format_nvprof(b, sizeof b, PROF_UNIT_PERCENT, 99.2134, false);
    EXPECT_STR(b, "99.21%");
    prof_format_nvprof(b, sizeof b, PROF_UNIT_PERCENT, 100, true);
    EXPECT_STR(b, "100.000000%");
    prof_format_nvprof(b, sizeof b, PROF_UNIT_RATIO, 0.952788, false);
    EXPECT_STR(b, "0.952788");
    prof_format_nvprof(b, sizeof b, PROF_UNIT_RATIO, 1345.8, false);
    EXPECT_STR(b, "1.3458e+03");
    prof_format_nvprof(b, sizeof b, PROF_UNIT_RATIO, 10178, true);
    EXPECT_STR(b, "10178.000000");
    prof_format_nvprof(b, sizeof b, PROF_UNIT_BYTES_PER_S, 718.53e9, false);
    EXPECT_STR(b, "718.53GB/s");
    prof_format_nvprof(b, sizeof b, PROF_UNIT_BYTES_PER_S, 157.16244e9, true);
    EXPECT_STR(b, "157.162440GB/s");
    prof_format_nvprof(b, sizeof b, PROF_UNIT_BYTES_PER_S, 512, false);
    EXPECT_STR(b, "512.00B/s");
    prof_format_nvprof(b, sizeof b, PROF_UNIT_PERCENT, NAN, false);
    EXPECT_STR(b, "n/a");

    prof_format_ncu(b, sizeof b, 4);
    EXPECT_STR(b, "4");
    prof_format_ncu(b, sizeof b, 1024);
    EXPECT_STR(b, "1,024");
    prof_format_ncu(b, sizeof b, 1980000);
    EXPECT_STR(b, "1,980,000");
    prof_format_ncu(b, sizeof b, 94.1176);
    EXPECT_STR(b, "94.12");
    prof_format_ncu(b, sizeof b, 0);
    EXPECT_STR(b, "0");
}

static void test_selection(void)
{
    prof_selection s;
    char err[256];
    EXPECT_EQ(prof_selection_parse(&s, "gld_efficiency,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,gld_efficiency", err, sizeof err), true);
    EXPECT_EQ(s.count, 2);
    EXPECT_EQ(s.as_ncu[0], false);
    EXPECT_EQ(s.as_ncu[1], true);
    EXPECT_EQ(prof_selection_check(&s, &h100, err, sizeof err), true);
    EXPECT_EQ(prof_selection_check(&s, &k40, err, sizeof err), false);
    EXPECT_EQ(strstr(err, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") != NULL, 1);

    EXPECT_EQ(prof_selection_parse(&s, "gld_efficiency,bogus_metric", err, sizeof err), false);
    EXPECT_EQ(strstr(err, "bogus_metric") != NULL, 1);

    /* "all": every nvprof metric, not the events, not vcuda's own names */
    EXPECT_EQ(prof_selection_parse(&s, "all", err, sizeof err), true);
    size_t want = 0;
    for (size_t i = 0; i < prof_metric_count; i++)
        want += prof_metrics[i].nvprof && !(prof_metrics[i].flags & (PROF_MF_EVENT | PROF_MF_VCUDA));
    EXPECT_EQ(s.count, want);
    EXPECT_EQ(want > 40, 1);
}

/* Counters of one coalesced (eff) or stride-2 load per warp, 2 warps. */
static void fill(prof_counters *c, uint64_t stride)
{
    gpu_preset p = h100;
    prof_rules r = prof_rules_for(&p);
    prof_recorder rec;
    prof_recorder_init(&rec, &r);
    uint64_t a[32];
    for (int w = 0; w < 2; w++) {
        for (int i = 0; i < 32; i++)
            a[i] = 0x10000 + 4096u * w + (uint64_t)i * stride;
        prof_on_insn(&rec, PROF_CLASS_LDST, FULL, FULL);
        prof_on_mem(&rec, PROF_SPACE_GLOBAL, PROF_ACCESS_LOAD, a, FULL, 4);
        prof_on_branch(&rec, FULL, w ? 1u : 0u);
    }
    *c = rec.c;
}

static void launch_of(prof_launch *L)
{
    memset(L, 0, sizeof *L);
    L->preset = &h100;
    L->rules = prof_rules_for(&h100);
    L->grid[0] = L->grid[1] = L->grid[2] = 1;
    L->block[0] = 64, L->block[1] = L->block[2] = 1;
}

static char *print_report(const prof_report *r, bool csv)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    prof_report_print(r, f, "==42== ", csv);
    fclose(f);
    return text;
}

static void test_nvprof_table(void)
{
    prof_selection s;
    char err[256];
    EXPECT_EQ(prof_selection_parse(&s, "gld_efficiency,gld_transactions,divergent_branch", err, sizeof err), true);
    prof_report *r = prof_report_new(&s);
    prof_counters c;
    prof_launch L;
    launch_of(&L);
    fill(&c, 4);
    EXPECT_EQ(prof_report_add(r, "NVIDIA H100 80GB HBM3 (0)", "k(float*)", &c, &L), true);
    char *text = print_report(r, false);
    EXPECT_STR(text,
        "==42== Event result:\n"
        "Invocations                                Event Name         Min         Max         Avg\n"
        "Device \"NVIDIA H100 80GB HBM3 (0)\"\n"
        "    Kernel: k(float*)\n"
        "          1                          divergent_branch           1           1           1\n"
        "==42== Metric result:\n"
        "Invocations                               Metric Name                        Metric Description         Min         Max         Avg\n"
        "Device \"NVIDIA H100 80GB HBM3 (0)\"\n"
        "    Kernel: k(float*)\n"
        "          1                            gld_efficiency             Global Memory Load Efficiency     100.00%     100.00%     100.00%\n"
        "          1                          gld_transactions                  Global Load Transactions           8           8           8\n");
    free(text);

    /* a second invocation at stride 2 (16 sectors, 50%) and another kernel */
    fill(&c, 8);
    prof_report_add(r, "NVIDIA H100 80GB HBM3 (0)", "k(float*)", &c, &L);
    prof_report_add(r, "NVIDIA H100 80GB HBM3 (0)", "other(int)", &c, &L);
    text = print_report(r, true);
    EXPECT_STR(text,
        "==42== Event result:\n"
        "\"Device\",\"Kernel\",\"Invocations\",\"Event Name\",\"Min\",\"Max\",\"Avg\"\n"
        "\"NVIDIA H100 80GB HBM3 (0)\",\"k(float*)\",2,\"divergent_branch\",1,1,1\n"
        "\"NVIDIA H100 80GB HBM3 (0)\",\"other(int)\",1,\"divergent_branch\",1,1,1\n"
        "==42== Metric result:\n"
        "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n"
        "\"NVIDIA H100 80GB HBM3 (0)\",\"k(float*)\",2,\"gld_efficiency\",\"Global Memory Load Efficiency\",50.000000%,100.000000%,75.000000%\n"
        "\"NVIDIA H100 80GB HBM3 (0)\",\"k(float*)\",2,\"gld_transactions\",\"Global Load Transactions\",8,16,12\n"
        "\"NVIDIA H100 80GB HBM3 (0)\",\"other(int)\",1,\"gld_efficiency\",\"Global Memory Load Efficiency\",50.000000%,50.000000%,50.000000%\n"
        "\"NVIDIA H100 80GB HBM3 (0)\",\"other(int)\",1,\"gld_transactions\",\"Global Load Transactions\",16,16,16\n");
    free(text);
    prof_report_free(r);
}

static void test_ncu_section(void)
{
    prof_selection s;
    char err[256];
    EXPECT_EQ(prof_selection_parse(&s, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
                                       "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
                                   err, sizeof err), true);
    prof_counters c;
    prof_launch L;
    launch_of(&L);
    fill(&c, 8);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    prof_print_ncu_launch(f, "k(float *)", &L, 1, 7, 0, &s, &c);
    fclose(f);
    EXPECT_STR(text,
        "  k(float *) (1, 1, 1)x(64, 1, 1), Context 1, Stream 7, Device 0, CC 9.0\n"
        "    Section: Command line profiler metrics\n"
        "    ------------------------------------------------------------- ----------- ------------\n"
        "    Metric Name                                                   Metric Unit Metric Value\n"
        "    ------------------------------------------------------------- ----------- ------------\n"
        "    l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum                     sector           16\n"
        "    smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct           %           50\n"
        "    ------------------------------------------------------------- ----------- ------------\n"
        "\n");
    free(text);
}

int main(void)
{
    test_values();
    test_selection();
    test_nvprof_table();
    test_ncu_section();
    return prof_test_finish("test_prof_report");
}
