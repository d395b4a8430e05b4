/* runtime/mempool.c — stream-ordered allocation: memory pools (cudaMemPool_t), the
 * device's default and current pool, cudaMallocAsync, cudaMallocFromPoolAsync and
 * cudaFreeAsync.
 *
 * A pool reserves device memory in chunks of 32 MiB (a larger allocation gets a chunk of
 * its size rounded up to 32 MiB), as an H100's and H200's pools do, and carves
 * allocations from them first fit, 512-byte aligned. Its statistics follow the GPU
 * (tests/cuda/rtapi/mempool.cu, recorded on an H200): used memory is the sum of the sizes
 * asked for, and drops at the cudaFreeAsync call; reserved memory is the chunks held.
 * An allocation is entered in the device's allocation table on its own (flag
 * RT_MEM_FLAG_POOL), so the executor and `vcuda check` see its exact bounds; it leaves
 * the table when its stream reaches the free (an RT_OP_MEMOP), and only then may its
 * memory be handed out again. After the host waits for the device, a pool gives back the
 * chunks nothing uses while it holds more than its release threshold (0 by default);
 * cudaMemPoolTrimTo gives them back down to what it is asked to keep. Reused memory is
 * not zeroed again, as on a GPU.
 *
 * Inside a stream capture, cudaMallocAsync and cudaFreeAsync become the captured graph's
 * memory alloc and free nodes, as in CUDA. One lock guards every pool. It is taken with the engine's lock held (the free in
 * stream order), so nothing here issues work or waits while holding it.
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define RT_POOL_CHUNK (32ull << 20)
#define RT_POOL_ALIGN 512ull

enum { RT_RANGE_USED, RT_RANGE_FREEING };

typedef struct rt_pool_range {
    uint64_t off, size;         /* size: the bytes asked for */
    int state;
} rt_pool_range;

typedef struct rt_pool_chunk {
    uint8_t *base;
    uint64_t size;
    rt_pool_range *r;           /* sorted by offset */
    size_t n, cap;
    struct rt_pool_chunk *next;
} rt_pool_chunk;

typedef struct rt_mempool {
    struct cudaMemPoolProps props;
    bool is_default;
    uint64_t threshold;
    int reuse[3];               /* cudaMemPoolReuse* (attributes 1..3) */
    uint64_t reserved, reserved_high, used, used_high;
    enum cudaMemAccessFlags host_access;
    enum cudaMemAccessFlags device_access[GPU_MAX_DEVICES]; /* other devices' (set) */
    rt_pool_chunk *chunks;
    struct rt_mempool *next;
} rt_mempool;

/* A pool allocation freed in stream order. */
typedef struct rt_pool_free {
    rt_mempool *pool;
    uint64_t base;
} rt_pool_free;

static pthread_mutex_t rt_pools_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_mempool *rt_pools;        /* every pool, the default ones included */
/* per device, as on a GPU: its default pool (made on first use) and its current pool
 * (cudaDeviceSetMemPool; NULL: the default) */
static rt_mempool *rt_pool_default[GPU_MAX_DEVICES];
static rt_mempool *rt_pool_current[GPU_MAX_DEVICES];

static uint64_t rt_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

static mem_table *rt_pool_mem(rt_context *c) { return c->mem; }

static rt_mempool *rt_pool_new(const struct cudaMemPoolProps *props, bool is_default) {
    rt_mempool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->props = *props;
    p->is_default = is_default;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    p->host_access = cudaMemAccessFlagsProtNone;
    p->next = rt_pools;
    rt_pools = p;
    return p;
}

static rt_mempool *rt_pool_get_default(int dev) {
    if (!rt_pool_default[dev]) {
        struct cudaMemPoolProps props;
        memset(&props, 0, sizeof props);
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = dev;
        rt_pool_default[dev] = rt_pool_new(&props, true);
    }
    return rt_pool_default[dev];
}

/* The pool cudaMallocAsync takes from on device dev (rt_pools_lock held). */
static rt_mempool *rt_pool_of_device(int dev) {
    return rt_pool_current[dev] ? rt_pool_current[dev] : rt_pool_get_default(dev);
}

/* The device a pool's memory belongs to. */
static int rt_pool_device(const rt_mempool *p) { return p->props.location.id; }

/* The device of stream handle h (for cudaMallocAsync: its pools). */
static int rt_stream_device(rt_context *c, cudaStream_t h) {
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, h);
    int dev = s ? s->device : rt_cur(c)->ordinal;
    pthread_mutex_unlock(&c->engine_lock);
    return dev;
}

static bool rt_pool_known(const rt_mempool *pool) {
    for (rt_mempool *p = rt_pools; p; p = p->next)
        if (p == pool) return true;
    return false;
}

static void rt_chunk_free(rt_pool_chunk *ch) {
    mem_table_unmap(rt_pool_mem(rt_ctx()), (uint64_t)(uintptr_t)ch->base);
    munmap(ch->base, ch->size);
    free(ch->r);
    free(ch);
}

/* Give back chunks nothing uses, while the pool holds more than keep. */
static void rt_pool_trim(rt_mempool *p, uint64_t keep) {
    for (rt_pool_chunk **pc = &p->chunks; *pc && p->reserved > keep;) {
        rt_pool_chunk *ch = *pc;
        if (ch->n == 0) {
            *pc = ch->next;
            p->reserved -= ch->size;
            rt_chunk_free(ch);
        } else {
            pc = &ch->next;
        }
    }
}

/* First fit of size bytes in ch: the offset, or UINT64_MAX; *at: where the range goes. */
static uint64_t rt_chunk_fit(const rt_pool_chunk *ch, uint64_t size, size_t *at) {
    uint64_t start = 0;
    for (size_t i = 0; i <= ch->n; i++) {
        uint64_t end = i < ch->n ? ch->r[i].off : ch->size;
        if (end >= start && end - start >= size) {
            *at = i;
            return start;
        }
        if (i < ch->n) start = rt_up(ch->r[i].off + ch->r[i].size, RT_POOL_ALIGN);
    }
    return UINT64_MAX;
}

static cudaError_t rt_pool_alloc(rt_context *c, rt_mempool *p, size_t size, void **out) {
    uint64_t need = rt_up(size, RT_POOL_ALIGN);
    rt_pool_chunk *ch = NULL;
    uint64_t off = UINT64_MAX;
    size_t at = 0;
    for (ch = p->chunks; ch; ch = ch->next)
        if ((off = rt_chunk_fit(ch, need, &at)) != UINT64_MAX) break;
    if (!ch) {
        uint64_t bytes = rt_up(need, RT_POOL_CHUNK);
        if (bytes > c->devs[rt_pool_device(p)].preset->total_global_mem)
            return cudaErrorMemoryAllocation;
        ch = calloc(1, sizeof *ch);
        void *mem = ch ? rt_map_private(bytes) : NULL;
        if (!mem) {
            free(ch);
            return cudaErrorMemoryAllocation;
        }
        /* the chunk is mapped as a whole, as a GPU maps a pool's memory: an access a
         * little past one of its allocations does not fault (memory.c) */
        if (!mem_table_map(rt_pool_mem(c), (uint64_t)(uintptr_t)mem, bytes,
                           (uint32_t)rt_pool_device(p) + 1)) {
            munmap(mem, bytes);
            free(ch);
            return cudaErrorMemoryAllocation;
        }
        ch->base = mem;
        ch->size = bytes;
        ch->next = p->chunks;
        p->chunks = ch;
        p->reserved += bytes;
        if (p->reserved > p->reserved_high) p->reserved_high = p->reserved;
        off = 0;
        at = 0;
    }
    if (ch->n == ch->cap) {
        size_t cap = ch->cap ? ch->cap * 2 : 8;
        rt_pool_range *r = realloc(ch->r, cap * sizeof *r);
        if (!r) return cudaErrorMemoryAllocation;
        ch->r = r;
        ch->cap = cap;
    }
    uint64_t base = (uint64_t)(uintptr_t)(ch->base + off);
    /* a pool's allocations are its device's (only it may reach them without peer access) */
    if (!mem_table_add_dev(rt_pool_mem(c), base, size, MEM_KIND_DEVICE, RT_MEM_FLAG_POOL,
                           (uint32_t)rt_pool_device(p) + 1))
        return cudaErrorMemoryAllocation;
    memmove(&ch->r[at + 1], &ch->r[at], (ch->n - at) * sizeof *ch->r);
    ch->r[at] = (rt_pool_range){off, size, RT_RANGE_USED};
    ch->n++;
    p->used += size;
    if (p->used > p->used_high) p->used_high = p->used;
    if (c->check)
        check_on_alloc(c->check, base, size, MEM_KIND_DEVICE, RT_MEM_FLAG_POOL,
                       "cudaMallocAsync");
    *out = (void *)(uintptr_t)base;
    return cudaSuccess;
}

/* The range of the allocation at base, in any pool (rt_pools_lock held). */
static rt_pool_range *rt_pool_find(uint64_t base, rt_mempool **pool, rt_pool_chunk **chunk) {
    for (rt_mempool *p = rt_pools; p; p = p->next) {
        for (rt_pool_chunk *ch = p->chunks; ch; ch = ch->next) {
            uint64_t lo = (uint64_t)(uintptr_t)ch->base;
            if (base < lo || base >= lo + ch->size) continue;
            for (size_t i = 0; i < ch->n; i++) {
                if (ch->r[i].off == base - lo) {
                    *pool = p;
                    *chunk = ch;
                    return &ch->r[i];
                }
            }
            return NULL;
        }
    }
    return NULL;
}

/* The allocation leaves the table and its chunk (rt_pools_lock held). */
static void rt_pool_release(rt_context *c, rt_pool_chunk *ch, rt_pool_range *r) {
    uint64_t base = (uint64_t)(uintptr_t)ch->base + r->off;
    mem_table_remove(rt_pool_mem(c), base, NULL);
    if (c->check) check_on_free(c->check, base);
    size_t i = (size_t)(r - ch->r);
    memmove(&ch->r[i], &ch->r[i + 1], (ch->n - i - 1) * sizeof *ch->r);
    ch->n--;
}

/* The stream has reached a cudaFreeAsync (engine_lock held). */
static void rt_pool_free_op(rt_context *c, void *arg) {
    rt_pool_free *f = arg;
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p;
    rt_pool_chunk *ch;
    rt_pool_range *r = rt_pool_find(f->base, &p, &ch);
    if (r && r->state == RT_RANGE_FREEING) rt_pool_release(c, ch, r);
    pthread_mutex_unlock(&rt_pools_lock);
    free(f);
}

bool rt_pool_free_now(rt_context *c, void *ptr) {
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p;
    rt_pool_chunk *ch;
    rt_pool_range *r = rt_pool_find((uint64_t)(uintptr_t)ptr, &p, &ch);
    bool ok = r && r->state == RT_RANGE_USED;
    if (ok) {
        p->used -= r->size;
        rt_pool_release(c, ch, r);
    }
    pthread_mutex_unlock(&rt_pools_lock);
    return ok;
}

void rt_pools_after_sync(rt_context *c) {
    (void)c;
    pthread_mutex_lock(&rt_pools_lock);
    for (rt_mempool *p = rt_pools; p; p = p->next)
        if (p->reserved > p->threshold) rt_pool_trim(p, p->threshold);
    pthread_mutex_unlock(&rt_pools_lock);
}

void rt_pools_reset(rt_context *c) {
    pthread_mutex_lock(&rt_pools_lock);
    for (rt_mempool *p = rt_pools, *next; p; p = next) {
        next = p->next;
        for (rt_pool_chunk *ch = p->chunks, *nc; ch; ch = nc) {
            nc = ch->next;
            for (size_t i = 0; i < ch->n; i++)
                mem_table_remove(rt_pool_mem(c), (uint64_t)(uintptr_t)ch->base + ch->r[i].off,
                                 NULL);
            rt_chunk_free(ch);
        }
        free(p);
    }
    rt_pools = NULL;
    memset(rt_pool_default, 0, sizeof rt_pool_default);
    memset(rt_pool_current, 0, sizeof rt_pool_current);
    pthread_mutex_unlock(&rt_pools_lock);
}

/* ---- allocation and free in stream order ---- */

/* Is stream h capturing? (Looked at again under the lock when the node is added.) */
static bool rt_pool_capturing(rt_context *c, cudaStream_t h) {
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, h);
    bool capturing = s && s->capture;
    pthread_mutex_unlock(&c->engine_lock);
    return capturing;
}

/* cudaMallocAsync in a capturing stream: a memory alloc node of the captured graph, as
 * cudaGraphAddMemAllocNode makes (graph_nodes.c): its memory is the graph's, with its
 * address fixed now, and the pool's statistics do not change. */
static cudaError_t rt_pool_capture_alloc(rt_context *c, cudaStream_t h, rt_mempool *pool,
                                         size_t size, void **ptr) {
    struct cudaMemPoolProps props;
    int dev = rt_stream_device(c, h);
    pthread_mutex_lock(&rt_pools_lock);
    if (!pool) pool = rt_pool_of_device(dev);
    bool known = pool && rt_pool_known(pool);
    if (known) props = pool->props;
    pthread_mutex_unlock(&rt_pools_lock);
    if (!known) return pool ? cudaErrorInvalidValue : cudaErrorMemoryAllocation;
    if (size == 0) return cudaErrorInvalidValue; /* an alloc node of no bytes */
    void *p = NULL;
    cudaError_t e = rt_allocate(c, &p, size, MEM_KIND_DEVICE, RT_MEM_FLAG_GRAPH);
    if (e) return e;
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, h);
    rt_graph_node *n = NULL;
    e = s && s->capture ? rt_capture_mem_node(s, cudaGraphNodeTypeMemAlloc, &n)
                        : cudaErrorStreamCaptureInvalidated; /* ended meanwhile */
    if (!e) {
        n->x.alloc.dptr = p;
        n->x.alloc.bytesize = size;
        n->x.alloc.props = props;
    }
    pthread_mutex_unlock(&c->engine_lock);
    if (e) {
        rt_release_device(c, p);
        return e;
    }
    *ptr = p;
    return cudaSuccess;
}

/* cudaFreeAsync in a capturing stream: a memory free node (the memory stays until the
 * graph runs it, as cudaGraphAddMemFreeNode's). */
static cudaError_t rt_pool_capture_free(rt_context *c, cudaStream_t h, void *ptr) {
    if (!rt_device_range_ok(c, ptr, 1)) return cudaErrorInvalidValue;
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *s = rt_stream_lookup(c, h);
    rt_graph_node *n = NULL;
    cudaError_t e = s && s->capture ? rt_capture_mem_node(s, cudaGraphNodeTypeMemFree, &n)
                                    : cudaErrorStreamCaptureInvalidated;
    if (!e) n->x.free_ptr = ptr;
    pthread_mutex_unlock(&c->engine_lock);
    return e;
}

static cudaError_t rt_malloc_from(void **ptr, size_t size, rt_mempool *pool, cudaStream_t s) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!ptr) return rt_record(cudaErrorInvalidValue);
    if (!rt_stream_valid(c, s)) return rt_record(cudaErrorInvalidResourceHandle);
    if (rt_pool_capturing(c, s)) return rt_record(rt_pool_capture_alloc(c, s, pool, size, ptr));
    int dev = rt_stream_device(c, s); /* its device's current pool, when none is named */
    pthread_mutex_lock(&rt_pools_lock);
    if (!pool) pool = rt_pool_of_device(dev);
    if (!pool || !rt_pool_known(pool)) {
        e = pool ? cudaErrorInvalidValue : cudaErrorMemoryAllocation;
    } else if (size == 0) {
        *ptr = NULL;
    } else {
        e = rt_pool_alloc(c, pool, size, ptr);
    }
    pthread_mutex_unlock(&rt_pools_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream) {
    return rt_malloc_from(devPtr, size, NULL, hStream);
}

RT_API cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream) {
    return rt_malloc_from(devPtr, size, NULL, rt_per_thread(hStream));
}

RT_API cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                           cudaStream_t stream) {
    if (!memPool) return rt_record(cudaErrorInvalidValue);
    return rt_malloc_from(ptr, size, (rt_mempool *)memPool, stream);
}

RT_API cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
                                                cudaStream_t stream) {
    return cudaMallocFromPoolAsync(ptr, size, memPool, rt_per_thread(stream));
}

static cudaError_t rt_free_async(void *devPtr, cudaStream_t s) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!rt_stream_valid(c, s)) return rt_record(cudaErrorInvalidResourceHandle);
    if (!devPtr) return cudaSuccess;
    if (rt_pool_capturing(c, s)) return rt_record(rt_pool_capture_free(c, s, devPtr));
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p;
    rt_pool_chunk *ch;
    rt_pool_range *r = rt_pool_find((uint64_t)(uintptr_t)devPtr, &p, &ch);
    bool pooled = r && r->state == RT_RANGE_USED;
    if (pooled) {
        /* used memory drops at the call; the memory itself in stream order */
        r->state = RT_RANGE_FREEING;
        p->used -= r->size;
    }
    pthread_mutex_unlock(&rt_pools_lock);
    if (!pooled) {
        if (r) return rt_record(cudaErrorInvalidValue); /* freed twice */
        /* memory of cudaMalloc: CUDA frees it too (after the device is done with it) */
        return cudaFree(devPtr);
    }
    rt_pool_free *f = malloc(sizeof *f);
    rt_op *op = rt_op_new(RT_OP_MEMOP);
    if (!f || !op) {
        free(f);
        free(op);
        return rt_record(cudaErrorMemoryAllocation);
    }
    f->pool = p;
    f->base = (uint64_t)(uintptr_t)devPtr;
    op->u.memop.fn = rt_pool_free_op;
    op->u.memop.arg = f;
    return rt_record(rt_issue(c, s, op, RT_ASYNC));
}

RT_API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream) {
    return rt_free_async(devPtr, hStream);
}

RT_API cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream) {
    return rt_free_async(devPtr, rt_per_thread(hStream));
}

/* ---- pools ---- */

/* Is loc the device pool p belongs to? */
static bool rt_is_pool_device(const rt_mempool *p, const struct cudaMemLocation *loc) {
    return loc->type == cudaMemLocationTypeDevice && loc->id == rt_pool_device(p);
}

RT_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!memPool) return rt_record(cudaErrorInvalidValue);
    if (!rt_dev_at(rt_ctx(), device)) return rt_record(cudaErrorInvalidDevice);
    pthread_mutex_lock(&rt_pools_lock);
    *memPool = (cudaMemPool_t)rt_pool_get_default(device);
    pthread_mutex_unlock(&rt_pools_lock);
    return *memPool ? cudaSuccess : rt_record(cudaErrorMemoryAllocation);
}

RT_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!memPool) return rt_record(cudaErrorInvalidValue);
    if (!rt_dev_at(rt_ctx(), device)) return rt_record(cudaErrorInvalidDevice);
    pthread_mutex_lock(&rt_pools_lock);
    *memPool = (cudaMemPool_t)rt_pool_of_device(device);
    pthread_mutex_unlock(&rt_pools_lock);
    return *memPool ? cudaSuccess : rt_record(cudaErrorMemoryAllocation);
}

RT_API cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    /* a pool of another device is cudaErrorInvalidValue, as on an H100 pair
     * (tests/cuda/multigpu/expected/devvars.out), whatever the device number */
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p = (rt_mempool *)memPool;
    if (!p || !rt_pool_known(p) || rt_pool_device(p) != device) e = cudaErrorInvalidValue;
    else if (!rt_dev_at(c, device)) e = cudaErrorInvalidDevice;
    else rt_pool_current[device] = p;
    pthread_mutex_unlock(&rt_pools_lock);
    return rt_record(e);
}

/* CUDA 13's location-based forms: device memory only. */
static cudaError_t rt_location_pool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                    enum cudaMemAllocationType type, bool current) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!memPool || !location || type != cudaMemAllocationTypePinned)
        return rt_record(cudaErrorInvalidValue);
    if (location->type != cudaMemLocationTypeDevice) {
        fprintf(stderr, "vcuda: memory pools of host memory are not supported\n");
        return rt_record(cudaErrorNotSupported);
    }
    if (!rt_dev_at(c, location->id)) return rt_record(cudaErrorInvalidDevice);
    return current ? cudaDeviceGetMemPool(memPool, location->id)
                   : cudaDeviceGetDefaultMemPool(memPool, location->id);
}

RT_API cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool,
                                            struct cudaMemLocation *location,
                                            enum cudaMemAllocationType type) {
    return rt_location_pool(memPool, location, type, false);
}

RT_API cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                     enum cudaMemAllocationType type) {
    return rt_location_pool(memPool, location, type, true);
}

RT_API cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location,
                                     enum cudaMemAllocationType type, cudaMemPool_t memPool) {
    if (!location || type != cudaMemAllocationTypePinned) return rt_record(cudaErrorInvalidValue);
    if (location->type != cudaMemLocationTypeDevice) {
        fprintf(stderr, "vcuda: memory pools of host memory are not supported\n");
        return rt_record(cudaErrorNotSupported);
    }
    return cudaDeviceSetMemPool(location->id, memPool);
}

RT_API cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *props) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!memPool || !props || props->allocType != cudaMemAllocationTypePinned)
        return rt_record(cudaErrorInvalidValue);
    if (props->location.type != cudaMemLocationTypeDevice) {
        fprintf(stderr, "vcuda: memory pools of host memory are not supported\n");
        return rt_record(cudaErrorNotSupported);
    }
    if (!rt_dev_at(c, props->location.id)) return rt_record(cudaErrorInvalidDevice);
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p = rt_pool_new(props, false);
    pthread_mutex_unlock(&rt_pools_lock);
    if (!p) return rt_record(cudaErrorMemoryAllocation);
    *memPool = (cudaMemPool_t)p;
    return cudaSuccess;
}

RT_API cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p = (rt_mempool *)memPool;
    if (!p || !rt_pool_known(p) || p->is_default) {
        pthread_mutex_unlock(&rt_pools_lock);
        return rt_record(cudaErrorInvalidValue);
    }
    for (int d = 0; d < GPU_MAX_DEVICES; d++)
        if (rt_pool_current[d] == p) rt_pool_current[d] = NULL;
    for (rt_mempool **pp = &rt_pools; *pp; pp = &(*pp)->next) {
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    }
    pthread_mutex_unlock(&rt_pools_lock);
    /* allocations still out are freed with the pool, once the device is done with them */
    e = rt_device_synchronize(c);
    pthread_mutex_lock(&rt_pools_lock);
    for (rt_pool_chunk *ch = p->chunks, *nc; ch; ch = nc) {
        nc = ch->next;
        while (ch->n) rt_pool_release(c, ch, &ch->r[ch->n - 1]);
        rt_chunk_free(ch);
    }
    pthread_mutex_unlock(&rt_pools_lock);
    free(p);
    return rt_record(e);
}

RT_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p = (rt_mempool *)memPool;
    if (!p || !rt_pool_known(p)) e = cudaErrorInvalidValue;
    else rt_pool_trim(p, minBytesToKeep);
    pthread_mutex_unlock(&rt_pools_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                           void *value) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!value) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p = (rt_mempool *)memPool;
    uint64_t v64 = 0;
    if (attr >= cudaMemPoolAttrReleaseThreshold) memcpy(&v64, value, sizeof v64);
    if (!p || !rt_pool_known(p)) {
        e = cudaErrorInvalidValue;
    } else if (attr >= cudaMemPoolReuseFollowEventDependencies &&
               attr <= cudaMemPoolReuseAllowInternalDependencies) {
        int v;
        memcpy(&v, value, sizeof v);
        p->reuse[attr - cudaMemPoolReuseFollowEventDependencies] = v != 0;
    } else if (attr == cudaMemPoolAttrReleaseThreshold) {
        p->threshold = v64;
    } else if (attr == cudaMemPoolAttrReservedMemHigh && v64 == 0) {
        p->reserved_high = p->reserved; /* the only value it may be set to: a reset */
    } else if (attr == cudaMemPoolAttrUsedMemHigh && v64 == 0) {
        p->used_high = p->used;
    } else {
        e = cudaErrorInvalidValue;  /* read-only, or not an attribute */
    }
    pthread_mutex_unlock(&rt_pools_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                           void *value) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!value) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p = (rt_mempool *)memPool;
    uint64_t v64 = 0;
    bool is64 = true;
    if (!p || !rt_pool_known(p)) {
        e = cudaErrorInvalidValue;
    } else {
        switch (attr) {
        case cudaMemPoolReuseFollowEventDependencies:
        case cudaMemPoolReuseAllowOpportunistic:
        case cudaMemPoolReuseAllowInternalDependencies: {
            int v = p->reuse[attr - cudaMemPoolReuseFollowEventDependencies];
            memcpy(value, &v, sizeof v);
            is64 = false;
            break;
        }
        case cudaMemPoolAttrReleaseThreshold: v64 = p->threshold; break;
        case cudaMemPoolAttrReservedMemCurrent: v64 = p->reserved; break;
        case cudaMemPoolAttrReservedMemHigh: v64 = p->reserved_high; break;
        case cudaMemPoolAttrUsedMemCurrent: v64 = p->used; break;
        case cudaMemPoolAttrUsedMemHigh: v64 = p->used_high; break;
        default: e = cudaErrorInvalidValue; is64 = false; break;
        }
        if (is64) memcpy(value, &v64, sizeof v64);
    }
    pthread_mutex_unlock(&rt_pools_lock);
    return rt_record(e);
}

/* Access descriptors: the owning device always reads and writes a pool's memory; another
 * device's access and the host's are kept as set (a kernel of another device reaches the
 * memory as its peer, through cudaDeviceEnablePeerAccess). */
RT_API cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool,
                                        const struct cudaMemAccessDesc *descList, size_t count) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (count && !descList) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p = (rt_mempool *)memPool;
    if (!p || !rt_pool_known(p)) e = cudaErrorInvalidValue;
    for (size_t i = 0; i < count && !e; i++) {
        const struct cudaMemAccessDesc *d = &descList[i];
        if (d->location.type == cudaMemLocationTypeDevice) {
            if (!rt_dev_at(c, d->location.id)) e = cudaErrorInvalidDevice;
            else if (d->location.id == rt_pool_device(p)) {
                if (d->flags != cudaMemAccessFlagsProtReadWrite) e = cudaErrorInvalidValue;
            } else if (d->flags == cudaMemAccessFlagsProtRead) {
                e = cudaErrorInvalidValue; /* read-only peer access is not a CUDA option */
            } else {
                p->device_access[d->location.id] = d->flags;
            }
        } else if (d->location.type == cudaMemLocationTypeHost) {
            p->host_access = d->flags;
        } else {
            e = cudaErrorInvalidValue;
        }
    }
    pthread_mutex_unlock(&rt_pools_lock);
    return rt_record(e);
}

RT_API cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                        struct cudaMemLocation *location) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!flags || !location) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&rt_pools_lock);
    rt_mempool *p = (rt_mempool *)memPool;
    if (!p || !rt_pool_known(p)) e = cudaErrorInvalidValue;
    else if (rt_is_pool_device(p, location)) *flags = cudaMemAccessFlagsProtReadWrite;
    else if (location->type == cudaMemLocationTypeDevice && rt_dev_at(c, location->id))
        *flags = p->device_access[location->id];
    else if (location->type == cudaMemLocationTypeDevice) e = cudaErrorInvalidDevice;
    else if (location->type == cudaMemLocationTypeHost) *flags = p->host_access;
    else e = cudaErrorInvalidValue;
    pthread_mutex_unlock(&rt_pools_lock);
    return rt_record(e);
}
