// IEEE rounding-mode intrinsics and conversions: __fadd_r{n,z,u,d}, __fmul_*, __fdiv_*,
// __fmaf_*, __frcp_*, __fsqrt_*, their double versions, float<->int conversions with every
// rounding mode (__float2int_rn ... __ull2float_rd), double->float narrowing, and bit casts.
// Results are printed as hex bit patterns and checked against the host's FPU run under
// the same rounding mode (fesetround), with the saturation PTX defines for out-of-range
// conversions.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cmath>
#include <cfenv>
#include <climits>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

static const float fa[] = {1.0f, 0.1f, -1.0f, 16777216.0f, 3.0f, -2.5f, 1e30f, 0.33333334f, 1.5f, -7.0e-5f, 2.5f, 123456.789f};
static const float fb[] = {1e-8f, 0.2f, -3e-8f, 1.0f, 7.0f, 0.3f, 3e30f, 3.0f, -0.5f, 1.3e-3f, -1.0f, 0.001f};
static const double da[] = {1.0, 0.1, -1.0, 9007199254740992.0, 3.0, -2.5, 1e300, 1.0 / 3.0, 1.5, -7.0e-5, 2.5, 123456.789};
static const double db[] = {1e-17, 0.2, -3e-17, 1.0, 7.0, 0.3, 3e300, 3.0, -0.5, 1.3e-3, -1.0, 0.001};
#define NV 12

// float binary ops: 4 rounding modes each
#define FOPS 6  // add sub mul div fma(a,b,a) rcp(a) sqrt(|a|) -> 7 below
__global__ void floatOps(const float *a, const float *b, unsigned *out)
{
    int i = threadIdx.x;
    if (i >= NV) return;
    float x = a[i], y = b[i];
    float r[28] = {
        __fadd_rn(x, y), __fadd_rz(x, y), __fadd_ru(x, y), __fadd_rd(x, y),
        __fsub_rn(x, y), __fsub_rz(x, y), __fsub_ru(x, y), __fsub_rd(x, y),
        __fmul_rn(x, y), __fmul_rz(x, y), __fmul_ru(x, y), __fmul_rd(x, y),
        __fdiv_rn(x, y), __fdiv_rz(x, y), __fdiv_ru(x, y), __fdiv_rd(x, y),
        __fmaf_rn(x, y, x), __fmaf_rz(x, y, x), __fmaf_ru(x, y, x), __fmaf_rd(x, y, x),
        __frcp_rn(x), __frcp_rz(x), __frcp_ru(x), __frcp_rd(x),
        __fsqrt_rn(fabsf(x)), __fsqrt_rz(fabsf(x)), __fsqrt_ru(fabsf(x)), __fsqrt_rd(fabsf(x))};
    for (int k = 0; k < 28; k++) out[i * 28 + k] = __float_as_uint(r[k]);
}

__global__ void doubleOps(const double *a, const double *b, unsigned long long *out)
{
    int i = threadIdx.x;
    if (i >= NV) return;
    double x = a[i], y = b[i];
    double r[24] = {
        __dadd_rn(x, y), __dadd_rz(x, y), __dadd_ru(x, y), __dadd_rd(x, y),
        __dmul_rn(x, y), __dmul_rz(x, y), __dmul_ru(x, y), __dmul_rd(x, y),
        __ddiv_rn(x, y), __ddiv_rz(x, y), __ddiv_ru(x, y), __ddiv_rd(x, y),
        __fma_rn(x, y, x), __fma_rz(x, y, x), __fma_ru(x, y, x), __fma_rd(x, y, x),
        __drcp_rn(x), __drcp_rz(x), __drcp_ru(x), __drcp_rd(x),
        __dsqrt_rn(fabs(x)), __dsqrt_rz(fabs(x)), __dsqrt_ru(fabs(x)), __dsqrt_rd(fabs(x))};
    for (int k = 0; k < 24; k++) out[i * 24 + k] = __double_as_longlong(r[k]);
}

static const float cvtIn[] = {2.5f, -2.5f, 3.5f, -0.5f, 0.49999997f, 1.5e9f, 3.0e9f, -3.0e9f, 1e20f, -1e20f, 7.9f, -7.9f, 0.0f, NAN, INFINITY, 4.2949673e9f};
#define NC 16
__global__ void conversions(const float *in, long long *out)
{
    int i = threadIdx.x;
    if (i >= NC) return;
    float x = in[i];
    long long r[16] = {
        __float2int_rn(x), __float2int_rz(x), __float2int_ru(x), __float2int_rd(x),
        __float2uint_rn(x), __float2uint_rz(x), __float2uint_ru(x), __float2uint_rd(x),
        __float2ll_rn(x), __float2ll_rz(x), __float2ll_ru(x), __float2ll_rd(x),
        (long long)__float2ull_rn(x), (long long)__float2ull_rz(x), (long long)x, (long long)(int)x};
    for (int k = 0; k < 16; k++) out[i * 16 + k] = r[k];
}

static const long long intIn[] = {16777217LL, -16777219LL, 2147483647LL, 9007199254740993LL, -9007199254740995LL, 123456789123LL, 1LL, -33554435LL};
#define NI 8
__global__ void intToFloat(const long long *in, unsigned *fout, unsigned long long *dout)
{
    int i = threadIdx.x;
    if (i >= NI) return;
    long long v = in[i];
    int v32 = (int)v;
    float f[12] = {__int2float_rn(v32), __int2float_rz(v32), __int2float_ru(v32), __int2float_rd(v32),
                   __ll2float_rn(v), __ll2float_rz(v), __ll2float_ru(v), __ll2float_rd(v),
                   __uint2float_rn((unsigned)v32), __uint2float_rz((unsigned)v32), __uint2float_ru((unsigned)v32), __uint2float_rd((unsigned)v32)};
    for (int k = 0; k < 12; k++) fout[i * 12 + k] = __float_as_uint(f[k]);
    double d[4] = {__ll2double_rn(v), __ll2double_rz(v), __ll2double_ru(v), __ll2double_rd(v)};
    for (int k = 0; k < 4; k++) dout[i * 4 + k] = __double_as_longlong(d[k]);
}

__global__ void narrowing(const double *in, unsigned *out, int *hilo)
{
    int i = threadIdx.x;
    if (i >= NV) return;
    double x = in[i] / 3.0;
    float r[4] = {__double2float_rn(x), __double2float_rz(x), __double2float_ru(x), __double2float_rd(x)};
    for (int k = 0; k < 4; k++) out[i * 4 + k] = __float_as_uint(r[k]);
    hilo[i * 3 + 0] = __double2hiint(x);
    hilo[i * 3 + 1] = __double2loint(x);
    hilo[i * 3 + 2] = __hiloint2double(hilo[i * 3], hilo[i * 3 + 1]) == x;
}

static const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
static unsigned fbits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static unsigned long long dbits(double d) { unsigned long long u; memcpy(&u, &d, 8); return u; }

// float->integer conversion as PTX's cvt defines it: round, then saturate.
static long long cvtSat(float x, int mode, long long lo, long long hi)
{
    fesetround(modes[mode]);
    volatile double r = nearbyint((double)x);
    fesetround(FE_TONEAREST);
    if (r < (double)lo) return lo;
    if (r >= 9.2233720368547758e18 && hi == LLONG_MAX) return hi;
    if (r > (double)hi) return hi;
    return (long long)r;
}

int main()
{
    int bad = 0;
    float *dfa, *dfb, *dcv; double *dda, *ddb; unsigned *dfo; unsigned long long *ddo;
    CHECK(cudaMalloc(&dfa, sizeof fa)); CHECK(cudaMalloc(&dfb, sizeof fb));
    CHECK(cudaMalloc(&dda, sizeof da)); CHECK(cudaMalloc(&ddb, sizeof db));
    CHECK(cudaMalloc(&dfo, NV * 28 * 4)); CHECK(cudaMalloc(&ddo, NV * 24 * 8));
    CHECK(cudaMemcpy(dfa, fa, sizeof fa, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dfb, fb, sizeof fb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dda, da, sizeof da, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(ddb, db, sizeof db, cudaMemcpyHostToDevice));
    floatOps<<<1, 32>>>(dfa, dfb, dfo);
    doubleOps<<<1, 32>>>(dda, ddb, ddo);
    CHECK(cudaGetLastError());
    unsigned hfo[NV * 28]; unsigned long long hdo[NV * 24];
    CHECK(cudaMemcpy(hfo, dfo, sizeof hfo, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hdo, ddo, sizeof hdo, cudaMemcpyDeviceToHost));
    const char *fnames[7] = {"fadd", "fsub", "fmul", "fdiv", "fmaf", "frcp", "fsqrt"};
    for (int i = 0; i < NV; i++) {
        volatile float x = fa[i], y = fb[i];
        printf("f[%2d] %a %a:", i, (double)fa[i], (double)fb[i]);
        for (int op = 0; op < 7; op++) {
            printf(" %s", fnames[op]);
            for (int m = 0; m < 4; m++) {
                fesetround(modes[m]);
                volatile float r;
                switch (op) {
                case 0: r = x + y; break;
                case 1: r = x - y; break;
                case 2: r = x * y; break;
                case 3: r = x / y; break;
                case 4: r = fmaf(x, y, x); break;
                case 5: r = 1.0f / x; break;
                default: r = sqrtf(fabsf(x)); break;
                }
                fesetround(FE_TONEAREST);
                unsigned g = hfo[i * 28 + op * 4 + m];
                printf(" %08x", g);
                if (g != fbits(r)) { printf("[host %08x]", fbits(r)); bad++; }
            }
        }
        printf("\n");
    }
    const char *dnames[6] = {"dadd", "dmul", "ddiv", "fma", "drcp", "dsqrt"};
    for (int i = 0; i < NV; i++) {
        volatile double x = da[i], y = db[i];
        printf("d[%2d]:", i);
        for (int op = 0; op < 6; op++) {
            printf(" %s", dnames[op]);
            for (int m = 0; m < 4; m++) {
                fesetround(modes[m]);
                volatile double r;
                switch (op) {
                case 0: r = x + y; break;
                case 1: r = x * y; break;
                case 2: r = x / y; break;
                case 3: r = fma(x, y, x); break;
                case 4: r = 1.0 / x; break;
                default: r = sqrt(fabs(x)); break;
                }
                fesetround(FE_TONEAREST);
                unsigned long long g = hdo[i * 24 + op * 4 + m];
                printf(" %016llx", g);
                if (g != dbits(r)) { printf("[host %016llx]", dbits(r)); bad++; }
            }
        }
        printf("\n");
    }

    long long *dco, hco[NC * 16];
    CHECK(cudaMalloc(&dcv, sizeof cvtIn)); CHECK(cudaMalloc(&dco, sizeof hco));
    CHECK(cudaMemcpy(dcv, cvtIn, sizeof cvtIn, cudaMemcpyHostToDevice));
    conversions<<<1, 32>>>(dcv, dco);
    CHECK(cudaMemcpy(hco, dco, sizeof hco, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NC; i++) {
        printf("cvt %a:", (double)cvtIn[i]);
        for (int k = 0; k < 16; k++) printf(" %lld", hco[i * 16 + k]);
        printf("\n");
        // NaN: PTX gives 0 for 32-bit results; the 64-bit result is printed, not checked.
        for (int m = 0; m < 4; m++) {
            if (cvtIn[i] != cvtIn[i]) { if (hco[i * 16 + m] != 0 || hco[i * 16 + 4 + m] != 0) bad++; continue; }
            if (hco[i * 16 + m] != cvtSat(cvtIn[i], m, INT_MIN, INT_MAX)) bad++;
            if (hco[i * 16 + 4 + m] != cvtSat(cvtIn[i], m, 0, UINT_MAX)) bad++;
            if (hco[i * 16 + 8 + m] != cvtSat(cvtIn[i], m, LLONG_MIN, LLONG_MAX)) bad++;
        }
    }

    long long *dii; unsigned *dif, hif[NI * 12]; unsigned long long *did, hid[NI * 4];
    CHECK(cudaMalloc(&dii, sizeof intIn)); CHECK(cudaMalloc(&dif, sizeof hif)); CHECK(cudaMalloc(&did, sizeof hid));
    CHECK(cudaMemcpy(dii, intIn, sizeof intIn, cudaMemcpyHostToDevice));
    intToFloat<<<1, 32>>>(dii, dif, did);
    CHECK(cudaMemcpy(hif, dif, sizeof hif, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hid, did, sizeof hid, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NI; i++) {
        printf("int %lld:", intIn[i]);
        for (int k = 0; k < 12; k++) printf(" %08x", hif[i * 12 + k]);
        for (int k = 0; k < 4; k++) printf(" %016llx", hid[i * 4 + k]);
        printf("\n");
        for (int m = 0; m < 4; m++) {
            fesetround(modes[m]);
            volatile int v32 = (int)intIn[i]; volatile long long v = intIn[i]; volatile unsigned u32 = (unsigned)v32;
            volatile float a = (float)v32, b = (float)v, c = (float)u32; volatile double d = (double)v;
            fesetround(FE_TONEAREST);
            if (hif[i * 12 + m] != fbits(a) || hif[i * 12 + 4 + m] != fbits(b) || hif[i * 12 + 8 + m] != fbits(c)) bad++;
            if (hid[i * 4 + m] != dbits(d)) bad++;
        }
    }

    unsigned *dno, hno[NV * 4]; int *dhl, hhl[NV * 3];
    CHECK(cudaMalloc(&dno, sizeof hno)); CHECK(cudaMalloc(&dhl, sizeof hhl));
    narrowing<<<1, 32>>>(dda, dno, dhl);
    CHECK(cudaMemcpy(hno, dno, sizeof hno, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hhl, dhl, sizeof hhl, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NV; i++) {
        volatile double x = da[i] / 3.0;
        printf("narrow %a:", (double)x);
        for (int m = 0; m < 4; m++) {
            fesetround(modes[m]);
            volatile float r = (float)x;
            fesetround(FE_TONEAREST);
            printf(" %08x", hno[i * 4 + m]);
            if (hno[i * 4 + m] != fbits(r)) { printf("[host %08x]", fbits(r)); bad++; }
        }
        unsigned long long b = dbits(x);
        printf(" hi=%08x lo=%08x same=%d\n", (unsigned)hhl[i * 3], (unsigned)hhl[i * 3 + 1], hhl[i * 3 + 2]);
        if ((unsigned)hhl[i * 3] != (unsigned)(b >> 32) || (unsigned)hhl[i * 3 + 1] != (unsigned)b || hhl[i * 3 + 2] != 1) bad++;
    }
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
