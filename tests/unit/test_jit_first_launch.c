/* tests/unit/test_jit_first_launch.c — the tiered mode's first launch waits for no
 * compiler (jit/jit.c). A cache key holds the compiler's identity, which costs a run of
 * the compiler the first time a process asks; the first program started in the tiered
 * mode leaves that, and its cache lookups, to the job's threads, so its first launches
 * run interpreted meanwhile. Shown with the threads held before their first step (no
 * timing): starting the job asks nothing of the compiler, installs nothing, and a launch
 * then gives the right result interpreted; released, the threads build the unit. A
 * second program, started once the identity is known, finds the unit in the cache on the
 * caller's thread and runs compiled from its first launch.
 */
#include "exec_harness.h"
#include "exec/core.h"
#include "exec/native.h"
#include "jit/jit.h"

#include <unistd.h>

#define THREADS 256u

static const char *const ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry scale(.param .u64 out, .param .u32 k)\n{\n"
    "  .reg .b32 %r<5>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r1, [k];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r2, %r2, %r3, %r4;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  mul.lo.s32 %r2, %r2, %r1;\n"
    "  st.global.u32 [%rd3], %r2;\n"
    "  ret;\n}\n";

/* Launch scale over 2 x THREADS/2 threads with k; true when every element is i * k. */
static bool run_scale(harness *h, uint32_t k) {
    uint32_t *out = harness_alloc(h, THREADS * 4);
    void *args[] = {&out, &k};
    harness_run r = harness_launch(h, "scale", dim(2, 1, 1), dim(THREADS / 2, 1, 1), 0, args);
    bool ok = r.kind == EXEC_OK;
    for (uint32_t i = 0; i < THREADS && ok; i++) ok = out[i] == i * k;
    free(r.out.data);
    free(r.out.err);
    harness_dealloc(h, out);
    return ok;
}

int main(void) {
    char dir[] = "/tmp/vcuda-jit-first-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    setenv("VCUDA_CACHE_DIR", dir, 1);
    unsetenv("VCUDA_JIT_OPT");
    unsetenv("VCUDA_JIT_VECTOR");
    CHECK(!jit_compiler_known()); /* nothing asked the compiler yet in this process */

    harness h = {0};
    CHECK(harness_load(&h, ptx));
    if (!h.prog) return harness_report("test_jit_first_launch");
    char err[512] = "";
    jit_hold_workers(true);
    jit_job *j = jit_program_start(h.prog, JIT_TIERED, err, sizeof err);
    CHECK(j != NULL);
    /* the start ran no compiler (the held threads ask it) and installed nothing */
    CHECK(!jit_compiler_known());
    jit_job_counts c;
    CHECK(j && !jit_job_counts_get(j, &c));
    CHECK_EQ_U64(c.cached + c.compiled + c.failed, 0);
    CHECK(!exec_program_native_ready(h.prog));
    /* the first launch: interpreted, since the unit is still to be looked for and built */
    CHECK(run_scale(&h, 3));
    CHECK(!exec_program_native_ready(h.prog));
    if (j) {
        char desc[512];
        jit_job_describe(j, desc, sizeof desc);
        CHECK(strstr(desc, "looking in the cache: 0 of 1 units ready") != NULL);
    }
    jit_hold_workers(false);
    for (int k = 0; k < 12000 && j && !jit_job_counts_get(j, &c); k++) usleep(10000);
    CHECK(j && jit_job_counts_get(j, &c));
    CHECK_EQ_U64(c.compiled, 1);
    CHECK_EQ_U64(c.cached, 0);
    CHECK(jit_compiler_known());
    CHECK(exec_program_native_ready(h.prog));
    CHECK(run_scale(&h, 5));
    jit_job_free(j);
    harness_free(&h);

    /* the identity known: a second program looks in the cache on this thread, and its
     * unit is installed before its first launch */
    harness h2 = {0};
    CHECK(harness_load(&h2, ptx));
    if (h2.prog) {
        jit_job *j2 = jit_program_start(h2.prog, JIT_TIERED, err, sizeof err);
        CHECK(j2 != NULL);
        CHECK(j2 && jit_job_counts_get(j2, &c));
        CHECK_EQ_U64(c.cached, 1);
        CHECK(exec_program_native_ready(h2.prog));
        CHECK(run_scale(&h2, 7));
        jit_job_free(j2);
        harness_free(&h2);
    }
    harness_remove_dir(dir);
    return harness_report("test_jit_first_launch");
}
