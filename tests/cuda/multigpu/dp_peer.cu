/* dp_peer.cu — a grid launched from device code on device 0 follows the peer rule of its
 * device: with peer access to device 1 it writes device 1's memory; once peer access is
 * disabled, the same write is the illegal-address fault a GPU gives.
 */
// nvcc-flags: -rdc=true -lcudadevrt
#include "mgpu_test.h"

__global__ void child(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += i;
}

__global__ void parent(int *p, int n) {
    if (threadIdx.x == 0) child<<<(n + 127) / 128, 128>>>(p, n);
}

int main() {
    mgpu_devices();
    const int n = 1000;
    int *d1;
    OK(cudaSetDevice(1));
    OK(cudaMalloc(&d1, n * sizeof(int)));
    OK(cudaMemset(d1, 0, n * sizeof(int)));
    OK(cudaSetDevice(0));
    OK(cudaDeviceEnablePeerAccess(1, 0));
    parent<<<1, 32>>>(d1, n);
    SHOW("with peer access", cudaDeviceSynchronize());
    int h[n];
    OK(cudaMemcpy(h, d1, sizeof h, cudaMemcpyDeviceToHost));
    long sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    printf("sum %ld\n", sum);
    OK(cudaDeviceDisablePeerAccess(1));
    parent<<<1, 32>>>(d1, n);
    SHOW("launch without peer access", cudaGetLastError());
    SHOW("synchronize", cudaDeviceSynchronize());
    OK(cudaSetDevice(1));
    SHOW("device 1 afterwards", cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
