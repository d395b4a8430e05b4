/* exec/internal.h — the contract inside the SIMT core.
 *
 * Registers: every register of a function frame is a lane vector of 32 uint64_t slots,
 * R[slot * 32 + lane]. A value narrower than 64 bits sits in the low bits, zero-extended
 * (so an .s32 result -1 is stored as 0x00000000ffffffff); readers truncate to their type.
 * f32 values are stored as their bit pattern in the low 32 bits, f16 in the low 16.
 * Predicates are not slots: each is a 32-bit lane mask, P[pred].
 *
 * The decoder turns every source operand an ALU handler sees into a slot: immediates
 * become constant slots (filled once per frame), special registers are read into a
 * scratch slot by an instruction the decoder inserts before. So an ALU handler only ever
 * reads R[in->a[i]*32+lane], writes R[in->d[0]*32+lane], and reads/writes P[...].
 *
 * A handler runs one instruction for the lanes in mask (active lanes whose guard
 * predicate holds; never 0). It must not touch lanes outside mask.
 */
#ifndef VCUDA_EXEC_INTERNAL_H
#define VCUDA_EXEC_INTERNAL_H

#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include "exec.h"

#define EXEC_WARP_SIZE 32
#define EXEC_FULL_MASK 0xffffffffu

typedef struct exec_warp exec_warp;
typedef struct exec_insn exec_insn;

typedef void (*exec_fn)(exec_warp *w, const exec_insn *in, uint32_t mask);

/* One pre-decoded instruction. */
struct exec_insn {
    exec_fn fn;          /* handler */
    uint16_t op;         /* ptx_opcode, for counters and messages */
    uint8_t type;        /* principal ptx_type (destination type for cvt) */
    uint8_t type2;       /* second ptx_type (source type for cvt, set, slct), else 0 */
    uint8_t nd, na;      /* number of destination and source operands used */
    uint8_t vec;         /* vector width for ld/st (1, 2, 4) */
    uint8_t space;       /* ptx_space for memory instructions */
    uint32_t flags;      /* EXEC_F_* below, and handler-specific bits */
    int32_t guard;       /* guard predicate index, -1 = always */
    bool guard_neg;
    uint8_t obs;         /* what an observer is told of it beyond its issue (exec/core.h,
                          * enum exec_obs_kind; set by the decoder) */
    uint32_t d[4];       /* destination slots (or predicate indices where the op writes P) */
    uint32_t a[4];       /* source slots (or predicate indices where the op reads P) */
    int64_t imm;         /* address offset, shfl clamp, handler-specific constant */
    int32_t target;      /* branch target pc, callee index, ... */
    int32_t reconv;      /* reconvergence pc for branches, -1 = function exit */
    uint32_t aux;        /* handler-specific (e.g. prmt mode, comparison, rounding) */
    uint32_t src_index;  /* src's index in its function (an observer's tally entry) */
    const ptx_insn *src; /* the IR instruction, for diagnostics and observers */
    exec_fn lane_fn;     /* when fn runs the instruction once for a warp-uniform result
                          * (exec/uniform.c): the handler it runs for one lane; else NULL */
};

/* Flags shared by all instruction classes. */
#define EXEC_F_FTZ     0x0001u
#define EXEC_F_SAT     0x0002u
#define EXEC_F_APPROX  0x0004u
#define EXEC_F_NEG_A2  0x0008u  /* third source predicate negated (setp ... !%p) */
#define EXEC_F_D_PRED  0x0010u  /* d[0] is a predicate */
#define EXEC_F_D2_PRED 0x0020u  /* d[1] is a predicate (setp %p|%q) */
#define EXEC_F_CC_OUT  0x0040u  /* writes the carry flag (add.cc, sub.cc, mad.cc) */
#define EXEC_F_CC_IN   0x0080u  /* reads the carry flag (addc, subc, madc) */
#define EXEC_F_HANDLER 0x0100u  /* first of the bits a handler may define for itself */

/* Rounding mode in exec_insn.aux for float ops and cvt (low 4 bits). */
enum { EXEC_RND_DEFAULT = 0, EXEC_RND_RN, EXEC_RND_RZ, EXEC_RND_RM, EXEC_RND_RP,
       EXEC_RND_RNI, EXEC_RND_RZI, EXEC_RND_RMI, EXEC_RND_RPI, EXEC_RND_RNA };

/* The warp as handlers see it. The core (exec/warp.c) owns the rest of its state. */
struct exec_warp {
    uint64_t *R;            /* current frame's slots: R[slot*32 + lane] */
    uint32_t *P;            /* current frame's predicates */
    uint32_t carry;         /* per-lane carry flag (CC.CF) as a lane mask */
    uint32_t active;        /* lanes currently executing (before the guard) */
    uint32_t alive;         /* lanes that have not exited */
    uint32_t warp_in_block; /* warp index within its block */
    uint32_t nlanes;        /* lanes that exist (the last warp of a block may be partial) */
    struct exec_block *block; /* the block context (shared memory, barriers, fault) */
    uint32_t fault;         /* non-zero once a handler reported a fault (see exec_fault_at) */
    /* Warp collectives (shfl/vote/match/redux/elect .sync) whose membermask does not fit
     * the lanes executing them, for the checkers: the first such instruction of this
     * warp (NULL when none), the non-exited lanes its membermask named that were not
     * executing it, and the executing lanes missing from their own membermask. The
     * collective itself uses the lanes both executing and named. */
    const exec_insn *sync_mask_insn;
    uint32_t sync_mask_missing;
    uint32_t sync_mask_excluded;
};

/* Lane iteration: the body runs once per lane in mask, lane in [0,32).
 * The full-mask case is a plain counted loop the compiler can vectorise. */
#define EXEC_FOR_LANES(mask, lane)                                                      \
    for (uint32_t exec_m_ = (mask), lane = 0,                                            \
                  exec_full_ = (exec_m_ == EXEC_FULL_MASK);                              \
         lane < EXEC_WARP_SIZE; lane++)                                                  \
        if (exec_full_ || ((exec_m_ >> lane) & 1u))

#define EXEC_R(w, slot, lane) ((w)->R[(size_t)(slot) * EXEC_WARP_SIZE + (lane)])

/* Report a device fault from inside a handler: records the first fault of the block with
 * the failing lane and instruction; the core stops the block after the handler returns.
 * kind is an exec_fault_kind; detail is a short phrase ("address 0x... is out of bounds"). */
void exec_fault_at(exec_warp *w, const exec_insn *in, uint32_t lane, int kind,
                   const char *detail);

/* ---- the decoder (exec/lower.c) ---- */

typedef struct exec_decoder exec_decoder;

/* Resolve operand o (of instruction pi) into a slot for reading: registers map to their
 * slot; immediates to a constant slot holding type t's bit pattern (PTX rules: an integer
 * immediate given to an f32 op is taken as a value and converted, 0fXXXXXXXX as bits);
 * symbols to a constant slot holding the symbol's address in its own state space
 * (module .global/.const: the device address; .shared: the shared-space offset; .local
 * depot: the local-space offset); special registers to a scratch slot filled by an
 * instruction the decoder inserts before this one. Returns false (error recorded) when the
 * operand cannot be read as t. */
bool exec_dec_src(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, ptx_type t,
                  uint32_t *slot);
/* Resolve operand o as a destination register slot ('_' sink gets a scratch slot). */
bool exec_dec_dst(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, uint32_t *slot);
/* Resolve operand o as a predicate index (setp destinations, selp, and/or.pred, ...).
 * *neg is set for a "!%p" source; immediates 0/1 map to constant predicates. */
bool exec_dec_pred(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o,
                   uint32_t *pred, bool *neg);
/* Element k of a VEC/LIST operand. */
const ptx_operand *exec_dec_vec_elem(exec_decoder *d, const ptx_operand *vec, unsigned k);
/* The declared ptx_type of register operand o (PTX_T_NONE for non-registers). */
ptx_type exec_dec_reg_type(exec_decoder *d, const ptx_operand *o);
/* Record a decode error "<ptx>:<line>:<col>: error: <fmt...>" and return false. */
bool exec_dec_error(exec_decoder *d, const ptx_insn *pi, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Decode an arithmetic, logic, conversion, comparison or warp-collective instruction
 * (exec/alu_*.c, exec/warp_ops.c). Returns 1 when it decoded pi into *out (fn set),
 * 0 when pi is not one of its opcodes, -1 on error (exec_dec_error called).
 * Ops owned: abs add addc and bfe bfi bfind bmsk brev clz cnot copysign cos cvt
 * div dp2a dp4a ex2 fma fns lg2 lop3 mad mad24 madc max min mov(register/immediate/sreg
 * forms only) mul mul24 neg not or popc prmt rcp rem rsqrt sad selp set setp shf shl shr
 * sin slct sqrt sub subc szext tanh testp xor, and activemask elect match redux shfl vote. */
int exec_decode_alu(exec_decoder *d, const ptx_insn *pi, exec_insn *out);
/* Decode a SIMD video instruction (vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4;
 * exec/alu_video.c). Same return convention as exec_decode_alu. */
int exec_decode_video(exec_decoder *d, const ptx_insn *pi, exec_insn *out);

#endif
