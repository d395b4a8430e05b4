/* runtime/module.c — loading a registered module on first use: pick the PTX from its
 * fatbin, parse it, lower it onto the device (ptx_parse + exec_program_load), and resolve
 * the kernels and variables the program registered against it. Each device that uses a
 * module gets its own program, so its own copy of the module's variables, as each GPU has
 * (tests/cuda/multigpu/devvars.cu); __managed__ variables are one copy for all.
 *
 * A module that cannot be loaded says why on stderr once and keeps failing with the error
 * CUDA gives for a bad image: cudaErrorNoKernelImageForDevice when there is no PTX to run,
 * cudaErrorInvalidKernelImage for a malformed fatbin, cudaErrorInvalidPtx when the PTX
 * does not parse or uses something vcuda does not support.
 */
#include "rt.h"
#include "../jit/jit.h"
#include "../exec/native.h"

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

/* Build m's program for device d: choose and parse its PTX for d's preset, lower it with
 * d's copy of the variables, start compiling it (c->lock held). The first device's load
 * decides the module's fate (a failure there fails it for good); rt_cur answers for d
 * meanwhile, so the link and the model checks see d's preset. */
static cudaError_t rt_module_build(rt_context *c, rt_module *m, int d) {
    gpu_device *g = rt_dev_gpu(c, d);
    if (!g) return cudaErrorDevicesUnavailable;
    rt_thread *t = rt_thread_state();
    int saved_device = t->device;
    t->device = d;
    const gpu_preset *p = c->devs[d].preset;
    bool first = m->prog == NULL;
    char err[1024] = "";
    cudaError_t code = cudaSuccess;
    uint32_t arch = 0;
    exec_program *prog = NULL;
    struct jit_job *jit = NULL;
    ptx_module *pm;
    if (m->rdc) {
        pm = rt_rdc_link(c, m, &arch, &code, err, sizeof err);
        if (!pm) {
            fprintf(stderr, "vcuda: cannot load the program's device code: %s\n", err);
            goto fail;
        }
    } else {
        char *ptx = rt_fatbin_select_ptx(m->image, m->image_size, p->major * 10 + p->minor,
                                         &arch, &code, err, sizeof err);
        if (!ptx) {
            fprintf(stderr, "vcuda: %s: %s\n", m->name, err);
            goto fail;
        }
        if (first) rt_module_dump_text(m->name, ptx);
        pm = ptx_parse(ptx, strlen(ptx), m->name, err, sizeof err);
        free(ptx);
        if (!pm) {
            fprintf(stderr, "vcuda: cannot load the program's device code: %s\n", err);
            code = cudaErrorInvalidPtx;
            goto fail;
        }
    }
    code = rt_rdc_check_model(c, pm, err, sizeof err);
    if (code != cudaSuccess) {
        fprintf(stderr, "vcuda: cannot load the program's device code: %s\n", err);
        ptx_module_free(pm);
        goto fail;
    }
    uint64_t const_bytes = 0;
    for (uint32_t i = 0; i < pm->nvars; i++)
        if (pm->vars[i].space == PTX_SPACE_CONST) const_bytes += pm->vars[i].size;
    exec_program_opts opts = {.device_tag = (uint32_t)d + 1, .managed_from = m->prog,
                              .reserved_shared = (uint32_t)p->reserved_shared_per_block,
                              .shared_alloc_unit = (uint32_t)p->shared_alloc_unit};
    prog = exec_program_load_opts(pm, gpu_device_mem(g), &opts, err, sizeof err);
    if (!prog) {
        fprintf(stderr, "vcuda: cannot load the program's device code: %s\n", err);
        code = cudaErrorInvalidPtx;
        goto fail;
    }
    /* the compiled tier: each kernel is compiled when a launch first needs it
     * (rt_func_compile), before it runs (VCUDA_JIT=always) or in the background while
     * its first launches run interpreted (the default) */
    if (rt_prof_compiled()) exec_program_instrument(prog, true); /* counts for the profiler */
    jit = jit_program_open(prog, c->jit_mode);
    t->device = saved_device;
    m->dev_prog[d] = prog;
    m->dev_jit[d] = jit;
    if (!first) return cudaSuccess;
    m->home = d;
    m->prog = prog;
    m->jit = jit;
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
fail:
    t->device = saved_device;
    if (first) rt_module_fail(m, code);
    return code;
}

cudaError_t rt_module_load_on(rt_context *c, rt_module *m, int d) {
    if (m->state == RT_MOD_FAILED) return m->load_error;
    if (m->state == RT_MOD_LOADED && m->dev_prog[d]) return cudaSuccess;
    if (m->error) {
        fprintf(stderr, "vcuda: %s: %s\n", m->name, m->error);
        rt_module_fail(m, cudaErrorInvalidKernelImage);
        return m->load_error;
    }
    return rt_module_build(c, m, d);
}

cudaError_t rt_module_load(rt_context *c, rt_module *m) {
    return rt_module_load_on(c, m, rt_cur(c)->ordinal);
}

/* Forget f's kernels on device d (d < 0: on every device). */
static void rt_funcs_forget(rt_context *c, const rt_module *m, int d) {
    for (rt_func *f = c->funcs; f; f = f->next) {
        if (m && f->mod != m) continue;
        if (d < 0) {
            f->kernel = NULL;
            memset(f->dev_kernel, 0, sizeof f->dev_kernel);
        } else {
            f->dev_kernel[d] = NULL;
        }
    }
}

void rt_module_free_programs(rt_context *c, rt_module *m) {
    mem_table *t = c->mem;
    /* every other device's program borrows the first one's __managed__ variables: they
     * go first */
    for (int d = 0; d < GPU_MAX_DEVICES; d++) {
        jit_job_free(m->dev_jit[d]); /* stops a compile still running: the program goes */
        m->dev_jit[d] = NULL;
        if (m->dev_prog[d] && m->dev_prog[d] != m->prog) exec_program_free(m->dev_prog[d], t);
        m->dev_prog[d] = NULL;
    }
    if (m->prog) exec_program_free(m->prog, t);
    m->prog = NULL;
    m->jit = NULL;
    rt_funcs_forget(c, m, -1);
}

void rt_modules_unload(rt_context *c) {
    for (rt_module *m = c->modules; m; m = m->next) {
        if (m->jit) {
            /* (freeing the job waits for its threads, the compiler's identity query too:
             * the lookups after it cost little, and the report then says what the cache
             * held) */
            jit_job_await_lookups(m->jit);
            jit_job_describe(m->jit, m->jit_note, sizeof m->jit_note); /* (report) */
        }
        rt_module_free_programs(c, m);
        /* A module that failed for a reason in its image fails again; one that failed to
         * reach the device may load after the reset. */
        if (m->state == RT_MOD_LOADED) m->state = RT_MOD_UNLOADED;
    }
    rt_funcs_forget(c, NULL, -1);
    /* Pointers to __managed__ variables are re-aimed when cudaDeviceReset reloads their
     * modules (host code checks only once that they are set). */
}

void rt_modules_reset_device(rt_context *c, int d) {
    for (rt_module *m = c->modules; m; m = m->next) {
        /* the first device's program holds the __managed__ variables every device shares
         * and stands for the module: it stays (its variables keep their values) */
        if (!m->dev_prog[d] || m->dev_prog[d] == m->prog) continue;
        jit_job_free(m->dev_jit[d]);
        m->dev_jit[d] = NULL;
        exec_program_free(m->dev_prog[d], c->mem);
        m->dev_prog[d] = NULL;
        rt_funcs_forget(c, m, d);
    }
}

cudaError_t rt_func_resolve_on(rt_context *c, rt_func *f, int d) {
    if (f->kernel && f->dev_kernel[d] && f->mod->state == RT_MOD_LOADED && f->mod->dev_prog[d])
        return cudaSuccess;
    cudaError_t e = rt_module_load_on(c, f->mod, d);
    if (e != cudaSuccess) return e;
    f->dev_kernel[d] = exec_program_kernel(f->mod->dev_prog[d], f->name);
    if (!f->kernel) f->kernel = exec_program_kernel(f->mod->prog, f->name);
    if (!f->kernel || !f->dev_kernel[d]) {
        fprintf(stderr, "vcuda: kernel %s is registered but not in the program's PTX\n", f->name);
        return cudaErrorInvalidDeviceFunction;
    }
    return cudaSuccess;
}

cudaError_t rt_func_compile(rt_func *f, int d) {
    char err[1400];
    if (jit_kernel_request(f->mod->dev_jit[d], f->dev_kernel[d], err, sizeof err))
        return cudaSuccess;
    fprintf(stderr, "vcuda: %s: %s\n", f->mod->name, err);
    return cudaErrorInvalidPtx;
}

cudaError_t rt_func_resolve(rt_context *c, rt_func *f) {
    return rt_func_resolve_on(c, f, rt_cur(c)->ordinal);
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
    int d = rt_cur(c)->ordinal;
    cudaError_t e = rt_module_load_on(c, v->mod, d);
    if (e != cudaSuccess) return e;
    size_t size = 0;
    *addr = exec_program_var(v->mod->dev_prog[d], v->name, &size);
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
