/* check/alloc.c — what the checker knows of the program's allocations: the live ones
 * (in allocation order, for the leak report), the latest frees (use after free, double
 * free), and initcheck's shadow: one byte per byte of each cudaMalloc'd block, non-zero
 * once something wrote it (a memset, a copy, a kernel's store).
 *
 * The registry changes only through API calls; kernels read it (through per-worker
 * caches validated by alloc_gen) under the read lock.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static bool tracks_allocations(const check_state *st) {
    return st && (st->tool == CHECK_TOOL_MEMCHECK || st->tool == CHECK_TOOL_INITCHECK);
}

/* Index of the first allocation whose base is > addr. Called with the lock held. */
static size_t upper_bound(const check_state *st, uint64_t addr) {
    size_t lo = 0, hi = st->nallocs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (st->allocs[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static check_alloc *find_locked(check_state *st, uint64_t addr) {
    size_t i = upper_bound(st, addr);
    if (!i) return NULL;
    check_alloc *a = &st->allocs[i - 1];
    return addr - a->base < a->size ? a : NULL;
}

void check_on_alloc(check_state *st, uint64_t base, uint64_t size, uint32_t kind,
                    uint32_t flags, const char *api) {
    if (!tracks_allocations(st)) return;
    /* where the program allocated it, for the leak report (taken before the lock) */
    char *site = st->leak_check ? check_host_site(st) : NULL;
    pthread_rwlock_wrlock(&st->alloc_lock);
    if (st->nallocs == st->allocs_cap) {
        size_t cap = st->allocs_cap ? st->allocs_cap * 2 : 64;
        check_alloc *p = realloc(st->allocs, cap * sizeof *p);
        if (!p) goto out;
        st->allocs = p;
        st->allocs_cap = cap;
    }
    size_t i = upper_bound(st, base);
    memmove(&st->allocs[i + 1], &st->allocs[i], (st->nallocs - i) * sizeof *st->allocs);
    st->nallocs++;
    check_alloc *a = &st->allocs[i];
    memset(a, 0, sizeof *a);
    a->base = base;
    a->size = size;
    a->kind = kind;
    a->flags = flags;
    a->serial = st->next_serial++;
    snprintf(a->api, sizeof a->api, "%s", api ? api : "cudaMalloc");
    a->site = site;
    site = NULL;
    /* initcheck watches memory only the device writes (cudaMalloc and friends): pinned,
     * managed and registered memory can be written by the host directly */
    if (st->tool == CHECK_TOOL_INITCHECK && kind == MEM_KIND_DEVICE) a->init = calloc(size ? size : 1, 1);
    __atomic_add_fetch(&st->alloc_gen, 1, __ATOMIC_RELEASE);
out:
    pthread_rwlock_unlock(&st->alloc_lock);
    free(site);
}

/* Remove the allocation at base; remember it as freed. Called with the write lock. */
static void release_locked(check_state *st, uint64_t base) {
    size_t i = upper_bound(st, base);
    if (!i || st->allocs[i - 1].base != base) return;
    check_alloc *a = &st->allocs[i - 1];
    check_freed *f = &st->freed[st->nfreed++ % CHECK_FREED_MAX];
    f->base = a->base;
    f->size = a->size;
    f->device_heap = false;
    free(a->init);
    free(a->site);
    memmove(a, a + 1, (st->nallocs - i) * sizeof *a);
    st->nallocs--;
    __atomic_add_fetch(&st->alloc_gen, 1, __ATOMIC_RELEASE);
}

void check_on_free(check_state *st, uint64_t base) {
    if (!tracks_allocations(st)) return;
    pthread_rwlock_wrlock(&st->alloc_lock);
    release_locked(st, base);
    pthread_rwlock_unlock(&st->alloc_lock);
}

bool check_alloc_find(check_state *st, uint64_t addr, check_alloc *out) {
    pthread_rwlock_rdlock(&st->alloc_lock);
    check_alloc *a = find_locked(st, addr);
    if (a) *out = *a;
    pthread_rwlock_unlock(&st->alloc_lock);
    return a != NULL;
}

bool check_freed_find(check_state *st, uint64_t addr, check_freed *out) {
    bool found = false;
    pthread_rwlock_rdlock(&st->alloc_lock);
    uint64_t n = st->nfreed < CHECK_FREED_MAX ? st->nfreed : CHECK_FREED_MAX;
    for (uint64_t k = 0; k < n && !found; k++) {
        const check_freed *f = &st->freed[(st->nfreed - 1 - k) % CHECK_FREED_MAX];
        if (addr - f->base < (f->size ? f->size : 1)) {
            *out = *f;
            found = true;
        }
    }
    pthread_rwlock_unlock(&st->alloc_lock);
    return found;
}

/* ---- frees the runtime refused: the reason goes with the API error that follows ---- */

static _Thread_local char api_detail[160];

void check_on_bad_free(check_state *st, uint64_t ptr) {
    if (!st) return;
    check_freed f;
    check_alloc a;
    if (!ptr) return;
    if (check_alloc_find(st, ptr, &a))
        snprintf(api_detail, sizeof api_detail, "0x%" PRIx64 " is inside the block of "
                 "%" PRIu64 " bytes at 0x%" PRIx64 ", not its start", ptr, a.size, a.base);
    else if (check_freed_find(st, ptr, &f) && f.base == ptr)
        snprintf(api_detail, sizeof api_detail, "0x%" PRIx64 " was freed before "
                 "(double free)", ptr);
    else
        snprintf(api_detail, sizeof api_detail, "0x%" PRIx64 " is not a device "
                 "allocation", ptr);
}

void check_on_bad_pointer(check_state *st, const char *side, const void *ptr, size_t bytes) {
    if (!st) return;
    uint64_t p = (uint64_t)(uintptr_t)ptr;
    check_freed f;
    if (!p)
        snprintf(api_detail, sizeof api_detail, "the %s is a null pointer", side);
    else if (check_freed_find(st, p, &f))
        snprintf(api_detail, sizeof api_detail, "the %s 0x%" PRIx64 " is in a block "
                 "that was freed before (use after free)", side, p);
    else
        snprintf(api_detail, sizeof api_detail, "the %s 0x%" PRIx64 " (%zu bytes) is "
                 "not inside one device allocation", side, p, bytes);
}

/* The detail for the API error being reported on this thread ("" when none); cleared. */
void check_take_api_detail(char *out, size_t n) {
    snprintf(out, n, "%s", api_detail);
    api_detail[0] = 0;
}

/* ---- initcheck: host-side writes ---- */

static void mark(check_state *st, uint64_t dst, size_t n, const uint8_t *from_shadow) {
    while (n) {
        check_alloc *a = find_locked(st, dst);
        size_t step;
        if (!a) {
            /* not tracked here: skip to the next tracked block, if any, in range */
            size_t i = upper_bound(st, dst);
            if (i >= st->nallocs || st->allocs[i].base - dst >= n) return;
            step = (size_t)(st->allocs[i].base - dst);
            if (from_shadow) from_shadow += step;
            dst += step;
            n -= step;
            continue;
        }
        uint64_t off = dst - a->base;
        step = (size_t)(a->size - off) < n ? (size_t)(a->size - off) : n;
        if (a->init) {
            if (from_shadow) memmove(a->init + off, from_shadow, step);
            else memset(a->init + off, 1, step);
        }
        if (from_shadow) from_shadow += step;
        dst += step;
        n -= step;
    }
}

void check_on_host_write(check_state *st, const void *dst, size_t n) {
    if (!st || st->tool != CHECK_TOOL_INITCHECK || !n) return;
    pthread_rwlock_rdlock(&st->alloc_lock);
    mark(st, (uint64_t)(uintptr_t)dst, n, NULL);
    pthread_rwlock_unlock(&st->alloc_lock);
}

void check_on_copy(check_state *st, void *dst, const void *src, size_t n) {
    if (!st || st->tool != CHECK_TOOL_INITCHECK || !n) return;
    pthread_rwlock_rdlock(&st->alloc_lock);
    uint64_t s = (uint64_t)(uintptr_t)src;
    check_alloc *a = find_locked(st, s);
    uint8_t *copy = NULL;
    if (a && a->init && s + n <= a->base + a->size) {
        /* a copy between device blocks carries their state (copied first: the two
         * ranges may overlap) */
        copy = malloc(n);
        if (copy) memcpy(copy, a->init + (s - a->base), n);
    }
    mark(st, (uint64_t)(uintptr_t)dst, n, copy);
    free(copy);
    pthread_rwlock_unlock(&st->alloc_lock);
}

/* ---- leaks ---- */

typedef struct live_ctx {
    uint64_t *bases;
    size_t n, cap;
} live_ctx;

static void collect_live(const mem_alloc *a, void *ctx) {
    live_ctx *l = ctx;
    if (l->n < l->cap) l->bases[l->n++] = a->base;
}

void check_on_context_end(check_state *st, mem_table *t) {
    if (!tracks_allocations(st)) return;
    /* what the table still holds is what the program did not free */
    size_t count = 0;
    uint64_t bytes = 0;
    if (t) mem_table_usage(t, 0, &count, &bytes);
    live_ctx live = {calloc(count + 1, sizeof(uint64_t)), 0, count};
    if (t && live.bases) mem_table_each(t, collect_live, &live);

    pthread_rwlock_wrlock(&st->alloc_lock);
    /* the device allocations still live, in allocation order */
    check_alloc *leaks = calloc(st->nallocs + 1, sizeof *leaks);
    size_t n = 0;
    for (size_t i = 0; leaks && i < st->nallocs; i++) {
        const check_alloc *a = &st->allocs[i];
        bool in_table = false;
        for (size_t k = 0; k < live.n && !in_table; k++) in_table = live.bases[k] == a->base;
        bool device = (a->kind == MEM_KIND_DEVICE || a->kind == MEM_KIND_MANAGED) &&
                      !(a->flags & EXEC_MEM_FLAG_DEVICE_HEAP);
        if (in_table && device) {
            size_t k = n++;
            for (; k > 0 && leaks[k - 1].serial > a->serial; k--) leaks[k] = leaks[k - 1];
            leaks[k] = *a;
            leaks[k].init = NULL;
            leaks[k].site = a->site ? strdup(a->site) : NULL;
        }
    }
    /* the context is gone: so is everything it held */
    for (size_t i = 0; i < st->nallocs; i++) {
        free(st->allocs[i].init);
        free(st->allocs[i].site);
    }
    st->nallocs = 0;
    __atomic_add_fetch(&st->alloc_gen, 1, __ATOMIC_RELEASE);
    pthread_rwlock_unlock(&st->alloc_lock);
    free(live.bases);

    if (st->leak_check && n) {
        uint64_t leaked = 0;
        for (size_t i = 0; i < n; i++) leaked += leaks[i].size;
        pthread_mutex_lock(&st->lock);
        st->leaked_bytes += leaked;
        st->leaked_allocs += n;
        pthread_mutex_unlock(&st->lock);
        /* each leak is one error, as compute-sanitizer counts them */
        for (size_t i = 0; i < n; i++) {
            char c[32];
            check_buf b = {0};
            check_line(&b, "Leaked %s bytes at 0x%" PRIx64, check_commas(leaks[i].size, c),
                       leaks[i].base);
            check_line(&b, "    allocated by %s (the program's allocation #%" PRIu64 ") and "
                       "never freed", leaks[i].api, leaks[i].serial + 1);
            if (leaks[i].site) {
                check_line(&b, "    Saved host backtrace up to driver entry point at allocation time");
                check_host_frame_lines(&b, leaks[i].site);
            }
            check_line(&b, "%s", "");
            check_emit(st, b.p);
            check_buf_free(&b);
        }
    }
    for (size_t i = 0; i < n; i++) free(leaks[i].site);
    free(leaks);
}
