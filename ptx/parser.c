/* ptx/parser.c — the module level of the PTX parser: ptx_parse, module directives
 * (.version, .target, .address_size, .file, .loc, .section, .pragma), linkage and the
 * dispatch to variables and functions; errors, memory and token helpers shared by the
 * other parser files; ptx_module_free and the lookups by name. */
#include "parser_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---- */

_Noreturn static void vfail(ptx_parser *p, uint32_t line, uint32_t col, const char *fmt, va_list ap) {
    if (p->err && p->errlen) {
        int n = snprintf(p->err, p->errlen, "%s:%u:%u: error: ", p->source_name, line, col);
        if (n >= 0 && (size_t)n < p->errlen) vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    }
    longjmp(p->fail, 1);
}

void ptx_fail(ptx_parser *p, uint32_t line, uint32_t col, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(p, line, col, fmt, ap);
}

void ptx_fail_tok(ptx_parser *p, const ptx_token *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(p, t->line, t->col, fmt, ap);
}

const char *ptx_tok_desc(const ptx_token *t, char *buf, size_t n) {
    if (t->kind == PTX_TOK_EOF) return "end of input";
    uint32_t len = t->len > 40 ? 40 : t->len;
    snprintf(buf, n, "'%.*s%s'", (int)len, t->text, t->len > 40 ? "..." : "");
    return buf;
}

void ptx_fail_expected(ptx_parser *p, const char *what) {
    char buf[64];
    ptx_fail_tok(p, &p->tok, "expected %s, found %s", what, ptx_tok_desc(&p->tok, buf, sizeof buf));
}

/* ---- memory ---- */

void *ptx_xrealloc(ptx_parser *p, void *ptr, size_t size) {
    void *q = realloc(ptr, size ? size : 1);
    if (!q) ptx_fail_tok(p, &p->tok, "out of memory");
    return q;
}

char *ptx_xstrndup(ptx_parser *p, const char *s, size_t n) {
    char *d = ptx_xrealloc(p, NULL, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

void *ptx_grow1(ptx_parser *p, void **arr, uint32_t n, uint32_t *cap, size_t elem) {
    if (n >= *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 8;
        *arr = ptx_xrealloc(p, *arr, (size_t)ncap * elem);
        *cap = ncap;
    }
    void *e = (char *)*arr + (size_t)n * elem;
    memset(e, 0, elem);
    return e;
}

/* ---- tokens ---- */

static void check_token(ptx_parser *p) {
    if (p->tok.kind == PTX_TOK_ERROR)
        ptx_fail_tok(p, &p->tok, "%s", p->lx.error ? p->lx.error : "malformed input");
}

void ptx_next(ptx_parser *p) {
    if (p->have_ahead) {
        p->tok = p->ahead;
        p->have_ahead = false;
    } else {
        ptx_lex_next(&p->lx, &p->tok);
    }
    check_token(p);
}

const ptx_token *ptx_peek(ptx_parser *p) {
    if (!p->have_ahead) {
        ptx_lex_next(&p->lx, &p->ahead);
        p->have_ahead = true;
    }
    return &p->ahead;
}

bool ptx_accept_punct(ptx_parser *p, char c) {
    if (!ptx_tok_punct(&p->tok, c)) return false;
    ptx_next(p);
    return true;
}

void ptx_expect_punct(ptx_parser *p, char c, const char *context) {
    if (!ptx_tok_punct(&p->tok, c)) {
        char what[96];
        snprintf(what, sizeof what, "'%c' %s", c, context);
        ptx_fail_expected(p, what);
    }
    ptx_next(p);
}

int64_t ptx_expect_int(ptx_parser *p, const char *context, bool allow_neg) {
    bool neg = false;
    ptx_token start = p->tok;
    if (allow_neg && ptx_tok_punct(&p->tok, '-')) {
        neg = true;
        ptx_next(p);
    }
    if (p->tok.kind != PTX_TOK_INT) {
        char what[96];
        snprintf(what, sizeof what, "integer %s", context);
        ptx_fail_expected(p, what);
    }
    uint64_t v = p->tok.ival;
    if (!allow_neg && v > INT64_MAX) ptx_fail_tok(p, &start, "integer %s out of range", context);
    ptx_next(p);
    return neg ? (int64_t)(0 - v) : (int64_t)v;
}

const ptx_name_entry *ptx_keyword(ptx_parser *p, const char *s, uint32_t len, uint8_t kind) {
    const ptx_name_entry *e = ptx_names_find(kind == PTX_NK_OPCODE ? &p->opcodes : &p->dotwords, s, len);
    return e && e->kind == kind ? e : NULL;
}

ptx_type ptx_tok_type(ptx_parser *p, const ptx_token *t) {
    if (t->kind != PTX_TOK_DOTWORD) return PTX_T_NONE;
    const ptx_name_entry *e = ptx_keyword(p, t->text + 1, t->len - 1, PTX_NK_TYPE);
    return e ? (ptx_type)e->value : PTX_T_NONE;
}

static void add_keyword(ptx_parser *p, ptx_name_table *t, const char *s, uint8_t kind, int32_t v) {
    ptx_name_entry *e = ptx_names_insert(t, s, (uint32_t)strlen(s));
    if (!e) ptx_fail(p, 1, 1, "out of memory");
    e->kind = kind;
    e->value = v;
}

/* ---- module directives ---- */

static void parse_version(ptx_parser *p) {
    ptx_next(p);
    const ptx_token *t = &p->tok;
    /* "9.0" lexes as a decimal float; read major.minor from its text. */
    if (t->kind != PTX_TOK_FLOAT && t->kind != PTX_TOK_INT) ptx_fail_expected(p, "version number after .version");
    uint32_t major = 0, minor = 0, i = 0;
    while (i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && major < 1000)
        major = major * 10 + (uint32_t)(t->text[i++] - '0');
    if (i < t->len && t->text[i] == '.') {
        i++;
        while (i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && minor < 1000)
            minor = minor * 10 + (uint32_t)(t->text[i++] - '0');
    }
    if (i != t->len) ptx_fail_tok(p, t, "malformed version number");
    p->m->version_major = major;
    p->m->version_minor = minor;
    ptx_next(p);
}

static void parse_target(ptx_parser *p) {
    ptx_next(p);
    for (;;) {
        if (p->tok.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "target name after .target");
        const ptx_token *t = &p->tok;
        if (t->len > 3 && (memcmp(t->text, "sm_", 3) == 0 || (t->len > 8 && memcmp(t->text, "compute_", 8) == 0))) {
            uint32_t i = t->text[0] == 's' ? 3 : 8, sm = 0;
            while (i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && sm < 100000)
                sm = sm * 10 + (uint32_t)(t->text[i++] - '0');
            /* sm_90a, sm_100f: a feature-set suffix of one letter */
            if (sm == 0 || (i < t->len && !(i + 1 == t->len && t->text[i] >= 'a' && t->text[i] <= 'z')))
                ptx_fail_tok(p, t, "unknown target '%.*s'", (int)t->len, t->text);
            p->m->target_sm = sm;
        } else if (ptx_tok_is(t, "debug")) {
            p->m->target_debug = true;
        } else if (!ptx_tok_is(t, "texmode_independent") && !ptx_tok_is(t, "texmode_unified") &&
                   !ptx_tok_is(t, "map_f64_to_f32")) {
            ptx_fail_tok(p, t, "unknown target '%.*s'", (int)t->len, t->text);
        }
        ptx_next(p);
        if (!ptx_accept_punct(p, ',')) break;
    }
}

static void parse_address_size(ptx_parser *p) {
    ptx_token t0;
    ptx_next(p);
    t0 = p->tok;
    int64_t v = ptx_expect_int(p, "after .address_size", false);
    if (v != 32 && v != 64) ptx_fail_tok(p, &t0, "unsupported .address_size %lld", (long long)v);
    p->m->address_size = (uint32_t)v;
}

/* Copy a string literal's contents (escapes kept as written, which is how .file names
 * appear). */
static char *string_value(ptx_parser *p, const ptx_token *t) {
    return ptx_xstrndup(p, t->text + 1, t->len - 2);
}

static void parse_file(ptx_parser *p) {
    ptx_next(p);
    ptx_token nt = p->tok;
    int64_t n = ptx_expect_int(p, "file number after .file", false);
    if (n > 65535) ptx_fail_tok(p, &nt, "file number %lld out of range", (long long)n);
    if (p->tok.kind != PTX_TOK_STRING) ptx_fail_expected(p, "file name string");
    ptx_module *m = p->m;
    if ((uint32_t)n >= m->nfiles) {
        uint32_t need = (uint32_t)n + 1;
        m->files = ptx_xrealloc(p, m->files, (size_t)need * sizeof *m->files);
        for (uint32_t i = m->nfiles; i < need; i++) m->files[i] = NULL;
        m->nfiles = need;
    }
    free(m->files[n]);
    m->files[n] = NULL;
    m->files[n] = string_value(p, &p->tok);
    ptx_next(p);
    /* optional ", timestamp, size" */
    while (ptx_accept_punct(p, ',')) ptx_expect_int(p, "in .file", false);
}

/* .loc file line col [, function_name label [+ off]] [, inlined_at f l c [, function_name ...]] */
void ptx_parse_loc(ptx_parser *p) {
    ptx_next(p);
    ptx_token ft = p->tok;
    int64_t file = ptx_expect_int(p, "file number after .loc", false);
    int64_t line = ptx_expect_int(p, "line number in .loc", false);
    ptx_expect_int(p, "column number in .loc", false);
    if (file > 65535) ptx_fail_tok(p, &ft, "file number %lld out of range", (long long)file);
    if (line > UINT32_MAX) ptx_fail_tok(p, &ft, "line number out of range");
    uint16_t call_file = 0;
    uint32_t call_line = 0;
    while (ptx_accept_punct(p, ',')) {
        if (p->tok.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "function_name or inlined_at in .loc");
        if (ptx_tok_is(&p->tok, "function_name")) {
            ptx_next(p);
            if (p->tok.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "label after function_name");
            ptx_next(p);
            if (ptx_accept_punct(p, '+')) ptx_expect_int(p, "offset after function_name label", false);
        } else if (ptx_tok_is(&p->tok, "inlined_at")) {
            ptx_next(p);
            /* nested inlining lists the call sites innermost first: keep the last */
            int64_t f = ptx_expect_int(p, "in inlined_at", false);
            int64_t l = ptx_expect_int(p, "in inlined_at", false);
            ptx_expect_int(p, "in inlined_at", false);
            call_file = f <= 65535 ? (uint16_t)f : 0;
            call_line = l <= UINT32_MAX ? (uint32_t)l : 0;
        } else {
            ptx_fail_tok(p, &p->tok, "unknown .loc attribute '%.*s'", (int)p->tok.len, p->tok.text);
        }
    }
    p->loc_file = (uint16_t)file;
    p->loc_line = (uint32_t)line;
    p->loc_call_file = call_file;
    p->loc_call_line = call_line;
}

void ptx_parse_pragma(ptx_parser *p) {
    ptx_next(p);
    if (p->tok.kind != PTX_TOK_STRING) ptx_fail_expected(p, "string after .pragma");
    while (p->tok.kind == PTX_TOK_STRING) {
        ptx_next(p);
        if (!ptx_accept_punct(p, ',')) break;
    }
    ptx_expect_punct(p, ';', "after .pragma");
}

static void parse_section(ptx_parser *p) {
    ptx_token start = p->tok;
    ptx_next(p);
    if (p->tok.kind != PTX_TOK_DOTWORD && p->tok.kind != PTX_TOK_IDENT)
        ptx_fail_expected(p, "section name after .section");
    ptx_next(p);
    if (!ptx_tok_punct(&p->tok, '{')) ptx_fail_expected(p, "'{' after section name");
    /* Debug sections hold data for debuggers only: skip the raw text of the block. */
    if (p->have_ahead) ptx_fail_tok(p, &p->tok, "internal: lookahead across .section");
    if (!ptx_lex_skip_block(&p->lx)) {
        if (p->lx.error) ptx_fail(p, p->lx.line, (uint32_t)(p->lx.cur - p->lx.line_start) + 1, "%s", p->lx.error);
        ptx_fail_tok(p, &start, "unterminated .section block");
    }
    ptx_next(p);
}

static void parse_module(ptx_parser *p) {
    ptx_next(p);
    while (p->tok.kind != PTX_TOK_EOF) {
        ptx_token *t = &p->tok;
        if (t->kind != PTX_TOK_DOTWORD) {
            char buf[64];
            ptx_fail_tok(p, t, "expected a directive at module level, found %s", ptx_tok_desc(t, buf, sizeof buf));
        }
        if (ptx_tok_is(t, ".version")) { parse_version(p); continue; }
        if (ptx_tok_is(t, ".target")) { parse_target(p); continue; }
        if (ptx_tok_is(t, ".address_size")) { parse_address_size(p); continue; }
        if (ptx_tok_is(t, ".file")) { parse_file(p); continue; }
        if (ptx_tok_is(t, ".loc")) { ptx_parse_loc(p); continue; }
        if (ptx_tok_is(t, ".section")) { parse_section(p); continue; }
        if (ptx_tok_is(t, ".pragma")) { ptx_parse_pragma(p); continue; }
        bool is_extern = false, is_visible = false, is_weak = false;
        for (;;) {
            if (ptx_tok_is(&p->tok, ".extern")) is_extern = true;
            else if (ptx_tok_is(&p->tok, ".visible")) is_visible = true;
            else if (ptx_tok_is(&p->tok, ".weak") || ptx_tok_is(&p->tok, ".common")) is_weak = true;
            else break;
            ptx_next(p);
        }
        t = &p->tok;
        if (ptx_tok_is(t, ".entry") || ptx_tok_is(t, ".func")) {
            ptx_parse_function(p, is_extern, is_visible, is_weak);
        } else if (ptx_tok_is(t, ".global") || ptx_tok_is(t, ".const") || ptx_tok_is(t, ".shared") ||
                   ptx_tok_is(t, ".local")) {
            ptx_parse_module_var(p, is_extern, is_visible, is_weak);
        } else if (t->kind == PTX_TOK_DOTWORD) {
            ptx_fail_tok(p, t, "unsupported directive '%.*s'", (int)t->len, t->text);
        } else {
            ptx_fail_expected(p, ".entry, .func or a variable declaration");
        }
    }
}

/* ---- API ---- */

static void parser_release(ptx_parser *p) {
    ptx_names_free(&p->opcodes);
    ptx_names_free(&p->dotwords);
    ptx_names_free(&p->globals);
    ptx_names_free(&p->scope);
    ptx_names_free(&p->labels);
    free(p->shadows);
    free(p->label_info);
    free(p->targets);
    free(p->init_buf);
    free(p->mask_bytes);
}

/* Everything that can fail runs here, under the parser's longjmp target. */
static ptx_module *parse_protected(ptx_parser *p) {
    if (setjmp(p->fail) != 0) return NULL;
    p->m = calloc(1, sizeof *p->m);
    if (!p->m) ptx_fail(p, 1, 1, "out of memory");
    p->m->source_name = ptx_xstrndup(p, p->source_name, strlen(p->source_name));
    /* Opcodes in one table; types and modifiers (spelled after a '.') in another, as some
     * spellings are both an opcode and a modifier ("add", "min", "popc"). */
    for (int i = 0; i < PTX_OP_COUNT; i++) add_keyword(p, &p->opcodes, ptx_opcode_names[i], PTX_NK_OPCODE, i);
    for (int i = 1; i < PTX_T_COUNT; i++) add_keyword(p, &p->dotwords, ptx_type_names[i], PTX_NK_TYPE, i);
    for (int i = 1; i < PTX_MOD_COUNT; i++) add_keyword(p, &p->dotwords, ptx_mod_names[i], PTX_NK_MOD, i);
    parse_module(p);
    ptx_module *m = p->m;
    p->m = NULL;
    return m;
}

ptx_module *ptx_parse(const char *text, size_t len, const char *source_name, char *err, size_t errlen) {
    ptx_parser *p = calloc(1, sizeof *p);
    if (!p) {
        if (err && errlen) snprintf(err, errlen, "%s:1:1: error: out of memory", source_name ? source_name : "<ptx>");
        return NULL;
    }
    p->source_name = source_name ? source_name : "<ptx>";
    p->err = err;
    p->errlen = errlen;
    p->fi = -1;
    if (err && errlen) err[0] = 0;
    ptx_lex_init(&p->lx, text ? text : "", text ? len : 0);
    ptx_module *m = parse_protected(p);
    if (!m) ptx_module_free(p->m);
    parser_release(p);
    free(p);
    return m;
}

void ptx_var_release(ptx_var *v) {
    free(v->name);
    free(v->init);
    free(v->relocs);
}

void ptx_func_release(ptx_func *f) {
    free(f->name);
    for (uint32_t i = 0; i < f->nparams; i++) ptx_var_release(&f->params[i]);
    free(f->params);
    for (uint32_t i = 0; i < f->nrets; i++) ptx_var_release(&f->rets[i]);
    free(f->rets);
    for (uint32_t i = 0; i < f->nregs; i++) free(f->regs[i].name);
    free(f->regs);
    for (uint32_t i = 0; i < f->nlocals; i++) ptx_var_release(&f->locals[i]);
    free(f->locals);
    for (uint32_t i = 0; i < f->nlabels; i++) free(f->labels[i].name);
    free(f->labels);
    free(f->insns);
    free(f->vec_elems);
}

void ptx_module_free(ptx_module *m) {
    if (!m) return;
    free(m->source_name);
    for (uint32_t i = 0; i < m->nvars; i++) ptx_var_release(&m->vars[i]);
    free(m->vars);
    for (uint32_t i = 0; i < m->nfuncs; i++) ptx_func_release(&m->funcs[i]);
    free(m->funcs);
    for (uint32_t i = 0; i < m->nfiles; i++) free(m->files[i]);
    free(m->files);
    free(m);
}

int ptx_find_func(const ptx_module *m, const char *name) {
    if (!m || !name) return -1;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].name && strcmp(m->funcs[i].name, name) == 0) return (int)i;
    return -1;
}

int ptx_find_var(const ptx_module *m, const char *name) {
    if (!m || !name) return -1;
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].name && strcmp(m->vars[i].name, name) == 0) return (int)i;
    return -1;
}
