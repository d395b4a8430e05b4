/* Unit test: the checkers (check/) on kernels run by the SIMT core with the checker's
 * observer attached, and on observer events given directly:
 *   memcheck   out-of-bounds lanes of several warps, use after free, bad frees, leaks;
 *   racecheck  hazards between warps (and none across a barrier), between lanes of one
 *              warp only with independent thread scheduling and without __syncwarp;
 *              named barriers ordering only the warps that take part in a completion;
 *   synccheck  a barrier reached by part of a warp, a warp-sync mask leaving out a caller;
 *   initcheck  loads of bytes nothing wrote, stores and host writes that initialise.
 * Reports go to a temporary file whose text is checked. */
#include "exec_harness.h"

#include "check/internal.h"

static const char *kernels_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    /* p[tid] = tid */
    ".visible .entry fill(.param .u64 p)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r1;\n  ret;\n}\n"
    /* x = p[tid] */
    ".visible .entry load(.param .u64 p)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r2, [%rd3];\n  ret;\n}\n"
    /* s[tid] = tid; x = s[(tid + 32) % 64], with or without a barrier between */
    ".visible .entry neighbours(.param .u32 sync)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .shared .align 4 .b8 s[256];\n"
    "  ld.param.u32 %r6, [sync];\n  setp.ne.u32 %p1, %r6, 0;\n"
    "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 2;\n  mov.u32 %r5, s;\n"
    "  add.u32 %r3, %r5, %r2;\n  st.shared.u32 [%r3], %r1;\n"
    "  @%p1 bar.sync 0;\n"
    "  add.u32 %r4, %r1, 32;\n  and.b32 %r4, %r4, 63;\n  shl.b32 %r4, %r4, 2;\n"
    "  add.u32 %r4, %r5, %r4;\n  ld.shared.u32 %r7, [%r4];\n  ret;\n}\n"
    /* one warp: s[lane] = lane; x = s[(lane + 1) % 32], with or without __syncwarp */
    ".visible .entry lanes(.param .u32 sync)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .shared .align 4 .b8 s[128];\n"
    "  ld.param.u32 %r6, [sync];\n  setp.ne.u32 %p1, %r6, 0;\n"
    "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 2;\n  mov.u32 %r5, s;\n"
    "  add.u32 %r3, %r5, %r2;\n  st.shared.u32 [%r3], %r1;\n"
    "  @%p1 bar.warp.sync -1;\n"
    "  add.u32 %r4, %r1, 1;\n  and.b32 %r4, %r4, 31;\n  shl.b32 %r4, %r4, 2;\n"
    "  add.u32 %r4, %r5, %r4;\n  ld.shared.u32 %r7, [%r4];\n  ret;\n}\n"
    /* three warps: warp 0 stores s[lane] and arrives at barrier 1 (64 threads), warp 1
     * waits there and loads s[lane]; mode 1: warp 2, which takes no part, loads it too;
     * mode 2: warp 1 also loads it before waiting */
    ".visible .entry handoff(.param .u32 mode)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<10>;\n  .shared .align 4 .b8 s[128];\n"
    "  ld.param.u32 %r9, [mode];\n"
    "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n  and.b32 %r3, %r1, 31;\n"
    "  shl.b32 %r3, %r3, 2;\n  mov.u32 %r5, s;\n  add.u32 %r4, %r5, %r3;\n"
    "  setp.ne.u32 %p1, %r2, 0;\n  @%p1 bra NOTPROD;\n"
    "  st.shared.u32 [%r4], %r1;\n  bar.arrive 1, 64;\n  ret;\n"
    "NOTPROD:\n  setp.ne.u32 %p2, %r2, 1;\n  @%p2 bra THIRD;\n"
    "  setp.eq.u32 %p3, %r9, 2;\n  @%p3 ld.shared.u32 %r6, [%r4];\n"
    "  bar.sync 1, 64;\n  ld.shared.u32 %r7, [%r4];\n  ret;\n"
    "THIRD:\n  setp.eq.u32 %p3, %r9, 1;\n  @%p3 ld.shared.u32 %r8, [%r4];\n  ret;\n}\n";

/* ---- running a kernel under a checker ---- */

typedef struct checked {
    harness h;
    check_state *st;
    FILE *out;
} checked;

static void setup(checked *c, check_tool tool, bool leaks) {
    memset(c, 0, sizeof *c);
    if (!harness_load(&c->h, kernels_ptx)) {
        fprintf(stderr, "load: %s\n", c->h.err);
        exit(1);
    }
    c->out = tmpfile();
    if (!c->out) abort();
    c->st = check_state_new(tool, leaks, 0, c->out);
}

/* Everything the checker printed so far (malloc'd). */
static char *printed(checked *c) {
    fflush(c->out);
    long n = ftell(c->out);
    char *s = calloc(1, (size_t)n + 1);
    rewind(c->out);
    if (n > 0 && fread(s, 1, (size_t)n, c->out) != (size_t)n) s[0] = 0;
    fseek(c->out, 0, SEEK_END);
    return s;
}

static int count(const char *text, const char *what) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static void teardown(checked *c) {
    check_state_free(c->st);
    fclose(c->out);
    harness_free(&c->h);
}

/* Run kernel over grid x block threads under c's checker; returns check_launch_end's
 * verdict (the launch must fail). */
static bool run(checked *c, const char *kernel, uint32_t blocks, uint32_t threads, void **args,
                bool its) {
    const exec_kernel *k = exec_program_kernel(c->h.prog, kernel);
    uint8_t *params = harness_params(k, args);
    exec_launch L = harness_make_launch(&c->h, k, dim(blocks, 1, 1), dim(threads, 1, 1), 0, params);
    check_launch *cl = check_launch_begin(c->st, &L, exec_program_module(c->h.prog), kernel, its, NULL);
    CHECK(cl && L.observer);
    exec_fault_kind kind = EXEC_OK;
    for (uint32_t b = 0; b < blocks && kind == EXEC_OK; b++) {
        exec_output o = {0};
        exec_fault f;
        kind = exec_run_block(c->h.worker, &L, dim(b, 0, 0), 0, &o, &f);
        free(o.data);
    }
    exec_worker_observe_end(c->h.worker);
    bool fail = check_launch_end(cl, kind);
    free(params);
    return fail;
}

/* ---- memcheck ---- */

static void test_memcheck(void) {
    checked c;
    setup(&c, CHECK_TOOL_MEMCHECK, true);
    /* 16 ints for 64 threads: lanes 16..31 of warp 0 and all of warp 1 are out of bounds,
     * and the second warp is reported too (warps_outlive_fault) */
    int *p = harness_alloc(&c.h, 16 * sizeof(int));
    check_on_alloc(c.st, (uint64_t)(uintptr_t)p, 16 * sizeof(int), MEM_KIND_DEVICE, 0, "cudaMalloc");
    void *args[] = {&p};
    CHECK(run(&c, "fill", 1, 64, args, true));
    char *t = printed(&c);
    CHECK_EQ_U64(count(t, "Invalid __global__ write of size 4 bytes"), 48);
    CHECK(strstr(t, "by thread (16,0,0) in block (0,0,0)") != NULL);
    CHECK(strstr(t, "by thread (63,0,0) in block (0,0,0)") != NULL);
    CHECK(!strstr(t, "by thread (15,0,0)"));
    CHECK(strstr(t, "and is 1 bytes after the nearest allocation") != NULL);
    CHECK(strstr(t, "of size 64 bytes") != NULL);
    CHECK(strstr(t, "at fill (PTX line") != NULL);
    free(t);

    /* a correct launch: nothing */
    int *q = harness_alloc(&c.h, 64 * sizeof(int));
    check_on_alloc(c.st, (uint64_t)(uintptr_t)q, 64 * sizeof(int), MEM_KIND_DEVICE, 0, "cudaMalloc");
    void *qargs[] = {&q};
    long before = ftell(c.out);
    CHECK(!run(&c, "fill", 2, 64, qargs, true));
    CHECK_EQ_U64(ftell(c.out), before);

    /* use after free: the block is gone from the table and the checker knows it was freed */
    check_on_free(c.st, (uint64_t)(uintptr_t)q);
    mem_table_remove(c.h.mem, (uint64_t)(uintptr_t)q, NULL);
    CHECK(run(&c, "load", 1, 32, qargs, true));
    t = printed(&c);
    CHECK(strstr(t, "that cudaFree released before (use after free)") != NULL);
    free(t);
    free(q);

    /* a second free of the same block, and a free inside a block */
    check_on_bad_free(c.st, (uint64_t)(uintptr_t)q);
    check_on_api_error(c.st, 1, "cudaErrorInvalidValue", "invalid argument");
    check_on_bad_free(c.st, (uint64_t)(uintptr_t)p + 8);
    check_on_api_error(c.st, 1, "cudaErrorInvalidValue", "invalid argument");
    t = printed(&c);
    CHECK(strstr(t, "Program hit cudaErrorInvalidValue (error 1) due to \"invalid argument\"") != NULL);
    CHECK(strstr(t, "was freed before (double free)") != NULL);
    CHECK(strstr(t, "not its start") != NULL);
    free(t);

    /* p is still allocated at the end of the context: a leak */
    check_on_context_end(c.st, c.h.mem);
    t = printed(&c);
    CHECK(strstr(t, "Leaked 64 bytes at 0x") != NULL);
    free(t);
    check_finish(c.st);
    t = printed(&c);
    CHECK(strstr(t, "LEAK SUMMARY: 64 bytes leaked in 1 allocations") != NULL);
    /* 48 + 32 invalid accesses, 2 API errors, 1 leak */
    CHECK(strstr(t, "ERROR SUMMARY: 83 errors") != NULL);
    free(t);
    harness_dealloc(&c.h, p);
    teardown(&c);
}

/* ---- racecheck ---- */

static void test_racecheck(void) {
    checked c;
    setup(&c, CHECK_TOOL_RACECHECK, false);
    uint32_t sync = 0;
    void *args[] = {&sync};
    /* every thread reads what a thread of the other warp wrote: 64 threads x 4 bytes */
    CHECK(!run(&c, "neighbours", 1, 64, args, true));
    char *t = printed(&c);
    CHECK_EQ_U64(count(t, "Error: Race reported between Write access"), 1);
    CHECK(strstr(t, "and Read access at neighbours (PTX line") != NULL);
    CHECK(strstr(t, "[256 hazards]") != NULL);
    CHECK(!strstr(t, "Warp Level"));
    free(t);

    /* with the barrier: none */
    sync = 1;
    long before = ftell(c.out);
    run(&c, "neighbours", 2, 64, args, true);
    CHECK_EQ_U64(ftell(c.out), before);

    /* lanes of one warp: a hazard only with independent thread scheduling */
    sync = 0;
    run(&c, "lanes", 1, 32, args, false);
    CHECK_EQ_U64(ftell(c.out), before);
    run(&c, "lanes", 1, 32, args, true);
    t = printed(&c);
    CHECK_EQ_U64(count(t, "Warning: (Warp Level Programming) Race reported"), 1);
    CHECK(strstr(t, "[128 hazards]") != NULL);
    CHECK(strstr(t, "__syncwarp()") != NULL && strstr(t, "__shfl_down_sync()") != NULL);
    free(t);
    /* ... and none once __syncwarp() separates the store and the load */
    sync = 1;
    before = ftell(c.out);
    run(&c, "lanes", 1, 32, args, true);
    CHECK_EQ_U64(ftell(c.out), before);

    /* a named barrier orders the warps of its completion: producer and consumer, none */
    uint32_t mode = 0;
    void *hargs[] = {&mode};
    before = ftell(c.out);
    run(&c, "handoff", 1, 96, hargs, true);
    CHECK_EQ_U64(ftell(c.out), before);
    /* ... but not a warp that takes no part (mode 1), nor the consumer's load before it
     * waits (mode 2): one error each, the producer's store and that load */
    for (mode = 1; mode <= 2; mode++) {
        before = ftell(c.out);
        run(&c, "handoff", 1, 96, hargs, true);
        t = printed(&c);
        CHECK_EQ_U64(count(t + before, "Error: Race reported between Write access"), 1);
        CHECK(strstr(t + before, "[128 hazards]") != NULL);
        CHECK(strstr(t + before, mode == 1 ? "between threads (0,0,0) and (64,0,0)"
                                           : "between threads (0,0,0) and (32,0,0)") != NULL);
        free(t);
    }

    check_finish(c.st);
    t = printed(&c);
    CHECK(strstr(t, "RACECHECK SUMMARY: 4 hazards displayed (3 errors, 1 warning)") != NULL);
    CHECK(strstr(t, "ERROR SUMMARY: 4 errors") != NULL);
    free(t);
    teardown(&c);
}

/* ---- synccheck: events given directly ---- */

static void test_synccheck(void) {
    checked c;
    setup(&c, CHECK_TOOL_SYNCCHECK, false);
    const exec_kernel *k = exec_program_kernel(c.h.prog, "lanes");
    exec_launch L = harness_make_launch(&c.h, k, dim(1, 1, 1), dim(64, 1, 1), 0, NULL);
    check_launch *cl = check_launch_begin(c.st, &L, exec_program_module(c.h.prog), "lanes", true, NULL);
    const exec_observer *o = L.observer;
    void *ws = o->begin_worker(o->ctx);
    const ptx_func *pf = &exec_program_module(c.h.prog)->funcs[3];
    const ptx_insn *warp_sync = NULL;
    for (uint32_t i = 0; i < pf->ninsns; i++)
        if (pf->insns[i].op == PTX_OP_bar) warp_sync = &pf->insns[i];
    CHECK(warp_sync != NULL);
    exec_site s = {.launch = &L, .ctaid = {0, 0, 0}, .warp = 0, .insn = warp_sync,
                   .worker_state = ws};
    o->block_begin(&s, 64);
    /* all of the warp at the barrier: fine; half of it: every live lane is reported */
    o->barrier(&s, 0, 0xffffffffu, 0xffffffffu);
    s.warp = 1;
    o->barrier(&s, 0, 0x0000ffffu, 0x00ffffffu);
    /* __syncwarp(0xffff) called by lanes 0..16: lane 16 is outside its mask */
    o->warp_sync(&s, 0x0000ffffu, 0x0001ffffu);
    o->warp_sync(&s, 0xffffffffu, 0x0000ffffu); /* a named lane elsewhere: not an error */
    o->end_worker(o->ctx, ws);
    CHECK(!check_launch_end(cl, EXEC_OK));
    char *t = printed(&c);
    CHECK_EQ_U64(count(t, "Barrier error detected. Divergent thread(s) in block"), 24);
    CHECK(strstr(t, "by thread (32,0,0)") != NULL && strstr(t, "by thread (55,0,0)") != NULL);
    CHECK(!strstr(t, "by thread (56,0,0)"));
    CHECK_EQ_U64(count(t, "Barrier error detected. Invalid arguments"), 1);
    CHECK(strstr(t, "by thread (48,0,0)") != NULL);
    CHECK(strstr(t, "given to __syncwarp does not include the calling thread") != NULL);
    free(t);
    teardown(&c);
}

/* ---- initcheck ---- */

static void test_initcheck(void) {
    checked c;
    setup(&c, CHECK_TOOL_INITCHECK, false);
    int *p = harness_alloc(&c.h, 64 * sizeof(int));
    int *q = harness_alloc(&c.h, 64 * sizeof(int));
    check_on_alloc(c.st, (uint64_t)(uintptr_t)p, 64 * sizeof(int), MEM_KIND_DEVICE, 0, "cudaMalloc");
    check_on_alloc(c.st, (uint64_t)(uintptr_t)q, 64 * sizeof(int), MEM_KIND_DEVICE, 0, "cudaMalloc");
    /* a memset of the first 20 ints, then a copy of p into q: q's first 20 are written */
    check_on_host_write(c.st, p, 20 * sizeof(int));
    check_on_copy(c.st, q, p, 64 * sizeof(int));
    void *args[] = {&q};
    run(&c, "load", 1, 32, args, true);
    char *t = printed(&c);
    CHECK_EQ_U64(count(t, "Uninitialized __global__ memory read of size 4 bytes"), 12);
    CHECK(strstr(t, "by thread (20,0,0)") != NULL && !strstr(t, "by thread (19,0,0)"));
    free(t);
    /* the kernel writes q: then reading it is fine */
    long before = ftell(c.out);
    run(&c, "fill", 1, 64, args, true);
    run(&c, "load", 1, 64, args, true);
    CHECK_EQ_U64(ftell(c.out), before);
    harness_dealloc(&c.h, p);
    harness_dealloc(&c.h, q);
    teardown(&c);
}

int main(void) {
    test_memcheck();
    test_racecheck();
    test_synccheck();
    test_initcheck();
    return harness_report("test_check_tools");
}
