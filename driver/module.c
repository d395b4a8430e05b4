/* driver/module.c — modules loaded at run time: cuModuleLoad* from PTX text, a fatbin or
 * a linked image, their kernels and globals, unloading, the JIT options' log buffers,
 * and CUDA 12's libraries (a library is a module that belongs to no context; a CUkernel
 * is the same object as a CUfunction).
 *
 * A module is a runtime module (rt_module) whose image the driver owns: loading it is the
 * runtime's own path (runtime/module.c: pick the PTX, parse, lower onto the device), done
 * at once so that a bad image fails the load call, as a GPU's JIT does. A CUfunction is a
 * runtime kernel (rt_func) made for the module, so the runtime's launch, attribute and
 * occupancy calls accept it too. A cubin holds machine code only and cannot run here: it
 * fails with CUDA_ERROR_NO_BINARY_FOR_GPU and says how to build with PTX.
 */
#include "drv.h"
#include "fatbin_write.h"
#include "../jit/jit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JIT options ---- */

CUresult drv_jit_options(unsigned n, const CUjit_option *opts, void **values, drv_jit_logs *l) {
    memset(l, 0, sizeof *l);
    if (n && (!opts || !values)) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++) {
        switch (opts[i]) {
        case CU_JIT_INFO_LOG_BUFFER: l->info = values[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER: l->error = values[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
            l->info_size = (size_t)(uintptr_t)values[i];
            l->info_out = &values[i];
            break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
            l->error_size = (size_t)(uintptr_t)values[i];
            l->error_out = &values[i];
            break;
        default:
            /* optimisation level, register limits, targets, caching, verbosity and
             * the rest shape machine code, which vcuda does not make */
            if ((unsigned)opts[i] >= CU_JIT_NUM_OPTIONS) return CUDA_ERROR_INVALID_VALUE;
            break;
        }
    }
    if (!l->info) l->info_size = 0;
    if (!l->error) l->error_size = 0;
    if (l->info_size) l->info[0] = 0;
    if (l->error_size) l->error[0] = 0;
    return CUDA_SUCCESS;
}

/* Append a line to a log buffer (truncated to its size). */
static void drv_log(char *buf, size_t size, const char *line) {
    if (!buf || !size) return;
    size_t used = strnlen(buf, size - 1);
    snprintf(buf + used, size - used, "%s%s", used ? "\n" : "", line);
}

void drv_jit_logs_done(drv_jit_logs *l) {
    /* the bytes written, with the NUL; 0 for an empty log (as an H100 answers) */
    size_t info = l->info_size && l->info[0] ? strlen(l->info) + 1 : 0;
    size_t error = l->error_size && l->error[0] ? strlen(l->error) + 1 : 0;
    if (l->info_out) *l->info_out = (void *)(uintptr_t)info;
    if (l->error_out) *l->error_out = (void *)(uintptr_t)error;
}

/* ---- loading ---- */

/* Why a module failed to load, for the error log: the PTX front end's message. */
static void drv_load_error(rt_context *c, rt_module *m, char *err, size_t errlen) {
    uint32_t arch;
    cudaError_t code;
    ptx_module *pm;
    if (m->rdc) {
        pm = rt_rdc_link(c, m, &arch, &code, err, errlen);
    } else {
        const gpu_preset *p = rt_cur(c)->preset;
        char *ptx = rt_fatbin_select_ptx(m->image, m->image_size, p->major * 10 + p->minor,
                                         &arch, &code, err, errlen);
        if (!ptx) return;
        pm = ptx_parse(ptx, strlen(ptx), m->name, err, errlen);
        free(ptx);
    }
    if (pm) {
        ptx_module_free(pm);
        snprintf(err, errlen, "%s: the PTX uses something vcuda does not support (see above)",
                 m->name);
    }
}

/* The bytes of an image to keep: a copy of the fatbin container(s) it names. */
static CUresult drv_image_copy(const void *image, drv_image_kind kind, const char *name,
                               uint8_t **out, size_t *size, char *err, size_t errlen) {
    if (kind == DRV_IMAGE_WRAPPER) {
        const struct { int magic, version; const void *data; void *unused; } *w = image;
        if (w->version != 1) {
            snprintf(err, errlen, "unknown fatbin wrapper version %d", w->version);
            return CUDA_ERROR_INVALID_IMAGE;
        }
        image = w->data;
        if (!image || drv_image_classify(image) != DRV_IMAGE_FATBIN) {
            snprintf(err, errlen, "the fatbin wrapper does not point at a fatbin");
            return CUDA_ERROR_INVALID_IMAGE;
        }
        kind = DRV_IMAGE_FATBIN;
    }
    if (kind == DRV_IMAGE_ELF) {
        snprintf(err, errlen,
                 "the image is a cubin, machine code for one GPU architecture; vcuda runs PTX: "
                 "load the PTX (nvcc -ptx) or a fatbin that carries it (nvcc -fatbin -gencode "
                 "arch=compute_XX,code=compute_XX)");
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    if (kind == DRV_IMAGE_PTX) {
        size_t len = strlen(image);
        *out = drv_fatbin_from_ptx(image, len, drv_fatbin_ptx_target(image, len), size);
        return *out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    }
    size_t n = 0;
    if (kind == DRV_IMAGE_FATBIN) {
        n = rt_fatbin_image_size(image, err, errlen);
        if (!n) return CUDA_ERROR_INVALID_IMAGE;
    } else { /* linked */
        const uint8_t **parts;
        size_t *sizes;
        long np = drv_image_linked_parts(image, &parts, &sizes);
        if (np < 0) {
            snprintf(err, errlen, "the linked image is corrupt");
            return CUDA_ERROR_INVALID_IMAGE;
        }
        n = (size_t)(parts[np - 1] - (const uint8_t *)image) + ((sizes[np - 1] + 7) & ~(size_t)7);
        free(parts);
        free(sizes);
    }
    (void)name;
    *out = malloc(n);
    if (!*out) return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(*out, image, n);
    *size = n;
    return CUDA_SUCCESS;
}

static void drv_module_free(drv_module *dm) {
    if (!dm) return;
    if (dm->mod) {
        free(dm->mod->rdc_images);
        free(dm->mod);
    }
    free(dm->image);
    free(dm->funcs);
    free(dm);
}

CUresult drv_module_load(const void *image, const char *name, drv_ctx *ctx, char *info,
                         size_t infolen, char *errlog, size_t errlen, drv_module **out) {
    (void)info, (void)infolen;
    char err[2048] = "";
    drv_state *s = drv_get();
    rt_context *c = rt_ctx();
    drv_module *dm = calloc(1, sizeof *dm);
    rt_module *m = calloc(1, sizeof *m);
    if (!dm || !m) {
        free(dm);
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    dm->mod = m;
    dm->ctx = ctx;
    drv_image_kind kind = drv_image_classify(image);
    size_t size = 0;
    CUresult r = drv_image_copy(image, kind, name, &dm->image, &size, err, sizeof err);
    if (r) {
        drv_log(errlog, errlen, err);
        drv_module_free(dm);
        return drv_fail(r, name, "%s", err);
    }
    m->image = dm->image;
    m->image_size = size;
    if (kind == DRV_IMAGE_LINKED) {
        size_t *sizes;
        long np = drv_image_linked_parts(dm->image, &m->rdc_images, &sizes);
        free(sizes);
        if (np < 0) {
            drv_module_free(dm);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        m->rdc = true;
        m->nrdc_images = m->rdc_images_cap = (size_t)np;
    }
    pthread_mutex_lock(&s->lock);
    unsigned index = ++s->next_module;
    pthread_mutex_unlock(&s->lock);
    snprintf(m->name, sizeof m->name, "%s#%u.ptx", name, index);

    pthread_mutex_lock(&c->lock);
    rt_module **tail = &c->modules;
    while (*tail) tail = &(*tail)->next;
    *tail = m;
    c->nmodules++;
    cudaError_t e = rt_module_load(c, m);
    if (e != cudaSuccess) {
        if (kind != DRV_IMAGE_ELF) drv_load_error(c, m, err, sizeof err);
        *tail = NULL; /* appended last, so it is the tail */
        pthread_mutex_unlock(&c->lock);
        drv_log(errlog, errlen, err);
        drv_module_free(dm);
        return e == cudaErrorNoKernelImageForDevice ? CUDA_ERROR_NO_BINARY_FOR_GPU : drv_from_rt(e);
    }
    pthread_mutex_unlock(&c->lock);
    pthread_mutex_lock(&s->lock);
    bool ok = rt_ptrmap_put(&s->modules, dm, dm);
    pthread_mutex_unlock(&s->lock);
    if (!ok) {
        drv_module_unload(dm);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = dm;
    return CUDA_SUCCESS;
}

CUresult drv_module_unload(drv_module *dm) {
    drv_state *s = drv_get();
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&s->lock);
    rt_ptrmap_remove(&s->modules, dm);
    pthread_mutex_unlock(&s->lock);
    /* grids of its kernels may still be running: they end first */
    cudaError_t saved = drv_rt_begin();
    cudaDeviceSynchronize();
    drv_rt_end(saved, cudaSuccess);
    pthread_mutex_lock(&c->lock);
    for (rt_module **p = &c->modules; *p; p = &(*p)->next)
        if (*p == dm->mod) {
            *p = dm->mod->next;
            break;
        }
    for (size_t i = 0; i < dm->nfuncs; i++) {
        rt_func *f = dm->funcs[i];
        rt_ptrmap_remove(&c->func_handles, f);
        for (rt_func **p = &c->funcs; *p; p = &(*p)->next)
            if (*p == f) {
                *p = f->next;
                break;
            }
        free(f->name);
        free(f);
    }
    rt_module_free_programs(c, dm->mod); /* stops a compile still running: the program goes */
    pthread_mutex_unlock(&c->lock);
    drv_module_free(dm);
    return CUDA_SUCCESS;
}

/* A live module (or library) handle, after the checks of a call that needs a context. */
static CUresult drv_module_get(void *h, bool library, drv_module **out) {
    drv_state *s = drv_get();
    pthread_mutex_lock(&s->lock);
    drv_module *dm = h ? rt_ptrmap_get(&s->modules, h) : NULL;
    pthread_mutex_unlock(&s->lock);
    if (!dm || (library && !dm->library)) return CUDA_ERROR_INVALID_HANDLE;
    *out = dm;
    return CUDA_SUCCESS;
}

CUresult drv_module_function(drv_module *dm, const char *name, rt_func **out) {
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&c->lock);
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; i < dm->nfuncs; i++)
        if (strcmp(dm->funcs[i]->name, name) == 0) {
            *out = dm->funcs[i];
            goto done;
        }
    cudaError_t e = rt_module_load(c, dm->mod); /* again after a reset */
    if (e) {
        r = drv_from_rt(e);
        goto done;
    }
    const exec_kernel *k = exec_program_kernel(dm->mod->prog, name);
    if (!k) {
        r = CUDA_ERROR_NOT_FOUND;
        goto done;
    }
    if (dm->nfuncs == dm->funcs_cap) {
        size_t cap = dm->funcs_cap ? dm->funcs_cap * 2 : 8;
        rt_func **n = realloc(dm->funcs, cap * sizeof *n);
        if (!n) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            goto done;
        }
        dm->funcs = n;
        dm->funcs_cap = cap;
    }
    rt_func *f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(name)) || !rt_ptrmap_put(&c->func_handles, f, f)) {
        if (f) free(f->name);
        free(f);
        r = CUDA_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    f->mod = dm->mod;
    f->kernel = k;
    f->max_dynamic_shared = -1;
    f->carveout = -1;
    f->next = c->funcs;
    c->funcs = f;
    dm->funcs[dm->nfuncs++] = f;
    *out = f;
done:
    pthread_mutex_unlock(&c->lock);
    return r;
}

CUresult drv_func_lookup(CUfunction h, rt_func **out) {
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&c->lock);
    rt_func *f = h ? rt_ptrmap_get(&c->func_handles, h) : NULL;
    cudaError_t e = f ? rt_func_resolve(c, f) : cudaErrorInvalidResourceHandle;
    pthread_mutex_unlock(&c->lock);
    if (e) return drv_from_rt(e);
    *out = f;
    return CUDA_SUCCESS;
}

/* ---- the module calls ---- */

static CUresult drv_load_ex(CUmodule *module, const void *image, const char *name,
                            unsigned n, CUjit_option *opts, void **values) {
    if (!module || !image) return CUDA_ERROR_INVALID_VALUE;
    drv_ctx *ctx;
    CUresult r = drv_enter(&ctx);
    if (r) return r;
    drv_jit_logs logs;
    r = drv_jit_options(n, opts, values, &logs);
    if (r) return r;
    drv_module *dm = NULL;
    r = drv_module_load(image, name, ctx, logs.info, logs.info_size, logs.error,
                        logs.error_size, &dm);
    drv_jit_logs_done(&logs);
    if (!r) *module = (CUmodule)dm;
    return r;
}

DRV_API CUresult cuModuleLoadData(CUmodule *module, const void *image) {
    return drv_load_ex(module, image, "cuModuleLoadData", 0, NULL, NULL);
}

DRV_API CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                    CUjit_option *options, void **optionValues) {
    return drv_load_ex(module, image, "cuModuleLoadDataEx", numOptions, options, optionValues);
}

DRV_API CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin) {
    if (fatCubin) {
        drv_image_kind k = drv_image_classify(fatCubin);
        if (k != DRV_IMAGE_FATBIN && k != DRV_IMAGE_WRAPPER && k != DRV_IMAGE_ELF)
            return CUDA_ERROR_INVALID_IMAGE;
    }
    return drv_load_ex(module, fatCubin, "cuModuleLoadFatBinary", 0, NULL, NULL);
}

/* The whole of a file, NUL-terminated (PTX is text). */
static CUresult drv_read_file(const char *path, char **out) {
    FILE *f = fopen(path, "rb");
    if (!f) return errno == ENOENT ? CUDA_ERROR_FILE_NOT_FOUND : CUDA_ERROR_INVALID_VALUE;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *b = realloc(buf, cap * 2);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    bool failed = ferror(f);
    fclose(f);
    if (!buf) return CUDA_ERROR_OUT_OF_MEMORY;
    if (failed || n == 0) {
        free(buf);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    buf[n] = 0;
    *out = buf;
    return CUDA_SUCCESS;
}

static const char *drv_basename(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

DRV_API CUresult cuModuleLoad(CUmodule *module, const char *fname) {
    if (!module || !fname) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    char *data;
    r = drv_read_file(fname, &data);
    if (r) return drv_fail(r, "cuModuleLoad", "cannot read %s", fname);
    r = drv_load_ex(module, data, drv_basename(fname), 0, NULL, NULL);
    free(data);
    return r;
}

DRV_API CUresult cuModuleUnload(CUmodule hmod) {
    CUresult r = drv_initialised();
    if (r) return r;
    drv_module *dm;
    r = drv_module_get(hmod, false, &dm);
    if (r) return r;
    if (dm->library) return CUDA_ERROR_INVALID_HANDLE; /* cuLibraryUnload's */
    return drv_module_unload(dm);
}

DRV_API CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) {
    if (!hfunc || !name) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    drv_module *dm;
    r = drv_module_get(hmod, false, &dm);
    if (r) return r;
    rt_func *f;
    r = drv_module_function(dm, name, &f);
    if (!r) *hfunc = (CUfunction)f;
    return r;
}

static CUresult drv_global(drv_module *dm, CUdeviceptr *dptr, size_t *bytes, const char *name) {
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&c->lock);
    cudaError_t e = rt_module_load(c, dm->mod);
    size_t size = 0;
    void *addr = e ? NULL : exec_program_var(dm->mod->prog, name, &size);
    pthread_mutex_unlock(&c->lock);
    if (e) return drv_from_rt(e);
    if (!addr) return CUDA_ERROR_NOT_FOUND;
    if (dptr) *dptr = (CUdeviceptr)(uintptr_t)addr;
    if (bytes) *bytes = size;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
                                      const char *name) {
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    drv_module *dm;
    r = drv_module_get(hmod, false, &dm);
    return r ? r : drv_global(dm, dptr, bytes, name);
}

DRV_API CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode) {
    if (!mode) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    *mode = rt_ctx()->lazy_loading ? CU_MODULE_LAZY_LOADING : CU_MODULE_EAGER_LOADING;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc) {
    if (!hmod) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup(hfunc, &f);
    if (r) return r;
    drv_state *s = drv_get();
    pthread_mutex_lock(&s->lock);
    drv_module *found = NULL;
    for (size_t i = 0; i < s->modules.cap && !found; i++) {
        drv_module *dm = s->modules.keys[i] ? s->modules.values[i] : NULL;
        if (dm && dm->mod == f->mod) found = dm;
    }
    pthread_mutex_unlock(&s->lock);
    /* a kernel of the program's own (registered) code belongs to no loaded module */
    if (!found) return CUDA_ERROR_NOT_FOUND;
    *hmod = (CUmodule)found;
    return CUDA_SUCCESS;
}

/* ---- libraries (CUDA 12) ---- */

static CUresult drv_library_load(CUlibrary *library, const void *code, const char *name,
                                 CUjit_option *opts, void **values, unsigned n) {
    if (!library || !code) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    rt_context *c = rt_ctx();
    cudaError_t e = drv_bring_up(c); /* a library needs no current context, only the device */
    if (!e) e = rt_enter(c);
    if (e) return drv_from_rt(e);
    drv_jit_logs logs;
    r = drv_jit_options(n, opts, values, &logs);
    if (r) return r;
    drv_module *dm = NULL;
    r = drv_module_load(code, name, NULL, logs.info, logs.info_size, logs.error,
                        logs.error_size, &dm);
    drv_jit_logs_done(&logs);
    if (r) return r;
    dm->library = true;
    *library = (CUlibrary)dm;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                   void **jitOptionsValues, unsigned int numJitOptions,
                                   CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                   unsigned int numLibraryOptions) {
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    return drv_library_load(library, code, "cuLibraryLoadData", jitOptions, jitOptionsValues,
                            numJitOptions);
}

DRV_API CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName,
                                       CUjit_option *jitOptions, void **jitOptionsValues,
                                       unsigned int numJitOptions, CUlibraryOption *libraryOptions,
                                       void **libraryOptionValues, unsigned int numLibraryOptions) {
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    if (!library || !fileName) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    char *data;
    r = drv_read_file(fileName, &data);
    if (r) return drv_fail(r, "cuLibraryLoadFromFile", "cannot read %s", fileName);
    r = drv_library_load(library, data, drv_basename(fileName), jitOptions, jitOptionsValues,
                         numJitOptions);
    free(data);
    return r;
}

DRV_API CUresult cuLibraryUnload(CUlibrary library) {
    CUresult r = drv_initialised();
    if (r) return r;
    drv_module *dm;
    r = drv_module_get(library, true, &dm);
    return r ? r : drv_module_unload(dm);
}

DRV_API CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name) {
    if (!pKernel || !name) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    drv_module *dm;
    r = drv_module_get(library, true, &dm);
    if (r) return r;
    rt_func *f;
    r = drv_module_function(dm, name, &f);
    if (!r) *pKernel = (CUkernel)f;
    return r;
}

DRV_API CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library) {
    if (!pMod) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    drv_module *dm;
    r = drv_module_get(library, true, &dm);
    if (!r) *pMod = (CUmodule)dm;
    return r;
}

DRV_API CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library,
                                    const char *name) {
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    drv_module *dm;
    r = drv_module_get(library, true, &dm);
    return r ? r : drv_global(dm, dptr, bytes, name);
}

DRV_API CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel) {
    if (!pFunc) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    rt_func *f;
    r = drv_func_lookup((CUfunction)kernel, &f);
    if (!r) *pFunc = (CUfunction)f;
    return r;
}
