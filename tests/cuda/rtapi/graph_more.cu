// graph_more.cu — more of the graph API: child graph nodes, host/memset/memcpy node
// parameters in a graph and in an executable graph, disabling nodes of an executable
// graph, instantiation flags, if and switch conditional nodes, dependencies of a capture
// changed while it runs, and cudaGraphDebugDotPrint.
#include <string.h>
#include "../streams/streams_test.h"

__global__ void add(int *x, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += v;
}

__global__ void choose(cudaGraphConditionalHandle h, const int *sel) {
    cudaGraphSetConditional(h, *sel);
}

static int host_calls;
static void CUDART_CB count_call(void *data) { host_calls += *(int *)data; }

static long long total(const int *d, int n) {
    int h[256];
    OK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long s = 0;
    for (int i = 0; i < n; i++) s += h[i];
    return s;
}

int main() {
    const int n = 256;
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *x, *y;
    OK(cudaMalloc(&x, n * sizeof(int)));
    OK(cudaMalloc(&y, n * sizeof(int)));

    // ---- a child graph: memset x to 1, add 2 ----
    cudaGraph_t child;
    OK(cudaGraphCreate(&child, 0));
    cudaMemsetParams ms = {};
    ms.dst = x;
    ms.value = 1;
    ms.elementSize = 4;
    ms.width = n;
    ms.height = 1;
    cudaGraphNode_t set_node, add_node;
    OK(cudaGraphAddMemsetNode(&set_node, child, nullptr, 0, &ms));
    int two = 2;
    void *add_args[] = {&x, (void *)&n, &two};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)add;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(n);
    kp.kernelParams = add_args;
    OK(cudaGraphAddKernelNode(&add_node, child, &set_node, 1, &kp));

    // the parent: the child graph, then a host node, then a copy x -> y
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t child_node, host_node, copy_node;
    OK(cudaGraphAddChildGraphNode(&child_node, g, nullptr, 0, child));
    int weight = 1;
    cudaHostNodeParams hp = {count_call, &weight};
    OK(cudaGraphAddHostNode(&host_node, g, &child_node, 1, &hp));
    OK(cudaGraphAddMemcpyNode1D(&copy_node, g, &host_node, 1, y, x, n * sizeof(int),
                                cudaMemcpyDeviceToDevice));
    cudaGraph_t embedded;
    OK(cudaGraphChildGraphNodeGetGraph(child_node, &embedded));
    size_t nemb = 0;
    OK(cudaGraphGetNodes(embedded, nullptr, &nemb));
    printf("child graph node holds a graph of %zu nodes\n", nemb);
    cudaHostNodeParams hq = {};
    OK(cudaGraphHostNodeGetParams(host_node, &hq));
    printf("host node: same function %d, same data %d\n", hq.fn == count_call,
           hq.userData == &weight);
    cudaMemsetParams mq = {};
    cudaGraphNode_t emb_nodes[2];
    size_t two_nodes = 2;
    OK(cudaGraphGetNodes(embedded, emb_nodes, &two_nodes));
    OK(cudaGraphMemsetNodeGetParams(emb_nodes[0], &mq));
    printf("memset node: value %u, element %u, width %zu, height %zu\n", mq.value,
           mq.elementSize, mq.width, mq.height);
    cudaMemcpy3DParms cq = {};
    OK(cudaGraphMemcpyNodeGetParams(copy_node, &cq));
    printf("memcpy node: %zu x %zu x %zu bytes, kind %d\n", cq.extent.width, cq.extent.height,
           cq.extent.depth, (int)cq.kind);

    cudaGraphExec_t ge;
    OK(cudaGraphInstantiate(&ge, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    unsigned long long flags = 0;
    OK(cudaGraphExecGetFlags(ge, &flags));
    printf("instantiated with flags %llu\n", flags);
    OK(cudaGraphLaunch(ge, s));
    OK(cudaStreamSynchronize(s));
    printf("launch: y sums to %lld, host node ran %d time(s)\n", total(y, n), host_calls);

    // ---- the executable graph's nodes changed in place ----
    int weight2 = 10;
    cudaHostNodeParams hp2 = {count_call, &weight2};
    OK(cudaGraphExecHostNodeSetParams(ge, host_node, &hp2));
    OK(cudaGraphExecMemcpyNodeSetParams1D(ge, copy_node, y, x, (n / 2) * sizeof(int),
                                          cudaMemcpyDeviceToDevice));
    OK(cudaMemset(y, 0, n * sizeof(int)));
    OK(cudaDeviceSynchronize());
    OK(cudaGraphLaunch(ge, s));
    OK(cudaStreamSynchronize(s));
    printf("after the exec updates: y sums to %lld, host calls %d\n", total(y, n), host_calls);
    // the copy node disabled: y keeps what it had
    unsigned en = 9;
    OK(cudaGraphNodeSetEnabled(ge, copy_node, 0));
    OK(cudaGraphNodeGetEnabled(ge, copy_node, &en));
    printf("copy node enabled: %u\n", en);
    OK(cudaMemset(y, 0, n * sizeof(int)));
    OK(cudaDeviceSynchronize());
    OK(cudaGraphLaunch(ge, s));
    OK(cudaStreamSynchronize(s));
    printf("with the copy disabled: y sums to %lld\n", total(y, n));
    OK(cudaGraphNodeSetEnabled(ge, copy_node, 1));
    OK(cudaGraphNodeGetEnabled(ge, copy_node, &en));
    printf("copy node enabled again: %u\n", en);
    SHOW("disable a host node", cudaGraphNodeSetEnabled(ge, host_node, 0));
    SHOW("cudaGetLastError", cudaGetLastError());
    // the graph's own nodes changed: a new instantiation sees them
    cudaMemsetParams ms2 = ms;
    ms2.value = 5;
    OK(cudaGraphMemsetNodeSetParams(emb_nodes[0], &ms2));
    OK(cudaGraphMemsetNodeGetParams(emb_nodes[0], &mq));
    printf("embedded memset node now sets %u\n", mq.value);

    // ---- if and switch nodes, chosen by a kernel ----
    cudaGraph_t gc;
    OK(cudaGraphCreate(&gc, 0));
    cudaGraphConditionalHandle hif, hsw;
    OK(cudaGraphConditionalHandleCreate(&hif, gc, 0, cudaGraphCondAssignDefault));
    OK(cudaGraphConditionalHandleCreate(&hsw, gc, 0, cudaGraphCondAssignDefault));
    int *sel;
    OK(cudaMalloc(&sel, sizeof(int)));
    cudaGraphNode_t choose_if, choose_sw, if_node, sw_node;
    void *cif_args[] = {&hif, &sel};
    void *csw_args[] = {&hsw, &sel};
    kp.func = (void *)choose;
    kp.blockDim = dim3(1);
    kp.kernelParams = cif_args;
    OK(cudaGraphAddKernelNode(&choose_if, gc, nullptr, 0, &kp));
    kp.kernelParams = csw_args;
    OK(cudaGraphAddKernelNode(&choose_sw, gc, &choose_if, 1, &kp));
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = hif;
    cp.conditional.type = cudaGraphCondTypeIf;
    cp.conditional.size = 2;
    OK(cudaGraphAddNode(&if_node, gc, &choose_sw, nullptr, 1, &cp));
    cudaGraph_t if_then = cp.conditional.phGraph_out[0], if_else = cp.conditional.phGraph_out[1];
    cudaGraphNodeParams sp = {};
    sp.type = cudaGraphNodeTypeConditional;
    sp.conditional.handle = hsw;
    sp.conditional.type = cudaGraphCondTypeSwitch;
    sp.conditional.size = 3;
    OK(cudaGraphAddNode(&sw_node, gc, &if_node, nullptr, 1, &sp));
    int v100 = 100, v1000 = 1000, vs[3] = {1, 10, 20};
    void *then_args[] = {&y, (void *)&n, &v100}, *else_args[] = {&y, (void *)&n, &v1000};
    void *case_args[3][3] = {{&y, (void *)&n, &vs[0]}, {&y, (void *)&n, &vs[1]},
                             {&y, (void *)&n, &vs[2]}};
    kp.func = (void *)add;
    kp.blockDim = dim3(n);
    cudaGraphNode_t tmp;
    kp.kernelParams = then_args;
    OK(cudaGraphAddKernelNode(&tmp, if_then, nullptr, 0, &kp));
    kp.kernelParams = else_args;
    OK(cudaGraphAddKernelNode(&tmp, if_else, nullptr, 0, &kp));
    for (int k = 0; k < 3; k++) {
        kp.kernelParams = case_args[k];
        OK(cudaGraphAddKernelNode(&tmp, sp.conditional.phGraph_out[k], nullptr, 0, &kp));
    }
    cudaGraphExec_t gce;
    OK(cudaGraphInstantiate(&gce, gc, 0));
    for (int choice = 0; choice < 4; choice++) {
        OK(cudaMemset(y, 0, n * sizeof(int)));
        OK(cudaMemcpy(sel, &choice, sizeof choice, cudaMemcpyHostToDevice));
        OK(cudaGraphLaunch(gce, s));
        OK(cudaStreamSynchronize(s));
        printf("condition %d: y sums to %lld\n", choice, total(y, n));
    }

    // ---- a capture whose dependencies are replaced while it runs ----
    cudaGraph_t gd;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    add<<<1, n, 0, s>>>(y, n, 1);
    cudaStreamCaptureStatus st;
    const cudaGraphNode_t *deps = nullptr;
    size_t ndeps = 0;
    cudaGraph_t capturing;
    OK(cudaStreamGetCaptureInfo(s, &st, nullptr, &capturing, &deps, nullptr, &ndeps));
    cudaGraphNode_t first = deps[0];
    add<<<1, n, 0, s>>>(y, n, 2);
    OK(cudaStreamUpdateCaptureDependencies(s, &first, nullptr, 1,
                                           cudaStreamSetCaptureDependencies));
    add<<<1, n, 0, s>>>(y, n, 3);
    OK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, nullptr, &ndeps));
    cudaGraphNode_t last = deps[0];
    cudaGraphNode_t both[2];
    OK(cudaGraphGetNodes(capturing, both, &(ndeps = 2)));
    cudaGraphNode_t join[2] = {both[1], last};
    OK(cudaStreamUpdateCaptureDependencies(s, join, nullptr, 2, cudaStreamSetCaptureDependencies));
    OK(cudaStreamEndCapture(s, &gd));
    size_t nn = 0, ne = 0;
    OK(cudaGraphGetNodes(gd, nullptr, &nn));
    OK(cudaGraphGetEdges(gd, nullptr, nullptr, nullptr, &ne));
    printf("capture with replaced dependencies: %zu nodes, %zu edges\n", nn, ne);

    // ---- a picture of the graph ----
    SHOW("cudaGraphDebugDotPrint", cudaGraphDebugDotPrint(gc, "graph_more.dot", 0));
    FILE *f = fopen("graph_more.dot", "r");
    char line[256] = "";
    if (f) {
        if (!fgets(line, sizeof line, f)) line[0] = 0;
        fclose(f);
        remove("graph_more.dot");
    }
    printf("the picture is a DOT digraph: %d\n", strncmp(line, "digraph", 7) == 0);
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    return 0;
}
