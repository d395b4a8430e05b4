/* tests/unit/test_runtime_api.c — the CUDA Runtime API on the emulated device, driven the
 * way a program compiled by nvcc drives it: registration of a real fatbin, launches
 * through the <<<>>> entry points and cudaLaunchKernel, and the argument checking of the
 * memory, symbol, stream, event, device and function calls, with the error codes an
 * H100 gives (tests/cuda/probes/expected). Device faults are in test_runtime_fault.c
 * (they leave the device unusable for the rest of the process). */
#include "test_runtime_common.h"

#include <math.h>
#include <pthread.h>

/* Stand-ins for the addresses nvcc registers: kernel stubs and variable shadows. */
static char stub_add, stub_missing, stub_bad_ptx, stub_sass, stub_not_a_kernel;
static char shadow_cscale[16], shadow_gcount[4], shadow_unregistered[4];
static test_wrapper w_main, w_bad, w_sass;
static unsigned long long *fb_main, *fb_bad, *fb_sass;

static void setup(void) {
    fb_main = test_load("sm90_zstd.fatbin", NULL);
    void **h = test_register(fb_main, &w_main);
    test_register_kernel(h, &stub_add, "_Z3addPKfPfid");
    test_register_kernel(h, &stub_missing, "_Z7missingv"); /* registered, not in the PTX */
    __cudaRegisterVar(h, shadow_cscale, "cscale", "cscale", 0, 16, 1, 0);
    __cudaRegisterVar(h, shadow_gcount, "gcount", "gcount", 0, 4, 0, 0);
    __cudaRegisterFatBinaryEnd(h);

    fb_bad = test_ptx_fatbin(".version 9.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry broken(\n{\n  this is not ptx;\n}\n",
                             90);
    h = test_register(fb_bad, &w_bad);
    test_register_kernel(h, &stub_bad_ptx, "broken");
    __cudaRegisterFatBinaryEnd(h);

    fb_sass = test_load("sass_only.fatbin", NULL);
    h = test_register(fb_sass, &w_sass);
    test_register_kernel(h, &stub_sass, "_Z3addPKfPfid");
    __cudaRegisterFatBinaryEnd(h);
}

/* Launch add as nvcc's generated stub does: push, pop, get kernel, launch. */
static cudaError_t launch_add(dim3 grid, dim3 block, size_t shared, cudaStream_t stream,
                              const float *a, float *b, int n, double s) {
    CHECK(__cudaPushCallConfiguration(grid, block, shared, stream) == 0);
    dim3 g, bl;
    size_t sh;
    cudaStream_t st;
    CHECK_ERR(__cudaPopCallConfiguration(&g, &bl, &sh, &st), cudaSuccess);
    CHECK(g.x == grid.x && bl.x == block.x && sh == shared && st == stream);
    cudaKernel_t k = NULL;
    CHECK_ERR(__cudaGetKernel(&k, &stub_add), cudaSuccess);
    void *args[] = {&a, &b, &n, &s};
    return __cudaLaunchKernel(k, g, bl, args, sh, st);
}

static void test_kernel_runs(void) {
    enum { N = 1000 };
    cudaGetLastError(); /* start clean */
    float *ha = malloc(N * sizeof *ha), *hb = malloc(N * sizeof *hb);
    for (int i = 0; i < N; i++) ha[i] = (float)i;
    float *da = NULL, *db = NULL;
    CHECK_ERR(cudaMalloc((void **)&da, N * sizeof(float)), cudaSuccess);
    CHECK_ERR(cudaMalloc((void **)&db, N * sizeof(float)), cudaSuccess);
    CHECK(((uintptr_t)da & 255) == 0);
    CHECK_ERR(cudaMemcpy(da, ha, N * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    float scale[4] = {2.0f, 0, 0, 0};
    CHECK_ERR(cudaMemcpyToSymbol(shadow_cscale, scale, sizeof scale, 0, cudaMemcpyHostToDevice),
              cudaSuccess);
    CHECK_ERR(launch_add(d3(4, 1, 1), d3(256, 1, 1), 0, 0, da, db, N, 0.5), cudaSuccess);
    CHECK_ERR(cudaGetLastError(), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_ERR(cudaMemcpy(hb, db, N * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (hb[i] != 2.0f * (float)i + 0.5f) bad++;
    CHECK(bad == 0);
    int count = 0;
    CHECK_ERR(cudaMemcpyFromSymbol(&count, shadow_gcount, sizeof count, 0, cudaMemcpyDeviceToHost),
              cudaSuccess);
    CHECK(count == 4 * 256);

    /* The same through cudaLaunchKernel, on a created stream. */
    cudaStream_t s;
    CHECK_ERR(cudaStreamCreate(&s), cudaSuccess);
    int n = N;
    double sh = -1.0;
    void *args[] = {&da, &db, &n, &sh};
    CHECK_ERR(cudaLaunchKernel(&stub_add, d3(8, 1, 1), d3(128, 1, 1), args, 0, s), cudaSuccess);
    CHECK_ERR(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_ERR(cudaMemcpy(hb, db, N * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(hb[10] == 19.0f && hb[999] == 1997.0f);
    CHECK_ERR(cudaMemcpyFromSymbol(&count, shadow_gcount, sizeof count, 0, cudaMemcpyDeviceToHost),
              cudaSuccess);
    CHECK(count == 2 * 1024);
    CHECK_ERR(cudaStreamDestroy(s), cudaSuccess);
    CHECK_ERR(cudaFree(da), cudaSuccess);
    CHECK_ERR(cudaFree(db), cudaSuccess);
    free(ha);
    free(hb);
}

/* Every bad configuration is cudaErrorInvalidValue in CUDA 13, and none is sticky. */
static void test_launch_checks(void) {
    float *p = NULL;
    const dim3 one = d3(1, 1, 1);
    struct { dim3 grid, block; size_t shared; } bad[] = {
        {d3(1, 1, 1), d3(1025, 1, 1), 0},   {d3(1, 1, 1), d3(32, 32, 2), 0},
        {d3(1, 1, 1), d3(1, 1, 65), 0},     {d3(1, 1, 1), d3(1, 1025, 1), 0},
        {d3(1, 1, 1), d3(0, 1, 1), 0},      {d3(0, 1, 1), d3(1, 1, 1), 0},
        {d3(1, 0, 1), d3(1, 1, 1), 0},      {d3(1, 1, 0), d3(1, 1, 1), 0},
        {d3(1, 65536, 1), d3(1, 1, 1), 0},  {d3(1, 1, 65536), d3(1, 1, 1), 0},
        {d3(2147483648u, 1, 1), d3(1, 1, 1), 0}, {d3(1, 1, 1), d3(32, 1, 1), 49153},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_ERR(launch_add(bad[i].grid, bad[i].block, bad[i].shared, 0, p, p, 0, 0),
                  cudaErrorInvalidValue);
        CHECK_ERR(cudaPeekAtLastError(), cudaErrorInvalidValue);
        CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
        CHECK_ERR(cudaGetLastError(), cudaSuccess);
    }
    CHECK_ERR(launch_add(one, d3(1024, 1, 1), 49152, 0, p, p, 0, 0), cudaSuccess);
    CHECK_ERR(launch_add(d3(1, 65535, 1), one, 0, 0, p, p, 0, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);

    /* Raising the kernel's dynamic limit to the opt-in maximum. */
    uint64_t optin = 232448;
    CHECK_ERR(cudaFuncSetAttribute(&stub_add, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)optin),
              cudaSuccess);
    CHECK_ERR(launch_add(one, one, optin, 0, p, p, 0, 0), cudaSuccess);
    CHECK_ERR(launch_add(one, one, optin + 1, 0, p, p, 0, 0), cudaErrorInvalidValue);
    CHECK_ERR(cudaFuncSetAttribute(&stub_add, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)optin + 1),
              cudaErrorInvalidValue);
    CHECK_ERR(cudaFuncSetAttribute(&stub_add, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152),
              cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);

    void *args[4] = {&p, &p, &p, &p};
    CHECK_ERR(cudaLaunchKernel(NULL, one, one, args, 0, 0), cudaErrorInvalidDeviceFunction);
    CHECK_ERR(cudaLaunchKernel(&stub_not_a_kernel, one, one, args, 0, 0),
              cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaLaunchKernel(&stub_add, one, one, args, 0, (cudaStream_t)&stub_not_a_kernel),
              cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaLaunchKernel(&stub_missing, one, one, NULL, 0, 0), cudaErrorInvalidDeviceFunction);
    cudaKernel_t k = (cudaKernel_t)&stub_add;
    CHECK_ERR(__cudaGetKernel(&k, &stub_not_a_kernel), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    dim3 g, b;
    size_t sh;
    cudaStream_t st;
    CHECK_ERR(__cudaPopCallConfiguration(&g, &b, &sh, &st), cudaErrorMissingConfiguration);
}

/* Modules that cannot load say why once and keep failing with CUDA's code. */
static void test_bad_modules(void) {
    void *args[4] = {0};
    CHECK_ERR(cudaLaunchKernel(&stub_bad_ptx, d3(1, 1, 1), d3(1, 1, 1), args, 0, 0),
              cudaErrorInvalidPtx);
    CHECK_ERR(cudaLaunchKernel(&stub_bad_ptx, d3(1, 1, 1), d3(1, 1, 1), args, 0, 0),
              cudaErrorInvalidPtx);
    CHECK_ERR(cudaLaunchKernel(&stub_sass, d3(1, 1, 1), d3(1, 1, 1), args, 0, 0),
              cudaErrorNoKernelImageForDevice);
    struct cudaFuncAttributes fa;
    CHECK_ERR(cudaFuncGetAttributes(&fa, &stub_sass), cudaErrorNoKernelImageForDevice);
    /* Not sticky: the good module still works. */
    CHECK_ERR(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
}

static void test_memory(void) {
    char *d = NULL, host[512], *hm = malloc(4096);
    memset(host, 7, sizeof host);
    CHECK_ERR(cudaMalloc((void **)&d, 256), cudaSuccess);
    void *z = (void *)1;
    CHECK_ERR(cudaMalloc(&z, 0), cudaSuccess);
    CHECK(z == NULL);
    CHECK_ERR(cudaMalloc(NULL, 16), cudaErrorInvalidValue);
    CHECK_ERR(cudaMalloc(&z, 1ull << 50), cudaErrorMemoryAllocation);
    CHECK_ERR(cudaFree(NULL), cudaSuccess);
    CHECK_ERR(cudaFree(hm), cudaErrorInvalidValue);
    CHECK_ERR(cudaFree(d + 4), cudaErrorInvalidValue);

    /* Fresh device memory reads as zeros. */
    CHECK_ERR(cudaMemcpy(host, d, 256, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(host[0] == 0 && host[255] == 0);
    /* copies are checked against the allocation, to the byte */
    CHECK_ERR(cudaMemcpy(d, hm, 257, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemcpy(d + 128, hm, 129, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemcpy(hm, host, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemcpy(host, hm, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemcpy(NULL, host, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemcpy(NULL, NULL, 0, cudaMemcpyHostToDevice), cudaSuccess);
    CHECK_ERR(cudaMemcpy(d, hm, 16, (enum cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    CHECK_ERR(cudaMemcpy(d, d + 16, 16, cudaMemcpyDeviceToHost), cudaSuccess); /* inferred */
    CHECK_ERR(cudaMemcpy(hm, host, 16, cudaMemcpyDefault), cudaSuccess);
    memset(host, 3, 64);
    CHECK_ERR(cudaMemcpy(d, host, 64, cudaMemcpyDefault), cudaSuccess);
    CHECK_ERR(cudaMemset(d + 8, 9, 8), cudaSuccess);
    CHECK_ERR(cudaMemset(d, 0, 257), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemset(hm, 0, 16), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemcpy(host, d, 64, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(host[0] == 3 && host[8] == 9 && host[15] == 9 && host[16] == 3);

    /* pitched memory */
    char *p2 = NULL;
    size_t pitch = 0;
    CHECK_ERR(cudaMallocPitch((void **)&p2, &pitch, 100, 4), cudaSuccess);
    CHECK(pitch == 512);
    CHECK_ERR(cudaMallocPitch((void **)&z, &pitch, 513, 1), cudaSuccess);
    CHECK(pitch == 1024);
    CHECK_ERR(cudaFree(z), cudaSuccess);
    for (int i = 0; i < 400; i++) hm[i] = (char)i;
    CHECK_ERR(cudaMemcpy2D(p2, 512, hm, 100, 100, 4, cudaMemcpyHostToDevice), cudaSuccess);
    CHECK_ERR(cudaMemcpy2D(p2, 50, hm, 100, 100, 4, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
    CHECK_ERR(cudaMemcpy2D(p2, 512, hm, 100, 100, 5, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemset2D(p2, 50, 0, 100, 4), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemcpy(host, p2 + 512, 100, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(host[0] == (char)100 && host[99] == (char)199);
    CHECK_ERR(cudaFree(p2), cudaSuccess);

    /* pinned, mapped and registered host memory */
    char *pinned = NULL, *reg = malloc(8192);
    unsigned flags = 0;
    void *dp = NULL;
    CHECK_ERR(cudaMallocHost((void **)&pinned, 256), cudaSuccess);
    CHECK_ERR(cudaHostGetFlags(&flags, pinned), cudaSuccess);
    CHECK(flags == cudaHostAllocMapped);
    CHECK_ERR(cudaHostGetDevicePointer(&dp, pinned, 0), cudaSuccess);
    CHECK(dp == pinned);
    CHECK_ERR(cudaHostGetDevicePointer(&dp, pinned, 1), cudaErrorInvalidValue);
    CHECK_ERR(cudaHostGetDevicePointer(&dp, hm, 0), cudaErrorInvalidValue);
    CHECK_ERR(cudaHostAlloc((void **)&z, 16, 0x100), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemcpy(pinned, d, 256, cudaMemcpyDeviceToDevice), cudaSuccess);
    CHECK_ERR(cudaFree(pinned), cudaErrorInvalidValue);
    CHECK_ERR(cudaFreeHost(d), cudaErrorInvalidValue);
    CHECK_ERR(cudaHostRegister(reg, 8192, 0), cudaSuccess);
    CHECK_ERR(cudaHostRegister(reg + 4096, 100, 0), cudaErrorHostMemoryAlreadyRegistered);
    CHECK_ERR(cudaHostRegister(NULL, 100, 0), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemset(reg, 1, 8192), cudaSuccess);
    CHECK(reg[8191] == 1); /* host-visible memory is set by the time the call returns */
    CHECK_ERR(cudaHostUnregister(reg), cudaSuccess);
    CHECK_ERR(cudaHostUnregister(reg), cudaErrorHostMemoryNotRegistered);

    /* managed memory */
    char *mg = NULL;
    CHECK_ERR(cudaMallocManaged((void **)&mg, 256, cudaMemAttachGlobal), cudaSuccess);
    CHECK_ERR(cudaMallocManaged((void **)&z, 256, 0), cudaErrorInvalidValue);
    CHECK_ERR(cudaMallocManaged((void **)&z, 256, cudaMemAttachSingle), cudaErrorInvalidValue);
    mg[5] = 42;
    CHECK_ERR(cudaMemcpy(host, mg, 8, cudaMemcpyDefault), cudaSuccess);
    CHECK(host[5] == 42);

    /* pointer attributes */
    struct cudaPointerAttributes a;
    CHECK_ERR(cudaPointerGetAttributes(&a, d + 8), cudaSuccess);
    CHECK(a.type == cudaMemoryTypeDevice && a.device == 0 && a.devicePointer == d + 8 && !a.hostPointer);
    CHECK_ERR(cudaPointerGetAttributes(&a, d + 256), cudaSuccess);
    CHECK(a.type == cudaMemoryTypeUnregistered && a.device == -2 && !a.devicePointer &&
          a.hostPointer == d + 256);
    CHECK_ERR(cudaPointerGetAttributes(&a, pinned), cudaSuccess);
    CHECK(a.type == cudaMemoryTypeHost && a.devicePointer == pinned && a.hostPointer == pinned);
    CHECK_ERR(cudaPointerGetAttributes(&a, mg), cudaSuccess);
    CHECK(a.type == cudaMemoryTypeManaged);
    CHECK_ERR(cudaPointerGetAttributes(NULL, d), cudaErrorInvalidValue);

    size_t fr = 0, tot = 0;
    CHECK_ERR(cudaMemGetInfo(&fr, &tot), cudaSuccess);
    CHECK(tot == 85017493504ull && fr < tot && tot - fr >= 256 + 256);
    CHECK_ERR(cudaMemGetInfo(NULL, NULL), cudaSuccess);

    CHECK_ERR(cudaFree(mg), cudaSuccess);
    CHECK_ERR(cudaFreeHost(pinned), cudaSuccess);
    CHECK_ERR(cudaFree(d), cudaSuccess);
    CHECK_ERR(cudaFree(d), cudaErrorInvalidValue);
    CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    free(reg);
    free(hm);
}

/* Allocations of 2 MiB and more are whole pages of their own, on a 2 MiB boundary (the
 * host's huge pages), zeroed, usable to their last byte and no further, and given back
 * whole: many of them in turn, of sizes that are and are not multiples of 2 MiB. */
static void test_large_allocations(void) {
    const size_t sizes[] = {2u << 20, (2u << 20) + 1, (5u << 20) + 4096 + 100, 64u << 20};
    unsigned char edge[2];
    for (int round = 0; round < 3; round++) {
        unsigned char *d[4], *pinned = NULL;
        for (int i = 0; i < 4; i++) {
            CHECK_ERR(cudaMalloc((void **)&d[i], sizes[i]), cudaSuccess);
            CHECK(((uintptr_t)d[i] & ((2u << 20) - 1)) == 0);
            CHECK_ERR(cudaMemcpy(edge, d[i] + sizes[i] - 2, 2, cudaMemcpyDeviceToHost), cudaSuccess);
            CHECK(edge[0] == 0 && edge[1] == 0);
            CHECK_ERR(cudaMemset(d[i], 0x5a, sizes[i]), cudaSuccess);
            CHECK_ERR(cudaMemcpy(edge, d[i] + sizes[i] - 2, 2, cudaMemcpyDeviceToHost), cudaSuccess);
            CHECK(edge[0] == 0x5a && edge[1] == 0x5a);
            /* one byte past the end belongs to no allocation */
            CHECK_ERR(cudaMemset(d[i], 0, sizes[i] + 1), cudaErrorInvalidValue);
        }
        CHECK_ERR(cudaMallocHost((void **)&pinned, 3u << 20), cudaSuccess);
        CHECK(((uintptr_t)pinned & ((2u << 20) - 1)) == 0);
        pinned[(3u << 20) - 1] = 7;
        CHECK_ERR(cudaMemcpy(d[3], pinned, 3u << 20, cudaMemcpyHostToDevice), cudaSuccess);
        CHECK_ERR(cudaMemcpy(edge, d[3] + (3u << 20) - 1, 1, cudaMemcpyDeviceToHost), cudaSuccess);
        CHECK(edge[0] == 7);
        CHECK_ERR(cudaFreeHost(pinned), cudaSuccess);
        for (int i = 0; i < 4; i++) CHECK_ERR(cudaFree(d[i]), cudaSuccess);
    }
}

static void test_memory3d(void) {
    struct cudaExtent x = {100, 3, 4}; /* bytes, rows, slices */
    struct cudaPitchedPtr p;
    CHECK_ERR(cudaMalloc3D(&p, x), cudaSuccess);
    CHECK(p.ptr && p.pitch == 512 && p.xsize == 100 && p.ysize == 3);
    CHECK_ERR(cudaMemset3D(p, 0x11, x), cudaSuccess);
    unsigned char host[4][3][100], back[4][3][100];
    for (int z = 0; z < 4; z++)
        for (int y = 0; y < 3; y++)
            for (int i = 0; i < 100; i++) host[z][y][i] = (unsigned char)(z * 31 + y * 7 + i);
    struct cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = (struct cudaPitchedPtr){host, 100, 100, 3};
    cp.dstPtr = p;
    cp.extent = (struct cudaExtent){100, 3, 2}; /* the first two slices */
    cp.kind = cudaMemcpyHostToDevice;
    CHECK_ERR(cudaMemcpy3D(&cp), cudaSuccess);
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = p;
    cp.dstPtr = (struct cudaPitchedPtr){back, 100, 100, 3};
    cp.extent = x;
    cp.kind = cudaMemcpyDeviceToHost;
    CHECK_ERR(cudaMemcpy3D(&cp), cudaSuccess);
    CHECK(memcmp(back[0], host[0], sizeof back[0]) == 0 && memcmp(back[1], host[1], sizeof back[1]) == 0);
    CHECK(back[2][0][0] == 0x11 && back[3][2][99] == 0x11);
    cp.extent.depth = 5; /* one slice past the allocation */
    CHECK_ERR(cudaMemcpy3D(&cp), cudaErrorInvalidValue);
    cp.extent = x;
    cp.srcArray = (cudaArray_t)&stub_not_a_kernel; /* no array */
    CHECK_ERR(cudaMemcpy3D(&cp), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaFree(p.ptr), cudaSuccess);
}

static void test_symbols(void) {
    float v[4] = {1, 2, 3, 4}, back[4] = {0};
    CHECK_ERR(cudaMemcpyToSymbol(shadow_cscale, v, 16, 0, cudaMemcpyHostToDevice), cudaSuccess);
    CHECK_ERR(cudaMemcpyToSymbol(shadow_cscale, v, 17, 0, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemcpyToSymbol(shadow_cscale, v, 12, 8, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_ERR(cudaMemcpyToSymbol(shadow_cscale, v, 0, 17, cudaMemcpyHostToDevice), cudaSuccess);
    CHECK_ERR(cudaMemcpyToSymbol(shadow_cscale, v, 8, 8, cudaMemcpyHostToDevice), cudaSuccess);
    CHECK_ERR(cudaMemcpyToSymbol(shadow_cscale, v, 16, 0, cudaMemcpyDeviceToHost),
              cudaErrorInvalidMemcpyDirection);
    CHECK_ERR(cudaMemcpyToSymbol(shadow_unregistered, v, 4, 0, cudaMemcpyHostToDevice),
              cudaErrorInvalidSymbol);
    CHECK_ERR(cudaMemcpyFromSymbol(back, shadow_cscale, 16, 0, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(back[0] == 1 && back[1] == 2 && back[2] == 1 && back[3] == 2);
    CHECK_ERR(cudaMemcpyFromSymbol(back, shadow_cscale, 16, 0, cudaMemcpyHostToDevice),
              cudaErrorInvalidMemcpyDirection);
    void *addr = NULL;
    size_t size = 0;
    CHECK_ERR(cudaGetSymbolAddress(&addr, shadow_cscale), cudaSuccess);
    CHECK_ERR(cudaGetSymbolSize(&size, shadow_cscale), cudaSuccess);
    CHECK(addr != NULL && size == 16);
    CHECK_ERR(cudaGetSymbolAddress(&addr, shadow_unregistered), cudaErrorInvalidSymbol);
    float w[4] = {0};
    CHECK_ERR(cudaMemcpy(w, addr, 16, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(w[3] == 2);
    CHECK_ERR(cudaMemcpy(w, addr, 20, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
}

static int host_fn_order[8], host_fn_n;
static void host_fn(void *data) { host_fn_order[host_fn_n++] = *(int *)data; }
static cudaError_t cb_status = cudaErrorUnknown;
static void stream_cb(cudaStream_t s, cudaError_t status, void *data) {
    (void)s;
    cb_status = status;
    host_fn(data);
}

static void test_streams_events(void) {
    cudaStream_t s, s2, s3;
    CHECK_ERR(cudaStreamCreate(&s), cudaSuccess);
    CHECK_ERR(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
    CHECK_ERR(cudaStreamCreateWithFlags(&s3, 4), cudaErrorInvalidValue);
    CHECK_ERR(cudaStreamCreateWithPriority(&s3, 0, -100), cudaSuccess);
    int prio = 1;
    unsigned flags = 9;
    CHECK_ERR(cudaStreamGetPriority(s3, &prio), cudaSuccess);
    CHECK(prio == -5);
    CHECK_ERR(cudaStreamGetFlags(s2, &flags), cudaSuccess);
    CHECK(flags == cudaStreamNonBlocking);
    int lo = 1, hi = 1;
    CHECK_ERR(cudaDeviceGetStreamPriorityRange(&lo, &hi), cudaSuccess);
    CHECK(lo == 0 && hi == -5);

    cudaEvent_t a, b, c;
    float ms = -1;
    CHECK_ERR(cudaEventCreate(&a), cudaSuccess);
    CHECK_ERR(cudaEventCreate(&b), cudaSuccess);
    CHECK_ERR(cudaEventCreateWithFlags(&c, cudaEventDisableTiming), cudaSuccess);
    CHECK_ERR(cudaEventCreateWithFlags(&c, 0x80), cudaErrorInvalidValue);
    CHECK_ERR(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaEventQuery(a), cudaSuccess);
    CHECK_ERR(cudaEventSynchronize(a), cudaSuccess);

    /* Host functions and callbacks run on the device's host-function thread once their
     * stream reaches them (here: when the program synchronises). */
    static int one = 1, two = 2, three = 3;
    host_fn_n = 0;
    CHECK_ERR(cudaEventRecord(a, s), cudaSuccess);
    CHECK_ERR(cudaLaunchHostFunc(s, host_fn, &one), cudaSuccess);
    CHECK_ERR(launch_add(d3(1, 1, 1), d3(32, 1, 1), 0, s, NULL, NULL, 0, 0.0), cudaSuccess);
    CHECK_ERR(cudaStreamAddCallback(s2, stream_cb, &two, 0), cudaSuccess);
    CHECK_ERR(cudaLaunchHostFunc(0, host_fn, &three), cudaSuccess);
    CHECK_ERR(cudaEventRecord(b, s), cudaSuccess);
    CHECK_ERR(cudaEventElapsedTime(&ms, a, b), cudaErrorNotReady);
    CHECK_ERR(cudaEventSynchronize(b), cudaSuccess);
    CHECK(host_fn_n == 3 && host_fn_order[0] == 1 && host_fn_order[1] == 2 && host_fn_order[2] == 3);
    CHECK(cb_status == cudaSuccess);
    CHECK_ERR(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    CHECK(ms >= 0.0f);
    CHECK_ERR(cudaEventElapsedTime(&ms, b, a), cudaSuccess);
    CHECK(ms <= 0.0f);
    CHECK_ERR(cudaEventElapsedTime(NULL, a, b), cudaErrorInvalidValue);
    CHECK_ERR(cudaEventRecord(c, s), cudaSuccess);
    CHECK_ERR(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_ERR(cudaEventElapsedTime(&ms, a, c), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaEventRecordWithFlags(a, s, 0x10), cudaErrorInvalidValue);

    CHECK_ERR(cudaStreamWaitEvent(s2, b, 0), cudaSuccess);
    CHECK_ERR(cudaStreamWaitEvent(s2, b, 5), cudaErrorInvalidValue);
    CHECK_ERR(cudaStreamWaitEvent(s2, NULL, 0), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaLaunchHostFunc(s, NULL, NULL), cudaErrorInvalidValue);
    CHECK_ERR(cudaStreamAddCallback(s, stream_cb, NULL, 1), cudaErrorInvalidValue);
    CHECK_ERR(cudaStreamQuery(s), cudaSuccess);
    CHECK_ERR(cudaStreamSynchronize(cudaStreamPerThread), cudaSuccess);
    CHECK_ERR(cudaStreamSynchronize(cudaStreamLegacy), cudaSuccess);

    /* An event recorded and destroyed before the work ran: the record still completes. */
    CHECK_ERR(cudaEventRecord(a, s), cudaSuccess);
    CHECK_ERR(cudaEventDestroy(a), cudaSuccess);
    CHECK_ERR(cudaEventDestroy(a), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaEventDestroy(NULL), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaEventDestroy(b), cudaSuccess);
    CHECK_ERR(cudaEventDestroy(c), cudaSuccess);
    CHECK_ERR(cudaStreamDestroy(s), cudaSuccess);
    CHECK_ERR(cudaStreamDestroy(s), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaStreamDestroy(0), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaStreamDestroy(s2), cudaSuccess);
    CHECK_ERR(cudaStreamDestroy(s3), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
}

static void test_device(void) {
    int n = 0, dev = -1, v = 0;
    CHECK_ERR(cudaGetDeviceCount(&n), cudaSuccess);
    CHECK(n == 1);
    CHECK_ERR(cudaSetDevice(7), cudaErrorInvalidDevice);
    CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
    CHECK_ERR(cudaSetDevice(0), cudaSuccess);
    CHECK_ERR(cudaGetDevice(&dev), cudaSuccess);
    CHECK(dev == 0);
    struct cudaDeviceProp p;
    CHECK_ERR(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    CHECK(strcmp(p.name, "NVIDIA H100 80GB HBM3") == 0 && p.major == 9 && p.minor == 0);
    CHECK(p.multiProcessorCount == 132 && p.sharedMemPerBlockOptin == 232448 && p.warpSize == 32);
    CHECK_ERR(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);
    /* Every attribute CUDA 13 knows answers; 0 and unknown numbers do not. */
    for (int attr = 1; attr <= 147; attr++) CHECK_ERR(cudaDeviceGetAttribute(&v, attr, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceGetAttribute(&v, 0, 0), cudaErrorInvalidValue);
    CHECK_ERR(cudaDeviceGetAttribute(&v, 148, 0), cudaErrorInvalidValue);
    CHECK_ERR(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0), cudaSuccess);
    CHECK(v == 1980000);
    CHECK_ERR(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 3), cudaErrorInvalidDevice);
    CHECK_ERR(cudaRuntimeGetVersion(&v), cudaSuccess);
    CHECK(v == 13000);

    size_t lim = 0;
    CHECK_ERR(cudaDeviceGetLimit(&lim, cudaLimitStackSize), cudaSuccess);
    CHECK(lim == 1024);
    CHECK_ERR(cudaDeviceSetLimit(cudaLimitStackSize, 1000), cudaSuccess);
    CHECK_ERR(cudaDeviceGetLimit(&lim, cudaLimitStackSize), cudaSuccess);
    CHECK(lim == 1008);
    CHECK_ERR(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1000), cudaSuccess);
    CHECK_ERR(cudaDeviceGetLimit(&lim, cudaLimitPrintfFifoSize), cudaSuccess);
    CHECK(lim == 524288);
    CHECK_ERR(cudaDeviceGetLimit(&lim, cudaLimitDevRuntimeSyncDepth), cudaErrorUnsupportedLimit);
    CHECK_ERR(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 256), cudaErrorInvalidValue);
    CHECK_ERR(cudaDeviceGetLimit(&lim, (enum cudaLimit)99), cudaErrorInvalidValue);

    unsigned flags = 0;
    CHECK_ERR(cudaGetDeviceFlags(&flags), cudaSuccess);
    CHECK(flags == cudaDeviceMapHost);
    CHECK_ERR(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync), cudaSuccess);
    CHECK_ERR(cudaGetDeviceFlags(&flags), cudaSuccess);
    CHECK(flags == (cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
    CHECK_ERR(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield), cudaErrorInvalidValue);
    int can = 1;
    CHECK_ERR(cudaDeviceCanAccessPeer(&can, 0, 0), cudaSuccess);
    CHECK(can == 0);
    CHECK_ERR(cudaDeviceCanAccessPeer(&can, 0, 1), cudaErrorInvalidDevice);
    CHECK_ERR(cudaChooseDevice(&dev, &p), cudaSuccess);
    CHECK_ERR(cudaChooseDevice(&dev, NULL), cudaErrorInvalidValue);
    enum cudaFuncCache cc;
    CHECK_ERR(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared), cudaSuccess);
    CHECK_ERR(cudaDeviceGetCacheConfig(&cc), cudaSuccess);
    CHECK(cc == cudaFuncCachePreferShared);
    CHECK_ERR(cudaDeviceSetCacheConfig((enum cudaFuncCache)9), cudaErrorInvalidValue);
}

/* cudaLimitMallocHeapSize can be changed only until a kernel that uses device malloc or
 * free has been launched; launching other kernels does not fix it (an H100 answers
 * cudaErrorInvalidValue afterwards: tests/cuda/conformance/device_heap). */
static char stub_heap_user, stub_no_heap;
static test_wrapper w_heap;
static unsigned long long *fb_heap;
static void test_heap_limit(void) {
    static const char ptx[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
        ".extern .func free(.param .b64 free_param_0);\n"
        ".visible .entry no_heap()\n{\n  ret;\n}\n"
        ".visible .entry heap_user()\n{\n  .reg .b64 %rd<2>;\n"
        "  {\n  .param .b64 param0;\n  st.param.b64 [param0+0], 16;\n"
        "  .param .b64 retval0;\n  call.uni (retval0), malloc, (param0);\n"
        "  ld.param.b64 %rd1, [retval0+0];\n  }\n"
        "  {\n  .param .b64 param0;\n  st.param.b64 [param0+0], %rd1;\n"
        "  call.uni free, (param0);\n  }\n  ret;\n}\n";
    fb_heap = test_ptx_fatbin(ptx, 90);
    void **h = test_register(fb_heap, &w_heap);
    test_register_kernel(h, &stub_no_heap, "no_heap");
    test_register_kernel(h, &stub_heap_user, "heap_user");
    __cudaRegisterFatBinaryEnd(h);
    size_t lim = 0;
    CHECK_ERR(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1000), cudaSuccess);
    CHECK_ERR(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize), cudaSuccess);
    CHECK(lim == 4194304);                     /* raised to the 4 MiB minimum */
    CHECK_ERR(cudaLaunchKernel((const void *)&stub_no_heap, d3(1, 1, 1), d3(32, 1, 1), NULL, 0, 0),
              cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_ERR(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20), cudaSuccess);
    CHECK_ERR(cudaLaunchKernel((const void *)&stub_heap_user, d3(1, 1, 1), d3(32, 1, 1), NULL, 0, 0),
              cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_ERR(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20), cudaErrorInvalidValue);
    CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    CHECK_ERR(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize), cudaSuccess);
    CHECK(lim == (16u << 20));                 /* unchanged */
    CHECK_ERR(cudaDeviceSetLimit(cudaLimitStackSize, 2048), cudaSuccess); /* others still can */
}

static void test_functions(void) {
    struct cudaFuncAttributes fa;
    CHECK_ERR(cudaFuncGetAttributes(&fa, &stub_add), cudaSuccess);
    CHECK(fa.sharedSizeBytes == 0 && fa.localSizeBytes == 0 && fa.constSizeBytes == 16);
    CHECK(fa.maxThreadsPerBlock > 0 && fa.maxThreadsPerBlock <= 1024 && fa.numRegs > 0);
    CHECK(fa.maxDynamicSharedSizeBytes == 49152 && fa.preferredShmemCarveout == -1);
    CHECK(fa.ptxVersion == 90 && fa.binaryVersion == 90);
    CHECK_ERR(cudaFuncGetAttributes(&fa, NULL), cudaErrorInvalidDeviceFunction);
    CHECK_ERR(cudaFuncGetAttributes(&fa, &stub_not_a_kernel), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaFuncGetAttributes(NULL, &stub_add), cudaErrorInvalidValue);
    CHECK_ERR(cudaFuncSetAttribute(&stub_add, cudaFuncAttributePreferredSharedMemoryCarveout, 101),
              cudaErrorInvalidValue);
    CHECK_ERR(cudaFuncSetAttribute(&stub_add, (enum cudaFuncAttribute)99, 1), cudaErrorInvalidValue);
    CHECK_ERR(cudaFuncSetCacheConfig(&stub_add, cudaFuncCachePreferL1), cudaSuccess);
    CHECK_ERR(cudaFuncSetCacheConfig(NULL, cudaFuncCachePreferL1), cudaErrorInvalidDeviceFunction);
    const char *name = NULL;
    CHECK_ERR(cudaFuncGetName(&name, &stub_add), cudaSuccess);
    CHECK(name && strcmp(name, "_Z3addPKfPfid") == 0);
    cudaFunction_t fn = NULL;
    CHECK_ERR(cudaGetFuncBySymbol(&fn, &stub_add), cudaSuccess);
    CHECK_ERR(cudaFuncGetAttributes(&fa, (const void *)fn), cudaSuccess);

    int blocks = -1;
    CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, &stub_add, 1, 0), cudaSuccess);
    CHECK(blocks == 32);
    CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, &stub_add, 1025, 0), cudaSuccess);
    CHECK(blocks == 0);
    CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, &stub_add, 32, 1 << 20), cudaSuccess);
    CHECK(blocks == 0);
    CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, &stub_add, 32, 49152), cudaSuccess);
    CHECK(blocks == 4); /* 228 KiB / (48 KiB + 1 KiB reserved) */
    CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, &stub_add, 0, 0), cudaErrorInvalidValue);
    CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, &stub_add, 32, 0, 5),
              cudaErrorInvalidValue);
    CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, NULL, 32, 0),
              cudaErrorInvalidDeviceFunction);
}

/* Each host thread has its own last error. */
static void *other_thread(void *arg) {
    (void)arg;
    CHECK_ERR(cudaGetLastError(), cudaSuccess);
    CHECK_ERR(cudaSetDevice(3), cudaErrorInvalidDevice);
    return NULL;
}

static void test_threads(void) {
    CHECK_ERR(cudaSetDevice(5), cudaErrorInvalidDevice);
    pthread_t t;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, NULL);
    CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
    CHECK_ERR(cudaGetLastError(), cudaSuccess);
}

/* cudaDeviceReset frees everything and the modules load again with fresh variables. */
static void test_reset(void) {
    void *d = NULL;
    CHECK_ERR(cudaMalloc(&d, 64), cudaSuccess);
    cudaStream_t s;
    CHECK_ERR(cudaStreamCreate(&s), cudaSuccess);
    int count = 0;
    CHECK_ERR(launch_add(d3(1, 1, 1), d3(64, 1, 1), 0, 0, NULL, NULL, 0, 0.0), cudaSuccess);
    CHECK_ERR(cudaDeviceReset(), cudaSuccess);
    CHECK_ERR(cudaFree(d), cudaErrorInvalidValue);
    CHECK_ERR(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
    CHECK_ERR(cudaMemcpyFromSymbol(&count, shadow_gcount, sizeof count, 0, cudaMemcpyDeviceToHost),
              cudaSuccess);
    CHECK(count == 0);
    CHECK_ERR(launch_add(d3(2, 1, 1), d3(32, 1, 1), 0, 0, NULL, NULL, 0, 0.0), cudaSuccess);
    CHECK_ERR(cudaMemcpyFromSymbol(&count, shadow_gcount, sizeof count, 0, cudaMemcpyDeviceToHost),
              cudaSuccess);
    CHECK(count == 64);
    size_t lim = 0;
    CHECK_ERR(cudaDeviceGetLimit(&lim, cudaLimitStackSize), cudaSuccess);
    CHECK(lim == 1024);
}

static void test_errors(void) {
    CHECK(strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") == 0);
    CHECK(strcmp(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered") == 0);
    CHECK(strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
    CHECK(strcmp(cudaGetErrorName((cudaError_t)12345), "unrecognized error code") == 0);
    CHECK(strcmp(cudaGetErrorString((cudaError_t)-1), "unrecognized error code") == 0);
    CHECK(strcmp(cudaGetErrorName(cudaErrorApiFailureBase), "cudaErrorApiFailureBase") == 0);
    CHECK(rt_error_from_fault(EXEC_FAULT_MISALIGNED) == cudaErrorMisalignedAddress);
    CHECK(rt_error_from_fault(EXEC_FAULT_ASSERT) == cudaErrorAssert);
    CHECK(rt_error_from_fault(EXEC_FAULT_TRAP) == cudaErrorLaunchFailure);
    CHECK(rt_error_from_fault(EXEC_FAULT_STACK_OVERFLOW) == cudaErrorIllegalAddress);
    CHECK(rt_error_from_fault(EXEC_FAULT_ILLEGAL_INSTRUCTION) == cudaErrorIllegalInstruction);
}

int main(void) {
    setup();
    test_errors();
    test_device();
    test_kernel_runs();
    test_launch_checks();
    test_bad_modules();
    test_memory();
    test_memory3d();
    test_large_allocations();
    test_symbols();
    test_streams_events();
    test_functions();
    test_threads();
    test_heap_limit();
    test_reset();
    rt_report_print(rt_ctx());
    rt_context_shutdown();
    return test_finish("test_runtime_api");
}
