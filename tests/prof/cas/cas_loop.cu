// A compare-and-swap increment loop on naddr counters: n threads, n / naddr contenders of
// each counter. Launched contended (64 counters) and uncontended (one counter a thread).
#include <cstdio>

__global__ void cas_inc(int *ctr, int naddr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int *p = &ctr[i % naddr], old = *p, assumed;
    do { assumed = old; old = atomicCAS(p, assumed, assumed + 1); } while (old != assumed);
}

int main()
{
    const int n = 1 << 14;
    int *ctr, h[64];
    cudaMalloc(&ctr, n * sizeof(int));
    cudaMemset(ctr, 0, n * sizeof(int));
    cas_inc<<<n / 256, 256>>>(ctr, 64, n);
    cas_inc<<<n / 256, 256>>>(ctr, n, n);
    cudaMemcpy(h, ctr, sizeof h, cudaMemcpyDeviceToHost);
    printf("counter 0: %d\n", h[0]);  // 256 + 1
    return 0;
}
