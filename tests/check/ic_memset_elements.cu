/* ic_memset_elements — cudaMemset given a count of elements instead of bytes.
 *
 * The vector is meant to be zeroed before the kernel adds to it, but only its first
 * quarter is (n bytes of n ints): the other threads read memory nothing wrote. vcuda's
 * allocations happen to be zero, so the result looks right; on a GPU it is garbage.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void addIndex(int *v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    v[i] += i;
}

int main(void)
{
    const int n = 64;
    int *v, h[n];
    cudaMalloc(&v, n * sizeof(int));
    cudaMemset(v, 0, n);                          /* BUG: n * sizeof(int) bytes */
    addIndex<<<2, 32>>>(v);
    cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost);
    printf("v[63] = %d\n", h[63]);
    cudaFree(v);
    return 0;
}
