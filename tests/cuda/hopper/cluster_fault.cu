// Distributed shared memory used wrongly, as the GPU reports it: first a block writes to
// the shared memory of a block of its cluster that has already exited (an H200 lets it
// through; compute-sanitizer reports it), then a block maps a rank its cluster does not
// have and stores there (an unspecified launch failure). With an argument ("exited" or
// "outside") only that case runs. expected/cluster_fault.h200.txt holds the H200's runs of
// each case alone, plain and under compute-sanitizer.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) after_exit(int *out) {
    __shared__ int s[32];
    cg::cluster_group cl = cg::this_cluster();
    s[threadIdx.x] = threadIdx.x;
    cl.sync();
    if (cl.block_rank() == 1) return;  // rank 1 leaves at once
    uint64_t t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); while (t - t0 < 20000000ull);
    int *peer = cl.map_shared_rank(s, 1);
    peer[threadIdx.x] = 7;
    out[blockIdx.x * 32 + threadIdx.x] = peer[threadIdx.x];
}

__global__ void __cluster_dims__(2, 1, 1) outside(int *out) {
    __shared__ int s[32];
    cg::cluster_group cl = cg::this_cluster();
    s[threadIdx.x] = threadIdx.x;
    cl.sync();
    uint32_t a = (uint32_t)__cvta_generic_to_shared(&s[threadIdx.x]), r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 5;" : "=r"(r) : "r"(a));
    asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(r), "r"(9) : "memory");
    cl.sync();
    out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

static void run(bool exited, int *out) {
    if (exited) after_exit<<<2, 32>>>(out);
    else outside<<<2, 32>>>(out);
    printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    int h[64] = {0};
    printf("copy: %s\n", cudaGetErrorName(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost)));
    printf("out[0] %d out[5] %d\n", h[0], h[5]);
}

int main(int argc, char **argv) {
    int *out;
    cudaMalloc(&out, 4096);
    cudaMemset(out, 0, 4096);
    if (argc < 2 || !strcmp(argv[1], "exited")) run(true, out);
    if (argc < 2 || !strcmp(argv[1], "outside")) run(false, out);
    return 0;
}
