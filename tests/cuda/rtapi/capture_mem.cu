// capture_mem.cu — stream-ordered allocation inside a stream capture: cudaMallocAsync and
// cudaFreeAsync (and cudaMallocFromPoolAsync) in a capturing stream become the captured
// graph's memory alloc and free nodes. The graph is launched again and again; memory
// allocated by one captured graph and freed after its launch, outside it; a capture that
// forks and joins between alloc and free.
#include "../streams/streams_test.h"

__global__ void fill(int *x, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = v + i;
}

__global__ void sum(const int *x, int n, long long *out) {
    long long s = 0;
    for (int i = 0; i < n; i++) s += x[i];
    *out += s;
}

static const char *type_name(cudaGraphNodeType t) {
    switch (t) {
    case cudaGraphNodeTypeKernel: return "kernel";
    case cudaGraphNodeTypeMemcpy: return "memcpy";
    case cudaGraphNodeTypeMemset: return "memset";
    case cudaGraphNodeTypeMemAlloc: return "mem-alloc";
    case cudaGraphNodeTypeMemFree: return "mem-free";
    case cudaGraphNodeTypeEmpty: return "empty";
    default: return "other";
    }
}

// The graph's nodes, each with its type and how many nodes it depends on, in an order
// that follows the edges (every node after those it depends on; ties by type name).
static void show_graph(const char *label, cudaGraph_t g) {
    size_t n = 0, e = 0;
    OK(cudaGraphGetNodes(g, nullptr, &n));
    OK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &e));
    cudaGraphNode_t nodes[16];
    EXPECT(n <= 16);
    OK(cudaGraphGetNodes(g, nodes, &n));
    printf("%s: %zu nodes, %zu edges:", label, n, e);
    bool done[16] = {};
    for (size_t k = 0; k < n; k++) {
        int pick = -1;
        for (size_t i = 0; i < n; i++) {
            if (done[i]) continue;
            size_t nd = 0;
            OK(cudaGraphNodeGetDependencies(nodes[i], nullptr, nullptr, &nd));
            cudaGraphNode_t deps[16];
            EXPECT(nd <= 16);
            // (a root: no array to fill, and CUDA refuses one with a count of 0)
            if (nd) OK(cudaGraphNodeGetDependencies(nodes[i], deps, nullptr, &nd));
            bool ready = true;
            for (size_t d = 0; d < nd; d++)
                for (size_t j = 0; j < n; j++)
                    if (nodes[j] == deps[d] && !done[j]) ready = false;
            if (!ready) continue;
            cudaGraphNodeType ti, tp;
            OK(cudaGraphNodeGetType(nodes[i], &ti));
            if (pick >= 0) OK(cudaGraphNodeGetType(nodes[pick], &tp));
            if (pick < 0 || strcmp(type_name(ti), type_name(tp)) < 0) pick = (int)i;
        }
        EXPECT(pick >= 0);
        done[pick] = true;
        cudaGraphNodeType t;
        size_t nd = 0;
        OK(cudaGraphNodeGetType(nodes[pick], &t));
        OK(cudaGraphNodeGetDependencies(nodes[pick], nullptr, nullptr, &nd));
        printf(" %s(%zu deps)", type_name(t), nd);
    }
    printf("\n");
}

static cudaGraphNode_t find_node(cudaGraph_t g, cudaGraphNodeType want) {
    size_t n = 16;
    cudaGraphNode_t nodes[16];
    OK(cudaGraphGetNodes(g, nodes, &n));
    for (size_t i = 0; i < n; i++) {
        cudaGraphNodeType t;
        OK(cudaGraphNodeGetType(nodes[i], &t));
        if (t == want) return nodes[i];
    }
    return nullptr;
}

int main() {
    const int n = 4096;
    cudaStream_t s, s2;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    long long *total;
    OK(cudaMallocManaged(&total, sizeof *total));
    *total = 0;

    // ---- alloc, use, free: all in one captured graph, launched three times ----
    int *tmp = nullptr;
    cudaGraph_t g;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMallocAsync(&tmp, n * sizeof(int), s));
    fill<<<(n + 255) / 256, 256, 0, s>>>(tmp, n, 5);
    sum<<<1, 1, 0, s>>>(tmp, n, total);
    OK(cudaFreeAsync(tmp, s));
    OK(cudaStreamEndCapture(s, &g));
    printf("capture returned a pointer: %s\n", tmp ? "yes" : "no");
    show_graph("alloc-use-free", g);
    cudaMemAllocNodeParams ap;
    OK(cudaGraphMemAllocNodeGetParams(find_node(g, cudaGraphNodeTypeMemAlloc), &ap));
    printf("alloc node: %zu bytes, same address as returned: %s, pinned on device %d: %s\n",
           ap.bytesize, ap.dptr == tmp ? "yes" : "no", ap.poolProps.location.id,
           ap.poolProps.allocType == cudaMemAllocationTypePinned &&
                   ap.poolProps.location.type == cudaMemLocationTypeDevice ? "yes" : "no");
    void *freed = nullptr;
    OK(cudaGraphMemFreeNodeGetParams(find_node(g, cudaGraphNodeTypeMemFree), &freed));
    printf("free node frees the allocation: %s\n", freed == tmp ? "yes" : "no");
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    for (int r = 0; r < 3; r++) OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    long long want = 3 * ((long long)n * 5 + (long long)n * (n - 1) / 2);
    printf("three launches: total %lld (%s)\n", *total, *total == want ? "right" : "WRONG");
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));

    // ---- from an explicit pool: the node takes the pool's properties ----
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool;
    OK(cudaMemPoolCreate(&pool, &props));
    int *p2 = nullptr;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMallocFromPoolAsync(&p2, 1000, pool, s));
    OK(cudaMemsetAsync(p2, 0, 1000, s));
    OK(cudaFreeAsync(p2, s));
    OK(cudaStreamEndCapture(s, &g));
    show_graph("from a pool", g);
    OK(cudaGraphMemAllocNodeGetParams(find_node(g, cudaGraphNodeTypeMemAlloc), &ap));
    printf("alloc node: %zu bytes, device %d\n", ap.bytesize, ap.poolProps.location.id);
    OK(cudaGraphDestroy(g));
    OK(cudaMemPoolDestroy(pool));

    // ---- fork and join between the allocation and its free ----
    cudaEvent_t forked, joined;
    OK(cudaEventCreateWithFlags(&forked, cudaEventDisableTiming));
    OK(cudaEventCreateWithFlags(&joined, cudaEventDisableTiming));
    *total = 0;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMallocAsync(&tmp, n * sizeof(int), s));
    OK(cudaEventRecord(forked, s));
    OK(cudaStreamWaitEvent(s2, forked, 0));
    fill<<<(n + 255) / 256, 256, 0, s2>>>(tmp, n, 1);
    sum<<<1, 1, 0, s2>>>(tmp, n, total);
    OK(cudaEventRecord(joined, s2));
    OK(cudaStreamWaitEvent(s, joined, 0));
    OK(cudaFreeAsync(tmp, s));
    OK(cudaStreamEndCapture(s, &g));
    show_graph("fork and join", g);
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphLaunch(x, s));
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    want = 2 * ((long long)n + (long long)n * (n - 1) / 2);
    printf("two launches: total %lld (%s)\n", *total, *total == want ? "right" : "WRONG");
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));

    // ---- allocated in the graph, freed after its launch, outside it ----
    int *kept = nullptr;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMallocAsync(&kept, n * sizeof(int), s));
    fill<<<(n + 255) / 256, 256, 0, s>>>(kept, n, 100);
    OK(cudaStreamEndCapture(s, &g));
    show_graph("alloc without free", g);
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphLaunch(x, s));
    int h[4];
    OK(cudaMemcpyAsync(h, kept + n - 4, sizeof h, cudaMemcpyDeviceToHost, s));
    OK(cudaFreeAsync(kept, s));
    OK(cudaStreamSynchronize(s));
    printf("read after the launch: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));

    SHOW("last error", cudaGetLastError());
    OK(cudaFree(total));
    OK(cudaStreamDestroy(s));
    OK(cudaStreamDestroy(s2));
    printf("done\n");
    return 0;
}
