/* runtime/launch.c — kernel launches: <<<...>>> (through __cudaLaunchKernel) and
 * cudaLaunchKernel. A launch is checked the way CUDA 13 checks it, its arguments are
 * copied into a parameter buffer laid out by the kernel's PTX parameters, and the grid is
 * issued to its stream; the launch returns at once and the grid runs on the device's
 * engine threads when its stream reaches it (engine.c), beside grids of other streams.
 *
 * CUDA 13 answers every bad configuration with cudaErrorInvalidValue (an H100 shows it:
 * tests/cuda/probes/expected/launch_config.out): a zero dimension, a block dimension or
 * thread count over the limit, a grid dimension over the limit, more threads than
 * __launch_bounds__ allows, more dynamic shared memory than the kernel's limit; more
 * threads than the SM's registers allow the kernel is cudaErrorLaunchOutOfResources. Those
 * errors are not sticky. A fault while the grid runs is: the launch returned cudaSuccess,
 * and the error appears at the first call that synchronises with the grid (engine.c),
 * then at every call that needs the device (state.c).
 */
#include "rt.h"
#include "../exec/native.h"
#include "../jit/jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cudaError_t rt_check_config(rt_context *c, rt_func *f, dim3 grid, dim3 block,
                                   size_t shared) {
    const gpu_preset *p = rt_cur(c)->preset;
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
    /* A block whose threads need more registers than an SM has fails with
     * cudaErrorLaunchOutOfResources (1,024 threads of a kernel of 80 registers). Only
     * ptxas knows the count: it runs (once a module, its report cached on disk) only for
     * a block that large registers could make fail and a kernel whose PTX estimate comes
     * within a factor of two of the limit; without ptxas nothing is refused. A kernel with
     * __launch_bounds__ is never refused within them: ptxas makes it fit (it spills). */
    if (!info->maxntid[0] &&
        threads > (uint64_t)gpu_max_threads_per_block(p, p->max_regs_per_thread)) {
        int estimate = rt_func_regs_estimate(p, info);
        if (threads > (uint64_t)gpu_max_threads_per_block(p, 2 * estimate)) {
            int regs = rt_func_registers(c, f, NULL);
            if (regs >= 0 && threads > (uint64_t)gpu_max_threads_per_block(p, regs))
                return cudaErrorLaunchOutOfResources;
        }
    }
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

/* A cooperative grid must fit on the device at once: at most the occupancy calculator's
 * blocks per SM on every SM (c->lock held, f resolved). */
static cudaError_t rt_check_cooperative(rt_context *c, const rt_func *f, dim3 grid, dim3 block,
                                        size_t shared) {
    if (!rt_cur(c)->preset->cooperative_launch) return cudaErrorNotSupported;
    int per_sm = rt_func_blocks_per_sm(c, f, (int)(block.x * block.y * block.z), shared);
    uint64_t fit = (uint64_t)(per_sm > 0 ? per_sm : 0) * (uint64_t)rt_cur(c)->preset->multiprocessor_count;
    if ((uint64_t)grid.x * grid.y * grid.z > fit) return cudaErrorCooperativeLaunchTooLarge;
    return cudaSuccess;
}

/* The cluster shape of a launch: the launch attribute's (attr, NULL when none) or the
 * kernel's __cluster_dims__, checked as CUDA 13 checks them (an H200 shows it:
 * tests/cuda/hopper/expected/cluster_launch.out): the shape must tile the grid, have at most
 * the device's portable size of blocks (more with cudaFuncAttributeNonPortableClusterSize
 * Allowed, up to its largest), at most __launch_bounds__'s cluster rank, and fit a GPC;
 * otherwise cudaErrorInvalidClusterSize. *out is {0,0,0} for a launch without clusters. */
cudaError_t rt_check_cluster(rt_context *c, const rt_func *f, dim3 grid, dim3 block,
                             size_t shared, const exec_dim3 *attr, exec_dim3 *out) {
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    const gpu_preset *p = rt_cur(c)->preset;
    *out = (exec_dim3){0, 0, 0};
    exec_dim3 cl = {0, 0, 0};
    bool compiled = rt_func_cluster_dims(f, &cl);
    if (attr) {
        if (!attr->x || !attr->y || !attr->z) return cudaErrorInvalidClusterSize;
        /* a kernel compiled with its cluster shape takes no other */
        if (compiled && (attr->x != cl.x || attr->y != cl.y || attr->z != cl.z))
            return cudaErrorInvalidClusterSize;
        cl = *attr;
    }
    if (!cl.x) {
        /* .explicitcluster without a shape: the launch must give one */
        return info->explicitcluster ? cudaErrorInvalidClusterSize : cudaSuccess;
    }
    uint64_t size = (uint64_t)cl.x * cl.y * cl.z;
    if (!p->cluster_launch) return size > 1 ? cudaErrorInvalidClusterSize : cudaSuccess;
    uint64_t most = f->cluster_attrs[4] ? (uint64_t)p->cluster_max : (uint64_t)p->cluster_portable;
    if (size > most || (info->maxclusterrank && size > info->maxclusterrank))
        return cudaErrorInvalidClusterSize;
    if (grid.x % cl.x || grid.y % cl.y || grid.z % cl.z) return cudaErrorInvalidClusterSize;
    int per_sm = rt_func_blocks_per_sm(c, f, (int)(block.x * block.y * block.z), shared);
    if (gpu_occupancy_clusters(p, (int)size, per_sm) < 1) return cudaErrorInvalidClusterSize;
    *out = cl;
    return cudaSuccess;
}

/* The grid of a launch, checked, as an operation (c->lock held). cluster: the cluster
 * launch attribute's shape, NULL when none. */
static cudaError_t rt_launch_op(rt_context *c, rt_func *f, dim3 grid, dim3 block, void **args,
                                size_t shared, bool cooperative, const exec_dim3 *cluster,
                                rt_op **out) {
    cudaError_t e = rt_func_resolve(c, f);
    if (e != cudaSuccess) return e;
    e = rt_check_config(c, f, grid, block, shared);
    /* VCUDA_JIT=always: the kernel's code, built now (once), so that a kernel the
     * compiler does not take fails its launch; the default mode asks for it when the grid
     * runs (rt_run_kernel), in the background */
    if (e == cudaSuccess && c->jit_mode == JIT_ALWAYS)
        e = rt_func_compile(f, rt_cur(c)->ordinal);
    if (e == cudaSuccess && cooperative) e = rt_check_cooperative(c, f, grid, block, shared);
    exec_dim3 cl;
    if (e == cudaSuccess) e = rt_check_cluster(c, f, grid, block, shared, cluster, &cl);
    if (e != cudaSuccess) return e;
    const exec_kernel_info *info = exec_kernel_get_info(f->kernel);
    if (info->nparams && !args) return cudaErrorInvalidValue;
    if (info->uses_device_heap) rt_cur(c)->heap_in_use = true; /* (c->lock is held) */
    rt_op *op = rt_op_new(RT_OP_KERNEL);
    uint8_t *params = rt_build_params(info, args);
    if (!op || !params) {
        free(op);
        free(params);
        return cudaErrorMemoryAllocation;
    }
    op->u.kernel.func = f;
    op->u.kernel.grid = (exec_dim3){grid.x, grid.y, grid.z};
    op->u.kernel.block = (exec_dim3){block.x, block.y, block.z};
    op->u.kernel.dyn_shared = (uint32_t)shared;
    op->u.kernel.params = params;
    op->u.kernel.blocks_per_sm =
        rt_func_blocks_per_sm(c, f, (int)(block.x * block.y * block.z), shared);
    op->u.kernel.cooperative = cooperative;
    op->u.kernel.cluster = cl;
    if (c->check) op->u.kernel.check_site = check_host_site(c->check);
    *out = op;
    return cudaSuccess;
}

cudaError_t rt_kernel_op(rt_context *c, const void *func, dim3 grid, dim3 block, void **args,
                         size_t shared, rt_op **out) {
    pthread_mutex_lock(&c->lock);
    rt_func *f = NULL;
    cudaError_t e = rt_func_lookup(c, func, &f);
    if (e == cudaSuccess) e = rt_launch_op(c, f, grid, block, args, shared, false, NULL, out);
    pthread_mutex_unlock(&c->lock);
    return e;
}

static cudaError_t rt_launch_entry(const void *func, dim3 grid, dim3 block, void **args,
                                   size_t shared, cudaStream_t stream, bool cooperative,
                                   const exec_dim3 *cluster) {
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
    if (!rt_stream_valid(c, stream)) return rt_record(cudaErrorInvalidResourceHandle);
    rt_op *op = NULL;
    pthread_mutex_lock(&c->lock);
    e = rt_launch_op(c, f, grid, block, args, shared, cooperative, cluster, &op);
    bool load = e == cudaSuccess && c->lazy_loading && !f->device_loaded;
    if (load) f->device_loaded = true;
    pthread_mutex_unlock(&c->lock);
    if (e != cudaSuccess) return rt_record(e);
    /* a kernel that launches graphs runs only as a node of a graph (captured here) */
    if (exec_kernel_get_info(f->kernel)->uses_graph_launch) {
        pthread_mutex_lock(&c->engine_lock);
        rt_stream *s = rt_stream_lookup(c, stream);
        bool capturing = s && s->capture;
        pthread_mutex_unlock(&c->engine_lock);
        if (!capturing) {
            rt_op_free(op);
            return rt_record(cudaErrorNotSupported);
        }
    }
    if (load && !rt_lazy_load(c, stream)) {
        pthread_mutex_lock(&c->lock);
        f->device_loaded = false; /* captured, not launched: loaded at its first launch */
        pthread_mutex_unlock(&c->lock);
    }
    return rt_record(rt_issue(c, stream, op, RT_ASYNC));
}

RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                      void **args, size_t sharedMem, cudaStream_t stream) {
    return rt_launch_entry(kernel, gridDim, blockDim, args, sharedMem, stream, false, NULL);
}

RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                           void **args, size_t sharedMem, cudaStream_t stream) {
    return rt_launch_entry(kernel, gridDim, blockDim, args, sharedMem, rt_per_thread(stream),
                           false, NULL);
}

RT_API cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream) {
    return rt_launch_entry(func, gridDim, blockDim, args, sharedMem, stream, false, NULL);
}

RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream) {
    return rt_launch_entry(func, gridDim, blockDim, args, sharedMem, rt_per_thread(stream),
                           false, NULL);
}

/* A cooperative launch: every block resident at once, so that blocks may synchronise
 * across the grid (cooperative groups' this_grid().sync()). A grid larger than the device
 * holds at once is cudaErrorCooperativeLaunchTooLarge. */
RT_API cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                               void **args, size_t sharedMem,
                                               cudaStream_t stream) {
    return rt_launch_entry(func, gridDim, blockDim, args, sharedMem, stream, true, NULL);
}

RT_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim,
                                                    dim3 blockDim, void **args,
                                                    size_t sharedMem, cudaStream_t stream) {
    return rt_launch_entry(func, gridDim, blockDim, args, sharedMem, rt_per_thread(stream),
                           true, NULL);
}

/* cudaLaunchKernelEx's C form. Attributes that change how a grid runs are not emulated
 * yet and are refused by name; the rest have no effect on a single emulated device. */
static cudaError_t rt_launch_ex(const cudaLaunchConfig_t *config, const void *func, void **args,
                                bool per_thread) {
    if (!config) return rt_record(cudaErrorInvalidValue);
    bool cooperative = false, has_cluster = false;
    exec_dim3 cluster = {0, 0, 0};
    /* events to record once the kernel is in the stream (programmatic and launch-completion
     * events) */
    cudaEvent_t after[4];
    unsigned nafter = 0;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeClusterDimension:
            cluster = (exec_dim3){a->val.clusterDim.x, a->val.clusterDim.y, a->val.clusterDim.z};
            has_cluster = true;
            break;
        case cudaLaunchAttributeCooperative:
            cooperative = a->val.cooperative != 0;
            break;
        /* Programmatic dependent launch lets the next kernel of the stream start before
         * this one ends, up to its griddepcontrol.wait (cudaGridDependencySynchronize),
         * which waits for this one to end. Running the stream in order keeps every
         * guarantee: by the time the next kernel starts, this one has ended, and its
         * griddepcontrol.wait has nothing to wait for. */
        case cudaLaunchAttributeProgrammaticStreamSerialization:
            break;
        /* The programmatic event may trigger once every block has triggered or exited, the
         * launch-completion event once every block has begun: both are recorded when the
         * kernel has ended, which is never earlier than CUDA allows. */
        case cudaLaunchAttributeProgrammaticEvent:
            if (a->val.programmaticEvent.event && nafter < 4)
                after[nafter++] = a->val.programmaticEvent.event;
            break;
        case cudaLaunchAttributeLaunchCompletionEvent:
            if (a->val.launchCompletionEvent.event && nafter < 4)
                after[nafter++] = a->val.launchCompletionEvent.event;
            break;
        /* hints about placement and caches, with no effect on results */
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributeAccessPolicyWindow:
        case cudaLaunchAttributeSynchronizationPolicy:
        case cudaLaunchAttributePriority:
        case cudaLaunchAttributeMemSyncDomainMap:
        case cudaLaunchAttributeMemSyncDomain:
        case cudaLaunchAttributeClusterSchedulingPolicyPreference:
        case cudaLaunchAttributePreferredClusterDimension:
        case cudaLaunchAttributePreferredSharedMemoryCarveout:
        case cudaLaunchAttributeNvlinkUtilCentricScheduling:
            break;
        default:
            fprintf(stderr, "vcuda: cudaLaunchKernelEx: launch attribute %d is not supported\n",
                    (int)a->id);
            return rt_record(cudaErrorNotSupported);
        }
    }
    cudaStream_t stream = per_thread ? rt_per_thread(config->stream) : config->stream;
    cudaError_t e = rt_launch_entry(func, config->gridDim, config->blockDim, args,
                                    config->dynamicSmemBytes, stream, cooperative,
                                    has_cluster ? &cluster : NULL);
    for (unsigned i = 0; i < nafter && e == cudaSuccess; i++) e = cudaEventRecord(after[i], stream);
    return e;
}

RT_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                       void **args) {
    return rt_launch_ex(config, func, args, false);
}

RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                            void **args) {
    return rt_launch_ex(config, func, args, true);
}

/* Device printf output of a grid, kept for release (engine.c). */
static void rt_capture_print(const char *data, size_t len, void *ctx) {
    rt_output *o = ctx;
    if (o->len + len > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 4096;
        while (cap < o->len + len) cap *= 2;
        char *n = realloc(o->data, cap);
        if (!n) return; /* out of host memory: the output is lost, the run goes on */
        o->data = n;
        o->cap = cap;
    }
    memcpy(o->data + o->len, data, len);
    o->len += len;
}

/* Run a grid (the engine's threads call this): fills op->vend, and records the grid's
 * output and fault for release. */
void rt_run_kernel(rt_context *c, rt_op *op) {
    rt_func *f = op->u.kernel.func;
    rt_output *out = calloc(1, sizeof *out);
    gpu_grid_stats stats;
    memset(&stats, 0, sizeof stats);
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.grid = op->u.kernel.grid;
    L.graph_exec = op->u.kernel.graph_exec;
    L.graph_env = op->u.kernel.graph_env;
    L.block = op->u.kernel.block;
    L.dyn_shared = op->u.kernel.dyn_shared;
    L.params = op->u.kernel.params;
    L.mem = c->mem;
    /* the grid runs on its stream's device; with several, it reaches the others' memory
     * only as their peer */
    int dev = op->stream->device;
    /* its device's program: that device's copy of the module's variables (loaded now if
     * the grid was made for another device's stream) */
    pthread_mutex_lock(&c->lock);
    bool resolved = rt_func_resolve_on(c, f, dev) == cudaSuccess;
    L.kernel = resolved ? f->dev_kernel[dev] : f->kernel;
    exec_program *prog = resolved ? f->mod->dev_prog[dev] : f->mod->prog;
    struct jit_job *jit = resolved ? f->mod->dev_jit[dev] : NULL;
    if (c->ndevs > 1) {
        L.device = (uint32_t)dev + 1;
        L.peers = c->devs[dev].peers | 1u << dev;
    }
    pthread_mutex_unlock(&c->lock);
    /* its code, requested at its first launch on this device (VCUDA_JIT=always: built
     * already by the launch, unless the grid came from a graph or runs on another
     * device's stream) */
    if (resolved && jit && rt_func_compile(f, dev) != cudaSuccess) {
        out->error = cudaErrorInvalidPtx;
        op->vend = op->vstart;
        rt_output_finish(c, op, out);
        return;
    }
    gpu_grid_opts opts = {
        .priority = op->stream->priority,
        .blocks_per_sm = op->u.kernel.blocks_per_sm,
        .print = out ? rt_capture_print : NULL,
        .print_ctx = out,
        .cooperative = op->u.kernel.cooperative,
    };
    L.cluster_dim = op->u.kernel.cluster;
    L.explicit_cluster = op->u.kernel.cluster.x != 0;
    exec_fault fault;
    memset(&fault, 0, sizeof fault);
    gpu_device *gpu = resolved ? rt_devrt_prepare(c, dev) : NULL;
    /* profiling and `vcuda check` watch the grid run (NULL unless asked for) */
    cudaStream_t handle = op->stream->kind == RT_STREAM_USER ? (cudaStream_t)op->stream : 0;
    rt_prof_run *prof = rt_prof_begin(c, f, &L, dev, handle, true);
    check_launch *ck = NULL;
    if (c->check && !L.observer)
        ck = check_launch_begin(c->check, &L, exec_program_module(prog), f->name,
                                c->devs[dev].preset->major >= 7, op->u.kernel.check_site);
    /* Under a profiler or checker grids run one at a time, as Nsight Compute and
     * compute-sanitizer serialise kernels (their reports stay in launch order). */
    bool serial = prof || ck;
    /* which tier the launch starts in (blocks switch when the code arrives mid-grid) */
    bool compiled = exec_kernel_native_ready(prog, L.kernel) &&
                    (!L.observer || (prof && exec_program_instrumented(prog)));
    int interp_why = L.observer ? RT_INTERP_OBSERVED : jit ? RT_INTERP_NOT_READY : RT_INTERP_OFF;
    char interp_note[160] = "";
    if (!compiled && interp_why == RT_INTERP_NOT_READY)
        jit_job_describe(jit, interp_note, sizeof interp_note);
    if (serial) pthread_mutex_lock(&c->tool_lock);
    rt_progress *progress = rt_progress_begin(f, (uint64_t)L.grid.x * L.grid.y * L.grid.z);
    opts.blocks_done = rt_progress_counter(progress);
    exec_fault_kind k = gpu ? gpu_run_grid_opts(gpu, &L, &opts, &fault, &stats)
                           : EXEC_FAULT_TRAP; /* the device could not be made */
    rt_progress_end(progress);
    if (serial) pthread_mutex_unlock(&c->tool_lock);
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
    if (compiled) s->compiled_calls++;
    else {
        s->interp_why = interp_why;
        memcpy(s->interp_note, interp_note, sizeof s->interp_note);
    }
    pthread_mutex_unlock(&c->lock);

    rt_cost cost = {
        .kind = RT_OP_KERNEL,
        .warp_instructions = stats.warp_instructions,
        .blocks = (uint64_t)L.grid.x * L.grid.y * L.grid.z,
        .threads_per_block = L.block.x * L.block.y * L.block.z,
    };
    op->vend = op->vstart + rt_timeline_cost_ms(c->devs[op->stream->device].preset, &cost);

    if (!out) return;
    if (check_failed) {
        out->error = cudaErrorLaunchFailure; /* the checker has said why */
    } else if (k != EXEC_OK) {
        char what[1100];
        snprintf(what, sizeof what, "kernel %s", f->name);
        rt_output_set_fault(c, out, k, &fault, what);
    }
    rt_output_finish(c, op, out);
}

void rt_output_set_fault(rt_context *c, rt_output *out, exec_fault_kind k,
                         const exec_fault *fault, const char *what) {
    out->error = rt_error_from_fault(k);
    char line[1100];
    if (fault->msg[0])
        snprintf(line, sizeof line, "vcuda: %s", fault->msg);
    else
        snprintf(line, sizeof line, "vcuda: %s failed: %s (%s)", what,
                 rt_error_message(out->error), rt_error_name(out->error));
    /* A failed device assert is already reported in the driver's own words (the
     * assertion's line on stderr, as a GPU prints it): vcuda's line would only
     * repeat it, so it is kept for VCUDA_REPORT=1. */
    if (k != EXEC_FAULT_ASSERT || c->report) out->message = strdup(line);
}

void rt_output_finish(rt_context *c, const rt_op *op, rt_output *out) {
    pthread_mutex_lock(&c->engine_lock);
    if (out->error && c->device_fault == cudaSuccess) c->device_fault = out->error;
    if (out->len || out->error) {
        out->stream = op->stream;
        out->seq = op->seq;
        out->order = op->order;
        out->vend = op->vend;
        rt_output_add(c, out);
        out = NULL;
    }
    pthread_mutex_unlock(&c->engine_lock);
    if (out) {
        free(out->data);
        free(out);
    }
}
