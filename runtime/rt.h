/* runtime/rt.h — what the files of the runtime layer share.
 *
 * The runtime is one process-wide context (rt_context) created on the first API call: the
 * emulated device, the registered modules, kernels and variables, the stream queue, the
 * streams and events, and the sticky device error. Per host thread there is the last error
 * (cudaGetLastError) and the stack of launch configurations that <<<...>>> pushes.
 *
 * Work given to a stream (kernels, asynchronous copies and sets, event records, host
 * functions) goes into one queue in issue order and runs when the program synchronises
 * (rt_queue_drain), the way a GPU's work becomes visible to the host only at a
 * synchronising call. Issue order respects every stream and event dependency, so the
 * single queue is always a valid schedule; device printf output therefore reaches stdout
 * where a GPU flushes it.
 */
#ifndef VCUDA_RUNTIME_RT_H
#define VCUDA_RUNTIME_RT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "../gpu/gpu.h"
#include "../check/check.h"

/* Marks a function of CUDA's ABI: the library is built with hidden visibility. */
#define RT_API __attribute__((visibility("default")))

/* ---- errors.c ---- */

/* CUDA's name and message for e, or NULL when CUDA does not know the code. */
const char *rt_error_name(cudaError_t e);
const char *rt_error_message(cudaError_t e);
/* The error a device fault becomes. */
cudaError_t rt_error_from_fault(exec_fault_kind kind);

/* ---- ptrmap.c: pointer-keyed hash map ---- */

typedef struct rt_ptrmap {
    const void **keys;
    void **values;
    size_t cap, count; /* cap is a power of two, or 0 */
} rt_ptrmap;

void rt_ptrmap_free(rt_ptrmap *m);
bool rt_ptrmap_put(rt_ptrmap *m, const void *key, void *value); /* false: out of memory */
void *rt_ptrmap_get(const rt_ptrmap *m, const void *key);          /* NULL when absent */
void *rt_ptrmap_remove(rt_ptrmap *m, const void *key);             /* the removed value */

/* ---- fatbin.c ---- */

enum { RT_FATBIN_PTX = 1, RT_FATBIN_ELF = 2 };

typedef struct rt_fatbin_entry {
    uint16_t kind;              /* RT_FATBIN_PTX or RT_FATBIN_ELF */
    uint32_t arch;              /* sm_XX / compute_XX as XX */
    uint64_t flags;
    const uint8_t *payload;     /* as stored (possibly compressed) */
    uint64_t payload_size;      /* bytes stored (compressed size when compressed) */
    uint64_t uncompressed_size; /* 0 when stored uncompressed */
    int compression;            /* RT_FATBIN_RAW, _ZSTD or _LZ4 */
} rt_fatbin_entry;

enum { RT_FATBIN_RAW = 0, RT_FATBIN_ZSTD = 1, RT_FATBIN_LZ4 = 2 };

/* Size of the container image that starts at data (header + payload), or 0 with a message
 * when data does not start with a container. */
size_t rt_fatbin_image_size(const void *data, char *err, size_t errlen);
/* Walk the containers in [data, data+len) and their entries. Returns the number of
 * entries (at most max are stored), or -1 with a message in err when the image is
 * malformed. */
int rt_fatbin_entries(const void *data, size_t len, rt_fatbin_entry *out, int max,
                      char *err, size_t errlen);
/* The entry's payload, decompressed, as a NUL-terminated string (PTX text). malloc'd;
 * NULL with a message when the payload is corrupt. */
char *rt_fatbin_entry_text(const rt_fatbin_entry *e, size_t *len, char *err, size_t errlen);
/* Pick the PTX to run on a device of compute capability device_sm (major*10+minor): the
 * newest PTX whose target is <= device_sm, else the oldest PTX present. Returns its text
 * (malloc'd) and the chosen target in *arch; on failure NULL, *code set to the CUDA error
 * (cudaErrorInvalidKernelImage for a malformed image, cudaErrorNoKernelImageForDevice when
 * there is no PTX) and a message in err. */
char *rt_fatbin_select_ptx(const void *data, size_t len, int device_sm, uint32_t *arch,
                           cudaError_t *code, char *err, size_t errlen);

/* ---- registered code: modules, kernels, variables (register.c, module.c) ---- */

enum { RT_MOD_UNLOADED, RT_MOD_LOADED, RT_MOD_FAILED };

typedef struct rt_module {
    const void *wrapper;        /* the __fatBinC_Wrapper_t nvcc registered */
    const uint8_t *image;       /* the fatbin container */
    size_t image_size;
    int state;                  /* RT_MOD_* */
    cudaError_t load_error;     /* when RT_MOD_FAILED */
    exec_program *prog;         /* when RT_MOD_LOADED */
    uint32_t ptx_arch;          /* target of the PTX that was loaded */
    uint64_t const_bytes;       /* bytes of .const variables in the module */
    char *error;                /* why registration found the image unusable, or NULL */
    bool has_managed;           /* holds __managed__ variables */
    bool regs_checked;          /* ptxas asked for its kernels' registers (regs.c) */
    /* relocatable device code (rdc.c): the fatbins of every -rdc object, linked into one
     * program when the module is loaded */
    bool rdc;
    const uint8_t **rdc_images;
    size_t nrdc_images, rdc_images_cap;
    char name[256];             /* what messages call it: "<program>.ptx", "#N" appended */
    struct rt_module *next;
} rt_module;

typedef struct rt_kernel_stats {
    uint64_t calls;
    uint64_t warp_insns;
    double host_seconds;
    exec_dim3 last_grid, last_block;
    uint64_t faults;
} rt_kernel_stats;

typedef struct rt_func {
    const void *host_stub;      /* the address nvcc's launch stub has (the "kernel symbol") */
    rt_module *mod;
    char *name;                 /* the entry's (mangled) name in the PTX */
    const exec_kernel *kernel;  /* resolved while mod is loaded */
    int max_dynamic_shared;     /* cudaFuncAttributeMaxDynamicSharedMemorySize, -1 = default */
    int carveout;               /* cudaFuncAttributePreferredSharedMemoryCarveout, -1 = none */
    int cache_config;           /* cudaFuncSetCacheConfig */
    int cluster_attrs[8];       /* cudaFuncAttribute 10..15 as set */
    rt_kernel_stats stats;
    int ptxas_regs;             /* registers per thread ptxas assigns, when has_ptxas_regs */
    bool has_ptxas_regs;
    struct rt_func *next;
} rt_func;

typedef struct rt_var {
    const void *host_shadow;    /* the host variable nvcc registered (the "symbol") */
    rt_module *mod;
    char *name;
    size_t size;
    bool constant, managed;
    void **managed_host_ptr;    /* for __managed__: where host code reads the address */
    struct rt_var *next;
} rt_var;

/* ---- streams, events and the queue (stream_event.c, queue.c) ---- */

typedef struct rt_stream {
    unsigned flags;
    int priority;
    uint64_t id;
} rt_stream;

typedef struct rt_event {
    unsigned flags;
    bool recorded;       /* a record has been issued */
    bool completed;      /* the latest record has run */
    uint64_t pending;    /* records issued and not yet run */
    double time_ms;      /* host time when the latest record ran */
} rt_event;

typedef enum rt_op_kind {
    RT_OP_KERNEL, RT_OP_COPY, RT_OP_SET, RT_OP_SET2D, RT_OP_COPY2D, RT_OP_EVENT,
    RT_OP_HOST_FN, RT_OP_CALLBACK
} rt_op_kind;

typedef struct rt_op {
    rt_op_kind kind;
    struct rt_op *next;
    cudaStream_t stream;
    union {
        struct {
            rt_func *func;
            exec_dim3 grid, block;
            uint32_t dyn_shared;
            uint8_t *params;
            char *check_site;   /* under `vcuda check`: the program's launching frame */
        } kernel;
        struct { void *dst; const void *src; size_t bytes; } copy;
        struct { void *dst; int value; size_t bytes; } set;
        struct { void *dst; size_t pitch; int value; size_t width, height; } set2d;
        struct {
            void *dst; size_t dpitch; const void *src; size_t spitch; size_t width, height;
        } copy2d;
        struct { rt_event *event; } event;
        struct { cudaHostFn_t fn; void *data; } host_fn;
        struct { cudaStreamCallback_t fn; void *data; } callback;
    } u;
} rt_op;

/* ---- the context (state.c) ---- */

enum { RT_LIMIT_COUNT = 7 }; /* cudaLimitStackSize .. cudaLimitPersistingL2CacheSize */

typedef struct rt_context {
    pthread_mutex_t lock;          /* guards everything below, except where noted */
    const gpu_preset *preset;
    gpu_device *dev;               /* NULL until needed; remade after cudaDeviceReset */
    bool active;                   /* a primary context exists (false after a reset) */
    cudaError_t sticky;            /* device fault: every context call returns it */
    bool unusable;                 /* reset after a fault: cudaErrorDevicesUnavailable */
    unsigned device_flags;         /* as set by cudaSetDeviceFlags (when flags_set) */
    bool flags_set;
    size_t limits[RT_LIMIT_COUNT];
    bool heap_in_use;              /* a kernel using device malloc/free was launched: the
                                      heap size is fixed from then on */
    int cache_config;              /* cudaDeviceSetCacheConfig */
    uint64_t next_grid_id;
    uint64_t next_stream_id;

    /* registered code (survives cudaDeviceReset) */
    rt_module *modules;
    unsigned nmodules;
    rt_func *funcs;
    rt_var *vars;
    rt_module *rdc_module;         /* all relocatable device code of the process */
    rt_ptrmap func_by_stub;        /* host stub -> rt_func */
    rt_ptrmap func_handles;        /* rt_func -> rt_func (valid cudaKernel_t values) */
    rt_ptrmap var_by_shadow;       /* host shadow -> rt_var */

    rt_ptrmap streams;             /* rt_stream* -> itself */
    rt_ptrmap events;              /* rt_event* -> itself */

    /* the queue; its own lock so that draining never holds the context lock */
    pthread_mutex_t queue_lock;
    rt_op *queue_head, *queue_tail;
    pthread_mutex_t drain_lock;    /* one thread runs queued work at a time */

    bool report;                   /* VCUDA_REPORT=1 */
    check_state *check;            /* the checker `vcuda check` asked for, or NULL */
} rt_context;

/* Per host thread. */
typedef struct rt_call_config {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
} rt_call_config;

enum { RT_MAX_CALL_CONFIGS = 16 };

typedef struct rt_thread {
    cudaError_t last_error;
    int nconfigs;
    rt_call_config configs[RT_MAX_CALL_CONFIGS];
    bool draining;                 /* this thread is running queued work (host callbacks) */
} rt_thread;

rt_thread *rt_thread_state(void);
/* The context, created on first use (never NULL). */
rt_context *rt_ctx(void);

/* Start of an API call that needs the device: creates the device if needed and returns
 * cudaSuccess, or the sticky error (recorded as the last error). */
cudaError_t rt_enter(rt_context *c);
/* The same for the few calls that still answer after a fault (cudaPointerGetAttributes). */
cudaError_t rt_enter_device(rt_context *c);
/* Record e as the calling thread's last error when it is an error; returns e. */
cudaError_t rt_record(cudaError_t e);
/* The device, created on demand (NULL with a message on stderr if it cannot be). Called
 * with c->lock held. */
gpu_device *rt_device(rt_context *c);
/* Make the device fault sticky. */
void rt_set_sticky(rt_context *c, cudaError_t e);
/* Free every allocation and loaded module and forget the device (cudaDeviceReset). */
void rt_context_reset(rt_context *c);
/* Release everything (tests, and the end of the process when leak checking). */
void rt_context_shutdown(void);
/* Milliseconds on a monotonic clock. */
double rt_now_ms(void);

/* ---- module.c ---- */

/* Load m if needed; returns cudaSuccess or the load error. Called with c->lock held. */
cudaError_t rt_module_load(rt_context *c, rt_module *m);
/* Unload every module (after their memory went away with the device). */
void rt_modules_unload(rt_context *c);
/* The kernel of f, loading its module if needed. */
cudaError_t rt_func_resolve(rt_context *c, rt_func *f);
/* Look up a kernel by the pointer a program passes (host stub) or by handle. The error is
 * cudaErrorInvalidDeviceFunction for NULL, cudaErrorInvalidResourceHandle for a pointer
 * that names no kernel. Called with c->lock held. */
cudaError_t rt_func_lookup(rt_context *c, const void *func, rt_func **out);
/* The variable whose host shadow (or, for __managed__, device address) is symbol. */
rt_var *rt_var_lookup(rt_context *c, const void *symbol);
/* Device address of v, loading its module if needed. */
cudaError_t rt_var_address(rt_context *c, rt_var *v, void **addr);
/* The effective dynamic shared memory limit of f (its attribute or the default). */
size_t rt_func_max_dynamic_shared(rt_context *c, const rt_func *f);

/* Write PTX text to $VCUDA_DUMP_PTX/<name> when that variable is set (debugging). */
void rt_module_dump_text(const char *name, const char *ptx);

/* ---- rdc.c: relocatable device code ---- */

/* A fatbin wrapper of version 2 (a device-linked program): add its images (the linked
 * image, when not NULL, and the NULL-terminated prelinked list) to the process's one
 * relocatable module, created on first use; returns that module (the handle). */
rt_module *rt_rdc_register(rt_context *c, const void *wrapper, const void *linked_image,
                           void *const *prelinked);
/* Parse the PTX of each of m's images that suits the device and link them. On failure
 * NULL, *code the CUDA error and a message in err. *arch: the newest PTX target used. */
ptx_module *rt_rdc_link(rt_context *c, rt_module *m, uint32_t *arch, cudaError_t *code,
                        char *err, size_t errlen);
/* Whether the device can run a module using this dynamic-parallelism model: devices of
 * compute capability 9.0 and up refuse device-side cudaDeviceSynchronize
 * (cudaErrorUnsupportedDevSideSync, with a message in err). */
cudaError_t rt_rdc_check_model(rt_context *c, const ptx_module *pm, char *err, size_t errlen);

/* ---- devrt.c ---- */

/* Hand the device the dynamic-parallelism limits the program set and the runtime's
 * answers to device-side queries (before running a kernel). */
void rt_devrt_prepare(rt_context *c);

/* ---- queue.c ---- */

/* Is s a stream handle this context knows (0, legacy, per-thread or a live stream)? */
bool rt_stream_valid(rt_context *c, cudaStream_t s);
/* Append op to the queue (takes ownership). */
void rt_queue_push(rt_context *c, rt_op *op);
/* Run all queued work. Returns the sticky error after it (cudaSuccess when none). */
cudaError_t rt_queue_drain(rt_context *c);
/* Drop queued work without running it (reset, fault). */
void rt_queue_discard(rt_context *c);
/* Run a kernel now (the queue calls this). */
void rt_run_kernel(rt_context *c, rt_op *op);

/* ---- memory.c ---- */

/* Is [p, p+bytes) inside memory the device can access (device, pinned, managed,
 * registered, module variables)? */
bool rt_device_range_ok(rt_context *c, const void *p, size_t bytes);
/* Checks one side of a copy: for the device side the range must be device memory; for the
 * host side, NULL is invalid and a range that starts in a known allocation must end in it. */
bool rt_host_range_ok(rt_context *c, const void *p, size_t bytes);
/* Check both sides of a copy of the given spans for its kind (cudaErrorInvalidValue). */
cudaError_t rt_check_copy(rt_context *c, void *dst, size_t dst_span, const void *src,
                          size_t src_span, enum cudaMemcpyKind kind);
/* Validate and issue a copy (async or not). */
cudaError_t rt_memcpy(rt_context *c, void *dst, const void *src, size_t bytes,
                      enum cudaMemcpyKind kind, cudaStream_t stream, bool async);
/* The 2D copy and set behind cudaMemcpy2D* and cudaMemset2D* (checks included; the
 * caller records the error). */
cudaError_t rt_copy2d(rt_context *c, void *dst, size_t dpitch, const void *src, size_t spitch,
                      size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream,
                      bool async);
cudaError_t rt_set2d(rt_context *c, void *dst, size_t pitch, int value, size_t width,
                     size_t height, cudaStream_t stream, bool async);
/* Allocate size zeroed bytes of a kind and enter them in the allocation table. */
cudaError_t rt_allocate(rt_context *c, void **out, size_t size, mem_kind kind, uint32_t flags);
/* Free every allocation the runtime made (reset). */
void rt_memory_release_all(rt_context *c, mem_table *t);

/* ---- report.c ---- */

void rt_report_print(rt_context *c);
/* The C++ name of a kernel when the program carries the C++ runtime, else NULL (malloc'd). */
char *rt_demangle(const char *name);

/* ---- regs.c ---- */

/* Registers per thread ptxas assigns f on the preset (-1 when ptxas is not available or
 * refused the PTX); *from_ptxas tells whether the answer came from ptxas. Called with
 * c->lock held; the first call for a module runs ptxas (or reads its cached report). */
int rt_func_registers(rt_context *c, rt_func *f, bool *from_ptxas);
/* Registers per thread for the occupancy calculator and cudaFuncGetAttributes: ptxas's
 * answer, else the estimate from the PTX (func.c). *from_ptxas may be NULL. */
int rt_func_regs_per_thread(rt_context *c, rt_func *f, bool *from_ptxas);

/* ---- profile.c: `vcuda prof` inside the program ---- */

typedef struct rt_prof_run rt_prof_run;
/* Before a grid runs: when profiling is on, start recording it and put the observer into
 * L; returns NULL when profiling is off. */
rt_prof_run *rt_prof_begin(rt_context *c, rt_func *f, exec_launch *L, cudaStream_t stream);
/* After the grid ran (stats from the scheduler): file the launch's counters and time.
 * Returns the grid's device time in milliseconds by the timing model (fed with what the
 * profiler saw), or -1 when r is NULL. */
double rt_prof_end(rt_context *c, rt_prof_run *r, const gpu_grid_stats *stats, bool faulted);
/* The device time of a grid that ran unprofiled, in milliseconds: the timing model
 * (prof/timing.h) fed with the launch's shape, resources and executed warp-instructions.
 * The one kernel estimate for a virtual timeline. Called without c->lock. */
double rt_kernel_time_ms(rt_context *c, rt_func *f, exec_dim3 grid, exec_dim3 block,
                         uint32_t dyn_shared, uint64_t warp_instructions);
/* At exit: the profiler's report on stderr (or its log file). */
void rt_prof_report(rt_context *c);
/* Is profiling on (VCUDA_PROF)? */
bool rt_prof_enabled(void);

#endif
