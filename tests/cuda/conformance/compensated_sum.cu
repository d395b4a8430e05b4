// Floating-point summation that depends on exact rounding: naive float sums, Kahan and
// Neumaier compensated sums (written with __fadd_rn/__fsub_rn so the compiler may not
// reassociate or fuse them), a two-product with fmaf giving the exact error of a product,
// double-float (float-float) accumulation, and a pairwise tree sum; all per thread over the
// same data, so the results are deterministic.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void sums(const float *x, int n, float *out)
{
    int t = threadIdx.x;   // each thread sums a strided subset with a different stride start
    float naive = 0, k = 0, kc = 0, ns = 0, nc = 0, hi = 0, lo = 0;
    for (int i = t; i < n; i += 8) {
        float v = x[i];
        naive += v;
        // Kahan
        float y = __fsub_rn(v, kc);
        float s = __fadd_rn(k, y);
        kc = __fsub_rn(__fsub_rn(s, k), y);
        k = s;
        // Neumaier
        float s2 = __fadd_rn(ns, v);
        if (fabsf(ns) >= fabsf(v)) nc = __fadd_rn(nc, __fadd_rn(__fsub_rn(ns, s2), v));
        else nc = __fadd_rn(nc, __fadd_rn(__fsub_rn(v, s2), ns));
        ns = s2;
        // float-float: two-sum of hi and v, then renormalise
        float a = __fadd_rn(hi, v);
        float bb = __fsub_rn(a, hi);
        float err = __fadd_rn(__fsub_rn(hi, __fsub_rn(a, bb)), __fsub_rn(v, bb));
        lo = __fadd_rn(lo, err);
        hi = __fadd_rn(a, lo);
        lo = __fsub_rn(lo, __fsub_rn(hi, a));
    }
    out[t * 6 + 0] = naive;
    out[t * 6 + 1] = k;
    out[t * 6 + 2] = __fadd_rn(ns, nc);
    out[t * 6 + 3] = hi;
    out[t * 6 + 4] = lo;
    // two-product: p + e == a * b exactly
    float a = x[t] * 1234.5678f, b = x[t + 1] - 0.1f;
    float p = __fmul_rn(a, b);
    out[t * 6 + 5] = fmaf(a, b, -p);
}

__global__ void pairwise(const float *x, int n, float *out)
{
    extern __shared__ float s[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = x[i];
    __syncthreads();
    for (int w = 1; w < n; w *= 2) {
        for (int i = threadIdx.x * 2 * w; i + w < n; i += blockDim.x * 2 * w) s[i] += s[i + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = s[0];
}

int main()
{
    const int n = 8000;
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (i % 3 == 0 ? 1.0e4f : 1.0f) / (float)(i + 1) + (i % 5 == 0 ? 1e-4f : 0.1f);
    float *d, *o, ho[8 * 6], hp;
    CK(cudaMalloc(&d, n * sizeof(float)));
    CK(cudaMalloc(&o, sizeof ho));
    CK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    sums<<<1, 8>>>(d, n, o);
    CK(cudaGetLastError());
    CK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 8; t++) {
        double ref = 0;
        for (int i = t; i < n; i += 8) ref += h[i];
        printf("subset %d: naive %.9g kahan %.9g neumaier %.9g ff %.9g + %.9g | double %.12g | two-product err %.9g\n",
               t, ho[t * 6], ho[t * 6 + 1], ho[t * 6 + 2], ho[t * 6 + 3], ho[t * 6 + 4], ref, ho[t * 6 + 5]);
    }
    float *dp;
    CK(cudaMalloc(&dp, 4));
    pairwise<<<1, 256, n * sizeof(float)>>>(d, n, dp);
    CK(cudaMemcpy(&hp, dp, 4, cudaMemcpyDeviceToHost));
    printf("pairwise tree sum %.9g\n", hp);
    return 0;
}
