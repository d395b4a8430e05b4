/* mc_bad_api_pointers — device pointers the API refuses: a double cudaFree, a free of a
 * pointer into the middle of a block, and a copy whose device side is host memory.
 * Each call returns cudaErrorInvalidValue, which memcheck reports.
 */
#include <cstdio>
#include <cuda_runtime.h>

int main(void)
{
    int host[16] = {0};
    int *a, *b;
    cudaMalloc(&a, sizeof host);
    cudaMalloc(&b, sizeof host);
    cudaFree(a);
    cudaError_t e1 = cudaFree(a);                 /* BUG: freed twice */
    cudaError_t e2 = cudaFree(b + 4);             /* BUG: not the start of the block */
    cudaError_t e3 = cudaMemcpy(host + 1, host, 4 * sizeof(int),
                                cudaMemcpyHostToDevice); /* BUG: destination is host memory */
    printf("double free: %s\n", cudaGetErrorName(e1));
    printf("interior free: %s\n", cudaGetErrorName(e2));
    printf("host as device: %s\n", cudaGetErrorName(e3));
    cudaFree(b);
    return 0;
}
