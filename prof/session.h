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

/* A session for a launch described by L (preset, grid, block, resources) of a kernel of
 * module m (m lets instructions be looked up in their function; may be NULL). timing:
 * also replay blocks for the timing model. NULL when out of memory. */
prof_session *prof_session_new(const prof_launch *L, const ptx_module *m, bool timing);
void prof_session_free(prof_session *s);

const exec_observer *prof_session_observer(prof_session *s);

/* After the grid ran: the counters of every worker, merged. */
const prof_counters *prof_session_counters(const prof_session *s);

/* After the grid ran: the time estimate from the recorded blocks; also fills the
 * counters' residency (achieved occupancy, SM activity) from the estimate's schedule.
 * warp_instructions: what the executor counted. */
prof_time_estimate prof_session_estimate(prof_session *s, uint64_t warp_instructions);

#endif
