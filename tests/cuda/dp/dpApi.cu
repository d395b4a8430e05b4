/* dpApi — the device runtime's answers to a kernel (CDP2): device queries, the errors of
 * streams, events and launches, and the last-error state of a thread.
 *
 * One thread of one block makes every call and prints what it got, so the output order is
 * fixed. The low-level launch entry points (cudaGetParameterBuffer[V2] and
 * cudaLaunchDevice[V2], what <<<>>> turns into) are called directly too.
 *
 * Build: nvcc -arch=sm_90 -rdc=true dpApi.cu -lcudadevrt
 */
#include "../../../examples/common.h"

__device__ int g_fromChild[4];

__global__ void leaf() {}

__global__ void bigShared()
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = 1;
}

__global__ void writeValue(int slot, int value)
{
    g_fromChild[slot] = value;
}

__device__ void show(const char *what, cudaError_t e)
{
    printf("%-58s %s\n", what, cudaGetErrorName(e));
}

__global__ void probe()
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    int count = -1, dev = -1;
    show("cudaGetDeviceCount", cudaGetDeviceCount(&count));
    show("cudaGetDevice", cudaGetDevice(&dev));
    printf("  device count %d, device %d\n", count, dev);
    size_t pending = 0;
    show("cudaDeviceGetLimit(PendingLaunchCount)",
         cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount));
    printf("  pending launch count limit %lu\n", (unsigned long)pending);
    int version = 0;
    show("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&version));
    printf("  runtime version %d\n", version);

    /* streams and events */
    cudaStream_t s;
    cudaEvent_t e;
    show("cudaStreamCreateWithFlags(cudaStreamDefault)",
         cudaStreamCreateWithFlags(&s, cudaStreamDefault));
    show("cudaGetLastError after it", cudaGetLastError());
    show("cudaStreamCreateWithFlags(cudaStreamNonBlocking)",
         cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    show("cudaEventCreateWithFlags(cudaEventDefault)", cudaEventCreateWithFlags(&e, cudaEventDefault));
    show("cudaGetLastError after it", cudaGetLastError());
    show("cudaEventCreateWithFlags(cudaEventDisableTiming)",
         cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    show("cudaEventRecord(e, NULL stream)", cudaEventRecord(e, 0));
    show("cudaEventRecord(e, s)", cudaEventRecord(e, s));
    show("cudaEventRecord(e, cudaStreamTailLaunch)", cudaEventRecord(e, cudaStreamTailLaunch));
    show("cudaGetLastError after it", cudaGetLastError());
    show("cudaEventRecord(e, cudaStreamFireAndForget)", cudaEventRecord(e, cudaStreamFireAndForget));
    show("cudaStreamWaitEvent(s, e)", cudaStreamWaitEvent(s, e, 0));
    show("cudaStreamWaitEvent(NULL stream, e)", cudaStreamWaitEvent(0, e, 0));
    show("cudaStreamWaitEvent(cudaStreamTailLaunch, e)", cudaStreamWaitEvent(cudaStreamTailLaunch, e, 0));
    show("cudaStreamWaitEvent(cudaStreamFireAndForget, e)",
         cudaStreamWaitEvent(cudaStreamFireAndForget, e, 0));
    show("cudaGetLastError", cudaGetLastError());
    leaf<<<1, 1, 0, s>>>();
    show("launch into s", cudaGetLastError());
    show("cudaEventDestroy(e)", cudaEventDestroy(e));
    show("cudaStreamDestroy(s)", cudaStreamDestroy(s));

    /* launch configurations */
    leaf<<<1, 1025>>>();
    show("launch <<<1, 1025>>>: cudaPeekAtLastError", cudaPeekAtLastError());
    show("  cudaPeekAtLastError again", cudaPeekAtLastError());
    show("  cudaGetLastError", cudaGetLastError());
    show("  cudaGetLastError again", cudaGetLastError());
    leaf<<<1, dim3(32, 32, 2)>>>();
    show("launch <<<1, (32,32,2)>>>", cudaGetLastError());
    leaf<<<1, dim3(1, 1, 65)>>>();
    show("launch <<<1, (1,1,65)>>>", cudaGetLastError());
    leaf<<<dim3(0, 1, 1), 32>>>();
    show("launch <<<(0,1,1), 32>>>", cudaGetLastError());
    leaf<<<dim3(1, 65536, 1), 32>>>();
    show("launch <<<(1,65536,1), 32>>>", cudaGetLastError());
    leaf<<<1, dim3(32, 0, 1)>>>();
    show("launch <<<1, (32,0,1)>>>", cudaGetLastError());
    bigShared<<<1, 32, 49 * 1024>>>();
    show("launch with 49 KiB dynamic shared memory", cudaGetLastError());
    bigShared<<<1, 32, 48 * 1024>>>();
    show("launch with 48 KiB dynamic shared memory", cudaGetLastError());

    /* the low-level entry points */
    void *buf = cudaGetParameterBufferV2((void *)writeValue, dim3(1), dim3(1), 0);
    printf("  cudaGetParameterBufferV2 gave %s buffer\n", buf ? "a" : "no");
    if (buf) {
        ((int *)buf)[0] = 0;
        ((int *)buf)[1] = 111;
        show("cudaLaunchDeviceV2", cudaLaunchDeviceV2(buf, 0));
    }
    buf = cudaGetParameterBuffer(8, 8);
    printf("  cudaGetParameterBuffer gave %s buffer\n", buf ? "a" : "no");
    if (buf) {
        ((int *)buf)[0] = 1;
        ((int *)buf)[1] = 222;
        show("cudaLaunchDevice", cudaLaunchDevice((void *)writeValue, buf, dim3(1), dim3(1), 0, 0));
    }

    /* the error texts */
    printf("  %s: %s\n", cudaGetErrorName(cudaErrorInvalidConfiguration),
           cudaGetErrorString(cudaErrorInvalidConfiguration));
    printf("  %s: %s\n", cudaGetErrorName(cudaErrorLaunchPendingCountExceeded),
           cudaGetErrorString(cudaErrorLaunchPendingCountExceeded));
    printf("  %s: %s\n", cudaGetErrorName(cudaErrorLaunchMaxDepthExceeded),
           cudaGetErrorString(cudaErrorLaunchMaxDepthExceeded));
}

int main()
{
    probe<<<2, 64>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int fromChild[4];
    CHECK(cudaMemcpyFromSymbol(fromChild, g_fromChild, sizeof fromChild));
    printf("children launched through the low-level calls wrote %d and %d\n", fromChild[0],
           fromChild[1]);
    CHECK(cudaDeviceReset());
    return 0;
}
