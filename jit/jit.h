/* jit/jit.h — the compiled tier as the runtime sees it: which mode the environment asks
 * for (VCUDA_JIT), and a compile job per loaded program that installs native code in it
 * (exec/native.h), function by function, as launches need them: before a kernel's first
 * launch (VCUDA_JIT=always) or in the background while its first launches run
 * interpreted (VCUDA_JIT=1, the default).
 */
#ifndef VCUDA_JIT_JIT_H
#define VCUDA_JIT_JIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "../exec/exec.h"

/* Part of the cache key: bump when the generated code's meaning changes in a way its
 * text does not show. */
#define JIT_VERSION "2"

typedef enum jit_mode {
    JIT_OFF,     /* VCUDA_JIT=0: interpreter only */
    JIT_TIERED,  /* VCUDA_JIT=1 (default): compile in the background, switch when ready */
    JIT_ALWAYS   /* VCUDA_JIT=always: compile each kernel before its first launch, or fail
                  * that launch */
} jit_mode;

/* The mode VCUDA_JIT asks for (an unknown value says so on stderr and means the default). */
jit_mode jit_mode_from_env(void);

/* The most compilers a job runs at once. */
#define JIT_MAX_WORKERS 16

/* Lets another thread stop a job's compilations (its compilers' process ids while they
 * run); background: the compilers run at the lowest priority (nice 19), for a job whose
 * kernels run interpreted meanwhile (VCUDA_JIT=1), for their first 8 seconds; then at the
 * program's (jit/build.c: wait_low). */
typedef struct jit_cancel {
    pthread_mutex_t mu;
    pid_t pids[JIT_MAX_WORKERS];
    bool cancelled;
    bool background;
} jit_cancel;

typedef struct jit_job jit_job;

/* A compile job for program p in the given mode (JIT_OFF: returns NULL) that builds
 * nothing yet: each function with code is a compile unit of its own (its own cache entry,
 * optimisation level and vector tier decision, by its own size), generated and built only
 * once a launch needs it (jit_kernel_request), by a pool of compilers (as many at a time
 * as the host has cores, or $VCUDA_JIT_JOBS), and installed in p as soon as it is loaded.
 * A program of many kernels (a library's template instances) of which a run launches a
 * few then costs the compiler those few. */
jit_job *jit_program_open(exec_program *p, jit_mode mode);
/* Before a launch of kernel k (j NULL: nothing to do): request the units of k and of every
 * function it may run (its callees, and what it takes the address of: a kernel it launches
 * from the device), the first request of a kernel queued after those of the kernels
 * launched before it. JIT_ALWAYS builds them now, on this thread and the pool's, and
 * installs them before returning; when one does not build it returns false with
 * "cannot compile kernel K (VCUDA_JIT=always): function F: <the compiler's words>" in err
 * (asked again, it says so again). JIT_TIERED installs what the cache holds and returns;
 * the pool builds and installs the rest in the background, so the kernel runs compiled
 * from the first block that starts after its unit landed. It never runs the compiler on
 * the caller's thread: before the compiler's identity (part of every cache key) is known
 * in the process, the pool looks in the cache too, first, and the launches meanwhile run
 * interpreted. Cheap once a kernel was requested. */
bool jit_kernel_request(jit_job *j, const exec_kernel *k, char *err, size_t errlen);
/* jit_program_open, then every unit requested at once (what the tests and benchmarks of
 * a whole program use). JIT_ALWAYS: NULL, with the reasons naming the functions in err,
 * when a unit does not build. */
jit_job *jit_program_start(exec_program *p, jit_mode mode, char *err, size_t errlen);
/* Stop (killing the compilers that run) and wait for the job; before the program goes. */
void jit_job_free(jit_job *j);
/* Where the job stands, for reports: "16 units: 16 found in the cache, 0 compiled; ...",
 * "still compiling: 3 of 16 units ready", and what it took. */
void jit_job_describe(jit_job *j, char *buf, size_t n);

/* The job's units so far. */
typedef struct jit_job_counts {
    uint32_t units;      /* compile units (functions with code) */
    uint32_t cached;     /* found in the cache */
    uint32_t compiled;   /* built by the compiler */
    uint32_t failed;     /* did not build (their functions stay interpreted) */
    uint32_t interpreted; /* not built: the interpreter runs them faster than their code
                           * would (jit_worth_building) */
    uint32_t idle;       /* not requested: no launch has needed them yet */
    uint32_t vector;     /* kernels in the vector tier, of those installed */
    uint32_t kernels;
} jit_job_counts;
/* The optimisation level a function of insns lowered instructions gets as per-warp code
 * (VCUDA_JIT_OPT aside): -O2 for small ones, -O1, -O0 for the largest, so that no unit
 * costs the compiler more than a few seconds. */
int jit_warp_opt_for(uint32_t insns);
/* Whether a function's code is worth building in mode: its code in the vector tier
 * (vector), else per-warp code at -O opt (forced: the level VCUDA_JIT_OPT chose). False
 * where the interpreter runs it faster and nothing waits for the code (jit/jit.c says
 * what was measured). */
bool jit_worth_building(jit_mode mode, bool vector, int opt, bool forced);

/* Wait until the job has looked for each unit in the cache (at once unless its threads
 * do that, jit_program_start): a report at exit then says what the cache held, not how
 * far the lookups had come when the program ended. Never waits for a build. */
void jit_job_await_lookups(jit_job *j);
/* Whether this process has asked the compiler its identity (jit/build.c: a run of the
 * compiler, which JIT_TIERED leaves to its threads). */
bool jit_compiler_known(void);
/* For tests: while held, the threads of jobs started since wait before their first step
 * (so a launch meets a job that has done nothing yet, whatever the machine's speed). */
void jit_hold_workers(bool hold);

/* The counts now; true when no unit is left to build. */
bool jit_job_counts_get(jit_job *j, jit_job_counts *c);

#endif
