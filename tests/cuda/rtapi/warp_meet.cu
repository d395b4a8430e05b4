// warp_meet.cu — lanes of a warp that ran apart meet again at a warp collective. Lane 0
// of each warp spins until memory another warp (or another block) writes changes, so the
// warp's other lanes go on ahead of it (independent thread scheduling); all then pass a
// barrier, and the warp reduces with shfl.sync, votes with ballot and reduces with
// cooperative groups: each collective names the full warp, so it waits for every lane
// (PTX ISA, shfl.sync: "wait until all non-exited threads in membermask execute it").
// Once in a plain launch where the last warp of the block releases the spinners, once in
// a cooperative launch where lane 0 of thread 0 waits in grid.sync() for the other blocks.
#include "../streams/streams_test.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ void reduce_and_vote(int *out, double v) {
    cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
    double s = v;
    for (int o = 16; o > 0; o /= 2) s += t.shfl_down(s, o);
    unsigned ballot = __ballot_sync(0xffffffffu, v != 0.0);
    int r = cg::reduce(t, (int)v, cg::plus<int>());
    if (t.thread_rank() == 0) {
        int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        out[3 * w] = (int)s;
        out[3 * w + 1] = (int)ballot;
        out[3 * w + 2] = r;
    }
}

__global__ void plain(volatile int *flag, int *out) {
    __shared__ volatile int go;
    if (threadIdx.x == 0) go = 0;
    __syncthreads();
    if (threadIdx.x % 32 == 0 && threadIdx.x != blockDim.x - 32)
        while (go == 0) { /* until the last warp says so */ }
    if (threadIdx.x == blockDim.x - 32) {
        for (int i = 0; i < 1000; i++) flag[blockIdx.x] += 1; /* takes a while */
        go = 1;
    }
    __syncthreads();
    reduce_and_vote(out, threadIdx.x % 32 < 3 ? 1.0 + threadIdx.x % 32 : 0.0);
}

__global__ void coop(int *out) {
    cg::grid_group grid = cg::this_grid();
    grid.sync();
    reduce_and_vote(out, threadIdx.x % 32 < 3 ? 1.0 + threadIdx.x % 32 : 0.0);
}

static void report(const char *what, const int *h, int warps) {
    int wrong = 0;
    for (int w = 0; w < warps; w++)
        if (h[3 * w] != 6 || h[3 * w + 1] != 7 || h[3 * w + 2] != 6) wrong++;
    printf("info %s: %d warps\n", what, warps); /* (the occupancy of the GPU's build) */
    printf("%s: %d warps wrong (warp 0: sum %d ballot 0x%x reduce %d)\n", what, wrong, h[0],
           (unsigned)h[1], h[2]);
}

int main() {
    int *flag, *out;
    OK(cudaMalloc(&flag, 64 * sizeof(int)));
    OK(cudaMemset(flag, 0, 64 * sizeof(int)));
    const int blocks = 4, threads = 256, warps = blocks * threads / 32;
    OK(cudaMalloc(&out, 3 * 65536 * sizeof(int)));
    int *h = (int *)malloc(3 * 65536 * sizeof(int));
    OK(cudaMemset(out, 0, 3 * warps * sizeof(int)));
    plain<<<blocks, threads>>>(flag, out);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, out, 3 * warps * sizeof(int), cudaMemcpyDeviceToHost));
    report("plain launch", h, warps);

    cudaDeviceProp prop;
    OK(cudaGetDeviceProperties(&prop, 0));
    int per_sm = 0;
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coop, 1024, 0));
    int cblocks = per_sm * prop.multiProcessorCount, cwarps = cblocks * 1024 / 32;
    OK(cudaMemset(out, 0, 3 * cwarps * sizeof(int)));
    void *args[] = {&out};
    OK(cudaLaunchCooperativeKernel((void *)coop, cblocks, 1024, args, 0, 0));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, out, 3 * cwarps * sizeof(int), cudaMemcpyDeviceToHost));
    report("cooperative launch, every block resident", h, cwarps);
    free(h);
    printf("done\n");
    return 0;
}
