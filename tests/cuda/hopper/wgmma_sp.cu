// Sparse warpgroup MMA (wgmma.mma_async.sp, sm_90a): A 2:4 structured (tf32 1:2), compressed
// in shared memory (64 x K/2, no swizzle), with a metadata register per thread and a
// sparsity selector; m64n32 with f16 and bf16 (k32), tf32 (k16), e4m3/e5m2 (k64) into f32,
// and s8/u8 (k64) into s32. First with B one-hot (B[k][n] = 1 where k = 32r + n), so D is
// the dense A: printed as each row's hash and the k of its values for rows 0, 1, 8, 17, 63;
// then random A, B, C and metadata, D as a hash. expected/wgmma_sp.out was printed by an H200.
// nvcc-flags: -gencode arch=compute_90a,code=sm_90a
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>

__host__ __device__ uint32_t koff(int r, int k, int es, uint32_t lbo, uint32_t sbo) {
    int per = 16 / es;
    return (uint32_t)((r / 8) * sbo + (k / per) * lbo + (r % 8) * 16 + (k % per) * es);
}
__device__ uint64_t desc(const void *p, uint32_t lbo, uint32_t sbo) {
    uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
    return (uint64_t)((a >> 4) & 0x3fff) | (uint64_t)((lbo >> 4) & 0x3fff) << 16 | (uint64_t)((sbo >> 4) & 0x3fff) << 32;
}
#define D16 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}"
#define IO16(d) "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), \
    "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
#define WG(T, S, TAIL) asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %19, 0;\n wgmma.mma_async.sp.sync.aligned.m64n32" T " " D16 ", %16, %17, %18, " #S ", p" TAIL ";\n}" \
        : IO16(d) : "l"(da), "l"(db), "r"(meta), "r"(acc))

// es: element bytes; K: the dense K. A: 64 x K/2 compressed row-major, B: 32 x K by column (bytes).
__global__ void wg(int cfg, int es, int K, int acc, const uint8_t *A, const uint8_t *B, const uint32_t *M, uint32_t *D) {
    __shared__ alignas(128) uint8_t sa[64 * 32], sb[32 * 64];
    int t = threadIdx.x, KC = K / 2;
    for (int i = t; i < 64 * KC; i += 128) memcpy(&sa[koff(i / KC, i % KC, es, 128, 256)], A + i * es, es);
    for (int i = t; i < 32 * K; i += 128) memcpy(&sb[koff(i / K, i % K, es, 128, 512)], B + i * es, es);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    uint64_t da = desc(sa, 128, 256), db = desc(sb, 128, 512);
    uint32_t meta = M[t], d[16];
    int w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
    for (int j = 0; j < 16; j++) d[j] = D[(16 * w + g + 8 * ((j % 4) >> 1)) * 32 + 8 * (j / 4) + 2 * q + (j & 1)];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    switch (cfg) {
    case 0: WG("k32.f32.f16.f16", 0, ", 1, 1, 0, 0"); break;
    case 1: WG("k32.f32.f16.f16", 1, ", 1, 1, 0, 0"); break;
    case 2: WG("k32.f32.bf16.bf16", 0, ", 1, 1, 0, 0"); break;
    case 3: WG("k16.f32.tf32.tf32", 0, ", 1, 1"); break;
    case 4: WG("k16.f32.tf32.tf32", 1, ", 1, 1"); break;
    case 5: WG("k64.f32.e4m3.e4m3", 0, ", 1, 1"); break;
    case 6: WG("k64.f32.e5m2.e4m3", 0, ", 1, 1"); break;
    case 7: WG("k64.s32.s8.s8", 0, ""); break;
    case 8: WG("k64.s32.u8.s8.satfinite", 0, ""); break;
    case 9: WG("k32.f32.f16.f16", 0, ", -1, 1, 0, 0"); break;
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int j = 0; j < 16; j++) D[(16 * w + g + 8 * ((j % 4) >> 1)) * 32 + 8 * (j / 4) + 2 * q + (j & 1)] = d[j];
}

struct Cfg { const char *name; int es, K, kind; }; // kind: 0 f16, 1 bf16, 2 tf32, 3 e4m3, 4 e5m2 A, 5 s8, 6 u8 A
static const Cfg cfgs[] = {
    {"f16 k32 sel 0", 2, 32, 0}, {"f16 k32 sel 1", 2, 32, 0}, {"bf16 k32", 2, 32, 1}, {"tf32 k16 sel 0", 4, 16, 2},
    {"tf32 k16 sel 1", 4, 16, 2}, {"e4m3 k64", 1, 64, 3}, {"e5m2.e4m3 k64", 1, 64, 4}, {"s8 k64", 1, 64, 5},
    {"u8.s8 k64 satfinite", 1, 64, 6}, {"f16 k32, A negated", 2, 32, 0},
};
static uint32_t rs = 2463534242u;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }
static uint32_t fnv(const void *p, size_t n) {
    const uint8_t *b = (const uint8_t *)p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}
static uint16_t f2h(float f) { // exact small values only (integers below 2048, halves)
    uint32_t u; memcpy(&u, &f, 4);
    if (!(u & 0x7fffffff)) return (uint16_t)(u >> 16);
    int e = (int)((u >> 23) & 0xff) - 127;
    return (uint16_t)((u >> 16 & 0x8000) | (uint32_t)(e + 15) << 10 | (u >> 13 & 0x3ff));
}
// one element of value v (an exact small integer) in kind's format
static void put(int kind, uint8_t *p, int v) {
    float f = (float)v;
    uint32_t u; memcpy(&u, &f, 4);
    switch (kind) {
    case 0: { uint16_t h = f2h(f); memcpy(p, &h, 2); break; }
    case 1: { uint16_t h = (uint16_t)(u >> 16); memcpy(p, &h, 2); break; }
    case 2: memcpy(p, &u, 4); break;
    case 3: case 4: {
        static const uint8_t e4[9] = {0, 0x38, 0x40, 0x44, 0x48, 0x4a, 0x4c, 0x4e, 0x50};
        static const uint8_t e5[9] = {0, 0x3c, 0x40, 0x42, 0x44, 0x45, 0x46, 0x47, 0x48};
        int a = v < 0 ? -v : v;
        *p = (uint8_t)((kind == 3 ? e4 : e5)[a > 8 ? 8 : a] | (v < 0 ? 0x80 : 0));
        break;
    }
    default: *p = (uint8_t)v; break;
    }
}
static const uint8_t pairs[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe};
static void metadata(int kind, uint32_t *M) {
    for (int t = 0; t < 128; t++) {
        M[t] = 0;
        for (int j = 0; j < 8; j++) M[t] |= (uint32_t)(kind == 2 ? (rnd() & 1 ? 0xe : 0x4) : pairs[rnd() % 6]) << (4 * j);
    }
}

int main() {
    uint8_t *dA, *dB; uint32_t *dM, *dD;
    cudaMalloc(&dA, 64 * 32); cudaMalloc(&dB, 32 * 64); cudaMalloc(&dM, 128 * 4); cudaMalloc(&dD, 64 * 32 * 4);
    static uint8_t A[64 * 32], B[32 * 64];
    static uint32_t M[128], D[64 * 32];
    static float dense[64][64];
    for (int ci = 0; ci < (int)(sizeof cfgs / sizeof cfgs[0]); ci++) {
        const Cfg &c = cfgs[ci];
        int KC = c.K / 2;
        bool integer = c.kind >= 5;
        int vmax = c.kind == 3 || c.kind == 4 ? 8 : integer ? 100 : 1000;
        for (int m = 0; m < 64; m++)
            for (int i = 0; i < KC; i++) put(c.kind, &A[(m * KC + i) * c.es], 1 + (m * 7 + i * 3) % vmax);
        metadata(c.kind, M);
        cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice);
        cudaMemcpy(dM, M, sizeof M, cudaMemcpyHostToDevice);
        cudaError_t err = cudaSuccess;
        int bkind = c.kind == 4 ? 3 : c.kind == 6 ? 5 : c.kind;
        for (int r = 0; r < (c.K + 31) / 32; r++) {
            memset(B, 0, sizeof B);
            for (int n = 0; n < 32 && 32 * r + n < c.K; n++) put(bkind, &B[(n * c.K + 32 * r + n) * c.es], 1);
            memset(D, 0, sizeof D);
            cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice);
            cudaMemcpy(dD, D, sizeof D, cudaMemcpyHostToDevice);
            wg<<<1, 128>>>(ci, c.es, c.K, 0, dA, dB, dM, dD);
            cudaError_t e2 = cudaDeviceSynchronize();
            if (e2 != cudaSuccess) err = e2;
            cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost);
            for (int m = 0; m < 64; m++)
                for (int n = 0; n < 32 && 32 * r + n < c.K; n++) {
                    float f; memcpy(&f, &D[m * 32 + n], 4);
                    dense[m][32 * r + n] = integer ? (float)(int32_t)D[m * 32 + n] : f;
                }
        }
        printf("%s: %s\n", c.name, cudaGetErrorString(err));
        uint32_t h = 2166136261u;
        for (int m = 0; m < 64; m++) h = (h ^ fnv(dense[m], 4 * c.K)) * 16777619u;
        printf("  dense A %08x\n", h);
        static const int rows[5] = {0, 1, 8, 17, 63};
        for (int x = 0; x < 5; x++) {
            int m = rows[x];
            printf("  row %2d:", m);
            for (int kk = 0; kk < c.K; kk++) if (dense[m][kk] != 0) printf(" %d=%g", kk, dense[m][kk]);
            printf("\n");
        }
        for (int rep = 0; rep < 2; rep++) {
            for (int i = 0; i < 64 * KC * c.es; i++) A[i] = (uint8_t)rnd();
            for (int i = 0; i < 32 * c.K * c.es; i++) B[i] = (uint8_t)rnd();
            if (!integer)
                for (int i = 0; i < 64 * KC; i++) put(c.kind, &A[i * c.es], (int)(rnd() % 15) - 7);
            if (!integer)
                for (int i = 0; i < 32 * c.K; i++) put(bkind, &B[i * c.es], (int)(rnd() % 15) - 7);
            if (!integer && rep == 1) // finer values: random mantissas, small exponents
                for (int i = 0; i < 64 * KC; i++) {
                    if (c.es == 2) { uint16_t v = (uint16_t)((rnd() & 0x83ff) | (c.kind == 0 ? 0x3800 : 0x3f00)); memcpy(&A[i * 2], &v, 2); }
                    else if (c.es == 4) { uint32_t v = (rnd() & 0x807fe000u) | 0x3f000000u; memcpy(&A[i * 4], &v, 4); }
                    else A[i] = (uint8_t)(rnd() & 0xb7);
                }
            for (int i = 0; i < 64 * 32; i++) {
                if (integer) D[i] = rep ? 0x7fffff00u + rnd() % 512 : rnd() % 20001 - 10000;
                else { float f = (float)((int)(rnd() % 2001) - 1000) / 16.0f; memcpy(&D[i], &f, 4); }
            }
            metadata(c.kind, M);
            cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice);
            cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice);
            cudaMemcpy(dM, M, sizeof M, cudaMemcpyHostToDevice);
            cudaMemcpy(dD, D, sizeof D, cudaMemcpyHostToDevice);
            wg<<<1, 128>>>(ci, c.es, c.K, 1, dA, dB, dM, dD);
            cudaError_t e2 = cudaDeviceSynchronize();
            cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost);
            printf("  random %d: %s, D %08x, D[0] %08x D[2047] %08x\n", rep, cudaGetErrorString(e2), fnv(D, sizeof D), D[0], D[2047]);
        }
    }
    return 0;
}
