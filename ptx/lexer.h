/* ptx/lexer.h — tokens of PTX text.
 *
 * The lexer hands out one token at a time; token text points into the source (no copies).
 * Identifiers include register and symbol names (%r12, $L__BB0_2, _Z4vaddPKfS0_Pfi, $str);
 * a '.' followed by a word is one "dot word" token (.version, .global, .shared::cta,
 * .L2::cache_hint, .x); numbers carry their decoded value.
 */
#ifndef VCUDA_PTX_LEXER_H
#define VCUDA_PTX_LEXER_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef enum ptx_tok_kind {
    PTX_TOK_EOF = 0,
    PTX_TOK_IDENT,    /* name, register, label; "_" alone is the sink */
    PTX_TOK_DOTWORD,  /* ".word" (directive, modifier, type, special-register suffix) */
    PTX_TOK_INT,      /* ival: value (decimal, 0x hex, 0b binary, 0 octal, optional U) */
    PTX_TOK_F32,      /* 0fXXXXXXXX: ival = bits, fval = value */
    PTX_TOK_F64,      /* 0dXXXXXXXXXXXXXXXX: ival = bits, fval = value */
    PTX_TOK_FLOAT,    /* decimal float literal (1.5, 1e-3): fval */
    PTX_TOK_STRING,   /* "...": text/len include the quotes */
    PTX_TOK_PUNCT,    /* one character: , ; : [ ] { } ( ) < > + - ! @ | = */
    PTX_TOK_ERROR     /* malformed input: message in the lexer's error field */
} ptx_tok_kind;

typedef struct ptx_token {
    uint8_t kind;       /* ptx_tok_kind */
    char punct;         /* the character for PTX_TOK_PUNCT */
    bool is_unsigned;   /* integer literal had a U suffix */
    const char *text;   /* into the source */
    uint32_t len;
    uint32_t line, col; /* 1-based */
    uint64_t ival;
    double fval;
} ptx_token;

typedef struct ptx_lexer {
    const char *src, *end, *cur;
    uint32_t line;
    const char *line_start;
    const char *error;  /* for PTX_TOK_ERROR: what was wrong (static text) */
} ptx_lexer;

void ptx_lex_init(ptx_lexer *lx, const char *text, size_t len);
/* The next token. At the end of input returns PTX_TOK_EOF (repeatedly). */
void ptx_lex_next(ptx_lexer *lx, ptx_token *t);
/* Skip raw text up to and including the '}' that closes a block whose '{' was just read,
 * honouring nested braces, strings and comments (used for .section bodies). False at the
 * end of input. */
bool ptx_lex_skip_block(ptx_lexer *lx);

/* Does token t spell exactly s? */
static inline bool ptx_tok_is(const ptx_token *t, const char *s) {
    size_t i = 0;
    for (; i < t->len; i++)
        if (s[i] != t->text[i]) return false;
    return s[i] == 0;
}
static inline bool ptx_tok_punct(const ptx_token *t, char c) {
    return t->kind == PTX_TOK_PUNCT && t->punct == c;
}

#endif
