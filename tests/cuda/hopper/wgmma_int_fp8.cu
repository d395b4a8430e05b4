// Warpgroup MMA with Hopper's 8-bit inputs (sm_90a): m64n64k32 with s8/u8 operands into
// s32 (.satfinite too) and e4m3/e5m2 operands into f32 and f16, both operands in shared
// memory through descriptors (K-major core matrices of 8 rows x 16 bytes, no swizzle). The
// inputs are random in several styles (all bit patterns, narrow exponents, cancelling
// terms, a dominating accumulator), so the results show the tensor cores' accumulation;
// each D is printed as a hash of its bits with a few elements. expected/wgmma_int_fp8.out is what the H200 gave. With an argument,
// the program also writes every case's A, B, C and D to that file (how the numerics in
// exec/mma_numerics.c were measured).
// nvcc-flags: -gencode arch=compute_90a,code=sm_90a
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ uint64_t desc(const void *p, uint32_t lbo, uint32_t sbo) {
    uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
    return (uint64_t)((a >> 4) & 0x3fff) | (uint64_t)((lbo >> 4) & 0x3fff) << 16 |
           (uint64_t)((sbo >> 4) & 0x3fff) << 32;
}

#define D32 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}"
#define OUT32(d) "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), \
    "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), \
    "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), \
    "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31])
#define D16 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}"
#define OUT16(d) "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), \
    "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
#define WG(shape_types, ...) asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, 1, 0;\n wgmma.mma_async.sync.aligned.m64n64k32." \
    shape_types " " __VA_ARGS__)

enum { K_S8, K_U8, K_S8U8, K_U8S8, K_S8SAT, K_E4M3, K_E5M2, K_E4E5, K_E5E4, K_E4M3_F16, K_E5M2_F16, K_E4M3_NEG,
       NKINDS };
static const char *kind_names[NKINDS] = {
    "wgmma s32.s8.s8", "wgmma s32.u8.u8", "wgmma s32.s8.u8", "wgmma s32.u8.s8", "wgmma satfinite s32.s8.s8",
    "wgmma f32.e4m3.e4m3", "wgmma f32.e5m2.e5m2", "wgmma f32.e4m3.e5m2", "wgmma f32.e5m2.e4m3",
    "wgmma f16.e4m3.e4m3", "wgmma f16.e5m2.e5m2", "wgmma f32.e4m3.e4m3, A scaled -1"};

// A: 64 x 32 bytes row-major (row, k); B: 64 x 32 (column n, k); C, D: 64 x 64 32-bit
// (f16 results: the low half-words).
__global__ void wg_kernel(int kind, const uint8_t *A, const uint8_t *B, const uint32_t *C, uint32_t *D) {
    __shared__ alignas(128) uint8_t sa[2048], sb[2048];
    int t = threadIdx.x;
    const uint32_t LBO = 128, SBO = 256;
    for (int i = t; i < 64 * 32; i += 128) {
        int r = i / 32, k = i % 32;
        uint32_t o = (r / 8) * SBO + (k / 16) * LBO + (r % 8) * 16 + k % 16;
        sa[o] = A[i];
        sb[o] = B[i];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    int w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
    uint32_t d[32], h[16];
    for (int j = 0; j < 8; j++)
        for (int e = 0; e < 4; e++) d[4 * j + e] = C[(16 * w + g + 8 * (e >> 1)) * 64 + 8 * j + 2 * q + (e & 1)];
    for (int j = 0; j < 16; j++) {
        int row = 16 * w + g + 8 * (j & 1), col = 8 * (j >> 1) + 2 * q;
        h[j] = (C[row * 64 + col] & 0xffff) | C[row * 64 + col + 1] << 16;
    }
    uint64_t da = desc(sa, LBO, SBO), db = desc(sb, LBO, SBO);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    switch (kind) {
    case K_S8: WG("s32.s8.s8", D32 ", %32, %33, p;\n}" : OUT32(d) : "l"(da), "l"(db)); break;
    case K_U8: WG("s32.u8.u8", D32 ", %32, %33, p;\n}" : OUT32(d) : "l"(da), "l"(db)); break;
    case K_S8U8: WG("s32.s8.u8", D32 ", %32, %33, p;\n}" : OUT32(d) : "l"(da), "l"(db)); break;
    case K_U8S8: WG("s32.u8.s8", D32 ", %32, %33, p;\n}" : OUT32(d) : "l"(da), "l"(db)); break;
    case K_S8SAT: WG("satfinite.s32.s8.s8", D32 ", %32, %33, p;\n}" : OUT32(d) : "l"(da), "l"(db)); break;
    case K_E4M3: WG("f32.e4m3.e4m3", D32 ", %32, %33, p, 1, 1;\n}" : OUT32(d) : "l"(da), "l"(db)); break;
    case K_E5M2: WG("f32.e5m2.e5m2", D32 ", %32, %33, p, 1, 1;\n}" : OUT32(d) : "l"(da), "l"(db)); break;
    case K_E4E5: WG("f32.e4m3.e5m2", D32 ", %32, %33, p, 1, 1;\n}" : OUT32(d) : "l"(da), "l"(db)); break;
    case K_E5E4: WG("f32.e5m2.e4m3", D32 ", %32, %33, p, 1, 1;\n}" : OUT32(d) : "l"(da), "l"(db)); break;
    case K_E4M3_F16: WG("f16.e4m3.e4m3", D16 ", %16, %17, p, 1, 1;\n}" : OUT16(h) : "l"(da), "l"(db)); break;
    case K_E5M2_F16: WG("f16.e5m2.e5m2", D16 ", %16, %17, p, 1, 1;\n}" : OUT16(h) : "l"(da), "l"(db)); break;
    default: WG("f32.e4m3.e4m3", D32 ", %32, %33, p, -1, 1;\n}" : OUT32(d) : "l"(da), "l"(db)); break;
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    if (kind == K_E4M3_F16 || kind == K_E5M2_F16) {
        for (int j = 0; j < 16; j++) {
            int row = 16 * w + g + 8 * (j & 1), col = 8 * (j >> 1) + 2 * q;
            D[row * 64 + col] = h[j] & 0xffff;
            D[row * 64 + col + 1] = h[j] >> 16;
        }
    } else {
        for (int j = 0; j < 8; j++)
            for (int e = 0; e < 4; e++) D[(16 * w + g + 8 * (e >> 1)) * 64 + 8 * j + 2 * q + (e & 1)] = d[4 * j + e];
    }
}

static uint32_t fnv(const void *p, size_t n) {
    const uint8_t *b = (const uint8_t *)p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}
static uint32_t rs = 2463534242u;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

static bool e5(int kind, int m) { // operand m (0 A, 1 B) is e5m2
    return kind == K_E5M2 || kind == K_E5M2_F16 || (kind == K_E4E5 && m) || (kind == K_E5E4 && !m);
}
// An fp8 element in style s: 0 any bits but NaN, 1 exponents near the bias, 2 wide exponents,
// 3 few distinct magnitudes (cancellation).
static uint8_t fp8(bool is_e5, int s) {
    for (;;) {
        uint8_t v = (uint8_t)rnd();
        int ebits = is_e5 ? 5 : 4, mbits = 7 - ebits, e = (v >> mbits) & ((1 << ebits) - 1), bias = is_e5 ? 15 : 7;
        if (s == 1) e = bias - 2 + (int)(rnd() % 5);
        if (s == 3) { e = bias + (int)(rnd() % 3); v &= ~(uint8_t)((1 << mbits) - 2); }
        v = (uint8_t)((v & 0x80) | (e << mbits) | (v & ((1 << mbits) - 1)));
        if (is_e5 ? e == 31 : (v & 0x7f) == 0x7f) { if (s == 0 && rnd() % 64 == 0 && is_e5) return v; continue; }
        return v;
    }
}
static uint32_t f32bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

int main(int argc, char **argv) {
    FILE *dump = argc > 1 ? fopen(argv[1], "wb") : nullptr;
    uint8_t *dA, *dB; uint32_t *dC, *dD;
    CK(cudaMalloc(&dA, 2048)); CK(cudaMalloc(&dB, 2048)); CK(cudaMalloc(&dC, 16384)); CK(cudaMalloc(&dD, 16384));
    std::vector<uint8_t> A(2048), B(2048);
    std::vector<uint32_t> C(4096), D(4096);
    for (int kind = 0; kind < NKINDS; kind++) {
        bool fp = kind >= K_E4M3, f16 = kind == K_E4M3_F16 || kind == K_E5M2_F16;
        int styles = fp ? 4 : 2;
        for (int s = 0; s < styles; s++) {
            for (int i = 0; i < 2048; i++) {
                if (fp) { A[i] = fp8(e5(kind, 0), s); B[i] = fp8(e5(kind, 1), s); }
                else { A[i] = (uint8_t)rnd(); B[i] = (uint8_t)rnd(); }
                if (!fp && s == 1) { A[i] = (kind == K_U8 || kind == K_U8S8) ? 255 : 127; B[i] = (kind == K_U8 || kind == K_S8U8) ? 255 : (i & 1 ? 127 : 0x80); }
            }
            for (int i = 0; i < 4096; i++) {
                float c = (float)((int)(rnd() % 20001) - 10000) / 1000.0f;
                if (s == 2) c *= (float)(1u << (rnd() % 20)) / 1024.0f;
                if (s == 3) c = (float)((int)(rnd() % 2001) - 1000) * 64.0f + (float)(rnd() % 8) / 8.0f;
                if (i % 17 == 0) c = 0.0f;
                C[i] = fp ? f32bits(c) : rnd() >> (s == 1 ? 0 : 8);
                if (!fp && s == 1) C[i] = (i & 1) ? 0x7ffff000u + (rnd() & 0xfff) : 0x80000000u + (rnd() & 0xfff);
                if (f16) C[i] = __half_as_ushort(__float2half(c));
            }
            CK(cudaMemcpy(dA, A.data(), 2048, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dB, B.data(), 2048, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dC, C.data(), 16384, cudaMemcpyHostToDevice));
            CK(cudaMemset(dD, 0, 16384));
            wg_kernel<<<1, 128>>>(kind, dA, dB, dC, dD);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(D.data(), dD, 16384, cudaMemcpyDeviceToHost));
            printf("%-36s style %d: D %08x, D[0] %08x D[1] %08x D[65] %08x D[4095] %08x\n", kind_names[kind], s,
                   fnv(D.data(), 16384), D[0], D[1], D[65], D[4095]);
            if (dump) {
                int hdr[2] = {kind, s};
                fwrite(hdr, 4, 2, dump);
                fwrite(A.data(), 1, 2048, dump); fwrite(B.data(), 1, 2048, dump);
                fwrite(C.data(), 4, 4096, dump); fwrite(D.data(), 4, 4096, dump);
            }
        }
    }
    if (dump) fclose(dump);
    return 0;
}
