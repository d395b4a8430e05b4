// Block scan with shared memory and loops; a kernel with launch bounds and a template.
template <typename T, int N>
__global__ void __launch_bounds__(256, 2) scan(const T *in, T *out, int n)
{
    __shared__ T buf[2][N];
    int t = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout][t] = t < n ? in[t] : T(0);
    __syncthreads();
    for (int off = 1; off < N; off *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (t >= off) buf[pout][t] = buf[pin][t] + buf[pin][t - off];
        else buf[pout][t] = buf[pin][t];
        __syncthreads();
    }
    if (t < n) out[t] = buf[pout][t];
}
template __global__ void scan<int, 256>(const int *, int *, int);
template __global__ void scan<double, 128>(const double *, double *, int);
__global__ void __cluster_dims__(2, 1, 1) clustered(int *p) { p[threadIdx.x] = blockIdx.x; }
__global__ void __maxnreg__(32) limited(int *p) { p[threadIdx.x] *= 2; }
