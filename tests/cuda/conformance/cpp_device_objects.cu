// C++ in device code the way object-oriented ray tracers and simulators use it: objects of
// a class hierarchy created with new inside a kernel (so their virtual tables are the
// device's), used through base pointers by another kernel, destroyed with delete in a
// third; variadic templates, if constexpr, CRTP, a templated kernel taking a device lambda,
// static constexpr tables, placement new into shared memory, and operator overloading.
#include <cstdio>
#include <cstdlib>
#include <new>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

struct Vec2 {
    float x, y;
    __device__ Vec2 operator+(Vec2 o) const { return {x + o.x, y + o.y}; }
    __device__ Vec2 operator*(float s) const { return {x * s, y * s}; }
    __device__ float dot(Vec2 o) const { return x * o.x + y * o.y; }
};

__device__ int shapesDestroyed = 0;

class Shape {
public:
    __device__ virtual ~Shape() { atomicAdd(&shapesDestroyed, 1); }
    __device__ virtual float area() const = 0;
    __device__ virtual int kind() const { return 0; }
    __device__ virtual bool contains(Vec2 p) const = 0;
};

class Circle : public Shape {
    Vec2 c; float r;
public:
    __device__ Circle(Vec2 c, float r) : c(c), r(r) {}
    __device__ float area() const override { return 3.14159265f * r * r; }
    __device__ int kind() const override { return 1; }
    __device__ bool contains(Vec2 p) const override { Vec2 d = p + c * -1.0f; return d.dot(d) <= r * r; }
};

class Rect : public Shape {
protected:
    Vec2 lo, hi;
public:
    __device__ Rect(Vec2 lo, Vec2 hi) : lo(lo), hi(hi) {}
    __device__ float area() const override { return (hi.x - lo.x) * (hi.y - lo.y); }
    __device__ int kind() const override { return 2; }
    __device__ bool contains(Vec2 p) const override { return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y; }
};

class Square : public Rect {
public:
    __device__ Square(Vec2 lo, float s) : Rect(lo, lo + Vec2{s, s}) {}
    __device__ int kind() const override { return 3; }
};

__global__ void build(Shape **shapes, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = (float)i;
    switch (i % 3) {
    case 0: shapes[i] = new Circle({f * 0.1f, 0.5f}, 0.25f + (i % 5) * 0.1f); break;
    case 1: shapes[i] = new Rect({f * 0.1f, 0.0f}, {f * 0.1f + 0.5f, 1.0f + (i % 4) * 0.25f}); break;
    default: shapes[i] = new Square({f * 0.1f - 0.2f, 0.1f}, 0.5f); break;
    }
}

__global__ void query(Shape *const *shapes, int n, float *areas, int *kinds, int *hits)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    areas[i] = shapes[i]->area();
    kinds[i] = shapes[i]->kind();
    int h = 0;
    for (int k = 0; k < 64; k++) h += shapes[i]->contains(Vec2{k * 0.05f, (k % 8) * 0.15f});
    hits[i] = h;
}

__global__ void destroy(Shape **shapes, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) delete shapes[i];
}

// variadic sum and if constexpr
template <typename... Ts> __device__ auto sumAll(Ts... xs) { return (xs + ... + 0); }
template <typename T> __device__ T describe(T x)
{
    if constexpr (sizeof(T) == 8) return x * 2;
    else return x + 1;
}

// CRTP: a static interface without virtual calls
template <typename D> struct Counter {
    __device__ int twice() const { return 2 * static_cast<const D *>(this)->value(); }
};
struct Seven : Counter<Seven> { __device__ int value() const { return 7; } };

struct Table {
    __host__ __device__ static constexpr int prime(int i)
    {
        constexpr int p[8] = {2, 3, 5, 7, 11, 13, 17, 19};
        return p[i];
    }
};
static_assert(Table::prime(3) == 7, "constexpr table");

template <typename F> __global__ void apply(int *out, int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f(i);
}

struct Acc {
    int total;
    __device__ Acc(int start) : total(start) {}
    __device__ void add(int v) { total += v; }
};

__global__ void misc(long long *out)
{
    __shared__ alignas(Acc) unsigned char raw[sizeof(Acc)];
    if (threadIdx.x == 0) new (raw) Acc(100);
    __syncthreads();
    atomicAdd(&reinterpret_cast<Acc *>(raw)->total, (int)threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) {
        out[0] = reinterpret_cast<Acc *>(raw)->total;
        out[1] = sumAll(1, 2, 3, 4, 5);
        out[2] = sumAll(1LL << 40, 7);
        out[3] = describe(21);
        out[4] = describe(21LL);
        out[5] = Seven().twice();
        out[6] = Table::prime(5) * Table::prime(7);
        Vec2 v = Vec2{1.5f, -2.0f} * 4.0f + Vec2{1.0f, 1.0f};
        out[7] = (long long)(v.x * 100) * 1000 + (long long)(v.y * 100);
    }
}

int main()
{
    const int n = 30;
    Shape **shapes;
    float *areas; int *kinds, *hits;
    CK(cudaMalloc(&shapes, n * sizeof(Shape *)));
    CK(cudaMalloc(&areas, n * 4)); CK(cudaMalloc(&kinds, n * 4)); CK(cudaMalloc(&hits, n * 4));
    build<<<1, 32>>>(shapes, n);
    query<<<2, 16>>>(shapes, n, areas, kinds, hits);
    CK(cudaGetLastError());
    float ha[n]; int hk[n], hh[n];
    CK(cudaMemcpy(ha, areas, sizeof ha, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hk, kinds, sizeof hk, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hh, hits, sizeof hh, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 2) printf("shape %2d: kind %d area %.6f hits %d\n", i, hk[i], ha[i], hh[i]);
    destroy<<<1, 32>>>(shapes, n);
    CK(cudaDeviceSynchronize());
    int destroyed = 0;
    CK(cudaMemcpyFromSymbol(&destroyed, shapesDestroyed, sizeof(int)));
    printf("destructors run: %d\n", destroyed);

    int *o, ho[16];
    CK(cudaMalloc(&o, sizeof ho));
    int base = 5;
    apply<<<1, 16>>>(o, 16, [=] __device__(int i) { return base * i * i - Table::prime(i % 8); });
    CK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    printf("lambda:");
    for (int i = 0; i < 16; i++) printf(" %d", ho[i]);
    printf("\n");
    long long *m, hm[8];
    CK(cudaMalloc(&m, sizeof hm));
    misc<<<1, 64>>>(m);
    CK(cudaMemcpy(hm, m, sizeof hm, cudaMemcpyDeviceToHost));
    printf("misc: %lld %lld %lld %lld %lld %lld %lld %lld\n", hm[0], hm[1], hm[2], hm[3], hm[4], hm[5], hm[6], hm[7]);
    return 0;
}
