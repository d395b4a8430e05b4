/* dpLimits — the limits of device-side launches (CDP2).
 *
 *   depth    a kernel that launches itself until a launch fails: the deepest grid that
 *            ran and the error of the launch that did not;
 *   tail     the same recursion through the tail launch stream;
 *   pending  cudaLimitDevRuntimePendingLaunchCount set low from the host (before any
 *            launch), then one thread
 *            puts more grids into its tail launch stream than the limit allows (tail grids
 *            cannot start before the launching grid ends, so all of them are pending);
 *   fan-out  a grid of N blocks each launching one child (default limit).
 *
 * Build: nvcc -arch=sm_90 -rdc=true dpLimits.cu -lcudadevrt
 * Usage: dpLimits [fan-out blocks (default 1000)]   (depth, tail and fan-out)
 *        dpLimits pending                          (the pending-launch limit alone)
 */
#include "../../../examples/common.h"

#include <cstring>

__device__ int g_deepest;
__device__ int g_failDepth;
__device__ int g_failErr;
__device__ int g_ok, g_failed, g_firstFail, g_firstErr, g_leaves;

__global__ void deep(int depth, int maxDepth, int useTail)
{
    if (threadIdx.x != 0)
        return;
    atomicMax(&g_deepest, depth);
    if (depth >= maxDepth)
        return;
    if (useTail)
        deep<<<1, 32, 0, cudaStreamTailLaunch>>>(depth + 1, maxDepth, useTail);
    else
        deep<<<1, 32>>>(depth + 1, maxDepth, useTail);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        g_failDepth = depth;
        g_failErr = (int)e;
    }
}

__global__ void leaf()
{
    if (threadIdx.x == 0)
        atomicAdd(&g_leaves, 1);
}

__global__ void manyTails(int n)
{
    for (int i = 0; i < n; i++) {
        leaf<<<1, 32, 0, cudaStreamTailLaunch>>>();
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess) {
            g_ok++;
        } else {
            if (g_failed++ == 0) {
                g_firstFail = i;
                g_firstErr = (int)e;
            }
        }
    }
}

__global__ void fanOut()
{
    if (threadIdx.x != 0)
        return;
    leaf<<<1, 32>>>();
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        atomicAdd(&g_ok, 1);
    else if (atomicAdd(&g_failed, 1) == 0)
        g_firstErr = (int)e;
}

template <typename T> static T get(const T &symbol)
{
    T v;
    CHECK(cudaMemcpyFromSymbol(&v, symbol, sizeof v));
    return v;
}

static void clear()
{
    int zero = 0, minus = -1;
    CHECK(cudaMemcpyToSymbol(g_deepest, &zero, sizeof zero));
    CHECK(cudaMemcpyToSymbol(g_failDepth, &minus, sizeof minus));
    CHECK(cudaMemcpyToSymbol(g_failErr, &zero, sizeof zero));
    CHECK(cudaMemcpyToSymbol(g_ok, &zero, sizeof zero));
    CHECK(cudaMemcpyToSymbol(g_failed, &zero, sizeof zero));
    CHECK(cudaMemcpyToSymbol(g_firstFail, &minus, sizeof minus));
    CHECK(cudaMemcpyToSymbol(g_firstErr, &zero, sizeof zero));
    CHECK(cudaMemcpyToSymbol(g_leaves, &zero, sizeof zero));
}

static const char *name(int e) { return cudaGetErrorName((cudaError_t)e); }

/* The pending-launch limit, set before the first launch of the program. */
static void pendingTest()
{
    size_t limit = 0;
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
    printf("pending launch count limit: %zu\n", limit);
    cudaError_t setErr = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 100);
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
    printf("setting it to 100: %s; now %zu\n", cudaGetErrorName(setErr), limit);
    clear();
    manyTails<<<1, 1>>>(150);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("150 tail launches: %d accepted, %d refused, first refused #%d with %s; %d ran\n",
           get(g_ok), get(g_failed), get(g_firstFail), name(get(g_firstErr)), get(g_leaves));
    setErr = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 2048);
    if (setErr != cudaSuccess)
        printf("setting it back to 2048: %s\n", cudaGetErrorName(setErr));
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "pending")) {
        pendingTest();
        CHECK(cudaDeviceReset());
        return 0;
    }
    int fan = argc > 1 ? atoi(argv[1]) : 1000;

    for (int useTail = 0; useTail < 2; useTail++) {
        clear();
        deep<<<1, 32>>>(0, 40, useTail);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        int failDepth = get(g_failDepth);
        printf("%s recursion: deepest grid ran at depth %d", useTail ? "tail" : "nested",
               get(g_deepest));
        if (failDepth >= 0)
            printf("; the launch from depth %d failed with %s\n", failDepth, name(get(g_failErr)));
        else
            printf("; no launch failed\n");
    }

    clear();
    fanOut<<<fan, 32>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int failed = get(g_failed);
    printf("%d blocks each launching a child: %d accepted, %d refused%s%s; %d ran\n", fan,
           get(g_ok), failed, failed ? " with " : "", failed ? name(get(g_firstErr)) : "",
           get(g_leaves));

    CHECK(cudaDeviceReset());
    return 0;
}
