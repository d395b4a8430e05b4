/* tests/unit/test_jit_lazy.c — a compile job builds only what launches need (jit/jit.c,
 * jit_kernel_request): opened, it has generated and built nothing; a request for one
 * kernel builds that kernel and the device function it calls, and no other kernel of the
 * program, in the tiered mode (in the background) as under VCUDA_JIT=always (before the
 * request returns); the kernel then gives the interpreter's result compiled.
 */
#include "exec_harness.h"
#include "exec/core.h"
#include "exec/native.h"
#include "jit/jit.h"

#include <unistd.h>

/* Has the function named name its compiled code installed? */
static bool native(const exec_program *p, const char *name) {
    for (uint32_t i = 0; i < exec_program_nfuncs(p); i++) {
        const exec_func *f = exec_program_func(p, i);
        if (f->code && !strcmp(f->pf->name, name)) return f->native || f->block_native;
    }
    return false;
}

int main(void) {
    char dir[] = "/tmp/vcuda-jit-lazy-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    setenv("VCUDA_CACHE_DIR", dir, 1);
    char path[512];
    snprintf(path, sizeof path, "%s/unit/data/jit_kernels.ptx", VCUDA_TEST_DIR);
    char *text = test_read_file(path, NULL);
    CHECK(text != NULL);
    if (!text) return harness_report("test_jit_lazy");

    /* the tiered mode: jk_calls (which calls _Z3fibi) requested, nothing else */
    harness h = {0};
    CHECK(harness_load(&h, text));
    jit_job *j = jit_program_open(h.prog, JIT_TIERED);
    CHECK(j != NULL);
    jit_job_counts c;
    CHECK(j && jit_job_counts_get(j, &c)); /* (nothing asked: nothing to wait for) */
    uint32_t units = c.units;
    CHECK(units > 5);
    CHECK_EQ_U64(c.idle, units);
    CHECK(!exec_program_native_ready(h.prog));
    char err[512] = "";
    CHECK(jit_kernel_request(j, exec_program_kernel(h.prog, "jk_calls"), err, sizeof err));
    for (int k = 0; k < 12000 && j && !jit_job_counts_get(j, &c); k++) usleep(10000);
    CHECK(j && jit_job_counts_get(j, &c));
    CHECK_EQ_U64(c.compiled, 2);
    CHECK_EQ_U64(c.idle, units - 2);
    CHECK(native(h.prog, "jk_calls"));
    CHECK(native(h.prog, "_Z3fibi"));
    CHECK(!native(h.prog, "jk_reduce"));
    CHECK(!native(h.prog, "jk_mix"));
    if (j) {
        char desc[512];
        jit_job_describe(j, desc, sizeof desc);
        char want[64];
        snprintf(want, sizeof want, ", %u not needed by any launch yet", units - 2);
        CHECK(strstr(desc, want) != NULL);
    }
    jit_job_free(j);
    harness_free(&h);

    /* VCUDA_JIT=always: jk_reduce built before the request returns, alone; jk_calls and
     * its callee come from the cache once asked */
    harness h2 = {0};
    CHECK(harness_load(&h2, text));
    j = jit_program_open(h2.prog, JIT_ALWAYS);
    CHECK(j != NULL);
    CHECK(jit_kernel_request(j, exec_program_kernel(h2.prog, "jk_reduce"), err, sizeof err));
    CHECK(j && jit_job_counts_get(j, &c));
    CHECK_EQ_U64(c.compiled, 1);
    CHECK_EQ_U64(c.cached, 0);
    CHECK_EQ_U64(c.idle, units - 1);
    CHECK(native(h2.prog, "jk_reduce"));
    CHECK(!native(h2.prog, "jk_calls"));
    CHECK(jit_kernel_request(j, exec_program_kernel(h2.prog, "jk_calls"), err, sizeof err));
    CHECK(j && jit_job_counts_get(j, &c));
    CHECK_EQ_U64(c.compiled, 1);
    CHECK_EQ_U64(c.cached, 2);
    CHECK_EQ_U64(c.idle, units - 3);
    CHECK(native(h2.prog, "jk_calls") && native(h2.prog, "_Z3fibi"));
    CHECK(!native(h2.prog, "jk_mix"));
    jit_job_free(j);
    harness_free(&h2);

    free(text);
    harness_remove_dir(dir);
    return harness_report("test_jit_lazy");
}
