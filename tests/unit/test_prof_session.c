/* test_prof_session — the profiler's observer (prof/session.c) on small PTX kernels run
 * through the executor: counts of instructions, branches and memory traffic, the SASS
 * corrections (a remainder counted as its instruction sequence, a branch to the kernel's
 * end as a predicated exit, a short shared-memory if-body as predicated code, an atom
 * whose result is unused as a reduction), a time estimate from the replayed blocks, and
 * a load missing on data another block of its wave brought in first (its fill in flight,
 * also past the first-touch writes the profiler holds back at once),
 * and a long warp extrapolated at its steady pace. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec_harness.h"
#include "gpu/gpu.h"
#include "prof/session.h"

static const char *ptx =
    ".version 7.8\n"
    ".target sm_90\n"
    ".address_size 64\n"
    /* copy: out[i] = in[i] % 7 for i < n (a coalesced load and store; the bounds check
     * jumps to the kernel's end) */
    ".visible .entry copy_rem(.param .u64 p_in, .param .u64 p_out, .param .u32 p_n, .param .u32 p_d)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [p_in];\n"
    "    ld.param.u64 %rd2, [p_out];\n"
    "    ld.param.u32 %r1, [p_n];\n"
    "    ld.param.u32 %r6, [p_d];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    setp.ge.u32 %p1, %r2, %r1;\n"
    "    @%p1 bra DONE;\n"
    "    mul.wide.u32 %rd3, %r2, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n"
    "    ld.global.u32 %r3, [%rd4];\n"
    "    rem.u32 %r4, %r3, %r6;\n"
    "    add.s64 %rd5, %rd2, %rd3;\n"
    "    st.global.u32 [%rd5], %r4;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n"
    /* tree: a shared-memory tree sum whose if-body ptxas predicates, a loop branch that
     * diverges nowhere, and an atomic add whose result nobody reads */
    ".visible .entry tree(.param .u64 p_out)\n"
    "{\n"
    "    .reg .pred %p<4>;\n"
    "    .reg .b32 %r<13>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    .shared .align 4 .b32 buf[64];\n"
    "    ld.param.u64 %rd1, [p_out];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    shl.b32 %r2, %r1, 2;\n"
    "    mov.u32 %r3, buf;\n"
    "    add.s32 %r4, %r3, %r2;\n"
    "    st.shared.u32 [%r4], %r1;\n"
    "    bar.sync 0;\n"
    "    mov.u32 %r5, 32;\n"
    "LOOP:\n"
    "    setp.ge.u32 %p1, %r1, %r5;\n"
    "    @%p1 bra SKIP;\n"
    "    shl.b32 %r6, %r5, 2;\n"
    "    add.s32 %r7, %r4, %r6;\n"
    "    ld.shared.u32 %r8, [%r4];\n"
    "    ld.shared.u32 %r9, [%r7];\n"
    "    add.s32 %r10, %r8, %r9;\n"
    "    st.shared.u32 [%r4], %r10;\n"
    "SKIP:\n"
    "    bar.sync 0;\n"
    "    shr.u32 %r5, %r5, 1;\n"
    "    setp.ne.u32 %p2, %r5, 0;\n"
    "    @%p2 bra LOOP;\n"
    "    ld.shared.u32 %r11, [buf];\n"
    "    atom.global.add.u32 %r12, [%rd1], %r11;\n"
    "    ret;\n"
    "}\n"
    /* gather: out[ctaid * 64 + tid] = in[ctaid * stride + tid] (stride 0: every block reads
     * the same 256 bytes) */
    ".visible .entry gather(.param .u64 p_in, .param .u64 p_out, .param .u32 p_stride)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [p_in];\n"
    "    ld.param.u64 %rd2, [p_out];\n"
    "    ld.param.u32 %r1, [p_stride];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    mov.u32 %r3, %ctaid.x;\n"
    "    mad.lo.u32 %r4, %r3, %r1, %r2;\n"
    "    mul.wide.u32 %rd3, %r4, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n"
    "    ld.global.u32 %r5, [%rd4];\n"
    "    mad.lo.u32 %r6, %r3, 64, %r2;\n"
    "    mul.wide.u32 %rd5, %r6, 4;\n"
    "    add.s64 %rd6, %rd2, %rd5;\n"
    "    st.global.u32 [%rd6], %r5;\n"
    "    ret;\n"
    "}\n"
    /* sweep: out[tid] = sum over j < iters of in[(j & 63) * 32 + tid] (one warp: an 8 KB
     * window, its first lap missing L1, every later one hitting) */
    ".visible .entry sweep(.param .u64 p_in, .param .u64 p_out, .param .u32 p_iters)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .f32 %f<3>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [p_in];\n"
    "    ld.param.u64 %rd2, [p_out];\n"
    "    ld.param.u32 %r1, [p_iters];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    mov.u32 %r3, 0;\n"
    "    mov.f32 %f1, 0f00000000;\n"
    "LOOP:\n"
    "    and.b32 %r4, %r3, 63;\n"
    "    shl.b32 %r5, %r4, 5;\n"
    "    add.s32 %r6, %r5, %r2;\n"
    "    mul.wide.u32 %rd3, %r6, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n"
    "    ld.global.f32 %f2, [%rd4];\n"
    "    add.f32 %f1, %f1, %f2;\n"
    "    add.s32 %r3, %r3, 1;\n"
    "    setp.lt.u32 %p1, %r3, %r1;\n"
    "    @%p1 bra LOOP;\n"
    "    mul.wide.u32 %rd5, %r2, 4;\n"
    "    add.s64 %rd6, %rd2, %rd5;\n"
    "    st.global.f32 [%rd6], %f1;\n"
    "    ret;\n"
    "}\n"
    /* strided: out[ctaid * 1024 + tid] = in[(ctaid * stride + (tid & (1023 >> ctaid))) * 16]
     * (each lane a 64-byte DRAM granule of its own: a warp's load first touches 32 of them;
     * block 1's warps 16 to 31 read what its warps 0 to 15 did) */
    ".visible .entry strided(.param .u64 p_in, .param .u64 p_out, .param .u32 p_stride)\n"
    "{\n"
    "    .reg .b32 %r<12>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [p_in];\n"
    "    ld.param.u64 %rd2, [p_out];\n"
    "    ld.param.u32 %r1, [p_stride];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    mov.u32 %r3, %ctaid.x;\n"
    "    mov.u32 %r10, 1023;\n"
    "    shr.u32 %r9, %r10, %r3;\n"
    "    and.b32 %r11, %r2, %r9;\n"
    "    mad.lo.u32 %r4, %r3, %r1, %r11;\n"
    "    shl.b32 %r5, %r4, 4;\n"
    "    mul.wide.u32 %rd3, %r5, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n"
    "    ld.global.u32 %r6, [%rd4];\n"
    "    shl.b32 %r7, %r3, 10;\n"
    "    add.s32 %r8, %r7, %r2;\n"
    "    mul.wide.u32 %rd5, %r8, 4;\n"
    "    add.s64 %rd6, %rd2, %rd5;\n"
    "    st.global.u32 [%rd6], %r6;\n"
    "    ret;\n"
    "}\n"
    /* spread: out[tid] = in[tid * step] (step 8: one float of each sector, 16: of every
     * other sector) */
    ".visible .entry spread(.param .u64 p_in, .param .u64 p_out, .param .u32 p_step)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [p_in];\n"
    "    ld.param.u64 %rd2, [p_out];\n"
    "    ld.param.u32 %r1, [p_step];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    mul.lo.u32 %r3, %r2, %r1;\n"
    "    mul.wide.u32 %rd3, %r3, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n"
    "    ld.global.u32 %r5, [%rd4];\n"
    "    mul.wide.u32 %rd5, %r2, 4;\n"
    "    add.s64 %rd6, %rd2, %rd5;\n"
    "    st.global.u32 [%rd6], %r5;\n"
    "    ret;\n"
    "}\n";

static const gpu_preset *h100;

/* Run kernel over grid x block under a profiling session (its workers' tables from pool,
 * NULL: their own); the session is returned. */
static prof_session *profile_with(harness *h, const char *kernel, uint32_t blocks,
                                  uint32_t threads, void **args, prof_table_pool *pool)
{
    const exec_kernel *k = exec_program_kernel(h->prog, kernel);
    CHECK(k != NULL);
    uint32_t grid[3] = {blocks, 1, 1}, block[3] = {threads, 1, 1};
    prof_launch L;
    prof_launch_init(&L, h100, grid, block, 16, exec_kernel_get_info(k)->static_shared, 0, 0);
    prof_session *s = prof_session_new(&L, exec_program_module(h->prog), true, pool);
    CHECK(s != NULL);
    uint8_t *params = harness_params(k, args);
    exec_launch el = harness_make_launch(h, k, dim(blocks, 1, 1), dim(threads, 1, 1), 0, params);
    el.clock_khz = 1980000;
    el.observer = prof_session_observer(s);
    exec_output out = {0};
    exec_fault f;
    for (uint32_t b = 0; b < blocks; b++)
        CHECK_EQ_U64(exec_run_block(h->worker, &el, dim(b, 0, 0), b % 132, &out, &f), EXEC_OK);
    exec_worker_observe_end(h->worker);
    free(out.data);
    free(params);
    return s;
}

static prof_session *profile(harness *h, const char *kernel, uint32_t blocks, uint32_t threads,
                             void **args)
{
    return profile_with(h, kernel, blocks, threads, args, NULL);
}

static void test_copy_rem(harness *h)
{
    uint32_t *in = harness_alloc(h, 64 * 4), *out = harness_alloc(h, 64 * 4);
    for (int i = 0; i < 64; i++) in[i] = (uint32_t)(i * 37);
    uint32_t n = 48, d = 7;
    void *args[] = {&in, &out, &n, &d};
    prof_session *s = profile(h, "copy_rem", 1, 64, args);
    const prof_counters *c = prof_session_counters(s);
    for (uint32_t i = 0; i < n; i++) CHECK_EQ_U64(out[i], in[i] % 7);
    /* warp 0: all 32 lanes load and store; warp 1: lanes 32..47 */
    CHECK_EQ_U64(c->mem[PROF_MEM_GLOBAL_LD].requests, 2);
    CHECK_EQ_U64(c->mem[PROF_MEM_GLOBAL_LD].sectors, 4 + 2);
    CHECK_EQ_U64(c->mem[PROF_MEM_GLOBAL_ST].sectors, 4 + 2);
    /* the bounds check ends threads: a predicated EXIT, not a branch */
    CHECK_EQ_U64(c->branches, 0);
    /* per warp: 4 ld.param, mov, setp, bra, mul, add, ld, rem (18), add, st, ret = 31 */
    CHECK_EQ_U64(c->inst_executed, 2 * 31);
    /* warp 1 runs the body with 16 of its 32 lanes */
    uint64_t body = 1 + 1 + 1 + 18 + 1 + 1; /* mul, add, ld, rem, add, st */
    uint64_t head = 4 + 1 + 1 + 1;           /* ld.param x4, mov, setp, bra */
    CHECK_EQ_U64(c->thread_inst_executed,
                 32 * (head + body + 1) + 32 * head + 16 * body + 16 /* ret */);
    prof_time_estimate e = prof_session_estimate(s, 2 * 31);
    CHECK(e.detailed);
    CHECK(e.seconds > 2e-6 && e.seconds < 10e-6);
    CHECK(c->sm_active_cycles > 0 && c->warps_active_cycles >= c->sm_active_cycles);
    prof_session_free(s);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

static void test_tree(harness *h)
{
    uint32_t *out = harness_alloc(h, 4);
    void *args[] = {&out};
    prof_session *s = profile(h, "tree", 2, 64, args);
    const prof_counters *c = prof_session_counters(s);
    CHECK_EQ_U64(*out, 2 * 64 * (63 * 64 / 2)); /* every thread adds the block's sum */
    /* the if-body over shared memory is predicated code: only the loop's back edge is a
     * branch (6 iterations per warp, 2 warps, 2 blocks), and it never diverges */
    CHECK_EQ_U64(c->branches, 6 * 2 * 2);
    CHECK_EQ_U64(c->divergent_branches, 0);
    /* predicated code is issued to every lane: all instructions have 32 lanes */
    CHECK_EQ_U64(c->thread_inst_executed, 32 * c->inst_executed);
    /* its shared loads are issued by both warps at every step (predicated off in warp 1,
     * which has no lane below 32): 2 loads x 6 steps x 2 warps x 2 blocks, plus the read
     * of buf[0] by each warp; requests only where a lane loads */
    CHECK_EQ_U64(c->mem[PROF_MEM_SHARED_LD].inst, 2 * 6 * 2 * 2 + 2 * 2);
    CHECK_EQ_U64(c->mem[PROF_MEM_SHARED_LD].requests, 2 * 6 * 2 + 2 * 2);
    /* the atom's result is never read: counted as a reduction */
    CHECK_EQ_U64(c->mem[PROF_MEM_GLOBAL_RED].requests, 2 * 2);
    CHECK_EQ_U64(c->mem[PROF_MEM_GLOBAL_ATOM].requests, 0);
    prof_session_free(s);
    harness_dealloc(h, out);
}

/* Sessions that take their workers' tables from a pool, one after another (the second
 * finds the first one's pattern memo), count and estimate what a session with tables of
 * its own does. */
static void test_pool(harness *h)
{
    uint32_t *in = harness_alloc(h, 64 * 4), *out = harness_alloc(h, 64 * 4);
    uint32_t n = 48, d = 7;
    void *args[] = {&in, &out, &n, &d};
    prof_session *alone = profile(h, "copy_rem", 3, 64, args);
    prof_table_pool *pool = prof_table_pool_new();
    CHECK(pool != NULL);
    for (int round = 0; round < 2; round++) {
        prof_session *s = profile_with(h, "copy_rem", 3, 64, args, pool);
        const prof_counters *a = prof_session_counters(alone), *c = prof_session_counters(s);
        CHECK_EQ_U64(c->inst_executed, a->inst_executed);
        for (int k = 0; k < PROF_MEM_KIND_COUNT; k++) {
            CHECK_EQ_U64(c->mem[k].requests, a->mem[k].requests);
            CHECK_EQ_U64(c->mem[k].sectors, a->mem[k].sectors);
            CHECK_EQ_U64(c->mem[k].transactions, a->mem[k].transactions);
            CHECK_EQ_U64(c->mem[k].bytes_used, a->mem[k].bytes_used);
        }
        prof_time_estimate ea = prof_session_estimate(alone, a->inst_executed);
        prof_time_estimate ec = prof_session_estimate(s, c->inst_executed);
        CHECK(ea.seconds == ec.seconds);
        prof_session_free(s);
    }
    prof_session_free(alone);
    prof_table_pool_free(pool);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

/* Of two profiles of the same grid of two blocks (insns warp-instructions), a's blocks
 * reading the same bytes and b's their own: a's average block is half an in-wave fill
 * longer (one of the two waits the fill). Frees both. */
static void check_one_fill_longer(prof_session *a, prof_session *b, uint64_t insns)
{
    prof_time_estimate ea = prof_session_estimate(a, insns);
    prof_time_estimate eb = prof_session_estimate(b, insns);
    prof_sm_model m = prof_sm_model_for(h100);
    double fill = m.inwave_fill_share * (double)(m.lat_dram - m.lat_l2);
    CHECK(fill > 0);
    CHECK(ea.block_critical - eb.block_critical > 0.5 * fill - 1);
    CHECK(ea.block_critical - eb.block_critical < 0.5 * fill + 1);
    prof_session_free(a);
    prof_session_free(b);
}

/* Two blocks of one wave (on two SMs) reading the same 256 bytes: the second one's load
 * misses its L1 on sectors the first touched, which on the GPU are still coming from DRAM
 * (the blocks run at once): it waits inwave_fill_share of DRAM's latency beyond L2's. Two
 * blocks reading their own bytes each wait L2's latency (their first touches' DRAM share is
 * the grid's, spread over its misses). */
static void test_inwave_fill(harness *h)
{
    uint32_t *in = harness_alloc(h, 128 * 4), *out = harness_alloc(h, 128 * 4);
    for (int i = 0; i < 128; i++) in[i] = (uint32_t)i;
    uint32_t shared = 0, own = 64;
    void *args_shared[] = {&in, &out, &shared}, *args_own[] = {&in, &out, &own};
    prof_session *a = profile(h, "gather", 2, 64, args_shared);
    CHECK_EQ_U64(out[64 + 5], 5);
    prof_session *b = profile(h, "gather", 2, 64, args_own);
    CHECK_EQ_U64(out[64 + 5], 64 + 5);
    check_one_fill_longer(a, b, 2 * 2 * 14);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

/* As test_inwave_fill, with blocks of 32 warps whose lanes each first touch a DRAM granule
 * of their own: the first block's first touches (over a thousand runs of sectors) are
 * several times what the profiler holds back before making them in its table of
 * first-touching blocks, and those made in its first batches are what the second block's
 * loads read: they find them (the second block's critical path is one fill longer), and
 * would not, had a batch been lost. */
static void test_inwave_fill_many(harness *h)
{
    uint32_t *in = harness_alloc(h, 1536 * 16 * 4), *out = harness_alloc(h, 2048 * 4);
    for (int i = 0; i < 1536 * 16; i++) in[i] = (uint32_t)i;
    uint32_t shared = 0, own = 1024;
    void *args_shared[] = {&in, &out, &shared}, *args_own[] = {&in, &out, &own};
    prof_session *a = profile(h, "strided", 2, 1024, args_shared);
    CHECK_EQ_U64(out[1024 + 5], 5 * 16);
    prof_session *b = profile(h, "strided", 2, 1024, args_own);
    CHECK_EQ_U64(out[1024 + 5], (1024 + 5) * 16);
    check_one_fill_longer(a, b, 2 * 32 * 19);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

/* A warp longer than the instructions timed one by one goes on at the pace of their second
 * half: past its first lap's misses, which the rest of the run does not repeat. Twice the
 * iterations then take less than twice the time (at the whole window's pace they took
 * exactly twice), and the second thousands of iterations cost what the second half's
 * L1 hits do. */
static void test_steady_pace(harness *h)
{
    float *in = harness_alloc(h, 2048 * 4), *out = harness_alloc(h, 32 * 4);
    for (int i = 0; i < 2048; i++) in[i] = 1.0f;
    double crit[2];
    for (int k = 0; k < 2; k++) {
        uint32_t iters = 2048u << k;
        void *args[] = {&in, &out, &iters};
        prof_session *s = profile(h, "sweep", 1, 32, args);
        CHECK(out[7] == (float)iters);
        crit[k] = prof_session_estimate(s, 10ull * iters).block_critical;
        prof_session_free(s);
    }
    CHECK(crit[0] > 0);
    CHECK(crit[1] / crit[0] > 1.5);
    CHECK(crit[1] / crit[0] < 1.95);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

/* DRAM reads 64-byte granules: a warp loading one float of every other sector (32 sectors
 * in 32 granules) moves twice what one loading 32 consecutive sectors (16 granules) does. */
static void test_dram_granule(harness *h)
{
    uint32_t *in = harness_alloc(h, 32 * 16 * 4), *out = harness_alloc(h, 32 * 4);
    for (int i = 0; i < 32 * 16; i++) in[i] = (uint32_t)i;
    double dram[2];
    for (int k = 0; k < 2; k++) {
        uint32_t step = 8u << k;
        void *args[] = {&in, &out, &step};
        prof_session *s = profile(h, "spread", 1, 32, args);
        CHECK_EQ_U64(out[3], 3 * step);
        dram[k] = prof_session_estimate(s, 12).dram_cycles;
        prof_session_free(s);
    }
    prof_sm_model m = prof_sm_model_for(h100);
    /* 32 sectors of 16 granules, then 32 sectors of 32 (their pairs read too) */
    CHECK(fabs(dram[1] - dram[0] - 16 * 64 / (m.dram_bytes_per_cycle * m.dram_read_efficiency)) < 1);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

/* A straight-line body of n dependent adds (one warp): n * 16 bytes of code. */
static char *line_body(uint32_t n)
{
    const char *head = ".version 7.8\n.target sm_90\n.address_size 64\n"
                       ".visible .entry body(.param .u64 p_out)\n{\n"
                       "    .reg .f32 %f<3>;\n    .reg .b64 %rd<3>;\n"
                       "    ld.param.u64 %rd1, [p_out];\n    mov.f32 %f1, 0f3F800000;\n";
    const char *line = "    add.f32 %f1, %f1, %f1;\n";
    const char *tail = "    st.global.f32 [%rd1], %f1;\n    ret;\n}\n";
    size_t len = strlen(head) + n * strlen(line) + strlen(tail) + 1;
    char *t = malloc(len);
    CHECK(t != NULL);
    strcpy(t, head);
    char *p = t + strlen(head);
    for (uint32_t i = 0; i < n; i++, p += strlen(line))
        memcpy(p, line, strlen(line));
    strcpy(p, tail);
    return t;
}

/* Instruction fetch: code longer than the L0 instruction cache costs each instruction
 * fetch_l1_cycles more on the warp's path, longer than L1's fetch_l2_cycles more; short
 * code nothing. Per instruction, against a body that fits. */
static void test_fetch(void)
{
    prof_sm_model m = prof_sm_model_for(h100);
    uint32_t sizes[3] = {1000, (uint32_t)(m.icache_l0_bytes / 16) + 1000,
                         (uint32_t)(m.icache_l1_bytes / 16) + 1000};
    double per[3];
    for (int k = 0; k < 3; k++) {
        char *text = line_body(sizes[k]);
        harness g = {0};
        CHECK(harness_load(&g, text));
        free(text);
        float *out = harness_alloc(&g, 4);
        void *args[] = {&out};
        prof_session *s = profile(&g, "body", 1, 32, args);
        prof_time_estimate e = prof_session_estimate(s, sizes[k] + 4);
        per[k] = (e.cycles - m.launch_overhead_s * m.clock_hz) / sizes[k];
        prof_session_free(s);
        harness_dealloc(&g, out);
        harness_free(&g);
    }
    CHECK(fabs(per[1] - per[0] - m.fetch_l1_cycles) < 0.3);
    CHECK(fabs(per[2] - per[0] - m.fetch_l2_cycles) < 0.3);
}


/* ---- accesses told by base and step (exec_observer.mem_affine) ---- */

/* A session of one block of 64 threads fed by hand: its observer, worker and site (the
 * access's instruction: the kernel's first). */
typedef struct fed {
    prof_session *s;
    const exec_observer *o;
    exec_launch el;
    exec_site site;
} fed;

static void fed_begin(harness *h, fed *f)
{
    const exec_kernel *k = exec_program_kernel(h->prog, "copy_rem");
    CHECK(k != NULL);
    uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    prof_launch L;
    prof_launch_init(&L, h100, grid, block, 16, exec_kernel_get_info(k)->static_shared, 0, 0);
    f->s = prof_session_new(&L, exec_program_module(h->prog), true, NULL);
    CHECK(f->s != NULL);
    f->o = prof_session_observer(f->s);
    f->el = harness_make_launch(h, k, dim(1, 1, 1), dim(64, 1, 1), 0, NULL);
    memset(&f->site, 0, sizeof f->site);
    f->site.launch = &f->el;
    f->site.insn = &exec_program_module(h->prog)->funcs[0].insns[0];
    f->site.worker_state = f->o->begin_worker(f->o->ctx);
    f->o->block_begin(&f->site, 64);
}

static void fed_end(fed *f)
{
    f->o->block_end(&f->site);
    f->o->end_worker(f->o->ctx, f->site.worker_state);
}

/* Tell one access, lane l at base + x * step + y * row (x, y: its place in rows of 2^lw
 * lanes): by its lanes (compact false), or by base and steps, as the executor does (the
 * lanes when the tool declines: exec_observe_affine). Returns whether the tool took the
 * compact form. */
static bool fed_rows(fed *f, bool compact, ptx_space sp, exec_mem_access acc, uint64_t base,
                     int64_t step, int64_t row, uint32_t lw, uint32_t mask, uint32_t size)
{
    if (compact && f->o->mem_affine(&f->site, sp, acc, base, step, row, lw, mask, size))
        return true;
    uint64_t addr[32];
    for (uint32_t l = 0; l < 32; l++)
        addr[l] = base + (uint64_t)(l & ((1u << lw) - 1u)) * (uint64_t)step +
                  (uint64_t)(l >> lw) * (uint64_t)row;
    f->o->mem(&f->site, sp, acc, addr, mask, size);
    return false;
}

/* ... in one row of 32 lanes: base + l * step. */
static bool fed_access(fed *f, bool compact, ptx_space sp, exec_mem_access acc,
                       uint64_t base, int64_t step, uint32_t mask, uint32_t size)
{
    return fed_rows(f, compact, sp, acc, base, step, 0, 5, mask, size);
}

/* Every combination of size (1 to 16 bytes), step (coalesced, uniform, backwards, strided,
 * misaligned, a line apart), start (aligned, misaligned, across a sector, across a line),
 * lanes on (all, half, the two ends, every other, one), rows (one of 32 lanes, two of 16
 * a line apart, four of 8 backwards), space and kind, each told three
 * times (the second time 4 KiB further: the same pattern): counted from base and step, the
 * session's counters, DRAM and L2 traffic and touched bytes are those of the same accesses
 * told lane by lane; and every one was taken in the compact form, the repeats (two of
 * every three) counted from the memo without their lanes. */
static void test_affine_same(harness *h)
{
    static const uint32_t sizes[] = {1, 2, 4, 8, 16};
    static const uint32_t masks[] = {0xffffffffu, 0x0000ffffu, 0x80000001u, 0x55555555u,
                                     0x00000100u};
    static const uint64_t starts[] = {0, 4, 30, 120};
    fed lanes, affine;
    fed_begin(h, &lanes);
    fed_begin(h, &affine);
    uint64_t told = 0, compact = 0;
    /* one row; rows of 16 lanes a line apart; of 8, backwards */
    static const uint32_t lws[] = {5, 4, 3};
    for (unsigned i = 0; i < 2 * 2 * 5 * 7 * 4 * 5 * 3; i++) {
        unsigned ri = i % 3, mi = i / 3 % 5, bi = i / 15 % 4, si = i / 60 % 7,
                 zi = i / 420 % 5, acc = i / 2100 % 2, sp = i / 4200;
        uint32_t size = sizes[zi];
        const int64_t steps[] = {size, 0, -(int64_t)size, 2 * (int64_t)size, 3, 128, 36};
        const int64_t rows[] = {0, 128, -(int64_t)size * 40};
        ptx_space space = sp ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL;
        uint64_t base = (sp ? 0x2000 : 0x7f0000100000ull) + starts[bi] +
                        (uint64_t)told * (sp ? 0 : 0x10000);
        exec_mem_access a = acc ? EXEC_OBS_STORE : EXEC_OBS_LOAD;
        for (unsigned r = 0; r < 3; r++) {
            uint64_t b = base + (r == 1 ? 4096 : 0);
            CHECK(!fed_rows(&lanes, false, space, a, b, steps[si], rows[ri], lws[ri],
                            masks[mi], size));
            compact += fed_rows(&affine, true, space, a, b, steps[si], rows[ri], lws[ri],
                                masks[mi], size);
        }
        told++;
    }
    fed_end(&lanes);
    fed_end(&affine);
    /* each taken in the compact form; its repeats counted from the memo alone */
    CHECK_EQ_U64(compact, 3 * told);
    CHECK_EQ_U64(prof_session_compact_accesses(affine.s), 2 * told);
    CHECK_EQ_U64(prof_session_compact_accesses(lanes.s), 0);
    prof_time_estimate el = prof_session_estimate(lanes.s, 0);
    prof_time_estimate ea = prof_session_estimate(affine.s, 0);
    const prof_counters *cl = prof_session_counters(lanes.s), *ca = prof_session_counters(affine.s);
    for (unsigned k = 0; k < PROF_MEM_KIND_COUNT; k++) {
        const uint64_t *x = (const uint64_t *)&cl->mem[k], *y = (const uint64_t *)&ca->mem[k];
        for (size_t i = 0; i < sizeof cl->mem[k] / sizeof(uint64_t); i++)
            CHECK_EQ_U64(y[i], x[i]);
    }
    CHECK(memcmp(cl, ca, sizeof *cl) == 0);
    CHECK(el.dram_cycles == ea.dram_cycles && el.l2_cycles == ea.l2_cycles);
    CHECK(el.dram_cycles > 0);
    CHECK_EQ_U64(prof_session_touched_bytes(affine.s, 0x7f0000000000ull, 0x7f0100000000ull),
                 prof_session_touched_bytes(lanes.s, 0x7f0000000000ull, 0x7f0100000000ull));
    /* the lane-by-lane session saw them all: some sectors, some bank conflicts */
    CHECK(cl->mem[PROF_MEM_GLOBAL_LD].sectors > 0 && cl->mem[PROF_MEM_SHARED_ST].transactions >
                                                         cl->mem[PROF_MEM_SHARED_ST].requests);
    prof_session_free(lanes.s);
    prof_session_free(affine.s);
}

/* Accesses of one instruction, lanes on and first lane's phase (so one pair of memo slots),
 * each differing from the one before in one part of the key alone (the rows' width with
 * the same steps, the row step, the step, the size, load or store), each told twice (the
 * second time 4 KiB further): none is taken for the pattern of the one before, whose entry
 * was marked with its steps. The counts are those of the same accesses told lane by lane,
 * and each repeat, only it, was counted from the memo. */
static void test_affine_key_parts(harness *h)
{
    static const struct {
        int64_t step, row;
        uint32_t lw, size;
        exec_mem_access acc;
    } v[] = {{4, 128, 4, 4, EXEC_OBS_LOAD},  {4, 128, 3, 4, EXEC_OBS_LOAD},
             {4, 256, 3, 4, EXEC_OBS_LOAD},  {8, 256, 3, 4, EXEC_OBS_LOAD},
             {8, 256, 3, 8, EXEC_OBS_LOAD},  {8, 256, 3, 8, EXEC_OBS_STORE}};
    const unsigned n = sizeof v / sizeof v[0];
    fed lanes, affine;
    fed_begin(h, &lanes);
    fed_begin(h, &affine);
    uint64_t compact = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned r = 0; r < 2; r++) {
            uint64_t b = 0x7f0000400000ull + i * 0x10000ull + r * 4096;
            CHECK(!fed_rows(&lanes, false, PTX_SPACE_GLOBAL, v[i].acc, b, v[i].step, v[i].row,
                            v[i].lw, ~0u, v[i].size));
            compact += fed_rows(&affine, true, PTX_SPACE_GLOBAL, v[i].acc, b, v[i].step,
                                v[i].row, v[i].lw, ~0u, v[i].size);
        }
    fed_end(&lanes);
    fed_end(&affine);
    CHECK_EQ_U64(compact, 2 * n);
    CHECK_EQ_U64(prof_session_compact_accesses(affine.s), n);
    const prof_counters *cl = prof_session_counters(lanes.s), *ca = prof_session_counters(affine.s);
    CHECK_EQ_U64(ca->mem[PROF_MEM_GLOBAL_LD].sectors, cl->mem[PROF_MEM_GLOBAL_LD].sectors);
    CHECK_EQ_U64(ca->mem[PROF_MEM_GLOBAL_ST].sectors, cl->mem[PROF_MEM_GLOBAL_ST].sectors);
    CHECK(cl->mem[PROF_MEM_GLOBAL_LD].sectors > 0 && cl->mem[PROF_MEM_GLOBAL_ST].sectors > 0);
    CHECK(memcmp(cl, ca, sizeof *cl) == 0);
    CHECK_EQ_U64(prof_session_touched_bytes(affine.s, 0x7f0000000000ull, 0x7f0100000000ull),
                 prof_session_touched_bytes(lanes.s, 0x7f0000000000ull, 0x7f0100000000ull));
    prof_session_free(lanes.s);
    prof_session_free(affine.s);
}

/* The counts of single global loads told by base and step, each twice (the second time
 * from the memo, compact): requests, sectors and bytes. */
static void check_affine_load(harness *h, uint64_t start, int64_t step, uint32_t mask,
                              uint32_t size, uint64_t sectors, uint64_t bytes_used)
{
    fed f;
    fed_begin(h, &f);
    uint64_t base = 0x7f0000200000ull + start;
    CHECK(fed_access(&f, true, PTX_SPACE_GLOBAL, EXEC_OBS_LOAD, base, step, mask, size));
    CHECK(fed_access(&f, true, PTX_SPACE_GLOBAL, EXEC_OBS_LOAD, base + 1024, step, mask, size));
    fed_end(&f);
    const prof_mem_counts *c = &prof_session_counters(f.s)->mem[PROF_MEM_GLOBAL_LD];
    CHECK_EQ_U64(c->requests, 2);
    CHECK_EQ_U64(c->sectors, 2 * sectors);
    CHECK_EQ_U64(c->bytes_requested, 2ull * (uint64_t)__builtin_popcount(mask) * size);
    CHECK_EQ_U64(c->bytes_used, 2 * bytes_used);
    CHECK_EQ_U64(prof_session_compact_accesses(f.s), 1);
    prof_session_free(f.s);
}

static void test_affine_counts(harness *h)
{
    check_affine_load(h, 0, 4, ~0u, 4, 4, 128);           /* coalesced */
    check_affine_load(h, 4, 4, ~0u, 4, 5, 128);           /* misaligned: one more sector */
    check_affine_load(h, 0, 16, ~0u, 16, 16, 512);        /* 16-byte lanes */
    check_affine_load(h, 8, 0, ~0u, 8, 1, 8);             /* uniform */
    check_affine_load(h, 0, 128, ~0u, 4, 32, 128);        /* a line apart */
    check_affine_load(h, 0, 1, 0x0000ffffu, 1, 1, 16);    /* half the lanes, bytes */
    check_affine_load(h, 30, 2, ~0u, 2, 3, 64);           /* across sectors */
    check_affine_load(h, 120, 4, 0x00000003u, 4, 1, 8);   /* two lanes, one sector */
    check_affine_load(h, 124, 4, 0x00000003u, 4, 2, 8);   /* ... across a line */
    check_affine_load(h, 60, -4, ~0u, 4, 4, 128);         /* backwards */
    /* two rows of 16 floats, 2 KiB apart (a 16 x 16 block's warp): 2 + 2 sectors */
    fed r;
    fed_begin(h, &r);
    for (unsigned k = 0; k < 2; k++)
        CHECK(fed_rows(&r, true, PTX_SPACE_GLOBAL, EXEC_OBS_LOAD, 0x7f0000400000ull + 512 * k,
                       4, 2048, 4, ~0u, 4));
    fed_end(&r);
    CHECK_EQ_U64(prof_session_counters(r.s)->mem[PROF_MEM_GLOBAL_LD].sectors, 2 * 4);
    CHECK_EQ_U64(prof_session_compact_accesses(r.s), 1);
    prof_session_free(r.s);
    /* what the compact form does not take: atomics, a step too far for the memo, local */
    fed f;
    fed_begin(h, &f);
    CHECK(!fed_access(&f, true, PTX_SPACE_GLOBAL, EXEC_OBS_ATOMIC, 0x7f0000300000ull, 4, ~0u, 4));
    CHECK(!fed_access(&f, true, PTX_SPACE_GLOBAL, EXEC_OBS_LOAD, 0x7f0000300000ull,
                      (int64_t)1 << 33, ~0u, 4));
    CHECK(!fed_access(&f, true, PTX_SPACE_LOCAL, EXEC_OBS_LOAD, 0x100, 4, ~0u, 4));
    CHECK(!fed_access(&f, true, PTX_SPACE_GLOBAL, EXEC_OBS_LOAD, 0x7f0000300000ull, 4, 0, 4));
    CHECK(!fed_rows(&f, true, PTX_SPACE_GLOBAL, EXEC_OBS_LOAD, 0x7f0000300000ull, 4,
                    (int64_t)1 << 40, 4, ~0u, 4));
    fed_end(&f);
    CHECK_EQ_U64(prof_session_compact_accesses(f.s), 0);
    prof_session_free(f.s);
}

int main(void)
{
    h100 = gpu_preset_find("h100");
    harness h = {0};
    if (!h100 || !harness_load(&h, ptx)) {
        fprintf(stderr, "setup: %s\n", h.err);
        return 1;
    }
    test_copy_rem(&h);
    test_tree(&h);
    test_pool(&h);
    test_inwave_fill(&h);
    test_inwave_fill_many(&h);
    test_steady_pace(&h);
    test_dram_granule(&h);
    test_fetch();
    test_affine_same(&h);
    test_affine_counts(&h);
    test_affine_key_parts(&h);
    harness_free(&h);
    return harness_report("test_prof_session");
}
