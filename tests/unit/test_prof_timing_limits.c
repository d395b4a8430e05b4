/* test_prof_timing_limits — the timing model's narrower limits (prof/timing.c): the SFU
 * and FP64 pipes, the constant cache, global atomics in L2 (one busy address, one line,
 * many lines), host-mapped memory over the host link, printf, device-side launches, L1's
 * line lookups, block dispatch, DRAM latency for reads only, L2's capacity, the gap an SM
 * slot leaves between blocks, page faults over managed memory, and the
 * uncertainty each estimate carries for its limiter. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "prof/timing.h"
#include "prof_test.h"

static const gpu_preset *h100;

/* one wave of 256-thread blocks (8 per SM) doing cost each, with in's other fields */
static prof_time_estimate run(prof_block_cost cost, prof_kernel_input in)
{
    int sms = h100->multiprocessor_count;
    in.blocks = (uint64_t)sms * 8;
    in.threads_per_block = 256;
    in.regs_per_thread = 16;
    in.every_block = &cost;
    return prof_estimate_kernel(h100, &in);
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
    prof_kernel_input none;
    memset(&none, 0, sizeof none);

    /* the same issue slots, with a tenth of them through the SFU: the SFU's 9 cycles a
     * warp-instruction (per sub-partition) outlast the schedulers' one */
    prof_block_cost plain = {.critical_cycles = 1000, .issue_cycles = 8000};
    prof_time_estimate ei = run(plain, none);
    EXPECT_STR(ei.limiter, "issue");
    prof_block_cost sfu = plain;
    sfu.sfu_insts = 2000;
    prof_time_estimate es = run(sfu, none);
    EXPECT_STR(es.limiter, "SFU");
    EXPECT_NEAR(es.block_cycles, 8 * 2000 * m.sfu_cycles / m.schedulers, 1);
    EXPECT_EQ(es.cycles > ei.cycles, 1);
    /* double precision: 16 lanes a sub-partition */
    prof_block_cost fp64 = plain;
    fp64.fp64_insts = 6000;
    prof_time_estimate ef = run(fp64, none);
    EXPECT_STR(ef.limiter, "FP64");
    EXPECT_NEAR(ef.block_cycles, 8 * 6000 * m.fp64_cycles / m.schedulers, 1);
    /* the constant cache is the SM's: not divided among the schedulers */
    prof_block_cost cc = plain;
    cc.const_cycles = 5000;
    prof_time_estimate ec = run(cc, none);
    EXPECT_STR(ec.limiter, "constant cache");
    EXPECT_NEAR(ec.block_cycles, 8 * 5000, 1);

    /* atomics: a million int adds on one address take a million times one add */
    prof_block_cost small = {.critical_cycles = 500, .issue_cycles = 100};
    prof_kernel_input at = none;
    at.atomic_hot = 1e6;
    at.atomic_tx = 1 << 15;
    at.atomic_lines = 1;
    prof_time_estimate ea = run(small, at);
    EXPECT_STR(ea.limiter, "atomics");
    EXPECT_NEAR(ea.seconds, 1e6 * m.atom_addr_s + m.launch_overhead_s, 1e-9);
    /* 32 addresses on one line: the line's transactions back to back bound it */
    at.atomic_hot = 1 << 15;
    prof_time_estimate e1 = run(small, at);
    EXPECT_NEAR(e1.atomic_cycles, (1 << 15) * m.atom_line_s * m.clock_hz, 1);
    /* the same transactions over 32 lines: each line serves its share, apart in time */
    at.atomic_hot = 1024;
    at.atomic_lines = 32;
    prof_time_estimate e32 = run(small, at);
    EXPECT_NEAR(e32.atomic_cycles, (1 << 15) / 32.0 * m.atom_tx_s * m.clock_hz, 1);
    /* ... and over many lines: no faster than L2 takes transactions and ops overall */
    at.atomic_hot = 1;
    at.atomic_lines = 1 << 14;
    at.atomic_tx = 1 << 20;
    at.atomic_ops = 1 << 25;
    prof_time_estimate emany = run(small, at);
    EXPECT_NEAR(emany.atomic_cycles,
                ((1 << 20) * m.atom_tx_all_s + (1 << 25) * m.atom_op_all_s) * m.clock_hz, 1);
    EXPECT_EQ(emany.atomic_cycles > e32.atomic_cycles, 1);

    /* host-mapped memory: reads and writes go both ways at once over the host link */
    prof_kernel_input sys = none;
    sys.sys_read_bytes = 16 << 20;
    prof_time_estimate er = run(small, sys);
    EXPECT_STR(er.limiter, "host memory");
    EXPECT_NEAR(er.sys_cycles, (16 << 20) / m.sys_read_bytes_per_s * m.clock_hz, 1);
    sys.sys_write_bytes = 16 << 20;
    prof_time_estimate erw = run(small, sys);
    EXPECT_NEAR(erw.sys_cycles, er.sys_cycles, 1);  /* the slower direction: reads */
    EXPECT_NEAR(erw.cycles, er.cycles, 1);
    EXPECT_EQ(er.cycles > overhead + er.sys_cycles - 1, 1);

    /* printf: each printing warp takes its turn at the buffer, and the grid pays the
     * buffer's hand-over once */
    prof_block_cost pr = small;
    pr.printf_warps = 1;
    pr.printf_records = 1;  /* one lane of the warp printed */
    prof_time_estimate ep = run(pr, none);
    EXPECT_STR(ep.limiter, "printf");
    int blocks = h100->multiprocessor_count * 8;
    EXPECT_NEAR(ep.seconds, blocks * (m.printf_warp_cycles + m.printf_record_cycles) / m.clock_hz +
                                m.launch_overhead_s + m.printf_launch_s, 1e-9);

    /* device-side launches: none cost nothing; the first costs dp_first_s; more cost more,
     * less than in proportion (they overlap); a long child adds its own time */
    EXPECT_NEAR(prof_device_launch_s(h100, 0, 1.0), 0, 0);
    EXPECT_NEAR(prof_device_launch_s(h100, 1, 0), m.dp_first_s, 1e-12);
    double d16 = prof_device_launch_s(h100, 16, 0);
    EXPECT_EQ(d16 > 4 * m.dp_first_s && d16 < 16 * m.dp_first_s, 1);
    EXPECT_NEAR(prof_device_launch_s(h100, 16, 1e-3) - d16, 1e-3, 1e-12);

    /* L1 looks up one line at a time: the same sectors scattered over 32 times the lines
     * hold it longer than the schedulers */
    prof_block_cost lines = plain;
    lines.l1_sectors = 4000;
    lines.l1_lines = 1000;  /* coalesced: 4 sectors a line, within the sector rate */
    prof_time_estimate el1c = run(lines, none);
    EXPECT_STR(el1c.limiter, "issue");
    lines.l1_lines = 4000;  /* scattered: a line a sector */
    prof_time_estimate el1 = run(lines, none);
    EXPECT_STR(el1.limiter, "L1");
    EXPECT_NEAR(el1.block_cycles, 8 * 4000 * m.l1_line_cycles_tput, 1);

    /* many short blocks: the SMs take them one at a time, ~160 cycles each */
    prof_kernel_input many = none;
    prof_block_cost tiny = {.critical_cycles = 20, .issue_cycles = 4};
    many.blocks = (uint64_t)h100->multiprocessor_count * 500;
    many.threads_per_block = 32;
    many.regs_per_thread = 16;
    many.every_block = &tiny;
    prof_time_estimate ed = prof_estimate_kernel(h100, &many);
    EXPECT_STR(ed.limiter, "block dispatch");
    EXPECT_NEAR(ed.cycles - overhead, 500.0 * m.block_dispatch_cycles, m.block_dispatch_cycles);
    /* one such block: the launch's fixed cost, not dispatch, is what it pays */
    many.blocks = 1;
    EXPECT_EQ(strcmp(prof_estimate_kernel(h100, &many).limiter, "block dispatch") != 0, 1);

    /* DRAM: a grid that read waits for DRAM's latency, one that only wrote for L2's */
    prof_kernel_input wr = none;
    wr.dram_bytes = wr.l2_bytes = 1 << 20;
    prof_time_estimate ew = run(small, wr);
    wr.dram_read_bytes = wr.dram_bytes;
    prof_time_estimate erd = run(small, wr);
    EXPECT_NEAR(erd.dram_cycles - ew.dram_cycles,
                (double)m.lat_dram - m.lat_l2 +
                    (double)(1 << 20) / m.dram_bytes_per_cycle *
                        (1 / m.dram_read_efficiency - 1 / m.dram_write_efficiency),
                1e-6);

    /* L2's capacity: resident blocks touching more than L2 holds go back to DRAM for what
     * they touched before; within it, or over a launch whose blocks come one wave at a
     * time, L2 keeps it */
    prof_kernel_input big = none;
    big.l2_bytes = 1ull << 30;          /* 1 GiB past L1, over... */
    big.dram_bytes = big.dram_read_bytes = 2 * (uint64_t)m.l2_bytes;  /* ...twice L2 */
    prof_time_estimate et = run(small, big);
    EXPECT_NEAR(et.l2_thrash, 1, 0);
    EXPECT_STR(et.limiter, "DRAM bandwidth");
    EXPECT_NEAR(et.dram_cycles,
                (double)big.l2_bytes / (m.dram_bytes_per_cycle * m.dram_read_efficiency) + m.lat_dram,
                1);
    big.dram_bytes = big.dram_read_bytes = (uint64_t)(m.l2_bytes / 2);
    prof_time_estimate ek = run(small, big);
    EXPECT_NEAR(ek.l2_thrash, 0, 0);
    EXPECT_EQ(ek.dram_cycles < et.dram_cycles / 2, 1);

    /* each estimate says how sure it is, by its limiter */
    const prof_time_estimate *all[] = {&ei, &es, &ef, &ec, &ea, &er, &el1, &ed, &et};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        EXPECT_NEAR(all[i]->uncertainty, prof_limiter_uncertainty(all[i]->limiter), 0);
        EXPECT_EQ(all[i]->uncertainty > 0 && all[i]->uncertainty <= 0.5, 1);
    }
    EXPECT_EQ(prof_limiter_uncertainty("host memory") > prof_limiter_uncertainty("issue"), 1);
    EXPECT_NEAR(prof_limiter_uncertainty("no such limiter"), 0.25, 0);

    /* few blocks an SM: each later block in a slot starts block_gap_cycles after the last
     * one ended, so one block an SM over 16 waves lasts 16 blocks and 15 gaps */
    {
        prof_block_cost lone;
        memset(&lone, 0, sizeof lone);
        lone.critical_cycles = 3000;
        lone.issue_cycles = 100;
        prof_kernel_input one;
        memset(&one, 0, sizeof one);
        one.blocks = (uint64_t)h100->multiprocessor_count * 16;
        one.threads_per_block = 256;
        one.regs_per_thread = 16;
        one.shared_per_block = 200 * 1024;  /* one block an SM */
        one.every_block = &lone;
        prof_time_estimate eo = prof_estimate_kernel(h100, &one);
        EXPECT_EQ(eo.blocks_per_sm, 1);
        double block = pow(pow(3000.0, m.issue_overlap_p) + pow(100.0 / m.schedulers,
                                                                m.issue_overlap_p),
                           1.0 / m.issue_overlap_p);
        EXPECT_NEAR(eo.makespan_cycles, 16 * block + 15 * m.block_gap_cycles, 1);
        EXPECT_EQ(m.block_gap_cycles > 0, 1);
    }

    /* page faults over managed memory: none without faulting bytes; migrating the host's
     * pages costs more a byte than making pages nobody touched */
    EXPECT_NEAR(prof_managed_fault_s(h100, 0, 0, 0), 0, 0);
    double mig = prof_managed_fault_s(h100, 64 << 20, 0, 0);
    double made = prof_managed_fault_s(h100, 0, 0, 64 << 20);
    EXPECT_NEAR(mig, m.uvm_fault_s + (64 << 20) / m.uvm_migrate_bytes_per_s, 1e-9);
    EXPECT_EQ(mig > made && made > m.uvm_fault_s, 1);
    /* pages the host took back: their own fault cost and rate; mixed with pages first
     * migrated, the first migration's fault cost */
    double back = prof_managed_fault_s(h100, 64 << 20, 64 << 20, 0);
    EXPECT_NEAR(back, m.uvm_back_fault_s + (64 << 20) / m.uvm_back_bytes_per_s, 1e-9);
    EXPECT_EQ(back < mig, 1);
    double mixed = prof_managed_fault_s(h100, 128 << 20, 64 << 20, 0);
    EXPECT_NEAR(mixed, m.uvm_fault_s + (64 << 20) / m.uvm_migrate_bytes_per_s +
                           (64 << 20) / m.uvm_back_bytes_per_s, 1e-9);
    EXPECT_EQ(prof_limiter_uncertainty("page faults") < 0.25, 1);

    if (prof_test_failures)
        fprintf(stderr, "%d failures\n", prof_test_failures);
    return prof_test_failures ? 1 : 0;
}
