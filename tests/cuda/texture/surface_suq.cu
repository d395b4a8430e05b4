// suq on surface objects: a kernel querying the width (in elements), height, depth, layer
// count and memory layout of a 1D, a 2D, a 3D and a layered 2D array's surface object; the
// host prints what came back beside the array's own extent, so a wrong answer shows.
#include "common_tex.h"

__global__ void query(cudaSurfaceObject_t s, int *out)
{
    int v;
    asm("suq.width.b32 %0, [%1];" : "=r"(v) : "l"(s)); out[0] = v;
    asm("suq.height.b32 %0, [%1];" : "=r"(v) : "l"(s)); out[1] = v;
    asm("suq.depth.b32 %0, [%1];" : "=r"(v) : "l"(s)); out[2] = v;
    asm("suq.array_size.b32 %0, [%1];" : "=r"(v) : "l"(s)); out[3] = v;
    asm("suq.memory_layout.b32 %0, [%1];" : "=r"(v) : "l"(s)); out[4] = v;
}

int main()
{
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float2>();
    const cudaExtent ext[4] = {make_cudaExtent(7, 0, 0), make_cudaExtent(6, 5, 0),
                               make_cudaExtent(4, 3, 2), make_cudaExtent(5, 4, 3)};
    const unsigned flags[4] = {cudaArraySurfaceLoadStore, cudaArraySurfaceLoadStore,
                               cudaArraySurfaceLoadStore,
                               cudaArraySurfaceLoadStore | cudaArrayLayered};
    const char *names[4] = {"1D", "2D", "3D", "2D layered"};
    int *oi, q[5];
    CHECK(cudaMalloc(&oi, sizeof q));
    for (int k = 0; k < 4; k++) {
        cudaArray_t a;
        CHECK(cudaMalloc3DArray(&a, &fd, ext[k], flags[k]));
        cudaResourceDesc r = {};
        r.resType = cudaResourceTypeArray;
        r.res.array.array = a;
        cudaSurfaceObject_t s;
        CHECK(cudaCreateSurfaceObject(&s, &r));
        CHECK(cudaMemset(oi, 0xff, sizeof q));
        query<<<1, 1>>>(s, oi);
        printf("suq %s launch: %s\n", names[k], cudaGetErrorName(cudaGetLastError()));
        CHECK(cudaMemcpy(q, oi, sizeof q, cudaMemcpyDeviceToHost));
        printf("suq %s (extent %zu x %zu x %zu): width=%d height=%d depth=%d layers=%d layout=%d\n",
               names[k], ext[k].width, ext[k].height, ext[k].depth, q[0], q[1], q[2], q[3], q[4]);
        CHECK(cudaDestroySurfaceObject(s));
        CHECK(cudaFreeArray(a));
    }
    return 0;
}
