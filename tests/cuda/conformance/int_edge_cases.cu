// Integer edge cases, operands read from memory so nothing is folded at compile time:
// signed and unsigned wrap-around in add/sub/mul, INT_MIN / -1 and INT_MIN % -1,
// division and remainder by zero (machine-specific values on the GPU: printed, not
// checked), negative division and modulo rounding toward zero, shifts by 0, 31, 32 and
// more (PTX clamps the shift amount), arithmetic vs logical right shift, 64-bit division,
// narrowing and widening conversions, and float-to-integer conversions of out-of-range
// values and NaN (saturating in PTX).
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cmath>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define NI 32
__global__ void intOps(const int *a, const int *b, const unsigned *s, int *out)
{
    int x = a[threadIdx.x], y = b[threadIdx.x];
    unsigned sh = s[threadIdx.x];
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    int *o = out + threadIdx.x * NI;
    o[0] = (int)(ux + uy); o[1] = (int)(ux - uy); o[2] = (int)(ux * uy);
    o[3] = y != 0 && !(x == INT_MIN && y == -1) ? x / y : 0;
    o[4] = y != 0 && !(x == INT_MIN && y == -1) ? x % y : 0;
    o[5] = uy != 0 ? (int)(ux / uy) : 0; o[6] = uy != 0 ? (int)(ux % uy) : 0;
    o[7] = x << (sh & 31); o[8] = x >> (sh & 31); o[9] = (int)(ux >> (sh & 31));
    o[10] = (int)(ux << sh);          // PTX shl clamps: a shift >= 32 gives 0
    o[11] = (int)(ux >> sh);
    o[12] = x >> sh;                  // shr.s32 by >= 32 fills with the sign
    o[13] = (signed char)x; o[14] = (unsigned char)x; o[15] = (short)x; o[16] = (unsigned short)x;
    long long lx = (long long)x * 100003LL, ly = (long long)y * 7LL - 3;
    o[17] = ly != 0 ? (int)(lx / ly) : 0; o[18] = ly != 0 ? (int)(lx % ly) : 0;
    o[19] = (int)(((unsigned long long)ux * 0x100000001ULL) >> 17);
    o[20] = abs(x); o[21] = min(x, y); o[22] = (int)max(ux, uy); o[23] = x * y;
    o[24] = __mul24(x, y); o[25] = (x + y) / 2; o[26] = -x; o[27] = ~x;
    // division by zero and INT_MIN / -1: whatever the hardware gives
    o[28] = x / y; o[29] = x % y; o[30] = (int)(ux / uy); o[31] = (int)(ux % uy);
}

__global__ void floatToInt(const float *f, const double *d, long long *out)
{
    float x = f[threadIdx.x];
    double y = d[threadIdx.x];
    long long *o = out + threadIdx.x * 8;
    o[0] = (int)x; o[1] = (unsigned)x; o[2] = (long long)x; o[3] = (long long)(unsigned long long)x;
    o[4] = (int)y; o[5] = (unsigned)y; o[6] = (long long)y; o[7] = (short)(int)x;
}

int main()
{
    const int n = 16;
    int ha[n] = {0, 1, -1, INT_MAX, INT_MIN, INT_MIN, 7, -7, 7, -7, 123456789, -987654321, 65536, 46341, 100, 5};
    int hb[n] = {0, 0, 0, 1, -1, 1, 2, 2, -2, -2, 1000, 3, 65536, 46341, 0, -1};
    unsigned hs[n] = {0, 31, 32, 33, 1, 31, 63, 100, 4, 5, 7, 16, 31, 32, 255, 1u << 31};
    int *da, *db, *dout; unsigned *ds;
    CHECK(cudaMalloc(&da, sizeof ha)); CHECK(cudaMalloc(&db, sizeof hb)); CHECK(cudaMalloc(&ds, sizeof hs));
    CHECK(cudaMalloc(&dout, n * NI * sizeof(int)));
    CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ds, hs, sizeof hs, cudaMemcpyHostToDevice));
    intOps<<<1, n>>>(da, db, ds, dout);
    CHECK(cudaGetLastError());
    int r[n * NI];
    CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < n; t++) {
        int x = ha[t], y = hb[t]; unsigned sh = hs[t], ux = x, uy = y;
        long long lx = (long long)x * 100003LL, ly = (long long)y * 7LL - 3;
        int want[28] = {(int)(ux + uy), (int)(ux - uy), (int)(ux * uy),
                        y != 0 && !(x == INT_MIN && y == -1) ? x / y : 0, y != 0 && !(x == INT_MIN && y == -1) ? x % y : 0,
                        uy ? (int)(ux / uy) : 0, uy ? (int)(ux % uy) : 0,
                        (int)(ux << (sh & 31)), x >> (sh & 31), (int)(ux >> (sh & 31)),
                        sh >= 32 ? 0 : (int)(ux << sh), sh >= 32 ? 0 : (int)(ux >> sh), sh >= 32 ? (x < 0 ? -1 : 0) : x >> sh,
                        (signed char)x, (unsigned char)x, (short)x, (unsigned short)x,
                        ly ? (int)(lx / ly) : 0, ly ? (int)(lx % ly) : 0, (int)(((unsigned long long)ux * 0x100000001ULL) >> 17),
                        x == INT_MIN ? INT_MIN : abs(x), x < y ? x : y, (int)(ux > uy ? ux : uy), (int)(ux * uy),
                        (int)((unsigned)((x << 8) >> 8) * (unsigned)((y << 8) >> 8)), (int)(((long long)x + y) % 0x100000000LL) / 2,
                        (int)(0u - ux), ~x};
        // (x + y) / 2 in 32-bit wraps like the device: recompute exactly that way
        want[25] = (int)(ux + uy) / 2;
        printf("x=%d y=%d s=%u:", x, y, sh);
        for (int k = 0; k < NI; k++) printf(" %d", r[t * NI + k]);
        printf("\n");
        for (int k = 0; k < 28; k++)
            if (r[t * NI + k] != want[k]) { printf("  result %d: gpu %d host %d\n", k, r[t * NI + k], want[k]); bad++; }
    }

    const int m = 14;
    float hf[m] = {0.5f, -0.5f, 2.9f, -2.9f, 3e9f, -3e9f, 5e18f, -5e18f, 1e20f, -1e20f, NAN, INFINITY, -INFINITY, 65537.7f};
    double hd[m] = {0.5, -0.5, 2.9, -2.9, 3e9, -3e9, 5e18, -5e18, 1e20, -1e20, NAN, INFINITY, -INFINITY, 4294967296.5};
    float *df; double *dd; long long *dl;
    CHECK(cudaMalloc(&df, sizeof hf)); CHECK(cudaMalloc(&dd, sizeof hd)); CHECK(cudaMalloc(&dl, m * 8 * sizeof(long long)));
    CHECK(cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice));
    floatToInt<<<1, m>>>(df, dd, dl);
    long long hl[m * 8];
    CHECK(cudaMemcpy(hl, dl, sizeof hl, cudaMemcpyDeviceToHost));
    for (int t = 0; t < m; t++) {
        printf("f=%g d=%g:", hf[t], hd[t]);
        for (int k = 0; k < 8; k++) printf(" %lld", hl[t * 8 + k]);
        printf("\n");
        // in-range values truncate toward zero
        if (fabsf(hf[t]) < 2e9f && hl[t * 8] != (int)hf[t]) bad++;
        if (fabs(hd[t]) < 2e9 && hl[t * 8 + 4] != (int)hd[t]) bad++;
        // out of range: saturate
        if (hf[t] >= 3e9f && hl[t * 8] != INT_MAX) bad++;
        if (hf[t] <= -3e9f && hl[t * 8] != INT_MIN) bad++;
        if (hf[t] < 0 && hl[t * 8 + 1] != 0) bad++;
        if (hf[t] != hf[t] && hl[t * 8] != 0) bad++;
    }
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
