// The level of detail from tex1DGrad, tex2DGrad and tex3DGrad on mipmapped textures whose
// sides are not powers of two (normalized coordinates, so each gradient component is
// scaled by its side before the footprint is measured), read back at 1/256 as in
// texture_lod: every level holds its own index, linear filtering between levels. Random
// gradients of every direction and sign (a quarter of the 2D pairs nearly parallel, some
// components zero), lengths from half a texel to about the texture's size, on 2D textures
// of sides 3 to 1000, 1D textures of 3, 100 and 1000 texels and two 3D textures.
// Prints lod * 256.
#include "common_tex.h"
#include <cmath>
#include <cstdint>

__global__ void grad1D(cudaTextureObject_t t, const float4 *g, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1DGrad<float>(t, 0.5f, g[i].x, g[i].y);
}

__global__ void grad2D(cudaTextureObject_t t, const float4 *g, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}

__global__ void grad3D(cudaTextureObject_t t, const float4 *g, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3DGrad<float>(t, 0.5f, 0.5f, 0.5f, g[2 * i], g[2 * i + 1]);
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd()
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static float unit() { return (rnd() & 0xffffff) / 16777216.0f; }
// A random magnitude in [2^lo, 2^hi), full float mantissa, random sign.
static float mag(int lo, int hi)
{
    float v = ldexpf(1.0f + unit(), lo + (int)(rnd() % (unsigned)(hi - lo)));
    return rnd() & 1 ? -v : v;
}

static int levels_of(int w, int h, int d)
{
    int n = 1;
    while ((w >> n) || (h >> n) || (d >> n)) n++;
    return n;
}
// log2 of the longest side, rounded up (the random lengths reach half of that power of two)
static int octaves(int w, int h, int d)
{
    int m = w > h ? w : h, o = 0;
    if (d > m) m = d;
    while ((1 << o) < m) o++;
    return o;
}

// A mipmapped float array whose level L holds L everywhere (h, d = 0 for fewer dimensions).
static cudaTextureObject_t levels(int w, int h, int d, cudaMipmappedArray_t *mmo)
{
    int n = levels_of(w, h, d);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mm;
    CHECK(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(w, h, d), n));
    for (int L = 0; L < n; L++) {
        cudaArray_t lev;
        CHECK(cudaGetMipmappedArrayLevel(&lev, mm, L));
        size_t lw = w >> L ? w >> L : 1, lh = h ? (h >> L ? h >> L : 1) : 1, ld = d ? (d >> L ? d >> L : 1) : 1;
        float *v = (float *)malloc(lw * lh * ld * sizeof(float));
        for (size_t i = 0; i < lw * lh * ld; i++) v[i] = (float)L;
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(v, lw * sizeof(float), lw, lh);
        p.dstArray = lev;
        p.extent = make_cudaExtent(lw, lh, ld);
        p.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&p));
        free(v);
    }
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = mm;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.normalizedCoords = 1;
    td.filterMode = cudaFilterModePoint;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.maxMipmapLevelClamp = (float)(n - 1);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    *mmo = mm;
    return t;
}

enum { N = 1024 };
static float4 hq[2 * N];
static float hf[N];

static void show(const char *what, int n)
{
    printf("%s (%d):", what, n);
    for (int i = 0; i < n; i++) printf("%s%d", i % 32 ? " " : "\n ", (int)lrintf(hf[i] * 256));
    printf("\n");
}

int main()
{
    float4 *dq;
    float *df;
    CHECK(cudaMalloc(&dq, 2 * N * sizeof(float4)));
    CHECK(cudaMalloc(&df, N * sizeof(float)));
    char what[80];
    static const int s2[][2] = {{40, 24}, {3, 5}, {7, 100}, {129, 255}, {1000, 37}, {25, 17}};
    for (unsigned s = 0; s < sizeof s2 / sizeof s2[0]; s++) {
        int w = s2[s][0], h = s2[s][1], top = octaves(w, h, 0) - 1;
        cudaMipmappedArray_t mm;
        cudaTextureObject_t t = levels(w, h, 0, &mm);
        for (int i = 0; i < N; i++) {
            float ax = mag(-1, top), ay = mag(-1, top), bx, by;
            if (i % 4 == 3) {
                float k = (unit() * 2 - 1) * 1.5f;
                bx = ax * k + mag(-4, 0); by = ay * k + mag(-4, 0);
            } else {
                bx = mag(-1, top); by = mag(-1, top);
            }
            if (i % 16 == 5) ay = 0;
            if (i % 16 == 9) bx = 0;
            hq[i] = make_float4(ax / w, ay / h, bx / w, by / h);
        }
        CHECK(cudaMemcpy(dq, hq, N * sizeof(float4), cudaMemcpyHostToDevice));
        grad2D<<<N / 256, 256>>>(t, dq, df, N);
        CHECK(cudaMemcpy(hf, df, N * sizeof(float), cudaMemcpyDeviceToHost));
        snprintf(what, sizeof what, "2D %dx%d", w, h);
        show(what, N);
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeMipmappedArray(mm));
    }
    static const int s1[] = {3, 100, 1000};
    for (unsigned s = 0; s < sizeof s1 / sizeof s1[0]; s++) {
        int w = s1[s], top = octaves(w, 0, 0) - 1;
        cudaMipmappedArray_t mm;
        cudaTextureObject_t t = levels(w, 0, 0, &mm);
        for (int i = 0; i < N; i++) hq[i] = make_float4(mag(-1, top) / w, mag(-1, top) / w, 0, 0);
        CHECK(cudaMemcpy(dq, hq, N * sizeof(float4), cudaMemcpyHostToDevice));
        grad1D<<<N / 256, 256>>>(t, dq, df, N);
        CHECK(cudaMemcpy(hf, df, N * sizeof(float), cudaMemcpyDeviceToHost));
        snprintf(what, sizeof what, "1D %d", w);
        show(what, N);
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeMipmappedArray(mm));
    }
    static const int s3[][3] = {{5, 12, 7}, {40, 24, 9}};
    for (unsigned s = 0; s < sizeof s3 / sizeof s3[0]; s++) {
        int w = s3[s][0], h = s3[s][1], d = s3[s][2], top = octaves(w, h, d) - 1;
        cudaMipmappedArray_t mm;
        cudaTextureObject_t t = levels(w, h, d, &mm);
        for (int i = 0; i < N; i++) {
            float g[6];
            for (int k = 0; k < 6; k++) g[k] = mag(-1, top);
            if (i % 8 == 1) g[2] = g[5] = 0;
            if (i % 8 == 2) g[0] = g[3] = 0;
            hq[2 * i] = make_float4(g[0] / w, g[1] / h, g[2] / d, 0);
            hq[2 * i + 1] = make_float4(g[3] / w, g[4] / h, g[5] / d, 0);
        }
        CHECK(cudaMemcpy(dq, hq, 2 * N * sizeof(float4), cudaMemcpyHostToDevice));
        grad3D<<<N / 256, 256>>>(t, dq, df, N);
        CHECK(cudaMemcpy(hf, df, N * sizeof(float), cudaMemcpyDeviceToHost));
        snprintf(what, sizeof what, "3D %dx%dx%d", w, h, d);
        show(what, N);
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeMipmappedArray(mm));
    }
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
