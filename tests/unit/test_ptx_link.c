/* tests/unit/test_ptx_link.c — the PTX linker (ptx/link.c): binding of .extern functions
 * and variables to .visible definitions in other modules, .weak definitions, symbols
 * private to a module, builtins left as one declaration, source-file renumbering, the
 * errors (two strong definitions, an undefined variable, declarations that disagree), and
 * a linked program running on the SIMT core. Last, the PTX nvcc made of the two
 * translation units of tests/cuda/dp/rdcMain.cu. */
#include "exec_harness.h"

static ptx_module *parse(const char *name, const char *text) {
    char err[512];
    ptx_module *m = ptx_parse(text, strlen(text), name, err, sizeof err);
    if (!m) fprintf(stderr, "parse of %s failed: %s\n", name, err);
    CHECK(m != NULL);
    return m;
}

static ptx_module *link2(const char *a, const char *b, char *err, size_t errlen) {
    ptx_module *mods[2] = {parse("a.ptx", a), parse("b.ptx", b)};
    if (!mods[0] || !mods[1]) {
        ptx_module_free(mods[0]);
        ptx_module_free(mods[1]);
        return NULL;
    }
    return ptx_link(mods, 2, "prog.ptx", err, errlen);
}

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Module a: a kernel that calls an .extern function of b, reads an .extern variable of b,
 * calls its own private helper and the builtin vprintf. */
static const char *const MOD_A =
    HEADER
    ".file 1 \"a.cu\"\n"
    ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
    ".extern .global .align 4 .u32 scale;\n"
    ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
    ".func (.param .b32 r) helper()\n"
    "{\n"
    "  st.param.b32 [r], 1000;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry kern(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .loc 1 10 0\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  { .param .b32 x; .param .b32 r;\n"
    "    st.param.b32 [x], %r1;\n"
    "    call.uni (r), twice, (x);\n"
    "    ld.param.b32 %r2, [r]; }\n"
    "  ld.global.u32 %r3, [scale];\n"
    "  mul.lo.s32 %r4, %r2, %r3;\n"
    "  { .param .b32 r;\n"
    "    call.uni (r), helper, ();\n"
    "    ld.param.b32 %r5, [r]; }\n"
    "  add.s32 %r4, %r4, %r5;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r4;\n"
    "  ret;\n"
    "}\n";

/* Module b: the definitions, its own private helper of the same name, and another
 * declaration of vprintf. */
static const char *const MOD_B =
    HEADER
    ".file 1 \"b.cu\"\n"
    ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
    ".visible .global .align 4 .u32 scale = 5;\n"
    ".func (.param .b32 r) helper()\n"
    "{\n"
    "  st.param.b32 [r], 7;\n"
    "  ret;\n"
    "}\n"
    ".visible .func (.param .b32 r) twice(.param .b32 x)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .loc 1 20 0\n"
    "  ld.param.b32 %r1, [x];\n"
    "  { .param .b32 h;\n"
    "    call.uni (h), helper, ();\n"
    "    ld.param.b32 %r3, [h]; }\n"
    "  shl.b32 %r2, %r1, 1;\n"
    "  add.s32 %r2, %r2, %r3;\n"
    "  st.param.b32 [r], %r2;\n"
    "  ret;\n"
    "}\n";

static int find_func(const ptx_module *m, const char *name, int nth) {
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, name) && nth-- == 0) return (int)i;
    return -1;
}

/* The callee of the n-th call instruction of f. */
static int callee_of(const ptx_func *f, int n) {
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const ptx_insn *in = &f->insns[i];
        if (in->op != PTX_OP_call) continue;
        if (n-- > 0) continue;
        for (uint32_t k = 0; k < in->nopnds; k++)
            if (in->opnd[k].kind == PTX_OPND_SYM && in->opnd[k].sym.scope == PTX_SYM_FUNC)
                return in->opnd[k].sym.index;
    }
    return -1;
}

static void test_binding(void) {
    char err[512];
    ptx_module *m = link2(MOD_A, MOD_B, err, sizeof err);
    if (!m) fprintf(stderr, "link failed: %s\n", err);
    CHECK(m != NULL);
    if (!m) return;
    CHECK(!strcmp(m->source_name, "prog.ptx"));
    /* twice, scale: one definition each; vprintf: one declaration; helper: two (private) */
    CHECK(find_func(m, "twice", 0) >= 0 && find_func(m, "twice", 1) < 0);
    CHECK(find_func(m, "vprintf", 0) >= 0 && find_func(m, "vprintf", 1) < 0);
    CHECK(find_func(m, "helper", 1) >= 0 && find_func(m, "helper", 2) < 0);
    CHECK_EQ_U64(m->nvars, 1);
    CHECK(!strcmp(m->vars[0].name, "scale") && !m->vars[0].is_extern && m->vars[0].init);
    int kern = find_func(m, "kern", 0), twice = find_func(m, "twice", 0);
    CHECK(kern >= 0);
    if (kern < 0 || twice < 0) { ptx_module_free(m); return; }
    CHECK_EQ_U64(callee_of(&m->funcs[kern], 0), twice);
    /* each module's call of helper goes to its own helper */
    int ha = callee_of(&m->funcs[kern], 1), hb = callee_of(&m->funcs[twice], 0);
    CHECK(ha >= 0 && hb >= 0 && ha != hb);
    CHECK(!strcmp(m->funcs[ha].name, "helper") && !strcmp(m->funcs[hb].name, "helper"));
    /* every module-level reference is in range and no code-less twice/scale is left */
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f].ninsns; i++)
            for (uint32_t k = 0; k < m->funcs[f].insns[i].nopnds; k++) {
                const ptx_operand *o = &m->funcs[f].insns[i].opnd[k];
                if (o->kind != PTX_OPND_SYM && o->kind != PTX_OPND_ADDR) continue;
                if (o->sym.index < 0) continue;
                if (o->sym.scope == PTX_SYM_FUNC) CHECK((uint32_t)o->sym.index < m->nfuncs);
                if (o->sym.scope == PTX_SYM_MODULE_VAR) CHECK((uint32_t)o->sym.index < m->nvars);
            }
    /* source files: each function's line still names its own file */
    const ptx_func *ft = &m->funcs[twice], *fk = &m->funcs[kern];
    CHECK(ft->ninsns && fk->ninsns);
    uint16_t fa = fk->insns[0].loc.file, fb = ft->insns[0].loc.file;
    CHECK(fa < m->nfiles && fb < m->nfiles && m->files[fa] && m->files[fb]);
    if (fa < m->nfiles && fb < m->nfiles && m->files[fa] && m->files[fb]) {
        CHECK(!strcmp(m->files[fa], "a.cu"));
        CHECK(!strcmp(m->files[fb], "b.cu"));
    }

    /* the linked program runs: out[t] = (2t + 7) * 5 + 1000 */
    harness h;
    memset(&h, 0, sizeof h);
    h.mem = mem_table_new();
    h.worker = exec_worker_new();
    h.prog = exec_program_load(m, h.mem, h.err, sizeof h.err);
    if (!h.prog) fprintf(stderr, "load failed: %s\n", h.err);
    CHECK(h.prog != NULL);
    if (h.prog) {
        uint32_t *out = harness_alloc(&h, 64 * sizeof *out);
        void *args[] = {&out};
        harness_run r = harness_launch(&h, "kern", dim(1, 1, 1), dim(64, 1, 1), 0, args);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        for (uint32_t t = 0; t < 64; t++) CHECK_EQ_U64(out[t], (2 * t + 7) * 5 + 1000);
        free(r.out.data);
        harness_dealloc(&h, out);
    }
    harness_free(&h);
}

/* .weak: the first weak definition wins over later weak ones, a .visible one over all. */
static void test_weak(void) {
    const char *weak1 = HEADER ".weak .func (.param .b32 r) pick() { st.param.b32 [r], 1; ret; }\n";
    const char *weak2 = HEADER ".weak .func (.param .b32 r) pick() { st.param.b32 [r], 2; ret; }\n";
    const char *strong = HEADER ".visible .func (.param .b32 r) pick() { st.param.b32 [r], 3; ret; }\n";
    const char *user = HEADER ".extern .func (.param .b32 r) pick();\n"
                       ".visible .entry k() { .reg .b32 %r1; { .param .b32 r; call.uni (r), pick, ();"
                       " ld.param.b32 %r1, [r]; } ret; }\n";
    char err[256];
    for (int variant = 0; variant < 2; variant++) {
        ptx_module *mods[4] = {parse("w1.ptx", weak1), parse("u.ptx", user),
                               parse(variant ? "s.ptx" : "w2.ptx", variant ? strong : weak2),
                               NULL};
        ptx_module *m = ptx_link(mods, 3, "weak.ptx", err, sizeof err);
        CHECK(m != NULL);
        if (!m) continue;
        CHECK(find_func(m, "pick", 0) >= 0 && find_func(m, "pick", 1) < 0);
        int k = find_func(m, "k", 0), pick = find_func(m, "pick", 0);
        CHECK(k >= 0 && callee_of(&m->funcs[k], 0) == pick);
        /* the value the chosen definition stores */
        const ptx_func *p = &m->funcs[pick];
        CHECK(p->ninsns > 0 && p->insns[0].opnd[1].ival == (variant ? 3 : 1));
        ptx_module_free(m);
    }
}

static void expect_error(const char *a, const char *b, const char *what) {
    char err[512] = "";
    ptx_module *m = link2(a, b, err, sizeof err);
    CHECK(m == NULL);
    if (m) ptx_module_free(m);
    else if (!strstr(err, what) || !strstr(err, "prog.ptx: error: "))
        fprintf(stderr, "unexpected error text: %s (wanted %s)\n", err, what), harness_failures++;
}

static void test_errors(void) {
    const char *def = HEADER ".visible .func f() { ret; }\n";
    expect_error(def, def, "multiple definitions of 'f' (in a.ptx and b.ptx)");
    expect_error(HEADER ".extern .global .u32 nowhere;\n"
                        ".visible .entry k() { .reg .b32 %r1; ld.global.u32 %r1, [nowhere]; ret; }\n",
                 HEADER, "undefined device variable 'nowhere'");
    expect_error(HEADER ".extern .func g(.param .b32 x);\n", HEADER ".visible .func g() { ret; }\n",
                 "'g' is declared in a.ptx differently from its definition in b.ptx");
    expect_error(HEADER ".visible .global .u32 h;\n", HEADER ".visible .func h() { ret; }\n",
                 "'h' is a function in one module and a variable in another");
}

/* Dynamic shared memory is declared by each module for itself and stays so. */
static void test_dynamic_shared(void) {
    const char *a = HEADER ".extern .shared .align 16 .b8 dynA[];\n"
                    ".visible .entry ka() { .reg .b64 %rd1; mov.u64 %rd1, dynA; ret; }\n";
    const char *b = HEADER ".extern .shared .align 16 .b8 dynB[];\n"
                    ".visible .entry kb() { .reg .b64 %rd1; mov.u64 %rd1, dynB; ret; }\n";
    char err[256];
    ptx_module *m = link2(a, b, err, sizeof err);
    CHECK(m != NULL);
    if (!m) return;
    CHECK_EQ_U64(m->nvars, 2);
    for (uint32_t i = 0; i < m->nvars; i++)
        CHECK(m->vars[i].is_extern && m->vars[i].space == PTX_SPACE_SHARED);
    ptx_module_free(m);
}

/* nvcc's own output for the two translation units of tests/cuda/dp/rdcMain.cu. */
static void test_nvcc_rdc(void) {
    char path[512];
    ptx_module *mods[2] = {NULL, NULL};
    const char *names[2] = {"rdcMain.ptx", "rdcLib.ptx"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/unit/data/rdc/%s", VCUDA_TEST_DIR, names[i]);
        char *text = test_read_file(path, NULL);
        CHECK(text != NULL);
        if (text) mods[i] = parse(names[i], text);
        free(text);
    }
    if (!mods[0] || !mods[1]) {
        ptx_module_free(mods[0]);
        ptx_module_free(mods[1]);
        return;
    }
    char err[512];
    ptx_module *m = ptx_link(mods, 2, "rdc.ptx", err, sizeof err);
    if (!m) fprintf(stderr, "link failed: %s\n", err);
    CHECK(m != NULL);
    if (!m) return;
    /* the kernel launched across units, the function and the variables: one of each,
     * defined; the device runtime's functions: declarations */
    int child = find_func(m, "_Z8libChildPii", 0), scale = find_func(m, "_Z8libScalei", 0);
    CHECK(child >= 0 && find_func(m, "_Z8libChildPii", 1) < 0 && m->funcs[child].ninsns > 0);
    CHECK(scale >= 0 && find_func(m, "_Z8libScalei", 1) < 0 && m->funcs[scale].ninsns > 0);
    int launch = find_func(m, "__cudaCDP2LaunchDeviceV2", 0);
    CHECK(launch >= 0 && m->funcs[launch].ninsns == 0);
    int off = ptx_find_var(m, "libOffset");
    CHECK(off >= 0 && !m->vars[off].is_extern && m->vars[off].init);
    if (off >= 0 && m->vars[off].init) CHECK_EQ_U64(m->vars[off].init[0], 7);
    int main_kernel = find_func(m, "_Z10mainKernelPi", 0);
    CHECK(main_kernel >= 0);
    /* mainKernel takes libChild's address for the launch: it must be the definition */
    bool takes_child = false;
    if (main_kernel >= 0)
        for (uint32_t i = 0; i < m->funcs[main_kernel].ninsns; i++) {
            const ptx_insn *in = &m->funcs[main_kernel].insns[i];
            for (uint32_t k = 0; k < in->nopnds; k++)
                if (in->opnd[k].kind == PTX_OPND_SYM && in->opnd[k].sym.scope == PTX_SYM_FUNC &&
                    in->opnd[k].sym.index == child)
                    takes_child = true;
        }
    CHECK(takes_child);
    ptx_module_free(m);
}

int main(void) {
    test_binding();
    test_weak();
    test_errors();
    test_dynamic_shared();
    test_nvcc_rdc();
    return harness_report("test_ptx_link");
}
