/* sumArraysOnGPU — element-wise sum of two float vectors, one thread per element.
 *
 * The first complete CUDA program one usually writes: allocate on both sides, copy in,
 * launch a 1D grid of 1D blocks, copy back, and compare with the same sum done on the
 * host. The kernel guards its index, so any vector length works.
 *
 * Usage: sumArraysOnGPU [elements (default 1<<20)] [threads per block (default 1024)]
 */
#include "common.h"
#include <cmath>
#include <cstring>

__global__ void sumArraysOnGPU(const float *A, const float *B, float *C, const int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        C[i] = A[i] + B[i];
}

static void sumArraysOnHost(const float *A, const float *B, float *C, int N)
{
    for (int i = 0; i < N; i++)
        C[i] = A[i] + B[i];
}

/* Values with one decimal in [0, 25.5]: not exact in binary, so the comparison sees
 * real float arithmetic. */
static void initialData(float *data, int n, uint32_t seed)
{
    for (int i = 0; i < n; i++)
        data[i] = (float)(example_rand(&seed) & 0xFF) / 10.0f;
}

static bool checkResult(const float *hostRef, const float *gpuRef, int n)
{
    const double epsilon = 1.0e-8;
    for (int i = 0; i < n; i++) {
        if (fabs((double)hostRef[i] - (double)gpuRef[i]) > epsilon) {
            printf("Arrays do not match!\n");
            printf("host %5.2f gpu %5.2f at element %d\n", hostRef[i], gpuRef[i], i);
            return false;
        }
    }
    printf("Arrays match.\n");
    return true;
}

int main(int argc, char **argv)
{
    int nElem = argc > 1 ? atoi(argv[1]) : 1 << 20;
    int threads = argc > 2 ? atoi(argv[2]) : 1024;
    if (nElem <= 0 || threads <= 0) {
        printf("usage: sumArraysOnGPU [elements] [threads per block]\n");
        return EXIT_FAILURE;
    }

    int dev = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("sumArraysOnGPU starting...\n");
    printf("Using device %d: %s\n", dev, prop.name);
    CHECK(cudaSetDevice(dev));
    printf("Vector size %d\n", nElem);

    size_t nBytes = (size_t)nElem * sizeof(float);
    float *h_A = (float *)malloc(nBytes);
    float *h_B = (float *)malloc(nBytes);
    float *hostRef = (float *)malloc(nBytes);
    float *gpuRef = (float *)malloc(nBytes);

    initialData(h_A, nElem, 1u);
    initialData(h_B, nElem, 2u);
    memset(hostRef, 0, nBytes);
    memset(gpuRef, 0, nBytes);

    double t0 = example_seconds();
    sumArraysOnHost(h_A, h_B, hostRef, nElem);
    double tHost = example_seconds() - t0;
    printf("sumArraysOnHost");
    example_print_elapsed(tHost);
    printf("\n");

    float *d_A, *d_B, *d_C;
    CHECK(cudaMalloc((void **)&d_A, nBytes));
    CHECK(cudaMalloc((void **)&d_B, nBytes));
    CHECK(cudaMalloc((void **)&d_C, nBytes));
    CHECK(cudaMemcpy(d_A, h_A, nBytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_B, h_B, nBytes, cudaMemcpyHostToDevice));
    /* Poison the output so an unwritten element cannot pass for a right one. */
    CHECK(cudaMemset(d_C, 0xFF, nBytes));

    dim3 block(threads);
    dim3 grid((nElem + block.x - 1) / block.x);

    t0 = example_seconds();
    sumArraysOnGPU<<<grid, block>>>(d_A, d_B, d_C, nElem);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double tGpu = example_seconds() - t0;
    printf("sumArraysOnGPU <<<%d, %d>>>", grid.x, block.x);
    example_print_elapsed(tGpu);
    printf("\n");

    CHECK(cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost));
    bool ok = checkResult(hostRef, gpuRef, nElem);

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
