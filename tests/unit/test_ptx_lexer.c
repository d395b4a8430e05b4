/* tests/unit/test_ptx_lexer.c — tokens of PTX text: kinds, decoded values, line and column,
 * comments, and the errors of malformed literals. */
#include "ptx/lexer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);       \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

typedef struct expect {
    int kind;
    const char *text;  /* exact token text */
    unsigned line, col;
} expect;

static void check_tokens(const char *src, const expect *want, size_t n) {
    ptx_lexer lx;
    ptx_lex_init(&lx, src, strlen(src));
    for (size_t i = 0; i <= n; i++) {
        ptx_token t;
        ptx_lex_next(&lx, &t);
        if (i == n) {
            if (t.kind != PTX_TOK_EOF) {
                fprintf(stderr, "expected end of input, got '%.*s'\n", (int)t.len, t.text);
                failures++;
            }
            return;
        }
        const expect *w = &want[i];
        if (t.kind != w->kind || t.len != strlen(w->text) || memcmp(t.text, w->text, t.len) != 0 ||
            t.line != w->line || t.col != w->col) {
            fprintf(stderr, "token %zu: got kind %d '%.*s' at %u:%u, expected kind %d '%s' at %u:%u\n", i, t.kind,
                    (int)t.len, t.text, t.line, t.col, w->kind, w->text, w->line, w->col);
            failures++;
            return;
        }
    }
}

static void test_token_stream(void) {
    const char *src =
        ".version 9.0 // comment\n"
        "\t@%p1 bra.uni $L__BB0_2;\n"
        "/* block\n comment */ ld.global.nc.L1::no_allocate.v4.f32 {%f1, _}, [%rd1+-8];\n"
        "mov.u32 %r1, %tid.x; st.shared::cta.b32 [__local_depot0], 0x1F;\n"
        "$L__BB0_2: .file 1 \"a \\\"b\\\".cu\", 12U\n";
    const expect want[] = {
        {PTX_TOK_DOTWORD, ".version", 1, 1}, {PTX_TOK_FLOAT, "9.0", 1, 10},
        {PTX_TOK_PUNCT, "@", 2, 2}, {PTX_TOK_IDENT, "%p1", 2, 3}, {PTX_TOK_IDENT, "bra", 2, 7},
        {PTX_TOK_DOTWORD, ".uni", 2, 10}, {PTX_TOK_IDENT, "$L__BB0_2", 2, 15}, {PTX_TOK_PUNCT, ";", 2, 24},
        {PTX_TOK_IDENT, "ld", 4, 13}, {PTX_TOK_DOTWORD, ".global", 4, 15}, {PTX_TOK_DOTWORD, ".nc", 4, 22},
        {PTX_TOK_DOTWORD, ".L1::no_allocate", 4, 25}, {PTX_TOK_DOTWORD, ".v4", 4, 41},
        {PTX_TOK_DOTWORD, ".f32", 4, 44}, {PTX_TOK_PUNCT, "{", 4, 49}, {PTX_TOK_IDENT, "%f1", 4, 50},
        {PTX_TOK_PUNCT, ",", 4, 53}, {PTX_TOK_IDENT, "_", 4, 55}, {PTX_TOK_PUNCT, "}", 4, 56},
        {PTX_TOK_PUNCT, ",", 4, 57}, {PTX_TOK_PUNCT, "[", 4, 59}, {PTX_TOK_IDENT, "%rd1", 4, 60},
        {PTX_TOK_PUNCT, "+", 4, 64}, {PTX_TOK_PUNCT, "-", 4, 65}, {PTX_TOK_INT, "8", 4, 66},
        {PTX_TOK_PUNCT, "]", 4, 67}, {PTX_TOK_PUNCT, ";", 4, 68},
        {PTX_TOK_IDENT, "mov", 5, 1}, {PTX_TOK_DOTWORD, ".u32", 5, 4}, {PTX_TOK_IDENT, "%r1", 5, 9},
        {PTX_TOK_PUNCT, ",", 5, 12}, {PTX_TOK_IDENT, "%tid", 5, 14}, {PTX_TOK_DOTWORD, ".x", 5, 18},
        {PTX_TOK_PUNCT, ";", 5, 20}, {PTX_TOK_IDENT, "st", 5, 22}, {PTX_TOK_DOTWORD, ".shared::cta", 5, 24},
        {PTX_TOK_DOTWORD, ".b32", 5, 36}, {PTX_TOK_PUNCT, "[", 5, 41}, {PTX_TOK_IDENT, "__local_depot0", 5, 42},
        {PTX_TOK_PUNCT, "]", 5, 56}, {PTX_TOK_PUNCT, ",", 5, 57}, {PTX_TOK_INT, "0x1F", 5, 59},
        {PTX_TOK_PUNCT, ";", 5, 63},
        {PTX_TOK_IDENT, "$L__BB0_2", 6, 1}, {PTX_TOK_PUNCT, ":", 6, 10}, {PTX_TOK_DOTWORD, ".file", 6, 12},
        {PTX_TOK_INT, "1", 6, 18}, {PTX_TOK_STRING, "\"a \\\"b\\\".cu\"", 6, 20}, {PTX_TOK_PUNCT, ",", 6, 32},
        {PTX_TOK_INT, "12U", 6, 34},
    };
    check_tokens(src, want, sizeof want / sizeof want[0]);
}

static ptx_token one(const char *src) {
    ptx_lexer lx;
    ptx_lex_init(&lx, src, strlen(src));
    ptx_token t;
    ptx_lex_next(&lx, &t);
    return t;
}

static void test_numbers(void) {
    ptx_token t = one("0x7fffffff");
    CHECK(t.kind == PTX_TOK_INT && t.ival == 0x7fffffff);
    t = one("0XFF00000000000000");
    CHECK(t.kind == PTX_TOK_INT && t.ival == 0xFF00000000000000ull);
    t = one("0755");
    CHECK(t.kind == PTX_TOK_INT && t.ival == 0755);
    t = one("0b1011");
    CHECK(t.kind == PTX_TOK_INT && t.ival == 11);
    t = one("4294967295U");
    CHECK(t.kind == PTX_TOK_INT && t.ival == 4294967295u && t.is_unsigned);
    t = one("18446744073709551615");
    CHECK(t.kind == PTX_TOK_INT && t.ival == UINT64_MAX);
    t = one("0");
    CHECK(t.kind == PTX_TOK_INT && t.ival == 0);
    t = one("0f3F800000");
    CHECK(t.kind == PTX_TOK_F32 && t.ival == 0x3F800000 && t.fval == 1.0);
    t = one("0F7F800000");
    CHECK(t.kind == PTX_TOK_F32 && isinf(t.fval));
    t = one("0d3FF0000000000000");
    CHECK(t.kind == PTX_TOK_F64 && t.ival == 0x3FF0000000000000ull && t.fval == 1.0);
    t = one("1.5");
    CHECK(t.kind == PTX_TOK_FLOAT && t.fval == 1.5);
    t = one("1e-3");
    CHECK(t.kind == PTX_TOK_FLOAT && t.fval == 1e-3);
    t = one("2.5E+2");
    CHECK(t.kind == PTX_TOK_FLOAT && t.fval == 250.0);

    /* malformed */
    const char *bad[] = {"0f3F80", "0d12", "0f3F800000Z", "12abc", "0x", "0b", "0b102", "099",
                         "1.5e", "1.5x", "99999999999999999999", "0x1FFFFFFFFFFFFFFFF"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t = one(bad[i]);
        if (t.kind != PTX_TOK_ERROR) {
            fprintf(stderr, "'%s' lexed as kind %d\n", bad[i], t.kind);
            failures++;
        }
    }
}

static void test_errors_and_edges(void) {
    ptx_lexer lx;
    ptx_token t;
    const char *s = "a /* open";
    ptx_lex_init(&lx, s, strlen(s));
    ptx_lex_next(&lx, &t);
    CHECK(t.kind == PTX_TOK_IDENT);
    ptx_lex_next(&lx, &t);
    CHECK(t.kind == PTX_TOK_ERROR && t.line == 1 && t.col == 3 && strcmp(lx.error, "unterminated comment") == 0);
    t = one("\"abc");
    CHECK(t.kind == PTX_TOK_ERROR);
    t = one("#");
    CHECK(t.kind == PTX_TOK_ERROR);
    t = one("%");
    CHECK(t.kind == PTX_TOK_ERROR);
    t = one("");
    CHECK(t.kind == PTX_TOK_EOF);
    t = one("   // only a comment");
    CHECK(t.kind == PTX_TOK_EOF);
    /* not NUL-terminated: the lexer stops at len */
    const char buf[4] = {'a', 'b', 'c', 'd'};
    ptx_lex_init(&lx, buf, 2);
    ptx_lex_next(&lx, &t);
    CHECK(t.kind == PTX_TOK_IDENT && t.len == 2);
    ptx_lex_next(&lx, &t);
    CHECK(t.kind == PTX_TOK_EOF);
    /* skipping a .section body: nested braces, braces in strings and comments */
    s = "{ a { b } \"}\" /* } */ // }\n c } next";
    ptx_lex_init(&lx, s + 1, strlen(s) - 1);
    CHECK(ptx_lex_skip_block(&lx));
    ptx_lex_next(&lx, &t);
    CHECK(t.kind == PTX_TOK_IDENT && t.len == 4 && memcmp(t.text, "next", 4) == 0 && t.line == 2);
}

int main(void) {
    test_token_stream();
    test_numbers();
    test_errors_and_edges();
    if (failures) {
        fprintf(stderr, "test_ptx_lexer: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_ptx_lexer: all passed\n");
    return 0;
}
