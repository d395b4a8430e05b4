// sm_90's vector atomics (atomicAdd on float2 and float4: atom.global.v2/.v4.f32) under
// memcheck: in bounds they are clean; with "overrun" a float4 whose last element lies past
// the allocation is reported as one 16-byte atomic at its real address (the checker once
// read the instruction's descriptor as the address offset and reported every vector
// atomic, in bounds or not, far outside any allocation).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void accumulate(float2 *a, float4 *b, int shift)
{
    atomicAdd(&a[threadIdx.x % 4], make_float2(1.0f, 2.0f));
    float4 *p = (float4 *)((char *)b + shift);
    if (threadIdx.x == 0) atomicAdd(p, make_float4(1.0f, 1.0f, 1.0f, 1.0f));
}

int main(int argc, char **argv)
{
    bool overrun = argc > 1 && strcmp(argv[1], "overrun") == 0;
    float2 *a;
    float4 *b;
    cudaMalloc(&a, 4 * sizeof(float2));
    cudaMalloc(&b, 2 * sizeof(float4));
    cudaMemset(a, 0, 4 * sizeof(float2));
    cudaMemset(b, 0, 2 * sizeof(float4));
    // in bounds: the second float4; overrun: 16 bytes further, past the 32-byte allocation
    accumulate<<<1, 64>>>(a, b, overrun ? 32 : 16);
    cudaError_t e = cudaDeviceSynchronize();
    float2 ha[4] = {};
    float4 hb[2] = {};
    cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
    printf("sync: %s\n", cudaGetErrorName(e));
    printf("a[0] = (%g, %g), b[1] = (%g, %g, %g, %g)\n", ha[0].x, ha[0].y, hb[1].x, hb[1].y, hb[1].z, hb[1].w);
    cudaFree(a);
    cudaFree(b);
    return 0;
}
