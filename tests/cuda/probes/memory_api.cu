/* memory_api.cu — argument checking of the allocation, copy and pointer-query calls. */
#include "probe.h"
#include <cstdlib>

static void show_attr(const char *label, const void *ptr, const void *dev, const void *host,
                      const char *prefix = "") {
    cudaPointerAttributes a;
    memset(&a, 0x5a, sizeof a);
    cudaError_t e = cudaPointerGetAttributes(&a, ptr);
    if (e != cudaSuccess) {
        printf("%sattr %s: %s\n", prefix, label, en(e));
        SHOW_LAST("  last");
        return;
    }
    printf("%sattr %s: %s type=%d device=%d devptr=%s hostptr=%s\n", prefix, label, en(e), (int)a.type, a.device,
           a.devicePointer == dev ? "expected" : a.devicePointer == nullptr ? "null" : "other",
           a.hostPointer == host ? "expected" : a.hostPointer == nullptr ? "null" : "other");
}

int main() {
    char *d = nullptr, *d2 = nullptr;
    char hbuf[256], *hm = (char *)malloc(4096);
    memset(hbuf, 1, sizeof hbuf);
    SHOW("cudaMalloc 256", cudaMalloc(&d, 256));
    void *z = (void *)1;
    SHOW("cudaMalloc 0", cudaMalloc(&z, 0));
    printf("cudaMalloc 0 pointer is %s\n", z == nullptr ? "null" : "non-null");
    SHOW("cudaMalloc(NULL, 16)", cudaMalloc((void **)nullptr, 16));
    SHOW_LAST("  last");
    void *huge = nullptr;
    SHOW("cudaMalloc 2^50", cudaMalloc(&huge, 1ull << 50));
    SHOW_LAST("  last");
    SHOW("cudaMalloc after huge", cudaMalloc(&d2, 16));

    SHOW("cudaFree(NULL)", cudaFree(nullptr));
    SHOW("cudaFree(malloc ptr)", cudaFree(hm));
    SHOW_LAST("  last");
    SHOW("cudaFree(stack ptr)", cudaFree(hbuf));
    SHOW("cudaFree(d+4)", cudaFree(d2 + 4));
    SHOW_LAST("  last");
    SHOW("cudaFree(d2)", cudaFree(d2));
    SHOW("cudaFree(d2) again", cudaFree(d2));
    SHOW_LAST("  last");
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());

    /* copies */
    SHOW("memcpy H2D ok", cudaMemcpy(d, hbuf, 256, cudaMemcpyHostToDevice));
    SHOW("memcpy D2H ok", cudaMemcpy(hbuf, d, 256, cudaMemcpyDeviceToHost));
    SHOW("memcpy H2D dst=malloc", cudaMemcpy(hm, hbuf, 256, cudaMemcpyHostToDevice));
    SHOW_LAST("  last");
    SHOW("memcpy D2H src=malloc", cudaMemcpy(hbuf, hm, 256, cudaMemcpyDeviceToHost));
    SHOW("memcpy H2D dst=NULL", cudaMemcpy(nullptr, hbuf, 256, cudaMemcpyHostToDevice));
    SHOW("memcpy H2D src=NULL", cudaMemcpy(d, nullptr, 256, cudaMemcpyHostToDevice));
    SHOW("memcpy size 0 NULLs", cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyHostToDevice));
    SHOW("memcpy H2D past end", cudaMemcpy(d, hm, 257, cudaMemcpyHostToDevice));
    SHOW("memcpy D2H past end", cudaMemcpy(hm, d, 257, cudaMemcpyDeviceToHost));
    SHOW("memcpy H2D d+128 len 129", cudaMemcpy(d + 128, hm, 129, cudaMemcpyHostToDevice));
    SHOW("memcpy D2D ok", cudaMemcpy(d + 128, d, 128, cudaMemcpyDeviceToDevice));
    SHOW("memcpy D2D past end", cudaMemcpy(d + 128, d, 129, cudaMemcpyDeviceToDevice));
    SHOW("memcpy D2D with host src", cudaMemcpy(d, hm, 16, cudaMemcpyDeviceToDevice));
    SHOW("memcpy kind 7", cudaMemcpy(d, hm, 16, (cudaMemcpyKind)7));
    SHOW_LAST("  last");
    SHOW("memcpy kind -1", cudaMemcpy(d, hm, 16, (cudaMemcpyKind)-1));
    SHOW("memcpy default H2H", cudaMemcpy(hm, hbuf, 16, cudaMemcpyDefault));
    SHOW("memcpy default H2D", cudaMemcpy(d, hbuf, 16, cudaMemcpyDefault));
    SHOW("memcpy default D2H", cudaMemcpy(hbuf, d, 16, cudaMemcpyDefault));
    SHOW("memcpy H2H kind", cudaMemcpy(hm, hbuf, 16, cudaMemcpyHostToHost));
    SHOW("memcpy H2H kind device ptrs", cudaMemcpy(d, d + 16, 16, cudaMemcpyHostToHost));
    SHOW("memcpy D2H with both device", cudaMemcpy(d, d + 16, 16, cudaMemcpyDeviceToHost));
    SHOW("memcpy H2D with both host", cudaMemcpy(hm, hbuf, 16, cudaMemcpyHostToDevice));
    char *freed = nullptr;
    cudaMalloc(&freed, 64);
    cudaFree(freed);
    SHOW("memcpy H2D to freed", cudaMemcpy(freed, hbuf, 16, cudaMemcpyHostToDevice));
    SHOW_LAST("  last");
    SHOW("memcpyAsync H2D ok", cudaMemcpyAsync(d, hbuf, 16, cudaMemcpyHostToDevice, 0));
    SHOW("memcpyAsync H2D past end", cudaMemcpyAsync(d, hm, 300, cudaMemcpyHostToDevice, 0));
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());

    /* memset */
    SHOW("memset ok", cudaMemset(d, 0, 256));
    SHOW("memset past end", cudaMemset(d, 0, 257));
    SHOW("memset malloc ptr", cudaMemset(hm, 0, 16));
    SHOW("memset NULL", cudaMemset(nullptr, 0, 16));
    SHOW("memset NULL size 0", cudaMemset(nullptr, 0, 0));
    SHOW("memset freed", cudaMemset(freed, 0, 16));
    SHOW("memsetAsync ok", cudaMemsetAsync(d, 1, 16, 0));
    SHOW_LAST("  last");

    /* 2D */
    char *p2 = nullptr; size_t pitch = 0;
    SHOW("cudaMallocPitch 100x4", cudaMallocPitch((void **)&p2, &pitch, 100, 4));
    printf("pitch %zu\n", pitch);
    SHOW("memcpy2D ok", cudaMemcpy2D(p2, pitch, hm, 100, 100, 4, cudaMemcpyHostToDevice));
    SHOW("memcpy2D dpitch<width", cudaMemcpy2D(p2, 50, hm, 100, 100, 4, cudaMemcpyHostToDevice));
    SHOW_LAST("  last");
    SHOW("memcpy2D spitch<width", cudaMemcpy2D(p2, pitch, hm, 50, 100, 4, cudaMemcpyHostToDevice));
    SHOW("memcpy2D width 0", cudaMemcpy2D(p2, pitch, hm, 100, 0, 4, cudaMemcpyHostToDevice));
    SHOW("memcpy2D height 0", cudaMemcpy2D(p2, pitch, hm, 100, 100, 0, cudaMemcpyHostToDevice));
    SHOW("memcpy2D past end", cudaMemcpy2D(p2, pitch, hm, 100, 100, 5, cudaMemcpyHostToDevice));
    SHOW("memcpy2D D2H ok", cudaMemcpy2D(hm, 100, p2, pitch, 100, 4, cudaMemcpyDeviceToHost));
    SHOW("memset2D ok", cudaMemset2D(p2, pitch, 3, 100, 4));
    SHOW("memset2D pitch<width", cudaMemset2D(p2, 50, 3, 100, 4));
    SHOW("memset2D past end", cudaMemset2D(p2, pitch, 3, 100, 5));
    SHOW("memcpy2DAsync ok", cudaMemcpy2DAsync(p2, pitch, hm, 100, 100, 4, cudaMemcpyHostToDevice, 0));

    /* pinned and mapped host memory */
    char *ph = nullptr, *pm = nullptr, *bad = nullptr;
    SHOW("cudaMallocHost 256", cudaMallocHost((void **)&ph, 256));
    SHOW("cudaHostAlloc mapped", cudaHostAlloc((void **)&pm, 256, cudaHostAllocMapped));
    SHOW("cudaHostAlloc flags 0x100", cudaHostAlloc((void **)&bad, 256, 0x100));
    SHOW_LAST("  last");
    bad = (char *)1;
    SHOW("cudaHostAlloc size 0", cudaHostAlloc((void **)&bad, 0, 0));
    printf("pointer %s\n", bad ? "non-null" : "null");
    SHOW("cudaMallocHost(NULL)", cudaMallocHost(nullptr, 16));
    unsigned int hflags = 99;
    SHOW("cudaHostGetFlags pinned", cudaHostGetFlags(&hflags, ph));
    printf("flags %u\n", hflags);
    SHOW("cudaHostGetFlags mapped", cudaHostGetFlags(&hflags, pm));
    printf("flags %u\n", hflags);
    SHOW("cudaHostGetFlags malloc", cudaHostGetFlags(&hflags, hm));
    void *dp = nullptr;
    SHOW("cudaHostGetDevicePointer mapped", cudaHostGetDevicePointer(&dp, pm, 0));
    printf("device pointer %s\n", dp == pm ? "equals host pointer" : "differs");
    SHOW("cudaHostGetDevicePointer pinned", cudaHostGetDevicePointer(&dp, ph, 0));
    SHOW("cudaHostGetDevicePointer flags 1", cudaHostGetDevicePointer(&dp, pm, 1));
    SHOW("cudaHostGetDevicePointer malloc", cudaHostGetDevicePointer(&dp, hm, 0));
    SHOW("cudaHostGetDevicePointer device", cudaHostGetDevicePointer(&dp, d, 0));
    SHOW_LAST("  last");
    SHOW("memcpy H2D from pinned", cudaMemcpy(d, ph, 256, cudaMemcpyHostToDevice));
    SHOW("memcpy D2D into pinned", cudaMemcpy(ph, d, 256, cudaMemcpyDeviceToDevice));
    SHOW("memset pinned", cudaMemset(ph, 0, 16));
    SHOW("cudaFreeHost(device ptr)", cudaFreeHost(d));
    SHOW_LAST("  last");
    SHOW("cudaFreeHost(malloc ptr)", cudaFreeHost(hm));
    SHOW("cudaFreeHost(NULL)", cudaFreeHost(nullptr));
    SHOW("cudaFree(pinned)", cudaFree(ph));
    SHOW_LAST("  last");

    char *reg = (char *)malloc(8192);
    SHOW("cudaHostRegister", cudaHostRegister(reg, 8192, cudaHostRegisterDefault));
    SHOW("cudaHostRegister again", cudaHostRegister(reg, 8192, cudaHostRegisterDefault));
    SHOW_LAST("  last");
    SHOW("cudaHostRegister inner", cudaHostRegister(reg + 4096, 100, cudaHostRegisterDefault));
    SHOW("cudaHostRegister NULL", cudaHostRegister(nullptr, 100, 0));
    SHOW("cudaHostRegister size 0", cudaHostRegister(hm, 0, 0));
    SHOW("cudaHostRegister flags 0x100", cudaHostRegister(hm, 100, 0x100));
    SHOW("cudaHostGetDevicePointer registered", cudaHostGetDevicePointer(&dp, reg, 0));
    printf("device pointer %s\n", dp == reg ? "equals host pointer" : "differs");
    SHOW("cudaHostUnregister", cudaHostUnregister(reg));
    SHOW("cudaHostUnregister again", cudaHostUnregister(reg));
    SHOW_LAST("  last");
    SHOW("cudaHostUnregister NULL", cudaHostUnregister(nullptr));
    SHOW("cudaHostRegister again after unregister", cudaHostRegister(reg, 8192, 0));

    /* managed */
    char *mg = nullptr;
    SHOW("cudaMallocManaged global", cudaMallocManaged((void **)&mg, 256, cudaMemAttachGlobal));
    char *mg2 = nullptr;
    SHOW("cudaMallocManaged host", cudaMallocManaged((void **)&mg2, 256, cudaMemAttachHost));
    SHOW("cudaMallocManaged flags 0", cudaMallocManaged((void **)&bad, 256, 0));
    SHOW("cudaMallocManaged flags 4", cudaMallocManaged((void **)&bad, 256, 4));
    bad = (char *)1;
    SHOW("cudaMallocManaged size 0", cudaMallocManaged((void **)&bad, 0, cudaMemAttachGlobal));
    printf("pointer %s\n", bad ? "non-null" : "null");
    SHOW_LAST("  last");
    SHOW("memcpy managed default", cudaMemcpy(mg, hbuf, 16, cudaMemcpyDefault));
    SHOW("memcpy managed as H2D", cudaMemcpy(mg, hbuf, 16, cudaMemcpyHostToDevice));
    SHOW("memset managed", cudaMemset(mg, 0, 256));

    /* pointer attributes */
    show_attr("device", d, d, nullptr);
    show_attr("device+8", d + 8, d + 8, nullptr);
    show_attr("device+256 (one past)", d + 256, d + 256, nullptr);
    show_attr("pinned", pm, pm, pm);
    show_attr("pinned+8", pm + 8, pm + 8, pm + 8);
    show_attr("registered", reg, reg, reg);
    show_attr("managed", mg, mg, mg);
    show_attr("malloc", hm, nullptr, hm);
    show_attr("stack", hbuf, nullptr, hbuf);
    show_attr("NULL", nullptr, nullptr, nullptr);
    /* Where a freed pointer lands depends on how the driver reuses addresses. */
    show_attr("freed", freed, nullptr, freed, "info ");
    SHOW("cudaPointerGetAttributes(NULL attr)", cudaPointerGetAttributes(nullptr, d));

    size_t fr = 0, tot = 0;
    SHOW("cudaMemGetInfo", cudaMemGetInfo(&fr, &tot));
    printf("info total %zu free<=total %d\n", tot, fr <= tot);
    SHOW("cudaMemGetInfo(NULL)", cudaMemGetInfo(nullptr, &tot));
    SHOW("cudaFree(managed)", cudaFree(mg));
    SHOW("cudaFreeHost(mapped)", cudaFreeHost(pm));
    SHOW("cudaFree(pitch)", cudaFree(p2));
    SHOW("cudaFree(d)", cudaFree(d));
    SHOW_LAST("end");
    return 0;
}
