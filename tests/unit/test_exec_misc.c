/* test_exec_misc — special registers, clocks, named barriers with bar.arrive, the
 * synchronisation no-ops, cp.async, mbarrier split barriers, brkpt
 * (tests/ptx/exec/misc.cu) and brx.idx jump tables with per-lane targets (hand-written
 * PTX), and the sm_90 hints that change no result (createpolicy, applypriority,
 * prefetch.tensormap, fence.proxy.tensormap, setmaxnreg) amid loads and stores. */
#include "exec_harness.h"

static void test_sregs(harness *h) {
    enum { T = 80 };
    unsigned *out = harness_alloc(h, T * 12 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "sregs", dim(3, 2, 1), dim(40, 2, 1), 100, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (unsigned t = 0; t < T; t++) {
        const unsigned *v = out + t * 12;
        unsigned lane = t % 32;
        CHECK_EQ_U64(v[0], lane);
        CHECK_EQ_U64(v[1], t / 32);
        CHECK_EQ_U64(v[2], 64);
        CHECK_EQ_U64(v[3], 2); /* the harness runs block (x,y) as SM x; block (2,1) ran last */
        CHECK_EQ_U64(v[4], 132);
        CHECK_EQ_U64(v[5], (1u << lane) - 1);
        CHECK_EQ_U64(v[6], ~((1u << lane) - 1));
        CHECK_EQ_U64(v[7], 100);
        CHECK_EQ_U64(v[8], 100);
        CHECK_EQ_U64(v[9], t / 40);
        CHECK_EQ_U64(v[10], 5);
        CHECK_EQ_U64(v[11], 1);
    }
    harness_dealloc(h, out);
}

static void test_clocks(harness *h) {
    long long *out = harness_alloc(h, 64 * 3 * 8);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "clocks", dim(1, 1, 1), dim(64, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int t = 0; t < 64; t++) {
        CHECK(out[t * 3] > 0);        /* instructions ran between the two reads */
        CHECK(out[t * 3 + 1] >= 0);   /* %globaltimer does not go back */
        uint32_t x = (uint32_t)t;
        for (uint32_t i = 0; i < 100; i++) x = x * 3 + i;
        CHECK_EQ_U64((uint32_t)out[t * 3 + 2], x);
    }
    harness_dealloc(h, out);
}

static void test_producer_consumer(harness *h) {
    int *out = harness_alloc(h, 64 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "producer_consumer", dim(1, 1, 1), dim(128, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int i = 0; i < 64; i++) CHECK_EQ_U64(out[i], i * i + 1);
    harness_dealloc(h, out);
}

static void test_noops(harness *h) {
    int *out = harness_alloc(h, 64 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "noops", dim(1, 1, 1), dim(64, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int i = 0; i < 64; i++) CHECK_EQ_U64(out[i], i + 1);
    harness_dealloc(h, out);
}

static void test_async_copy(harness *h) {
    int *in = harness_alloc(h, 64 * 16), *out = harness_alloc(h, 64 * 16);
    for (int i = 0; i < 64 * 4; i++) in[i] = i * 7 + 1;
    int n = 50;
    void *args[] = {&in, &out, &n};
    harness_run r = harness_launch(h, "async_copy", dim(1, 1, 1), dim(64, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int t = 0; t < 64; t++)
        for (int c = 0; c < 4; c++)
            CHECK_EQ_U64(out[t * 4 + c], 63 - t < n ? in[(63 - t) * 4 + c] : 0);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

static void test_split_barrier(harness *h) {
    int *out = harness_alloc(h, 3 * 128 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "split_barrier", dim(2, 1, 1), dim(128, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int round = 0; round < 3; round++)
        for (int t = 0; t < 128; t++) CHECK_EQ_U64(out[round * 128 + t], (127 - t) * (round + 1));
    harness_dealloc(h, out);
}

static void test_brkpt(harness *h) {
    int *out = harness_alloc(h, 32 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(h, "breakpoint", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_TRAP);
    CHECK(strstr(r.fault.msg, "brkpt") && strstr(r.fault.msg, "thread (7,0,0)"));
    harness_dealloc(h, out);
}

/* out[t] = one of four functions of t chosen by t % 5 (index 4 goes through entry 0 again),
 * then every lane meets again and adds 1000. */
static const char *brx_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry jump(.param .u64 out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  rem.u32 %r2, %r1, 5;\n  setp.eq.u32 %p1, %r2, 4;\n  @%p1 mov.u32 %r2, 0;\n"
    "  ts: .branchtargets L0, L1, L2, L3;\n"
    "  brx.idx %r2, ts;\n"
    "L0:\n  mul.lo.u32 %r3, %r1, 2;\n  bra.uni J;\n"
    "L1:\n  add.u32 %r3, %r1, 100;\n  bra.uni J;\n"
    "L2:\n  xor.b32 %r3, %r1, 85;\n  bra.uni J;\n"
    "L3:\n  sub.u32 %r3, 0, %r1;\n"
    "J:\n  add.u32 %r3, %r3, 1000;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n}\n";

static void test_brx(void) {
    harness h = {0};
    if (!harness_load(&h, brx_ptx)) {
        fprintf(stderr, "load brx: %s\n", h.err);
        harness_failures++;
        return;
    }
    int *out = harness_alloc(&h, 64 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(&h, "jump", dim(1, 1, 1), dim(64, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int t = 0; t < 64; t++) {
        int k = t % 5 == 4 ? 0 : t % 5;
        int v = k == 0 ? t * 2 : k == 1 ? t + 100 : k == 2 ? t ^ 85 : -t;
        CHECK_EQ_U64((uint32_t)out[t], (uint32_t)(v + 1000));
    }
    harness_dealloc(&h, out);
    harness_free(&h);
}

/* Each thread loads in[t] under an L2 policy from createpolicy (fractional and range forms),
 * with applypriority, prefetch.tensormap, fence.proxy.tensormap and setmaxnreg between, and
 * stores in[t] * 3 + t: the hints must leave the data and the control flow alone. */
static const char hints_ptx[] =
    ".version 8.7\n.target sm_90a\n.address_size 64\n"
    ".visible .entry hints(.param .u64 in, .param .u64 out)\n{\n"
    "\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
    "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 4;\n"
    "\tadd.s64 %rd4, %rd1, %rd3;\n\tadd.s64 %rd5, %rd2, %rd3;\n"
    "\tsetmaxnreg.dec.sync.aligned.u32 40;\n"
    "\tcreatepolicy.fractional.L2::evict_last.b64 %rd6, 0.5;\n"
    "\tcreatepolicy.range.L2::evict_last.L2::evict_unchanged.b64 %rd7, [%rd1], 64, 256;\n"
    "\tapplypriority.global.L2::evict_normal [%rd1], 128;\n"
    "\tprefetch.tensormap [%rd1];\n"
    "\tfence.proxy.tensormap::generic.release.gpu;\n"
    "\tld.global.L2::cache_hint.u32 %r2, [%rd4], %rd6;\n"
    "\tfence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;\n"
    "\tsetmaxnreg.inc.sync.aligned.u32 232;\n"
    "\tmad.lo.s32 %r3, %r2, 3, %r1;\n"
    "\tst.global.L2::cache_hint.u32 [%rd5], %r3, %rd7;\n"
    "\tret;\n}\n";

static void test_hints(void) {
    harness h = {0};
    if (!harness_load(&h, hints_ptx)) {
        fprintf(stderr, "load hints: %s\n", h.err);
        harness_failures++;
        return;
    }
    enum { T = 128 };
    int *in = harness_alloc(&h, T * 4), *out = harness_alloc(&h, T * 4);
    for (int t = 0; t < T; t++) in[t] = t * 7 - 300;
    void *args[] = {&in, &out};
    harness_run r = harness_launch(&h, "hints", dim(1, 1, 1), dim(T, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int t = 0; t < T; t++) CHECK_EQ_U64((uint32_t)out[t], (uint32_t)((t * 7 - 300) * 3 + t));
    harness_dealloc(&h, in);
    harness_dealloc(&h, out);
    harness_free(&h);
}

int main(void) {
    harness h = {0};
    if (harness_load_file(&h, "exec/misc.ptx")) {
        test_sregs(&h);
        test_clocks(&h);
        test_producer_consumer(&h);
        test_noops(&h);
        test_async_copy(&h);
        test_split_barrier(&h);
        test_brkpt(&h);
    } else {
        fprintf(stderr, "load: %s\n", h.err);
        harness_failures++;
    }
    harness_free(&h);
    test_brx();
    test_hints();
    return harness_report("test_exec_misc");
}
