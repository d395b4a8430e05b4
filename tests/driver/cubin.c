/* tests/driver/cubin.c — machine code vcuda cannot run: a cubin (cuModuleLoad of
 * kernels.cubin, the same bytes through cuModuleLoadData, and as a cuLinkAddData input)
 * and a fatbin holding SASS only. Each fails with CUDA_ERROR_NO_BINARY_FOR_GPU and a
 * message on stderr saying how to build with PTX; a GPU would load them
 * (expected/cubin.derived). Usage: cubin (run where kernels.cubin and sass.fatbin are) */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

static void show(const char *what, CUresult r) {
    const char *name = NULL;
    cuGetErrorName(r, &name);
    printf("%s: %s\n", what, name ? name : "?");
}

int main(void) {
    cuInit(0);
    CUcontext ctx;
    cuCtxCreate(&ctx, NULL, 0, 0);
    CUmodule mod;
    show("cuModuleLoad(kernels.cubin)", cuModuleLoad(&mod, "kernels.cubin"));
    show("cuModuleLoad(sass.fatbin)", cuModuleLoad(&mod, "sass.fatbin"));
    FILE *f = fopen("kernels.cubin", "rb");
    if (!f) return 2;
    char *buf = calloc(1, 1 << 20);
    size_t n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    show("cuModuleLoadData(cubin bytes)", cuModuleLoadData(&mod, buf));
    CUlinkState link;
    cuLinkCreate(0, NULL, NULL, &link);
    show("cuLinkAddData(CU_JIT_INPUT_CUBIN)",
         cuLinkAddData(link, CU_JIT_INPUT_CUBIN, buf, n, "kernels.cubin", 0, NULL, NULL));
    cuLinkDestroy(link);
    free(buf);
    cuCtxDestroy(ctx);
    return 0;
}
