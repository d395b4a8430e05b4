// Mutual exclusion and histograms: a spin lock built on atomicCAS/atomicExch taken by one
// thread per block (the CUDA by Example pattern) to update a non-atomic 64-bit sum, a
// per-thread lock written so that it works with independent thread scheduling (each lane
// retries inside the loop body), a 256-bin histogram with shared-memory atomics merged
// into global memory, and a "last block" reduction with __threadfence and atomicInc.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

struct Lock {
    int *mutex;
    __device__ void lock() { while (atomicCAS(mutex, 0, 1) != 0) { } __threadfence(); }
    __device__ void unlock() { __threadfence(); atomicExch(mutex, 0); }
};

__global__ void blockSum(const int *in, int n, Lock lk, long long *total, int *order)
{
    __shared__ long long partial[256];
    long long acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) acc += in[i];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        lk.lock();
        volatile long long *t = total;
        *t = *t + partial[0];            // plain read-modify-write under the lock
        volatile int *o = order;
        *o = *o + 1;
        lk.unlock();
    }
}

// Every thread takes the lock: the winner's work sits inside the retry loop, so lanes of
// one warp that lose keep looping while the winner completes.
__global__ void perThreadLock(int *mutex, int *counter, int *maxSeen)
{
    bool done = false;
    while (!done) {
        if (atomicCAS(mutex, 0, 1) == 0) {
            volatile int *c = counter;
            int v = *c + 1;
            *c = v;
            if (v > *maxSeen) *maxSeen = v;
            __threadfence();
            atomicExch(mutex, 0);
            done = true;
        }
    }
}

__global__ void histogram(const unsigned char *data, int n, unsigned *bins)
{
    __shared__ unsigned local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x) if (local[i]) atomicAdd(&bins[i], local[i]);
}

__device__ unsigned blocksDone = 0;

__global__ void lastBlockSum(const float *in, int n, float *partial, float *result)
{
    __shared__ float s[128];
    __shared__ bool amLast;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();                              // make the partial visible first
        unsigned ticket = atomicInc(&blocksDone, gridDim.x);
        amLast = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (amLast) {
        float acc = 0;
        for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) acc += ((volatile float *)partial)[b];
        s[threadIdx.x] = acc;
        __syncthreads();
        for (int k = blockDim.x / 2; k > 0; k >>= 1) {
            if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
            __syncthreads();
        }
        if (threadIdx.x == 0) { *result = s[0]; blocksDone = 0; }
    }
}

int main()
{
    int bad = 0;
    const int n = 1 << 20;
    int *h = (int *)malloc(n * sizeof(int));
    long long ref = 0;
    unsigned st = 7;
    for (int i = 0; i < n; i++) { st = st * 1664525u + 1013904223u; h[i] = (int)(st >> 8) - (1 << 23); ref += h[i]; }
    int *din, *dmutex, *dorder; long long *dtotal;
    CHECK(cudaMalloc(&din, n * sizeof(int))); CHECK(cudaMalloc(&dmutex, sizeof(int)));
    CHECK(cudaMalloc(&dtotal, sizeof(long long))); CHECK(cudaMalloc(&dorder, sizeof(int)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dmutex, 0, sizeof(int))); CHECK(cudaMemset(dtotal, 0, sizeof(long long)));
    CHECK(cudaMemset(dorder, 0, sizeof(int)));
    Lock lk = {dmutex};
    blockSum<<<120, 256>>>(din, n, lk, dtotal, dorder);
    CHECK(cudaGetLastError());
    long long total; int count;
    CHECK(cudaMemcpy(&total, dtotal, sizeof total, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&count, dorder, sizeof count, cudaMemcpyDeviceToHost));
    printf("locked block sum: %lld (host %lld), blocks through the lock: %d\n", total, ref, count);
    if (total != ref || count != 120) bad++;

    int *dcounter, *dmax;
    CHECK(cudaMalloc(&dcounter, sizeof(int))); CHECK(cudaMalloc(&dmax, sizeof(int)));
    CHECK(cudaMemset(dmutex, 0, sizeof(int))); CHECK(cudaMemset(dcounter, 0, sizeof(int))); CHECK(cudaMemset(dmax, 0, sizeof(int)));
    perThreadLock<<<8, 96>>>(dmutex, dcounter, dmax);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int counter, maxSeen;
    CHECK(cudaMemcpy(&counter, dcounter, sizeof counter, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&maxSeen, dmax, sizeof maxSeen, cudaMemcpyDeviceToHost));
    printf("per-thread lock: counter=%d max=%d\n", counter, maxSeen);
    if (counter != 768 || maxSeen != 768) bad++;

    const int m = 3000017;
    unsigned char *data = (unsigned char *)malloc(m);
    unsigned hbins[256] = {0};
    for (int i = 0; i < m; i++) { st = st * 1664525u + 1013904223u; data[i] = (unsigned char)((st >> 24) ^ (st >> 13)) & (i % 3 ? 0xff : 0x0f); hbins[data[i]]++; }
    unsigned char *ddata; unsigned *dbins, gbins[256];
    CHECK(cudaMalloc(&ddata, m)); CHECK(cudaMalloc(&dbins, sizeof gbins));
    CHECK(cudaMemcpy(ddata, data, m, cudaMemcpyHostToDevice)); CHECK(cudaMemset(dbins, 0, sizeof gbins));
    histogram<<<64, 256>>>(ddata, m, dbins);
    CHECK(cudaMemcpy(gbins, dbins, sizeof gbins, cudaMemcpyDeviceToHost));
    unsigned long long tot = 0;
    for (int i = 0; i < 256; i++) { if (gbins[i] != hbins[i]) bad++; tot += gbins[i]; }
    printf("histogram: total %llu, bins 0..7:", tot);
    for (int i = 0; i < 8; i++) printf(" %u", gbins[i]);
    printf(", bin 255: %u\n", gbins[255]);

    const int k = 100000;
    float *hf = (float *)malloc(k * sizeof(float));
    for (int i = 0; i < k; i++) hf[i] = (float)(i % 17) - 8.0f;
    float *df, *dpart, *dres, res;
    int blocks = (k + 127) / 128;
    CHECK(cudaMalloc(&df, k * sizeof(float))); CHECK(cudaMalloc(&dpart, blocks * sizeof(float))); CHECK(cudaMalloc(&dres, sizeof(float)));
    CHECK(cudaMemcpy(df, hf, k * sizeof(float), cudaMemcpyHostToDevice));
    for (int rep = 0; rep < 2; rep++) {
        CHECK(cudaMemset(dres, 0xff, sizeof(float)));
        lastBlockSum<<<blocks, 128>>>(df, k, dpart, dres);
        CHECK(cudaMemcpy(&res, dres, sizeof res, cudaMemcpyDeviceToHost));
        double r = 0;
        for (int i = 0; i < k; i++) r += hf[i];
        printf("threadfence reduction run %d: %.9g (host %.9g)\n", rep, res, r);
        if (res != (float)r) bad++;
    }
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
