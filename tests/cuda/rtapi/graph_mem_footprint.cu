// graph_mem_footprint.cu — the device's graph memory statistics (used and reserved,
// current and high) as programs read them, following the physical memory of graph memory
// nodes: four graphs that allocate and free inside, launched one after another into one
// stream, share one 32 MiB unit; one graph per stream, each its own; allocations no node
// frees keep their memory through a trim until cudaFree, after which a trim returns it
// although the graphs still exist; an alloc node after the free of an allocation of the
// same size takes its address and no memory of its own.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#define OK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)
static void mem(const char *when) {
  size_t u = 0, r = 0, uh = 0, rh = 0;
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &u);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &r);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &uh);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &rh);
  printf("%-34s used %3zu MiB reserved %3zu MiB (high %3zu, %3zu)\n", when, u >> 20, r >> 20, uh >> 20, rh >> 20);
}
__global__ void fill(int *p, int n, int v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = v + i; }
__global__ void sum(const int *p, int n, long long *out) { long long s = 0; for (int i = 0; i < n; i++) s += p[i]; *out = s; }
static cudaMemAllocNodeParams params(size_t bytes) {
  cudaMemAllocNodeParams p; memset(&p, 0, sizeof p);
  p.bytesize = bytes; p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice; p.poolProps.location.id = 0;
  return p;
}
// alloc -> fill -> sum -> free, the sum written to out
static int make_inside(cudaGraphExec_t *x, size_t bytes, int v, long long *out, void **addr) {
  cudaGraph_t g; cudaGraphNode_t a, k1, k2, f;
  OK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams p = params(bytes);
  OK(cudaGraphAddMemAllocNode(&a, g, NULL, 0, &p));
  int *buf = (int *)p.dptr; *addr = buf; int n = (int)(bytes / sizeof(int));
  cudaKernelNodeParams kp; memset(&kp, 0, sizeof kp);
  void *fa[] = {&buf, &n, &v};
  kp.func = (void *)fill; kp.gridDim = dim3((n + 255) / 256); kp.blockDim = dim3(256); kp.kernelParams = fa;
  OK(cudaGraphAddKernelNode(&k1, g, &a, 1, &kp));
  void *sa[] = {&buf, &n, &out};
  kp.func = (void *)sum; kp.gridDim = dim3(1); kp.blockDim = dim3(1); kp.kernelParams = sa;
  OK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp));
  OK(cudaGraphAddMemFreeNode(&f, g, &k2, 1, buf));
  OK(cudaGraphInstantiate(x, g, NULL, NULL, 0));
  OK(cudaGraphDestroy(g));
  return 0;
}
int main() {
  const size_t MB = 1 << 20;
  long long *out; OK(cudaMallocManaged(&out, 8 * sizeof(long long)));
  cudaStream_t s[4]; for (int i = 0; i < 4; i++) OK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
  mem("start");
  // 1. alloc and free inside, four graphs, one stream
  cudaGraphExec_t x[4]; void *addr[4];
  for (int i = 0; i < 4; i++) if (make_inside(&x[i], MB, 100 * i, &out[i], &addr[i])) return 1;
  mem("four graphs instantiated");
  for (int i = 0; i < 4; i++) { OK(cudaGraphLaunch(x[i], s[0])); OK(cudaStreamSynchronize(s[0])); mem("one stream, launched and synced"); }
  for (int i = 0; i < 4; i++) OK(cudaGraphLaunch(x[i], s[0]));
  OK(cudaStreamSynchronize(s[0]));
  mem("one stream, four launched, synced");
  printf("sums %lld %lld %lld %lld\n", out[0], out[1], out[2], out[3]);
  int distinct = 1; for (int i = 0; i < 4; i++) for (int j = i + 1; j < 4; j++) if (addr[i] == addr[j]) distinct = 0;
  printf("addresses distinct: %d\n", distinct);
  OK(cudaDeviceGraphMemTrim(0)); mem("trimmed, graphs alive");
  for (int i = 0; i < 4; i++) OK(cudaGraphExecDestroy(x[i]));
  mem("graphs destroyed");
  OK(cudaDeviceGraphMemTrim(0)); mem("trimmed");
  // 2. alloc and free inside, one graph per stream
  for (int i = 0; i < 4; i++) if (make_inside(&x[i], MB, 100 * i, &out[i], &addr[i])) return 1;
  for (int i = 0; i < 4; i++) OK(cudaGraphLaunch(x[i], s[i]));
  for (int i = 0; i < 4; i++) OK(cudaStreamSynchronize(s[i]));
  mem("four streams, synced");
  printf("sums %lld %lld %lld %lld\n", out[0], out[1], out[2], out[3]);
  for (int i = 0; i < 4; i++) OK(cudaGraphExecDestroy(x[i]));
  OK(cudaDeviceGraphMemTrim(0)); mem("destroyed and trimmed");
  // 3. allocations no node frees, freed by cudaFree, then trimmed
  cudaGraphExec_t y[3]; int *p3[3];
  for (int i = 0; i < 3; i++) {
    cudaGraph_t g; cudaGraphNode_t a; OK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams p = params(MB);
    OK(cudaGraphAddMemAllocNode(&a, g, NULL, 0, &p)); p3[i] = (int *)p.dptr;
    OK(cudaGraphInstantiate(&y[i], g, NULL, NULL, 0)); OK(cudaGraphDestroy(g));
  }
  for (int i = 0; i < 3; i++) OK(cudaGraphLaunch(y[i], s[0]));
  OK(cudaStreamSynchronize(s[0])); mem("unfreed, three launched");
  OK(cudaDeviceGraphMemTrim(0)); mem("unfreed, trimmed");
  for (int i = 0; i < 3; i++) OK(cudaFree(p3[i]));
  mem("freed by cudaFree");
  OK(cudaDeviceGraphMemTrim(0)); mem("freed, trimmed, graphs alive");
  for (int i = 0; i < 3; i++) OK(cudaGraphExecDestroy(y[i]));
  mem("graphs destroyed");
  OK(cudaDeviceGraphMemTrim(0)); mem("trimmed");
  // 4. an alloc node after the free node of an allocation of the same size
  {
    cudaGraph_t g; cudaGraphNode_t a, f, b, f2; OK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams p = params(MB);
    OK(cudaGraphAddMemAllocNode(&a, g, NULL, 0, &p)); void *da = p.dptr;
    OK(cudaGraphAddMemFreeNode(&f, g, &a, 1, da));
    OK(cudaGraphAddMemAllocNode(&b, g, &f, 1, &p)); void *db = p.dptr;
    OK(cudaGraphAddMemFreeNode(&f2, g, &b, 1, db));
    printf("after a free, the same address: %d\n", da == db);
    cudaGraphExec_t z; OK(cudaGraphInstantiate(&z, g, NULL, NULL, 0));
    OK(cudaGraphLaunch(z, s[0])); OK(cudaStreamSynchronize(s[0])); mem("reuse graph launched");
    OK(cudaGraphExecDestroy(z)); OK(cudaGraphDestroy(g));
    OK(cudaDeviceGraphMemTrim(0)); mem("trimmed");
  }
  printf("done\n");
  return 0;
}
