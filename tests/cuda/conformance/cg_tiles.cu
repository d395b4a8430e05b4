// Cooperative groups beyond coop_groups.cu: thread_block_tile<N> for every N from 1 to 32
// with shfl / shfl_up / shfl_down / shfl_xor / any / all / ballot / match_any / match_all,
// meta_group_rank / meta_group_size; cg::reduce with plus / less / greater / bit_and /
// bit_or / bit_xor on int, unsigned, float and double; inclusive_scan / exclusive_scan with
// several operators; coalesced_threads() rank and size in divergent code, and shfl / ballot
// on it; labeled_partition, binary_partition, tiled_partition of a coalesced group;
// invoke_one; cg::memcpy_async with cg::wait and cg::wait_prior; grid_group::sync in a
// cooperative launch.
// Each section prints a hash of its results and a few of them.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define THREADS 128
#define SLOTS 32   // results per thread

static unsigned long long hashWords(const unsigned *w, size_t n)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) { h ^= w[i]; h *= 1099511628211ull; }
    return h;
}

static void show(const char *name, const unsigned *w, size_t n, size_t first)
{
    printf("%-22s hash=%016llx", name, hashWords(w, n));
    for (size_t i = 0; i < first && i < n; i++) printf(" %08x", w[i]);
    printf("\n");
    fflush(stdout);   // a section that hangs shows where
}

__device__ unsigned fbits(float f) { return __float_as_uint(f); }

// Every member op of a static tile of N threads, written to out[rank*SLOTS + k].
template <unsigned N> __device__ void tileOps(unsigned *out, int seed)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<N> t = cg::tiled_partition<N>(block);
    unsigned tid = block.thread_rank();
    unsigned *o = out + tid * SLOTS;
    int v = (int)(tid * 2654435761u >> 7) ^ seed;
    unsigned r = t.thread_rank();
    o[0] = r | (t.size() << 8) | (t.num_threads() << 16);
    o[1] = t.meta_group_rank() | (t.meta_group_size() << 16);
    o[2] = t.shfl(v, (r * 3 + 1) % N);
    o[3] = t.shfl(v, (int)N - 1);
    o[4] = t.shfl_up(v, 1);
    o[5] = t.shfl_down(v, N > 2 ? 2 : 1);
    o[6] = t.shfl_xor(v, N / 2 ? N / 2 : 0);
    o[7] = t.any((v & 7) == 3);
    o[8] = t.all((v & 1) == 0) | (t.all(true) << 1);
    o[9] = t.ballot((v & 3) == 1);
    o[10] = t.match_any(v & 3);
    int pred = 0;
    o[11] = t.match_all(v & 0, pred);
    o[12] = pred;
    o[13] = t.match_all(v & 1, pred);
    o[14] = pred;
    o[15] = cg::reduce(t, v, cg::plus<int>());
    o[16] = cg::reduce(t, v, cg::less<int>());
    o[17] = cg::reduce(t, v, cg::greater<int>());
    o[18] = cg::reduce(t, (unsigned)v, cg::bit_and<unsigned>());
    o[19] = cg::reduce(t, (unsigned)v, cg::bit_or<unsigned>());
    o[20] = cg::reduce(t, (unsigned)v, cg::bit_xor<unsigned>());
    o[21] = cg::reduce(t, (unsigned)v, cg::greater<unsigned>());
    float f = (float)v * 1.0e-3f + (float)(r & 3) * 1.0e5f;
    o[22] = fbits(cg::reduce(t, f, cg::plus<float>()));
    o[23] = fbits(cg::reduce(t, f, cg::less<float>()));
    double d = (double)v * 1.0e-7 + (double)r * 3.0e9;
    double dr = cg::reduce(t, d, cg::plus<double>());
    unsigned long long db; memcpy(&db, &dr, 8);
    o[24] = (unsigned)db; o[25] = (unsigned)(db >> 32);
    o[26] = cg::inclusive_scan(t, v & 255);
    o[27] = cg::exclusive_scan(t, v & 255);
    o[28] = cg::inclusive_scan(t, (unsigned)v, cg::bit_xor<unsigned>());
    o[29] = cg::exclusive_scan(t, v, cg::greater<int>());
    o[30] = fbits(cg::inclusive_scan(t, f));
    o[31] = t.shfl(v, r) == v;
}

template <unsigned N> __global__ void tileKernel(unsigned *out, int seed)
{
    tileOps<N>(out, seed);
}

// Divergent code: coalesced groups made by branches, their partitions and collectives.
__global__ void coalescedKernel(const int *in, unsigned *out)
{
    unsigned tid = threadIdx.x;
    unsigned *o = out + tid * SLOTS;
    for (int k = 0; k < SLOTS; k++) o[k] = 0xeeeeeeee;
    int v = in[tid];
    if (v % 3 != 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        o[0] = g.thread_rank() | (g.size() << 8) | (g.num_threads() << 16);
        o[1] = g.shfl(v, 0);
        o[2] = g.shfl(v, g.size() - 1);
        o[3] = g.ballot(v & 1);
        o[4] = g.any(v > 900) | (g.all(v > 0) << 1);
        o[5] = cg::reduce(g, v, cg::plus<int>());
        o[6] = cg::inclusive_scan(g, v);
        o[7] = cg::exclusive_scan(g, v, cg::bit_xor<int>());
        o[8] = g.shfl_up(v, 1);
        o[9] = g.shfl_down(v, 2);
        o[10] = g.meta_group_rank() | (g.meta_group_size() << 16);
        // a partition of a coalesced group into tiles of four
        cg::coalesced_group t4 = cg::tiled_partition(g, 4);
        o[11] = t4.thread_rank() | (t4.size() << 8) | (t4.meta_group_rank() << 16)
              | (t4.meta_group_size() << 24);
        o[12] = cg::reduce(t4, v, cg::greater<int>());
        // labeled and binary partitions of it
        cg::coalesced_group lp = cg::labeled_partition(g, v % 5);
        o[13] = lp.thread_rank() | (lp.size() << 8);
        o[14] = cg::reduce(lp, v, cg::plus<int>());
        cg::coalesced_group bp = cg::binary_partition(g, v & 4);
        o[15] = bp.thread_rank() | (bp.size() << 8);
        o[16] = bp.ballot(v & 8);
        o[17] = cg::reduce(bp, (unsigned)v, cg::bit_or<unsigned>());
        if (v & 16) {
            cg::coalesced_group inner = cg::coalesced_threads();
            o[18] = inner.thread_rank() | (inner.size() << 8);
            o[19] = inner.shfl(v, inner.size() / 2);
        }
    } else {
        cg::coalesced_group g = cg::coalesced_threads();
        o[0] = g.thread_rank() | (g.size() << 8);
        o[20] = cg::reduce(g, v, cg::less<int>());
    }
    // labeled and binary partitions of a whole tile
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
    cg::coalesced_group lw = cg::labeled_partition(w, (unsigned)v % 7u);
    o[21] = lw.thread_rank() | (lw.size() << 8);
    o[22] = cg::reduce(lw, v, cg::plus<int>());
    cg::thread_block_tile<32> w2 = cg::tiled_partition<32>(cg::this_thread_block());
    cg::coalesced_group bw = cg::binary_partition(w2, v > 500);
    o[23] = bw.thread_rank() | (bw.size() << 8);
    o[24] = cg::exclusive_scan(bw, v);
    // invoke_one: one thread of the group runs the function
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cg::this_thread_block());
    __shared__ int counter[THREADS / 16];
    if (t16.thread_rank() == 0) counter[t16.meta_group_rank()] = 0;
    t16.sync();
    cg::invoke_one(t16, [&] { counter[t16.meta_group_rank()] += 1 + (int)t16.meta_group_rank(); });
    t16.sync();
    o[25] = counter[t16.meta_group_rank()];
    int got = cg::invoke_one_broadcast(t16, [&] { return v * 2 + 1; });
    o[26] = got;
    if (v & 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        int b = cg::invoke_one_broadcast(odd, [&] { return (int)odd.thread_rank() + v; });
        o[27] = b;
    }
}

// cg::memcpy_async into shared memory in two stages, wait_prior then wait.
__global__ void memcpyKernel(const int *in, unsigned *out, int n)
{
    extern __shared__ int sm[];
    cg::thread_block block = cg::this_thread_block();
    int *a = sm, *b = sm + n;
    const int *src = in + blockIdx.x * 2 * n;
    cg::memcpy_async(block, a, src, sizeof(int) * n);
    cg::memcpy_async(block, b, src + n, cuda::aligned_size_t<16>(sizeof(int) * n));
    cg::wait_prior<1>(block);   // the first copy is complete
    int s1 = 0;
    for (int i = block.thread_rank(); i < n; i += block.size()) s1 += a[i] * (i + 1);
    cg::wait(block);
    int s2 = 0;
    for (int i = block.thread_rank(); i < n; i += block.size()) s2 += b[i] ^ i;
    // tile-level copy back of a slice
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(block);
    __shared__ int c[64];
    int *cw = c + w.meta_group_rank() * 16;   // each warp its own slice
    cg::memcpy_async(w, cw, src + w.meta_group_rank() * 7, sizeof(int) * 10);
    cg::wait(w);
    int s3 = w.shfl(cw[w.thread_rank() % 10], 3);
    unsigned *o = out + (blockIdx.x * block.size() + block.thread_rank()) * 4;
    o[0] = cg::reduce(w, s1, cg::plus<int>());
    o[1] = cg::reduce(w, s2, cg::plus<int>());
    o[2] = s3;
    o[3] = cw[w.thread_rank() % 10];
}

// grid_group::sync between phases in a cooperative launch.
__global__ void gridKernel(unsigned *buf, unsigned *out, int rounds)
{
    cg::grid_group grid = cg::this_grid();
    unsigned n = grid.size();
    unsigned r = grid.thread_rank();
    buf[r] = r * 7 + 1;
    for (int k = 0; k < rounds; k++) {
        grid.sync();
        unsigned left = buf[(r + n - 1 - k) % n];
        unsigned right = buf[(r + 3 * k + 1) % n];
        grid.sync();
        buf[r] = left * 3 + right + k;
    }
    grid.sync();
    if (r == 0) {
        unsigned h = 0;
        for (unsigned i = 0; i < n; i++) h = h * 31 + buf[i];
        out[0] = h;
        out[1] = n | (grid.num_blocks() << 16);
        out[2] = grid.block_rank() | (grid.is_valid() << 8);
        out[3] = grid.dim_blocks().x | (grid.block_index().x << 16);
    }
}

template <unsigned N> static void runTile(unsigned *d, unsigned *h, int seed)
{
    CHECK(cudaMemset(d, 0, THREADS * SLOTS * 4));
    tileKernel<N><<<1, THREADS>>>(d, seed);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, THREADS * SLOTS * 4, cudaMemcpyDeviceToHost));
    char name[32];
    snprintf(name, sizeof name, "tile<%u>", N);
    show(name, h, THREADS * SLOTS, 0);
    // per-op hashes across all threads, so a difference names the op
    unsigned col[THREADS];
    printf("  ops:");
    for (int k = 0; k < SLOTS; k++) {
        for (int i = 0; i < THREADS; i++) col[i] = h[i * SLOTS + k];
        printf(" %04x", (unsigned)(hashWords(col, THREADS) & 0xffff));
    }
    printf("\n");
}

int main()
{
    unsigned *d, *h = (unsigned *)malloc(THREADS * SLOTS * 8 * 4);
    CHECK(cudaMalloc(&d, THREADS * SLOTS * 8 * 4));
    runTile<1>(d, h, 0x1234);
    runTile<2>(d, h, 0x2345);
    runTile<4>(d, h, 0x3456);
    runTile<8>(d, h, 0x4567);
    runTile<16>(d, h, 0x5678);
    runTile<32>(d, h, 0x6789);

    int hin[THREADS * 16];
    for (int i = 0; i < THREADS * 16; i++) hin[i] = (i * 7919 + 13) % 1000;
    int *din;
    CHECK(cudaMalloc(&din, sizeof hin));
    CHECK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));

    coalescedKernel<<<1, THREADS>>>(din, d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, THREADS * SLOTS * 4, cudaMemcpyDeviceToHost));
    show("coalesced", h, THREADS * SLOTS, 0);
    {
        unsigned col[THREADS];
        printf("  ops:");
        for (int k = 0; k < 28; k++) {
            for (int i = 0; i < THREADS; i++) col[i] = h[i * SLOTS + k];
            printf(" %04x", (unsigned)(hashWords(col, THREADS) & 0xffff));
        }
        printf("\n");
    }
    printf("  thread 5:");
    for (int k = 0; k < 28; k++) printf(" %x", h[5 * SLOTS + k]);
    printf("\n");

    int n = 256;
    memcpyKernel<<<3, THREADS, 2 * n * sizeof(int)>>>(din, d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, 3 * THREADS * 16, cudaMemcpyDeviceToHost));
    show("memcpy_async", h, 3 * THREADS * 4, 8);

    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
    printf("cooperative launch %d\n", supported);
    unsigned *dbuf;
    CHECK(cudaMalloc(&dbuf, 8 * 64 * 4));
    int rounds = 5;
    void *args[] = { &dbuf, &d, &rounds };
    CHECK(cudaLaunchCooperativeKernel((void *)gridKernel, dim3(8), dim3(64), args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost));
    printf("grid sync %08x %08x %08x %08x\n", h[0], h[1], h[2], h[3]);
    fflush(stdout);

    CHECK(cudaFree(dbuf));
    CHECK(cudaFree(din));
    CHECK(cudaFree(d));
    free(h);
    printf("done\n");
    return 0;
}
