// Vector atomics of sm_90: red and atom .global .v2/.v4 on f32 (add), f16x2 and bf16x2 (add,
// min, max), 32 lanes on the same addresses; the sums, the extremes, and the old values the
// first lane to arrive got. expected/vector_atomics.out was printed by an H200.
// nvcc-flags: -arch=sm_90
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>

__global__ void vec_atomics(float *f, uint32_t *h, uint32_t *out) {
    int t = threadIdx.x;
    float a = 0.5f * (t + 1), b = -0.25f * t, c = 1.0f / (t + 1), d = 3.0f;
    asm volatile("red.global.v2.f32.add [%0], {%1, %2};" ::"l"(f), "f"(a), "f"(b) : "memory");
    asm volatile("red.global.v4.f32.add [%0], {%1, %2, %3, %4};" ::"l"(f + 4), "f"(a), "f"(b), "f"(c), "f"(d) : "memory");
    float r0, r1, r2, r3;
    asm volatile("atom.global.v4.f32.add {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"
                 : "=f"(r0), "=f"(r1), "=f"(r2), "=f"(r3) : "l"(f + 8), "f"(a), "f"(b), "f"(c), "f"(d) : "memory");
    uint32_t m0, m1;
    // f16x2 / bf16x2: each 32-bit element holds two halves
    uint32_t hv = 0x3800u | (uint32_t)(0x3400u + t) << 16; // f16 0.5 and 0.25 + t ulps
    uint32_t bv = 0x3f00u | 0x3e80u << 16;                               // bf16 0.5, 0.25
    asm volatile("red.global.v2.f16x2.add.noftz [%0], {%1, %1};" ::"l"(h), "r"(hv) : "memory");
    uint32_t q0, q1, q2, q3;
    asm volatile("atom.global.v4.f16x2.add.noftz {%0, %1, %2, %3}, [%4], {%5, %5, %5, %5};"
                 : "=r"(q0), "=r"(q1), "=r"(q2), "=r"(q3) : "l"(h + 4), "r"(hv) : "memory");
    asm volatile("red.global.v2.bf16x2.add.noftz [%0], {%1, %1};" ::"l"(h + 20), "r"(bv) : "memory");
    asm volatile("red.global.v4.bf16x2.max.noftz [%0], {%1, %1, %1, %1};" ::"l"(h + 8), "r"(hv) : "memory");
    asm volatile("red.global.v4.f16x2.min.noftz [%0], {%1, %1, %1, %1};" ::"l"(h + 12), "r"(hv) : "memory");
    asm volatile("atom.global.v2.f16x2.max.noftz {%0, %1}, [%2], {%3, %3};" : "=r"(m0), "=r"(m1) : "l"(h + 16), "r"(hv) : "memory");
    asm volatile("red.global.v2.bf16x2.min.noftz [%0], {%1, %1};" ::"l"(h + 18), "r"(bv) : "memory");
    // the old values returned depend on the order the lanes reach memory: kept for the
    // lane that reached it first (its old is the initial value) as a check of their place
    out[t * 8 + 0] = __float_as_uint(r0); out[t * 8 + 1] = __float_as_uint(r1);
    out[t * 8 + 2] = __float_as_uint(r2); out[t * 8 + 3] = __float_as_uint(r3);
    out[t * 8 + 4] = m0; out[t * 8 + 5] = m1;
    out[t * 8 + 6] = q0; out[t * 8 + 7] = q3 ^ q1 ^ q2 ^ q3 ^ q1 ^ q2;
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
    { // vector atomics
    float *f; uint32_t *h, *o;
    cudaMalloc(&f, 64 * 4); cudaMalloc(&h, 64 * 4); cudaMalloc(&o, 32 * 8 * 4);
    float hf[64]; uint32_t hh[64];
    for (int i = 0; i < 64; i++) { hf[i] = (float)i - 7.0f; hh[i] = 0x3c003c00u; }
    for (int i = 8; i < 12; i++) hh[i] = 0x3f803f80u;
    for (int i = 18; i < 22; i++) hh[i] = 0x3f803f80u;
    cudaMemcpy(f, hf, sizeof hf, cudaMemcpyHostToDevice);
    cudaMemcpy(h, hh, sizeof hh, cudaMemcpyHostToDevice);
    vec_atomics<<<1, 32>>>(f, h, o);
    e = cudaDeviceSynchronize();
    printf("vector atomics: %s\n", cudaGetErrorString(e));
    cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(hh, h, sizeof hh, cudaMemcpyDeviceToHost);
    printf("f32:");
    for (int i = 0; i < 16; i++) printf(" %08x", *(uint32_t *)&hf[i]);
    uint32_t ho[32 * 8];
    cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
    int first = 0; // the lane whose atom.v4 returned the initial values
    for (int t = 0; t < 32; t++) if (ho[t * 8] == 0x3f800000u) first = t;
    int qfirst = 0, mfirst = 0; // lanes whose f16x2 atoms returned the initial values
    for (int t = 0; t < 32; t++) {
        qfirst += ho[t * 8 + 6] == 0x3c003c00u && ho[t * 8 + 7] == 0x3c003c00u;
        mfirst += ho[t * 8 + 4] == 0x3c003c00u && ho[t * 8 + 5] == 0x3c003c00u;
    }
    printf("\nfirst atom.v4 olds: %08x %08x %08x %08x; lanes with the initial f16x2 olds: add %d, max %d",
           ho[first * 8], ho[first * 8 + 1], ho[first * 8 + 2], ho[first * 8 + 3], qfirst, mfirst);
    printf("\nf16x2/bf16x2:");
    for (int i = 0; i < 22; i++) printf(" %08x", hh[i]);
    printf("\n");

    }
    return 0;
}
