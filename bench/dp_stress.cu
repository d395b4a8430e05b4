/* bench/dp_stress.cu — how far dynamic parallelism goes on the virtual GPU: the deepest
 * recursion and the most pending launches, with the time, the host memory (peak resident
 * set) and the host threads they take. Results go to bench/RESULTS.md.
 *
 *   depth N    one thread per grid launches the next grid, N grids deep (the pending
 *              limit is raised to N + 1: each level's launch is pending until it is done)
 *   tail N     the same chain through the tail launch stream
 *   fan B T    B blocks of T threads, every thread launches one grid of one thread
 *              (B*T launches pending at once; the limit is raised to fit)
 *
 * Build: vcuda cc -O2 -arch=sm_90 -rdc=true -o dp_stress bench/dp_stress.cu -lcudadevrt
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/resource.h>
#include <sys/time.h>
#include <cuda_runtime.h>

__device__ unsigned long long g_grids;
__device__ int g_deepest;
__device__ int g_failed;

__global__ void chain(int depth, int max, int tail)
{
    atomicAdd(&g_grids, 1ull);
    atomicMax(&g_deepest, depth);
    if (depth >= max)
        return;
    if (tail)
        chain<<<1, 1, 0, cudaStreamTailLaunch>>>(depth + 1, max, tail);
    else
        chain<<<1, 1>>>(depth + 1, max, tail);
    if (cudaGetLastError() != cudaSuccess)
        atomicAdd(&g_failed, 1);
}

__global__ void leaf()
{
    atomicAdd(&g_grids, 1ull);
}

__global__ void fan()
{
    leaf<<<1, 1>>>();
    if (cudaGetLastError() != cudaSuccess)
        atomicAdd(&g_failed, 1);
}

static double seconds()
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

static long threads_now()
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long n = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "Threads:", 8))
            n = atol(line + 8);
    if (f)
        fclose(f);
    return n;
}

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            printf("%s failed: %s\n", #call, cudaGetErrorName(e_));                      \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 3) {
        printf("usage: dp_stress depth N | tail N | fan BLOCKS THREADS\n");
        return 2;
    }
    const char *what = argv[1];
    long a = atol(argv[2]), b = argc > 3 ? atol(argv[3]) : 1;
    long launches = !strcmp(what, "fan") ? a * b : a;
    CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, (size_t)launches + 1));
    CHECK(cudaFree(0));
    double t0 = seconds();
    if (!strcmp(what, "fan"))
        fan<<<(unsigned)a, (unsigned)b>>>();
    else
        chain<<<1, 1>>>(0, (int)a, !strcmp(what, "tail"));
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double t = seconds() - t0;
    unsigned long long grids = 0;
    int deepest = 0, failed = 0;
    CHECK(cudaMemcpyFromSymbol(&grids, g_grids, sizeof grids));
    CHECK(cudaMemcpyFromSymbol(&deepest, g_deepest, sizeof deepest));
    CHECK(cudaMemcpyFromSymbol(&failed, g_failed, sizeof failed));
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%s %ld%s%s: %llu grids, deepest %d, %d launches refused, %.2f s (%.0f grids/s), "
           "peak RSS %ld MiB, %ld host threads\n",
           what, a, argc > 3 ? "x" : "", argc > 3 ? argv[3] : "", grids, deepest, failed, t,
           grids / t, ru.ru_maxrss / 1024, threads_now());
    return 0;
}
