/* fault_stream.cu — a grid that faults in one stream: the synchronising call that waits
 * for it reports the fault, a callback queued behind it hears the error, and afterwards
 * every call that needs the device returns it. */
#include "streams_test.h"
#include <unistd.h>

__global__ void ok_kernel(int *p) { p[threadIdx.x] = 1; }
/* Faults once the host lets it (so that the calls before happen before the fault). */
__global__ void trap_kernel(volatile int *gate, int *p) {
    while (!*gate) {
    }
    if (threadIdx.x == 0) asm volatile("trap;");
    p[threadIdx.x] = 2;
}

static volatile int cb_ran;
static volatile cudaError_t cb_status = cudaErrorUnknown;
static void CUDART_CB cb(cudaStream_t, cudaError_t status, void *) {
    cb_status = status;
    cb_ran = 1;
}

int main() {
    int *d = nullptr;
    OK(cudaMalloc(&d, 64 * sizeof(int)));
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    ok_kernel<<<1, 32, 0, s>>>(d);
    SHOW("cudaStreamSynchronize before the fault", cudaStreamSynchronize(s));
    volatile int *gate = host_flag();
    trap_kernel<<<1, 32, 0, s>>>(gate, d);
    SHOW("launch of the faulting grid", cudaGetLastError());
    SHOW("cudaStreamAddCallback behind it", cudaStreamAddCallback(s, cb, nullptr, 0));
    set_host_flag(gate);
    SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
    usleep(300000);
    printf("callback ran %d, status %s\n", cb_ran, cb_ran ? cudaGetErrorName(cb_status) : "-");
    SHOW("cudaGetLastError", cudaGetLastError());
    SHOW("cudaStreamQuery", cudaStreamQuery(s));
    cudaEvent_t e;
    SHOW("cudaEventCreate", cudaEventCreate(&e));
    ok_kernel<<<1, 32, 0, s>>>(d);
    SHOW("launch after the fault", cudaGetLastError());
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    return 0;
}
