/* tests/driver/errors.c — misuse of the driver API and the CUresult each gets: calls before
 * cuInit, without a current context, with bad devices, handles and arguments, bad PTX,
 * a missing file, bad launch configurations, the error names and strings, and the sticky
 * error of a device fault.
 * Each call is a step; ERRORS_SKIP="3,7" leaves steps out (how a misuse that crashes the
 * real driver was found and then removed from this list) and each step's number goes to
 * stderr before it runs.
 * Usage: errors <kernels.ptx> */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int step;

/* Is the next step to run (not in $ERRORS_SKIP)? */
static int next_step(void) {
    char key[16];
    const char *skip = getenv("ERRORS_SKIP");
    step++;
    fprintf(stderr, "step %d\n", step);
    snprintf(key, sizeof key, ",%d,", step);
    if (!skip) return 1;
    char list[1024];
    snprintf(list, sizeof list, ",%s,", skip);
    return strstr(list, key) == NULL;
}

#define show(what, call)                                                                   \
    do {                                                                                   \
        if (next_step()) show_result(what, call);                                          \
    } while (0)

static void show_result(const char *what, CUresult r) {
    const char *name = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS) name = "(unknown)";
    printf("%-52s %4d %s\n", what, (int)r, name);
}

static const char bad_ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry broken(.param .u64 p)\n"
    "{\n"
    "    mov.u32 %r1, 1;\n" /* %r1 was never declared */
    "    ret;\n"
    "}\n";

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    setvbuf(stdout, NULL, _IONBF, 0);
    int n = 0;
    CUdevice dev;
    CUdeviceptr p;
    CUcontext ctx = NULL;
    show("cuDriverGetVersion before cuInit", cuDriverGetVersion(&n));
    show("cuDeviceGetCount before cuInit", cuDeviceGetCount(&n));
    show("cuDeviceGet before cuInit", cuDeviceGet(&dev, 0));
    show("cuMemAlloc before cuInit", cuMemAlloc(&p, 16));
    show("cuInit(1)", cuInit(1));
    show("cuInit(0)", cuInit(0));
    show("cuDeviceGet(5)", cuDeviceGet(&dev, 5));
    show("cuDeviceGet(-1)", cuDeviceGet(&dev, -1));
    show("cuDeviceGet(0)", cuDeviceGet(&dev, 0));
    show("cuDeviceGetAttribute(attribute 9999)",
         cuDeviceGetAttribute(&n, (CUdevice_attribute)9999, dev));
    show("cuDeviceGetAttribute(NULL)",
         cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    /* cuDeviceGetName with a length of 0 crashes the real driver: not asked here */
    show("cuMemAlloc without a context", cuMemAlloc(&p, 16));
    show("cuCtxGetCurrent without a context", cuCtxGetCurrent(&ctx));
    printf("current context: %s\n", ctx ? "some" : "none");
    show("cuCtxPopCurrent with none", cuCtxPopCurrent(&ctx));
    show("cuCtxSynchronize without a context", cuCtxSynchronize());

    show("cuCtxCreate", cuCtxCreate(&ctx, NULL, 0, dev));
    show("cuMemAlloc(0 bytes)", cuMemAlloc(&p, 0));
    show("cuMemAlloc(NULL, 16)", cuMemAlloc(NULL, 16));
    show("cuMemFree of memory never allocated", cuMemFree((CUdeviceptr)(uintptr_t)&n));
    CUmodule mod;
    show("cuModuleLoad of a missing file", cuModuleLoad(&mod, "no/such/file.ptx"));
    char log[2048] = "";
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)sizeof log};
    show("cuModuleLoadDataEx of bad PTX", cuModuleLoadDataEx(&mod, bad_ptx, 2, opts, vals));
    printf("error log: %s\n", log[0] ? "filled" : "empty");
    show("cuModuleLoadData(NULL)", cuModuleLoadData(&mod, NULL));
    show("cuModuleLoad", cuModuleLoad(&mod, argv[1]));
    CUfunction f;
    show("cuModuleGetFunction(unknown name)", cuModuleGetFunction(&f, mod, "nope"));
    show("cuModuleGetFunction(NULL name)", cuModuleGetFunction(&f, mod, NULL));
    show("cuModuleGetGlobal(unknown name)", cuModuleGetGlobal(&p, NULL, mod, "nope"));
    show("cuModuleGetFunction(vecAdd)", cuModuleGetFunction(&f, mod, "vecAdd"));

    CUdeviceptr d;
    show("cuMemAlloc", cuMemAlloc(&d, 4096));
    int count = 256;
    void *args[] = {&d, &d, &d, &count};
    show("cuLaunchKernel(block 2048 threads)",
         cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL));
    show("cuLaunchKernel(grid 0)", cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
    show("cuLaunchKernel(block z 65)", cuLaunchKernel(f, 1, 1, 1, 1, 1, 65, 0, NULL, args, NULL));
    show("cuLaunchKernel(1 MiB of shared memory)",
         cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 1 << 20, NULL, args, NULL));
    size_t sz = 0;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, args, CU_LAUNCH_PARAM_BUFFER_SIZE, &sz,
                     CU_LAUNCH_PARAM_END};
    show("cuLaunchKernel(kernelParams and extra)",
         cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, extra));
    struct { CUdeviceptr a, b, c; int n; } packed = {d, d, d, 256};
    size_t full = sizeof packed, exact = 3 * sizeof(CUdeviceptr) + sizeof(int);
    void *extra_padded[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                            &full, CU_LAUNCH_PARAM_END};
    void *extra_exact[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                           &exact, CU_LAUNCH_PARAM_END};
    show("cuLaunchKernel(extra with tail padding)",
         cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_padded));
    show("cuLaunchKernel(extra of the parameters' size)",
         cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_exact));
    show("cuLaunchKernel(NULL function)",
         cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
    show("cuLaunchKernel", cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    show("cuCtxSynchronize", cuCtxSynchronize());
    int v = 0;
    show("cuFuncGetAttribute(attribute 999)",
         cuFuncGetAttribute(&v, (CUfunction_attribute)999, f));
    show("cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)",
         cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    printf("max threads per block: %d\n", v);
    CUstream s;
    show("cuStreamCreate(flags 8)", cuStreamCreate(&s, 8));
    CUevent e1;
    show("cuEventCreate(flags 0x100)", cuEventCreate(&e1, 0x100));
    show("cuEventCreate", cuEventCreate(&e1, 0));
    float ms;
    show("cuEventElapsedTime(never recorded)", cuEventElapsedTime(&ms, e1, e1));
    show("cuEventQuery(never recorded)", cuEventQuery(e1));
    show("cuEventDestroy", cuEventDestroy(e1));
    CUlinkState link;
    show("cuLinkCreate", cuLinkCreate(0, NULL, NULL, &link));
    show("cuLinkAddData(bad PTX)",
         cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)bad_ptx, sizeof bad_ptx, "bad", 0, NULL,
                       NULL));
    show("cuLinkDestroy", cuLinkDestroy(link));

    /* names and strings */
    CUresult codes[] = {CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_NOT_INITIALIZED,
                        CUDA_ERROR_INVALID_CONTEXT, CUDA_ERROR_CONTEXT_ALREADY_CURRENT,
                        CUDA_ERROR_INVALID_PTX, CUDA_ERROR_NO_BINARY_FOR_GPU,
                        CUDA_ERROR_INVALID_HANDLE, CUDA_ERROR_NOT_FOUND,
                        CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_LAUNCH_FAILED,
                        CUDA_ERROR_NOT_SUPPORTED, CUDA_ERROR_UNKNOWN};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
        const char *name = NULL, *str = NULL;
        cuGetErrorName(codes[i], &name);
        cuGetErrorString(codes[i], &str);
        printf("%d: %s: %s\n", (int)codes[i], name, str);
    }
    const char *str = "untouched";
    show("cuGetErrorString(12345)", cuGetErrorString((CUresult)12345, &str));
    printf("string: %s\n", str ? str : "NULL");

    /* a device fault is sticky */
    CUdeviceptr bad = 16;
    void *badargs[] = {&bad, &bad, &bad, &count};
    show("cuLaunchKernel(bad pointers)",
         cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, NULL, badargs, NULL));
    show("cuCtxSynchronize after the fault", cuCtxSynchronize());
    show("cuMemAlloc after the fault", cuMemAlloc(&p, 16));
    show("cuCtxSynchronize again", cuCtxSynchronize());
    show("cuDeviceGetCount after the fault", cuDeviceGetCount(&n));
    return 0;
}
