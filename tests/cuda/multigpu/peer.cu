/* peer.cu — memory between devices: cudaMemcpyPeer and cudaMemcpyPeerAsync, cudaMemcpy
 * with cudaMemcpyDefault from one device's memory to another's, a kernel on device 0
 * reading and writing device 1's memory once peer access is enabled, a stream of device 1
 * waiting for an event recorded on device 0 (cross-device ordering), and managed memory
 * written by kernels of both devices. */
#include "mgpu_test.h"

__global__ void iota(int *p, int base, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = base + i;
}

/* Reads src (possibly a peer's memory), writes dst (possibly a peer's memory). */
__global__ void add_into(int *dst, const int *src, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] += 2 * src[i];
}

/* A kernel that takes a while, so a missing cross-device wait would be seen. */
__global__ void slow_fill(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = 0;
    for (int k = 0; k < 2000; k++) x = x * 3 + k;
    p[i] = v + (x & 0);
}

__global__ void copy_plus_one(int *dst, const int *src, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i] + 1;
}

static long long sum_of(const int *h, int n) {
    long long s = 0;
    for (int i = 0; i < n; i++) s += h[i];
    return s;
}

int main() {
    mgpu_devices();
    const int n = 1 << 16;
    const size_t bytes = n * sizeof(int);
    int *a0, *b0, *a1, *b1;
    int *h = (int *)malloc(bytes);
    OK(cudaSetDevice(0));
    OK(cudaMalloc(&a0, bytes));
    OK(cudaMalloc(&b0, bytes));
    OK(cudaSetDevice(1));
    OK(cudaMalloc(&a1, bytes));
    OK(cudaMalloc(&b1, bytes));

    /* peer copies */
    OK(cudaSetDevice(0));
    iota<<<n / 256, 256>>>(a0, 10, n);
    OK(cudaGetLastError());
    OK(cudaMemcpyPeer(a1, 1, a0, 0, bytes));
    OK(cudaMemcpy(h, a1, bytes, cudaMemcpyDeviceToHost));
    printf("cudaMemcpyPeer 0->1: sum %lld\n", sum_of(h, n));
    OK(cudaSetDevice(1));
    iota<<<n / 256, 256>>>(b1, 1000, n);
    OK(cudaGetLastError());
    cudaStream_t s1;
    OK(cudaStreamCreate(&s1));
    OK(cudaMemcpyPeerAsync(b0, 0, b1, 1, bytes, s1));
    OK(cudaStreamSynchronize(s1));
    OK(cudaMemcpy(h, b0, bytes, cudaMemcpyDeviceToHost));
    printf("cudaMemcpyPeerAsync 1->0: sum %lld\n", sum_of(h, n));
    OK(cudaMemcpy(b0, a1, bytes, cudaMemcpyDefault));
    OK(cudaMemcpy(h, b0, bytes, cudaMemcpyDefault));
    printf("cudaMemcpy Default 1->0: sum %lld\n", sum_of(h, n));
    OK(cudaMemcpy(b0, a1, bytes, cudaMemcpyDeviceToDevice));
    printf("cudaMemcpy DeviceToDevice 1->0: ok\n");
    SHOW("cudaMemcpyPeer bad device", cudaMemcpyPeer(a1, 2, a0, 0, bytes));
    SHOW("cudaMemcpyPeer negative device", cudaMemcpyPeer(a1, 1, a0, -1, bytes));
    cudaGetLastError(); /* the two refusals above are the thread's last error: clear it */

    /* a kernel on device 0 touching device 1's memory through peer access */
    OK(cudaSetDevice(0));
    OK(cudaDeviceEnablePeerAccess(1, 0));
    OK(cudaMemset(a0, 0, bytes));
    iota<<<n / 256, 256>>>(a0, 0, n);
    add_into<<<n / 256, 256>>>(a0, b1, n);     /* reads device 1's b1 */
    OK(cudaGetLastError());
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, a0, bytes, cudaMemcpyDeviceToHost));
    printf("device 0 kernel reading device 1: sum %lld\n", sum_of(h, n));
    add_into<<<n / 256, 256>>>(b1, a0, n);     /* writes device 1's b1 */
    OK(cudaGetLastError());
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, b1, bytes, cudaMemcpyDeviceToHost));
    printf("device 0 kernel writing device 1: sum %lld\n", sum_of(h, n));
    OK(cudaDeviceDisablePeerAccess(1));

    /* device 1's stream waits for an event of device 0 */
    cudaStream_t s0;
    cudaEvent_t ev;
    OK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    OK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    for (int round = 0; round < 3; round++) {
        OK(cudaSetDevice(0));
        slow_fill<<<n / 256, 256, 0, s0>>>(a0, 100 + round, n);
        OK(cudaMemcpyAsync(a1, a0, bytes, cudaMemcpyDefault, s0));
        OK(cudaEventRecord(ev, s0));
        OK(cudaSetDevice(1));
        OK(cudaStreamWaitEvent(s1, ev, 0));
        copy_plus_one<<<n / 256, 256, 0, s1>>>(b1, a1, n);
        OK(cudaGetLastError());
        OK(cudaMemcpyAsync(h, b1, bytes, cudaMemcpyDeviceToHost, s1));
        OK(cudaStreamSynchronize(s1));
        printf("round %d: device 1 saw device 0's data: sum %lld (want %lld)\n", round,
               sum_of(h, n), (long long)n * (101 + round));
    }

    /* managed memory, written by both devices */
    int *m;
    OK(cudaMallocManaged(&m, bytes));
    OK(cudaSetDevice(0));
    iota<<<n / 512, 256>>>(m, 0, n / 2);
    OK(cudaDeviceSynchronize());
    OK(cudaSetDevice(1));
    iota<<<n / 512, 256>>>(m + n / 2, 5, n / 2);
    OK(cudaDeviceSynchronize());
    printf("managed memory from both devices: sum %lld, m[0]=%d m[n/2]=%d\n", sum_of(m, n),
           m[0], m[n / 2]);
    OK(cudaFree(m));

    OK(cudaStreamDestroy(s1));
    OK(cudaFree(a1));
    OK(cudaFree(b1));
    OK(cudaSetDevice(0));
    OK(cudaStreamDestroy(s0));
    OK(cudaEventDestroy(ev));
    OK(cudaFree(a0));
    OK(cudaFree(b0));
    free(h);
    printf("done\n");
    return 0;
}
