// 128-bit integers in device code (__int128, supported by nvcc since CUDA 11.5): products
// of 64-bit values, division and remainder, shifts across the halves, signed comparisons,
// factorials and Fibonacci numbers past 2^64, a 128-bit multiplicative hash, and
// __umul64hi / __mul64hi against the 128-bit product.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

typedef unsigned __int128 u128;
typedef __int128 s128;

struct Pair { unsigned long long hi, lo; };

__device__ Pair split(u128 v) { return {(unsigned long long)(v >> 64), (unsigned long long)v}; }

__global__ void ops(const unsigned long long *a, const long long *sa, Pair *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long x = a[i], y = a[(i + 3) % n];
    u128 p = (u128)x * y;
    Pair *o = out + i * 10;
    o[0] = split(p);
    o[1] = split(p / (y | 1) + p % 1000000007ULL);
    o[2] = split((p << (i % 70)) ^ (p >> (i % 90)));
    s128 sp = (s128)sa[i] * sa[(i + 1) % n];
    o[3] = split((u128)sp);
    o[4] = split((u128)(sp / 7));
    o[5] = split((u128)(sp % 1000003));
    o[6] = split((u128)(sp >> 3));
    o[7] = {(unsigned long long)(sp < 0) | (unsigned long long)(p > (u128)sp) << 1, __umul64hi(x, y)};
    o[8] = {(unsigned long long)__mul64hi(sa[i], sa[(i + 1) % n]), (unsigned long long)(sp >> 64)};
    u128 h = 0x9e3779b97f4a7c15ULL;
    for (int k = 0; k < 10; k++) h = h * ((u128)0x2545F4914F6CDD1DULL << 32 | 0x1234567ULL) + x + k;
    o[9] = split(h);
}

__global__ void seq(Pair *fact, Pair *fib)
{
    int i = threadIdx.x;   // 0..33
    u128 f = 1;
    for (int k = 2; k <= i; k++) f *= k;
    fact[i] = split(f);
    u128 a = 0, b = 1;
    for (int k = 0; k < 100 + i; k++) { u128 t = a + b; a = b; b = t; }
    fib[i] = split(a);
}

static void print128(const char *tag, Pair p)
{
    // decimal through repeated division on the host
    unsigned __int128 v = ((unsigned __int128)p.hi << 64) | p.lo;
    char buf[48];
    int k = 47;
    buf[k] = 0;
    do { buf[--k] = '0' + (int)(v % 10); v /= 10; } while (v);
    printf("%s%s", tag, buf + k);
}

int main()
{
    const int n = 8;
    unsigned long long ha[n] = {0xffffffffffffffffULL, 12345678901234567ULL, 3, 0x8000000000000000ULL,
                                0xdeadbeefcafebabeULL, 1, 0x0123456789abcdefULL, 999999999999ULL};
    long long hs[n] = {-1, 9223372036854775807LL, -9223372036854775807LL - 1, 123456789, -987654321987LL, 0, 42,
                       -3};
    unsigned long long *da;
    long long *ds;
    Pair *dout, out[n * 10];
    CK(cudaMalloc(&da, sizeof ha)); CK(cudaMalloc(&ds, sizeof hs)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ds, hs, sizeof hs, cudaMemcpyHostToDevice));
    ops<<<1, 32>>>(da, ds, dout, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        printf("row %d:", i);
        for (int k = 0; k < 10; k++) printf(" %016llx%016llx", out[i * 10 + k].hi, out[i * 10 + k].lo);
        printf("\n");
    }
    Pair *df, *dfib, hf[34], hfib[34];
    CK(cudaMalloc(&df, sizeof hf)); CK(cudaMalloc(&dfib, sizeof hfib));
    seq<<<1, 34>>>(df, dfib);
    CK(cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hfib, dfib, sizeof hfib, cudaMemcpyDeviceToHost));
    for (int i = 20; i < 34; i += 3) {
        print128("fact ", hf[i]);
        print128("  fib ", hfib[i]);
        printf("\n");
    }
    return 0;
}
