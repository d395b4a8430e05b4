/* probe.h — helpers shared by the probe programs: each line a probe prints names the call
 * and the error it returned, so the same program run on a GPU and on vcuda can be diffed.
 * Lines starting with "info " carry values that are not expected to match (timings,
 * register counts chosen by ptxas) and are skipped by the comparison. */
#ifndef PROBE_H
#define PROBE_H
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static inline const char *en(cudaError_t e) { return cudaGetErrorName(e); }

/* Print the code a call returned. */
#define SHOW(label, call)                                                              \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        printf("%s: %d %s\n", label, (int)e_, cudaGetErrorName(e_));                   \
        fflush(stdout);                                                                \
    } while (0)

/* Print what the per-thread error state holds, and clear it. */
#define SHOW_LAST(label)                                                               \
    do {                                                                               \
        cudaError_t p_ = cudaPeekAtLastError();                                        \
        cudaError_t g_ = cudaGetLastError();                                           \
        cudaError_t a_ = cudaGetLastError();                                           \
        printf("%s: peek=%s get=%s again=%s\n", label, en(p_), en(g_), en(a_));        \
        fflush(stdout);                                                                \
    } while (0)

#endif
