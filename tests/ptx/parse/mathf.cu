// Single and double precision math, conversions, half precision, intrinsics.
#include <cuda_fp16.h>
__global__ void mathf(const float *x, const double *d, float *y, double *z, __half *h, int *iv, long long *lv)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = x[i];
    double b = d[i];
    y[i] = sinf(a) + cosf(a) + tanf(a) + expf(a) + exp2f(a) + logf(a) + log2f(a) + log10f(a) + sqrtf(a) +
           rsqrtf(a) + powf(a, 1.5f) + fmodf(a, 3.0f) + atan2f(a, 2.0f) + tanhf(a) + erff(a) + __sinf(a) +
           __expf(a) + __fdividef(a, 3.0f) + fabsf(a) + floorf(a) + ceilf(a) + roundf(a) + truncf(a) +
           fminf(a, 1.0f) + fmaxf(a, 2.0f) + copysignf(a, -1.0f) + __saturatef(a) + fmaf(a, a, 1.0f);
    z[i] = sin(b) + cos(b) + exp(b) + log(b) + sqrt(b) + pow(b, 2.5) + fabs(b) + floor(b) + 1.0 / b + rsqrt(b) +
           fma(b, b, 1.0) + (double)a + (double)i + cbrt(b) + hypot(b, 2.0);
    h[i] = __hadd(__float2half(a), __float2half(1.0f)) * __float2half(2.0f);
    iv[i] = (int)a + __float2int_rn(a) + (int)b + __double2int_rz(b) + __mul24(i, 3) + __umulhi(i, 7) + __sad(i, 3, 1);
    lv[i] = (long long)b + __double2ll_rn(b) + (long long)i * 123456789ll / (i + 1) + (unsigned long long)lv[i] % 7;
}
