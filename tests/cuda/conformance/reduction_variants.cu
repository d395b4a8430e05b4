// The classic sequence of parallel reductions (Harris, "Optimizing Parallel Reduction in
// CUDA"): interleaved addressing with a divergent modulo test, interleaved with strided
// index, sequential addressing, first add during load, the last warp unrolled with a
// volatile shared pointer (warp-synchronous, as the samples wrote it before Volta) and
// the same with __syncwarp, a completely unrolled templated version, and a shuffle-based
// version; all on integers so every result is exact.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__global__ void reduce0(const int *in, int *out)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    for (unsigned k = 1; k < blockDim.x; k *= 2) {
        if (t % (2 * k) == 0) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce1(const int *in, int *out)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    for (unsigned k = 1; k < blockDim.x; k *= 2) {
        unsigned idx = 2 * k * t;
        if (idx < blockDim.x) s[idx] += s[idx + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce2(const int *in, int *out)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce3(const int *in, int *out)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
    s[t] = in[i] + in[i + blockDim.x];
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__device__ void warpReduceVolatile(volatile int *s, unsigned t)
{
    s[t] += s[t + 32]; s[t] += s[t + 16]; s[t] += s[t + 8];
    s[t] += s[t + 4]; s[t] += s[t + 2]; s[t] += s[t + 1];
}

__global__ void reduce4(const int *in, int *out)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
    s[t] = in[i] + in[i + blockDim.x];
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 32; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32) warpReduceVolatile(s, t);
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce4sync(const int *in, int *out)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
    s[t] = in[i] + in[i + blockDim.x];
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 32; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32) {
        int v = s[t];
        for (int off = 32; off > 0; off >>= 1) {
            v += s[t + off];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

template <unsigned BS>
__global__ void reduce6(const int *in, int *out, unsigned n)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x, i = blockIdx.x * BS * 2 + t, grid = BS * 2 * gridDim.x;
    int sum = 0;
    while (i < n) { sum += in[i]; if (i + BS < n) sum += in[i + BS]; i += grid; }
    s[t] = sum;
    __syncthreads();
    if (BS >= 512) { if (t < 256) s[t] = sum = sum + s[t + 256]; __syncthreads(); }
    if (BS >= 256) { if (t < 128) s[t] = sum = sum + s[t + 128]; __syncthreads(); }
    if (BS >= 128) { if (t < 64) s[t] = sum = sum + s[t + 64]; __syncthreads(); }
    if (t < 32) {
        if (BS >= 64) sum += s[t + 32];
        for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
    }
    if (t == 0) out[blockIdx.x] = sum;
}

int main()
{
    const int n = 1 << 20, bs = 256;
    int *h = (int *)malloc(n * 4);
    long long ref = 0;
    for (int i = 0; i < n; i++) { h[i] = (int)((i * 2654435761u) >> 24) - 128; ref += h[i]; }
    int *din, *dout, *part = (int *)malloc(n / bs * 4);
    CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dout, n / bs * 4));
    CHECK(cudaMemcpy(din, h, n * 4, cudaMemcpyHostToDevice));
    int bad = 0;
    const char *names[] = {"reduce0 interleaved/divergent", "reduce1 interleaved/strided", "reduce2 sequential",
                           "reduce3 add during load", "reduce4 volatile warp unroll", "reduce4 with __syncwarp",
                           "reduce6<512> templated", "reduce6<128> templated", "reduce6<64> templated"};
    for (int v = 0; v < 9; v++) {
        int blocks;
        switch (v) {
        case 0: blocks = n / bs; reduce0<<<blocks, bs, bs * 4>>>(din, dout); break;
        case 1: blocks = n / bs; reduce1<<<blocks, bs, bs * 4>>>(din, dout); break;
        case 2: blocks = n / bs; reduce2<<<blocks, bs, bs * 4>>>(din, dout); break;
        case 3: blocks = n / bs / 2; reduce3<<<blocks, bs, bs * 4>>>(din, dout); break;
        case 4: blocks = n / bs / 2; reduce4<<<blocks, bs, bs * 4>>>(din, dout); break;
        case 5: blocks = n / bs / 2; reduce4sync<<<blocks, bs, bs * 4>>>(din, dout); break;
        case 6: blocks = 64; reduce6<512><<<blocks, 512, 512 * 4>>>(din, dout, n); break;
        case 7: blocks = 100; reduce6<128><<<blocks, 128, 128 * 4>>>(din, dout, n); break;
        default: blocks = 333; reduce6<64><<<blocks, 64, 64 * 4>>>(din, dout, n - 5); break;
        }
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(part, dout, blocks * 4, cudaMemcpyDeviceToHost));
        long long s = 0;
        for (int b = 0; b < blocks; b++) s += part[b];
        long long want = ref;
        if (v == 8) for (int i = n - 5; i < n; i++) want -= h[i];
        printf("%-32s blocks %5d: sum %lld partial[0] %d %s\n", names[v], blocks, s, part[0], s == want ? "ok" : "WRONG");
        if (s != want) bad++;
    }
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
