#include <cstdio>
__global__ void child(int *data, int depth) { data[threadIdx.x] += depth; }
__global__ void parent(int *data)
{
    if (threadIdx.x == 0) child<<<1, 32>>>(data, 1);
}
