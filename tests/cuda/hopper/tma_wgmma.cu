// A Hopper GEMM pipeline as libraries build it: tensor-map loads (cp.async.bulk.tensor)
// with a 32, 64 or 128-byte swizzle put A (64 x K) and B (64 x K, K-major) in shared memory,
// and wgmma reads them through descriptors with the same swizzle, K advancing 32 bytes per
// k16 step inside the swizzled rows. The product is checked against a double reference:
// only a tensor copy and a descriptor that agree on the swizzle give it.
// nvcc-flags: -gencode arch=compute_90a,code=sm_90a
#include <cuda.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ uint32_t smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

#define D32 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}"
#define OUT32(d) "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
    "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
    "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])

// width: swizzle span in bytes (32, 64, 128) = the K extent of the tile (K = width / 2).
__global__ void gemm(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb,
                     int width, float *D) {
    __shared__ alignas(1024) uint8_t sa[64 * 128], sb[64 * 128];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem(&bar)), "r"(2 * 64 * width) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(smem(sa)), "l"(&ma), "r"(0), "r"(0), "r"(smem(&bar)) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(smem(sb)), "l"(&mb), "r"(0), "r"(0), "r"(smem(&bar)) : "memory");
    }
    __syncthreads();
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n @!p bra W;\n}" :: "r"(smem(&bar)) : "memory");
    uint64_t mode = width == 128 ? 1 : width == 64 ? 2 : 3;
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0.0f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int k = 0; k < width / 32; k++) {
        // start address + 32 bytes per k16 step, LBO 16 (unused), SBO = 8 rows of width bytes
        uint64_t da = (uint64_t)(((smem(sa) + 32 * k) >> 4) & 0x3fff) | (1ull << 16) |
                      (uint64_t)((8 * width) >> 4) << 32 | mode << 62;
        uint64_t db = (uint64_t)(((smem(sb) + 32 * k) >> 4) & 0x3fff) | (1ull << 16) |
                      (uint64_t)((8 * width) >> 4) << 32 | mode << 62;
        asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, 1, 0;\n"
                     " wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " D32 ", %32, %33, p, 1, 1, 0, 0;\n}"
                     : OUT32(d) : "l"(da), "l"(db));
    }
    asm volatile("wgmma.commit_group.sync.aligned;\n wgmma.wait_group.sync.aligned 0;" ::: "memory");
    int w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
    for (int j = 0; j < 8; j++)
        for (int e = 0; e < 4; e++)
            D[(16 * w + g + 8 * (e >> 1)) * 64 + 8 * j + 2 * q + (e & 1)] = d[4 * j + e];
}

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

int main() {
    encode_fn encode = nullptr;
    cudaDriverEntryPointQueryResult qr;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault, &qr));
    const int K = 64;
    std::vector<__half> A(64 * K), B(64 * K);
    std::vector<double> a(64 * K), b(64 * K);
    uint32_t r = 7;
    for (int i = 0; i < 64 * K; i++) {
        r = r * 1664525u + 1013904223u; A[i] = __float2half((float)((r >> 9) % 17) - 8.0f); a[i] = __half2float(A[i]);
        r = r * 1664525u + 1013904223u; B[i] = __float2half((float)((r >> 9) % 13) - 6.0f); b[i] = __half2float(B[i]);
    }
    __half *dA, *dB; float *dD;
    CK(cudaMalloc(&dA, A.size() * 2)); CK(cudaMalloc(&dB, B.size() * 2)); CK(cudaMalloc(&dD, 64 * 64 * 4));
    CK(cudaMemcpy(dA, A.data(), A.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B.data(), B.size() * 2, cudaMemcpyHostToDevice));
    int fails = 0;
    const CUtensorMapSwizzle sw[3] = {CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B};
    for (int s = 0; s < 3; s++) {
        int width = 32 << s, kt = width / 2; // the tile's K: the first kt columns
        alignas(64) CUtensorMap ma, mb;
        cuuint64_t dims[2] = {(cuuint64_t)K, 64}, strides[1] = {K * 2};
        cuuint32_t box[2] = {(cuuint32_t)kt, 64}, es[2] = {1, 1};
        CUresult e1 = encode(&ma, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, dA, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, sw[s], CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        CUresult e2 = encode(&mb, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, dB, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, sw[s], CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (e1 || e2) { printf("encode: %d %d\n", (int)e1, (int)e2); return 1; }
        CK(cudaMemset(dD, 0, 64 * 64 * 4));
        gemm<<<1, 128>>>(ma, mb, width, dD);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<float> D(64 * 64);
        CK(cudaMemcpy(D.data(), dD, D.size() * 4, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < 64; j++) {
                double ref = 0;
                for (int k = 0; k < kt; k++) ref += a[i * K + k] * b[j * K + k];
                if (D[i * 64 + j] != (float)ref) bad++; // small integers: exact
            }
        printf("%s swizzle %dB, K %d: %d of 4096 elements differ from the reference\n",
               bad ? "FAIL" : "PASS", width, kt, bad);
        if (bad) fails++;
    }
    return fails ? 1 : 0;
}
