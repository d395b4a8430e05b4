// bench/timing/suite_occ.cu — the timing suite's occupancy sweep: one kernel (the suite's
// k_occ_smem: 16 coalesced loads a thread, mostly L2 hits) at 1, 2, 4 and 8 resident blocks
// an SM, set by its dynamic shared memory, over 1 to 16 waves; the same blocks per SM
// reached without shared memory (grids of one wave); the shared-memory carveout chosen by
// hand (cudaFuncAttributePreferredSharedMemoryCarveout) at one occupancy; and an L1-reuse
// kernel whose window fits the L1 only when the carveout leaves it room. Every launch is
// announced on stdout first ("L <n> <class> <case>"); each case runs twice (argument 1).
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
// the same kernel, its carveout set by hand (the attribute is the function's)
__global__ void k_occ_carve(const float *in, float *out, int n, int iters)
{
    extern __shared__ float pad[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) pad[0] = 1.0f;
    __syncthreads();
    float s = pad[0];
    for (int j = 0; j < iters; j++) s += in[(i + j * 4096) % n];
    out[i] = s;
}
// every block of an SM sweeps one window of w floats, iters times: L1 hits if it fits
__global__ void k_l1reuse(const float *in, float *out, int w, int iters)
{
    float s = 0;
    int base = (blockIdx.x % 8) * 32;
    for (int j = 0; j < iters; j++)
        for (int k = threadIdx.x; k < w; k += blockDim.x) s += in[(base + k) % w];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main(int argc, char **argv)
{
    if (argc > 1) g_reps = atoi(argv[1]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    int sms = 132;
    const int NMAX = 132 * 8 * 16 * 256;
    float *a, *b;
    CK(cudaMalloc(&a, NMAX * sizeof(float)));
    CK(cudaMalloc(&b, NMAX * sizeof(float)));
    CK(cudaMemset(a, 0, NMAX * sizeof(float)));
    char nm[128];
    CK(cudaFuncSetAttribute(k_occ_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    const int shm[4] = {16, 48 * 1024, 100 * 1024, 200 * 1024}, per_sm[4] = {8, 4, 2, 1};
    for (int s = 0; s < 4; s++)
        for (int w : {1, 2, 4, 16}) {
            int grid = sms * per_sm[s] * w, n = grid * 256;
            snprintf(nm, sizeof nm, "occsw_b%d_w%d", per_sm[s], w);
            CASE("occ_sweep", nm, (k_occ_smem<<<grid, 256, shm[s]>>>(a, b, n, 16)));
        }
    // one wave, 1, 2 or 4 blocks an SM without shared memory (8 would fit)
    for (int g : {1, 2, 4}) {
        snprintf(nm, sizeof nm, "occsw_noshm_g%d", sms * g);
        CASE("occ_sweep", nm, (k_occ_smem<<<sms * g, 256, 16>>>(a, b, sms * g * 256, 16)));
    }
    // the carveout by hand at 8 blocks an SM (16 bytes each): all shared, or all L1
    for (int c : {0, 100}) {
        CK(cudaFuncSetAttribute(k_occ_carve, cudaFuncAttributePreferredSharedMemoryCarveout, c));
        snprintf(nm, sizeof nm, "occ_carve%d", c);
        CASE("occ_carve", nm, (k_occ_carve<<<8192, 256, 16>>>(a, b, 8192 * 256, 16)));
    }
    // L1 reuse: a 16 KB and a 96 KB window, the carveout by hand
    for (int kb : {16, 96})
        for (int c : {0, 100}) {
            CK(cudaFuncSetAttribute(k_l1reuse, cudaFuncAttributePreferredSharedMemoryCarveout, c));
            snprintf(nm, sizeof nm, "l1reuse_w%dk_c%d", kb, c);
            CASE("occ_carve", nm, (k_l1reuse<<<sms * 4, 256>>>(a, b, kb * 256, 8)));
        }
    printf("done %d launches\n", g_launch);
    return 0;
}
