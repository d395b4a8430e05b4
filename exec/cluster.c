/* exec/cluster.c — thread block clusters: the cluster object the blocks of one cluster
 * share, their barrier (barrier.cluster), the way a block reaches another's shared memory
 * (distributed shared memory), and the instructions that name ranks:
 *
 *   mapa{.space}.type d, a, rank   d = the address a names in the block of that rank
 *   getctarank{.space}.type d, a   d = the rank of the block whose shared memory a is in
 *
 * The grid runner (gpu/scheduler.c) runs the blocks of a cluster at once, each on a host
 * thread of its own with a worker of its own, so a block's shared memory stays where it is
 * until the whole cluster is over. A shared::cluster address of another block is
 * (rank + 1) << EXEC_DSMEM_SHIFT | offset, in the 32-bit shared space (a generic one is
 * that in the shared window); the block's own shared::cta offsets are shared::cluster
 * addresses of its own memory too, as the PTX ISA has it. A rank outside the cluster, or
 * an offset past that block's shared memory, is an unspecified launch failure, as on an
 * H200; a block that has exited still has its memory until the cluster ends (the H200
 * lets such an access through).
 *
 * barrier.cluster counts threads within each block first (exec/block.c, the block's
 * EXEC_CLUSTER_BARRIER): when every live thread of a block has arrived, the block arrives
 * here, and the barrier's generation completes when every block that has not exited has
 * arrived. A thread's barrier.cluster.wait waits for the generation its arrive counted
 * towards. Without a cluster launch the block is a cluster of one and the generation is
 * the block's own count.
 */
#include "core.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

enum { PEER_NOT_STARTED = 0, PEER_RUNNING, PEER_EXITED };

struct exec_cluster {
    exec_dim3 dim;
    uint32_t n;
    pthread_mutex_t lock;
    pthread_cond_t cond;            /* a block started or left, or a generation completed */
    struct exec_block *blocks[EXEC_CLUSTER_MAX];
    _Atomic uint8_t state[EXEC_CLUSTER_MAX];
    uint32_t live;                  /* blocks that have not exited (lock) */
    uint32_t arrived;               /* blocks arrived at the current generation (lock) */
    _Atomic uint64_t gen;           /* generations completed */
};

exec_cluster *exec_cluster_new(exec_dim3 dim) {
    uint64_t n = (uint64_t)dim.x * dim.y * dim.z;
    if (n == 0 || n > EXEC_CLUSTER_MAX) return NULL;
    exec_cluster *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->dim = dim;
    c->n = (uint32_t)n;
    c->live = c->n;
    pthread_mutex_init(&c->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&c->cond, &ca);
    pthread_condattr_destroy(&ca);
    return c;
}

void exec_cluster_free(exec_cluster *c) {
    if (!c) return;
    pthread_cond_destroy(&c->cond);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

uint32_t exec_cluster_rank(exec_dim3 dim, exec_dim3 ctaid) {
    if (!dim.x || !dim.y || !dim.z) return 0;
    return ctaid.x % dim.x + dim.x * (ctaid.y % dim.y + dim.y * (ctaid.z % dim.z));
}

/* Wait on the cluster's condition for at most ns (c->lock held). */
static void timed_wait(exec_cluster *c, uint64_t ns) {
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    uint64_t t = (uint64_t)until.tv_nsec + ns;
    until.tv_sec += (time_t)(t / 1000000000ull);
    until.tv_nsec = (long)(t % 1000000000ull);
    pthread_cond_timedwait(&c->cond, &c->lock, &until);
}

/* A generation completes when every block still running has arrived (c->lock held). */
static void maybe_complete(exec_cluster *c) {
    if (c->arrived == 0 || c->arrived < c->live) return;
    c->arrived = 0;
    atomic_fetch_add(&c->gen, 1);
    pthread_cond_broadcast(&c->cond);
}

void exec_cluster_enter(struct exec_block *b) {
    b->cl_rank = exec_cluster_rank(b->L->cluster_dim, b->ctaid);
    exec_cluster *c = b->L->cluster;
    if (!c) return;
    pthread_mutex_lock(&c->lock);
    c->blocks[b->cl_rank] = b;
    atomic_store(&c->state[b->cl_rank], PEER_RUNNING);
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

void exec_cluster_leave(struct exec_block *b) {
    exec_cluster *c = b->L->cluster;
    if (!c) return;
    pthread_mutex_lock(&c->lock);
    atomic_store(&c->state[b->cl_rank], PEER_EXITED);
    c->live--;
    maybe_complete(c);
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

void exec_cluster_block_arrived(struct exec_block *b) {
    b->cl_arrivals++;
    exec_cluster *c = b->L->cluster;
    if (!c) return;
    pthread_mutex_lock(&c->lock);
    c->arrived++;
    maybe_complete(c);
    pthread_mutex_unlock(&c->lock);
}

uint64_t exec_cluster_generation(const struct exec_block *b) {
    return b->L->cluster ? atomic_load(&b->L->cluster->gen) : b->cl_arrivals;
}

void exec_cluster_sleep(struct exec_block *b, uint64_t seen) {
    exec_cluster *c = b->L->cluster;
    if (!c) return;
    pthread_mutex_lock(&c->lock);
    if (atomic_load(&c->gen) == seen) timed_wait(c, 2000000ull); /* the abort flag is polled */
    pthread_mutex_unlock(&c->lock);
}

void exec_cluster_nap(struct exec_block *b, uint32_t round) {
    exec_cluster *c = b->L->cluster;
    if (!c) return;
    uint64_t ns = round > 7 ? 1000000ull : 10000ull << (round > 0 ? round - 1 : 0);
    if (ns > 1000000ull) ns = 1000000ull;
    pthread_mutex_lock(&c->lock);
    timed_wait(c, ns);
    pthread_mutex_unlock(&c->lock);
}

struct exec_block *exec_cluster_peer(struct exec_block *b, uint32_t rank, const char **why) {
    exec_cluster *c = b->L->cluster;
    if (rank == b->cl_rank) return b;
    if (!c || rank >= c->n) {
        *why = "the rank is outside the block's cluster";
        return NULL;
    }
    uint8_t st = atomic_load(&c->state[rank]);
    if (st == PEER_NOT_STARTED) {
        /* every block of the cluster is being started at once: wait for it */
        pthread_mutex_lock(&c->lock);
        while ((st = atomic_load(&c->state[rank])) == PEER_NOT_STARTED && !exec_block_aborted(b))
            timed_wait(c, 1000000ull);
        pthread_mutex_unlock(&c->lock);
    }
    /* A block that has exited still has its memory: an H200 lets the access through
     * (compute-sanitizer reports it; tests/cuda/hopper/expected/cluster_fault.h200.txt),
     * and its worker runs no other block before the cluster is over. */
    if (st != PEER_NOT_STARTED) return c->blocks[rank];
    *why = "the block of that rank never started";
    return NULL;
}

/* ---- mapa, getctarank ---- */

#define CL_GENERIC (EXEC_F_HANDLER << 0) /* the address operand is a generic address */

/* The shared offset (own or rank-encoded) a holds, and whether it is one. */
static bool shared_offset(const exec_insn *in, uint64_t a, uint64_t *off) {
    if (in->flags & CL_GENERIC) {
        if (a - MEM_SHARED_WINDOW >= MEM_SHARED_WINDOW_SIZE) return false;
        a -= MEM_SHARED_WINDOW;
    }
    *off = a & 0xffffffffull;
    return true;
}

static void h_mapa(exec_warp *w, const exec_insn *in, uint32_t mask) {
    const struct exec_block *b = w->block;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t off;
        if (!shared_offset(in, EXEC_R(w, in->a[0], lane), &off)) {
            exec_fault_at(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS,
                          "mapa: the address is not in shared memory");
            return;
        }
        uint32_t rank = (uint32_t)EXEC_R(w, in->a[1], lane);
        uint64_t r = off & ((1ull << EXEC_DSMEM_SHIFT) - 1);
        /* a cluster of one keeps its shared::cta addresses (a rank other than its own
         * faults where the address is used, as one outside a larger cluster does) */
        if (rank != b->cl_rank || exec_cluster_size(b) > 1)
            r |= (uint64_t)(rank + 1) << EXEC_DSMEM_SHIFT;
        if (in->flags & CL_GENERIC) r += MEM_SHARED_WINDOW;
        EXEC_R(w, in->d[0], lane) = in->type == PTX_T_u32 ? (uint32_t)r : r;
    }
}

static void h_getctarank(exec_warp *w, const exec_insn *in, uint32_t mask) {
    const struct exec_block *b = w->block;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t off;
        if (!shared_offset(in, EXEC_R(w, in->a[0], lane), &off)) {
            exec_fault_at(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS,
                          "getctarank: the address is not in shared memory");
            return;
        }
        uint64_t hi = off >> EXEC_DSMEM_SHIFT;
        EXEC_R(w, in->d[0], lane) = hi ? hi - 1 : b->cl_rank;
    }
}

int exec_decode_cluster(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (pi->op != PTX_OP_mapa && pi->op != PTX_OP_getctarank) return 0;
    bool mapa = pi->op == PTX_OP_mapa;
    ptx_type t = pi->ntypes ? (ptx_type)pi->types[0] : PTX_T_NONE;
    if (t != PTX_T_u32 && t != PTX_T_u64)
        return exec_dec_error(d, pi, "%s needs .u32 or .u64", ptx_opcode_names[pi->op]), -1;
    if (pi->nopnds != (mapa ? 3u : 2u))
        return exec_dec_error(d, pi, "%s takes %u operands", ptx_opcode_names[pi->op],
                              mapa ? 3u : 2u), -1;
    out->type = (uint8_t)t;
    if (exec_dec_space(pi) == PTX_SPACE_GENERIC) out->flags |= CL_GENERIC;
    if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0]) ||
        !exec_dec_src(d, pi, &pi->opnd[1], t, &out->a[0]))
        return -1;
    out->nd = 1;
    out->na = 1;
    if (mapa) {
        if (!exec_dec_src(d, pi, &pi->opnd[2], PTX_T_u32, &out->a[1])) return -1;
        out->na = 2;
    }
    out->fn = mapa ? h_mapa : h_getctarank;
    return 1;
}
