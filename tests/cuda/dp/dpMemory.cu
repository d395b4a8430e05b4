/* dpMemory — what a child grid and its parent see of each other's global memory (CDP2).
 *
 *   1  a child sees every global write its parent's block made before the launch (all
 *      threads of the block, ordered by __syncthreads, and the launching thread's own);
 *   2  the launching grid's tail launch sees everything the child wrote;
 *   3  the host sees everything once the parent grid is complete;
 *   4  __device__ variables written by the parent are seen by the child, and a child's
 *      writes to them are seen by a later tail grid.
 *
 * Build: nvcc -arch=sm_90 -rdc=true dpMemory.cu -lcudadevrt
 */
#include "../../../examples/common.h"

#define N 256

__device__ int g_mismatches;
__device__ int g_err;
__device__ int g_value;
__device__ int g_valueSeenByChild;
__device__ int g_valueSeenByTail;

__device__ void noteError(cudaError_t e)
{
    if (e != cudaSuccess)
        atomicCAS(&g_err, 0, (int)e);
}

/* Checks what the parent block wrote, then writes the squares. */
__global__ void child(const int *in, int *out, int lastByLauncher)
{
    int i = threadIdx.x;
    if (in[i] != 3 * i + 1)
        atomicAdd(&g_mismatches, 1);
    if (i == 0 && lastByLauncher != in[N])
        atomicAdd(&g_mismatches, 1000);
    out[i] = i * i;
    if (i == 0) {
        g_valueSeenByChild = g_value;
        g_value = 77;
    }
}

/* Runs after the launching grid and all of its children: checks the child's squares. */
__global__ void tailCheck(const int *out, int *tailMismatches)
{
    int i = threadIdx.x;
    if (out[i] != i * i)
        atomicAdd(tailMismatches, 1);
    if (i == 0)
        g_valueSeenByTail = g_value;
}

__global__ void parent(int *in, int *out, int *tailMismatches)
{
    int i = threadIdx.x;
    in[i] = 3 * i + 1;   /* every thread writes its element */
    __syncthreads();     /* ... and the launching thread waits for all of them */
    if (i == 0) {
        in[N] = 12345;   /* the launching thread's own write, just before the launch */
        g_value = 41;
        child<<<1, N>>>(in, out, 12345);
        noteError(cudaGetLastError());
        tailCheck<<<1, N, 0, cudaStreamTailLaunch>>>(out, tailMismatches);
        noteError(cudaGetLastError());
    }
}

int main()
{
    int *d_in, *d_out, *d_tail;
    CHECK(cudaMalloc((void **)&d_in, (N + 1) * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_out, N * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_tail, sizeof(int)));
    CHECK(cudaMemset(d_in, 0, (N + 1) * sizeof(int)));
    CHECK(cudaMemset(d_out, 0xff, N * sizeof(int)));
    CHECK(cudaMemset(d_tail, 0, sizeof(int)));

    parent<<<1, N>>>(d_in, d_out, d_tail);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    int mismatches, err, tail, seenByChild, seenByTail, value;
    CHECK(cudaMemcpyFromSymbol(&mismatches, g_mismatches, sizeof(int)));
    CHECK(cudaMemcpyFromSymbol(&err, g_err, sizeof(int)));
    CHECK(cudaMemcpyFromSymbol(&seenByChild, g_valueSeenByChild, sizeof(int)));
    CHECK(cudaMemcpyFromSymbol(&seenByTail, g_valueSeenByTail, sizeof(int)));
    CHECK(cudaMemcpyFromSymbol(&value, g_value, sizeof(int)));
    CHECK(cudaMemcpy(&tail, d_tail, sizeof(int), cudaMemcpyDeviceToHost));
    int h_out[N];
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    int hostMismatches = 0;
    for (int i = 0; i < N; i++)
        hostMismatches += h_out[i] != i * i;

    if (err)
        printf("device-side error: %s\n", cudaGetErrorName((cudaError_t)err));
    printf("1  child saw the parent block's writes: %d mismatches\n", mismatches);
    printf("2  tail grid saw the child's writes: %d mismatches\n", tail);
    printf("3  host saw the child's writes: %d mismatches\n", hostMismatches);
    printf("4  __device__ variable: child saw %d, tail saw %d, host sees %d\n", seenByChild,
           seenByTail, value);
    bool ok = !err && !mismatches && !tail && !hostMismatches && seenByChild == 41 &&
              seenByTail == 77 && value == 77;

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_tail));
    CHECK(cudaDeviceReset());
    printf("%s\n", ok ? "Test passed" : "Test failed!");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
