/* sc_barrier_count — __syncthreads() reached a different number of times by the warps.
 *
 * Each warp sums its slice in rounds, one barrier per round, but the number of rounds is
 * computed per warp: warp 1 leaves the loop one round early, so warp 0's last barrier
 * meets no barrier of warp 1 (which has gone on to its end), and the values warp 0 reads
 * after it were never written.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rounds(int *out)
{
    __shared__ int s[64];
    int tid = threadIdx.x;
    int warp = tid / 32;
    int n = 3 - warp;                             /* BUG: the round count differs per warp */
    int acc = 0;
    for (int r = 0; r < n; r++) {
        s[tid] = tid + r;
        __syncthreads();
        acc += s[(tid + 32) % 64];
        __syncthreads();
    }
    out[tid] = acc;
}

int main(void)
{
    int *out, h[64];
    cudaMalloc(&out, 64 * sizeof(int));
    rounds<<<1, 64>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("rounds: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) {
        cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        printf("out[0] = %d, out[32] = %d\n", h[0], h[32]);
    }
    cudaFree(out);
    return 0;
}
