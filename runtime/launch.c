/* runtime/launch.c — kernel launches: <<<...>>> (through __cudaLaunchKernel) and
 * cudaLaunchKernel. A launch is checked the way CUDA 13 checks it, its arguments are
 * copied into a parameter buffer laid out by the kernel's PTX parameters, and the grid is
 * queued on its stream; it runs when the program synchronises (queue.c).
 *
 * CUDA 13 answers every bad configuration with cudaErrorInvalidValue (an H100 shows it:
 * tests/cuda/probes/expected/launch_config.out): a zero dimension, a block dimension or
 * thread count over the limit, a grid dimension over the limit, more threads than
 * __launch_bounds__ allows, more dynamic shared memory than the kernel's limit. Those
 * errors are not sticky. A fault while the grid runs is: the launch returned cudaSuccess,
 * and the error appears at the next synchronising call (state.c).
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cudaError_t rt_check_config(rt_context *c, const rt_func *f, dim3 grid, dim3 block,
                                   size_t shared) {
    const gpu_preset *p = c->preset;
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return cudaErrorInvalidValue;
    if (block.x > (unsigned)p->max_block_dim[0] || block.y > (unsigned)p->max_block_dim[1] ||
        block.z > (unsigned)p->max_block_dim[2])
        return cudaErrorInvalidValue;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads > (uint64_t)p->max_threads_per_block) return cudaErrorInvalidValue;
    if (grid.x > (unsigned)p->max_grid_dim[0] || grid.y > (unsigned)p->max_grid_dim[1] ||
        grid.z > (unsigned)p->max_grid_dim[2])
        return cudaErrorInvalidValue;
    uint64_t maxntid = (uint64_t)(info->maxntid[0] ? info->maxntid[0] : 1) *
                       (info->maxntid[1] ? info->maxntid[1] : 1) *
                       (info->maxntid[2] ? info->maxntid[2] : 1);
    if (info->maxntid[0] && threads > maxntid) return cudaErrorInvalidValue;
    if (info->reqntid[0] &&
        (block.x != info->reqntid[0] || block.y != (info->reqntid[1] ? info->reqntid[1] : 1) ||
         block.z != (info->reqntid[2] ? info->reqntid[2] : 1)))
        return cudaErrorInvalidValue;
    if (shared > rt_func_max_dynamic_shared(c, f)) return cudaErrorInvalidValue;
    return cudaSuccess;
}

/* Copy each argument into its slot of the parameter buffer. */
static uint8_t *rt_build_params(const exec_kernel_info *info, void **args) {
    uint8_t *buf = calloc(1, info->param_size ? info->param_size : 1);
    if (!buf) return NULL;
    for (uint32_t i = 0; i < info->nparams; i++)
        memcpy(buf + info->param_offsets[i], args[i], info->param_sizes[i]);
    return buf;
}

/* The launch itself, for a kernel already found. Records the error. */
static cudaError_t rt_launch(rt_context *c, rt_func *f, dim3 grid, dim3 block, void **args,
                             size_t shared, cudaStream_t stream) {
    cudaError_t e = rt_func_resolve(c, f);
    if (e != cudaSuccess) return e;
    if (!rt_stream_valid(c, stream)) return cudaErrorInvalidResourceHandle;
    e = rt_check_config(c, f, grid, block, shared);
    if (e != cudaSuccess) return e;
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    if (info->nparams && !args) return cudaErrorInvalidValue;
    if (info->uses_device_heap) c->heap_in_use = true; /* (c->lock is held) */
    rt_op *op = calloc(1, sizeof *op);
    uint8_t *params = rt_build_params(info, args);
    if (!op || !params) {
        free(op);
        free(params);
        return cudaErrorMemoryAllocation;
    }
    op->kind = RT_OP_KERNEL;
    op->stream = stream;
    op->u.kernel.func = f;
    op->u.kernel.grid = (exec_dim3){grid.x, grid.y, grid.z};
    op->u.kernel.block = (exec_dim3){block.x, block.y, block.z};
    op->u.kernel.dyn_shared = (uint32_t)shared;
    op->u.kernel.params = params;
    if (c->check) op->u.kernel.check_site = check_host_site(c->check);
    rt_queue_push(c, op);
    return cudaSuccess;
}

static cudaError_t rt_launch_entry(const void *func, dim3 grid, dim3 block, void **args,
                                   size_t shared, cudaStream_t stream) {
    rt_context *c = rt_ctx();
    /* The kernel is looked up before the sticky error is reported (as CUDA 13 does:
     * tests/cuda/probes/expected/sticky.out). */
    pthread_mutex_lock(&c->lock);
    rt_func *f = NULL;
    cudaError_t e = rt_func_lookup(c, func, &f);
    pthread_mutex_unlock(&c->lock);
    if (e != cudaSuccess) return rt_record(e);
    e = rt_enter(c);
    if (e != cudaSuccess) return e;
    pthread_mutex_lock(&c->lock);
    e = rt_launch(c, f, grid, block, args, shared, stream);
    pthread_mutex_unlock(&c->lock);
    return rt_record(e);
}

RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                      void **args, size_t sharedMem, cudaStream_t stream) {
    return rt_launch_entry(kernel, gridDim, blockDim, args, sharedMem, stream);
}

RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                           void **args, size_t sharedMem, cudaStream_t stream) {
    return rt_launch_entry(kernel, gridDim, blockDim, args, sharedMem, stream);
}

RT_API cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream) {
    return rt_launch_entry(func, gridDim, blockDim, args, sharedMem, stream);
}

RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream) {
    return rt_launch_entry(func, gridDim, blockDim, args, sharedMem, stream);
}

/* cudaLaunchKernelEx's C form. Attributes that change how a grid runs are not emulated
 * yet and are refused by name; the rest have no effect on a single emulated device. */
RT_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                       void **args) {
    if (!config) return rt_record(cudaErrorInvalidValue);
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeClusterDimension:
            if (a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z <= 1) break;
            fprintf(stderr, "vcuda: cudaLaunchKernelEx: thread block clusters are not supported\n");
            return rt_record(cudaErrorNotSupported);
        case cudaLaunchAttributeCooperative:
            if (!a->val.cooperative) break;
            fprintf(stderr, "vcuda: cudaLaunchKernelEx: cooperative launches are not supported\n");
            return rt_record(cudaErrorNotSupported);
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributeAccessPolicyWindow:
        case cudaLaunchAttributeSynchronizationPolicy:
        case cudaLaunchAttributePriority:
        case cudaLaunchAttributeMemSyncDomainMap:
        case cudaLaunchAttributeMemSyncDomain:
            break;
        default:
            fprintf(stderr, "vcuda: cudaLaunchKernelEx: launch attribute %d is not supported\n",
                    (int)a->id);
            return rt_record(cudaErrorNotSupported);
        }
    }
    return rt_launch_entry(func, config->gridDim, config->blockDim, args,
                           config->dynamicSmemBytes, config->stream);
}

RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                            void **args) {
    return cudaLaunchKernelExC(config, func, args);
}

/* Called by the queue. */
void rt_run_kernel(rt_context *c, rt_op *op) {
    rt_func *f = op->u.kernel.func;
    gpu_grid_stats stats;
    memset(&stats, 0, sizeof stats);
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.kernel = f->kernel;
    L.grid = op->u.kernel.grid;
    L.block = op->u.kernel.block;
    L.dyn_shared = op->u.kernel.dyn_shared;
    L.params = op->u.kernel.params;
    L.mem = gpu_device_mem(c->dev);
    exec_fault fault;
    memset(&fault, 0, sizeof fault);
    rt_devrt_prepare(c);
    rt_prof_run *prof = rt_prof_begin(c, f, &L, op->stream); /* NULL unless profiling */
    /* under `vcuda check`, the checker watches the grid run */
    check_launch *ck = NULL;
    if (c->check && !L.observer)
        ck = check_launch_begin(c->check, &L, exec_program_module(f->mod->prog), f->name,
                                c->preset->major >= 7, op->u.kernel.check_site);
    exec_fault_kind k = gpu_run_grid_stats(c->dev, &L, &fault, &stats);
    rt_prof_end(c, prof, &stats, k != EXEC_OK);
    /* memcheck stops a kernel at an invalid access with an unspecified launch failure,
     * its reports taking the place of the executor's message */
    bool check_failed = check_launch_end(ck, k);

    pthread_mutex_lock(&c->lock);
    rt_kernel_stats *s = &f->stats;
    s->calls++;
    s->warp_insns += stats.warp_instructions;
    s->host_seconds += stats.host_seconds;
    s->last_grid = L.grid;
    s->last_block = L.block;
    if (k != EXEC_OK || check_failed) s->faults++;
    pthread_mutex_unlock(&c->lock);

    if (check_failed) {
        rt_set_sticky(c, cudaErrorLaunchFailure);
    } else if (k != EXEC_OK) {
        cudaError_t e = rt_error_from_fault(k);
        /* One line: the executor's diagnostic (kernel, block, thread, instruction, line). */
        fflush(stdout);
        if (fault.msg[0])
            fprintf(stderr, "%s\n", fault.msg);
        else
            fprintf(stderr, "vcuda: kernel %s failed: %s (%s)\n", f->name, rt_error_message(e),
                    rt_error_name(e));
        rt_set_sticky(c, e);
    }
}
