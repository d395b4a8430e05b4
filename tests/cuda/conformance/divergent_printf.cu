// Device printf from divergent code: which side of an if/else prints first, loops whose
// trip count differs by lane, an early return, and a branch inside a loop; the order of the
// lines is what the GPU's reconvergence produces, one warp at a time.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void branches(const int *v)
{
    int t = threadIdx.x;
    if (v[t] & 1) printf("odd  lane %d\n", t);
    else printf("even lane %d\n", t);
    printf("joined lane %d\n", t);
}

__global__ void loops(const int *v)
{
    int t = threadIdx.x;
    for (int i = 0; i < v[t]; i++) printf("lane %d iteration %d\n", t, i);
    printf("after loop lane %d\n", t);
}

__global__ void early(const int *v)
{
    int t = threadIdx.x;
    if (v[t] == 0) {
        printf("lane %d returns\n", t);
        return;
    }
    printf("lane %d continues\n", t);
    if (v[t] > 1) printf("lane %d big\n", t);
    printf("lane %d end\n", t);
}

__global__ void nested(const int *v)
{
    int t = threadIdx.x;
    for (int i = 0; i < 2; i++) {
        if ((t + i) % 3 == 0) printf("i=%d lane %d first\n", i, t);
        else if ((t + i) % 3 == 1) printf("i=%d lane %d second\n", i, t);
        else printf("i=%d lane %d third\n", i, t);
    }
}

int main()
{
    int h[8] = {3, 0, 2, 1, 0, 5, 2, 1};
    int *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    printf("-- if/else\n"); fflush(stdout);
    branches<<<1, 8>>>(d);
    cudaDeviceSynchronize();
    printf("-- loops\n"); fflush(stdout);
    loops<<<1, 8>>>(d);
    cudaDeviceSynchronize();
    printf("-- early return\n"); fflush(stdout);
    early<<<1, 8>>>(d);
    cudaDeviceSynchronize();
    printf("-- nested\n"); fflush(stdout);
    nested<<<1, 6>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
