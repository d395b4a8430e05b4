// graph_child_update.cu — cudaGraphExecChildGraphNodeSetParams: an executable graph's child
// graph node takes the node parameters of another graph of the same topology (kernel
// arguments, a different kernel, a memset value), the graph it was made from keeps its
// own, later changes to the new graph do not reach the executable graph, and what the
// call refuses (another topology, other node types, other edges, a node that is not a
// child graph node, null arguments).
#include "graph_test.h"

int main() {
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *p, *q;
    OK(cudaMalloc(&p, 32 * sizeof(int)));
    OK(cudaMalloc(&q, 32 * sizeof(int)));

    // the parent: add(1) -> child { add(10) -> add(100) }
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    int one = 1;
    cudaGraphNode_t k1 = kernel(g, (const void *)add, &p, &one, nullptr);
    cudaGraph_t c1 = chain((const void *)add, 10, (const void *)add, 100, &p);
    cudaGraphNode_t cn;
    OK(cudaGraphAddChildGraphNode(&cn, g, &k1, 1, c1));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));

    OK(cudaMemsetAsync(p, 0, 32 * sizeof(int), s));
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    printf("as instantiated: %d\n", first(p));

    // the same topology, other arguments
    cudaGraph_t c2 = chain((const void *)add, 20, (const void *)add, 200, &p);
    SHOW("set a child of the same topology", cudaGraphExecChildGraphNodeSetParams(x, cn, c2));
    OK(cudaMemsetAsync(p, 0, 32 * sizeof(int), s));
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    printf("updated: %d\n", first(p));

    // the new graph changed afterwards: the executable graph keeps what it took
    cudaGraphNode_t c2nodes[2];
    size_t nn = 2;
    OK(cudaGraphGetNodes(c2, c2nodes, &nn));
    int five = 5;
    void *a5[] = {&p, &five};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)add;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = a5;
    OK(cudaGraphKernelNodeSetParams(c2nodes[0], &kp));
    OK(cudaMemsetAsync(p, 0, 32 * sizeof(int), s));
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    printf("after changing the new graph: %d\n", first(p));

    // the graph the executable graph came from keeps its child
    cudaGraph_t orig;
    OK(cudaGraphChildGraphNodeGetGraph(cn, &orig));
    cudaGraphNode_t onodes[2];
    nn = 2;
    OK(cudaGraphGetNodes(orig, onodes, &nn));
    cudaKernelNodeParams got = {};
    OK(cudaGraphKernelNodeGetParams(onodes[0], &got));
    printf("the graph's own child: add %d\n", *(int *)got.kernelParams[1]);
    cudaGraphExec_t x2;
    OK(cudaGraphInstantiate(&x2, g, 0));
    OK(cudaMemsetAsync(p, 0, 32 * sizeof(int), s));
    OK(cudaGraphLaunch(x2, s));
    OK(cudaStreamSynchronize(s));
    printf("instantiated again from the graph: %d\n", first(p));

    // another kernel of the same signature
    cudaGraph_t c3 = chain((const void *)add, 3, (const void *)mul, 4, &p);
    SHOW("set a child with another kernel", cudaGraphExecChildGraphNodeSetParams(x, cn, c3));
    OK(cudaMemsetAsync(p, 0, 32 * sizeof(int), s));
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    printf("add 1, add 3, multiply by 4: %d\n", first(p));

    // refusals; the executable graph is left as it was
    cudaGraph_t c4;
    OK(cudaGraphCreate(&c4, 0));
    int nine = 9;
    kernel(c4, (const void *)add, &p, &nine, nullptr);
    SHOW("one node instead of two", cudaGraphExecChildGraphNodeSetParams(x, cn, c4));
    cudaGetLastError();
    cudaGraph_t c5;
    OK(cudaGraphCreate(&c5, 0));
    kernel(c5, (const void *)add, &p, &nine, nullptr);
    kernel(c5, (const void *)add, &p, &nine, nullptr);
    SHOW("two nodes without the edge", cudaGraphExecChildGraphNodeSetParams(x, cn, c5));
    cudaGetLastError();
    cudaGraph_t c6;
    OK(cudaGraphCreate(&c6, 0));
    cudaMemsetParams ms = {};
    ms.dst = p;
    ms.elementSize = 4;
    ms.width = 32;
    ms.height = 1;
    cudaGraphNode_t m6;
    OK(cudaGraphAddMemsetNode(&m6, c6, nullptr, 0, &ms));
    kernel(c6, (const void *)add, &p, &nine, &m6);
    SHOW("a memset node for a kernel node", cudaGraphExecChildGraphNodeSetParams(x, cn, c6));
    cudaGetLastError();
    SHOW("a kernel node", cudaGraphExecChildGraphNodeSetParams(x, k1, c2));
    cudaGetLastError();
    SHOW("a null graph", cudaGraphExecChildGraphNodeSetParams(x, cn, nullptr));
    cudaGetLastError();
    SHOW("a null node", cudaGraphExecChildGraphNodeSetParams(x, nullptr, c2));
    cudaGetLastError();
    SHOW("a null executable graph", cudaGraphExecChildGraphNodeSetParams(nullptr, cn, c2));
    cudaGetLastError();
    OK(cudaMemsetAsync(p, 0, 32 * sizeof(int), s));
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    printf("after the refusals: %d\n", first(p));

    // a child holding a memset: its value changes
    cudaGraph_t m1;
    OK(cudaGraphCreate(&m1, 0));
    ms.dst = q;
    ms.value = 3;
    cudaGraphNode_t mn;
    OK(cudaGraphAddMemsetNode(&mn, m1, nullptr, 0, &ms));
    cudaGraph_t gm;
    OK(cudaGraphCreate(&gm, 0));
    cudaGraphNode_t mc;
    OK(cudaGraphAddChildGraphNode(&mc, gm, nullptr, 0, m1));
    cudaGraphExec_t xm;
    OK(cudaGraphInstantiate(&xm, gm, 0));
    OK(cudaGraphLaunch(xm, s));
    OK(cudaStreamSynchronize(s));
    printf("memset child: %d\n", first(q));
    cudaGraph_t m2;
    OK(cudaGraphCreate(&m2, 0));
    ms.value = 7;
    OK(cudaGraphAddMemsetNode(&mn, m2, nullptr, 0, &ms));
    SHOW("set a memset child", cudaGraphExecChildGraphNodeSetParams(xm, mc, m2));
    OK(cudaGraphLaunch(xm, s));
    OK(cudaStreamSynchronize(s));
    printf("memset child updated: %d\n", first(q));
    printf("done\n");
    return 0;
}
