/* ptx/print.c — instructions and operands back to PTX text, for diagnostics (fault and
 * decode messages name the failing instruction) and for tests. Modifiers are printed
 * before types, the order nvcc writes them in; cache hints print as L2::cache_hint. */
#include "ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const sreg_names[PTX_SREG_COUNT] = {
    [PTX_SREG_TID_X] = "%tid.x", [PTX_SREG_TID_Y] = "%tid.y", [PTX_SREG_TID_Z] = "%tid.z",
    [PTX_SREG_NTID_X] = "%ntid.x", [PTX_SREG_NTID_Y] = "%ntid.y", [PTX_SREG_NTID_Z] = "%ntid.z",
    [PTX_SREG_CTAID_X] = "%ctaid.x", [PTX_SREG_CTAID_Y] = "%ctaid.y", [PTX_SREG_CTAID_Z] = "%ctaid.z",
    [PTX_SREG_NCTAID_X] = "%nctaid.x", [PTX_SREG_NCTAID_Y] = "%nctaid.y", [PTX_SREG_NCTAID_Z] = "%nctaid.z",
    [PTX_SREG_LANEID] = "%laneid", [PTX_SREG_WARPID] = "%warpid", [PTX_SREG_NWARPID] = "%nwarpid",
    [PTX_SREG_SMID] = "%smid", [PTX_SREG_NSMID] = "%nsmid", [PTX_SREG_GRIDID] = "%gridid",
    [PTX_SREG_LANEMASK_EQ] = "%lanemask_eq", [PTX_SREG_LANEMASK_LE] = "%lanemask_le",
    [PTX_SREG_LANEMASK_LT] = "%lanemask_lt", [PTX_SREG_LANEMASK_GE] = "%lanemask_ge",
    [PTX_SREG_LANEMASK_GT] = "%lanemask_gt", [PTX_SREG_CLOCK] = "%clock", [PTX_SREG_CLOCK_HI] = "%clock_hi",
    [PTX_SREG_CLOCK64] = "%clock64", [PTX_SREG_GLOBALTIMER] = "%globaltimer",
    [PTX_SREG_GLOBALTIMER_LO] = "%globaltimer_lo", [PTX_SREG_GLOBALTIMER_HI] = "%globaltimer_hi",
    [PTX_SREG_DYNAMIC_SMEM_SIZE] = "%dynamic_smem_size", [PTX_SREG_TOTAL_SMEM_SIZE] = "%total_smem_size",
    [PTX_SREG_CLUSTERID_X] = "%clusterid.x", [PTX_SREG_CLUSTERID_Y] = "%clusterid.y",
    [PTX_SREG_CLUSTERID_Z] = "%clusterid.z", [PTX_SREG_NCLUSTERID_X] = "%nclusterid.x",
    [PTX_SREG_NCLUSTERID_Y] = "%nclusterid.y", [PTX_SREG_NCLUSTERID_Z] = "%nclusterid.z",
    [PTX_SREG_CLUSTER_CTAID_X] = "%cluster_ctaid.x", [PTX_SREG_CLUSTER_CTAID_Y] = "%cluster_ctaid.y",
    [PTX_SREG_CLUSTER_CTAID_Z] = "%cluster_ctaid.z", [PTX_SREG_CLUSTER_NCTAID_X] = "%cluster_nctaid.x",
    [PTX_SREG_CLUSTER_NCTAID_Y] = "%cluster_nctaid.y", [PTX_SREG_CLUSTER_NCTAID_Z] = "%cluster_nctaid.z",
    [PTX_SREG_CLUSTER_CTARANK] = "%cluster_ctarank", [PTX_SREG_CLUSTER_NCTARANK] = "%cluster_nctarank",
    [PTX_SREG_IS_EXPLICIT_CLUSTER] = "%is_explicit_cluster", [PTX_SREG_AGGR_SMEM_SIZE] = "%aggr_smem_size",
    [PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN] = "%reserved_smem_offset_begin",
    [PTX_SREG_RESERVED_SMEM_OFFSET_END] = "%reserved_smem_offset_end",
    [PTX_SREG_RESERVED_SMEM_OFFSET_CAP] = "%reserved_smem_offset_cap",
    [PTX_SREG_RESERVED_SMEM_OFFSET_0] = "%reserved_smem_offset_0",
    [PTX_SREG_RESERVED_SMEM_OFFSET_1] = "%reserved_smem_offset_1",
    [PTX_SREG_CURRENT_GRAPH_EXEC] = "%current_graph_exec",
};

const char *ptx_sreg_name(ptx_sreg s, char *buf, size_t n) {
    if (s >= PTX_SREG_ENVREG0 && s < PTX_SREG_ENVREG0 + 32) {
        snprintf(buf, n, "%%envreg%d", (int)(s - PTX_SREG_ENVREG0));
        return buf;
    }
    return s < PTX_SREG_COUNT && sreg_names[s] ? sreg_names[s] : "%?";
}

const char *ptx_symref_name(const ptx_module *m, const ptx_func *f, ptx_symref s) {
    if (s.index < 0) return "?";
    uint32_t i = (uint32_t)s.index;
    switch (s.scope) {
    case PTX_SYM_MODULE_VAR: return m && i < m->nvars ? m->vars[i].name : "?";
    case PTX_SYM_FUNC: return m && i < m->nfuncs ? m->funcs[i].name : "?";
    case PTX_SYM_LOCAL_VAR: return f && i < f->nlocals ? f->locals[i].name : "?";
    case PTX_SYM_PARAM: return f && i < f->nparams ? f->params[i].name : "?";
    case PTX_SYM_RETPARAM: return f && i < f->nrets ? f->rets[i].name : "?";
    default: return "?";
    }
}

typedef struct out {
    char *buf;
    size_t n, len;
} out;

__attribute__((format(printf, 2, 3))) static void put(out *o, const char *fmt, ...) {
    if (o->len >= o->n) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->buf + o->len, o->n - o->len, fmt, ap);
    va_end(ap);
    if (k > 0) o->len = o->len + (size_t)k < o->n ? o->len + (size_t)k : o->n - 1;
}

static const char *reg_name(const ptx_func *f, int32_t r) {
    return f && r >= 0 && (uint32_t)r < f->nregs ? f->regs[r].name : "?";
}

static void put_operand(out *o, const ptx_module *m, const ptx_func *f, const ptx_operand *op) {
    char tmp[32];
    switch (op->kind) {
    case PTX_OPND_REG: {
        bool pred = f && op->reg >= 0 && (uint32_t)op->reg < f->nregs && f->regs[op->reg].type == PTX_T_pred;
        put(o, "%s%s", op->neg ? (pred ? "!" : "-") : "", reg_name(f, op->reg));
        if (op->reg2 >= 0) put(o, "|%s", reg_name(f, op->reg2));
        if (op->sel) {
            put(o, ".%c", (op->sel & PTX_SEL_HALF) ? 'h' : 'b');
            for (unsigned k = PTX_SEL_N(op->sel); k-- > 0;) put(o, "%u", PTX_SEL_DIGIT(op->sel, k));
        }
        break;
    }
    case PTX_OPND_SREG: put(o, "%s", ptx_sreg_name((ptx_sreg)op->sreg, tmp, sizeof tmp)); break;
    case PTX_OPND_IMM_INT: put(o, "%lld", (long long)op->ival); break;
    case PTX_OPND_IMM_F32: put(o, "0f%08X", (unsigned)(uint32_t)op->ival); break;
    case PTX_OPND_IMM_F64: put(o, "0d%016llX", (unsigned long long)op->ival); break;
    case PTX_OPND_SYM:
        put(o, "%s", ptx_symref_name(m, f, op->sym));
        if (op->ival) put(o, "%+lld", (long long)op->ival);
        break;
    case PTX_OPND_ADDR:
        put(o, "[");
        if (op->reg >= 0) put(o, "%s", reg_name(f, op->reg));
        else if (op->sym.index >= 0) put(o, "%s", ptx_symref_name(m, f, op->sym));
        if (op->reg >= 0 || op->sym.index >= 0) {
            if (op->ival) put(o, "+%lld", (long long)op->ival);
        } else {
            put(o, "%lld", (long long)op->ival);
        }
        put(o, "]");
        break;
    case PTX_OPND_VEC:
    case PTX_OPND_LIST:
        put(o, op->kind == PTX_OPND_VEC ? "{" : "(");
        for (uint32_t k = 0; k < op->vec_n; k++) {
            if (k) put(o, ", ");
            if (f && op->vec_first + k < f->nvec_elems) put_operand(o, m, f, &f->vec_elems[op->vec_first + k]);
        }
        put(o, op->kind == PTX_OPND_VEC ? "}" : ")");
        break;
    case PTX_OPND_LABEL:
        put(o, "%s", f && op->label >= 0 && (uint32_t)op->label < f->nlabels ? f->labels[op->label].name : "?");
        break;
    case PTX_OPND_SINK:
        put(o, "_");
        if (op->reg2 >= 0) put(o, "|%s", reg_name(f, op->reg2));
        if (op->sel) {
            put(o, ".%c", (op->sel & PTX_SEL_HALF) ? 'h' : 'b');
            for (unsigned k = PTX_SEL_N(op->sel); k-- > 0;) put(o, "%u", PTX_SEL_DIGIT(op->sel, k));
        }
        break;
    default: put(o, "<none>"); break;
    }
}

const char *ptx_operand_str(const ptx_module *m, const ptx_func *f, const ptx_operand *op, char *buf, size_t n) {
    out o = {buf, n, 0};
    if (n) buf[0] = 0;
    put_operand(&o, m, f, op);
    return buf;
}

const char *ptx_insn_str(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *buf, size_t n) {
    out o = {buf, n, 0};
    if (n) buf[0] = 0;
    if (in->guard >= 0) put(&o, "@%s%s ", in->guard_neg ? "!" : "", reg_name(f, in->guard));
    put(&o, "%s", in->op < PTX_OP_COUNT ? ptx_opcode_names[in->op] : "?");
    for (unsigned k = 0; k < in->nmods; k++) put(&o, ".%s", in->mods[k] < PTX_MOD_COUNT ? ptx_mod_names[in->mods[k]] : "?");
    for (unsigned k = 0; k < in->ntypes; k++) put(&o, ".%s", in->types[k] < PTX_T_COUNT ? ptx_type_names[in->types[k]] : "?");
    /* Texture/surface addresses were flattened by the parser: the bracket holds the ADDR
     * handle and the operands after it up to the coordinate vector. */
    bool tex = in->op == PTX_OP_tex || in->op == PTX_OP_tld4 || in->op == PTX_OP_suld || in->op == PTX_OP_sust;
    bool in_bracket = false;
    for (unsigned k = 0; k < in->nopnds; k++) {
        const ptx_operand *op = &in->opnd[k];
        put(&o, k ? ", " : " ");
        if (tex && op->kind == PTX_OPND_ADDR && !in_bracket && k + 1 < in->nopnds) {
            ptx_operand handle = *op;
            handle.kind = op->reg >= 0 ? PTX_OPND_REG : PTX_OPND_SYM;
            put(&o, "[");
            put_operand(&o, m, f, &handle);
            in_bracket = true;
            continue;
        }
        put_operand(&o, m, f, op);
        if (in_bracket && op->kind == PTX_OPND_VEC) {
            put(&o, "]");
            in_bracket = false;
        }
    }
    if (in_bracket) put(&o, "]");
    put(&o, ";");
    return buf;
}
