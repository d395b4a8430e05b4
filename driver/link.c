/* driver/link.c — JIT linking (cuLinkCreate, cuLinkAddData, cuLinkAddFile,
 * cuLinkComplete, cuLinkDestroy): several PTX inputs linked as nvcc -rdc links objects.
 *
 * Each input is checked when it is added (a syntax error fails cuLinkAddData with
 * CUDA_ERROR_INVALID_PTX and the line in the error log) and kept as a fatbin container;
 * cuLinkComplete links them once to report unresolved or clashing symbols, and hands back
 * a linked image (image.c) that cuModuleLoadData links again into the module's program.
 * The device runtime library (libcudadevrt) may be added as nvcc adds it: vcuda serves
 * device-side launches itself, so it contributes nothing.
 */
#include "drv.h"
#include "fatbin_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct drv_link {
    uint8_t **parts;            /* fatbin containers, one per input */
    size_t *sizes;
    size_t n, cap;
    drv_jit_logs logs;          /* the buffers cuLinkCreate was given */
    uint8_t *image;             /* cuLinkComplete's result, freed with the state */
    size_t image_size;
} drv_link;

static CUresult drv_link_get(CUlinkState h, drv_link **out) {
    CUresult r = drv_initialised();
    if (r) return r;
    drv_state *s = drv_get();
    pthread_mutex_lock(&s->lock);
    drv_link *l = h ? rt_ptrmap_get(&s->links, h) : NULL;
    pthread_mutex_unlock(&s->lock);
    if (!l) return CUDA_ERROR_INVALID_HANDLE;
    *out = l;
    return CUDA_SUCCESS;
}

static void drv_link_log(char *buf, size_t size, const char *line) {
    if (!buf || !size) return;
    size_t used = strnlen(buf, size - 1);
    snprintf(buf + used, size - used, "%s%s", used ? "\n" : "", line);
}

DRV_API CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options,
                                 void **optionValues, CUlinkState *stateOut) {
    if (!stateOut) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    drv_link *l = calloc(1, sizeof *l);
    if (!l) return CUDA_ERROR_OUT_OF_MEMORY;
    r = drv_jit_options(numOptions, options, optionValues, &l->logs);
    if (r) {
        free(l);
        return r;
    }
    drv_state *s = drv_get();
    pthread_mutex_lock(&s->lock);
    bool ok = rt_ptrmap_put(&s->links, l, l);
    pthread_mutex_unlock(&s->lock);
    if (!ok) {
        free(l);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *stateOut = (CUlinkState)l;
    return CUDA_SUCCESS;
}

/* Parse the PTX of a container to find errors early (the message goes to the logs). */
static CUresult drv_link_check(drv_link *l, const uint8_t *image, size_t size, const char *name,
                               char *errlog, size_t errlen) {
    rt_context *c = rt_ctx();
    const gpu_preset *p = rt_cur(c)->preset;
    char err[2048] = "";
    uint32_t arch;
    cudaError_t code;
    char *ptx = rt_fatbin_select_ptx(image, size, p->major * 10 + p->minor, &arch, &code, err,
                                     sizeof err);
    CUresult r = CUDA_SUCCESS;
    if (!ptx) {
        r = code == cudaErrorNoKernelImageForDevice ? CUDA_ERROR_NO_BINARY_FOR_GPU
                                                    : CUDA_ERROR_INVALID_IMAGE;
    } else {
        ptx_module *pm = ptx_parse(ptx, strlen(ptx), name, err, sizeof err);
        free(ptx);
        if (pm) ptx_module_free(pm);
        else r = CUDA_ERROR_INVALID_PTX;
    }
    if (r) {
        drv_link_log(l->logs.error, l->logs.error_size, err);
        drv_link_log(errlog, errlen, err);
        drv_fail(r, "cuLinkAddData", "%s", err);
    }
    return r;
}

static CUresult drv_link_add(drv_link *l, CUjitInputType type, const void *data, size_t size,
                             const char *name, unsigned n, CUjit_option *opts, void **values) {
    drv_jit_logs logs;
    CUresult r = drv_jit_options(n, opts, values, &logs);
    if (r) return r;
    if (!name) name = "input";
    uint8_t *part = NULL;
    size_t part_size = 0;
    switch (type) {
    case CU_JIT_INPUT_PTX: {
        size_t len = strnlen(data, size); /* the size may count the terminating NUL */
        part = drv_fatbin_from_ptx(data, len, drv_fatbin_ptx_target(data, len), &part_size);
        break;
    }
    case CU_JIT_INPUT_FATBINARY: {
        char err[256];
        part_size = rt_fatbin_image_size(data, err, sizeof err);
        if (!part_size || part_size > size) {
            drv_link_log(logs.error, logs.error_size, err);
            drv_jit_logs_done(&logs);
            return CUDA_ERROR_INVALID_IMAGE;
        }
        part = malloc(part_size);
        if (part) memcpy(part, data, part_size);
        break;
    }
    case CU_JIT_INPUT_CUBIN:
        drv_jit_logs_done(&logs);
        return drv_fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "cuLinkAddData",
                        "%s is a cubin, machine code only; vcuda links PTX: add the PTX, or "
                        "a fatbin built with -gencode arch=compute_XX,code=compute_XX", name);
    case CU_JIT_INPUT_LIBRARY:
        if (strstr(name, "cudadevrt")) { /* served by vcuda itself */
            drv_jit_logs_done(&logs);
            return CUDA_SUCCESS;
        }
        /* fall through */
    default:
        drv_jit_logs_done(&logs);
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, "cuLinkAddData",
                        "input %s of type %d is not supported (PTX and fatbins are)", name,
                        (int)type);
    }
    if (!part) {
        drv_jit_logs_done(&logs);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    r = drv_link_check(l, part, part_size, name, logs.error, logs.error_size);
    drv_jit_logs_done(&logs);
    if (r) {
        free(part);
        return r;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 4;
        uint8_t **p = realloc(l->parts, cap * sizeof *p);
        if (p) l->parts = p;
        size_t *s = p ? realloc(l->sizes, cap * sizeof *s) : NULL;
        if (s) l->sizes = s;
        if (!p || !s) {
            free(part);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        l->cap = cap;
    }
    l->parts[l->n] = part;
    l->sizes[l->n++] = part_size;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size,
                                  const char *name, unsigned int numOptions,
                                  CUjit_option *options, void **optionValues) {
    drv_link *l;
    CUresult r = drv_link_get(state, &l);
    if (r) return r;
    if (!data || !size) return CUDA_ERROR_INVALID_VALUE;
    return drv_link_add(l, type, data, size, name, numOptions, options, optionValues);
}

DRV_API CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path,
                                  unsigned int numOptions, CUjit_option *options,
                                  void **optionValues) {
    drv_link *l;
    CUresult r = drv_link_get(state, &l);
    if (r) return r;
    if (!path) return CUDA_ERROR_INVALID_VALUE;
    if (type == CU_JIT_INPUT_LIBRARY) /* nothing is read from the device runtime library */
        return drv_link_add(l, type, "", 1, path, numOptions, options, optionValues);
    FILE *f = fopen(path, "rb");
    if (!f) return drv_fail(CUDA_ERROR_FILE_NOT_FOUND, "cuLinkAddFile", "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n > 0 ? malloc((size_t)n + 1) : NULL;
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    if (!buf || got != (size_t)n) {
        free(buf);
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuLinkAddFile", "cannot read %s", path);
    }
    buf[n] = 0;
    const char *slash = strrchr(path, '/');
    r = drv_link_add(l, type, buf, (size_t)n + 1, slash ? slash + 1 : path, numOptions, options,
                     optionValues);
    free(buf);
    return r;
}

/* Link the inputs once, for the errors a link finds (what loading will link again). */
static CUresult drv_link_try(drv_link *l, char *err, size_t errlen) {
    rt_context *c = rt_ctx();
    const gpu_preset *p = rt_cur(c)->preset;
    ptx_module **mods = calloc(l->n, sizeof *mods);
    if (!mods) return CUDA_ERROR_OUT_OF_MEMORY;
    uint32_t n = 0;
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; i < l->n && !r; i++) {
        uint32_t arch;
        cudaError_t code;
        char *ptx = rt_fatbin_select_ptx(l->parts[i], l->sizes[i], p->major * 10 + p->minor,
                                         &arch, &code, err, errlen);
        if (!ptx) {
            r = CUDA_ERROR_INVALID_IMAGE;
            break;
        }
        char name[32];
        snprintf(name, sizeof name, "input%zu", i + 1);
        if (strstr(ptx, "__cuda_syscall_")) { /* a fatbin's own device runtime: served */
            free(ptx);
            continue;
        }
        mods[n] = ptx_parse(ptx, strlen(ptx), name, err, errlen);
        free(ptx);
        if (!mods[n]) r = CUDA_ERROR_INVALID_PTX;
        else n++;
    }
    if (r) {
        for (uint32_t i = 0; i < n; i++) ptx_module_free(mods[i]);
    } else {
        ptx_module *linked = ptx_link(mods, n, "cuLinkComplete", err, errlen);
        if (linked) ptx_module_free(linked);
        else r = CUDA_ERROR_INVALID_PTX;
    }
    free(mods);
    return r;
}

DRV_API CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut) {
    drv_link *l;
    CUresult r = drv_link_get(state, &l);
    if (r) return r;
    if (!cubinOut || !sizeOut) return CUDA_ERROR_INVALID_VALUE;
    if (!l->n) return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuLinkComplete", "nothing was added");
    char err[2048] = "";
    r = drv_link_try(l, err, sizeof err);
    if (r) {
        drv_link_log(l->logs.error, l->logs.error_size, err);
        drv_jit_logs_done(&l->logs);
        return drv_fail(r, "cuLinkComplete", "%s", err);
    }
    free(l->image);
    l->image = drv_image_linked(l->parts, l->sizes, l->n, &l->image_size);
    drv_jit_logs_done(&l->logs);
    if (!l->image) return CUDA_ERROR_OUT_OF_MEMORY;
    *cubinOut = l->image;
    *sizeOut = l->image_size;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuLinkDestroy(CUlinkState state) {
    drv_link *l;
    CUresult r = drv_link_get(state, &l);
    if (r) return r;
    drv_state *s = drv_get();
    pthread_mutex_lock(&s->lock);
    rt_ptrmap_remove(&s->links, l);
    pthread_mutex_unlock(&s->lock);
    for (size_t i = 0; i < l->n; i++) free(l->parts[i]);
    free(l->parts);
    free(l->sizes);
    free(l->image);
    free(l);
    return CUDA_SUCCESS;
}
