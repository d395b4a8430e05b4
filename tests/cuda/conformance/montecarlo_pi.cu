// Monte Carlo estimates with a per-thread xorshift generator (no cuRAND): pi from points
// in the quarter circle, counted with a warp vote and shared atomics, the integral of
// exp(-x^2) accumulated in double with atomicAdd per block (exact integers of 2^-20 so the
// order of the adds does not matter), and a random walk's end points.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__device__ unsigned xorshift(unsigned &s)
{
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    return s;
}

__device__ float uniform(unsigned &s) { return (xorshift(s) >> 8) * (1.0f / 16777216.0f); }

__global__ void piKernel(unsigned long long *inside, int perThread)
{
    __shared__ unsigned blockCount;
    if (threadIdx.x == 0) blockCount = 0;
    __syncthreads();
    unsigned s = 2463534242u ^ (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u;
    for (int k = 0; k < perThread; k++) {
        float x = uniform(s), y = uniform(s);
        unsigned hits = __ballot_sync(0xffffffffu, x * x + y * y <= 1.0f);
        if ((threadIdx.x & 31) == 0) atomicAdd(&blockCount, __popc(hits));
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(inside, (unsigned long long)blockCount);
}

__global__ void integrate(double *sum, int perThread)
{
    unsigned s = 88675123u + (blockIdx.x * blockDim.x + threadIdx.x) * 7919u;
    double local = 0;
    for (int k = 0; k < perThread; k++) {
        float x = uniform(s);
        float v = expf(-x * x);
        local += (double)(int)(v * 1048576.0f) / 1048576.0;
    }
    atomicAdd(sum, local);
}

__global__ void walk(int *ends, int steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = 12345u + i * 2891336453u;
    int x = 0, y = 0;
    for (int k = 0; k < steps; k++) {
        unsigned r = xorshift(s) >> 30;
        x += (r == 0) - (r == 1);
        y += (r == 2) - (r == 3);
    }
    ends[2 * i] = x;
    ends[2 * i + 1] = y;
}

int main()
{
    const int blocks = 64, threads = 256, per = 200;
    unsigned long long *din, hin;
    CK(cudaMalloc(&din, 8));
    CK(cudaMemset(din, 0, 8));
    piKernel<<<blocks, threads>>>(din, per);
    CK(cudaMemcpy(&hin, din, 8, cudaMemcpyDeviceToHost));
    double total = (double)blocks * threads * per;
    printf("pi ~ %.8f from %llu of %.0f points\n", 4.0 * hin / total, hin, total);

    double *ds, hs;
    CK(cudaMalloc(&ds, 8));
    CK(cudaMemset(ds, 0, 8));
    integrate<<<blocks, threads>>>(ds, per);
    CK(cudaMemcpy(&hs, ds, 8, cudaMemcpyDeviceToHost));
    printf("integral of exp(-x^2) on [0,1] ~ %.10f\n", hs / total);

    const int walkers = 1024;
    int *de, he[2 * walkers];
    CK(cudaMalloc(&de, sizeof he));
    walk<<<walkers / 128, 128>>>(de, 1000);
    CK(cudaMemcpy(he, de, sizeof he, cudaMemcpyDeviceToHost));
    long long r2 = 0;
    int maxd = 0;
    for (int i = 0; i < walkers; i++) {
        int d = he[2 * i] * he[2 * i] + he[2 * i + 1] * he[2 * i + 1];
        r2 += d;
        maxd = d > maxd ? d : maxd;
    }
    printf("random walk: mean r^2 %.4f, max r^2 %d, walker 0 at (%d,%d), walker 1023 at (%d,%d)\n",
           (double)r2 / walkers, maxd, he[0], he[1], he[2046], he[2047]);
    return 0;
}
