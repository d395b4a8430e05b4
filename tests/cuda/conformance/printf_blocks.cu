// printf from many blocks and threads. The order in which different blocks' lines appear
// is not defined on a GPU, so one kernel prints from many blocks (compared sorted, the
// test's .unordered marker), while the order within one warp and the order between
// launches separated by synchronisation are fixed and printed as such by the host.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__global__ void hello()
{
    if (threadIdx.x % 16 == 0)
        printf("block (%d,%d) thread %3d: global %4d, %s\n", blockIdx.x, blockIdx.y, threadIdx.x,
               (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x, (threadIdx.x & 32) ? "odd warp" : "even warp");
}

__global__ void fromWarp(int launch)
{
    printf("launch %d lane %d\n", launch, threadIdx.x);
}

int main()
{
    hello<<<dim3(3, 2), 128>>>();
    CHECK(cudaDeviceSynchronize());
    printf("host: between launches\n");
    fflush(stdout);
    for (int l = 0; l < 3; l++) {
        fromWarp<<<1, 4>>>(l);
        CHECK(cudaDeviceSynchronize());
    }
    printf("host: end\n");
    return 0;
}
