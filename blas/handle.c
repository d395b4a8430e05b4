/* blas/handle.c — cuBLAS handles (create, destroy, stream, pointer and math modes), the
 * version, and the shared helpers of blas/blas.h. */
#include "blas.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cublasContext *live_handles;

bool blas_handle_live(cublasHandle_t h) {
    if (!h) return false;
    pthread_mutex_lock(&live_lock);
    struct cublasContext *p = live_handles;
    while (p && p != h) p = p->next;
    pthread_mutex_unlock(&live_lock);
    return p != NULL;
}

bool blas_device_ok(const void *p, size_t bytes) {
    if (!p) return false;
    CUdeviceptr base = 0;
    size_t size = 0;
    if (cuMemGetAddressRange_v2(&base, &size, (CUdeviceptr)(uintptr_t)p) != CUDA_SUCCESS)
        return false;
    uint64_t off = (uint64_t)(uintptr_t)p - (uint64_t)base;
    return off <= size && bytes <= size - off;
}

size_t blas_vector_bytes(int64_t n, int64_t inc, size_t elem) {
    if (n <= 0) return 0;
    uint64_t step = (uint64_t)(inc < 0 ? -inc : inc);
    return (size_t)(((uint64_t)(n - 1) * step + 1) * elem);
}

size_t blas_matrix_bytes(int64_t rows, int64_t cols, int64_t ld, size_t elem) {
    if (rows <= 0 || cols <= 0) return 0;
    return (size_t)(((uint64_t)(cols - 1) * (uint64_t)ld + (uint64_t)rows) * elem);
}

typedef struct {
    void (*fn)(void *);
    void *job;
} blas_task;

static void CUDART_CB run_task(void *data) {
    blas_task *t = data;
    t->fn(t->job);
    free(t->job);
    free(t);
}

cublasStatus_t blas_enqueue(cublasHandle_t h, void (*fn)(void *), void *job) {
    if (!job) return CUBLAS_STATUS_ALLOC_FAILED;
    /* a captured host function would run once per launch of the graph, after its job
     * was freed: capture is not supported, and says so */
    enum cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(h->stream, &cap) == cudaSuccess &&
        cap != cudaStreamCaptureStatusNone) {
        fprintf(stderr, "vcuda: cuBLAS calls inside stream capture are not supported\n");
        free(job);
        return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    blas_task *t = malloc(sizeof *t);
    if (!t) {
        free(job);
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    t->fn = fn;
    t->job = job;
    if (cudaLaunchHostFunc(h->stream, run_task, t) != cudaSuccess) {
        free(job);
        free(t);
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t blas_wait(cublasHandle_t h) {
    return cudaStreamSynchronize(h->stream) == cudaSuccess ? CUBLAS_STATUS_SUCCESS
                                                           : CUBLAS_STATUS_EXECUTION_FAILED;
}

void blas_param_error(const char *routine, int param) {
    fprintf(stderr, " ** On entry to %-6s parameter number %d had an illegal value\n", routine,
            param);
}

BLAS_API cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
    if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
    /* the driver API's pointer checks need it initialised; cudaFree(0) makes the device's
     * context, as cuBLAS's initialisation does */
    if (cuInit(0) != CUDA_SUCCESS || cudaFree(NULL) != cudaSuccess)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    struct cublasContext *h = calloc(1, sizeof *h);
    if (!h) return CUBLAS_STATUS_ALLOC_FAILED;
    h->pointer_mode = CUBLAS_POINTER_MODE_HOST;
    h->math_mode = CUBLAS_DEFAULT_MATH;
    pthread_mutex_lock(&live_lock);
    h->next = live_handles;
    live_handles = h;
    pthread_mutex_unlock(&live_lock);
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

BLAS_API cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
    if (!blas_handle_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    /* work still queued reads the handle's stream only, but finish it as cuBLAS does */
    cudaStreamSynchronize(handle->stream);
    pthread_mutex_lock(&live_lock);
    struct cublasContext **p = &live_handles;
    while (*p && *p != handle) p = &(*p)->next;
    if (*p) *p = handle->next;
    pthread_mutex_unlock(&live_lock);
    free(handle);
    return CUBLAS_STATUS_SUCCESS;
}

BLAS_API cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version) {
    (void)handle; /* cuBLAS answers without one (an H200: 130100 for a null handle) */
    if (!version) return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

BLAS_API cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value) {
    if (!value) return CUBLAS_STATUS_INVALID_VALUE;
    switch (type) {
    case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; return CUBLAS_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CUBLAS_VER_MINOR; return CUBLAS_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; return CUBLAS_STATUS_SUCCESS;
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
}

BLAS_API cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId) {
    if (!blas_handle_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    return CUBLAS_STATUS_SUCCESS;
}

BLAS_API cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId) {
    if (!blas_handle_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!streamId) return CUBLAS_STATUS_INVALID_VALUE;
    *streamId = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

BLAS_API cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
    if (!blas_handle_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->pointer_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

BLAS_API cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode) {
    if (!blas_handle_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->pointer_mode;
    return CUBLAS_STATUS_SUCCESS;
}

BLAS_API cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
    if (!blas_handle_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    /* the modes only allow faster, less exact arithmetic: vcuda computes exactly under all;
     * an unknown mode is refused (the reduced-precision-reduction flag may be added) */
    unsigned base = (unsigned)mode & ~(unsigned)CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    if (base != CUBLAS_DEFAULT_MATH && base != CUBLAS_TENSOR_OP_MATH &&
        base != CUBLAS_PEDANTIC_MATH && base != CUBLAS_TF32_TENSOR_OP_MATH &&
        base != CUBLAS_FP32_EMULATED_BF16X9_MATH && base != CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->math_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

BLAS_API cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode) {
    if (!blas_handle_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->math_mode;
    return CUBLAS_STATUS_SUCCESS;
}

BLAS_API const char *cublasGetStatusName(cublasStatus_t status) {
    switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "unrecognized status";
}

BLAS_API const char *cublasGetStatusString(cublasStatus_t status) {
    switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an unsupported value or parameter was passed to the function";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "the function requires an architectural feature absent from the device";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the function failed to launch on the GPU";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the requested functionality is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "the license check failed";
    }
    return "unrecognized status";
}
