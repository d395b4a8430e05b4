/* streams_api.cu — streams as objects: flags and priorities, destroying a stream whose
 * work is still pending (allowed: it finishes, then the stream goes), queries of busy and
 * idle streams, and the default-stream handles. */
#include "streams_test.h"

__global__ void add(int *p, int v) { atomicAdd(p, v); }

int main() {
    cudaStream_t s[4];
    SHOW("cudaStreamCreate", cudaStreamCreate(&s[0]));
    SHOW("cudaStreamCreateWithFlags NonBlocking", cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    SHOW("cudaStreamCreateWithPriority -3", cudaStreamCreateWithPriority(&s[2], cudaStreamDefault, -3));
    SHOW("cudaStreamCreateWithPriority 7", cudaStreamCreateWithPriority(&s[3], cudaStreamNonBlocking, 7));
    for (int k = 0; k < 4; k++) {
        unsigned f = 99;
        int p = 99;
        OK(cudaStreamGetFlags(s[k], &f));
        OK(cudaStreamGetPriority(s[k], &p));
        printf("stream %d: flags %u priority %d\n", k, f, p);
    }
    int dev = -1;
    SHOW("cudaStreamGetDevice", cudaStreamGetDevice(s[1], &dev));
    printf("device %d\n", dev);
    unsigned long long id0 = 0, id1 = 0;
    OK(cudaStreamGetId(s[0], &id0));
    OK(cudaStreamGetId(s[1], &id1));
    printf("stream ids differ: %d\n", id0 != id1);

    SHOW("cudaStreamQuery idle", cudaStreamQuery(s[0]));

    /* A stream destroyed while its work waits for the host: the call returns at once and
     * the work still runs. */
    volatile int *gate = host_flag();
    int *sum = nullptr, *done = nullptr;
    OK(cudaMalloc(&sum, sizeof(int)));
    OK(cudaMalloc(&done, sizeof(int)));
    OK(cudaMemset(sum, 0, sizeof(int)));
    OK(cudaMemset(done, 0, sizeof(int)));
    OK(cudaDeviceSynchronize());
    wait_for_host<<<1, 1, 0, s[1]>>>(gate, done);
    add<<<4, 32, 0, s[1]>>>(sum, 1);
    SHOW("cudaStreamQuery busy", cudaStreamQuery(s[1]));
    SHOW("cudaStreamDestroy busy stream", cudaStreamDestroy(s[1]));
    set_host_flag(gate);
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    int h = 0, d = 0;
    OK(cudaMemcpy(&h, sum, sizeof h, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(&d, done, sizeof d, cudaMemcpyDeviceToHost));
    printf("work of the destroyed stream ran: done %d, sum %d\n", d, h);

    /* Work on every kind of handle. (The set is on the legacy stream, which the
     * non-blocking streams do not wait for: synchronise before they use the memory.) */
    OK(cudaMemset(sum, 0, sizeof(int)));
    OK(cudaDeviceSynchronize());
    add<<<1, 1, 0, s[0]>>>(sum, 1);
    add<<<1, 1, 0, s[2]>>>(sum, 10);
    add<<<1, 1, 0, s[3]>>>(sum, 100);
    add<<<1, 1, 0, cudaStreamLegacy>>>(sum, 1000);
    add<<<1, 1, 0, cudaStreamPerThread>>>(sum, 10000);
    add<<<1, 1>>>(sum, 100000);
    SHOW("cudaStreamSynchronize(cudaStreamPerThread)", cudaStreamSynchronize(cudaStreamPerThread));
    SHOW("cudaStreamSynchronize(cudaStreamLegacy)", cudaStreamSynchronize(cudaStreamLegacy));
    SHOW("cudaStreamSynchronize(s[3])", cudaStreamSynchronize(s[3]));
    OK(cudaMemcpy(&h, sum, sizeof h, cudaMemcpyDeviceToHost));
    printf("sum over all handles: %d\n", h);

    /* Many streams made and destroyed, each with a little work. */
    OK(cudaMemset(sum, 0, sizeof(int)));
    OK(cudaDeviceSynchronize());
    for (int i = 0; i < 200; i++) {
        cudaStream_t t;
        OK(cudaStreamCreateWithFlags(&t, i % 2 ? cudaStreamNonBlocking : cudaStreamDefault));
        add<<<1, 32, 0, t>>>(sum, 1);
        OK(cudaStreamDestroy(t));
    }
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    OK(cudaMemcpy(&h, sum, sizeof h, cudaMemcpyDeviceToHost));
    printf("200 short-lived streams: sum %d\n", h);

    for (int k = 0; k < 4; k++)
        if (k != 1) OK(cudaStreamDestroy(s[k]));
    OK(cudaFree(sum));
    OK(cudaFree(done));
    return 0;
}
