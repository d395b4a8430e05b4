/* nestedHelloWorld — recursive kernel launches from the device (dynamic parallelism).
 *
 * The host launches a grid of igrid blocks of 8 threads. Every thread says hello with its
 * depth; thread 0 of each block then launches a child grid of one block with half as many
 * threads, which does the same, down to a single thread. With one block this is the
 * simple chain 8, 4, 2, 1; with two or more it is the first multi-block strategy, where
 * every parent block starts its own chain of children.
 *
 * Build: nvcc -arch=sm_90 -rdc=true nestedHelloWorld.cu -lcudadevrt
 * Usage: nestedHelloWorld [igrid (default 1)]
 */
#include "../common.h"

__global__ void nestedHelloWorld(int const iSize, int iDepth)
{
    int tid = threadIdx.x;
    printf("Recursion=%d: Hello World from thread %d block %d\n", iDepth, tid, blockIdx.x);
    if (iSize == 1)
        return;
    int nthreads = iSize >> 1;
    if (tid == 0 && nthreads > 0) {
        nestedHelloWorld<<<1, nthreads>>>(nthreads, ++iDepth);
        printf("-------> nested execution depth: %d\n", iDepth);
    }
}

int main(int argc, char **argv)
{
    int blocksize = 8;
    int igrid = argc > 1 ? atoi(argv[1]) : 1;
    if (igrid <= 0) {
        printf("usage: nestedHelloWorld [igrid]\n");
        return EXIT_FAILURE;
    }
    dim3 block(blocksize, 1);
    dim3 grid(igrid, 1);
    printf("nestedHelloWorld Execution Configuration: grid %d block %d\n", grid.x, block.x);

    nestedHelloWorld<<<grid, block>>>(block.x, 0);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaDeviceReset());
    return EXIT_SUCCESS;
}
