/* func_attrs.cu — cudaFuncGetAttributes, cudaFuncSetAttribute and the occupancy calculator. */
#include "probe.h"

__global__ void k_empty() {}
__global__ void k_smem(int *p) {
    __shared__ int s[256]; /* 1 KiB */
    s[threadIdx.x] = threadIdx.x; __syncthreads();
    p[threadIdx.x] = s[255 - threadIdx.x];
}
__global__ void __launch_bounds__(128, 4) k_bounds(float *p) { p[threadIdx.x] *= 2.0f; }
__global__ void k_local(int *p, int n) {
    int buf[64];
    for (int i = 0; i < 64; i++) buf[i] = p[i] * n;
    p[threadIdx.x] = buf[(threadIdx.x * 7 + n) & 63];
}
extern __shared__ float dyn[];
__global__ void k_dyn(float *p) { dyn[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = dyn[0]; }

static void show(const char *label, const void *f) {
    cudaFuncAttributes a;
    memset(&a, 0x5a, sizeof a);
    cudaError_t e = cudaFuncGetAttributes(&a, f);
    printf("%s: %s\n", label, en(e));
    if (e != cudaSuccess) return;
    printf("  sharedSizeBytes %zu constSizeBytes %zu localSizeBytes %zu maxThreadsPerBlock %d\n",
           a.sharedSizeBytes, a.constSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock);
    printf("info   numRegs %d binaryVersion %d ptxVersion %d\n", a.numRegs, a.binaryVersion, a.ptxVersion);
    printf("  cacheModeCA %d maxDynamicSharedSizeBytes %d preferredShmemCarveout %d\n", a.cacheModeCA,
           a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout);
    printf("  clusterDimMustBeSet %d requiredClusterWidth %d %d %d clusterSchedulingPolicyPreference %d\n",
           a.clusterDimMustBeSet, a.requiredClusterWidth, a.requiredClusterHeight, a.requiredClusterDepth,
           a.clusterSchedulingPolicyPreference);
    printf("  nonPortableClusterSizeAllowed %d\n", a.nonPortableClusterSizeAllowed);
}

static void occ(const char *label, const void *f, int bs, size_t dyn_bytes) {
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, bs, dyn_bytes);
    printf("info occupancy %s block %d dyn %zu: %s %d\n", label, bs, dyn_bytes, en(e), n);
}

int main() {
    show("k_empty", (const void *)k_empty);
    show("k_smem", (const void *)k_smem);
    show("k_bounds", (const void *)k_bounds);
    show("k_local", (const void *)k_local);
    show("k_dyn", (const void *)k_dyn);
    show("NULL", nullptr);
    SHOW_LAST("  last");
    show("host function", (const void *)&show);
    SHOW_LAST("  last");
    SHOW("cudaFuncGetAttributes(NULL attr)", cudaFuncGetAttributes(nullptr, (const void *)k_empty));

    SHOW("set carveout 50", cudaFuncSetAttribute((const void *)k_dyn, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    SHOW("set carveout 101", cudaFuncSetAttribute((const void *)k_dyn, cudaFuncAttributePreferredSharedMemoryCarveout, 101));
    SHOW("set carveout -1", cudaFuncSetAttribute((const void *)k_dyn, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
    SHOW("set carveout -2", cudaFuncSetAttribute((const void *)k_dyn, cudaFuncAttributePreferredSharedMemoryCarveout, -2));
    SHOW("set max dyn 64KiB", cudaFuncSetAttribute((const void *)k_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
    SHOW("set attr 99", cudaFuncSetAttribute((const void *)k_dyn, (cudaFuncAttribute)99, 1));
    SHOW("set on NULL", cudaFuncSetAttribute(nullptr, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
    SHOW_LAST("  last");
    show("k_dyn after set", (const void *)k_dyn);

    const int sizes[] = {1, 32, 64, 96, 128, 256, 512, 768, 1024};
    for (int bs : sizes) {
        occ("k_empty", (const void *)k_empty, bs, 0);
        occ("k_smem", (const void *)k_smem, bs, 0);
        occ("k_local", (const void *)k_local, bs, 0);
        occ("k_dyn 16KiB", (const void *)k_dyn, bs, 16384);
        occ("k_dyn 48KiB", (const void *)k_dyn, bs, 49152);
    }
    occ("k_bounds", (const void *)k_bounds, 128, 0);
    occ("k_bounds", (const void *)k_bounds, 256, 0);
    occ("k_dyn 64KiB", (const void *)k_dyn, 128, 65536);
    occ("k_dyn 64KiB+1", (const void *)k_dyn, 128, 65537);
    int n = -1;
    SHOW("occupancy block 0", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)k_empty, 0, 0));
    printf("n %d\n", n);
    SHOW("occupancy block 1025", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)k_empty, 1025, 0));
    SHOW("occupancy NULL out", cudaOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, (const void *)k_empty, 32, 0));
    SHOW("occupancy NULL func", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, nullptr, 32, 0));
    SHOW("occupancy flags 5", cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, (const void *)k_empty, 32, 0, 5));
    SHOW("occupancy huge dyn", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)k_empty, 32, 1 << 20));
    printf("n %d\n", n);
    SHOW_LAST("  last");
    int grid = -1, block = -1;
    SHOW("max potential k_empty", cudaOccupancyMaxPotentialBlockSize(&grid, &block, k_empty, 0, 0));
    printf("min grid %d block %d\n", grid, block);
    SHOW("max potential k_bounds", cudaOccupancyMaxPotentialBlockSize(&grid, &block, k_bounds, 0, 0));
    printf("min grid %d block %d\n", grid, block);
    SHOW("max potential k_dyn 48KiB", cudaOccupancyMaxPotentialBlockSize(&grid, &block, k_dyn, 49152, 0));
    printf("min grid %d block %d\n", grid, block);
    SHOW("max potential k_local", cudaOccupancyMaxPotentialBlockSize(&grid, &block, k_local, 0, 0));
    printf("info min grid %d block %d\n", grid, block);
    return 0;
}
