/* exec/mma.c — warp-level matrix multiply-accumulate: wmma.load.{a,b,c}, wmma.store.d,
 * wmma.mma and mma.sync (decoding and handlers); ldmatrix, stmatrix and movmatrix are in
 * exec/ldmatrix.c, fragment geometry in exec/mma_layout.c, the arithmetic in
 * exec/mma_numerics.c.
 *
 * These instructions name up to 32 registers (four vectors of up to eight), more than an
 * exec_insn holds: the decoder puts them in an mma_desc it allocates with the function
 * (exec_dec_blob), and exec_insn.imm points at it. A handler gathers the fragments of all
 * 32 lanes into whole matrices, computes, and gives each lane of the mask its fragment of
 * the result; a lane's registers are written only after everything was read, so D may
 * name C's registers.
 *
 * Sparse mma (mma.sp, mma.sp::ordered_metadata; f16/bf16 m16n8k16 and m16n8k32, s8/u8
 * m16n8k32 and m16n8k64, e4m3/e5m2 m16n8k64 into f32, s4/u4 m16n8k64 and m16n8k128, tf32
 * m16n8k8 and m16n8k16): A is 2:4 structured (tf32: 1:2), given compressed (M x K/2, two values of
 * each group of four k) in the fragment of the dense shape with half the K, with a 32-bit
 * metadata register e holding a 2-bit k index (within its group) per value, and a
 * sparsity selector f naming the lanes whose e counts. B, C and D are dense. Which lane
 * and bits hold row m's nibble of group j (g = m % 8), as recorded on an H200 (one warp,
 * every lane's registers, exact integer products; every layout below matched them all):
 *   16-bit, k16: lane 4g + f,              bits 4j + 16(m / 8)       (f 0..3)
 *   16-bit, k32: lane 4g + 2f + j / 4,     bits 4(j % 4) + 16(m / 8) (f 0..1)
 *   8-bit,  k32: lane 4g + 2f + m / 8,     bits 4j                   (f 0..1)
 *   8-bit,  k64: lane 4g + m / 8 + 2(j / 8), bits 4(j % 8)           (f 0)
 *   32-bit (tf32), k8: lane 4g + f,        bits 4c + 16(m / 8)       (f 0..1)
 *   32-bit (tf32), k16: lane 4g + c / 4,   bits 4(c % 4) + 16(m / 8) (f 0)
 * A nibble holds the indices of the group's two values, the first in its low two bits;
 * for tf32 a nibble stands for one value c (compressed column) of the pair k = 2c, 2c+1,
 * 0x4 (the indices 0, 1 of its two 16-bit halves) for k = 2c, 0xe (2, 3) for 2c + 1:
 * the layout of the 16-bit k16/k32 shapes with each tf32 taken as two halves.
 * The arithmetic is the dense one over the K/2 products the values take part in (the
 * dense product's other terms are zeros, which take no part in it).
 * fp8 (k64) takes the 8-bit k64 layout and the dense fp8 arithmetic of sm_90 (two f16
 * products of the compressed values, exec_mma_matmul_fp8); 4-bit A is 2:4 on pairs of
 * nibbles: each pair is one byte of the 8-bit layout of half the K (k64 as 8-bit k32, k128
 * as 8-bit k64), its index naming the pair within eight k. Both as recorded on an H200
 * (tests/cuda/hopper/mma_sp_fp8_s4.cu, one-hot and random operands).
 */
#include "core.h"
#include "mma_internal.h"
#include "alu_internal.h"

#include <math.h>
#include <string.h>

#define MMA_MAX_REGS 8

enum { MMA_LOAD, MMA_STORE, MMA_MMA };

typedef struct mma_desc {
    uint8_t kind;               /* MMA_LOAD, MMA_STORE, MMA_MMA */
    bool wmma;                  /* wmma fragments (else mma.sync's) */
    uint16_t M, N, K;
    uint8_t which;              /* load/store: EXEC_MMA_A, _B or _C */
    bool row_major;             /* load/store: memory layout */
    bool has_stride;
    unsigned flags;             /* EXEC_MMA_SATFINITE, EXEC_MMA_B1_AND */
    uint8_t space;              /* load/store: ptx_space */
    int fmt[4];                 /* D, A, B, C element formats (load/store: fmt[0]) */
    uint8_t nregs[4];           /* registers of D, A, B, C (load/store: nregs[0]) */
    uint32_t regs[4][MMA_MAX_REGS];
    uint32_t addr, stride;      /* load/store: address base slot, stride slot */
    int64_t off;                /* load/store: address offset */
    bool sparse;                /* mma.sp: A compressed, with metadata */
    uint8_t selector;           /* mma.sp: the sparsity selector */
    uint32_t meta;              /* mma.sp: the metadata register's slot */
    bool a_col, b_row;          /* m8n8k4 f16: A column-major, B row-major fragments */
} mma_desc;

static const mma_desc *desc_of(const exec_insn *in) {
    return (const mma_desc *)(uintptr_t)in->imm;
}

/* Elements one register holds (1 for 32- and 64-bit elements). */
static unsigned per_reg(unsigned bits) { return bits >= 32 ? 1 : 32 / bits; }

static unsigned mem_bytes(int fmt) {
    unsigned b = exec_mma_fmt_bits(fmt);
    return b >= 8 ? b / 8 : 1;
}

/* The element e of a fragment held in registers regs (a lane's values). */
static uint64_t frag_get(const uint64_t *regs, unsigned bits, unsigned e) {
    unsigned E = per_reg(bits);
    uint64_t v = regs[e / E];
    if (bits >= 32) return bits == 64 ? v : v & 0xffffffffu;
    return (v >> (e % E * bits)) & ((1u << bits) - 1);
}

static void frag_put(uint64_t *regs, unsigned bits, unsigned e, uint64_t v) {
    unsigned E = per_reg(bits);
    if (bits >= 32) { regs[e / E] = bits == 64 ? v : v & 0xffffffffu; return; }
    unsigned sh = e % E * bits;
    uint64_t m = ((1ull << bits) - 1) << sh;
    regs[e / E] = (regs[e / E] & ~m) | ((v << sh) & m);
}

static void matrix_dims(const mma_desc *m, int which, unsigned *rows, unsigned *cols) {
    *rows = which == EXEC_MMA_B ? m->K : m->M;
    *cols = which == EXEC_MMA_A ? m->K : m->N;
}

/* ---- handlers ---- */

static void h_wmma_load(exec_warp *w, const exec_insn *in, uint32_t mask) {
    const mma_desc *m = desc_of(in);
    unsigned bits = exec_mma_fmt_bits(m->fmt[0]), esize = mem_bytes(m->fmt[0]);
    unsigned rows, cols, ne = m->nregs[0] * per_reg(bits);
    matrix_dims(m, m->which, &rows, &cols);
    for (uint32_t mm = mask; mm; mm &= mm - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(mm);
        uint64_t base = EXEC_R(w, m->addr, lane) + (uint64_t)m->off;
        uint64_t ld = m->has_stride ? (uint32_t)EXEC_R(w, m->stride, lane)
                                    : (m->row_major ? cols : rows);
        uint64_t regs[MMA_MAX_REGS] = {0};
        for (unsigned e = 0; e < ne; e++) {
            unsigned r, c;
            exec_mma_frag_rc(m->wmma, m->M, m->N, m->K, m->which, bits, lane, e, &r, &c);
            uint64_t idx = m->row_major ? r * ld + c : c * ld + r;
            /* sub-byte elements: the byte that holds them, the first in its low bits */
            uint64_t at = bits < 8 ? base + idx * bits / 8 : base + idx * esize;
            const void *p = exec_mem_addr(exec_ws(w), in, lane, (ptx_space)m->space, at, esize,
                                          EXEC_ACC_READ);
            if (!p) return;
            uint64_t v = 0;
            memcpy(&v, p, esize);
            if (bits < 8) v >>= idx * bits % 8;
            frag_put(regs, bits, e, v);
        }
        for (unsigned r = 0; r < m->nregs[0]; r++) EXEC_R(w, m->regs[0][r], lane) = regs[r];
    }
}

static void h_wmma_store(exec_warp *w, const exec_insn *in, uint32_t mask) {
    const mma_desc *m = desc_of(in);
    unsigned bits = exec_mma_fmt_bits(m->fmt[0]), esize = mem_bytes(m->fmt[0]);
    unsigned rows, cols, ne = m->nregs[0] * per_reg(bits);
    matrix_dims(m, m->which, &rows, &cols);
    for (uint32_t mm = mask; mm; mm &= mm - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(mm);
        uint64_t base = EXEC_R(w, m->addr, lane) + (uint64_t)m->off;
        uint64_t ld = m->has_stride ? (uint32_t)EXEC_R(w, m->stride, lane)
                                    : (m->row_major ? cols : rows);
        uint64_t regs[MMA_MAX_REGS];
        for (unsigned r = 0; r < m->nregs[0]; r++) regs[r] = EXEC_R(w, m->regs[0][r], lane);
        for (unsigned e = 0; e < ne; e++) {
            unsigned r, c;
            exec_mma_frag_rc(m->wmma, m->M, m->N, m->K, m->which, bits, lane, e, &r, &c);
            uint64_t idx = m->row_major ? r * ld + c : c * ld + r;
            void *p = exec_mem_addr(exec_ws(w), in, lane, (ptx_space)m->space,
                                    base + idx * esize, esize, EXEC_ACC_WRITE);
            if (!p) return;
            uint64_t v = frag_get(regs, bits, e);
            memcpy(p, &v, esize);
        }
    }
}

/* Gather matrix which (rows x cols, row-major into out) from every lane's fragment. */
static void gather(exec_warp *w, const mma_desc *m, int which, int op, uint64_t *out) {
    unsigned bits = exec_mma_fmt_bits(m->fmt[op]);
    unsigned rows, cols;
    matrix_dims(m, which, &rows, &cols);
    unsigned uniq = exec_mma_frag_unique(m->M, m->N, m->K, which);
    for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++) {
        uint64_t regs[MMA_MAX_REGS];
        for (unsigned r = 0; r < m->nregs[op]; r++) regs[r] = EXEC_R(w, m->regs[op][r], lane);
        for (unsigned e = 0; e < uniq; e++) {
            unsigned r, c;
            if (exec_mma_frag_rc(m->wmma, m->M, m->N, m->K, which, bits, lane, e, &r, &c) &&
                r < rows && c < cols)
                out[r * cols + c] = frag_get(regs, bits, e);
        }
    }
}

static void h_mma(exec_warp *w, const exec_insn *in, uint32_t mask) {
    const mma_desc *m = desc_of(in);
    unsigned M = m->M, N = m->N, K = m->K;
    /* whole matrices (A 16x256 at most: m16n8k256 b1), kept off the stack */
    static _Thread_local uint64_t A[16 * 256], B[256 * 16], C[32 * 32], D[32 * 32];
    /* wmma.m16n16k8.tf32 adds its products four at a time (exec/mma_numerics.c) */
    unsigned block = m->wmma && m->fmt[1] == EXEC_MMA_TF32 ? 4 : 0;
    gather(w, m, EXEC_MMA_A, 1, A);
    gather(w, m, EXEC_MMA_B, 2, B);
    gather(w, m, EXEC_MMA_C, 3, C);
    if (m->fmt[1] == EXEC_MMA_F64) {
        for (unsigned i = 0; i < M; i++)
            for (unsigned j = 0; j < N; j++) {
                uint64_t a[256], b[256];
                for (unsigned k = 0; k < K; k++) { a[k] = A[i * K + k]; b[k] = B[k * N + j]; }
                D[i * N + j] = exec_mma_dot_f64(a, b, K, C[i * N + j]);
            }
    } else {
        static _Thread_local uint32_t a[16 * 256], b[256 * 16]; /* A row-major, B by column */
        for (unsigned i = 0; i < M * K; i++) a[i] = (uint32_t)A[i];
        for (unsigned k = 0; k < K; k++)
            for (unsigned j = 0; j < N; j++) b[j * K + k] = (uint32_t)B[k * N + j];
        if (m->fmt[1] == EXEC_MMA_E4M3 || m->fmt[1] == EXEC_MMA_E5M2)
            exec_mma_matmul_fp8(a, b, C, D, M, N, K, m->fmt[1], m->fmt[2], m->fmt[3]);
        else
            exec_mma_matmul(a, b, C, D, M, N, K, block, m->fmt[1], m->fmt[2], m->fmt[3],
                            m->fmt[0], m->flags);
    }
    unsigned bits = exec_mma_fmt_bits(m->fmt[0]);
    unsigned ne = m->nregs[0] * per_reg(bits);
    for (uint32_t mm = mask; mm; mm &= mm - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(mm);
        uint64_t regs[MMA_MAX_REGS] = {0};
        for (unsigned e = 0; e < ne; e++) {
            unsigned r, c;
            if (exec_mma_frag_rc(m->wmma, M, N, K, EXEC_MMA_C, bits, lane, e, &r, &c))
                frag_put(regs, bits, e, D[r * N + c]);
        }
        for (unsigned r = 0; r < m->nregs[0]; r++) EXEC_R(w, m->regs[0][r], lane) = regs[r];
    }
}

/* mma.sp (the header): every matrix gathered by the mma.sync fragment pattern, for A with
 * K/2 columns, then each row's products taken where its metadata puts its values. */
static void h_mma_sp(exec_warp *w, const exec_insn *in, uint32_t mask) {
    const mma_desc *m = desc_of(in);
    unsigned K = m->K, KC = K / 2, abits = exec_mma_fmt_bits(m->fmt[1]), E = 32 / abits;
    unsigned cbits = exec_mma_fmt_bits(m->fmt[3]);
    uint32_t A[16 * 64], B[128 * 8], meta[EXEC_WARP_SIZE];
    uint64_t C[16 * 8], D[16 * 8];
    for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++) {
        unsigned g = lane / 4, q = lane % 4;
        meta[lane] = (uint32_t)EXEC_R(w, m->meta, lane);
        for (unsigned r = 0; r < m->nregs[1]; r++) {
            uint32_t v = (uint32_t)EXEC_R(w, m->regs[1][r], lane);
            for (unsigned h = 0; h < E; h++)
                A[(g + 8 * (r & 1)) * KC + E * q + h + 4 * E * (r >> 1)] =
                    (v >> (h * abits)) & (uint32_t)((1ull << abits) - 1);
        }
        for (unsigned r = 0; r < m->nregs[2]; r++) {
            uint32_t v = (uint32_t)EXEC_R(w, m->regs[2][r], lane);
            for (unsigned h = 0; h < E; h++)
                B[g * K + E * q + h + 4 * E * r] = (v >> (h * abits)) & (uint32_t)((1ull << abits) - 1);
        }
        for (unsigned e = 0; e < 4; e++) { /* C: f32/s32 one a register, f16 two */
            uint64_t v = EXEC_R(w, m->regs[3][cbits == 16 ? e >> 1 : e], lane);
            if (cbits == 16) v = (v >> (16 * (e & 1))) & 0xffff;
            else v &= 0xffffffffu;
            C[(g + 8 * (e >> 1)) * 8 + 2 * q + (e & 1)] = v;
        }
    }
    for (unsigned row = 0; row < 16; row++) {
        unsigned g = row % 8, h8 = row / 8, kidx[64];
        for (unsigned c = 0; c < KC; c++) {
            unsigned j = c / 2, lane, bit;
            if (abits == 4) { /* pairs of nibbles as the bytes of an 8-bit A of half the K */
                unsigned u = c / 2, ju = u / 2;
                lane = 4 * g + (K == 64 ? 2u * m->selector : 2 * (ju / 8)) + h8;
                bit = 4 * (ju % 8) + 2 * (u & 1);
                kidx[c] = 8 * ju + 2 * ((meta[lane] >> bit) & 3) + c % 2;
                continue;
            }
            if (abits == 32) { /* a nibble a value: 0x4 the pair's first k, 0xe its second */
                lane = 4 * g + (K == 8 ? m->selector : c / 4);
                bit = 4 * (c % 4) + 16 * h8;
                kidx[c] = 2 * c + ((meta[lane] >> (bit + 1)) & 1);
                continue;
            }
            if (abits == 16) {
                lane = 4 * g + (K == 16 ? m->selector : 2u * m->selector + j / 4);
                bit = 4 * (j % 4) + 16 * h8;
            } else {
                lane = 4 * g + (K == 32 ? 2u * m->selector : 2 * (j / 8)) + h8;
                bit = 4 * (j % 8);
            }
            kidx[c] = 4 * j + ((meta[lane] >> (bit + 2 * (c & 1))) & 3);
        }
        uint32_t b[8 * 64];
        for (unsigned n = 0; n < 8; n++)
            for (unsigned c = 0; c < KC; c++) b[n * KC + c] = B[n * K + kidx[c]];
        if (m->fmt[1] == EXEC_MMA_E4M3 || m->fmt[1] == EXEC_MMA_E5M2) {
            exec_mma_matmul_fp8(&A[row * KC], b, &C[row * 8], &D[row * 8], 1, 8, KC, m->fmt[1],
                                m->fmt[2], m->fmt[3]);
            continue;
        }
        for (unsigned n = 0; n < 8; n++)
            D[row * 8 + n] = exec_mma_dot(&A[row * KC], &b[n * KC], KC, 0, m->fmt[1], m->fmt[2],
                                          C[row * 8 + n], m->fmt[3], m->fmt[0], m->flags);
    }
    unsigned dbits = exec_mma_fmt_bits(m->fmt[0]);
    for (uint32_t mm = mask; mm; mm &= mm - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(mm);
        unsigned g = lane / 4, q = lane % 4;
        uint64_t regs[4] = {0};
        for (unsigned e = 0; e < 4; e++) {
            uint64_t v = D[(g + 8 * (e >> 1)) * 8 + 2 * q + (e & 1)];
            if (dbits == 16) regs[e >> 1] |= (v & 0xffff) << (16 * (e & 1));
            else regs[e] = v & 0xffffffffu;
        }
        for (unsigned r = 0; r < m->nregs[0]; r++) EXEC_R(w, m->regs[0][r], lane) = regs[r];
    }
}

/* mma.sync.m8n8k4 with f16 A and B (the quad-pair form). The warp is four quad pairs,
 * pair p being lanes 4p..4p+3 and 4p+16..4p+19, and each pair computes an 8x8x4 product
 * of its own. Lane i of a pair (0..7 in that order) holds, as recorded on an H200:
 *   A (.row): row i, k = 0..3 in a0.lo, a0.hi, a1.lo, a1.hi; (.col): column k = i % 4 of
 *     rows 4(i / 4) .. 4(i / 4) + 3;
 *   B (.col): column i, k = 0..3; (.row): row k = i % 4 of columns 4(i / 4) .. + 3;
 *   C/D in f32: element e is row i % 2 + 2((e >> 1) & 1) + 4(i / 4), column
 *     (e & 1) + 2((i % 4) / 2) + 4(e >> 2); in f16: row i, column e (e = 0..7, two a register).
 * sm_90 has no unit for it: ptxas makes it of f32 arithmetic (its code: HADD2.F32 widening,
 * FMUL/FFMA, FADD), which is what runs here: for an f32 D, p = a0 b0 + 0, then
 * p = fma(ak, bk, p) for k = 1, 2, 3, and D = C + p; for an f16 D, p01 = fma(a1, b1, a0 b0),
 * p23 = fma(a3, b3, a2 b2), D = f16((C + p01) + p23), each step rounded to nearest. */
static void h_mma_qp(exec_warp *w, const exec_insn *in, uint32_t mask) {
    const mma_desc *m = desc_of(in);
    bool h16 = m->fmt[0] == EXEC_MMA_F16;
    uint64_t D[EXEC_WARP_SIZE][8];
    for (unsigned p = 0; p < 4; p++) {
        unsigned lanes[8];
        float A[8][4], B[4][8], C[8][8];
        for (unsigned i = 0; i < 8; i++) lanes[i] = 4 * p + i % 4 + 16 * (i / 4);
        for (unsigned i = 0; i < 8; i++) {
            unsigned l = lanes[i];
            for (unsigned e = 0; e < 4; e++) {
                uint32_t ra = (uint32_t)EXEC_R(w, m->regs[1][e / 2], l);
                uint32_t rb = (uint32_t)EXEC_R(w, m->regs[2][e / 2], l);
                float av = alu_h2f((uint16_t)(ra >> (16 * (e & 1))));
                float bv = alu_h2f((uint16_t)(rb >> (16 * (e & 1))));
                if (m->a_col) A[4 * (i / 4) + e][i % 4] = av;
                else A[i][e] = av;
                if (m->b_row) B[i % 4][4 * (i / 4) + e] = bv;
                else B[e][i] = bv;
            }
            for (unsigned e = 0; e < 8; e++) {
                unsigned r, c;
                float v;
                if (m->fmt[3] == EXEC_MMA_F16)
                    v = alu_h2f((uint16_t)(EXEC_R(w, m->regs[3][e / 2], l) >> (16 * (e & 1))));
                else {
                    uint32_t u = (uint32_t)EXEC_R(w, m->regs[3][e], l);
                    memcpy(&v, &u, 4);
                }
                if (h16) { r = i; c = e; }
                else { r = i % 2 + 2 * ((e >> 1) & 1) + 4 * (i / 4); c = (e & 1) + 2 * ((i % 4) / 2) + 4 * (e >> 2); }
                C[r][c] = v;
            }
        }
        for (unsigned i = 0; i < 8; i++)
            for (unsigned e = 0; e < 8; e++) {
                unsigned r, c;
                if (h16) { r = i; c = e; }
                else { r = i % 2 + 2 * ((e >> 1) & 1) + 4 * (i / 4); c = (e & 1) + 2 * ((i % 4) / 2) + 4 * (e >> 2); }
                float d;
                if (h16) {
                    float p01 = fmaf(A[r][1], B[1][c], A[r][0] * B[0][c]);
                    float p23 = fmaf(A[r][3], B[3][c], A[r][2] * B[2][c]);
                    d = (C[r][c] + p01) + p23;
                    D[lanes[i]][e] = alu_f2h_rn(d);
                } else {
                    float acc = fmaf(A[r][0], B[0][c], 0.0f);
                    for (unsigned k = 1; k < 4; k++) acc = fmaf(A[r][k], B[k][c], acc);
                    d = C[r][c] + acc;
                    uint32_t u;
                    memcpy(&u, &d, 4);
                    if (d != d) u = 0x7fffffffu; /* the canonical NaN */
                    D[lanes[i]][e] = u;
                }
            }
    }
    for (uint32_t mm = mask; mm; mm &= mm - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(mm);
        if (h16)
            for (unsigned r = 0; r < 4; r++)
                EXEC_R(w, m->regs[0][r], lane) = D[lane][2 * r] | D[lane][2 * r + 1] << 16;
        else
            for (unsigned r = 0; r < 8; r++) EXEC_R(w, m->regs[0][r], lane) = D[lane][r];
    }
}

/* ---- decoding ---- */

static int fmt_of_type(int t) {
    switch (t) {
    case PTX_T_f16: return EXEC_MMA_F16;
    case PTX_T_bf16: return EXEC_MMA_BF16;
    case PTX_T_tf32: return EXEC_MMA_TF32;
    case PTX_T_f32: return EXEC_MMA_F32;
    case PTX_T_f64: return EXEC_MMA_F64;
    case PTX_T_s8: return EXEC_MMA_S8;
    case PTX_T_u8: return EXEC_MMA_U8;
    case PTX_T_s32: return EXEC_MMA_S32;
    case PTX_T_e4m3: return EXEC_MMA_E4M3;
    case PTX_T_e5m2: return EXEC_MMA_E5M2;
    default: return EXEC_MMA_NONE;
    }
}

/* The sub-byte element types (.s4, .u4, .b1: modifiers, no register has such a type) in
 * the order the instruction names them. */
static unsigned sub_byte_fmts(const ptx_insn *pi, int *fmts, unsigned max) {
    unsigned n = 0;
    for (unsigned i = 0; i < pi->nmods && n < max; i++) {
        int m = pi->mods[i];
        if (m == PTX_MOD_s4) fmts[n++] = EXEC_MMA_S4;
        else if (m == PTX_MOD_u4) fmts[n++] = EXEC_MMA_U4;
        else if (m == PTX_MOD_b1) fmts[n++] = EXEC_MMA_B1;
    }
    return n;
}

static bool shape_of(const ptx_insn *pi, uint16_t *M, uint16_t *N, uint16_t *K) {
    static const struct { int mod; uint16_t m, n, k; } shapes[] = {
        {PTX_MOD_m16n16k16, 16, 16, 16}, {PTX_MOD_m32n8k16, 32, 8, 16},
        {PTX_MOD_m8n32k16, 8, 32, 16}, {PTX_MOD_m16n16k8, 16, 16, 8},
        {PTX_MOD_m8n8k4, 8, 8, 4}, {PTX_MOD_m16n8k4, 16, 8, 4}, {PTX_MOD_m16n8k8, 16, 8, 8},
        {PTX_MOD_m16n8k16, 16, 8, 16}, {PTX_MOD_m16n8k32, 16, 8, 32},
        {PTX_MOD_m8n8k16, 8, 8, 16}, {PTX_MOD_m8n8k32, 8, 8, 32}, {PTX_MOD_m8n8k128, 8, 8, 128},
        {PTX_MOD_m16n8k64, 16, 8, 64}, {PTX_MOD_m16n8k128, 16, 8, 128},
        {PTX_MOD_m16n8k256, 16, 8, 256},
    };
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (ptx_insn_has_mod(pi, shapes[i].mod)) {
            *M = shapes[i].m;
            *N = shapes[i].n;
            *K = shapes[i].k;
            return true;
        }
    return false;
}

/* Registers a fragment of matrix which takes. */
static unsigned frag_regs(const mma_desc *m, int which, int fmt) {
    unsigned bits = exec_mma_fmt_bits(fmt), uniq = exec_mma_frag_unique(m->M, m->N, m->K, which);
    /* wmma's f16 A and B fragments are always 8 registers (elements repeat) */
    if (m->wmma && fmt == EXEC_MMA_F16 && which != EXEC_MMA_C) return 8;
    unsigned n = bits >= 32 ? uniq : uniq * bits / 32;
    return n ? n : 1;
}

/* Operand o, a vector of n registers, into regs (destination or source). */
static bool dec_vector(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, unsigned n,
                       bool dst, int fmt, uint32_t *regs, const char *what) {
    unsigned have = o->kind == PTX_OPND_VEC ? o->vec_n : 1;
    if (have != n)
        return exec_dec_error(d, pi, "%s fragment needs %u registers, not %u", what, n, have);
    unsigned bits = exec_mma_fmt_bits(fmt);
    ptx_type t = bits == 64 ? PTX_T_b64 : PTX_T_b32;
    for (unsigned i = 0; i < n; i++) {
        const ptx_operand *e = o->kind == PTX_OPND_VEC ? exec_dec_vec_elem(d, o, i) : o;
        if (!(dst ? exec_dec_dst(d, pi, e, &regs[i]) : exec_dec_src(d, pi, e, t, &regs[i])))
            return false;
    }
    return true;
}

static bool check_shape_fmt(exec_decoder *d, const ptx_insn *pi, const mma_desc *m, int in_fmt,
                            int acc_fmt) {
    bool ok;
    if (m->wmma) {
        switch (in_fmt) {
        case EXEC_MMA_F16: case EXEC_MMA_BF16: case EXEC_MMA_S8: case EXEC_MMA_U8:
            ok = m->K == 16 && (m->M == 16 || m->M == 32 || m->M == 8) && m->M * m->N == 256;
            break;
        case EXEC_MMA_TF32: ok = m->M == 16 && m->N == 16 && m->K == 8; break;
        case EXEC_MMA_F64: ok = m->M == 8 && m->N == 8 && m->K == 4; break;
        case EXEC_MMA_S4: case EXEC_MMA_U4: ok = m->M == 8 && m->N == 8 && m->K == 32; break;
        case EXEC_MMA_B1: ok = m->M == 8 && m->N == 8 && m->K == 128; break;
        default: ok = false;
        }
    } else {
        switch (in_fmt) {
        case EXEC_MMA_F16: case EXEC_MMA_BF16:
            ok = m->M == 16 && m->N == 8 && (m->K == 16 || m->K == 8);
            break;
        case EXEC_MMA_TF32: ok = m->M == 16 && m->N == 8 && (m->K == 8 || m->K == 4); break;
        case EXEC_MMA_F64:
            ok = (m->M == 8 && m->N == 8 && m->K == 4) ||
                 (m->M == 16 && m->N == 8 && (m->K == 4 || m->K == 8 || m->K == 16));
            break;
        case EXEC_MMA_S8: case EXEC_MMA_U8:
            ok = (m->M == 16 && m->N == 8 && (m->K == 16 || m->K == 32)) ||
                 (m->M == 8 && m->N == 8 && m->K == 16);
            break;
        case EXEC_MMA_S4: case EXEC_MMA_U4:
            ok = (m->M == 16 && m->N == 8 && (m->K == 32 || m->K == 64)) ||
                 (m->M == 8 && m->N == 8 && m->K == 32);
            break;
        case EXEC_MMA_B1:
            ok = (m->M == 16 && m->N == 8 && (m->K == 128 || m->K == 256)) ||
                 (m->M == 8 && m->N == 8 && m->K == 128);
            break;
        case EXEC_MMA_E4M3: case EXEC_MMA_E5M2:
            ok = m->M == 16 && m->N == 8 && (m->K == 32 || m->K == 16);
            break;
        default: ok = false;
        }
        /* m8n8k4 with f16 inputs splits the warp into quad-pairs: another geometry */
    }
    if (acc_fmt != EXEC_MMA_NONE) {
        bool integer = in_fmt == EXEC_MMA_S8 || in_fmt == EXEC_MMA_U8 || in_fmt == EXEC_MMA_S4 ||
                       in_fmt == EXEC_MMA_U4 || in_fmt == EXEC_MMA_B1;
        if (integer) ok = ok && acc_fmt == EXEC_MMA_S32;
        else if (in_fmt == EXEC_MMA_F64) ok = ok && acc_fmt == EXEC_MMA_F64;
        else if (in_fmt == EXEC_MMA_F16 || in_fmt == EXEC_MMA_E4M3 || in_fmt == EXEC_MMA_E5M2)
            ok = ok && (acc_fmt == EXEC_MMA_F16 || acc_fmt == EXEC_MMA_F32);
        else ok = ok && acc_fmt == EXEC_MMA_F32;
    }
    if (!ok) {
        char text[200];
        ptx_insn_str(d->m, d->pf, pi, text, sizeof text);
        return exec_dec_error(d, pi, "unsupported shape or type combination in '%s'", text);
    }
    return true;
}

static int decode_load_store(exec_decoder *d, const ptx_insn *pi, exec_insn *out, mma_desc *m,
                             bool load) {
    m->kind = load ? MMA_LOAD : MMA_STORE;
    if (load) {
        if (ptx_insn_has_mod(pi, PTX_MOD_comp_a)) m->which = EXEC_MMA_A;
        else if (ptx_insn_has_mod(pi, PTX_MOD_comp_b)) m->which = EXEC_MMA_B;
        else if (ptx_insn_has_mod(pi, PTX_MOD_c)) m->which = EXEC_MMA_C;
        else return exec_dec_error(d, pi, "wmma.load needs .a, .b or .c"), -1;
    } else {
        if (!ptx_insn_has_mod(pi, PTX_MOD_d)) return exec_dec_error(d, pi, "wmma.store needs .d"), -1;
        m->which = EXEC_MMA_C;
    }
    if (ptx_insn_has_mod(pi, PTX_MOD_row)) m->row_major = true;
    else if (!ptx_insn_has_mod(pi, PTX_MOD_col))
        return exec_dec_error(d, pi, "wmma.%s needs .row or .col", load ? "load" : "store"), -1;
    int sub[1];
    if (pi->ntypes == 0 && load && sub_byte_fmts(pi, sub, 1) == 1) m->fmt[0] = sub[0];
    else if (pi->ntypes != 1 || (m->fmt[0] = fmt_of_type(pi->types[0])) == EXEC_MMA_NONE)
        return exec_dec_error(d, pi, "unsupported wmma element type"), -1;
    if (m->which == EXEC_MMA_C) {
        /* the accumulator's shape decides nothing about its type: check the pair that
         * has this accumulator */
        int f = m->fmt[0];
        int in = f == EXEC_MMA_S32 ? (m->K == 32 ? EXEC_MMA_S4 : m->K == 128 ? EXEC_MMA_B1
                                      : EXEC_MMA_S8)
               : f == EXEC_MMA_F64 ? EXEC_MMA_F64
               : m->K == 8 ? EXEC_MMA_TF32 : EXEC_MMA_F16;
        if (!check_shape_fmt(d, pi, m, in, f)) return -1;
    } else if (!check_shape_fmt(d, pi, m, m->fmt[0], EXEC_MMA_NONE)) {
        return -1;
    }
    if (pi->nopnds < 2 || pi->nopnds > 3)
        return exec_dec_error(d, pi, "wmma.%s takes 2 or 3 operands", load ? "load" : "store"), -1;
    m->space = (uint8_t)exec_dec_space(pi);
    const ptx_operand *frag = &pi->opnd[load ? 0 : 1], *addr = &pi->opnd[load ? 1 : 0];
    exec_insn tmp;
    memset(&tmp, 0, sizeof tmp);
    if (!exec_dec_address(d, pi, addr, (ptx_space)m->space, &tmp)) return -1;
    m->addr = tmp.a[0];
    m->off = tmp.imm;
    if (pi->nopnds == 3) {
        if (!exec_dec_src(d, pi, &pi->opnd[2], PTX_T_u32, &m->stride)) return -1;
        m->has_stride = true;
    }
    m->nregs[0] = (uint8_t)frag_regs(m, m->which, m->fmt[0]);
    if (!dec_vector(d, pi, frag, m->nregs[0], load, m->fmt[0], m->regs[0], "the")) return -1;
    out->fn = load ? h_wmma_load : h_wmma_store;
    return 1;
}

static int decode_mma_sp(exec_decoder *d, const ptx_insn *pi, exec_insn *out, mma_desc *m) {
    int sub[2];
    if (!m->wmma && pi->ntypes == 2 && sub_byte_fmts(pi, sub, 2) == 2) { /* .s32.s4.u4.s32 */
        m->fmt[0] = fmt_of_type(pi->types[0]);
        m->fmt[1] = sub[0];
        m->fmt[2] = sub[1];
        m->fmt[3] = fmt_of_type(pi->types[1]);
    } else if (m->wmma || pi->ntypes != 4) {
        return exec_dec_error(d, pi, "unsupported sparse mma"), -1;
    } else {
        for (unsigned i = 0; i < 4; i++) m->fmt[i] = fmt_of_type(pi->types[i]);
    }
    int a = m->fmt[1], b = m->fmt[2], c = m->fmt[3], dt = m->fmt[0];
    bool h16 = (a == EXEC_MMA_F16 || a == EXEC_MMA_BF16) && b == a && (m->K == 16 || m->K == 32) &&
               (dt == EXEC_MMA_F32 || (a == EXEC_MMA_F16 && dt == EXEC_MMA_F16)) &&
               (c == EXEC_MMA_F32 || (a == EXEC_MMA_F16 && c == EXEC_MMA_F16));
    bool i8 = (a == EXEC_MMA_S8 || a == EXEC_MMA_U8) && (b == EXEC_MMA_S8 || b == EXEC_MMA_U8) &&
              (m->K == 32 || m->K == 64) && dt == EXEC_MMA_S32 && c == EXEC_MMA_S32;
    bool t32 = a == EXEC_MMA_TF32 && b == a && (m->K == 8 || m->K == 16) && dt == EXEC_MMA_F32 &&
               c == EXEC_MMA_F32;
    bool f8 = (a == EXEC_MMA_E4M3 || a == EXEC_MMA_E5M2) && (b == EXEC_MMA_E4M3 || b == EXEC_MMA_E5M2) &&
              m->K == 64 && dt == EXEC_MMA_F32 && c == EXEC_MMA_F32;
    bool i4 = (a == EXEC_MMA_S4 || a == EXEC_MMA_U4) && (b == EXEC_MMA_S4 || b == EXEC_MMA_U4) &&
              (m->K == 64 || m->K == 128) && dt == EXEC_MMA_S32 && c == EXEC_MMA_S32;
    if (m->M != 16 || m->N != 8 || (!h16 && !i8 && !t32 && !f8 && !i4)) {
        char text[200];
        ptx_insn_str(d->m, d->pf, pi, text, sizeof text);
        return exec_dec_error(d, pi, "unsupported sparse mma shape or types in '%s' (f16/bf16 "
                              "m16n8k16/k32, tf32 m16n8k8/k16, s8/u8 m16n8k32/k64, e4m3/e5m2 "
                              "m16n8k64 into f32 and s4/u4 m16n8k64/k128 are supported)", text), -1;
    }
    if (ptx_insn_has_mod(pi, PTX_MOD_satfinite)) {
        if (!i8 && !i4) return exec_dec_error(d, pi, "mma.sp: .satfinite is for integer types"), -1;
        m->flags |= EXEC_MMA_SATFINITE;
    }
    if (pi->nopnds != 6)
        return exec_dec_error(d, pi, "sparse mma takes 6 operands (d, a, b, c, metadata, "
                              "sparsity selector)"), -1;
    const ptx_operand *f = &pi->opnd[5];
    unsigned nsel = h16 ? (m->K == 16 ? 4 : 2) : t32 ? (m->K == 8 ? 2 : 1)
                  : i4 ? (m->K == 64 ? 2 : 1) : f8 ? 1 : (m->K == 32 ? 2 : 1);
    if (f->kind != PTX_OPND_IMM_INT || f->ival < 0 || f->ival >= (int64_t)nsel)
        return exec_dec_error(d, pi, "mma.sp: the sparsity selector must be a constant from 0 "
                              "to %u", nsel - 1), -1;
    m->selector = (uint8_t)f->ival;
    m->sparse = true;
    /* A compressed: K/2 values a row; B dense; C and D one register an element, or a pair
     * of f16 */
    unsigned n[4];
    n[1] = 16 * (m->K / 2) * exec_mma_fmt_bits(a) / (32 * 32);
    n[2] = m->K * 8 * exec_mma_fmt_bits(b) / (32 * 32);
    n[0] = dt == EXEC_MMA_F16 ? 2 : 4;
    n[3] = c == EXEC_MMA_F16 ? 2 : 4;
    static const char *const names[4] = {"D", "A", "B", "C"};
    for (unsigned i = 0; i < 4; i++) {
        m->nregs[i] = (uint8_t)n[i];
        if (!dec_vector(d, pi, &pi->opnd[i], n[i], i == 0, m->fmt[i], m->regs[i], names[i]))
            return -1;
    }
    if (!exec_dec_src(d, pi, &pi->opnd[4], PTX_T_b32, &m->meta)) return -1;
    out->fn = h_mma_sp;
    return 1;
}

/* mma.sync.m8n8k4 with f16 A and B (h_mma_qp): D and C f32 (8 registers) or f16 (4), the
 * same type; the layouts of A and B from the two .row/.col in the order given. */
static int decode_mma_qp(exec_decoder *d, const ptx_insn *pi, exec_insn *out, mma_desc *m) {
    int lay[2], n = 0;
    for (unsigned i = 0; i < pi->nmods && n < 2; i++)
        if (pi->mods[i] == PTX_MOD_row || pi->mods[i] == PTX_MOD_col) lay[n++] = pi->mods[i];
    bool acc_ok = (m->fmt[0] == EXEC_MMA_F16 || m->fmt[0] == EXEC_MMA_F32) && m->fmt[3] == m->fmt[0];
    if (n != 2 || m->fmt[2] != EXEC_MMA_F16 || !acc_ok) {
        char text[200];
        ptx_insn_str(d->m, d->pf, pi, text, sizeof text);
        return exec_dec_error(d, pi, "unsupported m8n8k4 form '%s' (f16 A and B, D and C both "
                              "f32 or both f16, .row/.col for each)", text), -1;
    }
    m->a_col = lay[0] == PTX_MOD_col;
    m->b_row = lay[1] == PTX_MOD_row;
    if (pi->nopnds != 4) return exec_dec_error(d, pi, "matrix multiply takes 4 operands"), -1;
    unsigned acc = m->fmt[0] == EXEC_MMA_F16 ? 4 : 8;
    const unsigned n_regs[4] = {acc, 2, 2, acc};
    static const char *const names[4] = {"D", "A", "B", "C"};
    for (unsigned i = 0; i < 4; i++) {
        m->nregs[i] = (uint8_t)n_regs[i];
        if (!dec_vector(d, pi, &pi->opnd[i], n_regs[i], i == 0, i == 1 || i == 2 ? EXEC_MMA_F16 : m->fmt[i],
                        m->regs[i], names[i]))
            return -1;
    }
    out->fn = h_mma_qp;
    return 1;
}

static int decode_mma(exec_decoder *d, const ptx_insn *pi, exec_insn *out, mma_desc *m) {
    m->kind = MMA_MMA;
    if (ptx_insn_has_mod(pi, PTX_MOD_sp) || ptx_insn_has_mod(pi, PTX_MOD_sp_ordered))
        return decode_mma_sp(d, pi, out, m);
    int sub[2];
    if (pi->ntypes == 2 && m->wmma && sub_byte_fmts(pi, sub, 2) == 0) { /* f16: .dtype.ctype */
        m->fmt[0] = fmt_of_type(pi->types[0]);
        m->fmt[1] = m->fmt[2] = EXEC_MMA_F16;
        m->fmt[3] = fmt_of_type(pi->types[1]);
    } else if (pi->ntypes == 4) {
        for (unsigned i = 0; i < 4; i++) m->fmt[i] = fmt_of_type(pi->types[i]);
    } else if (pi->ntypes == 2 && sub_byte_fmts(pi, sub, 2) == 2) { /* .s32.s4.u4.s32 */
        m->fmt[0] = fmt_of_type(pi->types[0]);
        m->fmt[1] = sub[0];
        m->fmt[2] = sub[1];
        m->fmt[3] = fmt_of_type(pi->types[1]);
    } else {
        return exec_dec_error(d, pi, "unsupported types in %s", m->wmma ? "wmma.mma" : "mma"), -1;
    }
    for (unsigned i = 0; i < 4; i++)
        if (m->fmt[i] == EXEC_MMA_NONE) { /* the whole instruction, so the message names the form */
            char text[200];
            ptx_insn_str(d->m, d->pf, pi, text, sizeof text);
            return exec_dec_error(d, pi, "unsupported type in %s: '%s'", m->wmma ? "wmma.mma" : "mma", text), -1;
        }
    if (!m->wmma && m->M == 8 && m->N == 8 && m->K == 4 && m->fmt[1] == EXEC_MMA_F16)
        return decode_mma_qp(d, pi, out, m);
    bool byte = m->fmt[1] == EXEC_MMA_S8 || m->fmt[1] == EXEC_MMA_U8;
    bool nibble = m->fmt[1] == EXEC_MMA_S4 || m->fmt[1] == EXEC_MMA_U4;
    bool fp8 = m->fmt[1] == EXEC_MMA_E4M3 || m->fmt[1] == EXEC_MMA_E5M2;
    bool ab_ok = m->fmt[1] == m->fmt[2] ||
                 (fp8 && (m->fmt[2] == EXEC_MMA_E4M3 || m->fmt[2] == EXEC_MMA_E5M2)) ||
                 (byte && (m->fmt[2] == EXEC_MMA_S8 || m->fmt[2] == EXEC_MMA_U8)) ||
                 (nibble && (m->fmt[2] == EXEC_MMA_S4 || m->fmt[2] == EXEC_MMA_U4));
    if (!ab_ok || !check_shape_fmt(d, pi, m, m->fmt[1], m->fmt[3]) ||
        !check_shape_fmt(d, pi, m, m->fmt[1], m->fmt[0]))
        return ab_ok ? -1 : (exec_dec_error(d, pi, "A and B types differ"), -1);
    if (ptx_insn_has_mod(pi, PTX_MOD_satfinite)) m->flags |= EXEC_MMA_SATFINITE;
    if (fp8 && m->fmt[0] != m->fmt[3])
        return exec_dec_error(d, pi, "fp8 mma: D and C must have one type"), -1;
    if (m->fmt[1] == EXEC_MMA_B1) {
        bool and_op = ptx_insn_has_mod(pi, PTX_MOD_and_);
        if (!ptx_insn_has_mod(pi, PTX_MOD_popc) || (!and_op && !ptx_insn_has_mod(pi, PTX_MOD_xor_)))
            return exec_dec_error(d, pi, "b1 matrix multiply needs .xor.popc or .and.popc"), -1;
        if (and_op) m->flags |= EXEC_MMA_B1_AND;
    }
    if (pi->nopnds != 4) return exec_dec_error(d, pi, "matrix multiply takes 4 operands"), -1;
    static const int which[4] = {EXEC_MMA_C, EXEC_MMA_A, EXEC_MMA_B, EXEC_MMA_C};
    static const char *const names[4] = {"D", "A", "B", "C"};
    for (unsigned i = 0; i < 4; i++) {
        m->nregs[i] = (uint8_t)frag_regs(m, which[i], m->fmt[i]);
        if (!dec_vector(d, pi, &pi->opnd[i], m->nregs[i], i == 0, m->fmt[i], m->regs[i], names[i]))
            return -1;
    }
    out->fn = h_mma;
    return 1;
}

int exec_decode_mma(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (pi->op == PTX_OP_ldmatrix || pi->op == PTX_OP_stmatrix || pi->op == PTX_OP_movmatrix)
        return exec_decode_ldmatrix(d, pi, out);
    if (pi->op == PTX_OP_wgmma) return exec_decode_wgmma(d, pi, out);
    if (pi->op != PTX_OP_wmma && pi->op != PTX_OP_mma) return 0;
    mma_desc *m = exec_dec_blob(d, sizeof *m);
    m->wmma = pi->op == PTX_OP_wmma;
    if (!shape_of(pi, &m->M, &m->N, &m->K))
        return exec_dec_error(d, pi, "unsupported matrix shape in %s", m->wmma ? "wmma" : "mma"), -1;
    if (m->wmma && !ptx_insn_has_mod(pi, PTX_MOD_mma)) {
        bool load = ptx_insn_has_mod(pi, PTX_MOD_load);
        if (!load && !ptx_insn_has_mod(pi, PTX_MOD_store))
            return exec_dec_error(d, pi, "wmma needs .load, .store or .mma"), -1;
        if (decode_load_store(d, pi, out, m, load) < 0) return -1;
    } else if (decode_mma(d, pi, out, m) < 0) {
        return -1;
    }
    out->imm = (int64_t)(intptr_t)m;
    return 1;
}
