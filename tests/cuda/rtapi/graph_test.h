// graph_test.h — what the graph-update tests (graph_child_update.cu, graph_update_nodes.cu)
// share: two one-warp kernels that change a buffer in ways that tell them apart (add and
// multiply), graphs of a chain of them, and a check that every lane holds the same value.
#ifndef GRAPH_TEST_H
#define GRAPH_TEST_H

#include "../streams/streams_test.h"

__global__ void add(int *x, int v) { x[threadIdx.x] += v; }
__global__ void mul(int *x, int v) { x[threadIdx.x] *= v; }

/* a node running f(*p, *v) with one warp in g, after *dep when dep is not null */
static cudaGraphNode_t kernel(cudaGraph_t g, const void *f, int **p, int *v,
                              const cudaGraphNode_t *dep) {
    void *args[] = {p, v};
    cudaKernelNodeParams k = {};
    k.func = (void *)f;
    k.gridDim = dim3(1);
    k.blockDim = dim3(32);
    k.kernelParams = args;
    cudaGraphNode_t n;
    OK(cudaGraphAddKernelNode(&n, g, dep, dep ? 1 : 0, &k));
    return n;
}

/* f(a) -> g2(b) on p; just f(a) when g2 is null */
static cudaGraph_t chain(const void *f, int a, const void *g2, int b, int **p) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t n1 = kernel(g, f, p, &a, nullptr);
    if (g2) kernel(g, g2, p, &b, &n1);
    return g;
}

/* the value every one of the warp's 32 elements of d holds */
static int first(const int *d) {
    int h[32];
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 1; i < 32; i++) EXPECT(h[i] == h[0]);
    return h[0];
}

#endif
