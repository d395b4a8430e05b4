/* jit/vemit_lanes.c — the vector tier's stores of some lanes of a warp (jit/vemit.c calls
 * these where a store's mask is not the whole warp): the text that writes exactly the
 * lanes of the mask m, no other byte.
 *
 * A chunk of lanes (the host's vector) wholly in m is one vector store. What is left, the
 * lanes of chunks partly in m, is stored lane by lane from a copy of the register in an
 * array, up to 16 of them; beyond that, a masked store per chunk (STCW, STCQ4, STCQ8 of
 * the prelude). Why not the masked store always: the divergent reductions' masks (every
 * 2nd, 4th, ... lane: tid % (2 * stride) == 0) leave every chunk partly in m, and a masked
 * store costs a dozen cycles or more per chunk on the AVX2 hosts measured (AMD Zen 3), and
 * a later load of those bytes cannot take its data from it; a lane's scalar store is one
 * cycle. Measured on reduceNeighbored over 2^24 ints (bench/RESULTS.md, "divergent
 * reductions"): the time per warp of the stride loop fell by a sixth.
 *
 * Stores whose lanes are a constant or run-time step apart (a[2 * stride * tid]) go lane by
 * lane from the first lane of the mask; where the mask's lanes are consecutive (the usual
 * `if (tid < n)`), along a running address.
 *
 * Loads whose 4-byte lanes are two words apart (reduceNeighboredLess's first step, pairs
 * of neighbours): a chunk of lanes all on the path is two vector loads and a shuffle of
 * their even words (SL2W), not one scalar load and insert per lane. A strided store by the
 * whole warp (the same pairs' sums) writes each chunk's lanes straight from the register,
 * unrolled (STSW), not through the copy in an array and a loop.
 */
#include "internal.h"

/* Up to this many lanes outside whole chunks, lane by lane; more, a masked store per
 * chunk (fewer instructions where nearly every lane of every chunk is stored) */
#define LANE_STORES_MAX 16

void jit_vemit_store_some(jit_buf *o, const char *src, bool narrow, unsigned size) {
    if (narrow) { /* 32-bit lanes: src is a vn, chunks of WL lanes */
        jit_buf_printf(o,
            "        else { u32 rest_ = m;\n"
            "          XW(if (KW(m) == (1u << WL) - 1u) { __builtin_memcpy(base + a0 + j_ * (4 * WL), &%s.w[j_], 4 * WL);\n"
            "                                             rest_ &= ~(((1u << WL) - 1u) << (WL * j_)); })\n"
            "          if (__builtin_popcount(rest_) > %d) { XW(STCW(base + a0 + j_ * (4 * WL), KW(rest_), %s.w[j_]);) }\n"
            "          else if (rest_) { u32 la_[32]; __builtin_memcpy(la_, &%s, 128);\n"
            "            for (u32 mm_ = rest_; mm_; mm_ &= mm_ - 1) { u32 l_ = (u32)__builtin_ctz(mm_);\n"
            "              __builtin_memcpy(base + a0 + 4u * l_, &la_[l_], 4); } } }\n",
            src, LANE_STORES_MAX, src, src);
        return;
    }
    /* 64-bit slots: src is a vu, chunks of QL lanes; a 4-byte store writes their low halves */
    const char *whole = size == 4
        ? "Q32 t_ = __builtin_convertvector(%s.q[k_], Q32); __builtin_memcpy(base + a0 + k_ * (4 * QL), &t_, sizeof t_);"
        : "__builtin_memcpy(base + a0 + k_ * (8 * QL), &%s.q[k_], sizeof(Q));";
    jit_buf_printf(o, "        else { u32 rest_ = m;\n          XQ(if (KQ(m) == (1u << QL) - 1u) { ");
    jit_buf_printf(o, whole, src);
    jit_buf_printf(o,
        "\n                                             rest_ &= ~(((1u << QL) - 1u) << (QL * k_)); })\n"
        "          if (__builtin_popcount(rest_) > %d) { XQ(STCQ%u(base + a0 + k_ * (%uu * QL), KQ(rest_), %s.q[k_]);) }\n"
        "          else if (rest_) { u64 la_[32]; __builtin_memcpy(la_, &%s, 256);\n"
        "            for (u32 mm_ = rest_; mm_; mm_ &= mm_ - 1) { u32 l_ = (u32)__builtin_ctz(mm_);\n"
        "              %s x_ = (%s)la_[l_]; __builtin_memcpy(base + a0 + %uu * l_, &x_, %u); } } }\n",
        LANE_STORES_MAX, size, size, src, src, size == 4 ? "u32" : "u64", size == 4 ? "u32" : "u64",
        size, size);
}

void jit_vemit_lane_array(jit_buf *o, unsigned reg, bool narrow) {
    /* (the lanes by a flat index: a lane of a vector of chunks by a variable index costs
     * the compiler a division of the index into chunk and element for every lane) */
    if (narrow) jit_buf_printf(o, "        u32 la_[32]; __builtin_memcpy(la_, &r%u, 128);\n", reg);
    else jit_buf_printf(o, "        u64 la_[32]; __builtin_memcpy(la_, &r%u, 256);\n", reg);
}

void jit_vemit_store_strided(jit_buf *o, const char *T, unsigned size, const char *val) {
    /* lanes f_ to the last of m all in m (if (tid < n) and the like): a running address, no
     * count of trailing zeros nor product per lane; else lane by lane through the mask.
     * (Either way in lane order: with a step of 0 the last lane's value stays.) */
    jit_buf_printf(o,
        "        u32 fm_ = m >> f_;\n"
        "        if (!(fm_ & (fm_ + 1u))) { unsigned char *p_ = base + ef_; u32 ln_ = 32u - (u32)__builtin_clz(m);\n"
        "          for (u32 l0_ = f_; l0_ < ln_; l0_++, p_ += st_) { %s y_ = (%s)(%s); __builtin_memcpy(p_, &y_, %u); } }\n"
        "        else for (u32 mm_ = m; mm_; mm_ &= mm_ - 1) { u32 l0_ = __builtin_ctz(mm_); %s y_ = (%s)(%s);\n"
        "          __builtin_memcpy(base + ef_ + (u64)((i64)(l0_ - f_) * st_), &y_, %u); }\n",
        T, T, val, size, T, T, val, size);
}

void jit_vemit_lanes_prelude(jit_buf *o) {
    /* (the second load starts at the chunk's middle word, so that both end within the
     * words from the first lane's to the last's, which the access's check covered: a
     * load of bytes past the last lane could leave the allocation) */
    jit_buf_printf(o,
        "/* a chunk of WL 4-byte lanes two words apart from p (lane l at p + 8 * l): the\n"
        " * even words of words 0 to WL - 1 and WL - 1 to 2 * WL - 2 (jit/vemit_lanes.c) */\n"
        "#if QL == 8\n"
        "#define SL2W(p) ({ const unsigned char *s2_ = (p); W a_, b_; __builtin_memcpy(&a_, s2_, 64);\\\n"
        "  __builtin_memcpy(&b_, s2_ + 60, 64); (W)__builtin_shufflevector(a_, b_, 0, 2, 4, 6, 8, 10, 12, 14,\\\n"
        "  17, 19, 21, 23, 25, 27, 29, 31); })\n"
        "#else\n"
        "#define SL2W(p) ({ const unsigned char *s2_ = (p); W a_, b_; __builtin_memcpy(&a_, s2_, 32);\\\n"
        "  __builtin_memcpy(&b_, s2_ + 28, 32); (W)__builtin_shufflevector(a_, b_, 0, 2, 4, 6, 9, 11, 13, 15); })\n"
        "#endif\n"
        "/* a chunk of WL 4-byte lanes stored at q + e * st, lane e, in lane order (a step of\n"
        " * 0: the last lane's value stays) */\n"
        "static inline void STSW(unsigned char *q, i64 st, W v) {\n"
        "#pragma GCC unroll 16\n"
        "  for (int e = 0; e < WL; e++) { u32 x_ = v[e]; __builtin_memcpy(q + e * st, &x_, 4); } }\n");
}

void jit_vemit_store_strided_full(jit_buf *o, unsigned reg) {
    /* (all 32 lanes on the path: the first is lane 0, at ef_) */
    jit_buf_printf(o, "        if (m == FULL) { XW(STSW(base + ef_ + (i64)(WL * j_) * st_, st_, r%u.w[j_]);) }\n"
                      "        else {\n", reg);
}
