// Kernels for tests/unit/test_jit_rows.c: the vector tier's 4-byte loads of warps that hold
// two rows of 16 threads (blocks 16 threads wide, jit/vemit_mem.c), run by the interpreter
// and by the compiled tier, which must leave the same memory and report the same faults.
// Each half-warp's addresses are consecutive, all equal, or neither (strided, mixed within
// the half); from global memory (64-bit addresses) and shared memory (32-bit ones); with a
// negative offset in the instruction; some lanes only; rows of 8 and 32 threads too; and
// accesses that leave the allocation or are misaligned (the fault must be the same).
// PTX made with: nvcc -arch=sm_90 -ptx -O2 jit_rows.cu -o jit_rows.ptx

// Sums of loads of every shape; out[t] for each thread t of the grid.
extern "C" __global__ void jr_loads(const float *a, const int *ai, float *out, int *outi, int n,
                                    int off) {
    __shared__ float tile[32][32];
    __shared__ int itile[32][32];
    int tx = threadIdx.x, ty = threadIdx.y + blockDim.y * threadIdx.z;
    int bw = blockDim.x;
    int row = blockIdx.y * blockDim.y * blockDim.z + ty;
    int col = blockIdx.x * bw + tx;
    int t = row * n + col;
    float s = a[t];                       // consecutive in each row
    s += a[row * n + off];                // one value per row
    s += a[t + 1] * 0.5f;                 // consecutive, not aligned to the row
    s -= a[t - 1];                        // a negative offset
    s += a[(row & 1) ? row * n + tx : off]; // a row consecutive, the next one value
    s += a[row * n + (tx & 7)];           // neither: repeats within the row
    s += a[row * n + 2 * tx];             // neither: a stride of 8 bytes
    int k = ai[t] + ai[row * n + off];    // 4-byte integer loads
    if (tx < 10) s += a[t + 2];           // some lanes only
    tile[ty][tx] = a[t] + (float)ty;
    itile[ty][tx] = k;
    __syncthreads();
    for (int j = 0; j < bw; j++)
        s += tile[ty][j] * tile[j % blockDim.y][tx]; // one value per row; consecutive
    s += tile[(tx * 5) % blockDim.y][ty % bw];     // a gather
    k += itile[ty][(tx + 1) % bw] + itile[ty][0];
    out[t] = s;
    outi[t] = k;
}

// One load that leaves the allocation (base + the thread's index past its end) or is not
// aligned (a byte offset): the same fault as interpreted.
extern "C" __global__ void jr_fault(const float *a, float *out, int base, int byte) {
    int tx = threadIdx.x, ty = threadIdx.y;
    int t = ty * blockDim.x + tx;
    const float *p = (const float *)((const char *)a + byte);
    out[t] = p[base + t];
}
