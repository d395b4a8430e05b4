// Warpgroup MMA with N not a power of two (m64n24k16, m64n40k16, m64n136k16, f16 into f32):
// where each D element lands in the registers of the warpgroup, and B's core matrices
// beyond the first 8 columns. Small integer inputs, so every sum is exact: D is checked
// against a host reference and printed as a hash of its bits.
// expected/wgmma_n.out was printed by an H200.
// nvcc-flags: -gencode arch=compute_90a,code=sm_90a
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdint>
#include <cstring>

__device__ uint64_t desc(const void *p, uint32_t lbo, uint32_t sbo) {
    uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
    return (uint64_t)((a >> 4) & 0x3fff) | (uint64_t)((lbo >> 4) & 0x3fff) << 16 |
           (uint64_t)((sbo >> 4) & 0x3fff) << 32;
}
/* element (r, k) of a K-major f16 operand: 8-row core matrices of 16 bytes per row */
__host__ __device__ uint32_t koff(int r, int k, uint32_t lbo, uint32_t sbo) {
    return (uint32_t)((r / 8) * sbo + (k / 8) * lbo + (r % 8) * 16 + (k % 8) * 2);
}

__global__ void mma(int n, const __half *A, const __half *B, float *D) {
    __shared__ alignas(128) uint8_t sa[64 * 16 * 2], sb[256 * 16 * 2];
    int t = threadIdx.x;
    const uint32_t LBO = 128, SBO = 256;
    for (int i = t; i < 64 * 16; i += 128) memcpy(&sa[koff(i / 16, i % 16, LBO, SBO)], &A[i], 2);
    for (int i = t; i < n * 16; i += 128) memcpy(&sb[koff(i / 16, i % 16, LBO, SBO)], &B[i], 2);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    float d[128];
    for (int i = 0; i < 128; i++) d[i] = 0.0f;
    uint64_t da = desc(sa, LBO, SBO), db = desc(sb, LBO, SBO);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    if (n == 24) asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, 1, 0;\n wgmma.mma_async.sync.aligned.m64n24k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11}, %12, %13, p, 1, 1, 0, 0;\n}" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]) : "l"(da), "l"(db));
    if (n == 40) asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, 1, 0;\n wgmma.mma_async.sync.aligned.m64n40k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19}, %20, %21, p, 1, 1, 0, 0;\n}" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]) : "l"(da), "l"(db));
    if (n == 136) asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, 1, 0;\n wgmma.mma_async.sync.aligned.m64n136k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67}, %68, %69, p, 1, 1, 0, 0;\n}" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]) : "l"(da), "l"(db));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    int w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
    for (int j = 0; j < n / 8; j++)
        for (int e = 0; e < 4; e++) {
            int row = 16 * w + g + 8 * (e >> 1), col = 8 * j + 2 * q + (e & 1);
            D[row * n + col] = d[4 * j + e];
        }
}

int main() {
    static __half A[64 * 16], B[256 * 16];
    static float a[64 * 16], b[256 * 16], D[64 * 256];
    for (int i = 0; i < 64 * 16; i++) { a[i] = (float)((i * 7 + 3) % 11) - 5; A[i] = __float2half(a[i]); }
    for (int i = 0; i < 256 * 16; i++) { b[i] = (float)((i * 5 + 1) % 9) - 4; B[i] = __float2half(b[i]); }
    __half *dA, *dB;
    float *dD;
    cudaMalloc(&dA, sizeof A);
    cudaMalloc(&dB, sizeof B);
    cudaMalloc(&dD, sizeof D);
    cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice);
    static const int ns[] = {24, 40, 136};
    for (int k = 0; k < 3; k++) {
        int n = ns[k];
        cudaMemset(dD, 0xff, sizeof D);
        mma<<<1, 128>>>(n, dA, dB, dD);
        cudaError_t e = cudaDeviceSynchronize();
        cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost);
        int bad = 0;
        uint32_t hsh = 2166136261u;
        for (int r = 0; r < 64; r++)
            for (int c = 0; c < n; c++) {
                float ref = 0;
                for (int kk = 0; kk < 16; kk++) ref += a[r * 16 + kk] * b[c * 16 + kk];
                if (D[r * n + c] != ref) bad++;
                uint32_t bits;
                memcpy(&bits, &D[r * n + c], 4);
                for (int s = 0; s < 32; s += 8) hsh = (hsh ^ ((bits >> s) & 0xff)) * 16777619u;
            }
        printf("m64n%dk16 f16 into f32: %s, %d of %d elements differ from the reference, D bits %08x, D[0] %g D[last] %g\n",
               n, cudaGetErrorString(e), bad, 64 * n, hsh, D[0], D[64 * n - 1]);
    }
    return 0;
}
