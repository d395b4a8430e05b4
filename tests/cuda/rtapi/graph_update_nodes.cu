// graph_update_nodes.cu — cudaGraphExecUpdate over the node types beyond kernels and
// copies: a child graph node (the new child's parameters, when its topology is the same;
// TopologyChanged when it is not), event record and event wait nodes (another event), a
// kernel node given another kernel, and that a refused update leaves the executable graph
// as it was.
#include "graph_test.h"

/* f(a) -> child -> record(ev); *childNode is the child graph node */
static cudaGraph_t parent(const void *f, int a, cudaGraph_t child, cudaEvent_t ev, int **p,
                          cudaGraphNode_t *childNode) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t k = kernel(g, f, p, &a, nullptr);
    OK(cudaGraphAddChildGraphNode(childNode, g, &k, 1, child));
    cudaGraphNode_t r;
    OK(cudaGraphAddEventRecordNode(&r, g, childNode, 1, ev));
    return g;
}

static void update(const char *label, cudaGraphExec_t x, cudaGraph_t g, cudaGraphNode_t culprit) {
    cudaGraphExecUpdateResultInfo info;
    memset(&info, 0xff, sizeof info);
    cudaError_t e = cudaGraphExecUpdate(x, g, &info);
    printf("%s: %d %s, result %d, error node %s\n", label, (int)e, cudaGetErrorName(e),
           (int)info.result,
           info.errorNode == nullptr ? "none" : info.errorNode == culprit ? "the culprit" : "another");
    cudaGetLastError();
}

static void run(const char *label, cudaGraphExec_t x, cudaStream_t s, int *p) {
    OK(cudaMemsetAsync(p, 0, 32 * sizeof(int), s)); /* in s: s does not wait for the legacy stream */
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    printf("%s: %d\n", label, first(p));
}

/* has ev been recorded (elapsed time from itself: an error until it is)? */
static const char *recorded(cudaEvent_t ev) {
    float ms;
    cudaError_t e = cudaEventElapsedTime(&ms, ev, ev);
    cudaGetLastError();
    return e == cudaSuccess ? "recorded" : cudaGetErrorName(e);
}

int main() {
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *p;
    OK(cudaMalloc(&p, 32 * sizeof(int)));
    cudaEvent_t ev1, ev2, ev3;
    OK(cudaEventCreate(&ev1));
    OK(cudaEventCreate(&ev2));
    OK(cudaEventCreate(&ev3));

    // add(1) -> child { add(10) -> add(100) } -> record(ev1)
    cudaGraphNode_t cn1, cn2, cn3, cn4;
    cudaGraph_t g1 = parent((const void *)add, 1,
                            chain((const void *)add, 10, (const void *)add, 100, &p), ev1, &p,
                            &cn1);
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g1, 0));
    run("as instantiated", x, s, p);
    printf("ev1 %s, ev2 %s\n", recorded(ev1), recorded(ev2));

    // add(2) -> child { add(20) -> mul(3) } -> record(ev2): same topology, another kernel
    // in the child, another event
    cudaGraph_t g2 = parent((const void *)add, 2,
                            chain((const void *)add, 20, (const void *)mul, 3, &p), ev2, &p,
                            &cn2);
    update("child, event record and arguments", x, g2, cn2);
    run("updated", x, s, p);
    printf("ev2 %s\n", recorded(ev2));

    // the top kernel becomes mul: mul(5) on 0 -> add 20 -> times 3
    cudaGraph_t g3 = parent((const void *)mul, 5,
                            chain((const void *)add, 20, (const void *)mul, 3, &p), ev2, &p,
                            &cn3);
    update("another top kernel", x, g3, nullptr);
    run("after it", x, s, p);

    // a child of one node: refused, x stays
    cudaGraph_t g4 = parent((const void *)add, 7, chain((const void *)add, 70, nullptr, 0, &p),
                            ev3, &p, &cn4);
    update("a child of another topology", x, g4, cn4);
    run("after the refusal", x, s, p);
    printf("ev3 %s\n", recorded(ev3));

    // wait(ev1) -> add(4), then wait(ev3) -> add(6)
    cudaGraph_t w1, w2;
    cudaGraphNode_t wn;
    OK(cudaGraphCreate(&w1, 0));
    OK(cudaGraphAddEventWaitNode(&wn, w1, nullptr, 0, ev1));
    int four = 4, six = 6;
    kernel(w1, (const void *)add, &p, &four, &wn);
    cudaGraphExec_t xw;
    OK(cudaGraphInstantiate(&xw, w1, 0));
    run("wait then add 4", xw, s, p);
    OK(cudaGraphCreate(&w2, 0));
    OK(cudaGraphAddEventWaitNode(&wn, w2, nullptr, 0, ev3));
    kernel(w2, (const void *)add, &p, &six, &wn);
    update("event wait", xw, w2, nullptr);
    run("wait then add 6", xw, s, p);
    printf("done\n");
    return 0;
}
