/* runtime/device_arena.c — small device allocations packed into shared 2 MiB mappings.
 *
 * A GPU's allocator packs cudaMalloc's small blocks one after another, each rounded up to
 * 512 bytes, into 2 MiB pages of device memory mapped as a whole (measured on an H200:
 * blocks of 4, 1,000 and 4,000 bytes at offsets 0, 0x200 and 0x600 of one page). A kernel
 * that runs a little past such a block (a grid larger than its array, without a bounds
 * test) touches mapped memory and does not fault there. So blocks smaller than a host
 * page come from chunks of 2 MiB laid out the same way, and each chunk is a mapping of the
 * allocation table (mem_table_map): the executor lets an access inside a chunk through,
 * the checker (memcheck) still reports it against the block's own bounds.
 *
 * Blocks are handed out in address order (a bump pointer per chunk), then first-fit in
 * the chunk's map of 512-byte granules once its end is reached; a chunk with no block
 * left is unmapped. Every block comes zeroed, as the heap's did.
 */
#include "rt.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ARENA_CHUNK (2u << 20)
#define ARENA_GRANULE 512u
#define ARENA_GRANULES (ARENA_CHUNK / ARENA_GRANULE)
/* each chunk is followed by a page no mapping holds (memory.c, rt_device_reserved) */
static size_t chunk_reserved(void) { return ARENA_CHUNK + (size_t)sysconf(_SC_PAGESIZE); }

typedef struct arena_chunk {
    uint8_t *base;
    uint32_t device;                 /* the device tag its blocks belong to */
    uint32_t live;                   /* blocks in it */
    uint32_t top;                    /* granules below this were handed out in order */
    uint64_t used[ARENA_GRANULES / 64];
    struct arena_chunk *next;
} arena_chunk;

static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;
static arena_chunk *arena_chunks;

static bool granule_used(const arena_chunk *ch, uint32_t g) {
    return ch->used[g / 64] >> (g % 64) & 1u;
}

static void mark(arena_chunk *ch, uint32_t first, uint32_t n, bool used) {
    for (uint32_t g = first; g < first + n; g++) {
        if (used) ch->used[g / 64] |= 1ull << (g % 64);
        else ch->used[g / 64] &= ~(1ull << (g % 64));
    }
}

/* The first run of n free granules in ch, or UINT32_MAX. */
static uint32_t find_run(const arena_chunk *ch, uint32_t n) {
    if (ch->top + n <= ARENA_GRANULES) return ch->top;
    for (uint32_t g = 0, run = 0; g < ARENA_GRANULES; g++) {
        run = granule_used(ch, g) ? 0 : run + 1;
        if (run == n) return g + 1 - n;
    }
    return UINT32_MAX;
}

static arena_chunk *chunk_new(mem_table *t, uint32_t device) {
    arena_chunk *ch = calloc(1, sizeof *ch);
    if (!ch) return NULL;
    void *p = mmap(NULL, chunk_reserved(), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        free(ch);
        return NULL;
    }
    if (!mem_table_map(t, (uint64_t)(uintptr_t)p, ARENA_CHUNK, device)) {
        munmap(p, chunk_reserved());
        free(ch);
        return NULL;
    }
    ch->base = p;
    ch->device = device;
    ch->next = arena_chunks;
    arena_chunks = ch;
    return ch;
}

void *rt_arena_alloc(mem_table *t, size_t size, uint32_t device) {
    uint32_t n = (uint32_t)((size + ARENA_GRANULE - 1) / ARENA_GRANULE);
    if (n == 0 || n > ARENA_GRANULES) return NULL;
    pthread_mutex_lock(&arena_lock);
    arena_chunk *ch;
    uint32_t at = UINT32_MAX;
    for (ch = arena_chunks; ch; ch = ch->next)
        if (ch->device == device && (at = find_run(ch, n)) != UINT32_MAX) break;
    if (!ch && (ch = chunk_new(t, device))) at = 0;
    void *p = NULL;
    if (ch) {
        mark(ch, at, n, true);
        if (at + n > ch->top) ch->top = at + n;
        ch->live++;
        p = ch->base + (size_t)at * ARENA_GRANULE;
        memset(p, 0, (size_t)n * ARENA_GRANULE);
    }
    pthread_mutex_unlock(&arena_lock);
    return p;
}

bool rt_arena_free(mem_table *t, void *p, size_t size) {
    uint8_t *b = p;
    bool found = false;
    pthread_mutex_lock(&arena_lock);
    for (arena_chunk **at = &arena_chunks, *ch; (ch = *at); at = &ch->next) {
        if (b < ch->base || b >= ch->base + ARENA_CHUNK) continue;
        uint32_t n = (uint32_t)((size + ARENA_GRANULE - 1) / ARENA_GRANULE);
        mark(ch, (uint32_t)((b - ch->base) / ARENA_GRANULE), n ? n : 1, false);
        found = true;
        if (--ch->live == 0) {
            *at = ch->next;
            mem_table_unmap(t, (uint64_t)(uintptr_t)ch->base);
            munmap(ch->base, chunk_reserved());
            free(ch);
        }
        break;
    }
    pthread_mutex_unlock(&arena_lock);
    return found;
}
