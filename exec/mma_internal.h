/* exec/mma_internal.h — shared by the warp-level matrix instructions: fragment geometry
 * (exec/mma_layout.c), the tensor cores' arithmetic (exec/mma_numerics.c), and the
 * handlers of wmma, mma (exec/mma.c), ldmatrix, stmatrix and movmatrix (exec/ldmatrix.c).
 */
#ifndef VCUDA_EXEC_MMA_INTERNAL_H
#define VCUDA_EXEC_MMA_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "internal.h"

/* Element formats of matrix operands. */
enum exec_mma_fmt {
    EXEC_MMA_NONE = 0,
    EXEC_MMA_F16, EXEC_MMA_BF16, EXEC_MMA_TF32, EXEC_MMA_F32, EXEC_MMA_F64,
    EXEC_MMA_S8, EXEC_MMA_U8, EXEC_MMA_S4, EXEC_MMA_U4, EXEC_MMA_B1, EXEC_MMA_S32,
    EXEC_MMA_E4M3, EXEC_MMA_E5M2 /* fp8 (wgmma) */
};

/* exec_mma_dot flags: clamp integer results (.satfinite); b1 products are a AND b
 * (.and.popc) rather than a XOR b (.xor.popc). */
#define EXEC_MMA_SATFINITE 1u
#define EXEC_MMA_B1_AND 2u

/* Bits one element of fmt occupies in a register (tf32: 32). */
unsigned exec_mma_fmt_bits(int fmt);

/* Which matrix of the product a fragment holds: A (MxK), B (KxN), C or D (MxN). */
enum { EXEC_MMA_A = 0, EXEC_MMA_B = 1, EXEC_MMA_C = 2 };

/* Fragment geometry: the (row, col) that element e of lane's fragment holds, in matrix
 * `which` of an operation of shape MxNxK whose element format for that matrix has `bits`
 * bits. wmma selects the wmma fragments measured on an H100-class GPU (they are built from
 * mma's 16x8 tiles, transposed for m8n32k16); otherwise mma.sync's, as the PTX ISA gives
 * them. unique is the number of distinct elements a lane holds (wmma's f16 A and B
 * fragments hold each element more than once: element e holds element e % unique).
 * Returns false for a shape or element this geometry does not know. */
bool exec_mma_frag_rc(bool wmma, unsigned M, unsigned N, unsigned K, int which,
                      unsigned bits, unsigned lane, unsigned e, unsigned *row, unsigned *col);
/* Distinct elements per lane of matrix which (M*K/32, K*N/32 or M*N/32). */
unsigned exec_mma_frag_unique(unsigned M, unsigned N, unsigned K, int which);

/* One element of D = A * B + C as the tensor cores compute it: a holds row i of A (K
 * elements of format afmt, as bits), b column j of B (format bfmt), c the accumulator
 * (format cfmt); the result is in format dfmt. Floating-point products are added in
 * steps of block (0: all K at once). flags: EXEC_MMA_* above. (exec/mma_numerics.c
 * documents the arithmetic.) */
uint64_t exec_mma_dot(const uint32_t *a, const uint32_t *b, unsigned K, unsigned block,
                      int afmt, int bfmt, uint64_t c, int cfmt, int dfmt, unsigned flags);
/* The largest K of a floating-point product (wmma, mma.sync: 16). */
#define EXEC_MMA_MAX_K 256u
/* A whole product, D = A * B + C (M x N): A row-major, B column-major (column j is the
 * K elements at B + j*K), C and D row-major; each element as exec_mma_dot computes it. */
void exec_mma_matmul(const uint32_t *A, const uint32_t *B, const uint64_t *C, uint64_t *D,
                     unsigned M, unsigned N, unsigned K, unsigned block, int afmt, int bfmt,
                     int cfmt, int dfmt, unsigned flags);
/* mma.sync with fp8 A and B (e4m3/e5m2; K 16 or 32) into cfmt (f32 or f16), as sm_90
 * runs it: through f16 conversions and two f16 products (exec/mma_numerics.c). Layouts
 * as exec_mma_matmul's. */
void exec_mma_matmul_fp8(const uint32_t *A, const uint32_t *B, const uint64_t *C, uint64_t *D,
                         unsigned M, unsigned N, unsigned K, int afmt, int bfmt, int cfmt);
/* The same for f64: a and b as bits of doubles. */
uint64_t exec_mma_dot_f64(const uint64_t *a, const uint64_t *b, unsigned K, uint64_t c);

/* ldmatrix, stmatrix, movmatrix (exec/ldmatrix.c); exec_decode_mma hands them over. */
int exec_decode_ldmatrix(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
/* wgmma (exec/wgmma.c); exec_decode_mma hands it over. */
int exec_decode_wgmma(exec_decoder *d, const ptx_insn *pi, exec_insn *out);

#endif
