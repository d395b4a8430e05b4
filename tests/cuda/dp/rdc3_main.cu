// Separate compilation (-rdc=true) over three files: a __device__ function and an extern
// __device__ variable defined in another file, a __constant__ table defined in a third,
// and a kernel in one file calling a templated device function instantiated in another.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "rdc3_lib.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void useLib(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = polyEval(i) + lookup(i) + clampTo<int>(i * 3, 10, 100);
    atomicAdd(&callCount, 1);
}

int main()
{
    const int n = 200;
    int *d, h[n];
    CK(cudaMalloc(&d, sizeof h));
    int coeffs[4] = {3, -2, 0, 1};
    CK(setCoefficients(coeffs));
    int zero = 0;
    CK(cudaMemcpyToSymbol(callCount, &zero, sizeof zero));
    useLib<<<(n + 63) / 64, 64>>>(d, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int calls = 0;
    CK(cudaMemcpyFromSymbol(&calls, callCount, sizeof calls));
    long long s = 0;
    for (int i = 0; i < n; i++) s += h[i];
    printf("out[0]=%d out[7]=%d out[199]=%d sum=%lld calls=%d\n", h[0], h[7], h[199], s, calls);
    libKernelLaunch(d, n);
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("after the library's own kernel: %d %d %d\n", h[0], h[100], h[199]);
    return 0;
}
