// tests/ptx/gpu/device.cu — kernels for tests/unit/test_gpu_device_exec.c, which runs them
// through the device layer on several host threads. device.ptx is made with:
//   nvcc -arch=sm_90 -ptx -o device.ptx device.cu
#include <cstdio>

__device__ unsigned smid() {
    unsigned r;
    asm("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

// Every block prints two lines, records its SM and adds its threads to a counter.
extern "C" __global__ void hello(unsigned *sm_of_block, unsigned *counter) {
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (threadIdx.x < 2)
        printf("block %u (%u,%u,%u) thread %u\n", b, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x);
    if (threadIdx.x == 0)
        sm_of_block[b] = smid();
    atomicAdd(counter, 1u);
}

// Block-wide sums with shared memory: out[b] = sum of in[b*blockDim .. +blockDim).
extern "C" __global__ void block_sum(const int *in, int *out) {
    extern __shared__ int s[];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half)
            s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// Block `bad` writes far out of bounds after printing; the others print and work a while.
extern "C" __global__ void fault_in(int *p, unsigned bad, unsigned spin) {
    if (threadIdx.x == 0)
        printf("block %u before\n", blockIdx.x);
    if (blockIdx.x == bad && threadIdx.x == 3)
        p[1 << 28] = 1;
    volatile int x = 0;
    for (unsigned i = 0; i < spin; i++)
        x += i;
    if (threadIdx.x == 0)
        printf("block %u after\n", blockIdx.x);
    p[blockIdx.x] = x;
}
