// capture_to_graph_end.cu — a capture into an existing graph (cudaStreamBeginCaptureToGraph)
// ended with no graph pointer: the program holds the graph already, so
// cudaStreamEndCapture(stream, NULL) ends the capture (NVIDIA's graphConditionalNodes
// sample fills a conditional node's body graph this way), and the graph then holds the
// captured work: the body of a while node here, run until the kernel clears the condition.
#include "../streams/streams_test.h"

__global__ void step(int *counter, int *log, cudaGraphConditionalHandle h) {
    int c = --*counter;
    log[c] = c + 100;
    if (c == 0) cudaGraphSetConditional(h, 0);
}

int main() {
    int *counter, *log;
    OK(cudaMallocManaged(&counter, sizeof(int)));
    OK(cudaMallocManaged(&log, 8 * sizeof(int)));
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    OK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeWhile;
    cp.conditional.size = 1;
    cudaGraphNode_t cond;
    OK(cudaGraphAddNode(&cond, g, NULL, NULL, 0, &cp));
    cudaGraph_t body = cp.conditional.phGraph_out[0];

    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    OK(cudaStreamBeginCaptureToGraph(s, body, NULL, NULL, 0, cudaStreamCaptureModeGlobal));
    step<<<1, 1, 0, s>>>(counter, log, h);
    SHOW("end capture into the body graph, no graph pointer", cudaStreamEndCapture(s, NULL));
    cudaStreamCaptureStatus st;
    OK(cudaStreamIsCapturing(s, &st));
    printf("still capturing: %d\n", st != cudaStreamCaptureStatusNone);
    size_t n = 0;
    OK(cudaGraphGetNodes(body, NULL, &n));
    printf("body nodes: %zu\n", n);

    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, NULL, NULL, 0));
    *counter = 5;
    for (int i = 0; i < 8; i++) log[i] = -1;
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    printf("counter %d, log:", *counter);
    for (int i = 0; i < 8; i++) printf(" %d", log[i]);
    printf("\n");
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));
    OK(cudaStreamDestroy(s));
    printf("done\n");
    return 0;
}
