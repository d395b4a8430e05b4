/* exec/alu_half.c — small floating-point formats: exact rounding of any value into
 * f16, bf16, tf32, e4m3, e5m2 (and f32) in every rounding mode, and the f16/f16x2/bf16/
 * bf16x2 arithmetic: add sub mul fma (.ftz .sat .relu), neg abs min max, ex2 tanh.
 *
 * ex2 and tanh .approx are the special function unit's f32 result (alu_sfu.c) of the
 * widened operand, its fraction truncated to the 16-bit format (an exponent too large
 * gives inf): every f16 and bf16 input compared with an H200 (tests/unit/test_sfu.c).
 *
 * Half-precision arithmetic is exact-then-round: the operands are widened to double,
 * the exact result is formed as a double rounded to odd (which carries enough information
 * to round correctly once more into any format at least two bits narrower), then rounded
 * into the destination format.
 */
#include <math.h>
#include "alu_internal.h"
#include "alu_sfu.h"

/*                            mbits ebits ieee   NaN                     largest finite */
const alu_fmt alu_fmt_f16  = { 10, 5,  true,  0x7fffu,                0x7bffu };
const alu_fmt alu_fmt_bf16 = { 7,  8,  true,  0x7fffu,                0x7f7fu };
const alu_fmt alu_fmt_f32  = { 23, 8,  true,  0x7fffffffu,            0x7f7fffffu };
const alu_fmt alu_fmt_f64  = { 52, 11, true,  0x7fffffffffffffffull,  0x7fefffffffffffffull };
/* tf32 in its own 19-bit layout (cvt shifts it into the upper bits of a b32) */
const alu_fmt alu_fmt_tf32 = { 10, 8,  true,  0x3ffffu,               0x3fbffu };
const alu_fmt alu_fmt_e4m3 = { 3,  4,  false, 0x7fu,                  0x7eu };
const alu_fmt alu_fmt_e5m2 = { 2,  5,  true,  0x7fu,                  0x7bu };

uint64_t alu_round_to_fmt(bool neg, uint64_t mag, int exp, unsigned rnd,
                          const alu_fmt *fmt, bool satfinite) {
    const int mb = fmt->mbits, bias = (1 << (fmt->ebits - 1)) - 1, emin = 1 - bias;
    const uint64_t sign = neg ? 1ull << (mb + fmt->ebits) : 0u;
    if (mag == 0) return sign;
    /* mag * 2^exp lies in [2^e, 2^(e+1)); the result's quantum is 2^q */
    const int e = 63 - __builtin_clzll(mag) + exp;
    const int ee = e > emin ? e : emin;
    const int q = ee - mb, sh = q - exp;
    uint64_t m;
    bool half = false, sticky = false;
    if (sh <= 0) {
        m = mag << -sh;                     /* exact: fits in mb+1 bits */
    } else if (sh < 64) {
        m = mag >> sh;
        half = (mag >> (sh - 1)) & 1u;
        sticky = (mag & ((1ull << (sh - 1)) - 1)) != 0;
    } else if (sh == 64) {
        m = 0;
        half = mag >> 63;
        sticky = (mag << 1) != 0;
    } else {
        m = 0;
        sticky = true;
    }
    bool up;
    switch (rnd) {
    case EXEC_RND_RZ: up = false; break;
    case EXEC_RND_RM: up = neg && (half || sticky); break;
    case EXEC_RND_RP: up = !neg && (half || sticky); break;
    case EXEC_RND_RNA: up = half; break;
    default: up = half && (sticky || (m & 1u)); break;
    }
    m += up;
    /* biased exponent (ee - emin) above the mantissa; m's hidden bit adds the 1 */
    uint64_t bits = ((uint64_t)(ee - emin) << mb) + m;
    if (bits > fmt->maxfin) {
        if (satfinite) return sign | fmt->maxfin;
        if (!fmt->ieee_special) return fmt->nan;
        const uint64_t inf = ((1ull << fmt->ebits) - 1u) << mb;
        bool to_inf;
        switch (rnd) {
        case EXEC_RND_RZ: to_inf = false; break;
        case EXEC_RND_RM: to_inf = neg; break;
        case EXEC_RND_RP: to_inf = !neg; break;
        default: to_inf = true; break;
        }
        return sign | (to_inf ? inf : fmt->maxfin);
    }
    return sign | bits;
}

uint64_t alu_double_to_fmt(double x, unsigned rnd, const alu_fmt *fmt, bool satfinite) {
    uint64_t b = alu_f64_bits(x);
    const bool neg = b >> 63;
    const unsigned ef = (unsigned)(b >> 52) & 0x7ffu;
    const uint64_t frac = b & 0xfffffffffffffull;
    if (ef == 0x7ffu) {
        if (frac) return fmt->nan;
        const uint64_t sign = neg ? 1ull << (fmt->mbits + fmt->ebits) : 0u;
        if (satfinite || !fmt->ieee_special) return satfinite ? sign | fmt->maxfin : fmt->nan;
        return sign | (((1ull << fmt->ebits) - 1u) << fmt->mbits);
    }
    if (ef == 0) return alu_round_to_fmt(neg, frac, -1074, rnd, fmt, satfinite);
    return alu_round_to_fmt(neg, frac | (1ull << 52), (int)ef - 1075, rnd, fmt, satfinite);
}

double alu_fmt_to_double(uint64_t bits, const alu_fmt *fmt) {
    const int mb = fmt->mbits, bias = (1 << (fmt->ebits - 1)) - 1;
    const uint64_t emask = (1ull << fmt->ebits) - 1u;
    const bool neg = (bits >> (mb + fmt->ebits)) & 1u;
    const uint64_t e = (bits >> mb) & emask, m = bits & ((1ull << mb) - 1u);
    double v;
    if (fmt->ieee_special && e == emask) v = m ? NAN : INFINITY;
    else if (!fmt->ieee_special && e == emask && m == (1ull << mb) - 1u) v = NAN;
    else if (e == 0) v = ldexp((double)m, 1 - bias - mb);
    else v = ldexp((double)(m | (1ull << mb)), (int)e - bias - mb);
    return neg ? -v : v;
}

uint16_t alu_f2h_rn(float f) {
    uint32_t b = (uint32_t)alu_f32_bits(f);
    const uint32_t sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
    if (a > 0x7f800000u) return ALU_F16_CANON_NAN;
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);    /* >= 65520: inf */
    if (a >= 0x38800000u) {                                     /* normal: >= 2^-14 */
        uint32_t r = a - 0x38000000u;                           /* rebias 127 -> 15 */
        r += 0xfffu + ((r >> 13) & 1u);                         /* round to nearest even */
        return (uint16_t)(sign | (r >> 13));
    }
    if (a <= 0x33000000u) return (uint16_t)sign;                /* <= 2^-25: zero */
    const uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u, sh = 126u - e;
    uint32_t r = m >> sh;
    const uint32_t rem = m & ((1u << sh) - 1u), halfway = 1u << (sh - 1);
    if (rem > halfway || (rem == halfway && (r & 1u))) r++;
    return (uint16_t)(sign | r);
}

uint16_t alu_f2bf_rn(float f) {
    uint32_t b = (uint32_t)alu_f32_bits(f);
    if ((b & 0x7fffffffu) > 0x7f800000u) return ALU_BF16_CANON_NAN;
    b += 0x7fffu + ((b >> 16) & 1u);
    return (uint16_t)(b >> 16);
}

/* ---- exact sums rounded to odd ----
 * p + c as a double rounded to odd: the rounded-to-nearest sum s and its exact error e
 * (Knuth's two-sum); when inexact, truncate toward zero and set the last bit. */
static double alu_sum_odd(double p, double c) {
    double s = p + c;
    if (!isfinite(s)) return s;
    double bp = s - c, bc = s - bp;
    double e = (p - bp) + (c - bc);
    if (e == 0) return s;
    uint64_t sb = alu_f64_bits(s);
    if ((e < 0) != (s < 0)) sb -= 1;   /* |exact| < |s|: truncation is one step down */
    return alu_f64(sb | 1u);
}

/* ---- element operations ----
 * FMT is f16 or bf16; X converts its bits to float (exactly). */
static inline uint16_t alu_h_ftz_bits(uint16_t h, unsigned mbits) {
    const uint16_t emask = (uint16_t)(0x7fffu & ~((1u << mbits) - 1u));
    return (h & emask) == 0 ? (uint16_t)(h & 0x8000u) : h;
}
/* Round an exact (or rounded-to-odd) result into the format with the instruction's
 * .sat / .relu / .ftz behaviour. */
static inline uint16_t alu_h_finish(double v, uint32_t flags, const alu_fmt *fmt) {
    if (v != v) return flags & EXEC_F_SAT ? 0 : (uint16_t)fmt->nan;
    if (flags & EXEC_F_SAT) v = v > 0 ? (v < 1 ? v : 1) : 0;
    if ((flags & ALU_F_RELU) && signbit(v)) v = 0;   /* -0 too, as on the H100 */
    uint16_t r = (uint16_t)alu_double_to_fmt(v, EXEC_RND_RN, fmt, false);
    if (flags & EXEC_F_FTZ) r = alu_h_ftz_bits(r, fmt->mbits);
    return r;
}
static inline double alu_h_in(uint16_t h, uint32_t flags, const alu_fmt *fmt, bool f16) {
    if (flags & EXEC_F_FTZ) h = alu_h_ftz_bits(h, fmt->mbits);
    return f16 ? (double)alu_h2f(h) : (double)alu_bf2f(h);
}
static inline double alu_hmin(double a, double b) {
    if (a != a) return b;
    if (b != b) return a;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline double alu_hmax(double a, double b) {
    if (a != a) return b;
    if (b != b) return a;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}

/* One element of each operation; a, b, c are already-widened operand values. */
#define ALU_HOP_add(a, b, c)  alu_sum_odd(a, b)
#define ALU_HOP_sub(a, b, c)  alu_sum_odd(a, -(b))
#define ALU_HOP_mul(a, b, c)  ((a) * (b))               /* exact: <= 2x11 bits */
#define ALU_HOP_fma(a, b, c)  alu_sum_odd((a) * (b), c) /* a*b exact, one rounding */
#define ALU_HOP_min(a, b, c)  alu_hmin(a, b)
#define ALU_HOP_max(a, b, c)  alu_hmax(a, b)

/* Handlers for FMT (f16/bf16) scalar and x2 forms of op with NSRC sources. */
#define ALU_HALF_OP(op, NSRC, fmtname, F16)                                             \
    static inline uint16_t alu_##op##_##fmtname##_el(uint16_t x, uint16_t y, uint16_t z,\
                                                      uint32_t flags) {                 \
        const alu_fmt *fmt = &alu_fmt_##fmtname;                                        \
        double a = alu_h_in(x, flags, fmt, F16), b = alu_h_in(y, flags, fmt, F16),      \
               c = alu_h_in(z, flags, fmt, F16);                                        \
        (void)b; (void)c;                                                               \
        if ((flags & ALU_F_NANMODE) && (a != a || (NSRC > 1 && b != b)))                \
            return (uint16_t)fmt->nan;                                                  \
        return alu_h_finish(ALU_HOP_##op(a, b, c), flags, fmt);                         \
    }                                                                                   \
    ALU_HANDLER(alu_##op##_##fmtname) {                                                 \
        uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);                           \
        const uint64_t *B = NSRC > 1 ? ALU_A(1) : A, *C = NSRC > 2 ? ALU_A(2) : A;      \
        const uint32_t flags = in->flags;                                               \
        ALU_LANES(mask, l, {                                                            \
            D[l] = alu_##op##_##fmtname##_el((uint16_t)A[l], (uint16_t)B[l],            \
                                             (uint16_t)C[l], flags);                    \
        });                                                                             \
    }                                                                                   \
    ALU_HANDLER(alu_##op##_##fmtname##x2) {                                             \
        uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);                           \
        const uint64_t *B = NSRC > 1 ? ALU_A(1) : A, *C = NSRC > 2 ? ALU_A(2) : A;      \
        const uint32_t flags = in->flags;                                               \
        ALU_LANES(mask, l, {                                                            \
            uint32_t lo = alu_##op##_##fmtname##_el((uint16_t)A[l], (uint16_t)B[l],     \
                                                    (uint16_t)C[l], flags);             \
            uint32_t hi = alu_##op##_##fmtname##_el((uint16_t)(A[l] >> 16),             \
                                                    (uint16_t)(B[l] >> 16),             \
                                                    (uint16_t)(C[l] >> 16), flags);     \
            D[l] = lo | (hi << 16);                                                     \
        });                                                                             \
    }
#define ALU_HALF_OPS(fmtname, F16)                                                      \
    ALU_HALF_OP(add, 2, fmtname, F16)                                                   \
    ALU_HALF_OP(sub, 2, fmtname, F16)                                                   \
    ALU_HALF_OP(mul, 2, fmtname, F16)                                                   \
    ALU_HALF_OP(fma, 3, fmtname, F16)                                                   \
    ALU_HALF_OP(min, 2, fmtname, F16)                                                   \
    ALU_HALF_OP(max, 2, fmtname, F16)
ALU_HALF_OPS(f16, true)
ALU_HALF_OPS(bf16, false)

/* ex2/tanh .approx of one 16-bit element (see the header). */
static uint16_t alu_sfu_half(uint16_t x, bool f16, bool tanh_fn) {
    const alu_fmt *fmt = f16 ? &alu_fmt_f16 : &alu_fmt_bf16;
    const float xf = (float)alu_fmt_to_double(x, fmt);   /* exact */
    const uint32_t r = tanh_fn ? alu_sfu_tanh((uint32_t)alu_f32_bits(xf))
                               : alu_sfu_ex2((uint32_t)alu_f32_bits(xf));
    if ((r & 0x7fffffffu) > 0x7f800000u) return (uint16_t)fmt->nan;
    if (f16 && (r & 0x7fffffffu) >= 0x47800000u) return (uint16_t)((r >> 16 & 0x8000u) | 0x7c00u);
    return (uint16_t)alu_double_to_fmt((double)alu_f32(r), EXEC_RND_RZ, fmt, false);
}
#define ALU_SFU_HALF(op, fmtname, F16, TANH)                                            \
    ALU_HANDLER(alu_##op##_##fmtname) {                                                 \
        uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);                           \
        ALU_LANES(mask, l, { D[l] = alu_sfu_half((uint16_t)A[l], F16, TANH); });        \
    }                                                                                   \
    ALU_HANDLER(alu_##op##_##fmtname##x2) {                                             \
        uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);                           \
        ALU_LANES(mask, l, {                                                            \
            uint32_t lo = alu_sfu_half((uint16_t)A[l], F16, TANH);                      \
            uint32_t hi = alu_sfu_half((uint16_t)(A[l] >> 16), F16, TANH);              \
            D[l] = lo | (hi << 16);                                                     \
        });                                                                             \
    }
ALU_SFU_HALF(ex2, f16, true, false)
ALU_SFU_HALF(tanh, f16, true, true)
ALU_SFU_HALF(ex2, bf16, false, false)
ALU_SFU_HALF(tanh, bf16, false, true)

/* Fast forms of add, sub, mul without modifiers: the float result of two f16 or bf16
 * operands rounds to the same 16-bit value as the exact one. (A product is exact in
 * float. A sum may lose bits below float precision only when one operand is far smaller
 * than the other, and then those bits lie well below the 16-bit rounding point: an
 * operand near that point carries no bits below float precision.) */
#define ALU_HALF_FAST(op, OPC, fmtname, TOF, FROMF)                                     \
    ALU_HANDLER(alu_##op##_##fmtname##_fast) {                                          \
        uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);            \
        ALU_LANES(mask, l, {                                                            \
            D[l] = FROMF(TOF((uint16_t)A[l]) OPC TOF((uint16_t)B[l]));                  \
        });                                                                             \
    }                                                                                   \
    ALU_HANDLER(alu_##op##_##fmtname##x2_fast) {                                        \
        uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);            \
        ALU_LANES(mask, l, {                                                            \
            const uint32_t lo = FROMF(TOF((uint16_t)A[l]) OPC TOF((uint16_t)B[l]));     \
            const uint32_t hi = FROMF(TOF((uint16_t)(A[l] >> 16)) OPC                   \
                                      TOF((uint16_t)(B[l] >> 16)));                     \
            D[l] = lo | (hi << 16);                                                     \
        });                                                                             \
    }
ALU_HALF_FAST(add, +, f16, alu_h2f, alu_f2h_rn)
ALU_HALF_FAST(sub, -, f16, alu_h2f, alu_f2h_rn)
ALU_HALF_FAST(mul, *, f16, alu_h2f, alu_f2h_rn)
ALU_HALF_FAST(add, +, bf16, alu_bf2f, alu_f2bf_rn)
ALU_HALF_FAST(sub, -, bf16, alu_bf2f, alu_f2bf_rn)
ALU_HALF_FAST(mul, *, bf16, alu_bf2f, alu_f2bf_rn)

/* neg, abs: sign-bit operations on each half (.ftz flushes subnormals first); a NaN
 * gives the canonical NaN, as on the H100. */
#define ALU_HALF_SIGN(name, OPV)                                                        \
    ALU_HANDLER(name) {                                                                 \
        uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);                           \
        const bool ftz = in->flags & EXEC_F_FTZ;                                        \
        const bool bf = in->type == PTX_T_bf16 || in->type == PTX_T_bf16x2;             \
        const unsigned mb = bf ? 7u : 10u;                                              \
        const uint16_t inf = bf ? 0x7f80u : 0x7c00u;                                    \
        const bool x2 = ptx_type_sizes[in->type] == 4;                                  \
        ALU_LANES(mask, l, {                                                            \
            uint16_t lo = (uint16_t)A[l], hi = (uint16_t)(A[l] >> 16);                  \
            if (ftz) { lo = alu_h_ftz_bits(lo, mb); hi = alu_h_ftz_bits(hi, mb); }       \
            uint32_t r = (lo & 0x7fffu) > inf ? 0x7fffu : (uint16_t)(lo OPV);           \
            if (x2) r |= (uint32_t)((hi & 0x7fffu) > inf ? 0x7fffu : (uint16_t)(hi OPV)) << 16;\
            D[l] = r;                                                                   \
        });                                                                             \
    }
ALU_HALF_SIGN(alu_neg_half, ^ 0x8000u)
ALU_HALF_SIGN(alu_abs_half, & 0x7fffu)

/* min/max.xorsign.abs on f16, bf16 and their pairs: the min/max of |a| and |b| with the
 * sign of a^b, as the f32 form (a NaN result, canonical, keeps no sign rule; .NaN gives the
 * canonical NaN for a NaN input). Rare, so one handler reads the op and type at run time. */
static inline uint16_t alu_xorsign_el(uint16_t x, uint16_t y, uint32_t flags, bool f16, bool is_min) {
    const alu_fmt *fmt = f16 ? &alu_fmt_f16 : &alu_fmt_bf16;
    double a = fabs(alu_h_in(x, flags, fmt, f16)), b = fabs(alu_h_in(y, flags, fmt, f16));
    if ((flags & ALU_F_NANMODE) && (a != a || b != b)) return (uint16_t)fmt->nan;
    double r = is_min ? alu_hmin(a, b) : alu_hmax(a, b);
    uint16_t bits = alu_h_finish(r, flags, fmt);
    return r != r ? bits : (uint16_t)((bits & 0x7fffu) | ((x ^ y) & 0x8000u));
}
ALU_HANDLER(alu_xorsign_half) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);
    const uint32_t flags = in->flags;
    const bool f16 = in->type == PTX_T_f16 || in->type == PTX_T_f16x2;
    const bool x2 = ptx_type_sizes[in->type] == 4, is_min = in->op == PTX_OP_min;
    ALU_LANES(mask, l, {
        uint32_t r = alu_xorsign_el((uint16_t)A[l], (uint16_t)B[l], flags, f16, is_min);
        if (x2)
            r |= (uint32_t)alu_xorsign_el((uint16_t)(A[l] >> 16), (uint16_t)(B[l] >> 16), flags,
                                          f16, is_min) << 16;
        D[l] = r;
    });
}

exec_fn exec_alu_half_lookup(const exec_insn *in) {
    const ptx_type t = (ptx_type)in->type;
    const bool f16 = t == PTX_T_f16 || t == PTX_T_f16x2;
    const bool x2 = t == PTX_T_f16x2 || t == PTX_T_bf16x2;
    if (!f16 && t != PTX_T_bf16 && t != PTX_T_bf16x2) return NULL;
    const uint32_t f = in->flags;
    const unsigned rnd = ALU_AUX_RND(in->aux);
    if (rnd != EXEC_RND_DEFAULT && rnd != EXEC_RND_RN) return NULL;
    const bool approx = f & EXEC_F_APPROX;
    if ((f & ALU_F_XORSIGN) && (in->op == PTX_OP_min || in->op == PTX_OP_max) && !approx &&
        !(f & (ALU_F_SATFINITE | ALU_F_SHIFTAMT | ALU_F_RELU | EXEC_F_SAT)) &&
        rnd == EXEC_RND_DEFAULT && (f16 || !(f & EXEC_F_FTZ)))
        return alu_xorsign_half;
    if (f & (ALU_F_SATFINITE | ALU_F_XORSIGN | ALU_F_SHIFTAMT)) return NULL;
    /* bf16 has neither .ftz nor .sat (ex2.approx.ftz.bf16 aside) */
    if (!f16 && (f & EXEC_F_SAT)) return NULL;

#define ALU_HPICK(op) (f16 ? (x2 ? alu_##op##_f16x2 : alu_##op##_f16) \
                           : (x2 ? alu_##op##_bf16x2 : alu_##op##_bf16))
#define alu_add_fast_f16 alu_add_f16_fast
#define alu_add_fast_f16x2 alu_add_f16x2_fast
#define alu_add_fast_bf16 alu_add_bf16_fast
#define alu_add_fast_bf16x2 alu_add_bf16x2_fast
#define alu_sub_fast_f16 alu_sub_f16_fast
#define alu_sub_fast_f16x2 alu_sub_f16x2_fast
#define alu_sub_fast_bf16 alu_sub_bf16_fast
#define alu_sub_fast_bf16x2 alu_sub_bf16x2_fast
#define alu_mul_fast_f16 alu_mul_f16_fast
#define alu_mul_fast_f16x2 alu_mul_f16x2_fast
#define alu_mul_fast_bf16 alu_mul_bf16_fast
#define alu_mul_fast_bf16x2 alu_mul_bf16x2_fast
    switch (in->op) {
    case PTX_OP_add:
    case PTX_OP_sub:
    case PTX_OP_mul:
        if (approx || (f & (ALU_F_RELU | ALU_F_NANMODE)) || (!f16 && (f & EXEC_F_FTZ)))
            return NULL;
        if (!(f & (EXEC_F_FTZ | EXEC_F_SAT)))
            return in->op == PTX_OP_add ? ALU_HPICK(add_fast)
                 : in->op == PTX_OP_sub ? ALU_HPICK(sub_fast) : ALU_HPICK(mul_fast);
        return in->op == PTX_OP_add ? ALU_HPICK(add)
             : in->op == PTX_OP_sub ? ALU_HPICK(sub) : ALU_HPICK(mul);
    case PTX_OP_fma:
        if (approx || (f & ALU_F_NANMODE) || (!f16 && (f & EXEC_F_FTZ))) return NULL;
        if ((f & ALU_F_RELU) && (f & EXEC_F_SAT)) return NULL;
        return ALU_HPICK(fma);
    case PTX_OP_min:
    case PTX_OP_max:
        if (approx || (f & (ALU_F_RELU | EXEC_F_SAT)) || rnd != EXEC_RND_DEFAULT ||
            (!f16 && (f & EXEC_F_FTZ)))
            return NULL;
        return in->op == PTX_OP_min ? ALU_HPICK(min) : ALU_HPICK(max);
    case PTX_OP_neg:
    case PTX_OP_abs:
        if (approx || (f & (ALU_F_RELU | EXEC_F_SAT | ALU_F_NANMODE)) ||
            rnd != EXEC_RND_DEFAULT || (!f16 && (f & EXEC_F_FTZ)))
            return NULL;
        return in->op == PTX_OP_neg ? alu_neg_half : alu_abs_half;
    case PTX_OP_ex2:
        /* ex2.approx.f16[x2]; ex2.approx.ftz.bf16[x2] */
        if (!approx || (f & (ALU_F_RELU | EXEC_F_SAT | ALU_F_NANMODE))) return NULL;
        if (f16 ? (f & EXEC_F_FTZ) != 0 : (f & EXEC_F_FTZ) == 0) return NULL;
        return ALU_HPICK(ex2);
    case PTX_OP_tanh:
        if (!approx || (f & (ALU_F_RELU | EXEC_F_SAT | ALU_F_NANMODE | EXEC_F_FTZ)))
            return NULL;
        return ALU_HPICK(tanh);
    default:
        return NULL;
    }
#undef ALU_HPICK
}
