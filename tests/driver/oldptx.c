/* tests/driver/oldptx.c — PTX as old programs embed it (ISA 1.4, .target sm_10 with
 * map_f64_to_f32, 16-bit special-register moves) loads and runs: a kernel doubling an
 * array. Usage: oldptx <old_isa14.ptx> */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#include "cu_check.h"

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 2;
    char *ptx = calloc(1, 1 << 16);
    size_t got = fread(ptx, 1, (1 << 16) - 1, f);
    fclose(f);
    if (!got) return 2;
    CU(cuInit(0));
    CUcontext ctx;
    CU(cuCtxCreate(&ctx, NULL, 0, 0));
    CUmodule mod;
    CU(cuModuleLoadData(&mod, ptx));
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "_Z6scaleXPfi"));
    float h[300];
    for (int i = 0; i < 300; i++) h[i] = (float)i;
    CUdeviceptr d;
    CU(cuMemAlloc(&d, sizeof h));
    CU(cuMemcpyHtoD(d, h, sizeof h));
    int n = 300;
    void *args[] = {&d, &n};
    CU(cuLaunchKernel(fn, 3, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CU(cuMemcpyDtoH(h, d, sizeof h));
    int bad = 0;
    for (int i = 0; i < 300; i++) bad += h[i] != 2.0f * i;
    printf("PTX ISA 1.4 for sm_10: %d mismatches, h[299] = %.1f\n", bad, h[299]);
    CU(cuModuleUnload(mod));
    CU(cuCtxDestroy(ctx));
    free(ptx);
    return bad != 0;
}
