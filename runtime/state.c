/* runtime/state.c — the runtime's context and per-thread state: lazy creation of the
 * context and the emulated device, the calling thread's last error, the sticky device
 * error, and cudaDeviceReset's teardown.
 *
 * Errors follow CUDA 13 as an H100 shows them (tests/cuda/probes/expected/fault_*.out):
 * a failing call records its error as the thread's last error; after a device fault
 * every call that needs the context returns the fault (and records it again), while
 * cudaGetLastError clears only the thread's copy; cudaDeviceReset clears the fault.
 */
#include "rt.h"
#include "../jit/jit.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static rt_context *rt_the_context;
static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
static _Thread_local rt_thread rt_tls;
static cudaError_t rt_init_error; /* the device could not be set up: every call fails */
/* API calls made by this thread (counted in rt_ctx), and the last one whose error went to
 * the checker: an error recorded twice within one call is reported once. */
static _Thread_local uint64_t rt_api_calls, rt_api_checked;

rt_thread *rt_thread_state(void) { return &rt_tls; }

double rt_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The stack and heap limits set for device d (cudaDeviceSetLimit) in force on its SIMT
 * core; setting the heap size starts an empty heap. */
void rt_apply_limits(rt_context *c, int d, gpu_device *g) {
    const size_t *l = c->devs[d].limits;
    if (l[cudaLimitStackSize]) gpu_device_set_stack_limit(g, l[cudaLimitStackSize]);
    if (l[cudaLimitMallocHeapSize]) gpu_device_heap_reset(g, l[cudaLimitMallocHeapSize]);
}

/* Each device has its own limits, flags and cache configuration, as each GPU's primary
 * context has (tests/cuda/multigpu/expected/devvars.out). */
void rt_dev_settings_default(rt_context *c, int d) {
    rt_dev *v = &c->devs[d];
    const gpu_preset *p = v->preset;
    v->heap_in_use = false;
    v->flags = 0;
    v->flags_set = false;
    v->cache_config = cudaFuncCachePreferNone;
    if (!p) return;
    v->limits[cudaLimitStackSize] = p->limit_stack_size;
    v->limits[cudaLimitPrintfFifoSize] = p->limit_printf_fifo_size;
    v->limits[cudaLimitMallocHeapSize] = p->limit_malloc_heap_size;
    v->limits[cudaLimitDevRuntimeSyncDepth] = p->limit_dev_runtime_sync_depth;
    v->limits[cudaLimitDevRuntimePendingLaunchCount] = p->limit_dev_runtime_pending_launch_count;
    v->limits[cudaLimitMaxL2FetchGranularity] = p->limit_max_l2_fetch_granularity;
    v->limits[cudaLimitPersistingL2CacheSize] = p->limit_persisting_l2_cache_size;
    /* (the device's core does not exist here, at start-up or after a reset: rt_dev_gpu
     * hands the limits to it as it makes it) */
}

static void rt_limits_default(rt_context *c) {
    for (int d = 0; d < c->ndevs; d++) rt_dev_settings_default(c, d);
}

static void rt_at_exit(void) {
    rt_context *c = rt_the_context;
    /* Work never synchronised is lost at exit, as on a GPU (its printf output too). */
    if (c && c->report) {
        /* The program's own output first, then the report after it. */
        fflush(stdout);
        rt_report_print(c);
    }
    if (c && c->check) {
        /* the context ends with the process: what is still allocated leaked */
        if (c->mem) check_on_context_end(c->check, c->mem);
        check_finish(c->check);
    }
    if (c) rt_prof_report(c);
    if (c) rt_trace_write(c);
    rt_progress_exit();
}

static void rt_context_create(void) {
    rt_context *c = calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "vcuda: out of memory creating the runtime\n");
        abort();
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->engine_lock, NULL);
    pthread_mutex_init(&c->print_lock, NULL);
    pthread_mutex_init(&c->tool_lock, NULL);
    /* Timed waits (queries, host functions' grace) count on the monotonic clock. */
    pthread_condattr_t mono;
    pthread_condattr_init(&mono);
    pthread_condattr_setclock(&mono, CLOCK_MONOTONIC);
    pthread_cond_init(&c->engine_done, &mono);
    pthread_cond_init(&c->hostfn_ready, &mono);
    pthread_cond_init(&c->work_ready, NULL);
    pthread_condattr_destroy(&mono);
    c->outputs_tail = &c->outputs;
    rt_devices_init(c);
    if (c->ndevs == 0) rt_init_error = cudaErrorNoDevice;
    c->active = true;
    rt_limits_default(c);
    const char *rep = getenv("VCUDA_REPORT");
    c->report = rep && strcmp(rep, "0") != 0 && rep[0];
    const char *loading = getenv("CUDA_MODULE_LOADING");
    c->lazy_loading = !loading || strcmp(loading, "EAGER") != 0;
    c->jit_mode = jit_mode_from_env();
    c->next_stream_id = 1;
    c->check = check_get();
    rt_trace_init(c);
    /* under `vcuda check` every launch runs in the interpreter (the checkers read its
     * events): nothing to compile; under `vcuda prof` the compiled code is instrumented
     * (runtime/module.c), unless VCUDA_PROF_JIT=0 asks for the interpreter */
    if (c->check || (rt_prof_enabled() && !rt_prof_compiled())) c->jit_mode = JIT_OFF;
    rt_the_context = c;
    atexit(rt_at_exit);
}

rt_context *rt_ctx(void) {
    pthread_once(&rt_once, rt_context_create);
    rt_api_calls++;
    return rt_the_context;
}

cudaError_t rt_record(cudaError_t e) {
    if (rt_trace_on) rt_trace_api_end();
    if (e != cudaSuccess) {
        rt_tls.last_error = e;
        rt_context *c = rt_the_context;
        if (c && c->check && rt_api_checked != rt_api_calls) {
            rt_api_checked = rt_api_calls;
            check_on_api_error(c->check, (int)e, rt_error_name(e), rt_error_message(e));
        }
    }
    return e;
}

static void rt_print_stdout(const char *data, size_t len, void *ctx) {
    (void)ctx;
    /* Through stdio's own buffer, so device output stays in order with the host's. */
    fwrite(data, 1, len, stdout);
}

gpu_device *rt_dev_gpu(rt_context *c, int d) {
    rt_dev *v = &c->devs[d];
    if (!v->gpu && v->preset) {
        v->gpu = gpu_device_new_shared(v->preset, 0, c->mem);
        if (!v->gpu) {
            fprintf(stderr, "vcuda: cannot create the %s device\n", v->preset->key);
            return NULL;
        }
        gpu_device_set_print(v->gpu, rt_print_stdout, NULL);
        rt_apply_limits(c, d, v->gpu);
    }
    c->active = true;
    return v->gpu;
}

rt_dev *rt_cur(rt_context *c) {
    int d = rt_tls.device;
    return &c->devs[d >= 0 && d < c->ndevs ? d : 0];
}

uint32_t rt_cur_tag(rt_context *c) { return (uint32_t)rt_cur(c)->ordinal + 1; }

gpu_device *rt_device(rt_context *c) { return rt_dev_gpu(c, rt_cur(c)->ordinal); }

static atomic_bool rt_started;

bool rt_runtime_started(void) { return atomic_load(&rt_started); }

static cudaError_t rt_enter_common(rt_context *c, bool sticky_matters) {
    if (rt_init_error) return rt_record(rt_init_error);
    atomic_store(&rt_started, true);
    pthread_mutex_lock(&c->lock);
    cudaError_t e = sticky_matters ? c->sticky : cudaSuccess;
    if (e == cudaSuccess && c->unusable) e = cudaErrorDevicesUnavailable;
    if (e == cudaSuccess && !rt_device(c)) e = cudaErrorDevicesUnavailable;
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

cudaError_t rt_enter(rt_context *c) { return rt_enter_common(c, true); }
cudaError_t rt_enter_device(rt_context *c) { return rt_enter_common(c, false); }

void rt_set_sticky(rt_context *c, cudaError_t e) {
    pthread_mutex_lock(&c->lock);
    if (c->sticky == cudaSuccess) c->sticky = e;
    pthread_mutex_unlock(&c->lock);
}

/* Called with lock held, after every stream's work has completed. */
void rt_context_reset(rt_context *c) {
    rt_engine_reset(c);
    rt_modules_unload(c);
    if (c->mem) {
        if (c->check) check_on_context_end(c->check, c->mem);
        rt_pools_reset(c);
        rt_graph_cond_reset();
        rt_memory_release_all(c, c->mem);
    }
    for (int d = 0; d < c->ndevs; d++) {
        gpu_device_free(c->devs[d].gpu);
        c->devs[d].gpu = NULL;
        c->devs[d].peers = 0;
        c->devrt_dev[d] = NULL; /* a new device learns the device runtime's limits again */
    }
    for (rt_func *f = c->funcs; f; f = f->next) {
        f->max_dynamic_shared = -1;
        f->carveout = -1;
        f->cache_config = cudaFuncCachePreferNone;
        f->device_loaded = false;
        memset(f->cluster_attrs, 0, sizeof f->cluster_attrs);
    }
    /* After a device fault the device stays unusable to this process even once reset
     * (an H100 answers cudaErrorDevicesUnavailable from then on: fault_*.out). */
    if (c->sticky != cudaSuccess) c->unusable = true;
    c->sticky = cudaSuccess;
    c->active = false; /* no primary context until the next call makes one */
    rt_limits_default(c);
}

void rt_context_reset_device(rt_context *c, int device) {
    rt_engine_reset_device(c, device);
    rt_memory_release_device(c, (uint32_t)device + 1);
    /* no device reaches it as a peer any more, nor it them */
    c->devs[device].peers = 0;
    for (int d = 0; d < c->ndevs; d++) c->devs[d].peers &= ~(1u << device);
    rt_dev_settings_default(c, device);
    rt_modules_reset_device(c, device);
    mem_forget_cached();
    /* the fault is the process's (an H200 pair reports it on both devices:
     * tests/cuda/multigpu/expected/peer_fault.out); reset, it leaves them unusable */
    if (c->sticky != cudaSuccess) c->unusable = true;
    c->sticky = cudaSuccess;
}

void rt_context_shutdown(void) {
    rt_context *c = rt_the_context;
    if (!c) return;
    rt_device_synchronize(c);
    rt_engine_stop(c);
    pthread_mutex_lock(&c->lock);
    rt_context_reset(c);
    rt_ptrmap_free(&c->func_by_stub);
    rt_ptrmap_free(&c->func_handles);
    rt_ptrmap_free(&c->var_by_shadow);
    for (rt_func *f = c->funcs, *n; f; f = n) {
        n = f->next;
        free(f->name);
        free(f);
    }
    for (rt_var *v = c->vars, *n; v; v = n) {
        n = v->next;
        free(v->name);
        free(v);
    }
    for (rt_module *m = c->modules, *n; m; m = n) {
        n = m->next;
        free(m->error);
        free(m->rdc_images);
        free(m);
    }
    c->rdc_module = NULL;
    c->funcs = NULL;
    c->vars = NULL;
    c->modules = NULL;
    pthread_mutex_unlock(&c->lock);
}

RT_API cudaError_t cudaGetLastError(void) {
    rt_ctx();
    if (rt_init_error) return rt_init_error; /* a runtime that could not start stays so */
    cudaError_t e = rt_tls.last_error;
    rt_tls.last_error = cudaSuccess;
    return e;
}

RT_API cudaError_t cudaPeekAtLastError(void) {
    rt_ctx();
    return rt_init_error ? rt_init_error : rt_tls.last_error;
}
