// Assorted features: volatile shared memory, __ldg, texture objects, constant memory,
// cooperative groups (grid sync, tiles, memcpy_async), half/bfloat16, nanosleep, reduce,
// device malloc/free, printf, trap, a noreturn function.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
namespace cg = cooperative_groups;
__constant__ float coef[9];
__global__ void reduceUnrollWarps8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    if (idx + 7 * blockDim.x < n) {
        int a1 = g_idata[idx]; int a2 = g_idata[idx + blockDim.x];
        g_idata[idx] = a1 + a2;
    }
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *vmem = idata;
        vmem[tid] += vmem[tid + 32]; vmem[tid] += vmem[tid + 16]; vmem[tid] += vmem[tid + 8];
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}
__global__ void ldg(const float4 * __restrict__ in, float4 *out, cudaTextureObject_t tex, int n)
{
    int i = threadIdx.x;
    float4 v = __ldg(&in[i]);
    float t = tex1Dfetch<float>(tex, i);
    float t2 = tex2D<float>(tex, 0.5f, 0.5f);
    v.x += coef[i % 9] + t + t2;
    out[i] = v;
}
__global__ void grid(int *p)
{
    cg::grid_group g = cg::this_grid();
    p[g.thread_rank()] = 1;
    g.sync();
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
    int s = cg::reduce(w, p[threadIdx.x], cg::plus<int>());
    p[0] = s + w.shfl_xor(s, 1);
}
__global__ void halfs(__half2 *h, __nv_bfloat16 *b)
{
    h[threadIdx.x] = __hfma2(h[0], h[1], h[2]);
    b[threadIdx.x] = __hadd(b[0], b[1]);
    __nanosleep(100);
    unsigned u = __reduce_add_sync(0xffffffff, threadIdx.x);
    h[1] = __floats2half2_rn(u, 1.0f);
}
__global__ void alloc(int n)
{
    int *p = (int *)malloc(n * sizeof(int));
    p[0] = 1;
    printf("%d\n", p[0]);
    free(p);
    __trap();
}
__device__ __noinline__ void nr() { asm volatile("trap;"); __builtin_unreachable(); }
__global__ void usesnr(int x) { if (x) nr(); }
__global__ void copyasync(float *g)
{
    __shared__ float s[256];
    auto blk = cg::this_thread_block();
    cg::memcpy_async(blk, s, g, sizeof(float) * 256);
    cg::wait(blk);
    g[threadIdx.x] = s[255 - threadIdx.x];
}
