/* prof/timing.c — the timing model: a kernel's duration and achieved occupancy on a
 * device preset.
 *
 * What is modelled, and why it is enough for the questions the profiler answers (which
 * variant of a kernel is faster, what limits it, how full the SMs are):
 *
 * 1. A block's critical path (measured while it runs, prof/session.c). Each warp's
 *    instructions are replayed on a clock: an instruction issues one cycle after the
 *    warp's previous one, or later when a register it reads is not ready yet. A result is
 *    ready after its latency: arithmetic a few cycles (the seeds' 10-20 on Fermi, 4 on
 *    Volta and later), shared memory ~30, a global load 35 (L1 hit), ~260 (L2 hit) or
 *    ~550 (the first touch of a sector in the launch, from DRAM; the seeds' 400-800).
 *    Whether a sector hits is decided by a small direct-mapped L1 per host worker and a
 *    launch-wide record of sectors already touched. At a barrier a warp waits for the last
 *    warp of its block to arrive. The longest warp timeline is the block's critical path:
 *    the time it would take with the SM to itself.
 * 2. Sharing an SM. Up to blocks_per_sm blocks (the occupancy calculator's answer, with
 *    the registers ptxas assigns) are resident at once. They share the warp schedulers
 *    (one warp-instruction per cycle each; a PTX instruction that SASS expands, such as an
 *    integer division, counts for several), the shared-memory pipeline (one wavefront per
 *    cycle; bank conflicts add wavefronts) and the L1 (a few sectors per cycle). A block
 *    with k blocks beside it lasts max(critical path, k x its use of each throughput):
 *    while the resident warps have enough independent work, latency is hidden and the
 *    throughputs decide; with too few warps (low occupancy) the critical path does.
 *    (The critical path and the issue slots' share combine as their p-norm, point 9.)
 * 3. The grid. Blocks are handed out in order to the SM slot that frees first (the first
 *    wave round-robin over the SMs), so a last partial wave leaves SMs idle: the tail
 *    effect. The grid lasts until its last block ends, or as long as its DRAM and L2
 *    traffic takes at the preset's bandwidth if that is longer, plus a launch overhead
 *    (measured: ~2.3 us for an empty grid on the H100 under Nsight Compute; ~27 us more
 *    for a grid that calls printf, the printf buffer's hand-over, and ~1 us for each
 *    line and ~0.6 us for each warp that prints, one after another).
 * Achieved occupancy is the resident warps averaged over each SM's active time, from the
 * same schedule.
 *
 * Without per-block detail (a grid that ran unprofiled) the same model is fed a typical
 * block made from the instruction count alone: its warps issue their share of the
 * instructions with half the arithmetic latency exposed, and wait once for DRAM.
 *
 * 4. Narrower units, measured with bench/timing/suite.cu on an H100 (its tuning half):
 *    the SFU (a warp-instruction holds a sub-partition's MUFU for ~9 cycles, also on the
 *    warp's own path), the FP64 pipe (~2.4 cycles), the constant cache (a warp's load
 *    waits ~2 cycles for each further distinct address and ~2.5 for each further line:
 *    divergent __constant__ and kernel-parameter indexing); a division's SASS sequence is
 *    a dependent chain (its latency grows with its length); texture fetches take one
 *    typical latency (their addresses are not followed).
 * 5. Grid-wide limits beside the schedule: global atomics in L2 (ops on one address one
 *    after another, transactions per 128-byte line, and all of L2's transactions and ops),
 *    host-mapped memory over the host link (reads ~30 GB/s, writes ~52 GB/s, both at once),
 *    compare-and-swap retry loops under contention (c contenders of an address: c rounds
 *    of ~0.48 us plus L2's time over the swaps still retrying; cas_retry_s),
 *    and, added by the runtime, the device runtime's launches of child grids (~35 us the
 *    first, n launches ~35 us x n^0.53).
 * Each estimate names the limit that bound it and the median |error| of the suite's
 * estimates so bound (prof_limiter_uncertainty).
 *
 * 6. Measured on the suite's tuning half too: an SM takes a new block every ~160 cycles
 *    (a grid of many short blocks is bound by it: "block dispatch"); a grid that only wrote
 *    waits for L2 to take its stores, not for DRAM; %clock/%globaltimer are read in program
 *    order (~10 cycles each); L1 looks up one line at a time (~1.2 cycles a line: a warp
 *    access scattered over 32 lines, as a dynamically indexed local array's is, holds it
 *    32 times as long); a volatile load waits until L2 has taken the warp's earlier
 *    stores; and when the blocks resident at once touch more than L2 holds, their returns
 *    to data past L1 go to DRAM as well (L2's capacity).
 *
 * 7. Few blocks an SM (occupancy limited by shared memory, say), measured with
 *    bench/timing/suite_occ.cu: one kernel at 1, 2, 4 and 8 blocks an SM over 1 to 16
 *    waves. The shared memory itself costs nothing (1, 2 or 4 blocks an SM without it take
 *    as long; a carveout set by hand changes nothing for that kernel), occupancy does: a
 *    block that was the last one running on its SM leaves it ~1000 cycles before the next
 *    one's work starts (its retirement, the next one's launch: per wave at one block an
 *    SM, 3,630 cycles of elapsed time against 2,630 of the blocks' own clock64 durations,
 *    bench/timing/suite_diag.cu; ~400 of them idle by Nsight Compute's active cycles),
 *    which a grid of one block an SM pays in every wave; while other blocks run, the gap
 *    is hidden. (The L1 the carveout leaves is prof/session.c's: a kernel
 *    reusing a 96 KB window runs 40% longer with all of it given to shared memory.)
 * 8. Managed memory (bench/timing/suite_mm.cu, timed with CUDA events: Nsight Compute's
 *    replay hides page faults): a grid touching pages the host holds migrates them on
 *    fault (~180 us for the first batch, then ~5 GB/s), pages nobody touched yet are made
 *    on the device (~8 GB/s), and resident or prefetched pages cost nothing
 *    (prof_managed_fault_s; runtime/memrange.c follows where the pages are). Pages the
 *    host touched again after a grid had them (a GPU migrates them back to the host on
 *    its fault) fault back to the device in the next grid touching them: ~90 us, then
 *    ~8.5 GB/s (bench/timing/suite_mmback.cu; one float of every 4 KB read by the host
 *    costs the next grid as much as all of them).
 * 9. Blocks of one wave, measured with bench/timing/suite_diag.cu (the blocks' own
 *    %clock64 durations, and each kernel beside a copy without its signed remainder):
 *    (a) the blocks of a wave run at once, so a load missing on data another block of the
 *    wave touched first finds its fill from DRAM still in flight (vcuda's record says L2
 *    has it): it waits half of DRAM's latency beyond L2's (prof/session.c, in_wave_fill;
 *    132 blocks of k_occ_smem, one an SM, 2,900 cycles a block against 2,700 alone, where
 *    L2 hits would make it ~2,000); (b) latency and issue overlap imperfectly: a block
 *    takes the p-norm (p = 2) of its critical path and its share of the schedulers, not
 *    the larger alone (k_l1reuse: a block alone 23.7k cycles, four an SM 31.5k with 21k
 *    of issue each; k_occ_smem at 1, 2, 4 and 8 blocks an SM: 2.9k, 3.2k, 4.2k, 6.1k).
 *
 * 10. Instruction fetch (bench/timing/suite_ext.cu: straight-line bodies of 256 to 16,384
 *    FMAs, one to 16 warps an SM): a function whose hot code (the instructions taking 90%
 *    of its issues, 16 bytes a SASS instruction) exceeds the L0 instruction cache (32 KB
 *    here) fetches each of them again from the SM's L1 instruction cache (+1.65 cycles an
 *    instruction on the warp's path), or from L2 beyond L1's 128 KB (+4.2), and an SM
 *    fetches ~2.4 such warp-instructions a cycle ("instruction fetch" limit;
 *    prof/session.c, fold_fetch).
 *
 * Not modelled: DRAM page and bank effects (scattered sectors
 * stream at the efficiency of whole lines here), managed memory smaller than a page
 * touched by the host again (taken to stay on the device), clock boost, and the exact SASS a PTX instruction becomes (counts are
 * PTX instructions, with a few expansions weighted). bench/RESULTS.md ("Timing model")
 * gives the error against measured H100 kernel times.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "timing.h"

prof_sm_model prof_sm_model_for(const gpu_preset *p)
{
    prof_sm_model m;
    memset(&m, 0, sizeof m);
    m.clock_hz = p->clock_khz > 0 ? p->clock_khz * 1e3 : 1.5e9;
    m.sms = p->multiprocessor_count > 0 ? p->multiprocessor_count : 1;
    m.max_warps_per_sm = p->max_warps_per_sm > 0 ? p->max_warps_per_sm : 64;
    double dram_bytes_per_s = (double)p->mem_clock_khz * 1e3 * 2.0 * p->mem_bus_width / 8.0;
    if (dram_bytes_per_s <= 0)
        dram_bytes_per_s = 100e9;
    m.dram_bytes_per_cycle = dram_bytes_per_s / m.clock_hz;
    /* L2 serves about 80 sectors a cycle on an H100 (scattered sectors, measured with
     * bench/timing/suite.cu), 1.5 times what DRAM streams */
    m.l2_bytes_per_cycle = 1.5 * m.dram_bytes_per_cycle;
    m.lat_shared = 30;
    m.lat_l1 = 35;
    m.l1_line_cycles = 8;
    m.lat_l2 = 260;
    m.lat_dram = 750;
    m.lat_barrier = 20;
    m.divergence_cycles = 30;
    m.lat_shuffle = 12;
    m.shared_wavefronts_per_cycle = 1.0;
    m.l1_sectors_per_cycle = 4.0;
    /* L1 looks up one line at a time: a warp access scattered over 32 lines holds it 32
     * times as long as a coalesced one (bench/timing/suite.cu: dynamically indexed local
     * arrays, local_t16384_i128: ~1.2 cycles a line) */
    m.l1_line_cycles_tput = 1.2;
    m.launch_overhead_s = 2.2e-6;
    /* an SM takes a new block every ~160 cycles: 4096 one-warp blocks, all resident at
     * once, take 2.5 us more than one (bench/timing/suite.cu, empty_g4096) */
    m.block_dispatch_cycles = 160;
    m.printf_cycles = 500;
    m.printf_record_cycles = 1920;
    m.printf_launch_s = 26.6e-6;
    m.printf_warp_cycles = 1230;
    m.dram_efficiency = 0.8;
    m.dram_read_efficiency = 0.9;
    m.dram_write_efficiency = 0.8;
    m.l2_dirty_share = 0.4;
    m.l2_bytes = p->l2_cache_size > 0 ? (double)p->l2_cache_size : 50e6;
    m.l2_thrash_span = 0.25;
    /* measured on an H100 with bench/timing/suite.cu (the tuning half of its cases) */
    m.sfu_cycles = 9.0;
    m.fp64_cycles = 2.4;
    m.const_addr_cycles = 2.0;
    m.const_line_cycles = 2.5;
    m.atom_addr_s = 0.73e-9;
    m.atom_float_factor = 2.4;
    m.atom_line_s = 2.4e-9;
    m.atom_tx_s = 9.4e-9;
    m.atom_tx_all_s = 14e-12;
    m.atom_op_all_s = 2e-12;
    /* CAS loops under contention (bench/timing/suite.cu's tuning half: 4 threads to an
     * address, 4.2 us; 256, 204 us): ~0.48 us a round, ~950 cycles */
    m.cas_round_s = 0.48e-6;
    m.sys_read_bytes_per_s = 30e9;
    m.sys_write_bytes_per_s = 52e9;
    m.lat_sys = 2000;
    m.lat_texture = 900;
    m.lat_clock = 10;
    m.dp_first_s = 34.7e-6;
    m.dp_exponent = 0.53;
    m.uvm_fault_s = 180e-6;
    m.uvm_migrate_bytes_per_s = 5.0e9;
    m.uvm_populate_bytes_per_s = 8.0e9;
    /* pages the host took back after a grid had them, faulting to the device again
     * (bench/timing/suite_mmback.cu, its tuning half: 1 to 8 MB, ~90 us + 8.5 GB/s) */
    m.uvm_back_fault_s = 90e-6;
    m.uvm_back_bytes_per_s = 8.5e9;
    m.block_gap_cycles = 1000;
    m.inwave_fill_share = 0.5;
    m.issue_overlap_p = 2.0;
    /* instruction fetch (bench/timing/suite_ext.cu, the tuning half of its icache class:
     * bodies of 4,136 SASS instructions, 66 KB, take 1.65 cycles more an instruction
     * than 1,064 do; of 8,240, 132 KB, 4.2 more; 16 warps an SM running a 160 KB body
     * fetch ~2.4 warp-instructions a cycle) */
    m.icache_l0_bytes = 32 << 10;
    m.icache_l1_bytes = 128 << 10;
    m.fetch_l1_cycles = 1.65;
    m.fetch_l2_cycles = 4.2;
    m.fetch_insts_per_cycle = 2.4;
    if (p->major >= 7) {          /* Volta, Turing, Ampere, Hopper */
        m.schedulers = 4;
        m.lat_alu = 4;
        m.lat_fp64 = 8;
        m.lat_sfu = 20;
    } else if (p->major >= 5) {   /* Maxwell, Pascal */
        m.schedulers = 4;
        m.lat_alu = 6;
        m.lat_fp64 = 12;
        m.lat_sfu = 24;
        m.lat_dram = 600;
    } else if (p->major == 3) {   /* Kepler: four schedulers, dual issue not modelled */
        m.schedulers = 4;
        m.lat_alu = 10;
        m.lat_fp64 = 14;
        m.lat_sfu = 30;
        m.lat_shared = 40;
        m.lat_l1 = 40;
        m.lat_l2 = 300;
        m.lat_dram = 600;
        m.launch_overhead_s = 4e-6;
    } else {                      /* Fermi: two schedulers */
        m.schedulers = 2;
        m.lat_alu = 20;
        m.lat_fp64 = 24;
        m.lat_sfu = 40;
        m.lat_shared = 50;
        m.lat_l1 = 50;
        m.lat_l2 = 400;
        m.lat_dram = 700;
        m.launch_overhead_s = 5e-6;
    }
    return m;
}

/* A typical block, from the instruction count alone (no profile of the run). */
static prof_block_cost typical_block(const prof_sm_model *m, const prof_kernel_input *in)
{
    prof_block_cost b;
    memset(&b, 0, sizeof b);
    uint64_t warps = (in->threads_per_block + 31) / 32;
    double per_block = in->blocks ? (double)in->warp_instructions / (double)in->blocks : 0;
    double per_warp = warps ? per_block / (double)warps : 0;
    b.issue_cycles = (uint64_t)per_block;
    b.critical_cycles = (uint64_t)(per_warp * (1.0 + m->lat_alu / 2.0)) + m->lat_dram;
    return b;
}

/* Compare-and-swap retry loops under contention (the GPU runs the contenders at once;
 * vcuda's warps, one after another, never fail a swap, so the retries are modelled, not
 * counted). c threads swapping one address take c rounds: the first swap to reach L2 after
 * a success wins, the others fail and come back with the value it left. A round lasts a
 * failed swap's way back (cas_round_s) plus the time L2 takes over the transactions still
 * in the loop: on their line one after another (atom_line_s each), or L2's overall rate
 * for transactions and ops if that is slower; round k of c has k/c of them left. Only the
 * contenders resident at once compete: a grid of several waves runs a wave's rounds after
 * another's. Returns the seconds, and the rounds of a wave in *rounds. */
static double cas_retry_s(const prof_sm_model *m, const prof_kernel_input *in, double waves,
                          double *rounds)
{
    *rounds = 0;
    if (in->cas_hot < 2 || !in->cas_tx || !in->cas_lines)
        return 0;
    double w = waves > 1 ? waves : 1;
    double c = in->cas_hot / w;
    if (c < 2)
        return 0;
    double tx = (double)in->cas_tx / w;
    double line = tx / (double)in->cas_lines * m->atom_line_s;
    double all = tx * m->atom_tx_all_s + in->cas_ops / w * m->atom_op_all_s;
    double full = line > all ? line : all;          /* a round with every contender in */
    /* rounds 2..c retry: sum over k of (cas_round_s + k/c x full) */
    double s = (c - 1) * m->cas_round_s + (c * (c + 1) / 2 - 1) / c * full;
    *rounds = c;
    return w * s;
}

/* What can bound a block on its SM (block_cycles), in this order. */
enum { LIMITS = 8 };
static const char *const limit_names[LIMITS] = {"latency", "issue", "shared memory", "L1",
                                                "SFU", "FP64", "constant cache",
                                                "instruction fetch"};

/* A block's time on an SM it shares with k blocks (itself included). miss_extra: what
 * each round trip past L1 costs beyond L2's latency (DRAM's share of the misses);
 * fetch_wait: what instruction fetch adds to each warp's path; fetch_insts: the block's
 * warp-instructions fetched past the L0 instruction cache. */
static double block_cycles(const prof_sm_model *m, const prof_block_cost *b, double k,
                           double miss_extra, double fetch_wait, double fetch_insts,
                           int *limit)
{
    /* latency and issue overlap imperfectly: the warps' dependent waits and their turns at
     * the scheduler add up in part, so the block takes their p-norm, not the larger alone
     * (an H100: a block of k_l1reuse alone 23.7k cycles, four an SM 31.5k, their issue
     * alone 21k; bench/timing/suite_diag.cu) */
    double crit = (double)b->critical_cycles + miss_extra * (double)b->miss_rounds + fetch_wait;
    double issue = k * (double)b->issue_cycles / m->schedulers;
    double both = pow(pow(crit, m->issue_overlap_p) + pow(issue, m->issue_overlap_p),
                      1.0 / m->issue_overlap_p);
    double t[LIMITS] = {
        crit >= issue ? both : crit,
        crit >= issue ? issue : both,
        k * (double)b->shared_wavefronts / m->shared_wavefronts_per_cycle,
        k * fmax((double)b->l1_sectors / m->l1_sectors_per_cycle,
                 (double)b->l1_lines * m->l1_line_cycles_tput),
        k * (double)b->sfu_insts * m->sfu_cycles / m->schedulers,
        k * (double)b->fp64_insts * m->fp64_cycles / m->schedulers,
        k * (double)b->const_cycles,
        k * fetch_insts / m->fetch_insts_per_cycle,
    };
    int best = 0;
    for (int i = 1; i < LIMITS; i++)
        if (t[i] > t[best])
            best = i;
    *limit = best;
    return t[best];
}

/* ---- the schedule: blocks to SM slots in order, each to the slot that frees first ---- */

typedef struct slot {
    double free_at;
    uint32_t order;  /* tie-break: the first wave goes round-robin over the SMs */
} slot;

static bool slot_before(const slot *a, const slot *b)
{
    return a->free_at < b->free_at || (a->free_at == b->free_at && a->order < b->order);
}

static void heap_down(slot *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, s = i;
        if (l < n && slot_before(&h[l], &h[s]))
            s = l;
        if (r < n && slot_before(&h[r], &h[s]))
            s = r;
        if (s == i)
            return;
        slot t = h[i];
        h[i] = h[s];
        h[s] = t;
        i = s;
    }
}

prof_time_estimate prof_estimate_kernel(const gpu_preset *p, const prof_kernel_input *in)
{
    prof_sm_model m = prof_sm_model_for(p);
    prof_time_estimate e;
    memset(&e, 0, sizeof e);
    e.detailed = in->block_costs != NULL || in->every_block != NULL;
    uint32_t wpb = (in->threads_per_block + 31) / 32;
    gpu_occupancy occ = gpu_occupancy_calc(p, (int)in->threads_per_block,
                                           in->regs_per_thread > 0 ? in->regs_per_thread : 16,
                                           in->shared_per_block);
    int per_sm = occ.blocks_per_sm > 0 ? occ.blocks_per_sm : 1;
    e.blocks_per_sm = per_sm;
    e.waves = (double)in->blocks / ((double)per_sm * m.sms);
    if (in->blocks == 0 || wpb == 0) {
        e.seconds = m.launch_overhead_s;
        e.limiter = "launch";
        e.uncertainty = prof_limiter_uncertainty(e.limiter);
        return e;
    }

    /* block slots on the SMs, in the order the grid's blocks fill them: a grid with fewer
     * blocks than slots only ever uses its first ones */
    size_t nslots = (size_t)per_sm * (size_t)m.sms;
    if (nslots > in->blocks)
        nslots = (size_t)in->blocks;
    slot *heap = malloc(nslots * sizeof *heap);
    double *sm_first = malloc((size_t)m.sms * sizeof *sm_first);
    double *sm_last = calloc((size_t)m.sms, sizeof *sm_last);
    double *sm_dispatch = calloc((size_t)m.sms, sizeof *sm_dispatch);
    uint64_t *sm_blocks = calloc((size_t)m.sms, sizeof *sm_blocks);
    double *slot_start = calloc(nslots, sizeof *slot_start);
    double *slot_end = calloc(nslots, sizeof *slot_end);
    if (!heap || !sm_first || !sm_last || !sm_dispatch || !sm_blocks || !slot_start ||
        !slot_end) {
        free(slot_start);
        free(slot_end);
        free(heap);
        free(sm_first);
        free(sm_last);
        free(sm_dispatch);
        free(sm_blocks);
        e.seconds = m.launch_overhead_s;
        e.limiter = "launch";
        e.uncertainty = prof_limiter_uncertainty(e.limiter);
        return e;
    }
    for (size_t i = 0; i < nslots; i++) {
        heap[i].free_at = 0;
        heap[i].order = (uint32_t)i;  /* slot r*SMs + sm: SM = order % SMs */
    }
    for (int s = 0; s < m.sms; s++)
        sm_first[s] = -1;

    prof_block_cost typical = in->every_block ? *in->every_block : typical_block(&m, in);
    /* the misses DRAM serves: the launch's first touches among the bytes that went past L1 */
    double from_dram = in->l2_bytes ? (double)in->dram_bytes / (double)in->l2_bytes : 1.0;
    if (from_dram > 1)
        from_dram = 1;
    double miss_extra = from_dram * ((double)m.lat_dram - (double)m.lat_l2);
    /* instruction fetch past L0, per block and on each warp's path */
    double fetch_insts = (double)(in->fetch_l1_insts + in->fetch_l2_insts) / (double)in->blocks;
    double fetch_wait = ((double)in->fetch_l1_insts * m.fetch_l1_cycles +
                         (double)in->fetch_l2_insts * m.fetch_l2_cycles) /
                        ((double)in->blocks * wpb);
    uint64_t wave = (uint64_t)per_sm * (uint64_t)m.sms;
    uint64_t last_wave_start = in->blocks % wave ? in->blocks / wave * wave : in->blocks;
    int limit_count[LIMITS] = {0};
    double printf_records = 0, printf_warps = 0;
    double resident_warp_cycles = 0, makespan = 0;
    uint64_t sm_most = 0;  /* blocks the busiest SM took */
    for (uint64_t b = 0; b < in->blocks; b++) {
        const prof_block_cost *cost = in->block_costs ? &in->block_costs[b] : &typical;
        /* blocks sharing its SM: a full complement in whole waves, fewer in a last,
         * partial one */
        double k = per_sm;
        if (b >= last_wave_start)
            k = ceil((double)(in->blocks - last_wave_start) / m.sms);
        if (k > per_sm)
            k = per_sm;
        if (k < 1)
            k = 1;
        int limit;
        double d = block_cycles(&m, cost, k, miss_extra, fetch_wait, fetch_insts, &limit);
        limit_count[limit]++;
        e.block_critical += (double)cost->critical_cycles;
        e.block_issue += (double)cost->issue_cycles / m.schedulers;
        e.block_cycles += d;
        slot *s = &heap[0];
        int sm = (int)(s->order % (uint32_t)m.sms);
        /* the SM takes one new block at a time from the grid's queue; a block that was
         * the last one running on its SM leaves it idle block_gap_cycles before the next
         * starts (its retirement, the next one's launch; while other blocks run, the SM
         * stays busy and the slot's gap is hidden) */
        bool drained = s->free_at > 0;
        for (size_t o = (size_t)sm; drained && o < nslots; o += (size_t)m.sms)
            drained = o == s->order || !(slot_start[o] < s->free_at && slot_end[o] > s->free_at);
        double ready = drained ? s->free_at + m.block_gap_cycles : s->free_at;
        double start = ready > sm_dispatch[sm] ? ready : sm_dispatch[sm];
        sm_blocks[sm]++;
        sm_dispatch[sm] = start + m.block_dispatch_cycles;
        printf_records += cost->printf_records;
        printf_warps += cost->printf_warps;
        if (sm_first[sm] < 0)
            sm_first[sm] = start;
        s->free_at = start + d;
        slot_start[s->order] = start;
        slot_end[s->order] = s->free_at;
        if (s->free_at > sm_last[sm])
            sm_last[sm] = s->free_at;
        if (s->free_at > makespan)
            makespan = s->free_at;
        resident_warp_cycles += d * wpb;
        heap_down(heap, nslots, 0);
    }
    e.block_critical /= (double)in->blocks;
    e.block_issue /= (double)in->blocks;
    e.block_cycles /= (double)in->blocks;
    e.makespan_cycles = makespan;
    double active = 0;
    for (int s = 0; s < m.sms; s++) {
        if (sm_first[s] >= 0)
            active += sm_last[s] - sm_first[s];
        if (sm_blocks[s] > sm_most)
            sm_most = sm_blocks[s];
    }
    free(sm_blocks);
    free(slot_start);
    free(slot_end);
    free(heap);
    free(sm_first);
    free(sm_last);
    free(sm_dispatch);

    int most = 0;
    for (int i = 1; i < LIMITS; i++)
        if (limit_count[i] > limit_count[most])
            most = i;
    e.limiter = limit_names[most];
    /* an SM that spent most of the run taking blocks one at a time: the dispatch rate,
     * not the blocks' work, bounds it (many short blocks) */
    if ((double)sm_most * m.block_dispatch_cycles > 0.8 * makespan &&
        makespan > m.launch_overhead_s * m.clock_hz)
        e.limiter = "block dispatch";
    double cycles = makespan;
    /* L2's capacity: when the blocks resident at once touch more than L2 holds (their
     * share of the launch's footprint, the sectors it touched), a block coming back to
     * its data finds it evicted, as an LRU cache swept by more than it holds does: its
     * returns to data past L1 go to DRAM too (a dirty sector's write-back with them).
     * Fully so once that working set exceeds the capacity by l2_thrash_span of it; data
     * many blocks share, or a launch sweeping its data once, stays within it. */
    double dram_bytes = (double)in->dram_bytes;
    double resident = (double)per_sm * m.sms;
    double working_set = dram_bytes * (resident < (double)in->blocks
                                           ? resident / (double)in->blocks : 1.0);
    double thrash = (working_set - m.l2_bytes) / (m.l2_thrash_span * m.l2_bytes);
    /* the returns: traffic past L1 beyond the first touches, less the stores to sectors
     * already read (an in-place update writes back, it reads nothing again) */
    double rewritten = (double)in->dram_write_bytes -
                       (double)(in->dram_bytes - in->dram_read_bytes);
    double returns = (double)in->l2_bytes - (double)in->dram_bytes -
                     (rewritten > 0 ? rewritten : 0);
    if (thrash > 0 && returns > 0)
        dram_bytes += (thrash < 1 ? thrash : 1) * returns;
    e.l2_thrash = thrash > 0 ? (thrash < 1 ? thrash : 1) : 0;
    /* streaming at the bandwidth DRAM sustains, after the first request's latency (a read
     * waits for DRAM; stores only need L2 to take them, which writes them back later) */
    /* reads and writes at their own efficiency (an H100 streams reads at ~90% of its peak,
     * writes at ~80%: bench/timing/suite_ext.cu's 128 MB streams, tuning half); the
     * last l2_dirty_share of L2's capacity of what the grid wrote is still in L2 when it
     * ends (written back later: 22 of 134 MB written in the 128 MB write stream) */
    double reads = (double)in->dram_read_bytes + (dram_bytes - (double)in->dram_bytes);
    double writes = (double)in->dram_write_bytes - m.l2_dirty_share * m.l2_bytes;
    if (!in->dram_write_bytes && in->dram_bytes > in->dram_read_bytes)
        writes = (double)(in->dram_bytes - in->dram_read_bytes);  /* no record of stores */
    if (writes < 0)
        writes = 0;
    double dram = e.detailed && in->dram_bytes
                      ? reads / (m.dram_bytes_per_cycle * m.dram_read_efficiency) +
                            writes / (m.dram_bytes_per_cycle * m.dram_write_efficiency) +
                            (in->dram_read_bytes ? m.lat_dram : m.lat_l2)
                      : 0;
    double l2 = e.detailed ? (double)in->l2_bytes / m.l2_bytes_per_cycle : 0;
    e.dram_cycles = dram;
    e.l2_cycles = l2;
    if (dram > cycles) {
        cycles = dram;
        e.limiter = "DRAM bandwidth";
    }
    if (l2 > cycles) {
        cycles = l2;
        e.limiter = "L2 bandwidth";
    }
    /* global atomics in L2: the busiest address's ops one after another, and the
     * transactions over the lines in service at once */
    double atom_s = in->atomic_hot * m.atom_addr_s;
    if (in->atomic_tx && in->atomic_lines) {
        double line = (double)in->atomic_tx / (double)in->atomic_lines *
                      (in->atomic_lines == 1 ? m.atom_line_s : m.atom_tx_s);
        double all = (double)in->atomic_tx * m.atom_tx_all_s + in->atomic_ops * m.atom_op_all_s;
        if (line > atom_s)
            atom_s = line;
        if (all > atom_s)
            atom_s = all;
    }
    e.cas_cycles = cas_retry_s(&m, in, e.waves, &e.cas_rounds) * m.clock_hz;
    if (e.cas_cycles > atom_s * m.clock_hz)
        atom_s = e.cas_cycles / m.clock_hz;
    e.atomic_cycles = atom_s * m.clock_hz;
    if (e.atomic_cycles > cycles) {
        cycles = e.atomic_cycles;
        e.limiter = "atomics";
    }
    /* host-mapped memory over the host link (reads and writes in both directions at once) */
    double sys_r = (double)in->sys_read_bytes / m.sys_read_bytes_per_s;
    double sys_w = (double)in->sys_write_bytes / m.sys_write_bytes_per_s;
    e.sys_cycles = (sys_r > sys_w ? sys_r : sys_w) * m.clock_hz;
    if (e.sys_cycles > cycles) {
        cycles = e.sys_cycles;
        e.limiter = "host memory";
    }
    /* device printf: records go into one buffer, one after another */
    /* ... and each warp's call takes its turn at the buffer (an H100: one warp printing
     * one line 30 us, eight lines 37 us, 16 warps of as many blocks one line each 54 us:
     * bench/timing/suite.cu and examples/checkThreadIndex.cu) */
    double printf_cycles = printf_records * m.printf_record_cycles +
                           printf_warps * m.printf_warp_cycles;
    if (printf_cycles > cycles) {
        cycles = printf_cycles;
        e.limiter = "printf";
    }
    /* residency: stretched evenly when bandwidth, not the schedule, sets the length */
    double stretch = makespan > 0 ? cycles / makespan : 1;
    e.sm_elapsed_cycles = (uint64_t)llround(cycles * m.sms);
    e.sm_active_cycles = (uint64_t)llround(active * stretch);
    e.warps_active_cycles = (uint64_t)llround(resident_warp_cycles * stretch);
    /* a grid that printed: the H100 takes ~27 us more, however few lines it printed
     * (beside each printing warp's turn at the buffer, above) */
    double overhead = m.launch_overhead_s + (printf_records > 0 ? m.printf_launch_s : 0);
    e.cycles = cycles + overhead * m.clock_hz;
    e.seconds = e.cycles / m.clock_hz;
    e.uncertainty = prof_limiter_uncertainty(e.limiter);
    return e;
}

double prof_limiter_uncertainty(const char *limiter)
{
    /* median |error| of the estimates bound by each limiter, over the tuning half of
     * bench/timing/suite*.cu on an H100 (bench/timing/compare.py --half tune --by-limiter),
     * at least 5%; those bounding fewer than five launches there (L1, printf, instruction
     * fetch) and launch (none): the median over all (8%) */
    static const struct {
        const char *limiter;
        double err;
    } table[] = {
        {"latency", 0.10}, {"issue", 0.07}, {"shared memory", 0.05}, {"L1", 0.08},
        {"SFU", 0.05}, {"FP64", 0.10}, {"constant cache", 0.05}, {"L2 bandwidth", 0.09},
        {"DRAM bandwidth", 0.07}, {"atomics", 0.07}, {"host memory", 0.19}, {"printf", 0.08},
        {"launch", 0.08}, {"device launches", 0.09}, {"block dispatch", 0.08},
        {"page faults", 0.10}, {"instruction fetch", 0.08},
    };
    for (size_t i = 0; limiter && i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].limiter, limiter) == 0)
            return table[i].err;
    return 0.25;
}

double prof_device_launch_s(const gpu_preset *p, uint64_t n, double child_s)
{
    if (n == 0)
        return 0;
    prof_sm_model m = prof_sm_model_for(p);
    return m.dp_first_s * pow((double)n, m.dp_exponent) + (child_s > 0 ? child_s : 0);
}

double prof_managed_fault_s(const gpu_preset *p, uint64_t migrated, uint64_t returned,
                            uint64_t populated)
{
    if (!migrated && !populated)
        return 0;
    prof_sm_model m = prof_sm_model_for(p);
    if (returned > migrated)
        returned = migrated;
    /* pages coming back from the host alone: the shorter round trip */
    double first = migrated > returned || populated ? m.uvm_fault_s : m.uvm_back_fault_s;
    return first + (double)(migrated - returned) / m.uvm_migrate_bytes_per_s +
           (double)returned / m.uvm_back_bytes_per_s +
           (double)populated / m.uvm_populate_bytes_per_s;
}

double prof_estimate_kernel_ms(const gpu_preset *p, const prof_kernel_input *in)
{
    return prof_estimate_kernel(p, in).seconds * 1e3;
}
