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
    uint32_t dyn_shared_base;       /* offset of the dynamic (extern) shared memory: a block
                                     * has dyn_shared_base + dynamic bytes when a launch
                                     * asks for any, static_shared otherwise */
    uint32_t local_per_thread;      /* bytes of .local (stack frames included) */
    uint32_t regs_per_thread;       /* estimate from the PTX (ptxas may say otherwise) */
    uint32_t maxntid[3], reqntid[3], minnctapersm; /* 0 when absent */
    uint32_t ptx_version;           /* major*10 + minor */
    uint32_t target_sm;
} exec_kernel_info;

const exec_kernel_info *exec_kernel_get_info(const exec_kernel *k);

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
    EXEC_FAULT_ABORTED            /* stopped because another block faulted */
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

typedef struct exec_launch {
    const exec_kernel *kernel;
    exec_dim3 grid, block;
    uint32_t dyn_shared;            /* bytes of dynamic shared memory */
    const uint8_t *params;          /* param buffer laid out by exec_kernel_info */
    mem_table *mem;
    uint32_t num_sms;               /* for %nsmid */
    uint32_t clock_khz;             /* for %clock / %globaltimer pacing */
    uint64_t grid_id;               /* %gridid */
    volatile int *abort;            /* set non-zero to make running blocks stop early */
    const struct exec_observer *observer; /* profiler/checker watching this launch, or NULL
                                           * (exec/observe.h) */
    bool warps_outlive_fault;       /* a faulting warp stops alone: the block's other warps
                                     * run on until they exit or fault themselves, then the
                                     * block ends with its first fault (memcheck: on a GPU
                                     * every warp that reaches the bad access reports) */
} exec_launch;

/* mem_alloc.flags of allocations made by device-side malloc (MEM_KIND_DEVICE): they
 * belong to the device heap and are released with device-side free. */
#define EXEC_MEM_FLAG_DEVICE_HEAP 0x40000000u

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

#endif
