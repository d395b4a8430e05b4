// Vector types: float4 loads and stores, int2, uchar4, double2, make_* constructors and
// component-wise arithmetic, as image-processing and particle codes use them.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__device__ __host__ inline float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
__device__ __host__ inline float4 operator*(float s, float4 a) { return make_float4(s * a.x, s * a.y, s * a.z, s * a.w); }

// saxpy on float4: one 16-byte load of each operand, one 16-byte store.
__global__ void saxpy4(int n4, float a, const float4 *x, const float4 *y, float4 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) out[i] = a * x[i] + y[i];
}

// int2 pairs: swap and sum; writes int2 and reads it back through a reinterpret.
__global__ void pairs(const int2 *in, int2 *swapped, int *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int2 v = in[i];
        swapped[i] = make_int2(v.y, v.x);
        sums[i] = v.x + v.y;
    }
}

// RGBA pixels as uchar4: invert colour, keep alpha; luminance in integer arithmetic.
__global__ void pixels(const uchar4 *in, uchar4 *out, unsigned *luma, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uchar4 p = in[i];
        out[i] = make_uchar4(255 - p.x, 255 - p.y, 255 - p.z, p.w);
        luma[i] = (77u * p.x + 150u * p.y + 29u * p.z) >> 8;
    }
}

// double2 complex multiply.
__global__ void cmul(const double2 *a, const double2 *b, double2 *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double2 x = a[i], y = b[i];
        c[i] = make_double2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
    }
}

// short3 / float3 (12-byte, not 16-byte aligned) structure of three.
__global__ void cross3(const float3 *a, const float3 *b, float3 *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float3 u = a[i], v = b[i];
        c[i] = make_float3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x);
    }
}

int main()
{
    const int n = 1000, n4 = n / 4;
    int bad = 0;
    printf("sizeof float4=%zu int2=%zu uchar4=%zu double2=%zu float3=%zu\n",
           sizeof(float4), sizeof(int2), sizeof(uchar4), sizeof(double2), sizeof(float3));
    printf("alignof float4=%zu int2=%zu double2=%zu float3=%zu\n",
           alignof(float4), alignof(int2), alignof(double2), alignof(float3));

    // float4 saxpy
    float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
    float *ho = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) { hx[i] = i * 0.5f; hy[i] = (float)(n - i); }
    float4 *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, n * sizeof(float))); CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice));
    saxpy4<<<(n4 + 127) / 128, 128>>>(n4, 3.0f, dx, dy, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ho, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    double s = 0;
    for (int i = 0; i < n; i++) { if (ho[i] != 3.0f * hx[i] + hy[i]) bad++; s += ho[i]; }
    printf("saxpy4: out[0]=%g out[1]=%g out[998]=%g sum=%.1f\n", ho[0], ho[1], ho[998], s);

    // int2
    int2 *hp = (int2 *)malloc(n * sizeof(int2)), *hs = (int2 *)malloc(n * sizeof(int2));
    int *hsum = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) hp[i] = make_int2(i * 7 - 300, -i * 3);
    int2 *dp, *ds; int *dsum;
    CHECK(cudaMalloc(&dp, n * sizeof(int2))); CHECK(cudaMalloc(&ds, n * sizeof(int2)));
    CHECK(cudaMalloc(&dsum, n * sizeof(int)));
    CHECK(cudaMemcpy(dp, hp, n * sizeof(int2), cudaMemcpyHostToDevice));
    pairs<<<4, 256>>>(dp, ds, dsum, n);
    CHECK(cudaMemcpy(hs, ds, n * sizeof(int2), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hsum, dsum, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long tot = 0;
    for (int i = 0; i < n; i++) {
        if (hs[i].x != hp[i].y || hs[i].y != hp[i].x || hsum[i] != hp[i].x + hp[i].y) bad++;
        tot += hsum[i];
    }
    printf("int2: swapped[5]=(%d,%d) sum total=%lld\n", hs[5].x, hs[5].y, tot);

    // uchar4
    uchar4 *hpx = (uchar4 *)malloc(n * sizeof(uchar4)), *hpo = (uchar4 *)malloc(n * sizeof(uchar4));
    unsigned *hl = (unsigned *)malloc(n * sizeof(unsigned));
    for (int i = 0; i < n; i++) hpx[i] = make_uchar4(i & 255, (i * 3) & 255, (i * 7) & 255, (i * 11) & 255);
    uchar4 *dpx, *dpo; unsigned *dl;
    CHECK(cudaMalloc(&dpx, n * sizeof(uchar4))); CHECK(cudaMalloc(&dpo, n * sizeof(uchar4)));
    CHECK(cudaMalloc(&dl, n * sizeof(unsigned)));
    CHECK(cudaMemcpy(dpx, hpx, n * sizeof(uchar4), cudaMemcpyHostToDevice));
    pixels<<<8, 128>>>(dpx, dpo, dl, n);
    CHECK(cudaMemcpy(hpo, dpo, n * sizeof(uchar4), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hl, dl, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned long long lsum = 0;
    for (int i = 0; i < n; i++) {
        uchar4 p = hpx[i];
        if (hpo[i].x != 255 - p.x || hpo[i].y != 255 - p.y || hpo[i].z != 255 - p.z || hpo[i].w != p.w) bad++;
        if (hl[i] != ((77u * p.x + 150u * p.y + 29u * p.z) >> 8)) bad++;
        lsum += hl[i];
    }
    printf("uchar4: out[100]=(%d,%d,%d,%d) luma sum=%llu\n", hpo[100].x, hpo[100].y, hpo[100].z, hpo[100].w, lsum);

    // double2
    double2 *ha = (double2 *)malloc(n * sizeof(double2)), *hb = (double2 *)malloc(n * sizeof(double2));
    double2 *hc = (double2 *)malloc(n * sizeof(double2));
    for (int i = 0; i < n; i++) { ha[i] = make_double2(i * 0.25, 1.0 - i); hb[i] = make_double2(2.0, i * 0.125); }
    double2 *da, *db, *dc;
    CHECK(cudaMalloc(&da, n * sizeof(double2))); CHECK(cudaMalloc(&db, n * sizeof(double2)));
    CHECK(cudaMalloc(&dc, n * sizeof(double2)));
    CHECK(cudaMemcpy(da, ha, n * sizeof(double2), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, n * sizeof(double2), cudaMemcpyHostToDevice));
    cmul<<<(n + 63) / 64, 64>>>(da, db, dc, n);
    CHECK(cudaMemcpy(hc, dc, n * sizeof(double2), cudaMemcpyDeviceToHost));
    double re = 0, im = 0;
    for (int i = 0; i < n; i++) {
        double r = ha[i].x * hb[i].x - ha[i].y * hb[i].y, m = ha[i].x * hb[i].y + ha[i].y * hb[i].x;
        if (hc[i].x != r || hc[i].y != m) bad++;
        re += hc[i].x; im += hc[i].y;
    }
    printf("double2: c[999]=(%.17g,%.17g) sums=(%.17g,%.17g)\n", hc[999].x, hc[999].y, re, im);

    // float3
    float3 *hu = (float3 *)malloc(n * sizeof(float3)), *hv = (float3 *)malloc(n * sizeof(float3));
    float3 *hw = (float3 *)malloc(n * sizeof(float3));
    for (int i = 0; i < n; i++) { hu[i] = make_float3(i, 1, -i); hv[i] = make_float3(2, i % 5, 3); }
    float3 *du, *dv, *dw;
    CHECK(cudaMalloc(&du, n * sizeof(float3))); CHECK(cudaMalloc(&dv, n * sizeof(float3)));
    CHECK(cudaMalloc(&dw, n * sizeof(float3)));
    CHECK(cudaMemcpy(du, hu, n * sizeof(float3), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv, hv, n * sizeof(float3), cudaMemcpyHostToDevice));
    cross3<<<(n + 95) / 96, 96>>>(du, dv, dw, n);
    CHECK(cudaMemcpy(hw, dw, n * sizeof(float3), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float3 u = hu[i], v = hv[i];
        if (hw[i].x != u.y * v.z - u.z * v.y || hw[i].y != u.z * v.x - u.x * v.z || hw[i].z != u.x * v.y - u.y * v.x) bad++;
    }
    printf("float3: w[7]=(%g,%g,%g) w[999]=(%g,%g,%g)\n", hw[7].x, hw[7].y, hw[7].z, hw[999].x, hw[999].y, hw[999].z);

    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
