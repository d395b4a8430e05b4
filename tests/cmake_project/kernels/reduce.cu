#include "reduce.h"

#include <cmath>
#include <vector>

__global__ void block_sum(const float *x, size_t n, float *partial) {
    __shared__ float s[256];
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

double vec_sum(const float *x, size_t n) {
    unsigned blocks = (unsigned)((n + 255) / 256);
    float *partial = nullptr;
    if (cudaMalloc(&partial, blocks * sizeof(float)) != cudaSuccess) return NAN;
    block_sum<<<blocks, 256>>>(x, n, partial);
    std::vector<float> host(blocks);
    cudaError_t e = cudaMemcpy(host.data(), partial, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(partial);
    if (e != cudaSuccess) return NAN;
    double sum = 0;
    for (float v : host) sum += v;
    return sum;
}
