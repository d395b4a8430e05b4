/* jit/jit.c — compile jobs: a program's functions are compile units of their own, each
 * generated (jit/emit.c) at the optimisation level and in the tier its own size calls
 * for, built or found in the cache (jit/build.c) by a pool of compiler processes, and
 * installed in the program (exec/native.h) as soon as it is loaded, before the first
 * launch or in the background.
 */
#include "internal.h"

#include <dlfcn.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* UNIT_INTERPRETED: not built, since its code would run slower than the interpreter
 * (tier_of) */
enum { UNIT_PENDING, UNIT_BUILDING, UNIT_DONE, UNIT_FAILED, UNIT_INTERPRETED };

/* One function's code: generated text, then a loaded shared object. */
typedef struct jit_unit {
    uint32_t func;         /* its index in the program */
    int opt;               /* optimisation level it is built at */
    double cost;           /* the compiler's expected time, to order the work */
    jit_buf src;           /* the generated C until it is built */
    jit_emit_stats stats;
    jit_build build;
    int state;             /* UNIT_*; the job's mutex guards it after generation */
    char why[300];         /* UNIT_FAILED: what the compiler or the loader said */
    bool interpret;        /* not worth building: it stays interpreted (jit_worth_building) */
} jit_unit;

struct jit_job {
    exec_program *p;
    jit_mode mode;
    jit_unit *units;
    uint32_t nunits;
    uint32_t *queue;       /* units to build, most expensive first */
    uint32_t nqueue;
    pthread_mutex_t mu;    /* guards next, left, t_done and the units' state */
    uint32_t next;         /* queue entries taken by a worker */
    uint32_t left;         /* units neither installed nor failed */
    /* the cache is looked in by the workers, before they build (the compiler's identity
     * was not known when the job started): entries taken, and lookups not finished */
    bool lookup_first;
    uint32_t lookup_next, lookups_left;
    pthread_cond_t looked;  /* lookups_left reached 0 */
    pthread_t threads[JIT_MAX_WORKERS];
    unsigned nthreads;     /* background workers started (joined when the job goes) */
    unsigned workers;      /* compilers at a time */
    jit_cancel cancel;
    double t_start, t_done; /* when building started and the last unit landed */
};

jit_mode jit_mode_from_env(void) {
    const char *v = getenv("VCUDA_JIT");
    if (!v || !*v || !strcmp(v, "1")) return JIT_TIERED;
    if (!strcmp(v, "0")) return JIT_OFF;
    if (!strcmp(v, "always")) return JIT_ALWAYS;
    fprintf(stderr, "vcuda: VCUDA_JIT=%s is not one of 0, 1, always: using 1\n", v);
    return JIT_TIERED;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The C compiler's time grows with the size of a function's code, steeply at -O2 (about
 * 12 ms of CPU per lowered instruction of per-warp code, against 0.6-1.3 ms at -O1 and
 * 0.3-0.9 ms at -O0, measured with gcc 12): small functions are built at -O2 (lane loops
 * inlined and vectorised), larger ones at -O1, the largest at -O0, so that no unit costs
 * the compiler more than a few seconds; the vector tier's kernels at -O1 (VCUDA_JIT_OPT=0,
 * 1 or 2 decides instead). Per-warp code at -O0 runs no faster than the interpreter (CUB's
 * onesweep radix-sort kernel, 663 PTX lines, just over 2,000 lowered instructions: 2.0 s at
 * -O0 against 1.6-1.8 s interpreted and 1.2-1.6 s at -O1 for 2^22 keys), so -O1 goes up to
 * 4,000 instructions. */
#define JIT_O2_MAX_INSNS 250u
#define JIT_O1_MAX_INSNS 4000u
static int opt_forced(void) {
    const char *v = getenv("VCUDA_JIT_OPT");
    return v && v[0] >= '0' && v[0] <= '2' && !v[1] ? v[0] - '0' : -1;
}

int jit_warp_opt_for(uint32_t insns) {
    return insns <= JIT_O2_MAX_INSNS ? 2 : insns <= JIT_O1_MAX_INSNS ? 1 : 0;
}

static int warp_opt(const exec_func *f) {
    int forced = opt_forced();
    return forced >= 0 ? forced : jit_warp_opt_for(jit_func_insns(f));
}

/* Which tier runs a function fastest, by what was measured (exec_bench, reduceInteger's
 * 12 reductions and matMult's 2 products with the -O level forced, CPU time, the better of
 * two rounds; bench/RESULTS.md "Which tier runs a kernel fastest"): the vector tier's code
 * first (2-8x faster than the interpreter), then per-warp code at -O2 (geometric mean
 * 0.76x the interpreter's time; the products excepted), then the interpreter; per-warp
 * code at -O1 took 1.18x the interpreter's time on these small kernels but ran faster on
 * CUB's onesweep kernel (2,000 instructions, the size -O1 is for: 1.2-1.6 s against
 * 1.6-1.8 s), and per-warp code at -O0 is last everywhere (1.3-2.7x, geometric mean 2.1x:
 * without the vectoriser it calls the instructions' handlers through a loop of its own,
 * and pays for that loop besides). So when the launches do not wait for the code
 * (VCUDA_JIT=1), a function whose code would be per-warp at -O0 stays interpreted and
 * costs no compiler time; VCUDA_JIT=always builds it all the same (that mode proves that
 * the compiler takes every function), and so does an -O level VCUDA_JIT_OPT forced. */
bool jit_worth_building(jit_mode mode, bool vector, int opt, bool opt_forced_by_env) {
    if (mode != JIT_TIERED || vector || opt_forced_by_env) return true;
    return opt > 0;
}

/* Generate unit u (function u->func). */
static void generate(jit_job *j, jit_unit *u) {
    const exec_func *f = exec_program_func(j->p, u->func);
    u->opt = warp_opt(f);
    jit_emit_unit(f, u->opt, &u->src, &u->stats);
    /* the vector tier's code is explicit vector operations: -O1 keeps them in registers,
     * and -O2 would only multiply the compile time (several times, measured) */
    if (u->stats.vector_funcs && u->opt > 1 && opt_forced() < 0) u->opt = 1;
    /* the compiler's CPU milliseconds per instruction, roughly (measured as above; the
     * vector tier's code at -O1: 15-17) */
    static const double per_insn[] = {0.6, 1.3, 12.0};
    u->cost = jit_func_insns(f) * (u->stats.vector_funcs ? 16.0 : per_insn[u->opt]);
    u->interpret = !jit_worth_building(j->mode, u->stats.vector_funcs > 0, u->opt,
                                       opt_forced() >= 0);
}

/* What a failure message calls unit u's function. */
static void unit_name(const jit_job *j, const jit_unit *u, char *buf, size_t n) {
    const exec_func *f = exec_program_func(j->p, u->func);
    snprintf(buf, n, "%s %s", f->pf->is_entry ? "kernel" : "function", f->pf->name);
}

/* Build unit u (or, cache_only, just look for it in the cache), look up its function and
 * install it in the program. The caller owns u (not shared yet, or UNIT_BUILDING). */
static bool build_and_install(jit_job *j, jit_unit *u, bool cache_only, char *err,
                              size_t errlen) {
    static const char *const flags[] = {"-O0", "-O1", "-O2"};
    if (!jit_build_load(u->src.s, u->src.len, flags[u->opt], cache_only, &u->build, &j->cancel,
                        err, errlen))
        return false;
    char name[32];
    /* a kernel of the vector tier has only its whole-block code: a block it hands back
     * runs interpreted */
    snprintf(name, sizeof name, "%s%u", u->stats.vector_funcs ? "vb_f" : "vj_f", u->func);
    void *sym = dlsym(u->build.handle, name);
    if (!sym) {
        snprintf(err, errlen, "compiled code lacks %s", name);
        dlclose(u->build.handle);
        u->build.handle = NULL;
        return false;
    }
    exec_native_fn fn = NULL;
    exec_native_block_fn bfn = NULL;
    if (u->stats.vector_funcs) memcpy(&bfn, &sym, sizeof sym); /* object to function pointer, */
    else memcpy(&fn, &sym, sizeof sym);                          /* as POSIX allows */
    /* an instrumented kernel of the vector tier has its per-warp code too (jit/emit.c) */
    if (u->stats.vector_funcs && exec_program_func(j->p, u->func)->instrumented) {
        snprintf(name, sizeof name, "vj_f%u", u->func);
        void *psym = dlsym(u->build.handle, name);
        if (!psym) {
            snprintf(err, errlen, "compiled code lacks %s", name);
            dlclose(u->build.handle);
            u->build.handle = NULL;
            return false;
        }
        memcpy(&fn, &psym, sizeof psym);
    }
    exec_program_install_native(j->p, u->func, fn, bfn);
    return true;
}

static bool job_cancelled(jit_job *j) {
    pthread_mutex_lock(&j->cancel.mu);
    bool c = j->cancel.cancelled;
    pthread_mutex_unlock(&j->cancel.mu);
    return c;
}

/* The compiler's identity, asked once per process (jit/build.c runs the compiler for
 * it): known from then on, so later jobs look in the cache on the caller's thread. */
static bool cc_known;

bool jit_compiler_known(void) { return __atomic_load_n(&cc_known, __ATOMIC_ACQUIRE); }

static void ask_compiler(void) {
    jit_cc_get();
    __atomic_store_n(&cc_known, true, __ATOMIC_RELEASE);
}

static pthread_mutex_t hold_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cv = PTHREAD_COND_INITIALIZER;
static bool held;

void jit_hold_workers(bool hold) {
    pthread_mutex_lock(&hold_mu);
    held = hold;
    pthread_cond_broadcast(&hold_cv);
    pthread_mutex_unlock(&hold_mu);
}

/* A unit found in the cache, or a build that ended: one unit fewer to wait for. (The
 * caller holds j->mu.) */
static void unit_landed(jit_job *j) {
    if (--j->left == 0) j->t_done = now_seconds();
}

/* The workers' first step when the job started before the compiler's identity was known:
 * look for every queued unit in the cache (each worker takes the next), and wait until
 * all have been looked for, so that no unit found there is built. */
static void look_in_cache(jit_job *j) {
    for (;;) {
        pthread_mutex_lock(&j->mu);
        if (j->lookup_next == j->nqueue) break;
        jit_unit *u = &j->units[j->queue[j->lookup_next++]];
        u->state = UNIT_BUILDING;
        pthread_mutex_unlock(&j->mu);
        char why[300];
        bool found = !job_cancelled(j) && build_and_install(j, u, true, why, sizeof why);
        if (found) jit_buf_free(&u->src);
        pthread_mutex_lock(&j->mu);
        u->state = found ? UNIT_DONE : UNIT_PENDING;
        if (found) unit_landed(j);
        if (--j->lookups_left == 0) pthread_cond_broadcast(&j->looked);
        pthread_mutex_unlock(&j->mu);
    }
    while (j->lookups_left) pthread_cond_wait(&j->looked, &j->mu);
    pthread_mutex_unlock(&j->mu);
}

/* A worker of the pool: takes the next unit of the queue until none is left. */
static void *worker(void *arg) {
    jit_job *j = arg;
    pthread_mutex_lock(&hold_mu);
    while (held) pthread_cond_wait(&hold_cv, &hold_mu);
    pthread_mutex_unlock(&hold_mu);
    if (!job_cancelled(j)) ask_compiler();
    if (j->lookup_first) look_in_cache(j);
    for (;;) {
        pthread_mutex_lock(&j->mu);
        while (j->next < j->nqueue && j->units[j->queue[j->next]].state != UNIT_PENDING)
            j->next++; /* (found in the cache) */
        if (j->next == j->nqueue) {
            pthread_mutex_unlock(&j->mu);
            return NULL;
        }
        jit_unit *u = &j->units[j->queue[j->next++]];
        u->state = UNIT_BUILDING;
        pthread_mutex_unlock(&j->mu);
        char err[300] = "";
        bool ok = !job_cancelled(j) && build_and_install(j, u, false, err, sizeof err);
        if (!ok && !err[0]) snprintf(err, sizeof err, "stopped");
        jit_buf_free(&u->src);
        pthread_mutex_lock(&j->mu);
        u->state = ok ? UNIT_DONE : UNIT_FAILED;
        if (!ok) snprintf(u->why, sizeof u->why, "%s", err);
        unit_landed(j);
        pthread_mutex_unlock(&j->mu);
    }
}

/* Host cores this process may run on: how many compilers to run at once (VCUDA_JIT_JOBS
 * decides instead). */
static unsigned pool_size(void) {
    const char *v = getenv("VCUDA_JIT_JOBS");
    long n = v && *v ? atol(v) : 0;
    if (n <= 0) {
        cpu_set_t set;
        n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                         : sysconf(_SC_NPROCESSORS_ONLN);
    }
    return n < 1 ? 1 : n > JIT_MAX_WORKERS ? JIT_MAX_WORKERS : (unsigned)n;
}

/* Queue the units not installed yet, most expensive first (the pool then ends soonest),
 * and start background workers for them (as many as there are cores and units; with
 * foreground, the calling thread is one of them and the others are joined on return). */
static void start_pool(jit_job *j, bool foreground) {
    j->nqueue = 0;
    for (uint32_t i = 0; i < j->nunits; i++)
        if (j->units[i].state == UNIT_PENDING) j->queue[j->nqueue++] = i;
    j->left = j->lookups_left = j->nqueue;
    for (uint32_t a = 1; a < j->nqueue; a++) /* (by insertion: programs have few functions) */
        for (uint32_t b = a; b > 0 && j->units[j->queue[b]].cost > j->units[j->queue[b - 1]].cost;
             b--) {
            uint32_t t = j->queue[b];
            j->queue[b] = j->queue[b - 1];
            j->queue[b - 1] = t;
        }
    j->workers = pool_size();
    if (j->workers > j->nqueue) j->workers = j->nqueue;
    j->t_start = now_seconds();
    if (!j->nqueue) {
        j->t_done = j->t_start;
        return;
    }
    unsigned background = foreground ? j->workers - 1 : j->workers;
    for (unsigned k = 0; k < background; k++) {
        if (pthread_create(&j->threads[j->nthreads], NULL, worker, j) != 0) break;
        j->nthreads++;
    }
    if (foreground || !j->nthreads) worker(j); /* (no thread: the work is done here) */
    if (foreground) {
        for (unsigned k = 0; k < j->nthreads; k++) pthread_join(j->threads[k], NULL);
        j->nthreads = 0;
    }
}

jit_job *jit_program_start(exec_program *p, jit_mode mode, char *err, size_t errlen) {
    if (mode == JIT_OFF) return NULL;
    jit_job *j = calloc(1, sizeof *j);
    if (!j) abort();
    j->p = p;
    j->mode = mode;
    pthread_mutex_init(&j->mu, NULL);
    pthread_mutex_init(&j->cancel.mu, NULL);
    pthread_cond_init(&j->looked, NULL);
    uint32_t nf = exec_program_nfuncs(p);
    j->units = calloc(nf + 1, sizeof *j->units);
    j->queue = calloc(nf + 1, sizeof *j->queue);
    if (!j->units || !j->queue) abort();
    for (uint32_t i = 0; i < nf; i++) {
        if (!exec_program_func(p, i)->code) continue;
        jit_unit *u = &j->units[j->nunits++];
        u->func = i;
        generate(j, u);
        if (u->interpret) {
            u->state = UNIT_INTERPRETED;
            jit_buf_free(&u->src);
        }
    }
    if (mode == JIT_TIERED) {
        j->cancel.background = true; /* (the launches do not wait for it) */
        /* code found in the cache runs from the first launch on; the rest is built in the
         * background while the first launches run interpreted. A cache key needs the
         * compiler's identity, which costs a run of the compiler (0.1-0.5 s, measured on
         * a loaded host) the first time a process asks: this thread (a launch's) never
         * waits for it, the workers ask it and look in the cache before they build */
        j->lookup_first = !jit_compiler_known();
        for (uint32_t i = 0; i < j->nunits && !j->lookup_first; i++) {
            jit_unit *u = &j->units[i];
            char why[300];
            if (u->state == UNIT_PENDING && build_and_install(j, u, true, why, sizeof why)) {
                u->state = UNIT_DONE;
                jit_buf_free(&u->src);
            }
        }
        start_pool(j, false);
        return j;
    }
    start_pool(j, true);
    /* VCUDA_JIT=always: every unit, or a load error naming those that did not build */
    size_t len = 0;
    uint32_t failed = 0;
    for (uint32_t i = 0; i < j->nunits; i++) {
        const jit_unit *u = &j->units[i];
        if (u->state != UNIT_FAILED) continue;
        char name[300];
        unit_name(j, u, name, sizeof name);
        if (len < errlen)
            len += (size_t)snprintf(err + len, errlen - len, "%s%s: %s", failed ? "; " : "",
                                    name, u->why);
        failed++;
    }
    if (failed) {
        char why[1024];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "cannot compile the device code (VCUDA_JIT=always): %u of %u "
                              "functions: %s", failed, j->nunits, why);
        jit_job_free(j);
        return NULL;
    }
    return j;
}

void jit_job_free(jit_job *j) {
    if (!j) return;
    pthread_mutex_lock(&j->cancel.mu);
    j->cancel.cancelled = true;
    for (int k = 0; k < JIT_MAX_WORKERS; k++)
        jit_kill_compiler(j->cancel.pids[k]); /* our own compilers and their children */
    pthread_mutex_unlock(&j->cancel.mu);
    for (unsigned k = 0; k < j->nthreads; k++) pthread_join(j->threads[k], NULL);
    for (uint32_t i = 0; i < j->nunits; i++) {
        if (j->units[i].build.handle) dlclose(j->units[i].build.handle);
        jit_buf_free(&j->units[i].src);
    }
    free(j->units);
    free(j->queue);
    pthread_mutex_destroy(&j->cancel.mu);
    pthread_cond_destroy(&j->looked);
    pthread_mutex_destroy(&j->mu);
    free(j);
}

void jit_job_await_lookups(jit_job *j) {
    pthread_mutex_lock(&j->mu);
    while (j->lookup_first && j->lookups_left) pthread_cond_wait(&j->looked, &j->mu);
    pthread_mutex_unlock(&j->mu);
}

/* (the caller holds j->mu) */
static bool counts_locked(jit_job *j, jit_job_counts *c, jit_emit_stats *sum) {
    memset(c, 0, sizeof *c);
    if (sum) memset(sum, 0, sizeof *sum);
    c->units = j->nunits;
    for (uint32_t i = 0; i < j->nunits; i++) {
        const jit_unit *u = &j->units[i];
        c->kernels += u->stats.kernels;
        if (u->state == UNIT_FAILED) c->failed++;
        if (u->state == UNIT_INTERPRETED) c->interpreted++;
        if (u->state != UNIT_DONE) continue;
        if (u->build.from_cache) c->cached++;
        else c->compiled++;
        c->vector += u->stats.vector_funcs;
        if (!sum) continue;
        sum->insns += u->stats.insns;
        sum->inline_insns += u->stats.inline_insns;
    }
    return c->cached + c->compiled + c->failed + c->interpreted == c->units;
}

bool jit_job_counts_get(jit_job *j, jit_job_counts *c) {
    pthread_mutex_lock(&j->mu);
    bool done = counts_locked(j, c, NULL);
    pthread_mutex_unlock(&j->mu);
    return done;
}

void jit_job_describe(jit_job *j, char *buf, size_t n) {
    pthread_mutex_lock(&j->mu);
    jit_job_counts c;
    jit_emit_stats sum;
    bool done = counts_locked(j, &c, &sum);
    size_t len = 0;
#define PUT(...)                                                                           \
    do {                                                                                   \
        if (len < n) len += (size_t)snprintf(buf + len, n - len, __VA_ARGS__);             \
    } while (0)
    if (!done)
        PUT("%s: %u of %u units ready (%u found in the cache, %u compiled)",
            j->lookup_first && j->lookups_left ? "looking in the cache" : "still compiling",
            c.cached + c.compiled, c.units, c.cached, c.compiled);
    else
        PUT("%u units: %u found in the cache, %u compiled", c.units, c.cached, c.compiled);
    if (c.compiled) {
        double cpu = 0;
        for (uint32_t i = 0; i < j->nunits; i++)
            if (j->units[i].state == UNIT_DONE && !j->units[i].build.from_cache)
                cpu += j->units[i].build.cpu_seconds;
        if (done)
            PUT(" in %.2f s (%.2f s of compiler CPU time, %u at a time)", j->t_done - j->t_start,
                cpu, j->workers);
        else
            PUT(" (%.2f s of compiler CPU time, %u at a time)", cpu, j->workers);
    }
    if (c.interpreted) {
        /* (the first of them named: a program has few such functions) */
        PUT(", %u left to the interpreter", c.interpreted);
        for (uint32_t i = 0; i < j->nunits; i++)
            if (j->units[i].state == UNIT_INTERPRETED) {
                char name[300];
                unit_name(j, &j->units[i], name, sizeof name);
                uint32_t n = jit_func_insns(exec_program_func(j->p, j->units[i].func));
                PUT(" (%s: %u instructions, whose per-warp code at -O0 would run slower than "
                    "the interpreter)", name, n);
                break;
            }
    }
    if (c.failed) {
        PUT(", %u failed", c.failed);
        for (uint32_t i = 0; i < j->nunits; i++)
            if (j->units[i].state == UNIT_FAILED) {
                char name[300];
                unit_name(j, &j->units[i], name, sizeof name);
                PUT(" (%s: %s)", name, j->units[i].why);
                break;
            }
    }
    if (c.compiled + c.cached)
        PUT("; %u of %u instructions inline", sum.inline_insns, sum.insns);
    if (c.kernels && done) {
        /* every kernel left out, each with its reason (the first alone hid a second one
         * running the slower per-warp code) */
        PUT("; %u of %u kernels in the vector tier", c.vector, c.kernels);
        const char *sep = ", not ";
        for (uint32_t i = 0; i < j->nunits; i++)
            if (j->units[i].stats.vector_why[0]) {
                PUT("%s%s", sep, j->units[i].stats.vector_why);
                sep = ", nor ";
            }
    }
#undef PUT
    pthread_mutex_unlock(&j->mu);
}
