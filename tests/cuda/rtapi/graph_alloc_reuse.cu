// graph_alloc_reuse.cu — an alloc node ordered after the free node of another allocation
// of its graph gets that allocation's address (CUDA reuses the virtual address, and the
// graph's memory counts it once), as programs such as NVIDIA's graphMemoryNodes and
// graphMemoryFootprint samples check; two allocations alive at once keep two addresses.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define OK(x)                                                                  \
    do {                                                                       \
        cudaError_t e_ = (x);                                                  \
        if (e_) {                                                              \
            printf("%s: %s\n", #x, cudaGetErrorName(e_));                      \
            return 1;                                                          \
        }                                                                      \
    } while (0)

__global__ void fill(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

__global__ void total(const int *p, int n, long long *out) {
    long long s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    *out = s;
}

static cudaMemAllocNodeParams params(size_t bytes) {
    cudaMemAllocNodeParams p;
    memset(&p, 0, sizeof p);
    p.bytesize = bytes;
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.poolProps.location.id = 0;
    return p;
}

// alloc -> fill(v) -> total -> free, after `after` (or a root when NULL); the address in *buf
static int chain(cudaGraph_t g, cudaGraphNode_t *after, size_t bytes, int v, long long *out,
                 int **buf, cudaGraphNode_t *alloc, cudaGraphNode_t *last) {
    cudaMemAllocNodeParams p = params(bytes);
    OK(cudaGraphAddMemAllocNode(alloc, g, after, after ? 1 : 0, &p));
    *buf = (int *)p.dptr;
    int n = 4096;
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    void *fa[] = {buf, &n, &v};
    kp.func = (void *)fill;
    kp.gridDim = dim3(n / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = fa;
    cudaGraphNode_t k1, k2;
    OK(cudaGraphAddKernelNode(&k1, g, alloc, 1, &kp));
    void *ta[] = {buf, &n, &out};
    kp.func = (void *)total;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = ta;
    OK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp));
    *last = k2;
    return 0;
}

static int used_mib(size_t *u) {
    OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, u));
    *u >>= 20;
    return 0;
}

// Two allocations of `bytes`: the second after the first's free when `ordered`, else
// beside it (both alive at once); prints whether they share the address, what the
// kernels computed and the graph memory in use after the launch.
static int run(size_t bytes, bool ordered, long long *out, cudaStream_t s) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    int *a, *b;
    cudaGraphNode_t alloc_a, last_a, free_a, alloc_b, last_b, free_b;
    if (chain(g, NULL, bytes, 1, &out[0], &a, &alloc_a, &last_a)) return 1;
    if (ordered) {
        OK(cudaGraphAddMemFreeNode(&free_a, g, &last_a, 1, a));
        if (chain(g, &free_a, bytes, 1000, &out[1], &b, &alloc_b, &last_b)) return 1;
        OK(cudaGraphAddMemFreeNode(&free_b, g, &last_b, 1, b));
    } else {
        if (chain(g, &alloc_a, bytes, 1000, &out[1], &b, &alloc_b, &last_b)) return 1;
        cudaGraphNode_t both[2] = {last_a, last_b};
        OK(cudaGraphAddMemFreeNode(&free_a, g, both, 2, a));
        OK(cudaGraphAddMemFreeNode(&free_b, g, both, 2, b));
    }
    cudaMemAllocNodeParams got;
    OK(cudaGraphMemAllocNodeGetParams(alloc_b, &got));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, NULL, NULL, 0));
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    size_t u;
    if (used_mib(&u)) return 1;
    printf("%zu MiB, %s: same address %d (node says %d), totals %lld %lld, graph memory used %zu MiB\n",
           bytes >> 20, ordered ? "second after the first's free" : "both alive at once",
           a == b, got.dptr == (void *)b, out[0], out[1], u);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
    OK(cudaDeviceGraphMemTrim(0));
    if (used_mib(&u)) return 1;
    printf("destroyed and trimmed: used %zu MiB\n", u);
    return 0;
}

int main() {
    long long *out;
    OK(cudaMallocManaged(&out, 2 * sizeof(long long)));
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    if (run(1 << 20, true, out, s)) return 1;
    if (run(64 << 20, true, out, s)) return 1;
    if (run(1 << 20, false, out, s)) return 1;
    OK(cudaFree(out));
    printf("done\n");
    return 0;
}
