// Warp votes and collectives: __ballot_sync, __any_sync, __all_sync, __activemask in
// divergent code, __popc of a ballot (warp-aggregated atomics), __match_any_sync,
// __match_all_sync, __reduce_{add,min,max}_sync (unsigned and signed), __reduce_{and,or,
// xor}_sync, %lanemask_lt read with inline PTX, and __syncwarp between warp-private
// shared-memory phases.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define FULL 0xffffffffu
#define NRES 16

__device__ unsigned lanemask_lt() { unsigned m; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m)); return m; }

__global__ void votes(const int *in, unsigned *out, int *aggCounter, int *aggSlots)
{
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    unsigned *o = out + threadIdx.x * NRES;
    o[0] = __ballot_sync(FULL, v > 0);
    o[1] = __any_sync(FULL, v == 42);
    o[2] = __all_sync(FULL, v > -100);
    o[3] = __all_sync(FULL, v > 0);
    o[4] = 0;
    if (lane % 3 == 0) o[4] = __activemask();       // the lanes taking this branch
    unsigned mask;
    o[5] = __match_any_sync(FULL, v & 3);
    o[6] = __match_all_sync(FULL, threadIdx.x >> 5, (int *)&mask);
    o[7] = mask ? 1 : 0;
    o[8] = __reduce_add_sync(FULL, (unsigned)(v + 100));
    o[9] = __reduce_min_sync(FULL, v);
    o[10] = __reduce_max_sync(FULL, (unsigned)v);    // unsigned comparison of negatives
    o[11] = __reduce_and_sync(FULL, (unsigned)v | 0x100u);
    o[12] = __reduce_or_sync(FULL, (unsigned)(v & 0xff));
    o[13] = __reduce_xor_sync(FULL, (unsigned)v);
    o[14] = lanemask_lt();
    // warp-aggregated atomic: one atomicAdd per warp for the lanes with v even
    if ((v & 1) == 0) {
        unsigned active = __activemask();
        int leader = __ffs(active) - 1;
        int base = 0;
        if (lane == leader) base = atomicAdd(aggCounter, __popc(active));
        base = __shfl_sync(active, base, leader);
        int rank = __popc(active & lanemask_lt());
        aggSlots[base + rank] = threadIdx.x;
        o[15] = rank;
    } else {
        o[15] = 99;
    }
}

// Warp-private phases separated by __syncwarp: each warp reverses its 32 values in shared
// memory in place, then rotates them.
__global__ void syncwarpPhases(int *data)
{
    __shared__ int s[128];
    int lane = threadIdx.x & 31, base = threadIdx.x & ~31;
    s[threadIdx.x] = data[threadIdx.x];
    __syncwarp();
    int a = s[base + 31 - lane];
    __syncwarp();
    s[threadIdx.x] = a;
    __syncwarp();
    int b = s[base + ((lane + 5) & 31)];
    __syncwarp();
    data[threadIdx.x] = b * 10 + lane % 10;
}

int main()
{
    const int T = 96;
    int h[T];
    for (int i = 0; i < T; i++) h[i] = (i < 32) ? ((i * 13) % 29 - 10) : (i < 64 ? i - 20 : ((i * 7) % 50) + 1);
    h[40] = 42;
    int *din, *dcnt, *dslots; unsigned *dout;
    CHECK(cudaMalloc(&din, sizeof h)); CHECK(cudaMalloc(&dout, T * NRES * sizeof(unsigned)));
    CHECK(cudaMalloc(&dcnt, sizeof(int))); CHECK(cudaMalloc(&dslots, T * sizeof(int)));
    CHECK(cudaMemset(dcnt, 0, sizeof(int))); CHECK(cudaMemset(dslots, 0xff, T * sizeof(int)));
    CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    votes<<<1, T>>>(din, dout, dcnt, dslots);
    CHECK(cudaGetLastError());
    unsigned *r = (unsigned *)malloc(T * NRES * sizeof(unsigned));
    CHECK(cudaMemcpy(r, dout, T * NRES * sizeof(unsigned), cudaMemcpyDeviceToHost));
    int cnt, slots[T];
    CHECK(cudaMemcpy(&cnt, dcnt, sizeof cnt, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(slots, dslots, sizeof slots, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int w = 0; w < T / 32; w++) {
        const int *v = h + w * 32;
        unsigned ballot = 0, any42 = 0, allPos = 1, allBig = 1, sum = 0, mx = 0, andv = ~0u, orv = 0, xorv = 0, act = 0, even = 0;
        int mn = 1 << 30;
        for (int k = 0; k < 32; k++) {
            if (v[k] > 0) ballot |= 1u << k; else allPos = 0;
            if (v[k] == 42) any42 = 1;
            if (v[k] <= -100) allBig = 0;
            sum += v[k] + 100; if (v[k] < mn) mn = v[k]; if ((unsigned)v[k] > mx) mx = v[k];
            andv &= (unsigned)v[k] | 0x100u; orv |= v[k] & 0xff; xorv ^= v[k];
            if (k % 3 == 0) act |= 1u << k;
            if ((v[k] & 1) == 0) even |= 1u << k;
        }
        for (int lane = 0; lane < 32; lane++) {
            const unsigned *o = r + (w * 32 + lane) * NRES;
            unsigned match = 0;
            for (int k = 0; k < 32; k++) if ((v[k] & 3) == (v[lane] & 3)) match |= 1u << k;
            unsigned want[NRES] = {ballot, any42, allBig, allPos, lane % 3 == 0 ? act : 0, match, FULL, 1, sum, (unsigned)mn, mx,
                                   andv, orv, xorv, (1u << lane) - 1,
                                   (v[lane] & 1) == 0 ? (unsigned)__builtin_popcount(even & ((1u << lane) - 1)) : 99u};
            for (int k = 0; k < NRES; k++)
                if (o[k] != want[k]) {
                    if (bad < 10) printf("warp %d lane %d result %d: gpu %08x host %08x\n", w, lane, k, o[k], want[k]);
                    bad++;
                }
        }
        printf("warp %d:", w);
        for (int k = 0; k < NRES - 1; k++) printf(" %x", r[w * 32 * NRES + k]);
        printf("\n");
    }
    // aggregated slots: every even-valued thread exactly once
    int evens = 0, seen[T] = {0};
    for (int i = 0; i < T; i++) if ((h[i] & 1) == 0) evens++;
    for (int i = 0; i < cnt; i++) if (slots[i] >= 0 && slots[i] < T) seen[slots[i]]++;
    for (int i = 0; i < T; i++) if (seen[i] != ((h[i] & 1) == 0 ? 1 : 0)) bad++;
    printf("warp-aggregated atomics: counter %d (even values %d)\n", cnt, evens);
    if (cnt != evens) bad++;

    int hd[128], *dd;
    for (int i = 0; i < 128; i++) hd[i] = i * 3;
    CHECK(cudaMalloc(&dd, sizeof hd));
    CHECK(cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice));
    syncwarpPhases<<<1, 128>>>(dd);
    int out[128];
    CHECK(cudaMemcpy(out, dd, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++) {
        int lane = i & 31, base = i & ~31, src = (lane + 5) & 31;
        int want = hd[base + 31 - src] * 10 + lane % 10;
        if (out[i] != want) bad++;
    }
    printf("syncwarp phases: out[0]=%d out[31]=%d out[127]=%d\n", out[0], out[31], out[127]);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
