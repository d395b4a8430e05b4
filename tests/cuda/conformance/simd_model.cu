// CUDA's SIMD intrinsics (CUDA Math API "SIMD intrinsics", __vabs2 ... __vsubus4): all
// 82 of them on edge-value and pseudo-random inputs, each compared with a C model of its
// documented semantics (the signed rounded average rounds halves away from zero) and
// summarised by a checksum of its results.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define SIMD_LIST(X) \
    X(vabs2) X(vabs4) X(vabsdiffs2) X(vabsdiffs4) X(vabsdiffu2) X(vabsdiffu4) X(vabsss2) X(vabsss4) \
    X(vadd2) X(vadd4) X(vaddss2) X(vaddss4) X(vaddus2) X(vaddus4) X(vavgs2) X(vavgs4) X(vavgu2)   \
    X(vavgu4) X(vcmpeq2) X(vcmpeq4) X(vcmpges2) X(vcmpges4) X(vcmpgeu2) X(vcmpgeu4) X(vcmpgts2)    \
    X(vcmpgts4) X(vcmpgtu2) X(vcmpgtu4) X(vcmples2) X(vcmples4) X(vcmpleu2) X(vcmpleu4)          \
    X(vcmplts2) X(vcmplts4) X(vcmpltu2) X(vcmpltu4) X(vcmpne2) X(vcmpne4) X(vhaddu2) X(vhaddu4)   \
    X(vmaxs2) X(vmaxs4) X(vmaxu2) X(vmaxu4) X(vmins2) X(vmins4) X(vminu2) X(vminu4) X(vneg2)     \
    X(vneg4) X(vnegss2) X(vnegss4) X(vsads2) X(vsads4) X(vsadu2) X(vsadu4) X(vseteq2) X(vseteq4) \
    X(vsetges2) X(vsetges4) X(vsetgeu2) X(vsetgeu4) X(vsetgts2) X(vsetgts4) X(vsetgtu2)          \
    X(vsetgtu4) X(vsetles2) X(vsetles4) X(vsetleu2) X(vsetleu4) X(vsetlts2) X(vsetlts4)          \
    X(vsetltu2) X(vsetltu4) X(vsetne2) X(vsetne4) X(vsub2) X(vsub4) X(vsubss2) X(vsubss4)        \
    X(vsubus2) X(vsubus4)

__device__ __forceinline__ unsigned call1(unsigned (*f)(unsigned), unsigned a, unsigned) { return f(a); }
__device__ __forceinline__ unsigned call1(unsigned (*f)(unsigned, unsigned), unsigned a, unsigned b) { return f(a, b); }

// out[k * n + i] = intrinsic k of (a[i], b[i])
__global__ void simd(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    int k = 0;
#define X(name) out[(k++) * n + i] = call1(__##name, x, y);
    SIMD_LIST(X)
#undef X
}

#include "simd_model.h"

int main()
{
    uint32_t *a = (uint32_t *)malloc(N * 4), *b = (uint32_t *)malloc(N * 4);
    uint32_t *out = (uint32_t *)malloc((size_t)N * NLIST * 4);
    make_inputs(a, b);
    unsigned *da, *db, *dout;
    CHECK(cudaMalloc(&da, N * 4));
    CHECK(cudaMalloc(&db, N * 4));
    CHECK(cudaMalloc(&dout, (size_t)N * NLIST * 4));
    CHECK(cudaMemcpy(da, a, N * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, N * 4, cudaMemcpyHostToDevice));
    simd<<<(N + 127) / 128, 128>>>(da, db, dout, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, (size_t)N * NLIST * 4, cudaMemcpyDeviceToHost));
    int failures = 0;
    for (unsigned k = 0; k < NLIST; k++) {
        uint32_t sum = 0;
        int bad = 0, first = -1;
        for (int i = 0; i < N; i++) {
            uint32_t got = out[(size_t)k * N + i];
            sum = sum * 31u + got;
            if (got != simd_model(list[k].op, list[k].n, list[k].sgn, a[i], b[i])) {
                if (first < 0) first = i;
                bad++;
            }
        }
        printf("__%-10s checksum %08x %s", list[k].name, sum, bad ? "MISMATCH" : "ok");
        if (bad)
            printf(" (%d wrong, first (0x%08x, 0x%08x) -> 0x%08x, model 0x%08x)", bad, a[first],
                   b[first], out[(size_t)k * N + first],
                   simd_model(list[k].op, list[k].n, list[k].sgn, a[first], b[first]));
        printf("\n");
        failures += bad != 0;
    }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dout));
    free(a); free(b); free(out);
    printf("%s (%d intrinsics differ from the model)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
