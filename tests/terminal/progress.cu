// Work that stays on the virtual GPU for about a second whatever the host's speed, for the
// progress line (progress_check.py): a grid of 48 blocks whose block 0 waits until the host
// raises a flag in mapped host memory (after 1 s), or with argv[1] = "graph" a graph of 6
// such grids, the k-th waiting for the flag to reach k + 1 (raised every 0.2 s). Every
// thread then iterates a recurrence, and the host checks every result.
#include <cstdio>
#include <cstring>
#include <unistd.h>

__global__ void wait_then_iterate(volatile int *flag, int node, float *out, int iters) {
    if (blockIdx.x == 0 && threadIdx.x == 0)
        while (*flag <= node) {
        }
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)(i % 13);
    for (int k = 0; k < iters; k++) x = x * 0.5f + 1.0f;
    out[i] = x;
}

int main(int argc, char **argv) {
    bool graph = argc > 1 && strcmp(argv[1], "graph") == 0;
    const int blocks = 48, threads = 64, n = blocks * threads, nodes = 6, iters = 100;
    float *d, h[n];
    int *flag, *dflag;
    cudaHostAlloc(&flag, sizeof *flag, cudaHostAllocMapped);
    *flag = 0;
    cudaHostGetDevicePointer(&dflag, flag, 0);
    cudaMalloc(&d, n * sizeof(float));
    cudaStream_t s;
    cudaStreamCreate(&s);
    if (graph) {
        cudaGraph_t g;
        cudaGraphExec_t x;
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        for (int k = 0; k < nodes; k++) wait_then_iterate<<<blocks, threads, 0, s>>>(dflag, k, d, iters);
        cudaStreamEndCapture(s, &g);
        cudaGraphInstantiate(&x, g, 0);
        cudaGraphLaunch(x, s);
        for (int k = 1; k <= nodes; k++) {
            usleep(200 * 1000);
            __atomic_store_n(flag, k, __ATOMIC_RELEASE);
        }
        cudaStreamSynchronize(s);
        cudaGraphExecDestroy(x);
        cudaGraphDestroy(g);
    } else {
        wait_then_iterate<<<blocks, threads, 0, s>>>(dflag, 0, d, iters);
        usleep(1000 * 1000);
        __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
        cudaStreamSynchronize(s);
    }
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float x = (float)(i % 13);
        for (int k = 0; k < iters; k++) x = x * 0.5f + 1.0f;
        if (h[i] != x) bad++;
    }
    printf("progress: %d of %d results wrong\n", bad, n);
    cudaStreamDestroy(s);
    cudaFree(d);
    cudaFreeHost(flag);
    return bad != 0;
}
