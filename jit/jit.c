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
    jit_buf src;           /* the generated C until it is built */
    int opt;               /* optimisation level it is built at */
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

/* The C compiler's time grows with the size of the code, steeply at -O2: small programs
 * are built at -O2 (lane loops inlined and vectorised) when the vector tier is off, else
 * at -O1, the largest at -O0 (VCUDA_JIT_OPT=0, 1 or 2 decides instead). */
#define JIT_O2_MAX_INSNS 1500u
#define JIT_O1_MAX_INSNS 4000u
static int opt_level(const exec_program *p) {
    const char *v = getenv("VCUDA_JIT_OPT");
    if (v && v[0] >= '0' && v[0] <= '2' && !v[1]) return v[0] - '0';
    uint32_t n = jit_program_insns(p);
    int opt = n <= JIT_O2_MAX_INSNS ? 2 : n <= JIT_O1_MAX_INSNS ? 1 : 0;
    /* the vector tier's code is explicit vector operations: -O1 keeps them in registers,
     * and -O2 would only multiply the compile time (several times, measured) */
    if (jit_vector_wanted(p) && opt > 1) opt = 1;
    return opt;
}

static void generate(jit_job *j) {
    j->opt = opt_level(j->p);
    jit_emit_program(j->p, j->opt, &j->src, &j->stats);
}

/* Build the generated C (or, cache_only, just look for it in the cache) and install it. */
static bool build_and_install(jit_job *j, bool cache_only, char *err, size_t errlen) {
    static const char *const flags[] = {"-O0", "-O1", "-O2"};
    if (!jit_build_load(j->src.s, j->src.len, flags[j->opt], cache_only, &j->build, &j->cancel,
                        err, errlen))
        return false;
    uint32_t nf = exec_program_nfuncs(j->p);
    exec_native_fn *fns = calloc(nf + 1, sizeof *fns);
    exec_native_block_fn *bfns = calloc(nf + 1, sizeof *bfns);
    if (!fns || !bfns) abort();
    for (uint32_t i = 0; i < nf; i++) {
        const exec_func *f = exec_program_func(j->p, i);
        if (!f->code) continue;
        char name[32];
        /* a kernel of the vector tier has only its whole-block code: a block it hands
         * back runs interpreted */
        snprintf(name, sizeof name, "vb_f%u", i);
        void *sym = dlsym(j->build.handle, name);
        if (sym) {
            memcpy(&bfns[i], &sym, sizeof sym); /* object to function pointer, as POSIX allows */
            continue;
        }
        snprintf(name, sizeof name, "vj_f%u", i);
        sym = dlsym(j->build.handle, name);
        if (!sym) {
            snprintf(err, errlen, "compiled code lacks %s (function %s)", name, f->pf->name);
            free(fns);
            free(bfns);
            return false;
        }
        memcpy(&fns[i], &sym, sizeof sym);
    }
    exec_program_set_block_native(j->p, bfns);
    exec_program_set_native(j->p, fns);
    free(fns);
    free(bfns);
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
    bool ok = build_and_install(j, false, err, sizeof err);
    jit_buf_free(&j->src);
    finish(j, ok, err);
    return NULL;
}

jit_job *jit_program_start(exec_program *p, jit_mode mode, char *err, size_t errlen) {
    if (mode == JIT_OFF) return NULL;
    jit_job *j = calloc(1, sizeof *j);
    if (!j) abort();
    j->p = p;
    pthread_mutex_init(&j->cancel.mu, NULL);
    generate(j);
    char why[400] = "";
    if (mode == JIT_ALWAYS) {
        bool ok = build_and_install(j, false, why, sizeof why);
        jit_buf_free(&j->src);
        if (!ok) {
            snprintf(err, errlen, "cannot compile the device code (VCUDA_JIT=always): %s", why);
            jit_job_free(j);
            return NULL;
        }
        finish(j, true, "");
        return j;
    }
    /* tiered: code found in the cache runs from the first launch on; else it is built on
     * a thread while the first launches run interpreted */
    if (build_and_install(j, true, why, sizeof why)) {
        jit_buf_free(&j->src);
        finish(j, true, "");
        return j;
    }
    j->state = JOB_RUNNING;
    if (pthread_create(&j->thread, NULL, job_thread, j) != 0) {
        jit_buf_free(&j->src);
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
    jit_kill_compiler(j->cancel.pid); /* our own compiler and its children */
    pthread_mutex_unlock(&j->cancel.mu);
    if (j->has_thread) pthread_join(j->thread, NULL);
    if (j->build.handle) dlclose(j->build.handle);
    jit_buf_free(&j->src);
    pthread_mutex_destroy(&j->cancel.mu);
    free(j);
}

void jit_job_describe(jit_job *j, char *buf, size_t n) {
    pthread_mutex_lock(&j->cancel.mu);
    switch (j->state) {
    case JOB_RUNNING: snprintf(buf, n, "still compiling"); break;
    case JOB_FAILED: snprintf(buf, n, "compile failed: %s", j->why); break;
    default: {
        char vec[240] = "";
        if (j->stats.kernels)
            snprintf(vec, sizeof vec, "; %u of %u kernels in the vector tier%s%s",
                     j->stats.vector_funcs, j->stats.kernels, j->stats.vector_why[0] ? ", not " : "",
                     j->stats.vector_why);
        if (j->build.from_cache)
            snprintf(buf, n, "compiled code found in the cache (%u of %u instructions inline%s)",
                     j->stats.inline_insns, j->stats.insns, vec);
        else
            snprintf(buf, n, "compiled in %.2f s (%u of %u instructions inline%s)",
                     j->build.compile_seconds, j->stats.inline_insns, j->stats.insns, vec);
        break;
    }
    }
    pthread_mutex_unlock(&j->cancel.mu);
}
