/* nestedHelloWorldLimited — nested launches stopped at a given depth.
 *
 * nestedHelloWorld with a depth limit: a grid at depth maxDepth prints but launches no
 * child, so the chain 8, 4, 2, 1 is cut short.
 *
 * Build: nvcc -arch=sm_90 -rdc=true nestedHelloWorldLimited.cu -lcudadevrt
 * Usage: nestedHelloWorldLimited [maxDepth (default 2)] [igrid (default 1)]
 */
#include "../common.h"

__global__ void nestedHelloWorldLimited(int const iSize, int iDepth, int maxDepth)
{
    int tid = threadIdx.x;
    printf("Recursion=%d: Hello World from thread %d block %d\n", iDepth, tid, blockIdx.x);
    if (iSize == 1 || iDepth >= maxDepth)
        return;
    int nthreads = iSize >> 1;
    if (tid == 0 && nthreads > 0) {
        nestedHelloWorldLimited<<<1, nthreads>>>(nthreads, ++iDepth, maxDepth);
        printf("-------> nested execution depth: %d\n", iDepth);
    }
}

int main(int argc, char **argv)
{
    int maxDepth = argc > 1 ? atoi(argv[1]) : 2;
    int igrid = argc > 2 ? atoi(argv[2]) : 1;
    if (maxDepth < 0 || igrid <= 0) {
        printf("usage: nestedHelloWorldLimited [maxDepth] [igrid]\n");
        return EXIT_FAILURE;
    }
    dim3 block(8, 1);
    dim3 grid(igrid, 1);
    printf("nestedHelloWorldLimited Execution Configuration: grid %d block %d, max depth %d\n",
           grid.x, block.x, maxDepth);

    nestedHelloWorldLimited<<<grid, block>>>(block.x, 0, maxDepth);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaDeviceReset());
    return EXIT_SUCCESS;
}
