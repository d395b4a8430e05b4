// Device limits and cache settings as an application tunes them: the default of every
// cudaLimit, values set and read back (rounded as the device rounds them), limits the
// device refuses, the cache and shared-memory configuration calls, and a kernel that
// needs the larger stack and printf buffer it asked for.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__device__ __noinline__ int deep(int n, volatile int *scratch)
{
    volatile int buf[64];
    for (int i = 0; i < 64; i++) buf[i] = n + i;
    if (n == 0) return buf[3];
    return deep(n - 1, scratch) + buf[n % 64];
}

__global__ void useStack(int depth, int *out) { *out = deep(depth, nullptr); }

__global__ void chatty(int lines)
{
    for (int i = 0; i < lines; i++)
        if (threadIdx.x == 0) printf("line %d of %d\n", i, lines);
}

static void show(const char *name, cudaLimit l)
{
    size_t v = 0;
    cudaError_t e = cudaDeviceGetLimit(&v, l);
    printf("%-34s %-24s %zu\n", name, cudaGetErrorName(e), v);
}

static void setShow(const char *name, cudaLimit l, size_t v)
{
    cudaError_t e = cudaDeviceSetLimit(l, v);
    size_t got = 0;
    cudaError_t e2 = cudaDeviceGetLimit(&got, l);
    printf("set %-30s %-10zu -> %-24s read %zu (%s)\n", name, v, cudaGetErrorName(e), got, cudaGetErrorName(e2));
    cudaGetLastError();
}

int main()
{
    show("cudaLimitStackSize", cudaLimitStackSize);
    show("cudaLimitPrintfFifoSize", cudaLimitPrintfFifoSize);
    show("cudaLimitMallocHeapSize", cudaLimitMallocHeapSize);
    show("cudaLimitDevRuntimeSyncDepth", cudaLimitDevRuntimeSyncDepth);
    show("cudaLimitDevRuntimePendingLaunchCount", cudaLimitDevRuntimePendingLaunchCount);
    show("cudaLimitMaxL2FetchGranularity", cudaLimitMaxL2FetchGranularity);
    show("cudaLimitPersistingL2CacheSize", cudaLimitPersistingL2CacheSize);
    show("bad limit 99", (cudaLimit)99);
    cudaGetLastError();

    setShow("cudaLimitStackSize", cudaLimitStackSize, 1000);
    setShow("cudaLimitStackSize", cudaLimitStackSize, 16 * 1024);
    setShow("cudaLimitPrintfFifoSize", cudaLimitPrintfFifoSize, 3000000);
    setShow("cudaLimitMallocHeapSize", cudaLimitMallocHeapSize, 12345678);
    setShow("cudaLimitDevRuntimePendingLaunchCount", cudaLimitDevRuntimePendingLaunchCount, 5000);
    setShow("cudaLimitMaxL2FetchGranularity", cudaLimitMaxL2FetchGranularity, 64);
    setShow("cudaLimitMaxL2FetchGranularity", cudaLimitMaxL2FetchGranularity, 100);
    setShow("cudaLimitMaxL2FetchGranularity", cudaLimitMaxL2FetchGranularity, 256);
    setShow("cudaLimitPersistingL2CacheSize", cudaLimitPersistingL2CacheSize, 1 << 20);
    setShow("cudaLimitPersistingL2CacheSize", cudaLimitPersistingL2CacheSize, 1000000);
    setShow("cudaLimitPersistingL2CacheSize", cudaLimitPersistingL2CacheSize, (size_t)1 << 40);
    int maxPersist = 0;
    CK(cudaDeviceGetAttribute(&maxPersist, cudaDevAttrMaxPersistingL2CacheSize, 0));
    printf("max persisting L2 %d\n", maxPersist);

    cudaFuncCache cc;
    CK(cudaDeviceGetCacheConfig(&cc));
    printf("cache config %d\n", (int)cc);
    CK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
    CK(cudaDeviceGetCacheConfig(&cc));
    printf("cache config after PreferL1 %d\n", (int)cc);
    cudaError_t e = cudaDeviceSetCacheConfig((cudaFuncCache)9);
    printf("cache config 9: %s\n", cudaGetErrorName(e));
    cudaGetLastError();

    int *o, h = 0;
    CK(cudaMalloc(&o, 4));
    useStack<<<1, 1>>>(40, o);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&h, o, 4, cudaMemcpyDeviceToHost));
    printf("recursion of depth 40 with the 16 KB stack: %d\n", h);
    chatty<<<1, 32>>>(5);
    CK(cudaDeviceSynchronize());
    size_t v;
    CK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
    printf("stack limit after the launches %zu\n", v);
    return 0;
}
