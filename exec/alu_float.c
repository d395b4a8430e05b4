/* exec/alu_float.c — f32/f64 arithmetic: add sub mul fma mad div rcp sqrt rsqrt, the
 * .approx functions sin cos lg2 ex2 tanh, min max abs neg copysign.
 *
 * Round-to-nearest (the default and the hot path) is the host's own IEEE arithmetic, with
 * .ftz/.sat variants generated as separate handlers so the lane loop has no flag tests.
 * Directed roundings (.rz .rm .rp) go to out-of-line slow paths (alu_float_round.c).
 * NaN results become the canonical NaN NVIDIA GPUs produce.
 *
 * .approx functions (rcp sqrt rsqrt ex2 lg2 sin cos tanh .f32, div.approx and div.full)
 * are the H100's special function unit bit for bit, with the scaling sm_90 code puts
 * around it (alu_sfu.c says how the unit computes and how that was measured).
 */
#include <math.h>
#include "alu_internal.h"
#include "alu_sfu.h"

/* ---- generators ----
 * FTZ and SAT are 0/1 constants: the unused branches disappear. */
#define F32_OP(name, FTZ, SAT, NSRC, expr) F32_OP_A(, name, FTZ, SAT, NSRC, expr)
#define F32_OP_A(ATTR, name, FTZ, SAT, NSRC, expr)                                      \
    ATTR ALU_HANDLER(name) {                                                            \
        uint64_t *D = ALU_D(0);                                                         \
        const uint64_t *A = ALU_A(0);                                                   \
        const uint64_t *B = NSRC > 1 ? ALU_A(1) : A, *C = NSRC > 2 ? ALU_A(2) : A;      \
        ALU_LANES(mask, l, {                                                            \
            float a = alu_f32(A[l]), b = alu_f32(B[l]), c = alu_f32(C[l]);              \
            if (FTZ) { a = alu_ftz32(a); b = alu_ftz32(b); c = alu_ftz32(c); }          \
            float r = (expr);                                                           \
            if (SAT) r = alu_sat32(r);                                                  \
            if (FTZ) r = alu_ftz32(r);                                                  \
            D[l] = alu_f32_out(r);                                                      \
            (void)b; (void)c;                                                           \
        });                                                                             \
    }
#define F64_OP(name, NSRC, expr) F64_OP_A(, name, NSRC, expr)
/* f64: the full-mask path computes all lanes into a buffer with plain IEEE arithmetic
 * (which vectorises), then gives any NaN result the propagation rule of alu_f64_prop in a
 * second, scalar pass; the buffer keeps the sources intact for that pass when d is also a
 * source. */
#define F64_OP_A(ATTR, name, NSRC, expr)                                                \
    ATTR ALU_HANDLER(name) {                                                            \
        uint64_t *D = ALU_D(0);                                                         \
        const uint64_t *A = ALU_A(0);                                                   \
        const uint64_t *B = NSRC > 1 ? ALU_A(1) : A, *C = NSRC > 2 ? ALU_A(2) : A;      \
        if (mask == EXEC_FULL_MASK) {                                                   \
            uint64_t r[EXEC_WARP_SIZE];                                                 \
            for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++) {                             \
                double a = alu_f64(A[l]), b = alu_f64(B[l]), c = alu_f64(C[l]);         \
                r[l] = alu_f64_bits(expr);                                              \
                (void)b; (void)c;                                                       \
            }                                                                           \
            for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++)                               \
                if (__builtin_expect(alu_f64_isnan_bits(r[l]), 0))                      \
                    r[l] = alu_f64_prop(NSRC, alu_f64(A[l]), alu_f64(B[l]),             \
                                        alu_f64(C[l]), alu_f64(r[l]));                  \
            memcpy(D, r, sizeof r);                                                     \
            return;                                                                     \
        }                                                                               \
        for (uint32_t m_ = mask; m_; m_ &= m_ - 1) {                                    \
            const uint32_t l = (uint32_t)__builtin_ctz(m_);                             \
            double a = alu_f64(A[l]), b = alu_f64(B[l]), c = alu_f64(C[l]);             \
            D[l] = alu_f64_prop(NSRC, a, b, c, (expr));                                 \
            (void)b; (void)c;                                                           \
        }                                                                               \
    }
/* The four f32 variants of an operation: plain, .ftz, .sat, .ftz.sat. */
#define F32_VARIANTS(op, NSRC, expr)                                                    \
    F32_OP(alu_##op##_f32, 0, 0, NSRC, expr)                                            \
    F32_OP(alu_##op##_f32_ftz, 1, 0, NSRC, expr)                                        \
    F32_OP(alu_##op##_f32_sat, 0, 1, NSRC, expr)                                        \
    F32_OP(alu_##op##_f32_ftz_sat, 1, 1, NSRC, expr)                                    \
    static const exec_fn alu_##op##_f32_tab[4] = {                                      \
        alu_##op##_f32, alu_##op##_f32_ftz, alu_##op##_f32_sat, alu_##op##_f32_ftz_sat };

/* ---- IEEE operations (round to nearest) ---- */
F32_VARIANTS(add, 2, a + b)
F32_VARIANTS(sub, 2, a - b)
F32_VARIANTS(mul, 2, a * b)
F32_VARIANTS(fma, 3, fmaf(a, b, c))
F32_VARIANTS(div, 2, a / b)
F32_VARIANTS(sqrt, 1, sqrtf(a))
F32_VARIANTS(rcp, 1, 1.0f / a)
F64_OP(alu_add_f64, 2, a + b)
F64_OP(alu_sub_f64, 2, a - b)
F64_OP(alu_mul_f64, 2, a * b)
F64_OP(alu_fma_f64, 3, fma(a, b, c))
F64_OP(alu_div_f64, 2, a / b)
F64_OP(alu_sqrt_f64, 1, sqrt(a))
F64_OP(alu_rcp_f64, 1, 1.0 / a)

/* With FMA hardware (checked at decode time) the fma handlers are compiled for it: the
 * lane loop becomes vector fused multiply-adds instead of a libm call per lane. */
#if defined(__x86_64__) || defined(__i386__)
#define ALU_HAVE_FMA_CLONES 1
#define ALU_FMA_ATTR __attribute__((target("fma")))
F32_OP_A(ALU_FMA_ATTR, alu_fma_f32_hw, 0, 0, 3, fmaf(a, b, c))
F32_OP_A(ALU_FMA_ATTR, alu_fma_f32_ftz_hw, 1, 0, 3, fmaf(a, b, c))
F32_OP_A(ALU_FMA_ATTR, alu_fma_f32_sat_hw, 0, 1, 3, fmaf(a, b, c))
F32_OP_A(ALU_FMA_ATTR, alu_fma_f32_ftz_sat_hw, 1, 1, 3, fmaf(a, b, c))
F64_OP_A(ALU_FMA_ATTR, alu_fma_f64_hw, 3, fma(a, b, c))
static const exec_fn alu_fma_f32_hw_tab[4] = { alu_fma_f32_hw, alu_fma_f32_ftz_hw,
                                               alu_fma_f32_sat_hw, alu_fma_f32_ftz_sat_hw };
static bool alu_cpu_has_fma(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma");
}
#else
#define ALU_HAVE_FMA_CLONES 0
#endif

/* ---- directed rounding: out of line ---- */
#define ALU_DIRECTED(op, OPC)                                                           \
    ALU_HANDLER(alu_##op##_f32_dir) { alu_f32_directed(w, in, mask, OPC); }             \
    ALU_HANDLER(alu_##op##_f64_dir) { alu_f64_directed(w, in, mask, OPC); }
ALU_DIRECTED(add, ALU_FOP_ADD)
ALU_DIRECTED(sub, ALU_FOP_SUB)
ALU_DIRECTED(mul, ALU_FOP_MUL)
ALU_DIRECTED(fma, ALU_FOP_FMA)
ALU_DIRECTED(div, ALU_FOP_DIV)
ALU_DIRECTED(sqrt, ALU_FOP_SQRT)
ALU_DIRECTED(rcp, ALU_FOP_RCP)

/* ---- approximations: the special function unit (alu_sfu.c) ---- */
/* One f32 result per lane from the operands' bits; expr sees x (and y, the second of
 * NSRC = 2). */
#define ALU_SFU_OP(name, NSRC, expr)                                                    \
    ALU_HANDLER(name) {                                                                 \
        uint64_t *D = ALU_D(0);                                                         \
        const uint64_t *A = ALU_A(0), *B = NSRC > 1 ? ALU_A(1) : A;                     \
        ALU_LANES(mask, l, {                                                            \
            const uint32_t x = (uint32_t)A[l], y = (uint32_t)B[l];                      \
            D[l] = (expr);                                                              \
            (void)y;                                                                    \
        });                                                                             \
    }
#define ALU_SFU_PAIR(op, fn)                                                            \
    ALU_SFU_OP(alu_##op##_approx_f32, 1, fn(x, false))                                  \
    ALU_SFU_OP(alu_##op##_approx_f32_ftz, 1, fn(x, true))
ALU_SFU_PAIR(rcp, alu_sfu_ptx_rcp)
ALU_SFU_PAIR(sqrt, alu_sfu_ptx_sqrt)
ALU_SFU_PAIR(rsqrt, alu_sfu_ptx_rsqrt)
ALU_SFU_PAIR(ex2, alu_sfu_ptx_ex2)
ALU_SFU_PAIR(lg2, alu_sfu_ptx_lg2)
/* sin and cos: the .ftz and plain forms are the same code on sm_90 */
ALU_SFU_OP(alu_sin_approx_f32, 1, alu_sfu_ptx_sin(x, false))
ALU_SFU_OP(alu_cos_approx_f32, 1, alu_sfu_ptx_sin(x, true))
ALU_SFU_OP(alu_tanh_approx_f32, 1, alu_sfu_tanh(x))
ALU_SFU_OP(alu_div_approx_f32, 2, alu_sfu_ptx_div(x, y, false, false))
ALU_SFU_OP(alu_div_approx_f32_ftz, 2, alu_sfu_ptx_div(x, y, false, true))
ALU_SFU_OP(alu_div_full_f32, 2, alu_sfu_ptx_div(x, y, true, false))
ALU_SFU_OP(alu_div_full_f32_ftz, 2, alu_sfu_ptx_div(x, y, true, true))

/* rsqrt.approx.f64: the H100 returns 1/sqrt(a) correctly rounded (every recorded case:
 * tests/ptx/alu and tests/cuda/conformance/double_math), which 1.0 / sqrt(a) in double
 * misses by an ulp now and then. With a = m * 4^k, m in [1, 4), the result is
 * rsqrt(m) * 2^-k (always normal, so the scaling is exact); rsqrt(m) in (1/2, 1] is
 * estimated in long double and then settled between neighbouring doubles by exact
 * integer comparisons of the midpoints against 1/sqrt(m). */

/* Is 1/sqrt(m) above mid? mid is a midpoint between doubles in [1/2, 1] (a multiple of
 * 2^-55, so mid * 2^56 = T is an integer below 2^57) and m = M * 2^-52. Then
 * 1/sqrt(m) > mid  <=>  T^2 * M < 2^164, evaluated exactly in 192 bits. Equality cannot
 * occur: T is twice an odd number above 1, so T^2 * M is no power of two. */
static bool alu_rsqrt_above(long double mid, uint64_t M) {
    uint64_t T = (uint64_t)(mid * 0x1p56L);
    unsigned __int128 t2 = (unsigned __int128)T * T;               /* < 2^114 */
    unsigned __int128 lo = (unsigned __int128)(uint64_t)t2 * M;     /* < 2^118 */
    unsigned __int128 hi = (unsigned __int128)(uint64_t)(t2 >> 64) * M + (uint64_t)(lo >> 64);
    return hi < ((unsigned __int128)1 << 100);                      /* T^2 M = hi 2^64 + ... */
}

static double alu_rsqrt_rn64(double a) {
    if (!(a > 0.0) || isinf(a)) return 1.0 / sqrt(a); /* ±0, negative, +inf, NaN */
    int e;
    double m = 2.0 * frexp(a, &e);                      /* a = m * 2^(e-1), m in [1, 2) */
    e -= 1;
    if (e & 1) { m *= 2.0; e -= 1; }                    /* m in [1, 4), e even */
    uint64_t M = (uint64_t)ldexp(m, 52);
    double y = (double)(1.0L / sqrtl((long double)m));   /* within an ulp of the answer */
    for (;;) {
        double up = nextafter(y, 2.0), down = nextafter(y, 0.0);
        if (y < 1.0 && alu_rsqrt_above(((long double)y + up) / 2, M)) y = up;
        else if (y > 0.5 && !alu_rsqrt_above(((long double)y + down) / 2, M)) y = down;
        else break;
    }
    return ldexp(y, -e / 2);
}
F64_OP(alu_rsqrt_f64, 1, alu_rsqrt_rn64(a))

/* rcp/rsqrt.approx.ftz.f64: computed from the upper 32 bits of a (1.11.20 format); the
 * result's low 32 bits are zero; subnormals flush to zero; NaN -> 0x7fffffff00000000. */
static inline uint64_t alu_gross_f64(uint64_t a, bool rsqrt) {
    uint64_t hi = a & 0xffffffff00000000ull;
    if ((hi & 0x7ff0000000000000ull) == 0) hi &= 0x8000000000000000ull; /* ftz input */
    double x = alu_f64(hi);
    if (x != x) return 0x7fffffff00000000ull;
    double r = rsqrt ? (x < 0 ? NAN : 1.0 / sqrt(x)) : 1.0 / x;
    uint64_t rb = alu_f64_bits(r);
    if (r != r) return 0x7fffffff00000000ull;
    if ((rb & 0x7ff0000000000000ull) == 0) rb &= 0x8000000000000000ull; /* ftz result */
    return rb & 0xffffffff00000000ull;
}
ALU_HANDLER(alu_rcp_approx_ftz_f64) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { D[l] = alu_gross_f64(A[l], false); });
}
ALU_HANDLER(alu_rsqrt_approx_ftz_f64) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { D[l] = alu_gross_f64(A[l], true); });
}

/* ---- min, max ----
 * Without .NaN a NaN operand is ignored (NaN only when both are); -0 < +0. The f32 forms
 * compare order-preserving integer keys of the bits, so the lane loop vectorises. */
static inline int32_t alu_fkey32(uint32_t b) {
    return (int32_t)((b >> 31) ? ~b : b | 0x80000000u) ^ INT32_MIN;
}
static inline float alu_fmin32(float a, float b) {
    uint32_t x, y; memcpy(&x, &a, 4); memcpy(&y, &b, 4);
    const bool xn = (x & 0x7fffffffu) > 0x7f800000u, yn = (y & 0x7fffffffu) > 0x7f800000u;
    uint32_t r = alu_fkey32(x) < alu_fkey32(y) ? x : y;
    r = xn ? y : yn ? x : r;
    float f; memcpy(&f, &r, 4); return f;
}
static inline float alu_fmax32(float a, float b) {
    uint32_t x, y; memcpy(&x, &a, 4); memcpy(&y, &b, 4);
    const bool xn = (x & 0x7fffffffu) > 0x7f800000u, yn = (y & 0x7fffffffu) > 0x7f800000u;
    uint32_t r = alu_fkey32(x) > alu_fkey32(y) ? x : y;
    r = xn ? y : yn ? x : r;
    float f; memcpy(&f, &r, 4); return f;
}
static inline double alu_fmin64(double a, double b) {
    if (a != a) return b;
    if (b != b) return a;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline double alu_fmax64(double a, double b) {
    if (a != a) return b;
    if (b != b) return a;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}
#define ALU_NANPROP(f, a, b) (((a) != (a) || (b) != (b)) ? NAN : f(a, b))
F32_OP(alu_min_f32, 0, 0, 2, alu_fmin32(a, b))
F32_OP(alu_min_f32_ftz, 1, 0, 2, alu_fmin32(a, b))
F32_OP(alu_max_f32, 0, 0, 2, alu_fmax32(a, b))
F32_OP(alu_max_f32_ftz, 1, 0, 2, alu_fmax32(a, b))
F32_OP(alu_min_nan_f32, 0, 0, 2, ALU_NANPROP(alu_fmin32, a, b))
F32_OP(alu_min_nan_f32_ftz, 1, 0, 2, ALU_NANPROP(alu_fmin32, a, b))
F32_OP(alu_max_nan_f32, 0, 0, 2, ALU_NANPROP(alu_fmax32, a, b))
F32_OP(alu_max_nan_f32_ftz, 1, 0, 2, ALU_NANPROP(alu_fmax32, a, b))
ALU_HANDLER(alu_min_f64) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);
    ALU_LANES(mask, l, { D[l] = alu_f64_out(alu_fmin64(alu_f64(A[l]), alu_f64(B[l]))); });
}
ALU_HANDLER(alu_max_f64) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);
    ALU_LANES(mask, l, { D[l] = alu_f64_out(alu_fmax64(alu_f64(A[l]), alu_f64(B[l]))); });
}

/* .xorsign.abs: min/max of |a|, |b| with the sign a^b (a NaN result keeps no sign rule).
 * Rare, so one handler reads .ftz/.NaN at run time. */
#define ALU_XORSIGN(name, F)                                                            \
    ALU_HANDLER(name) {                                                                 \
        uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);            \
        const bool ftz = in->flags & EXEC_F_FTZ, nanmode = in->flags & ALU_F_NANMODE;   \
        ALU_LANES(mask, l, {                                                            \
            float a = alu_f32(A[l]), b = alu_f32(B[l]);                                 \
            if (ftz) { a = alu_ftz32(a); b = alu_ftz32(b); }                            \
            uint32_t s = ((uint32_t)A[l] ^ (uint32_t)B[l]) & 0x80000000u;               \
            float r = nanmode ? ALU_NANPROP(F, fabsf(a), fabsf(b)) : F(fabsf(a), fabsf(b));\
            if (ftz) r = alu_ftz32(r);                                                  \
            uint64_t bits = alu_f32_out(r);                                             \
            D[l] = r != r ? bits : (bits & 0x7fffffffu) | s;                            \
        });                                                                             \
    }
ALU_XORSIGN(alu_min_xorsign_f32, alu_fmin32)
ALU_XORSIGN(alu_max_xorsign_f32, alu_fmax32)

/* ---- sign manipulation: bit operations on numbers; a NaN gives the canonical NaN (f32)
 * or itself, quieted, sign unchanged (f64), as on the H100 ---- */
static inline uint32_t alu_ftz32_bits(uint32_t b) {
    return (b & 0x7f800000u) == 0 ? b & 0x80000000u : b;
}
static inline uint64_t alu_sign32(uint32_t b, uint32_t and_mask, uint32_t xor_mask) {
    return (b & 0x7fffffffu) > 0x7f800000u ? ALU_F32_CANON_NAN : (b & and_mask) ^ xor_mask;
}
static inline uint64_t alu_sign64(uint64_t b, uint64_t and_mask, uint64_t xor_mask) {
    return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull ? b | ALU_F64_QUIET
                                                                 : (b & and_mask) ^ xor_mask;
}
ALU_HANDLER(alu_abs_f32) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { D[l] = alu_sign32((uint32_t)A[l], 0x7fffffffu, 0); });
}
ALU_HANDLER(alu_abs_f32_ftz) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { D[l] = alu_sign32(alu_ftz32_bits((uint32_t)A[l]), 0x7fffffffu, 0); });
}
ALU_HANDLER(alu_neg_f32) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { D[l] = alu_sign32((uint32_t)A[l], ~0u, 0x80000000u); });
}
ALU_HANDLER(alu_neg_f32_ftz) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, {
        D[l] = alu_sign32(alu_ftz32_bits((uint32_t)A[l]), ~0u, 0x80000000u);
    });
}
ALU_HANDLER(alu_abs_f64) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { D[l] = alu_sign64(A[l], 0x7fffffffffffffffull, 0); });
}
ALU_HANDLER(alu_neg_f64) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { D[l] = alu_sign64(A[l], ~0ull, 0x8000000000000000ull); });
}
/* copysign d, a, b: b with the sign of a. */
ALU_HANDLER(alu_copysign_f32) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);
    ALU_LANES(mask, l, {
        D[l] = ((uint32_t)B[l] & 0x7fffffffu) | ((uint32_t)A[l] & 0x80000000u);
    });
}
ALU_HANDLER(alu_copysign_f64) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);
    ALU_LANES(mask, l, {
        D[l] = (B[l] & 0x7fffffffffffffffull) | (A[l] & 0x8000000000000000ull);
    });
}

/* ---- lookup ---- */
static bool alu_is_directed(unsigned rnd) {
    return rnd == EXEC_RND_RZ || rnd == EXEC_RND_RM || rnd == EXEC_RND_RP;
}

exec_fn exec_alu_float_lookup(const exec_insn *in) {
    ptx_type t = (ptx_type)in->type;
    if (t != PTX_T_f32 && t != PTX_T_f64) return NULL;
    const bool f64 = t == PTX_T_f64;
    const uint32_t f = in->flags;
    const bool ftz = f & EXEC_F_FTZ, sat = f & EXEC_F_SAT, approx = f & EXEC_F_APPROX;
    const unsigned rnd = ALU_AUX_RND(in->aux), var = ALU_AUX_VAR(in->aux);
    const unsigned v4 = (unsigned)ftz + 2u * sat; /* index into the *_f32_tab tables */
    const bool rn = rnd == EXEC_RND_DEFAULT || rnd == EXEC_RND_RN;
    const bool dir = alu_is_directed(rnd);
    if (!rn && !dir) return NULL;
    if (f & (ALU_F_RELU | ALU_F_SATFINITE | ALU_F_SHIFTAMT)) return NULL;
    /* .ftz/.sat exist for f32 only (and .ftz on the gross f64 approximations) */
    if (f64 && sat) return NULL;

#define ALU_IEEE(op)                                                                    \
    (f64 ? (ftz ? NULL : dir ? alu_##op##_f64_dir : alu_##op##_f64)                      \
         : dir ? alu_##op##_f32_dir : alu_##op##_f32_tab[v4])
    /* fma, mad, and the IEEE forms of div, sqrt, rcp name their rounding (PTX 1.4 on) */
    const bool named = rnd != EXEC_RND_DEFAULT;

    switch (in->op) {
    case PTX_OP_add: return approx ? NULL : ALU_IEEE(add);
    case PTX_OP_sub: return approx ? NULL : ALU_IEEE(sub);
    case PTX_OP_mul: return approx ? NULL : ALU_IEEE(mul);
    case PTX_OP_fma:
    case PTX_OP_mad:
        if (approx || !named) return NULL;
#if ALU_HAVE_FMA_CLONES
        if (!dir && !(f64 && ftz) && alu_cpu_has_fma())
            return f64 ? alu_fma_f64_hw : alu_fma_f32_hw_tab[v4];
#endif
        return ALU_IEEE(fma);
    case PTX_OP_div:
        if (var == ALU_V_APPROX || approx) {
            if (f64 || sat || !rn) return NULL;
            return ftz ? alu_div_approx_f32_ftz : alu_div_approx_f32;
        }
        if (var == ALU_V_FULL) {
            if (f64 || sat || !rn) return NULL;
            return ftz ? alu_div_full_f32_ftz : alu_div_full_f32;
        }
        return named ? ALU_IEEE(div) : NULL;
    case PTX_OP_sqrt:
        if (approx) {
            if (f64 || sat || !rn) return NULL;
            return ftz ? alu_sqrt_approx_f32_ftz : alu_sqrt_approx_f32;
        }
        return named ? ALU_IEEE(sqrt) : NULL;
    case PTX_OP_rcp:
        if (approx) {
            if (f64) return ftz && rn ? alu_rcp_approx_ftz_f64 : NULL;
            if (sat || !rn) return NULL;
            return ftz ? alu_rcp_approx_f32_ftz : alu_rcp_approx_f32;
        }
        return named ? ALU_IEEE(rcp) : NULL;
    case PTX_OP_rsqrt:
        if (!approx || sat || !rn) return NULL;
        if (f64) return ftz ? alu_rsqrt_approx_ftz_f64 : alu_rsqrt_f64;
        return ftz ? alu_rsqrt_approx_f32_ftz : alu_rsqrt_approx_f32;
    case PTX_OP_sin:
    case PTX_OP_cos:
    case PTX_OP_lg2:
    case PTX_OP_ex2:
    case PTX_OP_tanh: {
        if (!approx || f64 || sat || !rn) return NULL;
        switch (in->op) {
        case PTX_OP_sin: return alu_sin_approx_f32;
        case PTX_OP_cos: return alu_cos_approx_f32;
        case PTX_OP_lg2: return ftz ? alu_lg2_approx_f32_ftz : alu_lg2_approx_f32;
        case PTX_OP_ex2: return ftz ? alu_ex2_approx_f32_ftz : alu_ex2_approx_f32;
        default: return alu_tanh_approx_f32;
        }
    }
    case PTX_OP_min:
    case PTX_OP_max: {
        const bool is_min = in->op == PTX_OP_min, nanmode = f & ALU_F_NANMODE;
        if (sat || approx || rnd != EXEC_RND_DEFAULT) return NULL;
        if (f64) return ftz || nanmode || (f & ALU_F_XORSIGN) ? NULL
                      : is_min ? alu_min_f64 : alu_max_f64;
        if (f & ALU_F_XORSIGN) return is_min ? alu_min_xorsign_f32 : alu_max_xorsign_f32;
        if (nanmode) return is_min ? (ftz ? alu_min_nan_f32_ftz : alu_min_nan_f32)
                                   : (ftz ? alu_max_nan_f32_ftz : alu_max_nan_f32);
        return is_min ? (ftz ? alu_min_f32_ftz : alu_min_f32)
                      : (ftz ? alu_max_f32_ftz : alu_max_f32);
    }
    case PTX_OP_abs:
        if (sat || approx || rnd != EXEC_RND_DEFAULT) return NULL;
        return f64 ? (ftz ? NULL : alu_abs_f64) : ftz ? alu_abs_f32_ftz : alu_abs_f32;
    case PTX_OP_neg:
        if (sat || approx || rnd != EXEC_RND_DEFAULT) return NULL;
        return f64 ? (ftz ? NULL : alu_neg_f64) : ftz ? alu_neg_f32_ftz : alu_neg_f32;
    case PTX_OP_copysign:
        if (ftz || sat || approx || rnd != EXEC_RND_DEFAULT) return NULL;
        return f64 ? alu_copysign_f64 : alu_copysign_f32;
    default:
        return NULL;
    }
#undef ALU_IEEE
}
