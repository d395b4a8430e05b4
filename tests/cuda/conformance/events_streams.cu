// Streams and events: work split over several non-blocking streams with async copies from
// pinned memory, cross-stream dependencies with cudaStreamWaitEvent, host callbacks with
// cudaLaunchHostFunc (run in stream order), cudaStreamQuery/cudaEventQuery after
// synchronisation, event timing (only "elapsed >= 0" is printed), events created without
// timing, the legacy default stream's implicit synchronisation, and clock64()/clock()
// and %globaltimer read in a kernel (only that they advance).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__global__ void addKernel(int *p, int n, int v)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) p[i] += v;
}

__global__ void timed(long long *t, unsigned *c, unsigned long long *g, float *sink)
{
    long long t0 = clock64();
    unsigned c0 = clock();
    unsigned long long g0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    float x = threadIdx.x;
    for (int k = 0; k < 10000; k++) x = x * 0.999f + 0.5f;
    long long t1 = clock64();
    unsigned c1 = clock();
    unsigned long long g1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    if (threadIdx.x == 0) { t[0] = t0; t[1] = t1; c[0] = c0; c[1] = c1; g[0] = g0; g[1] = g1; }
    sink[threadIdx.x] = x;
}

struct Log { int entries[16]; int n; };
static void CUDART_CB hostStep(void *arg)
{
    Log *log = (Log *)arg;
    log->entries[log->n] = log->n * 10;
    log->n++;
}

int main()
{
    int bad = 0;
    const int nStreams = 4, chunk = 1 << 16, n = nStreams * chunk;
    int *h, *d;
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    for (int i = 0; i < n; i++) h[i] = i;
    cudaStream_t s[nStreams];
    for (int k = 0; k < nStreams; k++) CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
    for (int k = 0; k < nStreams; k++) {
        int off = k * chunk;
        CHECK(cudaMemcpyAsync(d + off, h + off, chunk * sizeof(int), cudaMemcpyHostToDevice, s[k]));
        addKernel<<<64, 256, 0, s[k]>>>(d + off, chunk, k + 1);
        CHECK(cudaMemcpyAsync(h + off, d + off, chunk * sizeof(int), cudaMemcpyDeviceToHost, s[k]));
    }
    for (int k = 0; k < nStreams; k++) CHECK(cudaStreamSynchronize(s[k]));
    for (int k = 0; k < nStreams; k++) printf("stream %d query after sync: %s\n", k, cudaGetErrorName(cudaStreamQuery(s[k])));
    for (int i = 0; i < n; i++) if (h[i] != i + i / chunk + 1) bad++;
    printf("streams: h[0]=%d h[%d]=%d h[%d]=%d\n", h[0], chunk, h[chunk], n - 1, h[n - 1]);

    // s[1] waits for s[0]'s event before adding: the result reflects both in order.
    cudaEvent_t done0;
    CHECK(cudaEventCreateWithFlags(&done0, cudaEventDisableTiming));
    CHECK(cudaMemsetAsync(d, 0, chunk * sizeof(int), s[0]));
    addKernel<<<8, 256, 0, s[0]>>>(d, chunk, 5);
    CHECK(cudaEventRecord(done0, s[0]));
    CHECK(cudaStreamWaitEvent(s[1], done0, 0));
    addKernel<<<8, 256, 0, s[1]>>>(d, chunk, 100);
    CHECK(cudaMemcpyAsync(h, d, chunk * sizeof(int), cudaMemcpyDeviceToHost, s[1]));
    CHECK(cudaStreamSynchronize(s[1]));
    printf("after wait-event chain: h[0]=%d h[%d]=%d event query=%s\n", h[0], chunk - 1, h[chunk - 1], cudaGetErrorName(cudaEventQuery(done0)));
    for (int i = 0; i < chunk; i++) if (h[i] != 105) bad++;
    float ms = -1;
    cudaError_t e = cudaEventElapsedTime(&ms, done0, done0);
    printf("elapsed time on a timing-disabled event: %s\n", cudaGetErrorName(e));

    // host functions run in stream order with the work around them
    Log *log;
    CHECK(cudaMallocHost(&log, sizeof(Log)));
    log->n = 0;
    for (int k = 0; k < 3; k++) {
        addKernel<<<1, 32, 0, s[2]>>>(d, 32, 1);
        CHECK(cudaLaunchHostFunc(s[2], hostStep, log));
    }
    CHECK(cudaStreamSynchronize(s[2]));
    printf("host functions ran %d times: %d %d %d\n", log->n, log->entries[0], log->entries[1], log->entries[2]);

    // events with timing
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    addKernel<<<128, 256>>>(d, n, 1);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("event elapsed >= 0: %s, stop query: %s\n", ms >= 0 ? "yes" : "no", cudaGetErrorName(cudaEventQuery(stop)));
    cudaEvent_t never;
    CHECK(cudaEventCreate(&never));
    printf("query of a never-recorded event: %s\n", cudaGetErrorName(cudaEventQuery(never)));
    e = cudaEventElapsedTime(&ms, start, never);
    printf("elapsed to a never-recorded event: %s\n", cudaGetErrorName(e));
    cudaGetLastError();

    // legacy default stream: a kernel in a blocking stream waits for the default stream
    cudaStream_t blocking;
    CHECK(cudaStreamCreate(&blocking));
    CHECK(cudaMemset(d, 0, 32 * sizeof(int)));
    addKernel<<<1, 32>>>(d, 32, 7);
    addKernel<<<1, 32, 0, blocking>>>(d, 32, 3);
    addKernel<<<1, 32>>>(d, 32, 1000);
    CHECK(cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("default-stream ordering: h[0]=%d h[31]=%d\n", h[0], h[31]);
    if (h[0] != 1010) bad++;

    long long *dt; unsigned *dc; unsigned long long *dg; float *sink;
    CHECK(cudaMalloc(&dt, 16)); CHECK(cudaMalloc(&dc, 8)); CHECK(cudaMalloc(&dg, 16)); CHECK(cudaMalloc(&sink, 128 * 4));
    timed<<<1, 128>>>(dt, dc, dg, sink);
    long long ht[2]; unsigned hc[2]; unsigned long long hg[2];
    CHECK(cudaMemcpy(ht, dt, 16, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hc, dc, 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hg, dg, 16, cudaMemcpyDeviceToHost));
    printf("clock64 advanced: %s, clock advanced: %s, globaltimer non-decreasing: %s\n", ht[1] > ht[0] ? "yes" : "no",
           hc[1] - hc[0] > 0 ? "yes" : "no", hg[1] >= hg[0] ? "yes" : "no");

    for (int k = 0; k < nStreams; k++) CHECK(cudaStreamDestroy(s[k]));
    CHECK(cudaStreamDestroy(blocking));
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop)); CHECK(cudaEventDestroy(done0)); CHECK(cudaEventDestroy(never));
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
