/* blas/level3_t.h — the matrix routines (gemv, gemm and its batched forms, geam) for
 * element type T, included by blas/level3_s.c and blas/level3_d.c, which define T and
 * API(name). Matrices are column-major; each product element sums its k terms in order,
 * in T. Where beta is zero C (or y) is not read, so that NaNs there are overwritten. */
#include "blas.h"

#include <stdlib.h>

#include "scalar_t.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* Refuses argument param of routine (blas_param_error). */
static cublasStatus_t refuse(const char *routine, int param) {
    blas_param_error(routine, param);
    return CUBLAS_STATUS_INVALID_VALUE;
}

/* Element (i, j) of op(M), M stored with leading dimension ld. */
static inline T op_at(const T *m, int64_t ld, bool trans, int64_t i, int64_t j) {
    return trans ? m[j + i * ld] : m[i + j * ld];
}

static inline int64_t imax1(int64_t v) { return v > 1 ? v : 1; }

/* ---- gemm ---- */

typedef struct {
    bool ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    blas_scalar alpha, beta;
    int64_t batch;
    const T *a, *b; /* strided: the first matrices */
    T *c;
    int64_t sa, sb, sc;
    const T *const *pa, *const *pb; /* batched: arrays of pointers, else NULL */
    T *const *pc;
} gemm_job;

/* C = alpha op(A) op(B) + beta C for one matrix of the batch; col holds m sums. */
static void gemm_one(const gemm_job *j, const T *a, const T *b, T *c, T alpha, T beta,
                     T *col) {
    for (int64_t jj = 0; jj < j->n; jj++) {
        if (alpha != 0) {
            if (!j->ta) {
                /* a column of A at a time: the sums of one column of C, each in k order */
                for (int64_t i = 0; i < j->m; i++) col[i] = 0;
                for (int64_t l = 0; l < j->k; l++) {
                    T bv = op_at(b, j->ldb, j->tb, l, jj);
                    const T *acol = a + l * j->lda;
                    for (int64_t i = 0; i < j->m; i++) col[i] += acol[i] * bv;
                }
            } else {
                /* row i of op(A) is column i of A; four rows at a time share each element
                 * of B's column (four independent sums, each still in k order) */
                int64_t i = 0;
                for (; i + 4 <= j->m; i += 4) {
                    const T *r0 = a + i * j->lda, *r1 = r0 + j->lda, *r2 = r1 + j->lda,
                            *r3 = r2 + j->lda;
                    T s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                    for (int64_t l = 0; l < j->k; l++) {
                        T bv = op_at(b, j->ldb, j->tb, l, jj);
                        s0 += r0[l] * bv;
                        s1 += r1[l] * bv;
                        s2 += r2[l] * bv;
                        s3 += r3[l] * bv;
                    }
                    col[i] = s0, col[i + 1] = s1, col[i + 2] = s2, col[i + 3] = s3;
                }
                for (; i < j->m; i++) {
                    T s = 0;
                    const T *arow = a + i * j->lda;
                    for (int64_t l = 0; l < j->k; l++) s += arow[l] * op_at(b, j->ldb, j->tb, l, jj);
                    col[i] = s;
                }
            }
        }
        T *cc = c + jj * j->ldc;
        for (int64_t i = 0; i < j->m; i++) {
            T prod = alpha != 0 ? alpha * col[i] : 0;
            cc[i] = beta != 0 ? prod + beta * cc[i] : prod;
        }
    }
}

static void gemm_run(void *p) {
    gemm_job *j = p;
    T alpha = scalar_value(&j->alpha), beta = scalar_value(&j->beta);
    T *col = malloc((size_t)j->m * sizeof(T));
    if (!col) return;
    for (int64_t b = 0; b < j->batch; b++) {
        if (j->pa)
            gemm_one(j, j->pa[b], j->pb[b], j->pc[b], alpha, beta, col);
        else
            gemm_one(j, j->a + b * j->sa, j->b + b * j->sb, j->c + b * j->sc, alpha, beta, col);
    }
    free(col);
}

/* Checks a gemm's arguments; fills the job's shape and scalars. */
static cublasStatus_t gemm_args(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                int m, int n, int k, const T *alpha, int lda, int ldb,
                                const T *beta, int ldc, int batch, const char *routine,
                                gemm_job *j) {
    if (!blas_handle_live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    /* BLAS's order of checks and numbering (alpha 6, A 7, B 9, beta 11, C 12) */
    j->ta = ta != CUBLAS_OP_N;
    j->tb = tb != CUBLAS_OP_N;
    if (!blas_op_ok(ta)) return refuse(routine, 1);
    if (!blas_op_ok(tb)) return refuse(routine, 2);
    if (m < 0) return refuse(routine, 3);
    if (n < 0) return refuse(routine, 4);
    if (k < 0) return refuse(routine, 5);
    if (lda < imax1(j->ta ? k : m)) return refuse(routine, 8);
    if (ldb < imax1(j->tb ? n : k)) return refuse(routine, 10);
    if (ldc < imax1(m)) return refuse(routine, 13);
    if (batch < 0) return refuse(routine, 14);
    cublasStatus_t st;
    if ((st = scalar_take(h, alpha, &j->alpha)) || (st = scalar_take(h, beta, &j->beta)))
        return st;
    j->m = m, j->n = n, j->k = k, j->lda = lda, j->ldb = ldb, j->ldc = ldc, j->batch = batch;
    return CUBLAS_STATUS_SUCCESS;
}

/* Are one product's three matrices in device memory? */
static bool gemm_matrices_ok(const gemm_job *j, const T *a, const T *b, const T *c) {
    bool reads_ab = j->k > 0 && !scalar_known_zero(&j->alpha);
    if (reads_ab) {
        if (!blas_device_ok(a, blas_matrix_bytes(j->ta ? j->k : j->m, j->ta ? j->m : j->k,
                                                 j->lda, sizeof(T))) ||
            !blas_device_ok(b, blas_matrix_bytes(j->tb ? j->n : j->k, j->tb ? j->k : j->n,
                                                 j->ldb, sizeof(T))))
            return false;
    }
    return blas_device_ok(c, blas_matrix_bytes(j->m, j->n, j->ldc, sizeof(T)));
}

static cublasStatus_t gemm_issue(cublasHandle_t h, gemm_job *j) {
    gemm_job *copy = malloc(sizeof *copy);
    if (copy) *copy = *j;
    return blas_enqueue(h, gemm_run, copy);
}

/* gemm and gemmStridedBatched: routine names the one called, in its reports. */
static cublasStatus_t gemm_strided(cublasHandle_t handle, cublasOperation_t transa,
                                   cublasOperation_t transb, int m, int n, int k, const T *alpha,
                                   const T *A, int lda, long long int strideA, const T *B,
                                   int ldb, long long int strideB, const T *beta, T *C, int ldc,
                                   long long int strideC, int batchCount, const char *routine) {
    gemm_job j = {0};
    cublasStatus_t st = gemm_args(handle, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc,
                                  batchCount, routine, &j);
    if (st) return st;
    if (m == 0 || n == 0 || batchCount == 0) return CUBLAS_STATUS_SUCCESS;
    j.a = A, j.b = B, j.c = C, j.sa = strideA, j.sb = strideB, j.sc = strideC;
    for (int64_t b = 0; b < batchCount; b++)
        if (!gemm_matrices_ok(&j, A + b * strideA, B + b * strideB, C + b * strideC))
            return CUBLAS_STATUS_EXECUTION_FAILED;
    return gemm_issue(handle, &j);
}

BLAS_API cublasStatus_t API(gemmStridedBatched)(cublasHandle_t handle, cublasOperation_t transa,
                                                cublasOperation_t transb, int m, int n, int k,
                                                const T *alpha, const T *A, int lda,
                                                long long int strideA, const T *B, int ldb,
                                                long long int strideB, const T *beta, T *C,
                                                int ldc, long long int strideC,
                                                int batchCount) {
    return gemm_strided(handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB,
                        beta, C, ldc, strideC, batchCount, STR(API(gemmStridedBatched)) + 6);
}

BLAS_API cublasStatus_t API(gemm_v2)(cublasHandle_t handle, cublasOperation_t transa,
                                     cublasOperation_t transb, int m, int n, int k,
                                     const T *alpha, const T *A, int lda, const T *B, int ldb,
                                     const T *beta, T *C, int ldc) {
    return gemm_strided(handle, transa, transb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C,
                        ldc, 0, 1, UPPER "GEMM");
}

BLAS_API cublasStatus_t API(gemmBatched)(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const T *alpha, const T *const Aarray[], int lda,
                                         const T *const Barray[], int ldb, const T *beta,
                                         T *const Carray[], int ldc, int batchCount) {
    gemm_job j = {0};
    cublasStatus_t st = gemm_args(handle, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc,
                                  batchCount, STR(API(gemmBatched)) + 6, &j);
    if (st) return st;
    if (m == 0 || n == 0 || batchCount == 0) return CUBLAS_STATUS_SUCCESS;
    size_t bytes = (size_t)batchCount * sizeof(void *);
    if (!blas_device_ok(Aarray, bytes) || !blas_device_ok(Barray, bytes) ||
        !blas_device_ok(Carray, bytes))
        return CUBLAS_STATUS_EXECUTION_FAILED;
    /* the pointer arrays are device memory the host reads: the matrices they name are
     * checked now, as they stand when the call is made */
    for (int b = 0; b < batchCount; b++)
        if (!gemm_matrices_ok(&j, Aarray[b], Barray[b], Carray[b]))
            return CUBLAS_STATUS_EXECUTION_FAILED;
    j.pa = Aarray, j.pb = Barray, j.pc = Carray;
    return gemm_issue(handle, &j);
}

/* ---- gemv ---- */

typedef struct {
    bool trans;
    int64_t m, n, lda, incx, incy;
    blas_scalar alpha, beta;
    const T *a, *x;
    T *y;
} gemv_job;

static void gemv_run(void *p) {
    gemv_job *j = p;
    T alpha = scalar_value(&j->alpha), beta = scalar_value(&j->beta);
    int64_t ylen = j->trans ? j->n : j->m, xlen = j->trans ? j->m : j->n;
    for (int64_t i = 0; i < ylen; i++) {
        T s = 0;
        if (alpha != 0)
            for (int64_t l = 0; l < xlen; l++)
                s += op_at(j->a, j->lda, j->trans, i, l) * j->x[blas_at(l, xlen, j->incx)];
        T *yi = &j->y[blas_at(i, ylen, j->incy)];
        T prod = alpha != 0 ? alpha * s : 0;
        *yi = beta != 0 ? prod + beta * *yi : prod;
    }
}

BLAS_API cublasStatus_t API(gemv_v2)(cublasHandle_t handle, cublasOperation_t trans, int m,
                                     int n, const T *alpha, const T *A, int lda, const T *x,
                                     int incx, const T *beta, T *y, int incy) {
    if (!blas_handle_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    /* cuBLAS's gemv (as an H200 answers): an empty or negative shape is done at once, a
     * leading dimension below m is refused (without a report), and a zero increment or an
     * unknown operation does nothing */
    if (m <= 0 || n <= 0) return CUBLAS_STATUS_SUCCESS;
    if (lda < m) return CUBLAS_STATUS_INVALID_VALUE;
    if (incx == 0 || incy == 0 || !blas_op_ok(trans)) return CUBLAS_STATUS_SUCCESS;
    gemv_job j = {.trans = trans != CUBLAS_OP_N, .m = m, .n = n, .lda = lda, .incx = incx,
                  .incy = incy, .a = A, .x = x, .y = y};
    cublasStatus_t st;
    if ((st = scalar_take(handle, alpha, &j.alpha)) || (st = scalar_take(handle, beta, &j.beta)))
        return st;
    int64_t ylen = j.trans ? n : m, xlen = j.trans ? m : n;
    if (!blas_device_ok(y, blas_vector_bytes(ylen, incy, sizeof(T))))
        return CUBLAS_STATUS_EXECUTION_FAILED;
    if (!scalar_known_zero(&j.alpha) &&
        (!blas_device_ok(A, blas_matrix_bytes(m, n, lda, sizeof(T))) ||
         !blas_device_ok(x, blas_vector_bytes(xlen, incx, sizeof(T)))))
        return CUBLAS_STATUS_EXECUTION_FAILED;
    gemv_job *copy = malloc(sizeof *copy);
    if (copy) *copy = j;
    return blas_enqueue(handle, gemv_run, copy);
}

/* ---- geam ---- */

typedef struct {
    bool ta, tb;
    int64_t m, n, lda, ldb, ldc;
    blas_scalar alpha, beta;
    const T *a, *b;
    T *c;
} geam_job;

static void geam_run(void *p) {
    geam_job *j = p;
    T alpha = scalar_value(&j->alpha), beta = scalar_value(&j->beta);
    for (int64_t jj = 0; jj < j->n; jj++)
        for (int64_t i = 0; i < j->m; i++) {
            T v = alpha != 0 ? alpha * op_at(j->a, j->lda, j->ta, i, jj) : 0;
            if (beta != 0) v += beta * op_at(j->b, j->ldb, j->tb, i, jj);
            j->c[i + jj * j->ldc] = v;
        }
}

BLAS_API cublasStatus_t API(geam)(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, const T *alpha,
                                  const T *A, int lda, const T *beta, const T *B, int ldb, T *C,
                                  int ldc) {
    if (!blas_handle_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    bool ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
    const char *name = UPPER "GEAM";
    if (!blas_op_ok(transa)) return refuse(name, 1);
    if (!blas_op_ok(transb)) return refuse(name, 2);
    if (m < 0) return refuse(name, 3);
    if (n < 0) return refuse(name, 4);
    if (lda < imax1(ta ? n : m)) return refuse(name, 7);
    if (ldb < imax1(tb ? n : m)) return refuse(name, 10);
    if (ldc < imax1(m)) return refuse(name, 12);
    /* in place, C may be A or B only untransposed and with C's leading dimension: a
     * transposed read would see elements already written */
    if ((C == A && (ta || lda != ldc)) || (C == B && (tb || ldb != ldc)))
        return CUBLAS_STATUS_INVALID_VALUE;
    geam_job j = {.ta = ta, .tb = tb, .m = m, .n = n, .lda = lda, .ldb = ldb, .ldc = ldc,
                  .a = A, .b = B, .c = C};
    cublasStatus_t st;
    if ((st = scalar_take(handle, alpha, &j.alpha)) || (st = scalar_take(handle, beta, &j.beta)))
        return st;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    if (!blas_device_ok(C, blas_matrix_bytes(m, n, ldc, sizeof(T))) ||
        (!scalar_known_zero(&j.alpha) &&
         !blas_device_ok(A, blas_matrix_bytes(ta ? n : m, ta ? m : n, lda, sizeof(T)))) ||
        (!scalar_known_zero(&j.beta) &&
         !blas_device_ok(B, blas_matrix_bytes(tb ? n : m, tb ? m : n, ldb, sizeof(T)))))
        return CUBLAS_STATUS_EXECUTION_FAILED;
    geam_job *copy = malloc(sizeof *copy);
    if (copy) *copy = j;
    return blas_enqueue(handle, geam_run, copy);
}
