// Read-only and cache-hinted loads: const __restrict__ pointers, __ldg on int, float4 and
// double, the cache-operator intrinsics __ldca / __ldcg / __ldcs / __ldlu / __ldcv and
// __stcg / __stcs / __stwb / __stwt, a __launch_bounds__(256, 2) SAXPY, and a 1D blur that
// reads its input through the read-only path.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__global__ void __launch_bounds__(256, 2) saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * __ldg(&x[i]) + y[i];
}

__global__ void blur(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float l = i > 0 ? in[i - 1] : 0.0f, c = in[i], r = i + 1 < n ? in[i + 1] : 0.0f;
    out[i] = (l + 2.0f * c + r) * 0.25f;
}

__global__ void hints(const int *a, const float4 *b, const double *c, int *o1, float4 *o2, double *o3, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = __ldg(a + i) + __ldca(a + i) + __ldcg(a + i) + __ldcs(a + i) + __ldlu(a + i) + __ldcv(a + i);
    float4 f = __ldg(b + i);
    float4 g = __ldcs(b + i);
    double d = __ldg(c + i) + __ldcg(c + i);
    __stcg(o1 + i, v);
    __stcs(o2 + i, make_float4(f.x + g.w, f.y + g.z, f.z + g.y, f.w + g.x));
    if (i & 1) __stwb(o3 + i, d); else __stwt(o3 + i, -d);
}

int main()
{
    int bad = 0;
    const int n = 100000;
    float *hx = (float *)malloc(n * 4), *hy = (float *)malloc(n * 4), *hr = (float *)malloc(n * 4);
    for (int i = 0; i < n; i++) { hx[i] = (float)(i % 1000) * 0.5f; hy[i] = (float)(i % 77); }
    float *dx, *dy, *db;
    CHECK(cudaMalloc(&dx, n * 4)); CHECK(cudaMalloc(&dy, n * 4)); CHECK(cudaMalloc(&db, n * 4));
    CHECK(cudaMemcpy(dx, hx, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dy, hy, n * 4, cudaMemcpyHostToDevice));
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hr, dy, n * 4, cudaMemcpyDeviceToHost));
    double s = 0;
    for (int i = 0; i < n; i++) { if (hr[i] != 2.0f * hx[i] + hy[i]) bad++; s += hr[i]; }
    printf("saxpy: y[1]=%g y[99999]=%g sum=%.1f\n", hr[1], hr[99999], s);
    blur<<<(n + 127) / 128, 128>>>(dx, db, n);
    CHECK(cudaMemcpy(hr, db, n * 4, cudaMemcpyDeviceToHost));
    s = 0;
    for (int i = 0; i < n; i++) {
        float l = i > 0 ? hx[i - 1] : 0.0f, c = hx[i], r = i + 1 < n ? hx[i + 1] : 0.0f;
        if (hr[i] != (l + 2.0f * c + r) * 0.25f) bad++;
        s += hr[i];
    }
    printf("blur: out[0]=%g out[500]=%g sum=%.2f\n", hr[0], hr[500], s);

    const int m = 1000;
    int *ha = (int *)malloc(m * 4); float4 *hb = (float4 *)malloc(m * 16); double *hc = (double *)malloc(m * 8);
    for (int i = 0; i < m; i++) { ha[i] = i * 3 - 7; hb[i] = make_float4(i, -i, 0.5f * i, 2.0f); hc[i] = i * 0.125; }
    int *da, *o1; float4 *dbb, *o2; double *dc, *o3;
    CHECK(cudaMalloc(&da, m * 4)); CHECK(cudaMalloc(&dbb, m * 16)); CHECK(cudaMalloc(&dc, m * 8));
    CHECK(cudaMalloc(&o1, m * 4)); CHECK(cudaMalloc(&o2, m * 16)); CHECK(cudaMalloc(&o3, m * 8));
    CHECK(cudaMemcpy(da, ha, m * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dbb, hb, m * 16, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, hc, m * 8, cudaMemcpyHostToDevice));
    hints<<<(m + 63) / 64, 64>>>(da, dbb, dc, o1, o2, o3, m);
    CHECK(cudaGetLastError());
    int *r1 = (int *)malloc(m * 4); float4 *r2 = (float4 *)malloc(m * 16); double *r3 = (double *)malloc(m * 8);
    CHECK(cudaMemcpy(r1, o1, m * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(r2, o2, m * 16, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r3, o3, m * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++) {
        if (r1[i] != 6 * ha[i]) bad++;
        float4 f = hb[i];
        if (r2[i].x != f.x + f.w || r2[i].y != f.y + f.z || r2[i].z != f.z + f.y || r2[i].w != f.w + f.x) bad++;
        if (r3[i] != ((i & 1) ? 2 * hc[i] : -2 * hc[i])) bad++;
    }
    printf("hints: o1[999]=%d o2[10]=(%g,%g,%g,%g) o3[998]=%g o3[999]=%g\n", r1[999], r2[10].x, r2[10].y, r2[10].z, r2[10].w, r3[998], r3[999]);
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, saxpy));
    printf("saxpy maxThreadsPerBlock=%d\n", a.maxThreadsPerBlock);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
