/* sc_syncwarp_mask — __syncwarp(mask) called by a thread its mask leaves out.
 *
 * The mask names threads 0..15 (a ballot of tid < 16), but the condition around the
 * call lets thread 16 in too: __syncwarp requires every calling thread in the mask.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void halfWarp(int *out)
{
    __shared__ int s[32];
    int tid = threadIdx.x;
    unsigned mask = __ballot_sync(0xffffffffu, tid < 16);
    if (tid <= 16) {                              /* BUG: should be tid < 16 */
        s[tid] = tid;
        __syncwarp(mask);
        out[tid] = s[(tid + 1) % 16];
    }
}

int main(void)
{
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    halfWarp<<<1, 32>>>(out);
    printf("halfWarp: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(out);
    return 0;
}
