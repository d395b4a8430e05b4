// Kernels for tests/unit/test_exec_misc.c: special registers, named barriers, warp
// synchronisation, asynchronous copies, split barriers and the no-op instructions.
// PTX: nvcc -arch=sm_90 -diag-suppress 20054 -ptx misc.cu -o misc.ptx
#include <cuda/barrier>
#include <cuda_pipeline.h>

extern "C" __global__ void sregs(unsigned *out) {
    unsigned t = threadIdx.x + threadIdx.y * blockDim.x;
    unsigned v[12];
    asm("mov.u32 %0, %%laneid;" : "=r"(v[0]));
    asm("mov.u32 %0, %%warpid;" : "=r"(v[1]));
    asm("mov.u32 %0, %%nwarpid;" : "=r"(v[2]));
    asm("mov.u32 %0, %%smid;" : "=r"(v[3]));
    asm("mov.u32 %0, %%nsmid;" : "=r"(v[4]));
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(v[5]));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(v[6]));
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v[7]));
    asm("mov.u32 %0, %%total_smem_size;" : "=r"(v[8]));
    v[9] = threadIdx.y;
    v[10] = blockIdx.y * gridDim.x + blockIdx.x;
    unsigned long long g;
    asm("mov.u64 %0, %%gridid;" : "=l"(g));
    v[11] = (unsigned)g;
    for (int k = 0; k < 12; k++) out[t * 12 + k] = v[k];
}

// clock64 and %globaltimer move forward.
extern "C" __global__ void clocks(long long *out) {
    long long c0 = clock64();
    unsigned long long g0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    int x = threadIdx.x;
    for (int i = 0; i < 100; i++) x = x * 3 + i;
    long long c1 = clock64();
    unsigned long long g1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    out[threadIdx.x * 3] = c1 - c0;
    out[threadIdx.x * 3 + 1] = (long long)(g1 - g0);
    out[threadIdx.x * 3 + 2] = x;
}

// Producer warps arrive at named barrier 1, consumer warps wait there (64 + 64 threads).
extern "C" __global__ void producer_consumer(int *out) {
    __shared__ int buf[64];
    int t = threadIdx.x;
    if (t < 64) {
        buf[t] = t * t;
        __threadfence_block();
        asm volatile("bar.arrive 1, 128;");
    } else {
        asm volatile("bar.sync 1, 128;");
        out[t - 64] = buf[t - 64] + 1;
    }
}

// __syncwarp, nanosleep, prefetch, griddepcontrol and fences run and change nothing.
extern "C" __global__ void noops(int *out) {
    int t = threadIdx.x;
    asm volatile("griddepcontrol.wait;");
    asm volatile("prefetch.global.L2 [%0];" ::"l"(out + t));
    __nanosleep(100);
    __syncwarp();
    __threadfence();
    asm volatile("fence.acq_rel.gpu;");
    out[t] = t + 1;
    __syncwarp(0xffffffff);
    asm volatile("griddepcontrol.launch_dependents;");
}

// Asynchronous copies global -> shared, with a zero-filled tail.
extern "C" __global__ void async_copy(const int4 *in, int4 *out, int n) {
    __shared__ int4 s[64];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], sizeof(int4), t < n ? 0 : sizeof(int4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t] = s[63 - t];
}

extern "C" __global__ void breakpoint(int *out) {
    if (threadIdx.x == 7) asm volatile("brkpt;");
    out[threadIdx.x] = 1;
}

// A split barrier in shared memory (cuda::barrier -> mbarrier.init/arrive/try_wait).
extern "C" __global__ void split_barrier(int *out) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int s[128];
    int t = threadIdx.x;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    for (int round = 0; round < 3; round++) {
        s[t] = t * (round + 1);
        bar.arrive_and_wait();
        out[round * 128 + t] = s[127 - t];
        bar.arrive_and_wait();
    }
}
