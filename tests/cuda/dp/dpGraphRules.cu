/* dpGraphRules — what a graph instantiated with cudaGraphInstantiateFlagDeviceLaunch may
 * hold (CUDA Runtime API, cudaGraphInstantiateWithFlags: kernel, memcpy, memset and child
 * graph nodes, not empty, kernels without dynamic parallelism, copies of device memory or
 * pinned host memory) and what instantiation answers otherwise: the error, and through
 * cudaGraphInstantiateWithParams the result and the node named. A device graph holding a
 * child graph is then launched from a kernel and from the host.
 *
 * Build: nvcc -arch=sm_90 -rdc=true dpGraphRules.cu -lcudadevrt
 */
#include <cstdint>

#include "dp_graph_test.h"

__device__ int g_sum;

__global__ void add(int v) {
    if (threadIdx.x == 0) atomicAdd(&g_sum, v);
}

__global__ void child() {}

/* a kernel using dynamic parallelism */
__global__ void parent() {
    if (threadIdx.x == 0) child<<<1, 1>>>();
}

/* a kernel launching a device graph (allowed in one) */
__global__ void launcher(cudaGraphExec_t g) {
    if (threadIdx.x == 0) g_err[0] = cudaGraphLaunch(g, cudaStreamGraphFireAndForget);
}

static void hostFn(void *) {}

static const char *resultName(cudaGraphInstantiateResult r) {
    switch (r) {
    case cudaGraphInstantiateSuccess: return "Success";
    case cudaGraphInstantiateError: return "Error";
    case cudaGraphInstantiateInvalidStructure: return "InvalidStructure";
    case cudaGraphInstantiateNodeOperationNotSupported: return "NodeOperationNotSupported";
    case cudaGraphInstantiateMultipleDevicesNotSupported: return "MultipleDevicesNotSupported";
    default: return "other";
    }
}

/* instantiate g for device launch both ways; bad: the node at fault, if any */
static cudaGraphExec_t tryDevice(const char *what, cudaGraph_t g, cudaGraphNode_t bad,
                                 unsigned long long extra = 0) {
    cudaGraphExec_t x = NULL;
    cudaError_t e = cudaGraphInstantiate(&x, g, cudaGraphInstantiateFlagDeviceLaunch | extra);
    cudaError_t last = cudaGetLastError();
    cudaGraphInstantiateParams p;
    memset(&p, 0, sizeof p);
    p.flags = cudaGraphInstantiateFlagDeviceLaunch | extra;
    p.errNode_out = (cudaGraphNode_t)(uintptr_t)1;
    cudaGraphExec_t y = NULL;
    cudaError_t e2 = cudaGraphInstantiateWithParams(&y, g, &p);
    cudaGetLastError();
    const char *node = p.errNode_out == NULL                  ? "none"
                       : p.errNode_out == (cudaGraphNode_t)1 ? "unset"
                       : p.errNode_out == bad                ? "the node"
                                                             : "another";
    printf("%-34s %s (last %s) | with params %s, %s, error node %s\n", what,
           cudaGetErrorName(e), cudaGetErrorName(last), cudaGetErrorName(e2),
           resultName(p.result_out), node);
    fflush(stdout);
    if (y) OK(cudaGraphExecDestroy(y));
    return e == cudaSuccess ? x : NULL;
}

static cudaGraph_t newGraph() {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    return g;
}

int main() {
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int one = 1, ten = 10, hundred = 100;
    void *a1[] = {&one}, *a10[] = {&ten}, *a100[] = {&hundred};
    int *d, *h, *pinned, *managed;
    OK(cudaMalloc(&d, 64 * sizeof(int)));
    OK(cudaMallocHost(&pinned, 64 * sizeof(int)));
    OK(cudaMallocManaged(&managed, 64 * sizeof(int)));
    h = (int *)calloc(64, sizeof(int));

    printf("-- what a device graph may hold\n");
    cudaGraph_t g;
    cudaGraphNode_t n, k;

    g = newGraph();
    tryDevice("an empty graph", g, NULL);

    g = newGraph();
    OK(cudaGraphAddEmptyNode(&n, g, NULL, 0));
    tryDevice("an empty node alone", g, n);

    g = newGraph();
    k = addKernel(g, (const void *)add, a1, NULL, 0);
    OK(cudaGraphAddEmptyNode(&n, g, &k, 1));
    tryDevice("a kernel and an empty node", g, n);

    g = newGraph();
    k = addKernel(g, (const void *)add, a1, NULL, 0);
    cudaHostNodeParams hp = {hostFn, NULL};
    OK(cudaGraphAddHostNode(&n, g, &k, 1, &hp));
    tryDevice("a host node", g, n);

    cudaEvent_t ev;
    OK(cudaEventCreate(&ev));
    g = newGraph();
    k = addKernel(g, (const void *)add, a1, NULL, 0);
    OK(cudaGraphAddEventRecordNode(&n, g, &k, 1, ev));
    tryDevice("an event record node", g, n);

    g = newGraph();
    k = addKernel(g, (const void *)add, a1, NULL, 0);
    OK(cudaGraphAddEventWaitNode(&n, g, &k, 1, ev));
    tryDevice("an event wait node", g, n);

    g = newGraph();
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = 1 << 20;
    OK(cudaGraphAddMemAllocNode(&n, g, NULL, 0, &ap));
    cudaGraphNode_t alloc = n;
    k = addKernel(g, (const void *)add, a1, &alloc, 1);
    tryDevice("a memory alloc node", g, alloc);
    OK(cudaGraphAddMemFreeNode(&n, g, &k, 1, ap.dptr));
    tryDevice("memory alloc and free nodes", g, alloc);

    cudaGraphConditionalHandle handle;
    g = newGraph();
    OK(cudaGraphConditionalHandleCreate(&handle, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = handle;
    cp.conditional.type = cudaGraphCondTypeIf;
    cp.conditional.size = 1;
    OK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &cp));
    addKernel(cp.conditional.phGraph_out[0], (const void *)add, a1, NULL, 0);
    tryDevice("a conditional node", g, n);

    g = newGraph();
    k = addKernel(g, (const void *)parent, NULL, NULL, 0);
    tryDevice("a kernel launching a kernel", g, k);

    cudaGraph_t inner = newGraph();
    addKernel(inner, (const void *)add, a1, NULL, 0);
    g = newGraph();
    OK(cudaGraphAddChildGraphNode(&n, g, NULL, 0, inner));
    tryDevice("a child graph of a kernel", g, n);

    cudaGraph_t innerHost = newGraph();
    OK(cudaGraphAddHostNode(&n, innerHost, NULL, 0, &hp));
    g = newGraph();
    OK(cudaGraphAddChildGraphNode(&n, g, NULL, 0, innerHost));
    tryDevice("a child graph holding a host node", g, n);

    cudaGraph_t innerEmpty = newGraph();
    OK(cudaGraphAddEmptyNode(&n, innerEmpty, NULL, 0));
    g = newGraph();
    OK(cudaGraphAddChildGraphNode(&n, g, NULL, 0, innerEmpty));
    tryDevice("a child graph of an empty node", g, n);

    g = newGraph();
    OK(cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, d, h, 64 * sizeof(int), cudaMemcpyHostToDevice));
    tryDevice("a copy from pageable memory", g, n);

    g = newGraph();
    OK(cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, d, pinned, 64 * sizeof(int), cudaMemcpyHostToDevice));
    tryDevice("a copy from pinned memory", g, n);

    g = newGraph();
    OK(cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, managed, d, 64 * sizeof(int), cudaMemcpyDeviceToDevice));
    tryDevice("a copy to managed memory", g, n);

    g = newGraph();
    OK(cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, d + 32, d, 32 * sizeof(int), cudaMemcpyDeviceToDevice));
    tryDevice("a device to device copy", g, n);

    g = newGraph();
    cudaMemsetParams ms;
    memset(&ms, 0, sizeof ms);
    ms.dst = d;
    ms.elementSize = 4;
    ms.width = 64;
    ms.height = 1;
    OK(cudaGraphAddMemsetNode(&n, g, NULL, 0, &ms));
    tryDevice("a memset node", g, n);

    g = newGraph();
    k = addKernel(g, (const void *)add, a1, NULL, 0);
    cudaLaunchAttributeValue coop;
    memset(&coop, 0, sizeof coop);
    coop.cooperative = 1;
    OK(cudaGraphKernelNodeSetAttribute(k, cudaLaunchAttributeCooperative, &coop));
    tryDevice("a cooperative kernel", g, k);

    g = newGraph();
    k = addKernel(g, (const void *)add, a1, NULL, 0);
    tryDevice("with node priorities", g, k, cudaGraphInstantiateFlagUseNodePriority);

    printf("-- a device graph holding a child graph\n");
    /* add(1) -> child { add(10) -> add(100) } */
    cudaGraph_t body = newGraph();
    cudaGraphNode_t b1 = addKernel(body, (const void *)add, a10, NULL, 0);
    addKernel(body, (const void *)add, a100, &b1, 1);
    g = newGraph();
    k = addKernel(g, (const void *)add, a1, NULL, 0);
    OK(cudaGraphAddChildGraphNode(&n, g, &k, 1, body));
    cudaGraphExec_t devChild = tryDevice("a kernel, then a child graph", g, NULL);
    if (devChild) {
        int zero = 0, sum = 0;
        OK(cudaGraphUpload(devChild, s));
        OK(cudaMemcpyToSymbol(g_sum, &zero, sizeof zero));
        OK(cudaGraphLaunch(devChild, s));
        OK(cudaStreamSynchronize(s));
        OK(cudaMemcpyFromSymbol(&sum, g_sum, sizeof sum));
        printf("from the host: sum %d\n", sum);
        OK(cudaMemcpyToSymbol(g_sum, &zero, sizeof zero));
        cudaGraph_t lg = newGraph();
        void *la[] = {&devChild};
        addKernel(lg, (const void *)launcher, la, NULL, 0);
        cudaGraphExec_t lx;
        OK(cudaGraphInstantiate(&lx, lg, 0));
        OK(cudaGraphLaunch(lx, s));
        OK(cudaStreamSynchronize(s));
        int err = -1;
        OK(cudaMemcpyFromSymbol(&sum, g_sum, sizeof sum));
        OK(cudaMemcpyFromSymbol(&err, g_err, sizeof err)); /* g_err[0] */
        printf("from a kernel: sum %d, %s\n", sum, cudaGetErrorName((cudaError_t)err));
    }
    printf("done\n");
    return 0;
}
