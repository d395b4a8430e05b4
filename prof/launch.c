/* prof/launch.c — describing a launch for the metrics, with its theoretical occupancy. */
#include <string.h>
#include "metrics.h"

void prof_launch_init(prof_launch *L, const gpu_preset *p, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t regs_per_thread,
                      uint32_t static_shared, uint32_t dynamic_shared, double duration_s)
{
    memset(L, 0, sizeof *L);
    L->preset = p;
    L->rules = prof_rules_for(p);
    memcpy(L->grid, grid, sizeof L->grid);
    memcpy(L->block, block, sizeof L->block);
    L->regs_per_thread = regs_per_thread;
    L->static_shared = static_shared;
    L->dynamic_shared = dynamic_shared;
    L->duration_s = duration_s;
    L->carveout = -1;
    int threads = (int)(block[0] * block[1] * block[2]);
    L->occupancy = gpu_occupancy_calc(p, threads, (int)regs_per_thread,
                                      (size_t)static_shared + dynamic_shared);
}
