// Dynamic shared memory: one extern __shared__ buffer carved into arrays of several types
// (double, float, int, char) with alignment, the templated SharedMemory<T> idiom of the
// CUDA samples, static and dynamic shared memory in one kernel, sizes chosen at launch,
// and more than 48 KB through cudaFuncSetAttribute(MaxDynamicSharedMemorySize).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

template <typename T> struct SharedMemory {
    __device__ T *get() { extern __shared__ int __smem[]; return (T *)__smem; }
};
template <> struct SharedMemory<double> {
    __device__ double *get() { extern __shared__ double __smem_d[]; return __smem_d; }
};

template <typename T>
__global__ void reverseBlock(const T *in, T *out)
{
    T *s = SharedMemory<T>().get();
    int t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[n - 1 - t];
}

// Layout: n doubles, then n floats, then n ints, then n chars.
__global__ void carve(const int *in, double *dsum, int *isum, int *chk, int n)
{
    extern __shared__ double raw[];
    double *d = raw;
    float *f = (float *)&d[n];
    int *i = (int *)&f[n];
    char *c = (char *)&i[n];
    __shared__ int staticCounter;
    int t = threadIdx.x;
    if (t == 0) staticCounter = 0;
    __syncthreads();
    for (int k = t; k < n; k += blockDim.x) {
        int v = in[k];
        d[k] = v * 0.5; f[k] = v * 0.25f; i[k] = v * 3; c[k] = (char)(v & 0x7f);
        atomicAdd(&staticCounter, 1);
    }
    __syncthreads();
    if (t == 0) {
        double ds = 0; int is = 0, cs = 0; float fs = 0;
        for (int k = 0; k < n; k++) { ds += d[k]; is += i[k]; cs += c[k]; fs += f[k]; }
        *dsum = ds + fs; *isum = is; chk[0] = cs; chk[1] = staticCounter;
        chk[2] = (int)((char *)f - (char *)raw); chk[3] = (int)((char *)c - (char *)raw);
    }
}

__global__ void bigShared(int *out, int words)
{
    extern __shared__ int big[];
    for (int k = threadIdx.x; k < words; k += blockDim.x) big[k] = k * 7 + blockIdx.x;
    __syncthreads();
    long long s = 0;
    for (int k = threadIdx.x; k < words; k += blockDim.x) s += big[words - 1 - k];
    atomicAdd((unsigned long long *)out, (unsigned long long)s);
}

int main()
{
    int bad = 0;
    const int T = 128, B = 3, n = T * B;
    float hf[n], of[n]; double hd[n], od[n];
    for (int k = 0; k < n; k++) { hf[k] = k * 1.5f; hd[k] = k * -0.25; }
    float *df; double *dd;
    CHECK(cudaMalloc(&df, sizeof hf)); CHECK(cudaMalloc(&dd, sizeof hd));
    CHECK(cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice));
    reverseBlock<float><<<B, T, T * sizeof(float)>>>(df, df);
    reverseBlock<double><<<B, T, T * sizeof(double)>>>(dd, dd);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(of, df, sizeof of, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(od, dd, sizeof od, cudaMemcpyDeviceToHost));
    for (int k = 0; k < n; k++) {
        int b = k / T, t = k % T;
        if (of[k] != hf[b * T + T - 1 - t] || od[k] != hd[b * T + T - 1 - t]) bad++;
    }
    printf("reverse float: %g %g %g  double: %g %g\n", of[0], of[127], of[128], od[0], od[383]);

    const int m = 1001;
    int hi[m]; double rd = 0; int ri = 0, rc = 0; float rf = 0;
    for (int k = 0; k < m; k++) { hi[k] = (k * 29) % 211 - 100; rd += hi[k] * 0.5; ri += hi[k] * 3; rc += (char)(hi[k] & 0x7f); rf += hi[k] * 0.25f; }
    int *di, *dis, *dchk; double *dds;
    CHECK(cudaMalloc(&di, sizeof hi)); CHECK(cudaMalloc(&dis, 4)); CHECK(cudaMalloc(&dchk, 16)); CHECK(cudaMalloc(&dds, 8));
    CHECK(cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice));
    size_t bytes = m * (sizeof(double) + sizeof(float) + sizeof(int) + sizeof(char));
    carve<<<1, 256, bytes>>>(di, dds, dis, dchk, m);
    CHECK(cudaGetLastError());
    double gds; int gis, chk[4];
    CHECK(cudaMemcpy(&gds, dds, 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(&gis, dis, 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(chk, dchk, 16, cudaMemcpyDeviceToHost));
    printf("carved %zu bytes: dsum+fsum=%.17g isum=%d csum=%d count=%d offsets f=%d c=%d\n", bytes, gds, gis, chk[0], chk[1], chk[2], chk[3]);
    if (gds != rd + rf || gis != ri || chk[0] != rc || chk[1] != m || chk[2] != m * 8 || chk[3] != m * 16) bad++;

    // 100 KB of dynamic shared memory needs the opt-in attribute.
    const int words = 100 * 1024 / 4;
    unsigned long long *dsum, gsum;
    CHECK(cudaMalloc(&dsum, 8));
    CHECK(cudaMemset(dsum, 0, 8));
    bigShared<<<2, 256, words * 4>>>((int *)dsum, words);
    cudaError_t e = cudaGetLastError();
    printf("100 KB without opt-in: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) bad++;
    CHECK(cudaFuncSetAttribute(bigShared, cudaFuncAttributeMaxDynamicSharedMemorySize, words * 4));
    bigShared<<<2, 256, words * 4>>>((int *)dsum, words);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&gsum, dsum, 8, cudaMemcpyDeviceToHost));
    unsigned long long want = 0;
    for (int b = 0; b < 2; b++) for (int k = 0; k < words; k++) want += (unsigned long long)(k * 7 + b);
    printf("100 KB with opt-in: sum=%llu (host %llu)\n", gsum, want);
    if (gsum != want) bad++;
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, bigShared));
    printf("bigShared maxDynamicSharedSizeBytes=%d\n", attr.maxDynamicSharedSizeBytes);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
