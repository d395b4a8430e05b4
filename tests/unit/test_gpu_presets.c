/* tests/unit/test_gpu_presets.c — the preset table: lookup by name and VCUDA_DEVICE, the
 * internal consistency of every row, and the h100 row against every property and attribute
 * a real H100 reported (tests/data/h100/props.txt). */
#include "gpu/gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static void test_lookup(void) {
    CHECK(gpu_preset_count == 5);
    CHECK(gpu_preset_find("h100") == &gpu_presets[0]);
    CHECK(gpu_preset_find("H100") == &gpu_presets[0]);
    CHECK(gpu_preset_find("Fermi") && gpu_preset_find("Fermi")->major == 2);
    CHECK(gpu_preset_find("K40") && gpu_preset_find("K40")->minor == 5);
    CHECK(gpu_preset_find("a100") && gpu_preset_find("v100"));
    CHECK(gpu_preset_find("h200") == NULL);
    CHECK(gpu_preset_find(NULL) == NULL);

    char err[256];
    unsetenv("VCUDA_DEVICE");
    CHECK(gpu_preset_from_env(err, sizeof err) == gpu_preset_find("h100"));
    setenv("VCUDA_DEVICE", "V100", 1);
    CHECK(gpu_preset_from_env(err, sizeof err) == gpu_preset_find("v100"));
    setenv("VCUDA_DEVICE", "gtx9000", 1);
    err[0] = 0;
    CHECK(gpu_preset_from_env(err, sizeof err) == NULL);
    CHECK(strstr(err, "gtx9000") && strstr(err, "h100") && strstr(err, "a100") &&
          strstr(err, "v100") && strstr(err, "k40") && strstr(err, "fermi"));
    char tiny[8];
    CHECK(gpu_preset_from_env(tiny, sizeof tiny) == NULL && strlen(tiny) < sizeof tiny);
    unsetenv("VCUDA_DEVICE");
}

/* Facts every row must agree with itself on. */
static void test_consistency(void) {
    for (size_t i = 0; i < gpu_preset_count; i++) {
        const gpu_preset *p = &gpu_presets[i];
        CHECK(p->key && p->name && p->arch_name);
        CHECK(p->max_warps_per_sm * p->warp_size == p->max_threads_per_sm);
        CHECK(p->shared_per_block <= p->shared_per_block_optin);
        CHECK(p->shared_per_block_optin + p->reserved_shared_per_block <= p->shared_per_sm);
        CHECK(p->regs_per_block <= p->regs_per_sm);
        CHECK(p->reg_alloc_unit > 0 && p->warp_alloc_granularity > 0 && p->shared_alloc_unit > 0);
        CHECK(p->cores_per_sm > 0 && p->multiprocessor_count > 0 && p->clock_khz > 0);
        if (p->shared_carveout_count > 0) {
            /* the largest carveout is the SM's shared memory */
            CHECK((uint64_t)p->shared_carveout_kb[p->shared_carveout_count - 1] * 1024 ==
                  p->shared_per_sm);
            for (int c = 1; c < p->shared_carveout_count; c++)
                CHECK(p->shared_carveout_kb[c] > p->shared_carveout_kb[c - 1]);
        }
        CHECK((p->gpu_pci_device_id & 0xffff) == 0x10de);
        /* A full-size block of 32-register threads always launches. */
        CHECK(gpu_max_threads_per_block(p, 32) == p->max_threads_per_block);
    }
}

/* ---- the h100 row against the recorded properties ---- */

typedef struct expect {
    const char *key;    /* "prop.<cudaDeviceProp field>" or "attr.<number>" */
    int n;
    long long v[3];
} expect;

#define E1(k, a) {k, 1, {(long long)(a)}}
#define E2(k, a) {k, 2, {(long long)(a)[0], (long long)(a)[1]}}
#define E3(k, a) {k, 3, {(long long)(a)[0], (long long)(a)[1], (long long)(a)[2]}}

static size_t build_expectations(const gpu_preset *p, expect *e) {
    size_t n = 0;
    const expect props[] = {
        E1("prop.totalGlobalMem", p->total_global_mem),
        E1("prop.sharedMemPerBlock", p->shared_per_block),
        E1("prop.regsPerBlock", p->regs_per_block),
        E1("prop.warpSize", p->warp_size),
        E1("prop.memPitch", p->mem_pitch),
        E1("prop.maxThreadsPerBlock", p->max_threads_per_block),
        E3("prop.maxThreadsDim", p->max_block_dim),
        E3("prop.maxGridSize", p->max_grid_dim),
        E1("prop.totalConstMem", p->total_const_mem),
        E1("prop.major", p->major),
        E1("prop.minor", p->minor),
        E1("prop.textureAlignment", p->texture_alignment),
        E1("prop.texturePitchAlignment", p->texture_pitch_alignment),
        E1("prop.multiProcessorCount", p->multiprocessor_count),
        E1("prop.integrated", p->integrated),
        E1("prop.canMapHostMemory", p->can_map_host_memory),
        E1("prop.maxTexture1D", p->max_texture1d),
        E1("prop.maxTexture1DMipmap", p->max_texture1d_mipmap),
        E2("prop.maxTexture2D", p->max_texture2d),
        E2("prop.maxTexture2DMipmap", p->max_texture2d_mipmap),
        E3("prop.maxTexture2DLinear", p->max_texture2d_linear),
        E2("prop.maxTexture2DGather", p->max_texture2d_gather),
        E3("prop.maxTexture3D", p->max_texture3d),
        E3("prop.maxTexture3DAlt", p->max_texture3d_alt),
        E1("prop.maxTextureCubemap", p->max_texture_cubemap),
        E2("prop.maxTexture1DLayered", p->max_texture1d_layered),
        E3("prop.maxTexture2DLayered", p->max_texture2d_layered),
        E2("prop.maxTextureCubemapLayered", p->max_texture_cubemap_layered),
        E1("prop.maxSurface1D", p->max_surface1d),
        E2("prop.maxSurface2D", p->max_surface2d),
        E3("prop.maxSurface3D", p->max_surface3d),
        E2("prop.maxSurface1DLayered", p->max_surface1d_layered),
        E3("prop.maxSurface2DLayered", p->max_surface2d_layered),
        E1("prop.maxSurfaceCubemap", p->max_surface_cubemap),
        E2("prop.maxSurfaceCubemapLayered", p->max_surface_cubemap_layered),
        E1("prop.surfaceAlignment", p->surface_alignment),
        E1("prop.concurrentKernels", p->concurrent_kernels),
        E1("prop.ECCEnabled", p->ecc_enabled),
        E1("prop.pciBusID", p->pci_bus_id),
        E1("prop.pciDeviceID", p->pci_device_id),
        E1("prop.pciDomainID", p->pci_domain_id),
        E1("prop.tccDriver", p->tcc_driver),
        E1("prop.asyncEngineCount", p->async_engine_count),
        E1("prop.unifiedAddressing", p->unified_addressing),
        E1("prop.memoryBusWidth", p->mem_bus_width),
        E1("prop.l2CacheSize", p->l2_cache_size),
        E1("prop.persistingL2CacheMaxSize", p->persisting_l2_max),
        E1("prop.maxThreadsPerMultiProcessor", p->max_threads_per_sm),
        E1("prop.streamPrioritiesSupported", p->stream_priorities_supported),
        E1("prop.globalL1CacheSupported", p->l1_cache_global),
        E1("prop.localL1CacheSupported", p->l1_cache_local),
        E1("prop.sharedMemPerMultiprocessor", p->shared_per_sm),
        E1("prop.regsPerMultiprocessor", p->regs_per_sm),
        E1("prop.managedMemory", p->managed_memory),
        E1("prop.isMultiGpuBoard", p->is_multi_gpu_board),
        E1("prop.multiGpuBoardGroupID", p->multi_gpu_board_group_id),
        E1("prop.hostNativeAtomicSupported", p->host_native_atomic_supported),
        E1("prop.pageableMemoryAccess", p->pageable_memory_access),
        E1("prop.concurrentManagedAccess", p->concurrent_managed_access),
        E1("prop.computePreemptionSupported", p->compute_preemption),
        E1("prop.canUseHostPointerForRegisteredMem", p->can_use_host_pointer_for_registered_mem),
        E1("prop.cooperativeLaunch", p->cooperative_launch),
        E1("prop.sharedMemPerBlockOptin", p->shared_per_block_optin),
        E1("prop.pageableMemoryAccessUsesHostPageTables",
           p->pageable_memory_access_uses_host_page_tables),
        E1("prop.directManagedMemAccessFromHost", p->direct_managed_mem_access_from_host),
        E1("prop.maxBlocksPerMultiProcessor", p->max_blocks_per_sm),
        E1("prop.accessPolicyMaxWindowSize", p->access_policy_max_window_size),
        E1("prop.reservedSharedMemPerBlock", p->reserved_shared_per_block),
        E1("prop.hostRegisterSupported", p->host_register_supported),
        E1("prop.sparseCudaArraySupported", p->sparse_cuda_array_supported),
        E1("prop.hostRegisterReadOnlySupported", p->host_register_read_only_supported),
        E1("prop.timelineSemaphoreInteropSupported", p->timeline_semaphore_interop_supported),
        E1("prop.memoryPoolsSupported", p->memory_pools_supported),
        E1("prop.gpuDirectRDMASupported", p->gpu_direct_rdma_supported),
        E1("prop.gpuDirectRDMAFlushWritesOptions", p->gpu_direct_rdma_flush_writes_options),
        E1("prop.gpuDirectRDMAWritesOrdering", p->gpu_direct_rdma_writes_ordering),
        E1("prop.memoryPoolSupportedHandleTypes", p->memory_pool_supported_handle_types),
        E1("prop.deferredMappingCudaArraySupported", p->deferred_mapping_cuda_array_supported),
        E1("prop.ipcEventSupported", p->ipc_event_supported),
        E1("prop.clusterLaunch", p->cluster_launch),
        E1("prop.unifiedFunctionPointers", p->unified_function_pointers),
        E1("prop.deviceNumaConfig", p->numa_config),
        E1("prop.deviceNumaId", p->numa_id),
        E1("prop.mpsEnabled", p->mps_enabled),
        E1("prop.hostNumaId", p->host_numa_id),
        E1("prop.gpuPciDeviceID", p->gpu_pci_device_id),
        E1("prop.gpuPciSubsystemID", p->gpu_pci_subsystem_id),
        E1("prop.hostNumaMultinodeIpcSupported", p->host_numa_multinode_ipc_supported),
        /* attributes, by cudaDeviceAttr number */
        E1("attr.1", p->max_threads_per_block),
        E1("attr.2", p->max_block_dim[0]), E1("attr.3", p->max_block_dim[1]),
        E1("attr.4", p->max_block_dim[2]), E1("attr.5", p->max_grid_dim[0]),
        E1("attr.6", p->max_grid_dim[1]), E1("attr.7", p->max_grid_dim[2]),
        E1("attr.8", p->shared_per_block), E1("attr.9", p->total_const_mem),
        E1("attr.10", p->warp_size), E1("attr.11", p->mem_pitch),
        E1("attr.12", p->regs_per_block), E1("attr.13", p->clock_khz),
        E1("attr.14", p->texture_alignment), E1("attr.15", p->gpu_overlap),
        E1("attr.16", p->multiprocessor_count), E1("attr.17", p->kernel_exec_timeout),
        E1("attr.18", p->integrated), E1("attr.19", p->can_map_host_memory),
        E1("attr.20", p->compute_mode), E1("attr.21", p->max_texture1d),
        E1("attr.22", p->max_texture2d[0]), E1("attr.23", p->max_texture2d[1]),
        E1("attr.24", p->max_texture3d[0]), E1("attr.25", p->max_texture3d[1]),
        E1("attr.26", p->max_texture3d[2]), E1("attr.27", p->max_texture2d_layered[0]),
        E1("attr.28", p->max_texture2d_layered[1]), E1("attr.29", p->max_texture2d_layered[2]),
        E1("attr.30", p->surface_alignment), E1("attr.31", p->concurrent_kernels),
        E1("attr.32", p->ecc_enabled), E1("attr.33", p->pci_bus_id),
        E1("attr.34", p->pci_device_id), E1("attr.35", p->tcc_driver),
        E1("attr.36", p->mem_clock_khz), E1("attr.37", p->mem_bus_width),
        E1("attr.38", p->l2_cache_size), E1("attr.39", p->max_threads_per_sm),
        E1("attr.40", p->async_engine_count), E1("attr.41", p->unified_addressing),
        E1("attr.42", p->max_texture1d_layered[0]), E1("attr.43", p->max_texture1d_layered[1]),
        E1("attr.45", p->max_texture2d_gather[0]), E1("attr.46", p->max_texture2d_gather[1]),
        E1("attr.47", p->max_texture3d_alt[0]), E1("attr.48", p->max_texture3d_alt[1]),
        E1("attr.49", p->max_texture3d_alt[2]), E1("attr.50", p->pci_domain_id),
        E1("attr.51", p->texture_pitch_alignment), E1("attr.52", p->max_texture_cubemap),
        E1("attr.53", p->max_texture_cubemap_layered[0]),
        E1("attr.54", p->max_texture_cubemap_layered[1]), E1("attr.55", p->max_surface1d),
        E1("attr.56", p->max_surface2d[0]), E1("attr.57", p->max_surface2d[1]),
        E1("attr.58", p->max_surface3d[0]), E1("attr.59", p->max_surface3d[1]),
        E1("attr.60", p->max_surface3d[2]), E1("attr.61", p->max_surface1d_layered[0]),
        E1("attr.62", p->max_surface1d_layered[1]), E1("attr.63", p->max_surface2d_layered[0]),
        E1("attr.64", p->max_surface2d_layered[1]), E1("attr.65", p->max_surface2d_layered[2]),
        E1("attr.66", p->max_surface_cubemap), E1("attr.67", p->max_surface_cubemap_layered[0]),
        E1("attr.68", p->max_surface_cubemap_layered[1]), E1("attr.69", p->max_texture1d_linear),
        E1("attr.70", p->max_texture2d_linear[0]), E1("attr.71", p->max_texture2d_linear[1]),
        E1("attr.72", p->max_texture2d_linear[2]), E1("attr.73", p->max_texture2d_mipmap[0]),
        E1("attr.74", p->max_texture2d_mipmap[1]), E1("attr.75", p->major),
        E1("attr.76", p->minor), E1("attr.77", p->max_texture1d_mipmap),
        E1("attr.78", p->stream_priorities_supported), E1("attr.79", p->l1_cache_global),
        E1("attr.80", p->l1_cache_local), E1("attr.81", p->shared_per_sm),
        E1("attr.82", p->regs_per_sm), E1("attr.83", p->managed_memory),
        E1("attr.84", p->is_multi_gpu_board), E1("attr.85", p->multi_gpu_board_group_id),
        E1("attr.86", p->host_native_atomic_supported),
        E1("attr.87", p->single_to_double_perf_ratio), E1("attr.88", p->pageable_memory_access),
        E1("attr.89", p->concurrent_managed_access), E1("attr.90", p->compute_preemption),
        E1("attr.91", p->can_use_host_pointer_for_registered_mem),
        E1("attr.95", p->cooperative_launch), E1("attr.96", p->cooperative_multi_device_launch),
        E1("attr.97", p->shared_per_block_optin), E1("attr.98", p->can_flush_remote_writes),
        E1("attr.99", p->host_register_supported),
        E1("attr.100", p->pageable_memory_access_uses_host_page_tables),
        E1("attr.101", p->direct_managed_mem_access_from_host),
        E1("attr.106", p->max_blocks_per_sm), E1("attr.108", p->persisting_l2_max),
        E1("attr.109", p->access_policy_max_window_size),
        E1("attr.111", p->reserved_shared_per_block),
        E1("attr.112", p->sparse_cuda_array_supported),
        E1("attr.113", p->host_register_read_only_supported),
        E1("attr.114", p->timeline_semaphore_interop_supported),
        E1("attr.115", p->memory_pools_supported), E1("attr.116", p->gpu_direct_rdma_supported),
        E1("attr.117", p->gpu_direct_rdma_flush_writes_options),
        E1("attr.118", p->gpu_direct_rdma_writes_ordering),
        E1("attr.119", p->memory_pool_supported_handle_types),
        E1("attr.120", p->cluster_launch), E1("attr.121", p->deferred_mapping_cuda_array_supported),
        E1("attr.125", p->ipc_event_supported), E1("attr.126", p->mem_sync_domain_count),
        E1("attr.130", p->numa_config), E1("attr.131", p->numa_id),
        E1("attr.133", p->mps_enabled), E1("attr.134", p->host_numa_id),
        E1("attr.135", p->d3d12_cig_supported), E1("attr.138", p->vulkan_cig_supported),
        E1("attr.139", p->gpu_pci_device_id), E1("attr.140", p->gpu_pci_subsystem_id),
        E1("attr.142", p->host_numa_memory_pools_supported),
        E1("attr.143", p->host_numa_multinode_ipc_supported),
        E1("attr.144", p->host_memory_pools_supported),
        E1("attr.147", p->only_partial_host_native_atomic),
        /* cudaDeviceGetLimit defaults by cudaLimit number; 3 is unsupported on sm_90 */
        E1("limit.0", p->limit_stack_size), E1("limit.1", p->limit_printf_fifo_size),
        E1("limit.2", p->limit_malloc_heap_size),
        E1("limit.4", p->limit_dev_runtime_pending_launch_count),
        E1("limit.5", p->limit_max_l2_fetch_granularity),
        E1("limit.6", p->limit_persisting_l2_cache_size),
        E1("meminfo.total", p->total_global_mem),
    };
    for (size_t i = 0; i < sizeof props / sizeof props[0]; i++)
        e[n++] = props[i];
    return n;
}

/* Recorded values the presets do not hold, and why. */
static const char *const not_in_preset[] = {
    "prop.uuid",               /* identifies one physical board */
    "prop.luid", "prop.luidDeviceNodeMask", /* Windows only, undefined on Linux */
    "attr.92", "attr.93", "attr.94", "attr.122", "attr.123", "attr.124", "attr.127",
    "attr.128", "attr.129", "attr.132", "attr.141", "attr.145", /* cudaDevAttrReserved* */
    "version.driver", "version.runtime", "device_count", "sizeof.cudaDeviceProp",
};

static void test_h100_matches_recording(void) {
    const gpu_preset *p = gpu_preset_find("h100");
    static expect e[400];
    size_t n = build_expectations(p, e);
    int *seen = calloc(n, sizeof *seen);

    FILE *f = fopen(VCUDA_TEST_DIR "/data/h100/props.txt", "r");
    CHECK(f != NULL);
    if (!f) {
        free(seen);
        return;
    }
    char line[512];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char key[128];
        const char *rest;
        if (strncmp(line, "prop.name ", 10) == 0) {
            CHECK(strcmp(line + 10, p->name) == 0);
            lines++;
            continue;
        }
        if (strncmp(line, "attr ", 5) == 0 || strncmp(line, "limit ", 6) == 0) {
            /* "attr <n> <name> <value>" or "... error <name>" */
            int num;
            char kind[8], name[96], value[64];
            if (sscanf(line, "%7s %d %95s %63s", kind, &num, name, value) != 4) {
                fprintf(stderr, "unparsed: %s\n", line);
                failures++;
                continue;
            }
            snprintf(key, sizeof key, "%s.%d", kind, num);
            rest = strstr(line, name) + strlen(name);
        } else {
            size_t k = strcspn(line, " ");
            snprintf(key, sizeof key, "%.*s", (int)k, line);
            rest = line + k;
        }
        lines++;
        bool skip = false;
        for (size_t i = 0; i < sizeof not_in_preset / sizeof not_in_preset[0]; i++)
            skip |= strcmp(key, not_in_preset[i]) == 0;
        if (skip)
            continue;
        if (strstr(rest, "error")) {
            /* only cudaLimitDevRuntimeSyncDepth, unsupported on sm_90 */
            CHECK(strcmp(key, "limit.3") == 0 && p->limit_dev_runtime_sync_depth == 0);
            continue;
        }
        long long v[3] = {0, 0, 0};
        int nv = sscanf(rest, "%lld %lld %lld", &v[0], &v[1], &v[2]);
        size_t i = 0;
        while (i < n && strcmp(e[i].key, key) != 0)
            i++;
        if (i == n) {
            fprintf(stderr, "recorded %s has no preset field\n", key);
            failures++;
            continue;
        }
        seen[i] = 1;
        bool same = nv == e[i].n;
        for (int j = 0; j < e[i].n && same; j++)
            same = v[j] == e[i].v[j];
        if (!same) {
            fprintf(stderr, "%s: recorded '%s', preset %lld %lld %lld\n", key, rest,
                    e[i].v[0], e[i].v[1], e[i].v[2]);
            failures++;
        }
    }
    fclose(f);
    CHECK(lines > 230);
    for (size_t i = 0; i < n; i++) {
        if (!seen[i]) {
            fprintf(stderr, "preset field %s was not in the recording\n", e[i].key);
            failures++;
        }
    }
    free(seen);
}

int main(void) {
    test_lookup();
    test_consistency();
    test_h100_matches_recording();
    if (failures) {
        fprintf(stderr, "test_gpu_presets: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_gpu_presets: ok\n");
    return 0;
}
