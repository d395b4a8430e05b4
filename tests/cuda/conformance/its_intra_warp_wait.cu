// Independent thread scheduling (Volta and later) within one warp: lanes of one warp that
// wait, in one branch, for something lanes of the same warp do in another branch. A GPU
// runs the other branch while the waiting lanes spin, so every kernel here finishes and
// its results follow from its logic alone: a flag polled with atomicAdd(.., 0), a
// volatile load or an acquire load (with and without __nanosleep), a ping-pong between
// two lanes of one warp, a wait nested two branches deep, and cuda::barrier with one lane
// arriving for four (arrive(4) then wait) while lanes 4-31 of its warp arrive_and_wait.
#include <cstdio>
#include <cstdlib>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda_runtime.h>

#pragma nv_diag_suppress static_var_with_dynamic_init

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

enum { POLL_ATOMIC, POLL_VOLATILE, POLL_ACQUIRE, POLL_ATOMIC_NOSLEEP, POLL_VOLATILE_NOSLEEP };

__device__ int poll(int *flag, int how)
{
    switch (how) {
    case POLL_ATOMIC: case POLL_ATOMIC_NOSLEEP: return atomicAdd(flag, 0);
    case POLL_VOLATILE: case POLL_VOLATILE_NOSLEEP: return *(volatile int *)flag;
    default: return cuda::atomic_ref<int, cuda::thread_scope_block>(*flag).load(
                 cuda::std::memory_order_acquire);
    }
}

// Lane 0 of every warp waits for lane 1 of its warp to raise the warp's flag (in shared
// or global memory); the other lanes count themselves in. Reversed: lanes 4-31 wait for
// lane 0, and lanes 1-3 take neither branch.
template <int HOW>
__global__ void flagKernel(int *gflags, int *out, bool shared, bool reversed)
{
    __shared__ int sflags[8];
    unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int *flags = shared ? sflags : gflags + blockIdx.x * 8;
    if (lane == 0) flags[warp] = 0;
    __syncthreads();
    bool waits = reversed ? lane >= 4 : lane == 0;
    bool raises = reversed ? lane == 0 : lane == 1;
    if (raises) {
        atomicExch(&flags[warp], 1);
        atomicAdd(&out[blockIdx.x], 1000);
    } else if (waits) {
        while (poll(&flags[warp], HOW) == 0)
            if (HOW != POLL_ATOMIC_NOSLEEP && HOW != POLL_VOLATILE_NOSLEEP) __nanosleep(100);
        atomicAdd(&out[blockIdx.x], 1);
    }
}

// Lanes 0 and 1 of a warp take turns 50 times: each waits for the other's move.
__global__ void pingPongKernel(int *out)
{
    __shared__ int turn[4];
    unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) turn[warp] = 0;
    __syncwarp();
    int moves = 0;
    if (lane < 2) {
        for (int k = 0; k < 50; k++) {
            int mine = 2 * k + (int)lane;
            while (atomicAdd(&turn[warp], 0) != mine) __nanosleep(32);
            atomicExch(&turn[warp], mine + 1);
            moves++;
        }
    }
    atomicAdd(&out[0], moves);
    if (lane == 0) atomicAdd(&out[1], turn[warp]);
}

// The waiting lane is two branches deep; the lanes it waits for are in the outer branch.
__global__ void nestedKernel(int *out)
{
    __shared__ int flag;
    __shared__ int count;
    unsigned lane = threadIdx.x;
    if (lane == 0) { flag = 0; count = 0; }
    __syncwarp();
    if (lane < 16) {
        if (lane < 2) {
            if (lane == 0) {
                while (*(volatile int *)&flag < 32) __nanosleep(10);
                out[0] = count;
            }
        }
    } else {
        atomicAdd(&count, 1);
        __threadfence_block(); // the count is in before the flag says so
        atomicAdd(&flag, 2);
    }
    __syncwarp();
    if (lane == 0) out[1] = flag;
}

struct NoCompletion { __device__ void operator()() noexcept {} };
struct PhaseCount {
    int *phases;
    __device__ void operator()() noexcept { ++*phases; }
};

// cuda::barrier: lane 0 of warp 0 arrives for lanes 0-3 and waits; lanes 4-31 of its warp
// (in another branch) and the other warps arrive_and_wait. Three phases. Without a
// completion function the barrier is an mbarrier; with one, libcu++ waits by polling the
// phase word with acquire loads and __nanosleep.
template <bool COMPLETION>
__global__ void barrierKernel(int *out)
{
    using Completion = typename cuda::std::conditional<COMPLETION, PhaseCount, NoCompletion>::type;
    __shared__ cuda::barrier<cuda::thread_scope_block, Completion> bar;
    __shared__ int data[128];
    __shared__ int phases;
    unsigned tid = threadIdx.x;
    if (tid == 0) {
        phases = 0;
        if constexpr (COMPLETION) init(&bar, blockDim.x, PhaseCount{&phases});
        else init(&bar, blockDim.x);
    }
    __syncthreads();
    for (int phase = 0; phase < 3; phase++) {
        // lane 0 writes for the lanes it arrives for (1-3 stay out of the barrier)
        if (tid == 0)
            for (int i = 0; i < 4; i++) data[i] = i * (phase + 1);
        else if (tid >= 4)
            data[tid] = (int)tid * (phase + 1);
        if (tid == 0) {
            auto tok = bar.arrive(4);
            bar.wait(cuda::std::move(tok));
        } else if (tid >= 4) {
            bar.arrive_and_wait();
        }
        if (tid == 0 || tid >= 4) {
            int s = 0;
            for (int i = 0; i < 128; i++) s += data[i];
            atomicAdd(&out[phase], s);
        }
        __syncthreads();
    }
    if (tid == 0) out[3] = phases;
}

int main()
{
    int *d_out, *d_flags, h[8];
    CHECK(cudaMalloc(&d_out, 8 * sizeof(int)));
    CHECK(cudaMalloc(&d_flags, 2 * 8 * sizeof(int)));
    const char *names[] = {"atomicAdd+nanosleep", "volatile+nanosleep", "ld.acquire+nanosleep",
                           "atomicAdd", "volatile"};
    for (int variant = 0; variant < 4; variant++) {
        bool shared = variant & 1, reversed = variant >> 1;
        for (int how = 0; how < 5; how++) {
            CHECK(cudaMemset(d_out, 0, 8 * sizeof(int)));
            CHECK(cudaMemset(d_flags, 0, 2 * 8 * sizeof(int)));
            switch (how) {
            case 0: flagKernel<0><<<2, 256>>>(d_flags, d_out, shared, reversed); break;
            case 1: flagKernel<1><<<2, 256>>>(d_flags, d_out, shared, reversed); break;
            case 2: flagKernel<2><<<2, 256>>>(d_flags, d_out, shared, reversed); break;
            case 3: flagKernel<3><<<2, 256>>>(d_flags, d_out, shared, reversed); break;
            default: flagKernel<4><<<2, 256>>>(d_flags, d_out, shared, reversed); break;
            }
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(h, d_out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
            printf("flag %-22s %s%s: block counts %d %d\n", names[how],
                   shared ? "shared" : "global", reversed ? " reversed" : "", h[0], h[1]);
        }
    }

    CHECK(cudaMemset(d_out, 0, 8 * sizeof(int)));
    pingPongKernel<<<1, 128>>>(d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d_out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("ping-pong: moves %d, final turns %d\n", h[0], h[1]);

    CHECK(cudaMemset(d_out, 0, 8 * sizeof(int)));
    nestedKernel<<<1, 32>>>(d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d_out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("nested: count seen %d, flag %d\n", h[0], h[1]);

    for (int completion = 0; completion < 2; completion++) {
        CHECK(cudaMemset(d_out, 0, 8 * sizeof(int)));
        if (completion) barrierKernel<true><<<1, 128>>>(d_out);
        else barrierKernel<false><<<1, 128>>>(d_out);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(h, d_out, 4 * sizeof(int), cudaMemcpyDeviceToHost));
        printf("barrier arrive(4)+wait%s: phase sums %d %d %d, completions %d\n",
               completion ? " (completion function)" : "", h[0], h[1], h[2], h[3]);
    }

    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_flags));
    printf("done\n");
    return 0;
}
