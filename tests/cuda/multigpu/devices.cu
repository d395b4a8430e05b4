/* devices.cu — the runtime's view of several devices: the count, each device's
 * properties, the current device per host thread (a new thread starts on device 0),
 * cudaChooseDevice, peer access queries and their errors, which device owns each kind of
 * memory (cudaPointerGetAttributes), streams and events belonging to the device current at
 * their creation, and the errors of using them from another device. */
#include "mgpu_test.h"
#include <pthread.h>

__global__ void fill(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

static void *thread_main(void *arg) {
    int *out = (int *)arg;
    OK(cudaGetDevice(out));       /* a new host thread starts on device 0 */
    OK(cudaSetDevice(1));
    OK(cudaGetDevice(out + 1));
    return NULL;
}

static const char *type_name(cudaMemoryType t) {
    switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered";
    case cudaMemoryTypeHost: return "host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
    }
    return "?";
}

static void show_ptr(const char *label, const void *p) {
    cudaPointerAttributes a;
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    printf("%s: %s type=%s device=%d\n", label, cudaGetErrorName(e), type_name(a.type),
           a.device);
}

int main() {
    int n = mgpu_devices();
    printf("devices: %d\n", n);
    for (int d = 0; d < 2; d++) {
        cudaDeviceProp p;
        OK(cudaGetDeviceProperties(&p, d));
        int sms = 0, major = 0;
        OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
        OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d));
        printf("device %d: sm_%d%d, %d SMs (attribute %d), major %d, unified addressing %d, "
               "warp %d\n",
               d, p.major, p.minor, p.multiProcessorCount, sms, major, p.unifiedAddressing,
               p.warpSize);
    }
    cudaDeviceProp p0, p1;
    OK(cudaGetDeviceProperties(&p0, 0));
    OK(cudaGetDeviceProperties(&p1, 1));
    printf("same name: %d, same memory size: %d, same PCI bus: %d\n",
           strcmp(p0.name, p1.name) == 0, p0.totalGlobalMem == p1.totalGlobalMem,
           p0.pciBusID == p1.pciBusID);
    char bus0[32], bus1[32];
    OK(cudaDeviceGetPCIBusId(bus0, sizeof bus0, 0));
    OK(cudaDeviceGetPCIBusId(bus1, sizeof bus1, 1));
    printf("PCI bus ids differ: %d\n", strcmp(bus0, bus1) != 0);

    int byid = -1;
    SHOW("cudaDeviceGetByPCIBusId(bus of 1)", cudaDeviceGetByPCIBusId(&byid, bus1));
    printf("device with device 1's bus id: %d\n", byid);
    int p2p = -1;
    SHOW("P2P access supported 0->1",
         cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 0, 1));
    printf("supported: %d\n", p2p);
    SHOW("P2P attribute 0->0",
         cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 0, 0));
    int valid[2] = {1, 0};
    SHOW("cudaSetValidDevices(1,0)", cudaSetValidDevices(valid, 2));
    int invalid[1] = {n};
    SHOW("cudaSetValidDevices(n)", cudaSetValidDevices(invalid, 1));

    /* the current device */
    int cur = -1;
    OK(cudaGetDevice(&cur));
    printf("current at start: %d\n", cur);
    SHOW("cudaSetDevice(n)", cudaSetDevice(n));
    SHOW("cudaSetDevice(-1)", cudaSetDevice(-1));
    OK(cudaGetDevice(&cur));
    printf("current after bad sets: %d\n", cur);
    OK(cudaSetDevice(1));
    OK(cudaGetDevice(&cur));
    printf("current after cudaSetDevice(1): %d\n", cur);
    int seen[2] = {-1, -1};
    pthread_t t;
    pthread_create(&t, NULL, thread_main, seen);
    pthread_join(t, NULL);
    OK(cudaGetDevice(&cur));
    printf("new thread starts on %d, sets %d; this thread still on %d\n", seen[0], seen[1],
           cur);
    SHOW("cudaInitDevice(0)", cudaInitDevice(0, 0, 0));
    OK(cudaGetDevice(&cur));
    printf("current after cudaInitDevice(0): %d\n", cur);
    SHOW("cudaInitDevice(n)", cudaInitDevice(n, 0, 0));
    cudaDeviceProp want;
    memset(&want, 0, sizeof want);
    want.major = 9;
    int chosen = -1;
    SHOW("cudaChooseDevice", cudaChooseDevice(&chosen, &want));
    printf("chosen: %d\n", chosen);

    /* peer access queries */
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            int can = -1;
            cudaError_t e = cudaDeviceCanAccessPeer(&can, a, b);
            printf("canAccessPeer(%d,%d): %s %d\n", a, b, cudaGetErrorName(e), can);
        }
    int can = -1;
    SHOW("canAccessPeer(0,n)", cudaDeviceCanAccessPeer(&can, 0, n));
    OK(cudaSetDevice(0));
    SHOW("enable peer 0->0", cudaDeviceEnablePeerAccess(0, 0));
    SHOW("enable peer 0->n", cudaDeviceEnablePeerAccess(n, 0));
    SHOW("enable peer flags 1", cudaDeviceEnablePeerAccess(1, 1));
    SHOW("disable peer not enabled", cudaDeviceDisablePeerAccess(1));
    SHOW("enable peer 0->1", cudaDeviceEnablePeerAccess(1, 0));
    SHOW("enable peer 0->1 again", cudaDeviceEnablePeerAccess(1, 0));
    SHOW("disable peer 0->1", cudaDeviceDisablePeerAccess(1));
    SHOW("disable peer 0->1 again", cudaDeviceDisablePeerAccess(1));
    SHOW("last error", cudaGetLastError());

    /* memory and its owner */
    const int N = 1024;
    int *d0, *d1, *m, *h;
    OK(cudaSetDevice(0));
    OK(cudaMalloc(&d0, N * sizeof(int)));
    OK(cudaSetDevice(1));
    OK(cudaMalloc(&d1, N * sizeof(int)));
    OK(cudaMallocManaged(&m, N * sizeof(int)));
    OK(cudaMallocHost(&h, N * sizeof(int)));
    OK(cudaSetDevice(0));
    show_ptr("cudaMalloc on 0", d0);
    show_ptr("cudaMalloc on 1", d1);
    show_ptr("cudaMalloc on 1, inside", d1 + 100);
    show_ptr("cudaMallocManaged on 1", m);
    show_ptr("cudaMallocHost on 1", h);
    int stack_var = 0;
    show_ptr("stack", &stack_var);

    /* memory accounting: each device counts its own allocations */
    size_t free0a, free1a, free0b, free1b, total;
    OK(cudaSetDevice(0));
    OK(cudaMemGetInfo(&free0a, &total));
    OK(cudaSetDevice(1));
    OK(cudaMemGetInfo(&free1a, &total));
    int *big;
    OK(cudaMalloc(&big, 256 << 20));
    OK(cudaMemGetInfo(&free1b, &total));
    OK(cudaSetDevice(0));
    OK(cudaMemGetInfo(&free0b, &total));
    printf("256 MiB on device 1: device 1 free dropped by at least that: %d; device 0 free "
           "within 2 MiB of before: %d\n",
           free1a - free1b >= (size_t)(256 << 20),
           (free0a > free0b ? free0a - free0b : free0b - free0a) <= (2u << 20));
    OK(cudaFree(big));

    /* streams and events belong to the device current at their creation */
    cudaStream_t s0, s1;
    cudaEvent_t e0, e1;
    OK(cudaSetDevice(0));
    OK(cudaStreamCreate(&s0));
    OK(cudaEventCreate(&e0));
    OK(cudaSetDevice(1));
    OK(cudaStreamCreate(&s1));
    OK(cudaEventCreate(&e1));
    int sd = -1;
    OK(cudaStreamGetDevice(s0, &sd));
    printf("stream made on 0 belongs to %d\n", sd);
    OK(cudaStreamGetDevice(s1, &sd));
    printf("stream made on 1 belongs to %d\n", sd);
    OK(cudaStreamGetDevice(0, &sd));
    printf("default stream with device 1 current belongs to %d\n", sd);
    /* device 1 is current: launching into device 0's stream */
    fill<<<4, 256, 0, s0>>>(d0, 1, N);
    SHOW("launch into another device's stream", cudaGetLastError());
    SHOW("record event of device 1 in device 0's stream", cudaEventRecord(e1, s0));
    SHOW("record event of device 0 in device 1's stream", cudaEventRecord(e0, s1));
    SHOW("record event of device 1 in device 1's stream", cudaEventRecord(e1, s1));
    SHOW("device 0's stream waits for device 1's event", cudaStreamWaitEvent(s0, e1, 0));
    OK(cudaSetDevice(0));
    SHOW("record event of device 0 in device 0's stream", cudaEventRecord(e0, s0));
    OK(cudaEventSynchronize(e0));
    OK(cudaEventSynchronize(e1));
    float ms = 0;
    SHOW("elapsed time between events of two devices", cudaEventElapsedTime(&ms, e0, e1));
    OK(cudaSetDevice(1));
    SHOW("synchronize device 0's stream from device 1", cudaStreamSynchronize(s0));
    SHOW("query device 0's stream from device 1", cudaStreamQuery(s0));
    SHOW("async copy in device 0's stream from device 1",
         cudaMemcpyAsync(d0, d1, N * sizeof(int), cudaMemcpyDeviceToDevice, s0));
    SHOW("memset in device 0's stream from device 1",
         cudaMemsetAsync(d0, 0, N * sizeof(int), s0));
    OK(cudaSetDevice(0));
    fill<<<4, 256, 0, s0>>>(d0, 7, N);
    SHOW("launch into its own device's stream", cudaGetLastError());
    OK(cudaStreamSynchronize(s0));
    int back[N];
    OK(cudaMemcpy(back, d0, sizeof back, cudaMemcpyDeviceToHost));
    long sum = 0;
    for (int i = 0; i < N; i++) sum += back[i];
    printf("device 0 kernel sum: %ld\n", sum);
    SHOW("destroy device 1's stream from device 0", cudaStreamDestroy(s1));
    SHOW("destroy device 1's event from device 0", cudaEventDestroy(e1));
    OK(cudaStreamDestroy(s0));
    OK(cudaEventDestroy(e0));
    OK(cudaFree(d0));
    SHOW("free device 1's memory from device 0", cudaFree(d1));
    OK(cudaFree(m));
    OK(cudaFreeHost(h));
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        OK(cudaDeviceReset());
    }
    printf("done\n");
    return 0;
}
