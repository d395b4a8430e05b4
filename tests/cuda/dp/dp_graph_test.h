/* dp_graph_test.h — what the device graph launch tests (dpGraph*.cu) share: checks of the
 * host's calls (OK exits on an error, SHOW prints the error a call returned), graphs of
 * one-warp kernel nodes, instantiation for the host or the device, and a device log of
 * what ran, in order, and of what device-side launches returned, which the host prints
 * (so the output does not depend on timing). */
#ifndef DP_GRAPH_TEST_H
#define DP_GRAPH_TEST_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define OK(call)                                                                         \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            printf("FAILED line %d: %s: %s\n", __LINE__, #call, cudaGetErrorName(e_));   \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#define SHOW(label, call)                                                                \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        printf("%s: %s\n", label, cudaGetErrorName(e_));                                 \
        fflush(stdout);                                                                  \
    } while (0)

/* the log: values in the order kernels recorded them, and launch results by slot */
__device__ int g_log[64];
__device__ int g_nlog;
__device__ int g_err[8];

__device__ void logValue(int v) {
    int i = atomicAdd(&g_nlog, 1);
    if (i < 64) g_log[i] = v;
}

/* the log emptied (a test zeroes its own counters besides) */
static void resetLog() {
    int zero[64];
    memset(zero, 0, sizeof zero);
    OK(cudaMemcpyToSymbol(g_log, zero, sizeof zero));
    OK(cudaMemcpyToSymbol(g_nlog, zero, sizeof(int)));
    OK(cudaMemcpyToSymbol(g_err, zero, sizeof(int) * 8));
}

/* once the device is idle: "<what>: log v0 v1 ... | err0 <name> ..." (nerr launch results) */
static void showLog(const char *what, int nerr) {
    int n = 0, log[64], err[8];
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpyFromSymbol(&n, g_nlog, sizeof n));
    OK(cudaMemcpyFromSymbol(log, g_log, sizeof log));
    OK(cudaMemcpyFromSymbol(err, g_err, sizeof err));
    printf("%s: log", what);
    for (int i = 0; i < n && i < 64; i++) printf(" %d", log[i]);
    for (int i = 0; i < nerr; i++) printf(" | err%d %s", i, cudaGetErrorName((cudaError_t)err[i]));
    printf("\n");
    fflush(stdout);
}

/* a kernel node of one warp in g, after the ndeps nodes of deps */
static cudaGraphNode_t addKernel(cudaGraph_t g, const void *func, void **args,
                                 const cudaGraphNode_t *deps, size_t ndeps) {
    cudaKernelNodeParams k;
    memset(&k, 0, sizeof k);
    k.func = (void *)func;
    k.gridDim = dim3(1);
    k.blockDim = dim3(32);
    k.kernelParams = args;
    cudaGraphNode_t n;
    OK(cudaGraphAddKernelNode(&n, g, deps, ndeps, &k));
    return n;
}

/* a graph of that one kernel node */
static cudaGraph_t oneKernel(const void *func, void **args) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    addKernel(g, func, args, NULL, 0);
    return g;
}

/* g instantiated to be launched from the host, or from the device (then uploaded in s) */
static cudaGraphExec_t instantiate(cudaGraph_t g, bool device, cudaStream_t s) {
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, device ? cudaGraphInstantiateFlagDeviceLaunch : 0));
    if (device) OK(cudaGraphUpload(x, s));
    return x;
}

#endif
