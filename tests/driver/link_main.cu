// tests/driver/link_main.cu — half of a program linked at run time (cuLink*): it calls a
// device function and reads a variable that the other half (link_lib.cu) defines.
extern __device__ float transform(float v);
extern __device__ int offset;

extern "C" __global__ void applyTransform(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = transform(x[i]) + (float)offset;
}
