/* event_deps.cu — streams ordered through events: a chain across four streams, a join of
 * three producers, an event recorded twice, waits on events never recorded, and queries
 * of work the host holds back. */
#include "streams_test.h"

/* Long enough that a consumer started too early reads the old values. */
#define ROUNDS 200
__global__ void produce(int *x, int n, int v, int rounds) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int acc = 0;
    for (int k = 0; k < rounds; k++) acc += (k ^ i) & 1;
    x[i] = v + (acc > rounds ? 1 : 0);
}

__global__ void next_from(const int *in, int *out, int n, int add) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + add;
}

__global__ void sum3(const int *a, const int *b, const int *c, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i] + c[i];
}

static int count_equal(const int *d, int n, int v) {
    int *h = (int *)malloc(n * sizeof(int));
    OK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    int c = 0;
    for (int i = 0; i < n; i++) c += h[i] == v;
    free(h);
    return c;
}

int main() {
    const int n = 1 << 14, blocks = n / 128;
    int *x[4];
    for (int k = 0; k < 4; k++) {
        OK(cudaMalloc(&x[k], n * sizeof(int)));
        OK(cudaMemset(x[k], 0, n * sizeof(int)));
    }
    cudaStream_t s[4];
    cudaEvent_t e[4];
    for (int k = 0; k < 4; k++) {
        OK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
        OK(cudaEventCreateWithFlags(&e[k], cudaEventDisableTiming));
    }
    OK(cudaDeviceSynchronize());

    /* A chain: s0 -> s1 -> s2 -> s3, each step waiting for the one before. */
    produce<<<blocks, 128, 0, s[0]>>>(x[0], n, 5, ROUNDS);
    OK(cudaEventRecord(e[0], s[0]));
    for (int k = 1; k < 4; k++) {
        OK(cudaStreamWaitEvent(s[k], e[k - 1], 0));
        next_from<<<blocks, 128, 0, s[k]>>>(x[k - 1], x[k], n, 10 * k);
        OK(cudaEventRecord(e[k], s[k]));
    }
    SHOW("cudaEventSynchronize last of chain", cudaEventSynchronize(e[3]));
    printf("chain: %d of %d values are 65\n", count_equal(x[3], n, 65), n);

    /* A join: three producers, one consumer waiting for all three. */
    int *out = nullptr;
    OK(cudaMalloc(&out, n * sizeof(int)));
    for (int k = 0; k < 3; k++) {
        produce<<<blocks, 128, 0, s[k]>>>(x[k], n, k + 1, ROUNDS);
        OK(cudaEventRecord(e[k], s[k]));
        OK(cudaStreamWaitEvent(s[3], e[k], 0));
    }
    sum3<<<blocks, 128, 0, s[3]>>>(x[0], x[1], x[2], out, n);
    SHOW("cudaStreamSynchronize consumer", cudaStreamSynchronize(s[3]));
    printf("join: %d of %d values are 6\n", count_equal(out, n, 6), n);

    /* A wait takes the record the event holds at the time of the call. */
    volatile int *gate = host_flag();
    int *flagged = nullptr;
    OK(cudaMalloc(&flagged, sizeof(int)));
    produce<<<blocks, 128, 0, s[0]>>>(x[0], n, 100, ROUNDS);
    OK(cudaEventRecord(e[0], s[0]));
    OK(cudaStreamWaitEvent(s[1], e[0], 0));
    next_from<<<blocks, 128, 0, s[1]>>>(x[0], x[1], n, 1);
    wait_for_host<<<1, 1, 0, s[0]>>>(gate, flagged); /* s0 stays busy: s1 must not care */
    OK(cudaEventRecord(e[0], s[0]));
    SHOW("cudaStreamSynchronize waiter of the first record", cudaStreamSynchronize(s[1]));
    printf("re-record: %d of %d values are 101\n", count_equal(x[1], n, 101), n);
    SHOW("cudaEventQuery second record (held back)", cudaEventQuery(e[0]));
    SHOW("cudaGetLastError after cudaErrorNotReady", cudaGetLastError());
    SHOW("cudaStreamQuery held-back stream", cudaStreamQuery(s[0]));
    SHOW("cudaPeekAtLastError after cudaErrorNotReady", cudaPeekAtLastError());
    set_host_flag(gate);
    SHOW("cudaEventSynchronize second record", cudaEventSynchronize(e[0]));
    SHOW("cudaEventQuery second record", cudaEventQuery(e[0]));

    /* Waiting for an event never recorded waits for nothing. */
    cudaEvent_t never;
    OK(cudaEventCreate(&never));
    SHOW("cudaStreamWaitEvent never recorded", cudaStreamWaitEvent(s[2], never, 0));
    next_from<<<blocks, 128, 0, s[2]>>>(x[3], x[2], n, 0);
    SHOW("cudaStreamSynchronize after it", cudaStreamSynchronize(s[2]));
    printf("never recorded: %d of %d values are 65\n", count_equal(x[2], n, 65), n);

    /* The legacy stream waits for a blocking stream that waits for an event. */
    cudaStream_t blocking;
    OK(cudaStreamCreate(&blocking));
    produce<<<blocks, 128, 0, s[0]>>>(x[0], n, 7, ROUNDS);
    OK(cudaEventRecord(e[0], s[0]));
    OK(cudaStreamWaitEvent(blocking, e[0], 0));
    next_from<<<blocks, 128, 0, blocking>>>(x[0], x[1], n, 1);
    next_from<<<blocks, 128>>>(x[1], x[2], n, 1); /* legacy stream */
    SHOW("cudaStreamSynchronize legacy", cudaStreamSynchronize(0));
    printf("legacy after blocking: %d of %d values are 9\n", count_equal(x[2], n, 9), n);

    for (int k = 0; k < 4; k++) {
        OK(cudaStreamDestroy(s[k]));
        OK(cudaEventDestroy(e[k]));
        OK(cudaFree(x[k]));
    }
    OK(cudaStreamDestroy(blocking));
    OK(cudaEventDestroy(never));
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    return 0;
}
