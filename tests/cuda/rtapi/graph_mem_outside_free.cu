// graph_mem_outside_free.cu — memory a graph's alloc node allocates and no node of the
// graph frees: the program frees it after the launch (cudaFree, or cudaFreeAsync in
// stream order, or a second graph's free node), and the next launch of the graph
// allocates it again at the same address, which the graph's kernels and the program then
// use as before (the graph memory nodes of the CUDA programming guide).
#include "../streams/streams_test.h"

__global__ void fill(int *x, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = v + i;
}

__global__ void check(const int *x, int n, int v, int *bad) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] != v + i) atomicAdd(bad, 1);
}

int main() {
    const int n = 4096;
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *bad;
    OK(cudaMallocManaged(&bad, sizeof(int)));

    /* alloc -> fill, no free node */
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.bytesize = n * sizeof(int);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    cudaGraphNode_t alloc, kern;
    OK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    int *p = (int *)ap.dptr;
    int v = 0;
    void *args[] = {&p, (void *)&n, &v};
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)fill;
    kp.gridDim = dim3((n + 255) / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    v = 100;
    OK(cudaGraphAddKernelNode(&kern, g, &alloc, 1, &kp));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, NULL, NULL, 0));

    /* a graph that only frees p */
    cudaGraph_t gf;
    OK(cudaGraphCreate(&gf, 0));
    cudaGraphNode_t fnode;
    OK(cudaGraphAddMemFreeNode(&fnode, gf, NULL, 0, p));
    cudaGraphExec_t xf;
    OK(cudaGraphInstantiate(&xf, gf, NULL, NULL, 0));

    const char *how[] = {"cudaFree", "cudaFreeAsync", "a graph's free node"};
    for (int round = 0; round < 3; round++) {
        *bad = 0;
        OK(cudaGraphLaunch(x, s));
        check<<<(n + 255) / 256, 256, 0, s>>>(p, n, 100, bad);
        SHOW("check after launch", cudaStreamSynchronize(s));
        printf("round %d: wrong values %d; freed with %s: ", round, *bad, how[round]);
        if (round == 0) {
            SHOW("free", cudaFree(p));
        } else if (round == 1) {
            SHOW("free", cudaFreeAsync(p, s));
            OK(cudaStreamSynchronize(s));
        } else {
            SHOW("free", cudaGraphLaunch(xf, s));
            OK(cudaStreamSynchronize(s));
        }
    }
    /* once more: the memory is the graph's again */
    *bad = 0;
    OK(cudaGraphLaunch(x, s));
    check<<<(n + 255) / 256, 256, 0, s>>>(p, n, 100, bad);
    OK(cudaStreamSynchronize(s));
    int h[2];
    SHOW("copy from the graph's memory", cudaMemcpy(h, p + 5, sizeof h, cudaMemcpyDeviceToHost));
    printf("last launch: wrong values %d, p[5] = %d, p[6] = %d\n", *bad, h[0], h[1]);
    SHOW("free", cudaFree(p));
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphExecDestroy(xf));
    OK(cudaGraphDestroy(g));
    OK(cudaGraphDestroy(gf));
    OK(cudaFree(bad));
    printf("done\n");
    return 0;
}
