// An LSD radix sort of 32-bit keys with values, 4 bits a pass, written as course material
// writes it: per-block digit histograms in shared memory, an exclusive scan of the
// histograms (digit-major) on one block, and a stable scatter where each block ranks its
// keys with a shared-memory scan of per-digit flags.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

#define BLOCK 256
#define RADIX 16

__global__ void histogram(const unsigned *keys, int n, int shift, unsigned *hist)
{
    __shared__ unsigned h[RADIX];
    if (threadIdx.x < RADIX) h[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) atomicAdd(&h[(keys[i] >> shift) & (RADIX - 1)], 1u);
    __syncthreads();
    if (threadIdx.x < RADIX) hist[threadIdx.x * gridDim.x + blockIdx.x] = h[threadIdx.x];
}

// exclusive scan of m values by one block of 1024 threads, in chunks
__global__ void scanHist(unsigned *a, int m)
{
    __shared__ unsigned s[1024];
    __shared__ unsigned carry;
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (int base = 0; base < m; base += 1024) {
        int i = base + threadIdx.x;
        unsigned v = i < m ? a[i] : 0;
        s[threadIdx.x] = v;
        __syncthreads();
        for (int off = 1; off < 1024; off <<= 1) {
            unsigned t = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
            __syncthreads();
            s[threadIdx.x] += t;
            __syncthreads();
        }
        if (i < m) a[i] = s[threadIdx.x] - v + carry;
        __syncthreads();
        if (threadIdx.x == 1023) carry += s[1023];
        __syncthreads();
    }
}

__global__ void scatter(const unsigned *kin, const unsigned *vin, unsigned *kout, unsigned *vout, int n,
                        int shift, const unsigned *offsets)
{
    __shared__ unsigned flags[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    unsigned key = i < n ? kin[i] : 0xffffffffu;
    unsigned d = (key >> shift) & (RADIX - 1);
    unsigned rank = 0;
    for (unsigned digit = 0; digit < RADIX; digit++) {
        flags[threadIdx.x] = (i < n && d == digit);
        __syncthreads();
        // inclusive Hillis-Steele scan of the flags
        for (int off = 1; off < BLOCK; off <<= 1) {
            unsigned t = threadIdx.x >= off ? flags[threadIdx.x - off] : 0;
            __syncthreads();
            flags[threadIdx.x] += t;
            __syncthreads();
        }
        if (i < n && d == digit) rank = flags[threadIdx.x] - 1;
        __syncthreads();
    }
    if (i < n) {
        unsigned pos = offsets[d * gridDim.x + blockIdx.x] + rank;
        kout[pos] = key;
        vout[pos] = vin[i];
    }
}

int main()
{
    const int n = 50000;
    const int blocks = (n + BLOCK - 1) / BLOCK;
    unsigned *hk = (unsigned *)malloc(n * 4), *hv = (unsigned *)malloc(n * 4);
    unsigned long long x = 88172645463325252ULL;
    for (int i = 0; i < n; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        hk[i] = (unsigned)(x >> 20) % (i % 5 == 0 ? 1000u : 0xffffffffu);
        hv[i] = i;
    }
    unsigned *k0, *k1, *v0, *v1, *hist;
    CK(cudaMalloc(&k0, n * 4)); CK(cudaMalloc(&k1, n * 4));
    CK(cudaMalloc(&v0, n * 4)); CK(cudaMalloc(&v1, n * 4));
    CK(cudaMalloc(&hist, RADIX * blocks * 4));
    CK(cudaMemcpy(k0, hk, n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(v0, hv, n * 4, cudaMemcpyHostToDevice));
    for (int shift = 0; shift < 32; shift += 4) {
        histogram<<<blocks, BLOCK>>>(k0, n, shift, hist);
        scanHist<<<1, 1024>>>(hist, RADIX * blocks);
        scatter<<<blocks, BLOCK>>>(k0, v0, k1, v1, n, shift, hist);
        CK(cudaGetLastError());
        std::swap(k0, k1);
        std::swap(v0, v1);
    }
    unsigned *rk = (unsigned *)malloc(n * 4), *rv = (unsigned *)malloc(n * 4);
    CK(cudaMemcpy(rk, k0, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(rv, v0, n * 4, cudaMemcpyDeviceToHost));
    // reference: a stable sort of (key, index)
    unsigned long long *ref = (unsigned long long *)malloc(n * 8);
    for (int i = 0; i < n; i++) ref[i] = ((unsigned long long)hk[i] << 32) | hv[i];
    std::sort(ref, ref + n);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += rk[i] != (unsigned)(ref[i] >> 32) || rv[i] != (unsigned)ref[i];
    printf("sorted %d keys, %d differ from a stable host sort\n", n, bad);
    for (int i = 0; i < n; i += n / 10) printf("  [%5d] key %10u value %5u\n", i, rk[i], rv[i]);
    printf("  last key %u value %u\n", rk[n - 1], rv[n - 1]);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
