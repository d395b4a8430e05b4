/* exec/alu_cvt.c — cvt between every pair of integer and float types: integer width
 * changes (sign/zero extension, truncation, .sat), integer <-> float with every rounding
 * mode, float <-> float (f16, bf16, tf32, f32, f64, rounding to integral values, .ftz,
 * .sat, .relu, .satfinite), the packing forms cvt.f16x2/bf16x2.f32 and the fp8 pairs,
 * and the saturating integer packs cvt.pack.sat.
 *
 * Hot forms (rn conversions, rzi truncation, the f16/bf16 <-> f32 pairs) are plain C
 * conversions; everything else rounds exactly through alu_round_to_fmt.
 *
 * A signed integer destination narrower than its register (cvt.s8.s32 into a .b16
 * register) is sign-extended to the register's width, as PTX specifies for wider
 * destination registers: the decoder puts the register's bit mask in imm (0 means the
 * register is as wide as the type).
 */
#include <math.h>
#include "alu_internal.h"

static inline uint64_t alu_cvt_regmask(const exec_insn *in, unsigned bytes) {
    if (in->imm) return (uint64_t)in->imm;
    return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

/* Integer types: X(name, C type, min, max). Two copies, for nested expansion. */
#define ALU_ITYPES_A(X)                                                                 \
    X(u8, uint8_t, 0, UINT8_MAX) X(u16, uint16_t, 0, UINT16_MAX)                         \
    X(u32, uint32_t, 0, UINT32_MAX) X(u64, uint64_t, 0, UINT64_MAX)                      \
    X(s8, int8_t, INT8_MIN, INT8_MAX) X(s16, int16_t, INT16_MIN, INT16_MAX)              \
    X(s32, int32_t, INT32_MIN, INT32_MAX) X(s64, int64_t, INT64_MIN, INT64_MAX)
#define ALU_ITYPES_B(X, D, CD, DMIN, DMAX)                                              \
    X(D, CD, DMIN, DMAX, u8, uint8_t) X(D, CD, DMIN, DMAX, u16, uint16_t)                \
    X(D, CD, DMIN, DMAX, u32, uint32_t) X(D, CD, DMIN, DMAX, u64, uint64_t)              \
    X(D, CD, DMIN, DMAX, s8, int8_t) X(D, CD, DMIN, DMAX, s16, int16_t)                  \
    X(D, CD, DMIN, DMAX, s32, int32_t) X(D, CD, DMIN, DMAX, s64, int64_t)
/* The stored bits of an integer result: truncate to the type, then extend (sign for
 * signed types) to the register's width. */
#define ALU_ISTORE(CD, v, rm) ((uint64_t)(int64_t)(CD)(v) & (rm))

/* ---- integer -> integer ---- */
#define ALU_I2I_DEF(D, CD, DMIN, DMAX, S, CS)                                           \
    ALU_HANDLER(alu_cvt_##D##_##S) {                                                    \
        uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);                          \
        const uint64_t rm = alu_cvt_regmask(in, sizeof(CD));                            \
        ALU_LANES(mask, l, { Dv[l] = ALU_ISTORE(CD, (CS)A[l], rm); });                   \
    }                                                                                   \
    ALU_HANDLER(alu_cvt_sat_##D##_##S) {                                                \
        uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);                          \
        const uint64_t rm = alu_cvt_regmask(in, sizeof(CD));                            \
        ALU_LANES(mask, l, {                                                            \
            __int128 x = (CS)A[l];                                                      \
            x = x < (__int128)(DMIN) ? (__int128)(DMIN)                                 \
              : x > (__int128)(DMAX) ? (__int128)(DMAX) : x;                            \
            Dv[l] = ALU_ISTORE(CD, x, rm);                                              \
        });                                                                             \
    }
#define ALU_I2I_ROW(D, CD, DMIN, DMAX) ALU_ITYPES_B(ALU_I2I_DEF, D, CD, DMIN, DMAX)
ALU_ITYPES_A(ALU_I2I_ROW)

/* ---- float -> integer ----
 * Round to an integral value in the source precision (exact in double), then clamp to
 * the destination range. NaN gives 0, except from f64 or into a 64-bit type, where it
 * gives 1 << (width-1) (the ISA's rule). */
/* Inline roundings (no libm call per lane). rni adds and subtracts 2^52, which leaves the
 * value rounded to an integer in the current (nearest-even) mode; rmi/rpi step from it.
 * rzi needs nothing: the conversion to the integer type truncates. */
static inline double alu_rint_ne(double x) {
    const double ax = fabs(x);
    return ax < 0x1p52 ? copysign((ax + 0x1p52) - 0x1p52, x) : x;
}
static inline double alu_floor_d(double x) {
    const double r = alu_rint_ne(x);
    return r > x ? r - 1.0 : r;
}
static inline double alu_ceil_d(double x) {
    const double r = alu_rint_ne(x);
    return r < x ? r + 1.0 : r;
}
#define ALU_RINT_rni(x) alu_rint_ne(x)
#define ALU_RINT_rzi(x) (x)
#define ALU_RINT_rmi(x) alu_floor_d(x)
#define ALU_RINT_rpi(x) alu_ceil_d(x)
/* Float sources: X(..., name, reader to double, is f64) */
#define ALU_FSRC_f16(v) ((double)alu_h2f((uint16_t)(v)))
#define ALU_FSRC_bf16(v) ((double)alu_bf2f((uint16_t)(v)))
#define ALU_FSRC_f32(v) ((double)alu_f32(v))
#define ALU_FSRC_f32ftz(v) ((double)alu_ftz32(alu_f32(v)))
#define ALU_FSRC_f64(v) alu_f64(v)
#define ALU_F2I_MODE(D, CD, DMIN, DMAX, F, ISF64, MODE)                                 \
    ALU_HANDLER(alu_cvt_##MODE##_##D##_##F) {                                           \
        uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);                          \
        const uint64_t rm = alu_cvt_regmask(in, sizeof(CD));                            \
        const CD nanv = (ISF64 || sizeof(CD) == 8)                                      \
                            ? (CD)((uint64_t)1 << (8 * sizeof(CD) - 1)) : (CD)0;        \
        ALU_LANES(mask, l, {                                                            \
            double x = ALU_RINT_##MODE(ALU_FSRC_##F(A[l]));                             \
            CD r = x != x ? nanv                                                        \
                 : x <= (double)(DMIN) ? (CD)(DMIN)                                     \
                 : x >= (double)(DMAX) ? (CD)(DMAX) : (CD)x;                            \
            Dv[l] = ALU_ISTORE(CD, r, rm);                                              \
        });                                                                             \
    }
#define ALU_F2I_DEF(D, CD, DMIN, DMAX, F, ISF64)                                        \
    ALU_F2I_MODE(D, CD, DMIN, DMAX, F, ISF64, rni)                                      \
    ALU_F2I_MODE(D, CD, DMIN, DMAX, F, ISF64, rzi)                                      \
    ALU_F2I_MODE(D, CD, DMIN, DMAX, F, ISF64, rmi)                                      \
    ALU_F2I_MODE(D, CD, DMIN, DMAX, F, ISF64, rpi)
#define ALU_F2I_ROW(D, CD, DMIN, DMAX)                                                  \
    ALU_F2I_DEF(D, CD, DMIN, DMAX, f16, 0) ALU_F2I_DEF(D, CD, DMIN, DMAX, bf16, 0)      \
    ALU_F2I_DEF(D, CD, DMIN, DMAX, f32, 0) ALU_F2I_DEF(D, CD, DMIN, DMAX, f32ftz, 0)    \
    ALU_F2I_DEF(D, CD, DMIN, DMAX, f64, 1)
ALU_ITYPES_A(ALU_F2I_ROW)

/* ---- integer -> float ----
 * Round to nearest is the C conversion; other modes (and f16/bf16 results) round the
 * exact integer through alu_round_to_fmt. */
/* (a function, so that the test on an unsigned source type raises no warning) */
static inline bool alu_is_neg(int64_t v) { return v < 0; }
#define ALU_I2F_DEF(S, CS, SMIN, SMAX)                                                  \
    ALU_HANDLER(alu_cvt_f32_##S##_rn) {                                                 \
        uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);                          \
        ALU_LANES(mask, l, { Dv[l] = alu_f32_bits((float)(CS)A[l]); });                 \
    }                                                                                   \
    ALU_HANDLER(alu_cvt_f64_##S##_rn) {                                                 \
        uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);                          \
        ALU_LANES(mask, l, { Dv[l] = alu_f64_bits((double)(CS)A[l]); });                \
    }                                                                                   \
    ALU_HANDLER(alu_cvt_fmt_##S) {                                                      \
        uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);                          \
        const alu_fmt *fmt = alu_cvt_dst_fmt((ptx_type)in->type);                       \
        const unsigned rnd = ALU_AUX_RND(in->aux);                                      \
        const bool ftz = in->flags & EXEC_F_FTZ, sat = in->flags & EXEC_F_SAT;          \
        for (uint32_t m = mask; m; m &= m - 1) {                                        \
            uint32_t l = (uint32_t)__builtin_ctz(m);                                    \
            CS x = (CS)A[l];                                                            \
            bool neg = (SMIN) != 0 && alu_is_neg((int64_t)x);                         \
            uint64_t mag = neg ? 0u - (uint64_t)x : (uint64_t)x;                        \
            Dv[l] = alu_cvt_finish_int(neg, mag, rnd, fmt, ftz, sat);                   \
        }                                                                               \
    }

static const alu_fmt *alu_cvt_dst_fmt(ptx_type t) {
    static const alu_fmt *const tab[PTX_T_COUNT] = {
        [PTX_T_f16] = &alu_fmt_f16, [PTX_T_bf16] = &alu_fmt_bf16, [PTX_T_f32] = &alu_fmt_f32,
        [PTX_T_f64] = &alu_fmt_f64, [PTX_T_tf32] = &alu_fmt_tf32,
    };
    return tab[t];
}
/* Integer value rounded into fmt, then .sat (clamp to [0,1]) and .ftz (no subnormal can
 * come from a non-zero integer, so only .sat matters). */
static uint64_t alu_cvt_finish_int(bool neg, uint64_t mag, unsigned rnd, const alu_fmt *fmt,
                                   bool ftz, bool sat) {
    (void)ftz;
    if (sat) {
        if (neg || mag == 0) return 0;
        mag = 1;
    }
    return alu_round_to_fmt(neg, mag, 0, rnd, fmt, false);
}
ALU_ITYPES_A(ALU_I2F_DEF)

/* ---- float -> float ----
 * One generic handler per (source, destination) format handles rounding modes, integral
 * rounding, .ftz, .sat, .relu, .satfinite; the common plain forms have fast handlers. */
static inline double alu_ftz_d32(double x) {
    return fabs(x) < 0x1p-126 ? copysign(0.0, x) : x;
}
/* The NaN a conversion gives, as the H100 does: widening to f64 keeps the payload
 * (quieted); narrowing from f64 keeps only the sign; tf32 keeps the f32 bits it has room
 * for; a plain f32 move and the bf16 -> f32 shift pass the bits through; anything else
 * gives the destination's canonical NaN. An f32 source under .ftz is first made the
 * canonical f32 NaN. raw holds the source bits. */
static uint64_t alu_cvt_nan(double x, uint64_t raw, bool src_f32, bool src_f64,
                            const exec_insn *in, const alu_fmt *dst) {
    const bool plain = !(in->flags & (EXEC_F_FTZ | EXEC_F_SAT | ALU_F_RELU)) &&
                       ALU_AUX_RND(in->aux) == EXEC_RND_DEFAULT;
    if (src_f32 && (in->flags & EXEC_F_FTZ)) {
        raw = ALU_F32_CANON_NAN;
        x = (double)alu_f32(raw);
    }
    const uint64_t sign = signbit(x) ? 1ull << (dst->mbits + dst->ebits) : 0;
    if (dst == &alu_fmt_f64) return alu_f64_bits(x) | ALU_F64_QUIET;
    if (dst == &alu_fmt_tf32 && src_f32) return (raw & 0xffffe000u) >> 13;
    if (src_f64) return sign | ((((1ull << dst->ebits) - 1) << dst->mbits) |
                                (1ull << (dst->mbits - 1)));
    if (plain && dst == &alu_fmt_f32) return src_f32 ? raw : raw << 16;
    return dst->nan;
}

static uint64_t alu_cvt_f2f_one(double x, uint64_t raw, const exec_insn *in, bool src_f32,
                                bool src_f64, const alu_fmt *dst) {
    const uint32_t f = in->flags;
    const unsigned rnd = ALU_AUX_RND(in->aux);
    const bool ftz = f & EXEC_F_FTZ;
    if (x != x && !(f & EXEC_F_SAT)) return alu_cvt_nan(x, raw, src_f32, src_f64, in, dst);
    if (ftz && src_f32) x = alu_ftz_d32(x);
    switch (rnd) {                       /* rounding to an integral value (same size) */
    case EXEC_RND_RNI: x = nearbyint(x); break;
    case EXEC_RND_RZI: x = trunc(x); break;
    case EXEC_RND_RMI: x = floor(x); break;
    case EXEC_RND_RPI: x = ceil(x); break;
    default: break;
    }
    if (x != x) return (f & EXEC_F_SAT) ? 0 : dst->nan;
    if (f & EXEC_F_SAT) x = x > 0 ? (x < 1 ? x : 1) : 0;
    if ((f & ALU_F_RELU) && signbit(x)) x = 0;        /* -0 too, as on the H100 */
    uint64_t r = alu_double_to_fmt(x, rnd, dst, (f & ALU_F_SATFINITE) != 0);
    if (ftz && dst == &alu_fmt_f32 && (r & 0x7f800000u) == 0) r &= 0x80000000u;
    return r;
}
#define ALU_F2F_DEF(F, SRC_F32, SRC_F64, DN, DFMT, SHIFT)                               \
    ALU_HANDLER(alu_cvt_##DN##_##F) {                                                   \
        uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);                          \
        for (uint32_t m = mask; m; m &= m - 1) {                                        \
            uint32_t l = (uint32_t)__builtin_ctz(m);                                    \
            Dv[l] = alu_cvt_f2f_one(ALU_FSRC_##F(A[l]), A[l], in, SRC_F32, SRC_F64,     \
                                    &DFMT) << SHIFT;                                    \
        }                                                                               \
    }
#define ALU_F2F_ROW(F, SRC_F32, SRC_F64)                                                \
    ALU_F2F_DEF(F, SRC_F32, SRC_F64, f16, alu_fmt_f16, 0)                               \
    ALU_F2F_DEF(F, SRC_F32, SRC_F64, bf16, alu_fmt_bf16, 0)                             \
    ALU_F2F_DEF(F, SRC_F32, SRC_F64, f32, alu_fmt_f32, 0)                               \
    ALU_F2F_DEF(F, SRC_F32, SRC_F64, f64, alu_fmt_f64, 0)                               \
    ALU_F2F_DEF(F, SRC_F32, SRC_F64, tf32, alu_fmt_tf32, 13)
ALU_F2F_ROW(f16, false, false)
ALU_F2F_ROW(bf16, false, false)
ALU_F2F_ROW(f32, true, false)
ALU_F2F_ROW(f64, false, true)

/* fast forms (NaN as alu_cvt_nan says) */
ALU_HANDLER(alu_cvt_f64_f32_plain) {
    uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);
    /* the host's widening quiets a NaN and keeps its payload, like the GPU */
    ALU_LANES(mask, l, { Dv[l] = alu_f64_bits((double)alu_f32(A[l])); });
}
ALU_HANDLER(alu_cvt_f32_f64_rn) {
    uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, {
        const double x = alu_f64(A[l]);
        Dv[l] = x != x ? (uint32_t)((A[l] >> 32) & 0x80000000u) | 0x7fc00000u
                       : alu_f32_bits((float)x);
    });
}
ALU_HANDLER(alu_cvt_f32_f16_plain) {
    uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { Dv[l] = alu_f32_out(alu_h2f((uint16_t)A[l])); });
}
ALU_HANDLER(alu_cvt_f32_bf16_plain) {
    uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { Dv[l] = (uint32_t)(uint16_t)A[l] << 16; });   /* NaNs too */
}
ALU_HANDLER(alu_cvt_f16_f32_rn) {
    uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { Dv[l] = alu_f2h_rn(alu_f32(A[l])); });
}
ALU_HANDLER(alu_cvt_bf16_f32_rn) {
    uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { Dv[l] = alu_f2bf_rn(alu_f32(A[l])); });
}

/* ---- packing forms ----
 * cvt.frnd{.relu}{.satfinite}.f16x2/bf16x2.f32 d, a, b: d = {cvt(a) : cvt(b)}. */
static inline uint64_t alu_cvt_from_f32(uint64_t bits, const exec_insn *in, const alu_fmt *f) {
    return alu_cvt_f2f_one(alu_f32(bits), bits, in, true, false, f);
}
static inline uint64_t alu_cvt_from_f16(uint64_t bits, const exec_insn *in, const alu_fmt *f) {
    return alu_cvt_f2f_one(alu_h2f((uint16_t)bits), (uint16_t)bits, in, false, false, f);
}
#define ALU_PACK2_DEF(name, DFMT, SHIFT)                                                \
    ALU_HANDLER(name) {                                                                 \
        uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);           \
        for (uint32_t m = mask; m; m &= m - 1) {                                        \
            const uint32_t l = (uint32_t)__builtin_ctz(m);                              \
            Dv[l] = (alu_cvt_from_f32(A[l], in, &DFMT) << SHIFT) |                      \
                    alu_cvt_from_f32(B[l], in, &DFMT);                                  \
        }                                                                               \
    }
ALU_PACK2_DEF(alu_cvt_f16x2_f32, alu_fmt_f16, 16)
ALU_PACK2_DEF(alu_cvt_bf16x2_f32, alu_fmt_bf16, 16)

/* fp8 pairs: cvt.rn.satfinite{.relu}.e4m3x2/e5m2x2.f32 d, a, b (a -> upper byte);
 * .f16x2 source a (upper half -> upper byte); cvt.rn{.relu}.f16x2.e4m3x2/e5m2x2 d, a. */
#define ALU_FP8_DEF(N, DFMT)                                                            \
    ALU_PACK2_DEF(alu_cvt_##N##x2_f32, DFMT, 8)                                         \
    ALU_HANDLER(alu_cvt_##N##x2_f16x2) {                                                \
        uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);                          \
        for (uint32_t m = mask; m; m &= m - 1) {                                        \
            const uint32_t l = (uint32_t)__builtin_ctz(m);                              \
            Dv[l] = (alu_cvt_from_f16(A[l] >> 16, in, &DFMT) << 8) |                    \
                    alu_cvt_from_f16(A[l], in, &DFMT);                                  \
        }                                                                               \
    }                                                                                   \
    ALU_HANDLER(alu_cvt_f16x2_##N##x2) {                                                \
        uint64_t *Dv = ALU_D(0); const uint64_t *A = ALU_A(0);                          \
        for (uint32_t m = mask; m; m &= m - 1) {                                        \
            const uint32_t l = (uint32_t)__builtin_ctz(m);                              \
            const double hi = alu_fmt_to_double((A[l] >> 8) & 0xffu, &DFMT);            \
            const double lo = alu_fmt_to_double(A[l] & 0xffu, &DFMT);                   \
            Dv[l] = (alu_cvt_f2f_one(hi, 0, in, false, false, &alu_fmt_f16) << 16) |    \
                    alu_cvt_f2f_one(lo, 0, in, false, false, &alu_fmt_f16);             \
        }                                                                               \
    }
ALU_FP8_DEF(e4m3, alu_fmt_e4m3)
ALU_FP8_DEF(e5m2, alu_fmt_e5m2)

/* ---- lookup ---- */
#define ALU_E_I2I(D, CD, DMIN, DMAX, S, CS) alu_cvt_##D##_##S,
#define ALU_E_I2I_SAT(D, CD, DMIN, DMAX, S, CS) alu_cvt_sat_##D##_##S,
#define ALU_I2I_TROW(D, CD, DMIN, DMAX) { ALU_ITYPES_B(ALU_E_I2I, D, CD, DMIN, DMAX) },
#define ALU_I2I_SAT_TROW(D, CD, DMIN, DMAX) { ALU_ITYPES_B(ALU_E_I2I_SAT, D, CD, DMIN, DMAX) },
static const exec_fn alu_cvt_i2i[8][8] = { ALU_ITYPES_A(ALU_I2I_TROW) };
static const exec_fn alu_cvt_i2i_sat[8][8] = { ALU_ITYPES_A(ALU_I2I_SAT_TROW) };
/* [dst int][src float: f16 bf16 f32 f32ftz f64][mode: rni rzi rmi rpi] */
#define ALU_E_F2I(D, F) { alu_cvt_rni_##D##_##F, alu_cvt_rzi_##D##_##F,                \
                          alu_cvt_rmi_##D##_##F, alu_cvt_rpi_##D##_##F },
#define ALU_F2I_TROW(D, CD, DMIN, DMAX)                                                 \
    { ALU_E_F2I(D, f16) ALU_E_F2I(D, bf16) ALU_E_F2I(D, f32) ALU_E_F2I(D, f32ftz)        \
      ALU_E_F2I(D, f64) },
static const exec_fn alu_cvt_f2i[8][5][4] = { ALU_ITYPES_A(ALU_F2I_TROW) };
#define ALU_E_I2F(S, CS, SMIN, SMAX)                                                    \
    { alu_cvt_f32_##S##_rn, alu_cvt_f64_##S##_rn, alu_cvt_fmt_##S },
static const exec_fn alu_cvt_i2f[8][3] = { ALU_ITYPES_A(ALU_E_I2F) };
/* [src f16 bf16 f32 f64][dst f16 bf16 f32 f64 tf32] */
#define ALU_E_F2F(F) { alu_cvt_f16_##F, alu_cvt_bf16_##F, alu_cvt_f32_##F, alu_cvt_f64_##F, \
                       alu_cvt_tf32_##F },
static const exec_fn alu_cvt_f2f[4][5] = {
    ALU_E_F2F(f16) ALU_E_F2F(bf16) ALU_E_F2F(f32) ALU_E_F2F(f64) };

/* Index of an integer type in ALU_ITYPES order (b types as unsigned), or -1. */
static int alu_cvt_int_index(ptx_type t) {
    const char k = ptx_type_kinds[t];
    if (k != 'u' && k != 's' && k != 'b') return -1;
    int i;
    switch (ptx_type_sizes[t]) {
    case 1: i = 0; break;
    case 2: i = 1; break;
    case 4: i = 2; break;
    case 8: i = 3; break;
    default: return -1;
    }
    return k == 's' ? i + 4 : i;
}
/* Index of a float type: f16 bf16 f32 f64 (tf32 only as a destination: 4), or -1. */
static int alu_cvt_flt_index(ptx_type t) {
    switch (t) {
    case PTX_T_f16: return 0;
    case PTX_T_bf16: return 1;
    case PTX_T_f32: return 2;
    case PTX_T_f64: return 3;
    case PTX_T_tf32: return 4;
    default: return -1;
    }
}

/* ---- cvt.pack.sat.ctype.s32[.b32] d, a, b[, c] ----
 * a and b, clamped to the convert type (width and signedness in imm: bits << 1 | signed),
 * go to d's low bits, b lowest and a above it; for 8-, 4- and 2-bit types the rest of d
 * comes from c's low bits. */
ALU_HANDLER(alu_cvt_pack) {
    uint64_t *D = ALU_D(0);
    const uint64_t *A = ALU_A(0), *B = ALU_A(1), *C = ALU_A(in->na > 2 ? 2 : 0);
    const unsigned bits = (unsigned)(in->imm >> 1);
    const bool sgn = in->imm & 1;
    const int64_t lo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
    const int64_t hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    const uint32_t m = (uint32_t)(((uint64_t)1 << bits) - 1);
    const bool with_c = in->na > 2;
    ALU_LANES(mask, l, {
        int64_t a = (int32_t)A[l], b = (int32_t)B[l];
        a = a < lo ? lo : a > hi ? hi : a;
        b = b < lo ? lo : b > hi ? hi : b;
        uint32_t d = ((uint32_t)b & m) | (((uint32_t)a & m) << bits);
        if (with_c) d |= (uint32_t)((uint64_t)(uint32_t)C[l] << (2 * bits));
        D[l] = d;
    });
}

exec_fn exec_alu_cvt_lookup(const exec_insn *in) {
    const ptx_type dt = (ptx_type)in->type, st = (ptx_type)in->type2;
    const uint32_t f = in->flags;
    const unsigned rnd = ALU_AUX_RND(in->aux);
    const bool ftz = f & EXEC_F_FTZ, sat = f & EXEC_F_SAT;
    const bool relu = f & ALU_F_RELU, satfinite = f & ALU_F_SATFINITE;
    const bool irnd = rnd >= EXEC_RND_RNI && rnd <= EXEC_RND_RPI;
    const bool frnd = rnd >= EXEC_RND_RN && rnd <= EXEC_RND_RP;
    const int di = alu_cvt_int_index(dt), si = alu_cvt_int_index(st);
    const int df = alu_cvt_flt_index(dt), sf = alu_cvt_flt_index(st);
    if (f & (EXEC_F_APPROX | ALU_F_NANMODE | ALU_F_XORSIGN | ALU_F_SHIFTAMT)) return NULL;
    if (ALU_AUX_VAR(in->aux) == ALU_V_PACK) {
        const unsigned bits = (unsigned)(in->imm >> 1);
        const bool ok = sat && dt == PTX_T_u32 && st == PTX_T_s32 && !ftz && !relu &&
                        !satfinite && rnd == EXEC_RND_DEFAULT &&
                        (bits == 16 ? in->na == 2 : (bits == 8 || bits == 4 || bits == 2) && in->na == 3);
        return ok ? alu_cvt_pack : NULL;
    }

    /* packed destinations */
    if (dt == PTX_T_f16x2 || dt == PTX_T_bf16x2) {
        if (st == PTX_T_f32 && frnd && (rnd == EXEC_RND_RN || rnd == EXEC_RND_RZ) && !ftz && !sat)
            return dt == PTX_T_f16x2 ? alu_cvt_f16x2_f32 : alu_cvt_bf16x2_f32;
        if (dt == PTX_T_f16x2 && rnd == EXEC_RND_RN && !ftz && !sat && !satfinite) {
            if (st == PTX_T_e4m3x2) return alu_cvt_f16x2_e4m3x2;
            if (st == PTX_T_e5m2x2) return alu_cvt_f16x2_e5m2x2;
        }
        return NULL;
    }
    if (dt == PTX_T_e4m3x2 || dt == PTX_T_e5m2x2) {
        if (rnd != EXEC_RND_RN || !satfinite || ftz || sat) return NULL;
        const bool e4 = dt == PTX_T_e4m3x2;
        if (st == PTX_T_f32) return e4 ? alu_cvt_e4m3x2_f32 : alu_cvt_e5m2x2_f32;
        if (st == PTX_T_f16x2) return e4 ? alu_cvt_e4m3x2_f16x2 : alu_cvt_e5m2x2_f16x2;
        return NULL;
    }

    /* integer destination */
    if (di >= 0) {
        if (relu || satfinite) return NULL;
        if (si >= 0) {                                   /* int -> int */
            if (rnd != EXEC_RND_DEFAULT || ftz) return NULL;
            if (!sat) return alu_cvt_i2i[di][si];
            /* .sat only where the destination range does not cover the source's */
            const bool ds = di >= 4, ss = si >= 4;
            const int dw = di & 3, sw = si & 3;
            if ((ds == ss && dw >= sw) || (ds && !ss && dw > sw)) return NULL;
            return alu_cvt_i2i_sat[di][si];
        }
        if (sf < 0 || sf == 4 || !irnd) return NULL;   /* float -> int needs .rni etc. */
        if (ftz && sf != 2) return NULL;
        const int row = sf == 0 ? 0 : sf == 1 ? 1 : sf == 2 ? (ftz ? 3 : 2) : 4;
        return alu_cvt_f2i[di][row][rnd - EXEC_RND_RNI];
    }
    if (df < 0) return NULL;

    /* integer -> float */
    if (si >= 0) {
        if (!frnd || relu || satfinite || df == 4) return NULL;
        if ((rnd == EXEC_RND_RN) && !sat && (df == 2 || df == 3))
            return alu_cvt_i2f[si][df == 2 ? 0 : 1];
        return alu_cvt_i2f[si][2];
    }
    if (sf < 0 || sf == 4) return NULL;

    /* float -> float: rounding rules of the ISA */
    if (ftz && sf != 2 && df != 2) return NULL;
    if ((relu || satfinite) && !(df == 0 || df == 1 || df == 4)) return NULL;
    const unsigned sbytes = ptx_type_sizes[st], dbytes = ptx_type_sizes[dt];
    if (irnd) {
        if (sbytes != dbytes || df == 4) return NULL;  /* integral rounding: same size */
    } else if (dbytes < sbytes || dt == PTX_T_tf32 || (dbytes == sbytes && df != sf)) {
        if (!frnd && rnd != EXEC_RND_RNA) return NULL; /* narrowing needs a rounding */
        if (rnd == EXEC_RND_RNA && df != 4) return NULL;
    } else if (rnd != EXEC_RND_DEFAULT) {
        return NULL;                                   /* exact widening: no rounding */
    }
    if (!ftz && !sat && !relu && !satfinite) {
        if (sf == 2 && df == 3 && rnd == EXEC_RND_DEFAULT) return alu_cvt_f64_f32_plain;
        if (sf == 3 && df == 2 && rnd == EXEC_RND_RN) return alu_cvt_f32_f64_rn;
        if (sf == 0 && df == 2 && rnd == EXEC_RND_DEFAULT) return alu_cvt_f32_f16_plain;
        if (sf == 1 && df == 2 && rnd == EXEC_RND_DEFAULT) return alu_cvt_f32_bf16_plain;
        if (sf == 2 && df == 0 && rnd == EXEC_RND_RN) return alu_cvt_f16_f32_rn;
        if (sf == 2 && df == 1 && rnd == EXEC_RND_RN) return alu_cvt_bf16_f32_rn;
    }
    return alu_cvt_f2f[sf][df];
}
