/* exec/wgmma.c — Hopper's warpgroup matrix multiply:
 *
 *   wgmma.fence.sync.aligned;  wgmma.commit_group.sync.aligned;  wgmma.wait_group.sync.aligned N;
 *   wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype  d, a, b-desc, scale-d,
 *       imm-scale-a, imm-scale-b{, imm-trans-a, imm-trans-b};
 *   wgmma.mma_async.sync.aligned.m64nNk32{.satfinite}.s32.{s8,u8}.{s8,u8}  d, a, b-desc, scale-d;
 *   wgmma.mma_async.sync.aligned.m64nNk32.{f32,f16}.{e4m3,e5m2}.{e4m3,e5m2}  d, a, b-desc,
 *       scale-d, imm-scale-a, imm-scale-b;
 *
 * The product is computed when mma_async executes, so the fence and the groups have nothing
 * to wait for. A warpgroup is four consecutive warps of the block; warp r of it (its index
 * in the block mod 4) owns rows 16r..16r+15 of A and D, so each warp computes its own rows
 * from shared memory (and its A registers) without the others.
 *
 * Operands: A from a shared-memory matrix descriptor or from registers (the A fragment of
 * mma.sync's m16n8k16 / m16n8k8 for each warp's 16 rows), B from a descriptor; the
 * accumulator D (also C) in registers: for f32 element 4j+e of a lane holds row
 * g + 8(e>>1), column 8j + 2q + (e&1) of its warp's rows (g = lane/4, q = lane%4); for f16,
 * register i holds columns 8(i>>1) + 2q, +1 of row g + 8(i&1).
 *
 * Descriptors (64 bits): start address >> 4 (bits 0-13), leading byte offset >> 4 (16-29),
 * stride byte offset >> 4 (32-45), swizzle mode (62-63). Without swizzle, a K-major operand
 * (tnsp 0) is made of core matrices of 8 rows x 16 bytes, rows 16 bytes apart: element
 * (row, k) is at start + (row/8)*SBO + (k/E)*LBO + (row%8)*16 + (k%E)*size, E = 16/size
 * (recorded on an H200: tests/cuda/hopper/wgmma.cu). The swizzled layouts follow the PTX
 * ISA's canonical ones (wg_elem; not yet compared with a GPU); transposed (MN-major)
 * operands fault as unsupported.
 *
 * Numerics: each element of D is exec_mma_dot's, the tensor cores' arithmetic that
 * mma.sync measured (exec/mma_numerics.c), with the narrower adder of fp8 products there;
 * integer products are exact, summed in 32 bits (wrapping, or clamped with .satfinite);
 * scale-d false starts from +0, imm-scale-a/b -1 negate A/B. The 8-bit forms were
 * recorded on an H200 (tests/cuda/hopper/wgmma_int_fp8.cu).
 */
#include "core.h"
#include "mma_internal.h"

#include <stdio.h>

#define WG_MAX_N 256u
#define WG_A_DESC  (EXEC_F_HANDLER << 8)   /* A from a descriptor, else registers */

typedef struct {
    unsigned N, K;
    int dfmt, afmt, bfmt;      /* EXEC_MMA_* */
    unsigned flags;            /* exec_mma_dot's: EXEC_MMA_SATFINITE */
    uint32_t a, b;             /* descriptor slots (a: when WG_A_DESC) */
    uint32_t areg[4];          /* A fragment registers otherwise */
    uint32_t scale_d;          /* predicate index */
    bool scale_d_neg;
    bool neg_a, neg_b, trans_a, trans_b;
    unsigned nd;               /* accumulator registers */
    uint32_t d[WG_MAX_N / 2];  /* their slots */
} wg_desc;

/* Reads element (row, k) of a K-major operand through descriptor desc; false after a fault.
 * Swizzle modes 1, 2, 3 (128, 64, 32 bytes): rows of the 8-row group are W bytes apart and
 * hold K contiguously (LBO steps past each W bytes of K), and the 16-byte chunks are then
 * permuted by the address bits as a tensor copy with that swizzle writes them
 * (exec/bulk_tensor.c), so that tiles loaded that way multiply as they do on the GPU. */
static bool wg_elem(exec_wstate *w, const exec_insn *in, uint64_t desc, unsigned row, unsigned k,
                    unsigned size, uint32_t *out) {
    uint64_t start = (desc & 0x3fff) << 4, lbo = ((desc >> 16) & 0x3fff) << 4,
             sbo = ((desc >> 32) & 0x3fff) << 4;
    unsigned mode = (unsigned)(desc >> 62);
    uint64_t a;
    if (mode == 0) {
        unsigned per = 16 / size;
        a = start + (row / 8) * sbo + (k / per) * lbo + (row % 8) * 16 + (k % per) * size;
    } else {
        unsigned width = 256u >> mode, kb = k * size;   /* 128, 64, 32 */
        a = start + (row / 8) * sbo + (kb / width) * lbo + (row % 8) * width + kb % width;
        a ^= ((a >> 7) & (width / 16 - 1)) << 4;
    }
    const uint8_t *p = exec_mem_addr(w, in, 0, PTX_SPACE_SHARED, a, size, EXEC_ACC_READ);
    if (!p) return false;
    uint32_t v = 0;
    memcpy(&v, p, size);
    *out = v;
    return true;
}

static void h_wgmma(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const wg_desc *m = (const wg_desc *)(uintptr_t)in->imm;
    unsigned N = m->N, K = m->K, r0 = 16 * (hw->warp_in_block % 4);
    unsigned size = exec_mma_fmt_bits(m->afmt) / 8;
    uint32_t sign = 1u << (8 * size - 1); /* imm-scale -1 flips it (never for integers) */
    uint32_t lane0 = mask ? (uint32_t)__builtin_ctz(mask) : 0;
    uint64_t bdesc = EXEC_R(hw, m->b, lane0);
    /* the matrix base offset (bits 49-51) places a swizzle pattern that does not start at
     * its alignment: not supported, nor transposed (MN-major) operands */
    uint64_t adesc = (in->flags & WG_A_DESC) ? EXEC_R(hw, m->a, lane0) : 0;
    if (((bdesc | adesc) >> 49 & 7) || m->trans_a || m->trans_b) {
        exec_fault_at(hw, in, lane0, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                      "wgmma: transposed operands and descriptors with a base offset are not "
                      "supported");
        return;
    }
    static _Thread_local uint32_t A[16 * 32], B[WG_MAX_N * 32]; /* A row-major, B by column */
    for (unsigned i = 0; i < 16; i++)
        for (unsigned k = 0; k < K; k++) {
            uint32_t v = 0;
            if (in->flags & WG_A_DESC) {
                if (!wg_elem(w, in, EXEC_R(hw, m->a, lane0), r0 + i, k, size, &v)) return;
            }
            A[i * K + k] = v;
        }
    if (!(in->flags & WG_A_DESC)) { /* the warp's A fragment, as mma.sync m16n8kK holds it */
        unsigned bits = exec_mma_fmt_bits(m->afmt), per = 32 / bits;
        for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++)
            for (unsigned e = 0; e < 4 * per; e++) {
                unsigned row, col;
                if (!exec_mma_frag_rc(false, 16, 8, K, EXEC_MMA_A, bits, lane, e, &row, &col))
                    continue;
                uint64_t reg = EXEC_R(hw, m->areg[e / per], lane);
                A[row * K + col] = (uint32_t)(reg >> ((e % per) * bits)) &
                                   (bits == 32 ? 0xffffffffu : (1u << bits) - 1);
            }
    }
    for (unsigned n = 0; n < N; n++)
        for (unsigned k = 0; k < K; k++)
            if (!wg_elem(w, in, bdesc, n, k, size, &B[n * K + k])) return;
    if (m->neg_a) for (unsigned i = 0; i < 16 * K; i++) A[i] ^= sign;
    if (m->neg_b) for (unsigned i = 0; i < N * K; i++) B[i] ^= sign;
    bool f16d = m->dfmt == EXEC_MMA_F16, s32d = m->dfmt == EXEC_MMA_S32;
    for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++) {
        if (!((mask >> lane) & 1u)) continue;
        bool acc = ((hw->P[m->scale_d] >> lane) & 1u) != m->scale_d_neg;
        unsigned g = lane / 4, q = lane % 4;
        for (unsigned i = 0; i < m->nd; i++) {
            uint64_t *reg = &EXEC_R(hw, m->d[i], lane);
            uint64_t out = 0;
            for (unsigned h = 0; h < (f16d ? 2u : 1u); h++) {
                unsigned row, col;
                if (f16d) { row = g + 8 * (i & 1); col = 8 * (i >> 1) + 2 * q + h; }
                else { row = g + 8 * ((i % 4) >> 1); col = 8 * (i / 4) + 2 * q + (i & 1); }
                uint64_t c = acc ? (f16d ? (*reg >> (16 * h)) & 0xffff : *reg & 0xffffffffu) : 0;
                uint64_t v = exec_mma_dot(&A[row * K], &B[col * K], K, 0, m->afmt, m->bfmt, c,
                                          s32d ? EXEC_MMA_S32 : m->dfmt, m->dfmt, m->flags);
                out |= (f16d ? v & 0xffff : v & 0xffffffffu) << (16 * h);
            }
            *reg = out;
        }
    }
}

/* The m64nNkK shape among pi's modifiers (N and K from its name), or false. */
static bool wg_shape(const ptx_insn *pi, unsigned *n, unsigned *k) {
    for (unsigned i = 0; i < pi->nmods; i++) {
        unsigned nn, kk;
        char tail;
        if (sscanf(ptx_mod_names[pi->mods[i]], "m64n%uk%u%c", &nn, &kk, &tail) == 2 &&
            nn >= 8 && nn <= WG_MAX_N && nn % 8 == 0) {
            *n = nn;
            *k = kk;
            return true;
        }
    }
    return false;
}

static int wg_fmt(int t) {
    switch (t) {
    case PTX_T_f16: return EXEC_MMA_F16;
    case PTX_T_bf16: return EXEC_MMA_BF16;
    case PTX_T_tf32: return EXEC_MMA_TF32;
    case PTX_T_f32: return EXEC_MMA_F32;
    case PTX_T_s32: return EXEC_MMA_S32;
    case PTX_T_s8: return EXEC_MMA_S8;
    case PTX_T_u8: return EXEC_MMA_U8;
    case PTX_T_e4m3: return EXEC_MMA_E4M3;
    case PTX_T_e5m2: return EXEC_MMA_E5M2;
    default: return EXEC_MMA_NONE;
    }
}

/* An immediate operand that must be 1 or -1 (scale) or 0 or 1 (transpose). */
static bool wg_imm(exec_decoder *d, const ptx_insn *pi, unsigned k, bool scale, bool *set) {
    const ptx_operand *o = &pi->opnd[k];
    if (o->kind != PTX_OPND_IMM_INT || (scale ? (o->ival != 1 && o->ival != -1)
                                              : (o->ival != 0 && o->ival != 1)))
        return exec_dec_error(d, pi, "wgmma: operand %u must be %s", k + 1,
                              scale ? "1 or -1" : "0 or 1"), false;
    *set = scale ? o->ival == -1 : o->ival == 1;
    return true;
}

int exec_decode_wgmma(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (ptx_insn_has_mod(pi, PTX_MOD_fence) || ptx_insn_has_mod(pi, PTX_MOD_commit_group) ||
        ptx_insn_has_mod(pi, PTX_MOD_wait_group)) {
        out->fn = exec_h_nop; /* products are complete when mma_async executes */
        return 1;
    }
    if (!ptx_insn_has_mod(pi, PTX_MOD_mma_async))
        return exec_dec_error(d, pi, "unsupported wgmma operation"), -1;
    if (ptx_insn_has_mod(pi, PTX_MOD_sp))
        return exec_dec_error(d, pi, "sparse wgmma (.sp) is not supported"), -1;
    wg_desc *m = exec_dec_blob(d, sizeof *m);
    if (!wg_shape(pi, &m->N, &m->K)) return exec_dec_error(d, pi, "unsupported wgmma shape"), -1;
    if (pi->ntypes != 3) return exec_dec_error(d, pi, "wgmma needs .dtype.atype.btype"), -1;
    m->dfmt = wg_fmt(pi->types[0]);
    m->afmt = wg_fmt(pi->types[1]);
    m->bfmt = wg_fmt(pi->types[2]);
    int a = m->afmt, b = m->bfmt, dt = m->dfmt;
    bool tf32 = a == EXEC_MMA_TF32;
    bool f16 = (a == EXEC_MMA_F16 || a == EXEC_MMA_BF16) && b == a && m->K == 16 &&
               (dt == EXEC_MMA_F32 || (dt == EXEC_MMA_F16 && a == EXEC_MMA_F16));
    bool i8 = (a == EXEC_MMA_S8 || a == EXEC_MMA_U8) && (b == EXEC_MMA_S8 || b == EXEC_MMA_U8) &&
              dt == EXEC_MMA_S32 && m->K == 32;
    bool f8 = (a == EXEC_MMA_E4M3 || a == EXEC_MMA_E5M2) && (b == EXEC_MMA_E4M3 || b == EXEC_MMA_E5M2) &&
              (dt == EXEC_MMA_F32 || dt == EXEC_MMA_F16) && m->K == 32;
    /* integer operands take N = 8, 24 and the multiples of 16 */
    if (i8 && m->N % 16 && m->N != 8 && m->N != 24)
        return exec_dec_error(d, pi, "wgmma: s8/u8 operands take N = 8, 24 or a multiple of 16"), -1;
    if (!f16 && !i8 && !f8 && !(tf32 && b == a && dt == EXEC_MMA_F32 && m->K == 8))
        return exec_dec_error(d, pi, "unsupported wgmma types or shape (f16/bf16 with k16, tf32 "
                                     "with k8, s8/u8 and e4m3/e5m2 with k32 are)"), -1;
    if (ptx_insn_has_mod(pi, PTX_MOD_satfinite)) {
        if (!i8) return exec_dec_error(d, pi, "wgmma: .satfinite is for integer types"), -1;
        m->flags |= EXEC_MMA_SATFINITE;
    }
    /* immediates: scale-a/b except for integers, transposes for 16-bit types only, and no
     * transpose of A when A is in registers (d, a, b-desc, scale-d, scale-a, scale-b, trans-b) */
    bool a_regs = pi->nopnds > 1 && pi->opnd[1].kind == PTX_OPND_VEC;
    unsigned nimm = i8 ? 0 : f16 ? (a_regs ? 3 : 4) : 2;
    if (pi->nopnds != 4 + nimm) return exec_dec_error(d, pi, "wgmma takes %u operands", 4 + nimm), -1;
    const ptx_operand *dv = &pi->opnd[0];
    m->nd = m->dfmt == EXEC_MMA_F16 ? m->N / 4 : m->N / 2;
    if (dv->kind != PTX_OPND_VEC || dv->vec_n != m->nd)
        return exec_dec_error(d, pi, "wgmma: D needs %u registers", m->nd), -1;
    for (unsigned i = 0; i < m->nd; i++)
        if (!exec_dec_dst(d, pi, exec_dec_vec_elem(d, dv, i), &m->d[i])) return -1;
    const ptx_operand *av = &pi->opnd[1];
    if (av->kind == PTX_OPND_VEC) {
        if (av->vec_n != 4) return exec_dec_error(d, pi, "wgmma: A in registers takes 4"), -1;
        for (unsigned i = 0; i < 4; i++)
            if (!exec_dec_src(d, pi, exec_dec_vec_elem(d, av, i), PTX_T_b32, &m->areg[i])) return -1;
    } else {
        if (!exec_dec_src(d, pi, av, PTX_T_b64, &m->a)) return -1;
        out->flags |= WG_A_DESC;
    }
    if (!exec_dec_src(d, pi, &pi->opnd[2], PTX_T_b64, &m->b) ||
        !exec_dec_pred(d, pi, &pi->opnd[3], &m->scale_d, &m->scale_d_neg))
        return -1;
    if (nimm && (!wg_imm(d, pi, 4, true, &m->neg_a) || !wg_imm(d, pi, 5, true, &m->neg_b)))
        return -1;
    if (nimm == 4 && (!wg_imm(d, pi, 6, false, &m->trans_a) || !wg_imm(d, pi, 7, false, &m->trans_b)))
        return -1;
    if (nimm == 3 && !wg_imm(d, pi, 6, false, &m->trans_b)) return -1;
    if (m->trans_a && !(out->flags & WG_A_DESC))
        return exec_dec_error(d, pi, "wgmma: A in registers cannot be transposed"), -1;
    out->imm = (int64_t)(uintptr_t)m;
    out->fn = h_wgmma;
    return 1;
}
