// mma.sync with fp8 operands on sm_90: m16n8k32 and m16n8k16, e4m3 and e5m2 (and mixed),
// into f32 and f16; one warp per product, A, B and C random in four styles (any bits,
// narrow exponents, wide exponents, few magnitudes). Each product prints a hash of D's
// bits and a few of its elements. expected/mma_fp8.out was printed by an H200.
// nvcc-flags: -arch=sm_90
#include <cstdio>
#include <cstdint>
#include <cstring>

#define K32(T, ACC)                                                                              \
    asm volatile("mma.sync.aligned.m16n8k32.row.col." ACC "." T "." ACC " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                                \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#define K32H(T)                                                                                  \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16." T ".f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};" \
                 : "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#define K16(T)                                                                                   \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." T ".f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" \
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]))
#define K16H(T)                                                                                  \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16." T ".f16 {%0,%1}, {%2,%3}, {%4}, {%0,%1};" \
                 : "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]))

enum { NKINDS = 10 };
static const char *names[NKINDS] = {
    "k32 f32.e4m3.e4m3", "k32 f32.e5m2.e5m2", "k32 f32.e4m3.e5m2", "k32 f32.e5m2.e4m3",
    "k32 f16.e4m3.e4m3", "k32 f16.e5m2.e4m3", "k16 f32.e4m3.e4m3", "k16 f32.e5m2.e5m2",
    "k16 f16.e4m3.e4m3", "k16 f16.e4m3.e5m2"};

__global__ void kern(int kind, const uint32_t *in, uint32_t *out) {
    int l = threadIdx.x;
    uint32_t a[4], b[2], d[4];
    for (int i = 0; i < 4; i++) a[i] = in[l * 10 + i];
    for (int i = 0; i < 2; i++) b[i] = in[l * 10 + 4 + i];
    for (int i = 0; i < 4; i++) d[i] = in[l * 10 + 6 + i];
    switch (kind) {
    case 0: K32("e4m3.e4m3", "f32"); break;
    case 1: K32("e5m2.e5m2", "f32"); break;
    case 2: K32("e4m3.e5m2", "f32"); break;
    case 3: K32("e5m2.e4m3", "f32"); break;
    case 4: K32H("e4m3.e4m3"); break;
    case 5: K32H("e5m2.e4m3"); break;
    case 6: K16("e4m3.e4m3"); break;
    case 7: K16("e5m2.e5m2"); break;
    case 8: K16H("e4m3.e4m3"); break;
    default: K16H("e4m3.e5m2"); break;
    }
    for (int i = 0; i < 4; i++) out[l * 4 + i] = d[i];
}

static uint32_t rs = 2463534242u;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }
static uint32_t fnv(const void *p, size_t n) {
    const uint8_t *c = (const uint8_t *)p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 16777619u;
    return h;
}
// an fp8 byte in style s: 0 any bits, 1 exponents near the bias, 2 the whole exponent range
// (no NaN/inf), 3 four magnitudes
static uint8_t fp8(bool e5, int s) {
    uint32_t r = rnd();
    uint8_t sign = (r >> 8 & 1) << 7;
    if (s == 0) return (uint8_t)r;
    if (s == 3) { static const uint8_t m4[4] = {0x38, 0x39, 0x40, 0x48}, m5[4] = {0x3c, 0x3d, 0x40, 0x44};
                  return sign | (e5 ? m5 : m4)[r & 3]; }
    if (e5) { int e = s == 1 ? 13 + (int)(r % 5) : 1 + (int)(r % 29); return sign | e << 2 | (r >> 12 & 3); }
    int e = s == 1 ? 5 + (int)(r % 5) : (int)(r % 15); return sign | e << 3 | (r >> 12 & 7);
}
static uint32_t f32c(int s) {
    float v = s == 0 ? 0.0f : (float)((int)(rnd() % 2001) - 1000) / (s == 2 ? 1.0f : 100.0f);
    uint32_t u; memcpy(&u, &v, 4); return u;
}
static uint16_t f16c(int s) { // small f16 values: k / 64, |k| < 512
    int k = (int)(rnd() % 1023) - 511;
    if (s == 0 || k == 0) return 0;
    uint16_t sign = k < 0 ? 0x8000 : 0; k = k < 0 ? -k : k;
    int e = 31 - __builtin_clz(k); // k = 1.f * 2^e; value 2^(e-6) * 1.f
    uint16_t frac = (uint16_t)(((k << 10) >> e) & 0x3ff);
    return sign | (uint16_t)((e - 6 + 15) << 10) | frac;
}

int main() {
    uint32_t *din, *dout;
    cudaMalloc(&din, 32 * 10 * 4);
    cudaMalloc(&dout, 32 * 4 * 4);
    for (int kind = 0; kind < NKINDS; kind++) {
        bool ea5 = kind == 1 || kind == 3 || kind == 5 || kind == 7;
        bool eb5 = kind == 1 || kind == 2 || kind == 7 || kind == 9;
        bool h = kind == 4 || kind == 5 || kind == 8 || kind == 9;
        for (int s = 0; s < 4; s++) {
            uint32_t in[32 * 10], out[32 * 4];
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < 6; i++) {
                    uint32_t v = 0;
                    for (int j = 0; j < 4; j++) v |= (uint32_t)fp8(i < 4 ? ea5 : eb5, s) << (8 * j);
                    in[l * 10 + i] = v;
                }
                for (int i = 0; i < 4; i++)
                    in[l * 10 + 6 + i] = h ? (f16c(s) | (uint32_t)f16c(s) << 16) : f32c(s);
            }
            cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
            kern<<<1, 32>>>(kind, din, dout);
            cudaError_t e = cudaDeviceSynchronize();
            if (e != cudaSuccess) { printf("%s: %s\n", names[kind], cudaGetErrorString(e)); return 1; }
            cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
            int n = h ? 2 : 4;
            uint32_t dd[128];
            for (int l = 0; l < 32; l++) for (int i = 0; i < n; i++) dd[l * n + i] = out[l * 4 + i];
            printf("%-18s style %d: D %08x, lane0 %08x %08x, lane17 %08x, lane31 %08x\n", names[kind], s,
                   fnv(dd, 4 * n * 32), out[0], out[1], out[17 * 4], out[31 * 4 + n - 1]);
        }
    }
    cudaFree(din);
    cudaFree(dout);
    return 0;
}
