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

/* prof_touched_mark where the cursor's leaf already holds every one of sectors [first,
 * last] in one word of it (the common repeat: a sector read again): 0, with no call. */
#define PROF_TOUCHED_LEAF_BITS 15u /* sectors a leaf holds, as a power of two */
static inline uint64_t prof_touched_mark_fast(prof_touched *t, prof_touched_cursor *c,
                                              uint64_t first, uint64_t last)
{
    if (c->chunk == (first >> PROF_TOUCHED_LEAF_BITS) + 1 && first <= last &&
        first >> 6 == last >> 6) {
        uint64_t bits = ~0ull >> (63 - (last - first)) << (first & 63);
        const uint64_t *word = (const uint64_t *)c->leaf +
                               ((first >> 6) & ((1u << PROF_TOUCHED_LEAF_BITS) / 64u - 1));
        if ((__atomic_load_n(word, __ATOMIC_RELAXED) & bits) == bits)
            return 0;
    }
    return prof_touched_mark(t, c, first, last);
}

/* How many of sectors [first, last] were marked (read only: call once no thread marks). */
uint64_t prof_touched_count(prof_touched *t, uint64_t first, uint64_t last);

#endif
