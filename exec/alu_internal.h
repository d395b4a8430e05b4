/* exec/alu_internal.h — shared by the arithmetic, logic, conversion, comparison and
 * warp-collective handlers (exec/alu_*.c, exec/warp_ops.c).
 *
 * Decoding happens in two steps:
 *   1. exec_decode_alu (alu_decode.c) reads the PTX instruction: it resolves operands to
 *      slots/predicates and turns types and modifiers into exec_insn fields: op, type,
 *      type2, flags (EXEC_F_* and ALU_F_* below) and aux (rounding, variant, combine op).
 *   2. exec_alu_lookup picks the type-specialised handler for those fields. It is a pure
 *      function of the fields, so tests can build an exec_insn by hand, ask for its
 *      handler and run it on a hand-made warp.
 *
 * Operand layout per opcode (slots unless noted "pred" = predicate index):
 *   most ops            d[0]; a[0..na-1] in PTX order
 *   mul/mad .wide       d[0] is 2x the type width; mad's c (a[2]) too
 *   add/sub/mad with .cc / addc / subc / madc: carry in and out through w->carry
 *   setp                d[0] pred, d[1] pred when EXEC_F_D2_PRED (gets the complement);
 *                       a[0], a[1]; a[2] pred when aux has a combine op (EXEC_F_NEG_A2)
 *   set                 d[0]; a[0], a[1]; a[2] pred when combining
 *   selp                d[0]; a[0], a[1]; a[2] pred
 *   slct                d[0]; a[0], a[1]; a[2] (type2 = s32 or f32)
 *   testp               d[0] pred; a[0]
 *   and/or/xor/not/mov .pred   d[0] pred; a[i] pred (ALU_F_NEG_A0/A1 for "!p")
 *   cvt                 type = destination, type2 = source; cvt.f16x2/bf16x2.f32 d, a, b
 *                       uses a[0] (upper half) and a[1] (lower half); imm = destination
 *                       register mask for signed integer destinations (sign extension
 *                       into a wider register), see alu_cvt.c
 *   mov pack            ALU_V_PACK: d[0]; a[0..vec-1] (element width = type width / vec)
 *   mov unpack          ALU_V_UNPACK: d[0..vec-1]; a[0]
 *   lop3                d[0]; a[0..2]; imm = the 8-bit truth table
 *   prmt                d[0]; a[0..2]; variant = mode
 *   shfl                d[0] (d[1] pred with EXEC_F_D2_PRED); a[0] value, a[1] b,
 *                       a[2] c, a[3] membermask; variant = mode
 *   vote                .pred forms: d[0] pred (EXEC_F_D_PRED), a[0] pred (ALU_F_NEG_A0),
 *                       a[1] membermask; ballot: d[0] slot
 *   match               d[0]; d[1] pred with EXEC_F_D2_PRED (.all); a[0], a[1] membermask
 *   redux               d[0]; a[0], a[1] membermask; variant = operation (f32 min/max:
 *                       ALU_F_ABS, ALU_F_NANMODE)
 *   elect               d[0] (lane id), d[1] pred; a[0] membermask
 *   activemask          d[0]
 */
#ifndef VCUDA_EXEC_ALU_INTERNAL_H
#define VCUDA_EXEC_ALU_INTERNAL_H

#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include "internal.h"

/* ---- exec_insn.aux for ALU instructions ----
 * bits 0-3   rounding mode (EXEC_RND_*)
 * bits 4-11  variant (alu_variant)
 * bits 12-13 boolean combine op of setp/set (ALU_BOOL_*) */
#define ALU_AUX(rnd, var, boolop) \
    ((uint32_t)(rnd) | ((uint32_t)(var) << 4) | ((uint32_t)(boolop) << 12))
#define ALU_AUX_RND(aux) ((aux) & 0xfu)
#define ALU_AUX_VAR(aux) (((aux) >> 4) & 0xffu)
#define ALU_AUX_BOOL(aux) (((aux) >> 12) & 0x3u)

enum { ALU_BOOL_NONE = 0, ALU_BOOL_AND, ALU_BOOL_OR, ALU_BOOL_XOR };

typedef enum alu_variant {
    ALU_V_NONE = 0,
    /* mul, mad, mul24, mad24, dp2a */
    ALU_V_LO, ALU_V_HI, ALU_V_WIDE,
    /* comparisons (setp, set) */
    ALU_V_EQ, ALU_V_NE, ALU_V_LT, ALU_V_LE, ALU_V_GT, ALU_V_GE,
    ALU_V_LO_CMP, ALU_V_LS, ALU_V_HI_CMP, ALU_V_HS,
    ALU_V_EQU, ALU_V_NEU, ALU_V_LTU, ALU_V_LEU, ALU_V_GTU, ALU_V_GEU,
    ALU_V_NUM, ALU_V_NAN,
    /* shf, bmsk, szext */
    ALU_V_L_WRAP, ALU_V_L_CLAMP, ALU_V_R_WRAP, ALU_V_R_CLAMP, ALU_V_WRAP, ALU_V_CLAMP,
    /* prmt modes (generic form is ALU_V_NONE) */
    ALU_V_F4E, ALU_V_B4E, ALU_V_RC8, ALU_V_ECL, ALU_V_ECR, ALU_V_RC16,
    /* testp */
    ALU_V_FINITE, ALU_V_INFINITE, ALU_V_NUMBER, ALU_V_NOTANUMBER, ALU_V_NORMAL,
    ALU_V_SUBNORMAL,
    /* mov vector forms */
    ALU_V_PACK, ALU_V_UNPACK,
    /* shfl */
    ALU_V_UP, ALU_V_DOWN, ALU_V_BFLY, ALU_V_IDX,
    /* vote, match */
    ALU_V_ALL, ALU_V_ANY, ALU_V_UNI, ALU_V_BALLOT,
    /* redux */
    ALU_V_ADD, ALU_V_MIN, ALU_V_MAX, ALU_V_AND, ALU_V_OR, ALU_V_XOR,
    /* div/rcp/sqrt flavours besides IEEE rounding */
    ALU_V_APPROX, ALU_V_FULL,
    ALU_V_COUNT
} alu_variant;

/* Handler-specific flag bits (EXEC_F_HANDLER and up). */
#define ALU_F_RELU      (EXEC_F_HANDLER << 0)  /* min/max/fma/cvt .relu */
#define ALU_F_NANMODE   (EXEC_F_HANDLER << 1)  /* min/max .NaN */
#define ALU_F_SHIFTAMT  (EXEC_F_HANDLER << 2)  /* bfind .shiftamt */
#define ALU_F_XORSIGN   (EXEC_F_HANDLER << 3)  /* min/max .xorsign.abs */
#define ALU_F_SATFINITE (EXEC_F_HANDLER << 4)  /* cvt .satfinite */
#define ALU_F_NEG_A0    (EXEC_F_HANDLER << 5)  /* predicate source a[0] negated */
#define ALU_F_NEG_A1    (EXEC_F_HANDLER << 6)  /* predicate source a[1] negated */
#define ALU_F_ABS       (EXEC_F_HANDLER << 7)  /* redux.sync .abs: reduce |a| */

/* The handler for a decoded instruction, or NULL when the combination of op, type,
 * type2, flags and aux has none (the decoder then reports the instruction). */
exec_fn exec_alu_lookup(const exec_insn *in);
/* Is op one the ALU decoder (exec_decode_alu) takes? None of them changes the warp's
 * control state (pc, masks, stack) but by faulting: jit/emit.c counts on that. */
bool exec_alu_owns(unsigned op);

/* Per-family lookups behind exec_alu_lookup (each returns NULL for what it lacks). */
exec_fn exec_alu_int_lookup(const exec_insn *in);
exec_fn exec_alu_bits_lookup(const exec_insn *in);
exec_fn exec_alu_float_lookup(const exec_insn *in);
exec_fn exec_alu_half_lookup(const exec_insn *in);
exec_fn exec_alu_cmp_lookup(const exec_insn *in);
exec_fn exec_alu_cvt_lookup(const exec_insn *in);
exec_fn exec_alu_mov_lookup(const exec_insn *in);
exec_fn exec_warp_ops_lookup(const exec_insn *in);

/* ---- lane loops ----
 * ALU_LANES runs body for every lane in mask. The full-mask branch is a counted loop
 * over 32 lanes that GCC vectorises at -O2: "ivdep" tells it that a destination slot
 * equal to a source slot (add %r1, %r1, 1) is no loop-carried dependence, which spares
 * the runtime alias check the cheap cost model would refuse. Partial masks walk the set
 * bits. */
#if defined(__clang__)
#define ALU_IVDEP /* clang versions the loop for aliasing itself */
#elif defined(__GNUC__)
#define ALU_IVDEP _Pragma("GCC ivdep")
#else
#define ALU_IVDEP
#endif
#define ALU_LANES(mask, l, ...)                                                         \
    do {                                                                                \
        if ((mask) == EXEC_FULL_MASK) {                                                 \
            ALU_IVDEP                                                                   \
            for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++) { __VA_ARGS__ }               \
        } else {                                                                        \
            for (uint32_t alu_m_ = (mask); alu_m_; alu_m_ &= alu_m_ - 1) {              \
                uint32_t l = (uint32_t)__builtin_ctz(alu_m_);                           \
                __VA_ARGS__                                                             \
            }                                                                           \
        }                                                                               \
    } while (0)

#define ALU_HANDLER(name) static void name(exec_warp *w, const exec_insn *in, uint32_t mask)
/* Lane vectors of the instruction's operands. */
#define ALU_D(i) (w->R + (size_t)in->d[i] * EXEC_WARP_SIZE)
#define ALU_A(i) ((const uint64_t *)(w->R + (size_t)in->a[i] * EXEC_WARP_SIZE))

/* Handlers of one, two or three operands: expr sees the operands a, b, c already read as
 * their C types (TA, TB, TC) and yields the stored bits (zero-extended to 64). */
#define ALU_OP1(name, TA, expr)                                                         \
    ALU_HANDLER(name) {                                                                 \
        uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);                           \
        ALU_LANES(mask, l, { TA a = (TA)A[l]; D[l] = (uint64_t)(expr); });              \
    }
#define ALU_OP2(name, TA, TB, expr)                                                     \
    ALU_HANDLER(name) {                                                                 \
        uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);            \
        ALU_LANES(mask, l, { TA a = (TA)A[l]; TB b = (TB)B[l];                          \
                             D[l] = (uint64_t)(expr); });                               \
    }
#define ALU_OP3(name, TA, TB, TC, expr)                                                 \
    ALU_HANDLER(name) {                                                                 \
        uint64_t *D = ALU_D(0);                                                         \
        const uint64_t *A = ALU_A(0), *B = ALU_A(1), *C = ALU_A(2);                     \
        ALU_LANES(mask, l, { TA a = (TA)A[l]; TB b = (TB)B[l]; TC c = (TC)C[l];         \
                             D[l] = (uint64_t)(expr); });                               \
    }

/* Write predicate p for the lanes in mask from the lane mask bits. */
static inline void alu_write_pred(exec_warp *w, uint32_t p, uint32_t mask, uint32_t bits) {
    w->P[p] = (w->P[p] & ~mask) | (bits & mask);
}

/* ---- float bit patterns ---- */
static inline float alu_f32(uint64_t v) {
    uint32_t b = (uint32_t)v; float f; memcpy(&f, &b, 4); return f;
}
static inline uint64_t alu_f32_bits(float f) {
    uint32_t b; memcpy(&b, &f, 4); return b;
}
static inline double alu_f64(uint64_t v) {
    double f; memcpy(&f, &v, 8); return f;
}
static inline uint64_t alu_f64_bits(double f) {
    uint64_t b; memcpy(&b, &f, 8); return b;
}

/* NaN results, as the H100 produces them (tests/ptx/alu records them):
 * - f32, f16, bf16 arithmetic (abs and neg included) gives the canonical NaN below;
 * - f64 arithmetic passes on the NaN of its first NaN operand, quieted, and an invalid
 *   operation gives 0xfff8000000000000 (as x86 does); f64 min/max give the canonical one. */
#define ALU_F32_CANON_NAN 0x7fffffffu
#define ALU_F64_CANON_NAN 0x7fffffffffffffffull
#define ALU_F16_CANON_NAN 0x7fffu
#define ALU_BF16_CANON_NAN 0x7fffu

/* Result bits of an f32 operation: NaN becomes the canonical NaN. */
static inline uint64_t alu_f32_out(float f) {
    uint32_t b; memcpy(&b, &f, 4);
    return (b & 0x7fffffffu) > 0x7f800000u ? ALU_F32_CANON_NAN : b;
}
/* Result bits of an f64 min/max: NaN becomes the canonical NaN. */
static inline uint64_t alu_f64_out(double f) {
    uint64_t b; memcpy(&b, &f, 8);
    return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull ? ALU_F64_CANON_NAN : b;
}
#define ALU_F64_QUIET 0x0008000000000000ull
/* Result bits of an f64 arithmetic operation with n (1-3) sources: the first NaN source,
 * quieted, or else the host's IEEE result (whose invalid-operation NaN is the GPU's). The
 * explicit order keeps the answer independent of how the compiler orders operands. */
static inline bool alu_f64_isnan_bits(uint64_t b) {
    return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}
static inline uint64_t alu_f64_prop(unsigned n, double a, double b, double c, double r) {
    /* integer tests and selects (no float compares, which GCC will not if-convert), so
     * the lane loop still vectorises */
    const uint64_t ab = alu_f64_bits(a), bb = alu_f64_bits(b), cb = alu_f64_bits(c);
    uint64_t v = alu_f64_bits(r);
    v = (n > 2 && alu_f64_isnan_bits(cb)) ? cb | ALU_F64_QUIET : v;
    v = (n > 1 && alu_f64_isnan_bits(bb)) ? bb | ALU_F64_QUIET : v;
    v = alu_f64_isnan_bits(ab) ? ab | ALU_F64_QUIET : v;
    return v;
}
/* .ftz: a subnormal f32 becomes zero of the same sign. */
static inline float alu_ftz32(float f) {
    uint32_t b; memcpy(&b, &f, 4);
    if ((b & 0x7f800000u) == 0) b &= 0x80000000u;
    memcpy(&f, &b, 4); return f;
}
/* .sat: clamp to [0, 1]; NaN and -0 become +0. On the bits, so that it vectorises. */
static inline float alu_sat32(float f) {
    uint32_t b; memcpy(&b, &f, 4);
    b = (b >> 31) || b > 0x7f800000u ? 0u : b > 0x3f800000u ? 0x3f800000u : b;
    memcpy(&f, &b, 4); return f;
}
static inline double alu_sat64(double f) {
    return f > 0.0 ? (f < 1.0 ? f : 1.0) : 0.0;
}

/* ---- float formats (alu_half.c) ----
 * A format: mantissa bits, exponent bits, whether the all-ones exponent means inf/NaN
 * (e4m3 has no infinity and a single NaN pattern), the NaN the GPU produces, and the
 * largest finite value (both as bit patterns). */
typedef struct alu_fmt {
    uint8_t mbits, ebits;
    bool ieee_special;
    uint64_t nan;
    uint64_t maxfin;
} alu_fmt;

extern const alu_fmt alu_fmt_f16, alu_fmt_bf16, alu_fmt_f32, alu_fmt_f64, alu_fmt_tf32,
    alu_fmt_e4m3, alu_fmt_e5m2;

/* Round the exact value (-1)^neg * mag * 2^exp to format fmt with rounding mode rnd
 * (EXEC_RND_RN/RZ/RM/RP/RNA; anything else means RN). satfinite clamps overflow to the
 * largest finite value. Returns the bit pattern. */
uint64_t alu_round_to_fmt(bool neg, uint64_t mag, int exp, unsigned rnd,
                          const alu_fmt *fmt, bool satfinite);
/* Round a double to fmt (NaN -> fmt's NaN; infinities kept, or clamped by satfinite). */
uint64_t alu_double_to_fmt(double x, unsigned rnd, const alu_fmt *fmt, bool satfinite);
/* Exact value of a bit pattern of fmt. */
double alu_fmt_to_double(uint64_t bits, const alu_fmt *fmt);

/* f16/bf16 <-> float (exact widening; rn narrowing) for the hot paths. */
static inline float alu_h2f(uint16_t h) {
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, b;
    if (e == 0x1f) b = s | 0x7f800000u | (m << 13);          /* inf / NaN */
    else if (e != 0) b = s | ((e + 112u) << 23) | (m << 13);  /* normal */
    else if (m == 0) b = s;                                    /* zero */
    else {                                                     /* subnormal: normalise */
        int sh = __builtin_clz(m) - 21;                        /* m has 10 bits */
        m = (m << sh) & 0x3ffu;
        b = s | ((uint32_t)(113 - sh) << 23) | (m << 13);
    }
    float f; memcpy(&f, &b, 4); return f;
}
static inline float alu_bf2f(uint16_t h) {
    uint32_t b = (uint32_t)h << 16; float f; memcpy(&f, &b, 4); return f;
}
/* float -> f16 / bf16 with round-to-nearest-even (NaN -> canonical). */
uint16_t alu_f2h_rn(float f);
uint16_t alu_f2bf_rn(float f);

/* ---- directed-rounding slow paths (alu_float_round.c) ----
 * Run a float operation for the lanes in mask under the IEEE rounding mode rnd
 * (EXEC_RND_RZ/RM/RP), honouring in->flags' FTZ and SAT. */
typedef enum alu_fop {
    ALU_FOP_ADD, ALU_FOP_SUB, ALU_FOP_MUL, ALU_FOP_FMA, ALU_FOP_DIV, ALU_FOP_SQRT,
    ALU_FOP_RCP
} alu_fop;
void alu_f32_directed(exec_warp *w, const exec_insn *in, uint32_t mask, alu_fop op);
void alu_f64_directed(exec_warp *w, const exec_insn *in, uint32_t mask, alu_fop op);

#endif
