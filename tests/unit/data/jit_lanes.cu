// Kernels for tests/unit/test_jit_lanes.c: the vector tier's stores of some lanes of a warp
// (jit/vemit_lanes.c), run by the interpreter and by the compiled tier, which must leave the
// same memory. The lanes that store are each warp's mask from masks[]: every 2nd, 4th, 8th,
// 16th lane, single lanes at the edges of the host's chunks (0, 7, 8, 15, 16, 23, 24, 31),
// whole chunks with lanes beside them, and masks of more than 16 lanes outside whole chunks
// (the masked-store form). Stores of 32-bit lanes, of 64-bit slots 4 and 8 bytes wide,
// contiguous and strided (two words apart); and the divergent trees of reduceInteger
// (tid % (2 * stride), index = 2 * stride * tid), whose masks come from the strides.
// PTX made with: nvcc -arch=sm_90 -ptx -O2 jit_lanes.cu -o jit_lanes.ptx

// The lanes of warp w whose bit is set in masks[w] store, the others leave out[] as it was.
extern "C" __global__ void jl_store(const int *in, int *out, long long *out64, unsigned *out32,
                                    int *outs, unsigned *outs32, const unsigned *masks) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31u, w = tid >> 5;
    bool on = (masks[w] >> lane) & 1u;
    int v = in[tid] * 3 + (int)tid;                      // 32-bit lanes
    long long x = (long long)in[tid] * 1000003ll + tid;  // 64-bit slots
    unsigned y = (unsigned)(x >> 7);                     // a 32-bit value of 64-bit slots
    if (on) {
        out[tid] = v;
        out64[tid] = x;
        out32[tid] = y;
        outs[2 * tid + 1] = v;                           // strided: two words apart
        outs32[2 * tid] = y;
    }
}

// reduceNeighbored's tree: the lanes whose tid is a multiple of 2 * stride.
extern "C" __global__ void jl_tree(int *data, int *out) {
    unsigned tid = threadIdx.x;
    int *d = data + blockIdx.x * blockDim.x;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0) d[tid] += d[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = d[0];
}

// reduceNeighboredLess's: thread tid adds pair tid, 2 * stride * tid apart.
extern "C" __global__ void jl_tree_less(int *data, int *out) {
    unsigned tid = threadIdx.x;
    int *d = data + blockIdx.x * blockDim.x;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned index = 2 * stride * tid;
        if (index < blockDim.x) d[index] += d[index + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = d[0];
}
