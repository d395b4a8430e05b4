// Probes of the GPU's texture unit, recorded once as data to model it from (not a test):
// every pixel of texture_rotate's image, what a destroyed texture object reads, 16-bit
// and half-float linear filtering, signed 8-bit filtering with mirrored negative
// coordinates, level-of-detail selection from explicit levels and from gradients, and
// float blends of chosen texel pairs at every weight.
#include "common_tex.h"
#include <cmath>
#include <cuda_fp16.h>

__global__ void rotate(float *out, int w, int h, float theta, cudaTextureObject_t t)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= (unsigned)w || y >= (unsigned)h) return;
    float u = (float)x - (float)w / 2, v = (float)y - (float)h / 2;
    float tu = u * cosf(theta) - v * sinf(theta), tv = v * cosf(theta) + u * sinf(theta);
    tu /= (float)w;
    tv /= (float)h;
    out[y * w + x] = tex2D<float>(t, tu + 0.5f, tv + 0.5f);
}

__global__ void lin2D(cudaTextureObject_t t, float x0, float y0, float dx, float dy, int nx, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float4>(t, x0 + (i % nx) * dx, y0 + (i / nx) * dy);
}

__global__ void lin1D(cudaTextureObject_t t, float x0, float dx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, x0 + i * dx);
}

__global__ void lod(cudaTextureObject_t t, float l0, float dl, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLod<float>(t, 0.5f, 0.5f, l0 + i * dl);
}

__global__ void grad(cudaTextureObject_t t, const float4 *g, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
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

static void dumpf(const char *what, const float *v, int n)
{
    printf("%s (%d):", what, n);
    for (int i = 0; i < n; i++) printf("%s%08x", i % 16 ? " " : "\n  ", fbits(v[i]));
    printf("\n");
}

static void dump4(const char *what, const float4 *v, int n)
{
    printf("%s (%d x 4):", what, n);
    for (int i = 0; i < n; i++) printf("%s%08x/%08x/%08x/%08x", i % 8 ? " " : "\n  ", fbits(v[i].x), fbits(v[i].y), fbits(v[i].z), fbits(v[i].w));
    printf("\n");
}

int main()
{
    float *of, hf[4096];
    float4 *o4, h4[1024];
    CHECK(cudaMalloc(&of, 4096 * sizeof(float)));
    CHECK(cudaMalloc(&o4, 1024 * sizeof(float4)));
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();

    // 1. the rotated image of texture_rotate, every pixel
    {
        const int W = 64, H = 48;
        float img[W * H];
        for (int y = 0; y < H; y++) for (int x = 0; x < W; x++)
            img[y * W + x] = ((x / 8 + y / 8) & 1) ? 1.0f : (float)(x * y % 17) / 16.0f;
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &fd, W, H));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, img, W * 4, W * 4, H, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = arrTex(a, cudaAddressModeWrap, true, cudaFilterModeLinear);
        rotate<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(of, W, H, 0.5f, t);
        CHECK(cudaMemcpy(hf, of, W * H * 4, cudaMemcpyDeviceToHost));
        dumpf("rotate", hf, W * H);
        // 2. read through after destruction
        CHECK(cudaDestroyTextureObject(t));
        rotate<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(of, W, H, 0.5f, t);
        printf("destroyed: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        CHECK(cudaMemcpy(hf, of, 64 * 4, cudaMemcpyDeviceToHost));
        dumpf("destroyed reads", hf, 64);
    }
    // 3. 16-bit unsigned, 16-bit signed and half textures, linear
    {
        const int W = 6, H = 5;
        unsigned short us[H][W];
        short ss[H][W];
        __half hh[H][W];
        for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) {
            us[y][x] = (unsigned short)((x * 13007 + y * 40503) & 0xffff);
            ss[y][x] = (short)((x * 9973 + y * 24571) & 0xffff);
            hh[y][x] = __float2half((x * 7 + y * 3) % 11 * 0.37f - 1.3f);
        }
        cudaChannelFormatDesc cu = cudaCreateChannelDesc<unsigned short>(), cs = cudaCreateChannelDesc<short>(),
                              ch = cudaCreateChannelDescHalf();
        cudaArray_t au, as, ah;
        CHECK(cudaMallocArray(&au, &cu, W, H));
        CHECK(cudaMallocArray(&as, &cs, W, H));
        CHECK(cudaMallocArray(&ah, &ch, W, H));
        CHECK(cudaMemcpy2DToArray(au, 0, 0, us, W * 2, W * 2, H, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy2DToArray(as, 0, 0, ss, W * 2, W * 2, H, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy2DToArray(ah, 0, 0, hh, W * 2, W * 2, H, cudaMemcpyHostToDevice));
        lin2D<<<1, 256>>>(arrTex(au, cudaAddressModeClamp, false, cudaFilterModeLinear, cudaReadModeNormalizedFloat), 0.1f, 0.2f, 0.2331f, 0.1917f, 16, o4, 256);
        CHECK(cudaMemcpy(h4, o4, 256 * 16, cudaMemcpyDeviceToHost));
        dump4("ushort normalized linear x=0.1+(i%16)*0.2331 y=0.2+(i/16)*0.1917", h4, 256);
        lin2D<<<1, 256>>>(arrTex(as, cudaAddressModeClamp, false, cudaFilterModeLinear, cudaReadModeNormalizedFloat), 0.1f, 0.2f, 0.2331f, 0.1917f, 16, o4, 256);
        CHECK(cudaMemcpy(h4, o4, 256 * 16, cudaMemcpyDeviceToHost));
        dump4("short normalized linear", h4, 256);
        lin2D<<<1, 256>>>(arrTex(ah, cudaAddressModeClamp, false, cudaFilterModeLinear), 0.1f, 0.2f, 0.2331f, 0.1917f, 16, o4, 256);
        CHECK(cudaMemcpy(h4, o4, 256 * 16, cudaMemcpyDeviceToHost));
        dump4("half linear", h4, 256);
    }
    // 4. signed 8-bit, 1D, normalized coordinates from -1.5 to 1.5 in each mode
    {
        signed char sc[7] = {-128, -100, -3, 0, 5, 77, 127};
        cudaChannelFormatDesc c1 = cudaCreateChannelDesc<signed char>();
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &c1, 7));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, sc, 7, 7, 1, cudaMemcpyHostToDevice));
        const char *names[4] = {"wrap", "clamp", "mirror", "border"};
        for (int m = 0; m < 4; m++) {
            lin1D<<<2, 256>>>(arrTex(a, (cudaTextureAddressMode)m, true, cudaFilterModeLinear, cudaReadModeNormalizedFloat), -1.5f, 3.0f / 512, of, 512);
            CHECK(cudaMemcpy(hf, of, 512 * 4, cudaMemcpyDeviceToHost));
            char name[80];
            snprintf(name, sizeof name, "char 1D normalized %s u=-1.5+i*3/512", names[m]);
            dumpf(name, hf, 512);
        }
        float fv[7] = {-128, -100, -3, 0, 5, 77, 127};
        cudaArray_t b;
        CHECK(cudaMallocArray(&b, &fd, 7));
        CHECK(cudaMemcpy2DToArray(b, 0, 0, fv, 28, 28, 1, cudaMemcpyHostToDevice));
        lin1D<<<2, 256>>>(arrTex(b, cudaAddressModeMirror, true, cudaFilterModeLinear), -1.5f, 3.0f / 512, of, 512);
        CHECK(cudaMemcpy(hf, of, 512 * 4, cudaMemcpyDeviceToHost));
        dumpf("float 1D normalized mirror u=-1.5+i*3/512", hf, 512);
    }
    // 5. level of detail: levels hold their own index; point and linear between levels
    {
        cudaMipmappedArray_t mm;
        CHECK(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(64, 64, 0), 7));
        for (int L = 0; L < 7; L++) {
            cudaArray_t lev;
            CHECK(cudaGetMipmappedArrayLevel(&lev, mm, L));
            int n = 64 >> L;
            float v[64 * 64];
            for (int i = 0; i < n * n; i++) v[i] = (float)L;
            CHECK(cudaMemcpy2DToArray(lev, 0, 0, v, n * 4, n * 4, n, cudaMemcpyHostToDevice));
        }
        float4 g[512];
        for (int i = 0; i < 512; i++) {
            float s = powf(2.0f, (i % 128) / 16.0f - 7.5f);
            int kind = i / 128;
            g[i] = kind == 0 ? make_float4(s, 0, 0, s) : kind == 1 ? make_float4(s, 0, 0, s * 0.3f)
                 : kind == 2 ? make_float4(s * 0.6f, s * 0.8f, 0, s * 0.1f) : make_float4(s, s, -s, s);
        }
        float4 *dg;
        CHECK(cudaMalloc(&dg, sizeof g));
        CHECK(cudaMemcpy(dg, g, sizeof g, cudaMemcpyHostToDevice));
        for (int mf = 0; mf < 2; mf++) {
            cudaResourceDesc r = {};
            r.resType = cudaResourceTypeMipmappedArray;
            r.res.mipmap.mipmap = mm;
            cudaTextureDesc td = {};
            td.normalizedCoords = 1;
            td.filterMode = cudaFilterModePoint;
            td.mipmapFilterMode = mf ? cudaFilterModeLinear : cudaFilterModePoint;
            td.maxMipmapLevelClamp = 6;
            cudaTextureObject_t t;
            CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
            lod<<<1, 512>>>(t, -0.5f, 1.0f / 64, of, 512);
            CHECK(cudaMemcpy(hf, of, 512 * 4, cudaMemcpyDeviceToHost));
            dumpf(mf ? "lod linear l=-0.5+i/64" : "lod point l=-0.5+i/64", hf, 512);
            grad<<<1, 512>>>(t, dg, of, 512);
            CHECK(cudaMemcpy(hf, of, 512 * 4, cudaMemcpyDeviceToHost));
            dumpf(mf ? "grad linear" : "grad point", hf, 512);
        }
    }
    // 6. float blends of chosen pairs at every weight (1D, x = 0.5 + i/256 + 1/512)
    {
        const float pairs[8][2] = {{1.0f, 1.0000001f}, {0.1f, 7.77f}, {100.0f, 0.1f}, {7.77f, 0.001f},
                                   {-64.0f, 12345.678f}, {3.0f, -2.5f}, {1e-3f, -64.0f}, {16777215.0f, 1.0f}};
        for (int p = 0; p < 8; p++) {
            cudaArray_t a;
            CHECK(cudaMallocArray(&a, &fd, 2));
            CHECK(cudaMemcpy2DToArray(a, 0, 0, pairs[p], 8, 8, 1, cudaMemcpyHostToDevice));
            lin1D<<<1, 256>>>(arrTex(a, cudaAddressModeClamp, false, cudaFilterModeLinear), 0.5f + 1.0f / 512, 1.0f / 256, of, 256);
            CHECK(cudaMemcpy(hf, of, 256 * 4, cudaMemcpyDeviceToHost));
            char name[80];
            snprintf(name, sizeof name, "pair %08x %08x", fbits(pairs[p][0]), fbits(pairs[p][1]));
            dumpf(name, hf, 256);
        }
    }
    printf("done\n");
    return 0;
}
