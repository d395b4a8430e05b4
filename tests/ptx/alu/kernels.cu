// Small kernels for test_alu_kernels.c, which runs their PTX through vcuda and checks
// every result against the same computation done in C on the host.
//   nvcc -arch=sm_90 -O3 -ptx -o kernels.ptx kernels.cu
#include <cuda_fp16.h>

// Integer mixing: multiplies, high halves, rotates (shf), bit fields, byte permutes,
// division and remainder, population counts, min/max, shifts.
extern "C" __global__ void int_mix(const unsigned *in, unsigned *out, unsigned long long *out64,
                                   int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i], y = in[(i * 7 + 3) % n] | 1u;
    unsigned long long w = (unsigned long long)x * 0x9e3779b97f4a7c15ull + y;
    for (int k = 0; k < 4; k++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        x += __funnelshift_l(x, y, k * 7 + 3);
        x ^= __umulhi(x, 0x85ebca6bu) + __mulhi((int)x, -1640531535);
        x += __byte_perm(x, y, 0x3175) + __popc(x & y) + __clz(x | 1u) + __brev(y >> 3);
        x += (x / y) + (x % (y | 7u)) + (unsigned)((int)x / ((int)y | 3)) + (unsigned)((int)x % 11);
        x += (unsigned)min((int)x, (int)y) + max(x, y) + (unsigned)abs((int)(x - y));
        x += (x >> (y & 31)) + (unsigned)((int)x >> (k + 3)) + ((x >> 8) & 0xfffu);
        w ^= __umul64hi(w, 0xc2b2ae3d27d4eb4full) + ((unsigned long long)x << 32) + (w >> 29);
        w += (unsigned long long)((long long)w / (long long)(y | 1)) + __popcll(w) + __clzll(w | 1ull);
    }
    out[i] = x;
    out64[i] = w;
}

// Float arithmetic that rounds exactly the same everywhere (IEEE add, mul, fma, div, sqrt
// in round to nearest), double precision, and conversions.
extern "C" __global__ void float_mix(const float *in, float *out, double *outd, int *outi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i], y = in[(i * 5 + 1) % n];
    double d = (double)x * 1.000001;
    for (int k = 0; k < 6; k++) {
        float t = __fmaf_rn(x, y, 0.5f);
        x = __fadd_rn(__fmul_rn(t, 0.75f), __fdiv_rn(y, __fadd_rn(fabsf(t), 1.0f)));
        y = __fsqrt_rn(__fadd_rn(fabsf(x), 2.0f)) - fminf(x, y) + fmaxf(x, -y);
        d = __fma_rn(d, (double)y, __dsqrt_rn(fabs(d) + 1.0)) / (1.0 + fabs((double)x));
    }
    out[i] = x;
    outd[i] = d;
    outi[i] = __float2int_rn(x * 100.0f) + __float2int_rz(y * 10.0f) + (int)__double2ll_rd(d * 1e3)
            + (int)__float2uint_ru(fabsf(y));
}

// Warp collectives: a shuffle reduction, a ballot-based compaction index, groups of
// equal keys, and redux.
extern "C" __global__ void warp_mix(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;
    int s = v;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
    s = __shfl_sync(0xffffffff, s, 0);
    unsigned keep = __ballot_sync(0xffffffff, (v & 1) != 0);
    int idx = __popc(keep & ((1u << lane) - 1));
    unsigned same = __match_any_sync(0xffffffff, v & 7);
    int mx = __reduce_max_sync(0xffffffff, v);
    int scan = v;
    for (int o = 1; o < 32; o <<= 1) {
        int t = __shfl_up_sync(0xffffffff, scan, o);
        if (lane >= o) scan += t;
    }
    if (i < n) {
        out[4 * i] = s;
        out[4 * i + 1] = (v & 1) ? idx : -1;
        out[4 * i + 2] = (int)same + mx;
        out[4 * i + 3] = scan + __shfl_xor_sync(0xffffffff, v, 5);
    }
}

// Half precision: add, sub, mul per element (the host checks them with _Float16).
extern "C" __global__ void half_mix(const __half *a, const __half *b, __half *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[3 * i] = __hadd(a[i], b[i]);
    out[3 * i + 1] = __hsub(a[i], b[i]);
    out[3 * i + 2] = __hmul(a[i], b[i]);
}
