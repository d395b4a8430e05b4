/* oobGlobalWrite — a kernel that writes past the end of its global array.
 *
 * The grid has more threads than the array has elements and the kernel has no bounds
 * check. "near" (the default) overruns by a few elements, which stays inside the memory
 * the allocator reserved, so the hardware does not notice and only a checker such as
 * compute-sanitizer's memcheck reports it; "far" writes 1 GiB past the end, which the
 * hardware itself faults on (an illegal address error at the next synchronisation).
 *
 * Usage: oobGlobalWrite [near|far]
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void fillNoBoundsCheck(int *data, size_t offset)
{
    size_t idx = blockIdx.x * blockDim.x + threadIdx.x;
    data[idx + offset] = (int)idx;   /* BUG: no check against the array length */
}

int main(int argc, char **argv)
{
    bool far = argc > 1 && strcmp(argv[1], "far") == 0;
    const int n = 1000;   /* 4 blocks of 256 threads: 24 threads past the end */
    int *d = NULL;
    cudaMalloc((void **)&d, n * sizeof(int));
    size_t offset = far ? ((size_t)1 << 28) : 0;   /* 1<<28 ints = 1 GiB */
    printf("oobGlobalWrite (%s): %d elements, <<<4, 256>>>\n", far ? "far" : "near", n);
    fillNoBoundsCheck<<<4, 256>>>(d, offset);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    printf("launch: %s\n", cudaGetErrorName(launch));
    printf("synchronize: %s: %s\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
    cudaFree(d);
    return sync == cudaSuccess ? EXIT_SUCCESS : EXIT_FAILURE;
}
