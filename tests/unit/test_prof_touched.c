/* test_prof_touched — the launch's record of sectors touched (prof/touched.c): each sector
 * counts as new exactly once, whatever the ranges (across words, leaves and far apart
 * addresses), and four threads marking overlapping ranges at once count each sector once
 * between them; the inline check of a range already marked (prof_touched_mark_fast) agrees
 * with the call. */
#include <pthread.h>
#include "prof/touched.h"
#include "prof_test.h"

enum { THREADS = 4, SPAN = 100000 };

typedef struct marker {
    prof_touched *t;
    uint64_t base, fresh;
    unsigned seed;
} marker;

/* Every sector of [base, base + SPAN), in ranges of 1 to 100 sectors from a start that
 * depends on the thread, so threads overlap and race on the same words and leaves; the
 * ranges marked by turns through the call and the inline path (its atomic or within one
 * word: the generator's state is odd and even by turns). */
static uint64_t mark(const marker *m, prof_touched_cursor *c, uint64_t first, uint64_t last)
{
    return m->seed % 2 ? prof_touched_mark(m->t, c, first, last)
                       : prof_touched_mark_fast(m->t, c, first, last);
}

static void *mark_all(void *arg)
{
    marker *m = arg;
    prof_touched_cursor c = {0};
    uint64_t at = (uint64_t)m->seed * 7919 % SPAN;
    for (uint64_t done = 0; done < SPAN;) {
        uint64_t n = 1 + (m->seed = m->seed * 1103515245u + 12345u) % 100;
        if (n > SPAN - done)
            n = SPAN - done;
        uint64_t first = at, last = at + n - 1;
        if (last >= SPAN) {  /* wrap: two ranges */
            m->fresh += mark(m, &c, m->base + first, m->base + SPAN - 1);
            n = SPAN - first;
            at = 0;
        } else {
            m->fresh += mark(m, &c, m->base + first, m->base + last);
            at = last + 1 == SPAN ? 0 : last + 1;
        }
        done += n;
    }
    return NULL;
}

int main(void)
{
    prof_touched *t = prof_touched_new();
    EXPECT_EQ(t != NULL, 1);
    if (!t)
        return 1;
    prof_touched_cursor c = {0};
    /* one sector, then again */
    EXPECT_EQ(prof_touched_mark(t, &c, 1000, 1000), 1);
    EXPECT_EQ(prof_touched_mark(t, &c, 1000, 1000), 0);
    /* a range over it and across a word: only the others are new */
    EXPECT_EQ(prof_touched_mark(t, &c, 990, 1070), 80);
    EXPECT_EQ(prof_touched_mark(t, &c, 960, 1100), 141 - 81);
    /* a range across a leaf (32768 sectors) boundary */
    EXPECT_EQ(prof_touched_mark(t, &c, 32760, 32775), 16);
    EXPECT_EQ(prof_touched_mark(t, &c, 32700, 32800), 101 - 16);
    /* a user-space address near the top of 47 bits, and one sector of it again */
    uint64_t high = (0x7ffff0000000ull >> 5);
    EXPECT_EQ(prof_touched_mark(t, &c, high, high + 63), 64);
    EXPECT_EQ(prof_touched_mark(t, &c, high + 10, high + 10), 0);
    /* the first range is still marked after the cursor moved away */
    EXPECT_EQ(prof_touched_mark(t, &c, 1000, 1001), 0);
    /* a whole word at once */
    EXPECT_EQ(prof_touched_mark(t, &c, 64 * 1000, 64 * 1001 - 1), 64);
    /* the inline check of the cursor's leaf: a range wholly marked in one word is 0 without
     * a call; one with a sector unmarked, across words, in another leaf, or at a word's
     * top and bottom bits counts as the call does */
    c = (prof_touched_cursor){0};
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1000, 1003), 0); /* (no leaf yet: the call) */
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1000, 1003), 0);
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 64 * 1000, 64 * 1001 - 1), 0);
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1101, 1102), 2);  /* unmarked, same leaf */
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1100, 1103), 1);  /* one of four new */
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1150, 1153), 4);  /* another word */
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1150, 1153), 0);
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1150, 1220), 67); /* across words */
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1216, 1216), 0);  /* a word's bottom bit */
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1279, 1279), 1);  /* ... and its top */
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1279, 1279), 0);
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 40000, 40003), 4); /* another leaf */
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 1000, 1000), 0);   /* back: the call */
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 40000, 40003), 0);
    /* a whole word but its top sector, then its bottom one, each missing: one new */
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 64 * 700, 64 * 701 - 2), 63);
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 64 * 700, 64 * 701 - 1), 1);
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 64 * 700, 64 * 701 - 1), 0);
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 64 * 710 + 1, 64 * 711 - 1), 63);
    EXPECT_EQ(prof_touched_mark_fast(t, &c, 64 * 710, 64 * 711 - 1), 1);
    EXPECT_EQ(prof_touched_count(t, 64 * 700, 64 * 711 - 1), 128);
    /* what they marked; then the record as the counts below expect it */
    EXPECT_EQ(prof_touched_count(t, 1101, 1279), 2 + 1 + 4 + 67 + 1);
    prof_touched_free(t);
    t = prof_touched_new();
    c = (prof_touched_cursor){0};
    EXPECT_EQ(prof_touched_mark(t, &c, 960, 1100), 141);
    EXPECT_EQ(prof_touched_mark(t, &c, 32700, 32800), 101);
    EXPECT_EQ(prof_touched_mark(t, &c, high, high + 63), 64);
    EXPECT_EQ(prof_touched_mark(t, &c, 64 * 1000, 64 * 1001 - 1), 64);
    /* counting what was marked (managed pages a grid used): ranges within a word, across
     * words and leaves, over leaves never made, and a range that was not marked at all */
    EXPECT_EQ(prof_touched_count(t, 1000, 1000), 1);
    EXPECT_EQ(prof_touched_count(t, 950, 1110), 141);
    EXPECT_EQ(prof_touched_count(t, 32000, 33000), 101);
    EXPECT_EQ(prof_touched_count(t, 0, 40000), 141 + 101);
    EXPECT_EQ(prof_touched_count(t, 64 * 1000 - 5, 64 * 1001 + 5), 64);
    EXPECT_EQ(prof_touched_count(t, high, high + 100), 64);
    EXPECT_EQ(prof_touched_count(t, 1ull << 33, (1ull << 33) + 100000), 0);
    prof_touched_free(t);

    /* threads at once: every sector of the span new exactly once between them */
    t = prof_touched_new();
    marker m[THREADS];
    pthread_t th[THREADS];
    for (unsigned i = 0; i < THREADS; i++) {
        m[i] = (marker){.t = t, .base = (1ull << 30) + 12345, .fresh = 0, .seed = i + 1};
        pthread_create(&th[i], NULL, mark_all, &m[i]);
    }
    uint64_t fresh = 0;
    for (unsigned i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        fresh += m[i].fresh;
    }
    EXPECT_EQ(fresh, SPAN);
    prof_touched_free(t);
    return prof_test_finish("test_prof_touched");
}
