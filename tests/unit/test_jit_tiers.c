/* tests/unit/test_jit_tiers.c — the compiled tier against the interpreter: kernels of
 * tests/unit/data/jit_kernels.cu (shared memory and barriers in loops, divergence, a
 * warp-synchronous tail, recursion, printf, warp shuffles, atomics, floats, a fault) run
 * in both tiers and must leave the same memory, print the same text and fail with the same
 * diagnostic. Also the compile units (one per function) and their cache: a second load
 * of the same program compiles nothing, a corrupt entry is rebuilt alone, and in the
 * background the units land one by one while kernels run.
 */
#include "exec_harness.h"
#include "exec/core.h"
#include "exec/native.h"
#include "jit/jit.h"

#include <dirent.h>
#include <unistd.h>

#define N_ELEMS 4096u
#define BLOCK 256u

/* What one pass over the kernels left behind. */
typedef struct outcome {
    int32_t reduce_out[N_ELEMS / BLOCK];
    int64_t mix_out[N_ELEMS];
    int32_t calls_out[2 * 64];
    float warp_out[N_ELEMS / 32];
    int32_t warp_count;
    int32_t fault_out[N_ELEMS];
    exec_fault_kind fault_kind;
    char fault_msg[512];
    char *printed;  /* jk_calls' printf output */
    size_t printed_len;
} outcome;

static void run_all(harness *h, outcome *o) {
    memset(o, 0, sizeof *o);
    int32_t *in = harness_alloc(h, N_ELEMS * 4);
    for (uint32_t i = 0; i < N_ELEMS; i++) in[i] = (int32_t)((i * 2654435761u) >> 7) - 40000;
    unsigned n = N_ELEMS - 5; /* a partial last block */

    int32_t *rout = harness_alloc(h, sizeof o->reduce_out);
    void *a1[] = {&in, &rout, &n};
    harness_run r = harness_launch(h, "jk_reduce", dim(N_ELEMS / BLOCK, 1, 1), dim(BLOCK, 1, 1),
                                   0, a1);
    CHECK(r.kind == EXEC_OK);
    memcpy(o->reduce_out, rout, sizeof o->reduce_out);
    free(r.out.data);
    free(r.out.err);

    int64_t *mout = harness_alloc(h, sizeof o->mix_out);
    void *a2[] = {&in, &mout, &n};
    r = harness_launch(h, "jk_mix", dim(N_ELEMS / 128, 1, 1), dim(128, 1, 1), 0, a2);
    CHECK(r.kind == EXEC_OK);
    memcpy(o->mix_out, mout, sizeof o->mix_out);
    free(r.out.data);
    free(r.out.err);

    int32_t *cout = harness_alloc(h, sizeof o->calls_out);
    void *a3[] = {&cout};
    r = harness_launch(h, "jk_calls", dim(2, 1, 1), dim(64, 1, 1), 0, a3);
    CHECK(r.kind == EXEC_OK);
    memcpy(o->calls_out, cout, sizeof o->calls_out);
    o->printed = r.out.data;
    o->printed_len = r.out.len;
    free(r.out.err);

    float *fa = harness_alloc(h, N_ELEMS * 4), *fb = harness_alloc(h, sizeof o->warp_out);
    for (uint32_t i = 0; i < N_ELEMS; i++) fa[i] = (float)((int)(i % 97) - 48) / 7.0f;
    int32_t *count = harness_alloc(h, 4);
    void *a4[] = {&fa, &fb, &count};
    r = harness_launch(h, "jk_warp", dim(N_ELEMS / 128, 1, 1), dim(128, 1, 1), 0, a4);
    CHECK(r.kind == EXEC_OK);
    memcpy(o->warp_out, fb, sizeof o->warp_out);
    o->warp_count = *count;
    free(r.out.data);
    free(r.out.err);

    int32_t *fout = harness_alloc(h, sizeof o->fault_out);
    void *a5[] = {&fout, &n};
    r = harness_launch(h, "jk_fault", dim(4, 1, 1), dim(64, 1, 1), 0, a5);
    o->fault_kind = r.kind;
    /* the message names the bad address, which depends on where fout was allocated:
     * written relative to it, the two tiers' messages must match exactly */
    char want[64];
    snprintf(want, sizeof want, "0x%llx",
             (unsigned long long)(uintptr_t)(fout + (64 + 37 + (1u << 26))));
    const char *at = strstr(r.fault.msg, want);
    CHECK(at != NULL);
    if (at)
        snprintf(o->fault_msg, sizeof o->fault_msg, "%.*sFOUT+OFFSET%s", (int)(at - r.fault.msg),
                 r.fault.msg, at + strlen(want));
    memcpy(o->fault_out, fout, sizeof o->fault_out);
    free(r.out.data);
    free(r.out.err);

    void *bufs[] = {in, rout, mout, cout, fa, fb, count, fout};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) harness_dealloc(h, bufs[i]);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
/* Does the CPU say whether the upper halves of the vector registers are in use (XGETBV
 * with ECX = 1: XINUSE, bit 2 the AVX state)? -1 when it cannot. */
static int avx_upper_in_use(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX)) return -1;
    if (!__get_cpuid_count(0xd, 1, &a, &b, &c, &d) || !(a & 4)) return -1;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
    return (int)((lo >> 2) & 1);
}
#else
static int avx_upper_in_use(void) { return -1; }
#endif

/* A block of the vector tier's code (built for the host, 512-bit vectors where it has
 * them) hands the host thread back with the vector registers' upper halves clean, so that
 * the core's SSE code after it does not wait on them (exec_native_returned). */
static void check_upper_clean(harness *h) {
    const exec_kernel *k = exec_program_kernel(h->prog, "jk_reduce");
    CHECK(k != NULL);
    if (!k) return;
    int32_t *in = harness_alloc(h, BLOCK * 4), *out = harness_alloc(h, 4);
    int32_t want = 0; /* (the kernel's sum: odd values taken as 3v - 7) */
    for (uint32_t i = 0; i < BLOCK; i++) {
        in[i] = (int32_t)i - 7;
        want += in[i] & 1 ? 3 * in[i] - 7 : in[i];
    }
    unsigned n = BLOCK;
    void *args[] = {&in, &out, &n};
    uint8_t *params = harness_params(k, args);
    exec_launch L = harness_make_launch(h, k, dim(1, 1, 1), dim(BLOCK, 1, 1), 0, params);
    exec_output o = {0};
    exec_fault f;
    exec_fault_kind kind = exec_run_block(h->worker, &L, dim(0, 0, 0), 0, &o, &f);
    int dirty = avx_upper_in_use();
    CHECK(kind == EXEC_OK);
    CHECK(*out == want);
    if (dirty >= 0) CHECK(dirty == 0);
    free(params);
    free(o.data);
    free(o.err);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

static void compare(const outcome *a, const outcome *b, const char *what) {
    size_t before = (size_t)harness_failures;
    CHECK(!memcmp(a->reduce_out, b->reduce_out, sizeof a->reduce_out));
    CHECK(!memcmp(a->mix_out, b->mix_out, sizeof a->mix_out));
    CHECK(!memcmp(a->calls_out, b->calls_out, sizeof a->calls_out));
    CHECK(!memcmp(a->warp_out, b->warp_out, sizeof a->warp_out));
    CHECK_EQ_U64(a->warp_count, b->warp_count);
    CHECK(!memcmp(a->fault_out, b->fault_out, sizeof a->fault_out));
    CHECK_EQ_U64(a->fault_kind, b->fault_kind);
    CHECK(!strcmp(a->fault_msg, b->fault_msg));
    CHECK_EQ_U64(a->printed_len, b->printed_len);
    CHECK(a->printed_len == b->printed_len &&
          (!a->printed_len || !memcmp(a->printed, b->printed, a->printed_len)));
    if ((size_t)harness_failures != before)
        fprintf(stderr, "(comparing %s)\n  %s\n  %s\n", what, a->fault_msg, b->fault_msg);
}

static void free_outcome(outcome *o) { free(o->printed); }

/* Every function with code got native code: per-warp code, or a kernel's whole-block
 * code of the vector tier (jit/vemit.c). */
static bool all_native(const exec_program *p) {
    for (uint32_t i = 0; i < exec_program_nfuncs(p); i++) {
        const exec_func *f = exec_program_func(p, i);
        if (f->code && !f->native && !f->block_native) return false;
    }
    return true;
}

static uint32_t funcs_with_code(const exec_program *p) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < exec_program_nfuncs(p); i++) n += exec_program_func(p, i)->code != NULL;
    return n;
}

/* The kernel named name runs in the vector tier. */
static bool vector_tier(const exec_program *p, const char *name) {
    for (uint32_t i = 0; i < exec_program_nfuncs(p); i++) {
        const exec_func *f = exec_program_func(p, i);
        if (f->code && !strcmp(f->pf->name, name)) return f->block_native != NULL;
    }
    return false;
}

static char *cache_entry(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return NULL;
    char *found = NULL;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l > 3 && !strcmp(e->d_name + l - 3, ".so") && e->d_name[0] != '.') {
            found = malloc(strlen(dir) + l + 2);
            sprintf(found, "%s/%s", dir, e->d_name);
            break;
        }
    }
    closedir(d);
    return found;
}

int main(void) {
    char dir[] = "/tmp/vcuda-jit-test-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    setenv("VCUDA_CACHE_DIR", dir, 1);
    char path[512];
    snprintf(path, sizeof path, "%s/unit/data/jit_kernels.ptx", VCUDA_TEST_DIR);
    char *text = test_read_file(path, NULL);
    CHECK(text != NULL);
    if (!text) return harness_report("test_jit_tiers");

    /* the reference: the interpreter */
    harness h = {0};
    CHECK(harness_load(&h, text));
    outcome ref, got;
    run_all(&h, &ref);
    CHECK(ref.fault_kind == EXEC_FAULT_ILLEGAL_ADDRESS);
    CHECK(strstr(ref.fault_msg, "jk_fault") != NULL);
    CHECK(ref.printed_len > 0);

    /* compiled before the first launch, as VCUDA_JIT=always does */
    char err[512] = "";
    jit_job *j = jit_program_start(h.prog, JIT_ALWAYS, err, sizeof err);
    if (!j) fprintf(stderr, "jit: %s\n", err);
    CHECK(j != NULL);
    CHECK(exec_program_native_ready(h.prog));
    CHECK(all_native(h.prog));
    /* the reduction (barriers in a loop, an if under a mask, a warp-synchronous tail) and
     * the divergent loops (which leave it for the interpreter's loop when the lanes part)
     * are the vector tier's */
    CHECK(vector_tier(h.prog, "jk_reduce"));
    CHECK(vector_tier(h.prog, "jk_mix"));
    char desc[512];
    jit_job_counts c;
    memset(&c, 0, sizeof c);
    if (j) {
        jit_job_describe(j, desc, sizeof desc);
        CHECK(strstr(desc, "kernels in the vector tier") != NULL);
        /* one unit per function with code, each built */
        CHECK(jit_job_counts_get(j, &c));
        CHECK_EQ_U64(c.units, funcs_with_code(h.prog));
        CHECK(c.units > 5);
        CHECK_EQ_U64(c.compiled, c.units);
        CHECK_EQ_U64(c.cached, 0);
        CHECK_EQ_U64(c.failed, 0);
        CHECK(c.vector >= 2);
    }
    check_upper_clean(&h);
    run_all(&h, &got);
    compare(&ref, &got, "interpreter / compiled");
    free_outcome(&got);

    /* turned off again, the program is interpreted and still agrees */
    exec_program_native_enable(h.prog, false);
    CHECK(!exec_program_native_ready(h.prog));
    exec_program_native_enable(h.prog, true);
    jit_job_free(j);
    harness_free(&h);

    /* a second load of the same program finds its code in the cache */
    harness h2 = {0};
    CHECK(harness_load(&h2, text));
    j = jit_program_start(h2.prog, JIT_ALWAYS, err, sizeof err);
    CHECK(j != NULL);
    if (j) {
        uint32_t units = c.units;
        CHECK(jit_job_counts_get(j, &c));
        CHECK_EQ_U64(c.cached, units);
        CHECK_EQ_U64(c.compiled, 0);
        CHECK(all_native(h2.prog));
    }
    run_all(&h2, &got);
    compare(&ref, &got, "interpreter / cached");
    free_outcome(&got);
    jit_job_free(j);
    harness_free(&h2);

    /* a corrupt entry is built again */
    char *entry = cache_entry(dir);
    CHECK(entry != NULL);
    if (entry) {
        FILE *f = fopen(entry, "w");
        CHECK(f != NULL);
        if (f) {
            fputs("not a shared object", f);
            fclose(f);
        }
        free(entry);
    }
    harness h3 = {0};
    CHECK(harness_load(&h3, text));
    j = jit_program_start(h3.prog, JIT_ALWAYS, err, sizeof err);
    CHECK(j != NULL);
    if (j) { /* that entry alone */
        uint32_t units = c.units;
        CHECK(jit_job_counts_get(j, &c));
        CHECK_EQ_U64(c.compiled, 1);
        CHECK_EQ_U64(c.cached, units - 1);
    }
    run_all(&h3, &got);
    compare(&ref, &got, "interpreter / rebuilt");
    free_outcome(&got);
    jit_job_free(j);
    harness_free(&h3);

    /* the background compile (VCUDA_JIT=1): the program switches once it is done */
    harness h4 = {0};
    CHECK(harness_load(&h4, text));
    j = jit_program_start(h4.prog, JIT_TIERED, err, sizeof err);
    CHECK(j != NULL);
    for (int k = 0; k < 6000 && !exec_program_native_ready(h4.prog); k++) usleep(10000);
    CHECK(exec_program_native_ready(h4.prog));
    run_all(&h4, &got);
    compare(&ref, &got, "interpreter / tiered");
    free_outcome(&got);
    jit_job_free(j);
    harness_free(&h4);

    /* the background compile of units the cache lost: they land one by one while
     * kernels run (each as soon as it is loaded: TSan sees the installs race-free), the
     * others run compiled from the start, and every one ends installed */
    for (int k = 0; k < 3; k++) {
        char *gone = cache_entry(dir);
        CHECK(gone != NULL);
        if (gone) unlink(gone);
        free(gone);
    }
    harness h5 = {0};
    CHECK(harness_load(&h5, text));
    j = jit_program_start(h5.prog, JIT_TIERED, err, sizeof err);
    CHECK(j != NULL);
    run_all(&h5, &got);
    compare(&ref, &got, "interpreter / tiering up");
    free_outcome(&got);
    for (int k = 0; k < 12000 && j && !jit_job_counts_get(j, &c); k++) {
        if (k % 50 == 0) { /* launches while the units land */
            run_all(&h5, &got);
            compare(&ref, &got, "interpreter / tiering up");
            free_outcome(&got);
        }
        usleep(10000);
    }
    CHECK(j && jit_job_counts_get(j, &c));
    CHECK_EQ_U64(c.compiled, 3);
    CHECK_EQ_U64(c.cached, c.units - 3);
    CHECK(all_native(h5.prog));
    if (j) {
        jit_job_describe(j, desc, sizeof desc);
        CHECK(strstr(desc, " compiled in ") != NULL);
    }
    run_all(&h5, &got);
    compare(&ref, &got, "interpreter / tiered");
    free_outcome(&got);
    jit_job_free(j);
    harness_free(&h5);

    /* per-warp code built without the vectoriser (-O0: runs of handler calls through one
     * loop, out-of-line broadcasts and core calls), every kernel, as large functions are */
    setenv("VCUDA_JIT_OPT", "0", 1);
    setenv("VCUDA_JIT_VECTOR", "0", 1);
    harness h6 = {0};
    CHECK(harness_load(&h6, text));
    j = jit_program_start(h6.prog, JIT_ALWAYS, err, sizeof err);
    if (!j) fprintf(stderr, "jit -O0: %s\n", err);
    CHECK(j != NULL);
    CHECK(all_native(h6.prog));
    CHECK(!vector_tier(h6.prog, "jk_reduce"));
    run_all(&h6, &got);
    compare(&ref, &got, "interpreter / per-warp -O0");
    free_outcome(&got);
    jit_job_free(j);
    harness_free(&h6);
    unsetenv("VCUDA_JIT_OPT");
    unsetenv("VCUDA_JIT_VECTOR");

    free_outcome(&ref);
    free(text);
    harness_remove_dir(dir);
    return harness_report("test_jit_tiers");
}
