// The CUDA math library (libdevice, compiled into the kernel as ordinary PTX) on a spread
// of inputs. The functions are built from exactly rounded operations, so vcuda must
// reproduce the H100's results bit for bit (test_alu_math.c).
//   nvcc -arch=sm_90 -O3 -ptx -o math_cases.ptx math_cases.cu
//   nvcc -arch=sm_90 -O3 -o math_cases math_cases.cu && ./math_cases > math_cases.expected
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NF32 40
#define NF64 30

extern "C" __global__ void math_f32(const float *in, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i], y = in[(i * 7 + 1) % n];
    float r[NF32] = {
        sinf(x), cosf(x), tanf(x), expf(x), exp2f(x), exp10f(x), expm1f(x), logf(x),
        log2f(x), log10f(x), log1pf(x), powf(x, y), sqrtf(x), rsqrtf(x), cbrtf(x), erff(x),
        erfcf(x), erfinvf(x), lgammaf(x), tgammaf(x), atanf(x), atan2f(x, y), asinf(x),
        acosf(x), sinhf(x), coshf(x), tanhf(x), asinhf(x), acoshf(x), atanhf(x),
        hypotf(x, y), fmodf(x, y), remainderf(x, y), roundf(x), truncf(x), x / y,
        sinpif(x), normcdff(x), j0f(x), fmaf(x, y, 1.0f) };
    for (int k = 0; k < NF32; k++) out[i * NF32 + k] = __float_as_uint(r[k]);
}

extern "C" __global__ void math_f64(const double *in, unsigned long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = in[i], y = in[(i * 7 + 1) % n];
    double r[NF64] = {
        sin(x), cos(x), tan(x), exp(x), exp2(x), expm1(x), log(x), log2(x), log1p(x),
        pow(x, y), sqrt(x), rsqrt(x), cbrt(x), erf(x), erfc(x), lgamma(x), tgamma(x),
        atan(x), atan2(x, y), asin(x), sinh(x), tanh(x), asinh(x), hypot(x, y), fmod(x, y),
        remainder(x, y), x / y, sinpi(x), erfinv(x), fma(x, y, 1.0) };
    for (int k = 0; k < NF64; k++) out[i * NF64 + k] = __double_as_longlong(r[k]);
}

// The inputs: the same generator runs in test_alu_math.c.
static unsigned long long lcg(unsigned long long *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}
static void inputs(float *f, double *d, int n) {
    unsigned long long s = 7;
    for (int i = 0; i < n; i++) {
        double u = (double)lcg(&s) / 9007199254740992.0;   /* [0, 1) */
        int e = (int)(lcg(&s) % 24) - 12;
        double v = (u * 2.0 - 1.0) * (double)(1 << (e + 12)) / 4096.0;
        f[i] = (float)v;
        d[i] = v * (1.0 + u * 1e-9);
    }
    f[0] = 0.0f; f[1] = -0.0f; f[2] = 1.0f; f[3] = -1.0f; f[4] = 0.5f; f[5] = 1e-40f;
    d[0] = 0.0; d[1] = -0.0; d[2] = 1.0; d[3] = -1.0; d[4] = 0.5; d[5] = 1e-310;
}

int main(void) {
    const int n = 512;
    float *f = (float *)malloc(n * sizeof(float));
    double *d = (double *)malloc(n * sizeof(double));
    inputs(f, d, n);
    float *df; double *dd; unsigned *o32; unsigned long long *o64;
    cudaMalloc(&df, n * 4); cudaMalloc(&dd, n * 8);
    cudaMalloc(&o32, n * NF32 * 4); cudaMalloc(&o64, n * NF64 * 8);
    cudaMemcpy(df, f, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dd, d, n * 8, cudaMemcpyHostToDevice);
    math_f32<<<n / 128, 128>>>(df, o32, n);
    math_f64<<<n / 128, 128>>>(dd, o64, n);
    unsigned *r32 = (unsigned *)malloc(n * NF32 * 4);
    unsigned long long *r64 = (unsigned long long *)malloc(n * NF64 * 8);
    cudaMemcpy(r32, o32, n * NF32 * 4, cudaMemcpyDeviceToHost);
    if (cudaMemcpy(r64, o64, n * NF64 * 8, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    printf("# math_f32: %d inputs x %d functions, then math_f64: %d x %d\n", n, NF32, n, NF64);
    for (int i = 0; i < n * NF32; i++) printf("%x\n", r32[i]);
    for (int i = 0; i < n * NF64; i++) printf("%llx\n", r64[i]);
    return 0;
}
