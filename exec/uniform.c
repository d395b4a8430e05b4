/* exec/uniform.c — warp-uniform instructions: a divergence analysis run once per function
 * after decoding, and the handler that runs an instruction whose operands are the same in
 * every lane once, for one lane, and copies the result to the others.
 *
 * Loop counters, strides, block offsets and kernel parameters hold one value across the
 * warp; computing them 32 times is most of the work of a typical kernel's scalar code.
 * An instruction is run once when every register it reads is uniform: at every read, all
 * the lanes executing the read hold the same value. The analysis proves that per IR
 * register, optimistically, as a fixed point. A register is divergent when one of its
 * definitions
 *   - reads a divergent register or a lane-variant special register (%tid, %laneid,
 *     %lanemask_*), or is not an operation whose result depends only on its operands
 *     (atomics, warp collectives, loads from per-thread or generic memory, carry
 *     arithmetic, calls, anything unlisted);
 *   - has a divergent guard (only some lanes write it);
 *   - lies in the region of a divergent branch: code reachable from the branch before
 *     its reconvergence point, which runs with only some of the lanes.
 * A branch is divergent when its guard (or brx.idx index) is divergent, except where one
 * side goes straight to the thread's end: those lanes exit at once (control.c, diverge)
 * and the rest go on together. Guarded ret and exit never split a warp either: the
 * lanes leave and the rest go on.
 *
 * Only instructions with a listed, checked destination layout are converted; anything
 * else keeps its lane loop, which is always correct. So the analysis may be as
 * conservative as it likes, and it is: an unlisted instruction makes every register it
 * names divergent.
 */
#include "core.h"
#include "alu_internal.h" /* exec_alu_lookup: which lane handler means what */

#include <stdlib.h>

/* Run in once, for the first lane of mask, then give every lane of mask that lane's
 * destinations. The operands are uniform over mask (the analysis below), so the other
 * lanes would have computed the same. */
static void h_uniform(exec_warp *w, const exec_insn *in, uint32_t mask) {
    uint32_t lane = (uint32_t)__builtin_ctz(mask);
    uint32_t one = 1u << lane;
    in->lane_fn(w, in, one);
    if (mask == one || w->fault) return;
    for (unsigned k = 0; k < in->nd; k++) {
        bool pred = (k == 0 && (in->flags & EXEC_F_D_PRED)) ||
                    (k == 1 && (in->flags & EXEC_F_D2_PRED));
        if (pred) {
            uint32_t *p = &w->P[in->d[k]];
            *p = (*p & ~mask) | ((*p & one) ? mask : 0);
        } else {
            uint64_t *d = &EXEC_R(w, in->d[k], 0);
            exec_broadcast(d, mask, d[lane]);
        }
    }
}

/* The same for the common shapes: one value register, one predicate. */
static void h_uniform_value(exec_warp *w, const exec_insn *in, uint32_t mask) {
    uint32_t lane = (uint32_t)__builtin_ctz(mask);
    in->lane_fn(w, in, 1u << lane);
    uint64_t *d = &EXEC_R(w, in->d[0], 0);
    exec_broadcast(d, mask, d[lane]);
}

static void h_uniform_pred(exec_warp *w, const exec_insn *in, uint32_t mask) {
    uint32_t lane = (uint32_t)__builtin_ctz(mask);
    in->lane_fn(w, in, 1u << lane);
    uint32_t *p = &w->P[in->d[0]];
    *p = (*p & ~mask) | (((*p >> lane) & 1u) ? mask : 0);
}

/* ---- the common integer operations, computed once without the lane handler ----
 * Each is the scalar form of the lane handler that exec_alu_lookup gives the probe
 * instruction in its row of scalar_ops below (tests/unit/test_exec_uniform.c compares
 * the two on edge values). */
#define UNI_A(i) EXEC_R(w, in->a[i], lane)
#define UNI_VALUE_OP(name, expr)                                                          \
    static void name(exec_warp *w, const exec_insn *in, uint32_t mask) {                 \
        uint32_t lane = (uint32_t)__builtin_ctz(mask);                                    \
        uint64_t a = UNI_A(0), b = in->na > 1 ? UNI_A(1) : 0;                             \
        (void)b;                                                                          \
        exec_broadcast(&EXEC_R(w, in->d[0], 0), mask, (uint64_t)(expr));                  \
    }
UNI_VALUE_OP(u_mov, a)
UNI_VALUE_OP(u_add_32, (uint32_t)(a + b))
UNI_VALUE_OP(u_add_64, a + b)
UNI_VALUE_OP(u_sub_32, (uint32_t)(a - b))
UNI_VALUE_OP(u_sub_64, a - b)
UNI_VALUE_OP(u_mul_lo_32, (uint32_t)((uint32_t)a * (uint32_t)b))
UNI_VALUE_OP(u_mul_lo_64, a * b)
UNI_VALUE_OP(u_mul_wide_u32, (uint64_t)(uint32_t)a * (uint32_t)b)
UNI_VALUE_OP(u_mul_wide_s32, (uint64_t)((int64_t)(int32_t)a * (int32_t)b))
UNI_VALUE_OP(u_and_32, (uint32_t)(a & b))
UNI_VALUE_OP(u_and_64, a & b)
UNI_VALUE_OP(u_or_32, (uint32_t)(a | b))
UNI_VALUE_OP(u_or_64, a | b)
UNI_VALUE_OP(u_xor_32, (uint32_t)(a ^ b))
UNI_VALUE_OP(u_xor_64, a ^ b)
/* shift amounts are .u32 and saturate at the width */
UNI_VALUE_OP(u_shl_32, (uint32_t)b >= 32 ? 0 : (uint32_t)((uint32_t)a << (uint32_t)b))
UNI_VALUE_OP(u_shl_64, (uint32_t)b >= 64 ? 0 : a << (uint32_t)b)
UNI_VALUE_OP(u_shr_u32, (uint32_t)b >= 32 ? 0 : (uint32_t)a >> (uint32_t)b)
UNI_VALUE_OP(u_shr_u64, (uint32_t)b >= 64 ? 0 : a >> (uint32_t)b)
UNI_VALUE_OP(u_shr_s32,
             (uint32_t)((int32_t)a >> ((uint32_t)b >= 32 ? 31 : (uint32_t)b)))
UNI_VALUE_OP(u_shr_s64, (uint64_t)((int64_t)a >> ((uint32_t)b >= 64 ? 63 : (uint32_t)b)))

/* setp without a combining predicate or second destination */
#define UNI_SETP(name, T, OP)                                                             \
    static void name(exec_warp *w, const exec_insn *in, uint32_t mask) {                 \
        uint32_t lane = (uint32_t)__builtin_ctz(mask);                                    \
        bool t = (T)UNI_A(0) OP (T)UNI_A(1);                                              \
        uint32_t *p = &w->P[in->d[0]];                                                    \
        *p = (*p & ~mask) | (t ? mask : 0);                                               \
    }
#define UNI_SETPS(T)                                                                      \
    UNI_SETP(u_setp_##T##_eq, T, ==) UNI_SETP(u_setp_##T##_ne, T, !=)                     \
    UNI_SETP(u_setp_##T##_lt, T, <) UNI_SETP(u_setp_##T##_le, T, <=)                      \
    UNI_SETP(u_setp_##T##_gt, T, >) UNI_SETP(u_setp_##T##_ge, T, >=)
UNI_SETPS(uint32_t)
UNI_SETPS(int32_t)
UNI_SETPS(uint64_t)
UNI_SETPS(int64_t)

/* A probe instruction (op, type, variant) and the scalar handler for the lane handler
 * exec_alu_lookup gives it. */
typedef struct scalar_op {
    uint16_t op;
    uint8_t type;
    uint8_t var;
    exec_fn fn;
} scalar_op;

#define SETP_ROW(T, PT)                                                                   \
    {PTX_OP_setp, PT, ALU_V_EQ, u_setp_##T##_eq}, {PTX_OP_setp, PT, ALU_V_NE, u_setp_##T##_ne}, \
    {PTX_OP_setp, PT, ALU_V_LT, u_setp_##T##_lt}, {PTX_OP_setp, PT, ALU_V_LE, u_setp_##T##_le}, \
    {PTX_OP_setp, PT, ALU_V_GT, u_setp_##T##_gt}, {PTX_OP_setp, PT, ALU_V_GE, u_setp_##T##_ge}
static const scalar_op scalar_ops[] = {
    {PTX_OP_mov, PTX_T_u32, ALU_V_NONE, u_mov},
    {PTX_OP_add, PTX_T_u32, ALU_V_NONE, u_add_32}, {PTX_OP_add, PTX_T_u64, ALU_V_NONE, u_add_64},
    {PTX_OP_sub, PTX_T_u32, ALU_V_NONE, u_sub_32}, {PTX_OP_sub, PTX_T_u64, ALU_V_NONE, u_sub_64},
    {PTX_OP_mul, PTX_T_u32, ALU_V_LO, u_mul_lo_32}, {PTX_OP_mul, PTX_T_u64, ALU_V_LO, u_mul_lo_64},
    {PTX_OP_mul, PTX_T_u32, ALU_V_WIDE, u_mul_wide_u32},
    {PTX_OP_mul, PTX_T_s32, ALU_V_WIDE, u_mul_wide_s32},
    {PTX_OP_and, PTX_T_b32, ALU_V_NONE, u_and_32}, {PTX_OP_and, PTX_T_b64, ALU_V_NONE, u_and_64},
    {PTX_OP_or, PTX_T_b32, ALU_V_NONE, u_or_32}, {PTX_OP_or, PTX_T_b64, ALU_V_NONE, u_or_64},
    {PTX_OP_xor, PTX_T_b32, ALU_V_NONE, u_xor_32}, {PTX_OP_xor, PTX_T_b64, ALU_V_NONE, u_xor_64},
    {PTX_OP_shl, PTX_T_b32, ALU_V_NONE, u_shl_32}, {PTX_OP_shl, PTX_T_b64, ALU_V_NONE, u_shl_64},
    {PTX_OP_shr, PTX_T_u32, ALU_V_NONE, u_shr_u32}, {PTX_OP_shr, PTX_T_u64, ALU_V_NONE, u_shr_u64},
    {PTX_OP_shr, PTX_T_s32, ALU_V_NONE, u_shr_s32}, {PTX_OP_shr, PTX_T_s64, ALU_V_NONE, u_shr_s64},
    SETP_ROW(uint32_t, PTX_T_u32), SETP_ROW(int32_t, PTX_T_s32),
    SETP_ROW(uint64_t, PTX_T_u64), SETP_ROW(int64_t, PTX_T_s64),
};

/* The scalar handler computing what lane handler fn computes for instruction in, or NULL
 * when there is none. Only the plain shapes: one destination; setp without a combining
 * predicate or a second destination. */
static exec_fn scalar_handler(const exec_insn *in, exec_fn fn) {
    if (in->nd != 1) return NULL;
    for (size_t i = 0; i < sizeof scalar_ops / sizeof scalar_ops[0]; i++) {
        const scalar_op *so = &scalar_ops[i];
        if (so->op != in->op) continue;
        exec_insn probe;
        memset(&probe, 0, sizeof probe);
        probe.op = so->op;
        probe.type = so->type;
        probe.aux = ALU_AUX(0, so->var, 0);
        if (so->op == PTX_OP_setp) probe.flags = EXEC_F_D_PRED;
        if (exec_alu_lookup(&probe) != fn) continue;
        if (so->op == PTX_OP_setp) {
            if (in->na != 2 || ALU_AUX_BOOL(in->aux) != ALU_BOOL_NONE ||
                (in->flags & (EXEC_F_D2_PRED | EXEC_F_FTZ)) || !(in->flags & EXEC_F_D_PRED))
                return NULL;
        } else if (in->flags & (EXEC_F_D_PRED | EXEC_F_CC_IN | EXEC_F_CC_OUT)) {
            return NULL;
        } else if (in->na != (so->op == PTX_OP_mov ? 1 : 2)) {
            return NULL;
        }
        return so->fn;
    }
    return NULL;
}

exec_fn exec_uniform_handler_for(const exec_insn *in) {
    exec_fn scalar = scalar_handler(in, in->fn);
    if (scalar) return scalar;
    if (in->nd == 1 && (in->flags & EXEC_F_D_PRED)) return h_uniform_pred;
    if (in->nd == 1) return h_uniform_value;
    return h_uniform;
}

bool exec_is_uniform_handler(exec_fn fn) {
    if (fn == h_uniform || fn == h_uniform_value || fn == h_uniform_pred) return true;
    for (size_t i = 0; i < sizeof scalar_ops / sizeof scalar_ops[0]; i++)
        if (scalar_ops[i].fn == fn) return true;
    return false;
}

/* ---- what an instruction reads and writes, from its IR ---- */

/* Operations whose result, per lane, depends on nothing but that lane's operands (and
 * state every lane shares). Carry arithmetic is excluded below by its flags. */
static bool lane_local_op(unsigned op) {
    switch (op) {
    case PTX_OP_abs: case PTX_OP_add: case PTX_OP_and: case PTX_OP_bfe: case PTX_OP_bfi:
    case PTX_OP_bfind: case PTX_OP_bmsk: case PTX_OP_brev: case PTX_OP_clz:
    case PTX_OP_cnot: case PTX_OP_copysign: case PTX_OP_cos: case PTX_OP_cvt:
    case PTX_OP_cvta: case PTX_OP_div: case PTX_OP_dp2a: case PTX_OP_dp4a:
    case PTX_OP_ex2: case PTX_OP_fma: case PTX_OP_fns: case PTX_OP_lg2: case PTX_OP_lop3:
    case PTX_OP_mad: case PTX_OP_mad24: case PTX_OP_max: case PTX_OP_min: case PTX_OP_mov:
    case PTX_OP_mul: case PTX_OP_mul24: case PTX_OP_neg: case PTX_OP_not: case PTX_OP_or:
    case PTX_OP_popc: case PTX_OP_prmt: case PTX_OP_rcp: case PTX_OP_rem:
    case PTX_OP_rsqrt: case PTX_OP_sad: case PTX_OP_selp: case PTX_OP_set:
    case PTX_OP_setp: case PTX_OP_shf: case PTX_OP_shl: case PTX_OP_shr: case PTX_OP_sin:
    case PTX_OP_slct: case PTX_OP_sqrt: case PTX_OP_sub: case PTX_OP_szext:
    case PTX_OP_tanh: case PTX_OP_testp: case PTX_OP_xor:
    case PTX_OP_ld: case PTX_OP_ldu:
        return true;
    default:
        return false;
    }
}

static bool lane_variant_sreg(unsigned s) {
    switch (s) {
    case PTX_SREG_TID_X: case PTX_SREG_TID_Y: case PTX_SREG_TID_Z: case PTX_SREG_LANEID:
    case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LE: case PTX_SREG_LANEMASK_LT:
    case PTX_SREG_LANEMASK_GE: case PTX_SREG_LANEMASK_GT:
        return true;
    default:
        return false;
    }
}

typedef struct uni_state {
    const exec_func *f;
    const ptx_func *pf;
    const uint32_t *reg_slot;
    uint8_t *div;        /* per IR register: divergent */
    uint8_t *region;     /* per code index: runs with only some of the lanes */
    uint32_t *work;      /* flood-fill stack */
} uni_state;

/* Calls fn(s, reg) for each register named by operand o (VEC/LIST elements included). */
#define EACH_OPND_REG(s, o, r, body)                                                      \
    do {                                                                                  \
        const ptx_operand *eo_ = (o);                                                     \
        uint32_t en_ = 1;                                                                 \
        if (eo_->kind == PTX_OPND_VEC || eo_->kind == PTX_OPND_LIST) en_ = eo_->vec_n;    \
        for (uint32_t ei_ = 0; ei_ < en_; ei_++) {                                        \
            const ptx_operand *e_ = eo_;                                                  \
            if (eo_->kind == PTX_OPND_VEC || eo_->kind == PTX_OPND_LIST)                  \
                e_ = &(s)->pf->vec_elems[eo_->vec_first + ei_];                           \
            if ((e_->kind == PTX_OPND_REG || e_->kind == PTX_OPND_ADDR) && e_->reg >= 0) { \
                int32_t r = e_->reg;                                                      \
                body;                                                                     \
            }                                                                             \
            /* the second predicate of "%p|%q", or of "_|%q" (a SINK) */                 \
            if ((e_->kind == PTX_OPND_REG || e_->kind == PTX_OPND_SINK) && e_->reg2 >= 0) { \
                int32_t r = e_->reg2;                                                     \
                body;                                                                     \
            }                                                                             \
        }                                                                                 \
    } while (0)

/* Does any source operand of pi (operands from first on) vary across lanes? The guard
 * is not a source: it only narrows the lanes. */
static bool sources_divergent(const uni_state *s, const ptx_insn *pi, unsigned first) {
    for (unsigned i = first; i < pi->nopnds; i++) {
        const ptx_operand *o = &pi->opnd[i];
        bool d = false;
        if (o->kind == PTX_OPND_SREG && lane_variant_sreg(o->sreg)) return true;
        if (o->kind == PTX_OPND_VEC || o->kind == PTX_OPND_LIST) {
            for (uint32_t k = 0; k < o->vec_n; k++) {
                const ptx_operand *e = &s->pf->vec_elems[o->vec_first + k];
                if (e->kind == PTX_OPND_SREG && lane_variant_sreg(e->sreg)) return true;
            }
        }
        EACH_OPND_REG(s, o, r, d |= s->div[r] != 0);
        if (d) return true;
    }
    return false;
}

/* Is the value ld/ldu reads the same for every lane when its address is? Not for memory
 * each thread has its own of (local, and generic, which may point there, and .param
 * other than a kernel's parameters). */
static bool load_is_shared_memory(const uni_state *s, const exec_insn *in, const ptx_insn *pi) {
    switch ((ptx_space)in->space) {
    case PTX_SPACE_GLOBAL: case PTX_SPACE_CONST: case PTX_SPACE_SHARED:
        return true;
    case PTX_SPACE_PARAM: {
        const ptx_operand *a = pi->nopnds > 1 ? &pi->opnd[1] : NULL;
        return s->pf->is_entry && a && a->kind == PTX_OPND_ADDR && a->reg < 0 &&
               a->sym.index >= 0 && a->sym.scope == PTX_SYM_PARAM;
    }
    default:
        return false;
    }
}

/* Is the result of main instruction in (decoded from pi) uniform whenever its sources
 * are? */
static bool uniform_producer(const uni_state *s, const exec_insn *in, const ptx_insn *pi) {
    if (!lane_local_op(pi->op)) return false;
    if (in->flags & (EXEC_F_CC_IN | EXEC_F_CC_OUT)) return false;
    if ((pi->op == PTX_OP_ld || pi->op == PTX_OP_ldu) && !load_is_shared_memory(s, in, pi))
        return false;
    return true;
}

/* Mark every register pi may write divergent; returns whether anything changed. */
static bool mark_writes_divergent(uni_state *s, const ptx_insn *pi, bool everything) {
    bool changed = false;
    unsigned first = 0, last = 1;
    if (everything) last = pi->nopnds;
    else if (ptx_opcode_flags[pi->op] & PTX_OPF_NODST) last = 0;
    if (pi->op == PTX_OP_call) { /* return and argument lists, to be safe */
        first = 0;
        last = pi->nopnds;
    }
    for (unsigned i = first; i < last && i < pi->nopnds; i++)
        EACH_OPND_REG(s, &pi->opnd[i], r, {
            if (!s->div[r]) { s->div[r] = 1; changed = true; }
        });
    return changed;
}

/* ---- control flow ---- */

/* A special-register read the decoder inserted before the instruction naming it.
 * (EXEC_F_PSEUDO is a handler-private bit: it means something else to other handlers.) */
static bool is_pseudo(const exec_insn *in) {
    return in->fn == exec_h_sreg && (in->flags & EXEC_F_PSEUDO);
}

static bool is_main(const exec_insn *in) { return !is_pseudo(in) && in->src; }

/* An unguarded exit, or ret from a kernel: the thread's end (control.c, ends_thread). */
static bool ends_thread(const uni_state *s, const exec_insn *p) {
    if (is_pseudo(p) || p->guard >= 0) return false;
    return p->op == PTX_OP_exit || (p->op == PTX_OP_ret && s->pf->is_entry);
}

/* Push the successors of code index i onto the flood-fill stack. */
static void push_successors(uni_state *s, uint32_t i, uint32_t *sp) {
    const exec_func *f = s->f;
    const exec_insn *in = &f->code[i];
    if (i >= f->ncode) return; /* the end sentinel: ret */
    if (is_pseudo(in)) {
        s->work[(*sp)++] = i + 1;
        return;
    }
    switch (in->op) {
    case PTX_OP_bra:
        s->work[(*sp)++] = (uint32_t)in->target;
        break;
    case PTX_OP_brx:
        for (uint32_t k = 0; k < in->aux; k++)
            s->work[(*sp)++] = (uint32_t)f->jump_tables[in->target + (int32_t)k];
        break;
    case PTX_OP_ret: case PTX_OP_exit: case PTX_OP_trap: case PTX_OP_brkpt:
        break;
    default:
        s->work[(*sp)++] = i + 1;
        return;
    }
    if (in->guard >= 0) s->work[(*sp)++] = i + 1; /* the lanes whose guard fails */
}

/* Does branch i split the warp when its guard or index varies across lanes? */
static bool divergent_branch(const uni_state *s, uint32_t i) {
    const exec_insn *in = &s->f->code[i];
    if (!is_main(in)) return false;
    const ptx_insn *pi = in->src;
    if (in->op == PTX_OP_bra) {
        if (in->guard < 0 || pi->guard < 0 || !s->div[pi->guard]) return false;
        /* one side ends the thread: those lanes exit, the rest go on together */
        if (ends_thread(s, &s->f->code[in->target]) || ends_thread(s, in + 1)) return false;
        return true;
    }
    if (in->op == PTX_OP_brx)
        return (pi->guard >= 0 && s->div[pi->guard]) || sources_divergent(s, pi, 0);
    return false;
}

/* Mark the code that runs while branch i's lanes are apart: everything reachable from
 * its successors before its reconvergence point (all that is reachable when the paths
 * meet only at function exit). Each instruction is marked once, so the stack never holds
 * more than the sum of all out-degrees. */
static void mark_region(uni_state *s, uint32_t i) {
    const exec_func *f = s->f;
    int32_t stop = f->code[i].reconv;
    uint32_t sp = 0;
    push_successors(s, i, &sp);
    while (sp) {
        uint32_t j = s->work[--sp];
        if ((int32_t)j == stop || j > f->ncode || s->region[j]) continue;
        s->region[j] = 1;
        push_successors(s, j, &sp);
    }
}

/* ---- conversion ---- */

/* Do the exec-level destinations of in (d[0..nd-1] with the D_PRED/D2_PRED flags) name
 * exactly the registers pi's first operand writes? Then h_uniform copies the right
 * things. */
static bool destinations_match(const uni_state *s, const exec_insn *in, const ptx_insn *pi) {
    if (pi->nopnds < 1) return false;
    const ptx_operand *o = &pi->opnd[0];
    /* the written registers in order (-1 for '_') */
    int32_t regs[4];
    uint32_t n = 0;
    if (o->kind == PTX_OPND_VEC) {
        for (uint32_t k = 0; k < o->vec_n; k++) {
            const ptx_operand *e = &s->pf->vec_elems[o->vec_first + k];
            if (n == 4 || (e->kind != PTX_OPND_REG && e->kind != PTX_OPND_SINK)) return false;
            regs[n++] = e->kind == PTX_OPND_REG ? e->reg : -1;
        }
    } else if (o->kind == PTX_OPND_REG) {
        regs[n++] = o->reg;
        if (o->reg2 >= 0) regs[n++] = o->reg2;
    } else if (o->kind == PTX_OPND_SINK) {
        regs[n++] = -1;
        if (o->reg2 >= 0) regs[n++] = o->reg2;
    } else {
        return false;
    }
    if (n != in->nd) return false;
    for (uint32_t k = 0; k < n; k++) {
        bool want_pred = (k == 0 && (in->flags & EXEC_F_D_PRED)) ||
                         (k == 1 && (in->flags & EXEC_F_D2_PRED));
        if (regs[k] < 0) {
            if (want_pred) return false;
            continue;
        }
        bool is_pred = s->pf->regs[regs[k]].type == PTX_T_pred;
        if (is_pred != want_pred || in->d[k] != s->reg_slot[regs[k]]) return false;
    }
    return true;
}

/* Instructions left as they are: the special-register reads (they fill every lane with
 * one value already), and loads of one address named by symbol (the same). */
static bool worth_converting(const exec_insn *in, const ptx_insn *pi) {
    if (in->fn == exec_h_sreg) return false;
    if ((pi->op == PTX_OP_ld || pi->op == PTX_OP_ldu) && pi->nopnds > 1 &&
        pi->opnd[1].kind == PTX_OPND_ADDR && pi->opnd[1].reg < 0)
        return false;
    return true;
}

void exec_uniform_pass(exec_func *f, const uint32_t *reg_slot) {
    const ptx_func *pf = f->pf;
    uint32_t n = f->ncode + 1;
    /* a flood pushes each out-edge at most once, plus its start's */
    uint32_t work_cap = 4 * n + 4;
    for (uint32_t i = 0; i < f->ncode; i++)
        if (f->code[i].op == PTX_OP_brx && !is_pseudo(&f->code[i]))
            work_cap += 2 * f->code[i].aux;
    uni_state s = {f, pf, reg_slot, calloc(pf->nregs + 1, 1), calloc(n, 1),
                   malloc((size_t)work_cap * sizeof(uint32_t))};
    if (!s.div || !s.region || !s.work) abort();

    bool changed = true;
    while (changed) {
        changed = false;
        memset(s.region, 0, n);
        for (uint32_t i = 0; i < f->ncode; i++)
            if (divergent_branch(&s, i)) mark_region(&s, i);
        for (uint32_t i = 0; i < f->ncode; i++) {
            const exec_insn *in = &f->code[i];
            if (!is_main(in)) continue;
            const ptx_insn *pi = in->src;
            if (!uniform_producer(&s, in, pi)) {
                changed |= mark_writes_divergent(&s, pi, !(ptx_opcode_flags[pi->op] & PTX_OPF_NODST));
                continue;
            }
            /* only some lanes write the result: in a divergent region or under a
             * divergent guard */
            if (s.region[i] || (pi->guard >= 0 && s.div[pi->guard]) ||
                sources_divergent(&s, pi, 1))
                changed |= mark_writes_divergent(&s, pi, false);
        }
    }

    for (uint32_t i = 0; i < f->ncode; i++) {
        exec_insn *in = &f->code[i];
        if (!is_main(in) || !in->fn) continue;
        const ptx_insn *pi = in->src;
        if (!uniform_producer(&s, in, pi) || sources_divergent(&s, pi, 1)) continue;
        if (!worth_converting(in, pi) || !destinations_match(&s, in, pi)) continue;
        exec_fn ufn = exec_uniform_handler_for(in);
        in->lane_fn = in->fn;
        in->fn = ufn;
    }
    free(s.div);
    free(s.region);
    free(s.work);
}
