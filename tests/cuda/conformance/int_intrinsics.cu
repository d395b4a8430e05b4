// Integer intrinsics: __popc __popcll __clz __clzll __ffs __ffsll __brev __brevll
// __byte_perm __funnelshift_{l,r,lc,rc} __mulhi __umulhi __mul64hi __umul64hi __mul24
// __umul24 __sad __usad __hadd __rhadd __uhadd __urhadd __dp4a __dp2a_lo, SIMD-in-a-word
// __vadd2 __vadd4 __vsub4 __vabsdiffu4 __vmaxu4 __vmins2 __vcmpeq4 __vavgu4 __vsads2,
// and bfe/bfi written as inline PTX. Checked against plain C on the host.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define NOPS 36

__device__ unsigned bfe(unsigned x, unsigned pos, unsigned len) { unsigned r; asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len)); return r; }
__device__ int bfes(int x, unsigned pos, unsigned len) { int r; asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len)); return r; }
__device__ unsigned bfi(unsigned ins, unsigned base, unsigned pos, unsigned len) { unsigned r; asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(ins), "r"(base), "r"(pos), "r"(len)); return r; }

__global__ void ops(const unsigned *a, const unsigned *b, const unsigned long long *c, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    unsigned long long z = c[i];
    int sx = (int)x, sy = (int)y;
    unsigned long long *o = out + (size_t)i * NOPS;
    o[0] = __popc(x); o[1] = __popcll(z); o[2] = __clz(sx); o[3] = __clzll((long long)z);
    o[4] = __ffs(sx); o[5] = __ffsll((long long)z); o[6] = __brev(x); o[7] = __brevll(z);
    o[8] = __byte_perm(x, y, 0x3210 + (y & 0x7777)); o[9] = __byte_perm(x, y, 0x5140);
    o[10] = __funnelshift_l(x, y, y & 63); o[11] = __funnelshift_r(x, y, y & 63);
    o[12] = __funnelshift_lc(x, y, y & 63); o[13] = __funnelshift_rc(x, y, y & 63);
    o[14] = (unsigned)__mulhi(sx, sy); o[15] = __umulhi(x, y);
    o[16] = (unsigned long long)__mul64hi((long long)z, (long long)x * 0x9e3779b97f4a7c15LL); o[17] = __umul64hi(z, 0xfedcba9876543210ULL ^ x);
    o[18] = (unsigned)__mul24(sx, sy); o[19] = __umul24(x, y);
    o[20] = __sad(sx, sy, 7u); o[21] = __usad(x, y, 100u);
    o[22] = (unsigned)__hadd(sx, sy); o[23] = (unsigned)__rhadd(sx, sy); o[24] = __uhadd(x, y); o[25] = __urhadd(x, y);
    o[26] = (unsigned)__dp4a(sx, sy, 1000); o[27] = __dp2a_lo(x, y, 5u);
    o[28] = __vadd2(x, y); o[29] = __vadd4(x, y); o[30] = __vsub4(x, y); o[31] = __vabsdiffu4(x, y);
    o[32] = __vmaxu4(x, y) ^ ((unsigned long long)__vmins2(x, y) << 32);
    o[33] = __vcmpeq4(x, x ^ (y & 0x01000100u)) ^ ((unsigned long long)__vavgu4(x, y) << 32);
    o[34] = __vsads2(x, y);
    o[35] = bfe(x, y & 31, (y >> 8) & 31) ^ ((unsigned long long)(unsigned)bfes(sx, y & 31, (y >> 8) & 31) << 32) ^ ((unsigned long long)bfi(y, x, (y >> 16) & 31, (y >> 24) & 31) << 16);
}

// ---- host reference ----
static unsigned popc(unsigned long long v) { unsigned c = 0; while (v) { c += v & 1; v >>= 1; } return c; }
static unsigned clz64(unsigned long long v, int bits) { unsigned c = 0; for (int k = bits - 1; k >= 0 && !((v >> k) & 1); k--) c++; return c; }
static unsigned ffs64(unsigned long long v) { for (int k = 0; k < 64; k++) if ((v >> k) & 1) return k + 1; return 0; }
static unsigned long long brev(unsigned long long v, int bits) { unsigned long long r = 0; for (int k = 0; k < bits; k++) if ((v >> k) & 1) r |= 1ULL << (bits - 1 - k); return r; }
static unsigned byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int k = 0; k < 4; k++) r |= (unsigned)((v >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
    return r;
}
static unsigned fsl(unsigned lo, unsigned hi, unsigned s, bool clamp) { s = clamp ? (s > 32 ? 32 : s) : (s & 31); unsigned long long v = ((unsigned long long)hi << 32) | lo; return (unsigned)((v << s) >> 32); }
static unsigned fsr(unsigned lo, unsigned hi, unsigned s, bool clamp) { s = clamp ? (s > 32 ? 32 : s) : (s & 31); unsigned long long v = ((unsigned long long)hi << 32) | lo; return (unsigned)(v >> s); }
static unsigned long long mul64hi_u(unsigned long long a, unsigned long long b) { return (unsigned long long)(((unsigned __int128)a * b) >> 64); }
static long long mul64hi_s(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
static int sext24(unsigned v) { return (int)(v << 8) >> 8; }
static unsigned simd(unsigned x, unsigned y, int lanes, int op)
{
    int w = 32 / lanes; unsigned mask = (1u << w) - 1, r = 0;
    for (int k = 0; k < lanes; k++) {
        unsigned a = (x >> (k * w)) & mask, b = (y >> (k * w)) & mask, v = 0;
        int sa = (int)(a << (32 - w)) >> (32 - w), sb = (int)(b << (32 - w)) >> (32 - w);
        switch (op) {
        case 0: v = a + b; break;
        case 1: v = a - b; break;
        case 2: v = a > b ? a - b : b - a; break;
        case 3: v = a > b ? a : b; break;
        case 4: v = (unsigned)(sa < sb ? sa : sb); break;
        case 5: v = a == b ? mask : 0; break;
        case 6: v = (a + b + 1) >> 1; break;
        }
        r |= (v & mask) << (k * w);
    }
    return r;
}
static unsigned sads2(unsigned x, unsigned y) { unsigned r = 0; for (int k = 0; k < 2; k++) { int a = (short)(x >> (16 * k)), b = (short)(y >> (16 * k)); r += a > b ? a - b : b - a; } return r; }
static unsigned bfe_u(unsigned x, unsigned pos, unsigned len) { if (len == 0 || pos >= 32) return 0; unsigned long long v = x >> pos; return len >= 32 ? (unsigned)v : (unsigned)(v & ((1ULL << len) - 1)); }
static int bfe_s(int x, unsigned pos, unsigned len)
{
    if (len == 0) return 0;
    if (pos >= 32) return x < 0 ? -1 : 0;
    unsigned top = pos + len - 1 > 31 ? 31 : pos + len - 1;
    unsigned v = bfe_u((unsigned)x, pos, len);
    bool sign = ((unsigned)x >> top) & 1;
    unsigned n = top - pos + 1;
    if (n < 32 && sign) v |= ~0u << n;
    return (int)v;
}
static unsigned bfi_h(unsigned ins, unsigned base, unsigned pos, unsigned len) { unsigned r = base; for (unsigned k = 0; k < len && pos + k < 32; k++) { unsigned bit = 1u << (pos + k); r = (r & ~bit) | (((ins >> k) & 1) << (pos + k)); } return r; }

static void ref(unsigned x, unsigned y, unsigned long long z, unsigned long long *o)
{
    int sx = (int)x, sy = (int)y;
    o[0] = popc(x); o[1] = popc(z); o[2] = clz64(x, 32); o[3] = clz64(z, 64);
    o[4] = ffs64(x); o[5] = ffs64(z); o[6] = brev(x, 32); o[7] = brev(z, 64);
    o[8] = byte_perm(x, y, 0x3210 + (y & 0x7777)); o[9] = byte_perm(x, y, 0x5140);
    o[10] = fsl(x, y, y & 63, false); o[11] = fsr(x, y, y & 63, false);
    o[12] = fsl(x, y, y & 63, true); o[13] = fsr(x, y, y & 63, true);
    o[14] = (unsigned)(int)(((long long)sx * sy) >> 32); o[15] = (unsigned)(((unsigned long long)x * y) >> 32);
    o[16] = (unsigned long long)mul64hi_s((long long)z, (long long)((unsigned long long)x * 0x9e3779b97f4a7c15ULL)); o[17] = mul64hi_u(z, 0xfedcba9876543210ULL ^ x);
    o[18] = (unsigned)(sext24(x) * sext24(y)); o[19] = (x & 0xffffff) * (y & 0xffffff);
    o[20] = (unsigned)((sx > sy ? (long long)sx - sy : (long long)sy - sx) + 7); o[21] = (x > y ? x - y : y - x) + 100;
    o[22] = (unsigned)(int)(((long long)sx + sy) >> 1); o[23] = (unsigned)(int)(((long long)sx + sy + 1) >> 1);
    o[24] = (unsigned)(((unsigned long long)x + y) >> 1); o[25] = (unsigned)(((unsigned long long)x + y + 1) >> 1);
    int dp = 1000; for (int k = 0; k < 4; k++) dp += (signed char)(x >> (8 * k)) * (signed char)(y >> (8 * k));
    o[26] = (unsigned)dp;
    unsigned dp2 = 5; for (int k = 0; k < 2; k++) dp2 += (unsigned short)(x >> (16 * k)) * (unsigned char)(y >> (8 * k));
    o[27] = dp2;
    o[28] = simd(x, y, 2, 0); o[29] = simd(x, y, 4, 0); o[30] = simd(x, y, 4, 1); o[31] = simd(x, y, 4, 2);
    o[32] = simd(x, y, 4, 3) ^ ((unsigned long long)simd(x, y, 2, 4) << 32);
    o[33] = simd(x, x ^ (y & 0x01000100u), 4, 5) ^ ((unsigned long long)simd(x, y, 4, 6) << 32);
    o[34] = sads2(x, y);
    o[35] = bfe_u(x, y & 31, (y >> 8) & 31) ^ ((unsigned long long)(unsigned)bfe_s(sx, y & 31, (y >> 8) & 31) << 32) ^ ((unsigned long long)bfi_h(y, x, (y >> 16) & 31, (y >> 24) & 31) << 16);
}

int main()
{
    const int n = 64;
    unsigned ha[n], hb[n]; unsigned long long hc[n];
    const unsigned special[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x00010000u, 0xdeadbeefu, 0x12345678u};
    unsigned long long s = 0x243f6a8885a308d3ULL;
    for (int i = 0; i < n; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        ha[i] = i < 8 ? special[i] : (unsigned)s;
        hb[i] = i < 8 ? special[7 - i] : (unsigned)(s >> 32);
        hc[i] = i < 4 ? (i == 0 ? 0ULL : i == 1 ? ~0ULL : i == 2 ? 1ULL << 63 : 1ULL) : s * 0x2545F4914F6CDD1DULL;
    }
    unsigned *da, *db; unsigned long long *dc, *dout;
    CHECK(cudaMalloc(&da, sizeof ha)); CHECK(cudaMalloc(&db, sizeof hb)); CHECK(cudaMalloc(&dc, sizeof hc));
    CHECK(cudaMalloc(&dout, n * NOPS * sizeof(unsigned long long)));
    CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
    ops<<<2, 32>>>(da, db, dc, dout, n);
    CHECK(cudaGetLastError());
    unsigned long long *h = (unsigned long long *)malloc(n * NOPS * sizeof(unsigned long long));
    CHECK(cudaMemcpy(h, dout, n * NOPS * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    static const char *names[NOPS] = {"popc", "popcll", "clz", "clzll", "ffs", "ffsll", "brev", "brevll", "byte_perm",
        "byte_perm5140", "funnel_l", "funnel_r", "funnel_lc", "funnel_rc", "mulhi", "umulhi", "mul64hi", "umul64hi",
        "mul24", "umul24", "sad", "usad", "hadd", "rhadd", "uhadd", "urhadd", "dp4a", "dp2a_lo", "vadd2", "vadd4",
        "vsub4", "vabsdiffu4", "vmaxu4|vmins2", "vcmpeq4|vavgu4", "vsads2", "bfe|bfe.s|bfi"};
    int bad = 0;
    unsigned long long sums[NOPS] = {0};
    for (int i = 0; i < n; i++) {
        unsigned long long r[NOPS];
        ref(ha[i], hb[i], hc[i], r);
        for (int k = 0; k < NOPS; k++) {
            sums[k] = sums[k] * 31 + h[i * NOPS + k];
            if (h[i * NOPS + k] != r[k]) {
                if (bad < 20) printf("mismatch %s x=%08x y=%08x z=%016llx: gpu %016llx host %016llx\n", names[k], ha[i], hb[i], hc[i], h[i * NOPS + k], r[k]);
                bad++;
            }
        }
    }
    for (int i = 0; i < 8; i++) {
        printf("x=%08x y=%08x:", ha[i], hb[i]);
        for (int k = 0; k < NOPS; k++) printf(" %llx", h[i * NOPS + k]);
        printf("\n");
    }
    for (int k = 0; k < NOPS; k++) printf("%-16s hash %016llx\n", names[k], sums[k]);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
