#pragma once
#include <cuda_runtime.h>
extern __device__ int callCount;
__device__ int polyEval(int x);
__device__ int lookup(int i);
template <typename T> __device__ T clampTo(T v, T lo, T hi);
cudaError_t setCoefficients(const int *c);
void libKernelLaunch(int *d, int n);
