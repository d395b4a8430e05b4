// What the runtime API returns for misuse an application meets while being written: a bad
// device number, impossible allocations, frees of pointers it never gave out, copies with
// null or mismatched pointers, events used wrongly, symbols and functions that are not
// what they should be, and which of these errors stick (none: the context stays usable).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static int step = 0;
static void show(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%2d %-44s %-32s last=%s\n", ++step, what, cudaGetErrorName(e), cudaGetErrorName(last));
}

__device__ int devVar[16];
__constant__ float constVar[8];

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

int main()
{
    int count = -1;
    show("cudaGetDeviceCount", cudaGetDeviceCount(&count));
    show("cudaSetDevice(count)", cudaSetDevice(count));
    show("cudaSetDevice(-1)", cudaSetDevice(-1));
    int attr = 0;
    show("cudaDeviceGetAttribute(bad attr)", cudaDeviceGetAttribute(&attr, (cudaDeviceAttr)9999, 0));
    show("cudaDeviceGetAttribute(bad device)", cudaDeviceGetAttribute(&attr, cudaDevAttrWarpSize, 42));
    cudaDeviceProp prop;
    show("cudaGetDeviceProperties(bad device)", cudaGetDeviceProperties(&prop, 42));

    void *p = nullptr;
    show("cudaMalloc(1 PiB)", cudaMalloc(&p, 1ULL << 50));
    printf("   pointer after failed malloc is %s\n", p ? "set" : "null");
    show("cudaMalloc(0)", cudaMalloc(&p, 0));
    show("cudaMalloc(null out)", cudaMalloc((void **)nullptr, 16));
    show("cudaMallocHost(1 PiB)", cudaMallocHost(&p, 1ULL << 50));
    int *d = nullptr;
    show("cudaMalloc(256)", cudaMalloc(&d, 256 * sizeof(int)));
    int stackVar = 0;
    show("cudaFree(host stack pointer)", cudaFree(&stackVar));
    show("cudaFree(device pointer + 4)", cudaFree(d + 1));
    show("cudaFree(nullptr)", cudaFree(nullptr));
    show("cudaFreeHost(device pointer)", cudaFreeHost(d));

    int h[256];
    show("cudaMemcpy(null dst)", cudaMemcpy(nullptr, d, 16, cudaMemcpyDeviceToHost));
    show("cudaMemcpy(bad kind)", cudaMemcpy(h, d, 16, (cudaMemcpyKind)77));
    show("cudaMemcpy(0 bytes, null)", cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyDeviceToHost));
    show("cudaMemcpy(default kind)", cudaMemcpy(h, d, 16, cudaMemcpyDefault));
    show("cudaMemset(null)", cudaMemset(nullptr, 0, 16));
    show("cudaMemcpy2D(pitch < width)", cudaMemcpy2D(d, 8, h, 16, 16, 2, cudaMemcpyHostToDevice));

    show("cudaMemcpyToSymbol(ok)", cudaMemcpyToSymbol(devVar, h, 16 * sizeof(int)));
    show("cudaMemcpyToSymbol(too big)", cudaMemcpyToSymbol(devVar, h, 17 * sizeof(int)));
    show("cudaMemcpyToSymbol(offset past end)", cudaMemcpyToSymbol(constVar, h, 4, 32));
    show("cudaMemcpyToSymbol(offset + size past)", cudaMemcpyToSymbol(constVar, h, 8, 28));
    show("cudaMemcpyFromSymbol(not a symbol)", cudaMemcpyFromSymbol(h, (const void *)h, 4));
    size_t sz = 0;
    show("cudaGetSymbolSize(constVar)", cudaGetSymbolSize(&sz, constVar));
    printf("   size %zu\n", sz);

    cudaFuncAttributes fa;
    show("cudaFuncGetAttributes(host function)", cudaFuncGetAttributes(&fa, (const void *)main));
    show("cudaFuncSetAttribute(bad value)", cudaFuncSetAttribute(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, -1));

    cudaEvent_t a, b;
    float ms = -1;
    show("cudaEventCreate a", cudaEventCreate(&a));
    show("cudaEventCreate b", cudaEventCreate(&b));
    show("cudaEventElapsedTime(never recorded)", cudaEventElapsedTime(&ms, a, b));
    show("cudaEventQuery(never recorded)", cudaEventQuery(a));
    show("cudaEventSynchronize(never recorded)", cudaEventSynchronize(a));
    show("cudaEventRecord a", cudaEventRecord(a));
    show("cudaEventElapsedTime(b not recorded)", cudaEventElapsedTime(&ms, a, b));
    cudaEvent_t nt;
    show("cudaEventCreateWithFlags(disable timing)", cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
    show("cudaEventRecord nt", cudaEventRecord(nt));
    show("cudaEventRecord b", cudaEventRecord(b));
    show("cudaEventSynchronize b", cudaEventSynchronize(b));
    show("cudaEventElapsedTime(no timing)", cudaEventElapsedTime(&ms, a, nt));
    show("cudaEventCreateWithFlags(bad flags)", cudaEventCreateWithFlags(&nt, 0x100));
    show("cudaEventDestroy a", cudaEventDestroy(a));
    show("cudaEventDestroy b", cudaEventDestroy(b));

    cudaStream_t s;
    show("cudaStreamCreateWithFlags(bad flags)", cudaStreamCreateWithFlags(&s, 0x40));
    int lo = 0, hi = 0;
    show("cudaDeviceGetStreamPriorityRange", cudaDeviceGetStreamPriorityRange(&lo, &hi));
    printf("   priorities least %d greatest %d\n", lo, hi);
    show("cudaStreamCreateWithPriority(-100)", cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -100));
    int pr = 7;
    unsigned fl = 7;
    show("cudaStreamGetPriority", cudaStreamGetPriority(s, &pr));
    show("cudaStreamGetFlags", cudaStreamGetFlags(s, &fl));
    printf("   clamped priority %d flags %u\n", pr, fl);
    show("cudaStreamDestroy", cudaStreamDestroy(s));

    fill<<<1, 64>>>(d, 9);
    show("launch after all of it", cudaGetLastError());
    show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    show("cudaMemcpy result", cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("   h[0]=%d h[63]=%d\n", h[0], h[63]);
    printf("   names: %s / %s / %s\n", cudaGetErrorName((cudaError_t)1), cudaGetErrorName((cudaError_t)2),
           cudaGetErrorName((cudaError_t)98));
    printf("   strings: %s / %s / %s\n", cudaGetErrorString(cudaErrorInvalidValue),
           cudaGetErrorString(cudaErrorMemoryAllocation), cudaGetErrorString(cudaErrorInvalidDevice));
    printf("   unknown code: %s / %s\n", cudaGetErrorName((cudaError_t)12345), cudaGetErrorString((cudaError_t)12345));
    show("cudaFree(d)", cudaFree(d));
    show("cudaFree(d) twice", cudaFree(d));
    return 0;
}
