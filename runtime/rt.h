/* runtime/rt.h — what the files of the runtime layer share.
 *
 * The runtime is one process-wide context (rt_context) created on the first API call: the
 * emulated device, the registered modules, kernels and variables, the streams, events and
 * the work issued to them, and the sticky device error. Per host thread there is the last
 * error (cudaGetLastError), the per-thread default stream, the capture mode and the
 * stack of launch configurations that <<<...>>> pushes.
 *
 * Work given to a stream (kernels, asynchronous copies and sets, event records, host
 * functions) runs asynchronously on the device's engine threads (engine.c), each stream
 * in issue order, different streams at the same time; the calls that CUDA documents as
 * synchronous wait for it. Output a grid leaves for the host (device printf text, a
 * fault) is written when the host synchronises with that grid, so what a program prints
 * does not depend on timing. Times the device reports (cudaEventElapsedTime) come from a
 * virtual clock (timeline.c), so they are the same on every run.
 */
#ifndef VCUDA_RUNTIME_RT_H
#define VCUDA_RUNTIME_RT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "../gpu/gpu.h"
#include "../ptx/demangle.h"
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
    /* Each device has its own copy of the module's __device__ and __constant__ variables,
     * as each GPU has: a program per device, loaded when the device first needs it, whose
     * __managed__ variables are the first one's (one copy for every device). */
    exec_program *dev_prog[GPU_MAX_DEVICES];
    struct jit_job *dev_jit[GPU_MAX_DEVICES]; /* the compiled tier's job for each */
    int home;                   /* the device it was loaded on first ... */
    exec_program *prog;         /* ... and its program (when RT_MOD_LOADED): what queries
                                 * about the module's code read */
    uint32_t ptx_arch;          /* target of the PTX that was loaded */
    uint64_t const_bytes;       /* bytes of .const variables in the module */
    char *error;                /* why registration found the image unusable, or NULL */
    bool has_managed;           /* holds __managed__ variables */
    struct jit_job *jit;        /* the compiled tier's job for prog (NULL: none) */
    char jit_note[768];         /* what the last job made of it, kept when it went (report) */
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
    /* the compiled tier: launches that started with compiled code, and why the last one
     * that did not was interpreted (RT_INTERP_*) */
    uint64_t compiled_calls;
    int interp_why;
    char interp_note[160];      /* RT_INTERP_NOT_READY: the compile job's state then */
} rt_kernel_stats;

enum { RT_INTERP_OFF, RT_INTERP_OBSERVED, RT_INTERP_NOT_READY };

typedef struct rt_func {
    const void *host_stub;      /* the address nvcc's launch stub has (the "kernel symbol") */
    rt_module *mod;
    char *name;                 /* the entry's (mangled) name in the PTX */
    const exec_kernel *kernel;  /* resolved while mod is loaded (in mod->prog) */
    const exec_kernel *dev_kernel[GPU_MAX_DEVICES]; /* in each device's program */
    int max_dynamic_shared;     /* cudaFuncAttributeMaxDynamicSharedMemorySize, -1 = default */
    int carveout;               /* cudaFuncAttributePreferredSharedMemoryCarveout, -1 = none */
    int cache_config;           /* cudaFuncSetCacheConfig */
    int cluster_attrs[8];       /* cudaFuncAttribute 10..15 as set */
    rt_kernel_stats stats;
    bool device_loaded;         /* launched once: lazy loading has put it on the device */
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

/* ---- streams, events and the engine (stream.c, event.c, engine.c, timeline.c) ----
 *
 * Everything here is guarded by the context's engine_lock unless noted. */

typedef struct rt_stream rt_stream;
struct rt_capture;
struct rt_context;

/* The completion of one operation of a stream, shared by whatever waits for it (later
 * operations of other streams, events, the host). Reference counted; holds its stream. */
typedef struct rt_mark {
    unsigned refs;
    bool done;                  /* the operation has completed (or was dropped) */
    bool dropped;               /* it did not run: the device had faulted */
    double vtime;               /* virtual time it ended (ms), once done */
    rt_stream *stream;
    uint64_t seq;
} rt_mark;

/* For releasing output: the operation at pos of a stream waited for dep. */
typedef struct rt_edge {
    uint64_t pos;
    rt_mark *dep;
} rt_edge;

enum rt_stream_kind {
    RT_STREAM_USER,             /* cudaStreamCreate* */
    RT_STREAM_LEGACY,           /* the legacy default stream (0, cudaStreamLegacy) */
    RT_STREAM_PER_THREAD,       /* a host thread's default stream (cudaStreamPerThread) */
    RT_STREAM_GRAPH             /* a branch of a launched graph (graph.c) */
};

struct rt_stream {
    int kind;                   /* enum rt_stream_kind */
    int device;                 /* the device current at its creation */
    unsigned flags;             /* cudaStreamNonBlocking or 0 */
    int priority;
    uint64_t id;
    unsigned refs;              /* marks and handles referring to it */
    bool destroyed;             /* no handle names it any more: freed once idle */
    struct rt_op *head, *tail;  /* issued, not started, in order */
    struct rt_op *running;      /* started, not completed (one at a time: in order) */
    uint64_t issued;            /* sequence number of the last operation issued */
    uint64_t done;              /* every operation up to this one has completed */
    double vend;                /* virtual time its last completed operation ended */
    uint64_t released;          /* output released to the host up to this operation */
    rt_edge *edges;             /* dependencies of its operations, for release */
    size_t edges_first, nedges, edges_cap;
    bool last_dropped;          /* its last completed operation did not run */
    cudaLaunchAttributeValue *attrs; /* cudaStreamSetAttribute's values by id, or NULL
                                      * (stream_attr.c) */
    struct rt_capture *capture; /* stream capture in progress (capture.c) ... */
    struct rt_graph_node **cap_deps; /* ... and the nodes its next node will follow */
    size_t ncap_deps, cap_deps_cap;
    struct rt_stream *all_next, **all_prev; /* the context's list of streams */
};

typedef struct rt_event {
    unsigned flags;
    int device;                 /* the device current at its creation */
    struct rt_ipc_event *ipc;   /* interprocess: state shared with other processes */
    bool ipc_opened;            /* opened from another process's handle */
    unsigned refs;              /* the handle, and records not yet run */
    bool destroyed;
    rt_mark *mark;              /* the latest record, NULL when never recorded */
    struct rt_capture *capture; /* recorded in a capture: what a wait then joins */
    struct rt_graph_node **cap_nodes;
    size_t ncap_nodes;
} rt_event;

typedef enum rt_op_kind {
    RT_OP_KERNEL, RT_OP_COPY, RT_OP_SET, RT_OP_SET2D, RT_OP_COPY2D, RT_OP_EVENT,
    RT_OP_HOST_FN, RT_OP_CALLBACK, RT_OP_WAIT, RT_OP_LOAD,
    RT_OP_MEMOP,                /* bookkeeping in stream order (a pool allocation's free) */
    RT_OP_COND,                 /* a graph's conditional node (graph_cond.c) */
    RT_OP_GRAPH_TAILS           /* the device tail launches of a graph launched from the
                                 * host, after the graph (graph_device.c) */
} rt_op_kind;

/* Which way a copy goes, for the timeline (timeline.c). */
typedef enum rt_copy_dir { RT_COPY_H2D, RT_COPY_D2H, RT_COPY_D2D, RT_COPY_H2H } rt_copy_dir;

typedef struct rt_op {
    rt_op_kind kind;
    struct rt_op *next;         /* in its stream's queue, then in a run queue */
    rt_stream *stream;
    uint64_t seq;               /* position in its stream (1, 2, ...) */
    uint64_t order;             /* issue order over all streams */
    rt_mark **deps;             /* operations of other streams it waits for */
    unsigned ndeps, deps_cap;
    rt_mark *mark;              /* its own completion, when something waits for it */
    double vfloor;              /* earliest virtual start (what the host had seen) */
    double vstart, vend;        /* virtual times, set when it starts and ends */
    double ready_at;            /* host time it became ready (host functions) */
    bool dropped;               /* not run: the device had faulted */
    union {
        struct {
            rt_func *func;
            exec_dim3 grid, block;
            uint32_t dyn_shared;
            uint8_t *params;
            int blocks_per_sm;
            bool cooperative;   /* cudaLaunchCooperativeKernel: all blocks at once */
            exec_dim3 cluster;  /* blocks per cluster ({0,0,0}: no cluster launch) */
            uint64_t graph_exec; /* a node of this device-launchable graph, or 0 */
            gpu_dp_env *graph_env; /* the environment of the host-launched graph it is a
                                 * node of, where its device graph launches wait */
            char *check_site;   /* under `vcuda check`: the program's launching frame */
        } kernel;
        struct {
            void *dst; const void *src; size_t bytes;
            void *staging;        /* the data of a copy from pageable memory, taken at the call */
            const void *user_src; /* ... and the caller's buffer it was taken from */
            rt_copy_dir dir;
        } copy;
        struct { void *dst; int value; size_t bytes; unsigned elem; } set;
        struct { void *dst; size_t pitch; int value; size_t width, height; unsigned elem; } set2d;
        struct {
            void *dst; size_t dpitch; const void *src; size_t spitch; size_t width, height;
            rt_copy_dir dir;
        } copy2d;
        struct { rt_event *event; uint64_t ipc_seq; } event;
        struct { cudaHostFn_t fn; void *data; } host_fn;
        struct { cudaStreamCallback_t fn; void *data; cudaStream_t handle; } callback;
        /* run by the engine when the stream reaches it (engine_lock held), even after a
         * fault; it takes no time on the device */
        struct { void (*fn)(struct rt_context *c, void *arg); void *arg; } memop;
        struct { struct rt_cond_exec *ce; gpu_dp_env *graph_env; } cond; /* ce: owned by
                                                                       * the executable graph */
        struct { gpu_dp_env *env; } tails; /* owned by the operation */
    } u;
} rt_op;

/* What a completed grid left for the host: its printf output and its fault, written when
 * the host synchronises with it (engine.c). */
typedef struct rt_output {
    rt_stream *stream;
    uint64_t seq, order;
    double vend;
    char *data;
    size_t len, cap;
    cudaError_t error;          /* the fault, or cudaSuccess */
    char *message;              /* the fault's diagnostic line */
    struct rt_output *next;
} rt_output;

/* ---- the context (state.c) ---- */

enum { RT_LIMIT_COUNT = 7 }; /* cudaLimitStackSize .. cudaLimitPersistingL2CacheSize */

/* One device as the program numbers it. Devices share one allocation table (unified
 * addressing: a pointer says which device made it, mem_alloc.device), the registered code
 * and the stream engine; each has its own properties (preset), SMs and block scheduler
 * (gpu), peers and default streams. */
typedef struct rt_dev {
    int ordinal;                   /* as the program numbers it */
    int physical;                  /* its place in VCUDA_DEVICE's list (CUDA_VISIBLE_DEVICES
                                    * may renumber): its PCI address and UUID */
    const gpu_preset *preset;
    gpu_device *gpu;               /* NULL until needed; remade after cudaDeviceReset */
    uint32_t peers;                /* bit i: its kernels may reach device i's memory */
    struct rt_stream *legacy;      /* its legacy default stream, made on first use
                                    * (engine_lock) */
    /* what the program sets per device, as with CUDA (c->lock) */
    size_t limits[RT_LIMIT_COUNT]; /* cudaDeviceSetLimit */
    bool heap_in_use;              /* a kernel using device malloc/free was launched: the
                                      heap size is fixed from then on */
    unsigned flags;                /* as set by cudaSetDeviceFlags (when flags_set) */
    bool flags_set;
    int cache_config;              /* cudaDeviceSetCacheConfig */
} rt_dev;

typedef struct rt_context {
    pthread_mutex_t lock;          /* guards everything below, except where noted */
    int ndevs;                     /* devices the program sees (0: none could be set up) */
    rt_dev devs[GPU_MAX_DEVICES];
    mem_table *mem;                /* every device's allocations */
    bool active;                   /* a primary context exists (false after a reset) */
    cudaError_t sticky;            /* device fault: every context call returns it */
    bool unusable;                 /* reset after a fault: cudaErrorDevicesUnavailable */
    uint64_t next_grid_id;
    uint64_t next_stream_id;       /* engine_lock */

    /* registered code (survives cudaDeviceReset) */
    rt_module *modules;
    unsigned nmodules;
    rt_func *funcs;
    rt_var *vars;
    rt_module *rdc_module;         /* all relocatable device code of the process */
    rt_ptrmap func_by_stub;        /* host stub -> rt_func */
    rt_ptrmap func_handles;        /* rt_func -> rt_func (valid cudaKernel_t values) */
    rt_ptrmap var_by_shadow;       /* host shadow -> rt_var */

    /* streams, events and the work given to them (engine.c); engine_lock guards these
     * and every rt_stream, rt_event, rt_op, rt_mark and rt_output. It may be taken with
     * lock held, never the other way round. */
    pthread_mutex_t engine_lock;
    pthread_cond_t engine_done;    /* an operation completed */
    pthread_cond_t work_ready;     /* the run queue has work for the device's workers */
    pthread_cond_t hostfn_ready;   /* host functions to run, or a host thread waits */
    rt_ptrmap streams;             /* rt_stream* -> itself (live handles) */
    rt_ptrmap events;              /* rt_event* -> itself (live handles) */
    rt_stream *all_streams;        /* every stream object, handles gone or not */
    uint64_t generation;           /* bumped by cudaDeviceReset: older per-thread streams
                                    * are gone */
    uint64_t next_order;
    uint64_t outstanding;          /* operations issued and not completed */
    rt_op *run_head, *run_tail;    /* ready kernels, copies and sets, best priority first */
    unsigned run_count;
    rt_op *hostfn_head, *hostfn_tail; /* ready host functions and callbacks, in order */
    pthread_t *workers;            /* the device's engines: they run the run queue */
    unsigned nworkers, idle_workers, workers_cap;
    pthread_t hostfn_thread;
    bool hostfn_started;
    bool stopping;                 /* the engine's threads must end (shutdown) */
    unsigned host_waiters;         /* host threads blocked in a synchronising call */
    cudaError_t device_fault;      /* the first fault on the device side, or cudaSuccess */
    double host_vtime;             /* the virtual time the host has seen the device reach */
    rt_output *outputs, **outputs_tail; /* completed grids' output not yet released */
    rt_output *to_write;           /* released, not yet written */
    bool reap;                     /* a destroyed stream may have become free */
    pthread_mutex_t print_lock;    /* released output is written one release at a time */
    struct rt_capture *captures;   /* stream captures in progress (capture.c) */
    unsigned long long next_capture_id;
    rt_ptrmap graphs;              /* rt_graph* -> itself (live cudaGraph_t handles) */
    rt_ptrmap graph_execs;         /* instantiated graphs (cudaGraphExec_t) */

    bool report;                   /* VCUDA_REPORT=1 */
    bool lazy_loading;             /* CUDA_MODULE_LOADING is not EAGER (engine.c) */
    int jit_mode;                  /* VCUDA_JIT (jit/jit.h's jit_mode) */
    check_state *check;            /* the checker `vcuda check` asked for, or NULL */
    pthread_mutex_t tool_lock;     /* grids run one at a time under a profiler or checker */
    gpu_device *devrt_dev[GPU_MAX_DEVICES]; /* the devices the device runtime's limits went to ... */
    uint64_t devrt_pending[GPU_MAX_DEVICES]; /* ... and those limits (devrt.c) */
    uint64_t devrt_sync_depth[GPU_MAX_DEVICES];
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
    bool in_host_fn;               /* this thread is running a host function or callback */
    rt_stream *per_thread[GPU_MAX_DEVICES]; /* this thread's default stream per device,
                                             * when made ... */
    uint64_t per_thread_gen[GPU_MAX_DEVICES]; /* ... in this context generation */
    int device;                    /* the current device (cudaSetDevice) */
    bool device_chosen;            /* set by cudaSetDevice (cudaSetValidDevices then
                                    * leaves it) */
    enum cudaStreamCaptureMode capture_mode; /* cudaThreadExchangeStreamCaptureMode */
} rt_thread;

rt_thread *rt_thread_state(void);
/* The context, created on first use (never NULL). */
rt_context *rt_ctx(void);

/* Start of an API call that needs the device: creates the device if needed and returns
 * cudaSuccess, or the sticky error (recorded as the last error). */
cudaError_t rt_enter(rt_context *c);
/* The same for the few calls that still answer after a fault (cudaPointerGetAttributes). */
cudaError_t rt_enter_device(rt_context *c);
/* Has a runtime API call that needs the device been made (the driver is then initialised,
 * as CUDA's runtime initialises it)? */
bool rt_runtime_started(void);
/* Record e as the calling thread's last error when it is an error; returns e. */
cudaError_t rt_record(cudaError_t e);
/* The calling thread's current device, created on demand (NULL with a message on stderr
 * if it cannot be). Called with c->lock held. */
gpu_device *rt_device(rt_context *c);
/* Device d's gpu, created on demand likewise (c->lock held). */
gpu_device *rt_dev_gpu(rt_context *c, int d);
/* The calling thread's current device (devs[0], with no preset, when there is none). */
rt_dev *rt_cur(rt_context *c);
/* Device d's stack and heap limits in force on its core g. */
void rt_apply_limits(rt_context *c, int d, gpu_device *g);
/* Device d's limits, flags and cache configuration as the preset has them (start, reset). */
void rt_dev_settings_default(rt_context *c, int d);
/* 1 + the current device's ordinal: what allocations record (mem_alloc.device). */
uint32_t rt_cur_tag(rt_context *c);
/* Device ordinal d, or NULL when there is no such device. */
rt_dev *rt_dev_at(rt_context *c, int d);
/* The devices VCUDA_DEVICE and CUDA_VISIBLE_DEVICES give (devlist.c): fills c->devs,
 * c->ndevs (0 with a message when VCUDA_DEVICE names no device) and c->mem. */
void rt_devices_init(rt_context *c);
/* A device's UUID and PCI device (slot) number (device.c): its preset's, told apart by its place in
 * VCUDA_DEVICE's list. */
void rt_dev_uuid(const rt_dev *v, cudaUUID_t *uuid);
int rt_dev_pci_device(const rt_dev *v);
/* Make the device fault sticky. */
void rt_set_sticky(rt_context *c, cudaError_t e);
/* Free every allocation and loaded module and forget the device (cudaDeviceReset). */
void rt_context_reset(rt_context *c);
/* cudaDeviceReset of one of several devices (c->lock held, its work completed): its
 * allocations, streams, events and peers go; the other devices and the code stay. */
void rt_context_reset_device(rt_context *c, int device);
/* Release everything (tests, and the end of the process when leak checking). */
void rt_context_shutdown(void);
/* Milliseconds on a monotonic clock. */
double rt_now_ms(void);

/* ---- module.c ---- */

/* Load m on the current device if needed; returns cudaSuccess or the load error. Called
 * with c->lock held. */
cudaError_t rt_module_load(rt_context *c, rt_module *m);
/* The same on device d (each device has its own program: its own variables). */
cudaError_t rt_module_load_on(rt_context *c, rt_module *m, int d);
/* Free m's programs on every device (c->lock held). */
void rt_module_free_programs(rt_context *c, rt_module *m);
/* cudaDeviceReset of one of several devices: its copies of the modules go, to be loaded
 * (from the initialisers) when it next needs them. */
void rt_modules_reset_device(rt_context *c, int d);
/* Unload every module (after their memory went away with the device). */
void rt_modules_unload(rt_context *c);
/* The kernel of f on the current device, loading its module if needed. */
cudaError_t rt_func_resolve(rt_context *c, rt_func *f);
/* The same on device d: f->dev_kernel[d] is set on success (c->lock held). */
cudaError_t rt_func_resolve_on(rt_context *c, rt_func *f, int d);
/* The compiled tier's code for a launch of f on device d (f resolved there): requested
 * from the module's compile job, built before it returns under VCUDA_JIT=always; a kernel
 * that does not build says why on stderr and gives cudaErrorInvalidPtx. */
cudaError_t rt_func_compile(rt_func *f, int d);
/* Look up a kernel by the pointer a program passes (host stub) or by handle. The error is
 * cudaErrorInvalidDeviceFunction for NULL, cudaErrorInvalidResourceHandle for a pointer
 * that names no kernel. Called with c->lock held. */
cudaError_t rt_func_lookup(rt_context *c, const void *func, rt_func **out);
/* The variable whose host shadow (or, for __managed__, device address) is symbol. */
rt_var *rt_var_lookup(rt_context *c, const void *symbol);
/* Device address of the current device's copy of v, loading its module if needed. */
cudaError_t rt_var_address(rt_context *c, rt_var *v, void **addr);
/* The effective dynamic shared memory limit of f (its attribute or the default). */
size_t rt_func_max_dynamic_shared(rt_context *c, const rt_func *f);
/* The occupancy calculator's resident blocks per SM for a launch of f (func.c; c->lock
 * held, f resolved). */
/* The kernel's own cluster shape: __cluster_dims__, or the one set with
 * cudaFuncAttributeRequiredCluster{Width,Height,Depth}; false when it has none. */
bool rt_func_cluster_dims(const rt_func *f, exec_dim3 *out);
int rt_func_blocks_per_sm(rt_context *c, const rt_func *f, int threads_per_block,
                          size_t dynamic_shared);
/* The cluster shape of a launch of f (attr: the cluster dimension attribute's, NULL when
 * none), checked as a launch checks it (launch.c; c->lock held, f resolved): *out is
 * {0,0,0} for a launch without clusters, else cudaErrorInvalidClusterSize. */
cudaError_t rt_check_cluster(rt_context *c, const rt_func *f, dim3 grid, dim3 block,
                             size_t shared, const exec_dim3 *attr, exec_dim3 *out);

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

/* Device graph launch (graph_device.c): the nodes device g runs for executable graph exec
 * (gpu_dp_host's graph_items). */
int rt_graph_device_items(gpu_device *g, uint64_t exec, const gpu_graph_item **items,
                          size_t *n, exec_fault *fault);

/* Hand the device the dynamic-parallelism limits the program set and the runtime's
 * answers to device-side queries (before running a kernel). */
gpu_device *rt_devrt_prepare(rt_context *c, int d);


/* ---- engine.c: running streams on the device side ----
 *
 * Work issued to a stream runs in issue order on the device's engine threads while the
 * host goes on; streams run at the same time unless a dependency (an event wait, the
 * legacy default stream's implicit synchronisation) orders them. Output of a grid (its
 * printf text, its fault) is kept until the host synchronises with the grid, then written
 * (see "release" in engine.c). All functions take engine_lock themselves unless noted. */

/* Is s a stream handle this context knows (0, legacy, per-thread or a live stream)? */
bool rt_stream_valid(rt_context *c, cudaStream_t s);
/* The stream a handle names (engine_lock held): 0 and cudaStreamLegacy the legacy stream,
 * cudaStreamPerThread the calling thread's; NULL for an unknown handle. */
rt_stream *rt_stream_lookup(rt_context *c, cudaStream_t h);
/* A handle as a _ptsz/_ptds entry point means it: 0 is the per-thread stream. */
static inline cudaStream_t rt_per_thread(cudaStream_t h) {
    return h == 0 ? cudaStreamPerThread : h;
}
/* A new operation of a kind (zeroed), or NULL. */
rt_op *rt_op_new(rt_op_kind kind);
void rt_op_free(rt_op *op);
/* Make op wait for dep (engine_lock held; takes a reference). */
bool rt_op_add_dep(rt_op *op, rt_mark *dep);
/* A mark for the last operation issued to s: pending or already done (engine_lock held;
 * the caller owns a reference). NULL when s never had work. */
rt_mark *rt_stream_last_mark(rt_context *c, rt_stream *s);
void rt_mark_unref(rt_context *c, rt_mark *m);
void rt_stream_unref(rt_context *c, rt_stream *s);
void rt_event_unref(rt_context *c, rt_event *ev);
/* Free the destroyed streams nothing needs any more (engine_lock held). */
void rt_reap(rt_context *c);
/* A new stream object of a kind (engine_lock held), in the context's list; NULL when out
 * of memory. */
rt_stream *rt_stream_new(rt_context *c, int kind, unsigned flags, int priority);

/* How a call that issues work waits for it. */
typedef enum rt_wait {
    RT_ASYNC,                   /* return at once */
    RT_WAIT_DONE,               /* wait until it completed */
    RT_WAIT_FLUSH               /* wait, and write the output of what it waited for */
} rt_wait;

/* Issue op to the stream handle h (takes ownership of op, even on failure). With a wait,
 * returns the device's error when the work did not run or a fault was released.
 * cudaErrorInvalidResourceHandle for an unknown handle. Stream capture diverts op into
 * the capture's graph (graph.c). */
cudaError_t rt_issue(rt_context *c, cudaStream_t h, rt_op *op, rt_wait wait);
/* Issue op to stream s (engine_lock held, s valid, not capturing). Returns op's mark when
 * want_mark (a reference for the caller), else NULL. */
rt_mark *rt_issue_locked(rt_context *c, rt_stream *s, rt_op *op, bool want_mark);
/* Wait for m (engine_lock held; returns with it held). flush: release the output of what
 * m depended on. Returns the device error when m's work was dropped, else cudaSuccess. */
cudaError_t rt_wait_mark_locked(rt_context *c, rt_mark *m, bool flush);
/* As rt_wait_mark_locked, but gives up after max_ms (queries): false if not done. */
bool rt_wait_mark_timed_locked(rt_context *c, rt_mark *m, double max_ms);
/* Write the output released so far (after dropping engine_lock): stdout, fault lines on
 * stderr; makes a released fault sticky. */
void rt_flush_released(rt_context *c);
/* After a wait (engine_lock dropped): make e sticky when it is an error, write what was
 * released, and return the sticky error (cudaSuccess when none). */
cudaError_t rt_wait_finish(rt_context *c, cudaError_t e);
/* How long queries give unfinished work, and host functions wait for a host thread to
 * synchronise, before going on (engine.c says why). */
double rt_host_grace_ms(void);
/* Wait for every operation of every stream, write all output (cudaDeviceSynchronize).
 * Returns the sticky error after it. */
cudaError_t rt_device_synchronize(rt_context *c);
/* The same for one device's streams (device < 0: every device's). */
cudaError_t rt_device_synchronize_dev(rt_context *c, int device);
/* Drop everything a reset removes: streams, events, pending output (after
 * rt_device_synchronize; engine_lock not held). */
void rt_engine_reset(rt_context *c);
/* The streams, events and default stream of one device go (cudaDeviceReset with several
 * devices; its work has completed). */
void rt_engine_reset_device(rt_context *c, int device);
/* Stop the engine's threads (process shutdown in tests). */
void rt_engine_stop(rt_context *c);
/* The calling thread is inside a host function (API calls that wait are refused). */
bool rt_in_host_fn(void);

/* A kernel's first launch to stream h: wait while CUDA's lazy loading puts it on the
 * device (engine.c says how that orders work). False when nothing was loaded because h
 * is capturing (the kernel is then not launched yet). */
bool rt_lazy_load(rt_context *c, cudaStream_t h);
/* Run a kernel now (engine threads call this); fills op->vend and may add an output. */
void rt_run_kernel(rt_context *c, rt_op *op);
/* Run a kernel, copy or set now, on the calling engine thread (a conditional node runs
 * its body's operations so); fills op->vend from op->vstart. */
void rt_engine_run_op(rt_context *c, rt_op *op);
/* Run a conditional node's bodies as its condition says (graph_cond.c). */
void rt_graph_cond_run(rt_context *c, rt_op *op);
/* Does a conditional or child graph node's operation hold kernels that launch graphs? */
bool rt_graph_cond_launches_graphs(const rt_op *op);
/* Run a host-launched graph's device tail launches (RT_OP_GRAPH_TAILS; sets vend). */
void rt_graph_tails_run(rt_context *c, rt_op *op);
/* Record a completed grid's output and fault for release (engine_lock held). */
void rt_output_add(rt_context *c, rt_output *o);
/* A grid's end (launch.c): out's error and message for fault kind k ("vcuda: <what>
 * failed: ..." unless the fault says more), then out handed on in the op's stream order
 * with the device's sticky fault set (out is consumed). */
void rt_output_set_fault(rt_context *c, rt_output *out, exec_fault_kind k,
                         const exec_fault *fault, const char *what);
void rt_output_finish(rt_context *c, const rt_op *op, rt_output *out);

/* ---- graph.c, capture.c: CUDA graphs and stream capture ---- */

/* A node: the operation it issues at each launch (a template, never issued itself) and
 * the nodes it follows. */
typedef struct rt_graph_node {
    struct rt_graph *graph;
    enum cudaGraphNodeType type;
    rt_op *op;
    struct rt_graph_node **deps;
    size_t ndeps, deps_cap;
    size_t index;               /* position in its graph */
    struct rt_graph_node *origin; /* the node it is a copy of (cudaGraphClone), or NULL */
    void **kernel_args;         /* cudaGraphKernelNodeGetParams' kernelParams, or NULL */
    cudaLaunchAttributeValue *attrs; /* a kernel node's attributes by id, or NULL */
    /* what a node of some types holds besides its operation (graph_nodes.c) */
    union {
        struct { void *dptr; size_t bytesize; struct cudaMemPoolProps props; } alloc;
        void *free_ptr;
        struct rt_graph *child;  /* a child graph node's own copy of the graph */
        struct {
            cudaGraphConditionalHandle handle;
            enum cudaGraphConditionalNodeType type;
            unsigned size;
            struct rt_graph **bodies;
        } cond;
    } x;
} rt_graph_node;

typedef struct rt_graph {
    rt_graph_node **nodes;
    size_t nnodes, nodes_cap;
} rt_graph;

/* A capture in progress: the graph it builds and the streams taking part. */
typedef struct rt_capture {
    rt_graph *graph;
    enum cudaStreamCaptureMode mode;
    pthread_t thread;           /* the thread that began it */
    unsigned long long id;
    rt_stream *origin;
    bool invalid;               /* an unsupported call broke it: EndCapture fails */
    bool to_graph;              /* cudaStreamBeginCaptureToGraph: the graph is the caller's */
    size_t first_node;          /* the first node it recorded */
    struct rt_capture *next;    /* the context's captures */
} rt_capture;

/* A copy of op as a fresh operation (parameters duplicated, no dependencies). */
rt_op *rt_op_clone(const rt_op *op);
/* A graph with no nodes, and its end (engine_lock held for both). */
rt_graph *rt_graph_new(void);
void rt_graph_free(rt_graph *g);
/* Add a node issuing op after deps (engine_lock held; takes op). NULL when out of memory. */
rt_graph_node *rt_graph_add(rt_graph *g, enum cudaGraphNodeType type, rt_op *op,
                            rt_graph_node *const *deps, size_t ndeps);
/* A kernel launch checked and packed as an operation (launch.c; takes c->lock). */
cudaError_t rt_kernel_op(rt_context *c, const void *func, dim3 grid, dim3 block, void **args,
                         size_t shared, rt_op **out);

/* Before work or a wait is issued to s (engine_lock held): cudaSuccess, or the error a
 * capture in progress makes of it (a wait on a capturing stream; any use of the legacy
 * stream while a blocking stream captures in global mode), which also invalidates that
 * capture. */
cudaError_t rt_capture_check(rt_context *c, rt_stream *s, bool waits);
/* Record op as a node of the graph s is capturing (engine_lock held; takes op). */
cudaError_t rt_capture_op(rt_context *c, rt_stream *s, rt_op *op);
/* cudaEventRecord on a capturing stream, and cudaStreamWaitEvent where the event was
 * recorded in a capture or the stream captures (engine_lock held). */
/* cudaMallocAsync / cudaFreeAsync in capturing stream s: a memory node after its last
 * work, in *out (engine lock held). */
cudaError_t rt_capture_mem_node(rt_stream *s, enum cudaGraphNodeType type, rt_graph_node **out);
cudaError_t rt_capture_event_record(rt_context *c, rt_stream *s, rt_event *ev);
cudaError_t rt_capture_wait_event(rt_context *c, rt_stream *s, rt_event *ev);
/* An event recorded outside a capture no longer stands for captured nodes. */
void rt_event_forget_capture(rt_event *ev);
/* A synchronising call that is not tied to one stream (cudaDeviceSynchronize, cudaMalloc
 * and the like) while captures run: the error it gets, invalidating them. */
cudaError_t rt_capture_forbids(rt_context *c);
/* Forget every capture (cudaDeviceReset; engine_lock held). */
void rt_capture_reset(rt_context *c);
/* Free every graph and executable graph (cudaDeviceReset; engine_lock held). */
void rt_graphs_reset(rt_context *c);
/* Is handle a conditional handle cudaGraphConditionalHandleCreate made (graph_cond.c)? */
bool rt_graph_cond_handle_ok(cudaGraphConditionalHandle handle);
/* Forget every conditional handle (cudaDeviceReset). */
void rt_graph_cond_reset(void);
/* User objects (graph_userobj.c): the references owner (a graph or executable graph) holds
 * are also held by to; owner's references are dropped (its end). */
void rt_userobj_copy(const void *from, const void *to);
void rt_userobj_release_all(const void *owner);

/* ---- timeline.c: the virtual clock ---- */

/* What an operation did, for its cost on the device's timeline. */
typedef struct rt_cost {
    rt_op_kind kind;
    size_t bytes;               /* copies and sets */
    rt_copy_dir dir;            /* copies */
    uint64_t warp_instructions; /* kernels */
    uint64_t blocks;
    uint32_t threads_per_block;
} rt_cost;

/* Milliseconds an operation takes on the virtual device (the one estimate; a timing
 * model may replace it). */
double rt_timeline_cost_ms(const gpu_preset *p, const rt_cost *what);

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
/* len bytes (a multiple of the page size) of zeroed private pages, unmapped with munmap
 * (2 MiB-aligned transparent huge pages from 2 MiB up); NULL when none. */
void *rt_map_private(size_t len);
/* Small device allocations (below a host page) packed into 2 MiB mappings of the table t
 * as a GPU packs them (runtime/device_arena.c): size zeroed bytes on a 512-byte boundary,
 * NULL when none; rt_arena_free gives back a block of that size (false: p is none). */
void *rt_arena_alloc(mem_table *t, size_t size, uint32_t device);
bool rt_arena_free(mem_table *t, void *p, size_t size);
/* Give back device memory of rt_allocate's at once (no waiting): a failed step after it. */
bool rt_release_device(rt_context *c, void *p);
/* Give back the memory of a runtime object (an array, a texture or surface object:
 * allocated with EXEC_MEM_FLAG_OBJECT) that starts at p; false when there is none. */
bool rt_release_object(rt_context *c, void *p);
/* Free every allocation the runtime made (reset). */
void rt_memory_release_all(rt_context *c, mem_table *t);
/* Free the program's allocations made while device tag - 1 was current. */
void rt_memory_release_device(rt_context *c, uint32_t tag);

/* ---- mempool.c: stream-ordered allocation ---- */

/* mem_alloc.flags of an allocation carved from a memory pool's reserved memory (apart from
 * the executor's EXEC_MEM_FLAG_DEVICE_HEAP and EXEC_MEM_FLAG_OBJECT bits). */
#define RT_MEM_FLAG_POOL 0x10000000u
/* mem_alloc.flags of another process's device memory opened with cudaIpcOpenMemHandle. */
#define RT_MEM_FLAG_IPC 0x08000000u
/* mem_alloc.flags of the memory of a graph's memory alloc node: the graph's for its life,
 * at one address (a cudaFree of it outside the graph gives it back to the graph, whose
 * alloc node maps it again at its next launch). */
#define RT_MEM_FLAG_GRAPH 0x04000000u
/* The program freed graph memory at p (cudaFree, cudaFreeAsync): its graph's physical
 * memory may go at the next trim or to the next graph launched into its stream
 * (runtime/graph_mem.c). */
void rt_graph_mem_freed(const void *p);
/* mem_alloc.flags of device memory the driver's virtual memory management mapped
 * (driver/vmm.c): cuMemUnmap takes it away, cudaFree refuses it. */
#define RT_MEM_FLAG_VMM 0x02000000u
/* mem_alloc.flags of managed memory mapped shared (profiled runs, memory.c): its page-table
 * entries can be dropped with its contents kept, so that the host touching it again after a
 * grid shows (memrange.c) */
#define RT_MEM_FLAG_UVM_PAGES 0x01000000u

/* ---- ipc.c: sharing memory and events with other processes ---- */

/* The allocation at p is being freed: if it was exported, its shared memory goes. */
void rt_ipc_forget(void *p);
/* An event made with cudaEventInterprocess gets its shared state (false: out of
 * resources); an event going gives it back. */
bool rt_ipc_event_init(rt_event *ev);
void rt_ipc_event_free(rt_event *ev);
/* A record of an interprocess event: its number when issued, its completion (engine). */
uint64_t rt_ipc_event_recorded(rt_event *ev);
void rt_ipc_event_done(rt_event *ev, uint64_t seq);
/* Wait (host side) until the latest record of an event opened from another process, as
 * issued when the call began, has completed; query: answer at once. */
bool rt_ipc_event_wait(rt_event *ev, bool query);

/* cudaFree of a pool allocation (the device is synchronised): give it back to its pool.
 * False when p is not the start of a pool allocation. */
bool rt_pool_free_now(rt_context *c, void *p);
/* After the host waited for the device: pools hold no more unused memory than their
 * release thresholds. */
void rt_pools_after_sync(rt_context *c);
/* cudaDeviceReset: every pool and its memory goes. */
void rt_pools_reset(rt_context *c);

/* ---- memrange.c: advice and prefetches of managed memory, by allocation ---- */

void rt_memrange_advise(uint64_t base, enum cudaMemoryAdvise advice,
                        struct cudaMemLocation location);
/* flags: the allocation's mem_alloc.flags */
void rt_memrange_prefetched(uint64_t base, uint64_t size, uint32_t flags, uint64_t ptr,
                            uint64_t count, struct cudaMemLocation location);
/* Profiled grids and managed memory (memrange.c): before a grid runs, which chunks the
 * host has touched; after it, the bytes it migrated from the host (of them, returned: those
 * the host took back after a grid had them) and made on the device. */
struct prof_session;
void rt_prefetch_order(cudaStream_t stream);
void rt_memrange_before_grid(rt_context *c);
void rt_memrange_after_grid(rt_context *c, struct prof_session *s, uint64_t *migrated,
                            uint64_t *returned, uint64_t *populated);
void rt_memrange_forget(uint64_t base);

/* ---- report.c ---- */

void rt_report_print(rt_context *c);

/* ---- regs.c ---- */

/* Registers per thread ptxas assigns f on the preset (-1 when ptxas is not available or
 * refused the PTX); *from_ptxas tells whether the answer came from ptxas. Called with
 * c->lock held; the first call for a module runs ptxas (or reads its cached report). */
int rt_func_registers(rt_context *c, rt_func *f, bool *from_ptxas);
/* Registers per thread for the occupancy calculator and cudaFuncGetAttributes: ptxas's
 * answer, else the estimate from the PTX (func.c). *from_ptxas may be NULL. */
int rt_func_regs_per_thread(rt_context *c, rt_func *f, bool *from_ptxas);
/* The PTX-level estimate of a kernel's registers per thread (no ptxas). */
int rt_func_regs_estimate(const gpu_preset *p, const exec_kernel_info *info);

/* ---- profile.c: `vcuda prof` inside the program ---- */

typedef struct rt_prof_run rt_prof_run;
/* Before a grid runs on device dev: when profiling is on, start recording it and put the
 * observer into L; returns NULL when profiling is off. timeline: a grid the host launched, whose
 * counters go to the timeline when one is recorded (trace.c). */
rt_prof_run *rt_prof_begin(rt_context *c, rt_func *f, exec_launch *L, int dev,
                           cudaStream_t stream, bool timeline);
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
/* Profiling runs the compiled tier's instrumented code (VCUDA_PROF_JIT is not 0)? */
bool rt_prof_compiled(void);

/* ---- progress.c: the progress line of long grids on a terminal ---- */

typedef struct rt_progress rt_progress;
/* A grid of f with this many blocks starts: NULL when no progress is shown (stderr not a
 * terminal, VCUDA_PROGRESS=0). */
rt_progress *rt_progress_begin(const rt_func *f, uint64_t blocks);
/* Where the scheduler counts the grid's ended blocks (gpu_grid_opts.blocks_done). */
uint64_t *rt_progress_counter(rt_progress *p);
/* The grid ended: its line, if shown, is erased. p may be NULL. */
void rt_progress_end(rt_progress *p);
/* A graph launch issued n nodes with these completion marks (engine_lock held): shown
 * while they run, as nodes done of n. */
void rt_progress_graph(rt_context *c, rt_mark *const *marks, size_t n);
/* The host has waited for work (rt_wait_finish, without engine_lock): a graph launch that
 * has ended leaves the line before the program goes on printing. */
void rt_progress_settle(rt_context *c);
/* At exit: no line is left on the terminal. */
void rt_progress_exit(void);

/* ---- trace.c: the timeline `vcuda prof --timeline` writes (VCUDA_PROF_TIMELINE) ---- */

struct prof_counters;
struct prof_launch;
extern bool rt_trace_on;           /* a timeline is being recorded */
void rt_trace_init(rt_context *c); /* at the context's creation: reads the environment */
/* An operation completed (engine_lock held). */
void rt_trace_op(rt_context *c, const rt_op *op);
/* The profiler's measure of the grid this thread ran, for its rt_trace_op. */
void rt_trace_kernel_measured(const struct prof_counters *counters,
                              const struct prof_launch *launch);
/* The host issued operation `order` / waited, from virtual time since (engine_lock held). */
void rt_trace_api_issue(rt_context *c, uint64_t order);
void rt_trace_api_wait(rt_context *c, double since);
/* The API call in progress returns (rt_record). */
void rt_trace_api_end(void);
/* At exit: write the timeline file. */
void rt_trace_write(rt_context *c);

#endif
