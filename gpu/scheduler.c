/* gpu/scheduler.c — running grids: handing out blocks of one or more grids to host
 * threads, keeping each grid's device printf output in block order, stopping a grid at
 * its first fault in block order, and sharing the SMs between grids that run at once.
 *
 * Blocks are numbered in linear order (x fastest) and handed out in that order, in runs
 * of consecutive blocks while a grid has many more left than there are lanes (one lock
 * per run instead of one per block: grids of many small blocks paid more for the lock
 * than for their blocks); block k runs on SM (sm_base + k) mod SMs however it is handed
 * out. Every host thread that calls gpu_run_grid runs blocks of its own grid; the
 * device's pool lanes run blocks of whichever active grid comes first (priority, then
 * arrival), so one grid alone gets the whole pool and grids running together share it,
 * the way a GPU's block scheduler lets concurrent kernels (Hyper-Q) share its SMs.
 *
 * Residency. A block is admitted onto its SM only while the SM has room: a grid whose
 * kernel fits B blocks per SM (the occupancy calculator's answer) takes 1/B of an SM per
 * resident block, whatever grid the other resident blocks belong to. A block that finds
 * its SM full waits until blocks leave it. The blocks of a run take their room when the
 * run is handed out and leave it when the run ends (the run stops short at a full SM).
 *
 * Output order. Each block's printf output is kept until every block before it has been
 * written; a block finishing in order is written at once from its lane's buffer, a block
 * finishing early parks its buffer in a ring of slots (one per block in flight) until its
 * turn. A lane holds the output of its run's blocks that finish cleanly and hands them
 * on together (one lock for the run; a fault, a diagnostic or a device-side launch hands
 * on what it holds first). A block is only started within the ring's reach of the oldest
 * unwritten one, so the ring never overflows (the rare wait: one block running for very
 * much longer than thousands of others).
 *
 * Faults. When block f faults, only blocks after f are stopped (each lane has its own
 * abort flag, raised when its block is later than f) and no block after f is started.
 * Blocks before f run to completion, so the outcome is the one a one-thread run gives:
 * the output of blocks 0..f, and the fault of the lowest faulting block.
 *
 * Cooperative grids (cudaLaunchCooperativeKernel) are co-resident: every block runs at
 * once on a host thread of its own (run_cooperative), so a block may wait for any other,
 * as cooperative groups' grid-wide barrier does through the grid's workspace. Their
 * blocks take their room on the SMs without waiting for it (the launch was checked to
 * fit the device), and a fault stops every block, since the others could wait for the
 * faulted one for ever.
 *
 * Clusters (a launch with thread block clusters of more than one block) are co-resident
 * the same way, one cluster at a time: a lane takes a whole cluster and runs its first
 * block itself while the others run at once on threads of their own (run_cluster), each
 * with a worker of its own, so that the blocks reach one another's shared memory and wait
 * for one another at the cluster barrier (exec/cluster.c). A fault stops the faulting
 * block's cluster and every later block. Cooperative grids with clusters run every block
 * at once, as any cooperative grid.
 *
 * Dynamic parallelism (what blocks launch, and their output after a launch) is gpu/dp.c;
 * a grid's blocks run here, then what they launched there.
 *
 * Locks: g->lock (a grid's output and fault) may be taken before d->sched_lock (the
 * device's lists and SM loads), never after.
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

/* A grid's state is read by every lane for every block it runs (launch, dimensions, fault
 * block), written by each lane once per run (the hand-out, under d->sched_lock; the
 * counts; the output), and lives on the stack of the thread that launched it, next to that
 * thread's own lane, which it writes for every block. Gaps of a cache line keep these
 * apart: a line that one lane writes and another reads for every block moved between
 * their cores each time (with two lanes, a tenth of the grid's time went to it). */
typedef struct gpu_grid {
    char gap_before[GPU_CACHE_LINE];
    /* read by every lane; written only at the start (and fault_block at a fault) */
    gpu_device *dev;
    const exec_launch *launch;
    exec_dim3 dim;
    uint64_t nblocks;
    exec_dim3 cdim;                /* blocks per cluster (1x1x1 without clusters) */
    uint32_t csize;                /* blocks per cluster */
    uint64_t nunits;               /* what lanes take: blocks, or clusters of csize blocks */
    uint32_t num_sms;
    int priority;
    uint64_t share;                /* residency units one block takes on its SM */
    gpu_print_fn print;            /* NULL: the device's print function */
    void *print_ctx;
    struct gpu_dp_grid *dp;        /* what the blocks launch (gpu/dp.c) */
    exec_output *sink;             /* where output goes instead of printed, or NULL */
    uint64_t *progress;            /* gpu_grid_opts.blocks_done, or NULL */
    bool cooperative;              /* all blocks at once (run_cooperative), and how their
                                    * spin-waits sleep: */
    exec_coresident co;
    pthread_mutex_t co_lock;
    pthread_cond_t co_cond;        /* the grid barrier completed (co_flips moved on) */
    uint64_t co_flips;             /* grid barriers completed (co_lock) */
    _Atomic uint64_t fault_block;  /* lowest faulting block so far, NO_BLOCK if none */

    char gap_sched[GPU_CACHE_LINE];
    /* under d->sched_lock */
    uint64_t seq;                  /* admission order */
    uint32_t sm_base;              /* block k runs on SM (sm_base + k) mod num_sms */
    uint64_t next_block;           /* the next block to hand out */
    uint64_t blocks_out;           /* handed out and not finished */
    unsigned threads;              /* lanes that ran its blocks */
    bool listed;                   /* in d->active */
    struct gpu_grid *next;         /* in d->active */
    pthread_cond_t done;           /* blocks_out reached 0 with none left to hand out */

    char gap_counts[GPU_CACHE_LINE];
    _Atomic uint64_t emit_seen;    /* emit_next as lanes may read it without the lock */
    _Atomic uint64_t blocks_run;
    _Atomic uint64_t insns;

    pthread_mutex_t lock;          /* the fields below */
    exec_fault fault;              /* the fault of fault_block */
    uint64_t emit_next;            /* oldest block whose output is not yet written */
    out_slot *ring;
    uint64_t ring_size;
    char gap_after[GPU_CACHE_LINE];
} gpu_grid;

/* The device and grid whose block this host thread is running, if any: a grid launched
 * from there is nested. */
static _Thread_local gpu_device *running_device;
static _Thread_local gpu_grid *running_grid;

static exec_dim3 block_coords(const gpu_grid *g, uint64_t linear) {
    exec_dim3 c;
    c.x = (uint32_t)(linear % g->dim.x);
    c.y = (uint32_t)(linear / g->dim.x % g->dim.y);
    c.z = (uint32_t)(linear / ((uint64_t)g->dim.x * g->dim.y));
    return c;
}

/* The linear index of the block of rank r in unit k (a cluster, or block k itself). */
static uint64_t unit_block(const gpu_grid *g, uint64_t k, uint32_t r) {
    if (g->csize <= 1) return k;
    uint64_t ncx = g->dim.x / g->cdim.x, ncy = g->dim.y / g->cdim.y;
    uint64_t x = k % ncx * g->cdim.x + r % g->cdim.x;
    uint64_t y = k / ncx % ncy * g->cdim.y + r / g->cdim.x % g->cdim.y;
    uint64_t z = k / (ncx * ncy) * g->cdim.z + r / (g->cdim.x * g->cdim.y);
    return x + g->dim.x * (y + g->dim.y * z);
}

/* The cluster block b belongs to (b itself without clusters). */
static uint64_t cluster_of(const gpu_grid *g, uint64_t b) {
    if (g->csize <= 1) return b;
    exec_dim3 c = block_coords(g, b);
    uint64_t ncx = g->dim.x / g->cdim.x, ncy = g->dim.y / g->cdim.y;
    return c.x / g->cdim.x + ncx * (c.y / g->cdim.y + ncy * (c.z / g->cdim.z));
}

/* ---- output and faults (g->lock) ---- */

static void grid_emit(gpu_grid *g, const char *data, size_t len) {
    if (g->sink) {
        gpu_output_append(g->sink, data, len);
    } else if (!g->print) {
        gpu_device_emit(g->dev, data, len);
    } else if (len > 0) {
        pthread_mutex_lock(&g->dev->print_lock);
        g->print(data, len, g->print_ctx);
        pthread_mutex_unlock(&g->dev->print_lock);
    }
}

/* Write out every finished block from the front, in order. Stops at the faulting block:
 * nothing after it is written. */
static void emit_ready(gpu_grid *g) {
    uint64_t stop = atomic_load(&g->fault_block);
    while (g->emit_next < g->nblocks && g->emit_next <= stop) {
        out_slot *s = &g->ring[g->emit_next % g->ring_size];
        if (!s->done)
            break;
        grid_emit(g, s->data, s->len);
        free(s->data);
        *s = (out_slot){0};
        g->emit_next++;
    }
    atomic_store(&g->emit_seen, g->emit_next);
}

/* Record that block b faulted; stop the lanes running later blocks of g. */
static void record_fault(gpu_grid *g, uint64_t b, const exec_fault *f) {
    if (b >= atomic_load(&g->fault_block))
        return;
    atomic_store(&g->fault_block, b);
    g->fault = *f;
    /* A lane that takes a block after the store above sees fault_block and skips the
     * block; one that took it before is in the busy list (both sides use the lock). */
    gpu_device *d = g->dev;
    pthread_mutex_lock(&d->sched_lock);
    for (gpu_lane *l = d->busy; l; l = l->busy_next) {
        uint64_t lb = atomic_load(&l->block);
        if (l->grid == g && (g->cooperative || lb > b ||
                             (g->csize > 1 && lb != NO_BLOCK && cluster_of(g, lb) == cluster_of(g, b))))
            __atomic_store_n(&l->abort, 1, __ATOMIC_RELAXED); /* read by exec */
    }
    pthread_mutex_unlock(&d->sched_lock);
    if (g->cooperative) {
        /* sleeping spin-waits see the abort at once */
        pthread_mutex_lock(&g->co_lock);
        pthread_cond_broadcast(&g->co_cond);
        pthread_mutex_unlock(&g->co_lock);
    }
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
        out_slot *s = &g->ring[b % g->ring_size];
        if (b == g->emit_next) {
            /* the common case: written straight from the lane's buffer, no copy */
            grid_emit(g, lane->out.data, lane->out.len);
            g->emit_next++;
            emit_ready(g);
        } else {
            s->done = true;
            if (lane->out.len > 0) {
                s->data = lane->out.data;
                s->len = lane->out.len;
                lane->out.data = NULL; /* the lane keeps its diagnostics buffer */
                lane->out.len = lane->out.cap = 0;
            }
        }
    }
    lane->out.len = 0;
    pthread_mutex_unlock(&g->lock);
}

/* ---- handing out blocks (d->sched_lock) ---- */

static void unlist(gpu_grid *g) {
    if (!g->listed)
        return;
    gpu_grid **p = &g->dev->active;
    while (*p != g)
        p = &(*p)->next;
    *p = g->next;
    g->next = NULL;
    g->listed = false;
}

/* Most blocks a lane takes at once: each take costs the device's lock (and, under load, a
 * wait for a lane that holds it while the host has preempted it: about 0.9 us a block on
 * two busy cores, more than a small block's own work), so a lane takes a run of
 * consecutive blocks and hands their output on together. (Grids of fewer than 8 blocks a
 * lane still go one block at a time: a small grid whose blocks wait for one another, which
 * CUDA does not promise but a GPU lets run, keeps working as before.)
 *
 * Long runs also keep the lanes apart in memory. Blocks usually work on memory in the
 * order of their index (a block's slice of an array, written in place), and two lanes
 * running neighbouring blocks at the same moment pull each other's lines between their
 * cores (their writes, and what the cores' prefetchers fetch ahead): with a block at a
 * time per lane, two lanes spent 1.75x the CPU time of one on a reduction of 512-thread
 * blocks, and with runs of 16 still 1.1-1.4x (lanes that took runs one after the other
 * work a run apart or less); with runs of 64, the same as one (bench/RESULTS.md,
 * "2026-11-27: two lanes' neighbouring blocks"). */
#define GPU_RUN_MAX 64u

/* How many blocks a lane asks for: a run of consecutive blocks while the grid has many
 * more left than lanes (a quarter of the lanes' share of what is left, so that the last
 * blocks still spread over every lane), one block at a time for clusters (each is a
 * co-resident group of its own). */
static uint64_t run_length(const gpu_grid *g) {
    if (g->csize > 1)
        return 1;
    uint64_t left = g->nunits - g->next_block;
    uint64_t n = left / (4u * (uint64_t)g->dev->nlanes);
    return n < 1 ? 1 : n > GPU_RUN_MAX ? GPU_RUN_MAX : n;
}

/* Whether unit k of g may start now: its SMs have room and its first block is within the
 * output ring's reach of the oldest unwritten one. */
static bool unit_fits(const gpu_grid *g, uint64_t k) {
    gpu_device *d = g->dev;
    if (unit_block(g, k, 0) >= atomic_load(&g->emit_seen) + g->ring_size)
        return false;
    uint32_t s = (uint32_t)((g->sm_base + k * g->csize) % g->num_sms);
    /* An empty SM takes any block, so that a block too big for the calculator still runs;
     * a cluster's blocks take consecutive SMs. */
    for (uint32_t r = 0; r < g->csize; r++) {
        uint64_t load = d->sm_load[(s + r) % g->num_sms];
        if (load != 0 && load + g->share > GPU_SM_CAPACITY)
            return false;
    }
    return true;
}

/* Take the next units of g that may start now, at most max of them in a row: 1 when *b
 * (the first), *n and *sm (the first's SM; unit b + i runs on SM sm + i, mod the SMs) are
 * set, 0 when the next must wait for room (its SM, or the output ring), -1 when g has no
 * block left to start. Each unit taken holds its room on its SMs until its run ends. */
static int take_run(gpu_grid *g, uint64_t max, uint64_t *b, uint64_t *n, uint32_t *sm) {
    gpu_device *d = g->dev;
    uint64_t k = g->next_block;
    if (k >= g->nunits)
        return -1;
    if (unit_block(g, k, 0) > atomic_load(&g->fault_block)) {
        /* a block before it faulted: later blocks never start */
        g->next_block = g->nunits;
        unlist(g);
        return -1;
    }
    uint64_t taken = 0;
    while (taken < max && k + taken < g->nunits && unit_fits(g, k + taken)) {
        uint32_t s = (uint32_t)((g->sm_base + (k + taken) * g->csize) % g->num_sms);
        for (uint32_t r = 0; r < g->csize; r++)
            d->sm_load[(s + r) % g->num_sms] += g->share;
        taken++;
    }
    if (!taken)
        return 0;
    g->next_block = k + taken;
    if (g->next_block >= g->nunits)
        unlist(g);
    g->blocks_out += taken;
    *b = k;
    *n = taken;
    *sm = (uint32_t)((g->sm_base + k * g->csize) % g->num_sms);
    return 1;
}

static void busy_add(gpu_device *d, gpu_lane *l) {
    l->busy_next = d->busy;
    l->busy_prev = &d->busy;
    if (d->busy)
        d->busy->busy_prev = &l->busy_next;
    d->busy = l;
}

static void busy_remove(gpu_lane *l) {
    *l->busy_prev = l->busy_next;
    if (l->busy_next)
        l->busy_next->busy_prev = l->busy_prev;
    l->busy_next = NULL;
    l->busy_prev = NULL;
}

/* The lane's own copy of g's launch, for the blocks it runs next (made once a run: the
 * launch is read by every lane, and the copy per block was a cache miss each time). */
static void lane_launch(gpu_grid *g, gpu_lane *lane) {
    lane->launch = *g->launch;
    lane->launch.cluster = lane->cluster;
    lane->launch.abort = &lane->abort;
    lane->launch.devrt = &gpu_dp_ops;
    lane->launch.devrt_ctx = lane;
}

/* Run block b of g on lane, as SM sm (d->sched_lock not held; the lane is in the busy
 * list, its launch made by lane_launch), its output left in lane->out: whether it ran, and *kind its result
 * (EXEC_FAULT_ABORTED when it was stopped, or never started after an earlier fault). */
static bool exec_block(gpu_grid *g, gpu_lane *lane, uint64_t b, uint32_t sm,
                       exec_fault_kind *kind) {
    *kind = EXEC_FAULT_ABORTED;
    lane->dp = g->dp;
    lane->dp_block = NULL;
    /* a cooperative grid's blocks wait for one another: after a fault none may start */
    bool run = g->cooperative ? atomic_load(&g->fault_block) == NO_BLOCK
                              : b <= atomic_load(&g->fault_block);
    if (!run)
        return false;
    gpu_device *outer_dev = running_device;
    gpu_grid *outer_grid = running_grid;
    running_device = g->dev;
    running_grid = g;
    *kind = exec_run_block(lane->worker, &lane->launch, block_coords(g, b), sm, &lane->out,
                           &lane->fault);
    running_device = outer_dev;
    running_grid = outer_grid;
    return true;
}

/* The grid's counts of blocks run and warp-instructions, after ran blocks that issued
 * insns (once per run of blocks: the counters' cache line is shared by every lane). */
static void count_blocks(gpu_grid *g, uint64_t ran, uint64_t insns) {
    if (!ran)
        return;
    atomic_fetch_add(&g->insns, insns);
    atomic_fetch_add(&g->blocks_run, ran);
    if (g->progress) __atomic_fetch_add(g->progress, ran, __ATOMIC_RELAXED);
}

/* Run block b of g on lane, as SM sm, count it and hand its output on (d->sched_lock not
 * held; the lane is in the busy list). */
static void exec_block_on_lane(gpu_grid *g, gpu_lane *lane, uint64_t b, uint32_t sm) {
    exec_fault_kind kind;
    uint64_t before = exec_worker_insn_count(lane->worker);
    lane_launch(g, lane);
    bool ran = exec_block(g, lane, b, sm, &kind);
    count_blocks(g, ran, exec_worker_insn_count(lane->worker) - before);
    finish_block(g, lane, b, kind);
}

/* Hand the blocks the lane holds to the grid's writer, as finish_block would have handed
 * them one by one: they finished cleanly (no fault, no diagnostics, no device-side
 * launch), so a fault of another block drops all of them or none. */
static void flush_held(gpu_grid *g, gpu_lane *lane) {
    if (!lane->held_n)
        return;
    uint64_t first = lane->held_first, last = first + lane->held_n - 1;
    pthread_mutex_lock(&g->lock);
    if (last <= atomic_load(&g->fault_block)) {
        if (first == g->emit_next) {
            /* the common case: written straight from the lane's buffer, no copy */
            grid_emit(g, lane->held.data, lane->held.len);
            g->emit_next = last + 1;
            emit_ready(g);
        } else {
            /* parked whole in the first block's slot; the others are done and empty */
            for (uint64_t b = first; b <= last; b++)
                g->ring[b % g->ring_size].done = true;
            if (lane->held.len > 0) {
                out_slot *s = &g->ring[first % g->ring_size];
                s->data = lane->held.data;
                s->len = lane->held.len;
                lane->held.data = NULL;
                lane->held.cap = 0;
            }
        }
    }
    pthread_mutex_unlock(&g->lock);
    lane->held.len = 0;
    lane->held_n = 0;
}

/* Run the n consecutive blocks from b of g on lane, block b + i as SM sm + i (d->sched_lock
 * not held; the lane is in the busy list). Blocks that finish cleanly are held and handed
 * on together (one g->lock for the run); any other block first hands on those held, then
 * itself, as finish_block does. */
static void exec_run_on_lane(gpu_grid *g, gpu_lane *lane, uint64_t b, uint64_t n, uint32_t sm) {
    uint64_t before = exec_worker_insn_count(lane->worker), ran = 0;
    lane_launch(g, lane);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t bi = b + i;
        atomic_store(&lane->block, bi);
        /* (after the store above: a fault recorded since aborts this block through the flag,
         * or the block sees fault_block and does not start) */
        __atomic_store_n(&lane->abort, 0, __ATOMIC_SEQ_CST);
        exec_fault_kind kind;
        ran += exec_block(g, lane, bi, (uint32_t)((sm + i) % g->num_sms), &kind);
        if (kind == EXEC_OK && !lane->dp_block && !lane->out.err_len) {
            if (!lane->held_n)
                lane->held_first = bi;
            lane->held_n++;
            if (lane->out.len && !lane->held.len) {
                /* (the buffers swapped, not copied) */
                char *data = lane->held.data;
                size_t cap = lane->held.cap;
                lane->held.data = lane->out.data;
                lane->held.cap = lane->out.cap;
                lane->held.len = lane->out.len;
                lane->out.data = data;
                lane->out.cap = cap;
            } else if (lane->out.len) {
                gpu_output_append(&lane->held, lane->out.data, lane->out.len);
            }
            lane->out.len = 0;
            continue;
        }
        flush_held(g, lane);
        finish_block(g, lane, bi, kind);
    }
    flush_held(g, lane);
    count_blocks(g, ran, exec_worker_insn_count(lane->worker) - before);
}

/* ---- clusters: the blocks of one cluster at once ---- */

typedef struct cluster_sibling {
    gpu_grid *g;
    gpu_lane lane;
    uint64_t b;
    uint32_t sm;
    pthread_t thread;
} cluster_sibling;

static void *cluster_sibling_main(void *arg) {
    cluster_sibling *cs = arg;
    exec_block_on_lane(cs->g, &cs->lane, cs->b, cs->sm);
    if (cs->g->launch->observer)
        exec_worker_observe_end(cs->lane.worker); /* the worker's only block */
    return NULL;
}

/* Run cluster k of g, whose first block goes to SM sm: its first block on lane, the others
 * at once on threads of their own (d->sched_lock not held; lane is in the busy list). */
static void run_cluster(gpu_grid *g, gpu_lane *lane, uint64_t k, uint32_t sm) {
    gpu_device *d = g->dev;
    cluster_sibling sibs[EXEC_CLUSTER_MAX];
    exec_cluster *c = exec_cluster_new(g->cdim);
    uint32_t started = 1;
    for (uint32_t r = 1; c && r < g->csize; r++) {
        cluster_sibling *cs = &sibs[r];
        memset(cs, 0, sizeof *cs);
        cs->g = g;
        cs->b = unit_block(g, k, r);
        cs->sm = (sm + r) % g->num_sms;
        cs->lane.dev = d;
        cs->lane.worker = exec_worker_new();
        cs->lane.cluster = c;
        cs->lane.grid = g;
        atomic_init(&cs->lane.block, cs->b);
        if (!cs->lane.worker)
            break;
        pthread_mutex_lock(&d->sched_lock);
        busy_add(d, &cs->lane);
        pthread_mutex_unlock(&d->sched_lock);
        if (pthread_create(&cs->thread, NULL, cluster_sibling_main, cs) != 0) {
            pthread_mutex_lock(&d->sched_lock);
            busy_remove(&cs->lane);
            pthread_mutex_unlock(&d->sched_lock);
            exec_worker_free(cs->lane.worker);
            break;
        }
        started++;
    }
    if (started < g->csize) {
        /* the host cannot start the cluster: the launch fails, and the blocks that started
         * stop (they could wait for the others for ever) */
        exec_fault f;
        memset(&f, 0, sizeof f);
        f.kind = EXEC_FAULT_ILLEGAL_ADDRESS;
        snprintf(f.msg, sizeof f.msg,
                 "vcuda: cannot start %u host threads for the blocks of a cluster", g->csize);
        pthread_mutex_lock(&g->lock);
        record_fault(g, unit_block(g, k, 0), &f);
        pthread_mutex_unlock(&g->lock);
    }
    lane->cluster = c;
    if (c)
        exec_block_on_lane(g, lane, unit_block(g, k, 0), sm);
    lane->cluster = NULL;
    for (uint32_t r = 1; r < started; r++) {
        cluster_sibling *cs = &sibs[r];
        pthread_join(cs->thread, NULL);
        pthread_mutex_lock(&d->sched_lock);
        busy_remove(&cs->lane);
        pthread_mutex_unlock(&d->sched_lock);
        free(cs->lane.out.data);
        free(cs->lane.out.err);
        exec_worker_free(cs->lane.worker);
    }
    exec_cluster_free(c);
}

/* Run the n units from b of g on lane (n blocks, or one cluster), the first as SM sm.
 * Called and returns with d->sched_lock held.
 *
 * A launch that an observer watches (profiler, checker) keeps the lane: it goes on with
 * g's next blocks while it can take them, and then ends the observer's state for this
 * worker (exec_worker_observe_end) before its last block counts as finished, so that the
 * observer has heard from every worker by the time the grid completes. */
static void run_block(gpu_grid *g, gpu_lane *lane, uint64_t b, uint64_t n, uint32_t sm) {
    gpu_device *d = g->dev;
    bool observed = g->launch->observer != NULL;
    for (;;) {
        __atomic_store_n(&lane->abort, 0, __ATOMIC_RELAXED);
        lane->grid = g;
        atomic_store(&lane->block, unit_block(g, b, 0));
        busy_add(d, lane);
        if (lane->counted_grid != g->seq) {
            lane->counted_grid = g->seq;
            g->threads++;
        }
        pthread_mutex_unlock(&d->sched_lock);
        if (g->csize > 1)
            run_cluster(g, lane, b, sm);
        else
            exec_run_on_lane(g, lane, b, n, sm);
        pthread_mutex_lock(&d->sched_lock);
        busy_remove(lane);
        lane->grid = NULL;
        atomic_store(&lane->block, NO_BLOCK);
        for (uint64_t i = 0; i < n * g->csize; i++)
            d->sm_load[(sm + i) % g->num_sms] -= g->share;
        /* Room on an SM, or in a grid's output ring: whoever waited for it may go on. */
        if (d->room_waiters)
            pthread_cond_broadcast(&d->sched_wake);
        uint64_t next, next_n;
        uint32_t next_sm;
        if (!observed || take_run(g, run_length(g), &next, &next_n, &next_sm) != 1)
            break;
        g->blocks_out -= n; /* the ones just finished; those taken keep g open */
        b = next;
        n = next_n;
        sm = next_sm;
    }
    if (observed) {
        pthread_mutex_unlock(&d->sched_lock);
        exec_worker_observe_end(lane->worker); /* the launch's last block on this worker */
        pthread_mutex_lock(&d->sched_lock);
    }
    g->blocks_out -= n;
    if (g->next_block >= g->nunits && g->blocks_out == 0)
        pthread_cond_broadcast(&g->done);
}

void *gpu_pool_lane_main(void *arg) {
    gpu_lane *lane = arg;
    gpu_device *d = lane->dev;
    pthread_mutex_lock(&d->sched_lock);
    while (!d->shutdown) {
        bool blocked = false;
        gpu_grid *g = d->active, *next;
        uint64_t b = 0, n = 0;
        uint32_t sm = 0;
        for (; g; g = next) {
            next = g->next; /* take_run may unlist g */
            int r = take_run(g, run_length(g), &b, &n, &sm);
            if (r == 1)
                break;
            if (r == 0)
                blocked = true;
        }
        if (g) {
            run_block(g, lane, b, n, sm);
            continue;
        }
        if (blocked)
            d->room_waiters++;
        pthread_cond_wait(&d->sched_wake, &d->sched_lock);
        if (blocked)
            d->room_waiters--;
    }
    pthread_mutex_unlock(&d->sched_lock);
    return NULL;
}

/* ---- a grid from start to end ---- */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A grid launched from inside a running block of this device: run it here, on this
 * thread, with a worker of its own (the block that launched it holds this lane's). It
 * takes no SM room: the launching block's resources stand for it. */
static void run_nested(gpu_grid *g) {
    gpu_lane lane;
    memset(&lane, 0, sizeof lane);
    lane.dev = g->dev;
    lane.worker = gpu_spare_worker_take(g->dev);
    atomic_init(&lane.block, NO_BLOCK);
    gpu_device *outer_dev = running_device;
    gpu_grid *outer_grid = running_grid;
    running_device = g->dev;
    running_grid = g;
    lane.launch = *g->launch;
    lane.launch.abort = &lane.abort;
    lane.launch.devrt = &gpu_dp_ops;
    lane.launch.devrt_ctx = &lane;
    lane.dp = g->dp;
    uint64_t before = exec_worker_insn_count(lane.worker);
    g->threads = 1;
    /* The grid's only lane: a fault stops it before the next block, and nothing of the
     * outer grid. */
    for (uint64_t b = 0; b < g->nblocks && b <= atomic_load(&g->fault_block); b++) {
        atomic_store(&lane.block, b);
        lane.dp_block = NULL;
        exec_fault_kind kind =
            exec_run_block(lane.worker, &lane.launch, block_coords(g, b),
                           (uint32_t)((g->sm_base + b) % g->num_sms), &lane.out, &lane.fault);
        atomic_fetch_add(&g->blocks_run, 1);
        if (g->progress) __atomic_fetch_add(g->progress, 1, __ATOMIC_RELAXED);
        finish_block(g, &lane, b, kind);
    }
    exec_worker_observe_end(lane.worker); /* the launch's last block on this worker */
    atomic_fetch_add(&g->insns, exec_worker_insn_count(lane.worker) - before);
    running_device = outer_dev;
    running_grid = outer_grid;
    free(lane.out.data);
    free(lane.out.err);
    gpu_spare_worker_give(g->dev, lane.worker);
}

/* The least loaded SM (the lowest such), where a newly arrived grid starts. */
static uint32_t least_loaded_sm(const gpu_device *d, uint32_t num_sms) {
    uint32_t best = 0;
    for (uint32_t s = 1; s < num_sms; s++) {
        if (d->sm_load[s] < d->sm_load[best])
            best = s;
    }
    return best;
}

/* Put g in the active list after every grid of the same or better priority. */
static void admit(gpu_device *d, gpu_grid *g) {
    g->seq = ++d->grid_seq;
    g->sm_base = least_loaded_sm(d, g->num_sms);
    gpu_grid **p = &d->active;
    while (*p && (*p)->priority <= g->priority)
        p = &(*p)->next;
    g->next = *p;
    *p = g;
    g->listed = true;
}

/* The calling thread runs its grid's blocks, with the pool's help, until none is left. */
static void run_shared(gpu_grid *g) {
    gpu_device *d = g->dev;
    gpu_lane lane;
    memset(&lane, 0, sizeof lane);
    lane.dev = d;
    lane.worker = gpu_spare_worker_take(d);
    atomic_init(&lane.block, NO_BLOCK);

    pthread_mutex_lock(&d->sched_lock);
    admit(d, g);
    if (g->nunits > 1 && d->nlanes > 1) {
        gpu_pool_start(d);
        /* Wake no more pool lanes than the grid can use beside the caller (a lane not
         * asleep right now finds the grid before it next waits). */
        uint64_t helpers = g->nunits - 1 < d->nlanes - 1 ? g->nunits - 1 : d->nlanes - 1;
        for (uint64_t i = 0; i < helpers; i++)
            pthread_cond_signal(&d->sched_wake);
    }
    for (;;) {
        uint64_t b, n;
        uint32_t sm;
        int r = take_run(g, run_length(g), &b, &n, &sm);
        if (r == 1) {
            run_block(g, &lane, b, n, sm);
            continue;
        }
        if (r < 0)
            break;
        d->room_waiters++;
        pthread_cond_wait(&d->sched_wake, &d->sched_lock);
        d->room_waiters--;
    }
    while (g->blocks_out > 0)
        pthread_cond_wait(&g->done, &d->sched_lock);
    unlist(g);
    pthread_mutex_unlock(&d->sched_lock);
    free(lane.out.data);
    free(lane.out.err);
    free(lane.held.data);
    gpu_spare_worker_give(d, lane.worker);
}

/* ---- cooperative grids: every block at once ---- */

typedef struct coop_block {
    gpu_grid *g;
    gpu_lane lane;
    uint64_t b;
    uint32_t sm;
    pthread_t thread;
} coop_block;

static void *coop_block_main(void *arg) {
    coop_block *cb = arg;
    gpu_grid *g = cb->g;
    gpu_device *d = g->dev;
    exec_block_on_lane(g, &cb->lane, cb->b, cb->sm);
    if (g->launch->observer)
        exec_worker_observe_end(cb->lane.worker); /* the launch's only block on this worker */
    pthread_mutex_lock(&d->sched_lock);
    busy_remove(&cb->lane);
    cb->lane.grid = NULL;
    atomic_store(&cb->lane.block, NO_BLOCK);
    d->sm_load[cb->sm] -= g->share;
    if (d->room_waiters)
        pthread_cond_broadcast(&d->sched_wake);
    pthread_mutex_unlock(&d->sched_lock);
    return NULL;
}

/* A spin-wait of a cooperative grid's block sleeps until the grid barrier completes after
 * the completions it has seen, or for 10 us doubling with each round up to a limit that
 * grows with the grid (50 us a block, from 1 to 50 ms): with a few host cores and
 * thousands of blocks, a block waiting for others must leave the cores to them, and the
 * barrier itself wakes it at once. A block that arrived at the barrier and polls it
 * (round 0) waits for the barrier alone, and for 100 ms at most (so that it still looks
 * at the kernel's deadline). */
static void coop_wait(void *ctx, uint32_t round, uint64_t *seen) {
    gpu_grid *g = ctx;
    uint64_t limit = g->nblocks * 5000ull;
    if (limit < 1000000ull)
        limit = 1000000ull;
    if (limit > 50000000ull)
        limit = 50000000ull;
    uint64_t ns = round == 0 ? 100000000ull : round > 20 ? limit : 10000ull << (round - 1);
    if (round && ns > limit)
        ns = limit;
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    uint64_t t = (uint64_t)until.tv_nsec + ns;
    until.tv_sec += (time_t)(t / 1000000000ull);
    until.tv_nsec = (long)(t % 1000000000ull);
    pthread_mutex_lock(&g->co_lock);
    while (g->co_flips == *seen && atomic_load(&g->fault_block) == NO_BLOCK) {
        if (pthread_cond_timedwait(&g->co_cond, &g->co_lock, &until) != 0)
            break;
    }
    *seen = g->co_flips;
    pthread_mutex_unlock(&g->co_lock);
}

static void coop_flipped(void *ctx) {
    gpu_grid *g = ctx;
    pthread_mutex_lock(&g->co_lock);
    g->co_flips++;
    pthread_cond_broadcast(&g->co_cond);
    pthread_mutex_unlock(&g->co_lock);
}

/* Run every block of g at once, each on a thread of its own with a worker of its own. The
 * workers come from the device's spare ones and go back there: a program launches its
 * cooperative kernel again and again (a solver's iterations, a benchmark's repetitions),
 * and fresh workers cost each launch the page faults of every block's registers, shared
 * and local memory (0.5 GB a launch of 264 blocks of 1,024 threads). What is kept is
 * what the largest such grid needed at once, which co-residency bounds. */
static void run_cooperative(gpu_grid *g) {
    gpu_device *d = g->dev;
    coop_block *cbs = calloc(g->nblocks, sizeof *cbs);
    /* with clusters, each block's lane names its cluster */
    uint64_t nclusters = g->csize > 1 ? g->nblocks / g->csize : 0;
    exec_cluster **clusters = nclusters ? calloc(nclusters, sizeof *clusters) : NULL;
    bool ok = cbs && (!nclusters || clusters);
    for (uint64_t i = 0; ok && i < nclusters; i++)
        ok = (clusters[i] = exec_cluster_new(g->cdim)) != NULL;
    uint64_t started = 0;
    if (ok) {
        pthread_mutex_lock(&d->sched_lock);
        g->seq = ++d->grid_seq;
        g->sm_base = least_loaded_sm(d, g->num_sms);
        for (uint64_t b = 0; b < g->nblocks; b++) {
            coop_block *cb = &cbs[b];
            cb->g = g;
            cb->b = b;
            cb->sm = (uint32_t)((g->sm_base + b) % g->num_sms);
            cb->lane.dev = d;
            cb->lane.worker = gpu_spare_worker_take(d);
            cb->lane.cluster = nclusters ? clusters[cluster_of(g, b)] : NULL;
            atomic_init(&cb->lane.block, b);
            cb->lane.grid = g;
            if (!cb->lane.worker)
                break;
            busy_add(d, &cb->lane);
            d->sm_load[cb->sm] += g->share;
            if (pthread_create(&cb->thread, NULL, coop_block_main, cb) != 0) {
                busy_remove(&cb->lane);
                d->sm_load[cb->sm] -= g->share;
                gpu_spare_worker_give(d, cb->lane.worker);
                break;
            }
            started++;
        }
        g->threads = (unsigned)started;
        pthread_mutex_unlock(&d->sched_lock);
    }
    if (started < g->nblocks) {
        /* the host cannot hold the grid at once: the launch fails, and the blocks that
         * started stop (they could wait for the others for ever) */
        exec_fault f;
        memset(&f, 0, sizeof f);
        f.kind = EXEC_FAULT_ILLEGAL_ADDRESS;
        snprintf(f.msg, sizeof f.msg,
                 "vcuda: cannot start %llu host threads for the blocks of a cooperative grid",
                 (unsigned long long)g->nblocks);
        pthread_mutex_lock(&g->lock);
        record_fault(g, 0, &f);
        pthread_mutex_unlock(&g->lock);
    }
    for (uint64_t b = 0; b < started; b++) {
        pthread_join(cbs[b].thread, NULL);
        free(cbs[b].lane.out.data);
        free(cbs[b].lane.out.err);
        gpu_spare_worker_give(d, cbs[b].lane.worker);
    }
    free(cbs);
    for (uint64_t i = 0; clusters && i < nclusters; i++)
        exec_cluster_free(clusters[i]);
    free(clusters);
}

/* A grid workspace: the barrier word pair cooperative groups' grid.sync() counts
 * arrivals in (at offset 4), zeroed, in the device's allocation table so that the
 * executor's checked accesses reach it. A cooperative grid has one of its own; every
 * other grid shares the device's (as on a GPU, this_grid().is_valid() is true in any
 * launch), where the executor refuses grid.sync() (exec/atomic.c). */
#define COOP_WORKSPACE_BYTES 16u

uint64_t gpu_grid_workspace_new(gpu_device *d) {
    void *p = calloc(1, COOP_WORKSPACE_BYTES);
    if (!p)
        return 0;
    uint64_t base = (uint64_t)(uintptr_t)p;
    if (!mem_table_add(d->mem, base, COOP_WORKSPACE_BYTES, MEM_KIND_INTERNAL, 0)) {
        free(p);
        return 0;
    }
    return base;
}

void gpu_grid_workspace_free(gpu_device *d, uint64_t base) {
    if (!base)
        return;
    mem_table_remove(d->mem, base, NULL);
    free((void *)(uintptr_t)base);
}

/* Residency units per block of a grid holding blocks_per_sm blocks per SM. */
static uint64_t block_share(const gpu_preset *p, const exec_launch *L, int blocks_per_sm) {
    if (blocks_per_sm <= 0) {
        int threads = (int)(L->block.x * L->block.y * L->block.z);
        blocks_per_sm = gpu_occupancy_calc(p, threads, 0, L->dyn_shared).blocks_per_sm;
    }
    if (blocks_per_sm < 1)
        blocks_per_sm = 1;          /* it cannot fit: it runs alone on an SM */
    if (blocks_per_sm > 32)
        blocks_per_sm = 32;         /* no SM holds more (and the capacity divides by 32) */
    return GPU_SM_CAPACITY / (uint64_t)blocks_per_sm;
}

/* A grid's blocks, with the sharing options, what they launch going to dp and their
 * output to sink when there is one. */
static exec_fault_kind run_blocks(gpu_device *d, exec_launch *L, const gpu_grid_opts *opts,
                                  exec_fault *fault, gpu_grid_stats *stats, gpu_dp_grid *dp,
                                  exec_output *sink) {
    double start = now_seconds();
    const gpu_preset *p = d->preset;
    L->num_sms = (uint32_t)p->multiprocessor_count;
    L->clock_khz = (uint32_t)p->clock_khz;
    L->warp_barriers = p->major < 7;
    L->grid_id = atomic_fetch_add(&d->next_grid_id, 1);
    L->deadline_ns = d->kernel_timeout_ns
        ? (uint64_t)(start * 1e9) + d->kernel_timeout_ns : 0;
    L->stack_limit = d->stack_limit;
    L->heap = &d->heap;

    bool nested = running_device == d;
    gpu_grid g;
    memset(&g, 0, sizeof g);
    g.dev = d;
    g.launch = L;
    g.dim = L->grid;
    g.nblocks = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
    g.num_sms = L->num_sms;
    g.dp = dp;
    g.sink = sink;
    g.priority = opts ? opts->priority : 0;
    g.progress = opts ? opts->blocks_done : NULL;
    g.share = block_share(p, L, opts ? opts->blocks_per_sm : 0);
    if (opts && opts->print) {
        g.print = opts->print;
        g.print_ctx = opts->print_ctx;
    } else if (nested && running_grid) {
        g.print = running_grid->print;      /* a child prints where its parent does */
        g.print_ctx = running_grid->print_ctx;
    }
    atomic_init(&g.fault_block, NO_BLOCK);
    atomic_init(&g.emit_seen, 0);
    atomic_init(&g.blocks_run, 0);
    atomic_init(&g.insns, 0);
    g.cooperative = opts && opts->cooperative && !nested;
    if (!g.cooperative)
        L->grid_workspace = d->grid_workspace;
    /* clusters of more than one block (the launch checked that they tile the grid); a
     * grid launched from a block runs its blocks one by one, as clusters of one */
    g.cdim = L->cluster_dim;
    if (!g.cdim.x || !g.cdim.y || !g.cdim.z || nested || g.dim.x % g.cdim.x ||
        g.dim.y % g.cdim.y || g.dim.z % g.cdim.z ||
        (uint64_t)g.cdim.x * g.cdim.y * g.cdim.z > EXEC_CLUSTER_MAX)
        g.cdim = (exec_dim3){1, 1, 1};
    g.csize = g.cdim.x * g.cdim.y * g.cdim.z;
    L->cluster_dim = g.cdim;
    L->cluster = NULL;
    g.nunits = g.csize > 1 && !g.cooperative ? g.nblocks / g.csize : g.nblocks;
    /* a cooperative grid's blocks all run at once, and a cluster's: each may finish first */
    g.ring_size = g.nblocks < RING_MAX || g.cooperative || g.csize > 1 ? g.nblocks : RING_MAX;
    if (g.cooperative) {
        pthread_mutex_init(&g.co_lock, NULL);
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&g.co_cond, &ca);
        pthread_condattr_destroy(&ca);
        g.co = (exec_coresident){coop_wait, coop_flipped, &g};
        L->grid_workspace = gpu_grid_workspace_new(d);
        L->coresident = &g.co;
        if (!L->grid_workspace && g.nblocks > 0) {
            g.nblocks = 0;
            atomic_store(&g.fault_block, 0);
            g.fault.kind = EXEC_FAULT_ILLEGAL_ADDRESS;
            strcpy(g.fault.msg, "out of host memory starting the grid");
        }
    }
    pthread_mutex_init(&g.lock, NULL);
    pthread_cond_init(&g.done, NULL);

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
        g.sm_base = 0;
        run_nested(&g);
    } else if (g.nblocks > 0 && g.cooperative) {
        run_cooperative(&g);
    } else if (g.nblocks > 0) {
        run_shared(&g);
    }
    /* Every block up to the fault (or all) is written by now, since a block's output
     * is written when the last of the blocks before it finishes; then what blocks
     * printed after their device-side launches. Stdout is flushed once a grid when output
     * goes there, as a GPU's printf buffer is flushed at synchronisation. */
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
    if (!g.print && !g.sink) {
        pthread_mutex_lock(&d->print_lock);
        fflush(stdout);
        pthread_mutex_unlock(&d->print_lock);
    }

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
        stats->host_threads = g.threads;
        stats->host_seconds = now_seconds() - start;
    }
    if (g.cooperative) {
        gpu_grid_workspace_free(d, L->grid_workspace);
        L->grid_workspace = 0;
        L->coresident = NULL;
        pthread_cond_destroy(&g.co_cond);
        pthread_mutex_destroy(&g.co_lock);
    }
    pthread_cond_destroy(&g.done);
    pthread_mutex_destroy(&g.lock);
    return result;
}

exec_fault_kind gpu_grid_run_blocks(gpu_device *d, exec_launch *L, exec_fault *fault,
                                    gpu_grid_stats *stats, gpu_dp_grid *dp, exec_output *sink) {
    return run_blocks(d, L, NULL, fault, stats, dp, sink);
}

exec_fault_kind gpu_run_grid_opts(gpu_device *d, exec_launch *L, const gpu_grid_opts *opts,
                                  exec_fault *fault, gpu_grid_stats *stats) {
    exec_fault local;
    if (!fault) fault = &local;
    gpu_dp_grid dp;
    gpu_dp_grid_init(&dp, d, 0);
    exec_fault_kind k = run_blocks(d, L, opts, fault, stats, &dp, NULL);
    gpu_dp_launch *work = k == EXEC_OK ? gpu_dp_grid_take_work(&dp) : NULL;
    gpu_dp_grid_destroy(&dp);
    /* the grids its blocks launched, to any depth: the grid is complete after them (their
     * cost is theirs: *stats describes this grid's blocks); their output goes where the
     * grid's went */
    if (work && opts && opts->print) {
        exec_output out = {0};
        k = gpu_dp_run(d, work, &out, fault);
        if (out.len) {
            pthread_mutex_lock(&d->print_lock);
            opts->print(out.data, out.len, opts->print_ctx);
            pthread_mutex_unlock(&d->print_lock);
        }
        free(out.data);
        free(out.err);
    } else if (work) {
        k = gpu_dp_run(d, work, NULL, fault);
    }
    return k;
}

exec_fault_kind gpu_run_grid_stats(gpu_device *d, exec_launch *L, exec_fault *fault,
                                   gpu_grid_stats *stats) {
    return gpu_run_grid_opts(d, L, NULL, fault, stats);
}

exec_fault_kind gpu_run_grid(gpu_device *d, exec_launch *L, exec_fault *fault) {
    return gpu_run_grid_opts(d, L, NULL, fault, NULL);
}
