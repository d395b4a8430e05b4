/* matMult — square matrix product C = A * B, naive and with shared-memory tiles.
 *
 * One thread per element of C, blocks of BLOCK_SIZE x BLOCK_SIZE threads, each block
 * computing one BLOCK_SIZE x BLOCK_SIZE tile of C.
 *   matMultNaive  every thread reads its whole row of A and column of B from global
 *                 memory: 2n loads per element of C.
 *   matMultTiled  the block walks along A's rows and B's columns one tile at a time,
 *                 staging each pair of tiles in shared memory (one element per thread,
 *                 a barrier after loading and another before overwriting): 2n/BLOCK_SIZE
 *                 global loads per element.
 * The inputs are small integers, so every product and partial sum is exact in float and
 * the device's results must equal the host's exactly.
 *
 * Usage: matMult [n: a multiple of 16 (default 256)]
 */
#include "common.h"

#define BLOCK_SIZE 16

__global__ void matMultNaive(const float *a, const float *b, int n, float *c)
{
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float sum = 0.0f;
    int ia = n * BLOCK_SIZE * by + n * ty;   /* a[row][0] */
    int ib = BLOCK_SIZE * bx + tx;           /* b[0][col] */
    for (int k = 0; k < n; k++)
        sum += a[ia + k] * b[ib + k * n];
    int ic = n * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    c[ic + n * ty + tx] = sum;
}

__global__ void matMultTiled(const float *a, const float *b, int n, float *c)
{
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = n * BLOCK_SIZE * by;   /* first tile of A this block needs */
    int aEnd = aBegin + n - 1;
    int aStep = BLOCK_SIZE;             /* next tile of A: one tile to the right */
    int bBegin = BLOCK_SIZE * bx;       /* first tile of B */
    int bStep = BLOCK_SIZE * n;         /* next tile of B: one tile down */
    float sum = 0.0f;

    for (int ia = aBegin, ib = bBegin; ia <= aEnd; ia += aStep, ib += bStep) {
        __shared__ float as[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float bs[BLOCK_SIZE][BLOCK_SIZE];
        as[ty][tx] = a[ia + n * ty + tx];
        bs[ty][tx] = b[ib + n * ty + tx];
        __syncthreads();   /* both tiles loaded */
        for (int k = 0; k < BLOCK_SIZE; k++)
            sum += as[ty][k] * bs[k][tx];
        __syncthreads();   /* done with these tiles before the next are loaded */
    }
    int ic = n * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    c[ic + n * ty + tx] = sum;
}

typedef void (*MatKernel)(const float *, const float *, int, float *);

/* Run one kernel, check C element by element, print a checksum. */
static bool runProduct(const char *name, MatKernel kernel, const float *adev, const float *bdev,
                       float *cdev, int n, float *c, const float *ref)
{
    size_t numBytes = (size_t)n * n * sizeof(float);
    dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
    dim3 blocks(n / threads.x, n / threads.y);
    CHECK(cudaMemset(cdev, 0xFF, numBytes));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    kernel<<<blocks, threads>>>(adev, bdev, n, cdev);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));

    CHECK(cudaMemcpy(c, cdev, numBytes, cudaMemcpyDeviceToHost));
    int wrong = 0;
    double checksum = 0.0;
    for (int i = 0; i < n * n; i++) {
        if (c[i] != ref[i]) {
            if (wrong == 0)
                printf("  %s: first difference at (%d,%d): got %.1f, expected %.1f\n", name,
                       i / n, i % n, c[i], ref[i]);
            wrong++;
        }
        checksum += c[i];
    }
    printf("%s <<<(%d,%d), (%d,%d)>>>", name, blocks.x, blocks.y, threads.x, threads.y);
    example_print_ms(ms);
    printf(" checksum %.0f: %s\n", checksum, wrong ? "WRONG" : "matches host");
    return wrong == 0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n <= 0 || n % BLOCK_SIZE != 0) {
        printf("usage: matMult [n: a multiple of %d]\n", BLOCK_SIZE);
        return EXIT_FAILURE;
    }
    printf("matMult: %d x %d matrices, %d x %d tiles\n", n, n, BLOCK_SIZE, BLOCK_SIZE);

    size_t count = (size_t)n * n;
    size_t numBytes = count * sizeof(float);
    float *a = (float *)malloc(numBytes);
    float *b = (float *)malloc(numBytes);
    float *c = (float *)malloc(numBytes);
    float *ref = (float *)malloc(numBytes);
    /* Entries in {-2..2}: |sum| <= 4n, exact in float for any n here. */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            a[i * n + j] = (float)((i * 7 + j * 3) % 5 - 2);
            b[i * n + j] = (float)((i * 2 + j * 5 + 1) % 5 - 2);
        }
    }
    double tHost = example_seconds();
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            ref[i * n + j] = s;
        }
    }
    tHost = example_seconds() - tHost;
    if (example_timing())
        printf("matMultOnHost (%.3f ms)\n", tHost * 1e3);

    float *adev, *bdev, *cdev;
    CHECK(cudaMalloc((void **)&adev, numBytes));
    CHECK(cudaMalloc((void **)&bdev, numBytes));
    CHECK(cudaMalloc((void **)&cdev, numBytes));
    CHECK(cudaMemcpy(adev, a, numBytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(bdev, b, numBytes, cudaMemcpyHostToDevice));

    bool ok = true;
    ok &= runProduct("matMultNaive", matMultNaive, adev, bdev, cdev, n, c, ref);
    ok &= runProduct("matMultTiled", matMultTiled, adev, bdev, cdev, n, c, ref);

    CHECK(cudaFree(adev));
    CHECK(cudaFree(bdev));
    CHECK(cudaFree(cdev));
    free(a);
    free(b);
    free(c);
    free(ref);
    printf("%s\n", ok ? "Both products match the host" : "Test failed!");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
