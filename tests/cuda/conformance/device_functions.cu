// __device__ functions: inlined helpers, __noinline__ functions with many arguments and
// struct returns, recursion (factorial, Fibonacci, Ackermann, recursive quicksort on a
// per-thread array), mutual recursion, and __forceinline__.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__host__ __device__ unsigned long long fact(unsigned n) { return n <= 1 ? 1ULL : n * fact(n - 1); }
__host__ __device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__host__ __device__ int ackermann(int m, int n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}
__host__ __device__ bool isOdd(unsigned n);
__host__ __device__ bool isEven(unsigned n) { return n == 0 ? true : isOdd(n - 1); }
__host__ __device__ bool isOdd(unsigned n) { return n == 0 ? false : isEven(n - 1); }

struct Stats { int min, max; long long sum; };

__host__ __device__ __noinline__ Stats stats8(int a, int b, int c, int d, int e, int f, int g, int h)
{
    int v[8] = {a, b, c, d, e, f, g, h};
    Stats s = {v[0], v[0], 0};
    for (int i = 0; i < 8; i++) {
        s.min = v[i] < s.min ? v[i] : s.min;
        s.max = v[i] > s.max ? v[i] : s.max;
        s.sum += v[i];
    }
    return s;
}

__host__ __device__ __noinline__ double horner(const double *coef, int n, double x)
{
    double r = 0;
    for (int i = n - 1; i >= 0; i--) r = r * x + coef[i];
    return r;
}

__host__ __device__ __forceinline__ int clampi(int x, int lo, int hi) { return x < lo ? lo : (x > hi ? hi : x); }

__host__ __device__ void quicksort(int *a, int lo, int hi)
{
    if (lo >= hi) return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) i++;
        while (a[j] > p) j--;
        if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
    }
    quicksort(a, lo, j);
    quicksort(a, i, hi);
}

__global__ void kernel(int *ires, unsigned long long *fres, double *dres, Stats *sres, int *sorted)
{
    int t = threadIdx.x;
    fres[t] = fact(t % 21);
    ires[t * 4 + 0] = fib(t % 20);
    ires[t * 4 + 1] = ackermann(t % 3, t % 4);
    ires[t * 4 + 2] = isEven(t * 7) ? 1 : 0;
    ires[t * 4 + 3] = clampi(t * 13 - 200, -50, 150);
    double c[5] = {1.0, -0.5, 0.25 * t, 1e-3, -2.0};
    dres[t] = horner(c, 5, 0.1 * t - 3.0);
    sres[t] = stats8(t, -t, t * t, 7, -3 * t, 100 - t, t ^ 5, t >> 1);
    int a[16];
    unsigned s = t * 2654435761u + 1;
    for (int i = 0; i < 16; i++) { s = s * 1103515245u + 12345u; a[i] = (int)(s >> 16) % 1000 - 500; }
    quicksort(a, 0, 15);
    for (int i = 0; i < 16; i++) sorted[t * 16 + i] = a[i];
}

int main()
{
    const int T = 64;
    int *di, *ds; unsigned long long *df; double *dd; Stats *dst;
    CHECK(cudaMalloc(&di, T * 4 * sizeof(int))); CHECK(cudaMalloc(&df, T * sizeof(unsigned long long)));
    CHECK(cudaMalloc(&dd, T * sizeof(double))); CHECK(cudaMalloc(&dst, T * sizeof(Stats)));
    CHECK(cudaMalloc(&ds, T * 16 * sizeof(int)));
    // Recursion needs stack: give each thread enough.
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
    kernel<<<1, T>>>(di, df, dd, dst, ds);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int hi[T * 4], hs[T * 16]; unsigned long long hf[T]; double hd[T]; Stats hst[T];
    CHECK(cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hst, dst, sizeof hst, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hs, ds, sizeof hs, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < T; t++) {
        if (hf[t] != fact(t % 21)) bad++;
        if (hi[t * 4] != fib(t % 20) || hi[t * 4 + 1] != ackermann(t % 3, t % 4)) bad++;
        if (hi[t * 4 + 2] != (isEven(t * 7) ? 1 : 0) || hi[t * 4 + 3] != clampi(t * 13 - 200, -50, 150)) bad++;
        double c[5] = {1.0, -0.5, 0.25 * t, 1e-3, -2.0};
        double hv = horner(c, 5, 0.1 * t - 3.0);
        // The device contracts r * x + c into one fma: compare with a relative tolerance.
        if (fabs(hd[t] - hv) > 1e-12 * fabs(hv)) bad++;
        Stats s = stats8(t, -t, t * t, 7, -3 * t, 100 - t, t ^ 5, t >> 1);
        if (hst[t].min != s.min || hst[t].max != s.max || hst[t].sum != s.sum) bad++;
        for (int i = 1; i < 16; i++) if (hs[t * 16 + i - 1] > hs[t * 16 + i]) bad++;
    }
    for (int t = 0; t < T; t += 9)
        printf("t=%2d fact=%llu fib=%d ack=%d even=%d clamp=%d horner=%.17g stats=(%d,%d,%lld) sorted[0,15]=(%d,%d)\n",
               t, hf[t], hi[t * 4], hi[t * 4 + 1], hi[t * 4 + 2], hi[t * 4 + 3], hd[t], hst[t].min, hst[t].max,
               hst[t].sum, hs[t * 16], hs[t * 16 + 15]);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
