// Single-precision math library on the device (sinf, logf, powf, erff, tgammaf, ...),
// printed with %.9g (every float bit visible), with the correctly rounded intrinsics
// (__frcp_rn, __fsqrt_rn, __frsqrt_rn), __saturatef and denormal arithmetic. The same
// source is built twice, plainly and with -use_fast_math, which maps the library
// functions onto the hardware approximations (MUFU), flushes denormals to zero and uses
// approximate division and square root. Functions that use the hardware approximations
// even in a plain build (expf, rsqrtf, tanhf, the __sinf family) are in float_approx.cu.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

// name, device expression, host reference (double), tolerance class:
// 0 exact, 1 few ulps, 2 fast-intrinsic absolute/relative error.
#define FUNCS(X) \
    X(sinf, sinf(x), sin((double)x), 1) X(cosf, cosf(x), cos((double)x), 1) \
    X(tanf, tanf(x), tan((double)x), 1) X(logf, logf(fabsf(x)), log(fabs((double)x)), 1) \
    X(log2f, log2f(fabsf(x)), log2(fabs((double)x)), 1) \
    X(log10f, log10f(fabsf(x)), log10(fabs((double)x)), 1) \
    X(powf, powf(fabsf(x), y), pow(fabs((double)x), (double)y), 1) \
    X(sqrtf, sqrtf(fabsf(x)), sqrt(fabs((double)x)), 1) X(div, x / y, (double)x / y, 1) \
    X(rcp, 1.0f / x, 1.0 / x, 1) X(sinpif, sinpif(x), sin(M_PI * (double)x), 1) \
    X(erff, erff(x), erf((double)x), 1) X(tgammaf, tgammaf(x), tgamma((double)x), 1) \
    X(atan2f, atan2f(x, y), atan2((double)x, (double)y), 1) X(cbrtf, cbrtf(x), cbrt((double)x), 1) \
    X(fmaf, fmaf(x, y, 0.25f), fma((double)x, (double)y, 0.25), 1) \
    X(mul_add, x * y + 0.25f, (double)x * y + 0.25, 1) X(__frcp_rn, __frcp_rn(x), 1.0 / x, 1) \
    X(__fsqrt_rn, __fsqrt_rn(fabsf(x)), sqrt(fabs((double)x)), 1) \
    X(__frsqrt_rn, __frsqrt_rn(fabsf(x)), 1.0 / sqrt(fabs((double)x)), 1) \
    X(__saturatef, __saturatef(x), (x != x ? 0.0 : x < 0 ? 0.0 : x > 1 ? 1.0 : (double)x), 0) \
    X(denorm_mul, x * 1e-39f, (double)x * (double)1e-39f, 1) \
    X(denorm_add, (x * 1e-30f) * 1e-10f + 1e-39f, (double)x * 1e-40 + (double)1e-39f, 1)

enum {
#define E(name, dev, host, tol) F_##name,
FUNCS(E)
#undef E
F_COUNT };
static const char *names[] = {
#define N(name, dev, host, tol) #name,
FUNCS(N)
#undef N
};
static const int tols[] = {
#define T(name, dev, host, tol) tol,
FUNCS(T)
#undef T
};

__global__ void run(const float *xs, const float *ys, int n, float *out)
{
    int i = threadIdx.x, f = blockIdx.x;
    if (i >= n) return;
    float x = xs[i], y = ys[i], r = 0;
    switch (f) {
#define C(name, dev, host, tol) case F_##name: r = dev; break;
    FUNCS(C)
#undef C
    }
    out[f * n + i] = r;
}

// Whether the device code was compiled with -use_fast_math: it then flushes a denormal
// operand to zero.
__global__ void fastMathBuild(const float *denormal, int *flag)
{
    *flag = (*denormal * 1.0f == 0.0f);
}

static double host_ref(int f, float x, float y)
{
    switch (f) {
#define H(name, dev, host, tol) case F_##name: return host;
    FUNCS(H)
#undef H
    }
    return 0;
}

int main()
{
    const float xs[] = {0.5f, -1.25f, 3.0f, 10.0f, -0.001f, 1e-38f, 50.5f, -7.75f, 0.0f, 1.0f, 2.0e-3f, 100.25f};
    const float ys[] = {2.0f, 0.75f, -3.5f, 0.3f, 7.0f, -2.0f, 10.0f, 1.0f, -1.0f, 3.0f, 1e-5f, -0.7f};
    const int n = sizeof xs / sizeof xs[0];
    float *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, sizeof xs)); CHECK(cudaMalloc(&dy, sizeof ys));
    CHECK(cudaMalloc(&dout, F_COUNT * n * sizeof(float)));
    CHECK(cudaMemcpy(dx, xs, sizeof xs, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, ys, sizeof ys, cudaMemcpyHostToDevice));
    run<<<F_COUNT, 32>>>(dx, dy, n, dout);
    CHECK(cudaGetLastError());
    float *h = (float *)malloc(F_COUNT * n * sizeof(float));
    CHECK(cudaMemcpy(h, dout, F_COUNT * n * sizeof(float), cudaMemcpyDeviceToHost));
    int fast, *dfast;
    CHECK(cudaMalloc(&dfast, sizeof(int)));
    fastMathBuild<<<1, 1>>>(dx + 5, dfast);   // xs[5] is denormal
    CHECK(cudaMemcpy(&fast, dfast, sizeof(int), cudaMemcpyDeviceToHost));
    printf("built with -use_fast_math: %s\n", fast ? "yes" : "no");
    int bad = 0;
    for (int f = 0; f < F_COUNT; f++) {
        printf("%s:", names[f]);
        for (int i = 0; i < n; i++) {
            float g = h[f * n + i];
            double c = host_ref(f, xs[i], ys[i]);
            printf(" %.9g", g);
            if (std::isnan(g) && std::isnan(c)) continue;
            // Denormal inputs and results are flushed to zero under -use_fast_math.
            if (fast && (fabsf(xs[i]) < 1.17549435e-38f || (fabs(c) < 1.2e-38 && g == 0) || fabs(c) > 1e38 ||
                         f == F_denorm_mul || f == F_denorm_add)) continue;
            if (std::isinf(c) || fabs(c) > 3.4e38) { if (!std::isinf(g) && fabs(g) < 1e38f) { printf(" [host %.9g]", c); bad++; } continue; }
            // Denormal results may be flushed to zero (-use_fast_math); huge-argument
            // trigonometry and tgamma near poles are only loosely bounded.
            double err = fabs(g - c);
            double tol = tols[f] == 0 ? 0 : tols[f] == 1 ? 4e-7 * fabs(c) + 1.2e-38 : 2e-5 * fabs(c) + 2e-5;
            if (tols[f] == 2 && fabs(xs[i]) > 40) tol = 1e30;   // __sinf(100) etc.: outside the intrinsics' range
            if (f == F_tgammaf || f == F_powf) tol = 2e-6 * fabs(c) + 1.2e-38;
            if (f == F_sinpif) tol = 1e-7;
            if (fast && tols[f] == 1) tol = 1e-5 * fabs(c) + 1e-6;   // library calls become intrinsics
            if (fast && fabsf(xs[i]) > 40 && (f == F_sinf || f == F_cosf || f == F_tanf)) tol = 1e30;
            if (err > tol) { printf(" [host %.9g]", c); bad++; }
        }
        printf("\n");
    }
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
