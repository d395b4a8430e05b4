/* rdcLib — the second translation unit of the rdcMain test: a __device__ variable, a
 * __device__ function and a kernel that rdcMain.cu uses through extern declarations, so
 * the program only works when the device code of both units is linked together.
 */
#include <cstdio>

__device__ int libOffset = 7;            /* initialised here, written by rdcMain's kernel */
__device__ int libCalls;

__device__ int libScale(int x)
{
    atomicAdd(&libCalls, 1);
    return 3 * x + libOffset;
}

/* Launched both from the host (by rdcMain) and from rdcMain's kernel. */
__global__ void libChild(int *out, int v)
{
    out[threadIdx.x] = libScale(v + (int)threadIdx.x);
}
