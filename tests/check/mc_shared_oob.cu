/* mc_shared_oob — dynamic shared memory smaller than the kernel uses.
 *
 * The kernel stages one int per thread in extern shared memory, but the launch asks for
 * 64 bytes (16 ints) for 32 threads: lanes 16..31 write past the end of the block's
 * shared memory.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void stage(const int *in, int *out)
{
    extern __shared__ int tile[];
    tile[threadIdx.x] = in[threadIdx.x];          /* BUG: only 16 ints of shared memory */
    __syncthreads();
    out[threadIdx.x] = tile[31 - threadIdx.x];
}

int main(void)
{
    int *in, *out;
    cudaMalloc(&in, 32 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemset(in, 0, 32 * sizeof(int));
    stage<<<1, 32, 16 * sizeof(int)>>>(in, out);  /* should be 32 * sizeof(int) */
    cudaError_t e = cudaDeviceSynchronize();
    printf("stage: %s\n", cudaGetErrorName(e));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
