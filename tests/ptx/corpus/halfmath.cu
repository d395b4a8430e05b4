// half, half2, bf16, bf162 arithmetic and conversions.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void half_math(__half *h, __half2 *h2, __nv_bfloat16 *b, __nv_bfloat162 *b2,
                                     float *f) {
    int t = threadIdx.x;
    __half x = h[t], y = h[t + 32];
    h[t] = __hfma_relu(x, y, __hadd(x, y)) + __hmul(x, y) - __hdiv(x, y) + hsqrt(x) +
           hexp(y) + hlog(x) + __hmax_nan(x, y) + __habs(x) + __hneg(y) + hrcp(x) + hsin(x) +
           hcos(y) + hfloor(x) + hceil(y) + htrunc(x) + hrint(y);
    __half2 p = h2[t], q = h2[t + 32];
    h2[t] = __hfma2(p, q, __hadd2(p, q)) + __hmul2_sat(p, q) + h2exp(p) + h2sqrt(q) +
            __hmax2(p, q) + __hmin2_nan(p, q) + __habs2(p) + __hneg2(q) + __h2div(p, q) +
            __hfma2_relu(p, q, p) + h2rcp(q) + h2log(p) + h2sin(p) + h2cos(q);
    __nv_bfloat16 u = b[t];
#if __CUDA_ARCH__ >= 800
    __nv_bfloat16 v = b[t + 32];
    b[t] = __hfma_relu(u, v, __hadd(u, v)) + __hmul(u, v) - __hsub(u, v) + hsqrt(u) +
           hexp(v) + __hmax(u, v) + __hmin_nan(u, v) + __habs(u) + hrcp(v) + htrunc(u);
    __nv_bfloat162 r = b2[t], s = b2[t + 32];
    b2[t] = __hfma2(r, s, __hadd2(r, s)) + __hmul2(r, s) + __hmax2(r, s) + h2exp(r) +
            __hfma2_relu(r, s, r);
#endif
    f[t] = __half2float(x) + __bfloat162float(u) + __low2float(p) + __high2float(q) +
           __half2float(__float2half_rz(f[t])) + __bfloat162float(__float2bfloat16_rd(f[t])) +
           __half2int_rn(x) + __bfloat162int_rz(u) + __half2float(__int2half_rn(t)) +
           __half2float(__ushort2half_rd(t)) + __bfloat162float(__uint2bfloat16_rn(t)) +
           (__hlt(x, y) ? 1 : 0) + (__hbgt2(p, q) ? 2 : 0) + (__hisnan(x) ? 4 : 0) +
           (__hisinf(u) ? 8 : 0) + __half2float(__shfl_sync(0xffffffff, x, 1));
}
