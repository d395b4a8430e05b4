/* prof/lanes.h — small helpers over the 32 per-lane addresses of one warp access,
 * shared by the global/local (coalesce.c) and shared-memory (banks.c) counting. */
#ifndef VCUDA_PROF_LANES_H
#define VCUDA_PROF_LANES_H

#include <stdbool.h>
#include <stdint.h>

/* Bits set in x. Written out rather than __builtin_popcount, which without a target
 * option becomes a library call on x86-64; the full warp, the common case, first. */
static inline uint32_t prof_popcount(uint32_t x)
{
    if (x == 0xffffffffu)
        return 32;
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

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

/* The common case of a well-written kernel: all 32 lanes on, lane i at addr[0] + i * size.
 * Such an access is one contiguous span and is counted without looking at lanes. */
static inline bool prof_contiguous_warp(const uint64_t addr[32], uint32_t mask, unsigned size)
{
    if (mask != 0xffffffffu)
        return false;
    /* no early exit: a plain loop over the warp the compiler can vectorise */
    uint64_t off = 0;
    for (uint32_t lane = 0; lane < 32; lane++)
        off |= addr[lane] ^ (addr[0] + (uint64_t)lane * size);
    return off == 0;
}

/* How many distinct values keys[0..n) holds (n <= 1024). Open hashing into 64 buckets:
 * linear in n for the usual patterns, with no sorting and no large table to clear. */
static inline uint32_t prof_count_distinct(const uint64_t *keys, uint32_t n)
{
    uint16_t head[64], next[1024];
    for (int b = 0; b < 64; b++)
        head[b] = 0xffffu;
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < n; i++) {
        /* multiplicative hash: strided keys (sector, word numbers) spread over the buckets */
        uint32_t b = (uint32_t)((keys[i] * 0x9e3779b97f4a7c15ull) >> 58);
        uint16_t j = head[b];
        while (j != 0xffffu && keys[j] != keys[i])
            j = next[j];
        if (j != 0xffffu)
            continue;  /* seen before */
        next[i] = head[b];
        head[b] = (uint16_t)i;
        distinct++;
    }
    return distinct;
}

/* Distinct bytes covered by the ranges [addr[lane], addr[lane] + size) of the lanes in mask. */
static inline uint32_t prof_distinct_bytes(const uint64_t addr[32], uint32_t mask, unsigned size)
{
    uint64_t starts[32];
    uint32_t n = 0;
    uint64_t align_mask = size - 1;  /* accesses are 1, 2, 4, 8 or 16 bytes wide */
    bool aligned = (size & align_mask) == 0;
    for (uint32_t lane = 0; lane < 32; lane++)
        if ((mask >> lane) & 1u) {
            starts[n++] = addr[lane];
            aligned &= (addr[lane] & align_mask) == 0;
        }
    /* Ranges of one size at multiples of that size either coincide or are disjoint (every
     * access that does not fault is aligned so). */
    if (aligned)
        return prof_count_distinct(starts, n) * size;
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
