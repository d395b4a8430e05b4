// Kernels for tests/unit/test_exec_barriers.c: barriers reached by part of a warp. On
// sm_70 and later bar.sync counts threads, so a barrier completes when every thread of
// the block that has not exited has arrived at a barrier with that id, even at different
// instructions, with a warp split across them.
// PTX: nvcc -arch=sm_90 -ptx barriers.cu -o barriers.ptx
//      nvcc -arch=sm_90 -G -ptx barriers.cu -o barriers.G.ptx

// Each half of every warp writes, then waits at its own __syncthreads; afterwards every
// thread reads what a thread of the other half (of another warp) wrote, and the whole
// warp, reconverged, takes part in a ballot.
extern "C" __global__ void split_if_else(int *out) {
    __shared__ int s[1024];
    int t = threadIdx.x, n = blockDim.x;
    if (t % 32 < 16) {
        s[t] = t * 2;
        __syncthreads();
        out[t] = s[(t + 48) % n];
    } else {
        s[t] = t * 3 + 1;
        __syncthreads();
        out[t] = s[(t + 48) % n] + 100000;
    }
    unsigned b = __ballot_sync(0xffffffffu, out[t] >= 100000);
    out[n + t] = __popc(__activemask()) * 100 + __popc(b);
}

// Two barriers on each side, with work between: the generations stay in step.
extern "C" __global__ void split_twice(int *out) {
    __shared__ int s[1024];
    int t = threadIdx.x, n = blockDim.x;
    s[t] = t;
    __syncthreads();
    int v;
    if (t & 1) {
        v = s[(t + 1) % n];
        __syncthreads();
        s[t] = v * 10;
        __syncthreads();
        v = s[(t + n - 1) % n];
    } else {
        v = s[(t + 3) % n];
        __syncthreads();
        s[t] = v * 10 + 1;
        __syncthreads();
        v = s[(t + 5) % n] + 7;
    }
    out[t] = v;
}

// Nested divergence: three groups of each warp at three different barrier instructions.
extern "C" __global__ void split_nested(int *out) {
    __shared__ int s[1024];
    int t = threadIdx.x, n = blockDim.x, lane = t % 32;
    int v;
    if (lane < 16) {
        if (lane < 8) {
            s[t] = 1000 + t;
            __syncthreads();
            v = s[(t + 8) % n];
        } else {
            s[t] = 2000 + t;
            __syncthreads();
            v = s[(t + 8) % n] * 2;
        }
    } else {
        s[t] = 3000 + t;
        __syncthreads();
        v = s[(t + 16) % n] * 3;
    }
    out[t] = v + __popc(__activemask());
}

// A loop whose body splits each warp by parity around a barrier, several times over.
extern "C" __global__ void split_loop(int *out, int rounds) {
    __shared__ int s[1024];
    int t = threadIdx.x, n = blockDim.x;
    int acc = t;
    for (int r = 0; r < rounds; r++) {
        if ((t + r) % 2) {
            s[t] = acc;
            __syncthreads();
            acc += s[(t + 1) % n];
        } else {
            s[t] = acc * 2;
            __syncthreads();
            acc -= s[(t + 1) % n];
        }
        __syncthreads();
    }
    out[t] = acc;
}

// Threads that exit early; the rest split around barriers with __syncthreads_count.
extern "C" __global__ void split_count(int *out, int live) {
    int t = threadIdx.x;
    if (t >= live) return;
    int c;
    if (t % 3 == 0)
        c = __syncthreads_count(t % 2);
    else
        c = __syncthreads_count(t % 5 == 0) + 1000;
    int o = __syncthreads_or(t == live - 1);
    out[t] = c + o * 100000;
}

// A true deadlock: each warp waits at a named barrier the other never reaches.
extern "C" __global__ void named_deadlock(int *out) {
    if (threadIdx.x < 32)
        asm volatile("bar.sync 1, 64;");
    else
        asm volatile("bar.sync 2, 64;");
    out[threadIdx.x] = 1;
}
