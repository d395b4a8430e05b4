/* tests/unit/test_runtime_multidev.c — several devices in one process: VCUDA_DEVICE lists
 * (gpu_preset_list), CUDA_VISIBLE_DEVICES renumbering them, each device's own properties,
 * identity and memory accounting, the owner cudaPointerGetAttributes names, streams and
 * events of each device, peer access and its errors, and cudaDeviceReset of one device
 * (its memory and streams go, the other devices' stay). */
#include "test_runtime_common.h"

static void test_lists(void) {
    const gpu_preset *l[GPU_MAX_DEVICES];
    char err[512];
    CHECK(gpu_preset_list("h100", l, GPU_MAX_DEVICES, err, sizeof err) == 1);
    CHECK(gpu_preset_list("h100x4", l, GPU_MAX_DEVICES, err, sizeof err) == 4 &&
          l[3] == gpu_preset_find("h100"));
    CHECK(gpu_preset_list("h100,A100", l, GPU_MAX_DEVICES, err, sizeof err) == 2 &&
          l[1] == gpu_preset_find("a100"));
    CHECK(gpu_preset_list("v100x2,k40", l, GPU_MAX_DEVICES, err, sizeof err) == 3 &&
          l[1] == gpu_preset_find("v100") && l[2] == gpu_preset_find("k40"));
    CHECK(gpu_preset_list("h100x16", l, GPU_MAX_DEVICES, err, sizeof err) == 16);
    CHECK(gpu_preset_list("h100x17", l, GPU_MAX_DEVICES, err, sizeof err) == 0 &&
          strstr(err, "more than 16"));
    const char *bad[] = {"", "h100,", ",h100", "h100,,a100", "h100x0", "h100x", "x2", "h200",
                         "h100x2y"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        CHECK(gpu_preset_list(bad[i], l, GPU_MAX_DEVICES, err, sizeof err) == 0 && err[0]);
    }
}

int main(void) {
    test_lists();
    /* three devices, the A100 (place 2 in the list) first */
    setenv("VCUDA_DEVICE", "h100x2,a100", 1);
    setenv("CUDA_VISIBLE_DEVICES", "2, 0,1,7", 1);
    int n = 0;
    CHECK_ERR(cudaGetDeviceCount(&n), cudaSuccess);
    CHECK(n == 3);
    struct cudaDeviceProp p[3];
    for (int d = 0; d < 3; d++) CHECK_ERR(cudaGetDeviceProperties(&p[d], d), cudaSuccess);
    CHECK(p[0].major == 8 && p[1].major == 9 && p[2].major == 9);
    CHECK(p[0].multiProcessorCount == 108 && p[1].multiProcessorCount == 132);
    CHECK(p[1].pciDeviceID + 1 == p[2].pciDeviceID && p[0].pciDeviceID == p[1].pciDeviceID + 2);
    CHECK(memcmp(&p[1].uuid, &p[2].uuid, sizeof p[1].uuid) != 0);
    CHECK_ERR(cudaGetDeviceProperties(&p[0], 3), cudaErrorInvalidDevice);
    int v = 0;
    CHECK_ERR(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    CHECK(v == 108);
    char bus[32];
    int found = -1;
    CHECK_ERR(cudaDeviceGetPCIBusId(bus, sizeof bus, 2), cudaSuccess);
    CHECK_ERR(cudaDeviceGetByPCIBusId(&found, bus), cudaSuccess);
    CHECK(found == 2);

    /* memory: each device counts its own */
    size_t free0, free1, total0, total1;
    void *a = NULL, *b = NULL, *m = NULL;
    CHECK_ERR(cudaSetDevice(1), cudaSuccess);
    CHECK_ERR(cudaMemGetInfo(&free1, &total1), cudaSuccess);
    CHECK_ERR(cudaMalloc(&a, 1 << 20), cudaSuccess);
    CHECK_ERR(cudaSetDevice(2), cudaSuccess);
    CHECK_ERR(cudaMalloc(&b, 1 << 20), cudaSuccess);
    CHECK_ERR(cudaMallocManaged(&m, 4096, cudaMemAttachGlobal), cudaSuccess);
    CHECK_ERR(cudaSetDevice(0), cudaSuccess);
    CHECK_ERR(cudaMemGetInfo(&free0, &total0), cudaSuccess);
    CHECK(total0 == p[0].totalGlobalMem && total1 == p[1].totalGlobalMem);
    CHECK(free0 == total0 - 4096);                  /* managed memory counts everywhere */
    CHECK_ERR(cudaSetDevice(1), cudaSuccess);
    size_t f;
    CHECK_ERR(cudaMemGetInfo(&f, &total1), cudaSuccess);
    CHECK(f == free1 - (1 << 20) - 4096);
    struct cudaPointerAttributes at;
    CHECK_ERR(cudaPointerGetAttributes(&at, (char *)b + 10), cudaSuccess);
    CHECK(at.type == cudaMemoryTypeDevice && at.device == 2);
    CHECK_ERR(cudaPointerGetAttributes(&at, a), cudaSuccess);
    CHECK(at.device == 1);

    /* streams and events belong to the device current at creation */
    cudaStream_t s1, s2;
    cudaEvent_t e1, e2;
    CHECK_ERR(cudaStreamCreate(&s1), cudaSuccess);
    CHECK_ERR(cudaEventCreate(&e1), cudaSuccess);
    CHECK_ERR(cudaSetDevice(2), cudaSuccess);
    CHECK_ERR(cudaStreamCreate(&s2), cudaSuccess);
    CHECK_ERR(cudaEventCreate(&e2), cudaSuccess);
    CHECK_ERR(cudaStreamGetDevice(s1, &v), cudaSuccess);
    CHECK(v == 1);
    CHECK_ERR(cudaStreamGetDevice(cudaStreamPerThread, &v), cudaSuccess);
    CHECK(v == 2);
    CHECK_ERR(cudaEventRecord(e1, s2), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaEventRecord(e2, s2), cudaSuccess);
    CHECK_ERR(cudaStreamWaitEvent(s1, e2, 0), cudaSuccess);
    CHECK_ERR(cudaMemcpyAsync(a, b, 1 << 20, cudaMemcpyDefault, s1), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_ERR(cudaStreamSynchronize(s1), cudaSuccess);

    /* peers */
    CHECK_ERR(cudaDeviceCanAccessPeer(&v, 2, 0), cudaSuccess);
    CHECK(v == 1);
    CHECK_ERR(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessAlreadyEnabled);
    CHECK_ERR(cudaDeviceEnablePeerAccess(2, 0), cudaErrorPeerAccessUnsupported);
    CHECK_ERR(cudaMemcpyPeer(b, 2, a, 1, 64), cudaSuccess);
    CHECK_ERR(cudaMemcpyPeer(b, 3, a, 1, 64), cudaErrorInvalidDevice);

    /* reset device 2: its memory, streams and events go, and peer access with it */
    CHECK_ERR(cudaDeviceReset(), cudaSuccess);
    CHECK_ERR(cudaPointerGetAttributes(&at, b), cudaSuccess);
    CHECK(at.type == cudaMemoryTypeUnregistered);
    CHECK_ERR(cudaPointerGetAttributes(&at, a), cudaSuccess);
    CHECK(at.type == cudaMemoryTypeDevice && at.device == 1);
    CHECK_ERR(cudaStreamQuery(s2), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaStreamQuery(s1), cudaSuccess);
    CHECK_ERR(cudaEventQuery(e2), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaEventQuery(e1), cudaSuccess);
    CHECK_ERR(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceDisablePeerAccess(1), cudaSuccess);
    CHECK_ERR(cudaSetDevice(1), cudaSuccess);
    CHECK_ERR(cudaStreamDestroy(s1), cudaSuccess);
    CHECK_ERR(cudaEventDestroy(e1), cudaSuccess);
    CHECK_ERR(cudaFree(a), cudaSuccess);
    cudaGetLastError();
    rt_context_shutdown();
    if (failures) fprintf(stderr, "%d failure(s)\n", failures);
    return failures != 0;
}
