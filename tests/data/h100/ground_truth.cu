// ground_truth.cu — records what the CUDA runtime reports on a real GPU, for vcuda's tests:
//   props.txt      every cudaDeviceProp field, every cudaDeviceGetAttribute value, limits,
//                  versions
//   occupancy.txt  cudaOccupancyMaxActiveBlocksPerMultiprocessor over a grid of block
//                  sizes, register counts (per-kernel __maxnreg__) and shared memory
//   devicequery.txt the device described in the layout of the CUDA samples' deviceQuery
// Usage: ground_truth props|occupancy|devicequery   (see README.md for the build command)
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define PRINT_INTS(label, arr, n)                                   \
    do {                                                            \
        printf("%s", label);                                        \
        for (int i_ = 0; i_ < (n); i_++) printf(" %d", (arr)[i_]);  \
        printf("\n");                                               \
    } while (0)
#define PRINT_BYTES(label, arr, n)                                                      \
    do {                                                                                \
        printf("%s ", label);                                                           \
        for (int i_ = 0; i_ < (n); i_++) printf("%02x", (unsigned char)(arr)[i_]);      \
        printf("\n");                                                                   \
    } while (0)

static const struct { int value; const char *name; } attrs[] = {
    {1, "cudaDevAttrMaxThreadsPerBlock"},
    {2, "cudaDevAttrMaxBlockDimX"},
    {3, "cudaDevAttrMaxBlockDimY"},
    {4, "cudaDevAttrMaxBlockDimZ"},
    {5, "cudaDevAttrMaxGridDimX"},
    {6, "cudaDevAttrMaxGridDimY"},
    {7, "cudaDevAttrMaxGridDimZ"},
    {8, "cudaDevAttrMaxSharedMemoryPerBlock"},
    {9, "cudaDevAttrTotalConstantMemory"},
    {10, "cudaDevAttrWarpSize"},
    {11, "cudaDevAttrMaxPitch"},
    {12, "cudaDevAttrMaxRegistersPerBlock"},
    {13, "cudaDevAttrClockRate"},
    {14, "cudaDevAttrTextureAlignment"},
    {15, "cudaDevAttrGpuOverlap"},
    {16, "cudaDevAttrMultiProcessorCount"},
    {17, "cudaDevAttrKernelExecTimeout"},
    {18, "cudaDevAttrIntegrated"},
    {19, "cudaDevAttrCanMapHostMemory"},
    {20, "cudaDevAttrComputeMode"},
    {21, "cudaDevAttrMaxTexture1DWidth"},
    {22, "cudaDevAttrMaxTexture2DWidth"},
    {23, "cudaDevAttrMaxTexture2DHeight"},
    {24, "cudaDevAttrMaxTexture3DWidth"},
    {25, "cudaDevAttrMaxTexture3DHeight"},
    {26, "cudaDevAttrMaxTexture3DDepth"},
    {27, "cudaDevAttrMaxTexture2DLayeredWidth"},
    {28, "cudaDevAttrMaxTexture2DLayeredHeight"},
    {29, "cudaDevAttrMaxTexture2DLayeredLayers"},
    {30, "cudaDevAttrSurfaceAlignment"},
    {31, "cudaDevAttrConcurrentKernels"},
    {32, "cudaDevAttrEccEnabled"},
    {33, "cudaDevAttrPciBusId"},
    {34, "cudaDevAttrPciDeviceId"},
    {35, "cudaDevAttrTccDriver"},
    {36, "cudaDevAttrMemoryClockRate"},
    {37, "cudaDevAttrGlobalMemoryBusWidth"},
    {38, "cudaDevAttrL2CacheSize"},
    {39, "cudaDevAttrMaxThreadsPerMultiProcessor"},
    {40, "cudaDevAttrAsyncEngineCount"},
    {41, "cudaDevAttrUnifiedAddressing"},
    {42, "cudaDevAttrMaxTexture1DLayeredWidth"},
    {43, "cudaDevAttrMaxTexture1DLayeredLayers"},
    {45, "cudaDevAttrMaxTexture2DGatherWidth"},
    {46, "cudaDevAttrMaxTexture2DGatherHeight"},
    {47, "cudaDevAttrMaxTexture3DWidthAlt"},
    {48, "cudaDevAttrMaxTexture3DHeightAlt"},
    {49, "cudaDevAttrMaxTexture3DDepthAlt"},
    {50, "cudaDevAttrPciDomainId"},
    {51, "cudaDevAttrTexturePitchAlignment"},
    {52, "cudaDevAttrMaxTextureCubemapWidth"},
    {53, "cudaDevAttrMaxTextureCubemapLayeredWidth"},
    {54, "cudaDevAttrMaxTextureCubemapLayeredLayers"},
    {55, "cudaDevAttrMaxSurface1DWidth"},
    {56, "cudaDevAttrMaxSurface2DWidth"},
    {57, "cudaDevAttrMaxSurface2DHeight"},
    {58, "cudaDevAttrMaxSurface3DWidth"},
    {59, "cudaDevAttrMaxSurface3DHeight"},
    {60, "cudaDevAttrMaxSurface3DDepth"},
    {61, "cudaDevAttrMaxSurface1DLayeredWidth"},
    {62, "cudaDevAttrMaxSurface1DLayeredLayers"},
    {63, "cudaDevAttrMaxSurface2DLayeredWidth"},
    {64, "cudaDevAttrMaxSurface2DLayeredHeight"},
    {65, "cudaDevAttrMaxSurface2DLayeredLayers"},
    {66, "cudaDevAttrMaxSurfaceCubemapWidth"},
    {67, "cudaDevAttrMaxSurfaceCubemapLayeredWidth"},
    {68, "cudaDevAttrMaxSurfaceCubemapLayeredLayers"},
    {69, "cudaDevAttrMaxTexture1DLinearWidth"},
    {70, "cudaDevAttrMaxTexture2DLinearWidth"},
    {71, "cudaDevAttrMaxTexture2DLinearHeight"},
    {72, "cudaDevAttrMaxTexture2DLinearPitch"},
    {73, "cudaDevAttrMaxTexture2DMipmappedWidth"},
    {74, "cudaDevAttrMaxTexture2DMipmappedHeight"},
    {75, "cudaDevAttrComputeCapabilityMajor"},
    {76, "cudaDevAttrComputeCapabilityMinor"},
    {77, "cudaDevAttrMaxTexture1DMipmappedWidth"},
    {78, "cudaDevAttrStreamPrioritiesSupported"},
    {79, "cudaDevAttrGlobalL1CacheSupported"},
    {80, "cudaDevAttrLocalL1CacheSupported"},
    {81, "cudaDevAttrMaxSharedMemoryPerMultiprocessor"},
    {82, "cudaDevAttrMaxRegistersPerMultiprocessor"},
    {83, "cudaDevAttrManagedMemory"},
    {84, "cudaDevAttrIsMultiGpuBoard"},
    {85, "cudaDevAttrMultiGpuBoardGroupID"},
    {86, "cudaDevAttrHostNativeAtomicSupported"},
    {87, "cudaDevAttrSingleToDoublePrecisionPerfRatio"},
    {88, "cudaDevAttrPageableMemoryAccess"},
    {89, "cudaDevAttrConcurrentManagedAccess"},
    {90, "cudaDevAttrComputePreemptionSupported"},
    {91, "cudaDevAttrCanUseHostPointerForRegisteredMem"},
    {92, "cudaDevAttrReserved92"},
    {93, "cudaDevAttrReserved93"},
    {94, "cudaDevAttrReserved94"},
    {95, "cudaDevAttrCooperativeLaunch"},
    {96, "cudaDevAttrReserved96"},
    {97, "cudaDevAttrMaxSharedMemoryPerBlockOptin"},
    {98, "cudaDevAttrCanFlushRemoteWrites"},
    {99, "cudaDevAttrHostRegisterSupported"},
    {100, "cudaDevAttrPageableMemoryAccessUsesHostPageTables"},
    {101, "cudaDevAttrDirectManagedMemAccessFromHost"},
    {106, "cudaDevAttrMaxBlocksPerMultiprocessor"},
    {108, "cudaDevAttrMaxPersistingL2CacheSize"},
    {109, "cudaDevAttrMaxAccessPolicyWindowSize"},
    {111, "cudaDevAttrReservedSharedMemoryPerBlock"},
    {112, "cudaDevAttrSparseCudaArraySupported"},
    {113, "cudaDevAttrHostRegisterReadOnlySupported"},
    {114, "cudaDevAttrTimelineSemaphoreInteropSupported"},
    {115, "cudaDevAttrMemoryPoolsSupported"},
    {116, "cudaDevAttrGPUDirectRDMASupported"},
    {117, "cudaDevAttrGPUDirectRDMAFlushWritesOptions"},
    {118, "cudaDevAttrGPUDirectRDMAWritesOrdering"},
    {119, "cudaDevAttrMemoryPoolSupportedHandleTypes"},
    {120, "cudaDevAttrClusterLaunch"},
    {121, "cudaDevAttrDeferredMappingCudaArraySupported"},
    {122, "cudaDevAttrReserved122"},
    {123, "cudaDevAttrReserved123"},
    {124, "cudaDevAttrReserved124"},
    {125, "cudaDevAttrIpcEventSupport"},
    {126, "cudaDevAttrMemSyncDomainCount"},
    {127, "cudaDevAttrReserved127"},
    {128, "cudaDevAttrReserved128"},
    {129, "cudaDevAttrReserved129"},
    {130, "cudaDevAttrNumaConfig"},
    {131, "cudaDevAttrNumaId"},
    {132, "cudaDevAttrReserved132"},
    {133, "cudaDevAttrMpsEnabled"},
    {134, "cudaDevAttrHostNumaId"},
    {135, "cudaDevAttrD3D12CigSupported"},
    {138, "cudaDevAttrVulkanCigSupported"},
    {139, "cudaDevAttrGpuPciDeviceId"},
    {140, "cudaDevAttrGpuPciSubsystemId"},
    {141, "cudaDevAttrReserved141"},
    {142, "cudaDevAttrHostNumaMemoryPoolsSupported"},
    {143, "cudaDevAttrHostNumaMultinodeIpcSupported"},
    {144, "cudaDevAttrHostMemoryPoolsSupported"},
    {145, "cudaDevAttrReserved145"},
    {147, "cudaDevAttrOnlyPartialHostNativeAtomicSupported"},
};

static void print_props(int dev) {
    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    cudaError_t e = cudaGetDeviceProperties(&p, dev);
    if (e != cudaSuccess) { printf("error cudaGetDeviceProperties %s\n", cudaGetErrorName(e)); return; }
    printf("prop.name %s\n", p.name);
    PRINT_BYTES("prop.uuid", p.uuid.bytes, 16);
    PRINT_BYTES("prop.luid", p.luid, 8);
    printf("prop.luidDeviceNodeMask %u\n", p.luidDeviceNodeMask);
    printf("prop.totalGlobalMem %zu\n", p.totalGlobalMem);
    printf("prop.sharedMemPerBlock %zu\n", p.sharedMemPerBlock);
    printf("prop.regsPerBlock %d\n", p.regsPerBlock);
    printf("prop.warpSize %d\n", p.warpSize);
    printf("prop.memPitch %zu\n", p.memPitch);
    printf("prop.maxThreadsPerBlock %d\n", p.maxThreadsPerBlock);
    PRINT_INTS("prop.maxThreadsDim", p.maxThreadsDim, 3);
    PRINT_INTS("prop.maxGridSize", p.maxGridSize, 3);
    printf("prop.totalConstMem %zu\n", p.totalConstMem);
    printf("prop.major %d\n", p.major);
    printf("prop.minor %d\n", p.minor);
    printf("prop.textureAlignment %zu\n", p.textureAlignment);
    printf("prop.texturePitchAlignment %zu\n", p.texturePitchAlignment);
    printf("prop.multiProcessorCount %d\n", p.multiProcessorCount);
    printf("prop.integrated %d\n", p.integrated);
    printf("prop.canMapHostMemory %d\n", p.canMapHostMemory);
    printf("prop.maxTexture1D %d\n", p.maxTexture1D);
    printf("prop.maxTexture1DMipmap %d\n", p.maxTexture1DMipmap);
    PRINT_INTS("prop.maxTexture2D", p.maxTexture2D, 2);
    PRINT_INTS("prop.maxTexture2DMipmap", p.maxTexture2DMipmap, 2);
    PRINT_INTS("prop.maxTexture2DLinear", p.maxTexture2DLinear, 3);
    PRINT_INTS("prop.maxTexture2DGather", p.maxTexture2DGather, 2);
    PRINT_INTS("prop.maxTexture3D", p.maxTexture3D, 3);
    PRINT_INTS("prop.maxTexture3DAlt", p.maxTexture3DAlt, 3);
    printf("prop.maxTextureCubemap %d\n", p.maxTextureCubemap);
    PRINT_INTS("prop.maxTexture1DLayered", p.maxTexture1DLayered, 2);
    PRINT_INTS("prop.maxTexture2DLayered", p.maxTexture2DLayered, 3);
    PRINT_INTS("prop.maxTextureCubemapLayered", p.maxTextureCubemapLayered, 2);
    printf("prop.maxSurface1D %d\n", p.maxSurface1D);
    PRINT_INTS("prop.maxSurface2D", p.maxSurface2D, 2);
    PRINT_INTS("prop.maxSurface3D", p.maxSurface3D, 3);
    PRINT_INTS("prop.maxSurface1DLayered", p.maxSurface1DLayered, 2);
    PRINT_INTS("prop.maxSurface2DLayered", p.maxSurface2DLayered, 3);
    printf("prop.maxSurfaceCubemap %d\n", p.maxSurfaceCubemap);
    PRINT_INTS("prop.maxSurfaceCubemapLayered", p.maxSurfaceCubemapLayered, 2);
    printf("prop.surfaceAlignment %zu\n", p.surfaceAlignment);
    printf("prop.concurrentKernels %d\n", p.concurrentKernels);
    printf("prop.ECCEnabled %d\n", p.ECCEnabled);
    printf("prop.pciBusID %d\n", p.pciBusID);
    printf("prop.pciDeviceID %d\n", p.pciDeviceID);
    printf("prop.pciDomainID %d\n", p.pciDomainID);
    printf("prop.tccDriver %d\n", p.tccDriver);
    printf("prop.asyncEngineCount %d\n", p.asyncEngineCount);
    printf("prop.unifiedAddressing %d\n", p.unifiedAddressing);
    printf("prop.memoryBusWidth %d\n", p.memoryBusWidth);
    printf("prop.l2CacheSize %d\n", p.l2CacheSize);
    printf("prop.persistingL2CacheMaxSize %d\n", p.persistingL2CacheMaxSize);
    printf("prop.maxThreadsPerMultiProcessor %d\n", p.maxThreadsPerMultiProcessor);
    printf("prop.streamPrioritiesSupported %d\n", p.streamPrioritiesSupported);
    printf("prop.globalL1CacheSupported %d\n", p.globalL1CacheSupported);
    printf("prop.localL1CacheSupported %d\n", p.localL1CacheSupported);
    printf("prop.sharedMemPerMultiprocessor %zu\n", p.sharedMemPerMultiprocessor);
    printf("prop.regsPerMultiprocessor %d\n", p.regsPerMultiprocessor);
    printf("prop.managedMemory %d\n", p.managedMemory);
    printf("prop.isMultiGpuBoard %d\n", p.isMultiGpuBoard);
    printf("prop.multiGpuBoardGroupID %d\n", p.multiGpuBoardGroupID);
    printf("prop.hostNativeAtomicSupported %d\n", p.hostNativeAtomicSupported);
    printf("prop.pageableMemoryAccess %d\n", p.pageableMemoryAccess);
    printf("prop.concurrentManagedAccess %d\n", p.concurrentManagedAccess);
    printf("prop.computePreemptionSupported %d\n", p.computePreemptionSupported);
    printf("prop.canUseHostPointerForRegisteredMem %d\n", p.canUseHostPointerForRegisteredMem);
    printf("prop.cooperativeLaunch %d\n", p.cooperativeLaunch);
    printf("prop.sharedMemPerBlockOptin %zu\n", p.sharedMemPerBlockOptin);
    printf("prop.pageableMemoryAccessUsesHostPageTables %d\n", p.pageableMemoryAccessUsesHostPageTables);
    printf("prop.directManagedMemAccessFromHost %d\n", p.directManagedMemAccessFromHost);
    printf("prop.maxBlocksPerMultiProcessor %d\n", p.maxBlocksPerMultiProcessor);
    printf("prop.accessPolicyMaxWindowSize %d\n", p.accessPolicyMaxWindowSize);
    printf("prop.reservedSharedMemPerBlock %zu\n", p.reservedSharedMemPerBlock);
    printf("prop.hostRegisterSupported %d\n", p.hostRegisterSupported);
    printf("prop.sparseCudaArraySupported %d\n", p.sparseCudaArraySupported);
    printf("prop.hostRegisterReadOnlySupported %d\n", p.hostRegisterReadOnlySupported);
    printf("prop.timelineSemaphoreInteropSupported %d\n", p.timelineSemaphoreInteropSupported);
    printf("prop.memoryPoolsSupported %d\n", p.memoryPoolsSupported);
    printf("prop.gpuDirectRDMASupported %d\n", p.gpuDirectRDMASupported);
    printf("prop.gpuDirectRDMAFlushWritesOptions %u\n", p.gpuDirectRDMAFlushWritesOptions);
    printf("prop.gpuDirectRDMAWritesOrdering %d\n", p.gpuDirectRDMAWritesOrdering);
    printf("prop.memoryPoolSupportedHandleTypes %u\n", p.memoryPoolSupportedHandleTypes);
    printf("prop.deferredMappingCudaArraySupported %d\n", p.deferredMappingCudaArraySupported);
    printf("prop.ipcEventSupported %d\n", p.ipcEventSupported);
    printf("prop.clusterLaunch %d\n", p.clusterLaunch);
    printf("prop.unifiedFunctionPointers %d\n", p.unifiedFunctionPointers);
    printf("prop.deviceNumaConfig %d\n", p.deviceNumaConfig);
    printf("prop.deviceNumaId %d\n", p.deviceNumaId);
    printf("prop.mpsEnabled %d\n", p.mpsEnabled);
    printf("prop.hostNumaId %d\n", p.hostNumaId);
    printf("prop.gpuPciDeviceID %u\n", p.gpuPciDeviceID);
    printf("prop.gpuPciSubsystemID %u\n", p.gpuPciSubsystemID);
    printf("prop.hostNumaMultinodeIpcSupported %d\n", p.hostNumaMultinodeIpcSupported);
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        int v = 0;
        cudaError_t r = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)attrs[i].value, dev);
        if (r == cudaSuccess)
            printf("attr %d %s %d\n", attrs[i].value, attrs[i].name, v);
        else
            printf("attr %d %s error %s\n", attrs[i].value, attrs[i].name, cudaGetErrorName(r));
        cudaGetLastError();
    }
    static const char *limit_names[] = {"cudaLimitStackSize", "cudaLimitPrintfFifoSize",
        "cudaLimitMallocHeapSize", "cudaLimitDevRuntimeSyncDepth",
        "cudaLimitDevRuntimePendingLaunchCount", "cudaLimitMaxL2FetchGranularity",
        "cudaLimitPersistingL2CacheSize"};
    for (int i = 0; i < 7; i++) {
        size_t v = 0;
        cudaError_t r = cudaDeviceGetLimit(&v, (cudaLimit)i);
        if (r == cudaSuccess) printf("limit %d %s %zu\n", i, limit_names[i], v);
        else printf("limit %d %s error %s\n", i, limit_names[i], cudaGetErrorName(r));
        cudaGetLastError();
    }
    int drv = 0, rt = 0, count = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    cudaGetDeviceCount(&count);
    printf("version.driver %d\nversion.runtime %d\ndevice_count %d\n", drv, rt, count);
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    printf("meminfo.total %zu\n", total_b);
    printf("sizeof.cudaDeviceProp %zu\n", sizeof(cudaDeviceProp));
}

// ---- occupancy: kernels that want many registers, capped per kernel by __maxnreg__ so
// ptxas gives each the register count in its name (cudaFuncGetAttributes reports the
// real count, which is what the tests use). ----
template <int N>
__device__ __forceinline__ void pressure(float *out, const float *in, int n) {
    float acc[N];
#pragma unroll
    for (int i = 0; i < N; i++) acc[i] = in[threadIdx.x + i * n];
    for (int it = 0; it < n; it++) {
#pragma unroll
        for (int i = 0; i < N; i++) acc[i] = acc[i] * acc[(i + 7) % N] + in[it + i];
    }
    float s = 0;
#pragma unroll
    for (int i = 0; i < N; i++) s += acc[i] * (float)(i + 1);
    out[threadIdx.x] = s;
}

#define REG_KERNEL(R) \
    __global__ void __maxnreg__(R) k_regs_##R(float *o, const float *i, int n) { pressure<160>(o, i, n); }
REG_KERNEL(16) REG_KERNEL(24) REG_KERNEL(32) REG_KERNEL(40) REG_KERNEL(48) REG_KERNEL(56)
REG_KERNEL(64) REG_KERNEL(72) REG_KERNEL(80) REG_KERNEL(96) REG_KERNEL(128) REG_KERNEL(168)
REG_KERNEL(200) REG_KERNEL(232) REG_KERNEL(255)
REG_KERNEL(37) REG_KERNEL(65) REG_KERNEL(100) REG_KERNEL(130) REG_KERNEL(250)
__global__ void k_regs_free(float *o, const float *i, int n) { pressure<200>(o, i, n); }
__global__ void k_trivial(float *o, const float *, int) { o[threadIdx.x] = 1.0f; }

#define SMEM_KERNEL(B)                                                            \
    __global__ void k_smem_##B(float *o, const float *in, int n) {               \
        __shared__ float buf[(B) / 4];                                            \
        for (int j = threadIdx.x; j < (B) / 4; j += blockDim.x) buf[j] = in[j];   \
        __syncthreads();                                                          \
        o[threadIdx.x] = buf[(threadIdx.x * 7 + n) % ((B) / 4)];                  \
    }
SMEM_KERNEL(1024) SMEM_KERNEL(4000) SMEM_KERNEL(10240) SMEM_KERNEL(40000) SMEM_KERNEL(49152)

struct kernel_entry { const void *fn; const char *name; };
#define K(f) {(const void *)f, #f}
static const kernel_entry kernels[] = {
    K(k_trivial), K(k_regs_16), K(k_regs_24), K(k_regs_32), K(k_regs_40), K(k_regs_48),
    K(k_regs_56), K(k_regs_64), K(k_regs_72), K(k_regs_80), K(k_regs_96), K(k_regs_128),
    K(k_regs_168), K(k_regs_200), K(k_regs_232), K(k_regs_255), K(k_regs_free),
    K(k_regs_37), K(k_regs_65), K(k_regs_100), K(k_regs_130), K(k_regs_250),
    K(k_smem_1024), K(k_smem_4000), K(k_smem_10240), K(k_smem_40000), K(k_smem_49152)};

static void print_occupancy(int dev) {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, dev);
    static const int blocks[] = {1, 32, 33, 64, 96, 128, 160, 192, 224, 256, 288, 320, 384,
                                 416, 512, 544, 640, 672, 768, 800, 896, 1024};
    static const size_t dyn[] = {0, 1, 128, 1000, 1024, 3000, 4096, 8192, 10000, 20000,
                                 32768, 49152, 65536, 80000, 102400, 150000, 200000,
                                 232448, 233472};
    for (const kernel_entry &k : kernels) {
        cudaFuncAttributes fa;
        cudaFuncGetAttributes(&fa, k.fn);
        printf("func %s regs %d static_smem %zu local %zu max_threads %d ptx %d binary %d max_dyn_smem %d\n",
               k.name, fa.numRegs, fa.sharedSizeBytes, fa.localSizeBytes,
               fa.maxThreadsPerBlock, fa.ptxVersion, fa.binaryVersion,
               fa.maxDynamicSharedSizeBytes);
        int min_grid = 0, best_block = 0;
        cudaError_t r = cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, k.fn, 0, 0);
        printf("potential %s dyn 0 min_grid %d block %d err %s\n", k.name, min_grid,
               best_block, cudaGetErrorName(r));
        // With the default dynamic-shared limit, then with it raised to the opt-in maximum.
        for (int raised = 0; raised < 2; raised++) {
            if (raised) {
                int maxdyn = (int)(p.sharedMemPerBlockOptin - fa.sharedSizeBytes);
                cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, maxdyn);
                cudaFuncGetAttributes(&fa, k.fn);
            }
            for (int b : blocks) {
                for (size_t d : dyn) {
                    if (!raised && d > 49152) continue;
                    if (raised && d <= 49152) continue;
                    int nb = -1;
                    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k.fn, b, d);
                    printf("occ %s regs %d static_smem %zu block %d dyn %zu max_dyn %d -> %d %s\n",
                           k.name, fa.numRegs, fa.sharedSizeBytes, b, d,
                           fa.maxDynamicSharedSizeBytes, nb, cudaGetErrorName(e));
                    cudaGetLastError();
                }
            }
            size_t avail = 0;
            for (int b : {32, 128, 256, 1024}) {
                for (int nblk : {1, 2, 4, 8}) {
                    cudaError_t e = cudaOccupancyAvailableDynamicSMemPerBlock(&avail, k.fn, nblk, b);
                    printf("availdyn %s block %d nblocks %d max_dyn %d -> %zu %s\n", k.name, b,
                           nblk, fa.maxDynamicSharedSizeBytes, avail, cudaGetErrorName(e));
                    cudaGetLastError();
                }
            }
        }
        // The shared-memory carveout preference changes how much shared memory an SM has.
        for (int carve : {0, 25, 50, 75, 100}) {
            cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, carve);
            for (int b : {128, 256, 1024}) {
                for (size_t d : {(size_t)0, (size_t)8192, (size_t)32768}) {
                    int nb = -1;
                    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k.fn, b, d);
                    printf("carveout %d %s block %d dyn %zu -> %d %s\n", carve, k.name, b, d, nb,
                           cudaGetErrorName(e));
                    cudaGetLastError();
                }
            }
        }
        cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
    }
}

// ---- deviceQuery layout (CUDA 13 removed some cudaDeviceProp fields: those come from
// cudaDeviceGetAttribute) ----
static int cores_per_sm(int major, int minor) {
    switch (major * 10 + minor) {
    case 30: case 32: case 35: case 37: return 192;
    case 50: case 52: case 53: return 128;
    case 60: return 64;
    case 61: case 62: return 128;
    case 70: case 72: case 75: return 64;
    case 80: return 64;
    case 86: case 87: case 89: return 128;
    case 90: return 128;
    default: return 128;
    }
}

static void print_devicequery(const char *argv0) {
    printf("%s Starting...\n\n", argv0);
    printf(" CUDA Device Query (Runtime API) version (CUDART static linking)\n\n");
    int count = 0;
    cudaGetDeviceCount(&count);
    printf("Detected %d CUDA Capable device(s)\n", count);
    int drv = 0, rt = 0;
    for (int dev = 0; dev < count; dev++) {
        cudaSetDevice(dev);
        cudaDeviceProp p;
        cudaGetDeviceProperties(&p, dev);
        int clock = 0, mclock = 0, overlap = 0, timeout = 0, mode = 0;
        cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, dev);
        cudaDeviceGetAttribute(&mclock, cudaDevAttrMemoryClockRate, dev);
        cudaDeviceGetAttribute(&overlap, cudaDevAttrGpuOverlap, dev);
        cudaDeviceGetAttribute(&timeout, cudaDevAttrKernelExecTimeout, dev);
        cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev);
        cudaGetLastError();
        printf("\nDevice %d: \"%s\"\n", dev, p.name);
        cudaDriverGetVersion(&drv);
        cudaRuntimeGetVersion(&rt);
        printf("  CUDA Driver Version / Runtime Version          %d.%d / %d.%d\n", drv / 1000,
               (drv % 100) / 10, rt / 1000, (rt % 100) / 10);
        printf("  CUDA Capability Major/Minor version number:    %d.%d\n", p.major, p.minor);
        printf("  Total amount of global memory:                 %.0f MBytes (%llu bytes)\n",
               (float)(p.totalGlobalMem / 1048576.0f), (unsigned long long)p.totalGlobalMem);
        int cores = cores_per_sm(p.major, p.minor);
        printf("  (%03d) Multiprocessors, (%03d) CUDA Cores/MP:    %d CUDA Cores\n",
               p.multiProcessorCount, cores, cores * p.multiProcessorCount);
        printf("  GPU Max Clock rate:                            %.0f MHz (%0.2f GHz)\n",
               clock * 1e-3f, clock * 1e-6f);
        printf("  Memory Clock rate:                             %.0f Mhz\n", mclock * 1e-3f);
        printf("  Memory Bus Width:                              %d-bit\n", p.memoryBusWidth);
        if (p.l2CacheSize)
            printf("  L2 Cache Size:                                 %d bytes\n", p.l2CacheSize);
        printf("  Maximum Texture Dimension Size (x,y,z)         1D=(%d), 2D=(%d, %d), 3D=(%d, %d, %d)\n",
               p.maxTexture1D, p.maxTexture2D[0], p.maxTexture2D[1], p.maxTexture3D[0],
               p.maxTexture3D[1], p.maxTexture3D[2]);
        printf("  Maximum Layered 1D Texture Size, (num) layers  1D=(%d), %d layers\n",
               p.maxTexture1DLayered[0], p.maxTexture1DLayered[1]);
        printf("  Maximum Layered 2D Texture Size, (num) layers  2D=(%d, %d), %d layers\n",
               p.maxTexture2DLayered[0], p.maxTexture2DLayered[1], p.maxTexture2DLayered[2]);
        printf("  Total amount of constant memory:               %zu bytes\n", p.totalConstMem);
        printf("  Total amount of shared memory per block:       %zu bytes\n", p.sharedMemPerBlock);
        printf("  Total shared memory per multiprocessor:        %zu bytes\n", p.sharedMemPerMultiprocessor);
        printf("  Total number of registers available per block: %d\n", p.regsPerBlock);
        printf("  Warp size:                                     %d\n", p.warpSize);
        printf("  Maximum number of threads per multiprocessor:  %d\n", p.maxThreadsPerMultiProcessor);
        printf("  Maximum number of threads per block:           %d\n", p.maxThreadsPerBlock);
        printf("  Max dimension size of a thread block (x,y,z): (%d, %d, %d)\n", p.maxThreadsDim[0],
               p.maxThreadsDim[1], p.maxThreadsDim[2]);
        printf("  Max dimension size of a grid size    (x,y,z): (%d, %d, %d)\n", p.maxGridSize[0],
               p.maxGridSize[1], p.maxGridSize[2]);
        printf("  Maximum memory pitch:                          %zu bytes\n", p.memPitch);
        printf("  Texture alignment:                             %zu bytes\n", p.textureAlignment);
        printf("  Concurrent copy and kernel execution:          %s with %d copy engine(s)\n",
               overlap ? "Yes" : "No", p.asyncEngineCount);
        printf("  Run time limit on kernels:                     %s\n", timeout ? "Yes" : "No");
        printf("  Integrated GPU sharing Host Memory:            %s\n", p.integrated ? "Yes" : "No");
        printf("  Support host page-locked memory mapping:       %s\n", p.canMapHostMemory ? "Yes" : "No");
        printf("  Alignment requirement for Surfaces:            %s\n", p.surfaceAlignment ? "Yes" : "No");
        printf("  Device has ECC support:                        %s\n", p.ECCEnabled ? "Enabled" : "Disabled");
        printf("  Device supports Unified Addressing (UVA):      %s\n", p.unifiedAddressing ? "Yes" : "No");
        printf("  Device supports Managed Memory:                %s\n", p.managedMemory ? "Yes" : "No");
        printf("  Device supports Compute Preemption:            %s\n", p.computePreemptionSupported ? "Yes" : "No");
        printf("  Supports Cooperative Kernel Launch:            %s\n", p.cooperativeLaunch ? "Yes" : "No");
        printf("  Device PCI Domain ID / Bus ID / location ID:   %d / %d / %d\n", p.pciDomainID,
               p.pciBusID, p.pciDeviceID);
        static const char *modes[] = {
            "Default (multiple host threads can use ::cudaSetDevice() with device simultaneously)",
            "Exclusive (only one host thread in one process is able to use ::cudaSetDevice() with this device)",
            "Prohibited (no host thread can use ::cudaSetDevice() with this device)",
            "Exclusive Process (many threads in one process is able to use ::cudaSetDevice() with this device)",
            "Unknown"};
        printf("  Compute Mode:\n");
        printf("     < %s >\n", modes[mode >= 0 && mode < 4 ? mode : 4]);
    }
    printf("\n");
    printf("deviceQuery, CUDA Driver = CUDART, CUDA Driver Version = %d.%d, CUDA Runtime Version = %d.%d, NumDevs = %d\n",
           drv / 1000, (drv % 100) / 10, rt / 1000, (rt % 100) / 10, count);
    printf("Result = PASS\n");
}

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "props";
    if (!strcmp(what, "props")) print_props(0);
    else if (!strcmp(what, "occupancy")) print_occupancy(0);
    else if (!strcmp(what, "devicequery")) print_devicequery("./deviceQuery");
    else { fprintf(stderr, "usage: %s props|occupancy|devicequery\n", argv[0]); return 2; }
    return 0;
}
