// CUB as library code calls it: the two-phase temporary storage protocol of DeviceReduce
// (Sum, Max, ArgMin), DeviceScan::ExclusiveSum, DeviceRadixSort::SortPairs (descending and
// a bit range), DeviceSelect::Flagged, DeviceHistogram::HistogramEven and
// DeviceSegmentedReduce::Sum, and BlockLoad/BlockRadixSort/BlockScan/WarpReduce in a kernel.
// no-jit-twin: compiling the generated C of every CUB kernel instance takes minutes
#include <cstdio>
#include <cstdlib>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

template <int BT, int IPT>
__global__ void blockWork(const int *in, int *sortedOut, int *scanOut, int *warpSums)
{
    using Load = cub::BlockLoad<int, BT, IPT, cub::BLOCK_LOAD_TRANSPOSE>;
    using Sort = cub::BlockRadixSort<int, BT, IPT>;
    using Scan = cub::BlockScan<int, BT>;
    using WR = cub::WarpReduce<int>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Sort::TempStorage sort;
        typename Scan::TempStorage scan;
    } tmp;
    __shared__ typename WR::TempStorage wtmp[BT / 32];
    int items[IPT];
    Load(tmp.load).Load(in + blockIdx.x * BT * IPT, items);
    __syncthreads();
    Sort(tmp.sort).Sort(items);
    __syncthreads();
    for (int i = 0; i < IPT; i++) sortedOut[blockIdx.x * BT * IPT + threadIdx.x * IPT + i] = items[i];
    int agg;
    Scan(tmp.scan).ExclusiveSum(items, items, agg);
    for (int i = 0; i < IPT; i++) scanOut[blockIdx.x * BT * IPT + threadIdx.x * IPT + i] = items[i];
    int ws = WR(wtmp[threadIdx.x / 32]).Sum(items[0]);
    if (threadIdx.x % 32 == 0) warpSums[blockIdx.x * (BT / 32) + threadIdx.x / 32] = ws;
}

int main()
{
    const int n = 1 << 16;
    int *h = (int *)malloc(n * 4);
    unsigned s = 1;
    for (int i = 0; i < n; i++) { s = s * 22695477u + 1u; h[i] = (int)((s >> 9) % 100000) - 30000; }
    int *d, *out, *keys2, *vals, *vals2;
    CK(cudaMalloc(&d, n * 4)); CK(cudaMalloc(&out, n * 4)); CK(cudaMalloc(&keys2, n * 4));
    CK(cudaMalloc(&vals, n * 4)); CK(cudaMalloc(&vals2, n * 4));
    CK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
    long long *dsum, hsum;
    int *dmax, hmax;
    cub::KeyValuePair<int, int> *darg, harg;
    CK(cudaMalloc(&dsum, 8)); CK(cudaMalloc(&dmax, 4)); CK(cudaMalloc(&darg, sizeof harg));

    void *tmp = nullptr;
    size_t bytes = 0;
    CK(cub::DeviceReduce::Sum(tmp, bytes, d, dmax, n));
    size_t sumBytes = bytes;
    CK(cudaMalloc(&tmp, 1 << 22));
    CK(cub::DeviceReduce::Sum(tmp, sumBytes, d, dmax, n));
    CK(cudaMemcpy(&hmax, dmax, 4, cudaMemcpyDeviceToHost));
    printf("DeviceReduce::Sum (int): %d\n", hmax);
    bytes = 1 << 22;
    CK(cub::DeviceReduce::Max(tmp, bytes, d, dmax, n));
    CK(cudaMemcpy(&hmax, dmax, 4, cudaMemcpyDeviceToHost));
    bytes = 1 << 22;
    CK(cub::DeviceReduce::ArgMin(tmp, bytes, d, darg, n));
    CK(cudaMemcpy(&harg, darg, sizeof harg, cudaMemcpyDeviceToHost));
    printf("max %d, argmin value %d at %d\n", hmax, harg.value, harg.key);
    (void)dsum; (void)hsum;

    bytes = 1 << 22;
    CK(cub::DeviceScan::ExclusiveSum(tmp, bytes, d, out, n));
    int hs[4];
    CK(cudaMemcpy(hs, out + n - 4, 16, cudaMemcpyDeviceToHost));
    printf("exclusive sum tail: %d %d %d %d\n", hs[0], hs[1], hs[2], hs[3]);

    int *seq = (int *)malloc(n * 4);
    for (int i = 0; i < n; i++) seq[i] = i;
    CK(cudaMemcpy(vals, seq, n * 4, cudaMemcpyHostToDevice));
    bytes = 1 << 22;
    CK(cub::DeviceRadixSort::SortPairsDescending(tmp, bytes, d, keys2, vals, vals2, n));
    int top[3], topv[3];
    CK(cudaMemcpy(top, keys2, 12, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(topv, vals2, 12, cudaMemcpyDeviceToHost));
    printf("descending: %d(%d) %d(%d) %d(%d)\n", top[0], topv[0], top[1], topv[1], top[2], topv[2]);
    bytes = 1 << 22;
    // only bits 4..11 of the keys: a partial sort that keeps the order of equal digits
    CK(cub::DeviceRadixSort::SortPairs(tmp, bytes, d, keys2, vals, vals2, n, 4, 12));
    CK(cudaMemcpy(top, keys2, 12, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(topv, vals2, 12, cudaMemcpyDeviceToHost));
    printf("bits 4-11: %d(%d) %d(%d) %d(%d)\n", top[0], topv[0], top[1], topv[1], top[2], topv[2]);

    char *flags;
    int *nsel, hn;
    CK(cudaMalloc(&flags, n)); CK(cudaMalloc(&nsel, 4));
    char *hf = (char *)malloc(n);
    for (int i = 0; i < n; i++) hf[i] = (h[i] % 7) == 0;
    CK(cudaMemcpy(flags, hf, n, cudaMemcpyHostToDevice));
    bytes = 1 << 22;
    CK(cub::DeviceSelect::Flagged(tmp, bytes, d, flags, out, nsel, n));
    CK(cudaMemcpy(&hn, nsel, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hs, out, 16, cudaMemcpyDeviceToHost));
    printf("selected %d: %d %d %d %d\n", hn, hs[0], hs[1], hs[2], hs[3]);

    int *hist, hh[10];
    CK(cudaMalloc(&hist, 40));
    bytes = 1 << 22;
    CK(cub::DeviceHistogram::HistogramEven(tmp, bytes, d, hist, 11, -30000, 70000, n));
    CK(cudaMemcpy(hh, hist, 40, cudaMemcpyDeviceToHost));
    printf("histogram:");
    for (int i = 0; i < 10; i++) printf(" %d", hh[i]);
    printf("\n");

    int offs[5] = {0, 10, 10, 1000, n};
    int *doffs, segs[4];
    CK(cudaMalloc(&doffs, 20));
    CK(cudaMemcpy(doffs, offs, 20, cudaMemcpyHostToDevice));
    bytes = 1 << 22;
    CK(cub::DeviceSegmentedReduce::Sum(tmp, bytes, d, out, 4, doffs, doffs + 1));
    CK(cudaMemcpy(segs, out, 16, cudaMemcpyDeviceToHost));
    printf("segment sums: %d %d %d %d\n", segs[0], segs[1], segs[2], segs[3]);

    const int BT = 128, IPT = 4, blocks = 4;
    int *sorted, *scanned, *wsum;
    CK(cudaMalloc(&sorted, BT * IPT * blocks * 4)); CK(cudaMalloc(&scanned, BT * IPT * blocks * 4));
    CK(cudaMalloc(&wsum, blocks * BT / 32 * 4));
    blockWork<BT, IPT><<<blocks, BT>>>(d, sorted, scanned, wsum);
    CK(cudaGetLastError());
    int hb[BT * IPT * blocks], hsc[BT * IPT * blocks], hw[blocks * BT / 32];
    CK(cudaMemcpy(hb, sorted, sizeof hb, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hsc, scanned, sizeof hsc, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hw, wsum, sizeof hw, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        printf("block %d: min %d max %d scan[100] %d scan[511] %d warp sums %d %d %d %d\n", b, hb[b * 512],
               hb[b * 512 + 511], hsc[b * 512 + 100], hsc[b * 512 + 511], hw[b * 4], hw[b * 4 + 1], hw[b * 4 + 2],
               hw[b * 4 + 3]);
    return 0;
}
