/* thrust_sort.cu — thrust::sort of 2^N 32-bit keys (N = 24 unless given) against std::sort
 * of the same keys on the host, side by side in one process: the keys come from a fixed
 * generator, both results are compared, and the wall time of each sort is printed (the
 * device sort timed from its launch to the end of cudaDeviceSynchronize, with the keys
 * already on the device; a first sort of 2^16 keys warms the library and, on vcuda, loads
 * the module and its compiled kernels, so that neither counts).
 * Usage: thrust_sort [log2 of the key count] [repetitions] */
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

static double now_s(void) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double cpu_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    int lg = argc > 1 ? atoi(argv[1]) : 24;
    int reps = argc > 2 ? atoi(argv[2]) : 1;
    if (lg < 1 || lg > 30 || reps < 1) {
        fprintf(stderr, "usage: thrust_sort [log2 count 1..30] [repetitions]\n");
        return 2;
    }
    size_t n = (size_t)1 << lg;
    std::vector<uint32_t> keys(n);
    uint64_t s = 0x853c49e6748fea9bull;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        keys[i] = (uint32_t)(s >> 32);
    }
    {
        thrust::device_vector<uint32_t> warm(keys.begin(), keys.begin() + std::min<size_t>(n, 1 << 16));
        thrust::sort(warm.begin(), warm.end());
        cudaDeviceSynchronize();
    }
    double best_host = 1e30, best_dev = 1e30, cpu_host = 1e30, cpu_dev = 1e30;
    std::vector<uint32_t> host, back(n);
    for (int r = 0; r < reps; r++) {
        host = keys;
        double t0 = now_s(), c0 = cpu_s();
        std::sort(host.begin(), host.end());
        best_host = std::min(best_host, now_s() - t0);
        cpu_host = std::min(cpu_host, cpu_s() - c0);
        thrust::device_vector<uint32_t> d(keys.begin(), keys.end());
        cudaDeviceSynchronize();
        t0 = now_s();
        c0 = cpu_s();
        thrust::sort(d.begin(), d.end());
        cudaError_t e = cudaDeviceSynchronize();
        best_dev = std::min(best_dev, now_s() - t0);
        cpu_dev = std::min(cpu_dev, cpu_s() - c0);
        if (e != cudaSuccess) {
            printf("thrust::sort: %s\n", cudaGetErrorName(e));
            return 1;
        }
        thrust::copy(d.begin(), d.end(), back.begin());
    }
    bool same = host == back;
    printf("keys 2^%d = %zu, best of %d\n", lg, n, reps);
    printf("std::sort    wall %9.3f s  cpu %9.3f s\n", best_host, cpu_host);
    printf("thrust::sort wall %9.3f s  cpu %9.3f s\n", best_dev, cpu_dev);
    printf("ratio thrust/std wall %.2f  cpu %.2f\n", best_dev / best_host, cpu_dev / cpu_host);
    printf("results %s\n", same ? "identical" : "DIFFER");
    return same ? 0 : 1;
}
