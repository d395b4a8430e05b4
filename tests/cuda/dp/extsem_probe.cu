// extsem_probe.cu — what the runtime answers for external semaphore calls without a graphics
// API (recorded by gpu_capture_graphs.sh; h100_graphs.txt holds its output)
#include "../streams/streams_test.h"
int main() {
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    cudaExternalSemaphore_t sem = nullptr;
    cudaExternalSemaphoreHandleDesc d = {};
    d.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
    d.handle.fd = -1;
    SHOW("import fd -1", cudaImportExternalSemaphore(&sem, &d));
    cudaGetLastError();
    SHOW("import null desc", cudaImportExternalSemaphore(&sem, nullptr));
    cudaGetLastError();
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t n;
    cudaExternalSemaphoreSignalNodeParams sp = {};
    SHOW("signal node, no semaphores", cudaGraphAddExternalSemaphoresSignalNode(&n, g, nullptr, 0, &sp));
    cudaGetLastError();
    SHOW("signal node, null params", cudaGraphAddExternalSemaphoresSignalNode(&n, g, nullptr, 0, nullptr));
    cudaGetLastError();
    cudaExternalSemaphoreWaitNodeParams wp = {};
    SHOW("wait node, no semaphores", cudaGraphAddExternalSemaphoresWaitNode(&n, g, nullptr, 0, &wp));
    cudaGetLastError();
    cudaExternalSemaphoreSignalParams p = {};
    SHOW("signal async, none", cudaSignalExternalSemaphoresAsync(nullptr, &p, 0, s));
    cudaGetLastError();
    printf("done\n");
    return 0;
}
