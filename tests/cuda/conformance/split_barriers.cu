// Barriers reached by part of a warp: since Volta barrier.sync without .aligned (what
// cooperative groups' sync() compiles to) counts threads, so the two halves of a warp may
// wait at different barriers (if/else, nested branches, a loop, barrier.red in both
// branches, with threads that returned early) and the barrier still completes.
// (__syncthreads() is bar.sync, an aligned barrier: split like this it hangs.) Each
// kernel's results are checked against a C model of it; the checksums let a run be
// compared with the GPU's.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

#define SYNC() cg::this_thread_block().sync()

// barrier.red.popc / .or without .aligned (there is no CUDA intrinsic for them)
__device__ int countTrue(bool p)
{
    int c;
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tbarrier.red.popc.u32 %0, 0, q;\n\t}"
                 : "=r"(c) : "r"((unsigned)p) : "memory");
    return c;
}
__device__ int anyTrue(bool p)
{
    unsigned c;
    asm volatile("{\n\t.reg .pred q, r;\n\tsetp.ne.u32 q, %1, 0;\n\tbarrier.red.or.pred r, 0, q;\n\t"
                 "selp.u32 %0, 1, 0, r;\n\t}" : "=r"(c) : "r"((unsigned)p) : "memory");
    return (int)c;
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__global__ void splitIfElse(int *out)
{
    __shared__ int s[1024];
    int t = threadIdx.x, n = blockDim.x;
    if (t % 32 < 16) {
        s[t] = t * 2;
        SYNC();
        out[t] = s[(t + 48) % n];
    } else {
        s[t] = t * 3 + 1;
        SYNC();
        out[t] = s[(t + 48) % n] + 100000;
    }
    unsigned b = __ballot_sync(0xffffffffu, out[t] >= 100000);
    out[n + t] = __popc(__activemask()) * 100 + __popc(b);
}

__global__ void splitTwice(int *out)
{
    __shared__ int s[1024];
    int t = threadIdx.x, n = blockDim.x, v;
    s[t] = t;
    SYNC();
    if (t & 1) {
        v = s[(t + 1) % n];
        SYNC();
        s[t] = v * 10;
        SYNC();
        v = s[(t + n - 1) % n];
    } else {
        v = s[(t + 3) % n];
        SYNC();
        s[t] = v * 10 + 1;
        SYNC();
        v = s[(t + 5) % n] + 7;
    }
    out[t] = v;
}

__global__ void splitNested(int *out)
{
    __shared__ int s[1024];
    int t = threadIdx.x, n = blockDim.x, lane = t % 32, v;
    if (lane < 16) {
        if (lane < 8) { s[t] = 1000 + t; SYNC(); v = s[(t + 8) % n]; }
        else          { s[t] = 2000 + t; SYNC(); v = s[(t + 8) % n] * 2; }
    } else {
        s[t] = 3000 + t;
        SYNC();
        v = s[(t + 16) % n] * 3;
    }
    out[t] = v + __popc(__activemask());
}

__global__ void splitLoop(int *out, int rounds)
{
    __shared__ int s[1024];
    int t = threadIdx.x, n = blockDim.x, acc = t;
    for (int r = 0; r < rounds; r++) {
        if ((t + r) % 2) { s[t] = acc;     SYNC(); acc += s[(t + 1) % n]; }
        else             { s[t] = acc * 2; SYNC(); acc -= s[(t + 1) % n]; }
        SYNC();
    }
    out[t] = acc;
}

__global__ void splitCount(int *out, int live)
{
    int t = threadIdx.x;
    if (t >= live) return;
    int c;
    if (t % 3 == 0) c = countTrue(t % 2);
    else            c = countTrue(t % 5 == 0) + 1000;
    int o = anyTrue(t == live - 1);
    out[t] = c + o * 100000;
}

// ---- C models ----
static int lanesOf(int n, int t) { int r = n - t / 32 * 32; return r < 32 ? r : 32; }

static void modelIfElse(int n, int *m)
{
    for (int t = 0; t < n; t++) {
        int j = (t + 48) % n, sj = j % 32 < 16 ? j * 2 : j * 3 + 1;
        m[t] = t % 32 < 16 ? sj : sj + 100000;
        int lanes = lanesOf(n, t), upper = lanes > 16 ? lanes - 16 : 0;
        m[n + t] = lanes * 100 + upper;
    }
}
static void modelTwice(int n, int *m)
{
    int *s = (int *)malloc(n * sizeof(int)), *v = (int *)malloc(n * sizeof(int));
    for (int t = 0; t < n; t++) s[t] = t;
    for (int t = 0; t < n; t++) v[t] = t & 1 ? s[(t + 1) % n] : s[(t + 3) % n];
    for (int t = 0; t < n; t++) s[t] = t & 1 ? v[t] * 10 : v[t] * 10 + 1;
    for (int t = 0; t < n; t++) m[t] = t & 1 ? s[(t + n - 1) % n] : s[(t + 5) % n] + 7;
    free(s); free(v);
}
static void modelNested(int n, int *m)
{
    int *s = (int *)malloc(n * sizeof(int));
    for (int t = 0; t < n; t++) s[t] = (t % 32 < 8 ? 1000 : t % 32 < 16 ? 2000 : 3000) + t;
    for (int t = 0; t < n; t++) {
        int lane = t % 32;
        int v = lane < 8 ? s[(t + 8) % n] : lane < 16 ? s[(t + 8) % n] * 2 : s[(t + 16) % n] * 3;
        m[t] = v + lanesOf(n, t);
    }
    free(s);
}
static void modelLoop(int n, int rounds, int *m)
{
    int *s = (int *)malloc(n * sizeof(int));
    for (int t = 0; t < n; t++) m[t] = t;
    for (int r = 0; r < rounds; r++) {
        for (int t = 0; t < n; t++) s[t] = (t + r) % 2 ? m[t] : m[t] * 2;
        for (int t = 0; t < n; t++) m[t] += (t + r) % 2 ? s[(t + 1) % n] : -s[(t + 1) % n];
    }
    free(s);
}
static void modelCount(int n, int live, int *m)
{
    int popc = 0;
    for (int t = 0; t < live; t++) popc += t % 3 == 0 ? t % 2 : t % 5 == 0;
    for (int t = 0; t < n; t++) m[t] = t >= live ? -1 : (t % 3 == 0 ? popc : popc + 1000) + 100000;
}

static int failures = 0;

static void compare(const char *what, int n, const int *got, const int *want, int count)
{
    unsigned sum = 0;
    int bad = 0, first = -1;
    for (int i = 0; i < count; i++) {
        sum = sum * 31u + (unsigned)got[i];
        if (got[i] != want[i]) { if (first < 0) first = i; bad++; }
    }
    printf("%-12s n=%4d checksum %08x %s", what, n, sum, bad ? "MISMATCH" : "ok");
    if (bad) printf(" (%d wrong, first [%d] = %d, expected %d)", bad, first, got[first], want[first]);
    printf("\n");
    failures += bad != 0;
}

int main()
{
    const int sizes[] = {32, 64, 80, 96, 256, 1024};
    int *d, *h = (int *)malloc(2048 * sizeof(int)), *m = (int *)malloc(2048 * sizeof(int));
    CHECK(cudaMalloc(&d, 2048 * sizeof(int)));
    for (int k = 0; k < 6; k++) {
        int n = sizes[k];
        splitIfElse<<<2, n>>>(d);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h, d, 2 * n * sizeof(int), cudaMemcpyDeviceToHost));
        modelIfElse(n, m);
        compare("if/else", n, h, m, 2 * n);
        splitTwice<<<1, n>>>(d);
        CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
        modelTwice(n, m);
        compare("twice", n, h, m, n);
        splitNested<<<1, n>>>(d);
        CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
        modelNested(n, m);
        compare("nested", n, h, m, n);
        splitLoop<<<3, n>>>(d, 5);
        CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
        modelLoop(n, 5, m);
        compare("loop", n, h, m, n);
    }
    const int lives[] = {1, 17, 40, 64};
    for (int k = 0; k < 4; k++) {
        CHECK(cudaMemset(d, 0xff, 64 * sizeof(int)));
        splitCount<<<1, 64>>>(d, lives[k]);
        CHECK(cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost));
        modelCount(64, lives[k], m);
        char what[32];
        snprintf(what, sizeof what, "count/%d", lives[k]);
        compare(what, 64, h, m, 64);
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(d));
    free(h); free(m);
    printf("%s (%d mismatching runs)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
