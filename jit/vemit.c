/* jit/vemit.c — the vector tier's code generator: for a kernel whose instructions and
 * control flow it can take, one C function (`vb_f<i>`, an exec_native_block_fn) that runs a
 * whole block, with the interpreter's meaning and instruction counts.
 *
 * Shape of the generated function:
 * - The block's warps run one after another from barrier to barrier, the order the
 *   interpreter's block loop runs them in (so even racy programs see the same memory
 *   effects). A warp's turn is a `switch` on its resume point (0, or the instruction after
 *   the barrier it last passed), then straight C code with gotos for the branches.
 * - A register is a C local of a 32-lane vector type of 64-bit slots (the interpreter's
 *   own slot format, so spilling is a plain copy), or of 32-bit lanes when every
 *   definition of it makes a 32-bit value (find_narrow), held as chunks of the host's
 *   widest vector (QL and WL lanes, decided by the prelude: jit_vemit_prelude), which the
 *   C compiler keeps in the host's SIMD registers. A uniform or affine register (lane l
 *   holds s + l * step: threadIdx.x and the addresses made of it, see the value analysis
 *   below) is one scalar. Predicates are 32-bit lane masks. Only the registers and
 *   predicates live across a barrier are stored, into the warp's own register file
 *   (exec_wstate.h.R), and loaded again when its next turn starts there.
 * - Each instruction runs under the active mask (the warp's lanes on the path, less those
 *   whose guard fails), the whole-warp case first. Integer arithmetic, comparisons,
 *   selects, kernel-parameter loads and coalesced loads and stores of 4 or 8 bytes in
 *   global and shared memory are inline vector code; a load or store of any other pattern,
 *   or that fails its one range check, and the special registers and other plain
 *   instructions, call the interpreter's handler on the spilled operands (so faults report
 *   exactly as interpreted).
 * - Control flow: a branch taken by all or none of the active lanes is a goto. A forward
 *   branch whose lanes meet again at its target (if-then shapes, nested, with no barrier,
 *   loop or exit inside) splits the mask and restores it at the target. A branch to an
 *   instruction that ends the thread exits the lanes that take it. Any other split hands
 *   the block to the interpreter's loop (exec_native_block_rt.bail), which goes on from
 *   the exact state: that never loses coverage, only speed.
 * - A kernel with calls, barriers other than a plain `bar.sync` of one id, or control flow
 *   it cannot follow statically is left to the per-warp generator (jit/emit.c).
 */
#include "internal.h"
#include "../exec/alu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_SPEC, K_MEM, K_SREG, K_SIMPLE, K_GEN, K_BRA, K_BAR, K_EXIT, K_OFFSET, K_MEMH, K_PLOGIC,
       K_FLT, K_HCALL, K_PCALL };

/* Vector forms of jit/emit.c's specialised operations: a, b, c are the 32 lanes' 64-bit
 * slots (narrower values zero-extended), the value is the slots stored (expr); for the
 * 32-bit operations also the form on 32-bit lanes (wexpr: a, b, c are W, 16 lanes of u32
 * holding the slots' low halves, the value is the low halves of expr's, whose high halves
 * are 0), or NULL. */
typedef struct vspec {
    uint16_t op;
    uint8_t type, var, na;
    bool setp;
    const char *expr;
    const char *wexpr;
} vspec;

#define VSETPW(PT, A, B, WA, WB)                                                         \
    {PTX_OP_setp, PT, ALU_V_EQ, 2, true, "(" A ") == (" B ")", "(" WA ") == (" WB ")"}, \
    {PTX_OP_setp, PT, ALU_V_NE, 2, true, "(" A ") != (" B ")", "(" WA ") != (" WB ")"}, \
    {PTX_OP_setp, PT, ALU_V_LT, 2, true, "(" A ") < (" B ")", "(" WA ") < (" WB ")"},   \
    {PTX_OP_setp, PT, ALU_V_LE, 2, true, "(" A ") <= (" B ")", "(" WA ") <= (" WB ")"}, \
    {PTX_OP_setp, PT, ALU_V_GT, 2, true, "(" A ") > (" B ")", "(" WA ") > (" WB ")"},   \
    {PTX_OP_setp, PT, ALU_V_GE, 2, true, "(" A ") >= (" B ")", "(" WA ") >= (" WB ")"}
#define VSETP(PT, A, B)                                                        \
    {PTX_OP_setp, PT, ALU_V_EQ, 2, true, "(" A ") == (" B ")", NULL},           \
    {PTX_OP_setp, PT, ALU_V_NE, 2, true, "(" A ") != (" B ")", NULL},           \
    {PTX_OP_setp, PT, ALU_V_LT, 2, true, "(" A ") < (" B ")", NULL},            \
    {PTX_OP_setp, PT, ALU_V_LE, 2, true, "(" A ") <= (" B ")", NULL},           \
    {PTX_OP_setp, PT, ALU_V_GT, 2, true, "(" A ") > (" B ")", NULL},            \
    {PTX_OP_setp, PT, ALU_V_GE, 2, true, "(" A ") >= (" B ")", NULL}

/* f32 comparisons: the host's IEEE comparisons of the lanes' floats (A, B on 64-bit slots,
 * WA, WB on 32-bit lanes), whose -1/0 lanes make the mask. As exec/alu_cmp.c: eq lt le gt
 * ge and ne are false when an operand is NaN (ne: lt or gt), their unordered forms (equ ..
 * geu) true; num: neither is NaN; nan: one is. (No .ftz: that form is another handler.) */
#define QF(E) "__builtin_convertvector(" E ", QI)"
#define VSETPF1(V, Q, W) {PTX_OP_setp, PTX_T_f32, V, 2, true, Q, W}
#define VSETPF(A, B, WA, WB)                                                                    \
    VSETPF1(ALU_V_EQ, QF("(" A ") == (" B ")"), "(" WA ") == (" WB ")"),                        \
    VSETPF1(ALU_V_NE, QF("((" A ") < (" B ")) | ((" A ") > (" B "))"),                          \
            "((" WA ") < (" WB ")) | ((" WA ") > (" WB "))"),                                   \
    VSETPF1(ALU_V_LT, QF("(" A ") < (" B ")"), "(" WA ") < (" WB ")"),                          \
    VSETPF1(ALU_V_LE, QF("(" A ") <= (" B ")"), "(" WA ") <= (" WB ")"),                        \
    VSETPF1(ALU_V_GT, QF("(" A ") > (" B ")"), "(" WA ") > (" WB ")"),                          \
    VSETPF1(ALU_V_GE, QF("(" A ") >= (" B ")"), "(" WA ") >= (" WB ")"),                        \
    VSETPF1(ALU_V_EQU, QF("~(((" A ") < (" B ")) | ((" A ") > (" B ")))"),                      \
            "~(((" WA ") < (" WB ")) | ((" WA ") > (" WB ")))"),                                \
    VSETPF1(ALU_V_NEU, QF("(" A ") != (" B ")"), "(" WA ") != (" WB ")"),                       \
    VSETPF1(ALU_V_LTU, QF("~((" A ") >= (" B "))"), "~((" WA ") >= (" WB "))"),                 \
    VSETPF1(ALU_V_LEU, QF("~((" A ") > (" B "))"), "~((" WA ") > (" WB "))"),                   \
    VSETPF1(ALU_V_GTU, QF("~((" A ") <= (" B "))"), "~((" WA ") <= (" WB "))"),                 \
    VSETPF1(ALU_V_GEU, QF("~((" A ") < (" B "))"), "~((" WA ") < (" WB "))"),                   \
    VSETPF1(ALU_V_NUM, QF("((" A ") == (" A ")) & ((" B ") == (" B "))"),                       \
            "((" WA ") == (" WA ")) & ((" WB ") == (" WB "))"),                                 \
    VSETPF1(ALU_V_NAN, QF("((" A ") != (" A ")) | ((" B ") != (" B "))"),                       \
            "((" WA ") != (" WA ")) | ((" WB ") != (" WB "))")

static const vspec vspecs[] = {
    {PTX_OP_mov, PTX_T_u32, ALU_V_NONE, 1, false, "a", "a"},
    {PTX_OP_add, PTX_T_u32, ALU_V_NONE, 2, false, "(a + b) & M32", "a + b"},
    {PTX_OP_add, PTX_T_u64, ALU_V_NONE, 2, false, "a + b", NULL},
    {PTX_OP_sub, PTX_T_u32, ALU_V_NONE, 2, false, "(a - b) & M32", "a - b"},
    {PTX_OP_sub, PTX_T_u64, ALU_V_NONE, 2, false, "a - b", NULL},
    {PTX_OP_mul, PTX_T_u32, ALU_V_LO, 2, false, "(a * b) & M32", "a * b"},
    {PTX_OP_mul, PTX_T_u64, ALU_V_LO, 2, false, "a * b", NULL},
    {PTX_OP_mul, PTX_T_u32, ALU_V_WIDE, 2, false, "(a & M32) * (b & M32)", NULL},
    {PTX_OP_mul, PTX_T_s32, ALU_V_WIDE, 2, false, "(Q)(SX32(a) * SX32(b))", NULL},
    {PTX_OP_mad, PTX_T_u32, ALU_V_LO, 3, false, "(a * b + c) & M32", "a * b + c"},
    {PTX_OP_mad, PTX_T_u64, ALU_V_LO, 3, false, "a * b + c", NULL},
    {PTX_OP_mad, PTX_T_u32, ALU_V_WIDE, 3, false, "(a & M32) * (b & M32) + c", NULL},
    {PTX_OP_mad, PTX_T_s32, ALU_V_WIDE, 3, false, "(Q)(SX32(a) * SX32(b)) + c", NULL},
    {PTX_OP_and, PTX_T_b32, ALU_V_NONE, 2, false, "a & b & M32", "a & b"},
    {PTX_OP_and, PTX_T_b64, ALU_V_NONE, 2, false, "a & b", NULL},
    {PTX_OP_or, PTX_T_b32, ALU_V_NONE, 2, false, "(a | b) & M32", "a | b"},
    {PTX_OP_or, PTX_T_b64, ALU_V_NONE, 2, false, "a | b", NULL},
    {PTX_OP_xor, PTX_T_b32, ALU_V_NONE, 2, false, "(a ^ b) & M32", "a ^ b"},
    {PTX_OP_xor, PTX_T_b64, ALU_V_NONE, 2, false, "a ^ b", NULL},
    {PTX_OP_shl, PTX_T_b32, ALU_V_NONE, 2, false, "(a << (b & 63)) & M32 & (Q)((b & M32) < 32)",
     "(a << (b & 31)) & (W)(b < 32)"},
    {PTX_OP_shl, PTX_T_b64, ALU_V_NONE, 2, false, "(a << (b & 63)) & (Q)((b & M32) < 64)", NULL},
    {PTX_OP_shr, PTX_T_u32, ALU_V_NONE, 2, false,
     "((a & M32) >> (b & 63)) & (Q)((b & M32) < 32)", "(a >> (b & 31)) & (W)(b < 32)"},
    {PTX_OP_shr, PTX_T_u64, ALU_V_NONE, 2, false, "(a >> (b & 63)) & (Q)((b & M32) < 64)", NULL},
    {PTX_OP_shr, PTX_T_s32, ALU_V_NONE, 2, false, "(Q)(SX32(a) >> (QI)(MINV(b & M32, 31))) & M32",
     "(W)((WI)a >> (WI)MINW(b, 31))"},
    {PTX_OP_shr, PTX_T_s64, ALU_V_NONE, 2, false, "(Q)((QI)a >> (QI)(MINV(b & M32, 63)))", NULL},
    VSETPW(PTX_T_u32, "a & M32", "b & M32", "a", "b"),
    /* (equality of s32 lanes is that of their low halves: no sign extension) */
    {PTX_OP_setp, PTX_T_s32, ALU_V_EQ, 2, true, "((a ^ b) & M32) == 0", "a == b"},
    {PTX_OP_setp, PTX_T_s32, ALU_V_NE, 2, true, "((a ^ b) & M32) != 0", "a != b"},
    VSETPW(PTX_T_s32, "SX32(a)", "SX32(b)", "(WI)a", "(WI)b"),
    VSETP(PTX_T_u64, "a", "b"), VSETP(PTX_T_s64, "(QI)a", "(QI)b"),
    VSETPF("FQOF(a)", "FQOF(b)", "(FW)a", "(FW)b"),
};

/* The vector form of instruction in: the row of jit/emit.c's table whose lane handler it
 * has (that also checks its shape), matched to the same (op, type, variant) here. selp is
 * handled by the caller. */
static const vspec *vspec_of(const exec_insn *in) {
    for (size_t i = 0; i < sizeof vspecs / sizeof vspecs[0]; i++) {
        const vspec *v = &vspecs[i];
        if (jit_form_handler(in, v->op, v->type, v->var, v->na, v->setp))
            return jit_form_plain(in, v->setp) ? v : NULL;
    }
    return NULL;
}

/* selp.b32/b64 on registers (a[2] a predicate), per the lane handler of the u32 form. */
static bool is_selp(const exec_insn *in) {
    return jit_form_handler(in, PTX_OP_selp, PTX_T_u32, ALU_V_NONE, 3, false) &&
           jit_form_plain(in, false);
}

/* Ops whose handler reads the register slots a[0..na-1] and writes d[0] only (and, for
 * these ops, touches nothing else of the warp): they run on spilled operands. */
static bool simple_op(const exec_insn *in) {
    if (in->nd != 1 || in->na > 4 || (in->flags & (EXEC_F_D_PRED | EXEC_F_D2_PRED |
                                                   EXEC_F_CC_IN | EXEC_F_CC_OUT)))
        return false;
    switch (in->op) {
    case PTX_OP_cvt: case PTX_OP_cvta: case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul:
    case PTX_OP_mad: case PTX_OP_fma: case PTX_OP_div: case PTX_OP_rem: case PTX_OP_min:
    case PTX_OP_max: case PTX_OP_neg: case PTX_OP_abs: case PTX_OP_sqrt: case PTX_OP_rcp:
    case PTX_OP_ex2: case PTX_OP_lg2: case PTX_OP_sin: case PTX_OP_cos: case PTX_OP_rsqrt:
    case PTX_OP_mov: case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor: case PTX_OP_not:
    case PTX_OP_shl: case PTX_OP_shr: case PTX_OP_bfe: case PTX_OP_popc: case PTX_OP_clz:
    case PTX_OP_brev: case PTX_OP_mul24: case PTX_OP_mad24: case PTX_OP_sad:
    case PTX_OP_copysign: case PTX_OP_cnot: case PTX_OP_bmsk:
    /* (bit fields, funnel shifts, byte permutes, lop3 with its table in imm, dot
     * products, the SFU's tanh: their handlers read only a[] and the instruction) */
    case PTX_OP_shf: case PTX_OP_prmt: case PTX_OP_lop3: case PTX_OP_bfi: case PTX_OP_bfind:
    case PTX_OP_fns: case PTX_OP_szext: case PTX_OP_dp4a: case PTX_OP_dp2a: case PTX_OP_slct:
    case PTX_OP_tanh:
        return true;
    case PTX_OP_set: /* (with a .and/.or/.xor combination, a[2] is a predicate) */
        return in->na == 2;
    default:
        return false;
    }
}

/* Instructions run by their handler on the spilled operands that read and write more than
 * simple_op's: atomics (memory, across host threads), a register unpacked into several
 * (mov {a, b}, c), shuffles (the other lanes' values; a predicate d[1] with EXEC_F_D2_PRED),
 * activemask (the lanes on the path: ACT, which the handler call sets).
 * Their register operands are slots: a[0..na-1] read, d[0..] written. */
/* cp.async's operand flags (exec/memory.c): a[2] is the source size, a register, or the
 * ignore-src predicate (not taken: a predicate operand) */
#define VCP_SRC_SIZE (EXEC_F_HANDLER << 8)
#define VCP_IGNORE_SRC (EXEC_F_HANDLER << 9)

static bool hcall_op(const exec_insn *in) {
    if (in->flags & (EXEC_F_D_PRED | EXEC_F_CC_IN | EXEC_F_CC_OUT)) return false;
    switch (in->op) {
    case PTX_OP_atom: return in->nd == 1 && in->na <= 4 && !(in->flags & EXEC_F_D2_PRED);
    case PTX_OP_red: return in->nd == 0 && in->na <= 4 && !(in->flags & EXEC_F_D2_PRED);
    case PTX_OP_mov:
        return ALU_AUX_VAR(in->aux) == ALU_V_UNPACK && in->nd >= 2 && in->nd <= 4 && in->na == 1 &&
               !(in->flags & EXEC_F_D2_PRED);
    case PTX_OP_shfl: return in->nd >= 1 && in->nd <= 2 && in->na == 4;
    case PTX_OP_activemask: return in->nd == 1 && in->na == 0;
    case PTX_OP_cp: /* cp.async (copied at once), commit_group and wait_group (nothing) */
        return in->nd == 0 && (in->obs == EXEC_OBS_K_CP_ASYNC ? !(in->flags & VCP_IGNORE_SRC)
                                                               : in->fn == exec_h_nop);
    default: return false;
    }
}

/* Comparisons the vector forms above do not take, run by their handler (the interpreter's
 * exact meaning: float setp with its unordered forms and NaN rules, .ftz, a .and/.or/.xor
 * combination with predicate a[2], a second result d[1]; testp): register slots a[0..1]
 * read, predicates d[0] (and d[1]) written on the lanes of the path. */
static bool pcall_op(const exec_insn *in) {
    if (!in->fn || (in->flags & (EXEC_F_CC_IN | EXEC_F_CC_OUT)) || !(in->flags & EXEC_F_D_PRED))
        return false;
    bool d2 = in->flags & EXEC_F_D2_PRED;
    if (in->nd != (d2 ? 2u : 1u)) return false;
    switch (in->op) {
    case PTX_OP_setp: return in->na == (ALU_AUX_BOOL(in->aux) == ALU_BOOL_NONE ? 2u : 3u);
    case PTX_OP_testp: return in->na == 1 && !d2;
    default: return false;
    }
}

/* A collective of the warp's lanes: run by the handler only when all 32 take part (with
 * lanes apart, the interpreter, which lets them meet) */
static bool hcall_collective(const exec_insn *in) { return in->op == PTX_OP_shfl; }

/* The memory shape of in (exec_native_mem_shape), also when exec/uniform.c made it one
 * access for the warp (uniform: then every lane reads the same address). */
static int mem_shape(const exec_insn *in, unsigned *size, bool *uniform) {
    *uniform = false;
    int s = exec_native_mem_shape(in, size);
    if (s != EXEC_NATIVE_MEM_NONE || !in->lane_fn) return s;
    exec_insn p = *in;
    p.fn = in->lane_fn;
    s = exec_native_mem_shape(&p, size);
    *uniform = s != EXEC_NATIVE_MEM_NONE;
    return s;
}

/* f32 add, sub, mul (round to nearest) and fma/mad.rn, without .ftz/.sat: the host's IEEE
 * arithmetic (a fused fma), a NaN made the canonical one, as exec/alu_float.c does. */
static bool float_op(const exec_insn *in) {
    if (in->type != PTX_T_f32 || in->nd != 1 ||
        (in->flags & (EXEC_F_FTZ | EXEC_F_SAT | EXEC_F_APPROX | EXEC_F_D_PRED | EXEC_F_CC_IN |
                      EXEC_F_CC_OUT)))
        return false;
    unsigned rnd = ALU_AUX_RND(in->aux);
    exec_fn lane = in->lane_fn ? in->lane_fn : in->fn;
    if (lane != exec_alu_lookup(in)) return false;
    switch (in->op) {
    case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul:
        return in->na == 2 && (rnd == EXEC_RND_DEFAULT || rnd == EXEC_RND_RN);
    case PTX_OP_fma: case PTX_OP_mad:
        return in->na == 3 && rnd == EXEC_RND_RN;
    default:
        return false;
    }
}

/* Does the instruction end the thread (ret of a kernel, exit), for every lane? */
static bool ends_thread(const exec_insn *in) {
    return (in->op == PTX_OP_ret || in->op == PTX_OP_exit) && in->guard < 0;
}

/* The plain bar.sync / barrier.sync of a constant id for the whole block. */
static bool plain_bar(const exec_insn *in, int32_t *id) {
    if (in->op != PTX_OP_bar && in->op != PTX_OP_barrier) return false;
    if (in->nd || in->imm || in->aux || in->guard >= 0 || in->target >= 16 ||
        (in->flags & ~(uint32_t)(EXEC_F_HANDLER << 8 | EXEC_F_HANDLER << 11)) ||
        !(in->flags & (EXEC_F_HANDLER << 8)) || in->src == NULL)
        return false;
    *id = in->target;
    return true;
}

/* ---- the function's analysis ---- */

typedef struct vfunc {
    const exec_func *f;
    uint32_t n;          /* ncode; index n is the end sentinel (ret) */
    uint8_t *kind;
    const vspec **vs;
    uint32_t nw;         /* words of a slot set */
    uint64_t *isvar;     /* slots that are registers held in locals */
    uint64_t *live;      /* live-in set per instruction (n + 1 sets) */
    bool *konst;         /* slot is a constant slot */
    int32_t *cidx;       /* its entry in f->consts, or -1 */
    int32_t *region_of;  /* innermost region (its target) an instruction is in, or -1 */
    int32_t *head;       /* for a branch: the target of the region it opens, or -1 */
    bool *rtarget;       /* index is a valid region's target */
    bool *resume;        /* index is the instruction after a barrier */
    bool *label;         /* index is a branch target */
    bool *uni;           /* register held as one scalar for the warp: all lanes equal, or
                          * affine (stride != 0) */
    int64_t *stride;     /* a scalar register's step from lane to lane: lane l holds
                          * (s + l * stride) in its width; 0 for a uniform one */
    bool *w32;           /* an affine register's width is 32 bits (its lanes wrap at 2^32) */
    struct aval *av;     /* what the value analysis found of each slot */
    bool affine;         /* the variant for blocks whose warps hold 32 consecutive threads of
                          * a row (threadIdx.x affine in the lane, y and z uniform) */
    const char *pfx;     /* the generated functions' prefix: vb (or vg: the general variant) */
    uint32_t pw;         /* words of a predicate set */
    uint64_t *plive;     /* predicates live into each instruction (n + 1 sets) */
    bool *inv;           /* a uniform register the same in every warp of the block, set
                          * once at the start (parameters, block indices and what is made
                          * of them): not saved or loaded at barriers */
    bool *narrow;        /* a vector register of 32-bit lanes (vn: every definition makes a
                          * 32-bit value, see find_narrow) */
    int32_t *sidx;       /* a scalar register's words in the block's stash (SV_, below), or
                          * -1: those live across a barrier and not block-invariant */
    int32_t *pidx;       /* the same for a predicate (one word) */
    uint32_t ns;         /* words of one warp's part of the stash */
    bool *sdef;          /* a stashed register written into the stash where it is defined
                          * (at most once a warp, before any barrier) and so not at every
                          * barrier: see stash_at_def */
    bool reads_tid;      /* the kernel reads threadIdx */
    bool general;        /* the general variant is generated too (vg_f<index>) */
    struct vrows *rows;  /* the rows variant's row-affine registers (see find_rows), or
                          * NULL */
    bool rowsv;          /* the rows variant (vr_f<index>); in the affine one: it exists */
    bool outline;        /* a large function: its cold spills as calls (VEMIT_OUTLINE_MIN) */
} vfunc;

/* From this many instructions on, a function's cold paths (a handler's spills, vb_fix's
 * fills) call the prelude's out-of-line helpers (jit/vemit_mem.c) instead of writing
 * their vector code inline: a large kernel's hundreds of copies made most of its text and
 * of the C compiler's time, while in a small kernel (the reductions, ~100 instructions)
 * the inline text costs little and the calls changed how the C compiler allocates the
 * hot path's registers (2-4% more host instructions, callgrind). */
#define VEMIT_OUTLINE_MIN 300u

#define SET_HAS(s, k) (((s)[(k) >> 6] >> ((k) & 63)) & 1u)
#define SET_ADD(s, k) ((s)[(k) >> 6] |= 1ull << ((k) & 63))
#define SET_DEL(s, k) ((s)[(k) >> 6] &= ~(1ull << ((k) & 63)))

static void rows_free(struct vrows *r);

static void vf_free(vfunc *v) {
    free(v->kind); free(v->vs); free(v->isvar); free(v->live); free(v->konst); free(v->cidx);
    free(v->region_of); free(v->head); free(v->rtarget); free(v->resume); free(v->label);
    free(v->uni); free(v->stride); free(v->w32); free(v->av); free(v->plive); free(v->inv);
    free(v->narrow); free(v->sidx); free(v->pidx); free(v->sdef);
    rows_free(v->rows);
}

static bool reject(char *why, size_t n, const exec_insn *in, const char *what) {
    const char *name = in && in->op < PTX_OP_COUNT ? ptx_opcode_names[in->op] : "";
    snprintf(why, n, "%s%s%s", what, in ? ": " : "", name);
    return false;
}

/* Operand slots an instruction reads and writes as registers (for liveness). */
static void insn_slots(const vfunc *v, uint32_t i, uint32_t *use, unsigned *nuse, uint32_t *def,
                       unsigned *ndef) {
    const exec_insn *in = &v->f->code[i];
    *nuse = *ndef = 0;
    switch (v->kind[i]) {
    case K_SPEC:
        for (unsigned k = 0; k < in->na; k++)
            if (!(in->op == PTX_OP_selp && k == 2)) use[(*nuse)++] = in->a[k];
        if (!(in->flags & EXEC_F_D_PRED)) def[(*ndef)++] = in->d[0];
        break;
    case K_SIMPLE: case K_OFFSET: case K_FLT:
        for (unsigned k = 0; k < in->na; k++) use[(*nuse)++] = in->a[k];
        def[(*ndef)++] = in->d[0];
        break;
    case K_SREG:
        def[(*ndef)++] = in->d[0];
        break;
    case K_PCALL: /* (a[2] is a predicate) */
        for (unsigned k = 0; k < in->na && k < 2; k++) use[(*nuse)++] = in->a[k];
        break;
    case K_HCALL:
        if (in->op == PTX_OP_cp) { /* (a cp.async: shared a[0], global a[1], its size) */
            if (in->obs != EXEC_OBS_K_CP_ASYNC) break;
            for (unsigned k = 0; k < ((in->flags & VCP_SRC_SIZE) ? 3u : 2u); k++)
                use[(*nuse)++] = in->a[k];
            break;
        }
        for (unsigned k = 0; k < in->na; k++) use[(*nuse)++] = in->a[k];
        for (unsigned k = 0; k < in->nd; k++)
            if (!(k == 1 && (in->flags & EXEC_F_D2_PRED))) def[(*ndef)++] = in->d[k];
        break;
    case K_MEM: {
        unsigned sz;
        bool uni;
        int shape = mem_shape(in, &sz, &uni);
        if (shape == EXEC_NATIVE_MEM_LD_KPARAM) {
            def[(*ndef)++] = in->d[0];
        } else if (shape == EXEC_NATIVE_MEM_ST_GLOBAL || shape == EXEC_NATIVE_MEM_ST_SHARED) {
            use[(*nuse)++] = in->a[0];
            use[(*nuse)++] = in->d[0];
        } else {
            use[(*nuse)++] = in->a[0];
            def[(*ndef)++] = in->d[0];
        }
        break;
    }
    case K_MEMH:
        for (unsigned k = 0; k < in->na; k++) use[(*nuse)++] = in->a[k];
        for (unsigned k = 0; k < in->vec; k++) {
            if (exec_native_mem_generic(in) == 2) use[(*nuse)++] = in->d[k];
            else def[(*ndef)++] = in->d[k];
        }
        break;
    default:
        break;
    }
}

/* Does the kernel lean on floating-point operations that run by their handler (division,
 * square roots, the SFU's approximations)? Each such call here spills its operand vectors
 * to the warp's register file and reloads the result, where the per-warp code's handler
 * works on the register file in place: a BlackScholes-shaped kernel with 10 of them in
 * 152 instructions ran 1.3x slower here (bench/RESULTS.md, "vector tier coverage"), a
 * kernel of float compares with none 2.2x faster. Above one in 20 instructions, the
 * per-warp code is the faster one. */
static bool sfu_heavy(const vfunc *v, char *why, size_t wn) {
    uint32_t calls = 0;
    const exec_insn *first = NULL;
    for (uint32_t i = 0; i < v->n; i++) {
        const exec_insn *in = &v->f->code[i];
        if (v->kind[i] != K_SIMPLE || (in->type != PTX_T_f32 && in->type != PTX_T_f64)) continue;
        switch (in->op) {
        case PTX_OP_div: case PTX_OP_sqrt: case PTX_OP_rcp: case PTX_OP_rsqrt: case PTX_OP_ex2:
        case PTX_OP_lg2: case PTX_OP_sin: case PTX_OP_cos: case PTX_OP_tanh:
            if (!first) first = in;
            calls++;
            break;
        default:
            break;
        }
    }
    if (calls * 20 <= v->n) return false;
    reject(why, wn, first, "many divisions and special functions, each a handler call");
    return true;
}

static bool classify(vfunc *v, char *why, size_t wn) {
    const exec_func *f = v->f;
    int32_t bar_id = -1;
    for (uint32_t i = 0; i <= v->n; i++) {
        const exec_insn *in = &f->code[i];
        unsigned sz;
        int32_t id;
        bool uni;
        if (i == v->n) {
            v->kind[i] = K_EXIT;
        } else if (in->type == PTX_T_b128) {
            /* a .b128 register is two consecutive slots (exec/alu_mov.c); this tier's
             * liveness, spills and handler calls move one slot per register */
            return reject(why, wn, in, "a 128-bit register");
        } else if ((v->vs[i] = vspec_of(in)) != NULL || is_selp(in)) {
            v->kind[i] = K_SPEC;
        } else if (mem_shape(in, &sz, &uni) != EXEC_NATIVE_MEM_NONE) {
            v->kind[i] = K_MEM;
        } else if ((in->fn == exec_h_sreg || in->lane_fn == exec_h_sreg) && in->nd == 1 &&
                   !(in->flags & EXEC_F_D_PRED)) {
            v->kind[i] = K_SREG;
        } else if (float_op(in)) {
            v->kind[i] = K_FLT;
        } else if (exec_native_mem_generic(in) && in->vec >= 1 && in->vec <= 4 && in->na <= 1 &&
                   !(in->flags & EXEC_F_D_PRED)) {
            v->kind[i] = K_MEMH;
        } else if (in->type == PTX_T_pred && (in->flags & EXEC_F_D_PRED) && in->nd == 1 &&
                   (in->op == PTX_OP_and || in->op == PTX_OP_or || in->op == PTX_OP_xor ||
                    in->op == PTX_OP_not || in->op == PTX_OP_mov) &&
                   in->na == (in->op == PTX_OP_not || in->op == PTX_OP_mov ? 1 : 2)) {
            v->kind[i] = K_PLOGIC;
        } else if (exec_native_is_offset(in) && !(in->flags & EXEC_F_D_PRED)) {
            v->kind[i] = K_OFFSET;
        } else if (simple_op(in)) {
            v->kind[i] = K_SIMPLE;
        } else if (hcall_op(in)) {
            v->kind[i] = K_HCALL;
        } else if (pcall_op(in)) {
            v->kind[i] = K_PCALL;
        } else if (in->op == PTX_OP_bra) {
            if (in->target < 0 || (uint32_t)in->target > v->n)
                return reject(why, wn, in, "a branch out of the code");
            if (in->flags & EXEC_F_SPIN)
                return reject(why, wn, in, "a loop that may wait on other threads");
            v->kind[i] = K_BRA;
        } else if (plain_bar(in, &id)) {
            if (bar_id >= 0 && id != bar_id)
                return reject(why, wn, in, "barriers of more than one id");
            bar_id = id;
            v->kind[i] = K_BAR;
        } else if (in->op == PTX_OP_ret || in->op == PTX_OP_exit) {
            v->kind[i] = K_EXIT;
        } else if (in->op == PTX_OP_call) {
            return reject(why, wn, in, "a call");
        } else {
            return reject(why, wn, in, "an instruction it does not run");
        }
        if (in->op == PTX_OP_bra) v->label[in->target] = true;
    }
    return !sfu_heavy(v, why, wn);
}

/* Regions: for each forward branch target T, the branches that go there; the region is
 * [i0, T) with i0 the first of them, valid when every branch to T reconverges at T, no
 * branch from outside enters (i0, T], and everything inside is straight code or forward
 * branches to valid regions nested in it (no barrier, exit or backward branch). */
static void find_regions(vfunc *v) {
    const exec_func *f = v->f;
    uint32_t n = v->n;
    int32_t *first = malloc((n + 1) * sizeof *first);
    if (!first) abort();
    for (uint32_t t = 0; t <= n; t++) first[t] = -1;
    for (uint32_t i = 0; i < n; i++) {
        const exec_insn *in = &f->code[i];
        if (v->kind[i] != K_BRA || in->target <= (int32_t)i) continue;
        if (first[in->target] < 0) first[in->target] = (int32_t)i;
    }
    /* smallest regions first, so that nested ones are known when their outer one is */
    for (uint32_t len = 1; len <= n; len++)
        for (uint32_t t = len; t <= n; t++) {
            int32_t i0 = first[t];
            if (i0 < 0 || t - (uint32_t)i0 != len) continue;
            bool ok = !ends_thread(&f->code[t]);
            for (uint32_t j = 0; j < n && ok; j++) {
                const exec_insn *in = &f->code[j];
                if (v->kind[j] != K_BRA) continue;
                bool inside = j >= (uint32_t)i0 && j < t;
                if (in->target == (int32_t)t && in->reconv != (int32_t)t) ok = false;
                if (!inside && in->target > i0 && (uint32_t)in->target <= t) ok = false;
                if (inside && (in->target <= (int32_t)j || (uint32_t)in->target > t)) ok = false;
                if (inside && (uint32_t)in->target < t && !v->rtarget[in->target]) ok = false;
            }
            for (uint32_t j = (uint32_t)i0 + 1; j < t && ok; j++)
                if (v->kind[j] == K_BAR || v->kind[j] == K_EXIT) ok = false;
            if (!ok) continue;
            v->rtarget[t] = true;
            v->head[i0] = (int32_t)t;
            for (uint32_t j = (uint32_t)i0 + 1; j < t; j++)
                if (v->region_of[j] < 0) v->region_of[j] = (int32_t)t;
        }
    free(first);
}

/* Backward liveness of the register slots. A definition kills only outside regions and
 * unguarded: under a mask the lanes it does not write keep their value. */
static void liveness(vfunc *v) {
    const exec_func *f = v->f;
    uint32_t n = v->n, nw = v->nw;
    uint64_t *tmp = calloc(nw, sizeof *tmp);
    if (!tmp) abort();
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t ii = n + 1; ii-- > 0;) {
            const exec_insn *in = &f->code[ii];
            memset(tmp, 0, nw * sizeof *tmp);
            uint8_t k = v->kind[ii];
            bool falls = true;
            if (k == K_EXIT && (ii == n || in->guard < 0)) falls = false;
            if (k == K_BRA && in->guard < 0) falls = false;
            if (falls && ii < n)
                for (uint32_t w = 0; w < nw; w++) tmp[w] |= v->live[(ii + 1) * nw + w];
            if (k == K_BRA)
                for (uint32_t w = 0; w < nw; w++) tmp[w] |= v->live[(uint32_t)in->target * nw + w];
            insn_slots(v, ii, use, &nuse, def, &ndef);
            /* in a region, a definition is whole for the lanes that read it before the
             * paths meet; it kills when nothing reads it after they meet */
            int32_t rt = v->region_of[ii];
            if (in->guard < 0)
                for (unsigned d = 0; d < ndef; d++)
                    if (SET_HAS(v->isvar, def[d]) &&
                        (rt < 0 || !SET_HAS(&v->live[(uint32_t)rt * nw], def[d])))
                        SET_DEL(tmp, def[d]);
            for (unsigned u = 0; u < nuse; u++)
                if (SET_HAS(v->isvar, use[u])) SET_ADD(tmp, use[u]);
            uint64_t *cur = &v->live[ii * nw];
            if (memcmp(cur, tmp, nw * sizeof *tmp)) {
                memcpy(cur, tmp, nw * sizeof *tmp);
                changed = true;
            }
        }
    }
    free(tmp);
}

/* Backward liveness of the predicates, as liveness() for registers: read by guards, selp
 * and predicate logic; a setp or predicate operation writes the lanes of the path (a
 * kill outside regions and unguarded, where the path is every lane still running). */
static void pred_liveness(vfunc *v) {
    const exec_func *f = v->f;
    uint32_t n = v->n, pw = v->pw;
    uint64_t *tmp = calloc(pw, sizeof *tmp);
    if (!tmp) abort();
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t ii = n + 1; ii-- > 0;) {
            const exec_insn *in = &f->code[ii];
            memset(tmp, 0, pw * sizeof *tmp);
            uint8_t k = v->kind[ii];
            bool falls = !((k == K_EXIT && (ii == n || in->guard < 0)) ||
                           (k == K_BRA && in->guard < 0));
            if (falls && ii < n)
                for (uint32_t w = 0; w < pw; w++) tmp[w] |= v->plive[(ii + 1) * pw + w];
            if (k == K_BRA)
                for (uint32_t w = 0; w < pw; w++) tmp[w] |= v->plive[(uint32_t)in->target * pw + w];
            bool pdef = (k == K_SPEC && in->op != PTX_OP_selp && v->vs[ii]->setp) || k == K_PLOGIC;
            if (pdef && in->guard < 0 && v->region_of[ii] < 0 && in->d[0] < f->npreds)
                SET_DEL(tmp, in->d[0]);
            if (in->guard >= 0 && (uint32_t)in->guard < f->npreds) SET_ADD(tmp, (uint32_t)in->guard);
            if (k == K_SPEC && in->op == PTX_OP_selp && in->a[2] < f->npreds) SET_ADD(tmp, in->a[2]);
            if (k == K_PLOGIC)
                for (unsigned a = 0; a < in->na; a++)
                    if (in->a[a] < f->npreds) SET_ADD(tmp, in->a[a]);
            /* (its handler writes the lanes of the path into P, loaded with the others'
             * values: the results are read, as is a combined predicate) */
            if (k == K_PCALL) {
                for (unsigned d = 0; d < in->nd; d++)
                    if (in->d[d] < f->npreds) SET_ADD(tmp, in->d[d]);
                if (in->na == 3 && in->a[2] < f->npreds) SET_ADD(tmp, in->a[2]);
            }
            uint64_t *cur = &v->plive[ii * pw];
            if (memcmp(cur, tmp, pw * sizeof *tmp)) {
                memcpy(cur, tmp, pw * sizeof *tmp);
                changed = true;
            }
        }
    }
    free(tmp);
}

/* Registers every warp of the block computes alike: defined once, unguarded, in the
 * straight code before the first branch (but those that only end lanes), barrier or exit,
 * from parameters, block indices, constants and one another. */
static void block_invariants(vfunc *v) {
    const exec_func *f = v->f;
    uint32_t *ndefs = calloc(f->nslots + 1, sizeof *ndefs);
    if (!ndefs) abort();
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    for (uint32_t i = 0; i <= v->n; i++) {
        insn_slots(v, i, use, &nuse, def, &ndef);
        for (unsigned k = 0; k < ndef; k++)
            if (def[k] < f->nslots) ndefs[def[k]]++;
    }
    for (uint32_t i = 0; i < v->n; i++) {
        const exec_insn *in = &f->code[i];
        uint8_t k = v->kind[i];
        /* (a branch on which lanes end, if (i >= n) return;, leaves the others on) */
        if (k == K_BRA && in->target > (int32_t)i && ends_thread(&f->code[in->target]))
            continue;
        if (k == K_BRA || k == K_BAR || k == K_EXIT || (i && (v->label[i] || v->resume[i])))
            break;
        insn_slots(v, i, use, &nuse, def, &ndef);
        if (ndef != 1 || def[0] >= f->nslots || ndefs[def[0]] != 1 || in->guard >= 0 ||
            !v->uni[def[0]] || v->stride[def[0]])
            continue;
        bool ok;
        unsigned sz;
        bool u;
        if (k == K_MEM) ok = mem_shape(in, &sz, &u) == EXEC_NATIVE_MEM_LD_KPARAM;
        else if (k == K_SREG)
            ok = (uint32_t)in->target >= PTX_SREG_NTID_X && (uint32_t)in->target <= PTX_SREG_NCTAID_Z;
        else
            ok = (k == K_SPEC && in->op != PTX_OP_selp && !v->vs[i]->setp) || k == K_OFFSET ||
                 k == K_SIMPLE;
        for (unsigned a = 0; a < nuse && ok; a++)
            ok = use[a] < f->nslots && (v->konst[use[a]] || v->inv[use[a]]);
        if (ok) v->inv[def[0]] = true;
    }
    free(ndefs);
}

/* ---- the value analysis: uniform, affine and vector registers ----
 *
 * A register is held as one scalar when every lane's value follows from it: uniform (all
 * lanes equal) or affine (lane l holds s + l * step, in the register's width, the step a
 * constant of the code): threadIdx.x in a block whose warps hold 32 consecutive threads of
 * a row, and what adds, constant multiples and shifts, and widenings make of it (addresses
 * like &a[blockIdx.x * blockDim.x + threadIdx.x]). Such a register costs one scalar
 * operation per warp instead of 32 lanes, crosses a barrier as one word, and an access
 * whose address steps by the access size is contiguous without looking at the lanes.
 * Everything else is a vector. The analysis is a fixed point over the definitions of each
 * register: a register is uniform or affine when all its definitions are, with one step.
 * An affine value times a uniform one that is no constant (2 * stride * tid) is affine
 * with a step of the run (aval.rs, RSTEP): every definition computes the step with the
 * value, from its operands' steps, into a scalar beside it.
 *
 * A definition inside an if-then region writes only the lanes on the path; it can be a
 * scalar still when nothing reads the register after the paths meet (the lanes that took
 * the other way never look at it). A guarded definition is a vector.
 *
 * Widening a 32-bit affine value (mul.wide, a 64-bit add) is affine only if no lane wraps
 * at 2^32: known when the value is bounded (threadIdx.x < 1024, and what small adds and
 * shifts make of it), else checked at run time: where a lane would wrap, the block goes
 * on in the interpreter from there. */
enum { A_TOP, A_UNI, A_AFF, A_VEC };
typedef struct aval {
    uint8_t cls;
    bool w32;       /* affine: the value is 32 bits wide */
    int64_t step;   /* affine: lane-to-lane step (sign-extended from 32 bits when w32) */
    uint64_t ub;    /* every lane's value is below or at ub, computed without wrapping
                     * (UB_ANY: not known) */
    bool rs;        /* affine: the step is a value of the run (a uniform register's times
                     * a constant step, 2 * stride * tid), held beside the register
                     * (step is 0 then; see RSTEP) */
} aval;
#define UB_ANY UINT64_MAX
/* vfunc.stride of an affine register whose step is a value of the run (aval.rs): the
 * generated code holds it in t<slot> (i64; sign-extended from 32 bits for a 32-bit
 * register) beside the register's lane 0 in s<slot>, and at a barrier in the register
 * file's lane 1 slot */
#define RSTEP INT64_MIN
/* vfunc.stride of a row-affine register of the rows variant (see find_rows): lane l holds
 * s<slot> + (l % W) * c + (l / W) * t<slot>, c its constant (vrows.c[slot]) */
#define RROW (INT64_MIN + 1)
static const aval AV_TOP = {A_TOP, false, 0, 0, false}, AV_VEC = {A_VEC, false, 0, UB_ANY, false};

static bool konst_value(const vfunc *v, uint32_t s, uint64_t *c) {
    if (s >= v->f->nslots || !v->konst[s]) return false;
    const exec_const *k = &v->f->consts[v->cidx[s]];
    if (k->kind != EXEC_CK_VALUE) return false;
    *c = k->value;
    return true;
}

static aval operand_av(const vfunc *v, const aval *av, uint32_t s) {
    uint64_t c;
    if (konst_value(v, s, &c)) return (aval){A_UNI, false, 0, c, false};
    if (s >= v->f->nslots) return AV_VEC;
    if (v->konst[s]) return (aval){A_UNI, false, 0, UB_ANY, false};
    return av[s];
}

static uint64_t ub_add(uint64_t a, uint64_t b, uint64_t max) {
    return a == UB_ANY || b == UB_ANY || a > max - b || a + b > max ? UB_ANY : a + b;
}
static uint64_t ub_mul(uint64_t a, uint64_t b, uint64_t max) {
    return a == UB_ANY || b == UB_ANY || (b && a > max / b) ? UB_ANY : a * b;
}

/* A 64-bit affine value read as 32 bits (its low halves: affine, wrapping at 2^32). */
static aval as_w32(aval a) {
    if (a.cls == A_AFF && !a.w32) {
        a.w32 = true;
        a.step = (int32_t)(uint32_t)a.step;
        if (a.ub > 0xffffffffu) a.ub = UB_ANY;
    }
    return a;
}

/* Does widening a (a 32-bit value read as signed or unsigned lanes) need a check at run
 * time that no lane wraps? (When one would, the block goes to the interpreter there.) */
static bool needs_wrap_check(aval a, bool sgn) {
    a = as_w32(a);
    return a.cls == A_AFF && a.w32 && a.ub > (sgn ? 0x7fffffffu : 0xffffffffu);
}

/* An integer cvt that only widens or narrows (no saturation or rounding): CVT_ZEXT and
 * CVT_SEXT from 32 to 64 bits, CVT_TRUNC to 32 bits, CVT_MOV 64 to 64; else CVT_NONE. */
enum { CVT_NONE, CVT_ZEXT, CVT_SEXT, CVT_TRUNC, CVT_MOV };
static int int_cvt(const exec_insn *in) {
    if (in->op != PTX_OP_cvt || in->na != 1 || in->nd != 1 || in->imm ||
        (in->flags & (EXEC_F_SAT | EXEC_F_FTZ | EXEC_F_D_PRED)) || ALU_AUX_RND(in->aux))
        return CVT_NONE;
    int dk = ptx_type_kinds[in->type], sk = ptx_type_kinds[in->type2];
    unsigned ds = ptx_type_sizes[in->type], ss = ptx_type_sizes[in->type2];
    bool dint = dk == 'u' || dk == 's' || dk == 'b', sint = sk == 'u' || sk == 's' || sk == 'b';
    if (!dint || !sint || (ds != 4 && ds != 8) || (ss != 4 && ss != 8)) return CVT_NONE;
    if (ds == 4) return CVT_TRUNC;
    if (ss == 8) return CVT_MOV;
    return sk == 's' ? CVT_SEXT : CVT_ZEXT;
}

/* What instruction i's definition is, given what is known of its operands. */
static aval result_av(const vfunc *v, const aval *av, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    const aval UNI = {A_UNI, false, 0, UB_ANY, false};
    if (in->guard >= 0) return AV_VEC;
    int32_t rt = v->region_of[i];
    if (rt >= 0 && SET_HAS(&v->live[(uint32_t)rt * v->nw], in->d[0])) return AV_VEC;
    switch (v->kind[i]) {
    case K_HCALL: return AV_VEC;
    case K_SREG: {
        uint32_t sreg = (uint32_t)in->target;
        if (sreg >= PTX_SREG_NTID_X && sreg <= PTX_SREG_NTID_Z)
            return (aval){A_UNI, true, 0, sreg == PTX_SREG_NTID_Z ? 64 : 1024, false};
        if (sreg >= PTX_SREG_CTAID_X && sreg <= PTX_SREG_NCTAID_Z) return UNI;
        if (v->affine && sreg == PTX_SREG_TID_X) return (aval){A_AFF, true, 1, 1023, false};
        if (v->affine && (sreg == PTX_SREG_TID_Y || sreg == PTX_SREG_TID_Z))
            return (aval){A_UNI, true, 0, 1023, false};
        return in->lane_fn ? UNI : AV_VEC;
    }
    case K_MEM: {
        unsigned sz;
        bool u;
        if (mem_shape(in, &sz, &u) == EXEC_NATIVE_MEM_LD_KPARAM) return UNI;
        return in->lane_fn ? UNI : AV_VEC;
    }
    case K_FLT:
        return AV_VEC;
    case K_OFFSET: {
        aval a = operand_av(v, av, in->a[0]);
        bool all = in->aux >= 64;
        if (in->lane_fn || a.cls == A_UNI) return UNI;
        if (a.cls != A_AFF || (!all && in->aux != 32)) return a.cls == A_TOP ? AV_TOP : AV_VEC;
        if (all && a.w32 && a.ub > 0xffffffffu) return AV_VEC;
        uint64_t imm = (uint64_t)in->imm;
        aval r = {A_AFF, !all, a.step, ub_add(a.ub, imm, all ? UB_ANY - 1 : 0xffffffffu), a.rs};
        if (!all) r.step = (int32_t)(uint32_t)r.step;
        return r;
    }
    case K_SPEC:
        break;
    case K_SIMPLE: {
        int cv = int_cvt(in);
        if (in->lane_fn) return UNI;
        if (cv == CVT_NONE) return AV_VEC;
        aval a = operand_av(v, av, in->a[0]);
        if (a.cls != A_AFF) return a.cls == A_UNI ? UNI : a;
        if (cv == CVT_TRUNC) return as_w32(a);
        if (cv == CVT_MOV) return a.w32 ? AV_VEC : a;
        a = as_w32(a);
        /* widened: checked at run time unless a bound shows no lane wraps */
        aval r = {A_AFF, false, a.step, cv == CVT_SEXT ? UB_ANY : a.ub, a.rs};
        if (cv == CVT_SEXT && a.ub <= 0x7fffffffu) r.ub = a.ub;
        return r;
    }
    default:
        return in->lane_fn ? UNI : AV_VEC;
    }
    const vspec *vs = v->vs[i];
    if (in->op == PTX_OP_selp || vs->setp) return in->lane_fn ? UNI : AV_VEC;
    aval a[3] = {AV_TOP, AV_TOP, AV_TOP};
    bool top = false, vec = false, all_uni = true;
    for (unsigned k = 0; k < in->na && k < 3; k++) {
        a[k] = operand_av(v, av, in->a[k]);
        top |= a[k].cls == A_TOP;
        vec |= a[k].cls == A_VEC;
        all_uni &= a[k].cls == A_UNI;
    }
    bool wide = vs->var == ALU_V_WIDE, sgn = vs->type == PTX_T_s32;
    bool w32 = !wide && ptx_type_sizes[vs->type] == 4;
    uint64_t max = w32 ? 0xffffffffu : UB_ANY - 1;
    aval r = {A_AFF, w32, 0, UB_ANY, false};
    uint64_t c;
    /* a 64-bit operation on a 32-bit affine operand widens it */
    if (!w32 && !wide)
        for (unsigned k = 0; k < in->na && k < 3; k++)
            if (a[k].cls == A_AFF && a[k].w32 && a[k].ub > 0xffffffffu) vec = true;
    if (in->lane_fn) {
        if (top || vec) return UNI;
    } else if (top) {
        return AV_TOP;
    } else if (vec) {
        return AV_VEC;
    }
    switch (vs->op) {
    case PTX_OP_mov:
        r.step = a[0].step;
        r.ub = a[0].ub;
        r.rs = a[0].rs;
        break;
    case PTX_OP_add:
        r.step = a[0].step + a[1].step;
        r.ub = ub_add(a[0].ub, a[1].ub, max);
        r.rs = a[0].rs || a[1].rs;
        break;
    case PTX_OP_sub:
        r.step = a[0].step - a[1].step;
        r.rs = a[0].rs || a[1].rs;
        break;
    case PTX_OP_mul:
    case PTX_OP_mad: {
        int kc = konst_value(v, in->a[1], &c) ? 1 : konst_value(v, in->a[0], &c) ? 0 : -1;
        if (kc < 0 && (a[0].cls == A_AFF) != (a[1].cls == A_AFF)) {
            /* an affine value times a uniform one of the run: affine, its step known
             * when the code runs (emit_aff) */
            r.step = 0;
            r.rs = true;
        } else if (kc < 0) {
            if (!all_uni && !(in->op == PTX_OP_mad && a[0].cls == A_UNI && a[1].cls == A_UNI))
                return AV_VEC;
            r.step = 0;
            r.ub = ub_mul(a[0].ub, a[1].ub, max);
        } else {
            aval x = wide ? as_w32(a[1 - kc]) : a[1 - kc];
            int64_t cc = wide ? (sgn ? (int64_t)(int32_t)(uint32_t)c : (int64_t)(uint32_t)c)
                              : (int64_t)c;
            r.step = (int64_t)((uint64_t)x.step * (uint64_t)cc);
            r.ub = cc < 0 ? UB_ANY : ub_mul(x.ub, (uint64_t)cc, max);
            r.rs = x.rs;
        }
        if (in->op == PTX_OP_mad) {
            r.step += a[2].step;
            r.ub = ub_add(r.ub, a[2].ub, max);
            r.rs |= a[2].rs;
        }
        break;
    }
    case PTX_OP_shl:
        if (!konst_value(v, in->a[1], &c) || c >= (w32 ? 32u : 64u)) {
            if (!all_uni) return AV_VEC;
            r.step = 0;
            break;
        }
        r.step = (int64_t)((uint64_t)a[0].step << c);
        r.rs = a[0].rs;
        r.ub = a[0].ub == UB_ANY || (a[0].ub << c) >> c != a[0].ub || (a[0].ub << c) > max
                   ? UB_ANY : a[0].ub << c;
        break;
    default:
        if (!all_uni) return AV_VEC;
        r.step = 0;
        r.ub = UB_ANY;
        /* bounds through what makes values smaller (loop strides halved, masks) */
        if (vs->op == PTX_OP_shr && (vs->type == PTX_T_u32 || vs->type == PTX_T_u64))
            r.ub = konst_value(v, in->a[1], &c) ? (c < 64 ? a[0].ub >> c : 0) : a[0].ub;
        if (vs->op == PTX_OP_and)
            r.ub = a[0].ub < a[1].ub ? a[0].ub : a[1].ub;
        break;
    }
    if (w32) r.step = (int32_t)(uint32_t)r.step;
    if (r.rs) {
        r.step = 0;
        r.ub = UB_ANY;
    }
    if (in->lane_fn || (r.step == 0 && !r.rs)) {
        r.cls = A_UNI;
        r.step = 0;
        r.rs = false;
    }
    return r;
}

/* The register's class after one more definition of it (pass: the fixed point's round;
 * bounds that still grow after a few rounds are given up, so loops end). */
static bool merge_av(aval *s, aval r, unsigned pass) {
    if (r.cls == A_TOP) return false;
    aval n = r;
    if (s->cls == A_TOP) {
        n = r;
    } else if (s->cls == A_VEC || r.cls == A_VEC) {
        n = AV_VEC;
    } else if (s->cls == A_UNI && r.cls == A_UNI) {
        n.w32 = s->w32 && r.w32;
        n.ub = s->ub > r.ub ? s->ub : r.ub;
    } else if (s->cls == A_AFF && r.cls == A_AFF && s->step == r.step && s->w32 == r.w32 &&
               s->rs == r.rs) {
        n.ub = s->ub > r.ub ? s->ub : r.ub;
    } else {
        n = AV_VEC;
    }
    if (s->cls != A_TOP && pass > 4 && n.ub > s->ub) n.ub = UB_ANY;
    if (n.cls == s->cls && n.w32 == s->w32 && n.step == s->step && n.ub == s->ub &&
        n.rs == s->rs)
        return false;
    *s = n;
    return true;
}

static void analyse_values(vfunc *v) {
    const exec_func *f = v->f;
    aval *av = v->av;
    for (uint32_t s = 0; s <= f->nslots; s++) av[s] = AV_TOP;
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    bool changed = true;
    for (unsigned pass = 0; changed; pass++) {
        changed = false;
        for (uint32_t i = 0; i <= v->n; i++) {
            insn_slots(v, i, use, &nuse, def, &ndef);
            if (!ndef) continue;
            aval r = ndef == 1 && def[0] == f->code[i].d[0] ? result_av(v, av, i) : AV_VEC;
            for (unsigned k = 0; k < ndef; k++)
                if (def[k] < f->nslots) changed |= merge_av(&av[def[k]], r, pass);
        }
    }
    for (uint32_t s = 0; s < f->nslots; s++) {
        bool var = SET_HAS(v->isvar, s);
        v->uni[s] = var && av[s].cls != A_VEC;
        v->stride[s] = var && av[s].cls == A_AFF ? (av[s].rs ? RSTEP : av[s].step) : 0;
        v->w32[s] = var && av[s].cls == A_AFF && av[s].w32;
    }
}

/* ---- rows of a 2-D block (the rows variant) ----
 *
 * The affine variant runs the blocks whose warps hold 32 consecutive threads of a row. In
 * the common other block, W = blockDim.x a power of two below 32 (16 x 16 tiles), lane l
 * is thread x = l % W of the warp's row y = l / W (a warp's rows all of one z), and
 * threadIdx.x (x), threadIdx.y (the warp's first row plus y) and what is made of them are
 * row-affine: lane l holds h + x * c + y * g in the register's width, c a constant of the
 * code, h and g values of the run. The rows variant (vr_f<index>), which runs such blocks,
 * holds such a register as two scalars, as the affine variant does its affine ones
 * (s<slot>: h; t<slot>: g, sign-extended from 32 bits for a 32-bit register; vfunc.stride
 * RROW), its lanes made where a vector is wanted (RFQ, RFW); an access whose address steps
 * along a row by 0 or by its size is a load a row or row-wide vector accesses
 * (jit/vemit_rows.c). Blocks of other shapes run the general variant.
 *
 * The analysis is a fixed point as analyse_values': a register is row-affine when all its
 * definitions are, with one c and one width. A definition is when it is unguarded (and,
 * in an if-then region, not read after the paths meet) and: a thread index; a move, add
 * or sub of row-affine and uniform values; a product by a constant, or of a uniform value
 * and a value constant along rows (n * ty: c = 0); a shift by a constant; an offset; an
 * integer cvt. A 32-bit value widened (cvt, mul.wide) keeps its form only if no lane
 * wraps: checked when the code runs (ROWNW), else the block goes on in the interpreter.
 */
enum { RW_TOP, RW_ROW, RW_NO };
typedef struct vrows {
    uint8_t *st;    /* per slot: RW_* */
    int64_t *c;     /* the step along a row (sign-extended from 32 bits when w32) */
    bool *w32;      /* the register is 32 bits wide */
} vrows;

static bool row_reg(const vfunc *v, uint32_t s) {
    return v->rows && s < v->f->nslots && v->rows->st[s] == RW_ROW;
}

static void rows_free(vrows *r) {
    if (!r) return;
    free(r->st); free(r->c); free(r->w32); free(r);
}

static int64_t c32(int64_t c) { return (int32_t)(uint32_t)c; }

/* Operand s's form: a constant or a uniform scalar (uni: c 0, exact in any width), a
 * row-affine vector, or not known yet (RW_TOP) or not row-affine. */
typedef struct rop {
    int st;
    int64_t c;
    bool w32, uni;
} rop;

static rop row_operand(const vfunc *v, uint32_t s) {
    uint64_t k;
    if (konst_value(v, s, &k)) return (rop){RW_ROW, 0, false, true};
    if (s >= v->f->nslots || v->konst[s]) return (rop){RW_NO, 0, false, false};
    if (v->uni[s]) return (rop){v->stride[s] ? RW_NO : RW_ROW, 0, false, true};
    return (rop){v->rows->st[s], v->rows->c[s], v->rows->w32[s], false};
}

typedef struct rres {
    int st;
    int64_t c;
    bool w32;
} rres;

/* What instruction i's definition is, given its operands' forms. */
static rres row_result(const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    const rres NO = {RW_NO, 0, false};
    if (in->guard >= 0 || in->lane_fn) return NO;
    int32_t rt = v->region_of[i];
    if (rt >= 0 && SET_HAS(&v->live[(uint32_t)rt * v->nw], in->d[0])) return NO;
    switch (v->kind[i]) {
    case K_SREG:
        if (in->target == PTX_SREG_TID_X) return (rres){RW_ROW, 1, true};
        if (in->target == PTX_SREG_TID_Y || in->target == PTX_SREG_TID_Z)
            return (rres){RW_ROW, 0, true};
        return NO;
    case K_OFFSET: {
        rop a = row_operand(v, in->a[0]);
        if (a.st != RW_ROW) return (rres){a.st, 0, false};
        if (in->aux == 32) return (rres){RW_ROW, c32(a.c), true};
        if (in->aux >= 64 && (!a.w32 || a.uni)) return (rres){RW_ROW, a.c, false};
        return NO;
    }
    case K_SIMPLE: {
        int cv = int_cvt(in);
        if (cv == CVT_NONE) return NO;
        rop a = row_operand(v, in->a[0]);
        if (a.st != RW_ROW) return (rres){a.st, 0, false};
        if (cv == CVT_TRUNC) return (rres){RW_ROW, c32(a.c), true};
        if (cv == CVT_MOV) return a.w32 && !a.uni ? NO : (rres){RW_ROW, a.c, false};
        return (rres){RW_ROW, c32(a.c), false}; /* widened: ROWNW when the code runs */
    }
    case K_SPEC:
        break;
    default:
        return NO;
    }
    const vspec *vs = v->vs[i];
    if (in->op == PTX_OP_selp || vs->setp) return NO;
    bool wide = vs->var == ALU_V_WIDE, sgn = vs->type == PTX_T_s32;
    bool w32 = !wide && ptx_type_sizes[vs->type] == 4;
    rop a[3];
    for (unsigned k = 0; k < in->na && k < 3; k++) {
        a[k] = row_operand(v, in->a[k]);
        if (a[k].st != RW_ROW) return (rres){a[k].st, 0, false};
        bool read32 = w32 || (wide && k < 2);
        /* a 64-bit operation on a 32-bit row-affine register widens it without a cvt */
        if (!read32 && a[k].w32 && !a[k].uni) return NO;
        if (read32) a[k].c = c32(a[k].c);
    }
    uint64_t k;
    int64_t c;
    switch (vs->op) {
    case PTX_OP_mov:
        c = a[0].c;
        break;
    case PTX_OP_add:
        c = (int64_t)((uint64_t)a[0].c + (uint64_t)a[1].c);
        break;
    case PTX_OP_sub:
        c = (int64_t)((uint64_t)a[0].c - (uint64_t)a[1].c);
        break;
    case PTX_OP_mul:
    case PTX_OP_mad: {
        int kc = konst_value(v, in->a[1], &k) ? 1 : konst_value(v, in->a[0], &k) ? 0 : -1;
        if (kc >= 0) {
            int64_t kk = wide ? (sgn ? (int64_t)(int32_t)(uint32_t)k : (int64_t)(uint32_t)k)
                              : (int64_t)k;
            c = (int64_t)((uint64_t)a[1 - kc].c * (uint64_t)kk);
        } else if ((a[0].uni && a[1].c == 0) || (a[1].uni && a[0].c == 0)) {
            c = 0; /* (a uniform factor times a value constant along rows) */
        } else {
            return NO;
        }
        if (vs->op == PTX_OP_mad) c = (int64_t)((uint64_t)c + (uint64_t)a[2].c);
        break;
    }
    case PTX_OP_shl:
        if (!konst_value(v, in->a[1], &k) || k >= (w32 ? 32u : 64u)) return NO;
        c = (int64_t)((uint64_t)a[0].c << k);
        break;
    default:
        return NO;
    }
    return (rres){RW_ROW, w32 ? c32(c) : c, w32};
}

/* The rows variant's row-affine registers, made scalars. */
static void find_rows(vfunc *v) {
    const exec_func *f = v->f;
    vrows *r = calloc(1, sizeof *r);
    if (!r) abort();
    r->st = calloc(f->nslots + 1, 1);
    r->c = calloc(f->nslots + 1, sizeof *r->c);
    r->w32 = calloc(f->nslots + 1, sizeof *r->w32);
    if (!r->st || !r->c || !r->w32) abort();
    v->rows = r;
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i <= v->n; i++) {
            insn_slots(v, i, use, &nuse, def, &ndef);
            bool one = ndef == 1 && def[0] == f->code[i].d[0];
            rres x = one ? row_result(v, i) : (rres){RW_NO, 0, false};
            for (unsigned d = 0; d < ndef; d++) {
                uint32_t s = def[d];
                if (s >= f->nslots || v->uni[s] || x.st == RW_TOP || r->st[s] == RW_NO) continue;
                if (r->st[s] == RW_TOP && x.st == RW_ROW) {
                    r->st[s] = RW_ROW;
                    r->c[s] = x.c;
                    r->w32[s] = x.w32;
                    changed = true;
                } else if (x.st != RW_ROW || r->c[s] != x.c || r->w32[s] != x.w32) {
                    r->st[s] = RW_NO;
                    changed = true;
                }
            }
        }
    }
    for (uint32_t s = 0; s < f->nslots; s++) {
        if (r->st[s] != RW_ROW || !SET_HAS(v->isvar, s) || v->uni[s]) r->st[s] = RW_NO;
        if (r->st[s] == RW_ROW) { /* one scalar (and its row step) for the warp */
            v->uni[s] = true;
            v->stride[s] = RROW;
            v->w32[s] = r->w32[s];
        }
    }
}

/* ---- 32-bit lanes ----
 *
 * A vector register whose every definition makes a 32-bit value (zero-extended in the
 * interpreter's 64-bit slot) is held as 32 lanes of 32 bits (vn: two vectors of 16), half
 * the work and the spills of 64-bit slots: 32-bit arithmetic, comparisons and selects,
 * 4-byte loads and f32 arithmetic. Where such a register is read as slots (an address, a
 * 64-bit operation, a handler's operand, a spill) its lanes are zero-extended, which is
 * the slot the 64-bit form would have made; a 32-bit operation reads any operand's low
 * halves. */

/* Is s's value a 32-bit one in every lane for a move or a select (which copy slots as
 * they are): a register of 32-bit lanes or a constant below 2^32. */
static bool narrow_src(const vfunc *v, uint32_t s) {
    uint64_t c;
    if (konst_value(v, s, &c)) return c <= 0xffffffffu;
    return s < v->f->nslots && v->narrow[s];
}

/* Does instruction i define its register as 32-bit lanes (given v->narrow so far)? */
static bool narrow_def(const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    unsigned sz;
    bool u;
    switch (v->kind[i]) {
    case K_FLT:
        return true;
    case K_SIMPLE: /* u32 div and rem (inline by a power of two: emit_pow2_div) */
        return (in->op == PTX_OP_div || in->op == PTX_OP_rem) &&
               jit_form_handler(in, in->op, PTX_T_u32, ALU_V_NONE, 2, false) &&
               jit_form_plain(in, false);
    case K_MEM: {
        int sh = mem_shape(in, &sz, &u);
        return sz == 4 && (sh == EXEC_NATIVE_MEM_LD_GLOBAL || sh == EXEC_NATIVE_MEM_LD_SHARED);
    }
    case K_SPEC:
        if (in->op == PTX_OP_selp)
            return ptx_type_sizes[in->type] == 4 && narrow_src(v, in->a[0]) &&
                   narrow_src(v, in->a[1]);
        if (v->vs[i]->setp || !v->vs[i]->wexpr) return false;
        return v->vs[i]->op != PTX_OP_mov || narrow_src(v, in->a[0]);
    default:
        return false;
    }
}

/* The registers of 32-bit lanes: vector registers all of whose definitions make 32-bit
 * values (a fixed point: a move or select makes one only from such operands). */
static void find_narrow(vfunc *v) {
    const exec_func *f = v->f;
    for (uint32_t s = 0; s < f->nslots; s++)
        v->narrow[s] = SET_HAS(v->isvar, s) && !v->uni[s] && !v->konst[s];
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i <= v->n; i++) {
            insn_slots(v, i, use, &nuse, def, &ndef);
            bool ok = ndef == 1 && narrow_def(v, i);
            for (unsigned k = 0; k < ndef; k++)
                if (def[k] < f->nslots && v->narrow[def[k]] && !ok) {
                    v->narrow[def[k]] = false;
                    changed = true;
                }
        }
    }
}

/* The block's stash (SV_ of the generated function): the words each warp keeps across a
 * barrier of its scalar registers (uniform or affine; two for a step of the run) and its
 * predicates, those live where a turn resumes and not block-invariant. */
static void assign_stash(vfunc *v) {
    const exec_func *f = v->f;
    for (uint32_t s = 0; s <= f->nslots; s++) v->sidx[s] = -1;
    for (uint32_t p = 0; p <= f->npreds; p++) v->pidx[p] = -1;
    v->ns = 0;
    for (uint32_t i = 0; i <= v->n; i++) {
        if (!v->resume[i]) continue;
        for (uint32_t s = 0; s < f->nslots; s++)
            if (SET_HAS(&v->live[i * v->nw], s) && SET_HAS(v->isvar, s) && v->uni[s] &&
                !v->inv[s] && v->sidx[s] < 0) {
                v->sidx[s] = (int32_t)v->ns;
                v->ns += v->stride[s] == RSTEP || v->stride[s] == RROW ? 2 : 1;
            }
        for (uint32_t p = 0; p < f->npreds; p++)
            if (p != f->pred_true && p != f->pred_false && SET_HAS(&v->plive[i * v->pw], p) &&
                v->pidx[p] < 0)
                v->pidx[p] = (int32_t)v->ns++;
    }
}

/* Instructions reachable from the successors of instruction `from` (from: UINT32_MAX,
 * none) or from any barrier's resume point, into seen (n + 1 flags). */
static void reach(const vfunc *v, uint32_t from, bool *seen, uint32_t *stack) {
    const exec_func *f = v->f;
    uint32_t sp = 0, n = v->n;
    memset(seen, 0, (n + 1) * sizeof *seen);
    for (uint32_t i = 0; i <= n; i++)
        if (v->resume[i]) { seen[i] = true; stack[sp++] = i; }
    uint32_t next[2];
    for (bool first = from != UINT32_MAX;; first = false) {
        uint32_t i;
        if (first) i = from;
        else if (sp) i = stack[--sp];
        else break;
        const exec_insn *in = &f->code[i];
        unsigned nn = 0;
        bool falls = i < n && !(v->kind[i] == K_EXIT && in->guard < 0) &&
                     !(v->kind[i] == K_BRA && in->guard < 0);
        if (falls) next[nn++] = i + 1;
        if (v->kind[i] == K_BRA) next[nn++] = (uint32_t)in->target;
        for (unsigned k = 0; k < nn; k++)
            if (!seen[next[k]]) { seen[next[k]] = true; stack[sp++] = next[k]; }
    }
}

/* A stashed register whose every definition runs at most once a warp and never after a
 * barrier (a warp's thread index, an address of it, defined before the loop of barriers)
 * keeps at every barrier the value it had where it was defined: the turn that defines it
 * writes its stash word there, and the barriers neither store it again (one store fewer
 * at every barrier of every warp's turn; the turn after a barrier still loads it). A
 * register whose step is a value of the run (two words) is left to the barriers. */
static void stash_at_def(vfunc *v) {
    const exec_func *f = v->f;
    uint32_t n1 = v->n + 1;
    v->sdef = calloc(f->nslots + 1, sizeof *v->sdef);
    bool *ok = calloc(f->nslots + 1, sizeof *ok), *seen = malloc(n1 * sizeof *seen);
    uint32_t *stack = malloc(2 * n1 * sizeof *stack);
    if (!v->sdef || !ok || !seen || !stack) abort();
    for (uint32_t s = 0; s < f->nslots; s++)
        ok[s] = v->sidx[s] >= 0 && v->uni[s] && v->stride[s] != RSTEP && v->stride[s] != RROW;
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    for (uint32_t i = 0; i < n1; i++) {
        insn_slots(v, i, use, &nuse, def, &ndef);
        bool mine = false;
        for (unsigned d = 0; d < ndef; d++) mine |= def[d] < f->nslots && ok[def[d]];
        if (!mine) continue;
        reach(v, i, seen, stack); /* (on a loop or after a barrier: seen) */
        for (unsigned d = 0; d < ndef; d++)
            if (def[d] < f->nslots && ok[def[d]]) {
                if (seen[i]) ok[def[d]] = false;
                else v->sdef[def[d]] = true;
            }
    }
    /* a register one of whose definitions failed is the barriers' again */
    for (uint32_t s = 0; s < f->nslots; s++) v->sdef[s] = v->sdef[s] && ok[s];
    free(ok); free(seen); free(stack);
}

/* After instruction i: the stash words of the registers it defines that are stashed where
 * they are defined (stash_at_def). */
static void emit_stash_def(jit_buf *o, const vfunc *v, uint32_t i) {
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    insn_slots(v, i, use, &nuse, def, &ndef);
    for (unsigned d = 0; d < ndef; d++)
        if (def[d] < v->f->nslots && v->sdef[def[d]])
            jit_buf_printf(o, "    SV_[wi * %uu + %du] = s%u;\n", v->ns, v->sidx[def[d]], def[d]);
}

/* ---- the text ---- */

/* The mask of an affine register's width. */
static const char *wmask(const vfunc *v, uint32_t s) {
    return v->w32[s] ? "0xffffffffull" : "~0ull";
}

/* How instruction i writes vector register d under its mask: WR keeps the lanes off the
 * mask, WRF writes all 32 when nothing reads d's value from before i on any lane (d not
 * live into i: the lanes off the mask hold a dead value), so the C compiler need not keep
 * the old value (a register of another warp's turn, else) in memory. */
static const char *wr(const vfunc *v, uint32_t i, uint32_t d) {
    return SET_HAS(&v->live[i * v->nw], d) ? "WR" : "WRF";
}
/* The same for a register of 32-bit lanes (WL lanes j_ of XW at a time). */
static const char *wrw(const vfunc *v, uint32_t i, uint32_t d) {
    return SET_HAS(&v->live[i * v->nw], d) ? "WRW" : "WRWF";
}

/* The step of affine register s (an i64): its constant, or its variable (RSTEP). */
static void stp(jit_buf *o, const vfunc *v, uint32_t s) {
    if (v->stride[s] == RSTEP) jit_buf_printf(o, "t%u", s);
    else jit_buf_printf(o, "%lldll", (long long)v->stride[s]);
}

/* Profiled: the observer's call of load or store i whose address register is uniform,
 * affine or row-affine here, told as its lane 0 and steps, nothing spilled
 * (jit_vprof_affine_ok); false: not such a one (the caller spills and calls as for any
 * other). */
static bool vprof_affine(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    if (!jit_vprof_affine_ok(in)) return false;
    uint32_t s = in->a[0];
    if (s >= v->f->nslots || !SET_HAS(v->isvar, s) || v->konst[s] || !v->uni[s])
        return false;
    jit_vprof_observe_affine_open(o, i);
    if (v->stride[s] == RROW) /* (the rows variant: rows of 1 << lw_ lanes) */
        jit_buf_printf(o, "(u64)s%u, %lldll, t%u, lw_", s, (long long)v->rows->c[s], s);
    else if (v->stride[s]) {
        jit_buf_printf(o, "(u64)s%u, ", s);
        stp(o, v, s);
        jit_buf_printf(o, ", 0, 5u");
    } else {
        jit_buf_printf(o, "(u64)s%u, 0, 0, 5u", s);
    }
    jit_vprof_observe_affine_close(o, v->stride[s] && v->w32[s]);
    return true;
}

/* Slot s as a vector of the 32 lanes (vu). */
static void opnd(jit_buf *o, const vfunc *v, uint32_t s) {
    if (v->konst[s]) {
        const exec_const *c = &v->f->consts[v->cidx[s]];
        if (c->kind == EXEC_CK_VALUE) jit_buf_printf(o, "BCV(0x%llxull)", (unsigned long long)c->value);
        else jit_buf_printf(o, "LDV(R + %uu * 32)", s);
    } else if (v->uni[s] && v->stride[s] == RROW) {
        jit_buf_printf(o, "RFV(s%u, %lldll, t%u, %s)", s, (long long)v->rows->c[s], s, wmask(v, s));
    } else if (v->uni[s] && v->stride[s]) {
        jit_buf_printf(o, "AFV(s%u, ", s);
        stp(o, v, s);
        jit_buf_printf(o, ", %s)", wmask(v, s));
    } else if (v->uni[s]) {
        jit_buf_printf(o, "BCV(s%u)", s);
    } else if (v->narrow[s]) {
        jit_buf_printf(o, "VN(r%u)", s);
    } else {
        jit_buf_printf(o, "r%u", s);
    }
}

/* Slot s's lanes of chunk k_ (a Q: QL lanes), inside XQ. */
static void opq(jit_buf *o, const vfunc *v, uint32_t s) {
    if (v->konst[s]) {
        const exec_const *c = &v->f->consts[v->cidx[s]];
        if (c->kind == EXEC_CK_VALUE) jit_buf_printf(o, "BQ(0x%llxull)", (unsigned long long)c->value);
        else jit_buf_printf(o, "LDQ(R + %uu * 32 + k_ * QL)", s);
    } else if (v->uni[s] && v->stride[s] == RROW) {
        jit_buf_printf(o, "RFQ(s%u, %lldll, t%u, %s)", s, (long long)v->rows->c[s], s, wmask(v, s));
    } else if (v->uni[s] && v->stride[s]) {
        jit_buf_printf(o, "AFQ(s%u, ", s);
        stp(o, v, s);
        jit_buf_printf(o, ", %s)", wmask(v, s));
    } else if (v->uni[s]) {
        jit_buf_printf(o, "BQ(s%u)", s);
    } else if (v->narrow[s]) {
        jit_buf_printf(o, "QN(r%u)", s);
    } else {
        jit_buf_printf(o, "r%u.q[k_]", s);
    }
}

/* Slot s's low halves in lanes WL * j_ to WL * j_ + WL - 1 (a W), inside XW. */
static void opw(jit_buf *o, const vfunc *v, uint32_t s) {
    if (v->konst[s]) {
        const exec_const *c = &v->f->consts[v->cidx[s]];
        if (c->kind == EXEC_CK_VALUE) jit_buf_printf(o, "BW(0x%xu)", (uint32_t)c->value);
        else jit_buf_printf(o, "NWQ(LDQ(R + %uu * 32 + j_ * WL), LDQ(R + %uu * 32 + j_ * WL + QL))", s, s);
    } else if (v->uni[s] && v->stride[s] == RROW) {
        jit_buf_printf(o, "RFW(s%u, %lldll, t%u)", s, (long long)v->rows->c[s], s);
    } else if (v->uni[s] && v->stride[s]) {
        jit_buf_printf(o, "AFW(s%u, ", s);
        stp(o, v, s);
        jit_buf_printf(o, ")");
    } else if (v->uni[s]) {
        jit_buf_printf(o, "BW(s%u)", s);
    } else if (v->narrow[s]) {
        jit_buf_printf(o, "r%u.w[j_]", s);
    } else {
        jit_buf_printf(o, "NW(r%u)", s);
    }
}

/* Slot s in lane l0_ (a u64). */
static void opnd_s(jit_buf *o, const vfunc *v, uint32_t s) {
    if (v->konst[s]) {
        const exec_const *c = &v->f->consts[v->cidx[s]];
        if (c->kind == EXEC_CK_VALUE) jit_buf_printf(o, "0x%llxull", (unsigned long long)c->value);
        else jit_buf_printf(o, "R[%uu * 32 + l0_]", s);
    } else if (v->uni[s] && v->stride[s] == RROW) {
        jit_buf_printf(o, "((s%u + (u64)(l0_ & ((1u << lw_) - 1u)) * (u64)%lldll + (u64)(l0_ >> lw_) * (u64)t%u) & %s)",
                       s, (long long)v->rows->c[s], s, wmask(v, s));
    } else if (v->uni[s] && v->stride[s]) {
        jit_buf_printf(o, "((s%u + (u64)l0_ * (u64)", s);
        stp(o, v, s);
        jit_buf_printf(o, ") & %s)", wmask(v, s));
    } else if (v->uni[s]) {
        jit_buf_printf(o, "s%u", s);
    } else if (v->narrow[s]) {
        jit_buf_printf(o, "NLANE(r%u, l0_)", s);
    } else {
        jit_buf_printf(o, "LANE(r%u, l0_)", s);
    }
}

/* How spill moves a register between the code's locals and the warp's state. */
typedef enum spill_mode {
    SPILL_LOAD,    /* every lane's slot from the warp's register file */
    SPILL_STORE,   /* every lane's slot into it */
    SPILL_STASH,   /* at a barrier, into the block's stash: a scalar register's lane 0
                    * only (none when stash_at_def wrote it where it was defined), a
                    * register of 32-bit lanes as its 128 bytes (the first half of its
                    * slots, unwidened); a bail-out gives every lane its slot (vb_fix) */
    SPILL_UNSTASH, /* the load where a turn starts after a barrier, as SPILL_STASH left it */
    SPILL_COLD,    /* SPILL_STORE on a cold path (a handler's call, a bail-out): in a large
                    * function a 32-bit register is copied and widened by a call, WIDENR */
} spill_mode;

/* Store slot s (a register) into the warp's register file or the stash, or load it from
 * there (spill_mode). */
static void spill(jit_buf *o, const vfunc *v, uint32_t s, spill_mode mode) {
    bool store = mode == SPILL_STORE || mode == SPILL_STASH || mode == SPILL_COLD;
    /* one value for every warp: kept as it is */
    if (v->inv[s] && mode != SPILL_STORE && mode != SPILL_COLD) return;
    if (v->uni[s]) {
        bool rs = v->stride[s] == RSTEP || v->stride[s] == RROW;
        if (mode == SPILL_STASH) {
            if (!v->sdef[s]) { /* (else written where it was defined) */
                jit_buf_printf(o, "    SV_[wi * %uu + %du] = s%u;\n", v->ns, v->sidx[s], s);
                if (rs) jit_buf_printf(o, "    SV_[wi * %uu + %du] = (u64)t%u;\n", v->ns, v->sidx[s] + 1, s);
            }
        } else if (mode == SPILL_UNSTASH) {
            jit_buf_printf(o, "    s%u = SV_[wi * %uu + %du];\n", s, v->ns, v->sidx[s]);
            if (rs) jit_buf_printf(o, "    t%u = (i64)SV_[wi * %uu + %du];\n", s, v->ns, v->sidx[s] + 1);
        } else if (store && v->stride[s] == RROW) {
            jit_buf_printf(o, "    STV(R + %uu * 32, RFV(s%u, %lldll, t%u, %s));\n", s, s,
                           (long long)v->rows->c[s], s, wmask(v, s));
        } else if (store && v->stride[s]) {
            jit_buf_printf(o, "    STV(R + %uu * 32, AFV(s%u, ", s, s);
            stp(o, v, s);
            jit_buf_printf(o, ", %s));\n", wmask(v, s));
        } else if (store) {
            jit_buf_printf(o, "    STV(R + %uu * 32, BCV(s%u));\n", s, s);
        } else {
            jit_buf_printf(o, "    s%u = R[%uu * 32];\n", s, s);
            if (v->stride[s] == RROW) /* (lane W is the second row's first) */
                jit_buf_printf(o, "    t%u = (i64)(R[%uu * 32 + ((1u << lw_) & 31u)] - s%u);\n", s, s, s);
            else if (rs) jit_buf_printf(o, "    t%u = (i64)R[%uu * 32 + 1];\n", s, s);
        }
    } else if (v->narrow[s] && mode == SPILL_STASH) {
        jit_buf_printf(o, "    __builtin_memcpy(R + %uu * 32, &r%u, 128);\n", s, s);
    } else if (v->narrow[s] && mode == SPILL_UNSTASH) {
        jit_buf_printf(o, "    __builtin_memcpy(&r%u, R + %uu * 32, 128);\n", s, s);
    } else if (v->narrow[s]) {
        if (mode == SPILL_COLD && v->outline) /* (its 32-bit lanes, then widened in place: WIDENR) */
            jit_buf_printf(o, "    __builtin_memcpy(R + %uu * 32, &r%u, 128); WIDENR(R + %uu * 32);\n", s, s, s);
        else if (store) jit_buf_printf(o, "    STV(R + %uu * 32, VN(r%u));\n", s, s);
        else jit_buf_printf(o, "    r%u = NOFV(LDV(R + %uu * 32));\n", s, s);
    } else {
        if (store) jit_buf_printf(o, "    STV(R + %uu * 32, r%u);\n", s, s);
        else jit_buf_printf(o, "    r%u = LDV(R + %uu * 32);\n", s, s);
    }
}

static void emit_set(jit_buf *o, const vfunc *v, const uint64_t *set, spill_mode mode) {
    for (uint32_t s = 0; s < v->f->nslots; s++)
        if (SET_HAS(set, s) && SET_HAS(v->isvar, s)) spill(o, v, s, mode);
}

/* Store the predicates of set (all: NULL) into the warp's, or load them; stash: into the
 * block's stash or from there (a barrier's, and a turn's start after one). */
static void emit_preds(jit_buf *o, const vfunc *v, bool store, const uint64_t *set, bool stash) {
    for (uint32_t p = 0; p < v->f->npreds; p++) {
        if (p == v->f->pred_true || p == v->f->pred_false) continue;
        if (set && !SET_HAS(set, p)) continue;
        if (stash && store) jit_buf_printf(o, "    SV_[wi * %uu + %du] = p%u;\n", v->ns, v->pidx[p], p);
        else if (stash) jit_buf_printf(o, "    p%u = (u32)SV_[wi * %uu + %du];\n", p, v->ns, v->pidx[p]);
        else if (store) jit_buf_printf(o, "    P[%u] = p%u;\n", p, p);
        else jit_buf_printf(o, "    p%u = P[%u];\n", p, p);
    }
}

static void pred(jit_buf *o, const vfunc *v, uint32_t p) {
    if (p == v->f->pred_true) jit_buf_printf(o, "FULL");
    else if (p == v->f->pred_false) jit_buf_printf(o, "0u");
    else jit_buf_printf(o, "p%u", p);
}

/* Hand the block to the interpreter's loop before instruction i (a branch, whose issue
 * the interpreter counts when it runs it). */
static void emit_bail(jit_buf *o, const vfunc *v, uint32_t i) {
    jit_buf_printf(o, "    {\n");
    jit_vprof_bail(o, v->f, i); /* (profiled: the issue counted, taken back) */
    emit_set(o, v, &v->live[i * v->nw], SPILL_COLD);
    emit_preds(o, v, true, NULL, false);
    /* the registers every warp shares were not stored at the barriers: each warp's gets
     * them now (vb_fix gives them to every lane) */
    bool any = false;
    for (uint32_t s = 0; s < v->f->nslots; s++) {
        if (!v->inv[s] || !SET_HAS(v->isvar, s)) continue;
        if (!any)
            jit_buf_printf(o, "    for (u32 k_ = 0; k_ < V.nwarps; k_++) { void *w = V.warps + (u64)k_ * WSZ;\n");
        any = true;
        jit_buf_printf(o, "      RR[%uu * 32] = s%u;\n", s, s);
    }
    if (any) jit_buf_printf(o, "    }\n");
    if (v->region_of[i] < 0) {
        jit_buf_printf(o, "    clks[wi] = clk - 1; alive[wi] = act; %s_fix%u(&V, wi, alive, res, SV_);\n"
                          "    return rt->bail(b, wi, %u, alive, res, clks); }\n", v->pfx, v->f->index, i);
        return;
    }
    /* inside if-then regions: the lanes that skip each wait where its paths meet */
    uint32_t chain[64], nr = 0;
    for (int32_t t = v->region_of[i]; t >= 0 && nr < 64;) {
        chain[nr++] = (uint32_t)t;
        int32_t head = -1;
        for (uint32_t j = 0; j < v->n && head < 0; j++)
            if (v->head[j] == t) head = (int32_t)j;
        t = head >= 0 ? v->region_of[head] : -1;
    }
    jit_buf_printf(o, "    const u32 rp_[] = {");
    for (uint32_t k = nr; k-- > 0;) jit_buf_printf(o, "%uu%s", chain[k], k ? ", " : "");
    jit_buf_printf(o, "}, rs_[] = {");
    for (uint32_t k = nr; k-- > 0;) jit_buf_printf(o, "rv%u%s", chain[k], k ? ", " : "");
    jit_buf_printf(o, "};\n    clks[wi] = clk - 1; alive[wi] = rv%u; %s_fix%u(&V, wi, alive, res, SV_);\n"
                      "    return rt->bail_in_regions(b, wi, %u, act, alive, res, clks, %u, rp_, rs_); }\n",
                   chain[nr - 1], v->pfx, v->f->index, i, nr);
}

/* Call the handler of instruction i on the spilled operands: sources and the
 * destination (the lanes it does not write keep their value), then the destination. */
static void emit_handler(jit_buf *o, const vfunc *v, uint32_t i, const uint32_t *use,
                         unsigned nuse, const uint32_t *def, unsigned ndef) {
    for (unsigned k = 0; k < nuse; k++)
        if (SET_HAS(v->isvar, use[k])) spill(o, v, use[k], SPILL_COLD);
    for (unsigned k = 0; k < ndef; k++)
        if (SET_HAS(v->isvar, def[k])) spill(o, v, def[k], SPILL_COLD);
    jit_buf_printf(o, "    ACT = act; CLOCK = clk; FN(%u)(w, INSN(%u), m); clk = CLOCK;\n"
                      "    if (UNLIKELY(*V.fault_kind)) { clks[wi] = clk; goto fault; }\n", i, i);
    for (unsigned k = 0; k < ndef; k++) {
        if (!SET_HAS(v->isvar, def[k])) continue;
        if (v->uni[def[k]])
            jit_buf_printf(o, "    s%u = R[%uu * 32 + __builtin_ctz(m)];\n", def[k], def[k]);
        else if (v->narrow[def[k]])
            jit_buf_printf(o, "    r%u = NOFV(LDV(R + %uu * 32));\n", def[k], def[k]);
        else
            jit_buf_printf(o, "    r%u = LDV(R + %uu * 32);\n", def[k], def[k]);
    }
}

/* Operand s of a uniform or affine computation: its scalar (an affine one's lane 0). */
static void opnd_b(jit_buf *o, const vfunc *v, uint32_t s) {
    uint64_t c;
    if (konst_value(v, s, &c)) jit_buf_printf(o, "0x%llxull", (unsigned long long)c);
    else if (v->konst[s]) jit_buf_printf(o, "R[%uu * 32]", s);
    else jit_buf_printf(o, "s%u", s);
}

/* Before widening the 32-bit affine register src (step: its step): when one of the 32
 * lanes would wrap (as signed or unsigned values), the block goes to the interpreter. */
static void emit_wrap_check(jit_buf *o, const vfunc *v, uint32_t i, uint32_t src, int64_t step,
                            bool sgn) {
    jit_buf_printf(o, "    if (m && UNLIKELY(({ i64 e_ = (i64)(%s)", sgn ? "i32" : "u32");
    opnd_b(o, v, src);
    /* (a step of the run: its low 32 bits, as as_w32 reads a 64-bit one) */
    if (v->stride[src] == RSTEP)
        jit_buf_printf(o, " + 31 * (i64)(i32)(u32)t%u;", src);
    else
        jit_buf_printf(o, " + 31 * (i64)%lldll;", (long long)step);
    jit_buf_printf(o, " e_ < %s || e_ > %s; }))) {\n",
                   sgn ? "-0x80000000ll" : "0", sgn ? "0x7fffffffll" : "0xffffffffll");
    emit_bail(o, v, i);
    jit_buf_printf(o, "    }\n");
}

/* Operand s's step in an affine computation, as a u64 (0: uniform; wide: read as a
 * 32-bit value, sign-extended). */
static void stepx(jit_buf *o, const vfunc *v, uint32_t s, bool wide) {
    if (v->konst[s] || !v->uni[s] || !v->stride[s]) {
        jit_buf_printf(o, "0ull");
        return;
    }
    jit_buf_printf(o, wide ? "(u64)(i64)(i32)(u32)(" : "(u64)(");
    stp(o, v, s);
    jit_buf_printf(o, ")");
}

/* Operand s's lane 0 as a u64 (wide: its 32 bits, extended as sgn says). */
static void valx(jit_buf *o, const vfunc *v, uint32_t s, bool wide, bool sgn) {
    jit_buf_printf(o, !wide ? "(u64)" : sgn ? "(u64)(i64)(i32)" : "(u64)(u32)");
    opnd_b(o, v, s);
}

/* The step of the affine register instruction i defines when it is a value of the run
 * (RSTEP), from its operands' steps and values (only one of a product's factors is
 * affine): t<d>, before lane 0 (which may overwrite an operand). */
static void emit_aff_step(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    uint32_t d = in->d[0];
    if (v->stride[d] != RSTEP) return;
    jit_buf_printf(o, "    if (m) t%u = (i64)%s(", d, v->w32[d] ? "(i32)(u32)" : "");
    if (v->kind[i] != K_SPEC) { /* an offset or an integer cvt: the operand's step */
        stepx(o, v, in->a[0], false);
        jit_buf_printf(o, ");\n");
        return;
    }
    const vspec *vs = v->vs[i];
    bool wide = vs->var == ALU_V_WIDE, sgn = vs->type == PTX_T_s32;
    switch (vs->op) {
    case PTX_OP_mov:
        stepx(o, v, in->a[0], false);
        break;
    case PTX_OP_add: case PTX_OP_sub:
        stepx(o, v, in->a[0], false);
        jit_buf_printf(o, vs->op == PTX_OP_add ? " + " : " - ");
        stepx(o, v, in->a[1], false);
        break;
    case PTX_OP_mul: case PTX_OP_mad:
        stepx(o, v, in->a[0], wide);
        jit_buf_printf(o, " * ");
        valx(o, v, in->a[1], wide, sgn);
        jit_buf_printf(o, " + ");
        stepx(o, v, in->a[1], wide);
        jit_buf_printf(o, " * ");
        valx(o, v, in->a[0], wide, sgn);
        if (vs->op == PTX_OP_mad) {
            jit_buf_printf(o, " + ");
            stepx(o, v, in->a[2], false);
        }
        break;
    case PTX_OP_shl:
        stepx(o, v, in->a[0], false);
        jit_buf_printf(o, " << ");
        opnd_b(o, v, in->a[1]);
        break;
    default:
        abort(); /* result_av makes no other operation affine */
    }
    jit_buf_printf(o, ");\n");
}

/* An instruction that defines an affine register: its lane 0, once for the warp (and its
 * step, when that is a value of the run). */
static void emit_aff(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    uint32_t d = in->d[0];
    if (v->kind[i] == K_SREG) { /* threadIdx.x: the warp's first thread's */
        if (in->flags & EXEC_F_PSEUDO) jit_buf_printf(o, "    clk--;\n");
        jit_buf_printf(o, "    if (m) s%u = (u64)((wi * 32u) %% V.ntid[0]);\n", d);
        return;
    }
    if (v->kind[i] == K_OFFSET) {
        unsigned long long keep = in->aux < 64 ? (1ull << in->aux) - 1 : ~0ull;
        emit_aff_step(o, v, i);
        jit_buf_printf(o, "    if (m) s%u = (", d);
        opnd_b(o, v, in->a[0]);
        jit_buf_printf(o, " + 0x%llxull) & 0x%llxull;\n", (unsigned long long)in->imm, keep);
        return;
    }
    if (v->kind[i] == K_SIMPLE) { /* an integer cvt (int_cvt) */
        int cv = int_cvt(in);
        aval x = as_w32(operand_av(v, v->av, in->a[0]));
        if ((cv == CVT_ZEXT || cv == CVT_SEXT) && needs_wrap_check(x, cv == CVT_SEXT))
            emit_wrap_check(o, v, i, in->a[0], x.step, cv == CVT_SEXT);
        emit_aff_step(o, v, i);
        jit_buf_printf(o, "    if (m) s%u = ", d);
        if (cv == CVT_SEXT) jit_buf_printf(o, "(u64)(i64)(i32)");
        else if (cv == CVT_ZEXT || cv == CVT_TRUNC) jit_buf_printf(o, "(u64)(u32)");
        opnd_b(o, v, in->a[0]);
        jit_buf_printf(o, ";\n");
        return;
    }
    const vspec *vs = v->vs[i];
    bool wide = vs->var == ALU_V_WIDE, sgn = vs->type == PTX_T_s32;
    if (wide) {
        /* the lanes of the 32-bit source must not wrap, or the product is not affine:
         * checked here when no bound shows it (outside regions: the block can be handed
         * over exactly) */
        uint32_t src = operand_av(v, v->av, in->a[0]).cls == A_AFF ? in->a[0] : in->a[1];
        aval x = as_w32(operand_av(v, v->av, src));
        if (needs_wrap_check(x, sgn)) emit_wrap_check(o, v, i, src, x.step, sgn);
    }
    emit_aff_step(o, v, i);
    const char *mask = v->w32[d] ? "0xffffffffull" : "~0ull";
    jit_buf_printf(o, "    if (m) s%u = (", d);
    switch (vs->op) {
    case PTX_OP_mov:
        opnd_b(o, v, in->a[0]);
        break;
    case PTX_OP_add: case PTX_OP_sub:
        opnd_b(o, v, in->a[0]);
        jit_buf_printf(o, vs->op == PTX_OP_add ? " + " : " - ");
        opnd_b(o, v, in->a[1]);
        break;
    case PTX_OP_mul: case PTX_OP_mad:
        if (wide) {
            const char *t = sgn ? "(i64)(i32)" : "(u64)(u32)";
            jit_buf_printf(o, "(u64)(%s", t);
            opnd_b(o, v, in->a[0]);
            jit_buf_printf(o, " * %s", t);
            opnd_b(o, v, in->a[1]);
            jit_buf_printf(o, ")");
        } else {
            opnd_b(o, v, in->a[0]);
            jit_buf_printf(o, " * ");
            opnd_b(o, v, in->a[1]);
        }
        if (vs->op == PTX_OP_mad) {
            jit_buf_printf(o, " + ");
            opnd_b(o, v, in->a[2]);
        }
        break;
    case PTX_OP_shl:
        opnd_b(o, v, in->a[0]);
        jit_buf_printf(o, " << ");
        opnd_b(o, v, in->a[1]);
        break;
    default:
        abort(); /* result_av makes no other operation affine */
    }
    jit_buf_printf(o, ") & %s;\n", mask);
}

/* The range of instruction i's access, as text (see internal.h). */
void jit_vemit_mem_range(jit_buf *o, uint32_t i, bool shared, bool load) {
    if (shared)
        jit_buf_printf(o, "      u64 lo = 0, hi = V.shared_size; unsigned char *base = V.shared; _Bool ok = 1;\n");
    else
        jit_buf_printf(o, "      const char *rg = RNG(%u); u64 lo = RLO(rg), hi = RHI(rg);\n"
                          "      unsigned char *base = 0; _Bool ok = %s;\n", i, load ? "1" : "RWR(rg)");
}

/* A load or store whose address steps by its size from lane to lane: the warp's access is
 * one contiguous range, checked once (for all 32 lanes: lanes off the path load what they
 * do not keep, and store nothing), else the handler's. */
static void emit_mem_affine(jit_buf *o, const vfunc *v, uint32_t i, bool shared, bool load,
                            unsigned size) {
    const exec_insn *in = &v->f->code[i];
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    insn_slots(v, i, use, &nuse, def, &ndef);
    uint32_t as = in->a[0];
    jit_buf_printf(o, "    { u64 a0 = s%u + (u64)%lldll;\n", as, (long long)in->imm);
    jit_vemit_mem_range(o, i, shared, load);
    /* a 32-bit address register's lanes must not wrap at 2^32 */
    char nowrap[64] = "";
    if (v->w32[as])
        snprintf(nowrap, sizeof nowrap, " && s%u + %uu <= 0x100000000ull", as, 32 * size);
    jit_buf_printf(o,
        "      if (LIKELY(m && ok && !(a0 & %uu) && a0 >= lo && hi >= %uu && a0 <= hi - %uu%s)) {\n",
        size - 1, 32 * size, 32 * size, nowrap);
    if (load) {
        if (size == 4 && v->narrow[in->d[0]])
            jit_buf_printf(o, "        XW(W t_; __builtin_memcpy(&t_, base + a0 + j_ * (4 * WL), sizeof t_); %s(r%u, t_);)\n",
                           wrw(v, i, in->d[0]), in->d[0]);
        else if (size == 4)
            jit_buf_printf(o, "        XQ(Q32 t_; __builtin_memcpy(&t_, base + a0 + k_ * (4 * QL), sizeof t_); %s(r%u, __builtin_convertvector(t_, Q));)\n",
                           wr(v, i, in->d[0]), in->d[0]);
        else
            jit_buf_printf(o, "        XQ(Q t_; __builtin_memcpy(&t_, base + a0 + k_ * (8 * QL), sizeof t_); %s(r%u, t_);)\n",
                           wr(v, i, in->d[0]), in->d[0]);
    } else if (size == 4 && !v->konst[in->d[0]] && v->narrow[in->d[0]]) {
        /* 32-bit lanes: the warp's 128 bytes as they are, or the lanes of the mask */
        char src[16];
        snprintf(src, sizeof src, "r%u", in->d[0]);
        jit_buf_printf(o, "        if (LIKELY(m == FULL)) __builtin_memcpy(base + a0, &r%u, 128);\n", in->d[0]);
        jit_vemit_store_some(o, src, true, 4);
    } else {
        jit_buf_printf(o, "        vu d_ = ");
        opnd(o, v, in->d[0]);
        if (size == 4)
            jit_buf_printf(o, ";\n        if (LIKELY(m == FULL)) { XQ(Q32 t_ = __builtin_convertvector(d_.q[k_], Q32); __builtin_memcpy(base + a0 + k_ * (4 * QL), &t_, sizeof t_);) }\n");
        else
            jit_buf_printf(o, ";\n        if (LIKELY(m == FULL)) __builtin_memcpy(base + a0, &d_, 256);\n");
        /* some lanes: no lane writes what it need not */
        jit_vemit_store_some(o, "d_", false, size);
    }
    jit_buf_printf(o, "      } else if (m) {\n");
    emit_handler(o, v, i, use, nuse, def, ndef);
    jit_buf_printf(o, "      }\n    }\n");
}

/* A 4-byte load of the whole warp as two rows of 16 lanes, each consecutive or one value
 * (ROWS4Q, ROWS4N: jit/vemit_mem.c); the text ends in `else`, the warp's other paths. */
static void emit_mem_rows(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    uint32_t as = in->a[0], d = in->d[0];
    bool narrow_a = !v->konst[as] && !v->uni[as] && v->narrow[as];
    if (narrow_a)
        jit_buf_printf(o, "      vn rw_; if (LIKELY(m == FULL && ok && ROWS4N(base, &r%u, %lldull, lo, hi, &rw_))) {\n",
                       as, (long long)in->imm);
    else
        jit_buf_printf(o, "      vn rw_; if (LIKELY(m == FULL && ok && ROWS4Q(base, &A_, %lldull, lo, hi, &rw_))) {\n",
                       (long long)in->imm);
    if (v->narrow[d]) jit_buf_printf(o, "        XW(%s(r%u, rw_.w[j_]);)\n", wrw(v, i, d), d);
    else jit_buf_printf(o, "        vu x_ = VN(rw_); XQ(%s(r%u, x_.q[k_]);)\n", wr(v, i, d), d);
    jit_buf_printf(o, "      } else\n");
}

/* A load or store whose address is affine with a step other than its size (a[2 * stride *
 * tid], a step of the run): when the lanes on the path are all in the allocation (one
 * check of the first and last of them, AFOK: jit/vemit_mem.c) and aligned, each lane's
 * access is a scalar one in lane order, no address vector built nor checked lane by lane;
 * else (an access outside the allocation the instruction last hit, lanes that wrap, a
 * misaligned step) the handler's, which faults or refreshes the range as interpreted: no
 * general vector code for these accesses, whose text (address vector, lane checks,
 * gather or scatter) was most of a kernel's size. */
static void emit_mem_strided(jit_buf *o, const vfunc *v, uint32_t i, bool shared, bool load,
                             unsigned size) {
    const exec_insn *in = &v->f->code[i];
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    insn_slots(v, i, use, &nuse, def, &ndef);
    uint32_t as = in->a[0], d = in->d[0];
    const char *T = size == 4 ? "u32" : "u64";
    jit_buf_printf(o, "    { i64 st_ = ");
    stp(o, v, as);
    jit_buf_printf(o, "; u64 ef_; u32 f_;\n");
    jit_vemit_mem_range(o, i, shared, load);
    jit_buf_printf(o, "      if (LIKELY(ok && AFOK(s%u, st_, m, %d, %lldll, lo, hi, %uu, &ef_, &f_))) {\n",
                   as, v->w32[as] ? 1 : 0, (long long)in->imm, size);
    if (load) {
        /* a chunk whose lanes are all on the path: its lanes' loads straight into the
         * vector (no lane can be outside the first and last checked); a chunk partly on
         * it, lane by lane; none, nothing */
        bool nw = size == 4 && v->narrow[d];
        const char *X = nw ? "XW" : "XQ", *K = nw ? "KW" : "KQ", *L = nw ? "WL" : "QL";
        const char *VT = nw ? "W" : "Q", *ix = nw ? "j_" : "k_";
        jit_buf_printf(o, "        const unsigned char *sp_ = base + ef_; i64 sst_ = st_;\n"
                          "        %s(u32 kc_ = %s(m); if (kc_) { %s t_;\n"
                          "          if (kc_ == (1u << %s) - 1u) t_ = %sSL%s(%s, (i64)(%s * %s) - (i64)f_);\n"
                          "          else { t_ = (%s){0}; for (u32 mm_ = kc_; mm_; mm_ &= mm_ - 1) { u32 l_ = __builtin_ctz(mm_); %s x_;\n"
                          "            __builtin_memcpy(&x_, sp_ + ((i64)(%s * %s + l_) - (i64)f_) * sst_, %u); t_[l_] = x_; } }\n"
                          "          %s(r%u, t_); })\n",
                       X, K, VT, L,
                       /* (lanes two words apart: SL2W, jit/vemit_lanes.c) */
                       nw ? "sst_ == 8 ? SL2W(sp_ + ((i64)(WL * j_) - (i64)f_) * 8) : " : "",
                       nw ? "W" : "Q", T, L, ix, VT, T, L, ix, size,
                       nw ? wrw(v, i, d) : wr(v, i, d), d);
    } else {
        bool vec = !v->konst[d] && !v->uni[d];
        bool full = vec && size == 4 && v->narrow[d]; /* (the whole warp: STSW) */
        if (full) jit_vemit_store_strided_full(o, d);
        if (vec) jit_vemit_lane_array(o, d, v->narrow[d]);
        jit_buf y = {0}; /* lane l0_'s value */
        if (vec) jit_buf_printf(&y, "la_[l0_]");
        else opnd_s(&y, v, d);
        jit_vemit_store_strided(o, T, size, y.s);
        jit_buf_free(&y);
        if (full) jit_buf_printf(o, "        }\n");
    }
    jit_buf_printf(o, "      } else if (m) {\n");
    emit_handler(o, v, i, use, nuse, def, ndef);
    jit_buf_printf(o, "      }\n    }\n");
}

/* ---- rows of a 2-D block: the text (see find_rows) ---- */

/* Operand s's first lane (h, a u64) and row step (g, a u64 of the i64), read as its width
 * (ext 0), or as 32 bits zero- (1) or sign-extended (2). */
static void row_h(jit_buf *o, const vfunc *v, uint32_t s, int ext) {
    jit_buf_printf(o, ext == 0 ? "(u64)(" : ext == 1 ? "(u64)(u32)(" : "(u64)(i64)(i32)(u32)(");
    opnd_b(o, v, s);
    jit_buf_printf(o, ")");
}
static void row_g(jit_buf *o, const vfunc *v, uint32_t s, int ext) {
    if (!row_reg(v, s)) jit_buf_printf(o, "0ull");
    else if (ext) jit_buf_printf(o, "(u64)(i64)(i32)(u32)t%u", s);
    else jit_buf_printf(o, "(u64)t%u", s);
}

/* Before instruction i widens row-affine register s (sgn: sign-extended): where a lane
 * would wrap, the block goes on in the interpreter from i. */
static void row_widen_check(jit_buf *o, const vfunc *v, uint32_t i, uint32_t s, bool sgn) {
    if (!row_reg(v, s)) return;
    jit_buf_printf(o, "    if (m && UNLIKELY(!ROWNW(s%u, %lldll, (i64)(i32)(u32)t%u, %d, lw_))) {\n", s,
                   (long long)c32(v->rows->c[s]), s, sgn ? 1 : 0);
    emit_bail(o, v, i);
    jit_buf_printf(o, "    }\n");
}

/* Instruction i, which defines a row-affine register: its form, once for the warp. */
static void emit_row_def(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    uint32_t d = in->d[0];
    if (v->kind[i] == K_SREG) {
        if (in->flags & EXEC_F_PSEUDO) jit_buf_printf(o, "    clk--;\n");
        const char *h = in->target == PTX_SREG_TID_Y ? "(u64)((wi * R_) % V.ntid[1])"
                      : in->target == PTX_SREG_TID_Z ? "(u64)((wi * R_) / V.ntid[1])" : "0ull";
        jit_buf_printf(o, "    if (m) { s%u = %s; t%u = %d; }\n", d, h, d,
                       in->target == PTX_SREG_TID_Y ? 1 : 0);
        return;
    }
    int ext = 0;
    bool wide = false;
    if (v->kind[i] == K_SIMPLE) {
        int cv = int_cvt(in);
        ext = cv == CVT_ZEXT ? 1 : cv == CVT_SEXT ? 2 : 0;
        if (ext) row_widen_check(o, v, i, in->a[0], ext == 2);
    } else if (v->kind[i] == K_SPEC && v->vs[i]->var == ALU_V_WIDE) {
        wide = true;
        ext = v->vs[i]->type == PTX_T_s32 ? 2 : 1;
        for (unsigned k = 0; k < 2; k++) row_widen_check(o, v, i, in->a[k], ext == 2);
    }
    jit_buf_printf(o, "    if (m) { u64 h_ = ");
    if (v->kind[i] == K_OFFSET || v->kind[i] == K_SIMPLE) {
        row_h(o, v, in->a[0], ext);
        if (v->kind[i] == K_OFFSET) jit_buf_printf(o, " + 0x%llxull", (unsigned long long)in->imm);
        jit_buf_printf(o, ", g_ = ");
        row_g(o, v, in->a[0], ext);
    } else {
        /* (the operands of a wide product read as 32 bits, extended; its addend not) */
        int e0 = wide ? ext : 0;
        switch (v->vs[i]->op) {
        case PTX_OP_mov:
            row_h(o, v, in->a[0], 0);
            jit_buf_printf(o, ", g_ = ");
            row_g(o, v, in->a[0], 0);
            break;
        case PTX_OP_add: case PTX_OP_sub: {
            const char *op = v->vs[i]->op == PTX_OP_add ? " + " : " - ";
            row_h(o, v, in->a[0], 0);
            jit_buf_printf(o, "%s", op);
            row_h(o, v, in->a[1], 0);
            jit_buf_printf(o, ", g_ = ");
            row_g(o, v, in->a[0], 0);
            jit_buf_printf(o, "%s", op);
            row_g(o, v, in->a[1], 0);
            break;
        }
        case PTX_OP_mul: case PTX_OP_mad:
            /* one factor is uniform (its g is 0): h = ha * hb, g = ga * hb + ha * gb */
            row_h(o, v, in->a[0], e0);
            jit_buf_printf(o, " * ");
            row_h(o, v, in->a[1], e0);
            if (v->vs[i]->op == PTX_OP_mad) {
                jit_buf_printf(o, " + ");
                row_h(o, v, in->a[2], 0);
            }
            jit_buf_printf(o, ", g_ = ");
            row_g(o, v, in->a[0], e0);
            jit_buf_printf(o, " * ");
            row_h(o, v, in->a[1], e0);
            jit_buf_printf(o, " + ");
            row_h(o, v, in->a[0], e0);
            jit_buf_printf(o, " * ");
            row_g(o, v, in->a[1], e0);
            if (v->vs[i]->op == PTX_OP_mad) {
                jit_buf_printf(o, " + ");
                row_g(o, v, in->a[2], 0);
            }
            break;
        case PTX_OP_shl:
            row_h(o, v, in->a[0], 0);
            jit_buf_printf(o, " << ");
            opnd_b(o, v, in->a[1]);
            jit_buf_printf(o, ", g_ = ");
            row_g(o, v, in->a[0], 0);
            jit_buf_printf(o, " << ");
            opnd_b(o, v, in->a[1]);
            break;
        default:
            abort(); /* row_result makes no other operation row-affine */
        }
    }
    /* (both computed before either is written: d may be an operand) */
    if (v->rows->w32[d])
        jit_buf_printf(o, "; s%u = h_ & 0xffffffffull; t%u = (i64)(i32)(u32)g_; }\n", d, d);
    else
        jit_buf_printf(o, "; s%u = h_; t%u = (i64)g_; }\n", d, d);
}

/* The rows variant's part of the function: the block's shape (lw_: log2 W, R_: rows a
 * warp) and the lanes' places in their rows (x: LXQ_, LXW_; y: LYQ_, LYW_) for the
 * vectors of row-affine registers (RFQ, RFW). */
static void emit_rows_decl(jit_buf *o, const vfunc *v) {
    if (!v->rows) return;
    jit_buf_printf(o, "  const u32 lw_ = (u32)__builtin_ctz(V.ntid[0] | 32u), R_ = 32u >> lw_; (void)R_;\n"
                      "  vu LXQ_, LYQ_; vn LXW_, LYW_;\n"
                      "  XQ(LXQ_.q[k_] = IOTA.q[k_] & BQ((1u << lw_) - 1u); LYQ_.q[k_] = IOTA.q[k_] >> lw_;)\n"
                      "  XW(LXW_.w[j_] = IOTAW.w[j_] & BW((1u << lw_) - 1u); LYW_.w[j_] = IOTAW.w[j_] >> lw_;)\n");
}

/* The fast path of a load or store of instruction i whose address register is row-affine
 * and steps along a row by 0 (a load) or by the size: `if (...) {...} else`, before the
 * access's general code; false when it has none. */
static bool rows_mem_ok(const vfunc *v, uint32_t i, bool load, unsigned size) {
    const exec_insn *in = &v->f->code[i];
    uint32_t as = in->a[0], d = in->d[0];
    if (!row_reg(v, as) || (size != 4 && size != 8)) return false;
    int64_t c = v->rows->c[as];
    return load ? (c == 0 || c == (int64_t)size) && !v->uni[d] && !v->konst[d]
                : c == (int64_t)size;
}

/* Has the rows variant an access of its own (emit_rows_mem)? Without one it would run as
 * the general variant does, and cost the compiler a third variant for nothing. */
static bool rows_pay(const vfunc *v) {
    for (uint32_t i = 0; i <= v->n; i++) {
        unsigned size;
        bool uni;
        if (v->kind[i] != K_MEM) continue;
        int shape = mem_shape(&v->f->code[i], &size, &uni);
        bool load = shape == EXEC_NATIVE_MEM_LD_GLOBAL || shape == EXEC_NATIVE_MEM_LD_SHARED;
        if (shape != EXEC_NATIVE_MEM_LD_KPARAM && !uni && rows_mem_ok(v, i, load, size))
            return true;
    }
    return false;
}

static bool emit_rows_mem(jit_buf *o, const vfunc *v, uint32_t i, bool shared, bool load,
                          unsigned size) {
    const exec_insn *in = &v->f->code[i];
    uint32_t as = in->a[0], d = in->d[0];
    if (!rows_mem_ok(v, i, load, size)) return false;
    int64_t c = v->rows->c[as];
    char h[32], g[32], reg[32];
    snprintf(h, sizeof h, "s%u", as);
    snprintf(g, sizeof g, "t%u", as);
    jit_buf src = {0};
    bool narrow = size == 4 && !v->konst[d] && !v->uni[d] && v->narrow[d];
    snprintf(reg, sizeof reg, "r%u", d);
    if (!load && !narrow) opnd(&src, v, d);
    jit_vrow_access a = {.insn = i, .shared = shared, .load = load, .narrow = narrow,
                         .w32 = v->rows->w32[as], .size = size, .c = c, .imm = in->imm,
                         .h = h, .g = g, .dst = reg, .src = load || narrow ? reg : src.s};
    jit_vemit_rows_access(o, &a);
    jit_buf_free(&src);
    return true;
}

static void emit_mem_v(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    unsigned size;
    bool uni;
    int shape = mem_shape(in, &size, &uni);
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    insn_slots(v, i, use, &nuse, def, &ndef);
    if (shape == EXEC_NATIVE_MEM_LD_KPARAM) {
        jit_buf_printf(o, "    if (m) { %s pv_; __builtin_memcpy(&pv_, V.params + %lld, %u); ",
                       size == 4 ? "u32" : "u64", (long long)in->imm, size);
        if (v->uni[in->d[0]]) jit_buf_printf(o, "s%u = pv_; }\n", in->d[0]);
        else jit_buf_printf(o, "XQ(%s(r%u, BQ(pv_));) }\n", wr(v, i, in->d[0]), in->d[0]);
        return;
    }
    bool shared = shape == EXEC_NATIVE_MEM_LD_SHARED || shape == EXEC_NATIVE_MEM_ST_SHARED;
    bool load = shape == EXEC_NATIVE_MEM_LD_GLOBAL || shape == EXEC_NATIVE_MEM_LD_SHARED;
    uint32_t as = in->a[0];
    if (!uni && !v->konst[as] && v->uni[as] && v->stride[as] == (int64_t)size) {
        emit_mem_affine(o, v, i, shared, load, size);
        return;
    }
    /* a load from an address every lane holds alike (a register of one value for the warp:
     * tile[k] in a 1-D block) is one scalar load, as a warp-uniform one */
    if (load && !v->konst[as] && v->uni[as] && !v->stride[as]) uni = true;
    bool strided = !uni && !v->konst[as] && v->uni[as] && v->stride[as] && v->stride[as] != RROW &&
                   (load ? !v->uni[in->d[0]] : true);
    if (strided) {
        emit_mem_strided(o, v, i, shared, load, size);
        return;
    }
    if (!uni && v->rows) emit_rows_mem(o, v, i, shared, load, size); /* (rows: `if .. else`) */
    if (uni) {
        jit_buf_printf(o, "    { u32 l0_ = m ? __builtin_ctz(m) : 0; u64 a0 = ");
        opnd_s(o, v, in->a[0]);
        jit_buf_printf(o, " + (u64)%lldll;\n", (long long)in->imm);
    } else {
        jit_buf_printf(o, "    { vu A_ = ");
        opnd(o, v, in->a[0]);
        jit_buf_printf(o, "; u64 a0 = A_.q[0][0] + (u64)%lldll;\n", (long long)in->imm);
    }
    jit_vemit_mem_range(o, i, shared, load);
    if (uni) { /* one address for the warp: one scalar access */
        jit_buf_printf(o,
            "      if (LIKELY(%s && m && ok && !(a0 & %uu) && a0 >= lo && hi >= %uu && a0 <= hi - %uu)) {\n",
            load ? "1" : "0", size - 1, size, size);
        if (load && v->uni[in->d[0]])
            jit_buf_printf(o, "        %s x_; __builtin_memcpy(&x_, base + a0, %u); s%u = x_;\n",
                           size == 4 ? "u32" : "u64", size, in->d[0]);
        else if (load && size == 4 && v->narrow[in->d[0]])
            jit_buf_printf(o, "        u32 x_; __builtin_memcpy(&x_, base + a0, 4); XW(%s(r%u, BW(x_));)\n",
                           wrw(v, i, in->d[0]), in->d[0]);
        else if (load)
            jit_buf_printf(o, "        %s x_; __builtin_memcpy(&x_, base + a0, %u); XQ(%s(r%u, BQ(x_));)\n",
                           size == 4 ? "u32" : "u64", size, wr(v, i, in->d[0]), in->d[0]);
        else /* (a store made one for the warp: the handler's) */
            jit_buf_printf(o, "        __builtin_trap();\n");
    } else {
    if (load && size == 4) /* rows of 16 lanes (jit/vemit_mem.c), else the warp's checks */
        emit_mem_rows(o, v, i);
    jit_buf_printf(o,
        "      if (LIKELY(m == FULL && ok && !(a0 & %uu) && a0 >= lo && hi >= %uu && a0 <= hi - %uu &&\n"
        "                 ({ Q o_ = BQ(0); XQ(o_ |= A_.q[k_] - BQ(A_.q[0][0]) - IOTA.q[k_] * %uu;) !TESTQ(o_); }))) {\n",
        size - 1, 32 * size, 32 * size, size);
    }
    if (uni) {
    } else if (load) {
        if (size == 4 && v->narrow[in->d[0]])
            jit_buf_printf(o, "        __builtin_memcpy(&r%u, base + a0, 128);\n", in->d[0]);
        else if (size == 4)
            jit_buf_printf(o, "        XQ(Q32 t_; __builtin_memcpy(&t_, base + a0 + k_ * (4 * QL), sizeof t_); r%u.q[k_] = __builtin_convertvector(t_, Q);)\n",
                           in->d[0]);
        else
            jit_buf_printf(o, "        __builtin_memcpy(&r%u, base + a0, 256);\n", in->d[0]);
    } else if (size == 4 && !v->konst[in->d[0]] && v->narrow[in->d[0]]) {
        jit_buf_printf(o, "        __builtin_memcpy(base + a0, &r%u, 128);\n", in->d[0]);
    } else {
        jit_buf_printf(o, "        vu d_ = ");
        opnd(o, v, in->d[0]);
        if (size == 4)
            jit_buf_printf(o, "; XQ(Q32 t_ = __builtin_convertvector(d_.q[k_], Q32); __builtin_memcpy(base + a0 + k_ * (4 * QL), &t_, sizeof t_);)\n");
        else
            jit_buf_printf(o, "; __builtin_memcpy(base + a0, &d_, 256);\n");
    }
    if (uni) {
        jit_buf_printf(o, "      } else if (m) {\n");
        emit_handler(o, v, i, use, nuse, def, ndef);
        jit_buf_printf(o, "      }\n    }\n");
        return;
    }
    /* other patterns of the whole warp: every lane's address checked against the one
     * allocation, then a gather or scatter lane by lane (in lane order, as the handler) */
    const char *T = size == 4 ? "u32" : "u64";
    /* (under a partial mask only the active lanes' addresses are checked and accessed:
     * an inactive lane's address may be anything) */
    /* (GLD4, GLD8: the prelude's, jit/vemit_mem.c) */
    if (load) {
        jit_buf_printf(o, "      } else { vu g_; _Bool gok_ = m && ok && GLD%u(base, &A_, %lldll, lo, hi, m, &g_);\n",
                       size, (long long)in->imm);
        if (size == 4 && v->narrow[in->d[0]]) /* (gathered as slots, kept as 32-bit lanes) */
            jit_buf_printf(o, "          if (gok_) { XW(%s(r%u, NW(g_));) }\n", wrw(v, i, in->d[0]),
                           in->d[0]);
        else
            jit_buf_printf(o, "          if (gok_ && m == FULL) r%u = g_;\n"
                              "          else if (gok_) { XQ(if (KQ(m)) WR(r%u, g_.q[k_]);) }\n",
                           in->d[0], in->d[0]);
    } else { /* (a store's checks stay inline: some kernels' stores take this path often) */
        jit_buf_printf(o, "      } else { _Bool gok_ = 0;\n"
                          "        if (m && ok && hi >= %uu) { Q bad_ = BQ(0);\n"
                          "          XQ(Q a_ = A_.q[k_] + BQ(%lldll);\n"
                          "             bad_ |= ((Q)(a_ < BQ(lo)) | (Q)(a_ > BQ(hi - %uu)) | (a_ & BQ(%uu))) & LM(m);)\n"
                          "          gok_ = !TESTQ(bad_);\n",
                       size, (long long)in->imm, size, size - 1);
        jit_buf_printf(o, "          if (gok_) { vu d_ = ");
        opnd(o, v, in->d[0]);
        jit_buf_printf(o, "; for (u32 mm_ = m; mm_; mm_ &= mm_ - 1) { u32 l = __builtin_ctz(mm_); %s x_ = (%s)LANE(d_, l);\n"
                          "            __builtin_memcpy(base + LANE(A_, l) + (u64)%lldll, &x_, %u); } }\n"
                          "        }\n",
                       T, T, (long long)in->imm, size);
    }
    jit_buf_printf(o, "        if (!gok_ && m) {\n");
    emit_handler(o, v, i, use, nuse, def, ndef);
    jit_buf_printf(o, "      } }\n    }\n");
}

/* A 32-bit comparison of an affine register with a uniform value (if (tid < stride),
 * if (i < n)): the lanes where it holds follow from lane 0's value and the step, when no
 * lane wraps; else the comparison of the 32 lanes. */
static bool emit_setp_affine(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    const vspec *vs = v->vs[i];
    if (vs->type != PTX_T_u32 && vs->type != PTX_T_s32) return false;
    uint32_t a = in->a[0], b = in->a[1];
    bool aa = !v->konst[a] && v->uni[a] && v->stride[a] && v->stride[a] != RROW;
    bool ba = !v->konst[b] && v->uni[b] && v->stride[b] && v->stride[b] != RROW;
    if (row_reg(v, a) || row_reg(v, b)) return false; /* (rows: the lanes' comparison) */
    if (aa == ba) return false;
    uint32_t x = aa ? a : b, c = aa ? b : a;
    if (!v->konst[c] && !(v->uni[c] && !v->stride[c])) return false; /* the other: uniform */
    unsigned cmp = vs->var;
    if (ba) /* c op x: as x op' c */
        cmp = cmp == ALU_V_LT ? ALU_V_GT : cmp == ALU_V_LE ? ALU_V_GE
            : cmp == ALU_V_GT ? ALU_V_LT : cmp == ALU_V_GE ? ALU_V_LE : cmp;
    const char *t = vs->type == PTX_T_s32 ? "i32" : "u32";
    /* the step as 32-bit lanes see it (a step of the run may be 0: then the lanes'
     * comparison) */
    jit_buf_printf(o, "    { u32 bits_ = 0; i64 st_ = (i64)(i32)(u32)");
    stp(o, v, x);
    jit_buf_printf(o, ", b_ = (i64)(%s)s%u, c_ = (i64)(%s)", t, x, t);
    opnd_b(o, v, c);
    jit_buf_printf(o, ", e_ = b_ + 31 * st_;\n"
                      "      if (LIKELY(%se_ >= %s && e_ <= %s)) bits_ = ",
                   v->stride[x] == RSTEP ? "st_ && " : "",
                   vs->type == PTX_T_s32 ? "-0x80000000ll" : "0",
                   vs->type == PTX_T_s32 ? "0x7fffffffll" : "0xffffffffll");
    switch (cmp) {
    case ALU_V_LT: jit_buf_printf(o, "AFLT(b_, st_, c_)"); break;
    case ALU_V_LE: jit_buf_printf(o, "AFLT(b_, st_, c_ + 1)"); break;
    case ALU_V_GE: jit_buf_printf(o, "~AFLT(b_, st_, c_)"); break;
    case ALU_V_GT: jit_buf_printf(o, "~AFLT(b_, st_, c_ + 1)"); break;
    case ALU_V_EQ: jit_buf_printf(o, "AFEQ(b_, st_, c_)"); break;
    default: jit_buf_printf(o, "~AFEQ(b_, st_, c_)"); break;
    }
    jit_buf_printf(o, ";\n      else { XQ(Q a = ");
    opq(o, v, in->a[0]);
    jit_buf_printf(o, "; Q b = ");
    opq(o, v, in->a[1]);
    jit_buf_printf(o, "; bits_ |= TESTQ((Q)(%s)) << (QL * k_);) }\n"
                      "      p%u = (p%u & ~m) | (bits_ & m); }\n",
                   vs->expr, in->d[0], in->d[0]);
    return true;
}

/* A 32-bit operation on 32-bit lanes, a chunk of WL at a time: a comparison (any operands: it reads
 * their low halves), or an operation whose register is one of 32-bit lanes. */
static bool emit_spec_w(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    static const char names[] = "abc";
    const vspec *vs = v->vs[i];
    bool sel = in->op == PTX_OP_selp, setp = !sel && vs->setp;
    if (setp ? !vs->wexpr : !v->narrow[in->d[0]]) return false;
    jit_buf_printf(o, "    { u32 bits_ = 0; (void)bits_; XW(");
    for (unsigned k = 0; k < in->na && k < 3; k++) {
        if (sel && k == 2) break;
        jit_buf_printf(o, "W %c = ", names[k]);
        opw(o, v, in->a[k]);
        jit_buf_printf(o, "; ");
    }
    if (sel) {
        jit_buf_printf(o, "W t_ = SELW(LMW(");
        pred(o, v, in->a[2]);
        jit_buf_printf(o, "), a, b); %s(r%u, t_);) }\n", wrw(v, i, in->d[0]), in->d[0]);
    } else if (setp) {
        jit_buf_printf(o, "bits_ |= TESTW((W)(%s)) << (WL * j_);) p%u = (p%u & ~m) | (bits_ & m); }\n",
                       vs->wexpr, in->d[0], in->d[0]);
    } else {
        jit_buf_printf(o, "W t_ = %s; %s(r%u, t_);) }\n", vs->wexpr, wrw(v, i, in->d[0]), in->d[0]);
    }
    return true;
}

/* The remainder of tid by a power of two tested against 0 (`if ((tid % (2 * stride)) == 0)`
 * in tree reductions): instruction r is a rem.u32 of an affine register of step 1 by a
 * uniform divisor, and r + 1, reached only from r, a 32-bit setp.eq/ne of its result with 0,
 * the rem's only reader. Then the lanes where the remainder is 0 are a pattern of the
 * divisor and lane 0's value, one lane in every divisor's lanes: the setp makes that mask
 * from two scalars, and the rem makes no vector (where the divisor is no power of two,
 * both go the ordinary way). */
static bool rem_mask_pair(const vfunc *v, uint32_t r) {
    if (r + 1 >= v->n || v->label[r + 1] || v->resume[r + 1] || v->rtarget[r + 1]) return false;
    const exec_insn *in = &v->f->code[r], *sp = &v->f->code[r + 1];
    if (in->op != PTX_OP_rem || in->guard >= 0 || sp->guard >= 0 || v->kind[r] != K_SIMPLE ||
        v->kind[r + 1] != K_SPEC || in->lane_fn || sp->lane_fn)
        return false;
    if (!jit_form_handler(in, in->op, PTX_T_u32, ALU_V_NONE, 2, false) || !jit_form_plain(in, false))
        return false;
    const vspec *vs = v->vs[r + 1];
    uint64_t c;
    if (!vs || !vs->setp || sp->op != PTX_OP_setp || (vs->var != ALU_V_EQ && vs->var != ALU_V_NE) ||
        (vs->type != PTX_T_u32 && vs->type != PTX_T_s32))
        return false;
    uint32_t x = in->a[0], dv = in->a[1], d = in->d[0];
    if (sp->a[0] != d || !konst_value(v, sp->a[1], &c) || (uint32_t)c != 0) return false;
    if (d >= v->f->nslots || v->konst[d] || v->uni[d] || SET_HAS(&v->live[(r + 2) * v->nw], d))
        return false;
    if (v->konst[x] || !v->uni[x] || v->stride[x] != 1 || !v->w32[x]) return false;
    return konst_value(v, dv, &c) || (!v->konst[dv] && v->uni[dv] && !v->stride[dv]);
}

/* The setp of a rem_mask_pair at i: the mask of the lanes whose remainder is 0 (a power of
 * two divisor p below 32: every p-th lane from the first whose value is a multiple of p,
 * 0xffffffff / (2^p - 1) being every p-th bit, from a table: no division; 32 or more:
 * that one lane, if any) */
static void emit_setp_rem(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *rm = &v->f->code[i - 1], *in = &v->f->code[i];
    /* (the table static: as a compound literal the compiler built it on the stack at
     * every use and loaded the entry through a store it could not forward) */
    jit_buf_printf(o, "    { static const u32 pat_[5] = {0xffffffffu, 0x55555555u, 0x11111111u, 0x01010101u, 0x00010001u};\n"
                      "      u64 dv_ = ");
    opnd_b(o, v, rm->a[1]);
    jit_buf_printf(o, " & 0xffffffffull;\n"
                      "      if (LIKELY(dv_ && !(dv_ & (dv_ - 1)))) { u32 off_ = (u32)(0u - (u32)s%u) & (u32)(dv_ - 1);\n"
                      "        u32 z_ = dv_ >= 32 ? (off_ < 32 ? 1u << off_ : 0u) : pat_[__builtin_ctzll(dv_)] << off_;\n"
                      "        p%u = (p%u & ~m) | (%sz_ & m); }\n      else ",
                   rm->a[0], in->d[0], in->d[0], v->vs[i]->var == ALU_V_NE ? "~" : "");
    if (!emit_spec_w(o, v, i)) abort(); /* (every 32-bit eq/ne has its 32-bit form) */
    jit_buf_printf(o, "    }\n");
}

static void emit_spec_v(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    static const char names[] = "abc";
    const char *sx = in->lane_fn ? jit_spec_scalar_expr(in) : NULL;
    bool setp = in->op != PTX_OP_selp && v->vs[i]->setp;
    bool sel = in->op == PTX_OP_selp;
    if (in->lane_fn && (sx || sel) && (setp || v->uni[in->d[0]])) {
        /* uniform: once, for the first lane on the path */
        jit_buf_printf(o, "    if (m) { u32 l0_ = __builtin_ctz(m); ");
        for (unsigned k = 0; k < in->na && k < 3; k++) {
            if (sel && k == 2) break;
            jit_buf_printf(o, "u64 %c = ", names[k]);
            opnd_s(o, v, in->a[k]);
            jit_buf_printf(o, "; ");
        }
        if (setp) {
            jit_buf_printf(o, "p%u = (p%u & ~m) | ((%s) ? m : 0); }\n", in->d[0], in->d[0], sx);
        } else if (sel) {
            jit_buf_printf(o, "s%u = ((", in->d[0]);
            pred(o, v, in->a[2]);
            jit_buf_printf(o, ") >> l0_) & 1u ? a : b; }\n");
        } else {
            jit_buf_printf(o, "s%u = (u64)(%s); }\n", in->d[0], sx);
        }
        return;
    }
    if (setp && i > 0 && rem_mask_pair(v, i - 1)) {
        emit_setp_rem(o, v, i);
        return;
    }
    if (setp && emit_setp_affine(o, v, i)) return;
    if (emit_spec_w(o, v, i)) return;
    /* a chunk of QL lanes at a time (the host's widest vectors: the prelude's QL) */
    bool to_uni = !setp && v->uni[in->d[0]];
    jit_buf_printf(o, "    { u32 bits_ = 0; vu T_; (void)bits_; (void)T_; XQ(");
    for (unsigned k = 0; k < in->na && k < 3; k++) {
        if (sel && k == 2) break;
        jit_buf_printf(o, "Q %c = ", names[k]);
        opq(o, v, in->a[k]);
        jit_buf_printf(o, "; ");
    }
    if (sel) {
        jit_buf_printf(o, "Q t_ = SEL(LM(");
        pred(o, v, in->a[2]);
        jit_buf_printf(o, "), a, b); ");
    } else if (setp) {
        jit_buf_printf(o, "bits_ |= TESTQ((Q)(%s)) << (QL * k_);) p%u = (p%u & ~m) | (bits_ & m); }\n",
                       v->vs[i]->expr, in->d[0], in->d[0]);
        return;
    } else {
        jit_buf_printf(o, "Q t_ = %s; ", v->vs[i]->expr);
    }
    if (to_uni) jit_buf_printf(o, "T_.q[k_] = t_;) if (m) s%u = LANE(T_, __builtin_ctz(m)); }\n", in->d[0]);
    else jit_buf_printf(o, "%s(r%u, t_);) }\n", wr(v, i, in->d[0]), in->d[0]);
}

static void emit_bra_v(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    uint32_t t = (uint32_t)in->target;
    bool backward = t <= i;
    if (backward) {
        /* a warp that loops for a time slice without a barrier may wait for another
         * warp: the interpreter's loop, which lets the others run, takes the block */
        jit_buf_printf(o, "    if (m == act && LIKELY(clk - turn0 <= SLICE)) goto L%u;\n", t);
        jit_buf_printf(o, "    if (m) {\n      if (m == act && rt->poll(b)) { clks[wi] = clk; goto fault; }\n");
        emit_bail(o, v, i);
        jit_buf_printf(o, "    }\n");
        return;
    }
    if (ends_thread(&v->f->code[t]) && v->region_of[i] < 0) {
        /* the lanes that take it end there: the end's issue, and they are gone */
        jit_buf_printf(o, "    if (m == act) { clk++; ");
        jit_vprof_end_issue(o, v->f, t); /* (profiled: the end's issue counted) */
        jit_buf_printf(o, "goto done; }\n    act &= ~m;\n");
        return;
    }
    if (v->head[i] >= 0) jit_buf_printf(o, "    rv%u = act;\n", (uint32_t)v->head[i]);
    jit_buf_printf(o, "    if (m == act) goto L%u;\n", t);
    bool split_ok = v->region_of[i] >= 0 || v->head[i] >= 0;
    if (split_ok) {
        jit_buf_printf(o, "    act &= ~m;\n");
    } else {
        jit_buf_printf(o, "    if (m) {\n");
        emit_bail(o, v, i);
        jit_buf_printf(o, "    }\n");
    }
}

/* Unsigned div and rem by a divisor the same for the whole warp: a shift or a mask when it
 * is a power of two (tid % (2 * stride) in tree reductions), else the handler's. */
static bool emit_pow2_div(jit_buf *o, const vfunc *v, uint32_t i, const uint32_t *use,
                          unsigned nuse, const uint32_t *def, unsigned ndef) {
    const exec_insn *in = &v->f->code[i];
    if (in->op != PTX_OP_div && in->op != PTX_OP_rem) return false;
    bool w32 = jit_form_handler(in, in->op, PTX_T_u32, ALU_V_NONE, 2, false);
    if (!w32 && !jit_form_handler(in, in->op, PTX_T_u64, ALU_V_NONE, 2, false)) return false;
    if (!jit_form_plain(in, false)) return false;
    uint32_t a = in->a[0], b = in->a[1], d = in->d[0];
    uint64_t c;
    if (!konst_value(v, b, &c) && (v->konst[b] || !v->uni[b] || v->stride[b])) return false;
    bool rem = in->op == PTX_OP_rem;
    jit_buf_printf(o, "    { u64 dv_ = ");
    opnd_b(o, v, b);
    jit_buf_printf(o, "%s;\n      if (LIKELY(dv_ && !(dv_ & (dv_ - 1)))) {", w32 ? " & 0xffffffffull" : "");
    if (rem_mask_pair(v, i)) {
        /* (its one reader, the next setp, makes its mask from the scalars) */
    } else if (v->uni[d]) {
        jit_buf_printf(o, " if (m) { u32 l0_ = __builtin_ctz(m); u64 x_ = ");
        opnd_s(o, v, a);
        jit_buf_printf(o, "%s; s%u = %s; }", w32 ? " & 0xffffffffull" : "", d,
                       rem ? "x_ & (dv_ - 1)" : "x_ >> __builtin_ctzll(dv_)");
    } else if (v->narrow[d]) {
        jit_buf_printf(o, " u32 sh_ = (u32)__builtin_ctzll(dv_); (void)sh_; XW(W x_ = ");
        opw(o, v, a);
        jit_buf_printf(o, "; %s(r%u, %s);)", wrw(v, i, d), d, rem ? "x_ & BW(dv_ - 1)" : "x_ >> sh_");
    } else {
        jit_buf_printf(o, " u32 sh_ = (u32)__builtin_ctzll(dv_); (void)sh_; XQ(Q x_ = ");
        opq(o, v, a);
        jit_buf_printf(o, "%s; %s(r%u, %s);)", w32 ? " & M32" : "", wr(v, i, d), d,
                       rem ? "x_ & BQ(dv_ - 1)" : "x_ >> sh_");
    }
    jit_buf_printf(o, " }\n      else if (m) {\n");
    emit_handler(o, v, i, use, nuse, def, ndef);
    jit_buf_printf(o, "    } }\n");
    return true;
}

/* The special registers of the block, inline; false: the handler's. */
static bool emit_sreg(jit_buf *o, const vfunc *v, uint32_t i) {
    const exec_insn *in = &v->f->code[i];
    uint32_t sreg = (uint32_t)in->target, d = in->d[0];
    char val[64];
    if (sreg >= PTX_SREG_NTID_X && sreg <= PTX_SREG_NTID_Z)
        snprintf(val, sizeof val, "V.ntid[%u]", sreg - PTX_SREG_NTID_X);
    else if (sreg >= PTX_SREG_CTAID_X && sreg <= PTX_SREG_CTAID_Z)
        snprintf(val, sizeof val, "V.ctaid[%u]", sreg - PTX_SREG_CTAID_X);
    else if (sreg >= PTX_SREG_NCTAID_X && sreg <= PTX_SREG_NCTAID_Z)
        snprintf(val, sizeof val, "V.nctaid[%u]", sreg - PTX_SREG_NCTAID_X);
    else if (v->affine && sreg == PTX_SREG_TID_Y)
        snprintf(val, sizeof val, "((wi * 32u / V.ntid[0]) %% V.ntid[1])");
    else if (v->affine && sreg == PTX_SREG_TID_Z)
        snprintf(val, sizeof val, "(wi * 32u / (V.ntid[0] * V.ntid[1]))");
    else if (sreg == PTX_SREG_TID_X && !v->uni[d])
        val[0] = 0;
    else
        return false;
    if (in->flags & EXEC_F_PSEUDO) jit_buf_printf(o, "    clk--;\n");
    if (!val[0] && v->affine) { /* a warp holds 32 consecutive threads of a row */
        jit_buf_printf(o, "    XQ(%s(r%u, BQ((wi * 32u) %% V.ntid[0]) + IOTA.q[k_]);)\n", wr(v, i, d), d);
        return true;
    }
    if (!val[0]) { /* the 1-D block's thread index; else the handler's */
        jit_buf_printf(o, "    if (LIKELY(V.ntid[1] == 1 && V.ntid[2] == 1)) { XQ(%s(r%u, BQ(wi * 32u) + IOTA.q[k_]);) }\n"
                          "    else if (m) {\n", wr(v, i, d), d);
        uint32_t def[1] = {d};
        jit_buf_printf(o, "    clk++;\n"); /* (the handler takes a pseudo's issue back itself) */
        if (!(in->flags & EXEC_F_PSEUDO)) jit_buf_printf(o, "    clk--;\n");
        emit_handler(o, v, i, NULL, 0, def, 1);
        jit_buf_printf(o, "    }\n");
        return true;
    }
    if (v->uni[d]) jit_buf_printf(o, "    if (m) s%u = (u64)%s;\n", d, val);
    else jit_buf_printf(o, "    XQ(%s(r%u, BQ((u64)%s));)\n", wr(v, i, d), d, val);
    return true;
}

static bool emit_vfunc(jit_buf *o, vfunc *v) {
    const exec_func *f = v->f;
    uint32_t n = v->n, nw = v->nw;
    /* at a bail-out: the scalar registers and predicates the other warps stored at their
     * barriers (into the block's stash, SV_; the block-invariant ones, which the bail
     * gave every warp, in lane 0 of their slots), to every lane of their register files */
    jit_buf_printf(o, "static __attribute__((noinline, cold)) void %s_fix%u(const struct bview *B,\n"
                      "    u32 wi, const u32 *alive, const u32 *res, const u64 *SV) {\n"
                      "  (void)SV;\n"
                      "  for (u32 k = 0; k < B->nwarps; k++) {\n"
                      "    if (k == wi || !alive[k]) continue;\n"
                      "    void *w = B->warps + (u64)k * WSZ; u64 *R = RR; u32 *P = PP; (void)P;\n"
                      "    switch (res[k]) {\n", v->pfx, f->index);
    for (uint32_t i = 0; i <= n; i++) {
        if (!v->resume[i]) continue;
        jit_buf_printf(o, "    case %u:\n", i);
        for (uint32_t s = 0; s < f->nslots; s++) {
            if (!SET_HAS(&v->live[i * nw], s) || !SET_HAS(v->isvar, s)) continue;
            char src[64], step[64];
            if (v->uni[s] && v->sidx[s] >= 0) {
                snprintf(src, sizeof src, "SV[k * %uu + %du]", v->ns, v->sidx[s]);
                snprintf(step, sizeof step, "(i64)SV[k * %uu + %du]", v->ns, v->sidx[s] + 1);
            } else {
                snprintf(src, sizeof src, "R[%uu * 32]", s);
                snprintf(step, sizeof step, "(i64)R[%uu * 32 + 1]", s);
            }
            if (v->uni[s] && v->stride[s] == RROW)
                jit_buf_printf(o, "      ROWFILL(R + %uu * 32, %s, %lldll, %s, %s, (u32)__builtin_ctz(B->ntid[0] | 32u));\n",
                               s, src, (long long)v->rows->c[s], step, wmask(v, s));
            else if (v->uni[s] && v->stride[s] == RSTEP)
                jit_buf_printf(o, v->outline ? "      STAF(R + %uu * 32, %s, %s, %s);\n"
                                             : "      STV(R + %uu * 32, AFV(%s, %s, %s));\n",
                               s, src, step, wmask(v, s));
            else if (v->uni[s] && v->stride[s])
                jit_buf_printf(o, v->outline ? "      STAF(R + %uu * 32, %s, %lldll, %s);\n"
                                             : "      STV(R + %uu * 32, AFV(%s, %lldll, %s));\n",
                               s, src, (long long)v->stride[s], wmask(v, s));
            else if (v->uni[s])
                jit_buf_printf(o, "      STV(R + %uu * 32, BCV(%s));\n", s, src);
            else if (v->narrow[s] && v->outline)
                jit_buf_printf(o, "      WIDENR(R + %uu * 32);\n", s);
            else if (v->narrow[s])
                jit_buf_printf(o, "      { vn n_; __builtin_memcpy(&n_, R + %uu * 32, 128); "
                                  "STV(R + %uu * 32, VN(n_)); }\n", s, s);
        }
        for (uint32_t p = 0; p < f->npreds; p++)
            if (p != f->pred_true && p != f->pred_false && SET_HAS(&v->plive[i * v->pw], p))
                jit_buf_printf(o, "      P[%u] = (u32)SV[k * %uu + %du];\n", p, v->ns, v->pidx[p]);
        jit_buf_printf(o, "      break;\n");
    }
    jit_buf_printf(o, "    default: break;\n    }\n  }\n}\n");
    jit_buf_printf(o, "%sint %s_f%u(void *b, const struct brt *rt) {\n"
                      "  struct bview V; rt->view(b, &V);\n",
                   v->affine ? "" : "static ", v->pfx, f->index);
    if (v->affine && v->reads_tid && v->general && v->rowsv)
        /* rows of a power of two below 32 threads, a warp's rows of one z: the rows
         * variant; other shapes: the general one */
        jit_buf_printf(o, "  if (!((V.ntid[1] == 1 && V.ntid[2] == 1) || !(V.ntid[0] & 31)))\n"
                          "    return V.ntid[0] < 32u && !(V.ntid[0] & (V.ntid[0] - 1u)) &&\n"
                          "           (V.ntid[2] == 1u || !((V.ntid[0] * V.ntid[1]) & 31u)) ? vr_f%u(b, rt) : vg_f%u(b, rt);\n",
                       f->index, f->index);
    else if (v->affine && v->reads_tid && v->general)
        jit_buf_printf(o, "  if (!((V.ntid[1] == 1 && V.ntid[2] == 1) || !(V.ntid[0] & 31)))\n"
                          "    return vg_f%u(b, rt);\n", f->index);
    else if (v->affine && v->reads_tid)
        /* threadIdx.x is affine in the lane only when a warp holds 32 consecutive
         * threads of a row: a 1-D block, or rows of a multiple of 32 threads */
        jit_buf_printf(o, "  if (!((V.ntid[1] == 1 && V.ntid[2] == 1) || !(V.ntid[0] & 31)))\n"
                          "    return 1;\n");
    jit_vprof_entry(o, f); /* (profiled: the tally) */
    jit_buf_printf(o, "  const char *const C = V.code;\n"
                      "  u32 alive[32], res[32]; u64 clks[32];\n"
                      "  for (u32 k = 0; k < V.nwarps; k++) { void *w = V.warps + (u64)k * WSZ;\n"
                      "    alive[k] = WF(u32, ALviE_OFF); res[k] = 0; clks[k] = CLOCK; }\n");
    /* the block's stash: what each warp keeps across a barrier of its scalar registers and
     * predicates, a few words a warp side by side (its register file's slots are 256
     * bytes apart, behind a pointer of its state) */
    jit_buf_printf(o, "  u64 SV_[32 * %uu + 1];\n", v->ns);
    emit_rows_decl(o, v);
    for (uint32_t s = 0; s < f->nslots; s++)
        if (SET_HAS(v->isvar, s)) {
            if (v->uni[s]) jit_buf_printf(o, "  u64 s%u = 0;\n", s);
            if (v->uni[s] && (v->stride[s] == RSTEP || v->stride[s] == RROW))
                jit_buf_printf(o, "  i64 t%u = 0;\n", s);
            else if (v->narrow[s]) jit_buf_printf(o, "  vn r%u = {0};\n", s);
            else jit_buf_printf(o, "  vu r%u = {0};\n", s);
        }
    for (uint32_t p = 0; p < f->npreds; p++)
        if (p != f->pred_true && p != f->pred_false) jit_buf_printf(o, "  u32 p%u = 0;\n", p);
    for (uint32_t t = 0; t <= n; t++)
        if (v->rtarget[t]) jit_buf_printf(o, "  u32 rv%u = 0;\n", t);
    /* (the warp's register file and predicates, R and P, are read where used: only the
     * slow paths use them, and as locals of the turn the compiler loaded both at every
     * turn's start and kept them on the stack) */
    jit_buf_printf(o, "#define R RR\n#define P PP\n"
                      "  for (;;) {\n  u32 nwait = 0;\n"
                      "  for (u32 wi = 0; wi < V.nwarps; wi++) {\n"
                      "    if (!alive[wi]) continue;\n"
                      "    void *w = V.warps + (u64)wi * WSZ;\n"
                      "    u64 clk = clks[wi], turn0 = clk; u32 act = alive[wi], m;\n"
                      "    switch (res[wi]) {\n    case 0:\n");
    emit_set(o, v, &v->live[0], SPILL_LOAD);
    emit_preds(o, v, false, &v->plive[0], false);
    jit_buf_printf(o, "      goto L0;\n");
    for (uint32_t i = 1; i <= n; i++)
        if (v->resume[i]) {
            jit_buf_printf(o, "    case %u:\n", i);
            emit_set(o, v, &v->live[i * nw], SPILL_UNSTASH);
            emit_preds(o, v, false, &v->plive[i * v->pw], true);
            jit_buf_printf(o, "      goto L%u;\n", i);
        }
    jit_buf_printf(o, "    default: __builtin_unreachable();\n    }\n");
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    for (uint32_t i = 0; i <= n; i++) {
        const exec_insn *in = &f->code[i];
        if (v->label[i] || v->resume[i] || i == 0) jit_buf_printf(o, "  L%u:\n", i);
        if (v->rtarget[i]) jit_buf_printf(o, "    act = rv%u;\n", i);
        jit_buf_printf(o, "    clk++;\n");
        if (in->guard < 0) {
            jit_buf_printf(o, "    m = act;\n");
        } else {
            jit_buf_printf(o, "    m = act & %s", in->guard_neg ? "~" : "");
            pred(o, v, (uint32_t)in->guard);
            jit_buf_printf(o, ";\n");
        }
        insn_slots(v, i, use, &nuse, def, &ndef);
        /* (profiled: counted, a memory access told) */
        if (jit_vprof_insn(o, f, i) && !vprof_affine(o, v, i)) {
            for (unsigned k = 0; k < nuse; k++)
                if (SET_HAS(v->isvar, use[k])) spill(o, v, use[k], SPILL_STORE);
            jit_vprof_observe(o, i);
        }
        if (ndef == 1 && def[0] < f->nslots && row_reg(v, def[0])) { /* (find_rows: row_result) */
            emit_row_def(o, v, i);
            emit_stash_def(o, v, i);
            continue;
        }
        if (ndef == 1 && def[0] < f->nslots && v->uni[def[0]] && v->stride[def[0]] &&
            (v->kind[i] == K_SPEC || v->kind[i] == K_OFFSET || v->kind[i] == K_SREG ||
             (v->kind[i] == K_SIMPLE && int_cvt(in) != CVT_NONE))) {
            emit_aff(o, v, i);
            emit_stash_def(o, v, i);
            continue;
        }
        switch (v->kind[i]) {
        case K_SPEC: emit_spec_v(o, v, i); break;
        case K_MEM: emit_mem_v(o, v, i); break;
        case K_PLOGIC: {
            static const char *ops[] = {"&", "|", "^"};
            const char *op = in->op == PTX_OP_and ? ops[0] : in->op == PTX_OP_or ? ops[1] : ops[2];
            jit_buf_printf(o, "    { u32 x_ = %s", (in->flags & ALU_F_NEG_A0) ? "~" : "");
            pred(o, v, in->a[0]);
            if (in->na == 2) {
                jit_buf_printf(o, "; u32 y_ = %s", (in->flags & ALU_F_NEG_A1) ? "~" : "");
                pred(o, v, in->a[1]);
                jit_buf_printf(o, "; x_ = x_ %s y_", op);
            } else if (in->op == PTX_OP_not) {
                jit_buf_printf(o, "; x_ = ~x_");
            }
            jit_buf_printf(o, "; p%u = (p%u & ~m) | (x_ & m); }\n", in->d[0], in->d[0]);
            break;
        }
        case K_FLT: {
            static const char names[] = "abc";
            if (v->narrow[in->d[0]]) { /* WL lanes at a time */
                jit_buf_printf(o, "    XW(");
                for (unsigned k = 0; k < in->na; k++) {
                    jit_buf_printf(o, "FW %c = (FW)(", names[k]);
                    opw(o, v, in->a[k]);
                    jit_buf_printf(o, "); ");
                }
                const char *e = in->op == PTX_OP_add ? "a + b" : in->op == PTX_OP_sub ? "a - b"
                              : in->op == PTX_OP_mul ? "a * b" : "FMAW(a, b, c)";
                jit_buf_printf(o, "%s(r%u, WOFF(%s));)\n", wrw(v, i, in->d[0]), in->d[0], e);
                break;
            }
            jit_buf_printf(o, "    XQ(");
            for (unsigned k = 0; k < in->na; k++) {
                jit_buf_printf(o, "FQ %c = FQOF(", names[k]);
                opq(o, v, in->a[k]);
                jit_buf_printf(o, "); ");
            }
            const char *e = in->op == PTX_OP_add ? "a + b" : in->op == PTX_OP_sub ? "a - b"
                          : in->op == PTX_OP_mul ? "a * b" : "FMAQ(a, b, c)";
            jit_buf_printf(o, "%s(r%u, QOFF(%s));)\n", wr(v, i, in->d[0]), in->d[0], e);
            break;
        }
        case K_MEMH:
            jit_buf_printf(o, "    if (m) {\n");
            emit_handler(o, v, i, use, nuse, def, ndef);
            jit_buf_printf(o, "    }\n");
            break;
        case K_SREG:
            if (emit_sreg(o, v, i)) break;
            /* fall through */
        case K_SIMPLE:
            if (emit_pow2_div(o, v, i, use, nuse, def, ndef)) break;
            jit_buf_printf(o, "    if (m) {\n");
            emit_handler(o, v, i, use, nuse, def, ndef);
            jit_buf_printf(o, "    }\n");
            break;
        case K_HCALL: {
            if (hcall_collective(in)) {
                jit_buf_printf(o, "    if (m && m != FULL) {\n");
                emit_bail(o, v, i);
                jit_buf_printf(o, "    }\n");
            }
            bool d2p = (in->flags & EXEC_F_D2_PRED) && in->nd > 1 && in->d[1] < v->f->npreds;
            jit_buf_printf(o, "    if (m) {\n");
            if (d2p) jit_buf_printf(o, "    P[%u] = p%u;\n", in->d[1], in->d[1]);
            emit_handler(o, v, i, use, nuse, def, ndef);
            if (d2p) jit_buf_printf(o, "    p%u = P[%u];\n", in->d[1], in->d[1]);
            jit_buf_printf(o, "    }\n");
            break;
        }
        case K_PCALL: {
            jit_buf_printf(o, "    if (m) {\n");
            uint32_t ps[3] = {in->d[0], in->nd > 1 ? in->d[1] : in->d[0],
                              in->na == 3 ? in->a[2] : in->d[0]};
            for (unsigned k = 0; k < 3; k++)
                if (ps[k] < v->f->npreds && ps[k] != v->f->pred_true && ps[k] != v->f->pred_false)
                    jit_buf_printf(o, "    P[%u] = p%u;\n", ps[k], ps[k]);
            emit_handler(o, v, i, use, nuse, def, ndef);
            for (unsigned k = 0; k < in->nd; k++)
                if (in->d[k] < v->f->npreds && in->d[k] != v->f->pred_true &&
                    in->d[k] != v->f->pred_false)
                    jit_buf_printf(o, "    p%u = P[%u];\n", in->d[k], in->d[k]);
            jit_buf_printf(o, "    }\n");
            break;
        }
        case K_BRA: emit_bra_v(o, v, i); break;
        case K_OFFSET: {
            unsigned long long keep = in->aux < 64 ? (1ull << in->aux) - 1 : ~0ull;
            if (v->uni[in->d[0]]) {
                jit_buf_printf(o, "    if (m) { u32 l0_ = __builtin_ctz(m); s%u = (", in->d[0]);
                opnd_s(o, v, in->a[0]);
                jit_buf_printf(o, " + 0x%llxull) & 0x%llxull; }\n", (unsigned long long)in->imm, keep);
            } else {
                jit_buf_printf(o, "    XQ(%s(r%u, (", wr(v, i, in->d[0]), in->d[0]);
                opq(o, v, in->a[0]);
                jit_buf_printf(o, " + BQ(0x%llxull)) & BQ(0x%llxull));)\n", (unsigned long long)in->imm,
                               keep);
            }
            break;
        }
        case K_BAR:
            jit_buf_printf(o, "    res[wi] = %u; nwait++;\n", i + 1);
            emit_set(o, v, &v->live[(i + 1) * nw], SPILL_STASH);
            emit_preds(o, v, true, &v->plive[(i + 1) * v->pw], true);
            jit_buf_printf(o, "    clks[wi] = clk; alive[wi] = act; continue;\n");
            break;
        case K_EXIT:
            jit_buf_printf(o, "    act &= ~m; if (!act) goto done;\n");
            break;
        default:
            return false;
        }
        emit_stash_def(o, v, i);
    }
    jit_buf_printf(o, "  done:\n    clks[wi] = clk; alive[wi] = 0;\n"
                      "  }\n  if (!nwait) break;\n"
                      "  if (UNLIKELY(rt->poll(b))) goto fault;\n  }\n"
                      "fault:\n"
                      "  for (u32 k = 0; k < V.nwarps; k++) { void *w = V.warps + (u64)k * WSZ; CLOCK = clks[k]; }\n"
                      "  return 0;\n#undef R\n#undef P\n}\n\n");
    return true;
}

/* Analyse f for one variant (affine: threadIdx.x as an affine register) and generate it;
 * false with the reason when the tier cannot take f. The rows variant is not generated when
 * it has no access of its own (rows_pay): then *rows_used becomes false. */
static bool vemit_variant(const exec_func *f, bool affine, bool general, bool rows, jit_buf *o,
                          char *why, size_t wn, bool *rows_used) {
    vfunc v;
    memset(&v, 0, sizeof v);
    v.f = f;
    v.n = f->ncode;
    v.affine = affine;
    v.general = general;
    v.rowsv = rows;
    v.outline = f->ncode >= VEMIT_OUTLINE_MIN;
    v.pfx = affine ? "vb" : rows ? "vr" : "vg";
    uint32_t n1 = v.n + 1;
    v.nw = (f->nslots + 63) / 64 + 1;
    v.kind = calloc(n1, 1);
    v.vs = calloc(n1, sizeof *v.vs);
    v.isvar = calloc(v.nw, sizeof *v.isvar);
    v.live = calloc((size_t)n1 * v.nw, sizeof *v.live);
    v.konst = calloc(f->nslots + 1, sizeof *v.konst);
    v.cidx = calloc(f->nslots + 1, sizeof *v.cidx);
    v.region_of = malloc(n1 * sizeof *v.region_of);
    v.head = malloc(n1 * sizeof *v.head);
    v.rtarget = calloc(n1, sizeof *v.rtarget);
    v.resume = calloc(n1 + 1, sizeof *v.resume);
    v.label = calloc(n1 + 1, sizeof *v.label);
    v.uni = calloc(f->nslots + 1, sizeof *v.uni);
    v.stride = calloc(f->nslots + 1, sizeof *v.stride);
    v.w32 = calloc(f->nslots + 1, sizeof *v.w32);
    v.av = calloc(f->nslots + 1, sizeof *v.av);
    v.pw = (f->npreds + 63) / 64 + 1;
    v.plive = calloc((size_t)n1 * v.pw, sizeof *v.plive);
    v.inv = calloc(f->nslots + 1, sizeof *v.inv);
    v.narrow = calloc(f->nslots + 1, sizeof *v.narrow);
    v.sidx = calloc(f->nslots + 1, sizeof *v.sidx);
    v.pidx = calloc(f->npreds + 1, sizeof *v.pidx);
    if (!v.narrow || !v.kind || !v.vs || !v.isvar || !v.live || !v.konst || !v.cidx || !v.region_of ||
        !v.head || !v.rtarget || !v.resume || !v.label || !v.uni || !v.stride || !v.w32 || !v.av ||
        !v.plive || !v.inv || !v.sidx || !v.pidx)
        abort();
    for (uint32_t i = 0; i < n1; i++) v.region_of[i] = v.head[i] = -1;
    for (uint32_t k = 0; k < f->nconsts; k++)
        if (f->consts[k].slot < f->nslots) {
            v.konst[f->consts[k].slot] = true;
            v.cidx[f->consts[k].slot] = (int32_t)k;
        }
    bool ok = classify(&v, why, wn);
    uint32_t use[8], def[8];
    unsigned nuse, ndef;
    if (ok) {
        find_regions(&v);
        for (uint32_t i = 0; i <= v.n; i++) {
            const exec_insn *in = &f->code[i];
            insn_slots(&v, i, use, &nuse, def, &ndef);
            for (unsigned k = 0; k < nuse; k++)
                if (use[k] < f->nslots && !v.konst[use[k]]) SET_ADD(v.isvar, use[k]);
            for (unsigned k = 0; k < ndef; k++) {
                if (def[k] >= f->nslots || v.konst[def[k]]) {
                    ok = reject(why, wn, in, "writes a constant slot");
                    break;
                }
                SET_ADD(v.isvar, def[k]);
            }
            if (v.kind[i] == K_SREG && (in->target == PTX_SREG_TID_X ||
                                         in->target == PTX_SREG_TID_Y ||
                                         in->target == PTX_SREG_TID_Z))
                v.reads_tid = true;
            if (v.kind[i] == K_BAR) {
                v.resume[i + 1] = true;
                if (v.region_of[i] >= 0) ok = reject(why, wn, in, "a barrier in divergent code");
            }
            if (v.kind[i] == K_EXIT && v.region_of[i] >= 0)
                ok = reject(why, wn, in, "an exit in divergent code");
            if (v.kind[i] == K_BRA && in->target <= (int32_t)i && v.region_of[i] >= 0)
                ok = reject(why, wn, in, "a loop in divergent code");
            if (in->guard >= 0 && (uint32_t)in->guard >= f->npreds)
                ok = reject(why, wn, in, "a guard out of range");
            if (!ok) break;
        }
    }
    if (ok) {
        /* liveness first: the value analysis asks what is live where the paths meet */
        liveness(&v);
        pred_liveness(&v);
        analyse_values(&v);
        if (!affine && rows) find_rows(&v);
        if (!affine && rows && rows_used && !rows_pay(&v)) {
            *rows_used = false;
        } else {
            block_invariants(&v);
            find_narrow(&v);
            assign_stash(&v);
            stash_at_def(&v);
            ok = emit_vfunc(o, &v);
            if (!ok) reject(why, wn, NULL, "internal");
        }
    }
    vf_free(&v);
    return ok;
}

/* Does f read threadIdx.y or .z (a kernel written for blocks of more than one row)? */
static bool reads_tid_yz(const exec_func *f) {
    for (uint32_t i = 0; i < f->ncode; i++) {
        const exec_insn *in = &f->code[i];
        if ((in->fn == exec_h_sreg || in->lane_fn == exec_h_sreg) &&
            (in->target == PTX_SREG_TID_Y || in->target == PTX_SREG_TID_Z))
            return true;
    }
    return false;
}

/* The affine variant runs blocks whose warps hold 32 consecutive threads of a row; a
 * kernel that reads threadIdx.y or .z also gets the general variant, for the other block
 * shapes (a kernel that reads only threadIdx.x, launched with such blocks, is
 * interpreted). VCUDA_JIT_AFFINE=0 generates only the general variant. */
bool jit_vemit_func(const exec_func *f, jit_buf *o, char *why, size_t wn) {
    if (!f->code || !f->pf->is_entry) return reject(why, wn, NULL, "not a kernel");
    const char *e = getenv("VCUDA_JIT_AFFINE");
    if (e && !strcmp(e, "0")) {
        if (!vemit_variant(f, false, false, false, o, why, wn, NULL)) return false;
        /* the entry point is the general code */
        jit_buf_printf(o, "int vb_f%u(void *b, const struct brt *rt) { return vg_f%u(b, rt); }\n\n",
                       f->index, f->index);
        return true;
    }
    bool general = reads_tid_yz(f), rows = general && jit_vemit_rows_enabled();
    if (general && !vemit_variant(f, false, false, false, o, why, wn, NULL)) return false;
    if (rows && !vemit_variant(f, false, false, true, o, why, wn, &rows)) return false;
    return vemit_variant(f, true, general, rows, o, why, wn, NULL);
}

/* The prelude's vector types and their operations. A register's 32 lanes are chunks of the
 * host's widest vector: QL lanes of 64-bit slots (Q) or WL = 2 * QL lanes of 32 bits (W),
 * NQ or NWC chunks, looped over by XQ (k_) and XW (j_). QL is 8 (64 bytes) where the C
 * compiler targets AVX-512, else 4 (32 bytes): a vector type wider than the host's
 * registers is no machine mode, so the compiler keeps such values in memory and splits
 * each operation through the stack. The width is decided by the preprocessor under the
 * unit's -march=native, so the generated text is one for every host, and a unit's cache
 * key (jit/build.c: source, options, CPU model) already tells the builds apart. */
void jit_vemit_prelude(jit_buf *o) {
    jit_buf_printf(o,
        "/* the vector tier (jit/vemit.c) */\n"
        "#if defined(__AVX512F__)\n#define QL 8\n#else\n#define QL 4\n#endif\n"
        "#define WL (2 * QL)\n#define NQ (32 / QL)\n#define NWC (32 / WL)\n"
        "typedef u64 Q __attribute__((vector_size(8 * QL)));\n"
        "typedef i64 QI __attribute__((vector_size(8 * QL)));\n"
        "typedef u32 Q32 __attribute__((vector_size(4 * QL)));\n"
        "typedef struct { Q q[NQ]; } vu; /* a register: 32 lanes of 64-bit slots */\n"
        "struct bview { unsigned char *warps; u32 nwarps; unsigned char *shared; u64 shared_size;\n"
        "  const char *ranges; const unsigned char *params; const int *fault_kind; const char *code;\n"
        "  u32 ntid[3], ctaid[3], nctaid[3]; };\n"
        "_Static_assert(sizeof(struct bview) == %zuu, \"exec_native_block_view\");\n"
        "struct brt { u32 abi; void (*view)(void *, struct bview *); _Bool (*poll)(void *);\n"
        "  int (*bail)(void *, u32, u32, const u32 *, const u32 *, const u64 *);\n"
        "  int (*bail_in_regions)(void *, u32, u32, u32, const u32 *, const u32 *, const u64 *,\n"
        "                         u32, const u32 *, const u32 *); };\n"
        "#define WSZ %zuu\n#define ALviE_OFF %zuu\n"
        "/* S once for each chunk k_ of QL lanes (XQ), j_ of WL lanes (XW); the lane indices\n"
        " * b to b + QL - 1 (QIX), b to b + WL - 1 (WIX), for shuffles */\n"
        "#define R2_(v, ...) { enum { v = 0 }; __VA_ARGS__ } { enum { v = 1 }; __VA_ARGS__ }\n"
        "#define R4_(v, ...) R2_(v, __VA_ARGS__) { enum { v = 2 }; __VA_ARGS__ } { enum { v = 3 }; __VA_ARGS__ }\n"
        "#define R8_(v, ...) R4_(v, __VA_ARGS__) { enum { v = 4 }; __VA_ARGS__ } { enum { v = 5 }; __VA_ARGS__ }\\\n"
        "  { enum { v = 6 }; __VA_ARGS__ } { enum { v = 7 }; __VA_ARGS__ }\n"
        "#define IX4_(b) (b), (b) + 1, (b) + 2, (b) + 3\n"
        "#define IX8_(b) IX4_(b), IX4_((b) + 4)\n"
        "#define IX16_(b) IX8_(b), IX8_((b) + 8)\n"
        "#if QL == 8\n"
        "#define XQ(...) R4_(k_, __VA_ARGS__)\n#define XW(...) R2_(j_, __VA_ARGS__)\n"
        "#define QIX(b) IX8_(b)\n#define WIX(b) IX16_(b)\n"
        "#else\n"
        "#define XQ(...) R8_(k_, __VA_ARGS__)\n#define XW(...) R4_(j_, __VA_ARGS__)\n"
        "#define QIX(b) IX4_(b)\n#define WIX(b) IX8_(b)\n"
        "#endif\n"
        "/* chunk k_'s (j_'s) bits of lane mask mm */\n"
        "#define KQ(mm) (((u32)(mm) >> (QL * k_)) & ((1u << QL) - 1u))\n"
        "#define KW(mm) (((u32)(mm) >> (WL * j_)) & ((1u << WL) - 1u))\n"
        "#define BQ(x) ((Q){} + (u64)(x))\n"
        "#define BCV(x) ({ Q b_ = BQ(x); vu bv_; XQ(bv_.q[k_] = b_;) bv_; })\n"
        "#define M32 BQ(0xffffffffu)\n"
        "#define SX32(x) (((QI)((x) << 32)) >> 32)\n"
        "#define MINV(x, k) (((Q)((x) < (u64)(k)) & (x)) | ((Q)((x) >= (u64)(k)) & BQ(k)))\n"
        "#define SEL(k, a, b) (((a) & (k)) | ((b) & ~(k)))\n"
        "#define LANE(r, l) ((r).q[(l) / QL][(l) %% QL])\n"
        "/* an affine register's lanes of chunk k_ (all 32: AFV): base + lane * step, in a width */\n"
        "/* (lanes QL * k_ + i as lane QL * k_'s value plus i * step: one product of IOTA's first\n"
        " * chunk for all chunks, where the step is a value of the run) */\n"
        "#define AFQ(b, st, mk) ((BQ((u64)(b) + (u64)(st) * ((u64)QL * k_)) + IOTA.q[0] * (u64)(st)) & BQ(mk))\n"
        "#define AFV(b, st, mk) ({ vu af_; XQ(af_.q[k_] = AFQ(b, st, mk);) af_; })\n"
        "/* the lanes l where b + l * s < c, and where it equals c (exact values, s != 0; no\n"
        " * division where all lanes or none hold, as in the warps a tree's step leaves idle) */\n"
        "static inline u32 AFLT(i64 b, i64 s, i64 c) {\n"
        "  if (s > 0) { if (c <= b) return 0; if (c - b > 31 * s) return FULL;\n"
        "    i64 n = (c - b + s - 1) / s; return n >= 32 ? FULL : (1u << n) - 1; }\n"
        "  if (c > b) return FULL;\n"
        "  if (b - c >= 31 * -s) return 0;\n"
        "  i64 k = (b - c) / -s + 1; return k >= 32 ? 0 : ~((1u << k) - 1); }\n"
        "static inline u32 AFEQ(i64 b, i64 s, i64 c) {\n"
        "  i64 d = c - b; if (s > 0 ? (d < 0 || d > 31 * s) : (d > 0 || d < 31 * s)) return 0;\n"
        "  if (d %% s) return 0; i64 q = d / s; return q >= 0 && q < 32 ? 1u << q : 0; }\n"
        "/* the lane numbers and lane bits, by chunks */\n"
        "#define L32_(F) F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), F(10), F(11), F(12), F(13), F(14), F(15),\\\n"
        "  F(16), F(17), F(18), F(19), F(20), F(21), F(22), F(23), F(24), F(25), F(26), F(27), F(28), F(29), F(30), F(31)\n"
        "#define LNUM_(l) (l)\n#define LBIT_(l) (1u << (l))\n"
        "typedef union { u64 l[32]; vu v; } vul_;\n"
        "static const vul_ IOTA_ = {{L32_(LNUM_)}}, LBIT_U_ = {{L32_(LBIT_)}};\n"
        "#define IOTA IOTA_.v\n#define LBIT LBIT_U_.v\n"
        "/* the lanes of mask mm in chunk k_, as all-ones elements */\n"
        "#define LM(mm) ((Q)((BQ(mm) & LBIT.q[k_]) != 0))\n"
        "#define LDV(p) ({ vu t_; __builtin_memcpy(&t_, (p), 256); t_; })\n"
        "#define LDQ(p) ({ Q t_; __builtin_memcpy(&t_, (p), sizeof t_); t_; })\n"
        "#define STV(p, v) do { vu t_ = (v); __builtin_memcpy((p), &t_, 256); } while (0)\n"
        "/* chunk k_ of register d gets v in the lanes of m */\n"
        "#define WR(d, v) do { Q wr_ = (v); d.q[k_] = LIKELY(m == FULL) ? wr_ : SEL(LM(m), wr_, d.q[k_]); } while (0)\n"
        "/* the same where the lanes off the mask hold nothing anyone reads */\n"
        "#define WRF(d, v) do { d.q[k_] = (v); } while (0)\n"
        "/* registers of 32-bit lanes: NWC chunks W of WL (their chunks j_ of XW) */\n"
        "typedef u32 W __attribute__((vector_size(4 * WL)));\n"
        "typedef int WI __attribute__((vector_size(4 * WL)));\n"
        "typedef float FW __attribute__((vector_size(4 * WL)));\n"
        "typedef unsigned short u16;\n"
        "typedef struct { W w[NWC]; } vn;\n"
        "typedef union { u32 l[32]; vn v; } vnu_;\n"
        "static const vnu_ IOTAW_ = {{L32_(LNUM_)}};\n#define IOTAW IOTAW_.v\n"
        "static const vnu_ LBITW_ = {{L32_(LBIT_)}};\n#define LBITW LBITW_.v.w[0]\n"
        "#define BW(x) ((W){} + (u32)(x))\n"
        "#define SELW(k, a, b) (((a) & (k)) | ((b) & ~(k)))\n"
        "#define MINW(x, k) SELW((W)((x) < (u32)(k)), (x), BW(k))\n"
        "/* the lanes of mask mm in chunk j_, as all-ones elements */\n"
        "#define LMW(mm) ((W)((BW((mm) >> (WL * j_)) & LBITW) != 0))\n"
        "/* an affine register's low halves in chunk j_ */\n"
        "#define AFW(b, st) (BW((u32)(b) + (u32)(st) * ((u32)WL * j_)) + IOTAW.w[0] * (u32)(st))\n"
        "/* WL lanes' low halves from two chunks of 64-bit slots; chunk j_ of a vu's */\n"
        "#define NWQ(a, b) ((W)__builtin_shufflevector(__builtin_convertvector((a), Q32), __builtin_convertvector((b), Q32), WIX(0)))\n"
        "#define NW(r) NWQ((r).q[2 * j_], (r).q[2 * j_ + 1])\n"
        "#define NOFV(v) ({ vu nv_ = (v); vn n_; XW(n_.w[j_] = NW(nv_);) n_; })\n"
        "/* chunk k_ (QL lanes) of a vn as zero-extended slots; all of them (a vu); lane l */\n"
        "#define QN(n) __builtin_convertvector(__builtin_shufflevector((n).w[k_ >> 1], (n).w[k_ >> 1], QIX((k_ & 1) * QL)), Q)\n"
        "#define VN(n) ({ vu vn_; XQ(vn_.q[k_] = QN(n);) vn_; })\n"
        "#define NLANE(n, l) ((u64)(n).w[(l) / WL][(l) %% WL])\n"
        "#define WRW(d, v) do { W wr_ = (v); d.w[j_] = LIKELY(m == FULL) ? wr_ : SELW(LMW(m), wr_, d.w[j_]); } while (0)\n"
        "#define WRWF(d, v) do { d.w[j_] = (v); } while (0)\n"
        "/* f32 lanes back to bits, a NaN the canonical one */\n"
        "#define WOFF(f) ({ FW f_ = (f); WI n_ = f_ != f_; W u_ = (W)f_;\\\n"
        "  (u_ & ~(W)n_) | ((W)n_ & 0x7fffffffu); })\n"
        "typedef float FQ __attribute__((vector_size(4 * QL)));\n"
        "typedef int IQ __attribute__((vector_size(4 * QL)));\n"
        "/* a chunk's f32 values (the low halves of the slots), and back (a NaN canonical) */\n"
        "#define FQOF(q) ((FQ)__builtin_convertvector((q), Q32))\n"
        "#define QOFF(f) ({ FQ f_ = (f); IQ n_ = f_ != f_; Q32 u_ = (Q32)f_;\\\n"
        "  u_ = (u_ & ~(Q32)n_) | ((Q32)n_ & 0x7fffffffu); __builtin_convertvector(u_, Q); })\n"
        "typedef unsigned char u8;\n"
        /* the host's forms: TESTQ, TESTW (a chunk's non-zero elements as bits), STMW, STM4,
         * STM8 (a chunk stored in the lanes of a mask only: a lane off it writes nothing),
         * GATHER4/8 and GATHERM4/8 (a chunk's lanes loaded from base + a, zero-extended; the
         * masked ones read nothing for a lane off the mask, whose address need not be
         * valid), FMAQ, FMAW (fused multiply-adds of a chunk) */
        "#if QL == 8 && defined(__AVX512VL__)\n#include <immintrin.h>\n"
        "#define TESTQ(x) ((u32)_mm512_test_epi64_mask((__m512i)(x), (__m512i)(x)))\n"
        "#define TESTW(x) ((u32)_mm512_test_epi32_mask((__m512i)(x), (__m512i)(x)))\n"
        "#define STMW(p, k, w) _mm512_mask_storeu_epi32((void *)(p), (__mmask16)(k), (__m512i)(w))\n"
        "#define STM4(p, k, q) _mm256_mask_storeu_epi32((void *)(p), (__mmask8)(k), (__m256i)__builtin_convertvector((q), Q32))\n"
        "#define STM8(p, k, q) _mm512_mask_storeu_epi64((void *)(p), (__mmask8)(k), (__m512i)(q))\n"
        "#define GATHER4(b, a) __builtin_convertvector((Q32)_mm512_i64gather_epi32((__m512i)(a), (const void *)(b), 1), Q)\n"
        "#define GATHER8(b, a) ((Q)_mm512_i64gather_epi64((__m512i)(a), (const void *)(b), 1))\n"
        "#define GATHERM4(b, a, k) __builtin_convertvector((Q32)_mm512_mask_i64gather_epi32(_mm256_setzero_si256(), (__mmask8)(k), (__m512i)(a), (const void *)(b), 1), Q)\n"
        "#define GATHERM8(b, a, k) ((Q)_mm512_mask_i64gather_epi64(_mm512_setzero_si512(), (__mmask8)(k), (__m512i)(a), (const void *)(b), 1))\n"
        "#define FMAW(a, b, c) ((FW)_mm512_fmadd_ps((__m512)(a), (__m512)(b), (__m512)(c)))\n"
        "#define FMAQ(a, b, c) ((FQ)_mm256_fmadd_ps((__m256)(a), (__m256)(b), (__m256)(c)))\n"
        "#elif QL == 4 && defined(__AVX2__) && defined(__FMA__)\n#include <immintrin.h>\n"
        "#define TESTQ(x) ((u32)_mm256_movemask_pd((__m256d)((Q)(x) != 0)))\n"
        "#define TESTW(x) ((u32)_mm256_movemask_ps((__m256)((W)(x) != 0)))\n"
        "#define STMW(p, k, w) _mm256_maskstore_epi32((int *)(p), (__m256i)((BW(k) & LBITW) != 0), (__m256i)(w))\n"
        "#define KMQ_(k) ((__m256i)((BQ(k) & LBIT.q[0]) != 0))\n"
        "#define KMW4_(k) ((__m128i)__builtin_shufflevector((WI)((BW(k) & LBITW) != 0), (WI)((BW(k) & LBITW) != 0), 0, 1, 2, 3))\n"
        "#define STM4(p, k, q) _mm_maskstore_epi32((int *)(p), KMW4_(k), (__m128i)__builtin_convertvector((q), Q32))\n"
        "#define STM8(p, k, q) _mm256_maskstore_epi64((long long *)(p), KMQ_(k), (__m256i)(q))\n"
        "#define GATHER4(b, a) __builtin_convertvector((Q32)_mm256_i64gather_epi32((const int *)(b), (__m256i)(a), 1), Q)\n"
        "#define GATHER8(b, a) ((Q)_mm256_i64gather_epi64((const long long *)(b), (__m256i)(a), 1))\n"
        "#define GATHERM4(b, a, k) __builtin_convertvector((Q32)_mm256_mask_i64gather_epi32(_mm_setzero_si128(), (const int *)(b), (__m256i)(a), KMW4_(k), 1), Q)\n"
        "#define GATHERM8(b, a, k) ((Q)_mm256_mask_i64gather_epi64(_mm256_setzero_si256(), (const long long *)(b), (__m256i)(a), KMQ_(k), 1))\n"
        "#define FMAW(a, b, c) ((FW)_mm256_fmadd_ps((__m256)(a), (__m256)(b), (__m256)(c)))\n"
        "#define FMAQ(a, b, c) ((FQ)_mm_fmadd_ps((__m128)(a), (__m128)(b), (__m128)(c)))\n"
        "#else\n"
        "static inline u32 TESTQ(Q x) { u32 r = 0; for (int l = 0; l < QL; l++) r |= (u32)(x[l] != 0) << l; return r; }\n"
        "static inline u32 TESTW(W x) { u32 r = 0; for (int l = 0; l < WL; l++) r |= (u32)(x[l] != 0) << l; return r; }\n"
        "#define STMW(p, k, w) do { W s_ = (w); for (int l = 0; l < WL; l++) if (((k) >> l) & 1) __builtin_memcpy((unsigned char *)(p) + l * 4, &s_[l], 4); } while (0)\n"
        "#define STM4(p, k, q) do { Q s_ = (q); for (int l = 0; l < QL; l++) if (((k) >> l) & 1) { u32 x_ = (u32)s_[l]; __builtin_memcpy((unsigned char *)(p) + l * 4, &x_, 4); } } while (0)\n"
        "#define STM8(p, k, q) do { Q s_ = (q); for (int l = 0; l < QL; l++) if (((k) >> l) & 1) __builtin_memcpy((unsigned char *)(p) + l * 8, &s_[l], 8); } while (0)\n"
        "#define GATHER4(b, a) ({ Q g_; for (int l = 0; l < QL; l++) { u32 x_; __builtin_memcpy(&x_, (b) + (a)[l], 4); g_[l] = x_; } g_; })\n"
        "#define GATHER8(b, a) ({ Q g_; for (int l = 0; l < QL; l++) __builtin_memcpy(&g_[l], (b) + (a)[l], 8); g_; })\n"
        "#define GATHERM4(b, a, k) ({ Q g_ = BQ(0); for (int l = 0; l < QL; l++) if (((k) >> l) & 1) { u32 x_; __builtin_memcpy(&x_, (b) + (a)[l], 4); g_[l] = x_; } g_; })\n"
        "#define GATHERM8(b, a, k) ({ Q g_ = BQ(0); for (int l = 0; l < QL; l++) if (((k) >> l) & 1) __builtin_memcpy(&g_[l], (b) + (a)[l], 8); g_; })\n"
        "static inline FW FMAW(FW a, FW b, FW c) { for (int l = 0; l < WL; l++) a[l] = __builtin_fmaf(a[l], b[l], c[l]); return a; }\n"
        "static inline FQ FMAQ(FQ a, FQ b, FQ c) { for (int l = 0; l < QL; l++) a[l] = __builtin_fmaf(a[l], b[l], c[l]); return a; }\n"
        "#endif\n"
        "/* a chunk stored in the lanes of mask k: all of them, one plain store; one, a scalar\n"
        " * store; none, nothing; else the masked store (a dozen cycles on some hosts) */\n"
        "#define STCW(p, k, w) do { u32 kc_ = (k); W sw_ = (w);\\\n"
        "  if (kc_ == (1u << WL) - 1u) __builtin_memcpy((p), &sw_, sizeof sw_);\\\n"
        "  else if (kc_ & (kc_ - 1u)) STMW(p, kc_, sw_);\\\n"
        "  else if (kc_) { u32 l_ = (u32)__builtin_ctz(kc_); __builtin_memcpy((unsigned char *)(p) + 4u * l_, &sw_[l_], 4); } } while (0)\n"
        "#define STCQ4(p, k, q) do { u32 kc_ = (k); Q sq_ = (q);\\\n"
        "  if (kc_ == (1u << QL) - 1u) { Q32 t_ = __builtin_convertvector(sq_, Q32); __builtin_memcpy((p), &t_, sizeof t_); }\\\n"
        "  else if (kc_ & (kc_ - 1u)) STM4(p, kc_, sq_);\\\n"
        "  else if (kc_) { u32 l_ = (u32)__builtin_ctz(kc_); u32 x_ = (u32)sq_[l_]; __builtin_memcpy((unsigned char *)(p) + 4u * l_, &x_, 4); } } while (0)\n"
        "#define STCQ8(p, k, q) do { u32 kc_ = (k); Q sq_ = (q);\\\n"
        "  if (kc_ == (1u << QL) - 1u) __builtin_memcpy((p), &sq_, sizeof sq_);\\\n"
        "  else if (kc_ & (kc_ - 1u)) STM8(p, kc_, sq_);\\\n"
        "  else if (kc_) { u32 l_ = (u32)__builtin_ctz(kc_); __builtin_memcpy((unsigned char *)(p) + 8u * l_, &sq_[l_], 8); } } while (0)\n"
        "/* a chunk of lanes l loaded from sp_ + (b + l) * sst_ (values of type T; every address\n"
        " * was checked): SLW, 32-bit lanes; SLQ, slots */\n"
        "#define SLE_(T, l) ({ T x_; __builtin_memcpy(&x_, sp_ + (i64)(l) * sst_, sizeof x_); x_; })\n"
        "#define SL4_(T, b) SLE_(T, b), SLE_(T, (b) + 1), SLE_(T, (b) + 2), SLE_(T, (b) + 3)\n"
        "#define SL8_(T, b) SL4_(T, b), SL4_(T, (b) + 4)\n"
        "#define SL16_(T, b) SL8_(T, b), SL8_(T, (b) + 8)\n"
        "#if QL == 8\n#define SLW(T, b) ((W){SL16_(T, b)})\n#define SLQ(T, b) ((Q){SL8_(T, b)})\n"
        "#else\n#define SLW(T, b) ((W){SL8_(T, b)})\n#define SLQ(T, b) ((Q){SL4_(T, b)})\n#endif\n"
        "/* a chunk's lanes loaded from base + a: one vector load where its addresses are\n"
        " * consecutive and one scalar load where they are equal (rows of 16 or 8 threads:\n"
        " * tile[ty][k], tile[k][tx]), else a gather (every address was checked) */\n"
        "#define LDC4(b, a) ({ Q a_ = (a); u64 c_ = a_[0]; Q r_ = a_ - BQ(c_); Q v_;\\\n"
        "  if (!TESTQ(r_ - IOTA.q[0] * 4u)) { Q32 t_; __builtin_memcpy(&t_, (b) + c_, sizeof t_); v_ = __builtin_convertvector(t_, Q); }\\\n"
        "  else if (!TESTQ(r_)) { u32 x_; __builtin_memcpy(&x_, (b) + c_, 4); v_ = BQ(x_); }\\\n"
        "  else v_ = GATHER4(b, a_); v_; })\n"
        "#define LDC8(b, a) ({ Q a_ = (a); u64 c_ = a_[0]; Q r_ = a_ - BQ(c_); Q v_;\\\n"
        "  if (!TESTQ(r_ - IOTA.q[0] * 8u)) __builtin_memcpy(&v_, (b) + c_, sizeof v_);\\\n"
        "  else if (!TESTQ(r_)) { u64 x_; __builtin_memcpy(&x_, (b) + c_, 8); v_ = BQ(x_); }\\\n"
        "  else v_ = GATHER8(b, a_); v_; })\n\n",
        sizeof(exec_native_block_view), sizeof(exec_wstate),
        offsetof(exec_wstate, h) + offsetof(exec_warp, alive));
    jit_vemit_mem_prelude(o);
    jit_vemit_rows_prelude(o);
    jit_vemit_lanes_prelude(o);
}
