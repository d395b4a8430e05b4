/* ptx/lexer.c — turns PTX text into tokens with line and column.
 *
 * Handles // and block comments, identifiers, dot words (".global", ".shared::cta",
 * ".L2::cache_hint"), integer literals (decimal, 0x hex, 0b binary, leading-0 octal, an
 * optional U suffix), float literals (0f/0d bit patterns and decimal forms), strings and
 * one-character punctuation. The input need not be NUL-terminated.
 */
#include "lexer.h"

#include <stdlib.h>
#include <string.h>

static bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
static bool is_ident_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$';
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void ptx_lex_init(ptx_lexer *lx, const char *text, size_t len) {
    lx->src = lx->cur = lx->line_start = text;
    lx->end = text + len;
    lx->line = 1;
    lx->error = NULL;
}

static void newline(ptx_lexer *lx) {
    lx->line++;
    lx->line_start = lx->cur;
}

/* Skip blanks and comments. Returns false (with lx->error set) on an unterminated block
 * comment. */
static bool skip_space(ptx_lexer *lx) {
    while (lx->cur < lx->end) {
        char c = *lx->cur;
        if (c == '\n') {
            lx->cur++;
            newline(lx);
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->cur++;
        } else if (c == '/' && lx->cur + 1 < lx->end && lx->cur[1] == '/') {
            while (lx->cur < lx->end && *lx->cur != '\n') lx->cur++;
        } else if (c == '/' && lx->cur + 1 < lx->end && lx->cur[1] == '*') {
            const char *start = lx->cur, *start_line = lx->line_start;
            uint32_t line = lx->line;
            lx->cur += 2;
            for (;;) {
                if (lx->cur + 1 >= lx->end) {
                    /* report where the comment opened */
                    lx->cur = start;
                    lx->line = line;
                    lx->line_start = start_line;
                    lx->error = "unterminated comment";
                    return false;
                }
                if (lx->cur[0] == '*' && lx->cur[1] == '/') {
                    lx->cur += 2;
                    break;
                }
                if (*lx->cur++ == '\n') newline(lx);
            }
        } else {
            break;
        }
    }
    return true;
}

static void set_error(ptx_lexer *lx, ptx_token *t, const char *msg) {
    t->kind = PTX_TOK_ERROR;
    t->len = (uint32_t)(lx->cur - t->text);
    lx->error = msg;
}

/* 0fXXXXXXXX or 0dXXXXXXXXXXXXXXXX: exactly 8 or 16 hex digits of an IEEE bit pattern. */
static void lex_hex_float(ptx_lexer *lx, ptx_token *t, bool dbl) {
    const char *p = lx->cur + 2;
    int want = dbl ? 16 : 8, n = 0;
    uint64_t bits = 0;
    while (p < lx->end && hex_value(*p) >= 0 && n <= want) {
        bits = bits << 4 | (uint64_t)hex_value(*p);
        p++, n++;
    }
    lx->cur = p;
    if (n != want || (p < lx->end && is_ident_char(*p))) {
        while (lx->cur < lx->end && is_ident_char(*lx->cur)) lx->cur++;
        set_error(lx, t, dbl ? "malformed double literal (0d needs 16 hex digits)"
                             : "malformed float literal (0f needs 8 hex digits)");
        return;
    }
    t->ival = bits;
    if (dbl) {
        t->kind = PTX_TOK_F64;
        memcpy(&t->fval, &bits, 8);
    } else {
        uint32_t b32 = (uint32_t)bits;
        float f;
        memcpy(&f, &b32, 4);
        t->kind = PTX_TOK_F32;
        t->fval = f;
    }
}

static void lex_number(ptx_lexer *lx, ptx_token *t) {
    const char *p = lx->cur;
    if (p[0] == '0' && p + 1 < lx->end && (p[1] == 'f' || p[1] == 'F')) {
        lex_hex_float(lx, t, false);
        return;
    }
    if (p[0] == '0' && p + 1 < lx->end && (p[1] == 'd' || p[1] == 'D')) {
        lex_hex_float(lx, t, true);
        return;
    }
    /* Decimal float: digits followed by '.' digit or an exponent. */
    const char *q = p;
    while (q < lx->end && is_digit(*q)) q++;
    bool is_float = false;
    if (q + 1 < lx->end && *q == '.' && is_digit(q[1])) is_float = true;
    if (q + 1 < lx->end && (*q == 'e' || *q == 'E') &&
        (is_digit(q[1]) || ((q[1] == '+' || q[1] == '-') && q + 2 < lx->end && is_digit(q[2]))))
        is_float = true;
    if (is_float) {
        if (*q == '.') {
            q++;
            while (q < lx->end && is_digit(*q)) q++;
        }
        if (q < lx->end && (*q == 'e' || *q == 'E')) {
            q++;
            if (q < lx->end && (*q == '+' || *q == '-')) q++;
            if (q >= lx->end || !is_digit(*q)) {
                lx->cur = q;
                set_error(lx, t, "malformed float literal");
                return;
            }
            while (q < lx->end && is_digit(*q)) q++;
        }
        lx->cur = q;
        if (q < lx->end && is_ident_char(*q)) {
            while (lx->cur < lx->end && is_ident_char(*lx->cur)) lx->cur++;
            set_error(lx, t, "malformed float literal");
            return;
        }
        char buf[64];
        size_t n = (size_t)(q - p);
        if (n >= sizeof buf) {
            set_error(lx, t, "float literal too long");
            return;
        }
        memcpy(buf, p, n);
        buf[n] = 0;
        t->kind = PTX_TOK_FLOAT;
        t->fval = strtod(buf, NULL);
        return;
    }
    /* Integers. */
    unsigned base = 10;
    if (p[0] == '0' && p + 1 < lx->end && (p[1] == 'x' || p[1] == 'X')) base = 16, p += 2;
    else if (p[0] == '0' && p + 1 < lx->end && (p[1] == 'b' || p[1] == 'B')) base = 2, p += 2;
    else if (p[0] == '0' && p + 1 < lx->end && is_digit(p[1])) base = 8, p += 1;
    uint64_t v = 0;
    bool overflow = false;
    const char *digits = p;
    while (p < lx->end) {
        int d = hex_value(*p);
        if (d < 0 || (unsigned)d >= base) break;
        if (v > (UINT64_MAX - (uint64_t)d) / base) overflow = true;
        v = v * base + (uint64_t)d;
        p++;
    }
    lx->cur = p;
    if (p == digits) {
        while (lx->cur < lx->end && is_ident_char(*lx->cur)) lx->cur++;
        set_error(lx, t, "malformed integer literal");
        return;
    }
    if (p < lx->end && (*p == 'U' || *p == 'u')) {
        t->is_unsigned = true;
        lx->cur = ++p;
    }
    if (p < lx->end && is_ident_char(*p)) {
        while (lx->cur < lx->end && is_ident_char(*lx->cur)) lx->cur++;
        set_error(lx, t, "malformed integer literal");
        return;
    }
    if (overflow) {
        set_error(lx, t, "integer literal out of range");
        return;
    }
    t->kind = PTX_TOK_INT;
    t->ival = v;
}

void ptx_lex_next(ptx_lexer *lx, ptx_token *t) {
    memset(t, 0, sizeof *t);
    bool ok = skip_space(lx);
    t->text = lx->cur;
    t->line = lx->line;
    t->col = (uint32_t)(lx->cur - lx->line_start) + 1;
    if (!ok) {
        t->kind = PTX_TOK_ERROR;
        return;
    }
    if (lx->cur >= lx->end) {
        t->kind = PTX_TOK_EOF;
        return;
    }
    char c = *lx->cur;
    if (is_ident_start(c)) {
        lx->cur++;
        while (lx->cur < lx->end && is_ident_char(*lx->cur)) lx->cur++;
        if (c == '%' && lx->cur - t->text == 1) {
            set_error(lx, t, "'%' without a register name");
            return;
        }
        t->kind = PTX_TOK_IDENT;
    } else if (c == '.' && lx->cur + 1 < lx->end && is_ident_char(lx->cur[1])) {
        /* A dot word; "::" joins parts (.shared::cta, .L2::cache_hint). */
        lx->cur++;
        for (;;) {
            while (lx->cur < lx->end && is_ident_char(*lx->cur)) lx->cur++;
            if (lx->cur + 2 < lx->end && lx->cur[0] == ':' && lx->cur[1] == ':' &&
                is_ident_char(lx->cur[2]))
                lx->cur += 2;
            else
                break;
        }
        t->kind = PTX_TOK_DOTWORD;
    } else if (is_digit(c)) {
        lex_number(lx, t);
    } else if (c == '"') {
        lx->cur++;
        while (lx->cur < lx->end && *lx->cur != '"' && *lx->cur != '\n') {
            if (*lx->cur == '\\' && lx->cur + 1 < lx->end && lx->cur[1] != '\n') lx->cur++;
            lx->cur++;
        }
        if (lx->cur >= lx->end || *lx->cur != '"') {
            set_error(lx, t, "unterminated string");
            return;
        }
        lx->cur++;
        t->kind = PTX_TOK_STRING;
    } else if (strchr(",;:[]{}()<>+-!@|=", c)) {
        lx->cur++;
        t->kind = PTX_TOK_PUNCT;
        t->punct = c;
    } else {
        lx->cur++;
        set_error(lx, t, "unexpected character");
        return;
    }
    t->len = (uint32_t)(lx->cur - t->text);
}

bool ptx_lex_skip_block(ptx_lexer *lx) {
    int depth = 1;
    while (lx->cur < lx->end) {
        char c = *lx->cur;
        if (c == '\n') {
            lx->cur++;
            newline(lx);
        } else if (c == '/' && lx->cur + 1 < lx->end && (lx->cur[1] == '/' || lx->cur[1] == '*')) {
            if (!skip_space(lx)) return false;
        } else if (c == '"') {
            ptx_token t;
            ptx_lex_next(lx, &t);
            if (t.kind == PTX_TOK_ERROR) return false;
        } else {
            lx->cur++;
            if (c == '{') depth++;
            else if (c == '}' && --depth == 0) return true;
        }
    }
    return false;
}
