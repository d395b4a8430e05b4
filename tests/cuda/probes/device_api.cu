/* device_api.cu — device selection, versions, limits, flags and configuration calls. */
#include "probe.h"
#include <cuda_profiler_api.h>

__global__ void k(int *p) { if (p) *p = 1; }

int main() {
    unsigned int flags = 12345;
    SHOW("cudaGetDeviceFlags (before init)", cudaGetDeviceFlags(&flags));
    printf("flags 0x%x\n", flags);
    int n = -1;
    SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&n));
    printf("count %d\n", n);
    SHOW("cudaGetDeviceCount(NULL)", cudaGetDeviceCount(nullptr));
    SHOW("cudaSetDevice(7)", cudaSetDevice(7));
    SHOW_LAST("  last");
    SHOW("cudaSetDevice(1)", cudaSetDevice(1));
    SHOW("cudaSetDevice(-1)", cudaSetDevice(-1));
    SHOW("cudaSetDevice(0)", cudaSetDevice(0));
    int dev = -1;
    SHOW("cudaGetDevice", cudaGetDevice(&dev));
    printf("device %d\n", dev);
    SHOW("cudaGetDevice(NULL)", cudaGetDevice(nullptr));
    cudaDeviceProp prop;
    SHOW("cudaGetDeviceProperties(7)", cudaGetDeviceProperties(&prop, 7));
    SHOW("cudaGetDeviceProperties(-1)", cudaGetDeviceProperties(&prop, -1));
    SHOW("cudaGetDeviceProperties(NULL)", cudaGetDeviceProperties(nullptr, 0));
    int v = -1;
    SHOW("cudaDeviceGetAttribute(dev 7)", cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 7));
    SHOW("cudaDeviceGetAttribute(attr 0)", cudaDeviceGetAttribute(&v, (cudaDeviceAttr)0, 0));
    SHOW("cudaDeviceGetAttribute(attr 9999)", cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9999, 0));
    SHOW("cudaDeviceGetAttribute(NULL)", cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0));
    SHOW_LAST("  last");

    int rv = 0, dv = 0;
    SHOW("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&rv));
    SHOW("cudaDriverGetVersion", cudaDriverGetVersion(&dv));
    printf("runtime %d driver %d\n", rv, dv);
    SHOW("cudaRuntimeGetVersion(NULL)", cudaRuntimeGetVersion(nullptr));
    SHOW("cudaDriverGetVersion(NULL)", cudaDriverGetVersion(nullptr));

    const cudaLimit limits[] = {cudaLimitStackSize, cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize,
                                cudaLimitDevRuntimeSyncDepth, cudaLimitDevRuntimePendingLaunchCount,
                                cudaLimitMaxL2FetchGranularity, cudaLimitPersistingL2CacheSize};
    for (cudaLimit l : limits) {
        size_t val = 777;
        cudaError_t e = cudaDeviceGetLimit(&val, l);
        printf("limit %d: %s value %zu\n", (int)l, en(e), val);
    }
    size_t val = 0;
    SHOW("cudaDeviceGetLimit(99)", cudaDeviceGetLimit(&val, (cudaLimit)99));
    SHOW("cudaDeviceGetLimit(NULL)", cudaDeviceGetLimit(nullptr, cudaLimitStackSize));
    const size_t stack_sizes[] = {1000, 4096, 0, 1};
    for (size_t s : stack_sizes) {
        cudaError_t e = cudaDeviceSetLimit(cudaLimitStackSize, s);
        cudaDeviceGetLimit(&val, cudaLimitStackSize);
        printf("set stack %zu: %s now %zu\n", s, en(e), val);
    }
    const size_t fifo_sizes[] = {1000, 4 << 20, 0};
    for (size_t s : fifo_sizes) {
        cudaError_t e = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, s);
        cudaDeviceGetLimit(&val, cudaLimitPrintfFifoSize);
        printf("set printf fifo %zu: %s now %zu\n", s, en(e), val);
    }
    const size_t heap_sizes[] = {1000, 64 << 20};
    for (size_t s : heap_sizes) {
        cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, s);
        cudaDeviceGetLimit(&val, cudaLimitMallocHeapSize);
        printf("set malloc heap %zu: %s now %zu\n", s, en(e), val);
    }
    const size_t gran[] = {0, 32, 33, 64, 128, 256};
    for (size_t s : gran) {
        cudaError_t e = cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, s);
        cudaDeviceGetLimit(&val, cudaLimitMaxL2FetchGranularity);
        printf("set L2 fetch granularity %zu: %s now %zu\n", s, en(e), val);
    }
    SHOW("cudaDeviceSetLimit(99)", cudaDeviceSetLimit((cudaLimit)99, 1));
    SHOW_LAST("  last");

    SHOW("cudaGetDeviceFlags", cudaGetDeviceFlags(&flags));
    printf("flags 0x%x\n", flags);
    SHOW("cudaSetDeviceFlags(BlockingSync)", cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    SHOW("cudaGetDeviceFlags", cudaGetDeviceFlags(&flags));
    printf("flags 0x%x\n", flags);
    SHOW("cudaSetDeviceFlags(MapHost|Spin)", cudaSetDeviceFlags(cudaDeviceMapHost | cudaDeviceScheduleSpin));
    SHOW("cudaGetDeviceFlags", cudaGetDeviceFlags(&flags));
    printf("flags 0x%x\n", flags);
    SHOW("cudaSetDeviceFlags(0xffff)", cudaSetDeviceFlags(0xffff));
    SHOW("cudaSetDeviceFlags(Spin|Yield)", cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield));
    SHOW("cudaGetDeviceFlags(NULL)", cudaGetDeviceFlags(nullptr));
    SHOW_LAST("  last");

    int can = -1;
    SHOW("cudaDeviceCanAccessPeer(0,0)", cudaDeviceCanAccessPeer(&can, 0, 0));
    printf("can %d\n", can);
    SHOW("cudaDeviceCanAccessPeer(0,1)", cudaDeviceCanAccessPeer(&can, 0, 1));
    SHOW("cudaDeviceEnablePeerAccess(0)", cudaDeviceEnablePeerAccess(0, 0));
    SHOW_LAST("  last");
    int chosen = -1;
    memset(&prop, 0, sizeof prop);
    prop.major = 9;
    SHOW("cudaChooseDevice", cudaChooseDevice(&chosen, &prop));
    printf("chosen %d\n", chosen);
    SHOW("cudaChooseDevice(NULL prop)", cudaChooseDevice(&chosen, nullptr));
    int lo = 99, hi = 99;
    SHOW("cudaDeviceGetStreamPriorityRange", cudaDeviceGetStreamPriorityRange(&lo, &hi));
    printf("least %d greatest %d\n", lo, hi);
    SHOW("cudaDeviceGetStreamPriorityRange(NULL,NULL)", cudaDeviceGetStreamPriorityRange(nullptr, nullptr));

    cudaFuncCache cc;
    SHOW("cudaDeviceGetCacheConfig", cudaDeviceGetCacheConfig(&cc));
    printf("cache config %d\n", (int)cc);
    SHOW("cudaDeviceSetCacheConfig(PreferShared)", cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    SHOW("cudaDeviceGetCacheConfig", cudaDeviceGetCacheConfig(&cc));
    printf("cache config %d\n", (int)cc);
    SHOW("cudaDeviceSetCacheConfig(9)", cudaDeviceSetCacheConfig((cudaFuncCache)9));
    cudaSharedMemConfig sc;
    SHOW("cudaDeviceGetSharedMemConfig", cudaDeviceGetSharedMemConfig(&sc));
    printf("shared mem config %d\n", (int)sc);
    SHOW("cudaDeviceSetSharedMemConfig(8 byte)", cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
    SHOW("cudaDeviceGetSharedMemConfig", cudaDeviceGetSharedMemConfig(&sc));
    printf("shared mem config %d\n", (int)sc);
    SHOW("cudaDeviceSetSharedMemConfig(7)", cudaDeviceSetSharedMemConfig((cudaSharedMemConfig)7));
    SHOW("cudaFuncSetCacheConfig(k, PreferL1)", cudaFuncSetCacheConfig(k, cudaFuncCachePreferL1));
    SHOW("cudaFuncSetCacheConfig(k, 9)", cudaFuncSetCacheConfig(k, (cudaFuncCache)9));
    SHOW("cudaFuncSetCacheConfig(NULL)", cudaFuncSetCacheConfig((const void *)nullptr, cudaFuncCachePreferL1));
    SHOW("cudaFuncSetSharedMemConfig(k)", cudaFuncSetSharedMemConfig(k, cudaSharedMemBankSizeFourByte));
    SHOW_LAST("  last");

    SHOW("cudaProfilerStart", cudaProfilerStart());
    SHOW("cudaProfilerStop", cudaProfilerStop());
    k<<<1, 1>>>(nullptr);
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    SHOW("cudaDeviceReset", cudaDeviceReset());
    SHOW("cudaGetDeviceFlags after reset", cudaGetDeviceFlags(&flags));
    printf("flags 0x%x\n", flags);
    cudaDeviceGetLimit(&val, cudaLimitStackSize);
    printf("stack after reset %zu\n", val);
    SHOW("cudaGetDevice after reset", cudaGetDevice(&dev));
    SHOW("cudaDeviceReset twice", cudaDeviceReset());
    SHOW_LAST("end");
    return 0;
}
