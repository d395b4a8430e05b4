// Work that runs long enough on the virtual GPU for the progress line (progress_check.py):
// a grid of 48 blocks whose threads each iterate a recurrence argv[1] times, or with
// argv[2] = "graph" a graph of 6 such grids of argv[1] / 6 iterations each (captured from
// a stream) launched once; the host checks every thread's result against the recurrence.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void iterate(float *out, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)(i % 13);
    for (int k = 0; k < iters; k++) x = x * 0.5f + 1.0f;
    out[i] = x;
}

int main(int argc, char **argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 1000;
    bool graph = argc > 2 && strcmp(argv[2], "graph") == 0;
    const int blocks = 48, threads = 64, n = blocks * threads, nodes = 6;
    float *d, h[n];
    cudaMalloc(&d, n * sizeof(float));
    if (graph) {
        iters /= nodes;
        cudaStream_t s;
        cudaGraph_t g;
        cudaGraphExec_t x;
        cudaStreamCreate(&s);
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        for (int k = 0; k < nodes; k++) iterate<<<blocks, threads, 0, s>>>(d, iters);
        cudaStreamEndCapture(s, &g);
        cudaGraphInstantiate(&x, g, 0);
        cudaGraphLaunch(x, s);
        cudaStreamSynchronize(s);
        cudaGraphExecDestroy(x);
        cudaGraphDestroy(g);
        cudaStreamDestroy(s);
    } else {
        iterate<<<blocks, threads>>>(d, iters);
    }
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float x = (float)(i % 13);
        for (int k = 0; k < iters; k++) x = x * 0.5f + 1.0f;
        if (h[i] != x) bad++;
    }
    printf("progress: %d of %d results wrong\n", bad, n);
    cudaFree(d);
    return bad != 0;
}
