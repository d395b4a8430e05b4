#include <cstdio>
#include <cassert>
__global__ void hello(int v, double d)
{
    printf("hello from block %d thread %d: %d %f\n", blockIdx.x, threadIdx.x, v, d);
    assert(v != 42);
}
