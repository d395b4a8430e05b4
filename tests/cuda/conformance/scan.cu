// Parallel prefix sums: Hillis-Steele (double-buffered shared memory, inclusive), Blelloch
// work-efficient exclusive scan with bank-conflict-avoiding padding (GPU Gems 3 ch. 39),
// and a three-kernel multi-block scan of a large array (block scans, scan of block sums,
// uniform add).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

__global__ void hillisSteele(const int *in, int *out, int n)
{
    extern __shared__ int buf[];   // 2 * n
    int t = threadIdx.x, pout = 0, pin = 1;
    buf[pout * n + t] = in[t];
    __syncthreads();
    for (int off = 1; off < n; off *= 2) {
        pout = 1 - pout; pin = 1 - pout;
        if (t >= off) buf[pout * n + t] = buf[pin * n + t] + buf[pin * n + t - off];
        else buf[pout * n + t] = buf[pin * n + t];
        __syncthreads();
    }
    out[t] = buf[pout * n + t];
}

// Exclusive scan of 2*blockDim.x elements per block; writes the block total to sums.
__global__ void blelloch(const int *in, int *out, int *sums, int n)
{
    extern __shared__ int temp[];
    int thid = threadIdx.x, m = 2 * blockDim.x, base = blockIdx.x * m;
    int ai = thid, bi = thid + blockDim.x;
    int offA = CONFLICT_FREE_OFFSET(ai), offB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + offA] = base + ai < n ? in[base + ai] : 0;
    temp[bi + offB] = base + bi < n ? in[base + bi] : 0;
    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {        // up-sweep
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a); b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0) {
        int last = m - 1 + CONFLICT_FREE_OFFSET(m - 1);
        if (sums) sums[blockIdx.x] = temp[last];
        temp[last] = 0;
    }
    for (int d = 1; d < m; d *= 2) {              // down-sweep
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a); b += CONFLICT_FREE_OFFSET(b);
            int t = temp[a]; temp[a] = temp[b]; temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = temp[ai + offA];
    if (base + bi < n) out[base + bi] = temp[bi + offB];
}

__global__ void uniformAdd(int *data, const int *incr, int n)
{
    int i = blockIdx.x * 2 * blockDim.x + threadIdx.x;
    int add = incr[blockIdx.x];
    if (i < n) data[i] += add;
    if (i + blockDim.x < n) data[i + blockDim.x] += add;
}

int main()
{
    int bad = 0;
    // Hillis-Steele on one block of 512
    const int hs = 512;
    int h[hs], r[hs];
    for (int i = 0; i < hs; i++) h[i] = (i * 31) % 17 - 8;
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof h)); CHECK(cudaMalloc(&dout, sizeof h));
    CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    hillisSteele<<<1, hs, 2 * hs * sizeof(int)>>>(din, dout, hs);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
    int acc = 0;
    for (int i = 0; i < hs; i++) { acc += h[i]; if (r[i] != acc) bad++; }
    printf("Hillis-Steele: out[0]=%d out[100]=%d out[511]=%d\n", r[0], r[100], r[511]);

    // multi-block Blelloch over n elements
    const int n = 1000000, threads = 256, per = 2 * threads;
    int blocks = (n + per - 1) / per;
    int *a = (int *)malloc(n * sizeof(int)), *res = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) a[i] = (int)((i * 2654435761u) >> 28) - 7;
    int *da, *dres, *dsums, *dsumsScan;
    CHECK(cudaMalloc(&da, n * sizeof(int))); CHECK(cudaMalloc(&dres, n * sizeof(int)));
    CHECK(cudaMalloc(&dsums, blocks * sizeof(int))); CHECK(cudaMalloc(&dsumsScan, blocks * sizeof(int)));
    CHECK(cudaMemcpy(da, a, n * sizeof(int), cudaMemcpyHostToDevice));
    size_t sh = (per + per / 32) * sizeof(int);
    blelloch<<<blocks, threads, sh>>>(da, dres, dsums, n);
    // block sums: 1954 values, scanned by one block of 1024 threads (2048 elements)
    size_t sh2 = (2048 + 2048 / 32) * sizeof(int);
    blelloch<<<1, 1024, sh2>>>(dsums, dsumsScan, nullptr, blocks);
    uniformAdd<<<blocks, threads>>>(dres, dsumsScan, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(res, dres, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long run = 0; int first = -1;
    for (int i = 0; i < n; i++) { if (res[i] != (int)run && first < 0) first = i; if (res[i] != (int)run) bad++; run += a[i]; }
    printf("Blelloch multi-block (%d blocks): out[1]=%d out[513]=%d out[999999]=%d total=%lld first bad=%d\n",
           blocks, res[1], res[513], res[999999], run, first);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
