/* events_streams.cu — stream and event calls, their argument checks and ordering. */
#include "probe.h"

__global__ void k_fill(int *p, int v) { p[threadIdx.x] = v; }

static int host_fn_calls = 0;
static void CUDART_CB host_fn(void *data) { host_fn_calls += *(int *)data; }
static void CUDART_CB stream_cb(cudaStream_t, cudaError_t status, void *data) {
    printf("callback: status %s data %d\n", en(status), *(int *)data);
    fflush(stdout);
}

int main() {
    cudaEvent_t a, b, c, d;
    SHOW("cudaEventCreate a", cudaEventCreate(&a));
    SHOW("cudaEventCreate b", cudaEventCreate(&b));
    SHOW("cudaEventCreateWithFlags c DisableTiming", cudaEventCreateWithFlags(&c, cudaEventDisableTiming));
    SHOW("cudaEventCreateWithFlags d BlockingSync", cudaEventCreateWithFlags(&d, cudaEventBlockingSync));
    cudaEvent_t bad;
    SHOW("cudaEventCreateWithFlags 0x80", cudaEventCreateWithFlags(&bad, 0x80));
    SHOW("cudaEventCreate(NULL)", cudaEventCreate(nullptr));
    SHOW_LAST("  last");
    float ms = -1;
    SHOW("elapsed unrecorded a,b", cudaEventElapsedTime(&ms, a, b));
    SHOW_LAST("  last");
    SHOW("cudaEventQuery unrecorded", cudaEventQuery(a));
    SHOW("cudaEventSynchronize unrecorded", cudaEventSynchronize(a));
    SHOW("cudaEventRecord a", cudaEventRecord(a, 0));
    SHOW("elapsed a recorded, b not", cudaEventElapsedTime(&ms, a, b));
    SHOW("elapsed b not, a recorded", cudaEventElapsedTime(&ms, b, a));
    int *dp = nullptr;
    cudaMalloc(&dp, 256);
    k_fill<<<1, 32>>>(dp, 5);
    SHOW("cudaEventRecord b", cudaEventRecord(b, 0));
    SHOW("cudaEventSynchronize b", cudaEventSynchronize(b));
    SHOW("cudaEventQuery b", cudaEventQuery(b));
    SHOW("elapsed a,b", cudaEventElapsedTime(&ms, a, b));
    printf("info elapsed %f\n", ms);
    printf("elapsed a,b non-negative: %d\n", ms >= 0.0f);
    SHOW("elapsed b,a", cudaEventElapsedTime(&ms, b, a));
    printf("elapsed b,a non-positive: %d\n", ms <= 0.0f);
    SHOW("elapsed a,a", cudaEventElapsedTime(&ms, a, a));
    printf("elapsed a,a = %f\n", ms);
    SHOW("elapsed NULL ms", cudaEventElapsedTime(nullptr, a, b));
    SHOW("cudaEventRecord c", cudaEventRecord(c, 0));
    SHOW("cudaEventSynchronize c", cudaEventSynchronize(c));
    SHOW("elapsed a,c (c no timing)", cudaEventElapsedTime(&ms, a, c));
    SHOW_LAST("  last");
    SHOW("elapsed c,a (c no timing)", cudaEventElapsedTime(&ms, c, a));
    SHOW("cudaEventRecord d", cudaEventRecord(d, 0));
    SHOW("cudaEventSynchronize d", cudaEventSynchronize(d));
    SHOW("elapsed a,d", cudaEventElapsedTime(&ms, a, d));
    SHOW("cudaEventRecordWithFlags(a, 0)", cudaEventRecordWithFlags(a, 0, 0));
    SHOW("cudaEventRecordWithFlags(a, 0x10)", cudaEventRecordWithFlags(a, 0, 0x10));

    cudaStream_t s, s2, s3, s4;
    SHOW("cudaStreamCreate", cudaStreamCreate(&s));
    SHOW("cudaStreamCreateWithFlags NonBlocking", cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    SHOW("cudaStreamCreateWithFlags 0x4", cudaStreamCreateWithFlags(&s3, 0x4));
    SHOW("cudaStreamCreate(NULL)", cudaStreamCreate(nullptr));
    SHOW_LAST("  last");
    SHOW("cudaStreamCreateWithPriority -100", cudaStreamCreateWithPriority(&s3, cudaStreamDefault, -100));
    SHOW("cudaStreamCreateWithPriority 100", cudaStreamCreateWithPriority(&s4, cudaStreamNonBlocking, 100));
    int prio = 99;
    unsigned int sflags = 99;
    SHOW("cudaStreamGetPriority s3", cudaStreamGetPriority(s3, &prio));
    printf("priority %d\n", prio);
    SHOW("cudaStreamGetPriority s4", cudaStreamGetPriority(s4, &prio));
    printf("priority %d\n", prio);
    SHOW("cudaStreamGetPriority default", cudaStreamGetPriority(0, &prio));
    printf("priority %d\n", prio);
    SHOW("cudaStreamGetFlags s2", cudaStreamGetFlags(s2, &sflags));
    printf("flags %u\n", sflags);
    SHOW("cudaStreamGetFlags s4", cudaStreamGetFlags(s4, &sflags));
    printf("flags %u\n", sflags);
    SHOW("cudaStreamGetFlags default", cudaStreamGetFlags(0, &sflags));
    printf("flags %u\n", sflags);

    k_fill<<<1, 32, 0, s>>>(dp, 6);
    SHOW_LAST("launch on s");
    SHOW("cudaStreamQuery s", cudaStreamQuery(s));
    SHOW("cudaStreamSynchronize s", cudaStreamSynchronize(s));
    SHOW("cudaStreamQuery s after sync", cudaStreamQuery(s));
    SHOW("cudaStreamQuery default", cudaStreamQuery(0));
    SHOW("cudaStreamSynchronize default", cudaStreamSynchronize(0));
    SHOW("cudaStreamSynchronize legacy", cudaStreamSynchronize(cudaStreamLegacy));
    SHOW("cudaStreamSynchronize per-thread", cudaStreamSynchronize(cudaStreamPerThread));
    cudaEvent_t e2;
    cudaEventCreate(&e2);
    SHOW("cudaStreamWaitEvent unrecorded", cudaStreamWaitEvent(s, e2, 0));
    SHOW("cudaStreamWaitEvent recorded", cudaStreamWaitEvent(s, b, 0));
    SHOW("cudaStreamWaitEvent flags 5", cudaStreamWaitEvent(s, b, 5));
    SHOW("cudaStreamWaitEvent NULL event", cudaStreamWaitEvent(s, nullptr, 0));
    SHOW_LAST("  last");
    SHOW("cudaEventRecord on s", cudaEventRecord(e2, s));
    SHOW("cudaEventSynchronize e2", cudaEventSynchronize(e2));

    int inc = 3;
    SHOW("cudaLaunchHostFunc", cudaLaunchHostFunc(s, host_fn, &inc));
    SHOW("cudaLaunchHostFunc NULL fn", cudaLaunchHostFunc(s, nullptr, &inc));
    SHOW("cudaStreamSynchronize s", cudaStreamSynchronize(s));
    printf("host fn calls %d\n", host_fn_calls);
    int cbdata = 42;
    SHOW("cudaStreamAddCallback", cudaStreamAddCallback(s, stream_cb, &cbdata, 0));
    SHOW("cudaStreamAddCallback flags 1", cudaStreamAddCallback(s, stream_cb, &cbdata, 1));
    SHOW("cudaStreamAddCallback NULL cb", cudaStreamAddCallback(s, nullptr, &cbdata, 0));
    SHOW("cudaStreamSynchronize s", cudaStreamSynchronize(s));
    SHOW("cudaStreamAddCallback default stream", cudaStreamAddCallback(0, stream_cb, &cbdata, 0));
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());

    int h[32];
    SHOW("memcpyAsync on s", cudaMemcpyAsync(h, dp, sizeof h, cudaMemcpyDeviceToHost, s));
    SHOW("cudaStreamSynchronize s", cudaStreamSynchronize(s));
    printf("h[0]=%d\n", h[0]);

    SHOW("cudaEventDestroy a", cudaEventDestroy(a));
    SHOW("cudaEventDestroy NULL", cudaEventDestroy(nullptr));
    SHOW_LAST("  last");
    SHOW("cudaStreamDestroy s", cudaStreamDestroy(s));
    SHOW("cudaStreamDestroy s2", cudaStreamDestroy(s2));
    SHOW("cudaStreamDestroy default", cudaStreamDestroy(0));
    SHOW_LAST("  last");
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    return 0;
}
