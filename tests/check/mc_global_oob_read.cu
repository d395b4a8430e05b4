/* mc_global_oob_read — a stencil that reads one element past each end of its input.
 *
 * out[i] = in[i-1] + in[i] + in[i+1] with no guard at the edges: thread 0 of block 0
 * reads in[-1] and the last thread reads in[n]. memcheck reports the first warp-level
 * load that goes outside the allocation, one report per bad lane, and the launch fails.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void blur(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i - 1] + in[i] + in[i + 1];   /* BUG: no guard at i == 0 and i == n-1 */
}

int main(void)
{
    const int n = 256;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    blur<<<2, 128>>>(in, out, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("blur: %s\n", cudaGetErrorName(e));
    return 0;
}
