/* runtime/memory.c — allocation, copies, sets and pointer queries.
 *
 * Device memory is host memory entered in the device's allocation table (mem/mem.h): a
 * device pointer is a host address, and the table says what it is. Every argument is
 * checked the way CUDA 13 checks it (tests/cuda/probes/expected/memory_api.out):
 *  - the device side of a copy or set must lie inside one allocation the device can
 *    reach (device, pinned, managed, registered, a module variable), else
 *    cudaErrorInvalidValue; one byte past the end is already outside;
 *  - the host side may be any host memory, but not NULL, and a range that starts inside
 *    a known allocation must end inside it;
 *  - cudaMemcpyDefault infers each side from the table (unified addressing);
 *  - a pitch smaller than the width is cudaErrorInvalidPitchValue for copies and
 *    cudaErrorInvalidValue for cudaMemset2D; a size of 0 succeeds whatever the pointers.
 * Allocations are zero-filled, so a program reads the same values on every run.
 */
#include "rt.h"
#include "../exec/texture.h" /* EXEC_MEM_FLAG_OBJECT */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RT_ALLOC_ALIGN 256u        /* cudaMalloc's alignment guarantee */
#define RT_MMAP_MIN (1u << 20)     /* larger blocks come zeroed (and lazily) from mmap */

static size_t rt_round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* Device memory of a page or more comes in whole pages of its own (mmap), so that it can
 * be shared with another process in place (ipc.c); smaller device blocks come packed into
 * shared mappings (device_arena.c), other kinds below RT_MMAP_MIN from the heap (a
 * mapping each would soon exhaust the process's). */
static bool rt_in_pages(size_t size, mem_kind kind) {
    return size >= RT_MMAP_MIN || (kind == MEM_KIND_DEVICE && size >= (size_t)sysconf(_SC_PAGESIZE));
}

static bool rt_in_arena(size_t size, mem_kind kind) {
    return kind == MEM_KIND_DEVICE && !rt_in_pages(size, kind);
}

/* A GPU maps device memory in 2 MiB pages: a kernel that runs past the end of an
 * allocation of 3,000,000 bytes reads the rest of its fourth MiB, and one past 2 MiB
 * exactly faults (measured on an H200). A device allocation in pages of its own reserves
 * that much address space (untouched, it costs no memory) and is a mapping of the
 * allocation table (mem_table_map), where the executor lets such accesses through. */
#define RT_MAP_UNIT (2u << 20)
static size_t rt_device_span(size_t size) { return rt_round_up(size, RT_MAP_UNIT); }
/* The reservation: the span and one page after it that no mapping of the table holds, so
 * that the host's placing two reservations side by side (it maps downwards, a GPU's
 * allocator upwards) never lets an access run from one into the next. */
static size_t rt_device_reserved(size_t size) {
    return rt_device_span(size) + (size_t)sysconf(_SC_PAGESIZE);
}

/* Managed memory of a profiled run comes in whole pages of a shared mapping: dropping its
 * page-table entries after a grid keeps its contents, and an entry present again before
 * the next grid says the host touched the page meanwhile (memrange.c: a GPU would have
 * migrated it back). Mapped privately, a dropped page would come back zeroed. */
static bool rt_uvm_pages(size_t size, mem_kind kind) {
    return kind == MEM_KIND_MANAGED && size >= (size_t)sysconf(_SC_PAGESIZE) && rt_prof_enabled();
}

/* Private pages of len bytes (a multiple of the page size). From RT_HUGE_MIN up they start
 * on a 2 MiB boundary and ask for the kernel's transparent huge pages: a kernel that
 * walks a large matrix by rows a page or more apart (a warp per column, the book's
 * sumMatrixOnGPU1D) then misses the host's TLB once per 2 MiB instead of on every access,
 * and filling a large allocation takes 512 times fewer page faults. The mapping is
 * exactly len bytes from the returned address, so it is unmapped (and shared, ipc.c) as
 * any other. */
#define RT_HUGE_PAGE (2u << 20)
#define RT_HUGE_MIN RT_HUGE_PAGE
/* len bytes of which the first used are the allocation's: huge pages only where the
 * allocation itself is large (a small one's reserved tail must not make it 2 MiB) */
static void *rt_map_reserve(size_t used, size_t len) {
    if (used < RT_HUGE_MIN) {
        void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    /* a larger reservation, trimmed to the aligned part */
    size_t page = (size_t)sysconf(_SC_PAGESIZE), extra = RT_HUGE_PAGE - page;
    if (len > SIZE_MAX - extra) return NULL;
    uint8_t *raw = mmap(NULL, len + extra, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    uintptr_t at = ((uintptr_t)raw + RT_HUGE_PAGE - 1) & ~(uintptr_t)(RT_HUGE_PAGE - 1);
    size_t head = at - (uintptr_t)raw, tail = extra - head;
    if (head) munmap(raw, head);
    if (tail) munmap((uint8_t *)at + len, tail);
#ifdef MADV_HUGEPAGE
    /* (advice only: where the kernel has no huge pages the memory is the same) */
    madvise((void *)at, len, MADV_HUGEPAGE);
#endif
    return (void *)at;
}

void *rt_map_private(size_t len) { return rt_map_reserve(len, len); }

static void *rt_alloc_bytes(rt_context *c, size_t size, mem_kind kind) {
    if (rt_uvm_pages(size, kind)) {
        void *p = mmap(NULL, rt_round_up(size, (size_t)sysconf(_SC_PAGESIZE)),
                       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    if (rt_in_arena(size, kind)) return rt_arena_alloc(c->mem, size, rt_cur_tag(c));
    if (kind == MEM_KIND_DEVICE) {
        void *p = rt_map_reserve(size, rt_device_reserved(size));
        if (p && !mem_table_map(c->mem, (uint64_t)(uintptr_t)p, rt_device_span(size),
                                rt_cur_tag(c))) {
            munmap(p, rt_device_reserved(size));
            return NULL;
        }
        return p;
    }
    if (rt_in_pages(size, kind))
        return rt_map_private(rt_round_up(size, (size_t)sysconf(_SC_PAGESIZE)));
    void *p = NULL;
    size_t n = rt_round_up(size, RT_ALLOC_ALIGN);
    if (posix_memalign(&p, RT_ALLOC_ALIGN, n)) return NULL;
    memset(p, 0, n);
    return p;
}

static void rt_free_bytes(rt_context *c, void *p, size_t size, mem_kind kind) {
    rt_ipc_forget(p); /* exported to other processes: its shared memory goes */
    if (rt_in_arena(size, kind)) {
        rt_arena_free(c->mem, p, size);
    } else if (kind == MEM_KIND_DEVICE) {
        mem_table_unmap(c->mem, (uint64_t)(uintptr_t)p);
        munmap(p, rt_device_reserved(size));
    } else if (rt_uvm_pages(size, kind) || rt_in_pages(size, kind))
        munmap(p, rt_round_up(size, (size_t)sysconf(_SC_PAGESIZE)));
    else
        free(p);
}

static mem_table *rt_mem(rt_context *c) { return c->mem; }

/* The current device's memory in use (what counts against its preset's global memory):
 * its own allocations, and managed memory, which may migrate to any device. */
static uint64_t rt_device_bytes_used(rt_context *c) {
    size_t n;
    uint64_t dev = 0, managed = 0;
    mem_table_usage_dev(rt_mem(c), MEM_KIND_DEVICE, rt_cur_tag(c), &n, &dev);
    mem_table_usage(rt_mem(c), MEM_KIND_MANAGED, &n, &managed);
    return dev + managed;
}

/* Allocate size bytes of the given kind and enter them in the table. */
cudaError_t rt_allocate(rt_context *c, void **out, size_t size, mem_kind kind, uint32_t flags) {
    if (kind == MEM_KIND_DEVICE || kind == MEM_KIND_MANAGED) {
        uint64_t used = rt_device_bytes_used(c);
        if (size > rt_cur(c)->preset->total_global_mem || used > rt_cur(c)->preset->total_global_mem - size)
            return cudaErrorMemoryAllocation;
    }
    void *p = rt_alloc_bytes(c, size, kind);
    if (!p) return cudaErrorMemoryAllocation;
    if (rt_uvm_pages(size, kind)) flags |= RT_MEM_FLAG_UVM_PAGES;
    if (!mem_table_add_dev(rt_mem(c), (uint64_t)(uintptr_t)p, size, kind, flags,
                           rt_cur_tag(c))) {
        rt_free_bytes(c, p, size, kind);
        return cudaErrorMemoryAllocation;
    }
    /* the memory of an array or a texture object is no allocation of the program's */
    if (c->check && !(flags & EXEC_MEM_FLAG_OBJECT))
        check_on_alloc(c->check, (uint64_t)(uintptr_t)p, size, kind, flags,
                       kind == MEM_KIND_HOST ? "cudaHostAlloc" :
                       kind == MEM_KIND_MANAGED ? "cudaMallocManaged" : "cudaMalloc");
    *out = p;
    return cudaSuccess;
}

/* Remove the allocation starting at p if it is of one of the kinds in mask (bits
 * 1 << mem_kind) and give its memory back. The memory of runtime objects (arrays, texture
 * objects) goes only when RT_RELEASE_OBJECT is in the mask, and then nothing else does. */
#define RT_RELEASE_OBJECT 0x80000000u
#define RT_RELEASE_GRAPH 0x40000000u /* a graph's memory goes too (a failed step) */
static bool rt_release(rt_context *c, void *p, unsigned kinds) {
    mem_alloc a;
    if (!mem_table_find(rt_mem(c), (uint64_t)(uintptr_t)p, &a)) return false;
    if (a.base != (uint64_t)(uintptr_t)p || !(kinds & (1u << a.kind))) return false;
    if (a.flags & RT_MEM_FLAG_IPC) return false; /* another process's: cudaIpcCloseMemHandle */
    if (a.flags & RT_MEM_FLAG_VMM) return false; /* mapped by cuMemMap: cuMemUnmap */
    bool object = (a.flags & EXEC_MEM_FLAG_OBJECT) != 0;
    if (object != ((kinds & RT_RELEASE_OBJECT) != 0)) return false;
    if (a.flags & RT_MEM_FLAG_POOL) return rt_pool_free_now(c, p);
    if ((a.flags & RT_MEM_FLAG_GRAPH) && !(kinds & RT_RELEASE_GRAPH)) {
        rt_graph_mem_freed(p); /* the address stays the graph's */
        return true;
    }
    if (!mem_table_remove(rt_mem(c), a.base, &a)) return false;
    if (c->check && !object) check_on_free(c->check, a.base);
    if (a.kind == MEM_KIND_MANAGED) rt_memrange_forget(a.base);
    if (a.kind != MEM_KIND_REGISTERED) rt_free_bytes(c, p, a.size, (mem_kind)a.kind);
    return true;
}

bool rt_release_device(rt_context *c, void *p) {
    return rt_release(c, p, 1u << MEM_KIND_DEVICE | RT_RELEASE_GRAPH);
}

bool rt_release_object(rt_context *c, void *p) {
    return rt_release(c, p, 1u << MEM_KIND_DEVICE | RT_RELEASE_OBJECT);
}

#define RT_KIND_HEAP 0x100u /* with the kind in rt_release_ctx.kinds: a device-heap block */

struct rt_release_ctx {
    uint64_t *bases;
    uint64_t *sizes;
    uint32_t *kinds;
    size_t n, cap;
    uint32_t device;            /* only this device's (mem_alloc.device), or UINT32_MAX */
};

static void rt_collect(const mem_alloc *a, void *ctx) {
    struct rt_release_ctx *r = ctx;
    if (r->device != UINT32_MAX && a->device != r->device) return;
    if (a->kind != MEM_KIND_DEVICE && a->kind != MEM_KIND_HOST && a->kind != MEM_KIND_MANAGED &&
        a->kind != MEM_KIND_REGISTERED)
        return;
    if (a->flags & RT_MEM_FLAG_POOL) return; /* the pool's memory: rt_pools_reset */
    if (r->n == r->cap) return; /* counted beforehand; never happens */
    r->bases[r->n] = a->base;
    r->sizes[r->n] = a->size;
    /* (device-heap blocks come from aligned_alloc, whatever their size) */
    r->kinds[r->n] = a->kind | (a->flags & EXEC_MEM_FLAG_DEVICE_HEAP ? RT_KIND_HEAP : 0);
    r->n++;
}

static void rt_release_matching(rt_context *c, mem_table *t, uint32_t device) {
    size_t count = 0;
    uint64_t bytes;
    mem_table_usage(t, 0, &count, &bytes);
    if (!count) return;
    struct rt_release_ctx r = {malloc(count * sizeof(uint64_t)), malloc(count * sizeof(uint64_t)),
                               malloc(count * sizeof(uint32_t)), 0, count, device};
    if (r.bases && r.sizes && r.kinds) {
        mem_table_each(t, rt_collect, &r);
        for (size_t i = 0; i < r.n; i++) {
            mem_table_remove(t, r.bases[i], NULL);
            if (c->check && device != UINT32_MAX) check_on_free(c->check, r.bases[i]);
            if (r.kinds[i] & RT_KIND_HEAP)
                free((void *)(uintptr_t)r.bases[i]);
            else if (r.kinds[i] != MEM_KIND_REGISTERED)
                rt_free_bytes(c, (void *)(uintptr_t)r.bases[i], r.sizes[i], (mem_kind)r.kinds[i]);
        }
    }
    free(r.bases);
    free(r.sizes);
    free(r.kinds);
}

void rt_memory_release_all(rt_context *c, mem_table *t) { rt_release_matching(c, t, UINT32_MAX); }

void rt_memory_release_device(rt_context *c, uint32_t tag) {
    rt_release_matching(c, c->mem, tag);
}

/* ---- pointer checks ---- */

bool rt_device_range_ok(rt_context *c, const void *p, size_t bytes) {
    if (!p) return false;
    if (bytes == 0) return mem_table_find(rt_mem(c), (uint64_t)(uintptr_t)p, NULL);
    return mem_table_check(rt_mem(c), (uint64_t)(uintptr_t)p, bytes, NULL);
}

bool rt_host_range_ok(rt_context *c, const void *p, size_t bytes) {
    if (!p) return false;
    uint64_t a = (uint64_t)(uintptr_t)p;
    if (!mem_table_find(rt_mem(c), a, NULL)) return true; /* ordinary host memory */
    return bytes == 0 || mem_table_check(rt_mem(c), a, bytes, NULL);
}

/* Is p in memory the host can touch directly without the device (pageable memory)? */
static bool rt_is_pageable(rt_context *c, const void *p) {
    return !mem_table_find(rt_mem(c), (uint64_t)(uintptr_t)p, NULL);
}

/* Memory the host reads directly (pinned, managed, registered): a synchronous set of it
 * completes before the call returns, so that host code sees it. */
static bool rt_is_host_visible(rt_context *c, const void *p) {
    mem_alloc a;
    if (!mem_table_find(rt_mem(c), (uint64_t)(uintptr_t)p, &a)) return true;
    return a.kind == MEM_KIND_HOST || a.kind == MEM_KIND_MANAGED || a.kind == MEM_KIND_REGISTERED;
}

/* Is p host memory (pageable, pinned or registered), as a copy's direction counts it? */
static bool rt_is_host_side(rt_context *c, const void *p) {
    mem_alloc a;
    if (!mem_table_find(rt_mem(c), (uint64_t)(uintptr_t)p, &a)) return true;
    return a.kind == MEM_KIND_HOST || a.kind == MEM_KIND_REGISTERED;
}

static rt_copy_dir rt_copy_direction(rt_context *c, const void *dst, const void *src) {
    bool dh = rt_is_host_side(c, dst), sh = rt_is_host_side(c, src);
    return dh && sh ? RT_COPY_H2H : dh ? RT_COPY_D2H : sh ? RT_COPY_H2D : RT_COPY_D2D;
}

/* How long a copy keeps the host, as CUDA documents it ("API synchronization behavior"):
 *  - cudaMemcpy: returns once the copy is done (and device printf output is written, as
 *    for every blocking copy), except device to device, which does not wait;
 *  - cudaMemcpyAsync: host to host is fully synchronous; to pageable host memory it
 *    returns once the copy is done; from pageable memory the data is staged at the call
 *    (the caller's buffer may change right after: *stage is set); everything else is
 *    asynchronous. */
static rt_wait rt_copy_wait(rt_context *c, const void *dst, const void *src, bool async,
                            bool *stage) {
    rt_copy_dir dir = rt_copy_direction(c, dst, src);
    *stage = false;
    if (!async) return dir == RT_COPY_D2D ? RT_ASYNC : RT_WAIT_FLUSH;
    if (dir == RT_COPY_H2H) return RT_WAIT_DONE;
    if (dir == RT_COPY_D2H && rt_is_pageable(c, dst)) return RT_WAIT_DONE;
    if (dir == RT_COPY_H2D && rt_is_pageable(c, src)) *stage = true;
    return RT_ASYNC;
}

/* The sides a copy kind says are device memory. */
cudaError_t rt_check_copy(rt_context *c, void *dst, size_t dst_span, const void *src,
                                 size_t src_span, enum cudaMemcpyKind kind) {
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    bool ok_dst = dst_dev ? rt_device_range_ok(c, dst, dst_span) : rt_host_range_ok(c, dst, dst_span);
    bool ok_src = src_dev ? rt_device_range_ok(c, src, src_span) : rt_host_range_ok(c, src, src_span);
    if (c->check && !(ok_dst && ok_src))
        check_on_bad_pointer(c->check, ok_dst ? "source" : "destination", ok_dst ? src : dst,
                             ok_dst ? src_span : dst_span);
    return ok_dst && ok_src ? cudaSuccess : cudaErrorInvalidValue;
}

static bool rt_kind_valid(enum cudaMemcpyKind kind) {
    return (unsigned)kind <= (unsigned)cudaMemcpyDefault;
}

cudaError_t rt_memcpy(rt_context *c, void *dst, const void *src, size_t bytes,
                      enum cudaMemcpyKind kind, cudaStream_t stream, bool async) {
    if (!rt_kind_valid(kind)) return cudaErrorInvalidMemcpyDirection;
    if (bytes == 0) return cudaSuccess;
    cudaError_t e = rt_check_copy(c, dst, bytes, src, bytes, kind);
    if (e != cudaSuccess) return e;
    if (async && !rt_stream_valid(c, stream)) return cudaErrorInvalidResourceHandle;
    rt_op *op = rt_op_new(RT_OP_COPY);
    if (!op) return cudaErrorMemoryAllocation;
    bool stage;
    rt_wait wait = rt_copy_wait(c, dst, src, async, &stage);
    if (stage) {
        op->u.copy.staging = malloc(bytes);
        if (!op->u.copy.staging) {
            rt_op_free(op);
            return cudaErrorMemoryAllocation;
        }
        memcpy(op->u.copy.staging, src, bytes);
        op->u.copy.user_src = src;
        src = op->u.copy.staging;
    }
    op->u.copy.dst = dst;
    op->u.copy.src = src;
    op->u.copy.bytes = bytes;
    op->u.copy.dir = rt_copy_direction(c, dst, op->u.copy.staging ? (const void *)NULL : src);
    if (op->u.copy.staging) op->u.copy.dir = RT_COPY_H2D;
    return rt_issue(c, stream, op, wait);
}

/* ---- allocation API ---- */

RT_API cudaError_t cudaMalloc(void **devPtr, size_t size) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!devPtr) return rt_record(cudaErrorInvalidValue);
    e = rt_capture_forbids(c); /* it may synchronise: unsafe while a capture runs */
    if (e) return rt_record(e);
    if (size == 0) {
        *devPtr = NULL;
        return cudaSuccess;
    }
    return rt_record(rt_allocate(c, devPtr, size, MEM_KIND_DEVICE, 0));
}

static cudaError_t rt_free(void *devPtr, unsigned kinds) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!devPtr) return cudaSuccess;
    /* cudaFree waits for the device: work issued before may still use the memory. */
    e = rt_capture_forbids(c);
    if (!e) e = rt_device_synchronize(c);
    if (e) return rt_record(e);
    if (rt_release(c, devPtr, kinds)) return cudaSuccess;
    if (c->check) check_on_bad_free(c->check, (uint64_t)(uintptr_t)devPtr);
    return rt_record(cudaErrorInvalidValue);
}

RT_API cudaError_t cudaFree(void *devPtr) {
    return rt_free(devPtr, 1u << MEM_KIND_DEVICE | 1u << MEM_KIND_MANAGED);
}

RT_API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pHost) return rt_record(cudaErrorInvalidValue);
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return rt_record(cudaErrorInvalidValue);
    if (size == 0) {
        *pHost = NULL;
        return cudaSuccess;
    }
    /* With unified addressing every pinned allocation is mapped (cudaHostGetFlags says so). */
    return rt_record(rt_allocate(c, pHost, size, MEM_KIND_HOST, flags | cudaHostAllocMapped));
}

RT_API cudaError_t cudaMallocHost(void **ptr, size_t size) {
    return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

RT_API cudaError_t cudaFreeHost(void *ptr) { return rt_free(ptr, 1u << MEM_KIND_HOST); }

RT_API cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    mem_alloc a;
    if (!pFlags || !mem_table_find(rt_mem(c), (uint64_t)(uintptr_t)pHost, &a) ||
        (a.kind != MEM_KIND_HOST && a.kind != MEM_KIND_REGISTERED))
        return rt_record(cudaErrorInvalidValue);
    *pFlags = a.flags;
    return cudaSuccess;
}

RT_API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    mem_alloc a;
    if (!pDevice || flags != 0 || !mem_table_find(rt_mem(c), (uint64_t)(uintptr_t)pHost, &a) ||
        (a.kind != MEM_KIND_HOST && a.kind != MEM_KIND_REGISTERED))
        return rt_record(cudaErrorInvalidValue);
    *pDevice = pHost; /* unified addressing: the same address on both sides */
    return cudaSuccess;
}

RT_API cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    unsigned valid = cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory |
                     cudaHostRegisterReadOnly;
    if (!ptr || size == 0 || (flags & ~valid)) return rt_record(cudaErrorInvalidValue);
    if (!mem_table_add(rt_mem(c), (uint64_t)(uintptr_t)ptr, size, MEM_KIND_REGISTERED,
                       flags | cudaHostRegisterMapped))
        return rt_record(cudaErrorHostMemoryAlreadyRegistered);
    return cudaSuccess;
}

RT_API cudaError_t cudaHostUnregister(void *ptr) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!ptr) return rt_record(cudaErrorInvalidValue);
    e = rt_device_synchronize(c);
    if (e) return rt_record(e);
    if (!rt_release(c, ptr, 1u << MEM_KIND_REGISTERED))
        return rt_record(cudaErrorHostMemoryNotRegistered);
    return cudaSuccess;
}

RT_API cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!devPtr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return rt_record(cudaErrorInvalidValue);
    if (size == 0) {
        *devPtr = NULL;
        return cudaSuccess;
    }
    return rt_record(rt_allocate(c, devPtr, size, MEM_KIND_MANAGED, flags));
}

RT_API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!devPtr || !pitch) return rt_record(cudaErrorInvalidValue);
    if (width == 0 || height == 0) {
        *devPtr = NULL;
        *pitch = 0;
        return cudaSuccess;
    }
    /* Rows start at the texture alignment (512 bytes on an H100: tests/cuda/probes). */
    size_t align = (size_t)rt_cur(c)->preset->texture_alignment;
    if (width > SIZE_MAX - align) return rt_record(cudaErrorMemoryAllocation);
    size_t p = rt_round_up(width, align);
    if (height > SIZE_MAX / p) return rt_record(cudaErrorMemoryAllocation);
    e = rt_allocate(c, devPtr, p * height, MEM_KIND_DEVICE, 0);
    if (e == cudaSuccess) *pitch = p;
    return rt_record(e);
}

RT_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    uint64_t t = rt_cur(c)->preset->total_global_mem, used = rt_device_bytes_used(c);
    if (total) *total = (size_t)t;
    if (free_bytes) *free_bytes = (size_t)(used < t ? t - used : 0);
    return cudaSuccess;
}

/* Answers even after a device fault, as CUDA does. */
RT_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                            const void *ptr) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter_device(c);
    if (e) return e;
    if (!attributes) return rt_record(cudaErrorInvalidValue);
    memset(attributes, 0, sizeof *attributes);
    mem_alloc a;
    if (!mem_table_find(rt_mem(c), (uint64_t)(uintptr_t)ptr, &a)) {
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->device = -2;
        attributes->devicePointer = NULL;
        attributes->hostPointer = (void *)ptr;
        return cudaSuccess;
    }
    /* the device current when it was made (module variables: the current one) */
    attributes->device = a.device ? (int)a.device - 1 : rt_cur(c)->ordinal;
    attributes->devicePointer = (void *)ptr;
    switch (a.kind) {
    case MEM_KIND_HOST:
    case MEM_KIND_REGISTERED:
        attributes->type = cudaMemoryTypeHost;
        attributes->hostPointer = (void *)ptr;
        break;
    case MEM_KIND_MANAGED:
        attributes->type = cudaMemoryTypeManaged;
        attributes->hostPointer = (void *)ptr;
        break;
    case MEM_KIND_GLOBAL_VAR: {
        /* A __managed__ variable is module storage that CUDA counts as managed memory. */
        pthread_mutex_lock(&c->lock);
        rt_var *v = rt_var_lookup(c, (const void *)(uintptr_t)a.base);
        pthread_mutex_unlock(&c->lock);
        bool managed = v && v->managed;
        attributes->type = managed ? cudaMemoryTypeManaged : cudaMemoryTypeDevice;
        attributes->hostPointer = managed ? (void *)ptr : NULL;
        break;
    }
    default:
        attributes->type = cudaMemoryTypeDevice;
        attributes->hostPointer = NULL;
        break;
    }
    return cudaSuccess;
}

/* ---- copies ---- */

static cudaError_t rt_memcpy_entry(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream, bool async) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    return rt_record(rt_memcpy(c, dst, src, count, kind, stream, async));
}

RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    return rt_memcpy_entry(dst, src, count, kind, 0, false);
}

RT_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind) {
    return rt_memcpy_entry(dst, src, count, kind, cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream) {
    return rt_memcpy_entry(dst, src, count, kind, stream, true);
}

RT_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
                                        enum cudaMemcpyKind kind, cudaStream_t stream) {
    return rt_memcpy_entry(dst, src, count, kind, rt_per_thread(stream), true);
}

/* Unified addressing makes a peer copy an ordinary device-to-device one; the devices
 * named must exist. */
static bool rt_peer_devices_ok(int dstDevice, int srcDevice) {
    rt_context *c = rt_ctx();
    return rt_dev_at(c, dstDevice) && rt_dev_at(c, srcDevice);
}

RT_API cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                                  size_t count) {
    if (!rt_peer_devices_ok(dstDevice, srcDevice)) return rt_record(cudaErrorInvalidDevice);
    return rt_memcpy_entry(dst, src, count, cudaMemcpyDeviceToDevice, 0, false);
}

cudaError_t rt_copy2d(rt_context *c, void *dst, size_t dpitch, const void *src, size_t spitch,
                      size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream,
                      bool async) {
    if (!rt_kind_valid(kind)) return cudaErrorInvalidMemcpyDirection;
    if (width == 0 || height == 0) return cudaSuccess;
    if (width > dpitch || width > spitch || dpitch > rt_cur(c)->preset->mem_pitch ||
        spitch > rt_cur(c)->preset->mem_pitch)
        return cudaErrorInvalidPitchValue;
    size_t dspan = (height - 1) * dpitch + width, sspan = (height - 1) * spitch + width;
    cudaError_t e = rt_check_copy(c, dst, dspan, src, sspan, kind);
    if (e) return e;
    if (async && !rt_stream_valid(c, stream)) return cudaErrorInvalidResourceHandle;
    rt_op *op = rt_op_new(RT_OP_COPY2D);
    if (!op) return cudaErrorMemoryAllocation;
    op->u.copy2d.dst = dst;
    op->u.copy2d.dpitch = dpitch;
    op->u.copy2d.src = src;
    op->u.copy2d.spitch = spitch;
    op->u.copy2d.width = width;
    op->u.copy2d.height = height;
    op->u.copy2d.dir = rt_copy_direction(c, dst, src);
    bool stage;
    rt_wait wait = rt_copy_wait(c, dst, src, async, &stage);
    /* A 2D copy from pageable memory is not staged: it waits (CUDA allows either). */
    if (stage) wait = RT_WAIT_DONE;
    return rt_issue(c, stream, op, wait);
}

RT_API cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                       size_t count, cudaStream_t stream) {
    if (!rt_peer_devices_ok(dstDevice, srcDevice)) return rt_record(cudaErrorInvalidDevice);
    return rt_memcpy_entry(dst, src, count, cudaMemcpyDeviceToDevice, stream, true);
}

static cudaError_t rt_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width, size_t height, enum cudaMemcpyKind kind,
                               cudaStream_t stream, bool async) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    return rt_record(rt_copy2d(c, dst, dpitch, src, spitch, width, height, kind, stream, async));
}

RT_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind) {
    return rt_memcpy2d(dst, dpitch, src, spitch, width, height, kind, 0, false);
}

RT_API cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind) {
    return rt_memcpy2d(dst, dpitch, src, spitch, width, height, kind, cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t stream) {
    return rt_memcpy2d(dst, dpitch, src, spitch, width, height, kind, stream, true);
}

RT_API cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
                                          size_t spitch, size_t width, size_t height,
                                          enum cudaMemcpyKind kind, cudaStream_t stream) {
    return rt_memcpy2d(dst, dpitch, src, spitch, width, height, kind, rt_per_thread(stream), true);
}

/* ---- sets ---- */

cudaError_t rt_set2d(rt_context *c, void *dst, size_t pitch, int value, size_t width,
                     size_t height, cudaStream_t stream, bool async) {
    if (width == 0 || height == 0) return cudaSuccess;
    if (pitch < width) return cudaErrorInvalidValue;
    size_t span = (height - 1) * pitch + width;
    if (!rt_device_range_ok(c, dst, span)) {
        if (c->check) check_on_bad_pointer(c->check, "memory to set", dst, span);
        return cudaErrorInvalidValue;
    }
    if (async && !rt_stream_valid(c, stream)) return cudaErrorInvalidResourceHandle;
    rt_op *op;
    if (height == 1 || pitch == width) {
        op = rt_op_new(RT_OP_SET);
        if (!op) return cudaErrorMemoryAllocation;
        op->u.set.dst = dst;
        op->u.set.value = value;
        op->u.set.bytes = span;
    } else {
        op = rt_op_new(RT_OP_SET2D);
        if (!op) return cudaErrorMemoryAllocation;
        op->u.set2d.dst = dst;
        op->u.set2d.pitch = pitch;
        op->u.set2d.value = value;
        op->u.set2d.width = width;
        op->u.set2d.height = height;
    }
    /* The synchronous sets are asynchronous too, except on memory the host reads
     * directly (pinned or managed), where they complete before returning. */
    rt_wait wait = !async && rt_is_host_visible(c, dst) ? RT_WAIT_DONE : RT_ASYNC;
    return rt_issue(c, stream, op, wait);
}

static cudaError_t rt_memset2d(void *dst, size_t pitch, int value, size_t width, size_t height,
                               cudaStream_t stream, bool async) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    return rt_record(rt_set2d(c, dst, pitch, value, width, height, stream, async));
}

RT_API cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
    return rt_memset2d(devPtr, count, value, count, 1, 0, false);
}

RT_API cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count) {
    return rt_memset2d(devPtr, count, value, count, 1, cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
    return rt_memset2d(devPtr, count, value, count, 1, stream, true);
}

RT_API cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                        cudaStream_t stream) {
    return rt_memset2d(devPtr, count, value, count, 1, rt_per_thread(stream), true);
}

RT_API cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                size_t height) {
    return rt_memset2d(devPtr, pitch, value, width, height, 0, false);
}

RT_API cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
                                     size_t height) {
    return rt_memset2d(devPtr, pitch, value, width, height, cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                     size_t height, cudaStream_t stream) {
    return rt_memset2d(devPtr, pitch, value, width, height, stream, true);
}

RT_API cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                          size_t height, cudaStream_t stream) {
    return rt_memset2d(devPtr, pitch, value, width, height, rt_per_thread(stream), true);
}

/* ---- managed-memory hints: nothing moves on an emulated device, but arguments are
 * still checked ---- */

/* A prefetch moves pages after the stream's earlier work: under the profiler, where the
 * timing model follows where managed pages are, wait for that work first (not while the
 * stream is being captured, which a synchronisation would invalidate). */
void rt_prefetch_order(cudaStream_t stream) {
    enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    if (rt_prof_enabled() && cudaStreamIsCapturing(stream, &st) == cudaSuccess &&
        st == cudaStreamCaptureStatusNone)
        (void)cudaStreamSynchronize(stream);
}

RT_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                        struct cudaMemLocation location, unsigned int flags,
                                        cudaStream_t stream) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    mem_alloc a;
    if (flags != 0 || !mem_table_check(rt_mem(c), (uint64_t)(uintptr_t)devPtr, count, &a) ||
        a.kind != MEM_KIND_MANAGED)
        return rt_record(cudaErrorInvalidValue);
    if (!rt_stream_valid(c, stream)) return rt_record(cudaErrorInvalidResourceHandle);
    /* remembered for cudaMemRangeGetAttribute, and where the pages are for the timing
     * (profiled: once the stream's earlier grids have run, as the move is stream-ordered) */
    rt_prefetch_order(stream);
    rt_memrange_prefetched(a.base, a.size, a.flags, (uint64_t)(uintptr_t)devPtr, count, location);
    return cudaSuccess;
}

RT_API cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
                                             struct cudaMemLocation location, unsigned int flags,
                                             cudaStream_t stream) {
    return cudaMemPrefetchAsync(devPtr, count, location, flags, rt_per_thread(stream));
}

RT_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                 struct cudaMemLocation location) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    mem_alloc a;
    if ((int)advice < cudaMemAdviseSetReadMostly || (int)advice > cudaMemAdviseUnsetAccessedBy ||
        !mem_table_check(rt_mem(c), (uint64_t)(uintptr_t)devPtr, count, &a) ||
        a.kind != MEM_KIND_MANAGED)
        return rt_record(cudaErrorInvalidValue);
    rt_memrange_advise(a.base, advice, location); /* remembered (memrange.c) */
    return cudaSuccess;
}
