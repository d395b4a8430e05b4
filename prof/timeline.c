/* prof/timeline.c — the run's timeline (prof/timeline.h): its storage, and its writing in
 * the Chrome trace-event format (the JSON object form: {"traceEvents": [...]}).
 *
 * Device streams are threads of process 1 ("vcuda device"), host threads' API calls
 * threads of process 2 ("host"); operations are complete events ("X", times in
 * microseconds of the virtual device clock), event records and waits instant events,
 * and each operation is joined to the API call that issued it by a flow ("s" to "f").
 */
#include "timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

prof_timeline *prof_timeline_new(const gpu_preset *p) {
    prof_timeline *t = calloc(1, sizeof *t);
    if (t) t->preset = p;
    return t;
}

void prof_timeline_free(prof_timeline *t) {
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->ev[i].name);
        free(t->ev[i].issued);
    }
    free(t->ev);
    free(t->tracks);
    free(t);
}

int prof_timeline_track(prof_timeline *t, uint64_t key, bool host, int sort, const char *name) {
    for (size_t i = 0; i < t->ntracks; i++)
        if (t->tracks[i].key == key && t->tracks[i].host == host) return (int)i;
    if (t->ntracks == t->tracks_cap) {
        size_t cap = t->tracks_cap ? 2 * t->tracks_cap : 16;
        prof_tl_track *n = realloc(t->tracks, cap * sizeof *n);
        if (!n) return -1;
        t->tracks = n;
        t->tracks_cap = cap;
    }
    prof_tl_track *k = &t->tracks[t->ntracks];
    memset(k, 0, sizeof *k);
    k->key = key;
    k->host = host;
    k->sort = sort;
    snprintf(k->name, sizeof k->name, "%s", name);
    return (int)t->ntracks++;
}

prof_tl_event *prof_timeline_add(prof_timeline *t, prof_tl_kind kind, int track) {
    if (track < 0) return NULL;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        prof_tl_event *n = realloc(t->ev, cap * sizeof *n);
        if (!n) return NULL;
        t->ev = n;
        t->cap = cap;
    }
    prof_tl_event *e = &t->ev[t->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->track = track;
    return e;
}

bool prof_timeline_issued(prof_tl_event *e, uint64_t id) {
    if (e->nissued == e->issued_cap) {
        unsigned cap = e->issued_cap ? 2 * e->issued_cap : 4;
        uint64_t *n = realloc(e->issued, cap * sizeof *n);
        if (!n) return false;
        e->issued = n;
        e->issued_cap = cap;
    }
    e->issued[e->nissued++] = id;
    return true;
}

/* ---- JSON ---- */

void prof_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else if (*p == '<') fputs("\\u003c", f); /* safe inside an HTML <script> too */
        else fputc(*p, f);
    }
    fputc('"', f);
}

static const char *category(prof_tl_kind k) {
    static const char *const names[] = {"kernel", "memcpy", "memset", "host function",
                                        "event", "wait", "load", "api"};
    return names[k];
}

static int tid_of(const prof_timeline *t, int track) {
    (void)t;
    return track + 1;
}

static int pid_of(const prof_timeline *t, int track) { return t->tracks[track].host ? 2 : 1; }

/* ts and dur in microseconds */
static void event_head(FILE *f, const prof_timeline *t, const prof_tl_event *e, const char *ph) {
    fprintf(f, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,", ph, pid_of(t, e->track),
            tid_of(t, e->track), e->start_ms * 1e3);
    if (ph[0] == 'X') fprintf(f, "\"dur\":%.3f,", (e->end_ms - e->start_ms) * 1e3);
    if (ph[0] == 'i') fputs("\"s\":\"t\",", f);
    fputs("\"name\":", f);
    prof_json_string(f, e->name);
    fprintf(f, ",\"cat\":\"%s\"", category(e->kind));
}

static void kernel_args(FILE *f, const prof_timeline *t, const prof_tl_event *e) {
    fprintf(f, ",\"args\":{\"grid\":\"(%u, %u, %u)\",\"block\":\"(%u, %u, %u)\","
               "\"registers per thread\":%u,\"static shared memory (bytes)\":%u,"
               "\"dynamic shared memory (bytes)\":%u,\"theoretical occupancy\":%.4f,"
               "\"estimated duration (us)\":%.3f,\"id\":%llu",
            e->grid[0], e->grid[1], e->grid[2], e->block[0], e->block[1], e->block[2], e->regs,
            e->static_shared, e->dynamic_shared, e->occupancy, (e->end_ms - e->start_ms) * 1e3,
            (unsigned long long)e->id);
    for (unsigned m = 0; m < e->nmetrics && m < t->nmetrics; m++) {
        if (isnan(e->metrics[m]) || isinf(e->metrics[m])) continue;
        fputc(',', f);
        prof_json_string(f, t->metric_names[m]);
        fprintf(f, ":%.6g", e->metrics[m]);
    }
    if (e->dropped) fputs(",\"dropped\":true", f);
    fputc('}', f);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void prof_timeline_json_events(const prof_timeline *t, FILE *f) {
    fputc('[', f);
    bool first = true;
#define SEP() (first ? (void)(first = false) : (void)fputs(",\n", f))
    /* process and thread names, in screen order */
    for (int pid = 1; pid <= 2; pid++) {
        SEP();
        char dev[160];
        snprintf(dev, sizeof dev, "vcuda device: %s", t->preset ? t->preset->name : "none");
        fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\",\"args\":{\"name\":", pid);
        prof_json_string(f, pid == 1 ? dev : "host");
        fprintf(f, "}},\n{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_sort_index\","
                   "\"args\":{\"sort_index\":%d}}", pid, pid);
    }
    for (size_t i = 0; i < t->ntracks; i++) {
        SEP();
        fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":",
                pid_of(t, (int)i), tid_of(t, (int)i));
        prof_json_string(f, t->tracks[i].name);
        fprintf(f, "}},\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\","
                   "\"args\":{\"sort_index\":%d}}",
                pid_of(t, (int)i), tid_of(t, (int)i), t->tracks[i].sort);
    }
    /* the device operations' ids, for flows that end somewhere */
    uint64_t *ids = malloc((t->n ? t->n : 1) * sizeof *ids);
    size_t nids = 0;
    for (size_t i = 0; ids && i < t->n; i++)
        if (t->ev[i].kind != PROF_TL_API && t->ev[i].kind != PROF_TL_EVENT &&
            t->ev[i].kind != PROF_TL_WAIT && t->ev[i].id)
            ids[nids++] = t->ev[i].id;
    if (ids) qsort(ids, nids, sizeof *ids, cmp_u64);
    /* and the ids the API calls issued, for flows that start somewhere */
    size_t napi = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->ev[i].kind == PROF_TL_API) napi += t->ev[i].nissued;
    uint64_t *api_ids = malloc((napi ? napi : 1) * sizeof *api_ids);
    napi = 0;
    for (size_t i = 0; api_ids && i < t->n; i++)
        for (unsigned k = 0; t->ev[i].kind == PROF_TL_API && k < t->ev[i].nissued; k++)
            api_ids[napi++] = t->ev[i].issued[k];
    if (api_ids) qsort(api_ids, napi, sizeof *api_ids, cmp_u64);

    for (size_t i = 0; i < t->n; i++) {
        const prof_tl_event *e = &t->ev[i];
        SEP();
        switch (e->kind) {
        case PROF_TL_KERNEL:
            event_head(f, t, e, "X");
            kernel_args(f, t, e);
            break;
        case PROF_TL_COPY:
            event_head(f, t, e, "X");
            fprintf(f, ",\"args\":{\"kind\":\"%s\",\"bytes\":%llu,\"id\":%llu%s}", e->copy_kind,
                    (unsigned long long)e->bytes, (unsigned long long)e->id,
                    e->dropped ? ",\"dropped\":true" : "");
            break;
        case PROF_TL_SET:
            event_head(f, t, e, "X");
            fprintf(f, ",\"args\":{\"bytes\":%llu,\"id\":%llu%s}", (unsigned long long)e->bytes,
                    (unsigned long long)e->id, e->dropped ? ",\"dropped\":true" : "");
            break;
        case PROF_TL_API:
            event_head(f, t, e, "X");
            fprintf(f, ",\"args\":{\"operations issued\":%u}", e->nissued);
            break;
        case PROF_TL_HOST_FN:
        case PROF_TL_LOAD:
            event_head(f, t, e, "X");
            fprintf(f, ",\"args\":{\"id\":%llu%s}", (unsigned long long)e->id,
                    e->dropped ? ",\"dropped\":true" : "");
            break;
        case PROF_TL_EVENT:
        case PROF_TL_WAIT:
            event_head(f, t, e, "i");
            fprintf(f, ",\"args\":{\"id\":%llu}", (unsigned long long)e->id);
            break;
        }
        fputc('}', f);
        /* flows: from the API call to what it issued, and into the operation */
        if (e->kind == PROF_TL_API) {
            for (unsigned k = 0; ids && k < e->nissued; k++) {
                if (!bsearch(&e->issued[k], ids, nids, sizeof *ids, cmp_u64)) continue;
                fprintf(f, ",\n{\"ph\":\"s\",\"id\":%llu,\"pid\":%d,\"tid\":%d,\"ts\":%.3f,"
                           "\"name\":\"issue\",\"cat\":\"flow\"}",
                        (unsigned long long)e->issued[k], pid_of(t, e->track),
                        tid_of(t, e->track), e->start_ms * 1e3);
            }
        } else if (e->id && e->kind != PROF_TL_EVENT && e->kind != PROF_TL_WAIT && api_ids &&
                   bsearch(&e->id, api_ids, napi, sizeof *api_ids, cmp_u64)) {
            fprintf(f, ",\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":%llu,\"pid\":%d,\"tid\":%d,"
                       "\"ts\":%.3f,\"name\":\"issue\",\"cat\":\"flow\"}",
                    (unsigned long long)e->id, pid_of(t, e->track), tid_of(t, e->track),
                    e->start_ms * 1e3);
        }
    }
#undef SEP
    free(ids);
    free(api_ids);
    fputc(']', f);
}

bool prof_timeline_write_json(const prof_timeline *t, FILE *f) {
    fputs("{\"traceEvents\":", f);
    prof_timeline_json_events(t, f);
    fputs(",\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"clock\":"
          "\"the virtual device clock that cudaEventElapsedTime reads (estimated times)\","
          "\"device\":", f);
    prof_json_string(f, t->preset ? t->preset->name : "none");
    fputs("}}\n", f);
    return !ferror(f);
}
