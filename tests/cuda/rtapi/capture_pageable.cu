// capture_pageable.cu — copies between device memory and pageable host memory (malloc)
// in a capturing stream: CUDA records them as memcpy nodes like any other copy, and the
// graph reads and writes the host buffers when it runs, not when it was captured. A
// copy to pageable memory in a second stream that joined the capture, a host-to-host
// copy, and the capture's node count.
#include "../streams/streams_test.h"

__global__ void twice(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * in[i];
}

int main() {
    const int n = 1000;
    const size_t bytes = n * sizeof(int);
    int *h_in = (int *)malloc(bytes), *h_out = (int *)malloc(bytes), *h_copy = (int *)malloc(bytes);
    int *h_out2 = (int *)malloc(bytes);
    int *d_in, *d_out;
    OK(cudaMalloc(&d_in, bytes));
    OK(cudaMalloc(&d_out, bytes));
    for (int i = 0; i < n; i++) h_in[i] = i;
    memset(h_out, 0, bytes);
    memset(h_out2, 0, bytes);
    memset(h_copy, 0, bytes);
    cudaStream_t s, s2;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t fork, join;
    OK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    OK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW("capture H2D from pageable", cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s));
    twice<<<(n + 255) / 256, 256, 0, s>>>(d_in, d_out, n);
    SHOW("capture D2H to pageable", cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s));
    OK(cudaEventRecord(fork, s));
    OK(cudaStreamWaitEvent(s2, fork, 0));
    SHOW("capture D2H to pageable, joined stream",
         cudaMemcpyAsync(h_out2, d_out, bytes, cudaMemcpyDefault, s2));
    OK(cudaEventRecord(join, s2));
    OK(cudaStreamWaitEvent(s, join, 0));
    SHOW("capture H2H", cudaMemcpyAsync(h_copy, h_in, bytes, cudaMemcpyHostToHost, s));
    cudaGraph_t g;
    SHOW("end capture", cudaStreamEndCapture(s, &g));
    size_t nodes = 0;
    OK(cudaGraphGetNodes(g, NULL, &nodes));
    printf("nodes: %zu\n", nodes);
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, NULL, NULL, 0));

    /* nothing ran during the capture */
    int untouched = 1;
    for (int i = 0; i < n; i++) untouched &= h_out[i] == 0 && h_out2[i] == 0 && h_copy[i] == 0;
    printf("host buffers untouched by the capture: %d\n", untouched);

    for (int round = 1; round <= 3; round++) {
        for (int i = 0; i < n; i++) h_in[i] = round * 1000 + i; /* what the graph must read */
        memset(h_out, 0, bytes);
        memset(h_out2, 0, bytes);
        memset(h_copy, 0, bytes);
        OK(cudaGraphLaunch(x, s));
        OK(cudaStreamSynchronize(s));
        int ok = 1, ok2 = 1, okc = 1;
        for (int i = 0; i < n; i++) {
            ok &= h_out[i] == 2 * (round * 1000 + i);
            ok2 &= h_out2[i] == 2 * (round * 1000 + i);
            okc &= h_copy[i] == round * 1000 + i;
        }
        printf("launch %d: out %s, joined stream's out %s, host copy %s (out[7] = %d)\n", round,
               ok ? "right" : "WRONG", ok2 ? "right" : "WRONG", okc ? "right" : "WRONG", h_out[7]);
    }
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
    OK(cudaFree(d_in));
    OK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    free(h_out2);
    free(h_copy);
    printf("done\n");
    return 0;
}
