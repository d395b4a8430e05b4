// The kernel whose fatbins test_runtime_fatbin.c reads (see README).
__constant__ float cscale[4];
__device__ int gcount;
__global__ void add(const float *a, float *b, int n, double s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] * cscale[0] + s;
  atomicAdd(&gcount, 1);
}
