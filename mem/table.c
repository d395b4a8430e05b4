/* mem/table.c — the allocation table: which address ranges are device-visible memory.
 *
 * Lookups happen on every checked global access, on many host threads at once, while the
 * host may allocate concurrently. So the table is a read-copy-update structure:
 *
 *   - The entries live in an immutable snapshot (a sorted array, searched by bisection).
 *     Readers load the current snapshot pointer and search it without taking any lock.
 *   - Writers (add/remove) serialise on a mutex, build a new snapshot, publish it with one
 *     atomic exchange, then wait until no reader can still be looking at the old one
 *     before freeing it.
 *
 * How a writer knows the old snapshot is unused: readers announce themselves in one of
 * MEM_READER_SLOTS counters (chosen by hashing a per-thread address, so different threads
 * rarely share a cache line), under one of two phases. After publishing, a writer drains
 * each phase in turn, switching readers to the other phase first so that a steady stream
 * of new readers cannot keep the drained counters busy (see publish()).
 *
 * All atomics default to sequentially consistent ordering; the correctness argument above
 * relies on the reader's counter increment and snapshot load, and the writer's snapshot
 * store and counter reads, being ordered in one total order.
 */
#include "mem.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MEM_READER_SLOTS 64

typedef struct mem_snapshot {
    size_t count;
    mem_alloc entries[];  /* sorted by base, non-overlapping */
} mem_snapshot;

/* One cache line per slot so readers on different threads do not share lines. */
typedef struct mem_reader_slot {
    _Atomic uint64_t active[2];  /* readers inside a lookup, per phase */
    char pad[64 - 2 * sizeof(uint64_t)];
} mem_reader_slot;

struct mem_table {
    mem_reader_slot readers[MEM_READER_SLOTS];
    _Atomic(mem_snapshot *) current;
    atomic_uint phase;
    pthread_mutex_t write_lock;
    /* the device's mappings (mem_table_map): a table of their own, whose entries are the
     * mapped ranges around allocations; NULL in that table itself */
    struct mem_table *maps;
};

/* Bumped before an entry's removal returns (so before its memory can be released) and
 * when a table goes away; see mem_removal_epoch. */
static _Atomic uint64_t removal_epoch = 1;

uint64_t mem_removal_epoch(void) {
    return atomic_load_explicit(&removal_epoch, memory_order_acquire);
}

void mem_forget_cached(void) { atomic_fetch_add(&removal_epoch, 1); }

/* ---- the read side ---- */

/* A slot index for the calling thread: the address of a thread-local object differs per
 * thread; mix its bits so neighbouring threads land on different slots. */
static unsigned reader_slot_index(void) {
    static _Thread_local char marker;
    uint64_t x = (uint64_t)(uintptr_t)&marker;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (unsigned)(x % MEM_READER_SLOTS);
}

typedef struct mem_read_guard {
    _Atomic uint64_t *counter;
} mem_read_guard;

static const mem_snapshot *read_begin(mem_table *t, mem_read_guard *g) {
    unsigned phase = atomic_load(&t->phase) & 1u;
    g->counter = &t->readers[reader_slot_index()].active[phase];
    atomic_fetch_add(g->counter, 1);
    return atomic_load(&t->current);
}

static void read_end(mem_read_guard *g) {
    atomic_fetch_sub(g->counter, 1);
}

/* Index of the last entry with base <= addr, or -1. */
static ptrdiff_t find_floor(const mem_snapshot *s, uint64_t addr) {
    size_t lo = 0, hi = s->count;  /* answer is in [lo-1, hi-1] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->entries[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (ptrdiff_t)lo - 1;
}

static const mem_alloc *find_containing(const mem_snapshot *s, uint64_t addr) {
    ptrdiff_t i = find_floor(s, addr);
    if (i < 0)
        return NULL;
    const mem_alloc *a = &s->entries[i];
    return addr - a->base < a->size ? a : NULL;
}

bool mem_table_find(mem_table *t, uint64_t addr, mem_alloc *out) {
    mem_read_guard g;
    const mem_snapshot *s = read_begin(t, &g);
    const mem_alloc *a = find_containing(s, addr);
    if (a && out)
        *out = *a;
    read_end(&g);
    return a != NULL;
}

bool mem_table_check(mem_table *t, uint64_t addr, uint64_t size, mem_alloc *out) {
    mem_read_guard g;
    const mem_snapshot *s = read_begin(t, &g);
    const mem_alloc *a = find_containing(s, addr);
    bool ok = a && size <= a->size - (addr - a->base);
    if (ok && out)
        *out = *a;
    read_end(&g);
    return ok;
}

/* device UINT32_MAX: entries of every device */
static void usage(mem_table *t, mem_kind kind, uint32_t device, size_t *count,
                  uint64_t *bytes) {
    mem_read_guard g;
    const mem_snapshot *s = read_begin(t, &g);
    size_t n = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < s->count; i++) {
        if ((kind == 0 || s->entries[i].kind == (uint32_t)kind) &&
            (device == UINT32_MAX || s->entries[i].device == device)) {
            n++;
            total += s->entries[i].size;
        }
    }
    read_end(&g);
    if (count)
        *count = n;
    if (bytes)
        *bytes = total;
}

void mem_table_usage(mem_table *t, mem_kind kind, size_t *count, uint64_t *bytes) {
    usage(t, kind, UINT32_MAX, count, bytes);
}

void mem_table_usage_dev(mem_table *t, mem_kind kind, uint32_t device, size_t *count,
                         uint64_t *bytes) {
    usage(t, kind, device, count, bytes);
}

/* ---- the write side ---- */

static mem_snapshot *snapshot_alloc(size_t count) {
    mem_snapshot *s = malloc(sizeof *s + count * sizeof(mem_alloc));
    if (s)
        s->count = count;
    return s;
}

/* Wait until no reader counts itself in the phase the table is in now, after moving the
 * table to the next phase so that arriving readers count elsewhere and cannot keep this
 * phase's counters busy. */
static void drain_phase(mem_table *t) {
    unsigned phase = atomic_fetch_add(&t->phase, 1u) & 1u;
    for (unsigned i = 0; i < MEM_READER_SLOTS; i++) {
        while (atomic_load(&t->readers[i].active[phase]) != 0)
            sched_yield();
    }
}

/* Make s the current snapshot and free the previous one once no reader can hold it.
 * Called with write_lock held.
 *
 * A reader holding the old snapshot loaded it before the exchange below, so it counted
 * itself (in one phase or the other) before the exchange, and is still counted when the
 * drains below look at its slot: draining both phases, each after the exchange, waits for
 * it. A reader that counts itself after a drain passed its slot loads the snapshot after
 * the exchange and holds s. */
static void publish(mem_table *t, mem_snapshot *s) {
    mem_snapshot *old = atomic_exchange(&t->current, s);
    drain_phase(t);
    drain_phase(t);
    free(old);
}

static mem_table *table_new(void) {
    mem_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    mem_snapshot *s = snapshot_alloc(0);
    if (!s) {
        free(t);
        return NULL;
    }
    atomic_init(&t->current, s);
    atomic_init(&t->phase, 0u);
    for (unsigned i = 0; i < MEM_READER_SLOTS; i++) {
        atomic_init(&t->readers[i].active[0], 0);
        atomic_init(&t->readers[i].active[1], 0);
    }
    pthread_mutex_init(&t->write_lock, NULL);
    return t;
}

mem_table *mem_table_new(void) {
    mem_table *t = table_new();
    if (t && !(t->maps = table_new())) {
        mem_table_free(t);
        return NULL;
    }
    return t;
}

void mem_table_free(mem_table *t) {
    if (!t)
        return;
    atomic_fetch_add(&removal_epoch, 1);
    pthread_mutex_destroy(&t->write_lock);
    free(atomic_load(&t->current));
    mem_table_free(t->maps);
    free(t);
}

bool mem_table_map(mem_table *t, uint64_t base, uint64_t size, uint32_t device) {
    return t->maps && mem_table_add_dev(t->maps, base, size, MEM_KIND_DEVICE, 0, device);
}

bool mem_table_unmap(mem_table *t, uint64_t base) {
    return t->maps && mem_table_remove(t->maps, base, NULL);
}

bool mem_table_check_mapped(mem_table *t, uint64_t addr, uint64_t size, mem_alloc *out) {
    return t->maps && mem_table_check(t->maps, addr, size, out);
}

bool mem_table_add(mem_table *t, uint64_t base, uint64_t size, mem_kind kind, uint32_t flags) {
    return mem_table_add_dev(t, base, size, kind, flags, 0);
}

bool mem_table_add_dev(mem_table *t, uint64_t base, uint64_t size, mem_kind kind,
                       uint32_t flags, uint32_t device) {
    if (size > UINT64_MAX - base)
        return false;  /* the range would wrap around the address space */
    pthread_mutex_lock(&t->write_lock);
    const mem_snapshot *s = atomic_load(&t->current);
    ptrdiff_t floor = find_floor(s, base);
    size_t pos = (size_t)(floor + 1);
    bool overlaps = false;
    if (floor >= 0) {
        const mem_alloc *prev = &s->entries[floor];
        /* Same base is always a clash (entries are identified by base); otherwise the
         * previous entry must end at or before base. */
        overlaps = prev->base == base || base - prev->base < prev->size;
    }
    if (!overlaps && pos < s->count)
        overlaps = s->entries[pos].base - base < size;
    mem_snapshot *n = overlaps ? NULL : snapshot_alloc(s->count + 1);
    if (n) {
        memcpy(n->entries, s->entries, pos * sizeof(mem_alloc));
        n->entries[pos] = (mem_alloc){.base = base, .size = size, .kind = (uint32_t)kind,
                                      .flags = flags, .device = device};
        memcpy(n->entries + pos + 1, s->entries + pos, (s->count - pos) * sizeof(mem_alloc));
        publish(t, n);
    }
    pthread_mutex_unlock(&t->write_lock);
    return n != NULL;
}

bool mem_table_remove(mem_table *t, uint64_t base, mem_alloc *removed) {
    pthread_mutex_lock(&t->write_lock);
    const mem_snapshot *s = atomic_load(&t->current);
    ptrdiff_t i = find_floor(s, base);
    bool found = i >= 0 && s->entries[i].base == base;
    mem_snapshot *n = found ? snapshot_alloc(s->count - 1) : NULL;
    if (n) {
        size_t pos = (size_t)i;
        if (removed)
            *removed = s->entries[pos];
        memcpy(n->entries, s->entries, pos * sizeof(mem_alloc));
        memcpy(n->entries + pos, s->entries + pos + 1,
               (s->count - pos - 1) * sizeof(mem_alloc));
        publish(t, n);
        atomic_fetch_add(&removal_epoch, 1);
    }
    pthread_mutex_unlock(&t->write_lock);
    return n != NULL;
}

void mem_table_each(mem_table *t, void (*fn)(const mem_alloc *a, void *ctx), void *ctx) {
    pthread_mutex_lock(&t->write_lock);
    const mem_snapshot *s = atomic_load(&t->current);
    for (size_t i = 0; i < s->count; i++)
        fn(&s->entries[i], ctx);
    pthread_mutex_unlock(&t->write_lock);
}
