// 8-bit floating point (cuda_fp8.h, Hopper's e4m3 and e5m2): conversions from float,
// double, half and bfloat16 with and without saturation, packed pairs and quads, back
// to half and float, and a quantise-dequantise round trip with a per-tensor scale as FP8
// training and inference code does it. Printed as bit patterns and values.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>
#include <cuda_fp8.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

#define NV 16

__global__ void conv(const float *in, unsigned *out)
{
    int i = threadIdx.x;
    float f = in[i];
    unsigned *o = out + i * 12;
    o[0] = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3);
    o[1] = __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E4M3);
    o[2] = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E5M2);
    o[3] = __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E5M2);
    o[4] = __nv_cvt_double_to_fp8((double)f * 1.0000001, __NV_SATFINITE, __NV_E4M3);
    o[5] = __nv_cvt_halfraw_to_fp8(__half_raw(__float2half(f)), __NV_SATFINITE, __NV_E5M2);
    o[6] = __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw(__float2bfloat16(f)), __NV_SATFINITE, __NV_E4M3);
    o[7] = __nv_cvt_float2_to_fp8x2(make_float2(f, -f * 0.5f), __NV_SATFINITE, __NV_E4M3);
    __half_raw hr = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)o[0], __NV_E4M3);
    o[8] = hr.x;
    __half2_raw h2 = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)o[7], __NV_E4M3);
    o[9] = h2.x | (unsigned)h2.y << 16;
    __nv_fp8_e5m2 e(f);
    __nv_fp8x4_e4m3 q(make_float4(f, f * 2, f * 4, f * 8));
    o[10] = e.__x | (unsigned)__half_as_ushort(__half(e)) << 8;
    o[11] = q.__x;
}

__global__ void quantise(const float *x, int n, float scale, unsigned char *q, float *back)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_fp8_e4m3 v(x[i] * scale);
    q[i] = v.__x;
    back[i] = (float)v / scale;
}

int main()
{
    float h[NV] = {0.0f, -0.0f, 1.0f, 1.0625f, 1.1f, 448.0f, 464.0f, 500.0f, 57344.0f, 70000.0f,
                   1.0e-3f, 0.001953125f, 3.0e-5f, -17.3f, 1.0f / 0.0f, 0.0f / 0.0f};
    h[15] = __builtin_nanf("");
    float *d;
    unsigned *dout, out[NV * 12];
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    conv<<<1, NV>>>(d, dout);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NV; i++) {
        printf("%-12g", h[i]);
        for (int k = 0; k < 12; k++) printf(" %x", out[i * 12 + k]);
        printf("\n");
    }
    const int n = 2048;
    float *x = (float *)malloc(n * 4), *bk = (float *)malloc(n * 4);
    unsigned char *hq = (unsigned char *)malloc(n);
    float amax = 0;
    for (int i = 0; i < n; i++) {
        x[i] = (float)((i * 7919) % 2001 - 1000) * 1e-3f * (1.0f + (i % 17)) * 0.01f;
        amax = fabsf(x[i]) > amax ? fabsf(x[i]) : amax;
    }
    float scale = 448.0f / amax;
    float *dx, *db;
    unsigned char *dq;
    CK(cudaMalloc(&dx, n * 4)); CK(cudaMalloc(&db, n * 4)); CK(cudaMalloc(&dq, n));
    CK(cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice));
    quantise<<<n / 256, 256>>>(dx, n, scale, dq, db);
    CK(cudaMemcpy(hq, dq, n, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bk, db, n * 4, cudaMemcpyDeviceToHost));
    double err = 0;
    unsigned hist[256] = {};
    for (int i = 0; i < n; i++) { err += fabs(x[i] - bk[i]); hist[hq[i]]++; }
    int used = 0;
    for (int i = 0; i < 256; i++) used += hist[i] != 0;
    printf("quantised %d values (scale %.6g): mean abs error %.6e, %d distinct codes, q[1..4] %02x %02x %02x %02x\n",
           n, scale, err / n, used, hq[1], hq[2], hq[3], hq[4]);
    return 0;
}
