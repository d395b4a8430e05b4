// Launching clusters: what cudaFuncGetAttributes says of __cluster_dims__, the errors of
// bad cluster shapes (grids they do not tile, sizes past the portable and the non-portable
// limit, a shape other than the compiled one, zero), a shape set at run time with
// cudaFuncAttributeRequiredClusterWidth/Height/Depth, %is_explicit_cluster, and the cluster
// occupancy calculator (cudaOccupancyMaxActiveClusters, cudaOccupancyMaxPotentialClusterSize)
// against the per-SM one for a range of block sizes and shared memory.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
namespace cg = cooperative_groups;

__device__ uint32_t g_seen[8];

__device__ void note() {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        uint32_t n, e;
        asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
        asm volatile("{ .reg .pred q; mov.pred q, %%is_explicit_cluster; selp.u32 %0, 1, 0, q; }" : "=r"(e));
        g_seen[0] = n;
        g_seen[1] = e;
        g_seen[2] = cg::this_cluster().num_blocks();
    }
}

__global__ void plain(int *p) { note(); if (p) p[threadIdx.x] = 1; }
__global__ void __cluster_dims__(2, 1, 1) pair(int *p) { note(); if (p) p[threadIdx.x] = 2; }
__global__ void __cluster_dims__(2, 2, 2) cube(int *p) { note(); if (p) p[threadIdx.x] = 3; }
__global__ void __launch_bounds__(256, 1, 4) bounded(int *p) { note(); if (p) p[threadIdx.x] = 4; }
__global__ void big(int *p) { note(); if (p) p[threadIdx.x] = 5; }

static void seen(const char *what, cudaError_t e) {
    uint32_t s[8] = {0};
    cudaError_t sync = cudaDeviceSynchronize();
    if (e == cudaSuccess && sync == cudaSuccess) {
        cudaMemcpyFromSymbol(s, g_seen, sizeof s);
        printf("%-44s cudaSuccess: nctarank %u explicit %u num_blocks %u\n", what, s[0], s[1], s[2]);
    } else {
        printf("%-44s %s (sync %s)\n", what, cudaGetErrorName(e), cudaGetErrorName(sync));
    }
    cudaGetLastError();
    uint32_t z[8] = {0};
    cudaMemcpyToSymbol(g_seen, z, sizeof z);
}

static cudaError_t ex(void (*k)(int *), dim3 grid, dim3 block, unsigned cx, unsigned cy,
                      unsigned cz, size_t smem = 0) {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = cx; a[0].val.clusterDim.y = cy; a[0].val.clusterDim.z = cz;
    cfg.gridDim = grid; cfg.blockDim = block; cfg.dynamicSmemBytes = smem;
    cfg.attrs = a; cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, k, (int *)nullptr);
}

static void attrs(const char *name, const void *k) {
    cudaFuncAttributes fa;
    cudaError_t e = cudaFuncGetAttributes(&fa, k);
    printf("%-8s %s: mustBeSet %d required %d,%d,%d nonPortable %d policy %d\n", name,
           cudaGetErrorName(e), fa.clusterDimMustBeSet, fa.requiredClusterWidth,
           fa.requiredClusterHeight, fa.requiredClusterDepth, fa.nonPortableClusterSizeAllowed,
           fa.clusterSchedulingPolicyPreference);
}

int main() {
    attrs("plain", (const void *)plain);
    attrs("pair", (const void *)pair);
    attrs("cube", (const void *)cube);
    attrs("bounded", (const void *)bounded);

    plain<<<4, 32>>>(nullptr);
    seen("plain <<<4>>>", cudaGetLastError());
    pair<<<4, 32>>>(nullptr);
    seen("pair <<<4>>>", cudaGetLastError());
    pair<<<3, 32>>>(nullptr);
    seen("pair <<<3>>>", cudaGetLastError());
    cube<<<dim3(4, 2, 2), 32>>>(nullptr);
    seen("cube <<<(4,2,2)>>>", cudaGetLastError());
    cube<<<dim3(4, 2, 1), 32>>>(nullptr);
    seen("cube <<<(4,2,1)>>>", cudaGetLastError());
    seen("plain, cluster 1x1x1", ex(plain, dim3(4), dim3(32), 1, 1, 1));
    seen("plain, cluster 4", ex(plain, dim3(8), dim3(32), 4, 1, 1));
    seen("plain, cluster 2x2 grid (4,3)", ex(plain, dim3(4, 3), dim3(32), 2, 2, 1));
    seen("plain, cluster 2x2 grid (4,4)", ex(plain, dim3(4, 4), dim3(32), 2, 2, 1));
    seen("plain, cluster 0x1x1", ex(plain, dim3(4), dim3(32), 0, 1, 1));
    seen("pair, cluster 2", ex(pair, dim3(4), dim3(32), 2, 1, 1));
    seen("pair, cluster 4", ex(pair, dim3(8), dim3(32), 4, 1, 1));
    seen("plain, cluster 8", ex(plain, dim3(16), dim3(32), 8, 1, 1));
    seen("plain, cluster 9", ex(plain, dim3(18), dim3(32), 9, 1, 1));
    seen("plain, cluster 16", ex(plain, dim3(16), dim3(32), 16, 1, 1));
    printf("non-portable allowed: %s\n",
           cudaGetErrorName(cudaFuncSetAttribute(plain, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)));
    seen("plain, cluster 9", ex(plain, dim3(18), dim3(32), 9, 1, 1));
    seen("plain, cluster 16", ex(plain, dim3(16), dim3(32), 16, 1, 1));
    seen("plain, cluster 4x4", ex(plain, dim3(4, 4), dim3(32), 4, 4, 1));
    seen("plain, cluster 17", ex(plain, dim3(17), dim3(32), 17, 1, 1));
    seen("plain, cluster 32", ex(plain, dim3(32), dim3(32), 32, 1, 1));
    seen("bounded, cluster 4", ex(bounded, dim3(8), dim3(256), 4, 1, 1));
    seen("bounded, cluster 8", ex(bounded, dim3(8), dim3(256), 8, 1, 1));
    printf("big: max dynamic shared 200 KiB: %s\n",
           cudaGetErrorName(cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024)));
    seen("big, cluster 8, 200 KiB", ex(big, dim3(8), dim3(1024), 8, 1, 1, 200 * 1024));
    seen("big, cluster 2, 200 KiB", ex(big, dim3(8), dim3(1024), 2, 1, 1, 200 * 1024));

    printf("required width 2 on plain: %s\n",
           cudaGetErrorName(cudaFuncSetAttribute(plain, cudaFuncAttributeRequiredClusterWidth, 2)));
    printf("required height 1 on plain: %s\n",
           cudaGetErrorName(cudaFuncSetAttribute(plain, cudaFuncAttributeRequiredClusterHeight, 1)));
    printf("required depth 1 on plain: %s\n",
           cudaGetErrorName(cudaFuncSetAttribute(plain, cudaFuncAttributeRequiredClusterDepth, 1)));
    printf("required width 4 on pair: %s\n",
           cudaGetErrorName(cudaFuncSetAttribute(pair, cudaFuncAttributeRequiredClusterWidth, 4)));
    cudaGetLastError();
    attrs("plain", (const void *)plain);
    plain<<<4, 32>>>(nullptr);
    seen("plain <<<4>>> after required 2x1x1", cudaGetLastError());
    plain<<<5, 32>>>(nullptr);
    seen("plain <<<5>>> after required 2x1x1", cudaGetLastError());

    // the occupancy calculators side by side
    cudaFuncSetAttribute(big, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    for (int threads : {32, 128, 256, 1024}) {
        for (int kib : {0, 48, 100}) {
            int per_sm = -1;
            cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, big, threads, kib * 1024);
            printf("%4d threads, %3d KiB: %d blocks/SM (%s); clusters:", threads, kib, per_sm, cudaGetErrorName(e));
            for (int cs : {1, 2, 3, 4, 6, 8, 12, 16}) {
                cudaLaunchConfig_t cfg = {};
                cudaLaunchAttribute a[1];
                a[0].id = cudaLaunchAttributeClusterDimension;
                a[0].val.clusterDim.x = cs; a[0].val.clusterDim.y = 1; a[0].val.clusterDim.z = 1;
                cfg.gridDim = dim3(cs * 8); cfg.blockDim = dim3(threads);
                cfg.dynamicSmemBytes = kib * 1024; cfg.attrs = a; cfg.numAttrs = 1;
                int n = -1;
                e = cudaOccupancyMaxActiveClusters(&n, big, &cfg);
                if (e == cudaSuccess) printf(" %d", n);
                else printf(" %s", cudaGetErrorName(e));
            }
            cudaLaunchConfig_t cfg = {};
            cfg.gridDim = dim3(64); cfg.blockDim = dim3(threads); cfg.dynamicSmemBytes = kib * 1024;
            int best = -1;
            e = cudaOccupancyMaxPotentialClusterSize(&best, big, &cfg);
            printf("; potential %d (%s)\n", best, cudaGetErrorName(e));
        }
    }
    int best = -1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(64); cfg.blockDim = dim3(128);
    cudaError_t e = cudaOccupancyMaxPotentialClusterSize(&best, pair, &cfg);
    printf("pair: potential cluster size %d (%s)\n", best, cudaGetErrorName(e));
    e = cudaOccupancyMaxPotentialClusterSize(&best, bounded, &cfg);
    printf("bounded: potential cluster size %d (%s)\n", best, cudaGetErrorName(e));
    cudaLaunchConfig_t none = cfg;
    int n = -1;
    e = cudaOccupancyMaxActiveClusters(&n, pair, &none);
    printf("pair without attribute: %d clusters (%s)\n", n, cudaGetErrorName(e));
    e = cudaOccupancyMaxActiveClusters(&n, bounded, &none);
    printf("bounded without attribute: %d clusters (%s)\n", n, cudaGetErrorName(e));
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
