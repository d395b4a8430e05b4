/* exec/mma_layout.c — which matrix element each lane's fragment register holds, for
 * mma.sync (as the PTX ISA's "Matrix Fragments for mma" sections give it) and for wmma
 * (whose layout PTX leaves unspecified: the one here was read off an H100-class GPU by
 * loading matrices whose elements encode their row and column, see
 * tests/data/h100/wmma_layouts.txt).
 *
 * With groupID g = lane >> 2 and t = lane & 3, and E elements per 32-bit register:
 *   A tile (16 or 8 rows x K): register r holds row g + 8*(r & 1), columns
 *       t*E .. t*E+E-1 plus 4E * (r >> 1);
 *   B tile (K x 8): register r holds column g, rows t*E .. t*E+E-1 plus 4E * r;
 *   C/D tile (16 or 8 x 8): element i holds row g + 8*(i >> 1), column 2t + (i & 1).
 * wmma's fragments are made of these tiles: m16n16k16 is one A tile, two B tiles side by
 * side and two C tiles; m32n8k16 two A tiles stacked, one B tile, two C tiles stacked;
 * m8n32k16 is m32n8k16 transposed (the hardware computes D^T = B^T A^T): its A fragment is
 * a B tile transposed, its B fragment two A tiles transposed, its C two C tiles
 * transposed. wmma's f16 A and B fragments hold every element more than once (8 registers
 * for m16n16k16's 8 distinct elements a lane needs: elements 8-15 repeat 0-7).
 */
#include "mma_internal.h"

unsigned exec_mma_frag_unique(unsigned M, unsigned N, unsigned K, int which) {
    switch (which) {
    case EXEC_MMA_A: return M * K / 32;
    case EXEC_MMA_B: return K * N / 32;
    default: return M * N / 32;
    }
}

/* Element e of the mma tile of matrix which (rows x K, K x 8, rows x 8). */
static void tile_rc(int which, unsigned K, unsigned bits, unsigned lane, unsigned e,
                    unsigned *row, unsigned *col) {
    unsigned g = lane >> 2, t = lane & 3;
    unsigned E = bits >= 32 ? 1 : 32 / bits;
    unsigned r = e / E, sub = e % E;
    unsigned half = 4 * E; /* the 4 lanes of a group cover 4*E columns (A) or rows (B) */
    (void)K;
    switch (which) {
    case EXEC_MMA_A:
        *row = g + 8 * (r & 1);
        *col = t * E + sub + half * (r >> 1);
        break;
    case EXEC_MMA_B:
        *row = t * E + sub + half * r;
        *col = g;
        break;
    default:
        *row = g + 8 * (e >> 1);
        *col = 2 * t + (e & 1);
        break;
    }
}

bool exec_mma_frag_rc(bool wmma, unsigned M, unsigned N, unsigned K, int which,
                      unsigned bits, unsigned lane, unsigned e, unsigned *row, unsigned *col) {
    unsigned uniq = exec_mma_frag_unique(M, N, K, which);
    if (!uniq || !bits) return false;
    e %= uniq;
    if (!wmma) {
        /* mma.sync: one tile; 8-row shapes (m8n8k*) use the first rows only. (wmma's 8x8
         * shapes, f64 and sub-byte, are these too.) */
        if (M == 8 && which == EXEC_MMA_A) {
            unsigned E = bits >= 32 ? 1 : 32 / bits;
            *row = lane >> 2;
            *col = (lane & 3) * E + e;
            return e < E;
        }
        if (M == 8 && which == EXEC_MMA_C) {
            *row = lane >> 2;
            *col = 2 * (lane & 3) + e;
            return e < 2;
        }
        tile_rc(which, K, bits, lane, e, row, col);
        return *row < (which == EXEC_MMA_B ? K : M) && *col < (which == EXEC_MMA_A ? K : N);
    }
    unsigned r, c;
    unsigned a_tile = 16 * K / 32, b_tile = 8 * K / 32;
    if (M == 8 && N == 8) /* m8n8k4 f64, m8n8k32 s4/u4, m8n8k128 b1: mma.sync's tiles */
        return exec_mma_frag_rc(false, M, N, K, which, bits, lane, e, row, col);
    if (M == 16 && N == 16) {
        if (which == EXEC_MMA_A) { tile_rc(EXEC_MMA_A, K, bits, lane, e, &r, &c); }
        else if (which == EXEC_MMA_B) {
            tile_rc(EXEC_MMA_B, K, bits, lane, e % b_tile, &r, &c);
            c += 8 * (e / b_tile);
        } else {
            tile_rc(EXEC_MMA_C, K, bits, lane, e % 4, &r, &c);
            c += 8 * (e / 4);
        }
    } else if (M == 32 && N == 8) {
        if (which == EXEC_MMA_A) {
            tile_rc(EXEC_MMA_A, K, bits, lane, e % a_tile, &r, &c);
            r += 16 * (e / a_tile);
        } else if (which == EXEC_MMA_B) {
            tile_rc(EXEC_MMA_B, K, bits, lane, e, &r, &c);
        } else {
            tile_rc(EXEC_MMA_C, K, bits, lane, e % 4, &r, &c);
            r += 16 * (e / 4);
        }
    } else if (M == 8 && N == 32) {
        unsigned tr, tc;
        if (which == EXEC_MMA_A) {
            tile_rc(EXEC_MMA_B, K, bits, lane, e, &tr, &tc);
        } else if (which == EXEC_MMA_B) {
            tile_rc(EXEC_MMA_A, K, bits, lane, e % a_tile, &tr, &tc);
            tr += 16 * (e / a_tile);
        } else {
            tile_rc(EXEC_MMA_C, K, bits, lane, e % 4, &tr, &tc);
            tr += 16 * (e / 4);
        }
        r = tc;
        c = tr;
    } else {
        return false;
    }
    *row = r;
    *col = c;
    return true;
}
