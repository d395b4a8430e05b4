// Dynamic stack allocation: alloca in a kernel and in a called function (freed when the
// function returns: 2000 calls of up to 276 bytes each), its alignment, and
// stacksave/stackrestore giving the memory back (the next alloca returns the same address).
// expected/stack_alloca.out was printed by an H200.
// nvcc-flags: -arch=sm_90
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>

__device__ __noinline__ int sum_squares(int n, int salt) {
    int *p = (int *)alloca(n * sizeof(int));
    for (int i = 0; i < n; i++) p[i] = i * i + salt;
    int s = 0;
    for (int i = n - 1; i >= 0; i -= 3) s += p[i];
    return s;
}

__global__ void kernel_alloca(int n, int *out) {
    int t = threadIdx.x;
    int len = n + t % 5;
    int *p = (int *)alloca(len * sizeof(int));
    for (int i = 0; i < len; i++) p[i] = i * 3 + t;
    int s = 0;
    for (int i = 0; i < len; i++) s += p[(i * 7) % len] * (i + 1);
    out[t] = s;
}

__global__ void called(int *out) {
    int t = threadIdx.x, s = 0;
    for (int k = 0; k < 2000; k++) s += sum_squares(40 + (k + t) % 30, k);
    out[t] = s;
}

__global__ void save_restore(unsigned *out) {
    uint64_t sp, a, b, c, al;
    asm volatile("stacksave.u64 %0;" : "=l"(sp));
    asm volatile("alloca.u64 %0, 40, 8;" : "=l"(a));
    asm volatile("alloca.u64 %0, 100, 64;" : "=l"(al));
    asm volatile("stackrestore.u64 %0;" ::"l"(sp));
    asm volatile("alloca.u64 %0, 40, 8;" : "=l"(b));
    asm volatile("alloca.u64 %0, 16, 16;" : "=l"(c));
    int t = threadIdx.x;
    /* the allocations are local memory: store through them and read back */
    asm volatile("st.local.u32 [%0], %1;" ::"l"(b), "r"(t * 11));
    unsigned v;
    asm volatile("ld.local.u32 %0, [%1];" : "=r"(v) : "l"(b));
    out[t * 6 + 0] = a == b;
    out[t * 6 + 1] = (unsigned)(al % 64);
    out[t * 6 + 2] = c > b && c - b >= 40;
    out[t * 6 + 3] = (unsigned)(c % 16);
    out[t * 6 + 4] = v;
    out[t * 6 + 5] = sp >= a + 40 || sp <= a; /* the allocation lies on one side of the saved pointer */
}

int main() {
    int *d;
    cudaMalloc(&d, 64 * 6 * sizeof(int));
    int h[64 * 6];
    kernel_alloca<<<2, 32>>>(37, d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("alloca in a kernel: %s\n ", cudaGetErrorString(e));
    for (int i = 0; i < 32; i++) printf(" %d", h[i]);
    printf("\n");
    called<<<1, 32>>>(d);
    e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("alloca in a called function, 2000 calls: %s\n ", cudaGetErrorString(e));
    for (int i = 0; i < 32; i++) printf(" %d", h[i]);
    printf("\n");
    save_restore<<<1, 32>>>((unsigned *)d);
    e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, 32 * 6 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("stacksave, alloca, stackrestore: %s\n", cudaGetErrorString(e));
    for (int t = 0; t < 32; t += 7)
        printf("  thread %d: same address %d, 64-aligned remainder %d, next one after %d, 16-aligned remainder %d, read back %d, outside the saved frame %d\n",
               t, h[t * 6], h[t * 6 + 1], h[t * 6 + 2], h[t * 6 + 3], h[t * 6 + 4], h[t * 6 + 5]);
    return 0;
}
