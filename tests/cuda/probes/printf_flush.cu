/* printf_flush.cu — which calls bring device printf output to the host: a later launch, a
 * query, a synchronisation, cudaDeviceReset, program exit. The sleeps let each grid finish
 * on the GPU before the next call. */
#include <cstdio>
#include <unistd.h>
#include <cuda_runtime.h>

__global__ void k_print(int tag) { printf("device %d\n", tag); }

int main() {
    k_print<<<1, 1>>>(1);
    usleep(300000);
    printf("host: grid 1 finished, before launch 2\n");
    k_print<<<1, 1>>>(2);
    printf("host: after launch 2\n");
    usleep(300000);
    cudaStreamQuery(0);
    printf("host: after cudaStreamQuery\n");
    int *d = nullptr;
    cudaMalloc(&d, 16);
    printf("host: after cudaMalloc\n");
    cudaDeviceSynchronize();
    printf("host: after cudaDeviceSynchronize\n");
    k_print<<<1, 1>>>(3);
    usleep(300000);
    int h = 0;
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("host: after blocking cudaMemcpy\n");
    k_print<<<1, 1>>>(4);
    usleep(300000);
    cudaDeviceReset();
    printf("host: after cudaDeviceReset\n");
    k_print<<<1, 1>>>(5);
    usleep(300000);
    printf("host: exit without synchronising\n");
    return 0;
}
