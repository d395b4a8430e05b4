// tests/sfu/probe3.cu — the second special-function-unit probe (run on the GPU: nvcc
// -arch=sm_90 -o probe3 probe3.cu && ./probe3 DIR): raw results of every f32 .approx
// instruction on a sample of all exponents, div.approx/div.full, exhaustive f16/bf16
// ex2/tanh, a dense sin.approx table on [0.25, 1) and a strided tanh.approx table.
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>
#include <string>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define NV 15
__global__ void f32k(const uint32_t *in, uint32_t *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
    float x = __uint_as_float(in[i]), y[NV];
    asm volatile("rcp.approx.ftz.f32 %0, %1;" : "=f"(y[0]) : "f"(x));
    asm volatile("rcp.approx.f32 %0, %1;" : "=f"(y[1]) : "f"(x));
    asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y[2]) : "f"(x));
    asm volatile("rsqrt.approx.f32 %0, %1;" : "=f"(y[3]) : "f"(x));
    asm volatile("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y[4]) : "f"(x));
    asm volatile("sqrt.approx.f32 %0, %1;" : "=f"(y[5]) : "f"(x));
    asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y[6]) : "f"(x));
    asm volatile("ex2.approx.f32 %0, %1;" : "=f"(y[7]) : "f"(x));
    asm volatile("lg2.approx.ftz.f32 %0, %1;" : "=f"(y[8]) : "f"(x));
    asm volatile("lg2.approx.f32 %0, %1;" : "=f"(y[9]) : "f"(x));
    asm volatile("sin.approx.ftz.f32 %0, %1;" : "=f"(y[10]) : "f"(x));
    asm volatile("sin.approx.f32 %0, %1;" : "=f"(y[11]) : "f"(x));
    asm volatile("cos.approx.ftz.f32 %0, %1;" : "=f"(y[12]) : "f"(x));
    asm volatile("cos.approx.f32 %0, %1;" : "=f"(y[13]) : "f"(x));
    asm volatile("tanh.approx.f32 %0, %1;" : "=f"(y[14]) : "f"(x));
    for (int k = 0; k < NV; k++) out[(size_t)k * n + i] = __float_as_uint(y[k]);
}
__global__ void divk(const uint32_t *a, const uint32_t *b, uint32_t *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
    float x = __uint_as_float(a[i]), z = __uint_as_float(b[i]), y0, y1, y2, y3;
    asm volatile("div.approx.f32 %0, %1, %2;" : "=f"(y0) : "f"(x), "f"(z));
    asm volatile("div.approx.ftz.f32 %0, %1, %2;" : "=f"(y1) : "f"(x), "f"(z));
    asm volatile("div.full.f32 %0, %1, %2;" : "=f"(y2) : "f"(x), "f"(z));
    asm volatile("div.full.ftz.f32 %0, %1, %2;" : "=f"(y3) : "f"(x), "f"(z));
    out[i] = __float_as_uint(y0); out[n + i] = __float_as_uint(y1); out[2 * n + i] = __float_as_uint(y2); out[3 * n + i] = __float_as_uint(y3);
}
// 16-bit forms, exhaustive: out[k*65536 + x]
__global__ void halfk(uint16_t *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= 65536) return;
    uint16_t x = i, y; uint32_t x2 = (uint32_t)i | (uint32_t)(i ^ 0x8001) << 16, y2;
    asm volatile("ex2.approx.f16 %0, %1;" : "=h"(y) : "h"(x)); out[0 * 65536 + i] = y;
    asm volatile("tanh.approx.f16 %0, %1;" : "=h"(y) : "h"(x)); out[1 * 65536 + i] = y;
    asm volatile("ex2.approx.ftz.bf16 %0, %1;" : "=h"(y) : "h"(x)); out[2 * 65536 + i] = y;
    asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(y) : "h"(x)); out[3 * 65536 + i] = y;
    asm volatile("ex2.approx.f16x2 %0, %1;" : "=r"(y2) : "r"(x2)); out[4 * 65536 + i] = y2; out[5 * 65536 + i] = y2 >> 16;
    asm volatile("tanh.approx.f16x2 %0, %1;" : "=r"(y2) : "r"(x2)); out[6 * 65536 + i] = y2; out[7 * 65536 + i] = y2 >> 16;
    asm volatile("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(y2) : "r"(x2)); out[8 * 65536 + i] = y2; out[9 * 65536 + i] = y2 >> 16;
    asm volatile("tanh.approx.bf16x2 %0, %1;" : "=r"(y2) : "r"(x2)); out[10 * 65536 + i] = y2; out[11 * 65536 + i] = y2 >> 16;
}
// dense sin.approx.ftz on [first, first+n): int8 delta from the correctly rounded sin
__global__ void sink(uint32_t first, int8_t *d, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
    float x = __uint_as_float(first + i), y; asm volatile("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    int dd = (int)__float_as_uint(y) - (int)__float_as_uint((float)sin((double)x));
    d[i] = dd > 127 ? 127 : dd < -127 ? -127 : dd;
}
// tanh.approx.f32 on binades 2^-12..2^4, every 64th input (low 6 bits zero)
__global__ void tanhk(uint32_t *out, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
    uint32_t xb = (0x73u << 23) + i * 64u; float x = __uint_as_float(xb), y;
    asm volatile("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); out[i] = __float_as_uint(y);
}
static uint64_t rs = 0x1234567887654321ull;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)(rs >> 11); }
static void wr(const std::string &p, const void *d, size_t n) { FILE *f = fopen(p.c_str(), "wb"); fwrite(d, 1, n, f); fclose(f); }
int main(int argc, char **argv) {
    std::string o = argc > 1 ? argv[1] : ".";
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0)); printf("device: %s\n", p.name);
    const int n = 131072; std::vector<uint32_t> in(n), b(n);
    const uint32_t fixed[9] = {0, 1, 2, 3, 0x7fffff, 0x7ffffe, 0x400000, 0x400001, 0x3fffff};
    for (int i = 0; i < n; i++) { int e = (i >> 8) & 255, s = i >> 16, k = i & 255; uint32_t m = k < 9 ? fixed[k] : rnd() & 0x7fffff; in[i] = (uint32_t)s << 31 | (uint32_t)e << 23 | m; }
    for (int i = 0; i < n; i++) b[i] = in[(i * 40503u + 7919u) % n];
    uint32_t *din, *db, *dout; CK(cudaMalloc(&din, n * 4)); CK(cudaMalloc(&db, n * 4)); CK(cudaMalloc(&dout, (size_t)NV * n * 4));
    CK(cudaMemcpy(din, in.data(), n * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
    std::vector<uint32_t> h((size_t)(NV + 1) * n);
    f32k<<<n / 256, 256>>>(din, dout, n); CK(cudaDeviceSynchronize());
    memcpy(h.data(), in.data(), n * 4); CK(cudaMemcpy(h.data() + n, dout, (size_t)NV * n * 4, cudaMemcpyDeviceToHost));
    wr(o + "/sample.bin", h.data(), (size_t)(NV + 1) * n * 4);
    divk<<<n / 256, 256>>>(din, db, dout, n); CK(cudaDeviceSynchronize());
    std::vector<uint32_t> hd((size_t)6 * n); memcpy(hd.data(), in.data(), n * 4); memcpy(hd.data() + n, b.data(), n * 4);
    CK(cudaMemcpy(hd.data() + 2 * n, dout, (size_t)4 * n * 4, cudaMemcpyDeviceToHost)); wr(o + "/div.bin", hd.data(), hd.size() * 4);
    uint16_t *dh; CK(cudaMalloc(&dh, 12 * 65536 * 2)); halfk<<<256, 256>>>(dh); CK(cudaDeviceSynchronize());
    std::vector<uint16_t> hh(12 * 65536); CK(cudaMemcpy(hh.data(), dh, hh.size() * 2, cudaMemcpyDeviceToHost)); wr(o + "/half.bin", hh.data(), hh.size() * 2);
    uint32_t ns = 1u << 24; int8_t *dd; CK(cudaMalloc(&dd, ns)); sink<<<ns / 256, 256>>>(0x3e800000u, dd, ns); CK(cudaDeviceSynchronize());
    std::vector<int8_t> hs(ns); CK(cudaMemcpy(hs.data(), dd, ns, cudaMemcpyDeviceToHost)); wr(o + "/sin_dense.i8", hs.data(), ns);
    uint32_t nt = 17u << 17; uint32_t *dt; CK(cudaMalloc(&dt, nt * 4)); tanhk<<<nt / 256, 256>>>(dt, nt); CK(cudaDeviceSynchronize());
    std::vector<uint32_t> ht(nt); CK(cudaMemcpy(ht.data(), dt, nt * 4, cudaMemcpyDeviceToHost)); wr(o + "/tanh_s.bin", ht.data(), (size_t)nt * 4);
    printf("ok\n"); return 0;
}
