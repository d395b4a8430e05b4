// Kernels for tests/unit/test_jit_barriers.c: the vector tier's barriers, run by the
// interpreter and by the compiled tier, which must leave the same memory and report the
// same faults. What each warp keeps across a barrier (uniform and affine registers, steps
// known only when the code runs, predicates, vectors of 32- and 64-bit lanes) must come
// back to the same warp after it; a block whose warps stop at different barriers and then
// leave the compiled code (a loop whose lanes part, a shuffle with lanes apart) must give
// the interpreter each warp's registers as they were.
// PTX made with: nvcc -arch=sm_90 -ptx -O2 jit_barriers.cu -o jit_barriers.ptx

// A tree reduction with a barrier after every step: the stride (uniform), tid and the
// address (affine), 2 * stride * tid (affine with a step of the run) and a predicate
// chosen before the barrier and read after it, all live across the barriers.
extern "C" __global__ void jb_tree(const int *in, int *out, int *trace, int sel) {
    __shared__ int s[1024];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    long long acc = (long long)in[i] * 3 - tid;   // a vector of 64-bit lanes
    int odd = in[i] & 1;                          // a flag of the lanes
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned index = 2 * stride * tid;
        int v = 0;
        if (index < blockDim.x) v = s[index] + s[index + stride];
        __syncthreads();
        if (index < blockDim.x) s[index] = v;
        acc += odd ? stride : (long long)v;
        __syncthreads();
        if (sel > 0 && stride == (unsigned)sel) odd ^= 1;
    }
    if (tid == 0) out[blockIdx.x] = s[0];
    trace[i] = (int)(acc ^ (acc >> 32)) + (odd ? 7 : 0);
}

// The warp-synchronous tail written with a barrier every few instructions (reads, barrier,
// writes, barrier), as reduceCompleteUnrollWarps8Sync.
extern "C" __global__ void jb_sync_tail(const int *in, int *out) {
    __shared__ int s[512];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid] + in[blockIdx.x * blockDim.x + tid] % 5;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 32; half >>= 1) {
        if (tid < half) s[tid] += s[tid + half];
        __syncthreads();
    }
    for (int offset = 32; offset > 0; offset >>= 1) {
        int v = 0;
        if (tid < 32) v = s[tid] + s[tid + offset];
        __syncthreads();
        if (tid < 32) s[tid] = v;
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

// Warps stop at different barriers, then one leaves the compiled code: after the first
// barrier the warps whose first lane is at or past `split` run a loop whose lanes part
// (its count depends on the lane), so the block goes to the interpreter while the warps
// before them wait at the second barrier with their registers and predicates kept.
extern "C" __global__ void jb_bail(const int *in, int *out, int split, int step) {
    __shared__ int s[1024];
    unsigned tid = threadIdx.x;
    unsigned base = blockIdx.x * blockDim.x;
    int x = in[base + tid];
    unsigned k = step * tid + 5;                  // affine, its step a value of the run
    bool p = (x % 3) == 0;
    s[tid] = x;
    __syncthreads();
    int y = s[(tid + 1) % blockDim.x] + (p ? (int)k : -(int)k);
    if ((int)(tid & ~31u) >= split) {
        for (int j = 0; j < (int)(tid % 7); j++) y = y * 3 + j;
    }
    __syncthreads();
    s[tid] = y + (int)k;
    __syncthreads();
    int z = s[blockDim.x - 1 - tid] ^ (p ? 0x55 : 0xaa);
    out[base + tid] = z + (int)(k * 2u);
}

// A shuffle with lanes apart after a barrier: the block goes to the interpreter there.
extern "C" __global__ void jb_shfl(const int *in, int *out, int lim) {
    __shared__ int s[256];
    unsigned tid = threadIdx.x;
    int x = in[blockIdx.x * blockDim.x + tid];
    unsigned w = tid / 32;
    s[tid] = x * 2;
    __syncthreads();
    int y = s[tid ^ 1] + (int)w;
    __syncthreads();
    if ((int)(tid % 32) < lim) y += __shfl_down_sync(0xffffffffu >> (32 - lim), y, 1);
    __syncthreads();
    out[blockIdx.x * blockDim.x + tid] = y + s[tid];
}

// Registers a warp defines once, before the loop of barriers (its thread index, an address
// made of it, a value equal in the warp but different in each warp, which looks like the
// block's), kept in the block's stash from where they are defined instead of at every
// barrier; beside them the stride, defined in the loop, a value set on one path of a
// branch on a parameter, an inner loop whose trip count differs from warp to warp, whole
// warps that leave before the first barrier, and in one round (stride == sel) a shuffle
// with lanes apart: the block goes to the interpreter with what each warp stashed.
extern "C" __global__ void jb_stash(const int *in, int *out, unsigned n, int sel, int lim) {
    __shared__ int s[1024];
    unsigned tid = threadIdx.x;
    unsigned first = blockIdx.x * blockDim.x;
    int wv = in[blockIdx.x * 32 + tid / 32] & 7;  // one value a warp, not the block's
    int *dst = out + first + tid;
    if (first + (tid & ~31u) >= n) return;        // whole warps leave
    unsigned live = n - first;                    // threads of warps still here
    int base = 0;
    if (sel & 1) base = in[blockIdx.x] * 5;       // set on one path
    s[tid] = in[first + tid];
    int t = 0;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride && tid + stride < live) s[tid] += s[tid + stride];
        int acc = 0;
        for (int j = 0; j < wv; j++) acc += j * (int)stride + 1;  // trips differ per warp
        int y = acc + (int)tid;
        if ((int)stride == sel && (int)(tid % 32) < lim)
            y += __shfl_down_sync(0xffffffffu >> (32 - lim), y, 1);
        t += y;
        __syncthreads();
    }
    *dst = s[0] + t + base + wv;
}
