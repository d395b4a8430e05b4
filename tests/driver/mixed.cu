// tests/driver/mixed.cu — a program that mixes the runtime and driver APIs, as libraries
// built on either one do: the runtime's primary context is the driver's, memory from
// cudaMalloc goes to cuLaunchKernel and memory from cuMemAlloc to a <<<>>> launch, a
// runtime stream orders driver work, and driver errors leave cudaGetLastError alone.
// Usage: mixed <kernels.ptx>
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "cu_check.h"
#define RT(call)                                                                           \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            printf("%s failed: %s at line %d\n", #call, cudaGetErrorName(e_), __LINE__);   \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

__global__ void doubleIt(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    RT(cudaSetDevice(0));
    RT(cudaFree(0)); // the runtime makes the primary context current
    CU(cuInit(0));
    CUcontext current = NULL, primary = NULL;
    CU(cuCtxGetCurrent(&current));
    CU(cuDevicePrimaryCtxRetain(&primary, 0));
    printf("runtime's context is the primary context: %s\n", current == primary ? "yes" : "no");
    unsigned flags;
    int active;
    CU(cuDevicePrimaryCtxGetState(0, &flags, &active));
    printf("primary context active: %d\n", active);

    CUmodule mod;
    CU(cuModuleLoad(&mod, argv[1]));
    CUfunction vecAdd;
    CU(cuModuleGetFunction(&vecAdd, mod, "vecAdd"));

    const int n = 3000;
    size_t bytes = n * sizeof(float);
    float *h = (float *)malloc(bytes * 3);
    for (int i = 0; i < n; i++) h[i] = (float)i, h[n + i] = 1.0f;
    // runtime memory, driver launch on a runtime stream
    float *a, *b, *c;
    RT(cudaMalloc(&a, bytes));
    RT(cudaMalloc(&b, bytes));
    RT(cudaMalloc(&c, bytes));
    cudaStream_t stream;
    RT(cudaStreamCreate(&stream));
    RT(cudaMemcpyAsync(a, h, bytes, cudaMemcpyHostToDevice, stream));
    RT(cudaMemcpyAsync(b, h + n, bytes, cudaMemcpyHostToDevice, stream));
    int nn = n;
    void *args[] = {&a, &b, &c, &nn};
    CU(cuLaunchKernel(vecAdd, (n + 255) / 256, 1, 1, 256, 1, 1, 0, (CUstream)stream, args, NULL));
    doubleIt<<<(n + 255) / 256, 256, 0, stream>>>(c, n); // ordered after it on the stream
    RT(cudaMemcpyAsync(h + 2 * n, c, bytes, cudaMemcpyDeviceToHost, stream));
    CU(cuStreamSynchronize((CUstream)stream));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[2 * n + i] != 2.0f * (i + 1.0f);
    printf("runtime memory, driver then runtime launch on one stream: %d mismatches\n", bad);

    // driver memory, runtime launch, driver copy back
    CUdeviceptr d;
    CU(cuMemAlloc(&d, bytes));
    CU(cuMemcpyHtoD(d, h, bytes));
    doubleIt<<<(n + 255) / 256, 256>>>((float *)d, n);
    RT(cudaGetLastError());
    CU(cuMemcpyDtoH(h + 2 * n, d, bytes));
    bad = 0;
    for (int i = 0; i < n; i++) bad += h[2 * n + i] != 2.0f * i;
    printf("driver memory, runtime launch: %d mismatches\n", bad);

    // what each API knows of the other's memory
    CUdeviceptr base;
    size_t size;
    CU(cuMemGetAddressRange(&base, &size, (CUdeviceptr)(b + 10)));
    printf("cuMemGetAddressRange of cudaMalloc memory: offset %d, size %zu\n",
           (int)((CUdeviceptr)(b + 10) - base), size);
    struct cudaPointerAttributes pa;
    RT(cudaPointerGetAttributes(&pa, (void *)d));
    printf("cudaPointerGetAttributes of cuMemAlloc memory: type %d, device %d\n", (int)pa.type,
           pa.device);
    unsigned memtype = 0;
    CU(cuPointerGetAttribute(&memtype, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)a));
    printf("cuPointerGetAttribute of cudaMalloc memory: memory type %u\n", memtype);

    // events of one API, waited on by the other
    cudaEvent_t done;
    RT(cudaEventCreate(&done));
    CU(cuMemsetD32Async(d, 0x3f800000u, n, (CUstream)stream)); // 1.0f
    CU(cuEventRecord((CUevent)done, (CUstream)stream));
    RT(cudaEventSynchronize(done));
    CU(cuMemcpyDtoH(h, d, sizeof(float) * 4));
    printf("cuMemsetD32Async, cuEventRecord, cudaEventSynchronize: %.1f %.1f\n", h[0], h[3]);

    // a driver error is not the runtime's last error
    CUdeviceptr none;
    CUresult r = cuMemAlloc(&none, 0);
    printf("cuMemAlloc of 0 bytes: %d; cudaGetLastError after it: %s\n", (int)r,
           cudaGetErrorName(cudaGetLastError()));

    RT(cudaEventDestroy(done));
    RT(cudaStreamDestroy(stream));
    CU(cuMemFree(d));
    RT(cudaFree(a));
    RT(cudaFree(b));
    RT(cudaFree(c));
    CU(cuModuleUnload(mod));
    CU(cuDevicePrimaryCtxRelease(0));
    free(h);
    printf("done\n");
    return 0;
}
