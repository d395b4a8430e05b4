// bench/timing/suite_diag.cu — why the occupancy sweep's and the L1-reuse kernel's blocks
// take longer on an H100 than the timing model's critical path: the same kernels as
// suite_occ.cu (k_occ_smem, k_l1reuse), each beside a copy whose index wraps with a mask
// instead of a signed remainder (the remainder's SASS sequence against the loads), and
// copies that read %clock64 at a block's start and end (thread 0, after a barrier), so that
// a block's own duration is measured at 1, 2, 4 and 8 blocks an SM and alone on the GPU.
// Every launch is announced on stdout ("L <n> <class> <case>"); a clocked launch prints
// "C <case> <blocks> <mean cycles> <min> <max>" after it. Diagnostics, not a suite: no
// split, not compared (data/diag.* keeps what the GPU gave).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

static int g_launch = 0, g_reps = 2;
#define CASE(cls, name, launch) do { for (int r_ = 0; r_ < g_reps; r_++) { \
    printf("L %d %s %s\n", g_launch++, cls, name); launch; CK(cudaGetLastError()); \
    CK(cudaDeviceSynchronize()); } } while (0)

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
__global__ void k_occ_mask(const float *in, float *out, int mask, int iters)
{
    extern __shared__ float pad[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) pad[0] = 1.0f;
    __syncthreads();
    float s = pad[0];
    for (int j = 0; j < iters; j++) s += in[(i + j * 4096) & mask];
    out[i] = s;
}
__global__ void k_occ_clk(const float *in, float *out, int n, int iters, long long *clk)
{
    extern __shared__ float pad[];
    long long t0 = clock64();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) pad[0] = 1.0f;
    __syncthreads();
    float s = pad[0];
    for (int j = 0; j < iters; j++) s += in[(i + j * 4096) % n];
    out[i] = s;
    __syncthreads();
    if (threadIdx.x == 0) clk[blockIdx.x] = clock64() - t0;
}
__global__ void k_l1reuse(const float *in, float *out, int w, int iters)
{
    float s = 0;
    int base = (blockIdx.x % 8) * 32;
    for (int j = 0; j < iters; j++)
        for (int k = threadIdx.x; k < w; k += blockDim.x) s += in[(base + k) % w];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void k_l1reuse_mask(const float *in, float *out, int w, int iters)
{
    float s = 0;
    int base = (blockIdx.x % 8) * 32;
    for (int j = 0; j < iters; j++)
        for (int k = threadIdx.x; k < w; k += blockDim.x) s += in[(base + k) & (w - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void k_l1reuse_clk(const float *in, float *out, int w, int iters, long long *clk)
{
    long long t0 = clock64();
    float s = 0;
    int base = (blockIdx.x % 8) * 32;
    for (int j = 0; j < iters; j++)
        for (int k = threadIdx.x; k < w; k += blockDim.x) s += in[(base + k) % w];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) clk[blockIdx.x] = clock64() - t0;
}

static long long *g_clk, *g_hclk;
static void report(const char *name, int blocks)
{
    CK(cudaMemcpy(g_hclk, g_clk, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    double sum = 0;
    long long lo = g_hclk[0], hi = g_hclk[0];
    for (int b = 0; b < blocks; b++) {
        sum += (double)g_hclk[b];
        if (g_hclk[b] < lo) lo = g_hclk[b];
        if (g_hclk[b] > hi) hi = g_hclk[b];
    }
    printf("C %s %d %.0f %lld %lld\n", name, blocks, sum / blocks, lo, hi);
}

int main(int argc, char **argv)
{
    if (argc > 1) g_reps = atoi(argv[1]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    const int sms = 132, NMAX = 132 * 8 * 16 * 256;
    float *a, *b;
    CK(cudaMalloc(&a, NMAX * sizeof(float)));
    CK(cudaMalloc(&b, NMAX * sizeof(float)));
    CK(cudaMemset(a, 0, NMAX * sizeof(float)));
    CK(cudaMalloc(&g_clk, 16384 * sizeof(long long)));
    g_hclk = (long long *)malloc(16384 * sizeof(long long));
    char nm[128];
    CK(cudaFuncSetAttribute(k_occ_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    CK(cudaFuncSetAttribute(k_occ_mask, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    CK(cudaFuncSetAttribute(k_occ_clk, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    const int shm[4] = {16, 48 * 1024, 100 * 1024, 200 * 1024}, per_sm[4] = {8, 4, 2, 1};
    // a lone block, and one wave of 1, 2, 4, 8 blocks an SM; then two and four waves of one
    for (int s = 0; s < 4; s++)
        for (int w : {1, 4}) {
            int grid = sms * per_sm[s] * w, n = grid * 256, mask = 1;
            while (mask < n) mask <<= 1;
            snprintf(nm, sizeof nm, "occ_b%d_w%d", per_sm[s], w);
            CASE("occ_mod", nm, (k_occ_smem<<<grid, 256, shm[s]>>>(a, b, n, 16)));
            CASE("occ_mask", nm, (k_occ_mask<<<grid, 256, shm[s]>>>(a, b, mask - 1, 16)));
            if (grid <= 16384) {
                CASE("occ_clk", nm, (k_occ_clk<<<grid, 256, shm[s]>>>(a, b, n, 16, g_clk)));
                report(nm, grid);
            }
        }
    for (int g : {1, 2}) {
        snprintf(nm, sizeof nm, "occ_lone_g%d", g);
        CASE("occ_mod", nm, (k_occ_smem<<<g, 256, 16>>>(a, b, 33792, 16)));
        CASE("occ_mask", nm, (k_occ_mask<<<g, 256, 16>>>(a, b, 65535, 16)));
        CASE("occ_clk", nm, (k_occ_clk<<<g, 256, 16>>>(a, b, 33792, 16, g_clk)));
        report(nm, g);
    }
    // the L1-reuse kernel (16 KB window, default carveout): 4 blocks an SM, 1, and alone
    for (int g : {sms * 4, sms, 1}) {
        snprintf(nm, sizeof nm, "l1r_g%d", g);
        CASE("l1r_mod", nm, (k_l1reuse<<<g, 256>>>(a, b, 4096, 8)));
        CASE("l1r_mask", nm, (k_l1reuse_mask<<<g, 256>>>(a, b, 4096, 8)));
        CASE("l1r_clk", nm, (k_l1reuse_clk<<<g, 256>>>(a, b, 4096, 8, g_clk)));
        report(nm, g);
    }
    // one warp alone
    CASE("l1r_mod", "l1r_warp", (k_l1reuse<<<1, 32>>>(a, b, 4096, 8)));
    CASE("l1r_mask", "l1r_warp", (k_l1reuse_mask<<<1, 32>>>(a, b, 4096, 8)));
    CASE("l1r_clk", "l1r_warp", (k_l1reuse_clk<<<1, 32>>>(a, b, 4096, 8, g_clk)));
    report("l1r_warp", 1);
    printf("done %d launches\n", g_launch);
    return 0;
}
