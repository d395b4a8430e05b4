/* blas/level1_t.h — the level-1 routines (vector operations) for element type T, included
 * by blas/level1_s.c (float) and blas/level1_d.c (double), which define T, API(name)
 * (cublasS##name), IAPI(name) (cublasIs##name) and ABS. Reductions add in element order,
 * in T, as one thread would; nrm2 sums the squares in double, so that a float vector's
 * norm neither overflows nor loses its low bits early. */
#include "blas.h"

#include <math.h>
#include <stdlib.h>

#include "scalar_t.h"

enum l1_op { L1_AXPY, L1_SCAL, L1_COPY, L1_SWAP, L1_DOT, L1_NRM2, L1_ASUM, L1_AMAX, L1_AMIN };

typedef struct {
    enum l1_op op;
    int64_t n, incx, incy;
    blas_scalar alpha;
    T *x, *y;
    void *result; /* T* for sums, int* for the index of amax/amin */
} l1_job;

static void l1_run(void *p) {
    l1_job *j = p;
    int64_t n = j->n, ix = j->incx, iy = j->incy;
    T *x = j->x, *y = j->y;
    switch (j->op) {
    case L1_AXPY: {
        T a = scalar_value(&j->alpha);
        for (int64_t i = 0; i < n; i++) y[blas_at(i, n, iy)] += a * x[blas_at(i, n, ix)];
        break;
    }
    case L1_SCAL: {
        T a = scalar_value(&j->alpha);
        for (int64_t i = 0; i < n; i++) x[i * ix] *= a;
        break;
    }
    case L1_COPY:
        for (int64_t i = 0; i < n; i++) y[blas_at(i, n, iy)] = x[blas_at(i, n, ix)];
        break;
    case L1_SWAP:
        for (int64_t i = 0; i < n; i++) {
            T t = y[blas_at(i, n, iy)];
            y[blas_at(i, n, iy)] = x[blas_at(i, n, ix)];
            x[blas_at(i, n, ix)] = t;
        }
        break;
    case L1_DOT: {
        T s = 0;
        for (int64_t i = 0; i < n; i++) s += x[blas_at(i, n, ix)] * y[blas_at(i, n, iy)];
        *(T *)j->result = s;
        break;
    }
    case L1_NRM2: {
        double s = 0;
        for (int64_t i = 0; i < n; i++) s += (double)x[i * ix] * (double)x[i * ix];
        *(T *)j->result = (T)sqrt(s);
        break;
    }
    case L1_ASUM: {
        T s = 0;
        for (int64_t i = 0; i < n; i++) s += ABS(x[i * ix]);
        *(T *)j->result = s;
        break;
    }
    case L1_AMAX:
    case L1_AMIN: {
        int best = 0; /* 0 for an empty vector, else the first extreme's 1-based index */
        T bv = 0;
        for (int64_t i = 0; i < n; i++) {
            T v = ABS(x[i * ix]);
            if (i == 0 || (j->op == L1_AMAX ? v > bv : v < bv)) {
                best = (int)i + 1;
                bv = v;
            }
        }
        *(int *)j->result = best;
        break;
    }
    }
}

/* Checks the handle and the vectors (y when y_needed), then queues the work; a reduction
 * (result != NULL) in host pointer mode waits for it. */
static cublasStatus_t l1_issue(cublasHandle_t h, enum l1_op op, int n, const T *alpha,
                               const T *x, int incx, const T *y, int incy, bool y_needed,
                               void *result, size_t result_bytes) {
    if (!blas_handle_live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    /* a reduction's vectors outside device memory: cuBLAS answers MAPPING_ERROR (its copy
     * of the result fails; seen on an H200), the others EXECUTION_FAILED */
    cublasStatus_t bad = result ? CUBLAS_STATUS_MAPPING_ERROR : CUBLAS_STATUS_EXECUTION_FAILED;
    cublasStatus_t st;
    if (result && (st = result_check(h, result, result_bytes))) return st;
    l1_job job = {.op = op, .n = n < 0 ? 0 : n, .incx = incx, .incy = incy,
                  .x = (T *)x, .y = (T *)y, .result = result};
    /* BLAS's rule: the single-vector routines do nothing for a non-positive increment */
    if (!y_needed && incx <= 0) job.n = 0;
    if ((op == L1_AXPY || op == L1_SCAL) && (st = scalar_take(h, alpha, &job.alpha)))
        return st;
    if (job.n > 0) {
        if (!blas_device_ok(x, blas_vector_bytes(job.n, incx, sizeof(T))))
            return bad;
        if (y_needed && !blas_device_ok(y, blas_vector_bytes(job.n, incy, sizeof(T))))
            return bad;
    } else if (!result) {
        return CUBLAS_STATUS_SUCCESS;
    }
    l1_job *copy = malloc(sizeof *copy);
    if (copy) *copy = job;
    if ((st = blas_enqueue(h, l1_run, copy))) return st;
    if (result && h->pointer_mode == CUBLAS_POINTER_MODE_HOST) return blas_wait(h);
    return CUBLAS_STATUS_SUCCESS;
}

BLAS_API cublasStatus_t API(axpy_v2)(cublasHandle_t handle, int n, const T *alpha, const T *x,
                                     int incx, T *y, int incy) {
    return l1_issue(handle, L1_AXPY, n, alpha, x, incx, y, incy, true, NULL, 0);
}

BLAS_API cublasStatus_t API(scal_v2)(cublasHandle_t handle, int n, const T *alpha, T *x,
                                     int incx) {
    return l1_issue(handle, L1_SCAL, n, alpha, x, incx, NULL, 0, false, NULL, 0);
}

BLAS_API cublasStatus_t API(copy_v2)(cublasHandle_t handle, int n, const T *x, int incx, T *y,
                                     int incy) {
    return l1_issue(handle, L1_COPY, n, NULL, x, incx, y, incy, true, NULL, 0);
}

BLAS_API cublasStatus_t API(swap_v2)(cublasHandle_t handle, int n, T *x, int incx, T *y,
                                     int incy) {
    return l1_issue(handle, L1_SWAP, n, NULL, x, incx, y, incy, true, NULL, 0);
}

BLAS_API cublasStatus_t API(dot_v2)(cublasHandle_t handle, int n, const T *x, int incx,
                                    const T *y, int incy, T *result) {
    /* a null result: MAPPING_ERROR for dot, INVALID_VALUE for nrm2 (as on an H200) */
    if (!result) return blas_handle_live(handle) ? CUBLAS_STATUS_MAPPING_ERROR
                                                 : CUBLAS_STATUS_NOT_INITIALIZED;
    return l1_issue(handle, L1_DOT, n, NULL, x, incx, y, incy, true, result, sizeof(T));
}

BLAS_API cublasStatus_t API(nrm2_v2)(cublasHandle_t handle, int n, const T *x, int incx,
                                     T *result) {
    if (!result) return blas_handle_live(handle) ? CUBLAS_STATUS_INVALID_VALUE
                                                 : CUBLAS_STATUS_NOT_INITIALIZED;
    return l1_issue(handle, L1_NRM2, n, NULL, x, incx, NULL, 0, false, result, sizeof(T));
}

BLAS_API cublasStatus_t API(asum_v2)(cublasHandle_t handle, int n, const T *x, int incx,
                                     T *result) {
    if (!result) return blas_handle_live(handle) ? CUBLAS_STATUS_INVALID_VALUE
                                                 : CUBLAS_STATUS_NOT_INITIALIZED;
    return l1_issue(handle, L1_ASUM, n, NULL, x, incx, NULL, 0, false, result, sizeof(T));
}

BLAS_API cublasStatus_t IAPI(amax_v2)(cublasHandle_t handle, int n, const T *x, int incx,
                                      int *result) {
    if (!result) return blas_handle_live(handle) ? CUBLAS_STATUS_INVALID_VALUE
                                                 : CUBLAS_STATUS_NOT_INITIALIZED;
    return l1_issue(handle, L1_AMAX, n, NULL, x, incx, NULL, 0, false, result, sizeof(int));
}

BLAS_API cublasStatus_t IAPI(amin_v2)(cublasHandle_t handle, int n, const T *x, int incx,
                                      int *result) {
    if (!result) return blas_handle_live(handle) ? CUBLAS_STATUS_INVALID_VALUE
                                                 : CUBLAS_STATUS_NOT_INITIALIZED;
    return l1_issue(handle, L1_AMIN, n, NULL, x, incx, NULL, 0, false, result, sizeof(int));
}
