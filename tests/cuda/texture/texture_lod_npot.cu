// The level of detail from tex1DGrad, tex2DGrad and tex3DGrad on mipmapped textures whose
// sides are not powers of two (normalized coordinates, so each gradient component is
// scaled by its side before the footprint is measured), read back at 1/256 as in
// texture_lod: every level holds its own index, linear filtering between levels. Random
// gradients of every direction and sign (a quarter of the 2D pairs nearly parallel, some
// components zero), lengths from half a texel to about the texture's size, on 2D textures
// of sides 3 to 1000, 1D textures of 3, 100 and 1000 texels and two 3D textures.
// Prints lod * 256.
#include "lod_common.h"

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

// A texture over a mipmapped float array of every level of w x h x d, level L holding L:
// point filtering within a level, linear between levels.
static cudaTextureObject_t level_tex(int w, int h, int d, cudaMipmappedArray_t *mmo)
{
    int n = levels_of(w, h, d);
    *mmo = levels(w, h, d, n);
    return mipTex(*mmo, cudaFilterModeLinear, 0, 0, (float)(n - 1), 0);
}

enum { N = 1024 };
static float4 hq[2 * N];
static float hf[N];

int main()
{
    rng = 0x2545f4914f6cdd1dull;
    float4 *dq;
    float *df;
    CHECK(cudaMalloc(&dq, 2 * N * sizeof(float4)));
    CHECK(cudaMalloc(&df, N * sizeof(float)));
    char what[80];
    static const int s2[][2] = {{40, 24}, {3, 5}, {7, 100}, {129, 255}, {1000, 37}, {25, 17}};
    for (unsigned s = 0; s < sizeof s2 / sizeof s2[0]; s++) {
        int w = s2[s][0], h = s2[s][1], top = octaves(w, h, 0) - 1;
        cudaMipmappedArray_t mm;
        cudaTextureObject_t t = level_tex(w, h, 0, &mm);
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
        show(what, hf, N);
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeMipmappedArray(mm));
    }
    static const int s1[] = {3, 100, 1000};
    for (unsigned s = 0; s < sizeof s1 / sizeof s1[0]; s++) {
        int w = s1[s], top = octaves(w, 0, 0) - 1;
        cudaMipmappedArray_t mm;
        cudaTextureObject_t t = level_tex(w, 0, 0, &mm);
        for (int i = 0; i < N; i++) hq[i] = make_float4(mag(-1, top) / w, mag(-1, top) / w, 0, 0);
        CHECK(cudaMemcpy(dq, hq, N * sizeof(float4), cudaMemcpyHostToDevice));
        grad1D<<<N / 256, 256>>>(t, dq, df, N);
        CHECK(cudaMemcpy(hf, df, N * sizeof(float), cudaMemcpyDeviceToHost));
        snprintf(what, sizeof what, "1D %d", w);
        show(what, hf, N);
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeMipmappedArray(mm));
    }
    static const int s3[][3] = {{5, 12, 7}, {40, 24, 9}};
    for (unsigned s = 0; s < sizeof s3 / sizeof s3[0]; s++) {
        int w = s3[s][0], h = s3[s][1], d = s3[s][2], top = octaves(w, h, d) - 1;
        cudaMipmappedArray_t mm;
        cudaTextureObject_t t = level_tex(w, h, d, &mm);
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
        show(what, hf, N);
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeMipmappedArray(mm));
    }
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
