// Kernels for tests/unit/test_exec_mma.c: warp matrix multiply-accumulate through
// nvcuda::wmma (every shape and element type it has for sm_90 except the sub-byte ones,
// row- and column-major operands, loads from shared memory, a column-major store) and
// through inline PTX (mma.sync fed by ldmatrix, stmatrix, movmatrix). One warp per kernel;
// D = A * B + C with A MxK, B KxN given in the layout the kernel's name says, C and D
// row-major. The unit test feeds small integers, so every product is exact.
// PTX: nvcc -arch=sm_90 -ptx mma.cu -o mma.ptx
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

#define WMMA_KERNEL(name, M, N, K, T, S, ACC, LA, LB, STORE)                                 \
    extern "C" __global__ void name(const S *A, const S *B, const ACC *C, ACC *D) {        \
        wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::LA> fa;                          \
        wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::LB> fb;                          \
        wmma::fragment<wmma::accumulator, M, N, K, ACC> fc;                               \
        bool ar = wmma::LA##_is_row, br = wmma::LB##_is_row;                              \
        wmma::load_matrix_sync(fa, A, ar ? K : M);                                        \
        wmma::load_matrix_sync(fb, B, br ? N : K);                                        \
        wmma::load_matrix_sync(fc, C, N, wmma::mem_row_major);                            \
        wmma::mma_sync(fc, fa, fb, fc);                                                   \
        wmma::store_matrix_sync(D, fc, STORE == wmma::mem_row_major ? N : M, STORE);      \
    }
namespace nvcuda { namespace wmma {
constexpr bool row_major_is_row = true, col_major_is_row = false;
} }

WMMA_KERNEL(wmma_f16_f32, 16, 16, 16, __half, __half, float, row_major, col_major, wmma::mem_row_major)
WMMA_KERNEL(wmma_f16_f16_colstore, 16, 16, 16, __half, __half, __half, col_major, row_major, wmma::mem_col_major)
WMMA_KERNEL(wmma_f16_m32n8, 32, 8, 16, __half, __half, float, row_major, row_major, wmma::mem_row_major)
WMMA_KERNEL(wmma_f16_m8n32, 8, 32, 16, __half, __half, __half, col_major, col_major, wmma::mem_row_major)
WMMA_KERNEL(wmma_bf16_m32n8, 32, 8, 16, __nv_bfloat16, __nv_bfloat16, float, col_major, row_major, wmma::mem_row_major)
WMMA_KERNEL(wmma_bf16_m8n32, 8, 32, 16, __nv_bfloat16, __nv_bfloat16, float, row_major, col_major, wmma::mem_row_major)
WMMA_KERNEL(wmma_tf32, 16, 16, 8, wmma::precision::tf32, float, float, row_major, col_major, wmma::mem_row_major)
WMMA_KERNEL(wmma_f64, 8, 8, 4, double, double, double, col_major, row_major, wmma::mem_row_major)
WMMA_KERNEL(wmma_s8, 16, 16, 16, signed char, signed char, int, row_major, col_major, wmma::mem_row_major)
WMMA_KERNEL(wmma_u8_m8n32, 8, 32, 16, unsigned char, unsigned char, int, col_major, row_major, wmma::mem_row_major)

// The same m16n16k16 product with A and B staged through shared memory.
extern "C" __global__ void wmma_shared(const __half *A, const __half *B, const float *C, float *D) {
    __shared__ __align__(32) __half sA[256], sB[256];
    for (int i = threadIdx.x; i < 256; i += 32) { sA[i] = A[i]; sB[i] = B[i]; }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, sA, 16);
    wmma::load_matrix_sync(fb, sB, 16);
    wmma::load_matrix_sync(fc, C, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(D, fc, 16, wmma::mem_row_major);
}

// A load past the end of A (the matrix starts 8 rows before its end): a device fault.
extern "C" __global__ void wmma_oob(const __half *A, float *D) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, A + 8 * 16, 16);
    D[threadIdx.x] = __half2float(fa.x[0]);
}

// mma.sync m16n8k16: A (16x16 row-major) with ldmatrix.x4, B given transposed (8x16
// row-major) with ldmatrix.x2; D (16x8 f32); D's f16 copy stored with stmatrix (Dh) and,
// transposed by movmatrix and stored with stmatrix.trans, again (DhT: the same matrix).
// Bk is B (16x8 row-major) loaded with ldmatrix.x2.trans for a second product, E = A*B.
extern "C" __global__ void mma_ldmatrix(const __half *A, const __half *Bt, const __half *Bk,
                                        const float *C, float *D, float *E, __half *Dh, __half *DhT) {
    __shared__ __align__(16) __half sA[256], sB[128], sK[128], sD[128], sT[128];
    int lane = threadIdx.x;
    for (int i = lane; i < 256; i += 32) sA[i] = A[i];
    for (int i = lane; i < 128; i += 32) { sB[i] = Bt[i]; sK[i] = Bk[i]; }
    __syncwarp();
    unsigned a[4], b[2], k[2];
    unsigned pa = (unsigned)__cvta_generic_to_shared(&sA[(lane % 16) * 16 + (lane / 16) * 8]);
    unsigned pb = (unsigned)__cvta_generic_to_shared(&sB[(lane % 8) * 16 + ((lane / 8) % 2) * 8]);
    unsigned pk = (unsigned)__cvta_generic_to_shared(&sK[(lane % 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(k[0]), "=r"(k[1]) : "r"(pk));
    int g = lane >> 2, t = lane & 3;
    float c[4] = {C[g * 8 + 2 * t], C[g * 8 + 2 * t + 1], C[(g + 8) * 8 + 2 * t], C[(g + 8) * 8 + 2 * t + 1]}, d[4], e[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
                 : "=f"(e[0]), "=f"(e[1]), "=f"(e[2]), "=f"(e[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(k[0]), "r"(k[1]), "f"(0.0f));
    for (int i = 0; i < 4; i++) {
        D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
        E[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = e[i];
    }
    __half2 lo = __floats2half2_rn(d[0], d[1]), hi = __floats2half2_rn(d[2], d[3]);
    unsigned rlo = *(unsigned *)&lo, rhi = *(unsigned *)&hi, tlo, thi;
    unsigned pd = (unsigned)__cvta_generic_to_shared(&sD[(lane % 16) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(pd), "r"(rlo), "r"(rhi) : "memory");
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(tlo) : "r"(rlo));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(thi) : "r"(rhi));
    unsigned pt = (unsigned)__cvta_generic_to_shared(&sT[(lane % 16) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(pt), "r"(tlo), "r"(thi) : "memory");
    __syncwarp();
    for (int i = lane; i < 128; i += 32) { Dh[i] = sD[i]; DhT[i] = sT[i]; }
}

// mma.sync with integers (m16n8k32 s8, satfinite; m8n8k16 u8.s8), tf32 m16n8k8 and
// f64 m8n8k4, fragments built by hand from the PTX ISA's layouts.
extern "C" __global__ void mma_misc(const signed char *As8, const signed char *Bs8, const unsigned char *Au8,
                                    const float *Atf, const float *Btf, const double *Af, const double *Bf,
                                    int *Ds8, int *Dk16, float *Dtf, double *Df) {
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned as[4], bs[2];
    for (int r = 0; r < 4; r++) {
        as[r] = 0;
        for (int e = 0; e < 4; e++) as[r] |= (unsigned)(unsigned char)As8[(g + 8 * (r & 1)) * 32 + 4 * t + 16 * (r >> 1) + e] << (8 * e);
    }
    for (int r = 0; r < 2; r++) {
        bs[r] = 0;
        for (int e = 0; e < 4; e++) bs[r] |= (unsigned)(unsigned char)Bs8[(4 * t + 16 * r + e) * 8 + g] << (8 * e);
    }
    int di[4];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(di[0]), "=r"(di[1]), "=r"(di[2]), "=r"(di[3])
                 : "r"(as[0]), "r"(as[1]), "r"(as[2]), "r"(as[3]), "r"(bs[0]), "r"(bs[1]),
                   "r"(2147483000), "r"(-2147483000), "r"(lane), "r"(-lane));
    for (int i = 0; i < 4; i++) Ds8[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = di[i];
    // m8n8k16: A (8x16 u8), B (16x8 s8: the first 16 rows of Bs8)
    unsigned au = 0, bk = 0;
    for (int e = 0; e < 4; e++) au |= (unsigned)Au8[g * 16 + 4 * t + e] << (8 * e);
    for (int e = 0; e < 4; e++) bk |= (unsigned)(unsigned char)Bs8[(4 * t + e) * 8 + g] << (8 * e);
    int dk[2];
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.u8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=r"(dk[0]), "=r"(dk[1]) : "r"(au), "r"(bk), "r"(7), "r"(-7));
    Dk16[g * 8 + 2 * t] = dk[0]; Dk16[g * 8 + 2 * t + 1] = dk[1];
    unsigned at[4], bt[2];
    for (int r = 0; r < 4; r++) at[r] = __float_as_uint(Atf[(g + 8 * (r & 1)) * 8 + t + 4 * (r >> 1)]);
    for (int r = 0; r < 2; r++) bt[r] = __float_as_uint(Btf[(t + 4 * r) * 8 + g]);
    float d[4];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(at[0]), "r"(at[1]), "r"(at[2]), "r"(at[3]), "r"(bt[0]), "r"(bt[1]), "f"(-1.0f));
    for (int i = 0; i < 4; i++) Dtf[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
    double df[2];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(df[0]), "=d"(df[1]) : "d"(Af[g * 4 + t]), "d"(Bf[t * 8 + g]), "d"(1.0), "d"(-1.0));
    Df[g * 8 + 2 * t] = df[0]; Df[g * 8 + 2 * t + 1] = df[1];
}

// Sub-byte integers and single bits: wmma m8n8k32 (s4 x u4... the API takes one type for
// both: s4) and m8n8k128 (b1, XOR then population count); mma.sync m16n8k64 u4 x s4 and
// m16n8k256 b1 (AND then population count). A row-major, B column-major, packed: element
// k of a row (or column) is bit field k of its words, the first in the low bits.
extern "C" __global__ void wmma_s4(const unsigned *A, const unsigned *B, const int *C, int *D) {
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::load_matrix_sync(fa, A, 32);
    wmma::load_matrix_sync(fb, B, 32);
    wmma::load_matrix_sync(fc, C, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(D, fc, 8, wmma::mem_row_major);
}
extern "C" __global__ void wmma_b1(const unsigned *A, const unsigned *B, const int *C, int *D) {
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
    wmma::load_matrix_sync(fa, A, 128);
    wmma::load_matrix_sync(fb, B, 128);
    wmma::load_matrix_sync(fc, C, 8, wmma::mem_row_major);
    wmma::bmma_sync(fc, fa, fb, fc, bmmaBitOpXOR, bmmaAccumulateOpPOPC);
    wmma::store_matrix_sync(D, fc, 8, wmma::mem_row_major);
}
// mma.sync m16n8k64 u4.s4: A 16x64 (8 words a row), B 64x8 (8 words a column);
// m16n8k256 b1: A 16x256 (8 words a row), B 256x8 (8 words a column).
extern "C" __global__ void mma_sub(const unsigned *A4, const unsigned *B4, const unsigned *A1,
                                   const unsigned *B1, int *D4, int *D1) {
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    // register r of A: row g + 8*(r & 1), words t + 4*(r >> 1) of the row; B: column g, word t + 4*r
    unsigned a[4], b[2];
    for (int r = 0; r < 4; r++) a[r] = A4[(g + 8 * (r & 1)) * 8 + t + 4 * (r >> 1)];
    for (int r = 0; r < 2; r++) b[r] = B4[g * 8 + t + 4 * r];
    int d[4];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(5));
    for (int i = 0; i < 4; i++) D4[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
    for (int r = 0; r < 4; r++) a[r] = A1[(g + 8 * (r & 1)) * 8 + t + 4 * (r >> 1)];
    for (int r = 0; r < 2; r++) b[r] = B1[g * 8 + t + 4 * r];
    asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(-3));
    for (int i = 0; i < 4; i++) D1[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
}
