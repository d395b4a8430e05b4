/* exec/alu_sfu.c — the special function unit (MUFU) of an H100/H200, bit for bit, and the
 * PTX .approx instructions built on it.
 *
 * How the unit computes (recovered from exhaustive H200 tables of every input of a binade,
 * bench/sfu_fit.c; checked by tests/unit/test_sfu.c):
 * - Quadratic interpolation. The top bits of the operand's 23- or 24-bit fraction pick an
 *   interval (a row of alu_sfu_tab.c), the low 16 or 17 bits are x, and the unit sums
 *   A + C1 x + C2 sq(x) in fixed point, exactly, then truncates. C1 x is an exact product;
 *   sq(x) is a truncated squarer, about x^2 / 2^19: one row x >> (18 - i) per set bit i
 *   of x, each row truncated on its own, their sum halved (truncating). The truncation in
 *   the squarer is what makes the results differ from any exact quadratic.
 * - rcp: 128 intervals on the fraction's top 7 bits, x = the low 16 bits, the square of
 *   2x; the sum over 2^15 is the result's 24-bit significand (2^24 for 1/1).
 * - rsqrt and sqrt: the exponent's parity and the fraction's top 6 bits pick one of 128
 *   intervals covering [1, 4), x = the low 17 bits; rsqrt sums C2 sq(x) * 4 and truncates
 *   16 bits, sqrt the same and truncates 18.
 * - ex2: the operand becomes a fixed-point number with 23 fraction bits (fraction bits
 *   below 2^-23 truncated); a negative one is split as -(i + f) = (-i - 1) + ~f, the
 *   fraction's one's complement (so ex2(-1 - 2^-23) is interpolated at 2 - 2^-23, one
 *   input ulp off). 64 intervals on the fraction's top 6 bits.
 * - lg2: 64 intervals on the fraction's top 6 bits give log2 of the significand as a
 *   fixed-point number with 36 fraction bits (C2 sq(x) counts twice, 2 bits truncated),
 *   the exponent is added, a negative sum is made positive by one's complement, and the
 *   result is the sum's top 24 bits, truncated. lg2(1) alone is exactly 0 (the first
 *   interval does not start at 0: lg2(0.5) is -1 + 2^-23).
 * - sin and cos take the angle in turns (the compiler multiplies by 1/2pi, rounding toward
 *   zero, first). Four times its magnitude, truncated to 23 fraction bits, gives the
 *   quadrant (its integer part mod 4) and the position in it; odd quadrants mirror the
 *   position by one's complement, quadrants 2 and 3 negate; cos is sin one quadrant on
 *   (and of the magnitude). 64 intervals; the sum is a fixed-point sine with 37 fraction
 *   bits, whose top 24 bits are the result, truncated.
 * - tanh: tables per binade, alu_sfu_tanh.
 * Special operands follow the PTX ISA (NaN gives the canonical NaN 0x7fffffff).
 */
#include "alu_sfu.h"
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#define SFU_NAN 0x7fffffffu
#define SFU_INF 0x7f800000u

/* The unit's squarer: x^2 / 2^19 for 17-bit x, from truncated rows (see above). */
static uint32_t sfu_square_rows(uint32_t x) {
    uint32_t r = 0;
    for (uint32_t m = x & 0x1ffffu; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        r += x >> (18 - i);
    }
    return r >> 1;
}

/* The squarer's every value for 17-bit x (all the unit's operands: below 2^15, so 16
 * bits each, 256 KiB), made on first use: the rows' loop, one unpredictable iteration
 * per set bit, was half the time of every ex2, rcp, lg2, rsqrt and sqrt (BlackScholes:
 * 13 ns per square against 1.4 ns per lookup, measured on the AMD EPYC host). */
static uint16_t sfu_square_tab[1u << 17];
static pthread_once_t sfu_square_once = PTHREAD_ONCE_INIT;
static bool sfu_square_ready;

static void sfu_square_build(void) {
    for (uint32_t x = 0; x < (1u << 17); x++) sfu_square_tab[x] = (uint16_t)sfu_square_rows(x);
    __atomic_store_n(&sfu_square_ready, true, __ATOMIC_RELEASE);
}

static inline uint32_t sfu_square(uint32_t x) {
    if (x >> 17) return sfu_square_rows(x);
    if (!__atomic_load_n(&sfu_square_ready, __ATOMIC_ACQUIRE))
        pthread_once(&sfu_square_once, sfu_square_build);
    return sfu_square_tab[x];
}

/* A + C1 x + (C2 sq << c2shift) for interval c. */
static inline int64_t sfu_interp(const alu_sfu_coef *c, uint32_t x, uint32_t sqx, int c2shift) {
    return c->a + (int64_t)c->c1 * x + (int64_t)c->c2 * (int64_t)sqx * ((int64_t)1 << c2shift);
}

/* A significand y in [2^23, 2^24] with exponent field e: the f32 bits, a carry into the
 * exponent when y = 2^24, zero (of sign s) when the result is denormal, inf above. */
static inline uint32_t sfu_pack(uint32_t s, int32_t e, uint64_t y) {
    e += (int32_t)(y >> 24);
    if (e <= 0) return s;
    if (e >= 255) return s | SFU_INF;
    return s | (uint32_t)e << 23 | ((uint32_t)y & 0x7fffffu);
}

/* A positive fixed-point value v with fb fraction bits as f32, truncated to 24 bits. */
static inline uint32_t sfu_norm_trunc(uint32_t s, uint64_t v, int fb) {
    if (!v) return s;
    int lead = 63 - __builtin_clzll(v);
    uint64_t m = lead >= 23 ? v >> (lead - 23) : v << (23 - lead);
    return sfu_pack(s, 127 + lead - fb, m);
}

uint32_t alu_sfu_rcp(uint32_t x) {
    uint32_t s = x & 0x80000000u, e = (x >> 23) & 0xffu, f = x & 0x7fffffu;
    if (e == 0) return s | SFU_INF;
    if (e == 255) return f ? SFU_NAN : s;
    uint32_t xl = f & 0xffffu;
    int64_t v = sfu_interp(&alu_sfu_rcp_tab[f >> 16], xl, sfu_square(xl << 1), 0);
    return sfu_pack(s, 253 - (int32_t)e, (uint64_t)v >> 15);
}

/* rsqrt and sqrt: x = m 2^(2h), m in [1, 4) given by the parity bit and the fraction. */
static inline uint32_t sfu_root(uint32_t x, bool recip) {
    uint32_t s = x & 0x80000000u, e = (x >> 23) & 0xffu, f = x & 0x7fffffu;
    if (e == 0) return recip ? s | SFU_INF : s;
    if (s) return SFU_NAN;
    if (e == 255) return f ? SFU_NAN : recip ? 0 : SFU_INF;
    int32_t ee = (int32_t)e - 127, h = (ee - (ee & 1)) / 2;
    uint32_t f24 = f | (uint32_t)(ee & 1) << 23, xl = f24 & 0x1ffffu;
    if (recip) {
        if (!f24) return (uint32_t)(127 - h) << 23;
        int64_t v = sfu_interp(&alu_sfu_rsq_tab[f24 >> 17], xl, sfu_square(xl), 2);
        return sfu_pack(0, 126 - h, (uint64_t)v >> 16);
    }
    int64_t v = sfu_interp(&alu_sfu_sqrt_tab[f24 >> 17], xl, sfu_square(xl), 2);
    return sfu_pack(0, 127 + h, (uint64_t)v >> 18);
}
uint32_t alu_sfu_rsq(uint32_t x) { return sfu_root(x, true); }
uint32_t alu_sfu_sqrt(uint32_t x) { return sfu_root(x, false); }

uint32_t alu_sfu_ex2(uint32_t x) {
    uint32_t s = x >> 31, e = (x >> 23) & 0xffu, f = x & 0x7fffffu;
    if (e == 255) return f ? SFU_NAN : s ? 0 : SFU_INF;
    if (e >= 134) return s ? 0 : SFU_INF;               /* |x| >= 128 */
    uint32_t q = 0;                                     /* |x| in 7.23 fixed point */
    if (e) {
        uint32_t m = f | 0x800000u;
        q = e >= 127 ? m << (e - 127) : 127 - e < 32 ? m >> (127 - e) : 0;
    }
    int32_t i = (int32_t)(q >> 23);
    uint32_t fr = q & 0x7fffffu;
    if (s) {
        if (fr) { i = -i - 1; fr = ~fr & 0x7fffffu; }
        else i = -i;
    }
    uint32_t xl = fr & 0x1ffffu;
    int64_t v = sfu_interp(&alu_sfu_ex2_tab[fr >> 17], xl, sfu_square(xl), 0);
    return sfu_pack(0, 127 + i, (uint64_t)v >> 15);
}

uint32_t alu_sfu_lg2(uint32_t x) {
    uint32_t s = x & 0x80000000u, e = (x >> 23) & 0xffu, f = x & 0x7fffffu;
    if (e == 0) return 0xff800000u;
    if (s) return SFU_NAN;
    if (e == 255) return f ? SFU_NAN : SFU_INF;
    uint32_t xl = f & 0x1ffffu;
    int64_t v = f || e != 127 ? sfu_interp(&alu_sfu_lg2_tab[f >> 17], xl, sfu_square(xl), 1) : 0;
    int64_t t = (v >> 2) + (int64_t)((int32_t)e - 127) * ((int64_t)1 << 36);
    uint32_t rs = 0;
    if (t < 0) { rs = 0x80000000u; t = ~t; }
    return sfu_norm_trunc(rs, (uint64_t)t, 36);
}

uint32_t alu_sfu_sincos(uint32_t t, bool cos) {
    uint32_t s = t & 0x80000000u, e = (t >> 23) & 0xffu, f = t & 0x7fffffu;
    if (e == 255) return SFU_NAN;
    uint32_t q = 0;                              /* 4|t| mod 4 in 2.23 fixed point */
    if (e) {
        uint64_t m = f | 0x800000u;
        q = (uint32_t)(e >= 125 ? (e - 125 < 40 ? m << (e - 125) : 0) : 125 - e < 40 ? m >> (125 - e) : 0);
        q &= 0x1ffffffu;
    }
    uint32_t quad = q >> 23, pos = q & 0x7fffffu;
    if (cos) { quad++; s = 0; }
    if (quad & 1) pos = ~pos & 0x7fffffu;
    if (quad & 2) s ^= 0x80000000u;
    uint32_t xl = pos & 0x1ffffu;
    int64_t v = sfu_interp(&alu_sfu_sin_tab[pos >> 17], xl, sfu_square(xl), 0);
    return sfu_norm_trunc(s, (uint64_t)v, 37);
}

/* tanh: below 2^-8 the operand itself (denormals too); from 16 on, 1; between, the top M
 * bits of the operand's fraction pick one of 2^M intervals of its binade (M = 0 to 4,
 * more where tanh bends most), the next 17 bits are x (the 6 - M bits below are not
 * read), and the sum, in units of 2^-16 (2^-17 on [2, 4)) of the operand's ulp, is
 * truncated to 24 bits. tanh(-x) = -tanh(x). */
uint32_t alu_sfu_tanh(uint32_t x) {
    uint32_t s = x & 0x80000000u, e = (x >> 23) & 0xffu, f = x & 0x7fffffu;
    if (e == 255) return f ? SFU_NAN : s | 0x3f800000u;
    if (e < 0x77) return x;
    if (e > 0x82) return s | 0x3f800000u;
    unsigned ms = alu_sfu_tanh_ms[e - 0x77], m = ms & 15, first = 0;
    for (uint32_t b = 0x77; b < e; b++) first += 1u << (alu_sfu_tanh_ms[b - 0x77] & 15);
    uint32_t xl = (f >> (6 - m)) & 0x1ffffu;
    int64_t v = sfu_interp(&alu_sfu_tanh_tab[first + (f >> (23 - m))], xl, sfu_square(xl), 0);
    return sfu_norm_trunc(s, (uint64_t)v, 166 - (int)e + (int)(ms >> 4));
}

/* ---- the PTX instructions: sm_90 code around the unit (read from ptxas's output) ---- */
static inline float sfu_f(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline uint32_t sfu_b(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline bool sfu_denorm(uint32_t b) { return (b & 0x7f800000u) == 0; }
static inline uint32_t sfu_ftz(uint32_t b) { return sfu_denorm(b) ? b & 0x80000000u : b; }
/* |x| < 2^-126 (zero or denormal), as FSETP.GEU's negation (false for NaN) */
static inline bool sfu_tiny(uint32_t b) { return (b & 0x7fffffffu) < 0x00800000u; }
static inline uint32_t sfu_mul(uint32_t a, uint32_t b, bool ftz) {
    if (ftz) { a = sfu_ftz(a); b = sfu_ftz(b); }
    uint32_t r = sfu_b(sfu_f(a) * sfu_f(b));
    if ((r & 0x7fffffffu) > SFU_INF) r = SFU_NAN;
    return ftz ? sfu_ftz(r) : r;
}

/* rcp.approx: the .ftz form is MUFU.RCP; the full form scales a denormal operand by 2^24,
 * one above 2^126 by 1/4, and the result back. */
uint32_t alu_sfu_ptx_rcp(uint32_t x, bool ftz) {
    if (ftz) return alu_sfu_rcp(x);
    uint32_t ax = x & 0x7fffffffu;
    uint32_t k = sfu_tiny(x) ? 0x4b800000u : ax > 0x7e800000u && ax <= SFU_INF ? 0x3e800000u : 0x3f800000u;
    return sfu_mul(k, alu_sfu_rcp(sfu_mul(x, k, false)), false);
}
/* rsqrt/sqrt/lg2.approx: the full forms scale a denormal operand by 2^24 and correct. */
uint32_t alu_sfu_ptx_rsqrt(uint32_t x, bool ftz) {
    if (ftz || !sfu_tiny(x)) return alu_sfu_rsq(x);
    return sfu_mul(alu_sfu_rsq(sfu_mul(x, 0x4b800000u, false)), 0x45800000u, false);
}
uint32_t alu_sfu_ptx_sqrt(uint32_t x, bool ftz) {
    if (ftz || !sfu_tiny(x)) return alu_sfu_sqrt(x);
    return sfu_mul(alu_sfu_sqrt(sfu_mul(x, 0x4b800000u, false)), 0x39800000u, false);
}
uint32_t alu_sfu_ptx_lg2(uint32_t x, bool ftz) {
    if (ftz || !sfu_tiny(x)) return alu_sfu_lg2(x);
    uint32_t r = sfu_b(sfu_f(alu_sfu_lg2(sfu_mul(x, 0x4b800000u, false))) - 24.0f);
    return (r & 0x7fffffffu) > SFU_INF ? SFU_NAN : r;
}
/* ex2.approx: the full form halves an operand below -126 and squares the result, so that
 * results down to the denormals come out. */
uint32_t alu_sfu_ptx_ex2(uint32_t x, bool ftz) {
    if (ftz || !(sfu_f(x) < -126.0f)) return alu_sfu_ex2(x);
    uint32_t r = alu_sfu_ex2(sfu_mul(x, 0x3f000000u, false));
    return sfu_mul(r, r, false);
}
/* sin/cos.approx (both forms): FMUL.RZ by 1/2pi, then the unit. */
uint32_t alu_sfu_ptx_sin(uint32_t x, bool cos) {
    float xf = sfu_f(x);
    double p = (double)xf * (double)sfu_f(0x3e22f983u);   /* exact: 24 x 24 bits */
    float t = (float)p;
    if (fabs((double)t) > fabs(p)) t = nextafterf(t, 0.0f);
    return alu_sfu_sincos(sfu_b(t), cos);
}
/* div.approx: a * MUFU.RCP(b) (the full form scaling both by 2^24 for a denormal b);
 * div.full also scales both by 1/4 for |b| > 2^126. */
uint32_t alu_sfu_ptx_div(uint32_t a, uint32_t b, bool full, bool ftz) {
    uint32_t ab = b & 0x7fffffffu;
    if (full && ab > 0x7e800000u && ab <= SFU_INF) {
        a = sfu_mul(a, 0x3e800000u, ftz);
        b = sfu_mul(b, 0x3e800000u, ftz);
    }
    if (!ftz && sfu_tiny(b)) {
        a = sfu_mul(a, 0x4b800000u, false);
        b = sfu_mul(b, 0x4b800000u, false);
    }
    return sfu_mul(alu_sfu_rcp(b), a, ftz);
}
