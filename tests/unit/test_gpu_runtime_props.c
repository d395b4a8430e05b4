/* tests/unit/test_gpu_runtime_props.c — what the runtime reports for the default device
 * (cudaGetDeviceProperties, cudaDeviceGetAttribute, cudaDeviceGetLimit, versions) against
 * what a real H100 reported (tests/data/h100/props.txt), rendered line for line the way
 * tests/data/h100/ground_truth.cu printed them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

static int failures;

#define PRINT_INTS(f, label, arr, n)                                    \
    do {                                                                \
        fprintf(f, "%s", label);                                        \
        for (int i_ = 0; i_ < (n); i_++) fprintf(f, " %d", (arr)[i_]);  \
        fprintf(f, "\n");                                               \
    } while (0)
#define PRINT_BYTES(f, label, arr, n)                                                   \
    do {                                                                                \
        fprintf(f, "%s ", label);                                                       \
        for (int i_ = 0; i_ < (n); i_++) fprintf(f, "%02x", (unsigned char)(arr)[i_]);  \
        fprintf(f, "\n");                                                               \
    } while (0)

/* Every cudaDeviceProp field, one line each. */
static void render_props(FILE *f, const struct cudaDeviceProp *pp) {
    const struct cudaDeviceProp p = *pp;
    fprintf(f, "prop.name %s\n", p.name);
    PRINT_BYTES(f, "prop.uuid", p.uuid.bytes, 16);
    PRINT_BYTES(f, "prop.luid", p.luid, 8);
    fprintf(f, "prop.luidDeviceNodeMask %u\n", p.luidDeviceNodeMask);
    fprintf(f, "prop.totalGlobalMem %zu\n", p.totalGlobalMem);
    fprintf(f, "prop.sharedMemPerBlock %zu\n", p.sharedMemPerBlock);
    fprintf(f, "prop.regsPerBlock %d\n", p.regsPerBlock);
    fprintf(f, "prop.warpSize %d\n", p.warpSize);
    fprintf(f, "prop.memPitch %zu\n", p.memPitch);
    fprintf(f, "prop.maxThreadsPerBlock %d\n", p.maxThreadsPerBlock);
    PRINT_INTS(f, "prop.maxThreadsDim", p.maxThreadsDim, 3);
    PRINT_INTS(f, "prop.maxGridSize", p.maxGridSize, 3);
    fprintf(f, "prop.totalConstMem %zu\n", p.totalConstMem);
    fprintf(f, "prop.major %d\n", p.major);
    fprintf(f, "prop.minor %d\n", p.minor);
    fprintf(f, "prop.textureAlignment %zu\n", p.textureAlignment);
    fprintf(f, "prop.texturePitchAlignment %zu\n", p.texturePitchAlignment);
    fprintf(f, "prop.multiProcessorCount %d\n", p.multiProcessorCount);
    fprintf(f, "prop.integrated %d\n", p.integrated);
    fprintf(f, "prop.canMapHostMemory %d\n", p.canMapHostMemory);
    fprintf(f, "prop.maxTexture1D %d\n", p.maxTexture1D);
    fprintf(f, "prop.maxTexture1DMipmap %d\n", p.maxTexture1DMipmap);
    PRINT_INTS(f, "prop.maxTexture2D", p.maxTexture2D, 2);
    PRINT_INTS(f, "prop.maxTexture2DMipmap", p.maxTexture2DMipmap, 2);
    PRINT_INTS(f, "prop.maxTexture2DLinear", p.maxTexture2DLinear, 3);
    PRINT_INTS(f, "prop.maxTexture2DGather", p.maxTexture2DGather, 2);
    PRINT_INTS(f, "prop.maxTexture3D", p.maxTexture3D, 3);
    PRINT_INTS(f, "prop.maxTexture3DAlt", p.maxTexture3DAlt, 3);
    fprintf(f, "prop.maxTextureCubemap %d\n", p.maxTextureCubemap);
    PRINT_INTS(f, "prop.maxTexture1DLayered", p.maxTexture1DLayered, 2);
    PRINT_INTS(f, "prop.maxTexture2DLayered", p.maxTexture2DLayered, 3);
    PRINT_INTS(f, "prop.maxTextureCubemapLayered", p.maxTextureCubemapLayered, 2);
    fprintf(f, "prop.maxSurface1D %d\n", p.maxSurface1D);
    PRINT_INTS(f, "prop.maxSurface2D", p.maxSurface2D, 2);
    PRINT_INTS(f, "prop.maxSurface3D", p.maxSurface3D, 3);
    PRINT_INTS(f, "prop.maxSurface1DLayered", p.maxSurface1DLayered, 2);
    PRINT_INTS(f, "prop.maxSurface2DLayered", p.maxSurface2DLayered, 3);
    fprintf(f, "prop.maxSurfaceCubemap %d\n", p.maxSurfaceCubemap);
    PRINT_INTS(f, "prop.maxSurfaceCubemapLayered", p.maxSurfaceCubemapLayered, 2);
    fprintf(f, "prop.surfaceAlignment %zu\n", p.surfaceAlignment);
    fprintf(f, "prop.concurrentKernels %d\n", p.concurrentKernels);
    fprintf(f, "prop.ECCEnabled %d\n", p.ECCEnabled);
    fprintf(f, "prop.pciBusID %d\n", p.pciBusID);
    fprintf(f, "prop.pciDeviceID %d\n", p.pciDeviceID);
    fprintf(f, "prop.pciDomainID %d\n", p.pciDomainID);
    fprintf(f, "prop.tccDriver %d\n", p.tccDriver);
    fprintf(f, "prop.asyncEngineCount %d\n", p.asyncEngineCount);
    fprintf(f, "prop.unifiedAddressing %d\n", p.unifiedAddressing);
    fprintf(f, "prop.memoryBusWidth %d\n", p.memoryBusWidth);
    fprintf(f, "prop.l2CacheSize %d\n", p.l2CacheSize);
    fprintf(f, "prop.persistingL2CacheMaxSize %d\n", p.persistingL2CacheMaxSize);
    fprintf(f, "prop.maxThreadsPerMultiProcessor %d\n", p.maxThreadsPerMultiProcessor);
    fprintf(f, "prop.streamPrioritiesSupported %d\n", p.streamPrioritiesSupported);
    fprintf(f, "prop.globalL1CacheSupported %d\n", p.globalL1CacheSupported);
    fprintf(f, "prop.localL1CacheSupported %d\n", p.localL1CacheSupported);
    fprintf(f, "prop.sharedMemPerMultiprocessor %zu\n", p.sharedMemPerMultiprocessor);
    fprintf(f, "prop.regsPerMultiprocessor %d\n", p.regsPerMultiprocessor);
    fprintf(f, "prop.managedMemory %d\n", p.managedMemory);
    fprintf(f, "prop.isMultiGpuBoard %d\n", p.isMultiGpuBoard);
    fprintf(f, "prop.multiGpuBoardGroupID %d\n", p.multiGpuBoardGroupID);
    fprintf(f, "prop.hostNativeAtomicSupported %d\n", p.hostNativeAtomicSupported);
    fprintf(f, "prop.pageableMemoryAccess %d\n", p.pageableMemoryAccess);
    fprintf(f, "prop.concurrentManagedAccess %d\n", p.concurrentManagedAccess);
    fprintf(f, "prop.computePreemptionSupported %d\n", p.computePreemptionSupported);
    fprintf(f, "prop.canUseHostPointerForRegisteredMem %d\n", p.canUseHostPointerForRegisteredMem);
    fprintf(f, "prop.cooperativeLaunch %d\n", p.cooperativeLaunch);
    fprintf(f, "prop.sharedMemPerBlockOptin %zu\n", p.sharedMemPerBlockOptin);
    fprintf(f, "prop.pageableMemoryAccessUsesHostPageTables %d\n", p.pageableMemoryAccessUsesHostPageTables);
    fprintf(f, "prop.directManagedMemAccessFromHost %d\n", p.directManagedMemAccessFromHost);
    fprintf(f, "prop.maxBlocksPerMultiProcessor %d\n", p.maxBlocksPerMultiProcessor);
    fprintf(f, "prop.accessPolicyMaxWindowSize %d\n", p.accessPolicyMaxWindowSize);
    fprintf(f, "prop.reservedSharedMemPerBlock %zu\n", p.reservedSharedMemPerBlock);
    fprintf(f, "prop.hostRegisterSupported %d\n", p.hostRegisterSupported);
    fprintf(f, "prop.sparseCudaArraySupported %d\n", p.sparseCudaArraySupported);
    fprintf(f, "prop.hostRegisterReadOnlySupported %d\n", p.hostRegisterReadOnlySupported);
    fprintf(f, "prop.timelineSemaphoreInteropSupported %d\n", p.timelineSemaphoreInteropSupported);
    fprintf(f, "prop.memoryPoolsSupported %d\n", p.memoryPoolsSupported);
    fprintf(f, "prop.gpuDirectRDMASupported %d\n", p.gpuDirectRDMASupported);
    fprintf(f, "prop.gpuDirectRDMAFlushWritesOptions %u\n", p.gpuDirectRDMAFlushWritesOptions);
    fprintf(f, "prop.gpuDirectRDMAWritesOrdering %d\n", p.gpuDirectRDMAWritesOrdering);
    fprintf(f, "prop.memoryPoolSupportedHandleTypes %u\n", p.memoryPoolSupportedHandleTypes);
    fprintf(f, "prop.deferredMappingCudaArraySupported %d\n", p.deferredMappingCudaArraySupported);
    fprintf(f, "prop.ipcEventSupported %d\n", p.ipcEventSupported);
    fprintf(f, "prop.clusterLaunch %d\n", p.clusterLaunch);
    fprintf(f, "prop.unifiedFunctionPointers %d\n", p.unifiedFunctionPointers);
    fprintf(f, "prop.deviceNumaConfig %d\n", p.deviceNumaConfig);
    fprintf(f, "prop.deviceNumaId %d\n", p.deviceNumaId);
    fprintf(f, "prop.mpsEnabled %d\n", p.mpsEnabled);
    fprintf(f, "prop.hostNumaId %d\n", p.hostNumaId);
    fprintf(f, "prop.gpuPciDeviceID %u\n", p.gpuPciDeviceID);
    fprintf(f, "prop.gpuPciSubsystemID %u\n", p.gpuPciSubsystemID);
    fprintf(f, "prop.hostNumaMultinodeIpcSupported %d\n", p.hostNumaMultinodeIpcSupported);
}

/* The line the runtime gives for a recorded line, or NULL when the line is not compared. */
static char *render_like(const char *recorded, const char *props_text) {
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);
    int num;
    char name[128];
    if (strncmp(recorded, "prop.uuid", 9) == 0 || strncmp(recorded, "prop.luid", 9) == 0) {
        fclose(f);
        free(line);
        return NULL; /* identify one physical board (uuid) or are Windows-only (luid) */
    } else if (strncmp(recorded, "prop.", 5) == 0) {
        size_t k = strcspn(recorded, " ");
        /* the same field's line in the rendering */
        const char *p = props_text;
        while (p && *p) {
            if (strncmp(p, recorded, k + 1) == 0) {
                fprintf(f, "%.*s", (int)strcspn(p, "\n"), p);
                break;
            }
            p = strchr(p, '\n');
            if (p)
                p++;
        }
    } else if (sscanf(recorded, "attr %d %127s", &num, name) == 2) {
        if (strstr(name, "Reserved")) {
            fclose(f);
            free(line);
            return NULL; /* placeholders in the enum, not properties */
        }
        int v = 0;
        cudaError_t e = cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)num, 0);
        if (e == cudaSuccess)
            fprintf(f, "attr %d %s %d", num, name, v);
        else
            fprintf(f, "attr %d %s error %s", num, name, cudaGetErrorName(e));
        cudaGetLastError();
    } else if (sscanf(recorded, "limit %d %127s", &num, name) == 2) {
        size_t v = 0;
        cudaError_t e = cudaDeviceGetLimit(&v, (enum cudaLimit)num);
        if (e == cudaSuccess)
            fprintf(f, "limit %d %s %zu", num, name, v);
        else
            fprintf(f, "limit %d %s error %s", num, name, cudaGetErrorName(e));
        cudaGetLastError();
    } else if (strncmp(recorded, "version.driver", 14) == 0) {
        int v = 0;
        cudaDriverGetVersion(&v);
        fprintf(f, "version.driver %d", v);
    } else if (strncmp(recorded, "version.runtime", 15) == 0) {
        int v = 0;
        cudaRuntimeGetVersion(&v);
        fprintf(f, "version.runtime %d", v);
    } else if (strncmp(recorded, "device_count", 12) == 0) {
        int n = 0;
        cudaGetDeviceCount(&n);
        fprintf(f, "device_count %d", n);
    } else if (strncmp(recorded, "meminfo.total", 13) == 0) {
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        fprintf(f, "meminfo.total %zu", total_b);
    } else if (strncmp(recorded, "sizeof.cudaDeviceProp", 21) == 0) {
        fprintf(f, "sizeof.cudaDeviceProp %zu", sizeof(struct cudaDeviceProp));
    }
    fclose(f);
    return line;
}

int main(void) {
    unsetenv("VCUDA_DEVICE");
    struct cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
        fprintf(stderr, "cudaGetDeviceProperties failed\n");
        return 1;
    }
    char *props = NULL;
    size_t plen = 0;
    FILE *pf = open_memstream(&props, &plen);
    render_props(pf, &p);
    fclose(pf);

    FILE *f = fopen(VCUDA_TEST_DIR "/data/h100/props.txt", "r");
    if (!f) {
        fprintf(stderr, "cannot read props.txt\n");
        return 1;
    }
    char recorded[512];
    int compared = 0;
    while (fgets(recorded, sizeof recorded, f)) {
        recorded[strcspn(recorded, "\n")] = 0;
        char *mine = render_like(recorded, props);
        if (!mine)
            continue;
        compared++;
        if (strcmp(mine, recorded) != 0) {
            fprintf(stderr, "H100: %s\nvcuda: %s\n", recorded, mine);
            failures++;
        }
        free(mine);
    }
    fclose(f);
    free(props);
    if (compared < 220) {
        fprintf(stderr, "only %d lines compared\n", compared);
        failures++;
    }
    if (failures) {
        fprintf(stderr, "test_gpu_runtime_props: %d difference(s) from the H100\n", failures);
        return 1;
    }
    printf("test_gpu_runtime_props: ok (%d values)\n", compared);
    return 0;
}
