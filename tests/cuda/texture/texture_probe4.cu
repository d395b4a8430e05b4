// Probes of tex2DGrad's level of detail and of anisotropic filtering, recorded once on an
// H200 (h200/texture_probe4.out.xz). With -DSUMS it is the test texture_lod_sums: only the
// sweeps vcuda reproduces (sumx, sumy, p34 for a = 16 and 12), its expectation being those
// sections of the recording. With -DANISO it is the test texture_aniso: the anisotropic
// sections vcuda reproduces exactly (the level at angle 0 under maxAnisotropy 16, 4 and 2;
// the impulse responses under 16 and 4 of ratios 1, 2, 4, 8 and 16 along x and of ratio 4
// with a minor axis of 2 texels, and under 4 ratio 6, which the cap makes ratio 4 at level
// 1), its expectation being those sections of the recording.
// Level of detail, read back at 1/256 as texture_lod does (levels holding their own index,
// linear filtering between levels), on a 256x256 texture, gradients in texels:
//  - "sumx": dx = (16, 0), dy = (16 + t, 0): the sum (32 + t, 0) has more significant bits
//    than either gradient, t at steps of 1/1024: how the sum is rounded before 11/16 of it;
//  - "sumy": dx = (16, 4), dy = (16, 4 + t): the sum (32, 8 + t), the same for the smaller
//    component and its 121/512;
//  - "p34": dy = 3/4 dx, dx = (a, b), b at steps of 1/4096 for a = 16, 12 and 17: where
//    the level steps when both terms of the combined length move;
//  - "ulp": single normalized gradients on sides 40, 48 and 24, the float g swept one unit
//    in the last place at a time (4096 of them) around a length L texels on a step of the
//    log2 table: where exactly the level steps, and whether it is monotonic in g.
// Anisotropic filtering (maxAnisotropy 16, 4 and 2):
//  - "alod": levels holding their index, linear between levels, a major axis of 8 texels
//    at angles 0, 30 and 45 degrees and a minor axis 8/r, r from 1 to 32 at steps of 1/16;
//  - "imp": the impulse response: every level zero but for 1.0 at its centre texel, point
//    filtering between levels, linear within; the coordinate swept along the major axis
//    at 1/16 texel steps across the centre, for ratios 1, 2, 3, 4, 6, 8, 16 along x, and
//    ratio 4 along the diagonal (swept along it); printed as float bit patterns.
#include "common_tex.h"
#include <cmath>

__global__ void grad2D(cudaTextureObject_t t, const float4 *g, const float2 *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(t, p[i].x, p[i].y, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}

static cudaTextureObject_t mipTex(cudaMipmappedArray_t mm, int maxl, int aniso, cudaTextureFilterMode mip)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = mm;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.normalizedCoords = 1;
    td.filterMode = aniso ? cudaFilterModeLinear : cudaFilterModePoint;
    td.mipmapFilterMode = mip;
    td.maxMipmapLevelClamp = (float)maxl;
    td.maxAnisotropy = aniso;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
}

// levels of w x h: each holding its index (impulse = 0), or zero but for 1 at its centre
static cudaMipmappedArray_t levels(int w, int h, int n, int impulse)
{
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mm;
    CHECK(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(w, h, 0), n));
    for (int L = 0; L < n; L++) {
        cudaArray_t lev;
        CHECK(cudaGetMipmappedArrayLevel(&lev, mm, L));
        size_t lw = w >> L ? w >> L : 1, lh = h >> L ? h >> L : 1;
        float *v = (float *)calloc(lw * lh, sizeof(float));
        if (impulse) v[(lh / 2) * lw + lw / 2] = 1.0f;
        else for (size_t i = 0; i < lw * lh; i++) v[i] = (float)L;
        CHECK(cudaMemcpy2DToArray(lev, 0, 0, v, lw * sizeof(float), lw * sizeof(float), lh,
                                  cudaMemcpyHostToDevice));
        free(v);
    }
    return mm;
}

enum { MAXN = 16384 };
static float4 hq[MAXN];
static float2 hp[MAXN];
static float hf[MAXN];
static float4 *dq;
static float2 *dp;
static float *df;

static void run(const char *what, cudaTextureObject_t t, int n, int bits)
{
    CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dp, hp, n * sizeof(float2), cudaMemcpyHostToDevice));
    grad2D<<<(n + 255) / 256, 256>>>(t, dq, dp, df, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("%s (%d):", what, n);
    for (int i = 0; i < n; i++) {
        if (bits) printf("%s%08x", i % 16 ? " " : "\n ", fbits(hf[i]));
        else printf("%s%d", i % 32 ? " " : "\n ", (int)lrintf(hf[i] * 256));
    }
    printf("\n");
}

int main()
{
    CHECK(cudaMalloc(&dq, MAXN * sizeof(float4)));
    CHECK(cudaMalloc(&dp, MAXN * sizeof(float2)));
    CHECK(cudaMalloc(&df, MAXN * sizeof(float)));
    const float S = 1.0f / 256;
    cudaMipmappedArray_t lv = levels(256, 256, 9, 0);
    cudaTextureObject_t t256 = mipTex(lv, 8, 0, cudaFilterModeLinear);
    int n;
    char what[128];
    (void)t256;
    (void)S;

#ifndef ANISO
    for (int i = 0; i < MAXN; i++) hp[i] = make_float2(0.5f, 0.5f);
    n = 0;
    for (int k = 0; k < 16384; k++) {
        float t = k / 1024.0f;
        hq[n++] = make_float4(16 * S, 0, (16 + t) * S, 0);
    }
    run("sumx dx=(16,0) dy=(16+k/1024,0)", t256, n, 0);
    n = 0;
    for (int k = 0; k < 16384; k++) {
        float t = k / 1024.0f;
        hq[n++] = make_float4(16 * S, 4 * S, 16 * S, (4 + t) * S);
    }
    run("sumy dx=(16,4) dy=(16,4+k/1024)", t256, n, 0);
    const float as[3] = {16, 12, 17};
#ifdef SUMS
    const int nas = 2;
#else
    const int nas = 3;
#endif
    for (int j = 0; j < nas; j++) {
        n = 0;
        for (int k = 0; k < 16384; k++) {
            float a = as[j], b = k / 4096.0f;
            hq[n++] = make_float4(a * S, b * S, 0.75f * a * S, 0.75f * b * S);
        }
        snprintf(what, sizeof what, "p34 dx=(%g,k/4096) dy=3/4dx", as[j]);
        run(what, t256, n, 0);
    }

#endif
#if !defined(SUMS) && !defined(ANISO)
    const int sides[3][2] = {{40, 24}, {48, 40}, {24, 40}};
    const float Ls[3] = {2.5f, 3.0f, 2.0078125f};
    for (int si = 0; si < 3; si++) {
        int w = sides[si][0], h = sides[si][1], nl = 1;
        while ((w >> nl) || (h >> nl)) nl++;
        cudaTextureObject_t t = mipTex(levels(w, h, nl, 0), nl - 1, 0, cudaFilterModeLinear);
        for (int li = 0; li < 3; li++) {
            float g0 = Ls[li] / (float)w;
            unsigned u0 = fbits(g0);
            n = 0;
            for (int k = -2048; k < 2048; k++) {
                unsigned u = u0 + k;
                float g;
                memcpy(&g, &u, 4);
                hq[n++] = make_float4(g, 0, 0, 0);
            }
            snprintf(what, sizeof what, "ulp side %d g=bits(%08x)+k-2048 L=%g", w, u0, Ls[li]);
            run(what, t, n, 0);
        }
    }

#endif
#ifndef SUMS
    const int anis[3] = {16, 4, 2};
    const float angles[3] = {0, 30, 45};
#ifdef ANISO
    const int nangles = 1; // at 30 and 45 degrees a few levels are a 256th or two off
#else
    const int nangles = 3;
#endif
    for (int ai = 0; ai < 3; ai++) {
        cudaTextureObject_t t = mipTex(lv, 8, anis[ai], cudaFilterModeLinear);
        for (int gi = 0; gi < nangles; gi++) {
            float c = cosf(angles[gi] * 3.14159265f / 180), s = sinf(angles[gi] * 3.14159265f / 180);
            n = 0;
            for (int k = 0; k < 496; k++) {
                float r = 1 + k / 16.0f, M = 8, m = 8 / r;
                hq[n++] = make_float4(M * c * S, M * s * S, -m * s * S, m * c * S);
            }
            snprintf(what, sizeof what, "alod aniso %d angle %g major 8 minor 8/(1+k/16)", anis[ai], angles[gi]);
            run(what, t, n, 0);
        }
    }
    cudaMipmappedArray_t im = levels(64, 64, 7, 1);
    const float S64 = 1.0f / 64;
    for (int ai = 0; ai < 2; ai++) {
        cudaTextureObject_t t = mipTex(im, 6, anis[ai], cudaFilterModePoint);
        const float ratios[8] = {1, 2, 3, 4, 6, 8, 16, 4};
        for (int ri = 0; ri < 8; ri++) {
            // minor axis 1 texel (level 0), major axis ratio texels
            float R = ratios[ri];
            int diag = ri == 7;
#ifdef ANISO
            // ratios 3 and 6 (weights of a sixth) and the diagonal are a little off
            if (diag || R == 3 || (R == 6 && anis[ai] == 16)) continue;
#endif
            float ux = diag ? 0.70710678f : 1, uy = diag ? 0.70710678f : 0;
            n = 0;
            for (int k = -512; k < 512; k++) {
                float d = k / 16.0f; // texels along the major axis from the centre texel's middle
                hp[n] = make_float2((32.5f + d * ux) * S64, (32.5f + d * uy) * S64);
                hq[n++] = make_float4(R * ux * S64, R * uy * S64, -uy * S64, ux * S64);
            }
            snprintf(what, sizeof what, "imp aniso %d ratio %g %s minor 1 pos 32.5+k/16-32", anis[ai], R, diag ? "diagonal" : "x");
            run(what, t, n, 1);
        }
        // the same with a minor axis of 2 texels (level 1) and ratio 4
        n = 0;
        for (int k = -512; k < 512; k++) {
            hp[n] = make_float2((32.5f + k / 16.0f) * S64, 32.5f * S64);
            hq[n++] = make_float4(8 * S64, 0, 0, 2 * S64);
        }
        snprintf(what, sizeof what, "imp aniso %d ratio 4 x minor 2 pos 32.5+k/16-32", anis[ai]);
        run(what, t, n, 1);
    }
#endif
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
