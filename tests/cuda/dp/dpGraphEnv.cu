/* dpGraphEnv — the execution environments of device graph launch (CUDA Programming Guide,
 * "Device Graph Launch"): a tail launch made by one node of a device graph runs once the
 * whole graph is complete (after its other nodes and after every graph its nodes launched
 * fire-and-forget), tail launches run in enqueue order with a tail graph's own tail
 * launches ahead of those queued after it; and the limits: one tail self-launch at a
 * time, 120 fire-and-forget graphs an execution, 255 pending tail launches, a null graph
 * (each cudaErrorInvalidValue).
 *
 * Every device graph here is launched from a kernel of a host graph (fire and forget), so
 * it runs in an environment of its own. Kernels record what ran, in order, in a device
 * log the host prints: the order is the one the guide guarantees, whatever the timing.
 *
 * Build: nvcc -arch=sm_90 -rdc=true dpGraphEnv.cu -lcudadevrt
 */
#include "dp_graph_test.h"

#define NMANY 256

__device__ int g_runs;
__device__ int g_count;
__device__ int g_accepted;
__device__ int g_refused_at;
__device__ int g_refused_err;

/* logs v, then launches ff fire-and-forget and t1 and t2 as tail launches (null: not);
 * v goes first because a fire-and-forget graph may run at once, before this node ends (an
 * H100 ran it before the node's own log when the log came last) */
__global__ void step(int v, cudaGraphExec_t ff, cudaGraphExec_t t1, cudaGraphExec_t t2, int slot) {
    if (threadIdx.x != 0) return;
    logValue(v);
    if (ff) g_err[slot] = cudaGraphLaunch(ff, cudaStreamGraphFireAndForget);
    if (t1) g_err[slot + 1] = cudaGraphLaunch(t1, cudaStreamGraphTailLaunch);
    if (t2) g_err[slot + 2] = cudaGraphLaunch(t2, cudaStreamGraphTailLaunch);
}

/* the first run queues itself twice as a tail launch */
__global__ void selfTwice() {
    if (threadIdx.x != 0) return;
    if (g_runs++ == 0) {
        g_err[0] = cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
        g_err[1] = cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
    }
    logValue(50);
}

__global__ void bump() {
    if (threadIdx.x == 0) atomicAdd(&g_count, 1);
}

/* launches n graphs of list into the stream `tail` names, counting what is accepted */
__global__ void fanOut(const cudaGraphExec_t *list, int n, int tail) {
    if (threadIdx.x != 0) return;
    g_accepted = 0;
    g_refused_at = -1;
    for (int i = 0; i < n; i++) {
        cudaError_t e = cudaGraphLaunch(list[i], tail ? cudaStreamGraphTailLaunch
                                                      : cudaStreamGraphFireAndForget);
        if (e == cudaSuccess) {
            g_accepted++;
        } else if (g_refused_at < 0) {
            g_refused_at = i;
            g_refused_err = e;
        }
    }
}

__global__ void launchNull() {
    if (threadIdx.x == 0) g_err[0] = cudaGraphLaunch((cudaGraphExec_t)0, cudaStreamGraphFireAndForget);
}

static cudaStream_t s;

/* a device graph of one step node */
static cudaGraphExec_t stepGraph(int v, cudaGraphExec_t ff, cudaGraphExec_t t1,
                                 cudaGraphExec_t t2, int slot) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    void *args[] = {&v, &ff, &t1, &t2, &slot};
    addKernel(g, (const void *)step, args, NULL, 0);
    return instantiate(g, true, s);
}

/* a host graph whose kernel launches dev fire-and-forget: dev runs in its own environment */
static void runFromDevice(cudaGraphExec_t dev) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    int v = 1000, slot = 5;
    cudaGraphExec_t none = NULL;
    void *args[] = {&v, &dev, &none, &none, &slot};
    addKernel(g, (const void *)step, args, NULL, 0);
    cudaGraphExec_t x = instantiate(g, false, s);
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
}

static void resetLogAndCounters() {
    int zero = 0;
    resetLog();
    OK(cudaMemcpyToSymbol(g_runs, &zero, sizeof(int)));
    OK(cudaMemcpyToSymbol(g_count, &zero, sizeof(int)));
}

int main() {
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraphExec_t none = NULL;

    /* 1. node A tail-launches T; node B follows A: T runs after B */
    resetLogAndCounters();
    cudaGraphExec_t t30 = stepGraph(30, none, none, none, 0);
    {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        int va = 10, vb = 20, sa = 0, sb = 3;
        void *aa[] = {&va, &none, &t30, &none, &sa};
        void *ab[] = {&vb, &none, &none, &none, &sb};
        cudaGraphNode_t a = addKernel(g, (const void *)step, aa, NULL, 0);
        addKernel(g, (const void *)step, ab, &a, 1);
        runFromDevice(instantiate(g, true, s));
    }
    showLog("tail after the whole graph", 2);

    /* 2. a node launches X fire-and-forget and queues T: T runs after X */
    resetLogAndCounters();
    cudaGraphExec_t x40 = stepGraph(40, none, none, none, 0);
    runFromDevice(stepGraph(10, x40, t30, none, 0));
    showLog("tail after fire-and-forget", 2);

    /* 3. tail launches T1 then T2; T1 queues T3: T1, T3, T2 */
    resetLogAndCounters();
    cudaGraphExec_t t33 = stepGraph(33, none, none, none, 0);
    cudaGraphExec_t t31 = stepGraph(31, none, t33, none, 3);
    cudaGraphExec_t t32 = stepGraph(32, none, none, none, 0);
    runFromDevice(stepGraph(10, none, t31, t32, 0));
    showLog("nested tail launches", 5);

    /* 4. a graph queueing itself twice */
    resetLogAndCounters();
    {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        addKernel(g, (const void *)selfTwice, NULL, NULL, 0);
        runFromDevice(instantiate(g, true, s));
    }
    showLog("self-launch twice", 2);

    /* 5, 6. 256 graphs launched fire-and-forget, then as tail launches */
    cudaGraphExec_t *many;
    OK(cudaMallocManaged(&many, NMANY * sizeof *many));
    for (int i = 0; i < NMANY; i++) {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        addKernel(g, (const void *)bump, NULL, NULL, 0);
        many[i] = instantiate(g, true, s);
    }
    OK(cudaStreamSynchronize(s));
    for (int tail = 0; tail < 2; tail++) {
        resetLogAndCounters();
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        int n = tail ? NMANY : 121;
        void *args[] = {&many, &n, &tail};
        addKernel(g, (const void *)fanOut, args, NULL, 0);
        runFromDevice(instantiate(g, true, s));
        int accepted, at, err, count;
        OK(cudaMemcpyFromSymbol(&accepted, g_accepted, sizeof accepted));
        OK(cudaMemcpyFromSymbol(&at, g_refused_at, sizeof at));
        OK(cudaMemcpyFromSymbol(&err, g_refused_err, sizeof err));
        OK(cudaMemcpyFromSymbol(&count, g_count, sizeof count));
        printf("%d %s launches: %d accepted, refused from %d (%s), %d ran\n", n,
               tail ? "tail" : "fire-and-forget", accepted, at,
               at >= 0 ? cudaGetErrorName((cudaError_t)err) : "-", count);
    }

    /* 7. a null graph */
    resetLogAndCounters();
    {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        addKernel(g, (const void *)launchNull, NULL, NULL, 0);
        cudaGraphExec_t x = instantiate(g, false, s);
        OK(cudaGraphLaunch(x, s));
    }
    showLog("null graph", 1);
    printf("done\n");
    return 0;
}
