/* ptx/parser_insn.c — one instruction: "op.mod.type ... operands;" split into the base
 * opcode, type modifiers and other modifiers (in source order), and its operands:
 * registers, "%p|%q" pairs, "!%p", special registers, immediates, symbols with offsets,
 * [addresses], {vectors}, (call lists), labels and the sink '_'.
 *
 * Call forms become operands in source order: an optional LIST of return parameters, the
 * callee (SYM of a function, or REG for an indirect call), an optional LIST of arguments
 * and, for indirect calls, an optional LABEL naming the .callprototype.
 * brx.idx's second operand, a label declared with .branchtargets, becomes a LIST of
 * LABEL operands (the table's targets in order).
 * Texture and surface addresses [handle, {coords}] / [handle, sampler, {coords}] become
 * an ADDR operand for the handle followed by the other parts as operands.
 */
#include "parser_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- special registers ---- */

typedef struct sreg_name {
    const char *name;
    uint8_t id;
    bool xyz;     /* takes a .x/.y/.z suffix: id is the .x one */
} sreg_name;

static const sreg_name sreg_names[] = {
    {"%tid", PTX_SREG_TID_X, true},       {"%ntid", PTX_SREG_NTID_X, true},
    {"%ctaid", PTX_SREG_CTAID_X, true},   {"%nctaid", PTX_SREG_NCTAID_X, true},
    {"%laneid", PTX_SREG_LANEID, false},  {"%warpid", PTX_SREG_WARPID, false},
    {"%nwarpid", PTX_SREG_NWARPID, false}, {"%smid", PTX_SREG_SMID, false},
    {"%nsmid", PTX_SREG_NSMID, false},    {"%gridid", PTX_SREG_GRIDID, false},
    {"%lanemask_eq", PTX_SREG_LANEMASK_EQ, false}, {"%lanemask_le", PTX_SREG_LANEMASK_LE, false},
    {"%lanemask_lt", PTX_SREG_LANEMASK_LT, false}, {"%lanemask_ge", PTX_SREG_LANEMASK_GE, false},
    {"%lanemask_gt", PTX_SREG_LANEMASK_GT, false}, {"%clock", PTX_SREG_CLOCK, false},
    {"%clock_hi", PTX_SREG_CLOCK_HI, false}, {"%clock64", PTX_SREG_CLOCK64, false},
    {"%globaltimer", PTX_SREG_GLOBALTIMER, false}, {"%globaltimer_lo", PTX_SREG_GLOBALTIMER_LO, false},
    {"%globaltimer_hi", PTX_SREG_GLOBALTIMER_HI, false},
    {"%dynamic_smem_size", PTX_SREG_DYNAMIC_SMEM_SIZE, false},
    {"%total_smem_size", PTX_SREG_TOTAL_SMEM_SIZE, false},
    {"%clusterid", PTX_SREG_CLUSTERID_X, true},      {"%nclusterid", PTX_SREG_NCLUSTERID_X, true},
    {"%cluster_ctaid", PTX_SREG_CLUSTER_CTAID_X, true}, {"%cluster_nctaid", PTX_SREG_CLUSTER_NCTAID_X, true},
    {"%cluster_ctarank", PTX_SREG_CLUSTER_CTARANK, false},
    {"%cluster_nctarank", PTX_SREG_CLUSTER_NCTARANK, false},
    {"%is_explicit_cluster", PTX_SREG_IS_EXPLICIT_CLUSTER, false},
    {"%aggr_smem_size", PTX_SREG_AGGR_SMEM_SIZE, false},
    {"%reserved_smem_offset_begin", PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN, false},
    {"%reserved_smem_offset_end", PTX_SREG_RESERVED_SMEM_OFFSET_END, false},
    {"%reserved_smem_offset_cap", PTX_SREG_RESERVED_SMEM_OFFSET_CAP, false},
    {"%reserved_smem_offset_0", PTX_SREG_RESERVED_SMEM_OFFSET_0, false},
    {"%reserved_smem_offset_1", PTX_SREG_RESERVED_SMEM_OFFSET_1, false},
    {"%current_graph_exec", PTX_SREG_CURRENT_GRAPH_EXEC, false},
};

/* Special register named by token t (and a following .x/.y/.z); -1 when t is not one. */
static int parse_sreg(ptx_parser *p, const ptx_token *t) {
    if (t->len < 2 || t->text[0] != '%') return -1;
    if (t->len > 7 && memcmp(t->text, "%envreg", 7) == 0) {
        uint32_t n = 0, i = 7;
        for (; i < t->len && i < 10 && t->text[i] >= '0' && t->text[i] <= '9'; i++) n = n * 10 + (uint32_t)(t->text[i] - '0');
        if (i == t->len && n < 32 && !(t->len > 8 && t->text[7] == '0')) {
            ptx_next(p);
            return PTX_SREG_ENVREG0 + (int)n;
        }
        return -1;
    }
    for (size_t k = 0; k < sizeof sreg_names / sizeof sreg_names[0]; k++) {
        const sreg_name *s = &sreg_names[k];
        if (!ptx_tok_is(t, s->name)) continue;
        ptx_next(p);
        if (!s->xyz) return s->id;
        const ptx_token *d = &p->tok;
        int off = ptx_tok_is(d, ".x") ? 0 : ptx_tok_is(d, ".y") ? 1 : ptx_tok_is(d, ".z") ? 2 : -1;
        if (off < 0) ptx_fail_tok(p, t, "special register '%s' needs a .x, .y or .z suffix", s->name);
        ptx_next(p);
        return s->id + off;
    }
    return -1;
}

/* ---- operands ---- */

enum { OPND_PLAIN, OPND_LABEL, OPND_CALL };

static void init_operand(ptx_operand *o) {
    memset(o, 0, sizeof *o);
    o->reg = o->reg2 = -1;
    o->sym.index = -1;
    o->label = -1;
}

/* [+|-] integer offset after a symbol or inside brackets */
static int64_t parse_offset(ptx_parser *p) {
    if (ptx_tok_punct(&p->tok, '+')) {
        ptx_next(p);
        return ptx_expect_int(p, "offset", true);
    }
    if (ptx_tok_punct(&p->tok, '-')) {
        ptx_next(p);
        return -ptx_expect_int(p, "offset", false);
    }
    return 0;
}

/* Resolve a name used as an operand: register, function-local symbol, module symbol. */
static bool resolve_name(ptx_parser *p, const ptx_token *t, ptx_operand *o) {
    int32_t v;
    switch (ptx_lookup_scope(p, t->text, t->len, &v)) {
    case PTX_NK_REG: o->kind = PTX_OPND_REG; o->reg = v; return true;
    case PTX_NK_LOCAL: o->kind = PTX_OPND_SYM; o->sym.scope = PTX_SYM_LOCAL_VAR; o->sym.index = v; return true;
    case PTX_NK_PARAM: o->kind = PTX_OPND_SYM; o->sym.scope = PTX_SYM_PARAM; o->sym.index = v; return true;
    case PTX_NK_RET: o->kind = PTX_OPND_SYM; o->sym.scope = PTX_SYM_RETPARAM; o->sym.index = v; return true;
    default: break;
    }
    if (ptx_lookup_global(p, t->text, t->len, &o->sym)) {
        o->kind = PTX_OPND_SYM;
        return true;
    }
    return false;
}

_Noreturn static void fail_undeclared(ptx_parser *p, const ptx_token *t) {
    const char *what = t->text[0] == '%' ? "register" : "symbol";
    ptx_fail_tok(p, t, "undeclared %s '%.*s'", what, (int)t->len, t->text);
}

static void parse_operand(ptx_parser *p, ptx_insn *in, ptx_operand *o, int ctx, bool in_group);
static bool is_video_op(unsigned op);
static void parse_selector(ptx_parser *p, ptx_operand *o);

/* [base], [base+off], [base+-off], [number]; and the texture/surface form
 * [handle, {coords}] or [handle, sampler, {coords}], whose parts after the handle become
 * further operands of the instruction. */
static void parse_address(ptx_parser *p, ptx_insn *in, ptx_operand *o) {
    ptx_next(p); /* '[' */
    o->kind = PTX_OPND_ADDR;
    ptx_token t = p->tok;
    if (t.kind == PTX_TOK_IDENT) {
        ptx_operand base;
        init_operand(&base);
        if (!resolve_name(p, &t, &base)) {
            if (parse_sreg(p, &t) >= 0) ptx_fail_tok(p, &t, "special register '%.*s' cannot be an address", (int)t.len, t.text);
            fail_undeclared(p, &t);
        }
        ptx_next(p);
        o->reg = base.reg;
        o->sym = base.sym;
        o->ival = parse_offset(p);
    } else if (t.kind == PTX_TOK_INT) {
        ptx_next(p);
        o->ival = (int64_t)(t.ival + (uint64_t)parse_offset(p)); /* wraps, as addresses do */
    } else {
        ptx_fail_expected(p, "a register, symbol or number in address");
    }
    while (ptx_tok_punct(&p->tok, ',') && (in->op == PTX_OP_tex || in->op == PTX_OP_tld4 ||
                                           in->op == PTX_OP_cp || in->op == PTX_OP_prefetch ||
                                           in->op == PTX_OP_suld || in->op == PTX_OP_sust ||
                                           in->op == PTX_OP_sured)) {
        ptx_next(p);
        if (in->nopnds == PTX_MAX_OPNDS) ptx_fail_tok(p, &p->tok, "too many operands");
        ptx_operand *extra = &in->opnd[in->nopnds++];
        if (ptx_tok_punct(&p->tok, '[')) ptx_fail_tok(p, &p->tok, "nested address");
        parse_operand(p, in, extra, OPND_PLAIN, false);
    }
    ptx_expect_punct(p, ']', "to close address");
}

/* {a, b, ...} (vec) or (a, b, ...) (call list); elements go to the function's vec_elems */
static void parse_group(ptx_parser *p, ptx_insn *in, ptx_operand *o, int ctx) {
    bool is_list = ptx_tok_punct(&p->tok, '(');
    char close = is_list ? ')' : '}';
    ptx_func *f = ptx_cur_func(p);
    o->kind = is_list ? PTX_OPND_LIST : PTX_OPND_VEC;
    o->vec_first = f->nvec_elems;
    o->vec_n = 0;
    ptx_next(p);
    if (ptx_accept_punct(p, close)) {
        if (!is_list) ptx_fail_tok(p, &p->tok, "empty vector operand");
        return;
    }
    for (;;) {
        ptx_operand e;
        parse_operand(p, in, &e, ctx, true);
        f = ptx_cur_func(p);
        ptx_operand *slot = PTX_PUSH(p, f->vec_elems, f->nvec_elems, p->vec_cap);
        *slot = e;
        f->nvec_elems++;
        o->vec_n++;
        if (ptx_accept_punct(p, close)) return;
        char ctxt[32];
        snprintf(ctxt, sizeof ctxt, "or '%c' in operand list", close);
        ptx_expect_punct(p, ',', ctxt);
    }
}

static void parse_immediate(ptx_parser *p, ptx_operand *o, bool neg) {
    const ptx_token *t = &p->tok;
    switch (t->kind) {
    case PTX_TOK_INT:
        o->kind = PTX_OPND_IMM_INT;
        o->ival = neg ? (int64_t)(0 - t->ival) : (int64_t)t->ival;
        break;
    case PTX_TOK_F32:
        o->kind = PTX_OPND_IMM_F32;
        o->ival = (int64_t)(neg ? t->ival ^ 0x80000000u : t->ival);
        o->fval = neg ? -t->fval : t->fval;
        break;
    case PTX_TOK_F64:
    case PTX_TOK_FLOAT: {
        o->kind = PTX_OPND_IMM_F64;
        o->fval = neg ? -t->fval : t->fval;
        uint64_t bits;
        memcpy(&bits, &o->fval, 8);
        o->ival = (int64_t)bits;
        break;
    }
    default:
        ptx_fail_expected(p, "a number");
    }
    ptx_next(p);
}

/* The "|%q" of a "d|%q" destination pair (d a register or the sink '_'). */
static void parse_pair_pred(ptx_parser *p, ptx_operand *o) {
    ptx_next(p); /* '|' */
    ptx_token t2 = p->tok;
    int32_t r2;
    if (t2.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "a predicate register after '|'");
    if (ptx_lookup_scope(p, t2.text, t2.len, &r2) != PTX_NK_REG)
        ptx_fail_tok(p, &t2, "undeclared register '%.*s'", (int)t2.len, t2.text);
    if (ptx_cur_func(p)->regs[r2].type != PTX_T_pred)
        ptx_fail_tok(p, &t2, "'%.*s' is not a .pred register", (int)t2.len, t2.text);
    o->reg2 = r2;
    ptx_next(p);
}

static void parse_operand(ptx_parser *p, ptx_insn *in, ptx_operand *o, int ctx, bool in_group) {
    init_operand(o);
    ptx_token t = p->tok;
    if (ptx_tok_punct(&t, '[')) {
        if (in_group) ptx_fail_tok(p, &t, "address inside a vector operand");
        parse_address(p, in, o);
        return;
    }
    if (ptx_tok_punct(&t, '{') || ptx_tok_punct(&t, '(')) {
        if (in_group) ptx_fail_tok(p, &t, "nested operand list");
        if (ptx_tok_punct(&t, '(') && ctx != OPND_CALL) ptx_fail_tok(p, &t, "unexpected '(' in operands");
        parse_group(p, in, o, ctx);
        return;
    }
    bool neg = false, not = false;
    if (ptx_tok_punct(&t, '!')) not = true;
    else if (ptx_tok_punct(&t, '-')) neg = true;
    if (neg || not) {
        ptx_next(p);
        t = p->tok;
    }
    if (t.kind == PTX_TOK_INT || t.kind == PTX_TOK_F32 || t.kind == PTX_TOK_F64 || t.kind == PTX_TOK_FLOAT) {
        if (not) ptx_fail_tok(p, &t, "'!' applies to predicates only");
        parse_immediate(p, o, neg);
        return;
    }
    if (t.kind != PTX_TOK_IDENT) ptx_fail_expected(p, "an operand");
    if (ptx_tok_is(&t, "_")) {
        if (neg || not) ptx_fail_tok(p, &t, "'_' cannot be negated");
        o->kind = PTX_OPND_SINK;
        ptx_next(p);
        if (ptx_tok_punct(&p->tok, '|')) parse_pair_pred(p, o); /* elect.sync _|%p, m */
        return;
    }
    o->neg = neg || not;
    if (ctx == OPND_LABEL) {
        o->kind = PTX_OPND_LABEL;
        o->label = ptx_label_ref(p, t.text, t.len, t.line, t.col);
        ptx_next(p);
        return;
    }
    if (resolve_name(p, &t, o)) {
        ptx_next(p);
        if (o->kind == PTX_OPND_REG) {
            ptx_func *f = ptx_cur_func(p);
            if (not && f->regs[o->reg].type != PTX_T_pred)
                ptx_fail_tok(p, &t, "'!' applies to predicates only");
            if (ptx_tok_punct(&p->tok, '|')) parse_pair_pred(p, o);
            else if (p->tok.kind == PTX_TOK_DOTWORD && is_video_op(in->op)) parse_selector(p, o);
        } else {
            if (not) ptx_fail_tok(p, &t, "'!' applies to predicates only");
            o->ival = parse_offset(p);
        }
        return;
    }
    if (ptx_tok_is(&t, "WARP_SZ") && !not) {
        /* PTX's predefined constant: the warp size, usable wherever an immediate is */
        o->kind = PTX_OPND_IMM_INT;
        o->ival = neg ? -32 : 32;
        ptx_next(p);
        return;
    }
    int sreg = parse_sreg(p, &t);
    if (sreg >= 0) {
        if (not) ptx_fail_tok(p, &t, "'!' applies to predicates only");
        o->kind = PTX_OPND_SREG;
        o->sreg = (uint8_t)sreg;
        return;
    }
    if (ctx == OPND_CALL) {
        /* the .callprototype label of an indirect call */
        const ptx_name_entry *e = ptx_names_find(&p->labels, t.text, t.len);
        if (e) {
            o->kind = PTX_OPND_LABEL;
            o->label = e->value;
            ptx_next(p);
            return;
        }
    }
    fail_undeclared(p, &t);
}

/* The video instructions, whose register operands may carry a byte or half selector. */
static bool is_video_op(unsigned op) {
    switch (op) {
    case PTX_OP_vadd: case PTX_OP_vsub: case PTX_OP_vabsdiff: case PTX_OP_vmin:
    case PTX_OP_vmax: case PTX_OP_vshl: case PTX_OP_vshr: case PTX_OP_vmad: case PTX_OP_vset:
    case PTX_OP_vset2: case PTX_OP_vset4: case PTX_OP_vadd2: case PTX_OP_vadd4:
    case PTX_OP_vsub2: case PTX_OP_vsub4: case PTX_OP_vavrg2: case PTX_OP_vavrg4:
    case PTX_OP_vabsdiff2: case PTX_OP_vabsdiff4: case PTX_OP_vmin2: case PTX_OP_vmin4:
    case PTX_OP_vmax2: case PTX_OP_vmax4:
        return true;
    default:
        return false;
    }
}

/* ".b0" .. ".b3", ".h0", ".h1" (scalar forms), ".b3210"-like and ".h10"-like (SIMD forms)
 * after a register: bytes take digits 0-7, halves 0-3, four digits at most. */
static void parse_selector(ptx_parser *p, ptx_operand *o) {
    const ptx_token *t = &p->tok;
    char kind = t->len >= 3 ? t->text[1] : 0;
    unsigned n = t->len >= 3 ? (unsigned)t->len - 2 : 0, max = kind == 'h' ? 3 : 7;
    if ((kind != 'b' && kind != 'h') || n > 4)
        ptx_fail_tok(p, t, "unknown operand selector '%.*s'", (int)t->len, t->text);
    uint16_t sel = (uint16_t)(PTX_SEL_PRESENT | (kind == 'h' ? PTX_SEL_HALF : 0) | (n - 1) << 12);
    for (unsigned i = 0; i < n; i++) {
        char c = t->text[2 + i];
        if (c < '0' || (unsigned)(c - '0') > max)
            ptx_fail_tok(p, t, "unknown operand selector '%.*s'", (int)t->len, t->text);
        sel |= (uint16_t)((unsigned)(c - '0') << (3 * (n - 1 - i)));
    }
    o->sel = sel;
    ptx_next(p);
}

/* brx.idx index, table: the table label becomes the LIST of its targets */
static void expand_branch_table(ptx_parser *p, ptx_operand *o, const ptx_token *at) {
    const ptx_label_info *li = &p->label_info[o->label];
    ptx_func *f = ptx_cur_func(p);
    if (li->targets_first < 0)
        ptx_fail_tok(p, at, "'%s' is not a .branchtargets label", f->labels[o->label].name);
    uint32_t first = f->nvec_elems;
    for (uint32_t k = 0; k < li->ntargets; k++) {
        ptx_operand *e = PTX_PUSH(p, f->vec_elems, f->nvec_elems, p->vec_cap);
        init_operand(e);
        e->kind = PTX_OPND_LABEL;
        e->label = p->targets[(uint32_t)li->targets_first + k];
        f->nvec_elems++;
    }
    o->kind = PTX_OPND_LIST;
    o->label = -1;
    o->vec_first = first;
    o->vec_n = li->ntargets;
}

static bool is_cache_hint(const ptx_token *d) {
    return d->len > 5 && d->text[1] == 'L' && (d->text[2] == '1' || d->text[2] == '2') && d->text[3] == ':' &&
           d->text[4] == ':';
}

void ptx_parse_insn(ptx_parser *p, ptx_insn *in) {
    ptx_token op = p->tok;
    ptx_token words[24];
    uint32_t nwords = 0;
    const char *name_end = op.text + op.len;
    ptx_next(p);
    while (p->tok.kind == PTX_TOK_DOTWORD) {
        if (nwords == sizeof words / sizeof words[0]) ptx_fail_tok(p, &p->tok, "too many modifiers");
        words[nwords++] = p->tok;
        name_end = p->tok.text + p->tok.len;
        ptx_next(p);
    }
    int name_len = (int)(name_end - op.text);
    const ptx_name_entry *e = ptx_keyword(p, op.text, op.len, PTX_NK_OPCODE);
    if (!e) ptx_fail_tok(p, &op, "unknown instruction '%.*s'", name_len, op.text);
    in->op = (uint16_t)e->value;
    for (uint32_t i = 0; i < nwords; i++) {
        const ptx_token *d = &words[i];
        const ptx_name_entry *k = ptx_names_find(&p->dotwords, d->text + 1, d->len - 1);
        if (k && k->kind == PTX_NK_TYPE) {
            if (in->ntypes == PTX_MAX_TYPES) ptx_fail_tok(p, d, "too many types in '%.*s'", name_len, op.text);
            in->types[in->ntypes++] = (uint8_t)k->value;
            continue;
        }
        int mod;
        if (k && k->kind == PTX_NK_MOD) mod = k->value;
        else if (is_cache_hint(d)) mod = PTX_MOD_cache_hint;
        else if (d->len == 2 && d->text[1] == 'p' && in->op == PTX_OP_suld)
            /* formatted surface loads: the GPU's ptxas (CUDA 13.0) knows no suld.p for sm_90 */
            ptx_fail_tok(p, d, "suld.p (formatted surface load) is not a known instruction on "
                               "sm_90 (ptxas refuses it)");
        else if (d->len == 2 && d->text[1] == 'p' && in->op == PTX_OP_sust)
            ptx_fail_tok(p, d, "sust.p (formatted surface store) is not supported");
        else ptx_fail_tok(p, d, "unknown modifier '%.*s' in '%.*s'", (int)d->len, d->text, name_len, op.text);
        if (in->nmods == PTX_MAX_MODS) ptx_fail_tok(p, d, "too many modifiers in '%.*s'", name_len, op.text);
        in->mods[in->nmods++] = (uint16_t)mod;
    }

    int ctx = OPND_PLAIN;
    if (in->op == PTX_OP_bra) ctx = OPND_LABEL;
    else if (in->op == PTX_OP_call) ctx = OPND_CALL;
    if (!ptx_tok_punct(&p->tok, ';')) {
        for (;;) {
            if (in->nopnds == PTX_MAX_OPNDS) ptx_fail_tok(p, &p->tok, "too many operands for '%.*s'", name_len, op.text);
            ptx_token at = p->tok;
            int octx = ctx;
            if (in->op == PTX_OP_brx && in->nopnds == 1) octx = OPND_LABEL;
            ptx_operand *o = &in->opnd[in->nopnds++];
            parse_operand(p, in, o, octx, false);
            if (in->op == PTX_OP_brx && in->nopnds == 2) {
                if (o->kind != PTX_OPND_LABEL) ptx_fail_tok(p, &at, "brx.idx needs a .branchtargets label");
                expand_branch_table(p, o, &at);
            }
            if (!ptx_accept_punct(p, ',')) break;
        }
    }
    if (!ptx_tok_punct(&p->tok, ';')) {
        char what[96];
        snprintf(what, sizeof what, "',' or ';' after operand of '%.*s'", name_len > 40 ? 40 : name_len, op.text);
        ptx_fail_expected(p, what);
    }
    ptx_next(p);
}
