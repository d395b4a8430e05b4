// bench/timing/suite_events.h — what the programs timed with CUDA events (suite_mm.cu,
// suite_mmback.cu) share: the error check, the saxpy they time, the timed launch that
// prints "L <n> <class> <case>" before it and "T <n> <ns>" (event time) after it, the host
// clock, and the set-up (line-buffered output, the events, and the cudaMalloc arrays of the
// reference saxpy, with one launch first so that the module is loaded).
#pragma once
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void k_warm(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.0f;
}
__global__ void k_saxpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

static int g_launch = 0;
static cudaEvent_t e0, e1;
#define TIMED(cls, name, launch) do { printf("L %d %s %s\n", g_launch, cls, name); \
    CK(cudaEventRecord(e0)); launch; CK(cudaGetLastError()); CK(cudaEventRecord(e1)); \
    CK(cudaEventSynchronize(e1)); float ms_; CK(cudaEventElapsedTime(&ms_, e0, e1)); \
    printf("T %d %.0f\n", g_launch++, ms_ * 1e6); } while (0)

static double now_ns()
{
    return (double)std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The set-up: da and db hold 2^maxlog floats each (the reference saxpy's cudaMalloc memory).
static void events_setup(int maxlog, float **da, float **db)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaMalloc(da, (sizeof(float) << maxlog)));
    CK(cudaMalloc(db, (sizeof(float) << maxlog)));
    k_warm<<<1, 32>>>(*da, 32);
    CK(cudaDeviceSynchronize());
}
