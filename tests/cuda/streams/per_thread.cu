/* per_thread.cu — built with --default-stream per-thread: every host thread's default
 * stream is its own, so default-stream work of two threads runs side by side, while the
 * legacy stream (cudaStreamLegacy) still synchronises with them.
 * nvcc-flags: --default-stream=per-thread
 */
#include "streams_test.h"
#include <atomic>
#include <thread>

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

static int *flags, *gave_up;

static void reset() {
    OK(cudaMemsetAsync(flags, 0, 2 * sizeof(int), cudaStreamLegacy));
    OK(cudaMemsetAsync(gave_up, 0, 2 * sizeof(int), cudaStreamLegacy));
    OK(cudaDeviceSynchronize());
}

static void report(const char *what) {
    int g[2];
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(g, gave_up, sizeof g, cudaMemcpyDeviceToHost));
    printf("%s: ping gave up %d, pong gave up %d\n", what, g[0], g[1]);
}

int main() {
    OK(cudaMalloc(&flags, 2 * sizeof(int)));
    OK(cudaMalloc(&gave_up, 2 * sizeof(int)));

    /* Two threads, each on its default stream. Both kernels are launched here for the
     * first time, so the second launch waits while CUDA loads its kernel, after the work
     * of the blocking streams (the other thread's default stream among them): ping gives
     * up. The second thread launches once the first has. */
    reset();
    static std::atomic<int> ping_launched(0);
    std::thread t1([] {
        ping<<<1, 1>>>(flags, flags + 1, gave_up);
        ping_launched = 1;
        OK(cudaStreamSynchronize(0));
    });
    std::thread t2([] {
        while (!ping_launched) std::this_thread::yield();
        pong<<<1, 1>>>(flags, flags + 1, gave_up + 1);
        OK(cudaStreamSynchronize(0));
    });
    t1.join();
    t2.join();
    report("default streams of two threads");

    /* One thread: its default stream, and an explicit stream; the per-thread stream is
     * blocking, so a stream created without flags does not synchronise with it (only the
     * legacy stream does). */
    reset();
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    ping<<<1, 1>>>(flags, flags + 1, gave_up);
    pong<<<1, 1, 0, s>>>(flags, flags + 1, gave_up + 1);
    report("per-thread stream, then a created stream");

    /* The legacy stream waits for the per-thread stream. */
    reset();
    ping<<<1, 1>>>(flags, flags + 1, gave_up);
    pong<<<1, 1, 0, cudaStreamLegacy>>>(flags, flags + 1, gave_up + 1);
    report("per-thread stream, then legacy stream");

    /* The handle cudaStreamPerThread and 0 name the same stream here. */
    reset();
    ping<<<1, 1, 0, cudaStreamPerThread>>>(flags, flags + 1, gave_up);
    pong<<<1, 1>>>(flags, flags + 1, gave_up + 1);
    report("cudaStreamPerThread, then 0");

    unsigned f = 99;
    int prio = 99;
    SHOW("cudaStreamGetFlags(0)", cudaStreamGetFlags(0, &f));
    printf("flags %u\n", f);
    SHOW("cudaStreamGetPriority(cudaStreamPerThread)", cudaStreamGetPriority(cudaStreamPerThread, &prio));
    printf("priority %d\n", prio);
    SHOW("cudaStreamQuery(0)", cudaStreamQuery(0));
    SHOW("cudaStreamSynchronize(cudaStreamLegacy)", cudaStreamSynchronize(cudaStreamLegacy));

    /* Copies and sets go to the per-thread stream too. */
    int h[4] = {1, 2, 3, 4}, back[4] = {0, 0, 0, 0};
    int *d = nullptr;
    OK(cudaMalloc(&d, sizeof h));
    std::thread t3([&] {
        OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
        OK(cudaMemsetAsync(d, 0, sizeof(int), 0));
        OK(cudaMemcpyAsync(back, d, sizeof back, cudaMemcpyDeviceToHost, 0));
        OK(cudaStreamSynchronize(0));
    });
    t3.join();
    printf("copies on another thread's default stream: %d %d %d %d\n", back[0], back[1], back[2], back[3]);

    OK(cudaStreamDestroy(s));
    OK(cudaFree(d));
    OK(cudaFree(flags));
    OK(cudaFree(gave_up));
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    return 0;
}
