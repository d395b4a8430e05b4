/* runtime/register.c — the entry points nvcc's generated host code calls: registration of
 * fatbins, kernels and variables at program start (before main), and the launch
 * configuration stack that <<<grid, block, shared, stream>>> pushes and the launch stub
 * pops. Their declarations live in the toolkit's crt/host_runtime.h and
 * crt/device_functions.h, which are C++ only; the signatures below match them.
 *
 * Registration only records: a module's fatbin is read when one of its kernels or
 * variables is first used (lazy loading, as CUDA 12+ does by default).
 */
#include "rt.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RT_WRAPPER_MAGIC 0x466243b1
#define RT_WRAPPER_VERSION 1      /* data points at one fatbin */
#define RT_WRAPPER_LINK_VERSION 2 /* -rdc=true: device-linked objects (runtime/rdc.c) */

typedef struct rt_fatbin_wrapper {
    int magic;
    int version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} rt_fatbin_wrapper;

/* "<program>.ptx" (or "<program>#N.ptx" for the N-th module of a program). */
static void rt_module_name(rt_module *m, const void *addr, unsigned index) {
    Dl_info info;
    const char *prog = "program";
    if (dladdr(addr, &info) && info.dli_fname && info.dli_fname[0]) {
        const char *slash = strrchr(info.dli_fname, '/');
        prog = slash ? slash + 1 : info.dli_fname;
    }
    if (index > 1)
        snprintf(m->name, sizeof m->name, "%s#%u.ptx", prog, index);
    else
        snprintf(m->name, sizeof m->name, "%s.ptx", prog);
}

static void rt_module_bad(rt_module *m, const char *fmt, int value) {
    char msg[256];
    snprintf(msg, sizeof msg, fmt, value);
    m->error = strdup(msg);
}

RT_API void **__cudaRegisterFatBinary(void *fatCubin) {
    rt_context *c = rt_ctx();
    const rt_fatbin_wrapper *lw = fatCubin;
    if (lw && lw->magic == RT_WRAPPER_MAGIC && lw->version == RT_WRAPPER_LINK_VERSION)
        return (void **)rt_rdc_register(c, fatCubin, lw->data,
                                        (void *const *)lw->filename_or_fatbins);
    rt_module *m = calloc(1, sizeof *m);
    if (!m) {
        fprintf(stderr, "vcuda: out of memory registering device code\n");
        abort();
    }
    m->wrapper = fatCubin;
    const rt_fatbin_wrapper *w = fatCubin;
    if (!w || w->magic != RT_WRAPPER_MAGIC) {
        rt_module_bad(m, "the registered fatbin wrapper has bad magic 0x%08x",
                      w ? (unsigned)w->magic : 0u);
    } else if (w->version != RT_WRAPPER_VERSION) {
        rt_module_bad(m, "unknown fatbin wrapper version %d", w->version);
    } else {
        char err[256];
        m->image = (const uint8_t *)w->data;
        m->image_size = rt_fatbin_image_size(w->data, err, sizeof err);
        if (!m->image_size) m->error = strdup(err);
    }
    pthread_mutex_lock(&c->lock);
    rt_module **tail = &c->modules;
    while (*tail) tail = &(*tail)->next;
    *tail = m;
    rt_module_name(m, fatCubin, ++c->nmodules);
    pthread_mutex_unlock(&c->lock);
    return (void **)m;
}

RT_API void __cudaRegisterFatBinaryEnd(void **fatCubinHandle) { (void)fatCubinHandle; }

/* Called from atexit: the module stays, since the report printed at exit names its
 * kernels; the process is ending anyway. */
RT_API void __cudaUnregisterFatBinary(void **fatCubinHandle) { (void)fatCubinHandle; }

RT_API void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, uint3 *tid,
                                   uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize) {
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    rt_context *c = rt_ctx();
    rt_func *f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(deviceName ? deviceName : ""))) {
        fprintf(stderr, "vcuda: out of memory registering kernel %s\n", deviceName);
        abort();
    }
    f->host_stub = hostFun;
    f->mod = (rt_module *)fatCubinHandle;
    f->max_dynamic_shared = -1;
    f->carveout = -1;
    pthread_mutex_lock(&c->lock);
    f->next = c->funcs;
    c->funcs = f;
    rt_ptrmap_put(&c->func_by_stub, hostFun, f);
    rt_ptrmap_put(&c->func_handles, f, f);
    pthread_mutex_unlock(&c->lock);
}

static void rt_register_var(void **handle, const void *shadow, const char *name, size_t size,
                            int constant, void **managed_ptr) {
    rt_context *c = rt_ctx();
    rt_var *v = calloc(1, sizeof *v);
    if (!v || !(v->name = strdup(name ? name : ""))) {
        fprintf(stderr, "vcuda: out of memory registering variable %s\n", name);
        abort();
    }
    v->host_shadow = shadow;
    v->mod = (rt_module *)handle;
    v->size = size;
    v->constant = constant != 0;
    v->managed = managed_ptr != NULL;
    v->managed_host_ptr = managed_ptr;
    if (v->managed) v->mod->has_managed = true;
    pthread_mutex_lock(&c->lock);
    v->next = c->vars;
    c->vars = v;
    rt_ptrmap_put(&c->var_by_shadow, shadow, v);
    pthread_mutex_unlock(&c->lock);
}

RT_API void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global) {
    (void)deviceAddress, (void)ext, (void)global;
    rt_register_var(fatCubinHandle, hostVar, deviceName, size, constant, NULL);
}

RT_API void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                                     char *deviceAddress, const char *deviceName, int ext,
                                     size_t size, int constant, int global) {
    (void)deviceAddress, (void)ext, (void)global;
    rt_register_var(fatCubinHandle, hostVarPtrAddress, deviceName, size, constant,
                    hostVarPtrAddress);
}

/* Host code calls this before its first use of a __managed__ variable: load the module so
 * the variable has storage. Returns non-zero on success. */
RT_API char __cudaInitModule(void **fatCubinHandle) {
    rt_context *c = rt_ctx();
    if (rt_enter(c) != cudaSuccess) return 0;
    pthread_mutex_lock(&c->lock);
    cudaError_t e = rt_module_load(c, (rt_module *)fatCubinHandle);
    pthread_mutex_unlock(&c->lock);
    return e == cudaSuccess;
}

RT_API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                            struct CUstream_st *stream) {
    rt_thread *t = rt_thread_state();
    if (t->nconfigs >= RT_MAX_CALL_CONFIGS) return 1;
    rt_call_config *cfg = &t->configs[t->nconfigs++];
    cfg->grid = gridDim;
    cfg->block = blockDim;
    cfg->shared = sharedMem;
    cfg->stream = stream;
    return 0;
}

RT_API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                              void *stream) {
    rt_thread *t = rt_thread_state();
    if (t->nconfigs == 0) return cudaErrorMissingConfiguration;
    rt_call_config *cfg = &t->configs[--t->nconfigs];
    *gridDim = cfg->grid;
    *blockDim = cfg->block;
    *sharedMem = cfg->shared;
    *(cudaStream_t *)stream = cfg->stream;
    return cudaSuccess;
}

static cudaError_t rt_get_kernel(void **out, const void *entry) {
    rt_context *c = rt_ctx();
    if (!out) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    rt_func *f = NULL;
    cudaError_t e = rt_func_lookup(c, entry, &f);
    pthread_mutex_unlock(&c->lock);
    if (e == cudaSuccess) *out = f;
    return rt_record(e);
}

RT_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun) {
    return rt_get_kernel((void **)kernel, hostFun);
}

RT_API cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr) {
    return rt_get_kernel((void **)kernelPtr, entryFuncAddr);
}

RT_API cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr) {
    return rt_get_kernel((void **)functionPtr, symbolPtr);
}
