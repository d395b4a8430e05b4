/* peer_fault.cu — a kernel on device 0 writing device 1's memory without peer access is
 * an illegal address; the error is device 0's (sticky there), and device 1 goes on
 * working. */
#include "mgpu_test.h"

__global__ void poke(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i;
}

int main() {
    mgpu_devices();
    const int n = 1 << 12;
    int *d1, *d0;
    OK(cudaSetDevice(1));
    OK(cudaMalloc(&d1, n * sizeof(int)));
    OK(cudaMemset(d1, 0, n * sizeof(int)));
    OK(cudaSetDevice(0));
    OK(cudaMalloc(&d0, n * sizeof(int)));
    poke<<<n / 256, 256>>>(d1, n);
    SHOW("launch", cudaGetLastError());
    SHOW("synchronize device 0", cudaDeviceSynchronize());
    SHOW("device 0 afterwards", cudaMemset(d0, 0, n * sizeof(int)));
    SHOW("last error", cudaGetLastError());
    OK(cudaSetDevice(1));
    SHOW("device 1 memset", cudaMemset(d1, 7, n * sizeof(int)));
    int h[4] = {0, 0, 0, 0};
    SHOW("device 1 copy back", cudaMemcpy(h, d1, sizeof h, cudaMemcpyDeviceToHost));
    printf("device 1 data: %08x\n", (unsigned)h[0]);
    SHOW("synchronize device 1", cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
