/* threads.cu — eight host threads using the runtime at once, each with its own streams,
 * events and work, and its own last error; the main thread prints what each found. */
#include "streams_test.h"
#include <thread>

__global__ void fill(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}
__global__ void accumulate(const int *src, int *dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] += src[i];
}

struct result {
    long long sum;
    int device;
    cudaError_t own_error, after_get;
    int query_ok;
};

static void worker(int t, result *r) {
    const int n = 2048, iters = 40;
    r->device = -1;
    OK(cudaSetDevice(0));
    OK(cudaGetDevice(&r->device));
    cudaStream_t s[2];
    cudaEvent_t e[2];
    for (int k = 0; k < 2; k++) {
        OK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
        OK(cudaEventCreateWithFlags(&e[k], cudaEventDisableTiming));
    }
    int *a = nullptr, *acc = nullptr, *h = nullptr;
    OK(cudaMalloc(&a, n * sizeof(int)));
    OK(cudaMalloc(&acc, n * sizeof(int)));
    OK(cudaMallocHost(&h, n * sizeof(int)));
    OK(cudaMemsetAsync(acc, 0, n * sizeof(int), s[1]));
    OK(cudaEventRecord(e[1], s[1]));
    for (int i = 0; i < iters; i++) {
        /* s0 fills, s1 accumulates once the fill is done; the next fill waits for the
         * accumulation before overwriting. */
        OK(cudaStreamWaitEvent(s[0], e[1], 0));
        fill<<<n / 256, 256, 0, s[0]>>>(a, n, t * 100 + i);
        OK(cudaEventRecord(e[0], s[0]));
        OK(cudaStreamWaitEvent(s[1], e[0], 0));
        accumulate<<<n / 256, 256, 0, s[1]>>>(a, acc, n);
        OK(cudaEventRecord(e[1], s[1]));
    }
    OK(cudaMemcpyAsync(h, acc, n * sizeof(int), cudaMemcpyDeviceToHost, s[1]));
    OK(cudaStreamSynchronize(s[1]));
    r->query_ok = cudaEventQuery(e[1]) == cudaSuccess && cudaStreamQuery(s[0]) == cudaSuccess;
    r->sum = 0;
    for (int i = 0; i < n; i++) r->sum += h[i];
    /* Odd threads make a call fail; each thread sees only its own error. */
    if (t % 2) cudaStreamCreateWithFlags(nullptr, 0);
    r->own_error = cudaPeekAtLastError();
    cudaGetLastError();
    r->after_get = cudaGetLastError();
    for (int k = 0; k < 2; k++) {
        OK(cudaStreamDestroy(s[k]));
        OK(cudaEventDestroy(e[k]));
    }
    OK(cudaFree(a));
    OK(cudaFree(acc));
    OK(cudaFreeHost(h));
}

int main() {
    const int nthreads = 8;
    result r[nthreads];
    std::thread th[nthreads];
    for (int t = 0; t < nthreads; t++) th[t] = std::thread(worker, t, &r[t]);
    for (int t = 0; t < nthreads; t++) th[t].join();
    for (int t = 0; t < nthreads; t++)
        printf("thread %d: device %d, sum %lld, queries done %d, its error %s, then %s\n", t,
               r[t].device, r[t].sum, r[t].query_ok, cudaGetErrorName(r[t].own_error),
               cudaGetErrorName(r[t].after_get));
    SHOW("main thread's last error", cudaGetLastError());
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    return 0;
}
