/* tests/driver/nvrtc.c — kernels compiled at run time with NVRTC: a templated kernel
 * instantiated through name expressions, compiled once to PTX (nvrtcGetPTX, loaded with
 * cuModuleLoadDataEx) and once for the device's own architecture (sm_90, nvrtcGetCUBIN,
 * loaded with cuModuleLoadData, as CUDA's samples do), and a compilation error's log. */
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cu_check.h"
#define NV(call)                                                                           \
    do {                                                                                   \
        nvrtcResult r_ = (call);                                                           \
        if (r_ != NVRTC_SUCCESS) {                                                         \
            printf("%s failed: %s at line %d\n", #call, nvrtcGetErrorString(r_), __LINE__); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

static const char source[] =
    "template <typename T>\n"
    "__global__ void axpy(T a, const T *x, T *y, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "namespace ops {\n"
    "__device__ int square(int v) { return v * v; }\n"
    "__global__ void squares(int *out, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) out[i] = square(i) - 3;\n"
    "}\n"
    "}\n";

static const char *const names[] = {"axpy<float>", "axpy<double>", "&ops::squares"};

/* Compile source with the options; returns the program (compiled, names added). */
static nvrtcProgram compile(const char *arch_option) {
    nvrtcProgram prog;
    NV(nvrtcCreateProgram(&prog, source, "axpy.cu", 0, NULL, NULL));
    for (int i = 0; i < 3; i++) NV(nvrtcAddNameExpression(prog, names[i]));
    const char *opts[] = {arch_option, "--std=c++17"};
    nvrtcResult r = nvrtcCompileProgram(prog, 2, opts);
    if (r != NVRTC_SUCCESS) {
        size_t n;
        nvrtcGetProgramLogSize(prog, &n);
        char *log = malloc(n);
        nvrtcGetProgramLog(prog, log);
        printf("compile failed: %s\n%s\n", nvrtcGetErrorString(r), log);
        exit(1);
    }
    return prog;
}

static void run(CUmodule mod, nvrtcProgram prog, const char *how) {
    const int n = 1000;
    CUfunction f[3];
    for (int i = 0; i < 3; i++) {
        const char *lowered;
        NV(nvrtcGetLoweredName(prog, names[i], &lowered));
        CU(cuModuleGetFunction(&f[i], mod, lowered));
    }
    float xf[1000], yf[1000];
    double xd[1000], yd[1000];
    for (int i = 0; i < n; i++) {
        xf[i] = (float)i;
        yf[i] = 1.0f;
        xd[i] = i * 0.5;
        yd[i] = 2.0;
    }
    CUdeviceptr dxf, dyf, dxd, dyd, dout;
    CU(cuMemAlloc(&dxf, sizeof xf));
    CU(cuMemAlloc(&dyf, sizeof yf));
    CU(cuMemAlloc(&dxd, sizeof xd));
    CU(cuMemAlloc(&dyd, sizeof yd));
    CU(cuMemAlloc(&dout, n * sizeof(int)));
    CU(cuMemcpyHtoD(dxf, xf, sizeof xf));
    CU(cuMemcpyHtoD(dyf, yf, sizeof yf));
    CU(cuMemcpyHtoD(dxd, xd, sizeof xd));
    CU(cuMemcpyHtoD(dyd, yd, sizeof yd));
    float af = 3.0f;
    double ad = 0.25;
    int nn = n;
    void *argsf[] = {&af, &dxf, &dyf, &nn};
    void *argsd[] = {&ad, &dxd, &dyd, &nn};
    void *argsi[] = {&dout, &nn};
    CU(cuLaunchKernel(f[0], 4, 1, 1, 256, 1, 1, 0, NULL, argsf, NULL));
    CU(cuLaunchKernel(f[1], 4, 1, 1, 256, 1, 1, 0, NULL, argsd, NULL));
    CU(cuLaunchKernel(f[2], 4, 1, 1, 256, 1, 1, 0, NULL, argsi, NULL));
    int out[1000];
    CU(cuMemcpyDtoH(yf, dyf, sizeof yf));
    CU(cuMemcpyDtoH(yd, dyd, sizeof yd));
    CU(cuMemcpyDtoH(out, dout, sizeof out));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        bad += yf[i] != 3.0f * i + 1.0f;
        bad += yd[i] != 0.25 * (i * 0.5) + 2.0;
        bad += out[i] != i * i - 3;
    }
    printf("%s: %d mismatches; yf[999] = %.1f, yd[999] = %.4f, out[999] = %d\n", how, bad,
           yf[999], yd[999], out[999]);
    CU(cuMemFree(dxf));
    CU(cuMemFree(dyf));
    CU(cuMemFree(dxd));
    CU(cuMemFree(dyd));
    CU(cuMemFree(dout));
}

int main(void) {
    CU(cuInit(0));
    CUcontext ctx;
    CU(cuCtxCreate(&ctx, NULL, 0, 0));
    int major, minor;
    NV(nvrtcVersion(&major, &minor));
    printf("NVRTC %d.x\n", major);

    /* PTX for the virtual architecture */
    nvrtcProgram prog = compile("--gpu-architecture=compute_90");
    size_t size;
    NV(nvrtcGetPTXSize(prog, &size));
    char *ptx = malloc(size);
    NV(nvrtcGetPTX(prog, ptx));
    printf("PTX mentions .target sm_90: %s\n", strstr(ptx, ".target sm_90") ? "yes" : "no");
    CUmodule mod;
    CU(cuModuleLoadDataEx(&mod, ptx, 0, NULL, NULL));
    run(mod, prog, "PTX");
    CU(cuModuleUnload(mod));
    NV(nvrtcDestroyProgram(&prog));
    free(ptx);

    /* a cubin for the device's own architecture */
    prog = compile("-arch=sm_90");
    NV(nvrtcGetCUBINSize(prog, &size));
    char *cubin = malloc(size);
    NV(nvrtcGetCUBIN(prog, cubin));
    CU(cuModuleLoadData(&mod, cubin));
    run(mod, prog, "cubin");
    CU(cuModuleUnload(mod));
    NV(nvrtcDestroyProgram(&prog));
    free(cubin);

    /* a compilation error */
    nvrtcProgram broken;
    NV(nvrtcCreateProgram(&broken, "__global__ void k() { undefined_thing(); }\n", "broken.cu",
                          0, NULL, NULL));
    const char *opt = "--gpu-architecture=sm_90";
    nvrtcResult r = nvrtcCompileProgram(broken, 1, &opt);
    size_t logsize;
    NV(nvrtcGetProgramLogSize(broken, &logsize));
    char *log = malloc(logsize);
    NV(nvrtcGetProgramLog(broken, log));
    printf("broken program: %s; log names the identifier: %s\n", nvrtcGetErrorString(r),
           strstr(log, "undefined_thing") ? "yes" : "no");
    r = nvrtcGetCUBINSize(broken, &size);
    printf("cubin of the broken program: %s\n", nvrtcGetErrorString(r));
    NV(nvrtcDestroyProgram(&broken));
    free(log);
    CU(cuCtxDestroy(ctx));
    return 0;
}
