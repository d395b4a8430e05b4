/* prof/metrics.h — the one table of metrics: each row is one quantity, under its nvprof
 * name and its Nsight Compute name where the tools have them, with its unit, the
 * description nvprof prints, and the function that computes it from a launch's counters.
 */
#ifndef VCUDA_PROF_METRICS_H
#define VCUDA_PROF_METRICS_H

#include <stddef.h>
#include <stdbool.h>
#include "counters.h"

/* What a launch looked like, for the metrics that need more than the counters. */
typedef struct prof_launch {
    const gpu_preset *preset;
    prof_rules rules;              /* the rules the counters were made under */
    uint32_t grid[3], block[3];
    uint32_t regs_per_thread;
    uint32_t static_shared;        /* bytes of .shared per block declared by the kernel */
    uint32_t dynamic_shared;       /* bytes asked for at launch */
    double duration_s;             /* the timing model's estimate of the kernel's run time;
                                    * 0 = unknown (throughputs are then not available) */
    gpu_occupancy occupancy;       /* theoretical occupancy of this configuration */
    int carveout;                  /* cudaFuncAttributePreferredSharedMemoryCarveout (a
                                    * percentage), -1 = none: the L1 it leaves (session.c) */
} prof_launch;

/* Fill L from the launch configuration; computes the theoretical occupancy with
 * gpu_occupancy_calc (prof/launch.c). */
void prof_launch_init(prof_launch *L, const gpu_preset *p, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t regs_per_thread,
                      uint32_t static_shared, uint32_t dynamic_shared, double duration_s);

typedef enum prof_unit {
    PROF_UNIT_COUNT,       /* an integer count */
    PROF_UNIT_PERCENT,     /* 0..100 */
    PROF_UNIT_RATIO,       /* a plain number (per request, per warp, a 0..1 fraction) */
    PROF_UNIT_BYTES_PER_S  /* throughput */
} prof_unit;

/* Row flags. */
#define PROF_MF_EVENT   0x1u  /* nvprof offered it as an event (--events), not a metric */
#define PROF_MF_VCUDA   0x2u  /* the nvprof-style name is vcuda's own: nvprof had none */

typedef struct prof_metric {
    const char *nvprof;      /* nvprof name, NULL where nvprof had none */
    const char *ncu;         /* Nsight Compute name of the same quantity, NULL where none */
    double ncu_scale;        /* ncu value = nvprof-style value x this (e.g. 100 for a
                              * fraction that ncu reports as a percentage) */
    prof_unit unit;          /* unit of the nvprof-style value */
    const char *ncu_unit;    /* the unit ncu prints ("sector", "%", "byte/second", "") */
    unsigned flags;          /* PROF_MF_* */
    const char *description; /* what nvprof prints in its Metric Description column */
    /* The value, or NAN where this launch cannot give one (no timing, no samples). */
    double (*compute)(const prof_counters *c, const prof_launch *L);
} prof_metric;

extern const prof_metric prof_metrics[];
extern const size_t prof_metric_count;

/* The row named name (nvprof or ncu spelling), or NULL. *as_ncu tells which one matched
 * (may be NULL). */
const prof_metric *prof_metric_find(const char *name, bool *as_ncu);

/* Whether a name of this row exists for the preset: Nsight Compute names need sm_70 or
 * later (what ncu supports); nvprof names are offered on every preset. */
bool prof_metric_available(const prof_metric *m, const gpu_preset *p, bool as_ncu);

/* The value under either name (as_ncu applies ncu_scale). NAN where not available. */
double prof_metric_value(const prof_metric *m, bool as_ncu, const prof_counters *c,
                         const prof_launch *L);

#endif
