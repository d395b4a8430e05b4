/* jit/vemit_rows.c — the vector tier's accesses of warps that hold several rows of a 2-D
 * block: the prelude's definitions and the text of one access.
 *
 * In a block W = blockDim.x threads wide, W a power of two below 32, a warp holds R = 32 / W
 * rows of W threads: lane l is thread x = l % W of row y = l / W, threadIdx.x is x and
 * threadIdx.y is the warp's first row plus y. Addresses made of them (tile[ty][k],
 * tile[k][tx], a[row * n + tx]) are then "row-affine": lane l's value is h + x * c + y * g,
 * c a constant of the code (the step along a row), h and g values of the run (the first
 * lane's value, the step from row to row), which jit/vemit.c's rows variant finds
 * (find_rows) and holds as two scalars. An access whose
 * address steps along a row by 0 (one value per row: a broadcast) or by its size (each row
 * contiguous) is then a few vector loads or stores of whole rows, or one load a row,
 * after one range check of the warp's extreme lanes, instead of a check of 32 addresses
 * and a gather.
 *
 * ROWOK: the warp's 32 addresses (h + x * c + y * g + imm, exact: a 32-bit register's
 * lanes must not wrap) lie in [lo, hi - size] and are aligned; the extremes are at the
 * corners (x, y) = (0 or W - 1, 0 or R - 1), the form being linear in both.
 * ROWNW: a 32-bit register's lanes widen (zero- or sign-extended) to the same form.
 * RFQ, RFW, RFV, ROWFILL: a row-affine register's lanes, where a vector is wanted.
 * The access of the 32 lanes once ROWOK holds: in chunks of the host's vectors where a
 * chunk lies in one row (W at least the chunk's lanes), else lane by lane in lane order
 * (ROWLD4L .. ROWST8L; a store's later lane's value stays where two lanes meet, as
 * interpreted).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* VCUDA_JIT_ROWS: 0 turns the rows variant off (such blocks run the general one), `count`
 * makes the generated code count the row accesses it makes (vr_hits, a symbol of each
 * compiled unit, for tests); else it is on. */
bool jit_vemit_rows_enabled(void) {
    const char *e = getenv("VCUDA_JIT_ROWS");
    return !e || strcmp(e, "0");
}

static bool rows_counted(void) {
    const char *e = getenv("VCUDA_JIT_ROWS");
    return e && !strcmp(e, "count");
}

void jit_vemit_rows_prelude(jit_buf *o) {
    if (rows_counted())
        jit_buf_printf(o, "__attribute__((visibility(\"default\"))) u64 vr_hits;\n"
                          "#define VR_COUNT() __atomic_fetch_add(&vr_hits, 1, __ATOMIC_RELAXED)\n");
    else
        jit_buf_printf(o, "#define VR_COUNT() ((void)0)\n");
    jit_buf_printf(o,
        "/* rows of a 2-D block (jit/vemit_rows.c): lw the log2 of the block's width W (< 32) */\n"
        "/* (64-bit arithmetic, overflow checked: c is 0 or the size, so only the rows' step\n"
        " * can make a lane's value smaller than the first's) */\n"
        "static inline int ROWOK(u64 h, i64 c, i64 g, int w32, i64 imm, u64 lo, u64 hi, u32 size, u32 lw) {\n"
        "  u64 b = w32 ? (u64)(u32)h : h, cx = (u64)c * ((1u << lw) - 1u), mn, mx; i64 gy;\n"
        "  if (c < 0 || c > 8 || hi < size || __builtin_mul_overflow(g, (i64)((32u >> lw) - 1u), &gy)) return 0;\n"
        "  if (gy < 0) { if (b < -(u64)gy || __builtin_add_overflow(b, cx, &mx)) return 0; mn = b + (u64)gy; }\n"
        "  else { mn = b; if (__builtin_add_overflow(b, (u64)gy + cx, &mx)) return 0; }\n"
        "  if (w32 && mx > 0xffffffffull) return 0;\n"
        "  if (imm >= 0 ? __builtin_add_overflow(mx, (u64)imm, &mx) : mn < -(u64)imm) return 0;\n"
        "  mn += (u64)imm; if (imm < 0) mx += (u64)imm;\n"
        "  return mn >= lo && mx <= hi - size && !((mn | (u64)g) & (size - 1u)); }\n"
        "/* a 32-bit register's form (h, c, g: c and g sign-extended) read as 64-bit lanes,\n"
        " * zero- or sign-extended (sgn): the same form when no lane leaves the range */\n"
        "static inline int ROWNW(u64 h, i64 c, i64 g, int sgn, u32 lw) {\n"
        "  i64 b = sgn ? (i64)(i32)(u32)h : (i64)(u32)h;\n"
        "  i64 cx = c * (i64)((1u << lw) - 1u), gy = g * (i64)((32u >> lw) - 1u);\n"
        "  i64 mn = b + (cx < 0 ? cx : 0) + (gy < 0 ? gy : 0), mx = b + (cx > 0 ? cx : 0) + (gy > 0 ? gy : 0);\n"
        "  return sgn ? mn >= -0x80000000ll && mx <= 0x7fffffffll : mn >= 0 && mx <= 0xffffffffll; }\n"
        "/* a row-affine register's lanes (h, c, g; in a width: mk) in chunk k_ of slots, j_ of\n"
        " * 32-bit lanes, all 32; lane x, y of each chunk: LXQ_, LYQ_, LXW_, LYW_ (the function's) */\n"
        "#define RFQ(h, c, g, mk) ((BQ(h) + LXQ_.q[k_] * (u64)(c) + LYQ_.q[k_] * (u64)(g)) & BQ(mk))\n"
        "#define RFV(h, c, g, mk) ({ vu rf_; XQ(rf_.q[k_] = RFQ(h, c, g, mk);) rf_; })\n"
        "#define RFW(h, c, g) (BW((u32)(h)) + LXW_.w[j_] * (u32)(c) + LYW_.w[j_] * (u32)(g))\n"
        "/* the same into a register file's 32 slots (lw: the block's) */\n"
        "static inline void ROWFILL(u64 *r, u64 h, i64 c, i64 g, u64 mk, u32 lw) {\n"
        "  for (u32 l = 0; l < 32; l++) r[l] = (h + (u64)(l & ((1u << lw) - 1u)) * (u64)c + (u64)(l >> lw) * (u64)g) & mk; }\n"
        "/* lane l's offset from the first lane's address */\n"
        "#define ROWOFF_(l, c, g, lw) ((i64)((u32)(l) & ((1u << (lw)) - 1u)) * (c) + (i64)((u32)(l) >> (lw)) * (g))\n"
        "/* lane by lane, in lane order, where a chunk of the host's vectors spans rows (W\n"
        " * narrower than it): the 32 lanes' 4- or 8-byte values loaded from p (the first lane's\n"
        " * address) into a vn or vu, or stored from one along rows (c: the size) */\n"
        "static __attribute__((noinline)) void ROWLD4L(const unsigned char *p, i64 c, i64 g, u32 lw, vn *out) {\n"
        "  for (int l = 0; l < 32; l++) { u32 x; __builtin_memcpy(&x, p + ROWOFF_(l, c, g, lw), 4); out->w[l / WL][l %% WL] = x; } }\n"
        "static __attribute__((noinline)) void ROWLD8L(const unsigned char *p, i64 c, i64 g, u32 lw, vu *out) {\n"
        "  for (int l = 0; l < 32; l++) __builtin_memcpy(&out->q[l / QL][l %% QL], p + ROWOFF_(l, c, g, lw), 8); }\n"
        "static __attribute__((noinline)) void ROWST4L(unsigned char *p, i64 g, u32 lw, const vn *v) {\n"
        "  for (int l = 0; l < 32; l++) { u32 x = v->w[l / WL][l %% WL]; __builtin_memcpy(p + ROWOFF_(l, 4, g, lw), &x, 4); } }\n"
        "static __attribute__((noinline)) void ROWST8L(unsigned char *p, i64 g, u32 lw, const vu *v) {\n"
        "  for (int l = 0; l < 32; l++) __builtin_memcpy(p + ROWOFF_(l, 8, g, lw), &v->q[l / QL][l %% QL], 8); }\n\n");
}

/* The access of instruction i (load: into register dst, narrow: of 32-bit lanes; store:
 * of the value src, a vu expression, or narrow register src) at address h + x * c + y * g
 * + imm when every lane is on the path and ROWOK holds; the text is `if (...) { ... } else`,
 * the access's other paths follow; its range (lo, hi, base, ok) from jit_vemit_mem_range. */
void jit_vemit_rows_access(jit_buf *o, const jit_vrow_access *a) {
    jit_buf_printf(o, "    if (LIKELY(m == FULL) && ({ int did_ = 0;\n");
    jit_vemit_mem_range(o, a->insn, a->shared, a->load);
    jit_buf_printf(o, "      if (ok && ROWOK(%s, %lldll, %s, %d, %lldll, lo, hi, %uu, lw_)) {\n"
                      "        unsigned char *p_ = base + (%s%s) + (u64)%lldll;\n",
                   a->h, (long long)a->c, a->g, a->w32 ? 1 : 0, (long long)a->imm, a->size,
                   a->w32 ? "(u64)(u32)" : "", a->h, (long long)a->imm);
    /* a chunk of the host's vectors (WL 32-bit lanes, QL slots) in one row: its lanes'
     * values at one address (c 0) or consecutive; else the lanes one by one */
    long long c = a->c, sz = a->size;
    const char *g = a->g;
    if (a->load && sz == 4) {
        const char *d = a->narrow ? a->dst : "t_";
        if (!a->narrow) jit_buf_printf(o, "        vn t_;\n");
        jit_buf_printf(o, "        if ((1u << lw_) >= WL) { XW(const unsigned char *q_ = p_ + ROWOFF_(j_ * WL, %lldll, %s, lw_);\n", c, g);
        if (c) jit_buf_printf(o, "          __builtin_memcpy(&%s.w[j_], q_, 4 * WL);)", d);
        else jit_buf_printf(o, "          u32 x_; __builtin_memcpy(&x_, q_, 4); %s.w[j_] = BW(x_);)", d);
        jit_buf_printf(o, " }\n        else ROWLD4L(p_, %lldll, %s, lw_, &%s);\n", c, g, d);
        if (!a->narrow) jit_buf_printf(o, "        %s = VN(t_);\n", a->dst);
    } else if (a->load) {
        jit_buf_printf(o, "        if ((1u << lw_) >= QL) { XQ(const unsigned char *q_ = p_ + ROWOFF_(k_ * QL, %lldll, %s, lw_);\n", c, g);
        if (c) jit_buf_printf(o, "          __builtin_memcpy(&%s.q[k_], q_, 8 * QL);)", a->dst);
        else jit_buf_printf(o, "          u64 x_; __builtin_memcpy(&x_, q_, 8); %s.q[k_] = BQ(x_);)", a->dst);
        jit_buf_printf(o, " }\n        else ROWLD8L(p_, %lldll, %s, lw_, &%s);\n", c, g, a->dst);
    } else if (sz == 4) {
        const char *d = a->narrow ? a->src : "t_";
        if (!a->narrow) jit_buf_printf(o, "        vn t_ = NOFV(%s);\n", a->src);
        jit_buf_printf(o, "        if ((1u << lw_) >= WL) { XW(__builtin_memcpy(p_ + ROWOFF_(j_ * WL, 4, %s, lw_), &%s.w[j_], 4 * WL);) }\n"
                          "        else ROWST4L(p_, %s, lw_, &%s);\n", g, d, g, d);
    } else {
        jit_buf_printf(o, "        vu t_ = %s;\n"
                          "        if ((1u << lw_) >= QL) { XQ(__builtin_memcpy(p_ + ROWOFF_(k_ * QL, 8, %s, lw_), &t_.q[k_], 8 * QL);) }\n"
                          "        else ROWST8L(p_, %s, lw_, &t_);\n", a->src, g, g);
    }
    jit_buf_printf(o, "        VR_COUNT(); did_ = 1; }\n      did_; })) {\n    } else\n");
}
