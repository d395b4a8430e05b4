/* ptx/ir.h — the module IR: what the PTX parser produces and exec/ lowers.
 *
 * The IR is syntactic and fully resolved: every register, symbol, label and special
 * register is an index, never a string the executor must look up. Instruction semantics
 * (which handler, which type) are decided in exec/, not here.
 * Memory: a ptx_module owns everything reachable from it; ptx_module_free releases it.
 */
#ifndef VCUDA_PTX_IR_H
#define VCUDA_PTX_IR_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* ---- opcode, type and modifier enums (one list each, see the .def files) ---- */
#define PTX_OPF_BRANCH 0x01u
#define PTX_OPF_MEM    0x02u
#define PTX_OPF_SYNC   0x04u
#define PTX_OPF_WARP   0x08u
#define PTX_OPF_NODST  0x10u

typedef enum ptx_opcode {
#define OP(e, s, f) PTX_OP_##e,
#include "opcodes.def"
#undef OP
    PTX_OP_COUNT
} ptx_opcode;

typedef enum ptx_type {
    PTX_T_NONE = 0,
#define TY(e, s, n, k) PTX_T_##e,
#include "types.def"
#undef TY
    PTX_T_COUNT
} ptx_type;

typedef enum ptx_mod {
    PTX_MOD_NONE = 0,
#define MOD(e, s) PTX_MOD_##e,
#include "modifiers.def"
#undef MOD
    PTX_MOD_COUNT
} ptx_mod;
/* an instruction keeps each of its modifiers in 16 bits (ptx_insn.mods) */
_Static_assert(PTX_MOD_COUNT <= 65536, "too many PTX modifiers for ptx_insn.mods");

/* Tables generated from the .def files (ptx/tables.c). */
extern const char *const ptx_opcode_names[PTX_OP_COUNT];
extern const uint32_t ptx_opcode_flags[PTX_OP_COUNT];
extern const char *const ptx_type_names[PTX_T_COUNT];
extern const uint8_t ptx_type_sizes[PTX_T_COUNT];  /* bytes; 0 for none/pred */
extern const char ptx_type_kinds[PTX_T_COUNT];     /* 'b','u','s','f','p','x', 0 */
extern const char *const ptx_mod_names[PTX_MOD_COUNT];

/* ---- special registers ---- */
typedef enum ptx_sreg {
    PTX_SREG_TID_X, PTX_SREG_TID_Y, PTX_SREG_TID_Z,
    PTX_SREG_NTID_X, PTX_SREG_NTID_Y, PTX_SREG_NTID_Z,
    PTX_SREG_CTAID_X, PTX_SREG_CTAID_Y, PTX_SREG_CTAID_Z,
    PTX_SREG_NCTAID_X, PTX_SREG_NCTAID_Y, PTX_SREG_NCTAID_Z,
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID, PTX_SREG_SMID, PTX_SREG_NSMID,
    PTX_SREG_GRIDID,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT,
    PTX_SREG_LANEMASK_GE, PTX_SREG_LANEMASK_GT,
    PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64, PTX_SREG_GLOBALTIMER,
    PTX_SREG_GLOBALTIMER_LO, PTX_SREG_GLOBALTIMER_HI,
    PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_TOTAL_SMEM_SIZE,
    PTX_SREG_ENVREG0, /* %envreg0..%envreg31 follow */
    /* thread block clusters (sm_90) */
    PTX_SREG_CLUSTERID_X = PTX_SREG_ENVREG0 + 32, PTX_SREG_CLUSTERID_Y, PTX_SREG_CLUSTERID_Z,
    PTX_SREG_NCLUSTERID_X, PTX_SREG_NCLUSTERID_Y, PTX_SREG_NCLUSTERID_Z,
    PTX_SREG_CLUSTER_CTAID_X, PTX_SREG_CLUSTER_CTAID_Y, PTX_SREG_CLUSTER_CTAID_Z,
    PTX_SREG_CLUSTER_NCTAID_X, PTX_SREG_CLUSTER_NCTAID_Y, PTX_SREG_CLUSTER_NCTAID_Z,
    PTX_SREG_CLUSTER_CTARANK, PTX_SREG_CLUSTER_NCTARANK, PTX_SREG_IS_EXPLICIT_CLUSTER,
    PTX_SREG_AGGR_SMEM_SIZE,
    /* shared memory the driver reserves (grid sync uses it) */
    PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN, PTX_SREG_RESERVED_SMEM_OFFSET_END,
    PTX_SREG_RESERVED_SMEM_OFFSET_CAP, PTX_SREG_RESERVED_SMEM_OFFSET_0,
    PTX_SREG_RESERVED_SMEM_OFFSET_1,
    PTX_SREG_CURRENT_GRAPH_EXEC, /* the device graph the grid belongs to (device graph launch) */
    PTX_SREG_COUNT
} ptx_sreg;

/* ---- state spaces of declarations ---- */
typedef enum ptx_space {
    PTX_SPACE_NONE = 0, PTX_SPACE_REG, PTX_SPACE_GLOBAL, PTX_SPACE_SHARED, PTX_SPACE_LOCAL,
    PTX_SPACE_CONST, PTX_SPACE_PARAM, PTX_SPACE_GENERIC, PTX_SPACE_TEX
} ptx_space;

/* Where a line came from: the PTX text, and the CUDA source when .loc says so. */
typedef struct ptx_srcloc {
    uint32_t ptx_line;   /* 1-based line in the PTX text */
    uint16_t ptx_col;    /* 1-based column of the instruction's first token */
    uint16_t file;       /* index into ptx_module.files (0 = none; .file numbers as given) */
    uint32_t line;       /* CUDA source line from the most recent .loc (0 = none) */
    /* where the code of file:line was inlined into its caller: the outermost inlined_at
     * of the .loc (the kernel's own source line), or 0 when it was not inlined */
    uint16_t call_file;
    uint32_t call_line;
} ptx_srcloc;

/* ---- operands ---- */
typedef enum ptx_opnd_kind {
    PTX_OPND_NONE = 0,
    PTX_OPND_REG,     /* reg: index in ptx_func.regs; reg2 >= 0 for "%p|%q" pairs */
    PTX_OPND_SREG,    /* sreg */
    PTX_OPND_IMM_INT, /* ival */
    PTX_OPND_IMM_F32, /* fval holds the value; bits in ival (0fXXXXXXXX or decimal) */
    PTX_OPND_IMM_F64, /* fval holds the value; bits in ival (0dXXXXXXXXXXXXXXXX or decimal) */
    PTX_OPND_SYM,     /* sym: a variable/function as a value (its address), plus ival offset */
    PTX_OPND_ADDR,    /* [base + ival]: base is reg (>= 0) or sym (>= 0) or neither (absolute) */
    PTX_OPND_VEC,     /* {e0, e1, ...}: vec_first..vec_first+vec_n-1 in ptx_func.vec_elems */
    PTX_OPND_LABEL,   /* label: index in ptx_func.labels */
    PTX_OPND_SINK,    /* '_' */
    PTX_OPND_LIST     /* (a, b, ...) call argument/return list, stored like VEC */
} ptx_opnd_kind;

/* Operand shapes of the control instructions:
 *   bra L                 LABEL
 *   brx.idx idx, T        REG (or IMM_INT), then LIST of LABELs: the targets of the
 *                         ".branchtargets" declaration T, in order
 *   call [(rets),] f [, (args)] [, proto]
 *                         in source order: an optional LIST of return parameters, the
 *                         callee (SYM of scope PTX_SYM_FUNC, or REG for an indirect call),
 *                         an optional LIST of arguments (possibly empty), and for indirect
 *                         calls an optional LABEL naming the ".callprototype". The callee is
 *                         the first operand that is not a LIST. Call arguments and returns
 *                         are normally .param variables declared in the enclosing { } block
 *                         (SYM, scope PTX_SYM_LOCAL_VAR).
 *   tex/tld4/suld/sust d, [h, {c}]  /  [h, s, {c}]
 *                         the bracket's parts are flattened: ADDR h (reg or symbol), then
 *                         the sampler s if present, then the coordinate VEC; operands that
 *                         follow the bracket come after them. */

/* A symbol reference: module-level (variables, functions) or function-local
 * (.local/.shared/.param declared in a body, and the function's own parameters). */
typedef enum ptx_sym_scope {
    PTX_SYM_MODULE_VAR, PTX_SYM_FUNC, PTX_SYM_LOCAL_VAR, PTX_SYM_PARAM, PTX_SYM_RETPARAM
} ptx_sym_scope;

typedef struct ptx_symref {
    uint8_t scope;    /* ptx_sym_scope */
    int32_t index;    /* into module vars / module funcs / func locals / func params / rets */
} ptx_symref;

typedef struct ptx_operand {
    uint8_t kind;     /* ptx_opnd_kind */
    bool neg;         /* "!%p" (predicate negation) or "-x" where PTX allows it */
    int32_t reg;      /* REG / ADDR base register, else -1 */
    int32_t reg2;     /* second predicate of "%p|%q", else -1 */
    uint8_t sreg;     /* ptx_sreg for SREG */
    uint16_t sel;     /* video instructions' byte/half selector or mask ("%r1.b3210",
                       * "%r1.h0"): PTX_SEL_* below; 0 when none */
    ptx_symref sym;   /* SYM / ADDR base symbol (index -1 when unused) */
    int32_t label;    /* LABEL */
    uint32_t vec_first, vec_n; /* VEC / LIST elements (each a ptx_operand) */
    int64_t ival;     /* immediate, or address/symbol offset, or float bits */
    double fval;      /* float immediate value */
} ptx_operand;

/* A selector's encoding: present, bytes or halves, its digits (1 to 4), each 3 bits, the
 * last written digit (element 0's) lowest. */
#define PTX_SEL_PRESENT 0x8000u
#define PTX_SEL_HALF 0x4000u
#define PTX_SEL_N(s) ((((unsigned)(s) >> 12) & 3u) + 1u)
#define PTX_SEL_DIGIT(s, k) (((unsigned)(s) >> (3u * (k))) & 7u)

#define PTX_MAX_OPNDS 10 /* wgmma.mma_async.sp ... .f16: d, a, b, meta, sel, scale-d, four immediates */
#define PTX_MAX_MODS 10
#define PTX_MAX_TYPES 4 /* mma.sync ... .f32.bf16.bf16.f32 */

typedef struct ptx_insn {
    uint16_t op;                 /* ptx_opcode */
    uint8_t ntypes, nmods, nopnds;
    uint8_t types[PTX_MAX_TYPES];/* ptx_type modifiers in source order (cvt.f32.s32 -> f32, s32) */
    uint16_t mods[PTX_MAX_MODS]; /* ptx_mod modifiers in source order, types excluded */
    int32_t guard;               /* guard predicate register, -1 when unguarded */
    bool guard_neg;              /* "@!%p" */
    ptx_operand opnd[PTX_MAX_OPNDS];
    /* For a divergent branch (guarded bra, brx, guarded ret/exit/trap): index of the
     * reconvergence instruction (first of the immediate post-dominator of the branch's
     * block), or -1 when it reconverges only at function exit. -1 for everything else.
     * See ptx/cfg.c. */
    int32_t reconv;
    ptx_srcloc loc;
} ptx_insn;

/* ---- declarations ---- */
typedef struct ptx_reg {
    char *name;        /* "%r5" */
    uint8_t type;      /* ptx_type */
} ptx_reg;

typedef struct ptx_label {
    char *name;
    int32_t insn;      /* index of the instruction that follows the label (ninsns when the
                        * label ends the body) */
} ptx_label;

/* A variable: module-level .global/.const/.shared, or function-local .local/.shared/.param,
 * or a function parameter. */
typedef struct ptx_reloc {
    uint64_t offset;   /* byte offset in init where the address goes */
    ptx_symref sym;    /* whose address (variable or function) */
    int64_t addend;
    bool generic;      /* generic(sym) rather than the symbol's own-space address */
    uint8_t size;      /* 4 or 8 */
} ptx_reloc;

typedef struct ptx_var {
    char *name;
    uint8_t space;      /* ptx_space */
    uint8_t type;       /* element ptx_type */
    uint32_t align;     /* bytes; natural alignment of type when not given */
    uint64_t size;      /* total bytes (element size * product of dims); 0 for "[]" */
    bool is_extern, is_visible, is_weak, unsized; /* unsized: declared with [] */
    bool is_managed;    /* .attribute(.managed): a __managed__ variable */
    uint8_t *init;      /* size bytes of initial value, or NULL (zero) */
    ptx_reloc *relocs;  /* addresses inside init to patch at load time */
    uint32_t nrelocs;
    /* parameter attributes (.ptr .global .align N) */
    uint8_t ptr_space;
    uint32_t ptr_align;
    ptx_srcloc loc;
} ptx_var;

typedef struct ptx_func {
    char *name;
    bool is_entry, is_visible, is_extern, is_weak, noreturn;
    ptx_var *params;  uint32_t nparams;   /* in declaration order */
    ptx_var *rets;    uint32_t nrets;     /* .func return parameters */
    ptx_reg *regs;    uint32_t nregs;     /* every register declared in any scope; a name
                                           * declared again in an inner { } is a new entry */
    ptx_var *locals;  uint32_t nlocals;   /* .local/.shared/.param declared in the body */
    ptx_label *labels; uint32_t nlabels;
    ptx_insn *insns;  uint32_t ninsns;    /* empty for a declaration without body */
    ptx_operand *vec_elems; uint32_t nvec_elems;
    /* performance directives; 0 when absent */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg, maxclusterrank;
    uint32_t reqnctapercluster[3];        /* .reqnctapercluster; 0 when absent */
    bool explicitcluster;                 /* .explicitcluster */
    ptx_srcloc loc;
} ptx_func;

typedef struct ptx_module {
    char *source_name;          /* what error messages call this text */
    uint32_t version_major, version_minor; /* .version */
    uint32_t target_sm;         /* .target sm_XX -> XX (90 for sm_90a too) */
    bool target_debug;          /* .target ..., debug (nvcc -G: ptxas assembles it at -O0) */
    uint32_t address_size;      /* 32 or 64 */
    ptx_var *vars;   uint32_t nvars;   /* module-level variables */
    ptx_func *funcs; uint32_t nfuncs;  /* entries and .funcs, declarations included */
    char **files;    uint32_t nfiles;  /* .file N "name": files[N] (NULL where not given) */
} ptx_module;

/* ---- parser API (ptx/parser.c) ---- */

/* Parse PTX text. On success returns a module; on failure returns NULL and writes
 * "<name>:<line>:<col>: error: <what>" into err. */
ptx_module *ptx_parse(const char *text, size_t len, const char *source_name,
                      char *err, size_t errlen);
void ptx_module_free(ptx_module *m);

/* Lookups by name, for the loader (not for the hot path). -1 when absent. */
int ptx_find_func(const ptx_module *m, const char *name);
int ptx_find_var(const ptx_module *m, const char *name);

/* ---- linking (ptx/link.c) ---- */

/* Link separately compiled modules (relocatable device code) into one. Every .extern
 * function or variable is bound to the .visible (or else .weak) definition of that name in
 * any module; a function no module defines stays one declaration (the executor serves the
 * builtins: vprintf, malloc, the device runtime). Takes ownership of mods[0..n-1], also on
 * failure. On failure (two .visible definitions of a name, an .extern variable nobody
 * defines, declarations that disagree) returns NULL with "<name>: error: <what>" in err.
 * The result's source_name is name. */
ptx_module *ptx_link(ptx_module **mods, uint32_t n, const char *name, char *err, size_t errlen);

/* ---- printing (ptx/print.c), for diagnostics and tests ---- */

/* An instruction as PTX text ("@%p1 bra $L__BB0_2;"), modifiers before types; returns buf. */
const char *ptx_insn_str(const ptx_module *m, const ptx_func *f, const ptx_insn *in,
                         char *buf, size_t n);
const char *ptx_operand_str(const ptx_module *m, const ptx_func *f, const ptx_operand *op,
                            char *buf, size_t n);
/* "%tid.x", "%envreg3" (buf is used for the envregs). */
const char *ptx_sreg_name(ptx_sreg s, char *buf, size_t n);
/* Name of the variable, function or parameter a symbol reference designates. */
const char *ptx_symref_name(const ptx_module *m, const ptx_func *f, ptx_symref s);

/* Does insn carry modifier mod? */
static inline bool ptx_insn_has_mod(const ptx_insn *in, ptx_mod mod) {
    for (unsigned i = 0; i < in->nmods; i++)
        if (in->mods[i] == mod) return true;
    return false;
}

#endif
