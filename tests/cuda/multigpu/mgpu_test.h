/* mgpu_test.h — what the multi-GPU tests share: printing the code a call returned (so the
 * same program run on a GPU and on vcuda can be diffed line by line), and checks that stop
 * the program on a failed call or a wrong result. Nothing printed depends on the machine
 * (no pointers, no timings, no free-memory figures). */
#ifndef MGPU_TEST_H
#define MGPU_TEST_H
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define SHOW(label, call)                                                                \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        printf("%s: %s\n", label, cudaGetErrorName(e_));                                 \
        fflush(stdout);                                                                  \
    } while (0)

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

/* The tests need two devices at least; with fewer they say so and stop. */
static int mgpu_devices(void) {
    int n = 0;
    OK(cudaGetDeviceCount(&n));
    if (n < 2) {
        printf("needs two devices, found %d\n", n);
        exit(1);
    }
    return n;
}
#endif
