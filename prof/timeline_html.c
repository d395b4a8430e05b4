/* prof/timeline_html.c — `vcuda prof --timeline FILE.html`: one self-contained page (no
 * network access, no external script) that draws the timeline of prof/timeline.c, zoomable
 * (wheel, drag, buttons), one SVG bar per operation and API call, a table of the kernels
 * with their metrics, and per kernel the curves the CUDA Occupancy Calculator draws:
 * theoretical occupancy against threads per block, registers per thread and shared memory
 * per block, the others held at the kernel's values, its own point marked.
 *
 * The page's data is one JSON object in a <script type="application/json"> element:
 *   {"device", "metrics": [names], "traceEvents": [the JSON file's events],
 *    "kernels": [{name, calls, total_us, grid, block, threads, regs, static_shared,
 *                 dynamic_shared, shared, occupancy, limiter, metrics: {name: average},
 *                 curves: {block, regs, shared: [[x, occupancy], ...]}}]}
 * The curves come from the occupancy calculator itself (gpu_occupancy_calc), so the page
 * draws what the runtime's occupancy API answers. When the page has drawn everything it
 * sets data-ready="1" on <body>; script errors are written into #errors (the headless
 * browser test reads both).
 */
#include "timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The page around the data (the template is kept here, as two strings). */
static const char page_head[] =
    "<!DOCTYPE html>\n"
    "<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<title>vcuda timeline</title>\n"
    "<style>\n"
    "body { font: 13px/1.4 system-ui, sans-serif; margin: 16px; color: #222; background: #fff; }\n"
    "h1 { font-size: 18px; margin: 0 0 4px; } h2 { font-size: 15px; margin: 20px 0 6px; }\n"
    ".note { color: #666; margin: 0 0 8px; }\n"
    "#controls button { margin-right: 4px; }\n"
    "#timeline { border: 1px solid #ccc; overflow: hidden; position: relative; user-select: none; cursor: grab; }\n"
    "#timeline svg { display: block; }\n"
    ".label { font-size: 12px; fill: #333; }\n"
    ".axis { font-size: 11px; fill: #555; }\n"
    ".grid { stroke: #eee; }\n"
    ".bar { stroke: rgba(0,0,0,.35); stroke-width: .5; }\n"
    ".bar:hover { stroke: #000; stroke-width: 1.5; }\n"
    ".kernel { fill: #4e79a7; } .memcpy { fill: #f28e2b; } .memset { fill: #e15759; }\n"
    ".hostfn { fill: #76b7b2; } .load { fill: #bab0ac; } .api { fill: #59a14f; }\n"
    ".mark { fill: #b07aa1; } .wait { fill: #9c755f; }\n"
    "#tip { position: fixed; pointer-events: none; background: #fffff0; border: 1px solid #999; padding: 4px 6px; font-size: 12px; white-space: pre; display: none; z-index: 2; }\n"
    "table { border-collapse: collapse; font-size: 12px; }\n"
    "th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: right; }\n"
    "th { background: #f4f4f4; max-width: 120px; text-align: center; }\n"
    "td { white-space: nowrap; }\n"
    "td.name { text-align: left; min-width: 220px; max-width: 420px; white-space: normal; overflow-wrap: anywhere; }\n"
    "#kernels { overflow-x: auto; }\n"
    ".legend span { display: inline-block; width: 12px; height: 10px; margin: 0 3px 0 10px; border: 1px solid #888; }\n"
    ".occ { display: flex; flex-wrap: wrap; gap: 12px; margin-bottom: 12px; }\n"
    ".occ svg { border: 1px solid #ddd; }\n"
    ".curve { fill: none; stroke: #4e79a7; stroke-width: 1.5; }\n"
    ".point { fill: #e15759; stroke: #000; }\n"
    "#errors { color: #b00; white-space: pre; }\n"
    "</style></head>\n"
    "<body>\n"
    "<h1>vcuda timeline</h1>\n"
    "<p class=\"note\" id=\"subtitle\"></p>\n"
    "<div id=\"errors\"></div>\n"
    "<div id=\"controls\"><button id=\"zin\">zoom in</button><button id=\"zout\">zoom out</button><button id=\"zreset\">whole run</button>\n"
    "<span class=\"note\">wheel: zoom at the pointer &middot; drag: pan &middot; hover a bar for its details</span></div>\n"
    "<div id=\"timeline\"></div>\n"
    "<div class=\"legend note\"><span style=\"background:#4e79a7\"></span>kernel<span style=\"background:#f28e2b\"></span>copy<span style=\"background:#e15759\"></span>set<span style=\"background:#76b7b2\"></span>host function<span style=\"background:#b07aa1\"></span>event record<span style=\"background:#9c755f\"></span>stream wait<span style=\"background:#bab0ac\"></span>module load<span style=\"background:#59a14f\"></span>CUDA API call</div>\n"
    "<div id=\"tip\"></div>\n"
    "<h2>Kernels</h2>\n"
    "<p class=\"note\">Per kernel: the last launch's configuration, times summed over its launches, metrics averaged over them (the timing model's estimates on the virtual device clock).</p>\n"
    "<div id=\"kernels\"></div>\n"
    "<h2>Occupancy</h2>\n"
    "<p class=\"note\">Per kernel, as the CUDA Occupancy Calculator draws them: theoretical occupancy against threads per block, registers per thread and shared memory per block, each with the other two held at the kernel's own values (its point in red).</p>\n"
    "<div id=\"occupancy\"></div>\n"
    "<script id=\"data\" type=\"application/json\">";

static const char page_tail[] =
    "</script>\n"
    "<script>\n"
    "'use strict';\n"
    "window.onerror = function (msg, src, line) {\n"
    "  document.getElementById('errors').textContent += 'script error: ' + msg + ' (line ' + line + ')\\n';\n"
    "};\n"
    "var NS = 'http://www.w3.org/2000/svg';\n"
    "var data = JSON.parse(document.getElementById('data').textContent);\n"
    "function el(tag, attrs, parent) {\n"
    "  var e = document.createElementNS(NS, tag);\n"
    "  for (var k in attrs) e.setAttribute(k, attrs[k]);\n"
    "  if (parent) parent.appendChild(e);\n"
    "  return e;\n"
    "}\n"
    "function fmtTime(us) {\n"
    "  var a = Math.abs(us);\n"
    "  if (a >= 1e6) return (us / 1e6).toPrecision(4) + ' s';\n"
    "  if (a >= 1e3) return (us / 1e3).toPrecision(4) + ' ms';\n"
    "  if (a >= 1 || a === 0) return us.toPrecision(4) + ' us';\n"
    "  return (us * 1e3).toPrecision(4) + ' ns';\n"
    "}\n"
    "function fmtBytes(b) {\n"
    "  if (b >= 1 << 20) return (b / (1 << 20)).toFixed(1) + ' MiB';\n"
    "  if (b >= 1024) return (b / 1024).toFixed(1) + ' KiB';\n"
    "  return b + ' B';\n"
    "}\n"
    "var CLASS = { 'kernel': 'kernel', 'memcpy': 'memcpy', 'memset': 'memset', 'host function': 'hostfn',\n"
    "  'load': 'load', 'api': 'api', 'event': 'mark', 'wait': 'wait' };\n"
    "\n"
    "/* ---- tracks and events ---- */\n"
    "var tracks = {}, order = [];\n"
    "data.traceEvents.forEach(function (e) {\n"
    "  if (e.ph !== 'M') return;\n"
    "  var key = e.pid + ':' + e.tid;\n"
    "  if (e.name === 'thread_name') {\n"
    "    tracks[key] = tracks[key] || { pid: e.pid, tid: e.tid, sort: 0, events: [] };\n"
    "    tracks[key].name = e.args.name;\n"
    "  } else if (e.name === 'thread_sort_index') {\n"
    "    tracks[key] = tracks[key] || { pid: e.pid, tid: e.tid, sort: 0, events: [] };\n"
    "    tracks[key].sort = e.args.sort_index;\n"
    "  }\n"
    "});\n"
    "var t0 = Infinity, t1 = -Infinity;\n"
    "data.traceEvents.forEach(function (e) {\n"
    "  if (e.ph !== 'X' && e.ph !== 'i') return;\n"
    "  var tr = tracks[e.pid + ':' + e.tid];\n"
    "  if (!tr) return;\n"
    "  tr.events.push(e);\n"
    "  t0 = Math.min(t0, e.ts);\n"
    "  t1 = Math.max(t1, e.ts + (e.dur || 0));\n"
    "});\n"
    "if (!isFinite(t0)) { t0 = 0; t1 = 1; }\n"
    "if (t1 <= t0) t1 = t0 + 1;\n"
    "for (var k in tracks) order.push(tracks[k]);\n"
    "order.sort(function (a, b) { return a.pid - b.pid || a.sort - b.sort || a.tid - b.tid; });\n"
    "document.getElementById('subtitle').textContent = (data.device || '') + ': ' +\n"
    "  data.traceEvents.filter(function (e) { return e.ph === 'X' && e.cat === 'kernel'; }).length +\n"
    "  ' kernel launches, ' + fmtTime(t1 - t0) + ' of virtual device time (the clock cudaEventElapsedTime reads).';\n"
    "\n"
    "var LABEL = 230, ROW = 22, AXIS = 24;\n"
    "var box = document.getElementById('timeline');\n"
    "var width = Math.max(600, box.clientWidth || 1000);\n"
    "var height = AXIS + ROW * order.length + 4;\n"
    "var svg = el('svg', { width: width, height: height, id: 'tlsvg' }, box);\n"
    "var axisG = el('g', {}, svg), barsG = el('g', {}, svg), labelsG = el('g', {}, svg);\n"
    "var view = { a: t0 - (t1 - t0) * 0.01, b: t1 + (t1 - t0) * 0.01 };\n"
    "var full = { a: view.a, b: view.b };\n"
    "function xOf(ts) { return LABEL + (ts - view.a) / (view.b - view.a) * (width - LABEL - 8); }\n"
    "var bars = [];\n"
    "order.forEach(function (tr, row) {\n"
    "  var y = AXIS + row * ROW;\n"
    "  el('rect', { x: 0, y: y, width: LABEL - 4, height: ROW, fill: row % 2 ? '#fafafa' : '#f2f2f2' }, labelsG);\n"
    "  var t = el('text', { x: 4, y: y + 15, 'class': 'label' }, labelsG);\n"
    "  t.textContent = tr.name;\n"
    "  el('line', { x1: LABEL, x2: width, y1: y + ROW, y2: y + ROW, 'class': 'grid' }, axisG);\n"
    "  tr.events.forEach(function (e) {\n"
    "    var r = el('rect', { y: y + 3, height: ROW - 6, 'class': 'bar ' + (CLASS[e.cat] || 'api') }, barsG);\n"
    "    r.dataset.cat = e.cat;\n"
    "    bars.push({ r: r, e: e });\n"
    "  });\n"
    "});\n"
    "function render() {\n"
    "  bars.forEach(function (b) {\n"
    "    var x0 = xOf(b.e.ts), w = b.e.ph === 'X' ? xOf(b.e.ts + b.e.dur) - x0 : 0;\n"
    "    if (b.e.ph === 'i' || w < 2) { x0 -= 1; w = 2; }\n"
    "    b.r.setAttribute('x', x0.toFixed(2));\n"
    "    b.r.setAttribute('width', w.toFixed(2));\n"
    "  });\n"
    "  while (axisG.childNodes.length > order.length) axisG.removeChild(axisG.lastChild);\n"
    "  var span = view.b - view.a, step = Math.pow(10, Math.floor(Math.log10(span / 6)));\n"
    "  if (span / step > 12) step *= 5; else if (span / step > 6) step *= 2;\n"
    "  for (var t = Math.ceil(view.a / step) * step; t <= view.b; t += step) {\n"
    "    var x = xOf(t);\n"
    "    el('line', { x1: x, x2: x, y1: AXIS - 4, y2: height, 'class': 'grid' }, axisG);\n"
    "    el('text', { x: x + 2, y: 12, 'class': 'axis' }, axisG).textContent = fmtTime(t - t0);\n"
    "  }\n"
    "}\n"
    "function zoom(factor, atX) {\n"
    "  var f = (atX - LABEL) / (width - LABEL - 8);\n"
    "  f = Math.min(1, Math.max(0, f));\n"
    "  var at = view.a + f * (view.b - view.a);\n"
    "  var span = Math.max((view.b - view.a) * factor, 1e-3);\n"
    "  view.a = at - f * span;\n"
    "  view.b = view.a + span;\n"
    "  render();\n"
    "}\n"
    "box.addEventListener('wheel', function (ev) {\n"
    "  ev.preventDefault();\n"
    "  zoom(ev.deltaY < 0 ? 0.8 : 1.25, ev.clientX - box.getBoundingClientRect().left);\n"
    "}, { passive: false });\n"
    "var drag = null;\n"
    "box.addEventListener('mousedown', function (ev) { drag = { x: ev.clientX, a: view.a, b: view.b }; });\n"
    "window.addEventListener('mouseup', function () { drag = null; });\n"
    "window.addEventListener('mousemove', function (ev) {\n"
    "  if (!drag) return;\n"
    "  var d = (ev.clientX - drag.x) / (width - LABEL - 8) * (drag.b - drag.a);\n"
    "  view.a = drag.a - d;\n"
    "  view.b = drag.b - d;\n"
    "  render();\n"
    "});\n"
    "document.getElementById('zin').onclick = function () { zoom(0.5, LABEL + (width - LABEL) / 2); };\n"
    "document.getElementById('zout').onclick = function () { zoom(2, LABEL + (width - LABEL) / 2); };\n"
    "document.getElementById('zreset').onclick = function () { view.a = full.a; view.b = full.b; render(); };\n"
    "var tip = document.getElementById('tip');\n"
    "barsG.addEventListener('mousemove', function (ev) {\n"
    "  var b = bars.find(function (x) { return x.r === ev.target; });\n"
    "  if (!b) { tip.style.display = 'none'; return; }\n"
    "  var e = b.e, lines = [e.name, 'start ' + fmtTime(e.ts - t0) + (e.ph === 'X' ? ', lasts ' + fmtTime(e.dur) : '')];\n"
    "  for (var k in (e.args || {})) lines.push(k + ': ' + (k === 'bytes' ? fmtBytes(e.args[k]) : e.args[k]));\n"
    "  tip.textContent = lines.join('\\n');\n"
    "  tip.style.left = (ev.clientX + 12) + 'px';\n"
    "  tip.style.top = (ev.clientY + 12) + 'px';\n"
    "  tip.style.display = 'block';\n"
    "});\n"
    "barsG.addEventListener('mouseleave', function () { tip.style.display = 'none'; });\n"
    "render();\n"
    "\n"
    "/* ---- the kernels' table ---- */\n"
    "var kernels = data.kernels || [];\n"
    "var metricNames = data.metrics || [];\n"
    "(function () {\n"
    "  var table = document.createElement('table'), head = table.insertRow();\n"
    "  ['Kernel', 'Calls', 'Total', 'Avg', 'Grid', 'Block', 'Regs', 'Static smem', 'Dynamic smem',\n"
    "   'Theoretical occupancy'].concat(metricNames).forEach(function (h) {\n"
    "    var th = document.createElement('th'); th.textContent = h.replace(/_/g, '_\\u200b'); head.appendChild(th);\n"
    "  });\n"
    "  kernels.forEach(function (k) {\n"
    "    var row = table.insertRow();\n"
    "    row.className = 'kernel-row';\n"
    "    var cells = [k.name, k.calls, fmtTime(k.total_us), fmtTime(k.total_us / k.calls), k.grid, k.block,\n"
    "      k.regs, fmtBytes(k.static_shared), fmtBytes(k.dynamic_shared), (100 * k.occupancy).toFixed(1) + '%'];\n"
    "    metricNames.forEach(function (m) {\n"
    "      var v = k.metrics[m];\n"
    "      cells.push(v === undefined || v === null ? '-' : (Math.abs(v) >= 1000 ? v.toFixed(0) : +v.toPrecision(4)));\n"
    "    });\n"
    "    cells.forEach(function (c, i) {\n"
    "      var td = row.insertCell(); td.textContent = c; if (i === 0) td.className = 'name';\n"
    "    });\n"
    "  });\n"
    "  document.getElementById('kernels').appendChild(table);\n"
    "})();\n"
    "\n"
    "/* ---- occupancy curves ---- */\n"
    "function chart(parent, title, xlabel, points, px, py, fmtX) {\n"
    "  var W = 300, H = 190, L = 40, B = 34, T = 22, R = 10;\n"
    "  var s = el('svg', { width: W, height: H, 'class': 'occ-chart' }, parent);\n"
    "  el('text', { x: L, y: 14, 'class': 'label' }, s).textContent = title;\n"
    "  var xmin = points.length ? points[0][0] : 0, xmax = points.length ? points[points.length - 1][0] : 1;\n"
    "  if (xmax <= xmin) xmax = xmin + 1;\n"
    "  function X(v) { return L + (v - xmin) / (xmax - xmin) * (W - L - R); }\n"
    "  function Y(v) { return H - B - v * (H - B - T); }\n"
    "  [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {\n"
    "    el('line', { x1: L, x2: W - R, y1: Y(v), y2: Y(v), 'class': 'grid' }, s);\n"
    "    el('text', { x: 4, y: Y(v) + 4, 'class': 'axis' }, s).textContent = (v * 100) + '%';\n"
    "  });\n"
    "  [[xmin, 'start'], [(xmin + xmax) / 2, 'middle'], [xmax, 'end']].forEach(function (v) {\n"
    "    el('text', { x: X(v[0]), y: H - B + 14, 'class': 'axis', 'text-anchor': v[1] }, s).textContent = fmtX(Math.round(v[0]));\n"
    "  });\n"
    "  el('text', { x: L, y: H - 4, 'class': 'axis' }, s).textContent = xlabel;\n"
    "  var d = points.map(function (p, i) { return (i ? 'L' : 'M') + X(p[0]).toFixed(1) + ',' + Y(p[1]).toFixed(1); }).join('');\n"
    "  el('path', { d: d, 'class': 'curve' }, s);\n"
    "  el('circle', { cx: X(px), cy: Y(py), r: 4, 'class': 'point' }, s);\n"
    "}\n"
    "kernels.forEach(function (k) {\n"
    "  var div = document.createElement('div');\n"
    "  var h = document.createElement('h3');\n"
    "  h.style.fontSize = '13px';\n"
    "  h.textContent = k.name + ': ' + (100 * k.occupancy).toFixed(1) + '% (block ' + k.threads + ', ' + k.regs +\n"
    "    ' registers, ' + fmtBytes(k.shared) + ' shared; limited by ' + k.limiter + ')';\n"
    "  div.appendChild(h);\n"
    "  var row = document.createElement('div');\n"
    "  row.className = 'occ';\n"
    "  div.appendChild(row);\n"
    "  chart(row, 'Threads per block', 'threads per block', k.curves.block, k.threads, k.occupancy, String);\n"
    "  chart(row, 'Registers per thread', 'registers per thread', k.curves.regs, k.regs, k.occupancy, String);\n"
    "  chart(row, 'Shared memory per block', 'shared memory per block', k.curves.shared, k.shared, k.occupancy, fmtBytes);\n"
    "  document.getElementById('occupancy').appendChild(div);\n"
    "});\n"
    "document.body.dataset.ready = '1';\n"
    "</script>\n"
    "</body></html>\n"
    "";

static const char *limiter_name(gpu_occ_limiter l) {
    switch (l) {
    case GPU_OCC_WARPS: return "warps per SM";
    case GPU_OCC_BLOCKS: return "blocks per SM";
    case GPU_OCC_REGISTERS: return "registers";
    default: return "shared memory";
    }
}

/* One curve: occupancy at x = from, from+step, ... to, the others as given. */
static void curve(FILE *f, const gpu_preset *p, int which, int from, int to, int step,
                  int threads, int regs, size_t shared) {
    fputc('[', f);
    /* a block smaller than the first step still gets its own point on the curve */
    int own = which == 0 ? threads : which == 1 ? regs : (int)shared;
    bool first = true;
    if (own > 0 && own < from) from = own;
    for (int x = from; x <= to; x = x < own && (x / step + 1) * step > own ? own : (x / step + 1) * step) {
        gpu_occupancy o = gpu_occupancy_calc(p, which == 0 ? x : threads, which == 1 ? x : regs,
                                             which == 2 ? (size_t)x : shared);
        fprintf(f, "%s[%d,%.4f]", first ? "" : ",", x, o.occupancy);
        first = false;
    }
    fputc(']', f);
}

static void kernels_json(const prof_timeline *t, FILE *f) {
    const gpu_preset *p = t->preset;
    /* the kernels in order of first launch; each launch's event index by kernel */
    size_t *first = malloc((t->n ? t->n : 1) * sizeof *first);
    size_t nk = 0;
    fputc('[', f);
    for (size_t i = 0; first && i < t->n; i++) {
        const prof_tl_event *e = &t->ev[i];
        if (e->kind != PROF_TL_KERNEL) continue;
        size_t k = 0;
        while (k < nk && strcmp(t->ev[first[k]].name, e->name) != 0) k++;
        if (k < nk) continue;
        first[nk++] = i;
        /* every launch of this kernel: calls, time, metric sums; the last one's shape */
        unsigned calls = 0;
        double total = 0, sum[PROF_TL_MAX_METRICS] = {0};
        unsigned cnt[PROF_TL_MAX_METRICS] = {0};
        const prof_tl_event *last = e;
        for (size_t j = i; j < t->n; j++) {
            const prof_tl_event *x = &t->ev[j];
            if (x->kind != PROF_TL_KERNEL || strcmp(x->name, e->name) != 0) continue;
            calls++;
            total += (x->end_ms - x->start_ms) * 1e3;
            for (unsigned m = 0; m < x->nmetrics; m++)
                if (!isnan(x->metrics[m]) && !isinf(x->metrics[m])) {
                    sum[m] += x->metrics[m];
                    cnt[m]++;
                }
            last = x;
        }
        int threads = (int)(last->block[0] * last->block[1] * last->block[2]);
        int regs = (int)last->regs;
        size_t shared = (size_t)last->static_shared + last->dynamic_shared;
        gpu_occupancy occ = p ? gpu_occupancy_calc(p, threads, regs, shared) : (gpu_occupancy){0};
        fprintf(f, "%s\n{\"name\":", nk > 1 ? "," : "");
        prof_json_string(f, e->name);
        fprintf(f, ",\"calls\":%u,\"total_us\":%.3f,\"grid\":\"(%u, %u, %u)\","
                   "\"block\":\"(%u, %u, %u)\",\"threads\":%d,\"regs\":%d,\"static_shared\":%u,"
                   "\"dynamic_shared\":%u,\"shared\":%zu,\"occupancy\":%.4f,\"limiter\":\"%s\","
                   "\"metrics\":{",
                calls, total, last->grid[0], last->grid[1], last->grid[2], last->block[0],
                last->block[1], last->block[2], threads, regs, last->static_shared,
                last->dynamic_shared, shared, occ.occupancy, limiter_name(occ.limiter));
        bool any = false;
        for (unsigned m = 0; m < t->nmetrics; m++) {
            if (!cnt[m]) continue;
            fputs(any ? "," : "", f);
            prof_json_string(f, t->metric_names[m]);
            fprintf(f, ":%.6g", sum[m] / cnt[m]);
            any = true;
        }
        fputs("},\"curves\":{\"block\":", f);
        if (p) {
            /* about a hundred points, at multiples of 256 bytes */
            int smem_step = ((int)(p->shared_per_block_optin / 96) + 255) / 256 * 256;
            if (smem_step < 256) smem_step = 256;
            curve(f, p, 0, 32, p->max_threads_per_block, 32, threads, regs, shared);
            fputs(",\"regs\":", f);
            curve(f, p, 1, 1, p->max_regs_per_thread, 1, threads, regs, shared);
            fputs(",\"shared\":", f);
            curve(f, p, 2, 0, (int)p->shared_per_block_optin, smem_step, threads, regs, shared);
        } else {
            fputs("[],\"regs\":[],\"shared\":[]", f);
        }
        fputs("}}", f);
    }
    fputs("]", f);
    free(first);
}

bool prof_timeline_write_html(const prof_timeline *t, FILE *f) {
    fputs(page_head, f);
    fputs("{\"device\":", f);
    prof_json_string(f, t->preset ? t->preset->name : "none");
    fputs(",\n\"metrics\":[", f);
    for (unsigned m = 0; m < t->nmetrics; m++) {
        fputs(m ? "," : "", f);
        prof_json_string(f, t->metric_names[m]);
    }
    fputs("],\n\"traceEvents\":", f);
    prof_timeline_json_events(t, f);
    fputs(",\n\"kernels\":", f);
    kernels_json(t, f);
    fputs("}", f);
    fputs(page_tail, f);
    return !ferror(f);
}
