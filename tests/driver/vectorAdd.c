/* tests/driver/vectorAdd.c — a driver-API program as CUDA's samples write one: cuInit,
 * the device, a context, a module loaded from a PTX file, memory, cuLaunchKernel with
 * kernelParams and with the packed `extra` buffer, globals, dynamic shared memory.
 * Usage: vectorAdd <kernels.ptx> */
#include <cuda.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cu_check.h"

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s kernels.ptx\n", argv[0]);
        return 2;
    }
    CU(cuInit(0));
    int version = 0, count = 0, major = 0, minor = 0;
    CU(cuDriverGetVersion(&version));
    CU(cuDeviceGetCount(&count));
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    printf("driver API %d.%d, %d device(s), compute capability %d.%d\n", version / 1000,
           version % 1000 / 10, count, major, minor);

    CUcontext ctx;
    CU(cuCtxCreate(&ctx, NULL, 0, dev));
    CUmodule mod;
    CU(cuModuleLoad(&mod, argv[1]));
    CUfunction vecAdd, axpbyc, countHits, sharedReverse;
    CU(cuModuleGetFunction(&vecAdd, mod, "vecAdd"));
    CU(cuModuleGetFunction(&axpbyc, mod, "axpbyc"));
    CU(cuModuleGetFunction(&countHits, mod, "countHits"));
    CU(cuModuleGetFunction(&sharedReverse, mod, "sharedReverse"));

    enum { N = 50000 };
    size_t bytes = N * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(N - i) * 0.25f;
    }
    CUdeviceptr da, db, dc;
    CU(cuMemAlloc(&da, bytes));
    CU(cuMemAlloc(&db, bytes));
    CU(cuMemAlloc(&dc, bytes));
    CU(cuMemcpyHtoD(da, a, bytes));
    CU(cuMemcpyHtoD(db, b, bytes));
    int n = N;
    void *args[] = {&da, &db, &dc, &n};
    int threads = 256, blocks = (N + threads - 1) / threads;
    CU(cuLaunchKernel(vecAdd, blocks, 1, 1, threads, 1, 1, 0, NULL, args, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(c, dc, bytes));
    int bad = 0;
    double sum = 0;
    for (int i = 0; i < N; i++) {
        if (c[i] != a[i] + b[i]) bad++;
        sum += c[i];
    }
    printf("vecAdd: %d mismatches, sum %.1f\n", bad, sum);

    /* the same arguments packed as the kernel's parameters are laid out */
    struct packed_args {
        double a;
        CUdeviceptr x;
        char tag;
        char pad[3];
        float b;
        CUdeviceptr y;
        int n;
    } packed = {2.0, da, 3, {0}, 0.5f, dc, N};
    size_t size = offsetof(struct packed_args, n) + sizeof packed.n; /* no tail padding */
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    CU(cuLaunchKernel(axpbyc, blocks, 1, 1, threads, 1, 1, 0, NULL, NULL, extra));
    CU(cuMemcpyDtoH(c, dc, bytes));
    bad = 0;
    for (int i = 0; i < N; i++) {
        float want = (float)(2.0 * a[i]) + 0.5f * (a[i] + b[i]) + 3.0f;
        if (c[i] != want) bad++;
    }
    printf("axpbyc (extra buffer): %d mismatches, y[7] = %.3f\n", bad, c[7]);

    /* module globals: set the constant, read the counter back */
    CUdeviceptr dbias, dhits, dtable;
    size_t bias_size, hits_size, table_size;
    CU(cuModuleGetGlobal(&dbias, &bias_size, mod, "bias"));
    CU(cuModuleGetGlobal(&dhits, &hits_size, mod, "hits"));
    CU(cuModuleGetGlobal(&dtable, &table_size, mod, "table"));
    int bias = 100;
    CU(cuMemcpyHtoD(dbias, &bias, sizeof bias));
    CUdeviceptr dout;
    CU(cuMemAlloc(&dout, 1000 * sizeof(int)));
    CU(cuMemsetD32(dout, 0xdeadbeef, 1000));
    int m = 1000;
    void *args2[] = {&dout, &m};
    CU(cuLaunchKernel(countHits, 4, 1, 1, 256, 1, 1, 0, NULL, args2, NULL));
    int hits = 0, out[1000];
    CU(cuMemcpyDtoH(&hits, dhits, sizeof hits));
    CU(cuMemcpyDtoH(out, dout, sizeof out));
    printf("globals: bias %zu bytes, hits %zu bytes, table %zu bytes; hits = %d, out[0] = %d, "
           "out[999] = %d\n", bias_size, hits_size, table_size, hits, out[0], out[999]);

    /* dynamic shared memory */
    int rev[128];
    for (int i = 0; i < 128; i++) rev[i] = i * 3;
    CU(cuMemcpyHtoD(dout, rev, sizeof rev));
    int nrev = 128;
    void *args3[] = {&dout, &nrev};
    CU(cuLaunchKernel(sharedReverse, 1, 1, 1, 128, 1, 1, 128 * sizeof(int), NULL, args3, NULL));
    CU(cuMemcpyDtoH(rev, dout, sizeof rev));
    printf("sharedReverse: rev[0] = %d, rev[127] = %d\n", rev[0], rev[127]);

    CU(cuMemFree(da));
    CU(cuMemFree(db));
    CU(cuMemFree(dc));
    CU(cuMemFree(dout));
    CU(cuModuleUnload(mod));
    CU(cuCtxDestroy(ctx));
    free(a);
    free(b);
    free(c);
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad ? 1 : 0;
}
