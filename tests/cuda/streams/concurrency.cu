/* concurrency.cu — kernels of different streams run at the same time: two grids that
 * wait for each other through global memory, eight grids that meet, and the cases where
 * the legacy default stream's implicit synchronisation keeps them apart (the first grid
 * then gives up waiting, and says so). */
#include "streams_test.h"

/* ping sets its flag and waits for pong's; pong waits for ping's and sets its own. */
__global__ void ping(volatile int *mine, volatile int *theirs, int *gave_up) {
    *mine = 1;
    __threadfence();
    *gave_up = !spin_until_set(theirs);
}

__global__ void pong(volatile int *theirs, volatile int *mine, int *gave_up) {
    *gave_up = !spin_until_set(theirs);
    *mine = 1;
    __threadfence();
}

/* Every grid adds itself to *count and waits until all n have. */
__global__ void meet(int *count, int n, int *gave_up) {
    atomicAdd(count, 1);
    int i = 0;
    while (atomicAdd(count, 0) < n && i < SPIN_TRIES) i++;
    *gave_up = i >= SPIN_TRIES;
}

struct pair {
    int *flags; /* [0] ping's, [1] pong's */
    int *gave_up; /* [0] ping, [1] pong */
};

static pair make_pair() {
    pair p;
    OK(cudaMalloc(&p.flags, 2 * sizeof(int)));
    OK(cudaMalloc(&p.gave_up, 2 * sizeof(int)));
    OK(cudaMemset(p.flags, 0, 2 * sizeof(int)));
    OK(cudaMemset(p.gave_up, 0, 2 * sizeof(int)));
    OK(cudaDeviceSynchronize());
    return p;
}

static void report(const char *what, pair p) {
    int g[2];
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(g, p.gave_up, sizeof g, cudaMemcpyDeviceToHost));
    printf("%s: ping gave up %d, pong gave up %d\n", what, g[0], g[1]);
    OK(cudaFree(p.flags));
    OK(cudaFree(p.gave_up));
}

int main() {
    cudaStream_t a, b, nb;
    OK(cudaStreamCreate(&a));
    OK(cudaStreamCreate(&b));
    OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));

    pair p = make_pair();
    ping<<<1, 1, 0, a>>>(p.flags, p.flags + 1, p.gave_up);
    pong<<<1, 1, 0, b>>>(p.flags, p.flags + 1, p.gave_up + 1);
    report("two blocking streams", p);

    /* Eight streams, eight one-block grids that all have to be running at once. */
    cudaStream_t s8[8];
    int *count = nullptr, *gave_up = nullptr;
    OK(cudaMalloc(&count, sizeof(int)));
    OK(cudaMalloc(&gave_up, 8 * sizeof(int)));
    OK(cudaMemset(count, 0, sizeof(int)));
    OK(cudaMemset(gave_up, 0, 8 * sizeof(int)));
    OK(cudaDeviceSynchronize());
    for (int k = 0; k < 8; k++) {
        OK(cudaStreamCreateWithFlags(&s8[k], cudaStreamNonBlocking));
        meet<<<1, 32, 0, s8[k]>>>(count, 8, gave_up + k);
    }
    OK(cudaDeviceSynchronize());
    int g8[8], c8 = 0;
    OK(cudaMemcpy(g8, gave_up, sizeof g8, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(&c8, count, sizeof c8, cudaMemcpyDeviceToHost));
    int any = 0;
    for (int k = 0; k < 8; k++) any |= g8[k];
    printf("eight streams met: %d arrivals (32 threads each), any gave up %d\n", c8, any);

    /* The legacy stream waits for a blocking stream: pong cannot start while ping
     * waits for it, so ping gives up first. */
    p = make_pair();
    ping<<<1, 1, 0, a>>>(p.flags, p.flags + 1, p.gave_up);
    pong<<<1, 1>>>(p.flags, p.flags + 1, p.gave_up + 1);
    report("blocking stream, then legacy stream", p);

    /* ... and a blocking stream waits for the legacy stream. */
    p = make_pair();
    ping<<<1, 1>>>(p.flags, p.flags + 1, p.gave_up);
    pong<<<1, 1, 0, b>>>(p.flags, p.flags + 1, p.gave_up + 1);
    report("legacy stream, then blocking stream", p);

    /* A non-blocking stream does not. */
    p = make_pair();
    ping<<<1, 1, 0, nb>>>(p.flags, p.flags + 1, p.gave_up);
    pong<<<1, 1>>>(p.flags, p.flags + 1, p.gave_up + 1);
    report("non-blocking stream, then legacy stream", p);

    p = make_pair();
    ping<<<1, 1>>>(p.flags, p.flags + 1, p.gave_up);
    pong<<<1, 1, 0, nb>>>(p.flags, p.flags + 1, p.gave_up + 1);
    report("legacy stream, then non-blocking stream", p);

    /* Priorities change which grid the device prefers, not what runs. */
    int least = 0, greatest = 0;
    SHOW("cudaDeviceGetStreamPriorityRange", cudaDeviceGetStreamPriorityRange(&least, &greatest));
    printf("priorities: least %d, greatest %d\n", least, greatest);
    cudaStream_t hi, lo;
    OK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest));
    OK(cudaStreamCreateWithPriority(&lo, cudaStreamNonBlocking, least));
    p = make_pair();
    ping<<<1, 1, 0, lo>>>(p.flags, p.flags + 1, p.gave_up);
    pong<<<1, 1, 0, hi>>>(p.flags, p.flags + 1, p.gave_up + 1);
    report("low and high priority streams", p);

    for (int k = 0; k < 8; k++) OK(cudaStreamDestroy(s8[k]));
    OK(cudaStreamDestroy(a));
    OK(cudaStreamDestroy(b));
    OK(cudaStreamDestroy(nb));
    OK(cudaStreamDestroy(hi));
    OK(cudaStreamDestroy(lo));
    return 0;
}
