/* overlap.cu — copies and kernels of several streams overlapping: each stream copies its
 * chunk in (pinned memory), transforms it and copies it back; the results, the events'
 * order on the device's clock, and what cudaMemcpyAsync does with pageable memory. */
#include "streams_test.h"

__global__ void transform(float *d, int n, float f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = d[i] * f + 1.0f;
}

__global__ void add_one(int *d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] += 1;
}

int main() {
    const int nstreams = 4, chunk = 1 << 16, n = nstreams * chunk;
    float *h = nullptr, *d = nullptr;
    OK(cudaMallocHost(&h, n * sizeof(float)));
    OK(cudaMalloc(&d, n * sizeof(float)));
    for (int i = 0; i < n; i++) h[i] = (float)(i % 1000);

    cudaStream_t s[nstreams];
    cudaEvent_t begin[nstreams], end[nstreams];
    for (int k = 0; k < nstreams; k++) {
        OK(cudaStreamCreate(&s[k]));
        OK(cudaEventCreate(&begin[k]));
        OK(cudaEventCreate(&end[k]));
    }
    for (int k = 0; k < nstreams; k++) {
        size_t off = (size_t)k * chunk;
        OK(cudaEventRecord(begin[k], s[k]));
        OK(cudaMemcpyAsync(d + off, h + off, chunk * sizeof(float), cudaMemcpyHostToDevice, s[k]));
        transform<<<chunk / 256, 256, 0, s[k]>>>(d + off, chunk, (float)(k + 2));
        OK(cudaGetLastError());
        OK(cudaMemcpyAsync(h + off, d + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
        OK(cudaEventRecord(end[k], s[k]));
    }
    for (int k = 0; k < nstreams; k++) {
        SHOW("cudaEventSynchronize end", cudaEventSynchronize(end[k]));
        SHOW("cudaStreamQuery after its last event", cudaStreamQuery(s[k]));
        double sum = 0;
        int bad = 0;
        for (int i = 0; i < chunk; i++) {
            size_t at = (size_t)k * chunk + i;
            float want = (float)(at % 1000) * (float)(k + 2) + 1.0f;
            if (h[at] != want) bad++;
            sum += h[at];
        }
        printf("stream %d: %d wrong, sum %.1f\n", k, bad, sum);
        float ms = -1;
        SHOW("cudaEventElapsedTime begin,end", cudaEventElapsedTime(&ms, begin[k], end[k]));
        printf("stream %d: copies and kernel took some time: %d\n", k, ms > 0.0f);
        printf("info stream %d: %.4f ms\n", k, ms);
    }

    float all = 0;
    OK(cudaEventElapsedTime(&all, begin[0], end[nstreams - 1]));
    printf("info first begin to last end: %.4f ms\n", all);

    /* Pageable memory: a copy to it returns once done; a copy from it takes the data as
     * it is at the call. */
    const int m = 1024;
    int *pageable = (int *)malloc(m * sizeof(int)), *back = (int *)malloc(m * sizeof(int));
    int *dm = nullptr;
    OK(cudaMalloc(&dm, m * sizeof(int)));
    for (int i = 0; i < m; i++) pageable[i] = i;
    OK(cudaMemcpyAsync(dm, pageable, m * sizeof(int), cudaMemcpyHostToDevice, s[0]));
    for (int i = 0; i < m; i++) pageable[i] = -1; /* after the call: must not be copied */
    add_one<<<m / 128, 128, 0, s[0]>>>(dm, m);
    for (int i = 0; i < m; i++) back[i] = -7;
    OK(cudaMemcpyAsync(back, dm, m * sizeof(int), cudaMemcpyDeviceToHost, s[0]));
    int ready = 0;
    for (int i = 0; i < m; i++) ready += back[i] == i + 1;
    printf("pageable: values back when cudaMemcpyAsync returned: %d of %d\n", ready, m);
    OK(cudaStreamSynchronize(s[0]));
    int right = 0;
    for (int i = 0; i < m; i++) right += back[i] == i + 1;
    printf("pageable: values right after synchronising: %d of %d\n", right, m);

    /* A synchronous copy waits for the legacy stream, which waits for the streams. */
    float last = 0;
    transform<<<1, 1, 0, s[3]>>>(d + n - 1, 1, 2.0f);
    OK(cudaMemcpy(&last, d + n - 1, sizeof(float), cudaMemcpyDeviceToHost));
    printf("blocking copy after a kernel of a blocking stream: %.1f\n", last);

    for (int k = 0; k < nstreams; k++) {
        OK(cudaStreamDestroy(s[k]));
        OK(cudaEventDestroy(begin[k]));
        OK(cudaEventDestroy(end[k]));
    }
    OK(cudaFree(d));
    OK(cudaFree(dm));
    OK(cudaFreeHost(h));
    free(pageable);
    free(back);
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    return 0;
}
