/* test_exec_contract — float mul and add/sub contracted into fma as ptxas does it
 * (exec/contract.c). Each kernel of tests/ptx/exec/contract.ptx (made by contract_gen.py)
 * runs over 64 input vectors; its outputs must equal, bit for bit, what the SASS that
 * ptxas -arch=sm_90 (CUDA 13.0) made of it computes: contract_sass.txt lists, per kernel,
 * which pairs became a DFMA/FFMA/HFMA2 and which stayed a mul and an add, and each case
 * below is that SASS written in C. A case that fuses must also differ from the reading
 * with every pair rounded twice on some vector, so that the test can fail. The same kernels
 * in a debug module (nvcc -G) must not fuse at all.
 */
#include <fenv.h>
#include <math.h>

#include "exec_harness.h"
#include "exec/alu_internal.h"

enum { NV = 64 }; /* input vectors, one per thread */

/* Host arithmetic rounded at each step (volatile: no contraction by the compiler). */
static double M(double a, double b) { volatile double r = a * b; return r; }
static double A(double a, double b) { volatile double r = a + b; return r; }
/* a*b + c: one rounding where ptxas fused the pair, two where it did not */
static double FM(bool fused, double a, double b, double c) { return fused ? fma(a, b, c) : A(M(a, b), c); }
static float Mf(float a, float b) { volatile float r = a * b; return r; }
static float Af(float a, float b) { volatile float r = a + b; return r; }
static float FMf(bool fused, float a, float b, float c) { return fused ? fmaf(a, b, c) : Af(Mf(a, b), c); }
static float satf(float x) { return isnan(x) || x <= 0 ? 0.0f : x > 1 ? 1.0f : x; }

/* f16 through double: products and sums of these inputs are exact in double */
static double h2d(uint16_t h) { return alu_fmt_to_double(h, &alu_fmt_f16); }
static uint16_t d2h(double x) { return (uint16_t)alu_double_to_fmt(x, EXEC_RND_RN, &alu_fmt_f16, false); }
static uint16_t FMh(bool fused, uint16_t a, uint16_t b, uint16_t c) {
    double p = h2d(a) * h2d(b);
    return fused ? d2h(p + h2d(c)) : d2h(h2d(d2h(p)) + h2d(c));
}

#define X(i) x[i]
#define F(a, b, c) FM(f, a, b, c)
#define M01 M(x[0], x[1])
#define M23 M(x[2], x[3])

typedef void (*case64)(const double *x, double *r, bool f, unsigned tid);
typedef void (*case32)(const float *x, float *r, bool f, unsigned tid);
typedef void (*case16)(const uint16_t *x, uint16_t *r, bool f, unsigned tid);

/* ---- f64: each function is the SASS of its kernel (contract_sass.txt) ---- */
#define C64(name, ...) static void c_##name(const double *x, double *r, bool f, unsigned tid) { (void)f; (void)tid; __VA_ARGS__; }
C64(mul_add, r[0] = F(X(0), X(1), X(2)))
C64(add_mul_second, r[0] = F(X(0), X(1), X(2)))
C64(sub_prod_first, r[0] = F(X(0), X(1), -X(2)))
C64(sub_prod_second, r[0] = F(-X(0), X(1), X(2)))
C64(sq_diff, r[0] = F(X(0), X(0), -M(X(1), X(1))))
C64(complex_mul, r[0] = F(X(0), X(2), -M(X(1), X(3))); r[1] = F(X(0), X(3), M(X(1), X(2))))
C64(first_stored, r[0] = F(-X(2), X(3), M01); r[1] = M01)
C64(use_add_store, r[0] = A(M01, X(2)); r[1] = M01)
C64(use_add_mul, r[0] = A(M01, X(2)); r[1] = M(M01, X(3)))
C64(use_add_fma, r[0] = A(M01, X(2)); r[1] = fma(X(3), X(4), M01))
C64(use_add_setp, r[0] = A(M01, X(2)); r[1] = M01 > X(3) ? X(4) : X(5))
C64(two_adds, r[0] = F(X(0), X(1), X(2)); r[1] = F(-X(0), X(1), X(3)))
C64(prod_plus_self, r[0] = A(M01, M01))
C64(self_via_mov, r[0] = A(M01, M01))
C64(mul_rn, r[0] = A(M01, X(2)))
C64(add_rn, r[0] = A(M01, X(2)))
C64(sub_rz, {
    volatile double p = M01, c = X(2), d;
    fesetround(FE_TOWARDZERO);
    d = p - c;
    fesetround(FE_TONEAREST);
    r[0] = d;
})
C64(neg_prod, r[0] = F(-X(0), X(1), X(2)))
C64(neg_prod_sub, r[0] = F(-X(0), X(1), -X(2)))
C64(neg_stored, r[0] = A(-M01, X(2)); r[1] = -M01)
C64(neg_and_plain, r[0] = F(-X(0), X(1), X(2)); r[1] = F(X(0), X(1), X(3)))
C64(abs_prod, r[0] = A(fabs(M01), X(2)))
C64(via_mov, r[0] = F(X(0), X(1), X(2)))
C64(chain, r[0] = F(F(X(0), X(1), X(2)), X(3), X(4)))
C64(mul_of_prod, r[0] = F(M01, X(2), X(3)))
C64(imm_factor, r[0] = F(X(0), 0.1, X(2)))
C64(imm_addend, r[0] = F(-X(0), X(1), 1.0))
C64(single_wins, r[1] = A(M01, X(4)); r[0] = F(X(2), X(3), M01))
C64(single_wins_second, r[1] = A(M23, X(4)); r[0] = F(X(0), X(1), M23))
C64(tie_first, r[1] = F(X(0), X(1), X(4)); r[0] = F(X(0), X(1), M23); r[2] = A(M23, X(5)))
C64(tie_first_late, r[2] = F(X(2), X(3), X(5)); r[0] = F(X(0), X(1), M23); r[1] = F(X(0), X(1), X(4)))
C64(fewer_uses, r[0] = F(X(2), X(3), M01); r[1] = A(M01, X(4)); r[2] = A(M01, X(5));
    r[3] = F(X(2), X(3), X(6)))
C64(fewer_uses_late, r[1] = F(X(0), X(1), X(4)); r[0] = F(X(2), X(3), M01); r[2] = A(M01, X(5));
    r[3] = F(X(2), X(3), X(6)))
C64(ring, r[0] = F(X(0), X(1), M23); r[1] = F(X(4), X(5), M23); r[2] = F(X(4), X(5), M01))
C64(three_way, r[0] = F(X(0), X(1), M23); r[1] = F(X(4), X(5), M23); r[2] = F(X(4), X(5), X(6)))
C64(neg_counts, r[1] = A(-M01, X(4)); r[0] = F(X(2), X(3), M01))
C64(other_block, r[0] = X(3) > X(4) ? 0.0 : A(M01, X(2)))
C64(this_and_other_block, r[0] = A(M01, X(2)); r[1] = X(3) > X(4) ? 0.0 : A(M01, X(5)))
C64(loop, {
    double t = X(2);
    for (unsigned i = 0; i < (tid & 3) + 1; i++) t = A(M01, t);
    r[0] = t;
})
C64(label_between, r[0] = A(M01, X(2)))
C64(guarded_add, r[0] = X(3) > X(4) ? F(X(0), X(1), X(2)) : X(5))
C64(guarded_mul, r[0] = A(X(3) > X(4) ? M01 : X(5), X(2)))
C64(bar_between, r[0] = F(X(0), X(1), X(2)))
C64(call_between, r[0] = A(M01, X(2)))
C64(product_rewritten, r[0] = F(X(0), X(1), X(2)); r[1] = F(X(3), X(4), X(5)))

/* ---- f32 ---- */
#define G(a, b, c) FMf(f, a, b, c)
#define C32(name, ...) static void c32_##name(const float *x, float *r, bool f, unsigned tid) { (void)f; (void)tid; __VA_ARGS__; }
C32(mul_add, r[0] = G(X(0), X(1), X(2)))
C32(sub_prod_second, r[0] = G(-X(0), X(1), X(2)))
C32(sq_diff, r[0] = G(X(0), X(0), -Mf(X(1), X(1))))
C32(fewer_uses_late, r[1] = G(X(0), X(1), X(4)); r[0] = G(X(2), X(3), Mf(X(0), X(1)));
    r[2] = Af(Mf(X(0), X(1)), X(5)); r[3] = G(X(2), X(3), X(6)))
C32(ftz_both, r[0] = G(X(0), X(1), X(2)))
C32(ftz_mul_only, r[0] = Af(Mf(X(0), X(1)), X(2)))
C32(ftz_add_only, r[0] = Af(Mf(X(0), X(1)), X(2)))
C32(ftz_pick, r[0] = G(-X(0), X(1), Mf(X(2), X(3))))
C32(ftz_neg, r[0] = G(-X(0), X(1), X(2)))
C32(sat_add, r[0] = satf(G(X(0), X(1), X(2))))
C32(sat_mul, r[0] = Af(satf(Mf(X(0), X(1))), X(2)))

/* ---- f16 ---- */
static void c16_mul_add(const uint16_t *x, uint16_t *r, bool f, unsigned tid) {
    (void)tid;
    r[0] = FMh(f, x[0], x[1], x[2]);
}
static void c16_sub_prod_second(const uint16_t *x, uint16_t *r, bool f, unsigned tid) {
    (void)tid;
    r[0] = FMh(f, (uint16_t)(x[0] ^ 0x8000u), x[1], x[2]);
}

typedef struct tcase {
    const char *kernel;
    unsigned size;   /* element bytes */
    void *fn;        /* case64, case32 or case16 */
    bool fuses;      /* some pair is fused: the result must differ from the unfused reading */
} tcase;

#define T64(n, fu) {#n "_f64", 8, (void *)c_##n, fu}
#define T32(n, fu) {#n "_f32", 4, (void *)c32_##n, fu}
#define T16(n, fu) {#n "_f16", 2, (void *)c16_##n, fu}
static const tcase cases[] = {
    T64(mul_add, true), T64(add_mul_second, true), T64(sub_prod_first, true),
    T64(sub_prod_second, true), T64(sq_diff, true), T64(complex_mul, true),
    T64(first_stored, true), T64(use_add_store, false), T64(use_add_mul, false),
    T64(use_add_fma, false), T64(use_add_setp, false), T64(two_adds, true),
    T64(prod_plus_self, false), T64(self_via_mov, false), T64(mul_rn, false),
    T64(add_rn, false), T64(sub_rz, false), T64(neg_prod, true), T64(neg_prod_sub, true),
    T64(neg_stored, false), T64(neg_and_plain, true), T64(abs_prod, false), T64(via_mov, true),
    T64(chain, true), T64(mul_of_prod, true), T64(imm_factor, true), T64(imm_addend, true),
    T64(single_wins, true), T64(single_wins_second, true), T64(tie_first, true),
    T64(tie_first_late, true), T64(fewer_uses, true), T64(fewer_uses_late, true),
    T64(ring, true), T64(three_way, true), T64(neg_counts, true), T64(other_block, false),
    T64(this_and_other_block, false), T64(loop, false), T64(label_between, false),
    T64(guarded_add, true), T64(guarded_mul, false), T64(bar_between, true),
    T64(call_between, false), T64(product_rewritten, true),
    T32(mul_add, true), T32(sub_prod_second, true), T32(sq_diff, true),
    T32(fewer_uses_late, true), T32(ftz_both, true), T32(ftz_mul_only, false),
    T32(ftz_add_only, false), T32(ftz_pick, true), T32(ftz_neg, true), T32(sat_add, true),
    T32(sat_mul, false),
    T16(mul_add, true), T16(sub_prod_second, true),
};

/* Inputs: x_i in [1, 2) with every fraction bit random, x2 and x5 negative (so that sums
 * cancel and a product's lost bits show). */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void fill(void *in, unsigned size) {
    for (unsigned v = 0; v < NV; v++)
        for (unsigned i = 0; i < 8; i++) {
            bool neg = i == 2 || i == 5;
            uint64_t r = next();
            if (size == 8) {
                uint64_t b = 0x3ff0000000000000ull | (r >> 12) | (neg ? 1ull << 63 : 0);
                memcpy((char *)in + (v * 8 + i) * 8, &b, 8);
            } else if (size == 4) {
                uint32_t b = 0x3f800000u | (uint32_t)(r >> 41) | (neg ? 1u << 31 : 0);
                memcpy((char *)in + (v * 8 + i) * 4, &b, 4);
            } else {
                uint16_t b = (uint16_t)(0x3c00u | (uint16_t)(r >> 54) | (neg ? 0x8000u : 0));
                memcpy((char *)in + (v * 8 + i) * 2, &b, 2);
            }
        }
}

static void expect(const tcase *c, const void *in, unsigned v, bool fused, void *r) {
    memset(r, 0, 4 * c->size);
    const char *x = (const char *)in + v * 8 * c->size;
    if (c->size == 8) ((case64)c->fn)((const double *)x, r, fused, v);
    else if (c->size == 4) ((case32)c->fn)((const float *)x, r, fused, v);
    else ((case16)c->fn)((const uint16_t *)x, r, fused, v);
}

static void run_case(harness *h, const tcase *c) {
    void *in = harness_alloc(h, NV * 8 * c->size);
    void *out = harness_alloc(h, NV * 4 * c->size);
    fill(in, c->size);
    void *args[] = {&in, &out};
    harness_run r = harness_launch(h, c->kernel, dim(1, 1, 1), dim(NV, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s: %s\n", c->kernel, r.fault.msg);
    bool differs = false;
    unsigned bad = 0;
    for (unsigned v = 0; v < NV; v++) {
        uint8_t want[32], plain[32];
        expect(c, in, v, true, want);
        expect(c, in, v, false, plain);
        const uint8_t *got = (const uint8_t *)out + v * 4 * c->size;
        differs |= memcmp(want, plain, 4 * c->size) != 0;
        if (memcmp(got, want, 4 * c->size) != 0 && bad++ < 3) {
            fprintf(stderr, "%s vector %u:", c->kernel, v);
            for (unsigned k = 0; k < 4; k++) {
                uint64_t g = 0, w = 0;
                memcpy(&g, got + k * c->size, c->size);
                memcpy(&w, want + k * c->size, c->size);
                fprintf(stderr, " r%u %#llx (want %#llx)", k, (unsigned long long)g,
                        (unsigned long long)w);
            }
            fprintf(stderr, "\n");
        }
    }
    CHECK_EQ_U64(bad, 0);
    if (c->fuses && !differs)
        fprintf(stderr, "%s: no input tells fused from unfused\n", c->kernel);
    CHECK(differs == c->fuses);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

/* The same file as a debug module (".target sm_90, debug", what nvcc -G writes): ptxas
 * assembles those at -O0, which fuses nothing, so every case reads unfused. */
static void run_debug_module(void) {
    char path[512];
    snprintf(path, sizeof path, "%s/ptx/exec/contract.ptx", VCUDA_TEST_DIR);
    char *text = test_read_file(path, NULL);
    CHECK(text != NULL);
    if (!text) return;
    char *t = strstr(text, ".target sm_90");
    CHECK(t != NULL);
    size_t n = strlen(text);
    char *dbg = malloc(n + 16);
    size_t at = (size_t)(t - text) + strlen(".target sm_90");
    memcpy(dbg, text, at);
    memcpy(dbg + at, ", debug", 7);
    memcpy(dbg + at + 7, text + at, n - at + 1);
    harness h = {0};
    CHECK(harness_load(&h, dbg));
    for (size_t i = 0; h.prog && i < sizeof cases / sizeof cases[0]; i++) {
        tcase c = cases[i];
        if (!c.fuses) continue;
        /* expected: the unfused reading, which differs from the fused one on some vector */
        void *in = harness_alloc(&h, NV * 8 * c.size);
        void *out = harness_alloc(&h, NV * 4 * c.size);
        rng = 0x9e3779b97f4a7c15ull;
        fill(in, c.size);
        void *args[] = {&in, &out};
        harness_run r = harness_launch(&h, c.kernel, dim(1, 1, 1), dim(NV, 1, 1), 0, args);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        unsigned bad = 0;
        for (unsigned v = 0; v < NV; v++) {
            uint8_t plain[32];
            expect(&c, in, v, false, plain);
            bad += memcmp((const uint8_t *)out + v * 4 * c.size, plain, 4 * c.size) != 0;
        }
        if (bad) fprintf(stderr, "debug module, %s: %u vectors fused\n", c.kernel, bad);
        CHECK_EQ_U64(bad, 0);
        harness_dealloc(&h, in);
        harness_dealloc(&h, out);
    }
    harness_free(&h);
    free(dbg);
    free(text);
}

int main(void) {
    harness h = {0};
    if (!harness_load_file(&h, "exec/contract.ptx")) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&h, &cases[i]);
    /* every kernel of the file has its case */
    CHECK_EQ_U64(sizeof cases / sizeof cases[0], 58);
    harness_free(&h);
    run_debug_module();
    return harness_report("test_exec_contract");
}
