/* dpGraph — device graph launch (CUDA Programming Guide, "Device Graph Launch"): graphs
 * instantiated with cudaGraphInstantiateFlagDeviceLaunch, uploaded, and launched from a
 * kernel of a graph into the fire-and-forget, tail-launch and sibling streams; a graph
 * relaunching itself through cudaGetCurrentGraphExec; a device graph launched from the
 * host; and the errors: a graph not instantiated for device launch, a launch into another
 * stream, a launch from a kernel outside any graph, instantiation flags and nodes a device
 * graph cannot have. A launch the GPU answers with a fault runs alone, named by the
 * argument: notdevice (a graph not instantiated for device launch), null (into stream 0),
 * ordinary (into cudaStreamFireAndForget), plain (from a kernel outside any graph).
 *
 * Kernels record what ran, in order, in a device log; the host prints it, so the output
 * does not depend on timing.
 *
 * Build: nvcc -arch=sm_90 -rdc=true dpGraph.cu -lcudadevrt
 */
#include "dp_graph_test.h"

__device__ int g_relaunches;
__device__ unsigned long long g_current[4];

__global__ void addTo(int *p, int v) {
    p[threadIdx.x] += v;
    __syncthreads();
    if (threadIdx.x == 0) logValue(v);
}

/* launches g into the stream `which` names, then (after the launch) overwrites p[0] */
__global__ void scheduler(cudaGraphExec_t g, int which, int slot, int *p, int after) {
    if (threadIdx.x != 0) return;
    cudaStream_t s = which == 0   ? cudaStreamGraphFireAndForget
                     : which == 1 ? cudaStreamGraphTailLaunch
                     : which == 2 ? cudaStreamGraphFireAndForgetAsSibling
                     : which == 3 ? (cudaStream_t)0
                                  : cudaStreamFireAndForget;
    g_err[slot] = cudaGraphLaunch(g, s);
    if (after) p[0] = after;
    logValue(1000 + slot);
}

/* two tail launches, in order */
__global__ void scheduleTwo(cudaGraphExec_t a, cudaGraphExec_t b) {
    if (threadIdx.x != 0) return;
    g_err[0] = cudaGraphLaunch(a, cudaStreamGraphTailLaunch);
    g_err[1] = cudaGraphLaunch(b, cudaStreamGraphTailLaunch);
    logValue(2000);
}

/* a graph that relaunches itself until it has run four times */
__global__ void relaunchSelf() {
    if (threadIdx.x != 0) return;
    g_relaunches++;
    logValue(100 + g_relaunches);
    if (g_relaunches < 4) g_err[0] = cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
}

/* what cudaGetCurrentGraphExec says where it runs */
__global__ void whoAmI(int slot) {
    if (threadIdx.x == 0) g_current[slot] = (unsigned long long)cudaGetCurrentGraphExec();
}

/* inside a device graph: launch another as its sibling */
__global__ void launchSibling(cudaGraphExec_t g) {
    if (threadIdx.x != 0) return;
    g_err[2] = cudaGraphLaunch(g, cudaStreamGraphFireAndForgetAsSibling);
    logValue(3000);
}

static void hostNode(void *) {}

static void resetLogAndRelaunches() {
    int zero = 0;
    resetLog();
    OK(cudaMemcpyToSymbol(g_relaunches, &zero, sizeof(int)));
}

static void showData(const char *what, const int *d) {
    int h[32];
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s: p[0] %d p[1] %d p[31] %d\n", what, h[0], h[1], h[31]);
}

int main(int argc, char **argv) {
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *p;
    OK(cudaMalloc(&p, 32 * sizeof(int)));
    OK(cudaMemset(p, 0, 32 * sizeof(int)));

    /* the device graph: p += 1, then p += 10 (captured), and one made of a memset node
     * and a kernel node */
    cudaGraph_t g1;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    addTo<<<1, 32, 0, s>>>(p, 1);
    addTo<<<1, 32, 0, s>>>(p, 10);
    OK(cudaStreamEndCapture(s, &g1));
    cudaGraphExec_t dev1 = instantiate(g1, true, s);
    OK(cudaStreamSynchronize(s));

    printf("-- fire and forget\n");
    resetLogAndRelaunches();
    int which = 0, slot = 0, after = 0;
    void *sargs[] = {&dev1, &which, &slot, &p, &after};
    cudaGraph_t gs = oneKernel((const void *)scheduler, sargs);
    cudaGraphExec_t sched0 = instantiate(gs, false, s);
    OK(cudaGraphLaunch(sched0, s));
    OK(cudaStreamSynchronize(s));
    showLog("fire and forget", 1);
    showData("fire and forget", p);

    printf("-- tail launch\n");
    resetLogAndRelaunches();
    which = 1;
    after = 500;
    cudaGraph_t gt = oneKernel((const void *)scheduler, sargs);
    cudaGraphExec_t sched1 = instantiate(gt, false, s);
    OK(cudaGraphLaunch(sched1, s));
    OK(cudaStreamSynchronize(s));
    showLog("tail launch", 1);
    showData("tail launch", p);

    printf("-- two tail launches\n");
    resetLogAndRelaunches();
    int v2 = 2, v3 = 3;
    void *a2[] = {&p, &v2}, *a3[] = {&p, &v3};
    cudaGraph_t gA = oneKernel((const void *)addTo, a2);
    cudaGraph_t gB = oneKernel((const void *)addTo, a3);
    cudaGraphExec_t devA = instantiate(gA, true, s), devB = instantiate(gB, true, s);
    void *targs[] = {&devA, &devB};
    cudaGraph_t g2 = oneKernel((const void *)scheduleTwo, targs);
    cudaGraphExec_t sched2 = instantiate(g2, false, s);
    OK(cudaGraphLaunch(sched2, s));
    showLog("two tail launches", 2);
    showData("two tail launches", p);

    printf("-- relaunching itself\n");
    resetLogAndRelaunches();
    cudaGraph_t gr = oneKernel((const void *)relaunchSelf, NULL);
    cudaGraphExec_t devR = instantiate(gr, true, s);
    OK(cudaGraphLaunch(devR, s));
    showLog("relaunch", 1);
    int relaunches = 0;
    OK(cudaMemcpyFromSymbol(&relaunches, g_relaunches, sizeof relaunches));
    printf("ran %d times\n", relaunches);

    printf("-- cudaGetCurrentGraphExec\n");
    int s0 = 0, s1 = 1, s2 = 2;
    whoAmI<<<1, 32, 0, s>>>(s0);
    void *w1[] = {&s1}, *w2[] = {&s2};
    cudaGraph_t gw1 = oneKernel((const void *)whoAmI, w1);
    cudaGraph_t gw2 = oneKernel((const void *)whoAmI, w2);
    cudaGraphExec_t hostW = instantiate(gw1, false, s), devW = instantiate(gw2, true, s);
    OK(cudaGraphLaunch(hostW, s));
    OK(cudaGraphLaunch(devW, s));
    OK(cudaStreamSynchronize(s));
    unsigned long long cur[4];
    OK(cudaMemcpyFromSymbol(cur, g_current, sizeof cur));
    printf("plain kernel: %s\n", cur[0] ? "a graph" : "none");
    printf("host graph: %s\n", cur[1] == (unsigned long long)hostW ? "its handle" : cur[1] ? "another" : "none");
    printf("device graph: %s\n", cur[2] == (unsigned long long)devW ? "its handle" : cur[2] ? "another" : "none");

    printf("-- a device graph launched from the host\n");
    OK(cudaMemset(p, 0, 32 * sizeof(int)));
    resetLogAndRelaunches();
    OK(cudaGraphLaunch(dev1, s));
    OK(cudaGraphLaunch(dev1, s));
    showLog("from the host", 0);
    showData("from the host", p);

    printf("-- a memset node and a kernel node\n");
    resetLogAndRelaunches();
    cudaGraph_t gm;
    OK(cudaGraphCreate(&gm, 0));
    cudaMemsetParams ms;
    memset(&ms, 0, sizeof ms);
    ms.dst = p;
    ms.value = 0;
    ms.elementSize = 4;
    ms.width = 32;
    ms.height = 1;
    cudaGraphNode_t mn, kn;
    OK(cudaGraphAddMemsetNode(&mn, gm, NULL, 0, &ms));
    int v7 = 7;
    void *a7[] = {&p, &v7};
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)addTo;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = a7;
    OK(cudaGraphAddKernelNode(&kn, gm, &mn, 1, &kp));
    cudaGraphExec_t devM = instantiate(gm, true, s);
    which = 0;
    slot = 3;
    after = 0;
    void *margs[] = {&devM, &which, &slot, &p, &after};
    cudaGraph_t gms = oneKernel((const void *)scheduler, margs);
    cudaGraphExec_t schedM = instantiate(gms, false, s);
    OK(cudaGraphLaunch(schedM, s));
    showLog("memset and kernel", 4);
    showData("memset and kernel", p);

    printf("-- a sibling\n");
    resetLogAndRelaunches();
    void *sibArgs[] = {&devA};
    cudaGraph_t gsib = oneKernel((const void *)launchSibling, sibArgs);
    cudaGraphExec_t devSib = instantiate(gsib, true, s);
    which = 0;
    slot = 1;
    void *oargs[] = {&devSib, &which, &slot, &p, &after};
    cudaGraph_t gouter = oneKernel((const void *)scheduler, oargs);
    cudaGraphExec_t outer = instantiate(gouter, false, s);
    OK(cudaGraphLaunch(outer, s));
    showLog("sibling", 3);
    showData("sibling", p);

    printf("-- errors\n");
    cudaGraphExec_t x;
    SHOW("instantiate device launch with auto free",
         cudaGraphInstantiate(&x, g1, cudaGraphInstantiateFlagDeviceLaunch |
                                          cudaGraphInstantiateFlagAutoFreeOnLaunch));
    cudaGraph_t gh;
    OK(cudaGraphCreate(&gh, 0));
    cudaHostNodeParams hp = {hostNode, NULL};
    cudaGraphNode_t hn;
    OK(cudaGraphAddHostNode(&hn, gh, NULL, 0, &hp));
    SHOW("instantiate device launch with a host node",
         cudaGraphInstantiate(&x, gh, cudaGraphInstantiateFlagDeviceLaunch));
    SHOW("upload a graph not for device launch", cudaGraphUpload(sched0, s));
    OK(cudaStreamSynchronize(s));

    /* Device-side launches the GPU refuses with a fault (sticky): one per run, as the
     * argument names it. */
    const char *mode = argc > 1 ? argv[1] : "";
    which = strcmp(mode, "notdevice") == 0 ? 0 : strcmp(mode, "null") == 0 ? 3
            : strcmp(mode, "ordinary") == 0 ? 4 : -1;
    if (which >= 0) {
        resetLogAndRelaunches();
        cudaGraphExec_t hostA = instantiate(gA, false, s);
        slot = 0;
        cudaGraphExec_t target = which == 0 ? hostA : devA;
        void *eargs[] = {&target, &which, &slot, &p, &after};
        cudaGraph_t ge = oneKernel((const void *)scheduler, eargs);
        cudaGraphExec_t schedE = instantiate(ge, false, s);
        OK(cudaGraphLaunch(schedE, s));
        SHOW("graph launch", cudaGetLastError());
        SHOW("synchronize", cudaStreamSynchronize(s));
        int err = -1;
        SHOW("read the error", cudaMemcpyFromSymbol(&err, g_err, sizeof err));
        printf("device-side error %d\n", err);
    } else if (strcmp(mode, "plain") == 0) {
        /* from a kernel that is not part of a graph */
        resetLogAndRelaunches();
        scheduler<<<1, 32, 0, s>>>(devA, 0, 0, p, 0);
        SHOW("plain kernel launch", cudaGetLastError());
        SHOW("plain kernel synchronize", cudaStreamSynchronize(s));
        int err = -1;
        SHOW("read the error", cudaMemcpyFromSymbol(&err, g_err, sizeof err));
        printf("device-side error %d\n", err);
    }
    printf("done\n");
    return 0;
}
