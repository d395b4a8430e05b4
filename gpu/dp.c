/* gpu/dp.c — dynamic parallelism: grids launched from device code, the device-side
 * streams and events of a block, the limits, and the order everything runs and prints in.
 *
 * When child grids run. CUDA guarantees a child grid nothing about when it starts: it may
 * start at once or only once its parent block has ended, and a parent grid is complete
 * only when every grid it launched (and they launched) is. vcuda runs a grid's device-side
 * launches after all of the grid's blocks have finished: block by block, each block's
 * launches in the order its threads issued them, each launched grid to completion (its
 * blocks, then its own launches, then its tail launches) before the next; the grid's
 * tail launches (cudaStreamTailLaunch) come last, in the same order. Issue order within a
 * block satisfies every stream and event dependency CUDA lets a block express (a thread
 * can only wait for an event recorded before), and blocks cannot depend on each other's
 * launches, so this one order is always a valid schedule: no program deadlocks on it, and
 * a program gets the same result on every run. A parent block never waits for a child, so
 * everything the parent wrote is visible to the child, and everything the children wrote
 * is visible to a tail launch and to the host. The runner keeps an explicit stack, not the
 * host's: nesting depth costs heap, not host stack.
 *
 * The legacy model (CDP1, presets before Hopper) lets a block wait for its children with
 * cudaDeviceSynchronize: the waiting block is swapped out, as the GPU does. Here its lane
 * runs every grid the block launched so far, on its own thread, with spare workers, and
 * then the block goes on; their printf output is placed in the block's own output.
 *
 * printf order. A device launch takes microseconds on a GPU; meanwhile the other warps of
 * the block and the other blocks of the grid run on. On the H100 (tests/cuda/expected/
 * nestedHelloWorldBlocks*.out) what a warp prints after its launch comes after what every
 * warp of every block printed before launching anything. vcuda reproduces that timing:
 * what a warp prints after its k-th launch belongs to "epoch" k (exec/devrt.c keeps the
 * count); a block's output up to its first output of a later epoch is printed in block
 * order as usual, the rest is held back and printed once the grid's blocks are done,
 * epoch by epoch, block by block. A grid that launches nothing prints exactly as before.
 *
 * Pending launches. cudaLimitDevRuntimePendingLaunchCount bounds the launches from device
 * code that are outstanding; a launch over the limit fails with
 * cudaErrorLaunchPendingCountExceeded. A launch stays outstanding until its grid and all
 * it launched have finished. The H100 shows this accounting: N blocks each launching one
 * child get exactly min(N, 2048) launches accepted, tail launches over a limit of 100 are
 * refused from the 101st on, and the recursive reductions of nestedReduce2 with 2048
 * blocks (gpuRecursiveReduceNosync, gpuRecursiveReduceTail) run out of launches while
 * gpuRecursiveReduce2 does not (tests/cuda/expected/dpLimits*.out, nestedReduce2_2048.out).
 *
 * Depth. Under CDP2 an H100 ran a recursion 40 grids deep, by nested and by tail
 * launches, without an error: no depth limit applies beyond the pending count. The legacy
 * model keeps CUDA's nesting limit of 24 (cudaErrorLaunchMaxDepthExceeded) and the sync
 * depth (cudaLimitDevRuntimeSyncDepth, cudaErrorSyncDepthExceeded).
 *
 * Configurations. A launch from device code is checked against the device's limits and
 * the kernel's: a dimension of 0 or over the limit, too many threads, too much shared
 * memory all give cudaErrorInvalidConfiguration (not cudaErrorInvalidValue as on the
 * host; tests/cuda/expected/dpApi.out).
 */
#include "dp.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GPU_DP_MAX_DEPTH 24u /* nesting limit of the legacy model */

/* the cudaLimit the device answers itself */
enum { DP_LIMIT_PENDING_LAUNCH_COUNT = 4 };

void gpu_output_append(exec_output *o, const char *data, size_t len) {
    if (!o || !len) return;
    if (o->len + len + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->len + len + 1) cap *= 2;
        char *n = realloc(o->data, cap);
        if (!n) return; /* out of host memory: the output is lost, not the program */
        o->data = n;
        o->cap = cap;
    }
    memcpy(o->data + o->len, data, len);
    o->len += len;
    o->data[o->len] = 0;
}

/* ---- settings ---- */

void gpu_device_set_dp_host(gpu_device *d, const gpu_dp_host *host) {
    if (host) d->dp_host = *host;
    else memset(&d->dp_host, 0, sizeof d->dp_host);
}

void gpu_device_set_dp_limits(gpu_device *d, uint64_t pending_launch_count, uint64_t sync_depth) {
    d->dp_pending_limit = pending_launch_count;
    d->dp_sync_depth_limit = sync_depth;
}

/* ---- graph execution environments ---- */

static void free_launches(gpu_device *d, gpu_dp_launch *l);

/* Device graphs queued or running: a device launch of one is refused
 * (cudaErrorInvalidValue, as on an H100: tests/cuda/expected/dpGraphHost_*.out), but for
 * the one tail launch of itself a running graph may queue. Counted per executable graph,
 * from the launch accepted (or the host's launch issued) to its environment's end. */
typedef struct dp_busy {
    uint64_t exec;
    uint32_t n;
} dp_busy;
static pthread_mutex_t dp_busy_lock = PTHREAD_MUTEX_INITIALIZER;
static dp_busy *dp_busy_list;
static size_t dp_nbusy, dp_busy_cap;

/* Count a launch of exec; false when one is already counted and running is not allowed
 * (or out of memory). */
static bool busy_take(uint64_t exec, bool running_ok) {
    if (!exec) return true;
    pthread_mutex_lock(&dp_busy_lock);
    bool ok = true;
    size_t i = 0;
    while (i < dp_nbusy && dp_busy_list[i].exec != exec) i++;
    if (i < dp_nbusy) {
        if (!running_ok) ok = false;
        else dp_busy_list[i].n++;
    } else if (dp_nbusy == dp_busy_cap) {
        size_t cap = dp_busy_cap ? dp_busy_cap * 2 : 8;
        dp_busy *n = realloc(dp_busy_list, cap * sizeof *n);
        if (n) {
            dp_busy_list = n;
            dp_busy_cap = cap;
            dp_busy_list[dp_nbusy++] = (dp_busy){exec, 1};
        } else {
            ok = false;
        }
    } else {
        dp_busy_list[dp_nbusy++] = (dp_busy){exec, 1};
    }
    pthread_mutex_unlock(&dp_busy_lock);
    return ok;
}

static void busy_drop(uint64_t exec) {
    if (!exec) return;
    pthread_mutex_lock(&dp_busy_lock);
    for (size_t i = 0; i < dp_nbusy; i++) {
        if (dp_busy_list[i].exec != exec) continue;
        if (--dp_busy_list[i].n == 0) dp_busy_list[i] = dp_busy_list[--dp_nbusy];
        break;
    }
    pthread_mutex_unlock(&dp_busy_lock);
}

static gpu_dp_env *env_new(uint64_t exec, bool host) {
    gpu_dp_env *env = calloc(1, sizeof *env);
    if (!env) return NULL;
    env->exec = exec;
    env->host = host;
    env->tails_end = &env->tails;
    pthread_mutex_init(&env->lock, NULL);
    return env;
}

/* The environment ends: its graph is no longer running; tail launches still queued in
 * it are discarded. */
static void env_free(gpu_device *d, gpu_dp_env *env) {
    if (!env) return;
    busy_drop(env->exec);
    if (env->tails) free_launches(d ? d : env->dev, env->tails);
    pthread_mutex_destroy(&env->lock);
    free(env);
}

/* The environment a block's grid runs in: a device-launched graph's, else the one of the
 * host-launched graph its grid is a node of. */
static gpu_dp_env *lane_env(gpu_lane *lane) {
    return lane->dp->env ? lane->dp->env : lane->launch.graph_env;
}

gpu_dp_env *gpu_graph_env_new(uint64_t exec) {
    gpu_dp_env *env = env_new(exec, true);
    if (env && !busy_take(exec, true)) { /* (out of memory: not counted) */
        env->exec = 0;
    }
    return env;
}

exec_fault_kind gpu_graph_env_finish(gpu_dp_env *env, exec_output *sink, exec_fault *fault) {
    if (!env) return EXEC_OK;
    gpu_device *d = env->dev;
    gpu_dp_launch *tails = env->tails;
    env->tails = NULL;
    env_free(d, env);
    return d ? gpu_dp_run(d, tails, sink, fault) : EXEC_OK;
}

void gpu_graph_env_free(gpu_dp_env *env) { env_free(NULL, env); }

/* ---- the grid's state ---- */

void gpu_dp_grid_init(gpu_dp_grid *g, gpu_device *d, uint32_t depth) {
    memset(g, 0, sizeof *g);
    g->dev = d;
    g->depth = depth;
    pthread_mutex_init(&g->lock, NULL);
}

static void free_launches(gpu_device *d, gpu_dp_launch *l) {
    while (l) {
        gpu_dp_launch *next = l->next;
        if (l->env_last) env_free(d, l->env); /* an environment that will never complete */
        if (!l->copy) atomic_fetch_sub(&d->dp_outstanding, 1);
        free(l->copy);
        free(l);
        l = next;
    }
}

static void free_block(gpu_device *d, gpu_dp_block *b) {
    free_launches(d, b->work);
    free_launches(d, b->tails);
    free_launches(d, b->gtails);
    for (size_t i = 0; i < b->nhandles; i++) free(b->handles[i]);
    free(b->handles);
    free(b->epochs);
    free(b);
}

void gpu_dp_grid_destroy(gpu_dp_grid *g) {
    for (gpu_dp_block *b = g->done, *n; b; b = n) {
        n = b->next;
        free_block(g->dev, b);
    }
    for (size_t i = 0; i < g->nlate; i++) free(g->late[i].data);
    free(g->late);
    pthread_mutex_destroy(&g->lock);
}

static bool hold_back(gpu_dp_grid *g, uint64_t block, uint32_t epoch, uint32_t seq,
                      const char *data, size_t len) {
    if (g->nlate == g->late_cap) {
        size_t cap = g->late_cap ? g->late_cap * 2 : 16;
        gpu_dp_segment *n = realloc(g->late, cap * sizeof *n);
        if (!n) return false;
        g->late = n;
        g->late_cap = cap;
    }
    char *copy = malloc(len);
    if (!copy) return false;
    memcpy(copy, data, len);
    g->late[g->nlate++] = (gpu_dp_segment){block, epoch, seq, copy, len};
    return true;
}

size_t gpu_dp_block_finish(gpu_dp_grid *g, gpu_lane *lane, uint64_t b, bool keep) {
    gpu_dp_block *blk = lane->dp_block;
    lane->dp_block = NULL;
    size_t now = lane->out.len;
    if (!blk) return now;
    if (!keep) {
        free_block(g->dev, blk);
        return now;
    }
    pthread_mutex_lock(&g->lock);
    if (blk->nepochs > 0 && blk->epochs[0].offset < now) {
        /* from the first change of epoch on, each run of one epoch waits for its turn */
        for (size_t k = 0; k < blk->nepochs; k++) {
            size_t from = blk->epochs[k].offset;
            size_t to = k + 1 < blk->nepochs ? blk->epochs[k + 1].offset : lane->out.len;
            if (to > from)
                hold_back(g, b, blk->epochs[k].epoch, (uint32_t)k, lane->out.data + from, to - from);
        }
        now = blk->epochs[0].offset;
    }
    blk->next = g->done;
    g->done = blk;
    pthread_mutex_unlock(&g->lock);
    return now;
}

static int cmp_segment(const void *a, const void *b) {
    const gpu_dp_segment *x = a, *y = b;
    if (x->epoch != y->epoch) return x->epoch < y->epoch ? -1 : 1;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void gpu_dp_late_output(gpu_dp_grid *g, uint64_t last_block, exec_output *out) {
    qsort(g->late, g->nlate, sizeof *g->late, cmp_segment);
    for (size_t i = 0; i < g->nlate; i++)
        if (g->late[i].block <= last_block)
            gpu_output_append(out, g->late[i].data, g->late[i].len);
}

static int cmp_block(const void *a, const void *b) {
    const gpu_dp_block *x = *(gpu_dp_block *const *)a, *y = *(gpu_dp_block *const *)b;
    return x->block < y->block ? -1 : x->block > y->block;
}

gpu_dp_launch *gpu_dp_grid_take_work(gpu_dp_grid *g) {
    size_t n = 0;
    for (gpu_dp_block *b = g->done; b; b = b->next) n++;
    if (n == 0) return NULL;
    gpu_dp_block **v = malloc(n * sizeof *v);
    if (!v) return NULL; /* the launches stay with the grid and are discarded with it */
    n = 0;
    for (gpu_dp_block *b = g->done; b; b = b->next) v[n++] = b;
    qsort(v, n, sizeof *v, cmp_block);
    gpu_dp_launch *head = NULL, **end = &head;
    for (int tails = 0; tails < 2; tails++)
        for (size_t i = 0; i < n; i++) {
            gpu_dp_launch **list = tails ? &v[i]->tails : &v[i]->work;
            if (!*list) continue;
            *end = *list;
            while (*end) end = &(*end)->next;
            *list = NULL;
        }
    /* graph tail launches wait for the grid's environment to complete (they are in the
     * blocks' tails when the grid has none); a host-launched graph's environment takes
     * them from grids of its nodes that may finish at the same time */
    for (size_t i = 0; i < n; i++) {
        gpu_dp_env *env = v[i]->env;
        if (!v[i]->gtails || !env) continue;
        if (env->host) {
            pthread_mutex_lock(&env->lock);
            env->dev = g->dev;
        }
        *env->tails_end = v[i]->gtails;
        env->tails_end = v[i]->gtails_end;
        if (env->host) pthread_mutex_unlock(&env->lock);
        v[i]->gtails = NULL;
        v[i]->gtails_end = &v[i]->gtails;
    }
    free(v);
    return head;
}

/* ---- running launched grids ---- */

/* The last node of l's environment is done, with all it launched: the environment is
 * complete, and its tail launches run next, ahead of the rest of *queue. */
static void env_complete(gpu_dp_launch *l, gpu_dp_launch **queue) {
    gpu_dp_env *env = l->env;
    l->env_last = false;
    if (env->tails) {
        *env->tails_end = *queue;
        *queue = env->tails;
        env->tails = NULL;
    }
    env_free(NULL, env);
}

typedef struct dp_frame {
    gpu_dp_launch *queue;   /* what is left to run at this level */
    gpu_dp_launch *owner;   /* the launch whose grid queued it (NULL at the bottom) */
} dp_frame;

exec_fault_kind gpu_dp_run(gpu_device *d, gpu_dp_launch *queue, exec_output *sink,
                           exec_fault *fault) {
    if (!queue) return EXEC_OK;
    size_t n = 1, cap = 16;
    dp_frame *stack = malloc(cap * sizeof *stack);
    if (!stack) {
        free_launches(d, queue);
        fault->kind = EXEC_FAULT_ILLEGAL_ADDRESS;
        snprintf(fault->msg, sizeof fault->msg, "out of host memory running launched grids");
        return fault->kind;
    }
    stack[0] = (dp_frame){queue, NULL};
    exec_fault_kind result = EXEC_OK;
    while (n > 0) {
        dp_frame *f = &stack[n - 1];
        if (!f->queue) { /* everything at this level done: its grid is complete */
            gpu_dp_launch *owner = f->owner;
            n--;
            if (owner && owner->env_last) env_complete(owner, &stack[n - 1].queue);
            if (owner) free_launches(d, owner);
            continue;
        }
        gpu_dp_launch *l = f->queue;
        f->queue = l->next;
        l->next = NULL;
        if (l->copy) { /* checked when issued: both ranges are device memory */
            gpu_dp_copy *c = l->copy;
            if (c->src) {
                memmove(c->dst, c->src, c->count);
            } else if (c->elem <= 1) {
                memset(c->dst, c->value, c->count);
            } else { /* a graph's memset node of 2- or 4-byte elements */
                uint32_t v = (uint32_t)c->value;
                for (size_t i = 0; i + c->elem <= c->count; i += c->elem)
                    memcpy((uint8_t *)c->dst + i, &v, c->elem);
            }
            if (l->env_last) env_complete(l, &f->queue);
            free_launches(d, l);
            continue;
        }
        gpu_dp_grid child;
        gpu_dp_grid_init(&child, d, l->depth);
        child.env = l->env;
        gpu_grid_stats stats;
        memset(&stats, 0, sizeof stats);
        exec_launch L;
        memset(&L, 0, sizeof L);
        L.kernel = l->kernel;
        L.grid = l->grid;
        L.block = l->block;
        L.dyn_shared = l->dyn_shared;
        L.params = l->params;
        L.mem = d->mem;
        L.device = l->device;
        L.peers = l->peers;
        L.graph_exec = l->graph_exec;
        void *token = d->dp_host.grid_begin ? d->dp_host.grid_begin(&L) : NULL;
        exec_fault_kind k = gpu_grid_run_blocks(d, &L, fault, &stats, &child, sink);
        if (d->dp_host.grid_done && d->dp_host.grid_done(&L, &stats, k, token) && k != EXEC_OK) {
            k = fault->kind = EXEC_FAULT_ABORTED;  /* -> cudaErrorLaunchFailure */
            fault->msg[0] = '\0';
        }
        gpu_dp_launch *work = k == EXEC_OK ? gpu_dp_grid_take_work(&child) : NULL;
        gpu_dp_grid_destroy(&child);
        if (k != EXEC_OK) { /* a fault ends everything still to run */
            result = k;
            free_launches(d, l);
            free_launches(d, work);
            for (size_t i = n; i-- > 0;) {
                free_launches(d, stack[i].queue);
                if (stack[i].owner) free_launches(d, stack[i].owner);
            }
            break;
        }
        if (n == cap) {
            dp_frame *s = realloc(stack, cap * 2 * sizeof *s);
            if (!s) { /* cannot go deeper: the same as running out of launch slots */
                free_launches(d, work);
                free_launches(d, l);
                continue;
            }
            stack = s;
            cap *= 2;
        }
        stack[n++] = (dp_frame){work, l};
    }
    free(stack);
    return result;
}

/* ---- the device runtime's operations (ctx: the lane running the block) ---- */

static gpu_dp_block *lane_block(gpu_lane *lane) {
    if (lane->dp_block) return lane->dp_block;
    gpu_dp_block *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->block = atomic_load(&lane->block);
    b->env = lane_env(lane);
    b->work_end = &b->work;
    b->tails_end = &b->tails;
    b->gtails_end = &b->gtails;
    lane->dp_block = b;
    return b;
}

static bool config_ok(const gpu_preset *p, const exec_devrt_launch *l) {
    const exec_kernel_info *info = l->info;
    exec_dim3 g = l->grid, b = l->block;
    if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z) return false;
    if (b.x > (uint32_t)p->max_block_dim[0] || b.y > (uint32_t)p->max_block_dim[1] ||
        b.z > (uint32_t)p->max_block_dim[2])
        return false;
    if (g.x > (uint32_t)p->max_grid_dim[0] || g.y > (uint32_t)p->max_grid_dim[1] ||
        g.z > (uint32_t)p->max_grid_dim[2])
        return false;
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (threads > (uint64_t)p->max_threads_per_block) return false;
    if (info->maxntid[0]) {
        uint64_t maxntid = (uint64_t)info->maxntid[0] * (info->maxntid[1] ? info->maxntid[1] : 1) *
                           (info->maxntid[2] ? info->maxntid[2] : 1);
        if (threads > maxntid) return false;
    }
    if (info->reqntid[0] &&
        (b.x != info->reqntid[0] || b.y != (info->reqntid[1] ? info->reqntid[1] : 1) ||
         b.z != (info->reqntid[2] ? info->reqntid[2] : 1)))
        return false;
    return (uint64_t)info->static_shared + l->dyn_shared <= p->shared_per_block;
}

static gpu_dp_handle *find_handle(const gpu_dp_block *b, uint64_t h, bool event) {
    if (!b) return NULL;
    for (size_t i = 0; i < b->nhandles; i++)
        if ((uint64_t)(uintptr_t)b->handles[i] == h && b->handles[i]->is_event == event &&
            !b->handles[i]->destroyed)
            return b->handles[i];
    return NULL;
}

static bool special_stream(uint64_t s) {
    return s == 0 || s == EXEC_DEVRT_STREAM_PER_THREAD || s == EXEC_DEVRT_STREAM_TAIL_LAUNCH ||
           s == EXEC_DEVRT_STREAM_FIRE_AND_FORGET;
}

static int dp_launch(void *ctx, const exec_devrt_launch *l) {
    gpu_lane *lane = ctx;
    gpu_device *d = lane->dev;
    gpu_dp_grid *g = lane->dp;
    if (!d->preset->limit_dev_runtime_pending_launch_count) return EXEC_DEVRT_NOT_SUPPORTED;
    if (!config_ok(d->preset, l)) return EXEC_DEVRT_INVALID_CONFIGURATION;
    gpu_dp_block *b = lane_block(lane);
    if (!b) return EXEC_DEVRT_MEMORY_ALLOCATION;
    if (!special_stream(l->stream) && !find_handle(b, l->stream, false))
        return EXEC_DEVRT_INVALID_RESOURCE_HANDLE;
    if (l->legacy && g->depth + 1 > GPU_DP_MAX_DEPTH) return EXEC_DEVRT_LAUNCH_MAX_DEPTH_EXCEEDED;
    if (atomic_fetch_add(&d->dp_outstanding, 1) >= d->dp_pending_limit) {
        atomic_fetch_sub(&d->dp_outstanding, 1);
        return EXEC_DEVRT_LAUNCH_PENDING_COUNT_EXCEEDED;
    }
    const exec_kernel_info *info = l->info;
    gpu_dp_launch *r = malloc(sizeof *r + info->param_size);
    if (!r) {
        atomic_fetch_sub(&d->dp_outstanding, 1);
        return EXEC_DEVRT_MEMORY_ALLOCATION;
    }
    memset(r, 0, sizeof *r);
    memcpy(r->params, l->params, info->param_size);
    r->kernel = l->kernel;
    r->grid = l->grid;
    r->block = l->block;
    r->dyn_shared = l->dyn_shared;
    r->depth = g->depth + 1;
    r->device = lane->launch.device;
    r->peers = lane->launch.peers;
    r->env = lane_env(lane);
    if (l->stream == EXEC_DEVRT_STREAM_TAIL_LAUNCH) {
        *b->tails_end = r;
        b->tails_end = &r->next;
    } else {
        *b->work_end = r;
        b->work_end = &r->next;
    }
    return EXEC_DEVRT_SUCCESS;
}

/* Device graph launch (CUDA Programming Guide, "Device Graph Launch"). The graph's nodes
 * become launches of their own, in an order that keeps the graph's dependencies, sharing
 * a new execution environment (gpu_dp_env) that the last of them completes. Fire and
 * forget, and as a sibling: they join the block's launches and run after the launching
 * grid, as its children (a sibling belongs to the launching graph's parent environment,
 * which waits for it anyway; running it at once is one order the GPU may take). Tail
 * launch: they wait until the launching grid's environment is complete (a device-launched
 * graph's, or the host-launched graph's its grid is a node of), or, for a grid outside
 * any graph environment, until the grid and all it launched are done. The limits are the
 * guide's: 120 fire-and-forget graphs an execution, 255 pending tail launches, one tail
 * launch of the running graph itself at a time, and a graph already queued or running is
 * refused (cudaErrorInvalidValue, as on an H100), as is a null graph. */
#define DP_GRAPH_MAX_FIRE_AND_FORGET 120u
#define DP_GRAPH_MAX_TAILS 255u

static int dp_graph_launch(void *ctx, uint64_t exec, uint64_t stream, exec_fault *fault) {
    gpu_lane *lane = ctx;
    gpu_device *d = lane->dev;
    gpu_dp_grid *g = lane->dp;
    if (stream != EXEC_DEVRT_STREAM_GRAPH_TAIL && stream != EXEC_DEVRT_STREAM_GRAPH_FIRE_AND_FORGET &&
        stream != EXEC_DEVRT_STREAM_GRAPH_SIBLING)
        return EXEC_DEVRT_INVALID_VALUE;
    if (!exec) return EXEC_DEVRT_INVALID_VALUE;
    if (!d->dp_host.graph_items) return EXEC_DEVRT_NOT_SUPPORTED;
    const gpu_graph_item *items = NULL;
    size_t n = 0;
    int e = d->dp_host.graph_items(d, exec, &items, &n, fault);
    if (e != EXEC_DEVRT_SUCCESS || fault->kind != EXEC_OK) return e;
    gpu_dp_block *b = lane_block(lane);
    if (!b) return EXEC_DEVRT_MEMORY_ALLOCATION;
    gpu_dp_env *from = lane_env(lane); /* the launching graph's environment */
    bool tail = stream == EXEC_DEVRT_STREAM_GRAPH_TAIL;
    bool self = from && from->exec == exec;
    if (tail && from) {
        if (atomic_fetch_add(&from->ntails, 1) >= DP_GRAPH_MAX_TAILS) {
            atomic_fetch_sub(&from->ntails, 1);
            return EXEC_DEVRT_INVALID_VALUE;
        }
        if (self && atomic_exchange(&from->self_tail, true)) {
            atomic_fetch_sub(&from->ntails, 1);
            return EXEC_DEVRT_INVALID_VALUE;
        }
    } else if (stream == EXEC_DEVRT_STREAM_GRAPH_FIRE_AND_FORGET && from &&
               atomic_fetch_add(&from->nfire, 1) >= DP_GRAPH_MAX_FIRE_AND_FORGET) {
        atomic_fetch_sub(&from->nfire, 1);
        return EXEC_DEVRT_INVALID_VALUE;
    }
    /* the graph queued or running: only its own one tail launch may wait for it */
    bool counted = n && busy_take(exec, tail && self);
    gpu_dp_env *env = counted ? env_new(exec, false) : NULL;
    gpu_dp_launch *head = NULL, **end = &head;
    e = !n ? EXEC_DEVRT_SUCCESS : !counted ? EXEC_DEVRT_INVALID_VALUE
        : !env ? EXEC_DEVRT_MEMORY_ALLOCATION : EXEC_DEVRT_SUCCESS;
    for (size_t i = 0; i < n && e == EXEC_DEVRT_SUCCESS; i++) {
        const gpu_graph_item *it = &items[i];
        uint32_t psize = it->kernel ? it->param_size : 0;
        gpu_dp_launch *r = calloc(1, sizeof *r + psize);
        gpu_dp_copy *c = it->kernel ? NULL : calloc(1, sizeof *c);
        if (!r || (!it->kernel && !c)) {
            free(r);
            free(c);
            e = EXEC_DEVRT_MEMORY_ALLOCATION;
            break;
        }
        if (it->kernel) {
            if (atomic_fetch_add(&d->dp_outstanding, 1) >= d->dp_pending_limit) {
                atomic_fetch_sub(&d->dp_outstanding, 1);
                free(r);
                e = EXEC_DEVRT_LAUNCH_PENDING_COUNT_EXCEEDED;
                break;
            }
            memcpy(r->params, it->params, psize);
            r->kernel = it->kernel;
            r->grid = it->grid;
            r->block = it->block;
            r->dyn_shared = it->dyn_shared;
        } else {
            c->dst = it->dst;
            c->src = it->src;
            c->value = it->value;
            c->elem = it->elem;
            c->count = it->count;
            r->copy = c;
        }
        r->depth = g->depth + 1;
        r->device = lane->launch.device;
        r->peers = lane->launch.peers;
        r->graph_exec = exec;
        r->env = env;
        *end = r;
        end = &r->next;
    }
    if (e != EXEC_DEVRT_SUCCESS || !head) {
        free_launches(d, head); /* (none owns env yet) */
        if (env) env_free(d, env);
        else if (counted) busy_drop(exec);
        if (tail && from) {
            atomic_fetch_sub(&from->ntails, 1);
            if (self) atomic_store(&from->self_tail, false);
        }
        return e;
    }
    /* the last node completes the environment (end points at its next field) */
    gpu_dp_launch *last = (gpu_dp_launch *)((char *)end - offsetof(gpu_dp_launch, next));
    last->env_last = true;
    if (tail && from) {
        *b->gtails_end = head;
        b->gtails_end = end;
    } else if (tail) {
        *b->tails_end = head;
        b->tails_end = end;
    } else {
        *b->work_end = head;
        b->work_end = end;
    }
    return EXEC_DEVRT_SUCCESS;
}

static int dp_copy_async(void *ctx, uint64_t dst, uint64_t src, int value, uint64_t count,
                         uint64_t stream) {
    gpu_lane *lane = ctx;
    mem_table *mem = lane->launch.mem;
    gpu_dp_block *b = lane_block(lane);
    if (!b) return EXEC_DEVRT_MEMORY_ALLOCATION;
    if (stream == EXEC_DEVRT_STREAM_TAIL_LAUNCH || stream == EXEC_DEVRT_STREAM_FIRE_AND_FORGET)
        return EXEC_DEVRT_INVALID_VALUE;
    if (!special_stream(stream) && !find_handle(b, stream, false))
        return EXEC_DEVRT_INVALID_RESOURCE_HANDLE;
    if (count == 0) return EXEC_DEVRT_SUCCESS;
    mem_alloc al;
    if (!mem_table_check(mem, dst, count, &al) || al.kind == MEM_KIND_CONST_VAR ||
        (src && !mem_table_check(mem, src, count, NULL)))
        return EXEC_DEVRT_INVALID_VALUE;
    gpu_dp_launch *r = calloc(1, sizeof *r);
    gpu_dp_copy *c = calloc(1, sizeof *c);
    if (!r || !c) {
        free(r);
        free(c);
        return EXEC_DEVRT_MEMORY_ALLOCATION;
    }
    c->dst = (void *)(uintptr_t)dst;
    c->src = (const void *)(uintptr_t)src;
    c->value = value;
    c->count = count;
    r->copy = c;
    *b->work_end = r;
    b->work_end = &r->next;
    return EXEC_DEVRT_SUCCESS;
}

static void dp_output_epoch(void *ctx, size_t offset, uint32_t epoch) {
    gpu_dp_block *b = lane_block(ctx);
    if (!b) return;
    if (b->nepochs == b->epochs_cap) {
        size_t cap = b->epochs_cap ? b->epochs_cap * 2 : 4;
        gpu_dp_epoch *n = realloc(b->epochs, cap * sizeof *n);
        if (!n) return; /* out of host memory: this output keeps the earlier epoch */
        b->epochs = n;
        b->epochs_cap = cap;
    }
    b->epochs[b->nepochs++] = (gpu_dp_epoch){offset, epoch};
}

static int dp_create(gpu_lane *lane, bool event, uint64_t *handle) {
    gpu_dp_block *b = lane_block(lane);
    if (!b) return EXEC_DEVRT_MEMORY_ALLOCATION;
    if (b->nhandles == b->handles_cap) {
        size_t cap = b->handles_cap ? b->handles_cap * 2 : 4;
        gpu_dp_handle **n = realloc(b->handles, cap * sizeof *n);
        if (!n) return EXEC_DEVRT_MEMORY_ALLOCATION;
        b->handles = n;
        b->handles_cap = cap;
    }
    gpu_dp_handle *h = calloc(1, sizeof *h);
    if (!h) return EXEC_DEVRT_MEMORY_ALLOCATION;
    h->is_event = event;
    b->handles[b->nhandles++] = h;
    *handle = (uint64_t)(uintptr_t)h;
    return EXEC_DEVRT_SUCCESS;
}

static int dp_stream_create(void *ctx, unsigned flags, uint64_t *stream) {
    /* cudaStreamDefault is accepted as well as cudaStreamNonBlocking (an H100 does): a
     * device stream never synchronises with the NULL stream either way */
    if (flags & ~1u) return EXEC_DEVRT_INVALID_VALUE;
    return dp_create(ctx, false, stream);
}

static int dp_event_create(void *ctx, unsigned flags, uint64_t *event) {
    /* device events cannot time: cudaEventDisableTiming is required */
    if (!(flags & 2u) || (flags & ~7u)) return EXEC_DEVRT_INVALID_VALUE;
    return dp_create(ctx, true, event);
}

static int dp_destroy(void *ctx, uint64_t handle, bool event) {
    gpu_lane *lane = ctx;
    gpu_dp_handle *h = find_handle(lane->dp_block, handle, event);
    if (!h) return EXEC_DEVRT_INVALID_RESOURCE_HANDLE;
    h->destroyed = true; /* work already in a destroyed stream still runs */
    return EXEC_DEVRT_SUCCESS;
}

static int dp_stream_destroy(void *ctx, uint64_t stream) { return dp_destroy(ctx, stream, false); }
static int dp_event_destroy(void *ctx, uint64_t event) { return dp_destroy(ctx, event, true); }

/* A stream an event may be recorded in or made to wait: not the tail launch or
 * fire-and-forget stream (cudaErrorInvalidValue, as on an H100). */
static int event_stream(gpu_lane *lane, uint64_t stream) {
    if (stream == EXEC_DEVRT_STREAM_TAIL_LAUNCH || stream == EXEC_DEVRT_STREAM_FIRE_AND_FORGET)
        return EXEC_DEVRT_INVALID_VALUE;
    if (!special_stream(stream) && !find_handle(lane->dp_block, stream, false))
        return EXEC_DEVRT_INVALID_RESOURCE_HANDLE;
    return EXEC_DEVRT_SUCCESS;
}

/* Records and waits order nothing beyond issue order, which the runner keeps anyway
 * (see the top of this file): they are checked and succeed. */
static int dp_event_record(void *ctx, uint64_t event, uint64_t stream) {
    gpu_lane *lane = ctx;
    if (!find_handle(lane->dp_block, event, true)) return EXEC_DEVRT_INVALID_RESOURCE_HANDLE;
    return event_stream(lane, stream);
}

static int dp_stream_wait_event(void *ctx, uint64_t stream, uint64_t event, unsigned flags) {
    gpu_lane *lane = ctx;
    (void)flags;
    int e = event_stream(lane, stream);
    if (e != EXEC_DEVRT_SUCCESS) return e;
    return find_handle(lane->dp_block, event, true) ? EXEC_DEVRT_SUCCESS
                                                    : EXEC_DEVRT_INVALID_RESOURCE_HANDLE;
}

static int dp_synchronize(void *ctx, exec_fault *fault) {
    gpu_lane *lane = ctx;
    gpu_device *d = lane->dev;
    if (lane->dp->depth >= d->dp_sync_depth_limit) return EXEC_DEVRT_SYNC_DEPTH_EXCEEDED;
    gpu_dp_block *b = lane->dp_block;
    if (!b || !b->work) return EXEC_DEVRT_SUCCESS;
    gpu_dp_launch *work = b->work;
    b->work = NULL;
    b->work_end = &b->work;
    /* the block waits: its lane runs the grids here, their output joins the block's */
    gpu_dp_run(d, work, &lane->out, fault);
    return EXEC_DEVRT_SUCCESS;
}

static int dp_get_limit(void *ctx, int limit, uint64_t *value) {
    gpu_lane *lane = ctx;
    gpu_device *d = lane->dev;
    if (limit == DP_LIMIT_PENDING_LAUNCH_COUNT) {
        *value = d->dp_pending_limit;
        return EXEC_DEVRT_SUCCESS;
    }
    if (d->dp_host.get_limit) return d->dp_host.get_limit(d, limit, value);
    return EXEC_DEVRT_NOT_SUPPORTED;
}

static int dp_get_attribute(void *ctx, int attr, int device, int *value) {
    gpu_lane *lane = ctx;
    if (lane->dev->dp_host.get_attribute) return lane->dev->dp_host.get_attribute(attr, device, value);
    return EXEC_DEVRT_NOT_SUPPORTED;
}

static const char *dp_error_text(void *ctx, int code, bool description) {
    gpu_lane *lane = ctx;
    const char *t = lane->dev->dp_host.error_text ? lane->dev->dp_host.error_text(code, description)
                                                  : NULL;
    return t ? t : "unrecognized error code";
}

const exec_devrt_ops gpu_dp_ops = {
    .launch = dp_launch,
    .stream_create = dp_stream_create,
    .stream_destroy = dp_stream_destroy,
    .event_create = dp_event_create,
    .event_destroy = dp_event_destroy,
    .event_record = dp_event_record,
    .stream_wait_event = dp_stream_wait_event,
    .copy_async = dp_copy_async,
    .synchronize = dp_synchronize,
    .get_limit = dp_get_limit,
    .get_attribute = dp_get_attribute,
    .error_text = dp_error_text,
    .output_epoch = dp_output_epoch,
    .graph_launch = dp_graph_launch,
};
