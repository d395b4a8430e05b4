// bfloat16 (cuda_bf16.h) as mixed-precision code uses it: conversions from float in every
// rounding mode and from integers, arithmetic on __nv_bfloat16 and __nv_bfloat162, fma,
// comparisons, min/max with NaN, the math functions, and a bf16 dot product accumulated in
// float. Results are printed as bit patterns.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_bf16.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

#define NV 12
#define NOUT 40

__device__ unsigned short B(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }

__global__ void conv(const float *in, unsigned short *out)
{
    int i = threadIdx.x;
    float f = in[i];
    unsigned short *o = out + i * 8;
    o[0] = B(__float2bfloat16(f));
    o[1] = B(__float2bfloat16_rn(f));
    o[2] = B(__float2bfloat16_rz(f));
    o[3] = B(__float2bfloat16_rd(f));
    o[4] = B(__float2bfloat16_ru(f));
    o[5] = B(__int2bfloat16_rn((int)(f * 1000.0f)));
    o[6] = (unsigned short)__bfloat162int_rz(__float2bfloat16(f));
    o[7] = (unsigned short)__bfloat162short_rn(__float2bfloat16(f * 3.0f));
}

__global__ void arith(const float *in, unsigned short *out)
{
    int i = threadIdx.x;
    __nv_bfloat16 a = __float2bfloat16(in[i]), b = __float2bfloat16(in[(i + 5) % NV]);
    unsigned short *o = out + i * NOUT;
    int k = 0;
    o[k++] = B(__hadd(a, b));
    o[k++] = B(__hsub(a, b));
    o[k++] = B(__hmul(a, b));
    o[k++] = B(__hdiv(a, b));
    o[k++] = B(__hfma(a, b, __float2bfloat16(0.3f)));
    o[k++] = B(__hneg(a));
    o[k++] = B(__habs(a));
    o[k++] = B(a + b);
    o[k++] = B(a * b - b);
    o[k++] = B(__hadd_sat(a, b));
    o[k++] = B(__hfma_sat(a, b, b));
    o[k++] = B(__hmax(a, b));
    o[k++] = B(__hmin(a, b));
    o[k++] = B(__hmax_nan(a, __float2bfloat16(__int_as_float(0x7fc00000))));
    o[k++] = (unsigned short)(__hlt(a, b) | __hge(a, b) << 1 | __heq(a, b) << 2 | __hisnan(a) << 3 | __hisinf(a) << 4);
    o[k++] = B(hsqrt(__habs(a)));
    o[k++] = B(hrsqrt(__habs(a)));
    o[k++] = B(hrcp(a));
    o[k++] = B(hexp(__float2bfloat16(in[i] / 64.0f)));
    o[k++] = B(hexp2(__float2bfloat16(in[i] / 64.0f)));
    o[k++] = B(hlog(__habs(a)));
    o[k++] = B(hlog2(__habs(a)));
    o[k++] = B(hsin(__float2bfloat16(in[i] / 64.0f)));
    o[k++] = B(hcos(__float2bfloat16(in[i] / 64.0f)));
    o[k++] = B(hfloor(a));
    o[k++] = B(hceil(a));
    o[k++] = B(htrunc(a));
    o[k++] = B(hrint(a));
    __nv_bfloat162 p = __halves2bfloat162(a, b), q = __floats2bfloat162_rn(in[i] * 0.5f, -1.25f);
    __nv_bfloat162 r = __hfma2(p, q, __bfloat162bfloat162(__float2bfloat16(2.0f)));
    o[k++] = B(__low2bfloat16(r));
    o[k++] = B(__high2bfloat16(r));
    r = __hmul2(p, q);
    o[k++] = B(r.x);
    o[k++] = B(r.y);
    r = __h2div(p, q);
    o[k++] = B(r.x);
    o[k++] = B(r.y);
    float2 f2 = __bfloat1622float2(__hmax2(p, q));
    o[k++] = B(__float2bfloat16(f2.x + f2.y));
    o[k++] = (unsigned short)__hbgt2(p, q);
    o[k++] = B(__shfl_xor_sync(0xffffffffu, a, 1));
    float acc = 0;
    for (int j = 0; j < NV; j++) acc = fmaf(__bfloat162float(a), __bfloat162float(__float2bfloat16(in[j])), acc);
    o[k++] = B(__float2bfloat16(acc));
    o[k++] = (unsigned short)k;
    while (k < NOUT) o[k++] = 0;
}

int main()
{
    float h[NV] = {1.0f, -2.5f, 3.14159265f, 1.00390625f, 1.01171875f, 65504.0f, 3.0e38f,
                   1.0e-39f, -0.0f, 100.7f, -7.996f, 0.333333343f};
    float *d;
    unsigned short *dout, out[NV * NOUT];
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    conv<<<1, NV>>>(d, dout);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out, dout, NV * 8 * 2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NV; i++) {
        printf("conv %-14.9g", h[i]);
        for (int k = 0; k < 8; k++) printf(" %04x", out[i * 8 + k]);
        printf("\n");
    }
    arith<<<1, NV>>>(d, dout);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NV; i++) {
        printf("arith %2d:", i);
        for (int k = 0; k < NOUT; k++) printf(" %04x", out[i * NOUT + k]);
        printf("\n");
    }
    CK(cudaFree(d));
    CK(cudaFree(dout));
    return 0;
}
