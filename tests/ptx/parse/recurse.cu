// Recursion, structs by value, local arrays, math.
struct Pair { int a; double b; float c[3]; };
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ double combine(Pair p) { return p.a + p.b + p.c[0] + p.c[2]; }
__global__ void kern(Pair p, int *out, double *dout, float *fout, int k)
{
    int local[16];
    for (int i = 0; i < 16; i++) local[i] = i * k;
    out[threadIdx.x] = fib(threadIdx.x % 10) + local[(threadIdx.x + k) & 15];
    dout[threadIdx.x] = combine(p) + sqrt((double)k) + exp((double)p.b);
    fout[threadIdx.x] = sinf(p.c[1]) + expf(p.c[0]) + powf(p.c[2], 2.5f) + logf((float)k);
}
