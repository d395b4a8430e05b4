/* check/racecheck.c — data-access hazards between the threads of a block.
 *
 * Shadow state per 4-byte word of memory, per block: the last write (thread, the bytes it
 * wrote, its instruction, and where it stood in the block's synchronisation) and the last
 * read. An access conflicts with a recorded one made by another thread when no
 * synchronisation orders the two:
 *
 *   - threads of different warps: no barrier orders them. Barriers of the whole block
 *     (no thread count: __syncthreads()) are counted per warp (bepoch); two accesses
 *     whose warps' counts differed are ordered (a warp cannot pass barrier k before every
 *     other warp has reached it or exited). Barriers with a thread count (named barriers:
 *     bar.sync / bar.arrive / bar.red with an id and a count, producer/consumer warps)
 *     order only the warps that take part in one completion: each completion joins the
 *     vector clocks of the warps that arrived at it (their accesses before arriving) and
 *     hands the join to the warps that wait there (bar.sync, bar.red; bar.arrive waits
 *     for nothing), so that their accesses after it are ordered after those. A warp's
 *     clock advances at each of its arrivals; an access records its warp's clock, and is
 *     ordered before another warp's access when that warp's vector clock has reached it.
 *     The block-wide barriers complete through the same clocks, so orders that pass
 *     through both kinds (a __syncthreads() then a named barrier) are found;
 *   - lanes of one warp: never on devices whose warps run in lockstep (before Volta);
 *     with independent thread scheduling (sm_70 and later presets), no barrier and no
 *     __syncwarp() between them and not the same issue of one instruction. This is what
 *     makes the classic warp-synchronous `volatile` reduction a race on modern GPUs.
 *
 * Hazards are counted per byte (as compute-sanitizer does) and summed per pair of
 * instructions over the launch (check_hazard). compute-sanitizer watches shared memory
 * only; here global memory is watched too, within one block (a hazard between blocks is
 * not looked for), which is where the warp-synchronous reductions of the examples work.
 * Atomics are not tracked: they are how threads are meant to share a location.
 *
 * Global memory's shadow lives in chunks (RC_CHUNK_WORDS words each) found through an
 * open-addressing table keyed by address; both are reused from block to block, entries
 * of earlier blocks being recognised by their block generation.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define RC_CHUNK_WORDS 64u                 /* 256 bytes of memory per chunk */
#define RC_CHUNK_SHIFT 8u

struct rc_access {
    const ptx_insn *insn;
    uint32_t issue;      /* the warp's memory instruction count at the access */
    uint32_t epoch;      /* the warp's barrier count (waits at any barrier) */
    uint32_t bepoch;     /* the warp's count of barriers of the whole block */
    uint32_t clock;      /* the warp's barrier clock */
    uint32_t wsync;      /* the warp's __syncwarp count */
    uint16_t tid;        /* block-linear thread */
    uint8_t mask;        /* bytes of the word */
    uint8_t valid;
};

struct rc_word {        /* the shadow of one 4-byte word */
    uint32_t gen;
    rc_access w, r;
};

struct rc_chunk {
    uint64_t base;       /* address of the chunk's first byte */
    uint32_t gen;        /* block generation that owns it */
    rc_word words[RC_CHUNK_WORDS];
};

void check_racecheck_free(check_worker *w) {
    free(w->shared_shadow);
    for (size_t i = 0; i < w->chunk_table_cap; i++) free(w->chunk_table[i]);
    free(w->chunk_table);
    w->shared_shadow = NULL;
    w->chunk_table = NULL;
    w->chunk_table_cap = 0;
}

void check_racecheck_block_begin(check_worker *w) {
    size_t words = (w->cl->shared_size + 3u) / 4u;
    if (words > w->shared_cap) {
        free(w->shared_shadow);
        w->shared_shadow = calloc(words, sizeof *w->shared_shadow);
        if (!w->shared_shadow) abort();
        w->shared_cap = words;
    }
    w->nchunks_used = 0;
    /* entries of earlier blocks are stale by their generation: nothing to clear, except
     * when the generation wraps */
    if (w->block_gen == 0) {
        memset(w->shared_shadow, 0, w->shared_cap * sizeof *w->shared_shadow);
        for (size_t i = 0; i < w->chunk_table_cap; i++)
            if (w->chunk_table[i]) w->chunk_table[i]->gen = 0;
        w->block_gen = 1;
    }
}

static inline size_t chunk_hash(uint64_t base, size_t cap) {
    uint64_t x = base >> RC_CHUNK_SHIFT;
    x *= 0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 17) & (cap - 1);
}

/* Slot for base: its chunk when this block has one, else the first free or stale slot
 * on its probe path. */
static size_t chunk_slot(check_worker *w, uint64_t base) {
    size_t cap = w->chunk_table_cap, i = chunk_hash(base, cap);
    for (;;) {
        rc_chunk *c = w->chunk_table[i];
        if (!c || c->gen != w->block_gen || c->base == base) return i;
        i = (i + 1) & (cap - 1);
    }
}

static void chunk_table_grow(check_worker *w) {
    size_t old_cap = w->chunk_table_cap, cap = old_cap ? old_cap * 2 : 1024;
    rc_chunk **old = w->chunk_table;
    w->chunk_table = calloc(cap, sizeof *w->chunk_table);
    if (!w->chunk_table) abort();
    w->chunk_table_cap = cap;
    /* live chunks move; stale ones are kept for reuse where a slot is free */
    for (size_t i = 0; i < old_cap; i++) {
        rc_chunk *c = old[i];
        if (!c || c->gen != w->block_gen) continue;
        w->chunk_table[chunk_slot(w, c->base)] = c;
        old[i] = NULL;
    }
    for (size_t i = 0, k = 0; i < old_cap; i++) {
        if (!old[i]) continue;
        while (k < cap && w->chunk_table[k]) k++;
        if (k < cap) w->chunk_table[k++] = old[i];
        else free(old[i]);
    }
    free(old);
}

static rc_word *global_word(check_worker *w, uint64_t addr) {
    uint64_t base = addr & ~(uint64_t)((RC_CHUNK_WORDS * 4u) - 1u);
    if (w->nchunks_used * 2 >= w->chunk_table_cap) chunk_table_grow(w);
    size_t i = chunk_slot(w, base);
    rc_chunk *c = w->chunk_table[i];
    if (!c || c->gen != w->block_gen) {
        if (!c) {
            c = malloc(sizeof *c);
            if (!c) abort();
            w->chunk_table[i] = c;
        }
        c->base = base;
        c->gen = w->block_gen;
        for (unsigned k = 0; k < RC_CHUNK_WORDS; k++) c->words[k].gen = 0;
        w->nchunks_used++;
    }
    return &c->words[(addr - base) >> 2];
}

/* Does a recorded access p conflict with thread tid's access now? */
static bool unordered(const check_worker *w, const rc_access *p, uint32_t tid, uint32_t warp,
                      bool its) {
    if (!p->valid || p->tid == tid) return false;
    uint32_t pw = p->tid / 32u;
    if (pw != warp)
        return p->bepoch == w->bepoch[warp] && w->vc[(size_t)warp * w->nwarps + pw] < p->clock;
    if (!its) return false;
    return p->epoch == w->epoch[warp] && p->wsync == w->wsync[warp] &&
           p->issue != w->issue[warp];
}

static void hazard(check_worker *w, const rc_access *first, uint8_t first_access,
                   const rc_access *second, uint8_t second_access, uint32_t bytes, bool global) {
    check_hazard h;
    memset(&h, 0, sizeof h);
    h.first = first->insn;
    h.second = second->insn;
    h.first_access = first_access;
    h.second_access = second_access;
    h.warp_level = first->tid / 32u == second->tid / 32u;
    h.global = global;
    h.count = bytes;
    h.first_key = w->block_linear << 32 | w->order++;
    h.tid_a = first->tid;
    h.tid_b = second->tid;
    h.ctaid = w->ctaid;
    check_hazard_add(w, &h);
}

static void shadow_access(check_worker *w, rc_word *word, const rc_access *me, bool store,
                        bool global) {
    uint32_t warp = me->tid / 32u;
    bool its = w->cl->its;
    if (word->gen != w->block_gen) {
        word->gen = w->block_gen;
        word->w.valid = 0;
        word->r.valid = 0;
    }
    uint32_t wbytes = (uint32_t)__builtin_popcount(word->w.mask & me->mask);
    if (wbytes && unordered(w, &word->w, me->tid, warp, its))
        /* read after write, or write after write: the write came first */
        hazard(w, &word->w, EXEC_OBS_STORE, me, store ? EXEC_OBS_STORE : EXEC_OBS_LOAD, wbytes,
               global);
    if (store) {
        uint32_t rbytes = (uint32_t)__builtin_popcount(word->r.mask & me->mask);
        if (rbytes && unordered(w, &word->r, me->tid, warp, its))
            /* write after read: reported with the write first, like the others */
            hazard(w, me, EXEC_OBS_STORE, &word->r, EXEC_OBS_LOAD, rbytes, global);
        word->w = *me;
        word->r.valid = 0;
    } else {
        word->r = *me;
    }
}

void check_racecheck_mem(check_worker *w, const exec_site *s, ptx_space space,
                         exec_mem_access access, const uint64_t addr[32], uint32_t mask,
                         uint32_t size) {
    if (access == EXEC_OBS_ATOMIC || s->warp >= w->nwarps) return;
    if (space != PTX_SPACE_SHARED && space != PTX_SPACE_GLOBAL) return;
    bool global = space == PTX_SPACE_GLOBAL, store = access == EXEC_OBS_STORE;
    uint32_t warp = s->warp;
    w->issue[warp]++;
    rc_access me;
    me.insn = s->insn;
    me.issue = w->issue[warp];
    me.epoch = w->epoch[warp];
    me.bepoch = w->bepoch[warp];
    me.clock = w->clock[warp];
    me.wsync = w->wsync[warp];
    me.valid = 1;
    uint64_t shared_limit = w->cl->shared_size;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        me.tid = (uint16_t)(warp * 32u + lane);
        uint64_t a = addr[lane], end = a + size;
        if (end < a) continue;
        if (!global && end > shared_limit) continue; /* out of bounds: memcheck's business */
        for (uint64_t p = a & ~3ull; p < end; p += 4) {
            uint64_t lo = p > a ? p : a, hi = p + 4 < end ? p + 4 : end;
            me.mask = (uint8_t)(((1u << (hi - lo)) - 1u) << (lo - p));
            rc_word *word = global ? global_word(w, p) : &w->shared_shadow[p >> 2];
            shadow_access(w, word, &me, store, global);
        }
    }
}

void check_racecheck_arrive(check_worker *w, uint32_t warp, uint32_t id, bool waits) {
    if (id >= CHECK_NUM_BARRIERS || warp >= 64u) return; /* the cluster's: not a block's */
    uint32_t n = w->nwarps, *join = &w->bar_join[(size_t)id * n];
    const uint32_t *vc = &w->vc[(size_t)warp * n];
    /* what the warp did so far, and what was ordered before it, is ordered before the
     * waiters' accesses after this completion */
    for (uint32_t k = 0; k < n; k++)
        if (vc[k] > join[k]) join[k] = vc[k];
    if (w->clock[warp] > join[warp]) join[warp] = w->clock[warp];
    w->clock[warp]++;
    if (waits) w->bar_waiters[id] |= 1ull << warp;
}

void check_racecheck_complete(check_worker *w, uint32_t id) {
    if (id >= CHECK_NUM_BARRIERS) return;
    uint32_t n = w->nwarps, *join = &w->bar_join[(size_t)id * n];
    for (uint64_t m = w->bar_waiters[id]; m; m &= m - 1) {
        uint32_t *vc = &w->vc[(size_t)__builtin_ctzll(m) * n];
        for (uint32_t k = 0; k < n; k++)
            if (join[k] > vc[k]) vc[k] = join[k];
    }
    memset(join, 0, n * sizeof *join);
    w->bar_waiters[id] = 0;
}
