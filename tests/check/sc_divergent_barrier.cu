/* sc_divergent_barrier — __syncthreads() inside a condition that splits a warp.
 *
 * The last chunk of the input has only 48 elements, and the kernel waits at the barrier
 * only in the threads that have an element: threads 48..63 of the second warp skip it.
 * A barrier must be reached by every thread of the block (that has not exited).
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void chunkSum(const int *in, int n, int *out)
{
    __shared__ int s[64];
    int tid = threadIdx.x, acc = 0;
    for (int base = 0; base < n; base += 64) {
        if (base + tid < n) {
            s[tid] = in[base + tid];
            __syncthreads();                      /* BUG: not reached by every thread */
            acc += s[(tid + 1) % 64];
        }
    }
    out[tid] = acc;
}

int main(void)
{
    const int n = 112;                            /* 64 + 48 */
    int h[n];
    for (int i = 0; i < n; i++) h[i] = 1;
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    chunkSum<<<1, 64>>>(in, n, out);
    printf("chunkSum: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
