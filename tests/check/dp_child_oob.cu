/* dp_child_oob — a child grid launched from device code writes one element past the
 * buffer its parent hands it (dynamic parallelism: built with -rdc=true -lcudadevrt).
 *
 * memcheck watches grids launched from device code as it watches host launches: the
 * child's bad store is reported with the child kernel's name, and the host's
 * synchronisation hears the launch failure.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)                 /* BUG: one past the end */
        out[i] = i;
}

__global__ void parent(int *out, int n)
{
    if (threadIdx.x == 0)
        fill<<<1, 64>>>(out, n);
}

int main(void)
{
    const int n = 32;
    int *out;
    cudaMalloc(&out, n * sizeof(int));
    parent<<<1, 32>>>(out, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("parent: %s\n", cudaGetErrorName(e));
    return 0;
}
