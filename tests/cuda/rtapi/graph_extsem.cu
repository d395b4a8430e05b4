// graph_extsem.cu — external semaphore signal and wait nodes holding no semaphores (vcuda
// can import none: cudaImportExternalSemaphore needs another API's semaphore): added,
// refused without parameters, read back, set in a graph and in an executable graph,
// added through cudaGraphAddNode, and launched between two kernels that still run in order.
#include "../streams/streams_test.h"

__global__ void add(int *x, int v) { x[threadIdx.x] += v; }

int main() {
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t sig, wait, n;
    cudaExternalSemaphoreSignalNodeParams sp = {};
    SHOW("signal node, no semaphores", cudaGraphAddExternalSemaphoresSignalNode(&sig, g, nullptr, 0, &sp));
    cudaGetLastError();
    SHOW("signal node, null params", cudaGraphAddExternalSemaphoresSignalNode(&n, g, nullptr, 0, nullptr));
    cudaGetLastError();
    cudaExternalSemaphoreWaitNodeParams wp = {};
    SHOW("wait node, no semaphores", cudaGraphAddExternalSemaphoresWaitNode(&wait, g, &sig, 1, &wp));
    cudaGetLastError();

    cudaGraphNodeType t;
    OK(cudaGraphNodeGetType(sig, &t));
    printf("signal node type %d\n", (int)t);
    OK(cudaGraphNodeGetType(wait, &t));
    printf("wait node type %d\n", (int)t);
    cudaExternalSemaphoreSignalNodeParams sp2;
    memset(&sp2, 0xff, sizeof sp2);
    SHOW("signal get", cudaGraphExternalSemaphoresSignalNodeGetParams(sig, &sp2));
    printf("signal semaphores %u\n", sp2.numExtSems);
    cudaExternalSemaphoreWaitNodeParams wp2;
    memset(&wp2, 0xff, sizeof wp2);
    SHOW("wait get", cudaGraphExternalSemaphoresWaitNodeGetParams(wait, &wp2));
    printf("wait semaphores %u\n", wp2.numExtSems);
    SHOW("signal set", cudaGraphExternalSemaphoresSignalNodeSetParams(sig, &sp));
    SHOW("wait set", cudaGraphExternalSemaphoresWaitNodeSetParams(wait, &wp));
    SHOW("signal get from a wait node", cudaGraphExternalSemaphoresSignalNodeGetParams(wait, &sp2));
    cudaGetLastError();

    // kernel -> signal -> wait -> kernel, launched twice
    int *p;
    OK(cudaMalloc(&p, 32 * sizeof(int)));
    OK(cudaMemset(p, 0, 32 * sizeof(int)));
    int one = 1, ten = 10;
    void *a1[] = {&p, &one}, *a10[] = {&p, &ten};
    cudaKernelNodeParams k = {};
    k.func = (void *)add;
    k.gridDim = dim3(1);
    k.blockDim = dim3(32);
    k.kernelParams = a1;
    cudaGraphNode_t k1, k2;
    OK(cudaGraphAddKernelNode(&k1, g, nullptr, 0, &k));
    OK(cudaGraphAddDependencies(g, &k1, &sig, nullptr, 1));
    k.kernelParams = a10;
    OK(cudaGraphAddKernelNode(&k2, g, &wait, 1, &k));
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    SHOW("exec signal set", cudaGraphExecExternalSemaphoresSignalNodeSetParams(x, sig, &sp));
    SHOW("exec wait set", cudaGraphExecExternalSemaphoresWaitNodeSetParams(x, wait, &wp));
    SHOW("exec wait set on the signal node", cudaGraphExecExternalSemaphoresWaitNodeSetParams(x, sig, &wp));
    cudaGetLastError();
    OK(cudaGraphLaunch(x, s));
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    int h[32];
    OK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    printf("after two launches: %d %d\n", h[0], h[31]);

    // the generic form
    cudaGraphNodeParams gp = {};
    gp.type = cudaGraphNodeTypeExtSemaphoreWait;
    SHOW("cudaGraphAddNode wait node", cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &gp));
    printf("done\n");
    return 0;
}
