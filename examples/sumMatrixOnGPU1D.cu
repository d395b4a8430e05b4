/* sumMatrixOnGPU1D — matrix sum with a 1D grid of 1D blocks, and with a 2D grid of 1D
 * blocks.
 *
 * sumMatrixOnGPU1D gives each thread one column and has it walk down all ny rows;
 * sumMatrixOnGPUMix gives each thread one element, the grid's y dimension picking the
 * row. Both are compared with the host's sum, for each block width.
 *
 * Usage: sumMatrixOnGPU1D [block_x] [nx ny (default 1024 1024)]
 */
#include "common.h"
#include <cmath>

__global__ void sumMatrixOnGPU1D(const float *A, const float *B, float *C, int NX, int NY)
{
    unsigned int ix = threadIdx.x + blockIdx.x * blockDim.x;
    if (ix < NX) {
        for (int iy = 0; iy < NY; iy++) {
            int idx = iy * NX + ix;
            C[idx] = A[idx] + B[idx];
        }
    }
}

__global__ void sumMatrixOnGPUMix(const float *A, const float *B, float *C, int NX, int NY)
{
    unsigned int ix = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned int iy = blockIdx.y;
    unsigned int idx = iy * NX + ix;
    if (ix < NX && iy < NY)
        C[idx] = A[idx] + B[idx];
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
    int widths[2] = {32, 128};
    int nwidths = 2;
    if (argc > 1) {
        widths[0] = atoi(argv[1]);
        nwidths = 1;
    }
    int nx = argc > 3 ? atoi(argv[2]) : 1 << 10;
    int ny = argc > 3 ? atoi(argv[3]) : 1 << 10;
    if (nx <= 0 || ny <= 0 || widths[0] <= 0) {
        printf("usage: sumMatrixOnGPU1D [block_x] [nx ny]\n");
        return EXIT_FAILURE;
    }

    int dev = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("sumMatrixOnGPU1D using device %d: %s\n", dev, prop.name);
    CHECK(cudaSetDevice(dev));
    printf("Matrix size: nx %d ny %d\n", nx, ny);

    size_t nxy = (size_t)nx * ny;
    size_t nBytes = nxy * sizeof(float);
    float *h_A = (float *)malloc(nBytes);
    float *h_B = (float *)malloc(nBytes);
    float *hostRef = (float *)malloc(nBytes);
    float *gpuRef = (float *)malloc(nBytes);
    initialData(h_A, nxy, 21u);
    initialData(h_B, nxy, 22u);
    double tHost = example_seconds();
    for (size_t i = 0; i < nxy; i++)
        hostRef[i] = h_A[i] + h_B[i];
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
    for (int w = 0; w < nwidths; w++) {
        for (int mix = 0; mix < 2; mix++) {
            dim3 block(widths[w], 1);
            dim3 grid((nx + block.x - 1) / block.x, mix ? ny : 1);
            CHECK(cudaMemset(d_C, 0xFF, nBytes));
            CHECK(cudaDeviceSynchronize());
            double t0 = example_seconds();
            if (mix)
                sumMatrixOnGPUMix<<<grid, block>>>(d_A, d_B, d_C, nx, ny);
            else
                sumMatrixOnGPU1D<<<grid, block>>>(d_A, d_B, d_C, nx, ny);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            double elapsed = example_seconds() - t0;
            CHECK(cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost));
            bool match = checkResult(hostRef, gpuRef, nxy);
            printf("%s <<<(%d,%d), (%d,%d)>>>", mix ? "sumMatrixOnGPUMix" : "sumMatrixOnGPU1D ",
                   grid.x, grid.y, block.x, block.y);
            example_print_elapsed(elapsed);
            printf(" %s\n", match ? "Arrays match." : "ARRAYS DIFFER");
            ok &= match;
        }
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
