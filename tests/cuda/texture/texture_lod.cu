// The level of detail the texture unit derives from tex1DGrad, tex2DGrad and tex3DGrad
// gradients, read back at 1/256 resolution: every level of a mipmapped float array holds
// its own index, so with linear filtering between levels a lookup returns level + weight,
// the weight being the level of detail's fraction in 256ths. The sweeps: 2D gradient pairs
// of random length, direction and sign (some parallel, some with cut bits); pairs chosen
// where the rounding of the length's 11/32 product or of the combined term's 11/16 decides
// the result; 1D and 3D gradients; a texture whose sides are not powers of two; a level
// bias with level clamps; point filtering between levels. With -DANISO, the same random
// pairs under maxAnisotropy 2, 4 and 16 (recorded, not compared). Prints lod * 256.
#include "lod_common.h"

// The same with a 10-bit significand (what the unit keeps, so no bits are cut).
static float mag10(int lo, int hi)
{
    float v = ldexpf(1.0f + (rnd() & 511) / 512.0f, lo + (int)(rnd() % (unsigned)(hi - lo)));
    return rnd() & 1 ? -v : v;
}

// The candidate rules, to pick pairs they disagree on: x rounded to bits below ref's
// exponent, a tie going up (0), to even (1) or down (2).
static double round_below(double x, double ref, int bits, int tie)
{
    if (x == 0) return 0;
    int e;
    frexp(ref, &e);
    double v = ldexp(x, bits - e), f = floor(v), r = v - f;
    if (r > 0.5 || (r == 0.5 && (tie == 0 || (tie == 1 && fmod(f, 2) != 0)))) f += 1;
    return ldexp(f, e - bits);
}
static double cut10(double x)
{
    if (x == 0) return 0;
    int e;
    double m = frexp(x, &e);
    return ldexp(trunc(ldexp(m, 10)), e - 10);
}
static double len2(double a, double b, int tie)
{
    a = fabs(a); b = fabs(b);
    if (a < b) { double t = a; a = b; b = t; }
    return a + round_below(b * 11 / 32, b, 12, tie);
}
// The footprint's exponent and top 8 mantissa bits under tie rules t1 (11/32) and t2 (11/16).
static int key(const float *g, int t1, int t2)
{
    double d[4];
    for (int k = 0; k < 4; k++) d[k] = cut10(g[k]);
    double r = fmax(len2(d[0], d[1], t1), len2(d[2], d[3], t1));
    for (int s = -1; s <= 1; s += 2) {
        double l = len2(cut10(d[0] + s * d[2]), cut10(d[1] + s * d[3]), t1);
        r = fmax(r, round_below(l * 11 / 16, l, 11, t2));
    }
    int e;
    double m = frexp(r, &e);
    return e * 256 + (int)(ldexp(m, 9) - 256);
}

enum { MAXN = 8192 };
static float4 hq[2 * MAXN];
static float hf[MAXN];
static float4 *dq;
static float *df;

static void run2D(const char *what, cudaTextureObject_t t, int n)
{
    CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
    grad2D<<<(n + 255) / 256, 256>>>(t, dq, df, n);
    CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
    show(what, hf, n);
}

int main()
{
    rng = 0x9e3779b97f4a7c15ull;
    CHECK(cudaMalloc(&dq, 2 * MAXN * sizeof(float4)));
    CHECK(cudaMalloc(&df, MAXN * sizeof(float)));
    const float S = 1.0f / 256;  // texels to normalized coordinates of the 256x256 array
    cudaMipmappedArray_t m2 = levels(256, 256, 0, 9);
    cudaTextureObject_t tl = mipTex(m2, cudaFilterModeLinear, 0, 0, 8, 0);

    // random pairs: lengths 1/2 to 128 texels, any direction and sign; a quarter nearly
    // parallel (dy = t dx plus a little), so that the combined term decides
    int n = 0;
    for (int i = 0; i < 4096; i++) {
        float ax = mag(-1, 7), ay = mag(-1, 7), bx, by;
        if (i % 4 == 3) {
            float t = (unit() * 2 - 1) * 1.5f;
            bx = ax * t + mag(-4, 0); by = ay * t + mag(-4, 0);
        } else {
            bx = mag(-1, 7); by = mag(-1, 7);
        }
        if (i % 16 == 5) ay = 0;
        if (i % 16 == 9) by = 0;
        hq[n++] = make_float4(ax * S, ay * S, bx * S, by * S);
    }
    run2D("2D random pairs", tl, n);
#ifndef ANISO
    // pairs of 10-bit components where the candidate tie rules disagree: of the 11/32
    // product (up, even, down), then of the combined term's 11/16
    for (int which = 0; which < 2; which++) {
        n = 0;
        for (int tries = 0; tries < 4000000 && n < 1024; tries++) {
            float g[4];
            g[0] = mag10(0, 7); g[1] = mag10(0, 7);
            if (which) {
                float t = (unit() * 2 - 1) * 1.5f;
                g[2] = (float)cut10(g[0] * t); g[3] = (float)cut10(g[1] * t);
            } else {
                g[2] = mag10(-2, 5); g[3] = mag10(-2, 5);
            }
            int k0 = key(g, 0, 0);
            int k1 = which ? key(g, 0, 1) : key(g, 1, 0);
            int k2 = which ? key(g, 0, 2) : key(g, 2, 0);
            if (k0 == k1 && k1 == k2) continue;
            hq[n++] = make_float4(g[0] * S, g[1] * S, g[2] * S, g[3] * S);
        }
        run2D(which ? "2D pairs at a tie of 11/16" : "2D pairs at a tie of 11/32", tl, n);
    }
    // point filtering between levels, and a bias with level clamps
    n = 0;
    for (int i = 0; i < 1024; i++) hq[n++] = make_float4(mag(-1, 7) * S, mag(-1, 7) * S, mag(-1, 7) * S, mag(-1, 7) * S);
    run2D("2D point between levels", mipTex(m2, cudaFilterModePoint, 0, 0, 8, 0), n);
    run2D("2D bias 0.3 clamps 0.7..4.6", mipTex(m2, cudaFilterModeLinear, 0.3f, 0.7f, 4.6f, 0), n);
    run2D("2D bias -1.37 clamps 0..8", mipTex(m2, cudaFilterModeLinear, -1.37f, 0, 8, 0), n);

    // sides that are not powers of two: 40x24 (6 levels), gradients of 1/2 to 32 texels
    {
        cudaMipmappedArray_t mn = levels(40, 24, 0, 6);
        n = 0;
        for (int i = 0; i < 1024; i++)
            hq[n++] = make_float4(mag(-1, 5) / 40, mag(-1, 5) / 24, mag(-1, 5) / 40, mag(-1, 5) / 24);
        run2D("2D 40x24", mipTex(mn, cudaFilterModeLinear, 0, 0, 5, 0), n);
    }
    // 1D: a 1024-texel mipmapped array (11 levels)
    {
        cudaMipmappedArray_t m1 = levels(1024, 0, 0, 11);
        n = 0;
        for (int i = 0; i < 1024; i++) hq[n++] = make_float4(mag(-1, 10) / 1024, mag(-1, 10) / 1024, 0, 0);
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        grad1D<<<(n + 255) / 256, 256>>>(mipTex(m1, cudaFilterModeLinear, 0, 0, 10, 0), dq, df, n);
        CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
        show("1D", hf, n);
    }
    // 3D: 64x64x64 (7 levels), random gradients, some with a zero or a dominant component
    {
        cudaMipmappedArray_t m3 = levels(64, 64, 64, 7);
        n = 0;
        for (int i = 0; i < 2048; i++) {
            float g[6];
            for (int k = 0; k < 6; k++) g[k] = mag(-1, 6);
            if (i % 8 == 1) g[2] = g[5] = 0;
            if (i % 8 == 2) g[0] = g[3] = 0;
            if (i % 8 == 3) { g[2] *= 8; g[5] *= 8; }
            if (i % 8 == 4) { g[3] = g[0] * 0.75f; g[4] = g[1] * 0.75f; g[5] = g[2] * 0.75f; }
            hq[2 * i] = make_float4(g[0] / 64, g[1] / 64, g[2] / 64, 0);
            hq[2 * i + 1] = make_float4(g[3] / 64, g[4] / 64, g[5] / 64, 0);
            n++;
        }
        CHECK(cudaMemcpy(dq, hq, 2 * n * sizeof(float4), cudaMemcpyHostToDevice));
        grad3D<<<(n + 255) / 256, 256>>>(mipTex(m3, cudaFilterModeLinear, 0, 0, 6, 0), dq, df, n);
        CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
        show("3D", hf, n);
    }
#else
    const int an[3] = {2, 4, 16};
    for (int k = 0; k < 3; k++) {
        char what[64];
        snprintf(what, sizeof what, "2D random pairs, maxAnisotropy %d", an[k]);
        run2D(what, mipTex(m2, cudaFilterModeLinear, 0, 0, 8, an[k]), 4096);
    }
#endif
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
