// Half precision (cuda_fp16.h): __float2half (round to nearest) and the _rz/_rd/_ru
// variants, __half2float, __half arithmetic through intrinsics (__hadd __hsub __hmul
// __hdiv __hfma __hneg) and through the C++ operators, comparisons, hsqrt hexp hlog hrcp,
// __half2 vector math (__hadd2 __hmul2 __hfma2 __h2div), conversions to and from
// integers, and a half-precision dot product accumulated in float. Every result is
// printed as its 16-bit pattern and checked against a host reference computed in float
// and rounded to half.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define NOPS 24
__global__ void halfOps(const float *a, const float *b, unsigned short *out, int n)
{
    int i = threadIdx.x;
    if (i >= n) return;
    __half x = __float2half(a[i]), y = __float2half(b[i]);
    __half r[NOPS] = {
        x, y, __float2half_rz(a[i]), __float2half_rd(a[i]), __float2half_ru(a[i]),
        __hadd(x, y), __hsub(x, y), __hmul(x, y), __hdiv(x, y), __hfma(x, y, x), __hneg(x),
        x + y, x * y - y, (x > y) ? x : y, __hmax(x, y), __hmin(x, y),
        hsqrt(__habs(x)), hexp(__hmul(x, __float2half(0.125f))), hlog(__habs(x)), hrcp(x),
        __int2half_rn((int)(a[i] * 100.0f)), __hadd_sat(x, y), __hmul_sat(x, y), __float2half(__half2float(x) * 3.0f)};
    for (int k = 0; k < NOPS; k++) out[i * NOPS + k] = __half_as_ushort(r[k]);
}

__global__ void half2Ops(const float *a, const float *b, unsigned *out, int n)
{
    int i = threadIdx.x;
    if (i >= n / 2) return;
    __half2 x = __floats2half2_rn(a[2 * i], a[2 * i + 1]);
    __half2 y = __floats2half2_rn(b[2 * i], b[2 * i + 1]);
    __half2 r[5] = {__hadd2(x, y), __hmul2(x, y), __hfma2(x, y, y), __h2div(x, y), __lowhigh2highlow(x)};
    for (int k = 0; k < 5; k++) { __half2_raw raw = r[k]; out[i * 5 + k] = raw.x | ((unsigned)raw.y << 16); }
}

__global__ void toInt(const float *a, int *out, int n)
{
    int i = threadIdx.x;
    if (i >= n) return;
    __half x = __float2half(a[i] * 7.0f);
    out[i * 4 + 0] = __half2int_rn(x); out[i * 4 + 1] = __half2int_rz(x);
    out[i * 4 + 2] = __half2int_rd(x); out[i * 4 + 3] = __half2int_ru(x);
}

__global__ void dotHalf(const __half *x, const __half *y, float *result, int n)
{
    __shared__ float partial[256];
    float acc = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) acc += __half2float(x[i]) * __half2float(y[i]);
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) *result = partial[0];
}

// ---- host reference: IEEE binary16 rounding of a float (or double) ----
static unsigned short toHalf(double v, int mode) // 0 nearest-even, 1 toward zero, 2 down, 3 up
{
    unsigned short sign = std::signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (std::isnan(v)) return 0x7fff;
    if (a == 0) return sign;
    int e; frexp(a, &e);                 // a = m * 2^e, m in [0.5, 1)
    int exp = e - 1;                      // a = 1.f * 2^exp
    if (exp < -14) exp = -14;             // subnormal range: fixed quantum 2^-24
    double q = ldexp(1.0, exp - 10);      // spacing of halves here
    double k = a / q, fl = floor(k);
    double r;
    bool neg = sign != 0;
    switch (mode) {
    case 0: { double d = k - fl; r = d > 0.5 ? fl + 1 : d < 0.5 ? fl : (fmod(fl, 2) == 0 ? fl : fl + 1); break; }
    case 1: r = fl; break;
    case 2: r = neg ? ceil(k) : fl; break;
    default: r = neg ? fl : ceil(k); break;
    }
    double h = r * q;
    if (h > 65504.0) {
        bool toInf = mode == 0 || (mode == 3 && !neg) || (mode == 2 && neg);
        if (mode == 0 && a < 65520.0) toInf = false;
        return sign | (toInf ? 0x7c00 : 0x7bff);
    }
    if (h == 0) return sign;
    int he; frexp(h, &he);
    int hexp = he - 1;
    if (hexp < -14) return sign | (unsigned short)(h / ldexp(1.0, -24));
    unsigned mant = (unsigned)(h / ldexp(1.0, hexp - 10)) - 1024;
    return sign | (unsigned short)(((hexp + 15) << 10) | mant);
}
static double fromHalf(unsigned short h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

int main()
{
    const float a[] = {1.0f, 0.1f, -2.5f, 65504.0f, 1e-5f, 3.14159265f, -0.0f, 1000.7f, 6.1e-5f, 70000.0f, 0.33333f, -12.34f, 2049.0f, 0.5f, 7.0f, -1e-7f};
    const float b[] = {0.5f, 0.2f, 1.5f, 2.0f, 3e-5f, -2.71828f, 1.0f, 0.01f, 1.0f, 1.0f, 3.0f, 4.56f, 1.0f, -0.5f, 0.0009765625f, 8.0f};
    const int n = 16;
    float *da, *db; unsigned short *dout; unsigned *d2; int *di;
    CHECK(cudaMalloc(&da, sizeof a)); CHECK(cudaMalloc(&db, sizeof b));
    CHECK(cudaMalloc(&dout, n * NOPS * 2)); CHECK(cudaMalloc(&d2, n / 2 * 5 * 4)); CHECK(cudaMalloc(&di, n * 4 * 4));
    CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    halfOps<<<1, 32>>>(da, db, dout, n);
    half2Ops<<<1, 32>>>(da, db, d2, n);
    toInt<<<1, 32>>>(da, di, n);
    CHECK(cudaGetLastError());
    unsigned short h[n * NOPS]; unsigned h2[n / 2 * 5]; int hi[n * 4];
    CHECK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h2, d2, sizeof h2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        printf("a=%-12.9g b=%-12.9g:", a[i], b[i]);
        for (int k = 0; k < NOPS; k++) printf(" %04x", h[i * NOPS + k]);
        printf("\n");
        unsigned short x = toHalf(a[i], 0), y = toHalf(b[i], 0);
        double fx = fromHalf(x), fy = fromHalf(y);
        // Exactly rounded operations (the product of two halves is exact in double, and
        // the sum, difference and fma are exact too for these magnitudes).
        unsigned short want[16] = {x, y, toHalf(a[i], 1), toHalf(a[i], 2), toHalf(a[i], 3), toHalf(fx + fy, 0),
                                   toHalf(fx - fy, 0), toHalf(fx * fy, 0), toHalf(fx / fy, 0), toHalf(fx * fy + fx, 0),
                                   (unsigned short)(x ^ 0x8000), toHalf(fx + fy, 0), toHalf(fromHalf(toHalf(fx * fy, 0)) - fy, 0),
                                   fx > fy ? x : y, fx > fy ? x : y, fx < fy ? x : y};
        for (int k = 0; k < 16; k++)
            if (h[i * NOPS + k] != want[k] && !(std::isnan(fromHalf(want[k])) && std::isnan(fromHalf(h[i * NOPS + k])))) {
                printf("  op %d: gpu %04x host %04x\n", k, h[i * NOPS + k], want[k]);
                bad++;
            }
        // Approximate functions: within 1 ulp of half.
        double approx[4] = {sqrt(fabs(fx)), exp(fromHalf(toHalf(fx * 0.125, 0))), log(fabs(fx)), 1.0 / fx};
        for (int k = 0; k < 4; k++) {
            double g = fromHalf(h[i * NOPS + 16 + k]), c = approx[k];
            if (std::isinf(c) || std::isnan(c) || fabs(c) > 65504) continue;
            if (fabs(g - c) > fabs(c) * 1.0e-3 + 6e-8) { printf("  fn %d: gpu %.9g host %.9g\n", k, g, c); bad++; }
        }
    }
    for (int i = 0; i < n / 2; i++) {
        printf("half2 %d:", i);
        for (int k = 0; k < 5; k++) printf(" %08x", h2[i * 5 + k]);
        printf("\n");
        for (int l = 0; l < 2; l++) {
            double fx = fromHalf(toHalf(a[2 * i + l], 0)), fy = fromHalf(toHalf(b[2 * i + l], 0));
            unsigned short want[3] = {toHalf(fx + fy, 0), toHalf(fx * fy, 0), toHalf(fx * fy + fy, 0)};
            for (int k = 0; k < 3; k++) if (((h2[i * 5 + k] >> (16 * l)) & 0xffff) != want[k]) bad++;
        }
    }
    printf("half2int (x7) rn/rz/rd/ru:");
    for (int i = 0; i < n; i++) printf(" [%d %d %d %d]", hi[i * 4], hi[i * 4 + 1], hi[i * 4 + 2], hi[i * 4 + 3]);
    printf("\n");

    const int m = 4096;
    __half *hx = (__half *)malloc(m * sizeof(__half)), *hy = (__half *)malloc(m * sizeof(__half));
    double ref = 0;
    for (int i = 0; i < m; i++) {
        unsigned short ux = toHalf((i % 64) * 0.25 - 8.0, 0), uy = toHalf(((i * 7) % 32) * 0.125, 0);
        memcpy(&hx[i], &ux, 2); memcpy(&hy[i], &uy, 2);
        ref += fromHalf(ux) * fromHalf(uy);
    }
    __half *dx, *dy; float *dr, hr;
    CHECK(cudaMalloc(&dx, m * 2)); CHECK(cudaMalloc(&dy, m * 2)); CHECK(cudaMalloc(&dr, 4));
    CHECK(cudaMemcpy(dx, hx, m * 2, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dy, hy, m * 2, cudaMemcpyHostToDevice));
    dotHalf<<<1, 256>>>(dx, dy, dr, m);
    CHECK(cudaMemcpy(&hr, dr, 4, cudaMemcpyDeviceToHost));
    printf("half dot product: %.9g (host %.9g)\n", hr, ref);
    if (hr != (float)ref) bad++;
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
