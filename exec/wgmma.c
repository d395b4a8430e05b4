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
 * Sparse A (wgmma.mma_async.sp: K twice the dense one, A compressed to K/2 columns in the
 * same layouts, a metadata register and a sparsity selector: wg_sparse_k) and single bits
 * (.b1, m64nNk256 .and.popc: h_wgmma_b1) are recorded on an H200 too, A from a descriptor
 * for .sp. A sparse A in registers is taken as the dense form's fragment of K/2 columns
 * (mma.sync m16n8k16's for f16/bf16), which is what mma.sp's compressed A is on the same
 * GPU; that one form was not recorded on its own.
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
    bool sparse;               /* .sp: A compressed (K/2 columns), with metadata */
    uint32_t meta;             /* .sp: the metadata register's slot */
    uint8_t selector;          /* .sp: the sparsity selector */
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

/* .sp: the column k (of K) where value c of row i (0..15, the warp's rows) of the compressed
 * A lies, from the warp's metadata registers: each group of four k of a row holds two values
 * of A, whose 2-bit indices a nibble of some lane holds, the first in its low bits; which
 * lane and nibble is mma.sp's layout for the same K and element size (exec/mma.c):
 *   16-bit, k32: lane 4g + 2f + j/4, bits 4(j%4) + 16(i/8)   (g = i%8, j = c/2, f the selector)
 *   8-bit,  k64: lane 4g + i/8 + 2(j/8), bits 4(j%8)
 *   tf32,   k16: 1:2 (one value of each pair of k), lane 4g + 2f + c/4, bits 4(c%4) + 16(i/8),
 *                the nibble 0x4 for the pair's first k, 0xe for its second (each tf32 taken
 *                as two 16-bit halves of the 16-bit layout)
 * (recorded on an H200: tests/cuda/hopper/wgmma_sp.cu). The products are those of the dense
 * form over the K/2 values of A (the other terms are zeros, which take no part). */
static unsigned wg_sparse_k(const uint32_t *meta, unsigned bits, unsigned K, unsigned f,
                            unsigned i, unsigned c) {
    unsigned g = i % 8, h8 = i / 8, j = c / 2, lane, bit;
    if (bits == 32) { /* 1:2, each tf32 taken as two halves: 0x4 the pair's first k, 0xe its second */
        lane = 4 * g + 2 * f + c / 4;
        bit = 4 * (c % 4) + 16 * h8;
        return 2 * c + ((meta[lane] >> (bit + 1)) & 1);
    }
    if (bits == 8) {
        lane = 4 * g + h8 + 2 * (j / 8);
        bit = 4 * (j % 8);
    } else {
        lane = 4 * g + 2 * f + (K == 32 ? j / 4 : 0);
        bit = 4 * (j % 4) + 16 * h8;
    }
    return 4 * j + ((meta[lane] >> (bit + 2 * (c & 1))) & 3);
}

/* .b1 operands (m64nNk256 .and.popc): D = C + popc(a AND b) over k, in 32 bits with
 * wrap-around, as mma.sync's b1 (recorded on an H200: tests/cuda/hopper/wgmma_b1.cu). A row
 * is 32 bytes, bit k being bit k%8 of byte k/8, in the core matrices of 8-bit elements; A
 * from registers is mma.sync m16n8k256's b1 fragment (register x of lane 4g+q: row
 * g + 8(x&1), k = 32q + 128(x>>1) + bit). */
static void h_wgmma_b1(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const wg_desc *m = (const wg_desc *)(uintptr_t)in->imm;
    unsigned r0 = 16 * (hw->warp_in_block % 4);
    uint32_t lane0 = mask ? (uint32_t)__builtin_ctz(mask) : 0;
    uint64_t bdesc = EXEC_R(hw, m->b, lane0);
    uint64_t adesc = (in->flags & WG_A_DESC) ? EXEC_R(hw, m->a, lane0) : 0;
    if ((bdesc | adesc) >> 49 & 7) {
        exec_fault_at(hw, in, lane0, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                      "wgmma: descriptors with a base offset are not supported");
        return;
    }
    uint8_t A[16][32], B[WG_MAX_N][32];
    for (unsigned i = 0; i < 16; i++)
        for (unsigned k = 0; k < 32; k++) {
            uint32_t v = 0;
            if ((in->flags & WG_A_DESC) && !wg_elem(w, in, adesc, r0 + i, k, 1, &v)) return;
            A[i][k] = (uint8_t)v;
        }
    if (!(in->flags & WG_A_DESC))
        for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++)
            for (unsigned x = 0; x < 4; x++) {
                uint32_t v = (uint32_t)EXEC_R(hw, m->areg[x], lane);
                unsigned row = lane / 4 + 8 * (x & 1), byte = 4 * (lane % 4) + 16 * (x >> 1);
                memcpy(&A[row][byte], &v, 4);
            }
    for (unsigned n = 0; n < m->N; n++)
        for (unsigned k = 0; k < 32; k++) {
            uint32_t v;
            if (!wg_elem(w, in, bdesc, n, k, 1, &v)) return;
            B[n][k] = (uint8_t)v;
        }
    for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++) {
        if (!((mask >> lane) & 1u)) continue;
        bool acc = ((hw->P[m->scale_d] >> lane) & 1u) != m->scale_d_neg;
        unsigned g = lane / 4, q = lane % 4;
        for (unsigned i = 0; i < m->nd; i++) {
            uint64_t *reg = &EXEC_R(hw, m->d[i], lane);
            unsigned row = g + 8 * ((i % 4) >> 1), col = 8 * (i / 4) + 2 * q + (i & 1);
            uint32_t s = acc ? (uint32_t)*reg : 0;
            for (unsigned k = 0; k < 32; k++)
                s += (uint32_t)__builtin_popcount(A[row][k] & B[col][k]);
            *reg = s;
        }
    }
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
    static _Thread_local uint32_t A[16 * 64], B[WG_MAX_N * 64]; /* A row-major, B by column */
    unsigned KA = m->sparse ? K / 2 : K; /* A's columns */
    for (unsigned i = 0; i < 16; i++)
        for (unsigned k = 0; k < KA; k++) {
            uint32_t v = 0;
            if (in->flags & WG_A_DESC) {
                if (!wg_elem(w, in, EXEC_R(hw, m->a, lane0), r0 + i, k, size, &v)) return;
            }
            A[i * KA + k] = v;
        }
    if (!(in->flags & WG_A_DESC)) { /* the warp's A fragment, as mma.sync m16n8kK holds it */
        unsigned bits = exec_mma_fmt_bits(m->afmt), per = 32 / bits;
        for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++)
            for (unsigned e = 0; e < 4 * per; e++) {
                unsigned row, col;
                if (!exec_mma_frag_rc(false, 16, 8, KA, EXEC_MMA_A, bits, lane, e, &row, &col))
                    continue;
                uint64_t reg = EXEC_R(hw, m->areg[e / per], lane);
                A[row * KA + col] = (uint32_t)(reg >> ((e % per) * bits)) &
                                   (bits == 32 ? 0xffffffffu : (1u << bits) - 1);
            }
    }
    for (unsigned n = 0; n < N; n++)
        for (unsigned k = 0; k < K; k++)
            if (!wg_elem(w, in, bdesc, n, k, size, &B[n * K + k])) return;
    if (m->neg_a) for (unsigned i = 0; i < 16 * KA; i++) A[i] ^= sign;
    static _Thread_local unsigned kidx[16 * 32]; /* .sp: the k of each value of A */
    if (m->sparse) {
        uint32_t meta[EXEC_WARP_SIZE];
        for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++)
            meta[lane] = (uint32_t)EXEC_R(hw, m->meta, lane);
        for (unsigned i = 0; i < 16; i++)
            for (unsigned c = 0; c < KA; c++)
                kidx[i * KA + c] = wg_sparse_k(meta, 8 * size, K, m->selector, i, c);
    }
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
                const uint32_t *b = &B[col * K];
                uint32_t bs[32];
                if (m->sparse) { /* B's rows where A's values are */
                    for (unsigned x = 0; x < KA; x++) bs[x] = b[kidx[row * KA + x]];
                    b = bs;
                }
                uint64_t v = exec_mma_dot(&A[row * KA], b, KA, 0, m->afmt, m->bfmt, c,
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

/* .sp's metadata register and sparsity selector (operands 3 and 4; nsel selectors). */
static bool wg_sparse_ops(exec_decoder *d, const ptx_insn *pi, wg_desc *m, unsigned nsel) {
    const ptx_operand *f = &pi->opnd[4];
    if (f->kind != PTX_OPND_IMM_INT || f->ival < 0 || f->ival >= (int64_t)nsel)
        return exec_dec_error(d, pi, "wgmma.sp: the sparsity selector must be a constant from 0 "
                              "to %u", nsel - 1), false;
    m->selector = (uint8_t)f->ival;
    return exec_dec_src(d, pi, &pi->opnd[3], PTX_T_b32, &m->meta);
}

/* D (m->nd registers) and A (four registers, or a descriptor: WG_A_DESC), operands 0 and 1,
 * as every form has them. */
static bool wg_dec_d_a(exec_decoder *d, const ptx_insn *pi, exec_insn *out, wg_desc *m) {
    const ptx_operand *dv = &pi->opnd[0], *av = &pi->opnd[1];
    if (dv->kind != PTX_OPND_VEC || dv->vec_n != m->nd)
        return exec_dec_error(d, pi, "wgmma: D needs %u registers", m->nd), false;
    for (unsigned i = 0; i < m->nd; i++)
        if (!exec_dec_dst(d, pi, exec_dec_vec_elem(d, dv, i), &m->d[i])) return false;
    if (av->kind == PTX_OPND_VEC) {
        if (av->vec_n != 4) return exec_dec_error(d, pi, "wgmma: A in registers takes 4"), false;
        for (unsigned i = 0; i < 4; i++)
            if (!exec_dec_src(d, pi, exec_dec_vec_elem(d, av, i), PTX_T_b32, &m->areg[i]))
                return false;
        return true;
    }
    if (!exec_dec_src(d, pi, av, PTX_T_b64, &m->a)) return false;
    out->flags |= WG_A_DESC;
    return true;
}

/* The .b1 form: m64nNk256.s32.b1.b1.and.popc d, a-desc | {a}, b-desc, scale-d. */
static int dec_wgmma_b1(exec_decoder *d, const ptx_insn *pi, exec_insn *out, wg_desc *m) {
    if (m->sparse || m->K != 256 || pi->ntypes != 1 || wg_fmt(pi->types[0]) != EXEC_MMA_S32 ||
        !ptx_insn_has_mod(pi, PTX_MOD_and_) || !ptx_insn_has_mod(pi, PTX_MOD_popc))
        return exec_dec_error(d, pi, "wgmma with .b1 operands is m64nNk256.s32.b1.b1.and.popc"), -1;
    if (m->N % 16 && m->N != 8 && m->N != 24)
        return exec_dec_error(d, pi, "wgmma: b1 operands take N = 8, 24 or a multiple of 16"), -1;
    if (pi->nopnds != 4) return exec_dec_error(d, pi, "wgmma takes 4 operands"), -1;
    m->dfmt = EXEC_MMA_S32;
    m->afmt = m->bfmt = EXEC_MMA_B1;
    m->nd = m->N / 2;
    if (!wg_dec_d_a(d, pi, out, m)) return -1;
    if (!exec_dec_src(d, pi, &pi->opnd[2], PTX_T_b64, &m->b) ||
        !exec_dec_pred(d, pi, &pi->opnd[3], &m->scale_d, &m->scale_d_neg))
        return -1;
    out->imm = (int64_t)(uintptr_t)m;
    out->fn = h_wgmma_b1;
    return 1;
}

int exec_decode_wgmma(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (ptx_insn_has_mod(pi, PTX_MOD_fence) || ptx_insn_has_mod(pi, PTX_MOD_commit_group) ||
        ptx_insn_has_mod(pi, PTX_MOD_wait_group)) {
        out->fn = exec_h_nop; /* products are complete when mma_async executes */
        return 1;
    }
    if (!ptx_insn_has_mod(pi, PTX_MOD_mma_async))
        return exec_dec_error(d, pi, "unsupported wgmma operation"), -1;
    wg_desc *m = exec_dec_blob(d, sizeof *m);
    m->sparse = ptx_insn_has_mod(pi, PTX_MOD_sp);
    if (!wg_shape(pi, &m->N, &m->K)) return exec_dec_error(d, pi, "unsupported wgmma shape"), -1;
    if (ptx_insn_has_mod(pi, PTX_MOD_b1)) /* .s32.b1.b1: one type, two modifiers */
        return dec_wgmma_b1(d, pi, out, m);
    if (pi->ntypes != 3) return exec_dec_error(d, pi, "wgmma needs .dtype.atype.btype"), -1;
    m->dfmt = wg_fmt(pi->types[0]);
    m->afmt = wg_fmt(pi->types[1]);
    m->bfmt = wg_fmt(pi->types[2]);
    int a = m->afmt, b = m->bfmt, dt = m->dfmt;
    unsigned kd = m->sparse ? m->K / 2 : m->K; /* the dense shape's K */
    bool tf32 = a == EXEC_MMA_TF32;
    bool f16 = (a == EXEC_MMA_F16 || a == EXEC_MMA_BF16) && b == a && kd == 16 &&
               (dt == EXEC_MMA_F32 || (dt == EXEC_MMA_F16 && a == EXEC_MMA_F16));
    bool i8 = (a == EXEC_MMA_S8 || a == EXEC_MMA_U8) && (b == EXEC_MMA_S8 || b == EXEC_MMA_U8) &&
              dt == EXEC_MMA_S32 && kd == 32;
    bool f8 = (a == EXEC_MMA_E4M3 || a == EXEC_MMA_E5M2) && (b == EXEC_MMA_E4M3 || b == EXEC_MMA_E5M2) &&
              (dt == EXEC_MMA_F32 || dt == EXEC_MMA_F16) && kd == 32;
    /* integer operands take N = 8, 24 and the multiples of 16 */
    if (i8 && m->N % 16 && m->N != 8 && m->N != 24)
        return exec_dec_error(d, pi, "wgmma: s8/u8 operands take N = 8, 24 or a multiple of 16"), -1;
    if (!f16 && !i8 && !f8 && !(tf32 && b == a && dt == EXEC_MMA_F32 && kd == 8))
        return exec_dec_error(d, pi, "unsupported wgmma types or shape (f16/bf16 with k16, tf32 "
                                     "with k8, s8/u8 and e4m3/e5m2 with k32 are; twice the K "
                                     "with .sp)"), -1;
    if (ptx_insn_has_mod(pi, PTX_MOD_satfinite)) {
        if (!i8) return exec_dec_error(d, pi, "wgmma: .satfinite is for integer types"), -1;
        m->flags |= EXEC_MMA_SATFINITE;
    }
    /* immediates: scale-a/b except for integers, transposes for 16-bit types only, and no
     * transpose of A when A is in registers (d, a, b-desc, scale-d, scale-a, scale-b, trans-b) */
    bool a_regs = pi->nopnds > 1 && pi->opnd[1].kind == PTX_OPND_VEC;
    unsigned nimm = i8 ? 0 : f16 ? (a_regs ? 3 : 4) : 2;
    unsigned sp = m->sparse ? 2 : 0; /* .sp: sp-meta and sp-sel after b-desc */
    if (pi->nopnds != 4 + sp + nimm)
        return exec_dec_error(d, pi, "wgmma takes %u operands", 4 + sp + nimm), -1;
    m->nd = m->dfmt == EXEC_MMA_F16 ? m->N / 4 : m->N / 2;
    if (!wg_dec_d_a(d, pi, out, m)) return -1;
    if (!exec_dec_src(d, pi, &pi->opnd[2], PTX_T_b64, &m->b) ||
        (sp && !wg_sparse_ops(d, pi, m, f16 ? 2 : tf32 ? 2 : 1)) ||
        !exec_dec_pred(d, pi, &pi->opnd[3 + sp], &m->scale_d, &m->scale_d_neg))
        return -1;
    if (nimm && (!wg_imm(d, pi, 4 + sp, true, &m->neg_a) || !wg_imm(d, pi, 5 + sp, true, &m->neg_b)))
        return -1;
    if (nimm == 4 && (!wg_imm(d, pi, 6 + sp, false, &m->trans_a) ||
                      !wg_imm(d, pi, 7 + sp, false, &m->trans_b)))
        return -1;
    if (nimm == 3 && !wg_imm(d, pi, 6 + sp, false, &m->trans_b)) return -1;
    if (m->trans_a && !(out->flags & WG_A_DESC))
        return exec_dec_error(d, pi, "wgmma: A in registers cannot be transposed"), -1;
    out->imm = (int64_t)(uintptr_t)m;
    out->fn = h_wgmma;
    return 1;
}
