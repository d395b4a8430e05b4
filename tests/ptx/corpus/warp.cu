// Warp-level intrinsics: masks, matches, reductions, shuffles of every width.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void warp_misc(unsigned *out, const unsigned *in) {
    unsigned t = threadIdx.x, v = in[t];
    unsigned am = __activemask();
    unsigned f = __fns(v | 1u, t % 32, 1);
    unsigned f2 = __fns(0xf0f0f0f0u, 31, -3);
    int pred;
    unsigned ma = __match_all_sync(am, v & 3, &pred);
    unsigned many = __match_any_sync(am, v & 7);
    unsigned long long mal = __match_any_sync(am, (unsigned long long)v << 33);
#if __CUDA_ARCH__ >= 800
    unsigned ra = __reduce_add_sync(am, v);
    unsigned rmn = __reduce_min_sync(am, v);
    unsigned rmx = __reduce_max_sync(am, v);
    int rsm = __reduce_min_sync(am, (int)v - 100);
    unsigned rand_ = __reduce_and_sync(am, v);
    unsigned ror = __reduce_or_sync(am, v);
    unsigned rx = __reduce_xor_sync(am, v);
#else
    unsigned ra = v, rmn = v, rmx = v, rand_ = v, ror = v, rx = v;
    int rsm = v;
#endif
    unsigned b = __ballot_sync(am, v & 1);
    int all = __all_sync(am, v > 3), any = __any_sync(am, v > 100), uni = __uni_sync(am, v > 3);
    __nanosleep(100);
    out[t] = am ^ f ^ f2 ^ ma ^ pred ^ many ^ (unsigned)mal ^ ra ^ rmn ^ rmx ^ rsm ^ rand_ ^ ror ^ rx ^ b ^ all ^ any ^ uni;
}

extern "C" __global__ void shuffles(double *d, long long *ll, __half *h, __half2 *h2,
                                    __nv_bfloat16 *bf, float2 *f2, unsigned long long *ull) {
    int t = threadIdx.x;
    d[t] = __shfl_sync(0xffffffff, d[t], (t + 3) % 32) + __shfl_down_sync(0xffffffff, d[t], 1);
    ll[t] = __shfl_xor_sync(0xffffffff, ll[t], 5) + __shfl_up_sync(0xffffffff, ll[t], 2, 16);
    h[t] = __shfl_down_sync(0xffffffff, h[t], 4);
    h2[t] = __shfl_xor_sync(0xffffffff, h2[t], 1);
    bf[t] = __shfl_sync(0xffffffff, bf[t], 0);
    float2 v = f2[t];
    v.x = __shfl_down_sync(0xffffffff, v.x, 1);
    v.y = __shfl_down_sync(0xffffffff, v.y, 1);
    f2[t] = v;
    ull[t] = __shfl_sync(0xffffffff, ull[t], 31 - t);
}
