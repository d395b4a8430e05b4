/* tests/driver/dplink.c — JIT linking as programs with dynamic parallelism do it: the
 * relocatable PTX of a kernel that launches kernels, plus the device runtime library
 * (cuLinkAddFile of libcudadevrt.a, which vcuda serves itself), linked with cuLink*,
 * loaded and launched. The program checks what the child grids wrote
 * (expected/dplink.derived). Usage: dplink <link_dp.ptx> <libcudadevrt.a> */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#include "cu_check.h"

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    CU(cuInit(0));
    CUcontext ctx;
    CU(cuCtxCreate(&ctx, NULL, 0, 0));
    CUlinkState link;
    CU(cuLinkCreate(0, NULL, NULL, &link));
    CU(cuLinkAddFile(link, CU_JIT_INPUT_PTX, argv[1], 0, NULL, NULL));
    CU(cuLinkAddFile(link, CU_JIT_INPUT_LIBRARY, argv[2], 0, NULL, NULL));
    void *image;
    size_t size;
    CU(cuLinkComplete(link, &image, &size));
    CUmodule mod;
    CU(cuModuleLoadData(&mod, image));
    CU(cuLinkDestroy(link));
    CUfunction parent;
    CU(cuModuleGetFunction(&parent, mod, "parent"));
    CUdeviceptr d;
    CU(cuMemAlloc(&d, 64 * sizeof(int)));
    CU(cuMemsetD32(d, 0xffffffffu, 64));
    int groups = 8;
    void *args[] = {&d, &groups};
    CU(cuLaunchKernel(parent, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
    CU(cuCtxSynchronize());
    int out[64], bad = 0;
    CU(cuMemcpyDtoH(out, d, sizeof out));
    for (int i = 0; i < 64; i++) bad += out[i] != (i / 8) * 8 + (i % 8) * 2;
    printf("child grids launched from a JIT-linked kernel: %d mismatches, out[63] = %d\n", bad,
           out[63]);
    CU(cuModuleUnload(mod));
    CU(cuCtxDestroy(ctx));
    return bad != 0;
}
