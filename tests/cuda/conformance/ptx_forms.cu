// Instruction forms real programs reach: elect.sync with a sink destination, prefetch
// with cache levels and eviction hints, every cvt.pack.sat form (checked against a C
// model), 128-bit atomicCAS/atomicExch and 16-bit atomicCAS, a predicate moved from -1,
// a cluster of one block (cluster.sync, map_shared_rank), cuda::memcpy_async completing
// on a cuda::barrier, 128-bit integer arithmetic, and the carry flag of subtraction.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

static int failures = 0;
static void verdict(const char *what, bool ok) { printf("%-22s %s\n", what, ok ? "ok" : "MISMATCH"); failures += !ok; }

__global__ void electPrefetch(const unsigned *masks, unsigned *out)
{
    unsigned t = threadIdx.x, m = masks[t], leader = 0;
    asm volatile("prefetch.global.L2 [%0];" ::"l"(masks + t));
    asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(masks + t));
    asm volatile("prefetch.global.L1 [%0];" ::"l"(masks + t));
    if ((m >> (t % 32)) & 1u) {
        asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(leader) : "r"(m));
        out[t] = 1000 + leader;
    } else {
        out[t] = 7;
    }
}

__global__ void cvtPack(const int *a, const int *b, const unsigned *c, unsigned *out)
{
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

__global__ void atomicsWide(pair128 *slot, pair128 *old, unsigned short *s16, unsigned *wins)
{
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

__global__ void clusterOne(int *out)
{
    __shared__ int s[256];
    cg::cluster_group c = cg::this_cluster();
    s[threadIdx.x] = threadIdx.x * 3 + blockIdx.x;
    c.sync();
    int *mine = c.map_shared_rank(s, 0);
    out[blockIdx.x * blockDim.x + threadIdx.x] = mine[(threadIdx.x + 1) % blockDim.x] +
        (int)c.block_rank() * 1000 + (int)c.num_blocks() * 100000;
}

__global__ void asyncCopyBarrier(const int *in, int *out)
{
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

__global__ void int128(const long long *a, unsigned long long *out)
{
    int t = threadIdx.x;
    __int128 x = (__int128)a[t] * a[t + 1] - ((__int128)a[t + 2] << 70);
    unsigned __int128 y = (unsigned __int128)(unsigned long long)a[t] * 0x9e3779b97f4a7c15ull;
    out[4 * t] = (unsigned long long)(x >> 64);
    out[4 * t + 1] = (unsigned long long)x;
    out[4 * t + 2] = (unsigned long long)(y % 1000000007u);
    out[4 * t + 3] = (unsigned long long)(x / 3);
}

// The carry flag after a subtraction, read with addc (1 = no borrow), and subc after an
// addition's carry.
__global__ void carryFlags(const unsigned *x, const unsigned *z, unsigned *out)
{
    int t = threadIdx.x;
    unsigned cf, bf;
    asm("{\n\t.reg .u32 t;\n\tsub.cc.u32 t, %1, %2;\n\taddc.u32 %0, 0, 0;\n\t}" : "=r"(cf) : "r"(x[t]), "r"(z[t]));
    asm("{\n\t.reg .u32 t;\n\tadd.cc.u32 t, %1, %2;\n\tsubc.u32 %0, 10, 3;\n\t}" : "=r"(bf) : "r"(x[t]), "r"(z[t]));
    out[2 * t] = cf;
    out[2 * t + 1] = bf;
}

static uint32_t packModel(int32_t a, int32_t b, uint32_t c, unsigned bits, bool sgn)
{
    int64_t lo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
    int64_t hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    int64_t x = a < lo ? lo : a > hi ? hi : a, y = b < lo ? lo : b > hi ? hi : b;
    uint32_t m = (uint32_t)(((uint64_t)1 << bits) - 1);
    uint32_t d = ((uint32_t)y & m) | (((uint32_t)x & m) << bits);
    if (bits < 16) d |= (uint32_t)((uint64_t)c << (2 * bits));
    return d;
}

int main()
{
    // elect.sync _|p and prefetch
    {
        const int n = 96;
        unsigned h[n], *dm, *dout;
        for (int t = 0; t < n; t++) h[t] = t < 32 ? 0xffffffffu : t < 64 ? 0xaaaaaaaau : 0x1fe0u;
        CHECK(cudaMalloc(&dm, sizeof h));
        CHECK(cudaMalloc(&dout, sizeof h));
        CHECK(cudaMemcpy(dm, h, sizeof h, cudaMemcpyHostToDevice));
        electPrefetch<<<1, n>>>(dm, dout);
        unsigned o[n];
        CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int t = 0; t < n; t++) {
            unsigned lane = t % 32, want = !((h[t] >> lane) & 1u) ? 7 : 1000 + (lane == (unsigned)__builtin_ctz(h[t]));
            ok &= o[t] == want;
        }
        printf("elect: warp 0 leader %u, warp 1 leader lane %d, warp 2 leader lane %d\n", o[0] == 1001 ? 0u : 99u,
               o[33] == 1001 ? 1 : -1, o[69] == 1001 ? 5 : -1);
        verdict("elect.sync _|p", ok);
        CHECK(cudaFree(dm));
        CHECK(cudaFree(dout));
    }
    // cvt.pack.sat
    {
        const int n = 64;
        const int32_t vals[] = {0, 1, -1, 2, -2, 3, -3, 7, -8, 8, -9, 15, 16, 127, -128, 128,
                                -129, 255, 256, 32767, -32768, 32768, 65535, 65536,
                                INT32_MAX, INT32_MIN, 100000, -100000, 5, -5, 42, -42};
        const int nv = sizeof vals / sizeof vals[0];
        int a[n], b[n];
        unsigned c[n], o[8 * n];
        for (int t = 0; t < n; t++) {
            a[t] = vals[t % nv];
            b[t] = vals[(t * 7 + 3) % nv];
            c[t] = 0x9e3779b9u * (unsigned)(t + 1);
        }
        int *da, *db;
        unsigned *dc, *dout;
        CHECK(cudaMalloc(&da, sizeof a));
        CHECK(cudaMalloc(&db, sizeof b));
        CHECK(cudaMalloc(&dc, sizeof c));
        CHECK(cudaMalloc(&dout, sizeof o));
        CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
        cvtPack<<<1, n>>>(da, db, dc, dout);
        CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
        const unsigned bits[8] = {16, 16, 8, 8, 4, 4, 2, 2};
        const char *names[8] = {"u16", "s16", "u8", "s8", "u4", "s4", "u2", "s2"};
        for (int k = 0; k < 8; k++) {
            uint32_t sum = 0;
            bool ok = true;
            for (int t = 0; t < n; t++) {
                sum = sum * 31u + o[8 * t + k];
                ok &= o[8 * t + k] == packModel(a[t], b[t], c[t], bits[k], k & 1);
            }
            char what[40];
            snprintf(what, sizeof what, "cvt.pack.sat.%s %08x", names[k], sum);
            verdict(what, ok);
        }
        CHECK(cudaFree(da));
        CHECK(cudaFree(db));
        CHECK(cudaFree(dc));
        CHECK(cudaFree(dout));
    }
    // 128-bit and 16-bit atomics, mov.pred -1
    {
        const int blocks = 3, threads = 64, n = blocks * threads;
        unsigned long long *dslot, *dold;
        unsigned short *ds16;
        unsigned *dwins;
        CHECK(cudaMalloc(&dslot, 32));
        CHECK(cudaMalloc(&dold, n * 16));
        CHECK(cudaMalloc(&ds16, 4));
        CHECK(cudaMalloc(&dwins, 4));
        CHECK(cudaMemset(dslot, 0, 32));
        CHECK(cudaMemset(dwins, 0, 4));
        unsigned short s16[2] = {65500, 0x5a5a};
        CHECK(cudaMemcpy(ds16, s16, 4, cudaMemcpyHostToDevice));
        atomicsWide<<<blocks, threads>>>((pair128 *)dslot, (pair128 *)dold, ds16, dwins);
        unsigned long long slot[4], *old = (unsigned long long *)malloc(n * 16);
        unsigned wins;
        CHECK(cudaMemcpy(slot, dslot, 32, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(old, dold, n * 16, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(s16, ds16, 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&wins, dwins, 4, cudaMemcpyDeviceToHost));
        bool okCas = wins == 1 && slot[0] >= 1 && slot[0] <= (unsigned)n && slot[1] == ~(slot[0] - 1);
        int zeros = 0;
        bool okExch = true;
        unsigned char *seen = (unsigned char *)calloc(n + 1, 1);
        for (int t = 0; t < n; t++) {
            unsigned long long lo = old[2 * t], hi = old[2 * t + 1];
            if (lo == 0 && hi == 0) { zeros++; continue; }
            if (lo < 1 || lo > (unsigned)n || hi != ~(lo - 1) || lo == (unsigned long long)t + 1 || seen[lo]) okExch = false;
            else seen[lo] = 1;
        }
        okExch = okExch && zeros == 1 && slot[2] >= 1 && slot[2] <= (unsigned)n && !seen[slot[2]] &&
                 slot[3] == ~(slot[2] - 1);
        printf("128-bit CAS: one winner %s, exchange chain of %d with one start\n", wins == 1 ? "yes" : "no", n);
        verdict("atomicCAS 128-bit", okCas);
        verdict("atomicExch 128-bit", okExch);
        printf("16-bit CAS counter: %u (neighbour %04x)\n", s16[0], s16[1]);
        verdict("atomicCAS 16-bit", s16[0] == ((65500 + n) & 0xffff) && s16[1] == 0x5a5a);
        free(seen);
        free(old);
        CHECK(cudaFree(dslot));
        CHECK(cudaFree(dold));
        CHECK(cudaFree(ds16));
        CHECK(cudaFree(dwins));
    }
    // a cluster of one block
    {
        const int n = 256;
        int *d, h[2 * n];
        CHECK(cudaMalloc(&d, sizeof h));
        clusterOne<<<2, n>>>(d);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int bl = 0; bl < 2; bl++)
            for (int t = 0; t < n; t++) ok &= h[bl * n + t] == ((t + 1) % n) * 3 + bl + 100000;
        printf("cluster of one: out[0]=%d out[%d]=%d\n", h[0], 2 * n - 1, h[2 * n - 1]);
        verdict("cluster sync, mapa", ok);
        CHECK(cudaFree(d));
    }
    // cuda::memcpy_async with a cuda::barrier
    {
        int in[256], out[256], *din, *dout;
        for (int i = 0; i < 256; i++) in[i] = i * i - 77;
        CHECK(cudaMalloc(&din, sizeof in));
        CHECK(cudaMalloc(&dout, sizeof out));
        CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
        asyncCopyBarrier<<<1, 256>>>(din, dout);
        CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int t = 0; t < 256; t++) ok &= out[t] == in[255 - t] * 2;
        verdict("memcpy_async+barrier", ok);
        CHECK(cudaFree(din));
        CHECK(cudaFree(dout));
    }
    // 128-bit integers
    {
        const int n = 32;
        long long a[n + 2];
        unsigned long long o[4 * n], *dout;
        long long *da;
        for (int i = 0; i < n + 2; i++) a[i] = (long long)(0x9e3779b97f4a7c15ull * (i + 3)) >> (i % 13);
        CHECK(cudaMalloc(&da, sizeof a));
        CHECK(cudaMalloc(&dout, sizeof o));
        CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
        int128<<<1, n>>>(da, dout);
        CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
        bool ok = true;
        uint32_t sum = 0;
        for (int t = 0; t < n; t++) {
            __int128 x = (__int128)a[t] * a[t + 1] - ((__int128)a[t + 2] << 70);
            unsigned __int128 y = (unsigned __int128)(unsigned long long)a[t] * 0x9e3779b97f4a7c15ull;
            ok &= o[4 * t] == (unsigned long long)(x >> 64) && o[4 * t + 1] == (unsigned long long)x &&
                  o[4 * t + 2] == (unsigned long long)(y % 1000000007u) &&
                  o[4 * t + 3] == (unsigned long long)(x / 3);
            for (int k = 0; k < 4; k++) sum = sum * 31u + (uint32_t)o[4 * t + k];
        }
        printf("int128 checksum %08x\n", sum);
        verdict("__int128 arithmetic", ok);
        CHECK(cudaFree(da));
        CHECK(cudaFree(dout));
    }
    // carry flags
    {
        const int n = 6;
        unsigned x[n] = {5, 3, 0, 0xffffffffu, 0x80000000u, 7}, z[n] = {3, 5, 0, 1, 0x80000000u, 0xfffffff9u};
        unsigned o[2 * n], *dx, *dz, *dout;
        CHECK(cudaMalloc(&dx, sizeof x));
        CHECK(cudaMalloc(&dz, sizeof z));
        CHECK(cudaMalloc(&dout, sizeof o));
        CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dz, z, sizeof z, cudaMemcpyHostToDevice));
        carryFlags<<<1, n>>>(dx, dz, dout);
        CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
        bool ok = true;
        printf("carry after sub.cc (addc 0,0) and subc 10,3 after add.cc:");
        for (int t = 0; t < n; t++) {
            printf(" %u/%u", o[2 * t], o[2 * t + 1]);
            ok &= o[2 * t] == (x[t] >= z[t]) && o[2 * t + 1] == 10u - 3u - !((unsigned long long)x[t] + z[t] > 0xffffffffull);
        }
        printf("\n");
        verdict("carry flag", ok);
        CHECK(cudaFree(dx));
        CHECK(cudaFree(dz));
        CHECK(cudaFree(dout));
    }
    CHECK(cudaDeviceSynchronize());
    printf("%s (%d mismatches)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
