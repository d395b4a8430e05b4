/* incr — add 1 to every element of a float array, one thread per element.
 *
 * The smallest useful CUDA program: a 1D grid of 1D blocks, each thread finding its
 * element from blockIdx, blockDim and threadIdx. The copies and the kernel are bracketed
 * by CUDA events on the default stream; their elapsed time is printed only when
 * EXAMPLE_TIMING is set. Every element is then checked.
 *
 * Usage: incr [elements (default 1<<20)] [threads per block (default 512)]
 */
#include "common.h"

__global__ void incKernel(float *data, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        data[idx] = data[idx] + 1.0f;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    int threadsPerBlock = argc > 2 ? atoi(argv[2]) : 512;
    if (n <= 0 || threadsPerBlock <= 0) {
        printf("usage: incr [elements] [threads per block]\n");
        return EXIT_FAILURE;
    }
    size_t numBytes = (size_t)n * sizeof(float);

    /* Start from i mod 1000, not zeros, so a skipped element cannot look right. */
    float *a = (float *)malloc(numBytes);
    for (int i = 0; i < n; i++)
        a[i] = (float)(i % 1000);

    float *dev = NULL;
    CHECK(cudaMalloc((void **)&dev, numBytes));

    dim3 threads(threadsPerBlock, 1);
    dim3 blocks((n + threads.x - 1) / threads.x, 1);
    printf("incr: %d elements, <<<%d, %d>>>\n", n, blocks.x, threads.x);

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    CHECK(cudaEventRecord(start, 0));
    CHECK(cudaMemcpy(dev, a, numBytes, cudaMemcpyHostToDevice));
    incKernel<<<blocks, threads>>>(dev, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(a, dev, numBytes, cudaMemcpyDeviceToHost));
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float gpuTime = 0.0f;
    CHECK(cudaEventElapsedTime(&gpuTime, start, stop));
    if (example_timing())
        printf("time spent executing by the GPU: %.2f milliseconds\n", gpuTime);

    int errors = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] != (float)(i % 1000) + 1.0f) {
            if (errors == 0)
                printf("Error in pos %d, %f\n", i, a[i]);
            errors++;
        }
    }
    if (errors)
        printf("%d elements wrong\n", errors);
    else
        printf("all %d elements incremented correctly\n", n);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(dev));
    free(a);
    return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
