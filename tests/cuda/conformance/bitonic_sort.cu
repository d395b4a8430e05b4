// Bitonic sort in shared memory (one block sorts 1024 keys; the classic compare-exchange
// network with __syncthreads between stages), a key-value variant that sorts by key and
// carries the values along, and a global-memory bitonic merge across blocks for 2^16 keys.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define N_SHARED 1024

__global__ void bitonicShared(unsigned *keys, unsigned *vals, bool ascending)
{
    __shared__ unsigned sk[N_SHARED], sv[N_SHARED];
    unsigned *k = keys + blockIdx.x * N_SHARED, *v = vals + blockIdx.x * N_SHARED;
    int t = threadIdx.x;                 // 512 threads, two elements each
    sk[t] = k[t]; sk[t + 512] = k[t + 512];
    sv[t] = v[t]; sv[t + 512] = v[t + 512];
    for (int size = 2; size <= N_SHARED; size <<= 1) {
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            int pos = 2 * t - (t & (stride - 1));
            bool dir = ascending ^ ((t & (size / 2)) != 0);
            unsigned a = sk[pos], b = sk[pos + stride];
            if ((a > b) == dir) {
                sk[pos] = b; sk[pos + stride] = a;
                unsigned tv = sv[pos]; sv[pos] = sv[pos + stride]; sv[pos + stride] = tv;
            }
        }
    }
    __syncthreads();
    k[t] = sk[t]; k[t + 512] = sk[t + 512];
    v[t] = sv[t]; v[t + 512] = sv[t + 512];
}

__global__ void bitonicGlobalStep(unsigned *d, int j, int k)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ixj = i ^ j;
    if (ixj > i) {
        bool up = (i & k) == 0;
        unsigned a = d[i], b = d[ixj];
        if ((a > b) == up) { d[i] = b; d[ixj] = a; }
    }
}

static int cmpu(const void *a, const void *b) { unsigned x = *(const unsigned *)a, y = *(const unsigned *)b; return x < y ? -1 : x > y; }

int main()
{
    int bad = 0;
    const int blocks = 8, n = blocks * N_SHARED;
    unsigned *hk = (unsigned *)malloc(n * 4), *hv = (unsigned *)malloc(n * 4), *ok = (unsigned *)malloc(n * 4), *ov = (unsigned *)malloc(n * 4);
    unsigned s = 99;
    for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; hk[i] = (s >> 8) % 5000; hv[i] = i; }
    unsigned *dk, *dv;
    CHECK(cudaMalloc(&dk, n * 4)); CHECK(cudaMalloc(&dv, n * 4));
    CHECK(cudaMemcpy(dk, hk, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dv, hv, n * 4, cudaMemcpyHostToDevice));
    bitonicShared<<<blocks, 512>>>(dk, dv, true);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ok, dk, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(ov, dv, n * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        unsigned *ref = (unsigned *)malloc(N_SHARED * 4);
        for (int i = 0; i < N_SHARED; i++) ref[i] = hk[b * N_SHARED + i];
        qsort(ref, N_SHARED, 4, cmpu);
        for (int i = 0; i < N_SHARED; i++) {
            if (ok[b * N_SHARED + i] != ref[i]) bad++;
            unsigned src = ov[b * N_SHARED + i];   // the value still belongs to its key
            if (src / N_SHARED != (unsigned)b || hk[src] != ok[b * N_SHARED + i]) bad++;
        }
        free(ref);
    }
    printf("shared bitonic: block 0 keys[0..4]=%u %u %u %u %u, block 7 last=%u\n", ok[0], ok[1], ok[2], ok[3], ok[4], ok[n - 1]);
    // the permutation of values is deterministic for a sorting network
    unsigned long long h = 0;
    for (int i = 0; i < n; i++) h = h * 1000003ULL + ov[i];
    printf("value permutation hash %016llx\n", h);

    bitonicShared<<<1, 512>>>(dk, dv, false);
    CHECK(cudaMemcpy(ok, dk, N_SHARED * 4, cudaMemcpyDeviceToHost));
    for (int i = 1; i < N_SHARED; i++) if (ok[i - 1] < ok[i]) bad++;
    printf("descending: first=%u last=%u\n", ok[0], ok[N_SHARED - 1]);

    const int m = 1 << 16;
    unsigned *g = (unsigned *)malloc(m * 4), *dg;
    for (int i = 0; i < m; i++) { s = s * 1103515245u + 12345u; g[i] = s; }
    CHECK(cudaMalloc(&dg, m * 4));
    CHECK(cudaMemcpy(dg, g, m * 4, cudaMemcpyHostToDevice));
    for (int k = 2; k <= m; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) bitonicGlobalStep<<<m / 256, 256>>>(dg, j, k);
    CHECK(cudaGetLastError());
    unsigned *go = (unsigned *)malloc(m * 4);
    CHECK(cudaMemcpy(go, dg, m * 4, cudaMemcpyDeviceToHost));
    qsort(g, m, 4, cmpu);
    for (int i = 0; i < m; i++) if (go[i] != g[i]) bad++;
    printf("global bitonic 2^16: min=%u median=%u max=%u\n", go[0], go[m / 2], go[m - 1]);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
