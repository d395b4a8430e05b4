// tests/driver/textures.cu — CUDA arrays, texture and surface objects made with the driver
// API (cuArrayCreate, cuArray3DCreate, cuTexObjectCreate, cuSurfObjectCreate), filled and
// read back with cuMemcpy2D and cuMemcpy3D, sampled by kernels: point and linear filtering,
// normalized coordinates, clamp and wrap, integer and normalized-float reads; and the errors
// of bad arguments. Floats print as hex, bit for bit.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cu_check.h"

static unsigned hex(float f) {
    unsigned u;
    memcpy(&u, &f, 4);
    return u;
}

#define NS 6
__constant__ float2 coords[NS] = {{0.5f, 0.5f}, {3.25f, 1.75f}, {7.9f, 3.1f},
                                  {-1.0f, 2.5f}, {9.5f, -0.6f}, {1.0f, 1.0f}};

// float texture, unnormalized coordinates
__global__ void sampleFloat(cudaTextureObject_t t, float *out, float scale) {
    int i = threadIdx.x;
    if (i < NS) out[i] = tex2D<float>(t, coords[i].x * scale, coords[i].y * scale);
}
// uchar4 read as integers
__global__ void sampleInt(cudaTextureObject_t t, unsigned *out) {
    int i = threadIdx.x;
    if (i < NS) {
        uchar4 v = tex2D<uchar4>(t, coords[i].x * 0.5f, coords[i].y);
        out[i] = v.x | v.y << 8 | v.z << 16 | (unsigned)v.w << 24;
    }
}
// uchar4 read as normalized floats
__global__ void sampleNorm(cudaTextureObject_t t, float4 *out) {
    int i = threadIdx.x;
    if (i < NS) out[i] = tex2D<float4>(t, coords[i].x * 0.5f, coords[i].y);
}
__global__ void writeSurf(cudaSurfaceObject_t s, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h) surf2Dwrite(x * 1.5f - y * 0.25f, s, x * 4, y);
}
__global__ void sample3D(cudaTextureObject_t t, float *out) {
    int i = threadIdx.x;
    if (i < 8) out[i] = tex3D<float>(t, 0.5f + i % 4, 0.5f + i / 4 * 1.5f, 0.4f + i * 0.2f);
}

static void printFloats(const char *what, const float *v, int n) {
    printf("%s:", what);
    for (int i = 0; i < n; i++) printf(" %08x", hex(v[i]));
    printf("\n");
}

static CUtexObject makeTex(CUarray a, CUaddress_mode am, CUfilter_mode fm, unsigned flags) {
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = a;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = am;
    td.filterMode = fm;
    td.flags = flags;
    CUtexObject t;
    CU(cuTexObjectCreate(&t, &rd, &td, NULL));
    return t;
}

int main(void) {
    cudaSetDevice(0);
    cudaFree(0); // the runtime's primary context is current
    CU(cuInit(0));
    const int W = 8, H = 4;

    // a 2D float array
    float host[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) host[y][x] = x * 1.25f + y * 10.0f + 0.125f;
    CUDA_ARRAY_DESCRIPTOR ad = {};
    ad.Width = W;
    ad.Height = H;
    ad.Format = CU_AD_FORMAT_FLOAT;
    ad.NumChannels = 1;
    CUarray fa;
    CU(cuArrayCreate(&fa, &ad));
    CUDA_ARRAY_DESCRIPTOR back;
    CU(cuArrayGetDescriptor(&back, fa));
    printf("float array: %zu x %zu format 0x%x channels %u\n", back.Width, back.Height,
           (unsigned)back.Format, back.NumChannels);
    CUDA_MEMCPY2D m;
    memset(&m, 0, sizeof m);
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcHost = host;
    m.srcPitch = sizeof host[0];
    m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    m.dstArray = fa;
    m.WidthInBytes = W * sizeof(float);
    m.Height = H;
    CU(cuMemcpy2D(&m));

    float *dout;
    cudaMalloc(&dout, 64 * sizeof(float));
    float out[64];
    CUtexObject tp = makeTex(fa, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
    sampleFloat<<<1, 32>>>(tp, dout, 1.0f);
    cudaMemcpy(out, dout, NS * sizeof(float), cudaMemcpyDeviceToHost);
    printFloats("point clamp", out, NS);
    CUtexObject tl = makeTex(fa, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
    sampleFloat<<<1, 32>>>(tl, dout, 1.0f);
    cudaMemcpy(out, dout, NS * sizeof(float), cudaMemcpyDeviceToHost);
    printFloats("linear clamp", out, NS);
    CUtexObject tw = makeTex(fa, CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_LINEAR,
                             CU_TRSF_NORMALIZED_COORDINATES);
    sampleFloat<<<1, 32>>>(tw, dout, 0.15f);
    cudaMemcpy(out, dout, NS * sizeof(float), cudaMemcpyDeviceToHost);
    printFloats("linear wrap normalized", out, NS);
    CUtexObject twp = makeTex(fa, CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_POINT,
                              CU_TRSF_NORMALIZED_COORDINATES);
    sampleFloat<<<1, 32>>>(twp, dout, 0.15f);
    cudaMemcpy(out, dout, NS * sizeof(float), cudaMemcpyDeviceToHost);
    printFloats("point wrap normalized", out, NS);

    // a uchar4 array, 4 x 4
    unsigned char px[4][4][4];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            for (int c = 0; c < 4; c++) px[y][x][c] = (unsigned char)(x * 60 + y * 17 + c * 5);
    ad.Width = 4;
    ad.Height = 4;
    ad.Format = CU_AD_FORMAT_UNSIGNED_INT8;
    ad.NumChannels = 4;
    CUarray ua;
    CU(cuArrayCreate(&ua, &ad));
    m.srcHost = px;
    m.srcPitch = sizeof px[0];
    m.dstArray = ua;
    m.WidthInBytes = 16;
    m.Height = 4;
    CU(cuMemcpy2D(&m));
    CUtexObject ti = makeTex(ua, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT,
                             CU_TRSF_READ_AS_INTEGER);
    unsigned *uout;
    cudaMalloc(&uout, NS * sizeof(unsigned));
    sampleInt<<<1, 32>>>(ti, uout);
    unsigned uh[NS];
    cudaMemcpy(uh, uout, sizeof uh, cudaMemcpyDeviceToHost);
    printf("uchar4 as integer:");
    for (int i = 0; i < NS; i++) printf(" %08x", uh[i]);
    printf("\n");
    CUtexObject tn = makeTex(ua, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
    sampleNorm<<<1, 32>>>(tn, (float4 *)dout);
    cudaMemcpy(out, dout, NS * 4 * sizeof(float), cudaMemcpyDeviceToHost);
    printFloats("uchar4 normalized linear", out, NS * 4);

    // a surface over an array made with CUDA_ARRAY3D_SURFACE_LDST
    CUDA_ARRAY3D_DESCRIPTOR a3 = {};
    a3.Width = W;
    a3.Height = H;
    a3.Format = CU_AD_FORMAT_FLOAT;
    a3.NumChannels = 1;
    a3.Flags = CUDA_ARRAY3D_SURFACE_LDST;
    CUarray sa;
    CU(cuArray3DCreate(&sa, &a3));
    CUDA_ARRAY3D_DESCRIPTOR a3b;
    CU(cuArray3DGetDescriptor(&a3b, sa));
    printf("surface array: %zu x %zu x %zu flags 0x%x\n", a3b.Width, a3b.Height, a3b.Depth,
           a3b.Flags);
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = sa;
    CUsurfObject so;
    CU(cuSurfObjectCreate(&so, &rd));
    writeSurf<<<1, dim3(W, H)>>>(so, W, H);
    CU(cuCtxSynchronize());
    float sh[H][W + 2];
    memset(sh, 0, sizeof sh);
    memset(&m, 0, sizeof m);
    m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    m.srcArray = sa;
    m.srcXInBytes = 4;
    m.srcY = 1;
    m.dstMemoryType = CU_MEMORYTYPE_HOST;
    m.dstHost = sh;
    m.dstPitch = sizeof sh[0];
    m.WidthInBytes = (W - 1) * sizeof(float);
    m.Height = H - 1;
    CU(cuMemcpy2D(&m));
    printFloats("surface rows 1-3 from x 1", &sh[0][0], H * (W + 2));

    // a 3D array, filled and read back with cuMemcpy3D
    float vol[2][3][4], volBack[2][3][4];
    for (int i = 0; i < 24; i++) (&vol[0][0][0])[i] = i * 0.5f - 3.0f;
    a3.Width = 4;
    a3.Height = 3;
    a3.Depth = 2;
    a3.Flags = 0;
    CUarray va;
    CU(cuArray3DCreate(&va, &a3));
    CUDA_MEMCPY3D m3;
    memset(&m3, 0, sizeof m3);
    m3.srcMemoryType = CU_MEMORYTYPE_HOST;
    m3.srcHost = vol;
    m3.srcPitch = 4 * sizeof(float);
    m3.srcHeight = 3;
    m3.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    m3.dstArray = va;
    m3.WidthInBytes = 4 * sizeof(float);
    m3.Height = 3;
    m3.Depth = 2;
    CU(cuMemcpy3D(&m3));
    CUtexObject t3 = makeTex(va, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
    sample3D<<<1, 32>>>(t3, dout);
    cudaMemcpy(out, dout, 8 * sizeof(float), cudaMemcpyDeviceToHost);
    printFloats("3D linear", out, 8);
    memset(&m3, 0, sizeof m3);
    m3.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    m3.srcArray = va;
    m3.dstMemoryType = CU_MEMORYTYPE_HOST;
    m3.dstHost = volBack;
    m3.dstPitch = 4 * sizeof(float);
    m3.dstHeight = 3;
    m3.WidthInBytes = 4 * sizeof(float);
    m3.Height = 3;
    m3.Depth = 2;
    CU(cuMemcpy3D(&m3));
    printf("3D round trip %s\n", memcmp(vol, volBack, sizeof vol) ? "differs" : "equal");

    // a pitch2D texture over cuMemAllocPitch memory, and its resource descriptor
    CUdeviceptr pm;
    size_t pitch;
    CU(cuMemAllocPitch(&pm, &pitch, W * sizeof(float), H, 4));
    memset(&m, 0, sizeof m);
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcHost = host;
    m.srcPitch = sizeof host[0];
    m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    m.dstDevice = pm;
    m.dstPitch = pitch;
    m.WidthInBytes = W * sizeof(float);
    m.Height = H;
    CU(cuMemcpy2D(&m));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_PITCH2D;
    rd.res.pitch2D.devPtr = pm;
    rd.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
    rd.res.pitch2D.numChannels = 1;
    rd.res.pitch2D.width = W;
    rd.res.pitch2D.height = H;
    rd.res.pitch2D.pitchInBytes = pitch;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    CUtexObject tpm;
    CU(cuTexObjectCreate(&tpm, &rd, &td, NULL));
    sampleFloat<<<1, 32>>>(tpm, dout, 1.0f);
    cudaMemcpy(out, dout, NS * sizeof(float), cudaMemcpyDeviceToHost);
    printFloats("pitch2D linear", out, NS);
    CUDA_RESOURCE_DESC rb;
    CU(cuTexObjectGetResourceDesc(&rb, tpm));
    printf("pitch2D resource: type %d same pointer %d format 0x%x channels %u %zu x %zu\n",
           (int)rb.resType, rb.res.pitch2D.devPtr == pm, (unsigned)rb.res.pitch2D.format,
           rb.res.pitch2D.numChannels, rb.res.pitch2D.width, rb.res.pitch2D.height);
    CU(cuTexObjectGetResourceDesc(&rb, tp));
    printf("array resource: type %d same array %d\n", (int)rb.resType, rb.res.array.hArray == fa);

    // bad arguments
    CUarray bad;
    ad.Width = 4;
    ad.Height = 4;
    ad.Format = CU_AD_FORMAT_FLOAT;
    ad.NumChannels = 3;
    printf("3 channels: %d\n", (int)cuArrayCreate(&bad, &ad));
    ad.NumChannels = 1;
    ad.Format = (CUarray_format)0x77;
    printf("unknown format: %d\n", (int)cuArrayCreate(&bad, &ad));
    printf("no descriptor: %d\n", (int)cuArrayCreate(&bad, NULL));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = fa;
    CUtexObject tbad;
    printf("no texture descriptor: %d\n", (int)cuTexObjectCreate(&tbad, &rd, NULL, NULL));
    memset(&m, 0, sizeof m);
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcHost = host;
    m.srcPitch = sizeof host[0];
    m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    m.dstArray = fa;
    m.dstY = 2;
    m.WidthInBytes = W * sizeof(float);
    m.Height = H;
    printf("copy past the array's end: %d\n", (int)cuMemcpy2D(&m));

    CU(cuTexObjectDestroy(tp));
    CU(cuTexObjectDestroy(tl));
    CU(cuTexObjectDestroy(tw));
    CU(cuTexObjectDestroy(twp));
    CU(cuTexObjectDestroy(ti));
    CU(cuTexObjectDestroy(tn));
    CU(cuTexObjectDestroy(t3));
    CU(cuTexObjectDestroy(tpm));
    CU(cuSurfObjectDestroy(so));
    CU(cuArrayDestroy(fa));
    CU(cuArrayDestroy(ua));
    CU(cuArrayDestroy(sa));
    CU(cuArrayDestroy(va));
    CU(cuMemFree(pm));
    printf("last runtime error: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("done\n");
    return 0;
}
