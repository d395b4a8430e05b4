// graph_events.cu — event record and wait nodes: one graph records an event after its
// kernel, another graph launched in another stream waits for it before reading what the
// kernel wrote; the nodes give their events back, and an executable graph's wait node is
// pointed at another event.
#include "../streams/streams_test.h"

__global__ void slow_fill(int *x, int n, int v) {
    // long enough that a reader not ordered after it would see the old values
    for (int r = 0; r < 200; r++)
        for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = v + r - r;
}

__global__ void copy(int *dst, const int *src, int n) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
}

static long long total(const int *d, int n) {
    int h[1024];
    OK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long s = 0;
    for (int i = 0; i < n; i++) s += h[i];
    return s;
}

int main() {
    const int n = 1024;
    int *x, *y;
    OK(cudaMalloc(&x, n * sizeof(int)));
    OK(cudaMalloc(&y, n * sizeof(int)));
    cudaStream_t s1, s2;
    OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t ev, ev2;
    OK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    OK(cudaEventCreateWithFlags(&ev2, cudaEventDisableTiming));

    int seven = 7;
    void *fill_args[] = {&x, (void *)&n, &seven};
    void *copy_args[] = {&y, &x, (void *)&n};
    cudaKernelNodeParams kp = {};
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(256);

    cudaGraph_t producer, consumer;
    OK(cudaGraphCreate(&producer, 0));
    OK(cudaGraphCreate(&consumer, 0));
    cudaGraphNode_t fill_node, rec_node, wait_node, copy_node;
    kp.func = (void *)slow_fill;
    kp.kernelParams = fill_args;
    OK(cudaGraphAddKernelNode(&fill_node, producer, nullptr, 0, &kp));
    OK(cudaGraphAddEventRecordNode(&rec_node, producer, &fill_node, 1, ev));
    OK(cudaGraphAddEventWaitNode(&wait_node, consumer, nullptr, 0, ev));
    kp.func = (void *)copy;
    kp.kernelParams = copy_args;
    OK(cudaGraphAddKernelNode(&copy_node, consumer, &wait_node, 1, &kp));

    cudaEvent_t got = nullptr, got2 = nullptr;
    OK(cudaGraphEventRecordNodeGetEvent(rec_node, &got));
    OK(cudaGraphEventWaitNodeGetEvent(wait_node, &got2));
    printf("record node's event is ev: %d, wait node's: %d\n", got == ev, got2 == ev);
    cudaGraphNodeType t_rec, t_wait;
    OK(cudaGraphNodeGetType(rec_node, &t_rec));
    OK(cudaGraphNodeGetType(wait_node, &t_wait));
    printf("types: record %d, wait %d\n", (int)t_rec, (int)t_wait);

    cudaGraphExec_t pe, ce;
    OK(cudaGraphInstantiate(&pe, producer, 0));
    OK(cudaGraphInstantiate(&ce, consumer, 0));
    OK(cudaGraphLaunch(pe, s1));
    OK(cudaGraphLaunch(ce, s2));
    OK(cudaStreamSynchronize(s2));
    printf("the consumer waited for the producer: y sums to %lld\n", total(y, n));
    SHOW("cudaEventQuery(ev) after the consumer", cudaEventQuery(ev));

    // the executable consumer now waits for ev2, recorded after a second fill in s1
    OK(cudaGraphExecEventWaitNodeSetEvent(ce, wait_node, ev2));
    OK(cudaDeviceSynchronize());
    int nine = 9;
    slow_fill<<<1, 256, 0, s1>>>(x, n, nine);
    OK(cudaEventRecord(ev2, s1));
    OK(cudaGraphLaunch(ce, s2));
    OK(cudaStreamSynchronize(s2));
    printf("waiting for ev2 instead: y sums to %lld\n", total(y, n));
    OK(cudaGraphEventWaitNodeGetEvent(wait_node, &got2));
    printf("the graph's own wait node still names ev: %d\n", got2 == ev);

    // kernel node attributes: kept and given back
    cudaLaunchAttributeValue av = {};
    av.accessPolicyWindow.base_ptr = x;
    av.accessPolicyWindow.num_bytes = 4096;
    av.accessPolicyWindow.hitRatio = 1.0f;
    av.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    SHOW("set the fill node's access policy window",
         cudaGraphKernelNodeSetAttribute(fill_node, cudaLaunchAttributeAccessPolicyWindow, &av));
    cudaLaunchAttributeValue back = {};
    OK(cudaGraphKernelNodeGetAttribute(fill_node, cudaLaunchAttributeAccessPolicyWindow, &back));
    printf("its window: %zu bytes, hit property %d\n", back.accessPolicyWindow.num_bytes,
           (int)back.accessPolicyWindow.hitProp);
    OK(cudaGraphKernelNodeCopyAttributes(copy_node, fill_node));
    back = {};
    OK(cudaGraphKernelNodeGetAttribute(copy_node, cudaLaunchAttributeAccessPolicyWindow, &back));
    printf("copied to the copy node: %zu bytes\n", back.accessPolicyWindow.num_bytes);
    SHOW("an attribute of an event node",
         cudaGraphKernelNodeGetAttribute(wait_node, cudaLaunchAttributeAccessPolicyWindow, &back));

    // the generic setter: the producer's fill writes 3 from now on
    int three = 3;
    void *fill3[] = {&x, (void *)&n, &three};
    cudaGraphNodeParams gp = {};
    gp.type = cudaGraphNodeTypeKernel;
    gp.kernel.func = (void *)slow_fill;
    gp.kernel.gridDim = dim3(1);
    gp.kernel.blockDim = dim3(256);
    gp.kernel.kernelParams = fill3;
    SHOW("cudaGraphExecNodeSetParams", cudaGraphExecNodeSetParams(pe, fill_node, &gp));
    OK(cudaGraphLaunch(pe, s1));
    OK(cudaStreamSynchronize(s1));
    printf("the producer now fills with 3: x sums to %lld\n", total(x, n));
    gp.type = cudaGraphNodeTypeMemset;
    SHOW("cudaGraphNodeSetParams with another type", cudaGraphNodeSetParams(fill_node, &gp));
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    return 0;
}
