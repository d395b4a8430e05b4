/* rc_shared_war — a tiled loop that reuses its shared tile without the second barrier.
 *
 * Each iteration loads a tile, synchronises, and sums a neighbour's element; the next
 * iteration overwrites the tile while slower warps may still be reading it (write after
 * read). The barrier at the end of the loop body is missing.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void tiledSum(const int *in, int *out, int tiles)
{
    __shared__ int tile[64];
    int tid = threadIdx.x, acc = 0;
    for (int t = 0; t < tiles; t++) {
        tile[tid] = in[t * 64 + tid];
        __syncthreads();
        acc += tile[63 - tid];
        /* BUG: __syncthreads() needed before the next iteration overwrites tile */
    }
    out[tid] = acc;
}

int main(void)
{
    const int tiles = 4;
    int h[tiles * 64];
    for (int i = 0; i < tiles * 64; i++) h[i] = i % 7;
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    tiledSum<<<1, 64>>>(in, out, tiles);
    cudaMemcpy(h, out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("out[0] = %d\n", h[0]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
