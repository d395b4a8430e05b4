// An out-of-bounds global access far outside any allocation faults the kernel with
// cudaErrorIllegalAddress. The fault is sticky: the context is unusable afterwards, so
// every later call that touches the device (malloc, memcpy, memset, launch, synchronise,
// event and stream creation) returns the same error, cudaGetLastError does not clear it,
// and calls that only ask about the device still succeed. Before the fault, a launch
// with an in-bounds access and one with a small overrun inside the same allocation's
// slack run normally.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void writeAt(int *p, long long offset, int value)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) p[offset] = value;
}

__global__ void readAt(const int *p, long long offset, int *out)
{
    if (threadIdx.x == 0) *out = p[offset];
}

static void report(const char *what, cudaError_t e)
{
    printf("%-30s -> %d %s\n", what, (int)e, cudaGetErrorName(e));
}

int main()
{
    int *d, *out, h = 0;
    report("cudaMalloc", cudaMalloc(&d, 1024 * sizeof(int)));
    report("cudaMalloc out", cudaMalloc(&out, sizeof(int)));
    writeAt<<<1, 32>>>(d, 1023, 77);
    report("in-bounds launch", cudaGetLastError());
    report("sync", cudaDeviceSynchronize());
    readAt<<<1, 32>>>(d, 1023, out);
    report("sync", cudaDeviceSynchronize());
    report("cudaMemcpy", cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
    printf("read back %d\n", h);

    writeAt<<<1, 32>>>(d, 1LL << 36, 1);     // 256 GiB past the allocation
    report("faulting launch", cudaGetLastError());
    report("sync after fault", cudaDeviceSynchronize());
    report("cudaPeekAtLastError", cudaPeekAtLastError());
    report("cudaGetLastError", cudaGetLastError());
    report("cudaGetLastError again", cudaGetLastError());
    report("sync again", cudaDeviceSynchronize());
    int *e2 = nullptr;
    report("cudaMalloc", cudaMalloc(&e2, 64));
    report("cudaMemcpy H2D", cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    report("cudaMemset", cudaMemset(d, 0, 16));
    writeAt<<<1, 1>>>(d, 0, 5);
    report("launch after fault", cudaGetLastError());
    cudaEvent_t ev;
    report("cudaEventCreate", cudaEventCreate(&ev));
    cudaStream_t st;
    report("cudaStreamCreate", cudaStreamCreate(&st));
    int count = 0;
    report("cudaGetDeviceCount", cudaGetDeviceCount(&count));
    cudaDeviceProp prop;
    report("cudaGetDeviceProperties", cudaGetDeviceProperties(&prop, 0));
    printf("devices %d, compute capability %d.%d\n", count, prop.major, prop.minor);
    report("cudaFree", cudaFree(d));
    return 0;
}
