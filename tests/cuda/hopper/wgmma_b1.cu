// Warpgroup MMA on single bits (wgmma.mma_async ... .s32.b1.b1.and.popc, sm_90a): m64n16k256
// and m64n8k256 with A and B in shared memory (no swizzle, K-major core matrices of 8 rows x
// 16 bytes), scale-d true and false, and A from registers (the mma.sync m16n8k256 b1 fragment
// of each warp's 16 rows, bit k of a row being bit k % 8 of its byte k / 8). Random bits,
// sparse bits and all ones; D printed as a hash and its first row.
// expected/wgmma_b1.out was printed by an H200.
// nvcc-flags: -gencode arch=compute_90a,code=sm_90a
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>

__device__ uint64_t desc(const void *p, uint32_t lbo, uint32_t sbo) {
    uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
    return (uint64_t)((a >> 4) & 0x3fff) | (uint64_t)((lbo >> 4) & 0x3fff) << 16 | (uint64_t)((sbo >> 4) & 0x3fff) << 32;
}
// byte b (0..31) of row r of a 32-byte-a-row K-major operand: LBO 128, SBO 256
__host__ __device__ int boff(int r, int b) { return (r / 8) * 256 + (b / 16) * 128 + (r % 8) * 16 + b % 16; }

#define D8 "{%0,%1,%2,%3,%4,%5,%6,%7}"
#define IO8(d) "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7])

// A: 64 rows x 32 bytes, B: 16 columns x 32 bytes; D 64 x 16 s32 (C on entry)
__global__ void wg(int cfg, const uint8_t *A, const uint8_t *B, int32_t *D) {
    __shared__ alignas(128) uint8_t sa[64 * 32], sb[16 * 32];
    int t = threadIdx.x;
    for (int i = t; i < 64 * 32; i += 128) sa[boff(i / 32, i % 32)] = A[i];
    for (int i = t; i < 16 * 32; i += 128) sb[boff(i / 32, i % 32)] = B[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    uint64_t da = desc(sa, 128, 256), db = desc(sb, 128, 256);
    int w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
    uint32_t d[8], a[4];
    for (int j = 0; j < 8; j++) d[j] = (uint32_t)D[(16 * w + g + 8 * ((j % 4) >> 1)) * 16 + 8 * (j / 4) + 2 * q + (j & 1)];
    for (int x = 0; x < 4; x++) {
        int row = 16 * w + g + 8 * (x & 1), k0 = 32 * q + 128 * (x >> 1);
        memcpy(&a[x], &A[row * 32 + k0 / 8], 4);
    }
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    switch (cfg) {
    case 0:
        asm volatile("wgmma.mma_async.sync.aligned.m64n16k256.s32.b1.b1.and.popc " D8 ", %8, %9, 1;" : IO8(d) : "l"(da), "l"(db));
        break;
    case 1:
        asm volatile("wgmma.mma_async.sync.aligned.m64n16k256.s32.b1.b1.and.popc " D8 ", %8, %9, 0;" : IO8(d) : "l"(da), "l"(db));
        break;
    case 2:
        asm volatile("wgmma.mma_async.sync.aligned.m64n16k256.s32.b1.b1.and.popc " D8 ", {%8, %9, %10, %11}, %12, 1;"
                     : IO8(d) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
        break;
    case 3:
        asm volatile("wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%0,%1,%2,%3}, %4, %5, 1;"
                     : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(da), "l"(db));
        break;
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int j = 0; j < (cfg == 3 ? 4 : 8); j++) D[(16 * w + g + 8 * ((j % 4) >> 1)) * 16 + 8 * (j / 4) + 2 * q + (j & 1)] = (int32_t)d[j];
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
    static const char *names[4] = {"m64n16k256 (C added)", "m64n16k256 (scale-d false)", "m64n16k256, A in registers", "m64n8k256"};
    uint8_t *dA, *dB; int32_t *dD;
    cudaMalloc(&dA, 64 * 32); cudaMalloc(&dB, 16 * 32); cudaMalloc(&dD, 64 * 16 * 4);
    static uint8_t A[64 * 32], B[16 * 32];
    static int32_t D[64 * 16], ref[64 * 16];
    for (int style = 0; style < 3; style++)
        for (int cfg = 0; cfg < 4; cfg++) {
            for (int i = 0; i < 64 * 32; i++) A[i] = style == 2 ? 0xff : style == 1 ? (uint8_t)(1u << (rnd() % 8) & rnd()) : (uint8_t)rnd();
            for (int i = 0; i < 16 * 32; i++) B[i] = style == 2 ? 0xff : style == 1 ? (uint8_t)(rnd() | rnd()) : (uint8_t)rnd();
            for (int i = 0; i < 64 * 16; i++) D[i] = style == 2 ? 0x7fffff80 + (int32_t)(rnd() % 256) : (int32_t)(rnd() % 2001) - 1000;
            for (int m = 0; m < 64; m++)
                for (int n = 0; n < 16; n++) {
                    int s = cfg == 1 ? 0 : D[m * 16 + n];
                    for (int b = 0; b < 32; b++) s += __builtin_popcount(A[m * 32 + b] & B[n * 32 + b]);
                    ref[m * 16 + n] = cfg == 3 && n >= 8 ? D[m * 16 + n] : s;
                }
            cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice);
            cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice);
            cudaMemcpy(dD, D, sizeof D, cudaMemcpyHostToDevice);
            wg<<<1, 128>>>(cfg, dA, dB, dD);
            cudaError_t e = cudaDeviceSynchronize();
            cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost);
            int bad = 0;
            for (int i = 0; i < 64 * 16; i++) bad += D[i] != ref[i];
            printf("style %d %s: %s, D %08x, %d elements differ from AND-popcount over k\n  row 0:", style, names[cfg],
                   cudaGetErrorString(e), fnv(D, sizeof D), bad);
            for (int n = 0; n < 16; n++) printf(" %d", D[n]);
            printf("\n");
        }
    return 0;
}
