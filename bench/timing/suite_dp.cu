// bench/timing/suite_dp.cu — the timing suite's device-side launches (built with
// -rdc=true -lcudadevrt): parents that launch child grids from one thread, from every
// thread of a warp or of several blocks, and two levels deep. Every host launch is announced
// on stdout first ("L <n> <class> <case>") as in suite.cu; the child grids are not (a GPU
// profile lists only the host's launches, whose durations include their children's).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

static int g_launch = 0, g_reps = 2;
#define CASE(cls, name, launch) do { for (int r_ = 0; r_ < g_reps; r_++) { \
    printf("L %d %s %s\n", g_launch++, cls, name); launch; CK(cudaGetLastError()); \
    CK(cudaDeviceSynchronize()); } } while (0)

__global__ void k_child(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = out[i] * 0.5f + 1.0f;
}
__global__ void k_parent_one(float *out, int children, int cblocks)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        for (int c = 0; c < children; c++)
            k_child<<<cblocks, 256>>>(out + (size_t)c * cblocks * 256, cblocks * 256);
}
__global__ void k_parent_each(float *out, int cblocks)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    k_child<<<cblocks, 256>>>(out + (size_t)i * cblocks * 256, cblocks * 256);
}
__global__ void k_mid(float *out, int fan)
{
    if (threadIdx.x < fan)
        k_child<<<1, 256>>>(out + (size_t)threadIdx.x * 256, 256);
}
__global__ void k_parent_nested(float *out, int fan)
{
    if (threadIdx.x < fan)
        k_mid<<<1, 32>>>(out + (size_t)threadIdx.x * fan * 256, fan);
}
__global__ void k_parent_none(float *out, int n)
{
    // the same kernel shape with no launch: what the device runtime alone costs
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += 1.0f;
}

int main(int argc, char **argv)
{
    if (argc > 1) g_reps = atoi(argv[1]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    float *buf;
    const size_t N = 1 << 24;
    CK(cudaMalloc(&buf, N * sizeof(float)));
    CK(cudaMemset(buf, 0, N * sizeof(float)));
    char nm[96];
    for (int n : {32, 1 << 16}) {
        snprintf(nm, sizeof nm, "nolaunch_n%d", n);
        CASE("device_launch", nm, (k_parent_none<<<(n + 255) / 256, 256>>>(buf, n)));
    }
    for (int ch : {1, 4, 16})
        for (int cb : {1, 64}) {
            snprintf(nm, sizeof nm, "one_thread_c%d_b%d", ch, cb);
            CASE("device_launch", nm, (k_parent_one<<<1, 32>>>(buf, ch, cb)));
        }
    for (int pb : {1, 8})
        for (int cb : {1, 16}) {
            snprintf(nm, sizeof nm, "each_thread_p%d_b%d", pb, cb);
            CASE("device_launch", nm, (k_parent_each<<<pb, 32>>>(buf, cb)));
        }
    for (int fan : {2, 8}) {
        snprintf(nm, sizeof nm, "nested_f%d", fan);
        CASE("device_launch", nm, (k_parent_nested<<<1, 32>>>(buf, fan)));
    }
    printf("done %d launches\n", g_launch);
    return 0;
}
