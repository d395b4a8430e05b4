// Host memory the device reaches directly: cudaSetDeviceFlags(cudaDeviceMapHost) before the
// context exists, cudaHostRegister of an ordinary malloc'd buffer (mapped and portable),
// cudaHostGetDevicePointer and cudaHostGetFlags, a kernel writing to registered memory the
// host reads without a copy, cudaHostAlloc with write-combining, registration errors
// (twice, unregistered pointer), and cudaHostUnregister.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void square(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i];
}

__global__ void countDown(volatile int *flagHost, int *result)
{
    // the host set the flag before the launch; the kernel sees it through the mapping
    *result = *flagHost * 2;
    *flagHost = -1;
}

int main()
{
    CK(cudaSetDeviceFlags(cudaDeviceMapHost | cudaDeviceScheduleBlockingSync));
    unsigned flags = 0;
    CK(cudaGetDeviceFlags(&flags));
    printf("device flags: mapHost %d blockingSync %d\n", (flags & cudaDeviceMapHost) != 0,
           (flags & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync);
    int canMap = 0, unified = 0;
    CK(cudaDeviceGetAttribute(&canMap, cudaDevAttrCanMapHostMemory, 0));
    CK(cudaDeviceGetAttribute(&unified, cudaDevAttrUnifiedAddressing, 0));
    printf("canMapHostMemory %d unifiedAddressing %d\n", canMap, unified);

    const int n = 4096;
    // page-aligned and not: registration takes any range
    int *in = (int *)malloc(n * sizeof(int) + 12), *out = (int *)aligned_alloc(4096, n * sizeof(int));
    int *inOdd = (int *)((char *)in + 12 - 12);
    for (int i = 0; i < n; i++) inOdd[i] = i - 2000;
    memset(out, 0, n * sizeof(int));
    CK(cudaHostRegister(inOdd, n * sizeof(int), cudaHostRegisterMapped | cudaHostRegisterPortable));
    CK(cudaHostRegister(out, n * sizeof(int), cudaHostRegisterMapped));
    unsigned hf = 0;
    CK(cudaHostGetFlags(&hf, inOdd));
    printf("flags of the registered input: %u\n", hf);
    int *din, *dout;
    CK(cudaHostGetDevicePointer((void **)&din, inOdd, 0));
    CK(cudaHostGetDevicePointer((void **)&dout, out, 0));
    printf("device pointer equals host pointer: %s\n", din == inOdd && dout == out ? "yes" : "no");
    square<<<n / 256, 256>>>(din, dout, n);
    CK(cudaDeviceSynchronize());
    long long s = 0;
    for (int i = 0; i < n; i++) s += out[i];
    printf("sum of squares through mapped memory %lld, out[0]=%d out[n-1]=%d\n", s, out[0], out[n - 1]);

    cudaPointerAttributes pa;
    CK(cudaPointerGetAttributes(&pa, out));
    printf("registered memory: type %d\n", (int)pa.type);
    int x = 0;
    CK(cudaPointerGetAttributes(&pa, &x));
    printf("stack variable: type %d\n", (int)pa.type);

    cudaError_t e = cudaHostRegister(out, n * sizeof(int), cudaHostRegisterMapped);
    printf("register twice: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    e = cudaHostUnregister(&x);
    printf("unregister a pointer never registered: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    e = cudaHostGetDevicePointer((void **)&din, &x, 0);
    printf("device pointer of unregistered memory: %s\n", cudaGetErrorName(e));
    cudaGetLastError();

    int *wc, *dwc, *res, hres;
    CK(cudaHostAlloc(&wc, sizeof(int), cudaHostAllocMapped | cudaHostAllocWriteCombined));
    CK(cudaHostGetFlags(&hf, wc));
    printf("write-combined allocation flags: %u\n", hf);
    *wc = 21;
    CK(cudaHostGetDevicePointer((void **)&dwc, wc, 0));
    CK(cudaMalloc(&res, sizeof(int)));
    countDown<<<1, 1>>>(dwc, res);
    CK(cudaMemcpy(&hres, res, sizeof(int), cudaMemcpyDeviceToHost));
    printf("kernel read %d, host now sees %d\n", hres, *(volatile int *)wc);

    CK(cudaHostUnregister(inOdd));
    CK(cudaHostUnregister(out));
    e = cudaHostGetFlags(&hf, out);
    printf("flags after unregister: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CK(cudaFreeHost(wc));
    CK(cudaFree(res));
    free(in);
    free(out);
    return 0;
}
