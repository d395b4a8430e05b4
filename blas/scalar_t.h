/* blas/scalar_t.h — a scalar argument (alpha, beta) of element type T, for the routines
 * of blas/level1_t.h and blas/level3_t.h: in host pointer mode its value is read when the
 * call is made (the caller's variable may be gone when the work runs), in device pointer
 * mode where the work runs, after the stream's earlier work wrote it. */
typedef struct {
    T value;
    const T *device; /* device pointer mode: read when the work runs */
} blas_scalar;

/* CUBLAS_STATUS_INVALID_VALUE for a null scalar, EXECUTION_FAILED for a device pointer
 * outside device memory. */
static cublasStatus_t scalar_take(cublasHandle_t h, const T *p, blas_scalar *out) {
    if (!p) return CUBLAS_STATUS_INVALID_VALUE;
    out->device = NULL;
    out->value = 0;
    if (h->pointer_mode == CUBLAS_POINTER_MODE_HOST) {
        out->value = *p;
        return CUBLAS_STATUS_SUCCESS;
    }
    if (!blas_device_ok(p, sizeof(T))) return CUBLAS_STATUS_EXECUTION_FAILED;
    out->device = p;
    return CUBLAS_STATUS_SUCCESS;
}

static inline T scalar_value(const blas_scalar *s) {
    return s->device ? *s->device : s->value;
}

/* Is the scalar known, when the call is made, to be zero? (Only in host pointer mode.) */
static inline bool scalar_known_zero(const blas_scalar *s) {
    return !s->device && s->value == 0;
}

/* A result pointer: in device pointer mode it must be device memory; in host mode the
 * call waits for the work (blas_wait) so that the result is there on return. */
static cublasStatus_t result_check(cublasHandle_t h, const void *p, size_t bytes) {
    if (!p) return CUBLAS_STATUS_INVALID_VALUE;
    if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE && !blas_device_ok(p, bytes))
        return CUBLAS_STATUS_EXECUTION_FAILED;
    return CUBLAS_STATUS_SUCCESS;
}
