/* runtime/module.c — loading a registered module on first use: pick the PTX from its
 * fatbin, parse it, lower it onto the device (ptx_parse + exec_program_load), and resolve
 * the kernels and variables the program registered against it.
 *
 * A module that cannot be loaded says why on stderr once and keeps failing with the error
 * CUDA gives for a bad image: cudaErrorNoKernelImageForDevice when there is no PTX to run,
 * cudaErrorInvalidKernelImage for a malformed fatbin, cudaErrorInvalidPtx when the PTX
 * does not parse or uses something vcuda does not support.
 */
#include "rt.h"
#include "../jit/jit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void rt_module_fail(rt_module *m, cudaError_t e) {
    m->state = RT_MOD_FAILED;
    m->load_error = e;
}

/* VCUDA_DUMP_PTX=<dir> writes each module's chosen PTX there (for debugging). */
void rt_module_dump_text(const char *name, const char *ptx) {
    const char *dir = getenv("VCUDA_DUMP_PTX");
    if (!dir || !*dir) return;
    mkdir(dir, 0777);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "vcuda: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    fputs(ptx, f);
    fclose(f);
}

cudaError_t rt_module_load(rt_context *c, rt_module *m) {
    if (m->state == RT_MOD_LOADED) return cudaSuccess;
    if (m->state == RT_MOD_FAILED) return m->load_error;
    if (m->error) {
        fprintf(stderr, "vcuda: %s: %s\n", m->name, m->error);
        rt_module_fail(m, cudaErrorInvalidKernelImage);
        return m->load_error;
    }
    gpu_device *d = rt_device(c);
    if (!d) return cudaErrorDevicesUnavailable;
    const gpu_preset *p = rt_cur(c)->preset;
    char err[1024] = "";
    cudaError_t code;
    uint32_t arch = 0;
    ptx_module *pm;
    if (m->rdc) {
        pm = rt_rdc_link(c, m, &arch, &code, err, sizeof err);
        if (!pm) {
            fprintf(stderr, "vcuda: cannot load the program's device code: %s\n", err);
            rt_module_fail(m, code);
            return code;
        }
    } else {
        char *ptx = rt_fatbin_select_ptx(m->image, m->image_size, p->major * 10 + p->minor,
                                         &arch, &code, err, sizeof err);
        if (!ptx) {
            fprintf(stderr, "vcuda: %s: %s\n", m->name, err);
            rt_module_fail(m, code);
            return code;
        }
        rt_module_dump_text(m->name, ptx);
        pm = ptx_parse(ptx, strlen(ptx), m->name, err, sizeof err);
        free(ptx);
        if (!pm) {
            fprintf(stderr, "vcuda: cannot load the program's device code: %s\n", err);
            rt_module_fail(m, cudaErrorInvalidPtx);
            return m->load_error;
        }
    }
    code = rt_rdc_check_model(c, pm, err, sizeof err);
    if (code != cudaSuccess) {
        fprintf(stderr, "vcuda: cannot load the program's device code: %s\n", err);
        ptx_module_free(pm);
        rt_module_fail(m, code);
        return code;
    }
    uint64_t const_bytes = 0;
    for (uint32_t i = 0; i < pm->nvars; i++)
        if (pm->vars[i].space == PTX_SPACE_CONST) const_bytes += pm->vars[i].size;
    exec_program *prog = exec_program_load(pm, gpu_device_mem(d), err, sizeof err);
    if (!prog) {
        fprintf(stderr, "vcuda: cannot load the program's device code: %s\n", err);
        rt_module_fail(m, cudaErrorInvalidPtx);
        return m->load_error;
    }
    /* the compiled tier: VCUDA_JIT=always compiles now (a failure fails the load), the
     * default compiles in the background while the first launches run interpreted */
    m->jit = jit_program_start(prog, c->jit_mode, err, sizeof err);
    if (!m->jit && c->jit_mode == JIT_ALWAYS) {
        fprintf(stderr, "vcuda: %s: %s\n", m->name, err);
        exec_program_free(prog, gpu_device_mem(d));
        rt_module_fail(m, cudaErrorInvalidPtx);
        return m->load_error;
    }
    m->prog = prog;
    m->ptx_arch = arch;
    m->const_bytes = const_bytes;
    m->state = RT_MOD_LOADED;
    /* Host code reads __managed__ variables through a pointer nvcc keeps: point it at the
     * variable's storage, which host and device share. */
    for (rt_var *v = c->vars; v; v = v->next) {
        if (v->mod != m || !v->managed || !v->managed_host_ptr) continue;
        size_t size = 0;
        void *addr = exec_program_var(prog, v->name, &size);
        if (!addr) fprintf(stderr, "vcuda: __managed__ variable %s is not in the PTX\n", v->name);
        *v->managed_host_ptr = addr;
    }
    return cudaSuccess;
}

void rt_modules_unload(rt_context *c) {
    mem_table *t = c->mem;
    for (rt_module *m = c->modules; m; m = m->next) {
        if (m->jit) jit_job_describe(m->jit, m->jit_note, sizeof m->jit_note); /* (report) */
        jit_job_free(m->jit); /* stops a compile still running: the program goes */
        m->jit = NULL;
        if (m->state == RT_MOD_LOADED) exec_program_free(m->prog, t);
        m->prog = NULL;
        /* A module that failed for a reason in its image fails again; one that failed to
         * reach the device may load after the reset. */
        if (m->state == RT_MOD_LOADED) m->state = RT_MOD_UNLOADED;
    }
    for (rt_func *f = c->funcs; f; f = f->next) f->kernel = NULL;
    /* Pointers to __managed__ variables are re-aimed when cudaDeviceReset reloads their
     * modules (host code checks only once that they are set). */
}

cudaError_t rt_func_resolve(rt_context *c, rt_func *f) {
    if (f->kernel && f->mod->state == RT_MOD_LOADED) return cudaSuccess;
    cudaError_t e = rt_module_load(c, f->mod);
    if (e != cudaSuccess) return e;
    f->kernel = exec_program_kernel(f->mod->prog, f->name);
    if (!f->kernel) {
        fprintf(stderr, "vcuda: kernel %s is registered but not in the program's PTX\n", f->name);
        return cudaErrorInvalidDeviceFunction;
    }
    return cudaSuccess;
}

cudaError_t rt_func_lookup(rt_context *c, const void *func, rt_func **out) {
    *out = NULL;
    if (!func) return cudaErrorInvalidDeviceFunction;
    rt_func *f = rt_ptrmap_get(&c->func_by_stub, func);
    if (!f) f = rt_ptrmap_get(&c->func_handles, func); /* a cudaKernel_t / cudaFunction_t */
    if (!f) return cudaErrorInvalidResourceHandle;
    *out = f;
    return cudaSuccess;
}

rt_var *rt_var_lookup(rt_context *c, const void *symbol) {
    if (!symbol) return NULL;
    rt_var *v = rt_ptrmap_get(&c->var_by_shadow, symbol);
    if (v) return v;
    /* __managed__: host code passes the variable itself, whose address is its storage. */
    for (v = c->vars; v; v = v->next)
        if (v->managed && v->managed_host_ptr && *v->managed_host_ptr == symbol) return v;
    return NULL;
}

cudaError_t rt_var_address(rt_context *c, rt_var *v, void **addr) {
    cudaError_t e = rt_module_load(c, v->mod);
    if (e != cudaSuccess) return e;
    size_t size = 0;
    *addr = exec_program_var(v->mod->prog, v->name, &size);
    if (!*addr) {
        fprintf(stderr, "vcuda: variable %s is registered but not in the program's PTX\n", v->name);
        return cudaErrorInvalidSymbol;
    }
    return cudaSuccess;
}

size_t rt_func_max_dynamic_shared(rt_context *c, const rt_func *f) {
    if (f->max_dynamic_shared >= 0) return (size_t)f->max_dynamic_shared;
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    size_t limit = rt_cur(c)->preset->shared_per_block;
    return info->static_shared >= limit ? 0 : limit - info->static_shared;
}
