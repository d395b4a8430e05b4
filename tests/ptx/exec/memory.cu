// Kernels for tests/unit/test_exec_memory.c: the state spaces and generic addressing.
// PTX: nvcc -arch=sm_90 -ptx memory.cu -o memory.ptx

__constant__ int ctab[4] = {10, 20, 30, 40};
__device__ int gvals[4] = {1, -2, 3, -4};
__device__ int *gptr = gvals;
__device__ signed char gbytes[4] = {-128, 127, -1, 1};

struct S { long long a[4]; };

// Generic pointers: whichever space they point into.
__device__ __noinline__ void put(int *p, int v) { *p = v; }
__device__ __noinline__ int get(const int *p) { return *p; }
__device__ __noinline__ int where(const void *p) {
    return __isGlobal(p) * 1 + __isShared(p) * 2 + __isLocal(p) * 4 + __isConstant(p) * 8;
}

extern "C" __global__ void spaces(long long *out, S s, int k, const short *halves) {
    __shared__ int sh[64];
    int loc[8];
    int t = threadIdx.x;
    if (t == 0) {
        out[0] = gbytes[k];                    // sign extension from a byte
        out[1] = (unsigned char)gbytes[k];     // zero extension
        out[2] = ctab[(k + 1) & 3];            // .const through an index
        out[3] = gptr[3];                      // pointer initialised with an address
        out[4] = s.a[k & 3];                   // by-value struct indexed at run time
        out[5] = halves[1];                    // s16 -> s64
        out[6] = (unsigned short)halves[1];
    }
    put(&sh[t], t * 3);
    __syncthreads();
    for (int j = 0; j < 8; j++) put(&loc[j], get(&sh[(t + j) % 64]) + j);
    int sum = 0;
    for (int j = 0; j < 8; j++) sum += loc[(j + k) & 7];
    out[8 + t] = sum;
    if (t == 1) {
        out[7] = where(&sh[0]) * 1000 + where(&loc[0]) * 100 + where(out) * 10 +
                 where(&ctab[0]);
    }
    put(&gvals[t & 3], 0); /* generic store to a __device__ variable */
}

// Vector loads/stores of every width.
extern "C" __global__ void vectors(const int4 *in4, int4 *out4, const double2 *in2, double2 *out2,
                                   const char4 *inc, char4 *outc) {
    int t = threadIdx.x;
    int4 v = in4[t];
    out4[t] = make_int4(v.w, v.z, v.y, v.x);
    double2 d = in2[t];
    out2[t] = make_double2(d.y * 2, d.x);
    char4 c = inc[t];
    outc[t] = make_char4(c.w, c.z, c.y, c.x);
}

// A store through a pointer to __constant__ memory faults (it is read-only).
extern "C" __global__ void write_const(int v) {
    int *p = (int *)(void *)&ctab[0];
    put(p, v);
}
