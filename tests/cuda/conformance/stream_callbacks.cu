// Host work ordered with device work in streams: cudaLaunchHostFunc and
// cudaStreamAddCallback between kernels of one stream, a callback that launches nothing but
// records what it saw, two streams joined by an event, and the order of the host functions
// of one stream (which CUDA guarantees) printed as it happened.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

struct Log { int n; int seq[64]; int seen[64]; };

struct Step { Log *log; int id; const int *hostView; };

static void CUDART_CB hostStep(void *p)
{
    Step *s = (Step *)p;
    s->log->seq[s->log->n] = s->id;
    s->log->seen[s->log->n] = s->hostView ? *s->hostView : -1;
    s->log->n++;
}

static void CUDART_CB oldStyle(cudaStream_t, cudaError_t status, void *p)
{
    Step *s = (Step *)p;
    s->log->seq[s->log->n] = 100 + s->id;
    s->log->seen[s->log->n] = (int)status;
    s->log->n++;
}

__global__ void addTo(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += v;
}

__global__ void sumInto(const int *a, int n, int *out)
{
    __shared__ int s[256];
    int t = threadIdx.x, acc = 0;
    for (int i = t; i < n; i += blockDim.x) acc += a[i];
    s[t] = acc;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) *out = s[0];
}

int main()
{
    const int n = 1 << 14;
    int *d, *dsum, *hsum;
    CK(cudaMalloc(&d, n * sizeof(int)));
    CK(cudaMalloc(&dsum, sizeof(int)));
    CK(cudaMallocHost(&hsum, sizeof(int)));
    *hsum = -7;
    CK(cudaMemset(d, 0, n * sizeof(int)));

    Log log = {};
    Step steps[8];
    for (int i = 0; i < 8; i++) steps[i] = Step{&log, i, hsum};

    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    for (int round = 0; round < 4; round++) {
        addTo<<<n / 256, 256, 0, s>>>(d, n, round + 1);
        sumInto<<<1, 256, 0, s>>>(d, n, dsum);
        CK(cudaMemcpyAsync(hsum, dsum, sizeof(int), cudaMemcpyDeviceToHost, s));
        CK(cudaLaunchHostFunc(s, hostStep, &steps[2 * round]));
        CK(cudaStreamAddCallback(s, oldStyle, &steps[2 * round + 1], 0));
    }
    CK(cudaStreamSynchronize(s));
    printf("host functions ran %d times\n", log.n);
    for (int i = 0; i < log.n; i++)
        printf("  #%d id=%d saw=%d\n", i, log.seq[i], log.seen[i]);

    // Two streams: the second waits on an event recorded after the first's kernel.
    cudaStream_t a, b;
    cudaEvent_t done;
    CK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    Log log2 = {};
    Step s2[2] = {{&log2, 1, hsum}, {&log2, 2, hsum}};
    addTo<<<n / 256, 256, 0, a>>>(d, n, 1000);
    CK(cudaEventRecord(done, a));
    CK(cudaStreamWaitEvent(b, done, 0));
    sumInto<<<1, 256, 0, b>>>(d, n, dsum);
    CK(cudaMemcpyAsync(hsum, dsum, sizeof(int), cudaMemcpyDeviceToHost, b));
    CK(cudaLaunchHostFunc(b, hostStep, &s2[0]));
    CK(cudaStreamSynchronize(b));
    printf("after the event: sum=%d (want %d), host func saw %d\n", *hsum, n * (10 + 1000), log2.seen[0]);
    CK(cudaEventSynchronize(done));
    printf("event query: %s\n", cudaGetErrorName(cudaEventQuery(done)));
    printf("stream query: %s\n", cudaGetErrorName(cudaStreamQuery(a)));

    // A host function on the legacy default stream runs after the earlier kernels.
    addTo<<<n / 256, 256>>>(d, n, -1010);
    sumInto<<<1, 256>>>(d, n, dsum);
    CK(cudaMemcpyAsync(hsum, dsum, sizeof(int), cudaMemcpyDeviceToHost, 0));
    CK(cudaLaunchHostFunc(0, hostStep, &s2[1]));
    CK(cudaDeviceSynchronize());
    printf("default stream: host func saw %d\n", log2.seen[1]);

    CK(cudaEventDestroy(done));
    CK(cudaStreamDestroy(a));
    CK(cudaStreamDestroy(b));
    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
    CK(cudaFree(dsum));
    CK(cudaFreeHost(hsum));
    printf("%s\n", log.n == 8 && log2.seen[0] == n * 1010 && log2.seen[1] == 0 ? "PASS" : "FAIL");
    return 0;
}
