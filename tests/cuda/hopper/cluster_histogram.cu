// Distributed shared memory as the CUDA Programming Guide's cluster histogram uses it: each
// block of a cluster holds a slice of the bins in its shared memory and every thread adds
// to the slice of whichever block owns its bin (map_shared_rank + atomicAdd), for clusters
// of 2, 4, 8 and (non-portable) 16 blocks. Then a 2x2 cluster in a 3-D grid: the cluster
// special registers and cluster_group's view of them, generic loads of another block's
// shared memory, red on shared::cluster addresses and an atom.exch with the next rank, an mbarrier arrive on another
// block's barrier and fence.acq_rel.cluster.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <vector>
namespace cg = cooperative_groups;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void cluster_hist(int *bins, int nbins, int bins_per_block, const int *input, size_t n) {
    extern __shared__ int smem[];
    int tid = (int)cg::this_grid().thread_rank();
    cg::cluster_group cluster = cg::this_cluster();
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) smem[i] = 0;
    cluster.sync();  // every block's slice is zeroed (and every block has started)
    for (size_t i = tid; i < n; i += blockDim.x * gridDim.x) {
        int binid = input[i];
        if (binid < 0) binid = 0;
        else if (binid >= nbins) binid = nbins - 1;
        int *dst = cluster.map_shared_rank(smem, binid / bins_per_block);
        atomicAdd(dst + binid % bins_per_block, 1);
    }
    cluster.sync();  // no block exits while others may still add to its slice
    int *lbins = bins + cluster.block_rank() * bins_per_block;
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) atomicAdd(&lbins[i], smem[i]);
}

__device__ uint32_t sreg_x(int which) {
    uint32_t v = 0;
    switch (which) {
    case 0: asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v)); break;
    case 1: asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v)); break;
    case 2: asm volatile("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(v)); break;
    case 3: asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(v)); break;
    case 4: asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(v)); break;
    case 5: asm volatile("mov.u32 %0, %%clusterid.z;" : "=r"(v)); break;
    case 6: asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(v)); break;
    case 7: asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(v)); break;
    case 8: asm volatile("mov.u32 %0, %%nclusterid.z;" : "=r"(v)); break;
    case 9: asm volatile("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v)); break;
    default: asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v)); break;
    }
    return v;
}

// A 2x2 cluster: registers, generic reads of the next rank's array, red.shared::cluster
// into rank 0's counter, atom.shared::cluster exchange with the next rank, and an mbarrier in
// rank 0 that every block's thread 0 arrives on remotely.
__global__ void __cluster_dims__(2, 2, 1) square(uint32_t *out) {
    __shared__ uint32_t arr[64];
    __shared__ uint32_t counter, swap;
    __shared__ uint64_t bar;
    cg::cluster_group cl = cg::this_cluster();
    uint32_t rank = cl.block_rank();
    int t = threadIdx.x;
    uint32_t blk = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    arr[t] = blk * 100 + t;
    if (t == 0) {
        counter = 0;
        swap = 1000 + rank;
        uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 4;" :: "r"(b));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;" ::: "memory");
    // generic loads of the next rank's array
    const volatile uint32_t *next = cl.map_shared_rank(arr, (rank + 1) % 4);
    uint32_t got = next[63 - t];
    // red.shared::cluster into rank 0's counter
    uint32_t cnt0 = (uint32_t)__cvta_generic_to_shared(&counter), rc;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(rc) : "r"(cnt0));
    asm volatile("red.relaxed.cluster.shared::cluster.add.u32 [%0], %1;" :: "r"(rc), "r"(rank + 1) : "memory");
    uint32_t old = 0;
    if (t == 0) {
        uint32_t sw = (uint32_t)__cvta_generic_to_shared(&swap), rs;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rs) : "r"(sw), "r"((rank + 1) % 4));
        asm volatile("atom.shared::cluster.exch.b32 %0, [%1], %2;" : "=r"(old) : "r"(rs), "r"(rank) : "memory");
        uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar), rb;
        asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(rb) : "r"(b));
        asm volatile("fence.acq_rel.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(rb) : "memory");
    }
    if (rank == 0 && t == 0) {
        uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
        asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], 0;\n @!p bra W;\n}" :: "r"(b) : "memory");
    }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n barrier.cluster.wait.aligned;" ::: "memory");
    uint32_t *o = out + blk * 80;
    o[t] = got;
    if (t == 0) {
        for (int i = 0; i < 11; i++) o[64 + i] = sreg_x(i);
        o[75] = rank == 0 ? counter : 0;
        o[76] = old;
        o[77] = swap;
        dim3 bi = cl.block_index();
        o[78] = bi.x + 10 * bi.y + 100 * bi.z;
        o[79] = cl.num_blocks() * 100 + cl.dim_blocks().x * 10 + cl.dim_blocks().y;
    }
    cl.sync();
}

int main() {
    const int nbins = 512, n = 1 << 15;
    std::vector<int> in(n);
    uint32_t s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        in[i] = (int)(s >> 8) % (nbins + 40) - 20;  // some below 0 and above the last bin
    }
    std::vector<int> ref(nbins, 0);
    for (int v : in) ref[v < 0 ? 0 : v >= nbins ? nbins - 1 : v]++;
    int *din, *dbins;
    CK(cudaMalloc(&din, n * sizeof(int)));
    CK(cudaMalloc(&dbins, nbins * sizeof(int)));
    CK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaFuncSetAttribute(cluster_hist, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    for (int cs : {2, 4, 8, 16}) {
        int per_block = nbins / cs;
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute a[1];
        a[0].id = cudaLaunchAttributeClusterDimension;
        a[0].val.clusterDim.x = cs; a[0].val.clusterDim.y = 1; a[0].val.clusterDim.z = 1;
        cfg.gridDim = dim3(cs * 4); cfg.blockDim = dim3(128);
        cfg.dynamicSmemBytes = per_block * sizeof(int); cfg.attrs = a; cfg.numAttrs = 1;
        CK(cudaMemset(dbins, 0, nbins * sizeof(int)));
        CK(cudaLaunchKernelEx(&cfg, cluster_hist, dbins, nbins, per_block, (const int *)din, (size_t)n));
        CK(cudaDeviceSynchronize());
        std::vector<int> got(nbins);
        CK(cudaMemcpy(got.data(), dbins, nbins * sizeof(int), cudaMemcpyDeviceToHost));
        // the grid's threads share the input; each cluster adds what it counted to the bins
        bool ok = true;
        long sum = 0;
        for (int i = 0; i < nbins; i++) { ok &= got[i] == ref[i]; sum += got[i]; }
        printf("cluster of %2d: histogram %s, total %ld, bins 0 1 255 511: %d %d %d %d\n", cs,
               ok ? "PASS" : "FAIL", sum, got[0], got[1], got[255], got[511]);
    }
    uint32_t *dout;
    const int blocks = 4 * 4 * 2;
    CK(cudaMalloc(&dout, blocks * 80 * 4));
    CK(cudaMemset(dout, 0, blocks * 80 * 4));
    square<<<dim3(4, 4, 2), 64>>>(dout);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<uint32_t> o(blocks * 80);
    CK(cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        const uint32_t *p = &o[b * 80];
        uint32_t h = 2166136261u;
        for (int t = 0; t < 64; t++) h = (h ^ p[t]) * 16777619u;
        printf("block %2d: cctaid %u,%u,%u clusterid %u,%u,%u ncluster %u,%u,%u cnctaid.y %u rank %u counter %u old %u swap %u index %u dims %u next[63] %u hash %08x\n",
               b, p[64], p[65], p[66], p[67], p[68], p[69], p[70], p[71], p[72], p[73], p[74],
               p[75], p[76], p[77], p[78], p[79], p[0], h);
    }
    return 0;
}
