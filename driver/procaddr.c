/* driver/procaddr.c — cuGetProcAddress: the way CUDA 12 and later programs and libraries
 * find driver entry points by name. A name is the one a program writes (cuMemAlloc);
 * the answer is the newest ABI version libcuda exports for it (cuMemAlloc_v2), or its
 * per-thread default stream form when the flags ask for that. Functions vcuda does not
 * implement are found too: calling them says so (CUDA_ERROR_NOT_SUPPORTED).
 */
#include "drv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct drv_api_fn {
    const char *name;
    void (*fn)(void);
} drv_api_fn;
extern const drv_api_fn drv_api_fns[];
extern const size_t drv_api_nfns;

static int drv_fn_cmp(const void *key, const void *row) {
    return strcmp(key, ((const drv_api_fn *)row)->name);
}

static void (*drv_fn_find(const char *name))(void) {
    const drv_api_fn *f = bsearch(name, drv_api_fns, drv_api_nfns, sizeof *drv_api_fns, drv_fn_cmp);
    return f ? f->fn : NULL;
}

typedef struct drv_api_versions { const char *name; int n; int since[8]; } drv_api_versions;
extern const drv_api_versions drv_api_version_table[];
extern const size_t drv_api_nversions;

static int drv_versions_cmp(const void *key, const void *row) {
    return strcmp(key, ((const drv_api_versions *)row)->name);
}

/* Which ABI version of symbol a caller built for CUDA cudaVersion expects: 1 for the
 * plain name, k for name_vk; the newest there is (4) when the toolkit's typedefs say
 * nothing of it. A cuCtxCreate asked for at 12000 is cuCtxCreate_v3 (v4 came in 12.5),
 * whose arguments differ from v4's. */
static int drv_abi_version(const char *symbol, int cudaVersion) {
    const drv_api_versions *v = bsearch(symbol, drv_api_version_table, drv_api_nversions,
                                        sizeof *drv_api_version_table, drv_versions_cmp);
    if (!v) return 4;
    int k = 0;
    while (k < v->n && v->since[k] <= cudaVersion) k++;
    return k < 1 ? 1 : k > 4 ? 4 : k;
}

DRV_API CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                                     cuuint64_t flags, CUdriverProcAddressQueryResult *symbolStatus) {
    if (!symbol || !pfn || cudaVersion <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM |
                              CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
        return CUDA_ERROR_INVALID_VALUE;
    *pfn = NULL;
    bool per_thread = flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    static const char *const versions[] = {"_v4", "_v3", "_v2", ""};
    static const char *const streams[] = {"_ptds", "_ptsz"};
    void (*fn)(void) = NULL;
    char name[256];
    /* the newest ABI version not newer than the caller's CUDA version */
    size_t first = 4 - (size_t)drv_abi_version(symbol, cudaVersion);
    for (size_t v = first; v < sizeof versions / sizeof *versions && !fn; v++) {
        for (size_t s = 0; per_thread && s < 2 && !fn; s++) {
            snprintf(name, sizeof name, "%s%s%s", symbol, versions[v], streams[s]);
            fn = drv_fn_find(name);
        }
        if (!fn) {
            snprintf(name, sizeof name, "%s%s", symbol, versions[v]);
            fn = drv_fn_find(name);
        }
    }
    if (symbolStatus)
        *symbolStatus = fn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (!fn) return CUDA_ERROR_NOT_FOUND;
    *pfn = (void *)fn;
    return CUDA_SUCCESS;
}
