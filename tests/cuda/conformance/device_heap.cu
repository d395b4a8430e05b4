// The device heap: malloc and free inside kernels (per-thread buffers, one block-shared
// buffer allocated by thread 0 and published through shared memory), C++ new/delete of
// objects with constructors in device code, cudaDeviceSetLimit(cudaLimitMallocHeapSize)
// and reading the limit back, and a pointer allocated in one kernel used and freed in a
// later one.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

struct Node { int key; Node *next; __device__ Node(int k, Node *n) : key(k), next(n) {} };

__global__ void perThread(int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int len = 1 + t % 13;
    int *buf = (int *)malloc(len * sizeof(int));
    if (!buf) { out[t] = -1; return; }
    for (int k = 0; k < len; k++) buf[k] = t * k;
    int s = 0;
    for (int k = 0; k < len; k++) s += buf[k];
    free(buf);
    // a linked list built with new, summed, then deleted
    Node *head = nullptr;
    for (int k = 0; k < 4; k++) head = new Node(t + k, head);
    int ls = 0;
    while (head) { Node *nx = head->next; ls += head->key; delete head; head = nx; }
    out[t] = s * 1000 + ls;
}

__global__ void blockShared(int *out)
{
    __shared__ int *shared;
    if (threadIdx.x == 0) shared = (int *)malloc(blockDim.x * sizeof(int));
    __syncthreads();
    shared[threadIdx.x] = threadIdx.x * blockIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = shared[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) free(shared);
}

__device__ int *gPersistent;
__global__ void allocPersistent(int n) { gPersistent = (int *)malloc(n * sizeof(int)); for (int i = 0; i < n; i++) gPersistent[i] = i * i; }
__global__ void usePersistent(int n, long long *sum) { long long s = 0; for (int i = 0; i < n; i++) s += gPersistent[i]; *sum = s; free(gPersistent); }

int main()
{
    int bad = 0;
    size_t heap = 0;
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    printf("default heap size: %zu bytes\n", heap);
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    printf("heap size after set: %zu bytes\n", heap);
    const int n = 2048;
    int *d, *h = (int *)malloc(n * 4);
    CHECK(cudaMalloc(&d, n * 4));
    perThread<<<n / 128, 128>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        int len = 1 + t % 13, s = t * (len - 1) * len / 2, ls = 4 * t + 6;
        if (h[t] != s * 1000 + ls) bad++;
    }
    printf("per-thread malloc/new: out[0]=%d out[12]=%d out[2047]=%d\n", h[0], h[12], h[2047]);
    blockShared<<<8, 256>>>(d);
    CHECK(cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (h[i] != (255 - i % 256) * (i / 256)) bad++;
    printf("block-shared malloc: out[256]=%d out[2047]=%d\n", h[256], h[2047]);
    long long *ds, s;
    CHECK(cudaMalloc(&ds, 8));
    allocPersistent<<<1, 1>>>(1000);
    usePersistent<<<1, 1>>>(1000, ds);
    CHECK(cudaMemcpy(&s, ds, 8, cudaMemcpyDeviceToHost));
    printf("allocation across kernels: sum %lld\n", s);
    if (s != 332833500LL) bad++;
    cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 128 << 20);
    printf("changing the heap size after use: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
