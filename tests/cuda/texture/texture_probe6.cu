// Not a test: where exactly tex2DGrad's level of detail steps when one normalized
// gradient component g is scaled by a texture side that is not a power of two.
// For each texture (w x h, the gradient along x or y, dy = 0) and each length
// L = 2^e (1 + j/256) texels (a step of the unit's log2 table, L on the 10-bit grid),
// one thread scans the 2W + 1 floats g around g0 = L / side (rounded), one unit in the
// last place at a time, reading the level of detail at 1/256 (levels holding their own
// index, linear filtering between levels), and reports the level at both ends, how many
// times it changed and the first and last offsets (in units in the last place from g0)
// where it changed. With one change, the first float g at which the GPU's scaled length
// reaches L is g0's bits plus that offset: the scaling's threshold, to the last bit.
// Prints "scan <w> <h> <axis> <e> <j> <g0 bits> <v_lo> <v_hi> <changes> <first> <last>".
#include "common_tex.h"
#include <cmath>

enum { W = 16384 };

__global__ void scan(cudaTextureObject_t t, int axis, float side, int ne, int4 *out, int *first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ne * 256) return;
    int e = i / 256, j = i % 256;
    float L = ldexpf(1.0f + j / 256.0f, e);
    float g0 = __fdiv_rn(L, side);
    int ig0 = __float_as_int(g0);
    int vlo = 0, prev = 0, nch = 0, kf = 0, kl = 0;
    for (int k = -W; k <= W; k++) {
        float g = __int_as_float(ig0 + k);
        float2 dx = axis ? make_float2(0.0f, g) : make_float2(g, 0.0f);
        float v = tex2DGrad<float>(t, 0.5f, 0.5f, dx, make_float2(0.0f, 0.0f));
        int q = __float2int_rn(v * 256.0f);
        if (k == -W) vlo = q;
        else if (q != prev) {
            if (!nch) kf = k;
            kl = k;
            nch++;
        }
        prev = q;
    }
    out[i] = make_int4(ig0, vlo, prev, nch);
    first[2 * i] = kf;
    first[2 * i + 1] = kl;
}

static int levels_of(int w, int h)
{
    int n = 1;
    while ((w >> n) || (h >> n)) n++;
    return n;
}

static cudaTextureObject_t mipTex(int w, int h, cudaMipmappedArray_t *mmo)
{
    int n = levels_of(w, h);
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
    *mmo = mm;
    return t;
}

static void run(int w, int h, int axis)
{
    int side = axis ? h : w;
    int n = levels_of(w, h);
    int ne = n - 1 < 3 ? n - 1 : 3; // lengths 1 to 2^ne: levels 0 to ne
    if (ne < 1) return;
    cudaMipmappedArray_t mm;
    cudaTextureObject_t t = mipTex(w, h, &mm);
    int4 *d4, *h4 = (int4 *)malloc(ne * 256 * sizeof(int4));
    int *df, *hf = (int *)malloc(ne * 512 * sizeof(int));
    CHECK(cudaMalloc(&d4, ne * 256 * sizeof(int4)));
    CHECK(cudaMalloc(&df, ne * 512 * sizeof(int)));
    scan<<<(ne * 256 + 127) / 128, 128>>>(t, axis, (float)side, ne, d4, df);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h4, d4, ne * 256 * sizeof(int4), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hf, df, ne * 512 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < ne * 256; i++)
        printf("scan %d %d %d %d %d %08x %d %d %d %d %d\n", w, h, axis, i / 256, i % 256,
               (unsigned)h4[i].x, h4[i].y, h4[i].z, h4[i].w, hf[2 * i], hf[2 * i + 1]);
    CHECK(cudaFree(d4));
    CHECK(cudaFree(df));
    free(h4);
    free(hf);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeMipmappedArray(mm));
}

int main()
{
    static const int sides[] = {3, 5, 6, 7, 9, 10, 11, 12, 13, 15, 17, 20, 24, 25, 33, 40,
                                48, 56, 80, 96, 100, 127, 129, 200, 255, 256, 257, 1000, 1025};
    for (unsigned s = 0; s < sizeof sides / sizeof sides[0]; s++) run(sides[s], sides[s], 0);
    run(40, 24, 0);
    run(40, 24, 1);
    run(24, 40, 0);
    run(24, 40, 1);
    run(48, 40, 1);
    run(7, 40, 1);
    CHECK(cudaDeviceSynchronize());
    return 0;
}
