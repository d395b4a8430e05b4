/* test_prof_banks.c — shared-memory wavefronts and bank conflicts, computed by hand. */
#include <string.h>
#include "prof/banks.h"
#include "prof_test.h"

#define FULL 0xffffffffu

static prof_rules rules_of(int major)
{
    gpu_preset p = { .key = "t", .major = major };
    return prof_rules_for(&p);
}

static void strided(uint64_t *addr, uint64_t base, uint64_t stride)
{
    for (int i = 0; i < 32; i++)
        addr[i] = base + (uint64_t)i * stride;
}

static prof_shared_cost lds(const prof_rules *r, const uint64_t *a, uint32_t mask, unsigned size)
{
    return prof_banks(r, PROF_ACCESS_LOAD, a, mask, size);
}

static prof_shared_cost sts(const prof_rules *r, const uint64_t *a, uint32_t mask, unsigned size)
{
    return prof_banks(r, PROF_ACCESS_STORE, a, mask, size);
}

static void expect(prof_shared_cost c, uint32_t wavefronts, uint32_t conflicts, int line)
{
    if (c.wavefronts != wavefronts || c.bank_conflicts != conflicts) {
        fprintf(stderr, "line %d: wavefronts %u conflicts %u, want %u and %u\n", line,
                c.wavefronts, c.bank_conflicts, wavefronts, conflicts);
        prof_test_failures++;
    }
    if (c.ideal_wavefronts + c.bank_conflicts != c.wavefronts) {
        fprintf(stderr, "line %d: ideal + conflicts != wavefronts\n", line);
        prof_test_failures++;
    }
}
#define EXPECT_COST(c, wf, bc) expect((c), (wf), (bc), __LINE__)

static void test_four_byte(void)
{
    prof_rules h = rules_of(9);
    uint64_t a[32];

    strided(a, 0, 4);                        /* one word per bank */
    EXPECT_COST(lds(&h, a, FULL, 4), 1, 0);
    strided(a, 256, 0);                      /* everyone reads one word: broadcast */
    EXPECT_COST(lds(&h, a, FULL, 4), 1, 0);
    strided(a, 0, 8);                        /* stride 2: banks 0,2,..,30 twice: 2-way */
    EXPECT_COST(lds(&h, a, FULL, 4), 2, 1);
    strided(a, 0, 12);                       /* stride 3 (odd): conflict-free */
    EXPECT_COST(lds(&h, a, FULL, 4), 1, 0);
    strided(a, 0, 16);                       /* stride 4: 4-way */
    EXPECT_COST(lds(&h, a, FULL, 4), 4, 3);
    strided(a, 0, 128);                      /* a column of a 32x32 tile: 32-way */
    EXPECT_COST(lds(&h, a, FULL, 4), 32, 31);
    EXPECT_COST(sts(&h, a, FULL, 4), 32, 31);
    strided(a, 0, 132);                      /* the same column with a padded row of 33 */
    EXPECT_COST(lds(&h, a, FULL, 4), 1, 0);
    for (int i = 0; i < 32; i++)             /* two words of one bank, 16 lanes each */
        a[i] = (uint64_t)(i % 2) * 128;
    EXPECT_COST(lds(&h, a, FULL, 4), 2, 1);
    strided(a, 0, 128);                      /* only 4 lanes on: 4-way */
    EXPECT_COST(lds(&h, a, 0x0000000fu, 4), 4, 3);
    strided(a, 0, 1);                        /* bytes: 4 lanes per word, 8 words */
    prof_shared_cost c = lds(&h, a, FULL, 1);
    EXPECT_COST(c, 1, 0);
    EXPECT_EQ(c.bytes_used, 32);
    c = lds(&h, a, 0, 4);                    /* nothing on */
    EXPECT_EQ(c.requests, 0);
    EXPECT_EQ(c.wavefronts, 0);
}

static void test_wide(void)
{
    prof_rules h = rules_of(9);
    uint64_t a[32];

    /* 8 bytes per lane, consecutive: 256 bytes need two wavefronts; not a conflict */
    strided(a, 0, 8);
    EXPECT_COST(lds(&h, a, FULL, 8), 2, 0);
    EXPECT_COST(sts(&h, a, FULL, 8), 2, 0);
    /* 8 bytes at stride 16: each half-warp spans 256 bytes: 2 wavefronts per half */
    strided(a, 0, 16);
    EXPECT_COST(lds(&h, a, FULL, 8), 4, 2);
    /* 16 bytes per lane, consecutive: four quarter-warps of 128 bytes */
    strided(a, 0, 16);
    EXPECT_COST(lds(&h, a, FULL, 16), 4, 0);
    /* 16 bytes at stride 32: each quarter spans 256 bytes */
    strided(a, 0, 32);
    EXPECT_COST(lds(&h, a, FULL, 16), 8, 4);

    /* broadcast of 8 bytes: a load pairs lanes up and needs one wavefront; a store is
     * still split in half-warps */
    strided(a, 64, 0);
    EXPECT_COST(lds(&h, a, FULL, 8), 1, 0);
    EXPECT_COST(sts(&h, a, FULL, 8), 2, 0);
    /* broadcast of 16 bytes: half-warps instead of quarters */
    EXPECT_COST(lds(&h, a, FULL, 16), 2, 0);
    EXPECT_COST(sts(&h, a, FULL, 16), 4, 0);

    /* lanes 2k and 2k+1 read the same 8 bytes: 16 distinct words fit one wavefront */
    for (int i = 0; i < 32; i++)
        a[i] = (uint64_t)(i / 2) * 8;
    EXPECT_COST(lds(&h, a, FULL, 8), 1, 0);

    /* lanes alternate between two rows (lane ^ 2 pairs up): whole-warp groups, but the
     * two rows share banks: 2 wavefronts, 1 conflict; the instruction-level counter
     * pairs only lane ^ 1 and sees 4 */
    for (int i = 0; i < 32; i++)
        a[i] = (uint64_t)(i % 2) * 128;
    prof_shared_cost c = lds(&h, a, FULL, 8);
    EXPECT_COST(c, 2, 1);
    EXPECT_EQ(c.sass_wavefronts, 4);

    /* odd lanes only, consecutive 8 bytes: the off partners do not break pairing, so the
     * warp is one group: lanes 1 and 17 hit bank 2 with different words */
    strided(a, 0, 8);
    EXPECT_COST(lds(&h, a, 0xaaaaaaaau, 8), 2, 1);
    /* the same as a store: two half-warps, conflict-free */
    EXPECT_COST(sts(&h, a, 0xaaaaaaaau, 8), 2, 0);
}

static void test_atomics(void)
{
    prof_rules h = rules_of(9);
    uint64_t a[32];
    /* no broadcast for atomics: 32 lanes on one word are 32 operations in bank 0 */
    strided(a, 64, 0);
    EXPECT_COST(prof_banks(&h, PROF_ACCESS_ATOMIC, a, FULL, 4), 32, 31);
    /* one word per bank: one wavefront */
    strided(a, 0, 4);
    EXPECT_COST(prof_banks(&h, PROF_ACCESS_REDUCTION, a, FULL, 4), 1, 0);
    /* lanes in pairs on 16 words: two lanes per bank */
    for (int i = 0; i < 32; i++)
        a[i] = (uint64_t)(i / 2) * 4;
    EXPECT_COST(prof_banks(&h, PROF_ACCESS_ATOMIC, a, FULL, 4), 2, 1);
    /* stride 4 words: 4 lanes in each of 8 banks */
    strided(a, 0, 16);
    EXPECT_COST(prof_banks(&h, PROF_ACCESS_ATOMIC, a, FULL, 4), 4, 3);
}

static void test_older(void)
{
    uint64_t a[32];
    /* Maxwell/Pascal (sm_5x/6x) and Fermi: no pairing of wide loads */
    prof_rules m = rules_of(6);
    strided(a, 64, 0);
    EXPECT_COST(lds(&m, a, FULL, 8), 2, 0);
    prof_rules f = rules_of(2);
    EXPECT_EQ(f.shared_wavefront_bytes, 128);
    strided(a, 0, 8);
    EXPECT_COST(lds(&f, a, FULL, 8), 2, 0);

    /* Kepler, four-byte mode: like the others; eight-byte mode: 32 banks of 8 bytes */
    prof_rules k = rules_of(3);
    EXPECT_EQ(k.shared_wavefront_bytes, 256);
    EXPECT_COST(lds(&k, a, FULL, 8), 2, 0);
    EXPECT_EQ(prof_rules_set_bank_bytes(&k, 8), true);
    EXPECT_COST(lds(&k, a, FULL, 8), 1, 0);       /* 256 bytes in one pass */
    strided(a, 0, 16);
    EXPECT_COST(lds(&k, a, FULL, 16), 2, 0);      /* 512 bytes: two half-warps */
    strided(a, 0, 8);
    EXPECT_COST(lds(&k, a, FULL, 4), 1, 0);       /* stride-2 words: 8-byte banks */
    strided(a, 0, 4);
    EXPECT_COST(lds(&k, a, FULL, 4), 1, 0);       /* two lanes per 8-byte word */
    strided(a, 0, 256);
    EXPECT_COST(lds(&k, a, FULL, 4), 32, 31);     /* all in bank 0 */

    /* only Kepler has the eight-byte mode */
    prof_rules h = rules_of(9);
    EXPECT_EQ(prof_rules_set_bank_bytes(&h, 8), false);
    EXPECT_EQ(h.shared_bank_bytes, 4);
    EXPECT_EQ(prof_rules_set_bank_bytes(&h, 4), true);
    EXPECT_EQ(prof_rules_set_bank_bytes(&k, 3), false);
}

int main(void)
{
    test_four_byte();
    test_wide();
    test_atomics();
    test_older();
    return prof_test_finish("test_prof_banks");
}
