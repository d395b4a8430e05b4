/* printf_order.cu — where device printf output lands relative to host printf, with stdout
 * redirected to a file (fully buffered), and what a grid left unsynchronised at exit prints. */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void k_print(int tag) {
    printf("device tag %d block %d thread %d\n", tag, blockIdx.x, threadIdx.x);
}

int main() {
    printf("host A\n");
    k_print<<<2, 2>>>(1);
    printf("host B (after launch, before sync)\n");
    cudaDeviceSynchronize();
    printf("host C (after sync)\n");
    k_print<<<1, 1>>>(2);
    cudaDeviceSynchronize();
    fprintf(stderr, "stderr D\n");
    printf("host E\n");
    k_print<<<1, 1>>>(3);
    printf("host F (exit without sync)\n");
    return 0;
}
