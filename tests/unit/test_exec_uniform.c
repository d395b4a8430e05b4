/* test_exec_uniform — instructions run once for the warp when their operands are uniform
 * (exec/uniform.c): the cases a divergence analysis gets wrong if it is careless. Values
 * set on the two sides of a divergent branch, counters of loops that lanes leave at
 * different times, guarded definitions, loads from per-thread memory at one address,
 * atomics, warp shuffles, brx.idx, calls, predicates combined with divergent ones, and
 * uniform code run by only some lanes. Each kernel's result is checked lane by lane, and
 * the kernels that should have uniform instructions are checked to have them.
 */
#include "exec_harness.h"

#include "exec/alu_internal.h"
#include "exec/core.h"

static const char *const ptx_text =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".global .align 4 .u32 counter;\n"
    /* x = (tid & 1) ? 5 : 7 from uniform constants on each side; x + 1 per lane */
    ".visible .entry diverge_if(.param .u64 out) {\n"
    "  .reg .pred %p<4>; .reg .b32 %r<10>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.eq.s32 %p1, %r2, 0;\n"
    "  @%p1 bra ELSE;\n"
    "  mov.u32 %r3, 5;\n"
    "  bra.uni JOIN;\n"
    "ELSE:\n"
    "  mov.u32 %r3, 7;\n"
    "JOIN:\n"
    "  add.s32 %r4, %r3, 1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r4;\n"
    "  ret;\n"
    "}\n"
    /* k counts up to tid: lanes leave the loop at different times; out = 2k */
    ".visible .entry diverge_loop(.param .u64 out) {\n"
    "  .reg .pred %p<4>; .reg .b32 %r<10>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, 0;\n"
    "LOOP:\n"
    "  setp.ge.u32 %p1, %r2, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  add.s32 %r2, %r2, 1;\n"
    "  bra.uni LOOP;\n"
    "DONE:\n"
    "  shl.b32 %r3, %r2, 1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r3;\n"
    "  ret;\n"
    "}\n"
    /* a guarded definition (odd lanes set 9), then y = ntid*2 set by odd lanes only in
     * a divergent if over an earlier uniform 100: out = r5 * 1000 + y */
    ".visible .entry guarded(.param .u64 out) {\n"
    "  .reg .pred %p<4>; .reg .b32 %r<12>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.ne.s32 %p1, %r2, 0;\n"
    "  mov.u32 %r5, 3;\n"
    "  @%p1 mov.u32 %r5, 9;\n"
    "  mov.u32 %r6, 100;\n"
    "  @!%p1 bra SKIP;\n"
    "  mov.u32 %r7, %ntid.x;\n"
    "  shl.b32 %r6, %r7, 1;\n"
    "SKIP:\n"
    "  mul.lo.s32 %r8, %r5, 1000;\n"
    "  add.s32 %r9, %r8, %r6;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r9;\n"
    "  ret;\n"
    "}\n"
    /* lanes past n leave at once; the rest compute ntid*4 + tid with uniform parts */
    ".visible .entry early_exit(.param .u64 out, .param .u32 n) {\n"
    "  .reg .pred %p<4>; .reg .b32 %r<12>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r9, [n];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, %r9;\n"
    "  @%p1 bra END;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  shl.b32 %r3, %r2, 2;\n"
    "  add.s32 %r4, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r4;\n"
    "END:\n"
    "  ret;\n"
    "}\n"
    /* one local address for all lanes, but local memory is each thread's own; the same
     * through a generic pointer; and a shared value one thread wrote, read at one
     * address by all: out[3 tid ..] = tid, tid + 1, 42 + tid */
    ".visible .entry memories(.param .u64 out) {\n"
    "  .reg .pred %p<4>; .reg .b32 %r<12>; .reg .b64 %rd<10>;\n"
    "  .local .align 4 .b8 buf[8];\n"
    "  .shared .align 4 .u32 sval;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u64 %rd5, buf;\n"
    "  st.local.u32 [%rd5], %r1;\n"
    "  ld.local.u32 %r2, [%rd5];\n"
    "  add.s32 %r3, %r1, 1;\n"
    "  st.local.u32 [%rd5+4], %r3;\n"
    "  cvta.local.u64 %rd6, %rd5;\n"
    "  ld.u32 %r4, [%rd6+4];\n"
    "  setp.ne.s32 %p1, %r1, 0;\n"
    "  mov.u32 %r10, 42;\n"
    "  @!%p1 st.shared.u32 [sval], %r10;\n"
    "  bar.sync 0;\n"
    "  mov.u64 %rd7, sval;\n"
    "  ld.shared.u32 %r5, [%rd7];\n"
    "  add.s32 %r6, %r5, %r1;\n"
    "  mul.lo.s32 %r7, %r1, 3;\n"
    "  mul.wide.u32 %rd3, %r7, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r2;\n"
    "  st.global.u32 [%rd4+4], %r4;\n"
    "  st.global.u32 [%rd4+8], %r6;\n"
    "  ret;\n"
    "}\n"
    /* results of an atomic and of a shuffle differ per lane though their operands do
     * not: out[2 tid] = old counter value + 0, out[2 tid + 1] = shfl.down of 7*lane */
    ".visible .entry collectives(.param .u64 out) {\n"
    "  .reg .pred %p<4>; .reg .b32 %r<12>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u64 %rd2, counter;\n"
    "  mov.u32 %r2, 1;\n"
    "  atom.global.add.u32 %r3, [%rd2], %r2;\n"
    "  add.s32 %r4, %r3, 0;\n"
    "  mov.u32 %r5, 7;\n"
    "  mov.u32 %r9, %laneid;\n"
    "  mul.lo.s32 %r6, %r5, %r9;\n"
    "  shfl.sync.down.b32 %r7, %r6, 1, 31, -1;\n"
    "  add.s32 %r8, %r7, 0;\n"
    "  shl.b32 %r10, %r1, 1;\n"
    "  mul.wide.u32 %rd3, %r10, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r4;\n"
    "  st.global.u32 [%rd4+4], %r8;\n"
    "  ret;\n"
    "}\n"
    /* brx.idx on tid % 3 picks a constant; a call returns 3 * its argument; setp
     * combined with a divergent predicate; selp on a divergent predicate:
     * out[4 tid ..] = 10/20/30, 3 tid, (5 < 10 and tid even), (tid even ? 1 : 2) */
    ".func (.param .b32 ret) triple(.param .b32 x) {\n"
    "  .reg .b32 %r<4>;\n"
    "  ld.param.b32 %r1, [x];\n"
    "  mul.lo.s32 %r2, %r1, 3;\n"
    "  st.param.b32 [ret], %r2;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry control(.param .u64 out) {\n"
    "  .reg .pred %p<6>; .reg .b32 %r<16>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  rem.u32 %r2, %r1, 3;\n"
    "  ts: .branchtargets T0, T1, T2;\n"
    "  brx.idx %r2, ts;\n"
    "T0:\n"
    "  mov.u32 %r3, 10;\n"
    "  bra.uni J;\n"
    "T1:\n"
    "  mov.u32 %r3, 20;\n"
    "  bra.uni J;\n"
    "T2:\n"
    "  mov.u32 %r3, 30;\n"
    "J:\n"
    "  add.s32 %r4, %r3, 0;\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  .param .b32 r0;\n"
    "  st.param.b32 [a0], %r1;\n"
    "  call (r0), triple, (a0);\n"
    "  ld.param.b32 %r5, [r0];\n"
    "  }\n"
    "  add.s32 %r6, %r5, 0;\n"
    "  and.b32 %r7, %r1, 1;\n"
    "  setp.eq.s32 %p1, %r7, 0;\n"
    "  mov.u32 %r8, 5;\n"
    "  setp.lt.and.s32 %p2|%p3, %r8, 10, %p1;\n"
    "  selp.b32 %r9, 1, 0, %p2;\n"
    "  selp.b32 %r10, 1, 2, %p1;\n"
    "  shl.b32 %r11, %r1, 2;\n"
    "  mul.wide.u32 %rd3, %r11, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r4;\n"
    "  st.global.u32 [%rd4+4], %r6;\n"
    "  st.global.u32 [%rd4+8], %r9;\n"
    "  st.global.u32 [%rd4+12], %r10;\n"
    "  ret;\n"
    "}\n";

/* Instructions of kernel name that run once for the warp. */
static unsigned uniform_count(harness *h, const char *name) {
    const exec_kernel *k = exec_program_kernel(h->prog, name);
    unsigned n = 0;
    for (uint32_t i = 0; k && i < k->func->ncode; i++)
        n += exec_is_uniform_handler(k->func->code[i].fn);
    return n;
}

static uint32_t *run1(harness *h, const char *name, unsigned threads, unsigned words,
                      unsigned n_param) {
    uint32_t *out = harness_alloc(h, (size_t)threads * words * 4);
    memset(out, 0xee, (size_t)threads * words * 4);
    void *args[] = {&out, &n_param};
    harness_run r = harness_launch(h, name, dim(1, 1, 1), dim(threads, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind != EXEC_OK) fprintf(stderr, "%s: %s\n", name, r.fault.msg);
    free(r.out.data);
    return out;
}

/* The scalar handlers that run common operations once must compute what the lane
 * handlers compute: both run on edge values, uniform over a full and a partial mask. */
static void test_scalar_handlers(void) {
    static const struct { uint16_t op; uint8_t type, var; } probes[] = {
        {PTX_OP_mov, PTX_T_u32, ALU_V_NONE}, {PTX_OP_mov, PTX_T_b64, ALU_V_NONE},
        {PTX_OP_add, PTX_T_s32, ALU_V_NONE}, {PTX_OP_add, PTX_T_u64, ALU_V_NONE},
        {PTX_OP_sub, PTX_T_u32, ALU_V_NONE}, {PTX_OP_sub, PTX_T_s64, ALU_V_NONE},
        {PTX_OP_mul, PTX_T_s32, ALU_V_LO}, {PTX_OP_mul, PTX_T_u64, ALU_V_LO},
        {PTX_OP_mul, PTX_T_u32, ALU_V_WIDE}, {PTX_OP_mul, PTX_T_s32, ALU_V_WIDE},
        {PTX_OP_and, PTX_T_b32, ALU_V_NONE}, {PTX_OP_or, PTX_T_b64, ALU_V_NONE},
        {PTX_OP_xor, PTX_T_b32, ALU_V_NONE}, {PTX_OP_shl, PTX_T_b32, ALU_V_NONE},
        {PTX_OP_shl, PTX_T_b64, ALU_V_NONE}, {PTX_OP_shr, PTX_T_u32, ALU_V_NONE},
        {PTX_OP_shr, PTX_T_s32, ALU_V_NONE}, {PTX_OP_shr, PTX_T_u64, ALU_V_NONE},
        {PTX_OP_shr, PTX_T_s64, ALU_V_NONE}, {PTX_OP_shr, PTX_T_b32, ALU_V_NONE},
        {PTX_OP_setp, PTX_T_u32, ALU_V_LT}, {PTX_OP_setp, PTX_T_s32, ALU_V_GE},
        {PTX_OP_setp, PTX_T_s32, ALU_V_NE}, {PTX_OP_setp, PTX_T_u64, ALU_V_GT},
        {PTX_OP_setp, PTX_T_s64, ALU_V_LE}, {PTX_OP_setp, PTX_T_b32, ALU_V_EQ},
        {PTX_OP_setp, PTX_T_u32, ALU_V_HS}, {PTX_OP_setp, PTX_T_u64, ALU_V_LO_CMP},
    };
    static const uint64_t values[] = {0, 1, 2, 31, 32, 33, 63, 64, 65, 0x7fffffff,
                                      0x80000000, 0xffffffff, 0x100000000ull,
                                      0x8000000000000000ull, 0xffffffffffffffffull,
                                      0x123456789abcdef0ull, 0xfffffffe};
    const size_t nv = sizeof values / sizeof values[0];
    static uint64_t R1[3 * EXEC_WARP_SIZE] __attribute__((aligned(64))),
        R2[3 * EXEC_WARP_SIZE] __attribute__((aligned(64)));
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        exec_insn in;
        memset(&in, 0, sizeof in);
        in.op = probes[i].op;
        in.type = probes[i].type;
        in.aux = ALU_AUX(0, probes[i].var, 0);
        in.guard = -1;
        in.nd = 1;
        in.na = in.op == PTX_OP_mov ? 1 : 2;
        in.d[0] = 0;
        in.a[0] = 1;
        in.a[1] = 2;
        if (in.op == PTX_OP_setp) in.flags = EXEC_F_D_PRED;
        in.fn = exec_alu_lookup(&in);
        CHECK(in.fn != NULL);
        if (!in.fn) continue;
        exec_fn u = exec_uniform_handler_for(&in);
        CHECK(exec_is_uniform_handler(u));
        in.lane_fn = in.fn;
        for (size_t x = 0; x < nv; x++)
            for (size_t y = 0; y < nv; y++)
                for (unsigned pass = 0; pass < 2; pass++) {
                    uint32_t mask = pass ? 0x0f0f00f1u : EXEC_FULL_MASK;
                    uint32_t P1[2] = {0xa5a5a5a5u, 0}, P2[2] = {0xa5a5a5a5u, 0};
                    for (unsigned l = 0; l < EXEC_WARP_SIZE; l++) {
                        R1[l] = R2[l] = 0xdead0000u + l;
                        R1[32 + l] = R2[32 + l] = values[x];
                        R1[64 + l] = R2[64 + l] = values[y];
                    }
                    exec_warp w1, w2;
                    memset(&w1, 0, sizeof w1);
                    memset(&w2, 0, sizeof w2);
                    w1.R = R1; w1.P = P1;
                    w2.R = R2; w2.P = P2;
                    in.fn(&w1, &in, mask);
                    u(&w2, &in, mask);
                    bool same = !memcmp(R1, R2, sizeof R1) && P1[0] == P2[0];
                    if (!same)
                        fprintf(stderr, "probe %zu (op %u) on %llx, %llx mask %08x differs\n", i,
                                in.op, (unsigned long long)values[x],
                                (unsigned long long)values[y], mask);
                    CHECK(same);
                }
    }
}

int main(void) {
    test_scalar_handlers();
    harness h = {0};
    if (!harness_load(&h, ptx_text)) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    enum { T = 80 }; /* two full warps and a partial one */
    uint32_t *o = run1(&h, "diverge_if", T, 1, 0);
    for (unsigned i = 0; i < T; i++) CHECK_EQ_U64(o[i], (i & 1) ? 6 : 8);
    harness_dealloc(&h, o);

    o = run1(&h, "diverge_loop", T, 1, 0);
    for (unsigned i = 0; i < T; i++) CHECK_EQ_U64(o[i], 2 * i);
    harness_dealloc(&h, o);

    o = run1(&h, "guarded", T, 1, 0);
    for (unsigned i = 0; i < T; i++) CHECK_EQ_U64(o[i], (i & 1) ? 9000 + 2 * T : 3100);
    CHECK(uniform_count(&h, "guarded") > 0);
    harness_dealloc(&h, o);

    o = run1(&h, "early_exit", T, 1, 70);
    for (unsigned i = 0; i < T; i++) CHECK_EQ_U64(o[i], i < 70 ? 4 * T + i : 0xeeeeeeeeu);
    CHECK(uniform_count(&h, "early_exit") >= 1); /* the shl */
    harness_dealloc(&h, o);

    o = run1(&h, "memories", T, 3, 0);
    for (unsigned i = 0; i < T; i++) {
        CHECK_EQ_U64(o[3 * i], i);
        CHECK_EQ_U64(o[3 * i + 1], i + 1);
        CHECK_EQ_U64(o[3 * i + 2], 42 + i);
    }
    CHECK(uniform_count(&h, "memories") > 0); /* the ld.shared */
    harness_dealloc(&h, o);

    size_t csize;
    uint32_t *counter = exec_program_var(h.prog, "counter", &csize);
    CHECK(counter != NULL);
    o = run1(&h, "collectives", T, 2, 0);
    uint64_t seen = 0, seen_hi = 0;
    for (unsigned i = 0; i < T; i++) {
        uint32_t old = o[2 * i];
        CHECK(old < T);
        if (old < 64) seen |= 1ull << old; else if (old < T) seen_hi |= 1ull << (old - 64);
        /* lane 31 keeps its own value; a source lane past the partial warp's last is
         * undefined */
        unsigned lane = i % 32;
        if (lane == 31) CHECK_EQ_U64(o[2 * i + 1], 7 * lane);
        else if (i + 1 < T) CHECK_EQ_U64(o[2 * i + 1], 7 * (lane + 1));
    }
    CHECK_EQ_U64(seen, ~0ull);
    CHECK_EQ_U64(seen_hi, (1ull << (T - 64)) - 1);
    if (counter) CHECK_EQ_U64(*counter, T);
    harness_dealloc(&h, o);

    o = run1(&h, "control", T, 4, 0);
    for (unsigned i = 0; i < T; i++) {
        CHECK_EQ_U64(o[4 * i], 10 * (i % 3 + 1));
        CHECK_EQ_U64(o[4 * i + 1], 3 * i);
        CHECK_EQ_U64(o[4 * i + 2], (i & 1) ? 0 : 1);
        CHECK_EQ_U64(o[4 * i + 3], (i & 1) ? 2 : 1);
    }
    harness_dealloc(&h, o);

    harness_free(&h);
    return harness_report("test_exec_uniform");
}
