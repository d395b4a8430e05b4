/* checkDeviceInfo — a deviceQuery-style report of the first CUDA device.
 *
 * Prints the properties a programmer sizes a launch by (compute capability, memory,
 * multiprocessors, per-block and per-SM limits, clocks, cache sizes). Every value comes
 * from cudaGetDeviceProperties or cudaDeviceGetAttribute, so on a given device model the
 * output is always the same; nothing machine-specific (PCI location, UUID) is printed.
 *
 * Usage: checkDeviceInfo [device]
 */
#include "common.h"

/* FP32 lanes per multiprocessor, by compute capability (the figure NVIDIA publishes for
 * each architecture); 0 when unknown. */
static int coresPerMultiprocessor(int major, int minor)
{
    static const struct { int major, minor, cores; } table[] = {
        {2, 0, 32},  {2, 1, 48},  {3, 0, 192}, {3, 5, 192}, {3, 7, 192}, {5, 0, 128},
        {5, 2, 128}, {5, 3, 128}, {6, 0, 64},  {6, 1, 128}, {6, 2, 128}, {7, 0, 64},
        {7, 2, 64},  {7, 5, 64},  {8, 0, 64},  {8, 6, 128}, {8, 7, 128}, {8, 9, 128},
        {9, 0, 128}, {10, 0, 128}, {12, 0, 128},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].major == major && table[i].minor == minor)
            return table[i].cores;
    return 0;
}

static const char *yesNo(int v) { return v ? "Yes" : "No"; }

int main(int argc, char **argv)
{
    printf("checkDeviceInfo: querying CUDA devices\n");

    int deviceCount = 0;
    CHECK(cudaGetDeviceCount(&deviceCount));
    if (deviceCount == 0) {
        printf("There is no device supporting CUDA\n");
        return EXIT_FAILURE;
    }
    printf("Detected %d CUDA capable device(s)\n", deviceCount);

    int dev = argc > 1 ? atoi(argv[1]) : 0;
    if (dev < 0 || dev >= deviceCount) {
        printf("No device %d\n", dev);
        return EXIT_FAILURE;
    }
    CHECK(cudaSetDevice(dev));

    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, dev));
    int driverVersion = 0, runtimeVersion = 0;
    CHECK(cudaDriverGetVersion(&driverVersion));
    CHECK(cudaRuntimeGetVersion(&runtimeVersion));
    /* Clock rates left cudaDeviceProp in CUDA 13; they are attributes now. */
    int clockKHz = 0, memClockKHz = 0;
    CHECK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, dev));
    CHECK(cudaDeviceGetAttribute(&memClockKHz, cudaDevAttrMemoryClockRate, dev));

    int cores = coresPerMultiprocessor(p.major, p.minor);

    printf("\nDevice %d: \"%s\"\n", dev, p.name);
    printf("  CUDA driver version / runtime version:           %d.%d / %d.%d\n",
           driverVersion / 1000, (driverVersion % 100) / 10,
           runtimeVersion / 1000, (runtimeVersion % 100) / 10);
    printf("  CUDA capability major/minor version number:      %d.%d\n", p.major, p.minor);
    printf("  Total amount of global memory:                   %.2f GiB (%llu bytes)\n",
           (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0),
           (unsigned long long)p.totalGlobalMem);
    printf("  Multiprocessors:                                 %d\n", p.multiProcessorCount);
    printf("  CUDA cores per multiprocessor / total:           %d / %d\n",
           cores, cores * p.multiProcessorCount);
    printf("  GPU max clock rate:                              %.0f MHz (%.2f GHz)\n",
           clockKHz * 1e-3, clockKHz * 1e-6);
    printf("  Memory clock rate:                               %.0f MHz\n", memClockKHz * 1e-3);
    printf("  Memory bus width:                                %d-bit\n", p.memoryBusWidth);
    printf("  L2 cache size:                                   %d bytes\n", p.l2CacheSize);
    printf("  Maximum persisting L2 cache size:                %d bytes\n",
           p.persistingL2CacheMaxSize);
    printf("  Total amount of constant memory:                 %llu bytes\n",
           (unsigned long long)p.totalConstMem);
    printf("  Shared memory per block:                         %llu bytes\n",
           (unsigned long long)p.sharedMemPerBlock);
    printf("  Shared memory per block (opt-in):                %llu bytes\n",
           (unsigned long long)p.sharedMemPerBlockOptin);
    printf("  Shared memory per multiprocessor:                %llu bytes\n",
           (unsigned long long)p.sharedMemPerMultiprocessor);
    printf("  Shared memory reserved per block:                %llu bytes\n",
           (unsigned long long)p.reservedSharedMemPerBlock);
    printf("  Registers per block:                             %d\n", p.regsPerBlock);
    printf("  Registers per multiprocessor:                    %d\n", p.regsPerMultiprocessor);
    printf("  Warp size:                                       %d\n", p.warpSize);
    printf("  Maximum threads per multiprocessor:              %d\n",
           p.maxThreadsPerMultiProcessor);
    printf("  Maximum threads per block:                       %d\n", p.maxThreadsPerBlock);
    printf("  Maximum blocks per multiprocessor:               %d\n",
           p.maxBlocksPerMultiProcessor);
    printf("  Maximum warps per multiprocessor:                %d\n",
           p.maxThreadsPerMultiProcessor / p.warpSize);
    printf("  Maximum block dimensions (x,y,z):                %d x %d x %d\n",
           p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
    printf("  Maximum grid dimensions (x,y,z):                 %d x %d x %d\n",
           p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    printf("  Maximum memory pitch:                            %llu bytes\n",
           (unsigned long long)p.memPitch);
    printf("  Texture alignment / pitch alignment:             %llu / %llu bytes\n",
           (unsigned long long)p.textureAlignment,
           (unsigned long long)p.texturePitchAlignment);
    printf("  Maximum 1D texture size:                         %d\n", p.maxTexture1D);
    printf("  Concurrent kernels:                              %s\n", yesNo(p.concurrentKernels));
    printf("  Copy engines (async engine count):               %d\n", p.asyncEngineCount);
    printf("  ECC enabled:                                     %s\n", yesNo(p.ECCEnabled));
    printf("  Integrated GPU:                                  %s\n", yesNo(p.integrated));
    printf("  Unified addressing:                              %s\n", yesNo(p.unifiedAddressing));
    printf("  Managed memory:                                  %s\n", yesNo(p.managedMemory));
    printf("  Cooperative launch:                              %s\n", yesNo(p.cooperativeLaunch));
    printf("  Thread block cluster launch:                     %s\n", yesNo(p.clusterLaunch));
    printf("  Global loads cached in L1 / local loads in L1:   %s / %s\n",
           yesNo(p.globalL1CacheSupported), yesNo(p.localL1CacheSupported));
    return EXIT_SUCCESS;
}
