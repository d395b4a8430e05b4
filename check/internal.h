/* check/internal.h — what the files of the checker share: the process state, one
 * launch's state, the per-worker state the observer's callbacks work on, reports, and
 * the allocation registry.
 *
 * Threads: the observer's callbacks run on the executor's worker threads, each with its
 * own check_worker (no locks on the hot path). Reports made there are kept in the worker
 * and gathered by check_launch_end, which sorts them by (block, order within the block)
 * so the output does not depend on which worker ran which block. API calls and launch
 * ends print under st->lock.
 */
#ifndef VCUDA_CHECK_INTERNAL_H
#define VCUDA_CHECK_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "check.h"
#include "../exec/observe.h"
#include "../ptx/demangle.h"

#define CHECK_PREFIX "========= "
#define CHECK_DEFAULT_PRINT_LIMIT 100u
#define CHECK_FREED_MAX 4096u    /* frees remembered to recognise use after free */
#define CHECK_NUM_BARRIERS 16u   /* named barriers of a block (bar ids 0..15) */

/* ---- the allocation registry (alloc.c) ---- */

typedef struct check_alloc {
    uint64_t base, size;
    uint32_t kind, flags;
    uint64_t serial;             /* allocation order, for the leak report */
    uint8_t *init;               /* initcheck: one byte per byte, non-zero once written;
                                  * NULL when not tracked */
    char api[32];
    char *site;                  /* leak checking: the program's frames at the allocation */
} check_alloc;

typedef struct check_freed {
    uint64_t base, size;
    bool device_heap;
} check_freed;

/* ---- process state (state.c) ---- */

struct check_state {
    check_tool tool;
    bool leak_check;
    unsigned long print_limit;   /* 0: no limit */
    FILE *out;
    bool out_owned;
    char *status_path;
    pthread_mutex_t lock;        /* output, counters */
    uint64_t errors;             /* everything reported, printed or not */
    uint64_t printed;
    uint64_t race_errors, race_warnings;
    uint64_t leaked_bytes, leaked_allocs;
    bool finished;

    pthread_rwlock_t alloc_lock; /* the registry below */
    check_alloc *allocs;         /* sorted by base */
    size_t nallocs, allocs_cap;
    uint64_t next_serial;
    check_freed freed[CHECK_FREED_MAX]; /* ring of the latest frees */
    uint64_t nfreed;
    uint64_t alloc_gen;          /* bumped on every change (atomic): invalidates caches */
};

/* A checker writing to out (not closed by check_state_free unless owned), for the
 * environment's configuration (state.c) and for tests. */
check_state *check_state_new(check_tool tool, bool leak_check, unsigned long print_limit,
                             FILE *out);
void check_state_free(check_state *st);

/* Print one report (lines already prefixed), counting it as an error; beyond the print
 * limit it is only counted. Takes st->lock. */
void check_emit(check_state *st, const char *text);
/* Count an error that is not printed. */
void check_count(check_state *st, uint64_t n);

/* ---- text (report.c) ---- */

typedef struct check_buf {
    char *p;
    size_t len, cap;
} check_buf;

void check_buf_printf(check_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One report line: the prefix, then the text, then a newline. */
void check_line(check_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check_buf_free(check_buf *b);
/* 1234567 -> "1,234,567" (compute-sanitizer's spelling of sizes). */
const char *check_commas(uint64_t v, char buf[32]);

/* ---- one launch (launch.c) ---- */

typedef struct check_report {
    uint64_t key;                /* block linear index << 32 | order within the block */
    char *text;
} check_report;

/* Hazards between two instructions, summed over the launch (racecheck analysis). */
typedef struct check_hazard {
    const ptx_insn *first, *second; /* the write (or the earlier write), the other access */
    uint8_t first_access, second_access; /* EXEC_OBS_LOAD / STORE */
    uint8_t warp_level;          /* between lanes of one warp */
    uint8_t global;              /* in global memory (else shared) */
    uint64_t count;              /* bytes with a hazard */
    uint64_t first_key;          /* where it was first seen (orders the reports) */
    uint32_t tid_a, tid_b;       /* one pair of threads involved (block-linear) */
    exec_dim3 ctaid;             /* their block */
} check_hazard;

typedef struct check_worker check_worker;

/* A global allocation an instruction hit: [lo, hi) as of allocation generation gen. */
typedef struct check_range {
    uint64_t lo, hi, gen;
    bool readonly;               /* constant memory: good for reads only */
} check_range;
#define CHECK_RANGE_CACHE 64u

struct check_launch {
    check_state *st;
    exec_launch *L;
    exec_observer obs;
    const ptx_module *module;
    char kernel[512];            /* demangled */
    char launch_site[1024];      /* the program's frames that launched it, one per line
                                  * (check_host_site; "" unknown) */
    bool its;                    /* independent thread scheduling (sm_70+) */
    uint32_t shared_size;        /* end of a block's shared window (reserved bytes, then the
                                  * user's) */
    uint32_t shared_reserved;    /* the device's reserved bytes at the window's start */
    uint32_t local_size;         /* bytes of local memory per thread */
    uint32_t nthreads;           /* per block */
    pthread_mutex_t lock;        /* workers list, gathered results */
    check_worker *workers;
    volatile int mem_error;      /* memcheck found an invalid access: the launch fails */
    check_report *reports;
    size_t nreports, reports_cap;
    uint64_t unkept;             /* reports counted but not kept (print limit) */
    check_hazard *hazards;
    size_t nhazards, hazards_cap;
};

/* ---- per worker thread ---- */

typedef struct rc_access rc_access;
typedef struct rc_word rc_word;
typedef struct rc_chunk rc_chunk;

struct check_worker {
    check_launch *cl;
    check_worker *next;
    bool gathered;

    /* the block being run */
    exec_dim3 ctaid;
    uint64_t block_linear;
    uint32_t order;              /* reports made in this block so far */
    uint32_t nwarps;
    uint32_t block_gen;          /* changes with every block: shadow entries of other
                                  * blocks are stale */
    uint32_t *epoch;             /* per warp: barriers waited at (bar.sync, bar.red) */
    uint32_t *bepoch;            /* per warp: barriers of the whole block waited at (no
                                  * thread count: __syncthreads()) */
    uint32_t *clock;             /* per warp: barrier arrivals + 1 (racecheck's time) */
    uint32_t *vc;                /* [warp * nwarps + other]: other's latest clock whose
                                  * accesses are ordered before warp's current point */
    uint32_t *bar_join;          /* [id * nwarps + warp]: the clocks joined by the arrivals
                                  * at barrier id since its last completion */
    uint64_t bar_waiters[CHECK_NUM_BARRIERS]; /* per id: warps that wait for its completion */
    const ptx_insn **last_bar;   /* per warp: the last block barrier it reached */
    uint32_t *wsync;             /* per warp: __syncwarp()s executed */
    uint32_t *issue;             /* per warp: memory instructions issued */
    uint32_t warps_cap;

    /* reports of this worker, in the order made */
    check_report *reports;
    size_t nreports, reports_cap;
    uint64_t unkept;
    unsigned long keep_limit;    /* 0: keep all */

    /* racecheck */
    rc_word *shared_shadow;
    size_t shared_cap;
    rc_chunk **chunk_table;      /* open addressing by chunk address */
    size_t chunk_table_cap, nchunks_used;
    rc_chunk *chunk_pool;        /* chunks to reuse */
    check_hazard *hazards;
    size_t nhazards, hazards_cap;

    /* initcheck: the allocation last hit */
    uint64_t cache_lo, cache_hi, cache_gen;
    uint8_t *cache_init;         /* its shadow */
    /* memcheck: the allocation each instruction last hit (direct-mapped by instruction),
     * so that a kernel reading several arrays stays on the fast path */
    check_range ranges[CHECK_RANGE_CACHE];
};

/* Add a report made on worker w in its current block (takes ownership of text). */
void check_worker_report(check_worker *w, char *text);
/* Thread (x,y,z) of block-linear thread t. */
exec_dim3 check_thread_index(const check_launch *cl, uint32_t t);
/* The first lines every kernel report shares: "<what>", "at <function> in <file>:<line>",
 * "by thread (x,y,z) in block (x,y,z)". */
void check_report_head(check_buf *b, const check_launch *cl, const exec_site *s,
                       uint32_t lane, const char *what_fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* compute-sanitizer's closing lines of a kernel report: where the program launched it. */
void check_report_launch_site(check_buf *b, const check_launch *cl);
/* "<function> in <file>:<line> (PTX line N)" for an instruction of the launch's module. */
void check_where(char *out, size_t n, const check_launch *cl, const ptx_insn *insn);

/* ---- the tools' callbacks (memcheck.c, racecheck.c, synccheck.c, initcheck.c) ---- */

void check_memcheck_mem(check_worker *w, const exec_site *s, ptx_space space,
                        exec_mem_access access, const uint64_t addr[32], uint32_t mask,
                        uint32_t size);
void check_racecheck_mem(check_worker *w, const exec_site *s, ptx_space space,
                         exec_mem_access access, const uint64_t addr[32], uint32_t mask,
                         uint32_t size);
void check_racecheck_block_begin(check_worker *w);
/* synccheck at a block's end: warps that passed different numbers of block barriers. */
void check_synccheck_block_end(check_worker *w, const exec_site *s);
void check_racecheck_free(check_worker *w);
/* racecheck's barrier model: warp s->warp arrived at barrier id (waits: bar.sync/bar.red,
 * not bar.arrive); barrier id completed. */
void check_racecheck_arrive(check_worker *w, uint32_t warp, uint32_t id, bool waits);
void check_racecheck_complete(check_worker *w, uint32_t id);
void check_synccheck_barrier(check_worker *w, const exec_site *s, uint32_t arrived,
                             uint32_t expected);
void check_synccheck_warp_sync(check_worker *w, const exec_site *s, uint32_t membermask,
                               uint32_t active);
void check_initcheck_mem(check_worker *w, const exec_site *s, ptx_space space,
                         exec_mem_access access, const uint64_t addr[32], uint32_t mask,
                         uint32_t size);
void check_memcheck_heap(const exec_site *s, exec_heap_op op, uint32_t lane, uint64_t ptr,
                         uint64_t size);
/* Add n bytes of hazard between two accesses to the worker's sums. */
void check_hazard_add(check_worker *w, const check_hazard *h);

/* ---- host code (symtab.c) ---- */

/* The (demangled) name of the function of module_path (loaded at load_base; NULL or ""
 * for the program itself) that contains pc; false when its symbol table does not say. */
bool check_host_symbol(const char *module_path, uintptr_t load_base, uintptr_t pc, char *out,
                       size_t n);

/* "Host Frame: ..." report lines for the frames of a check_host_site() text (api.c). */
void check_host_frame_lines(check_buf *b, const char *frames);

/* ---- allocation registry (alloc.c) ---- */

/* The reason a free was refused, for the API error being reported on this thread
 * ("" when none); cleared. */
void check_take_api_detail(char *out, size_t n);

/* The live allocation containing addr (copied to *out, init pointer included); false
 * when none does. Takes the registry's read lock. */
bool check_alloc_find(check_state *st, uint64_t addr, check_alloc *out);
/* The most recent freed block containing addr; false when none. */
bool check_freed_find(check_state *st, uint64_t addr, check_freed *out);
static inline uint64_t check_alloc_generation(check_state *st) {
    return __atomic_load_n(&st->alloc_gen, __ATOMIC_ACQUIRE);
}

#endif
