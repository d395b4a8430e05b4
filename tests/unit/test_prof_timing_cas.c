/* test_prof_timing_cas — the timing model's compare-and-swap retry loops (prof/timing.c,
 * cas_retry_s): no contention costs no retry; c contenders of an address take c rounds,
 * each a failed swap's way back plus L2's time over the swaps still retrying (on their
 * line, or L2-wide when that is slower); only the contenders of one wave compete. */
#include <string.h>

#include "gpu/gpu.h"
#include "prof/timing.h"
#include "prof_test.h"

static const gpu_preset *h100;

/* a grid of `blocks` 256-thread blocks, each short, with the CAS counts given */
static prof_time_estimate run(uint64_t blocks, double hot, double ops, uint64_t tx,
                              uint64_t lines)
{
    static const prof_block_cost small = {.critical_cycles = 500, .issue_cycles = 100};
    prof_kernel_input in;
    memset(&in, 0, sizeof in);
    in.blocks = blocks;
    in.threads_per_block = 256;
    in.regs_per_thread = 16;
    in.every_block = &small;
    /* the swaps are atomics too: as the ordinary atomic bounds see them */
    in.atomic_hot = hot;
    in.atomic_ops = ops;
    in.atomic_tx = tx;
    in.atomic_lines = lines;
    in.cas_hot = hot;
    in.cas_ops = ops;
    in.cas_tx = tx;
    in.cas_lines = lines;
    return prof_estimate_kernel(h100, &in);
}

/* the model's sum for c contenders over one wave, `full` the L2 time of a full round */
static double rounds_s(const prof_sm_model *m, double c, double full)
{
    double s = 0;
    for (int k = 2; k <= (int)c; k++)
        s += m->cas_round_s + k / c * full;
    return s;
}

int main(void)
{
    h100 = gpu_preset_find("h100");
    if (!h100) {
        fprintf(stderr, "no h100 preset\n");
        return 1;
    }
    prof_sm_model m = prof_sm_model_for(h100);
    uint64_t wave = (uint64_t)h100->multiprocessor_count * 8;  /* 256-thread blocks */

    /* every thread its own address: no swap fails, nothing to retry */
    prof_time_estimate e1 = run(64, 1, 16384, 512, 512);
    EXPECT_NEAR(e1.cas_cycles, 0, 0);
    EXPECT_NEAR(e1.cas_rounds, 0, 0);

    /* 256 threads on each of 64 addresses (two lines, 256 warps each), one wave: 256
     * rounds, L2 taking a full round's 256 transactions on a line one after another */
    prof_time_estimate e256 = run(64, 256, 16384, 512, 2);
    EXPECT_NEAR(e256.cas_rounds, 256, 0);
    double want = rounds_s(&m, 256, 256 * m.atom_line_s);
    EXPECT_NEAR(e256.cas_cycles, want * m.clock_hz, 1);
    EXPECT_STR(e256.limiter, "atomics");
    EXPECT_NEAR(e256.atomic_cycles, e256.cas_cycles, 0);
    /* ... the estimate of a tuning case of bench/timing/suite.cu (atom_cas_a64_n16384,
     * 200-209 us on an H100): within 10% */
    EXPECT_EQ(e256.seconds > 190e-6 && e256.seconds < 220e-6, 1);
    /* contention grows the time faster than in proportion (more rounds, longer ones) */
    prof_time_estimate e64 = run(64, 64, 4096, 128, 2);
    EXPECT_EQ(e256.cas_cycles > 4 * e64.cas_cycles, 1);

    /* the same contenders per line over many lines: L2's overall rate for transactions
     * and ops is slower than a line's share, and bounds each round */
    prof_time_estimate ewide = run(1024, 64, 262144, 8192, 128);
    double full = 8192 * m.atom_tx_all_s + 262144 * m.atom_op_all_s;
    EXPECT_EQ(full > 64 * m.atom_line_s, 1);
    EXPECT_NEAR(ewide.cas_cycles, rounds_s(&m, 64, full) * m.clock_hz, 1);

    /* only one wave's contenders compete: the same swaps over four waves take four waves
     * of a quarter of the rounds, less than one wave of them all */
    prof_time_estimate e4w = run(4 * wave, 256, 16384, 512, 2);
    EXPECT_NEAR(e4w.cas_rounds, 64, 1e-9);
    EXPECT_NEAR(e4w.cas_cycles, 4 * rounds_s(&m, 64, 64 * m.atom_line_s) * m.clock_hz, 1);
    prof_time_estimate e1w = run(wave, 256, 16384, 512, 2);
    EXPECT_EQ(e4w.cas_cycles < e1w.cas_cycles, 1);

    /* swaps counted but no CAS tally (other atomics): the ordinary atomic bounds only */
    prof_kernel_input add;
    memset(&add, 0, sizeof add);
    add.blocks = 64;
    add.threads_per_block = 256;
    add.regs_per_thread = 16;
    add.atomic_hot = 256;
    add.atomic_ops = 16384;
    add.atomic_tx = 512;
    add.atomic_lines = 2;
    prof_time_estimate eadd = prof_estimate_kernel(h100, &add);
    EXPECT_NEAR(eadd.cas_cycles, 0, 0);
    EXPECT_EQ(eadd.atomic_cycles < e256.atomic_cycles / 10, 1);

    if (prof_test_failures)
        fprintf(stderr, "%d failures\n", prof_test_failures);
    return prof_test_failures ? 1 : 0;
}
