/* exec/alu_video.c — the video instructions: operations on the bytes, halves or whole of
 * 32-bit words, as the PTX ISA defines them.
 *
 * Scalar forms (one result):
 *   vop.dtype.atype.btype{.sat}{.op2}  d{.dsel}, a{.asel}, b{.bsel}{, c}
 *       vop vadd vsub vabsdiff vmin vmax; a and b are a byte (.b0-.b3), a half (.h0/.h1)
 *       or the whole word, sign- or zero-extended by their types; the exact result is
 *       truncated to 34 bits, clamped to .dtype's range with .sat, then either combined
 *       with c by .op2 (.add, .min, .max) or, with .dsel, written into that byte or half
 *       of c (the other bits are c's; .sat and .h1 into a field as an H200 does them:
 *       vid_finish).
 *   vshl/vshr.dtype.atype.u32{.sat}.mode{.op2}  the same with a shifted by b, clamped to 32
 *       (.clamp) or taken modulo 32 (.wrap); vshr shifts arithmetically for a signed a.
 *   vset.atype.btype.cmp{.op2}  d{.dsel}, a, b{, c}   1 or 0, as a comparison says.
 *   vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15}  d, {-}a, {-}b, {-}c   (a*b)+c exactly
 *       (128 bits): a negated product or c is its ones' complement plus one, .po adds
 *       one, the sum is shifted right 7 or 15 bits and clamped to 32 bits signed (when
 *       any operand is signed or negated, or with .po) or unsigned.
 * SIMD forms (two halves or four bytes at once):
 *   vop2/vop4.dtype.atype.btype{.sat}  d{.mask}, a{.asel}, b{.bsel}, c
 *   vop2/vop4.dtype.atype.btype.add    d{.mask}, a{.asel}, b{.bsel}, c
 *       vop vadd vsub vavrg vabsdiff vmin vmax, and vset2/vset4.atype.btype.cmp{.add};
 *       each element of a and b is picked from the halves (bytes) of the pair {b, a} by
 *       the selector (a's default .h10/.b3210, b's .h32/.b7654); .sat clamps each result to
 *       the element range of .dtype; the merge form writes the elements of the mask (all by
 *       default) and keeps c's others, .add sums the mask's elements into c.
 * CUDA's SIMD intrinsics (__vabsdiffu4, __vsadu4, ...) reach the device as the SIMD forms
 * in inline PTX; nvcc emits no scalar form for CUDA C++.
 * tests/cuda/hopper/video_scalar.cu, video_more.cu, video_sat_sel.cu, video_shift_sel.cu and
 * video_shift_op2.cu hold an H200's results.
 */
#include "alu_internal.h"

/* exec_insn.aux fields */
#define VID_KIND(aux)   ((aux) & 0xfu)
enum { VK_ARITH, VK_SHIFT, VK_MAD, VK_SET, VK_SIMD, VK_SIMD_SET };
#define VID_D_SIGNED    (1u << 4)
#define VID_A_SIGNED    (1u << 5)
#define VID_B_SIGNED    (1u << 6)
#define VID_SAT         (1u << 7)
#define VID_OP2(aux)    (((aux) >> 8) & 3u)  /* 0 none, then .add .min .max */
#define VID_CLAMP       (1u << 10)           /* vshl/vshr .clamp, else .wrap */
#define VID_CMP(aux)    (((aux) >> 11) & 7u) /* eq ne lt le gt ge */
#define VID_PO          (1u << 14)
#define VID_NEG_AB      (1u << 15)
#define VID_NEG_C       (1u << 16)
#define VID_SCALE(aux)  (((aux) >> 17) & 3u) /* 0, .shr7, .shr15 */
#define VID_FOUR        (1u << 19)           /* SIMD: bytes, else halves */
enum { OP2_NONE, OP2_ADD, OP2_MIN, OP2_MAX };
/* exec_insn.imm: the selectors of a (bits 0-15), b (16-31), d (32-47), as PTX_SEL_* */
#define VID_SEL(imm, k) ((uint16_t)((uint64_t)(imm) >> (16 * (k))))

typedef __int128 vid_wide;

/* A scalar operand: the byte or half sel names (or the word), extended by its sign. */
static int64_t vid_part(uint32_t v, uint16_t sel, bool sign) {
    unsigned bits = 32, sh = 0;
    if (sel) {
        bits = (sel & PTX_SEL_HALF) ? 16 : 8;
        sh = PTX_SEL_DIGIT(sel, 0) * bits;
    }
    uint64_t e = ((uint64_t)v >> sh) & ((1ull << bits) - 1);
    if (sign && (e >> (bits - 1))) return (int64_t)e - ((int64_t)1 << bits);
    return (int64_t)e;
}

/* Clamp t to the range of a signed or unsigned field of bits. */
static vid_wide vid_clamp(vid_wide t, bool sign, unsigned bits) {
    vid_wide lo = sign ? -((vid_wide)1 << (bits - 1)) : 0;
    vid_wide hi = sign ? ((vid_wide)1 << (bits - 1)) - 1 : ((vid_wide)1 << bits) - 1;
    return t < lo ? lo : t > hi ? hi : t;
}

static bool vid_cmp(unsigned cmp, int64_t a, int64_t b) {
    switch (cmp) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
    }
}

/* vmad: (a*b)+c as the ISA's pseudo-code computes it, in 128 bits. */
static uint32_t vid_mad(uint32_t aux, int64_t ta, int64_t tb, uint32_t c) {
    /* .po counts as signed: the H200 sign-extends c for vmad.u32.u32.u32.po (video_more.cu) */
    bool sign = (aux & (VID_A_SIGNED | VID_B_SIGNED | VID_NEG_AB | VID_NEG_C | VID_PO)) != 0;
    vid_wide tmp = (vid_wide)ta * tb, lsb = 0;
    if (aux & VID_PO) lsb = 1;
    else if (aux & VID_NEG_AB) { tmp = ~tmp; lsb = 1; }
    else if (aux & VID_NEG_C) { c = ~c; lsb = 1; }
    vid_wide cw = sign ? (vid_wide)(int32_t)c : (vid_wide)c;
    tmp = tmp + cw + lsb;
    if (VID_SCALE(aux) == 1) tmp >>= 7;
    else if (VID_SCALE(aux) == 2) tmp >>= 15;
    if (aux & VID_SAT) tmp = vid_clamp(tmp, sign, 32);
    return (uint32_t)tmp;
}

/* A scalar form's result t, saturated, then combined with c by .op2 or merged into the
 * byte or half .dsel names. */
static uint32_t vid_finish(uint32_t aux, uint16_t dsel, vid_wide t, uint32_t c) {
    bool ds = aux & VID_D_SIGNED;
    if (dsel) {
        /* What an H200 writes into a byte or half of c (tests/cuda/hopper/video_sat_sel.cu
         * and video_shift_sel.cu, every dsel, u32 and s32). .sat of vadd, vsub, vmin, vmax
         * and vabsdiff clamps a negative result to the field's largest value, not its
         * smallest (0xff, 0x7f, 0xffff, 0x7fff), and a larger one to that largest value;
         * .sat of vshl and vshr clamps to .dtype's whole 32-bit range. Then .h1 receives
         * bits 16-31 of the result, not its low half, for every operation (so 0 for vset's
         * 0 or 1), and the other fields its low bits. */
        unsigned bits = (dsel & PTX_SEL_HALF) ? 16 : 8;
        if ((aux & VID_SAT) && VID_KIND(aux) == VK_ARITH) {
            vid_wide hi = ds ? ((vid_wide)1 << (bits - 1)) - 1 : ((vid_wide)1 << bits) - 1;
            t = t < 0 || t > hi ? hi : t;
        } else if (aux & VID_SAT) {
            t = vid_clamp(t, ds, 32);
        }
        if (dsel == (PTX_SEL_PRESENT | PTX_SEL_HALF | 1u))
            return (c & 0xffffu) | ((uint32_t)(uint64_t)t & 0xffff0000u);
        unsigned sh = PTX_SEL_DIGIT(dsel, 0) * bits;
        uint32_t m = (uint32_t)(((1ull << bits) - 1) << sh);
        return (c & ~m) | (((uint32_t)(uint64_t)t << sh) & m);
    }
    if (aux & VID_SAT) t = vid_clamp(t, ds, 32);
    vid_wide cw = ds ? (vid_wide)(int32_t)c : (vid_wide)c;
    /* .min/.max compare t with c; for vshl .sat with a .u32 destination an H200 ranks a
     * saturated result with bit 31 set above every c, as if t were sign-extended past 32
     * bits and compared unsigned (2 << 30 .min 0xa5a5a5a5 gives c; video_shift_op2.cu).
     * vshr is given the same rule: a .u32 vshr reaches bit 31 only by a shift of 0, and no
     * operand measured told the two rankings apart there. */
    vid_wide tk = t;
    if (VID_KIND(aux) == VK_SHIFT && (aux & VID_SAT) && !ds && (t >> 31))
        tk = t + ((vid_wide)1 << 40);
    switch (VID_OP2(aux)) {
    case OP2_ADD: return (uint32_t)(uint64_t)(t + cw);
    case OP2_MIN: return (uint32_t)(uint64_t)(tk < cw ? t : cw);
    case OP2_MAX: return (uint32_t)(uint64_t)(tk > cw ? t : cw);
    default: return (uint32_t)(uint64_t)t;
    }
}

/* The scalar forms' intermediate result is a signed 34-bit number (the ISA's stage 2): a
 * shift past it wraps, so a saturated vshl of 19 by 32 is the most negative s32, as on the
 * H200 (tests/cuda/hopper/video_more.cu). */
static vid_wide vid_s34(vid_wide t) {
    int64_t v = (int64_t)((uint64_t)t & ((1ull << 34) - 1));
    return v >= (1ll << 33) ? v - (1ll << 34) : v;
}

static uint32_t vid_scalar(unsigned op, uint32_t aux, int64_t imm, uint32_t a, uint32_t b,
                           uint32_t c) {
    uint16_t asel = VID_SEL(imm, 0), bsel = VID_SEL(imm, 1), dsel = VID_SEL(imm, 2);
    int64_t ta = vid_part(a, asel, aux & VID_A_SIGNED), tb = vid_part(b, bsel, aux & VID_B_SIGNED);
    vid_wide t;
    switch (VID_KIND(aux)) {
    case VK_MAD:
        return vid_mad(aux, ta, tb, c);
    case VK_SET:
        t = vid_cmp(VID_CMP(aux), ta, tb);
        break;
    case VK_SHIFT:
        tb = (aux & VID_CLAMP) ? (tb > 32 ? 32 : tb) : (tb & 31);
        t = op == PTX_OP_vshl ? (vid_wide)ta * ((vid_wide)1 << tb) : (vid_wide)(ta >> (tb > 63 ? 63 : tb));
        break;
    default:
        switch (op) {
        case PTX_OP_vadd: t = (vid_wide)ta + tb; break;
        case PTX_OP_vsub: t = (vid_wide)ta - tb; break;
        case PTX_OP_vabsdiff: t = ta > tb ? (vid_wide)ta - tb : (vid_wide)tb - ta; break;
        case PTX_OP_vmin: t = ta < tb ? ta : tb; break;
        default: t = ta > tb ? ta : tb; break; /* vmax */
        }
    }
    t = vid_s34(t);
    /* vadd.u32.u32.u32.sat d, a, b (no selector on d, no .op2) saturates no sum of two
     * words: one past 2^32 - 1 wraps on an H200 (video_sat_sel.cu), as an unsaturated add */
    if (op == PTX_OP_vadd && VID_KIND(aux) == VK_ARITH && !dsel && !VID_OP2(aux) &&
        !(aux & (VID_D_SIGNED | VID_A_SIGNED | VID_B_SIGNED)))
        t = (vid_wide)(uint32_t)(uint64_t)t;
    return vid_finish(aux, dsel, t, c);
}

/* SIMD element i (of n, each bits wide) picked by sel (or the default, def) from {b, a}. */
static int64_t vid_pick(uint32_t a, uint32_t b, uint16_t sel, unsigned def, unsigned i,
                        unsigned bits, bool sign) {
    unsigned k = sel ? PTX_SEL_DIGIT(sel, i) : def + i;
    uint64_t pair = (uint64_t)b << 32 | a;
    uint64_t e = (pair >> (k * bits)) & ((1ull << bits) - 1);
    if (sign && (e >> (bits - 1))) return (int64_t)e - ((int64_t)1 << bits);
    return (int64_t)e;
}

static int64_t vid_simd_op(unsigned op, int64_t a, int64_t b) {
    switch (op) {
    case PTX_OP_vadd2: case PTX_OP_vadd4: return a + b;
    case PTX_OP_vsub2: case PTX_OP_vsub4: return a - b;
    case PTX_OP_vavrg2: case PTX_OP_vavrg4: /* rounds half away from zero */
        return a + b >= 0 ? (a + b + 1) >> 1 : (a + b) >> 1;
    case PTX_OP_vabsdiff2: case PTX_OP_vabsdiff4: return a > b ? a - b : b - a;
    case PTX_OP_vmin2: case PTX_OP_vmin4: return a < b ? a : b;
    default: return a > b ? a : b; /* vmax */
    }
}

static uint32_t vid_simd(unsigned op, uint32_t aux, int64_t imm, uint32_t a, uint32_t b,
                         uint32_t c) {
    const unsigned n = (aux & VID_FOUR) ? 4 : 2, bits = 32 / n;
    const uint32_t emask = (1u << bits) - 1;
    uint16_t asel = VID_SEL(imm, 0), bsel = VID_SEL(imm, 1), dmask = VID_SEL(imm, 2);
    unsigned mask = dmask ? 0 : (1u << n) - 1;
    for (unsigned k = 0; dmask && k < PTX_SEL_N(dmask); k++) mask |= 1u << PTX_SEL_DIGIT(dmask, k);
    bool set = VID_KIND(aux) == VK_SIMD_SET, add = VID_OP2(aux) == OP2_ADD;
    uint32_t d = add ? c : 0;
    for (unsigned i = 0; i < n; i++) {
        int64_t va = vid_pick(a, b, asel, 0, i, bits, aux & VID_A_SIGNED);
        int64_t vb = vid_pick(a, b, bsel, n, i, bits, aux & VID_B_SIGNED);
        int64_t t = set ? vid_cmp(VID_CMP(aux), va, vb) : vid_simd_op(op, va, vb);
        if (aux & VID_SAT) t = (int64_t)vid_clamp(t, aux & VID_D_SIGNED, bits);
        if (add) d += (mask >> i & 1) ? (uint32_t)t : 0;
        else d |= ((mask >> i & 1) ? (uint32_t)t & emask : (c >> (i * bits)) & emask) << (i * bits);
    }
    return d;
}

ALU_HANDLER(alu_video) {
    uint64_t *D = ALU_D(0);
    const uint64_t *A = ALU_A(0), *B = ALU_A(1), *C = ALU_A(2);
    const uint32_t aux = in->aux;
    const int64_t imm = in->imm;
    const unsigned op = in->op;
    bool simd = VID_KIND(aux) >= VK_SIMD;
    ALU_LANES(mask, l, {
        uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l];
        D[l] = simd ? vid_simd(op, aux, imm, a, b, c) : vid_scalar(op, aux, imm, a, b, c);
    });
}

static bool vid_signed(ptx_type t, bool *sign) {
    if (t == PTX_T_s32) { *sign = true; return true; }
    if (t == PTX_T_u32) { *sign = false; return true; }
    return false;
}

int exec_decode_video(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    unsigned kind, lanes = 0;
    switch (pi->op) {
    case PTX_OP_vadd: case PTX_OP_vsub: case PTX_OP_vabsdiff: case PTX_OP_vmin:
    case PTX_OP_vmax:
        kind = VK_ARITH; break;
    case PTX_OP_vshl: case PTX_OP_vshr: kind = VK_SHIFT; break;
    case PTX_OP_vmad: kind = VK_MAD; break;
    case PTX_OP_vset: kind = VK_SET; break;
    case PTX_OP_vset2: kind = VK_SIMD_SET; lanes = 2; break;
    case PTX_OP_vset4: kind = VK_SIMD_SET; lanes = 4; break;
    case PTX_OP_vadd2: case PTX_OP_vsub2: case PTX_OP_vavrg2: case PTX_OP_vabsdiff2:
    case PTX_OP_vmin2: case PTX_OP_vmax2:
        kind = VK_SIMD; lanes = 2; break;
    case PTX_OP_vadd4: case PTX_OP_vsub4: case PTX_OP_vavrg4: case PTX_OP_vabsdiff4:
    case PTX_OP_vmin4: case PTX_OP_vmax4:
        kind = VK_SIMD; lanes = 4; break;
    default:
        return 0;
    }
    const char *name = ptx_opcode_names[pi->op];
    bool is_set = kind == VK_SET || kind == VK_SIMD_SET;
    /* vset has no destination type: its types are .atype.btype */
    unsigned want = is_set ? 2 : 3;
    bool ds = false, as, bs;
    if (pi->ntypes != want || (!is_set && !vid_signed((ptx_type)pi->types[0], &ds)) ||
        !vid_signed((ptx_type)pi->types[want - 2], &as) ||
        !vid_signed((ptx_type)pi->types[want - 1], &bs))
        return exec_dec_error(d, pi, "%s needs %u types, each .u32 or .s32", name, want), -1;
    if (kind == VK_SHIFT && bs)
        return exec_dec_error(d, pi, "%s: b's type is .u32", name), -1;
    uint32_t aux = kind | (ds ? VID_D_SIGNED : 0) | (as ? VID_A_SIGNED : 0) |
                   (bs ? VID_B_SIGNED : 0) | (lanes == 4 ? VID_FOUR : 0);
    bool has_cmp = false, has_mode = false;
    for (unsigned i = 0; i < pi->nmods; i++) {
        unsigned m = pi->mods[i], op2 = 0;
        if (m == PTX_MOD_sat && !is_set) aux |= VID_SAT;
        else if (m == PTX_MOD_add) op2 = OP2_ADD;
        else if ((m == PTX_MOD_min || m == PTX_MOD_max) && kind != VK_MAD && kind < VK_SIMD)
            op2 = m == PTX_MOD_min ? OP2_MIN : OP2_MAX;
        else if ((m == PTX_MOD_clamp || m == PTX_MOD_wrap) && kind == VK_SHIFT && !has_mode) {
            has_mode = true;
            if (m == PTX_MOD_clamp) aux |= VID_CLAMP;
        } else if (is_set && !has_cmp && (m == PTX_MOD_eq || m == PTX_MOD_ne || m == PTX_MOD_lt ||
                                          m == PTX_MOD_le || m == PTX_MOD_gt || m == PTX_MOD_ge)) {
            static const unsigned cmps[] = { PTX_MOD_eq, PTX_MOD_ne, PTX_MOD_lt, PTX_MOD_le,
                                             PTX_MOD_gt, PTX_MOD_ge };
            unsigned k = 0;
            while (cmps[k] != m) k++;
            aux |= k << 11;
            has_cmp = true;
        } else if (kind == VK_MAD && m == PTX_MOD_po) aux |= VID_PO;
        else if (kind == VK_MAD && (m == PTX_MOD_shr7 || m == PTX_MOD_shr15) && !VID_SCALE(aux))
            aux |= (m == PTX_MOD_shr7 ? 1u : 2u) << 17;
        else
            return exec_dec_error(d, pi, "unsupported modifier .%s on %s", ptx_mod_names[m],
                                  name), -1;
        if (op2) {
            if (VID_OP2(aux) || kind == VK_MAD)
                return exec_dec_error(d, pi, "%s: one secondary operation at most", name), -1;
            aux |= op2 << 8;
        }
    }
    if (is_set && !has_cmp)
        return exec_dec_error(d, pi, "%s needs a comparison (.eq .ne .lt .le .gt .ge)", name), -1;
    if (kind == VK_SHIFT && !has_mode)
        return exec_dec_error(d, pi, "%s needs a shift mode (.clamp or .wrap)", name), -1;
    if (kind >= VK_SIMD && (aux & VID_SAT) && VID_OP2(aux))
        return exec_dec_error(d, pi, "%s: .sat with .add", name), -1;
    /* operands: d, a, b and c (optional for the scalar forms without .op2 or .dsel) */
    unsigned nsrc = pi->nopnds - 1;
    const ptx_operand *o = pi->opnd;
    bool dsel = pi->nopnds > 0 && o[0].sel;
    bool need_c = kind >= VK_SIMD || kind == VK_MAD || VID_OP2(aux) || dsel;
    /* ptxas takes a c the operation does not use; it is read and ignored */
    if (pi->nopnds < 3 || nsrc > 3 || (need_c && nsrc != 3))
        return exec_dec_error(d, pi, "%s takes d, a, b%s", name,
                              need_c ? ", c" : " (c only with a secondary operation or a "
                                               "destination selector)"), -1;
    if (dsel && (VID_OP2(aux) && kind < VK_SIMD))
        return exec_dec_error(d, pi, "%s: a destination selector and a secondary operation "
                              "together", name), -1;
    if (kind == VK_MAD) {
        bool na = o[1].neg, nb = o[2].neg, nc = o[3].neg;
        if ((aux & VID_PO) && (na || nb || nc))
            return exec_dec_error(d, pi, "vmad.po takes no negated operand"), -1;
        if (na != nb) aux |= VID_NEG_AB;
        if (nc) aux |= VID_NEG_C;
    } else {
        for (unsigned i = 1; i < pi->nopnds; i++)
            if (o[i].neg) return exec_dec_error(d, pi, "%s: operands cannot be negated", name), -1;
    }
    /* selectors: scalar forms take one byte or half on a, b and d; SIMD forms a digit per
     * element on a and b (from the pair {b, a}) and a mask of distinct elements on d */
    uint64_t sels = 0;
    for (unsigned i = 0; i < 3; i++) {
        unsigned oi = i == 2 ? 0 : i + 1;
        uint16_t s = o[oi].sel;
        if (!s) continue;
        if (kind == VK_MAD && oi == 0)
            return exec_dec_error(d, pi, "vmad: the destination takes no selector"), -1;
        bool half = s & PTX_SEL_HALF;
        unsigned n = PTX_SEL_N(s), maxd = half ? 3 : 7;
        bool ok;
        if (kind < VK_SIMD) {
            ok = n == 1 && PTX_SEL_DIGIT(s, 0) <= (half ? 1u : 3u);
        } else if (oi != 0) {
            ok = n == lanes && half == (lanes == 2);
            for (unsigned k = 0; ok && k < n; k++) ok = PTX_SEL_DIGIT(s, k) <= maxd;
        } else {
            /* a mask: digits of elements, descending (.b3210, .b31, .h10, .h0) */
            ok = half == (lanes == 2);
            for (unsigned k = 0; ok && k < n; k++)
                ok = PTX_SEL_DIGIT(s, k) < lanes && (k == 0 || PTX_SEL_DIGIT(s, k) > PTX_SEL_DIGIT(s, k - 1));
        }
        if (!ok)
            return exec_dec_error(d, pi, "%s: operand %u has a selector this form does not take",
                                  name, oi), -1;
        sels |= (uint64_t)s << (16 * i);
    }
    for (unsigned i = 0; i < pi->nopnds; i++)
        if (pi->opnd[i].kind != PTX_OPND_REG && (i == 0 || pi->opnd[i].kind != PTX_OPND_IMM_INT))
            return exec_dec_error(d, pi, "%s: operand %u must be a register%s", name, i,
                                  i ? " or an integer" : ""), -1;
    if (!exec_dec_dst(d, pi, &o[0], &out->d[0])) return -1;
    for (unsigned i = 0; i < 3; i++) {
        /* a missing c reads as zero (a constant slot) */
        ptx_operand zero = { .kind = PTX_OPND_IMM_INT, .reg = -1, .reg2 = -1, .label = -1,
                             .sym = { .index = -1 } };
        const ptx_operand *src = i < nsrc ? &o[1 + i] : &zero;
        if (!exec_dec_src(d, pi, src, PTX_T_u32, &out->a[i])) return -1;
    }
    out->nd = 1;
    out->na = 3;
    out->type = PTX_T_u32;
    out->aux = aux;
    out->imm = (int64_t)sels;
    out->fn = alu_video;
    return 1;
}
