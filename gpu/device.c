/* gpu/device.c — the virtual device: its preset, its memory table, where device printf
 * output goes, and the persistent pool of host threads that run blocks.
 *
 * The pool starts lazily: a program whose grids all have one block never starts a thread,
 * and such a launch runs on the calling thread with no hand-off at all. Pool threads sleep
 * on a condition variable between grids and are woken only as many as a grid can use.
 * The block scheduling itself, and the pool lanes' loop, are in gpu/scheduler.c.
 */
#include "device_internal.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GPU_MAX_THREADS 1024

static void print_to_stdout(const char *data, size_t len, void *ctx) {
    (void)ctx;
    fwrite(data, 1, len, stdout);
}

/* VCUDA_THREADS when set to a positive number, else the cores this process may run on. */
static unsigned default_thread_count(void) {
    const char *env = getenv("VCUDA_THREADS");
    if (env && *env) {
        char *end;
        long n = strtol(env, &end, 10);
        if (*end == 0 && n > 0)
            return (unsigned)(n > GPU_MAX_THREADS ? GPU_MAX_THREADS : n);
        fprintf(stderr, "vcuda: VCUDA_THREADS=%s is not a positive number; using the host's cores\n",
                env);
    }
    cpu_set_t set;
    long cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                              : sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    return (unsigned)(cores > GPU_MAX_THREADS ? GPU_MAX_THREADS : cores);
}

/* VCUDA_KERNEL_TIMEOUT: seconds (a decimal number) a grid may run before its launch fails
 * with cudaErrorLaunchTimeout, as a display watchdog stops kernels on a GPU; for CI jobs
 * whose kernels may never end. 0 or unset: no limit. */
static uint64_t kernel_timeout_ns(void) {
    const char *env = getenv("VCUDA_KERNEL_TIMEOUT");
    if (!env || !*env) return 0;
    char *end;
    double s = strtod(env, &end);
    if (*end != 0 || !(s >= 0) || s > 1e9) {
        fprintf(stderr, "vcuda: VCUDA_KERNEL_TIMEOUT=%s is not a number of seconds; no timeout\n",
                env);
        return 0;
    }
    return (uint64_t)(s * 1e9);
}

gpu_device *gpu_device_new(const gpu_preset *p, unsigned nworkers) {
    return gpu_device_new_shared(p, nworkers, NULL);
}

gpu_device *gpu_device_new_shared(const gpu_preset *p, unsigned nworkers, mem_table *mem) {
    gpu_device *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->preset = p;
    d->owns_mem = mem == NULL;
    d->mem = mem ? mem : mem_table_new();
    if (d->mem)
        d->grid_workspace = gpu_grid_workspace_new(d);
    d->nlanes = nworkers ? nworkers : default_thread_count();
    d->kernel_timeout_ns = kernel_timeout_ns();
    d->stack_limit = (uint32_t)p->limit_stack_size;
    d->heap.limit = p->limit_malloc_heap_size;
    if (d->nlanes > GPU_MAX_THREADS)
        d->nlanes = GPU_MAX_THREADS;
    d->lanes = calloc(d->nlanes, sizeof *d->lanes);
    d->sm_load = calloc((size_t)p->multiprocessor_count, sizeof *d->sm_load);
    if (!d->mem || !d->lanes || !d->sm_load) {
        if (d->mem)
            gpu_grid_workspace_free(d, d->grid_workspace);
        if (d->owns_mem)
            mem_table_free(d->mem);
        free(d->lanes);
        free(d->sm_load);
        free(d);
        return NULL;
    }
    for (unsigned i = 0; i < d->nlanes; i++) {
        d->lanes[i].dev = d;
        d->lanes[i].index = i;
        atomic_init(&d->lanes[i].block, UINT64_MAX);
    }
    d->print = print_to_stdout;
    atomic_init(&d->next_grid_id, 1);
    atomic_init(&d->dp_outstanding, 0);
    d->dp_pending_limit = p->limit_dev_runtime_pending_launch_count;
    d->dp_sync_depth_limit = p->limit_dev_runtime_sync_depth;
    pthread_mutex_init(&d->print_lock, NULL);
    pthread_mutex_init(&d->sched_lock, NULL);
    pthread_mutex_init(&d->spare_lock, NULL);
    pthread_cond_init(&d->sched_wake, NULL);
    return d;
}

void gpu_device_free(gpu_device *d) {
    if (!d)
        return;
    pthread_mutex_lock(&d->sched_lock);
    d->shutdown = true;
    pthread_cond_broadcast(&d->sched_wake);
    bool started = d->pool_started;
    pthread_mutex_unlock(&d->sched_lock);
    if (started) {
        for (unsigned i = 1; i < d->nlanes; i++)
            pthread_join(d->lanes[i].thread, NULL);
    }
    for (unsigned i = 0; i < d->nlanes; i++) {
        if (d->lanes[i].worker)
            exec_worker_free(d->lanes[i].worker);
        free(d->lanes[i].out.data);
        free(d->lanes[i].held.data);
        free(d->lanes[i].out.err);
    }
    for (size_t i = 0; i < d->nspare; i++)
        exec_worker_free(d->spare[i]);
    free(d->spare);
    free(d->lanes);
    free(d->sm_load);
    gpu_grid_workspace_free(d, d->grid_workspace);
    if (d->owns_mem)
        mem_table_free(d->mem);
    pthread_cond_destroy(&d->sched_wake);
    pthread_mutex_destroy(&d->spare_lock);
    pthread_mutex_destroy(&d->sched_lock);
    pthread_mutex_destroy(&d->print_lock);
    free(d);
}

const gpu_preset *gpu_device_preset(const gpu_device *d) { return d->preset; }
mem_table *gpu_device_mem(gpu_device *d) { return d->mem; }
unsigned gpu_device_threads(const gpu_device *d) { return d->nlanes; }

void gpu_device_set_print(gpu_device *d, gpu_print_fn fn, void *ctx) {
    pthread_mutex_lock(&d->print_lock);
    d->print = fn ? fn : print_to_stdout;
    d->print_ctx = fn ? ctx : NULL;
    pthread_mutex_unlock(&d->print_lock);
}

void gpu_device_set_stack_limit(gpu_device *d, uint64_t bytes) {
    d->stack_limit = bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
}

void gpu_device_heap_reset(gpu_device *d, uint64_t bytes) {
    d->heap.limit = bytes;
    d->heap.used = 0;
}

void gpu_device_emit(gpu_device *d, const char *data, size_t len) {
    if (len == 0)
        return;
    pthread_mutex_lock(&d->print_lock);
    d->print(data, len, d->print_ctx);
    pthread_mutex_unlock(&d->print_lock);
}

void gpu_device_emit_err(gpu_device *d, const char *data, size_t len) {
    if (len == 0)
        return;
    pthread_mutex_lock(&d->print_lock);
    fwrite(data, 1, len, stderr);
    pthread_mutex_unlock(&d->print_lock);
}

/* ---- the pool ---- */

/* Start the pool lanes (called with sched_lock held). A lane that cannot be started is
 * left out: grids run on fewer threads. */
void gpu_pool_start(gpu_device *d) {
    if (d->pool_started)
        return;
    d->pool_started = true;
    for (unsigned i = 1; i < d->nlanes; i++) {
        gpu_lane *lane = &d->lanes[i];
        lane->worker = exec_worker_new();
        if (!lane->worker ||
            pthread_create(&lane->thread, NULL, gpu_pool_lane_main, lane) != 0) {
            fprintf(stderr, "vcuda: could not start host thread %u; running with %u\n", i, i);
            if (lane->worker)
                exec_worker_free(lane->worker);
            lane->worker = NULL;
            d->nlanes = i;
            break;
        }
    }
}

/* ---- workers for the lanes of calling threads and nested grids ---- */

exec_worker *gpu_spare_worker_take(gpu_device *d) {
    exec_worker *w = NULL;
    pthread_mutex_lock(&d->spare_lock);
    if (d->nspare > 0)
        w = d->spare[--d->nspare];
    pthread_mutex_unlock(&d->spare_lock);
    return w ? w : exec_worker_new();
}

void gpu_spare_worker_give(gpu_device *d, exec_worker *w) {
    pthread_mutex_lock(&d->spare_lock);
    if (d->nspare == d->spare_cap) {
        size_t cap = d->spare_cap ? d->spare_cap * 2 : 4;
        exec_worker **n = realloc(d->spare, cap * sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&d->spare_lock);
            exec_worker_free(w);
            return;
        }
        d->spare = n;
        d->spare_cap = cap;
    }
    d->spare[d->nspare++] = w;
    pthread_mutex_unlock(&d->spare_lock);
}
