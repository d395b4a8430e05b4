// A copy-compute pipeline over three streams, for the timeline test (timeline_check.py):
// per stream an upload, a kernel, a host function and a download; one memset; stream 2
// waits for an event of stream 0. What the timeline must hold is known from this source:
// 3 kernels, 6 copies (3 HtoD, 3 DtoH), 1 memset, 3 host functions.
#include <cstdio>

__global__ void scale(float *x, int n, float a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

static int done[3];
static void CUDART_CB mark_done(void *arg) { done[*(int *)arg] = 1; }

int main() {
    const int n = 1 << 14, nstreams = 3;
    float *host, *dev;
    cudaMallocHost(&host, nstreams * n * sizeof(float));
    cudaMalloc(&dev, nstreams * n * sizeof(float));
    for (int i = 0; i < nstreams * n; i++) host[i] = (float)(i % 100);
    cudaMemset(dev, 0, nstreams * n * sizeof(float));
    cudaStream_t s[nstreams];
    cudaEvent_t first;
    cudaEventCreate(&first);
    int ids[nstreams];
    for (int k = 0; k < nstreams; k++) cudaStreamCreate(&s[k]);
    for (int k = 0; k < nstreams; k++) {
        ids[k] = k;
        float *h = host + k * n, *d = dev + k * n;
        if (k == 2) cudaStreamWaitEvent(s[k], first, 0);
        cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s[k]);
        scale<<<n / 256, 256, 0, s[k]>>>(d, n, (float)(k + 2));
        if (k == 0) cudaEventRecord(first, s[k]);
        cudaLaunchHostFunc(s[k], mark_done, &ids[k]);
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
    }
    cudaDeviceSynchronize();
    int bad = 0;
    for (int k = 0; k < nstreams; k++)
        for (int i = 0; i < n; i++)
            if (host[k * n + i] != (float)((k * n + i) % 100) * (float)(k + 2)) bad++;
    printf("pipeline: %d wrong values, host functions ran: %d %d %d\n", bad, done[0], done[1], done[2]);
    for (int k = 0; k < nstreams; k++) cudaStreamDestroy(s[k]);
    cudaEventDestroy(first);
    cudaFree(dev);
    cudaFreeHost(host);
    return bad != 0;
}
