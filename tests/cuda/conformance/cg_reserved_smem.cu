// Reserved shared memory (sm_80 and later): the 1 KB the driver keeps at the start of
// every block's shared window, which cooperative groups use for the barriers of tiles
// wider than a warp. Prints the %reserved_smem_offset_* registers, %total_smem_size,
// where static and dynamic shared variables start, the reserved words' contents at block
// start, and a 64-thread tile's rank and sync. (Tile<64> shfl is left out: it does not
// finish on an H200 with CUDA 13.0.)
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void regs(unsigned *o) {
    __shared__ int a[3];
    extern __shared__ int dyn[];
    unsigned r[8];
    asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(r[0]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(r[1]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(r[2]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(r[3]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(r[4]));
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(r[5]));
    r[6] = (unsigned)__cvta_generic_to_shared(a);
    r[7] = (unsigned)__cvta_generic_to_shared(dyn);
    a[threadIdx.x % 3] = 1;
    if (threadIdx.x == 0) for (int i = 0; i < 8; i++) o[i] = r[i];
    // the reserved words' contents at block start
    unsigned *res = (unsigned *)__cvta_shared_to_generic(r[4]);
    if (threadIdx.x < 8) o[8 + threadIdx.x] = res[threadIdx.x];
}
__global__ void t64k(const int *in, unsigned *o, int step) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<64> t = cg::tiled_partition<64>(block);
    int v = in[block.thread_rank()];
    unsigned x = t.thread_rank() | (t.meta_group_rank() << 8);
    if (step >= 1) t.sync();
    if (step >= 2) x += t.shfl(v, 63 - (int)t.thread_rank()) << 12;
    if (step >= 3) x ^= t.any(v == 77) | (t.all(v >= 0) << 1);
    if (step >= 4) x += cg::reduce(t, v, cg::plus<int>()) << 4;
    o[block.thread_rank()] = x;
}
int main() {
    setvbuf(stdout, NULL, _IONBF, 0);
    unsigned *d, h[256]; int *din, hin[256];
    for (int i = 0; i < 256; i++) hin[i] = (i * 7919 + 13) % 1000;
    cudaMalloc(&d, 1024); cudaMalloc(&din, 1024);
    cudaMemcpy(din, hin, 1024, cudaMemcpyHostToDevice);
    int att; cudaDeviceGetAttribute(&att, cudaDevAttrReservedSharedMemoryPerBlock, 0);
    printf("reserved per block %d\n", att);
    for (int dynsz = 0; dynsz <= 4096; dynsz += 4096) {
        regs<<<1, 32, dynsz>>>(d);
        printf("regs dyn %d: %s", dynsz, cudaGetErrorName(cudaDeviceSynchronize()));
        cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
        for (int i = 0; i < 16; i++) printf(" %x", h[i]);
        printf("\n");
    }
    for (int step = 0; step <= 1; step++) {
        t64k<<<1, 128>>>(din, d, step);
        printf("t64 step %d: %s", step, cudaGetErrorName(cudaDeviceSynchronize()));
        cudaMemcpy(h, d, 512, cudaMemcpyDeviceToHost);
        unsigned long long hs = 0; for (int i = 0; i < 128; i++) hs = hs * 1000003 + h[i];
        printf(" %llx %x %x %x\n", hs, h[0], h[63], h[127]); fflush(stdout);
    }
    return 0;
}
