/* ptx/parser_body.c — function bodies: nested { } scopes (a name declared in an inner
 * scope hides an outer one until the scope closes; callseq blocks redeclare the same
 * .param and .reg names, each declaration getting its own function-unique index),
 * register declarations (%r<7> ranges), .local/.shared/.param variables, labels with
 * .branchtargets / .callprototype / .calltargets, .loc and .pragma, guards, and the
 * checks made when the body closes (every label used is defined). */
#include "parser_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t ptx_lookup_scope(ptx_parser *p, const char *s, uint32_t len, int32_t *value) {
    const ptx_name_entry *e = ptx_names_find(&p->scope, s, len);
    if (!e || e->kind == PTX_NK_NONE) return PTX_NK_NONE;
    *value = e->value;
    return e->kind;
}

/* Bind name (stable storage) in the current scope; an outer binding is remembered and
 * restored when the scope closes. */
static void declare_scoped(ptx_parser *p, const char *name, uint8_t kind, int32_t value, const ptx_token *at) {
    uint32_t len = (uint32_t)strlen(name);
    ptx_name_entry *e = ptx_names_insert(&p->scope, name, len);
    if (!e) ptx_fail_tok(p, at, "out of memory");
    if (e->kind != PTX_NK_NONE && e->depth == p->depth)
        ptx_fail_tok(p, at, "duplicate declaration of '%s'", name);
    if (p->depth > 1) {
        ptx_shadow *s = PTX_PUSH(p, p->shadows, p->nshadows, p->shadows_cap);
        p->nshadows++;
        *s = (ptx_shadow){.key = name, .len = len, .scope = p->depth, .kind = e->kind, .value = e->value,
                          .depth = e->depth};
    }
    e->kind = kind;
    e->value = value;
    e->depth = p->depth;
}

static void close_scope(ptx_parser *p) {
    while (p->nshadows > 0 && p->shadows[p->nshadows - 1].scope == p->depth) {
        ptx_shadow *s = &p->shadows[--p->nshadows];
        ptx_name_entry *e = ptx_names_find(s->label ? &p->labels : &p->scope, s->key, s->len);
        if (e) {
            e->kind = s->kind;
            e->value = s->value;
            e->depth = s->depth;
        }
    }
    p->depth--;
}

static ptx_reg *new_reg(ptx_parser *p, uint8_t type) {
    ptx_func *f = ptx_cur_func(p);
    ptx_reg *r = PTX_PUSH(p, f->regs, f->nregs, p->regs_cap);
    f->nregs++;
    r->type = type;
    return r;
}

/* .reg [.v2|.v4] .type name[<N>] {, name[<N>]} ; */
static void parse_reg_decl(ptx_parser *p) {
    ptx_next(p);
    if (ptx_tok_is(&p->tok, ".v2") || ptx_tok_is(&p->tok, ".v4") || ptx_tok_is(&p->tok, ".v8"))
        ptx_fail_tok(p, &p->tok, "vector registers are not supported");
    ptx_type ty = ptx_tok_type(p, &p->tok);
    if (ty == PTX_T_NONE) ptx_fail_expected(p, "a type after .reg");
    ptx_next(p);
    for (;;) {
        ptx_token name = p->tok;
        if (name.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "a register name");
        ptx_next(p);
        if (ptx_tok_punct(&p->tok, '<')) {
            ptx_next(p);
            ptx_token nt = p->tok;
            int64_t n = ptx_expect_int(p, "register count", false);
            if (n > (1 << 24)) ptx_fail_tok(p, &nt, "too many registers");
            ptx_expect_punct(p, '>', "after register count");
            for (int64_t i = 0; i < n; i++) {
                char buf[32];
                int k = snprintf(buf, sizeof buf, "%lld", (long long)i);
                ptx_reg *r = new_reg(p, (uint8_t)ty);
                int32_t idx = (int32_t)ptx_cur_func(p)->nregs - 1;
                r->name = ptx_xrealloc(p, NULL, name.len + (size_t)k + 1);
                memcpy(r->name, name.text, name.len);
                memcpy(r->name + name.len, buf, (size_t)k + 1);
                declare_scoped(p, r->name, PTX_NK_REG, idx, &name);
            }
        } else {
            ptx_reg *r = new_reg(p, (uint8_t)ty);
            int32_t idx = (int32_t)ptx_cur_func(p)->nregs - 1;
            r->name = ptx_xstrndup(p, name.text, name.len);
            declare_scoped(p, r->name, PTX_NK_REG, idx, &name);
        }
        if (!ptx_accept_punct(p, ',')) break;
    }
    ptx_expect_punct(p, ';', "after register declaration");
}

/* .local / .shared / .param declared in the body */
static void parse_local_decl(ptx_parser *p, uint8_t space) {
    ptx_next(p);
    ptx_func *f = ptx_cur_func(p);
    ptx_var *v = PTX_PUSH(p, f->locals, f->nlocals, p->locals_cap);
    f->nlocals++;
    v->space = space;
    ptx_parse_var_decl(p, v, false);
    ptx_token at = {.line = v->loc.ptx_line, .col = v->loc.ptx_col};
    if (v->unsized && space != PTX_SPACE_SHARED)
        ptx_fail_tok(p, &at, "variable '%s' has no size", v->name);
    declare_scoped(p, v->name, PTX_NK_LOCAL, (int32_t)f->nlocals - 1, &at);
    ptx_expect_punct(p, ';', "after variable declaration");
}

int32_t ptx_label_ref(ptx_parser *p, const char *s, uint32_t len, uint32_t line, uint32_t col) {
    ptx_name_entry *e = ptx_names_find(&p->labels, s, len);
    if (e && e->kind) return e->value;
    ptx_func *f = ptx_cur_func(p);
    ptx_label *l = PTX_PUSH(p, f->labels, f->nlabels, p->labels_cap);
    l->insn = -1;
    l->name = ptx_xstrndup(p, s, len);
    uint32_t idx = f->nlabels++;
    ptx_label_info *li = PTX_PUSH(p, p->label_info, idx, p->label_info_cap);
    li->ref_line = line;
    li->ref_col = col;
    li->targets_first = -1;
    e = ptx_names_insert(&p->labels, l->name, len);
    if (!e) ptx_fail(p, line, col, "out of memory");
    e->kind = 1;
    e->value = (int32_t)idx;
    return (int32_t)idx;
}

static void skip_to_semicolon(ptx_parser *p, const ptx_token *start) {
    while (!ptx_tok_punct(&p->tok, ';')) {
        if (p->tok.kind == PTX_TOK_EOF) ptx_fail_tok(p, start, "unterminated declaration (missing ';')");
        ptx_next(p);
    }
    ptx_next(p);
}

/* name: [.branchtargets l1, l2, ...; | .callprototype ...; | .calltargets f1, ...;] */
static void parse_label(ptx_parser *p) {
    ptx_token name = p->tok;
    ptx_next(p); /* name */
    ptx_next(p); /* ':' */
    /* A label defined in a { } block is local to it (inline assembly such as a wait loop
     * is often pasted several times into one function): it hides a label of the same name
     * defined outside, and its name is free again once the block closes. */
    if (p->depth > 1) {
        ptx_name_entry *e = ptx_names_find(&p->labels, name.text, name.len);
        ptx_shadow sh = {.key = NULL, .len = name.len, .scope = p->depth, .kind = 0, .value = -1,
                         .depth = 0, .label = true};
        if (e && e->kind && p->label_info[e->value].defined && e->depth < p->depth) {
            sh.key = e->key;
            sh.kind = e->kind;
            sh.value = e->value;
            sh.depth = e->depth;
            e->kind = 0; /* the definition below makes a new label */
        }
        int32_t idx = ptx_label_ref(p, name.text, name.len, name.line, name.col);
        if (!sh.key) sh.key = ptx_cur_func(p)->labels[idx].name;
        ptx_shadow *s = PTX_PUSH(p, p->shadows, p->nshadows, p->shadows_cap);
        p->nshadows++;
        *s = sh;
    }
    int32_t idx = ptx_label_ref(p, name.text, name.len, name.line, name.col);
    ptx_label_info *li = &p->label_info[idx];
    if (li->defined) ptx_fail_tok(p, &name, "duplicate label '%.*s'", (int)name.len, name.text);
    li->defined = true;
    ptx_names_find(&p->labels, name.text, name.len)->depth = p->depth;
    ptx_func *f = ptx_cur_func(p);
    f->labels[idx].insn = (int32_t)f->ninsns;
    if (ptx_tok_is(&p->tok, ".branchtargets")) {
        ptx_next(p);
        uint32_t first = p->ntargets;
        for (;;) {
            if (p->tok.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "a label in .branchtargets");
            int32_t t = ptx_label_ref(p, p->tok.text, p->tok.len, p->tok.line, p->tok.col);
            int32_t *slot = PTX_PUSH(p, p->targets, p->ntargets, p->targets_cap);
            *slot = t;
            p->ntargets++;
            ptx_next(p);
            if (!ptx_accept_punct(p, ',')) break;
        }
        ptx_expect_punct(p, ';', "after .branchtargets list");
        li = &p->label_info[idx];
        li->targets_first = (int32_t)first;
        li->ntargets = p->ntargets - first;
    } else if (ptx_tok_is(&p->tok, ".callprototype") || ptx_tok_is(&p->tok, ".calltargets")) {
        /* A prototype only names the signature of an indirect call; the call passes its
         * arguments through .param variables, so nothing here needs keeping. */
        ptx_token start = p->tok;
        skip_to_semicolon(p, &start);
    }
}

static void parse_statement_insn(ptx_parser *p) {
    ptx_func *f = ptx_cur_func(p);
    ptx_token first = p->tok;
    ptx_insn *in = PTX_PUSH(p, f->insns, f->ninsns, p->insns_cap);
    f->ninsns++;
    in->guard = -1;
    in->reconv = -1;
    in->loc.ptx_line = first.line;
    in->loc.ptx_col = (uint16_t)(first.col > 65535 ? 65535 : first.col);
    in->loc.file = p->loc_file;
    in->loc.line = p->loc_line;
    in->loc.call_file = p->loc_call_file;
    in->loc.call_line = p->loc_call_line;
    if (ptx_tok_punct(&first, '@')) {
        ptx_next(p);
        if (ptx_accept_punct(p, '!')) in->guard_neg = true;
        ptx_token g = p->tok;
        if (g.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "a predicate register after '@'");
        int32_t reg;
        if (ptx_lookup_scope(p, g.text, g.len, &reg) != PTX_NK_REG)
            ptx_fail_tok(p, &g, "undeclared register '%.*s'", (int)g.len, g.text);
        if (f->regs[reg].type != PTX_T_pred)
            ptx_fail_tok(p, &g, "guard '%.*s' is not a .pred register", (int)g.len, g.text);
        in->guard = reg;
        ptx_next(p);
        if (p->tok.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "an instruction after the guard");
    }
    ptx_parse_insn(p, in);
}

static void finish_body(ptx_parser *p) {
    ptx_func *f = ptx_cur_func(p);
    for (uint32_t i = 0; i < f->nlabels; i++) {
        const ptx_label_info *li = &p->label_info[i];
        if (!li->defined) ptx_fail(p, li->ref_line, li->ref_col, "undeclared label '%s'", f->labels[i].name);
    }
    /* Give back the slack of the growable arrays. */
    if (f->ninsns) f->insns = ptx_xrealloc(p, f->insns, (size_t)f->ninsns * sizeof *f->insns);
    char msg[256];
    if (!ptx_cfg_build(f, msg, sizeof msg))
        ptx_fail(p, f->loc.ptx_line, f->loc.ptx_col, "%s", msg);
}

void ptx_parse_body(ptx_parser *p) {
    ptx_token open = p->tok;
    ptx_next(p);
    p->depth = 1;
    for (;;) {
        ptx_token *t = &p->tok;
        switch (t->kind) {
        case PTX_TOK_EOF:
            ptx_fail_tok(p, t, "unterminated block: missing '}' for function '%s' (body opened at line %u)",
                         ptx_cur_func(p)->name, open.line);
        case PTX_TOK_PUNCT:
            if (t->punct == '}') {
                if (p->depth == 1) {
                    finish_body(p);
                    p->depth = 0;
                    ptx_next(p);
                    return;
                }
                close_scope(p);
                ptx_next(p);
            } else if (t->punct == '{') {
                p->depth++;
                ptx_next(p);
            } else if (t->punct == '@') {
                parse_statement_insn(p);
            } else {
                char buf[64];
                ptx_fail_tok(p, t, "expected an instruction, found %s", ptx_tok_desc(t, buf, sizeof buf));
            }
            break;
        case PTX_TOK_IDENT:
            if (ptx_tok_punct(ptx_peek(p), ':')) parse_label(p);
            else parse_statement_insn(p);
            break;
        case PTX_TOK_DOTWORD:
            if (ptx_tok_is(t, ".reg")) parse_reg_decl(p);
            else if (ptx_tok_is(t, ".local")) parse_local_decl(p, PTX_SPACE_LOCAL);
            else if (ptx_tok_is(t, ".shared")) parse_local_decl(p, PTX_SPACE_SHARED);
            else if (ptx_tok_is(t, ".param")) parse_local_decl(p, PTX_SPACE_PARAM);
            else if (ptx_tok_is(t, ".loc")) ptx_parse_loc(p);
            else if (ptx_tok_is(t, ".pragma")) ptx_parse_pragma(p);
            else ptx_fail_tok(p, t, "unsupported directive '%.*s' in function body", (int)t->len, t->text);
            break;
        default: {
            char buf[64];
            ptx_fail_tok(p, t, "expected an instruction, found %s", ptx_tok_desc(t, buf, sizeof buf));
        }
        }
    }
}
