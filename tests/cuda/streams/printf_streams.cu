/* printf_streams.cu — device printf of grids in several streams: output appears when the
 * host synchronises with the grid (a stream, an event, the device, a blocking copy), and
 * grids ordered by events print in that order. */
#include "streams_test.h"

__global__ void say(int tag) {
    if (threadIdx.x == 0) printf("device: grid %d\n", tag);
}

int main() {
    cudaStream_t a, b;
    OK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    cudaEvent_t e;
    OK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));

    say<<<1, 32, 0, a>>>(1);
    OK(cudaStreamSynchronize(a));
    printf("host: after synchronising stream a\n");

    say<<<1, 32, 0, a>>>(2);
    OK(cudaEventRecord(e, a));
    OK(cudaStreamWaitEvent(b, e, 0));
    say<<<1, 32, 0, b>>>(3);
    OK(cudaStreamSynchronize(b));
    printf("host: after synchronising stream b, which waited for a\n");

    say<<<1, 32, 0, b>>>(4);
    OK(cudaEventRecord(e, b));
    OK(cudaEventSynchronize(e));
    printf("host: after synchronising an event after grid 4\n");

    say<<<1, 32, 0, a>>>(5);
    OK(cudaEventRecord(e, a));
    OK(cudaStreamWaitEvent(b, e, 0));
    say<<<1, 32, 0, b>>>(6);
    OK(cudaEventRecord(e, b));
    OK(cudaStreamWaitEvent(a, e, 0));
    say<<<1, 32, 0, a>>>(7);
    OK(cudaDeviceSynchronize());
    printf("host: after cudaDeviceSynchronize (grids 5, 6, 7 ordered by events)\n");

    cudaStream_t blocking;
    OK(cudaStreamCreate(&blocking));
    int *d = nullptr, h = 0;
    OK(cudaMalloc(&d, sizeof(int)));
    say<<<1, 32, 0, blocking>>>(8);
    OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("host: after a blocking copy (the legacy stream waited for grid 8)\n");

    for (int i = 0; i < 3; i++) {
        say<<<1, 32, 0, a>>>(10 + i);
        OK(cudaStreamSynchronize(a));
        printf("host: after grid %d\n", 10 + i);
    }
    OK(cudaStreamDestroy(a));
    OK(cudaStreamDestroy(b));
    OK(cudaStreamDestroy(blocking));
    OK(cudaEventDestroy(e));
    OK(cudaFree(d));
    return 0;
}
