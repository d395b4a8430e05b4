/* sumMatrixOnGPU2D — matrix sum with a 2D grid of 2D blocks, under several block shapes.
 *
 * One thread per element: (ix, iy) from the block and thread indices, linear index
 * iy * nx + ix. The innermost block dimension decides how many consecutive elements a
 * warp touches, which is what comparing the shapes is about. With no shape given, every
 * shape of the study is run, including 256x8, whose 2048 threads exceed the per-block
 * limit and must be refused by the launch.
 *
 * Usage: sumMatrixOnGPU2D [block_x block_y] [nx ny (default 1024 1024)]
 */
#include "common.h"
#include <cmath>
#include <cstring>

__global__ void sumMatrixOnGPU2D(const float *A, const float *B, float *C, int NX, int NY)
{
    unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int idx = iy * NX + ix;
    if (ix < NX && iy < NY)
        C[idx] = A[idx] + B[idx];
}

static void sumMatrixOnHost(const float *A, const float *B, float *C, int nx, int ny)
{
    for (int iy = 0; iy < ny; iy++)
        for (int ix = 0; ix < nx; ix++)
            C[iy * nx + ix] = A[iy * nx + ix] + B[iy * nx + ix];
}

static void initialData(float *data, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        data[i] = (float)(example_rand(&seed) & 0xFF) / 10.0f;
}

static bool checkResult(const float *hostRef, const float *gpuRef, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (fabs((double)hostRef[i] - (double)gpuRef[i]) > 1.0e-8) {
            printf("  Arrays do not match: host %5.2f gpu %5.2f at element %zu\n",
                   hostRef[i], gpuRef[i], i);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    static const int shapes[][2] = {
        {32, 32}, {32, 16}, {16, 32}, {16, 16}, {64, 2}, {64, 4}, {64, 8},
        {128, 2}, {128, 4}, {128, 8}, {256, 2}, {256, 4}, {256, 8},
    };
    int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    int userShape[1][2];
    const int(*runShapes)[2] = shapes;
    if (argc > 2) {
        userShape[0][0] = atoi(argv[1]);
        userShape[0][1] = atoi(argv[2]);
        runShapes = userShape;
        nshapes = 1;
    }
    int nx = argc > 4 ? atoi(argv[3]) : 1 << 10;
    int ny = argc > 4 ? atoi(argv[4]) : 1 << 10;
    if (nx <= 0 || ny <= 0 || runShapes[0][0] <= 0 || runShapes[0][1] <= 0) {
        printf("usage: sumMatrixOnGPU2D [block_x block_y] [nx ny]\n");
        return EXIT_FAILURE;
    }

    int dev = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("sumMatrixOnGPU2D using device %d: %s\n", dev, prop.name);
    CHECK(cudaSetDevice(dev));
    printf("Matrix size: nx %d ny %d\n", nx, ny);

    size_t nxy = (size_t)nx * ny;
    size_t nBytes = nxy * sizeof(float);
    float *h_A = (float *)malloc(nBytes);
    float *h_B = (float *)malloc(nBytes);
    float *hostRef = (float *)malloc(nBytes);
    float *gpuRef = (float *)malloc(nBytes);
    initialData(h_A, nxy, 11u);
    initialData(h_B, nxy, 12u);
    double tHost = example_seconds();
    sumMatrixOnHost(h_A, h_B, hostRef, nx, ny);
    tHost = example_seconds() - tHost;
    if (example_timing()) {
        printf("sumMatrixOnHost");
        example_print_elapsed(tHost);
        printf("\n");
    }

    float *d_A, *d_B, *d_C;
    CHECK(cudaMalloc((void **)&d_A, nBytes));
    CHECK(cudaMalloc((void **)&d_B, nBytes));
    CHECK(cudaMalloc((void **)&d_C, nBytes));
    CHECK(cudaMemcpy(d_A, h_A, nBytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_B, h_B, nBytes, cudaMemcpyHostToDevice));

    bool ok = true;
    for (int s = 0; s < nshapes; s++) {
        dim3 block(runShapes[s][0], runShapes[s][1]);
        dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
        CHECK(cudaMemset(d_C, 0xFF, nBytes));
        CHECK(cudaDeviceSynchronize());

        double t0 = example_seconds();
        sumMatrixOnGPU2D<<<grid, block>>>(d_A, d_B, d_C, nx, ny);
        cudaError_t launchErr = cudaGetLastError();
        CHECK(cudaDeviceSynchronize());
        double elapsed = example_seconds() - t0;

        printf("sumMatrixOnGPU2D <<<(%d,%d), (%d,%d)>>>", grid.x, grid.y, block.x, block.y);
        if (launchErr != cudaSuccess) {
            /* Refusing an oversized block is the expected outcome, not a failure. (Which
             * error says so has changed across CUDA versions, so any error will do.) */
            bool expected = block.x * block.y > (unsigned)prop.maxThreadsPerBlock;
            printf(" launch refused: %s (%s)\n", cudaGetErrorString(launchErr),
                   expected ? "expected: block too large" : "UNEXPECTED");
            ok &= expected;
            continue;
        }
        example_print_elapsed(elapsed);
        CHECK(cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost));
        bool match = checkResult(hostRef, gpuRef, nxy);
        printf(" %s\n", match ? "Arrays match." : "ARRAYS DIFFER");
        ok &= match;
    }

    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_B));
    CHECK(cudaFree(d_C));
    free(h_A);
    free(h_B);
    free(hostRef);
    free(gpuRef);
    CHECK(cudaDeviceReset());
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
