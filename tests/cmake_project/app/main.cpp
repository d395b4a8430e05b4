// Host code in C++ (compiled by the C++ compiler, linked to CUDA::cudart): fill x on the
// device, y = 2x + y with y = 1, then the sum, checked against the value it must have.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "reduce.h"
#include "vecops.h"

int fill_vector(float *x, size_t n);

int main(int argc, char **argv) {
    size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000;
    float *x, *y;
    if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&y, n * sizeof(float)) != cudaSuccess) {
        std::printf("vecdemo: cudaMalloc failed\n");
        return 1;
    }
    float *ones = new float[n];
    for (size_t i = 0; i < n; i++) ones[i] = 1.0f;
    cudaMemcpy(y, ones, n * sizeof(float), cudaMemcpyHostToDevice);
    delete[] ones;
    int e1 = fill_vector(x, n);
    int e2 = vec_saxpy(2.0f, x, y, n);
    double sum = vec_sum(y, n);
    double expect = 0;
    for (size_t i = 0; i < n; i++) expect += 2.0 * (double)(i % 7) + 1.0;
    cudaFree(x);
    cudaFree(y);
    bool ok = e1 == 0 && e2 == 0 && std::fabs(sum - expect) < 1e-6 * expect;
    std::printf("vecdemo: n=%zu sum=%.0f expected=%.0f: %s\n", n, sum, expect, ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
