// tensormap.replace on a tiled map in shared memory and in global memory (global_address,
// global_dim, global_stride, box_dim, element_stride), tensormap.cp_fenceproxy copying the
// edited map to global memory, fence.proxy.tensormap::generic, then tensor loads through the
// edited maps. expected/tensormap_replace.out was recorded on an H200.
// nvcc-flags: -gencode arch=compute_90a,code=sm_90a
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>

/* Load the box at (x, y) through the map at gmap (global memory) into out. */
__device__ void load(const void *gmap, int x, int y, unsigned bytes, float *out) {
    __shared__ alignas(128) float s[256];
    __shared__ alignas(8) uint64_t bar;
    int t = threadIdx.x;
    for (int i = t; i < 256; i += blockDim.x) s[i] = -1.0f;
    uint32_t sb = (uint32_t)__cvta_generic_to_shared(&bar), sd = (uint32_t)__cvta_generic_to_shared(s);
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sb));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (t == 0) {
        asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sb), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     ::"r"(sd), "l"(gmap), "r"(x), "r"(y), "r"(sb) : "memory");
    }
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }" ::"r"(sb) : "memory");
    for (int i = t; i < 256; i += blockDim.x) out[i] = s[i];
    __syncthreads();
}

/* edit a copy of the map in shared memory, copy it to gmap with cp_fenceproxy */
__global__ void edit_shared(const __grid_constant__ CUtensorMap m, CUtensorMap *gmap, const float *other, float *out) {
    __shared__ alignas(128) CUtensorMap sm;
    if (threadIdx.x == 0) sm = m;
    __syncwarp();
    uint32_t a = (uint32_t)__cvta_generic_to_shared(&sm);
    if (threadIdx.x == 0) {
        asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" ::"r"(a), "l"(other) : "memory");
        asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(a), "r"(12) : "memory");
    }
    __syncwarp();
    asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;"
                 ::"l"(gmap), "r"(a) : "memory");
    load(gmap, 8, 0, 8 * 8 * 4, out);
}

/* edit the map in global memory directly: the stride between rows, the box, a traversal stride */
__global__ void edit_global(CUtensorMap *gmap, float *out) {
    if (threadIdx.x == 0) {
        asm volatile("tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 0, %1;" ::"l"(gmap), "l"(32ull * 4) : "memory");
        asm volatile("tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 1, %1;" ::"l"(gmap), "r"(4) : "memory");
        asm volatile("tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 1, %1;" ::"l"(gmap), "r"(2) : "memory");
        asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    }
    __syncthreads();
    load(gmap, 0, 1, 8 * 2 * 4, out);
}

int main() {
    typedef CUresult (*enc_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
    enc_t enc = 0;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&enc, 12000, cudaEnableDefault, &q) !=
            cudaSuccess || !enc) { printf("no cuTensorMapEncodeTiled\n"); return 1; }
    static float a[16 * 16], b[32 * 32];
    for (int i = 0; i < 16 * 16; i++) a[i] = (float)i;
    for (int i = 0; i < 32 * 32; i++) b[i] = 10000.0f + (float)i;
    float *da, *db, *dout;
    CUtensorMap *gmap;
    cudaMalloc(&da, sizeof a);
    cudaMalloc(&db, sizeof b);
    cudaMalloc(&dout, 256 * 4);
    cudaMalloc(&gmap, sizeof(CUtensorMap));
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
    alignas(64) CUtensorMap m;
    cuuint64_t dims[2] = {16, 16}, strides[1] = {16 * 4};
    cuuint32_t box[2] = {8, 8}, es[2] = {1, 1};
    CUresult r = enc(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, da, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    printf("encode: %d\n", (int)r);
    float h[256];
    edit_shared<<<1, 32>>>(m, gmap, db, dout);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
    printf("global_address and global_dim replaced in shared memory: %s", cudaGetErrorString(e));
    for (int i = 0; i < 72; i++) printf("%s%g", i % 8 ? " " : "\n  ", h[i]);
    printf("\n");
    edit_global<<<1, 32>>>(gmap, dout);
    e = cudaDeviceSynchronize();
    cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
    printf("global_stride, box_dim, element_stride replaced in global memory: %s", cudaGetErrorString(e));
    for (int i = 0; i < 24; i++) printf("%s%g", i % 8 ? " " : "\n  ", h[i]);
    printf("\n");
    return 0;
}
