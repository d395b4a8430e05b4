/* checkThreadIndex — how a 2D grid of 2D blocks maps threads onto a row-major matrix.
 *
 * Each thread computes its matrix coordinate (ix, iy) = block offset + thread index and
 * the linear index iy * nx + ix, prints them with the element it finds there, and writes
 * that element to an output matrix so the host can check every mapping.
 *
 * CUDA does not order device printf output across blocks, so to print the same text on
 * every run the grid is launched once per block and only the chosen block prints; within
 * one block (a single warp here) lines come out in lane order.
 *
 * Usage: checkThreadIndex [nx ny (default 8 6)] [block x y (default 4 2)]
 */
#include "common.h"

__global__ void printThreadIndex(const int *A, int *copy, const int nx, const int ny,
                                 const int printBlock)
{
    int ix = threadIdx.x + blockIdx.x * blockDim.x;
    int iy = threadIdx.y + blockIdx.y * blockDim.y;
    unsigned int idx = iy * nx + ix;
    if (ix >= nx || iy >= ny)
        return;
    copy[idx] = A[idx];
    if ((int)(blockIdx.y * gridDim.x + blockIdx.x) == printBlock)
        printf("thread_id (%d,%d) block_id (%d,%d) coordinate (%d,%d) global index %2d ival %2d\n",
               threadIdx.x, threadIdx.y, blockIdx.x, blockIdx.y, ix, iy, idx, A[idx]);
}

static void printMatrix(const int *C, int nx, int ny)
{
    printf("Matrix: (%d.%d)\n", nx, ny);
    for (int iy = 0; iy < ny; iy++) {
        for (int ix = 0; ix < nx; ix++)
            printf("%3d", C[iy * nx + ix]);
        printf("\n");
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    int nx = 8, ny = 6, bx = 4, by = 2;
    if (argc > 2) {
        nx = atoi(argv[1]);
        ny = atoi(argv[2]);
    }
    if (argc > 4) {
        bx = atoi(argv[3]);
        by = atoi(argv[4]);
    }
    if (nx <= 0 || ny <= 0 || bx <= 0 || by <= 0) {
        printf("usage: checkThreadIndex [nx ny] [block_x block_y]\n");
        return EXIT_FAILURE;
    }

    int dev = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("checkThreadIndex using device %d: %s\n", dev, prop.name);
    CHECK(cudaSetDevice(dev));

    int nxy = nx * ny;
    size_t nBytes = (size_t)nxy * sizeof(int);
    int *h_A = (int *)malloc(nBytes);
    int *h_copy = (int *)malloc(nBytes);
    for (int i = 0; i < nxy; i++)
        h_A[i] = i;
    printMatrix(h_A, nx, ny);

    int *d_A, *d_copy;
    CHECK(cudaMalloc((void **)&d_A, nBytes));
    CHECK(cudaMalloc((void **)&d_copy, nBytes));
    CHECK(cudaMemcpy(d_A, h_A, nBytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_copy, 0xFF, nBytes));

    dim3 block(bx, by);
    dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
    printf("grid (%d,%d) block (%d,%d)\n", grid.x, grid.y, block.x, block.y);

    int nblocks = grid.x * grid.y;
    for (int b = 0; b < nblocks; b++) {
        printThreadIndex<<<grid, block>>>(d_A, d_copy, nx, ny, b);
        CHECK(cudaGetLastError());
        /* Wait here so this block's lines are out before the next launch prints. */
        CHECK(cudaDeviceSynchronize());
    }

    CHECK(cudaMemcpy(h_copy, d_copy, nBytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < nxy; i++)
        if (h_copy[i] != h_A[i])
            bad++;
    if (bad)
        printf("Index check failed: %d of %d elements wrong\n", bad, nxy);
    else
        printf("Index check passed: every element was copied by the thread mapped to it\n");

    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_copy));
    free(h_A);
    free(h_copy);
    CHECK(cudaDeviceReset());
    return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
