#include "rdc3_lib.h"

__device__ int callCount;
__constant__ int coeff[4];

__device__ int polyEval(int x)
{
    int r = 0;
    for (int k = 3; k >= 0; k--) r = r * (x % 17) + coeff[k];
    return r;
}

template <typename T> __device__ T clampTo(T v, T lo, T hi) { return v < lo ? lo : v > hi ? hi : v; }
template __device__ int clampTo<int>(int, int, int);

cudaError_t setCoefficients(const int *c) { return cudaMemcpyToSymbol(coeff, c, 4 * sizeof(int)); }

__global__ void libKernel(int *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = lookup(i) * 2 + callCount;
}

void libKernelLaunch(int *d, int n) { libKernel<<<(n + 127) / 128, 128>>>(d, n); }
