/* prof/lanes.h — small helpers over the 32 per-lane addresses of one warp access,
 * shared by the global/local (coalesce.c) and shared-memory (banks.c) counting. */
#ifndef VCUDA_PROF_LANES_H
#define VCUDA_PROF_LANES_H

#include <stdint.h>

static inline uint32_t prof_popcount(uint32_t x) { return (uint32_t)__builtin_popcount(x); }

/* Insertion sort: the lists are at most a few hundred long and usually already ordered
 * (lanes tend to access ascending addresses), where it is linear. */
static inline void prof_sort_u64(uint64_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint64_t x = v[i];
        uint32_t j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

/* Distinct bytes covered by the ranges [addr[lane], addr[lane] + size) of the lanes in mask. */
static inline uint32_t prof_distinct_bytes(const uint64_t addr[32], uint32_t mask, unsigned size)
{
    uint64_t starts[32];
    uint32_t n = 0;
    for (uint32_t lane = 0; lane < 32; lane++)
        if ((mask >> lane) & 1u)
            starts[n++] = addr[lane];
    prof_sort_u64(starts, n);
    uint32_t bytes = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t from = starts[i], to = starts[i] + size;
        /* equal-length ranges in start order: only the previous one can overlap this one */
        if (i > 0 && starts[i - 1] + size > from)
            from = starts[i - 1] + size;
        if (to > from)
            bytes += (uint32_t)(to - from);
    }
    return bytes;
}

#endif
