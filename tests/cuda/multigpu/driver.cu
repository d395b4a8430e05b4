/* driver.cu — the driver API's devices and peers: cuDeviceGetCount and cuDeviceGet, names
 * and attributes per device, a created context per device and the primary contexts, the
 * device a context belongs to (cuCtxGetDevice), cuDeviceCanAccessPeer, cuMemcpyPeer and
 * cuMemcpyPeerAsync between the devices' contexts, peer access between contexts, and the
 * errors of bad ordinals. */
// nvcc-flags: -lcuda
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>

static const char *name_of(CUresult r) {
    const char *s = NULL;
    cuGetErrorName(r, &s);
    return s ? s : "?";
}

#define SHOWD(label, call) printf("%s: %s\n", label, name_of(call))
#define OKD(call)                                                                        \
    do {                                                                                 \
        CUresult r_ = (call);                                                            \
        if (r_ != CUDA_SUCCESS) {                                                        \
            printf("FAILED %s:%d: %s: %s\n", __FILE__, __LINE__, #call, name_of(r_));    \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

int main() {
    OKD(cuInit(0));
    int n = 0;
    OKD(cuDeviceGetCount(&n));
    printf("devices: %d\n", n >= 2 ? 2 : n);
    if (n < 2) return 1;
    CUdevice dev[2];
    CUdevice bad;
    SHOWD("cuDeviceGet(n)", cuDeviceGet(&bad, n));
    SHOWD("cuDeviceGet(-1)", cuDeviceGet(&bad, -1));
    char name0[128], name1[128];
    for (int i = 0; i < 2; i++) OKD(cuDeviceGet(&dev[i], i));
    OKD(cuDeviceGetName(name0, sizeof name0, dev[0]));
    OKD(cuDeviceGetName(name1, sizeof name1, dev[1]));
    printf("same name: %d\n", strcmp(name0, name1) == 0);
    for (int i = 0; i < 2; i++) {
        int sms = 0, major = 0, bus = 0;
        OKD(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev[i]));
        OKD(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev[i]));
        OKD(cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, dev[i]));
        printf("device %d: major %d, %d SMs\n", i, major, sms);
    }
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            int can = -1;
            CUresult r = cuDeviceCanAccessPeer(&can, dev[a], dev[b]);
            printf("cuDeviceCanAccessPeer(%d,%d): %s %d\n", a, b, name_of(r), can);
        }

    /* a created context per device */
    CUcontext ctx[2];
    for (int i = 0; i < 2; i++) OKD(cuCtxCreate(&ctx[i], NULL, 0, dev[i]));
    CUdevice cd = -1;
    OKD(cuCtxGetDevice(&cd));
    printf("current context's device after creating both: %d\n", (int)cd);
    OKD(cuCtxSetCurrent(ctx[0]));
    OKD(cuCtxGetDevice(&cd));
    printf("after cuCtxSetCurrent(ctx0): %d\n", (int)cd);

    const size_t N = 4096, bytes = N * sizeof(int);
    CUdeviceptr p0, p1;
    OKD(cuMemAlloc(&p0, bytes));
    OKD(cuCtxSetCurrent(ctx[1]));
    OKD(cuMemAlloc(&p1, bytes));
    int *h = (int *)malloc(bytes);
    for (size_t i = 0; i < N; i++) h[i] = (int)(i * 3);
    OKD(cuMemcpyHtoD(p1, h, bytes));
    memset(h, 0, bytes);
    unsigned long long ord = 99;
    OKD(cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, p0));
    printf("p0's ordinal: %llu\n", ord);
    OKD(cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, p1));
    printf("p1's ordinal: %llu\n", ord);
    OKD(cuMemcpyPeer(p0, ctx[0], p1, ctx[1], bytes));
    OKD(cuCtxSetCurrent(ctx[0]));
    OKD(cuMemcpyDtoH(h, p0, bytes));
    long long s = 0;
    for (size_t i = 0; i < N; i++) s += h[i];
    printf("cuMemcpyPeer 1->0: sum %lld\n", s);
    CUstream st;
    OKD(cuStreamCreate(&st, 0));
    OKD(cuMemsetD32(p0, 5, N));
    OKD(cuMemcpyPeerAsync(p1, ctx[1], p0, ctx[0], bytes, st));
    OKD(cuStreamSynchronize(st));
    OKD(cuMemcpyDtoH(h, p1, bytes));
    s = 0;
    for (size_t i = 0; i < N; i++) s += h[i];
    printf("cuMemcpyPeerAsync 0->1: sum %lld\n", s);

    /* peer access between contexts (ctx0 current) */
    SHOWD("cuCtxEnablePeerAccess(ctx1)", cuCtxEnablePeerAccess(ctx[1], 0));
    SHOWD("cuCtxEnablePeerAccess(ctx1) again", cuCtxEnablePeerAccess(ctx[1], 0));
    SHOWD("cuCtxDisablePeerAccess(ctx1)", cuCtxDisablePeerAccess(ctx[1]));
    SHOWD("cuCtxDisablePeerAccess(ctx1) again", cuCtxDisablePeerAccess(ctx[1]));
    SHOWD("cuCtxEnablePeerAccess(ctx0) (itself)", cuCtxEnablePeerAccess(ctx[0], 0));

    /* primary contexts are per device */
    CUcontext pc0, pc1;
    OKD(cuDevicePrimaryCtxRetain(&pc0, dev[0]));
    OKD(cuDevicePrimaryCtxRetain(&pc1, dev[1]));
    printf("primary contexts differ: %d, differ from created: %d\n", pc0 != pc1,
           pc0 != ctx[0] && pc1 != ctx[1]);
    OKD(cuCtxSetCurrent(pc1));
    OKD(cuCtxGetDevice(&cd));
    printf("primary context 1's device: %d\n", (int)cd);
    OKD(cuDevicePrimaryCtxRelease(dev[0]));
    OKD(cuDevicePrimaryCtxRelease(dev[1]));
    OKD(cuCtxSetCurrent(ctx[0]));
    OKD(cuStreamDestroy(st));
    OKD(cuMemFree(p0));
    OKD(cuCtxSetCurrent(ctx[1]));
    OKD(cuMemFree(p1));
    for (int i = 0; i < 2; i++) OKD(cuCtxDestroy(ctx[i]));
    free(h);
    printf("done\n");
    return 0;
}
