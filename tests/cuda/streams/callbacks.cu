/* callbacks.cu — host functions (cudaLaunchHostFunc) and stream callbacks
 * (cudaStreamAddCallback): they run in stream order after the work before them, their
 * stream's later work waits for them, and a callback hears the stream's status. What
 * they see is written down and printed by the main thread after synchronising. */
#include "streams_test.h"

struct record {
    int order[64];
    int seen[64];
    int n;
};
static record rec;

struct arg {
    int tag;
    volatile int *watch;   /* a value the callback reads (pinned memory), or NULL */
    volatile int *release; /* a flag the callback sets for later work, or NULL */
};

static void CUDART_CB host_fn(void *p) {
    arg *a = (arg *)p;
    rec.seen[rec.n] = a->watch ? *a->watch : -1;
    rec.order[rec.n++] = a->tag;
    if (a->release) set_host_flag(a->release);
}

static cudaError_t cb_status[8];
static void CUDART_CB stream_cb(cudaStream_t, cudaError_t status, void *p) {
    arg *a = (arg *)p;
    cb_status[a->tag % 8] = status;
    rec.seen[rec.n] = a->watch ? *a->watch : -1;
    rec.order[rec.n++] = a->tag;
}

__global__ void store(int *p, int v) { *p = v; }
__global__ void copy_flag(volatile int *flag, int *out) { *out = *flag; }

static void print_record(const char *what) {
    printf("%s:", what);
    for (int i = 0; i < rec.n; i++) printf(" %d(saw %d)", rec.order[i], rec.seen[i]);
    printf("\n");
    rec.n = 0;
}

int main() {
    int *pinned = nullptr;
    OK(cudaHostAlloc(&pinned, 4 * sizeof(int), cudaHostAllocMapped));
    memset(pinned, 0, 4 * sizeof(int));
    cudaStream_t s, t;
    OK(cudaStreamCreate(&s));
    OK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));

    /* In one stream: kernel, host function, kernel, callback, host function. */
    arg a1 = {1, &pinned[0], nullptr}, a2 = {2, &pinned[0], nullptr}, a3 = {3, &pinned[0], nullptr};
    store<<<1, 1, 0, s>>>(&pinned[0], 10);
    SHOW("cudaLaunchHostFunc", cudaLaunchHostFunc(s, host_fn, &a1));
    store<<<1, 1, 0, s>>>(&pinned[0], 20);
    SHOW("cudaStreamAddCallback", cudaStreamAddCallback(s, stream_cb, &a2, 0));
    SHOW("cudaLaunchHostFunc", cudaLaunchHostFunc(s, host_fn, &a3));
    SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
    print_record("one stream");
    printf("callback status: %s\n", cudaGetErrorName(cb_status[2]));

    /* Later work of the stream waits for the host function: it sets a flag the next
     * kernel reads. */
    volatile int *flag = host_flag();
    int *got = nullptr;
    OK(cudaMalloc(&got, sizeof(int)));
    arg a4 = {4, nullptr, flag};
    SHOW("cudaLaunchHostFunc releasing a flag", cudaLaunchHostFunc(t, host_fn, &a4));
    copy_flag<<<1, 1, 0, t>>>(flag, got);
    int h = -1;
    SHOW("cudaStreamSynchronize", cudaStreamSynchronize(t));
    OK(cudaMemcpy(&h, got, sizeof h, cudaMemcpyDeviceToHost));
    print_record("releasing");
    printf("kernel after the host function read the flag as %d\n", h);

    /* Host functions of two streams, ordered by an event between the streams. */
    cudaEvent_t ev;
    OK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    arg a5 = {5, nullptr, nullptr}, a6 = {6, nullptr, nullptr};
    OK(cudaLaunchHostFunc(s, host_fn, &a5));
    OK(cudaEventRecord(ev, s));
    OK(cudaStreamWaitEvent(t, ev, 0));
    OK(cudaLaunchHostFunc(t, host_fn, &a6));
    SHOW("cudaStreamSynchronize second stream", cudaStreamSynchronize(t));
    print_record("two streams");

    /* A callback on the legacy stream runs after the blocking stream's kernel. */
    arg a7 = {7, &pinned[1], nullptr};
    store<<<1, 1, 0, s>>>(&pinned[1], 77);
    SHOW("cudaStreamAddCallback legacy stream", cudaStreamAddCallback(0, stream_cb, &a7, 0));
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    print_record("legacy");
    printf("callback status: %s\n", cudaGetErrorName(cb_status[7]));

    /* Many host functions in a row, in order. */
    static arg many[40];
    for (int i = 0; i < 40; i++) {
        many[i] = {100 + i, nullptr, nullptr};
        OK(cudaLaunchHostFunc(i % 2 ? s : t, host_fn, &many[i]));
        if (i % 2) {
            OK(cudaEventRecord(ev, s));
            OK(cudaStreamWaitEvent(t, ev, 0));
        } else {
            OK(cudaEventRecord(ev, t));
            OK(cudaStreamWaitEvent(s, ev, 0));
        }
    }
    OK(cudaDeviceSynchronize());
    int in_order = 1;
    for (int i = 0; i < 40; i++) in_order &= rec.order[i] == 100 + i;
    printf("40 host functions alternating between two streams in order: %d (%d ran)\n", in_order, rec.n);
    rec.n = 0;

    OK(cudaStreamDestroy(s));
    OK(cudaStreamDestroy(t));
    OK(cudaEventDestroy(ev));
    OK(cudaFreeHost(pinned));
    return 0;
}
