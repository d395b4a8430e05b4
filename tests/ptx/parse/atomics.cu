// Atomics of every flavour, warp votes/shuffles/matches, fences, clocks and special registers.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ unsigned long long g_u64;
__device__ double g_f64;
__global__ void atomics(int *i32, unsigned *u32, float *f32, unsigned long long *out)
{
    int t = threadIdx.x + blockIdx.y * 7;
    atomicAdd(i32, t);
    atomicSub(i32 + 1, t);
    atomicExch(i32 + 2, t);
    atomicMin(i32 + 3, t);
    atomicMax(i32 + 4, t);
    atomicInc(u32, 100u);
    atomicDec(u32 + 1, 100u);
    atomicAnd(i32 + 5, t);
    atomicOr(i32 + 6, t);
    atomicXor(i32 + 7, t);
    atomicCAS(i32 + 8, t, t + 1);
    atomicAdd(f32, 1.0f);
    atomicAdd(&g_u64, 1ull);
    atomicAdd(&g_f64, 0.5);
    atomicMax(&g_u64, (unsigned long long)t);
    unsigned m = __activemask();
    int any = __any_sync(m, t > 3), all = __all_sync(m, t > 3);
    unsigned mt = __match_any_sync(m, t & 3);
    int r = __shfl_sync(m, t, 3) + __shfl_up_sync(m, t, 1) + __shfl_xor_sync(m, t, 4);
    __threadfence();
    __threadfence_block();
    __threadfence_system();
    long long c = clock64();
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    unsigned lt;
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    unsigned long long gt;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
    cg::thread_block blk = cg::this_thread_block();
    blk.sync();
    int cnt = __syncthreads_count(t > 5);
    int orr = __syncthreads_or(t > 5);
    out[t] = c + any + all + mt + r + lane + sm + lt + gt + cnt + orr + __clz(t) + __ffs(t) + __brev(t) + __popcll(c);
}
