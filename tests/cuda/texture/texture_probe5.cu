// Not a test: probes that pin single terms of tex2DGrad's level of detail to within
// 2^-14 or so, read back at 1/256 as texture_lod does (levels holding their own index,
// linear filtering between levels). Each sweep holds one term fixed and moves a small
// second one finely; where the level steps tells the fixed term's value.
//  - "sum": dx = (p, s), dy = (q, s) in texels on 256x256, q / p in [1/2, 1]: the sum
//    (p + q, 2s) decides, 11/16 of p + q fixed, s = (p + q) / 128 * k / 1024 moving it;
//    pairs p, q of 10 significant bits chosen at random, then chosen ones;
//  - "dif": dx = (p, s), dy = (-q, -s): the same through the difference;
//  - "sumy": the components swapped (dx = (s, p), dy = (s, q));
//  - "scale": one normalized gradient (g, h) on a w x h texture (dy = 0): g x w fixed,
//    h x height moving it by 11/32 of itself: how g is scaled by a side that is not a
//    power of two, for lengths 2 (1 + j/256) on sides 40, 48 and 24 (and 32 for reference).
// Prints lod * 256, 1024 values per pair or gradient.
#include "common_tex.h"
#include <cmath>
#include <cstdint>

__global__ void grad2D(cudaTextureObject_t t, const float4 *g, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}

static cudaTextureObject_t mipTex(int w, int h)
{
    int n = 1;
    while ((w >> n) || (h >> n)) n++;
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
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = mm;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.normalizedCoords = 1;
    td.filterMode = cudaFilterModePoint;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.maxMipmapLevelClamp = (float)(n - 1);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd()
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
// a value of 10 significant bits in [2^lo, 2^hi)
static float mag10(int lo, int hi)
{
    int e = lo + (int)(rnd() % (unsigned)(hi - lo));
    return ldexpf(1.0f + (rnd() % 512) / 512.0f, e);
}

enum { PER = 1024, MAXN = 64 * PER };
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
    cudaTextureObject_t t256 = mipTex(256, 256);
    char what[160];
    // chosen pairs first: the sweeps that disagreed with the model
    const float chosen[8][2] = {{17, 12.75f}, {31.875f, 31.875f}, {4, 1.8359375f}, {16, 16.0625f},
                                {16, 16.25f}, {2.9296875f, 2.16796875f}, {8, 5.5f}, {23, 17.25f}};
    for (int kind = 0; kind < 3; kind++) {
        for (int batch = 0; batch < (kind ? 1 : 4); batch++) {
            int n = 0, np = 0;
            char list[64 * 40] = "";
            while (n < MAXN) {
                float p, q;
                if (kind == 0 && batch == 0 && np < 8) { p = chosen[np][0]; q = chosen[np][1]; }
                else { p = mag10(1, 6); q = p * (0.5f + (rnd() % 1024) / 2048.0f); q = ldexpf(floorf(ldexpf(q, 9 - (int)floorf(log2f(q)))), (int)floorf(log2f(q)) - 9); }
                float c0 = p + q;
                for (int k = 0; k < PER; k++) {
                    float s = c0 / 128 * k / 1024;
                    hq[n++] = kind == 0 ? make_float4(p * S, s * S, q * S, s * S)
                            : kind == 1 ? make_float4(p * S, s * S, -q * S, -s * S)
                                        : make_float4(s * S, p * S, s * S, q * S);
                }
                snprintf(list + strlen(list), sizeof list - strlen(list), " %a,%a", p, q);
                np++;
            }
            snprintf(what, sizeof what, "%s batch %d, s=(p+q)/128*k/1024, %d pairs p,q:", kind == 0 ? "sum" : kind == 1 ? "dif" : "sumy", batch, np);
            printf("%s%s\n", what, list);
            run(kind == 0 ? "sum" : kind == 1 ? "dif" : "sumy", t256, n);
        }
    }
    // scaled single gradients: (g, hh) on w x h, g = L / w, L = 2 (1 + j/256);
    // hh x h = L / 16 * k / 1024 (11/32 of it moves the length by up to L/47)
    const int sides[4][2] = {{40, 24}, {48, 40}, {24, 40}, {32, 32}};
    for (int si = 0; si < 4; si++) {
        int w = sides[si][0], h = sides[si][1];
        cudaTextureObject_t t = mipTex(w, h);
        for (int part = 0; part < 4; part++) {
            int n = 0;
            for (int j = part * 64; j < part * 64 + 64; j++) {
                float L = 2.0f * (1.0f + j / 256.0f), g = L / (float)w;
                for (int k = 0; k < PER; k++) {
                    float hh = L / 16 * k / 1024 / (float)h;
                    hq[n++] = make_float4(g, hh, 0, 0);
                }
            }
            snprintf(what, sizeof what, "scale %dx%d g=2(1+j/256)/%d j=%d..%d h*%d=L/16*k/1024", w, h, w, part * 64, part * 64 + 63, h);
            run(what, t, n);
        }
    }
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
