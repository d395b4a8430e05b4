/* check/report.c — the text of reports: a growing buffer, prefixed lines, sizes with
 * thousands separators, thread indices, and where an instruction is ("reduce(int *) in
 * reduce.cu:42 (PTX line 97)": the function that contains it, the CUDA source line when
 * the program was built with -lineinfo, the PTX line always).
 */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void buf_vprintf(check_buf *b, const char *fmt, va_list ap) {
    va_list aq;
    va_copy(aq, ap);
    int k = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (k < 0) return;
    size_t need = b->len + (size_t)k + 1;
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < need) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) return;
        b->p = p;
        b->cap = cap;
    }
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    b->len += (size_t)k;
}

void check_buf_printf(check_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void check_line(check_buf *b, const char *fmt, ...) {
    check_buf_printf(b, "%s", CHECK_PREFIX);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
    check_buf_printf(b, "\n");
}

void check_buf_free(check_buf *b) {
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

const char *check_commas(uint64_t v, char buf[32]) {
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    int out = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) buf[out++] = ',';
        buf[out++] = digits[i];
    }
    buf[out] = 0;
    return buf;
}

exec_dim3 check_thread_index(const check_launch *cl, uint32_t t) {
    exec_dim3 b = cl->L->block, r;
    r.x = t % b.x;
    r.y = (t / b.x) % b.y;
    r.z = t / (b.x * b.y);
    return r;
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void check_where(char *out, size_t n, const check_launch *cl, const ptx_insn *insn) {
    const ptx_module *m = cl->module;
    const char *fname = NULL;
    if (m && insn)
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            const ptx_func *f = &m->funcs[i];
            if (f->ninsns && insn >= f->insns && insn < f->insns + f->ninsns) {
                fname = f->name;
                break;
            }
        }
    char func[512];
    if (fname) ptx_demangle_into(fname, PTX_DEMANGLE_SANITIZER, func, sizeof func);
    else snprintf(func, sizeof func, "%s", cl->kernel);
    if (!insn) {
        snprintf(out, n, "%s", func);
        return;
    }
    const char *file = m && insn->loc.file < m->nfiles ? m->files[insn->loc.file] : NULL;
    const char *call = m && insn->loc.call_file < m->nfiles ? m->files[insn->loc.call_file] : NULL;
    if (file && insn->loc.line && call && insn->loc.call_line)
        /* code inlined from a header (an intrinsic): the program's own line first */
        snprintf(out, n, "%s in %s:%u (PTX line %u, inlined from %s:%u)", func, base_name(call),
                 insn->loc.call_line, insn->loc.ptx_line, base_name(file), insn->loc.line);
    else if (file && insn->loc.line)
        snprintf(out, n, "%s in %s:%u (PTX line %u)", func, base_name(file), insn->loc.line,
                 insn->loc.ptx_line);
    else
        snprintf(out, n, "%s (PTX line %u)", func, insn->loc.ptx_line);
}

void check_report_launch_site(check_buf *b, const check_launch *cl) {
    if (!cl->launch_site[0]) return;
    check_line(b, "    Saved host backtrace up to driver entry point at kernel launch time");
    check_host_frame_lines(b, cl->launch_site);
}

void check_report_head(check_buf *b, const check_launch *cl, const exec_site *s,
                       uint32_t lane, const char *what_fmt, ...) {
    check_buf_printf(b, "%s", CHECK_PREFIX);
    va_list ap;
    va_start(ap, what_fmt);
    buf_vprintf(b, what_fmt, ap);
    va_end(ap);
    check_buf_printf(b, "\n");
    char where[700];
    check_where(where, sizeof where, cl, s->insn);
    check_line(b, "    at %s", where);
    exec_dim3 t = check_thread_index(cl, s->warp * 32u + lane);
    check_line(b, "    by thread (%u,%u,%u) in block (%u,%u,%u)", t.x, t.y, t.z, s->ctaid.x,
               s->ctaid.y, s->ctaid.z);
}
