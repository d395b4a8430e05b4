/* prof/report.c — nvprof-style tables and CSV, and Nsight Compute-style sections.
 *
 * nvprof's metric table is fixed-width: invocations in 11 columns, then name and
 * description right-aligned in 42 (here: a space and 41, so a long name still leaves a
 * gap), then min, max and average in 12 each. Percentages print with two decimals
 * ("99.21%"), counts as integers, other ratios with six decimals or, from 1000 up, as
 * "1.3458e+03"; throughputs scale to the largest of B/s, KB/s, MB/s, GB/s, TB/s (powers
 * of 1000) that leaves at least 1. In --csv output every value keeps six decimals.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

/* ---- selection ---- */

static bool add_selected(prof_selection *s, const prof_metric *m, bool as_ncu, char *err,
                         size_t errlen)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->metric[i] == m && s->as_ncu[i] == as_ncu)
            return true;  /* asked twice: shown once */
    if (s->count == PROF_SELECTION_MAX) {
        snprintf(err, errlen, "too many metrics (at most %d)", PROF_SELECTION_MAX);
        return false;
    }
    s->metric[s->count] = m;
    s->as_ncu[s->count++] = as_ncu;
    return true;
}

bool prof_selection_parse(prof_selection *s, const char *list, char *err, size_t errlen)
{
    s->count = 0;
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        char name[256];
        if (len >= sizeof name) {
            snprintf(err, errlen, "metric name too long: %.40s...", p);
            return false;
        }
        memcpy(name, p, len);
        name[len] = 0;
        p += len + (p[len] == ',');
        if (!name[0])
            continue;
        if (strcmp(name, "all") == 0) {
            for (size_t i = 0; i < prof_metric_count; i++) {
                const prof_metric *m = &prof_metrics[i];
                if (m->nvprof && !(m->flags & (PROF_MF_EVENT | PROF_MF_VCUDA)) &&
                    !add_selected(s, m, false, err, errlen))
                    return false;
            }
            continue;
        }
        bool as_ncu;
        const prof_metric *m = prof_metric_find(name, &as_ncu);
        if (!m) {
            snprintf(err, errlen, "unknown metric or event name \"%s\"", name);
            return false;
        }
        if (!add_selected(s, m, as_ncu, err, errlen))
            return false;
    }
    return true;
}

bool prof_selection_check(const prof_selection *s, const gpu_preset *p, char *err,
                          size_t errlen)
{
    for (size_t i = 0; i < s->count; i++) {
        if (!prof_metric_available(s->metric[i], p, s->as_ncu[i])) {
            snprintf(err, errlen, "metric %s is not available on %s (compute capability %d.%d)",
                     s->as_ncu[i] ? s->metric[i]->ncu : s->metric[i]->nvprof,
                     p ? p->name : "this device", p ? p->major : 0, p ? p->minor : 0);
            return false;
        }
    }
    return true;
}

static const char *selected_name(const prof_selection *s, size_t i)
{
    return s->as_ncu[i] ? s->metric[i]->ncu : s->metric[i]->nvprof;
}

/* ---- values ---- */

void prof_format_nvprof(char *buf, size_t n, prof_unit unit, double v, bool csv)
{
    if (isnan(v)) {
        snprintf(buf, n, "n/a");
        return;
    }
    switch (unit) {
    case PROF_UNIT_COUNT:
        snprintf(buf, n, "%.0f", floor(v));
        return;
    case PROF_UNIT_PERCENT:
        snprintf(buf, n, csv ? "%f%%" : "%.2f%%", v);
        return;
    case PROF_UNIT_RATIO:
        snprintf(buf, n, !csv && fabs(v) >= 1000.0 ? "%.4e" : "%f", v);
        return;
    case PROF_UNIT_BYTES_PER_S: {
        static const char *const units[] = {"B/s", "KB/s", "MB/s", "GB/s", "TB/s"};
        size_t u = 0;
        while (u + 1 < sizeof units / sizeof units[0] && fabs(v) >= 1000.0) {
            v /= 1000.0;
            u++;
        }
        snprintf(buf, n, csv ? "%f%s" : "%.2f%s", v, units[u]);
        return;
    }
    }
    snprintf(buf, n, "%f", v);
}

void prof_format_ncu(char *buf, size_t n, double v)
{
    if (isnan(v)) {
        snprintf(buf, n, "n/a");
        return;
    }
    if (v != floor(v) || fabs(v) >= 1e18) {
        snprintf(buf, n, "%.2f", v);
        return;
    }
    char digits[32];
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    size_t len = strlen(digits), o = 0;
    char out[48];
    if (v < 0)
        out[o++] = '-';
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = 0;
    snprintf(buf, n, "%s", out);
}

/* ---- the nvprof report ---- */

typedef struct prof_stat {
    double min, max, sum;
    uint64_t n;  /* invocations that gave a value */
} prof_stat;

typedef struct prof_entry {
    char *device, *kernel;
    uint64_t invocations;
    prof_stat *stat;  /* one per selected metric */
} prof_entry;

struct prof_report {
    prof_selection sel;
    prof_entry *entries;
    size_t count, cap;
};

prof_report *prof_report_new(const prof_selection *s)
{
    prof_report *r = calloc(1, sizeof *r);
    if (r)
        r->sel = *s;
    return r;
}

void prof_report_free(prof_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->count; i++) {
        free(r->entries[i].device);
        free(r->entries[i].kernel);
        free(r->entries[i].stat);
    }
    free(r->entries);
    free(r);
}

static prof_entry *find_entry(prof_report *r, const char *device, const char *kernel)
{
    for (size_t i = 0; i < r->count; i++)
        if (!strcmp(r->entries[i].device, device) && !strcmp(r->entries[i].kernel, kernel))
            return &r->entries[i];
    if (r->count == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 8;
        prof_entry *e = realloc(r->entries, cap * sizeof *e);
        if (!e)
            return NULL;
        r->entries = e;
        r->cap = cap;
    }
    prof_entry *e = &r->entries[r->count];
    memset(e, 0, sizeof *e);
    e->device = strdup(device);
    e->kernel = strdup(kernel);
    e->stat = calloc(r->sel.count ? r->sel.count : 1, sizeof *e->stat);
    if (!e->device || !e->kernel || !e->stat) {
        free(e->device);
        free(e->kernel);
        free(e->stat);
        return NULL;
    }
    r->count++;
    return e;
}

bool prof_report_add(prof_report *r, const char *device, const char *kernel,
                     const prof_counters *c, const prof_launch *L)
{
    prof_entry *e = find_entry(r, device, kernel);
    if (!e)
        return false;
    e->invocations++;
    for (size_t i = 0; i < r->sel.count; i++) {
        double v = prof_metric_value(r->sel.metric[i], r->sel.as_ncu[i], c, L);
        if (isnan(v))
            continue;
        prof_stat *st = &e->stat[i];
        if (st->n == 0 || v < st->min)
            st->min = v;
        if (st->n == 0 || v > st->max)
            st->max = v;
        st->sum += v;
        st->n++;
    }
    return true;
}

/* Average as nvprof shows it: counts stay integers. */
static double stat_avg(const prof_stat *st, prof_unit unit)
{
    if (st->n == 0)
        return NAN;
    double avg = st->sum / (double)st->n;
    return unit == PROF_UNIT_COUNT ? floor(avg) : avg;
}

static bool is_event(const prof_selection *s, size_t i)
{
    return !s->as_ncu[i] && (s->metric[i]->flags & PROF_MF_EVENT);
}

static void print_table(const prof_report *r, FILE *out, const char *prefix, bool csv,
                        bool events)
{
    const prof_selection *s = &r->sel;
    bool any = false;
    for (size_t i = 0; i < s->count; i++)
        any |= is_event(s, i) == events;
    if (!any || r->count == 0)
        return;

    fprintf(out, "%s%s result:\n", prefix, events ? "Event" : "Metric");
    if (csv)
        fprintf(out, events ? "\"Device\",\"Kernel\",\"Invocations\",\"Event Name\",\"Min\",\"Max\",\"Avg\"\n"
                            : "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n");
    else if (events)
        fprintf(out, "Invocations %41s %11s %11s %11s\n", "Event Name", "Min", "Max", "Avg");
    else
        fprintf(out, "Invocations %41s %41s %11s %11s %11s\n", "Metric Name",
                "Metric Description", "Min", "Max", "Avg");

    const char *device = NULL;
    for (size_t k = 0; k < r->count; k++) {
        const prof_entry *e = &r->entries[k];
        if (!csv) {
            if (!device || strcmp(device, e->device) != 0)
                fprintf(out, "Device \"%s\"\n", e->device);
            fprintf(out, "    Kernel: %s\n", e->kernel);
        }
        device = e->device;
        for (size_t i = 0; i < s->count; i++) {
            if (is_event(s, i) != events)
                continue;
            const prof_metric *m = s->metric[i];
            prof_unit unit = s->as_ncu[i] && m->unit == PROF_UNIT_RATIO && m->ncu_scale == 100
                                 ? PROF_UNIT_PERCENT : m->unit;
            const prof_stat *st = &e->stat[i];
            char mn[48], mx[48], av[48];
            prof_format_nvprof(mn, sizeof mn, unit, st->n ? st->min : NAN, csv);
            prof_format_nvprof(mx, sizeof mx, unit, st->n ? st->max : NAN, csv);
            prof_format_nvprof(av, sizeof av, unit, stat_avg(st, unit), csv);
            const char *name = selected_name(s, i);
            if (csv && events)
                fprintf(out, "\"%s\",\"%s\",%llu,\"%s\",%s,%s,%s\n", e->device, e->kernel,
                        (unsigned long long)e->invocations, name, mn, mx, av);
            else if (csv)
                fprintf(out, "\"%s\",\"%s\",%llu,\"%s\",\"%s\",%s,%s,%s\n", e->device, e->kernel,
                        (unsigned long long)e->invocations, name, m->description, mn, mx, av);
            else if (events)
                fprintf(out, "%11llu %41s %11s %11s %11s\n", (unsigned long long)e->invocations,
                        name, mn, mx, av);
            else
                fprintf(out, "%11llu %41s %41s %11s %11s %11s\n",
                        (unsigned long long)e->invocations, name, m->description, mn, mx, av);
        }
    }
}

void prof_report_print(const prof_report *r, FILE *out, const char *prefix, bool csv)
{
    print_table(r, out, prefix, csv, true);
    print_table(r, out, prefix, csv, false);
}

/* ---- Nsight Compute ---- */

void prof_print_ncu_launch(FILE *out, const char *kernel, const prof_launch *L, int context,
                           int stream, int device, const prof_selection *s,
                           const prof_counters *c)
{
    int name_w = (int)strlen("Metric Name"), unit_w = (int)strlen("Metric Unit"),
        value_w = (int)strlen("Metric Value");
    char values[PROF_SELECTION_MAX][48];
    for (size_t i = 0; i < s->count; i++) {
        const prof_metric *m = s->metric[i];
        const char *name = s->as_ncu[i] ? m->ncu : m->nvprof;
        const char *unit = s->as_ncu[i] ? m->ncu_unit : "";
        prof_format_ncu(values[i], sizeof values[i], prof_metric_value(m, s->as_ncu[i], c, L));
        if ((int)strlen(name) > name_w) name_w = (int)strlen(name);
        if ((int)strlen(unit) > unit_w) unit_w = (int)strlen(unit);
        if ((int)strlen(values[i]) > value_w) value_w = (int)strlen(values[i]);
    }
    /* "    ----- ----- -----": dashes under each column */
    char rule[3 * 256 + 8];
    int w[3] = {name_w, unit_w, value_w}, o = 0;
    o += snprintf(rule + o, sizeof rule - (size_t)o, "    ");
    for (int k = 0; k < 3; k++) {
        int n = w[k] < 255 ? w[k] : 255;
        memset(rule + o, '-', (size_t)n);
        o += n;
        rule[o++] = k < 2 ? ' ' : '\n';
    }
    rule[o] = 0;
    fprintf(out, "  %s (%u, %u, %u)x(%u, %u, %u), Context %d, Stream %d, Device %d, CC %d.%d\n",
            kernel, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2],
            context, stream, device, L->preset ? L->preset->major : 0,
            L->preset ? L->preset->minor : 0);
    fprintf(out, "    Section: Command line profiler metrics\n");
    fputs(rule, out);
    fprintf(out, "    %-*s %*s %*s\n", name_w, "Metric Name", unit_w, "Metric Unit", value_w,
            "Metric Value");
    fputs(rule, out);
    for (size_t i = 0; i < s->count; i++) {
        const prof_metric *m = s->metric[i];
        fprintf(out, "    %-*s %*s %*s\n", name_w, s->as_ncu[i] ? m->ncu : m->nvprof, unit_w,
                s->as_ncu[i] ? m->ncu_unit : "", value_w, values[i]);
    }
    fputs(rule, out);
    fputc('\n', out);
}
