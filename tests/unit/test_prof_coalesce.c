/* test_prof_coalesce.c — global and local access costs, computed by hand.
 * sm_70+ (H100) figures: requests and 32-byte sectors; Fermi and Kepler: nvprof's
 * 128-byte and 32-byte transactions. */
#include <string.h>
#include "prof/coalesce.h"
#include "prof_test.h"

#define FULL 0xffffffffu

static prof_rules rules_of(int major, int l1_global)
{
    gpu_preset p = { .key = "t", .major = major, .l1_caches_global_loads = l1_global };
    return prof_rules_for(&p);
}

/* addr[lane] = base + lane * stride */
static void strided(uint64_t *addr, uint64_t base, uint64_t stride)
{
    for (int i = 0; i < 32; i++)
        addr[i] = base + (uint64_t)i * stride;
}

static prof_mem_cost ld(const prof_rules *r, const uint64_t *a, uint32_t mask, unsigned size)
{
    return prof_coalesce(r, PROF_SPACE_GLOBAL, PROF_ACCESS_LOAD, a, mask, size);
}

static prof_mem_cost st(const prof_rules *r, const uint64_t *a, uint32_t mask, unsigned size)
{
    return prof_coalesce(r, PROF_SPACE_GLOBAL, PROF_ACCESS_STORE, a, mask, size);
}

static void test_sectored(void)
{
    prof_rules h = rules_of(9, 0);
    uint64_t a[32];
    const uint64_t base = 0x7f0000001000ull;  /* 4 KiB aligned, like a device allocation */

    /* 32 lanes x 4 B consecutive, aligned: 128 B = 4 sectors, 1 request, 100% */
    strided(a, base, 4);
    prof_mem_cost c = ld(&h, a, FULL, 4);
    EXPECT_EQ(c.requests, 1);
    EXPECT_EQ(c.sectors, 4);
    EXPECT_EQ(c.lines, 1);
    EXPECT_EQ(c.transactions, 4);
    EXPECT_EQ(c.bytes_requested, 128);
    EXPECT_EQ(c.bytes_used, 128);
    EXPECT_EQ(c.bytes_transferred, 128);

    /* stride 2 (every other word): 256 B span = 8 sectors, half of them unused: 50% */
    strided(a, base, 8);
    c = ld(&h, a, FULL, 4);
    EXPECT_EQ(c.sectors, 8);
    EXPECT_EQ(c.bytes_used * 100 / c.bytes_transferred, 50);

    /* misaligned by 4 bytes: bytes 4..131 touch sectors 0..4 = 5 sectors, 80% */
    strided(a, base + 4, 4);
    c = ld(&h, a, FULL, 4);
    EXPECT_EQ(c.sectors, 5);
    EXPECT_EQ(c.lines, 2);
    EXPECT_EQ(c.bytes_used * 100 / c.bytes_transferred, 80);

    /* 16 B per lane (ld.v4.f32): still 1 request, 512 B = 16 sectors */
    strided(a, base, 16);
    c = ld(&h, a, FULL, 16);
    EXPECT_EQ(c.requests, 1);
    EXPECT_EQ(c.sectors, 16);
    EXPECT_EQ(c.lines, 4);

    /* 8 B per lane: 256 B = 8 sectors, 1 request */
    strided(a, base, 8);
    c = ld(&h, a, FULL, 8);
    EXPECT_EQ(c.requests, 1);
    EXPECT_EQ(c.sectors, 8);

    /* every lane reads the same word: 1 sector; 4 distinct bytes of 32 = 12.5% */
    strided(a, base + 64, 0);
    c = ld(&h, a, FULL, 4);
    EXPECT_EQ(c.sectors, 1);
    EXPECT_EQ(c.bytes_requested, 128);
    EXPECT_EQ(c.bytes_used, 4);

    /* one sector per lane (stride 32 B) and one line per lane (stride 128 B) */
    strided(a, base, 32);
    c = ld(&h, a, FULL, 4);
    EXPECT_EQ(c.sectors, 32);
    EXPECT_EQ(c.lines, 8);
    strided(a, base, 128);
    c = ld(&h, a, FULL, 4);
    EXPECT_EQ(c.sectors, 32);
    EXPECT_EQ(c.lines, 32);

    /* half the warp on: 64 B = 2 sectors; odd lanes only: still spread over 4 sectors */
    strided(a, base, 4);
    EXPECT_EQ(ld(&h, a, 0x0000ffffu, 4).sectors, 2);
    EXPECT_EQ(ld(&h, a, 0xaaaaaaaau, 4).sectors, 4);

    /* reversed lane order changes nothing */
    for (int i = 0; i < 32; i++)
        a[i] = base + (uint64_t)(31 - i) * 4;
    EXPECT_EQ(ld(&h, a, FULL, 4).sectors, 4);

    /* bytes: 32 lanes x 1 B = 1 sector */
    strided(a, base, 1);
    c = ld(&h, a, FULL, 1);
    EXPECT_EQ(c.sectors, 1);
    EXPECT_EQ(c.bytes_used, 32);

    /* no lane on: nothing at all */
    c = ld(&h, a, 0, 4);
    EXPECT_EQ(c.requests, 0);
    EXPECT_EQ(c.sectors, 0);

    /* stores follow the same sector rules on sm_70+ */
    strided(a, base + 4, 4);
    c = st(&h, a, FULL, 4);
    EXPECT_EQ(c.requests, 1);
    EXPECT_EQ(c.sectors, 5);
    EXPECT_EQ(c.transactions, 5);

    /* an access crossing a sector boundary counts both sectors */
    a[0] = base + 30;
    c = ld(&h, a, 1u, 4);
    EXPECT_EQ(c.sectors, 2);
}

static void test_local(void)
{
    prof_rules h = rules_of(9, 0);
    uint64_t a[32];

    /* all lanes at the same local offset: the interleaving puts lane l's word at
     * (w * 32 + l) * 4, one 128-byte row: 4 sectors, 1 request */
    strided(a, 16, 0);
    prof_mem_cost c = prof_coalesce(&h, PROF_SPACE_LOCAL, PROF_ACCESS_LOAD, a, FULL, 4);
    EXPECT_EQ(c.requests, 1);
    EXPECT_EQ(c.sectors, 4);

    /* 8 bytes at the same offset: two rows, one request each */
    c = prof_coalesce(&h, PROF_SPACE_LOCAL, PROF_ACCESS_STORE, a, FULL, 8);
    EXPECT_EQ(c.requests, 2);
    EXPECT_EQ(c.sectors, 8);
    /* 16 bytes: four rows */
    c = prof_coalesce(&h, PROF_SPACE_LOCAL, PROF_ACCESS_LOAD, a, FULL, 16);
    EXPECT_EQ(c.requests, 4);
    EXPECT_EQ(c.sectors, 16);

    /* lane l reads its own element l (arr[lane]): word l of lane l sits in row l at
     * column l: every lane in a different sector */
    strided(a, 0, 4);
    c = prof_coalesce(&h, PROF_SPACE_LOCAL, PROF_ACCESS_LOAD, a, FULL, 4);
    EXPECT_EQ(c.sectors, 32);

    /* half the warp, same offset: lanes 0..15 fill half a row = 2 sectors */
    strided(a, 0, 0);
    c = prof_coalesce(&h, PROF_SPACE_LOCAL, PROF_ACCESS_LOAD, a, 0x0000ffffu, 4);
    EXPECT_EQ(c.sectors, 2);
}

static void test_atomics(void)
{
    prof_rules h = rules_of(9, 0);
    uint64_t a[32];
    const uint64_t base = 0x10000;

    /* distinct consecutive words: 4 sectors, 1 line lookup */
    strided(a, base, 4);
    prof_mem_cost c = prof_coalesce(&h, PROF_SPACE_GLOBAL, PROF_ACCESS_ATOMIC, a, FULL, 4);
    EXPECT_EQ(c.requests, 1);
    EXPECT_EQ(c.sectors, 4);
    EXPECT_EQ(c.lines, 1);
    EXPECT_EQ(c.transactions, 1);

    /* all lanes on one counter: 32 rounds of one lane each */
    strided(a, base, 0);
    c = prof_coalesce(&h, PROF_SPACE_GLOBAL, PROF_ACCESS_REDUCTION, a, FULL, 4);
    EXPECT_EQ(c.sectors, 32);
    EXPECT_EQ(c.lines, 32);
    EXPECT_EQ(c.transactions, 32);

    /* lanes in pairs on 16 words (64 B): 2 rounds x (2 sectors, 1 line) */
    for (int i = 0; i < 32; i++)
        a[i] = base + (uint64_t)(i / 2) * 4;
    c = prof_coalesce(&h, PROF_SPACE_GLOBAL, PROF_ACCESS_ATOMIC, a, FULL, 4);
    EXPECT_EQ(c.sectors, 4);
    EXPECT_EQ(c.lines, 2);
}

static void test_kepler(void)
{
    /* K40: global loads cached in L2 only, 32-byte segments */
    prof_rules k = rules_of(3, 0);
    uint64_t a[32];
    const uint64_t base = 0x20000;

    strided(a, base, 4);
    prof_mem_cost c = ld(&k, a, FULL, 4);
    EXPECT_EQ(c.transactions, 4);
    EXPECT_EQ(c.bytes_transferred, 128);

    strided(a, base, 8);
    EXPECT_EQ(ld(&k, a, FULL, 4).transactions, 8);

    /* 8-byte accesses: one request per half-warp, each 128 B = 4 segments */
    strided(a, base, 8);
    c = ld(&k, a, FULL, 8);
    EXPECT_EQ(c.transactions, 8);
    EXPECT_EQ(c.requests, 1);

    /* 8 bytes, every lane the same address: each half-warp fetches its own segment */
    strided(a, base, 0);
    EXPECT_EQ(ld(&k, a, FULL, 8).transactions, 2);

    /* stores: one transaction per 128-byte line, sized to cover the touched segments */
    strided(a, base, 4);
    c = st(&k, a, FULL, 4);
    EXPECT_EQ(c.transactions, 1);
    EXPECT_EQ(c.bytes_transferred, 128);
    c = st(&k, a, 0x000000ffu, 4);      /* bytes 0..31: one 32-byte segment */
    EXPECT_EQ(c.transactions, 1);
    EXPECT_EQ(c.bytes_transferred, 32);
    c = st(&k, a, 0x0000ffffu, 4);      /* bytes 0..63: the first half */
    EXPECT_EQ(c.bytes_transferred, 64);
    c = st(&k, a, 0x00000ff0u, 4);      /* bytes 16..47: segments 0 and 1, one half */
    EXPECT_EQ(c.bytes_transferred, 64);
    c = st(&k, a, 0x000ff000u, 4);      /* bytes 48..79: segments 1 and 2, across halves */
    EXPECT_EQ(c.transactions, 1);
    EXPECT_EQ(c.bytes_transferred, 128);
    strided(a, base + 4, 4);            /* misaligned: two lines, 128 + 32 bytes */
    c = st(&k, a, FULL, 4);
    EXPECT_EQ(c.transactions, 2);
    EXPECT_EQ(c.bytes_transferred, 160);

    /* local memory is cached in L1: 128-byte lines */
    strided(a, 0, 0);
    c = prof_coalesce(&k, PROF_SPACE_LOCAL, PROF_ACCESS_LOAD, a, FULL, 4);
    EXPECT_EQ(c.transactions, 1);
    EXPECT_EQ(c.bytes_transferred, 128);
}

static void test_fermi(void)
{
    /* Fermi: global loads cached in L1, 128-byte lines */
    prof_rules f = rules_of(2, 1);
    uint64_t a[32];
    const uint64_t base = 0x40000;

    strided(a, base, 4);
    prof_mem_cost c = ld(&f, a, FULL, 4);
    EXPECT_EQ(c.transactions, 1);
    EXPECT_EQ(c.bytes_transferred, 128);

    /* misaligned by 4 bytes: two lines, 128 of 256 bytes used = 50% */
    strided(a, base + 4, 4);
    c = ld(&f, a, FULL, 4);
    EXPECT_EQ(c.transactions, 2);
    EXPECT_EQ(c.bytes_used * 100 / c.bytes_transferred, 50);

    /* 16 bytes per lane: one request per quarter-warp, one line each */
    strided(a, base, 16);
    EXPECT_EQ(ld(&f, a, FULL, 16).transactions, 4);

    /* a line per lane */
    strided(a, base, 128);
    c = ld(&f, a, FULL, 4);
    EXPECT_EQ(c.transactions, 32);
    EXPECT_EQ(c.bytes_transferred, 32 * 128);

    /* the same preset without L1 caching of globals (-dlcm=cg) uses 32-byte segments */
    prof_rules cg = rules_of(2, 0);
    strided(a, base + 4, 4);
    EXPECT_EQ(ld(&cg, a, FULL, 4).transactions, 5);
}

static void test_wide(void)
{
    /* a 64-byte access per lane is counted as two 32-byte pieces of one request */
    prof_rules h = rules_of(9, 0);
    uint64_t a[32];
    strided(a, 0x80000, 64);
    prof_mem_cost c = ld(&h, a, 1u, 64);
    EXPECT_EQ(c.requests, 1);
    EXPECT_EQ(c.sectors, 2);
    EXPECT_EQ(c.bytes_requested, 64);
}

int main(void)
{
    test_sectored();
    test_local();
    test_atomics();
    test_kepler();
    test_fermi();
    test_wide();
    return prof_test_finish("test_prof_coalesce");
}
