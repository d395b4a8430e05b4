/* driver/kernel.c — what a program may ask of a module's or library's kernels: how many
 * there are and which (cuModuleEnumerateFunctions, cuLibraryEnumerateKernels), each
 * parameter's offset and size (cuFuncGetParamInfo, which code generators use to pack
 * arguments), and CUDA 12's CUkernel forms of the function calls. A CUkernel is the same
 * object as a CUfunction here (one device), so those forms ask the function calls.
 */
#include "drv.h"

#include <string.h>

/* Find a module handle the driver made, by its runtime module. */
static drv_module *drv_module_of(void *h, bool library) {
    drv_state *s = drv_get();
    pthread_mutex_lock(&s->lock);
    drv_module *dm = h ? rt_ptrmap_get(&s->modules, h) : NULL;
    pthread_mutex_unlock(&s->lock);
    return dm && (!library || dm->library) ? dm : NULL;
}

/* The entries of dm's PTX: their count, and the first max made into functions. */
static CUresult drv_enumerate(drv_module *dm, CUfunction *out, unsigned max, unsigned *count) {
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&c->lock);
    cudaError_t e = rt_module_load(c, dm->mod);
    const ptx_module *pm = e ? NULL : exec_program_module(dm->mod->prog);
    unsigned n = 0;
    /* the names first: making functions takes the lock again */
    const char *names[1024];
    for (uint32_t i = 0; pm && i < pm->nfuncs; i++)
        if (pm->funcs[i].is_entry && n < 1024) names[n++] = pm->funcs[i].name;
    pthread_mutex_unlock(&c->lock);
    if (e) return drv_from_rt(e);
    if (count) *count = n;
    for (unsigned i = 0; out && i < n && i < max; i++) {
        rt_func *f;
        CUresult r = drv_module_function(dm, names[i], &f);
        if (r) return r;
        out[i] = (CUfunction)f;
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod) {
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    drv_module *dm = drv_module_of(mod, false);
    return dm ? drv_enumerate(dm, NULL, 0, count) : CUDA_ERROR_INVALID_HANDLE;
}

DRV_API CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions,
                                            CUmodule mod) {
    if (!functions) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    drv_module *dm = drv_module_of(mod, false);
    return dm ? drv_enumerate(dm, functions, numFunctions, NULL) : CUDA_ERROR_INVALID_HANDLE;
}

DRV_API CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib) {
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    drv_module *dm = drv_module_of(lib, true);
    return dm ? drv_enumerate(dm, NULL, 0, count) : CUDA_ERROR_INVALID_HANDLE;
}

DRV_API CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels,
                                           CUlibrary lib) {
    if (!kernels) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    drv_module *dm = drv_module_of(lib, true);
    return dm ? drv_enumerate(dm, (CUfunction *)kernels, numKernels, NULL)
              : CUDA_ERROR_INVALID_HANDLE;
}

DRV_API CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset,
                                    size_t *paramSize) {
    if (!paramOffset && !paramSize) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(func, &f);
    if (r) return r;
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    if (paramIndex >= info->nparams) return CUDA_ERROR_INVALID_VALUE;
    if (paramOffset) *paramOffset = info->param_offsets[paramIndex];
    if (paramSize) *paramSize = info->param_sizes[paramIndex];
    return CUDA_SUCCESS;
}

DRV_API CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset,
                                      size_t *paramSize) {
    return cuFuncGetParamInfo((CUfunction)kernel, paramIndex, paramOffset, paramSize);
}

DRV_API CUresult cuKernelGetName(const char **name, CUkernel hfunc) {
    return cuFuncGetName(name, (CUfunction)hfunc);
}

DRV_API CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel,
                                      CUdevice dev) {
    CUresult r = drv_device_check(dev);
    return r ? r : cuFuncGetAttribute(pi, attrib, (CUfunction)kernel);
}

DRV_API CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel,
                                      CUdevice dev) {
    CUresult r = drv_device_check(dev);
    return r ? r : cuFuncSetAttribute((CUfunction)kernel, attrib, val);
}

DRV_API CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev) {
    CUresult r = drv_device_check(dev);
    return r ? r : cuFuncSetCacheConfig((CUfunction)kernel, config);
}

DRV_API CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel) {
    if (!pLib) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup((CUfunction)kernel, &f);
    if (r) return r;
    drv_state *s = drv_get();
    pthread_mutex_lock(&s->lock);
    drv_module *found = NULL;
    for (size_t i = 0; i < s->modules.cap && !found; i++) {
        drv_module *dm = s->modules.keys[i] ? s->modules.values[i] : NULL;
        if (dm && dm->library && dm->mod == f->mod) found = dm;
    }
    pthread_mutex_unlock(&s->lock);
    if (!found) return CUDA_ERROR_INVALID_HANDLE;
    *pLib = (CUlibrary)found;
    return CUDA_SUCCESS;
}
