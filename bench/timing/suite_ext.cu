// bench/timing/suite_ext.cu — the timing suite's instruction-cache and DRAM-pattern cases.
//
// icache: straight-line bodies of N fused multiply-adds (one SASS instruction, 16 bytes of
// code, each), repeated so every case runs the same 16384 of them a thread: a body of 256
// fits every instruction cache, one of 16384 (256 KB of code) none. Four independent
// accumulators (issue-bound with enough warps) or one (a dependent chain), and one warp an
// SM, four, or 16 (how many warps share each fetch).
// dram: arrays of 2^25 floats (128 MB, well past L2) read, written, copied and mixed in
// every ratio, strided so that each lane takes one sector of a line, a sector of every
// other line, one of every fourth, gathered and scattered at random sectors, and read-
// modified-written in place.
// Every launch is announced on stdout first ("L <n> <class> <case>") as suite.cu's are;
// each case runs REPS times (argument 1, default 2).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

static int g_launch = 0, g_reps = 2;
#define CASE(cls, name, launch) do { for (int r_ = 0; r_ < g_reps; r_++) { \
    printf("L %d %s %s\n", g_launch++, cls, name); launch; \
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); } } while (0)

// ---------------- instruction cache ----------------
// N distinct constants keep ptxas from folding the body; the outer loop is a runtime count
template <int N, int ACC>
__global__ void k_icache(float *out, int reps)
{
    float a[ACC];
#pragma unroll
    for (int k = 0; k < ACC; k++) a[k] = threadIdx.x * (1.0f + k);
    for (int r = 0; r < reps; r++) {
#pragma unroll
        for (int j = 0; j < N; j++)
            a[j % ACC] = __fmaf_rn(a[j % ACC], 0.9990234375f + (float)(j & 1023) * 0x1p-20f,
                                   (float)(j >> 10) * 0x1p-12f + 0x1p-10f);
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < ACC; k++) s += a[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int N, int ACC>
static void icache_cases(float *out, int sms)
{
    char nm[96];
    const int total = 16384;
    int warps[] = {1, 4, 16};
    for (int w : warps) {
        snprintf(nm, sizeof nm, "icache_u%d_a%d_w%d", N, ACC, w);
        CASE("icache", nm, (k_icache<N, ACC><<<sms, 32 * w>>>(out, total / N)));
    }
}

// ---------------- DRAM patterns ----------------
__global__ void k_read4(const float4 *__restrict__ in, float *out, long n4)
{
    float s = 0;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x) {
        float4 v = in[i];
        s += v.x + v.y + v.z + v.w;
    }
    if (s == 12345.0f) out[0] = s;  // never true: keeps the reads
}
__global__ void k_write4(float4 *out, long n4)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x)
        out[i] = make_float4(1.0f, 2.0f, 3.0f, (float)i);
}
// reads R arrays, writes W arrays (a1..): every element of each, float4 at a time
__global__ void k_mix4(const float4 *__restrict__ a, const float4 *__restrict__ b,
                       const float4 *__restrict__ c, float4 *x, float4 *y, long n4, int R, int W)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x) {
        float4 v = a[i];
        if (R > 1) { float4 u = b[i]; v.x += u.x; v.y += u.y; v.z += u.z; v.w += u.w; }
        if (R > 2) { float4 u = c[i]; v.x += u.x; v.y += u.y; v.z += u.z; v.w += u.w; }
        x[i] = v;
        if (W > 1) y[i] = make_float4(v.w, v.z, v.y, v.x);
    }
}
__global__ void k_inplace4(float4 *a, long n4)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x) {
        float4 v = a[i];
        a[i] = make_float4(v.x * 2.0f, v.y + 1.0f, v.z, v.w - 1.0f);
    }
}
// each lane one float of every s-th one: s = 8 one per sector (every sector of a line),
// 16 every other sector, 32 one sector a line, 64 every other line
__global__ void k_sector_stride(const float *__restrict__ in, float *out, long m, int s)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < m) out[i] = in[i * s];
}
// the same, writing: one float into every s-th slot
__global__ void k_sector_stride_wr(float *out, long m, int s)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < m) out[i * s] = (float)i;
}
__device__ __forceinline__ uint32_t mix32(uint32_t x)
{
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}
// v floats (1, 4 or 8) of a random sector each lane: 4 B, 16 B or the whole 32 B
__global__ void k_gather(const float *__restrict__ in, float *out, long m, uint32_t mask, int v)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i >= m) return;
    const float *p = in + (long)(mix32((uint32_t)i) & mask) * 8;
    float s = p[0];
    if (v >= 4) { float4 q = *(const float4 *)p; s += q.y + q.z + q.w; }
    if (v >= 8) { float4 q = *(const float4 *)(p + 4); s += q.x + q.y + q.z + q.w; }
    out[i] = s;
}
__global__ void k_scatter(float *out, long m, uint32_t mask, int v)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i >= m) return;
    float *p = out + (long)(mix32((uint32_t)i) & mask) * 8;
    if (v >= 8) {
        *(float4 *)p = make_float4(1, 2, 3, (float)i);
        *(float4 *)(p + 4) = make_float4(5, 6, 7, (float)i);
    } else {
        p[0] = (float)i;
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) g_reps = atoi(argv[1]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    int dev = 0, sms = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    float *out;
    CK(cudaMalloc(&out, 1 << 24));
    icache_cases<256, 4>(out, sms);
    icache_cases<1024, 4>(out, sms);
    icache_cases<4096, 4>(out, sms);
    icache_cases<8192, 4>(out, sms);
    icache_cases<16384, 4>(out, sms);
    icache_cases<1024, 1>(out, sms);
    icache_cases<8192, 1>(out, sms);

    const long n = 1L << 25;  // floats an array: 128 MB
    const long n4 = n / 4;
    float *a, *b, *c, *x, *y;
    CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4)); CK(cudaMalloc(&c, n * 4));
    CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&y, n * 4));
    CK(cudaMemset(a, 0, n * 4)); CK(cudaMemset(b, 0, n * 4)); CK(cudaMemset(c, 0, n * 4));
    CK(cudaMemset(x, 0, n * 4)); CK(cudaMemset(y, 0, n * 4));
    const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b, *c4 = (const float4 *)c;
    float4 *x4 = (float4 *)x, *y4 = (float4 *)y;
    char nm[96];
    int gs = sms * 8;  // grid-stride grids: 8 blocks of 256 an SM
    long sizes[] = {n4 / 4, n4};
    for (long m : sizes) {
        int mb = (int)(m * 16 >> 20);
        snprintf(nm, sizeof nm, "dram_read_mb%d", mb);
        CASE("dram", nm, (k_read4<<<gs, 256>>>(a4, out, m)));
        snprintf(nm, sizeof nm, "dram_write_mb%d", mb);
        CASE("dram", nm, (k_write4<<<gs, 256>>>(x4, m)));
        snprintf(nm, sizeof nm, "dram_r1w1_mb%d", mb);
        CASE("dram", nm, (k_mix4<<<gs, 256>>>(a4, b4, c4, x4, y4, m, 1, 1)));
        snprintf(nm, sizeof nm, "dram_r2w1_mb%d", mb);
        CASE("dram", nm, (k_mix4<<<gs, 256>>>(a4, b4, c4, x4, y4, m, 2, 1)));
        snprintf(nm, sizeof nm, "dram_r3w1_mb%d", mb);
        CASE("dram", nm, (k_mix4<<<gs, 256>>>(a4, b4, c4, x4, y4, m, 3, 1)));
        snprintf(nm, sizeof nm, "dram_r1w2_mb%d", mb);
        CASE("dram", nm, (k_mix4<<<gs, 256>>>(a4, b4, c4, x4, y4, m, 1, 2)));
        snprintf(nm, sizeof nm, "dram_inplace_mb%d", mb);
        CASE("dram", nm, (k_inplace4<<<gs, 256>>>(x4, m)));
    }
    int strides[] = {8, 16, 32, 64};
    for (int s : strides) {
        long m = n / s;
        snprintf(nm, sizeof nm, "dram_sect_s%d", s);
        CASE("dram", nm, (k_sector_stride<<<(unsigned)((m + 255) / 256), 256>>>(a, out, m < (1 << 22) ? m : (1 << 22), s)));
        snprintf(nm, sizeof nm, "dram_sectwr_s%d", s);
        CASE("dram", nm, (k_sector_stride_wr<<<(unsigned)((m + 255) / 256), 256>>>(x, m, s)));
    }
    // random sectors over the whole 128 MB array (2^22 sectors), 2^22 lanes
    long m = 1L << 22;
    uint32_t mask = (uint32_t)(n / 8 - 1);
    int widths[] = {1, 4, 8};
    for (int v : widths) {
        snprintf(nm, sizeof nm, "dram_gather_v%d", v);
        CASE("dram", nm, (k_gather<<<(unsigned)(m / 256), 256>>>(a, x, m, mask, v)));
    }
    for (int v : {1, 8}) {
        snprintf(nm, sizeof nm, "dram_scatter_v%d", v);
        CASE("dram", nm, (k_scatter<<<(unsigned)(m / 256), 256>>>(y, m, mask, v)));
    }
    // random sectors within 16 MB (fits L2): the same gathers, L2-bound
    snprintf(nm, sizeof nm, "dram_gather_v8_l2");
    CASE("dram", nm, (k_gather<<<(unsigned)(m / 256), 256>>>(a, x, m, (1u << 19) - 1, 8)));
    printf("done %d launches\n", g_launch);
    return 0;
}
