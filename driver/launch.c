/* driver/launch.c — launching kernels and what the driver says about them:
 * cuLaunchKernel (arguments as kernelParams, or packed in the `extra` buffer),
 * cuLaunchKernelEx and cuLaunchCooperativeKernel, host functions, function attributes and
 * the occupancy calculator.
 *
 * A launch is the runtime's (cudaLaunchKernel with the CUfunction, which is a runtime
 * kernel): the same checks, the same stream, the same engine, and launch attributes the
 * runtime understands. The `extra` buffer holds the arguments laid out as the kernel's
 * parameters are (each at its PTX offset); it is split into per-parameter pointers.
 */
#include "drv.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(CUlaunchAttribute) == sizeof(cudaLaunchAttribute),
               "driver and runtime launch attributes share one layout");

/* The argument pointers of a launch: kernelParams itself, or pointers into the packed
 * `extra` buffer (*owned: the array to free). */
static CUresult drv_launch_args(const rt_func *f, void **params, void **extra, void ***args,
                                void ***owned) {
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    *owned = NULL;
    if (!extra || params) { /* given both, the driver uses kernelParams (an H100 does) */
        if (info->nparams && !params) return CUDA_ERROR_INVALID_VALUE;
        *args = params;
        return CUDA_SUCCESS;
    }
    uint8_t *buf = NULL;
    size_t size = 0;
    bool has_size = false;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) {
            buf = extra[i + 1];
        } else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
            if (!extra[i + 1]) return CUDA_ERROR_INVALID_VALUE;
            size = *(size_t *)extra[i + 1];
            has_size = true;
        } else {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    if (info->nparams && (!buf || !has_size)) return CUDA_ERROR_INVALID_VALUE;
    /* the buffer must be exactly the parameters' size: an H100 refuses even a struct's
     * tail padding with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES */
    if (has_size && size != info->param_size)
        return drv_fail(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "cuLaunchKernel",
                        "the `extra` buffer holds %zu bytes; the kernel's parameters take %u",
                        size, (unsigned)info->param_size);
    void **a = calloc(info->nparams ? info->nparams : 1, sizeof *a);
    if (!a) return CUDA_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < info->nparams; i++) a[i] = buf + info->param_offsets[i];
    *args = a;
    *owned = a;
    return CUDA_SUCCESS;
}

/* The runtime's form of a launch configuration (the attributes share their layout). */
static cudaLaunchConfig_t drv_rt_config(const CUlaunchConfig *cfg) {
    cudaLaunchConfig_t rc = {
        .gridDim = {cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ},
        .blockDim = {cfg->blockDimX, cfg->blockDimY, cfg->blockDimZ},
        .dynamicSmemBytes = cfg->sharedMemBytes,
        .stream = (cudaStream_t)cfg->hStream,
        .attrs = (cudaLaunchAttribute *)cfg->attrs,
        .numAttrs = cfg->numAttrs,
    };
    return rc;
}

static CUresult drv_launch(const char *call, const CUlaunchConfig *cfg, CUfunction f,
                           void **params, void **extra) {
    (void)call;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_func *rf;
    r = drv_func_lookup(f, &rf);
    if (r) return r;
    void **args = NULL, **owned = NULL;
    r = drv_launch_args(rf, params, extra, &args, &owned);
    if (r) return r;
    cudaLaunchConfig_t rc = drv_rt_config(cfg);
    cudaError_t saved = drv_rt_begin();
    cudaError_t e = rc.numAttrs ? cudaLaunchKernelExC(&rc, rf, args)
                                : cudaLaunchKernel(rf, rc.gridDim, rc.blockDim, args,
                                                   rc.dynamicSmemBytes, rc.stream);
    free(owned);
    return drv_rt_end(saved, e);
}

/* The cluster occupancy calculator: the runtime's answers (runtime/func.c), asked through
 * rt_call with the driver's launch configuration. */
static CUresult drv_cluster_query(int *out, CUfunction func, const CUlaunchConfig *config,
                                  cudaError_t (*rt_call)(int *, const void *,
                                                         const cudaLaunchConfig_t *)) {
    if (!out || !config || (config->numAttrs && !config->attrs)) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(func, &f);
    if (r) return r;
    cudaLaunchConfig_t rc = drv_rt_config(config);
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, rt_call(out, f, &rc));
}

DRV_API CUresult cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func,
                                              const CUlaunchConfig *config) {
    return drv_cluster_query(numClusters, func, config, cudaOccupancyMaxActiveClusters);
}

DRV_API CUresult cuOccupancyMaxPotentialClusterSize(int *clusterSize, CUfunction func,
                                                    const CUlaunchConfig *config) {
    return drv_cluster_query(clusterSize, func, config, cudaOccupancyMaxPotentialClusterSize);
}

static CUresult drv_launch_kernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                  unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                  CUstream stream, void **params, void **extra) {
    CUlaunchConfig cfg = {gx, gy, gz, bx, by, bz, shared, stream, NULL, 0};
    return drv_launch("cuLaunchKernel", &cfg, f, params, extra);
}

DRV_API CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                unsigned int gridDimZ, unsigned int blockDimX,
                                unsigned int blockDimY, unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream,
                                void **kernelParams, void **extra) {
    return drv_launch_kernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                             sharedMemBytes, hStream, kernelParams, extra);
}

DRV_API CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                     unsigned int gridDimZ, unsigned int blockDimX,
                                     unsigned int blockDimY, unsigned int blockDimZ,
                                     unsigned int sharedMemBytes, CUstream hStream,
                                     void **kernelParams, void **extra) {
    return drv_launch_kernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                             sharedMemBytes, hStream ? hStream : CU_STREAM_PER_THREAD,
                             kernelParams, extra);
}

DRV_API CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                                  void **kernelParams, void **extra) {
    if (!config || (config->numAttrs && !config->attrs)) return CUDA_ERROR_INVALID_VALUE;
    return drv_launch("cuLaunchKernelEx", config, f, kernelParams, extra);
}

DRV_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
                                       void **kernelParams, void **extra) {
    if (!config || (config->numAttrs && !config->attrs)) return CUDA_ERROR_INVALID_VALUE;
    CUlaunchConfig c = *config;
    if (!c.hStream) c.hStream = CU_STREAM_PER_THREAD;
    return drv_launch("cuLaunchKernelEx", &c, f, kernelParams, extra);
}

static CUresult drv_launch_cooperative(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                       unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                       CUstream stream, void **params) {
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attr.value.cooperative = 1;
    CUlaunchConfig cfg = {gx, gy, gz, bx, by, bz, shared, stream, &attr, 1};
    return drv_launch("cuLaunchCooperativeKernel", &cfg, f, params, NULL);
}

DRV_API CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX,
                                           unsigned int gridDimY, unsigned int gridDimZ,
                                           unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes,
                                           CUstream hStream, void **kernelParams) {
    return drv_launch_cooperative(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
                                  blockDimZ, sharedMemBytes, hStream, kernelParams);
}

DRV_API CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX,
                                                unsigned int gridDimY, unsigned int gridDimZ,
                                                unsigned int blockDimX, unsigned int blockDimY,
                                                unsigned int blockDimZ,
                                                unsigned int sharedMemBytes, CUstream hStream,
                                                void **kernelParams) {
    return drv_launch_cooperative(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
                                  blockDimZ, sharedMemBytes,
                                  hStream ? hStream : CU_STREAM_PER_THREAD, kernelParams);
}

DRV_API CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaLaunchHostFunc((cudaStream_t)hStream, fn, userData));
}

DRV_API CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData) {
    return cuLaunchHostFunc(hStream ? hStream : CU_STREAM_PER_THREAD, fn, userData);
}

/* ---- functions ---- */

DRV_API CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc) {
    if (!pi) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(hfunc, &f);
    if (r) return r;
    struct cudaFuncAttributes a;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, cudaFuncGetAttributes(&a, f));
    if (r) return r;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = a.maxThreadsPerBlock; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)a.sharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)a.constSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)a.localSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = a.numRegs; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = a.ptxVersion; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = a.binaryVersion; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = a.cacheModeCA; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = a.maxDynamicSharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = a.preferredShmemCarveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = a.clusterDimMustBeSet; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *pi = a.requiredClusterWidth; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *pi = a.requiredClusterHeight; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = a.requiredClusterDepth; break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
        *pi = a.nonPortableClusterSizeAllowed;
        break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        *pi = a.clusterSchedulingPolicyPreference;
        break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(hfunc, &f);
    if (r) return r;
    /* the settable attributes are numbered alike in both APIs (8 and up) */
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaFuncSetAttribute(f, (enum cudaFuncAttribute)attrib, value));
}

DRV_API CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(hfunc, &f);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaFuncSetCacheConfig(f, (enum cudaFuncCache)config));
}

DRV_API CUresult cuFuncGetName(const char **name, CUfunction hfunc) {
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(hfunc, &f);
    if (!r) *name = f->name;
    return r;
}

DRV_API CUresult cuFuncLoad(CUfunction function) {
    CUresult r = drv_initialised();
    if (r) return r;
    rt_func *f;
    return drv_func_lookup(function, &f); /* resolving it loads it */
}

DRV_API CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function) {
    if (!state) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(function, &f);
    if (!r) *state = CU_FUNCTION_LOADING_STATE_LOADED;
    return r;
}

/* ---- occupancy ---- */

DRV_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                      CUfunction func,
                                                                      int blockSize,
                                                                      size_t dynamicSMemSize,
                                                                      unsigned int flags) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(func, &f);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                                 numBlocks, f, blockSize, dynamicSMemSize, flags));
}

DRV_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func,
                                                             int blockSize,
                                                             size_t dynamicSMemSize) {
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

/* The block size with the most resident threads per SM (the largest such), and the grid
 * that fills the device with it, as the driver's calculator picks them. */
DRV_API CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                                           CUfunction func,
                                                           CUoccupancyB2DSize smemFn,
                                                           size_t dynamicSMemSize,
                                                           int blockSizeLimit,
                                                           unsigned int flags) {
    if (!minGridSize || !blockSize) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(func, &f);
    if (r) return r;
    int max_threads = 0, sms = 0;
    cudaError_t saved = drv_rt_begin();
    struct cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, f);
    if (!e) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    r = drv_rt_end(saved, e);
    if (r) return r;
    max_threads = a.maxThreadsPerBlock;
    if (blockSizeLimit > 0 && blockSizeLimit < max_threads) max_threads = blockSizeLimit;
    int best_size = 0, best_blocks = 0, best_threads = 0;
    for (int size = max_threads; size > 0; size = (size - 1) / 32 * 32) {
        size_t smem = smemFn ? smemFn(size) : dynamicSMemSize;
        int blocks = 0;
        r = cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, func, size, smem, flags);
        if (r) return r;
        if (blocks * size > best_threads) {
            best_threads = blocks * size;
            best_size = size;
            best_blocks = blocks;
        }
    }
    *blockSize = best_size;
    *minGridSize = best_blocks * sms;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
                                                  CUfunction func, CUoccupancyB2DSize smemFn,
                                                  size_t dynamicSMemSize, int blockSizeLimit) {
    return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, smemFn,
                                                     dynamicSMemSize, blockSizeLimit, 0);
}

DRV_API CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func,
                                                         int numBlocks, int blockSize) {
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(func, &f);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, f,
                                                                       numBlocks, blockSize));
}
