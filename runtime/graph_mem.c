/* runtime/graph_mem.c — the physical memory of graph memory nodes and the device's graph
 * memory attributes (cudaDeviceGetGraphMemAttribute, cudaDeviceSetGraphMemAttribute,
 * cudaDeviceGraphMemTrim).
 *
 * An alloc node's address is fixed when the node is made (graph_nodes.c); what these
 * statistics count is the physical memory behind it, in 32 MiB units, as an H200 reports
 * it (tests/cuda/rtapi/graph_mem_footprint.cu). A launched executable graph maps its
 * memory and holds it while it lives. Once every allocation of that launch is freed
 * (by a free node of the graph, by another graph's free node, or by cudaFree or
 * cudaFreeAsync), its memory may be given to another graph launched later into the same
 * stream, which runs after it in stream order (the CUDA Programming Guide, "Graph Memory
 * Nodes": physical memory is reused between graphs launched into one stream), and
 * cudaDeviceGraphMemTrim unmaps and returns it although the graph still exists. A
 * destroyed graph's memory is unmapped (no longer "used") and stays reserved until a trim
 * or a later launch takes it. Graphs launched into different streams do not share memory.
 */
#include "graph_exec.h"

#include <stdlib.h>
#include <string.h>

#define RT_GRAPH_MEM_UNIT (32ull << 20)

/* All under the lock: the executable graphs whose memory nodes allocate or free (the
 * registry a cudaFree looks its address up in), and the device's statistics. */
static pthread_mutex_t rt_graph_mem_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_graph_exec **rt_graph_mem_execs;
static size_t rt_graph_mem_nexecs, rt_graph_mem_cap;
static uint64_t rt_graph_mem_used, rt_graph_mem_used_high, rt_graph_mem_reserved,
    rt_graph_mem_reserved_high;

static void rt_graph_mem_note_highs(void) {
    if (rt_graph_mem_used > rt_graph_mem_reserved) rt_graph_mem_reserved = rt_graph_mem_used;
    if (rt_graph_mem_used > rt_graph_mem_used_high) rt_graph_mem_used_high = rt_graph_mem_used;
    if (rt_graph_mem_reserved > rt_graph_mem_reserved_high)
        rt_graph_mem_reserved_high = rt_graph_mem_reserved;
}

static bool rt_ptr_in(void *const *list, size_t n, const void *p) {
    for (size_t i = 0; i < n; i++)
        if (list[i] == p) return true;
    return false;
}

cudaError_t rt_graph_mem_init(rt_graph_exec *x) {
    rt_graph_mem *m = &x->mem;
    memset(m, 0, sizeof *m);
    size_t nalloc = 0, nfree = 0;
    for (size_t k = 0; k < x->nops; k++) {
        nalloc += x->types[k] == cudaGraphNodeTypeMemAlloc;
        nfree += x->types[k] == cudaGraphNodeTypeMemFree;
    }
    if (!nalloc && !nfree) return cudaSuccess;
    void **allocs = calloc(nalloc + 1, sizeof *allocs), **frees = calloc(nfree + 1, sizeof *frees);
    m->allocs = calloc(nalloc + 1, sizeof *m->allocs);
    m->live = calloc(nalloc + 1, sizeof *m->live);
    m->frees = calloc(nfree + 1, sizeof *m->frees);
    cudaError_t e = allocs && frees && m->allocs && m->live && m->frees
                        ? cudaSuccess : cudaErrorMemoryAllocation;
    size_t na = 0, nf = 0;
    uint64_t bytes = 0;
    for (size_t k = 0; !e && k < x->nops; k++) {
        const rt_graph_node *n = x->nodes[k]; /* (at instantiation: the graph is there) */
        if (x->types[k] == cudaGraphNodeTypeMemFree) {
            frees[nf++] = n->x.free_ptr;
        } else if (x->types[k] == cudaGraphNodeTypeMemAlloc && !rt_ptr_in(allocs, na, n->x.alloc.dptr)) {
            /* an alloc node reusing an earlier one's address (rt_alloc_reuse) takes no
             * memory of its own */
            allocs[na++] = n->x.alloc.dptr;
            bytes += n->x.alloc.bytesize;
        }
    }
    for (size_t i = 0; !e && i < na; i++)
        if (!rt_ptr_in(frees, nf, allocs[i])) m->allocs[m->nallocs++] = allocs[i];
    for (size_t i = 0; !e && i < nf; i++)
        if (!rt_ptr_in(allocs, na, frees[i])) m->frees[m->nfrees++] = frees[i];
    free(allocs);
    free(frees);
    m->bytes = (bytes + RT_GRAPH_MEM_UNIT - 1) / RT_GRAPH_MEM_UNIT * RT_GRAPH_MEM_UNIT;
    pthread_mutex_lock(&rt_graph_mem_lock);
    if (!e && rt_graph_mem_nexecs == rt_graph_mem_cap) {
        size_t cap = rt_graph_mem_cap ? 2 * rt_graph_mem_cap : 16;
        rt_graph_exec **grown = realloc(rt_graph_mem_execs, cap * sizeof *grown);
        if (grown) {
            rt_graph_mem_execs = grown;
            rt_graph_mem_cap = cap;
        } else {
            e = cudaErrorMemoryAllocation;
        }
    }
    if (!e) rt_graph_mem_execs[rt_graph_mem_nexecs++] = x;
    pthread_mutex_unlock(&rt_graph_mem_lock);
    if (e) {
        free(m->allocs);
        free(m->live);
        free(m->frees);
        memset(m, 0, sizeof *m);
    }
    return e;
}

/* Allocation p of a registered graph is freed (lock held). */
static void rt_graph_mem_free_locked(const void *p) {
    for (size_t i = 0; i < rt_graph_mem_nexecs; i++) {
        rt_graph_mem *m = &rt_graph_mem_execs[i]->mem;
        for (size_t k = 0; k < m->nallocs; k++)
            if (m->allocs[k] == p && m->live[k]) {
                m->live[k] = false;
                m->nlive--;
            }
    }
}

void rt_graph_mem_freed(const void *p) {
    pthread_mutex_lock(&rt_graph_mem_lock);
    rt_graph_mem_free_locked(p);
    pthread_mutex_unlock(&rt_graph_mem_lock);
}

void rt_graph_mem_launch(rt_graph_exec *x, const void *s) {
    rt_graph_mem *m = &x->mem;
    pthread_mutex_lock(&rt_graph_mem_lock);
    if (m->bytes && !m->mapped) {
        /* the memory of a graph launched before into this stream whose allocations are
         * all freed: this launch runs after it */
        rt_graph_mem *from = NULL;
        for (size_t i = 0; i < rt_graph_mem_nexecs && !from; i++) {
            rt_graph_mem *o = &rt_graph_mem_execs[i]->mem;
            if (o != m && o->mapped && !o->nlive && o->stream == s && o->bytes >= m->bytes)
                from = o;
        }
        if (from) {
            from->mapped = false;
            rt_graph_mem_used -= from->bytes;
        }
        /* else memory reserved and unmapped, or new memory (note_highs) */
        rt_graph_mem_used += m->bytes;
        m->mapped = true;
        rt_graph_mem_note_highs();
    }
    m->stream = s;
    for (size_t k = 0; k < m->nallocs; k++) m->live[k] = true;
    m->nlive = m->nallocs;
    for (size_t k = 0; k < m->nfrees; k++) rt_graph_mem_free_locked(m->frees[k]);
    pthread_mutex_unlock(&rt_graph_mem_lock);
}

void rt_graph_mem_forget(rt_graph_exec *x) {
    rt_graph_mem *m = &x->mem;
    pthread_mutex_lock(&rt_graph_mem_lock);
    for (size_t i = 0; i < rt_graph_mem_nexecs; i++)
        if (rt_graph_mem_execs[i] == x) {
            rt_graph_mem_execs[i] = rt_graph_mem_execs[--rt_graph_mem_nexecs];
            break;
        }
    if (m->mapped) rt_graph_mem_used -= m->bytes;
    pthread_mutex_unlock(&rt_graph_mem_lock);
    free(m->allocs);
    free(m->live);
    free(m->frees);
    memset(m, 0, sizeof *m);
}

RT_API cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                                  void *value) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!rt_dev_at(c, device)) return rt_record(cudaErrorInvalidDevice);
    if (!value) return rt_record(cudaErrorInvalidValue);
    uint64_t v = 0;
    pthread_mutex_lock(&rt_graph_mem_lock);
    switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent: v = rt_graph_mem_used; break;
    case cudaGraphMemAttrUsedMemHigh: v = rt_graph_mem_used_high; break;
    case cudaGraphMemAttrReservedMemCurrent: v = rt_graph_mem_reserved; break;
    case cudaGraphMemAttrReservedMemHigh: v = rt_graph_mem_reserved_high; break;
    default: e = cudaErrorInvalidValue; break;
    }
    pthread_mutex_unlock(&rt_graph_mem_lock);
    if (!e) memcpy(value, &v, sizeof v);
    return rt_record(e);
}

RT_API cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                                  void *value) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!rt_dev_at(c, device)) return rt_record(cudaErrorInvalidDevice);
    if (!value) return rt_record(cudaErrorInvalidValue);
    uint64_t v;
    memcpy(&v, value, sizeof v);
    pthread_mutex_lock(&rt_graph_mem_lock);
    /* only the high-water marks may be set, and only to 0: a reset */
    if (attr == cudaGraphMemAttrUsedMemHigh && v == 0) rt_graph_mem_used_high = rt_graph_mem_used;
    else if (attr == cudaGraphMemAttrReservedMemHigh && v == 0)
        rt_graph_mem_reserved_high = rt_graph_mem_reserved;
    else e = cudaErrorInvalidValue;
    pthread_mutex_unlock(&rt_graph_mem_lock);
    return rt_record(e);
}

/* The memory of graphs whose allocations are all freed is unmapped, and every byte no
 * graph maps goes back. */
RT_API cudaError_t cudaDeviceGraphMemTrim(int device) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!rt_dev_at(c, device)) return rt_record(cudaErrorInvalidDevice);
    pthread_mutex_lock(&rt_graph_mem_lock);
    for (size_t i = 0; i < rt_graph_mem_nexecs; i++) {
        rt_graph_mem *m = &rt_graph_mem_execs[i]->mem;
        if (m->mapped && !m->nlive) {
            m->mapped = false;
            rt_graph_mem_used -= m->bytes;
        }
    }
    rt_graph_mem_reserved = rt_graph_mem_used;
    pthread_mutex_unlock(&rt_graph_mem_lock);
    return cudaSuccess;
}
