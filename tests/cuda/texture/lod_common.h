// Shared pieces of the level-of-detail test programs (texture_lod, texture_lod_npot): the
// gradient lookups, a reproducible random source, mipmapped float arrays whose level L
// holds L everywhere (so that with linear filtering between levels a lookup returns the
// level of detail at 1/256), and the printing of those values.
#pragma once
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

// xorshift; each program seeds it first (its recorded output depends on the sequence)
static uint64_t rng;
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

// A texture object over mm: normalized coordinates, clamp, point filtering within a level,
// mf between levels, the given bias, level clamps and anisotropy.
static cudaTextureObject_t mipTex(cudaMipmappedArray_t mm, cudaTextureFilterMode mf, float bias, float minl,
                                  float maxl, int aniso)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = mm;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.normalizedCoords = 1;
    td.filterMode = cudaFilterModePoint;
    td.mipmapFilterMode = mf;
    td.mipmapLevelBias = bias;
    td.minMipmapLevelClamp = minl;
    td.maxMipmapLevelClamp = maxl;
    td.maxAnisotropy = aniso;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
}

// A mipmapped float array of n levels whose level L holds L everywhere (h, d = 0 for fewer
// dimensions).
static cudaMipmappedArray_t levels(int w, int h, int d, int n)
{
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
    return mm;
}

// Levels of detail read back (level + weight) as integers in 256ths, 32 a line.
static void show(const char *what, const float *v, int n)
{
    printf("%s (%d):", what, n);
    for (int i = 0; i < n; i++) printf("%s%d", i % 32 ? " " : "\n ", (int)lrintf(v[i] * 256));
    printf("\n");
}
