/* jit_lazy.cu — a module of many kernels (template instances, as a library's are), of
 * which a run launches the ones named on its command line: the compiled tier compiles a
 * kernel when a launch first needs it, so a run costs the compiler the kernels it
 * launches and no others (tests/cuda/jit_lazy.sh counts the compiler's runs). Each launch
 * prints its kernel's result, or the error its launch returned. */
#include <cstdio>
#include <cstring>

__device__ __noinline__ int mix(int v, int k) { return (v * 2654435761u) ^ (k * 40503); }

template <int K>
__global__ void step(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (i % (K + 2)) * K + (i >> (K & 7));
}

template <int K>
__global__ void mixed(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = mix(i, K) % 1000;
}

typedef void (*kernel_fn)(int *, int);
static const struct { const char *name; kernel_fn fn; } kernels[] = {
    {"step1", step<1>}, {"step2", step<2>}, {"step3", step<3>}, {"step4", step<4>},
    {"step5", step<5>}, {"step6", step<6>}, {"step7", step<7>}, {"step8", step<8>},
    {"mixed1", mixed<1>}, {"mixed2", mixed<2>}, {"mixed3", mixed<3>},
};

int main(int argc, char **argv) {
    const int n = 1000;
    int *d, h[n];
    cudaMalloc(&d, sizeof h);
    for (int a = 1; a < argc; a++)
        for (const auto &k : kernels) {
            if (strcmp(k.name, argv[a])) continue;
            cudaMemset(d, 0, sizeof h);
            k.fn<<<(n + 127) / 128, 128>>>(d, n);
            cudaError_t e = cudaGetLastError();
            if (e == cudaSuccess) e = cudaDeviceSynchronize();
            if (e != cudaSuccess) {
                printf("%s: launch failed: %s\n", k.name, cudaGetErrorName(e));
                continue;
            }
            cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
            long long sum = 0;
            for (int i = 0; i < n; i++) sum += h[i] * (long long)(i + 1);
            printf("%s: %lld\n", k.name, sum);
        }
    cudaFree(d);
    return 0;
}
