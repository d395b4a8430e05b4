/* prof/timeline.h — what the virtual device and the host did over time, for
 * `vcuda prof --timeline`: operations on streams (kernels, copies, sets, host functions,
 * event records and waits, module loads) and the host threads' CUDA API calls, all on the
 * virtual device clock (milliseconds) that cudaEventElapsedTime reads.
 *
 * The runtime fills a prof_timeline as the program runs (runtime/trace.c); at exit it is
 * written as Chrome trace-event JSON (prof/timeline.c: Perfetto and chrome://tracing open
 * it) or as one self-contained HTML page that draws it (prof/timeline_html.c).
 */
#ifndef VCUDA_PROF_TIMELINE_H
#define VCUDA_PROF_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../gpu/gpu.h"

typedef enum prof_tl_kind {
    PROF_TL_KERNEL, PROF_TL_COPY, PROF_TL_SET, PROF_TL_HOST_FN, PROF_TL_EVENT, PROF_TL_WAIT,
    PROF_TL_LOAD, PROF_TL_API
} prof_tl_kind;

enum { PROF_TL_MAX_METRICS = 16 };

typedef struct prof_tl_event {
    prof_tl_kind kind;
    int track;                    /* prof_timeline.tracks index */
    double start_ms, end_ms;      /* virtual device clock */
    uint64_t id;                  /* the operation's issue number (flows from the API call
                                   * that issued it); 0: none */
    char *name;                   /* malloc'd: kernel (demangled), API function, or what
                                   * the operation is ("[CUDA memcpy HtoD]") */
    uint64_t bytes;               /* copies and sets */
    const char *copy_kind;        /* "HtoD", "DtoH", "DtoD", "HtoH" */
    bool dropped;                 /* not run: the device had faulted */
    /* kernels */
    uint32_t grid[3], block[3];
    uint32_t regs, static_shared, dynamic_shared;
    double occupancy;             /* theoretical, 0..1 */
    unsigned nmetrics;            /* values of prof_timeline.metric_names (NaN: none) */
    double metrics[PROF_TL_MAX_METRICS];
    /* API calls: the operations they issued (ids), for flow arrows */
    uint64_t *issued;
    unsigned nissued, issued_cap;
} prof_tl_event;

typedef struct prof_tl_track {
    uint64_t key;                 /* the recorder's key (stream or host thread) */
    bool host;                    /* a host thread's API calls, else a device stream */
    int sort;                     /* order on screen */
    char name[96];
} prof_tl_track;

typedef struct prof_timeline {
    const gpu_preset *preset;
    prof_tl_event *ev;
    size_t n, cap;
    prof_tl_track *tracks;
    size_t ntracks, tracks_cap;
    unsigned nmetrics;            /* the kernels' metric arguments: names as reports print */
    const char *metric_names[PROF_TL_MAX_METRICS];
} prof_timeline;

prof_timeline *prof_timeline_new(const gpu_preset *p);
void prof_timeline_free(prof_timeline *t);
/* The track with this key, made with name and sort when new; -1 when out of memory. */
int prof_timeline_track(prof_timeline *t, uint64_t key, bool host, int sort, const char *name);
/* A new event (zeroed but for kind and track), or NULL when out of memory. The pointer
 * holds until the next call. */
prof_tl_event *prof_timeline_add(prof_timeline *t, prof_tl_kind kind, int track);
/* Note that API call e issued operation id; false when out of memory. */
bool prof_timeline_issued(prof_tl_event *e, uint64_t id);

/* The Chrome trace-event document ({"traceEvents": [...], ...}). */
bool prof_timeline_write_json(const prof_timeline *t, FILE *f);
/* One HTML page (no network access) drawing the timeline, zoomable, with a table of the
 * kernels' metrics and each kernel's occupancy curves (prof/timeline_html.c). */
bool prof_timeline_write_html(const prof_timeline *t, FILE *f);

/* For the writers: the trace events alone, as a JSON array. */
void prof_timeline_json_events(const prof_timeline *t, FILE *f);
/* A JSON string literal. */
void prof_json_string(FILE *f, const char *s);

#endif
