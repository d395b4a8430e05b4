/* dpBadPointer — a parent passing a pointer to its shared or local memory to a child grid
 * (CDP2), which the CUDA programming model forbids: shared and local memory are private
 * to a block and a thread, and a child has its own.
 *
 * The launch itself is accepted (a pointer argument is just bits); what happens is seen
 * when the child uses the pointer. The program prints what the launch returned on the
 * device and what the host gets when it synchronises.
 *
 * Build: nvcc -arch=sm_90 -rdc=true dpBadPointer.cu -lcudadevrt
 * Usage: dpBadPointer shared|local|global
 */
#include "../../../examples/common.h"

#include <cstring>

__device__ int g_launchErr = -1;
__device__ int g_readBack = -1;
__device__ int g_global[4];

__global__ void child(int *p)
{
    p[1] = 42;
    g_readBack = p[1];
}

__global__ void parent(int mode)
{
    __shared__ int s[64];
    int local[64];
    s[threadIdx.x] = (int)threadIdx.x;
    for (int i = 0; i < 64; i++)
        local[i] = i * (int)threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
        int *p = mode == 0 ? s : mode == 1 ? local : g_global;
        child<<<1, 1>>>(p);
        g_launchErr = (int)cudaGetLastError();
        /* keep the local array alive (and in local memory) across the launch */
        volatile int *v = local;
        g_global[3] = v[(int)threadIdx.x + 5];
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "shared";
    int mode = !strcmp(what, "shared") ? 0 : !strcmp(what, "local") ? 1 : 2;
    printf("passing a pointer to %s memory to a child grid\n", mode == 0 ? "shared" : mode == 1 ? "local" : "global");
    parent<<<1, 32>>>(mode);
    printf("host launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaError_t e = cudaDeviceSynchronize();
    printf("host synchronise: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) {
        int launchErr, readBack;
        CHECK(cudaMemcpyFromSymbol(&launchErr, g_launchErr, sizeof launchErr));
        CHECK(cudaMemcpyFromSymbol(&readBack, g_readBack, sizeof readBack));
        printf("device-side launch: %s; the child read back %d\n",
               cudaGetErrorName((cudaError_t)launchErr), readBack);
    }
    return e == cudaSuccess ? EXIT_SUCCESS : EXIT_FAILURE;
}
