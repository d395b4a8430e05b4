// Kernels for tests/unit/test_exec_atomics.c.
// PTX: nvcc -arch=sm_90 -ptx atomics.cu -o atomics.ptx
#include <cuda_fp16.h>

extern "C" __global__ void atomics(int *i32, unsigned *u32, unsigned long long *u64,
                                   long long *s64, float *f32, double *f64, int *order) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&i32[0], 1);
    atomicSub(&i32[1], 2);
    atomicMax(&i32[2], t);
    atomicMin(&i32[3], -t);
    atomicAnd(&i32[4], ~(1 << (t % 31)));
    atomicOr(&i32[5], 1 << (t % 31));
    atomicXor(&i32[6], t);
    atomicExch(&i32[7], 42);
    atomicInc(&u32[0], 9u);
    atomicDec(&u32[1], 5u);
    atomicMax(&u32[2], (unsigned)t * 3u);
    atomicMin(&u32[3], (unsigned)t + 7u);
    atomicAdd(&u64[0], 3ull);
    atomicCAS(&u64[1], (unsigned long long)t, (unsigned long long)t + 1);
    atomicMax(&u64[2], (unsigned long long)t << 33);
    atomicMin(&s64[0], -(long long)t << 33);
    atomicMax(&s64[1], (long long)t);
    atomicAdd(&f32[0], 0.5f);
    atomicAdd(&f64[0], 0.25);
    atomicAdd((__half2 *)&f32[1], __halves2half2(__float2half(1.0f), __float2half(0.5f)));
    // ticket: every thread gets a distinct slot
    int slot = atomicAdd(&i32[8], 1);
    order[slot] = t;
    // 32-bit CAS loop (a lock-free increment)
    int old = i32[9], assumed;
    do { assumed = old; old = atomicCAS(&i32[9], assumed, assumed + 2); } while (old != assumed);
}

extern "C" __global__ void shared_histogram(const int *in, int *hist, int n) {
    __shared__ int h[16];
    if (threadIdx.x < 16) h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(&h[in[i] & 15], 1);
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}
