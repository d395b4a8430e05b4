/* sticky.cu — after a device fault, which calls return the fault and which still answer. */
#include "probe.h"
#include <cuda_profiler_api.h>

__device__ int dsym[4];
__global__ void k_ok(int *p) { if (p) p[threadIdx.x] = 1; }
__global__ void k_misaligned(int *p) { if (threadIdx.x == 0) *(volatile int *)((char *)p + 1) = 1; }
static void CUDART_CB host_fn(void *) {}

int main() {
    int *d = nullptr, h[4] = {0};
    cudaStream_t s;
    cudaEvent_t a, b;
    SHOW("setup cudaMalloc", cudaMalloc(&d, 256));
    SHOW("setup cudaStreamCreate", cudaStreamCreate(&s));
    SHOW("setup cudaEventCreate a", cudaEventCreate(&a));
    SHOW("setup cudaEventCreate b", cudaEventCreate(&b));
    cudaEventRecord(a, 0);
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    char *pinned = nullptr;
    SHOW("setup cudaMallocHost", cudaMallocHost((void **)&pinned, 64));
    k_misaligned<<<1, 32>>>(d);
    SHOW("cudaDeviceSynchronize (fault)", cudaDeviceSynchronize());
    SHOW_LAST("after fault");

    int v = 0;
    size_t sz = 0, fr = 0, tot = 0;
    unsigned int flags = 0;
    float ms = 0;
    cudaDeviceProp prop;
    cudaFuncAttributes fa;
    cudaPointerAttributes pa;
    void *p = nullptr;
    int lo, hi;
    SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&v));
    SHOW("cudaGetDevice", cudaGetDevice(&v));
    SHOW("cudaSetDevice(0)", cudaSetDevice(0));
    SHOW("cudaGetDeviceProperties", cudaGetDeviceProperties(&prop, 0));
    SHOW("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    SHOW("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&v));
    SHOW("cudaDriverGetVersion", cudaDriverGetVersion(&v));
    SHOW("cudaGetDeviceFlags", cudaGetDeviceFlags(&flags));
    SHOW("cudaSetDeviceFlags", cudaSetDeviceFlags(cudaDeviceScheduleAuto));
    SHOW("cudaChooseDevice", cudaChooseDevice(&v, &prop));
    SHOW("cudaDeviceCanAccessPeer", cudaDeviceCanAccessPeer(&v, 0, 0));
    SHOW("cudaDeviceGetLimit", cudaDeviceGetLimit(&sz, cudaLimitStackSize));
    SHOW("cudaDeviceSetLimit", cudaDeviceSetLimit(cudaLimitStackSize, 2048));
    SHOW("cudaDeviceGetCacheConfig", cudaDeviceGetCacheConfig((cudaFuncCache *)&v));
    SHOW("cudaDeviceSetCacheConfig", cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
    SHOW("cudaDeviceGetStreamPriorityRange", cudaDeviceGetStreamPriorityRange(&lo, &hi));
    SHOW("cudaMemGetInfo", cudaMemGetInfo(&fr, &tot));
    SHOW("cudaFuncGetAttributes", cudaFuncGetAttributes(&fa, k_ok));
    SHOW("cudaFuncSetAttribute", cudaFuncSetAttribute(k_ok, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
    SHOW("cudaFuncSetCacheConfig", cudaFuncSetCacheConfig(k_ok, cudaFuncCachePreferL1));
    SHOW("cudaOccupancyMaxActiveBlocksPerMultiprocessor", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, k_ok, 128, 0));
    SHOW("cudaPointerGetAttributes", cudaPointerGetAttributes(&pa, d));
    SHOW("cudaGetSymbolAddress", cudaGetSymbolAddress(&p, dsym));
    SHOW("cudaGetSymbolSize", cudaGetSymbolSize(&sz, dsym));
    SHOW("cudaMemcpyToSymbol", cudaMemcpyToSymbol(dsym, h, 16));
    SHOW("cudaMemcpyAsync", cudaMemcpyAsync(d, pinned, 16, cudaMemcpyHostToDevice, s));
    SHOW("cudaMemsetAsync", cudaMemsetAsync(d, 0, 16, s));
    SHOW("cudaMallocHost", cudaMallocHost(&p, 64));
    SHOW("cudaHostAlloc", cudaHostAlloc(&p, 64, 0));
    SHOW("cudaFreeHost", cudaFreeHost(pinned));
    SHOW("cudaHostRegister", cudaHostRegister(h, sizeof h, 0));
    SHOW("cudaMallocManaged", cudaMallocManaged(&p, 64, cudaMemAttachGlobal));
    SHOW("cudaMallocPitch", cudaMallocPitch(&p, &sz, 64, 2));
    SHOW("cudaStreamQuery", cudaStreamQuery(s));
    SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
    SHOW("cudaStreamWaitEvent", cudaStreamWaitEvent(s, a, 0));
    SHOW("cudaLaunchHostFunc", cudaLaunchHostFunc(s, host_fn, nullptr));
    SHOW("cudaEventRecord", cudaEventRecord(a, s));
    SHOW("cudaEventQuery", cudaEventQuery(b));
    SHOW("cudaEventSynchronize", cudaEventSynchronize(b));
    SHOW("cudaEventElapsedTime", cudaEventElapsedTime(&ms, a, b));
    SHOW("cudaEventDestroy", cudaEventDestroy(b));
    SHOW("cudaStreamDestroy", cudaStreamDestroy(s));
    SHOW("cudaProfilerStart", cudaProfilerStart());
    k_ok<<<1, 1025>>>(d);
    SHOW_LAST("bad launch config after fault");
    SHOW("cudaLaunchKernel(NULL)", cudaLaunchKernel((const void *)nullptr, dim3(1), dim3(1), nullptr, 0, 0));
    SHOW("cudaGetErrorName still works", strcmp(cudaGetErrorName(cudaErrorAssert), "cudaErrorAssert") ? cudaErrorUnknown : cudaSuccess);
    SHOW_LAST("end");
    return 0;
}
