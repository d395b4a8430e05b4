/* exec/devrt.c — the device runtime's entry points as builtin callees: what a kernel's
 * calls to __cudaCDP2GetParameterBufferV2, __cudaCDP2LaunchDeviceV2, cudaGetLastError,
 * cudaStreamCreateWithFlags, ... (and the plain names of the legacy model CDP1, among them
 * cudaDeviceSynchronize), cudaGraphSetConditional and cudaGraphLaunch (device graph launch),
 * do for each calling thread.
 *
 * The executor's part: reading each lane's arguments from its call frame, writing results
 * through the pointers it passed (generic addresses, checked like any store), each
 * thread's last error (cudaGetLastError / cudaPeekAtLastError), and the parameter
 * buffers: a launch from device code first asks for a buffer (with the kernel and its
 * configuration for the V2 entry points), the thread stores the arguments into it with
 * ordinary stores, then launches it. Buffers are device memory owned by the block: reused
 * once launched, released when the block ends. What a launch, a stream or an event means
 * is decided by the grid runner (gpu/dp.c) through exec_launch.devrt.
 *
 * A launch is slow on a GPU (microseconds): the launching warp yields, so the block's
 * other warps run on before it continues, and what a warp prints after its k-th launch
 * belongs to "epoch" k, which the grid runner prints after every block's earlier epochs
 * (gpu/dp.c says why).
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>

/* The device runtime's entry points; each has a CDP2 name and a legacy (CDP1) name. */
enum devrt_fn {
    DRT_GET_PARAMETER_BUFFER_V2, DRT_GET_PARAMETER_BUFFER, DRT_LAUNCH_V2, DRT_LAUNCH_V2_PTSZ,
    DRT_LAUNCH, DRT_LAUNCH_PTSZ, DRT_GET_LAST_ERROR, DRT_PEEK_AT_LAST_ERROR, DRT_ERROR_NAME,
    DRT_ERROR_STRING, DRT_DEVICE_COUNT, DRT_GET_DEVICE, DRT_RUNTIME_VERSION, DRT_GET_LIMIT,
    DRT_GET_ATTRIBUTE, DRT_STREAM_CREATE, DRT_STREAM_DESTROY, DRT_STREAM_WAIT_EVENT,
    DRT_STREAM_WAIT_EVENT_PTSZ, DRT_EVENT_CREATE, DRT_EVENT_RECORD, DRT_EVENT_RECORD_PTSZ,
    DRT_EVENT_RECORD_FLAGS, DRT_EVENT_RECORD_FLAGS_PTSZ, DRT_EVENT_DESTROY, DRT_SYNCHRONIZE,
    DRT_MALLOC, DRT_FREE, DRT_MEMCPY_ASYNC, DRT_MEMCPY_ASYNC_PTSZ, DRT_MEMSET_ASYNC,
    DRT_MEMSET_ASYNC_PTSZ, DRT_GRAPH_SET_CONDITIONAL, DRT_GRAPH_LAUNCH,
    DRT_COUNT
};

/* Names after "__cudaCDP2" (CDP2) or "cuda" (CDP1); cudaDeviceSynchronize is CDP1 only. */
static const char *const fn_names[DRT_COUNT] = {
    [DRT_GET_PARAMETER_BUFFER_V2] = "GetParameterBufferV2",
    [DRT_GET_PARAMETER_BUFFER] = "GetParameterBuffer",
    [DRT_LAUNCH_V2] = "LaunchDeviceV2",
    [DRT_LAUNCH_V2_PTSZ] = "LaunchDeviceV2_ptsz",
    [DRT_LAUNCH] = "LaunchDevice",
    [DRT_LAUNCH_PTSZ] = "LaunchDevice_ptsz",
    [DRT_GET_LAST_ERROR] = "GetLastError",
    [DRT_PEEK_AT_LAST_ERROR] = "PeekAtLastError",
    [DRT_ERROR_NAME] = "GetErrorName",
    [DRT_ERROR_STRING] = "GetErrorString",
    [DRT_DEVICE_COUNT] = "GetDeviceCount",
    [DRT_GET_DEVICE] = "GetDevice",
    [DRT_RUNTIME_VERSION] = "RuntimeGetVersion",
    [DRT_GET_LIMIT] = "DeviceGetLimit",
    [DRT_GET_ATTRIBUTE] = "DeviceGetAttribute",
    [DRT_STREAM_CREATE] = "StreamCreateWithFlags",
    [DRT_STREAM_DESTROY] = "StreamDestroy",
    [DRT_STREAM_WAIT_EVENT] = "StreamWaitEvent",
    [DRT_STREAM_WAIT_EVENT_PTSZ] = "StreamWaitEvent_ptsz",
    [DRT_EVENT_CREATE] = "EventCreateWithFlags",
    [DRT_EVENT_RECORD] = "EventRecord",
    [DRT_EVENT_RECORD_PTSZ] = "EventRecord_ptsz",
    [DRT_EVENT_RECORD_FLAGS] = "EventRecordWithFlags",
    [DRT_EVENT_RECORD_FLAGS_PTSZ] = "EventRecordWithFlags_ptsz",
    [DRT_EVENT_DESTROY] = "EventDestroy",
    [DRT_SYNCHRONIZE] = "DeviceSynchronize",
    [DRT_MALLOC] = "Malloc",
    [DRT_FREE] = "Free",
    [DRT_MEMCPY_ASYNC] = "MemcpyAsync",
    [DRT_MEMCPY_ASYNC_PTSZ] = "MemcpyAsync_ptsz",
    [DRT_MEMSET_ASYNC] = "MemsetAsync",
    [DRT_MEMSET_ASYNC_PTSZ] = "MemsetAsync_ptsz",
    [DRT_GRAPH_SET_CONDITIONAL] = "GraphSetConditional",
    [DRT_GRAPH_LAUNCH] = "GraphLaunch",
};

/* Builtin numbers: EXEC_BUILTIN_DEVRT_FIRST + 2 * fn + (1 for the legacy name). */
int exec_devrt_builtin_of(const char *name) {
    bool legacy;
    if (!strncmp(name, "__cudaCDP2", 10)) {
        name += 10;
        legacy = false;
    } else if (!strncmp(name, "cuda", 4)) {
        name += 4;
        legacy = true;
    } else {
        return EXEC_BUILTIN_NONE;
    }
    for (int f = 0; f < DRT_COUNT; f++) {
        if (strcmp(name, fn_names[f]) != 0) continue;
        if (f == DRT_SYNCHRONIZE && !legacy) return EXEC_BUILTIN_NONE;
        return EXEC_BUILTIN_DEVRT_FIRST + 2 * f + (legacy ? 1 : 0);
    }
    return EXEC_BUILTIN_NONE;
}

bool exec_devrt_is_graph_launch(int builtin) {
    int n = builtin - EXEC_BUILTIN_DEVRT_FIRST;
    return n >= 0 && n / 2 == DRT_GRAPH_LAUNCH;
}

bool exec_devrt_is_kernel_launch(int builtin) {
    int n = builtin - EXEC_BUILTIN_DEVRT_FIRST;
    if (n < 0) return false;
    n /= 2;
    return n == DRT_LAUNCH_V2 || n == DRT_LAUNCH_V2_PTSZ || n == DRT_LAUNCH || n == DRT_LAUNCH_PTSZ;
}

/* ---- per-block state (storage kept in the worker, reset for each block) ---- */

typedef struct devrt_buffer {
    uint8_t *data;            /* device memory, entered in the allocation table */
    uint32_t cap;
    bool in_use;              /* handed out and not yet launched */
    bool configured;          /* got from GetParameterBufferV2: kernel and configuration */
    const exec_kernel *kernel;
    exec_dim3 grid, block;
    uint32_t dyn_shared;
} devrt_buffer;

typedef struct devrt_string {
    int code;
    bool description;
    char *text;               /* device memory (read-only to kernels) */
} devrt_string;

struct exec_devrt_worker {
    mem_table *mem;
    int32_t *last_error;      /* per thread of the block */
    uint32_t last_error_cap;
    devrt_buffer *buffers;
    uint32_t nbuffers, buffers_cap;
    devrt_string *strings;    /* error names and descriptions handed out so far */
    uint32_t nstrings, strings_cap;
    uint32_t *warp_epoch;     /* per warp: device launches it made */
    size_t *launch_offset;    /* per warp: the output's length at its latest launch */
    uint32_t warp_epoch_cap;
    uint32_t out_epoch;       /* the epoch of the block's output so far */
};

#define EXEC_MEM_FLAG_DEVRT_BUFFER 0x20000000u

/* The block's device-runtime state, set up on its first call. */
static struct exec_devrt_worker *block_state(struct exec_block *b) {
    if (b->devrt) return b->devrt;
    exec_worker *wk = b->worker;
    if (!wk->devrt) {
        wk->devrt = calloc(1, sizeof *wk->devrt);
        if (!wk->devrt) abort();
    }
    struct exec_devrt_worker *d = wk->devrt;
    d->mem = b->L->mem;
    if (d->last_error_cap < b->nthreads) {
        free(d->last_error);
        d->last_error = malloc(b->nthreads * sizeof *d->last_error);
        if (!d->last_error) abort();
        d->last_error_cap = b->nthreads;
    }
    memset(d->last_error, 0, b->nthreads * sizeof *d->last_error);
    if (d->warp_epoch_cap < b->nwarps) {
        free(d->warp_epoch);
        free(d->launch_offset);
        d->warp_epoch = malloc(b->nwarps * sizeof *d->warp_epoch);
        d->launch_offset = malloc(b->nwarps * sizeof *d->launch_offset);
        if (!d->warp_epoch || !d->launch_offset) abort();
        d->warp_epoch_cap = b->nwarps;
    }
    memset(d->warp_epoch, 0, b->nwarps * sizeof *d->warp_epoch);
    memset(d->launch_offset, 0, b->nwarps * sizeof *d->launch_offset);
    d->out_epoch = 0;
    b->devrt = d;
    return d;
}

void exec_devrt_block_end(struct exec_block *b) {
    struct exec_devrt_worker *d = b->devrt;
    if (!d) return;
    for (uint32_t i = 0; i < d->nbuffers; i++) {
        mem_table_remove(d->mem, (uint64_t)(uintptr_t)d->buffers[i].data, NULL);
        free(d->buffers[i].data);
    }
    d->nbuffers = 0;
    b->devrt = NULL;
}

void exec_devrt_worker_free(exec_worker *wk) {
    struct exec_devrt_worker *d = wk->devrt;
    if (!d) return;
    for (uint32_t i = 0; i < d->nstrings; i++) {
        /* a device reset may have released the table's entries (and their memory) first */
        if (mem_table_remove(d->mem, (uint64_t)(uintptr_t)d->strings[i].text, NULL))
            free(d->strings[i].text);
    }
    free(d->strings);
    free(d->warp_epoch);
    free(d->launch_offset);
    free(d->buffers);
    free(d->last_error);
    free(d);
    wk->devrt = NULL;
}

/* A buffer of at least size bytes: a launched one of the block when one is big enough,
 * else a new one. NULL when the host is out of memory. */
static devrt_buffer *get_buffer(struct exec_devrt_worker *d, uint32_t size) {
    for (uint32_t i = 0; i < d->nbuffers; i++)
        if (!d->buffers[i].in_use && d->buffers[i].cap >= size) {
            memset(d->buffers[i].data, 0, d->buffers[i].cap);
            d->buffers[i].in_use = true;
            return &d->buffers[i];
        }
    if (d->nbuffers == d->buffers_cap) {
        uint32_t cap = d->buffers_cap ? d->buffers_cap * 2 : 8;
        devrt_buffer *n = realloc(d->buffers, cap * sizeof *n);
        if (!n) return NULL;
        d->buffers = n;
        d->buffers_cap = cap;
    }
    uint32_t cap = size < 64 ? 64 : (size + 63) & ~63u;
    uint8_t *data = aligned_alloc(64, cap);
    if (!data) return NULL;
    memset(data, 0, cap);
    if (!mem_table_add(d->mem, (uint64_t)(uintptr_t)data, cap, MEM_KIND_DEVICE,
                       EXEC_MEM_FLAG_DEVRT_BUFFER)) {
        free(data);
        return NULL;
    }
    devrt_buffer *buf = &d->buffers[d->nbuffers++];
    memset(buf, 0, sizeof *buf);
    buf->data = data;
    buf->cap = cap;
    buf->in_use = true;
    return buf;
}

static devrt_buffer *find_buffer(struct exec_devrt_worker *d, uint64_t addr) {
    for (uint32_t i = 0; i < d->nbuffers; i++)
        if ((uint64_t)(uintptr_t)d->buffers[i].data == addr && d->buffers[i].in_use)
            return &d->buffers[i];
    return NULL;
}

/* A device copy of an error's name or description (kept for the worker's lifetime:
 * kernels may keep the pointer). 0 when out of memory. */
static uint64_t error_string(struct exec_block *b, struct exec_devrt_worker *d, int code,
                             bool description) {
    for (uint32_t i = 0; i < d->nstrings; i++)
        if (d->strings[i].code == code && d->strings[i].description == description)
            return (uint64_t)(uintptr_t)d->strings[i].text;
    const char *text = b->L->devrt ? b->L->devrt->error_text(b->L->devrt_ctx, code, description)
                                   : "unrecognized error code";
    if (d->nstrings == d->strings_cap) {
        uint32_t cap = d->strings_cap ? d->strings_cap * 2 : 16;
        devrt_string *n = realloc(d->strings, cap * sizeof *n);
        if (!n) return 0;
        d->strings = n;
        d->strings_cap = cap;
    }
    size_t len = strlen(text) + 1;
    char *copy = malloc(len);
    if (!copy) return 0;
    memcpy(copy, text, len);
    if (!mem_table_add(d->mem, (uint64_t)(uintptr_t)copy, len, MEM_KIND_CONST_VAR, 0)) {
        free(copy);
        return 0;
    }
    d->strings[d->nstrings++] = (devrt_string){code, description, copy};
    return (uint64_t)(uintptr_t)copy;
}

/* ---- arguments and results ---- */

static uint8_t *lane_frame(exec_wstate *w, uint32_t lane) {
    struct exec_block *b = w->h.block;
    return b->local + ((size_t)w->h.warp_in_block * EXEC_WARP_SIZE + lane) * b->local_stride +
           w->frames[w->depth].local_base;
}

/* Argument i of the call as size bytes (zero-filled where the call passes fewer). */
static void arg_bytes(exec_wstate *w, const exec_callsite *cs, uint32_t lane, uint32_t i,
                      void *dst, uint32_t size) {
    memset(dst, 0, size);
    if (i >= cs->nargs) return;
    uint32_t n = cs->arg_size[i] < size ? cs->arg_size[i] : size;
    memcpy(dst, lane_frame(w, lane) + cs->arg_off[i], n);
}

static uint64_t arg_u64(exec_wstate *w, const exec_callsite *cs, uint32_t lane, uint32_t i) {
    uint64_t v;
    arg_bytes(w, cs, lane, i, &v, 8);
    if (i < cs->nargs && cs->arg_size[i] == 4) v &= 0xffffffffu;
    return v;
}

static exec_dim3 arg_dim3(exec_wstate *w, const exec_callsite *cs, uint32_t lane, uint32_t i) {
    uint32_t v[3];
    arg_bytes(w, cs, lane, i, v, sizeof v);
    return (exec_dim3){v[0], v[1], v[2]};
}

static void set_ret(exec_wstate *w, const exec_callsite *cs, uint32_t lane, uint64_t v) {
    if (cs->nrets == 0) return;
    uint32_t n = cs->ret_size[0] < 8 ? cs->ret_size[0] : 8;
    memcpy(lane_frame(w, lane) + cs->ret_off[0], &v, n);
}

/* Store size bytes through the generic pointer a thread passed; false (fault recorded)
 * when it points nowhere it may write. */
static bool store(exec_wstate *w, const exec_insn *in, uint32_t lane, uint64_t addr,
                  const void *v, uint32_t size) {
    void *p = exec_mem_addr(w, in, lane, PTX_SPACE_GENERIC, addr, size, EXEC_ACC_WRITE);
    if (!p) return false;
    memcpy(p, v, size);
    return true;
}

static uint32_t thread_index(const exec_wstate *w, uint32_t lane) {
    return w->h.warp_in_block * EXEC_WARP_SIZE + lane;
}

/* The kernel whose address (a function token, see exec/core.h) a thread passed. */
static const exec_kernel *kernel_of(const exec_program *p, uint64_t token) {
    int64_t index = exec_func_token_index(token);
    if (index < 0) return NULL;
    for (uint32_t i = 0; i < p->nkernels; i++)
        if (p->kernels[i].func->index == (uint64_t)index) return &p->kernels[i];
    return NULL;
}

/* A fault of a grid this block waited for (CDP1) fails the block with that fault. */
static void fault_from_child(exec_wstate *w, const exec_fault *f) {
    struct exec_block *b = w->h.block;
    w->h.fault = 1;
    exec_warp_yield(w);
    if (b->fault_kind != EXEC_OK) return;
    b->fault_kind = f->kind;
    b->fault->kind = f->kind;
    snprintf(b->fault->msg, sizeof b->fault->msg, "%s", f->msg);
}

/* ---- the calls ---- */

static int launch(exec_wstate *w, struct exec_devrt_worker *d, const exec_callsite *cs,
                  uint32_t lane, int fn, bool legacy) {
    struct exec_block *b = w->h.block;
    const exec_devrt_ops *ops = b->L->devrt;
    bool v2 = fn == DRT_LAUNCH_V2 || fn == DRT_LAUNCH_V2_PTSZ;
    uint32_t a = v2 ? 0 : 1; /* LaunchDevice(func, buffer, grid, block, shared, stream) */
    devrt_buffer *buf = find_buffer(d, arg_u64(w, cs, lane, a));
    if (!buf) return EXEC_DEVRT_INVALID_VALUE;
    exec_devrt_launch l;
    memset(&l, 0, sizeof l);
    if (v2) {
        if (!buf->configured) {
            buf->in_use = false;
            return EXEC_DEVRT_INVALID_VALUE;
        }
        l.kernel = buf->kernel;
        l.grid = buf->grid;
        l.block = buf->block;
        l.dyn_shared = buf->dyn_shared;
        l.stream = arg_u64(w, cs, lane, 1);
    } else {
        l.kernel = kernel_of(b->prog, arg_u64(w, cs, lane, 0));
        l.grid = arg_dim3(w, cs, lane, 2);
        l.block = arg_dim3(w, cs, lane, 3);
        l.dyn_shared = (uint32_t)arg_u64(w, cs, lane, 4);
        l.stream = arg_u64(w, cs, lane, 5);
    }
    l.params = buf->data;
    if (l.kernel) l.info = &l.kernel->info;
    l.thread = thread_index(w, lane);
    l.per_thread_stream = fn == DRT_LAUNCH_V2_PTSZ || fn == DRT_LAUNCH_PTSZ;
    l.legacy = legacy;
    int e;
    if (!l.kernel) e = EXEC_DEVRT_INVALID_DEVICE_FUNCTION;
    else if (l.kernel->info.param_size > buf->cap) e = EXEC_DEVRT_INVALID_VALUE;
    else e = ops ? ops->launch(b->L->devrt_ctx, &l) : EXEC_DEVRT_NOT_SUPPORTED;
    buf->in_use = false; /* the runner copied the parameters */
    return e;
}

static void call_lane(exec_wstate *w, const exec_insn *in, const exec_callsite *cs,
                      uint32_t lane, int fn, bool legacy, struct exec_devrt_worker *d) {
    struct exec_block *b = w->h.block;
    const exec_devrt_ops *ops = b->L->devrt;
    void *ctx = b->L->devrt_ctx;
    int32_t *last = &d->last_error[thread_index(w, lane)];
    int e = EXEC_DEVRT_SUCCESS;
    uint64_t value = 0;
    switch (fn) {
    case DRT_GET_PARAMETER_BUFFER_V2:
    case DRT_GET_PARAMETER_BUFFER: {
        const exec_kernel *k = NULL;
        uint64_t size;
        if (fn == DRT_GET_PARAMETER_BUFFER_V2) {
            k = kernel_of(b->prog, arg_u64(w, cs, lane, 0));
            if (!k) {
                *last = EXEC_DEVRT_INVALID_DEVICE_FUNCTION;
                set_ret(w, cs, lane, 0);
                return;
            }
            size = k->info.param_size;
        } else {
            size = arg_u64(w, cs, lane, 1);
            if (size > (1u << 20)) size = 0; /* no kernel takes this much */
        }
        devrt_buffer *buf = size || k ? get_buffer(d, (uint32_t)size) : NULL;
        if (!buf) {
            *last = EXEC_DEVRT_MEMORY_ALLOCATION;
            set_ret(w, cs, lane, 0);
            return;
        }
        buf->configured = k != NULL;
        buf->kernel = k;
        if (k) {
            buf->grid = arg_dim3(w, cs, lane, 1);
            buf->block = arg_dim3(w, cs, lane, 2);
            buf->dyn_shared = (uint32_t)arg_u64(w, cs, lane, 3);
        }
        set_ret(w, cs, lane, (uint64_t)(uintptr_t)buf->data);
        return;
    }
    case DRT_LAUNCH_V2: case DRT_LAUNCH_V2_PTSZ: case DRT_LAUNCH: case DRT_LAUNCH_PTSZ:
        e = launch(w, d, cs, lane, fn, legacy);
        break;
    case DRT_GET_LAST_ERROR:
        set_ret(w, cs, lane, (uint32_t)*last);
        *last = EXEC_DEVRT_SUCCESS;
        return;
    case DRT_GRAPH_SET_CONDITIONAL: {
        /* a conditional node's handle is the device address of its condition (the
         * runtime's runtime/graph_cond.c): the value is stored there */
        uint32_t v = (uint32_t)arg_u64(w, cs, lane, 1);
        store(w, in, lane, arg_u64(w, cs, lane, 0), &v, 4);
        return;
    }
    case DRT_PEEK_AT_LAST_ERROR:
        set_ret(w, cs, lane, (uint32_t)*last);
        return;
    case DRT_ERROR_NAME: case DRT_ERROR_STRING:
        set_ret(w, cs, lane, error_string(b, d, (int)arg_u64(w, cs, lane, 0),
                                          fn == DRT_ERROR_STRING));
        return;
    case DRT_DEVICE_COUNT: case DRT_GET_DEVICE: case DRT_RUNTIME_VERSION: {
        /* one device, device 0; the version an H100's device runtime reports under CUDA
         * 13.0 (tests/cuda/expected/dpApi.out) */
        int32_t v = fn == DRT_DEVICE_COUNT ? 1 : fn == DRT_GET_DEVICE ? 0 : 6000;
        if (!store(w, in, lane, arg_u64(w, cs, lane, 0), &v, 4)) return;
        break;
    }
    case DRT_GET_LIMIT:
        e = ops ? ops->get_limit(ctx, (int)arg_u64(w, cs, lane, 1), &value)
                : EXEC_DEVRT_NOT_SUPPORTED;
        if (e == EXEC_DEVRT_SUCCESS && !store(w, in, lane, arg_u64(w, cs, lane, 0), &value, 8))
            return;
        break;
    case DRT_GET_ATTRIBUTE: {
        int v = 0;
        e = ops ? ops->get_attribute(ctx, (int)arg_u64(w, cs, lane, 1),
                                     (int)arg_u64(w, cs, lane, 2), &v)
                : EXEC_DEVRT_NOT_SUPPORTED;
        if (e == EXEC_DEVRT_SUCCESS && !store(w, in, lane, arg_u64(w, cs, lane, 0), &v, 4))
            return;
        break;
    }
    case DRT_STREAM_CREATE: case DRT_EVENT_CREATE: {
        unsigned flags = (unsigned)arg_u64(w, cs, lane, 1);
        if (!ops) e = EXEC_DEVRT_NOT_SUPPORTED;
        else if (fn == DRT_STREAM_CREATE) e = ops->stream_create(ctx, flags, &value);
        else e = ops->event_create(ctx, flags, &value);
        if (e == EXEC_DEVRT_SUCCESS && !store(w, in, lane, arg_u64(w, cs, lane, 0), &value, 8))
            return;
        break;
    }
    case DRT_STREAM_DESTROY:
        e = ops ? ops->stream_destroy(ctx, arg_u64(w, cs, lane, 0)) : EXEC_DEVRT_NOT_SUPPORTED;
        break;
    case DRT_EVENT_DESTROY:
        e = ops ? ops->event_destroy(ctx, arg_u64(w, cs, lane, 0)) : EXEC_DEVRT_NOT_SUPPORTED;
        break;
    case DRT_EVENT_RECORD: case DRT_EVENT_RECORD_PTSZ:
    case DRT_EVENT_RECORD_FLAGS: case DRT_EVENT_RECORD_FLAGS_PTSZ:
        e = ops ? ops->event_record(ctx, arg_u64(w, cs, lane, 0), arg_u64(w, cs, lane, 1))
                : EXEC_DEVRT_NOT_SUPPORTED;
        break;
    case DRT_STREAM_WAIT_EVENT: case DRT_STREAM_WAIT_EVENT_PTSZ:
        e = ops ? ops->stream_wait_event(ctx, arg_u64(w, cs, lane, 0), arg_u64(w, cs, lane, 1),
                                         (unsigned)arg_u64(w, cs, lane, 2))
                : EXEC_DEVRT_NOT_SUPPORTED;
        break;
    case DRT_MALLOC: {
        /* the device heap, as device-side malloc */
        uint64_t size = arg_u64(w, cs, lane, 1), addr = 0;
        if (size) {
            addr = exec_heap_malloc(b->L, size);
            if (!addr) e = EXEC_DEVRT_MEMORY_ALLOCATION;
        }
        if (!store(w, in, lane, arg_u64(w, cs, lane, 0), &addr, 8)) return;
        break;
    }
    case DRT_FREE: {
        uint64_t ptr = arg_u64(w, cs, lane, 0);
        if (ptr && !exec_heap_free(b->L, ptr)) e = EXEC_DEVRT_INVALID_VALUE;
        break;
    }
    case DRT_MEMCPY_ASYNC: case DRT_MEMCPY_ASYNC_PTSZ:
        /* (dst, src, count, kind, stream): every kind is device to device here */
        e = ops ? ops->copy_async(ctx, arg_u64(w, cs, lane, 0), arg_u64(w, cs, lane, 1), 0,
                                  arg_u64(w, cs, lane, 2), arg_u64(w, cs, lane, 4))
                : EXEC_DEVRT_NOT_SUPPORTED;
        break;
    case DRT_MEMSET_ASYNC: case DRT_MEMSET_ASYNC_PTSZ:
        /* (dst, value, count, stream) */
        e = ops ? ops->copy_async(ctx, arg_u64(w, cs, lane, 0), 0, (int)arg_u64(w, cs, lane, 1),
                                  arg_u64(w, cs, lane, 2), arg_u64(w, cs, lane, 3))
                : EXEC_DEVRT_NOT_SUPPORTED;
        break;
    case DRT_SYNCHRONIZE: {
        exec_fault f;
        f.kind = EXEC_OK;
        f.msg[0] = 0;
        e = ops ? ops->synchronize(ctx, &f) : EXEC_DEVRT_NOT_SUPPORTED;
        if (f.kind != EXEC_OK) {
            fault_from_child(w, &f);
            return;
        }
        break;
    }
    case DRT_GRAPH_LAUNCH: {
        exec_fault f;
        f.kind = EXEC_OK;
        f.msg[0] = '\0';
        e = ops && ops->graph_launch
                ? ops->graph_launch(ctx, arg_u64(w, cs, lane, 0), arg_u64(w, cs, lane, 1), &f)
                : EXEC_DEVRT_NOT_SUPPORTED;
        if (f.kind != EXEC_OK) {
            exec_fault_at(&w->h, in, lane, f.kind, f.msg);
            return;
        }
        break;
    }
    default:
        e = EXEC_DEVRT_NOT_SUPPORTED;
        break;
    }
    if (e != EXEC_DEVRT_SUCCESS) *last = e;
    set_ret(w, cs, lane, (uint32_t)e);
}

void exec_devrt_call(exec_wstate *w, const exec_insn *in, const exec_callsite *cs, int builtin,
                     uint32_t mask) {
    int n = builtin - EXEC_BUILTIN_DEVRT_FIRST;
    int fn = n / 2;
    bool legacy = n % 2;
    struct exec_devrt_worker *d = block_state(w->h.block);
    EXEC_FOR_LANES(mask, lane) {
        call_lane(w, in, cs, lane, fn, legacy, d);
        if (w->h.fault) return;
    }
    if (fn == DRT_LAUNCH_V2 || fn == DRT_LAUNCH_V2_PTSZ || fn == DRT_LAUNCH || fn == DRT_LAUNCH_PTSZ) {
        d->warp_epoch[w->h.warp_in_block]++;
        d->launch_offset[w->h.warp_in_block] = w->h.block->out->len;
        exec_warp_yield(w); /* a launch takes long: the block's other warps go first */
    }
}

static void output_epoch(struct exec_block *b, size_t offset, uint32_t epoch) {
    struct exec_devrt_worker *d = b->devrt;
    if (epoch == d->out_epoch) return;
    d->out_epoch = epoch;
    if (b->L->devrt && b->L->devrt->output_epoch)
        b->L->devrt->output_epoch(b->L->devrt_ctx, offset, epoch);
}

void exec_devrt_note_output(struct exec_block *b, uint32_t warp, size_t from) {
    struct exec_devrt_worker *d = b->devrt;
    uint32_t epoch = d->warp_epoch[warp];
    size_t cut = d->launch_offset[warp], end = b->out->len;
    /* A warp yields right after a launch: when it launched during this run, what it
     * printed in the run came before the launch. */
    if (epoch > 0 && cut >= from && cut <= end) {
        if (cut > from) output_epoch(b, from, epoch - 1);
        if (end > cut) output_epoch(b, cut, epoch);
    } else {
        output_epoch(b, from, epoch);
    }
}
