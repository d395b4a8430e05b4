/* prof/report.h — showing metrics as the profilers do: nvprof's metric and event tables
 * (per kernel: invocations, min, max, average), their --csv form, and Nsight Compute's
 * per-launch "Command line profiler metrics" section.
 */
#ifndef VCUDA_PROF_REPORT_H
#define VCUDA_PROF_REPORT_H

#include <stdio.h>
#include "metrics.h"

#define PROF_SELECTION_MAX 128

/* The metrics asked for, in the order asked, each under the name it was asked by. */
typedef struct prof_selection {
    size_t count;
    const prof_metric *metric[PROF_SELECTION_MAX];
    bool as_ncu[PROF_SELECTION_MAX];
} prof_selection;

/* Parse a comma-separated list of nvprof or Nsight Compute names. "all" selects every
 * nvprof metric (not the events), as nvprof --metrics all does. Returns false and puts a
 * message naming the first unknown name in err. */
bool prof_selection_parse(prof_selection *s, const char *list, char *err, size_t errlen);
/* False, with a message, when a selected name does not exist for the preset (an Nsight
 * Compute name on a device older than sm_70). */
bool prof_selection_check(const prof_selection *s, const gpu_preset *p, char *err,
                          size_t errlen);

/* One value as nvprof prints it: in its table (csv false) or in --csv output.
 * "n/a" where v is NAN. */
void prof_format_nvprof(char *buf, size_t n, prof_unit unit, double v, bool csv);
/* One value as Nsight Compute prints it: integers with thousands separators, other
 * values with two decimals. */
void prof_format_ncu(char *buf, size_t n, double v);

typedef struct prof_report prof_report;

prof_report *prof_report_new(const prof_selection *s);
void prof_report_free(prof_report *r);
/* Record one launch. device is what nvprof names it ("NVIDIA H100 80GB HBM3 (0)"),
 * kernel its demangled signature. Returns false when out of memory. */
bool prof_report_add(prof_report *r, const char *device, const char *kernel,
                     const prof_counters *c, const prof_launch *L);
/* nvprof's "Event result" and "Metric result" tables (or their CSV), each line of the
 * tables' titles starting with prefix ("==1234== "). */
void prof_report_print(const prof_report *r, FILE *out, const char *prefix, bool csv);

/* Nsight Compute's section for one launch of kernel. */
void prof_print_ncu_launch(FILE *out, const char *kernel, const prof_launch *L, int context,
                           int stream, int device, const prof_selection *s,
                           const prof_counters *c);

#endif
