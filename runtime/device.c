/* runtime/device.c — a device as the API shows it: every property and attribute comes
 * from its gpu preset (VCUDA_DEVICE) and its place in the list; flags, versions, limits,
 * cache configuration, synchronisation and reset. (Which devices exist and which one is
 * current: devlist.c.)
 *
 * Argument checks and values follow an H100 under CUDA 13
 * (tests/cuda/probes/expected/device_api.out and props.out).
 */
#include "rt.h"

#include <stdio.h>
#include <string.h>

#define RT_RUNTIME_VERSION 13000 /* CUDA 13.0, whose ABI the library exports */
#define RT_DRIVER_VERSION 13000

/* Calls that only read the preset answer even after a device fault, as CUDA's do. */
static cudaError_t rt_preset_ready(rt_context *c) {
    return rt_cur(c)->preset ? cudaSuccess : rt_record(cudaErrorNoDevice);
}

void rt_dev_uuid(const rt_dev *v, cudaUUID_t *uuid) {
    /* A fixed identity per preset and place in the list: "vcuda-" and the preset's key,
     * then "-N" for the devices after the first. */
    memset(uuid, 0, sizeof *uuid);
    char text[sizeof uuid->bytes + 1];
    if (v->physical)
        snprintf(text, sizeof text, "vcuda-%s-%d", v->preset->key, v->physical);
    else
        snprintf(text, sizeof text, "vcuda-%s", v->preset->key);
    memcpy(uuid->bytes, text, strlen(text));
}

/* Devices of one host sit on one bus, in slots one after another (as the two GPUs of a
 * lent H200 machine do: 00:06.0 and 00:07.0). */
int rt_dev_pci_device(const rt_dev *v) { return v->preset->pci_device_id + v->physical; }

static void rt_fill_props(const rt_dev *v, struct cudaDeviceProp *d) {
    const gpu_preset *p = v->preset;
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", p->name);
    rt_dev_uuid(v, &d->uuid);
    d->totalGlobalMem = p->total_global_mem;
    d->sharedMemPerBlock = p->shared_per_block;
    d->regsPerBlock = p->regs_per_block;
    d->warpSize = p->warp_size;
    d->memPitch = p->mem_pitch;
    d->maxThreadsPerBlock = p->max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        d->maxThreadsDim[i] = p->max_block_dim[i];
        d->maxGridSize[i] = p->max_grid_dim[i];
    }
    d->totalConstMem = p->total_const_mem;
    d->major = p->major;
    d->minor = p->minor;
    d->textureAlignment = (size_t)p->texture_alignment;
    d->texturePitchAlignment = (size_t)p->texture_pitch_alignment;
    d->multiProcessorCount = p->multiprocessor_count;
    d->integrated = p->integrated;
    d->canMapHostMemory = p->can_map_host_memory;
    d->maxTexture1D = p->max_texture1d;
    d->maxTexture1DMipmap = p->max_texture1d_mipmap;
    memcpy(d->maxTexture2D, p->max_texture2d, sizeof d->maxTexture2D);
    memcpy(d->maxTexture2DMipmap, p->max_texture2d_mipmap, sizeof d->maxTexture2DMipmap);
    memcpy(d->maxTexture2DLinear, p->max_texture2d_linear, sizeof d->maxTexture2DLinear);
    memcpy(d->maxTexture2DGather, p->max_texture2d_gather, sizeof d->maxTexture2DGather);
    memcpy(d->maxTexture3D, p->max_texture3d, sizeof d->maxTexture3D);
    memcpy(d->maxTexture3DAlt, p->max_texture3d_alt, sizeof d->maxTexture3DAlt);
    d->maxTextureCubemap = p->max_texture_cubemap;
    memcpy(d->maxTexture1DLayered, p->max_texture1d_layered, sizeof d->maxTexture1DLayered);
    memcpy(d->maxTexture2DLayered, p->max_texture2d_layered, sizeof d->maxTexture2DLayered);
    memcpy(d->maxTextureCubemapLayered, p->max_texture_cubemap_layered,
           sizeof d->maxTextureCubemapLayered);
    d->maxSurface1D = p->max_surface1d;
    memcpy(d->maxSurface2D, p->max_surface2d, sizeof d->maxSurface2D);
    memcpy(d->maxSurface3D, p->max_surface3d, sizeof d->maxSurface3D);
    memcpy(d->maxSurface1DLayered, p->max_surface1d_layered, sizeof d->maxSurface1DLayered);
    memcpy(d->maxSurface2DLayered, p->max_surface2d_layered, sizeof d->maxSurface2DLayered);
    d->maxSurfaceCubemap = p->max_surface_cubemap;
    memcpy(d->maxSurfaceCubemapLayered, p->max_surface_cubemap_layered,
           sizeof d->maxSurfaceCubemapLayered);
    d->surfaceAlignment = (size_t)p->surface_alignment;
    d->concurrentKernels = p->concurrent_kernels;
    d->ECCEnabled = p->ecc_enabled;
    d->pciBusID = p->pci_bus_id;
    d->pciDeviceID = rt_dev_pci_device(v);
    d->pciDomainID = p->pci_domain_id;
    d->tccDriver = p->tcc_driver;
    d->asyncEngineCount = p->async_engine_count;
    d->unifiedAddressing = p->unified_addressing;
    d->memoryBusWidth = p->mem_bus_width;
    d->l2CacheSize = p->l2_cache_size;
    d->persistingL2CacheMaxSize = p->persisting_l2_max;
    d->maxThreadsPerMultiProcessor = p->max_threads_per_sm;
    d->streamPrioritiesSupported = p->stream_priorities_supported;
    d->globalL1CacheSupported = p->l1_cache_global;
    d->localL1CacheSupported = p->l1_cache_local;
    d->sharedMemPerMultiprocessor = p->shared_per_sm;
    d->regsPerMultiprocessor = p->regs_per_sm;
    d->managedMemory = p->managed_memory;
    d->isMultiGpuBoard = p->is_multi_gpu_board;
    d->multiGpuBoardGroupID = p->multi_gpu_board_group_id;
    d->hostNativeAtomicSupported = p->host_native_atomic_supported;
    d->pageableMemoryAccess = p->pageable_memory_access;
    d->concurrentManagedAccess = p->concurrent_managed_access;
    d->computePreemptionSupported = p->compute_preemption;
    d->canUseHostPointerForRegisteredMem = p->can_use_host_pointer_for_registered_mem;
    d->cooperativeLaunch = p->cooperative_launch;
    d->sharedMemPerBlockOptin = p->shared_per_block_optin;
    d->pageableMemoryAccessUsesHostPageTables = p->pageable_memory_access_uses_host_page_tables;
    d->directManagedMemAccessFromHost = p->direct_managed_mem_access_from_host;
    d->maxBlocksPerMultiProcessor = p->max_blocks_per_sm;
    d->accessPolicyMaxWindowSize = p->access_policy_max_window_size;
    d->reservedSharedMemPerBlock = p->reserved_shared_per_block;
    d->hostRegisterSupported = p->host_register_supported;
    d->sparseCudaArraySupported = p->sparse_cuda_array_supported;
    d->hostRegisterReadOnlySupported = p->host_register_read_only_supported;
    d->timelineSemaphoreInteropSupported = p->timeline_semaphore_interop_supported;
    d->memoryPoolsSupported = p->memory_pools_supported;
    d->gpuDirectRDMASupported = p->gpu_direct_rdma_supported;
    d->gpuDirectRDMAFlushWritesOptions = p->gpu_direct_rdma_flush_writes_options;
    d->gpuDirectRDMAWritesOrdering = p->gpu_direct_rdma_writes_ordering;
    d->memoryPoolSupportedHandleTypes = p->memory_pool_supported_handle_types;
    d->deferredMappingCudaArraySupported = p->deferred_mapping_cuda_array_supported;
    d->ipcEventSupported = p->ipc_event_supported;
    d->clusterLaunch = p->cluster_launch;
    d->unifiedFunctionPointers = p->unified_function_pointers;
    d->deviceNumaConfig = p->numa_config;
    d->deviceNumaId = p->numa_id;
    d->mpsEnabled = p->mps_enabled;
    d->hostNumaId = p->host_numa_id;
    d->gpuPciDeviceID = p->gpu_pci_device_id;
    d->gpuPciSubsystemID = p->gpu_pci_subsystem_id;
    d->hostNumaMultinodeIpcSupported = p->host_numa_multinode_ipc_supported;
}

RT_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
    rt_context *c = rt_ctx();
    if (!prop) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_preset_ready(c);
    if (e) return e;
    rt_dev *v = rt_dev_at(c, device);
    if (!v) return rt_record(cudaErrorInvalidDevice);
    rt_fill_props(v, prop);
    return cudaSuccess;
}

/* The value of attribute attr, or false when CUDA does not know it. */
static bool rt_attribute(const rt_dev *dv, int attr, int *v) {
    const gpu_preset *p = dv->preset;
    switch (attr) {
#define A(n, expr) case n: *v = (int)(expr); return true;
    A(cudaDevAttrMaxThreadsPerBlock, p->max_threads_per_block)
    A(cudaDevAttrMaxBlockDimX, p->max_block_dim[0])
    A(cudaDevAttrMaxBlockDimY, p->max_block_dim[1])
    A(cudaDevAttrMaxBlockDimZ, p->max_block_dim[2])
    A(cudaDevAttrMaxGridDimX, p->max_grid_dim[0])
    A(cudaDevAttrMaxGridDimY, p->max_grid_dim[1])
    A(cudaDevAttrMaxGridDimZ, p->max_grid_dim[2])
    A(cudaDevAttrMaxSharedMemoryPerBlock, p->shared_per_block)
    A(cudaDevAttrTotalConstantMemory, p->total_const_mem)
    A(cudaDevAttrWarpSize, p->warp_size)
    A(cudaDevAttrMaxPitch, p->mem_pitch)
    A(cudaDevAttrMaxRegistersPerBlock, p->regs_per_block)
    A(cudaDevAttrClockRate, p->clock_khz)
    A(cudaDevAttrTextureAlignment, p->texture_alignment)
    A(cudaDevAttrGpuOverlap, p->gpu_overlap)
    A(cudaDevAttrMultiProcessorCount, p->multiprocessor_count)
    A(cudaDevAttrKernelExecTimeout, p->kernel_exec_timeout)
    A(cudaDevAttrIntegrated, p->integrated)
    A(cudaDevAttrCanMapHostMemory, p->can_map_host_memory)
    A(cudaDevAttrComputeMode, p->compute_mode)
    A(cudaDevAttrMaxTexture1DWidth, p->max_texture1d)
    A(cudaDevAttrMaxTexture2DWidth, p->max_texture2d[0])
    A(cudaDevAttrMaxTexture2DHeight, p->max_texture2d[1])
    A(cudaDevAttrMaxTexture3DWidth, p->max_texture3d[0])
    A(cudaDevAttrMaxTexture3DHeight, p->max_texture3d[1])
    A(cudaDevAttrMaxTexture3DDepth, p->max_texture3d[2])
    A(cudaDevAttrMaxTexture2DLayeredWidth, p->max_texture2d_layered[0])
    A(cudaDevAttrMaxTexture2DLayeredHeight, p->max_texture2d_layered[1])
    A(cudaDevAttrMaxTexture2DLayeredLayers, p->max_texture2d_layered[2])
    A(cudaDevAttrSurfaceAlignment, p->surface_alignment)
    A(cudaDevAttrConcurrentKernels, p->concurrent_kernels)
    A(cudaDevAttrEccEnabled, p->ecc_enabled)
    A(cudaDevAttrPciBusId, p->pci_bus_id)
    A(cudaDevAttrPciDeviceId, rt_dev_pci_device(dv))
    A(cudaDevAttrTccDriver, p->tcc_driver)
    A(cudaDevAttrMemoryClockRate, p->mem_clock_khz)
    A(cudaDevAttrGlobalMemoryBusWidth, p->mem_bus_width)
    A(cudaDevAttrL2CacheSize, p->l2_cache_size)
    A(cudaDevAttrMaxThreadsPerMultiProcessor, p->max_threads_per_sm)
    A(cudaDevAttrAsyncEngineCount, p->async_engine_count)
    A(cudaDevAttrUnifiedAddressing, p->unified_addressing)
    A(cudaDevAttrMaxTexture1DLayeredWidth, p->max_texture1d_layered[0])
    A(cudaDevAttrMaxTexture1DLayeredLayers, p->max_texture1d_layered[1])
    A(cudaDevAttrMaxTexture2DGatherWidth, p->max_texture2d_gather[0])
    A(cudaDevAttrMaxTexture2DGatherHeight, p->max_texture2d_gather[1])
    A(cudaDevAttrMaxTexture3DWidthAlt, p->max_texture3d_alt[0])
    A(cudaDevAttrMaxTexture3DHeightAlt, p->max_texture3d_alt[1])
    A(cudaDevAttrMaxTexture3DDepthAlt, p->max_texture3d_alt[2])
    A(cudaDevAttrPciDomainId, p->pci_domain_id)
    A(cudaDevAttrTexturePitchAlignment, p->texture_pitch_alignment)
    A(cudaDevAttrMaxTextureCubemapWidth, p->max_texture_cubemap)
    A(cudaDevAttrMaxTextureCubemapLayeredWidth, p->max_texture_cubemap_layered[0])
    A(cudaDevAttrMaxTextureCubemapLayeredLayers, p->max_texture_cubemap_layered[1])
    A(cudaDevAttrMaxSurface1DWidth, p->max_surface1d)
    A(cudaDevAttrMaxSurface2DWidth, p->max_surface2d[0])
    A(cudaDevAttrMaxSurface2DHeight, p->max_surface2d[1])
    A(cudaDevAttrMaxSurface3DWidth, p->max_surface3d[0])
    A(cudaDevAttrMaxSurface3DHeight, p->max_surface3d[1])
    A(cudaDevAttrMaxSurface3DDepth, p->max_surface3d[2])
    A(cudaDevAttrMaxSurface1DLayeredWidth, p->max_surface1d_layered[0])
    A(cudaDevAttrMaxSurface1DLayeredLayers, p->max_surface1d_layered[1])
    A(cudaDevAttrMaxSurface2DLayeredWidth, p->max_surface2d_layered[0])
    A(cudaDevAttrMaxSurface2DLayeredHeight, p->max_surface2d_layered[1])
    A(cudaDevAttrMaxSurface2DLayeredLayers, p->max_surface2d_layered[2])
    A(cudaDevAttrMaxSurfaceCubemapWidth, p->max_surface_cubemap)
    A(cudaDevAttrMaxSurfaceCubemapLayeredWidth, p->max_surface_cubemap_layered[0])
    A(cudaDevAttrMaxSurfaceCubemapLayeredLayers, p->max_surface_cubemap_layered[1])
    A(cudaDevAttrMaxTexture1DLinearWidth, p->max_texture1d_linear)
    A(cudaDevAttrMaxTexture2DLinearWidth, p->max_texture2d_linear[0])
    A(cudaDevAttrMaxTexture2DLinearHeight, p->max_texture2d_linear[1])
    A(cudaDevAttrMaxTexture2DLinearPitch, p->max_texture2d_linear[2])
    A(cudaDevAttrMaxTexture2DMipmappedWidth, p->max_texture2d_mipmap[0])
    A(cudaDevAttrMaxTexture2DMipmappedHeight, p->max_texture2d_mipmap[1])
    A(cudaDevAttrComputeCapabilityMajor, p->major)
    A(cudaDevAttrComputeCapabilityMinor, p->minor)
    A(cudaDevAttrMaxTexture1DMipmappedWidth, p->max_texture1d_mipmap)
    A(cudaDevAttrStreamPrioritiesSupported, p->stream_priorities_supported)
    A(cudaDevAttrGlobalL1CacheSupported, p->l1_cache_global)
    A(cudaDevAttrLocalL1CacheSupported, p->l1_cache_local)
    A(cudaDevAttrMaxSharedMemoryPerMultiprocessor, p->shared_per_sm)
    A(cudaDevAttrMaxRegistersPerMultiprocessor, p->regs_per_sm)
    A(cudaDevAttrManagedMemory, p->managed_memory)
    A(cudaDevAttrIsMultiGpuBoard, p->is_multi_gpu_board)
    A(cudaDevAttrMultiGpuBoardGroupID, p->multi_gpu_board_group_id)
    A(cudaDevAttrHostNativeAtomicSupported, p->host_native_atomic_supported)
    A(cudaDevAttrSingleToDoublePrecisionPerfRatio, p->single_to_double_perf_ratio)
    A(cudaDevAttrPageableMemoryAccess, p->pageable_memory_access)
    A(cudaDevAttrConcurrentManagedAccess, p->concurrent_managed_access)
    A(cudaDevAttrComputePreemptionSupported, p->compute_preemption)
    A(cudaDevAttrCanUseHostPointerForRegisteredMem, p->can_use_host_pointer_for_registered_mem)
    A(cudaDevAttrCooperativeLaunch, p->cooperative_launch)
    A(cudaDevAttrReserved96, p->cooperative_multi_device_launch)
    A(cudaDevAttrMaxSharedMemoryPerBlockOptin, p->shared_per_block_optin)
    A(cudaDevAttrCanFlushRemoteWrites, p->can_flush_remote_writes)
    A(cudaDevAttrHostRegisterSupported, p->host_register_supported)
    A(cudaDevAttrPageableMemoryAccessUsesHostPageTables,
      p->pageable_memory_access_uses_host_page_tables)
    A(cudaDevAttrDirectManagedMemAccessFromHost, p->direct_managed_mem_access_from_host)
    A(cudaDevAttrMaxBlocksPerMultiprocessor, p->max_blocks_per_sm)
    A(cudaDevAttrMaxPersistingL2CacheSize, p->persisting_l2_max)
    A(cudaDevAttrMaxAccessPolicyWindowSize, p->access_policy_max_window_size)
    A(cudaDevAttrReservedSharedMemoryPerBlock, p->reserved_shared_per_block)
    A(cudaDevAttrSparseCudaArraySupported, p->sparse_cuda_array_supported)
    A(cudaDevAttrHostRegisterReadOnlySupported, p->host_register_read_only_supported)
    A(cudaDevAttrTimelineSemaphoreInteropSupported, p->timeline_semaphore_interop_supported)
    A(cudaDevAttrMemoryPoolsSupported, p->memory_pools_supported)
    A(cudaDevAttrGPUDirectRDMASupported, p->gpu_direct_rdma_supported)
    A(cudaDevAttrGPUDirectRDMAFlushWritesOptions, p->gpu_direct_rdma_flush_writes_options)
    A(cudaDevAttrGPUDirectRDMAWritesOrdering, p->gpu_direct_rdma_writes_ordering)
    A(cudaDevAttrMemoryPoolSupportedHandleTypes, p->memory_pool_supported_handle_types)
    A(cudaDevAttrClusterLaunch, p->cluster_launch)
    A(cudaDevAttrDeferredMappingCudaArraySupported, p->deferred_mapping_cuda_array_supported)
    A(cudaDevAttrIpcEventSupport, p->ipc_event_supported)
    A(cudaDevAttrMemSyncDomainCount, p->mem_sync_domain_count)
    A(cudaDevAttrNumaConfig, p->numa_config)
    A(cudaDevAttrNumaId, p->numa_id)
    A(cudaDevAttrMpsEnabled, p->mps_enabled)
    A(cudaDevAttrHostNumaId, p->host_numa_id)
    A(cudaDevAttrD3D12CigSupported, p->d3d12_cig_supported)
    A(cudaDevAttrVulkanCigSupported, p->vulkan_cig_supported)
    A(cudaDevAttrGpuPciDeviceId, p->gpu_pci_device_id)
    A(cudaDevAttrGpuPciSubsystemId, p->gpu_pci_subsystem_id)
    A(cudaDevAttrHostNumaMemoryPoolsSupported, p->host_numa_memory_pools_supported)
    A(cudaDevAttrHostNumaMultinodeIpcSupported, p->host_numa_multinode_ipc_supported)
    A(cudaDevAttrHostMemoryPoolsSupported, p->host_memory_pools_supported)
    A(cudaDevAttrOnlyPartialHostNativeAtomicSupported, p->only_partial_host_native_atomic)
#undef A
    /* Reserved and unnamed numbers (retired attributes) CUDA 13 still answers, with the
     * values an H100 gives (props.out); no program should rely on them. */
    case cudaDevAttrReserved92: case cudaDevAttrReserved93: case cudaDevAttrReserved94:
    case cudaDevAttrReserved132: case 104: case 105: case 136: case 137: case 146:
        *v = 0;
        return true;
    case cudaDevAttrReserved122: case cudaDevAttrReserved123: case cudaDevAttrReserved124:
    case cudaDevAttrReserved127: case cudaDevAttrReserved128: case cudaDevAttrReserved129:
    case cudaDevAttrReserved141: case cudaDevAttrReserved145: case 44: case 102: case 103:
    case 107: case 110:
        *v = 1;
        return true;
    default:
        return false;
    }
}

RT_API cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_preset_ready(c);
    if (e) return e;
    rt_dev *dv = rt_dev_at(c, device);
    if (!dv) return rt_record(cudaErrorInvalidDevice);
    int v;
    if (!value || !rt_attribute(dv, (int)attr, &v)) return rt_record(cudaErrorInvalidValue);
    *value = v;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_preset_ready(c);
    if (e) return e;
    rt_dev *v = rt_dev_at(c, device);
    if (!v) return rt_record(cudaErrorInvalidDevice);
    if (!pciBusId || len <= 0) return rt_record(cudaErrorInvalidValue);
    snprintf(pciBusId, (size_t)len, "%08X:%02X:%02X.0", v->preset->pci_domain_id,
             v->preset->pci_bus_id, rt_dev_pci_device(v));
    return cudaSuccess;
}

RT_API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
    if (!runtimeVersion) return rt_record(cudaErrorInvalidValue);
    *runtimeVersion = RT_RUNTIME_VERSION;
    return cudaSuccess;
}

RT_API cudaError_t cudaDriverGetVersion(int *driverVersion) {
    if (!driverVersion) return rt_record(cudaErrorInvalidValue);
    *driverVersion = RT_DRIVER_VERSION;
    return cudaSuccess;
}

/* ---- flags ---- */

RT_API cudaError_t cudaSetDeviceFlags(unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_preset_ready(c);
    if (e) return e;
    unsigned sched = flags & cudaDeviceScheduleMask;
    bool one_schedule = sched == cudaDeviceScheduleAuto || sched == cudaDeviceScheduleSpin ||
                        sched == cudaDeviceScheduleYield || sched == cudaDeviceScheduleBlockingSync;
    unsigned known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax |
                     cudaDeviceSyncMemops;
    if ((flags & ~known) || !one_schedule) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_cur(c)->flags = flags | cudaDeviceMapHost; /* mapping is always on with unified addressing */
    rt_cur(c)->flags_set = true;
    pthread_mutex_unlock(&c->lock);
    return cudaSuccess;
}

RT_API cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
    rt_context *c = rt_ctx();
    if (!flags) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_preset_ready(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    /* Mapping is on by default; without a context (after cudaDeviceReset, before the next
     * call that needs the device) CUDA reports no flags at all. */
    *flags = rt_cur(c)->flags_set ? rt_cur(c)->flags : c->active ? cudaDeviceMapHost : 0;
    pthread_mutex_unlock(&c->lock);
    return cudaSuccess;
}

/* ---- limits ---- */

RT_API cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pValue || (unsigned)limit >= RT_LIMIT_COUNT) return rt_record(cudaErrorInvalidValue);
    if (limit == cudaLimitDevRuntimeSyncDepth && !rt_cur(c)->preset->limit_dev_runtime_sync_depth)
        return rt_record(cudaErrorUnsupportedLimit);
    pthread_mutex_lock(&c->lock);
    *pValue = rt_cur(c)->limits[limit];
    pthread_mutex_unlock(&c->lock);
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if ((unsigned)limit >= RT_LIMIT_COUNT) return rt_record(cudaErrorInvalidValue);
    /* Adjustments as an H100 makes them (tests/cuda/probes/expected/device_api.out). */
    switch (limit) {
    case cudaLimitStackSize:
        value = (value + 15) & ~(size_t)15;
        break;
    case cudaLimitPrintfFifoSize:
        /* at least 512 KiB, in 128-byte units (3000000 reads back as 3000064) */
        if (value < 524288) value = 524288;
        value = (value + 127) & ~(size_t)127;
        break;
    case cudaLimitMallocHeapSize:
        /* "must be performed before launching any kernel that uses the malloc() or free()
         * device system calls" (the H100 answers cudaErrorInvalidValue afterwards:
         * tests/cuda/conformance/device_heap) */
        if (rt_cur(c)->heap_in_use) return rt_record(cudaErrorInvalidValue);
        /* at least 4 MiB, in 64 KiB units (12345678 reads back as 12386304) */
        if (value < 4194304) value = 4194304;
        value = (value + 65535) & ~(size_t)65535;
        break;
    case cudaLimitDevRuntimeSyncDepth:
        if (!rt_cur(c)->preset->limit_dev_runtime_sync_depth) return rt_record(cudaErrorUnsupportedLimit);
        break;
    case cudaLimitMaxL2FetchGranularity:
        if (value > 128) return rt_record(cudaErrorInvalidValue);
        break;
    case cudaLimitPersistingL2CacheSize: {
        /* More than the device's maximum is refused; a size is rounded up to a tenth of the
         * maximum (on the H100 1 MiB and 10^6 both read back as 3276800, a tenth of its
         * 32768000, and the default is three tenths): tests/cuda/conformance/limits */
        size_t max = (size_t)rt_cur(c)->preset->persisting_l2_max, unit = max / 10;
        if (max && value > max) return rt_record(cudaErrorInvalidValue);
        value = unit ? (value + unit - 1) / unit * unit : 0; /* no persisting L2: stays 0 */
        break;
    }
    default:
        break;
    }
    /* the current device's limit alone, as each GPU has its own */
    pthread_mutex_lock(&c->lock);
    rt_dev *v = rt_cur(c);
    v->limits[limit] = value;
    gpu_device *g = v->gpu;
    pthread_mutex_unlock(&c->lock);
    if (g && limit == cudaLimitStackSize) gpu_device_set_stack_limit(g, value);
    if (g && limit == cudaLimitMallocHeapSize) gpu_device_heap_reset(g, value);
    return cudaSuccess;
}

/* ---- cache configuration (recorded; an emulated device has no L1 to split) ---- */

RT_API cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pCacheConfig) return rt_record(cudaErrorInvalidValue);
    *pCacheConfig = (enum cudaFuncCache)rt_cur(c)->cache_config;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if ((unsigned)cacheConfig > cudaFuncCachePreferEqual) return rt_record(cudaErrorInvalidValue);
    rt_cur(c)->cache_config = cacheConfig;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig) {
    cudaError_t e = rt_enter(rt_ctx());
    if (e) return e;
    if (!pConfig) return rt_record(cudaErrorInvalidValue);
    *pConfig = cudaSharedMemBankSizeFourByte; /* not configurable since Maxwell */
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config) {
    cudaError_t e = rt_enter(rt_ctx());
    if (e) return e;
    if ((unsigned)config > cudaSharedMemBankSizeEightByte) return rt_record(cudaErrorInvalidValue);
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
    cudaError_t e = rt_enter(rt_ctx());
    if (e) return e;
    if (leastPriority) *leastPriority = 0;
    if (greatestPriority) *greatestPriority = -5;
    return cudaSuccess;
}

/* ---- synchronisation and reset ---- */

RT_API cudaError_t cudaDeviceSynchronize(void) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    e = rt_capture_forbids(c);
    if (e) return rt_record(e);
    /* the current device's work (with several devices, the others' goes on) */
    return rt_record(rt_device_synchronize_dev(c, c->ndevs > 1 ? rt_cur(c)->ordinal : -1));
}

RT_API cudaError_t cudaDeviceReset(void) {
    rt_context *c = rt_ctx();
    if (!rt_cur(c)->preset) return rt_record(cudaErrorNoDevice);
    /* Issued work finishes first (its printf output appears, as a GPU flushes it when
     * the context is destroyed); then everything goes. */
    rt_device_synchronize(c);
    pthread_mutex_lock(&c->lock);
    if (c->ndevs > 1) {
        /* one of several: the others keep their memory, streams and the loaded code */
        rt_context_reset_device(c, rt_cur(c)->ordinal);
        pthread_mutex_unlock(&c->lock);
        rt_thread_state()->last_error = cudaSuccess;
        return cudaSuccess;
    }
    rt_context_reset(c);
    /* Host code holds pointers to __managed__ variables and checks only once that they
     * are set: give those modules their storage again now. */
    for (rt_module *m = c->modules; m; m = m->next)
        if (m->has_managed && m->state == RT_MOD_UNLOADED) rt_module_load(c, m);
    pthread_mutex_unlock(&c->lock);
    rt_thread_state()->last_error = cudaSuccess;
    return cudaSuccess;
}

/* ---- profiler control (the `vcuda prof` tools measure whole runs) ---- */

RT_API cudaError_t cudaProfilerStart(void) { return rt_enter(rt_ctx()); }
RT_API cudaError_t cudaProfilerStop(void) { return rt_enter(rt_ctx()); }
