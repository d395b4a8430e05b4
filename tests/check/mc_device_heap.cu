/* mc_device_heap — malloc/free inside kernels: a block written past its end ("overrun"),
 * or a block freed twice by the same thread ("twice").
 *
 * Usage: mc_device_heap overrun|twice
 */
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void overrun(int *out)
{
    int *p = (int *)malloc(4 * sizeof(int));
    for (int i = 0; i <= 4; i++) p[i] = i;        /* BUG: writes p[4] */
    out[threadIdx.x] = p[0];
    free(p);
}

__global__ void twice(int *out)
{
    int *p = (int *)malloc(sizeof(int));
    *p = 7;
    out[threadIdx.x] = *p;
    free(p);
    free(p);                                      /* BUG: second free */
}

int main(int argc, char **argv)
{
    bool both = argc > 1 && strcmp(argv[1], "twice") == 0;
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    if (both)
        twice<<<1, 2>>>(out);
    else
        overrun<<<1, 1>>>(out);
    printf("%s: %s\n", both ? "twice" : "overrun", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(out);
    return 0;
}
