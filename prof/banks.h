/* prof/banks.h — what one warp-level shared-memory instruction costs: wavefronts (nvprof's
 * shared transactions), the wavefronts it would need without bank conflicts, and the
 * bank conflicts that Nsight Compute reports as the difference.
 */
#ifndef VCUDA_PROF_BANKS_H
#define VCUDA_PROF_BANKS_H

#include <stdint.h>
#include "counters.h"

#define PROF_SHARED_BANKS 32u

typedef struct prof_shared_cost {
    uint32_t requests;          /* 1 when a lane is on, else 0 */
    uint32_t wavefronts;        /* passes through the banks (nvprof: shared transactions) */
    uint32_t ideal_wavefronts;  /* passes the same access needs when no bank is contended */
    uint32_t bank_conflicts;    /* wavefronts - ideal_wavefronts */
    uint32_t sass_wavefronts;   /* wavefronts as the instruction-level counter reports them */
    uint32_t bytes_requested;   /* lanes on x size */
    uint32_t bytes_used;        /* distinct bytes the lanes on touch */
} prof_shared_cost;

/* Cost of one warp-level access to shared memory. addr[lane] (lanes in mask only) is the
 * shared-space byte offset; size is the bytes one lane accesses (1, 2, 4, 8, 16). */
prof_shared_cost prof_banks(const prof_rules *r, prof_access access, const uint64_t addr[32],
                            uint32_t mask, unsigned size);

#endif
