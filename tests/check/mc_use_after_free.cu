/* mc_use_after_free — a kernel launched on a buffer the host already freed.
 *
 * The scratch buffer is released with cudaFree before the second launch that still uses
 * it. memcheck names the freed block the accesses fall into.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *data, float f)
{
    data[threadIdx.x] *= f;
}

int main(void)
{
    float *scratch;
    cudaMalloc(&scratch, 64 * sizeof(float));
    cudaMemset(scratch, 0, 64 * sizeof(float));
    scale<<<1, 64>>>(scratch, 2.0f);
    printf("first: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(scratch);
    scale<<<1, 64>>>(scratch, 3.0f);              /* BUG: scratch was freed */
    printf("second: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
