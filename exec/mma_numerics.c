/* exec/mma_numerics.c — the arithmetic of the tensor cores (wmma.mma, mma.sync).
 *
 * A tensor core does not compute a dot product as a loop of fused multiply-adds. What a
 * Hopper GPU does (measured on an H200, cc 9.0, with 2,400 random and crafted 16x16 and
 * 16x8 products, wmma and mma.sync, every shape and type below: all of their 389,120
 * results are reproduced bit for bit; tests/data/h100/mma_numerics.txt keeps a sample)
 * for floating-point inputs is:
 *
 *   1. Every product a_k * b_k is exact (f16/bf16/tf32 significands multiplied in full).
 *      tf32 inputs are f32 registers whose low 13 bits are ignored (truncated, not rounded).
 *   2. The products of one block and the accumulator c are aligned to the largest
 *      exponent among them, where a product's exponent is ea + eb (the exponent fields'
 *      values, subnormals counting as the minimum exponent; not the normalised exponent
 *      of the product, which may be one more) and c's is its own field's. Zero terms take
 *      no part in choosing the largest.
 *   3. Each term is truncated toward zero to a multiple of 2^(emax - 25): 25 bits below
 *      the largest term's leading bit are kept, everything below is dropped per term.
 *   4. The truncated terms are added exactly (no rounding between them, in any order).
 *   5. The sum is rounded once: toward zero to f32 for an f32 result, to nearest-even for
 *      an f16 result. A zero result is +0; a result beyond the largest finite value is
 *      infinity (even when rounding toward zero).
 *
 * The block is the whole K of the instruction (mma.m16n8k16 and wmma's m16n16k16 add 16
 * products and c in one step; mma.m16n8k8.tf32 8 products), except wmma.m16n16k8.tf32,
 * which runs as two steps of 4 (as the two k4 instructions it is compiled to): steps 1-5
 * on k = 0..3 and c, then on k = 4..7 and that step's f32 result.
 * Infinities and NaNs follow IEEE (inf * 0 and inf - inf give NaN); every NaN result is
 * the canonical 0x7fffffff (f32) or 0x7fff (f16). f64 (DMMA, m8n8k4 and m16n8k4/k8/k16)
 * is a chain of IEEE fused multiply-adds, c first, then k = 0, 1, ... in order. Integer
 * products (s8, u8, s4, u4) are exact, summed in 32 bits with wrap-around, or clamped with
 * .satfinite; b1 adds the population count of a AND b or a XOR b.
 *
 * fp8 inputs (e4m3, e5m2: wgmma's m64nNk32, measured on an H200 with 45,056 products of
 * random e4m3/e5m2 operands in four styles, mixed formats and f32 accumulators up to 2^19,
 * into f32 and f16: tests/cuda/hopper/wgmma_int_fp8.cu reproduces all of them bit for bit)
 * go through the same steps with a much narrower adder, the one behind the "14-bit"
 * accumulation of fp8 GEMMs on Hopper: all 32 products and c form one block (step 2 as
 * above), each term is truncated to a multiple of 2^(emax - 13) (13 bits below the largest
 * term's leading bit, where the other formats keep 25), and an f32 result is truncated to
 * 13 fraction bits (its low 10 bits are always zero); an f16 result is the exact sum of
 * the truncated terms rounded to nearest-even. e4m3 has no infinity (S.1111.111 is its
 * NaN); e5m2 has IEEE infinities and NaNs.
 */
#include "mma_internal.h"
#include "alu_internal.h"

#include <math.h>
#include <string.h>

unsigned exec_mma_fmt_bits(int fmt) {
    switch (fmt) {
    case EXEC_MMA_F16: case EXEC_MMA_BF16: return 16;
    case EXEC_MMA_TF32: case EXEC_MMA_F32: case EXEC_MMA_S32: return 32;
    case EXEC_MMA_F64: return 64;
    case EXEC_MMA_S8: case EXEC_MMA_U8: case EXEC_MMA_E4M3: case EXEC_MMA_E5M2: return 8;
    case EXEC_MMA_S4: case EXEC_MMA_U4: return 4;
    case EXEC_MMA_B1: return 1;
    default: return 0;
    }
}

/* A floating-point element taken apart. */
typedef struct mma_num {
    enum { NUM_ZERO, NUM_FINITE, NUM_INF, NUM_NAN } cls;
    bool neg;
    int exp;           /* the exponent field's value (subnormal: the minimum exponent) */
    uint64_t sig;      /* significand with its leading bit, frac fraction bits */
    int frac;
} mma_num;

static void fmt_shape(int fmt, int *ebits, int *mbits) {
    switch (fmt) {
    case EXEC_MMA_F16: *ebits = 5; *mbits = 10; break;
    case EXEC_MMA_BF16: *ebits = 8; *mbits = 7; break;
    case EXEC_MMA_TF32: *ebits = 8; *mbits = 10; break; /* the top 19 bits of an f32 */
    case EXEC_MMA_E4M3: *ebits = 4; *mbits = 3; break;
    case EXEC_MMA_E5M2: *ebits = 5; *mbits = 2; break;
    default: *ebits = 8; *mbits = 23; break;              /* f32 */
    }
}

static mma_num unpack(uint64_t bits, int fmt) {
    int eb, mb;
    fmt_shape(fmt, &eb, &mb);
    if (fmt == EXEC_MMA_TF32) bits = (bits & 0xffffffffu) >> 13;
    mma_num n;
    uint64_t m = bits & ((1ull << mb) - 1);
    unsigned e = (unsigned)(bits >> mb) & ((1u << eb) - 1);
    int bias = (1 << (eb - 1)) - 1;
    n.neg = (bits >> (eb + mb)) & 1;
    n.frac = mb;
    n.exp = e ? (int)e - bias : 1 - bias;
    n.sig = e ? m | (1ull << mb) : m;
    if (fmt == EXEC_MMA_E4M3) /* no infinities: only S.1111.111 is special, a NaN */
        n.cls = (bits & 0x7f) == 0x7f ? NUM_NAN : n.sig ? NUM_FINITE : NUM_ZERO;
    else if (e == (1u << eb) - 1) n.cls = m ? NUM_NAN : NUM_INF;
    else n.cls = n.sig ? NUM_FINITE : NUM_ZERO;
    return n;
}

/* s * 2^q rounded to fmt (f32 or f16): toward zero, or to nearest even; to keep fraction
 * bits (fewer than the format's for fp8 products into f32, else the format's own). */
static uint64_t round_to(int64_t s, int q, int fmt, bool nearest, int keep) {
    if (s == 0) return 0;
    int eb, fb, mb;
    fmt_shape(fmt, &eb, &fb);
    mb = keep < fb ? keep : fb;
    uint64_t sign = (uint64_t)(s < 0) << (eb + fb);
    uint64_t mag = s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;
    int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
    int lead = 63 - __builtin_clzll(mag);
    int e = lead + q;                   /* exponent of the leading bit */
    if (e < emin) e = emin;             /* subnormal: fixed quantum */
    int shift = (e - mb) - q;           /* drop this many low bits */
    uint64_t f;
    if (shift <= 0) {
        f = mag << -shift;
    } else if (shift >= 64) {
        f = nearest && shift == 64 && mag > (1ull << 63) ? 1 : 0;
    } else {
        f = mag >> shift;
        uint64_t rem = mag & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        if (nearest && (rem > half || (rem == half && (f & 1)))) f++;
    }
    if (f >> (mb + 1)) { f >>= 1; e++; }  /* rounding carried into a new bit */
    if (e > bias) {                       /* overflow */
        uint64_t inf = ((1ull << eb) - 1) << fb;
        return sign | inf;
    }
    if (f == 0) return 0;                 /* rounded to zero: +0 */
    f <<= fb - mb;
    if (!(f >> fb)) return sign | f;      /* subnormal */
    return sign | (uint64_t)(e + bias) << fb | (f & ((1ull << fb) - 1));
}

static uint64_t nan_of(int fmt) { return fmt == EXEC_MMA_F16 ? 0x7fffu : 0x7fffffffu; }
static uint64_t inf_of(int fmt, bool neg) {
    return fmt == EXEC_MMA_F16 ? (neg ? 0xfc00u : 0x7c00u) : (neg ? 0xff800000u : 0x7f800000u);
}

/* Steps 1-5 of the header for products pa[0..n) * pb[0..n) (unpacked) and c (format
 * cfmt); fp8 products take the narrower adder. */
static uint64_t block_dot(const mma_num *pa, const mma_num *pb, unsigned n, uint64_t c,
                          int cfmt, int dfmt) {
    bool fp8 = n && pa[0].frac <= 3;
    mma_num nc = unpack(c, cfmt);
    bool nan = nc.cls == NUM_NAN, pinf = nc.cls == NUM_INF && !nc.neg,
         ninf = nc.cls == NUM_INF && nc.neg;
    for (unsigned k = 0; k < n; k++) {
        bool inf = pa[k].cls == NUM_INF || pb[k].cls == NUM_INF;
        if (pa[k].cls == NUM_NAN || pb[k].cls == NUM_NAN) nan = true;
        else if (inf && (pa[k].cls == NUM_ZERO || pb[k].cls == NUM_ZERO)) nan = true;
        else if (inf) (pa[k].neg != pb[k].neg ? &ninf : &pinf)[0] = true;
    }
    if (nan || (pinf && ninf)) return nan_of(dfmt);
    if (pinf || ninf) return inf_of(dfmt, ninf);

    int emax = INT32_MIN;
    for (unsigned k = 0; k < n; k++)
        if (pa[k].cls == NUM_FINITE && pb[k].cls == NUM_FINITE && pa[k].exp + pb[k].exp > emax)
            emax = pa[k].exp + pb[k].exp;
    if (nc.cls == NUM_FINITE && nc.exp > emax) emax = nc.exp;
    if (emax == INT32_MIN) return 0; /* every term is zero */

    int q = emax - (fp8 ? 13 : 25); /* the quantum every term is truncated to */
    int64_t sum = 0;
    for (unsigned k = 0; k <= n; k++) {
        uint64_t sig;
        int lsb;
        bool neg;
        if (k < n) {
            if (pa[k].cls != NUM_FINITE || pb[k].cls != NUM_FINITE) continue;
            sig = pa[k].sig * pb[k].sig;
            lsb = pa[k].exp + pb[k].exp - pa[k].frac - pb[k].frac;
            neg = pa[k].neg != pb[k].neg;
        } else {
            if (nc.cls != NUM_FINITE) continue;
            sig = nc.sig;
            lsb = nc.exp - nc.frac;
            neg = nc.neg;
        }
        int sh = lsb - q; /* at most a few bits left: terms lie below 2^(emax+2) */
        uint64_t v = sh >= 0 ? sig << sh : (-sh >= 64 ? 0 : sig >> -sh);
        sum += neg ? -(int64_t)v : (int64_t)v;
    }
    return round_to(sum, q, dfmt, dfmt == EXEC_MMA_F16, fp8 ? 13 : 23);
}

/* The products of K unpacked pairs and c, added block by block (exec_mma_dot). */
static uint64_t float_dot(const mma_num *pa, const mma_num *pb, unsigned K, unsigned block,
                          uint64_t c, int cfmt, int dfmt) {
    if (block == 0 || block > K) block = K;
    uint64_t acc = c;
    int accfmt = cfmt;
    for (unsigned k0 = 0; k0 < K; k0 += block) {
        unsigned n = K - k0 < block ? K - k0 : block;
        acc = block_dot(pa + k0, pb + k0, n, acc, accfmt, dfmt);
        accfmt = dfmt;
    }
    return acc;
}

static int64_t int_elem(uint32_t bits, int fmt) {
    switch (fmt) {
    case EXEC_MMA_S8: return (int8_t)(uint8_t)bits;
    case EXEC_MMA_U8: return (uint8_t)bits;
    case EXEC_MMA_S4: return (int64_t)((bits & 0xf) ^ 8) - 8;
    case EXEC_MMA_U4: return bits & 0xf;
    default: return (int32_t)bits;
    }
}

uint64_t exec_mma_dot(const uint32_t *a, const uint32_t *b, unsigned K, unsigned block,
                      int afmt, int bfmt, uint64_t c, int cfmt, int dfmt, unsigned flags) {
    if (cfmt == EXEC_MMA_S32) {
        int64_t s = (int32_t)(uint32_t)c;
        if (afmt == EXEC_MMA_B1) { /* the population count of the bitwise products */
            for (unsigned k = 0; k < K; k++)
                s += (flags & EXEC_MMA_B1_AND ? a[k] & b[k] : a[k] ^ b[k]) & 1;
        } else {
            for (unsigned k = 0; k < K; k++) s += int_elem(a[k], afmt) * int_elem(b[k], bfmt);
        }
        if (flags & EXEC_MMA_SATFINITE) {
            if (s > INT32_MAX) s = INT32_MAX;
            if (s < INT32_MIN) s = INT32_MIN;
        }
        return (uint32_t)(int32_t)(uint32_t)(uint64_t)s;
    }
    mma_num pa[EXEC_MMA_MAX_K], pb[EXEC_MMA_MAX_K];
    if (K > EXEC_MMA_MAX_K) K = EXEC_MMA_MAX_K;
    for (unsigned k = 0; k < K; k++) {
        pa[k] = unpack(a[k], afmt);
        pb[k] = unpack(b[k], bfmt);
    }
    return float_dot(pa, pb, K, block, c, cfmt, dfmt);
}

void exec_mma_matmul(const uint32_t *A, const uint32_t *B, const uint64_t *C, uint64_t *D,
                     unsigned M, unsigned N, unsigned K, unsigned block, int afmt, int bfmt,
                     int cfmt, int dfmt, unsigned flags) {
    if (cfmt == EXEC_MMA_S32 || K > EXEC_MMA_MAX_K || M * K > 512 || N * K > 512) {
        for (unsigned i = 0; i < M; i++)
            for (unsigned j = 0; j < N; j++)
                D[i * N + j] = exec_mma_dot(A + i * K, B + j * K, K, block, afmt, bfmt,
                                            C[i * N + j], cfmt, dfmt, flags);
        return;
    }
    /* each element of A and B is taken apart once, not once per product it is in */
    mma_num pa[512], pb[512]; /* the largest floating-point A and B: 32x16 */
    for (unsigned i = 0; i < M * K; i++) pa[i] = unpack(A[i], afmt);
    for (unsigned i = 0; i < N * K; i++) pb[i] = unpack(B[i], bfmt);
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++)
            D[i * N + j] = float_dot(pa + i * K, pb + j * K, K, block, C[i * N + j], cfmt, dfmt);
}

uint64_t exec_mma_dot_f64(const uint64_t *a, const uint64_t *b, unsigned K, uint64_t c) {
    double acc, x, y;
    memcpy(&acc, &c, 8);
    for (unsigned k = 0; k < K; k++) {
        memcpy(&x, &a[k], 8);
        memcpy(&y, &b[k], 8);
        acc = fma(x, y, acc);
    }
    uint64_t r;
    memcpy(&r, &acc, 8);
    if (isnan(acc)) r = 0x7fffffffffffffffull;
    return r;
}

/* fp8 mma.sync (the header): an element of fmt as the f16 bits F2FP makes of it. */
static uint32_t fp8_to_f16(uint32_t bits, int fmt) {
    if (fmt == EXEC_MMA_E5M2) return (bits & 0xffu) << 8; /* e5m2 is f16's top byte */
    return (uint32_t)alu_double_to_fmt(alu_fmt_to_double(bits & 0xffu, &alu_fmt_e4m3),
                                       EXEC_RND_RN, &alu_fmt_f16, false);
}

void exec_mma_matmul_fp8(const uint32_t *A, const uint32_t *B, const uint64_t *C, uint64_t *D,
                         unsigned M, unsigned N, unsigned K, int afmt, int bfmt, int cfmt) {
    uint32_t a[2][EXEC_MMA_MAX_K / 2], b[2][EXEC_MMA_MAX_K / 2];
    unsigned H = K / 2;
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            for (unsigned k = 0; k < K; k++) { /* low bytes (k % 4 < 2) first */
                unsigned h = k % 4 >= 2, at = k / 4 * 2 + k % 2;
                a[h][at] = fp8_to_f16(A[i * K + k], afmt);
                b[h][at] = fp8_to_f16(B[j * K + k], bfmt);
            }
            uint64_t p = exec_mma_dot(a[0], b[0], H, 0, EXEC_MMA_F16, EXEC_MMA_F16, 0, cfmt,
                                      cfmt, 0);
            p = exec_mma_dot(a[1], b[1], H, 0, EXEC_MMA_F16, EXEC_MMA_F16, p, cfmt, cfmt, 0);
            const alu_fmt *f = cfmt == EXEC_MMA_F16 ? &alu_fmt_f16 : &alu_fmt_f32;
            /* the sum of two f16 or two f32 values is exact in a double */
            double s = alu_fmt_to_double(C[i * N + j], f) + alu_fmt_to_double(p, f);
            D[i * N + j] = isnan(s) ? f->nan : alu_double_to_fmt(s, EXEC_RND_RN, f, false);
        }
}
