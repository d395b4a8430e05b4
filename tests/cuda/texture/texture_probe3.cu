// Not a test: probes of tex2DGrad's level of detail, read back at 1/256 as texture_lod
// does (levels holding their own index, linear filtering between levels), in sweeps that
// isolate one term each:
//  - "par": dy = dx, so the difference is zero and the sum exactly 2 dx: the combined
//    term of a sum (2a, 2b) alone, a swept over a mantissa at every 10-bit step, b swept
//    from 0 to a for several a;
//  - "anti": dy = -dx, the same through the difference;
//  - "side": single gradients on 40x24 and 48x40 textures (and a 256-wide one for
//    reference), normalized components a / side, a swept over an octave: how a
//    normalized gradient is scaled by a side that is not a power of two;
//  - "side pairs": parallel pairs on 40x24, the combined term after that scaling.
// Prints lod * 256.
#include "common_tex.h"
#include <cmath>

__global__ void grad2D(cudaTextureObject_t t, const float4 *g, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}

static cudaTextureObject_t mipTex(cudaMipmappedArray_t mm, int maxl)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = mm;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.normalizedCoords = 1;
    td.filterMode = cudaFilterModePoint;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.maxMipmapLevelClamp = (float)maxl;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
}

static cudaMipmappedArray_t levels(int w, int h, int n)
{
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mm;
    CHECK(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(w, h, 0), n));
    for (int L = 0; L < n; L++) {
        cudaArray_t lev;
        CHECK(cudaGetMipmappedArrayLevel(&lev, mm, L));
        size_t lw = w >> L ? w >> L : 1, lh = h >> L ? h >> L : 1;
        float *v = (float *)malloc(lw * lh * sizeof(float));
        for (size_t i = 0; i < lw * lh; i++) v[i] = (float)L;
        CHECK(cudaMemcpy2DToArray(lev, 0, 0, v, lw * sizeof(float), lw * sizeof(float), lh,
                                  cudaMemcpyHostToDevice));
        free(v);
    }
    return mm;
}

enum { MAXN = 16384 };
static float4 hq[MAXN];
static float hf[MAXN];
static float4 *dq;
static float *df;

static void run(const char *what, cudaTextureObject_t t, int n)
{
    CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
    grad2D<<<(n + 255) / 256, 256>>>(t, dq, df, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("%s (%d):", what, n);
    for (int i = 0; i < n; i++) printf("%s%d", i % 32 ? " " : "\n ", (int)lrintf(hf[i] * 256));
    printf("\n");
}

int main()
{
    CHECK(cudaMalloc(&dq, MAXN * sizeof(float4)));
    CHECK(cudaMalloc(&df, MAXN * sizeof(float)));
    const float S = 1.0f / 256;
    cudaTextureObject_t t256 = mipTex(levels(256, 256, 9), 8);
    int n;

    // the sum (2a, 0): a = 8 (1 + k/1024), two octaves
    n = 0;
    for (int k = 0; k < 2048; k++) {
        float a = ldexpf(1.0f + (k & 1023) / 1024.0f, 3 + (k >> 10));
        hq[n++] = make_float4(a * S, 0, a * S, 0);
    }
    run("par a=2^(3+k/1024)(1+(k%1024)/1024) b=0", t256, n);
    // the sum (2a, 2b): a in {16, 16*1.3125, 16*1.75, 16*1.99}, b = a k / 2048
    const float as[4] = {16.0f, 21.0f, 28.0f, 31.875f};
    for (int j = 0; j < 4; j++) {
        n = 0;
        for (int k = 0; k < 2048; k++) {
            float b = as[j] * k / 2048.0f;
            hq[n++] = make_float4(as[j] * S, b * S, as[j] * S, b * S);
        }
        char what[96];
        snprintf(what, sizeof what, "par a=%g b=a*k/2048", as[j]);
        run(what, t256, n);
    }
    // b swept at every 10-bit step of its own mantissa, a = 16: b = 2^(e)(1 + m/1024)
    n = 0;
    for (int k = 0; k < 4096; k++) {
        float b = ldexpf(1.0f + (k & 1023) / 1024.0f, (k >> 10));
        hq[n++] = make_float4(16 * S, b * S, 16 * S, b * S);
    }
    run("par a=16 b=2^(k/1024)(1+(k%1024)/1024)", t256, n);
    // through the difference: dy = -dx
    n = 0;
    for (int k = 0; k < 2048; k++) {
        float b = 21.0f * k / 2048.0f;
        hq[n++] = make_float4(21 * S, b * S, -21 * S, -b * S);
    }
    run("anti a=21 b=a*k/2048", t256, n);
    // 3/4 parallel: dy = 3/4 dx, the sum 7/4 dx (its cut), single lengths smaller
    n = 0;
    for (int k = 0; k < 2048; k++) {
        float a = ldexpf(1.0f + (k & 1023) / 1024.0f, 3 + (k >> 10));
        float b = a * ((k * 7) % 1024) / 1024.0f;
        hq[n++] = make_float4(a * S, b * S, 0.75f * a * S, 0.75f * b * S);
    }
    run("par3/4 a=2^(3+k/1024)(1+(k%1024)/1024) b=a*(7k%1024)/1024 dy=3/4dx", t256, n);

    // sides that are not powers of two: single gradients a / side, a = 2 (1 + k/2048)
    const int sides[3][2] = {{40, 24}, {48, 40}, {256, 256}};
    for (int s = 0; s < 3; s++) {
        int w = sides[s][0], h = sides[s][1];
        int nl = 1;
        while ((w >> nl) || (h >> nl)) nl++;
        cudaTextureObject_t t = mipTex(levels(w, h, nl), nl - 1);
        for (int axis = 0; axis < 2; axis++) {
            n = 0;
            for (int k = 0; k < 2048; k++) {
                float a = 2.0f * (1.0f + k / 2048.0f);
                hq[n++] = axis ? make_float4(0, a / h, 0, 0) : make_float4(a / w, 0, 0, 0);
            }
            char what[96];
            snprintf(what, sizeof what, "side %dx%d axis %d a=2(1+k/2048)", w, h, axis);
            run(what, t, n);
        }
        // the float nearest a/side is not a/side: lengths 1 + k/64 texels
        n = 0;
        for (int k = 0; k < 2048; k++) {
            float a = (float)(64 + k) / (float)(64 * w);
            hq[n++] = make_float4(a, 0, 0, 0);
        }
        char what[96];
        snprintf(what, sizeof what, "side %dx%d axis 0 g=(64+k)/(64*%d)", w, h, w);
        run(what, t, n);
        if (s == 0) {
            // parallel pairs on 40x24: sum (2a/40, 2b/24)
            n = 0;
            for (int k = 0; k < 2048; k++) {
                float a = 4.0f, b = 4.0f * k / 2048.0f;
                hq[n++] = make_float4(a / w, b / h, a / w, b / h);
            }
            run("side 40x24 par a=4 b=a*k/2048", t, n);
        }
    }
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
