/* mem/mem.h — the device's address spaces and the allocation table.
 *
 * Global memory uses the host's own addresses: a device pointer is the address of the
 * host buffer behind it, so copies are plain memcpy and the executor reads memory
 * directly. Every global access is still checked against the allocation table, so a
 * stray pointer (a host pointer, a freed block, one far past the end) is a device fault,
 * not a host crash; an access a little past an allocation's end lands in the device's
 * mappings around it (mem_table_map), which a GPU has mapped too.
 *
 * Shared and local memory have their own address spaces starting at 0. In the generic
 * space they appear in windows above the host's user address range (which ends below
 * 2^47 on x86-64 and AArch64), so a generic address says which space it belongs to.
 */
#ifndef VCUDA_MEM_MEM_H
#define VCUDA_MEM_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define MEM_SHARED_WINDOW      0x0001000000000000ull /* generic = window + shared offset */
#define MEM_SHARED_WINDOW_SIZE 0x0000000100000000ull
#define MEM_LOCAL_WINDOW       0x0001000100000000ull /* generic = window + local offset */
#define MEM_LOCAL_WINDOW_SIZE  0x0000000100000000ull

typedef enum mem_kind {
    MEM_KIND_DEVICE = 1,   /* cudaMalloc, cudaMallocPitch */
    MEM_KIND_HOST = 2,     /* cudaMallocHost / cudaHostAlloc (pinned, mapped) */
    MEM_KIND_MANAGED = 3,  /* cudaMallocManaged */
    MEM_KIND_GLOBAL_VAR = 4, /* a module's .global variable */
    MEM_KIND_CONST_VAR = 5,  /* a module's .const variable (read-only to kernels) */
    MEM_KIND_REGISTERED = 6, /* cudaHostRegister */
    MEM_KIND_INTERNAL = 7    /* the device's own (grid workspaces): no program allocated it */
} mem_kind;

typedef struct mem_alloc {
    uint64_t base;
    uint64_t size;        /* bytes the user asked for */
    uint32_t kind;        /* mem_kind */
    uint32_t flags;       /* API flags the allocation was made with */
    uint32_t device;      /* 1 + the ordinal of the device current when it was made (the
                           * device that owns MEM_KIND_DEVICE memory); 0: no device's */
} mem_alloc;

typedef struct mem_table mem_table;

mem_table *mem_table_new(void);
void mem_table_free(mem_table *t);

/* Record [base, base+size). Returns false when it overlaps an existing entry. */
bool mem_table_add(mem_table *t, uint64_t base, uint64_t size, mem_kind kind, uint32_t flags);
/* mem_table_add naming the device that made it (mem_alloc.device). */
bool mem_table_add_dev(mem_table *t, uint64_t base, uint64_t size, mem_kind kind,
                       uint32_t flags, uint32_t device);
/* Remove the entry starting exactly at base; false when there is none. */
bool mem_table_remove(mem_table *t, uint64_t base, mem_alloc *removed);
/* The entry containing addr; false when none does. */
bool mem_table_find(mem_table *t, uint64_t addr, mem_alloc *out);
/* Is [addr, addr+size) inside one entry? On success *out is that entry. */
bool mem_table_check(mem_table *t, uint64_t addr, uint64_t size, mem_alloc *out);
/* The device's mappings: what a GPU's page tables map around its allocations (device
 * memory in 2 MiB pages, small allocations packed into shared ones), so that an access a
 * little past an allocation's end touches mapped memory and does not fault, as on a GPU.
 * A mapping is a range of real host memory the allocator reserved (runtime/memory.c);
 * mappings do not overlap one another, allocations lie inside them. The checker
 * (memcheck) ignores them: its bounds are the allocations'. */
bool mem_table_map(mem_table *t, uint64_t base, uint64_t size, uint32_t device);
/* Remove the mapping starting exactly at base; false when there is none. */
bool mem_table_unmap(mem_table *t, uint64_t base);
/* Is [addr, addr+size) inside one mapping? *out (kind MEM_KIND_DEVICE) is the mapping. */
bool mem_table_check_mapped(mem_table *t, uint64_t addr, uint64_t size, mem_alloc *out);
/* Number of entries and total bytes of a kind (0 = all kinds). */
void mem_table_usage(mem_table *t, mem_kind kind, size_t *count, uint64_t *bytes);
/* The same, of the entries whose device is device (mem_alloc.device). */
void mem_table_usage_dev(mem_table *t, mem_kind kind, uint32_t device, size_t *count,
                         uint64_t *bytes);
/* A number that changes whenever an entry is removed from any table or a table is freed:
 * while it stays the same, every range a caller saw in a table is still allocated (for
 * caches of lookups, such as the executor's per-instruction allocation ranges). */
uint64_t mem_removal_epoch(void);
/* Advance that number without removing anything: what callers cached of any table must be
 * looked up again (an access that was allowed may no longer be: peer access disabled). */
void mem_forget_cached(void);
/* Call fn for every entry, in address order (under the table's lock: fn must not
 * touch the table). */
void mem_table_each(mem_table *t, void (*fn)(const mem_alloc *a, void *ctx), void *ctx);

#endif
