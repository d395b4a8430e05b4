// Atomics on every type and scope, cuda::atomic_ref, 128-bit CAS/exchange.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>

struct __align__(16) pair128 { unsigned long long a, b; };

extern "C" __global__ void atomics_types(double *d, __half *h, __half2 *h2, __nv_bfloat16 *bf,
                                         __nv_bfloat162 *bf2, float *f, unsigned long long *u64,
                                         long long *s64, unsigned short *u16, int *i) {
    atomicAdd(d, 1.5);
    atomicAdd(h, __float2half(0.5f));
    atomicAdd(h2, __floats2half2_rn(1.f, 2.f));
    atomicAdd(bf, __float2bfloat16(0.25f));
    atomicAdd(bf2, __floats2bfloat162_rn(1.f, 2.f));
    atomicAdd_system(f, 1.0f);
    atomicAdd_block(f + 1, 2.0f);
    atomicMax(u64, (unsigned long long)threadIdx.x);
    atomicMin(s64, -(long long)threadIdx.x);
    atomicMax_block(i, (int)threadIdx.x);
    atomicMin_system(i + 1, -(int)threadIdx.x);
    atomicCAS(u16, (unsigned short)0, (unsigned short)threadIdx.x);
    atomicExch_block(i + 2, 5);
    atomicInc((unsigned *)i + 3, 17u);
    atomicDec((unsigned *)i + 4, 17u);
    atomicAnd_system(i + 5, 0x0f);
    atomicOr_block(i + 6, 1 << (threadIdx.x % 31));
    atomicXor(i + 7, threadIdx.x);
    atomicSub(i + 8, 3);
    atomicExch(f + 2, 3.0f);
}

extern "C" __global__ void atomic_ref(int *p, unsigned long long *q, float *f) {
    cuda::atomic_ref<int, cuda::thread_scope_device> r(*p);
    r.fetch_add(1, cuda::memory_order_relaxed);
    r.fetch_max((int)threadIdx.x);
    int e = 0;
    r.compare_exchange_strong(e, 7, cuda::memory_order_acq_rel);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> s(*q);
    s.fetch_or(1ull << threadIdx.x % 64, cuda::memory_order_release);
    (void)s.load(cuda::memory_order_acquire);
    cuda::atomic_ref<float, cuda::thread_scope_system> fr(*f);
    fr.fetch_add(0.5f);
    fr.store(fr.load() + 1.0f, cuda::memory_order_seq_cst);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_block);
}

#if __CUDA_ARCH__ >= 900
extern "C" __global__ void atomics128(pair128 *p, pair128 *out) {
    pair128 cmp = {0, 0}, val = {threadIdx.x, threadIdx.x * 2ull};
    out[threadIdx.x] = atomicCAS(p, cmp, val);
    out[threadIdx.x + 32] = atomicExch(p + 1, val);
}
#endif
