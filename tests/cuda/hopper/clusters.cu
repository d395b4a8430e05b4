// Thread block clusters beyond a cluster of one: __cluster_dims__ and the launch attribute,
// the cluster special registers, distributed shared memory (map_shared_rank, mapa,
// ld/st/atom on shared::cluster), barrier.cluster, cluster_group in cooperative groups,
// cudaOccupancyMaxActiveClusters and a bulk copy multicast to every block of a cluster.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <vector>
namespace cg = cooperative_groups;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ uint32_t sreg(int which) {
    uint32_t v = 0;
    switch (which) {
    case 0: asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v)); break;
    case 1: asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(v)); break;
    case 2: asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(v)); break;
    case 3: asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(v)); break;
    case 4: asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v)); break;
    case 5: asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v)); break;
    default: { uint32_t p; asm volatile("{ .reg .pred q; mov.pred q, %%is_explicit_cluster; selp.u32 %0, 1, 0, q; }" : "=r"(p)); v = p; }
    }
    return v;
}

// Each block fills its shared array, the cluster syncs, each block reads its neighbour's
// array through DSMEM and adds to a histogram in rank 0's shared memory.
__global__ void __cluster_dims__(2, 1, 1) neighbours(uint32_t *out) {
    __shared__ uint32_t data[128];
    __shared__ uint32_t hist[16];
    cg::cluster_group cl = cg::this_cluster();
    uint32_t rank = cl.block_rank(), n = cl.num_blocks();
    int t = threadIdx.x;
    data[t] = blockIdx.x * 1000 + t;
    if (t < 16) hist[t] = 0;
    cl.sync();
    uint32_t *peer = cl.map_shared_rank(data, (rank + 1) % n);
    uint32_t v = peer[(t + 5) % 128];
    uint32_t *h0 = cl.map_shared_rank(hist, 0);
    atomicAdd(&h0[v % 16], 1u);
    cl.sync();
    out[blockIdx.x * 128 + t] = v;
    if (rank == 0 && t < 16) out[gridDim.x * 128 + (blockIdx.x / 2) * 16 + t] = hist[t];
    if (t == 0) {
        uint32_t *s = out + gridDim.x * 128 + gridDim.x * 8 + blockIdx.x * 8;
        for (int i = 0; i < 7; i++) s[i] = sreg(i);
        s[7] = cl.dim_blocks().x;
    }
}

// Launched with the cluster attribute (4 blocks): raw PTX mapa / getctarank /
// st.shared::cluster / barrier.cluster.arrive+wait.
__global__ void raw_ptx(uint32_t *out) {
    __shared__ uint32_t slot[4];
    int t = threadIdx.x;
    uint32_t rank = sreg(0);
    if (t < 4) slot[t] = 0;
    asm volatile("barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (t < 4) {
        uint32_t local = (uint32_t)__cvta_generic_to_shared(&slot[rank]), remote, owner;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"((uint32_t)t));
        asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(owner) : "r"(remote));
        asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(remote), "r"(rank * 10 + owner + 100) : "memory");
    }
    asm volatile("barrier.cluster.arrive.aligned;\n barrier.cluster.wait.aligned;" ::: "memory");
    if (t < 4) out[blockIdx.x * 4 + t] = slot[t];
}

// Multicast: rank 0 copies 256 bytes from global into the same shared offset of every
// block of a 2-block cluster, each block's mbarrier receiving the bytes.
__global__ void __cluster_dims__(2, 1, 1) multicast(const uint32_t *in, uint32_t *out) {
    __shared__ alignas(128) uint32_t buf[64];
    __shared__ uint64_t bar;
    cg::cluster_group cl = cg::this_cluster();
    int t = threadIdx.x;
    uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" :: "r"(b) : "memory");
    }
    cl.sync();
    if (cl.block_rank() == 0 && t == 0)
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], 256, [%2], %3;"
                     :: "r"((uint32_t)__cvta_generic_to_shared(buf)), "l"(in + blockIdx.x / 2 * 64), "r"(b), "h"((uint16_t)3) : "memory");
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n @!p bra W;\n}" :: "r"(b) : "memory");
    if (t < 64) out[blockIdx.x * 64 + t] = buf[t] + cl.block_rank();
    cl.sync();
}

int main() {
    uint32_t *dout, *din;
    CK(cudaMalloc(&dout, 1 << 16));
    CK(cudaMalloc(&din, 1 << 12));
    std::vector<uint32_t> in(1024);
    for (int i = 0; i < 1024; i++) in[i] = i * 7 + 3;
    CK(cudaMemcpy(din, in.data(), 4096, cudaMemcpyHostToDevice));

    CK(cudaMemset(dout, 0, 1 << 16));
    neighbours<<<4, 128>>>(dout);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<uint32_t> h(4 * 128 + 2 * 16 + 4 * 8);
    CK(cudaMemcpy(h.data(), dout, h.size() * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int bk = 0; bk < 4; bk++)
        for (int t = 0; t < 128; t++) {
            int peer = (bk ^ 1);
            ok &= h[bk * 128 + t] == (uint32_t)(peer * 1000 + (t + 5) % 128);
        }
    printf("neighbours via map_shared_rank: %s\n", ok ? "PASS" : "FAIL");
    for (int c = 0; c < 2; c++) {
        printf("  cluster %d histogram:", c);
        for (int i = 0; i < 16; i++) printf(" %u", h[512 + c * 16 + i]);
        printf("\n");
    }
    for (int bk = 0; bk < 4; bk++) {
        const uint32_t *s = &h[512 + 32 + bk * 8];
        printf("  block %d: ctarank %u nctarank %u clusterid %u nclusterid %u cluster_ctaid %u cluster_nctaid %u explicit %u dim_blocks %u\n",
               bk, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
    }

    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 4; attr[0].val.clusterDim.y = 1; attr[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3(8); cfg.blockDim = dim3(64); cfg.attrs = attr; cfg.numAttrs = 1;
    CK(cudaMemset(dout, 0, 1 << 16));
    CK(cudaLaunchKernelEx(&cfg, raw_ptx, dout));
    CK(cudaDeviceSynchronize());
    std::vector<uint32_t> r(32);
    CK(cudaMemcpy(r.data(), dout, 128, cudaMemcpyDeviceToHost));
    printf("raw mapa/getctarank/st.shared::cluster/barrier.cluster:");
    for (int i = 0; i < 32; i++) printf(" %u", r[i]);
    printf("\n");

    CK(cudaMemset(dout, 0, 1 << 16));
    multicast<<<4, 64>>>(din, dout);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<uint32_t> m(256);
    CK(cudaMemcpy(m.data(), dout, 1024, cudaMemcpyDeviceToHost));
    ok = true;
    for (int bk = 0; bk < 4; bk++)
        for (int t = 0; t < 64; t++) ok &= m[bk * 64 + t] == in[(bk / 2) * 64 + t] + (bk & 1);
    printf("multicast bulk copy to both blocks of a cluster: %s\n", ok ? "PASS" : "FAIL");

    for (int cs : {1, 2, 4, 8, 16}) {
        cudaLaunchConfig_t c = {};
        cudaLaunchAttribute a[1];
        a[0].id = cudaLaunchAttributeClusterDimension;
        a[0].val.clusterDim.x = cs; a[0].val.clusterDim.y = 1; a[0].val.clusterDim.z = 1;
        c.gridDim = dim3(cs * 16); c.blockDim = dim3(128); c.attrs = a; c.numAttrs = 1;
        if (cs == 16) CK(cudaFuncSetAttribute(raw_ptx, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        int n = -1;
        cudaError_t e = cudaOccupancyMaxActiveClusters(&n, raw_ptx, &c);
        printf("cudaOccupancyMaxActiveClusters(cluster %d, 128 threads): %s %d\n", cs, cudaGetErrorName(e), n);
        c.dynamicSmemBytes = 100 * 1024;
        CK(cudaFuncSetAttribute(raw_ptx, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
        e = cudaOccupancyMaxActiveClusters(&n, raw_ptx, &c);
        printf("  with 100 KiB dynamic shared memory: %s %d\n", cudaGetErrorName(e), n);
    }
    cudaLaunchConfig_t bad = cfg;
    cudaLaunchAttribute ba[1];
    ba[0].id = cudaLaunchAttributeClusterDimension;
    ba[0].val.clusterDim.x = 3; ba[0].val.clusterDim.y = 1; ba[0].val.clusterDim.z = 1;
    bad.attrs = ba; bad.gridDim = dim3(8);
    cudaError_t e = cudaLaunchKernelEx(&bad, raw_ptx, dout);
    printf("grid 8 with cluster 3: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    ba[0].val.clusterDim.x = 16;
    bad.gridDim = dim3(16);
    CK(cudaFuncSetAttribute(raw_ptx, cudaFuncAttributeNonPortableClusterSizeAllowed, 0));
    e = cudaLaunchKernelEx(&bad, raw_ptx, dout);
    printf("cluster 16 without the non-portable attribute: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
