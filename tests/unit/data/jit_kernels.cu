// Kernels for tests/unit/test_jit_tiers.c: each is run by the interpreter and by the
// compiled tier, and the two must agree byte for byte (memory, printf output, faults).
// PTX made with: nvcc -arch=sm_90 -ptx -O2 -lineinfo jit_kernels.cu -o jit_kernels.ptx
#include <cstdio>

// shared memory, barriers in a loop, a divergent if, a warp-synchronous volatile tail
extern "C" __global__ void jk_reduce(const int *in, int *out, unsigned n) {
    __shared__ int s[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    int v = i < n ? in[i] : 0;
    if (v & 1) v = v * 3 - 7;
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *vs = s;
        vs[tid] += vs[tid + 32];
        vs[tid] += vs[tid + 16];
        vs[tid] += vs[tid + 8];
        vs[tid] += vs[tid + 4];
        vs[tid] += vs[tid + 2];
        vs[tid] += vs[tid + 1];
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

// divergent loops of integer arithmetic: 32- and 64-bit, signed and unsigned, selects
extern "C" __global__ void jk_mix(const int *in, long long *out, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    long long acc = (long long)x * 0x12345;
    for (int k = 0; k < (x & 15); k++) {
        int y = (x >> (k & 7)) ^ (k * 0x9e37);
        unsigned u = (unsigned)y >> 3;
        acc += y < 0 ? (long long)y * k : (long long)u << (k & 31);
        acc ^= acc >> 17;
        x = max(x - 3, min(y, x + 11));
    }
    out[i] = acc + (x % 7) + (int)(i / 3u);
}

__device__ __noinline__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

// calls (recursive), printf from a divergent subset of lanes
extern "C" __global__ void jk_calls(int *out) {
    int t = threadIdx.x;
    out[blockIdx.x * blockDim.x + t] = fib(t % 12);
    if (t % 5 == 1) printf("block %d thread %d fib %d\n", blockIdx.x, t, fib(t % 9));
}

// warp collectives, atomics and float arithmetic
extern "C" __global__ void jk_warp(const float *a, float *b, int *count) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    float y = fmaf(x, 1.5f, -0.25f) / (1.0f + fabsf(x));
    for (int off = 16; off > 0; off >>= 1) y += __shfl_down_sync(0xffffffffu, y, off);
    if ((threadIdx.x & 31) == 0) {
        b[i / 32] = sqrtf(fabsf(y));
        atomicAdd(count, (int)(y > 0.0f));
    }
}

// a bad store by one thread of one block: the fault must read the same in both tiers
extern "C" __global__ void jk_fault(int *out, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned j = (blockIdx.x == 1 && threadIdx.x == 37) ? i + (1u << 26) : i;
    if (i < n) out[j] = (int)i;
}
