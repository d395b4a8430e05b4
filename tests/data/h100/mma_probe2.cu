// Ground-truth probe, part 2: mma.sync numerics for the shapes and types wmma does not
// reach (fragments built from the PTX ISA's layouts), written in the format of part 1.
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#include <string>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// (row, col) of element e of a lane's mma fragment (PTX ISA layouts), bits per element.
__device__ void rc(int which, int K, int bits, int lane, int e, int &r, int &c) {
    int g = lane >> 2, t = lane & 3, E = bits >= 32 ? 1 : 32 / bits, reg = e / E, sub = e % E;
    if (which == 0) { r = g + 8 * (reg & 1); c = t * E + sub + 4 * E * (reg >> 1); }
    else if (which == 1) { r = t * E + sub + 4 * E * reg; c = g; }
    else { r = g + 8 * (e >> 1); c = 2 * t + (e & 1); }
}
// Pack the fragment of matrix which (elements of `bits` bits, stored as bytes each) into
// 32-bit registers (64-bit for f64).
template <int NR>
__device__ void pack(uint64_t *regs, const uint8_t *m, int which, int K, int N, int bits, int lane) {
    int E = bits >= 32 ? 1 : 32 / bits, bytes = bits / 8;
    for (int i = 0; i < NR; i++) regs[i] = 0;
    for (int e = 0; e < NR * E; e++) {
        int r, c; rc(which, K, bits, lane, e, r, c);
        // A row-major (16 x K), B column-major (K x N: column c contiguous), C row-major (16 x N)
        size_t idx = which == 0 ? r * K + c : which == 1 ? c * K + r : r * N + c;
        uint64_t v = 0; memcpy(&v, m + idx * bytes, bytes);
        regs[e / E] |= v << ((e % E) * bits);
    }
}
template <int NR>
__device__ void unpack(const uint64_t *regs, uint8_t *m, int N, int bits, int lane) {
    int E = bits >= 32 ? 1 : 32 / bits, bytes = bits / 8;
    for (int e = 0; e < NR * E; e++) {
        int r, c; rc(2, 0, bits, lane, e, r, c);
        uint64_t v = regs[e / E] >> ((e % E) * bits);
        memcpy(m + (r * N + c) * bytes, &v, bytes);
    }
}
#define R32(i) "r"((uint32_t)a##i)
// Generic kernel: NA/NB/NC/ND registers; asm text given per variant.
#define KERNEL(name, K, abits, cbits, dbits, NA, NB, NC, ND, ...)                                   \
    __global__ void name(const uint8_t *A, const uint8_t *B, const uint8_t *C, uint8_t *D) {        \
        int lane = threadIdx.x, cs = blockIdx.x;                                                     \
        const uint8_t *pa = A + (size_t)cs * 16 * K * (abits / 8), *pb = B + (size_t)cs * K * 8 * (abits / 8); \
        const uint8_t *pc = C + (size_t)cs * 128 * (cbits / 8);                                      \
        uint8_t *pd = D + (size_t)cs * 128 * (dbits / 8);                                            \
        uint64_t a[NA], b[NB], c[NC], d[ND];                                                         \
        pack<NA>(a, pa, 0, K, 8, abits, lane); pack<NB>(b, pb, 1, K, 8, abits, lane);                \
        pack<NC>(c, pc, 2, K, 8, cbits, lane);                                                       \
        __VA_ARGS__;                                                                                   \
        unpack<ND>(d, pd, 8, dbits, lane);                                                           \
    }
#define U(x) (*(uint32_t *)&(x))
KERNEL(k_f16_k8, 8, 16, 32, 32, 2, 1, 4, 4, {
    uint32_t d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
        : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3) : "r"((uint32_t)a[0]), "r"((uint32_t)a[1]), "r"((uint32_t)b[0]),
          "r"((uint32_t)c[0]), "r"((uint32_t)c[1]), "r"((uint32_t)c[2]), "r"((uint32_t)c[3]));
    d[0] = d0; d[1] = d1; d[2] = d2; d[3] = d3; })
KERNEL(k_f16_f16, 16, 16, 16, 16, 4, 2, 2, 2, {
    uint32_t d0, d1;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
        : "=r"(d0), "=r"(d1) : "r"((uint32_t)a[0]), "r"((uint32_t)a[1]), "r"((uint32_t)a[2]), "r"((uint32_t)a[3]),
          "r"((uint32_t)b[0]), "r"((uint32_t)b[1]), "r"((uint32_t)c[0]), "r"((uint32_t)c[1]));
    d[0] = d0; d[1] = d1; })
KERNEL(k_bf16_k8, 8, 16, 32, 32, 2, 1, 4, 4, {
    uint32_t d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
        : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3) : "r"((uint32_t)a[0]), "r"((uint32_t)a[1]), "r"((uint32_t)b[0]),
          "r"((uint32_t)c[0]), "r"((uint32_t)c[1]), "r"((uint32_t)c[2]), "r"((uint32_t)c[3]));
    d[0] = d0; d[1] = d1; d[2] = d2; d[3] = d3; })
KERNEL(k_tf32_k4, 4, 32, 32, 32, 2, 1, 4, 4, {
    uint32_t d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
        : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3) : "r"((uint32_t)a[0]), "r"((uint32_t)a[1]), "r"((uint32_t)b[0]),
          "r"((uint32_t)c[0]), "r"((uint32_t)c[1]), "r"((uint32_t)c[2]), "r"((uint32_t)c[3]));
    d[0] = d0; d[1] = d1; d[2] = d2; d[3] = d3; })
KERNEL(k_tf32_k8, 8, 32, 32, 32, 4, 2, 4, 4, {
    uint32_t d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
        : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3) : "r"((uint32_t)a[0]), "r"((uint32_t)a[1]), "r"((uint32_t)a[2]), "r"((uint32_t)a[3]),
          "r"((uint32_t)b[0]), "r"((uint32_t)b[1]), "r"((uint32_t)c[0]), "r"((uint32_t)c[1]), "r"((uint32_t)c[2]), "r"((uint32_t)c[3]));
    d[0] = d0; d[1] = d1; d[2] = d2; d[3] = d3; })
#define DD(i) "d"(__longlong_as_double(a[i]))
KERNEL(k_f64_k4, 4, 64, 64, 64, 2, 1, 4, 4, {
    double d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
        : "=d"(d0), "=d"(d1), "=d"(d2), "=d"(d3) : "d"(__longlong_as_double(a[0])), "d"(__longlong_as_double(a[1])),
          "d"(__longlong_as_double(b[0])), "d"(__longlong_as_double(c[0])), "d"(__longlong_as_double(c[1])),
          "d"(__longlong_as_double(c[2])), "d"(__longlong_as_double(c[3])));
    d[0] = __double_as_longlong(d0); d[1] = __double_as_longlong(d1); d[2] = __double_as_longlong(d2); d[3] = __double_as_longlong(d3); })
KERNEL(k_f64_k16, 16, 64, 64, 64, 8, 4, 4, 4, {
    double d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%16,%17,%18,%19};"
        : "=d"(d0), "=d"(d1), "=d"(d2), "=d"(d3)
        : "d"(__longlong_as_double(a[0])), "d"(__longlong_as_double(a[1])), "d"(__longlong_as_double(a[2])), "d"(__longlong_as_double(a[3])),
          "d"(__longlong_as_double(a[4])), "d"(__longlong_as_double(a[5])), "d"(__longlong_as_double(a[6])), "d"(__longlong_as_double(a[7])),
          "d"(__longlong_as_double(b[0])), "d"(__longlong_as_double(b[1])), "d"(__longlong_as_double(b[2])), "d"(__longlong_as_double(b[3])),
          "d"(__longlong_as_double(c[0])), "d"(__longlong_as_double(c[1])), "d"(__longlong_as_double(c[2])), "d"(__longlong_as_double(c[3])));
    d[0] = __double_as_longlong(d0); d[1] = __double_as_longlong(d1); d[2] = __double_as_longlong(d2); d[3] = __double_as_longlong(d3); })
KERNEL(k_s8_k16, 16, 8, 32, 32, 2, 1, 4, 4, {
    uint32_t d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
        : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3) : "r"((uint32_t)a[0]), "r"((uint32_t)a[1]), "r"((uint32_t)b[0]),
          "r"((uint32_t)c[0]), "r"((uint32_t)c[1]), "r"((uint32_t)c[2]), "r"((uint32_t)c[3]));
    d[0] = d0; d[1] = d1; d[2] = d2; d[3] = d3; })

static uint64_t rs = 0x2545F4914F6CDD1Dull;
static uint64_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }
static uint64_t gen(int mode, int ebits, int mbits, int k) {
    if (ebits == 0) return rnd(); // integers: random bits
    int bias = (1 << (ebits - 1)) - 1, emax = (1 << ebits) - 2, lo = 1, hi = emax;
    uint64_t s = rnd() & 1, m = rnd() & ((1ull << mbits) - 1);
    switch (mode) {
    case 0: lo = bias - 3; hi = bias; break;
    case 1: lo = bias - 12; hi = bias + 12; break;
    case 2: lo = bias - 2; hi = bias + 2; break;
    case 3: if (rnd() % 2) return s << (ebits + mbits) | m; lo = 1; hi = 4; break;
    case 4: if (k == 0) { lo = hi = bias; } else { lo = bias - 14; hi = bias - 8; } break;
    case 5: return rnd() & ((1ull << (1 + ebits + mbits)) - 1);
    case 6: lo = bias - 1; hi = bias + 1; m = (rnd() & 7) << (mbits - 3); break;
    default: lo = hi = bias; m = (rnd() & 1) ? (1ull << (mbits - 1)) | 1 : m; break;
    }
    if (lo < 1) lo = 1;
    if (hi > emax) hi = emax;
    uint64_t e = lo + rnd() % (hi - lo + 1);
    return s << (ebits + mbits) | e << mbits | m;
}
struct fmt { int ebits, mbits, bytes; };
static FILE *fo;
static void run(const char *name, int K, fmt in, fmt cf, fmt df, int ncases,
                void (*k)(const uint8_t *, const uint8_t *, const uint8_t *, uint8_t *)) {
    size_t na = (size_t)ncases * 16 * K, nb = (size_t)ncases * K * 8, nc = (size_t)ncases * 128;
    std::vector<uint8_t> A(na * in.bytes), B(nb * in.bytes), C(nc * cf.bytes), D(nc * df.bytes);
    for (int c = 0; c < ncases; c++) {
        int mode = c % 8;
        for (size_t i = 0; i < (size_t)16 * K; i++) { uint64_t v = gen(mode, in.ebits, in.mbits, (int)(i % K)); memcpy(&A[((size_t)c * 16 * K + i) * in.bytes], &v, in.bytes); }
        for (size_t i = 0; i < (size_t)K * 8; i++) {
            uint64_t v = gen(mode, in.ebits, in.mbits, (int)(i % K));
            if (mode == 2 && (i % K) % 2 == 1 && in.ebits) { uint64_t p = 0; memcpy(&p, &B[((size_t)c * K * 8 + i - 1) * in.bytes], in.bytes); v = p ^ (1ull << (in.ebits + in.mbits)); }
            memcpy(&B[((size_t)c * K * 8 + i) * in.bytes], &v, in.bytes);
        }
        if (mode == 2 && in.ebits)
            for (int r = 0; r < 16; r++) for (int kk = 1; kk < K; kk += 2)
                memcpy(&A[((size_t)c * 16 * K + r * K + kk) * in.bytes], &A[((size_t)c * 16 * K + r * K + kk - 1) * in.bytes], in.bytes);
        for (int i = 0; i < 128; i++) {
            uint64_t v = cf.ebits ? gen(mode == 4 || mode == 2 ? 1 : mode, cf.ebits, cf.mbits, 1) : rnd() % 2 ? 0x7fffff00u + (rnd() & 0xff) : rnd();
            memcpy(&C[((size_t)c * 128 + i) * cf.bytes], &v, cf.bytes);
        }
    }
    uint8_t *dA, *dB, *dC, *dD;
    CK(cudaMalloc(&dA, A.size())); CK(cudaMalloc(&dB, B.size())); CK(cudaMalloc(&dC, C.size())); CK(cudaMalloc(&dD, D.size()));
    CK(cudaMemcpy(dA, A.data(), A.size(), cudaMemcpyHostToDevice)); CK(cudaMemcpy(dB, B.data(), B.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, C.data(), C.size(), cudaMemcpyHostToDevice));
    k<<<ncases, 32>>>(dA, dB, dC, dD);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(D.data(), dD, D.size(), cudaMemcpyDeviceToHost));
    fprintf(fo, "MMA %s m16n8k%d cases %d inbytes %d cbytes %d dbytes %d\n", name, K, ncases, in.bytes, cf.bytes, df.bytes);
    auto dump = [&](const char *tag, std::vector<uint8_t> &v, size_t first, size_t n, int bytes) {
        fprintf(fo, "%s", tag);
        for (size_t i = 0; i < n; i++) { uint64_t b = 0; memcpy(&b, &v[(first + i) * bytes], bytes); fprintf(fo, " %0*llx", bytes * 2, (unsigned long long)b); }
        fprintf(fo, "\n");
    };
    for (int c = 0; c < ncases; c++) {
        fprintf(fo, "case %d mode %d\n", c, c % 8);
        dump("A", A, (size_t)c * 16 * K, 16 * K, in.bytes); dump("B", B, (size_t)c * K * 8, K * 8, in.bytes);
        dump("C", C, (size_t)c * 128, 128, cf.bytes); dump("D", D, (size_t)c * 128, 128, df.bytes);
    }
}
int main(int argc, char **argv) {
    std::string o = argc > 1 ? argv[1] : ".";
    fo = fopen((o + "/mma_numerics2.txt").c_str(), "w");
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    fprintf(fo, "# mma.sync numerics on %s (A row-major 16xK, B column-major Kx8, C/D row-major 16x8)\n", p.name);
    fmt f16{5, 10, 2}, bf16{8, 7, 2}, f32{8, 23, 4}, f64{11, 52, 8}, i8{0, 0, 1}, i32{0, 0, 4};
    run("f16.f32", 8, f16, f32, f32, 128, k_f16_k8);
    run("f16.f16", 16, f16, f16, f16, 128, k_f16_f16);
    run("bf16.f32", 8, bf16, f32, f32, 128, k_bf16_k8);
    run("tf32.f32", 4, f32, f32, f32, 128, k_tf32_k4);
    run("tf32.f32", 8, f32, f32, f32, 128, k_tf32_k8);
    run("f64.f64", 4, f64, f64, f64, 64, k_f64_k4);
    run("f64.f64", 16, f64, f64, f64, 64, k_f64_k16);
    run("s8u8.s32", 16, i8, i32, i32, 32, k_s8_k16);
    fclose(fo);
    printf("probe2 done on %s\n", p.name);
    return 0;
}
