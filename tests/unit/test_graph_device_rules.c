/* tests/unit/test_graph_device_rules.c — the rule of cudaGraphInstantiateFlagDeviceLaunch
 * that a GPU of one card could not show: a device graph's nodes must all use one device's
 * memory (two devices here, VCUDA_DEVICE=h100x2): memsets of two devices' memory are
 * cudaErrorInvalidValue, cudaGraphInstantiateMultipleDevicesNotSupported naming the second
 * node, as the Runtime API reference has it, while memsets and copies of one device's
 * memory, pinned and managed memory are taken; and, as an H100 answered
 * (tests/cuda/expected/dpGraphRules.out), an empty graph is cudaGraphInstantiateError with
 * no node named, an empty node NodeOperationNotSupported naming it. */
#include "test_runtime_common.h"

static cudaGraphNode_t memset_node(cudaGraph_t g, void *p) {
    struct cudaMemsetParams m;
    memset(&m, 0, sizeof m);
    m.dst = p;
    m.elementSize = 4;
    m.width = 16;
    m.height = 1;
    cudaGraphNode_t n = NULL;
    CHECK_ERR(cudaGraphAddMemsetNode(&n, g, NULL, 0, &m), cudaSuccess);
    return n;
}

static cudaError_t inst(cudaGraph_t g, cudaGraphInstantiateResult *r, cudaGraphNode_t *bad) {
    cudaGraphInstantiateParams p;
    memset(&p, 0, sizeof p);
    p.flags = cudaGraphInstantiateFlagDeviceLaunch;
    cudaGraphExec_t x = NULL;
    cudaError_t e = cudaGraphInstantiateWithParams(&x, g, &p);
    *r = p.result_out;
    *bad = p.errNode_out;
    if (x) CHECK_ERR(cudaGraphExecDestroy(x), cudaSuccess);
    return e;
}

int main(void) {
    setenv("VCUDA_DEVICE", "h100x2", 1);
    void *a = NULL, *b = NULL, *a2 = NULL, *pinned = NULL, *managed = NULL;
    CHECK_ERR(cudaSetDevice(0), cudaSuccess);
    CHECK_ERR(cudaMalloc(&a, 64), cudaSuccess);
    CHECK_ERR(cudaMalloc(&a2, 64), cudaSuccess);
    CHECK_ERR(cudaMallocHost(&pinned, 64), cudaSuccess);
    CHECK_ERR(cudaMallocManaged(&managed, 64, cudaMemAttachGlobal), cudaSuccess);
    CHECK_ERR(cudaSetDevice(1), cudaSuccess);
    CHECK_ERR(cudaMalloc(&b, 64), cudaSuccess);
    CHECK_ERR(cudaSetDevice(0), cudaSuccess);
    cudaGraphInstantiateResult r;
    cudaGraphNode_t bad;

    /* two devices' memory */
    cudaGraph_t g;
    CHECK_ERR(cudaGraphCreate(&g, 0), cudaSuccess);
    memset_node(g, a);
    cudaGraphNode_t nb = memset_node(g, b);
    CHECK_ERR(inst(g, &r, &bad), cudaErrorInvalidValue);
    CHECK(r == cudaGraphInstantiateMultipleDevicesNotSupported && bad == nb);
    cudaGraphExec_t x = NULL;
    CHECK_ERR(cudaGraphInstantiate(&x, g, cudaGraphInstantiateFlagDeviceLaunch),
              cudaErrorInvalidValue);
    cudaGetLastError();
    /* a host graph may hold them */
    CHECK_ERR(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    CHECK_ERR(cudaGraphExecDestroy(x), cudaSuccess);
    CHECK_ERR(cudaGraphDestroy(g), cudaSuccess);

    /* one device's memory, pinned and managed memory */
    CHECK_ERR(cudaGraphCreate(&g, 0), cudaSuccess);
    memset_node(g, a);
    memset_node(g, managed);
    cudaGraphNode_t cp = NULL;
    CHECK_ERR(cudaGraphAddMemcpyNode1D(&cp, g, NULL, 0, a2, pinned, 64, cudaMemcpyHostToDevice),
              cudaSuccess);
    CHECK_ERR(inst(g, &r, &bad), cudaSuccess);
    CHECK(r == cudaGraphInstantiateSuccess && bad == NULL);
    /* and one of the other device's: refused, naming it */
    cudaGraphNode_t nb2 = memset_node(g, b);
    CHECK_ERR(inst(g, &r, &bad), cudaErrorInvalidValue);
    CHECK(r == cudaGraphInstantiateMultipleDevicesNotSupported && bad == nb2);
    cudaGetLastError();
    CHECK_ERR(cudaGraphDestroy(g), cudaSuccess);

    /* an empty graph; an empty node */
    CHECK_ERR(cudaGraphCreate(&g, 0), cudaSuccess);
    CHECK_ERR(inst(g, &r, &bad), cudaErrorInvalidValue);
    CHECK(r == cudaGraphInstantiateError && bad == NULL);
    cudaGraphNode_t e = NULL;
    CHECK_ERR(cudaGraphAddEmptyNode(&e, g, NULL, 0), cudaSuccess);
    memset_node(g, a);
    CHECK_ERR(inst(g, &r, &bad), cudaErrorInvalidValue);
    CHECK(r == cudaGraphInstantiateNodeOperationNotSupported && bad == e);
    cudaGetLastError();
    CHECK_ERR(cudaGraphDestroy(g), cudaSuccess);

    CHECK_ERR(cudaFree(a), cudaSuccess);
    CHECK_ERR(cudaFree(a2), cudaSuccess);
    CHECK_ERR(cudaFreeHost(pinned), cudaSuccess);
    CHECK_ERR(cudaFree(managed), cudaSuccess);
    CHECK_ERR(cudaFree(b), cudaSuccess);
    if (failures) fprintf(stderr, "%d checks failed\n", failures);
    else printf("test_graph_device_rules: all passed\n");
    return failures != 0;
}
