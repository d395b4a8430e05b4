/* prof/banks.c — shared-memory bank conflicts and wavefronts.
 *
 * Shared memory is 32 banks; successive bank-width words (4 bytes, or 8 in Kepler's
 * eight-byte mode) go to successive banks. In one pass (a wavefront) each bank delivers
 * one word; lanes that read the same word share it (broadcast), and lanes that write the
 * same word cost one write. So a group of lanes needs as many wavefronts as the largest
 * number of distinct words any one bank must deliver.
 *
 * A wavefront carries at most one bank-width word per bank (128 bytes with 4-byte banks),
 * so an access wider than the bank width is split: the lanes are taken in groups that can
 * fit, half-warps for 8-byte and quarter-warps for 16-byte accesses on 4-byte banks, and
 * each group with a lane on needs a wavefront of its own. Those are the ideal wavefronts;
 * whatever a group needs beyond one is counted as bank conflicts.
 *
 * sm_70 and later serve a wide load in half the groups (whole warps for 8 bytes,
 * half-warps for 16) when its lanes pair up on equal addresses: every lane on has the
 * address of lane ^ 1, or every lane on has the address of lane ^ 2 (a partner that is off
 * does not matter). The instruction-level wavefront counter that Nsight Compute divides
 * by in its shared-efficiency figure sees only the lane ^ 1 pairing. Stores are never
 * paired.
 *
 * Atomics get no broadcast: every lane is an operation of its own, so an atomic takes as
 * many wavefronts as the bank with the most lanes on it (32 lanes adding to one word:
 * 32). One wavefront is the ideal, the rest are bank conflicts.
 *
 * The sm_70+ behaviour was read off an H100 with Nsight Compute (tests/unit/data/prof/);
 * Fermi and Kepler follow the CUDA C Programming Guide (compute capability 2.x, 3.x).
 */
#include "banks.h"
#include "lanes.h"

/* Wavefronts for the lanes of group_mask: the largest count of distinct words in one bank. */
static uint32_t group_wavefronts(const uint64_t addr[32], uint32_t group_mask, unsigned size,
                                 unsigned bank_shift)
{
    uint64_t words[32 * 4];  /* at most 32 lanes x 4 words (16-byte accesses, 4-byte banks) */
    uint32_t n = 0;
    for (uint32_t lane = 0; lane < 32; lane++) {
        if (!((group_mask >> lane) & 1u))
            continue;
        uint64_t first = addr[lane] >> bank_shift, last = (addr[lane] + size - 1) >> bank_shift;
        for (uint64_t w = first; w <= last && n < sizeof words / sizeof words[0]; w++)
            words[n++] = w;
    }
    /* Distinct words per bank: lanes on the same word share it (broadcast, merged write).
     * Words of one bank are chained per bank; a chain is as long as that bank's conflict. */
    uint16_t head[PROF_SHARED_BANKS], next[32 * 4];
    uint32_t per_bank[PROF_SHARED_BANKS] = {0}, worst = 0;
    for (uint32_t b = 0; b < PROF_SHARED_BANKS; b++)
        head[b] = 0xffffu;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = (uint32_t)(words[i] % PROF_SHARED_BANKS);
        uint16_t j = head[b];
        while (j != 0xffffu && words[j] != words[i])
            j = next[j];
        if (j != 0xffffu)
            continue;
        next[i] = head[b];
        head[b] = (uint16_t)i;
        if (++per_bank[b] > worst)
            worst = per_bank[b];
    }
    return worst;
}

/* Wavefronts and non-empty groups when the warp is taken group lanes at a time. */
static void grouped(const uint64_t addr[32], uint32_t mask, unsigned size, unsigned bank_shift,
                    uint32_t group, uint32_t *wavefronts, uint32_t *groups)
{
    uint32_t group_mask = group >= 32 ? 0xffffffffu : ((1u << group) - 1u);
    *wavefronts = *groups = 0;
    for (uint32_t first = 0; first < 32; first += group) {
        uint32_t m = mask & (group_mask << first);
        if (!m)
            continue;
        *wavefronts += group_wavefronts(addr, m, size, bank_shift);
        *groups += 1;
    }
}

/* Does every lane on share its address with lane ^ x, where that lane is on too? */
static bool pairs_up(const uint64_t addr[32], uint32_t mask, uint32_t x)
{
    for (uint32_t lane = 0; lane < 32; lane++) {
        uint32_t partner = lane ^ x;
        if (((mask >> lane) & 1u) && ((mask >> partner) & 1u) && addr[lane] != addr[partner])
            return false;
    }
    return true;
}

/* Atomics: every lane's word is a separate operation, even on a word another lane uses,
 * and a bank does one per wavefront. */
static uint32_t atomic_wavefronts(const uint64_t addr[32], uint32_t mask, unsigned size,
                                  unsigned bank_shift)
{
    uint32_t per_bank[PROF_SHARED_BANKS] = {0}, worst = 0;
    for (uint32_t lane = 0; lane < 32; lane++) {
        if (!((mask >> lane) & 1u))
            continue;
        uint64_t first = addr[lane] >> bank_shift, last = (addr[lane] + size - 1) >> bank_shift;
        for (uint64_t w = first; w <= last; w++) {
            uint32_t b = (uint32_t)(w % PROF_SHARED_BANKS);
            if (++per_bank[b] > worst)
                worst = per_bank[b];
        }
    }
    return worst;
}

prof_shared_cost prof_banks(const prof_rules *r, prof_access access, const uint64_t addr[32],
                            uint32_t mask, unsigned size)
{
    prof_shared_cost c = {0};
    if (!mask || !size)
        return c;
    unsigned bank_bytes = r->shared_bank_bytes ? r->shared_bank_bytes : 4u;
    if (size > 16)
        size = 16;  /* no shared access is wider; a wider request is counted as 16 bytes */
    c.requests = 1;
    c.bytes_requested = prof_popcount(mask) * size;
    if (prof_contiguous_warp(addr, mask, size) && bank_bytes == 4 && addr[0] % size == 0 &&
        (access == PROF_ACCESS_LOAD || access == PROF_ACCESS_STORE)) {
        /* consecutive aligned accesses: each group of lanes reads 128 consecutive bytes,
         * one word from every bank */
        c.wavefronts = c.ideal_wavefronts = c.sass_wavefronts = size <= 4 ? 1u : size / 4u;
        c.bytes_used = c.bytes_requested;
        return c;
    }
    c.bytes_used = prof_distinct_bytes(addr, mask, size);
    unsigned bank_shift = bank_bytes == 8 ? 3u : 2u;

    if (access == PROF_ACCESS_ATOMIC || access == PROF_ACCESS_REDUCTION) {
        c.wavefronts = c.sass_wavefronts = atomic_wavefronts(addr, mask, size, bank_shift);
        c.ideal_wavefronts = 1;
        c.bank_conflicts = c.wavefronts - c.ideal_wavefronts;
        return c;
    }

    /* Lanes per group: as many as fit one bank-width word per bank. */
    uint32_t words_per_lane = size <= bank_bytes ? 1u : size / bank_bytes;
    uint32_t group = 32u / words_per_lane;
    grouped(addr, mask, size, bank_shift, group, &c.wavefronts, &c.ideal_wavefronts);
    c.sass_wavefronts = c.wavefronts;

    if (r->shared_pair_merge && access == PROF_ACCESS_LOAD && group < 32) {
        bool pair1 = pairs_up(addr, mask, 1);
        if (pair1 || pairs_up(addr, mask, 2)) {
            grouped(addr, mask, size, bank_shift, group * 2, &c.wavefronts,
                    &c.ideal_wavefronts);
            if (pair1)
                c.sass_wavefronts = c.wavefronts;
        }
    }
    c.bank_conflicts = c.wavefronts - c.ideal_wavefronts;
    return c;
}
