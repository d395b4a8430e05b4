// Surface objects: kernels write CUDA arrays through surf1Dwrite / surf2Dwrite /
// surf3Dwrite / surf2DLayeredwrite (x in bytes) and read them back with surf*read and
// through a texture object over the same array; out-of-range reads and writes in the
// clamp and zero boundary modes; the errors of bad surface requests; and last an
// out-of-range access in trap mode, which ends the context with the GPU's error.
#include "common_tex.h"

__global__ void write2D(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) surf2Dwrite(make_uchar4(x * 10, y * 20, x + y, 255), s, x * 4, y);
}

__global__ void invert2D(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        uchar4 v = surf2Dread<uchar4>(s, x * 4, y);
        surf2Dwrite(make_uchar4(255 - v.x, 255 - v.y, v.z * 2, v.w), s, x * 4, y);
    }
}

__global__ void readTex(cudaTextureObject_t t, float4 *out, int w, int h)
{
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h) out[y * w + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}

__global__ void readModes(cudaSurfaceObject_t s, const int2 *p, int *out, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        out[2 * i] = surf2Dread<int>(s, p[i].x, p[i].y, cudaBoundaryModeZero);
        out[2 * i + 1] = surf2Dread<int>(s, p[i].x, p[i].y, cudaBoundaryModeClamp);
    }
}

__global__ void writeModes(cudaSurfaceObject_t s, const int2 *p, int n, cudaSurfaceBoundaryMode m)
{
    int i = threadIdx.x;
    if (i < n) {
        if (m == cudaBoundaryModeZero) surf2Dwrite(1000 + i, s, p[i].x, p[i].y, cudaBoundaryModeZero);
        else surf2Dwrite(2000 + i, s, p[i].x, p[i].y, cudaBoundaryModeClamp);
    }
}

__global__ void oneD(cudaSurfaceObject_t s, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        float v = surf1Dread<float>(s, i * 4);
        surf1Dwrite(v * v + 1.0f, s, i * 4);
    }
}

__global__ void threeD(cudaSurfaceObject_t s)
{
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    short2 v = surf3Dread<short2>(s, x * 4, y, z);
    surf3Dwrite(make_short2(v.x + z, v.y - x * y), s, x * 4, y, z);
}

__global__ void layered(cudaSurfaceObject_t s)
{
    int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
    surf2DLayeredwrite((unsigned short)(l * 1000 + y * 10 + x), s, x * 2, y, l);
}

__global__ void wide(cudaSurfaceObject_t s)
{
    int x = threadIdx.x;
    float4 v = surf2Dread<float4>(s, x * 16, 0);
    surf2Dwrite(make_float4(v.w, v.z, v.y, v.x + 0.5f), s, x * 16, 1);
}

__global__ void trap(cudaSurfaceObject_t s, int x)
{
    surf2Dwrite(7, s, x, 0);
}

static cudaSurfaceObject_t makeSurf(cudaArray_t a)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    return s;
}

int main()
{
    const int W = 6, H = 5;
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &c4, W, H, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t s = makeSurf(a);
    write2D<<<dim3(1, 1), dim3(8, 8)>>>(s, W, H);
    invert2D<<<dim3(1, 1), dim3(8, 8)>>>(s, W, H);
    uchar4 px[H][W];
    CHECK(cudaMemcpy2DFromArray(px, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    printf("surface 2D:\n");
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) printf(" %3u,%3u,%3u,%3u", px[y][x].x, px[y][x].y, px[y][x].z, px[y][x].w);
        printf("\n");
    }
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    float4 *o4, h4[W * H];
    CHECK(cudaMalloc(&o4, sizeof h4));
    readTex<<<1, dim3(8, 8)>>>(t, o4, W, H);
    CHECK(cudaMemcpy(h4, o4, sizeof h4, cudaMemcpyDeviceToHost));
    printf("through a texture:");
    for (int i = 0; i < W * H; i += 5) printf(" %08x/%08x/%08x/%08x", fbits(h4[i].x), fbits(h4[i].y), fbits(h4[i].z), fbits(h4[i].w));
    printf("\n");

    // boundary modes on a 4x3 int surface
    cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
    cudaArray_t ia;
    CHECK(cudaMallocArray(&ia, &ci, 4, 3, cudaArraySurfaceLoadStore));
    int iv[3][4];
    for (int y = 0; y < 3; y++) for (int x = 0; x < 4; x++) iv[y][x] = y * 10 + x;
    CHECK(cudaMemcpy2DToArray(ia, 0, 0, iv, 16, 16, 3, cudaMemcpyHostToDevice));
    cudaSurfaceObject_t is = makeSurf(ia);
    const int NP = 10;
    int2 pts[NP] = {{0, 0}, {4, 1}, {12, 2}, {16, 0}, {-4, 1}, {8, 3}, {8, -1}, {100, 100}, {-40, -7}, {6, 1}};
    int2 *dp;
    CHECK(cudaMalloc(&dp, sizeof pts));
    CHECK(cudaMemcpy(dp, pts, sizeof pts, cudaMemcpyHostToDevice));
    int *oi, hi[2 * NP];
    CHECK(cudaMalloc(&oi, sizeof hi));
    readModes<<<1, NP - 1>>>(is, dp, oi, NP - 1);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hi, oi, sizeof hi, cudaMemcpyDeviceToHost));
    printf("reads zero/clamp:");
    for (int i = 0; i < NP - 1; i++) printf(" (%d,%d)=%d/%d", pts[i].x, pts[i].y, hi[2 * i], hi[2 * i + 1]);
    printf("\n");
    writeModes<<<1, NP - 1>>>(is, dp, NP - 1, cudaBoundaryModeZero);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy2DFromArray(iv, 16, ia, 0, 0, 16, 3, cudaMemcpyDeviceToHost));
    printf("after zero-mode writes:");
    for (int i = 0; i < 12; i++) printf(" %d", iv[i / 4][i % 4]);
    printf("\n");
    writeModes<<<1, NP - 1>>>(is, dp, NP - 1, cudaBoundaryModeClamp);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy2DFromArray(iv, 16, ia, 0, 0, 16, 3, cudaMemcpyDeviceToHost));
    printf("after clamp-mode writes:");
    for (int i = 0; i < 12; i++) printf(" %d", iv[i / 4][i % 4]);
    printf("\n");

    // 1D float, 3D short2, layered ushort, float4 rows
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    cudaArray_t a1;
    CHECK(cudaMallocArray(&a1, &cf, 9, 0, cudaArraySurfaceLoadStore));
    float f1[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, f1, sizeof f1, sizeof f1, 1, cudaMemcpyHostToDevice));
    oneD<<<1, 9>>>(makeSurf(a1), 9);
    CHECK(cudaMemcpy2DFromArray(f1, sizeof f1, a1, 0, 0, sizeof f1, 1, cudaMemcpyDeviceToHost));
    printf("1D:");
    for (int i = 0; i < 9; i++) printf(" %g", f1[i]);
    printf("\n");
    cudaChannelFormatDesc cs2 = cudaCreateChannelDesc<short2>();
    cudaArray_t a3;
    CHECK(cudaMalloc3DArray(&a3, &cs2, make_cudaExtent(3, 2, 2), cudaArraySurfaceLoadStore));
    short2 s3[2][2][3];
    for (int z = 0; z < 2; z++) for (int y = 0; y < 2; y++) for (int x = 0; x < 3; x++) s3[z][y][x] = make_short2(x * 100, y * 100 + z);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(s3, 3 * 4, 3, 2);
    p.dstArray = a3;
    p.extent = make_cudaExtent(3, 2, 2);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    threeD<<<1, dim3(3, 2, 2)>>>(makeSurf(a3));
    cudaMemcpy3DParms q = {};
    q.srcArray = a3;
    q.dstPtr = make_cudaPitchedPtr(s3, 3 * 4, 3, 2);
    q.extent = make_cudaExtent(3, 2, 2);
    q.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&q));
    printf("3D:");
    for (int z = 0; z < 2; z++) for (int y = 0; y < 2; y++) for (int x = 0; x < 3; x++) printf(" %d,%d", s3[z][y][x].x, s3[z][y][x].y);
    printf("\n");
    cudaChannelFormatDesc cu16 = cudaCreateChannelDesc<unsigned short>();
    cudaArray_t la;
    CHECK(cudaMalloc3DArray(&la, &cu16, make_cudaExtent(4, 2, 3), cudaArrayLayered | cudaArraySurfaceLoadStore));
    layered<<<3, dim3(4, 2)>>>(makeSurf(la));
    unsigned short lv[3][2][4];
    cudaMemcpy3DParms lq = {};
    lq.srcArray = la;
    lq.dstPtr = make_cudaPitchedPtr(lv, 8, 4, 2);
    lq.extent = make_cudaExtent(4, 2, 3);
    lq.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&lq));
    printf("layered:");
    for (int i = 0; i < 24; i++) printf(" %u", lv[i / 8][i / 4 % 2][i % 4]);
    printf("\n");
    cudaChannelFormatDesc cf4 = cudaCreateChannelDesc<float4>();
    cudaArray_t wa;
    CHECK(cudaMallocArray(&wa, &cf4, 3, 2, cudaArraySurfaceLoadStore));
    float4 wv[2][3];
    for (int i = 0; i < 3; i++) wv[0][i] = make_float4(i, i + 0.25f, -i, 100 + i);
    CHECK(cudaMemcpy2DToArray(wa, 0, 0, wv, 48, 48, 1, cudaMemcpyHostToDevice));
    wide<<<1, 3>>>(makeSurf(wa));
    CHECK(cudaMemcpy2DFromArray(wv, 48, wa, 0, 0, 48, 2, cudaMemcpyDeviceToHost));
    printf("float4 row 1:");
    for (int i = 0; i < 3; i++) printf(" %g/%g/%g/%g", wv[1][i].x, wv[1][i].y, wv[1][i].z, wv[1][i].w);
    printf("\n");

    // errors
    cudaArray_t plain;
    CHECK(cudaMallocArray(&plain, &ci, 4, 4));
    cudaResourceDesc br = {};
    br.resType = cudaResourceTypeArray;
    br.res.array.array = plain;
    cudaSurfaceObject_t bad;
    SHOW(cudaCreateSurfaceObject(&bad, &br));
    br.resType = cudaResourceTypeLinear;
    SHOW(cudaCreateSurfaceObject(&bad, &br));
    SHOW(cudaCreateSurfaceObject(&bad, NULL));
    SHOW(cudaCreateSurfaceObject(NULL, &r));
    cudaResourceDesc gr;
    CHECK(cudaGetSurfaceObjectResourceDesc(&gr, s));
    printf("surface resource: type=%d same_array=%d\n", (int)gr.resType, gr.res.array.array == a);
    SHOW(cudaDestroySurfaceObject(0));
    SHOW(cudaGetLastError());

    // trap mode (the default): a write past the end of a row
    trap<<<1, 1>>>(is, 16);
    cudaError_t e = cudaDeviceSynchronize();
    printf("trap write: %s\n", cudaGetErrorName(e));
    printf("after: %s\n", cudaGetErrorName(cudaGetLastError()));
    return 0;
}
