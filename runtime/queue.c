/* runtime/queue.c — the work queue behind every stream.
 *
 * Kernels, asynchronous copies and sets, event records and host functions are appended in
 * the order the program issues them and run when the program synchronises (device,
 * stream or event synchronisation, a blocking copy, a query, cudaFree, cudaDeviceReset).
 * Issue order satisfies every dependency streams and events can express, so one queue
 * is a valid schedule for all streams; running work at synchronisation points is when a
 * GPU's results (and its printf output) become visible to the host.
 *
 * Running the queue never holds the context lock: a grid can take long, and host
 * functions run from the queue may call back into the runtime (they may not wait on the
 * queue itself; CUDA forbids that too).
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rt_stream_valid(rt_context *c, cudaStream_t s) {
    if (s == 0 || s == cudaStreamLegacy || s == cudaStreamPerThread) return true;
    return rt_ptrmap_get(&c->streams, s) != NULL;
}

void rt_queue_push(rt_context *c, rt_op *op) {
    op->next = NULL;
    pthread_mutex_lock(&c->queue_lock);
    if (c->queue_tail)
        c->queue_tail->next = op;
    else
        c->queue_head = op;
    c->queue_tail = op;
    pthread_mutex_unlock(&c->queue_lock);
}

static rt_op *rt_queue_pop(rt_context *c) {
    pthread_mutex_lock(&c->queue_lock);
    rt_op *op = c->queue_head;
    if (op) {
        c->queue_head = op->next;
        if (!c->queue_head) c->queue_tail = NULL;
    }
    pthread_mutex_unlock(&c->queue_lock);
    return op;
}

static void rt_op_free(rt_op *op) {
    if (op->kind == RT_OP_KERNEL) {
        free(op->u.kernel.params);
        free(op->u.kernel.check_site);
    }
    free(op);
}

static void rt_event_complete(rt_context *c, rt_event *ev) {
    pthread_mutex_lock(&c->lock);
    ev->time_ms = rt_now_ms();
    if (ev->pending) ev->pending--;
    if (!ev->pending) ev->completed = true;
    pthread_mutex_unlock(&c->lock);
}

static cudaError_t rt_sticky(rt_context *c) {
    pthread_mutex_lock(&c->lock);
    cudaError_t e = c->sticky;
    pthread_mutex_unlock(&c->lock);
    return e;
}

static void rt_op_run(rt_context *c, rt_op *op) {
    cudaError_t sticky = rt_sticky(c);
    switch (op->kind) {
    case RT_OP_KERNEL:
        if (!sticky) rt_run_kernel(c, op);
        break;
    case RT_OP_COPY:
        if (sticky) break;
        if (c->check) check_on_copy(c->check, op->u.copy.dst, op->u.copy.src, op->u.copy.bytes);
        memmove(op->u.copy.dst, op->u.copy.src, op->u.copy.bytes);
        break;
    case RT_OP_SET:
        if (sticky) break;
        if (c->check) check_on_host_write(c->check, op->u.set.dst, op->u.set.bytes);
        memset(op->u.set.dst, op->u.set.value, op->u.set.bytes);
        break;
    case RT_OP_SET2D:
        if (!sticky)
            for (size_t r = 0; r < op->u.set2d.height; r++) {
                char *row = (char *)op->u.set2d.dst + r * op->u.set2d.pitch;
                if (c->check) check_on_host_write(c->check, row, op->u.set2d.width);
                memset(row, op->u.set2d.value, op->u.set2d.width);
            }
        break;
    case RT_OP_COPY2D:
        if (!sticky)
            for (size_t r = 0; r < op->u.copy2d.height; r++) {
                char *to = (char *)op->u.copy2d.dst + r * op->u.copy2d.dpitch;
                const char *from = (const char *)op->u.copy2d.src + r * op->u.copy2d.spitch;
                if (c->check) check_on_copy(c->check, to, from, op->u.copy2d.width);
                memmove(to, from, op->u.copy2d.width);
            }
        break;
    case RT_OP_EVENT:
        rt_event_complete(c, op->u.event.event);
        break;
    case RT_OP_HOST_FN:
        if (!sticky) op->u.host_fn.fn(op->u.host_fn.data);
        break;
    case RT_OP_CALLBACK:
        op->u.callback.fn(op->stream, sticky, op->u.callback.data);
        break;
    }
}

cudaError_t rt_queue_drain(rt_context *c) {
    rt_thread *t = rt_thread_state();
    /* A host function run from the queue cannot wait for the queue it is part of. */
    if (!t->draining) {
        pthread_mutex_lock(&c->drain_lock);
        t->draining = true;
        rt_op *op;
        while ((op = rt_queue_pop(c))) {
            rt_op_run(c, op);
            rt_op_free(op);
        }
        t->draining = false;
        pthread_mutex_unlock(&c->drain_lock);
    }
    return rt_sticky(c);
}

void rt_queue_discard(rt_context *c) {
    rt_op *op;
    while ((op = rt_queue_pop(c))) {
        if (op->kind == RT_OP_EVENT && op->u.event.event->pending) op->u.event.event->pending--;
        rt_op_free(op);
    }
}
