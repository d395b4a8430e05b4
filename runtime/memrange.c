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
 * page faults, whose time prof_managed_fault_s gives. Not seen: the host touching a chunk
 * again after the device had it (a GPU migrates it back on the host's fault), so a grid
 * after that is taken to find it on the device.
 */
#include "rt.h"

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
typedef enum { RT_UVM_NOWHERE, RT_UVM_HOST, RT_UVM_DEVICE } rt_uvm_place;

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

void rt_memrange_prefetched(uint64_t base, uint64_t size, uint64_t ptr, uint64_t count,
                            struct cudaMemLocation location) {
    pthread_mutex_lock(&rt_range_lock);
    rt_range_info *r = rt_range_of(base, true);
    if (r) {
        r->prefetched = location;
        uint8_t *w = rt_range_places(r, size);
        uint8_t to = rt_is_host(&location) ? RT_UVM_HOST
                     : location.type == cudaMemLocationTypeDevice ? RT_UVM_DEVICE : 0;
        for (uint64_t k = (ptr - base) / RT_UVM_CHUNK;
             w && to && count && k < r->nchunks && k * RT_UVM_CHUNK < ptr - base + count; k++)
            w[k] = to;
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
        }
    }
    pthread_mutex_unlock(&rt_range_lock);
    free(l.a);
}

void rt_memrange_after_grid(rt_context *c, prof_session *s, uint64_t *migrated,
                            uint64_t *populated) {
    *migrated = *populated = 0;
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
            if (w[k] == RT_UVM_HOST) *migrated += hi - lo;
            else *populated += hi - lo;
            w[k] = RT_UVM_DEVICE;
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
