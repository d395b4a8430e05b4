/* ptx/parser_decl.c — declarations: module variables (.global/.const/.shared), their
 * initializers (scalars, nested brace lists, float literals, symbol addresses, generic(sym)
 * and the byte-mask form 0xFF00(generic(sym)+4)), function headers (.entry/.func with
 * parameters, return parameters, .noreturn and performance directives), and the merging of
 * a function's or variable's declaration with its later definition. */
#include "parser_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Attributes that precede a declared name. */
typedef struct decl_attrs {
    uint8_t type, vec, ptr_space;
    uint32_t align, ptr_align;
    bool is_ptr, managed;
} decl_attrs;

static uint8_t space_of(const ptx_token *t) {
    if (ptx_tok_is(t, ".global")) return PTX_SPACE_GLOBAL;
    if (ptx_tok_is(t, ".const")) return PTX_SPACE_CONST;
    if (ptx_tok_is(t, ".shared")) return PTX_SPACE_SHARED;
    if (ptx_tok_is(t, ".local")) return PTX_SPACE_LOCAL;
    if (ptx_tok_is(t, ".param")) return PTX_SPACE_PARAM;
    return PTX_SPACE_NONE;
}

static uint32_t expect_pow2(ptx_parser *p, const char *what) {
    ptx_token t = p->tok;
    int64_t v = ptx_expect_int(p, what, false);
    if (v <= 0 || v > (1 << 20) || (v & (v - 1)))
        ptx_fail_tok(p, &t, "alignment %lld is not a power of two", (long long)v);
    return (uint32_t)v;
}

static void parse_attrs(ptx_parser *p, decl_attrs *a) {
    memset(a, 0, sizeof *a);
    for (;;) {
        ptx_token *t = &p->tok;
        if (t->kind != PTX_TOK_DOTWORD) break;
        ptx_type ty = ptx_tok_type(p, t);
        if (ty != PTX_T_NONE) {
            if (a->type) ptx_fail_tok(p, t, "more than one type in declaration");
            a->type = (uint8_t)ty;
            ptx_next(p);
        } else if (ptx_tok_is(t, ".align")) {
            ptx_next(p);
            if (a->is_ptr) a->ptr_align = expect_pow2(p, "after .align");
            else a->align = expect_pow2(p, "after .align");
        } else if (ptx_tok_is(t, ".v2") || ptx_tok_is(t, ".v4") || ptx_tok_is(t, ".v8")) {
            a->vec = (uint8_t)(t->text[2] - '0');
            ptx_next(p);
        } else if (ptx_tok_is(t, ".ptr")) {
            a->is_ptr = true;
            ptx_next(p);
        } else if (a->is_ptr && space_of(t) != PTX_SPACE_NONE) {
            a->ptr_space = space_of(t);
            ptx_next(p);
        } else if (ptx_tok_is(t, ".attribute")) {
            ptx_next(p);
            ptx_expect_punct(p, '(', "after .attribute");
            if (ptx_tok_is(&p->tok, ".managed")) a->managed = true;
            else ptx_fail_tok(p, &p->tok, "unsupported attribute '%.*s'", (int)p->tok.len, p->tok.text);
            ptx_next(p);
            ptx_expect_punct(p, ')', "after attribute");
        } else {
            ptx_fail_tok(p, t, "unexpected '%.*s' in declaration", (int)t->len, t->text);
        }
    }
    if (!a->type) ptx_fail_expected(p, "a type in declaration");
    if (a->type == PTX_T_pred) ptx_fail_tok(p, &p->tok, "variables of type .pred are not supported");
}

/* ---- initializers ---- */

typedef struct init_ctx {
    ptx_var *v;
    uint8_t type;        /* scalar element type */
    uint32_t esize;      /* its size */
    uint64_t max_elems;  /* UINT64_MAX for "[]" */
    uint64_t n;          /* elements written */
    uint32_t depth;      /* brace nesting, bounded so hostile input cannot exhaust the stack */
} init_ctx;

static uint8_t *init_slot(ptx_parser *p, init_ctx *c, const ptx_token *at) {
    if (c->n >= c->max_elems) ptx_fail_tok(p, at, "too many initializers for '%s'", c->v->name);
    size_t need = (size_t)(c->n + 1) * c->esize;
    if (need > p->init_cap) {
        size_t ncap = p->init_cap ? p->init_cap * 2 : 256;
        while (ncap < need) ncap *= 2;
        p->init_buf = ptx_xrealloc(p, p->init_buf, ncap);
        p->init_cap = ncap;
    }
    uint8_t *slot = p->init_buf + (size_t)c->n * c->esize;
    memset(slot, 0, c->esize);
    c->n++;
    p->init_len = (size_t)c->n * c->esize;
    return slot;
}

static void store_int(uint8_t *dst, uint64_t v, uint32_t size) {
    for (uint32_t i = 0; i < size; i++) dst[i] = (uint8_t)(v >> (8 * i)); /* little endian */
}

/* Store a numeric literal into an element of type c->type, following PTX's rules: integers
 * into float elements are converted by value, 0f/0d literals into float elements by value
 * (exact bits when the widths match), and into integer elements as their bit pattern. */
static void store_number(ptx_parser *p, init_ctx *c, const ptx_token *t, bool neg, uint8_t *dst) {
    char kind = ptx_type_kinds[c->type];
    uint32_t size = c->esize;
    if (kind == 'f' && (c->type == PTX_T_f32 || c->type == PTX_T_f64)) {
        double d;
        if (t->kind == PTX_TOK_INT) d = neg ? -(double)t->ival : (double)t->ival;
        else d = neg ? -t->fval : t->fval;
        if (c->type == PTX_T_f32) {
            float f = (float)d;
            uint32_t bits;
            memcpy(&bits, &f, 4);
            if (t->kind == PTX_TOK_F32) bits = (uint32_t)t->ival ^ (neg ? 0x80000000u : 0);
            store_int(dst, bits, 4);
        } else {
            uint64_t bits;
            memcpy(&bits, &d, 8);
            if (t->kind == PTX_TOK_F64) bits = t->ival ^ (neg ? 0x8000000000000000ull : 0);
            store_int(dst, bits, 8);
        }
        return;
    }
    if (kind == 'f' || kind == 'x') {
        /* f16, bf16 and packed types: only their bit patterns are accepted. */
        if (t->kind != PTX_TOK_INT) ptx_fail_tok(p, t, "float initializer for .%s is not supported", ptx_type_names[c->type]);
        store_int(dst, neg ? 0 - t->ival : t->ival, size);
        return;
    }
    /* integer / bit types */
    if (t->kind == PTX_TOK_FLOAT) ptx_fail_tok(p, t, "float literal in initializer of integer type .%s", ptx_type_names[c->type]);
    uint64_t v = t->ival;
    if (t->kind == PTX_TOK_F64 && size < 8) ptx_fail_tok(p, t, "0d literal does not fit .%s", ptx_type_names[c->type]);
    if (neg) v = 0 - v;
    store_int(dst, v, size);
}

/* symbol [+ offset] or generic(symbol) [+ offset], at the current token */
static void parse_address_init(ptx_parser *p, ptx_symref *sym, int64_t *addend, bool *generic) {
    *generic = false;
    if (p->tok.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "symbol in address initializer");
    if (ptx_tok_is(&p->tok, "generic") && ptx_tok_punct(ptx_peek(p), '(')) {
        ptx_next(p);
        ptx_next(p);
        *generic = true;
        if (p->tok.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "symbol in generic()");
    }
    if (!ptx_lookup_global(p, p->tok.text, p->tok.len, sym))
        ptx_fail_tok(p, &p->tok, "undeclared symbol '%.*s'", (int)p->tok.len, p->tok.text);
    ptx_next(p);
    if (*generic) ptx_expect_punct(p, ')', "after generic(symbol");
    *addend = 0;
    if (ptx_tok_punct(&p->tok, '+') || ptx_tok_punct(&p->tok, '-')) {
        bool neg = p->tok.punct == '-';
        ptx_next(p);
        uint64_t v = (uint64_t)ptx_expect_int(p, "offset after symbol", true);
        *addend = (int64_t)(neg ? 0 - v : v); /* wraps like the address arithmetic it feeds */
    }
}

static void parse_init_elem(ptx_parser *p, init_ctx *c);

static void parse_init_list(ptx_parser *p, init_ctx *c) {
    if (c->depth == 32) ptx_fail_tok(p, &p->tok, "initializer nested too deeply");
    c->depth++;
    ptx_expect_punct(p, '{', "to open initializer list");
    if (!ptx_accept_punct(p, '}')) {
        for (;;) {
            parse_init_elem(p, c);
            if (ptx_accept_punct(p, '}')) break;
            ptx_expect_punct(p, ',', "or '}' in initializer list");
        }
    }
    c->depth--;
}

static void parse_init_elem(ptx_parser *p, init_ctx *c) {
    ptx_token t = p->tok;
    if (ptx_tok_punct(&t, '{')) {
        parse_init_list(p, c);
        return;
    }
    bool neg = false;
    if (ptx_tok_punct(&t, '-')) {
        neg = true;
        ptx_next(p);
        t = p->tok;
    }
    if (t.kind == PTX_TOK_INT && ptx_tok_punct(ptx_peek(p), '(') && !neg) {
        /* mask(address): one byte of an address, e.g. 0xFF00(generic(x)+4) is byte 1. */
        uint64_t mask = t.ival;
        int shift = -1;
        for (int k = 0; k < 8; k++)
            if (mask == (uint64_t)0xFF << (8 * k)) shift = k;
        if (shift < 0) ptx_fail_tok(p, &t, "unsupported initializer mask 0x%llx", (unsigned long long)mask);
        if (c->esize != 1) ptx_fail_tok(p, &t, "masked address initializer needs a byte-sized type");
        ptx_next(p);
        ptx_next(p);
        ptx_mask_byte *mb = PTX_PUSH(p, p->mask_bytes, p->nmask_bytes, p->mask_bytes_cap);
        p->nmask_bytes++;
        mb->offset = c->n;
        mb->shift = (uint8_t)shift;
        parse_address_init(p, &mb->sym, &mb->addend, &mb->generic);
        ptx_expect_punct(p, ')', "after masked address");
        init_slot(p, c, &t);
        return;
    }
    if (t.kind == PTX_TOK_INT || t.kind == PTX_TOK_FLOAT || t.kind == PTX_TOK_F32 || t.kind == PTX_TOK_F64) {
        uint8_t *slot = init_slot(p, c, &t);
        store_number(p, c, &t, neg, slot);
        ptx_next(p);
        return;
    }
    if (t.kind == PTX_TOK_IDENT && !neg) {
        if (c->esize != 4 && c->esize != 8) ptx_fail_tok(p, &t, "address initializer needs a 32- or 64-bit type");
        ptx_reloc r = {0};
        r.offset = (uint64_t)c->n * c->esize;
        r.size = (uint8_t)c->esize;
        parse_address_init(p, &r.sym, &r.addend, &r.generic);
        init_slot(p, c, &t);
        ptx_var *v = c->v;
        v->relocs = ptx_xrealloc(p, v->relocs, (size_t)(v->nrelocs + 1) * sizeof *v->relocs);
        v->relocs[v->nrelocs++] = r;
        return;
    }
    if (t.kind == PTX_TOK_STRING) ptx_fail_tok(p, &t, "string initializers are not supported");
    ptx_fail_expected(p, "initializer value");
}

static bool same_address(const ptx_mask_byte *a, const ptx_mask_byte *b) {
    return a->sym.scope == b->sym.scope && a->sym.index == b->sym.index && a->addend == b->addend &&
           a->generic == b->generic;
}

/* Turn runs of masked bytes (shift 0..7 of one address at consecutive offsets) into 8-byte
 * relocations; a run of 4 (shift 0..3) into a 4-byte one. */
static void fold_mask_bytes(ptx_parser *p, ptx_var *v, const ptx_token *at) {
    uint32_t i = 0;
    while (i < p->nmask_bytes) {
        const ptx_mask_byte *b = &p->mask_bytes[i];
        uint32_t run = 1;
        while (i + run < p->nmask_bytes && run < 8) {
            const ptx_mask_byte *n = &p->mask_bytes[i + run];
            if (n->offset != b->offset + run || n->shift != run || !same_address(b, n)) break;
            run++;
        }
        if (b->shift != 0 || (run != 8 && run != 4))
            ptx_fail_tok(p, at, "unsupported partial address in initializer of '%s'", v->name);
        ptx_reloc r = {.offset = b->offset, .sym = b->sym, .addend = b->addend, .generic = b->generic,
                       .size = (uint8_t)run};
        v->relocs = ptx_xrealloc(p, v->relocs, (size_t)(v->nrelocs + 1) * sizeof *v->relocs);
        v->relocs[v->nrelocs++] = r;
        i += run;
    }
    p->nmask_bytes = 0;
}

static void parse_initializer(ptx_parser *p, ptx_var *v, uint32_t vec) {
    ptx_token at = p->tok;
    init_ctx c = {.v = v, .type = v->type, .esize = ptx_type_sizes[v->type], .n = 0};
    c.max_elems = v->unsized ? UINT64_MAX : v->size / c.esize;
    p->init_len = 0;
    p->nmask_bytes = 0;
    if (ptx_tok_punct(&p->tok, '{')) parse_init_list(p, &c);
    else parse_init_elem(p, &c);
    if (v->unsized) {
        uint64_t unit = (uint64_t)c.esize * vec;
        v->size = (p->init_len + unit - 1) / unit * unit;
        v->unsized = false;
    }
    v->init = ptx_xrealloc(p, NULL, v->size);
    memset(v->init, 0, v->size);
    memcpy(v->init, p->init_buf, p->init_len);
    fold_mask_bytes(p, v, &at);
}

/* name [dims] [= init], with attributes already parsed */
static void parse_declarator(ptx_parser *p, ptx_var *v, const decl_attrs *a, bool allow_init) {
    if (p->tok.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "a name in declaration");
    v->name = ptx_xstrndup(p, p->tok.text, p->tok.len);
    v->loc.ptx_line = p->tok.line;
    v->loc.ptx_col = (uint16_t)(p->tok.col > 65535 ? 65535 : p->tok.col);
    ptx_next(p);
    uint32_t vec = a->vec ? a->vec : 1;
    v->type = a->type;
    v->ptr_space = a->ptr_space;
    v->ptr_align = a->ptr_align;
    uint64_t elem = (uint64_t)ptx_type_sizes[a->type] * vec;
    v->align = a->align ? a->align : (uint32_t)elem;
    uint64_t size = elem;
    bool first_dim = true;
    while (ptx_tok_punct(&p->tok, '[')) {
        ptx_token lb = p->tok;
        ptx_next(p);
        if (ptx_accept_punct(p, ']')) {
            if (!first_dim) ptx_fail_tok(p, &lb, "only the first dimension may be empty");
            v->unsized = true;
        } else {
            ptx_token nt = p->tok;
            int64_t n = ptx_expect_int(p, "array size", false);
            if (n <= 0) ptx_fail_tok(p, &nt, "array size must be positive");
            if ((uint64_t)n > (UINT64_MAX >> 1) / size) ptx_fail_tok(p, &nt, "array too large");
            size *= (uint64_t)n;
            ptx_expect_punct(p, ']', "after array size");
        }
        first_dim = false;
    }
    if (size > ((uint64_t)1 << 40)) ptx_fail_tok(p, &p->tok, "variable '%s' is too large", v->name);
    v->size = v->unsized ? 0 : size;
    if (v->unsized && size != elem) {
        /* "x[][3]": element is the inner row; the size comes from the initializer. */
        ptx_fail_tok(p, &p->tok, "unsized multi-dimensional arrays are not supported");
    }
    if (ptx_tok_punct(&p->tok, '=')) {
        if (!allow_init) ptx_fail_tok(p, &p->tok, "initializer not allowed here");
        ptx_next(p);
        parse_initializer(p, v, vec);
    }
}

void ptx_parse_var_decl(ptx_parser *p, ptx_var *v, bool allow_init) {
    decl_attrs a;
    parse_attrs(p, &a);
    if (a.managed) ptx_fail_tok(p, &p->tok, ".attribute(.managed) is only allowed on module variables");
    parse_declarator(p, v, &a, allow_init);
}

bool ptx_lookup_global(ptx_parser *p, const char *s, uint32_t len, ptx_symref *out) {
    const ptx_name_entry *e = ptx_names_find(&p->globals, s, len);
    if (!e || e->kind == PTX_NK_NONE) return false;
    out->scope = e->kind == PTX_NK_VAR ? PTX_SYM_MODULE_VAR : PTX_SYM_FUNC;
    out->index = e->value;
    return true;
}

/* ---- module variables ---- */

void ptx_parse_module_var(ptx_parser *p, bool is_extern, bool is_visible, bool is_weak) {
    uint8_t space = space_of(&p->tok);
    ptx_next(p);
    decl_attrs a;
    parse_attrs(p, &a);
    for (;;) {
        ptx_module *m = p->m;
        ptx_token name_tok = p->tok;
        ptx_var *v = PTX_PUSH(p, m->vars, m->nvars, p->vars_cap);
        m->nvars++;
        v->space = space;
        v->is_extern = is_extern;
        v->is_visible = is_visible;
        v->is_weak = is_weak;
        v->is_managed = a.managed;
        parse_declarator(p, v, &a, !is_extern);
        uint32_t idx = m->nvars - 1;
        ptx_name_entry *e = ptx_names_find(&p->globals, v->name, (uint32_t)strlen(v->name));
        if (e && e->kind == PTX_NK_FUNC)
            ptx_fail_tok(p, &name_tok, "duplicate declaration of '%s' (already a function)", v->name);
        if (e && e->kind == PTX_NK_VAR) {
            ptx_var *old = &m->vars[e->value];
            if (!old->is_extern && !v->is_extern)
                ptx_fail_tok(p, &name_tok, "duplicate declaration of variable '%s'", v->name);
            if (old->is_extern && !v->is_extern) {
                /* The definition replaces the earlier extern declaration in place, so
                 * references already made keep their index; the name string stays the
                 * one the name table points to. */
                char *keep = old->name;
                old->name = NULL;
                ptx_var_release(old);
                *old = *v;
                free(v->name);
                old->name = keep;
            } else {
                ptx_var_release(v);
            }
            m->nvars--;
        } else {
            e = ptx_names_insert(&p->globals, v->name, (uint32_t)strlen(v->name));
            if (!e) ptx_fail_tok(p, &name_tok, "out of memory");
            e->kind = PTX_NK_VAR;
            e->value = (int32_t)idx;
        }
        if (!ptx_accept_punct(p, ',')) break;
    }
    ptx_expect_punct(p, ';', "after variable declaration");
}

/* ---- functions ---- */

static void reset_function_state(ptx_parser *p) {
    p->params_cap = p->rets_cap = p->regs_cap = p->locals_cap = 0;
    p->labels_cap = p->insns_cap = p->vec_cap = 0;
    ptx_names_clear(&p->scope);
    ptx_names_clear(&p->labels);
    p->depth = 0;
    p->nshadows = 0;
    p->ntargets = 0;
    p->loc_file = 0;
    p->loc_line = 0;
    p->loc_call_file = 0;
    p->loc_call_line = 0;
}

static void bind_param(ptx_parser *p, const ptx_var *v, uint8_t kind, int32_t index) {
    ptx_name_entry *e = ptx_names_insert(&p->scope, v->name, (uint32_t)strlen(v->name));
    if (!e) ptx_fail(p, v->loc.ptx_line, v->loc.ptx_col, "out of memory");
    if (e->kind != PTX_NK_NONE) ptx_fail(p, v->loc.ptx_line, v->loc.ptx_col, "duplicate parameter '%s'", v->name);
    e->kind = kind;
    e->value = index;
    e->depth = 0;
}

/* ( .param ... , .param ... ) into params (is_ret false) or rets */
static void parse_param_list(ptx_parser *p, bool is_ret) {
    ptx_expect_punct(p, '(', "to open parameter list");
    if (ptx_accept_punct(p, ')')) return;
    for (;;) {
        ptx_func *f = ptx_cur_func(p);
        ptx_token at = p->tok;
        if (ptx_tok_is(&p->tok, ".reg"))
            ptx_fail_tok(p, &at, ".reg parameters are not supported");
        if (!ptx_tok_is(&p->tok, ".param")) ptx_fail_expected(p, ".param in parameter list");
        ptx_next(p);
        ptx_var *v;
        int32_t index;
        if (is_ret) {
            v = PTX_PUSH(p, f->rets, f->nrets, p->rets_cap);
            index = (int32_t)f->nrets++;
        } else {
            v = PTX_PUSH(p, f->params, f->nparams, p->params_cap);
            index = (int32_t)f->nparams++;
        }
        v->space = PTX_SPACE_PARAM;
        ptx_parse_var_decl(p, v, false);
        if (v->unsized) ptx_fail(p, v->loc.ptx_line, v->loc.ptx_col, "parameter '%s' has no size", v->name);
        bind_param(p, v, is_ret ? PTX_NK_RET : PTX_NK_PARAM, index);
        if (ptx_accept_punct(p, ')')) return;
        ptx_expect_punct(p, ',', "or ')' in parameter list");
    }
}

/* .maxntid x[, y[, z]] and the like: up to n integers into out[] */
static void parse_dims(ptx_parser *p, uint32_t *out, int n, const char *what) {
    ptx_next(p);
    for (int i = 0; i < n; i++) {
        ptx_token t = p->tok;
        int64_t v = ptx_expect_int(p, what, false);
        if (v > UINT32_MAX) ptx_fail_tok(p, &t, "value out of range in %s", what);
        out[i] = (uint32_t)v;
        if (i + 1 < n && !ptx_accept_punct(p, ',')) break;
    }
}

static void parse_func_attributes(ptx_parser *p) {
    for (;;) {
        ptx_func *f = ptx_cur_func(p);
        ptx_token *t = &p->tok;
        if (t->kind != PTX_TOK_DOTWORD) return;
        if (ptx_tok_is(t, ".noreturn")) { f->noreturn = true; ptx_next(p); }
        else if (ptx_tok_is(t, ".maxntid")) parse_dims(p, f->maxntid, 3, ".maxntid");
        else if (ptx_tok_is(t, ".reqntid")) parse_dims(p, f->reqntid, 3, ".reqntid");
        else if (ptx_tok_is(t, ".minnctapersm")) parse_dims(p, &f->minnctapersm, 1, ".minnctapersm");
        else if (ptx_tok_is(t, ".maxnctapersm")) { uint32_t ignored; parse_dims(p, &ignored, 1, ".maxnctapersm"); }
        else if (ptx_tok_is(t, ".maxnreg")) parse_dims(p, &f->maxnreg, 1, ".maxnreg");
        else if (ptx_tok_is(t, ".maxclusterrank")) parse_dims(p, &f->maxclusterrank, 1, ".maxclusterrank");
        else if (ptx_tok_is(t, ".reqnctapercluster")) parse_dims(p, f->reqnctapercluster, 3, ".reqnctapercluster");
        else if (ptx_tok_is(t, ".explicitcluster")) { f->explicitcluster = true; ptx_next(p); }
        else if (ptx_tok_is(t, ".pragma")) ptx_parse_pragma(p);
        else return;
    }
}

/* A function may be declared several times and defined once; the name table entry's
 * depth field records whether its body has been parsed (1) or not (0). */
void ptx_parse_function(ptx_parser *p, bool is_extern, bool is_visible, bool is_weak) {
    ptx_module *m = p->m;
    ptx_token start = p->tok;
    bool is_entry = ptx_tok_is(&start, ".entry");
    ptx_next(p);
    ptx_func *f = PTX_PUSH(p, m->funcs, m->nfuncs, p->funcs_cap);
    m->nfuncs++;
    p->fi = (int32_t)m->nfuncs - 1;
    reset_function_state(p);
    f->is_entry = is_entry;
    f->is_extern = is_extern;
    f->is_visible = is_visible;
    f->is_weak = is_weak;
    f->loc.ptx_line = start.line;
    f->loc.ptx_col = (uint16_t)(start.col > 65535 ? 65535 : start.col);
    if (ptx_tok_punct(&p->tok, '(')) {
        if (is_entry) ptx_fail_tok(p, &p->tok, "an .entry has no return parameters");
        parse_param_list(p, true);
    }
    if (p->tok.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "function name");
    ptx_token name_tok = p->tok;
    f = ptx_cur_func(p);
    f->name = ptx_xstrndup(p, p->tok.text, p->tok.len);
    ptx_next(p);
    if (ptx_tok_punct(&p->tok, '(')) parse_param_list(p, false);
    parse_func_attributes(p);
    bool has_body = ptx_tok_punct(&p->tok, '{');
    if (!has_body && !ptx_tok_punct(&p->tok, ';')) ptx_fail_expected(p, "'{' or ';' after function header");

    f = ptx_cur_func(p);
    ptx_name_entry *e = ptx_names_find(&p->globals, f->name, (uint32_t)strlen(f->name));
    if (e && e->kind == PTX_NK_VAR)
        ptx_fail_tok(p, &name_tok, "duplicate declaration of '%s' (already a variable)", f->name);
    if (e && e->kind == PTX_NK_FUNC) {
        ptx_func *old = &m->funcs[e->value];
        bool old_defined = e->depth != 0;
        if (old->is_entry != f->is_entry)
            ptx_fail_tok(p, &name_tok, "'%s' redeclared as a different kind of function", f->name);
        if (old_defined && has_body) ptx_fail_tok(p, &name_tok, "duplicate definition of function '%s'", f->name);
        if (old->nparams != f->nparams || old->nrets != f->nrets)
            ptx_fail_tok(p, &name_tok, "conflicting declarations of function '%s'", f->name);
        if (has_body) {
            /* The definition takes the declaration's slot (calls already parsed refer to
             * it); the declaration's name string stays, the name table points to it. */
            char *keep = old->name;
            bool vis = old->is_visible || f->is_visible, weak = old->is_weak || f->is_weak;
            old->name = NULL;
            ptx_func_release(old);
            free(f->name);
            *old = *f;
            old->name = keep;
            old->is_visible = vis;
            old->is_weak = weak;
            old->is_extern = false;
            m->nfuncs--;
            p->fi = e->value;
            e->depth = 1;
        } else {
            ptx_func_release(f);
            m->nfuncs--;
            p->fi = -1;
            ptx_next(p);
            return;
        }
    } else {
        e = ptx_names_insert(&p->globals, f->name, (uint32_t)strlen(f->name));
        if (!e) ptx_fail_tok(p, &name_tok, "out of memory");
        e->kind = PTX_NK_FUNC;
        e->value = p->fi;
        e->depth = has_body ? 1 : 0;
    }
    if (has_body) {
        if (is_extern) ptx_fail_tok(p, &name_tok, "an .extern function cannot have a body");
        ptx_parse_body(p);
    } else {
        ptx_next(p);
    }
    p->fi = -1;
}
