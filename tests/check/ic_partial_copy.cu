/* ic_partial_copy — a copy of half the input, then a kernel that reads all of it.
 *
 * The host copies n/2 elements (a size in the wrong unit), a device-to-device copy
 * carries them on, and the kernel reads the whole second buffer: reads of its upper half
 * are of memory nothing wrote.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void square(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i];
}

int main(void)
{
    const int n = 40;
    float h[n];
    for (int i = 0; i < n; i++) h[i] = (float)i;
    float *a, *b, *out;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(a, h, n / 2 * sizeof(float), cudaMemcpyHostToDevice);  /* BUG: n floats */
    cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice);
    square<<<1, n>>>(b, out, n);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[39] = %g\n", h[39]);
    cudaFree(a);
    cudaFree(b);
    cudaFree(out);
    return 0;
}
