// Sparse mma (mma.sp, 2:4 structured A with metadata and a sparsity selector): f16 into f32
// m16n8k16 (selectors 0-3) and m16n8k32 (0-1), s8 into s32 m16n8k32 (0-1) and m16n8k64;
// one warp per run, A made of distinct small integers, B of random ones in -2..2, random
// valid metadata, so D is exact and shows which k each value of A met. Each run prints a
// hash of every lane's D registers. expected/mma_sparse.out is derived from the raw
// registers an H200 gave for the same inputs (expected/mma_sparse.derived says how).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_fp16.h>
__global__ void k(int cfg, const uint32_t *in, uint32_t *out) {
    int l = threadIdx.x;
    uint32_t a[4], b[4], e = in[l * 9 + 8], d[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) { a[i] = in[l * 9 + i]; b[i] = in[l * 9 + 4 + i]; }
#define F16K16(S) asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, " #S ";" \
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(e))
#define F16K32(S) asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, " #S ";" \
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e))
#define S8K32(S) asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, " #S ";" \
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(e))
#define S8K64(S) asm volatile("mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, " #S ";" \
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e))
    switch (cfg) {
    case 0: F16K16(0); break; case 1: F16K16(1); break; case 2: F16K16(2); break; case 3: F16K16(3); break;
    case 4: F16K32(0); break; case 5: F16K32(1); break;
    case 6: S8K32(0); break; case 7: S8K32(1); break;
    case 8: S8K64(0); break;
    }
    for (int i = 0; i < 4; i++) out[l * 4 + i] = d[i];
}
static uint32_t rs = 88172645u;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }
static uint32_t fnv(const void *p, size_t n) {
    const uint8_t *b = (const uint8_t *)p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}
int main() {
    uint32_t *din, *dout; cudaMalloc(&din, 32 * 9 * 4); cudaMalloc(&dout, 32 * 16);
    static const uint8_t pairs[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe}; // (lo idx, hi idx): 0-1,0-2,0-3,1-2,1-3,2-3
    for (int cfg = 0; cfg < 9; cfg++)
        for (int rep = 0; rep < 3; rep++) {
            uint32_t in[32 * 9], out[32 * 4];
            bool i8 = cfg >= 6;
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < 4; i++) {
                    if (i8) {
                        uint32_t v = 0;
                        for (int j = 0; j < 4; j++) v |= (uint32_t)((l * 16 + i * 4 + j) % 127 + 1) << (8 * j);
                        in[l * 9 + i] = v;
                        uint32_t w = 0;
                        for (int j = 0; j < 4; j++) w |= (uint32_t)(uint8_t)(int8_t)((int)(rnd() % 5) - 2) << (8 * j);
                        in[l * 9 + 4 + i] = w;
                    } else {
                        __half lo = __float2half((float)(1 + l * 8 + i * 2)), hi = __float2half((float)(2 + l * 8 + i * 2));
                        in[l * 9 + i] = __half_as_ushort(lo) | (uint32_t)__half_as_ushort(hi) << 16;
                        __half b0 = __float2half((float)((int)(rnd() % 5) - 2)), b1 = __float2half((float)((int)(rnd() % 5) - 2));
                        in[l * 9 + 4 + i] = __half_as_ushort(b0) | (uint32_t)__half_as_ushort(b1) << 16;
                    }
                }
                uint32_t e = 0;
                for (int j = 0; j < 8; j++) e |= (uint32_t)pairs[rnd() % 6] << (4 * j);
                in[l * 9 + 8] = e;
            }
            cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
            cudaMemset(dout, 0, sizeof out);
            k<<<1, 32>>>(cfg, din, dout);
            cudaError_t r = cudaDeviceSynchronize();
            cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
            printf("cfg %d rep %d: %s, D %08x, lane 0: %08x %08x %08x %08x\n", cfg, rep, cudaGetErrorString(r),
                   fnv(out, sizeof out), out[0], out[1], out[2], out[3]);
        }
    return 0;
}
