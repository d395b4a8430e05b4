// cub-like templated warp and block reductions and scans.
template <typename T> struct Sum { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct Max { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };

template <typename T, typename Op, int W = 32>
__device__ __forceinline__ T warp_reduce(T v, Op op) {
#pragma unroll
    for (int o = W / 2; o > 0; o /= 2) v = op(v, __shfl_xor_sync(0xffffffff, v, o, W));
    return v;
}
template <typename T, typename Op>
__device__ __forceinline__ T warp_scan(T v, Op op) {
    int lane = threadIdx.x % 32;
#pragma unroll
    for (int o = 1; o < 32; o *= 2) {
        T u = __shfl_up_sync(0xffffffff, v, o);
        if (lane >= o) v = op(v, u);
    }
    return v;
}
template <typename T, int BLOCK, typename Op>
__device__ T block_reduce(T v, Op op) {
    __shared__ T part[BLOCK / 32];
    v = warp_reduce(v, op);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < BLOCK / 32 ? part[threadIdx.x] : T(0);
    if (threadIdx.x < 32) v = warp_reduce(v, op);
    return v;
}
template <typename T, int BLOCK>
__global__ void reduce_kernel(const T *in, T *out, int n) {
    T v = T(0);
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) v += in[i];
    v = block_reduce<T, BLOCK>(v, Sum<T>());
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
template <typename T>
__global__ void scan_kernel(T *data) {
    T v = data[threadIdx.x];
    data[threadIdx.x] = warp_scan(v, Sum<T>()) + warp_reduce(v, Max<T>());
}
template __global__ void reduce_kernel<float, 256>(const float *, float *, int);
template __global__ void reduce_kernel<double, 128>(const double *, double *, int);
template __global__ void reduce_kernel<long long, 512>(const long long *, long long *, int);
template __global__ void reduce_kernel<unsigned, 64>(const unsigned *, unsigned *, int);
template __global__ void scan_kernel<int>(int *);
template __global__ void scan_kernel<double>(double *);
template __global__ void scan_kernel<short>(short *);
