/* exec/memory.c — the memory spaces as instructions see them: address resolution and
 * checking (global via the allocation table, shared, local, param, const, generic
 * windows), and the ld/ldu/st/cvta/isspacep/prefetch/cp.async instructions plus mov of a
 * symbol's address.
 *
 * Every access is checked: an address outside its space's bounds is
 * EXEC_FAULT_ILLEGAL_ADDRESS, one not aligned to the access size EXEC_FAULT_MISALIGNED.
 * Each global memory instruction remembers the allocation it last hit (a small per-block
 * table indexed by instruction) so the common case is a range compare; the allocation
 * table is consulted only on a miss.
 */
#include "core.h"
#include "native.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static const char *space_name(ptx_space s) {
    switch (s) {
    case PTX_SPACE_GLOBAL: return "global";
    case PTX_SPACE_SHARED: return "shared";
    case PTX_SPACE_LOCAL: return "local";
    case PTX_SPACE_CONST: return "const";
    case PTX_SPACE_PARAM: return "param";
    default: return "generic";
    }
}

static const char *access_name(int access) {
    return access == EXEC_ACC_READ ? "load" : access == EXEC_ACC_WRITE ? "store" : "atomic";
}

__attribute__((noinline, cold)) static void *mem_fault(exec_wstate *w, const exec_insn *in,
                                                        uint32_t lane, int kind, ptx_space sp,
                                                        uint64_t addr, uint32_t size, int access,
                                                        const char *why) {
    char detail[320];
    snprintf(detail, sizeof detail, "%s %s %s of %u bytes at address 0x%llx%s%s",
             kind == EXEC_FAULT_MISALIGNED                ? "misaligned"
             : kind == EXEC_FAULT_INVALID_ADDRESS_SPACE ? "wrong-space"
                                                          : "out-of-bounds",
             space_name(sp),
             access_name(access), size, (unsigned long long)addr, why ? ": " : "",
             why ? why : "");
    exec_fault_at(&w->h, in, lane, kind, detail);
    return NULL;
}

/* Global (and const) memory: the allocation table decides. */
__attribute__((noinline)) static void *global_slow(exec_wstate *w, const exec_insn *in,
                                                   uint32_t lane, ptx_space sp, uint64_t a,
                                                   uint32_t size, int access) {
    struct exec_block *b = w->h.block;
    mem_alloc al;
    bool found = mem_table_check(b->L->mem, a, size, &al);
    /* past an allocation but inside the memory a GPU maps around it (mem_table_map): a
     * grid a little larger than its array reads and writes there without a fault */
    if (!found && !b->L->exact_bounds) found = mem_table_check_mapped(b->L->mem, a, size, &al);
    if (found) {
        /* another device's memory without peer access, or another device's copy of a
         * module variable (peer access maps allocations, not the peer's module copies, as
         * on an H100 pair): not mapped on this device */
        if (b->L->device && al.device && al.device != b->L->device &&
            ((al.kind == MEM_KIND_DEVICE && !(b->L->peers >> (al.device - 1) & 1)) ||
             al.kind == MEM_KIND_GLOBAL_VAR || al.kind == MEM_KIND_CONST_VAR)) {
            char detail[320];
            bool var = al.kind != MEM_KIND_DEVICE;
            snprintf(detail, sizeof detail,
                     "peer %s %s of %u bytes at address 0x%llx: device %u's %s, and device "
                     "%u %s",
                     space_name(sp), access_name(access), size, (unsigned long long)a,
                     al.device - 1, var ? "copy of a module variable" : "memory",
                     b->L->device - 1,
                     var ? "reaches only its own copy" : "has no peer access to it");
            exec_fault_at(&w->h, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, detail);
            return NULL;
        }
        if (access != EXEC_ACC_READ && al.kind == MEM_KIND_CONST_VAR)
            return mem_fault(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, sp, a, size, access,
                             "constant memory is read-only");
        /* Device-heap blocks are not remembered: another block may free them at any
         * time, and a stale range must never let an access through. */
        if (!(al.flags & EXEC_MEM_FLAG_DEVICE_HEAP)) {
            exec_range *r = exec_range_of(b, in);
            r->lo = al.base;
            r->hi = al.base + al.size;
            r->writable = al.kind != MEM_KIND_CONST_VAR;
        }
        return (void *)(uintptr_t)a;
    }
    /* a generic pointer into the kernel's parameter buffer (cvta.param) */
    const exec_kernel *k = b->k;
    uint64_t pb = (uint64_t)(uintptr_t)b->L->params;
    if (access == EXEC_ACC_READ && pb && a >= pb && a - pb + size <= k->info.param_size)
        return (void *)(uintptr_t)a;
    const char *why = "no allocation contains it";
    if (mem_table_find(b->L->mem, a, &al)) why = "it runs past the end of its allocation";
    /* A shared or local window address used as a global one (what a pointer to a block's
     * shared memory, or a thread's local memory, is in another block or a child grid):
     * a GPU reports the wrong address space, not an out-of-range address. */
    if (a - MEM_SHARED_WINDOW < MEM_SHARED_WINDOW_SIZE + MEM_LOCAL_WINDOW_SIZE)
        return mem_fault(w, in, lane, EXEC_FAULT_INVALID_ADDRESS_SPACE, sp, a, size, access,
                         a < MEM_LOCAL_WINDOW
                             ? "the address is in the shared-memory window (a pointer to "
                               "shared memory passed to another block or a child grid?)"
                             : "the address is in the local-memory window (a pointer to a "
                               "thread's local memory passed to a child grid?)");
    return mem_fault(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, sp, a, size, access, why);
}

static inline void *global_addr(exec_wstate *w, const exec_insn *in, uint32_t lane,
                                ptx_space sp, uint64_t a, uint32_t size, int access) {
    const exec_range *r = exec_range_of(w->h.block, in);
    if (a >= r->lo && a + size <= r->hi && a + size > a && (r->writable || access == EXEC_ACC_READ))
        return (void *)(uintptr_t)a;
    return global_slow(w, in, lane, sp, a, size, access);
}

/* A shared::cluster address naming a block by rank (exec/cluster.c): that block's memory,
 * its own included. Rare path. */
__attribute__((noinline)) static void *cluster_shared_addr(exec_wstate *w, const exec_insn *in,
                                                           uint32_t lane, ptx_space sp,
                                                           uint64_t a, uint32_t size,
                                                           int access) {
    struct exec_block *b = w->h.block;
    uint32_t rank = (uint32_t)(a >> EXEC_DSMEM_SHIFT) - 1;
    uint64_t off = a & ((1ull << EXEC_DSMEM_SHIFT) - 1);
    const char *why = NULL;
    /* an H200 ends such a kernel with an unspecified launch failure (EXEC_FAULT_TRAP's
     * error), not an illegal address (tests/cuda/hopper/cluster_fault) */
    struct exec_block *peer = exec_cluster_peer(b, rank, &why);
    if (!peer) return mem_fault(w, in, lane, EXEC_FAULT_TRAP, sp, a, size, access, why);
    if (off >= peer->shared_size || peer->shared_size - off < size)
        return mem_fault(w, in, lane, EXEC_FAULT_TRAP, sp, a, size, access,
                         "outside the shared memory of the cluster's block of that rank");
    return peer->shared + off;
}

static inline void *shared_addr(exec_wstate *w, const exec_insn *in, uint32_t lane,
                                ptx_space sp, uint64_t a, uint32_t size, int access) {
    struct exec_block *b = w->h.block;
    if (a >= b->shared_size || b->shared_size - a < size) {
        if (a >> EXEC_DSMEM_SHIFT && a >> EXEC_DSMEM_SHIFT <= EXEC_CLUSTER_MAX)
            return cluster_shared_addr(w, in, lane, sp, a, size, access);
        return mem_fault(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, sp, a, size, access,
                         "outside the block's shared memory");
    }
    return b->shared + a;
}

static void *local_addr(exec_wstate *w, const exec_insn *in, uint32_t lane, uint64_t a,
                        uint32_t size, int access) {
    struct exec_block *b = w->h.block;
    if (a >= b->local_stride || b->local_stride - a < size)
        return mem_fault(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, PTX_SPACE_LOCAL, a, size,
                         access, "outside the thread's local memory");
    return exec_lane_local(w, lane, a);
}

static void *param_addr(exec_wstate *w, const exec_insn *in, uint32_t lane, uint64_t a,
                        uint32_t size, int access) {
    struct exec_block *b = w->h.block;
    if (a < EXEC_KPARAM_BASE) return local_addr(w, in, lane, a, size, access);
    uint64_t off = a - EXEC_KPARAM_BASE;
    if (access != EXEC_ACC_READ)
        return mem_fault(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, PTX_SPACE_PARAM, a, size,
                         access, "kernel parameters are read-only");
    if (off >= b->k->info.param_size || b->k->info.param_size - off < size)
        return mem_fault(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, PTX_SPACE_PARAM, a, size,
                         access, "outside the kernel's parameters");
    return (void *)(b->L->params + off);
}

/* ---- the device heap ---- */

uint64_t exec_heap_malloc(const exec_launch *L, uint64_t size) {
    if (!size || size >= (1ull << 40)) return 0;
    uint64_t rounded = (size + 15) & ~15ull;
    exec_heap *h = L->heap;
    if (h) {
        /* reserve first: two lanes racing for the last bytes cannot both get them */
        uint64_t used = atomic_fetch_add(&h->used, rounded);
        if (used + rounded > h->limit) {
            atomic_fetch_sub(&h->used, rounded);
            return 0;
        }
    }
    void *p = aligned_alloc(16, rounded);
    if (p && !mem_table_add(L->mem, (uint64_t)(uintptr_t)p, size, MEM_KIND_DEVICE,
                            EXEC_MEM_FLAG_DEVICE_HEAP)) {
        free(p);
        p = NULL;
    }
    if (!p && h) atomic_fetch_sub(&h->used, rounded);
    return (uint64_t)(uintptr_t)p;
}

bool exec_heap_free(const exec_launch *L, uint64_t ptr) {
    mem_alloc al;
    if (!mem_table_find(L->mem, ptr, &al) || al.base != ptr ||
        !(al.flags & EXEC_MEM_FLAG_DEVICE_HEAP))
        return false;
    /* device-heap blocks are never in the blocks' range caches: nothing to forget */
    if (mem_table_remove(L->mem, ptr, &al)) {
        free((void *)(uintptr_t)ptr);
        if (L->heap) atomic_fetch_sub(&L->heap->used, (al.size + 15) & ~15ull);
    }
    return true;
}

void *exec_mem_addr(exec_wstate *w, const exec_insn *in, uint32_t lane, ptx_space sp,
                    uint64_t a, uint32_t size, int access) {
    if (a & (size - 1))
        return mem_fault(w, in, lane, EXEC_FAULT_MISALIGNED, sp, a, size, access, NULL);
    switch (sp) {
    case PTX_SPACE_SHARED: /* 32-bit addresses: a register plus an offset wraps */
        return shared_addr(w, in, lane, sp, (uint32_t)a, size, access);
    case PTX_SPACE_LOCAL: return local_addr(w, in, lane, a, size, access);
    case PTX_SPACE_PARAM: return param_addr(w, in, lane, a, size, access);
    case PTX_SPACE_GLOBAL:
    case PTX_SPACE_CONST: return global_addr(w, in, lane, sp, a, size, access);
    default:
        if (a - MEM_SHARED_WINDOW < MEM_SHARED_WINDOW_SIZE)
            return shared_addr(w, in, lane, sp, a - MEM_SHARED_WINDOW, size, access);
        if (a - MEM_LOCAL_WINDOW < MEM_LOCAL_WINDOW_SIZE)
            return local_addr(w, in, lane, a - MEM_LOCAL_WINDOW, size, access);
        return global_addr(w, in, lane, sp, a, size, access);
    }
}

long exec_mem_string(exec_wstate *w, uint32_t lane, uint64_t a, const char **p) {
    struct exec_block *b = w->h.block;
    const char *base;
    uint64_t avail;
    if (a - MEM_SHARED_WINDOW < MEM_SHARED_WINDOW_SIZE) {
        uint64_t off = a - MEM_SHARED_WINDOW;
        if (off >= b->shared_size) return -1;
        base = (const char *)b->shared + off;
        avail = b->shared_size - off;
    } else if (a - MEM_LOCAL_WINDOW < MEM_LOCAL_WINDOW_SIZE) {
        uint64_t off = a - MEM_LOCAL_WINDOW;
        if (off >= b->local_stride) return -1;
        base = (const char *)exec_lane_local(w, lane, off);
        avail = b->local_stride - off;
    } else {
        mem_alloc al;
        if (!mem_table_find(b->L->mem, a, &al)) return -1;
        base = (const char *)(uintptr_t)a;
        avail = al.base + al.size - a;
    }
    const char *nul = memchr(base, 0, avail);
    *p = base;
    return nul ? nul - base : (long)avail;
}

/* ---- ld / st ---- */

/* Runs: the usual shapes of a warp's addresses are consecutive elements for the whole
 * warp (x[tid]), or per half-warp (16 lanes) consecutive elements or one element for all
 * (x[tid.x] and x[row] in 16-wide blocks). Such runs need only a range test each, and
 * the copy is a block move or a broadcast, both vectorised; anything else takes the
 * per-lane path. Vectors of 4 lanes (GCC/clang vector extension): SSE2 pairs, or NEON,
 * as the target has. */
typedef uint64_t v4u64 __attribute__((vector_size(32)));

/* OR of (A[j] - A[0]) ^ (j * step) over count lanes: zero when they form the run
 * A[0] + j * step. count (and step, in the 4- and 8-byte handlers) are constants where
 * this is inlined. */
static inline __attribute__((always_inline)) uint64_t run_deviation(const uint64_t *A,
                                                                     unsigned count,
                                                                     uint64_t step) {
    uint64_t a0 = A[0];
    v4u64 base = {a0, a0, a0, a0}, off = {0, step, 2 * step, 3 * step};
    v4u64 inc = {4 * step, 4 * step, 4 * step, 4 * step}, acc = {0, 0, 0, 0};
    _Pragma("GCC unroll 8")
    for (unsigned k = 0; k < count; k += 4) {
        v4u64 x;
        memcpy(&x, A + k, sizeof x);
        acc |= (x - base) ^ off;
        off += inc;
    }
    return acc[0] | acc[1] | acc[2] | acc[3];
}

/* Is the run first + j*s (j < count) of n-byte elements aligned and inside [lo, end)? */
static inline bool run_inside(uint64_t first, uint64_t s, unsigned count, unsigned n,
                              uint64_t lo, uint64_t end) {
    return !(first & (n - 1)) && first >= lo && first <= end &&
           end - first >= (count - 1) * s + n;
}


/* aux of ld: destination width in bits (for extension); flags EXEC_F_SIGNED. */
static inline uint64_t extend(uint64_t v, unsigned esize, unsigned dbits, bool sgn) {
    if (sgn && esize < 8) {
        unsigned sh = 64 - esize * 8;
        v = (uint64_t)((int64_t)(v << sh) >> sh);
    }
    if (dbits < 64) v &= (1ull << dbits) - 1;
    return v;
}

static inline uint64_t load_bytes(const void *p, unsigned n) {
    switch (n) {
    case 1: return *(const uint8_t *)p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static inline void store_bytes(void *p, uint64_t v, unsigned n) {
    switch (n) {
    case 1: *(uint8_t *)p = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* A vector access of 8 or 16 bytes (aligned, as PTX requires) is one host access: the
 * GPU moves it whole, and code that publishes a flag with its value in one 16-byte store
 * (CUB's single-pass scans: status and aggregate of a tile) relies on a reader in another
 * block never seeing half of it. An aligned 16-byte SSE/NEON access is single-copy atomic
 * on the hosts that have AVX (x86-64) or LSE2 (AArch64). */
typedef uint64_t exec_v2u64 __attribute__((vector_size(16), aligned(16)));

static void load_whole(uint8_t *dst, const uint8_t *p, unsigned total) {
    if (total == 16) {
        exec_v2u64 v = *(const volatile exec_v2u64 *)(const void *)p;
        memcpy(dst, &v, 16);
    } else {
        uint64_t v = *(const volatile uint64_t *)(const void *)p;
        memcpy(dst, &v, 8);
    }
}

static void store_whole(uint8_t *p, const uint8_t *src, unsigned total) {
    if (total == 16) {
        exec_v2u64 v;
        memcpy(&v, src, 16);
        *(volatile exec_v2u64 *)(void *)p = v;
    } else {
        uint64_t v;
        memcpy(&v, src, 8);
        *(volatile uint64_t *)(void *)p = v;
    }
}

static bool whole_access(unsigned vec, unsigned total) {
    return vec > 1 && (total == 8 || total == 16);
}

/* One lane's load from (or store to) host address p, resolved and checked. */
static inline void ld_lane(exec_warp *hw, const exec_insn *in, uint32_t lane, const uint8_t *p,
                           unsigned esize, unsigned total, bool sgn, bool whole) {
    uint8_t buf[16];
    if (whole && ((uintptr_t)p & (total - 1)) == 0) {
        load_whole(buf, p, total);
        p = buf;
    }
    for (unsigned k = 0; k < in->vec; k++)
        EXEC_R(hw, in->d[k], lane) = extend(load_bytes(p + k * esize, esize), esize, in->aux,
                                            sgn);
}

static inline void st_lane(exec_warp *hw, const exec_insn *in, uint32_t lane, uint8_t *p,
                           unsigned esize, unsigned total, bool whole) {
    if (whole && ((uintptr_t)p & (total - 1)) == 0) {
        uint8_t buf[16];
        for (unsigned k = 0; k < in->vec; k++)
            store_bytes(buf + k * esize, EXEC_R(hw, in->d[k], lane), esize);
        store_whole(p, buf, total);
        return;
    }
    for (unsigned k = 0; k < in->vec; k++)
        store_bytes(p + k * esize, EXEC_R(hw, in->d[k], lane), esize);
}

/* A warp's scalar loads from (stores to) run + l * step, in lane order. */
static inline __attribute__((always_inline)) void ld_run(uint64_t *restrict V,
                                                         const uint8_t *restrict run,
                                                         uint64_t step, unsigned esize,
                                                         unsigned dbits, bool sgn) {
    for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++)
        V[l] = extend(load_bytes(run + l * step, esize), esize, dbits, sgn);
}

static inline __attribute__((always_inline)) void st_run(uint8_t *run, const uint64_t *V,
                                                         uint64_t step, unsigned esize) {
    for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++) store_bytes(run + l * step, V[l], esize);
}

/* The whole warp's access when lane l's address is first + l * step (x[tid], or one
 * field of an array of structs: a[tid].g, of any size and vector width), aligned, in
 * global or shared memory and inside one allocation (the instruction's cached range) or
 * the block's shared memory: then *run is lane 0's host address, and every lane's was
 * checked at once, where exec_mem_addr would check each (the cost of alignedTypes'
 * copies of 1- and 2-byte elements and of structs of bytes: every access of theirs took
 * this per-lane path, interpreted or compiled). Anything else (a lane outside, the first
 * access of an instruction, a step of 4 KiB or more, local memory): false, and the
 * per-lane path resolves, checks and reports each lane as before. */
static bool warp_run(exec_warp *hw, const exec_insn *in, unsigned total, bool write,
                     uint8_t **run, uint64_t *step) {
    const uint64_t *A = &EXEC_R(hw, in->a[0], 0);
    uint64_t s = A[1] - A[0], first = A[0] + (uint64_t)in->imm;
    if (s >= 4096 || (s & (total - 1)) || run_deviation(A, EXEC_WARP_SIZE, s)) return false;
    struct exec_block *b = hw->block;
    if (in->space == PTX_SPACE_SHARED) {
        /* (shared addresses are 32-bit: a run that wraps takes the per-lane path) */
        if (!run_inside(first, s, EXEC_WARP_SIZE, total, 0, b->shared_size)) return false;
        *run = b->shared + first;
    } else if (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_GENERIC) {
        /* (a generic address in a shared or local window is never inside a global
         * allocation's range) */
        const exec_range *r = exec_range_of(b, in);
        if ((write && !r->writable) || !run_inside(first, s, EXEC_WARP_SIZE, total, r->lo, r->hi))
            return false;
        *run = (uint8_t *)(uintptr_t)first;
    } else {
        return false;
    }
    *step = s;
    return true;
}

/* The general load: any space, size, vector width and extension. */
static void h_ld(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    unsigned esize = ptx_type_sizes[in->type];
    unsigned total = esize * in->vec;
    bool sgn = (in->flags & EXEC_F_SIGNED) != 0;
    bool whole = whole_access(in->vec, total);
    uint8_t *run;
    uint64_t step;
    if (mask == EXEC_FULL_MASK && warp_run(hw, in, total, false, &run, &step)) {
        if (in->vec > 1) {
            for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++)
                ld_lane(hw, in, lane, run + lane * step, esize, total, sgn, whole);
            return;
        }
        uint64_t *V = &EXEC_R(hw, in->d[0], 0);
        switch (esize) { /* (each with its size a constant) */
        case 1: ld_run(V, run, step, 1, in->aux, sgn); break;
        case 2: ld_run(V, run, step, 2, in->aux, sgn); break;
        case 4: ld_run(V, run, step, 4, in->aux, sgn); break;
        default: ld_run(V, run, step, 8, in->aux, sgn); break;
        }
        return;
    }
    EXEC_FOR_LANES(mask, lane) {
        uint64_t a = EXEC_R(hw, in->a[0], lane) + (uint64_t)in->imm;
        const uint8_t *p = exec_mem_addr(w, in, lane, (ptx_space)in->space, a, total,
                                         EXEC_ACC_READ);
        if (!p) return;
        ld_lane(hw, in, lane, p, esize, total, sgn, whole);
    }
}

static void h_st(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    unsigned esize = ptx_type_sizes[in->type];
    unsigned total = esize * in->vec;
    bool whole = whole_access(in->vec, total);
    uint8_t *run;
    uint64_t step;
    if (mask == EXEC_FULL_MASK && warp_run(hw, in, total, true, &run, &step)) {
        if (in->vec > 1) {
            for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++) /* (in lane order) */
                st_lane(hw, in, lane, run + lane * step, esize, total, whole);
            return;
        }
        const uint64_t *V = &EXEC_R(hw, in->d[0], 0);
        switch (esize) {
        case 1: st_run(run, V, step, 1); break;
        case 2: st_run(run, V, step, 2); break;
        case 4: st_run(run, V, step, 4); break;
        default: st_run(run, V, step, 8); break;
        }
        return;
    }
    EXEC_FOR_LANES(mask, lane) {
        uint64_t a = EXEC_R(hw, in->a[0], lane) + (uint64_t)in->imm;
        uint8_t *p = exec_mem_addr(w, in, lane, (ptx_space)in->space, a, total,
                                   EXEC_ACC_WRITE);
        if (!p) return;
        st_lane(hw, in, lane, p, esize, total, whole);
    }
}

/* Loads whose address is the same for every lane (a kernel parameter, a variable named
 * by symbol): one access, broadcast to the lanes. */
static void h_ld_kparam(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    /* offset and bounds were checked against the parameter layout when decoding */
    const uint8_t *p = hw->block->L->params + in->imm;
    unsigned esize = ptx_type_sizes[in->type];
    bool sgn = (in->flags & EXEC_F_SIGNED) != 0;
    for (unsigned k = 0; k < in->vec; k++)
        exec_broadcast(&EXEC_R(hw, in->d[k], 0), mask,
                       extend(load_bytes(p + k * esize, esize), esize, in->aux, sgn));
}

static void h_ld_uniform(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    unsigned esize = ptx_type_sizes[in->type];
    uint32_t lane0 = (uint32_t)__builtin_ctz(mask);
    uint64_t a = EXEC_R(hw, in->a[0], lane0) + (uint64_t)in->imm;
    const uint8_t *p = exec_mem_addr(exec_ws(hw), in, lane0, (ptx_space)in->space, a,
                                     esize * in->vec, EXEC_ACC_READ);
    if (!p) return;
    bool sgn = (in->flags & EXEC_F_SIGNED) != 0;
    for (unsigned k = 0; k < in->vec; k++)
        exec_broadcast(&EXEC_R(hw, in->d[k], 0), mask,
                       extend(load_bytes(p + k * esize, esize), esize, in->aux, sgn));
}

/* Fast paths for the common scalar 4- and 8-byte accesses. With every lane active the
 * check is a running maximum and an OR over the addresses (alignment), which keeps the
 * per-lane work to a few instructions; any lane out of range or misaligned, or a partial
 * mask, takes the general path, which resolves and reports per lane. */
#define FULL_WARP_RANGE(A, imm, N, lo, hi, check_lo, ok)                                  \
    do {                                                                                   \
        uint64_t mn0_ = UINT64_MAX, mn1_ = UINT64_MAX, mx0_ = 0, mx1_ = 0, or_ = 0;        \
        _Pragma("GCC unroll 4")                                                            \
        for (unsigned l_ = 0; l_ < EXEC_WARP_SIZE; l_ += 2) {                              \
            uint64_t a_ = (A)[l_] + (imm), c_ = (A)[l_ + 1] + (imm);                       \
            if (check_lo) {                                                                \
                mn0_ = a_ < mn0_ ? a_ : mn0_;                                              \
                mn1_ = c_ < mn1_ ? c_ : mn1_;                                              \
            }                                                                              \
            mx0_ = a_ > mx0_ ? a_ : mx0_;                                                  \
            mx1_ = c_ > mx1_ ? c_ : mx1_;                                                  \
            or_ |= a_ | c_;                                                                \
        }                                                                                  \
        (ok) = !(or_ & ((N) - 1)) && mx0_ <= (hi) && mx1_ <= (hi) &&                       \
               (!(check_lo) || (mn0_ >= (lo) && mn1_ >= (lo)));                            \
    } while (0)

/* Block moves between count consecutive elements and lanes of V. restrict: the register
 * file and device memory never overlap. */
#define RUN_MOVES(N, T)                                                                    \
    static inline void load_run_##N(uint64_t *restrict V, const T *restrict src,          \
                                    unsigned count) {                                      \
        for (unsigned l = 0; l < count; l++) V[l] = src[l];                                \
    }                                                                                      \
    static inline void store_run_##N(T *restrict dst, const uint64_t *restrict V,         \
                                     unsigned count) {                                     \
        for (unsigned l = 0; l < count; l++) dst[l] = (T)V[l];                             \
    }
RUN_MOVES(4, uint32_t)
RUN_MOVES(8, uint64_t)

/* The step of the half-warp run at A (N or 0), or 1 when it is not one. */
#define HALF_STEP(A, N)                                                                    \
    ((A)[1] - (A)[0] == (N) ? (run_deviation((A), 16, (N)) ? 1 : (N))                      \
     : (A)[1] == (A)[0]     ? (run_deviation((A), 16, 0) ? 1 : 0)                          \
                            : 1)

/* The whole warp's access when its addresses form runs (see above); false, having done
 * nothing, otherwise. Lanes keep their order: the upper half's stores land last, and a
 * run of one address keeps its last lane's value, as the per-lane path does. */
#define RUNS_ACCESS(NAME, N, T, IS_LD)                                                      \
    static inline bool NAME(const uint64_t *A, uint64_t *V, uint64_t imm, uint64_t lo,    \
                            uint64_t end, uintptr_t base) {                               \
        uint64_t f0 = A[0] + imm;                                                          \
        if (A[31] - A[0] == 31 * (N) && A[1] - A[0] == (N) &&                              \
            !run_deviation(A, EXEC_WARP_SIZE, N)) {                                        \
            if (!run_inside(f0, N, EXEC_WARP_SIZE, N, lo, end)) return false;              \
            if (IS_LD) load_run_##N(V, (const T *)(base + f0), EXEC_WARP_SIZE);            \
            else store_run_##N((T *)(base + f0), V, EXEC_WARP_SIZE);                       \
            return true;                                                                   \
        }                                                                                  \
        uint64_t s0 = HALF_STEP(A, N);                                                     \
        if (s0 == 1) return false;                                                         \
        uint64_t s1 = HALF_STEP(A + 16, N), f1 = A[16] + imm;                               \
        if (s1 == 1 || !run_inside(f0, s0, 16, N, lo, end) ||                              \
            !run_inside(f1, s1, 16, N, lo, end))                                           \
            return false;                                                                  \
        for (unsigned h = 0; h < 2; h++) {                                                 \
            uint64_t *Vh = V + h * 16;                                                     \
            T *p = (T *)(base + (h ? f1 : f0));                                            \
            if ((h ? s1 : s0) != 0) {                                                      \
                if (IS_LD) load_run_##N(Vh, p, 16);                                        \
                else store_run_##N(p, Vh, 16);                                             \
            } else if (IS_LD) {                                                            \
                T v;                                                                       \
                memcpy(&v, p, N);                                                          \
                for (unsigned l = 0; l < 16; l++) Vh[l] = v;                               \
            } else {                                                                       \
                T v = (T)Vh[15];                                                           \
                memcpy(p, &v, N);                                                          \
            }                                                                              \
        }                                                                                  \
        return true;                                                                       \
    }
RUNS_ACCESS(runs_load_4, 4, uint32_t, 1)
RUNS_ACCESS(runs_load_8, 8, uint64_t, 1)
RUNS_ACCESS(runs_store_4, 4, uint32_t, 0)
RUNS_ACCESS(runs_store_8, 8, uint64_t, 0)

#define FAST_ACCESS(NAME, N, T, IS_LD, SHARED)                                              \
    static void NAME(exec_warp *hw, const exec_insn *in, uint32_t mask) {                  \
        struct exec_block *b = hw->block;                                                  \
        const uint64_t *A = &EXEC_R(hw, in->a[0], 0);                                      \
        uint64_t *V = &EXEC_R(hw, in->d[0], 0);                                            \
        uint64_t imm = (uint64_t)in->imm;                                                  \
        /* the region the whole access must lie in: [lo, end) */                          \
        const exec_range *r_ = exec_range_of(b, in);                                       \
        uint64_t lo = SHARED ? 0 : r_->lo;                                                 \
        uint64_t end = SHARED ? b->shared_size : (IS_LD || r_->writable) ? r_->hi : 0;     \
        uintptr_t base = SHARED ? (uintptr_t)b->shared : 0;                                \
        bool ok = end >= lo + N;                                                           \
        if (ok && mask == EXEC_FULL_MASK &&                                                \
            (IS_LD ? runs_load_##N : runs_store_##N)(A, V, imm, lo, end, base))            \
            return;                                                                        \
        if (ok && mask == EXEC_FULL_MASK) {                                                \
            FULL_WARP_RANGE(A, imm, N, lo, end - N, !(SHARED), ok);                        \
        } else if (ok) { /* some lanes: check each */                                      \
            for (uint32_t m = mask; m && ok; m &= m - 1) {                                 \
                uint64_t a = A[__builtin_ctz(m)] + imm;                                    \
                ok = !(a & (N - 1)) && a >= lo && a <= end - N;                            \
            }                                                                              \
        }                                                                                  \
        if (!ok) {                                                                         \
            (IS_LD ? h_ld : h_st)(hw, in, mask);                                           \
            return;                                                                        \
        }                                                                                  \
        EXEC_EACH_LANE(mask, l, void *p = (void *)(base + (A[l] + imm));                   \
                       if (IS_LD) { T v; memcpy(&v, p, N); V[l] = v; }                     \
                       else { T v = (T)V[l]; memcpy(p, &v, N); });                         \
    }

FAST_ACCESS(h_ld_shared_4, 4, uint32_t, 1, 1)
FAST_ACCESS(h_ld_shared_8, 8, uint64_t, 1, 1)
FAST_ACCESS(h_st_shared_4, 4, uint32_t, 0, 1)
FAST_ACCESS(h_st_shared_8, 8, uint64_t, 0, 1)
FAST_ACCESS(h_ld_global_4, 4, uint32_t, 1, 0)
FAST_ACCESS(h_ld_global_8, 8, uint64_t, 1, 0)
FAST_ACCESS(h_st_global_4, 4, uint32_t, 0, 0)
FAST_ACCESS(h_st_global_8, 8, uint64_t, 0, 0)

int exec_native_mem_shape(const exec_insn *in, unsigned *size) {
    static const struct { exec_fn fn; int shape; unsigned size; } shapes[] = {
        {h_ld_global_4, EXEC_NATIVE_MEM_LD_GLOBAL, 4}, {h_ld_global_8, EXEC_NATIVE_MEM_LD_GLOBAL, 8},
        {h_st_global_4, EXEC_NATIVE_MEM_ST_GLOBAL, 4}, {h_st_global_8, EXEC_NATIVE_MEM_ST_GLOBAL, 8},
        {h_ld_shared_4, EXEC_NATIVE_MEM_LD_SHARED, 4}, {h_ld_shared_8, EXEC_NATIVE_MEM_LD_SHARED, 8},
        {h_st_shared_4, EXEC_NATIVE_MEM_ST_SHARED, 4}, {h_st_shared_8, EXEC_NATIVE_MEM_ST_SHARED, 8},
    };
    unsigned esize = ptx_type_sizes[in->type];
    if (in->fn == h_ld_kparam && in->vec == 1 && (esize == 4 || esize == 8) &&
        !(in->flags & EXEC_F_SIGNED) && in->aux >= esize * 8) {
        *size = esize;
        return EXEC_NATIVE_MEM_LD_KPARAM;
    }
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (in->fn == shapes[i].fn) {
            *size = shapes[i].size;
            return shapes[i].shape;
        }
    return EXEC_NATIVE_MEM_NONE;
}

/* ---- cvta / isspacep / mov of an address ---- */

enum { CVTA_TO_GENERIC = 0x100 }; /* aux: space | direction */

static uint64_t cvta_value(exec_wstate *w, unsigned aux, uint64_t a) {
    struct exec_block *b = w->h.block;
    ptx_space sp = (ptx_space)(aux & 0xff);
    bool to_generic = (aux & CVTA_TO_GENERIC) != 0;
    uint64_t params = (uint64_t)(uintptr_t)b->L->params;
    switch (sp) {
    case PTX_SPACE_SHARED:
        return to_generic ? a + MEM_SHARED_WINDOW : a - MEM_SHARED_WINDOW;
    case PTX_SPACE_LOCAL:
        return to_generic ? a + MEM_LOCAL_WINDOW : a - MEM_LOCAL_WINDOW;
    case PTX_SPACE_PARAM:
        if (to_generic)
            return a >= EXEC_KPARAM_BASE ? params + (a - EXEC_KPARAM_BASE) : a + MEM_LOCAL_WINDOW;
        if (a - MEM_LOCAL_WINDOW < MEM_LOCAL_WINDOW_SIZE) return a - MEM_LOCAL_WINDOW;
        if (params && a >= params && a - params < b->k->info.param_size)
            return EXEC_KPARAM_BASE + (a - params);
        return a;
    default: /* global, const: generic addresses are the same */
        return a;
    }
}

/* d = (a + imm) & keep: cvta to or from the shared and local windows (imm = +-window),
 * cvta of global and const addresses (imm = 0), mov of a symbol's address. aux: bits. */
static void h_offset(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    uint64_t keep = in->aux < 64 ? (1ull << in->aux) - 1 : ~0ull, imm = (uint64_t)in->imm;
    const uint64_t *a = &EXEC_R(hw, in->a[0], 0);
    uint64_t *d = &EXEC_R(hw, in->d[0], 0);
    EXEC_EACH_LANE(mask, lane, d[lane] = (a[lane] + imm) & keep);
}

int exec_native_mem_generic(const exec_insn *in) {
    exec_fn fn = in->lane_fn ? in->lane_fn : in->fn;
    if (fn == h_ld || fn == h_ld_kparam || fn == h_ld_uniform) return 1;
    if (fn == h_st) return 2;
    return 0;
}

bool exec_native_is_offset(const exec_insn *in) {
    return (in->fn == h_offset || in->lane_fn == h_offset) && in->nd == 1 && in->na == 1;
}

static void h_cvta(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    uint64_t keep = ptx_type_sizes[in->type] == 4 ? 0xffffffffull : ~0ull;
    EXEC_FOR_LANES(mask, lane)
        EXEC_R(hw, in->d[0], lane) = cvta_value(w, in->aux, EXEC_R(hw, in->a[0], lane)) & keep;
}

static void h_isspacep(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    struct exec_block *b = hw->block;
    uint32_t yes = 0;
    uint64_t params = (uint64_t)(uintptr_t)b->L->params;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t a = EXEC_R(hw, in->a[0], lane);
        bool sh = a - MEM_SHARED_WINDOW < MEM_SHARED_WINDOW_SIZE;
        bool lo = a - MEM_LOCAL_WINDOW < MEM_LOCAL_WINDOW_SIZE;
        bool r;
        switch ((ptx_space)in->space) {
        case PTX_SPACE_SHARED: r = sh; break;
        case PTX_SPACE_LOCAL: r = lo; break;
        case PTX_SPACE_PARAM:
            r = params && a >= params && a - params < b->k->info.param_size;
            break;
        case PTX_SPACE_CONST: {
            mem_alloc al;
            r = mem_table_find(b->L->mem, a, &al) && al.kind == MEM_KIND_CONST_VAR;
            break;
        }
        default: {
            /* constant memory has generic addresses of its own on the GPU: a pointer to a
             * __constant__ variable is not global there (isspacep.global and __isGlobal
             * are false for it, recorded on an H100), although vcuda keeps it in the
             * same address range */
            mem_alloc al;
            r = !sh && !lo && !(mem_table_find(b->L->mem, a, &al) && al.kind == MEM_KIND_CONST_VAR);
            break;
        }
        }
        if (r) yes |= 1u << lane;
    }
    hw->P[in->d[0]] = (hw->P[in->d[0]] & ~mask) | (yes & mask);
}

void exec_h_nop(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    (void)hw; (void)in; (void)mask;
}

/* ---- cp.async: the copy happens at once, so commit_group / wait_group have nothing
 * left to wait for. a[0]+imm: shared destination; a[1]+target: global source; vec: bytes
 * to write; a[2]: source size (CP_SRC_SIZE) or ignore-src predicate (CP_IGNORE_SRC). ---- */

#define CP_SRC_SIZE   (EXEC_F_HANDLER << 8)
#define CP_IGNORE_SRC (EXEC_F_HANDLER << 9)

static void h_cp_async(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    unsigned n = in->vec;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t dst = EXEC_R(hw, in->a[0], lane) + (uint64_t)in->imm;
        uint64_t src = EXEC_R(hw, in->a[1], lane) + (uint64_t)(int64_t)in->target;
        uint64_t from = n;
        if (in->flags & CP_SRC_SIZE) from = EXEC_R(hw, in->a[2], lane);
        if ((in->flags & CP_IGNORE_SRC) && ((hw->P[in->a[2]] >> lane) & 1u)) from = 0;
        if (from > n) from = n;
        uint8_t *d = exec_mem_addr(w, in, lane, PTX_SPACE_SHARED, dst, n, EXEC_ACC_WRITE);
        if (!d) return;
        uint8_t tmp[16] = {0};
        if (from == n) {
            const uint8_t *p = exec_mem_addr(w, in, lane, PTX_SPACE_GLOBAL, src, n, EXEC_ACC_READ);
            if (!p) return;
            memcpy(tmp, p, n);
        } else if (from) {
            if (src & (n - 1)) {
                mem_fault(w, in, lane, EXEC_FAULT_MISALIGNED, PTX_SPACE_GLOBAL, src, n,
                          EXEC_ACC_READ, NULL);
                return;
            }
            const uint8_t *p = exec_mem_addr(w, in, lane, PTX_SPACE_GLOBAL, src, 1, EXEC_ACC_READ);
            if (!p || !exec_mem_addr(w, in, lane, PTX_SPACE_GLOBAL, src + from - 1, 1,
                                     EXEC_ACC_READ))
                return;
            memcpy(tmp, p, from);
        }
        memcpy(d, tmp, n);
    }
}

static int dec_cp(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (ptx_insn_has_mod(pi, PTX_MOD_bulk)) return exec_decode_bulk(d, pi, out);
    if (!ptx_insn_has_mod(pi, PTX_MOD_async) || ptx_insn_has_mod(pi, PTX_MOD_reduce))
        return exec_dec_error(d, pi, "unsupported cp instruction"), -1;
    if (exec_dec_has_mod_named(pi, "mbarrier"))
        return exec_decode_cp_async_arrive(d, pi, out, exec_dec_has_mod_named(pi, "noinc"));
    if (ptx_insn_has_mod(pi, PTX_MOD_commit_group) || ptx_insn_has_mod(pi, PTX_MOD_wait_group) ||
        ptx_insn_has_mod(pi, PTX_MOD_wait_all)) {
        out->fn = exec_h_nop;
        return 1;
    }
    if (pi->nopnds < 3 || pi->opnd[2].kind != PTX_OPND_IMM_INT)
        return exec_dec_error(d, pi, "cp.async needs [dst], [src], size"), -1;
    int64_t n = pi->opnd[2].ival;
    if (n != 4 && n != 8 && n != 16)
        return exec_dec_error(d, pi, "cp.async size must be 4, 8 or 16"), -1;
    out->vec = (uint8_t)n;
    exec_insn src;
    memset(&src, 0, sizeof src);
    if (!exec_dec_address(d, pi, &pi->opnd[0], PTX_SPACE_SHARED, out) ||
        !exec_dec_address(d, pi, &pi->opnd[1], PTX_SPACE_GLOBAL, &src))
        return -1;
    if (src.imm < INT32_MIN || src.imm > INT32_MAX)
        return exec_dec_error(d, pi, "cp.async source offset too large"), -1;
    out->a[1] = src.a[0];
    out->target = (int32_t)src.imm;
    if (pi->nopnds > 3) {
        const ptx_operand *o = &pi->opnd[3];
        if (o->kind == PTX_OPND_REG && exec_dec_reg_type(d, o) == PTX_T_pred) {
            bool neg = false;
            if (!exec_dec_pred(d, pi, o, &out->a[2], &neg)) return -1;
            if (neg) return exec_dec_error(d, pi, "negated ignore-src predicate"), -1;
            out->flags |= CP_IGNORE_SRC;
        } else if (exec_dec_reg_type(d, o) != PTX_T_b64 || pi->nopnds > 4) {
            /* a 64-bit fourth operand alone is a cache policy */
            if (!exec_dec_src(d, pi, o, PTX_T_u32, &out->a[2])) return -1;
            out->flags |= CP_SRC_SIZE;
        }
    }
    out->fn = h_cp_async;
    return 1;
}

/* ---- decoding ---- */

static unsigned vec_width(const ptx_insn *pi) {
    if (ptx_insn_has_mod(pi, PTX_MOD_v2)) return 2;
    if (ptx_insn_has_mod(pi, PTX_MOD_v4)) return 4;
    if (ptx_insn_has_mod(pi, PTX_MOD_v8)) return 8;
    return 1;
}

/* Decode an address operand into a[0] (base slot) and imm. */
bool exec_dec_address(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, ptx_space sp,
                      exec_insn *out) {
    if (o->kind == PTX_OPND_ADDR && o->reg >= 0) {
        if (d->pf->regs[o->reg].type == PTX_T_pred)
            return exec_dec_error(d, pi, "predicate used as an address");
        out->a[0] = d->reg_slot[o->reg];
        out->imm = o->ival;
        return true;
    }
    if ((o->kind == PTX_OPND_ADDR || o->kind == PTX_OPND_SYM) && o->sym.index >= 0) {
        ptx_space vs = exec_dec_sym_space(d, &o->sym);
        if (sp == PTX_SPACE_GENERIC) {
            /* a variable named in a generic access: its generic address */
            if (vs == PTX_SPACE_SHARED) out->imm = (int64_t)MEM_SHARED_WINDOW;
            else if (vs == PTX_SPACE_LOCAL) out->imm = (int64_t)MEM_LOCAL_WINDOW;
            else if (vs == PTX_SPACE_PARAM)
                return exec_dec_error(d, pi, "generic access to a parameter by name is not "
                                      "supported");
        } else if (vs != sp && !(sp == PTX_SPACE_CONST && vs == PTX_SPACE_GLOBAL) &&
                   vs != PTX_SPACE_NONE) {
            return exec_dec_error(d, pi, "variable is not in the .%s state space",
                                  sp == PTX_SPACE_GLOBAL ? "global" : sp == PTX_SPACE_SHARED ?
                                  "shared" : sp == PTX_SPACE_LOCAL ? "local" : sp ==
                                  PTX_SPACE_PARAM ? "param" : "const");
        }
        if (!exec_dec_sym_slot(d, pi, &o->sym, 0, &out->a[0])) return false;
        out->imm += o->ival;
        return true;
    }
    if (o->kind == PTX_OPND_ADDR || o->kind == PTX_OPND_IMM_INT) {
        out->a[0] = exec_dec_const(d, EXEC_CK_VALUE, 0, 0);
        out->imm = o->ival;
        return true;
    }
    return exec_dec_error(d, pi, "operand is not an address");
}

/* ld/st .b128 (sm_70+, PTX 8.3): a .b128 register is two consecutive slots, low 64 bits
 * first (exec/program.c), so the access is the .v2.b64 one of those slots (16-byte
 * aligned alike). */
static int dec_ld_st_b128(exec_decoder *d, const ptx_insn *pi, exec_insn *out, bool is_ld,
                          ptx_space sp) {
    const ptx_operand *data = &pi->opnd[is_ld ? 0 : 1];
    const ptx_operand *addr = &pi->opnd[is_ld ? 1 : 0];
    if (data->kind != PTX_OPND_REG || exec_dec_reg_type(d, data) != PTX_T_b128)
        return exec_dec_error(d, pi, "%s.b128 needs a .b128 register", is_ld ? "ld" : "st"), -1;
    if (sp == PTX_SPACE_PARAM || sp == PTX_SPACE_CONST)
        return exec_dec_error(d, pi, "%s.b128 of this state space is not supported",
                              is_ld ? "ld" : "st"), -1;
    out->type = PTX_T_b64;
    out->vec = 2;
    out->space = (uint8_t)sp;
    if (!exec_dec_address(d, pi, addr, sp, out)) return -1;
    out->na = 1;
    uint32_t slot;
    if (is_ld ? !exec_dec_dst(d, pi, data, &slot) : !exec_dec_src(d, pi, data, PTX_T_b128, &slot))
        return -1;
    out->d[0] = slot;
    out->d[1] = slot + 1;
    out->nd = 2;
    out->aux = 64;
    out->fn = is_ld ? h_ld : h_st;
    return 1;
}

static int dec_ld_st(exec_decoder *d, const ptx_insn *pi, exec_insn *out, bool is_ld) {
    if (pi->ntypes < 1) return exec_dec_error(d, pi, "missing type"), -1;
    ptx_type t = (ptx_type)pi->types[pi->ntypes - 1];
    unsigned esize = ptx_type_sizes[t];
    unsigned vec = vec_width(pi);
    ptx_space sp = exec_dec_space(pi);
    if (t == PTX_T_b128 && vec == 1 && pi->nopnds >= 2)
        return dec_ld_st_b128(d, pi, out, is_ld, sp);
    if (esize == 0 || esize > 8)
        return exec_dec_error(d, pi, "%s of .%s is not supported", is_ld ? "ld" : "st",
                              ptx_type_names[t]), -1;
    if (vec > 4) return exec_dec_error(d, pi, ".v8 accesses are not supported"), -1;
    if (pi->nopnds < 2) return exec_dec_error(d, pi, "missing operands"), -1;
    out->type = (uint8_t)t;
    out->vec = (uint8_t)vec;
    out->space = (uint8_t)sp;
    const ptx_operand *data = &pi->opnd[is_ld ? 0 : 1];
    const ptx_operand *addr = &pi->opnd[is_ld ? 1 : 0];
    if (!exec_dec_address(d, pi, addr, sp, out)) return -1;
    if (!is_ld && sp == PTX_SPACE_PARAM && addr->sym.index >= 0 &&
        addr->sym.scope == PTX_SYM_PARAM && d->pf->is_entry)
        return exec_dec_error(d, pi, "store to a kernel parameter"), -1;
    out->na = 1;
    unsigned dbits = 64;
    for (unsigned k = 0; k < vec; k++) {
        const ptx_operand *o = data;
        if (vec > 1 || data->kind == PTX_OPND_VEC) {
            if (data->kind != PTX_OPND_VEC || data->vec_n != vec)
                return exec_dec_error(d, pi, "vector operand does not match .v%u", vec), -1;
            o = exec_dec_vec_elem(d, data, k);
        }
        if (is_ld) {
            if (!exec_dec_dst(d, pi, o, &out->d[k])) return -1;
            ptx_type rt = exec_dec_reg_type(d, o);
            unsigned bits = rt != PTX_T_NONE ? ptx_type_sizes[rt] * 8u : 64u;
            if (bits && bits < dbits) dbits = bits;
        } else if (!exec_dec_src(d, pi, o, t, &out->d[k])) {
            return -1;
        }
    }
    out->nd = (uint8_t)vec;
    out->aux = dbits;
    if (is_ld && ptx_type_kinds[t] == 's' && dbits > esize * 8) out->flags |= EXEC_F_SIGNED;

    /* a kernel parameter named by symbol: its place in the param buffer is known now */
    if (is_ld && sp == PTX_SPACE_PARAM && addr->kind == PTX_OPND_ADDR && addr->reg < 0 &&
        addr->sym.index >= 0 && addr->sym.scope == PTX_SYM_PARAM && d->pf->is_entry) {
        const ptx_var *pv = &d->pf->params[addr->sym.index];
        int64_t off = (int64_t)d->f->param_off[addr->sym.index] + addr->ival;
        if (addr->ival < 0 || (uint64_t)addr->ival + esize * vec > pv->size)
            return exec_dec_error(d, pi, "access outside parameter '%s'", pv->name), -1;
        if (off % (int64_t)(esize * vec))
            return exec_dec_error(d, pi, "misaligned access to parameter '%s'", pv->name), -1;
        out->imm = off;
        out->fn = h_ld_kparam;
        return 1;
    }
    /* one address for all lanes, in a space whose memory all threads share */
    bool uniform = addr->kind == PTX_OPND_ADDR && addr->reg < 0 &&
                   (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_CONST || sp == PTX_SPACE_SHARED);
    if (is_ld && uniform) {
        out->fn = h_ld_uniform;
        return 1;
    }

    bool plain = vec == 1 && !(out->flags & EXEC_F_SIGNED) && dbits >= esize * 8;
    bool shared = sp == PTX_SPACE_SHARED;
    bool global = sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_GENERIC;
    if (plain && esize == 4 && shared) out->fn = is_ld ? h_ld_shared_4 : h_st_shared_4;
    else if (plain && esize == 8 && shared) out->fn = is_ld ? h_ld_shared_8 : h_st_shared_8;
    else if (plain && esize == 4 && global) out->fn = is_ld ? h_ld_global_4 : h_st_global_4;
    else if (plain && esize == 8 && global) out->fn = is_ld ? h_ld_global_8 : h_st_global_8;
    else out->fn = is_ld ? h_ld : h_st;
    return 1;
}

static int dec_cvta(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    ptx_space sp = exec_dec_space(pi);
    if (sp == PTX_SPACE_GENERIC) return exec_dec_error(d, pi, "cvta needs a state space"), -1;
    ptx_type t = pi->ntypes ? (ptx_type)pi->types[0] : PTX_T_u64;
    if (pi->nopnds < 2) return exec_dec_error(d, pi, "missing operands"), -1;
    out->type = (uint8_t)t;
    out->aux = (uint32_t)sp | (ptx_insn_has_mod(pi, PTX_MOD_to) ? 0u : (uint32_t)CVTA_TO_GENERIC);
    out->nd = out->na = 1;
    if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0])) return -1;
    if (!exec_dec_src(d, pi, &pi->opnd[1], t, &out->a[0])) return -1;
    bool to_generic = !ptx_insn_has_mod(pi, PTX_MOD_to);
    int64_t window = sp == PTX_SPACE_SHARED ? (int64_t)MEM_SHARED_WINDOW
                   : sp == PTX_SPACE_LOCAL ? (int64_t)MEM_LOCAL_WINDOW : 0;
    if (sp == PTX_SPACE_PARAM) {
        out->fn = h_cvta; /* depends on which kind of parameter the address names */
    } else {
        out->imm = to_generic ? window : -window;
        out->aux = ptx_type_sizes[t] * 8u;
        out->fn = h_offset;
    }
    return 1;
}

static int dec_isspacep(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (pi->nopnds < 2) return exec_dec_error(d, pi, "missing operands"), -1;
    out->space = (uint8_t)exec_dec_space(pi);
    if (ptx_insn_has_mod(pi, PTX_MOD_global)) out->space = PTX_SPACE_GLOBAL;
    out->flags |= EXEC_F_D_PRED;
    out->nd = out->na = 1;
    if (!exec_dec_pred(d, pi, &pi->opnd[0], &out->d[0], NULL)) return -1;
    if (!exec_dec_src(d, pi, &pi->opnd[1], PTX_T_u64, &out->a[0])) return -1;
    out->fn = h_isspacep;
    return 1;
}

int exec_decode_memory(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    switch (pi->op) {
    case PTX_OP_ld: case PTX_OP_ldu: return dec_ld_st(d, pi, out, true);
    case PTX_OP_st: return dec_ld_st(d, pi, out, false);
    case PTX_OP_cvta: return dec_cvta(d, pi, out);
    case PTX_OP_isspacep: return dec_isspacep(d, pi, out);
    case PTX_OP_cp: return dec_cp(d, pi, out);
    case PTX_OP_prefetch: case PTX_OP_prefetchu: case PTX_OP_discard: case PTX_OP_applypriority:
        out->fn = exec_h_nop; /* cache hints (and prefetch.tensormap): no effect on results */
        return 1;
    case PTX_OP_mov:
        if (pi->nopnds == 2 && pi->opnd[1].kind == PTX_OPND_SYM) {
            ptx_type t = pi->ntypes ? (ptx_type)pi->types[0] : PTX_T_u64;
            out->type = (uint8_t)t;
            out->nd = out->na = 1;
            out->aux = ptx_type_sizes[t] * 8u;
            if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0])) return -1;
            if (!exec_dec_sym_slot(d, pi, &pi->opnd[1].sym, pi->opnd[1].ival, &out->a[0]))
                return -1;
            out->fn = h_offset;
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}
