/* jit/jit.c — compile jobs: generate a program's C (jit/emit.c), build or find it
 * (jit/build.c), look up each function's code and install it in the program
 * (exec/native.h), now or on a background thread.
 */
#include "internal.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jit_job {
    exec_program *p;
    pthread_t thread;
    bool has_thread;
    jit_cancel cancel;     /* its mutex also guards state and why */
    int state;             /* JOB_* */
    char why[400];
    jit_build build;
    jit_emit_stats stats;
};

enum { JOB_RUNNING, JOB_DONE, JOB_FAILED };

jit_mode jit_mode_from_env(void) {
    const char *v = getenv("VCUDA_JIT");
    if (!v || !*v || !strcmp(v, "1")) return JIT_TIERED;
    if (!strcmp(v, "0")) return JIT_OFF;
    if (!strcmp(v, "always")) return JIT_ALWAYS;
    fprintf(stderr, "vcuda: VCUDA_JIT=%s is not one of 0, 1, always: using 1\n", v);
    return JIT_TIERED;
}

/* The C compiler's time grows fast with the size of the code at -O2: large programs are
 * built at -O1 (VCUDA_JIT_OPT=1 or 2 decides instead). */
#define JIT_O2_MAX_INSNS 600u
static const char *opt_level(const jit_emit_stats *st) {
    const char *v = getenv("VCUDA_JIT_OPT");
    if (v && !strcmp(v, "1")) return "-O1";
    if (v && !strcmp(v, "2")) return "-O2";
    return st->insns <= JIT_O2_MAX_INSNS ? "-O2" : "-O1";
}

static bool compile_and_install(jit_job *j, char *err, size_t errlen) {
    jit_buf src = {0};
    jit_emit_program(j->p, &src, &j->stats);
    bool ok = jit_build_load(src.s, src.len, opt_level(&j->stats), &j->build, &j->cancel,
                             err, errlen);
    jit_buf_free(&src);
    if (!ok) return false;
    uint32_t nf = exec_program_nfuncs(j->p);
    exec_native_fn *fns = calloc(nf + 1, sizeof *fns);
    if (!fns) abort();
    for (uint32_t i = 0; i < nf; i++) {
        const exec_func *f = exec_program_func(j->p, i);
        if (!f->code) continue;
        char name[32];
        snprintf(name, sizeof name, "vj_f%u", i);
        void *sym = dlsym(j->build.handle, name);
        if (!sym) {
            snprintf(err, errlen, "compiled code lacks %s (function %s)", name, f->pf->name);
            free(fns);
            return false;
        }
        memcpy(&fns[i], &sym, sizeof sym); /* object to function pointer, as POSIX allows */
    }
    exec_program_set_native(j->p, fns);
    free(fns);
    return true;
}

static void finish(jit_job *j, bool ok, const char *err) {
    pthread_mutex_lock(&j->cancel.mu);
    j->state = ok ? JOB_DONE : JOB_FAILED;
    if (!ok) snprintf(j->why, sizeof j->why, "%s", err);
    pthread_mutex_unlock(&j->cancel.mu);
}

static void *job_thread(void *arg) {
    jit_job *j = arg;
    char err[400] = "";
    finish(j, compile_and_install(j, err, sizeof err), err);
    return NULL;
}

jit_job *jit_program_start(exec_program *p, jit_mode mode, char *err, size_t errlen) {
    if (mode == JIT_OFF) return NULL;
    jit_job *j = calloc(1, sizeof *j);
    if (!j) abort();
    j->p = p;
    pthread_mutex_init(&j->cancel.mu, NULL);
    if (mode == JIT_ALWAYS) {
        char why[400] = "";
        bool ok = compile_and_install(j, why, sizeof why);
        if (!ok) {
            snprintf(err, errlen, "cannot compile the device code (VCUDA_JIT=always): %s", why);
            jit_job_free(j);
            return NULL;
        }
        finish(j, true, "");
        return j;
    }
    j->state = JOB_RUNNING;
    if (pthread_create(&j->thread, NULL, job_thread, j) != 0) {
        finish(j, false, "cannot start a compile thread");
        return j;
    }
    j->has_thread = true;
    return j;
}

void jit_job_free(jit_job *j) {
    if (!j) return;
    pthread_mutex_lock(&j->cancel.mu);
    j->cancel.cancelled = true;
    if (j->cancel.pid > 0) kill(j->cancel.pid, SIGKILL); /* our own compiler child */
    pthread_mutex_unlock(&j->cancel.mu);
    if (j->has_thread) pthread_join(j->thread, NULL);
    if (j->build.handle) dlclose(j->build.handle);
    pthread_mutex_destroy(&j->cancel.mu);
    free(j);
}

void jit_job_describe(jit_job *j, char *buf, size_t n) {
    pthread_mutex_lock(&j->cancel.mu);
    switch (j->state) {
    case JOB_RUNNING: snprintf(buf, n, "still compiling"); break;
    case JOB_FAILED: snprintf(buf, n, "compile failed: %s", j->why); break;
    default:
        if (j->build.from_cache)
            snprintf(buf, n, "compiled code found in the cache (%u of %u instructions inline)",
                     j->stats.inline_insns, j->stats.insns);
        else
            snprintf(buf, n, "compiled in %.2f s (%u of %u instructions inline)",
                     j->build.compile_seconds, j->stats.inline_insns, j->stats.insns);
        break;
    }
    pthread_mutex_unlock(&j->cancel.mu);
}
