// Cooperative groups: tiles, reduce/scan, coalesced groups, block sync, labeled partitions.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_reduce(const int *in, int *out, float *fo) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
    int v = in[block.thread_rank()];
    int s = cg::reduce(warp, v, cg::plus<int>());
    int m = cg::reduce(tile8, v, cg::greater<int>());
    int ex = cg::exclusive_scan(warp, v);
    int inc = cg::inclusive_scan(tile8, v, cg::bit_xor<int>());
    float fs = cg::reduce(warp, (float)v * 0.5f, cg::plus<float>());
    block.sync();
    if (v & 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        int r = odd.shfl(v, 0) + odd.thread_rank() + (int)odd.size();
        r += cg::reduce(odd, v, cg::plus<int>());
        out[block.thread_rank() + 256] = r;
    }
    cg::thread_group part = cg::tiled_partition(block, 16);
    part.sync();
    int l = warp.shfl_down(v, 1) + warp.shfl_xor(v, 2) + warp.any(v > 3) + warp.ballot(v & 2) +
            warp.match_any(v & 3);
    out[block.thread_rank()] = s + m + ex + inc + l + (int)part.thread_rank();
    fo[block.thread_rank()] = fs;
}

extern "C" __global__ void cg_labeled(int *out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::coalesced_group g = cg::labeled_partition(warp, threadIdx.x % 3);
    out[threadIdx.x] = g.thread_rank() * 100 + g.size() + cg::reduce(g, (int)threadIdx.x, cg::plus<int>());
    cg::sync(block);
}
