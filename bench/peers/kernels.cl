/* bench/peers/kernels.cl — the seed kernels of examples/reduceInteger.cu, reduceTwoPhase.cu,
 * sumMatrixOnGPU2D.cu and matMult.cu written in OpenCL C 1.2, line for line, for PoCL.
 *
 * The CUDA names below map to OpenCL's work-item functions, so each body reads as the
 * example's. What differs, and why:
 *   - __syncthreads() is barrier() on both local and global memory (reduceInteger's kernels
 *     reduce in global memory);
 *   - dynamic shared memory (reduceTwoPhase) is a __local kernel argument;
 *   - __local arrays must be declared at the kernel's outermost scope (matMultTiled);
 *   - templates become macros instantiated for 512 threads;
 *   - reduceGridStrideShfl has no OpenCL 1.2 counterpart (no shuffles) and is left out.
 * The warp-synchronous tails (volatile, no barrier) are kept as written: OpenCL promises
 * nothing about work-items running in groups of 32, and the benchmark reports what a CPU
 * runtime makes of them.
 */
#define threadIdx_x ((unsigned int)get_local_id(0))
#define threadIdx_y ((unsigned int)get_local_id(1))
#define blockIdx_x ((unsigned int)get_group_id(0))
#define blockIdx_y ((unsigned int)get_group_id(1))
#define blockDim_x ((unsigned int)get_local_size(0))
#define blockDim_y ((unsigned int)get_local_size(1))
#define gridDim_x ((unsigned int)get_num_groups(0))
#define __syncthreads() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

/* ---- reduceInteger ---- */

__kernel void reduceNeighbored(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x;
    if (idx >= n)
        return;
    for (int stride = 1; stride < blockDim_x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

__kernel void reduceNeighboredLess(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x;
    if (idx >= n)
        return;
    for (int stride = 1; stride < blockDim_x; stride *= 2) {
        int index = 2 * stride * tid;
        if (index < blockDim_x)
            idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

__kernel void reduceInterleaved(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x;
    if (idx >= n)
        return;
    for (int stride = blockDim_x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

/* The in-block tree every unrolled kernel ends with. */
#define INTERLEAVED_TREE(last)                                               \
    for (int stride = blockDim_x / 2; stride > (last); stride >>= 1) {      \
        if (tid < stride)                                                    \
            idata[tid] += idata[tid + stride];                               \
        __syncthreads();                                                     \
    }

__kernel void reduceUnrolling2(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x * 2 + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x * 2;
    if (idx + blockDim_x < n)
        g_idata[idx] += g_idata[idx + blockDim_x];
    __syncthreads();
    INTERLEAVED_TREE(0)
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

__kernel void reduceUnrolling4(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x * 4 + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x * 4;
    if (idx + 3 * blockDim_x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim_x];
        int a3 = g_idata[idx + 2 * blockDim_x];
        int a4 = g_idata[idx + 3 * blockDim_x];
        g_idata[idx] = a1 + a2 + a3 + a4;
    }
    __syncthreads();
    INTERLEAVED_TREE(0)
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

/* foldEightBlocks of the example. */
#define FOLD_EIGHT_BLOCKS                                                    \
    if (idx + 7 * blockDim_x < n) {                                          \
        int a1 = g_idata[idx];                                               \
        int a2 = g_idata[idx + blockDim_x];                                  \
        int a3 = g_idata[idx + 2 * blockDim_x];                              \
        int a4 = g_idata[idx + 3 * blockDim_x];                              \
        int b1 = g_idata[idx + 4 * blockDim_x];                              \
        int b2 = g_idata[idx + 5 * blockDim_x];                              \
        int b3 = g_idata[idx + 6 * blockDim_x];                              \
        int b4 = g_idata[idx + 7 * blockDim_x];                              \
        g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;                \
    }

__kernel void reduceUnrolling8(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x * 8 + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x * 8;
    FOLD_EIGHT_BLOCKS
    __syncthreads();
    INTERLEAVED_TREE(0)
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

__kernel void reduceUnrolling8Loop(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x * 8 + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x * 8;
    if (idx + 7 * blockDim_x < n) {
        __global const int *ptr = g_idata + idx;
        int tmp = 0;
        for (int i = 0; i < 8; i++) {
            tmp += *ptr;
            ptr += blockDim_x;
        }
        g_idata[idx] = tmp;
    }
    __syncthreads();
    INTERLEAVED_TREE(0)
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

__kernel void reduceUnrolling16(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x * 16 + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x * 16;
    if (idx + 15 * blockDim_x < n) {
        int s0 = g_idata[idx] + g_idata[idx + blockDim_x] + g_idata[idx + 2 * blockDim_x] +
                 g_idata[idx + 3 * blockDim_x];
        int s1 = g_idata[idx + 4 * blockDim_x] + g_idata[idx + 5 * blockDim_x] +
                 g_idata[idx + 6 * blockDim_x] + g_idata[idx + 7 * blockDim_x];
        int s2 = g_idata[idx + 8 * blockDim_x] + g_idata[idx + 9 * blockDim_x] +
                 g_idata[idx + 10 * blockDim_x] + g_idata[idx + 11 * blockDim_x];
        int s3 = g_idata[idx + 12 * blockDim_x] + g_idata[idx + 13 * blockDim_x] +
                 g_idata[idx + 14 * blockDim_x] + g_idata[idx + 15 * blockDim_x];
        g_idata[idx] = s0 + s1 + s2 + s3;
    }
    __syncthreads();
    INTERLEAVED_TREE(0)
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

/* warpReduce of the example: the classic warp-synchronous tail. */
#define WARP_REDUCE(mem, tid)                                                \
    {                                                                        \
        volatile __global int *vmem = (mem);                                 \
        vmem[tid] += vmem[tid + 32];                                         \
        vmem[tid] += vmem[tid + 16];                                         \
        vmem[tid] += vmem[tid + 8];                                          \
        vmem[tid] += vmem[tid + 4];                                          \
        vmem[tid] += vmem[tid + 2];                                          \
        vmem[tid] += vmem[tid + 1];                                          \
    }

__kernel void reduceUnrollWarps8(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x * 8 + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x * 8;
    FOLD_EIGHT_BLOCKS
    __syncthreads();
    INTERLEAVED_TREE(32)
    if (tid < 32)
        WARP_REDUCE(idata, tid)
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

/* The fully unrolled tree of reduceCompleteUnrollWarps8 and reduceCompleteUnroll<N>, for
 * a block size `size` (blockDim_x, or the template's constant). */
#define COMPLETE_TREE(size)                                                  \
    if ((size) >= 1024 && tid < 512)                                         \
        idata[tid] += idata[tid + 512];                                      \
    __syncthreads();                                                         \
    if ((size) >= 512 && tid < 256)                                          \
        idata[tid] += idata[tid + 256];                                      \
    __syncthreads();                                                         \
    if ((size) >= 256 && tid < 128)                                          \
        idata[tid] += idata[tid + 128];                                      \
    __syncthreads();                                                         \
    if ((size) >= 128 && tid < 64)                                           \
        idata[tid] += idata[tid + 64];                                       \
    __syncthreads();

__kernel void reduceCompleteUnrollWarps8(__global int *g_idata, __global int *g_odata,
                                         unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x * 8 + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x * 8;
    FOLD_EIGHT_BLOCKS
    __syncthreads();
    COMPLETE_TREE(blockDim_x)
    if (tid < 32)
        WARP_REDUCE(idata, tid)
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

__kernel void reduceCompleteUnrollWarps8Sync(__global int *g_idata, __global int *g_odata,
                                             unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x * 8 + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x * 8;
    FOLD_EIGHT_BLOCKS
    __syncthreads();
    COMPLETE_TREE(blockDim_x)
    for (int offset = 32; offset > 0; offset >>= 1) {
        int v = 0;
        if (tid < 32)
            v = idata[tid] + idata[tid + offset];
        __syncthreads();
        if (tid < 32)
            idata[tid] = v;
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

/* reduceCompleteUnroll<512>. */
__kernel void reduceCompleteUnroll512(__global int *g_idata, __global int *g_odata,
                                      unsigned int n)
{
    unsigned int tid = threadIdx_x;
    unsigned int idx = blockIdx_x * blockDim_x * 8 + threadIdx_x;
    __global int *idata = g_idata + blockIdx_x * blockDim_x * 8;
    FOLD_EIGHT_BLOCKS
    __syncthreads();
    COMPLETE_TREE(512u)
    if (tid < 32)
        WARP_REDUCE(idata, tid)
    if (tid == 0)
        g_odata[blockIdx_x] = idata[0];
}

/* ---- reduceTwoPhase ---- */

/* loadPartials of the example. */
#define LOAD_PARTIALS(threadsPerBlock)                                       \
    {                                                                        \
        unsigned int tid_ = threadIdx_x;                                     \
        int sum = 0;                                                         \
        ulong id = tid_ + (ulong)(threadsPerBlock) * blockIdx_x;             \
        ulong stride = (ulong)(threadsPerBlock) * gridDim_x;                 \
        for (ulong i = id; i < N; i += stride)                               \
            sum += in[i];                                                    \
        buffer[tid_] = sum;                                                  \
        for (unsigned int i = (threadsPerBlock) + tid_; i < 64; i += (threadsPerBlock)) \
            buffer[i] = 0;                                                   \
        __syncthreads();                                                     \
    }

__kernel void reduceGridStride(__global int *out, __global const int *in, ulong N,
                               __local int *buffer)
{
    LOAD_PARTIALS(blockDim_x)
    for (unsigned int i = blockDim_x >> 1; i != 0; i >>= 1) {
        if (threadIdx_x < i)
            buffer[threadIdx_x] += buffer[threadIdx_x + i];
        __syncthreads();
    }
    if (threadIdx_x == 0)
        out[blockIdx_x] = buffer[0];
}

__kernel void reduceGridStrideWarp(__global int *out, __global const int *in, ulong N,
                                   __local int *buffer)
{
    LOAD_PARTIALS(blockDim_x)
    for (unsigned int i = blockDim_x >> 1; i > 32; i >>= 1) {
        if (threadIdx_x < i)
            buffer[threadIdx_x] += buffer[threadIdx_x + i];
        __syncthreads();
    }
    if (threadIdx_x < 32) {
        volatile __local int *wsSum = buffer;
        if (blockDim_x > 32)
            wsSum[threadIdx_x] += wsSum[threadIdx_x + 32];
        wsSum[threadIdx_x] += wsSum[threadIdx_x + 16];
        wsSum[threadIdx_x] += wsSum[threadIdx_x + 8];
        wsSum[threadIdx_x] += wsSum[threadIdx_x + 4];
        wsSum[threadIdx_x] += wsSum[threadIdx_x + 2];
        wsSum[threadIdx_x] += wsSum[threadIdx_x + 1];
        if (threadIdx_x == 0)
            out[blockIdx_x] = wsSum[0];
    }
}

/* reduceGridStrideT<512>. */
#define TPB 512u
__kernel void reduceGridStrideT512(__global int *out, __global const int *in, ulong N,
                                   __local int *buffer)
{
    unsigned int tid = threadIdx_x;
    LOAD_PARTIALS(TPB)
    if (TPB >= 1024) {
        if (tid < 512)
            buffer[tid] += buffer[tid + 512];
        __syncthreads();
    }
    if (TPB >= 512) {
        if (tid < 256)
            buffer[tid] += buffer[tid + 256];
        __syncthreads();
    }
    if (TPB >= 256) {
        if (tid < 128)
            buffer[tid] += buffer[tid + 128];
        __syncthreads();
    }
    if (TPB >= 128) {
        if (tid < 64)
            buffer[tid] += buffer[tid + 64];
        __syncthreads();
    }
    if (tid < 32) {
        volatile __local int *wsSum = buffer;
        if (TPB >= 64) wsSum[tid] += wsSum[tid + 32];
        if (TPB >= 32) wsSum[tid] += wsSum[tid + 16];
        if (TPB >= 16) wsSum[tid] += wsSum[tid + 8];
        if (TPB >= 8) wsSum[tid] += wsSum[tid + 4];
        if (TPB >= 4) wsSum[tid] += wsSum[tid + 2];
        if (TPB >= 2) wsSum[tid] += wsSum[tid + 1];
        if (tid == 0)
            out[blockIdx_x] = wsSum[0];
    }
}
#undef TPB

__kernel void reduceOnePhaseAtomic(__global int *total, __global const int *in, ulong N,
                                   __local int *buffer)
{
    LOAD_PARTIALS(blockDim_x)
    for (unsigned int i = blockDim_x >> 1; i != 0; i >>= 1) {
        if (threadIdx_x < i)
            buffer[threadIdx_x] += buffer[threadIdx_x + i];
        __syncthreads();
    }
    if (threadIdx_x == 0)
        atomic_add(total, buffer[0]);
}

/* ---- sumMatrixOnGPU2D ---- */

__kernel void sumMatrixOnGPU2D(__global const float *A, __global const float *B,
                               __global float *C, int NX, int NY)
{
    unsigned int ix = blockIdx_x * blockDim_x + threadIdx_x;
    unsigned int iy = blockIdx_y * blockDim_y + threadIdx_y;
    unsigned int idx = iy * NX + ix;
    if (ix < NX && iy < NY)
        C[idx] = A[idx] + B[idx];
}

/* ---- matMult ---- */

#define BLOCK_SIZE 16

__kernel void matMultNaive(__global const float *a, __global const float *b, int n,
                           __global float *c)
{
    int bx = blockIdx_x, by = blockIdx_y;
    int tx = threadIdx_x, ty = threadIdx_y;
    float sum = 0.0f;
    int ia = n * BLOCK_SIZE * by + n * ty;
    int ib = BLOCK_SIZE * bx + tx;
    for (int k = 0; k < n; k++)
        sum += a[ia + k] * b[ib + k * n];
    int ic = n * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    c[ic + n * ty + tx] = sum;
}

__kernel void matMultTiled(__global const float *a, __global const float *b, int n,
                           __global float *c)
{
    __local float as[BLOCK_SIZE][BLOCK_SIZE];
    __local float bs[BLOCK_SIZE][BLOCK_SIZE];
    int bx = blockIdx_x, by = blockIdx_y;
    int tx = threadIdx_x, ty = threadIdx_y;
    int aBegin = n * BLOCK_SIZE * by;
    int aEnd = aBegin + n - 1;
    int aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx;
    int bStep = BLOCK_SIZE * n;
    float sum = 0.0f;

    for (int ia = aBegin, ib = bBegin; ia <= aEnd; ia += aStep, ib += bStep) {
        as[ty][tx] = a[ia + n * ty + tx];
        bs[ty][tx] = b[ib + n * ty + tx];
        __syncthreads();
        for (int k = 0; k < BLOCK_SIZE; k++)
            sum += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    int ic = n * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    c[ic + n * ty + tx] = sum;
}
