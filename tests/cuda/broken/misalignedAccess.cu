/* misalignedAccess — a 4-byte load through a pointer that is not 4-byte aligned.
 *
 * The kernel reads an int from one byte past the start of a cudaMalloc'd buffer. Global
 * accesses must be aligned to their size, so the hardware faults (a misaligned address
 * error at the next synchronisation) and compute-sanitizer's memcheck names the access.
 *
 * Usage: misalignedAccess
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void readMisaligned(const char *bytes, int *out)
{
    const int *p = (const int *)(bytes + 1);   /* BUG: 1-byte offset */
    out[threadIdx.x] = p[threadIdx.x];
}

int main(void)
{
    char *d_bytes = NULL;
    int *d_out = NULL;
    cudaMalloc((void **)&d_bytes, 1024);
    cudaMalloc((void **)&d_out, 32 * sizeof(int));
    cudaMemset(d_bytes, 1, 1024);
    printf("misalignedAccess: <<<1, 32>>> reading int at byte offset 1\n");
    readMisaligned<<<1, 32>>>(d_bytes, d_out);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    printf("launch: %s\n", cudaGetErrorName(launch));
    printf("synchronize: %s: %s\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
    cudaFree(d_bytes);
    cudaFree(d_out);
    return sync == cudaSuccess ? EXIT_SUCCESS : EXIT_FAILURE;
}
