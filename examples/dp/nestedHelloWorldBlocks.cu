/* nestedHelloWorldBlocks — the second multi-block strategy for nested launches.
 *
 * Only the first thread of the whole grid launches the next level, and the next level
 * keeps the total thread count halving: first by halving the number of blocks, then,
 * once a single block is left, by halving the block. Fewer child grids are created than
 * when every block launches its own chain.
 *
 * Build: nvcc -arch=sm_90 -rdc=true nestedHelloWorldBlocks.cu -lcudadevrt
 * Usage: nestedHelloWorldBlocks [igrid (default 2)] [threads per block (default 8)]
 */
#include "../common.h"

__global__ void nestedHelloWorldBlocks(int const iSize, int iDepth)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    printf("Recursion=%d: Hello World from thread %d (block %d thread %d)\n", iDepth, tid,
           blockIdx.x, threadIdx.x);
    if (iSize == 1)
        return;
    int nthreads = iSize >> 1;
    if (tid == 0 && nthreads > 0) {
        int threads = nthreads < (int)blockDim.x ? nthreads : (int)blockDim.x;
        int blocks = (nthreads + threads - 1) / threads;
        nestedHelloWorldBlocks<<<blocks, threads>>>(nthreads, ++iDepth);
        printf("-------> nested execution depth: %d (%d blocks of %d)\n", iDepth, blocks,
               threads);
    }
}

int main(int argc, char **argv)
{
    int igrid = argc > 1 ? atoi(argv[1]) : 2;
    int blocksize = argc > 2 ? atoi(argv[2]) : 8;
    if (igrid <= 0 || blocksize <= 0) {
        printf("usage: nestedHelloWorldBlocks [igrid] [threads per block]\n");
        return EXIT_FAILURE;
    }
    int size = igrid * blocksize;
    dim3 block(blocksize, 1);
    dim3 grid((size + block.x - 1) / block.x, 1);
    printf("size = %d\n", size);
    printf("nestedHelloWorldBlocks Execution Configuration: grid %d block %d\n", grid.x, block.x);

    nestedHelloWorldBlocks<<<grid, block>>>(size, 0);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaDeviceReset());
    return EXIT_SUCCESS;
}
