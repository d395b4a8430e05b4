// Kernels for tests/unit/test_exec_faults.c: device faults and their diagnostics.
// PTX: nvcc -arch=sm_90 -lineinfo -ptx faults.cu -o faults.ptx, then the .file path
// shortened to "faults.cu"
#include <cassert>

extern "C" __global__ void out_of_bounds(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i + n] = i;
}

extern "C" __global__ void misaligned(char *p) {
    int *q = (int *)(p + 1 + threadIdx.x * 4);
    *q = 5;
}

extern "C" __global__ void shared_oob(int *out, int k) {
    __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x + k];
}

extern "C" __global__ void do_trap(int *p) {
    if (threadIdx.x == 3) asm volatile("trap;");
    p[threadIdx.x] = 1;
}

extern "C" __global__ void do_assert(const int *p) {
    assert(p[threadIdx.x] == 0);
}

extern "C" __global__ void spin(volatile int *flag) {
    while (*flag == 0) {}
}
