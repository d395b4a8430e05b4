#include "vecops.h"

__global__ void saxpy(float a, const float *x, float *y, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int vec_saxpy(float a, const float *x, float *y, size_t n) {
    saxpy<<<(unsigned)((n + 255) / 256), 256>>>(a, x, y, n);
    return (int)cudaGetLastError();
}
