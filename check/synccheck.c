/* check/synccheck.c — barriers and warp-synchronous operations used wrongly.
 *
 *   - A block barrier (__syncthreads, bar.sync) reached by only some of a warp's threads
 *     that have not exited: the barrier sits in code whose condition differs between
 *     threads. compute-sanitizer calls it "Divergent thread(s) in warp" where the
 *     hardware needs whole warps at a barrier (before Volta) and "Divergent thread(s) in
 *     block" since; it is reported for every thread of the warp that has not exited.
 *   - Warps of a block that passed different numbers of block barriers: a warp left a loop
 *     of __syncthreads() rounds early (or ran one more), so on sm_70 and later the other
 *     warps' last barriers completed without it (it had exited) and what they read after
 *     them was never written for them. Checked when the block ends; reported once, at the
 *     barrier of the warp that passed most, naming both counts. A warp that exits before
 *     its first barrier (`if (i >= n) return;`) is the usual guard, and is not reported.
 *     (compute-sanitizer reports nothing here: tests/check/h200/.)
 *   - __syncwarp(mask) and the *_sync intrinsics (shfl, vote, match, redux) executed by a
 *     thread that its mask does not name: "Invalid arguments", per such thread. (Like
 *     compute-sanitizer, named threads that never arrive are not looked for: on Volta and
 *     later they may legitimately meet at another __syncwarp.)
 */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void report(check_worker *w, const exec_site *s, uint32_t lane, const char *what,
                   const char *detail) {
    check_buf b = {0};
    check_report_head(&b, w->cl, s, lane, "Barrier error detected. %s", what);
    if (detail && *detail) check_line(&b, "    %s", detail);
    check_report_launch_site(&b, w->cl);
    check_line(&b, "%s", "");
    check_worker_report(w, b.p);
}

void check_synccheck_barrier(check_worker *w, const exec_site *s, uint32_t arrived,
                             uint32_t expected) {
    if (!(expected & ~arrived)) return;
    char detail[200];
    snprintf(detail, sizeof detail, "%d of the warp's %d threads that have not exited reached "
             "this barrier (lanes 0x%08" PRIx32 " of 0x%08" PRIx32 ")",
             __builtin_popcount(arrived & expected), __builtin_popcount(expected),
             arrived & expected, expected);
    const char *what = w->cl->its ? "Divergent thread(s) in block" : "Divergent thread(s) in warp";
    for (uint32_t m = expected; m; m &= m - 1)
        report(w, s, (uint32_t)__builtin_ctz(m), what, detail);
}

void check_synccheck_warp_sync(check_worker *w, const exec_site *s, uint32_t membermask,
                               uint32_t active) {
    uint32_t outside = active & ~membermask;
    if (!outside) return;
    char detail[200], text[120] = "";
    if (s->insn && w->cl->module) {
        /* name the operation: __syncwarp is bar.warp.sync */
        const ptx_insn *in = s->insn;
        snprintf(text, sizeof text, "%s", ptx_opcode_names[in->op]);
    }
    snprintf(detail, sizeof detail, "the mask 0x%08" PRIx32 " given to %s does not include the "
             "calling thread (lanes 0x%08" PRIx32 " are executing it)", membermask,
             text[0] ? (!strcmp(text, "bar") || !strcmp(text, "barrier") ? "__syncwarp" : text)
                     : "the warp operation", active);
    for (uint32_t m = outside; m; m &= m - 1)
        report(w, s, (uint32_t)__builtin_ctz(m), "Invalid arguments", detail);
}

void check_synccheck_block_end(check_worker *w, const exec_site *s) {
    /* the warp that passed most barriers, and of those that passed any, the fewest */
    uint32_t most = 0, fewest = UINT32_MAX;
    for (uint32_t i = 0; i < w->nwarps; i++) {
        if (w->epoch[i] > w->epoch[most]) most = i;
        if (w->epoch[i] && (fewest == UINT32_MAX || w->epoch[i] < w->epoch[fewest])) fewest = i;
    }
    if (fewest == UINT32_MAX || w->epoch[fewest] >= w->epoch[most] || !w->last_bar[most]) return;
    exec_site at = *s;
    at.warp = most;
    at.insn = w->last_bar[most];
    char detail[240];
    snprintf(detail, sizeof detail,
             "warp %u passed %u block barriers, warp %u only %u before its threads exited: "
             "the last %u completed without it", most, w->epoch[most], fewest, w->epoch[fewest],
             w->epoch[most] - w->epoch[fewest]);
    report(w, &at, 0, "Barrier count differs between warps", detail);
}
