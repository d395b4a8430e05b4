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
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define OK(call)                                                                         \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            printf("FAILED line %d: %s: %s\n", __LINE__, #call, cudaGetErrorName(e_));   \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#define NMANY 256

__device__ int g_log[64];
__device__ int g_nlog;
__device__ int g_err[8];
__device__ int g_runs;
__device__ int g_count;
__device__ int g_accepted;
__device__ int g_refused_at;
__device__ int g_refused_err;

__device__ void logValue(int v) {
    int i = atomicAdd(&g_nlog, 1);
    if (i < 64) g_log[i] = v;
}

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

static cudaGraphNode_t addKernel(cudaGraph_t g, const cudaGraphNode_t *dep, const void *func,
                                 void **args) {
    cudaKernelNodeParams k;
    memset(&k, 0, sizeof k);
    k.func = (void *)func;
    k.gridDim = dim3(1);
    k.blockDim = dim3(32);
    k.kernelParams = args;
    cudaGraphNode_t n;
    OK(cudaGraphAddKernelNode(&n, g, dep, dep ? 1 : 0, &k));
    return n;
}

static cudaGraphExec_t instantiate(cudaGraph_t g, bool device) {
    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, device ? cudaGraphInstantiateFlagDeviceLaunch : 0));
    if (device) OK(cudaGraphUpload(x, s));
    return x;
}

/* a device graph of one step node */
static cudaGraphExec_t stepGraph(int v, cudaGraphExec_t ff, cudaGraphExec_t t1,
                                 cudaGraphExec_t t2, int slot) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    void *args[] = {&v, &ff, &t1, &t2, &slot};
    addKernel(g, NULL, (const void *)step, args);
    return instantiate(g, true);
}

/* a host graph whose kernel launches dev fire-and-forget: dev runs in its own environment */
static void runFromDevice(cudaGraphExec_t dev) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    int v = 1000, slot = 5;
    cudaGraphExec_t none = NULL;
    void *args[] = {&v, &dev, &none, &none, &slot};
    addKernel(g, NULL, (const void *)step, args);
    cudaGraphExec_t x = instantiate(g, false);
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
}

static void resetLog() {
    int zero[64];
    memset(zero, 0, sizeof zero);
    OK(cudaMemcpyToSymbol(g_log, zero, sizeof zero));
    OK(cudaMemcpyToSymbol(g_nlog, zero, sizeof(int)));
    OK(cudaMemcpyToSymbol(g_err, zero, sizeof(int) * 8));
    OK(cudaMemcpyToSymbol(g_runs, zero, sizeof(int)));
    OK(cudaMemcpyToSymbol(g_count, zero, sizeof(int)));
}

static void showLog(const char *what, int nerr) {
    int n = 0, log[64], err[8];
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpyFromSymbol(&n, g_nlog, sizeof n));
    OK(cudaMemcpyFromSymbol(log, g_log, sizeof log));
    OK(cudaMemcpyFromSymbol(err, g_err, sizeof err));
    printf("%s: log", what);
    for (int i = 0; i < n && i < 64; i++) printf(" %d", log[i]);
    for (int i = 0; i < nerr; i++) printf(" | err%d %s", i, cudaGetErrorName((cudaError_t)err[i]));
    printf("\n");
}

int main() {
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraphExec_t none = NULL;

    /* 1. node A tail-launches T; node B follows A: T runs after B */
    resetLog();
    cudaGraphExec_t t30 = stepGraph(30, none, none, none, 0);
    {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        int va = 10, vb = 20, sa = 0, sb = 3;
        void *aa[] = {&va, &none, &t30, &none, &sa};
        void *ab[] = {&vb, &none, &none, &none, &sb};
        cudaGraphNode_t a = addKernel(g, NULL, (const void *)step, aa);
        addKernel(g, &a, (const void *)step, ab);
        runFromDevice(instantiate(g, true));
    }
    showLog("tail after the whole graph", 2);

    /* 2. a node launches X fire-and-forget and queues T: T runs after X */
    resetLog();
    cudaGraphExec_t x40 = stepGraph(40, none, none, none, 0);
    runFromDevice(stepGraph(10, x40, t30, none, 0));
    showLog("tail after fire-and-forget", 2);

    /* 3. tail launches T1 then T2; T1 queues T3: T1, T3, T2 */
    resetLog();
    cudaGraphExec_t t33 = stepGraph(33, none, none, none, 0);
    cudaGraphExec_t t31 = stepGraph(31, none, t33, none, 3);
    cudaGraphExec_t t32 = stepGraph(32, none, none, none, 0);
    runFromDevice(stepGraph(10, none, t31, t32, 0));
    showLog("nested tail launches", 5);

    /* 4. a graph queueing itself twice */
    resetLog();
    {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        addKernel(g, NULL, (const void *)selfTwice, NULL);
        runFromDevice(instantiate(g, true));
    }
    showLog("self-launch twice", 2);

    /* 5, 6. 256 graphs launched fire-and-forget, then as tail launches */
    cudaGraphExec_t *many;
    OK(cudaMallocManaged(&many, NMANY * sizeof *many));
    for (int i = 0; i < NMANY; i++) {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        addKernel(g, NULL, (const void *)bump, NULL);
        many[i] = instantiate(g, true);
    }
    OK(cudaStreamSynchronize(s));
    for (int tail = 0; tail < 2; tail++) {
        resetLog();
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        int n = tail ? NMANY : 121;
        void *args[] = {&many, &n, &tail};
        addKernel(g, NULL, (const void *)fanOut, args);
        runFromDevice(instantiate(g, true));
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
    resetLog();
    {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        addKernel(g, NULL, (const void *)launchNull, NULL);
        cudaGraphExec_t x = instantiate(g, false);
        OK(cudaGraphLaunch(x, s));
    }
    showLog("null graph", 1);
    printf("done\n");
    return 0;
}
