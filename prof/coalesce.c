/* prof/coalesce.c — counting requests, sectors, lines and nvprof transactions for one
 * warp-level global or local memory instruction.
 *
 * sm_50 and later (checked against Nsight Compute on an H100, see
 * tests/unit/data/prof/): the L1TEX unit takes a global access of the whole warp as one
 * request, whatever the access size, and fetches every distinct 32-byte sector the lanes
 * touch. Local memory interleaves 4-byte words across the warp, and each word a lane
 * accesses is a request of its own (an 8-byte local access is 2 requests, 16-byte is 4).
 * Atomics are applied in rounds, each taking one lane per distinct address: 32 lanes
 * adding to one address cost 32 sectors and 32 line lookups. nvprof's gld/gst/local
 * transactions are the sectors; its atomic transactions are the line lookups.
 *
 * Fermi and Kepler (CUDA C Programming Guide, compute capability 2.x and 3.x, global
 * memory): an access wider than 4 bytes is first split into one request per half-warp
 * (8 bytes) or quarter-warp (16 bytes), each covering at most 128 bytes, and each is
 * served on its own:
 *   - loads cached in L1 (Fermi's default for global loads; local memory on both): one
 *     128-byte transaction per distinct 128-byte line;
 *   - loads cached in L2 only (Kepler's default for global loads) and atomics: one
 *     32-byte transaction per distinct 32-byte segment;
 *   - global stores: per 128-byte line touched, one transaction of 32, 64 or 128 bytes,
 *     the smallest aligned block covering the touched segments of that line.
 */
#include "coalesce.h"
#include "lanes.h"

/* Up to 32 lanes x 8 granules: a 32-byte local access spans 8 interleaved words. Wider
 * accesses are counted in 32-byte pieces (prof_coalesce). */
#define MAX_ACCESS_BYTES 32u
#define MAX_IDS (32 * MAX_ACCESS_BYTES / 4)

/* Append the granule numbers (address >> shift) that lane's access covers.
 * Local addresses are interleaved 4-byte words (see coalesce.h). */
static uint32_t add_granules(uint64_t *ids, uint32_t n, prof_space space, uint32_t lane,
                             uint64_t a, unsigned size, unsigned shift)
{
    if (space == PROF_SPACE_LOCAL) {
        for (uint64_t w = a >> 2; w <= (a + size - 1) >> 2; w++) {
            uint64_t phys = ((w << 5) + lane) << 2;
            ids[n++] = phys >> shift;
        }
        return n;
    }
    for (uint64_t g = a >> shift; g <= (a + size - 1) >> shift; g++)
        ids[n++] = g;
    return n;
}

/* Distinct granules of 1 << shift bytes touched by the lanes of mask. */
static uint32_t distinct_granules(prof_space space, const uint64_t addr[32], uint32_t mask,
                                  unsigned size, unsigned shift)
{
    uint64_t ids[MAX_IDS];
    uint32_t n = 0;
    for (uint32_t lane = 0; lane < 32; lane++)
        if ((mask >> lane) & 1u)
            n = add_granules(ids, n, space, lane, addr[lane], size, shift);
    return prof_count_distinct(ids, n);
}

/* Distinct sectors, and the lines (four sectors each) they fall in. */
static void distinct_sectors_lines(prof_space space, const uint64_t addr[32], uint32_t mask,
                                   unsigned size, uint32_t *sectors, uint32_t *lines)
{
    uint64_t ids[MAX_IDS];
    uint32_t n = 0;
    for (uint32_t lane = 0; lane < 32; lane++)
        if ((mask >> lane) & 1u)
            n = add_granules(ids, n, space, lane, addr[lane], size, 5);
    *sectors = prof_count_distinct(ids, n);
    for (uint32_t i = 0; i < n; i++)
        ids[i] >>= 2;
    *lines = prof_count_distinct(ids, n);
}

/* Atomics: round r serves one lane of every address that more than r lanes share. */
static void atomic_rounds(const uint64_t addr[32], uint32_t mask, unsigned size,
                          uint32_t *sectors, uint32_t *lines)
{
    uint64_t a[32];
    uint32_t n = 0;
    for (uint32_t lane = 0; lane < 32; lane++)
        if ((mask >> lane) & 1u)
            a[n++] = addr[lane];
    prof_sort_u64(a, n);
    /* Distinct addresses and how many lanes share each. */
    uint64_t uniq[32];
    uint32_t mult[32], nu = 0, rounds = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (nu > 0 && uniq[nu - 1] == a[i]) {
            mult[nu - 1]++;
        } else {
            uniq[nu] = a[i];
            mult[nu++] = 1;
        }
        if (mult[nu - 1] > rounds)
            rounds = mult[nu - 1];
    }
    *sectors = *lines = 0;
    for (uint32_t r = 0; r < rounds; r++) {
        uint64_t sec[64], lin[64];
        uint32_t ns = 0, nl = 0;
        for (uint32_t i = 0; i < nu; i++) {
            if (mult[i] <= r)
                continue;
            ns = add_granules(sec, ns, PROF_SPACE_GLOBAL, 0, uniq[i], size, 5);
            nl = add_granules(lin, nl, PROF_SPACE_GLOBAL, 0, uniq[i], size, 7);
        }
        *sectors += prof_count_distinct(sec, ns);
        *lines += prof_count_distinct(lin, nl);
    }
}

/* Lanes per request on Fermi and Kepler: a request covers at most 128 bytes of data once
 * accesses are wider than 4 bytes. */
static uint32_t legacy_group_lanes(unsigned size)
{
    return size <= 4 ? 32u : 128u / size;
}

/* Fermi/Kepler global store: per 128-byte line, one 32-, 64- or 128-byte transaction. */
static void legacy_store_transactions(const uint64_t addr[32], uint32_t mask, unsigned size,
                                      uint32_t *transactions, uint32_t *bytes)
{
    uint64_t ids[MAX_IDS];
    uint32_t n = 0;
    for (uint32_t lane = 0; lane < 32; lane++)
        if ((mask >> lane) & 1u)
            n = add_granules(ids, n, PROF_SPACE_GLOBAL, lane, addr[lane], size, 5);
    prof_sort_u64(ids, n); /* segments of one line are now adjacent */
    for (uint32_t i = 0; i < n;) {
        uint64_t line = ids[i] >> 2;
        uint32_t seg_bits = 0;  /* which of the line's four 32-byte segments are touched */
        for (; i < n && (ids[i] >> 2) == line; i++)
            seg_bits |= 1u << (ids[i] & 3u);
        uint32_t block;
        if ((seg_bits & (seg_bits - 1)) == 0)
            block = 32;                       /* one segment */
        else if ((seg_bits & 0xcu) == 0 || (seg_bits & 0x3u) == 0)
            block = 64;                       /* within one aligned half */
        else
            block = 128;
        (*transactions)++;
        *bytes += block;
    }
}

static void legacy_transactions(const prof_rules *r, prof_space space, prof_access access,
                                const uint64_t addr[32], uint32_t mask, unsigned size,
                                prof_mem_cost *c)
{
    uint32_t group = legacy_group_lanes(size);
    uint32_t group_mask = group >= 32 ? 0xffffffffu : ((1u << group) - 1u);
    for (uint32_t first = 0; first < 32; first += group) {
        uint32_t m = mask & (group_mask << first);
        if (!m)
            continue;
        if (space == PROF_SPACE_GLOBAL && access == PROF_ACCESS_STORE) {
            legacy_store_transactions(addr, m, size, &c->transactions, &c->bytes_transferred);
        } else if (space == PROF_SPACE_LOCAL ||
                   (access == PROF_ACCESS_LOAD && r->l1_global_loads)) {
            uint32_t lines = distinct_granules(space, addr, m, size, 7);
            c->transactions += lines;
            c->bytes_transferred += lines * PROF_LINE_BYTES;
        } else {
            uint32_t segs = distinct_granules(space, addr, m, size, 5);
            c->transactions += segs;
            c->bytes_transferred += segs * PROF_SECTOR_BYTES;
        }
    }
}

/* An access wider than any single hardware access: count it as consecutive 32-byte
 * pieces of one instruction. */
static prof_mem_cost wide_access(const prof_rules *r, prof_space space, prof_access access,
                                 const uint64_t addr[32], uint32_t mask, unsigned size)
{
    prof_mem_cost c = {0};
    uint64_t piece[32];
    for (unsigned off = 0; off < size; off += MAX_ACCESS_BYTES) {
        for (uint32_t lane = 0; lane < 32; lane++)
            piece[lane] = ((mask >> lane) & 1u) ? addr[lane] + off : 0;
        prof_mem_cost p = prof_coalesce(r, space, access, piece, mask, MAX_ACCESS_BYTES);
        c.requests += off == 0 || space == PROF_SPACE_LOCAL ? p.requests : 0;
        c.sectors += p.sectors;
        c.lines += p.lines;
        c.transactions += p.transactions;
        c.bytes_transferred += p.bytes_transferred;
        c.bytes_used += p.bytes_used;
    }
    c.bytes_requested = prof_popcount(mask) * size;
    return c;
}

prof_mem_cost prof_coalesce(const prof_rules *r, prof_space space, prof_access access,
                            const uint64_t addr[32], uint32_t mask, unsigned size)
{
    prof_mem_cost c = {0};
    if (!mask || !size)
        return c;
    if (size > MAX_ACCESS_BYTES)
        return wide_access(r, space, access, addr, mask, size);

    bool atomic = access == PROF_ACCESS_ATOMIC || access == PROF_ACCESS_REDUCTION;
    c.bytes_requested = prof_popcount(mask) * size;
    c.requests = 1;
    if (space == PROF_SPACE_LOCAL) {
        c.requests = (size + 3) / 4;
        c.bytes_used = c.bytes_requested;  /* every thread has its own local memory */
        distinct_sectors_lines(space, addr, mask, size, &c.sectors, &c.lines);
    } else if (atomic) {
        c.bytes_used = prof_distinct_bytes(addr, mask, size);
        atomic_rounds(addr, mask, size, &c.sectors, &c.lines);
    } else if (prof_contiguous_warp(addr, mask, size)) {
        uint64_t first = addr[0], last = addr[0] + 32u * (uint64_t)size - 1;
        c.bytes_used = c.bytes_requested;
        c.sectors = (uint32_t)((last >> 5) - (first >> 5) + 1);
        c.lines = (uint32_t)((last >> 7) - (first >> 7) + 1);
    } else {
        c.bytes_used = prof_distinct_bytes(addr, mask, size);
        distinct_sectors_lines(space, addr, mask, size, &c.sectors, &c.lines);
    }
    if (r->generation == PROF_GEN_SECTORED) {
        c.transactions = atomic ? c.lines : c.sectors;
        c.bytes_transferred = c.sectors * PROF_SECTOR_BYTES;
    } else {
        legacy_transactions(r, space, access, addr, mask, size, &c);
    }
    return c;
}
