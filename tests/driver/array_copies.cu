// tests/driver/array_copies.cu — the driver API's copies to and from CUDA arrays by byte
// offset (cuMemcpyHtoA, AtoH, AtoA, DtoA, AtoD, HtoAAsync, AtoHAsync) over 1D and 2D arrays,
// mipmapped arrays (cuMipmappedArrayCreate, GetLevel, Destroy, their descriptors) and a
// texture object over one sampled at chosen levels of detail; and the error codes of bad
// arguments. Each line is flushed as printed, so that a step that fails shows where.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cu_check.h"
#define SAY(...) (printf(__VA_ARGS__), fflush(stdout))

__global__ void sampleLod(cudaTextureObject_t t, const float *lods, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2DLod<float>(t, 0.3f + 0.05f * i, 0.6f, lods[i]);
}
__global__ void sampleLodU8(cudaTextureObject_t t, const float *lods, float4 *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2DLod<float4>(t, 0.25f, 0.75f, lods[i]);
}

static void show(const char *what, const unsigned *v, int n) {
    printf("%s:", what);
    for (int i = 0; i < n; i++) printf(" %u", v[i]);
    SAY("\n");
}

static CUarray array1D(size_t w) {
    CUDA_ARRAY_DESCRIPTOR d;
    memset(&d, 0, sizeof d);
    d.Width = w;
    d.Format = CU_AD_FORMAT_UNSIGNED_INT32;
    d.NumChannels = 1;
    CUarray a;
    CU(cuArrayCreate(&a, &d));
    return a;
}

int main() {
    CU(cuInit(0));
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));

    enum { N = 64 };
    unsigned h[N], back[N];
    for (int i = 0; i < N; i++) h[i] = 1000 + i;

    // ---- 1D arrays ----
    CUarray a = array1D(N), b = array1D(N);
    CU(cuMemcpyHtoA(a, 0, h, sizeof h));
    memset(back, 0, sizeof back);
    CU(cuMemcpyAtoH(back, a, 0, sizeof back));
    show("HtoA then AtoH", back, 8);
    unsigned part[4] = {7, 8, 9, 10};
    CU(cuMemcpyHtoA(a, 12, part, sizeof part)); // elements 3..6
    CU(cuMemcpyAtoH(back, a, 8, 8 * sizeof(unsigned)));
    show("HtoA at byte 12, AtoH from byte 8", back, 8);
    CU(cuMemcpyHtoA(b, 0, h, sizeof h));
    CU(cuMemcpyAtoA(b, 40, a, 8, 24)); // a's elements 2..7 to b's 10..15
    CU(cuMemcpyAtoH(back, b, 32, 12 * sizeof(unsigned)));
    show("AtoA", back, 12);
    CUdeviceptr d;
    CU(cuMemAlloc(&d, N * sizeof(unsigned)));
    CU(cuMemsetD32(d, 0xdead, N));
    CU(cuMemcpyAtoD(d + 16, a, 4, 20)); // a's elements 1..5 to d's 4..8
    CU(cuMemcpyDtoH(back, d, 12 * sizeof(unsigned)));
    show("AtoD", back, 12);
    CU(cuMemcpyDtoA(b, 4, d, 16)); // d's 0..3 to b's 1..4
    CU(cuMemcpyAtoH(back, b, 0, 8 * sizeof(unsigned)));
    show("DtoA", back, 8);
    CUstream s;
    CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    unsigned *pin;
    CU(cuMemHostAlloc((void **)&pin, 2 * N * sizeof(unsigned), 0));
    for (int i = 0; i < N; i++) pin[i] = 5000 + 3 * i;
    CU(cuMemcpyHtoAAsync(a, 16, pin, 16 * sizeof(unsigned), s));
    CU(cuMemcpyAtoHAsync(pin + N, a, 0, 24 * sizeof(unsigned), s));
    CU(cuStreamSynchronize(s));
    show("HtoAAsync then AtoHAsync", pin + N, 24);
    CU(cuMemcpyHtoAAsync(a, 0, h, 8, s)); // pageable memory is accepted too
    CU(cuStreamSynchronize(s));
    CU(cuMemcpyAtoH(back, a, 0, 4 * sizeof(unsigned)));
    show("HtoAAsync from pageable memory", back, 4);
    SAY("zero bytes: HtoA %d AtoH %d AtoA %d\n", (int)cuMemcpyHtoA(a, 0, h, 0),
        (int)cuMemcpyAtoH(back, a, 0, 0), (int)cuMemcpyAtoA(b, 0, a, 0, 0));

    // ---- a 2D array: offsets run on into the following rows ----
    CUDA_ARRAY_DESCRIPTOR d2;
    memset(&d2, 0, sizeof d2);
    d2.Width = 8;
    d2.Height = 4;
    d2.Format = CU_AD_FORMAT_UNSIGNED_INT32;
    d2.NumChannels = 1;
    CUarray a2;
    CU(cuArrayCreate(&a2, &d2));
    SAY("2D: HtoA of all 32 elements: %d\n", (int)cuMemcpyHtoA(a2, 0, h, 32 * sizeof(unsigned)));
    SAY("2D: HtoA of 4 elements from byte 24: %d\n", (int)cuMemcpyHtoA(a2, 24, part, sizeof part));
    SAY("2D: HtoA of 4 elements from byte 40: %d\n", (int)cuMemcpyHtoA(a2, 40, part, sizeof part));
    memset(back, 0, sizeof back);
    CUDA_MEMCPY2D m;
    memset(&m, 0, sizeof m);
    m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    m.srcArray = a2;
    m.dstMemoryType = CU_MEMORYTYPE_HOST;
    m.dstHost = back;
    m.dstPitch = 8 * sizeof(unsigned);
    m.WidthInBytes = 8 * sizeof(unsigned);
    m.Height = 4;
    CU(cuMemcpy2D(&m));
    show("2D contents", back, 32);
    memset(back, 0, sizeof back);
    SAY("2D: AtoH of a row from byte 0: %d\n", (int)cuMemcpyAtoH(back, a2, 0, 32));
    show("2D: first row", back, 8);
    SAY("2D: AtoH of 2 rows from byte 0: %d\n", (int)cuMemcpyAtoH(back, a2, 0, 64));
    SAY("2D: AtoH of 4 elements from byte 48: %d\n", (int)cuMemcpyAtoH(back, a2, 48, 16));

    // ---- errors of the offset copies ----
    SAY("HtoA past the end: %d\n", (int)cuMemcpyHtoA(a, 4, h, sizeof h));
    SAY("HtoA offset at the end: %d\n", (int)cuMemcpyHtoA(a, sizeof h, h, 4));
    SAY("HtoA unaligned offset: %d\n", (int)cuMemcpyHtoA(a, 2, h, 4));
    SAY("HtoA partial element: %d\n", (int)cuMemcpyHtoA(a, 0, h, 6));
    SAY("AtoH past the end: %d\n", (int)cuMemcpyAtoH(back, a, 8, sizeof h));
    SAY("AtoA past the destination's end: %d\n", (int)cuMemcpyAtoA(b, 200, a, 0, 64));
    SAY("AtoA past the source's end: %d\n", (int)cuMemcpyAtoA(b, 0, a, 200, 64));
    SAY("DtoA past the end: %d\n", (int)cuMemcpyDtoA(a, 0, d, 2 * sizeof h));
    SAY("AtoD past the end: %d\n", (int)cuMemcpyAtoD(d, a, 128, 256));
    SAY("HtoA null array: %d\n", (int)cuMemcpyHtoA((CUarray)0, 0, h, 4));
    SAY("AtoH null array: %d\n", (int)cuMemcpyAtoH(back, (CUarray)0, 0, 4));
    SAY("HtoAAsync past the end: %d\n", (int)cuMemcpyHtoAAsync(a, 0, pin, 2 * sizeof h, s));
    SAY("AtoHAsync null array: %d\n", (int)cuMemcpyAtoHAsync(pin, (CUarray)0, 0, 4, s));
    CU(cuStreamSynchronize(s));

    // ---- mipmapped arrays ----
    CUDA_ARRAY3D_DESCRIPTOR md;
    memset(&md, 0, sizeof md);
    md.Width = 16;
    md.Height = 8;
    md.Format = CU_AD_FORMAT_FLOAT;
    md.NumChannels = 1;
    CUmipmappedArray mm;
    CU(cuMipmappedArrayCreate(&mm, &md, 5));
    for (unsigned L = 0; L < 5; L++) {
        CUarray lv;
        CU(cuMipmappedArrayGetLevel(&lv, mm, L));
        CUDA_ARRAY3D_DESCRIPTOR ld;
        CU(cuArray3DGetDescriptor(&ld, lv));
        size_t w = ld.Width, hh = ld.Height ? ld.Height : 1;
        SAY("level %u: %zu x %zu x %zu format 0x%x channels %u flags %u\n", L, ld.Width,
            ld.Height, ld.Depth, (unsigned)ld.Format, ld.NumChannels, ld.Flags);
        float v[128];
        for (size_t i = 0; i < w * hh; i++) v[i] = (float)L * 10 + (float)(i % w);
        memset(&m, 0, sizeof m);
        m.srcMemoryType = CU_MEMORYTYPE_HOST;
        m.srcHost = v;
        m.srcPitch = w * sizeof(float);
        m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        m.dstArray = lv;
        m.WidthInBytes = w * sizeof(float);
        m.Height = hh;
        CU(cuMemcpy2D(&m));
    }
    CUarray lv0, lv0b;
    CU(cuMipmappedArrayGetLevel(&lv0, mm, 0));
    CU(cuMipmappedArrayGetLevel(&lv0b, mm, 0));
    SAY("level 0 twice, same handle: %d\n", lv0 == lv0b);
    float row[16];
    CU(cuMemcpyAtoH(row, lv0, 0, sizeof row)); // the first row of level 0
    SAY("level 0 row 0 through AtoH: %g %g %g\n", row[0], row[7], row[15]);

    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    rd.res.mipmap.hMipmappedArray = mm;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
    td.maxMipmapLevelClamp = 4;
    td.flags = CU_TRSF_NORMALIZED_COORDINATES;
    CUtexObject t;
    CU(cuTexObjectCreate(&t, &rd, &td, NULL));
    enum { NL = 8 };
    const float lods[NL] = {0.0f, 0.5f, 1.0f, 1.25f, 2.75f, 3.5f, 4.0f, 9.0f};
    CUdeviceptr dl, dout;
    CU(cuMemAlloc(&dl, sizeof lods));
    CU(cuMemAlloc(&dout, NL * sizeof(float4)));
    CU(cuMemcpyHtoD(dl, lods, sizeof lods));
    sampleLod<<<1, 32>>>(t, (const float *)dl, (float *)dout, NL);
    float got[NL];
    CU(cuMemcpyDtoH(got, dout, sizeof got));
    printf("tex2DLod over a mipmapped array:");
    for (int i = 0; i < NL; i++) printf(" %.5f", got[i]);
    SAY("\n");
    CUDA_RESOURCE_DESC rb;
    CU(cuTexObjectGetResourceDesc(&rb, t));
    SAY("resource: type %d same mipmapped array %d\n", (int)rb.resType,
        rb.res.mipmap.hMipmappedArray == mm);
    CU(cuTexObjectDestroy(t));

    // an 8-bit four-channel mipmapped array read as normalized floats
    md.Width = 8;
    md.Height = 8;
    md.Format = CU_AD_FORMAT_UNSIGNED_INT8;
    md.NumChannels = 4;
    CUmipmappedArray m8;
    CU(cuMipmappedArrayCreate(&m8, &md, 4));
    for (unsigned L = 0; L < 4; L++) {
        CUarray lv;
        CU(cuMipmappedArrayGetLevel(&lv, m8, L));
        size_t w = 8 >> L;
        unsigned char px[8 * 8 * 4];
        for (size_t i = 0; i < w * w; i++) {
            px[4 * i] = (unsigned char)(40 * L + 3);
            px[4 * i + 1] = (unsigned char)(255 - 50 * L);
            px[4 * i + 2] = (unsigned char)(i & 0xff);
            px[4 * i + 3] = 128;
        }
        memset(&m, 0, sizeof m);
        m.srcMemoryType = CU_MEMORYTYPE_HOST;
        m.srcHost = px;
        m.srcPitch = w * 4;
        m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        m.dstArray = lv;
        m.WidthInBytes = w * 4;
        m.Height = w;
        CU(cuMemcpy2D(&m));
    }
    rd.res.mipmap.hMipmappedArray = m8;
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.maxMipmapLevelClamp = 3;
    CU(cuTexObjectCreate(&t, &rd, &td, NULL));
    sampleLodU8<<<1, 32>>>(t, (const float *)dl, (float4 *)dout, 4);
    float4 g4[4];
    CU(cuMemcpyDtoH(g4, dout, sizeof g4));
    for (int i = 0; i < 4; i++)
        printf("u8 lod %.2f: %.6f %.6f %.6f %.6f\n", lods[i], g4[i].x, g4[i].y, g4[i].z, g4[i].w);
    fflush(stdout);
    CU(cuTexObjectDestroy(t));
    td.flags |= CU_TRSF_READ_AS_INTEGER;
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    td.mipmapFilterMode = CU_TR_FILTER_MODE_POINT;
    SAY("u8 mipmapped read as integers, point: %d\n", (int)cuTexObjectCreate(&t, &rd, &td, NULL));
    CU(cuTexObjectDestroy(t));

    // ---- errors of the mipmapped arrays ----
    CUmipmappedArray bad;
    CUarray lbad;
    md.Width = 16;
    md.Height = 8;
    md.Format = CU_AD_FORMAT_FLOAT;
    md.NumChannels = 1;
    SAY("create, no handle: %d\n", (int)cuMipmappedArrayCreate(NULL, &md, 2));
    SAY("create, no descriptor: %d\n", (int)cuMipmappedArrayCreate(&bad, NULL, 2));
    SAY("create, 0 levels: %d\n", (int)cuMipmappedArrayCreate(&bad, &md, 0));
    int r = (int)cuMipmappedArrayCreate(&bad, &md, 6);
    SAY("create, 6 levels of 16x8: %d\n", r);
    if (r == 0) CU(cuMipmappedArrayDestroy(bad));
    md.NumChannels = 3;
    SAY("create, 3 channels: %d\n", (int)cuMipmappedArrayCreate(&bad, &md, 2));
    md.NumChannels = 1;
    md.Width = 0;
    SAY("create, width 0: %d\n", (int)cuMipmappedArrayCreate(&bad, &md, 1));
    md.Width = 16;
    SAY("get level 5 of 5: %d\n", (int)cuMipmappedArrayGetLevel(&lbad, mm, 5));
    SAY("get level, no output: %d\n", (int)cuMipmappedArrayGetLevel(NULL, mm, 0));
    SAY("get level of a null mipmapped array: %d\n",
        (int)cuMipmappedArrayGetLevel(&lbad, (CUmipmappedArray)0, 0));
    SAY("destroy a null mipmapped array: %d\n", (int)cuMipmappedArrayDestroy((CUmipmappedArray)0));
    CUtexObject tbad;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    SAY("texture over a null mipmapped array: %d\n", (int)cuTexObjectCreate(&tbad, &rd, &td, NULL));

    CU(cuMipmappedArrayDestroy(mm));
    CU(cuMipmappedArrayDestroy(m8));
    CU(cuArrayDestroy(a));
    CU(cuArrayDestroy(b));
    CU(cuArrayDestroy(a2));
    CU(cuMemFree(d));
    CU(cuMemFree(dl));
    CU(cuMemFree(dout));
    CU(cuMemFreeHost(pin));
    CU(cuStreamDestroy(s));
    SAY("done\n");
    return 0;
}
