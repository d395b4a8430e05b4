// A grid that runs long enough on the virtual GPU for the progress line (progress_check.py):
// 48 blocks whose threads each iterate a recurrence argv[1] times; the host checks every
// thread's result against the same recurrence.
#include <cstdio>
#include <cstdlib>

__global__ void iterate(float *out, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)(i % 13);
    for (int k = 0; k < iters; k++) x = x * 0.5f + 1.0f;
    out[i] = x;
}

int main(int argc, char **argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 1000;
    const int blocks = 48, threads = 64, n = blocks * threads;
    float *d, h[n];
    cudaMalloc(&d, n * sizeof(float));
    iterate<<<blocks, threads>>>(d, iters);
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
