/* tests/unit/jit_tier_compare.h — the frame of the unit tests that hold the vector tier to
 * the interpreter (test_jit_affine, test_jit_rows): a test's run_all launches its kernels
 * over every case, keeping the words each launch left and each launch's fault; the frame
 * runs it interpreted, then with every kernel compiled (VCUDA_JIT=always, a fresh cache,
 * every kernel in the vector tier), and the two passes must leave the same words and the
 * same faults, kind and message. */
#ifndef JIT_TIER_COMPARE_H
#define JIT_TIER_COMPARE_H

#include "exec_harness.h"
#include "exec/core.h"
#include "exec/native.h"
#include "jit/jit.h"

#define TIER_MAX_LAUNCHES 64u

/* One pass over every case: the words each launch left, concatenated, and its fault. */
typedef struct tier_outcome {
    int32_t *words;
    size_t n, cap;
    exec_fault_kind kinds[TIER_MAX_LAUNCHES];
    char msgs[TIER_MAX_LAUNCHES][640];
    unsigned nkinds;
} tier_outcome;

static void tier_keep(tier_outcome *o, const void *p, size_t bytes) {
    size_t add = bytes / 4;
    if (o->n + add > o->cap) {
        o->cap = (o->n + add) * 2;
        o->words = realloc(o->words, o->cap * 4);
        if (!o->words) abort();
    }
    memcpy(o->words + o->n, p, add * 4);
    o->n += add;
}

/* Launch kernel k and keep its fault: the message with its address made an offset from
 * base where base is given (the two passes' allocations are at different addresses). */
static void tier_launch(harness *h, tier_outcome *o, const char *k, exec_dim3 g, exec_dim3 b,
                        void **args, const void *base) {
    harness_run r = harness_launch(h, k, g, b, 0, args);
    if (o->nkinds < TIER_MAX_LAUNCHES) {
        char *m = o->msgs[o->nkinds];
        o->kinds[o->nkinds++] = r.kind;
        const char *msg = r.kind != EXEC_OK ? r.fault.msg : "", *x = base ? strstr(msg, "0x") : 0;
        if (x) {
            char *end;
            long long d = (long long)(strtoull(x, &end, 16) - (uint64_t)(uintptr_t)base);
            snprintf(m, sizeof o->msgs[0], "%.*s[base%+lld]%s", (int)(x - msg), msg, d, end);
        } else {
            snprintf(m, sizeof o->msgs[0], "%s", msg);
        }
    }
    free(r.out.data);
    free(r.out.err);
}

/* Test `name` over the kernels of tests/unit/data/<ptx>: run_all interpreted, check_ref on
 * that pass (which faults it expects), then compiled, then the comparison. */
static int tier_compare_main(const char *name, const char *ptx,
                             void (*run_all)(harness *, tier_outcome *),
                             void (*check_ref)(const tier_outcome *)) {
    char dir[] = "/tmp/vcuda-jit-tiers-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    setenv("VCUDA_CACHE_DIR", dir, 1);
    char path[512];
    snprintf(path, sizeof path, "%s/unit/data/%s", VCUDA_TEST_DIR, ptx);
    char *text = test_read_file(path, NULL);
    CHECK(text != NULL);
    if (!text) return harness_report(name);

    harness h = {0};
    CHECK(harness_load(&h, text));
    tier_outcome ref, got;
    run_all(&h, &ref);
    check_ref(&ref);

    char err[512] = "";
    jit_job *j = jit_program_start(h.prog, JIT_ALWAYS, err, sizeof err);
    if (!j) fprintf(stderr, "jit: %s\n", err);
    CHECK(j != NULL);
    for (uint32_t i = 0; i < exec_program_nfuncs(h.prog); i++) {
        const exec_func *f = exec_program_func(h.prog, i);
        if (f->code && f->pf->is_entry && !f->block_native)
            fprintf(stderr, "not in the vector tier: %s\n", f->pf->name);
        CHECK(!f->code || !f->pf->is_entry || f->block_native);
    }
    run_all(&h, &got);
    CHECK_EQ_U64(got.n, ref.n);
    CHECK_EQ_U64(got.nkinds, ref.nkinds);
    for (unsigned k = 0; k < ref.nkinds && k < got.nkinds; k++) {
        CHECK_EQ_U64(got.kinds[k], ref.kinds[k]);
        if (strcmp(got.msgs[k], ref.msgs[k]))
            fprintf(stderr, "launch %u: interpreter '%s', compiled '%s'\n", k, ref.msgs[k],
                    got.msgs[k]);
        CHECK(!strcmp(got.msgs[k], ref.msgs[k]));
    }
    size_t diffs = 0;
    for (size_t k = 0; k < ref.n && k < got.n; k++)
        if (ref.words[k] != got.words[k] && diffs++ < 8)
            fprintf(stderr, "word %zu: interpreter %d, compiled %d\n", k, ref.words[k],
                    got.words[k]);
    CHECK(diffs == 0);
    free(ref.words);
    free(got.words);
    jit_job_free(j);
    harness_free(&h);
    free(text);
    harness_remove_dir(dir);
    return harness_report(name);
}

#endif
