// Cooperative groups: this_thread_block() with sync() and thread_rank(), tiled_partition
// (dynamic and the templated thread_block_tile<N>) with shfl_down / shfl_xor reductions,
// cg::reduce with cg::plus / cg::greater, tile.any / all / ballot, meta_group_rank,
// coalesced_threads() inside a branch, and cg::inclusive_scan / exclusive_scan.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

template <unsigned N> __device__ int tileSum(cg::thread_block_tile<N> t, int v)
{
    for (int off = t.size() / 2; off > 0; off /= 2) v += t.shfl_down(v, off);
    return v;   // valid in rank 0
}

__device__ int groupSum(cg::thread_group g, int *tmp, int v)
{
    int rank = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        tmp[rank] = v;
        g.sync();
        if (rank < i) v += tmp[rank + i];
        g.sync();
    }
    return v;   // valid in rank 0
}

__global__ void blockReduce(const int *in, int *out, int *tileOut, int *misc)
{
    __shared__ int tmp[256];
    cg::thread_block block = cg::this_thread_block();
    int v = in[blockIdx.x * blockDim.x + block.thread_rank()];
    int s = groupSum(block, tmp, v);
    if (block.thread_rank() == 0) out[blockIdx.x] = s;

    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    cg::thread_group t4 = cg::tiled_partition(block, 4);
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int w = tileSum(warp, v);
    int e = tileSum(t8, v);
    __shared__ int tmp4[256];
    int f = groupSum(t4, tmp4 + (threadIdx.x & ~3), v);
    int r1 = cg::reduce(warp, v, cg::plus<int>());
    int r2 = cg::reduce(t8, v, cg::greater<int>());
    int inc = cg::inclusive_scan(warp, v);
    int exc = cg::exclusive_scan(t8, v, cg::plus<int>());
    int *o = tileOut + gid * 10;
    o[0] = warp.thread_rank() == 0 ? w : 0;
    o[1] = t8.thread_rank() == 0 ? e : 0;
    o[2] = t4.thread_rank() == 0 ? f : 0;
    o[3] = r1; o[4] = r2; o[5] = inc; o[6] = exc;
    o[7] = warp.meta_group_rank() * 100 + t8.meta_group_rank();
    o[8] = (int)warp.ballot(v > 0) ^ (warp.any(v == 7) << 1) ^ (t8.all(v > -50) << 2);
    // coalesced group: the lanes taking the branch, ranked among themselves
    o[9] = -1;
    if (v % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        int total = cg::reduce(active, 1, cg::plus<int>());
        o[9] = active.thread_rank() * 100 + total;
    }
    if (gid == 0) { misc[0] = block.size(); misc[1] = warp.size(); misc[2] = t8.num_threads(); misc[3] = block.group_dim().x; }
}

int main()
{
    const int B = 4, T = 256, n = B * T;
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = (i * 7919) % 97 - 40;
    int *din, *dout, *dtile, *dmisc;
    CHECK(cudaMalloc(&din, n * sizeof(int))); CHECK(cudaMalloc(&dout, B * sizeof(int)));
    CHECK(cudaMalloc(&dtile, n * 10 * sizeof(int))); CHECK(cudaMalloc(&dmisc, 4 * sizeof(int)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    blockReduce<<<B, T>>>(din, dout, dtile, dmisc);
    CHECK(cudaGetLastError());
    int out[B], misc[4], *tile = (int *)malloc(n * 10 * sizeof(int));
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(misc, dmisc, sizeof misc, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(tile, dtile, n * 10 * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    printf("sizes: block %d warp %d tile8 %d dim %d\n", misc[0], misc[1], misc[2], misc[3]);
    if (misc[0] != 256 || misc[1] != 32 || misc[2] != 8 || misc[3] != 256) bad++;
    for (int b = 0; b < B; b++) {
        int s = 0;
        for (int i = 0; i < T; i++) s += h[b * T + i];
        printf("block %d sum %d\n", b, out[b]);
        if (out[b] != s) bad++;
    }
    for (int g = 0; g < n; g++) {
        int lane = g & 31, w0 = g & ~31, e0 = g & ~7, f0 = g & ~3;
        int ws = 0, es = 0, fs = 0, emax = -1000, inc = 0, exc = 0, ballot = 0, any7 = 0, all8 = 1;
        for (int k = 0; k < 32; k++) { ws += h[w0 + k]; if (k <= lane) inc += h[w0 + k]; if (h[w0 + k] > 0) ballot |= 1 << k; if (h[w0 + k] == 7) any7 = 1; }
        for (int k = 0; k < 8; k++) { es += h[e0 + k]; if (h[e0 + k] > emax) emax = h[e0 + k]; if (e0 + k < g) exc += h[e0 + k]; if (h[e0 + k] <= -50) all8 = 0; }
        for (int k = 0; k < 4; k++) fs += h[f0 + k];
        int coal = -1;
        if (h[g] % 3 == 0) {
            int rank = 0, total = 0;
            for (int k = 0; k < 32; k++) if (h[w0 + k] % 3 == 0) { total++; if (k < lane) rank++; }
            coal = rank * 100 + total;
        }
        int t = g % T;
        int want[10] = {lane == 0 ? ws : 0, (g & 7) == 0 ? es : 0, (g & 3) == 0 ? fs : 0, ws, emax, inc, exc,
                        (t / 32) * 100 + t / 8, ballot ^ (any7 << 1) ^ (all8 << 2), coal};
        for (int k = 0; k < 10; k++)
            if (tile[g * 10 + k] != want[k]) {
                if (bad < 10) printf("thread %d result %d: gpu %d host %d\n", g, k, tile[g * 10 + k], want[k]);
                bad++;
            }
    }
    for (int g = 0; g < n; g += 111) {
        printf("g=%4d:", g);
        for (int k = 0; k < 10; k++) printf(" %d", tile[g * 10 + k]);
        printf("\n");
    }
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
