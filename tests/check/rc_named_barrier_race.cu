/* rc_named_barrier_race — a named barrier does not order a warp that takes no part in it.
 *
 * Warp 0 writes a shared stage and arrives at barrier 1 (bar.arrive 1, 64); warp 1 waits
 * there (bar.sync 1, 64) and reads the stage: ordered. Warp 2 also reads the stage, but
 * barrier 1 completes with warps 0 and 1 alone, so nothing orders warp 2's read after
 * warp 0's write (BUG): racecheck reports the write and warp 2's read, not warp 1's.
 * Warp 2's value is not printed (it depends on scheduling).
 */
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ void barSync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void barArrive(int id, int n) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }

__global__ void stage(int *out)
{
    __shared__ int buf[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (warp == 0) {
        buf[lane] = 7 * lane;
        barArrive(1, 64);
    } else if (warp == 1) {
        barSync(1, 64);
        out[lane] = buf[lane];
    } else {
        out[32 + lane] = buf[lane];           /* BUG: barrier 1 does not order warp 2 */
    }
}

int main(void)
{
    int *out, h[64];
    cudaMalloc(&out, sizeof h);
    stage<<<1, 96>>>(out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[1] = %d, out[31] = %d\n", h[1], h[31]);
    cudaFree(out);
    return 0;
}
