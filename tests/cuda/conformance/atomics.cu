// Atomic operations of every kind from many threads at once: atomicAdd on int, unsigned,
// unsigned long long, float and double; atomicSub; atomicExch; atomicMin/atomicMax on
// signed, unsigned and 64-bit values; atomicInc/atomicDec with their wrap-around limits;
// atomicCAS on 32 and 64 bits (including a CAS loop that builds a 64-bit max and a float
// multiply); atomicAnd/Or/Xor; and the return values (unique slots from atomicAdd).
// Only results that do not depend on the order of the operations are printed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

struct Counters {
    int addI; unsigned addU; unsigned long long addULL; float addF; double addD;
    int sub; int minI; int maxI; unsigned minU; unsigned maxU; long long minLL; unsigned long long maxULL;
    unsigned inc; unsigned dec; unsigned incWrap; unsigned decWrap;
    unsigned andV; unsigned orV; unsigned xorV; unsigned long long andLL; unsigned long long orLL; unsigned long long xorLL;
    int casCount; unsigned long long casMax; float casMulF;
    int exchSeen;
};

__device__ unsigned long long atomicMax64ViaCAS(unsigned long long *addr, unsigned long long v)
{
    unsigned long long old = *addr, assumed;
    do {
        assumed = old;
        if (assumed >= v) break;
        old = atomicCAS(addr, assumed, v);
    } while (old != assumed);
    return old;
}

__device__ float atomicMulFloat(float *addr, float v)
{
    int *ai = (int *)addr;
    int old = *ai, assumed;
    do {
        assumed = old;
        old = atomicCAS(ai, assumed, __float_as_int(__int_as_float(assumed) * v));
    } while (old != assumed);
    return __int_as_float(old);
}

__global__ void hammer(Counters *c, int *slots, int *exchOut, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    atomicAdd(&c->addI, t % 7 - 3);
    atomicAdd(&c->addU, (unsigned)t);
    atomicAdd(&c->addULL, (unsigned long long)t << 20);
    atomicAdd(&c->addF, 0.25f * (t % 4));           // exact in any order
    atomicAdd(&c->addD, 0.5 * (t % 16));
    atomicSub(&c->sub, t % 5);
    atomicMin(&c->minI, (t * 7919) % 10007 - 5000);
    atomicMax(&c->maxI, (t * 7919) % 10007 - 5000);
    atomicMin(&c->minU, 0xffffffffu - (unsigned)t * 3u);
    atomicMax(&c->maxU, (unsigned)t * 3u);
    atomicMin(&c->minLL, -(long long)t * 100000000LL);
    atomicMax(&c->maxULL, (unsigned long long)t * 0x100000001ULL);
    atomicInc(&c->inc, 0xffffffffu);
    atomicDec(&c->dec, 0xffffffffu);
    atomicInc(&c->incWrap, 99u);                     // counts modulo 100
    atomicDec(&c->decWrap, 9u);                      // counts down, wraps 0 -> 9
    atomicAnd(&c->andV, ~(1u << (t % 32)) | (t >= 32 ? 0xffffffffu : 0u));
    atomicOr(&c->orV, 1u << (t % 29));
    atomicXor(&c->xorV, (unsigned)t * 2654435761u);
    atomicAnd(&c->andLL, ~(1ULL << (t % 64)) | (t >= 48 ? ~0ULL : 0ULL));
    atomicOr(&c->orLL, 1ULL << (t % 61));
    atomicXor(&c->xorLL, (unsigned long long)t * 0x9E3779B97F4A7C15ULL);
    atomicMax64ViaCAS(&c->casMax, (unsigned long long)((t * 31337) % 1000003) << 24);
    if (t < 20) atomicMulFloat(&c->casMulF, 2.0f);   // 2^20, exact in any order
    // 32-bit CAS: exactly one thread per group of 8 wins the flag.
    if (atomicCAS(&slots[n + t / 8], 0, t + 1) == 0) atomicAdd(&c->casCount, 1);
    // atomicAdd's return value: every thread gets a distinct ticket.
    int ticket = atomicAdd(&c->exchSeen, 1);
    slots[ticket] = t;
    // atomicExch: each location receives values from 4 threads; one of them remains.
    atomicExch(&exchOut[t / 4], t);
}

int main()
{
    const int n = 10000;
    Counters h, *dc;
    memset(&h, 0, sizeof h);
    h.minI = 1 << 30; h.maxI = -(1 << 30); h.minU = 0xffffffffu; h.maxU = 0; h.minLL = 0; h.maxULL = 0;
    h.dec = 50000; h.decWrap = 3; h.andV = 0xffffffffu; h.andLL = ~0ULL; h.casMulF = 1.0f;
    CHECK(cudaMalloc(&dc, sizeof h));
    CHECK(cudaMemcpy(dc, &h, sizeof h, cudaMemcpyHostToDevice));
    int *dslots, *dexch;
    CHECK(cudaMalloc(&dslots, (n + n / 8 + 1) * sizeof(int)));
    CHECK(cudaMemset(dslots, 0, (n + n / 8 + 1) * sizeof(int)));
    CHECK(cudaMalloc(&dexch, n / 4 * sizeof(int)));
    hammer<<<(n + 255) / 256, 256>>>(dc, dslots, dexch, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&h, dc, sizeof h, cudaMemcpyDeviceToHost));
    int *slots = (int *)malloc((n + n / 8 + 1) * sizeof(int)), *exch = (int *)malloc(n / 4 * sizeof(int));
    CHECK(cudaMemcpy(slots, dslots, (n + n / 8 + 1) * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(exch, dexch, n / 4 * sizeof(int), cudaMemcpyDeviceToHost));

    // host reference
    long long addI = 0; unsigned addU = 0; unsigned long long addULL = 0; double addF = 0, addD = 0;
    int sub = 0, minI = 1 << 30, maxI = -(1 << 30); unsigned minU = 0xffffffffu, maxU = 0; long long minLL = 0;
    unsigned long long maxULL = 0, casMax = 0; unsigned andV = 0xffffffffu, orV = 0, xorV = 0;
    unsigned long long andLL = ~0ULL, orLL = 0, xorLL = 0;
    for (int t = 0; t < n; t++) {
        addI += t % 7 - 3; addU += t; addULL += (unsigned long long)t << 20; addF += 0.25 * (t % 4); addD += 0.5 * (t % 16);
        sub -= t % 5;
        int v = (t * 7919) % 10007 - 5000; if (v < minI) minI = v; if (v > maxI) maxI = v;
        if (0xffffffffu - (unsigned)t * 3u < minU) minU = 0xffffffffu - (unsigned)t * 3u;
        if ((unsigned)t * 3u > maxU) maxU = t * 3u;
        if (-(long long)t * 100000000LL < minLL) minLL = -(long long)t * 100000000LL;
        if ((unsigned long long)t * 0x100000001ULL > maxULL) maxULL = (unsigned long long)t * 0x100000001ULL;
        andV &= ~(1u << (t % 32)) | (t >= 32 ? 0xffffffffu : 0u); orV |= 1u << (t % 29); xorV ^= (unsigned)t * 2654435761u;
        andLL &= ~(1ULL << (t % 64)) | (t >= 48 ? ~0ULL : 0ULL); orLL |= 1ULL << (t % 61); xorLL ^= (unsigned long long)t * 0x9E3779B97F4A7C15ULL;
        unsigned long long cm = (unsigned long long)((t * 31337) % 1000003) << 24; if (cm > casMax) casMax = cm;
    }
    unsigned decWrap = 3;
    for (int t = 0; t < n; t++) decWrap = (decWrap == 0 || decWrap > 9) ? 9 : decWrap - 1;

    int bad = 0;
#define SHOWCMP(fmt, name, got, want) do { printf("%-8s " fmt "\n", name, got); if ((got) != (want)) { printf("  expected " fmt "\n", want); bad++; } } while (0)
    SHOWCMP("%d", "addI", h.addI, (int)addI);
    SHOWCMP("%u", "addU", h.addU, addU);
    SHOWCMP("%llu", "addULL", h.addULL, addULL);
    SHOWCMP("%.9g", "addF", h.addF, (float)addF);
    SHOWCMP("%.17g", "addD", h.addD, addD);
    SHOWCMP("%d", "sub", h.sub, sub);
    SHOWCMP("%d", "minI", h.minI, minI);
    SHOWCMP("%d", "maxI", h.maxI, maxI);
    SHOWCMP("%u", "minU", h.minU, minU);
    SHOWCMP("%u", "maxU", h.maxU, maxU);
    SHOWCMP("%lld", "minLL", h.minLL, minLL);
    SHOWCMP("%llu", "maxULL", h.maxULL, maxULL);
    SHOWCMP("%u", "inc", h.inc, (unsigned)n);
    SHOWCMP("%u", "dec", h.dec, 50000u - n);
    SHOWCMP("%u", "incWrap", h.incWrap, (unsigned)(n % 100));
    SHOWCMP("%u", "decWrap", h.decWrap, decWrap);
    SHOWCMP("%08x", "and", h.andV, andV);
    SHOWCMP("%08x", "or", h.orV, orV);
    SHOWCMP("%08x", "xor", h.xorV, xorV);
    SHOWCMP("%016llx", "andLL", h.andLL, andLL);
    SHOWCMP("%016llx", "orLL", h.orLL, orLL);
    SHOWCMP("%016llx", "xorLL", h.xorLL, xorLL);
    SHOWCMP("%d", "casWins", h.casCount, n / 8);
    SHOWCMP("%llu", "casMax", h.casMax, casMax);
    SHOWCMP("%.9g", "casMulF", h.casMulF, 1048576.0f);
    SHOWCMP("%d", "tickets", h.exchSeen, n);
    // every thread's id appears exactly once among the tickets
    char *seen = (char *)calloc(n, 1);
    int dup = 0;
    for (int i = 0; i < n; i++) { if (slots[i] < 0 || slots[i] >= n || seen[slots[i]]) dup++; else seen[slots[i]] = 1; }
    SHOWCMP("%d", "ticketDup", dup, 0);
    int wrongGroup = 0;
    for (int g = 0; g < n / 8; g++) { int w = slots[n + g] - 1; if (w / 8 != g) wrongGroup++; }
    SHOWCMP("%d", "casGroup", wrongGroup, 0);
    int exchBad = 0;
    for (int i = 0; i < n / 4; i++) if (exch[i] / 4 != i) exchBad++;
    SHOWCMP("%d", "exchBad", exchBad, 0);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
