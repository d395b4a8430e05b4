// Second set of probes of the GPU's texture unit, recorded once as data to model it from
// (not a test): 8-bit normalized blends at every weight, the level of detail from
// tex2DLod at fine steps and from tex2DGrad gradients of every length, direction and
// ratio, trilinear blends of varied texels, and gathers of each channel of 8-bit and
// integer textures. Every result is printed as its bit pattern, one section per sweep.
#include "common_tex.h"
#include <cmath>

// (x, y) read of a 2D texture, n lookups
__global__ void at2D(cudaTextureObject_t t, const float2 *p, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float4>(t, p[i].x, p[i].y);
}

__global__ void lod2D(cudaTextureObject_t t, const float4 *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLod<float>(t, p[i].x, p[i].y, p[i].z);
}

__global__ void grad2D(cudaTextureObject_t t, const float4 *g, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}

__global__ void gatherF(cudaTextureObject_t t, const float2 *p, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = tex2Dgather<float4>(t, p[i].x, p[i].y, 0);
        out[4 * i + 1] = tex2Dgather<float4>(t, p[i].x, p[i].y, 1);
        out[4 * i + 2] = tex2Dgather<float4>(t, p[i].x, p[i].y, 2);
        out[4 * i + 3] = tex2Dgather<float4>(t, p[i].x, p[i].y, 3);
    }
}

__global__ void gatherI(cudaTextureObject_t t, const float2 *p, int4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = tex2Dgather<int4>(t, p[i].x, p[i].y, 0);
        out[4 * i + 1] = tex2Dgather<int4>(t, p[i].x, p[i].y, 1);
        out[4 * i + 2] = tex2Dgather<int4>(t, p[i].x, p[i].y, 2);
        out[4 * i + 3] = tex2Dgather<int4>(t, p[i].x, p[i].y, 3);
    }
}

static FILE *out;

static void dumpw(const char *what, const void *v, int n)
{
    const unsigned *u = (const unsigned *)v;
    fprintf(out, "%s (%d):", what, n);
    for (int i = 0; i < n; i++) fprintf(out, "%s%08x", i % 16 ? " " : "\n  ", u[i]);
    fprintf(out, "\n");
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
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.normalizedCoords = 1;
    td.filterMode = f;
    td.mipmapFilterMode = mf;
    td.maxMipmapLevelClamp = maxl;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
}

int main(int argc, char **argv)
{
    out = argc > 1 ? fopen(argv[1], "w") : stdout;
    if (!out) return 2;
    const int MAXN = 1 << 18;
    float2 *hp = (float2 *)malloc(MAXN * sizeof(float2)), *dp;
    float4 *h4 = (float4 *)malloc(MAXN * sizeof(float4)), *d4, *hq = (float4 *)malloc(MAXN * sizeof(float4)), *dq;
    float *hf = (float *)malloc(MAXN * sizeof(float)), *df;
    CHECK(cudaMalloc(&dp, MAXN * sizeof(float2)));
    CHECK(cudaMalloc(&d4, MAXN * sizeof(float4)));
    CHECK(cudaMalloc(&dq, MAXN * sizeof(float4)));
    CHECK(cudaMalloc(&df, MAXN * sizeof(float)));
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();

    // 1. 8-bit blends at every weight: a 256 x 6 texture whose column c holds, row by row,
    // a = c - 128 (signed) or c (unsigned), 0, a pseudo-random b, the largest, the
    // smallest value and a again; read at the column's centre and y = r + 0.5 + w/256, so
    // that rows r and r + 1 are blended with weight w exactly.
    for (int sgn = 0; sgn < 2; sgn++) {
        unsigned char v[6][256];
        for (int c = 0; c < 256; c++) {
            int a = sgn ? c - 128 : c, b = (c * 37 + 11) % 256 - (sgn ? 128 : 0);
            int rows[6] = {a, 0, b, sgn ? 127 : 255, sgn ? -128 : 0, a};
            for (int r = 0; r < 6; r++) v[r][c] = (unsigned char)rows[r];
        }
        cudaChannelFormatDesc cd = sgn ? cudaCreateChannelDesc<signed char>() : cudaCreateChannelDesc<unsigned char>();
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &cd, 256, 6));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, v, 256, 256, 6, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = arrTex(a, cudaAddressModeClamp, false, cudaFilterModeLinear, cudaReadModeNormalizedFloat);
        for (int r = 0; r < 5; r++) {
            int n = 256 * 256;
            for (int i = 0; i < n; i++) hp[i] = make_float2((i % 256) + 0.5f, r + 0.5f + (i / 256) / 256.0f);
            CHECK(cudaMemcpy(dp, hp, n * sizeof(float2), cudaMemcpyHostToDevice));
            at2D<<<n / 256, 256>>>(t, dp, d4, n);
            CHECK(cudaMemcpy(h4, d4, n * sizeof(float4), cudaMemcpyDeviceToHost));
            for (int i = 0; i < n; i++) hf[i] = h4[i].x;
            char name[96];
            snprintf(name, sizeof name, "%s8 rows %d,%d col c weight i/256 (i = w*256+c)", sgn ? "s" : "u", r, r + 1);
            dumpw(name, hf, n);
        }
        // and 2D blends of four different texels: x and y weights both fractional
        int n = 4096;
        for (int i = 0; i < n; i++) hp[i] = make_float2(0.5f + (i * 29 % 255) + ((i * 97) % 256) / 256.0f, 0.5f + (i % 5) + ((i * 53) % 256) / 256.0f);
        CHECK(cudaMemcpy(dp, hp, n * sizeof(float2), cudaMemcpyHostToDevice));
        at2D<<<n / 256, 256>>>(t, dp, d4, n);
        CHECK(cudaMemcpy(h4, d4, n * sizeof(float4), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) hf[i] = h4[i].x;
        dumpw(sgn ? "s8 2D x=0.5+(i*29%255)+(i*97%256)/256 y=0.5+i%5+(i*53%256)/256" : "u8 2D x=0.5+(i*29%255)+(i*97%256)/256 y=0.5+i%5+(i*53%256)/256", hf, n);
    }

    // 2. level of detail: a 64x64 float mipmap whose level L holds L everywhere
    cudaMipmappedArray_t mm;
    CHECK(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(64, 64, 0), 7));
    for (int L = 0; L < 7; L++) {
        cudaArray_t lev;
        CHECK(cudaGetMipmappedArrayLevel(&lev, mm, L));
        int s = 64 >> L;
        static float lv[64 * 64];
        for (int i = 0; i < s * s; i++) lv[i] = (float)L;
        CHECK(cudaMemcpy2DToArray(lev, 0, 0, lv, s * 4, s * 4, s, cudaMemcpyHostToDevice));
    }
    cudaTextureObject_t tpl = mipTex(mm, cudaFilterModePoint, cudaFilterModeLinear, 6);
    cudaTextureObject_t tpp = mipTex(mm, cudaFilterModePoint, cudaFilterModePoint, 6);
    {
        int n = 16384;  // lod = -0.25 + i / 2048
        for (int i = 0; i < n; i++) hq[i] = make_float4(0.5f, 0.5f, -0.25f + i / 2048.0f, 0);
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        lod2D<<<n / 256, 256>>>(tpl, dq, df, n);
        CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
        dumpw("lod linear l=-0.25+i/2048", hf, n);
        lod2D<<<n / 256, 256>>>(tpp, dq, df, n);
        CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
        dumpw("lod point l=-0.25+i/2048", hf, n);
    }
    // gradients: lengths 2^e * (1 + k/4096) texels along x (e = 0..2), along y (e = 1),
    // along both axes of dy (e = 1); then directions, ratios and parallel pairs
    {
        int n = 0;
        for (int e = 0; e < 3; e++)
            for (int k = 0; k < 4096; k++) { float s = ldexpf(1.0f + k / 4096.0f, e - 6); hq[n++] = make_float4(s, 0, 0, 0); }
        for (int k = 0; k < 4096; k++) { float s = ldexpf(1.0f + k / 4096.0f, 1 - 6); hq[n++] = make_float4(0, 0, 0, s); }
        for (int k = 0; k < 4096; k++) { float s = ldexpf(1.0f + k / 4096.0f, 1 - 6); hq[n++] = make_float4(0, s, 0, 0); }
        for (int k = 0; k < 4096; k++) { float s = ldexpf(1.0f + k / 4096.0f, 1 - 6); hq[n++] = make_float4(0, 0, s, 0); }
        // directions: length 4 texels at angle k * 90deg / 4096, in dx
        for (int k = 0; k < 4096; k++) {
            float th = k * (float)M_PI / 2 / 4096, s = 4.0f / 64;
            hq[n++] = make_float4(s * cosf(th), s * sinf(th), 0, 0);
        }
        // ratios: dx = (4 texels, 0), dy = (0, 4t texels), t = k/2048
        for (int k = 0; k < 4096; k++) { float s = 4.0f / 64; hq[n++] = make_float4(s, 0, 0, s * k / 2048.0f); }
        // parallel: dx = (4, 0), dy = (4t, 0)
        for (int k = 0; k < 4096; k++) { float s = 4.0f / 64; hq[n++] = make_float4(s, 0, s * k / 2048.0f, 0); }
        // a diagonal pair as in texture_probe: dx = (a, b), dy = (-b, a) scaled, a/b swept
        for (int k = 0; k < 4096; k++) {
            float s = 4.0f / 64, a = s * (k % 64) / 63.0f, b = s * (k / 64) / 63.0f;
            hq[n++] = make_float4(a, b, -b * 0.5f, a * 0.5f);
        }
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        grad2D<<<n / 256, 256>>>(tpl, dq, df, n);
        CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
        dumpw("grad linear (see texture_probe2.cu for the gradients)", hf, n);
        dumpw("grad inputs", hq, 4 * n);
    }

    // 3. trilinear blends of varied texels: a 16x8 float mipmap (5 levels) with texel
    // L*100 + y*10 + x + x*y/8, read with tex2DLod at pseudo-random points and levels, with
    // point and linear filtering within the levels
    {
        cudaMipmappedArray_t m2;
        CHECK(cudaMallocMipmappedArray(&m2, &fd, make_cudaExtent(16, 8, 0), 5));
        for (int L = 0; L < 5; L++) {
            cudaArray_t lev;
            CHECK(cudaGetMipmappedArrayLevel(&lev, m2, L));
            int w = 16 >> L, h = 8 >> L ? 8 >> L : 1;
            float lv[128];
            for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) lv[y * w + x] = L * 100 + y * 10 + x + x * y / 8.0f;
            CHECK(cudaMemcpy2DToArray(lev, 0, 0, lv, w * 4, w * 4, h, cudaMemcpyHostToDevice));
        }
        int n = 4096;
        for (int i = 0; i < n; i++)
            hq[i] = make_float4((i * 211 % 1000) / 1000.0f, (i * 307 % 1000) / 1000.0f, (i * 89 % 4000) / 1000.0f, 0);
        CHECK(cudaMemcpy(dq, hq, n * sizeof(float4), cudaMemcpyHostToDevice));
        for (int f = 0; f < 2; f++) {
            cudaTextureObject_t t = mipTex(m2, f ? cudaFilterModeLinear : cudaFilterModePoint, cudaFilterModeLinear, 4);
            lod2D<<<n / 256, 256>>>(t, dq, df, n);
            CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
            dumpw(f ? "trilinear linear u=(i*211%1000)/1000 v=(i*307%1000)/1000 l=(i*89%4000)/1000"
                    : "trilinear point u=(i*211%1000)/1000 v=(i*307%1000)/1000 l=(i*89%4000)/1000", hf, n);
        }
    }

    // 4. gathers of each channel: uchar4 read as normalized floats and as elements, short2,
    // and int4, clamp and wrap, at pseudo-random coordinates
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
        int n = 64;
        for (int i = 0; i < n; i++) hp[i] = make_float2((i * 37 % 100) / 100.0f * 9 - 1, (i * 61 % 100) / 100.0f * 7 - 1);
        CHECK(cudaMemcpy(dp, hp, n * sizeof(float2), cudaMemcpyHostToDevice));
        const cudaTextureAddressMode ms[2] = {cudaAddressModeClamp, cudaAddressModeBorder};
        for (int m = 0; m < 2; m++) {
            char name[96];
            gatherF<<<1, n>>>(arrTex(au, ms[m], false, cudaFilterModePoint, cudaReadModeNormalizedFloat), dp, d4, n);
            CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
            snprintf(name, sizeof name, "gather uchar4 normalized %s x=(i*37%%100)/100*9-1 y=(i*61%%100)/100*7-1", m ? "border" : "clamp");
            dumpw(name, h4, 16 * n);
            gatherI<<<1, n>>>(arrTex(au, ms[m], false, cudaFilterModePoint), dp, (int4 *)d4, n);
            CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
            snprintf(name, sizeof name, "gather uchar4 element %s", m ? "border" : "clamp");
            dumpw(name, h4, 16 * n);
            gatherF<<<1, n>>>(arrTex(as, ms[m], false, cudaFilterModePoint, cudaReadModeNormalizedFloat), dp, d4, n);
            CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
            snprintf(name, sizeof name, "gather short2 normalized %s", m ? "border" : "clamp");
            dumpw(name, h4, 16 * n);
            gatherI<<<1, n>>>(arrTex(ai, ms[m], false, cudaFilterModePoint), dp, (int4 *)d4, n);
            CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
            snprintf(name, sizeof name, "gather int4 element %s", m ? "border" : "clamp");
            dumpw(name, h4, 16 * n);
        }
        for (int i = 0; i < n; i++) hp[i] = make_float2((i * 37 % 100) / 100.0f * 3 - 1, (i * 61 % 100) / 100.0f * 3 - 1);
        CHECK(cudaMemcpy(dp, hp, n * sizeof(float2), cudaMemcpyHostToDevice));
        gatherF<<<1, n>>>(arrTex(au, cudaAddressModeWrap, true, cudaFilterModePoint, cudaReadModeNormalizedFloat), dp, d4, n);
        CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
        dumpw("gather uchar4 normalized wrap normalized x=(i*37%100)/100*3-1 y=(i*61%100)/100*3-1", h4, 16 * n);
        gatherF<<<1, n>>>(arrTex(au, cudaAddressModeMirror, true, cudaFilterModePoint, cudaReadModeNormalizedFloat), dp, d4, n);
        CHECK(cudaMemcpy(h4, d4, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
        dumpw("gather uchar4 normalized mirror normalized", h4, 16 * n);
    }
    CHECK(cudaDeviceSynchronize());
    fprintf(out, "done\n");
    if (out != stdout) fclose(out);
    printf("done\n");
    return 0;
}
