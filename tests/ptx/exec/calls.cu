// Kernels for tests/unit/test_exec_calls.c: recursion, function pointers, printf, malloc.
// PTX: nvcc -arch=sm_90 -ptx calls.cu -o calls.ptx
#include <cstdio>

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

extern "C" __global__ void recursion(int *out) { out[threadIdx.x] = fib(threadIdx.x % 15); }

// Not a tail call: the store after the recursive call keeps every frame alive.
__device__ __noinline__ int depth(volatile int *p, int n) {
    if (n == 0) return *p;
    int r = depth(p, n - 1);
    *p = r;
    return r + 1;
}
extern "C" __global__ void deep(int *out, int n) { out[0] = depth(out + 1, n); }

typedef int (*op_fn)(int);
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }
__device__ __noinline__ int negate(int x) { return -x; }
__device__ op_fn ops[3] = {twice, square, negate};

extern "C" __global__ void pointers(int *out) {
    int i = threadIdx.x;
    out[i] = ops[i % 3](i);
}

extern "C" __global__ void print(int a, double d, const char *name) {
    int t = threadIdx.x;
    printf("t=%d a=%5d|%-4d|%04x|%X|%o %c %s\n", t, a + t, t, a, a, 8, 'A' + t, name);
    if (t == 0) {
        printf("%.3f %e %g %10.2f|%-8.1f|%+d %lld %llu %u %hhd %%\n", d, d, d, d, d, a,
               -1234567890123LL, 18446744073709551615ULL, 4000000000u, (signed char)300);
        printf("%ld %i %5s|%-5s|%.2s\n", (long)-5, -7, "ab", "cd", "xyz");
        printf("no args\n");
    }
}

extern "C" __global__ void heap(int **ptrs, int *sums) {
    int t = threadIdx.x;
    int *p = (int *)malloc(4 * sizeof(int));
    for (int k = 0; k < 4; k++) p[k] = t * 10 + k;
    ptrs[t] = p;
    int s = 0;
    for (int k = 0; k < 4; k++) s += p[k];
    sums[t] = s;
    if (t % 2) free(p);
}
