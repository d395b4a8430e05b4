/* exec/exec.h — the SIMT core as the layers above see it.
 *
 * A ptx_module is lowered once into an exec_program (pre-decoded, type-specialised
 * instructions). gpu/ runs a grid by calling exec_run_block for each block on worker
 * threads; each worker owns an exec_worker holding the scratch (warps, register files,
 * shared memory) reused from block to block.
 */
#ifndef VCUDA_EXEC_EXEC_H
#define VCUDA_EXEC_EXEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "../ptx/ir.h"
#include "../mem/mem.h"

typedef struct exec_program exec_program;
typedef struct exec_kernel exec_kernel;
typedef struct exec_worker exec_worker;

typedef struct exec_dim3 { uint32_t x, y, z; } exec_dim3;

/* ---- loading ---- */

/* Lower a parsed module. Module .global/.const variables get zero-filled (or initialised)
 * host storage that is entered into mem as MEM_KIND_GLOBAL_VAR / MEM_KIND_CONST_VAR.
 * Takes ownership of m. On failure returns NULL and writes
 * "<ptx name>:<line>:<col>: error: <what>" into err (e.g. an unsupported instruction). */
exec_program *exec_program_load(ptx_module *m, mem_table *mem, char *err, size_t errlen);
/* How a program is loaded on one of several devices (each has its own copy of the module's
 * variables, as each GPU has): device_tag is the mem_alloc.device its variables carry (0:
 * none), and __managed__ variables, one copy for every device, are managed_from's storage
 * when it is not NULL (that program must outlive this one). */
typedef struct exec_program_opts {
    uint32_t device_tag;
    const exec_program *managed_from;
    /* the device's reserved shared memory (1 KB on sm_80 and later, 0 before): the start of
     * every block's shared window, where the user's shared variables do not go */
    uint32_t reserved_shared;
    uint32_t shared_alloc_unit; /* %total_smem_size counts shared memory in these (0: 1) */
} exec_program_opts;
exec_program *exec_program_load_opts(ptx_module *m, mem_table *mem, const exec_program_opts *o,
                                     char *err, size_t errlen);
void exec_program_free(exec_program *p, mem_table *mem);

/* NULL when the module has no entry of that name. */
const exec_kernel *exec_program_kernel(const exec_program *p, const char *name);
/* Device address and size of a module-level variable; NULL when absent. */
void *exec_program_var(const exec_program *p, const char *name, size_t *size);
const ptx_module *exec_program_module(const exec_program *p);

typedef struct exec_kernel_info {
    const char *name;
    uint32_t nparams;
    const uint32_t *param_offsets;  /* byte offset of each parameter in the param buffer */
    const uint32_t *param_sizes;
    uint32_t param_size;            /* total bytes of the param buffer */
    uint32_t static_shared;         /* bytes of .shared declared in the kernel and its callees */
    uint32_t reserved_shared;       /* bytes reserved at the start of the shared window: the
                                     * static variables start there */
    uint32_t dyn_shared_base;       /* offset of the dynamic (extern) shared memory in the
                                     * window: a block's window ends at dyn_shared_base +
                                     * dynamic bytes when a launch asks for any, at
                                     * reserved_shared + static_shared otherwise */
    uint32_t local_per_thread;      /* bytes of .local (stack frames included) */
    uint32_t local_one_pass;        /* of which one pass through the calls needs (all of it
                                     * unless recursive) */
    bool recursive;                 /* the call graph has a cycle: the stack is a limit */
    bool dyn_stack;                 /* a reachable function allocates on its stack (alloca,
                                     * stacksave, stackrestore: exec/stack.c) */
    uint32_t regs_per_thread;       /* estimate from the PTX (ptxas may say otherwise) */
    uint32_t maxntid[3], reqntid[3], minnctapersm; /* 0 when absent */
    /* clusters: __cluster_dims__ (.reqnctapercluster, 0 when absent), .explicitcluster,
     * and __launch_bounds__'s third figure (.maxclusterrank, 0 when absent) */
    uint32_t reqnctapercluster[3];
    bool explicitcluster;
    uint32_t maxclusterrank;
    uint32_t ptx_version;           /* major*10 + minor */
    uint32_t target_sm;
    bool uses_device_heap;          /* the kernel or a callee calls malloc or free */
    bool uses_graph_launch;         /* the kernel or a callee calls cudaGraphLaunch: it may
                                     * run only as a node of a graph */
    bool uses_kernel_launch;        /* the kernel or a callee launches kernels (dynamic
                                     * parallelism): not in a device graph */
} exec_kernel_info;

const exec_kernel_info *exec_kernel_get_info(const exec_kernel *k);

/* The device heap that malloc in kernels (and the legacy device-side cudaMalloc) draws
 * on: cudaLimitMallocHeapSize bytes, owned by the device. */
typedef struct exec_heap {
    _Atomic uint64_t used;          /* bytes of live blocks, each rounded up to 16 */
    uint64_t limit;
} exec_heap;

/* ---- running ---- */

typedef enum exec_fault_kind {
    EXEC_OK = 0,
    EXEC_FAULT_ILLEGAL_ADDRESS,   /* -> cudaErrorIllegalAddress */
    EXEC_FAULT_MISALIGNED,        /* -> cudaErrorMisalignedAddress */
    EXEC_FAULT_TRAP,              /* trap, brkpt -> cudaErrorLaunchFailure */
    EXEC_FAULT_ASSERT,            /* __assertfail -> cudaErrorAssert */
    EXEC_FAULT_ILLEGAL_INSTRUCTION, /* -> cudaErrorIllegalInstruction */
    EXEC_FAULT_STACK_OVERFLOW,    /* call depth -> cudaErrorLaunchFailure */
    EXEC_FAULT_INVALID_PC,        /* -> cudaErrorInvalidPc */
    EXEC_FAULT_ABORTED,           /* stopped because another block faulted */
    EXEC_FAULT_TIMEOUT,           /* ran past the launch's deadline (VCUDA_KERNEL_TIMEOUT)
                                   * -> cudaErrorLaunchTimeout */
    EXEC_FAULT_INVALID_ADDRESS_SPACE /* a global access to a shared or local window address
                                      * -> cudaErrorInvalidAddressSpace */
} exec_fault_kind;

typedef struct exec_fault {
    exec_fault_kind kind;
    char msg[512];  /* one line: kernel, block, thread, instruction, PTX line, source line */
} exec_fault;

/* Output of one block: its device printf output in the order the block produced it
 * (data, for the program's stdout), and its device diagnostics (err): the messages of
 * failed assertions, which the CUDA driver writes to stderr. */
typedef struct exec_output {
    char *data;
    size_t len, cap;
    char *err;
    size_t err_len, err_cap;
} exec_output;

struct exec_devrt_ops;
typedef struct exec_cluster exec_cluster;

typedef struct exec_launch {
    const exec_kernel *kernel;
    exec_dim3 grid, block;
    uint32_t dyn_shared;            /* bytes of dynamic shared memory */
    const uint8_t *params;          /* param buffer laid out by exec_kernel_info */
    mem_table *mem;
    /* Several devices share mem (unified addressing): device is 1 + the ordinal of the
     * device the grid runs on, and a device allocation of another device (mem_alloc.device)
     * is reachable only when its bit (1 << ordinal) is in peers; device 0: one device, no
     * such check. */
    uint32_t device;
    uint32_t peers;
    uint32_t num_sms;               /* for %nsmid */
    uint32_t clock_khz;             /* for %clock / %globaltimer pacing */
    uint64_t grid_id;               /* %gridid */
    uint64_t graph_exec;            /* %current_graph_exec: the device-launchable graph the
                                     * grid is a node of (cudaGetCurrentGraphExec); 0: none */
    void *graph_env;                /* the graph execution environment (gpu/dp.c) of the
                                     * graph launched from the host the grid is a node of,
                                     * where its device graph launches wait; NULL: none */
    volatile int *abort;            /* set non-zero to make running blocks stop early */
    uint64_t deadline_ns;           /* CLOCK_MONOTONIC time past which a block still running
                                     * stops with EXEC_FAULT_TIMEOUT; 0: none */
    exec_heap *heap;                /* the device heap; NULL: bounded by the host alone */
    uint32_t stack_limit;           /* cudaLimitStackSize: bytes of stack per thread for a
                                     * kernel with recursive calls (at least what one pass
                                     * through its calls needs); 0: that pass and
                                     * EXEC_RECURSION_STACK_BYTES more */
    bool warp_barriers;             /* before sm_70: a barrier waits for whole warps, and a
                                     * warp never runs a diverged path while part of it
                                     * waits at a barrier (exec/block.c) */
    const struct exec_observer *observer; /* profiler/checker watching this launch, or NULL
                                           * (exec/observe.h) */
    bool warps_outlive_fault;       /* a faulting warp stops alone: the block's other warps
                                     * run on until they exit or fault themselves, then the
                                     * block ends with its first fault (memcheck: on a GPU
                                     * every warp that reaches the bad access reports) */
    bool exact_bounds;              /* an access past the user's last byte faults even
                                     * where a GPU has the memory mapped: inside a shared
                                     * allocation unit (exec/block.c) or a global mapping
                                     * (mem_table_map) (memcheck: a kernel stops at its
                                     * first invalid access, as under compute-sanitizer) */
    /* the device runtime: what the grid's device-side launches, streams and events do
     * (NULL: every such call fails with cudaErrorNotSupported) */
    const struct exec_devrt_ops *devrt;
    void *devrt_ctx;                /* passed to each operation */
    /* a cooperative launch (cudaLaunchCooperativeKernel): every block of the grid runs at
     * once, each on a host thread of its own, so blocks may wait for one another; NULL
     * otherwise */
    const struct exec_coresident *coresident;
    uint64_t grid_workspace;        /* device address of the grid's barrier word pair,
                                     * which %envreg1:%envreg2 give cooperative groups
                                     * (this_grid().sync()); 0 when not cooperative */
    /* thread block clusters: blocks per cluster ({0,0,0} or {1,1,1}: clusters of one),
     * whether the launch named a cluster shape (%is_explicit_cluster), and the cluster of
     * the block being run when it has more than one block (each lane's copy of the launch
     * names its own; NULL otherwise) */
    exec_dim3 cluster_dim;
    bool explicit_cluster;
    exec_cluster *cluster;
} exec_launch;

/* How the blocks of a co-resident grid wait for one another without taking the host's
 * cores from the blocks that still have work. Cooperative groups' grid barrier counts
 * arrivals with an atomic add on the workspace's word at offset 4, whose top bit flips
 * when the last block arrives; each block then polls the word. */
typedef struct exec_coresident {
    /* A warp has gone round a spin-wait for a while (round: how many times it has called
     * this during the wait, from 1): sleep until the barrier's bit flips after the flip
     * *seen counts (then *seen is brought up to date), or for a while that grows with
     * round. Round 0: the warp polls the barrier's word after arriving there, so only the
     * flip (or a fault) need wake it; it still wakes now and then (a deadline). */
    void (*wait)(void *ctx, uint32_t round, uint64_t *seen);
    /* An atomic has flipped the barrier's bit. */
    void (*flipped)(void *ctx);
    void *ctx;
} exec_coresident;

/* mem_alloc.flags of allocations made by device-side malloc (MEM_KIND_DEVICE): they
 * belong to the device heap and are released with device-side free. */
#define EXEC_MEM_FLAG_DEVICE_HEAP 0x40000000u

/* ---- thread block clusters (exec/cluster.c) ----
 * The blocks of a cluster run at once, each on a host thread of its own (the grid runner
 * sees to that): they reach one another's shared memory (distributed shared memory) and
 * wait for one another at barrier.cluster through the cluster object they share. */
#define EXEC_CLUSTER_MAX 16u  /* the most blocks a cluster has (non-portable size on sm_90) */
/* A cluster of dim blocks (at most EXEC_CLUSTER_MAX); NULL when out of memory. */
exec_cluster *exec_cluster_new(exec_dim3 dim);
void exec_cluster_free(exec_cluster *c);
/* Rank of the block ctaid in its cluster of dim blocks (x fastest). */
uint32_t exec_cluster_rank(exec_dim3 dim, exec_dim3 ctaid);

exec_worker *exec_worker_new(void);
void exec_worker_free(exec_worker *w);

/* Run block ctaid of launch L to completion on worker w, as SM smid.
 * Device printf output is appended to *out. Returns EXEC_OK or the fault, with
 * fault->msg filled. Never crashes the host on a device fault. */
exec_fault_kind exec_run_block(exec_worker *w, const exec_launch *L, exec_dim3 ctaid,
                               uint32_t smid, exec_output *out, exec_fault *fault);

/* The worker has run its last block of a launch: end what it told the launch's observer
 * (end_worker for the state begin_worker made, exec/observe.h). The block scheduler calls
 * it once per worker and launch; a no-op when nothing was observed. */
void exec_worker_observe_end(exec_worker *w);

/* Executed warp-instructions on this worker since it was made (for benchmarks). */
uint64_t exec_worker_insn_count(const exec_worker *w);

/* ---- the device runtime (dynamic parallelism, exec/devrt.c) ----
 *
 * Calls a kernel makes to CUDA's device runtime (what nvcc emits for <<<>>> in device code
 * with -rdc=true: __cudaCDP2GetParameterBufferV2, __cudaCDP2LaunchDeviceV2, ..., or the
 * plain names under the legacy model CDP1) are builtins of the executor: it reads their
 * arguments, keeps each thread's last error and the parameter buffers, writes the results,
 * and asks the layer that runs grids (gpu/) to do the rest through exec_devrt_ops. */

/* cudaError_t values the device runtime returns (the runtime checks they match). */
enum {
    EXEC_DEVRT_SUCCESS = 0,
    EXEC_DEVRT_INVALID_VALUE = 1,
    EXEC_DEVRT_MEMORY_ALLOCATION = 2,
    EXEC_DEVRT_INVALID_CONFIGURATION = 9,
    EXEC_DEVRT_LAUNCH_MAX_DEPTH_EXCEEDED = 65,
    EXEC_DEVRT_SYNC_DEPTH_EXCEEDED = 68,
    EXEC_DEVRT_LAUNCH_PENDING_COUNT_EXCEEDED = 69,
    EXEC_DEVRT_INVALID_DEVICE_FUNCTION = 98,
    EXEC_DEVRT_INVALID_RESOURCE_HANDLE = 400,
    EXEC_DEVRT_NOT_SUPPORTED = 801
};

/* cudaStream_t values with a meaning of their own in device code. */
#define EXEC_DEVRT_STREAM_PER_THREAD 0x2u
#define EXEC_DEVRT_STREAM_TAIL_LAUNCH 0x3u
#define EXEC_DEVRT_STREAM_FIRE_AND_FORGET 0x4u
/* the streams of device graph launch (cudaStreamGraphTailLaunch, ...FireAndForget,
 * ...FireAndForgetAsSibling) */
#define EXEC_DEVRT_STREAM_GRAPH_TAIL 0x0100000000000000ull
#define EXEC_DEVRT_STREAM_GRAPH_FIRE_AND_FORGET 0x0200000000000000ull
#define EXEC_DEVRT_STREAM_GRAPH_SIBLING 0x0300000000000000ull

/* A grid launch asked for by a thread. */
typedef struct exec_devrt_launch {
    const exec_kernel *kernel;
    const exec_kernel_info *info; /* the kernel's */
    exec_dim3 grid, block;
    uint32_t dyn_shared;
    const uint8_t *params;       /* the kernel's parameter buffer (info->param_size bytes) */
    uint64_t stream;             /* the cudaStream_t the thread gave */
    uint32_t thread;             /* the launching thread, linear index in its block */
    bool per_thread_stream;      /* a _ptsz entry point: stream 0 is the thread's own */
    bool legacy;                 /* CDP1 entry point (cudaLaunchDeviceV2, not __cudaCDP2...) */
} exec_devrt_launch;

/* What the grid runner does for the device runtime. ctx is exec_launch.devrt_ctx (it knows
 * the block being run). Each returns a cudaError_t value. */
typedef struct exec_devrt_ops {
    int (*launch)(void *ctx, const exec_devrt_launch *l);
    int (*stream_create)(void *ctx, unsigned flags, uint64_t *stream);
    int (*stream_destroy)(void *ctx, uint64_t stream);
    int (*event_create)(void *ctx, unsigned flags, uint64_t *event);
    int (*event_destroy)(void *ctx, uint64_t event);
    int (*event_record)(void *ctx, uint64_t event, uint64_t stream);
    int (*stream_wait_event)(void *ctx, uint64_t stream, uint64_t event, unsigned flags);
    /* cudaMemcpyAsync / cudaMemsetAsync into a device stream: done in stream order with
     * the block's launches (src NULL: a set of count bytes to value) */
    int (*copy_async)(void *ctx, uint64_t dst, uint64_t src, int value, uint64_t count,
                      uint64_t stream);
    /* CDP1's cudaDeviceSynchronize: run every grid the block launched so far to
     * completion. fault->kind is EXEC_OK, or the fault of a grid that failed (the whole
     * launch then fails with it). */
    int (*synchronize)(void *ctx, exec_fault *fault);
    int (*get_limit)(void *ctx, int limit, uint64_t *value);
    int (*get_attribute)(void *ctx, int attr, int device, int *value);
    /* CUDA's name (or description) of an error code; never NULL */
    const char *(*error_text)(void *ctx, int code, bool description);
    /* From byte offset on, the block's printf output was printed by warps that had made
     * epoch device launches (the grid runner orders output by it; called on changes). */
    void (*output_epoch)(void *ctx, size_t offset, uint32_t epoch);
    /* cudaGraphLaunch from device code: the executable graph exec into one of the device
     * graph streams. A fault the GPU gives for it (a graph not instantiated for device
     * launch) comes back in fault. */
    int (*graph_launch)(void *ctx, uint64_t exec, uint64_t stream, exec_fault *fault);
} exec_devrt_ops;

#endif
