/* tests/driver/introspect.c — what a program can learn of loaded code: the kernels of a
 * module and of a library (count, enumeration, names) and each parameter's offset and
 * size, by which code generators pack arguments (expected/introspect.derived).
 * Usage: introspect <kernels.ptx> */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cu_check.h"

static int by_name(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    CU(cuInit(0));
    CUcontext ctx;
    CU(cuCtxCreate(&ctx, NULL, 0, 0));
    CUmodule mod;
    CU(cuModuleLoad(&mod, argv[1]));
    unsigned n = 0;
    CU(cuModuleGetFunctionCount(&n, mod));
    CUfunction fns[16];
    CU(cuModuleEnumerateFunctions(fns, n, mod));
    const char *names[16];
    for (unsigned i = 0; i < n; i++) CU(cuFuncGetName(&names[i], fns[i]));
    qsort(names, n, sizeof *names, by_name);
    printf("module: %u kernels:", n);
    for (unsigned i = 0; i < n; i++) printf(" %s", names[i]);
    printf("\n");
    CUfunction f;
    CU(cuModuleGetFunction(&f, mod, "axpbyc"));
    printf("axpbyc parameters (offset:size):");
    for (size_t i = 0;; i++) {
        size_t off, size;
        CUresult r = cuFuncGetParamInfo(f, i, &off, &size);
        if (r == CUDA_ERROR_INVALID_VALUE) break;
        CU(r);
        printf(" %zu:%zu", off, size);
    }
    printf("\n");
    CUlibrary lib;
    CU(cuLibraryLoadFromFile(&lib, argv[1], NULL, NULL, 0, NULL, NULL, 0));
    CU(cuLibraryGetKernelCount(&n, lib));
    CUkernel ks[16];
    CU(cuLibraryEnumerateKernels(ks, n, lib));
    int found = 0;
    for (unsigned i = 0; i < n; i++) {
        const char *name;
        CU(cuKernelGetName(&name, ks[i]));
        found += strcmp(name, "sharedReverse") == 0;
        size_t off, size;
        if (strcmp(name, "vecAdd") == 0) {
            CU(cuKernelGetParamInfo(ks[i], 3, &off, &size));
            printf("library: vecAdd's n at %zu, %zu bytes\n", off, size);
        }
    }
    printf("library: %u kernels, sharedReverse among them: %s\n", n, found ? "yes" : "no");
    CU(cuLibraryUnload(lib));
    CU(cuModuleUnload(mod));
    CU(cuCtxDestroy(ctx));
    return 0;
}
