// bench/blas/sgemm_time.cu — seconds and GFLOP/s of one n x n x n cublasSgemm (NN, then
// op(A) transposed), twice each, on whatever libcublas the program is linked with.
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cublas_v2.h>
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    size_t b = (size_t)n * n * sizeof(float);
    float *A, *B, *C; cudaMalloc(&A, b); cudaMalloc(&B, b); cudaMalloc(&C, b);
    float *h = (float *)malloc(b); for (size_t i = 0; i < (size_t)n * n; i++) h[i] = (float)(i % 7);
    cudaMemcpy(A, h, b, cudaMemcpyHostToDevice); cudaMemcpy(B, h, b, cudaMemcpyHostToDevice);
    cublasHandle_t hd; cublasCreate(&hd); float one = 1, zero = 0;
    for (int t = 0; t < 2; t++) for (int op = 0; op < 2; op++) {
        auto t0 = std::chrono::steady_clock::now();
        cublasSgemm(hd, op ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n);
        cudaDeviceSynchronize();
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        printf("sgemm %s n=%d: %.3f s, %.2f GFLOP/s\n", op ? "TN" : "NN", n, s, 2.0 * n * n * n / s / 1e9);
    }
    return 0;
}
