/* tests/unit/test_runtime_common.h — what the runtime tests share: a CHECK macro, registration
 * of the test kernel's fatbin (tests/unit/data/fatbin) the way nvcc's start-up code does
 * it, and a builder for synthetic fatbins holding given PTX text.
 *
 * The test kernel (data/fatbin/kernel.cu):
 *   __constant__ float cscale[4]; __device__ int gcount;
 *   __global__ void add(const float *a, float *b, int n, double s)
 *       { i = global index; if (i < n) b[i] = a[i] * cscale[0] + s; atomicAdd(&gcount, 1); }
 */
#ifndef VCUDA_TESTS_RUNTIME_COMMON_H
#define VCUDA_TESTS_RUNTIME_COMMON_H

#include "runtime/rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)
#define CHECK_ERR(call, want)                                                             \
    do {                                                                                  \
        cudaError_t got_ = (call);                                                        \
        if (got_ != (want)) {                                                             \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call, \
                    cudaGetErrorName(got_), cudaGetErrorName(want));                      \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

/* The entry points nvcc's host code calls (their C++ declarations are not includable). */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream);

typedef struct test_wrapper {
    int magic, version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} test_wrapper;

static inline dim3 d3(unsigned x, unsigned y, unsigned z) {
    dim3 d = {x, y, z};
    return d;
}

/* Read a data file into 8-byte aligned memory (fatbins are read as 64-bit words). */
static inline unsigned long long *test_load(const char *name, size_t *len) {
    char path[512];
    snprintf(path, sizeof path, "%s/unit/data/fatbin/%s", VCUDA_TEST_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned long long *buf = calloc(1, (size_t)n + 8);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) exit(1);
    fclose(f);
    if (len) *len = (size_t)n;
    return buf;
}

/* A fatbin holding one uncompressed PTX entry for sm_<arch>. */
static inline unsigned long long *test_ptx_fatbin(const char *ptx, unsigned arch) {
    size_t n = strlen(ptx) + 1, padded = (n + 7) & ~(size_t)7;
    size_t total = 16 + 64 + padded;
    unsigned long long *buf = calloc(1, total);
    uint8_t *b = (uint8_t *)buf;
    uint32_t magic = 0xBA55ED50u;
    uint16_t ver = 1, hsize = 16;
    uint64_t psize = 64 + padded;
    memcpy(b, &magic, 4);
    memcpy(b + 4, &ver, 2);
    memcpy(b + 6, &hsize, 2);
    memcpy(b + 8, &psize, 8);
    uint8_t *e = b + 16;
    uint16_t kind = 1, ever = 0x101;
    uint32_t ehsize = 64;
    uint64_t esize = padded, flags = 0x11;
    memcpy(e, &kind, 2);
    memcpy(e + 2, &ever, 2);
    memcpy(e + 4, &ehsize, 4);
    memcpy(e + 8, &esize, 8);
    memcpy(e + 28, &arch, 4);
    memcpy(e + 40, &flags, 8);
    memcpy(e + 64, ptx, n);
    return buf;
}

/* Register a fatbin as nvcc's start-up code does; returns the module handle. */
static inline void **test_register(unsigned long long *fatbin, test_wrapper *w) {
    w->magic = 0x466243b1;
    w->version = 1;
    w->data = fatbin;
    w->filename_or_fatbins = NULL;
    return __cudaRegisterFatBinary(w);
}

static inline void test_register_kernel(void **h, const void *stub, const char *name) {
    __cudaRegisterFunction(h, (const char *)stub, (char *)name, name, -1, NULL, NULL, NULL, NULL,
                           NULL);
}

static inline int test_finish(const char *name) {
    if (failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

#endif
