/* rc_warp_volatile — the warp-synchronous last steps of a shared-memory reduction.
 *
 * After the block-wide steps, the first warp finishes with `volatile` loads and stores
 * and no synchronisation, relying on the 32 lanes running in lockstep. That holds on a
 * GPU before Volta (the k40 and fermi presets: no report); since Volta the lanes of a
 * warp are scheduled independently and each step races with the next (the h100 preset:
 * warp-level hazards, fixed with __syncwarp() between the steps or __shfl_down_sync()).
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void blockSum(const int *in, int *out)
{
    __shared__ int s[128];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * 128 + tid];
    __syncthreads();
    if (tid < 64) s[tid] += s[tid + 64];
    __syncthreads();
    if (tid < 32) {
        volatile int *v = s;
        v[tid] += v[tid + 32];
        v[tid] += v[tid + 16];
        v[tid] += v[tid + 8];
        v[tid] += v[tid + 4];
        v[tid] += v[tid + 2];
        v[tid] += v[tid + 1];
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

int main(void)
{
    int h[256], r[2];
    for (int i = 0; i < 256; i++) h[i] = i;
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof r);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    blockSum<<<2, 128>>>(in, out);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("sums: %d %d\n", r[0], r[1]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
