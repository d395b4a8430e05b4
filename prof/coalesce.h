/* prof/coalesce.h — what one warp-level global or local memory instruction costs, in the
 * units the profilers count: L1TEX requests and 32-byte sectors (Nsight Compute, sm_70 and
 * later; nvprof from sm_50), and nvprof's transactions under Fermi and Kepler rules.
 */
#ifndef VCUDA_PROF_COALESCE_H
#define VCUDA_PROF_COALESCE_H

#include <stdint.h>
#include "counters.h"

#define PROF_SECTOR_BYTES 32u
#define PROF_LINE_BYTES 128u

typedef struct prof_mem_cost {
    uint32_t requests;          /* global: 1 when a lane is on, whatever the access size;
                                 * local: 1 per 4-byte word each lane accesses */
    uint32_t sectors;           /* 32-byte sectors fetched (sm_50 and later) */
    uint32_t lines;             /* 128-byte line (tag-set) lookups */
    uint32_t transactions;      /* nvprof transactions under r's generation */
    uint32_t bytes_transferred; /* bytes those transactions move */
    uint32_t bytes_requested;   /* lanes on x size */
    uint32_t bytes_used;        /* distinct bytes the lanes on touch */
} prof_mem_cost;

/* Cost of one warp-level access to global or local memory.
 * addr[lane] is read for the lanes in mask only. For global memory it is the device
 * address; for local memory it is the thread's own local-space offset (what the thread
 * computes), which the hardware interleaves across the warp in 4-byte words: word w of
 * lane l lives at byte (w * 32 + l) * 4 of the warp's local area, so all lanes reading the
 * same offset touch one 128-byte line.
 * size is the bytes one lane accesses (1, 2, 4, 8, 16; a vector access counts its whole
 * width). An access that crosses a sector counts every sector it touches.
 * Atomics (access ATOMIC or REDUCTION) are served in rounds that take one lane per distinct
 * address, so lanes sharing an address cost a sector and a line lookup each. */
prof_mem_cost prof_coalesce(const prof_rules *r, prof_space space, prof_access access,
                            const uint64_t addr[32], uint32_t mask, unsigned size);

#endif
