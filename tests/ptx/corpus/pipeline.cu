// Asynchronous copies: cuda::memcpy_async with cuda::barrier, the pipeline primitives,
// cuda::pipeline, and prefetch hints.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

extern "C" __global__ void async_copy(const int *in, int *out) {
    __shared__ int buf[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, buf, in, sizeof buf, bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = buf[255 - threadIdx.x];
}

extern "C" __global__ void pipeline_prims(const float4 *in, float4 *out) {
    __shared__ float4 s[128];
    __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[threadIdx.x] = s[127 - threadIdx.x];
}

extern "C" __global__ void cg_memcpy(const int *in, int *out) {
    __shared__ int buf[512];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, buf, in, sizeof(int) * 512);
    cg::wait(block);
    out[threadIdx.x] = buf[threadIdx.x * 2];
}

extern "C" __global__ void pipelined(const int *in, int *out) {
    __shared__ int buf[2][128];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    for (int stage = 0; stage < 2; stage++) {
        pipe.producer_acquire();
        cuda::memcpy_async(&buf[stage][threadIdx.x], &in[stage * 128 + threadIdx.x], sizeof(int), pipe);
        pipe.producer_commit();
    }
    int sum = 0;
    for (int stage = 0; stage < 2; stage++) {
        cuda::pipeline_consumer_wait_prior<1>(pipe);
        pipe.consumer_wait();
        sum += buf[stage][threadIdx.x];
        pipe.consumer_release();
    }
    out[threadIdx.x] = sum;
}
