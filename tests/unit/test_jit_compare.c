/* tests/unit/test_jit_compare.c — comparisons the vector tier runs by their handler
 * (jit/vemit.c's pcall_op) against the interpreter: the kernel of
 * tests/unit/data/jit_compare.ptx compares every pair of a set of floats (zeros of both
 * signs, ones, infinities, NaN, subnormals, the largest and smallest normals) with the 14
 * float comparisons of setp in f32, f32.ftz and f64, against a parameter and an immediate,
 * combined (.and/.or/.xor, a negated third predicate, a second result), and tests them with
 * testp; a last result is made by a guard and a branch on a compared predicate. The
 * kernels jc_bits (prmt shf lop3 bfi bfind fns dp4a dp2a slct tanh set) and jc_cp (cp.async
 * with and without a source size, commit and wait) are the other instructions it runs by
 * their handler. Every kernel must run in the vector tier (the frame checks it) and leave
 * the same words. */
#include "jit_tier_compare.h"

#include <math.h>

#define WORDS 8u

static void run_all(harness *h, tier_outcome *o) {
    memset(o, 0, sizeof *o);
    static const float vals[] = {0.0f, -0.0f, 1.0f, -1.0f, 1.5f, INFINITY, -INFINITY, NAN,
                                 1e-40f, -1e-40f, 3.4028235e38f, 1.1754944e-38f, -NAN};
    const uint32_t k = sizeof vals / sizeof vals[0], n = k * k;
    float *a = harness_alloc(h, n * 4), *b = harness_alloc(h, n * 4);
    int32_t *out = harness_alloc(h, n * WORDS * 4);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = vals[i % k];
        b[i] = vals[i / k];
    }
    /* a uniform operand of each kind: a number, a NaN, an infinity; blocks of 64 and 32
     * (the last block's warps partly past n: the guard's branch) */
    static const float us[] = {1.0f, NAN, -INFINITY};
    static const uint32_t blocks[] = {64, 32, 96};
    for (size_t c = 0; c < sizeof us / sizeof us[0]; c++) {
        float u = us[c];
        int nn = (int)n;
        memset(out, 0x55, n * WORDS * 4);
        void *args[] = {&a, &b, &out, &nn, &u};
        uint32_t bx = blocks[c];
        tier_launch(h, o, "jc_cmp", dim((n + bx - 1) / bx, 1, 1), dim(bx, 1, 1), args, NULL);
        tier_keep(o, out, n * WORDS * 4);
    }

    /* jc_bits: pairs of words (float bit patterns among them), 16 results each */
    const uint32_t nb = 200;
    uint32_t *x = harness_alloc(h, nb * 8), *bout = harness_alloc(h, nb * 64);
    for (uint32_t i = 0; i < 2 * nb; i++) x[i] = i * 2654435761u ^ (i >> 3) * 40503u;
    memcpy(&x[0], &vals[7], 4);
    memcpy(&x[3], &vals[5], 4);
    int nbi = (int)nb;
    memset(bout, 0x55, nb * 64);
    void *bargs[] = {&x, &bout, &nbi};
    tier_launch(h, o, "jc_bits", dim(4, 1, 1), dim(64, 1, 1), bargs, NULL);
    tier_keep(o, bout, nb * 64);

    /* jc_cp: 64 threads copy 16 bytes each into shared memory twice (the second with a
     * source size of tid % 16 bytes, the rest zero-filled) and read their neighbour's */
    memset(bout, 0x55, 64 * 32);
    void *cargs[] = {&x, &bout};
    tier_launch(h, o, "jc_cp", dim(1, 1, 1), dim(64, 1, 1), cargs, NULL);
    tier_keep(o, bout, 64 * 32);
    harness_dealloc(h, bout);
    harness_dealloc(h, x);
    harness_dealloc(h, out);
    harness_dealloc(h, b);
    harness_dealloc(h, a);
}

/* every launch runs; the comparisons made what IEEE says of a few pairs */
static void check_ref(const tier_outcome *ref) {
    CHECK_EQ_U64(ref->nkinds, 5);
    for (unsigned k = 0; k < ref->nkinds; k++) CHECK_EQ_U64(ref->kinds[k], EXEC_OK);
    const uint32_t nv = 13;
    /* pair (x = 1.0, y = 0.0) is thread 2: gt ge ne, and their unordered forms, and num */
    const int32_t *t = ref->words + 2 * WORDS;
    CHECK_EQ_U64((uint32_t)t[0], 1u << 1 | 1u << 4 | 1u << 5 | 1u << 7 | 1u << 10 | 1u << 11 |
                                     1u << 12);
    /* (x = NaN, y = 1.0): thread 2 * 13 + 7: every unordered form (ne is ordered), nan */
    t = ref->words + (2 * nv + 7) * WORDS;
    CHECK_EQ_U64((uint32_t)t[0], 0x3fu << 6 | 1u << 13);
    /* (x = 1e-40, y = -1e-40), thread 9 * 13 + 8: lt..; .ftz: both zero, equal */
    t = ref->words + (9 * nv + 8) * WORDS;
    CHECK_EQ_U64((uint32_t)t[0] & 1u, 0u);
    CHECK_EQ_U64((uint32_t)t[1] & 1u, 1u);
    /* jc_cp's thread 0: thread 1's 16 bytes (words 4..7 of x), then its first byte alone */
    const int32_t *c = ref->words + ref->n - 64 * 8;
    uint32_t w4 = 4u * 2654435761u ^ 0u * 40503u, w5 = 5u * 2654435761u;
    CHECK_EQ_U64((uint32_t)c[0], w4);
    CHECK_EQ_U64((uint32_t)c[1], w5);
    CHECK_EQ_U64((uint32_t)c[4], w4 & 0xffu);
    CHECK_EQ_U64((uint32_t)c[5], 0u);
}

int main(void) {
    return tier_compare_main("test_jit_compare", "jit_compare.ptx", run_all, check_ref);
}
