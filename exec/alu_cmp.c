/* exec/alu_cmp.c — comparison and selection: setp and set (every comparison for every
 * integer and float type, .ftz, the .and/.or/.xor combination with a third predicate,
 * the p|q dual destination, f16x2/bf16x2 pairs), selp, slct, testp.
 *
 * A comparison first builds a lane mask of results (one generated function per type and
 * comparison); setp and set then combine and write it, which costs a few mask operations
 * per warp, not per lane.
 */
#include <math.h>
#include "alu_internal.h"

/* ---- operand readers (x is the slot, already shifted for the upper half of x2) ---- */
#define R_u16(x) ((uint16_t)(x))
#define R_s16(x) ((int16_t)(x))
#define R_u32(x) ((uint32_t)(x))
#define R_s32(x) ((int32_t)(x))
#define R_u64(x) ((uint64_t)(x))
#define R_s64(x) ((int64_t)(x))
#define R_f32(x) alu_f32(x)
#define R_f32ftz(x) alu_ftz32(alu_f32(x))
#define R_f64(x) alu_f64(x)
#define R_f16(x) alu_h2f((uint16_t)(x))
#define R_f16ftz(x) alu_ftz32(alu_h2f((uint16_t)(((uint16_t)(x) & 0x7c00u) ? (uint16_t)(x) \
                                                   : (uint16_t)(x) & 0x8000u)))
#define R_bf16(x) alu_bf2f((uint16_t)(x))

/* ---- comparison expressions ---- */
#define C_eq(a, b) ((a) == (b))
#define C_ne(a, b) ((a) != (b))
#define C_lt(a, b) ((a) < (b))
#define C_le(a, b) ((a) <= (b))
#define C_gt(a, b) ((a) > (b))
#define C_ge(a, b) ((a) >= (b))
/* floats: ordered forms are false on NaN, unordered forms true */
#define F_ne(a, b) ((a) < (b) || (a) > (b))
#define F_equ(a, b) (!((a) < (b) || (a) > (b)))
#define F_neu(a, b) (!((a) == (b)))
#define F_ltu(a, b) (!((a) >= (b)))
#define F_leu(a, b) (!((a) > (b)))
#define F_gtu(a, b) (!((a) <= (b)))
#define F_geu(a, b) (!((a) < (b)))
#define F_num(a, b) ((a) == (a) && (b) == (b))
#define F_nan(a, b) ((a) != (a) || (b) != (b))

/* X(type name, reader, comparison name, expression), in alu_cmp_index order */
#define ALU_INT_CMPS(X, T, R)                                                           \
    X(T, R, eq, C_eq) X(T, R, ne, C_ne) X(T, R, lt, C_lt)                               \
    X(T, R, le, C_le) X(T, R, gt, C_gt) X(T, R, ge, C_ge)
#define ALU_FLT_CMPS(X, T, R)                                                           \
    X(T, R, eq, C_eq) X(T, R, ne, F_ne) X(T, R, lt, C_lt)                               \
    X(T, R, le, C_le) X(T, R, gt, C_gt) X(T, R, ge, C_ge)                               \
    X(T, R, equ, F_equ) X(T, R, neu, F_neu) X(T, R, ltu, F_ltu)                         \
    X(T, R, leu, F_leu) X(T, R, gtu, F_gtu) X(T, R, geu, F_geu)                         \
    X(T, R, num, F_num) X(T, R, nan, F_nan)
#define ALU_NCMP_INT 6
#define ALU_NCMP_FLT 14

/* ---- writing the results ---- */
static inline uint32_t alu_combine(const exec_warp *w, const exec_insn *in, uint32_t t) {
    const unsigned op = ALU_AUX_BOOL(in->aux);
    if (op == ALU_BOOL_NONE) return t;
    uint32_t c = w->P[in->a[2]];
    if (in->flags & EXEC_F_NEG_A2) c = ~c;
    return op == ALU_BOOL_AND ? t & c : op == ALU_BOOL_OR ? t | c : t ^ c;
}
/* setp: p = t BoolOp c; q = !t BoolOp c. */
static inline __attribute__((always_inline)) void alu_setp_out(exec_warp *w,
                                                               const exec_insn *in,
                                                               uint32_t mask, uint32_t t) {
    if (ALU_AUX_BOOL(in->aux) == ALU_BOOL_NONE) { /* the common case: no combining */
        alu_write_pred(w, in->d[0], mask, t);
        if (in->flags & EXEC_F_D2_PRED) alu_write_pred(w, in->d[1], mask, ~t);
        return;
    }
    const uint32_t p = alu_combine(w, in, t);
    const uint32_t q = alu_combine(w, in, ~t);
    alu_write_pred(w, in->d[0], mask, p);
    if (in->flags & EXEC_F_D2_PRED) alu_write_pred(w, in->d[1], mask, q);
}
/* setp on a pair: p from the lower halves, q from the upper halves. */
static inline void alu_setp_x2_out(exec_warp *w, const exec_insn *in, uint32_t mask,
                                   uint32_t t0, uint32_t t1) {
    alu_write_pred(w, in->d[0], mask, alu_combine(w, in, t0));
    if (in->flags & EXEC_F_D2_PRED) alu_write_pred(w, in->d[1], mask, alu_combine(w, in, t1));
}
/* The value set writes for "true", by destination type (whole value, and per half of a
 * pair result). The ISA says 1.0 for the float types; the H100 (CUDA 13's ptxas) writes
 * the integer 1 for .f32 and .f16 results, and 1.0 in each half of .f16x2 and .bf16x2
 * results, so those are the values used here (tests/ptx/alu records them). */
static uint64_t alu_set_true(ptx_type t) {
    static const uint64_t tab[PTX_T_COUNT] = {
        [PTX_T_u16] = 0xffffu, [PTX_T_s16] = 0xffffu, [PTX_T_b16] = 0xffffu,
        [PTX_T_u32] = 0xffffffffu, [PTX_T_s32] = 0xffffffffu, [PTX_T_b32] = 0xffffffffu,
        [PTX_T_f32] = 1u, [PTX_T_f16] = 1u, [PTX_T_bf16] = 1u,
        [PTX_T_f16x2] = 0x3c00u, [PTX_T_bf16x2] = 0x3f80u,
    };
    return tab[t];
}
static inline void alu_set_out(exec_warp *w, const exec_insn *in, uint32_t mask, uint32_t t) {
    const uint32_t r = alu_combine(w, in, t);
    const uint64_t tv = alu_set_true((ptx_type)in->type);
    uint64_t *D = ALU_D(0);
    ALU_LANES(mask, l, { D[l] = ((r >> l) & 1u) ? tv : 0; });
}
static inline void alu_set_x2_out(exec_warp *w, const exec_insn *in, uint32_t mask,
                                  uint32_t t0, uint32_t t1) {
    const uint32_t r0 = alu_combine(w, in, t0), r1 = alu_combine(w, in, t1);
    const ptx_type dt = (ptx_type)in->type;
    const uint64_t tv = ptx_type_kinds[dt] == 'x' ? alu_set_true(dt) : 0xffffu;
    uint64_t *D = ALU_D(0);
    ALU_LANES(mask, l, {
        D[l] = (((r0 >> l) & 1u) ? tv : 0) | ((((r1 >> l) & 1u) ? tv : 0) << 16);
    });
}

/* 32 booleans (0/1 bytes) to a lane mask: a multiply gathers the low bit of each of 8
 * bytes into the top byte. */
static inline uint32_t alu_pack_bools(const uint8_t r[EXEC_WARP_SIZE]) {
    uint32_t bits = 0;
    for (unsigned k = 0; k < 4; k++) {
        uint64_t q;
        memcpy(&q, r + 8 * k, 8);
        bits |= (uint32_t)((q * 0x0102040810204080ull) >> 56) << (8 * k);
    }
    return bits;
}

/* ---- generated comparisons ---- */
/* The full-mask path compares all lanes into bytes (a loop that vectorises) and packs. */
#define ALU_CMP_DEF(T, R, C, EXPR)                                                      \
    static inline uint32_t alu_cm_##T##_##C(const uint64_t *A, const uint64_t *B,       \
                                            uint32_t mask, unsigned sh) {               \
        uint32_t bits = 0;                                                              \
        if (mask == EXEC_FULL_MASK) {                                                   \
            uint8_t r[EXEC_WARP_SIZE];                                                  \
            for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++)                               \
                r[l] = (uint8_t)(EXPR(R(A[l] >> sh), R(B[l] >> sh)) != 0);               \
            bits = alu_pack_bools(r);                                                   \
        } else {                                                                        \
            ALU_CM_PARTIAL(R, EXPR);                                                    \
        }                                                                               \
        return bits;                                                                    \
    }                                                                                   \
    ALU_CMP_HANDLERS(T, C)
#define ALU_CM_PARTIAL(R, EXPR)                                                         \
    for (uint32_t m = mask; m; m &= m - 1) {                                            \
        uint32_t l = (uint32_t)__builtin_ctz(m);                                        \
        bits |= (uint32_t)(EXPR(R(A[l] >> sh), R(B[l] >> sh)) != 0) << l;                \
    }
#define ALU_CMP_HANDLERS(T, C)                                                          \
    ALU_HANDLER(alu_setp_##T##_##C) {                                                   \
        alu_setp_out(w, in, mask, alu_cm_##T##_##C(ALU_A(0), ALU_A(1), mask, 0));       \
    }                                                                                   \
    ALU_HANDLER(alu_set_##T##_##C) {                                                    \
        alu_set_out(w, in, mask, alu_cm_##T##_##C(ALU_A(0), ALU_A(1), mask, 0));        \
    }

/* 32-bit integers, the comparisons of nearly every branch: with every lane active, the
 * low halves of four slots are gathered into one vector of 4 x 32 bits and compared at
 * once; each lane's result selects its bit of the mask (GCC/clang vector extension:
 * SSE2 or NEON as the target has). */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define ALU_CMP_V32 1
typedef uint32_t alu_v4u32 __attribute__((vector_size(16)));
typedef int32_t alu_v4s32 __attribute__((vector_size(16)));
/* lanes 0..3 of A, low 32 bits each */
static inline alu_v4u32 alu_low4(const uint64_t *A) {
    alu_v4u32 x01, x23;
    memcpy(&x01, A, 16);
    memcpy(&x23, A + 2, 16);
    return __builtin_shufflevector(x01, x23, 0, 2, 4, 6);
}
#endif
#ifdef ALU_CMP_V32
#define ALU_CMP_DEF_V32(T, R, C, EXPR)                                                  \
    static inline uint32_t alu_cm_##T##_##C(const uint64_t *A, const uint64_t *B,       \
                                            uint32_t mask, unsigned sh) {               \
        uint32_t bits = 0;                                                              \
        if (mask == EXEC_FULL_MASK && sh == 0) {                                        \
            alu_v4s32 acc = {0, 0, 0, 0}, bit = {1, 2, 4, 8};                           \
            for (uint32_t k = 0; k < EXEC_WARP_SIZE; k += 4) {                          \
                acc |= (alu_v4s32)EXPR((ALU_VT_##T)alu_low4(A + k),                     \
                                       (ALU_VT_##T)alu_low4(B + k)) & bit;              \
                bit <<= 4;                                                              \
            }                                                                           \
            bits = (uint32_t)(acc[0] | acc[1] | acc[2] | acc[3]);                       \
        } else {                                                                        \
            ALU_CM_PARTIAL(R, EXPR);                                                    \
        }                                                                               \
        return bits;                                                                    \
    }                                                                                   \
    ALU_CMP_HANDLERS(T, C)
#define ALU_VT_u32 alu_v4u32
#define ALU_VT_s32 alu_v4s32
#else
#define ALU_CMP_DEF_V32 ALU_CMP_DEF
#endif
#define ALU_CMP_DEF_X2(T, R, C, EXPR)                                                   \
    ALU_CMP_DEF(T, R, C, EXPR)                                                          \
    ALU_HANDLER(alu_setp_##T##x2_##C) {                                                 \
        alu_setp_x2_out(w, in, mask, alu_cm_##T##_##C(ALU_A(0), ALU_A(1), mask, 0),     \
                        alu_cm_##T##_##C(ALU_A(0), ALU_A(1), mask, 16));                \
    }                                                                                   \
    ALU_HANDLER(alu_set_##T##x2_##C) {                                                  \
        alu_set_x2_out(w, in, mask, alu_cm_##T##_##C(ALU_A(0), ALU_A(1), mask, 0),      \
                       alu_cm_##T##_##C(ALU_A(0), ALU_A(1), mask, 16));                 \
    }

ALU_INT_CMPS(ALU_CMP_DEF, u16, R_u16)
ALU_INT_CMPS(ALU_CMP_DEF, s16, R_s16)
ALU_INT_CMPS(ALU_CMP_DEF_V32, u32, R_u32)
ALU_INT_CMPS(ALU_CMP_DEF_V32, s32, R_s32)
ALU_INT_CMPS(ALU_CMP_DEF, u64, R_u64)
ALU_INT_CMPS(ALU_CMP_DEF, s64, R_s64)
ALU_FLT_CMPS(ALU_CMP_DEF, f32, R_f32)
ALU_FLT_CMPS(ALU_CMP_DEF, f32ftz, R_f32ftz)
ALU_FLT_CMPS(ALU_CMP_DEF, f64, R_f64)
ALU_FLT_CMPS(ALU_CMP_DEF_X2, f16, R_f16)
ALU_FLT_CMPS(ALU_CMP_DEF_X2, f16ftz, R_f16ftz)
ALU_FLT_CMPS(ALU_CMP_DEF_X2, bf16, R_bf16)

/* Tables [type row][comparison]. */
#define ALU_E_SETP(T, R, C, EXPR) alu_setp_##T##_##C,
#define ALU_E_SET(T, R, C, EXPR) alu_set_##T##_##C,
#define ALU_E_SETP_X2(T, R, C, EXPR) alu_setp_##T##x2_##C,
#define ALU_E_SET_X2(T, R, C, EXPR) alu_set_##T##x2_##C,
static const exec_fn alu_setp_int[6][ALU_NCMP_INT] = {
    { ALU_INT_CMPS(ALU_E_SETP, u16, R_u16) }, { ALU_INT_CMPS(ALU_E_SETP, s16, R_s16) },
    { ALU_INT_CMPS(ALU_E_SETP, u32, R_u32) }, { ALU_INT_CMPS(ALU_E_SETP, s32, R_s32) },
    { ALU_INT_CMPS(ALU_E_SETP, u64, R_u64) }, { ALU_INT_CMPS(ALU_E_SETP, s64, R_s64) },
};
static const exec_fn alu_set_int[6][ALU_NCMP_INT] = {
    { ALU_INT_CMPS(ALU_E_SET, u16, R_u16) }, { ALU_INT_CMPS(ALU_E_SET, s16, R_s16) },
    { ALU_INT_CMPS(ALU_E_SET, u32, R_u32) }, { ALU_INT_CMPS(ALU_E_SET, s32, R_s32) },
    { ALU_INT_CMPS(ALU_E_SET, u64, R_u64) }, { ALU_INT_CMPS(ALU_E_SET, s64, R_s64) },
};
enum { ALU_CF_F32, ALU_CF_F32FTZ, ALU_CF_F64, ALU_CF_F16, ALU_CF_F16FTZ, ALU_CF_BF16,
       ALU_CF_COUNT };
static const exec_fn alu_setp_flt[ALU_CF_COUNT][ALU_NCMP_FLT] = {
    { ALU_FLT_CMPS(ALU_E_SETP, f32, R_f32) }, { ALU_FLT_CMPS(ALU_E_SETP, f32ftz, R_f32ftz) },
    { ALU_FLT_CMPS(ALU_E_SETP, f64, R_f64) }, { ALU_FLT_CMPS(ALU_E_SETP, f16, R_f16) },
    { ALU_FLT_CMPS(ALU_E_SETP, f16ftz, R_f16ftz) }, { ALU_FLT_CMPS(ALU_E_SETP, bf16, R_bf16) },
};
static const exec_fn alu_set_flt[ALU_CF_COUNT][ALU_NCMP_FLT] = {
    { ALU_FLT_CMPS(ALU_E_SET, f32, R_f32) }, { ALU_FLT_CMPS(ALU_E_SET, f32ftz, R_f32ftz) },
    { ALU_FLT_CMPS(ALU_E_SET, f64, R_f64) }, { ALU_FLT_CMPS(ALU_E_SET, f16, R_f16) },
    { ALU_FLT_CMPS(ALU_E_SET, f16ftz, R_f16ftz) }, { ALU_FLT_CMPS(ALU_E_SET, bf16, R_bf16) },
};
static const exec_fn alu_setp_x2[3][ALU_NCMP_FLT] = {
    { ALU_FLT_CMPS(ALU_E_SETP_X2, f16, R_f16) },
    { ALU_FLT_CMPS(ALU_E_SETP_X2, f16ftz, R_f16ftz) },
    { ALU_FLT_CMPS(ALU_E_SETP_X2, bf16, R_bf16) },
};
static const exec_fn alu_set_x2[3][ALU_NCMP_FLT] = {
    { ALU_FLT_CMPS(ALU_E_SET_X2, f16, R_f16) },
    { ALU_FLT_CMPS(ALU_E_SET_X2, f16ftz, R_f16ftz) },
    { ALU_FLT_CMPS(ALU_E_SET_X2, bf16, R_bf16) },
};

/* ---- selp, slct ----
 * Slots hold values zero-extended, so a 64-bit select is right for every width. */
ALU_HANDLER(alu_selp) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1);
    const uint32_t p = w->P[in->a[2]];
    ALU_LANES(mask, l, { D[l] = ((p >> l) & 1u) ? A[l] : B[l]; });
}
/* slct d, a, b, c: c >= 0 ? a : b (c is s32, or f32 where NaN selects b). */
ALU_HANDLER(alu_slct_s32) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1), *C = ALU_A(2);
    ALU_LANES(mask, l, { D[l] = (int32_t)C[l] >= 0 ? A[l] : B[l]; });
}
ALU_HANDLER(alu_slct_f32) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1), *C = ALU_A(2);
    ALU_LANES(mask, l, { D[l] = alu_f32(C[l]) >= 0.0f ? A[l] : B[l]; });
}
ALU_HANDLER(alu_slct_f32_ftz) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0), *B = ALU_A(1), *C = ALU_A(2);
    ALU_LANES(mask, l, { D[l] = alu_ftz32(alu_f32(C[l])) >= 0.0f ? A[l] : B[l]; });
}

/* ---- testp (zeros count as normal) ---- */
#define ALU_TESTP(T, READ, ABSBITS, EXPMASK)                                            \
    static inline bool alu_tp_finite_##T(uint64_t v) { return (READ(v) & EXPMASK) != EXPMASK; } \
    static inline bool alu_tp_infinite_##T(uint64_t v) { return READ(v) == EXPMASK; }   \
    static inline bool alu_tp_number_##T(uint64_t v) { return READ(v) <= EXPMASK; }      \
    static inline bool alu_tp_notanumber_##T(uint64_t v) { return READ(v) > EXPMASK; }   \
    static inline bool alu_tp_normal_##T(uint64_t v) {                                  \
        return (READ(v) & EXPMASK) != EXPMASK && ((READ(v) & EXPMASK) != 0 || READ(v) == 0); \
    }                                                                                   \
    static inline bool alu_tp_subnormal_##T(uint64_t v) {                               \
        return (READ(v) & EXPMASK) == 0 && READ(v) != 0;                                \
    }
#define ALU_ABS32(v) ((uint32_t)(v) & 0x7fffffffu)
#define ALU_ABS64(v) ((v) & 0x7fffffffffffffffull)
ALU_TESTP(f32, ALU_ABS32, 0x7fffffffu, 0x7f800000u)
ALU_TESTP(f64, ALU_ABS64, 0x7fffffffffffffffull, 0x7ff0000000000000ull)
#define ALU_TESTP_HANDLER(C, T)                                                         \
    ALU_HANDLER(alu_testp_##C##_##T) {                                                  \
        const uint64_t *A = ALU_A(0);                                                   \
        uint32_t bits = 0;                                                              \
        for (uint32_t m = mask; m; m &= m - 1) {                                        \
            uint32_t l = (uint32_t)__builtin_ctz(m);                                    \
            bits |= (uint32_t)alu_tp_##C##_##T(A[l]) << l;                              \
        }                                                                               \
        alu_write_pred(w, in->d[0], mask, bits);                                        \
    }
#define ALU_TESTP_CLASSES(X, T)                                                         \
    X(finite, T) X(infinite, T) X(number, T) X(notanumber, T) X(normal, T) X(subnormal, T)
ALU_TESTP_CLASSES(ALU_TESTP_HANDLER, f32)
ALU_TESTP_CLASSES(ALU_TESTP_HANDLER, f64)
#define ALU_E_TESTP(C, T) alu_testp_##C##_##T,
static const exec_fn alu_testp_tab[2][6] = {
    { ALU_TESTP_CLASSES(ALU_E_TESTP, f32) }, { ALU_TESTP_CLASSES(ALU_E_TESTP, f64) } };

/* ---- lookup ---- */

/* Index of a comparison in ALU_INT_CMPS / ALU_FLT_CMPS order, -1 if not one; the
 * unsigned spellings lo ls hi hs map to lt le gt ge (the caller checks the type). */
static int alu_cmp_index(unsigned var) {
    switch (var) {
    case ALU_V_EQ: return 0;
    case ALU_V_NE: return 1;
    case ALU_V_LT: case ALU_V_LO_CMP: return 2;
    case ALU_V_LE: case ALU_V_LS: return 3;
    case ALU_V_GT: case ALU_V_HI_CMP: return 4;
    case ALU_V_GE: case ALU_V_HS: return 5;
    case ALU_V_EQU: return 6;
    case ALU_V_NEU: return 7;
    case ALU_V_LTU: return 8;
    case ALU_V_LEU: return 9;
    case ALU_V_GTU: return 10;
    case ALU_V_GEU: return 11;
    case ALU_V_NUM: return 12;
    case ALU_V_NAN: return 13;
    default: return -1;
    }
}

/* The comparison handler for source type st (setp when is_setp, else set). */
static exec_fn alu_cmp_pick(ptx_type st, unsigned var, bool ftz, bool is_setp) {
    const int ci = alu_cmp_index(var);
    if (ci < 0) return NULL;
    const bool unsigned_spelling = var == ALU_V_LO_CMP || var == ALU_V_LS ||
                                   var == ALU_V_HI_CMP || var == ALU_V_HS;
    const char k = ptx_type_kinds[st];
    if (k == 'u' || k == 's' || k == 'b') {
        if (ftz || ci >= ALU_NCMP_INT) return NULL;
        if (k == 's' && unsigned_spelling) return NULL;
        /* bit types compare only for (in)equality; as unsigned */
        if (k == 'b' && ci > 1 && !unsigned_spelling) return NULL;
        int row;
        switch (ptx_type_sizes[st]) {
        case 2: row = 0; break;
        case 4: row = 2; break;
        case 8: row = 4; break;
        default: return NULL;
        }
        row += k == 's';
        return is_setp ? alu_setp_int[row][ci] : alu_set_int[row][ci];
    }
    if (unsigned_spelling) return NULL;
    int row;
    switch (st) {
    case PTX_T_f32: row = ftz ? ALU_CF_F32FTZ : ALU_CF_F32; break;
    case PTX_T_f64: if (ftz) return NULL; row = ALU_CF_F64; break;
    case PTX_T_f16: row = ftz ? ALU_CF_F16FTZ : ALU_CF_F16; break;
    case PTX_T_bf16: if (ftz) return NULL; row = ALU_CF_BF16; break;
    case PTX_T_f16x2:
        return is_setp ? alu_setp_x2[ftz ? 1 : 0][ci] : alu_set_x2[ftz ? 1 : 0][ci];
    case PTX_T_bf16x2:
        if (ftz) return NULL;
        return is_setp ? alu_setp_x2[2][ci] : alu_set_x2[2][ci];
    default: return NULL;
    }
    return is_setp ? alu_setp_flt[row][ci] : alu_set_flt[row][ci];
}

exec_fn exec_alu_cmp_lookup(const exec_insn *in) {
    const ptx_type t = (ptx_type)in->type;
    const unsigned var = ALU_AUX_VAR(in->aux);
    const bool ftz = in->flags & EXEC_F_FTZ;
    switch (in->op) {
    case PTX_OP_setp:
        return alu_cmp_pick(t, var, ftz, true);
    case PTX_OP_set: {
        /* type = destination, type2 = source; pair sources need pair or 32-bit results */
        const ptx_type st = (ptx_type)in->type2;
        const bool pair = st == PTX_T_f16x2 || st == PTX_T_bf16x2;
        if (pair ? !(t == st || t == PTX_T_u32 || t == PTX_T_s32)
                 : (alu_set_true(t) == 0 || ptx_type_kinds[t] == 'x'))
            return NULL;
        return alu_cmp_pick(st, var, ftz, false);
    }
    case PTX_OP_selp:
        return ptx_type_sizes[t] >= 2 && ptx_type_sizes[t] <= 8 && ptx_type_kinds[t] != 'x'
                   ? alu_selp : NULL;
    case PTX_OP_slct: {
        const ptx_type ct = (ptx_type)in->type2;
        if (ptx_type_sizes[t] < 2 || ptx_type_sizes[t] > 8 || ptx_type_kinds[t] == 'x')
            return NULL;
        if (ct == PTX_T_s32) return ftz ? NULL : alu_slct_s32;
        if (ct == PTX_T_f32) return ftz ? alu_slct_f32_ftz : alu_slct_f32;
        return NULL;
    }
    case PTX_OP_testp: {
        if (t != PTX_T_f32 && t != PTX_T_f64) return NULL;
        if (var < ALU_V_FINITE || var > ALU_V_SUBNORMAL) return NULL;
        return alu_testp_tab[t == PTX_T_f64][var - ALU_V_FINITE];
    }
    default:
        return NULL;
    }
}
