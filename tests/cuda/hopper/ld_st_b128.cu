// 128-bit loads and stores (ld.global.b128, st.global.b128) through .b128 registers, with
// mov.b128 packing and unpacking. expected/ld_st_b128.out was printed by an H200.
// nvcc-flags: -arch=sm_90
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>

__global__ void b128(const uint4 *in, uint4 *out) {
    int t = threadIdx.x;
    asm volatile("{ .reg .b128 v; ld.global.b128 v, [%0]; st.global.b128 [%1], v; }" ::"l"(in + t), "l"(out + t) : "memory");
    asm volatile("{ .reg .b128 v; .reg .b64 lo, hi; ld.global.b128 v, [%0]; mov.b128 {lo, hi}, v; mov.b128 v, {hi, lo}; st.global.b128 [%1], v; }"
                 ::"l"(in + t), "l"(out + 32 + t) : "memory");
}

static uint32_t fnv(const void *p, size_t n) {
    const uint8_t *c = (const uint8_t *)p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 16777619u;
    return h;
}

int main() {
    cudaError_t e = cudaSuccess;
    cudaDriverEntryPointQueryResult q;
    (void)q;
    { // b128
    uint32_t in[32 * 4], out[64 * 4];
    for (int i = 0; i < 128; i++) in[i] = 0x01020304u * (uint32_t)i ^ 0xa5a5a5a5u;
    uint4 *di, *dq; cudaMalloc(&di, sizeof in); cudaMalloc(&dq, sizeof out);
    cudaMemcpy(di, in, sizeof in, cudaMemcpyHostToDevice);
    b128<<<1, 32>>>(di, dq);
    e = cudaDeviceSynchronize();
    cudaMemcpy(out, dq, sizeof out, cudaMemcpyDeviceToHost);
    printf("b128: %s, copy %08x swapped %08x, lane 5: %08x %08x %08x %08x / %08x %08x %08x %08x\n", cudaGetErrorString(e),
           fnv(out, 512), fnv(out + 128, 512), out[20], out[21], out[22], out[23], out[148], out[149], out[150], out[151]);

    }
    return 0;
}
