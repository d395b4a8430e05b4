// Kernels for tests/unit/test_exec_gaps.c: instructions and forms nvcc emits that vcuda
// once failed to parse or load — elect.sync with a sink, prefetch cache levels, cvt.pack,
// 16- and 128-bit atomic CAS/exchange, mov.pred from -1, cluster barriers and mapa for a
// cluster of one block, cp.async.mbarrier.arrive (cuda::memcpy_async with a barrier).
// PTX: nvcc -arch=sm_90 -ptx gaps.cu -o gaps.ptx
//      nvcc -arch=sm_90 -G -ptx gaps.cu -o gaps.G.ptx
#include <cooperative_groups.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

// elect.sync _|p over the lanes in each lane's mask argument; prefetches of every level.
extern "C" __global__ void elect_prefetch(const unsigned *masks, unsigned *out) {
    unsigned t = threadIdx.x, m = masks[t], leader = 0;
    asm volatile("prefetch.global.L2 [%0];" ::"l"(masks + t));
    asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(masks + t));
    asm volatile("prefetch.global.L1 [%0];" ::"l"(masks + t));
    asm volatile("prefetchu.L1 [%0];" ::"l"(masks + t));
    if ((m >> (t % 32)) & 1u) {
        asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(leader) : "r"(m));
        out[t] = 1000 + leader;
    } else {
        out[t] = 7;
    }
}

// cvt.pack.sat in every form: out[8 t + k].
extern "C" __global__ void cvt_pack(const int *a, const int *b, const unsigned *c, unsigned *out) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    unsigned z = c[t], *o = out + 8 * t;
    asm("cvt.pack.sat.u16.s32 %0, %1, %2;" : "=r"(o[0]) : "r"(x), "r"(y));
    asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(o[1]) : "r"(x), "r"(y));
    asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(o[2]) : "r"(x), "r"(y), "r"(z));
    asm("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(o[3]) : "r"(x), "r"(y), "r"(z));
    asm("cvt.pack.sat.u4.s32.b32 %0, %1, %2, %3;" : "=r"(o[4]) : "r"(x), "r"(y), "r"(z));
    asm("cvt.pack.sat.s4.s32.b32 %0, %1, %2, %3;" : "=r"(o[5]) : "r"(x), "r"(y), "r"(z));
    asm("cvt.pack.sat.u2.s32.b32 %0, %1, %2, %3;" : "=r"(o[6]) : "r"(x), "r"(y), "r"(z));
    asm("cvt.pack.sat.s2.s32.b32 %0, %1, %2, %3;" : "=r"(o[7]) : "r"(x), "r"(y), "r"(z));
}

struct __align__(16) pair128 { unsigned long long lo, hi; };

// Every thread tries to claim slot[0] with a 128-bit CAS and appends itself to a 128-bit
// exchange chain; 16-bit CAS counts up a short; mov.pred from -1.
extern "C" __global__ void atomics_wide(pair128 *slot, pair128 *old, unsigned short *s16,
                                        unsigned *wins) {
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    pair128 cmp = {0, 0}, mine = {t + 1, ~(unsigned long long)t};
    pair128 prev = atomicCAS(slot, cmp, mine);
    if (prev.lo == 0 && prev.hi == 0) atomicAdd(wins, 1u);
    old[t] = atomicExch(slot + 1, mine);
    unsigned short cur = *(volatile unsigned short *)s16, seen;
    do {
        seen = cur;
        cur = atomicCAS(s16, seen, (unsigned short)(seen + 1));
    } while (cur != seen);
    unsigned yes;
    asm("{\n\t.reg .pred p;\n\tmov.pred p, -1;\n\tselp.u32 %0, 5, 9, p;\n\t}" : "=r"(yes));
    if (yes != 5) atomicAdd(wins, 1000u);
}

// A cluster of one block: sync, the block's own shared memory through map_shared_rank.
extern "C" __global__ void cluster_one(int *out) {
    __shared__ int s[256];
    cg::cluster_group c = cg::this_cluster();
    s[threadIdx.x] = threadIdx.x * 3;
    c.sync();
    int *mine = c.map_shared_rank(s, 0);
    out[threadIdx.x] = mine[(threadIdx.x + 1) % blockDim.x] + (int)c.block_rank() * 1000 +
                       (int)c.num_blocks() * 100000;
}

// cuda::memcpy_async into shared memory completing on a cuda::barrier.
extern "C" __global__ void async_copy_barrier(const int *in, int *out) {
    __shared__ int buf[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, buf, in, sizeof buf, bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = buf[255 - threadIdx.x] * 2;
}

// 128-bit division and remainder (nvcc's multi-word code: carry chains that read the
// carry-out of a subtraction with addc), and that carry-out itself (1 = no borrow).
extern "C" __global__ void int128_div(const unsigned long long *a, unsigned long long *out) {
    int t = threadIdx.x;
    unsigned __int128 y = ((unsigned __int128)a[2 * t] << 64) | a[2 * t + 1];
    __int128 s = (__int128)y;
    unsigned __int128 q = y / 3, r = y % 1000000007u, q2 = y / ((unsigned __int128)a[1] + 5);
    __int128 sq = s / -7, sr = s % 1000003;
    unsigned long long *o = out + 10 * t;
    o[0] = (unsigned long long)q; o[1] = (unsigned long long)(q >> 64);
    o[2] = (unsigned long long)r;
    o[3] = (unsigned long long)q2; o[4] = (unsigned long long)(q2 >> 64);
    o[5] = (unsigned long long)sq; o[6] = (unsigned long long)(sq >> 64);
    o[7] = (unsigned long long)sr;
    unsigned x = (unsigned)a[2 * t + 1], z = (unsigned)a[2 * t], cf, bf;
    asm("{\n\t.reg .u32 t;\n\tsub.cc.u32 t, %1, %2;\n\taddc.u32 %0, 0, 0;\n\t}" : "=r"(cf) : "r"(x), "r"(z));
    asm("{\n\t.reg .u32 t;\n\tadd.cc.u32 t, %1, %2;\n\tsubc.u32 %0, 10, 3;\n\t}" : "=r"(bf) : "r"(x), "r"(z));
    o[8] = cf;
    o[9] = bf;
}
