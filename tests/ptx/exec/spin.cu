// Kernels for tests/unit/test_exec_spin.c: lanes of one warp that wait for each other
// (independent thread scheduling), and a long divergent loop that must still reconverge.
// PTX: nvcc -arch=sm_90 -ptx spin.cu -o spin.ptx

// Every thread takes one lock: the loop compiles to atom.cas + a backward branch, and the
// winner must get past the loop's exit while the losers of its own warp spin.
extern "C" __global__ void warp_lock(int *mutex, int *counter, int *order) {
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    volatile int *c = counter;
    int v = *c;
    *c = v + 1;
    order[v] = blockIdx.x * blockDim.x + threadIdx.x;
    __threadfence();
    atomicExch(mutex, 0);
}

// Lane 0 waits for a flag that lane 31 sets on the other side of a branch.
extern "C" __global__ void flag_handoff(int *flag, int *out) {
    unsigned lane = threadIdx.x & 31;
    if (lane == 0) {
        while (*(volatile int *)flag == 0) {
        }
        out[0] = 1;
    } else if (lane == 31) {
        *(volatile int *)flag = 1;
        out[1] = 2;
    }
}

// Lanes loop different numbers of times (plain arithmetic, far past any spin limit),
// then sum across the full warp: every lane must be back before the shuffles.
extern "C" __global__ void long_divergent_loop(int *out) {
    unsigned lane = threadIdx.x & 31;
    unsigned x = lane;
    for (unsigned i = 0; i < lane * 2000; i++) x = x * 1664525u + 1013904223u;
    int v = (int)(x & 0xff);
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    out[threadIdx.x] = v;
    out[32 + threadIdx.x] = (int)(x & 0xff);
}

// Lanes 0-3 of warp 0 wait for a flag that warp 1 sets late; the other lanes go straight
// on to __syncthreads() (bar.sync, aligned). The GPU holds those lanes at the if's end
// until the spinners come, so the barrier completes with the whole warp (CUB's onesweep
// radix sort waits on other blocks this way).
extern "C" __global__ void spin_then_syncthreads(int *flag, int *out, int delay) {
    if (threadIdx.x >= 32) {
        if (threadIdx.x == 32) {
            int s = 0;
            for (int i = 0; i < delay; i++) s += *(volatile int *)&out[63] + i;
            out[62] = s;
            *(volatile int *)flag = 1;
        }
    } else if (threadIdx.x < 4) {
        while (*(volatile int *)flag == 0) {
        }
    }
    __syncthreads();
    out[threadIdx.x] = threadIdx.x + 1;
}
