/* tests/unit/test_prof_timeline.c — the timeline's writers (prof/timeline.c,
 * prof/timeline_html.c): names escaped for JSON and for a page's <script>, flows only
 * between an API call and an operation both present, instant events for event records,
 * and the occupancy curves the page draws passing through the kernel's own point. */
#include <stdlib.h>
#include <string.h>

#include "prof/timeline.h"
#include "prof_test.h"

static char *render(const prof_timeline *t, bool html) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    bool ok = html ? prof_timeline_write_html(t, f) : prof_timeline_write_json(t, f);
    fclose(f);
    EXPECT_EQ(ok, 1);
    return buf;
}

static size_t count(const char *text, const char *what) {
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

int main(void) {
    const gpu_preset *p = gpu_preset_find("h100");
    prof_timeline *t = prof_timeline_new(p);
    int host = prof_timeline_track(t, 1, true, 1, "Host thread 1: CUDA API");
    int s13 = prof_timeline_track(t, 1, false, 13, "Stream 13");
    EXPECT_EQ(prof_timeline_track(t, 1, false, 13, "again"), s13); /* found, not made */
    EXPECT_EQ(t->ntracks, 2);

    prof_tl_event *api = prof_timeline_add(t, PROF_TL_API, host);
    api->name = strdup("cudaLaunchKernel");
    prof_timeline_issued(api, 5);
    prof_timeline_issued(api, 6); /* never ran: no flow may start for it */

    prof_tl_event *k = prof_timeline_add(t, PROF_TL_KERNEL, s13);
    k->name = strdup("add<\"x\">(int*)");
    k->id = 5;
    k->start_ms = 0.010;
    k->end_ms = 0.012;
    k->grid[0] = k->grid[1] = k->grid[2] = 1;
    k->block[0] = 256, k->block[1] = k->block[2] = 1;
    k->regs = 32;
    k->occupancy = 1.0;

    prof_tl_event *c = prof_timeline_add(t, PROF_TL_COPY, s13);
    c->name = strdup("[CUDA memcpy HtoD]");
    c->copy_kind = "HtoD";
    c->bytes = 4096;
    c->id = 7; /* issued by no API call on record: no flow ends in it */
    c->end_ms = 0.004;

    prof_tl_event *ev = prof_timeline_add(t, PROF_TL_EVENT, s13);
    ev->name = strdup("[event record]");
    ev->start_ms = ev->end_ms = 0.012;

    char *json = render(t, false);
    EXPECT_EQ(json != NULL, 1);
    if (json) {
        EXPECT_EQ(strncmp(json, "{\"traceEvents\":[", 16), 0);
        EXPECT_EQ(count(json, "\"name\":\"add\\u003c\\\"x\\\">(int*)\""), 1);
        EXPECT_EQ(count(json, "\"ph\":\"s\",\"id\":5,"), 1);
        EXPECT_EQ(count(json, "\"ph\":\"f\",\"bp\":\"e\",\"id\":5,"), 1);
        EXPECT_EQ(count(json, "\"ph\":\"s\""), 1);
        EXPECT_EQ(count(json, "\"ph\":\"f\""), 1);
        EXPECT_EQ(count(json, "\"ph\":\"i\""), 1);
        EXPECT_EQ(count(json, "\"ts\":10.000,\"dur\":2.000,"), 1); /* microseconds */
        EXPECT_EQ(count(json, "\"kind\":\"HtoD\",\"bytes\":4096"), 1);
        EXPECT_EQ(count(json, "\"thread_name\""), 2);
    }
    char *html = render(t, true);
    EXPECT_EQ(html != NULL, 1);
    if (html) {
        /* nothing in the data closes the <script> early */
        const char *data = strstr(html, "<script id=\"data\" type=\"application/json\">");
        EXPECT_EQ(data != NULL, 1);
        if (data) {
            const char *end = strstr(data, "</script>");
            const char *lt = strchr(data + 10, '<');
            EXPECT_EQ(lt == end, 1);
        }
        /* the threads-per-block curve passes through the kernel's point (256, 100%) */
        EXPECT_EQ(count(html, "\"block\":[[32,"), 1);
        EXPECT_EQ(count(html, "[256,1.0000]"), 1);
        EXPECT_EQ(count(html, "\"threads\":256,\"regs\":32,"), 1);
        EXPECT_EQ(count(html, "\"limiter\":\"warps per SM\""), 1);
        EXPECT_EQ(count(html, "http"), 1); /* the SVG namespace, never a fetch */
    }
    free(json);
    free(html);
    prof_timeline_free(t);
    if (prof_test_failures) return 1;
    printf("test_prof_timeline: ok\n");
    return 0;
}
