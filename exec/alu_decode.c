/* exec/alu_decode.c — exec_decode_alu: reads an arithmetic, logic, conversion,
 * comparison or warp-collective PTX instruction, resolves its operands to slots and
 * predicates, turns its types and modifiers into exec_insn fields, and asks
 * exec_alu_lookup (alu_select.c) for the type-specialised handler. Any type/modifier
 * combination without a handler is reported with the instruction's full name.
 */
#include <stdio.h>
#include "alu_internal.h"

typedef struct alu_dec {
    exec_decoder *d;
    const ptx_insn *pi;
    exec_insn *out;
} alu_dec;

/* "op.mod.mod.type.type" for messages. */
static void alu_insn_name(const ptx_insn *pi, char *buf, size_t len) {
    size_t n = (size_t)snprintf(buf, len, "%s", ptx_opcode_names[pi->op]);
    for (unsigned i = 0; i < pi->nmods && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, ".%s", ptx_mod_names[pi->mods[i]]);
    for (unsigned i = 0; i < pi->ntypes && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, ".%s", ptx_type_names[pi->types[i]]);
}

static int alu_unsupported(alu_dec *s, const char *why) {
    char name[160];
    alu_insn_name(s->pi, name, sizeof name);
    exec_dec_error(s->d, s->pi, "unsupported instruction %s%s%s", name, why ? ": " : "",
                   why ? why : "");
    return -1;
}

/* ---- operands ---- */
static bool alu_opnd_count(alu_dec *s, unsigned n) {
    if (s->pi->nopnds == n) return true;
    char name[160];
    alu_insn_name(s->pi, name, sizeof name);
    exec_dec_error(s->d, s->pi, "%s takes %u operands, not %u", name, n, s->pi->nopnds);
    return false;
}
/* The operand without its "|%q" part. */
static ptx_operand alu_first_half(const ptx_operand *o) {
    ptx_operand c = *o;
    c.reg2 = -1;
    return c;
}
static bool alu_dst(alu_dec *s, unsigned i, uint32_t *slot) {
    ptx_operand o = alu_first_half(&s->pi->opnd[i]);
    return exec_dec_dst(s->d, s->pi, &o, slot);
}
static bool alu_src(alu_dec *s, unsigned i, ptx_type t, uint32_t *slot) {
    return exec_dec_src(s->d, s->pi, &s->pi->opnd[i], t, slot);
}
static bool alu_pred(alu_dec *s, const ptx_operand *o, uint32_t *p, bool *neg) {
    bool n = false;
    if (!exec_dec_pred(s->d, s->pi, o, p, &n)) return false;
    if (neg) *neg = n;
    else if (n) return exec_dec_error(s->d, s->pi, "a negated predicate is not allowed here");
    return true;
}
/* The predicate after '|' in "d|p" (operand i). */
static bool alu_second_pred(alu_dec *s, unsigned i, uint32_t *p) {
    const ptx_operand *o = &s->pi->opnd[i];
    if (o->reg2 < 0) return exec_dec_error(s->d, s->pi, "expected a \"d|p\" destination");
    ptx_operand q = *o;
    q.kind = PTX_OPND_REG;
    q.reg = o->reg2;
    q.reg2 = -1;
    q.neg = false;
    return alu_pred(s, &q, p, NULL);
}
/* A constant source that the instruction leaves implicit (the full membermask of the
 * deprecated non-.sync collectives). */
static bool alu_const_src(alu_dec *s, int64_t v, ptx_type t, uint32_t *slot) {
    ptx_operand o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPND_IMM_INT;
    o.reg = o.reg2 = -1;
    o.sym.index = -1;
    o.ival = v;
    return exec_dec_src(s->d, s->pi, &o, t, slot);
}

/* The integer type twice as wide as t, same signedness (for .wide). */
static ptx_type alu_wide_type(ptx_type t) {
    switch (t) {
    case PTX_T_u16: return PTX_T_u32;
    case PTX_T_s16: return PTX_T_s32;
    case PTX_T_u32: return PTX_T_u64;
    case PTX_T_s32: return PTX_T_s64;
    default: return PTX_T_NONE;
    }
}

/* ---- modifiers ---- */
typedef struct alu_mods {
    unsigned rnd, var, boolop;
    uint32_t flags;
    bool sync, abs;
    bool l, r, wrap, clamp;
} alu_mods;

/* Give each modifier its meaning for this opcode; false (error reported) for one that
 * has none here. */
static bool alu_parse_mods(alu_dec *s, alu_mods *m) {
    const ptx_insn *pi = s->pi;
    const unsigned op = pi->op;
    const bool cmp = op == PTX_OP_setp || op == PTX_OP_set;
    const bool halves = op == PTX_OP_mul || op == PTX_OP_mad || op == PTX_OP_madc ||
                        op == PTX_OP_mul24 || op == PTX_OP_mad24 || op == PTX_OP_dp2a;
    memset(m, 0, sizeof *m);
    for (unsigned i = 0; i < pi->nmods; i++) {
        const unsigned mod = pi->mods[i];
        unsigned rnd = 0, var = 0;
        switch (mod) {
        case PTX_MOD_rn: rnd = EXEC_RND_RN; break;
        case PTX_MOD_rz: rnd = EXEC_RND_RZ; break;
        case PTX_MOD_rm: rnd = EXEC_RND_RM; break;
        case PTX_MOD_rp: rnd = EXEC_RND_RP; break;
        case PTX_MOD_rna: rnd = EXEC_RND_RNA; break;
        case PTX_MOD_rni: rnd = EXEC_RND_RNI; break;
        case PTX_MOD_rzi: rnd = EXEC_RND_RZI; break;
        case PTX_MOD_rmi: rnd = EXEC_RND_RMI; break;
        case PTX_MOD_rpi: rnd = EXEC_RND_RPI; break;
        case PTX_MOD_ftz: m->flags |= EXEC_F_FTZ; continue;
        case PTX_MOD_sat: m->flags |= EXEC_F_SAT; continue;
        case PTX_MOD_approx: m->flags |= EXEC_F_APPROX; continue;
        case PTX_MOD_relu: m->flags |= ALU_F_RELU; continue;
        case PTX_MOD_NaN: m->flags |= ALU_F_NANMODE; continue;
        case PTX_MOD_satfinite: m->flags |= ALU_F_SATFINITE; continue;
        case PTX_MOD_shiftamt: m->flags |= ALU_F_SHIFTAMT; continue;
        case PTX_MOD_xorsign: m->flags |= ALU_F_XORSIGN; continue;
        case PTX_MOD_abs: m->abs = true; continue;
        case PTX_MOD_cc: m->flags |= EXEC_F_CC_OUT; continue;
        case PTX_MOD_sync: m->sync = true; continue;
        case PTX_MOD_full: var = ALU_V_FULL; break;
        case PTX_MOD_lo: var = cmp ? ALU_V_LO_CMP : halves ? ALU_V_LO : 0; break;
        case PTX_MOD_hi: var = cmp ? ALU_V_HI_CMP : halves ? ALU_V_HI : 0; break;
        case PTX_MOD_wide: var = halves ? ALU_V_WIDE : 0; break;
        case PTX_MOD_eq: var = cmp ? ALU_V_EQ : 0; break;
        case PTX_MOD_ne: var = cmp ? ALU_V_NE : 0; break;
        case PTX_MOD_lt: var = cmp ? ALU_V_LT : 0; break;
        case PTX_MOD_le: var = cmp ? ALU_V_LE : 0; break;
        case PTX_MOD_gt: var = cmp ? ALU_V_GT : 0; break;
        case PTX_MOD_ge: var = cmp ? ALU_V_GE : 0; break;
        case PTX_MOD_ls: var = cmp ? ALU_V_LS : 0; break;
        case PTX_MOD_hs: var = cmp ? ALU_V_HS : 0; break;
        case PTX_MOD_equ: var = cmp ? ALU_V_EQU : 0; break;
        case PTX_MOD_neu: var = cmp ? ALU_V_NEU : 0; break;
        case PTX_MOD_ltu: var = cmp ? ALU_V_LTU : 0; break;
        case PTX_MOD_leu: var = cmp ? ALU_V_LEU : 0; break;
        case PTX_MOD_gtu: var = cmp ? ALU_V_GTU : 0; break;
        case PTX_MOD_geu: var = cmp ? ALU_V_GEU : 0; break;
        case PTX_MOD_num: var = cmp ? ALU_V_NUM : 0; break;
        case PTX_MOD_nan: var = cmp ? ALU_V_NAN : 0; break;
        case PTX_MOD_and_:
        case PTX_MOD_or_:
        case PTX_MOD_xor_:
            if (cmp || (op == PTX_OP_lop3 && mod != PTX_MOD_xor_)) { /* lop3.or/.and d|p */
                if (m->boolop) goto bad;
                m->boolop = mod == PTX_MOD_and_ ? ALU_BOOL_AND
                          : mod == PTX_MOD_or_ ? ALU_BOOL_OR : ALU_BOOL_XOR;
                continue;
            }
            var = op != PTX_OP_redux ? 0 : mod == PTX_MOD_and_ ? ALU_V_AND
                : mod == PTX_MOD_or_ ? ALU_V_OR : ALU_V_XOR;
            break;
        case PTX_MOD_add: var = op == PTX_OP_redux ? ALU_V_ADD : 0; break;
        case PTX_MOD_min: var = op == PTX_OP_redux ? ALU_V_MIN : 0; break;
        case PTX_MOD_max: var = op == PTX_OP_redux ? ALU_V_MAX : 0; break;
        case PTX_MOD_l: m->l = true; continue;
        case PTX_MOD_r: m->r = true; continue;
        case PTX_MOD_wrap: m->wrap = true; continue;
        case PTX_MOD_clamp: m->clamp = true; continue;
        case PTX_MOD_f4e: var = ALU_V_F4E; break;
        case PTX_MOD_b4e: var = ALU_V_B4E; break;
        case PTX_MOD_rc8: var = ALU_V_RC8; break;
        case PTX_MOD_ecl: var = ALU_V_ECL; break;
        case PTX_MOD_ecr: var = ALU_V_ECR; break;
        case PTX_MOD_rc16: var = ALU_V_RC16; break;
        case PTX_MOD_finite: var = ALU_V_FINITE; break;
        case PTX_MOD_infinite: var = ALU_V_INFINITE; break;
        case PTX_MOD_number: var = ALU_V_NUMBER; break;
        case PTX_MOD_notanumber: var = ALU_V_NOTANUMBER; break;
        case PTX_MOD_normal: var = ALU_V_NORMAL; break;
        case PTX_MOD_subnormal: var = ALU_V_SUBNORMAL; break;
        case PTX_MOD_up: var = ALU_V_UP; break;
        case PTX_MOD_down: var = ALU_V_DOWN; break;
        case PTX_MOD_bfly: var = ALU_V_BFLY; break;
        case PTX_MOD_idx: var = ALU_V_IDX; break;
        case PTX_MOD_all: var = ALU_V_ALL; break;
        case PTX_MOD_any: var = ALU_V_ANY; break;
        case PTX_MOD_uni: var = ALU_V_UNI; break;
        case PTX_MOD_ballot: var = ALU_V_BALLOT; break;
        default: goto bad;
        }
        if (rnd) {
            if (m->rnd) goto bad;
            m->rnd = rnd;
        } else if (var) {
            if (m->var) goto bad;
            m->var = var;
        } else {
            goto bad;
        }
        continue;
    bad: {
            char name[160];
            alu_insn_name(pi, name, sizeof name);
            exec_dec_error(s->d, pi, "unsupported instruction %s: modifier .%s", name,
                           ptx_mod_names[mod]);
            return false;
        }
    }
    /* shf .l/.r with .wrap/.clamp; bmsk and szext .wrap/.clamp */
    if (m->l || m->r || m->wrap || m->clamp) {
        if ((m->l && m->r) || (m->wrap && m->clamp) || m->var) {
            alu_unsupported(s, "conflicting modifiers");
            return false;
        }
        if (m->l || m->r) {
            if (!m->wrap && !m->clamp) {
                alu_unsupported(s, "needs .wrap or .clamp");
                return false;
            }
            m->var = m->l ? (m->wrap ? ALU_V_L_WRAP : ALU_V_L_CLAMP)
                          : (m->wrap ? ALU_V_R_WRAP : ALU_V_R_CLAMP);
        } else {
            m->var = m->wrap ? ALU_V_WRAP : ALU_V_CLAMP;
        }
    }
    /* .xorsign needs .abs; .abs alone is the three-input min/max form */
    if (m->abs && op == PTX_OP_redux) { /* redux.sync.min/max.abs.f32 */
        m->flags |= ALU_F_ABS;
    } else if (m->abs && !(m->flags & ALU_F_XORSIGN)) {
        alu_unsupported(s, ".abs without .xorsign");
        return false;
    }
    if ((m->flags & ALU_F_XORSIGN) && !m->abs) {
        alu_unsupported(s, ".xorsign without .abs");
        return false;
    }
    return true;
}

/* ---- per-family operand layouts ---- */

/* d, a[, b[, c[, e]]] with the given source types. */
static bool alu_values(alu_dec *s, ptx_type dt, unsigned n, const ptx_type *st) {
    exec_insn *out = s->out;
    if (!alu_opnd_count(s, n + 1)) return false;
    (void)dt;
    if (!alu_dst(s, 0, &out->d[0])) return false;
    out->nd = 1;
    for (unsigned i = 0; i < n; i++)
        if (!alu_src(s, 1 + i, st[i], &out->a[i])) return false;
    out->na = (uint8_t)n;
    return true;
}

static int alu_decode_setp(alu_dec *s, const alu_mods *m, ptx_type t) {
    exec_insn *out = s->out;
    const unsigned n = m->boolop ? 4 : 3;
    if (!alu_opnd_count(s, n)) return -1;
    const ptx_operand *d0 = &s->pi->opnd[0];
    ptx_operand p = alu_first_half(d0);
    if (!alu_pred(s, &p, &out->d[0], NULL)) return -1;
    out->nd = 1;
    out->flags |= EXEC_F_D_PRED;
    if (d0->reg2 >= 0) {
        if (!alu_second_pred(s, 0, &out->d[1])) return -1;
        out->nd = 2;
        out->flags |= EXEC_F_D2_PRED;
    }
    if (!alu_src(s, 1, t, &out->a[0]) || !alu_src(s, 2, t, &out->a[1])) return -1;
    out->na = 2;
    if (m->boolop) {
        bool neg;
        if (!alu_pred(s, &s->pi->opnd[3], &out->a[2], &neg)) return -1;
        if (neg) out->flags |= EXEC_F_NEG_A2;
        out->na = 3;
    }
    return 1;
}

static int alu_decode_set(alu_dec *s, const alu_mods *m, ptx_type st) {
    exec_insn *out = s->out;
    const unsigned n = m->boolop ? 4 : 3;
    if (!alu_opnd_count(s, n)) return -1;
    if (!alu_dst(s, 0, &out->d[0])) return -1;
    out->nd = 1;
    if (!alu_src(s, 1, st, &out->a[0]) || !alu_src(s, 2, st, &out->a[1])) return -1;
    out->na = 2;
    if (m->boolop) {
        bool neg;
        if (!alu_pred(s, &s->pi->opnd[3], &out->a[2], &neg)) return -1;
        if (neg) out->flags |= EXEC_F_NEG_A2;
        out->na = 3;
    }
    return 1;
}

/* and/or/xor/not/mov .pred */
static int alu_decode_pred_logic(alu_dec *s) {
    exec_insn *out = s->out;
    const unsigned n = s->pi->op == PTX_OP_not || s->pi->op == PTX_OP_mov ? 1 : 2;
    if (!alu_opnd_count(s, n + 1)) return -1;
    if (!alu_pred(s, &s->pi->opnd[0], &out->d[0], NULL)) return -1;
    out->nd = 1;
    out->flags |= EXEC_F_D_PRED;
    for (unsigned i = 0; i < n; i++) {
        bool neg;
        if (!alu_pred(s, &s->pi->opnd[1 + i], &out->a[i], &neg)) return -1;
        if (neg) out->flags |= i == 0 ? ALU_F_NEG_A0 : ALU_F_NEG_A1;
    }
    out->na = (uint8_t)n;
    return 1;
}

/* mov: scalar, or the vector pack/unpack forms. */
static int alu_decode_mov(alu_dec *s, ptx_type t) {
    exec_insn *out = s->out;
    if (!alu_opnd_count(s, 2)) return -1;
    const ptx_operand *o0 = &s->pi->opnd[0], *o1 = &s->pi->opnd[1];
    if (o0->kind == PTX_OPND_VEC || o1->kind == PTX_OPND_VEC) {
        const bool unpack = o0->kind == PTX_OPND_VEC;
        const ptx_operand *vec = unpack ? o0 : o1;
        const unsigned n = vec->vec_n;
        if (o0->kind == o1->kind || (n != 2 && n != 4) || 8u * ptx_type_sizes[t] / n < 8) {
            alu_unsupported(s, "vector operand of this shape");
            return -1;
        }
        /* the element type: bits of the element width */
        const unsigned ew = 8u * ptx_type_sizes[t] / n;
        const ptx_type et = ew == 8 ? PTX_T_b8 : ew == 16 ? PTX_T_b16
                          : ew == 32 ? PTX_T_b32 : PTX_T_b64;
        out->vec = (uint8_t)n;
        out->aux = ALU_AUX(0, unpack ? ALU_V_UNPACK : ALU_V_PACK, 0);
        for (unsigned i = 0; i < n; i++) {
            const ptx_operand *e = exec_dec_vec_elem(s->d, vec, i);
            if (!e) { alu_unsupported(s, "bad vector operand"); return -1; }
            if (unpack ? !exec_dec_dst(s->d, s->pi, e, &out->d[i])
                       : !exec_dec_src(s->d, s->pi, e, et, &out->a[i]))
                return -1;
        }
        if (unpack) {
            out->nd = (uint8_t)n;
            if (!alu_src(s, 1, t, &out->a[0])) return -1;
            out->na = 1;
        } else {
            out->na = (uint8_t)n;
            if (!alu_dst(s, 0, &out->d[0])) return -1;
            out->nd = 1;
        }
        return 1;
    }
    const ptx_type st[1] = { t };
    return alu_values(s, t, 1, st) ? 1 : -1;
}

/* cvt: type = destination, type2 = source. */
static int alu_decode_cvt(alu_dec *s, ptx_type dt, ptx_type st) {
    exec_insn *out = s->out;
    const bool pair_from_f32 = (dt == PTX_T_f16x2 || dt == PTX_T_bf16x2 ||
                                dt == PTX_T_e4m3x2 || dt == PTX_T_e5m2x2) && st == PTX_T_f32;
    if (pair_from_f32) {
        const ptx_type sts[2] = { PTX_T_f32, PTX_T_f32 };
        if (!alu_values(s, dt, 2, sts)) return -1;
    } else {
        /* packed sources are read as their bits */
        const ptx_type sts[1] = { ptx_type_kinds[st] == 'x' ? (ptx_type_sizes[st] == 4 ? PTX_T_b32
                                                                                   : PTX_T_b16)
                                                            : st };
        if (!alu_values(s, dt, 1, sts)) return -1;
    }
    /* a signed integer result narrower than its register is sign-extended into it */
    const ptx_type rt = exec_dec_reg_type(s->d, &s->pi->opnd[0]);
    if (ptx_type_kinds[dt] == 's' && rt != PTX_T_NONE && ptx_type_sizes[rt] > ptx_type_sizes[dt])
        out->imm = ptx_type_sizes[rt] >= 8 ? -1 : (int64_t)((1ull << (8 * ptx_type_sizes[rt])) - 1);
    return 1;
}

/* Warp collectives. */
static int alu_decode_warp(alu_dec *s, const alu_mods *m, ptx_type t) {
    exec_insn *out = s->out;
    const ptx_insn *pi = s->pi;
    switch (pi->op) {
    case PTX_OP_activemask:
        if (!alu_opnd_count(s, 1) || !alu_dst(s, 0, &out->d[0])) return -1;
        out->nd = 1;
        return 1;
    case PTX_OP_shfl: {
        /* shfl.sync.mode.b32 d[|p], a, b, c, membermask (and the old form without it) */
        if (!alu_opnd_count(s, m->sync ? 5 : 4)) return -1;
        if (!alu_dst(s, 0, &out->d[0])) return -1;
        out->nd = 1;
        if (pi->opnd[0].reg2 >= 0) {
            if (!alu_second_pred(s, 0, &out->d[1])) return -1;
            out->nd = 2;
            out->flags |= EXEC_F_D2_PRED;
        }
        if (!alu_src(s, 1, PTX_T_b32, &out->a[0]) || !alu_src(s, 2, PTX_T_u32, &out->a[1]) ||
            !alu_src(s, 3, PTX_T_u32, &out->a[2]))
            return -1;
        if (m->sync ? !alu_src(s, 4, PTX_T_b32, &out->a[3])
                    : !alu_const_src(s, -1, PTX_T_b32, &out->a[3]))
            return -1;
        out->na = 4;
        return 1;
    }
    case PTX_OP_vote: {
        /* vote.sync.mode.pred d, {!}a, membermask; vote.sync.ballot.b32 d, {!}a, mask */
        if (!alu_opnd_count(s, m->sync ? 3 : 2)) return -1;
        if (t == PTX_T_pred) {
            if (!alu_pred(s, &pi->opnd[0], &out->d[0], NULL)) return -1;
            out->flags |= EXEC_F_D_PRED;
        } else if (!alu_dst(s, 0, &out->d[0])) {
            return -1;
        }
        out->nd = 1;
        bool neg;
        if (!alu_pred(s, &pi->opnd[1], &out->a[0], &neg)) return -1;
        if (neg) out->flags |= ALU_F_NEG_A0;
        if (m->sync ? !alu_src(s, 2, PTX_T_b32, &out->a[1])
                    : !alu_const_src(s, -1, PTX_T_b32, &out->a[1]))
            return -1;
        out->na = 2;
        return 1;
    }
    case PTX_OP_match:
    case PTX_OP_redux:
        if (!m->sync) return alu_unsupported(s, "needs .sync");
        if (!alu_opnd_count(s, 3) || !alu_dst(s, 0, &out->d[0])) return -1;
        out->nd = 1;
        if (pi->op == PTX_OP_match && pi->opnd[0].reg2 >= 0) {
            if (!alu_second_pred(s, 0, &out->d[1])) return -1;
            out->nd = 2;
            out->flags |= EXEC_F_D2_PRED;
        }
        if (!alu_src(s, 1, t, &out->a[0]) || !alu_src(s, 2, PTX_T_b32, &out->a[1])) return -1;
        out->na = 2;
        return 1;
    case PTX_OP_elect:
        /* elect.sync d|p, membermask (d may be '_') */
        if (!m->sync) return alu_unsupported(s, "needs .sync");
        if (!alu_opnd_count(s, 2) || !alu_dst(s, 0, &out->d[0]) ||
            !alu_second_pred(s, 0, &out->d[1]) || !alu_src(s, 1, PTX_T_b32, &out->a[0]))
            return -1;
        out->nd = 2;
        out->na = 1;
        out->flags |= EXEC_F_D2_PRED;
        return 1;
    default:
        return 0;
    }
}

bool exec_alu_owns(unsigned op) {
    switch (op) {
    case PTX_OP_abs: case PTX_OP_add: case PTX_OP_addc: case PTX_OP_and: case PTX_OP_bfe:
    case PTX_OP_bfi: case PTX_OP_bfind: case PTX_OP_bmsk: case PTX_OP_brev: case PTX_OP_clz:
    case PTX_OP_cnot: case PTX_OP_copysign: case PTX_OP_cos: case PTX_OP_cvt: case PTX_OP_div:
    case PTX_OP_dp2a: case PTX_OP_dp4a: case PTX_OP_ex2: case PTX_OP_fma: case PTX_OP_fns:
    case PTX_OP_lg2: case PTX_OP_lop3: case PTX_OP_mad: case PTX_OP_mad24: case PTX_OP_madc:
    case PTX_OP_max: case PTX_OP_min: case PTX_OP_mov: case PTX_OP_mul: case PTX_OP_mul24:
    case PTX_OP_neg: case PTX_OP_not: case PTX_OP_or: case PTX_OP_popc: case PTX_OP_prmt:
    case PTX_OP_rcp: case PTX_OP_rem: case PTX_OP_rsqrt: case PTX_OP_sad: case PTX_OP_selp:
    case PTX_OP_set: case PTX_OP_setp: case PTX_OP_shf: case PTX_OP_shl: case PTX_OP_shr:
    case PTX_OP_sin: case PTX_OP_slct: case PTX_OP_sqrt: case PTX_OP_sub: case PTX_OP_subc:
    case PTX_OP_szext: case PTX_OP_tanh: case PTX_OP_testp: case PTX_OP_xor:
    case PTX_OP_activemask: case PTX_OP_elect: case PTX_OP_match: case PTX_OP_redux:
    case PTX_OP_shfl: case PTX_OP_vote:
        return true;
    default:
        return false;
    }
}

/* How many types the opcode's spelling carries. */
static unsigned alu_ntypes(unsigned op) {
    switch (op) {
    case PTX_OP_cvt: case PTX_OP_set: case PTX_OP_slct: case PTX_OP_dp4a: case PTX_OP_dp2a:
        return 2;
    case PTX_OP_elect:
        return 0;
    default:
        return 1;
    }
}

static int alu_decode_body(alu_dec *s, const alu_mods *m) {
    const ptx_insn *pi = s->pi;
    exec_insn *out = s->out;
    const unsigned op = pi->op;
    const ptx_type t = pi->ntypes > 0 ? (ptx_type)pi->types[0] : PTX_T_NONE;
    const ptx_type t2 = pi->ntypes > 1 ? (ptx_type)pi->types[1] : PTX_T_NONE;
    const ptx_type u32 = PTX_T_u32;

    switch (op) {
    case PTX_OP_activemask: case PTX_OP_shfl: case PTX_OP_vote: case PTX_OP_match:
    case PTX_OP_redux: case PTX_OP_elect:
        return alu_decode_warp(s, m, t);
    case PTX_OP_setp:
        return alu_decode_setp(s, m, t);
    case PTX_OP_set:
        return alu_decode_set(s, m, t2);
    case PTX_OP_cvt:
        return alu_decode_cvt(s, t, t2);
    case PTX_OP_mov:
        if (t == PTX_T_pred) return alu_decode_pred_logic(s);
        return alu_decode_mov(s, t);
    case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor: case PTX_OP_not:
        if (t == PTX_T_pred) return alu_decode_pred_logic(s);
        break;
    default:
        break;
    }

    /* value instructions: d, sources */
    ptx_type st[4] = { t, t, t, t };
    unsigned n;
    switch (op) {
    case PTX_OP_abs: case PTX_OP_neg: case PTX_OP_not: case PTX_OP_cnot: case PTX_OP_brev:
    case PTX_OP_sqrt: case PTX_OP_rsqrt: case PTX_OP_rcp: case PTX_OP_sin: case PTX_OP_cos:
    case PTX_OP_lg2: case PTX_OP_ex2: case PTX_OP_tanh: case PTX_OP_popc: case PTX_OP_clz:
    case PTX_OP_bfind:
        n = 1;
        break;
    case PTX_OP_add: case PTX_OP_sub: case PTX_OP_addc: case PTX_OP_subc: case PTX_OP_mul:
    case PTX_OP_div: case PTX_OP_rem: case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor:
    case PTX_OP_copysign: case PTX_OP_mul24:
        n = 2;
        break;
    case PTX_OP_min: case PTX_OP_max:
        if (pi->nopnds == 4) return alu_unsupported(s, "three-source form");
        n = 2;
        break;
    case PTX_OP_shl: case PTX_OP_shr:
        n = 2; st[1] = u32;
        break;
    case PTX_OP_bmsk:
        n = 2; st[0] = st[1] = u32;
        break;
    case PTX_OP_szext:
        n = 2; st[1] = u32;
        break;
    case PTX_OP_mad: case PTX_OP_madc: case PTX_OP_mad24: case PTX_OP_sad: case PTX_OP_fma:
        n = 3;
        break;
    case PTX_OP_shf:
        n = 3; st[2] = u32;
        break;
    case PTX_OP_prmt:
        n = 3; st[2] = PTX_T_b32;
        break;
    case PTX_OP_bfe:
        n = 3; st[1] = st[2] = u32;
        break;
    case PTX_OP_bfi:
        n = 4; st[2] = st[3] = u32;
        break;
    case PTX_OP_fns:
        n = 3; st[1] = u32; st[2] = PTX_T_s32;
        break;
    case PTX_OP_lop3:
        n = 3;
        break;
    case PTX_OP_dp4a: case PTX_OP_dp2a:
        n = 3; st[1] = t2;
        st[2] = (t == PTX_T_u32 && t2 == PTX_T_u32) ? PTX_T_u32 : PTX_T_s32;
        out->type2 = (uint8_t)t2;
        break;
    case PTX_OP_selp:
        n = 2;
        break;
    case PTX_OP_slct:
        n = 3; st[2] = t2;
        out->type2 = (uint8_t)t2;
        break;
    case PTX_OP_testp:
        if (!alu_opnd_count(s, 2)) return -1;
        if (!alu_pred(s, &pi->opnd[0], &out->d[0], NULL)) return -1;
        out->nd = 1;
        out->flags |= EXEC_F_D_PRED;
        if (!alu_src(s, 1, t, &out->a[0])) return -1;
        out->na = 1;
        return 1;
    default:
        return alu_unsupported(s, NULL);
    }
    /* .wide: mad's addend is as wide as the result */
    if (m->var == ALU_V_WIDE && (op == PTX_OP_mad || op == PTX_OP_madc)) {
        st[2] = alu_wide_type(t);
        if (st[2] == PTX_T_NONE) return alu_unsupported(s, NULL);
    }

    if (op == PTX_OP_lop3) {
        /* lop3.b32 d, a, b, c, immLut; lop3.{or,and}.b32 d|p, a, b, c, immLut, q */
        if (!alu_opnd_count(s, m->boolop ? 6 : 5)) return -1;
        if (m->boolop) {
            if (!alu_second_pred(s, 0, &out->d[1]) || !alu_pred(s, &pi->opnd[5], &out->a[3], NULL))
                return -1;
            out->nd = 2;
        }
        if (pi->opnd[4].kind != PTX_OPND_IMM_INT)
            return alu_unsupported(s, "immLut must be an immediate");
        if (!alu_dst(s, 0, &out->d[0])) return -1;
        if (!m->boolop) out->nd = 1;
        for (unsigned i = 0; i < 3; i++)
            if (!alu_src(s, 1 + i, t, &out->a[i])) return -1;
        out->na = 3;
        out->imm = pi->opnd[4].ival & 0xff;
        return 1;
    }
    if (op == PTX_OP_selp) {
        /* selp.type d, a, b, c: c is a predicate ("!c" swaps a and b) */
        if (!alu_opnd_count(s, 4)) return -1;
        if (!alu_dst(s, 0, &out->d[0])) return -1;
        out->nd = 1;
        bool neg;
        if (!alu_pred(s, &pi->opnd[3], &out->a[2], &neg)) return -1;
        if (!alu_src(s, neg ? 2 : 1, t, &out->a[0]) || !alu_src(s, neg ? 1 : 2, t, &out->a[1]))
            return -1;
        out->na = 3;
        return 1;
    }
    return alu_values(s, t, n, st) ? 1 : -1;
}

/* cvt.pack.sat.ctype.s32 d, a, b (ctype .u16/.s16) and cvt.pack.sat.ctype.s32.b32 d, a,
 * b, c (ctype .u8/.s8, or the modifiers .u4/.s4/.u2/.s2): type u32, type2 s32, variant
 * ALU_V_PACK, imm = ctype bits << 1 | signed (alu_cvt.c). */
static int alu_decode_cvt_pack(alu_dec *s) {
    const ptx_insn *pi = s->pi;
    exec_insn *out = s->out;
    unsigned bits = 0, ntypes_ab = pi->ntypes;
    bool sgn = false, sat = false;
    for (unsigned i = 0; i < pi->nmods; i++) {
        switch (pi->mods[i]) {
        case PTX_MOD_pack: break;
        case PTX_MOD_sat: sat = true; break;
        case PTX_MOD_u2: case PTX_MOD_s2: case PTX_MOD_u4: case PTX_MOD_s4:
            if (bits) return alu_unsupported(s, "two convert types");
            bits = pi->mods[i] == PTX_MOD_u2 || pi->mods[i] == PTX_MOD_s2 ? 2 : 4;
            sgn = pi->mods[i] == PTX_MOD_s2 || pi->mods[i] == PTX_MOD_s4;
            break;
        default: return alu_unsupported(s, "modifier not allowed with .pack");
        }
    }
    unsigned first = 0;
    if (!bits) {
        if (pi->ntypes < 1) return alu_unsupported(s, "missing convert type");
        switch (pi->types[0]) {
        case PTX_T_u16: bits = 16; break;
        case PTX_T_s16: bits = 16; sgn = true; break;
        case PTX_T_u8: bits = 8; break;
        case PTX_T_s8: bits = 8; sgn = true; break;
        default: return alu_unsupported(s, "convert type");
        }
        first = 1;
        ntypes_ab = pi->ntypes - 1;
    }
    /* .s32 for a and b, then .b32 for c where the form has one */
    const unsigned nsrc = bits == 16 ? 2 : 3;
    if (!sat || ntypes_ab != nsrc - 1 || pi->types[first] != PTX_T_s32 ||
        (nsrc == 3 && pi->types[first + 1] != PTX_T_b32))
        return alu_unsupported(s, "needs .sat and .s32 sources (.b32 for c)");
    if (!alu_opnd_count(s, nsrc + 1) || !alu_dst(s, 0, &out->d[0])) return -1;
    out->nd = 1;
    for (unsigned i = 0; i < nsrc; i++)
        if (!alu_src(s, 1 + i, i < 2 ? PTX_T_s32 : PTX_T_b32, &out->a[i])) return -1;
    out->na = (uint8_t)nsrc;
    out->op = pi->op;
    out->type = PTX_T_u32;
    out->type2 = PTX_T_s32;
    out->flags |= EXEC_F_SAT;
    out->aux = ALU_AUX(0, ALU_V_PACK, 0);
    out->imm = (int64_t)(bits << 1 | (sgn ? 1u : 0u));
    out->fn = exec_alu_lookup(out);
    return out->fn ? 1 : alu_unsupported(s, NULL);
}

int exec_decode_alu(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (!exec_alu_owns(pi->op)) return 0;
    alu_dec s = { d, pi, out };
    if (pi->op == PTX_OP_cvt && ptx_insn_has_mod(pi, PTX_MOD_pack)) return alu_decode_cvt_pack(&s);
    if (pi->ntypes != alu_ntypes(pi->op) &&
        !(pi->op == PTX_OP_elect && pi->ntypes == 0))
        return alu_unsupported(&s, "unexpected number of types");
    alu_mods m;
    if (!alu_parse_mods(&s, &m)) return -1;
    out->op = pi->op;
    out->type = pi->ntypes > 0 ? pi->types[0] : PTX_T_NONE;
    out->flags |= m.flags;
    /* addc/subc/madc read the carry; .cc (parsed into the flags) writes it */
    if (pi->op == PTX_OP_addc || pi->op == PTX_OP_subc || pi->op == PTX_OP_madc)
        out->flags |= EXEC_F_CC_IN;
    if (pi->op == PTX_OP_cvt || pi->op == PTX_OP_set) out->type2 = pi->types[1];
    out->aux = ALU_AUX(m.rnd, m.var, m.boolop);
    const bool is_sync_op = pi->op == PTX_OP_shfl || pi->op == PTX_OP_vote ||
                            pi->op == PTX_OP_match || pi->op == PTX_OP_redux ||
                            pi->op == PTX_OP_elect;
    if (m.sync && !is_sync_op) return alu_unsupported(&s, "modifier .sync");
    int r = alu_decode_body(&s, &m);
    if (r <= 0) return r < 0 ? -1 : alu_unsupported(&s, NULL);
    out->fn = exec_alu_lookup(out);
    if (!out->fn) return alu_unsupported(&s, NULL);
    return 1;
}
