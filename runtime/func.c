/* runtime/func.c — what the API tells and lets a program set about a kernel:
 * cudaFuncGetAttributes, cudaFuncSetAttribute, the cache and shared-memory configuration
 * calls, and the occupancy calculator (gpu/occupancy.c does the arithmetic).
 *
 * A kernel is named by its host stub (the function pointer a program passes) or by a
 * handle; NULL gives cudaErrorInvalidDeviceFunction and a pointer that names no kernel
 * cudaErrorInvalidResourceHandle, as on an H100 (tests/cuda/probes/expected/func_attrs.out).
 */
#include "rt.h"

#include <string.h>

/* Registers per thread as ptxas would settle them: the PTX estimate, at most what a
 * thread may have, and few enough for __launch_bounds__ to hold (ptxas spills to fit). */
int rt_func_regs_estimate(const gpu_preset *p, const exec_kernel_info *info) {
    int regs = (int)info->regs_per_thread;
    if (regs > p->max_regs_per_thread) regs = p->max_regs_per_thread;
    if (info->maxntid[0]) {
        uint32_t threads = info->maxntid[0] * (info->maxntid[1] ? info->maxntid[1] : 1) *
                           (info->maxntid[2] ? info->maxntid[2] : 1);
        uint32_t warps = (threads + (uint32_t)p->warp_size - 1) / (uint32_t)p->warp_size;
        uint32_t blocks = info->minnctapersm ? info->minnctapersm : 1;
        int fit = (int)((uint32_t)p->regs_per_sm / (warps * (uint32_t)p->warp_size * blocks)) / 8 * 8;
        if (fit > 0 && regs > fit) regs = fit;
    }
    return regs;
}

int rt_func_regs_per_thread(rt_context *c, rt_func *f, bool *from_ptxas) {
    int regs = rt_func_registers(c, f, from_ptxas);
    if (regs >= 0) return regs;
    return rt_func_regs_estimate(rt_cur(c)->preset, exec_kernel_get_info(f->kernel));
}

static gpu_occ_kernel rt_occ_kernel(rt_context *c, rt_func *f) {
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    gpu_occ_kernel k = gpu_occ_kernel_default(rt_cur(c)->preset, rt_func_regs_per_thread(c, f, NULL),
                                              info->static_shared);
    k.max_dynamic_shared = rt_func_max_dynamic_shared(c, f);
    k.dynamic_shared_raised = f->max_dynamic_shared >= 0;
    k.carveout = f->carveout;
    return k;
}

/* For the block scheduler's residency: ptxas's registers when already known, else the
 * PTX estimate (a launch does not run ptxas). */
int rt_func_blocks_per_sm(rt_context *c, const rt_func *f, int threads_per_block,
                          size_t dynamic_shared) {
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    int regs = f->has_ptxas_regs ? f->ptxas_regs : rt_func_regs_estimate(rt_cur(c)->preset, info);
    gpu_occ_kernel k = gpu_occ_kernel_default(rt_cur(c)->preset, regs, info->static_shared);
    k.max_dynamic_shared = rt_func_max_dynamic_shared(c, f);
    k.dynamic_shared_raised = f->max_dynamic_shared >= 0;
    k.carveout = f->carveout;
    return gpu_occupancy_kernel(rt_cur(c)->preset, &k, threads_per_block, dynamic_shared).blocks_per_sm;
}

/* Find and load the kernel func. Called with c->lock held. */
static cudaError_t rt_func_ready(rt_context *c, const void *func, rt_func **out) {
    cudaError_t e = rt_func_lookup(c, func, out);
    if (e == cudaSuccess) e = rt_func_resolve(c, *out);
    return e;
}

static int rt_max_threads(rt_context *c, rt_func *f) {
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    int max = gpu_max_threads_per_block(rt_cur(c)->preset, rt_func_regs_per_thread(c, f, NULL));
    if (info->maxntid[0]) {
        int bound = (int)(info->maxntid[0] * (info->maxntid[1] ? info->maxntid[1] : 1) *
                          (info->maxntid[2] ? info->maxntid[2] : 1));
        if (bound < max) max = bound;
    }
    return max;
}

RT_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!attr) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_func *f;
    e = rt_func_ready(c, func, &f);
    if (e == cudaSuccess) {
        const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
        const gpu_preset *p = rt_cur(c)->preset;
        memset(attr, 0, sizeof *attr);
        attr->sharedSizeBytes = info->static_shared;
        attr->constSizeBytes = f->mod->const_bytes;
        attr->localSizeBytes = info->local_per_thread;
        attr->maxThreadsPerBlock = rt_max_threads(c, f);
        attr->numRegs = rt_func_regs_per_thread(c, f, NULL);
        attr->ptxVersion = (int)f->mod->ptx_arch;     /* the PTX's virtual architecture */
        attr->binaryVersion = p->major * 10 + p->minor; /* code "compiled" for the device */
        attr->cacheModeCA = 0;
        attr->maxDynamicSharedSizeBytes = (int)rt_func_max_dynamic_shared(c, f);
        attr->preferredShmemCarveout = f->carveout;
        /* __cluster_dims__ or the shape set at run time (.explicitcluster without a shape:
         * the launch must give one) */
        exec_dim3 cl;
        bool has = rt_func_cluster_dims(f, &cl);
        attr->clusterDimMustBeSet = info->explicitcluster; /* nvcc's for __cluster_dims__ */
        attr->requiredClusterWidth = has ? (int)cl.x : 0;
        attr->requiredClusterHeight = has ? (int)cl.y : 0;
        attr->requiredClusterDepth = has ? (int)cl.z : 0;
        attr->nonPortableClusterSizeAllowed = f->cluster_attrs[4];
        attr->clusterSchedulingPolicyPreference = f->cluster_attrs[5];
    }
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

RT_API cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    rt_func *f;
    e = rt_func_ready(c, func, &f);
    if (e == cudaSuccess) {
        const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
        switch (attr) {
        case cudaFuncAttributeMaxDynamicSharedMemorySize: {
            uint64_t optin = rt_cur(c)->preset->shared_per_block_optin;
            uint64_t most = info->static_shared < optin ? optin - info->static_shared : 0;
            if (value < 0 || (uint64_t)value > most)
                e = cudaErrorInvalidValue;
            else
                f->max_dynamic_shared = value;
            break;
        }
        case cudaFuncAttributePreferredSharedMemoryCarveout:
            if (value < -1 || value > 100)
                e = cudaErrorInvalidValue;
            else
                f->carveout = value;
            break;
        case cudaFuncAttributeClusterDimMustBeSet:
            e = cudaErrorInvalidValue; /* read-only */
            break;
        case cudaFuncAttributeRequiredClusterWidth:
        case cudaFuncAttributeRequiredClusterHeight:
        case cudaFuncAttributeRequiredClusterDepth:
            /* the shape __cluster_dims__ gives, unless it gave one (checked at launch) */
            if (info->reqnctapercluster[0] || value < 0)
                e = cudaErrorInvalidValue;
            else
                f->cluster_attrs[1 + (attr - cudaFuncAttributeRequiredClusterWidth)] = value;
            break;
        case cudaFuncAttributeNonPortableClusterSizeAllowed:
            f->cluster_attrs[4] = value;
            break;
        case cudaFuncAttributeClusterSchedulingPolicyPreference:
            f->cluster_attrs[5] = value;
            break;
        default:
            e = cudaErrorInvalidValue;
            break;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

RT_API cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    rt_func *f;
    e = rt_func_lookup(c, func, &f);
    if (e == cudaSuccess) {
        if ((unsigned)cacheConfig > cudaFuncCachePreferEqual)
            e = cudaErrorInvalidValue;
        else
            f->cache_config = cacheConfig;
    }
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

RT_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    rt_func *f;
    e = rt_func_lookup(c, func, &f);
    if (e == cudaSuccess && (unsigned)config > cudaSharedMemBankSizeEightByte)
        e = cudaErrorInvalidValue;
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

RT_API cudaError_t cudaFuncGetName(const char **name, const void *func) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!name) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_func *f;
    e = rt_func_lookup(c, func, &f);
    if (e == cudaSuccess) *name = f->name;
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

/* ---- occupancy ---- */

RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!numBlocks) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_func *f;
    e = rt_func_ready(c, func, &f);
    if (e == cudaSuccess) {
        gpu_occ_kernel k = rt_occ_kernel(c, f);
        /* The register limit on the block size applies, __launch_bounds__ does not: an
         * H100 answers 8 blocks of 256 threads for a kernel bounded to 128 (func_attrs.out). */
        int most_threads = gpu_max_threads_per_block(rt_cur(c)->preset, k.regs_per_thread);
        if (flags & ~(unsigned)cudaOccupancyDisableCachingOverride || blockSize <= 0)
            e = cudaErrorInvalidValue;
        else if (blockSize > most_threads || dynamicSMemSize > k.max_dynamic_shared)
            *numBlocks = 0; /* such a block could never launch */
        else
            *numBlocks = gpu_occupancy_kernel(rt_cur(c)->preset, &k, blockSize, dynamicSMemSize).blocks_per_sm;
    }
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                 int blockSize,
                                                                 size_t dynamicSMemSize) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize,
                                                                  cudaOccupancyDefault);
}

bool rt_func_cluster_dims(const rt_func *f, exec_dim3 *out) {
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    const uint32_t *r = info->reqnctapercluster;
    if (r[0]) {
        *out = (exec_dim3){r[0], r[1] ? r[1] : 1, r[2] ? r[2] : 1};
        return true;
    }
    const int *a = &f->cluster_attrs[1];
    if (a[0] > 0 && a[1] > 0 && a[2] > 0) {
        *out = (exec_dim3){(uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2]};
        return true;
    }
    return false;
}

/* The cluster size of a launch configuration: its cluster attribute, else the kernel's
 * own shape; 0 when neither gives one. */
static int rt_config_cluster_size(const rt_func *f, const cudaLaunchConfig_t *cfg) {
    for (unsigned i = 0; i < cfg->numAttrs; i++) {
        const cudaLaunchAttribute *a = &cfg->attrs[i];
        if (a->id == cudaLaunchAttributeClusterDimension)
            return (int)(a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z);
    }
    exec_dim3 cl;
    return rt_func_cluster_dims(f, &cl) ? (int)(cl.x * cl.y * cl.z) : 0;
}

/* Clusters of size blocks of a configuration that fit at once (c->lock held, f ready);
 * cudaErrorInvalidClusterSize for a size the kernel may not launch with. */
static cudaError_t rt_active_clusters(rt_context *c, rt_func *f, const cudaLaunchConfig_t *cfg,
                                      int size, int *n) {
    const gpu_preset *p = rt_cur(c)->preset;
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    int most = f->cluster_attrs[4] ? p->cluster_max : p->cluster_portable;
    if (!p->cluster_launch) return cudaErrorNotSupported;
    if (size < 1 || size > most || (info->maxclusterrank && (uint32_t)size > info->maxclusterrank))
        return cudaErrorInvalidClusterSize;
    int threads = (int)(cfg->blockDim.x * cfg->blockDim.y * cfg->blockDim.z);
    gpu_occ_kernel k = rt_occ_kernel(c, f);
    if (threads <= 0 || cfg->dynamicSmemBytes > k.max_dynamic_shared) return cudaErrorInvalidValue;
    int per_sm = gpu_occupancy_kernel(p, &k, threads, cfg->dynamicSmemBytes).blocks_per_sm;
    *n = gpu_occupancy_clusters(p, size, per_sm);
    return cudaSuccess;
}

/* cudaOccupancyMaxActiveClusters: how many clusters of the configuration's shape (its
 * cluster attribute or the kernel's __cluster_dims__) can be resident at once; a cluster
 * keeps to one GPC (gpu_occupancy_clusters). */
RT_API cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                                  const cudaLaunchConfig_t *launchConfig) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!numClusters || !launchConfig) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_func *f;
    e = rt_func_ready(c, func, &f);
    if (e == cudaSuccess) {
        /* with no cluster shape at all the answer is 0 clusters (an H200's) */
        int size = rt_config_cluster_size(f, launchConfig);
        if (size) e = rt_active_clusters(c, f, launchConfig, size, numClusters);
        else *numClusters = 0;
    }
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

/* cudaOccupancyMaxPotentialClusterSize: the largest cluster of the configuration's blocks
 * that still fits, up to the portable size (the largest with the non-portable attribute);
 * as on an H200, neither the kernel's __cluster_dims__ nor its cluster rank bound counts. */
RT_API cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                        const cudaLaunchConfig_t *launchConfig) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!clusterSize || !launchConfig) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_func *f;
    e = rt_func_ready(c, func, &f);
    if (e == cudaSuccess) {
        const gpu_preset *p = rt_cur(c)->preset;
        int threads = (int)(launchConfig->blockDim.x * launchConfig->blockDim.y * launchConfig->blockDim.z);
        gpu_occ_kernel k = rt_occ_kernel(c, f);
        if (!p->cluster_launch) {
            e = cudaErrorNotSupported;
        } else if (threads <= 0 || launchConfig->dynamicSmemBytes > k.max_dynamic_shared) {
            e = cudaErrorInvalidValue;
        } else {
            int per_sm = gpu_occupancy_kernel(p, &k, threads, launchConfig->dynamicSmemBytes).blocks_per_sm;
            int size = f->cluster_attrs[4] ? p->cluster_max : p->cluster_portable;
            while (size > 0 && gpu_occupancy_clusters(p, size, per_sm) < 1) size--;
            *clusterSize = size;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

RT_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                             const void *func, int numBlocks,
                                                             int blockSize) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!dynamicSmemSize) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_func *f;
    e = rt_func_ready(c, func, &f);
    if (e == cudaSuccess) {
        if (blockSize <= 0 || numBlocks <= 0) {
            e = cudaErrorInvalidValue;
        } else {
            /* numBlocks blocks of blockSize threads that cannot be resident at once even
             * without dynamic shared memory are an invalid request, not 0 bytes: the H100
             * answers cudaErrorInvalidValue (tests/data/h100/occupancy.txt) */
            gpu_occ_kernel k = rt_occ_kernel(c, f);
            size_t avail = 0;
            if (gpu_occupancy_available_dynamic_shared(rt_cur(c)->preset, &k, blockSize, numBlocks, &avail))
                *dynamicSmemSize = avail;
            else
                e = cudaErrorInvalidValue;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}
