// Templates in device code: kernels templated on element type and on block size (the
// CUDA-samples reduction), functor objects as template parameters, template recursion
// computed at compile time, and explicit specialisation.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

template <typename T> struct Sum { __device__ T operator()(T a, T b) const { return a + b; } static __device__ T identity() { return T(0); } };
template <typename T> struct Max { __device__ T operator()(T a, T b) const { return a > b ? a : b; } static __device__ T identity(); };
template <> __device__ int Max<int>::identity() { return -2147483647 - 1; }
template <> __device__ double Max<double>::identity() { return -1.0e308; }

// Block reduction templated on block size: the loop unrolls completely.
template <typename T, unsigned BLOCK, typename Op>
__global__ void reduceKernel(const T *in, T *out, unsigned n)
{
    __shared__ T s[BLOCK];
    Op op;
    unsigned tid = threadIdx.x;
    T acc = Op::identity();
    for (unsigned i = blockIdx.x * BLOCK * 2 + tid; i < n; i += BLOCK * 2 * gridDim.x) {
        acc = op(acc, in[i]);
        if (i + BLOCK < n) acc = op(acc, in[i + BLOCK]);
    }
    s[tid] = acc;
    __syncthreads();
#pragma unroll
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] = op(s[tid], s[tid + stride]);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

// Compile-time recursion.
template <unsigned N> struct Fact { static const unsigned long long value = N * Fact<N - 1>::value; };
template <> struct Fact<0> { static const unsigned long long value = 1; };
template <int K> __device__ int powK(int x) { return x * powK<K - 1>(x); }
template <> __device__ int powK<0>(int) { return 1; }

__global__ void compileTime(unsigned long long *f, int *p)
{
    f[0] = Fact<10>::value; f[1] = Fact<20>::value;
    p[threadIdx.x] = powK<3>(threadIdx.x) + powK<5>(2);
}

// A generic transform with a functor parameter.
struct Affine { float a, b; __device__ float operator()(float x) const { return a * x + b; } };
struct Square { __device__ float operator()(float x) const { return x * x; } };
template <typename F> __global__ void transform(const float *in, float *out, int n, F f)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = f(in[i]);
}

template <typename T, unsigned BLOCK, typename Op>
T runReduce(const T *h, unsigned n, int blocks)
{
    T *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(T))); CHECK(cudaMalloc(&dout, blocks * sizeof(T)));
    CHECK(cudaMemcpy(din, h, n * sizeof(T), cudaMemcpyHostToDevice));
    reduceKernel<T, BLOCK, Op><<<blocks, BLOCK>>>(din, dout, n);
    CHECK(cudaGetLastError());
    T *part = (T *)malloc(blocks * sizeof(T));
    CHECK(cudaMemcpy(part, dout, blocks * sizeof(T), cudaMemcpyDeviceToHost));
    T r = part[0];
    for (int i = 1; i < blocks; i++) r = Op::isMax ? (part[i] > r ? part[i] : r) : r + part[i];
    cudaFree(din); cudaFree(dout); free(part);
    return r;
}
// The host combines partial results; tell it which operation it is.
template <typename T> struct SumH : Sum<T> { static const bool isMax = false; };
template <typename T> struct MaxH : Max<T> { static const bool isMax = true; };

int main()
{
    int bad = 0;
    const unsigned n = 100003;
    int *hi = (int *)malloc(n * sizeof(int));
    double *hd = (double *)malloc(n * sizeof(double));
    unsigned st = 12345;
    long long isum = 0; int imax = -2147483647 - 1; double dmax = -1e308;
    for (unsigned i = 0; i < n; i++) {
        st = st * 1664525u + 1013904223u;
        hi[i] = (int)(st >> 12) - (1 << 19);
        hd[i] = (double)(st >> 8) * 0.001;
        isum += hi[i]; if (hi[i] > imax) imax = hi[i]; if (hd[i] > dmax) dmax = hd[i];
    }
    int s256 = runReduce<int, 256, SumH<int>>(hi, n, 64);
    int s64 = runReduce<int, 64, SumH<int>>(hi, n, 100);
    int m128 = runReduce<int, 128, MaxH<int>>(hi, n, 37);
    double dm = runReduce<double, 512, MaxH<double>>(hd, n, 20);
    printf("sum<int,256>=%d sum<int,64>=%d (cpu %d)\n", s256, s64, (int)isum);
    printf("max<int,128>=%d (cpu %d) max<double,512>=%.17g (cpu %.17g)\n", m128, imax, dm, dmax);
    if (s256 != (int)isum || s64 != (int)isum || m128 != imax || dm != dmax) bad++;

    unsigned long long *df, hf[2]; int *dp, hp[32];
    CHECK(cudaMalloc(&df, sizeof hf)); CHECK(cudaMalloc(&dp, sizeof hp));
    compileTime<<<1, 32>>>(df, dp);
    CHECK(cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hp, dp, sizeof hp, cudaMemcpyDeviceToHost));
    printf("Fact<10>=%llu Fact<20>=%llu pow: %d %d %d\n", hf[0], hf[1], hp[0], hp[5], hp[31]);
    if (hf[0] != 3628800ULL || hf[1] != 2432902008176640000ULL) bad++;
    for (int i = 0; i < 32; i++) if (hp[i] != i * i * i + 32) bad++;

    const int m = 5000;
    float *hx = (float *)malloc(m * sizeof(float)), *hy = (float *)malloc(m * sizeof(float));
    for (int i = 0; i < m; i++) hx[i] = (i - 2500) * 0.125f;
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, m * sizeof(float))); CHECK(cudaMalloc(&dy, m * sizeof(float)));
    CHECK(cudaMemcpy(dx, hx, m * sizeof(float), cudaMemcpyHostToDevice));
    Affine af = {2.0f, -1.0f};
    transform<<<8, 128>>>(dx, dy, m, af);
    CHECK(cudaMemcpy(hy, dy, m * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++) if (hy[i] != 2.0f * hx[i] - 1.0f) bad++;
    printf("affine: y[0]=%g y[4999]=%g\n", hy[0], hy[4999]);
    transform<<<8, 128>>>(dx, dy, m, Square());
    CHECK(cudaMemcpy(hy, dy, m * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++) if (hy[i] != hx[i] * hx[i]) bad++;
    printf("square: y[0]=%g y[2501]=%g\n", hy[0], hy[2501]);

    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
