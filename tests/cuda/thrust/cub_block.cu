/* cub_block.cu — CUB's block- and warp-level collectives inside hand-written kernels:
 * BlockLoad / BlockStore with each algorithm (direct, striped, vectorized, transpose, warp
 * transpose, time-sliced warp transpose) and partial tiles, BlockReduce (raking,
 * commutative raking, warp reductions; full and partial tiles), BlockScan (raking,
 * memoized raking, warp scans; exclusive, inclusive, aggregates, a running prefix),
 * BlockRadixSort (keys and pairs, ascending, descending, bit ranges, blocked-to-striped),
 * BlockDiscontinuity, BlockHistogram, WarpReduce and WarpScan (full and 8-lane logical warps,
 * segmented reductions). Each result is compared with the host's and printed as a hash plus
 * a few elements. */
#include "thrust_test.h"
#include <algorithm>
#include <numeric>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

struct max_op {
    __host__ __device__ int operator()(int a, int b) const { return a < b ? b : a; }
};
struct not_equal {
    __host__ __device__ bool operator()(unsigned char a, unsigned char b) const { return a != b; }
};

static const int THREADS = 128, ITEMS = 4, TILE = THREADS * ITEMS;

template <class T> static T *to_dev(const std::vector<T> &h) {
    T *d;
    CK(cudaMalloc(&d, (h.size() + 1) * sizeof(T)));
    if (!h.empty()) CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <class T> static std::vector<T> from_dev(const T *d, size_t n) {
    std::vector<T> h(n);
    CK(cudaDeviceSynchronize());
    if (n) CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}
static std::vector<int> rand_ints(size_t n, uint64_t seed, int mod) {
    tt_rng r(seed);
    std::vector<int> v(n);
    for (auto &x : v) x = (int)(r.next() % (uint64_t)(2 * mod)) - mod;
    return v;
}

/* ---- BlockLoad / BlockStore: out = 3 * in + block, the last tile partial ---- */
template <cub::BlockLoadAlgorithm L, cub::BlockStoreAlgorithm S>
__global__ void load_store(const int *in, int *out, int n) {
    typedef cub::BlockLoad<int, THREADS, ITEMS, L> Load;
    typedef cub::BlockStore<int, THREADS, ITEMS, S> Store;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } tmp;
    int items[ITEMS];
    int base = blockIdx.x * TILE;
    int valid = min(TILE, n - base);
    if (valid == TILE) Load(tmp.load).Load(in + base, items);
    else Load(tmp.load).Load(in + base, items, valid, -7);
    __syncthreads();
    for (int i = 0; i < ITEMS; i++) items[i] = 3 * items[i] + blockIdx.x;
    if (valid == TILE) Store(tmp.store).Store(out + base, items);
    else Store(tmp.store).Store(out + base, items, valid);
}

template <cub::BlockLoadAlgorithm L, cub::BlockStoreAlgorithm S> static void run_load_store(const char *name) {
    const int n = 5 * TILE + 200;
    std::vector<int> h = rand_ints(n, 1, 1000), w(n);
    for (int i = 0; i < n; i++) w[i] = 3 * h[i] + i / TILE;
    int *din = to_dev(h), *dout;
    CK(cudaMalloc(&dout, n * 4));
    load_store<L, S><<<(n + TILE - 1) / TILE, THREADS>>>(din, dout, n);
    CK(cudaGetLastError());
    tt_report(name, from_dev(dout, n), w);
    CK(cudaFree(din)); CK(cudaFree(dout));
}

/* ---- BlockReduce: per block sum of a full tile, max of a partial one ---- */
template <cub::BlockReduceAlgorithm A> __global__ void block_reduce(const int *in, int *sums, int *maxes) {
    typedef cub::BlockReduce<int, THREADS, A> R;
    __shared__ typename R::TempStorage tmp;
    int items[ITEMS];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * TILE, items);
    int s = R(tmp).Sum(items);
    if (threadIdx.x == 0) sums[blockIdx.x] = s;
    __syncthreads();
    int valid = 1 + blockIdx.x * 29 % THREADS;
    int m = R(tmp).Reduce(items[0], max_op(), valid);
    if (threadIdx.x == 0) maxes[blockIdx.x] = m;
}

template <cub::BlockReduceAlgorithm A> static void run_block_reduce(const char *name) {
    const int blocks = 6, n = blocks * TILE;
    std::vector<int> h = rand_ints(n, 2, 100000), ws(blocks), wm(blocks);
    for (int b = 0; b < blocks; b++) {
        ws[b] = std::accumulate(h.begin() + b * TILE, h.begin() + (b + 1) * TILE, 0);
        int valid = 1 + b * 29 % THREADS;
        wm[b] = INT32_MIN;
        for (int t = 0; t < valid; t++) wm[b] = std::max(wm[b], h[b * TILE + t * ITEMS]);
    }
    int *din = to_dev(h), *ds, *dm;
    CK(cudaMalloc(&ds, blocks * 4)); CK(cudaMalloc(&dm, blocks * 4));
    block_reduce<A><<<blocks, THREADS>>>(din, ds, dm);
    CK(cudaGetLastError());
    char label[96];
    snprintf(label, sizeof label, "%s.sum", name);
    tt_report(label, from_dev(ds, blocks), ws);
    snprintf(label, sizeof label, "%s.max_partial", name);
    tt_report(label, from_dev(dm, blocks), wm);
    CK(cudaFree(din)); CK(cudaFree(ds)); CK(cudaFree(dm));
}

/* ---- BlockScan: exclusive sum with aggregate, inclusive max, a running prefix over tiles ---- */
struct running_prefix {
    int total;
    __device__ int operator()(int aggregate) {
        int old = total;
        total += aggregate;
        return old;
    }
};

template <cub::BlockScanAlgorithm A>
__global__ void block_scan(const int *in, int *ex, int *inc, int *agg, int *run, int tiles) {
    typedef cub::BlockScan<int, THREADS, A> S;
    __shared__ typename S::TempStorage tmp;
    int items[ITEMS], out[ITEMS];
    const int *tile = in + blockIdx.x * TILE;
    cub::LoadDirectBlocked(threadIdx.x, tile, items);
    int aggregate;
    S(tmp).ExclusiveSum(items, out, aggregate);
    cub::StoreDirectBlocked(threadIdx.x, ex + blockIdx.x * TILE, out);
    if (threadIdx.x == 0) agg[blockIdx.x] = aggregate;
    __syncthreads();
    S(tmp).InclusiveScan(items, out, max_op());
    cub::StoreDirectBlocked(threadIdx.x, inc + blockIdx.x * TILE, out);
    __syncthreads();
    if (blockIdx.x == 0) {
        /* one block scans every tile, carrying the prefix from tile to tile */
        running_prefix p{0};
        for (int t = 0; t < tiles; t++) {
            int v[ITEMS];
            cub::LoadDirectStriped<THREADS>(threadIdx.x, in + t * TILE, v);
            int o[ITEMS];
            for (int i = 0; i < ITEMS; i++) {
                S(tmp).InclusiveSum(v[i], o[i], p);
                __syncthreads();
            }
            cub::StoreDirectStriped<THREADS>(threadIdx.x, run + t * TILE, o);
        }
    }
}

template <cub::BlockScanAlgorithm A> static void run_block_scan(const char *name) {
    const int blocks = 5, n = blocks * TILE;
    std::vector<int> h = rand_ints(n, 3, 1000), wex(n), winc(n), wagg(blocks), wrun(n);
    for (int b = 0; b < blocks; b++) {
        int s = 0, m = INT32_MIN;
        for (int i = b * TILE; i < (b + 1) * TILE; i++) {
            wex[i] = s;
            s += h[i];
            m = std::max(m, h[i]);
            winc[i] = m;
        }
        wagg[b] = s;
    }
    /* the running scan goes through each tile in striped rounds: element i of round r of
     * thread t is tile[r * THREADS + t], so the scan order is plain index order */
    std::partial_sum(h.begin(), h.end(), wrun.begin());
    int *din = to_dev(h), *dex, *dinc, *dagg, *drun;
    CK(cudaMalloc(&dex, n * 4)); CK(cudaMalloc(&dinc, n * 4));
    CK(cudaMalloc(&dagg, blocks * 4)); CK(cudaMalloc(&drun, n * 4));
    block_scan<A><<<blocks, THREADS>>>(din, dex, dinc, dagg, drun, blocks);
    CK(cudaGetLastError());
    char label[96];
    snprintf(label, sizeof label, "%s.exclusive_sum", name);
    tt_report(label, from_dev(dex, n), wex);
    snprintf(label, sizeof label, "%s.inclusive_max", name);
    tt_report(label, from_dev(dinc, n), winc);
    snprintf(label, sizeof label, "%s.aggregates", name);
    tt_report(label, from_dev(dagg, blocks), wagg);
    snprintf(label, sizeof label, "%s.running_prefix", name);
    tt_report(label, from_dev(drun, n), wrun);
    CK(cudaFree(din)); CK(cudaFree(dex)); CK(cudaFree(dinc)); CK(cudaFree(dagg)); CK(cudaFree(drun));
}

/* ---- BlockRadixSort ---- */
__global__ void block_radix(const unsigned *keys, const int *vals, unsigned *ok, int *ov, unsigned *od,
                            unsigned *obits, unsigned *ostriped) {
    typedef cub::BlockRadixSort<unsigned, THREADS, ITEMS, int> Sort;
    typedef cub::BlockRadixSort<unsigned, THREADS, ITEMS> SortK;
    __shared__ union {
        typename Sort::TempStorage pairs;
        typename SortK::TempStorage keys;
    } tmp;
    int base = blockIdx.x * TILE;
    unsigned k[ITEMS];
    int v[ITEMS];
    cub::LoadDirectBlocked(threadIdx.x, keys + base, k);
    cub::LoadDirectBlocked(threadIdx.x, vals + base, v);
    Sort(tmp.pairs).Sort(k, v);
    cub::StoreDirectBlocked(threadIdx.x, ok + base, k);
    cub::StoreDirectBlocked(threadIdx.x, ov + base, v);
    __syncthreads();
    cub::LoadDirectBlocked(threadIdx.x, keys + base, k);
    SortK(tmp.keys).SortDescending(k);
    cub::StoreDirectBlocked(threadIdx.x, od + base, k);
    __syncthreads();
    cub::LoadDirectBlocked(threadIdx.x, keys + base, k);
    SortK(tmp.keys).Sort(k, 8, 24);
    cub::StoreDirectBlocked(threadIdx.x, obits + base, k);
    __syncthreads();
    cub::LoadDirectBlocked(threadIdx.x, keys + base, k);
    SortK(tmp.keys).SortBlockedToStriped(k);
    cub::StoreDirectStriped<THREADS>(threadIdx.x, ostriped + base, k);
}

static void run_block_radix(void) {
    const int blocks = 4, n = blocks * TILE;
    tt_rng r(4);
    std::vector<unsigned> k(n);
    std::vector<int> v(n);
    for (int i = 0; i < n; i++) { k[i] = (unsigned)r.next() % 5000u * 104729u; v[i] = i; }
    std::vector<unsigned> wk(n), wd(n), wb(n);
    std::vector<int> wv(n);
    for (int b = 0; b < blocks; b++) {
        std::vector<int> o(TILE);
        std::iota(o.begin(), o.end(), b * TILE);
        std::stable_sort(o.begin(), o.end(), [&](int x, int y) { return k[x] < k[y]; });
        for (int i = 0; i < TILE; i++) { wk[b * TILE + i] = k[o[i]]; wv[b * TILE + i] = v[o[i]]; }
        std::vector<unsigned> d(k.begin() + b * TILE, k.begin() + (b + 1) * TILE);
        std::stable_sort(d.begin(), d.end(), std::greater<unsigned>());
        std::copy(d.begin(), d.end(), wd.begin() + b * TILE);
        std::vector<unsigned> e(k.begin() + b * TILE, k.begin() + (b + 1) * TILE);
        std::stable_sort(e.begin(), e.end(), [](unsigned x, unsigned y) { return ((x >> 8) & 0xffff) < ((y >> 8) & 0xffff); });
        std::copy(e.begin(), e.end(), wb.begin() + b * TILE);
    }
    unsigned *dk = to_dev(k), *ok, *od, *obits, *ost;
    int *dv = to_dev(v), *ov;
    CK(cudaMalloc(&ok, n * 4)); CK(cudaMalloc(&ov, n * 4)); CK(cudaMalloc(&od, n * 4));
    CK(cudaMalloc(&obits, n * 4)); CK(cudaMalloc(&ost, n * 4));
    block_radix<<<blocks, THREADS>>>(dk, dv, ok, ov, od, obits, ost);
    CK(cudaGetLastError());
    tt_report("BlockRadixSort.pairs.keys", from_dev(ok, n), wk);
    tt_report("BlockRadixSort.pairs.values", from_dev(ov, n), wv);
    tt_report("BlockRadixSort.descending", from_dev(od, n), wd);
    tt_report("BlockRadixSort.bits8-24", from_dev(obits, n), wb);
    tt_report("BlockRadixSort.blocked_to_striped", from_dev(ost, n), wk);
    CK(cudaFree(dk)); CK(cudaFree(dv)); CK(cudaFree(ok)); CK(cudaFree(ov)); CK(cudaFree(od));
    CK(cudaFree(obits)); CK(cudaFree(ost));
}

/* ---- BlockDiscontinuity and BlockHistogram ---- */
__global__ void block_misc(const unsigned char *in, int *heads, unsigned *hist) {
    typedef cub::BlockDiscontinuity<unsigned char, THREADS> D;
    typedef cub::BlockHistogram<unsigned char, THREADS, ITEMS, 64> H;
    __shared__ typename D::TempStorage dtmp;
    __shared__ typename H::TempStorage htmp;
    __shared__ unsigned smem_hist[64];
    unsigned char items[ITEMS];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * TILE, items);
    int flags[ITEMS];
    D(dtmp).FlagHeads(flags, items, not_equal());
    cub::StoreDirectBlocked(threadIdx.x, heads + blockIdx.x * TILE, flags);
    H(htmp).Histogram(items, smem_hist);
    __syncthreads();
    for (int i = threadIdx.x; i < 64; i += THREADS) atomicAdd(&hist[i], smem_hist[i]);
}

static void run_block_misc(void) {
    const int blocks = 3, n = blocks * TILE;
    std::vector<unsigned char> h(n);
    tt_rng r(5);
    for (int i = 0; i < n; i++) h[i] = (unsigned char)((i / 3 + (int)(r.next() % 2)) % 64);
    std::vector<int> wh(n);
    std::vector<unsigned> whist(64, 0);
    for (int i = 0; i < n; i++) {
        wh[i] = (i % TILE == 0) || h[i] != h[i - 1];
        whist[h[i]]++;
    }
    unsigned char *din = to_dev(h);
    int *dh;
    unsigned *dhist;
    CK(cudaMalloc(&dh, n * 4));
    CK(cudaMalloc(&dhist, 64 * 4));
    CK(cudaMemset(dhist, 0, 64 * 4));
    block_misc<<<blocks, THREADS>>>(din, dh, dhist);
    CK(cudaGetLastError());
    tt_report("BlockDiscontinuity.FlagHeads", from_dev(dh, n), wh);
    tt_report("BlockHistogram", from_dev(dhist, 64), whist);
    CK(cudaFree(din)); CK(cudaFree(dh)); CK(cudaFree(dhist));
}

/* ---- WarpReduce and WarpScan, 32-lane and 8-lane logical warps ---- */
template <int LANES> __global__ void warp_ops(const int *in, int *sum, int *mx, int *seg, int *isum, int *exmax) {
    typedef cub::WarpReduce<int, LANES> WR;
    typedef cub::WarpScan<int, LANES> WS;
    const int warps = THREADS / LANES;
    __shared__ typename WR::TempStorage rtmp[warps];
    __shared__ typename WS::TempStorage stmp[warps];
    int gid = blockIdx.x * THREADS + threadIdx.x;
    int w = threadIdx.x / LANES, lane = threadIdx.x % LANES;
    int x = in[gid];
    int s = WR(rtmp[w]).Sum(x);
    if (lane == 0) sum[gid / LANES] = s;
    int m = WR(rtmp[w]).Reduce(x, max_op(), LANES - 1);
    if (lane == 0) mx[gid / LANES] = m;
    int head = lane % 5 == 0;
    int sg = WR(rtmp[w]).HeadSegmentedSum(x, head);
    if (head) seg[gid] = sg;
    else seg[gid] = 0;
    int is;
    WS(stmp[w]).InclusiveSum(x, is);
    isum[gid] = is;
    int em;
    WS(stmp[w]).ExclusiveScan(x, em, INT32_MIN, max_op());
    exmax[gid] = em;
}

template <int LANES> static void run_warp(const char *name) {
    const int blocks = 3, n = blocks * THREADS, groups = n / LANES;
    std::vector<int> h = rand_ints(n, 6 + LANES, 500), ws(groups), wm(groups), wseg(n, 0), wis(n), wem(n);
    for (int g = 0; g < groups; g++) {
        int s = 0, m = INT32_MIN;
        for (int l = 0; l < LANES; l++) {
            int x = h[g * LANES + l];
            wem[g * LANES + l] = m;
            s += x;
            wis[g * LANES + l] = s;
            if (l < LANES - 1) m = std::max(m, x);
            else wem[g * LANES + l] = m;
        }
        /* exclusive max over every lane: recompute without the valid-items limit */
        int e = INT32_MIN;
        for (int l = 0; l < LANES; l++) { wem[g * LANES + l] = e; e = std::max(e, h[g * LANES + l]); }
        ws[g] = s;
        wm[g] = m;
        for (int l = 0; l < LANES; l += 5) {
            int t = 0;
            for (int j = l; j < std::min(l + 5, LANES); j++) t += h[g * LANES + j];
            wseg[g * LANES + l] = t;
        }
    }
    int *din = to_dev(h), *ds, *dm, *dseg, *dis, *dem;
    CK(cudaMalloc(&ds, groups * 4)); CK(cudaMalloc(&dm, groups * 4)); CK(cudaMalloc(&dseg, n * 4));
    CK(cudaMalloc(&dis, n * 4)); CK(cudaMalloc(&dem, n * 4));
    warp_ops<LANES><<<blocks, THREADS>>>(din, ds, dm, dseg, dis, dem);
    CK(cudaGetLastError());
    char label[96];
    snprintf(label, sizeof label, "%s.sum", name);
    tt_report(label, from_dev(ds, groups), ws);
    snprintf(label, sizeof label, "%s.max_partial", name);
    tt_report(label, from_dev(dm, groups), wm);
    snprintf(label, sizeof label, "%s.head_segmented_sum", name);
    /* only the segment heads (lane 0 of each segment) hold the segment's sum */
    tt_report(label, from_dev(dseg, n), wseg);
    snprintf(label, sizeof label, "%s.inclusive_sum", name);
    tt_report(label, from_dev(dis, n), wis);
    snprintf(label, sizeof label, "%s.exclusive_max", name);
    tt_report(label, from_dev(dem, n), wem);
    CK(cudaFree(din)); CK(cudaFree(ds)); CK(cudaFree(dm)); CK(cudaFree(dseg)); CK(cudaFree(dis)); CK(cudaFree(dem));
}

int main() {
    run_load_store<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>("BlockLoadStore.direct");
    run_load_store<cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>("BlockLoadStore.striped");
    run_load_store<cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>("BlockLoadStore.vectorize");
    run_load_store<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>("BlockLoadStore.transpose");
    run_load_store<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>("BlockLoadStore.warp_transpose");
    run_load_store<cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>(
        "BlockLoadStore.warp_transpose_timesliced");
    run_load_store<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_DIRECT>("BlockLoadStore.transpose_direct");
    run_block_reduce<cub::BLOCK_REDUCE_RAKING>("BlockReduce.raking");
    run_block_reduce<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>("BlockReduce.raking_commutative");
    run_block_reduce<cub::BLOCK_REDUCE_WARP_REDUCTIONS>("BlockReduce.warp_reductions");
    run_block_scan<cub::BLOCK_SCAN_RAKING>("BlockScan.raking");
    run_block_scan<cub::BLOCK_SCAN_RAKING_MEMOIZE>("BlockScan.raking_memoize");
    run_block_scan<cub::BLOCK_SCAN_WARP_SCANS>("BlockScan.warp_scans");
    run_block_radix();
    run_block_misc();
    run_warp<32>("WarpReduceScan.32");
    run_warp<8>("WarpReduceScan.8");
    return tt_finish();
}
