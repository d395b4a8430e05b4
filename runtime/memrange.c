/* runtime/memrange.c — what cudaMemAdvise and cudaMemPrefetchAsync said about managed
 * memory, kept per allocation, and given back by cudaMemRangeGetAttribute(s); and, for
 * the timing model, where each 64 KiB of it would be on a GPU.
 *
 * A virtual device has one memory, so advice and prefetches move nothing; they are only
 * remembered. They are kept for the whole allocation the advised range lies in (a GPU
 * keeps them per page): a query answers for the allocation its range starts in.
 *
 * Where pages are (profiled runs only): a chunk nobody touched is nowhere; one whose host
 * pages are resident before a profiled grid runs was touched by the host (memory comes
 * only as it is touched: mincore tells); a chunk a profiled grid touched, or that was
 * prefetched to the device, is on the device until prefetched to the host. A grid that
 * touches chunks on the host migrates them, and chunks nowhere are made on the device:
 * page faults, whose time prof_managed_fault_s gives. The host touching a chunk again
 * after the device had it (a GPU migrates it back on the host's fault, and the next grid
 * touching it migrates it to the device again) shows in memory mapped in whole shared pages
 * (RT_MEM_FLAG_UVM_PAGES, memory.c): after a grid the page-table entries of its chunks on
 * the device are dropped (their contents stay), and a chunk with an entry present again
 * before the next profiled grid was touched by the host meanwhile (/proc/self/pagemap).
 * Other managed memory (smaller than a page) is taken to stay on the device. A copy the
 * runtime makes into or out of such memory between grids reads as the host's touch too
 * (on a GPU a copy engine would reach the pages where they are).
 */
#include "rt.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../prof/session.h"
#include "../prof/timing.h"

typedef struct rt_range_info {
    bool read_mostly;
    struct cudaMemLocation preferred;   /* type cudaMemLocationTypeInvalid: none */
    bool accessed_by_device, accessed_by_host;
    struct cudaMemLocation prefetched;  /* type cudaMemLocationTypeInvalid: never */
    uint8_t *where;                     /* per RT_UVM_CHUNK: rt_uvm_place (timing only) */
    size_t nchunks;
} rt_range_info;

#define RT_UVM_CHUNK (64u << 10)
/* RT_UVM_BACK: on the host again, taken back from the device by the host's touch */
typedef enum { RT_UVM_NOWHERE, RT_UVM_HOST, RT_UVM_DEVICE, RT_UVM_BACK } rt_uvm_place;

static pthread_mutex_t rt_range_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_ptrmap rt_ranges; /* allocation base -> rt_range_info */

static rt_range_info *rt_range_of(uint64_t base, bool make) {
    rt_range_info *r = rt_ptrmap_get(&rt_ranges, (const void *)(uintptr_t)base);
    if (!r && make && (r = calloc(1, sizeof *r)) &&
        !rt_ptrmap_put(&rt_ranges, (const void *)(uintptr_t)base, r)) {
        free(r);
        r = NULL;
    }
    return r;
}

static bool rt_is_host(const struct cudaMemLocation *l) {
    return l->type == cudaMemLocationTypeHost || l->type == cudaMemLocationTypeHostNuma ||
           l->type == cudaMemLocationTypeHostNumaCurrent;
}

void rt_memrange_advise(uint64_t base, enum cudaMemoryAdvise advice,
                        struct cudaMemLocation location) {
    pthread_mutex_lock(&rt_range_lock);
    rt_range_info *r = rt_range_of(base, true);
    if (r) {
        switch (advice) {
        case cudaMemAdviseSetReadMostly: r->read_mostly = true; break;
        case cudaMemAdviseUnsetReadMostly: r->read_mostly = false; break;
        case cudaMemAdviseSetPreferredLocation: r->preferred = location; break;
        case cudaMemAdviseUnsetPreferredLocation:
            memset(&r->preferred, 0, sizeof r->preferred);
            break;
        case cudaMemAdviseSetAccessedBy:
        case cudaMemAdviseUnsetAccessedBy:
            if (rt_is_host(&location)) r->accessed_by_host = advice == cudaMemAdviseSetAccessedBy;
            else r->accessed_by_device = advice == cudaMemAdviseSetAccessedBy;
            break;
        default: break;
        }
    }
    pthread_mutex_unlock(&rt_range_lock);
}

/* The chunk places of an allocation of size bytes (made nowhere on first need). */
static uint8_t *rt_range_places(rt_range_info *r, uint64_t size) {
    size_t n = (size_t)((size + RT_UVM_CHUNK - 1) / RT_UVM_CHUNK);
    if (!r->where && n && (r->where = calloc(n, 1))) r->nchunks = n;
    return r->where;
}

static void rt_uvm_drop_pages(uint64_t lo, uint64_t hi);

void rt_memrange_prefetched(uint64_t base, uint64_t size, uint32_t flags, uint64_t ptr,
                            uint64_t count, struct cudaMemLocation location) {
    pthread_mutex_lock(&rt_range_lock);
    rt_range_info *r = rt_range_of(base, true);
    if (r) {
        r->prefetched = location;
        uint8_t *w = rt_range_places(r, size);
        uint8_t to = rt_is_host(&location) ? RT_UVM_HOST
                     : location.type == cudaMemLocationTypeDevice ? RT_UVM_DEVICE : 0;
        for (uint64_t k = (ptr - base) / RT_UVM_CHUNK;
             w && to && count && k < r->nchunks && k * RT_UVM_CHUNK < ptr - base + count; k++) {
            w[k] = to;
            /* moved to the device: the host's earlier touches are behind it */
            if (to == RT_UVM_DEVICE && (flags & RT_MEM_FLAG_UVM_PAGES))
                rt_uvm_drop_pages(base + k * RT_UVM_CHUNK,
                                  base + (k + 1) * RT_UVM_CHUNK < base + size
                                      ? base + (k + 1) * RT_UVM_CHUNK : base + size);
        }
    }
    pthread_mutex_unlock(&rt_range_lock);
}

void rt_memrange_forget(uint64_t base) {
    pthread_mutex_lock(&rt_range_lock);
    rt_range_info *r = rt_ptrmap_remove(&rt_ranges, (const void *)(uintptr_t)base);
    if (r) free(r->where);
    free(r);
    pthread_mutex_unlock(&rt_range_lock);
}

/* The managed allocations, for a profiled grid's page faults. */
typedef struct rt_managed_list {
    mem_alloc *a;
    size_t n, cap;
} rt_managed_list;

static void rt_collect_managed(const mem_alloc *a, void *ctx) {
    rt_managed_list *l = ctx;
    if (a->kind != MEM_KIND_MANAGED || !a->size) return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        mem_alloc *n = realloc(l->a, cap * sizeof *n);
        if (!n) return;
        l->a = n;
        l->cap = cap;
    }
    l->a[l->n++] = *a;
}

/* Whether any host page of [lo, hi) is resident: the host touched it. */
static bool rt_host_resident(uint64_t lo, uint64_t hi) {
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0) pg = 4096;
    uint64_t first = lo / (uint64_t)pg * (uint64_t)pg;
    size_t pages = (size_t)((hi - first + (uint64_t)pg - 1) / (uint64_t)pg);
    unsigned char vec[64];
    for (size_t done = 0; done < pages; done += 64) {
        size_t k = pages - done < 64 ? pages - done : 64;
        if (mincore((void *)(uintptr_t)(first + done * (uint64_t)pg), k * (size_t)pg, vec))
            continue;  /* not mapped (yet): not touched */
        for (size_t i = 0; i < k; i++)
            if (vec[i] & 1) return true;
    }
    return false;
}

/* Whether any page of [lo, hi) has its page-table entry present (/proc/self/pagemap,
 * bit 63): touched since rt_uvm_drop_pages dropped them. False where pagemap cannot be
 * read (nothing is then seen, as before). */
static bool rt_pages_present(uint64_t lo, uint64_t hi) {
    static int fd = -2;
    if (fd == -2) fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t e[64];
    for (uint64_t p = lo / pg; p < (hi + pg - 1) / pg; p += 64) {
        uint64_t k = (hi + pg - 1) / pg - p;
        if (k > 64) k = 64;
        ssize_t got = pread(fd, e, k * sizeof e[0], (off_t)(p * sizeof e[0]));
        if (got <= 0) return false;
        for (size_t i = 0; i < (size_t)got / sizeof e[0]; i++)
            if (e[i] >> 63) return true;
    }
    return false;
}

/* Drop the page-table entries of [lo, hi) of a shared mapping (the contents stay). */
static void rt_uvm_drop_pages(uint64_t lo, uint64_t hi) {
    uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
    hi = (hi + pg - 1) / pg * pg;
    if (hi > lo) madvise((void *)(uintptr_t)lo, (size_t)(hi - lo), MADV_DONTNEED);
}

void rt_memrange_before_grid(rt_context *c) {
    rt_managed_list l = {0};
    mem_table_each(c->mem, rt_collect_managed, &l);
    pthread_mutex_lock(&rt_range_lock);
    for (size_t i = 0; i < l.n; i++) {
        rt_range_info *r = rt_range_of(l.a[i].base, true);
        uint8_t *w = r ? rt_range_places(r, l.a[i].size) : NULL;
        for (size_t k = 0; w && k < r->nchunks; k++) {
            uint64_t lo = l.a[i].base + k * RT_UVM_CHUNK, hi = lo + RT_UVM_CHUNK;
            if (hi > l.a[i].base + l.a[i].size) hi = l.a[i].base + l.a[i].size;
            if (w[k] == RT_UVM_NOWHERE && rt_host_resident(lo, hi)) w[k] = RT_UVM_HOST;
            /* on the device, its entries dropped after the last grid: present again, the
             * host touched it since (and would have had it migrated back) */
            else if (w[k] == RT_UVM_DEVICE && (l.a[i].flags & RT_MEM_FLAG_UVM_PAGES) &&
                     rt_pages_present(lo, hi))
                w[k] = RT_UVM_BACK;
        }
    }
    pthread_mutex_unlock(&rt_range_lock);
    free(l.a);
}

void rt_memrange_after_grid(rt_context *c, prof_session *s, uint64_t *migrated,
                            uint64_t *returned, uint64_t *populated) {
    *migrated = *returned = *populated = 0;
    rt_managed_list l = {0};
    mem_table_each(c->mem, rt_collect_managed, &l);
    pthread_mutex_lock(&rt_range_lock);
    for (size_t i = 0; i < l.n; i++) {
        rt_range_info *r = rt_range_of(l.a[i].base, false);
        uint8_t *w = r ? r->where : NULL;
        for (size_t k = 0; w && k < r->nchunks; k++) {
            uint64_t lo = l.a[i].base + k * RT_UVM_CHUNK, hi = lo + RT_UVM_CHUNK;
            if (hi > l.a[i].base + l.a[i].size) hi = l.a[i].base + l.a[i].size;
            if (w[k] == RT_UVM_DEVICE || !prof_session_touched_bytes(s, lo, hi)) continue;
            if (w[k] == RT_UVM_HOST || w[k] == RT_UVM_BACK) *migrated += hi - lo;
            else *populated += hi - lo;
            if (w[k] == RT_UVM_BACK) *returned += hi - lo;
            w[k] = RT_UVM_DEVICE;
        }
        /* the chunks on the device: their entries dropped, to see the host come back */
        for (size_t k = 0; w && (l.a[i].flags & RT_MEM_FLAG_UVM_PAGES) && k < r->nchunks; k++) {
            uint64_t lo = l.a[i].base + k * RT_UVM_CHUNK, hi = lo + RT_UVM_CHUNK;
            if (hi > l.a[i].base + l.a[i].size) hi = l.a[i].base + l.a[i].size;
            if (w[k] == RT_UVM_DEVICE) rt_uvm_drop_pages(lo, hi);
        }
    }
    pthread_mutex_unlock(&rt_range_lock);
    free(l.a);
}

/* A location as the legacy attributes give it: a device, cudaCpuDeviceId for the host,
 * cudaInvalidDeviceId for none. */
static int rt_location_id(const struct cudaMemLocation *l) {
    if (l->type == cudaMemLocationTypeDevice) return l->id;
    if (rt_is_host(l)) return cudaCpuDeviceId;
    return cudaInvalidDeviceId;
}

static cudaError_t rt_range_attr(void *data, size_t size, enum cudaMemRangeAttribute attr,
                                 const rt_range_info *r) {
    static const rt_range_info none; /* never advised: the defaults */
    if (!r) r = &none;
    int v;
    switch (attr) {
    case cudaMemRangeAttributeReadMostly: v = r->read_mostly; break;
    case cudaMemRangeAttributePreferredLocation: v = rt_location_id(&r->preferred); break;
    case cudaMemRangeAttributePreferredLocationType: v = r->preferred.type; break;
    case cudaMemRangeAttributePreferredLocationId: v = r->preferred.id; break;
    case cudaMemRangeAttributeLastPrefetchLocation: v = rt_location_id(&r->prefetched); break;
    case cudaMemRangeAttributeLastPrefetchLocationType: v = r->prefetched.type; break;
    case cudaMemRangeAttributeLastPrefetchLocationId: v = r->prefetched.id; break;
    case cudaMemRangeAttributeAccessedBy: {
        /* the devices (and the host) advised to access it, then cudaInvalidDeviceId */
        if (size == 0 || size % 4) return cudaErrorInvalidValue;
        int *out = data;
        size_t n = size / 4, k = 0;
        if (r->accessed_by_device && k < n) out[k++] = 0;
        if (r->accessed_by_host && k < n) out[k++] = cudaCpuDeviceId;
        while (k < n) out[k++] = cudaInvalidDeviceId;
        return cudaSuccess;
    }
    default:
        return cudaErrorInvalidValue;
    }
    if (size != 4) return cudaErrorInvalidValue;
    memcpy(data, &v, 4);
    return cudaSuccess;
}

/* The managed allocation [devPtr, devPtr+count) lies in, or an error. */
static cudaError_t rt_range_check(rt_context *c, const void *devPtr, size_t count, uint64_t *base) {
    mem_alloc a;
    if (!devPtr || !count ||
        !mem_table_check(c->mem, (uint64_t)(uintptr_t)devPtr, count, &a) ||
        a.kind != MEM_KIND_MANAGED)
        return cudaErrorInvalidValue;
    *base = a.base;
    return cudaSuccess;
}

RT_API cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize,
                                            enum cudaMemRangeAttribute attribute,
                                            const void *devPtr, size_t count) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    uint64_t base = 0;
    if (!data) return rt_record(cudaErrorInvalidValue);
    e = rt_range_check(c, devPtr, count, &base);
    if (e) return rt_record(e);
    pthread_mutex_lock(&rt_range_lock);
    e = rt_range_attr(data, dataSize, attribute, rt_range_of(base, false));
    pthread_mutex_unlock(&rt_range_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes,
                                             enum cudaMemRangeAttribute *attributes,
                                             size_t numAttributes, const void *devPtr,
                                             size_t count) {
    if (!data || !dataSizes || !attributes || !numAttributes)
        return rt_record(cudaErrorInvalidValue);
    for (size_t i = 0; i < numAttributes; i++) {
        cudaError_t e = cudaMemRangeGetAttribute(data[i], dataSizes[i], attributes[i], devPtr,
                                                 count);
        if (e) return e;
    }
    return cudaSuccess;
}
