/* gpu/scheduler.c — running a grid: handing out blocks to host threads, keeping device
 * printf output in block order, and stopping at the first fault in block order.
 *
 * Blocks are numbered in linear order (x fastest). Lanes take the next number from one
 * atomic counter, so blocks start in order and every lane stays busy until none is left.
 *
 * Output order. Each block's printf output is kept until every block before it has been
 * written; a block finishing in order is written at once from its lane's buffer, a block
 * finishing early parks its buffer in a ring of slots (one per block in flight) until its
 * turn. A lane may only start a block within the ring's reach of the oldest unwritten
 * one, so the ring never overflows; it waits otherwise (rare: only when one block runs
 * for very much longer than thousands of others).
 *
 * Dynamic parallelism (what blocks launch, and their output after a launch) is gpu/dp.c;
 * gpu_run_grid_stats runs a grid's blocks here, then what they launched there.
 *
 * Faults. When block f faults, only blocks after f are stopped (each lane has its own
 * abort flag, raised when its block is later than f) and no block after f is started.
 * Blocks before f run to completion, so the outcome is the one a one-thread run gives:
 * the output of blocks 0..f, and the fault of the lowest faulting block.
 */
#include "device_internal.h"
#include "dp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NO_BLOCK UINT64_MAX
#define RING_MAX 4096u  /* most blocks that may finish ahead of the oldest unwritten one */

typedef struct out_slot {
    bool done;
    char *data;  /* parked output (malloc'd by exec), NULL when none */
    size_t len;
} out_slot;

typedef struct gpu_grid {
    gpu_device *dev;
    gpu_lane *lanes;               /* the lanes that may run its blocks */
    unsigned nlanes;
    const exec_launch *launch;
    exec_dim3 dim;
    uint64_t nblocks;
    uint32_t num_sms;

    _Atomic uint64_t next_block;   /* the next block to hand out */
    _Atomic uint64_t fault_block;  /* lowest faulting block so far, NO_BLOCK if none */
    _Atomic uint64_t blocks_run;
    _Atomic uint64_t insns;

    pthread_mutex_t lock;          /* the fields below */
    pthread_cond_t progress;       /* the written-out front moved, or a fault */
    exec_fault fault;              /* the fault of fault_block */
    uint64_t emit_next;            /* oldest block whose output is not yet written */
    out_slot *ring;
    uint64_t ring_size;

    struct gpu_dp_grid *dp;        /* what the blocks launch (gpu/dp.c) */
    exec_output *sink;             /* where output goes instead of the printer, or NULL */
} gpu_grid;

/* The device whose block this host thread is running, if any: a grid launched from
 * there is nested. */
static _Thread_local gpu_device *running_device;

static exec_dim3 block_coords(const gpu_grid *g, uint64_t linear) {
    exec_dim3 c;
    c.x = (uint32_t)(linear % g->dim.x);
    c.y = (uint32_t)(linear / g->dim.x % g->dim.y);
    c.z = (uint32_t)(linear / ((uint64_t)g->dim.x * g->dim.y));
    return c;
}

/* Print a block's output, or append it to the grid's sink. */
static void grid_emit(gpu_grid *g, const char *data, size_t len) {
    if (g->sink) gpu_output_append(g->sink, data, len);
    else gpu_device_emit(g->dev, data, len);
}

/* Write out every finished block from the front, in order (lock held). Stops at the
 * faulting block: nothing after it is written. */
static void emit_ready(gpu_grid *g) {
    uint64_t stop = atomic_load(&g->fault_block);
    bool moved = false;
    while (g->emit_next < g->nblocks && g->emit_next <= stop) {
        out_slot *s = &g->ring[g->emit_next % g->ring_size];
        if (!s->done)
            break;
        grid_emit(g, s->data, s->len);
        free(s->data);
        *s = (out_slot){0};
        g->emit_next++;
        moved = true;
    }
    if (moved)
        pthread_cond_broadcast(&g->progress);
}

/* Record that block b faulted; stop the lanes running later blocks. */
static void record_fault(gpu_grid *g, uint64_t b, const exec_fault *f) {
    /* g->lock held */
    if (b >= atomic_load(&g->fault_block))
        return;
    atomic_store(&g->fault_block, b);
    g->fault = *f;
    for (unsigned i = 0; i < g->nlanes; i++) {
        /* A lane that takes a block after the store above sees fault_block and skips the
         * block; one that took it before is seen here (both sides use sequentially
         * consistent atomics). Idle lanes hold NO_BLOCK, which is never below b. */
        uint64_t running = atomic_load(&g->lanes[i].block);
        if (running != NO_BLOCK && running > b)
            __atomic_store_n(&g->lanes[i].abort, 1, __ATOMIC_RELAXED); /* read by exec */
    }
    pthread_cond_broadcast(&g->progress);
}

/* Block b finished on lane with result kind: hand its output to the writer. */
static void finish_block(gpu_grid *g, gpu_lane *lane, uint64_t b, exec_fault_kind kind) {
    /* what the block launched joins the grid; output after its launches waits (dp.c) */
    lane->out.len = gpu_dp_block_finish(g->dp, lane, b, kind == EXEC_OK);
    pthread_mutex_lock(&g->lock);
    if (kind != EXEC_OK && kind != EXEC_FAULT_ABORTED)
        record_fault(g, b, &lane->fault);
    /* Diagnostics (failed assertions) go to stderr at once, as the driver prints them. */
    if (lane->out.err_len) {
        gpu_device_emit_err(g->dev, lane->out.err, lane->out.err_len);
        lane->out.err_len = 0;
    }
    /* Blocks after the first fault are dropped, output and all. (Only those are ever
     * aborted, and the first fault only moves down, so a dropped block stays dropped.) */
    if (b <= atomic_load(&g->fault_block)) {
        if (b == g->emit_next) {
            /* the common case: written straight from the lane's buffer, no copy */
            grid_emit(g, lane->out.data, lane->out.len);
            g->emit_next++;
            pthread_cond_broadcast(&g->progress);
            emit_ready(g);
        } else {
            out_slot *s = &g->ring[b % g->ring_size];
            s->done = true;
            if (lane->out.len > 0) {
                s->data = lane->out.data;
                s->len = lane->out.len;
                lane->out = (exec_output){0};
            }
        }
    }
    lane->out.len = 0;
    pthread_mutex_unlock(&g->lock);
}

/* Wait until block b may start (within the ring's reach); false when it must not run. */
static bool wait_for_room(gpu_grid *g, uint64_t b) {
    if (b < g->ring_size)
        return true;  /* the ring covers it from the start: no lock needed */
    pthread_mutex_lock(&g->lock);
    while (b >= g->emit_next + g->ring_size && b < atomic_load(&g->fault_block))
        pthread_cond_wait(&g->progress, &g->lock);
    pthread_mutex_unlock(&g->lock);
    return b < atomic_load(&g->fault_block);
}

void gpu_grid_work(gpu_grid *g, gpu_lane *lane) {
    gpu_device *outer = running_device;
    running_device = g->dev;
    uint64_t before = exec_worker_insn_count(lane->worker);
    lane->launch = *g->launch;
    lane->launch.abort = &lane->abort;
    lane->launch.devrt = &gpu_dp_ops;
    lane->launch.devrt_ctx = lane;
    lane->dp = g->dp;
    lane->dp_block = NULL;
    for (;;) {
        uint64_t b = atomic_fetch_add(&g->next_block, 1);
        if (b >= g->nblocks)
            break;
        __atomic_store_n(&lane->abort, 0, __ATOMIC_RELAXED);
        atomic_store(&lane->block, b);
        if (b > atomic_load(&g->fault_block) || !wait_for_room(g, b))
            break;  /* a block before it faulted: later blocks never start */
        exec_fault_kind kind = exec_run_block(lane->worker, &lane->launch, block_coords(g, b),
                                              (uint32_t)(b % g->num_sms), &lane->out,
                                              &lane->fault);
        atomic_fetch_add(&g->blocks_run, 1);
        finish_block(g, lane, b, kind);
    }
    exec_worker_observe_end(lane->worker); /* the launch's last block on this worker */
    atomic_store(&lane->block, NO_BLOCK);
    atomic_fetch_add(&g->insns, exec_worker_insn_count(lane->worker) - before);
    running_device = outer;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A grid launched from inside a running block of this device: run it here, on this
 * thread, with a worker of its own (the block that launched it holds this lane's). */
static void run_nested(gpu_grid *g) {
    gpu_lane lane;
    memset(&lane, 0, sizeof lane);
    lane.dev = g->dev;
    lane.worker = gpu_spare_worker_take(g->dev);
    atomic_init(&lane.block, NO_BLOCK);
    /* The grid's only lane: a fault here stops nothing of the outer grid. */
    g->lanes = &lane;
    g->nlanes = 1;
    gpu_grid_work(g, &lane);
    free(lane.out.data);
    free(lane.out.err);
    gpu_spare_worker_give(g->dev, lane.worker);
}

exec_fault_kind gpu_grid_run_blocks(gpu_device *d, exec_launch *L, exec_fault *fault,
                                    gpu_grid_stats *stats, gpu_dp_grid *dp, exec_output *sink) {
    double start = now_seconds();
    const gpu_preset *p = d->preset;
    L->num_sms = (uint32_t)p->multiprocessor_count;
    L->clock_khz = (uint32_t)p->clock_khz;
    L->warp_barriers = p->major < 7;
    L->grid_id = atomic_fetch_add(&d->next_grid_id, 1);

    gpu_grid g;
    memset(&g, 0, sizeof g);
    g.dev = d;
    g.dp = dp;
    g.sink = sink;
    g.launch = L;
    g.dim = L->grid;
    g.nblocks = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
    g.num_sms = L->num_sms;
    atomic_init(&g.next_block, 0);
    atomic_init(&g.fault_block, NO_BLOCK);
    atomic_init(&g.blocks_run, 0);
    atomic_init(&g.insns, 0);
    g.ring_size = g.nblocks < RING_MAX ? g.nblocks : RING_MAX;
    pthread_mutex_init(&g.lock, NULL);
    pthread_cond_init(&g.progress, NULL);

    bool nested = running_device == d;
    unsigned threads = 0;
    if (g.nblocks > 0) {
        g.ring = calloc(g.ring_size, sizeof *g.ring);
        if (!g.ring) {
            g.nblocks = 0;
            atomic_store(&g.fault_block, 0);
            g.fault.kind = EXEC_FAULT_ILLEGAL_ADDRESS;
            strcpy(g.fault.msg, "out of host memory starting the grid");
        }
    }
    if (g.nblocks > 0 && nested) {
        threads = 1;
        run_nested(&g);
    } else if (g.nblocks > 0) {
        pthread_mutex_lock(&d->grid_lock);
        g.lanes = d->lanes;
        g.nlanes = d->nlanes;
        /* never wake more threads than there are blocks: a one-block grid runs right
         * here with no hand-off */
        threads = g.nblocks < d->nlanes ? (unsigned)g.nblocks : d->nlanes;
        if (threads <= 1)
            gpu_grid_work(&g, &d->lanes[0]);
        else
            threads = gpu_pool_run(d, &g, threads);
        pthread_mutex_unlock(&d->grid_lock);
    }
    /* Every block up to the fault (or all) is written by now, since a block's output
     * is written when the last of the blocks before it finishes; then what blocks
     * printed after their device-side launches. Stdout is flushed once a grid, as a GPU's
     * printf buffer is flushed at synchronisation. */
    if (dp->nlate) {
        exec_output late = {0};
        gpu_dp_late_output(dp, atomic_load(&g.fault_block), &late);
        grid_emit(&g, late.data, late.len);
        free(late.data);
    }
    if (g.ring) {
        for (uint64_t i = 0; i < g.ring_size; i++)
            free(g.ring[i].data);
        free(g.ring);
    }
    pthread_mutex_lock(&d->print_lock);
    fflush(stdout);
    pthread_mutex_unlock(&d->print_lock);

    exec_fault_kind result = EXEC_OK;
    if (atomic_load(&g.fault_block) != NO_BLOCK) {
        result = g.fault.kind;
        if (fault)
            *fault = g.fault;
    } else if (fault) {
        fault->kind = EXEC_OK;
        fault->msg[0] = 0;
    }
    if (stats) {
        stats->warp_instructions = atomic_load(&g.insns);
        stats->blocks_run = atomic_load(&g.blocks_run);
        stats->host_threads = threads;
        stats->host_seconds = now_seconds() - start;
    }
    pthread_cond_destroy(&g.progress);
    pthread_mutex_destroy(&g.lock);
    return result;
}

exec_fault_kind gpu_run_grid_stats(gpu_device *d, exec_launch *L, exec_fault *fault,
                                   gpu_grid_stats *stats) {
    exec_fault local;
    if (!fault) fault = &local;
    gpu_dp_grid dp;
    gpu_dp_grid_init(&dp, d, 0);
    exec_fault_kind k = gpu_grid_run_blocks(d, L, fault, stats, &dp, NULL);
    gpu_dp_launch *work = k == EXEC_OK ? gpu_dp_grid_take_work(&dp) : NULL;
    gpu_dp_grid_destroy(&dp);
    /* the grids its blocks launched, to any depth: the grid is complete after them (their
     * cost is theirs: *stats describes this grid's blocks) */
    if (work) k = gpu_dp_run(d, work, NULL, fault);
    return k;
}

exec_fault_kind gpu_run_grid(gpu_device *d, exec_launch *L, exec_fault *fault) {
    return gpu_run_grid_stats(d, L, fault, NULL);
}
