/* check/memcheck.c — memcheck's device side: every lane of every global, shared and
 * local access checked for bounds and alignment, and the device heap's malloc/free.
 *
 * Like compute-sanitizer, an instruction with bad lanes gets one report per bad lane
 * ("Invalid __global__ write of size 4 bytes ... by thread (232,0,0) in block (3,0,0) ...
 * Access to 0x... is out of bounds and is 1 bytes after the nearest allocation at ...
 * of size 4,000 bytes"), and the launch then fails with an unspecified launch failure.
 * The executor faults on the same access right after the event, which stops the block
 * and the grid, so the reports are those of the first faulting warp-instruction.
 *
 * The executor is stricter than a GPU on its own (a GPU lets an access through anywhere
 * inside the 2 MiB page of an allocation); under memcheck both agree, as memcheck checks
 * against the allocation itself. Beyond compute-sanitizer, an access inside a block that
 * cudaFree (or a kernel's free) released says so (use after free).
 */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *space_word(ptx_space sp) {
    switch (sp) {
    case PTX_SPACE_SHARED: return "__shared__";
    case PTX_SPACE_LOCAL: return "__local__";
    case PTX_SPACE_CONST: return "__constant__";
    default: return "__global__";
    }
}

static const char *access_word(exec_mem_access a) {
    return a == EXEC_OBS_LOAD ? "read" : a == EXEC_OBS_STORE ? "write" : "atomic";
}

static bool misaligned(uint64_t a, uint32_t size) {
    return size && (size & (size - 1)) == 0 ? (a & (size - 1)) != 0 : size && a % size != 0;
}

/* ---- the nearest allocation, for the second line of a global report ---- */

typedef struct nearest_ctx {
    uint64_t addr;
    bool found;
    mem_alloc best;
    uint64_t dist;
} nearest_ctx;

static uint64_t distance(uint64_t a, const mem_alloc *al) {
    if (a < al->base) return al->base - a;
    if (a >= al->base + al->size) return a - (al->base + al->size) + 1;
    return 0;
}

static void nearest_fn(const mem_alloc *al, void *ctx) {
    nearest_ctx *n = ctx;
    uint64_t d = distance(n->addr, al);
    if (!n->found || d < n->dist) {
        n->found = true;
        n->best = *al;
        n->dist = d;
    }
}

static void describe_global(check_buf *b, check_launch *cl, uint64_t a, bool misal) {
    char c1[32], c2[32];
    check_line(b, "    Access to 0x%" PRIx64 " is %s", a, misal ? "misaligned" : "out of bounds");
    check_freed fr;
    mem_alloc live;
    bool in_live = mem_table_find(cl->L->mem, a, &live);
    if (!in_live && check_freed_find(cl->st, a, &fr)) {
        check_line(b, "    and is inside a block of %s bytes at 0x%" PRIx64 " that %s released "
                   "before (use after free)", check_commas(fr.size, c1), fr.base,
                   fr.device_heap ? "free() in a kernel" : "cudaFree");
        return;
    }
    nearest_ctx n = {.addr = a};
    mem_table_each(cl->L->mem, nearest_fn, &n);
    if (!n.found) return;
    if (n.best.flags & EXEC_MEM_FLAG_DEVICE_HEAP) {
        /* compute-sanitizer's words, then which block of the heap */
        check_line(b, "    and is located in the device heap");
        if (n.dist)
            check_line(b, "    %s bytes %s a block of %s bytes that malloc() returned at 0x%" PRIx64,
                       check_commas(n.dist, c2), a < n.best.base ? "before" : "after",
                       check_commas(n.best.size, c1), n.best.base);
        return;
    }
    if (n.dist == 0) {
        if (!misal && n.best.kind == MEM_KIND_CONST_VAR)
            check_line(b, "    and is inside __constant__ memory at 0x%" PRIx64 " of size %s "
                       "bytes, which kernels cannot write", n.best.base,
                       check_commas(n.best.size, c1));
        else
            check_line(b, "    and is inside the nearest allocation at 0x%" PRIx64 " of size %s "
                       "bytes", n.best.base, check_commas(n.best.size, c1));
    } else {
        check_line(b, "    and is %s bytes %s the nearest allocation at 0x%" PRIx64 " of size %s "
                   "bytes", check_commas(n.dist, c2), a < n.best.base ? "before" : "after",
                   n.best.base, check_commas(n.best.size, c1));
    }
}

/* ---- accesses ---- */

/* Is a global (or constant) access valid? The executor's own rule: inside one entry of
 * the allocation table, writable unless constant; a read of the kernel's parameter
 * buffer through a generic pointer. */
static bool global_ok(check_launch *cl, uint64_t a, uint32_t size, exec_mem_access acc,
                      mem_alloc *al) {
    if (a + size < a) return false;
    if (mem_table_check(cl->L->mem, a, size, al))
        return acc == EXEC_OBS_LOAD || al->kind != MEM_KIND_CONST_VAR;
    const exec_kernel_info *info = exec_kernel_get_info(cl->L->kernel);
    uint64_t pb = (uint64_t)(uintptr_t)cl->L->params;
    al->flags = EXEC_MEM_FLAG_DEVICE_HEAP; /* never cached */
    return acc == EXEC_OBS_LOAD && pb && a >= pb && a - pb + size <= info->param_size;
}

static void report_lane(check_worker *w, const exec_site *s, ptx_space space,
                        exec_mem_access access, uint32_t lane, uint64_t a, uint32_t size,
                        bool misal) {
    check_launch *cl = w->cl;
    check_buf b = {0};
    check_report_head(&b, cl, s, lane, "Invalid %s %s of size %u bytes", space_word(space),
                      access_word(access), size);
    if (space == PTX_SPACE_GLOBAL || space == PTX_SPACE_CONST) {
        describe_global(&b, cl, a, misal);
    } else {
        check_line(&b, "    Access to 0x%" PRIx64 " is %s", a, misal ? "misaligned" : "out of bounds");
        char c[32];
        if (space == PTX_SPACE_SHARED && !misal)
            check_line(&b, "    and the block has %s bytes of shared memory",
                       check_commas(cl->shared_size - cl->shared_reserved, c));
        else if (space == PTX_SPACE_LOCAL && !misal)
            check_line(&b, "    and each thread has %s bytes of local memory",
                       check_commas(cl->local_size, c));
    }
    check_report_launch_site(&b, w->cl);
    check_line(&b, "%s", "");
    check_worker_report(w, b.p);
    __atomic_store_n(&cl->mem_error, 1, __ATOMIC_RELAXED);
}

void check_memcheck_mem(check_worker *w, const exec_site *s, ptx_space space,
                        exec_mem_access access, const uint64_t addr[32], uint32_t mask,
                        uint32_t size) {
    check_launch *cl = w->cl;
    if (space == PTX_SPACE_PARAM) return; /* the executor checks parameter offsets itself */
    if (space == PTX_SPACE_SHARED || space == PTX_SPACE_LOCAL) {
        uint64_t limit = space == PTX_SPACE_SHARED ? cl->shared_size : cl->local_size;
        /* distributed shared memory: another block of the cluster, named by its rank above
         * the offset (exec/cluster.c), has the same layout as this one */
        const exec_dim3 *cd = &cl->L->cluster_dim;
        uint64_t ranks = space == PTX_SPACE_SHARED && cd->x && cd->y && cd->z
                             ? (uint64_t)cd->x * cd->y * cd->z : 1;
        for (uint32_t m = mask; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(m);
            uint64_t a = addr[lane], off = a;
            if (space == PTX_SPACE_SHARED && a >= limit && a >> 24 && (a >> 24) <= ranks)
                off = a & 0xffffffull;
            bool misal = misaligned(a, size);
            if (misal || off >= limit || limit - off < size)
                report_lane(w, s, space, access, lane, a, size, misal);
        }
        return;
    }

    /* global and constant: the common case is every lane inside the allocation this
     * instruction last hit, aligned */
    uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)];
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
        bits |= a;
    }
    uint64_t gen = check_alloc_generation(cl->st);
    check_range *r = &w->ranges[((uintptr_t)s->insn / sizeof(ptx_insn)) % CHECK_RANGE_CACHE];
    if (!misaligned(bits, size) && hi + size > hi && r->gen == gen && lo >= r->lo &&
        hi + size <= r->hi && (access == EXEC_OBS_LOAD || !r->readonly))
        return;
    bool all_ok = true;
    mem_alloc al = {0};
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        uint64_t a = addr[lane];
        bool misal = misaligned(a, size);
        if (!misal && global_ok(cl, a, size, access, &al)) continue;
        all_ok = false;
        report_lane(w, s, space, access, lane, a, size, misal);
    }
    /* remember a plain allocation (device-heap blocks may go away at any time); a
     * constant one is good for reads only */
    if (all_ok && !(al.flags & EXEC_MEM_FLAG_DEVICE_HEAP) && al.size &&
        lo >= al.base && hi + size <= al.base + al.size) {
        r->lo = al.base;
        r->hi = al.base + al.size;
        r->gen = gen;
        r->readonly = al.kind == MEM_KIND_CONST_VAR;
    }
}

/* ---- device heap: malloc/free in kernels ---- */

void check_memcheck_heap(const exec_site *s, exec_heap_op op, uint32_t lane, uint64_t ptr,
                         uint64_t size) {
    check_worker *w = s->worker_state;
    check_launch *cl = w->cl;
    check_state *st = cl->st;
    if (op == EXEC_OBS_MALLOC || !ptr) return;
    (void)size;
    mem_alloc al;
    if (mem_table_find(cl->L->mem, ptr, &al) && al.base == ptr &&
        (al.flags & EXEC_MEM_FLAG_DEVICE_HEAP)) {
        /* a good free: remember it for use after free and double free */
        pthread_rwlock_wrlock(&st->alloc_lock);
        check_freed *f = &st->freed[st->nfreed++ % CHECK_FREED_MAX];
        f->base = al.base;
        f->size = al.size;
        f->device_heap = true;
        __atomic_add_fetch(&st->alloc_gen, 1, __ATOMIC_RELEASE);
        pthread_rwlock_unlock(&st->alloc_lock);
        return;
    }
    check_freed fr;
    bool twice = check_freed_find(st, ptr, &fr) && fr.base == ptr && fr.device_heap;
    check_buf b = {0};
    check_report_head(&b, cl, s, lane, "Malloc/Free error encountered : %s",
                      twice ? "Double free" : "Invalid pointer to free");
    check_line(&b, "    Address 0x%" PRIx64 "%s", ptr,
               twice ? " was already freed by free() in a kernel"
                     : " was not returned by malloc() in a kernel");
    check_report_launch_site(&b, w->cl);
    check_line(&b, "%s", "");
    check_worker_report(w, b.p);
    __atomic_store_n(&cl->mem_error, 1, __ATOMIC_RELAXED);
}
