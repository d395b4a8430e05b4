/* rc_shared_waw — every warp's first thread writes one shared flag (write after write).
 *
 * The kernel wants "some thread found a negative value" and lets any thread store the
 * flag; two warps store to the same word with no barrier between them. (The values are
 * equal here, which hides the race; with different values the result would depend on
 * scheduling.) An atomic or a single writer is the fix.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void anyNegative(const int *in, int *out)
{
    __shared__ int found;
    if (threadIdx.x == 0) found = 0;
    __syncthreads();
    if (in[threadIdx.x] < 0) found = threadIdx.x;   /* BUG: several warps may store */
    __syncthreads();
    if (threadIdx.x == 0) *out = found;
}

int main(void)
{
    int h[96];
    for (int i = 0; i < 96; i++) h[i] = (i == 5 || i == 40 || i == 70) ? -1 : i;
    int *in, *out, r = 0;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    anyNegative<<<1, 96>>>(in, out);
    cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("found = %d\n", r);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
