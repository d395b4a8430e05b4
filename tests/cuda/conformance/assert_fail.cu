// assert() in device code: a kernel whose assertion holds runs normally; one whose
// assertion fails in a single thread stops the launch with cudaErrorAssert, reported at
// the next synchronising call. The error is sticky: later allocations, copies and launches
// in the process fail with it too, while cudaGetLastError keeps returning it. The
// assertion message itself goes to stderr (not compared); stdout shows the error codes.
#include <cstdio>
#include <cstdlib>
#include <cassert>
#include <cuda_runtime.h>

__global__ void checkPositive(const int *v, int n, int *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(v[i] > 0);
        atomicAdd(sum, v[i]);
    }
}

static void report(const char *what, cudaError_t e)
{
    printf("%-34s -> %d %s\n", what, (int)e, cudaGetErrorName(e));
}

int main()
{
    const int n = 1000;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i + 1;
    int *dv, *dsum, sum = 0;
    report("cudaMalloc", cudaMalloc(&dv, sizeof h));
    report("cudaMalloc sum", cudaMalloc(&dsum, sizeof(int)));
    report("cudaMemcpy", cudaMemcpy(dv, h, sizeof h, cudaMemcpyHostToDevice));
    report("cudaMemset", cudaMemset(dsum, 0, sizeof(int)));
    checkPositive<<<4, 256>>>(dv, n, dsum);
    report("launch (assertions hold)", cudaGetLastError());
    report("cudaDeviceSynchronize", cudaDeviceSynchronize());
    report("cudaMemcpy sum", cudaMemcpy(&sum, dsum, sizeof sum, cudaMemcpyDeviceToHost));
    printf("sum = %d\n", sum);

    h[517] = -5;    // exactly one thread fails its assertion
    report("cudaMemcpy bad data", cudaMemcpy(dv, h, sizeof h, cudaMemcpyHostToDevice));
    checkPositive<<<4, 256>>>(dv, n, dsum);
    report("launch (one assertion fails)", cudaGetLastError());
    report("cudaDeviceSynchronize", cudaDeviceSynchronize());
    report("cudaPeekAtLastError", cudaPeekAtLastError());
    report("cudaGetLastError", cudaGetLastError());
    report("cudaGetLastError again", cudaGetLastError());
    report("cudaMemcpy after assert", cudaMemcpy(&sum, dsum, sizeof sum, cudaMemcpyDeviceToHost));
    int *more = nullptr;
    report("cudaMalloc after assert", cudaMalloc(&more, 16));
    checkPositive<<<1, 32>>>(dv, 32, dsum);
    report("launch after assert", cudaGetLastError());
    report("cudaDeviceSynchronize again", cudaDeviceSynchronize());
    int dev = -1;
    report("cudaGetDevice", cudaGetDevice(&dev));
    printf("device %d\n", dev);
    printf("error string: %s\n", cudaGetErrorString(cudaErrorAssert));
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 3;
}
