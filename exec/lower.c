/* exec/lower.c — the decoder: turns one function's IR into pre-decoded exec_insns.
 *
 * Every IR register gets a slot (predicates a P index); immediates and symbol addresses
 * become constant slots, filled once when a frame is entered; special registers are read
 * into scratch slots by an instruction inserted before their user. Each instruction goes
 * first to the ALU decoder (exec_decode_alu), then to the core's class decoders (memory,
 * atomics, control, synchronisation); one nobody decodes fails the load with its name
 * and line. A float add or sub that ptxas would fuse with an earlier mul is decoded as
 * that fma (exec/contract.c).
 */
#include "core.h"
#include "alu_internal.h" /* float formats and their bit patterns */
#include "contract.h"

#include <stdio.h>
#include <stdlib.h>

bool exec_dec_error(exec_decoder *d, const ptx_insn *pi, const char *fmt, ...) {
    if (d->failed) return false;
    d->failed = true;
    char what[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const ptx_srcloc *loc = pi ? &pi->loc : &d->pf->loc;
    snprintf(d->err, d->errlen, "%s:%u:%u: error: %s",
             d->m->source_name ? d->m->source_name : "<ptx>", loc->ptx_line,
             (unsigned)loc->ptx_col, what);
    return false;
}

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t elem) {
    if (need <= *cap) return p;
    uint32_t n = *cap ? *cap : 16;
    while (n < need) n *= 2;
    void *q = realloc(p, (size_t)n * elem);
    if (!q) abort(); /* out of host memory while loading: nothing sensible to do */
    *cap = n;
    return q;
}

void exec_dec_emit(exec_decoder *d, const exec_insn *in) {
    d->code = grow(d->code, &d->code_cap, d->ncode + 1, sizeof *d->code);
    exec_insn *e = &d->code[d->ncode++];
    *e = *in;
    const ptx_func *pf = d->pf;
    e->src_index = in->src >= pf->insns && in->src < pf->insns + pf->ninsns
                       ? (uint32_t)(in->src - pf->insns) : 0;
}

void *exec_dec_blob(exec_decoder *d, size_t size) {
    exec_func *f = d->f;
    void **b = realloc(f->blobs, (f->nblobs + 1) * sizeof *b);
    void *p = calloc(1, size);
    if (!b || !p) abort(); /* out of host memory while loading */
    f->blobs = b;
    return f->blobs[f->nblobs++] = p;
}

uint32_t exec_dec_scratch(exec_decoder *d) {
    if (d->scratch_used == d->nscratch) {
        uint32_t cap = d->nscratch;
        d->scratch = grow(d->scratch, &cap, d->nscratch + 1, sizeof *d->scratch);
        d->scratch[d->nscratch++] = d->next_slot++;
    }
    return d->scratch[d->scratch_used++];
}

uint32_t exec_dec_const(exec_decoder *d, uint8_t kind, uint32_t sid, uint64_t value) {
    exec_func *f = d->f;
    for (uint32_t i = 0; i < f->nconsts; i++) {
        const exec_const *c = &f->consts[i];
        if (c->kind == kind && c->value == value && c->sid == sid) return c->slot;
    }
    f->consts = grow(f->consts, &d->consts_cap, f->nconsts + 1, sizeof *f->consts);
    exec_const *c = &f->consts[f->nconsts++];
    c->kind = kind;
    c->sid = sid;
    c->value = value;
    c->slot = d->next_slot++;
    return c->slot;
}

static void note_sid(exec_decoder *d, uint32_t sid) {
    exec_func *f = d->f;
    for (uint32_t i = 0; i < f->nused_sids; i++)
        if (f->used_sids[i] == sid) return;
    f->used_sids = grow(f->used_sids, &d->sids_cap, f->nused_sids + 1, sizeof *f->used_sids);
    f->used_sids[f->nused_sids++] = sid;
}

ptx_space exec_dec_sym_space(exec_decoder *d, const ptx_symref *s) {
    switch (s->scope) {
    case PTX_SYM_MODULE_VAR: return (ptx_space)d->m->vars[s->index].space;
    case PTX_SYM_LOCAL_VAR: return (ptx_space)d->pf->locals[s->index].space;
    case PTX_SYM_PARAM: case PTX_SYM_RETPARAM: return PTX_SPACE_PARAM;
    default: return PTX_SPACE_NONE;
    }
}

bool exec_dec_sym_slot(exec_decoder *d, const ptx_insn *pi, const ptx_symref *s,
                       int64_t addend, uint32_t *slot) {
    const exec_func *f = d->f;
    uint64_t a = (uint64_t)addend;
    switch (s->scope) {
    case PTX_SYM_MODULE_VAR: {
        const ptx_var *v = &d->m->vars[s->index];
        if (v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST) {
            *slot = exec_dec_const(d, EXEC_CK_ADDR, 0,
                                   (uint64_t)(uintptr_t)d->prog->var_addr[s->index] + a);
            return true;
        }
        if (v->space == PTX_SPACE_SHARED) {
            if (v->is_extern) {
                *slot = exec_dec_const(d, EXEC_CK_DYN_SHARED, 0, a);
            } else {
                uint32_t sid = (uint32_t)d->prog->var_sid[s->index];
                note_sid(d, sid);
                *slot = exec_dec_const(d, EXEC_CK_SHARED, sid, a);
            }
            return true;
        }
        return exec_dec_error(d, pi, "module-level variable '%s' in this state space is not "
                              "supported", v->name);
    }
    case PTX_SYM_FUNC:
        *slot = exec_dec_const(d, EXEC_CK_VALUE, 0,
                               EXEC_FUNC_TOKEN_BASE +
                                   (uint64_t)s->index * EXEC_FUNC_TOKEN_STEP + a);
        return true;
    case PTX_SYM_LOCAL_VAR: {
        if (f->local_sid[s->index] >= 0) {
            uint32_t sid = (uint32_t)f->local_sid[s->index];
            note_sid(d, sid);
            *slot = exec_dec_const(d, EXEC_CK_SHARED, sid, a);
            return true;
        }
        if (f->local_off[s->index] < 0)
            return exec_dec_error(d, pi, "variable '%s' has no address",
                                  d->pf->locals[s->index].name);
        *slot = exec_dec_const(d, EXEC_CK_LOCAL, 0, (uint64_t)f->local_off[s->index] + a);
        return true;
    }
    case PTX_SYM_PARAM:
        if (d->pf->is_entry)
            *slot = exec_dec_const(d, EXEC_CK_VALUE, 0,
                                   EXEC_KPARAM_BASE + f->param_off[s->index] + a);
        else
            *slot = exec_dec_const(d, EXEC_CK_LOCAL, 0, (uint64_t)f->param_off[s->index] + a);
        return true;
    case PTX_SYM_RETPARAM:
        if (d->pf->is_entry) return exec_dec_error(d, pi, "kernel has no return parameter");
        *slot = exec_dec_const(d, EXEC_CK_LOCAL, 0, (uint64_t)f->ret_off[s->index] + a);
        return true;
    }
    return exec_dec_error(d, pi, "bad symbol reference");
}

/* The bit pattern of immediate o as type t, zero-extended to 64 bits. */
static bool imm_bits(const ptx_operand *o, ptx_type t, uint64_t *out) {
    unsigned size = t < PTX_T_COUNT ? ptx_type_sizes[t] : 0;
    char kind = t < PTX_T_COUNT ? ptx_type_kinds[t] : 0;
    uint64_t v;
    if (kind == 'f') {
        double x = o->kind == PTX_OPND_IMM_INT ? (double)o->ival : o->fval;
        bool bits_given = (o->kind == PTX_OPND_IMM_F32 && size == 4) ||
                          (o->kind == PTX_OPND_IMM_F64 && size == 8);
        if (bits_given) v = (uint64_t)o->ival;
        else if (size == 8) v = alu_f64_bits(x);
        else if (size == 4) v = alu_f32_bits((float)x);
        else if (t == PTX_T_bf16) v = alu_double_to_fmt(x, EXEC_RND_RN, &alu_fmt_bf16, false);
        else if (t == PTX_T_f16) v = alu_double_to_fmt(x, EXEC_RND_RN, &alu_fmt_f16, false);
        else return false;
    } else {
        v = (uint64_t)o->ival; /* integer value, or the float's bit pattern */
    }
    if (size && size < 8) v &= (1ull << (size * 8)) - 1;
    *out = v;
    return true;
}

bool exec_dec_src(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, ptx_type t,
                  uint32_t *slot) {
    switch (o->kind) {
    case PTX_OPND_REG:
        if (d->pf->regs[o->reg].type == PTX_T_pred)
            return exec_dec_error(d, pi, "predicate %s used as a value",
                                  d->pf->regs[o->reg].name);
        *slot = d->reg_slot[o->reg];
        return true;
    case PTX_OPND_IMM_INT: case PTX_OPND_IMM_F32: case PTX_OPND_IMM_F64: {
        uint64_t v;
        if (!imm_bits(o, t, &v))
            return exec_dec_error(d, pi, "immediate cannot be used as .%s",
                                  t < PTX_T_COUNT && ptx_type_names[t] ? ptx_type_names[t] : "?");
        *slot = exec_dec_const(d, EXEC_CK_VALUE, 0, v);
        return true;
    }
    case PTX_OPND_SYM:
        return exec_dec_sym_slot(d, pi, &o->sym, o->ival, slot);
    case PTX_OPND_SREG: {
        exec_insn r;
        memset(&r, 0, sizeof r);
        r.fn = exec_h_sreg;
        r.op = pi->op;
        r.flags = EXEC_F_PSEUDO;
        r.obs = EXEC_OBS_K_HIDDEN;
        r.guard = -1;
        r.nd = 1;
        r.d[0] = exec_dec_scratch(d);
        r.target = o->sreg;
        r.reconv = -1;
        r.src = pi;
        exec_dec_emit(d, &r);
        *slot = r.d[0];
        return true;
    }
    default:
        return exec_dec_error(d, pi, "operand cannot be read as a value");
    }
}

bool exec_dec_dst(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, uint32_t *slot) {
    if (o->kind == PTX_OPND_SINK) {
        *slot = exec_dec_scratch(d);
        return true;
    }
    if (o->kind != PTX_OPND_REG) return exec_dec_error(d, pi, "destination is not a register");
    if (d->pf->regs[o->reg].type == PTX_T_pred)
        return exec_dec_error(d, pi, "predicate %s used as a value register",
                              d->pf->regs[o->reg].name);
    *slot = d->reg_slot[o->reg];
    return true;
}

bool exec_dec_pred(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, uint32_t *pred,
                   bool *neg) {
    if (o->kind == PTX_OPND_REG && d->pf->regs[o->reg].type == PTX_T_pred) {
        *pred = d->reg_slot[o->reg];
        if (neg) *neg = o->neg;
        return true;
    }
    if (o->kind == PTX_OPND_IMM_INT && (o->ival == 0 || o->ival == 1 || o->ival == -1)) {
        /* 0 is false; 1 and -1 (all bits set, as nvcc writes it) are true */
        *pred = o->ival ? d->f->pred_true : d->f->pred_false;
        if (neg) *neg = o->neg;
        return true;
    }
    return exec_dec_error(d, pi, "operand is not a predicate");
}

const ptx_operand *exec_dec_vec_elem(exec_decoder *d, const ptx_operand *vec, unsigned k) {
    if (k >= vec->vec_n) return NULL;
    return &d->pf->vec_elems[vec->vec_first + k];
}

ptx_type exec_dec_reg_type(exec_decoder *d, const ptx_operand *o) {
    if (o->kind != PTX_OPND_REG) return PTX_T_NONE;
    return (ptx_type)d->pf->regs[o->reg].type;
}

bool exec_dec_has_mod_named(const ptx_insn *pi, const char *name) {
    for (unsigned i = 0; i < pi->nmods; i++)
        if (pi->mods[i] < PTX_MOD_COUNT && ptx_mod_names[pi->mods[i]] &&
            !strcmp(ptx_mod_names[pi->mods[i]], name))
            return true;
    return false;
}

ptx_space exec_dec_space(const ptx_insn *pi) {
    for (unsigned i = 0; i < pi->nmods; i++) {
        switch (pi->mods[i]) {
        case PTX_MOD_global: return PTX_SPACE_GLOBAL;
        case PTX_MOD_shared: case PTX_MOD_shared_cta: case PTX_MOD_shared_cluster:
            return PTX_SPACE_SHARED;
        case PTX_MOD_local: return PTX_SPACE_LOCAL;
        case PTX_MOD_const_: return PTX_SPACE_CONST;
        case PTX_MOD_param: case PTX_MOD_param_entry: case PTX_MOD_param_func:
            return PTX_SPACE_PARAM;
        default: break;
        }
    }
    return PTX_SPACE_GENERIC;
}

static int decode_one(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    /* mov of a symbol's address is a memory-layout question, and mov of a special
     * register a read of warp state, so the core answers them before the ALU decoder
     * sees the register and immediate forms. */
    int r = exec_decode_sreg_mov(d, pi, out);
    if (r == 0) r = exec_decode_memory(d, pi, out);
    if (r == 0) r = exec_decode_alu(d, pi, out);
    if (r == 0) r = exec_decode_video(d, pi, out);
    if (r == 0) r = exec_decode_atomic(d, pi, out);
    if (r == 0) r = exec_decode_control(d, pi, out);
    if (r == 0) r = exec_decode_sync(d, pi, out);
    if (r == 0) r = exec_decode_cluster(d, pi, out);
    if (r == 0) r = exec_decode_mma(d, pi, out);
    if (r == 0) r = exec_decode_texture(d, pi, out);
    if (r == 0) r = exec_decode_stack(d, pi, out);
    if (r == 0) r = exec_decode_tensormap(d, pi, out);
    if (r == 0) {
        char text[200];
        ptx_insn_str(d->m, d->pf, pi, text, sizeof text);
        size_t n = strlen(text);
        if (n && text[n - 1] == ';') text[n - 1] = 0;
        exec_dec_error(d, pi, "unsupported instruction '%s'", text);
        return -1;
    }
    return r;
}

/* A function that allocates on its stack gives its allocations back when it returns, as
 * the ISA says: the decoder saves the stack pointer in a slot of its own on entry and
 * restores it before each ret (under the ret's guard), with hidden instructions. */
static bool func_allocates(const ptx_func *pf) {
    if (pf->is_entry) return false;
    for (uint32_t i = 0; i < pf->ninsns; i++)
        if (pf->insns[i].op == PTX_OP_alloca) return true;
    return false;
}

static void emit_stack_op(exec_decoder *d, const ptx_insn *pi, bool save, uint32_t slot) {
    exec_insn r;
    memset(&r, 0, sizeof r);
    r.fn = save ? exec_h_stacksave : exec_h_stackrestore;
    r.op = save ? PTX_OP_stacksave : PTX_OP_stackrestore;
    r.type = PTX_T_u64;
    r.flags = EXEC_F_PSEUDO;
    r.obs = EXEC_OBS_K_HIDDEN;
    r.guard = !save && pi && pi->guard >= 0 ? (int32_t)d->reg_slot[pi->guard] : -1;
    r.guard_neg = !save && pi && pi->guard >= 0 && pi->guard_neg;
    r.vec = 1;
    if (save) { r.nd = 1; r.d[0] = slot; }
    else { r.na = 1; r.a[0] = slot; }
    r.reconv = -1;
    r.src = pi;
    exec_dec_emit(d, &r);
}

/* Decode the body of f. Slots and frame layout are already assigned (program.c). */
bool exec_lower_func(exec_program *prog, exec_func *f, uint32_t *reg_slot, uint32_t first_free,
                     char *err, size_t errlen) {
    const ptx_func *pf = f->pf;
    exec_decoder d;
    memset(&d, 0, sizeof d);
    d.prog = prog;
    d.m = prog->m;
    d.pf = pf;
    d.f = f;
    d.reg_slot = reg_slot;
    d.next_slot = first_free;
    d.err = err;
    d.errlen = errlen;
    d.pc_map = malloc(((size_t)pf->ninsns + 1) * sizeof *d.pc_map);
    if (!d.pc_map) abort();
    /* ptxas contracts at its default optimisation only: not in a debug module (nvcc -G),
     * which it assembles at -O0 */
    exec_contract contract;
    bool contracts = !prog->m->target_debug && exec_contract_plan(pf, &contract);
    bool frees = func_allocates(pf);
    uint32_t saved_sp = frees ? d.next_slot++ : 0;
    if (frees) emit_stack_op(&d, pf->ninsns ? &pf->insns[0] : NULL, true, saved_sp);

    for (uint32_t i = 0; i < pf->ninsns && !d.failed; i++) {
        const ptx_insn *pi = &pf->insns[i];
        d.pc_map[i] = d.ncode;
        d.scratch_used = 0;
        exec_insn out;
        memset(&out, 0, sizeof out);
        out.guard = -1;
        out.reconv = -1;
        out.vec = 1;
        if (frees && pi->op == PTX_OP_ret) emit_stack_op(&d, pi, false, saved_sp);
        ptx_insn fused; /* the fma a contracted add/sub is decoded as */
        if (contracts && contract.mul_of[i] >= 0) {
            if (exec_contract_decode(&d, &contract, i, &fused, &out) < 0) break;
            out.op = fused.op;
        } else {
            if (decode_one(&d, pi, &out) < 0) break;
            out.op = pi->op;
        }
        out.src = pi;
        exec_observe_classify(pf, pi, &out);
        if (pi->guard >= 0) {
            if (pf->regs[pi->guard].type != PTX_T_pred) {
                exec_dec_error(&d, pi, "guard %s is not a predicate", pf->regs[pi->guard].name);
                break;
            }
            out.guard = (int32_t)reg_slot[pi->guard];
            out.guard_neg = pi->guard_neg;
        }
        exec_dec_emit(&d, &out);
    }
    bool ok = !d.failed;
    if (ok) {
        d.pc_map[pf->ninsns] = d.ncode;
        /* Falling off the end of a body behaves like ret (exit in a kernel). */
        if (frees) emit_stack_op(&d, NULL, false, saved_sp);
        exec_insn end;
        memset(&end, 0, sizeof end);
        end.fn = exec_h_ret;
        end.op = PTX_OP_ret;
        end.obs = EXEC_OBS_K_HIDDEN; /* no PTX instruction to name */
        end.guard = -1;
        end.reconv = -1;
        exec_dec_emit(&d, &end);
        for (uint32_t i = 0; i < f->njump; i++) f->jump_tables[i] = (int32_t)d.pc_map[f->jump_tables[i]];
        for (uint32_t i = 0; i < d.nfixups; i++) {
            exec_insn *in = &d.code[d.fixups[i] >> 1];
            if ((d.fixups[i] & 1) && in->target >= 0) in->target = (int32_t)d.pc_map[in->target];
            if (in->reconv >= 0) in->reconv = (int32_t)d.pc_map[in->reconv];
        }
        f->code = d.code;
        f->ncode = d.ncode - 1;
        f->nslots = d.next_slot;
        exec_uniform_pass(f, reg_slot);
    } else {
        free(d.code);
    }
    free(d.pc_map);
    free(d.scratch);
    free(d.fixups);
    if (contracts) exec_contract_free(&contract);
    return ok;
}

void exec_dec_fixup(exec_decoder *d, bool target) {
    d->fixups = grow(d->fixups, &d->fixups_cap, d->nfixups + 1, sizeof *d->fixups);
    /* the instruction about to be emitted; bit 0: its target is an IR index too */
    d->fixups[d->nfixups++] = d->ncode << 1 | (target ? 1u : 0u);
}
