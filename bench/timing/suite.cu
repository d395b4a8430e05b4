// bench/timing/suite.cu — the timing model's calibration and validation suite.
//
// Many small kernels, one class of behaviour each (memory patterns, arithmetic pipes,
// shared memory, divergence, atomics at every contention level, constant and texture
// reads, shuffles, dependency chains, grid shapes, occupancy limits, mapped and managed
// memory, parameter blocks, printf and clock), each launched at a few sizes. Every launch
// is announced on stdout first ("L <n> <class> <case>"), so a profile of the program (Nsight
// Compute on a GPU, `vcuda prof` on vcuda) can be matched launch by launch:
// bench/timing/compare.py does that. Each case runs REPS times (argument 1, default 2).
// Device-side launches are in suite_dp.cu (they need -rdc=true).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

static int g_launch = 0, g_reps = 2, g_from = 0;
static void announce(const char *cls, const char *name)
{
    printf("L %d %s %s\n", g_launch++, cls, name);
}
#define AFTER() do { CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); } while (0)
// run a launch statement REPS times, each announced
// (launches numbered below g_from, argument 2, are counted but not made: a partial rerun)
#define CASE(cls, name, launch) do { for (int r_ = 0; r_ < g_reps; r_++) { \
    if (g_launch < g_from) { g_launch++; continue; } \
    announce(cls, name); launch; AFTER(); } } while (0)

// ---------------- memory-bound ----------------
__global__ void k_copy(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
__global__ void k_copy4(const float4 *__restrict__ in, float4 *__restrict__ out, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) out[i] = in[i];
}
__global__ void k_saxpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void k_strided(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(int)(((long long)i * stride) % n)];
}
__global__ void k_misaligned(const float *in, float *out, int n, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i + off];
}
__global__ void k_gridstride(const float *in, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i] * 2.0f;
}
__global__ void k_transpose(const float *in, float *out, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < w) out[x * w + y] = in[y * w + x];
}
__global__ void k_memset(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 1.0f;
}
__global__ void k_reread(const float *in, float *out, int n, int window, int k)
{
    // each thread reads k values from a small window: L1/L2 hits after the first touch
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0;
    for (int j = 0; j < k; j++) s += in[(i + j * 32) % window];
    out[i] = s;
}
__global__ void k_random(const int *idx, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[idx[i]];
}

// ---------------- compute ----------------
__global__ void k_fp32(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = i * 1e-7f, b = a + 1, c = a + 2, d = a + 3;
    for (int j = 0; j < iters; j++) {
        a = fmaf(a, 0.999f, 0.001f); b = fmaf(b, 0.999f, 0.002f);
        c = fmaf(c, 0.999f, 0.003f); d = fmaf(d, 0.999f, 0.004f);
    }
    out[i] = a + b + c + d;
}
__global__ void k_fp32chain(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = i * 1e-7f;
    for (int j = 0; j < iters; j++) a = fmaf(a, 0.999f, 0.001f);
    out[i] = a;
}
__global__ void k_fp64(double *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double a = i * 1e-7, b = a + 1, c = a + 2, d = a + 3;
    for (int j = 0; j < iters; j++) {
        a = fma(a, 0.999, 0.001); b = fma(b, 0.999, 0.002);
        c = fma(c, 0.999, 0.003); d = fma(d, 0.999, 0.004);
    }
    out[i] = a + b + c + d;
}
__global__ void k_fp64chain(double *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double a = i * 1e-7;
    for (int j = 0; j < iters; j++) a = fma(a, 0.999, 0.001);
    out[i] = a;
}
__global__ void k_fp64div(double *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double a = 1.0 + i * 1e-7;
    for (int j = 0; j < iters; j++) a = 1.0 + 1.0 / (a + j);
    out[i] = a;
}
__global__ void k_fp16(__half2 *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half2 a = __floats2half2_rn(i * 1e-3f, 0.5f), b = __floats2half2_rn(0.25f, 0.75f);
    __half2 m = __floats2half2_rn(0.999f, 0.999f), c = __floats2half2_rn(0.001f, 0.002f);
    for (int j = 0; j < iters; j++) { a = __hfma2(a, m, c); b = __hfma2(b, m, c); }
    out[i] = __hadd2(a, b);
}
__global__ void k_int(unsigned *out, int iters)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a = i, b = i ^ 0x9e3779b9u;
    for (int j = 0; j < iters; j++) { a = a * 1664525u + 1013904223u; b ^= b << 13; b ^= b >> 17; b ^= b << 5; }
    out[i] = a ^ b;
}
__global__ void k_intdiv(unsigned *out, int iters, unsigned d0)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a = i + 12345u, s = 0;
    for (int j = 0; j < iters; j++) { s += a / (d0 + j); a += s % (d0 + 3); }
    out[i] = s;
}
__global__ void k_sfu(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = i * 1e-6f, s = 0;
    for (int j = 0; j < iters; j++) { s += __sinf(a) + __expf(-a) + rsqrtf(a + 1.0f); a += 0.01f; }
    out[i] = s;
}
__global__ void k_mathlib(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = i * 1e-3f, s = 0;
    for (int j = 0; j < iters; j++) { s += sinf(a) * expf(-a * 0.001f) + sqrtf(a) / (a + 1.0f); a += 0.37f; }
    out[i] = s;
}
__global__ void k_dmathlib(double *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double a = i * 1e-3, s = 0;
    for (int j = 0; j < iters; j++) { s += sin(a) + sqrt(a) + exp(-a * 0.001); a += 0.37; }
    out[i] = s;
}

// ---------------- shared memory ----------------
__global__ void k_smem(float *out, int iters, int stride)
{
    __shared__ float s[32 * 33];
    int t = threadIdx.x;
    for (int j = t; j < 32 * 33; j += blockDim.x) s[j] = j;
    __syncthreads();
    float acc = 0;
    int lane = t & 31;
    for (int j = 0; j < iters; j++) {
        acc += s[(lane * stride + j) % (32 * 33)];
        s[(lane * stride + j + 7) % (32 * 33)] = acc;
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}
__global__ void k_smem_reduce(const float *in, float *out, int n)
{
    extern __shared__ float sd[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    sd[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) sd[t] += sd[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = sd[0];
}
__global__ void k_tiled_transpose(const float *in, float *out, int w)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---------------- divergence ----------------
__global__ void k_diverge(float *out, int iters, int ways)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int path = (threadIdx.x & 31) % ways;
    float a = i * 1e-6f;
    switch (path) {
    case 0: for (int j = 0; j < iters; j++) a = fmaf(a, 0.99f, 0.1f); break;
    case 1: for (int j = 0; j < iters; j++) a = fmaf(a, 0.98f, 0.2f); break;
    case 2: for (int j = 0; j < iters; j++) a = fmaf(a, 0.97f, 0.3f); break;
    case 3: for (int j = 0; j < iters; j++) a = fmaf(a, 0.96f, 0.4f); break;
    default: for (int j = 0; j < iters; j++) a = fmaf(a, 0.95f, 0.01f * path); break;
    }
    out[i] = a;
}
__global__ void k_dataloop(const int *trip, float *out, int n)
{
    // per-thread trip counts: warps run as long as their longest lane
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = 0;
    for (int j = 0; j < trip[i]; j++) a = fmaf(a, 0.9f, 1.0f);
    out[i] = a;
}

// ---------------- atomics ----------------
__global__ void k_atom_red(int *ctr, int naddr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&ctr[i % naddr], 1);
}
__global__ void k_atom_ret(int *ctr, int *out, int naddr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = atomicAdd(&ctr[i % naddr], 1);
}
__global__ void k_atom_f32(float *ctr, int naddr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&ctr[(i * 7) % naddr], 0.5f);
}
__global__ void k_atom_cas(int *ctr, int naddr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int *p = &ctr[i % naddr], old = *p, assumed;
    do { assumed = old; old = atomicCAS(p, assumed, assumed + 1); } while (old != assumed);
}
__global__ void k_satom(int *out, int nbins, int iters)
{
    __shared__ int bins[1024];
    int t = threadIdx.x;
    for (int j = t; j < 1024; j += blockDim.x) bins[j] = 0;
    __syncthreads();
    for (int j = 0; j < iters; j++) atomicAdd(&bins[(t * 17 + j) % nbins], 1);
    __syncthreads();
    for (int j = t; j < nbins; j += blockDim.x) atomicAdd(&out[j], bins[j]);
}
__global__ void k_histo(const unsigned *data, int *hist, int n, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[data[i] % nbins], 1);
}

// ---------------- constant, texture, shuffles ----------------
__constant__ float c_tab[4096];
__global__ void k_const(float *out, int iters, int spread)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int j = 0; j < iters; j++) s += c_tab[(j * 5 + (threadIdx.x & 31) * spread) & 4095];
    out[i] = s;
}
__global__ void k_tex(cudaTextureObject_t t, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, (int)(((long long)i * stride) % n));
}
__global__ void k_shfl(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i;
    for (int j = 0; j < iters; j++)
        for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m) * 0.5f;
    out[i] = v;
}
__global__ void k_vote(int *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
    for (int j = 0; j < iters; j++) s += __popc(__ballot_sync(0xffffffffu, ((i + j) & 3) == 0));
    out[i] = s;
}

// ---------------- latency chains ----------------
__global__ void k_chase(const int *next, int *out, int steps)
{
    int p = threadIdx.x * 32;
    for (int j = 0; j < steps; j++) p = next[p];
    out[blockIdx.x * blockDim.x + threadIdx.x] = p;
}

// ---------------- grid shapes and occupancy ----------------
__global__ void k_empty() {}
__global__ void k_tiny(int *out) { out[threadIdx.x] = threadIdx.x; }
__global__ void k_occ_smem(const float *in, float *out, int n, int iters)
{
    extern __shared__ float pad[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) pad[0] = 1.0f;
    __syncthreads();
    float s = pad[0];
    for (int j = 0; j < iters; j++) s += in[(i + j * 4096) % n];
    out[i] = s;
}
__global__ void k_occ_regs(const float *in, float *out, int n, int iters)
{
    // many live values: ptxas gives it many registers, so few warps fit an SM
    float acc[48];
#pragma unroll
    for (int k = 0; k < 48; k++) acc[k] = in[(blockIdx.x * blockDim.x + threadIdx.x + k * 977) % n];
    for (int j = 0; j < iters; j++) {
#pragma unroll
        for (int k = 0; k < 48; k++) acc[k] = fmaf(acc[k], acc[(k + 1) % 48], 0.5f);
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < 48; k++) s += acc[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void k_local(float *out, int iters, int sel)
{
    // a dynamically indexed array: local memory
    float a[64];
    int t = threadIdx.x;
    for (int k = 0; k < 64; k++) a[k] = t + k;
    for (int j = 0; j < iters; j++) a[(j * sel + t) & 63] += a[(j + t) & 63];
    out[blockIdx.x * blockDim.x + t] = a[t & 63];
}

// ---------------- parameters, printf, clock ----------------
template <int N> struct Params { float v[N]; };
template <int N>
__global__ void k_params(Params<N> p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0;
    for (int j = 0; j < 8; j++) s += p.v[(i + j * 13) % N];
    out[i] = s;
}
__global__ void k_printf(int every)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i % every == 0) printf("p %d\n", i);
}
__global__ void k_clock(long long *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long s = 0;
    for (int j = 0; j < iters; j++) { long long t0 = clock64(); s += clock64() - t0; }
    out[i] = s > 0;
}

// ---------------- host side ----------------
static unsigned rng_state = 12345u;
static unsigned rnd() { rng_state = rng_state * 1664525u + 1013904223u; return rng_state >> 8; }

template <int N> static void params_case(const char *name, float *out, int n)
{
    static Params<N> p;
    for (int k = 0; k < N; k++) p.v[k] = (float)(k % 17);
    CASE("params", name, (k_params<N><<<(n + 255) / 256, 256>>>(p, out, n)));
}

int main(int argc, char **argv)
{
    if (argc > 1) g_reps = atoi(argv[1]);
    if (argc > 2) g_from = atoi(argv[2]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    const int NMAX = 16 << 20;
    float *a, *b;
    int *ia, *ib;
    CK(cudaMalloc(&a, (NMAX + 64) * sizeof(float)));
    CK(cudaMalloc(&b, (NMAX + 64) * sizeof(float)));
    CK(cudaMalloc(&ia, (NMAX + 64) * sizeof(int)));
    CK(cudaMalloc(&ib, (NMAX + 64) * sizeof(int)));
    float *h = (float *)malloc((NMAX + 64) * sizeof(float));
    int *hi = (int *)malloc((NMAX + 64) * sizeof(int));
    for (int k = 0; k < NMAX + 64; k++) { h[k] = (float)(k % 1000) * 0.001f; hi[k] = (int)(rnd() % (1 << 20)); }
    CK(cudaMemcpy(a, h, (NMAX + 64) * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, h, (NMAX + 64) * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ia, hi, (NMAX + 64) * sizeof(int), cudaMemcpyHostToDevice));
    char nm[128];
    const int msizes[3] = {1 << 18, 1 << 21, 1 << 24};

    // memory-bound
    for (int n : msizes) {
        snprintf(nm, sizeof nm, "copy_n%d", n);
        CASE("mem_coalesced", nm, (k_copy<<<(n + 255) / 256, 256>>>(a, b, n)));
        snprintf(nm, sizeof nm, "copy4_n%d", n);
        CASE("mem_coalesced", nm, (k_copy4<<<(n / 4 + 255) / 256, 256>>>((float4 *)a, (float4 *)b, n / 4)));
        snprintf(nm, sizeof nm, "saxpy_n%d", n);
        CASE("mem_coalesced", nm, (k_saxpy<<<(n + 255) / 256, 256>>>(a, b, 2.0f, n)));
        snprintf(nm, sizeof nm, "memset_n%d", n);
        CASE("mem_coalesced", nm, (k_memset<<<(n + 255) / 256, 256>>>(b, n)));
        snprintf(nm, sizeof nm, "gridstride_n%d", n);
        CASE("mem_coalesced", nm, (k_gridstride<<<264, 512>>>(a, b, n)));
        for (int off : {1, 3}) {
            snprintf(nm, sizeof nm, "misaligned_o%d_n%d", off, n);
            CASE("mem_misaligned", nm, (k_misaligned<<<(n + 255) / 256, 256>>>(a, b, n, off)));
        }
    }
    for (int n : {1 << 18, 1 << 21, 1 << 23})
        for (int st : {2, 8, 33, 1024}) {
            snprintf(nm, sizeof nm, "strided_s%d_n%d", st, n);
            CASE("mem_strided", nm, (k_strided<<<(n + 255) / 256, 256>>>(a, b, n, st)));
        }
    for (int n : {1 << 18, 1 << 21, 1 << 23}) {
        snprintf(nm, sizeof nm, "random_n%d", n);
        CASE("mem_strided", nm, (k_random<<<(n + 255) / 256, 256>>>(ia, a, b, n)));
    }
    for (int w : {512, 1024, 2048}) {
        snprintf(nm, sizeof nm, "transpose_w%d", w);
        CASE("mem_strided", nm, (k_transpose<<<dim3(w / 32, w / 8), dim3(32, 8)>>>(a, b, w)));
        snprintf(nm, sizeof nm, "tiled_transpose_w%d", w);
        CASE("shared", nm, (k_tiled_transpose<<<dim3(w / 32, w / 32), dim3(32, 8)>>>(a, b, w)));
    }
    for (int win : {1024, 65536, 1 << 22})
        for (int n : {1 << 16, 1 << 19}) {
            snprintf(nm, sizeof nm, "reread_w%d_n%d", win, n);
            CASE("cache_reuse", nm, (k_reread<<<(n + 255) / 256, 256>>>(a, b, n, win, 16)));
        }

    // compute
    for (int th : {1 << 14, 1 << 17, 1 << 20})
        for (int it : {32, 256}) {
            if (th == (1 << 20) && it == 256) continue;
            int g = th / 256;
            snprintf(nm, sizeof nm, "fp32_t%d_i%d", th, it);
            CASE("fp32", nm, (k_fp32<<<g, 256>>>(b, it)));
            snprintf(nm, sizeof nm, "fp32chain_t%d_i%d", th, it);
            CASE("fp32", nm, (k_fp32chain<<<g, 256>>>(b, it)));
            snprintf(nm, sizeof nm, "fp64_t%d_i%d", th, it);
            CASE("fp64", nm, (k_fp64<<<g, 256>>>((double *)b, it)));
            snprintf(nm, sizeof nm, "fp64chain_t%d_i%d", th, it);
            CASE("fp64", nm, (k_fp64chain<<<g, 256>>>((double *)b, it)));
            snprintf(nm, sizeof nm, "fp64div_t%d_i%d", th, it / 4);
            CASE("fp64", nm, (k_fp64div<<<g, 256>>>((double *)b, it / 4)));
            snprintf(nm, sizeof nm, "fp16_t%d_i%d", th, it);
            CASE("fp16", nm, (k_fp16<<<g, 256>>>((__half2 *)b, it)));
            snprintf(nm, sizeof nm, "int_t%d_i%d", th, it);
            CASE("int", nm, (k_int<<<g, 256>>>((unsigned *)b, it)));
            snprintf(nm, sizeof nm, "intdiv_t%d_i%d", th, it / 4);
            CASE("int", nm, (k_intdiv<<<g, 256>>>((unsigned *)b, it / 4, 7u)));
            snprintf(nm, sizeof nm, "sfu_t%d_i%d", th, it);
            CASE("sfu", nm, (k_sfu<<<g, 256>>>(b, it)));
            snprintf(nm, sizeof nm, "mathlib_t%d_i%d", th, it / 4);
            CASE("sfu", nm, (k_mathlib<<<g, 256>>>(b, it / 4)));
            snprintf(nm, sizeof nm, "dmathlib_t%d_i%d", th, it / 8);
            CASE("fp64", nm, (k_dmathlib<<<g, 256>>>((double *)b, it / 8)));
        }

    // shared memory
    for (int blocks : {132, 1056})
        for (int st : {1, 2, 32, 33})
            for (int it : {64, 512}) {
                snprintf(nm, sizeof nm, "smem_b%d_s%d_i%d", blocks, st, it);
                CASE("shared", nm, (k_smem<<<blocks, 256>>>(b, it, st)));
            }
    for (int n : msizes)
        for (int bs : {128, 512}) {
            snprintf(nm, sizeof nm, "smem_reduce_b%d_n%d", bs, n);
            CASE("shared", nm, (k_smem_reduce<<<(n + bs - 1) / bs, bs, bs * sizeof(float)>>>(a, b, n)));
        }

    // divergence
    for (int th : {1 << 15, 1 << 18})
        for (int ways : {1, 2, 4, 8, 32}) {
            snprintf(nm, sizeof nm, "diverge_t%d_w%d", th, ways);
            CASE("divergent", nm, (k_diverge<<<th / 256, 256>>>(b, 64, ways)));
        }
    {
        int *trip = (int *)malloc((1 << 20) * sizeof(int));
        for (int k = 0; k < (1 << 20); k++) trip[k] = (k % 32 == 0) ? 200 : 8;
        CK(cudaMemcpy(ib, trip, (1 << 20) * sizeof(int), cudaMemcpyHostToDevice));
        for (int n : {1 << 16, 1 << 20}) {
            snprintf(nm, sizeof nm, "dataloop_n%d", n);
            CASE("divergent", nm, (k_dataloop<<<n / 256, 256>>>(ib, b, n)));
        }
        free(trip);
    }

    // atomics (global): every contention level
    int *ctr;
    CK(cudaMalloc(&ctr, (1 << 22) * sizeof(int)));
    CK(cudaMemset(ctr, 0, (1 << 22) * sizeof(int)));
    for (int n : {1 << 16, 1 << 20, 1 << 22})
        for (int na : {1, 32, 1024, 1 << 16, 1 << 22}) {
            if (na > n && na != (1 << 22)) continue;
            snprintf(nm, sizeof nm, "atom_red_a%d_n%d", na, n);
            CASE("atomic_global", nm, (k_atom_red<<<n / 256, 256>>>(ctr, na, n)));
            snprintf(nm, sizeof nm, "atom_ret_a%d_n%d", na, n);
            CASE("atomic_global", nm, (k_atom_ret<<<n / 256, 256>>>(ctr, ib, na, n)));
            snprintf(nm, sizeof nm, "atom_f32_a%d_n%d", na, n);
            CASE("atomic_global", nm, (k_atom_f32<<<n / 256, 256>>>((float *)ctr, na, n)));
        }
    for (int n : {1 << 14, 1 << 18})
        for (int na : {64, 4096, 1 << 18}) {
            snprintf(nm, sizeof nm, "atom_cas_a%d_n%d", na, n);
            CASE("atomic_global", nm, (k_atom_cas<<<n / 256, 256>>>(ctr, na, n)));
        }
    {
        unsigned *hd = (unsigned *)malloc((1 << 22) * sizeof(unsigned));
        for (int k = 0; k < (1 << 22); k++) hd[k] = rnd();
        CK(cudaMemcpy(ia, hd, (1 << 22) * sizeof(unsigned), cudaMemcpyHostToDevice));
        free(hd);
        for (int n : {1 << 18, 1 << 22})
            for (int nb : {16, 256, 65536}) {
                snprintf(nm, sizeof nm, "histo_b%d_n%d", nb, n);
                CASE("atomic_global", nm, (k_histo<<<n / 256, 256>>>((unsigned *)ia, ctr, n, nb)));
            }
    }
    // atomics (shared)
    for (int blocks : {132, 1056})
        for (int nb : {1, 8, 32, 1024}) {
            snprintf(nm, sizeof nm, "satom_b%d_bins%d", blocks, nb);
            CASE("atomic_shared", nm, (k_satom<<<blocks, 256>>>(ctr, nb, 64)));
        }

    // constant, texture, shuffles
    {
        float ct[4096];
        for (int k = 0; k < 4096; k++) ct[k] = k * 0.25f;
        CK(cudaMemcpyToSymbol(c_tab, ct, sizeof ct));
    }
    for (int th : {1 << 15, 1 << 18})
        for (int sp : {0, 1, 32}) {
            snprintf(nm, sizeof nm, "const_t%d_sp%d", th, sp);
            CASE("constant", nm, (k_const<<<th / 256, 256>>>(b, 64, sp)));
        }
    {
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = a;
        rd.res.linear.desc = cudaCreateChannelDesc<float>();
        rd.res.linear.sizeInBytes = (size_t)(1 << 22) * sizeof(float);
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        td.readMode = cudaReadModeElementType;
        cudaTextureObject_t tex;
        CK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
        for (int n : {1 << 16, 1 << 19, 1 << 22})
            for (int st : {1, 33}) {
                snprintf(nm, sizeof nm, "tex_s%d_n%d", st, n);
                CASE("texture", nm, (k_tex<<<n / 256, 256>>>(tex, b, n, st)));
            }
        CK(cudaDestroyTextureObject(tex));
    }
    for (int th : {1 << 15, 1 << 18})
        for (int it : {8, 64}) {
            snprintf(nm, sizeof nm, "shfl_t%d_i%d", th, it);
            CASE("shuffle", nm, (k_shfl<<<th / 256, 256>>>(b, it)));
            snprintf(nm, sizeof nm, "vote_t%d_i%d", th, it * 4);
            CASE("shuffle", nm, (k_vote<<<th / 256, 256>>>((int *)b, it * 4)));
        }

    // latency chains: pointer chase over cycles of several lengths (one sector a step)
    {
        const int NC = 1 << 23;  // ints: 32 MiB
        int *hn = (int *)malloc(NC * sizeof(int));
        int *cyc = ib;
        for (int len : {64, 4096, 1 << 18}) {
            // a random cycle over len slots 32 ints (128 bytes) apart, each warp lane starting
            // at its own slot (threadIdx.x * 32)
            int *perm = (int *)malloc(len * sizeof(int));
            for (int k = 0; k < len; k++) perm[k] = k;
            for (int k = len - 1; k > 0; k--) { int j = rnd() % (k + 1); int t = perm[k]; perm[k] = perm[j]; perm[j] = t; }
            memset(hn, 0, NC * sizeof(int));
            for (int k = 0; k < len; k++) hn[perm[k] * 32] = perm[(k + 1) % len] * 32;
            CK(cudaMemcpy(cyc, hn, NC * sizeof(int), cudaMemcpyHostToDevice));
            for (int steps : {256, 2048}) {
                snprintf(nm, sizeof nm, "chase_c%d_s%d_w1", len, steps);
                CASE("latency", nm, (k_chase<<<1, 1>>>(cyc, (int *)b, steps)));
                snprintf(nm, sizeof nm, "chase_c%d_s%d_w32", len, steps);
                CASE("latency", nm, (k_chase<<<1, 32>>>(cyc, (int *)b, steps)));
            }
            free(perm);
        }
        free(hn);
        for (int it : {1024, 8192}) {
            snprintf(nm, sizeof nm, "fp32chain_1warp_i%d", it);
            CASE("latency", nm, (k_fp32chain<<<1, 32>>>(b, it)));
            snprintf(nm, sizeof nm, "fp64chain_1warp_i%d", it);
            CASE("latency", nm, (k_fp64chain<<<1, 32>>>((double *)b, it)));
            snprintf(nm, sizeof nm, "shfl_1warp_i%d", it / 8);
            CASE("latency", nm, (k_shfl<<<1, 32>>>(b, it / 8)));
            snprintf(nm, sizeof nm, "sfu_1warp_i%d", it / 4);
            CASE("latency", nm, (k_sfu<<<1, 32>>>(b, it / 4)));
        }
    }

    // grid shapes
    for (int g : {1, 132, 4096, 65536}) {
        snprintf(nm, sizeof nm, "empty_g%d", g);
        CASE("grid", nm, (k_empty<<<g, 32>>>()));
    }
    for (int bs : {1, 32, 1024}) {
        snprintf(nm, sizeof nm, "tiny_b%d", bs);
        CASE("grid", nm, (k_tiny<<<1, bs>>>((int *)b)));
    }
    for (int g : {16384, 131072}) {
        snprintf(nm, sizeof nm, "manyblocks_g%d", g);
        CASE("grid", nm, (k_tiny<<<g, 64>>>((int *)b)));
    }

    // occupancy limits
    CK(cudaFuncSetAttribute(k_occ_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    for (int sm : {16, 48 * 1024, 100 * 1024, 200 * 1024})
        for (int n : {1 << 18, 1 << 21}) {
            snprintf(nm, sizeof nm, "occ_smem_s%d_n%d", sm, n);
            CASE("occupancy", nm, (k_occ_smem<<<n / 256, 256, sm>>>(a, b, n, 16)));
        }
    for (int n : {1 << 16, 1 << 19, 1 << 21}) {
        snprintf(nm, sizeof nm, "occ_regs_n%d", n);
        CASE("occupancy", nm, (k_occ_regs<<<n / 256, 256>>>(a, b, n, 8)));
    }
    for (int th : {1 << 14, 1 << 18})
        for (int it : {16, 128}) {
            snprintf(nm, sizeof nm, "local_t%d_i%d", th, it);
            CASE("occupancy", nm, (k_local<<<th / 256, 256>>>(b, it, 5)));
        }

    // host-mapped (zero-copy) memory
    {
        float *hm_in, *hm_out, *dm_in, *dm_out;
        CK(cudaHostAlloc(&hm_in, (4 << 20) * sizeof(float), cudaHostAllocMapped));
        CK(cudaHostAlloc(&hm_out, (4 << 20) * sizeof(float), cudaHostAllocMapped));
        for (int k = 0; k < (4 << 20); k++) hm_in[k] = k * 0.5f;
        CK(cudaHostGetDevicePointer(&dm_in, hm_in, 0));
        CK(cudaHostGetDevicePointer(&dm_out, hm_out, 0));
        for (int n : {1 << 14, 1 << 18, 1 << 22}) {
            snprintf(nm, sizeof nm, "mapped_read_n%d", n);
            CASE("mapped", nm, (k_copy<<<n / 256, 256>>>(dm_in, b, n)));
            snprintf(nm, sizeof nm, "mapped_write_n%d", n);
            CASE("mapped", nm, (k_copy<<<n / 256, 256>>>(a, dm_out, n)));
            snprintf(nm, sizeof nm, "mapped_both_n%d", n);
            CASE("mapped", nm, (k_copy<<<n / 256, 256>>>(dm_in, dm_out, n)));
        }
        CK(cudaFreeHost(hm_in));
        CK(cudaFreeHost(hm_out));
    }

    // managed memory: written by the host before each launch, so the kernel's first touches
    // migrate pages; and prefetched to the device first
    {
        float *mm;
        const int NM = 1 << 22;
        CK(cudaMallocManaged(&mm, NM * sizeof(float)));
        for (int n : {1 << 14, 1 << 18, 1 << 22}) {
            snprintf(nm, sizeof nm, "managed_hostinit_n%d", n);
            CASE("managed", nm, (memset(mm, 0, n * sizeof(float)), k_saxpy<<<n / 256, 256>>>(a, mm, 2.0f, n)));
            snprintf(nm, sizeof nm, "managed_resident_n%d", n);
            CASE("managed", nm, (k_saxpy<<<n / 256, 256>>>(a, mm, 2.0f, n)));
        }
        CK(cudaFree(mm));
    }

    // parameter blocks
    for (int n : {1 << 16, 1 << 20}) {
        snprintf(nm, sizeof nm, "params_64f_n%d", n);
        params_case<64>(nm, b, n);
        snprintf(nm, sizeof nm, "params_1024f_n%d", n);
        params_case<1024>(nm, b, n);
        snprintf(nm, sizeof nm, "params_8000f_n%d", n);
        params_case<8000>(nm, b, n);
    }

    // printf and clock
    for (int ev : {4096, 256, 32}) {
        snprintf(nm, sizeof nm, "printf_every%d", ev);
        CASE("printf", nm, (k_printf<<<16, 256>>>(ev)));
    }
    for (int th : {32, 1 << 15})
        for (int it : {16, 256}) {
            snprintf(nm, sizeof nm, "clock_t%d_i%d", th, it);
            CASE("clock", nm, (k_clock<<<(th + 255) / 256, th < 256 ? th : 256>>>((long long *)b, it)));
        }

    printf("done %d launches\n", g_launch);
    return 0;
}
