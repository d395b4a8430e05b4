// graph_api.cu — the graph API beyond capture, in the order programs use it: a captured
// graph whose executable is updated in place (cudaGraphExecKernelNodeSetParams,
// cudaGraphExecUpdate) and relaunched; node queries (types, roots, edges, dependencies,
// kernel parameters); cloning; the generic cudaGraphAddNode; memory alloc and free nodes
// with the device's graph memory attributes; a while-loop conditional node whose body
// sets the condition from device code; capture into an existing graph; stream attributes.
#include "../streams/streams_test.h"

__global__ void axpb(int *x, int n, int a, int b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + b;
}

__global__ void iota(int *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = i;
}

__global__ void total(const int *x, int n, long long *out) {
    long long s = 0;
    for (int i = 0; i < n; i++) s += x[i];
    *out = s;
}

// The body of a while loop: one more round, and go on while fewer than limit rounds ran.
__global__ void loop_body(cudaGraphConditionalHandle h, int *rounds, int *x, int limit) {
    int r = ++*rounds;
    x[r % 4] += r;
    cudaGraphSetConditional(h, r < limit);
}

static const char *type_name(cudaGraphNodeType t) {
    switch (t) {
    case cudaGraphNodeTypeKernel: return "kernel";
    case cudaGraphNodeTypeMemcpy: return "memcpy";
    case cudaGraphNodeTypeMemset: return "memset";
    case cudaGraphNodeTypeHost: return "host";
    case cudaGraphNodeTypeGraph: return "graph";
    case cudaGraphNodeTypeEmpty: return "empty";
    case cudaGraphNodeTypeWaitEvent: return "wait-event";
    case cudaGraphNodeTypeEventRecord: return "event-record";
    case cudaGraphNodeTypeMemAlloc: return "mem-alloc";
    case cudaGraphNodeTypeMemFree: return "mem-free";
    case cudaGraphNodeTypeConditional: return "conditional";
    default: return "other";
    }
}

static long long host_total(const int *d, int n) {
    int *h = (int *)malloc(n * sizeof(int));
    OK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long s = 0;
    for (int i = 0; i < n; i++) s += h[i];
    free(h);
    return s;
}

int main() {
    const int n = 1000;
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *x;
    OK(cudaMalloc(&x, n * sizeof(int)));

    // ---- capture iota then axpb, instantiate, launch ----
    cudaGraph_t g;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    iota<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    axpb<<<(n + 255) / 256, 256, 0, s>>>(x, n, 2, 1);
    OK(cudaStreamEndCapture(s, &g));
    cudaGraphExec_t ge;
    OK(cudaGraphInstantiate(&ge, g, 0));
    OK(cudaGraphLaunch(ge, s));
    OK(cudaStreamSynchronize(s));
    printf("captured graph: sum %lld\n", host_total(x, n));

    // ---- node queries ----
    size_t count = 0;
    OK(cudaGraphGetNodes(g, nullptr, &count));
    cudaGraphNode_t nodes[8];
    OK(cudaGraphGetNodes(g, nodes, &count));
    printf("nodes: %zu:", count);
    for (size_t i = 0; i < count; i++) {
        cudaGraphNodeType t;
        OK(cudaGraphNodeGetType(nodes[i], &t));
        printf(" %s", type_name(t));
    }
    printf("\n");
    size_t nroots = 0, nedges = 0;
    OK(cudaGraphGetRootNodes(g, nullptr, &nroots));
    OK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &nedges));
    cudaGraphNode_t root, from[4], to[4];
    OK(cudaGraphGetRootNodes(g, &root, &nroots));
    OK(cudaGraphGetEdges(g, from, to, nullptr, &nedges));
    printf("roots %zu, edges %zu, the edge leaves the root: %d\n", nroots, nedges,
           from[0] == root);
    cudaGraphNode_t second = to[0];
    size_t ndeps = 0, ndependents = 0;
    OK(cudaGraphNodeGetDependencies(second, nullptr, nullptr, &ndeps));
    OK(cudaGraphNodeGetDependentNodes(root, nullptr, nullptr, &ndependents));
    printf("the second node has %zu dependency, the root %zu dependent\n", ndeps, ndependents);
    cudaKernelNodeParams kp = {};
    OK(cudaGraphKernelNodeGetParams(second, &kp));
    printf("kernel node: grid %u, block %u, shared %u, is axpb: %d, a=%d b=%d\n", kp.gridDim.x,
           kp.blockDim.x, kp.sharedMemBytes, kp.func == (void *)axpb, *(int *)kp.kernelParams[2],
           *(int *)kp.kernelParams[3]);

    // ---- update the executable graph's kernel node in place, relaunch ----
    int a = 3, b = -7;
    void *args[] = {&x, (void *)&n, &a, &b};
    kp.kernelParams = args;
    OK(cudaGraphExecKernelNodeSetParams(ge, second, &kp));
    OK(cudaGraphLaunch(ge, s));
    OK(cudaStreamSynchronize(s));
    printf("after cudaGraphExecKernelNodeSetParams: sum %lld (expected %lld)\n",
           host_total(x, n), 3LL * n * (n - 1) / 2 - 7LL * n);
    // the graph itself keeps its own parameters
    cudaKernelNodeParams kp2 = {};
    OK(cudaGraphKernelNodeGetParams(second, &kp2));
    printf("the graph's node still has a=%d\n", *(int *)kp2.kernelParams[2]);

    // ---- cudaGraphExecUpdate from a graph of the same shape ----
    cudaGraph_t g2;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    iota<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    axpb<<<(n + 255) / 256, 256, 0, s>>>(x, n, 5, 5);
    OK(cudaStreamEndCapture(s, &g2));
    cudaGraphExecUpdateResultInfo info;
    SHOW("cudaGraphExecUpdate (same shape)", cudaGraphExecUpdate(ge, g2, &info));
    printf("update result %d\n", (int)info.result);
    OK(cudaGraphLaunch(ge, s));
    OK(cudaStreamSynchronize(s));
    printf("after cudaGraphExecUpdate: sum %lld (expected %lld)\n", host_total(x, n),
           5LL * n * (n - 1) / 2 + 5LL * n);
    // a graph of another shape cannot update it
    cudaGraph_t g3;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    iota<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    OK(cudaStreamEndCapture(s, &g3));
    SHOW("cudaGraphExecUpdate (other shape)", cudaGraphExecUpdate(ge, g3, &info));
    printf("update result %d\n", (int)info.result);
    SHOW("cudaGetLastError", cudaGetLastError());

    // ---- clone ----
    cudaGraph_t gc;
    OK(cudaGraphClone(&gc, g));
    cudaGraphNode_t in_clone;
    OK(cudaGraphNodeFindInClone(&in_clone, second, gc));
    size_t nclone = 0;
    OK(cudaGraphGetNodes(gc, nullptr, &nclone));
    printf("clone: %zu nodes, the node found is another: %d\n", nclone, in_clone != second);
    cudaKernelNodeParams kc = {};
    OK(cudaGraphKernelNodeGetParams(in_clone, &kc));
    kc.kernelParams = args;  // a=3, b=-7
    OK(cudaGraphKernelNodeSetParams(in_clone, &kc));
    cudaGraphExec_t gce;
    OK(cudaGraphInstantiate(&gce, gc, 0));
    OK(cudaGraphLaunch(gce, s));
    OK(cudaStreamSynchronize(s));
    printf("clone with its node's parameters set: sum %lld\n", host_total(x, n));

    // ---- a graph built with cudaGraphAddNode, with memory alloc and free nodes ----
    cudaGraph_t gm;
    OK(cudaGraphCreate(&gm, 0));
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeMemAlloc;
    p.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    p.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    p.alloc.poolProps.location.id = 0;
    p.alloc.bytesize = n * sizeof(int);
    cudaGraphNode_t alloc_node, iota_node, axpb_node, total_node, free_node;
    OK(cudaGraphAddNode(&alloc_node, gm, nullptr, nullptr, 0, &p));
    int *buf = (int *)p.alloc.dptr;
    printf("alloc node gave an address: %d\n", buf != nullptr);
    long long *d_total;
    OK(cudaMalloc(&d_total, sizeof(long long)));
    void *iota_args[] = {&buf, (void *)&n};
    cudaGraphNodeParams kn = {};
    kn.type = cudaGraphNodeTypeKernel;
    kn.kernel.func = (void *)iota;
    kn.kernel.gridDim = dim3((n + 255) / 256);
    kn.kernel.blockDim = dim3(256);
    kn.kernel.kernelParams = iota_args;
    OK(cudaGraphAddNode(&iota_node, gm, &alloc_node, nullptr, 1, &kn));
    int a2 = 2, b2 = 3;
    void *axpb_args[] = {&buf, (void *)&n, &a2, &b2};
    cudaKernelNodeParams ak = {};
    ak.func = (void *)axpb;
    ak.gridDim = dim3((n + 255) / 256);
    ak.blockDim = dim3(256);
    ak.kernelParams = axpb_args;
    OK(cudaGraphAddKernelNode(&axpb_node, gm, &iota_node, 1, &ak));
    void *total_args[] = {&buf, (void *)&n, &d_total};
    ak.func = (void *)total;
    ak.gridDim = dim3(1);
    ak.blockDim = dim3(1);
    ak.kernelParams = total_args;
    OK(cudaGraphAddKernelNode(&total_node, gm, &axpb_node, 1, &ak));
    OK(cudaGraphAddMemFreeNode(&free_node, gm, &total_node, 1, buf));
    cudaMemAllocNodeParams ap;
    OK(cudaGraphMemAllocNodeGetParams(alloc_node, &ap));
    void *freed = nullptr;
    OK(cudaGraphMemFreeNodeGetParams(free_node, &freed));
    printf("alloc node: %zu bytes; the free node frees it: %d\n", ap.bytesize, freed == buf);
    cudaGraphExec_t gme;
    OK(cudaGraphInstantiate(&gme, gm, 0));
    for (int k = 0; k < 3; k++) {
        OK(cudaGraphLaunch(gme, s));
        OK(cudaStreamSynchronize(s));
        long long t = 0;
        OK(cudaMemcpy(&t, d_total, sizeof t, cudaMemcpyDeviceToHost));
        printf("memory-node graph, launch %d: total %lld (expected %lld)\n", k, t,
               2LL * n * (n - 1) / 2 + 3LL * n);
    }
    unsigned long long used = 0, reserved = 0;
    OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
    printf("graph memory: used %llu, reserved %llu\n", used, reserved);
    OK(cudaGraphExecDestroy(gme));
    OK(cudaDeviceGraphMemTrim(0));
    OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
    printf("graph memory after trimming: used %llu, reserved %llu\n", used, reserved);

    // ---- a while loop: the body runs until it sets the condition to 0 ----
    cudaGraph_t gw;
    OK(cudaGraphCreate(&gw, 0));
    cudaGraphConditionalHandle h;
    OK(cudaGraphConditionalHandleCreate(&h, gw, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeWhile;
    cp.conditional.size = 1;
    cudaGraphNode_t cond_node;
    OK(cudaGraphAddNode(&cond_node, gw, nullptr, nullptr, 0, &cp));
    cudaGraph_t body = cp.conditional.phGraph_out[0];
    int *rounds;
    OK(cudaMalloc(&rounds, sizeof(int)));
    OK(cudaMemsetAsync(rounds, 0, sizeof(int), s));  // in s: ordered before the graph
    OK(cudaMemsetAsync(x, 0, 4 * sizeof(int), s));
    int limit = 10;
    void *body_args[] = {&h, &rounds, &x, &limit};
    cudaKernelNodeParams bk = {};
    bk.func = (void *)loop_body;
    bk.gridDim = dim3(1);
    bk.blockDim = dim3(1);
    bk.kernelParams = body_args;
    cudaGraphNode_t body_node;
    OK(cudaGraphAddKernelNode(&body_node, body, nullptr, 0, &bk));
    cudaGraphExec_t gwe;
    OK(cudaGraphInstantiate(&gwe, gw, 0));
    OK(cudaGraphLaunch(gwe, s));
    OK(cudaStreamSynchronize(s));
    int hr = 0, hx[4];
    OK(cudaMemcpy(&hr, rounds, sizeof hr, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost));
    printf("while loop: %d rounds, x = %d %d %d %d\n", hr, hx[0], hx[1], hx[2], hx[3]);
    OK(cudaGraphLaunch(gwe, s));  // the default value starts it again: one more round
    OK(cudaStreamSynchronize(s));
    OK(cudaMemcpy(&hr, rounds, sizeof hr, cudaMemcpyDeviceToHost));
    printf("launched again: %d rounds in all\n", hr);

    // ---- capture into an existing graph, after one of its nodes ----
    cudaGraph_t gt;
    OK(cudaGraphCreate(&gt, 0));
    cudaGraphNode_t empty;
    OK(cudaGraphAddEmptyNode(&empty, gt, nullptr, 0));
    OK(cudaStreamBeginCaptureToGraph(s, gt, &empty, nullptr, 1, cudaStreamCaptureModeGlobal));
    iota<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    axpb<<<(n + 255) / 256, 256, 0, s>>>(x, n, 1, 1);
    cudaGraph_t got;
    OK(cudaStreamEndCapture(s, &got));
    size_t nt = 0;
    OK(cudaGraphGetNodes(gt, nullptr, &nt));
    printf("captured into an existing graph: same graph %d, %zu nodes\n", got == gt, nt);
    cudaGraphExec_t gte;
    OK(cudaGraphInstantiate(&gte, gt, 0));
    OK(cudaGraphLaunch(gte, s));
    OK(cudaStreamSynchronize(s));
    printf("its launch: sum %lld\n", host_total(x, n));

    // ---- stream attributes ----
    cudaLaunchAttributeValue v = {};
    v.accessPolicyWindow.base_ptr = x;
    v.accessPolicyWindow.num_bytes = n * sizeof(int);
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    SHOW("cudaStreamSetAttribute access policy window",
         cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    cudaLaunchAttributeValue r = {};
    SHOW("cudaStreamGetAttribute access policy window",
         cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &r));
    printf("window: same base %d, %zu bytes, hit ratio %.2f, hit %d, miss %d\n",
           r.accessPolicyWindow.base_ptr == (void *)x, r.accessPolicyWindow.num_bytes,
           r.accessPolicyWindow.hitRatio, (int)r.accessPolicyWindow.hitProp,
           (int)r.accessPolicyWindow.missProp);
    v = {};
    v.syncPolicy = cudaSyncPolicyYield;
    SHOW("cudaStreamSetAttribute synchronization policy",
         cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
    r = {};
    OK(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &r));
    printf("synchronization policy %d\n", (int)r.syncPolicy);
    r = {};
    OK(cudaStreamGetAttribute(s, cudaStreamAttributePriority, &r));
    printf("priority %d\n", r.priority);
    cudaStream_t s2;
    OK(cudaStreamCreate(&s2));
    SHOW("cudaStreamCopyAttributes", cudaStreamCopyAttributes(s2, s));
    r = {};
    OK(cudaStreamGetAttribute(s2, cudaStreamAttributeAccessPolicyWindow, &r));
    printf("copied window: %zu bytes\n", r.accessPolicyWindow.num_bytes);
    SHOW("cudaCtxResetPersistingL2Cache", cudaCtxResetPersistingL2Cache());
    size_t l2 = 0;
    OK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1 << 20));
    OK(cudaDeviceGetLimit(&l2, cudaLimitPersistingL2CacheSize));
    cudaDeviceProp prop;
    OK(cudaGetDeviceProperties(&prop, 0));
    printf("persisting L2 limit: at least what was asked %d, at most the device's %d\n",
           l2 >= (1u << 20), l2 <= (size_t)prop.persistingL2CacheMaxSize);
    axpb<<<(n + 255) / 256, 256, 0, s>>>(x, n, 1, 1);
    OK(cudaStreamSynchronize(s));
    printf("a launch in the stream with a window: sum %lld\n", host_total(x, n));
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    return 0;
}
