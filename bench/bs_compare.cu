// bench/bs_compare.cu: a BlackScholes-shaped kernel (float comparisons in the cumulative
// normal distribution and a range check, expf/logf/sqrtf through the SFU's approximations)
// for the compiled tier's timing: run with VCUDA_JIT=always, VCUDA_JIT_VECTOR=0 or not.
// Prints a checksum so that the tiers can be compared.
#include <cstdio>
#include <cuda_runtime.h>

__device__ inline float cnd(float d) {
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
                A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
    float K = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * __expf(-0.5f * d * d) *
              (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    if (d > 0) c = 1.0f - c;
    return c;
}

__global__ void bs(float *call, float *put, const float *S, const float *X, const float *T,
                   float R, float V, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float s = S[i], x = X[i], t = T[i];
        float sq = sqrtf(t);
        float d1 = (__logf(s / x) + (R + 0.5f * V * V) * t) / (V * sq);
        float d2 = d1 - V * sq;
        float c1 = cnd(d1), c2 = cnd(d2);
        float e = __expf(-R * t);
        float c = s * c1 - x * e * c2;
        float p = x * e * (1.0f - c2) - s * (1.0f - c1);
        // clamp outside a band, with NaN kept out (unordered comparisons)
        if (!(c >= 0.0f)) c = 0.0f;
        if (p > s || p != p) p = s;
        call[i] = c;
        put[i] = p;
    }
}

// Comparisons without the SFU: each value classified against thresholds (ordered and
// unordered comparisons, NaN inputs among them), a clamp and a count of the bands it crosses.
__global__ void classify(int *cls, float *clamped, const float *S, const float *X, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float s = S[i], x = X[i];
        float r = s * 0.125f - x * 0.5f;
        if (i % 97 == 0) r = __int_as_float(0x7fc00000);
        int c = 0;
        c += r < -4.0f;
        c += r <= -2.0f;
        c += r > 1.0f;
        c += r >= 3.0f;
        c += !(r < 6.0f);
        c += !(r >= -6.0f);
        c += r == 0.5f;
        c += r != r;
        float m = fminf(fmaxf(r, -1.0f), 1.0f);
        if (!(m > -0.5f)) m = -0.5f * m;
        if (s > x && r < x) c += 16;
        cls[i] = c;
        clamped[i] = m;
    }
}

int main() {
    const int n = 1 << 20, iters = 20;
    float *h = new float[3 * n];
    for (int i = 0; i < n; i++) {
        h[i] = 5.0f + (float)((i * 7919u) % 2500) * 0.01f;
        h[n + i] = 1.0f + (float)((i * 104729u) % 9900) * 0.01f;
        h[2 * n + i] = 0.25f + (float)((i * 31u) % 950) * 0.01f;
    }
    float *d, *call, *put;
    cudaMalloc(&d, 3 * n * sizeof(float));
    cudaMalloc(&call, n * sizeof(float));
    cudaMalloc(&put, n * sizeof(float));
    cudaMemcpy(d, h, 3 * n * sizeof(float), cudaMemcpyHostToDevice);
    int *cls;
    cudaMalloc(&cls, n * sizeof(int));
    for (int k = 0; k < iters; k++) classify<<<480, 128>>>(cls, put, d, d + n, n);
    int *hc = new int[n];
    cudaMemcpy(hc, cls, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h, put, n * sizeof(float), cudaMemcpyDeviceToHost);
    long long tc = 0;
    double tm = 0;
    for (int i = 0; i < n; i++) tc += hc[i] * (long long)(i % 13 + 1), tm += h[i];
    printf("classes %lld clamped sum %.6f\n", tc, tm);
    cudaFree(cls);
    delete[] hc;
    for (int k = 0; k < iters; k++)
        bs<<<480, 128>>>(call, put, d, d + n, d + 2 * n, 0.02f, 0.30f, n);
    cudaMemcpy(h, call, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(h + n, put, n * sizeof(float), cudaMemcpyDeviceToHost);
    double sc = 0, sp = 0;
    for (int i = 0; i < n; i++) sc += h[i], sp += h[n + i];
    printf("call sum %.6f put sum %.6f\n", sc, sp);
    cudaFree(d); cudaFree(call); cudaFree(put);
    delete[] h;
    return 0;
}
