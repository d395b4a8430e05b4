/* exec/alu_bits.c — logic and bit manipulation: and or xor not cnot (bit types and
 * .pred), lop3 (and lop3.or/.and with a predicate result), shl shr shf, prmt, popc clz bfind brev bfe bfi bmsk szext fns.
 */
#include "alu_internal.h"

/* ---- bitwise logic, shifts (per width) ----
 * Shift amounts are .u32 and saturate at the width: shl and shr.u give 0, shr.s fills
 * with the sign. */
#define ALU_LOGIC_OPS(N, U, S)                                                          \
    ALU_OP2(alu_and_##N, U, U, (U)(a & b))                                              \
    ALU_OP2(alu_or_##N, U, U, (U)(a | b))                                               \
    ALU_OP2(alu_xor_##N, U, U, (U)(a ^ b))                                              \
    ALU_OP1(alu_not_##N, U, (U)~a)                                                      \
    ALU_OP1(alu_cnot_##N, U, (U)(a == 0))                                               \
    ALU_OP2(alu_shl_##N, U, uint32_t, (U)(b >= N ? 0 : (uint64_t)a << b))                \
    ALU_OP2(alu_shr_u##N, U, uint32_t, (U)(b >= N ? 0 : a >> b))                         \
    ALU_OP2(alu_shr_s##N, S, uint32_t, (U)(S)(a >> (b >= N ? N - 1 : b)))
ALU_LOGIC_OPS(16, uint16_t, int16_t)
ALU_LOGIC_OPS(32, uint32_t, int32_t)
ALU_LOGIC_OPS(64, uint64_t, int64_t)

/* lop3: the truth table imm has bit (a<<2 | b<<1 | c) set for each true minterm;
 * the result is the OR of the selected minterms, bit by bit. */
#define ALU_LOP3(N, U)                                                                  \
    ALU_HANDLER(alu_lop3_##N) {                                                         \
        uint64_t *D = ALU_D(0);                                                         \
        const uint64_t *A = ALU_A(0), *B = ALU_A(1), *C = ALU_A(2);                     \
        const unsigned lut = (unsigned)in->imm & 0xffu;                                 \
        /* m_k is all ones when minterm k is selected */                                \
        const U m0 = (U)0 - (U)(lut & 1), m1 = (U)0 - (U)((lut >> 1) & 1),              \
                m2 = (U)0 - (U)((lut >> 2) & 1), m3 = (U)0 - (U)((lut >> 3) & 1),       \
                m4 = (U)0 - (U)((lut >> 4) & 1), m5 = (U)0 - (U)((lut >> 5) & 1),       \
                m6 = (U)0 - (U)((lut >> 6) & 1), m7 = (U)0 - (U)((lut >> 7) & 1);       \
        ALU_LANES(mask, l, {                                                            \
            U a = (U)A[l], b = (U)B[l], c = (U)C[l], na = (U)~a, nb = (U)~b, nc = (U)~c;\
            D[l] = (U)((m0 & na & nb & nc) | (m1 & na & nb & c) | (m2 & na & b & nc) |  \
                       (m3 & na & b & c) | (m4 & a & nb & nc) | (m5 & a & nb & c) |     \
                       (m6 & a & b & nc) | (m7 & a & b & c));                           \
        });                                                                             \
    }
ALU_LOP3(32, uint32_t)
/* lop3.or / lop3.and with a predicate result (PTX 8.2): d as lop3 gives it, and
 * p = (d != 0) OR / AND q (q in a[3], p in d[1]). */
#define ALU_LOP3P(N)                                                                    \
    ALU_HANDLER(alu_lop3p_##N) {                                                        \
        alu_lop3_##N(w, in, mask);                                                      \
        const uint64_t *D = ALU_D(0);                                                   \
        uint32_t nz = 0, q = w->P[in->a[3]];                                            \
        ALU_LANES(mask, l, { if (D[l]) nz |= 1u << l; });                               \
        alu_write_pred(w, in->d[1], mask,                                               \
                       ALU_AUX_BOOL(in->aux) == ALU_BOOL_AND ? nz & q : nz | q);        \
    }
ALU_LOP3(64, uint64_t)
ALU_LOP3P(32)
ALU_LOP3P(64)

/* shf: funnel shift of the 64-bit pair {b:a}; .wrap uses c mod 32, .clamp min(c, 32).
 * shf.l returns the upper word of ({b:a} << n), shf.r the lower word of ({b:a} >> n). */
ALU_OP3(alu_shf_l_wrap, uint32_t, uint32_t, uint32_t,
        (uint32_t)(((((uint64_t)b << 32) | a) << (c & 31)) >> 32))
ALU_OP3(alu_shf_l_clamp, uint32_t, uint32_t, uint32_t,
        c >= 32 ? a : (uint32_t)(((((uint64_t)b << 32) | a) << c) >> 32))
ALU_OP3(alu_shf_r_wrap, uint32_t, uint32_t, uint32_t,
        (uint32_t)((((uint64_t)b << 32) | a) >> (c & 31)))
ALU_OP3(alu_shf_r_clamp, uint32_t, uint32_t, uint32_t,
        c >= 32 ? b : (uint32_t)((((uint64_t)b << 32) | a) >> c))

/* ---- prmt ---- */
/* Generic form: each nibble of c picks a byte of {b:a} (bits 0-2); bit 3 replicates the
 * picked byte's sign bit instead. */
static inline uint32_t alu_prmt_generic(uint32_t a, uint32_t b, uint32_t c) {
    uint64_t src = ((uint64_t)b << 32) | a;
    uint32_t r = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned sel = (c >> (4 * i)) & 0xfu;
        uint32_t byte = (uint32_t)(src >> (8 * (sel & 7u))) & 0xffu;
        if (sel & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;
        r |= byte << (8 * i);
    }
    return r;
}
/* Mode forms: the byte selectors for d.b0..d.b3, per c[1:0], packed as four nibbles. */
static const uint16_t alu_prmt_modes[6][4] = {
    /* f4e */ { 0x3210, 0x4321, 0x5432, 0x6543 },
    /* b4e */ { 0x5670, 0x6701, 0x7012, 0x0123 },
    /* rc8 */ { 0x0000, 0x1111, 0x2222, 0x3333 },
    /* ecl */ { 0x3210, 0x3211, 0x3222, 0x3333 },
    /* ecr */ { 0x0000, 0x1110, 0x2210, 0x3210 },
    /* rc16 */ { 0x1010, 0x3232, 0x1010, 0x3232 },
};
ALU_OP3(alu_prmt, uint32_t, uint32_t, uint32_t, alu_prmt_generic(a, b, c))
/* The mode's selector table (no sign replication in mode forms). */
ALU_HANDLER(alu_prmt_mode) {
    uint64_t *D = ALU_D(0);
    const uint64_t *A = ALU_A(0), *B = ALU_A(1), *C = ALU_A(2);
    const uint16_t *tab = alu_prmt_modes[ALU_AUX_VAR(in->aux) - ALU_V_F4E];
    ALU_LANES(mask, l, {
        uint64_t src = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
        unsigned sel = tab[C[l] & 3u];
        uint32_t r = 0;
        for (unsigned i = 0; i < 4; i++)
            r |= (uint32_t)((src >> (8 * ((sel >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
        D[l] = r;
    });
}

/* ---- counting and bit fields ---- */
ALU_OP1(alu_popc_32, uint32_t, (uint32_t)__builtin_popcount(a))
ALU_OP1(alu_popc_64, uint64_t, (uint32_t)__builtin_popcountll(a))
ALU_OP1(alu_clz_32, uint32_t, a ? (uint32_t)__builtin_clz(a) : 32u)
ALU_OP1(alu_clz_64, uint64_t, a ? (uint32_t)__builtin_clzll(a) : 64u)
/* bfind: position of the most significant non-sign bit, 0xffffffff when none;
 * .shiftamt gives msb - position instead. */
ALU_OP1(alu_bfind_u32, uint32_t, a ? 31u - (uint32_t)__builtin_clz(a) : 0xffffffffu)
ALU_OP1(alu_bfind_u64, uint64_t, a ? 63u - (uint32_t)__builtin_clzll(a) : 0xffffffffu)
ALU_OP1(alu_bfind_s32, uint32_t,
        ((a >> 31) ? ~a : a) ? 31u - (uint32_t)__builtin_clz((a >> 31) ? ~a : a) : 0xffffffffu)
ALU_OP1(alu_bfind_s64, uint64_t,
        ((a >> 63) ? ~a : a) ? 63u - (uint32_t)__builtin_clzll((a >> 63) ? ~a : a)
                             : 0xffffffffu)
ALU_OP1(alu_bfind_sa_u32, uint32_t, a ? (uint32_t)__builtin_clz(a) : 0xffffffffu)
ALU_OP1(alu_bfind_sa_u64, uint64_t, a ? (uint32_t)__builtin_clzll(a) : 0xffffffffu)
ALU_OP1(alu_bfind_sa_s32, uint32_t,
        ((a >> 31) ? ~a : a) ? (uint32_t)__builtin_clz((a >> 31) ? ~a : a) : 0xffffffffu)
ALU_OP1(alu_bfind_sa_s64, uint64_t,
        ((a >> 63) ? ~a : a) ? (uint32_t)__builtin_clzll((a >> 63) ? ~a : a) : 0xffffffffu)

static inline uint32_t alu_brev32(uint32_t v) {
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(v);
}
ALU_OP1(alu_brev_32, uint32_t, alu_brev32(a))
ALU_OP1(alu_brev_64, uint64_t,
        ((uint64_t)alu_brev32((uint32_t)a) << 32) | alu_brev32((uint32_t)(a >> 32)))

/* bfe: extract len = c[7:0] bits at pos = b[7:0]; the field is zero- or sign-extended
 * (the sign is the field's top bit, or a's msb when the field runs past it). */
#define ALU_BFE(N, U, S)                                                                \
    static inline U alu_bfe_u##N##_f(U a, uint32_t b, uint32_t c) {                     \
        uint32_t pos = b & 0xffu, len = c & 0xffu;                                      \
        if (len == 0 || pos >= N) return 0;                                             \
        U v = (U)(a >> pos);                                                            \
        return len >= N ? v : (U)(v & (((U)1 << len) - 1));                             \
    }                                                                                   \
    static inline U alu_bfe_s##N##_f(U a, uint32_t b, uint32_t c) {                     \
        uint32_t pos = b & 0xffu, len = c & 0xffu;                                      \
        if (len == 0) return 0;                                                         \
        uint32_t top = pos + len - 1 < N - 1 ? pos + len - 1 : N - 1;                   \
        U sbit = (U)((a >> top) & 1u);                                                  \
        if (pos >= N) return (U)(0 - sbit);                                             \
        U v = (U)(a >> pos);                                                            \
        uint32_t have = N - pos < len ? N - pos : len; /* bits taken from a */          \
        if (have >= N) return v;                                                        \
        U keep = (U)(((U)1 << have) - 1);                                               \
        return (U)((v & keep) | ((U)(0 - sbit) & (U)~keep));                            \
    }                                                                                   \
    ALU_OP3(alu_bfe_u##N, U, uint32_t, uint32_t, alu_bfe_u##N##_f(a, b, c))              \
    ALU_OP3(alu_bfe_s##N, U, uint32_t, uint32_t, alu_bfe_s##N##_f(a, b, c))
ALU_BFE(32, uint32_t, int32_t)
ALU_BFE(64, uint64_t, int64_t)

/* bfi: insert the low len = d[7:0] bits of a into b at pos = c[7:0]. Operands: a, b,
 * c (pos) and a[3] (len). */
#define ALU_BFI(N, U)                                                                   \
    ALU_HANDLER(alu_bfi_##N) {                                                          \
        uint64_t *D = ALU_D(0);                                                         \
        const uint64_t *A = ALU_A(0), *B = ALU_A(1), *C = ALU_A(2), *L = ALU_A(3);      \
        ALU_LANES(mask, l, {                                                            \
            U a = (U)A[l], b = (U)B[l];                                                 \
            uint32_t pos = (uint32_t)C[l] & 0xffu, len = (uint32_t)L[l] & 0xffu;        \
            U r = b;                                                                    \
            if (len != 0 && pos < N) {                                                  \
                uint32_t n = N - pos < len ? N - pos : len;                             \
                U m = n >= N ? (U)~(U)0 : (U)(((U)1 << n) - 1);                         \
                r = (U)((b & (U)~(U)(m << pos)) | ((a & m) << pos));                    \
            }                                                                           \
            D[l] = r;                                                                   \
        });                                                                             \
    }
ALU_BFI(32, uint32_t)
ALU_BFI(64, uint64_t)

/* bmsk: a mask of b bits starting at bit a. */
static inline uint32_t alu_bmsk_f(uint32_t a, uint32_t b, bool clamp) {
    uint32_t a1 = a & 31u, b1 = b & 31u, sum = a1 + b1;
    uint32_t mask0 = 0xffffffffu << a1, mask1 = sum >= 32 ? 0 : 0xffffffffu << sum;
    bool zero_hi = sum >= 32;
    if (clamp) {
        if (a >= 32) mask0 = 0;
        if (b >= 32) zero_hi = true;
    }
    if (zero_hi) mask1 = 0;
    else if (b1 == 0) mask1 = 0xffffffffu;
    return mask0 & ~mask1;
}
ALU_OP2(alu_bmsk_wrap, uint32_t, uint32_t, alu_bmsk_f(a, b, false))
ALU_OP2(alu_bmsk_clamp, uint32_t, uint32_t, alu_bmsk_f(a, b, true))

/* szext: sign- or zero-extend the low b bits of a. */
static inline uint32_t alu_szext_f(uint32_t a, uint32_t b, bool clamp, bool sgn) {
    uint32_t b1 = b & 31u;
    bool too_large = b >= 32 && clamp;
    uint32_t m = too_large ? 0 : 0xffffffffu << b1;
    bool sign = !(b1 == 0 || too_large || !sgn) && ((a >> ((b1 - 1) & 31u)) & 1u);
    return (a & ~m) | (sign ? m : 0);
}
ALU_OP2(alu_szext_wrap_u32, uint32_t, uint32_t, alu_szext_f(a, b, false, false))
ALU_OP2(alu_szext_clamp_u32, uint32_t, uint32_t, alu_szext_f(a, b, true, false))
ALU_OP2(alu_szext_wrap_s32, uint32_t, uint32_t, alu_szext_f(a, b, false, true))
ALU_OP2(alu_szext_clamp_s32, uint32_t, uint32_t, alu_szext_f(a, b, true, true))

/* fns: position of the |offset|-th set bit of mask counting from base (upwards for a
 * positive offset, downwards for a negative one); 0xffffffff when there is none. An
 * offset of INT32_MIN gives 0, as on the H100. */
static inline uint32_t alu_fns_f(uint32_t m, uint32_t base, int32_t offset) {
    base &= 31u; /* base > 31 is undefined; keep it in range */
    if (offset == 0) return ((m >> base) & 1u) ? base : 0xffffffffu;
    if (offset == INT32_MIN) return 0;
    uint32_t count = offset > 0 ? (uint32_t)offset : 0u - (uint32_t)offset;
    uint32_t bits = offset > 0 ? m & (0xffffffffu << base) : m & (0xffffffffu >> (31 - base));
    if ((uint32_t)__builtin_popcount(bits) < count) return 0xffffffffu;
    if (offset > 0) {
        while (--count) bits &= bits - 1;           /* drop the lowest set bits */
        return (uint32_t)__builtin_ctz(bits);
    }
    while (--count) bits &= ~(0x80000000u >> __builtin_clz(bits)); /* drop the highest */
    return 31u - (uint32_t)__builtin_clz(bits);
}
ALU_OP3(alu_fns, uint32_t, uint32_t, int32_t, alu_fns_f(a, b, c))

/* ---- predicate logic: d[0] and sources are predicate indices ---- */
static inline uint32_t alu_pred_src(const exec_warp *w, const exec_insn *in, unsigned i) {
    uint32_t v = w->P[in->a[i]];
    uint32_t neg = i == 0 ? (in->flags & ALU_F_NEG_A0) : (in->flags & ALU_F_NEG_A1);
    return neg ? ~v : v;
}
ALU_HANDLER(alu_and_pred) {
    alu_write_pred(w, in->d[0], mask, alu_pred_src(w, in, 0) & alu_pred_src(w, in, 1));
}
ALU_HANDLER(alu_or_pred) {
    alu_write_pred(w, in->d[0], mask, alu_pred_src(w, in, 0) | alu_pred_src(w, in, 1));
}
ALU_HANDLER(alu_xor_pred) {
    alu_write_pred(w, in->d[0], mask, alu_pred_src(w, in, 0) ^ alu_pred_src(w, in, 1));
}
ALU_HANDLER(alu_not_pred) { alu_write_pred(w, in->d[0], mask, ~alu_pred_src(w, in, 0)); }
ALU_HANDLER(alu_mov_pred) { alu_write_pred(w, in->d[0], mask, alu_pred_src(w, in, 0)); }

/* ---- lookup ---- */
static int alu_bits_width(ptx_type t) {
    char k = ptx_type_kinds[t];
    if (k != 'b' && k != 'u' && k != 's') return -1;
    switch (ptx_type_sizes[t]) {
    case 2: return 0;
    case 4: return 1;
    case 8: return 2;
    default: return -1;
    }
}

exec_fn exec_alu_bits_lookup(const exec_insn *in) {
    ptx_type t = (ptx_type)in->type;
    unsigned var = ALU_AUX_VAR(in->aux);
    bool sgn = ptx_type_kinds[t] == 's';
    if (in->op == PTX_OP_lop3 && ALU_AUX_BOOL(in->aux) && in->nd == 2)
        return t == PTX_T_b32 ? alu_lop3p_32 : t == PTX_T_b64 ? alu_lop3p_64 : NULL;
    if (ALU_AUX_RND(in->aux) != EXEC_RND_DEFAULT || ALU_AUX_BOOL(in->aux) ||
        (in->flags & (EXEC_F_FTZ | EXEC_F_SAT | EXEC_F_APPROX | EXEC_F_CC_IN | EXEC_F_CC_OUT |
                      ALU_F_RELU | ALU_F_NANMODE | ALU_F_SATFINITE | ALU_F_XORSIGN)))
        return NULL;
    if ((in->flags & ALU_F_SHIFTAMT) && in->op != PTX_OP_bfind) return NULL;
    if (t == PTX_T_pred) {
        switch (in->op) {
        case PTX_OP_and: return alu_and_pred;
        case PTX_OP_or: return alu_or_pred;
        case PTX_OP_xor: return alu_xor_pred;
        case PTX_OP_not: return alu_not_pred;
        case PTX_OP_mov: return alu_mov_pred;
        default: return NULL;
        }
    }
    int wi = alu_bits_width(t);
    if (wi < 0) return NULL;
    static const exec_fn and_[3] = { alu_and_16, alu_and_32, alu_and_64 };
    static const exec_fn or_[3] = { alu_or_16, alu_or_32, alu_or_64 };
    static const exec_fn xor_[3] = { alu_xor_16, alu_xor_32, alu_xor_64 };
    static const exec_fn not_[3] = { alu_not_16, alu_not_32, alu_not_64 };
    static const exec_fn cnot_[3] = { alu_cnot_16, alu_cnot_32, alu_cnot_64 };
    static const exec_fn shl_[3] = { alu_shl_16, alu_shl_32, alu_shl_64 };
    static const exec_fn shr_[2][3] = { { alu_shr_u16, alu_shr_u32, alu_shr_u64 },
                                        { alu_shr_s16, alu_shr_s32, alu_shr_s64 } };
    bool bits_only = ptx_type_kinds[t] == 'b';
    switch (in->op) {
    case PTX_OP_and: return bits_only ? and_[wi] : NULL;
    case PTX_OP_or: return bits_only ? or_[wi] : NULL;
    case PTX_OP_xor: return bits_only ? xor_[wi] : NULL;
    case PTX_OP_not: return bits_only ? not_[wi] : NULL;
    case PTX_OP_cnot: return bits_only ? cnot_[wi] : NULL;
    case PTX_OP_shl: return bits_only ? shl_[wi] : NULL;
    case PTX_OP_shr: return shr_[sgn][wi];
    case PTX_OP_lop3:
        return t == PTX_T_b32 ? alu_lop3_32 : t == PTX_T_b64 ? alu_lop3_64 : NULL;
    case PTX_OP_shf:
        if (t != PTX_T_b32) return NULL;
        switch (var) {
        case ALU_V_L_WRAP: return alu_shf_l_wrap;
        case ALU_V_L_CLAMP: return alu_shf_l_clamp;
        case ALU_V_R_WRAP: return alu_shf_r_wrap;
        case ALU_V_R_CLAMP: return alu_shf_r_clamp;
        default: return NULL;
        }
    case PTX_OP_prmt:
        if (t != PTX_T_b32) return NULL;
        if (var == ALU_V_NONE) return alu_prmt;
        return var >= ALU_V_F4E && var <= ALU_V_RC16 ? alu_prmt_mode : NULL;
    case PTX_OP_popc:
        return t == PTX_T_b32 ? alu_popc_32 : t == PTX_T_b64 ? alu_popc_64 : NULL;
    case PTX_OP_clz:
        return t == PTX_T_b32 ? alu_clz_32 : t == PTX_T_b64 ? alu_clz_64 : NULL;
    case PTX_OP_brev:
        return t == PTX_T_b32 ? alu_brev_32 : t == PTX_T_b64 ? alu_brev_64 : NULL;
    case PTX_OP_bfind: {
        if (bits_only || wi == 0) return NULL;
        static const exec_fn tab[2][2][2] = {
            { { alu_bfind_u32, alu_bfind_u64 }, { alu_bfind_s32, alu_bfind_s64 } },
            { { alu_bfind_sa_u32, alu_bfind_sa_u64 }, { alu_bfind_sa_s32, alu_bfind_sa_s64 } } };
        return tab[(in->flags & ALU_F_SHIFTAMT) != 0][sgn][wi - 1];
    }
    case PTX_OP_bfe: {
        if (bits_only || wi == 0) return NULL;
        static const exec_fn tab[2][2] = { { alu_bfe_u32, alu_bfe_u64 },
                                           { alu_bfe_s32, alu_bfe_s64 } };
        return tab[sgn][wi - 1];
    }
    case PTX_OP_bfi:
        return t == PTX_T_b32 ? alu_bfi_32 : t == PTX_T_b64 ? alu_bfi_64 : NULL;
    case PTX_OP_bmsk:
        if (t != PTX_T_b32) return NULL;
        return var == ALU_V_WRAP ? alu_bmsk_wrap : var == ALU_V_CLAMP ? alu_bmsk_clamp : NULL;
    case PTX_OP_szext:
        if (t == PTX_T_u32)
            return var == ALU_V_WRAP ? alu_szext_wrap_u32
                 : var == ALU_V_CLAMP ? alu_szext_clamp_u32 : NULL;
        if (t == PTX_T_s32)
            return var == ALU_V_WRAP ? alu_szext_wrap_s32
                 : var == ALU_V_CLAMP ? alu_szext_clamp_s32 : NULL;
        return NULL;
    case PTX_OP_fns:
        return t == PTX_T_b32 ? alu_fns : NULL;
    default:
        return NULL;
    }
}
