/* runtime/report.c — the per-kernel summary printed on stderr at exit when VCUDA_REPORT=1
 * (`vcuda run` sets it): for each kernel that ran, most host time first, its share of the
 * time, the host time its grids took, its launches, the last grid and block shape, and the
 * warp-instructions executed; then which tier each kernel's launches ran in, and what the
 * compiled tier made of each program.
 */
#include "rt.h"
#include "../exec/native.h"
#include "../jit/jit.h"
#include "../prof/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rt_dim(char *buf, size_t n, exec_dim3 d) {
    if (d.y == 1 && d.z == 1)
        snprintf(buf, n, "%u", d.x);
    else
        snprintf(buf, n, "(%u,%u,%u)", d.x, d.y, d.z);
}

/* Most host time first, as profilers list kernels; ties by name. */
static int rt_by_time(const void *a, const void *b) {
    const rt_func *x = *(rt_func *const *)a, *y = *(rt_func *const *)b;
    if (x->stats.host_seconds != y->stats.host_seconds)
        return x->stats.host_seconds < y->stats.host_seconds ? 1 : -1;
    return strcmp(x->name, y->name);
}

void rt_report_print(rt_context *c) {
    pthread_mutex_lock(&c->lock);
    size_t n = 0;
    for (rt_func *f = c->funcs; f; f = f->next)
        if (f->stats.calls) n++;
    rt_func **order = n ? calloc(n, sizeof *order) : NULL;
    size_t i = 0;
    for (rt_func *f = c->funcs; f && order; f = f->next)
        if (f->stats.calls) order[i++] = f;
    if (order) qsort(order, n, sizeof *order, rt_by_time);
    fprintf(stderr, "vcuda: kernel report (device %s, preset %s)\n",
            rt_cur(c)->preset ? rt_cur(c)->preset->name : "none",
            rt_cur(c)->preset ? rt_cur(c)->preset->key : "none");
    if (!n) {
        fprintf(stderr, "vcuda: no kernel ran\n");
    } else {
        double total_ms = 0;
        for (i = 0; order && i < n; i++) total_ms += order[i]->stats.host_seconds * 1e3;
        fprintf(stderr, "vcuda: %6s %12s %8s %14s %14s %16s  %s\n", "time%", "host ms", "calls",
                "grid", "block", "warp insns", "kernel");
        for (i = 0; order && i < n; i++) {
            rt_func *f = order[i];
            char grid[48], block[48];
            rt_dim(grid, sizeof grid, f->stats.last_grid);
            rt_dim(block, sizeof block, f->stats.last_block);
            char *pretty = ptx_demangle(f->name, PTX_DEMANGLE_GNU);
            double ms = f->stats.host_seconds * 1e3;
            fprintf(stderr, "vcuda: %5.1f%% %12.3f %8llu %14s %14s %16llu  %s%s\n",
                    total_ms > 0 ? 100.0 * ms / total_ms : 0.0, ms,
                    (unsigned long long)f->stats.calls, grid, block,
                    (unsigned long long)f->stats.warp_insns, pretty ? pretty : f->name,
                    f->stats.faults ? "  (faulted)" : "");
            free(pretty);
        }
        fprintf(stderr, "vcuda: total host time in kernels: %.3f ms (grid and block: the "
                        "last launch's)\n",
                total_ms);
        /* the compiled tier: which launches ran interpreted, and why */
        for (i = 0; order && i < n; i++) {
            rt_func *f = order[i];
            const rt_kernel_stats *st = &f->stats;
            char why[512] = "";
            if (st->compiled_calls == st->calls) {
                snprintf(why, sizeof why, "compiled");
            } else {
                const char *job = st->interp_note[0] ? st->interp_note : "not compiled yet";
                snprintf(why, sizeof why, "%llu of %llu launches interpreted (%s)",
                         (unsigned long long)(st->calls - st->compiled_calls),
                         (unsigned long long)st->calls,
                         st->interp_why == RT_INTERP_OFF        ? "VCUDA_JIT=0"
                         : st->interp_why == RT_INTERP_OBSERVED ? "profiled or checked"
                                                                : job);
            }
            char *pretty = ptx_demangle(f->name, PTX_DEMANGLE_GNU);
            fprintf(stderr, "vcuda: tier: %s: %s\n", pretty ? pretty : f->name, why);
            free(pretty);
        }
    }
    /* the compiled tier per program: its units (one per function) built, found in the
     * cache or failed, and the vector tier's share (as the job left it, for a program a
     * device reset unloaded) */
    for (rt_module *m = c->modules; m; m = m->next) {
        char desc[768];
        if (m->jit) {
            jit_job_await_lookups(m->jit); /* (no compile: at most the identity query) */
            jit_job_describe(m->jit, desc, sizeof desc);
        } else snprintf(desc, sizeof desc, "%s", m->jit_note); /* (unloaded by a reset) */
        if (desc[0]) fprintf(stderr, "vcuda: compiled code: %s: %s\n", m->name, desc);
    }
    /* profiled blocks that the vector tier's instrumented code ran (exec/native.h) */
    uint64_t whole, handed;
    exec_native_observed_blocks(&whole, &handed);
    if (whole || handed)
        fprintf(stderr, "vcuda: profiled blocks in the vector tier: %llu run to their end, %llu "
                        "handed to the per-warp code; %llu accesses counted from base and "
                        "step\n",
                (unsigned long long)whole, (unsigned long long)handed,
                (unsigned long long)prof_compact_accesses());
    free(order);
    pthread_mutex_unlock(&c->lock);
}
