/* sharedRace — threads read a shared-memory slot another warp writes, with no barrier.
 *
 * Each thread stores to s[tid] and then loads s[tid + 32], written by the next warp; the
 * missing __syncthreads() between the two makes the result depend on warp scheduling.
 * compute-sanitizer's racecheck reports the read-after-write hazard; the program's own
 * output may look right or wrong.
 *
 * Usage: sharedRace
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void neighbourWithoutBarrier(int *out)
{
    __shared__ int s[128];
    unsigned int tid = threadIdx.x;
    s[tid] = (int)tid;
    /* BUG: a __syncthreads() is needed here. */
    out[tid] = s[(tid + 32) % blockDim.x];
}

int main(void)
{
    int *d_out = NULL;
    cudaMalloc((void **)&d_out, 128 * sizeof(int));
    printf("sharedRace: <<<1, 128>>> reading the next warp's slot without a barrier\n");
    neighbourWithoutBarrier<<<1, 128>>>(d_out);
    cudaError_t sync = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorName(sync));
    cudaFree(d_out);
    return sync == cudaSuccess ? EXIT_SUCCESS : EXIT_FAILURE;
}
