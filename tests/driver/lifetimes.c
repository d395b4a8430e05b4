/* tests/driver/lifetimes.c — handles used after what they name is gone: a module unloaded,
 * its function, a library unloaded, a link state destroyed, a context destroyed (and
 * pushed again), a stream and an event destroyed... each gets the driver API's documented
 * CUresult, never a crash (expected/lifetimes.derived). Usage: lifetimes <kernels.ptx> */
#include <cuda.h>
#include <stdio.h>

static void show(const char *what, CUresult r) {
    const char *name = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS) name = "(unknown)";
    printf("%-44s %s\n", what, name);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    CUcontext ctx, other;
    show("cuInit", cuInit(0));
    show("cuCtxCreate", cuCtxCreate(&ctx, NULL, 0, 0));
    CUmodule mod;
    CUfunction f;
    show("cuModuleLoad", cuModuleLoad(&mod, argv[1]));
    show("cuModuleGetFunction", cuModuleGetFunction(&f, mod, "vecAdd"));
    show("cuModuleUnload", cuModuleUnload(mod));
    show("cuModuleUnload again", cuModuleUnload(mod));
    show("cuModuleGetFunction of an unloaded module", cuModuleGetFunction(&f, mod, "vecAdd"));
    CUdeviceptr d = 0;
    int n = 1;
    void *args[] = {&d, &d, &d, &n};
    show("cuLaunchKernel of an unloaded function", cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL,
                                                                  args, NULL));
    CUlibrary lib;
    CUkernel k;
    show("cuLibraryLoadFromFile", cuLibraryLoadFromFile(&lib, argv[1], NULL, NULL, 0, NULL, NULL, 0));
    show("cuLibraryUnload", cuLibraryUnload(lib));
    show("cuLibraryUnload again", cuLibraryUnload(lib));
    show("cuLibraryGetKernel of an unloaded library", cuLibraryGetKernel(&k, lib, "vecAdd"));
    CUlinkState link;
    show("cuLinkCreate", cuLinkCreate(0, NULL, NULL, &link));
    show("cuLinkDestroy", cuLinkDestroy(link));
    show("cuLinkDestroy again", cuLinkDestroy(link));
    CUstream s;
    CUevent e;
    show("cuStreamCreate", cuStreamCreate(&s, 0));
    show("cuEventCreate", cuEventCreate(&e, 0));
    show("cuEventRecord", cuEventRecord(e, s));
    show("cuStreamSynchronize", cuStreamSynchronize(s));
    show("cuStreamDestroy", cuStreamDestroy(s));
    show("cuEventDestroy", cuEventDestroy(e));
    show("cuStreamSynchronize of a destroyed stream", cuStreamSynchronize(s));
    show("cuEventSynchronize of a destroyed event", cuEventSynchronize(e));
    show("cuCtxCreate (another)", cuCtxCreate(&other, NULL, 0, 0));
    show("cuCtxDestroy (it)", cuCtxDestroy(other));
    show("cuCtxDestroy again", cuCtxDestroy(other));
    show("cuCtxPushCurrent of a destroyed context", cuCtxPushCurrent(other));
    CUcontext cur = NULL;
    show("cuCtxGetCurrent", cuCtxGetCurrent(&cur));
    printf("current is the first context: %s\n", cur == ctx ? "yes" : "no");
    show("cuCtxDestroy (the first)", cuCtxDestroy(ctx));
    show("cuMemAlloc with no context left", cuMemAlloc(&d, 16));
    return 0;
}
