// Corner cases of the texture unit's arithmetic, printed as bit patterns: bilinear and
// trilinear weights whose products fall on a half (the tie rule of the corners'
// weights), half-float blends on a tie, signed and unsigned 8-bit normalized blends
// (unnormalized, and normalized coordinates in wrap and mirror), the level of detail from
// tex2DGrad gradients (axis-aligned, diagonal, dx against dy) with point and linear
// mipmap filtering, trilinear lookups of varied texels, mipmapped layered, 3D and
// cube-map textures, and tex2Dgather of every channel of 8-bit, 16-bit and integer
// textures.
//
// Built with -DALL it is the program the GPU ran; without, it leaves out what vcuda does
// not yet reproduce exactly (the diagonal gradients, whose level of detail differs in the
// last bit for some), and its expectation is the recording with those values cut out
// (see README.md).
#include "common_tex.h"
#include <cuda_fp16.h>

#ifdef ALL
#define DIAGONALS 256
#else
#define DIAGONALS 0
#endif

__global__ void at1D(cudaTextureObject_t t, const float *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, p[i]);
}

__global__ void at2D(cudaTextureObject_t t, const float4 *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, p[i].x, p[i].y);
}

__global__ void at3D(cudaTextureObject_t t, const float4 *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, p[i].x, p[i].y, p[i].z);
}

__global__ void lod2D(cudaTextureObject_t t, const float4 *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLod<float>(t, p[i].x, p[i].y, p[i].z);
}

__global__ void grad2D(cudaTextureObject_t t, const float4 *g, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(t, 0.3f, 0.6f, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}

__global__ void mipShapes(cudaTextureObject_t tl, cudaTextureObject_t t3, cudaTextureObject_t tc,
                          const float4 *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[3 * i + 0] = tex2DLayeredLod<float>(tl, p[i].x, p[i].y, i % 3, p[i].w);
        out[3 * i + 1] = tex3DLod<float>(t3, p[i].x, p[i].y, p[i].z, p[i].w);
        out[3 * i + 2] = texCubemapLod<float>(tc, p[i].x * 2 - 1, p[i].y * 2 - 1, p[i].z * 2 - 1, p[i].w);
    }
}

__global__ void gatherF(cudaTextureObject_t t, const float4 *p, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = tex2Dgather<float4>(t, p[i].x, p[i].y, 0);
        out[4 * i + 1] = tex2Dgather<float4>(t, p[i].x, p[i].y, 1);
        out[4 * i + 2] = tex2Dgather<float4>(t, p[i].x, p[i].y, 2);
        out[4 * i + 3] = tex2Dgather<float4>(t, p[i].x, p[i].y, 3);
    }
}

__global__ void gatherI(cudaTextureObject_t t, const float4 *p, int4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = tex2Dgather<int4>(t, p[i].x, p[i].y, 0);
        out[4 * i + 1] = tex2Dgather<int4>(t, p[i].x, p[i].y, 1);
        out[4 * i + 2] = tex2Dgather<int4>(t, p[i].x, p[i].y, 2);
        out[4 * i + 3] = tex2Dgather<int4>(t, p[i].x, p[i].y, 3);
    }
}

static void dumpw(const char *what, const void *v, int n)
{
    const unsigned *u = (const unsigned *)v;
    printf("%s (%d):", what, n);
    for (int i = 0; i < n; i++) printf("%s%08x", i % 16 ? " " : "\n  ", u[i]);
    printf("\n");
}

static cudaTextureObject_t arrTex(cudaArray_t a, cudaTextureAddressMode m, bool norm, cudaTextureFilterMode f,
                                  cudaTextureReadMode rm = cudaReadModeElementType)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = m;
    td.filterMode = f;
    td.readMode = rm;
    td.normalizedCoords = norm;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
}

static cudaTextureObject_t mipTex(cudaMipmappedArray_t mm, cudaTextureFilterMode f, cudaTextureFilterMode mf, float maxl)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = mm;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.normalizedCoords = 1;
    td.filterMode = f;
    td.mipmapFilterMode = mf;
    td.maxMipmapLevelClamp = maxl;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
}

static void fillLevels(cudaMipmappedArray_t mm, int levels, int w0, int h0, int d0, int slices)
{
    for (int L = 0; L < levels; L++) {
        cudaArray_t lev;
        CHECK(cudaGetMipmappedArrayLevel(&lev, mm, L));
        int w = w0 >> L ? w0 >> L : 1, h = h0 >> L ? h0 >> L : 1, d = d0 ? (d0 >> L ? d0 >> L : 1) : slices;
        float *v = (float *)malloc((size_t)w * h * d * sizeof(float));
        for (int z = 0; z < d; z++) for (int y = 0; y < h; y++) for (int x = 0; x < w; x++)
            v[(z * h + y) * w + x] = L * 100 + z * 37 + y * 10 + x + (x * y % 5) * 0.25f;
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(v, w * sizeof(float), w, h);
        p.dstArray = lev;
        p.extent = make_cudaExtent(w, h, d);
        p.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&p));
        free(v);
    }
}

int main()
{
    const int MAXN = 4096;
    float *hp = (float *)malloc(MAXN * sizeof(float)), *dp1, *hf = (float *)malloc(4 * MAXN * sizeof(float)), *df;
    float4 *hq = (float4 *)malloc(MAXN * sizeof(float4)), *dq, *h4 = (float4 *)malloc(4 * MAXN * sizeof(float4)), *d4;
    CHECK(cudaMalloc(&dp1, MAXN * sizeof(float)));
    CHECK(cudaMalloc(&df, 4 * MAXN * sizeof(float)));
    CHECK(cudaMalloc(&dq, MAXN * sizeof(float4)));
    CHECK(cudaMalloc(&d4, 4 * MAXN * sizeof(float4)));
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();

    // 2D float, weights wx = k/256 and wy in {64, 128, 192, 96, 160}: products on halves
    {
        const int W = 4, H = 4;
        float v[H][W];
        for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) v[y][x] = (float)((x * 5 + y * 11) % 7) - 2.5f + x * 0.125f;
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &fd, W, H));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, v, W * 4, W * 4, H, cudaMemcpyHostToDevice));
        const int wy[5] = {64, 128, 192, 96, 160};
        int n = 0;
        for (int j = 0; j < 5; j++) for (int k = 1; k < 256; k += 3) hq[n++] = make_float4(1.5f + k / 256.0f, 1.5f + wy[j] / 256.0f, 0, 0);
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        at2D<<<(n + 255) / 256, 256>>>(arrTex(a, cudaAddressModeClamp, false, cudaFilterModeLinear), dq, df, n);
        CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
        dumpw("2D float ties x=1.5+k/256 (k=1,4,..) y=1.5+{64,128,192,96,160}/256", hf, n);
    }
    // 3D float, weights on halves in each pair of axes
    {
        const int W = 3;
        float v[W][W][W];
        for (int z = 0; z < W; z++) for (int y = 0; y < W; y++) for (int x = 0; x < W; x++) v[z][y][x] = (float)((x * 7 + y * 3 + z * 5) % 11) - 4.0f;
        cudaArray_t a;
        CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(W, W, W)));
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(v, W * 4, W, W);
        p.dstArray = a;
        p.extent = make_cudaExtent(W, W, W);
        p.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&p));
        int n = 0;
        for (int i = 0; i < 512; i++)
            hq[n++] = make_float4(0.5f + ((i * 37) % 256) / 256.0f, 0.5f + (64 * (i % 4) + 32 * (i / 4 % 2)) / 256.0f,
                                  1.5f + ((i * 91) % 256) / 256.0f, 0);
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        at3D<<<(n + 255) / 256, 256>>>(arrTex(a, cudaAddressModeClamp, false, cudaFilterModeLinear), dq, df, n);
        CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
        dumpw("3D float x=0.5+(i*37%256)/256 y=0.5+(64*(i%4)+32*(i/4%2))/256 z=1.5+(i*91%256)/256", hf, n);
    }
    // half floats blended onto ties
    {
        __half hv[4] = {__float2half(-1.2998046875f), __float2half(1.2900390625f), __float2half(-0.18994140625f), __float2half(2.400390625f)};
        cudaChannelFormatDesc hd = cudaCreateChannelDescHalf();
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &hd, 4));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, hv, 8, 8, 1, cudaMemcpyHostToDevice));
        int n = 0;
        for (int k = 0; k < 768; k++) hp[n++] = 0.5f + k / 256.0f;
        CHECK(cudaMemcpy(dp1, hp, n * sizeof(float), cudaMemcpyHostToDevice));
        at1D<<<(n + 255) / 256, 256>>>(arrTex(a, cudaAddressModeClamp, false, cudaFilterModeLinear), dp1, df, n);
        CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
        dumpw("half 1D x=0.5+k/256", hf, n);
    }
    // 8-bit normalized: signed and unsigned, 1D unnormalized at every weight, and
    // normalized coordinates in wrap and mirror
    for (int sgn = 0; sgn < 2; sgn++) {
        const int W = 9;
        signed char sv[W] = {-128, -127, -100, -3, 0, 1, 5, 77, 127};
        unsigned char uv[W] = {0, 1, 2, 100, 127, 128, 200, 254, 255};
        cudaChannelFormatDesc cd = sgn ? cudaCreateChannelDesc<signed char>() : cudaCreateChannelDesc<unsigned char>();
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &cd, W));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, sgn ? (void *)sv : (void *)uv, W, W, 1, cudaMemcpyHostToDevice));
        int n = 0;
        for (int k = 0; k < 8 * 256; k += 3) hp[n++] = 0.5f + k / 256.0f;
        CHECK(cudaMemcpy(dp1, hp, n * sizeof(float), cudaMemcpyHostToDevice));
        at1D<<<(n + 255) / 256, 256>>>(arrTex(a, cudaAddressModeClamp, false, cudaFilterModeLinear, cudaReadModeNormalizedFloat), dp1, df, n);
        CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
        dumpw(sgn ? "s8 1D x=0.5+k/256 (k=0,3,..)" : "u8 1D x=0.5+k/256 (k=0,3,..)", hf, n);
        n = 0;
        for (int k = 0; k < 1024; k++) hp[n++] = -1.5f + k * 3.0f / 1024;
        CHECK(cudaMemcpy(dp1, hp, n * sizeof(float), cudaMemcpyHostToDevice));
        for (int m = 0; m < 2; m++) {
            at1D<<<(n + 255) / 256, 256>>>(arrTex(a, m ? cudaAddressModeMirror : cudaAddressModeWrap, true, cudaFilterModeLinear, cudaReadModeNormalizedFloat), dp1, df, n);
            CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
            char name[64];
            snprintf(name, sizeof name, "%s 1D normalized %s u=-1.5+k*3/1024", sgn ? "s8" : "u8", m ? "mirror" : "wrap");
            dumpw(name, hf, n);
        }
    }
    // levels of detail from gradients: 32x16 float mipmap (6 levels, texels vary)
    cudaMipmappedArray_t mm;
    CHECK(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(32, 16, 0), 6));
    fillLevels(mm, 6, 32, 16, 0, 1);
    {
        int n = 0;
        for (int k = 0; k < 256; k++) {      // axis-aligned, dx along x
            float s = ldexpf(1.0f + (k % 64) / 64.0f, k / 64 - 5);
            hq[n++] = make_float4(s, 0, 0, s * 0.25f);
        }
        for (int k = 0; k < 256; k++) {      // dy along y dominates
            float s = ldexpf(1.0f + (k % 64) / 64.0f, k / 64 - 4);
            hq[n++] = make_float4(s * 0.125f, 0, 0, s);
        }
        for (int k = 0; k < DIAGONALS; k++) {  // diagonal and rotated pairs
            float s = ldexpf(1.0f, k / 64 - 4), a = (k % 8) / 7.0f, b = (k / 8 % 8) / 7.0f;
            hq[n++] = make_float4(s * a, s * b, -s * b * 0.7f, s * a * 0.7f);
        }
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        for (int v = 0; v < 3; v++) {
            cudaTextureObject_t t = mipTex(mm, v == 2 ? cudaFilterModeLinear : cudaFilterModePoint,
                                           v ? cudaFilterModeLinear : cudaFilterModePoint, 5);
            grad2D<<<(n + 255) / 256, 256>>>(t, dq, df, n);
            CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
            dumpw(v == 0 ? "grad point/point" : v == 1 ? "grad point/linear" : "grad linear/linear", hf, n);
        }
        n = 0;
        for (int i = 0; i < 512; i++)
            hq[n++] = make_float4((i * 211 % 1000) / 1000.0f, (i * 307 % 1000) / 1000.0f, (i * 89 % 6000) / 1000.0f - 0.5f, 0);
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        lod2D<<<(n + 255) / 256, 256>>>(mipTex(mm, cudaFilterModeLinear, cudaFilterModeLinear, 5), dq, df, n);
        CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
        dumpw("trilinear u=(i*211%1000)/1000 v=(i*307%1000)/1000 l=(i*89%6000)/1000-0.5", hf, n);
    }
    // mipmapped layered (8x8, 3 layers), 3D (8x8x8) and cube-map (8x8) textures, 4 levels
    {
        cudaMipmappedArray_t ml, m3, mc;
        CHECK(cudaMallocMipmappedArray(&ml, &fd, make_cudaExtent(8, 8, 3), 4, cudaArrayLayered));
        CHECK(cudaMallocMipmappedArray(&m3, &fd, make_cudaExtent(8, 8, 8), 4));
        CHECK(cudaMallocMipmappedArray(&mc, &fd, make_cudaExtent(8, 8, 6), 4, cudaArrayCubemap));
        fillLevels(ml, 4, 8, 8, 0, 3);
        fillLevels(m3, 4, 8, 8, 8, 0);
        fillLevels(mc, 4, 8, 8, 0, 6);
        int n = 0;
        for (int i = 0; i < 128; i++)
            hq[n++] = make_float4((i * 211 % 1000) / 1000.0f, (i * 307 % 1000) / 1000.0f, (i * 401 % 1000) / 1000.0f, (i * 89 % 4000) / 1000.0f);
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        for (int f = 0; f < 2; f++) {
            cudaTextureFilterMode fm = f ? cudaFilterModeLinear : cudaFilterModePoint;
            mipShapes<<<1, n>>>(mipTex(ml, fm, fm, 3), mipTex(m3, fm, fm, 3), mipTex(mc, fm, fm, 3), dq, df, n);
            CHECK(cudaMemcpy(hf, df, 3 * n * sizeof(float), cudaMemcpyDeviceToHost));
            dumpw(f ? "layered/3D/cube lod linear" : "layered/3D/cube lod point", hf, 3 * n);
        }
    }
    // gathers of every channel
    {
        const int W = 7, H = 5;
        uchar4 u4[H][W];
        short2 s2[H][W];
        int4 i4[H][W];
        for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) {
            u4[y][x] = make_uchar4(x * 31 + y, y * 47 + x, 255 - x * y, (x + y) * 13);
            s2[y][x] = make_short2((short)(x * 4001 - y * 777), (short)(-x * 123 + y * 9000));
            i4[y][x] = make_int4(x + 10 * y, -x * 100000 - y, x * y * 7, 1 << (x + y));
        }
        cudaChannelFormatDesc cu4 = cudaCreateChannelDesc<uchar4>(), cs2 = cudaCreateChannelDesc<short2>(),
                              ci4 = cudaCreateChannelDesc<int4>();
        cudaArray_t au, as, ai;
        CHECK(cudaMallocArray(&au, &cu4, W, H, cudaArrayTextureGather));
        CHECK(cudaMallocArray(&as, &cs2, W, H, cudaArrayTextureGather));
        CHECK(cudaMallocArray(&ai, &ci4, W, H, cudaArrayTextureGather));
        CHECK(cudaMemcpy2DToArray(au, 0, 0, u4, W * 4, W * 4, H, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy2DToArray(as, 0, 0, s2, W * 4, W * 4, H, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy2DToArray(ai, 0, 0, i4, W * 16, W * 16, H, cudaMemcpyHostToDevice));
        int n = 16;
        for (int i = 0; i < n; i++) hq[i] = make_float4((i * 37 % 100) / 100.0f * 9 - 1, (i * 61 % 100) / 100.0f * 7 - 1, 0, 0);
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        const cudaTextureAddressMode ms[2] = {cudaAddressModeClamp, cudaAddressModeBorder};
        for (int m = 0; m < 2; m++) {
            char name[96];
            gatherF<<<1, n>>>(arrTex(au, ms[m], false, cudaFilterModePoint, cudaReadModeNormalizedFloat), dq, d4, n);
            CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
            snprintf(name, sizeof name, "gather uchar4 normalized %s", m ? "border" : "clamp");
            dumpw(name, h4, 16 * n);
            gatherI<<<1, n>>>(arrTex(au, ms[m], false, cudaFilterModePoint), dq, (int4 *)d4, n);
            CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
            snprintf(name, sizeof name, "gather uchar4 element %s", m ? "border" : "clamp");
            dumpw(name, h4, 16 * n);
            gatherF<<<1, n>>>(arrTex(as, ms[m], false, cudaFilterModePoint, cudaReadModeNormalizedFloat), dq, d4, n);
            CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
            snprintf(name, sizeof name, "gather short2 normalized %s", m ? "border" : "clamp");
            dumpw(name, h4, 16 * n);
            gatherI<<<1, n>>>(arrTex(ai, ms[m], false, cudaFilterModePoint), dq, (int4 *)d4, n);
            CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
            snprintf(name, sizeof name, "gather int4 element %s", m ? "border" : "clamp");
            dumpw(name, h4, 16 * n);
        }
        for (int i = 0; i < n; i++) hq[i] = make_float4((i * 37 % 100) / 100.0f * 3 - 1, (i * 61 % 100) / 100.0f * 3 - 1, 0, 0);
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        gatherF<<<1, n>>>(arrTex(au, cudaAddressModeWrap, true, cudaFilterModePoint, cudaReadModeNormalizedFloat), dq, d4, n);
        CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
        dumpw("gather uchar4 normalized wrap, normalized coordinates", h4, 16 * n);
        gatherF<<<1, n>>>(arrTex(au, cudaAddressModeMirror, true, cudaFilterModePoint, cudaReadModeNormalizedFloat), dq, d4, n);
        CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
        dumpw("gather uchar4 normalized mirror, normalized coordinates", h4, 16 * n);
    }
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
