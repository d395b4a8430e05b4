/* tests/unit/test_mem_table.c — the allocation table: lookups, overlap rules, removal,
 * usage, iteration order, and lookups racing with concurrent adds and removes. */
#include "mem/mem.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static void test_basic(void) {
    mem_table *t = mem_table_new();
    mem_alloc a;
    CHECK(!mem_table_find(t, 0x1000, &a));
    CHECK(mem_table_add(t, 0x1000, 0x100, MEM_KIND_DEVICE, 7));
    CHECK(mem_table_add(t, 0x3000, 0x10, MEM_KIND_HOST, 0));
    CHECK(mem_table_add(t, 0x2000, 0x1000, MEM_KIND_MANAGED, 1)); /* ends where 0x3000 starts */

    CHECK(mem_table_find(t, 0x1000, &a) && a.base == 0x1000 && a.size == 0x100 &&
          a.kind == MEM_KIND_DEVICE && a.flags == 7);
    CHECK(mem_table_find(t, 0x10ff, &a) && a.base == 0x1000);
    CHECK(!mem_table_find(t, 0x1100, &a));   /* one past the end */
    CHECK(!mem_table_find(t, 0xfff, &a));
    CHECK(mem_table_find(t, 0x2fff, &a) && a.base == 0x2000);
    CHECK(mem_table_find(t, 0x3000, &a) && a.base == 0x3000);
    CHECK(!mem_table_find(t, 0x3010, &a));
    CHECK(mem_table_find(t, 0x1080, NULL));

    /* check: the whole range inside one entry */
    CHECK(mem_table_check(t, 0x1000, 0x100, &a) && a.base == 0x1000);
    CHECK(mem_table_check(t, 0x10fc, 4, NULL));
    CHECK(!mem_table_check(t, 0x10fd, 4, NULL));
    CHECK(!mem_table_check(t, 0x2ffc, 8, NULL)); /* spans two adjacent entries */
    CHECK(!mem_table_check(t, 0x500, 4, NULL));
    CHECK(!mem_table_check(t, 0x1000, UINT64_MAX, NULL));

    /* overlaps are refused */
    CHECK(!mem_table_add(t, 0x1000, 0x10, MEM_KIND_DEVICE, 0));  /* same base */
    CHECK(!mem_table_add(t, 0x10f0, 0x20, MEM_KIND_DEVICE, 0));  /* starts inside */
    CHECK(!mem_table_add(t, 0x0f00, 0x101, MEM_KIND_DEVICE, 0)); /* runs into 0x1000 */
    CHECK(!mem_table_add(t, 0x0f00, 0x10000, MEM_KIND_DEVICE, 0)); /* covers everything */
    CHECK(!mem_table_add(t, UINT64_MAX - 4, 16, MEM_KIND_DEVICE, 0)); /* wraps */
    CHECK(mem_table_add(t, 0x0f00, 0x100, MEM_KIND_DEVICE, 0)); /* ends exactly at 0x1000 */

    size_t n;
    uint64_t bytes;
    mem_table_usage(t, 0, &n, &bytes);
    CHECK(n == 4 && bytes == 0x100 + 0x10 + 0x1000 + 0x100);
    mem_table_usage(t, MEM_KIND_DEVICE, &n, &bytes);
    CHECK(n == 2 && bytes == 0x200);
    mem_table_usage(t, MEM_KIND_CONST_VAR, &n, &bytes);
    CHECK(n == 0 && bytes == 0);

    /* remove needs the exact base */
    CHECK(!mem_table_remove(t, 0x1001, &a));
    CHECK(mem_table_remove(t, 0x1000, &a) && a.size == 0x100 && a.flags == 7);
    CHECK(!mem_table_find(t, 0x1000, NULL));
    CHECK(!mem_table_remove(t, 0x1000, NULL));
    CHECK(mem_table_find(t, 0x0f00, NULL) && mem_table_find(t, 0x2000, NULL));
    CHECK(mem_table_add(t, 0x1000, 0x80, MEM_KIND_REGISTERED, 0)); /* the hole is free again */
    mem_table_free(t);
}

/* A zero-byte entry is recorded (so it can be removed) but contains no address. */
static void test_zero_size(void) {
    mem_table *t = mem_table_new();
    CHECK(mem_table_add(t, 0x5000, 0, MEM_KIND_DEVICE, 0));
    CHECK(!mem_table_find(t, 0x5000, NULL));
    CHECK(!mem_table_add(t, 0x5000, 16, MEM_KIND_DEVICE, 0));
    CHECK(mem_table_add(t, 0x4ff0, 16, MEM_KIND_DEVICE, 0));
    CHECK(mem_table_remove(t, 0x5000, NULL));
    mem_table_free(t);
}

typedef struct order_ctx {
    uint64_t last;
    int count;
    int sorted;
} order_ctx;

static void record_order(const mem_alloc *a, void *ctx) {
    order_ctx *o = ctx;
    if (o->count > 0 && a->base <= o->last)
        o->sorted = 0;
    o->last = a->base;
    o->count++;
}

static void test_each_in_order(void) {
    mem_table *t = mem_table_new();
    /* insert in a scrambled order */
    for (uint64_t i = 0; i < 200; i++) {
        uint64_t slot = (i * 73) % 200;
        CHECK(mem_table_add(t, 0x100000 + slot * 0x100, 0x80, MEM_KIND_DEVICE, 0));
    }
    order_ctx o = {0, 0, 1};
    mem_table_each(t, record_order, &o);
    CHECK(o.count == 200 && o.sorted);
    for (uint64_t slot = 0; slot < 200; slot++) {
        mem_alloc a;
        CHECK(mem_table_find(t, 0x100000 + slot * 0x100 + 0x7f, &a) &&
              a.base == 0x100000 + slot * 0x100);
        CHECK(!mem_table_find(t, 0x100000 + slot * 0x100 + 0x80, NULL));
    }
    mem_table_free(t);
}

/* Readers look up entries that always exist while a writer keeps adding and removing
 * others; every lookup of a permanent entry must succeed and return the right entry, and
 * no lookup may see a transient entry outside the range the writer gives it. */
#define PERMANENT 64
#define READERS 4

typedef struct race_ctx {
    mem_table *t;
    atomic_int stop;
    atomic_long lookups;
    atomic_int errors;
    atomic_int ready;   /* readers that have made their first lookups */
} race_ctx;

static uint64_t permanent_base(unsigned i) { return 0x10000000ull + i * 0x10000ull; }

static void *reader(void *arg) {
    race_ctx *c = arg;
    unsigned i = 0;
    long n = 0;
    while (!atomic_load(&c->stop)) {
        unsigned k = (i++ * 7) % PERMANENT;
        mem_alloc a;
        if (!mem_table_check(c->t, permanent_base(k) + 100, 4, &a) ||
            a.base != permanent_base(k) || a.size != 0x1000)
            atomic_fetch_add(&c->errors, 1);
        /* transient entries live at permanent + 0x8000, size 0x100 */
        if (mem_table_find(c->t, permanent_base(k) + 0x8000, &a) &&
            (a.base != permanent_base(k) + 0x8000 || a.size != 0x100))
            atomic_fetch_add(&c->errors, 1);
        if (mem_table_find(c->t, permanent_base(k) + 0x9000, NULL))
            atomic_fetch_add(&c->errors, 1);
        if (n++ == 0) atomic_fetch_add(&c->ready, 1);
    }
    atomic_fetch_add(&c->lookups, n);
    return NULL;
}

static void test_concurrent(void) {
    race_ctx c = {.t = mem_table_new()};
    atomic_init(&c.stop, 0);
    atomic_init(&c.lookups, 0);
    atomic_init(&c.errors, 0);
    atomic_init(&c.ready, 0);
    for (unsigned i = 0; i < PERMANENT; i++)
        CHECK(mem_table_add(c.t, permanent_base(i), 0x1000, MEM_KIND_DEVICE, 0));
    pthread_t th[READERS];
    for (int i = 0; i < READERS; i++)
        pthread_create(&th[i], NULL, reader, &c);
    /* The writer starts only once every reader is looking up, so the two really overlap
     * however the host schedules the threads. */
    while (atomic_load(&c.ready) < READERS) sched_yield();
    for (int round = 0; round < 300; round++) {
        unsigned k = (unsigned)(round * 13) % PERMANENT;
        CHECK(mem_table_add(c.t, permanent_base(k) + 0x8000, 0x100, MEM_KIND_HOST, 0));
        CHECK(mem_table_remove(c.t, permanent_base(k) + 0x8000, NULL));
    }
    atomic_store(&c.stop, 1);
    for (int i = 0; i < READERS; i++)
        pthread_join(th[i], NULL);
    CHECK(atomic_load(&c.errors) == 0);
    CHECK(atomic_load(&c.lookups) > 0);
    size_t n;
    mem_table_usage(c.t, 0, &n, NULL);
    CHECK(n == PERMANENT);
    mem_table_free(c.t);
}

int main(void) {
    test_basic();
    test_zero_size();
    test_each_in_order();
    test_concurrent();
    if (failures) {
        fprintf(stderr, "test_mem_table: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_mem_table: ok\n");
    return 0;
}
