/* test_exec_observe — the executor's events for an observer (exec/observe.h): a recording
 * observer watches a small kernel with a global load, shared store and load, a barrier, a
 * divergent branch, a shuffle, a generic access to shared memory, a store no lane
 * executes and an atomic, and every event is checked: kind, warp, lanes, space and the
 * per-lane addresses. The same launch without an observer computes the same result. */
#include "exec_harness.h"
#include "exec/observe.h"

static const char *kernel_ptx =
    ".version 7.8\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry observed(.param .u64 p_in, .param .u64 p_out)\n"
    "{\n"
    "    .reg .pred %p<4>;\n"
    "    .reg .b32 %r<12>;\n"
    "    .reg .b64 %rd<12>;\n"
    "    .shared .align 4 .b32 sbuf[64];\n"
    "    ld.param.u64 %rd1, [p_in];\n"             /* 1 */
    "    ld.param.u64 %rd2, [p_out];\n"            /* 2 */
    "    cvta.to.global.u64 %rd3, %rd1;\n"         /* 3 */
    "    cvta.to.global.u64 %rd4, %rd2;\n"         /* 4 */
    "    mov.u32 %r1, %tid.x;\n"                   /* 5 */
    "    mul.wide.u32 %rd5, %r1, 4;\n"             /* 6 */
    "    add.s64 %rd6, %rd3, %rd5;\n"              /* 7 */
    "    ld.global.u32 %r2, [%rd6];\n"             /* 8: global load */
    "    shl.b32 %r3, %r1, 2;\n"                   /* 9 */
    "    mov.u32 %r4, sbuf;\n"                     /* 10 */
    "    add.s32 %r5, %r4, %r3;\n"                 /* 11 */
    "    st.shared.u32 [%r5], %r2;\n"              /* 12: shared store */
    "    bar.sync 0;\n"                            /* 13: barrier */
    "    setp.lt.u32 %p1, %r1, 8;\n"               /* 14 */
    "    @%p1 bra SKIP;\n"                         /* 15: diverges in warp 0 */
    "    ld.shared.u32 %r6, [%r5];\n"              /* 16: lanes >= 8 */
    "    add.s32 %r2, %r2, %r6;\n"                 /* 17 */
    "SKIP:\n"
    "    shfl.sync.bfly.b32 %r7, %r2, 1, 31, -1;\n"  /* 18: warp-synchronous */
    "    mov.u64 %rd8, sbuf;\n"                    /* 19 */
    "    cvta.shared.u64 %rd9, %rd8;\n"            /* 20 */
    "    ld.u32 %r9, [%rd9+4];\n"                  /* 21: generic, resolves to shared 4 */
    "    add.s32 %r7, %r7, %r9;\n"                 /* 22 */
    "    add.s64 %rd7, %rd4, %rd5;\n"              /* 23 */
    "    st.global.u32 [%rd7+4], %r7;\n"           /* 24: global store */
    "    setp.gt.u32 %p2, %r1, 1000;\n"            /* 25 */
    "    @%p2 st.global.u32 [%rd4], %r1;\n"        /* 26: issued, no lane on */
    "    atom.global.add.u32 %r8, [%rd4], 1;\n"    /* 27: atomic */
    "    ret;\n"                                   /* 28 */
    "}\n";
enum { INSNS = 28, THREADS = 48, BLOCKS = 2 };

/* ---- the recording observer ---- */

typedef enum ev_kind {
    EV_INSN, EV_BRANCH, EV_MEM, EV_BARRIER, EV_WARP_SYNC, EV_BEGIN, EV_END, EV_WARP_END
} ev_kind;

typedef struct event {
    ev_kind kind;
    exec_dim3 ctaid;
    uint32_t warp;
    int op;                  /* ptx_opcode, -1 for block events */
    uint32_t a, b;           /* insn: active, exec; branch: active, taken; barrier: arrived,
                              * expected; warp_sync: membermask, active; begin: nthreads */
    uint32_t id;             /* barrier id */
    ptx_space space;
    exec_mem_access access;
    uint32_t size;
    uint64_t addr[32];
    void *state;
    const ptx_insn *insn;
    bool insn_event;         /* the site said its insn event came too */
    uint64_t issued;         /* warp_end */
} event;

typedef struct recorder {
    event ev[1024];
    unsigned n;
    int begin_worker, end_worker;
    void *ended_state;
    int state_token;
} recorder;

static event *add(const exec_site *s, ev_kind k) {
    recorder *r = ((const exec_observer *)s->launch->observer)->ctx;
    if (r->n >= sizeof r->ev / sizeof r->ev[0]) {
        CHECK(!"too many events");
        return &r->ev[0];
    }
    event *e = &r->ev[r->n++];
    memset(e, 0, sizeof *e);
    e->kind = k;
    e->ctaid = s->ctaid;
    e->warp = s->warp;
    e->op = s->insn ? (int)s->insn->op : -1;
    e->state = s->worker_state;
    e->insn = s->insn;
    e->insn_event = s->insn_event;
    return e;
}

static void *on_begin_worker(void *ctx) {
    recorder *r = ctx;
    r->begin_worker++;
    return &r->state_token;
}
static void on_end_worker(void *ctx, void *state) {
    recorder *r = ctx;
    r->end_worker++;
    r->ended_state = state;
}
static void on_block_begin(const exec_site *s, uint32_t nthreads) {
    add(s, EV_BEGIN)->a = nthreads;
    CHECK(s->insn == NULL);
}
static void on_block_end(const exec_site *s) { add(s, EV_END); }
static void on_warp_end(const exec_site *s, uint64_t issued) { add(s, EV_WARP_END)->issued = issued; }
static void on_insn(const exec_site *s, uint32_t active, uint32_t exec) {
    event *e = add(s, EV_INSN);
    e->a = active;
    e->b = exec;
}
static void on_branch(const exec_site *s, uint32_t active, uint32_t taken) {
    event *e = add(s, EV_BRANCH);
    e->a = active;
    e->b = taken;
}
static void on_mem(const exec_site *s, ptx_space space, exec_mem_access access,
                   const uint64_t addr[32], uint32_t mask, uint32_t size) {
    event *e = add(s, EV_MEM);
    e->space = space;
    e->access = access;
    e->a = mask;
    e->size = size;
    for (int l = 0; l < 32; l++)
        if ((mask >> l) & 1u) e->addr[l] = addr[l];
}
static void on_barrier(const exec_site *s, uint32_t id, uint32_t arrived, uint32_t expected) {
    event *e = add(s, EV_BARRIER);
    e->id = id;
    e->a = arrived;
    e->b = expected;
}
static void on_warp_sync(const exec_site *s, uint32_t membermask, uint32_t active) {
    event *e = add(s, EV_WARP_SYNC);
    e->a = membermask;
    e->b = active;
}

/* the counting observer's tallies (one function) */
static exec_insn_tally tallies[INSNS];
static const ptx_func *tally_func;
static exec_insn_tally *on_tally(void *state, const ptx_func *f) {
    (void)state;
    return f == tally_func ? tallies : NULL;
}
static uint32_t in_block_1(const exec_site *s) { return s->ctaid.x == 1 ? EXEC_OBS_EV_ALL : 0; }
/* block 0: its memory accesses (not the parameter loads) and barriers; block 1: all */
static uint32_t some_in_block_0(const exec_site *s) {
    return s->ctaid.x == 1 ? EXEC_OBS_EV_ALL : EXEC_OBS_EV_MEM | EXEC_OBS_EV_BARRIER;
}

/* ---- running ---- */

static exec_fault_kind launch(harness *h, const exec_observer *obs, int *in, int *out) {
    const exec_kernel *k = exec_program_kernel(h->prog, "observed");
    CHECK(k != NULL);
    if (!k) return EXEC_FAULT_INVALID_PC;
    void *args[] = {&in, &out};
    uint8_t *params = harness_params(k, args);
    exec_launch L = harness_make_launch(h, k, dim(BLOCKS, 1, 1), dim(THREADS, 1, 1), 0, params);
    L.observer = obs;
    exec_output o = {0};
    exec_fault f;
    exec_fault_kind kind = EXEC_OK;
    for (uint32_t x = 0; x < BLOCKS && kind == EXEC_OK; x++)
        kind = exec_run_block(h->worker, &L, dim(x, 0, 0), x, &o, &f);
    if (kind) fprintf(stderr, "%s\n", f.msg);
    exec_worker_observe_end(h->worker);
    free(o.data);
    free(params);
    return kind;
}

/* The n-th event of a kind for (block, warp) and opcode (-1: any). */
static const event *find(const recorder *r, ev_kind k, uint32_t block, uint32_t warp, int op,
                         unsigned nth) {
    for (unsigned i = 0; i < r->n; i++) {
        const event *e = &r->ev[i];
        if (e->kind == k && e->ctaid.x == block && (k == EV_BEGIN || k == EV_END || e->warp == warp) &&
            (op < 0 || e->op == op) && nth-- == 0)
            return e;
    }
    return NULL;
}

static unsigned count(const recorder *r, ev_kind k, uint32_t block, int warp) {
    unsigned n = 0;
    for (unsigned i = 0; i < r->n; i++)
        n += r->ev[i].kind == k && r->ev[i].ctaid.x == block &&
             (warp < 0 || r->ev[i].warp == (uint32_t)warp);
    return n;
}

static void check_block(const recorder *r, uint32_t blk, const int *in, const int *out) {
    const event *e = find(r, EV_BEGIN, blk, 0, -1, 0);
    CHECK(e && e->a == THREADS && e->state == &r->state_token);
    CHECK(find(r, EV_END, blk, 0, -1, 0) != NULL);
    CHECK_EQ_U64(count(r, EV_BEGIN, blk, -1), 1);
    CHECK_EQ_U64(count(r, EV_END, blk, -1), 1);
    for (uint32_t warp = 0; warp < 2; warp++) {
        uint32_t all = warp == 0 ? 0xffffffffu : 0xffffu;
        uint32_t first_tid = warp * 32;
        /* every PTX instruction issued once (the taken side of the branch is empty) */
        CHECK_EQ_U64(count(r, EV_INSN, blk, (int)warp), INSNS);
        const event *ld_sh = find(r, EV_INSN, blk, warp, PTX_OP_ld, 3);
        uint32_t not_taken = warp == 0 ? 0xffffff00u : all;
        CHECK(ld_sh && ld_sh->a == not_taken && ld_sh->b == not_taken);
        const event *guarded = find(r, EV_INSN, blk, warp, PTX_OP_st, 2);
        CHECK(guarded && guarded->a == all && guarded->b == 0);
        /* the branch */
        CHECK_EQ_U64(count(r, EV_BRANCH, blk, (int)warp), 1);
        e = find(r, EV_BRANCH, blk, warp, PTX_OP_bra, 0);
        CHECK(e && e->a == all && e->b == (warp == 0 ? 0xffu : 0u));
        /* the barrier: every non-exited lane arrives */
        e = find(r, EV_BARRIER, blk, warp, PTX_OP_bar, 0);
        CHECK(e && e->id == 0 && e->a == all && e->b == all);
        CHECK_EQ_U64(count(r, EV_BARRIER, blk, (int)warp), 1);
        /* the shuffle */
        e = find(r, EV_WARP_SYNC, blk, warp, PTX_OP_shfl, 0);
        CHECK(e && e->a == 0xffffffffu && e->b == all);
        CHECK_EQ_U64(count(r, EV_WARP_SYNC, blk, (int)warp), 1);

        /* memory, in program order */
        CHECK_EQ_U64(count(r, EV_MEM, blk, (int)warp), 9);
        const event *m[9];
        for (unsigned i = 0; i < 9; i++) m[i] = find(r, EV_MEM, blk, warp, -1, i);
        for (unsigned i = 0; i < 9; i++)
            if (!m[i]) return;
        for (unsigned i = 0; i < 2; i++) {  /* the two kernel parameters */
            CHECK(m[i]->space == PTX_SPACE_PARAM && m[i]->access == EXEC_OBS_LOAD);
            CHECK(m[i]->a == all && m[i]->size == 8);
            CHECK_EQ_U64(m[i]->addr[0], i * 8);
        }
        CHECK(m[2]->space == PTX_SPACE_GLOBAL && m[2]->access == EXEC_OBS_LOAD && m[2]->a == all);
        CHECK_EQ_U64(m[2]->size, 4);
        for (uint32_t l = 0; l < 32; l++)
            if ((all >> l) & 1u) CHECK_EQ_U64(m[2]->addr[l], (uintptr_t)&in[first_tid + l]);
        CHECK(m[3]->space == PTX_SPACE_SHARED && m[3]->access == EXEC_OBS_STORE && m[3]->a == all);
        for (uint32_t l = 0; l < 32; l++)
            if ((all >> l) & 1u) CHECK_EQ_U64(m[3]->addr[l], 4 * (first_tid + l));
        CHECK(m[4]->space == PTX_SPACE_SHARED && m[4]->access == EXEC_OBS_LOAD);
        CHECK_EQ_U64(m[4]->a, not_taken);
        CHECK_EQ_U64(m[4]->addr[31 - 16 * warp], 4 * (first_tid + 31 - 16 * warp));
        /* the generic load resolved to shared offset 4 */
        CHECK(m[5]->space == PTX_SPACE_SHARED && m[5]->access == EXEC_OBS_LOAD && m[5]->a == all);
        CHECK_EQ_U64(m[5]->addr[0], 4);
        CHECK(m[6]->space == PTX_SPACE_GLOBAL && m[6]->access == EXEC_OBS_STORE && m[6]->a == all);
        CHECK_EQ_U64(m[6]->addr[1], (uintptr_t)&out[first_tid + 1 + 1]);
        /* the guarded store: issued with no lane on */
        CHECK(m[7]->space == PTX_SPACE_GLOBAL && m[7]->access == EXEC_OBS_STORE && m[7]->a == 0);
        CHECK(m[8]->space == PTX_SPACE_GLOBAL && m[8]->access == EXEC_OBS_ATOMIC && m[8]->a == all);
        CHECK_EQ_U64(m[8]->addr[5], (uintptr_t)out);
        CHECK_EQ_U64(m[8]->size, 4);
        /* every event carries the worker's state */
        CHECK(m[8]->state == &r->state_token);
    }
}

int main(void) {
    harness h = {0};
    if (!harness_load(&h, kernel_ptx)) {
        fprintf(stderr, "%s\n", h.err);
        return 1;
    }
    int *in = harness_alloc(&h, THREADS * 4);
    int *out = harness_alloc(&h, (THREADS + 2) * 4);
    int *plain = malloc((THREADS + 2) * 4);
    for (int i = 0; i < THREADS; i++) in[i] = 3 * i + 1;

    /* without an observer */
    CHECK_EQ_U64(launch(&h, NULL, in, out), EXEC_OK);
    memcpy(plain, out, (THREADS + 2) * 4);
    CHECK_EQ_U64(out[0], BLOCKS * THREADS); /* one atomic add per thread */

    /* the same launch observed */
    static recorder rec;
    exec_observer obs = {
        .ctx = &rec, .begin_worker = on_begin_worker, .end_worker = on_end_worker,
        .block_begin = on_block_begin, .block_end = on_block_end, .insn = on_insn,
        .branch = on_branch, .mem = on_mem, .barrier = on_barrier, .warp_sync = on_warp_sync,
    };
    memset(out, 0, (THREADS + 2) * 4);
    CHECK_EQ_U64(launch(&h, &obs, in, out), EXEC_OK);
    CHECK(memcmp(plain, out, (THREADS + 2) * 4) == 0);
    CHECK_EQ_U64(rec.begin_worker, 1);
    CHECK_EQ_U64(rec.end_worker, 1);
    CHECK(rec.ended_state == &rec.state_token);
    for (uint32_t b = 0; b < BLOCKS; b++) check_block(&rec, b, in, out);

    /* events picked per block: block 1 as before; block 0 its barriers and memory
     * accesses but the kernel parameter loads, and (no tally) every instruction */
    obs.block_events = some_in_block_0;
    rec.n = 0;
    rec.begin_worker = rec.end_worker = 0;
    memset(out, 0, (THREADS + 2) * 4);
    CHECK_EQ_U64(launch(&h, &obs, in, out), EXEC_OK);
    CHECK(memcmp(plain, out, (THREADS + 2) * 4) == 0);
    check_block(&rec, 1, in, out);
    for (int warp = 0; warp < 2; warp++) {
        CHECK_EQ_U64(count(&rec, EV_INSN, 0, warp), INSNS);
        CHECK_EQ_U64(count(&rec, EV_BRANCH, 0, warp), 0);
        CHECK_EQ_U64(count(&rec, EV_WARP_SYNC, 0, warp), 0);
        CHECK_EQ_U64(count(&rec, EV_BARRIER, 0, warp), 1);
        CHECK_EQ_U64(count(&rec, EV_MEM, 0, warp), 7);  /* 9 less the two parameters */
        const event *e = find(&rec, EV_MEM, 0, (uint32_t)warp, -1, 0);
        CHECK(e && e->space == PTX_SPACE_GLOBAL && e->access == EXEC_OBS_LOAD);
    }
    obs.block_events = NULL;

    /* an observer with no callbacks but one is fine, and a later launch starts afresh */
    exec_observer only_insn = {.ctx = &rec, .insn = on_insn};
    rec.n = 0;
    CHECK_EQ_U64(launch(&h, &only_insn, in, out), EXEC_OK);
    CHECK_EQ_U64(rec.n, (unsigned)BLOCKS * 2 * INSNS);
    CHECK_EQ_U64(rec.end_worker, 1);

    /* a counting observer: the executor tallies every instruction itself, and reports
     * each one only in the blocks block_events picks (block 1); the tallies equal what
     * the events of the run above add up to */
    const ptx_func *pf = &exec_program_module(h.prog)->funcs[0];
    CHECK_EQ_U64(pf->ninsns, INSNS);
    uint64_t want_issued[INSNS] = {0}, want_active[INSNS] = {0}, want_pred[INSNS] = {0};
    for (unsigned i = 0; i < rec.n; i++) {
        const event *e = &rec.ev[i];
        size_t at = (size_t)(e->insn - pf->insns);
        if (at >= INSNS) continue;
        want_issued[at]++;
        want_active[at] += (uint64_t)__builtin_popcount(e->a);
        want_pred[at] += (uint64_t)__builtin_popcount(e->b);
    }
    memset(tallies, 0, sizeof tallies);
    tally_func = pf;
    exec_observer counting = {.ctx = &rec, .insn = on_insn, .tally = on_tally,
                              .block_events = in_block_1};
    rec.n = 0;
    memset(out, 0, (THREADS + 2) * 4);
    CHECK_EQ_U64(launch(&h, &counting, in, out), EXEC_OK);
    CHECK(memcmp(plain, out, (THREADS + 2) * 4) == 0);
    CHECK_EQ_U64(rec.n, 2 * INSNS);  /* block 1's two warps, each instruction once */
    for (unsigned i = 0; i < rec.n; i++) CHECK_EQ_U64(rec.ev[i].ctaid.x, 1);
    for (unsigned i = 0; i < INSNS; i++) {
        CHECK_EQ_U64(tallies[i].issued, want_issued[i]);
        CHECK_EQ_U64(exec_tally_active(&tallies[i]), want_active[i]);
        CHECK_EQ_U64(exec_tally_pred_on(&tallies[i]), want_pred[i]);
    }
    CHECK_EQ_U64(tallies[0].issued, BLOCKS * 2);          /* every warp, once */
    /* the branch (insn 15): lanes 0-7 of warp 0 take it, warp 1's 16 lanes do not */
    CHECK_EQ_U64(tallies[14].diverged, BLOCKS);
    CHECK_EQ_U64(tallies[14].diverged_lanes, BLOCKS * 8);
    CHECK_EQ_U64(exec_tally_all_taken(&tallies[14]), 0);
    /* the shuffle (insn 18) is no branch */
    CHECK_EQ_U64(tallies[17].diverged + tallies[17].all_taken, 0);

    /* a cap of 10 instructions per warp on insn events: the first ones come (those the
     * decoder inserted count, unreported), then the warp is only tallied; its memory,
     * branch and barrier events still come, saying no insn event came with them; each
     * warp's total comes at the block's end */
    memset(tallies, 0, sizeof tallies);
    exec_observer capped = {.ctx = &rec, .insn = on_insn, .tally = on_tally, .mem = on_mem,
                            .branch = on_branch, .barrier = on_barrier,
                            .block_end = on_block_end, .warp_end = on_warp_end,
                            .insn_event_limit = 10};
    rec.n = 0;
    memset(out, 0, (THREADS + 2) * 4);
    CHECK_EQ_U64(launch(&h, &capped, in, out), EXEC_OK);
    CHECK(memcmp(plain, out, (THREADS + 2) * 4) == 0);
    for (uint32_t b = 0; b < BLOCKS; b++) {
        for (int warp = 0; warp < 2; warp++) {
            unsigned n = count(&rec, EV_INSN, b, warp);
            CHECK(n >= 5 && n <= 10);
            CHECK_EQ_U64(count(&rec, EV_MEM, b, warp), 9);
            CHECK_EQ_U64(count(&rec, EV_BRANCH, b, warp), 1);
            CHECK_EQ_U64(count(&rec, EV_BARRIER, b, warp), 1);
            CHECK_EQ_U64(count(&rec, EV_WARP_END, b, warp), 1);
            const event *e = find(&rec, EV_WARP_END, b, (uint32_t)warp, -1, 0);
            CHECK(e && e->issued >= INSNS && e->issued < 2 * INSNS);
            /* the parameter loads come first, with their insn events; the atomic last,
             * without */
            e = find(&rec, EV_MEM, b, (uint32_t)warp, -1, 0);
            CHECK(e && e->insn_event);
            e = find(&rec, EV_MEM, b, (uint32_t)warp, -1, 8);
            CHECK(e && !e->insn_event && e->access == EXEC_OBS_ATOMIC);
        }
    }
    for (unsigned i = 0; i < INSNS; i++) CHECK_EQ_U64(tallies[i].issued, want_issued[i]);
    /* the shared load after the branch (insn 16): lanes 8 and up of each block */
    CHECK_EQ_U64(exec_tally_active(&tallies[15]), BLOCKS * (THREADS - 8));

    free(plain);
    harness_dealloc(&h, in);
    harness_dealloc(&h, out);
    harness_free(&h);
    return harness_report("test_exec_observe");
}
