// Overlap of copies and kernels as the Best Practices Guide shows it: the data split in
// chunks, each chunk's host-to-device copy, kernel and device-to-host copy issued into one
// of several streams (pinned memory), then the same with pageable memory and
// cudaMemcpyAsync (which CUDA stages synchronously), and a breadth-first issue order.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void polish(const float *in, float *out, int n, int chunkId)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        float y = 0;
        for (int k = 0; k < 16; k++) y = y * 0.5f + x * (float)(k + chunkId);
        out[i] = y;
    }
}

static double run(float *hin, float *hout, float *din, float *dout, int n, int nStreams, int chunks,
                  bool breadthFirst, cudaStream_t *st)
{
    int chunk = n / chunks;
    if (!breadthFirst) {
        for (int c = 0; c < chunks; c++) {
            cudaStream_t s = st[c % nStreams];
            size_t off = (size_t)c * chunk;
            CK(cudaMemcpyAsync(din + off, hin + off, chunk * sizeof(float), cudaMemcpyHostToDevice, s));
            polish<<<(chunk + 255) / 256, 256, 0, s>>>(din + off, dout + off, chunk, c);
            CK(cudaMemcpyAsync(hout + off, dout + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, s));
        }
    } else {
        for (int c = 0; c < chunks; c++)
            CK(cudaMemcpyAsync(din + (size_t)c * chunk, hin + (size_t)c * chunk, chunk * sizeof(float),
                               cudaMemcpyHostToDevice, st[c % nStreams]));
        for (int c = 0; c < chunks; c++)
            polish<<<(chunk + 255) / 256, 256, 0, st[c % nStreams]>>>(din + (size_t)c * chunk,
                                                                    dout + (size_t)c * chunk, chunk, c);
        for (int c = 0; c < chunks; c++)
            CK(cudaMemcpyAsync(hout + (size_t)c * chunk, dout + (size_t)c * chunk, chunk * sizeof(float),
                               cudaMemcpyDeviceToHost, st[c % nStreams]));
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    double s = 0;
    for (int i = 0; i < n; i++) s += hout[i];
    return s;
}

int main()
{
    const int n = 1 << 20, chunks = 16, nStreams = 4;
    float *pinIn, *pinOut, *din, *dout;
    CK(cudaMallocHost(&pinIn, n * sizeof(float)));
    CK(cudaHostAlloc(&pinOut, n * sizeof(float), cudaHostAllocDefault));
    float *pageIn = (float *)malloc(n * sizeof(float)), *pageOut = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) pinIn[i] = pageIn[i] = (float)((i * 31) % 1000) / 1000.0f;
    CK(cudaMalloc(&din, n * sizeof(float)));
    CK(cudaMalloc(&dout, n * sizeof(float)));
    cudaStream_t st[nStreams];
    for (int i = 0; i < nStreams; i++) CK(cudaStreamCreate(&st[i]));

    double a = run(pinIn, pinOut, din, dout, n, nStreams, chunks, false, st);
    printf("pinned, depth-first:    %.6f\n", a);
    CK(cudaMemset(dout, 0, n * sizeof(float)));
    double b = run(pinIn, pinOut, din, dout, n, nStreams, chunks, true, st);
    printf("pinned, breadth-first:  %.6f\n", b);
    CK(cudaMemset(dout, 0, n * sizeof(float)));
    double c = run(pageIn, pageOut, din, dout, n, nStreams, chunks, false, st);
    printf("pageable, depth-first:  %.6f\n", c);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += pinOut[i] != pageOut[i];
    printf("pinned and pageable results differ in %d elements\n", bad);
    printf("out[0]=%.9g out[n/2+7]=%.9g out[n-1]=%.9g\n", pageOut[0], pageOut[n / 2 + 7], pageOut[n - 1]);

    // a pageable copy returns with the data already in the source buffer's destination
    for (int i = 0; i < 1024; i++) pageIn[i] = (float)i;
    CK(cudaMemcpyAsync(din, pageIn, 1024 * sizeof(float), cudaMemcpyHostToDevice, st[0]));
    for (int i = 0; i < 1024; i++) pageIn[i] = -1.0f;   // allowed once the call returned
    CK(cudaMemcpyAsync(pageOut, din, 1024 * sizeof(float), cudaMemcpyDeviceToHost, st[0]));
    CK(cudaStreamSynchronize(st[0]));
    printf("staged pageable copy kept the old values: %s (%.0f %.0f)\n",
           pageOut[5] == 5.0f && pageOut[1023] == 1023.0f ? "yes" : "no", pageOut[5], pageOut[1023]);
    for (int i = 0; i < nStreams; i++) CK(cudaStreamDestroy(st[i]));
    CK(cudaFreeHost(pinIn));
    CK(cudaFreeHost(pinOut));
    CK(cudaFree(din));
    CK(cudaFree(dout));
    free(pageIn);
    free(pageOut);
    return !(a == b && b == c && bad == 0);
}
