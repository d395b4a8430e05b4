// Atomics built from atomicCAS, as code written before the hardware had them does it
// (float max/min by bit patterns, double multiply, half add in a 32-bit word, a 64-bit
// max of (value, index) pairs), next to the native vector atomics of sm_90 (float2,
// float4, __half2, __nv_bfloat162 atomicAdd). All values are exact so any order gives the
// same result.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__device__ float atomicMaxFloat(float *addr, float v)
{
    int *ai = (int *)addr;
    int old = *ai, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v) break;
        old = atomicCAS(ai, assumed, __float_as_int(v));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ float atomicMinFloatBits(float *addr, float v)
{
    // the ordered-int trick: non-negative floats compare as ints, negative ones reversed
    return v >= 0 ? __int_as_float(atomicMin((int *)addr, __float_as_int(v)))
                  : __uint_as_float(atomicMax((unsigned *)addr, __float_as_uint(v)));
}

__device__ double atomicMulDouble(double *addr, double v)
{
    unsigned long long *a = (unsigned long long *)addr, old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __double_as_longlong(__longlong_as_double(assumed) * v));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__device__ void atomicAddHalfCas(__half *addr, __half v)
{
    unsigned *base = (unsigned *)((size_t)addr & ~(size_t)3);
    bool hi = ((size_t)addr & 2) != 0;
    unsigned old = *base, assumed;
    do {
        assumed = old;
        unsigned short bits = hi ? (unsigned short)(assumed >> 16) : (unsigned short)(assumed & 0xffff);
        __half sum = __hadd(__ushort_as_half(bits), v);
        unsigned short nb = __half_as_ushort(sum);
        unsigned nw = hi ? (assumed & 0xffffu) | ((unsigned)nb << 16) : (assumed & 0xffff0000u) | nb;
        old = atomicCAS(base, assumed, nw);
    } while (assumed != old);
}

__device__ void atomicArgMax(unsigned long long *slot, float v, unsigned idx)
{
    // value in the high word (non-negative floats order as unsigned), smallest index wins ties
    unsigned long long packed = ((unsigned long long)__float_as_uint(v) << 32) | (0xffffffffu - idx);
    atomicMax(slot, packed);
}

static float hostBits(unsigned u) { float f; memcpy(&f, &u, 4); return f; }

struct Out {
    float fmax, fmin;
    double prod;
    __half halves[4];
    unsigned long long argmax;
    float2 f2;
    float4 f4;
    __half2 h2;
    __nv_bfloat162 b2;
};

__global__ void work(const float *vals, int n, Out *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = vals[i];
    atomicMaxFloat(&o->fmax, v);
    atomicMinFloatBits(&o->fmin, v);
    if (i % 97 == 0) atomicMulDouble(&o->prod, (i % 2) ? 2.0 : 0.5);
    atomicAddHalfCas(&o->halves[i & 3], __float2half(0.25f));
    if (v >= 0) atomicArgMax(&o->argmax, v, i);
    atomicAdd(&o->f2, make_float2(1.0f, 0.5f));
    atomicAdd(&o->f4, make_float4(1.0f, 2.0f, -1.0f, 0.125f));
    atomicAdd(&o->h2, __floats2half2_rn(0.5f, 1.0f));
    atomicAdd(&o->b2, __floats2bfloat162_rn(1.0f, 0.25f));
}

int main()
{
    const int n = 4096;
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (float)((i * 7919) % 2001 - 1000) / 8.0f;
    h[1234] = 125.0f;   // equals the largest other value: the smaller index wins
    float *dv;
    Out *dout, init = {};
    init.fmax = -1e30f;
    init.fmin = 1e30f;
    init.prod = 1.0;
    CK(cudaMalloc(&dv, n * sizeof(float)));
    CK(cudaMalloc(&dout, sizeof(Out)));
    CK(cudaMemcpy(dv, h, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dout, &init, sizeof init, cudaMemcpyHostToDevice));
    work<<<n / 128, 128>>>(dv, n, dout);
    CK(cudaGetLastError());
    Out o;
    CK(cudaMemcpy(&o, dout, sizeof o, cudaMemcpyDeviceToHost));
    printf("max %.4f min %.4f\n", o.fmax, o.fmin);
    printf("product %.6g\n", o.prod);
    printf("halves %.2f %.2f %.2f %.2f\n", __half2float(o.halves[0]), __half2float(o.halves[1]),
           __half2float(o.halves[2]), __half2float(o.halves[3]));
    printf("argmax value %.4f index %u\n", hostBits((unsigned)(o.argmax >> 32)),
           0xffffffffu - (unsigned)(o.argmax & 0xffffffffu));
    printf("float2 %.2f %.2f\n", o.f2.x, o.f2.y);
    printf("float4 %.2f %.2f %.2f %.3f\n", o.f4.x, o.f4.y, o.f4.z, o.f4.w);
    printf("half2 %.2f %.2f\n", __low2float(o.h2), __high2float(o.h2));
    printf("bfloat162 %.2f %.2f\n", __low2float(o.b2), __high2float(o.b2));
    CK(cudaFree(dv));
    CK(cudaFree(dout));
    free(h);
    return 0;
}
