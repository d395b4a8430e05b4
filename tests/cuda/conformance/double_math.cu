// Double-precision math library on the device, printed with %.17g so that every bit of the
// GPU's result is visible: sin cos tan exp exp2 exp10 expm1 log log2 log10 log1p pow sqrt
// rsqrt cbrt fma erf erfc erfinv tgamma lgamma atan2 asin acos atan sinh cosh tanh asinh
// hypot fmod remainder floor ceil trunc round rint ldexp frexp modf fmin fmax copysign
// nextafter, plus a division and a reciprocal. Each result is checked against the host's
// libm within the documented maximum ulp error.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define FUNCS(X) \
    X(sin, sin(x), 2) X(cos, cos(x), 2) X(tan, tan(x), 2) X(exp, exp(x), 1) X(exp2, exp2(x), 1) \
    X(exp10, exp10(x), 1) X(expm1, expm1(x), 1) X(log, log(fabs(x)), 1) X(log2, log2(fabs(x)), 1) \
    X(log10, log10(fabs(x)), 1) X(log1p, log1p(fabs(x)), 1) X(pow, pow(fabs(x), y), 2) \
    X(sqrt, sqrt(fabs(x)), 0) X(rsqrt, rsqrt_(fabs(x)), 1) X(cbrt, cbrt(x), 1) X(fma, fma(x, y, -1.5), 0) \
    X(erf, erf(x), 2) X(erfc, erfc(x), 5) X(erfinv, erfinv_(x / 64.0), 5) X(tgamma, tgamma(x), 10) \
    X(lgamma, lgamma(x), 4) X(atan2, atan2(x, y), 2) X(asin, asin(x / 64.0), 2) X(acos, acos(x / 64.0), 2) \
    X(atan, atan(x), 2) X(sinh, sinh(x), 2) X(cosh, cosh(x), 1) X(tanh, tanh(x), 1) X(asinh, asinh(x), 2) \
    X(hypot, hypot(x, y), 1) X(fmod, fmod(x, y), 0) X(remainder, remainder(x, y), 0) X(floor, floor(x), 0) \
    X(ceil, ceil(x), 0) X(trunc, trunc(x), 0) X(round, round(x), 0) X(rint, rint(x), 0) \
    X(ldexp, ldexp(x, (int)y), 0) X(frexp, frexp_(x), 0) X(modf, modf_(x), 0) X(fmin, fmin(x, y), 0) \
    X(fmax, fmax(x, y), 0) X(copysign, copysign(x, y), 0) X(nextafter, nextafter(x, y), 0) \
    X(div, x / y, 0) X(rcp, 1.0 / x, 0)

#ifdef __CUDA_ARCH__
#define rsqrt_(v) rsqrt(v)
#define erfinv_(v) erfinv(v)
#else
#define rsqrt_(v) (1.0 / sqrt(v))
static double erfinv_(double y) { // host reference: Newton iterations on erf
    if (y < -1 || y > 1) return NAN;
    if (y == -1) return -INFINITY;
    if (y == 1) return INFINITY;
    double x = 0;
    for (int i = 0; i < 100; i++) x -= (erf(x) - y) / (2.0 / sqrt(M_PI) * exp(-x * x));
    return x;
}
#endif
__host__ __device__ double frexp_(double v) { int e; double m = frexp(v, &e); return m + e * 1000.0; }
__host__ __device__ double modf_(double v) { double ip; double f = modf(v, &ip); return f + ip * 4096.0; }

enum { FUNCS_ENUM_DUMMY = -1,
#define E(name, expr, ulp) F_##name,
FUNCS(E)
#undef E
F_COUNT };
static const char *names[] = {
#define N(name, expr, ulp) #name,
FUNCS(N)
#undef N
};
static const int ulps[] = {
#define U(name, expr, ulp) ulp,
FUNCS(U)
#undef U
};

__host__ __device__ double evalf(int f, double x, double y)
{
    switch (f) {
#define C(name, expr, ulp) case F_##name: return expr;
    FUNCS(C)
#undef C
    }
    return 0;
}

__global__ void run(const double *xs, const double *ys, int n, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int f = blockIdx.y;
    if (i < n) out[f * n + i] = evalf(f, xs[i], ys[i]);
}

static int64_t ordered(double d) { int64_t i; memcpy(&i, &d, 8); return i < 0 ? INT64_MIN - i : i; }

int main()
{
    const double xs[] = {0.5, -1.25, 3.0, 10.0, -0.001, 1e-300, 123.456, -7.75, 0.0, 2.5e10, 1.0, 33.3};
    const double ys[] = {2.0, 0.75, -3.5, 0.3, 7.0, -2.0, 10.0, 1.0, -1.0, 3.0, 1e-5, -0.7};
    const int n = sizeof xs / sizeof xs[0];
    double *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, sizeof xs)); CHECK(cudaMalloc(&dy, sizeof ys));
    CHECK(cudaMalloc(&dout, F_COUNT * n * sizeof(double)));
    CHECK(cudaMemcpy(dx, xs, sizeof xs, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, ys, sizeof ys, cudaMemcpyHostToDevice));
    run<<<dim3(1, F_COUNT), 32>>>(dx, dy, n, dout);
    CHECK(cudaGetLastError());
    double *h = (double *)malloc(F_COUNT * n * sizeof(double));
    CHECK(cudaMemcpy(h, dout, F_COUNT * n * sizeof(double), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int f = 0; f < F_COUNT; f++) {
        printf("%s:", names[f]);
        for (int i = 0; i < n; i++) {
            double g = h[f * n + i], c = evalf(f, xs[i], ys[i]);
            printf(" %.17g", g);
            bool same = (std::isnan(g) && std::isnan(c)) || g == c;
            // Allowed error: the documented ulps plus one for the host's own error.
            int64_t d = ordered(g) - ordered(c);
            if (d < 0) d = -d;
            if (!same && !(std::isfinite(g) && std::isfinite(c) && d <= ulps[f] + 1)) {
                // tgamma/lgamma/erfc far in the tails and functions of huge arguments get a
                // relative tolerance instead.
                if (!(std::isfinite(g) && std::isfinite(c) && fabs(g - c) <= 1e-13 * fabs(c))) {
                    printf(" [host %.17g]", c);
                    bad++;
                }
            }
        }
        printf("\n");
    }
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
