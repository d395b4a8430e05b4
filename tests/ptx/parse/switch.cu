// A switch that compiles to a jump table (brx.idx), indirect calls, virtual functions.
__device__ __noinline__ int f0(int x) { return x + 1; }
__device__ __noinline__ int f1(int x) { return x * 2; }
__device__ __noinline__ int f2(int x) { return x - 3; }
struct Base { __device__ virtual int get(int x) { return x; } };
struct Derived : Base { __device__ int get(int x) override { return x * 10; } };
__global__ void sw(int *p, int k)
{
    int v = p[threadIdx.x];
    switch (v & 7) {
    case 0: v = v * 3 + k; break;
    case 1: v = v ^ 0x55; break;
    case 2: v = v - k * 7; break;
    case 3: v = v << 2; break;
    case 4: v = v / (k + 1); break;
    case 5: v = v % (k + 3); break;
    case 6: v = ~v; break;
    default: v = 0; break;
    }
    int (*fs[3])(int) = {f0, f1, f2};
    v += fs[k % 3](v);
    Derived d;
    Base *b = (k > 2) ? (Base *)&d : new Base();
    p[threadIdx.x] = v + b->get(v);
}
