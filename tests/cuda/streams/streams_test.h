/* streams_test.h — what the stream tests share: printing the code a call returned (so the
 * same program run on a GPU and on vcuda can be diffed line by line), a check that stops
 * the program on a wrong result, and the spin-waits two grids use to meet through memory.
 *
 * Every line a test prints must be the same on every run of the GPU: results, error
 * codes, and facts that do not depend on timing. A wait that could hang on a broken
 * implementation gives up after a bounded number of tries and says so. */
#ifndef STREAMS_TEST_H
#define STREAMS_TEST_H
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define SHOW(label, call)                                                                \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        printf("%s: %d %s\n", label, (int)e_, cudaGetErrorName(e_));                     \
        fflush(stdout);                                                                  \
    } while (0)

/* A call that must succeed: a failure ends the test with the call and its error. */
#define OK(call)                                                                         \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            printf("FAILED %s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                   cudaGetErrorName(e_));                                                \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#define EXPECT(cond)                                                                     \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);                     \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* Tries before a spin-wait gives up: far more than a partner grid that runs at the same
 * time needs, few enough to end in a second or so when it never comes. */
#define SPIN_TRIES (1 << 21)

/* Wait until *flag is non-zero; 1 when it came, 0 when the wait gave up. */
__device__ inline int spin_until_set(volatile int *flag) {
    for (int i = 0; i < SPIN_TRIES; i++)
        if (*flag) return 1;
    return 0;
}

/* A grid that stays busy until the host sets *flag (mapped pinned memory). */
__global__ void wait_for_host(volatile int *flag, int *out) {
    for (;;)
        if (*flag) break;
    *out = 1;
}

/* Pinned, mapped memory holding one int the host and the device both see. */
static inline volatile int *host_flag(void) {
    int *p = nullptr;
    OK(cudaHostAlloc(&p, sizeof(int), cudaHostAllocMapped));
    *p = 0;
    return p;
}

static inline void set_host_flag(volatile int *f) {
    __sync_synchronize();
    *f = 1;
    __sync_synchronize();
}
#endif
