/* driver/errors.c — cuGetErrorName and cuGetErrorString.
 *
 * The names come from cuda.h (the table gen_api.py writes). The messages are the
 * runtime's (runtime/errors.c), since the driver says the same words for each code the
 * two APIs share; the few codes only the driver has carry their own text here.
 */
#include "drv.h"

#include <stdlib.h>

typedef struct drv_api_error {
    int code;
    const char *name;
} drv_api_error;
extern const drv_api_error drv_api_errors[];
extern const size_t drv_api_nerrors;

static int drv_error_cmp(const void *key, const void *row) {
    int k = *(const int *)key, c = ((const drv_api_error *)row)->code;
    return (k > c) - (k < c);
}

static const drv_api_error *drv_error_row(CUresult e) {
    int key = (int)e;
    return bsearch(&key, drv_api_errors, drv_api_nerrors, sizeof *drv_api_errors, drv_error_cmp);
}

/* Codes of the driver's alone (no runtime twin), with the driver's message. */
static const char *drv_own_message(CUresult e) {
    switch (e) {
    case CUDA_ERROR_CONTEXT_ALREADY_CURRENT: return "context already current";
    case CUDA_ERROR_KEY_ROTATION: return "an error happened during the key rotation sequence";
    default: return NULL;
    }
}

DRV_API CUresult cuGetErrorName(CUresult error, const char **pStr) {
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    const drv_api_error *row = drv_error_row(error);
    *pStr = row ? row->name : NULL;
    return row ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

DRV_API CUresult cuGetErrorString(CUresult error, const char **pStr) {
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    *pStr = NULL;
    if (!drv_error_row(error)) return CUDA_ERROR_INVALID_VALUE;
    const char *msg = drv_own_message(error);
    if (!msg) msg = rt_error_message((cudaError_t)error);
    if (!msg) msg = "unknown error";
    *pStr = msg;
    return CUDA_SUCCESS;
}
