/* blas/transfer.c — cublasSet/GetVector and cublasSet/GetMatrix (and their Async forms):
 * strided copies between host and device memory, which are cudaMemcpy2D's with the
 * element as the row and the stride as the pitch. */
#include "blas.h"

static cublasStatus_t copy_status(cudaError_t e) {
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}

/* n elements of size elem from src (every sinc-th) to dst (every dinc-th). */
static cublasStatus_t copy_vector(int n, int elem, const void *src, int sinc, void *dst,
                                  int dinc, enum cudaMemcpyKind kind, bool async,
                                  cudaStream_t s) {
    if (elem <= 0 || sinc <= 0 || dinc <= 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0) return CUBLAS_STATUS_SUCCESS;
    if (n < 0) return CUBLAS_STATUS_MAPPING_ERROR; /* cuBLAS lets the copy refuse it */
    size_t w = (size_t)elem;
    size_t sp = (size_t)sinc * w, dp = (size_t)dinc * w;
    return copy_status(async ? cudaMemcpy2DAsync(dst, dp, src, sp, w, (size_t)n, kind, s)
                             : cudaMemcpy2D(dst, dp, src, sp, w, (size_t)n, kind));
}

/* A rows x cols column-major matrix of elem-byte elements from src to dst. */
static cublasStatus_t copy_matrix(int rows, int cols, int elem, const void *src, int lds,
                                  void *dst, int ldd, enum cudaMemcpyKind kind, bool async,
                                  cudaStream_t s) {
    if (rows < 0 || cols < 0 || elem <= 0 || lds <= 0 || ldd <= 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (rows == 0 || cols == 0) return CUBLAS_STATUS_SUCCESS;
    /* a leading dimension below the rows is a pitch below the width: cuBLAS lets the copy
     * refuse it */
    if (lds < rows || ldd < rows) return CUBLAS_STATUS_MAPPING_ERROR;
    size_t w = (size_t)rows * (size_t)elem;
    size_t sp = (size_t)lds * (size_t)elem, dp = (size_t)ldd * (size_t)elem;
    return copy_status(async ? cudaMemcpy2DAsync(dst, dp, src, sp, w, (size_t)cols, kind, s)
                             : cudaMemcpy2D(dst, dp, src, sp, w, (size_t)cols, kind));
}

BLAS_API cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx,
                                        void *devicePtr, int incy) {
    return copy_vector(n, elemSize, x, incx, devicePtr, incy, cudaMemcpyHostToDevice, false, 0);
}

BLAS_API cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y,
                                        int incy) {
    return copy_vector(n, elemSize, x, incx, y, incy, cudaMemcpyDeviceToHost, false, 0);
}

BLAS_API cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void *hostPtr, int incx,
                                             void *devicePtr, int incy, cudaStream_t stream) {
    return copy_vector(n, elemSize, hostPtr, incx, devicePtr, incy, cudaMemcpyHostToDevice,
                       true, stream);
}

BLAS_API cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void *devicePtr, int incx,
                                             void *hostPtr, int incy, cudaStream_t stream) {
    return copy_vector(n, elemSize, devicePtr, incx, hostPtr, incy, cudaMemcpyDeviceToHost,
                       true, stream);
}

BLAS_API cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda,
                                        void *B, int ldb) {
    return copy_matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice, false, 0);
}

BLAS_API cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda,
                                        void *B, int ldb) {
    return copy_matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost, false, 0);
}

BLAS_API cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A,
                                             int lda, void *B, int ldb, cudaStream_t stream) {
    return copy_matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice, true,
                       stream);
}

BLAS_API cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A,
                                             int lda, void *B, int ldb, cudaStream_t stream) {
    return copy_matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost, true,
                       stream);
}
