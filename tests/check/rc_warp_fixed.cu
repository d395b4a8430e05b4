/* rc_warp_fixed — rc_warp_volatile with __syncwarp() between the warp-level steps: correct
 * on every device, so racecheck reports nothing on any preset.
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
        int v = s[tid];
        for (int off = 32; off > 0; off >>= 1) {
            v += s[tid + off];
            __syncwarp();
            s[tid] = v;
            __syncwarp();
        }
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
