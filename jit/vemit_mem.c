/* jit/vemit_mem.c — the vector tier's memory accesses of rows narrower than a warp: the
 * definitions (part of the generated file's prelude, after jit/vemit.c's) that load a
 * warp's 4-byte values when its 32 lanes are two rows of 16 threads (a block 16 threads
 * wide, as matrix products' 16 x 16 tiles are).
 *
 * In such a block a warp holds two rows, and threadIdx.x is not affine in the lane, so the
 * addresses are vectors and the whole-warp contiguity check of jit/vemit.c fails; what
 * they are, row by row, is simple: each half-warp's 16 addresses either step by 4 bytes
 * (a[row][tx], tile[k][tx]) or are all equal (a[row][k], tile[ty][k]). ROWS4Q (addresses
 * as 64-bit slots) and ROWS4N (32-bit lanes: shared-memory addresses) look at each half
 * (one chunk of 32-bit lanes, or two where chunks are 32 bytes): consecutive, one 64-byte
 * load after one range check; equal, one 4-byte load for the 16 lanes; else (or a half
 * out of range) 0, and the caller goes on to the lane-by-lane checks and gathers, whose
 * handler reports a bad access exactly as interpreted. Lanes are loaded into 32-bit lanes
 * (vn), which is what a 4-byte load defines.
 *
 * AFOK: an access whose address is affine in the lane with a step other than its size
 * (a[2 * stride * tid]): one check of the first and last lane on the path for the warp,
 * instead of building the 32 addresses and checking each (jit/vemit.c's
 * emit_mem_strided then accesses the lanes one by one).
 */
#include "internal.h"

void jit_vemit_mem_prelude(jit_buf *o) {
    jit_buf_printf(o,
        "/* rows of 16 lanes (jit/vemit_mem.c): one half-warp's 4-byte load, kind 1 its\n"
        " * addresses consecutive from c, 2 all equal to c, 0 neither; 0 when it cannot */\n"
        "static inline int ROW4(const unsigned char *base, int kind, u64 c, u64 lo, u64 hi, W *out) {\n"
        "  if (!kind || (c & 3u) || c < lo) return 0;\n"
        "  if (kind == 1) {\n"
        "    if (hi < 64u || c > hi - 64u) return 0;\n"
        "    __builtin_memcpy(out, base + c, 64); return 1; }\n"
        "  if (hi < 4u || c > hi - 4u) return 0;\n"
        "  u32 x_; __builtin_memcpy(&x_, base + c, 4); for (int j = 0; j < 16 / WL; j++) out[j] = BW(x_); return 1; }\n"
        "/* the warp's 32 addresses (slots, plus imm) as two rows of 16 (chunks of QL lanes) */\n"
        "static inline int ROWS4Q(const unsigned char *base, const vu *A, u64 imm, u64 lo, u64 hi, vn *out) {\n"
        "  for (int h = 0; h < 2; h++) {\n"
        "    const Q *q = &A->q[h * (16 / QL)]; u64 c0 = q[0][0]; Q oc = BQ(0), oe = BQ(0);\n"
        "    for (int k = 0; k < 16 / QL; k++) { Q d = q[k] - BQ(c0); oc |= d - IOTA.q[k] * 4u; oe |= d; }\n"
        "    int kind = !TESTQ(oc) ? 1 : !TESTQ(oe) ? 2 : 0;\n"
        "    if (!ROW4(base, kind, c0 + imm, lo, hi, &out->w[h * (16 / WL)])) return 0; }\n"
        "  return 1; }\n"
        "/* the same for addresses in 32-bit lanes (zero-extended, plus imm; consecutive ones\n"
        " * must not wrap at 2^32, as the slots would not) */\n"
        "static inline int ROWS4N(const unsigned char *base, const vn *A, u64 imm, u64 lo, u64 hi, vn *out) {\n"
        "  for (int h = 0; h < 2; h++) {\n"
        "    const W *w = &A->w[h * (16 / WL)]; u32 c0 = w[0][0]; W oc = BW(0), oe = BW(0);\n"
        "    for (int j = 0; j < 16 / WL; j++) { W d = w[j] - BW(c0); oc |= d - IOTAW.w[j] * 4u; oe |= d; }\n"
        "    int kind = !TESTW(oc) ? (c0 <= 0xffffffffu - 60u ? 1 : 0) : !TESTW(oe) ? 2 : 0;\n"
        "    if (!ROW4(base, kind, (u64)c0 + imm, lo, hi, &out->w[h * (16 / WL)])) return 0; }\n"
        "  return 1; }\n"
        "/* an access whose lane l's address is the affine register's value s + l * t (in 32\n"
        " * bits when w) plus imm, for the lanes of m: 1 when every such address lies in\n"
        " * [lo, hi - size] and is aligned, computed exactly (no lane's value wraps between the\n"
        " * first lane of m and its last, which bound the others); then *ef is the first lane's\n"
        " * address and *f that lane, and lane l's is *ef + (l - *f) * t */\n"
        "static inline int AFOK(u64 s, i64 t, u32 m, int w, i64 imm, u64 lo, u64 hi, u32 size, u64 *ef, u32 *f) {\n"
        "  if (!m || hi < size || ((u64)t & (size - 1))) return 0;\n"
        "  u32 f0 = (u32)__builtin_ctz(m), l = 31u - (u32)__builtin_clz(m);\n"
        "  u64 v0 = s + (u64)f0 * (u64)t; if (w) v0 = (u32)v0;\n"
        "  /* (the common case, a value below 2^62 and a step and offset below 2^32 in size:\n"
        "   * nothing wraps in 64 bits, so the checks below in 128-bit arithmetic, several\n"
        "   * times the instructions, are not needed) */\n"
        "  if (LIKELY(v0 < (1ull << 62) && t > -(1ll << 32) && t < (1ll << 32) && imm > -(1ll << 32) &&\n"
        "             imm < (1ll << 32))) {\n"
        "    i64 vl = (i64)v0 + (i64)(l - f0) * t;\n"
        "    if (vl < 0 || (w && vl > 0xffffffffll)) return 0;\n"
        "    i64 af = (i64)v0 + imm, al = vl + imm, mn = af < al ? af : al, mx = af < al ? al : af;\n"
        "    if (mn < 0 || (u64)mn < lo || (u64)mx > hi - size || ((u64)af & (size - 1))) return 0;\n"
        "    *ef = (u64)af; *f = f0; return 1; }\n"
        "  __int128 vf = (__int128)v0, vl = vf + (__int128)(i64)(l - f0) * t;\n"
        "  if (vl < 0 || vl > (w ? (__int128)0xffffffffu : (__int128)~0ull)) return 0;\n"
        "  __int128 af = vf + imm, al = vl + imm, mn = af < al ? af : al, mx = af < al ? al : af;\n"
        "  if (mn < (__int128)lo || mx > (__int128)(hi - size) || ((u64)af & (size - 1))) return 0;\n"
        "  *ef = (u64)af; *f = f0; return 1; }\n"
        "/* Out of the kernel's function, once per unit rather than once per access (jit/vemit.c's\n"
        " * emit_mem_v and spill): a whole-warp access's lane-by-lane path and what a handler's\n"
        " * call spills. Written inline at each of a kernel's hundreds of accesses\n"
        " * they made most of its text (unrolled loops: a 750-instruction kernel was 9.6 MB\n"
        " * preprocessed, 77 s of -O1); here each is one call, on paths that are rare or that\n"
        " * gather lane by lane anyway. */\n"
        "/* the lanes of m: every address (A + imm) in [lo, hi - size] and aligned */\n"
        "static __attribute__((noinline)) int GCHK(const vu *A, i64 imm, u64 lo, u64 hi, u32 m, u32 size) {\n"
        "  if (hi < size) return 0;\n"
        "  Q bad_ = BQ(0);\n"
        "  XQ(Q a_ = A->q[k_] + BQ(imm);\n"
        "     bad_ |= ((Q)(a_ < BQ(lo)) | (Q)(a_ > BQ(hi - size)) | (a_ & BQ(size - 1u))) & LM(m);)\n"
        "  return !TESTQ(bad_); }\n"
        "/* the lanes of m loaded (4 or 8 bytes, as slots; the other lanes 0) into *g once GCHK\n"
        " * holds: 0 when it does not */\n"
        "static __attribute__((noinline)) int GLD4(const unsigned char *base, const vu *A, i64 imm, u64 lo, u64 hi, u32 m, vu *g) {\n"
        "  if (!GCHK(A, imm, lo, hi, m, 4u)) return 0;\n"
        "  vu g_ = {0};\n"
        "  if (m == FULL) { XQ(g_.q[k_] = LDC4(base, A->q[k_] + BQ(imm));) }\n"
        "  else { XQ(if (KQ(m)) g_.q[k_] = GATHERM4(base, A->q[k_] + BQ(imm), KQ(m));) }\n"
        "  *g = g_; return 1; }\n"
        "static __attribute__((noinline)) int GLD8(const unsigned char *base, const vu *A, i64 imm, u64 lo, u64 hi, u32 m, vu *g) {\n"
        "  if (!GCHK(A, imm, lo, hi, m, 8u)) return 0;\n"
        "  vu g_ = {0};\n"
        "  if (m == FULL) { XQ(g_.q[k_] = LDC8(base, A->q[k_] + BQ(imm));) }\n"
        "  else { XQ(if (KQ(m)) g_.q[k_] = GATHERM8(base, A->q[k_] + BQ(imm), KQ(m));) }\n"
        "  *g = g_; return 1; }\n"
        "/* a register file's 32-bit lanes (its first 128 bytes) widened to slots in place (a\n"
        " * register of 32-bit lanes spilled; a bail-out's vb_fix); an affine register's lanes\n"
        " * (b + l * st, in the width mk) into its slots */\n"
        "static __attribute__((noinline)) void WIDENR(u64 *p) { vn n_; __builtin_memcpy(&n_, p, 128); STV(p, VN(n_)); }\n"
        "static __attribute__((noinline)) void STAF(u64 *p, u64 b, i64 st, u64 mk) { STV(p, AFV(b, st, mk)); }\n\n");
}
