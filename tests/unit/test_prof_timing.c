/* test_prof_timing — the timing model's behaviour on made-up blocks (prof/timing.c): the
 * tail effect of a last partial wave, latency hidden by resident blocks up to the point
 * where the schedulers are busy, throughput-bound blocks sharing an SM, achieved occupancy
 * from the schedule, DRAM bandwidth as a floor, and the estimate without per-block detail. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "prof/timing.h"
#include "prof_test.h"

static const gpu_preset *h100;

/* A block's critical path and its share of the issue slots together (their p-norm). */
static double both(const prof_sm_model *m, double crit, double issue)
{
    return pow(pow(crit, m->issue_overlap_p) + pow(issue, m->issue_overlap_p),
               1.0 / m->issue_overlap_p);
}

static prof_time_estimate run(uint64_t blocks, uint32_t threads, int regs,
                              prof_block_cost cost, uint64_t dram_bytes)
{
    prof_block_cost *b = malloc(blocks * sizeof *b);
    for (uint64_t i = 0; i < blocks; i++)
        b[i] = cost;
    prof_kernel_input in;
    memset(&in, 0, sizeof in);
    in.blocks = blocks;
    in.threads_per_block = threads;
    in.regs_per_thread = regs;
    in.block_costs = b;
    in.l2_bytes = dram_bytes;
    in.dram_bytes = dram_bytes;
    in.dram_read_bytes = dram_bytes;  /* read: the first request waits for DRAM */
    prof_time_estimate e = prof_estimate_kernel(h100, &in);
    free(b);
    return e;
}

int main(void)
{
    h100 = gpu_preset_find("h100");
    if (!h100) {
        fprintf(stderr, "no h100 preset\n");
        return 1;
    }
    prof_sm_model m = prof_sm_model_for(h100);
    double overhead = m.launch_overhead_s * m.clock_hz;
    int sms = h100->multiprocessor_count;

    /* latency-bound blocks of 256 threads, 16 registers: 8 resident per SM */
    prof_block_cost lat = {.critical_cycles = 10000, .issue_cycles = 800};
    prof_time_estimate one_wave = run((uint64_t)sms * 8, 256, 16, lat, 0);
    EXPECT_EQ(one_wave.blocks_per_sm, 8);
    EXPECT_NEAR(one_wave.waves, 1.0, 1e-9);
    /* one wave: the critical path (with the block's turns at the schedulers beside its
     * 7 neighbours' in part), plus dispatching 8 blocks on each SM */
    double lat_block = both(&m, 10000, 8 * 800 / 4);
    EXPECT_NEAR(one_wave.cycles - overhead, lat_block + 7 * m.block_dispatch_cycles, 1);
    EXPECT_STR(one_wave.limiter, "latency");
    /* resident blocks hid each other's latency: a whole wave costs what one block does
     * (the second wave's blocks start as the first wave's end) */
    prof_time_estimate two_waves = run((uint64_t)sms * 16, 256, 16, lat, 0);
    EXPECT_NEAR(two_waves.cycles - overhead, 2 * lat_block + 7 * m.block_dispatch_cycles, 1);
    /* the tail effect: one block more than two waves takes a third wave's time */
    prof_time_estimate tail = run((uint64_t)sms * 16 + 1, 256, 16, lat, 0);
    /* (the last block alone on its SM: no neighbours' issue) */
    EXPECT_NEAR(tail.cycles - overhead, 2 * lat_block + both(&m, 10000, 800 / 4), 1);
    /* ...and the SMs sat idle meanwhile: achieved occupancy falls below theoretical */
    double occ_full = (double)two_waves.warps_active_cycles / two_waves.sm_active_cycles / 64;
    double occ_tail = (double)tail.warps_active_cycles / tail.sm_active_cycles / 64;
    /* (near full: the first wave's blocks arrive one dispatch interval apart) */
    EXPECT_NEAR(occ_full, 1.0, 1 - (2 * lat_block) / (2 * lat_block + 7 * m.block_dispatch_cycles));
    EXPECT_EQ(occ_tail < occ_full, 1);

    /* fewer registers per SM for each block (128 per thread): 2 resident blocks, so the
     * same work takes four times the waves */
    prof_time_estimate fat = run((uint64_t)sms * 8, 256, 128, lat, 0);
    EXPECT_EQ(fat.blocks_per_sm, 2);
    EXPECT_NEAR(fat.cycles - overhead, 4 * both(&m, 10000, 2 * 800 / 4) + m.block_dispatch_cycles,
                1);

    /* issue-bound blocks: 8 resident blocks share 4 schedulers, so a block lasts 8 x its
     * issue slots / 4, and occupancy does not help */
    prof_block_cost busy = {.critical_cycles = 1000, .issue_cycles = 8000};
    prof_time_estimate issue = run((uint64_t)sms * 8, 256, 16, busy, 0);
    EXPECT_STR(issue.limiter, "issue");
    EXPECT_NEAR(issue.cycles - overhead, both(&m, 1000, 8 * 8000 / 4) + 7 * m.block_dispatch_cycles,
                1);
    /* latency and issue alike: neither hides the other, the block takes 2^(1/p) of either
     * (p = 2 on an H100: k_l1reuse's blocks, bench/timing/suite_diag.cu) */
    EXPECT_NEAR(m.issue_overlap_p, 2.0, 1e-9);
    prof_block_cost even = {.critical_cycles = 16000, .issue_cycles = 8000};
    prof_time_estimate ev = run((uint64_t)sms * 8, 256, 16, even, 0);
    EXPECT_NEAR(ev.cycles - overhead, sqrt(2.0) * 16000 + 7 * m.block_dispatch_cycles, 1);

    /* bank conflicts: shared wavefronts, one per cycle per SM */
    prof_block_cost conflicts = {.critical_cycles = 1000, .issue_cycles = 100,
                                 .shared_wavefronts = 4000};
    prof_time_estimate sh = run((uint64_t)sms * 8, 256, 16, conflicts, 0);
    EXPECT_STR(sh.limiter, "shared memory");

    /* a stream: DRAM bandwidth bounds it however short its blocks */
    prof_block_cost stream = {.critical_cycles = 800, .issue_cycles = 64};
    uint64_t bytes = 256ull << 20;
    prof_time_estimate dram = run(65536, 256, 16, stream, bytes);
    EXPECT_STR(dram.limiter, "DRAM bandwidth");
    double want = (double)bytes / (m.dram_bytes_per_cycle * m.dram_read_efficiency) + m.lat_dram;
    EXPECT_NEAR(dram.cycles - overhead, want, 1);

    /* writes stream at their own efficiency, and what fits in L2's dirty share stays there
     * past the grid's end: a copy takes its reads' time plus its writes' beyond that */
    {
        prof_block_cost *b = malloc(65536 * sizeof *b);
        for (int i = 0; i < 65536; i++)
            b[i] = stream;
        prof_kernel_input cp;
        memset(&cp, 0, sizeof cp);
        cp.blocks = 65536;
        cp.threads_per_block = 256;
        cp.regs_per_thread = 16;
        cp.block_costs = b;
        cp.l2_bytes = cp.dram_bytes = 2 * bytes;
        cp.dram_read_bytes = bytes;
        cp.dram_write_bytes = bytes;
        prof_time_estimate ecp = prof_estimate_kernel(h100, &cp);
        double wcp = (double)bytes / (m.dram_bytes_per_cycle * m.dram_read_efficiency) +
                     ((double)bytes - m.l2_dirty_share * m.l2_bytes) /
                         (m.dram_bytes_per_cycle * m.dram_write_efficiency) + m.lat_dram;
        EXPECT_NEAR(ecp.dram_cycles, wcp, 1);
        EXPECT_EQ(m.dram_write_efficiency < m.dram_read_efficiency, 1);
        /* a write that fits in the dirty share: only L2 takes it */
        cp.l2_bytes = cp.dram_bytes = cp.dram_write_bytes = (uint64_t)(m.l2_dirty_share * m.l2_bytes / 2);
        cp.dram_read_bytes = 0;
        prof_time_estimate esm = prof_estimate_kernel(h100, &cp);
        EXPECT_NEAR(esm.dram_cycles, m.lat_l2, 1);
        free(b);
    }

    /* misses charged L2's latency get DRAM's share when DRAM served them */
    prof_block_cost misses = {.critical_cycles = 5000, .issue_cycles = 100, .miss_rounds = 4};
    prof_kernel_input in;
    memset(&in, 0, sizeof in);
    in.blocks = 1;
    in.threads_per_block = 32;
    in.every_block = &misses;
    in.l2_bytes = 1000;
    in.dram_bytes = 1000;  /* every miss came from DRAM */
    in.dram_read_bytes = 1000;
    prof_time_estimate cold = prof_estimate_kernel(h100, &in);
    EXPECT_NEAR(cold.cycles - overhead, 5000 + 4.0 * (m.lat_dram - m.lat_l2), 1);

    /* without detail: the instruction count alone gives a plausible time */
    memset(&in, 0, sizeof in);
    in.blocks = 2048;
    in.threads_per_block = 512;
    in.regs_per_thread = 16;
    in.warp_instructions = 4000000;
    prof_time_estimate plain = prof_estimate_kernel(h100, &in);
    EXPECT_EQ(plain.detailed, 0);
    EXPECT_EQ(plain.seconds > m.launch_overhead_s && plain.seconds < 1e-3, 1);
    EXPECT_NEAR(prof_estimate_kernel_ms(h100, &in), plain.seconds * 1e3, 1e-12);

    /* an empty grid costs the launch */
    memset(&in, 0, sizeof in);
    in.threads_per_block = 32;
    EXPECT_NEAR(prof_estimate_kernel(h100, &in).seconds, m.launch_overhead_s, 1e-15);

    if (prof_test_failures) {
        fprintf(stderr, "test_prof_timing: %d failure(s)\n", prof_test_failures);
        return 1;
    }
    printf("test_prof_timing: ok\n");
    return 0;
}
