/* runtime/engine.c — the device side of streams: work issued to a stream runs in issue
 * order on the device's engine threads while the host goes on, and streams run beside
 * each other as far as their dependencies allow.
 *
 * Operations. Every kernel, copy, set, event record, event wait and host function is an
 * rt_op queued on its stream. A stream starts its first queued operation once the one
 * before has completed and every operation of another stream it depends on has (an event
 * it waits for, or the legacy default stream's implicit synchronisation: an operation of
 * the legacy stream waits for all earlier work of the blocking streams, and an operation
 * of a blocking stream for all earlier work of the legacy stream). Event records and
 * waits complete as soon as they start; kernels, copies and sets go to the run queue,
 * where a pool of engine threads (one per operation running, made as needed) runs them,
 * kernels through the gpu layer's block scheduler so that grids of different streams
 * share the SMs; host functions and callbacks go to one host-function thread, in the
 * order they became ready, as CUDA's driver runs them.
 *
 * Marks. The completion of an operation others wait for is an rt_mark, shared by the
 * operations, events and host calls that wait for it.
 *
 * Release. What a grid leaves for the host — its device printf output and its fault — is
 * kept until the host synchronises with the grid: a call that waits for an operation
 * (stream, event or device synchronisation, a blocking copy, a query that reports
 * completion) releases that operation and everything it depended on, following the
 * dependency edges between streams. Released output is written in the order the grids
 * ended on the virtual timeline (then in issue order). So what a program prints depends
 * only on what it waited for, never on how fast the host's threads ran, and a device
 * fault is reported by the first call that waits for the faulting grid (or, once the
 * device has faulted, for any work the fault stopped).
 *
 * Virtual time. Each operation starts on the virtual timeline when its stream's previous
 * operation and its dependencies have ended, and no earlier than what the host had seen
 * the device reach when it issued it; it lasts what timeline.c says.
 *
 * Host functions run when a host thread waits in a synchronising call, or else
 * RT_HOST_GRACE_MS after they became ready. A GPU runs them soon but not at once; the
 * grace keeps a program that prints from a callback printing in the same place on every
 * run, and still lets a host that spins on a flag a callback sets go on. Queries give
 * unfinished work the same grace before they answer cudaErrorNotReady: vcuda runs device
 * code far slower than a GPU, and a query right after a short kernel should see it done,
 * as it would on the GPU.
 */
#include "rt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RT_MAX_WORKERS 160       /* operations running at once (a GPU runs 128 kernels) */
#define RT_HOST_GRACE_MS 100.0

static double dmax(double a, double b) { return a > b ? a : b; }

bool rt_in_host_fn(void) { return rt_thread_state()->in_host_fn; }

/* ---- operations and marks ---- */

rt_op *rt_op_new(rt_op_kind kind) {
    rt_op *op = calloc(1, sizeof *op);
    if (op) op->kind = kind;
    return op;
}

/* Memory only: references (deps, mark) are dropped by the engine before. */
void rt_op_free(rt_op *op) {
    if (!op) return;
    if (op->kind == RT_OP_KERNEL) {
        free(op->u.kernel.params);
        free(op->u.kernel.check_site);
    }
    if (op->kind == RT_OP_COPY) free(op->u.copy.staging);
    if (op->kind == RT_OP_GRAPH_TAILS) gpu_graph_env_free(op->u.tails.env); /* never run */
    free(op->deps);
    free(op);
}

static rt_mark *mark_new(rt_stream *s, uint64_t seq) {
    rt_mark *m = calloc(1, sizeof *m);
    if (!m) {
        fprintf(stderr, "vcuda: out of host memory in the stream engine\n");
        abort();
    }
    m->refs = 1;
    m->stream = s;
    m->seq = seq;
    s->refs++;
    return m;
}

static rt_mark *mark_ref(rt_mark *m) {
    m->refs++;
    return m;
}

void rt_stream_unref(rt_context *c, rt_stream *s) {
    if (--s->refs == 0 && s->destroyed) c->reap = true;
}

void rt_mark_unref(rt_context *c, rt_mark *m) {
    if (!m || --m->refs) return;
    rt_stream_unref(c, m->stream);
    free(m);
}

void rt_event_unref(rt_context *c, rt_event *ev) {
    if (--ev->refs) return;
    rt_ipc_event_free(ev);
    rt_mark_unref(c, ev->mark);
    free(ev->cap_nodes);
    free(ev);
}

bool rt_op_add_dep(rt_op *op, rt_mark *dep) {
    if (op->ndeps == op->deps_cap) {
        unsigned cap = op->deps_cap ? op->deps_cap * 2 : 4;
        rt_mark **n = realloc(op->deps, cap * sizeof *n);
        if (!n) return false;
        op->deps = n;
        op->deps_cap = cap;
    }
    op->deps[op->ndeps++] = mark_ref(dep);
    return true;
}

rt_mark *rt_stream_last_mark(rt_context *c, rt_stream *s) {
    (void)c;
    if (s->issued == 0) return NULL;
    rt_op *op = s->tail ? s->tail : s->running;
    if (op) {
        if (!op->mark) op->mark = mark_new(s, op->seq);
        return mark_ref(op->mark);
    }
    rt_mark *m = mark_new(s, s->issued); /* idle: its last operation has ended */
    m->done = true;
    m->dropped = s->last_dropped;
    m->vtime = s->vend;
    return m;
}

/* ---- streams ---- */

rt_stream *rt_stream_new(rt_context *c, int kind, unsigned flags, int priority) {
    rt_stream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->kind = kind;
    s->device = rt_cur(c)->ordinal;
    s->flags = flags;
    s->priority = priority;
    s->id = kind == RT_STREAM_USER ? c->next_stream_id++ : 0; /* 1, 2, ... as nvprof counts */
    s->all_next = c->all_streams;
    s->all_prev = &c->all_streams;
    if (c->all_streams) c->all_streams->all_prev = &s->all_next;
    c->all_streams = s;
    return s;
}

/* Streams that the legacy default stream synchronises with. */
static bool stream_blocking(const rt_stream *s) {
    return (s->kind == RT_STREAM_USER && !(s->flags & cudaStreamNonBlocking)) ||
           s->kind == RT_STREAM_PER_THREAD;
}

static void edges_drop(rt_context *c, rt_stream *s) {
    for (size_t i = s->edges_first; i < s->nedges; i++) rt_mark_unref(c, s->edges[i].dep);
    free(s->edges);
    s->edges = NULL;
    s->edges_first = s->nedges = s->edges_cap = 0;
}

/* Free the destroyed streams nothing refers to any more. */
void rt_reap(rt_context *c) {
    while (c->reap) {
        c->reap = false;
        for (rt_stream *s = c->all_streams, *next; s; s = next) {
            next = s->all_next;
            if (!s->destroyed || s->refs || s->head || s->running || s->capture) continue;
            *s->all_prev = s->all_next;
            if (s->all_next) s->all_next->all_prev = s->all_prev;
            edges_drop(c, s); /* may make another stream free: loop again */
            if (c->devs[s->device].legacy == s) c->devs[s->device].legacy = NULL;
            free(s->cap_deps);
            free(s->attrs);
            free(s);
        }
    }
}

/* The per-thread default stream of a thread that ends (its work still runs). */
static pthread_key_t rt_thread_key;
static pthread_once_t rt_thread_key_once = PTHREAD_ONCE_INIT;

static void thread_ended(void *arg) {
    rt_thread *t = arg;
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&c->engine_lock);
    for (int d = 0; d < GPU_MAX_DEVICES; d++) {
        if (t->per_thread[d] && t->per_thread_gen[d] == c->generation) {
            t->per_thread[d]->destroyed = true;
            c->reap = true;
        }
        t->per_thread[d] = NULL;
    }
    rt_reap(c);
    pthread_mutex_unlock(&c->engine_lock);
}

static void thread_key_make(void) { pthread_key_create(&rt_thread_key, thread_ended); }

rt_stream *rt_stream_lookup(rt_context *c, cudaStream_t h) {
    /* the default streams are the current device's */
    if (h == 0 || h == cudaStreamLegacy) {
        rt_dev *v = rt_cur(c);
        if (!v->legacy) v->legacy = rt_stream_new(c, RT_STREAM_LEGACY, 0, 0);
        return v->legacy;
    }
    if (h == cudaStreamPerThread) {
        rt_thread *t = rt_thread_state();
        int d = rt_cur(c)->ordinal;
        if (!t->per_thread[d] || t->per_thread_gen[d] != c->generation) {
            t->per_thread[d] = rt_stream_new(c, RT_STREAM_PER_THREAD, 0, 0);
            t->per_thread_gen[d] = c->generation;
            pthread_once(&rt_thread_key_once, thread_key_make);
            pthread_setspecific(rt_thread_key, t);
        }
        return t->per_thread[d];
    }
    return rt_ptrmap_get(&c->streams, h);
}

bool rt_stream_valid(rt_context *c, cudaStream_t h) {
    pthread_mutex_lock(&c->engine_lock);
    bool ok = rt_stream_lookup(c, h) != NULL;
    pthread_mutex_unlock(&c->engine_lock);
    return ok;
}

/* ---- starting and completing operations ---- */

static void *worker_main(void *arg);
static void *hostfn_main(void *arg);

/* One more engine thread when the run queue holds more than the idle ones can take. */
static void ensure_worker(rt_context *c) {
    if (c->run_count <= c->idle_workers || c->nworkers >= RT_MAX_WORKERS) return;
    if (c->nworkers == c->workers_cap) {
        unsigned cap = c->workers_cap ? c->workers_cap * 2 : 8;
        pthread_t *n = realloc(c->workers, cap * sizeof *n);
        if (!n) return;
        c->workers = n;
        c->workers_cap = cap;
    }
    if (pthread_create(&c->workers[c->nworkers], NULL, worker_main, c) != 0) {
        if (c->nworkers == 0) {
            fprintf(stderr, "vcuda: cannot start the device's engine thread\n");
            abort();
        }
        return; /* the work waits for a running engine */
    }
    c->nworkers++;
}

static void run_queue_push(rt_context *c, rt_op *op) {
    /* best priority (lowest number) first, in order within one priority */
    rt_op **p = &c->run_head;
    while (*p && (*p)->stream->priority <= op->stream->priority) p = &(*p)->next;
    op->next = *p;
    *p = op;
    if (!op->next) c->run_tail = op;
    c->run_count++;
    ensure_worker(c);
    pthread_cond_signal(&c->work_ready);
}

static rt_op *run_queue_pop(rt_context *c) {
    rt_op *op = c->run_head;
    if (!op) return NULL;
    c->run_head = op->next;
    if (!c->run_head) c->run_tail = NULL;
    op->next = NULL;
    c->run_count--;
    return op;
}

static void complete(rt_context *c, rt_op *op) {
    rt_trace_op(c, op);
    rt_stream *s = op->stream;
    s->running = NULL;
    s->done = op->seq;
    s->vend = op->vend;
    s->last_dropped = op->dropped;
    if (op->kind == RT_OP_EVENT) {
        if (op->u.event.event->ipc) rt_ipc_event_done(op->u.event.event, op->u.event.ipc_seq);
        rt_event_unref(c, op->u.event.event);
    }
    if (op->mark) {
        op->mark->done = true;
        op->mark->dropped = op->dropped;
        op->mark->vtime = op->vend;
        rt_mark_unref(c, op->mark);
    }
    for (unsigned i = 0; i < op->ndeps; i++) rt_mark_unref(c, op->deps[i]);
    op->ndeps = 0;
    c->outstanding--;
    if (s->destroyed) c->reap = true;
    pthread_cond_broadcast(&c->engine_done);
    rt_op_free(op);
}

static void start(rt_context *c, rt_op *op) {
    double t = dmax(op->vfloor, op->stream->vend);
    for (unsigned i = 0; i < op->ndeps; i++) t = dmax(t, op->deps[i]->vtime);
    op->vstart = op->vend = t;
    /* After a fault the device runs nothing more; callbacks still hear of it. */
    if (c->device_fault != cudaSuccess && op->kind != RT_OP_CALLBACK &&
        op->kind != RT_OP_MEMOP)
        op->dropped = true;
    if (op->kind == RT_OP_MEMOP) op->u.memop.fn(c, op->u.memop.arg);
    if (op->kind == RT_OP_LOAD && !op->dropped) {
        rt_cost cost = {.kind = RT_OP_LOAD};
        op->vend = op->vstart + rt_timeline_cost_ms(c->devs[op->stream->device].preset, &cost);
    }
    bool instant = op->kind == RT_OP_EVENT || op->kind == RT_OP_WAIT || op->kind == RT_OP_LOAD ||
                   op->kind == RT_OP_MEMOP;
    if (op->dropped || instant) {
        complete(c, op);
        return;
    }
    if (op->kind == RT_OP_HOST_FN || op->kind == RT_OP_CALLBACK) {
        op->ready_at = rt_now_ms();
        op->next = NULL;
        if (c->hostfn_tail)
            c->hostfn_tail->next = op;
        else
            c->hostfn_head = op;
        c->hostfn_tail = op;
        if (!c->hostfn_started) {
            if (pthread_create(&c->hostfn_thread, NULL, hostfn_main, c) != 0) {
                fprintf(stderr, "vcuda: cannot start the host-function thread\n");
                abort();
            }
            c->hostfn_started = true;
        }
        pthread_cond_broadcast(&c->hostfn_ready);
        return;
    }
    run_queue_push(c, op);
}

static bool deps_done(const rt_op *op) {
    for (unsigned i = 0; i < op->ndeps; i++)
        if (!op->deps[i]->done) return false;
    return true;
}

/* Start every operation that may start now (engine_lock held). */
static void kick(rt_context *c) {
    bool progress;
    do {
        progress = false;
        for (rt_stream *s = c->all_streams; s; s = s->all_next) {
            rt_op *op = s->head;
            if (!op || s->running || !deps_done(op)) continue;
            s->head = op->next;
            if (!s->head) s->tail = NULL;
            op->next = NULL;
            s->running = op;
            start(c, op);
            progress = true;
        }
    } while (progress);
}

static void edge_add(rt_stream *s, uint64_t pos, rt_mark *dep) {
    if (s->nedges == s->edges_cap) {
        size_t cap = s->edges_cap ? s->edges_cap * 2 : 8;
        rt_edge *n = realloc(s->edges, cap * sizeof *n);
        if (!n) {
            fprintf(stderr, "vcuda: out of host memory in the stream engine\n");
            abort();
        }
        s->edges = n;
        s->edges_cap = cap;
    }
    s->edges[s->nedges++] = (rt_edge){pos, mark_ref(dep)};
}

static void add_last_of(rt_context *c, rt_op *op, rt_stream *other) {
    rt_mark *m = rt_stream_last_mark(c, other);
    if (!m) return;
    if (!rt_op_add_dep(op, m)) {
        fprintf(stderr, "vcuda: out of host memory in the stream engine\n");
        abort();
    }
    rt_mark_unref(c, m);
}

rt_mark *rt_issue_locked(rt_context *c, rt_stream *s, rt_op *op, bool want_mark) {
    op->stream = s;
    op->seq = ++s->issued;
    op->order = ++c->next_order;
    op->vfloor = c->host_vtime;
    /* The legacy default stream's implicit synchronisation (with its device's streams). */
    rt_stream *legacy = c->devs[s->device].legacy;
    if (s->kind == RT_STREAM_LEGACY) {
        for (rt_stream *b = c->all_streams; b; b = b->all_next)
            if (b != s && b->device == s->device && stream_blocking(b)) add_last_of(c, op, b);
    } else if (stream_blocking(s) && legacy) {
        add_last_of(c, op, legacy);
    }
    /* Dependencies already met only set the start time; all are kept for release. */
    unsigned keep = 0;
    for (unsigned i = 0; i < op->ndeps; i++) {
        rt_mark *m = op->deps[i];
        if (m->stream != s && m->seq > m->stream->released) edge_add(s, op->seq, m);
        if (m->done) {
            op->vfloor = dmax(op->vfloor, m->vtime);
            rt_mark_unref(c, m);
        } else {
            op->deps[keep++] = m;
        }
    }
    op->ndeps = keep;
    rt_mark *mine = NULL;
    if (want_mark) {
        op->mark = mark_new(s, op->seq);
        mine = mark_ref(op->mark);
    }
    op->next = NULL;
    if (s->tail)
        s->tail->next = op;
    else
        s->head = op;
    s->tail = op;
    c->outstanding++;
    rt_trace_api_issue(c, op->order); /* before kick: op may be done and freed after it */
    kick(c);
    return mine;
}

/* ---- the engine's threads ---- */

/* Set bytes bytes at dst to value, as elements of elem bytes (0 or 1: bytes, as memset;
 * 2 or 4: graph memset nodes). */
static void fill(void *dst, int value, unsigned elem, size_t bytes) {
    if (elem <= 1) {
        memset(dst, value, bytes);
        return;
    }
    unsigned char pattern[4];
    uint32_t v = (uint32_t)value;
    memcpy(pattern, &v, sizeof pattern); /* little-endian: the element's low bytes */
    unsigned char *p = dst;
    for (size_t i = 0; i + elem <= bytes; i += elem) memcpy(p + i, pattern, elem);
}

void rt_engine_run_op(rt_context *c, rt_op *op) {
    rt_cost cost = {.kind = op->kind};
    switch (op->kind) {
    case RT_OP_KERNEL:
        rt_run_kernel(c, op); /* sets vend itself */
        return;
    case RT_OP_COND:
        rt_graph_cond_run(c, op); /* sets vend itself */
        return;
    case RT_OP_GRAPH_TAILS:
        rt_graph_tails_run(c, op); /* sets vend itself */
        return;
    case RT_OP_COPY:
        if (c->check) check_on_copy(c->check, op->u.copy.dst, op->u.copy.src, op->u.copy.bytes);
        memmove(op->u.copy.dst, op->u.copy.src, op->u.copy.bytes);
        cost.bytes = op->u.copy.bytes;
        cost.dir = op->u.copy.dir;
        break;
    case RT_OP_SET:
        if (c->check) check_on_host_write(c->check, op->u.set.dst, op->u.set.bytes);
        fill(op->u.set.dst, op->u.set.value, op->u.set.elem, op->u.set.bytes);
        cost.bytes = op->u.set.bytes;
        break;
    case RT_OP_SET2D:
        for (size_t r = 0; r < op->u.set2d.height; r++) {
            char *row = (char *)op->u.set2d.dst + r * op->u.set2d.pitch;
            if (c->check) check_on_host_write(c->check, row, op->u.set2d.width);
            fill(row, op->u.set2d.value, op->u.set2d.elem, op->u.set2d.width);
        }
        cost.bytes = op->u.set2d.width * op->u.set2d.height;
        break;
    case RT_OP_COPY2D:
        for (size_t r = 0; r < op->u.copy2d.height; r++) {
            char *to = (char *)op->u.copy2d.dst + r * op->u.copy2d.dpitch;
            const char *from = (const char *)op->u.copy2d.src + r * op->u.copy2d.spitch;
            if (c->check) check_on_copy(c->check, to, from, op->u.copy2d.width);
            memmove(to, from, op->u.copy2d.width);
        }
        cost.bytes = op->u.copy2d.width * op->u.copy2d.height;
        cost.dir = op->u.copy2d.dir;
        break;
    default:
        break;
    }
    op->vend = op->vstart + rt_timeline_cost_ms(c->devs[op->stream->device].preset, &cost);
}

static void *worker_main(void *arg) {
    rt_context *c = arg;
    pthread_mutex_lock(&c->engine_lock);
    for (;;) {
        while (!c->run_head && !c->stopping) {
            c->idle_workers++;
            pthread_cond_wait(&c->work_ready, &c->engine_lock);
            c->idle_workers--;
        }
        if (c->stopping) break;
        rt_op *op = run_queue_pop(c);
        ensure_worker(c); /* what is left must not wait for this one */
        pthread_mutex_unlock(&c->engine_lock);
        rt_engine_run_op(c, op);
        pthread_mutex_lock(&c->engine_lock);
        complete(c, op);
        kick(c);
        rt_reap(c);
    }
    pthread_mutex_unlock(&c->engine_lock);
    return NULL;
}

static void *hostfn_main(void *arg) {
    rt_context *c = arg;
    rt_thread_state()->in_host_fn = true;
    pthread_mutex_lock(&c->engine_lock);
    while (!c->stopping) {
        rt_op *op = c->hostfn_head;
        if (!op) {
            pthread_cond_wait(&c->hostfn_ready, &c->engine_lock);
            continue;
        }
        double due = op->ready_at + RT_HOST_GRACE_MS;
        double now = rt_now_ms();
        if (c->host_waiters == 0 && now < due) {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            double wait_s = (due - now) / 1e3;
            ts.tv_sec += (time_t)wait_s;
            ts.tv_nsec += (long)((wait_s - (double)(time_t)wait_s) * 1e9);
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&c->hostfn_ready, &c->engine_lock, &ts);
            continue;
        }
        c->hostfn_head = op->next;
        if (!c->hostfn_head) c->hostfn_tail = NULL;
        op->next = NULL;
        cudaError_t status = c->device_fault;
        pthread_mutex_unlock(&c->engine_lock);
        if (op->kind == RT_OP_CALLBACK)
            op->u.callback.fn(op->u.callback.handle, status, op->u.callback.data);
        else if (!op->dropped)
            op->u.host_fn.fn(op->u.host_fn.data);
        pthread_mutex_lock(&c->engine_lock);
        complete(c, op);
        kick(c);
        rt_reap(c);
    }
    pthread_mutex_unlock(&c->engine_lock);
    return NULL;
}

/* ---- release: output the host has synchronised with ---- */

void rt_output_add(rt_context *c, rt_output *o) {
    o->stream->refs++;
    o->next = NULL;
    *c->outputs_tail = o;
    c->outputs_tail = &o->next;
}

/* Mark everything op seq of s depended on as seen by the host. */
static void release(rt_context *c, rt_stream *s, uint64_t seq) {
    struct item { rt_stream *s; uint64_t seq; } *stack = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (seq > s->released) {
            while (s->edges_first < s->nedges && s->edges[s->edges_first].pos <= seq) {
                rt_mark *d = s->edges[s->edges_first++].dep;
                if (n == cap) {
                    cap = cap ? cap * 2 : 16;
                    struct item *ns = realloc(stack, cap * sizeof *ns);
                    if (!ns) {
                        fprintf(stderr, "vcuda: out of host memory in the stream engine\n");
                        abort();
                    }
                    stack = ns;
                }
                /* The stream stays allocated until the next reap, after this. */
                stack[n++] = (struct item){d->stream, d->seq};
                rt_mark_unref(c, d);
            }
            if (s->edges_first == s->nedges) s->edges_first = s->nedges = 0;
            s->released = seq;
        }
        if (!n) break;
        n--;
        s = stack[n].s;
        seq = stack[n].seq;
    }
    free(stack);
}

/* Released output in the order to write it: by virtual end time, then issue order. */
static rt_output *released_outputs(rt_context *c) {
    rt_output *out = NULL;
    rt_output **p = &c->outputs;
    while (*p) {
        rt_output *o = *p;
        if (o->seq > o->stream->released) {
            p = &o->next;
            continue;
        }
        *p = o->next;
        rt_stream_unref(c, o->stream);
        o->stream = NULL;
        rt_output **q = &out;
        while (*q && ((*q)->vend < o->vend || ((*q)->vend == o->vend && (*q)->order < o->order)))
            q = &(*q)->next;
        o->next = *q;
        *q = o;
    }
    c->outputs_tail = p;
    return out;
}

static void queue_released(rt_context *c) {
    rt_output *list = released_outputs(c);
    rt_output **p = &c->to_write;
    while (*p) p = &(*p)->next;
    *p = list;
    rt_reap(c);
}

void rt_flush_released(rt_context *c) {
    pthread_mutex_lock(&c->print_lock);
    pthread_mutex_lock(&c->engine_lock);
    rt_output *list = c->to_write;
    c->to_write = NULL;
    pthread_mutex_unlock(&c->engine_lock);
    for (rt_output *o = list, *next; o; o = next) {
        next = o->next;
        if (o->len) fwrite(o->data, 1, o->len, stdout);
        if (o->error != cudaSuccess) {
            /* One line: the executor's diagnostic (kernel, block, thread, instruction). */
            fflush(stdout);
            if (o->message) fprintf(stderr, "%s\n", o->message);
            rt_set_sticky(c, o->error);
        }
        free(o->data);
        free(o->message);
        free(o);
    }
    if (list) fflush(stdout);
    pthread_mutex_unlock(&c->print_lock);
}

/* ---- the host waiting ---- */

static void host_wait_begin(rt_context *c) {
    c->host_waiters++;
    pthread_cond_broadcast(&c->hostfn_ready); /* host functions may run now */
}

cudaError_t rt_wait_mark_locked(rt_context *c, rt_mark *m, bool flush) {
    double since = c->host_vtime;
    if (!m->done) {
        host_wait_begin(c);
        while (!m->done) pthread_cond_wait(&c->engine_done, &c->engine_lock);
        c->host_waiters--;
    }
    c->host_vtime = dmax(c->host_vtime, m->vtime);
    rt_trace_api_wait(c, since);
    if (flush) {
        release(c, m->stream, m->seq);
        queue_released(c);
    }
    return m->dropped ? c->device_fault : cudaSuccess;
}

bool rt_wait_mark_timed_locked(rt_context *c, rt_mark *m, double max_ms) {
    if (m->done) return true;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long long ns = ts.tv_nsec + (long long)(max_ms * 1e6);
    ts.tv_sec += (time_t)(ns / 1000000000LL);
    ts.tv_nsec = (long)(ns % 1000000000LL);
    host_wait_begin(c);
    while (!m->done) {
        if (pthread_cond_timedwait(&c->engine_done, &c->engine_lock, &ts) == ETIMEDOUT) break;
    }
    c->host_waiters--;
    return m->done;
}

double rt_host_grace_ms(void) { return RT_HOST_GRACE_MS; }

cudaError_t rt_issue(rt_context *c, cudaStream_t h, rt_op *op, rt_wait wait) {
    if (wait != RT_ASYNC && rt_in_host_fn()) {
        rt_op_free(op);
        return cudaErrorNotPermitted;
    }
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, h);
    if (!s) {
        pthread_mutex_unlock(&c->engine_lock);
        rt_op_free(op);
        return cudaErrorInvalidResourceHandle;
    }
    /* An asynchronous copy that would hold the host till it is done (pageable memory,
     * host to host) is only recorded by a capture: it holds nothing then, and CUDA
     * captures it as a memcpy node. A synchronous copy (RT_WAIT_FLUSH) stays refused. */
    bool copy = op->kind == RT_OP_COPY || op->kind == RT_OP_COPY2D;
    bool held = wait != RT_ASYNC && !(copy && s->capture && wait == RT_WAIT_DONE);
    cudaError_t e = rt_capture_check(c, s, held);
    if (e != cudaSuccess || s->capture) {
        if (e == cudaSuccess) e = rt_capture_op(c, s, op);
        else rt_op_free(op);
        pthread_mutex_unlock(&c->engine_lock);
        return e;
    }
    rt_mark *m = rt_issue_locked(c, s, op, wait != RT_ASYNC);
    if (m) {
        e = rt_wait_mark_locked(c, m, wait == RT_WAIT_FLUSH);
        rt_mark_unref(c, m);
    }
    rt_reap(c);
    pthread_mutex_unlock(&c->engine_lock);
    if (wait == RT_ASYNC) return cudaSuccess;
    return rt_wait_finish(c, e);
}

/* CUDA loads a kernel onto the device at its first launch (lazy loading, the default
 * since CUDA 12.2), and the host waits while it does: the code is copied in as on the
 * legacy default stream, after the work issued to the blocking streams. So a grid that
 * spins until a grid of another blocking stream runs waits in vain when that grid's
 * kernel is launched for the first time; CUDA's documentation warns of it, and an H100
 * shows it (tests/cuda/streams/expected/concurrency.out, per_thread.out), while work of
 * non-blocking streams is not waited for (streams_api.out). The copy takes device time
 * (timeline.c). CUDA_MODULE_LOADING=EAGER loads every kernel up front instead. */
bool rt_lazy_load(rt_context *c, cudaStream_t h) {
    if (rt_in_host_fn()) return true;
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, h);
    bool capturing = !s || s->capture || c->captures;
    if (!capturing) {
        rt_op *op = rt_op_new(RT_OP_LOAD);
        if (op) {
            rt_mark *m = rt_issue_locked(c, rt_stream_lookup(c, cudaStreamLegacy), op, true);
            rt_wait_mark_locked(c, m, false);
            rt_mark_unref(c, m);
            rt_reap(c);
        }
    }
    pthread_mutex_unlock(&c->engine_lock);
    return !capturing;
}

cudaError_t rt_wait_finish(rt_context *c, cudaError_t e) {
    rt_progress_settle(c);
    if (e != cudaSuccess) rt_set_sticky(c, e);
    rt_flush_released(c);
    rt_pools_after_sync(c);
    pthread_mutex_lock(&c->lock);
    cudaError_t sticky = c->sticky;
    pthread_mutex_unlock(&c->lock);
    return sticky;
}

/* Waits for the work issued before the call (other host threads may go on issuing). */
cudaError_t rt_device_synchronize(rt_context *c) { return rt_device_synchronize_dev(c, -1); }

cudaError_t rt_device_synchronize_dev(rt_context *c, int device) {
    if (rt_in_host_fn()) return cudaErrorNotPermitted;
    pthread_mutex_lock(&c->engine_lock);
    size_t n = 0, cap = 0;
    rt_mark **marks = NULL;
    for (rt_stream *s = c->all_streams; s; s = s->all_next) {
        if (s->issued == 0 || s->released >= s->issued) continue;
        if (device >= 0 && s->device != device) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            rt_mark **m = realloc(marks, cap * sizeof *m);
            if (!m) {
                fprintf(stderr, "vcuda: out of host memory in the stream engine\n");
                abort();
            }
            marks = m;
        }
        marks[n++] = rt_stream_last_mark(c, s);
    }
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < n; i++) {
        cudaError_t ei = rt_wait_mark_locked(c, marks[i], true);
        if (!e) e = ei;
        rt_mark_unref(c, marks[i]);
    }
    free(marks);
    queue_released(c);
    pthread_mutex_unlock(&c->engine_lock);
    return rt_wait_finish(c, e);
}

void rt_engine_reset_device(rt_context *c, int device) {
    pthread_mutex_lock(&c->engine_lock);
    for (size_t i = 0; i < c->streams.cap; i++) {
        rt_stream *s = c->streams.keys[i] ? c->streams.values[i] : NULL;
        if (s && s->device == device) s->destroyed = true;
    }
    for (size_t i = 0; i < c->events.cap; i++) {
        rt_event *ev = c->events.keys[i] ? c->events.values[i] : NULL;
        if (ev && ev->device == device) {
            rt_ptrmap_remove(&c->events, ev);
            ev->destroyed = true;
            rt_event_unref(c, ev);
            i = (size_t)-1; /* removal may move entries: look again from the start */
        }
    }
    for (rt_stream *s = c->all_streams; s; s = s->all_next)
        if (s->destroyed) rt_ptrmap_remove(&c->streams, s);
    rt_stream *legacy = c->devs[device].legacy;
    if (legacy) legacy->destroyed = true;
    c->devs[device].legacy = NULL;
    c->reap = true;
    rt_reap(c);
    pthread_mutex_unlock(&c->engine_lock);
}

void rt_engine_reset(rt_context *c) {
    pthread_mutex_lock(&c->engine_lock);
    rt_capture_reset(c);
    rt_graphs_reset(c);
    for (rt_stream *s = c->all_streams; s; s = s->all_next) {
        s->destroyed = true;
        edges_drop(c, s);
    }
    rt_ptrmap_free(&c->streams);
    for (size_t i = 0; i < c->events.cap; i++) {
        if (!c->events.keys[i]) continue;
        rt_event *ev = c->events.values[i];
        ev->destroyed = true;
        rt_event_unref(c, ev);
    }
    rt_ptrmap_free(&c->events);
    for (int d = 0; d < c->ndevs; d++) c->devs[d].legacy = NULL;
    c->generation++;
    c->device_fault = cudaSuccess;
    c->reap = true;
    rt_reap(c);
    pthread_mutex_unlock(&c->engine_lock);
}

void rt_engine_stop(rt_context *c) {
    pthread_mutex_lock(&c->engine_lock);
    c->stopping = true;
    pthread_cond_broadcast(&c->work_ready);
    pthread_cond_broadcast(&c->hostfn_ready);
    unsigned n = c->nworkers;
    bool hostfn = c->hostfn_started;
    pthread_mutex_unlock(&c->engine_lock);
    for (unsigned i = 0; i < n; i++) pthread_join(c->workers[i], NULL);
    if (hostfn) pthread_join(c->hostfn_thread, NULL);
    pthread_mutex_lock(&c->engine_lock);
    free(c->workers);
    c->workers = NULL;
    c->nworkers = c->workers_cap = 0;
    c->hostfn_started = false;
    c->stopping = false;
    pthread_mutex_unlock(&c->engine_lock);
}
