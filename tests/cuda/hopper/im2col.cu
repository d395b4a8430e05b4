// im2col tensor loads (cuTensorMapEncodeIm2col, cp.async.bulk.tensor.4d .im2col) from an
// NHWC f32 tensor, three bounding boxes, five loads each. expected/im2col.out was printed by
// an H200.
// nvcc-flags: -arch=sm_90
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>


// im2col tensor loads: an NHWC f32 tensor (N 2, H 6, W 6, C 8), each element n*1000 +
// h*100 + w*10 + c + 1; 16 pixels of 8 channels a load
__global__ void im2col(const __grid_constant__ CUtensorMap m, int w, int h, int n, int ow, int oh, float *out) {
    __shared__ alignas(128) float s[16 * 8];
    __shared__ alignas(8) uint64_t bar;
    int t = threadIdx.x;
    for (int i = t; i < 128; i += blockDim.x) s[i] = -1.0f;
    uint32_t sb = (uint32_t)__cvta_generic_to_shared(&bar), sd = (uint32_t)__cvta_generic_to_shared(s);
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sb));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 512;" ::"r"(sb) : "memory");
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                     ::"r"(sd), "l"(&m), "r"(0), "r"(w), "r"(h), "r"(n), "r"(sb), "h"((unsigned short)ow), "h"((unsigned short)oh) : "memory");
    }
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }" ::"r"(sb) : "memory");
    for (int i = t; i < 128; i += blockDim.x) out[i] = s[i];
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
    {
        typedef CUresult (*enc2_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                   const cuuint64_t *, const int *, const int *, cuuint32_t, cuuint32_t,
                                   const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                   CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
        enc2_t enc2 = 0;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", (void **)&enc2, 12000, cudaEnableDefault, &q) !=
                cudaSuccess || !enc2) { printf("no cuTensorMapEncodeIm2col\n"); return 1; }
        static float img[2 * 6 * 6 * 8];
        for (int n = 0; n < 2; n++) for (int hh = 0; hh < 6; hh++) for (int w = 0; w < 6; w++) for (int c = 0; c < 8; c++)
            img[((n * 6 + hh) * 6 + w) * 8 + c] = n * 1000 + hh * 100 + w * 10 + c + 1;
        float *dimg, *dout2; cudaMalloc(&dimg, sizeof img); cudaMalloc(&dout2, 128 * 4);
        cudaMemcpy(dimg, img, sizeof img, cudaMemcpyHostToDevice);
        cuuint64_t d4[4] = {8, 6, 6, 2}, s4[3] = {8 * 4, 6 * 8 * 4, 6 * 6 * 8 * 4};
        cuuint32_t es4[4] = {1, 1, 1, 1};
        static const int corners[3][4] = {{-1, -1, -1, -1}, {0, 0, -2, -2}, {-2, -1, 0, 1}};
        static const int loads[5][6] = {{-1, -1, 0, 0, 0, 0}, {-1, -1, 0, 1, 2, 0}, {2, 3, 1, 2, 1, 0}, {3, 4, 0, 0, 0, 1}, {0, 0, 1, 1, 1, 0}};
        for (int ci = 0; ci < 3; ci++) {
            CUtensorMap mc;
            CUresult r = enc2(&mc, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, dimg, d4, s4, corners[ci], corners[ci] + 2, 8, 16, es4,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
            printf("im2col map %d (lower %d %d, upper %d %d): encode %d\n", ci, corners[ci][0], corners[ci][1], corners[ci][2], corners[ci][3], (int)r);
            if (r) continue;
            for (int li = 0; li < 5; li++) {
                const int *L = loads[li];
                float o2[128];
                im2col<<<1, 128>>>(mc, L[0], L[1], L[3] == 1 && ci == 2 ? 1 : L[5], L[2], L[3], dout2);
                e = cudaDeviceSynchronize();
                cudaMemcpy(o2, dout2, sizeof o2, cudaMemcpyDeviceToHost);
                printf("  load w %d h %d n %d off %d %d: %s\n   ", L[0], L[1], L[3] == 1 && ci == 2 ? 1 : L[5], L[2], L[3], cudaGetErrorString(e));
                if (e != cudaSuccess) return 1;
                for (int px = 0; px < 16; px++) printf(" %g", o2[px * 8]);
                printf(" | ch7 of pixel 5: %g\n", o2[5 * 8 + 7]);
            }
        }
    }
    return 0;
}
