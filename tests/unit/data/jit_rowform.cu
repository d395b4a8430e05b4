// Kernels for tests/unit/test_jit_rowform.c: the vector tier's row-affine registers
// (jit/vemit.c, find_rows; jit/vemit_rows.c), whose lanes hold h + (lane % W) * c +
// (lane / W) * g in a block W = blockDim.x wide, run by the interpreter and by the compiled
// tier, which must leave the same memory and report the same faults. Blocks 1, 2, 4, 8,
// 16 and 32 threads wide, widths that are no power of two, 3-D blocks, partial warps;
// loads one value per row and consecutive along rows, from global (64-bit addresses) and
// shared memory (32-bit ones), stores along rows, rows stepping backwards, accesses that
// end exactly at their allocation's end or one element past it, and 32-bit indices whose
// lanes wrap when widened.
// PTX made with: nvcc -arch=sm_90 -ptx -O2 jit_rowform.cu -o jit_rowform.ptx

// A product of tiles, for any block shape: each thread stages a[row][col] and b[row][col]
// in shared memory, then sums along its tile row and column (one value per row of the
// warp; consecutive along it), and stores out[row][col] (rows of the warp along rows).
// The z index makes more rows.
extern "C" __global__ void rf_tile(const float *a, const int *b, float *out, int *outi, int n) {
    __shared__ float ta[32][32];
    __shared__ int tb[32][32];
    int bw = blockDim.x, bh = blockDim.y * blockDim.z;
    int tx = threadIdx.x, ty = threadIdx.y + blockDim.y * threadIdx.z;
    int row = blockIdx.y * bh + ty, col = blockIdx.x * bw + tx;
    ta[ty][tx] = a[row * n + col];
    tb[ty][tx] = b[row * n + col] + ty;
    __syncthreads();
    float s = 0.0f;
    int k = 0;
    for (int j = 0; j < bw; j++) {
        s += ta[ty][j] * ta[j % bh][tx];
        k += tb[ty][j] ^ tb[j % bh][tx];
    }
    s += a[row * n + 3];                      // one value per row, from global memory
    out[row * n + col] = s;
    outi[row * n + col] = k;
}

// Rows read backwards (a negative step from row to row) from p + base, and stored at
// out + obase, both 32-bit indices widened: base and obase put the warp's extreme lanes at
// the allocation's ends, inside or one element past.
extern "C" __global__ void rf_edge(const float *p, float *out, int base, int obase, int n) {
    int tx = threadIdx.x, ty = threadIdx.y;
    float v = p[base - ty * n + tx];
    out[obase + ty * n + tx] = v + 1.0f;
}

// A 32-bit index whose lanes wrap at 2^32 (row step k): widened unsigned, the form holds
// only where no lane wraps; the wrapped lanes' loads leave the allocation (a fault), and a
// value made of the widened lanes is stored as it is.
extern "C" __global__ void rf_wrap(const float *p, float *out, unsigned base, unsigned k,
                                   int load) {
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned u = base + ty * k + tx;
    unsigned long long w = u;
    int t = ty * blockDim.x + tx;
    out[t] = (float)(w >> 8);
    if (load) out[64 + t] = p[w];
}

// 8-byte accesses along rows: one value per row and consecutive ones loaded, a row stored,
// through shared memory too.
extern "C" __global__ void rf_wide(const long long *p, long long *out, int n) {
    __shared__ double t[16][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * blockDim.y + ty, col = blockIdx.x * blockDim.x + tx;
    long long v = p[row * n + col] * 3 + p[row * n];
    t[ty][tx] = (double)v;
    __syncthreads();
    out[row * n + col] = v + (long long)t[ty][0] - (long long)t[0][tx];
}
