// Ground-truth probe for vcuda's tensor-core and SFU emulation (run on the lent GPU).
// 1. wmma fragment layouts: per lane, per fragment element, the (row, col) it holds.
// 2. wmma numerics: random and crafted matrices, inputs and outputs as bit patterns.
// 3. .approx SFU functions over dense grids, stored as ulp deltas from the exact result.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cmath>
#include <vector>
#include <string>
using namespace nvcuda;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ float tof(__half v) { return __half2float(v); }
__device__ float tof(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ float tof(float v) { return v; }
__device__ float tof(double v) { return (float)v; }
__device__ float tof(unsigned char v) { return v; }
__device__ float tof(signed char v) { return v; }
__device__ float tof(int v) { return (float)v; }
template <typename T> __host__ __device__ T fromf(float v);
template <> __host__ __device__ __half fromf<__half>(float v) { return __float2half(v); }
template <> __host__ __device__ __nv_bfloat16 fromf<__nv_bfloat16>(float v) { return __float2bfloat16(v); }
template <> __host__ __device__ float fromf<float>(float v) { return v; }
template <> __host__ __device__ double fromf<double>(float v) { return v; }
template <> __host__ __device__ unsigned char fromf<unsigned char>(float v) { return (unsigned char)v; }
template <> __host__ __device__ signed char fromf<signed char>(float v) { return (signed char)v; }
template <> __host__ __device__ int fromf<int>(float v) { return (int)v; }

// ---- 1. layouts ----
template <typename Use, int M, int N, int K, typename T, typename L, typename S>
__global__ void layout_k(const S *rows, const S *cols, int ld, float *out) {
    wmma::fragment<Use, M, N, K, T, L> f;
    int lane = threadIdx.x;
    wmma::load_matrix_sync(f, rows, ld);
    for (int i = 0; i < f.num_elements; i++) out[(lane * f.num_elements + i) * 2] = tof(f.x[i]);
    wmma::load_matrix_sync(f, cols, ld);
    for (int i = 0; i < f.num_elements; i++) out[(lane * f.num_elements + i) * 2 + 1] = tof(f.x[i]);
    if (lane == 0) out[32 * f.num_elements * 2] = f.num_elements;
}
template <int M, int N, int K, typename T, typename S>
__global__ void layout_acc(const S *rows, const S *cols, int ld, float *out, int colmajor) {
    wmma::fragment<wmma::accumulator, M, N, K, T> f;
    int lane = threadIdx.x;
    wmma::layout_t lay = colmajor ? wmma::mem_col_major : wmma::mem_row_major;
    wmma::load_matrix_sync(f, rows, ld, lay);
    for (int i = 0; i < f.num_elements; i++) out[(lane * f.num_elements + i) * 2] = tof(f.x[i]);
    wmma::load_matrix_sync(f, cols, ld, lay);
    for (int i = 0; i < f.num_elements; i++) out[(lane * f.num_elements + i) * 2 + 1] = tof(f.x[i]);
    if (lane == 0) out[32 * f.num_elements * 2] = f.num_elements;
}

static FILE *flay;
template <typename S> static void run_layout(const char *name, int R, int C, bool colmajor,
                                             void (*launch)(const S *, const S *, int, float *)) {
    std::vector<S> hr(R * C), hc(R * C);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            int idx = colmajor ? j * R + i : i * C + j;
            hr[idx] = fromf<S>((float)i);
            hc[idx] = fromf<S>((float)j);
        }
    S *dr, *dc; float *dout;
    CK(cudaMalloc(&dr, R * C * sizeof(S))); CK(cudaMalloc(&dc, R * C * sizeof(S)));
    CK(cudaMalloc(&dout, 32 * 64 * 2 * sizeof(float) + 64));
    CK(cudaMemcpy(dr, hr.data(), R * C * sizeof(S), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, hc.data(), R * C * sizeof(S), cudaMemcpyHostToDevice));
    launch(dr, dc, colmajor ? R : C, dout);
    CK(cudaDeviceSynchronize());
    std::vector<float> h(32 * 64 * 2 + 16);
    CK(cudaMemcpy(h.data(), dout, h.size() * sizeof(float), cudaMemcpyDeviceToHost));
    // the element count is at index 32*ne*2: find it by trying the possible counts
    int ne = 0;
    for (int c : {1, 2, 4, 8, 16, 32})
        if ((int)h[32 * c * 2] == c) { ne = c; break; }
    fprintf(flay, "%s ne=%d\n", name, ne);
    for (int l = 0; l < 32; l++) {
        fprintf(flay, "  %2d:", l);
        for (int i = 0; i < ne; i++) fprintf(flay, " %d,%d", (int)h[(l * ne + i) * 2], (int)h[(l * ne + i) * 2 + 1]);
        fprintf(flay, "\n");
    }
    cudaFree(dr); cudaFree(dc); cudaFree(dout);
}

#define LAY_AB(USE, USENAME, M, N, K, T, S, TN, L, LN, R, C)                                     \
    run_layout<S>(USENAME " m" #M "n" #N "k" #K " " TN " " LN, R, C, !strcmp(LN, "col"),         \
                  [](const S *r, const S *c, int ld, float *o) {                                \
                      layout_k<wmma::USE, M, N, K, T, wmma::L, S><<<1, 32>>>(r, c, ld, o);       \
                  })
#define LAY_A(M, N, K, T, S, TN) \
    LAY_AB(matrix_a, "a", M, N, K, T, S, TN, row_major, "row", M, K); \
    LAY_AB(matrix_a, "a", M, N, K, T, S, TN, col_major, "col", M, K); \
    LAY_AB(matrix_b, "b", M, N, K, T, S, TN, row_major, "row", K, N); \
    LAY_AB(matrix_b, "b", M, N, K, T, S, TN, col_major, "col", K, N)
#define LAY_C(M, N, K, T, TN)                                                              \
    for (int cm = 0; cm < 2; cm++) {                                                         \
        char nm[64]; snprintf(nm, sizeof nm, "c m%dn%dk%d %s %s", M, N, K, TN, cm ? "col" : "row"); \
        static int cmv; cmv = cm;                                                            \
        run_layout<T>(nm, M, N, cm,                                                          \
                      [](const T *r, const T *c, int ld, float *o) {                         \
                          layout_acc<M, N, K, T, T><<<1, 32>>>(r, c, ld, o, cmv);            \
                      });                                                                    \
    }

static void layouts() {
    LAY_A(16, 16, 16, __half, __half, "f16");
    LAY_A(32, 8, 16, __half, __half, "f16");
    LAY_A(8, 32, 16, __half, __half, "f16");
    LAY_A(16, 16, 16, __nv_bfloat16, __nv_bfloat16, "bf16");
    LAY_A(32, 8, 16, __nv_bfloat16, __nv_bfloat16, "bf16");
    LAY_A(8, 32, 16, __nv_bfloat16, __nv_bfloat16, "bf16");
    LAY_A(16, 16, 16, unsigned char, unsigned char, "u8");
    LAY_A(32, 8, 16, unsigned char, unsigned char, "u8");
    LAY_A(8, 32, 16, unsigned char, unsigned char, "u8");
    LAY_A(16, 16, 16, signed char, signed char, "s8");
    LAY_A(16, 16, 8, wmma::precision::tf32, float, "tf32");
    LAY_A(8, 8, 4, double, double, "f64");
    LAY_C(16, 16, 16, float, "f32");
    LAY_C(32, 8, 16, float, "f32");
    LAY_C(8, 32, 16, float, "f32");
    LAY_C(16, 16, 16, __half, "f16");
    LAY_C(32, 8, 16, __half, "f16");
    LAY_C(8, 32, 16, __half, "f16");
    LAY_C(16, 16, 16, int, "s32");
    LAY_C(32, 8, 16, int, "s32");
    LAY_C(8, 32, 16, int, "s32");
    LAY_C(16, 16, 8, float, "tf32f32");
    LAY_C(8, 8, 4, double, "f64");
}

// ---- 2. numerics ----
// One warp per case: D = A (row-major MxK) * B (col-major KxN) + C (row-major MxN).
template <int M, int N, int K, typename T, typename S, typename Acc>
__global__ void gemm_k(const S *A, const S *B, const Acc *C, Acc *D) {
    int c = blockIdx.x;
    wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
    wmma::load_matrix_sync(fa, A + (size_t)c * M * K, K);
    wmma::load_matrix_sync(fb, B + (size_t)c * K * N, K);
    wmma::load_matrix_sync(fc, C + (size_t)c * M * N, N, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(D + (size_t)c * M * N, fc, N, wmma::mem_row_major);
}

static uint64_t rs = 0x9E3779B97F4A7C15ull;
static uint64_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }

// A random value of a float format with ebits exponent bits and mbits fraction bits, as bits,
// by mode (see the list in main's comment).
static uint64_t gen(int mode, int ebits, int mbits, int k, int role) {
    int bias = (1 << (ebits - 1)) - 1, emax = (1 << ebits) - 2;
    uint64_t s = rnd() & 1, m = rnd() & ((1ull << mbits) - 1), e;
    int lo = 1, hi = emax;
    switch (mode) {
    case 0: lo = bias - 3; hi = bias; break;                     // |x| in [2^-3, 2)
    case 1: lo = bias - 12; hi = bias + 12; if (lo < 1) lo = 1; if (hi > emax) hi = emax; break;
    case 2: lo = bias - 2; hi = bias + 2; break;                  // cancellation set up by caller
    case 3: if (rnd() % 2) { e = 0; return s << (ebits + mbits) | m; } lo = 1; hi = 4 > emax ? emax : 4; break;
    case 4: if (k == 0) { lo = hi = bias; } else { lo = bias - 14; hi = bias - 8; } break;
    case 5: return rnd() & ((1ull << (1 + ebits + mbits)) - 1);
    case 6: lo = bias - 1; hi = bias + 1; m = rnd() & 7; m <<= (mbits > 3 ? mbits - 3 : 0); break;
    case 7: lo = bias; hi = bias; m = (rnd() & 1) ? (1ull << (mbits - 1)) | 1 : (rnd() & ((1ull << mbits) - 1)); break;
    default: break;
    }
    if (lo < 1) lo = 1;
    if (hi > emax) hi = emax;
    e = lo + rnd() % (hi - lo + 1);
    (void)role;
    return s << (ebits + mbits) | e << mbits | m;
}

static FILE *fnum;
// Writes: header line, then per case the raw bits of A, B, C, D.
template <int M, int N, int K, typename T, typename S, typename Acc>
static void run_gemm(const char *name, int ebits, int mbits, int sbytes, int cebits, int cmbits,
                     int abytes, int ncases) {
    size_t na = (size_t)ncases * M * K, nb = (size_t)ncases * K * N, nc = (size_t)ncases * M * N;
    std::vector<uint8_t> hA(na * sbytes), hB(nb * sbytes), hC(nc * abytes), hD(nc * abytes);
    auto put = [](std::vector<uint8_t> &v, size_t i, int bytes, uint64_t bits) { memcpy(&v[i * bytes], &bits, bytes); };
    for (int c = 0; c < ncases; c++) {
        int mode = c % 8;
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++) {
                uint64_t b = gen(mode, ebits, mbits, k, 0);
                if (mode == 7 && sbytes == 4 && mbits == 10) b <<= 13; // tf32 pattern in f32 bits
                put(hA, (size_t)c * M * K + i * K + k, sbytes, b);
            }
        for (int j = 0; j < N; j++)
            for (int k = 0; k < K; k++) {
                uint64_t b = gen(mode, ebits, mbits, k, 1);
                if (mode == 2 && (k & 1)) {
                    // cancellation: b_k = -b_{k-1} and a_k = a_{k-1} for every row
                    uint64_t prev; memcpy(&prev, &hB[((size_t)c * K * N + j * K + k - 1) * sbytes], sbytes);
                    b = prev ^ (1ull << (ebits + mbits));
                    if (rnd() % 3 == 0) b ^= 1; // nearly cancel
                }
                put(hB, (size_t)c * K * N + j * K + k, sbytes, b);
            }
        if (mode == 2)
            for (int i = 0; i < M; i++)
                for (int k = 1; k < K; k += 2)
                    memcpy(&hA[((size_t)c * M * K + i * K + k) * sbytes], &hA[((size_t)c * M * K + i * K + k - 1) * sbytes], sbytes);
        for (int i = 0; i < M * N; i++) {
            int cm = mode;
            uint64_t b;
            if (cm == 4 || cm == 2) {
                int cbias = (1 << (cebits - 1)) - 1;
                int ei = cbias - 30 + (int)(rnd() % 36); if (ei < 1) ei = 1 + (int)(rnd() % 8);
                uint64_t e = ei, m = rnd() & ((1ull << cmbits) - 1);
                b = (rnd() & 1ull) << (cebits + cmbits) | e << cmbits | m;
            } else if (cm == 6) {
                int cbias = (1 << (cebits - 1)) - 1;
                uint64_t e = cbias + 2 + rnd() % 3, m = rnd() & ((1ull << cmbits) - 1);
                b = (rnd() & 1ull) << (cebits + cmbits) | e << cmbits | m;
            } else if (cm == 0 && i % 3 == 0) {
                b = 0;
            } else {
                b = gen(cm, cebits, cmbits, 1, 2);
            }
            put(hC, (size_t)c * M * N + i, abytes, b);
        }
    }
    void *dA, *dB, *dC, *dD;
    CK(cudaMalloc(&dA, hA.size())); CK(cudaMalloc(&dB, hB.size()));
    CK(cudaMalloc(&dC, hC.size())); CK(cudaMalloc(&dD, hD.size()));
    CK(cudaMemcpy(dA, hA.data(), hA.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, hB.data(), hB.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, hC.data(), hC.size(), cudaMemcpyHostToDevice));
    gemm_k<M, N, K, T, S, Acc><<<ncases, 32>>>((const S *)dA, (const S *)dB, (const Acc *)dC, (Acc *)dD);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hD.data(), dD, hD.size(), cudaMemcpyDeviceToHost));
    fprintf(fnum, "GEMM %s m%dn%dk%d cases %d inbytes %d accbytes %d\n", name, M, N, K, ncases, sbytes, abytes);
    for (int c = 0; c < ncases; c++) {
        auto dump = [&](const char *tag, std::vector<uint8_t> &v, size_t first, size_t n, int bytes) {
            fprintf(fnum, "%s", tag);
            for (size_t i = 0; i < n; i++) {
                uint64_t b = 0; memcpy(&b, &v[(first + i) * bytes], bytes);
                fprintf(fnum, " %0*llx", bytes * 2, (unsigned long long)b);
            }
            fprintf(fnum, "\n");
        };
        fprintf(fnum, "case %d mode %d\n", c, c % 8);
        dump("A", hA, (size_t)c * M * K, M * K, sbytes);
        dump("B", hB, (size_t)c * K * N, K * N, sbytes);
        dump("C", hC, (size_t)c * M * N, M * N, abytes);
        dump("D", hD, (size_t)c * M * N, M * N, abytes);
    }
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
}

// ---- 3. SFU ----
__global__ void sfu_k(int fn, uint32_t first, uint32_t step, int8_t *delta, uint32_t *raw, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t xb = first + i * step;
    float x = __uint_as_float(xb), y;
    double r;
    switch (fn) {
    case 0: asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = 1.0 / x; break;
    case 1: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = 1.0 / sqrt((double)x); break;
    case 2: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = exp2((double)x); break;
    case 3: asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = log2((double)x); break;
    case 4: asm("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = sin((double)x); break;
    case 5: asm("cos.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = cos((double)x); break;
    case 6: asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = sqrt((double)x); break;
    default: asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); r = tanh((double)x); break;
    }
    int d = (int)__float_as_uint(y) - (int)__float_as_uint((float)r);
    delta[i] = d > 127 ? 127 : d < -127 ? -127 : d;
    if (raw) raw[i] = __float_as_uint(y);
}

static void sfu(const char *path, int fn, uint32_t first, uint32_t step, uint32_t n, FILE *sum) {
    int8_t *dd; CK(cudaMalloc(&dd, n));
    sfu_k<<<(n + 255) / 256, 256>>>(fn, first, step, dd, nullptr, n);
    CK(cudaDeviceSynchronize());
    std::vector<int8_t> h(n);
    CK(cudaMemcpy(h.data(), dd, n, cudaMemcpyDeviceToHost));
    FILE *f = fopen(path, "ab"); fwrite(h.data(), 1, n, f); fclose(f);
    long hist[5] = {0}; int mn = 0, mx = 0;
    for (uint32_t i = 0; i < n; i++) { int d = h[i]; if (d < mn) mn = d; if (d > mx) mx = d; if (d >= -2 && d <= 2) hist[d + 2]++; }
    fprintf(sum, "sfu fn %d first %08x step %u n %u: min %d max %d  -2:%ld -1:%ld 0:%ld 1:%ld 2:%ld\n",
            fn, first, step, n, mn, mx, hist[0], hist[1], hist[2], hist[3], hist[4]);
    cudaFree(dd);
}

int main(int argc, char **argv) {
    const char *out = argc > 1 ? argv[1] : ".";
    std::string o(out);
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    FILE *sum = fopen((o + "/summary.txt").c_str(), "w");
    fprintf(sum, "device: %s cc %d.%d\n", p.name, p.major, p.minor);
    flay = fopen((o + "/wmma_layouts.txt").c_str(), "w");
    fprintf(flay, "# wmma fragment layouts on %s: per lane, element i holds (row,col)\n", p.name);
    layouts();
    fclose(flay);
    fnum = fopen((o + "/wmma_numerics.txt").c_str(), "w");
    fprintf(fnum, "# wmma numerics on %s (modes: 0 small, 1 wide exponents, 2 cancellation, 3 subnormal,\n"
                  "# 4 one large term + tiny ones, 5 random bits, 6 few mantissa bits, 7 ties)\n", p.name);
    run_gemm<16, 16, 16, __half, __half, float>("f16.f32", 5, 10, 2, 8, 23, 4, 256);
    run_gemm<16, 16, 16, __half, __half, __half>("f16.f16", 5, 10, 2, 5, 10, 2, 128);
    run_gemm<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>("bf16.f32", 8, 7, 2, 8, 23, 4, 256);
    run_gemm<16, 16, 8, wmma::precision::tf32, float, float>("tf32.f32", 8, 23, 4, 8, 23, 4, 256);
    run_gemm<8, 8, 4, double, double, double>("f64.f64", 11, 52, 8, 11, 52, 8, 256);
    fclose(fnum);
    // SFU: one file per function family; deltas as int8 ulps from the correctly rounded value
    sfu((o + "/sfu_a.i8").c_str(), 0, 0x3f800000u, 1, 1u << 23, sum);   // rcp [1,2)
    sfu((o + "/sfu_a.i8").c_str(), 1, 0x3f800000u, 1, 1u << 24, sum);   // rsqrt [1,4)
    sfu((o + "/sfu_b.i8").c_str(), 2, 0x3f800000u, 1, 1u << 23, sum);   // ex2 [1,2)
    sfu((o + "/sfu_b.i8").c_str(), 2, 0xbf800000u, 1, 1u << 23, sum);   // ex2 (-2,-1]
    sfu((o + "/sfu_b.i8").c_str(), 3, 0x3f800000u, 1, 1u << 23, sum);   // lg2 [1,2)
    sfu((o + "/sfu_c.i8").c_str(), 4, 0x3f800000u, 1, 1u << 23, sum);   // sin [1,2)
    sfu((o + "/sfu_c.i8").c_str(), 5, 0x3f800000u, 1, 1u << 23, sum);   // cos [1,2)
    sfu((o + "/sfu_d.i8").c_str(), 6, 0x3f800000u, 1, 1u << 24, sum);   // sqrt [1,4)
    sfu((o + "/sfu_d.i8").c_str(), 7, 0x3e800000u, 1, 1u << 23, sum);   // tanh [0.25,0.5)
    fclose(sum);
    return 0;
}
