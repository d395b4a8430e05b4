/* tests/driver/api_links.c — every function cuda.h declares is exported by vcuda's
 * libcuda.so.1 under the name a program links (the versioned names cuda.h maps to, and
 * the per-thread default stream forms); each one vcuda does not implement returns
 * CUDA_ERROR_NOT_SUPPORTED (its one-line message goes to stderr). cuGetProcAddress finds
 * the same entry points by their plain names. The list comes from cuda.h
 * (driver/gen_api.py writes api_list.h); the test prints which functions are supported.
 * Usage: api_links <path of libcuda.so.1> */
#include <cuda.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct api_fn {
    const char *name;
    int implemented;
} api_fn;

static const api_fn fns[] = {
#define DRV_API_FN(name, implemented) {name, implemented},
#include "api_list.h"
#undef DRV_API_FN
};

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("FAIL: dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    size_t n = sizeof fns / sizeof *fns, missing = 0, wrong = 0, supported = 0;
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    for (size_t i = 0; i < n; i++) {
        void *f = dlsym(lib, fns[i].name);
        if (!f) {
            printf("FAIL: %s is not exported\n", fns[i].name);
            missing++;
            continue;
        }
        if (fns[i].implemented) {
            supported++;
            continue;
        }
        /* a stub takes no arguments, whatever the real function's are */
        dup2(null, 2);
        int r = ((int (*)(void))f)();
        dup2(saved, 2);
        if (r != CUDA_ERROR_NOT_SUPPORTED) {
            printf("FAIL: unsupported %s returned %d, not CUDA_ERROR_NOT_SUPPORTED\n",
                   fns[i].name, r);
            wrong++;
        }
    }
    /* the stub's message names the function */
    int pipefd[2];
    char msg[256] = "";
    if (pipe(pipefd) == 0) {
        dup2(pipefd[1], 2);
        ((int (*)(void))dlsym(lib, "cuGetExportTable"))();
        dup2(saved, 2);
        close(pipefd[1]);
        ssize_t got = read(pipefd[0], msg, sizeof msg - 1);
        msg[got > 0 ? got : 0] = 0;
        close(pipefd[0]);
    }
    if (!strstr(msg, "cuGetExportTable")) {
        printf("FAIL: the unsupported call's message does not name it: %s\n", msg);
        wrong++;
    }
    /* cuGetProcAddress: plain names to versioned entry points */
    typedef CUresult (*gpa_t)(const char *, void **, int, cuuint64_t,
                              CUdriverProcAddressQueryResult *);
    gpa_t gpa = (gpa_t)dlsym(lib, "cuGetProcAddress_v2");
    /* the ABI version a program built for that CUDA version expects (cudaTypedefs.h:
     * cuCtxCreate_v3 came with 11.4, _v4 with 12.5; cuMemAlloc_v2 with 3.2) */
    struct { const char *plain, *exported; int version; cuuint64_t flags; } lookups[] = {
        {"cuMemAlloc", "cuMemAlloc_v2", 13000, CU_GET_PROC_ADDRESS_DEFAULT},
        {"cuCtxCreate", "cuCtxCreate_v4", 13000, CU_GET_PROC_ADDRESS_DEFAULT},
        {"cuMemAlloc", "cuMemAlloc_v2", 11000, CU_GET_PROC_ADDRESS_DEFAULT},
        {"cuStreamBeginCapture", "cuStreamBeginCapture_v2", 10010, CU_GET_PROC_ADDRESS_DEFAULT},
        {"cuLaunchKernel", "cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_DEFAULT},
        {"cuMemcpyHtoD", "cuMemcpyHtoD_v2_ptds", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM},
        {"cuLaunchKernel", "cuLaunchKernel_ptsz", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM},
    };
    for (size_t i = 0; gpa && i < sizeof lookups / sizeof *lookups; i++) {
        void *fn = NULL;
        CUdriverProcAddressQueryResult status;
        CUresult r = gpa(lookups[i].plain, &fn, lookups[i].version, lookups[i].flags, &status);
        if (r != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS ||
            fn != dlsym(lib, lookups[i].exported)) {
            printf("FAIL: cuGetProcAddress(%s, %d) did not give %s\n", lookups[i].plain,
                   lookups[i].version, lookups[i].exported);
            wrong++;
        }
    }
    /* an older ABI than libcuda exports (cuCtxCreate_v3 for 12.0, cuStreamBeginCapture for
     * 10.0) is not found, rather than answered with a function of other arguments */
    struct { const char *plain; int version; } older[] = {
        {"cuCtxCreate", 12000}, {"cuCtxCreate", 11000}, {"cuStreamBeginCapture", 10000},
    };
    for (size_t i = 0; gpa && i < sizeof older / sizeof *older; i++) {
        void *fn = (void *)1;
        CUdriverProcAddressQueryResult status;
        if (gpa(older[i].plain, &fn, older[i].version, 0, &status) != CUDA_ERROR_NOT_FOUND || fn) {
            printf("FAIL: cuGetProcAddress(%s, %d) gave a function of another ABI\n",
                   older[i].plain, older[i].version);
            wrong++;
        }
    }
    void *fn = (void *)1;
    CUdriverProcAddressQueryResult status;
    if (!gpa || gpa("cuNoSuchFunction", &fn, 13000, 0, &status) != CUDA_ERROR_NOT_FOUND ||
        fn || status != CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND) {
        printf("FAIL: cuGetProcAddress of an unknown name\n");
        wrong++;
    }
    printf("%zu functions in cuda.h, %zu implemented, %zu answer CUDA_ERROR_NOT_SUPPORTED\n", n,
           supported, n - supported - missing);
    printf("implemented:");
    for (size_t i = 0; i < n; i++)
        if (fns[i].implemented) printf(" %s", fns[i].name);
    printf("\n");
    if (missing || wrong) {
        printf("FAIL: %zu missing, %zu wrong\n", missing, wrong);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
