// Warp-level primitives in the algorithms that use them: a histogram whose lanes holding
// the same key are found with __match_any_sync and add once (the leader adds the group's
// count), a warp reduction with __reduce_add/min/max_sync, __activemask under divergence,
// and stream compaction with __ballot_sync and __popc.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void histMatch(const int *keys, int n, unsigned *bins, unsigned *atomicsDone)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned active = __ballot_sync(0xffffffffu, i < n);
    if (i >= n) return;
    int k = keys[i];
    unsigned peers = __match_any_sync(active, k);
    int leader = __ffs(peers) - 1;
    if ((int)(threadIdx.x & 31) == leader) {
        atomicAdd(&bins[k], __popc(peers));
        atomicAdd(atomicsDone, 1u);
    }
}

__global__ void warpStats(const int *v, int n, int *sums, unsigned *mins, unsigned *maxs,
                          unsigned *masks)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int w = i / 32;
    unsigned x = i < n ? (unsigned)v[i] : 0u;
    int s = __reduce_add_sync(0xffffffffu, (int)x);
    unsigned mn = __reduce_min_sync(0xffffffffu, x);
    unsigned mx = __reduce_max_sync(0xffffffffu, x);
    unsigned m = 0;
    if (x % 3 == 0) m = __activemask();
    else if (x % 3 == 1) m = __activemask() | 0x80000000u;
    m = __reduce_or_sync(0xffffffffu, m);
    if ((threadIdx.x & 31) == 0) { sums[w] = s; mins[w] = mn; maxs[w] = mx; masks[w] = m; }
}

__global__ void compact(const int *in, int n, int *out, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool keep = i < n && (in[i] & 1);
    unsigned b = __ballot_sync(0xffffffffu, keep);
    int base = 0;
    if (lane == 0 && b) base = atomicAdd(count, __popc(b));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) out[base + __popc(b & ((1u << lane) - 1))] = in[i];
}

int main()
{
    const int n = 100000, nbins = 16;
    int *h = (int *)malloc(n * sizeof(int));
    unsigned seed = 12345;
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        h[i] = (i / 7) % 3 == 0 ? 5 : (int)((seed >> 16) % nbins);
    }
    int *dk; unsigned *db, *dat;
    CK(cudaMalloc(&dk, n * sizeof(int)));
    CK(cudaMalloc(&db, nbins * sizeof(unsigned)));
    CK(cudaMalloc(&dat, sizeof(unsigned)));
    CK(cudaMemcpy(dk, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(db, 0, nbins * sizeof(unsigned)));
    CK(cudaMemset(dat, 0, sizeof(unsigned)));
    histMatch<<<(n + 255) / 256, 256>>>(dk, n, db, dat);
    CK(cudaGetLastError());
    unsigned bins[nbins], at, ref[nbins] = {};
    CK(cudaMemcpy(bins, db, sizeof bins, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&at, dat, sizeof at, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) ref[h[i]]++;
    int ok = 1;
    for (int b = 0; b < nbins; b++) { printf("bin %2d: %u\n", b, bins[b]); ok &= bins[b] == ref[b]; }
    // leaders per warp = distinct keys per warp: computed on the host too
    unsigned leaders = 0;
    for (int w = 0; w < (n + 31) / 32; w++) {
        unsigned seen = 0;
        for (int l = 0; l < 32 && w * 32 + l < n; l++) seen |= 1u << h[w * 32 + l];
        leaders += __builtin_popcount(seen);
    }
    printf("atomics issued %u (host count %u)\n", at, leaders);
    ok &= at == leaders;

    const int m = 1000;
    int *dv, *ds, nw = (m + 31) / 32;
    unsigned *dmn, *dmx, *dms;
    int hv[m];
    for (int i = 0; i < m; i++) hv[i] = (i * 37) % 101;
    CK(cudaMalloc(&dv, m * sizeof(int)));
    CK(cudaMalloc(&ds, nw * sizeof(int)));
    CK(cudaMalloc(&dmn, nw * sizeof(unsigned)));
    CK(cudaMalloc(&dmx, nw * sizeof(unsigned)));
    CK(cudaMalloc(&dms, nw * sizeof(unsigned)));
    CK(cudaMemcpy(dv, hv, sizeof hv, cudaMemcpyHostToDevice));
    warpStats<<<(m + 127) / 128, 128>>>(dv, m, ds, dmn, dmx, dms);
    CK(cudaGetLastError());
    int hs[64]; unsigned hmn[64], hmx[64], hms[64];
    CK(cudaMemcpy(hs, ds, nw * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hmn, dmn, nw * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hmx, dmx, nw * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hms, dms, nw * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int w = 0; w < nw; w += 4)
        printf("warp %2d: sum=%d min=%u max=%u masks=%08x\n", w, hs[w], hmn[w], hmx[w], hms[w]);

    int *dout, *dcnt, cnt = 0;
    CK(cudaMalloc(&dout, n * sizeof(int)));
    CK(cudaMalloc(&dcnt, sizeof(int)));
    CK(cudaMemset(dcnt, 0, sizeof(int)));
    compact<<<(n + 255) / 256, 256>>>(dk, n, dout, dcnt);
    CK(cudaMemcpy(&cnt, dcnt, sizeof cnt, cudaMemcpyDeviceToHost));
    int *hout = (int *)malloc(cnt * sizeof(int));
    CK(cudaMemcpy(hout, dout, cnt * sizeof(int), cudaMemcpyDeviceToHost));
    long long sumKept = 0, sumRef = 0; int refCnt = 0;
    for (int i = 0; i < cnt; i++) sumKept += hout[i];
    for (int i = 0; i < n; i++) if (h[i] & 1) { refCnt++; sumRef += h[i]; }
    printf("compacted %d odd keys (host %d), sum %lld (host %lld)\n", cnt, refCnt, sumKept, sumRef);
    ok &= cnt == refCnt && sumKept == sumRef;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return !ok;
}
