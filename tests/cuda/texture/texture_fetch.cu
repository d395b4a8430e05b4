// Texture objects with point sampling: tex1Dfetch over linear memory (float, int, float4,
// out of range), 2D arrays read at fractional coordinates in every address mode with and
// without normalized coordinates, 8- and 16-bit formats read as normalized floats and as
// elements, half floats, missing channels, pitched 2D memory, 3D arrays, the descriptor
// getters, and the errors of bad descriptors.
#include "common_tex.h"
#include <cuda_fp16.h>

__global__ void fetch1D(cudaTextureObject_t t, const int *idx, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float4>(t, idx[i]);
}

__global__ void fetch1Df(cudaTextureObject_t t, const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, idx[i]);
}

__global__ void fetch1Di(cudaTextureObject_t t, const int *idx, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int>(t, idx[i]);
}

__global__ void sample2D(cudaTextureObject_t t, const float2 *xy, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float4>(t, xy[i].x, xy[i].y);
}

__global__ void sample2Dui(cudaTextureObject_t t, const float2 *xy, uint4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<uint4>(t, xy[i].x, xy[i].y);
}

__global__ void sample2Di(cudaTextureObject_t t, const float2 *xy, int4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<int4>(t, xy[i].x, xy[i].y);
}

__global__ void sample1D(cudaTextureObject_t t, const float *x, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float4>(t, x[i]);
}

__global__ void sample3D(cudaTextureObject_t t, const float4 *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, p[i].x, p[i].y, p[i].z);
}

static cudaTextureObject_t makeTex(cudaArray_t a, cudaTextureAddressMode m, bool norm,
                                   cudaTextureReadMode rm = cudaReadModeElementType,
                                   cudaTextureFilterMode f = cudaFilterModePoint)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = m;
    td.filterMode = f;
    td.readMode = rm;
    td.normalizedCoords = norm;
    td.borderColor[0] = 0.25f; td.borderColor[1] = 0.5f; td.borderColor[2] = 0.75f; td.borderColor[3] = 1.5f;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    return t;
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
    // ---- 1D fetches from linear memory ----
    const int N = 40;
    float4 hf4[N];
    for (int i = 0; i < N; i++) hf4[i] = make_float4(i, i + 0.5f, -i, i * i);
    float4 *df4;
    CHECK(cudaMalloc(&df4, sizeof hf4));
    CHECK(cudaMemcpy(df4, hf4, sizeof hf4, cudaMemcpyHostToDevice));
    int hidx[8] = {0, 1, 5, 39, 40, 41, 1000, -1};
    int *didx;
    CHECK(cudaMalloc(&didx, sizeof hidx));
    CHECK(cudaMemcpy(didx, hidx, sizeof hidx, cudaMemcpyHostToDevice));
    float4 *o4;
    CHECK(cudaMalloc(&o4, 1024 * sizeof(float4)));
    cudaResourceDesc lr = {};
    lr.resType = cudaResourceTypeLinear;
    lr.res.linear.devPtr = df4;
    lr.res.linear.desc = cudaCreateChannelDesc<float4>();
    lr.res.linear.sizeInBytes = sizeof hf4;
    cudaTextureDesc ltd = {};
    ltd.readMode = cudaReadModeElementType;
    cudaTextureObject_t lt;
    CHECK(cudaCreateTextureObject(&lt, &lr, &ltd, NULL));
    fetch1D<<<1, 8>>>(lt, didx, o4, 8);
    float4 r4[64];
    CHECK(cudaMemcpy(r4, o4, 8 * sizeof(float4), cudaMemcpyDeviceToHost));
    printf("tex1Dfetch float4:");
    for (int i = 0; i < 8; i++) printf(" [%d](%g,%g,%g,%g)", hidx[i], r4[i].x, r4[i].y, r4[i].z, r4[i].w);
    printf("\n");
    // the same memory seen as float (4x as many elements) and as int
    cudaTextureObject_t lf, li;
    lr.res.linear.desc = cudaCreateChannelDesc<float>();
    CHECK(cudaCreateTextureObject(&lf, &lr, &ltd, NULL));
    lr.res.linear.desc = cudaCreateChannelDesc<int>();
    CHECK(cudaCreateTextureObject(&li, &lr, &ltd, NULL));
    float *of;
    int *oi;
    CHECK(cudaMalloc(&of, 64 * sizeof(float)));
    CHECK(cudaMalloc(&oi, 64 * sizeof(int)));
    fetch1Df<<<1, 8>>>(lf, didx, of, 8);
    fetch1Di<<<1, 8>>>(li, didx, oi, 8);
    float rf[8];
    int ri[8];
    CHECK(cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ri, oi, sizeof ri, cudaMemcpyDeviceToHost));
    printf("tex1Dfetch float:");
    for (int i = 0; i < 8; i++) printf(" %g", rf[i]);
    printf("\ntex1Dfetch int:");
    for (int i = 0; i < 8; i++) printf(" %d", ri[i]);
    printf("\n");
    // uchar4 linear memory read as normalized floats
    unsigned char ub[64];
    for (int i = 0; i < 64; i++) ub[i] = (unsigned char)(i * 37 + 3);
    unsigned char *dub;
    CHECK(cudaMalloc(&dub, sizeof ub));
    CHECK(cudaMemcpy(dub, ub, sizeof ub, cudaMemcpyHostToDevice));
    lr.res.linear.devPtr = dub;
    lr.res.linear.desc = cudaCreateChannelDesc<uchar4>();
    lr.res.linear.sizeInBytes = sizeof ub;
    ltd.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t lu;
    CHECK(cudaCreateTextureObject(&lu, &lr, &ltd, NULL));
    fetch1D<<<1, 8>>>(lu, didx, o4, 8);
    CHECK(cudaMemcpy(r4, o4, 8 * sizeof(float4), cudaMemcpyDeviceToHost));
    printf("tex1Dfetch uchar4 normalized:");
    for (int i = 0; i < 8; i++) printf(" (%08x,%08x,%08x,%08x)", fbits(r4[i].x), fbits(r4[i].y), fbits(r4[i].z), fbits(r4[i].w));
    printf("\n");

    // ---- 2D float array, point sampling ----
    const int W = 5, H = 4;
    float img[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) img[y][x] = 10 * y + x;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &fd, W, H));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    const int NP = 12;
    float2 pts[NP] = {{0.5f, 0.5f}, {0.f, 0.f}, {4.99f, 3.99f}, {5.f, 4.f}, {-0.01f, 1.5f}, {-3.2f, -0.7f},
                      {7.5f, 2.25f}, {2.5f, 9.75f}, {1.0f, 1.0f}, {0.999f, 2.001f}, {-5.5f, -4.5f}, {12.1f, 3.3f}};
    float2 *dpts;
    CHECK(cudaMalloc(&dpts, 1024 * sizeof(float2)));
    CHECK(cudaMemcpy(dpts, pts, sizeof pts, cudaMemcpyHostToDevice));
    cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder};
    for (int m = 0; m < 4; m++) {
        cudaTextureObject_t t = makeTex(a, modes[m], false);
        sample2D<<<1, NP>>>(t, dpts, o4, NP);
        CHECK(cudaMemcpy(r4, o4, NP * sizeof(float4), cudaMemcpyDeviceToHost));
        printf("2D unnormalized %-6s:", modeName(modes[m]));
        for (int i = 0; i < NP; i++) printf(" %g/%g/%g/%g", r4[i].x, r4[i].y, r4[i].z, r4[i].w);
        printf("\n");
        CHECK(cudaDestroyTextureObject(t));
    }
    // normalized coordinates: u = x / W
    float2 npts[NP];
    for (int i = 0; i < NP; i++) npts[i] = make_float2(pts[i].x / W, pts[i].y / H);
    float2 more[8] = {{-1.3f, 0.1f}, {1.3f, 0.6f}, {2.05f, -0.05f}, {-0.45f, 1.95f}, {0.999f, 0.001f}, {1.0f, 1.0f}, {-1.0f, -2.0f}, {3.7f, -2.6f}};
    float2 all[NP + 8];
    memcpy(all, npts, sizeof npts);
    memcpy(all + NP, more, sizeof more);
    CHECK(cudaMemcpy(dpts, all, sizeof all, cudaMemcpyHostToDevice));
    for (int m = 0; m < 4; m++) {
        cudaTextureObject_t t = makeTex(a, modes[m], true);
        sample2D<<<1, NP + 8>>>(t, dpts, o4, NP + 8);
        CHECK(cudaMemcpy(r4, o4, (NP + 8) * sizeof(float4), cudaMemcpyDeviceToHost));
        printf("2D normalized %-6s:", modeName(modes[m]));
        for (int i = 0; i < NP + 8; i++) printf(" %g", r4[i].x);
        printf("\n");
        CHECK(cudaDestroyTextureObject(t));
    }

    // ---- 8- and 16-bit formats ----
    uchar4 px[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++)
        px[y][x] = make_uchar4(x * 60 + 1, y * 80 + 2, 255 - x * y * 10, (x + y) * 31);
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t ua;
    CHECK(cudaMallocArray(&ua, &c4, W, H));
    CHECK(cudaMemcpy2DToArray(ua, 0, 0, px, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dpts, pts, sizeof pts, cudaMemcpyHostToDevice));
    cudaTextureObject_t un = makeTex(ua, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat);
    sample2D<<<1, NP>>>(un, dpts, o4, NP);
    CHECK(cudaMemcpy(r4, o4, NP * sizeof(float4), cudaMemcpyDeviceToHost));
    printf("uchar4 normalized:");
    for (int i = 0; i < NP; i++) printf(" %08x/%08x/%08x/%08x", fbits(r4[i].x), fbits(r4[i].y), fbits(r4[i].z), fbits(r4[i].w));
    printf("\n");
    cudaTextureObject_t ue = makeTex(ua, cudaAddressModeBorder, false);
    uint4 *ou;
    CHECK(cudaMalloc(&ou, 64 * sizeof(uint4)));
    sample2Dui<<<1, NP>>>(ue, dpts, ou, NP);
    uint4 ru[NP];
    CHECK(cudaMemcpy(ru, ou, sizeof ru, cudaMemcpyDeviceToHost));
    printf("uchar4 element (border):");
    for (int i = 0; i < NP; i++) printf(" %u/%u/%u/%u", ru[i].x, ru[i].y, ru[i].z, ru[i].w);
    printf("\n");
    // signed 8-bit and 16-bit, one and two channels
    char2 sc[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) sc[y][x] = make_char2((char)(x * 50 - 128), (char)(y * 40 - 60));
    cudaChannelFormatDesc c2 = cudaCreateChannelDesc<char2>();
    cudaArray_t sa;
    CHECK(cudaMallocArray(&sa, &c2, W, H));
    CHECK(cudaMemcpy2DToArray(sa, 0, 0, sc, W * 2, W * 2, H, cudaMemcpyHostToDevice));
    cudaTextureObject_t sn = makeTex(sa, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat);
    sample2D<<<1, NP>>>(sn, dpts, o4, NP);
    CHECK(cudaMemcpy(r4, o4, NP * sizeof(float4), cudaMemcpyDeviceToHost));
    printf("char2 normalized:");
    for (int i = 0; i < NP; i++) printf(" %08x/%08x/%08x/%08x", fbits(r4[i].x), fbits(r4[i].y), fbits(r4[i].z), fbits(r4[i].w));
    printf("\n");
    cudaTextureObject_t se = makeTex(sa, cudaAddressModeClamp, false);
    int4 *oi4;
    CHECK(cudaMalloc(&oi4, 64 * sizeof(int4)));
    sample2Di<<<1, NP>>>(se, dpts, oi4, NP);
    int4 rs[NP];
    CHECK(cudaMemcpy(rs, oi4, sizeof rs, cudaMemcpyDeviceToHost));
    printf("char2 element:");
    for (int i = 0; i < NP; i++) printf(" %d/%d/%d/%d", rs[i].x, rs[i].y, rs[i].z, rs[i].w);
    printf("\n");
    unsigned short us[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) us[y][x] = (unsigned short)(x * 13107 + y * 1000);
    cudaChannelFormatDesc c16 = cudaCreateChannelDesc<unsigned short>();
    cudaArray_t usa;
    CHECK(cudaMallocArray(&usa, &c16, W, H));
    CHECK(cudaMemcpy2DToArray(usa, 0, 0, us, W * 2, W * 2, H, cudaMemcpyHostToDevice));
    cudaTextureObject_t usn = makeTex(usa, cudaAddressModeWrap, true, cudaReadModeNormalizedFloat);
    CHECK(cudaMemcpy(dpts, all, sizeof all, cudaMemcpyHostToDevice));
    sample2D<<<1, NP + 8>>>(usn, dpts, o4, NP + 8);
    CHECK(cudaMemcpy(r4, o4, (NP + 8) * sizeof(float4), cudaMemcpyDeviceToHost));
    printf("ushort normalized wrap:");
    for (int i = 0; i < NP + 8; i++) printf(" %08x/%08x/%08x/%08x", fbits(r4[i].x), fbits(r4[i].y), fbits(r4[i].z), fbits(r4[i].w));
    printf("\n");
    // half floats
    __half hh[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) hh[y][x] = __float2half(x * 0.3f - y * 1.7f);
    cudaChannelFormatDesc ch = cudaCreateChannelDescHalf();
    cudaArray_t ha;
    CHECK(cudaMallocArray(&ha, &ch, W, H));
    CHECK(cudaMemcpy2DToArray(ha, 0, 0, hh, W * 2, W * 2, H, cudaMemcpyHostToDevice));
    cudaTextureObject_t ht = makeTex(ha, cudaAddressModeClamp, false);
    CHECK(cudaMemcpy(dpts, pts, sizeof pts, cudaMemcpyHostToDevice));
    sample2D<<<1, NP>>>(ht, dpts, o4, NP);
    CHECK(cudaMemcpy(r4, o4, NP * sizeof(float4), cudaMemcpyDeviceToHost));
    printf("half:");
    for (int i = 0; i < NP; i++) printf(" %08x/%08x/%08x/%08x", fbits(r4[i].x), fbits(r4[i].y), fbits(r4[i].z), fbits(r4[i].w));
    printf("\n");
    // float2 (missing channels)
    float2 f2[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) f2[y][x] = make_float2(x + 0.25f, -y);
    cudaChannelFormatDesc cf2 = cudaCreateChannelDesc<float2>();
    cudaArray_t f2a;
    CHECK(cudaMallocArray(&f2a, &cf2, W, H));
    CHECK(cudaMemcpy2DToArray(f2a, 0, 0, f2, W * 8, W * 8, H, cudaMemcpyHostToDevice));
    cudaTextureObject_t f2t = makeTex(f2a, cudaAddressModeBorder, false);
    sample2D<<<1, NP>>>(f2t, dpts, o4, NP);
    CHECK(cudaMemcpy(r4, o4, NP * sizeof(float4), cudaMemcpyDeviceToHost));
    printf("float2 border:");
    for (int i = 0; i < NP; i++) printf(" %g/%g/%g/%g", r4[i].x, r4[i].y, r4[i].z, r4[i].w);
    printf("\n");

    // ---- 1D array, pitched 2D memory, 3D array ----
    cudaArray_t a1;
    CHECK(cudaMallocArray(&a1, &fd, 7));
    float line[7] = {1, 2, 4, 8, 16, 32, 64};
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, line, sizeof line, sizeof line, 1, cudaMemcpyHostToDevice));
    float xs[10] = {-1.5f, 0, 0.5f, 1.49f, 3.5f, 6.99f, 7.0f, 8.2f, 13.7f, -8.1f};
    float *dxs;
    CHECK(cudaMalloc(&dxs, sizeof xs));
    CHECK(cudaMemcpy(dxs, xs, sizeof xs, cudaMemcpyHostToDevice));
    for (int m = 0; m < 4; m++) {
        cudaTextureObject_t t = makeTex(a1, modes[m], false);
        sample1D<<<1, 10>>>(t, dxs, o4, 10);
        CHECK(cudaMemcpy(r4, o4, 10 * sizeof(float4), cudaMemcpyDeviceToHost));
        printf("1D %-6s:", modeName(modes[m]));
        for (int i = 0; i < 10; i++) printf(" %g/%g/%g/%g", r4[i].x, r4[i].y, r4[i].z, r4[i].w);
        printf("\n");
    }
    float *pitched;
    size_t pitch;
    CHECK(cudaMallocPitch(&pitched, &pitch, W * sizeof(float), H));
    CHECK(cudaMemcpy2D(pitched, pitch, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaResourceDesc pr = {};
    pr.resType = cudaResourceTypePitch2D;
    pr.res.pitch2D.devPtr = pitched;
    pr.res.pitch2D.desc = fd;
    pr.res.pitch2D.width = W;
    pr.res.pitch2D.height = H;
    pr.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc ptd = {};
    ptd.addressMode[0] = ptd.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t pt;
    CHECK(cudaCreateTextureObject(&pt, &pr, &ptd, NULL));
    sample2D<<<1, NP>>>(pt, dpts, o4, NP);
    CHECK(cudaMemcpy(r4, o4, NP * sizeof(float4), cudaMemcpyDeviceToHost));
    printf("pitch2D:");
    for (int i = 0; i < NP; i++) printf(" %g", r4[i].x);
    printf("\n");
    cudaArray_t a3;
    CHECK(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(4, 3, 2)));
    float vol[2][3][4];
    for (int z = 0; z < 2; z++) for (int y = 0; y < 3; y++) for (int x = 0; x < 4; x++) vol[z][y][x] = z * 100 + y * 10 + x;
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(vol, 4 * sizeof(float), 4, 3);
    p.dstArray = a3;
    p.extent = make_cudaExtent(4, 3, 2);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    float4 p3[8] = {{0.5f, 0.5f, 0.5f, 0}, {3.9f, 2.1f, 1.2f, 0}, {-1, 5, 9, 0}, {2.5f, 1.5f, 1.99f, 0},
                    {0.25f, 0.75f, 0.5f, 0}, {1.1f, -0.3f, 0.2f, 0}, {0.9f, 0.6f, 0.999f, 0}, {-0.5f, 0.5f, 1.5f, 0}};
    float4 *dp3;
    CHECK(cudaMalloc(&dp3, sizeof p3));
    CHECK(cudaMemcpy(dp3, p3, sizeof p3, cudaMemcpyHostToDevice));
    cudaTextureObject_t t3c = makeTex(a3, cudaAddressModeClamp, false), t3w = makeTex(a3, cudaAddressModeWrap, true);
    sample3D<<<1, 8>>>(t3c, dp3, of, 8);
    CHECK(cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost));
    printf("3D clamp:");
    for (int i = 0; i < 8; i++) printf(" %g", rf[i]);
    printf("\n");
    sample3D<<<1, 8>>>(t3w, dp3, of, 8);
    CHECK(cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost));
    printf("3D normalized wrap:");
    for (int i = 0; i < 8; i++) printf(" %g", rf[i]);
    printf("\n");

    // ---- the descriptor getters ----
    cudaTextureObject_t tq[1] = {makeTex(a, cudaAddressModeMirror, true, cudaReadModeElementType, cudaFilterModeLinear)};
    cudaResourceDesc gr;
    cudaTextureDesc gt;
    CHECK(cudaGetTextureObjectResourceDesc(&gr, pt));
    printf("resource: type=%d width=%zu height=%zu pitch_ok=%d ptr_ok=%d desc.x=%d\n", (int)gr.resType,
           gr.res.pitch2D.width, gr.res.pitch2D.height, gr.res.pitch2D.pitchInBytes == pitch,
           gr.res.pitch2D.devPtr == pitched, gr.res.pitch2D.desc.x);
    CHECK(cudaGetTextureObjectTextureDesc(&gt, tq[0]));
    printf("texdesc: addr=%d,%d,%d filter=%d read=%d norm=%d border=%g,%g,%g,%g\n", gt.addressMode[0],
           gt.addressMode[1], gt.addressMode[2], gt.filterMode, gt.readMode, gt.normalizedCoords,
           gt.borderColor[0], gt.borderColor[1], gt.borderColor[2], gt.borderColor[3]);
    CHECK(cudaGetTextureObjectResourceDesc(&gr, lt));
    printf("linear: type=%d size=%zu ptr_ok=%d\n", (int)gr.resType, gr.res.linear.sizeInBytes, gr.res.linear.devPtr == df4);

    // ---- errors ----
    cudaTextureObject_t bad;
    cudaResourceDesc br = {};
    br.resType = cudaResourceTypeArray;
    br.res.array.array = a;
    cudaTextureDesc btd = {};
    SHOW(cudaCreateTextureObject(NULL, &br, &btd, NULL));
    SHOW(cudaCreateTextureObject(&bad, NULL, &btd, NULL));
    SHOW(cudaCreateTextureObject(&bad, &br, NULL, NULL));
    br.res.array.array = NULL;
    SHOW(cudaCreateTextureObject(&bad, &br, &btd, NULL));
    br.res.array.array = ua;
    btd.filterMode = cudaFilterModeLinear;
    SHOW(cudaCreateTextureObject(&bad, &br, &btd, NULL));
    btd.filterMode = cudaFilterModePoint;
    lr.res.linear.devPtr = df4;
    lr.res.linear.desc = cudaCreateChannelDesc<float>();
    lr.res.linear.sizeInBytes = 0;
    SHOW(cudaCreateTextureObject(&bad, &lr, &btd, NULL));
    lr.res.linear.devPtr = (char *)df4 + 4;
    lr.res.linear.sizeInBytes = 64;
    SHOW(cudaCreateTextureObject(&bad, &lr, &btd, NULL));
    pr.res.pitch2D.pitchInBytes = pitch + 4;
    SHOW(cudaCreateTextureObject(&bad, &pr, &btd, NULL));
    btd.readMode = cudaReadModeNormalizedFloat;
    SHOW(cudaCreateTextureObject(&bad, &br, &btd, NULL));
    br.res.array.array = a;
    SHOW(cudaCreateTextureObject(&bad, &br, &btd, NULL));
    SHOW(cudaDestroyTextureObject(0));
    SHOW(cudaGetTextureObjectTextureDesc(NULL, pt));
    SHOW(cudaGetLastError());
    printf("done\n");
    return 0;
}
