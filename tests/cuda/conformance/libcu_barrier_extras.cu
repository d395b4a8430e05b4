// More of cuda::barrier and cuda::std::atomic on the device: a barrier with a completion
// function (run once per phase), arrive(n) with an update count, cuda::memcpy_async
// completing on a barrier, cuda::std::atomic_flag test_and_set / clear, and
// cuda::std::atomic wait / notify_all between warps of one block.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda_runtime.h>

#pragma nv_diag_suppress static_var_with_dynamic_init
namespace cg = cooperative_groups;

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define THREADS 128

struct PhaseCount {
    int *phases;
    __device__ void operator()() noexcept { ++*phases; }
};

__global__ void completionKernel(const int *in, unsigned *out)
{
    __shared__ int phases;
    __shared__ int data[THREADS];
    __shared__ cuda::barrier<cuda::thread_scope_block, PhaseCount> bar;
    unsigned tid = threadIdx.x;
    if (tid == 0) {
        phases = 0;
        init(&bar, blockDim.x, PhaseCount{&phases});
    }
    __syncthreads();
    int v = in[tid];
    for (int k = 0; k < 5; k++) {
        data[tid] = v;
        bar.arrive_and_wait();
        v = data[(tid + k + 1) % THREADS] + phases;
        bar.arrive_and_wait();
    }
    // thread 0 arrives for its whole warp at once; lanes 1-31 stay out of this phase.
    // (Lanes of one warp that wait in one branch for arrivals from another branch of
    // the same warp are in its_intra_warp_wait.cu, whose output is not a GPU recording.)
    if (tid == 0) {
        auto tok = bar.arrive(32);
        bar.wait(cuda::std::move(tok));
    } else if (tid >= 32) {
        bar.arrive_and_wait();
    }
    out[tid] = (unsigned)v;
    if (tid == 0) out[THREADS] = (unsigned)phases;
}

// Copies that complete on a barrier rather than on a pipeline.
__global__ void barrierCopyKernel(const int *in, unsigned *out)
{
    __shared__ int s[2][THREADS];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, s[0], in, sizeof(int) * THREADS, bar);
    cuda::memcpy_async(&s[1][threadIdx.x], &in[THREADS + (threadIdx.x * 3) % THREADS],
                       sizeof(int), bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = (unsigned)(s[0][(threadIdx.x * 5) % THREADS] * 1000 + s[1][threadIdx.x]);
}

// atomic_flag as a lock, and wait/notify between warps.
__global__ void flagKernel(unsigned *out)
{
    __shared__ cuda::std::atomic_flag lock;
    __shared__ cuda::atomic<int, cuda::thread_scope_block> stage;
    __shared__ int total;
    unsigned tid = threadIdx.x;
    if (tid == 0) { lock.clear(); stage.store(0); total = 0; }
    __syncthreads();
    // one lane per warp takes the lock in turn (lanes of a warp would spin on each other)
    if (tid % 32 == 0) {
        while (lock.test_and_set(cuda::std::memory_order_acquire)) {}
        total += (int)tid / 32 + 1;   // a sum: the same in any lock order
        lock.clear(cuda::std::memory_order_release);
    }
    __syncthreads();
    int seen = -1;
    if (tid / 32 == 1) {
        if (tid == 32) { stage.store(7, cuda::std::memory_order_release); stage.notify_all(); }
    } else {
        stage.wait(0, cuda::std::memory_order_acquire);   // returns once stage != 0
        seen = stage.load(cuda::std::memory_order_acquire);
    }
    __syncthreads();
    out[tid] = (unsigned)seen;
    if (tid == 0) out[THREADS] = (unsigned)total;
}

int main()
{
    unsigned *d, h[THREADS + 1];
    int hin[2 * THREADS], *din;
    for (int i = 0; i < 2 * THREADS; i++) hin[i] = (i * 7919 + 13) % 1000;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMalloc(&din, sizeof hin));
    CHECK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));

    completionKernel<<<1, THREADS>>>(din, d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("completion phases %u:", h[THREADS]);
    for (int i = 0; i < 8; i++) printf(" %u", h[i]);
    unsigned s = 0;
    for (int i = 0; i < THREADS; i++) s = s * 31 + h[i];
    printf(" hash %08x\n", s);

    barrierCopyKernel<<<1, THREADS>>>(din, d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("barrier copy:");
    for (int i = 0; i < 8; i++) printf(" %u", h[i]);
    s = 0;
    for (int i = 0; i < THREADS; i++) s = s * 31 + h[i];
    printf(" hash %08x\n", s);

    flagKernel<<<1, THREADS>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int sevens = 0, none = 0;
    for (int i = 0; i < THREADS; i++) { sevens += h[i] == 7; none += h[i] == 0xffffffffu; }
    printf("flag: %d saw 7, %d did not wait, lock total %u\n", sevens, none, h[THREADS]);
    printf("done\n");
    return 0;
}
