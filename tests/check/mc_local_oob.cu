/* mc_local_oob — a per-thread array indexed past its end.
 *
 * Each thread keeps a small histogram in a local array and bins values by v / 16; a value
 * of 1000000 makes thread 3's bin index far beyond the array, outside the thread's local
 * memory.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void histogram(const int *values, int *out)
{
    int bins[8] = {0};
    int v = values[threadIdx.x];
    bins[v / 16] += 1;                            /* BUG: no check that v / 16 < 8 */
    int s = 0;
    for (int i = 0; i < 8; i++) s += bins[i] * i;
    out[threadIdx.x] = s;
}

int main(void)
{
    int h[32];
    for (int i = 0; i < 32; i++) h[i] = i * 3;
    h[3] = 1000000;
    int *values, *out;
    cudaMalloc(&values, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(values, h, sizeof h, cudaMemcpyHostToDevice);
    histogram<<<1, 32>>>(values, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("histogram: %s\n", cudaGetErrorName(e));
    return 0;
}
