// Kernels for tests/unit/test_jit_affine.c: the vector tier's affine registers (threadIdx.x
// and the addresses made of it held as one scalar per warp), run by the interpreter and by
// the compiled tier, which must leave the same memory. Each kernel takes the cases where
// the affine form stops holding: lanes that wrap at 2^32 before a widening (inside and
// outside an if), negative steps, block shapes whose warps do not hold one row of
// consecutive threads, partial warps, strides other than the access size, and div/rem by a
// power of two or not.
// PTX made with: nvcc -arch=sm_90 -ptx -O2 jit_affine.cu -o jit_affine.ptx

// j = base + threadIdx.x wraps at 2^32 within a warp when base is near 2^32: p[j] is then
// not one contiguous range (the lanes past the wrap address p[0..]).
extern "C" __global__ void ja_wrap(int *out, unsigned base, unsigned limit, int *out2,
                                   unsigned base2) {
    unsigned j = base + threadIdx.x;
    int *p = out - (size_t)base;               // p[base + k] is out[k]
    if (threadIdx.x < limit) p[j] = (int)threadIdx.x * 3 + 1;   // inside an if
    __syncthreads();
    unsigned k = base2 + threadIdx.x;          // every live lane, after a barrier
    int *q = out2 - (size_t)base2;
    q[k] += 7;
    int sj = (int)base2 + (int)threadIdx.x;    // signed, widened by a sign extension
    const int *r = out - (long long)(int)base2;  // r[sj] is out[threadIdx.x]
    out2[128 + threadIdx.x] = r[sj];
}

// A negative step (a reversed copy), signed widening, a stride of 8 bytes for 4-byte
// elements (not contiguous), and 8-byte elements.
extern "C" __global__ void ja_steps(const int *in, int *rev, int *strided, long long *wide,
                                    int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        rev[n - 1 - i] = in[i];
        strided[2 * i] = in[i] + 1;
        wide[i] = (long long)in[i] * 3;
    }
}

// Threads of 2-D and 3-D blocks: every shape writes each thread's linear index and its
// coordinates, read through shared memory (affine addresses there too).
extern "C" __global__ void ja_shape(int *out) {
    __shared__ int s[1024];
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned nt = blockDim.x * blockDim.y * blockDim.z;
    s[t] = (int)(threadIdx.x * 10000 + threadIdx.y * 100 + threadIdx.z);
    __syncthreads();
    unsigned b = blockIdx.x + gridDim.x * blockIdx.y;
    out[b * nt + t] = s[nt - 1 - t] + (int)t;
}

// div and rem by a divisor the same for the warp (a power of two or not), signed and
// unsigned, and a tree reduction with tid % (2 * stride).
extern "C" __global__ void ja_divrem(const int *in, unsigned *out, unsigned d, int sd) {
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    out[4 * i + 0] = i / d;
    out[4 * i + 1] = i % d;
    out[4 * i + 2] = (unsigned)(in[i] / sd);
    out[4 * i + 3] = (unsigned)(in[i] % sd);
}

extern "C" __global__ void ja_neighbored(int *data, int *sums) {
    unsigned tid = threadIdx.x;
    int *d = data + blockIdx.x * blockDim.x;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0) d[tid] += d[tid + stride];
        __syncthreads();
    }
    if (tid == 0) sums[blockIdx.x] = d[0];
}

// Comparisons of affine values (steps 1, 3 and -2, signed and unsigned, on either side)
// with a value the same for the warp, and with a vector.
extern "C" __global__ void ja_cmp(int *out, int c, unsigned uc) {
    int x = 3 * (int)threadIdx.x - 40, y = 100 - 2 * (int)threadIdx.x;
    unsigned u = threadIdx.x + uc - 20;
    int *o = out + blockIdx.x * blockDim.x + threadIdx.x;
    unsigned n = gridDim.x * blockDim.x;
    o[0] = x < c ? 11 : 0;
    o[n] = x <= c ? 12 : 0;
    o[2 * n] = x > c ? 13 : 0;
    o[3 * n] = x >= c ? 14 : 0;
    o[4 * n] = x == c ? 15 : 0;
    o[5 * n] = x != c ? 16 : 0;
    o[6 * n] = c < y ? 17 : 0;
    o[7 * n] = c >= y ? 18 : 0;
    o[8 * n] = y == c ? 19 : 0;
    o[9 * n] = u < uc ? 20 : 0;
    o[10 * n] = u >= uc ? 21 : 0;
    o[11 * n] = uc <= u ? 22 : 0;
    o[12 * n] = u == uc ? 23 : 0;
    o[13 * n] = (y ^ c) <= x ? 24 : 0;       // a vector against an affine value
}

// Accesses under a partial mask: a gather and a scatter whose inactive lanes' addresses lie
// far outside every allocation (only the active lanes may be checked and touched), and
// contiguous 4- and 8-byte stores of some lanes (the others' words must stay as they were).
extern "C" __global__ void ja_masked(const int *in, int *out, long long *wide, unsigned far) {
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned sel = t % 3;
    const int *src = in + (sel == 0 ? t * 5 : t * 5 + far);
    int v = -1;
    asm volatile("{ .reg .pred p; setp.eq.u32 p, %2, 0; @p ld.global.u32 %0, [%1]; }"
                 : "+r"(v) : "l"(src), "r"(sel));
    int *dst = out + 1024 + (sel == 1 ? t * 7 : t * 7 + far);
    asm volatile("{ .reg .pred p; setp.eq.u32 p, %2, 1; @p st.global.u32 [%0], %1; }"
                 :: "l"(dst), "r"(v + (int)t), "r"(sel) : "memory");
    if (t & 1) out[t] = v * 3 + 1;
    if (t % 4 == 1) wide[t] = (long long)v << 20 | t;
}

// Instructions the vector tier runs through their handlers: shuffles (all lanes, and lanes
// apart, which hand the block to the interpreter), atomics on global and shared memory, and
// a 64-bit register unpacked into two.
extern "C" __global__ void ja_hcall(const int *in, int *out, unsigned long long *wide,
                                    int *counter) {
    __shared__ int hist[8];
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    if (threadIdx.x < 8) hist[threadIdx.x] = 0;
    __syncthreads();
    int v = in[t];
    int s = v;
    for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
    if (threadIdx.x % 32 == 0) out[t / 32] = s;
    if (v & 1) {                    // lanes apart: the interpreter's
        int u = __shfl_xor_sync(__activemask(), v, 1);
        out[256 + t] = u;
    }
    int old = atomicAdd(counter, v & 15);
    atomicAdd(&hist[v & 7], 1);
    __syncthreads();
    if (threadIdx.x < 8) atomicAdd(&out[512 + threadIdx.x], hist[threadIdx.x]);
    double x = (double)v * 1.5;
    out[1024 + t] = __double2hiint(x) ^ __double2loint(x);
    wide[t] = (unsigned long long)(old >= 0);
}

// Registers of 32-bit lanes (every definition a 32-bit value: 32-bit arithmetic, 4-byte
// loads, f32 arithmetic): wrapping products and sums, shifts by amounts of 32 and more,
// signed shifts and comparisons of negative values, unsigned ones across 2^31, selects,
// widenings to 64 bits and truncations back, f32 arithmetic with NaNs, gathers, shared
// memory, values live across a barrier and into an if, an operation run by its handler
// (a division by a divisor that is no power of two), partial warps (blocks of 48, n not a
// multiple of 32), and a loop whose trip count differs between lanes (which hands the
// block to the interpreter with such registers live).
extern "C" __global__ void ja_lanes32(const int *in, int *out, long long *wide, float *fl,
                                      int n, unsigned d) {
    __shared__ int sh[64];
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    int x = in[t], y = in[(t * 7) % n];                      // contiguous, gathered
    unsigned ux = (unsigned)x * 2654435761u + (unsigned)y;   // wraps
    int s = (x - y) * 40503;
    unsigned sa = (unsigned)y & 63;                          // shift amounts up to 63
    unsigned shl = ux << sa, shr = ux >> sa;
    int sar = s >> (sa & 31);
    int sel = (s < -1000) ? x : (ux > 0x80000000u ? y : s);
    sh[threadIdx.x] = sel ^ (int)shr;
    __syncthreads();
    int nb = sh[(threadIdx.x + 1) % blockDim.x];             // live across the barrier: x, s
    long long w = (long long)s * x + (long long)(unsigned)nb;  // widened
    int tr = (int)(w >> 7);                                  // truncated
    float f = __int_as_float(x) * 1.5f + __int_as_float(y);  // NaNs among them
    float g = __fmaf_rn(f, __int_as_float(s), 0.25f);
    if (t < n) {
        out[t] = shl + sar;
        out[1024 + t] = sel + nb;
        out[2048 + t] = tr ^ (int)(ux / d);                  // the handler's division
        wide[t] = w;
        fl[t] = g;
        if (x & 4) out[3072 + t] = s - x;                    // under a mask
    }
    int acc = s;
    for (int k = 0; k < (x & 3); k++) acc = acc * 3 + nb;    // lanes apart: the interpreter's
    if (t < n) out[4096 + t] = acc;
}

// Affine values whose step is a value of the run (threadIdx.x times a value the same for
// the warp): a tree whose pairs are 2 * stride * tid apart (reduceNeighboredLess: gathers
// and scatters at those addresses, compared with blockDim.x), products live across a
// barrier, steps of 0 (every lane equal: the lanes' own comparison) and negative ones, and
// an unsigned product that wraps at 2^31 and 2^32 before it is widened (the block goes on in
// the interpreter there, with the other warps' such registers waiting at the barrier).
extern "C" __global__ void ja_rstep(int *data, int *out, long long *wide, int k, unsigned ku) {
    unsigned tid = threadIdx.x;
    int *d = data + blockIdx.x * blockDim.x;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned index = 2 * stride * tid;
        if (index < blockDim.x) d[index] += d[index + stride];
        __syncthreads();
    }
    int j = k * (int)tid;
    unsigned u = ku * tid;
    int *o = out + blockIdx.x * 8 * blockDim.x;
    o[3 * blockDim.x + tid] = j ^ (int)u;                    // both made before the barrier
    __syncthreads();
    o[tid] = j + (j < 100 ? 1 : 0) + (j == 3 * k ? 1000 : 0) + (j >= -50 ? 20000 : 0);
    o[blockDim.x + tid] = (int)(u >> 3) + (u >= 1000u ? 7 : 0);
    o[2 * blockDim.x + 4 * blockDim.x + j / 4] = (int)tid;   // a scatter at the product
    wide[blockIdx.x * blockDim.x + tid] = (long long)(int)u * 3 + (long long)u;
}
