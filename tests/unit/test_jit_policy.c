/* tests/unit/test_jit_policy.c — the compiled tier's choice of tier per function
 * (jit/jit.c, jit_worth_building): per-warp code built at -O0, what the largest functions
 * get, runs slower than the interpreter (bench/RESULTS.md, "Which tier runs a kernel
 * fastest"), so in the tiered mode (VCUDA_JIT=1) such a function is left to the
 * interpreter and costs no compiler time, while VCUDA_JIT=always and a forced -O level
 * still build it. A kernel of more than 4,000 lowered instructions shows it end to end:
 * the job leaves it interpreted at once, says why, and the kernel gives the right result.
 */
#include "exec_harness.h"
#include "exec/core.h"
#include "jit/internal.h"
#include "jit/jit.h"

#define BIG_STEPS 4200u
#define THREADS 64u

/* A kernel of BIG_STEPS dependent multiply-adds on %tid.x, then a store of the result. */
static char *big_kernel_ptx(void) {
    size_t cap = 64u * BIG_STEPS + 4096u, len = 0;
    char *s = malloc(cap);
    if (!s) abort();
    len += (size_t)snprintf(s + len, cap - len,
                            ".version 8.0\n.target sm_90\n.address_size 64\n"
                            ".visible .entry big(.param .u64 out)\n{\n"
                            "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<4>;\n"
                            "  ld.param.u64 %%rd1, [out];\n"
                            "  cvta.to.global.u64 %%rd1, %%rd1;\n"
                            "  mov.u32 %%r1, %%tid.x;\n");
    for (uint32_t i = 0; i < BIG_STEPS; i++)
        len += (size_t)snprintf(s + len, cap - len, "  mad.lo.u32 %%r1, %%r1, %u, %u;\n",
                                3u + (i & 7u), i);
    len += (size_t)snprintf(s + len, cap - len,
                            "  mov.u32 %%r2, %%tid.x;\n"
                            "  mul.wide.u32 %%rd2, %%r2, 4;\n"
                            "  add.s64 %%rd3, %%rd1, %%rd2;\n"
                            "  st.global.u32 [%%rd3], %%r1;\n"
                            "  ret;\n}\n");
    return s;
}

static uint32_t big_kernel_result(uint32_t tid) {
    uint32_t r = tid;
    for (uint32_t i = 0; i < BIG_STEPS; i++) r = r * (3u + (i & 7u)) + i;
    return r;
}

int main(void) {
    char dir[] = "/tmp/vcuda-jit-policy-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    setenv("VCUDA_CACHE_DIR", dir, 1);
    unsetenv("VCUDA_JIT_OPT");
    unsetenv("VCUDA_JIT_VECTOR");

    /* the policy itself: the levels by size, and what is worth building in which mode */
    CHECK_EQ_U64(jit_warp_opt_for(1), 2);
    CHECK_EQ_U64(jit_warp_opt_for(250), 2);
    CHECK_EQ_U64(jit_warp_opt_for(251), 1);
    CHECK_EQ_U64(jit_warp_opt_for(4000), 1);
    CHECK_EQ_U64(jit_warp_opt_for(4001), 0);
    CHECK(jit_worth_building(JIT_TIERED, true, 1, false));   /* vector tier */
    CHECK(jit_worth_building(JIT_TIERED, false, 2, false));  /* per-warp -O2 */
    CHECK(jit_worth_building(JIT_TIERED, false, 1, false));  /* per-warp -O1 */
    CHECK(!jit_worth_building(JIT_TIERED, false, 0, false)); /* per-warp -O0: interpreted */
    CHECK(jit_worth_building(JIT_ALWAYS, false, 0, false));  /* always: proves coverage */
    CHECK(jit_worth_building(JIT_TIERED, false, 0, true));   /* VCUDA_JIT_OPT=0 asked */

    /* end to end: the large kernel in the tiered mode */
    char *text = big_kernel_ptx();
    harness h = {0};
    CHECK(harness_load(&h, text));
    free(text);
    if (!h.prog) return harness_report("test_jit_policy");
    uint32_t insns = 0;
    for (uint32_t i = 0; i < exec_program_nfuncs(h.prog); i++) {
        const exec_func *f = exec_program_func(h.prog, i);
        if (f->code) insns = jit_func_insns(f);
    }
    CHECK(insns > 4000); /* per-warp code at -O0 (and too large for the vector tier) */
    CHECK_EQ_U64(jit_warp_opt_for(insns), 0);

    char err[512] = "";
    jit_job *j = jit_program_start(h.prog, JIT_TIERED, err, sizeof err);
    CHECK(j != NULL);
    if (j) {
        /* decided at once: nothing to build, nothing installed */
        jit_job_counts c;
        CHECK(jit_job_counts_get(j, &c));
        CHECK_EQ_U64(c.units, 1);
        CHECK_EQ_U64(c.interpreted, 1);
        CHECK_EQ_U64(c.compiled, 0);
        CHECK_EQ_U64(c.cached, 0);
        CHECK_EQ_U64(c.failed, 0);
        CHECK(!exec_program_native_ready(h.prog));
        char desc[768];
        jit_job_describe(j, desc, sizeof desc);
        CHECK(strstr(desc, "1 left to the interpreter (kernel big: ") != NULL);
        CHECK(strstr(desc, "slower than the interpreter") != NULL);
        /* a buffer smaller than the description: cut short, nothing written past it (the
         * kernel's instruction count, over 4000, once served as the bound and overran the
         * launch's 512-byte note into the scheduler's lane: a crash in the default mode) */
        char area[100 + 5000];
        memset(area, 'G', sizeof area);
        jit_job_describe(j, area, 100);
        CHECK_EQ_U64(strlen(area), 99);
        size_t intact = 0;
        for (size_t i = 100; i < sizeof area; i++) intact += area[i] == 'G';
        CHECK_EQ_U64(intact, sizeof area - 100);
    }

    uint32_t *out = harness_alloc(&h, THREADS * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(&h, "big", dim(1, 1, 1), dim(THREADS, 1, 1), 0, args);
    CHECK(r.kind == EXEC_OK);
    for (uint32_t t = 0; t < THREADS; t++) CHECK_EQ_U64(out[t], big_kernel_result(t));
    free(r.out.data);
    free(r.out.err);
    harness_dealloc(&h, out);
    jit_job_free(j);
    harness_free(&h);
    rmdir(dir); /* (empty: nothing was built) */
    return harness_report("test_jit_policy");
}
