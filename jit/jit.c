/* jit/jit.c — compile jobs: a program's functions are compile units of their own, each
 * generated (jit/emit.c) at the optimisation level and in the tier its own size calls
 * for, built or found in the cache (jit/build.c) by a pool of compiler processes, and
 * installed in the program (exec/native.h) as soon as it is loaded. Nothing is generated
 * or built until a launch needs it (jit_kernel_request): the launched kernel's unit and
 * those of the functions it may run, before the launch runs (VCUDA_JIT=always) or in
 * the background (the default).
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

/* A unit is IDLE until a launch needs its function (jit_kernel_request), then GENERATING
 * while its requester writes its C, PENDING in the queue, BUILDING by a worker, and in the
 * end DONE (installed), FAILED, or INTERPRETED: not built, since its code would run slower
 * than the interpreter (jit_worth_building). */
enum { UNIT_IDLE, UNIT_GENERATING, UNIT_PENDING, UNIT_BUILDING, UNIT_DONE, UNIT_FAILED,
       UNIT_INTERPRETED };

/* One function's code: generated text, then a loaded shared object. */
typedef struct jit_unit {
    uint32_t func;         /* its index in the program */
    int opt;               /* optimisation level it is built at */
    double cost;           /* the compiler's expected time, to order the work */
    jit_buf src;           /* the generated C until it is built */
    jit_emit_stats stats;
    jit_build build;
    int state;             /* UNIT_*; the job's mutex guards it */
    bool looked;           /* looked for in the cache already (a build looks there first) */
    char why[300];         /* UNIT_FAILED: what the compiler or the loader said */
    bool interpret;        /* not worth building: it stays interpreted (jit_worth_building) */
} jit_unit;

struct jit_job {
    exec_program *p;
    jit_mode mode;
    jit_unit *units;
    uint32_t nunits;
    int32_t *unit_of;      /* per function of the program: its unit, or -1 (no code) */
    uint8_t *asked;        /* per function: 1 once a launch of it was requested, 2 once its
                            * units all landed (VCUDA_JIT=always: built, or the request
                            * failed and said so) */
    uint32_t nfuncs;
    /* the units requested, in the order the launches asked for them (each request's most
     * expensive first): the workers take the first one that waits */
    uint32_t *queue;
    uint32_t nqueue;
    pthread_mutex_t mu;    /* guards all but the program and the units' generation */
    pthread_cond_t work;   /* a unit was queued or became buildable, or the job stops */
    pthread_cond_t landed; /* a unit landed, or was looked for in the cache */
    uint32_t left;         /* requested units neither installed nor failed */
    uint32_t lookups_left; /* queued units not looked for in the cache yet */
    pthread_t threads[JIT_MAX_WORKERS];
    unsigned nthreads;     /* workers started (each waits for work until the job goes) */
    unsigned workers;      /* compilers at a time */
    jit_cancel cancel;
    /* the time the job had units to build: summed over the spells between a request that
     * queued some and the last of them landing */
    double t_busy, t_since;
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
    if (--j->left == 0) j->t_busy += now_seconds() - j->t_since;
    pthread_cond_broadcast(&j->landed);
}

/* The first unit of the queue a worker should take (the caller holds j->mu): one not
 * looked for in the cache yet (*lookup: only look), else one to build; NULL when none
 * waits. Lookups come first so that no unit the cache holds is built, and so that a
 * report at exit says what the cache held (jit_job_await_lookups). */
static jit_unit *take(jit_job *j, bool *lookup) {
    jit_unit *build = NULL;
    for (uint32_t k = 0; k < j->nqueue; k++) {
        jit_unit *u = &j->units[j->queue[k]];
        if (u->state != UNIT_PENDING) continue;
        if (!u->looked) {
            *lookup = true;
            u->state = UNIT_BUILDING;
            return u;
        }
        if (!build) build = u;
    }
    *lookup = false;
    if (build) build->state = UNIT_BUILDING;
    return build;
}

/* Look for unit u (taken by take) in the cache, or build it; then record how it went.
 * Called with j->mu held, which it lets go of meanwhile. */
static void run_unit(jit_job *j, jit_unit *u, bool lookup) {
    pthread_mutex_unlock(&j->mu);
    char why[300] = "";
    bool ok = !job_cancelled(j) && build_and_install(j, u, lookup, why, sizeof why);
    if (!ok && !lookup)
        jit_name_insn(exec_program_func(j->p, u->func), &u->src, why, sizeof why);
    if (ok || !lookup) jit_buf_free(&u->src);
    pthread_mutex_lock(&j->mu);
    if (lookup) {
        u->looked = true;
        if (--j->lookups_left == 0) pthread_cond_broadcast(&j->landed);
        u->state = ok ? UNIT_DONE : UNIT_PENDING;
        if (ok) unit_landed(j);
        else pthread_cond_broadcast(&j->work); /* (to be built now) */
        return;
    }
    if (!ok && !why[0]) snprintf(why, sizeof why, "stopped");
    u->state = ok ? UNIT_DONE : UNIT_FAILED;
    if (!ok) snprintf(u->why, sizeof u->why, "%s", why);
    unit_landed(j);
}

/* A worker of the pool: takes the first unit of the queue that waits, until the job
 * goes. */
static void *worker(void *arg) {
    jit_job *j = arg;
    pthread_mutex_lock(&hold_mu);
    while (held) pthread_cond_wait(&hold_cv, &hold_mu);
    pthread_mutex_unlock(&hold_mu);
    if (!job_cancelled(j)) ask_compiler();
    pthread_mutex_lock(&j->mu);
    while (!job_cancelled(j)) {
        bool lookup;
        jit_unit *u = take(j, &lookup);
        if (u) run_unit(j, u, lookup);
        else pthread_cond_wait(&j->work, &j->mu);
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
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

/* Start workers up to the pool's size (VCUDA_JIT=always: one fewer, since the thread that
 * waits for the code builds too), no more than units were queued. (j->mu held.) */
static void grow_pool(jit_job *j) {
    unsigned want = j->mode == JIT_ALWAYS ? j->workers - 1 : j->workers;
    if (want > j->nqueue) want = j->nqueue;
    while (j->nthreads < want &&
           pthread_create(&j->threads[j->nthreads], NULL, worker, j) == 0)
        j->nthreads++;
}

/* Request functions `want` (a flag per function) and wait, VCUDA_JIT=always, until each
 * landed: false with the reasons of those that did not build in err. */
static bool request(jit_job *j, const bool *want, char *err, size_t errlen) {
    uint32_t *mine = malloc((j->nunits + 1) * sizeof *mine);
    bool *fresh = calloc(j->nunits + 1, sizeof *fresh); /* (per entry of mine) */
    if (!mine || !fresh) abort();
    uint32_t nmine = 0, nnew = 0;
    if (j->mode == JIT_ALWAYS) ask_compiler(); /* (this thread builds too; once a process) */
    pthread_mutex_lock(&j->mu);
    for (uint32_t i = 0; i < j->nfuncs; i++) {
        if (!want[i] || j->unit_of[i] < 0) continue;
        jit_unit *u = &j->units[j->unit_of[i]];
        if (u->state == UNIT_IDLE) { /* ours to generate */
            u->state = UNIT_GENERATING;
            fresh[nmine] = true;
            nnew++;
        }
        mine[nmine++] = (uint32_t)j->unit_of[i];
    }
    pthread_mutex_unlock(&j->mu);
    /* the C of the units new to the job, on this thread; VCUDA_JIT=1 looks for them in
     * the cache here too when the compiler's identity is known (else the workers do, and
     * this thread, a launch's, never waits for the compiler) */
    bool look_here = j->mode == JIT_TIERED && jit_compiler_known();
    for (uint32_t k = 0; k < nmine; k++) {
        jit_unit *u = &j->units[mine[k]];
        if (!fresh[k]) continue;
        generate(j, u);
        u->looked = j->mode == JIT_ALWAYS; /* (a build looks in the cache first) */
        char why[300];
        if (!u->interpret && look_here) {
            u->looked = true;
            if (build_and_install(j, u, true, why, sizeof why)) jit_buf_free(&u->src);
        }
    }
    pthread_mutex_lock(&j->mu);
    /* queue them, most expensive first (the pool then ends soonest) */
    uint32_t first = j->nqueue;
    for (uint32_t k = 0; k < nmine && nnew; k++) {
        jit_unit *u = &j->units[mine[k]];
        if (!fresh[k]) continue;
        if (u->interpret) {
            u->state = UNIT_INTERPRETED;
            jit_buf_free(&u->src);
            continue;
        }
        if (j->left++ == 0) j->t_since = now_seconds();
        if (u->build.handle) { /* found in the cache */
            u->state = UNIT_DONE;
            unit_landed(j);
            continue;
        }
        u->state = UNIT_PENDING;
        if (!u->looked) j->lookups_left++;
        uint32_t b = j->nqueue++;
        j->queue[b] = mine[k];
        for (; b > first && j->units[j->queue[b]].cost > j->units[j->queue[b - 1]].cost; b--) {
            uint32_t t = j->queue[b];
            j->queue[b] = j->queue[b - 1];
            j->queue[b - 1] = t;
        }
    }
    if (j->nqueue > first) {
        grow_pool(j);
        pthread_cond_broadcast(&j->work);
    }
    if (nnew) pthread_cond_broadcast(&j->landed); /* (those left to the interpreter) */
    bool ok = true;
    if (j->mode == JIT_ALWAYS) {
        /* this thread builds too, until each of its units landed */
        for (uint32_t k = 0; k < nmine;) {
            int s = j->units[mine[k]].state;
            if (s == UNIT_DONE || s == UNIT_FAILED || s == UNIT_INTERPRETED) {
                k++;
                continue;
            }
            bool lookup;
            jit_unit *u = job_cancelled(j) ? NULL : take(j, &lookup);
            if (u) run_unit(j, u, lookup);
            else pthread_cond_wait(&j->landed, &j->mu);
        }
        size_t len = 0;
        for (uint32_t k = 0; k < nmine; k++) {
            const jit_unit *u = &j->units[mine[k]];
            if (u->state != UNIT_FAILED) continue;
            char name[300];
            unit_name(j, u, name, sizeof name);
            if (len < errlen)
                len += (size_t)snprintf(err + len, errlen - len, "%s%s: %s", ok ? "" : "; ",
                                        name, u->why);
            ok = false;
        }
    }
    pthread_mutex_unlock(&j->mu);
    free(mine);
    free(fresh);
    return ok;
}

jit_job *jit_program_open(exec_program *p, jit_mode mode) {
    if (mode == JIT_OFF) return NULL;
    jit_job *j = calloc(1, sizeof *j);
    if (!j) abort();
    j->p = p;
    j->mode = mode;
    pthread_mutex_init(&j->mu, NULL);
    pthread_mutex_init(&j->cancel.mu, NULL);
    pthread_cond_init(&j->work, NULL);
    pthread_cond_init(&j->landed, NULL);
    /* VCUDA_JIT=1: the launches do not wait for the code, whose compilers take only the
     * cores the program leaves idle */
    j->cancel.background = mode == JIT_TIERED;
    j->workers = pool_size();
    j->nfuncs = exec_program_nfuncs(p);
    j->units = calloc(j->nfuncs + 1, sizeof *j->units);
    j->queue = calloc(j->nfuncs + 1, sizeof *j->queue);
    j->unit_of = calloc(j->nfuncs + 1, sizeof *j->unit_of);
    j->asked = calloc(j->nfuncs + 1, 1);
    if (!j->units || !j->queue || !j->unit_of || !j->asked) abort();
    for (uint32_t i = 0; i < j->nfuncs; i++) {
        j->unit_of[i] = -1;
        if (!exec_program_func(p, i)->code || exec_program_func(p, i)->index != i) continue;
        j->unit_of[i] = (int32_t)j->nunits;
        j->units[j->nunits++].func = i;
    }
    return j;
}

bool jit_kernel_request(jit_job *j, const exec_kernel *k, char *err, size_t errlen) {
    if (!j) return true;
    uint32_t root = exec_program_func(j->p, k->func->index)->index;
    pthread_mutex_lock(&j->mu);
    uint8_t asked = j->asked[root];
    if (!asked) j->asked[root] = 1;
    pthread_mutex_unlock(&j->mu);
    /* (VCUDA_JIT=1 asks once; VCUDA_JIT=always until a request saw every unit land) */
    if (asked == 2 || (asked && j->mode == JIT_TIERED)) return true;
    bool *want = calloc(j->nfuncs + 1, sizeof *want);
    if (!want) abort();
    jit_reachable(j->p, root, want);
    char why[1024] = "";
    bool ok = request(j, want, why, sizeof why);
    free(want);
    pthread_mutex_lock(&j->mu);
    if (ok) j->asked[root] = 2;
    pthread_mutex_unlock(&j->mu);
    if (!ok)
        snprintf(err, errlen, "cannot compile kernel %s (VCUDA_JIT=always): %s",
                 k->func->pf->name, why);
    return ok;
}

jit_job *jit_program_start(exec_program *p, jit_mode mode, char *err, size_t errlen) {
    jit_job *j = jit_program_open(p, mode);
    if (!j) return NULL;
    bool *want = calloc(j->nfuncs + 1, sizeof *want);
    if (!want) abort();
    for (uint32_t i = 0; i < j->nfuncs; i++) want[i] = j->unit_of[i] >= 0;
    char why[1024] = "";
    bool ok = request(j, want, why, sizeof why);
    free(want);
    if (!ok) {
        jit_job_counts c;
        jit_job_counts_get(j, &c);
        snprintf(err, errlen, "cannot compile the device code (VCUDA_JIT=always): %u of %u "
                              "functions: %s", c.failed, j->nunits, why);
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
    pthread_mutex_lock(&j->mu);
    pthread_cond_broadcast(&j->work);
    pthread_mutex_unlock(&j->mu);
    for (unsigned k = 0; k < j->nthreads; k++) pthread_join(j->threads[k], NULL);
    for (uint32_t i = 0; i < j->nunits; i++) {
        if (j->units[i].build.handle) dlclose(j->units[i].build.handle);
        jit_buf_free(&j->units[i].src);
    }
    free(j->units);
    free(j->queue);
    free(j->unit_of);
    free(j->asked);
    pthread_mutex_destroy(&j->cancel.mu);
    pthread_cond_destroy(&j->work);
    pthread_cond_destroy(&j->landed);
    pthread_mutex_destroy(&j->mu);
    free(j);
}

void jit_job_await_lookups(jit_job *j) {
    pthread_mutex_lock(&j->mu);
    while (j->lookups_left && !job_cancelled(j)) pthread_cond_wait(&j->landed, &j->mu);
    pthread_mutex_unlock(&j->mu);
}

/* (the caller holds j->mu) */
static bool counts_locked(jit_job *j, jit_job_counts *c, jit_emit_stats *sum) {
    memset(c, 0, sizeof *c);
    if (sum) memset(sum, 0, sizeof *sum);
    c->units = j->nunits;
    for (uint32_t i = 0; i < j->nunits; i++) {
        const jit_unit *u = &j->units[i];
        if (u->state == UNIT_IDLE) c->idle++;
        if (u->state == UNIT_GENERATING) continue; /* (its requester writes its stats) */
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
    return c->cached + c->compiled + c->failed + c->interpreted + c->idle == c->units;
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
            j->lookups_left ? "looking in the cache" : "still compiling",
            c.cached + c.compiled, c.units - c.idle, c.cached, c.compiled);
    else
        PUT("%u units: %u found in the cache, %u compiled", c.units, c.cached, c.compiled);
    if (c.compiled) {
        double cpu = 0;
        for (uint32_t i = 0; i < j->nunits; i++)
            if (j->units[i].state == UNIT_DONE && !j->units[i].build.from_cache)
                cpu += j->units[i].build.cpu_seconds;
        if (done)
            PUT(" in %.2f s (%.2f s of compiler CPU time, %u at a time)", j->t_busy, cpu,
                j->workers);
        else
            PUT(" (%.2f s of compiler CPU time, %u at a time)", cpu, j->workers);
    }
    if (c.idle && done) /* (compiled when a launch first needs them) */
        PUT(", %u not needed by any launch yet", c.idle);
    if (c.interpreted) {
        /* (the first of them named: a program has few such functions) */
        PUT(", %u left to the interpreter", c.interpreted);
        for (uint32_t i = 0; i < j->nunits; i++)
            if (j->units[i].state == UNIT_INTERPRETED) {
                char name[300];
                unit_name(j, &j->units[i], name, sizeof name);
                /* (not named n: PUT's bound is the buffer's size n) */
                uint32_t insns = jit_func_insns(exec_program_func(j->p, j->units[i].func));
                PUT(" (%s: %u instructions, whose per-warp code at -O0 would run slower than "
                    "the interpreter)", name, insns);
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
        for (uint32_t i = 0; i < j->nunits; i++) /* (done: none is being generated) */
            if (j->units[i].stats.vector_why[0]) {
                PUT("%s%s", sep, j->units[i].stats.vector_why);
                sep = ", nor ";
            }
    }
#undef PUT
    pthread_mutex_unlock(&j->mu);
}
