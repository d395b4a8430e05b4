/* runtime/progress.c — the progress line: on a terminal, a grid or a graph launch that has
 * run for more than 2 s shows one line on stderr (the kernel and its blocks done of the
 * total, or the graph's nodes done of the total; the time elapsed, an estimate of the time
 * to go), rewritten in place and erased when it ends. Nothing is shown when stderr is not a
 * terminal or VCUDA_PROGRESS=0; VCUDA_PROGRESS_DELAY=S shows it after S seconds instead.
 *
 * A grid registers when it starts (rt_progress_begin: the scheduler then counts its
 * blocks into the item as they end, gpu_grid_opts.blocks_done) and leaves when it ends.
 * A graph launch registers with the completion marks of its nodes (rt_progress_graph) and
 * leaves when all are done. One thread, started with the first item, looks every 100 ms
 * and shows the item that has run longest; when several run at once the line says how
 * many more there are. Lock order: the context's engine_lock, then rt_pg.lock.
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

struct rt_progress {
    const rt_func *func;          /* a grid's kernel, or NULL for a graph launch */
    rt_mark **marks;              /* a graph launch: its nodes' completions (engine_lock) */
    char *pretty;                 /* the kernel's demangled name, made when first shown */
    uint64_t total;
    uint64_t done;                /* blocks ended (the scheduler's atomic adds) */
    double start_ms;
    struct rt_progress *next;
};

static struct {
    pthread_once_t once;
    bool on;
    double delay_ms;
    pthread_mutex_t lock;         /* the fields below */
    rt_progress *items;           /* running grids and graphs, oldest last */
    bool shown;                   /* a line is on the terminal */
    bool started;                 /* the display thread runs */
    rt_context *graph_ctx;        /* the context of the graph launches shown, if any */
    unsigned graphs;              /* graph launches among the items (atomic reads) */
} rt_pg = {.once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER};

static void rt_progress_configure(void) {
    const char *v = getenv("VCUDA_PROGRESS");
    if ((v && strcmp(v, "0") == 0) || !isatty(STDERR_FILENO)) return;
    rt_pg.delay_ms = 2000;
    const char *d = getenv("VCUDA_PROGRESS_DELAY");
    if (d && *d) {
        char *end;
        double s = strtod(d, &end);
        if (!*end && s >= 0) rt_pg.delay_ms = s * 1e3;
    }
    rt_pg.on = true;
}

static void put(const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

static void erase(void) {
    if (!rt_pg.shown) return;
    put("\r\033[K", 4);
    rt_pg.shown = false;
}

static void fmt_seconds(char *buf, size_t n, double ms) {
    double s = ms / 1e3;
    if (s < 60) snprintf(buf, n, "%.1f s", s);
    else if (s < 3600) snprintf(buf, n, "%d min %02d s", (int)(s / 60), (int)s % 60);
    else snprintf(buf, n, "%d h %02d min", (int)(s / 3600), (int)(s / 60) % 60);
}

/* Show the longest-running grid past the delay, or erase the line (rt_pg.lock held). */
static void refresh(void) {
    double now = rt_now_ms();
    rt_progress *oldest = NULL;
    unsigned running = 0;
    for (rt_progress *p = rt_pg.items; p; p = p->next) {
        running++;
        if (!oldest || p->start_ms < oldest->start_ms) oldest = p;
    }
    if (!oldest || now - oldest->start_ms < rt_pg.delay_ms) {
        erase();
        return;
    }
    if (!oldest->pretty) {
        oldest->pretty = !oldest->func ? strdup("graph")
                                       : ptx_demangle(oldest->func->name, PTX_DEMANGLE_GNU);
        if (!oldest->pretty && oldest->func) oldest->pretty = strdup(oldest->func->name);
        if (!oldest->pretty) return;
    }
    uint64_t done = __atomic_load_n(&oldest->done, __ATOMIC_RELAXED);
    double elapsed = now - oldest->start_ms;
    char el[32], eta[48] = "estimating the time to go";
    fmt_seconds(el, sizeof el, elapsed);
    if (done > 0 && done < oldest->total) {
        char left[32];
        fmt_seconds(left, sizeof left, elapsed * (double)(oldest->total - done) / (double)done);
        snprintf(eta, sizeof eta, "about %s to go", left);
    } else if (done >= oldest->total) {
        snprintf(eta, sizeof eta, "finishing");
    }
    char more[48] = "";
    if (running > 1) snprintf(more, sizeof more, " (+%u more running)", running - 1);
    char line[512];
    int n = snprintf(line, sizeof line, "\rvcuda: %s: %llu/%llu %s, %s, %s%s", oldest->pretty,
                     (unsigned long long)done, (unsigned long long)oldest->total,
                     oldest->func ? "blocks" : "nodes", el, eta, more);
    if (n < 0) return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    /* one line: cut to the terminal's width (a long kernel name goes first) */
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 8 && len > ws.ws_col)
        len = ws.ws_col; /* the leading \r takes no column */
    put(line, len);
    put("\033[K", 3);
    rt_pg.shown = true;
}

/* Count the graph launches' finished nodes; drop the launches that are done (engine_lock
 * and rt_pg.lock held). */
static void update_graphs(rt_context *c) {
    for (rt_progress **q = &rt_pg.items; *q;) {
        rt_progress *p = *q;
        if (!p->marks) {
            q = &p->next;
            continue;
        }
        uint64_t done = 0;
        for (uint64_t k = 0; k < p->total; k++) done += p->marks[k]->done;
        p->done = done;
        if (done < p->total) {
            q = &p->next;
            continue;
        }
        *q = p->next;
        for (uint64_t k = 0; k < p->total; k++) rt_mark_unref(c, p->marks[k]);
        free(p->marks);
        free(p->pretty);
        free(p);
        rt_pg.graphs--;
    }
}

static void *rt_progress_main(void *arg) {
    (void)arg;
    const struct timespec tick = {0, 100 * 1000 * 1000};
    for (;;) {
        nanosleep(&tick, NULL);
        rt_context *c = __atomic_load_n(&rt_pg.graphs, __ATOMIC_ACQUIRE) ? rt_pg.graph_ctx : NULL;
        if (c) pthread_mutex_lock(&c->engine_lock);
        pthread_mutex_lock(&rt_pg.lock);
        if (c) update_graphs(c);
        refresh();
        pthread_mutex_unlock(&rt_pg.lock);
        if (c) pthread_mutex_unlock(&c->engine_lock);
    }
    return NULL;
}

static void start_thread(void) {
    if (rt_pg.started) return;
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    rt_pg.started = pthread_create(&t, &attr, rt_progress_main, NULL) == 0;
    pthread_attr_destroy(&attr);
}

void rt_progress_graph(rt_context *c, rt_mark *const *marks, size_t n) {
    pthread_once(&rt_pg.once, rt_progress_configure);
    if (!rt_pg.on || n == 0) return;
    rt_progress *p = calloc(1, sizeof *p);
    rt_mark **held = calloc(n, sizeof *held);
    if (!p || !held) {
        free(p);
        free(held);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        held[k] = marks[k];
        held[k]->refs++; /* engine_lock held: released in update_graphs */
    }
    p->marks = held;
    p->total = n;
    p->start_ms = rt_now_ms();
    pthread_mutex_lock(&rt_pg.lock);
    p->next = rt_pg.items;
    rt_pg.items = p;
    rt_pg.graph_ctx = c;
    __atomic_store_n(&rt_pg.graphs, rt_pg.graphs + 1, __ATOMIC_RELEASE);
    start_thread();
    pthread_mutex_unlock(&rt_pg.lock);
}

void rt_progress_settle(rt_context *c) {
    pthread_once(&rt_pg.once, rt_progress_configure);
    if (!rt_pg.on || !__atomic_load_n(&rt_pg.graphs, __ATOMIC_ACQUIRE)) return;
    pthread_mutex_lock(&c->engine_lock);
    pthread_mutex_lock(&rt_pg.lock);
    update_graphs(c);
    refresh();
    pthread_mutex_unlock(&rt_pg.lock);
    pthread_mutex_unlock(&c->engine_lock);
}

void rt_progress_exit(void) {
    pthread_once(&rt_pg.once, rt_progress_configure);
    if (!rt_pg.on) return;
    pthread_mutex_lock(&rt_pg.lock);
    erase();
    pthread_mutex_unlock(&rt_pg.lock);
}

rt_progress *rt_progress_begin(const rt_func *f, uint64_t blocks) {
    pthread_once(&rt_pg.once, rt_progress_configure);
    if (!rt_pg.on || blocks == 0) return NULL;
    rt_progress *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->func = f;
    p->total = blocks;
    p->start_ms = rt_now_ms();
    pthread_mutex_lock(&rt_pg.lock);
    p->next = rt_pg.items;
    rt_pg.items = p;
    start_thread();
    pthread_mutex_unlock(&rt_pg.lock);
    return p;
}

uint64_t *rt_progress_counter(rt_progress *p) { return p ? &p->done : NULL; }

void rt_progress_end(rt_progress *p) {
    if (!p) return;
    pthread_mutex_lock(&rt_pg.lock);
    for (rt_progress **q = &rt_pg.items; *q; q = &(*q)->next) {
        if (*q == p) {
            *q = p->next;
            break;
        }
    }
    /* the line goes with the grid, or shows the next one that has run long enough */
    refresh();
    pthread_mutex_unlock(&rt_pg.lock);
    free(p->pretty);
    free(p);
}
