/* pdl.cu — programmatic dependent launch: a kernel launched with the programmatic stream
 * serialization attribute waits in cudaGridDependencySynchronize() for the kernel before
 * it, which signals with cudaTriggerProgrammaticLaunchCompletion(); a programmatic event
 * and a launch-completion event order work in another stream. Every result is checked
 * against the host's; what is printed does not depend on timing. */
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x)                                                                          \
    do {                                                                                  \
        cudaError_t e_ = (x);                                                             \
        if (e_ != cudaSuccess) {                                                          \
            printf("%s: %s\n", #x, cudaGetErrorName(e_));                                 \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

__global__ void primary(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 3 * i;
    __syncthreads();
    cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void secondary(const int *a, int *b, int n) {
    cudaGridDependencySynchronize();  /* a is complete past this point */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i] + 1;
}

__global__ void reader(const int *b, int n, unsigned long long *sum) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, (unsigned long long)b[i]);
}

int main() {
    const int n = 1 << 16, threads = 256, blocks = n / threads;
    int *a, *b;
    unsigned long long *sum, h_sum = 0;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    CHECK(cudaMalloc(&sum, sizeof *sum));
    CHECK(cudaMemset(sum, 0, sizeof *sum));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t prog, done;
    CHECK(cudaEventCreateWithFlags(&prog, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));

    for (int round = 0; round < 3; round++) {
        CHECK(cudaMemsetAsync(b, 0, n * sizeof(int), s1));
        primary<<<blocks, threads, 0, s1>>>(a, n);

        cudaLaunchAttribute attrs[2];
        attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attrs[0].val.programmaticStreamSerializationAllowed = 1;
        attrs[1].id = cudaLaunchAttributeProgrammaticEvent;
        attrs[1].val.programmaticEvent.event = prog;
        attrs[1].val.programmaticEvent.flags = 0;
        attrs[1].val.programmaticEvent.triggerAtBlockStart = 0;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(blocks);
        cfg.blockDim = dim3(threads);
        cfg.stream = s1;
        cfg.attrs = attrs;
        cfg.numAttrs = 2;
        CHECK(cudaLaunchKernelEx(&cfg, secondary, (const int *)a, b, n));

        /* the other stream reads b once the secondary kernel has completed */
        cudaLaunchAttribute done_attr;
        done_attr.id = cudaLaunchAttributeLaunchCompletionEvent;
        done_attr.val.launchCompletionEvent.event = done;
        done_attr.val.launchCompletionEvent.flags = 0;
        cudaLaunchConfig_t noop = cfg;
        noop.attrs = &done_attr;
        noop.numAttrs = 1;
        noop.gridDim = dim3(1);
        noop.blockDim = dim3(1);
        CHECK(cudaLaunchKernelEx(&noop, secondary, (const int *)a, b, 0));
        CHECK(cudaStreamWaitEvent(s2, done, 0));
        CHECK(cudaMemsetAsync(sum, 0, sizeof *sum, s2));
        reader<<<blocks, threads, 0, s2>>>(b, n, sum);
        CHECK(cudaMemcpyAsync(&h_sum, sum, sizeof h_sum, cudaMemcpyDeviceToHost, s2));
        CHECK(cudaStreamSynchronize(s2));
        unsigned long long want = 0;
        for (int i = 0; i < n; i++) want += 3ull * i + 1;
        printf("round %d: sum %llu (%s)\n", round, h_sum, h_sum == want ? "right" : "WRONG");
    }
    CHECK(cudaEventSynchronize(prog));
    printf("programmatic event: %s\n", cudaGetErrorName(cudaEventQuery(prog)));
    CHECK(cudaDeviceSynchronize());
    printf("done: %s\n", cudaGetErrorName(cudaGetLastError()));
    return 0;
}
