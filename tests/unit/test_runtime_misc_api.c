/* tests/unit/test_runtime_misc_api.c — the smaller entry points runtime/device_misc.c
 * answers for the one emulated device: the device by its PCI bus id, peer attributes,
 * valid devices, GPUDirect RDMA flushes, asynchronous notifications, driver entry points,
 * a kernel's parameter layout, the batched prefetches, discards and copies, range
 * attributes of managed memory, graph copies to and from variables, and stream-ordered
 * allocation inside a capture (memory nodes; tests/cuda/rtapi/capture_mem.cu for more). */
#include "test_runtime_common.h"

static char stub_add;
static char shadow_cscale[16];
static test_wrapper w_main;

static void on_notification(cudaAsyncNotificationInfo_t *info, void *data,
                            cudaAsyncCallbackHandle_t h) {
    (void)info;
    (void)h;
    ++*(int *)data;
}

int main(void) {
    unsigned long long *fb = test_load("sm90_zstd.fatbin", NULL);
    void **h = test_register(fb, &w_main);
    test_register_kernel(h, &stub_add, "_Z3addPKfPfid");
    __cudaRegisterVar(h, shadow_cscale, "cscale", "cscale", 0, 16, 1, 0);
    __cudaRegisterFatBinaryEnd(h);

    /* the PCI bus id the device reports finds it, in both of CUDA's spellings */
    char bus[32];
    int dev = -1;
    CHECK_ERR(cudaDeviceGetPCIBusId(bus, sizeof bus, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceGetByPCIBusId(&dev, bus), cudaSuccess);
    CHECK(dev == 0);
    dev = -1;
    CHECK_ERR(cudaDeviceGetByPCIBusId(&dev, strchr(bus, ':') + 1), cudaSuccess); /* bus:dev.fn */
    CHECK(dev == 0);
    CHECK_ERR(cudaDeviceGetByPCIBusId(&dev, "0000:ff:1f.0"), cudaErrorInvalidDevice);
    CHECK_ERR(cudaDeviceGetByPCIBusId(&dev, "nonsense"), cudaErrorInvalidValue);

    int v = 0;
    CHECK_ERR(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0),
              cudaErrorInvalidDevice);
    int valid[] = {0, 0};
    CHECK_ERR(cudaSetValidDevices(valid, 2), cudaSuccess);
    valid[1] = 1;
    CHECK_ERR(cudaSetValidDevices(valid, 2), cudaErrorInvalidDevice);
    CHECK_ERR(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                                 cudaFlushGPUDirectRDMAWritesToOwner),
              cudaSuccess);

    int calls = 0;
    cudaAsyncCallbackHandle_t cb = NULL;
    CHECK_ERR(cudaDeviceRegisterAsyncNotification(0, on_notification, &calls, &cb), cudaSuccess);
    CHECK(cb != NULL);
    CHECK_ERR(cudaDeviceRegisterAsyncNotification(1, on_notification, &calls, &cb),
              cudaErrorInvalidDevice);
    CHECK_ERR(cudaDeviceUnregisterAsyncNotification(0, cb), cudaSuccess);
    CHECK(calls == 0);

    /* a driver function libvcuda does not export is not found, without an error */
    void *fn = (void *)&calls;
    enum cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSuccess;
    CHECK_ERR(cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 13000, cudaEnableDefault,
                                               &status),
              cudaSuccess);
    CHECK(fn == NULL && status == cudaDriverEntryPointSymbolNotFound);
    CHECK_ERR(cudaGetDriverEntryPointByVersion(NULL, &fn, 13000, cudaEnableDefault, &status),
              cudaErrorInvalidValue);

    /* add(const float *a, float *b, int n, double s): offsets 0, 8, 16, 24 */
    size_t off = 99, size = 99;
    CHECK_ERR(cudaFuncGetParamInfo(&stub_add, 2, &off, &size), cudaSuccess);
    CHECK(off == 16 && size == 4);
    CHECK_ERR(cudaFuncGetParamInfo(&stub_add, 3, &off, &size), cudaSuccess);
    CHECK(off == 24 && size == 8);
    CHECK_ERR(cudaFuncGetParamInfo(&stub_add, 4, &off, &size), cudaErrorInvalidValue);
    cudaKernel_t k = NULL;
    CHECK_ERR(cudaGetKernel(&k, &stub_add), cudaSuccess);
    CHECK_ERR(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              1024, 0),
              cudaSuccess);
    struct cudaFuncAttributes fa;
    CHECK_ERR(cudaFuncGetAttributes(&fa, &stub_add), cudaSuccess);
    CHECK(fa.maxDynamicSharedSizeBytes == 1024);

    /* batches */
    int *m = NULL, *d1 = NULL, *d2 = NULL;
    CHECK_ERR(cudaMallocManaged((void **)&m, 4096, cudaMemAttachGlobal), cudaSuccess);
    CHECK_ERR(cudaMalloc((void **)&d1, 4096), cudaSuccess);
    CHECK_ERR(cudaMalloc((void **)&d2, 4096), cudaSuccess);
    void *ptrs[] = {m, d1};
    size_t sizes[] = {4096, 4096};
    struct cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
    size_t idx = 0;
    CHECK_ERR(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, &loc, &idx, 1, 0, 0), cudaSuccess);
    CHECK_ERR(cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, 0), cudaSuccess);
    sizes[1] = 4097; /* one byte past d1 */
    CHECK_ERR(cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, 0), cudaErrorInvalidValue);
    int host[1024], back[1024];
    for (int i = 0; i < 1024; i++) host[i] = i * 3;
    cudaStream_t s;
    CHECK_ERR(cudaStreamCreate(&s), cudaSuccess);
    void *dsts[] = {d1, d2};
    const void *srcs[] = {host, d1};
    size_t bytes[] = {4096, 4096};
    struct cudaMemcpyAttributes attr;
    memset(&attr, 0, sizeof attr);
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    CHECK_ERR(cudaMemcpyBatchAsync(dsts, srcs, bytes, 2, &attr, &idx, 1, s), cudaSuccess);
    CHECK_ERR(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_ERR(cudaMemcpy(back, d2, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(memcmp(back, host, sizeof back) == 0);

    /* a 3D copy "between devices", from device 0 to device 0 */
    struct cudaMemcpy3DPeerParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = (struct cudaPitchedPtr){d2, 1024, 1024, 4};
    p.dstPtr = (struct cudaPitchedPtr){m, 1024, 1024, 4};
    p.extent = (struct cudaExtent){1024, 4, 1};
    CHECK_ERR(cudaMemcpy3DPeer(&p), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess); /* device to device: asynchronous */
    CHECK(memcmp(m, host, 4096) == 0);
    p.dstDevice = 1;
    CHECK_ERR(cudaMemcpy3DPeer(&p), cudaErrorInvalidDevice);
    cudaGetLastError();

    /* graph copies to and from a __constant__ variable (graph_params.c) */
    float in[4] = {1.5f, 2.5f, 3.5f, 4.5f}, out[4] = {0};
    cudaGraph_t g;
    cudaGraphNode_t to, from;
    CHECK_ERR(cudaGraphCreate(&g, 0), cudaSuccess);
    CHECK_ERR(cudaGraphAddMemcpyNodeToSymbol(&to, g, NULL, 0, shadow_cscale, in, 8, 4,
                                             cudaMemcpyHostToDevice),
              cudaSuccess);
    CHECK_ERR(cudaGraphAddMemcpyNodeFromSymbol(&from, g, &to, 1, out, shadow_cscale, 16, 0,
                                               cudaMemcpyDeviceToHost),
              cudaSuccess);
    CHECK_ERR(cudaGraphAddMemcpyNodeToSymbol(&to, g, NULL, 0, shadow_cscale, in, 16, 4,
                                             cudaMemcpyHostToDevice),
              cudaErrorInvalidValue); /* past the variable's end */
    cudaGraphExec_t x;
    CHECK_ERR(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    CHECK_ERR(cudaGraphLaunch(x, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    CHECK(out[0] == 0.0f && out[1] == 1.5f && out[2] == 2.5f && out[3] == 0.0f);
    /* a node is needed to change */
    CHECK_ERR(cudaGraphExecMemcpyNodeSetParamsToSymbol(x, NULL, shadow_cscale,
                                                       in, 8, 8, cudaMemcpyHostToDevice),
              cudaErrorInvalidValue); /* no node */
    cudaGetLastError();

    /* advice and prefetches of managed memory come back as range attributes (memrange.c) */
    int rm = -5, pref = -5, last = -5, by[3] = {7, 7, 7};
    CHECK_ERR(cudaMemRangeGetAttribute(&rm, 4, cudaMemRangeAttributeReadMostly, m, 4096),
              cudaSuccess);
    CHECK_ERR(cudaMemRangeGetAttribute(&last, 4, cudaMemRangeAttributeLastPrefetchLocation, m,
                                       4096),
              cudaSuccess);
    CHECK(rm == 0 && last == 0); /* prefetched to device 0 by the batch above */
    struct cudaMemLocation host_loc = {cudaMemLocationTypeHost, 0};
    CHECK_ERR(cudaMemAdvise(m, 4096, cudaMemAdviseSetReadMostly, loc), cudaSuccess);
    CHECK_ERR(cudaMemAdvise(m, 4096, cudaMemAdviseSetPreferredLocation, host_loc), cudaSuccess);
    CHECK_ERR(cudaMemAdvise(m, 4096, cudaMemAdviseSetAccessedBy, loc), cudaSuccess);
    void *datas[] = {&rm, &pref, by};
    size_t dsizes[] = {4, 4, sizeof by};
    enum cudaMemRangeAttribute attrs[] = {cudaMemRangeAttributeReadMostly,
                                          cudaMemRangeAttributePreferredLocation,
                                          cudaMemRangeAttributeAccessedBy};
    CHECK_ERR(cudaMemRangeGetAttributes(datas, dsizes, attrs, 3, m, 4096), cudaSuccess);
    CHECK(rm == 1 && pref == cudaCpuDeviceId);
    CHECK(by[0] == 0 && by[1] == cudaInvalidDeviceId && by[2] == cudaInvalidDeviceId);
    CHECK_ERR(cudaMemAdvise(m, 4096, cudaMemAdviseUnsetPreferredLocation, host_loc), cudaSuccess);
    CHECK_ERR(cudaMemRangeGetAttribute(&pref, 4, cudaMemRangeAttributePreferredLocation, m, 4096),
              cudaSuccess);
    CHECK(pref == cudaInvalidDeviceId);
    CHECK_ERR(cudaMemRangeGetAttribute(&pref, 4, cudaMemRangeAttributePreferredLocation, d1, 4),
              cudaErrorInvalidValue); /* not managed memory */
    cudaGetLastError();

    /* stream-ordered allocation in a capture: memory alloc and free nodes, in order */
    cudaStream_t cs;
    cudaGraph_t cg = NULL;
    void *pa = NULL;
    CHECK_ERR(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking), cudaSuccess);
    CHECK_ERR(cudaStreamBeginCapture(cs, cudaStreamCaptureModeRelaxed), cudaSuccess);
    CHECK_ERR(cudaMallocAsync(&pa, 64, cs), cudaSuccess);
    CHECK(pa != NULL);
    CHECK_ERR(cudaFreeAsync(pa, cs), cudaSuccess);
    CHECK_ERR(cudaStreamEndCapture(cs, &cg), cudaSuccess);
    cudaGraphNode_t cn[2];
    size_t ncn = 2;
    CHECK_ERR(cudaGraphGetNodes(cg, cn, &ncn), cudaSuccess);
    enum cudaGraphNodeType t0 = cudaGraphNodeTypeEmpty, t1 = cudaGraphNodeTypeEmpty;
    CHECK(ncn == 2);
    if (ncn == 2) {
        CHECK_ERR(cudaGraphNodeGetType(cn[0], &t0), cudaSuccess);
        CHECK_ERR(cudaGraphNodeGetType(cn[1], &t1), cudaSuccess);
    }
    CHECK(t0 == cudaGraphNodeTypeMemAlloc && t1 == cudaGraphNodeTypeMemFree);
    CHECK_ERR(cudaGraphDestroy(cg), cudaSuccess);
    CHECK_ERR(cudaMallocAsync(&pa, 64, cs), cudaSuccess); /* outside a capture it works */
    CHECK_ERR(cudaFreeAsync(pa, cs), cudaSuccess);
    CHECK_ERR(cudaStreamSynchronize(cs), cudaSuccess);
    cudaGetLastError();
    return test_finish("test_runtime_misc_api");
}
