// Kernels for tests/unit/test_exec_sync.c: shared-memory reductions and barriers.
// PTX: nvcc -arch=sm_90 -ptx reduce.cu -o reduce.ptx

// bar.sync tree reduction down to 64, then the warp-synchronous volatile unrolled tail.
extern "C" __global__ void reduce(const int *in, int *out, unsigned n) {
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *v = sdata;
        v[tid] += v[tid + 32];
        v[tid] += v[tid + 16];
        v[tid] += v[tid + 8];
        v[tid] += v[tid + 4];
        v[tid] += v[tid + 2];
        v[tid] += v[tid + 1];
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Threads that return early count as arrived at later barriers.
extern "C" __global__ void early_exit_barrier(int *out, int live) {
    __shared__ int s[256];
    int t = threadIdx.x;
    if (t >= live) return;
    s[t] = t + 1;
    __syncthreads();
    int sum = 0;
    for (int k = 0; k < live; k++) sum += s[k];
    __syncthreads();
    out[t] = sum;
}

// __syncthreads_count / _and / _or.
extern "C" __global__ void sync_reductions(int *out, int v) {
    int c = __syncthreads_count(threadIdx.x < v);
    int a = __syncthreads_and(threadIdx.x < v);
    int o = __syncthreads_or(threadIdx.x < v);
    out[threadIdx.x] = c + a * 1000 + o * 10000;
}

// Threads that exit instead of reaching a barrier count as arrived.
extern "C" __global__ void half_warp_barrier(int *out) {
    if (threadIdx.x % 32 < 16) {
        __syncthreads();
        out[threadIdx.x] = 1;
    }
}

// Each half of a warp waits at its own barrier: sm_70 and later count threads, so the
// barrier completes (before Volta a barrier in divergent code could hang).
extern "C" __global__ void divergent_barrier(int *out) {
    if (threadIdx.x % 32 < 16) {
        __syncthreads();
        out[threadIdx.x] = 1;
    } else {
        out[threadIdx.x] = 2;
        __syncthreads();
    }
}

// 2-D block: thread indices and a shared transpose through a barrier.
extern "C" __global__ void transpose(const int *in, int *out) {
    __shared__ int tile[16][17];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 16 + x];
    __syncthreads();
    out[y * 16 + x] = tile[x][y];
}
