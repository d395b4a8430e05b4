// Unified memory as the Programming Guide shows it: cudaMallocManaged, advice
// (read-mostly, preferred location, accessed-by), prefetches to the device and back
// (CUDA 13's cudaMemLocation form), the range attributes that report them, and kernels and
// the host taking turns on the same data.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

__managed__ int counter;

__global__ void bump(int times)
{
    for (int i = 0; i < times; i++) atomicAdd(&counter, 1);
}

static const char *locName(int v)
{
    if (v == cudaCpuDeviceId) return "cpu";
    if (v == cudaInvalidDeviceId) return "invalid";
    static char buf[16];
    snprintf(buf, sizeof buf, "device %d", v);
    return buf;
}

int main()
{
    int dev = 0, cma = 0, pma = 0, managed = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, dev));
    CK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, dev));
    CK(cudaDeviceGetAttribute(&pma, cudaDevAttrPageableMemoryAccess, dev));
    printf("managed=%d concurrentManagedAccess=%d\n", managed, cma);

    const int n = 1 << 18;
    float *x, *y;
    CK(cudaMallocManaged(&x, n * sizeof(float)));
    CK(cudaMallocManaged(&y, n * sizeof(float)));
    for (int i = 0; i < n; i++) { x[i] = (float)(i % 100); y[i] = 1.0f; }

    cudaMemLocation gpu = {cudaMemLocationTypeDevice, dev};
    cudaMemLocation cpu = {cudaMemLocationTypeHost, 0};
    CK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, gpu));
    CK(cudaMemAdvise(y, n * sizeof(float), cudaMemAdviseSetPreferredLocation, gpu));
    CK(cudaMemAdvise(y, n * sizeof(float), cudaMemAdviseSetAccessedBy, cpu));

    int rm = -1, pl = -7;
    CK(cudaMemRangeGetAttribute(&rm, sizeof rm, cudaMemRangeAttributeReadMostly, x, n * sizeof(float)));
    CK(cudaMemRangeGetAttribute(&pl, sizeof pl, cudaMemRangeAttributePreferredLocation, y, n * sizeof(float)));
    printf("x read-mostly=%d, y preferred location=%s\n", rm, locName(pl));
    CK(cudaMemRangeGetAttribute(&pl, sizeof pl, cudaMemRangeAttributePreferredLocation, x, n * sizeof(float)));
    printf("x preferred location=%s\n", locName(pl));

    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaMemPrefetchAsync(x, n * sizeof(float), gpu, 0, s));
    CK(cudaMemPrefetchAsync(y, n * sizeof(float), gpu, 0, s));
    saxpy<<<256, 256, 0, s>>>(2.0f, x, y, n);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
    int last = -7;
    CK(cudaMemRangeGetAttribute(&last, sizeof last, cudaMemRangeAttributeLastPrefetchLocation, y, n * sizeof(float)));
    printf("y last prefetch location=%s\n", locName(last));

    CK(cudaMemPrefetchAsync(y, n * sizeof(float), cpu, 0, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemRangeGetAttribute(&last, sizeof last, cudaMemRangeAttributeLastPrefetchLocation, y, n * sizeof(float)));
    printf("y last prefetch location=%s\n", locName(last));
    double sum = 0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        sum += y[i];
        if (y[i] != 2.0f * (float)(i % 100) + 1.0f) bad++;
    }
    printf("sum=%.1f mismatches=%d\n", sum, bad);

    // the host changes y, the device runs again, the host reads without a prefetch
    for (int i = 0; i < n; i++) y[i] = -1.0f;
    saxpy<<<128, 128>>>(0.5f, x, y, n);
    CK(cudaDeviceSynchronize());
    printf("y[0..4] = %g %g %g %g %g, y[n-1] = %g\n", y[0], y[1], y[2], y[3], y[4], y[n - 1]);

    CK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseUnsetReadMostly, gpu));
    CK(cudaMemRangeGetAttribute(&rm, sizeof rm, cudaMemRangeAttributeReadMostly, x, n * sizeof(float)));
    printf("x read-mostly after unset=%d\n", rm);

    counter = 5;
    bump<<<4, 64>>>(3);
    CK(cudaDeviceSynchronize());
    printf("__managed__ counter=%d\n", counter);

    // attach a range to one stream (host access while other streams run)
    int *own;
    CK(cudaMallocManaged(&own, 64 * sizeof(int), cudaMemAttachHost));
    for (int i = 0; i < 64; i++) own[i] = i;
    CK(cudaStreamAttachMemAsync(s, own, 0, cudaMemAttachSingle));
    CK(cudaStreamSynchronize(s));
    unsigned int flags = 0;
    cudaPointerAttributes pa;
    CK(cudaPointerGetAttributes(&pa, own));
    printf("attached range type=%d, stream query=%s\n", (int)pa.type, cudaGetErrorName(cudaStreamQuery(s)));
    (void)flags;
    CK(cudaFree(own));
    CK(cudaStreamDestroy(s));
    CK(cudaFree(x));
    CK(cudaFree(y));
    printf("%s\n", bad == 0 && counter == 5 + 4 * 64 * 3 ? "PASS" : "FAIL");
    return bad != 0;
}
