// Tensor cores: warp matrix multiply-accumulate through nvcuda::wmma (f16 and bf16 with f32
// and f16 accumulators, the three 16-bit shapes, tf32, f64, s8 and u8; row and column
// layouts; element-wise work on fragments) and through inline PTX (mma.sync m16n8k16 fed by
// ldmatrix, stmatrix, movmatrix, tf32 m16n8k8, s8 m16n8k32, f64 m8n8k4). Inputs are random
// so the tensor cores' rounding shows: results print as bit patterns hashed per product and
// a few values in full, and each product is checked against a double-precision reference.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); return 1; } } while (0)

static uint32_t rng = 12345u;
static float frand() { rng = rng * 1664525u + 1013904223u; return (float)((rng >> 8) & 0xffff) / 32768.0f - 1.0f; }

static uint64_t fnv(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p; uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
    return h;
}

static float h2f(__half h) { return __half2float(h); }
static float h2f(__nv_bfloat16 h) { return __bfloat162float(h); }
static float h2f(float h) { return h; }
static double h2f(double h) { return h; }
static float h2f(signed char h) { return h; }
static float h2f(unsigned char h) { return h; }
static float h2f(int h) { return (float)h; }
template <typename T> static T f2h(float v);
template <> __half f2h<__half>(float v) { return __float2half(v); }
template <> __nv_bfloat16 f2h<__nv_bfloat16>(float v) { return __float2bfloat16(v); }
template <> float f2h<float>(float v) { return v; }
template <> double f2h<double>(float v) { return v; }
template <> signed char f2h<signed char>(float v) { return (signed char)(int)(v * 100); }
template <> unsigned char f2h<unsigned char>(float v) { return (unsigned char)(int)((v + 1) * 120); }
template <> int f2h<int>(float v) { return (int)(v * 1000); }

// D (MxN, row-major) = A (MxK, row or col) * B (KxN, row or col) + C, tiled over a warp per
// output tile, K swept in steps of the shape's k; alpha scales the fragment element-wise.
template <int TM, int TN, int TK, typename T, typename S, typename Acc, typename LA, typename LB>
__global__ void wmma_gemm(const S *A, const S *B, const Acc *C, Acc *D, int M, int N, int K, Acc alpha) {
    int tm = blockIdx.y, tn = blockIdx.x;
    wmma::fragment<wmma::matrix_a, TM, TN, TK, T, LA> fa;
    wmma::fragment<wmma::matrix_b, TM, TN, TK, T, LB> fb;
    wmma::fragment<wmma::accumulator, TM, TN, TK, Acc> fc;
    wmma::load_matrix_sync(fc, C + tm * TM * N + tn * TN, N, wmma::mem_row_major);
    bool arow = std::is_same<LA, wmma::row_major>::value, brow = std::is_same<LB, wmma::row_major>::value;
    for (int k = 0; k < K; k += TK) {
        const S *pa = arow ? A + tm * TM * K + k : A + k * M + tm * TM;
        const S *pb = brow ? B + k * N + tn * TN : B + tn * TN * K + k;
        wmma::load_matrix_sync(fa, pa, arow ? K : M);
        wmma::load_matrix_sync(fb, pb, brow ? N : K);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    for (int i = 0; i < fc.num_elements; i++) fc.x[i] = fc.x[i] * alpha;
    wmma::store_matrix_sync(D + tm * TM * N + tn * TN, fc, N, wmma::mem_row_major);
}

template <int TM, int TN, int TK, typename T, typename S, typename Acc, typename LA, typename LB>
static int wmma_test(const char *name, int M, int N, int K) {
    bool arow = std::is_same<LA, wmma::row_major>::value, brow = std::is_same<LB, wmma::row_major>::value;
    S *A = new S[M * K], *B = new S[K * N];
    Acc *C = new Acc[M * N], *D = new Acc[M * N];
    for (int i = 0; i < M; i++) for (int k = 0; k < K; k++) A[arow ? i * K + k : k * M + i] = f2h<S>(frand());
    for (int k = 0; k < K; k++) for (int j = 0; j < N; j++) B[brow ? k * N + j : j * K + k] = f2h<S>(frand());
    for (int i = 0; i < M * N; i++) C[i] = f2h<Acc>(frand());
    S *dA, *dB; Acc *dC, *dD;
    CHECK(cudaMalloc(&dA, M * K * sizeof(S))); CHECK(cudaMalloc(&dB, K * N * sizeof(S)));
    CHECK(cudaMalloc(&dC, M * N * sizeof(Acc))); CHECK(cudaMalloc(&dD, M * N * sizeof(Acc)));
    CHECK(cudaMemcpy(dA, A, M * K * sizeof(S), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B, K * N * sizeof(S), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dC, C, M * N * sizeof(Acc), cudaMemcpyHostToDevice));
    wmma_gemm<TM, TN, TK, T, S, Acc, LA, LB><<<dim3(N / TN, M / TM), 32>>>(dA, dB, dC, dD, M, N, K, f2h<Acc>(0.5f) == Acc(0) ? Acc(1) : (Acc)2);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(D, dD, M * N * sizeof(Acc), cudaMemcpyDeviceToHost));
    double maxerr = 0, scale = 0;
    double alpha = (double)h2f(f2h<Acc>(0.5f)) == 0 ? 1 : 2;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double r = h2f(C[i * N + j]);
            for (int k = 0; k < K; k++) r += (double)h2f(A[arow ? i * K + k : k * M + i]) * h2f(B[brow ? k * N + j : j * K + k]);
            r *= alpha;
            double e = fabs(r - (double)h2f(D[i * N + j]));
            if (e > maxerr) maxerr = e;
            if (fabs(r) > scale) scale = fabs(r);
        }
    // tf32 keeps 10 of an f32 input's 23 fraction bits: its products are that far off
    double tol = sizeof(Acc) == 2 ? 2e-3 : sizeof(S) == 1 || sizeof(Acc) == 8 ? 1e-12
               : std::is_same<T, wmma::precision::tf32>::value ? 4e-3
               : std::is_same<S, __nv_bfloat16>::value ? 1e-5 : 3e-6;
    bool ok = maxerr <= tol * (scale > 1 ? scale : 1) * K;
    printf("%s %dx%dx%d: %s hash %016llx d[0]=%.9g d[%d]=%.9g\n", name, M, N, K, ok ? "PASS" : "FAIL",
           (unsigned long long)fnv(D, M * N * sizeof(Acc)), (double)h2f(D[0]), M * N - 1, (double)h2f(D[M * N - 1]));
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    delete[] A; delete[] B; delete[] C; delete[] D;
    return ok ? 0 : 1;
}

// ---- inline PTX: mma.sync with ldmatrix, stmatrix and movmatrix ----
// A 16x16 f16 row-major, B 16x8 given as its transpose (8x16 row-major, i.e. B col-major),
// C/D 16x8 f32. ldmatrix.x4 gives A's fragment, ldmatrix.x2 B's; the result goes back through
// registers; then D is converted to f16, stored with stmatrix, transposed with movmatrix.
__global__ void mma_f16_k(const __half *A, const __half *Bt, const float *C, float *D, __half *Dh, __half *DhT) {
    __shared__ __align__(16) __half sA[16 * 16], sB[8 * 16], sD[16 * 8], sT[16 * 8];
    int lane = threadIdx.x;
    for (int i = lane; i < 256; i += 32) sA[i] = A[i];
    for (int i = lane; i < 128; i += 32) sB[i] = Bt[i];
    __syncwarp();
    uint32_t a[4], b[2];
    unsigned pa = (unsigned)__cvta_generic_to_shared(&sA[(lane % 16) * 16 + (lane / 16) * 8]);
    unsigned pb = (unsigned)__cvta_generic_to_shared(&sB[(lane % 8) * 16 + ((lane / 8) % 2) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
    int g = lane >> 2, t = lane & 3;
    float c[4] = {C[g * 8 + 2 * t], C[g * 8 + 2 * t + 1], C[(g + 8) * 8 + 2 * t], C[(g + 8) * 8 + 2 * t + 1]}, d[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    D[g * 8 + 2 * t] = d[0]; D[g * 8 + 2 * t + 1] = d[1]; D[(g + 8) * 8 + 2 * t] = d[2]; D[(g + 8) * 8 + 2 * t + 1] = d[3];
    // f16 D fragment: two 8x8 matrices (rows 0-7, rows 8-15), stored row by row with stmatrix
    __half2 lo = __floats2half2_rn(d[0], d[1]), hi = __floats2half2_rn(d[2], d[3]);
    uint32_t rlo = *(uint32_t *)&lo, rhi = *(uint32_t *)&hi;
    unsigned pd = (unsigned)__cvta_generic_to_shared(&sD[(lane % 16) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(pd), "r"(rlo), "r"(rhi) : "memory");
    uint32_t tlo, thi;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(tlo) : "r"(rlo));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(thi) : "r"(rhi));
    unsigned pt = (unsigned)__cvta_generic_to_shared(&sT[(lane % 16) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(pt), "r"(tlo), "r"(thi) : "memory");
    __syncwarp();
    for (int i = lane; i < 128; i += 32) { Dh[i] = sD[i]; DhT[i] = sT[i]; }
}

// bf16 m16n8k16, tf32 m16n8k8, s8 m16n8k32 (satfinite) and f64 m8n8k4, fragments built from
// the layouts the PTX ISA gives (groupID = lane >> 2, threadID_in_group = lane & 3).
__global__ void mma_misc_k(const __nv_bfloat16 *Abf, const __nv_bfloat16 *Bbf, const float *Atf, const float *Btf,
                           const signed char *As8, const signed char *Bs8, const double *Af64, const double *Bf64,
                           float *Dbf, float *Dtf, int *Ds8, double *Df64) {
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    uint32_t a[4], b[2];
    // bf16: A 16x16 row-major, B 16x8 row-major (k, n)
    for (int r = 0; r < 4; r++) {
        int row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
        __nv_bfloat162 v; v.x = Abf[row * 16 + col]; v.y = Abf[row * 16 + col + 1];
        a[r] = *(uint32_t *)&v;
    }
    for (int r = 0; r < 2; r++) {
        int k = 2 * t + 8 * r;
        __nv_bfloat162 v; v.x = Bbf[k * 8 + g]; v.y = Bbf[(k + 1) * 8 + g];
        b[r] = *(uint32_t *)&v;
    }
    float d[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(0.25f));
    for (int i = 0; i < 4; i++) Dbf[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
    // tf32: A 16x8, B 8x8
    uint32_t at[4], bt[2];
    for (int r = 0; r < 4; r++) at[r] = __float_as_uint(Atf[(g + 8 * (r & 1)) * 8 + t + 4 * (r >> 1)]);
    for (int r = 0; r < 2; r++) bt[r] = __float_as_uint(Btf[(t + 4 * r) * 8 + g]);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(at[0]), "r"(at[1]), "r"(at[2]), "r"(at[3]), "r"(bt[0]), "r"(bt[1]), "f"(-1.0f));
    for (int i = 0; i < 4; i++) Dtf[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
    // s8: A 16x32, B 32x8
    uint32_t as[4], bs[2];
    for (int r = 0; r < 4; r++) {
        int row = g + 8 * (r & 1), col = 4 * t + 16 * (r >> 1);
        as[r] = 0;
        for (int e = 0; e < 4; e++) as[r] |= (uint32_t)(unsigned char)As8[row * 32 + col + e] << (8 * e);
    }
    for (int r = 0; r < 2; r++) {
        bs[r] = 0;
        for (int e = 0; e < 4; e++) bs[r] |= (uint32_t)(unsigned char)Bs8[(4 * t + 16 * r + e) * 8 + g] << (8 * e);
    }
    int di[4];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(di[0]), "=r"(di[1]), "=r"(di[2]), "=r"(di[3])
                 : "r"(as[0]), "r"(as[1]), "r"(as[2]), "r"(as[3]), "r"(bs[0]), "r"(bs[1]),
                   "r"(2147483000), "r"(-2147483000), "r"(lane), "r"(-lane));
    for (int i = 0; i < 4; i++) Ds8[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = di[i];
    // f64 m8n8k4: A 8x4, B 4x8
    double df[2];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(df[0]), "=d"(df[1]) : "d"(Af64[g * 4 + t]), "d"(Bf64[t * 8 + g]), "d"(1.0), "d"(-1.0));
    Df64[g * 8 + 2 * t] = df[0]; Df64[g * 8 + 2 * t + 1] = df[1];
}

template <typename T> static T *dev(const T *h, int n) { T *d; cudaMalloc(&d, n * sizeof(T)); cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice); return d; }
template <typename T> static T *devz(int n) { T *d; cudaMalloc(&d, n * sizeof(T)); cudaMemset(d, 0, n * sizeof(T)); return d; }

static int inline_ptx_tests() {
    int fails = 0;
    __half A[256], Bt[128]; float C[128], D[128]; __half Dh[128], DhT[128];
    for (int i = 0; i < 256; i++) A[i] = __float2half(frand());
    for (int i = 0; i < 128; i++) Bt[i] = __float2half(frand());
    for (int i = 0; i < 128; i++) C[i] = frand();
    __half *dA = dev(A, 256), *dB = dev(Bt, 128), *dDh = devz<__half>(128), *dDhT = devz<__half>(128);
    float *dC = dev(C, 128), *dD = devz<float>(128);
    mma_f16_k<<<1, 32>>>(dA, dB, dC, dD, dDh, dDhT);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(Dh, dDh, sizeof Dh, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(DhT, dDhT, sizeof DhT, cudaMemcpyDeviceToHost));
    double maxerr = 0; bool st = true, tr = true;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            double r = C[i * 8 + j];
            for (int k = 0; k < 16; k++) r += (double)__half2float(A[i * 16 + k]) * __half2float(Bt[j * 16 + k]);
            maxerr = fmax(maxerr, fabs(r - D[i * 8 + j]));
            st &= __half2float(Dh[i * 8 + j]) == __half2float(__float2half(D[i * 8 + j]));
            // movmatrix then stmatrix.trans: each 8x8 block transposed twice is the original
            tr &= __half2float(DhT[i * 8 + j]) == __half2float(Dh[i * 8 + j]);
        }
    printf("mma.m16n8k16 f16 via ldmatrix: %s hash %016llx d[0]=%.9g d[127]=%.9g\n", maxerr < 1e-4 ? "PASS" : "FAIL",
           (unsigned long long)fnv(D, sizeof D), D[0], D[127]);
    printf("stmatrix: %s hash %016llx\n", st ? "PASS" : "FAIL", (unsigned long long)fnv(Dh, sizeof Dh));
    printf("movmatrix + stmatrix.trans: %s hash %016llx\n", tr ? "PASS" : "FAIL", (unsigned long long)fnv(DhT, sizeof DhT));
    fails += !(maxerr < 1e-4) + !st + !tr;

    __nv_bfloat16 Abf[256], Bbf[128]; float Atf[128], Btf[64]; signed char As8[512], Bs8[256]; double Af[32], Bf[32];
    for (int i = 0; i < 256; i++) Abf[i] = __float2bfloat16(frand());
    for (int i = 0; i < 128; i++) Bbf[i] = __float2bfloat16(frand());
    for (int i = 0; i < 128; i++) Atf[i] = frand() * 3;   // full f32 mantissas: the tf32 unit ignores the low bits
    for (int i = 0; i < 64; i++) Btf[i] = frand() * 3;
    for (int i = 0; i < 512; i++) As8[i] = (signed char)(frand() * 127);
    for (int i = 0; i < 256; i++) Bs8[i] = (signed char)(frand() * 127);
    for (int i = 0; i < 32; i++) { Af[i] = frand() * 1e3; Bf[i] = frand() / 7; }
    float *dDbf = devz<float>(128), *dDtf = devz<float>(128); int *dDs8 = devz<int>(128); double *dDf = devz<double>(64);
    mma_misc_k<<<1, 32>>>(dev(Abf, 256), dev(Bbf, 128), dev(Atf, 128), dev(Btf, 64), dev(As8, 512), dev(Bs8, 256),
                          dev(Af, 32), dev(Bf, 32), dDbf, dDtf, dDs8, dDf);
    CHECK(cudaGetLastError());
    float Dbf[128], Dtf[128]; int Ds8[128]; double Df[64];
    CHECK(cudaMemcpy(Dbf, dDbf, sizeof Dbf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(Dtf, dDtf, sizeof Dtf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(Ds8, dDs8, sizeof Ds8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(Df, dDf, sizeof Df, cudaMemcpyDeviceToHost));
    double ebf = 0, etf = 0, ef = 0; bool s8ok = true;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            double r = 0.25, rt = -1; long long ri = 0;
            for (int k = 0; k < 16; k++) r += (double)__bfloat162float(Abf[i * 16 + k]) * __bfloat162float(Bbf[k * 8 + j]);
            for (int k = 0; k < 8; k++) rt += (double)Atf[i * 8 + k] * Btf[k * 8 + j];
            for (int k = 0; k < 32; k++) ri += As8[i * 32 + k] * Bs8[k * 8 + j];
            int lane = (i % 8) * 4 + j / 2, idx = (i / 8) * 2 + (j & 1);
            long long c = idx == 0 ? 2147483000LL : idx == 1 ? -2147483000LL : idx == 2 ? lane : -lane;
            ri += c;
            if (ri > 2147483647LL) ri = 2147483647LL;
            if (ri < -2147483648LL) ri = -2147483648LL;
            ebf = fmax(ebf, fabs(r - Dbf[i * 8 + j]));
            etf = fmax(etf, fabs(rt - Dtf[i * 8 + j]));
            s8ok &= ri == Ds8[i * 8 + j];
        }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            double r = (j & 1) ? -1.0 : 1.0;
            for (int k = 0; k < 4; k++) r += Af[i * 4 + k] * Bf[k * 8 + j];
            ef = fmax(ef, fabs(r - Df[i * 8 + j]));
        }
    printf("mma.m16n8k16 bf16: %s hash %016llx d[5]=%.9g\n", ebf < 1e-4 ? "PASS" : "FAIL", (unsigned long long)fnv(Dbf, sizeof Dbf), Dbf[5]);
    printf("mma.m16n8k8 tf32: %s hash %016llx d[5]=%.9g\n", etf < 0.1 ? "PASS" : "FAIL", (unsigned long long)fnv(Dtf, sizeof Dtf), Dtf[5]);
    printf("mma.m16n8k32 s8 satfinite: %s hash %016llx d[0]=%d d[1]=%d d[2]=%d\n", s8ok ? "PASS" : "FAIL", (unsigned long long)fnv(Ds8, sizeof Ds8), Ds8[0], Ds8[1], Ds8[2]);
    printf("mma.m8n8k4 f64: %s hash %016llx d[9]=%.17g\n", ef < 1e-9 ? "PASS" : "FAIL", (unsigned long long)fnv(Df, sizeof Df), Df[9]);
    fails += !(ebf < 1e-4) + !(etf < 0.1) + !s8ok + !(ef < 1e-9);
    return fails;
}

int main() {
    int fails = 0;
    using R = wmma::row_major; using Cm = wmma::col_major;
    fails += wmma_test<16, 16, 16, __half, __half, float, R, Cm>("wmma m16n16k16 f16.f32 row.col", 32, 32, 64);
    fails += wmma_test<16, 16, 16, __half, __half, float, Cm, R>("wmma m16n16k16 f16.f32 col.row", 32, 16, 32);
    fails += wmma_test<16, 16, 16, __half, __half, __half, R, R>("wmma m16n16k16 f16.f16 row.row", 16, 32, 32);
    fails += wmma_test<32, 8, 16, __half, __half, float, R, Cm>("wmma m32n8k16 f16.f32 row.col", 64, 16, 32);
    fails += wmma_test<8, 32, 16, __half, __half, __half, Cm, Cm>("wmma m8n32k16 f16.f16 col.col", 16, 64, 32);
    fails += wmma_test<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float, R, Cm>("wmma m16n16k16 bf16.f32 row.col", 32, 32, 32);
    fails += wmma_test<32, 8, 16, __nv_bfloat16, __nv_bfloat16, float, Cm, R>("wmma m32n8k16 bf16.f32 col.row", 32, 16, 16);
    fails += wmma_test<8, 32, 16, __nv_bfloat16, __nv_bfloat16, float, R, R>("wmma m8n32k16 bf16.f32 row.row", 16, 32, 32);
    fails += wmma_test<16, 16, 8, wmma::precision::tf32, float, float, R, Cm>("wmma m16n16k8 tf32.f32 row.col", 32, 32, 32);
    fails += wmma_test<8, 8, 4, double, double, double, R, Cm>("wmma m8n8k4 f64 row.col", 16, 16, 16);
    fails += wmma_test<8, 8, 4, double, double, double, Cm, R>("wmma m8n8k4 f64 col.row", 8, 8, 8);
    fails += wmma_test<16, 16, 16, signed char, signed char, int, R, Cm>("wmma m16n16k16 s8.s32 row.col", 32, 32, 64);
    fails += wmma_test<32, 8, 16, unsigned char, unsigned char, int, R, Cm>("wmma m32n8k16 u8.s32 row.col", 32, 8, 32);
    fails += wmma_test<8, 32, 16, signed char, signed char, int, Cm, R>("wmma m8n32k16 s8.s32 col.row", 8, 32, 16);
    fails += inline_ptx_tests();
    printf("%s: %d failures\n", fails ? "FAIL" : "PASS", fails);
    return fails ? 1 : 0;
}
