// Single-precision functions whose results come from the hardware's approximations (the
// MUFU unit: ex2, lg2, sin, cos, rsqrt, rcp, tanh .approx) even without -use_fast_math:
// expf, exp2f, exp10f, rsqrtf and tanhf, and the fast intrinsics __sinf, __cosf, __tanf,
// __expf, __exp10f, __logf, __log2f, __log10f, __powf, __fdividef. Printed with %.9g
// (every float bit visible); checked against the host within the documented error.
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
    X(expf, expf(x), exp((double)x), 1) X(exp2f, exp2f(x), exp2((double)x), 1) \
    X(exp10f, exp10f(x), pow(10.0, (double)x), 1) \
    X(rsqrtf, rsqrtf(fabsf(x)), 1.0 / sqrt(fabs((double)x)), 1) \
    X(tanhf, tanhf(x), tanh((double)x), 1) X(__sinf, __sinf(x), sin((double)x), 2) \
    X(__cosf, __cosf(x), cos((double)x), 2) X(__tanf, __tanf(x), tan((double)x), 2) \
    X(__expf, __expf(x), exp((double)x), 2) X(__exp10f, __exp10f(x), pow(10.0, (double)x), 2) \
    X(__logf, __logf(fabsf(x)), log(fabs((double)x)), 2) \
    X(__log2f, __log2f(fabsf(x)), log2(fabs((double)x)), 2) \
    X(__log10f, __log10f(fabsf(x)), log10(fabs((double)x)), 2) \
    X(__powf, __powf(fabsf(x), y), pow(fabs((double)x), (double)y), 2) \
    X(__fdividef, __fdividef(x, y), (double)x / y, 2)

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
            if (fast && (fabsf(xs[i]) < 1.17549435e-38f || (fabs(c) < 1.2e-38 && g == 0) || fabs(c) > 1e38)) continue;
            if (std::isinf(c) || fabs(c) > 3.4e38) { if (!std::isinf(g) && fabs(g) < 1e38f) { printf(" [host %.9g]", c); bad++; } continue; }
            // Denormal results may be flushed to zero (-use_fast_math); huge-argument
            // trigonometry and tgamma near poles are only loosely bounded.
            double err = fabs(g - c);
            double tol = tols[f] == 0 ? 0 : tols[f] == 1 ? 4e-7 * fabs(c) + 1.2e-38 : 2e-5 * fabs(c) + 2e-5;
            if (tols[f] == 2 && fabs(xs[i]) > 40) tol = 1e30;   // __sinf(100) etc.: outside the intrinsics' range
            if (f == F_exp10f) tol = 2e-6 * fabs(c) + 1.2e-38;
            if (fast && tols[f] == 1) tol = 1e-5 * fabs(c) + 1e-6;   // library calls become intrinsics
            if (err > tol) { printf(" [host %.9g]", c); bad++; }
        }
        printf("\n");
    }
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
