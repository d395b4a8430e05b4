/* ptx/parser_internal.h — state and helpers shared by the parser's files:
 *   parser.c       module level: directives, ptx_parse, ptx_module_free, lookups
 *   parser_decl.c  variables, parameters, initializers, function headers
 *   parser_body.c  function bodies: scopes, register and local declarations, labels
 *   parser_insn.c  instructions and operands
 *   cfg.c          basic blocks and reconvergence points
 * Errors unwind with longjmp to ptx_parse; everything allocated is reachable from the
 * module being built or from the parser, so the unwinding path frees it all.
 */
#ifndef VCUDA_PTX_PARSER_INTERNAL_H
#define VCUDA_PTX_PARSER_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"
#include "lexer.h"
#include "names.h"

/* Kinds of bindings in the name tables. */
enum {
    PTX_NK_NONE = 0,
    /* keywords */
    PTX_NK_OPCODE, PTX_NK_TYPE, PTX_NK_MOD,
    /* module scope */
    PTX_NK_VAR, PTX_NK_FUNC,
    /* function scope (value: index into regs / locals / params / rets) */
    PTX_NK_REG, PTX_NK_LOCAL, PTX_NK_PARAM, PTX_NK_RET
};

/* A binding hidden by a declaration in an inner scope, restored when that scope closes. */
typedef struct ptx_shadow {
    const char *key;
    uint32_t len;
    uint32_t scope;           /* depth of the scope that hid it */
    uint8_t kind;             /* the hidden binding (kind 0: the name was unbound) */
    int32_t value;
    uint32_t depth;
    bool label;               /* a label (ptx_parser.labels), not a register or variable */
} ptx_shadow;

/* Parser-side facts about a label of the current function. */
typedef struct ptx_label_info {
    bool defined;
    uint32_t ref_line, ref_col;   /* first use, for "undeclared label" */
    int32_t targets_first;        /* .branchtargets list in ptx_parser.targets, or -1 */
    uint32_t ntargets;
} ptx_label_info;

typedef struct ptx_parser {
    ptx_lexer lx;
    ptx_token tok;            /* current token */
    ptx_token ahead;          /* one token of lookahead when have_ahead */
    bool have_ahead;
    const char *source_name;
    char *err;
    size_t errlen;
    jmp_buf fail;

    ptx_module *m;
    uint32_t vars_cap, funcs_cap, files_cap;
    ptx_name_table opcodes;   /* base opcodes */
    ptx_name_table dotwords;  /* types and modifiers, without their '.' */
    ptx_name_table globals;   /* module variables and functions */

    /* The function being parsed (index into m->funcs, -1 outside functions). */
    int32_t fi;
    uint32_t params_cap, rets_cap, regs_cap, locals_cap, labels_cap, insns_cap, vec_cap;
    ptx_name_table scope;     /* registers, locals, parameters */
    ptx_name_table labels;
    uint32_t depth;           /* brace depth inside the body (1 = the body itself) */
    ptx_shadow *shadows;
    uint32_t nshadows, shadows_cap;
    ptx_label_info *label_info;
    uint32_t label_info_cap;
    int32_t *targets;         /* label indices of .branchtargets lists */
    uint32_t ntargets, targets_cap;

    /* .loc state: applies to the instructions that follow. */
    uint16_t loc_file;
    uint32_t loc_line;
    uint16_t loc_call_file;     /* outermost inlined_at of the current .loc, 0 = none */
    uint32_t loc_call_line;

    /* Scratch for initializers. */
    uint8_t *init_buf;
    size_t init_len, init_cap;
    struct ptx_mask_byte *mask_bytes;
    uint32_t nmask_bytes, mask_bytes_cap;
} ptx_parser;

/* One byte of an address given as mask(sym) in a byte-array initializer. */
typedef struct ptx_mask_byte {
    uint64_t offset;          /* byte offset in the initializer */
    ptx_symref sym;
    int64_t addend;
    bool generic;
    uint8_t shift;            /* which byte of the address (mask 0xFF << 8*shift) */
} ptx_mask_byte;

/* ---- errors (never return) ---- */
_Noreturn void ptx_fail(ptx_parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
_Noreturn void ptx_fail_tok(ptx_parser *p, const ptx_token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "expected X, found Y" at the current token. */
_Noreturn void ptx_fail_expected(ptx_parser *p, const char *what);
/* A short printable description of a token, for messages ("'foo'", "end of input"). */
const char *ptx_tok_desc(const ptx_token *t, char *buf, size_t n);

/* ---- memory (fail with "out of memory" instead of returning NULL) ---- */
void *ptx_xrealloc(ptx_parser *p, void *ptr, size_t size);
char *ptx_xstrndup(ptx_parser *p, const char *s, size_t n);
/* Make room for one more element in *arr (count n, capacity *cap); the new element is
 * zeroed. Returns its address. */
void *ptx_grow1(ptx_parser *p, void **arr, uint32_t n, uint32_t *cap, size_t elem);
#define PTX_PUSH(p, arr, n, cap) \
    ((__typeof__(arr))ptx_grow1((p), (void **)&(arr), (n), &(cap), sizeof *(arr)))

/* ---- tokens ---- */
void ptx_next(ptx_parser *p);
const ptx_token *ptx_peek(ptx_parser *p);
void ptx_expect_punct(ptx_parser *p, char c, const char *context);
bool ptx_accept_punct(ptx_parser *p, char c);
/* Current token must be an integer literal (optionally negative when allow_neg). */
int64_t ptx_expect_int(ptx_parser *p, const char *context, bool allow_neg);
/* Keyword lookup: kind PTX_NK_OPCODE (an opcode spelling) or PTX_NK_TYPE / PTX_NK_MOD (a
 * dot word's text without the dot). NULL when s is not a keyword of that kind. */
const ptx_name_entry *ptx_keyword(ptx_parser *p, const char *s, uint32_t len, uint8_t kind);
/* The ptx_type a ".type" token names, or PTX_T_NONE. */
ptx_type ptx_tok_type(ptx_parser *p, const ptx_token *t);

/* ---- module directives that may also appear in bodies (parser.c) ---- */
void ptx_parse_loc(ptx_parser *p);      /* at .loc: updates the line given to instructions */
void ptx_parse_pragma(ptx_parser *p);   /* at .pragma: accepted and ignored */

/* ---- declarations (parser_decl.c) ---- */
/* At a state-space dot word: parse a module-level variable declaration. */
void ptx_parse_module_var(ptx_parser *p, bool is_extern, bool is_visible, bool is_weak);
/* At .entry or .func: parse the header and (if present) the body. */
void ptx_parse_function(ptx_parser *p, bool is_extern, bool is_visible, bool is_weak);
/* Parse a variable declaration's attributes, type, name, dims and initializer into v
 * (space already set, current token just after the space). allow_init: '=' permitted.
 * Does not consume the terminating ';' or ','. */
void ptx_parse_var_decl(ptx_parser *p, ptx_var *v, bool allow_init);
/* Free what a ptx_var owns (not v itself). */
void ptx_var_release(ptx_var *v);
void ptx_func_release(ptx_func *f);
/* Resolve a module symbol (variable or function) by name, or return false. */
bool ptx_lookup_global(ptx_parser *p, const char *s, uint32_t len, ptx_symref *out);

/* ---- bodies and instructions (parser_body.c, parser_insn.c) ---- */
void ptx_parse_body(ptx_parser *p);
/* At the opcode identifier (guard already parsed into in). */
void ptx_parse_insn(ptx_parser *p, ptx_insn *in);
/* Label index for a name (created unbound on first mention, at the given position). */
int32_t ptx_label_ref(ptx_parser *p, const char *s, uint32_t len, uint32_t line, uint32_t col);
/* Look a name up in the function scope: kind PTX_NK_* and value, or PTX_NK_NONE. */
uint8_t ptx_lookup_scope(ptx_parser *p, const char *s, uint32_t len, int32_t *value);

static inline ptx_func *ptx_cur_func(ptx_parser *p) { return &p->m->funcs[p->fi]; }

/* ---- control flow (cfg.c) ---- */
/* Fill reconv of every branch of f. Returns false (message in err) on failure. */
bool ptx_cfg_build(ptx_func *f, char *err, size_t errlen);

#endif
