/* sc_syncwarp_missing — __syncwarp() whose mask names lanes that never reach it.
 *
 * Lanes 0..15 exchange values through shared memory around __syncwarp() (full mask), but
 * lanes 16..31 take the other branch and never call it: they wait at __syncthreads()
 * instead. The mask promises a meeting the other half never comes to, and the exchange
 * the barrier was meant to order is not ordered.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void halfMeets(int *out)
{
    __shared__ int s[64];
    int tid = threadIdx.x;
    s[tid] = tid;
    if ((tid & 31) < 16) {
        s[tid] = tid * 2;
        __syncwarp();                             /* BUG: lanes 16..31 never come here */
        out[tid] = s[tid ^ 1];
    } else {
        out[tid] = -1;
    }
    __syncthreads();
}

int main(void)
{
    int *out, h[64];
    cudaMalloc(&out, 64 * sizeof(int));
    halfMeets<<<1, 64>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("halfMeets: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) {
        cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        printf("out[0] = %d, out[1] = %d, out[16] = %d\n", h[0], h[1], h[16]);
    }
    cudaFree(out);
    return 0;
}
