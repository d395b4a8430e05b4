// Linear filtering as the hardware does it: texels weighted with 9-bit fixed-point
// fractions (8 fractional bits), not an exact lerp. Every result is printed as its bit
// pattern, at many fractional coordinates: 1D and 2D float arrays, 8-bit textures read as
// normalized floats, normalized coordinates in every address mode, 3D (trilinear) and
// layered arrays, and 1D linear memory (which cannot be filtered: point sampling).
#include "common_tex.h"

__global__ void lin1D(cudaTextureObject_t t, float x0, float dx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, x0 + i * dx);
}

__global__ void lin2D(cudaTextureObject_t t, float x0, float y0, float dx, float dy, int nx, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float4>(t, x0 + (i % nx) * dx, y0 + (i / nx) * dy);
}

__global__ void lin3D(cudaTextureObject_t t, float x0, float dx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, x0 + i * dx, 0.3f + i * dx * 0.7f, 0.9f + i * dx * 0.4f);
}

__global__ void lin2DLayered(cudaTextureObject_t t, float x0, float dx, int layer, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLayered<float>(t, x0 + i * dx, 1.0f + i * dx * 0.5f, layer);
}

static cudaTextureObject_t makeTex(cudaArray_t a, cudaTextureAddressMode m, bool norm,
                                   cudaTextureReadMode rm = cudaReadModeElementType)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = m;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = rm;
    td.normalizedCoords = norm;
    td.borderColor[0] = 0.125f; td.borderColor[1] = 2.0f; td.borderColor[2] = -1.0f; td.borderColor[3] = 0.5f;
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

static void dump4(const char *what, const float4 *v, int n, int comps)
{
    printf("%s (%d x %d):", what, n, comps);
    for (int i = 0; i < n; i++) {
        printf("%s", i % 8 ? " " : "\n  ");
        const float c[4] = {v[i].x, v[i].y, v[i].z, v[i].w};
        for (int k = 0; k < comps; k++) printf("%s%08x", k ? "/" : "", fbits(c[k]));
    }
    printf("\n");
}

static const char *modeName(cudaTextureAddressMode m)
{
    switch (m) {
    case cudaAddressModeWrap: return "wrap";
    case cudaAddressModeClamp: return "clamp";
    case cudaAddressModeMirror: return "mirror";
    default: return "border";
    }
}

int main()
{
    const int MAXN = 1024;
    float *of, hf[MAXN];
    float4 *o4, h4[MAXN];
    CHECK(cudaMalloc(&of, MAXN * sizeof(float)));
    CHECK(cudaMalloc(&o4, MAXN * sizeof(float4)));
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();

    // 1D float: irregular values so every weight shows
    const int W1 = 9;
    float v1[W1] = {1.0f, 3.0f, -2.5f, 100.0f, 0.1f, 7.77f, 1e-3f, -64.0f, 12345.678f};
    cudaArray_t a1;
    CHECK(cudaMallocArray(&a1, &fd, W1));
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, v1, sizeof v1, sizeof v1, 1, cudaMemcpyHostToDevice));
    cudaTextureObject_t t1 = makeTex(a1, cudaAddressModeClamp, false);
    // steps of 1/64 of a texel and of an irrational-ish stride
    lin1D<<<3, 256>>>(t1, -1.0f, 1.0f / 64, of, 11 * 64);
    CHECK(cudaMemcpy(hf, of, 11 * 64 * sizeof(float), cudaMemcpyDeviceToHost));
    dumpf("1D clamp x=-1+i/64", hf, 11 * 64);
    lin1D<<<2, 256>>>(t1, 0.37f, 0.0173f, of, 400);
    CHECK(cudaMemcpy(hf, of, 400 * sizeof(float), cudaMemcpyDeviceToHost));
    dumpf("1D clamp x=0.37+i*0.0173", hf, 400);
    cudaTextureObject_t t1b = makeTex(a1, cudaAddressModeBorder, false);
    lin1D<<<1, 128>>>(t1b, -1.5f, 0.1f, of, 128);
    CHECK(cudaMemcpy(hf, of, 128 * sizeof(float), cudaMemcpyDeviceToHost));
    dumpf("1D border x=-1.5+i*0.1", hf, 128);
    cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder};
    for (int m = 0; m < 4; m++) {
        cudaTextureObject_t t = makeTex(a1, modes[m], true);
        lin1D<<<1, 256>>>(t, -2.0f, 0.0191f, of, 256);
        CHECK(cudaMemcpy(hf, of, 256 * sizeof(float), cudaMemcpyDeviceToHost));
        char name[64];
        snprintf(name, sizeof name, "1D normalized %s u=-2+i*0.0191", modeName(m == 0 ? cudaAddressModeWrap : modes[m]));
        dumpf(name, hf, 256);
    }

    // the weights themselves: texels 0 and 1 read between them at steps of 1/2048 texel,
    // and a 4000-texel ramp (value = index) read far from the origin, unnormalized and
    // normalized (which shows how precisely the coordinate itself is taken)
    {
        float z1[2] = {0.0f, 1.0f};
        cudaArray_t az;
        CHECK(cudaMallocArray(&az, &fd, 2));
        CHECK(cudaMemcpy2DToArray(az, 0, 0, z1, sizeof z1, sizeof z1, 1, cudaMemcpyHostToDevice));
        cudaTextureObject_t tz = makeTex(az, cudaAddressModeClamp, false);
        lin1D<<<4, 256>>>(tz, 0.5f, 1.0f / 1024, of, 1024);
        CHECK(cudaMemcpy(hf, of, 1024 * sizeof(float), cudaMemcpyDeviceToHost));
        dumpf("weights x=0.5+i/1024", hf, 1024);
        const int NR = 4000;
        float *ramp = (float *)malloc(NR * sizeof(float));
        for (int i = 0; i < NR; i++) ramp[i] = (float)i;
        cudaArray_t ar;
        CHECK(cudaMallocArray(&ar, &fd, NR));
        CHECK(cudaMemcpy2DToArray(ar, 0, 0, ramp, NR * sizeof(float), NR * sizeof(float), 1, cudaMemcpyHostToDevice));
        cudaTextureObject_t tr = makeTex(ar, cudaAddressModeClamp, false);
        lin1D<<<1, 256>>>(tr, 3001.0f, 0.00731f, of, 256);
        CHECK(cudaMemcpy(hf, of, 256 * sizeof(float), cudaMemcpyDeviceToHost));
        dumpf("ramp x=3001+i*0.00731", hf, 256);
        cudaTextureObject_t trn = makeTex(ar, cudaAddressModeClamp, true);
        lin1D<<<2, 256>>>(trn, 0.1234f, 0.0000731f, of, 512);
        CHECK(cudaMemcpy(hf, of, 512 * sizeof(float), cudaMemcpyDeviceToHost));
        dumpf("ramp normalized u=0.1234+i*0.0000731", hf, 512);
        lin1D<<<2, 256>>>(trn, 0.7f, 0.00001f, of, 512);
        CHECK(cudaMemcpy(hf, of, 512 * sizeof(float), cudaMemcpyDeviceToHost));
        dumpf("ramp normalized u=0.7+i*0.00001", hf, 512);
        free(ramp);
    }

    // 2D float4: four channels of different scales
    const int W = 6, H = 5;
    float4 img[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++)
        img[y][x] = make_float4(x + 10 * y, (x * 7 + y * 3) % 11 - 5.5f, 1.0f / (1 + x + y), (x ^ y) * 1000.0f + 0.001f);
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
    cudaArray_t a2;
    CHECK(cudaMallocArray(&a2, &f4, W, H));
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, img, W * sizeof(float4), W * sizeof(float4), H, cudaMemcpyHostToDevice));
    cudaTextureObject_t t2 = makeTex(a2, cudaAddressModeClamp, false);
    lin2D<<<2, 256>>>(t2, -0.3f, -0.2f, 0.29f, 0.23f, 24, o4, 24 * 24);
    CHECK(cudaMemcpy(h4, o4, 24 * 24 * sizeof(float4), cudaMemcpyDeviceToHost));
    dump4("2D float4 clamp", h4, 24 * 24, 4);
    for (int m = 0; m < 4; m++) {
        cudaTextureObject_t t = makeTex(a2, modes[m], true);
        lin2D<<<1, 256>>>(t, -1.1f, -0.9f, 0.137f, 0.129f, 16, o4, 256);
        CHECK(cudaMemcpy(h4, o4, 256 * sizeof(float4), cudaMemcpyDeviceToHost));
        char name[64];
        snprintf(name, sizeof name, "2D float4 normalized %s", modeName(modes[m]));
        dump4(name, h4, 256, 2);
    }

    // 8-bit unsigned and signed, read as normalized floats
    uchar4 px[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++)
        px[y][x] = make_uchar4(x * 51, y * 63 + 1, (x * 97 + y * 31) & 255, 255 - x * y * 9);
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t ua;
    CHECK(cudaMallocArray(&ua, &c4, W, H));
    CHECK(cudaMemcpy2DToArray(ua, 0, 0, px, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaTextureObject_t tu = makeTex(ua, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat);
    lin2D<<<2, 256>>>(tu, 0.1f, 0.2f, 0.2331f, 0.1917f, 24, o4, 24 * 24);
    CHECK(cudaMemcpy(h4, o4, 24 * 24 * sizeof(float4), cudaMemcpyDeviceToHost));
    dump4("2D uchar4 normalized clamp", h4, 24 * 24, 4);
    char sc[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) sc[y][x] = (char)((x * 83 + y * 59) % 256 - 128);
    cudaChannelFormatDesc c1 = cudaCreateChannelDesc<char>();
    cudaArray_t sa;
    CHECK(cudaMallocArray(&sa, &c1, W, H));
    CHECK(cudaMemcpy2DToArray(sa, 0, 0, sc, W, W, H, cudaMemcpyHostToDevice));
    cudaTextureObject_t ts = makeTex(sa, cudaAddressModeMirror, true, cudaReadModeNormalizedFloat);
    lin2D<<<1, 256>>>(ts, -0.7f, -0.4f, 0.11f, 0.097f, 16, o4, 256);
    CHECK(cudaMemcpy(h4, o4, 256 * sizeof(float4), cudaMemcpyDeviceToHost));
    dump4("2D char normalized mirror", h4, 256, 1);

    // 3D trilinear
    cudaArray_t a3;
    CHECK(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(4, 3, 3)));
    float vol[3][3][4];
    for (int z = 0; z < 3; z++) for (int y = 0; y < 3; y++) for (int x = 0; x < 4; x++)
        vol[z][y][x] = (z * 37 + y * 11 + x * 5) % 17 * 0.75f - 3;
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(vol, 4 * sizeof(float), 4, 3);
    p.dstArray = a3;
    p.extent = make_cudaExtent(4, 3, 3);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaTextureObject_t t3 = makeTex(a3, cudaAddressModeClamp, false);
    lin3D<<<1, 256>>>(t3, -0.2f, 0.0179f, of, 256);
    CHECK(cudaMemcpy(hf, of, 256 * sizeof(float), cudaMemcpyDeviceToHost));
    dumpf("3D clamp", hf, 256);

    // layered 2D: filtering within a layer only
    cudaArray_t la;
    CHECK(cudaMalloc3DArray(&la, &fd, make_cudaExtent(5, 4, 3), cudaArrayLayered));
    float lv[3][4][5];
    for (int l = 0; l < 3; l++) for (int y = 0; y < 4; y++) for (int x = 0; x < 5; x++)
        lv[l][y][x] = l * 1000 + (x * 13 + y * 7) % 10 - 0.5f * x;
    cudaMemcpy3DParms lp = {};
    lp.srcPtr = make_cudaPitchedPtr(lv, 5 * sizeof(float), 5, 4);
    lp.dstArray = la;
    lp.extent = make_cudaExtent(5, 4, 3);
    lp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&lp));
    cudaTextureObject_t tl = makeTex(la, cudaAddressModeWrap, true);
    for (int l = 0; l < 3; l++) {
        lin2DLayered<<<1, 128>>>(tl, -0.3f, 0.0113f, l, of, 128);
        CHECK(cudaMemcpy(hf, of, 128 * sizeof(float), cudaMemcpyDeviceToHost));
        char name[64];
        snprintf(name, sizeof name, "2D layered wrap layer %d", l);
        dumpf(name, hf, 128);
    }
    printf("done\n");
    return 0;
}
