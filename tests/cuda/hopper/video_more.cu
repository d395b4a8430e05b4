// The video instructions' other forms: destination selectors (merge into a byte or half
// of c), .sat with a secondary operation, vshl/vshr with .sat and selectors, vmad with
// .po, .shr7/.shr15, .sat and negated operands, vset with .min and a merge, vset2/vset4
// with masks, selectors and .add, and the SIMD forms with non-default selectors and masks.
// expected/video_more.out was printed by an H200.
// nvcc-flags: -arch=sm_90
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>

#define N 24
__global__ void video(const uint32_t *in, uint32_t *out) {
    int t = threadIdx.x;
    uint32_t a = in[t], b = in[t + 32], c = in[t + 64], s = b & 63, r[N];
    asm("vadd.s32.s32.s32.sat.add %0, %1, %2, %3;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.u32.u32.sat %0.h1, %1.b0, %2.b2, %3;" : "=r"(r[1]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.s32.s32.sat %0.b2, %1.h1, %2.h0, %3;" : "=r"(r[2]) : "r"(a), "r"(b), "r"(c));
    asm("vmax.s32.u32.s32.min %0, %1.b3, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(c));
    asm("vmin.u32.s32.s32.sat %0, %1, %2;" : "=r"(r[4]) : "r"(a), "r"(b));
    asm("vabsdiff.u32.u32.u32.max %0, %1.h0, %2.h1, %3;" : "=r"(r[5]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.s32.s32.u32.clamp.sat %0, %1.b1, %2;" : "=r"(r[6]) : "r"(a), "r"(s));
    asm("vshr.u32.u32.u32.wrap.add %0, %1, %2, %3;" : "=r"(r[7]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.u32.u32.u32.wrap %0.b1, %1, %2.b0, %3;" : "=r"(r[8]) : "r"(a), "r"(b), "r"(c));
    asm("vmad.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r[9]) : "r"(a), "r"(b), "r"(c));
    asm("vmad.s32.s32.u32.sat.shr15 %0, %1.h1, %2.h0, %3;" : "=r"(r[10]) : "r"(a), "r"(b), "r"(c));
    asm("vmad.u32.u32.u32.po.shr7 %0, %1.b0, %2.b1, %3;" : "=r"(r[11]) : "r"(a), "r"(b), "r"(c));
    asm("vmad.s32.u32.u32 %0, -%1, %2, %3;" : "=r"(r[12]) : "r"(a), "r"(b), "r"(c));
    asm("vmad.s32.s32.s32.sat %0, %1, %2, -%3;" : "=r"(r[13]) : "r"(a), "r"(b), "r"(c));
    asm("vset.u32.s32.ge.min %0, %1.h0, %2.h1, %3;" : "=r"(r[14]) : "r"(a), "r"(b), "r"(c));
    asm("vset.s32.s32.gt %0.b2, %1, %2, %3;" : "=r"(r[15]) : "r"(a), "r"(b), "r"(c));
    asm("vset2.s32.u32.lt %0, %1, %2, %3;" : "=r"(r[16]) : "r"(a), "r"(b), "r"(c));
    asm("vset2.u32.u32.ne.add %0, %1, %2, %3;" : "=r"(r[17]) : "r"(a), "r"(b), "r"(c));
    asm("vset4.s32.s32.ge %0.b31, %1, %2, %3;" : "=r"(r[18]) : "r"(a), "r"(b), "r"(c));
    asm("vset4.u32.u32.le.add %0.b210, %1.b0246, %2.b1357, %3;" : "=r"(r[19]) : "r"(a), "r"(b), "r"(c));
    asm("vadd2.s32.s32.s32.sat %0.h1, %1.h32, %2.h01, %3;" : "=r"(r[20]) : "r"(a), "r"(b), "r"(c));
    asm("vsub4.u32.u32.u32 %0.b20, %1.b7654, %2.b3210, %3;" : "=r"(r[21]) : "r"(a), "r"(b), "r"(c));
    asm("vavrg2.s32.s32.s32.add %0.h0, %1, %2, %3;" : "=r"(r[22]) : "r"(a), "r"(b), "r"(c));
    asm("vmax4.s32.s32.s32.sat %0, %1.b3300, %2.b2211, %3;" : "=r"(r[23]) : "r"(a), "r"(b), "r"(c));
    for (int i = 0; i < N; i++) out[t * N + i] = r[i];
}

int main() {
    uint32_t vi[96], vo[32 * N];
    for (int i = 0; i < 96; i++) vi[i] = (uint32_t)(i * 2654435761u + 12345u) >> (i % 5 * 5);
    static const uint32_t edge[] = {0x7fffffffu, 0x80000000u, 0xffffffffu, 0, 0x00ff00ffu,
                                    0x80808080u, 0x7f7f7f7fu, 0x8000ffffu, 0x01010101u, 0xfffe0002u};
    for (int i = 0; i < 10; i++) {
        vi[i] = edge[i];
        vi[32 + i] = edge[(i * 3 + 1) % 10];
        vi[64 + i] = edge[(i * 7 + 2) % 10];
    }
    vi[40] = 31; vi[41] = 32; vi[42] = 33; vi[43] = 0xffffff20u;
    uint32_t *dv, *dvo;
    cudaMalloc(&dv, sizeof vi);
    cudaMalloc(&dvo, sizeof vo);
    cudaMemcpy(dv, vi, sizeof vi, cudaMemcpyHostToDevice);
    video<<<1, 32>>>(dv, dvo);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(vo, dvo, sizeof vo, cudaMemcpyDeviceToHost);
    printf("video: %s\n", cudaGetErrorString(e));
    for (int i = 0; i < N; i++) {
        printf("  op %2d:", i);
        for (int t = 0; t < 32; t++) printf("%s%08x", t % 8 ? " " : (t ? "\n         " : " "), vo[t * N + i]);
        printf("\n");
    }
    return 0;
}
