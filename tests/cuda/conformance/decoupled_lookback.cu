// A single-pass prefix sum with decoupled look-back (Merrill and Garland), as modern scan
// libraries do it: tiles take their index from an atomic counter (so a tile's predecessors
// have started), publish an aggregate and then an inclusive prefix in one 64-bit word
// with a status flag, and each tile looks back over its predecessors' words, spinning
// on those not yet published.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

#define TILE 512
#define FLAG_A 1ULL
#define FLAG_P 2ULL

__device__ unsigned tileCounter;

__global__ void scanLookback(const int *in, long long *out, int n, unsigned long long *status)
{
    __shared__ long long s[TILE];
    __shared__ unsigned tile;
    __shared__ long long exclusive;
    if (threadIdx.x == 0) tile = atomicAdd(&tileCounter, 1u);
    __syncthreads();
    int i = tile * TILE + threadIdx.x;
    long long v = i < n ? in[i] : 0;
    s[threadIdx.x] = v;
    __syncthreads();
    for (int off = 1; off < TILE; off <<= 1) {
        long long t = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
        __syncthreads();
        s[threadIdx.x] += t;
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        long long agg = s[TILE - 1];
        volatile unsigned long long *st = status;
        if (tile == 0) {
            st[0] = ((unsigned long long)agg << 2) | FLAG_P;
            exclusive = 0;
        } else {
            st[tile] = ((unsigned long long)agg << 2) | FLAG_A;
            __threadfence();
            long long ex = 0;
            int j = tile - 1;
            while (true) {
                unsigned long long w;
                do { w = st[j]; } while ((w & 3) == 0);
                ex += (long long)(w >> 2);
                if (w & FLAG_P) break;
                j--;
            }
            __threadfence();
            st[tile] = ((unsigned long long)(ex + agg) << 2) | FLAG_P;
            exclusive = ex;
        }
    }
    __syncthreads();
    if (i < n) out[i] = exclusive + s[threadIdx.x];
}

int main()
{
    const int n = 1000003, tiles = (n + TILE - 1) / TILE;
    int *h = (int *)malloc(n * 4);
    for (int i = 0; i < n; i++) h[i] = (i * 2654435761u >> 20) % 100;
    int *d;
    long long *o;
    unsigned long long *st;
    CK(cudaMalloc(&d, n * 4));
    CK(cudaMalloc(&o, n * 8));
    CK(cudaMalloc(&st, tiles * 8));
    CK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
    long long *ho = (long long *)malloc(n * 8);
    for (int rep = 0; rep < 2; rep++) {
        unsigned zero = 0;
        CK(cudaMemcpyToSymbol(tileCounter, &zero, 4));
        CK(cudaMemset(st, 0, tiles * 8));
        scanLookback<<<tiles, TILE>>>(d, o, n, st);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(ho, o, n * 8, cudaMemcpyDeviceToHost));
        long long acc = 0;
        int bad = 0;
        for (int i = 0; i < n; i++) { acc += h[i]; bad += ho[i] != acc; }
        printf("run %d: %d tiles, total %lld, %d wrong, out[511]=%lld out[512]=%lld out[n/2]=%lld\n", rep, tiles,
               ho[n - 1], bad, ho[511], ho[512], ho[n / 2]);
    }
    unsigned used;
    CK(cudaMemcpyFromSymbol(&used, tileCounter, 4));
    printf("tile counter %u\n", used);
    return 0;
}
