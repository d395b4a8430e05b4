// Local memory: per-thread arrays indexed with run-time values (they cannot live in
// registers), a large per-thread struct, a per-thread lookup table written then read in a
// data-dependent order, and a sieve in a local bit array.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

struct Big { double m[8][8]; int perm[8]; char name[24]; };

__host__ __device__ int permuteSum(int t, const int *idx, int n)
{
    int buf[64];
    for (int i = 0; i < 64; i++) buf[i] = (i * 37 + t) & 1023;
    int s = 0;
    for (int i = 0; i < n; i++) { int k = idx[i] & 63; buf[k] += i; s += buf[(k * 5 + t) & 63]; }
    return s;
}

__host__ __device__ double bigWork(int t)
{
    Big b;
    for (int i = 0; i < 8; i++) { b.perm[i] = (i * 3 + t) & 7; for (int j = 0; j < 8; j++) b.m[i][j] = (i + 1) * 0.5 + j * t; }
    for (int i = 0; i < 24; i++) b.name[i] = (char)('a' + (i + t) % 26);
    double d = 0;
    for (int i = 0; i < 8; i++) d += b.m[b.perm[i]][(b.perm[(i + t) & 7])] * (b.name[i + (t & 15)] - 'a');
    return d;
}

__host__ __device__ int sievePrimes(int limit)
{
    unsigned bits[32]; // 1024 bits
    for (int i = 0; i < 32; i++) bits[i] = 0;
    int count = 0;
    for (int i = 2; i < limit; i++) {
        if (bits[i >> 5] & (1u << (i & 31))) continue;
        count++;
        for (int j = i * i; j < limit; j += i) bits[j >> 5] |= 1u << (j & 31);
    }
    return count;
}

__global__ void kernel(const int *idx, int n, int *ps, double *bw, int *pr)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    ps[t] = permuteSum(t, idx + (t % 8), n);
    bw[t] = bigWork(t);
    pr[t] = sievePrimes(100 + t * 7);
}

int main()
{
    const int T = 128, n = 40;
    int hidx[n + 8];
    for (int i = 0; i < n + 8; i++) hidx[i] = (i * 7919) % 101;
    int *didx, *dps, *dpr; double *dbw;
    CHECK(cudaMalloc(&didx, sizeof hidx)); CHECK(cudaMalloc(&dps, T * sizeof(int)));
    CHECK(cudaMalloc(&dpr, T * sizeof(int))); CHECK(cudaMalloc(&dbw, T * sizeof(double)));
    CHECK(cudaMemcpy(didx, hidx, sizeof hidx, cudaMemcpyHostToDevice));
    kernel<<<2, T / 2>>>(didx, n, dps, dbw, dpr);
    CHECK(cudaGetLastError());
    int hps[T], hpr[T]; double hbw[T];
    CHECK(cudaMemcpy(hps, dps, sizeof hps, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hpr, dpr, sizeof hpr, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hbw, dbw, sizeof hbw, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < T; t++) {
        if (hps[t] != permuteSum(t, hidx + (t % 8), n)) bad++;
        if (hbw[t] != bigWork(t)) bad++;
        if (hpr[t] != sievePrimes(100 + t * 7)) bad++;
    }
    for (int t = 0; t < T; t += 17) printf("t=%3d permuteSum=%d bigWork=%.17g primes<%d=%d\n", t, hps[t], hbw[t], 100 + t * 7, hpr[t]);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
