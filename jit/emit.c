/* jit/emit.c — the compiled tier's code generator: C source for each function of a
 * lowered program, one C function per exec_func, which runs a warp from its resume point
 * with the interpreter's meaning (exec/native.h gives the contract).
 *
 * Shape of a generated function: a dispatch block (`top`) does what the interpreter's
 * fetch does when it meets the break point (a yield, a reconvergence point) and then jumps
 * through a `switch` on the pc to the instruction's label; from there the code runs
 * straight through the labels, one per instruction, until something needs the core again.
 * - An instruction the generator specialises (the common integer operations, setp, selp,
 *   mov, uniform branches, kernel-parameter loads, whole-warp coalesced global and shared
 *   loads and stores) is inline C over the warp's register file: a counted loop over 32
 *   lanes for the full mask (which the C compiler vectorises; only when it is built at
 *   -O2), the handler for a partial mask, and a single computation broadcast to the lanes
 *   when exec/uniform.c found the instruction warp-uniform. Register slots are constants
 *   of the text.
 * - Any other instruction calls its own handler through the lowered instruction (in->fn):
 *   the same code as in the interpreter, so every kernel compiles and means the same.
 *   Handlers of plain instructions (arithmetic, memory, warp collectives) can only fault
 *   besides their effect, so the code goes on after them unless the warp yielded; after
 *   anything else (control flow, barriers, calls) it goes back to `top`.
 * - The warp's clock (instructions issued) lives in a local between calls into the core.
 * - The interpreter tests at every fetch whether the pc is the break point; the generated
 *   code tests only at instructions that can be one (reconvergence points of the
 *   function's branches, the instruction after a call), since anything that moves the
 *   break point elsewhere runs in the core, after which the code re-enters at `top`.
 */
#include "internal.h"
#include "../exec/alu_internal.h"
#include "../exec/observe.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the operations specialised inline ---- */

enum { SPEC_VALUE, SPEC_SETP, SPEC_SELP };

/* A probe (op, type, variant) whose lane handler, per exec_alu_lookup, is the one an
 * instruction must have for expr to be its meaning. expr reads a, b, c: the source slots'
 * 64-bit contents (exec/internal.h: narrower values zero-extended), and gives the bits
 * stored (the forms of exec/uniform.c's scalar handlers, checked against the lane
 * handlers by tests/unit/test_exec_uniform.c). */
typedef struct spec_op {
    uint16_t op;
    uint8_t type, var, na, kind;
    const char *expr;
} spec_op;

#define SETP_ROWS(PT, T)                                                                   \
    {PTX_OP_setp, PT, ALU_V_EQ, 2, SPEC_SETP, "(" T ")a == (" T ")b"},                      \
    {PTX_OP_setp, PT, ALU_V_NE, 2, SPEC_SETP, "(" T ")a != (" T ")b"},                      \
    {PTX_OP_setp, PT, ALU_V_LT, 2, SPEC_SETP, "(" T ")a < (" T ")b"},                       \
    {PTX_OP_setp, PT, ALU_V_LE, 2, SPEC_SETP, "(" T ")a <= (" T ")b"},                      \
    {PTX_OP_setp, PT, ALU_V_GT, 2, SPEC_SETP, "(" T ")a > (" T ")b"},                       \
    {PTX_OP_setp, PT, ALU_V_GE, 2, SPEC_SETP, "(" T ")a >= (" T ")b"}

static const spec_op spec_ops[] = {
    {PTX_OP_mov, PTX_T_u32, ALU_V_NONE, 1, SPEC_VALUE, "a"},
    {PTX_OP_add, PTX_T_u32, ALU_V_NONE, 2, SPEC_VALUE, "(u32)(a + b)"},
    {PTX_OP_add, PTX_T_u64, ALU_V_NONE, 2, SPEC_VALUE, "a + b"},
    {PTX_OP_sub, PTX_T_u32, ALU_V_NONE, 2, SPEC_VALUE, "(u32)(a - b)"},
    {PTX_OP_sub, PTX_T_u64, ALU_V_NONE, 2, SPEC_VALUE, "a - b"},
    {PTX_OP_mul, PTX_T_u32, ALU_V_LO, 2, SPEC_VALUE, "(u32)((u32)a * (u32)b)"},
    {PTX_OP_mul, PTX_T_u64, ALU_V_LO, 2, SPEC_VALUE, "a * b"},
    {PTX_OP_mul, PTX_T_u32, ALU_V_WIDE, 2, SPEC_VALUE, "(u64)(u32)a * (u32)b"},
    {PTX_OP_mul, PTX_T_s32, ALU_V_WIDE, 2, SPEC_VALUE, "(u64)((i64)(i32)a * (i32)b)"},
    {PTX_OP_mad, PTX_T_u32, ALU_V_LO, 3, SPEC_VALUE, "(u32)((u32)a * (u32)b + (u32)c)"},
    {PTX_OP_mad, PTX_T_u64, ALU_V_LO, 3, SPEC_VALUE, "a * b + c"},
    {PTX_OP_mad, PTX_T_u32, ALU_V_WIDE, 3, SPEC_VALUE, "(u64)(u32)a * (u32)b + c"},
    {PTX_OP_mad, PTX_T_s32, ALU_V_WIDE, 3, SPEC_VALUE, "(u64)((i64)(i32)a * (i32)b) + c"},
    {PTX_OP_and, PTX_T_b32, ALU_V_NONE, 2, SPEC_VALUE, "(u32)(a & b)"},
    {PTX_OP_and, PTX_T_b64, ALU_V_NONE, 2, SPEC_VALUE, "a & b"},
    {PTX_OP_or, PTX_T_b32, ALU_V_NONE, 2, SPEC_VALUE, "(u32)(a | b)"},
    {PTX_OP_or, PTX_T_b64, ALU_V_NONE, 2, SPEC_VALUE, "a | b"},
    {PTX_OP_xor, PTX_T_b32, ALU_V_NONE, 2, SPEC_VALUE, "(u32)(a ^ b)"},
    {PTX_OP_xor, PTX_T_b64, ALU_V_NONE, 2, SPEC_VALUE, "a ^ b"},
    {PTX_OP_shl, PTX_T_b32, ALU_V_NONE, 2, SPEC_VALUE,
     "(u32)b >= 32 ? 0 : (u32)((u32)a << (u32)b)"},
    {PTX_OP_shl, PTX_T_b64, ALU_V_NONE, 2, SPEC_VALUE, "(u32)b >= 64 ? 0 : a << (u32)b"},
    {PTX_OP_shr, PTX_T_u32, ALU_V_NONE, 2, SPEC_VALUE, "(u32)b >= 32 ? 0 : (u32)a >> (u32)b"},
    {PTX_OP_shr, PTX_T_u64, ALU_V_NONE, 2, SPEC_VALUE, "(u32)b >= 64 ? 0 : a >> (u32)b"},
    {PTX_OP_shr, PTX_T_s32, ALU_V_NONE, 2, SPEC_VALUE,
     "(u32)((i32)a >> ((u32)b >= 32 ? 31 : (u32)b))"},
    {PTX_OP_shr, PTX_T_s64, ALU_V_NONE, 2, SPEC_VALUE,
     "(u64)((i64)a >> ((u32)b >= 64 ? 63 : (u32)b))"},
    {PTX_OP_selp, PTX_T_u32, ALU_V_NONE, 3, SPEC_SELP, NULL},
    SETP_ROWS(PTX_T_u32, "u32"), SETP_ROWS(PTX_T_s32, "i32"),
    SETP_ROWS(PTX_T_u64, "u64"), SETP_ROWS(PTX_T_s64, "i64"),
};

/* Whether instruction in has the lane handler that exec_alu_lookup gives the form (op,
 * type, variant) with na sources (setp: a predicate result), with one destination and no
 * carry. Both generators' tables of inline operations are matched through it, and the
 * first row it matches decides (jit_form_plain then says whether the row applies). */
bool jit_form_handler(const exec_insn *in, uint16_t op, uint8_t type, uint8_t var, uint8_t na,
                      bool setp) {
    exec_fn lane = in->lane_fn ? in->lane_fn : in->fn;
    if (!lane || in->nd != 1 || (in->flags & (EXEC_F_CC_IN | EXEC_F_CC_OUT))) return false;
    if (in->op != op || in->na != na) return false;
    exec_insn probe;
    memset(&probe, 0, sizeof probe);
    probe.op = op;
    probe.type = type;
    probe.aux = ALU_AUX(0, var, 0);
    if (setp) probe.flags = EXEC_F_D_PRED;
    return exec_alu_lookup(&probe) == lane;
}

/* Whether in has the plain shape a table row assumes: a setp with a plain predicate
 * result (no boolean combination, second predicate or .ftz), else a register result. */
bool jit_form_plain(const exec_insn *in, bool setp) {
    if (setp)
        return ALU_AUX_BOOL(in->aux) == ALU_BOOL_NONE &&
               !(in->flags & (EXEC_F_D2_PRED | EXEC_F_FTZ)) && (in->flags & EXEC_F_D_PRED);
    return !(in->flags & EXEC_F_D_PRED);
}

/* The row whose meaning instruction in has, or NULL. */
static const spec_op *spec_of(const exec_insn *in) {
    for (size_t i = 0; i < sizeof spec_ops / sizeof spec_ops[0]; i++) {
        const spec_op *so = &spec_ops[i];
        bool setp = so->kind == SPEC_SETP;
        if (jit_form_handler(in, so->op, so->type, so->var, so->na, setp))
            return jit_form_plain(in, setp) ? so : NULL;
    }
    return NULL;
}

/* Is the vector tier turned off (VCUDA_JIT_VECTOR=0)? */
static bool vector_off(void) {
    const char *vt = getenv("VCUDA_JIT_VECTOR");
    return vt && !strcmp(vt, "0");
}

bool jit_vector_wanted(const exec_func *f) {
    return !vector_off() && f->pf->is_entry && jit_func_insns(f) <= JIT_VECTOR_MAX_INSNS;
}

const char *jit_spec_scalar_expr(const exec_insn *in) {
    const spec_op *so = spec_of(in);
    return so && so->kind != SPEC_SELP ? so->expr : NULL;
}

/* Instructions whose handler changes nothing of the warp's control state (pc, masks,
 * stack, status) except by faulting, which yields. */
static bool plain_op(const exec_insn *in) {
    if (in->fn == exec_h_sreg) return true;
    if (exec_alu_owns(in->op)) return true;
    switch (in->op) {
    case PTX_OP_ld: case PTX_OP_ldu: case PTX_OP_st: case PTX_OP_cvta: case PTX_OP_isspacep:
    case PTX_OP_atom: case PTX_OP_red:
        return true;
    default:
        return false;
    }
}

/* ---- the text ---- */

/* Whether the code is built with the C compiler's vectoriser (-O2): lane loops are worth
 * inlining only then (set by jit_emit_unit for the unit being generated). */
static _Thread_local bool o_vectorise;

static void emit_prelude(jit_buf *o) {
    jit_buf_printf(o,
        "/* generated by vcuda's compiled tier (jit/emit.c); abi %u */\n"
        "typedef unsigned long long u64; typedef long long i64;\n"
        "typedef unsigned int u32; typedef int i32;\n"
        "typedef void (*hfn)(void *, const void *, u32);\n"
        "struct view { unsigned char *shared; u64 shared_size; const char *ranges;\n"
        "              const unsigned char *params; };\n"
        "struct rt { u32 abi; void (*path_done)(void *); void (*update_brk)(void *);\n"
        "            volatile int *(*abort_flag)(void *); void (*view)(void *, struct view *);\n"
        "            void (*observe)(void *, const void *, u32); };\n"
        "/* the worker's cached allocation of instruction i (exec_range_of): lo, hi, writable */\n"
        "#define RNG(i) (V.ranges + (((u64)INSN(i) / ISZ) %% %uu) * %zuu)\n"
        "#define RLO(r) (*(const u64 *)((r) + %zuu))\n"
        "#define RHI(r) (*(const u64 *)((r) + %zuu))\n"
        "#define RWR(r) (*(const _Bool *)((r) + %zuu))\n"
        "#define ISZ %zuu\n"
        "#define INSN(i) (C + (u64)(i) * ISZ)\n"
        "#define FN(i) (*(const hfn *)(INSN(i) + %zuu))\n"
        "#define WF(T, o) (*(T *)((char *)w + (o)))\n"
        "#define IP WF(const char *, %zuu)\n"
        "#define BRK WF(const char *, %zuu)\n"
        "#define CODE WF(const char *, %zuu)\n"
        "#define CLOCK WF(u64, %zuu)\n"
        "#define SLICE0 WF(u64, %zuu)\n"
        "#define YIELD WF(_Bool, %zuu)\n"
        "#define RR WF(u64 *, %zuu)\n"
        "#define PP WF(u32 *, %zuu)\n"
        "#define ACT WF(u32, %zuu)\n"
        "#define SLICE %uu\n"
        "#define FULL 0xffffffffu\n"
        "#define LIKELY(x) __builtin_expect(!!(x), 1)\n"
        "#define UNLIKELY(x) __builtin_expect(!!(x), 0)\n"
        "/* d[l] = v for the lanes of m */\n"
        "static __attribute__((noinline)) void bcast_some(u64 *d, u32 m, u64 v) {\n"
        "  for (; m; m &= m - 1) d[__builtin_ctz(m)] = v;\n}\n"
        "#define BCAST(d, m, v) do { u64 *bc_d_ = (d); u64 bc_v_ = (v); if (LIKELY((m) == FULL))\\\n"
        "    for (u32 bc_k_ = 0; bc_k_ < 32; bc_k_++) bc_d_[bc_k_] = bc_v_;\\\n    else bcast_some(bc_d_, (m), bc_v_); } while (0)\n"
        "/* a handler whose instruction only computes (or faults, which yields) */\n"
        "#define PLAIN(i) do { if (m) { IP = INSN((i) + 1); CLOCK = clk;\\\n"
        "    FN(i)(w, INSN(i), m); if (UNLIKELY(YIELD)) goto top; } } while (0)\n"
        "/* a handler that may move the pc, masks or frames: back to the dispatch */\n"
        "#define CORE(i) do { IP = INSN((i) + 1); CLOCK = clk;\\\n"
        "    if (m) FN(i)(w, INSN(i), m); goto top; } while (0)\n"
        "/* a possible break point (reconvergence point on top of the stack) */\n"
        "#define BREAK(i) do { if (UNLIKELY(BRK == INSN(i))) { IP = INSN(i); CLOCK = clk;\\\n"
        "    goto top; } } while (0)\n"
        "/* CORE and BCAST out of line (for code built without the vectoriser: less text to\n"
        " * compile) */\n"
        "static __attribute__((noinline)) void core_h(void *w, const char *C, u32 i, u64 clk, u32 m) {\n"
        "  IP = INSN(i + 1); CLOCK = clk; if (m) FN(i)(w, INSN(i), m);\n}\n"
        "#define CORE_H(i) do { core_h(w, C, (i), clk, m); goto top; } while (0)\n"
        "static __attribute__((noinline)) void bcast(u64 *d, u32 m, u64 v) {\n"
        "  if (m == FULL) for (u32 k = 0; k < 32; k++) d[k] = v; else bcast_some(d, m, v);\n}\n"
        "/* instructions i to j - 1, each only calling its handler (which computes, or faults\n"
        " * and yields), none of them a branch target or a break point: run as the\n"
        " * interpreter's loop runs them; 1 when one yielded (IP and CLOCK then say where),\n"
        " * else 0 with *ck advanced */\n"
        "static __attribute__((noinline)) int run_h(void *w, const char *C, u32 i, u32 j, u64 *ck) {\n"
        "  u64 clk = *ck;\n"
        "  for (; i < j; i++) {\n"
        "    const char *in = INSN(i); int g = *(const int *)(in + %zuu); u32 m = ACT;\n"
        "    clk++;\n"
        "    if (g >= 0) m &= *(const _Bool *)(in + %zuu) ? ~PP[g] : PP[g];\n"
        "    if (m) { IP = in + ISZ; CLOCK = clk; FN(i)(w, in, m); if (UNLIKELY(YIELD)) return 1; }\n"
        "  }\n"
        "  *ck = clk;\n  return 0;\n}\n\n",
        EXEC_NATIVE_ABI, (unsigned)EXEC_RANGE_CACHE, sizeof(exec_range),
        offsetof(exec_range, lo), offsetof(exec_range, hi), offsetof(exec_range, writable),
        sizeof(exec_insn), offsetof(exec_insn, fn),
        offsetof(exec_wstate, ip), offsetof(exec_wstate, brk), offsetof(exec_wstate, code),
        offsetof(exec_wstate, clock), offsetof(exec_wstate, slice_start),
        offsetof(exec_wstate, yield), offsetof(exec_wstate, h) + offsetof(exec_warp, R),
        offsetof(exec_wstate, h) + offsetof(exec_warp, P),
        offsetof(exec_wstate, h) + offsetof(exec_warp, active), (unsigned)EXEC_TIME_SLICE,
        offsetof(exec_insn, guard), offsetof(exec_insn, guard_neg));
    _Static_assert(sizeof(((exec_insn *)0)->guard) == sizeof(int) &&
                   sizeof(((exec_insn *)0)->guard_neg) == sizeof(_Bool),
                   "run_h reads an instruction's guard as an int and a _Bool");
}

/* Whether the unit is instrumented (exec_func.instrumented, set by jit_emit_unit): each
 * instruction counts its issue into the observer's tally and calls the observer where the
 * observed run loop does (exec_warp_run_native_observed runs the code). */
static _Thread_local bool o_observe;

/* The observer's tally (exec_insn_tally) as generated code sees it, `struct tl`: written
 * once per unit, however many of the unit's preludes (per-warp, vector) ask for it. */
void jit_emit_tally_type(jit_buf *o) {
    _Static_assert(sizeof(exec_insn_tally) == 8 * sizeof(uint64_t) &&
                   offsetof(exec_insn_tally, issued) == 0 &&
                   offsetof(exec_insn_tally, partial) == 8 &&
                   offsetof(exec_insn_tally, active) == 16 &&
                   offsetof(exec_insn_tally, pred_on) == 24 &&
                   offsetof(exec_insn_tally, diverged) == 32 &&
                   offsetof(exec_insn_tally, diverged_lanes) == 40 &&
                   offsetof(exec_insn_tally, all_taken) == 48 &&
                   offsetof(exec_insn_tally, all_taken_lanes) == 56,
                   "the generated tally is exec_insn_tally");
    jit_buf_printf(o, "#ifndef TALLY_TYPE\n#define TALLY_TYPE\n"
                      "struct tl { u64 issued, partial, active, pred_on, diverged, diverged_lanes,\n"
                      "            all_taken, all_taken_lanes; };\n#endif\n");
}

/* What instrumented code adds: the tally's layout, and the count of one issue, as
 * exec_tally_count (exec/observe.h) counts it. T (the warp's tally of this function) and
 * OB (the kinds of instruction that call the observer: every kind while each instruction
 * is an event, as in the first instructions of the profiler's timed warps) are read at
 * `top`, since only the core changes them (calls, returns), and OB after each call of
 * the observer (whose cap on instruction events may change it). */
static void emit_observe_prelude(jit_buf *o) {
    jit_emit_tally_type(o);
    jit_buf_printf(o,
        "/* instrumented: the observer's tally (exec_insn_tally) and events */\n"
        "#define TP WF(struct tl *, %zuu)\n"
        "#define OBCALLS WF(u32, %zuu)\n"

        "static inline void tally_part(struct tl *t, u32 act, u32 m, int br) {\n"
        "  u32 na = (u32)__builtin_popcount(act), no = (u32)__builtin_popcount(m);\n"
        "  t->partial++; t->active += na; t->pred_on += no;\n"
        "  if (br && m) { if (m == act) { t->all_taken++; t->all_taken_lanes += na; }\n"
        "                 else { t->diverged++; t->diverged_lanes += no; } }\n}\n"
        "#define TALLY(x, br) do { struct tl *t_ = T + (x); t_->issued++;\\\n"
        "    if (UNLIKELY(m != FULL)) tally_part(t_, ACT, m, (br)); } while (0)\n"
        "/* the observer hears of instruction i (of kind k) as the observed loop tells it:\n"
        " * after the fetch (pc and clock past it), before its effect; OB again after, since\n"
        " * the observer's cap on instruction events may end them there */\n"
        "#define OBS(i, k) do { if (UNLIKELY((OB >> (k)) & 1u)) { IP = INSN((i) + 1); CLOCK = clk;\\\n"
        "    rt->observe(w, INSN(i), m); OB = OBCALLS; } } while (0)\n\n",
        offsetof(exec_wstate, tally), offsetof(exec_wstate, obs_calls));
}

/* CORE, or without the vectoriser its out-of-line form (less text to compile) */
static const char *core_macro(void) { return o_vectorise ? "CORE" : "CORE_H"; }

static void emit_guard(jit_buf *o, const exec_insn *in) {
    if (in->guard < 0) jit_buf_printf(o, "    m = ACT;\n");
    else jit_buf_printf(o, "    m = ACT & %sP[%d];\n", in->guard_neg ? "~" : "", in->guard);
}

static void emit_operands(jit_buf *o, const exec_insn *in, const char *l) {
    static const char names[] = "abc";
    for (unsigned k = 0; k < in->na && k < 3; k++)
        jit_buf_printf(o, "u64 %c = R[%uu * 32 + %s]; ", names[k], in->a[k], l);
}

/* Inline for the full mask (a counted loop over the 32 lanes, which the C compiler
 * vectorises), a partial mask (every lane computed, those of the mask kept: the
 * operations are pure) and the uniform case (once, for the first lane). */
static void emit_spec(jit_buf *o, const exec_insn *in, const spec_op *so, uint32_t i) {
    bool uni = in->lane_fn != NULL;
    if (!uni && !o_vectorise) { /* without the vectoriser the handler's loop is faster */
        jit_buf_printf(o, "    if (m) FN(%u)(w, INSN(%u), m);\n", i, i);
        return;
    }
    if (so->kind == SPEC_SETP) {
        if (uni) { /* once, for the first lane; every lane of m gets its answer */
            jit_buf_printf(o, "    if (m) { u32 l0 = (u32)__builtin_ctz(m); ");
            emit_operands(o, in, "l0");
            jit_buf_printf(o, "P[%u] = (P[%u] & ~m) | ((%s) ? m : 0); }\n", in->d[0], in->d[0],
                           so->expr);
        } else {
            jit_buf_printf(o, "    if (LIKELY(m != 0)) { u32 bits = 0;\n"
                              "      for (u32 l = 0; l < 32; l++) { ");
            emit_operands(o, in, "l");
            jit_buf_printf(o, "bits |= (u32)(%s) << l; }\n", so->expr);
            jit_buf_printf(o, "      P[%u] = (P[%u] & ~m) | (bits & m); }\n", in->d[0], in->d[0]);
        }
        return;
    }
    char expr[160];
    if (so->kind == SPEC_SELP)
        snprintf(expr, sizeof expr, "((P[%u] >> l) & 1u) ? a : b", in->a[2]);
    else
        snprintf(expr, sizeof expr, "%s", so->expr);
    if (uni) {
        jit_buf_printf(o, "    if (m) { u32 l = (u32)__builtin_ctz(m); ");
        emit_operands(o, in, "l");
        jit_buf_printf(o, "%s(R + %uu * 32, m, (u64)(%s)); }\n", o_vectorise ? "BCAST" : "bcast",
                       in->d[0], expr);
    } else {
        jit_buf_printf(o, "    if (LIKELY(m == FULL)) { _Pragma(\"GCC ivdep\")\n"
                          "      for (u32 l = 0; l < 32; l++) { ");
        emit_operands(o, in, "l");
        jit_buf_printf(o, "R[%uu * 32 + l] = (u64)(%s); }\n", in->d[0], expr);
        /* some lanes: every lane computed (pure integer operations, which cannot fault),
         * those of m kept */
        jit_buf_printf(o, "    } else if (m) { _Pragma(\"GCC ivdep\")\n"
                          "      for (u32 l = 0; l < 32; l++) { ");
        emit_operands(o, in, "l");
        jit_buf_printf(o, "u64 v_ = (u64)(%s); R[%uu * 32 + l] = (m >> l) & 1u ? v_ : R[%uu * 32 + l]; }\n"
                          "    }\n", expr, in->d[0], in->d[0]);
    }
}

/* A plain load or store of the whole warp whose addresses are consecutive elements (the
 * coalesced case): one test that they are, one bounds test of the range, and a block
 * move. Anything else (some lanes, other address patterns, a range the cache does not
 * hold, a fault) is the handler's, which reports exactly as the interpreter does. */
static void emit_mem(jit_buf *o, const exec_insn *in, int shape, unsigned size, uint32_t i) {
    if (shape == EXEC_NATIVE_MEM_LD_KPARAM) { /* checked against the layout when decoded */
        jit_buf_printf(o, "    if (m) { %s pv_; __builtin_memcpy(&pv_, V.params + %lld, %u);\n"
                          "      %s(R + %uu * 32, m, (u64)pv_); }\n",
                       size == 4 ? "u32" : "u64", (long long)in->imm, size,
                       o_vectorise ? "BCAST" : "bcast", in->d[0]);
        return;
    }
    bool shared = shape == EXEC_NATIVE_MEM_LD_SHARED || shape == EXEC_NATIVE_MEM_ST_SHARED;
    bool load = shape == EXEC_NATIVE_MEM_LD_GLOBAL || shape == EXEC_NATIVE_MEM_LD_SHARED;
    const char *T = size == 4 ? "u32" : "u64";
    jit_buf_printf(o,
        "    if (LIKELY(m == FULL)) {\n"
        "      const u64 *A = R + %uu * 32; u64 a0 = A[0] + (u64)%lldll, dev = 0;\n"
        "      for (u32 l = 0; l < 32; l++) dev |= A[l] - A[0] - (u64)l * %uu;\n",
        in->a[0], (long long)in->imm, size);
    if (shared)
        jit_buf_printf(o, "      u64 lo = 0, hi = V.shared_size; unsigned char *base = V.shared;\n"
                          "      _Bool ok = 1;\n");
    else
        jit_buf_printf(o, "      const char *rg = RNG(%u); u64 lo = RLO(rg), hi = RHI(rg);\n"
                          "      unsigned char *base = 0; _Bool ok = %s;\n",
                       i, load ? "1" : "RWR(rg)");
    jit_buf_printf(o,
        "      if (LIKELY(ok && !dev && !(a0 & %uu) && a0 >= lo && hi >= %uu && a0 <= hi - %uu)) {\n"
        "        %s *p = (%s *)(base + a0); _Pragma(\"GCC ivdep\")\n",
        size - 1, 32 * size, 32 * size, T, T);
    if (load)
        jit_buf_printf(o, "        for (u32 l = 0; l < 32; l++) R[%uu * 32 + l] = p[l];\n", in->d[0]);
    else
        jit_buf_printf(o, "        for (u32 l = 0; l < 32; l++) p[l] = (%s)R[%uu * 32 + l];\n", T,
                       in->d[0]);
    jit_buf_printf(o, "      } else PLAIN(%u);\n    } else PLAIN(%u);\n", i, i);
}

/* Unsigned div and rem of the whole warp by one power of two (tid % (2 * stride) in tree
 * reductions): a shift or a mask over the lanes; any other divisor, some lanes, or a
 * uniform instruction (its lane handler does it once): the handler's. False: not such an
 * instruction. */
static bool emit_pow2_div(jit_buf *o, const exec_insn *in, uint32_t i) {
    if (in->op != PTX_OP_div && in->op != PTX_OP_rem) return false;
    if (in->lane_fn || !jit_form_plain(in, false)) return false;
    bool w32 = jit_form_handler(in, in->op, PTX_T_u32, ALU_V_NONE, 2, false);
    if (!w32 && !jit_form_handler(in, in->op, PTX_T_u64, ALU_V_NONE, 2, false)) return false;
    const char *T = w32 ? "u32" : "u64";
    jit_buf_printf(o,
        "    if (LIKELY(m == FULL)) {\n"
        "      const u64 *A = R + %uu * 32, *B = R + %uu * 32; %s d0 = (%s)B[0], dd = 0;\n"
        "      for (u32 l = 0; l < 32; l++) dd |= (%s)B[l] ^ d0;\n"
        "      if (LIKELY(!dd && d0 && !(d0 & (d0 - 1)))) { u32 sh = (u32)__builtin_ctzll(d0); (void)sh;\n"
        "        _Pragma(\"GCC ivdep\") for (u32 l = 0; l < 32; l++) R[%uu * 32 + l] = (u64)(%s);\n"
        "      } else PLAIN(%u);\n    } else PLAIN(%u);\n",
        in->a[0], in->a[1], T, T, T, in->d[0],
        in->op == PTX_OP_rem ? (w32 ? "(u32)A[l] & (d0 - 1)" : "A[l] & (d0 - 1)")
                             : (w32 ? "(u32)A[l] >> sh" : "A[l] >> sh"),
        i, i);
    return true;
}

/* A uniform branch is a jump; a divergent one, or a backward one that must let the core
 * look (time slice, abort, a loop that may spin), runs the handler. */
static void emit_bra(jit_buf *o, const exec_insn *in, uint32_t i) {
    jit_buf_printf(o, "    if (m && m == ACT) {\n");
    if (in->flags & EXEC_F_BACKWARD) {
        if (in->flags & EXEC_F_SPIN)
            jit_buf_printf(o, "      %s(%u);\n", core_macro(), i);
        else
            jit_buf_printf(o, "      if (UNLIKELY(clk - SLICE0 > SLICE || (ab && *ab))) %s(%u);\n",
                           core_macro(), i);
    }
    jit_buf_printf(o, "      goto L%d;\n    }\n    if (m) %s(%u);\n", in->target, core_macro(), i);
}

/* Is instruction i of f one that only calls its handler, which computes or faults (PLAIN,
 * or a specialised operation left to its handler without the vectoriser)? */
static bool handler_only(const exec_func *f, uint32_t i) {
    if (i >= f->ncode) return false;
    const exec_insn *in = &f->code[i];
    const spec_op *so = spec_of(in);
    if (so) return !in->lane_fn && !o_vectorise;
    unsigned msize = 0;
    int shape = exec_native_mem_shape(in, &msize);
    if (shape && (o_vectorise || shape == EXEC_NATIVE_MEM_LD_KPARAM)) return false;
    return in->op != PTX_OP_bra && plain_op(in);
}

static void emit_func(jit_buf *o, const exec_func *f, jit_emit_stats *st) {
    uint32_t n = f->ncode;
    /* the instructions that can be a break point */
    bool *rpc = calloc(n + 2, sizeof *rpc);
    if (!rpc) abort();
    for (uint32_t i = 0; i < n; i++) {
        const exec_insn *in = &f->code[i];
        if ((in->op == PTX_OP_bra || in->op == PTX_OP_brx) && in->reconv >= 0 &&
            (uint32_t)in->reconv <= n)
            rpc[in->reconv] = true;
        if (in->op == PTX_OP_call) rpc[i + 1] = true;
    }
    /* where the dispatch may enter (anywhere else, the core interprets up to one of
     * these): the start, the instruction after one that ran in the core (a barrier, a
     * divergent branch's fall-through side, a return), that instruction itself (brx.idx
     * and indirect calls run again for the lanes left), branch targets and the break
     * points. Fewer entries make a simpler graph for the C compiler. */
    bool *entry = calloc(n + 2, sizeof *entry);
    bool *label = calloc(n + 2, sizeof *label);
    if (!entry || !label) abort();
    entry[0] = entry[n] = true;
    for (uint32_t i = 0; i < n; i++) {
        const exec_insn *in = &f->code[i];
        if (rpc[i]) entry[i] = true;
        if (in->op == PTX_OP_bra && in->target >= 0 && (uint32_t)in->target <= n)
            entry[in->target] = label[in->target] = true;
        if (!spec_of(in) && !plain_op(in) && in->op != PTX_OP_bra) entry[i] = entry[i + 1] = true;
        if (in->op == PTX_OP_bra) entry[i + 1] = true; /* the divergent fall-through side */
    }
    for (uint32_t k = 0; k < f->njump; k++)
        if (f->jump_tables[k] >= 0 && (uint32_t)f->jump_tables[k] <= n)
            entry[f->jump_tables[k]] = true;
    jit_buf_printf(o,
        "int vj_f%u(void *w, const struct rt *rt) {\n"
        "  const char *const C = CODE;\n"
        "  volatile int *const ab = rt->abort_flag(w);\n"
        "  struct view V; rt->view(w, &V);\n"
        "  u64 *R; u32 *P; u64 clk; u32 m;%s\n"
        "top:\n"
        "  R = RR; P = PP; clk = CLOCK;%s\n"
        "  {\n"
        "    const char *in = IP;\n"
        "    if (in == BRK) {\n"
        "      if (YIELD) { YIELD = 0; rt->update_brk(w); return 1; }\n"
        "      rt->path_done(w);\n"
        "      goto top;\n"
        "    }\n"
        "    if (CODE != C || in < C || in > INSN(%u)) return 0;\n"
        "    switch ((u32)((u64)(in - C) / ISZ)) {\n",
        f->index, o_observe ? " struct tl *T; u32 OB;" : "",
        o_observe ? "\n  T = TP; OB = OBCALLS;\n"
                    "  if (UNLIKELY(!T)) return 0; /* (no tally: the run loop's) */" : "", n);
    for (uint32_t i = 0; i <= n; i++)
        if (entry[i]) jit_buf_printf(o, "    case %u: goto L%u;\n", i, i);
    jit_buf_printf(o, "    default: CLOCK = clk; return 2; /* not an entry: interpret it */\n"
                      "    }\n  }\n");
    for (uint32_t i = 0; i <= n; i++) {
        const exec_insn *in = &f->code[i];
        st->insns++;
        if (entry[i] || label[i]) jit_buf_printf(o, "L%u:\n", i);
        if (rpc[i]) jit_buf_printf(o, "    BREAK(%u);\n", i);
        /* without the vectoriser, a run of instructions that only call their handlers is
         * one call of a loop over them (the same work, a fraction of the text: large
         * functions compile several times faster) */
        uint32_t end = i;
        if (!o_vectorise && !o_observe) /* (instrumented code counts each one) */
            while (handler_only(f, end) && (end == i || !(entry[end] || label[end] || rpc[end])))
                end++;
        if (end > i) {
            jit_buf_printf(o, "    if (run_h(w, C, %u, %u, &clk)) goto top;\n", i, end);
            st->insns += end - i - 1;
            st->handler_insns += end - i;
            i = end - 1;
            continue;
        }
        jit_buf_printf(o, "    clk++;\n");
        emit_guard(o, in);
        if (o_observe && in->obs != EXEC_OBS_K_HIDDEN) {
            /* counted, then told, before the instruction runs, as the observed loop does */
            jit_buf_printf(o, "    TALLY(%u, %d);\n", in->src_index, in->obs == EXEC_OBS_K_BRANCH);
            jit_buf_printf(o, "    OBS(%u, %u);\n", i, in->obs);
        }
        const spec_op *so = i < n ? spec_of(in) : NULL;
        unsigned msize = 0;
        if (so) {
            emit_spec(o, in, so, i);
            if (in->lane_fn || o_vectorise) st->inline_insns++;
            else st->handler_insns++;
        } else if (i < n && in->op == PTX_OP_bra && !in->lane_fn && in->target >= 0 &&
                   (uint32_t)in->target <= n) {
            emit_bra(o, in, i);
            st->inline_insns++;
        } else if (i < n && exec_native_mem_shape(in, &msize) &&
                   (o_vectorise || exec_native_mem_shape(in, &msize) == EXEC_NATIVE_MEM_LD_KPARAM)) {
            emit_mem(o, in, exec_native_mem_shape(in, &msize), msize, i);
            st->inline_insns++;
        } else if (i < n && o_vectorise && emit_pow2_div(o, in, i)) {
            st->inline_insns++;
        } else if (i < n && plain_op(in)) {
            jit_buf_printf(o, "    PLAIN(%u);\n", i);
            st->handler_insns++;
        } else {
            jit_buf_printf(o, "    %s(%u);\n", core_macro(), i);
            st->handler_insns++;
        }
    }
    jit_buf_printf(o, "  return 0;\n}\n\n");
    free(rpc);
    free(entry);
    free(label);
}

uint32_t jit_func_insns(const exec_func *f) { return f->code ? f->ncode + 1 : 0; }

void jit_emit_unit(const exec_func *f, int opt, jit_buf *out, jit_emit_stats *st) {
    memset(st, 0, sizeof *st);
    o_vectorise = opt >= 2;
    o_observe = f->instrumented;
    /* which function it is, for whoever reads a kept source (VCUDA_JIT_KEEP) or the
     * compiler's messages (a PTX name is an identifier: it cannot end the comment) */
    jit_buf_printf(out, "/* %s %s */\n", f->pf->is_entry ? "kernel" : "function", f->pf->name);
    emit_prelude(out);
    if (o_observe) emit_observe_prelude(out);
    st->funcs = 1;
    /* an instrumented kernel of the vector tier has both kinds of code: the vector
     * tier's instrumented variant (jit/vemit_prof.c) for the blocks that ask only for
     * memory accesses, the per-warp instrumented code for the others and for the blocks
     * the vector code hands back */
    if (f->pf->is_entry) {
        st->kernels = 1;
        char why[160] = "";
        if (jit_vector_wanted(f)) {
            size_t mark = out->len;
            jit_vemit_prelude(out);
            if (o_observe) jit_vprof_prelude(out);
            if (jit_vemit_func(f, out, why, sizeof why)) {
                st->vector_funcs = 1;
                st->inline_insns = st->insns = jit_func_insns(f);
                if (!o_observe) return;
                jit_emit_stats pw;
                memset(&pw, 0, sizeof pw);
                emit_func(out, f, &pw);
                return;
            }
            out->len = mark; /* what it had written goes */
            out->s[mark] = 0;
        } else if (!vector_off()) {
            snprintf(why, sizeof why, "%u instructions (it takes up to %u)", jit_func_insns(f),
                     JIT_VECTOR_MAX_INSNS);
        }
        /* (a C++ kernel's mangled name can fill the note: its first 60 characters say
         * which one it is and leave room for the reason) */
        if (why[0])
            snprintf(st->vector_why, sizeof st->vector_why, "%.60s%s: %s", f->pf->name,
                     strlen(f->pf->name) > 60 ? "..." : "", why);
    }
    emit_func(out, f, st);
}
