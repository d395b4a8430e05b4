// Layered, cube-map, gather and mipmapped textures: tex1DLayered / tex2DLayered (point),
// texCubemap and texCubemapLayered at directions on every face and near edges,
// tex2Dgather of each component (with clamp and wrap), a mipmapped array filled level by
// level through cudaGetMipmappedArrayLevel and read with tex2DLod (point and linear
// mipmap filtering, clamped level ranges) and tex2DGrad, and the
// errors of bad layered and cube-map requests.
#include "common_tex.h"

__global__ void layered1D(cudaTextureObject_t t, float *out)
{
    int i = threadIdx.x;
    out[i] = tex1DLayered<float>(t, (i % 8) - 0.5f, i / 8 - 1);
}

__global__ void layered2D(cudaTextureObject_t t, float *out)
{
    int i = threadIdx.x;
    out[i] = tex2DLayered<float>(t, (i % 5) + 0.5f, (i / 5 % 4) * 1.3f, i / 20);
}

__global__ void cube(cudaTextureObject_t t, const float4 *dir, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = texCubemap<float>(t, dir[i].x, dir[i].y, dir[i].z);
}

__global__ void cubeLayered(cudaTextureObject_t t, const float4 *dir, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = texCubemapLayered<float>(t, dir[i].x, dir[i].y, dir[i].z, (int)dir[i].w);
}

__global__ void gather(cudaTextureObject_t t, const float2 *p, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = tex2Dgather<float4>(t, p[i].x, p[i].y, 0);
        out[4 * i + 1] = tex2Dgather<float4>(t, p[i].x, p[i].y, 1);
        out[4 * i + 2] = tex2Dgather<float4>(t, p[i].x, p[i].y, 2);
        out[4 * i + 3] = tex2Dgather<float4>(t, p[i].x, p[i].y, 3);
    }
}

__global__ void lod(cudaTextureObject_t t, const float4 *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLod<float>(t, p[i].x, p[i].y, p[i].z);
}

__global__ void grad(cudaTextureObject_t t, const float4 *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(t, p[i].x, p[i].y, make_float2(p[i].z, 0), make_float2(0, p[i].w));
}

static cudaTextureObject_t arrayTex(cudaArray_t a, cudaTextureAddressMode m, bool norm,
                                    cudaTextureFilterMode f = cudaFilterModePoint)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = m;
    td.filterMode = f;
    td.normalizedCoords = norm;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
}

static void copy3D(cudaArray_t a, void *src, int w, int h, int d, size_t elem)
{
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(src, w * elem, w, h);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
}

static void dumpf(const char *what, const float *v, int n)
{
    printf("%s:", what);
    for (int i = 0; i < n; i++) printf("%s%g", i % 16 ? " " : "\n  ", v[i]);
    printf("\n");
}

static void dumpx(const char *what, const float *v, int n)
{
    printf("%s:", what);
    for (int i = 0; i < n; i++) printf("%s%08x", i % 16 ? " " : "\n  ", fbits(v[i]));
    printf("\n");
}

int main()
{
    float *of, hf[1024];
    CHECK(cudaMalloc(&of, 4096 * sizeof(float)));
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();

    // layered 1D: 8 texels x 3 layers, layer indices out of range clamp
    cudaArray_t l1;
    CHECK(cudaMalloc3DArray(&l1, &fd, make_cudaExtent(8, 0, 3), cudaArrayLayered));
    float v1[3][8];
    for (int l = 0; l < 3; l++) for (int x = 0; x < 8; x++) v1[l][x] = l * 100 + x;
    copy3D(l1, v1, 8, 1, 3, 4);
    layered1D<<<1, 40>>>(arrayTex(l1, cudaAddressModeClamp, false), of);
    CHECK(cudaMemcpy(hf, of, 40 * sizeof(float), cudaMemcpyDeviceToHost));
    dumpf("1D layered", hf, 40);

    // layered 2D: 5x4 x 3 layers
    cudaArray_t l2;
    CHECK(cudaMalloc3DArray(&l2, &fd, make_cudaExtent(5, 4, 3), cudaArrayLayered));
    float v2[3][4][5];
    for (int l = 0; l < 3; l++) for (int y = 0; y < 4; y++) for (int x = 0; x < 5; x++) v2[l][y][x] = l * 100 + y * 10 + x;
    copy3D(l2, v2, 5, 4, 3, 4);
    layered2D<<<1, 80>>>(arrayTex(l2, cudaAddressModeClamp, false), of);
    CHECK(cudaMemcpy(hf, of, 80 * sizeof(float), cudaMemcpyDeviceToHost));
    dumpf("2D layered", hf, 80);

    // cube map 4x4: face f texel (x,y) = f*100 + y*10 + x
    const int C = 4;
    cudaArray_t cu;
    CHECK(cudaMalloc3DArray(&cu, &fd, make_cudaExtent(C, C, 6), cudaArrayCubemap));
    float cv[6][C][C];
    for (int f = 0; f < 6; f++) for (int y = 0; y < C; y++) for (int x = 0; x < C; x++) cv[f][y][x] = f * 100 + y * 10 + x;
    copy3D(cu, cv, C, C, 6, 4);
    const int ND = 40;
    float4 dirs[ND];
    for (int i = 0; i < ND; i++) {
        float a = (i * 37 % 19) / 9.5f - 1.0f, b = (i * 23 % 17) / 8.5f - 1.0f;
        float s = (i & 1) ? 1.0f : -1.0f;
        int axis = i / 2 % 3;
        float c = s * (1.05f + (i % 7) * 0.1f);
        dirs[i] = axis == 0 ? make_float4(c, a, b, i % 3) : axis == 1 ? make_float4(a, c, b, i % 3) : make_float4(a, b, c, i % 3);
    }
    dirs[0] = make_float4(1, 0, 0, 0);
    dirs[1] = make_float4(0, -1, 0, 1);
    dirs[2] = make_float4(0.5f, 0.5f, -1, 2);
    dirs[3] = make_float4(1, 1, 0.99f, 0);
    float4 *ddirs;
    CHECK(cudaMalloc(&ddirs, sizeof dirs));
    CHECK(cudaMemcpy(ddirs, dirs, sizeof dirs, cudaMemcpyHostToDevice));
    cube<<<1, ND>>>(arrayTex(cu, cudaAddressModeClamp, true), ddirs, of, ND);
    CHECK(cudaMemcpy(hf, of, ND * sizeof(float), cudaMemcpyDeviceToHost));
    dumpf("cubemap point", hf, ND);
    cube<<<1, ND>>>(arrayTex(cu, cudaAddressModeClamp, true, cudaFilterModeLinear), ddirs, of, ND);
    CHECK(cudaMemcpy(hf, of, ND * sizeof(float), cudaMemcpyDeviceToHost));
    dumpx("cubemap linear", hf, ND);

    // layered cube map: 2 cubes
    cudaArray_t cl;
    CHECK(cudaMalloc3DArray(&cl, &fd, make_cudaExtent(C, C, 12), cudaArrayCubemap | cudaArrayLayered));
    float clv[12][C][C];
    for (int f = 0; f < 12; f++) for (int y = 0; y < C; y++) for (int x = 0; x < C; x++) clv[f][y][x] = f * 100 + y * 10 + x;
    copy3D(cl, clv, C, C, 12, 4);
    cubeLayered<<<1, ND>>>(arrayTex(cl, cudaAddressModeClamp, true), ddirs, of, ND);
    CHECK(cudaMemcpy(hf, of, ND * sizeof(float), cudaMemcpyDeviceToHost));
    dumpf("cubemap layered", hf, ND);

    // gather over a float4 2D array (component k of the four texels of the 2x2 footprint)
    const int W = 5, H = 4;
    float4 g[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) g[y][x] = make_float4(y * 10 + x, -(y * 10 + x), x * 0.5f, y * 1000);
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
    cudaArray_t ga;
    CHECK(cudaMallocArray(&ga, &f4, W, H, cudaArrayTextureGather));
    CHECK(cudaMemcpy2DToArray(ga, 0, 0, g, W * sizeof(float4), W * sizeof(float4), H, cudaMemcpyHostToDevice));
    float2 gp[6] = {{1.0f, 1.0f}, {2.5f, 1.5f}, {0.2f, 0.3f}, {4.9f, 3.9f}, {-1.0f, 2.2f}, {3.7f, 0.6f}};
    float2 *dgp;
    CHECK(cudaMalloc(&dgp, sizeof gp));
    CHECK(cudaMemcpy(dgp, gp, sizeof gp, cudaMemcpyHostToDevice));
    float4 *o4, h4[64];
    CHECK(cudaMalloc(&o4, 64 * sizeof(float4)));
    cudaTextureAddressMode gm[2] = {cudaAddressModeClamp, cudaAddressModeBorder};
    for (int m = 0; m < 2; m++) {
        gather<<<1, 6>>>(arrayTex(ga, gm[m], false), dgp, o4, 6);
        CHECK(cudaMemcpy(h4, o4, 24 * sizeof(float4), cudaMemcpyDeviceToHost));
        printf("gather %s:\n", m ? "border" : "clamp");
        for (int i = 0; i < 6; i++) {
            printf("  (%g,%g)", gp[i].x, gp[i].y);
            for (int k = 0; k < 4; k++) printf(" [%g %g %g %g]", h4[4 * i + k].x, h4[4 * i + k].y, h4[4 * i + k].z, h4[4 * i + k].w);
            printf("\n");
        }
    }
    // a normalized-coordinate gather with wrap
    {
        cudaTextureObject_t t = arrayTex(ga, cudaAddressModeWrap, true);
        float2 np[6];
        for (int i = 0; i < 6; i++) np[i] = make_float2(gp[i].x / W, gp[i].y / H);
        CHECK(cudaMemcpy(dgp, np, sizeof np, cudaMemcpyHostToDevice));
        gather<<<1, 6>>>(t, dgp, o4, 6);
        CHECK(cudaMemcpy(h4, o4, 24 * sizeof(float4), cudaMemcpyDeviceToHost));
        printf("gather wrap normalized:");
        for (int i = 0; i < 6; i++) printf(" [%g %g %g %g]", h4[4 * i].x, h4[4 * i].y, h4[4 * i].z, h4[4 * i].w);
        printf("\n");
    }

    // mipmaps: 16x8 base, 5 levels (16x8, 8x4, 4x2, 2x1, 1x1); level L texel = L*100 + y*10 + x
    cudaMipmappedArray_t mm;
    CHECK(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(16, 8, 0), 5));
    for (int L = 0; L < 5; L++) {
        cudaArray_t lev;
        CHECK(cudaGetMipmappedArrayLevel(&lev, mm, L));
        cudaChannelFormatDesc d;
        cudaExtent e;
        unsigned fl;
        CHECK(cudaArrayGetInfo(&d, &e, &fl, lev));
        int w = (int)e.width, h = (int)e.height;
        printf("level %d: %zux%zux%zu\n", L, e.width, e.height, e.depth);
        float lv[128];
        for (int y = 0; y < (h ? h : 1); y++) for (int x = 0; x < w; x++) lv[y * w + x] = L * 100 + y * 10 + x;
        CHECK(cudaMemcpy2DToArray(lev, 0, 0, lv, w * 4, w * 4, h ? h : 1, cudaMemcpyHostToDevice));
    }
    float4 lp[16];
    for (int i = 0; i < 16; i++) lp[i] = make_float4((i % 4) * 0.25f + 0.1f, (i / 4) * 0.25f + 0.1f, i * 0.37f - 0.5f, (i % 5) * 0.05f + 0.01f);
    float4 *dlp;
    CHECK(cudaMalloc(&dlp, sizeof lp));
    CHECK(cudaMemcpy(dlp, lp, sizeof lp, cudaMemcpyHostToDevice));
    for (int v = 0; v < 4; v++) {
        cudaResourceDesc r = {};
        r.resType = cudaResourceTypeMipmappedArray;
        r.res.mipmap.mipmap = mm;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
        td.normalizedCoords = 1;
        td.filterMode = v & 1 ? cudaFilterModeLinear : cudaFilterModePoint;
        td.mipmapFilterMode = v & 2 ? cudaFilterModeLinear : cudaFilterModePoint;
        td.maxMipmapLevelClamp = v == 3 ? 2.5f : 4;
        td.minMipmapLevelClamp = v == 3 ? 0.5f : 0;
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
        lod<<<1, 16>>>(t, dlp, of, 16);
        CHECK(cudaMemcpy(hf, of, 16 * sizeof(float), cudaMemcpyDeviceToHost));
        char name[64];
        snprintf(name, sizeof name, "tex2DLod filter=%d mipfilter=%d", v & 1, v >> 1 & 1);
        dumpx(name, hf, 16);
        grad<<<1, 16>>>(t, dlp, of, 16);
        CHECK(cudaMemcpy(hf, of, 16 * sizeof(float), cudaMemcpyDeviceToHost));
        snprintf(name, sizeof name, "tex2DGrad filter=%d mipfilter=%d", v & 1, v >> 1 & 1);
        dumpx(name, hf, 16);
    }

    // errors
    cudaArray_t bad;
    cudaMipmappedArray_t badm;
    SHOW(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(4, 5, 6), cudaArrayCubemap));
    SHOW(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(4, 4, 7), cudaArrayCubemap | cudaArrayLayered));
    SHOW(cudaMallocMipmappedArray(&badm, &fd, make_cudaExtent(16, 8, 0), 6));
    cudaArray_t lev;
    SHOW(cudaGetMipmappedArrayLevel(&lev, mm, 5));
    SHOW(cudaGetLastError());
    printf("done\n");
    return 0;
}
