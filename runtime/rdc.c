/* runtime/rdc.c — relocatable device code (nvcc -rdc=true): registering the objects'
 * device code and linking it into one program when it is first used.
 *
 * With -rdc=true each object keeps its device code in a section of its own
 * (__nv_relfatbin) and, instead of calling __cudaRegisterFatBinary, its start-up code calls
 * __cudaRegisterLinkedBinary_<module id>(callback, its fatbin wrapper, ...). Those functions
 * come from the device-link step:
 *   - nvcc's own (nvlink, then crt/link.stub compiled with the generated list of module
 *     ids) gathers the objects' fatbins and calls __cudaRegisterFatBinary once with a
 *     wrapper of version 2: {magic, 2, the nvlink-linked image (machine code only),
 *     NULL-terminated array of the objects' fatbins}, then each object's callback with the
 *     handle (the callbacks register that object's kernels and variables);
 *   - `vcuda cc` generates the same functions without nvlink (tools/rdc.c): each object
 *     registers at once with a version-2 wrapper {magic, 2, NULL, {its fatbin, NULL}}.
 * Both land here. All relocatable code of the process forms one module (a program links
 * its objects into one), so every version-2 registration returns the same handle and adds
 * its fatbins; the module is linked (ptx_link) when first loaded.
 *
 * An image contributes the PTX that suits the device (as for any module); images without
 * PTX (nvlink's output is machine code only) and the device runtime library's own object
 * (libcudadevrt, which nvcc -dlink adds: vcuda serves those calls itself) are left out.
 */
#include "rt.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool rt_rdc_add_image(rt_module *m, const void *image) {
    for (size_t i = 0; i < m->nrdc_images; i++)
        if (m->rdc_images[i] == image) return true; /* registered twice: once is enough */
    if (m->nrdc_images == m->rdc_images_cap) {
        size_t cap = m->rdc_images_cap ? m->rdc_images_cap * 2 : 8;
        const uint8_t **n = realloc(m->rdc_images, cap * sizeof *n);
        if (!n) return false;
        m->rdc_images = n;
        m->rdc_images_cap = cap;
    }
    m->rdc_images[m->nrdc_images++] = image;
    return true;
}

rt_module *rt_rdc_register(rt_context *c, const void *wrapper, const void *linked_image,
                           void *const *prelinked) {
    pthread_mutex_lock(&c->lock);
    rt_module *m = c->rdc_module;
    if (!m) {
        m = calloc(1, sizeof *m);
        if (!m) {
            fprintf(stderr, "vcuda: out of memory registering device code\n");
            abort();
        }
        m->rdc = true;
        m->wrapper = wrapper;
        Dl_info info;
        const char *prog = "program";
        if (dladdr(wrapper, &info) && info.dli_fname && info.dli_fname[0]) {
            const char *slash = strrchr(info.dli_fname, '/');
            prog = slash ? slash + 1 : info.dli_fname;
        }
        snprintf(m->name, sizeof m->name, "%s.ptx", prog);
        rt_module **tail = &c->modules;
        while (*tail) tail = &(*tail)->next;
        *tail = m;
        c->nmodules++;
        c->rdc_module = m;
    }
    bool ok = true;
    if (m->state != RT_MOD_UNLOADED) {
        /* linked already (code registered late, by a library opened with dlopen) */
        fprintf(stderr, "vcuda: relocatable device code registered after the program's device "
                        "code was loaded is not supported; it is ignored\n");
    } else {
        if (linked_image) ok = rt_rdc_add_image(m, linked_image);
        for (size_t i = 0; ok && prelinked && prelinked[i]; i++)
            ok = rt_rdc_add_image(m, prelinked[i]);
    }
    pthread_mutex_unlock(&c->lock);
    if (!ok) {
        fprintf(stderr, "vcuda: out of memory registering device code\n");
        abort();
    }
    return m;
}

/* NVIDIA's device runtime library implements the device-side API with calls into the
 * driver ("__cuda_syscall_..."); its object is part of nvcc's device link. */
static bool rt_rdc_is_device_runtime(const char *ptx) {
    return strstr(ptx, "__cuda_syscall_") != NULL;
}

ptx_module *rt_rdc_link(rt_context *c, rt_module *m, uint32_t *arch, cudaError_t *code,
                        char *err, size_t errlen) {
    const gpu_preset *p = rt_cur(c)->preset;
    int device_sm = p->major * 10 + p->minor;
    ptx_module **mods = calloc(m->nrdc_images + 1, sizeof *mods);
    if (!mods) {
        *code = cudaErrorMemoryAllocation;
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    uint32_t n = 0;
    *arch = 0;
    for (size_t i = 0; i < m->nrdc_images; i++) {
        char why[512] = "";
        size_t size = rt_fatbin_image_size(m->rdc_images[i], why, sizeof why);
        if (!size) {
            snprintf(err, errlen, "object %zu of the program: %s", i + 1, why);
            *code = cudaErrorInvalidKernelImage;
            goto fail;
        }
        uint32_t image_arch = 0;
        cudaError_t e;
        char *ptx = rt_fatbin_select_ptx(m->rdc_images[i], size, device_sm, &image_arch, &e,
                                         why, sizeof why);
        if (!ptx) {
            if (e == cudaErrorNoKernelImageForDevice) continue; /* machine code only */
            snprintf(err, errlen, "object %zu of the program: %s", i + 1, why);
            *code = e;
            goto fail;
        }
        if (rt_rdc_is_device_runtime(ptx)) {
            free(ptx);
            continue;
        }
        char name[300];
        snprintf(name, sizeof name, "%.255s#%u", m->name, n + 1);
        rt_module_dump_text(name, ptx);
        ptx_module *pm = ptx_parse(ptx, strlen(ptx), name, err, errlen);
        free(ptx);
        if (!pm) {
            *code = cudaErrorInvalidPtx;
            goto fail;
        }
        mods[n++] = pm;
        if (image_arch > *arch) *arch = image_arch;
    }
    if (n == 0) {
        snprintf(err, errlen, "none of the program's %zu relocatable objects holds PTX for this "
                 "device; rebuild it with `vcuda cc`", m->nrdc_images);
        *code = cudaErrorNoKernelImageForDevice;
        free(mods);
        return NULL;
    }
    ptx_module *linked = ptx_link(mods, n, m->name, err, errlen);
    free(mods);
    if (!linked) *code = cudaErrorInvalidPtx;
    else *code = cudaSuccess;
    return linked;
fail:
    for (uint32_t i = 0; i < n; i++) ptx_module_free(mods[i]);
    free(mods);
    return NULL;
}

cudaError_t rt_rdc_check_model(rt_context *c, const ptx_module *pm, char *err, size_t errlen) {
    /* CDP1's device-side cudaDeviceSynchronize (nvcc 13 compiles it only for sm_80 and
     * older, with -DCUDA_FORCE_CDP1_IF_SUPPORTED) is refused by devices of compute
     * capability 9.0 and later when the module is loaded, as the driver refuses the PTX. */
    int f = ptx_find_func(pm, "cudaDeviceSynchronize");
    if (f >= 0 && pm->funcs[f].ninsns == 0 && rt_cur(c)->preset->major >= 9) {
        snprintf(err, errlen, "the device code calls cudaDeviceSynchronize (the legacy dynamic "
                 "parallelism model, CDP1), which devices of compute capability 9.0 and later "
                 "do not support");
        return cudaErrorUnsupportedDevSideSync;
    }
    return cudaSuccess;
}
