// Generic pointers and the address-space predicates: __isGlobal, __isShared, __isConstant,
// __isLocal on pointers to each space (passed through a __noinline__ function so the
// compiler cannot know the space), __cvta_generic_to_shared and back, isspacep in inline
// PTX, a generic function that writes through whatever it is given, and the
// %dynamic_smem_size / %total_smem_size special registers.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__constant__ int cTable[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ int gVar[4];

__device__ __noinline__ int classify(const void *p)
{
    return __isGlobal(p) | __isShared(p) << 1 | __isConstant(p) << 2 | __isLocal(p) << 3;
}

__device__ __noinline__ void bump(int *p, int v) { *p += v; }

__device__ __noinline__ int spaceBits(const void *p)
{
    int g, s, c, l;
    asm("{ .reg .pred q; isspacep.global q, %4; selp.s32 %0, 1, 0, q;\n"
        "  isspacep.shared q, %4; selp.s32 %1, 1, 0, q;\n"
        "  isspacep.const q, %4; selp.s32 %2, 1, 0, q;\n"
        "  isspacep.local q, %4; selp.s32 %3, 1, 0, q; }"
        : "=r"(g), "=r"(s), "=r"(c), "=r"(l) : "l"(p));
    return g | s << 1 | c << 2 | l << 3;
}

__global__ void probe(int *glob, int *out, int sel)
{
    __shared__ int sh[32];
    extern __shared__ int dyn[];
    int local[8];
    int t = threadIdx.x;
    sh[t] = t;
    dyn[t] = 100 + t;
    for (int i = 0; i < 8; i++) local[i] = t * i;
    __syncthreads();
    const void *ptrs[6] = {glob, sh, cTable, local + (t & 7), gVar, dyn};
    const void *p = ptrs[(t + sel) % 6];
    out[t * 4 + 0] = classify(p);
    out[t * 4 + 1] = spaceBits(p);
    // write through generic pointers to three spaces
    int *w = t % 3 == 0 ? glob + t : t % 3 == 1 ? sh + t : local + (t & 7);
    bump(w, 1000);
    __syncthreads();
    int got = t % 3 == 0 ? glob[t] : t % 3 == 1 ? sh[t] : local[t & 7];
    out[t * 4 + 2] = got;
    size_t sa = __cvta_generic_to_shared(sh + t);
    int *back = (int *)__cvta_shared_to_generic(sa);
    out[t * 4 + 3] = (back == sh + t) | ((int)(sa - __cvta_generic_to_shared(sh)) << 4);
}

__global__ void sizes(unsigned *o, int dyn)
{
    extern __shared__ char dynb[];
    __shared__ char stat[1000];
    stat[threadIdx.x] = 1;
    __syncthreads();
    if ((int)threadIdx.x < dyn) dynb[threadIdx.x] = stat[threadIdx.x];
    unsigned dsz, tsz;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dsz));
    asm("mov.u32 %0, %%total_smem_size;" : "=r"(tsz));
    if (threadIdx.x == 0) { o[0] = dsz; o[1] = tsz; o[2] = dyn ? dynb[0] : 0; }
}

int main()
{
    int *g, *o, ho[32 * 4];
    CK(cudaMalloc(&g, 32 * 4));
    CK(cudaMalloc(&o, sizeof ho));
    CK(cudaMemset(g, 0, 32 * 4));
    probe<<<1, 32, 32 * 4>>>(g, o, 0);
    CK(cudaGetLastError());
    CK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    const char *names[6] = {"global", "shared", "constant", "local", "__device__", "dynamic shared"};
    for (int t = 0; t < 12; t++)
        printf("thread %2d %-15s predicates %x isspacep %x after write %d cvta %x\n", t, names[t % 6], ho[t * 4],
               ho[t * 4 + 1], ho[t * 4 + 2], ho[t * 4 + 3]);
    unsigned *s, hs[3];
    CK(cudaMalloc(&s, sizeof hs));
    for (int dyn : {0, 4096, 50000}) {
        if (dyn > 48 * 1024) CK(cudaFuncSetAttribute(sizes, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn));
        sizes<<<1, 64, dyn>>>(s, dyn);
        CK(cudaGetLastError());
        CK(cudaMemcpy(hs, s, sizeof hs, cudaMemcpyDeviceToHost));
        printf("dynamic %5d: %%dynamic_smem_size %u %%total_smem_size %u\n", dyn, hs[0], hs[1]);
    }
    return 0;
}
