// The executable's own kernel: fills a vector with x[i] = i % 7.
#include <cuda_runtime.h>

__global__ void fill_mod7(float *x, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) x[i] = (float)(i % 7);
}

int fill_vector(float *x, size_t n) {
    fill_mod7<<<(unsigned)((n + 127) / 128), 128>>>(x, n);
    return (int)cudaGetLastError();
}
