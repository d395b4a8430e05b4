/* prof/session.h — profiling one launch: an observer of the executor (exec/observe.h)
 * that feeds the counters (prof/hooks.h) and replays each block on the timing model's
 * clock (prof/timing.h).
 *
 * Use: prof_session_new before the grid runs, put prof_session_observer into
 * exec_launch.observer, run the grid, then read the merged counters and the estimate.
 * Workers record into their own state; end_worker merges it under the session's lock.
 */
#ifndef VCUDA_PROF_SESSION_H
#define VCUDA_PROF_SESSION_H

#include "../exec/observe.h"
#include "metrics.h"
#include "timing.h"

typedef struct prof_session prof_session;

/* Tables the workers of finished sessions leave for later ones (a third of a megabyte
 * per host worker), so that many small launches do not each allocate and clear them. One
 * per profiler, outliving its sessions; sessions may use it from several threads. */
typedef struct prof_table_pool prof_table_pool;
prof_table_pool *prof_table_pool_new(void);  /* NULL when out of memory */
void prof_table_pool_free(prof_table_pool *p);

/* A session for a launch described by L (preset, grid, block, resources) of a kernel of
 * module m (m lets instructions be looked up in their function; may be NULL). timing:
 * also replay blocks for the timing model. pool: where workers take their tables (NULL:
 * each allocates its own). NULL when out of memory. */
prof_session *prof_session_new(const prof_launch *L, const ptx_module *m, bool timing,
                               prof_table_pool *pool);
void prof_session_free(prof_session *s);

const exec_observer *prof_session_observer(prof_session *s);

/* Before the grid runs: the ranges [begin, end) of host memory mapped into the device
 * (zero-copy), sorted by address: accesses there go over the host link in the timing
 * model. False when out of memory. */
bool prof_session_set_host_ranges(prof_session *s, const uint64_t (*ranges)[2], size_t n);

/* After the grid ran: the counters of every worker, merged. */
const prof_counters *prof_session_counters(const prof_session *s);
/* Memory accesses the session counted from their base and step alone (exec_observer.
 * mem_affine: repeats of a pattern the vector tier's code told compactly), and those of
 * every session of the process so far (the report's proof that the compact path ran). */
uint64_t prof_session_compact_accesses(const prof_session *s);
uint64_t prof_compact_accesses(void);

/* The bytes of [lo, hi) the grid touched, in whole 32-byte sectors (0 when it was not
 * timed): which pages of managed memory it used, once it has run. */
uint64_t prof_session_touched_bytes(prof_session *s, uint64_t lo, uint64_t hi);

/* After the grid ran: the time estimate from the recorded blocks; also fills the
 * counters' residency (achieved occupancy, SM activity) from the estimate's schedule.
 * warp_instructions: what the executor counted. */
prof_time_estimate prof_session_estimate(prof_session *s, uint64_t warp_instructions);

#endif
