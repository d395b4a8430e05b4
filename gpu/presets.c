/* gpu/presets.c — the device presets: one row per emulated GPU, the single source of every
 * property the runtime reports and every limit the occupancy calculator and the scheduler
 * obey.
 *
 * Sources. h100: read off a real H100 80GB HBM3 with cudaGetDeviceProperties and
 * cudaDeviceGetAttribute (CUDA 13.0, driver 580; tests/data/h100/props.txt, checked field by
 * field by tests/unit/test_gpu_presets.c). The others: NVIDIA's published specifications,
 * the deviceQuery output of those boards, and the per-architecture limits of the CUDA
 * occupancy calculator (cuda_occupancy.h): register allocation unit and warp allocation
 * granularity, shared memory allocation unit, blocks and warps per SM, the shared memory
 * reserved per block on sm_80+, and the shared-memory carveout sizes. Where a figure is not
 * published for an older board (an obscure capability flag), the value is what its
 * generation supports, as the comments say.
 */
#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Texture and surface limits, shared by a generation. */
#define TEXTURES_SM70_PLUS                                                               \
    .max_texture1d = 131072, .max_texture1d_mipmap = 32768,                              \
    .max_texture1d_linear = 268435456, .max_texture2d = {131072, 65536},                 \
    .max_texture2d_mipmap = {32768, 32768}, .max_texture2d_linear = {131072, 65000, 2097120}, \
    .max_texture2d_gather = {32768, 32768}, .max_texture3d = {16384, 16384, 16384},      \
    .max_texture3d_alt = {8192, 8192, 32768}, .max_texture_cubemap = 32768,              \
    .max_texture1d_layered = {32768, 2048}, .max_texture2d_layered = {32768, 32768, 2048}, \
    .max_texture_cubemap_layered = {32768, 2046}, .max_surface1d = 32768,                \
    .max_surface2d = {131072, 65536}, .max_surface3d = {16384, 16384, 16384},            \
    .max_surface1d_layered = {32768, 2048}, .max_surface2d_layered = {32768, 32768, 2048}, \
    .max_surface_cubemap = 32768, .max_surface_cubemap_layered = {32768, 2046}

#define TEXTURES_KEPLER                                                                  \
    .max_texture1d = 65536, .max_texture1d_mipmap = 16384,                               \
    .max_texture1d_linear = 134217728, .max_texture2d = {65536, 65536},                  \
    .max_texture2d_mipmap = {16384, 16384}, .max_texture2d_linear = {65000, 65000, 1048544}, \
    .max_texture2d_gather = {16384, 16384}, .max_texture3d = {4096, 4096, 4096},         \
    .max_texture3d_alt = {2048, 2048, 16384}, .max_texture_cubemap = 16384,              \
    .max_texture1d_layered = {16384, 2048}, .max_texture2d_layered = {16384, 16384, 2048}, \
    .max_texture_cubemap_layered = {16384, 2046}, .max_surface1d = 65536,                \
    .max_surface2d = {65536, 32768}, .max_surface3d = {65536, 32768, 2048},              \
    .max_surface1d_layered = {65536, 2048}, .max_surface2d_layered = {65536, 32768, 2048}, \
    .max_surface_cubemap = 32768, .max_surface_cubemap_layered = {32768, 2046}

#define TEXTURES_FERMI                                                                   \
    .max_texture1d = 65536, .max_texture1d_mipmap = 16384,                               \
    .max_texture1d_linear = 134217728, .max_texture2d = {65536, 65535},                  \
    .max_texture2d_mipmap = {16384, 16384}, .max_texture2d_linear = {65000, 65000, 1048544}, \
    .max_texture2d_gather = {16384, 16384}, .max_texture3d = {2048, 2048, 2048},         \
    .max_texture3d_alt = {0, 0, 0}, .max_texture_cubemap = 16384,                        \
    .max_texture1d_layered = {16384, 2048}, .max_texture2d_layered = {16384, 16384, 2048}, \
    .max_texture_cubemap_layered = {16384, 2046}, .max_surface1d = 65536,                \
    .max_surface2d = {65536, 32768}, .max_surface3d = {65536, 32768, 2048},              \
    .max_surface1d_layered = {65536, 2048}, .max_surface2d_layered = {65536, 32768, 2048}, \
    .max_surface_cubemap = 32768, .max_surface_cubemap_layered = {32768, 2046}

/* What every emulated board shares: the launch limits of CUDA's programming model and the
 * host-facing behaviour of a discrete card under Linux. */
#define COMMON                                                                           \
    .warp_size = 32, .max_threads_per_block = 1024, .max_block_dim = {1024, 1024, 64},   \
    .total_const_mem = 65536, .mem_pitch = 2147483647, .texture_alignment = 512,         \
    .texture_pitch_alignment = 32, .surface_alignment = 512, .concurrent_kernels = 1,    \
    .integrated = 0, .can_map_host_memory = 1, .tcc_driver = 0, .unified_addressing = 1, \
    .ecc_enabled = 1, .is_multi_gpu_board = 0, .multi_gpu_board_group_id = 0,           \
    .host_native_atomic_supported = 0, .only_partial_host_native_atomic = 0,            \
    .pageable_memory_access = 0, .pageable_memory_access_uses_host_page_tables = 0,      \
    .direct_managed_mem_access_from_host = 0, .numa_config = 0, .numa_id = -1,           \
    .host_numa_id = 0, .mps_enabled = 0, .gpu_overlap = 1, .kernel_exec_timeout = 0,     \
    .compute_mode = 0, .d3d12_cig_supported = 0, .vulkan_cig_supported = 0,             \
    .sectors_per_line = 4, .pci_domain_id = 0, .pci_bus_id = 0, .pci_device_id = 6,      \
    .limit_stack_size = 1024, .limit_malloc_heap_size = 8388608

const gpu_preset gpu_presets[] = {
    {
        /* NVIDIA H100 80GB HBM3 (SXM5), GH100: every value as the board reports it. */
        COMMON, TEXTURES_SM70_PLUS,
        .key = "h100", .name = "NVIDIA H100 80GB HBM3", .arch_name = "Hopper",
        .major = 9, .minor = 0,
        .total_global_mem = 85017493504ull,
        .multiprocessor_count = 132,
        .max_grid_dim = {2147483647, 65535, 65535},
        .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .max_warps_per_sm = 64,
        .regs_per_sm = 65536, .regs_per_block = 65536, .max_regs_per_thread = 255,
        .max_regs_per_thread_occupancy = 256,
        .reg_alloc_unit = 256, .warp_alloc_granularity = 4,
        .shared_per_sm = 233472, .shared_per_block = 49152, .shared_per_block_optin = 232448,
        .reserved_shared_per_block = 1024, .shared_alloc_unit = 128,
        .shared_carveout_count = 10,
        .shared_carveout_kb = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228},
        .clock_khz = 1980000, .mem_clock_khz = 2619000, .mem_bus_width = 5120,
        .l2_cache_size = 52428800, .persisting_l2_max = 32768000,
        .access_policy_max_window_size = 134217728,
        .async_engine_count = 3,
        .managed_memory = 1, .concurrent_managed_access = 1, .cooperative_launch = 1,
        .cooperative_multi_device_launch = 1,
        .compute_preemption = 1, .can_use_host_pointer_for_registered_mem = 1,
        .stream_priorities_supported = 1,
        .l1_cache_global = 1, .l1_cache_local = 1, .l1_caches_global_loads = 1,
        .cluster_launch = 1, .cores_per_sm = 128,
        /* the GPCs that make the H200's cudaOccupancyMaxActiveClusters answers for
         * clusters of 1 to 16 blocks at 2 and 8 blocks per SM (tests/cuda/hopper/clusters) */
        .gpc_sms = {18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2},
        .cluster_portable = 8, .cluster_max = 16,
        .host_register_supported = 1, .host_register_read_only_supported = 1,
        .sparse_cuda_array_supported = 1, .deferred_mapping_cuda_array_supported = 1,
        .timeline_semaphore_interop_supported = 1,
        .memory_pools_supported = 1, .host_memory_pools_supported = 1,
        .host_numa_memory_pools_supported = 1, .memory_pool_supported_handle_types = 9,
        .gpu_direct_rdma_supported = 1, .gpu_direct_rdma_flush_writes_options = 1,
        .gpu_direct_rdma_writes_ordering = 100, .ipc_event_supported = 1,
        .unified_function_pointers = 1, .host_numa_multinode_ipc_supported = 0,
        .gpu_pci_device_id = 0x233010de, .gpu_pci_subsystem_id = 0x16c110de,
        .single_to_double_perf_ratio = 2, .can_flush_remote_writes = 0,
        .mem_sync_domain_count = 4,
        .limit_printf_fifo_size = 8650752, .limit_dev_runtime_sync_depth = 0,
        .limit_dev_runtime_pending_launch_count = 2048,
        .limit_max_l2_fetch_granularity = 64, .limit_persisting_l2_cache_size = 9830400,
    },
    {
        /* NVIDIA A100-SXM4-40GB, GA100. */
        COMMON, TEXTURES_SM70_PLUS,
        .key = "a100", .name = "NVIDIA A100-SXM4-40GB", .arch_name = "Ampere",
        .major = 8, .minor = 0,
        .total_global_mem = 42505273344ull,
        .multiprocessor_count = 108,
        .max_grid_dim = {2147483647, 65535, 65535},
        .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .max_warps_per_sm = 64,
        .regs_per_sm = 65536, .regs_per_block = 65536, .max_regs_per_thread = 255,
        .max_regs_per_thread_occupancy = 256,
        .reg_alloc_unit = 256, .warp_alloc_granularity = 4,
        .shared_per_sm = 167936, .shared_per_block = 49152, .shared_per_block_optin = 166912,
        .reserved_shared_per_block = 1024, .shared_alloc_unit = 128,
        .shared_carveout_count = 8, .shared_carveout_kb = {0, 8, 16, 32, 64, 100, 132, 164},
        .clock_khz = 1410000, .mem_clock_khz = 1215000, .mem_bus_width = 5120,
        .l2_cache_size = 41943040, .persisting_l2_max = 31457280,
        .access_policy_max_window_size = 134217728,
        .async_engine_count = 3,
        .managed_memory = 1, .concurrent_managed_access = 1, .cooperative_launch = 1,
        .cooperative_multi_device_launch = 1,
        .compute_preemption = 1, .can_use_host_pointer_for_registered_mem = 1,
        .stream_priorities_supported = 1,
        .l1_cache_global = 1, .l1_cache_local = 1, .l1_caches_global_loads = 1,
        .cluster_launch = 0, .cores_per_sm = 64,
        .host_register_supported = 1, .host_register_read_only_supported = 1,
        .sparse_cuda_array_supported = 1, .deferred_mapping_cuda_array_supported = 1,
        .timeline_semaphore_interop_supported = 1,
        .memory_pools_supported = 1, .host_memory_pools_supported = 1,
        .host_numa_memory_pools_supported = 1, .memory_pool_supported_handle_types = 9,
        .gpu_direct_rdma_supported = 1, .gpu_direct_rdma_flush_writes_options = 1,
        .gpu_direct_rdma_writes_ordering = 100, .ipc_event_supported = 1,
        .unified_function_pointers = 1, .host_numa_multinode_ipc_supported = 0,
        .gpu_pci_device_id = 0x20b010de, .gpu_pci_subsystem_id = 0,
        .single_to_double_perf_ratio = 2, .can_flush_remote_writes = 0,
        .mem_sync_domain_count = 1,
        .limit_printf_fifo_size = 1048576, .limit_dev_runtime_sync_depth = 2,
        .limit_dev_runtime_pending_launch_count = 2048,
        .limit_max_l2_fetch_granularity = 64, .limit_persisting_l2_cache_size = 0,
    },
    {
        /* Tesla V100-SXM2-16GB, GV100. */
        COMMON, TEXTURES_SM70_PLUS,
        .key = "v100", .name = "Tesla V100-SXM2-16GB", .arch_name = "Volta",
        .major = 7, .minor = 0,
        .total_global_mem = 16945512448ull,
        .multiprocessor_count = 80,
        .max_grid_dim = {2147483647, 65535, 65535},
        .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .max_warps_per_sm = 64,
        .regs_per_sm = 65536, .regs_per_block = 65536, .max_regs_per_thread = 255,
        .max_regs_per_thread_occupancy = 256,
        .reg_alloc_unit = 256, .warp_alloc_granularity = 4,
        .shared_per_sm = 98304, .shared_per_block = 49152, .shared_per_block_optin = 98304,
        .reserved_shared_per_block = 0, .shared_alloc_unit = 256,
        .shared_carveout_count = 6, .shared_carveout_kb = {0, 8, 16, 32, 64, 96},
        .clock_khz = 1530000, .mem_clock_khz = 877000, .mem_bus_width = 4096,
        .l2_cache_size = 6291456, .persisting_l2_max = 0,
        .access_policy_max_window_size = 0,
        .async_engine_count = 6,
        .managed_memory = 1, .concurrent_managed_access = 1, .cooperative_launch = 1,
        .cooperative_multi_device_launch = 1,
        .compute_preemption = 1, .can_use_host_pointer_for_registered_mem = 1,
        .stream_priorities_supported = 1,
        .l1_cache_global = 1, .l1_cache_local = 1, .l1_caches_global_loads = 1,
        .cluster_launch = 0, .cores_per_sm = 64,
        .host_register_supported = 1, .host_register_read_only_supported = 1,
        .sparse_cuda_array_supported = 0, .deferred_mapping_cuda_array_supported = 0,
        .timeline_semaphore_interop_supported = 1,
        .memory_pools_supported = 1, .host_memory_pools_supported = 0,
        .host_numa_memory_pools_supported = 0, .memory_pool_supported_handle_types = 1,
        .gpu_direct_rdma_supported = 1, .gpu_direct_rdma_flush_writes_options = 1,
        .gpu_direct_rdma_writes_ordering = 0, .ipc_event_supported = 1,
        .unified_function_pointers = 0, .host_numa_multinode_ipc_supported = 0,
        .gpu_pci_device_id = 0x1db110de, .gpu_pci_subsystem_id = 0,
        .single_to_double_perf_ratio = 2, .can_flush_remote_writes = 0,
        .mem_sync_domain_count = 1,
        .limit_printf_fifo_size = 1048576, .limit_dev_runtime_sync_depth = 2,
        .limit_dev_runtime_pending_launch_count = 2048,
        .limit_max_l2_fetch_granularity = 64, .limit_persisting_l2_cache_size = 0,
    },
    {
        /* Tesla K40m, GK110B (Kepler). */
        COMMON, TEXTURES_KEPLER,
        .key = "k40", .name = "Tesla K40m", .arch_name = "Kepler",
        .major = 3, .minor = 5,
        .total_global_mem = 12079136768ull,
        .multiprocessor_count = 15,
        .max_grid_dim = {2147483647, 65535, 65535},
        .max_threads_per_sm = 2048, .max_blocks_per_sm = 16, .max_warps_per_sm = 64,
        .regs_per_sm = 65536, .regs_per_block = 65536, .max_regs_per_thread = 255,
        .max_regs_per_thread_occupancy = 255,
        .reg_alloc_unit = 256, .warp_alloc_granularity = 4,
        .shared_per_sm = 49152, .shared_per_block = 49152, .shared_per_block_optin = 49152,
        .reserved_shared_per_block = 0, .shared_alloc_unit = 256,
        .shared_carveout_count = 0,
        .clock_khz = 745000, .mem_clock_khz = 3004000, .mem_bus_width = 384,
        .l2_cache_size = 1572864, .persisting_l2_max = 0,
        .access_policy_max_window_size = 0,
        .async_engine_count = 2,
        .managed_memory = 1, .concurrent_managed_access = 0, .cooperative_launch = 0,
        .cooperative_multi_device_launch = 0,
        .compute_preemption = 0, .can_use_host_pointer_for_registered_mem = 0,
        .stream_priorities_supported = 1,
        /* GK110B caches global loads in L2 only (L1 for locals; read-only data through
         * the texture path with ld.global.nc). */
        .l1_cache_global = 0, .l1_cache_local = 1, .l1_caches_global_loads = 0,
        .cluster_launch = 0, .cores_per_sm = 192,
        .host_register_supported = 1, .host_register_read_only_supported = 0,
        .sparse_cuda_array_supported = 0, .deferred_mapping_cuda_array_supported = 0,
        .timeline_semaphore_interop_supported = 0,
        .memory_pools_supported = 0, .host_memory_pools_supported = 0,
        .host_numa_memory_pools_supported = 0, .memory_pool_supported_handle_types = 0,
        .gpu_direct_rdma_supported = 1, .gpu_direct_rdma_flush_writes_options = 0,
        .gpu_direct_rdma_writes_ordering = 0, .ipc_event_supported = 0,
        .unified_function_pointers = 0, .host_numa_multinode_ipc_supported = 0,
        .gpu_pci_device_id = 0x102310de, .gpu_pci_subsystem_id = 0,
        .single_to_double_perf_ratio = 3, .can_flush_remote_writes = 0,
        .mem_sync_domain_count = 1,
        .limit_printf_fifo_size = 1048576, .limit_dev_runtime_sync_depth = 2,
        .limit_dev_runtime_pending_launch_count = 2048,
        .limit_max_l2_fetch_granularity = 32, .limit_persisting_l2_cache_size = 0,
    },
    {
        /* Tesla M2090, GF110 (Fermi): the figures of the GTX 580's chip with the Tesla
         * board's memory and clocks. */
        COMMON, TEXTURES_FERMI,
        .key = "fermi", .name = "Tesla M2090", .arch_name = "Fermi",
        .major = 2, .minor = 0,
        .total_global_mem = 5636554752ull,
        .multiprocessor_count = 16,
        .max_grid_dim = {65535, 65535, 65535},
        .max_threads_per_sm = 1536, .max_blocks_per_sm = 8, .max_warps_per_sm = 48,
        .regs_per_sm = 32768, .regs_per_block = 32768, .max_regs_per_thread = 63,
        .max_regs_per_thread_occupancy = 63,
        .reg_alloc_unit = 64, .warp_alloc_granularity = 2,
        .shared_per_sm = 49152, .shared_per_block = 49152, .shared_per_block_optin = 49152,
        .reserved_shared_per_block = 0, .shared_alloc_unit = 128,
        .shared_carveout_count = 0,
        .clock_khz = 1301000, .mem_clock_khz = 1848000, .mem_bus_width = 384,
        .l2_cache_size = 786432, .persisting_l2_max = 0,
        .access_policy_max_window_size = 0,
        .async_engine_count = 2,
        .managed_memory = 0, .concurrent_managed_access = 0, .cooperative_launch = 0,
        .cooperative_multi_device_launch = 0,
        .compute_preemption = 0, .can_use_host_pointer_for_registered_mem = 0,
        .stream_priorities_supported = 0,
        .l1_cache_global = 1, .l1_cache_local = 1, .l1_caches_global_loads = 1,
        .cluster_launch = 0, .cores_per_sm = 32,
        .host_register_supported = 1, .host_register_read_only_supported = 0,
        .sparse_cuda_array_supported = 0, .deferred_mapping_cuda_array_supported = 0,
        .timeline_semaphore_interop_supported = 0,
        .memory_pools_supported = 0, .host_memory_pools_supported = 0,
        .host_numa_memory_pools_supported = 0, .memory_pool_supported_handle_types = 0,
        .gpu_direct_rdma_supported = 0, .gpu_direct_rdma_flush_writes_options = 0,
        .gpu_direct_rdma_writes_ordering = 0, .ipc_event_supported = 0,
        .unified_function_pointers = 0, .host_numa_multinode_ipc_supported = 0,
        .gpu_pci_device_id = 0x109110de, .gpu_pci_subsystem_id = 0,
        .single_to_double_perf_ratio = 2, .can_flush_remote_writes = 0,
        .mem_sync_domain_count = 1,
        .limit_printf_fifo_size = 1048576, .limit_dev_runtime_sync_depth = 0,
        .limit_dev_runtime_pending_launch_count = 0,
        .limit_max_l2_fetch_granularity = 32, .limit_persisting_l2_cache_size = 0,
    },
};

const size_t gpu_preset_count = sizeof gpu_presets / sizeof gpu_presets[0];

const gpu_preset *gpu_preset_find(const char *key) {
    if (!key)
        return NULL;
    for (size_t i = 0; i < gpu_preset_count; i++) {
        if (strcasecmp(gpu_presets[i].key, key) == 0)
            return &gpu_presets[i];
    }
    return NULL;
}

const gpu_preset *gpu_preset_from_env(char *err, size_t errlen) {
    const char *name = getenv("VCUDA_DEVICE");
    if (!name || !*name)
        return &gpu_presets[0];
    const gpu_preset *p = gpu_preset_find(name);
    if (!p && err && errlen > 0) {
        int n = snprintf(err, errlen, "VCUDA_DEVICE=%s names no device; valid names:", name);
        for (size_t i = 0; i < gpu_preset_count && n >= 0 && (size_t)n < errlen; i++)
            n += snprintf(err + n, errlen - (size_t)n, " %s", gpu_presets[i].key);
    }
    return p;
}

int gpu_preset_list(const char *list, const gpu_preset **out, int max, char *err,
                    size_t errlen) {
    int n = 0;
    const char *p = list ? list : "";
    if (!*p) {
        snprintf(err, errlen, "an empty device list");
        return 0;
    }
    while (*p) {
        size_t len = strcspn(p, ",");
        char item[64];
        if (len == 0 || len >= sizeof item) {
            snprintf(err, errlen, "VCUDA_DEVICE=%s: an empty or overlong item", list);
            return 0;
        }
        memcpy(item, p, len);
        item[len] = 0;
        /* "h100x4": a count after the last 'x', when what precedes it is a preset */
        long count = 1;
        const gpu_preset *g = gpu_preset_find(item);
        char *x = strrchr(item, 'x');
        if (!g && x && x[1]) {
            char *end;
            long c = strtol(x + 1, &end, 10);
            *x = 0;
            if (*end == 0 && c > 0 && (g = gpu_preset_find(item)) != NULL) count = c;
            else g = NULL;
        }
        if (!g) {
            int m = snprintf(err, errlen, "VCUDA_DEVICE=%s names no device; valid names:", list);
            for (size_t i = 0; i < gpu_preset_count && m >= 0 && (size_t)m < errlen; i++)
                m += snprintf(err + m, errlen - (size_t)m, " %s", gpu_presets[i].key);
            if (m >= 0 && (size_t)m < errlen)
                snprintf(err + m, errlen - (size_t)m, " (a list: h100,a100 or h100x2)");
            return 0;
        }
        if (count > max - n) {
            snprintf(err, errlen, "VCUDA_DEVICE=%s: more than %d devices", list, max);
            return 0;
        }
        for (long i = 0; i < count; i++) out[n++] = g;
        p += len;
        if (*p == ',' && !*++p) {
            snprintf(err, errlen, "VCUDA_DEVICE=%s: an empty item at the end", list);
            return 0;
        }
    }
    return n;
}

int gpu_presets_from_env(const gpu_preset **out, int max, char *err, size_t errlen) {
    const char *name = getenv("VCUDA_DEVICE");
    if (!name || !*name) {
        out[0] = &gpu_presets[0];
        return 1;
    }
    return gpu_preset_list(name, out, max, err, errlen);
}
