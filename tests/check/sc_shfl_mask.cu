/* sc_shfl_mask — a shuffle whose mask names half the warp, called by the whole warp.
 *
 * __shfl_down_sync(0x0000ffff, ...) promises that only lanes 0..15 take part, yet all 32
 * lanes execute it; lanes 16..31 are outside the mask and their results are undefined.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warpSum(const int *in, int *out)
{
    int v = in[threadIdx.x];
    for (int off = 8; off > 0; off >>= 1)
        v += __shfl_down_sync(0x0000ffffu, v, off);   /* BUG: mask should be 0xffffffff */
    if (threadIdx.x == 0) *out = v;
}

int main(void)
{
    int h[32], r = 0;
    for (int i = 0; i < 32; i++) h[i] = i;
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    warpSum<<<1, 32>>>(in, out);
    cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("sum of lanes 0..15: %d\n", r);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
