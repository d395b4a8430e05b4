/* threads.cu — one host thread per device: each thread makes its device current, allocates,
 * copies its slice in, runs kernels in a stream of its own and copies the result out; the
 * main thread checks the slices once every thread has joined. The current device is per
 * host thread, so the threads' cudaSetDevice calls do not disturb each other. */
#include "mgpu_test.h"
#include <pthread.h>

__global__ void square_plus(int *a, int add, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * a[i] + add;
}

struct job {
    int device;
    int *host;
    int n;
    int seen_device;
    cudaError_t err;
};

static void *worker(void *arg) {
    struct job *j = (struct job *)arg;
    cudaError_t e = cudaSetDevice(j->device);
    int *d = NULL;
    cudaStream_t s;
    if (!e) e = cudaStreamCreate(&s);
    if (!e) e = cudaMalloc(&d, j->n * sizeof(int));
    for (int rep = 0; rep < 3 && !e; rep++) {
        e = cudaMemcpyAsync(d, j->host, j->n * sizeof(int), cudaMemcpyHostToDevice, s);
        if (!e) {
            square_plus<<<(j->n + 127) / 128, 128, 0, s>>>(d, j->device + rep, j->n);
            e = cudaGetLastError();
        }
        if (!e) e = cudaMemcpyAsync(j->host, d, j->n * sizeof(int), cudaMemcpyDeviceToHost, s);
        if (!e) e = cudaStreamSynchronize(s);
    }
    if (!e) e = cudaGetDevice(&j->seen_device);
    if (d) cudaFree(d);
    if (!e) e = cudaStreamDestroy(s);
    j->err = e;
    return NULL;
}

int main() {
    const int ngpu = mgpu_devices();
    const int n = 5000;
    struct job jobs[8];
    pthread_t th[8];
    for (int g = 0; g < ngpu; g++) {
        jobs[g].device = g;
        jobs[g].n = n;
        jobs[g].err = cudaSuccess;
        jobs[g].seen_device = -1;
        OK(cudaMallocHost(&jobs[g].host, n * sizeof(int)));
        for (int i = 0; i < n; i++) jobs[g].host[i] = (i + g) % 7;
    }
    for (int g = 0; g < ngpu; g++) pthread_create(&th[g], NULL, worker, &jobs[g]);
    for (int g = 0; g < ngpu; g++) pthread_join(th[g], NULL);
    int cur = -1;
    OK(cudaGetDevice(&cur));
    printf("main thread's device: %d\n", cur);
    for (int g = 0; g < ngpu; g++) {
        long long want_sum = 0, got_sum = 0;
        int bad = 0;
        for (int i = 0; i < n; i++) {
            long long v = (i + g) % 7;
            for (int rep = 0; rep < 3; rep++) v = (int)(v * v + g + rep);
            want_sum += (int)v;
            got_sum += jobs[g].host[i];
            if (jobs[g].host[i] != (int)v) bad++;
        }
        printf("thread %d: %s, device %d, wrong %d, sum %lld (host %lld)\n", g,
               cudaGetErrorName(jobs[g].err), jobs[g].seen_device, bad, got_sum, want_sum);
        OK(cudaFreeHost(jobs[g].host));
    }
    return 0;
}
