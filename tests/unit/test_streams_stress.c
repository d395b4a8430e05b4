/* tests/unit/test_streams_stress.c — many host threads driving many streams at once:
 * 8 threads, 4 streams each (32 streams, blocking and non-blocking), thousands of kernel
 * launches, event records and cross-stream waits (within a thread and between threads),
 * host functions, queries, copies and sets, then checks that every stream's last kernel
 * wrote what it should and that every launched thread ran exactly once.
 *
 * It is the test `make test-tsan` runs under ThreadSanitizer (the VCUDA_TSAN build): the
 * results must be right and the run free of data races. The kernel is the runtime tests'
 * `add` (data/fatbin/kernel.cu): b[i] = a[i] * cscale[0] + s, and atomicAdd(&gcount, 1). */
#include "runtime/rt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global);

enum {
    NTHREADS = 8,
    STREAMS_PER_THREAD = 4,
    ITERS = 300,        /* launches per thread: 2400 in all, each followed by a record */
    N = 64,             /* elements per buffer, threads per launch */
};

static atomic_int failures;
#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
            atomic_fetch_add(&failures, 1);                                              \
        }                                                                                \
    } while (0)
#define CHECK_OK(call)                                                                   \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
                    cudaGetErrorName(e_));                                               \
            atomic_fetch_add(&failures, 1);                                              \
        }                                                                                \
    } while (0)

typedef struct {
    int magic, version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} wrapper;

static char stub_add, shadow_cscale[16], shadow_gcount[4];
static wrapper w;
static cudaEvent_t shared_events[NTHREADS]; /* each thread records its own; others wait */
static pthread_barrier_t barrier;

static unsigned long long *load_fatbin(void) {
    char path[512];
    snprintf(path, sizeof path, "%s/unit/data/fatbin/sm90_zstd.fatbin", VCUDA_TEST_DIR);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned long long *buf = calloc(1, (size_t)n + 8);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) exit(1);
    fclose(f);
    return buf;
}

/* One block of N threads, or (split) N/32 blocks of 32: those run on the device's pool
 * of host threads beside the launching engine thread. */
static cudaError_t launch(cudaStream_t s, const float *a, float *b, double add, bool split) {
    int n = N;
    void *args[] = {&a, &b, &n, &add};
    dim3 grid = {split ? N / 32 : 1, 1, 1}, block = {split ? 32 : N, 1, 1};
    return cudaLaunchKernel(&stub_add, grid, block, args, 0, s);
}

typedef struct {
    int index;
    int host_fn_calls; /* written by the host-function thread, read after synchronising */
} worker_state;

static void host_fn(void *p) { ((worker_state *)p)->host_fn_calls++; }

/* What stream k of a thread last had written: a[i] + value. */
static double value_of(int t, int i) { return t * 100000.0 + i; }

static void *worker(void *arg) {
    worker_state *st = arg;
    int t = st->index;
    cudaStream_t s[STREAMS_PER_THREAD];
    cudaEvent_t ev[STREAMS_PER_THREAD];
    float *a = NULL, *b[STREAMS_PER_THREAD], *h = NULL;
    double last[STREAMS_PER_THREAD];
    for (int k = 0; k < STREAMS_PER_THREAD; k++) {
        CHECK_OK(cudaStreamCreateWithFlags(&s[k], k < 2 ? cudaStreamDefault : cudaStreamNonBlocking));
        CHECK_OK(cudaEventCreateWithFlags(&ev[k], k % 2 ? cudaEventDisableTiming : cudaEventDefault));
        CHECK_OK(cudaMalloc((void **)&b[k], N * sizeof(float)));
        last[k] = -1;
    }
    CHECK_OK(cudaMalloc((void **)&a, N * sizeof(float)));
    CHECK_OK(cudaMallocHost((void **)&h, N * sizeof(float)));
    float in[N];
    for (int i = 0; i < N; i++) in[i] = (float)(i + t);
    CHECK_OK(cudaMemcpy(a, in, sizeof in, cudaMemcpyHostToDevice));
    pthread_barrier_wait(&barrier);

    int host_fns = 0;
    for (int i = 0; i < ITERS; i++) {
        int k = i % STREAMS_PER_THREAD;
        CHECK_OK(launch(s[k], a, b[k], value_of(t, i), i % 2));
        last[k] = value_of(t, i);
        CHECK_OK(cudaEventRecord(ev[k], s[k]));
        if (i % 3 == 0) CHECK_OK(cudaStreamWaitEvent(s[(k + 1) % STREAMS_PER_THREAD], ev[k], 0));
        if (i % 7 == 0) {
            /* another thread's latest record, whichever it is */
            CHECK_OK(cudaEventRecord(shared_events[t], s[k]));
            CHECK_OK(cudaStreamWaitEvent(s[k], shared_events[(t + 1) % NTHREADS], 0));
        }
        if (i % 25 == 0) {
            CHECK_OK(cudaLaunchHostFunc(s[k], host_fn, st));
            host_fns++;
        }
        if (i % 40 == 0) {
            cudaError_t q = cudaStreamQuery(s[(k + 2) % STREAMS_PER_THREAD]);
            CHECK(q == cudaSuccess || q == cudaErrorNotReady);
        }
        if (i % 50 == 49) {
            /* read back what the stream's latest kernel wrote */
            CHECK_OK(cudaMemcpyAsync(h, b[k], N * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
            CHECK_OK(cudaStreamSynchronize(s[k]));
            for (int j = 0; j < N; j++) CHECK(h[j] == (float)(in[j] + last[k]));
        }
        if (i % 60 == 30) {
            float *scratch = NULL;
            CHECK_OK(cudaMalloc((void **)&scratch, 256));
            CHECK_OK(cudaMemsetAsync(scratch, 1, 256, s[k]));
            CHECK_OK(cudaFree(scratch)); /* waits for the device */
        }
        if (i % 100 == 99) CHECK_OK(cudaEventSynchronize(ev[k]));
    }
    for (int k = 0; k < STREAMS_PER_THREAD; k++) {
        CHECK_OK(cudaStreamSynchronize(s[k]));
        CHECK_OK(cudaMemcpy(h, b[k], N * sizeof(float), cudaMemcpyDeviceToHost));
        for (int j = 0; j < N; j++) CHECK(h[j] == (float)(in[j] + last[k]));
    }
    CHECK(st->host_fn_calls == host_fns);
    CHECK(cudaGetLastError() == cudaSuccess);
    pthread_barrier_wait(&barrier); /* no thread still waits on another's event */
    for (int k = 0; k < STREAMS_PER_THREAD; k++) {
        CHECK_OK(cudaStreamDestroy(s[k]));
        CHECK_OK(cudaEventDestroy(ev[k]));
        CHECK_OK(cudaFree(b[k]));
    }
    CHECK_OK(cudaFree(a));
    CHECK_OK(cudaFreeHost(h));
    return NULL;
}

int main(void) {
    setenv("VCUDA_THREADS", "4", 1); /* a pool of host threads, whatever the machine */
    unsigned long long *fb = load_fatbin();
    w.magic = 0x466243b1;
    w.version = 1;
    w.data = fb;
    void **handle = __cudaRegisterFatBinary(&w);
    __cudaRegisterFunction(handle, &stub_add, "_Z3addPKfPfid", "_Z3addPKfPfid", -1, NULL, NULL,
                           NULL, NULL, NULL);
    __cudaRegisterVar(handle, shadow_cscale, "cscale", "cscale", 0, 16, 1, 0);
    __cudaRegisterVar(handle, shadow_gcount, "gcount", "gcount", 0, 4, 0, 0);
    __cudaRegisterFatBinaryEnd(handle);

    float scale[4] = {1.0f, 0, 0, 0};
    int zero = 0;
    CHECK_OK(cudaMemcpyToSymbol(shadow_cscale, scale, sizeof scale, 0, cudaMemcpyHostToDevice));
    CHECK_OK(cudaMemcpyToSymbol(shadow_gcount, &zero, sizeof zero, 0, cudaMemcpyHostToDevice));
    for (int t = 0; t < NTHREADS; t++) CHECK_OK(cudaEventCreate(&shared_events[t]));

    pthread_barrier_init(&barrier, NULL, NTHREADS);
    pthread_t th[NTHREADS];
    worker_state st[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        st[t] = (worker_state){t, 0};
        pthread_create(&th[t], NULL, worker, &st[t]);
    }
    for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&barrier);

    CHECK_OK(cudaDeviceSynchronize());
    int count = 0;
    CHECK_OK(cudaMemcpyFromSymbol(&count, shadow_gcount, sizeof count, 0, cudaMemcpyDeviceToHost));
    CHECK(count == NTHREADS * ITERS * N);
    for (int t = 0; t < NTHREADS; t++) CHECK_OK(cudaEventDestroy(shared_events[t]));
    rt_context_shutdown();
    free(fb);
    if (atomic_load(&failures)) {
        fprintf(stderr, "test_streams_stress: %d check(s) failed\n", atomic_load(&failures));
        return 1;
    }
    printf("test_streams_stress: %d launches from %d threads on %d streams: all checks passed\n",
           NTHREADS * ITERS, NTHREADS, NTHREADS * STREAMS_PER_THREAD);
    return 0;
}
