/* blas/blas.h — vcuda's cuBLAS: the handle and the helpers every routine shares.
 *
 * The routines run on the host, since device memory is host memory in vcuda; each one's
 * work is a host function issued on the handle's stream (cudaLaunchHostFunc), so it runs
 * after the kernels and copies issued there before it and before those issued after, as a
 * cuBLAS kernel would. Arguments are checked when the call is made; device pointers are
 * checked against the allocation table then (cuMemGetAddressRange), so that a bad pointer
 * gives an error instead of a fault. */
#ifndef VCUDA_BLAS_H
#define VCUDA_BLAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cublas_api.h>

#define BLAS_API __attribute__((visibility("default")))

struct cublasContext {
    cudaStream_t stream;
    cublasPointerMode_t pointer_mode;
    cublasMath_t math_mode;
    struct cublasContext *next; /* the list of live handles */
};

/* Is h a handle made by cublasCreate and not yet destroyed? */
bool blas_handle_live(cublasHandle_t h);

/* Is [p, p + bytes) inside one allocation the device can reach (device, managed, pinned)? */
bool blas_device_ok(const void *p, size_t bytes);

/* The bytes a strided vector of n elements of size elem covers (n > 0, any inc). */
size_t blas_vector_bytes(int64_t n, int64_t inc, size_t elem);

/* The bytes a column-major rows x cols matrix with leading dimension ld covers
 * (0 when either dimension is 0). */
size_t blas_matrix_bytes(int64_t rows, int64_t cols, int64_t ld, size_t elem);

/* Offset in elements of a vector's element i: BLAS's rule for a negative increment is
 * that the vector starts at the far end, x[(n - 1 - i) * |inc|]. */
static inline int64_t blas_at(int64_t i, int64_t n, int64_t inc) {
    return inc >= 0 ? i * inc : (n - 1 - i) * -inc;
}

/* Runs fn(job) on h's stream in order, and frees job after; job must come from malloc.
 * On failure job is freed and the status says why. */
cublasStatus_t blas_enqueue(cublasHandle_t h, void (*fn)(void *), void *job);

/* Waits for h's stream: a result written to host memory must be there on return. */
cublasStatus_t blas_wait(cublasHandle_t h);

/* The report cuBLAS prints for an argument that is refused, in BLAS's words (xerbla):
 * routine's name padded to six, param counted from 1 after the handle. */
void blas_param_error(const char *routine, int param);

/* Is op one of N, T, C? */
static inline bool blas_op_ok(cublasOperation_t op) {
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

#endif
