/* rc_shared_raw — a block-wide shift through shared memory with no barrier.
 *
 * Every thread writes its value to buf[tid] and then reads buf[tid + 1] (written by its
 * neighbour). Lanes of one warp work in lockstep in vcuda, but thread 31 reads what
 * thread 32 — another warp — writes, and nothing orders the two: a __syncthreads() is
 * missing between the store and the load.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shiftLeft(const int *in, int *out)
{
    __shared__ int buf[129];
    int tid = threadIdx.x;
    buf[tid] = in[tid];
    if (tid == 0) buf[128] = 0;
    /* BUG: __syncthreads() needed here */
    out[tid] = buf[tid + 1];
}

int main(void)
{
    int h[128];
    for (int i = 0; i < 128; i++) h[i] = i;
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    shiftLeft<<<1, 128>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[31] = %d, out[127] = %d\n", h[31], h[127]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
