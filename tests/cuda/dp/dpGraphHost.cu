/* dpGraphHost — device graph launches made by kernels of a graph launched from the HOST
 * (CUDA Programming Guide, "Device Graph Launch"): a tail launch waits until the whole
 * launching graph is complete (its later nodes, nodes of its child graphs, and the graphs
 * its nodes launched fire-and-forget), tail launches of several nodes run in enqueue
 * order, a host-launched device graph relaunching itself by tail launch runs its later
 * nodes first, and the stream's next work comes after the tail launches. With an argument
 * "<a>,<b>" one kernel launches the same device graph twice, into the streams a and b
 * name (ff: fire and forget, tail, sib: as sibling), and "selfff" / "selfsib" /
 * "selftail" a device graph launches itself while it runs: what each launch returns, and
 * what ran; "all" makes each of those launches in turn.
 *
 * Kernels record what ran, in order, in a device log the host prints: the order is the
 * one the guide guarantees, whatever the timing.
 *
 * Build: nvcc -arch=sm_90 -rdc=true dpGraphHost.cu -lcudadevrt
 */
#include "dp_graph_test.h"

__device__ int g_count;
__device__ int g_fired;

__global__ void logK(int v) {
    if (threadIdx.x == 0) logValue(v);
}

/* a fire-and-forget graph: says it ran */
__global__ void fired() {
    if (threadIdx.x == 0) atomicAdd(&g_fired, 1);
}

/* a tail graph: logs v plus how many fire-and-forget graphs had run */
__global__ void tailLog(int v) {
    if (threadIdx.x == 0) logValue(v + atomicAdd(&g_fired, 0));
}

/* logs v, then launches ff fire-and-forget and t as a tail launch (null: not) */
__global__ void step(int v, cudaGraphExec_t ff, cudaGraphExec_t t, int slot) {
    if (threadIdx.x != 0) return;
    logValue(v);
    if (ff) g_err[slot] = cudaGraphLaunch(ff, cudaStreamGraphFireAndForget);
    if (t) g_err[slot + 1] = cudaGraphLaunch(t, cudaStreamGraphTailLaunch);
}

/* the first node of a device graph that relaunches itself three times in all */
__global__ void again() {
    if (threadIdx.x != 0) return;
    int n = ++g_count;
    logValue(100 + n);
    if (n < 3) g_err[n] = cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
}

/* its second node */
__global__ void afterAgain() {
    if (threadIdx.x == 0) logValue(200 + g_count);
}

__device__ cudaStream_t streamOf(int which) {
    return which == 0 ? cudaStreamGraphFireAndForget
           : which == 1 ? cudaStreamGraphTailLaunch
                        : cudaStreamGraphFireAndForgetAsSibling;
}

/* launches g twice, into the streams a and b name */
__global__ void twice(cudaGraphExec_t g, int a, int b) {
    if (threadIdx.x != 0) return;
    g_err[0] = cudaGraphLaunch(g, streamOf(a));
    g_err[1] = cudaGraphLaunch(g, streamOf(b));
    logValue(1);
}

/* launches the graph it belongs to, while it runs, into the stream `which` names */
__global__ void selfLaunch(int which) {
    if (threadIdx.x != 0) return;
    int n = ++g_count;
    logValue(10 + n);
    if (n == 1) g_err[0] = cudaGraphLaunch(cudaGetCurrentGraphExec(), streamOf(which));
}

/* a device graph launched by a kernel of a host graph (fire and forget) that launches
 * itself into the stream `which` names */
__global__ void outerSelf(cudaGraphExec_t g) {
    if (threadIdx.x != 0) return;
    g_err[1] = cudaGraphLaunch(g, cudaStreamGraphFireAndForget);
}

static void reset() {
    int zero = 0;
    resetLog();
    OK(cudaMemcpyToSymbol(g_count, &zero, sizeof(int)));
    OK(cudaMemcpyToSymbol(g_fired, &zero, sizeof(int)));
}

static int streamCode(const char *s) {
    return strcmp(s, "ff") == 0 ? 0 : strcmp(s, "tail") == 0 ? 1 : 2;
}

/* one launch the GPU may refuse, as mode names it: its lines */
static void runMode(const char *mode, cudaStream_t s, cudaGraphExec_t devD) {
    reset();
    if (strncmp(mode, "self", 4) == 0) {
        int which = streamCode(mode + 4);
        void *sa[] = {&which};
        cudaGraphExec_t devS = instantiate(oneKernel((const void *)selfLaunch, sa), true, s);
        void *oa[] = {&devS};
        cudaGraphExec_t outer = instantiate(oneKernel((const void *)outerSelf, oa), false, s);
        OK(cudaGraphLaunch(outer, s));
    } else {
        char a[16] = "", *b;
        strncpy(a, mode, sizeof a - 1);
        b = strchr(a, ',');
        if (!b) exit(2);
        *b++ = 0;
        int ca = streamCode(a), cb = streamCode(b);
        void *ta[] = {&devD, &ca, &cb};
        cudaGraphExec_t host = instantiate(oneKernel((const void *)twice, ta), false, s);
        OK(cudaGraphLaunch(host, s));
    }
    SHOW("launch", cudaGetLastError());
    SHOW("synchronize", cudaStreamSynchronize(s));
    showLog(mode, 2);
    printf("done\n");
}

int main(int argc, char **argv) {
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraphExec_t none = NULL;
    int v50 = 50, v60 = 60, v70 = 70, v7 = 7;
    void *a50[] = {&v50}, *a60[] = {&v60}, *a70[] = {&v70}, *a7[] = {&v7};
    cudaGraphExec_t devT = instantiate(oneKernel((const void *)tailLog, a50), true, s);
    cudaGraphExec_t devA = instantiate(oneKernel((const void *)tailLog, a60), true, s);
    cudaGraphExec_t devB = instantiate(oneKernel((const void *)tailLog, a70), true, s);
    cudaGraphExec_t devF = instantiate(oneKernel((const void *)fired, NULL), true, s);
    cudaGraphExec_t devD = instantiate(oneKernel((const void *)logK, a7), true, s);

    if (argc > 1 && strcmp(argv[1], "all") == 0) {
        /* every launch below, one after the other (each one's lines as alone) */
        static const char *const modes[] = {"ff,ff", "tail,tail", "ff,tail", "tail,ff",
                                            "sib,sib", "ff,sib", "sib,ff", "selfff",
                                            "selfsib", "selftail"};
        for (const char *m : modes) runMode(m, s, devD);
        return 0;
    }
    if (argc > 1) {
        runMode(argv[1], s, devD);
        return 0;
    }

    printf("-- a tail launch from the first of three nodes, then a kernel in the stream\n");
    reset();
    {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        int v1 = 1, v2 = 2, v3 = 3, v99 = 99, slot = 0;
        void *s1[] = {&v1, &none, &devT, &slot}, *l2[] = {&v2}, *l3[] = {&v3};
        cudaGraphNode_t n1 = addKernel(g, (const void *)step, s1, NULL, 0);
        cudaGraphNode_t n2 = addKernel(g, (const void *)logK, l2, &n1, 1);
        addKernel(g, (const void *)logK, l3, &n2, 1);
        cudaGraphExec_t x = instantiate(g, false, s);
        OK(cudaGraphLaunch(x, s));
        logK<<<1, 32, 0, s>>>(v99);
        OK(cudaStreamSynchronize(s));
        showLog("three nodes", 2);
    }

    printf("-- tail launches from two nodes\n");
    reset();
    {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        int v1 = 1, v2 = 2, v3 = 3, slot0 = 0, slot2 = 2;
        void *s1[] = {&v1, &none, &devA, &slot0}, *s2[] = {&v2, &none, &devB, &slot2};
        void *l3[] = {&v3};
        cudaGraphNode_t n1 = addKernel(g, (const void *)step, s1, NULL, 0);
        cudaGraphNode_t n2 = addKernel(g, (const void *)step, s2, &n1, 1);
        addKernel(g, (const void *)logK, l3, &n2, 1);
        cudaGraphExec_t x = instantiate(g, false, s);
        OK(cudaGraphLaunch(x, s));
        OK(cudaStreamSynchronize(s));
        showLog("two nodes", 4);
    }

    printf("-- fire and forget and a tail launch from one node\n");
    reset();
    {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        int v1 = 1, v2 = 2, slot = 0;
        void *s1[] = {&v1, &devF, &devT, &slot}, *l2[] = {&v2};
        cudaGraphNode_t n1 = addKernel(g, (const void *)step, s1, NULL, 0);
        addKernel(g, (const void *)logK, l2, &n1, 1);
        cudaGraphExec_t x = instantiate(g, false, s);
        OK(cudaGraphLaunch(x, s));
        OK(cudaStreamSynchronize(s));
        showLog("fire and forget then tail", 2);
    }

    printf("-- a tail launch from a child graph's node\n");
    reset();
    {
        cudaGraph_t child;
        OK(cudaGraphCreate(&child, 0));
        int v1 = 1, v3 = 3, slot = 0;
        void *s1[] = {&v1, &none, &devT, &slot}, *l3[] = {&v3};
        addKernel(child, (const void *)step, s1, NULL, 0);
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        cudaGraphNode_t c;
        OK(cudaGraphAddChildGraphNode(&c, g, NULL, 0, child));
        addKernel(g, (const void *)logK, l3, &c, 1);
        cudaGraphExec_t x = instantiate(g, false, s);
        OK(cudaGraphLaunch(x, s));
        OK(cudaStreamSynchronize(s));
        showLog("child graph", 2);
    }

    printf("-- a device graph launched from the host relaunches itself\n");
    reset();
    {
        cudaGraph_t g;
        OK(cudaGraphCreate(&g, 0));
        cudaGraphNode_t n1 = addKernel(g, (const void *)again, NULL, NULL, 0);
        addKernel(g, (const void *)afterAgain, NULL, &n1, 1);
        cudaGraphExec_t x = instantiate(g, true, s);
        OK(cudaGraphLaunch(x, s));
        OK(cudaStreamSynchronize(s));
        showLog("relaunch", 3);
        /* and once more: the graph is free again */
        reset();
        OK(cudaGraphLaunch(x, s));
        OK(cudaStreamSynchronize(s));
        showLog("relaunch again", 3);
    }

    printf("-- a device graph launched twice, one launch after the other completed\n");
    reset();
    {
        int v1 = 1, slot = 0;
        void *s1[] = {&v1, &devD, &none, &slot};
        cudaGraphExec_t h1 = instantiate(oneKernel((const void *)step, s1), false, s);
        OK(cudaGraphLaunch(h1, s));
        OK(cudaStreamSynchronize(s));
        OK(cudaGraphLaunch(h1, s));
        OK(cudaStreamSynchronize(s));
        showLog("one after the other", 1);
    }
    printf("done\n");
    return 0;
}
