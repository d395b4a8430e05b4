// Managed memory under `vcuda prof` (managed_check.sh): page faults where a GPU has them.
// A: a saxpy over arrays the host wrote (their pages migrate to the device on fault);
// B: the same again (resident); C: after the host wrote them and cudaMemPrefetchAsync moved
// them to the device (no faults); D: a fill of an array nobody touched (pages made on the
// device); E: the fill again after the array was prefetched to the host (migrated back);
// F: the saxpy after the host read y (its pages went back to the host on the host's
// fault, and come back to the device); G: again (resident); H: after the host read one
// float of every 4 KiB of x (each such read takes a page back).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void fill(float *y, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}

int main()
{
    const int n = 1 << 20;  // 4 MiB an array
    float *x, *y, *z;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    cudaMallocManaged(&z, n * sizeof(float));
    for (int i = 0; i < n; i++) { x[i] = 1.0f; y[i] = 2.0f; }
    saxpy<<<n / 256, 256>>>(x, y, 3.0f, n);                       // A
    saxpy<<<n / 256, 256>>>(x, y, 3.0f, n);                       // B
    cudaDeviceSynchronize();
    for (int i = 0; i < n; i++) { x[i] = 1.0f; y[i] = 2.0f; }
    cudaMemLocation dev = {cudaMemLocationTypeDevice, 0}, host = {cudaMemLocationTypeHost, 0};
    cudaMemPrefetchAsync(x, n * sizeof(float), dev, 0, 0);
    cudaMemPrefetchAsync(y, n * sizeof(float), dev, 0, 0);
    saxpy<<<n / 256, 256>>>(x, y, 3.0f, n);                       // C
    fill<<<n / 256, 256>>>(z, 4.0f, n);                           // D
    cudaMemPrefetchAsync(z, n * sizeof(float), host, 0, 0);
    fill<<<n / 256, 256>>>(z, 5.0f, n);                           // E
    cudaError_t e = cudaDeviceSynchronize();
    float s = 0;
    for (int i = 0; i < n; i++) s += y[i];
    saxpy<<<n / 256, 256>>>(x, y, 3.0f, n);                       // F
    saxpy<<<n / 256, 256>>>(x, y, 3.0f, n);                       // G
    cudaDeviceSynchronize();
    for (int i = 0; i < n; i += 1024) s += x[i];
    saxpy<<<n / 256, 256>>>(x, y, 3.0f, n);                       // H
    cudaError_t e2 = cudaDeviceSynchronize();
    printf("%s %s y %.1f z %.1f s %.0f\n", cudaGetErrorString(e), cudaGetErrorString(e2),
           y[n - 1], z[n - 1], s);
    return 0;
}
