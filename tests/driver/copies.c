/* tests/driver/copies.c — the driver's copies and sets checked against the same work done
 * on the host: 16- and 32-bit sets (1D and 2D, synchronous and on a stream), a 2D copy
 * between pitched device memory and a host array at offsets, a 3D copy of a sub-box, and
 * pitched allocation. Prints the mismatches of each (all 0: expected/copies.derived). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cu_check.h"

int main(void) {
    CU(cuInit(0));
    CUcontext ctx;
    CU(cuCtxCreate(&ctx, NULL, 0, 0));
    CUstream s;
    CU(cuStreamCreate(&s, CU_STREAM_DEFAULT)); /* blocking: ordered after the legacy stream */

    /* sets of 16 and 32-bit elements */
    enum { N = 1000 };
    CUdeviceptr d;
    CU(cuMemAlloc(&d, N * 4));
    CU(cuMemsetD32(d, 0x01020304u, N));
    CU(cuMemsetD16Async(d + 8, 0xabcd, 10, s));
    CU(cuStreamSynchronize(s));
    CU(cuMemsetD8(d + 100, 0x7f, 3));
    unsigned char got[N * 4], want[N * 4];
    for (int i = 0; i < N; i++) memcpy(want + 4 * i, &(unsigned){0x01020304u}, 4);
    for (int i = 0; i < 10; i++) memcpy(want + 8 + 2 * i, &(unsigned short){0xabcd}, 2);
    memset(want + 100, 0x7f, 3);
    CU(cuMemcpyDtoH(got, d, sizeof got));
    printf("1D sets: %s\n", memcmp(got, want, sizeof got) ? "differ" : "match");

    /* pitched memory, a 2D set and a 2D copy at offsets */
    size_t pitch;
    CU(cuMemAllocPitch(&d, &pitch, 100 * 4, 20, 4));
    printf("pitch is a multiple of 4 and at least the row: %s\n",
           pitch % 4 == 0 && pitch >= 400 ? "yes" : "no");
    CU(cuMemsetD2D32(d, pitch, 7u, 100, 20));
    CU(cuMemsetD2D16Async(d + 2 * pitch, pitch, 0x1111, 10, 3, s));
    CU(cuStreamSynchronize(s));
    static unsigned host[20][100];
    CUDA_MEMCPY2D c2;
    memset(&c2, 0, sizeof c2);
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.srcDevice = d;
    c2.srcPitch = pitch;
    c2.dstMemoryType = CU_MEMORYTYPE_HOST;
    c2.dstHost = host;
    c2.dstPitch = sizeof host[0];
    c2.WidthInBytes = 400;
    c2.Height = 20;
    CU(cuMemcpy2D(&c2));
    int bad = 0;
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 100; x++) {
            unsigned w = (y >= 2 && y < 5 && x < 5) ? 0x11111111u : 7u;
            bad += host[y][x] != w;
        }
    printf("2D sets and copy: %d mismatches\n", bad);

    /* 3D: copy a 4x3x2 box from a host volume into device memory and back elsewhere */
    enum { X = 8, Y = 5, Z = 4 };
    static int vol[Z][Y][X], back[Z][Y][X];
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) vol[z][y][x] = 1000 * z + 10 * y + x;
    CUdeviceptr dv;
    CU(cuMemAlloc(&dv, sizeof vol));
    CU(cuMemsetD32(dv, 0, sizeof vol / 4));
    CUDA_MEMCPY3D c3;
    memset(&c3, 0, sizeof c3);
    c3.srcMemoryType = CU_MEMORYTYPE_HOST;
    c3.srcHost = vol;
    c3.srcPitch = X * 4;
    c3.srcHeight = Y;
    c3.srcXInBytes = 1 * 4;
    c3.srcY = 1;
    c3.srcZ = 1;
    c3.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c3.dstDevice = dv;
    c3.dstPitch = X * 4;
    c3.dstHeight = Y;
    c3.WidthInBytes = 4 * 4;
    c3.Height = 3;
    c3.Depth = 2;
    CU(cuMemcpy3DAsync(&c3, s));
    CU(cuStreamSynchronize(s));
    CU(cuMemcpyDtoH(back, dv, sizeof back));
    bad = 0;
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) {
                int w = (z < 2 && y < 3 && x < 4) ? vol[z + 1][y + 1][x + 1] : 0;
                bad += back[z][y][x] != w;
            }
    printf("3D copy of a sub-box: %d mismatches\n", bad);
    CU(cuMemFree(d));
    CU(cuMemFree(dv));
    CU(cuStreamDestroy(s));
    CU(cuCtxDestroy(ctx));
    return 0;
}
