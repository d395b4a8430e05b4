/* tests/fuzz/fuzz_driver.c — fuzz target: a module image handed to the driver API.
 *
 * Programs give cuModuleLoadData whatever they hold: PTX text, a fatbin, a cubin, or a
 * bad pointer's worth of bytes. The input goes through cuModuleLoadData (which tells the
 * kinds apart), and, when it loads, through the queries a program makes next (its
 * functions, their attributes); then through the linker's path (cuLinkAddData as PTX,
 * cuLinkComplete, the linked image loaded again). Every failure must be a CUresult with a
 * name, never a crash, hang or leak.
 *
 * cuModuleLoadData takes no length: a binary image is read as far as its own header says,
 * as the real driver does, so an input whose header claims more bytes than it has would
 * be a program's bad pointer, not bad data. Those are left out, and so are the two kinds
 * that are addresses rather than data (a fatbin wrapper points at the fatbin; vcuda's own
 * linked image comes from cuLinkComplete, which the linker path below makes). */
#include <cuda.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "driver/drv.h"
#include "runtime/rt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_FUNCS = 64 };

/* A failure the driver reports must be one of its codes. */
static void check_named(CUresult r) {
    const char *name = NULL;
    if (r != CUDA_SUCCESS && (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)) abort();
}

static void context_once(void) {
    static int ready;
    if (ready) return;
    CUdevice dev;
    CUcontext ctx;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
        cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS)
        abort();
    ready = 1;
}

static void query_module(CUmodule mod) {
    unsigned int n = 0;
    CUresult r = cuModuleGetFunctionCount(&n, mod);
    check_named(r);
    if (r != CUDA_SUCCESS || n == 0) return;
    if (n > MAX_FUNCS) n = MAX_FUNCS;
    CUfunction fns[MAX_FUNCS];
    r = cuModuleEnumerateFunctions(fns, n, mod);
    check_named(r);
    if (r != CUDA_SUCCESS) return;
    for (unsigned int i = 0; i < n; i++) {
        int v = 0;
        check_named(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fns[i]));
        check_named(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fns[i]));
        check_named(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fns[i]));
        const char *name = NULL;
        check_named(cuFuncGetName(&name, fns[i]));
    }
}

static void through_linker(const char *image, size_t size) {
    CUlinkState link;
    CUresult r = cuLinkCreate(0, NULL, NULL, &link);
    check_named(r);
    if (r != CUDA_SUCCESS) return;
    r = cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)image, size + 1, "fuzz.ptx", 0, NULL, NULL);
    check_named(r);
    if (r == CUDA_SUCCESS) {
        void *cubin = NULL;
        size_t cubin_size = 0;
        r = cuLinkComplete(link, &cubin, &cubin_size);
        check_named(r);
        if (r == CUDA_SUCCESS) {
            CUmodule mod;
            r = cuModuleLoadData(&mod, cubin);
            check_named(r);
            if (r == CUDA_SUCCESS) {
                query_module(mod);
                check_named(cuModuleUnload(mod));
            }
        }
    }
    check_named(cuLinkDestroy(link));
}

/* Whether image holds all the bytes its header says it has (see above). */
static int whole_image(const char *image, size_t size) {
    switch (drv_image_classify(image)) {
    case DRV_IMAGE_WRAPPER:
    case DRV_IMAGE_LINKED:
        return 0;
    case DRV_IMAGE_FATBIN: {
        if (size < 16) return 0;
        char err[256];
        size_t whole = rt_fatbin_image_size(image, err, sizeof err);
        return whole == 0 || whole <= size; /* (0: a bad header, which must be refused) */
    }
    default:
        return 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    context_once();
    /* 8-byte aligned as images in a program are, and NUL-terminated as PTX text must be
     * (a program's binary image is read as far as its own header says) */
    char *image = aligned_alloc(8, (size + 8) & ~(size_t)7);
    if (!image) return 0;
    memcpy(image, data, size);
    memset(image + size, 0, ((size + 8) & ~(size_t)7) - size);
    if (whole_image(image, size)) {
        CUmodule mod;
        CUresult r = cuModuleLoadData(&mod, image);
        check_named(r);
        if (r == CUDA_SUCCESS) {
            query_module(mod);
            check_named(cuModuleUnload(mod));
        }
    }
    if (size && memchr(data, 0, size) == NULL) through_linker(image, size);
    free(image);
    return 0;
}
