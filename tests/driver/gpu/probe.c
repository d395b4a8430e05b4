/* tests/driver/probe.c — facts of the real driver that the tests' design relies on, printed
 * for the record (h100/probe.out): not a test, a question asked of a GPU once. */
#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *what, CUresult r) {
    const char *name = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS) name = "(unknown)";
    printf("%-56s %4d %s\n", what, (int)r, name);
}

int main(int argc, char **argv) {
    (void)argc;
    CUcontext ctx;
    unsigned flags = 99;
    int active = 99;
    show("cuDevicePrimaryCtxGetState before cuInit", cuDevicePrimaryCtxGetState(0, &flags, &active));
    cuInit(0);
    show("cuDevicePrimaryCtxGetState after cuInit", cuDevicePrimaryCtxGetState(0, &flags, &active));
    printf("  flags %u active %d\n", flags, active);
    show("cuDevicePrimaryCtxRelease never retained", cuDevicePrimaryCtxRelease(0));
    show("cuCtxCreate", cuCtxCreate(&ctx, NULL, 0, 0));
    unsigned v = 0;
    show("cuCtxGetApiVersion", cuCtxGetApiVersion(ctx, &v));
    printf("  api version %u\n", v);
    const char *s = NULL;
    show("cuGetErrorString(916)", cuGetErrorString((CUresult)916, &s));
    printf("  %s\n", s ? s : "NULL");
    show("cuGetErrorString(202)", cuGetErrorString((CUresult)202, &s));
    printf("  %s\n", s ? s : "NULL");
    for (int a = 1; a < 160; a++) {
        int val = 0;
        CUresult r = cuDeviceGetAttribute(&val, (CUdevice_attribute)a, 0);
        printf("attr %d: %d (%d)\n", a, val, (int)r);
    }
    /* JIT log sizes written back on success */
    FILE *f = fopen(argv[1], "rb");
    char *ptx = calloc(1, 1 << 20);
    if (f) {
        size_t n = fread(ptx, 1, (1 << 20) - 1, f);
        (void)n;
        fclose(f);
    }
    char info[512] = "x", err[512] = "x";
    CUjit_option o[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                        CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {info, (void *)(uintptr_t)512, err, (void *)(uintptr_t)512};
    CUmodule m;
    show("cuModuleLoadDataEx", cuModuleLoadDataEx(&m, ptx, 4, o, vals));
    printf("  info size back %zu '%s', error size back %zu '%s'\n", (size_t)(uintptr_t)vals[1],
           info, (size_t)(uintptr_t)vals[3], err);
    void *h;
    CUdeviceptr base;
    size_t size;
    cuMemAllocHost(&h, 64);
    show("cuMemGetAddressRange(pinned host)", cuMemGetAddressRange(&base, &size, (CUdeviceptr)h));
    unsigned mt = 0;
    show("cuPointerGetAttribute(MEMORY_TYPE, pinned)",
         cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)h));
    printf("  %u\n", mt);
    CUdeviceptr man;
    cuMemAllocManaged(&man, 64, CU_MEM_ATTACH_GLOBAL);
    show("cuPointerGetAttribute(MEMORY_TYPE, managed)",
         cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, man));
    printf("  %u\n", mt);
    char *plain = malloc(64);
    show("cuPointerGetAttribute(MEMORY_TYPE, malloc)",
         cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)plain));
    show("cuStreamDestroy(NULL)", cuStreamDestroy(NULL));
    show("cuMemFreeHost(malloc)", cuMemFreeHost(plain));
    /* cuGetProcAddress and versions */
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    const char *names[][2] = {{"cuCtxCreate", "cuCtxCreate_v4"}, {"cuCtxCreate", "cuCtxCreate_v2"},
                              {"cuMemAlloc", "cuMemAlloc_v2"}, {"cuModuleGetGlobal", "cuModuleGetGlobal_v2"}};
    int versions[] = {13000, 12000, 13000, 13000};
    for (int i = 0; i < 4; i++) {
        void *fn = NULL;
        CUdriverProcAddressQueryResult st;
        CUresult r = cuGetProcAddress(names[i][0], &fn, versions[i], 0, &st);
        printf("cuGetProcAddress(%s, %d): %d, status %d, is %s: %s\n", names[i][0], versions[i],
               (int)r, (int)st, names[i][1], fn && fn == dlsym(lib, names[i][1]) ? "yes" : "no");
    }
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    show("cuGetProcAddress(cuMemcpyHtoD, per-thread)",
         cuGetProcAddress("cuMemcpyHtoD", &fn, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st));
    printf("  is _v2_ptds: %s\n", fn == dlsym(lib, "cuMemcpyHtoD_v2_ptds") ? "yes" : "no");
    void *table = NULL;
    CUuuid id;
    memset(&id, 0, sizeof id);
    show("cuGetExportTable(zero uuid)", cuGetExportTable((const void **)&table, &id));
    /* NVRTC: a cubin of a PTX-only compilation */
    nvrtcProgram p;
    nvrtcCreateProgram(&p, "__global__ void k(){}", "k.cu", 0, NULL, NULL);
    const char *opt = "--gpu-architecture=compute_90";
    nvrtcCompileProgram(p, 1, &opt);
    size_t cs = 0;
    nvrtcResult nr = nvrtcGetCUBINSize(p, &cs);
    printf("nvrtcGetCUBINSize after compute_90: %s, %zu\n", nvrtcGetErrorString(nr), cs);
    size_t ps = 0;
    nvrtcProgram q;
    nvrtcCreateProgram(&q, "__global__ void k(){}", "k.cu", 0, NULL, NULL);
    const char *opt2 = "-arch=sm_90";
    nvrtcCompileProgram(q, 1, &opt2);
    nr = nvrtcGetPTXSize(q, &ps);
    printf("nvrtcGetPTXSize after sm_90: %s, %s\n", nvrtcGetErrorString(nr), ps ? "nonzero" : "zero");
    return 0;
}
