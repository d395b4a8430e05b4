// Kernels for tests/unit/test_exec_basic.c: vector add, divergence, reconvergence.
// PTX: nvcc -arch=sm_90 -ptx basic.cu -o basic.ptx

extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

// if/else by parity, nested if/else, and an early return.
extern "C" __global__ void branches(int *out, int *nested, int *early) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i & 1) out[i] = i * 3;
    else out[i] = i * 5;
    int v;
    if (i % 4 < 2) {
        if (i % 2) v = 10 + i;
        else v = 20 + i;
    } else {
        if (i % 8 == 2) v = 30 + i;
        else v = 40 + i;
    }
    nested[i] = v;
    if (i % 3 == 0) return;
    early[i] = 7 + i;
}

// Loops whose trip count differs per lane, with a data-dependent break.
extern "C" __global__ void loops(int *out) {
    int i = threadIdx.x;
    int sum = 0;
    for (int j = 0; j < i % 7; j++) {
        sum += j * i;
        for (int k = 0; k < (j & 3); k++) sum ^= k + j;
        if (sum > 5000) break;
    }
    out[i] = sum;
}

// After divergence the warp must run in lockstep again: each lane reads what its
// neighbour stored, with no synchronisation beyond reconvergence (warp-synchronous code
// as written for pre-Volta GPUs).
extern "C" __global__ void reconverge(int *out) {
    __shared__ volatile int s[64];
    int i = threadIdx.x;
    int v;
    if (i % 3 == 0) v = i * 2;
    else if (i % 3 == 1) v = i * 3;
    else v = i * 4;
    s[i] = v;
    out[i] = s[i ^ 1];
}
