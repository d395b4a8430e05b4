/* tests/driver/modules.c — the ways a driver-API program gets device code: a fatbin file
 * (cuModuleLoad), fatbin bytes (cuModuleLoadFatBinary), PTX bytes with JIT log buffers
 * (cuModuleLoadDataEx), two PTX files linked at run time (cuLink*, the result loaded with
 * cuModuleLoadData) and a library (cuLibraryLoadData, cuLibraryGetKernel).
 * Usage: modules (run where kernels.fatbin, kernels.ptx and link_*.ptx are) */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cu_check.h"

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) exit(1);
    buf[n] = 0;
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/* vecAdd of n elements with the kernel f; the number of wrong results */
static int run_vecadd(CUfunction f, int n) {
    size_t bytes = (size_t)n * sizeof(float);
    float *h = malloc(bytes * 3);
    for (int i = 0; i < n; i++) h[i] = (float)i, h[n + i] = (float)(2 * i);
    CUdeviceptr d;
    CU(cuMemAlloc(&d, bytes * 3));
    CU(cuMemcpyHtoD(d, h, bytes * 2));
    CUdeviceptr a = d, b = d + bytes, c = d + 2 * bytes;
    void *args[] = {&a, &b, &c, &n};
    CU(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CU(cuMemcpyDtoH(h + 2 * n, c, bytes));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[2 * n + i] != (float)(3 * i);
    CU(cuMemFree(d));
    free(h);
    return bad;
}

int main(void) {
    CU(cuInit(0));
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));

    /* a fatbin file, and the same bytes through cuModuleLoadFatBinary */
    CUmodule m1, m2;
    CUfunction f;
    CU(cuModuleLoad(&m1, "kernels.fatbin"));
    CU(cuModuleGetFunction(&f, m1, "vecAdd"));
    printf("fatbin file: %d mismatches\n", run_vecadd(f, 1000));
    size_t size;
    char *fatbin = read_file("kernels.fatbin", &size);
    CU(cuModuleLoadFatBinary(&m2, fatbin));
    free(fatbin); /* the module keeps what it needs */
    CU(cuModuleGetFunction(&f, m2, "vecAdd"));
    printf("fatbin bytes: %d mismatches\n", run_vecadd(f, 777));
    CUfunction missing;
    CUresult r = cuModuleGetFunction(&missing, m2, "noSuchKernel");
    printf("a kernel the module lacks: %d\n", (int)r);
    CU(cuModuleUnload(m1));
    CU(cuModuleUnload(m2));

    /* PTX text with log buffers */
    char *ptx = read_file("kernels.ptx", &size);
    char info[1024], error[1024];
    CUjit_option opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_OPTIMIZATION_LEVEL};
    void *vals[] = {info, (void *)(uintptr_t)sizeof info, error, (void *)(uintptr_t)sizeof error,
                    (void *)(uintptr_t)4};
    CUmodule m3;
    CU(cuModuleLoadDataEx(&m3, ptx, 5, opts, vals));
    printf("PTX with options: error log \"%s\"\n", error);
    CU(cuModuleGetFunction(&f, m3, "vecAdd"));
    printf("PTX bytes: %d mismatches\n", run_vecadd(f, 4097));
    CU(cuModuleUnload(m3));

    /* two relocatable PTX files linked at run time */
    CUlinkState link;
    CU(cuLinkCreate(0, NULL, NULL, &link));
    CU(cuLinkAddFile(link, CU_JIT_INPUT_PTX, "link_main.ptx", 0, NULL, NULL));
    char *lib = read_file("link_lib.ptx", &size);
    CU(cuLinkAddData(link, CU_JIT_INPUT_PTX, lib, size + 1, "link_lib.ptx", 0, NULL, NULL));
    void *cubin;
    size_t cubin_size;
    CU(cuLinkComplete(link, &cubin, &cubin_size));
    CUmodule linked;
    CU(cuModuleLoadData(&linked, cubin));
    CU(cuLinkDestroy(link));
    CU(cuModuleGetFunction(&f, linked, "applyTransform"));
    float x[64];
    for (int i = 0; i < 64; i++) x[i] = (float)i * 0.5f;
    CUdeviceptr dx;
    CU(cuMemAlloc(&dx, sizeof x));
    CU(cuMemcpyHtoD(dx, x, sizeof x));
    int n = 64;
    void *largs[] = {&dx, &n};
    CU(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, largs, NULL));
    CU(cuMemcpyDtoH(x, dx, sizeof x));
    printf("linked: x[0] = %.2f, x[3] = %.2f, x[63] = %.2f\n", x[0], x[3], x[63]);
    CUdeviceptr doff;
    CU(cuModuleGetGlobal(&doff, NULL, linked, "offset"));
    int off;
    CU(cuMemcpyDtoH(&off, doff, sizeof off));
    printf("linked: offset = %d\n", off);
    CU(cuModuleUnload(linked));

    /* an unresolved symbol fails the link */
    CU(cuLinkCreate(0, NULL, NULL, &link));
    CU(cuLinkAddFile(link, CU_JIT_INPUT_PTX, "link_main.ptx", 0, NULL, NULL));
    r = cuLinkComplete(link, &cubin, &cubin_size);
    printf("link with a missing definition: %s\n", r == CUDA_SUCCESS ? "succeeded" : "failed");
    CU(cuLinkDestroy(link));

    /* a library: context-independent loading */
    CUlibrary library;
    CU(cuLibraryLoadData(&library, ptx, NULL, NULL, 0, NULL, NULL, 0));
    CUkernel kernel;
    CU(cuLibraryGetKernel(&kernel, library, "vecAdd"));
    CU(cuKernelGetFunction(&f, kernel));
    printf("library kernel: %d mismatches\n", run_vecadd(f, 300));
    CUmodule libmod;
    CU(cuLibraryGetModule(&libmod, library));
    CUfunction again;
    CU(cuModuleGetFunction(&again, libmod, "vecAdd"));
    printf("library module function: %d mismatches\n", run_vecadd(again, 33));
    CU(cuLibraryUnload(library));

    free(ptx);
    free(lib);
    CU(cuMemFree(dx));
    CU(cuDevicePrimaryCtxRelease(dev));
    printf("done\n");
    return 0;
}
