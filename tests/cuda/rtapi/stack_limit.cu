// stack_limit.cu — cudaLimitStackSize bounds recursion: a recursive device function runs
// to a given depth under a given per-thread stack limit, each case in a process of its own
// (a stack overflow is a sticky error that ends the context). Prints each case's result.
#include <sys/wait.h>
#include <unistd.h>

#include "../streams/streams_test.h"

__device__ int down(int n, int *trace) {
    int local[8];
    for (int i = 0; i < 8; i++) local[i] = n * 3 + i;
    trace[n & 63] = local[n & 7];
    if (n == 0) return local[5];
    int r = down(n - 1, trace);
    return r + local[(n * 5) & 7];
}

__global__ void recurse(int n, int *trace, int *out) { *out = down(n, trace); }

static int expected(int n) {
    int s = 5;
    for (int k = 1; k <= n; k++) s += k * 3 + ((k * 5) & 7);
    return s;
}

static void one_case(size_t limit, int depth) {
    int *trace, *out;
    OK(cudaMalloc(&trace, 64 * sizeof(int)));
    OK(cudaMallocManaged(&out, sizeof(int)));
    *out = -1;
    if (limit) OK(cudaDeviceSetLimit(cudaLimitStackSize, limit));
    size_t now = 0;
    OK(cudaDeviceGetLimit(&now, cudaLimitStackSize));
    recurse<<<2, 64>>>(depth, trace, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        printf("stack %zu, depth %d: ran, %s\n", now, depth,
               *out == expected(depth) ? "right result" : "WRONG result");
    else
        printf("stack %zu, depth %d: %s\n", now, depth, cudaGetErrorName(e));
    fflush(stdout);
}

int main() {
    static const struct { size_t limit; int depth; } cases[] = {
        {0, 4}, {0, 400}, {8192, 40}, {8192, 400}, {65536, 400}, {65536, 900},
    };
    for (const auto &c : cases) {
        pid_t pid = fork();
        if (pid == 0) {
            one_case(c.limit, c.depth);
            exit(0);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) printf("case ended abnormally\n");
    }
    cudaFuncAttributes a;
    OK(cudaFuncGetAttributes(&a, recurse));
    printf("info localSizeBytes %zu\n", a.localSizeBytes);
    size_t lim = 0;
    OK(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
    printf("default stack limit %zu\n", lim);
    return 0;
}
