/* tests/unit/test_ptx_errors.c — malformed and unsupported PTX: each case must fail with
 * exactly "<name>:<line>:<col>: error: <what>" naming the construct; and truncated,
 * mutated or garbage inputs must fail (or parse) without crashing or leaking (run under
 * -DVCUDA_SANITIZE=ON). */
#include "ptx/ir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_files.h"

static int failures;

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
/* an entry whose body starts on line 6 */
#define ENTRY HDR ".visible .entry k(.param .u64 p)\n{\n"
#define REGS "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .f32 %f<2>;\n\t.reg .b64 %rd<2>;\n"

typedef struct err_case {
    const char *text;
    const char *expect;   /* the whole message */
} err_case;

static const err_case cases[] = {
    /* instructions */
    {ENTRY "\tfoo.b32 %r1;\n}\n", "t.ptx:6:2: error: unknown instruction 'foo.b32'"},
    {ENTRY REGS "\tadd.xyz.s32 %r1, %r1, 1;\n}\n", "t.ptx:10:5: error: unknown modifier '.xyz' in 'add.xyz.s32'"},
    {ENTRY REGS "\tadd.s32 %r1, %r99, 1;\n}\n", "t.ptx:10:15: error: undeclared register '%r99'"},
    {ENTRY REGS "\tld.global.u32 %r1, [nosuch+4];\n}\n", "t.ptx:10:22: error: undeclared symbol 'nosuch'"},
    {ENTRY REGS "\tbra.uni $L__missing;\n\tret;\n}\n", "t.ptx:10:10: error: undeclared label '$L__missing'"},
    {ENTRY REGS "\tmov.f32 %f1, 0f3F80;\n}\n",
     "t.ptx:10:15: error: malformed float literal (0f needs 8 hex digits)"},
    {ENTRY REGS "\tmov.f64 %f1, 0d3FF0;\n}\n",
     "t.ptx:10:15: error: malformed double literal (0d needs 16 hex digits)"},
    {ENTRY REGS "\tmov.u32 %r1, 12abc;\n}\n", "t.ptx:10:15: error: malformed integer literal"},
    {ENTRY REGS "\tmov.u32 %r1, 0x;\n}\n", "t.ptx:10:15: error: malformed integer literal"},
    {ENTRY REGS "\tmov.u32 %r1, 99999999999999999999;\n}\n", "t.ptx:10:15: error: integer literal out of range"},
    {ENTRY REGS "\tmov.f32 %f1, 1.5e;\n}\n", "t.ptx:10:15: error: malformed float literal"},
    {ENTRY REGS "\tmov.u32 %r1, %r2\n\tret;\n}\n",
     "t.ptx:11:2: error: expected ',' or ';' after operand of 'mov.u32', found 'ret'"},
    {ENTRY REGS "\t@%r1 bra $L;\n$L:\n\tret;\n}\n", "t.ptx:10:3: error: guard '%r1' is not a .pred register"},
    {ENTRY REGS "\t@%p9 bra $L;\n$L:\n\tret;\n}\n", "t.ptx:10:3: error: undeclared register '%p9'"},
    {ENTRY REGS "\tmov.u32 %r1, %tid;\n}\n",
     "t.ptx:10:15: error: special register '%tid' needs a .x, .y or .z suffix"},
    {ENTRY REGS "\tmov.u32 %r1, %tid.w;\n}\n",
     "t.ptx:10:15: error: special register '%tid' needs a .x, .y or .z suffix"},
    {ENTRY REGS "\tmov.u32 %r1, %nosuchsreg;\n}\n", "t.ptx:10:15: error: undeclared register '%nosuchsreg'"},
    {ENTRY REGS "\tlop3.b32 %r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1;\n}\n",
     "t.ptx:10:61: error: too many operands for 'lop3.b32'"},
    {ENTRY REGS "\tadd.s32.s32.s32.s32.s32 %r1, %r1, 1;\n}\n",
     "t.ptx:10:21: error: too many types in 'add.s32.s32.s32.s32.s32'"},
    {ENTRY REGS "\tnot.b32 %r1, !%r2;\n}\n", "t.ptx:10:16: error: '!' applies to predicates only"},
    {ENTRY REGS "\tmov.u32 %r1, ;\n}\n", "t.ptx:10:15: error: expected an operand, found ';'"},
    {ENTRY REGS "\tld.global.u32 %r1, [%rd1+];\n}\n", "t.ptx:10:27: error: expected integer offset, found ']'"},
    {ENTRY REGS "\tld.global.u32 %r1, [%rd1;\n}\n", "t.ptx:10:26: error: expected ']' to close address, found ';'"},
    {ENTRY REGS "\tst.global.v2.u32 [%rd1], {};\n}\n", "t.ptx:10:29: error: empty vector operand"},
    {ENTRY REGS "\tbrx.idx %r1, $L;\n$L:\n\tret;\n}\n", "t.ptx:10:15: error: '$L' is not a .branchtargets label"},
    {ENTRY REGS "\tcall nosuchfunc;\n}\n", "t.ptx:10:7: error: undeclared symbol 'nosuchfunc'"},
    /* declarations and scopes */
    {ENTRY "\t.reg .b32 %r1;\n\t.reg .b32 %r1;\n}\n", "t.ptx:7:12: error: duplicate declaration of '%r1'"},
    {ENTRY "\t.reg .b32 %r<3>;\n\t.reg .b32 %r2;\n}\n", "t.ptx:7:12: error: duplicate declaration of '%r2'"},
    {ENTRY "\t.reg .b33 %r1;\n}\n", "t.ptx:6:7: error: expected a type after .reg, found '.b33'"},
    {ENTRY "\t.reg .b32 %r<x>;\n}\n", "t.ptx:6:15: error: expected integer register count, found 'x'"},
    {ENTRY "\t.reg .b32 %r1;\n\t{\n\t.reg .b32 %r2;\n\t}\n\tmov.u32 %r1, %r2;\n}\n",
     "t.ptx:10:15: error: undeclared register '%r2'"},
    {ENTRY "\t.reg .b32 %r1;\n$L:\n$L:\n\tret;\n}\n", "t.ptx:8:1: error: duplicate label '$L'"},
    {ENTRY "\t.local .b8 buf[];\n}\n", "t.ptx:6:13: error: variable 'buf' has no size"},
    {ENTRY "\t.frobnicate 3;\n}\n", "t.ptx:6:2: error: unsupported directive '.frobnicate' in function body"},
    {ENTRY REGS "\tret;\n", "t.ptx:11:1: error: unterminated block: missing '}' for function 'k' (body opened at line 5)"},
    {ENTRY REGS "\t{\n\tret;\n}\n", "t.ptx:13:1: error: unterminated block: missing '}' for function 'k' (body opened at line 5)"},
    {HDR ".visible .entry k(.param .u64 p, .param .u32 p)\n{\n\tret;\n}\n",
     "t.ptx:4:46: error: duplicate parameter 'p'"},
    {HDR ".global .u32 g;\n.global .u32 g;\n", "t.ptx:5:14: error: duplicate declaration of variable 'g'"},
    {HDR ".func f()\n{\n\tret;\n}\n.func f()\n{\n\tret;\n}\n",
     "t.ptx:8:7: error: duplicate definition of function 'f'"},
    {HDR ".global .u32 f;\n.func f()\n{\n\tret;\n}\n",
     "t.ptx:5:7: error: duplicate declaration of 'f' (already a variable)"},
    {HDR ".global .u32 a[2] = {1, 2, 3};\n", "t.ptx:4:28: error: too many initializers for 'a'"},
    {HDR ".global .u32 a[2] = {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{1}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}};\n",
     "t.ptx:4:53: error: initializer nested too deeply"},
    {HDR ".global .u64 a = generic(nosuch);\n", "t.ptx:4:26: error: undeclared symbol 'nosuch'"},
    {HDR ".global .u32 a = 1.5;\n", "t.ptx:4:18: error: float literal in initializer of integer type .u32"},
    {HDR ".global .u8 a = x;\n", "t.ptx:4:17: error: address initializer needs a 32- or 64-bit type"},
    {HDR ".global .u32 a[0];\n", "t.ptx:4:16: error: array size must be positive"},
    {HDR ".global .align 3 .u32 a;\n", "t.ptx:4:16: error: alignment 3 is not a power of two"},
    {HDR ".global .u32 .u64 a;\n", "t.ptx:4:14: error: more than one type in declaration"},
    {HDR ".global .pred a;\n", "t.ptx:4:15: error: variables of type .pred are not supported"},
    {HDR ".global .u32 a\n", "t.ptx:5:1: error: expected ';' after variable declaration, found end of input"},
    {HDR ".entry (.param .b32 r) k()\n{\n\tret;\n}\n", "t.ptx:4:8: error: an .entry has no return parameters"},
    {HDR ".extern .func f()\n{\n\tret;\n}\n", "t.ptx:4:15: error: an .extern function cannot have a body"},
    /* module level */
    {".version 8.0\n.target sm_xx\n", "t.ptx:2:9: error: unknown target 'sm_xx'"},
    {".version 8.0\n.target sm_80\n.address_size 48\n", "t.ptx:3:15: error: unsupported .address_size 48"},
    {".version x\n", "t.ptx:1:10: error: expected version number after .version, found 'x'"},
    {HDR ".frob\n", "t.ptx:4:1: error: unsupported directive '.frob'"},
    {HDR "mov.u32 %r1, 0;\n", "t.ptx:4:1: error: expected a directive at module level, found 'mov'"},
    {HDR "/* never closed\n", "t.ptx:4:1: error: unterminated comment"},
    {HDR ".file 1 \"never closed\n", "t.ptx:4:9: error: unterminated string"},
    {HDR ".section .debug_info {\n.b8 1\n", "t.ptx:4:1: error: unterminated .section block"},
    {HDR "\x01\n", "t.ptx:4:1: error: unexpected character"},
    {HDR "#include <x>\n", "t.ptx:4:1: error: unexpected character"},
    {HDR ".loc 1 2 3, weird 4\n", "t.ptx:4:13: error: unknown .loc attribute 'weird'"},
};

static void test_cases(void) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[512] = "";
        ptx_module *m = ptx_parse(cases[i].text, strlen(cases[i].text), "t.ptx", err, sizeof err);
        if (m) {
            fprintf(stderr, "case %zu: parsed, expected: %s\n", i, cases[i].expect);
            failures++;
            ptx_module_free(m);
        } else if (strcmp(err, cases[i].expect) != 0) {
            fprintf(stderr, "case %zu:\n  got:      %s\n  expected: %s\n", i, err, cases[i].expect);
            failures++;
        }
    }
}

/* Things that must parse. */
static void test_accepted(void) {
    const char *ok[] = {
        "",
        "// only a comment",
        HDR,
        ENTRY "\tret;\n}\n",
        HDR ".extern .func f();\n.func f();\n",   /* repeated declarations */
        HDR ".extern .global .u32 g;\n.global .u32 g = 3;\n",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char err[512];
        ptx_module *m = ptx_parse(ok[i], strlen(ok[i]), "ok.ptx", err, sizeof err);
        if (!m) {
            fprintf(stderr, "accepted case %zu failed: %s\n", i, err);
            failures++;
        }
        ptx_module_free(m);
    }
    /* a NULL or short error buffer is fine */
    ptx_module *m = ptx_parse("bad", 3, "x.ptx", NULL, 0);
    if (m) failures++;
    char tiny[8];
    m = ptx_parse("bad", 3, "x.ptx", tiny, sizeof tiny);
    if (m || strlen(tiny) != 7) failures++;
}

static void expect_clean_failure_or_success(const char *text, size_t len, const char *what) {
    char err[512];
    ptx_module *m = ptx_parse(text, len, "f.ptx", err, sizeof err);
    if (!m && strncmp(err, "f.ptx:", 6) != 0) {
        fprintf(stderr, "%s: malformed error message: %s\n", what, err);
        failures++;
    }
    if (!m && !strstr(err, ": error: ")) {
        fprintf(stderr, "%s: malformed error message: %s\n", what, err);
        failures++;
    }
    ptx_module_free(m);
}

/* Truncate every sample at many points and flip bytes: no crash, no leak, and an error in
 * the expected form whenever the result is rejected. The input is copied to an exact-size
 * buffer so reading past its end would be caught. */
static void test_truncated_and_mutated(void) {
    DIR *d = opendir(VCUDA_TEST_DIR "/ptx/parse");
    if (!d) { failures++; return; }
    struct dirent *e;
    unsigned seed = 12345;
    int files = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".ptx") != 0) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/ptx/parse/%s", VCUDA_TEST_DIR, e->d_name);
        size_t len;
        char *text = test_read_file(path, &len);
        if (!text) continue;
        files++;
        size_t step = len / 97 + 1;
        for (size_t cut = 0; cut < len; cut += step) {
            char *copy = malloc(cut ? cut : 1);
            memcpy(copy, text, cut);
            expect_clean_failure_or_success(copy, cut, e->d_name);
            free(copy);
        }
        for (int round = 0; round < 60; round++) {
            char *copy = malloc(len);
            memcpy(copy, text, len);
            for (int k = 0; k < 3; k++) {
                seed = seed * 1103515245u + 12345u;
                size_t pos = (seed >> 8) % len;
                seed = seed * 1103515245u + 12345u;
                static const char junk[] = "{}[]();,.%@!|-+0x9fd\"/*_ \n\x80\x00";
                copy[pos] = junk[(seed >> 8) % (sizeof junk - 1)];
            }
            expect_clean_failure_or_success(copy, len, e->d_name);
            free(copy);
        }
        free(text);
    }
    closedir(d);
    if (files == 0) failures++;
    /* pure garbage */
    char garbage[4096];
    for (size_t i = 0; i < sizeof garbage; i++) {
        seed = seed * 1103515245u + 12345u;
        garbage[i] = (char)(seed >> 16);
    }
    expect_clean_failure_or_success(garbage, sizeof garbage, "garbage");
    expect_clean_failure_or_success("{{{{{{{{", 8, "braces");
    /* deep nesting: initializers and scopes must not recurse without bound */
    size_t deep = 200000;
    char *nest = malloc(deep * 2 + 256);
    size_t k = (size_t)sprintf(nest, HDR ".global .u32 a[1] = ");
    for (size_t i = 0; i < deep; i++) nest[k++] = '{';
    expect_clean_failure_or_success(nest, k, "nested initializer");
    k = (size_t)sprintf(nest, ENTRY);
    for (size_t i = 0; i < deep; i++) nest[k++] = '{';
    for (size_t i = 0; i < deep + 1; i++) nest[k++] = '}';
    char err[256];
    ptx_module *m = ptx_parse(nest, k, "deep.ptx", err, sizeof err);
    if (!m) { fprintf(stderr, "deep scopes: %s\n", err); failures++; }
    ptx_module_free(m);
    free(nest);
    expect_clean_failure_or_success(".entry", 6, "entry");
    expect_clean_failure_or_success("\"", 1, "quote");
    expect_clean_failure_or_success("0f", 2, "0f");
    expect_clean_failure_or_success("%", 1, "percent");
}

int main(void) {
    test_cases();
    test_accepted();
    test_truncated_and_mutated();
    if (failures) {
        fprintf(stderr, "test_ptx_errors: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_ptx_errors: all passed\n");
    return 0;
}
