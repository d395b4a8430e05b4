// Warp specialisation with named barriers (bar.sync / bar.arrive with an id and a thread
// count, in inline PTX as CUTLASS-style code writes them): producer warps fill a
// double-buffered shared stage and arrive, consumer warps wait on the stage's barrier,
// consume, and release it; plus barrier.red.popc / __syncthreads_count, _and, _or.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__device__ __forceinline__ void barSync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void barArrive(int id, int n) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }

#define CHUNK 64
// 2 producer warps + 2 consumer warps. Barriers: 1+b "stage b full", 3+b "stage b empty".
__global__ void pipeline(const int *in, int chunks, long long *out)
{
    __shared__ int stage[2][CHUNK];
    __shared__ long long partial[64];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    bool producer = warp < 2;
    long long acc = 0;
    for (int c = 0; c < chunks; c++) {
        int b = c & 1;
        if (producer) {
            if (c >= 2) barSync(3 + b, 128);          // wait until the consumers emptied it
            int t = warp * 32 + lane;
            stage[b][t] = in[c * CHUNK + t] * (b ? 3 : 1);
            __threadfence_block();
            barArrive(1 + b, 128);                    // stage b is full
        } else {
            barSync(1 + b, 128);
            int t = (warp - 2) * 32 + lane;
            acc += stage[b][t] + stage[b][CHUNK - 1 - t];
            if (c + 2 < chunks) barArrive(3 + b, 128); // stage b may be refilled
        }
    }
    if (!producer) partial[(warp - 2) * 32 + lane] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        long long s = 0;
        for (int i = 0; i < 64; i++) s += partial[i];
        out[blockIdx.x] = s;
    }
}

__global__ void counts(const int *in, int *out)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int c = __syncthreads_count(v > 50);
    int a = __syncthreads_and(v >= 0);
    int o = __syncthreads_or(v == 99);
    if (threadIdx.x == 0) { out[blockIdx.x * 3] = c; out[blockIdx.x * 3 + 1] = a; out[blockIdx.x * 3 + 2] = o; }
}

int main()
{
    const int chunks = 50, blocks = 3;
    int *h = (int *)malloc(blocks * chunks * CHUNK * 4);
    for (int i = 0; i < blocks * chunks * CHUNK; i++) h[i] = (i * 37) % 101;
    int *d;
    long long *o, ho[blocks];
    CK(cudaMalloc(&d, blocks * chunks * CHUNK * 4));
    CK(cudaMalloc(&o, sizeof ho));
    CK(cudaMemcpy(d, h, blocks * chunks * CHUNK * 4, cudaMemcpyHostToDevice));
    for (int b = 0; b < blocks; b++) pipeline<<<1, 128>>>(d + b * chunks * CHUNK, chunks, o + b);
    CK(cudaGetLastError());
    CK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        long long ref = 0;
        for (int c = 0; c < chunks; c++)
            for (int t = 0; t < CHUNK; t++) ref += 2LL * h[b * chunks * CHUNK + c * CHUNK + t] * ((c & 1) ? 3 : 1);
        printf("pipeline %d: %lld (host %lld)\n", b, ho[b], ref);
    }
    int *dc, hc[3 * 8];
    CK(cudaMalloc(&dc, sizeof hc));
    counts<<<8, 256>>>(d, dc);
    CK(cudaMemcpy(hc, dc, sizeof hc, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 8; b++) printf("block %d: count %d and %d or %d\n", b, hc[3 * b], hc[3 * b + 1], hc[3 * b + 2]);
    return 0;
}
