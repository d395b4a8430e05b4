/* exec/fault.c — device fault diagnostics: the one-line message naming kernel, block,
 * thread, the instruction as written in the PTX (rebuilt from the IR), its PTX line and
 * the CUDA source line from .loc; and the instruction printer behind it.
 */
#include "core.h"

#include <inttypes.h>
#include <stdio.h>

exec_dim3 exec_thread_of(const struct exec_block *b, uint32_t warp, uint32_t lane) {
    uint32_t t = warp * EXEC_WARP_SIZE + lane;
    exec_dim3 r;
    r.x = t % b->ntid.x;
    r.y = (t / b->ntid.x) % b->ntid.y;
    r.z = t / (b->ntid.x * b->ntid.y);
    return r;
}

/* ---- instruction text ---- */

typedef struct sbuf { char *p; size_t n, len; } sbuf;

static void put(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *s, const char *fmt, ...) {
    if (s->len >= s->n) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(s->p + s->len, s->n - s->len, fmt, ap);
    va_end(ap);
    if (k > 0) s->len += (size_t)k;
    if (s->len >= s->n) s->len = s->n - 1;
}

static const char *sym_name(const ptx_module *m, const ptx_func *pf, const ptx_symref *r) {
    if (r->index < 0) return "?";
    switch (r->scope) {
    case PTX_SYM_MODULE_VAR: return (uint32_t)r->index < m->nvars ? m->vars[r->index].name : "?";
    case PTX_SYM_FUNC: return (uint32_t)r->index < m->nfuncs ? m->funcs[r->index].name : "?";
    case PTX_SYM_LOCAL_VAR: return (uint32_t)r->index < pf->nlocals ? pf->locals[r->index].name : "?";
    case PTX_SYM_PARAM: return (uint32_t)r->index < pf->nparams ? pf->params[r->index].name : "?";
    case PTX_SYM_RETPARAM: return (uint32_t)r->index < pf->nrets ? pf->rets[r->index].name : "?";
    default: return "?";
    }
}

static const char *reg_name(const ptx_func *pf, int32_t r) {
    return r >= 0 && (uint32_t)r < pf->nregs && pf->regs[r].name ? pf->regs[r].name : "%?";
}

static void put_offset(sbuf *s, int64_t v) {
    if (v > 0) put(s, "+%" PRId64, v);
    else if (v < 0) put(s, "%" PRId64, v);
}

static void put_operand(sbuf *s, const ptx_module *m, const ptx_func *pf, const ptx_operand *o) {
    switch (o->kind) {
    case PTX_OPND_REG:
        put(s, "%s%s", o->neg ? "!" : "", reg_name(pf, o->reg));
        if (o->reg2 >= 0) put(s, "|%s", reg_name(pf, o->reg2));
        break;
    case PTX_OPND_SREG: put(s, "%s", exec_sreg_name(o->sreg)); break;
    case PTX_OPND_IMM_INT: put(s, "%" PRId64, o->ival); break;
    case PTX_OPND_IMM_F32: put(s, "0f%08" PRIX32, (uint32_t)o->ival); break;
    case PTX_OPND_IMM_F64: put(s, "0d%016" PRIX64, (uint64_t)o->ival); break;
    case PTX_OPND_SYM:
        put(s, "%s", sym_name(m, pf, &o->sym));
        put_offset(s, o->ival);
        break;
    case PTX_OPND_ADDR:
        put(s, "[");
        if (o->reg >= 0) { put(s, "%s", reg_name(pf, o->reg)); put_offset(s, o->ival); }
        else if (o->sym.index >= 0) { put(s, "%s", sym_name(m, pf, &o->sym)); put_offset(s, o->ival); }
        else put(s, "%" PRId64, o->ival);
        put(s, "]");
        break;
    case PTX_OPND_VEC: case PTX_OPND_LIST:
        put(s, o->kind == PTX_OPND_VEC ? "{" : "(");
        for (uint32_t i = 0; i < o->vec_n && o->vec_first + i < pf->nvec_elems; i++) {
            if (i) put(s, ", ");
            put_operand(s, m, pf, &pf->vec_elems[o->vec_first + i]);
        }
        put(s, o->kind == PTX_OPND_VEC ? "}" : ")");
        break;
    case PTX_OPND_LABEL:
        put(s, "%s", o->label >= 0 && (uint32_t)o->label < pf->nlabels ? pf->labels[o->label].name : "?");
        break;
    case PTX_OPND_SINK: put(s, "_"); break;
    default: break;
    }
}

void exec_format_insn(const ptx_module *m, const ptx_func *pf, const ptx_insn *pi, char *buf,
                      size_t n) {
    sbuf s = {buf, n, 0};
    if (!n) return;
    buf[0] = 0;
    if (!pi) { put(&s, "(end of %s)", pf ? pf->name : "function"); return; }
    if (pi->guard >= 0) put(&s, "@%s%s ", pi->guard_neg ? "!" : "", reg_name(pf, pi->guard));
    put(&s, "%s", pi->op < PTX_OP_COUNT ? ptx_opcode_names[pi->op] : "?");
    for (unsigned i = 0; i < pi->nmods; i++)
        if (pi->mods[i] < PTX_MOD_COUNT && ptx_mod_names[pi->mods[i]])
            put(&s, ".%s", ptx_mod_names[pi->mods[i]]);
    for (unsigned i = 0; i < pi->ntypes; i++)
        if (pi->types[i] < PTX_T_COUNT && ptx_type_names[pi->types[i]])
            put(&s, ".%s", ptx_type_names[pi->types[i]]);
    for (unsigned i = 0; i < pi->nopnds; i++) {
        put(&s, i ? ", " : " ");
        put_operand(&s, m, pf, &pi->opnd[i]);
    }
}

/* ---- faults ---- */

static const char *fault_name(int kind) {
    switch (kind) {
    case EXEC_FAULT_ILLEGAL_ADDRESS: return "illegal address";
    case EXEC_FAULT_MISALIGNED: return "misaligned address";
    case EXEC_FAULT_TRAP: return "trap";
    case EXEC_FAULT_ASSERT: return "assertion failed";
    case EXEC_FAULT_ILLEGAL_INSTRUCTION: return "illegal instruction";
    case EXEC_FAULT_STACK_OVERFLOW: return "stack overflow";
    case EXEC_FAULT_INVALID_PC: return "invalid program counter";
    case EXEC_FAULT_ABORTED: return "aborted";
    case EXEC_FAULT_INVALID_ADDRESS_SPACE: return "invalid address space";
    default: return "fault";
    }
}

void exec_fault_at(exec_warp *hw, const exec_insn *in, uint32_t lane, int kind,
                   const char *detail) {
    exec_wstate *w = exec_ws(hw);
    struct exec_block *b = hw->block;
    hw->fault = 1;
    exec_warp_yield(w);
    if (b->fault_kind != EXEC_OK) return; /* the block's first fault is the one reported */
    b->fault_kind = (exec_fault_kind)kind;
    b->fault->kind = (exec_fault_kind)kind;

    const ptx_module *m = b->prog->m;
    const ptx_func *pf = w->frames[w->depth].func->pf;
    const ptx_insn *pi = in ? in->src : NULL;
    char text[200];
    exec_format_insn(m, pf, pi, text, sizeof text);
    exec_dim3 t = exec_thread_of(b, hw->warp_in_block, lane);
    char where[200] = "";
    if (pi) {
        const char *file = pi->loc.file < m->nfiles ? m->files[pi->loc.file] : NULL;
        if (file && pi->loc.line)
            snprintf(where, sizeof where, " (PTX line %u, %s:%u)", pi->loc.ptx_line, file,
                     pi->loc.line);
        else
            snprintf(where, sizeof where, " (PTX line %u)", pi->loc.ptx_line);
    }
    char infunc[160] = "";
    if (pf != b->k->func->pf) snprintf(infunc, sizeof infunc, " in function '%s'", pf->name);
    snprintf(b->fault->msg, sizeof b->fault->msg,
             "%s: %s; kernel '%s', block (%u,%u,%u), thread (%u,%u,%u)%s, at `%s`%s",
             fault_name(kind), detail, b->k->info.name, b->ctaid.x, b->ctaid.y, b->ctaid.z,
             t.x, t.y, t.z, infunc, text, where);
}

void exec_fault_block(struct exec_block *b, exec_fault_kind kind, const char *fmt, ...) {
    if (b->fault_kind != EXEC_OK) return;
    b->fault_kind = kind;
    b->fault->kind = kind;
    char detail[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    snprintf(b->fault->msg, sizeof b->fault->msg, "%s: %s; kernel '%s', block (%u,%u,%u)",
             fault_name(kind), detail, b->k->info.name, b->ctaid.x, b->ctaid.y, b->ctaid.z);
}
