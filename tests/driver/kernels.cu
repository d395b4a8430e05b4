// tests/driver/kernels.cu — kernels the driver-API tests load as PTX (nvcc -ptx) or as a
// fatbin (nvcc -fatbin): plain C names, so cuModuleGetFunction finds them as written.
extern "C" __global__ void vecAdd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

// Packed arguments of mixed sizes and alignments (the `extra` buffer's layout).
extern "C" __global__ void axpbyc(double a, const float *x, char tag, float b, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = (float)(a * x[i]) + b * y[i] + (float)tag;
}

__device__ int hits;
__device__ float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};
__constant__ int bias;

extern "C" __global__ void countHits(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&hits, 1);
        out[i] = i + bias + (int)table[i % 4];
    }
}

extern "C" __global__ void sharedReverse(int *d, int n) {
    extern __shared__ int s[];
    int t = threadIdx.x;
    s[t] = d[t];
    __syncthreads();
    if (t < n) d[t] = s[n - t - 1];
}
