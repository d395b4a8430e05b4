// Tensor reductions (cp.reduce.async.bulk.tensor, tile mode, 2D boxes of 16 x 8 into a
// 64 x 32 tensor): add/min/max on f32 and s32, and/inc on s32, boxes inside and at the edges.
// expected/tensor_reduce.out was printed by an H200.
// nvcc-flags: -arch=sm_90
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>


// a 2D tensor of 64 x 32 elements (f32 or s32), box 16 x 8 at (x, y) reduced from shared memory
__global__ void tensor_reduce(const __grid_constant__ CUtensorMap mf, const __grid_constant__ CUtensorMap mi, int op) {
    __shared__ alignas(128) float sf[8 * 16];
    __shared__ alignas(128) int si[8 * 16];
    int t = threadIdx.x;
    for (int i = t; i < 128; i += blockDim.x) { sf[i] = (float)(i % 7) - 2.5f; si[i] = (i * 37) % 101 - 50; }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        uint32_t a = (uint32_t)__cvta_generic_to_shared(sf), b = (uint32_t)__cvta_generic_to_shared(si);
        switch (op) {
        case 0:
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(&mf), "r"(16), "r"(8), "r"(a) : "memory");
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(&mi), "r"(56), "r"(28), "r"(b) : "memory");
            break;
        case 1:
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(&mf), "r"(0), "r"(0), "r"(a) : "memory");
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(&mi), "r"(16), "r"(4), "r"(b) : "memory");
            break;
        default:
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.and.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(&mi), "r"(32), "r"(16), "r"(b) : "memory");
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.inc.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(&mi), "r"(0), "r"(24), "r"(b) : "memory");
            break;
        }
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

static uint32_t fnv(const void *p, size_t n) {
    const uint8_t *c = (const uint8_t *)p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 16777619u;
    return h;
}

int main() {
    cudaError_t e = cudaSuccess;
    cudaDriverEntryPointQueryResult q;
    (void)q;
    { // tensor reductions
    typedef CUresult (*enc_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
    enc_t encode = 0;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault, &q) !=
            cudaSuccess || !encode) { printf("no cuTensorMapEncodeTiled\n"); return 1; }
    float *tf; int *ti;
    cudaMalloc(&tf, 64 * 32 * 4); cudaMalloc(&ti, 64 * 32 * 4);
    CUtensorMap mf, mi;
    cuuint64_t dims[2] = {64, 32}, strides[1] = {64 * 4};
    cuuint32_t box[2] = {16, 8}, es[2] = {1, 1};
    if (encode(&mf, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, tf, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ||
        encode(&mi, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, ti, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)) {
        printf("encode failed\n"); return 1;
    }
    for (int op = 0; op < 3; op++) {
        static float hf2[64 * 32]; static int hi2[64 * 32];
        for (int i = 0; i < 64 * 32; i++) { hf2[i] = (float)(i % 13) - 6.0f; hi2[i] = (i * 7919) % 61 - 30; }
        cudaMemcpy(tf, hf2, sizeof hf2, cudaMemcpyHostToDevice);
        cudaMemcpy(ti, hi2, sizeof hi2, cudaMemcpyHostToDevice);
        tensor_reduce<<<1, 128>>>(mf, mi, op);
        e = cudaDeviceSynchronize();
        cudaMemcpy(hf2, tf, sizeof hf2, cudaMemcpyDeviceToHost);
        cudaMemcpy(hi2, ti, sizeof hi2, cudaMemcpyDeviceToHost);
        printf("tensor reduce %d: %s, f32 %08x s32 %08x, f32[8*64+16] %g f32[0] %g s32[28*64+56] %d s32[4*64+16] %d s32[16*64+32] %d s32[24*64+0] %d s32[31*64+63] %d\n",
               op, cudaGetErrorString(e), fnv(hf2, sizeof hf2), fnv(hi2, sizeof hi2), hf2[8 * 64 + 16], hf2[0],
               hi2[28 * 64 + 56], hi2[4 * 64 + 16], hi2[16 * 64 + 32], hi2[24 * 64], hi2[31 * 64 + 63]);
    }
    }
    return 0;
}
