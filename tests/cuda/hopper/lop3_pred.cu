// lop3 with a predicate result (lop3.or, lop3.and: the predicate is (d != 0) or/and q).
// expected/lop3_pred.out was printed by an H200.
// nvcc-flags: -arch=sm_90
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>

__global__ void lop3p(const uint32_t *in, uint32_t *out) {
    int t = threadIdx.x;
    uint32_t a = in[t], b = in[t + 32], c = in[t + 64], d1, d2, p1, p2;
    asm volatile("{ .reg .pred p, q; setp.ne.u32 q, %4, 0;\n"
                 " lop3.or.b32 %0|p, %2, %3, %5, 0x96, q; selp.u32 %1, 1, 0, p; }"
                 : "=r"(d1), "=r"(p1) : "r"(a), "r"(b), "r"(t & 1), "r"(c));
    asm volatile("{ .reg .pred p, q; setp.ne.u32 q, %4, 0;\n"
                 " lop3.and.b32 %0|p, %2, %3, %5, 0xe8, q; selp.u32 %1, 1, 0, p; }"
                 : "=r"(d2), "=r"(p2) : "r"(a), "r"(b), "r"(t & 2), "r"(c));
    out[t * 4 + 0] = d1; out[t * 4 + 1] = p1; out[t * 4 + 2] = d2; out[t * 4 + 3] = p2;
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
    { // lop3 with a predicate
    uint32_t li[96], lo[128];
    for (int i = 0; i < 96; i++) li[i] = (uint32_t)(i * 2654435761u) >> (i % 3 == 0 ? 20 : 0);
    li[3] = 0; li[35] = 0; li[67] = 0; li[7] = 0xffffffffu; li[39] = 0xffffffffu; li[71] = 0xffffffffu;
    uint32_t *dl, *dlo; cudaMalloc(&dl, sizeof li); cudaMalloc(&dlo, sizeof lo);
    cudaMemcpy(dl, li, sizeof li, cudaMemcpyHostToDevice);
    lop3p<<<1, 32>>>(dl, dlo);
    e = cudaDeviceSynchronize();
    cudaMemcpy(lo, dlo, sizeof lo, cudaMemcpyDeviceToHost);
    printf("lop3 pred: %s\n", cudaGetErrorString(e));
    for (int t = 0; t < 32; t++)
        printf("  %2d: %08x %u %08x %u\n", t, lo[t * 4], lo[t * 4 + 1], lo[t * 4 + 2], lo[t * 4 + 3]);

    }
    return 0;
}
