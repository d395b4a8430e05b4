/* runtime/memrange.c — what cudaMemAdvise and cudaMemPrefetchAsync said about managed
 * memory, kept per allocation, and given back by cudaMemRangeGetAttribute(s).
 *
 * A virtual device has one memory, so advice and prefetches move nothing; they are only
 * remembered. They are kept for the whole allocation the advised range lies in (a GPU
 * keeps them per page): a query answers for the allocation its range starts in.
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

typedef struct rt_range_info {
    bool read_mostly;
    struct cudaMemLocation preferred;   /* type cudaMemLocationTypeInvalid: none */
    bool accessed_by_device, accessed_by_host;
    struct cudaMemLocation prefetched;  /* type cudaMemLocationTypeInvalid: never */
} rt_range_info;

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

void rt_memrange_prefetched(uint64_t base, struct cudaMemLocation location) {
    pthread_mutex_lock(&rt_range_lock);
    rt_range_info *r = rt_range_of(base, true);
    if (r) r->prefetched = location;
    pthread_mutex_unlock(&rt_range_lock);
}

void rt_memrange_forget(uint64_t base) {
    pthread_mutex_lock(&rt_range_lock);
    free(rt_ptrmap_remove(&rt_ranges, (const void *)(uintptr_t)base));
    pthread_mutex_unlock(&rt_range_lock);
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
