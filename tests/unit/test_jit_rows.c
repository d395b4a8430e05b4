/* tests/unit/test_jit_rows.c — the vector tier's loads of warps that hold two rows of 16
 * threads (jit/vemit_mem.c) against the interpreter: the kernels of
 * tests/unit/data/jit_rows.cu run in both tiers over blocks 16 threads wide (2-D and 3-D),
 * 8 and 32 wide, with addresses consecutive, equal, strided and mixed within a half-warp,
 * from global and shared memory, some lanes only; and loads that leave their allocation or
 * are misaligned, whose fault (kind and message: thread, instruction) must be the same.
 */
#include "exec_harness.h"
#include "exec/core.h"
#include "exec/native.h"
#include "jit/jit.h"

/* One pass over every case: the words each launch left, and each launch's fault. */
typedef struct outcome {
    int32_t *words;
    size_t n, cap;
    exec_fault_kind kinds[32];
    char msgs[32][640];
    unsigned nkinds;
} outcome;

static void keep(outcome *o, const void *p, size_t bytes) {
    size_t add = bytes / 4;
    if (o->n + add > o->cap) {
        o->cap = (o->n + add) * 2;
        o->words = realloc(o->words, o->cap * 4);
        if (!o->words) abort();
    }
    memcpy(o->words + o->n, p, add * 4);
    o->n += add;
}

/* The launch's fault message with its address made an offset from base (the two passes'
 * allocations are at different addresses). */
static void launch(harness *h, outcome *o, const char *k, exec_dim3 g, exec_dim3 b, void **args,
                   const void *base) {
    harness_run r = harness_launch(h, k, g, b, 0, args);
    if (o->nkinds < 32) {
        char *m = o->msgs[o->nkinds];
        o->kinds[o->nkinds++] = r.kind;
        const char *msg = r.kind != EXEC_OK ? r.fault.msg : "", *x = strstr(msg, "0x");
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

#define A_FLOATS 8192u

static void run_all(harness *h, outcome *o) {
    memset(o, 0, sizeof *o);
    float *abase = harness_alloc(h, A_FLOATS * 4), *out = harness_alloc(h, A_FLOATS * 4);
    int32_t *aibase = harness_alloc(h, A_FLOATS * 4), *outi = harness_alloc(h, A_FLOATS * 4);
    for (uint32_t i = 0; i < A_FLOATS; i++) {
        abase[i] = (float)((i * 2654435761u) >> 20) * 0.25f - 500.0f;
        aibase[i] = (int32_t)((i * 40503u) >> 3) - 20000;
    }
    /* a[-1] and a little past the last row stay inside the allocation */
    float *a = abase + 64;
    int32_t *ai = aibase + 64;

    /* jr_loads: {block x, y, z, grid x, grid y} */
    static const uint32_t shapes[][5] = {{16, 4, 1, 2, 2}, {16, 2, 2, 2, 1}, {16, 16, 1, 2, 2},
                                         {8, 4, 1, 3, 2}, {32, 2, 1, 2, 2}, {16, 1, 1, 3, 1}};
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        const uint32_t *sh = shapes[c];
        int n = (int)(sh[0] * sh[3]) + 40, off = 3 + (int)c;
        memset(out, 0x55, A_FLOATS * 4);
        memset(outi, 0x55, A_FLOATS * 4);
        void *args[] = {&a, &ai, &out, &outi, &n, &off};
        launch(h, o, "jr_loads", dim(sh[3], sh[4], 1), dim(sh[0], sh[1], sh[2]), args, a);
        keep(o, out, 4096 * 4);
        keep(o, outi, 4096 * 4);
    }

    /* jr_fault: rows of 16 over a 64-float allocation; past its end, before its start,
     * misaligned, and in range */
    float *small = harness_alloc(h, 64 * 4);
    for (uint32_t i = 0; i < 64; i++) small[i] = (float)i;
    static const struct { int base, byte; } faults[] = {{40, 0}, {-16, 0}, {0, 2}, {32, 0}};
    for (size_t c = 0; c < sizeof faults / sizeof faults[0]; c++) {
        int base = faults[c].base, byte = faults[c].byte;
        memset(out, 0x66, 64 * 4);
        void *args[] = {&small, &out, &base, &byte};
        launch(h, o, "jr_fault", dim(1, 1, 1), dim(16, 2, 1), args, small);
        keep(o, out, 64 * 4);
    }
    harness_dealloc(h, small);
    harness_dealloc(h, outi);
    harness_dealloc(h, aibase);
    harness_dealloc(h, out);
    harness_dealloc(h, abase);
}

int main(void) {
    char dir[] = "/tmp/vcuda-jit-rows-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    setenv("VCUDA_CACHE_DIR", dir, 1);
    char path[512];
    snprintf(path, sizeof path, "%s/unit/data/jit_rows.ptx", VCUDA_TEST_DIR);
    char *text = harness_read_file(path);
    CHECK(text != NULL);
    if (!text) return harness_report("test_jit_rows");

    harness h = {0};
    CHECK(harness_load(&h, text));
    outcome ref, got;
    run_all(&h, &ref);
    /* the loads' launches run, the first three fault cases fault */
    CHECK_EQ_U64(ref.nkinds, 10);
    for (unsigned k = 0; k < ref.nkinds; k++)
        CHECK_EQ_U64(ref.kinds[k] == EXEC_OK, k < 6 || k == 9);

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
    return harness_report("test_jit_rows");
}
