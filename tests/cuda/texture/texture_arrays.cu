// CUDA arrays: channel descriptors, cudaMallocArray / cudaMalloc3DArray (layered, cube
// map, surface flags), cudaArrayGetInfo and cudaGetChannelDesc, every copy into and out of
// arrays (2D, the deprecated 1D-offset forms, array to array, cudaMemcpy3D with positions,
// async forms on a stream) checked by round trips, and the errors of bad requests.
#include "common_tex.h"
#include <cuda_fp16.h>

static void showDesc(const char *what, cudaChannelFormatDesc d)
{
    printf("%-10s x=%d y=%d z=%d w=%d f=%d\n", what, d.x, d.y, d.z, d.w, (int)d.f);
}

static void showInfo(const char *what, cudaArray_t a)
{
    cudaChannelFormatDesc d;
    cudaExtent e;
    unsigned flags;
    CHECK(cudaArrayGetInfo(&d, &e, &flags, a));
    printf("%-10s desc=(%d,%d,%d,%d,%d) extent=(%zu,%zu,%zu) flags=%u\n", what, d.x, d.y, d.z,
           d.w, (int)d.f, e.width, e.height, e.depth, flags);
}

__global__ void fill(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i * 0.5f;
}

int main()
{
    showDesc("float", cudaCreateChannelDesc<float>());
    showDesc("uchar4", cudaCreateChannelDesc<uchar4>());
    showDesc("short2", cudaCreateChannelDesc<short2>());
    showDesc("int", cudaCreateChannelDesc<int>());
    showDesc("uint2", cudaCreateChannelDesc<uint2>());
    showDesc("half", cudaCreateChannelDescHalf());
    showDesc("half4", cudaCreateChannelDescHalf4());
    showDesc("explicit", cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned));

    // 2D float array: copy in with a pitch, read back, partial copies with offsets
    const int W = 37, H = 19;
    float *h = (float *)malloc(W * H * sizeof(float)), *back = (float *)calloc(W * H, sizeof(float));
    for (int i = 0; i < W * H; i++) h[i] = i * 1.25f - 7;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a2;
    CHECK(cudaMallocArray(&a2, &fd, W, H));
    showInfo("2D", a2);
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, h, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DFromArray(back, W * sizeof(float), a2, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost));
    printf("2D round trip: %s\n", memcmp(h, back, W * H * sizeof(float)) ? "DIFFERENT" : "same");
    float part[3 * 4];
    CHECK(cudaMemcpy2DFromArray(part, 3 * sizeof(float), a2, 5 * sizeof(float), 7, 3 * sizeof(float), 4, cudaMemcpyDeviceToHost));
    printf("part:");
    for (int i = 0; i < 12; i++) printf(" %g", part[i]);
    printf("\n");
    float ones[4] = {100, 101, 102, 103};
    CHECK(cudaMemcpy2DToArray(a2, 2 * sizeof(float), 1, ones, 2 * sizeof(float), 2 * sizeof(float), 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DFromArray(part, 4 * sizeof(float), a2, 1 * sizeof(float), 0, 4 * sizeof(float), 3, cudaMemcpyDeviceToHost));
    printf("patched:");
    for (int i = 0; i < 12; i++) printf(" %g", part[i]);
    printf("\n");

    // deprecated forms: offsets in bytes, counts that wrap to following rows
    CHECK(cudaMemcpyToArray(a2, 4 * sizeof(float), 2, h, (W + 3) * sizeof(float), cudaMemcpyHostToDevice));
    float row[8];
    CHECK(cudaMemcpyFromArray(row, a2, (W - 2) * sizeof(float), 2, 8 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("wrapped row:");
    for (int i = 0; i < 8; i++) printf(" %g", row[i]);
    printf("\n");
    cudaArray_t b2;
    CHECK(cudaMallocArray(&b2, &fd, W, H));
    CHECK(cudaMemcpyArrayToArray(b2, 0, 0, a2, 0, 0, W * H * sizeof(float)));
    CHECK(cudaMemcpy2DArrayToArray(b2, 3 * sizeof(float), 3, a2, 0, 0, 2 * sizeof(float), 2));
    CHECK(cudaMemcpy2DFromArray(part, 4 * sizeof(float), b2, 2 * sizeof(float), 3, 4 * sizeof(float), 3, cudaMemcpyDeviceToHost));
    printf("array to array:");
    for (int i = 0; i < 12; i++) printf(" %g", part[i]);
    printf("\n");

    // device memory into an array, async on a stream
    float *d;
    CHECK(cudaMalloc(&d, W * H * sizeof(float)));
    fill<<<(W * H + 127) / 128, 128>>>(d, W * H);
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemcpy2DToArrayAsync(a2, 0, 0, d, W * sizeof(float), W * sizeof(float), H, cudaMemcpyDeviceToDevice, s));
    float *pinned;
    CHECK(cudaMallocHost(&pinned, W * H * sizeof(float)));
    CHECK(cudaMemcpy2DFromArrayAsync(pinned, W * sizeof(float), a2, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    printf("async: %g %g %g\n", pinned[0], pinned[W + 1], pinned[W * H - 1]);
    CHECK(cudaMemcpyToArrayAsync(a2, 0, 1, d, 4 * sizeof(float), cudaMemcpyDeviceToDevice, s));
    CHECK(cudaMemcpyFromArrayAsync(pinned, a2, 0, 1, 5 * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    printf("async 1D: %g %g %g %g %g\n", pinned[0], pinned[1], pinned[2], pinned[3], pinned[4]);

    // 1D array, uchar4
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a1;
    CHECK(cudaMallocArray(&a1, &cd, 100));
    showInfo("1D", a1);
    unsigned char bytes[400], bytes2[400];
    for (int i = 0; i < 400; i++) bytes[i] = (unsigned char)(i * 7);
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, bytes, 400, 400, 1, cudaMemcpyHostToDevice));
    memset(bytes2, 0, sizeof bytes2);
    CHECK(cudaMemcpy2DFromArray(bytes2, 400, a1, 0, 0, 400, 1, cudaMemcpyDeviceToHost));
    printf("1D round trip: %s\n", memcmp(bytes, bytes2, 400) ? "DIFFERENT" : "same");

    // 3D and layered arrays, cudaMemcpy3D with positions
    cudaArray_t a3, lay, cube, surf;
    CHECK(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(6, 5, 4)));
    showInfo("3D", a3);
    CHECK(cudaMalloc3DArray(&lay, &fd, make_cudaExtent(6, 5, 3), cudaArrayLayered));
    showInfo("layered", lay);
    CHECK(cudaMalloc3DArray(&cube, &fd, make_cudaExtent(4, 4, 6), cudaArrayCubemap));
    showInfo("cubemap", cube);
    CHECK(cudaMalloc3DArray(&surf, &fd, make_cudaExtent(8, 8, 0), cudaArraySurfaceLoadStore));
    showInfo("surface", surf);
    cudaArray_t l1;
    CHECK(cudaMalloc3DArray(&l1, &fd, make_cudaExtent(10, 0, 4), cudaArrayLayered));
    showInfo("layered1D", l1);
    float vol[4][5][6], vback[4][5][6];
    for (int z = 0; z < 4; z++) for (int y = 0; y < 5; y++) for (int x = 0; x < 6; x++)
        vol[z][y][x] = z * 100 + y * 10 + x;
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(vol, 6 * sizeof(float), 6, 5);
    p.dstArray = a3;
    p.extent = make_cudaExtent(6, 5, 4);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    memset(vback, 0, sizeof vback);
    cudaMemcpy3DParms q = {};
    q.srcArray = a3;
    q.srcPos = make_cudaPos(1, 2, 1);
    q.dstPtr = make_cudaPitchedPtr(vback, 6 * sizeof(float), 6, 5);
    q.extent = make_cudaExtent(3, 2, 2);
    q.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&q));
    printf("3D box:");
    for (int z = 0; z < 2; z++) for (int y = 0; y < 2; y++) for (int x = 0; x < 3; x++) printf(" %g", vback[z][y][x]);
    printf("\n");
    // array to array in 3D, then to a pitched device buffer, asynchronously
    cudaMemcpy3DParms r = {};
    r.srcArray = a3;
    r.dstArray = lay;
    r.extent = make_cudaExtent(6, 5, 3);
    r.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaMemcpy3DAsync(&r, s));
    cudaPitchedPtr pp;
    CHECK(cudaMalloc3D(&pp, make_cudaExtent(6 * sizeof(float), 5, 3)));
    cudaMemcpy3DParms t = {};
    t.srcArray = lay;
    t.dstPtr = pp;
    t.extent = make_cudaExtent(6, 5, 3);
    t.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaMemcpy3DAsync(&t, s));
    CHECK(cudaStreamSynchronize(s));
    float slice[6];
    CHECK(cudaMemcpy(slice, (char *)pp.ptr + (2 * 5 + 4) * pp.pitch, sizeof slice, cudaMemcpyDeviceToHost));
    printf("layer 2 row 4:");
    for (int i = 0; i < 6; i++) printf(" %g", slice[i]);
    printf("\n");
    cudaChannelFormatDesc got;
    CHECK(cudaGetChannelDesc(&got, a1));
    showDesc("got", got);

    // errors
    cudaArray_t bad = NULL;
    SHOW(cudaMallocArray(&bad, &fd, 0, 4));
    SHOW(cudaMallocArray(NULL, &fd, 4, 4));
    SHOW(cudaMallocArray(&bad, NULL, 4, 4));
    cudaChannelFormatDesc three = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    SHOW(cudaMallocArray(&bad, &three, 4, 4));
    cudaChannelFormatDesc odd = cudaCreateChannelDesc(12, 0, 0, 0, cudaChannelFormatKindUnsigned);
    SHOW(cudaMallocArray(&bad, &odd, 4, 4));
    SHOW(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(4, 5, 6), cudaArrayCubemap));
    SHOW(cudaMallocArray(&bad, &fd, 1 << 20, 4));
    SHOW(cudaMemcpy2DToArray(a2, 0, 0, h, W * sizeof(float), W * sizeof(float), H + 1, cudaMemcpyHostToDevice));
    SHOW(cudaMemcpy2DToArray(a2, 4, 0, h, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    SHOW(cudaMemcpy2DFromArray(back, 4, a2, 0, 0, 8, 2, cudaMemcpyDeviceToHost));
    SHOW(cudaMemcpyToArray(a2, 0, 0, h, W * H * sizeof(float) + 4, cudaMemcpyHostToDevice));
    SHOW(cudaFreeArray(NULL));
    SHOW(cudaGetLastError());

    CHECK(cudaFreeArray(a1));
    CHECK(cudaFreeArray(a2));
    CHECK(cudaFreeArray(b2));
    CHECK(cudaFreeArray(a3));
    CHECK(cudaFreeArray(lay));
    CHECK(cudaFreeArray(cube));
    CHECK(cudaFreeArray(surf));
    CHECK(cudaFreeArray(l1));
    CHECK(cudaFree(d));
    CHECK(cudaFree(pp.ptr));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaStreamDestroy(s));
    free(h);
    free(back);
    printf("done\n");
    return 0;
}
