/* props.cu — every cudaDeviceProp field and every cudaDeviceGetAttribute value of device 0
 * (generated from the toolkit's driver_types.h). */
#include "probe.h"

int main() {
    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    SHOW("cudaGetDeviceProperties", cudaGetDeviceProperties(&p, 0));
    printf("name %s\n", p.name);
    printf("uuid (%zu bytes)\n", sizeof p.uuid);
    printf("luid"); for (int i = 0; i < 8; i++) printf(" %d", p.luid[i]); printf("\n");
    printf("luidDeviceNodeMask %u\n", p.luidDeviceNodeMask);
    printf("totalGlobalMem %zu\n", p.totalGlobalMem);
    printf("sharedMemPerBlock %zu\n", p.sharedMemPerBlock);
    printf("regsPerBlock %d\n", p.regsPerBlock);
    printf("warpSize %d\n", p.warpSize);
    printf("memPitch %zu\n", p.memPitch);
    printf("maxThreadsPerBlock %d\n", p.maxThreadsPerBlock);
    printf("maxThreadsDim"); for (int i = 0; i < 3; i++) printf(" %d", p.maxThreadsDim[i]); printf("\n");
    printf("maxGridSize"); for (int i = 0; i < 3; i++) printf(" %d", p.maxGridSize[i]); printf("\n");
    printf("totalConstMem %zu\n", p.totalConstMem);
    printf("major %d\n", p.major);
    printf("minor %d\n", p.minor);
    printf("textureAlignment %zu\n", p.textureAlignment);
    printf("texturePitchAlignment %zu\n", p.texturePitchAlignment);
    printf("multiProcessorCount %d\n", p.multiProcessorCount);
    printf("integrated %d\n", p.integrated);
    printf("canMapHostMemory %d\n", p.canMapHostMemory);
    printf("maxTexture1D %d\n", p.maxTexture1D);
    printf("maxTexture1DMipmap %d\n", p.maxTexture1DMipmap);
    printf("maxTexture2D"); for (int i = 0; i < 2; i++) printf(" %d", p.maxTexture2D[i]); printf("\n");
    printf("maxTexture2DMipmap"); for (int i = 0; i < 2; i++) printf(" %d", p.maxTexture2DMipmap[i]); printf("\n");
    printf("maxTexture2DLinear"); for (int i = 0; i < 3; i++) printf(" %d", p.maxTexture2DLinear[i]); printf("\n");
    printf("maxTexture2DGather"); for (int i = 0; i < 2; i++) printf(" %d", p.maxTexture2DGather[i]); printf("\n");
    printf("maxTexture3D"); for (int i = 0; i < 3; i++) printf(" %d", p.maxTexture3D[i]); printf("\n");
    printf("maxTexture3DAlt"); for (int i = 0; i < 3; i++) printf(" %d", p.maxTexture3DAlt[i]); printf("\n");
    printf("maxTextureCubemap %d\n", p.maxTextureCubemap);
    printf("maxTexture1DLayered"); for (int i = 0; i < 2; i++) printf(" %d", p.maxTexture1DLayered[i]); printf("\n");
    printf("maxTexture2DLayered"); for (int i = 0; i < 3; i++) printf(" %d", p.maxTexture2DLayered[i]); printf("\n");
    printf("maxTextureCubemapLayered"); for (int i = 0; i < 2; i++) printf(" %d", p.maxTextureCubemapLayered[i]); printf("\n");
    printf("maxSurface1D %d\n", p.maxSurface1D);
    printf("maxSurface2D"); for (int i = 0; i < 2; i++) printf(" %d", p.maxSurface2D[i]); printf("\n");
    printf("maxSurface3D"); for (int i = 0; i < 3; i++) printf(" %d", p.maxSurface3D[i]); printf("\n");
    printf("maxSurface1DLayered"); for (int i = 0; i < 2; i++) printf(" %d", p.maxSurface1DLayered[i]); printf("\n");
    printf("maxSurface2DLayered"); for (int i = 0; i < 3; i++) printf(" %d", p.maxSurface2DLayered[i]); printf("\n");
    printf("maxSurfaceCubemap %d\n", p.maxSurfaceCubemap);
    printf("maxSurfaceCubemapLayered"); for (int i = 0; i < 2; i++) printf(" %d", p.maxSurfaceCubemapLayered[i]); printf("\n");
    printf("surfaceAlignment %zu\n", p.surfaceAlignment);
    printf("concurrentKernels %d\n", p.concurrentKernels);
    printf("ECCEnabled %d\n", p.ECCEnabled);
    printf("pciBusID %d\n", p.pciBusID);
    printf("pciDeviceID %d\n", p.pciDeviceID);
    printf("pciDomainID %d\n", p.pciDomainID);
    printf("tccDriver %d\n", p.tccDriver);
    printf("asyncEngineCount %d\n", p.asyncEngineCount);
    printf("unifiedAddressing %d\n", p.unifiedAddressing);
    printf("memoryBusWidth %d\n", p.memoryBusWidth);
    printf("l2CacheSize %d\n", p.l2CacheSize);
    printf("persistingL2CacheMaxSize %d\n", p.persistingL2CacheMaxSize);
    printf("maxThreadsPerMultiProcessor %d\n", p.maxThreadsPerMultiProcessor);
    printf("streamPrioritiesSupported %d\n", p.streamPrioritiesSupported);
    printf("globalL1CacheSupported %d\n", p.globalL1CacheSupported);
    printf("localL1CacheSupported %d\n", p.localL1CacheSupported);
    printf("sharedMemPerMultiprocessor %zu\n", p.sharedMemPerMultiprocessor);
    printf("regsPerMultiprocessor %d\n", p.regsPerMultiprocessor);
    printf("managedMemory %d\n", p.managedMemory);
    printf("isMultiGpuBoard %d\n", p.isMultiGpuBoard);
    printf("multiGpuBoardGroupID %d\n", p.multiGpuBoardGroupID);
    printf("hostNativeAtomicSupported %d\n", p.hostNativeAtomicSupported);
    printf("pageableMemoryAccess %d\n", p.pageableMemoryAccess);
    printf("concurrentManagedAccess %d\n", p.concurrentManagedAccess);
    printf("computePreemptionSupported %d\n", p.computePreemptionSupported);
    printf("canUseHostPointerForRegisteredMem %d\n", p.canUseHostPointerForRegisteredMem);
    printf("cooperativeLaunch %d\n", p.cooperativeLaunch);
    printf("sharedMemPerBlockOptin %zu\n", p.sharedMemPerBlockOptin);
    printf("pageableMemoryAccessUsesHostPageTables %d\n", p.pageableMemoryAccessUsesHostPageTables);
    printf("directManagedMemAccessFromHost %d\n", p.directManagedMemAccessFromHost);
    printf("maxBlocksPerMultiProcessor %d\n", p.maxBlocksPerMultiProcessor);
    printf("accessPolicyMaxWindowSize %d\n", p.accessPolicyMaxWindowSize);
    printf("reservedSharedMemPerBlock %zu\n", p.reservedSharedMemPerBlock);
    printf("hostRegisterSupported %d\n", p.hostRegisterSupported);
    printf("sparseCudaArraySupported %d\n", p.sparseCudaArraySupported);
    printf("hostRegisterReadOnlySupported %d\n", p.hostRegisterReadOnlySupported);
    printf("timelineSemaphoreInteropSupported %d\n", p.timelineSemaphoreInteropSupported);
    printf("memoryPoolsSupported %d\n", p.memoryPoolsSupported);
    printf("gpuDirectRDMASupported %d\n", p.gpuDirectRDMASupported);
    printf("gpuDirectRDMAFlushWritesOptions %u\n", p.gpuDirectRDMAFlushWritesOptions);
    printf("gpuDirectRDMAWritesOrdering %d\n", p.gpuDirectRDMAWritesOrdering);
    printf("memoryPoolSupportedHandleTypes %u\n", p.memoryPoolSupportedHandleTypes);
    printf("deferredMappingCudaArraySupported %d\n", p.deferredMappingCudaArraySupported);
    printf("ipcEventSupported %d\n", p.ipcEventSupported);
    printf("clusterLaunch %d\n", p.clusterLaunch);
    printf("unifiedFunctionPointers %d\n", p.unifiedFunctionPointers);
    printf("deviceNumaConfig %d\n", p.deviceNumaConfig);
    printf("deviceNumaId %d\n", p.deviceNumaId);
    printf("mpsEnabled %d\n", p.mpsEnabled);
    printf("hostNumaId %d\n", p.hostNumaId);
    printf("gpuPciDeviceID %u\n", p.gpuPciDeviceID);
    printf("gpuPciSubsystemID %u\n", p.gpuPciSubsystemID);
    printf("hostNumaMultinodeIpcSupported %d\n", p.hostNumaMultinodeIpcSupported);
    printf("reserved all zero: %d\n", [&] { for (int r : p.reserved) if (r) return 0; return 1; }());
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)1, 0); printf("attr 1 cudaDevAttrMaxThreadsPerBlock: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)2, 0); printf("attr 2 cudaDevAttrMaxBlockDimX: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)3, 0); printf("attr 3 cudaDevAttrMaxBlockDimY: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)4, 0); printf("attr 4 cudaDevAttrMaxBlockDimZ: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)5, 0); printf("attr 5 cudaDevAttrMaxGridDimX: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)6, 0); printf("attr 6 cudaDevAttrMaxGridDimY: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)7, 0); printf("attr 7 cudaDevAttrMaxGridDimZ: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)8, 0); printf("attr 8 cudaDevAttrMaxSharedMemoryPerBlock: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9, 0); printf("attr 9 cudaDevAttrTotalConstantMemory: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)10, 0); printf("attr 10 cudaDevAttrWarpSize: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)11, 0); printf("attr 11 cudaDevAttrMaxPitch: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)12, 0); printf("attr 12 cudaDevAttrMaxRegistersPerBlock: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)13, 0); printf("attr 13 cudaDevAttrClockRate: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)14, 0); printf("attr 14 cudaDevAttrTextureAlignment: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)15, 0); printf("attr 15 cudaDevAttrGpuOverlap: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)16, 0); printf("attr 16 cudaDevAttrMultiProcessorCount: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)17, 0); printf("attr 17 cudaDevAttrKernelExecTimeout: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)18, 0); printf("attr 18 cudaDevAttrIntegrated: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)19, 0); printf("attr 19 cudaDevAttrCanMapHostMemory: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)20, 0); printf("attr 20 cudaDevAttrComputeMode: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)21, 0); printf("attr 21 cudaDevAttrMaxTexture1DWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)22, 0); printf("attr 22 cudaDevAttrMaxTexture2DWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)23, 0); printf("attr 23 cudaDevAttrMaxTexture2DHeight: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)24, 0); printf("attr 24 cudaDevAttrMaxTexture3DWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)25, 0); printf("attr 25 cudaDevAttrMaxTexture3DHeight: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)26, 0); printf("attr 26 cudaDevAttrMaxTexture3DDepth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)27, 0); printf("attr 27 cudaDevAttrMaxTexture2DLayeredWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)28, 0); printf("attr 28 cudaDevAttrMaxTexture2DLayeredHeight: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)29, 0); printf("attr 29 cudaDevAttrMaxTexture2DLayeredLayers: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)30, 0); printf("attr 30 cudaDevAttrSurfaceAlignment: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)31, 0); printf("attr 31 cudaDevAttrConcurrentKernels: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)32, 0); printf("attr 32 cudaDevAttrEccEnabled: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)33, 0); printf("attr 33 cudaDevAttrPciBusId: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)34, 0); printf("attr 34 cudaDevAttrPciDeviceId: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)35, 0); printf("attr 35 cudaDevAttrTccDriver: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)36, 0); printf("attr 36 cudaDevAttrMemoryClockRate: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)37, 0); printf("attr 37 cudaDevAttrGlobalMemoryBusWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)38, 0); printf("attr 38 cudaDevAttrL2CacheSize: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)39, 0); printf("attr 39 cudaDevAttrMaxThreadsPerMultiProcessor: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)40, 0); printf("attr 40 cudaDevAttrAsyncEngineCount: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)41, 0); printf("attr 41 cudaDevAttrUnifiedAddressing: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)42, 0); printf("attr 42 cudaDevAttrMaxTexture1DLayeredWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)43, 0); printf("attr 43 cudaDevAttrMaxTexture1DLayeredLayers: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)45, 0); printf("attr 45 cudaDevAttrMaxTexture2DGatherWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)46, 0); printf("attr 46 cudaDevAttrMaxTexture2DGatherHeight: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)47, 0); printf("attr 47 cudaDevAttrMaxTexture3DWidthAlt: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)48, 0); printf("attr 48 cudaDevAttrMaxTexture3DHeightAlt: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)49, 0); printf("attr 49 cudaDevAttrMaxTexture3DDepthAlt: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)50, 0); printf("attr 50 cudaDevAttrPciDomainId: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)51, 0); printf("attr 51 cudaDevAttrTexturePitchAlignment: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)52, 0); printf("attr 52 cudaDevAttrMaxTextureCubemapWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)53, 0); printf("attr 53 cudaDevAttrMaxTextureCubemapLayeredWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)54, 0); printf("attr 54 cudaDevAttrMaxTextureCubemapLayeredLayers: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)55, 0); printf("attr 55 cudaDevAttrMaxSurface1DWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)56, 0); printf("attr 56 cudaDevAttrMaxSurface2DWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)57, 0); printf("attr 57 cudaDevAttrMaxSurface2DHeight: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)58, 0); printf("attr 58 cudaDevAttrMaxSurface3DWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)59, 0); printf("attr 59 cudaDevAttrMaxSurface3DHeight: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)60, 0); printf("attr 60 cudaDevAttrMaxSurface3DDepth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)61, 0); printf("attr 61 cudaDevAttrMaxSurface1DLayeredWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)62, 0); printf("attr 62 cudaDevAttrMaxSurface1DLayeredLayers: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)63, 0); printf("attr 63 cudaDevAttrMaxSurface2DLayeredWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)64, 0); printf("attr 64 cudaDevAttrMaxSurface2DLayeredHeight: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)65, 0); printf("attr 65 cudaDevAttrMaxSurface2DLayeredLayers: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)66, 0); printf("attr 66 cudaDevAttrMaxSurfaceCubemapWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)67, 0); printf("attr 67 cudaDevAttrMaxSurfaceCubemapLayeredWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)68, 0); printf("attr 68 cudaDevAttrMaxSurfaceCubemapLayeredLayers: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)69, 0); printf("attr 69 cudaDevAttrMaxTexture1DLinearWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)70, 0); printf("attr 70 cudaDevAttrMaxTexture2DLinearWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)71, 0); printf("attr 71 cudaDevAttrMaxTexture2DLinearHeight: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)72, 0); printf("attr 72 cudaDevAttrMaxTexture2DLinearPitch: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)73, 0); printf("attr 73 cudaDevAttrMaxTexture2DMipmappedWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)74, 0); printf("attr 74 cudaDevAttrMaxTexture2DMipmappedHeight: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)75, 0); printf("attr 75 cudaDevAttrComputeCapabilityMajor: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)76, 0); printf("attr 76 cudaDevAttrComputeCapabilityMinor: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)77, 0); printf("attr 77 cudaDevAttrMaxTexture1DMipmappedWidth: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)78, 0); printf("attr 78 cudaDevAttrStreamPrioritiesSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)79, 0); printf("attr 79 cudaDevAttrGlobalL1CacheSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)80, 0); printf("attr 80 cudaDevAttrLocalL1CacheSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)81, 0); printf("attr 81 cudaDevAttrMaxSharedMemoryPerMultiprocessor: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)82, 0); printf("attr 82 cudaDevAttrMaxRegistersPerMultiprocessor: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)83, 0); printf("attr 83 cudaDevAttrManagedMemory: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)84, 0); printf("attr 84 cudaDevAttrIsMultiGpuBoard: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)85, 0); printf("attr 85 cudaDevAttrMultiGpuBoardGroupID: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)86, 0); printf("attr 86 cudaDevAttrHostNativeAtomicSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)87, 0); printf("attr 87 cudaDevAttrSingleToDoublePrecisionPerfRatio: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)88, 0); printf("attr 88 cudaDevAttrPageableMemoryAccess: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)89, 0); printf("attr 89 cudaDevAttrConcurrentManagedAccess: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)90, 0); printf("attr 90 cudaDevAttrComputePreemptionSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)91, 0); printf("attr 91 cudaDevAttrCanUseHostPointerForRegisteredMem: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)92, 0); printf("attr 92 cudaDevAttrReserved92: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)93, 0); printf("attr 93 cudaDevAttrReserved93: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)94, 0); printf("attr 94 cudaDevAttrReserved94: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)95, 0); printf("attr 95 cudaDevAttrCooperativeLaunch: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)96, 0); printf("attr 96 cudaDevAttrReserved96: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)97, 0); printf("attr 97 cudaDevAttrMaxSharedMemoryPerBlockOptin: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)98, 0); printf("attr 98 cudaDevAttrCanFlushRemoteWrites: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)99, 0); printf("attr 99 cudaDevAttrHostRegisterSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)100, 0); printf("attr 100 cudaDevAttrPageableMemoryAccessUsesHostPageTables: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)101, 0); printf("attr 101 cudaDevAttrDirectManagedMemAccessFromHost: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)106, 0); printf("attr 106 cudaDevAttrMaxBlocksPerMultiprocessor: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)108, 0); printf("attr 108 cudaDevAttrMaxPersistingL2CacheSize: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)109, 0); printf("attr 109 cudaDevAttrMaxAccessPolicyWindowSize: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)111, 0); printf("attr 111 cudaDevAttrReservedSharedMemoryPerBlock: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)112, 0); printf("attr 112 cudaDevAttrSparseCudaArraySupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)113, 0); printf("attr 113 cudaDevAttrHostRegisterReadOnlySupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)114, 0); printf("attr 114 cudaDevAttrTimelineSemaphoreInteropSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)115, 0); printf("attr 115 cudaDevAttrMemoryPoolsSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)116, 0); printf("attr 116 cudaDevAttrGPUDirectRDMASupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)117, 0); printf("attr 117 cudaDevAttrGPUDirectRDMAFlushWritesOptions: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)118, 0); printf("attr 118 cudaDevAttrGPUDirectRDMAWritesOrdering: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)119, 0); printf("attr 119 cudaDevAttrMemoryPoolSupportedHandleTypes: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)120, 0); printf("attr 120 cudaDevAttrClusterLaunch: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)121, 0); printf("attr 121 cudaDevAttrDeferredMappingCudaArraySupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)122, 0); printf("attr 122 cudaDevAttrReserved122: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)123, 0); printf("attr 123 cudaDevAttrReserved123: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)124, 0); printf("attr 124 cudaDevAttrReserved124: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)125, 0); printf("attr 125 cudaDevAttrIpcEventSupport: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)126, 0); printf("attr 126 cudaDevAttrMemSyncDomainCount: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)127, 0); printf("attr 127 cudaDevAttrReserved127: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)128, 0); printf("attr 128 cudaDevAttrReserved128: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)129, 0); printf("attr 129 cudaDevAttrReserved129: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)130, 0); printf("attr 130 cudaDevAttrNumaConfig: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)131, 0); printf("attr 131 cudaDevAttrNumaId: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)132, 0); printf("attr 132 cudaDevAttrReserved132: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)133, 0); printf("attr 133 cudaDevAttrMpsEnabled: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)134, 0); printf("attr 134 cudaDevAttrHostNumaId: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)135, 0); printf("attr 135 cudaDevAttrD3D12CigSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)138, 0); printf("attr 138 cudaDevAttrVulkanCigSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)139, 0); printf("attr 139 cudaDevAttrGpuPciDeviceId: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)140, 0); printf("attr 140 cudaDevAttrGpuPciSubsystemId: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)141, 0); printf("attr 141 cudaDevAttrReserved141: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)142, 0); printf("attr 142 cudaDevAttrHostNumaMemoryPoolsSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)143, 0); printf("attr 143 cudaDevAttrHostNumaMultinodeIpcSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)144, 0); printf("attr 144 cudaDevAttrHostMemoryPoolsSupported: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)145, 0); printf("attr 145 cudaDevAttrReserved145: %s %d\n", en(e), v); }
    { int v = -12345; cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)147, 0); printf("attr 147 cudaDevAttrOnlyPartialHostNativeAtomicSupported: %s %d\n", en(e), v); }
    for (int i = 0; i <= 300; i++) {
        int v = -12345;
        cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)i, 0);
        printf("attr-range %d: %s %d\n", i, en(e), e == cudaSuccess ? v : 0);
    }
    SHOW_LAST("end");
    return 0;
}
