/* rc_named_barrier_ok — warp specialisation with named barriers, correctly synchronised.
 *
 * Warp 0 produces a stage of shared memory and arrives at barrier 1 (bar.arrive 1, 64);
 * warp 1 waits there (bar.sync 1, 64), consumes the stage and arrives at barrier 2, at
 * which the producer waits before it overwrites the stage for the next round. Each
 * barrier completes with 64 threads, the two warps, and orders exactly what needs
 * ordering: racecheck reports nothing (a checker that treated every barrier as a
 * __syncthreads() of the block saw the arrive-only warp's accesses as unordered).
 */
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ void barSync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void barArrive(int id, int n) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }

__global__ void pipeline(int *out, int rounds)
{
    __shared__ int stage[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int sum = 0;
    for (int r = 0; r < rounds; r++) {
        if (warp == 0) {
            if (r > 0) barSync(2, 64);        /* the consumer is done with the stage */
            stage[lane] = r * 100 + lane;
            barArrive(1, 64);                 /* the stage is ready */
        } else {
            barSync(1, 64);                   /* wait for the stage */
            sum += stage[31 - lane];
            if (r + 1 < rounds) barArrive(2, 64); /* the stage may be overwritten */
        }
    }
    if (warp == 1) out[lane] = sum;
}

int main(void)
{
    int *out, h[32];
    cudaMalloc(&out, sizeof h);
    pipeline<<<1, 64>>>(out, 4);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[0] = %d, out[31] = %d\n", h[0], h[31]);
    cudaFree(out);
    return 0;
}
