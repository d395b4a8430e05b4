/* graphs.cu — CUDA graphs: a graph captured from three streams (fork and join through
 * events; kernels, a set, copies, a host function), a graph built node by node, launches
 * on several streams, and what stream capture refuses. */
#include "streams_test.h"

__global__ void iota(int *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = i;
}
__global__ void add_to(const int *x, int *y, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i] + v;
}
__global__ void combine(const int *a, const int *b, int *z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = a[i] * 2 + b[i];
}

static int host_calls;
static void CUDART_CB count_call(void *) { host_calls++; }

static long long checksum(const int *h, int n) {
    long long s = 0;
    for (int i = 0; i < n; i++) s += (long long)h[i] * (i % 7 + 1);
    return s;
}

static const char *status_name(cudaStreamCaptureStatus s) {
    return s == cudaStreamCaptureStatusNone ? "none"
           : s == cudaStreamCaptureStatusActive ? "active"
           : s == cudaStreamCaptureStatusInvalidated ? "invalidated" : "?";
}

static void show_capturing(const char *label, cudaStream_t s) {
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    cudaError_t e = cudaStreamIsCapturing(s, &st);
    printf("%s: %s, %s\n", label, cudaGetErrorName(e), status_name(st));
}

int main() {
    const int n = 4096, b = n / 256;
    int *x, *y1, *y2, *z, *hz;
    OK(cudaMalloc(&x, n * sizeof(int)));
    OK(cudaMalloc(&y1, n * sizeof(int)));
    OK(cudaMalloc(&y2, n * sizeof(int)));
    OK(cudaMalloc(&z, n * sizeof(int)));
    OK(cudaMallocHost(&hz, n * sizeof(int)));
    cudaStream_t s0, s1, s2, run;
    OK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    OK(cudaStreamCreate(&run));
    cudaEvent_t fork, j1, j2;
    OK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    OK(cudaEventCreateWithFlags(&j1, cudaEventDisableTiming));
    OK(cudaEventCreateWithFlags(&j2, cudaEventDisableTiming));

    /* ---- capture: s0 forks to s1 and s2, which join back ---- */
    show_capturing("before capture", s0);
    SHOW("cudaStreamBeginCapture", cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    show_capturing("capturing", s0);
    show_capturing("s1 before the fork", s1);
    iota<<<b, 256, 0, s0>>>(x, n);
    OK(cudaEventRecord(fork, s0));
    OK(cudaStreamWaitEvent(s1, fork, 0));
    OK(cudaStreamWaitEvent(s2, fork, 0));
    show_capturing("s1 after the fork", s1);
    OK(cudaMemsetAsync(y1, 0, n * sizeof(int), s1));
    add_to<<<b, 256, 0, s1>>>(x, y1, n, 1);
    OK(cudaMemsetAsync(y2, 0, n * sizeof(int), s2));
    add_to<<<b, 256, 0, s2>>>(x, y2, n, 2);
    OK(cudaEventRecord(j1, s1));
    OK(cudaEventRecord(j2, s2));
    OK(cudaStreamWaitEvent(s0, j1, 0));
    OK(cudaStreamWaitEvent(s0, j2, 0));
    combine<<<b, 256, 0, s0>>>(y1, y2, z, n);
    OK(cudaMemcpyAsync(hz, z, n * sizeof(int), cudaMemcpyDeviceToHost, s0));
    OK(cudaLaunchHostFunc(s0, count_call, nullptr));
    cudaGraph_t g = nullptr;
    SHOW("cudaStreamEndCapture", cudaStreamEndCapture(s0, &g));
    show_capturing("after capture", s0);
    show_capturing("s1 after capture", s1);
    size_t nodes = 0;
    SHOW("cudaGraphGetNodes", cudaGraphGetNodes(g, nullptr, &nodes));
    printf("captured nodes: %zu\n", nodes);
    printf("nothing ran while capturing: %d\n", host_calls == 0);

    cudaGraphExec_t ge = nullptr;
    SHOW("cudaGraphInstantiate", cudaGraphInstantiate(&ge, g, 0));
    for (int i = 0; i < 3; i++) {
        memset(hz, 0, n * sizeof(int));
        SHOW("cudaGraphLaunch", cudaGraphLaunch(ge, i == 1 ? s1 : run));
        SHOW("cudaStreamSynchronize", cudaStreamSynchronize(i == 1 ? s1 : run));
        printf("launch %d: z checksum %lld, host function calls %d\n", i, checksum(hz, n), host_calls);
    }
    /* Launched twice in a row, then the stream's own work after it. */
    OK(cudaGraphLaunch(ge, run));
    OK(cudaGraphLaunch(ge, run));
    add_to<<<b, 256, 0, run>>>(z, z, n, 0); /* z += z: after both launches */
    OK(cudaMemcpyAsync(hz, z, n * sizeof(int), cudaMemcpyDeviceToHost, run));
    OK(cudaStreamSynchronize(run));
    printf("two launches, then a kernel: z checksum %lld, host function calls %d\n", checksum(hz, n), host_calls);
    SHOW("cudaGraphExecDestroy", cudaGraphExecDestroy(ge));
    SHOW("cudaGraphDestroy", cudaGraphDestroy(g));

    /* ---- a graph built node by node ---- */
    cudaGraph_t h = nullptr;
    SHOW("cudaGraphCreate", cudaGraphCreate(&h, 0));
    cudaGraphNode_t nset, nk1, nk2, ncopy, nhost, nempty;
    cudaMemsetParams mp = {};
    mp.dst = y1;
    mp.value = 3;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    SHOW("cudaGraphAddMemsetNode", cudaGraphAddMemsetNode(&nset, h, nullptr, 0, &mp));
    int vv = 5, nn = n;
    void *args1[] = {&x, &y1, &nn, &vv};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)add_to;
    kp.gridDim = dim3(b);
    kp.blockDim = dim3(256);
    kp.kernelParams = args1;
    SHOW("cudaGraphAddKernelNode", cudaGraphAddKernelNode(&nk1, h, &nset, 1, &kp));
    void *args2[] = {&y1, &x, &z, &nn};
    cudaKernelNodeParams kp2 = {};
    kp2.func = (void *)combine;
    kp2.gridDim = dim3(b);
    kp2.blockDim = dim3(256);
    kp2.kernelParams = args2;
    SHOW("cudaGraphAddKernelNode", cudaGraphAddKernelNode(&nk2, h, nullptr, 0, &kp2));
    SHOW("cudaGraphAddDependencies", cudaGraphAddDependencies(h, &nk1, &nk2, nullptr, 1));
    SHOW("cudaGraphAddMemcpyNode1D",
         cudaGraphAddMemcpyNode1D(&ncopy, h, &nk2, 1, hz, z, n * sizeof(int), cudaMemcpyDeviceToHost));
    cudaHostNodeParams hp = {count_call, nullptr};
    SHOW("cudaGraphAddHostNode", cudaGraphAddHostNode(&nhost, h, &ncopy, 1, &hp));
    SHOW("cudaGraphAddEmptyNode", cudaGraphAddEmptyNode(&nempty, h, &nhost, 1));
    nodes = 0;
    OK(cudaGraphGetNodes(h, nullptr, &nodes));
    printf("built nodes: %zu\n", nodes);
    cudaGraphNodeType t1, t2, t3;
    OK(cudaGraphNodeGetType(nset, &t1));
    OK(cudaGraphNodeGetType(nk1, &t2));
    OK(cudaGraphNodeGetType(nhost, &t3));
    printf("node types: memset %d, kernel %d, host %d\n", (int)t1, (int)t2, (int)t3);
    SHOW("cudaGraphInstantiateWithFlags", cudaGraphInstantiateWithFlags(&ge, h, 0));
    SHOW("cudaGraphUpload", cudaGraphUpload(ge, run));
    memset(hz, 0, n * sizeof(int));
    SHOW("cudaGraphLaunch", cudaGraphLaunch(ge, run));
    SHOW("cudaStreamSynchronize", cudaStreamSynchronize(run));
    printf("built graph: z checksum %lld, host function calls %d\n", checksum(hz, n), host_calls);
    OK(cudaGraphExecDestroy(ge));
    OK(cudaGraphDestroy(h));

    /* ---- what capture refuses ---- */
    cudaGraph_t bad = nullptr;
    SHOW("capture the legacy stream", cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
    (void)cudaGetLastError();

    OK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    SHOW("cudaStreamBeginCapture again", cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    SHOW("cudaStreamSynchronize capturing stream", cudaStreamSynchronize(s0));
    show_capturing("after synchronising", s0);
    SHOW("cudaStreamEndCapture", cudaStreamEndCapture(s0, &bad));
    printf("graph returned: %d\n", bad != nullptr);
    show_capturing("after the end", s0);
    (void)cudaGetLastError();

    OK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    void *p = nullptr;
    SHOW("cudaMalloc while capturing (global)", cudaMalloc(&p, 64));
    SHOW("cudaStreamEndCapture", cudaStreamEndCapture(s0, &bad));
    printf("graph returned: %d\n", bad != nullptr);
    (void)cudaGetLastError();

    OK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeRelaxed));
    SHOW("cudaMalloc while capturing (relaxed)", cudaMalloc(&p, 64));
    iota<<<b, 256, 0, s0>>>(x, n);
    SHOW("cudaStreamEndCapture", cudaStreamEndCapture(s0, &bad));
    printf("graph returned: %d\n", bad != nullptr);
    if (bad) OK(cudaGraphDestroy(bad));
    if (p) OK(cudaFree(p));
    (void)cudaGetLastError();

    OK(cudaStreamBeginCapture(run, cudaStreamCaptureModeGlobal));
    iota<<<b, 256, 0, run>>>(x, n);
    SHOW("the legacy stream while a blocking stream captures",
         cudaMemsetAsync(y1, 0, sizeof(int), 0));
    show_capturing("capturing stream", run);
    SHOW("cudaStreamEndCapture", cudaStreamEndCapture(run, &bad));
    printf("graph returned: %d\n", bad != nullptr);
    (void)cudaGetLastError();

    OK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    iota<<<b, 256, 0, s0>>>(x, n);
    OK(cudaEventRecord(fork, s0));
    OK(cudaStreamWaitEvent(s1, fork, 0));
    add_to<<<b, 256, 0, s1>>>(x, y1, n, 1); /* never joined back */
    SHOW("cudaStreamEndCapture unjoined", cudaStreamEndCapture(s0, &bad));
    printf("graph returned: %d\n", bad != nullptr);
    show_capturing("the forked stream after it", s1);
    (void)cudaGetLastError();

    SHOW("cudaStreamEndCapture not capturing", cudaStreamEndCapture(s2, &bad));
    (void)cudaGetLastError();
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    SHOW("cudaGetLastError", cudaGetLastError());
    return 0;
}
