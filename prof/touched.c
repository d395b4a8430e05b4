/* prof/touched.c — the sectors a launch has touched (prof/touched.h).
 *
 * Sector numbers split into a leaf number (chunk) and a bit in the leaf. Chunks are
 * found through two levels of 512 pointers (top, middle) and a level of 512 leaf
 * pointers: 27 bits of chunk, i.e. 2^42 sectors, every user-space address of a 47-bit
 * address space. Higher chunk bits (no address the executor makes has them) fold onto
 * the same tree. A missing node is made by whoever needs it first and published with a
 * compare-and-swap; a thread that loses the race frees its copy and takes the winner's.
 */
#include "touched.h"
#include "lanes.h"

#include <stdatomic.h>
#include <stdlib.h>

#define LEAF_SECTOR_BITS PROF_TOUCHED_LEAF_BITS      /* 32768 sectors: 1 MiB of memory */
#define LEAF_WORDS ((1u << LEAF_SECTOR_BITS) / 64u) /* 512 words: 4 KiB */
#define FANOUT_BITS 9u
#define FANOUT (1u << FANOUT_BITS)
#define CHUNK_BITS (3u * FANOUT_BITS)

typedef struct node {
    _Atomic(void *) child[FANOUT];                 /* nodes, then (last level) leaves */
} node;

typedef struct leaf {
    _Atomic uint64_t word[LEAF_WORDS];
} leaf;

struct prof_touched {
    node top;
};

prof_touched *prof_touched_new(void) { return calloc(1, sizeof(prof_touched)); }

static void free_node(node *n, unsigned depth)
{
    for (unsigned i = 0; i < FANOUT; i++) {
        void *c = atomic_load_explicit(&n->child[i], memory_order_relaxed);
        if (c && depth + 1 < 3)
            free_node(c, depth + 1);
        if (c)
            free(c);
    }
}

void prof_touched_free(prof_touched *t)
{
    if (!t)
        return;
    free_node(&t->top, 0);
    free(t);
}

/* The child of n at i, made (zeroed, size bytes) when missing. NULL: out of memory. */
static void *child(node *n, unsigned i, size_t size)
{
    void *c = atomic_load_explicit(&n->child[i], memory_order_acquire);
    if (c)
        return c;
    void *made = calloc(1, size);
    if (!made)
        return NULL;
    void *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(&n->child[i], &expected, made,
                                                memory_order_acq_rel, memory_order_acquire))
        return made;
    free(made);  /* another thread made it first */
    return expected;
}

static leaf *leaf_of(prof_touched *t, uint64_t chunk)
{
    chunk &= (1ull << CHUNK_BITS) - 1;
    node *mid = child(&t->top, (unsigned)(chunk >> (2 * FANOUT_BITS)), sizeof(node));
    node *low = mid ? child(mid, (unsigned)(chunk >> FANOUT_BITS) & (FANOUT - 1), sizeof(node))
                    : NULL;
    return low ? child(low, (unsigned)chunk & (FANOUT - 1), sizeof(leaf)) : NULL;
}

uint64_t prof_touched_mark(prof_touched *t, prof_touched_cursor *c, uint64_t first,
                           uint64_t last)
{
    uint64_t fresh = 0;
    while (first <= last) {
        uint64_t chunk = first >> LEAF_SECTOR_BITS;
        if (c->chunk != chunk + 1) {
            leaf *l = leaf_of(t, chunk);
            if (!l)
                return fresh + (last - first + 1);  /* out of memory: count them new */
            c->chunk = chunk + 1;
            c->leaf = l;
        }
        leaf *l = c->leaf;
        /* the sectors of this leaf word: one test, most often all of them set */
        uint32_t bit = (uint32_t)(first & 63);
        uint64_t n = last - first + 1;
        if (n > 64 - bit)
            n = 64 - bit;
        uint64_t bits = ~0ull >> (64 - n) << bit;  /* (n is 1 to 64) */
        _Atomic uint64_t *word = &l->word[(first >> 6) & (LEAF_WORDS - 1)];
        if ((atomic_load_explicit(word, memory_order_relaxed) & bits) != bits) {
            uint64_t old = atomic_fetch_or_explicit(word, bits, memory_order_relaxed);
            uint64_t now = bits & ~old;
            fresh += prof_popcount((uint32_t)now) + prof_popcount((uint32_t)(now >> 32));
        }
        first += n;
    }
    return fresh;
}

/* The leaf of chunk if it was made, else NULL (nothing is made). */
static leaf *leaf_found(prof_touched *t, uint64_t chunk)
{
    chunk &= (1ull << CHUNK_BITS) - 1;
    node *mid = atomic_load_explicit(&t->top.child[chunk >> (2 * FANOUT_BITS)],
                                     memory_order_acquire);
    node *low = mid ? atomic_load_explicit(&mid->child[(chunk >> FANOUT_BITS) & (FANOUT - 1)],
                                           memory_order_acquire)
                    : NULL;
    return low ? atomic_load_explicit(&low->child[chunk & (FANOUT - 1)], memory_order_acquire)
               : NULL;
}

uint64_t prof_touched_count(prof_touched *t, uint64_t first, uint64_t last)
{
    uint64_t n = 0;
    while (t && first <= last) {
        uint64_t chunk = first >> LEAF_SECTOR_BITS;
        uint64_t chunk_last = ((chunk + 1) << LEAF_SECTOR_BITS) - 1;
        uint64_t end = last < chunk_last ? last : chunk_last;
        leaf *l = leaf_found(t, chunk);
        for (uint64_t s = first; l && s <= end;) {
            uint32_t bit = (uint32_t)(s & 63);
            uint64_t k = end - s + 1;
            if (k > 64 - bit)
                k = 64 - bit;
            uint64_t bits = (k == 64 ? ~0ull : ((1ull << k) - 1)) << bit;
            uint64_t w = atomic_load_explicit(&l->word[(s >> 6) & (LEAF_WORDS - 1)],
                                              memory_order_relaxed) & bits;
            n += prof_popcount((uint32_t)w) + prof_popcount((uint32_t)(w >> 32));
            s += k;
        }
        first = end + 1;
    }
    return n;
}
