// The ways a kernel is launched besides <<<>>>: cudaLaunchKernel with an argument array,
// the templated cudaLaunchKernel and cudaLaunchKernelEx with a configuration (attributes:
// priority, cluster dimension), a kernel chosen through a table of function pointers at
// run time, cudaFuncGetName, launches into a stream with dynamic shared memory, and the
// argument layout of mixed-size parameters.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

struct Params { char tag; double scale; short off; int data[3]; };

__global__ void mixed(char c, double d, short s, Params p, long long ll, float f, unsigned char u, int *out)
{
    extern __shared__ int dyn[];
    int t = threadIdx.x;
    dyn[t] = t * (int)c + (int)(d * 10) + s + p.tag + (int)(p.scale * 100) + p.off + p.data[t % 3] + (int)(ll % 1000) +
             (int)(f * 4) + u;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = dyn[(t + 1) % blockDim.x];
}

__global__ void addK(int *a, int v) { a[threadIdx.x] += v; }
__global__ void mulK(int *a, int v) { a[threadIdx.x] *= v; }
__global__ void xorK(int *a, int v) { a[threadIdx.x] ^= v; }

__global__ void clusterInfo(int *out)
{
    unsigned r, nr;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nr));
    if (threadIdx.x == 0) out[blockIdx.x] = (int)(r * 100 + nr);
}

int main()
{
    int *out, h[128];
    CK(cudaMalloc(&out, sizeof h));
    Params p = {'A', 1.25, -3, {10, 20, 30}};
    char c = 2; double d = 0.75; short s = 7; long long ll = 123456789012LL; float f = 2.5f; unsigned char u = 200;
    void *args[] = {&c, &d, &s, &p, &ll, &f, &u, &out};
    CK(cudaLaunchKernel((const void *)mixed, dim3(2), dim3(64), args, 64 * sizeof(int), 0));
    CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    printf("cudaLaunchKernel: %d %d %d %d\n", h[0], h[1], h[63], h[127]);

    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    char c2 = 3; double d2 = 0.5; short s2 = -1; long long ll2 = 5; float f2 = 1.0f; unsigned char u2 = 1;
    void *args2[] = {&c2, &d2, &s2, &p, &ll2, &f2, &u2, &out};
    CK(cudaLaunchKernel(mixed, dim3(1), dim3(32), args2, 32 * sizeof(int), st));
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(h, out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("templated cudaLaunchKernel: %d %d %d\n", h[0], h[15], h[31]);

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(4);
    cfg.blockDim = dim3(16);
    cfg.dynamicSmemBytes = 16 * sizeof(int);
    cfg.stream = st;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributePriority;
    at[0].val.priority = 0;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    CK(cudaLaunchKernelEx(&cfg, mixed, (char)1, 2.0, (short)0, p, 0LL, 0.0f, (unsigned char)0, out));
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(h, out, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("cudaLaunchKernelEx: %d %d %d\n", h[0], h[17], h[63]);

    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = 2;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.dynamicSmemBytes = 0;
    cfg.gridDim = dim3(6);
    CK(cudaLaunchKernelEx(&cfg, clusterInfo, out));
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(h, out, 6 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("clusters of 2: %d %d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4], h[5]);
    cfg.gridDim = dim3(5);
    cudaError_t e = cudaLaunchKernelEx(&cfg, clusterInfo, out);
    printf("grid 5 with clusters of 2: %s\n", cudaGetErrorName(e));
    cudaGetLastError();

    void (*table[3])(int *, int) = {addK, mulK, xorK};
    const char *names[3];
    for (int i = 0; i < 3; i++) CK(cudaFuncGetName(&names[i], (const void *)table[i]));
    int vals[32];
    for (int i = 0; i < 32; i++) vals[i] = i;
    CK(cudaMemcpy(out, vals, sizeof vals, cudaMemcpyHostToDevice));
    const char *prog = "amxamx";
    for (const char *q = prog; *q; q++) {
        int k = *q == 'a' ? 0 : *q == 'm' ? 1 : 2;
        table[k]<<<1, 32>>>(out, k + 3);
    }
    CK(cudaMemcpy(vals, out, sizeof vals, cudaMemcpyDeviceToHost));
    printf("kernels %s, %s, %s; result %d %d %d\n", names[0], names[1], names[2], vals[0], vals[7], vals[31]);
    const char *nm = nullptr;
    e = cudaFuncGetName(&nm, (const void *)main);
    printf("cudaFuncGetName(host function): %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CK(cudaStreamDestroy(st));
    CK(cudaFree(out));
    return 0;
}
