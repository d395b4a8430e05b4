/* jit/jit.h — the compiled tier as the runtime sees it: which mode the environment asks
 * for (VCUDA_JIT), and a compile job per loaded program that installs native code in it
 * (exec/native.h) before its first launch (VCUDA_JIT=always) or in the background while
 * the first launches run interpreted (VCUDA_JIT=1, the default).
 */
#ifndef VCUDA_JIT_JIT_H
#define VCUDA_JIT_JIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "../exec/exec.h"

/* Part of the cache key: bump when the generated code's meaning changes in a way its
 * text does not show. */
#define JIT_VERSION "2"

typedef enum jit_mode {
    JIT_OFF,     /* VCUDA_JIT=0: interpreter only */
    JIT_TIERED,  /* VCUDA_JIT=1 (default): compile in the background, switch when ready */
    JIT_ALWAYS   /* VCUDA_JIT=always: compile before the first launch, or fail the load */
} jit_mode;

/* The mode VCUDA_JIT asks for (an unknown value says so on stderr and means the default). */
jit_mode jit_mode_from_env(void);

/* Lets another thread stop a compilation (the compiler's process id while it runs). */
typedef struct jit_cancel {
    pthread_mutex_t mu;
    pid_t pid;
    bool cancelled;
} jit_cancel;

typedef struct jit_job jit_job;

/* Start compiling program p in the given mode (JIT_OFF: returns NULL). JIT_ALWAYS compiles
 * now and installs the code before returning; on failure it returns NULL with the reason
 * in err. JIT_TIERED returns at once; a thread compiles and installs. */
jit_job *jit_program_start(exec_program *p, jit_mode mode, char *err, size_t errlen);
/* Stop (killing the compiler if it runs) and wait for the job; before the program goes. */
void jit_job_free(jit_job *j);
/* Where the job stands, for reports: "compiled in 0.42 s", "found in the cache",
 * "still compiling", "compile failed: ...". */
void jit_job_describe(jit_job *j, char *buf, size_t n);

#endif
