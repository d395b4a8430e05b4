/* prof/touched.h — the sectors a launch has touched, for what DRAM must supply: the first
 * access to a 32-byte sector in a launch is read from (or written towards) DRAM, later
 * ones are not (the timing model's L2 holds the launch's footprint).
 *
 * Exact and sparse: a radix tree over sector numbers whose leaves are bitmaps of 32768
 * sectors (1 MiB of memory in 4 KiB), made on first touch. Creating a record costs one
 * small allocation; its size grows with the memory the launch touches, not with the
 * address space. Any number of threads may mark sectors at once (lock-free).
 */
#ifndef VCUDA_PROF_TOUCHED_H
#define VCUDA_PROF_TOUCHED_H

#include <stdint.h>

#include "lanes.h"

typedef struct prof_touched prof_touched;

/* A thread's shortcut to the leaf it used last (zero-initialise before first use; valid
 * for one record). */
typedef struct prof_touched_cursor {
    uint64_t chunk;  /* leaf number + 1; 0 = none */
    void *leaf;
} prof_touched_cursor;

/* NULL when out of memory. */
prof_touched *prof_touched_new(void);
void prof_touched_free(prof_touched *t);

/* Marks sectors [first, last] touched; returns how many of them were not before. */
uint64_t prof_touched_mark(prof_touched *t, prof_touched_cursor *c, uint64_t first,
                           uint64_t last);

/* prof_touched_mark, with no call where sectors [first, last] lie in one word of the
 * cursor's leaf (the common cases: a sector read again, 0 from one test; a coalesced
 * access's first touch, one atomic or). */
#define PROF_TOUCHED_LEAF_BITS 15u /* sectors a leaf holds, as a power of two */
static inline uint64_t prof_touched_mark_fast(prof_touched *t, prof_touched_cursor *c,
                                              uint64_t first, uint64_t last)
{
    if (c->chunk == (first >> PROF_TOUCHED_LEAF_BITS) + 1 && first <= last &&
        first >> 6 == last >> 6) {
        uint64_t bits = ~0ull >> (63 - (last - first)) << (first & 63);
        uint64_t *word = (uint64_t *)c->leaf +
                         ((first >> 6) & ((1u << PROF_TOUCHED_LEAF_BITS) / 64u - 1));
        if ((__atomic_load_n(word, __ATOMIC_RELAXED) & bits) == bits)
            return 0;
        uint64_t now = bits & ~__atomic_fetch_or(word, bits, __ATOMIC_RELAXED);
        return prof_popcount((uint32_t)now) + prof_popcount((uint32_t)(now >> 32));
    }
    return prof_touched_mark(t, c, first, last);
}

/* How many of sectors [first, last] were marked (read only: call once no thread marks). */
uint64_t prof_touched_count(prof_touched *t, uint64_t first, uint64_t last);

#endif
