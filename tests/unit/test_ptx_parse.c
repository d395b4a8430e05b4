/* tests/unit/test_ptx_parse.c — the PTX parser on real nvcc output and hand-written PTX
 * (tests/ptx/parse/): every file parses, every index in the IR is in range, every
 * single-line instruction prints back as its source text, and known modules have the
 * structure their source says (functions, parameters, registers, operands, labels,
 * reconvergence points, .loc lines, initializers and relocations). */
#include "ptx/ir.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_files.h"

static int failures;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);       \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)
#define CHECK_EQ(a, b)                                                                    \
    do {                                                                                  \
        long long a_ = (long long)(a), b_ = (long long)(b);                               \
        if (a_ != b_) {                                                                   \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n", __FILE__,    \
                    __LINE__, #a, a_, #b, b_);                                            \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)
#define CHECK_STR(a, b)                                                                   \
    do {                                                                                  \
        const char *a_ = (a), *b_ = (b);                                                  \
        if (!a_ || strcmp(a_, b_) != 0) {                                                 \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s = \"%s\", expected \"%s\"\n",     \
                    __FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_);                      \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

#define PARSE_DIR VCUDA_TEST_DIR "/ptx/parse"

static ptx_module *load(const char *name) {
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/%s", PARSE_DIR, name);
    size_t len;
    char *text = test_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        failures++;
        return NULL;
    }
    ptx_module *m = ptx_parse(text, len, name, err, sizeof err);
    free(text);
    if (!m) {
        fprintf(stderr, "parse of %s failed: %s\n", name, err);
        failures++;
    }
    return m;
}

static const ptx_func *func(const ptx_module *m, const char *name) {
    int i = ptx_find_func(m, name);
    if (i < 0) {
        fprintf(stderr, "no function %s\n", name);
        failures++;
        return NULL;
    }
    return &m->funcs[i];
}

static const char *insn_text(const ptx_module *m, const ptx_func *f, uint32_t i) {
    static char buf[1024];
    if (i >= f->ninsns) return "<out of range>";
    return ptx_insn_str(m, f, &f->insns[i], buf, sizeof buf);
}

/* Index of the first instruction printing as text, or -1. */
static int find_insn(const ptx_module *m, const ptx_func *f, const char *text) {
    for (uint32_t i = 0; i < f->ninsns; i++)
        if (strcmp(insn_text(m, f, i), text) == 0) return (int)i;
    fprintf(stderr, "instruction not found in %s: %s\n", f->name, text);
    failures++;
    return -1;
}

static int label_insn(const ptx_func *f, const char *name) {
    for (uint32_t i = 0; i < f->nlabels; i++)
        if (strcmp(f->labels[i].name, name) == 0) return f->labels[i].insn;
    return -2;
}

/* ---- checks that hold for every module ---- */

static void check_operand(const ptx_module *m, const ptx_func *f, const ptx_operand *o, bool in_group) {
    switch (o->kind) {
    case PTX_OPND_REG:
        CHECK(o->reg >= 0 && (uint32_t)o->reg < f->nregs);
        CHECK(o->reg2 < (int32_t)f->nregs);
        break;
    case PTX_OPND_SREG: CHECK(o->sreg < PTX_SREG_COUNT); break;
    case PTX_OPND_SYM:
    case PTX_OPND_ADDR:
        if (o->sym.index >= 0) {
            uint32_t n = o->sym.scope == PTX_SYM_MODULE_VAR ? m->nvars
                         : o->sym.scope == PTX_SYM_FUNC     ? m->nfuncs
                         : o->sym.scope == PTX_SYM_LOCAL_VAR ? f->nlocals
                         : o->sym.scope == PTX_SYM_PARAM    ? f->nparams
                                                            : f->nrets;
            CHECK((uint32_t)o->sym.index < n);
        }
        if (o->kind == PTX_OPND_SYM) CHECK(o->sym.index >= 0);
        if (o->kind == PTX_OPND_ADDR) CHECK(o->reg < 0 || o->sym.index < 0);
        break;
    case PTX_OPND_LABEL: CHECK(o->label >= 0 && (uint32_t)o->label < f->nlabels); break;
    case PTX_OPND_VEC:
    case PTX_OPND_LIST:
        CHECK(!in_group);
        CHECK(o->vec_first + o->vec_n <= f->nvec_elems);
        for (uint32_t k = 0; k < o->vec_n && o->vec_first + k < f->nvec_elems; k++)
            check_operand(m, f, &f->vec_elems[o->vec_first + k], true);
        break;
    case PTX_OPND_IMM_INT: case PTX_OPND_IMM_F32: case PTX_OPND_IMM_F64: case PTX_OPND_SINK: break;
    default: CHECK(!"bad operand kind");
    }
}

static void check_invariants(const ptx_module *m) {
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_func *f = &m->funcs[fi];
        CHECK(f->name != NULL);
        for (uint32_t i = 0; i < f->nlabels; i++)
            CHECK(f->labels[i].insn >= 0 && (uint32_t)f->labels[i].insn <= f->ninsns);
        for (uint32_t i = 0; i < f->nregs; i++) CHECK(f->regs[i].type > 0 && f->regs[i].type < PTX_T_COUNT);
        for (uint32_t i = 0; i < f->ninsns; i++) {
            const ptx_insn *in = &f->insns[i];
            CHECK(in->op < PTX_OP_COUNT);
            CHECK(in->nopnds <= PTX_MAX_OPNDS);
            CHECK(in->guard < (int32_t)f->nregs);
            if (in->guard >= 0) CHECK_EQ(f->regs[in->guard].type, PTX_T_pred);
            CHECK(in->reconv >= -1 && in->reconv < (int32_t)f->ninsns);
            CHECK(in->loc.ptx_line > 0);
            for (unsigned k = 0; k < in->nopnds; k++) check_operand(m, f, &in->opnd[k], false);
        }
    }
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ptx_var *v = &m->vars[i];
        for (uint32_t r = 0; r < v->nrelocs; r++) {
            CHECK(v->relocs[r].offset + v->relocs[r].size <= v->size);
            CHECK(v->relocs[r].size == 4 || v->relocs[r].size == 8);
        }
    }
}

/* Independent check of the reconvergence points, by brute force at instruction level:
 * c post-dominates i when i cannot reach the exit once c is removed. The reconvergence
 * point of a divergent branch b must be the post-dominator of b that every other
 * post-dominator of b post-dominates (or -1 when only the exit does). Functions where some
 * instruction cannot reach the exit (endless loops) are left to the hand-made cases. */
static int reconv_checked;

static int insn_succs(const ptx_func *f, uint32_t i, uint32_t *out) {
    const ptx_insn *in = &f->insns[i];
    uint32_t n = f->ninsns, k = 0;
    bool falls = true;
    if (in->op == PTX_OP_bra) {
        for (unsigned o = 0; o < in->nopnds; o++)
            if (in->opnd[o].kind == PTX_OPND_LABEL) out[k++] = (uint32_t)f->labels[in->opnd[o].label].insn;
        falls = in->guard >= 0;
    } else if (in->op == PTX_OP_brx) {
        const ptx_operand *t = &in->opnd[1];
        for (uint32_t e = 0; e < t->vec_n; e++) out[k++] = (uint32_t)f->labels[f->vec_elems[t->vec_first + e].label].insn;
        falls = in->guard >= 0;
    } else if (in->op == PTX_OP_ret || in->op == PTX_OP_exit || in->op == PTX_OP_trap) {
        out[k++] = n;
        falls = in->guard >= 0;
    }
    if (falls) out[k++] = i + 1;
    return (int)k;
}

static void check_reconv_bruteforce(const char *name, const ptx_func *f) {
    uint32_t n = f->ninsns, nn = n + 1; /* node n is the exit */
    if (n == 0 || n > 4000) return;
    /* predecessor lists */
    uint32_t *npred = calloc(nn, sizeof *npred), *preds = malloc(sizeof *preds * nn * 64), succ[64];
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        int k = insn_succs(f, i, succ);
        for (int e = 0; e < k; e++) {
            if (npred[succ[e]] == 64) { ok = false; break; }
            preds[succ[e] * 64 + npred[succ[e]]++] = i;
        }
    }
    uint8_t *reach = malloc((size_t)nn * nn); /* reach[c*nn+i]: i reaches exit avoiding c */
    uint32_t *stack = malloc(sizeof *stack * nn);
    for (uint32_t c = 0; c <= n && ok; c++) {
        uint8_t *r = reach + (size_t)c * nn;
        memset(r, 0, nn);
        uint32_t sp = 0;
        r[n] = 1;
        stack[sp++] = n;
        while (sp) {
            uint32_t x = stack[--sp];
            for (uint32_t e = 0; e < npred[x]; e++) {
                uint32_t q = preds[x * 64 + e];
                if (q != c && !r[q]) { r[q] = 1; stack[sp++] = q; }
            }
        }
    }
    /* with c = the exit itself (index n) nothing is removed: every instruction must reach it */
    for (uint32_t i = 0; i < n && ok; i++)
        if (!reach[(size_t)n * nn + i]) ok = false;
    for (uint32_t b = 0; b < n && ok; b++) {
        int k = insn_succs(f, b, succ);
        if (k < 2 || (k == 2 && succ[0] == succ[1])) continue; /* not divergent */
        reconv_checked++;
        int32_t want = -1;
        for (uint32_t c = 0; c < n; c++) {
            if (c == b || reach[(size_t)c * nn + b]) continue; /* c does not post-dominate b */
            bool nearest = true;
            for (uint32_t c2 = 0; c2 < n && nearest; c2++)
                if (c2 != b && c2 != c && !reach[(size_t)c2 * nn + b] && reach[(size_t)c2 * nn + c]) nearest = false;
            if (nearest) { want = (int32_t)c; break; }
        }
        if (f->insns[b].reconv != want) {
            fprintf(stderr, "%s: %s insn %u: reconv %d, brute force says %d\n", name, f->name, b, f->insns[b].reconv, want);
            failures++;
        }
    }
    free(npred);
    free(preds);
    free(reach);
    free(stack);
}

/* Each instruction written on one line prints back as that line (whitespace, "+0]" and
 * inline-asm braces aside). */
static void normalize(const char *s, char *o, size_t n) {
    size_t k = 0;
    for (; *s && k + 1 < n; s++) {
        if (s[0] == '/' && s[1] == '/') break;
        if (!isspace((unsigned char)*s)) o[k++] = *s;
    }
    o[k] = 0;
    char *q;
    while ((q = strstr(o, "+0]"))) memmove(q, q + 2, strlen(q + 2) + 1);
    if (o[0] == '{') memmove(o, o + 1, strlen(o));
    size_t len = strlen(o);
    if (len > 1 && o[len - 1] == '}' && o[len - 2] == ';') o[len - 1] = 0;
}

static void check_round_trip(const char *name, const char *text, const ptx_module *m) {
    /* line index */
    size_t nlines = 1;
    for (const char *c = text; *c; c++) nlines += *c == '\n';
    const char **lines = calloc(nlines + 2, sizeof *lines);
    size_t li = 1;
    lines[li] = text;
    for (const char *c = text; *c; c++)
        if (*c == '\n') lines[++li] = c + 1;
    int compared = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_func *f = &m->funcs[fi];
        for (uint32_t i = 0; i < f->ninsns; i++) {
            uint32_t ln = f->insns[i].loc.ptx_line;
            if (ln < 1 || ln > nlines) { CHECK(!"line out of range"); continue; }
            const char *end = strchr(lines[ln], '\n');
            size_t len = end ? (size_t)(end - lines[ln]) : strlen(lines[ln]);
            char src[1024], a[1024], b[1024];
            if (len >= sizeof src) continue;
            memcpy(src, lines[ln], len);
            src[len] = 0;
            if (!strchr(src, ';') || strstr(src, "L1::") || strstr(src, "L2::")) continue;
            normalize(src, a, sizeof a);
            char out[1024];
            normalize(ptx_insn_str(m, f, &f->insns[i], out, sizeof out), b, sizeof b);
            compared++;
            if (strcmp(a, b) != 0) {
                fprintf(stderr, "%s:%u: source  %s\n%*s  printed %s\n", name, ln, a, (int)strlen(name) + 4, "", b);
                failures++;
            }
        }
    }
    CHECK(compared > 0);
    free(lines);
}

static void test_all_files(void) {
    DIR *d = opendir(PARSE_DIR);
    CHECK(d != NULL);
    if (!d) return;
    int nfiles = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".ptx") != 0) continue;
        char path[512], err[512];
        snprintf(path, sizeof path, "%s/%s", PARSE_DIR, e->d_name);
        size_t len;
        char *text = test_read_file(path, &len);
        ptx_module *m = text ? ptx_parse(text, len, e->d_name, err, sizeof err) : NULL;
        if (!m) {
            fprintf(stderr, "%s: %s\n", e->d_name, text ? err : "unreadable");
            failures++;
        } else {
            nfiles++;
            CHECK(m->nfuncs > 0);
            CHECK(m->address_size == 64);
            check_invariants(m);
            /* hand-written files use literal spellings the printer normalizes */
            if (strncmp(e->d_name, "handwritten", 11) != 0) check_round_trip(e->d_name, text, m);
            for (uint32_t fi = 0; fi < m->nfuncs; fi++) check_reconv_bruteforce(e->d_name, &m->funcs[fi]);
        }
        ptx_module_free(m);
        free(text);
    }
    closedir(d);
    CHECK(nfiles >= 15);
    CHECK(reconv_checked > 100);
}

/* ---- known modules ---- */

static void test_vadd(void) {
    ptx_module *m = load("vadd.sm90.ptx");
    if (!m) return;
    CHECK_EQ(m->version_major, 9);
    CHECK_EQ(m->version_minor, 0);
    CHECK_EQ(m->target_sm, 90);
    CHECK_EQ(m->address_size, 64);
    CHECK_EQ(m->nfuncs, 1);
    CHECK_EQ(m->nvars, 0);
    const ptx_func *f = func(m, "_Z4vaddPKfS0_Pfi");
    if (!f) goto out;
    CHECK(f->is_entry && f->is_visible && !f->is_extern);
    CHECK_EQ(f->nparams, 4);
    CHECK_EQ(f->nrets, 0);
    const uint8_t ptypes[4] = {PTX_T_u64, PTX_T_u64, PTX_T_u64, PTX_T_u32};
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(f->params[i].type, ptypes[i]);
        CHECK_EQ(f->params[i].space, PTX_SPACE_PARAM);
        CHECK_EQ(f->params[i].size, ptx_type_sizes[ptypes[i]]);
    }
    CHECK_STR(f->params[3].name, "_Z4vaddPKfS0_Pfi_param_3");
    /* %p<2> %f<4> %r<6> %rd<11> */
    CHECK_EQ(f->nregs, 2 + 4 + 6 + 11);
    CHECK_STR(f->regs[0].name, "%p0");
    CHECK_EQ(f->regs[0].type, PTX_T_pred);
    CHECK_STR(f->regs[12].name, "%rd0"); /* after 2 + 4 + 6 registers */
    CHECK_EQ(f->regs[12].type, PTX_T_b64);
    CHECK_EQ(f->ninsns, 22);

    /* ld.param.u64 %rd1, [_Z4vaddPKfS0_Pfi_param_0]; */
    const ptx_insn *in = &f->insns[0];
    CHECK_EQ(in->op, PTX_OP_ld);
    CHECK_EQ(in->nmods, 1);
    CHECK_EQ(in->mods[0], PTX_MOD_param);
    CHECK_EQ(in->ntypes, 1);
    CHECK_EQ(in->types[0], PTX_T_u64);
    CHECK_EQ(in->nopnds, 2);
    CHECK_EQ(in->opnd[0].kind, PTX_OPND_REG);
    CHECK_STR(f->regs[in->opnd[0].reg].name, "%rd1");
    CHECK_EQ(in->opnd[1].kind, PTX_OPND_ADDR);
    CHECK_EQ(in->opnd[1].reg, -1);
    CHECK_EQ(in->opnd[1].sym.scope, PTX_SYM_PARAM);
    CHECK_EQ(in->opnd[1].sym.index, 0);
    CHECK_EQ(in->opnd[1].ival, 0);
    CHECK_EQ(in->guard, -1);

    /* mov.u32 %r3, %ctaid.x; */
    in = &f->insns[4];
    CHECK_EQ(in->op, PTX_OP_mov);
    CHECK_EQ(in->opnd[1].kind, PTX_OPND_SREG);
    CHECK_EQ(in->opnd[1].sreg, PTX_SREG_CTAID_X);
    CHECK_EQ(f->insns[5].opnd[1].sreg, PTX_SREG_NTID_X);
    CHECK_EQ(f->insns[6].opnd[1].sreg, PTX_SREG_TID_X);

    /* mad.lo.s32 %r1, %r3, %r4, %r5; */
    in = &f->insns[7];
    CHECK_EQ(in->op, PTX_OP_mad);
    CHECK_EQ(in->nmods, 1);
    CHECK_EQ(in->mods[0], PTX_MOD_lo);
    CHECK(ptx_insn_has_mod(in, PTX_MOD_lo));
    CHECK_EQ(in->types[0], PTX_T_s32);
    CHECK_EQ(in->nopnds, 4);
    const char *names[4] = {"%r1", "%r3", "%r4", "%r5"};
    for (int k = 0; k < 4; k++) {
        CHECK_EQ(in->opnd[k].kind, PTX_OPND_REG);
        CHECK_STR(f->regs[in->opnd[k].reg].name, names[k]);
        CHECK_EQ(f->regs[in->opnd[k].reg].type, PTX_T_b32);
    }

    /* @%p1 bra $L__BB0_2; -> label at the final ret, which is also where it reconverges */
    in = &f->insns[9];
    CHECK_EQ(in->op, PTX_OP_bra);
    CHECK(in->guard >= 0 && strcmp(f->regs[in->guard].name, "%p1") == 0);
    CHECK(!in->guard_neg);
    CHECK_EQ(in->nopnds, 1);
    CHECK_EQ(in->opnd[0].kind, PTX_OPND_LABEL);
    CHECK_STR(f->labels[in->opnd[0].label].name, "$L__BB0_2");
    CHECK_EQ(f->labels[in->opnd[0].label].insn, 21);
    CHECK_EQ(f->insns[21].op, PTX_OP_ret);
    CHECK_EQ(in->reconv, 21);
    CHECK_EQ(in->loc.ptx_line, 37);
    CHECK_EQ(in->loc.ptx_col, 2);

    /* cvta.to.global.u64 %rd4, %rd1; */
    in = &f->insns[10];
    CHECK_EQ(in->op, PTX_OP_cvta);
    CHECK_EQ(in->nmods, 2);
    CHECK_EQ(in->mods[0], PTX_MOD_to);
    CHECK_EQ(in->mods[1], PTX_MOD_global);
    /* mul.wide.s32 %rd5, %r1, 4; */
    in = &f->insns[11];
    CHECK_EQ(in->mods[0], PTX_MOD_wide);
    CHECK_EQ(in->opnd[2].kind, PTX_OPND_IMM_INT);
    CHECK_EQ(in->opnd[2].ival, 4);
    /* st.global.f32 [%rd10], %f3; */
    in = &f->insns[20];
    CHECK_EQ(in->op, PTX_OP_st);
    CHECK_EQ(in->opnd[0].kind, PTX_OPND_ADDR);
    CHECK_STR(f->regs[in->opnd[0].reg].name, "%rd10");
    CHECK_EQ(in->opnd[0].sym.index, -1);
    CHECK(ptx_opcode_flags[in->op] & PTX_OPF_NODST);
out:
    ptx_module_free(m);
}

static void test_lineinfo(void) {
    ptx_module *m = load("vadd.lineinfo.ptx");
    if (!m) return;
    CHECK(m->nfiles >= 2);
    if (m->nfiles >= 2) {
        CHECK(m->files[0] == NULL);
        const char *f1 = m->files[1];
        CHECK(f1 && strlen(f1) >= 7 && strcmp(f1 + strlen(f1) - 7, "vadd.cu") == 0);
    }
    const ptx_func *f = func(m, "_Z4vaddPKfS0_Pfi");
    if (f) {
        int i = find_insn(m, f, "mad.lo.s32 %r1, %r3, %r4, %r5;");
        if (i >= 0) { CHECK_EQ(f->insns[i].loc.line, 4); CHECK_EQ(f->insns[i].loc.file, 1); }
        i = find_insn(m, f, "setp.ge.s32 %p1, %r1, %r2;");
        if (i >= 0) CHECK_EQ(f->insns[i].loc.line, 5);
        i = find_insn(m, f, "st.global.f32 [%rd10], %f3;");
        if (i >= 0) CHECK_EQ(f->insns[i].loc.line, 6);
        CHECK_EQ(f->insns[0].loc.line, 2);
    }
    ptx_module_free(m);

    /* -G: debug target, .section blocks skipped, .loc everywhere */
    m = load("vadd.G.ptx");
    if (!m) return;
    CHECK_EQ(m->target_sm, 90);
    f = func(m, "_Z4vaddPKfS0_Pfi");
    if (f) {
        int i = find_insn(m, f, "not.pred %p2, %p1;");
        if (i >= 0) CHECK_EQ(f->insns[i].loc.line, 5);
    }
    ptx_module_free(m);
}

static void test_printf_assert(void) {
    ptx_module *m = load("printf.sm90.ptx");
    if (!m) return;
    const ptx_func *vp = func(m, "vprintf");
    if (vp) {
        CHECK(vp->is_extern && !vp->is_entry);
        CHECK_EQ(vp->nrets, 1);
        CHECK_EQ(vp->nparams, 2);
        CHECK_EQ(vp->ninsns, 0);
        CHECK_STR(vp->rets[0].name, "func_retval0");
        CHECK_EQ(vp->rets[0].type, PTX_T_b32);
    }
    const ptx_func *af = func(m, "__assertfail");
    if (af) { CHECK_EQ(af->nparams, 5); CHECK_EQ(af->params[2].type, PTX_T_b32); }
    int si = ptx_find_var(m, "$str");
    CHECK(si >= 0);
    if (si >= 0) {
        const ptx_var *v = &m->vars[si];
        CHECK_EQ(v->space, PTX_SPACE_GLOBAL);
        CHECK_EQ(v->size, 38);
        CHECK_EQ(v->align, 1);
        CHECK(v->init && memcmp(v->init, "hello from block %d thread %d: %d %f\n", 38) == 0);
    }
    CHECK(ptx_find_var(m, "$str$1") >= 0);
    CHECK(ptx_find_var(m, "nope") < 0);
    const ptx_func *f = func(m, "_Z5helloid");
    if (!f) goto out;
    CHECK_EQ(f->params[1].type, PTX_T_f64);
    /* __local_depot0 is a function-local .local variable */
    CHECK(f->nlocals >= 1);
    CHECK_STR(f->locals[0].name, "__local_depot0");
    CHECK_EQ(f->locals[0].space, PTX_SPACE_LOCAL);
    CHECK_EQ(f->locals[0].size, 24);
    CHECK_EQ(f->locals[0].align, 8);
    int i = find_insn(m, f, "mov.u64 %SPL, __local_depot0;");
    if (i >= 0) {
        CHECK_EQ(f->insns[i].opnd[1].kind, PTX_OPND_SYM);
        CHECK_EQ(f->insns[i].opnd[1].sym.scope, PTX_SYM_LOCAL_VAR);
        CHECK_EQ(f->insns[i].opnd[1].sym.index, 0);
    }
    i = find_insn(m, f, "mov.u64 %rd3, $str;");
    if (i >= 0) {
        CHECK_EQ(f->insns[i].opnd[1].sym.scope, PTX_SYM_MODULE_VAR);
        CHECK_EQ(f->insns[i].opnd[1].sym.index, si);
    }
    i = find_insn(m, f, "st.local.v2.u32 [%rd2], {%r3, %r2};");
    if (i >= 0) {
        const ptx_insn *in = &f->insns[i];
        CHECK_EQ(in->mods[1], PTX_MOD_v2);
        CHECK_EQ(in->opnd[1].kind, PTX_OPND_VEC);
        CHECK_EQ(in->opnd[1].vec_n, 2);
        CHECK_STR(f->regs[f->vec_elems[in->opnd[1].vec_first].reg].name, "%r3");
    }
    /* call.uni (retval0), vprintf, (param0, param1); */
    int calls[2], nc = 0;
    for (uint32_t k = 0; k < f->ninsns && nc < 2; k++)
        if (f->insns[k].op == PTX_OP_call) calls[nc++] = (int)k;
    CHECK_EQ(nc, 2);
    if (nc == 2) {
        const ptx_insn *c = &f->insns[calls[0]];
        CHECK_EQ(c->mods[0], PTX_MOD_uni);
        CHECK_EQ(c->nopnds, 3);
        CHECK_EQ(c->opnd[0].kind, PTX_OPND_LIST);
        CHECK_EQ(c->opnd[0].vec_n, 1);
        const ptx_operand *ret = &f->vec_elems[c->opnd[0].vec_first];
        CHECK_EQ(ret->kind, PTX_OPND_SYM);
        CHECK_EQ(ret->sym.scope, PTX_SYM_LOCAL_VAR);
        CHECK_STR(f->locals[ret->sym.index].name, "retval0");
        CHECK_EQ(f->locals[ret->sym.index].space, PTX_SPACE_PARAM);
        CHECK_EQ(c->opnd[1].kind, PTX_OPND_SYM);
        CHECK_EQ(c->opnd[1].sym.scope, PTX_SYM_FUNC);
        CHECK_EQ(c->opnd[1].sym.index, ptx_find_func(m, "vprintf"));
        CHECK_EQ(c->opnd[2].kind, PTX_OPND_LIST);
        CHECK_EQ(c->opnd[2].vec_n, 2);
        int p0_first = f->vec_elems[c->opnd[2].vec_first].sym.index;
        CHECK_STR(f->locals[p0_first].name, "param0");
        /* the store before the call writes that same param0 */
        i = find_insn(m, f, "st.param.b64 [param0], %rd4;");
        if (i >= 0) {
            CHECK(i < calls[0]);
            CHECK_EQ(f->insns[i].opnd[0].sym.scope, PTX_SYM_LOCAL_VAR);
            CHECK_EQ(f->insns[i].opnd[0].sym.index, p0_first);
        }
        /* call.uni __assertfail, (param0, ..., param4); no return list */
        c = &f->insns[calls[1]];
        CHECK_EQ(c->nopnds, 2);
        CHECK_EQ(c->opnd[0].kind, PTX_OPND_SYM);
        CHECK_EQ(c->opnd[0].sym.index, ptx_find_func(m, "__assertfail"));
        CHECK_EQ(c->opnd[1].vec_n, 5);
        /* the second callseq's param0 is a different variable from the first's */
        int p0_second = f->vec_elems[c->opnd[1].vec_first].sym.index;
        CHECK(p0_second != p0_first);
        CHECK_STR(f->locals[p0_second].name, "param0");
        /* st.param.b32 [param2+0], 6; in the second callseq */
        i = find_insn(m, f, "st.param.b32 [param2], 6;");
        if (i >= 0) CHECK_EQ(f->insns[i].opnd[0].sym.index, f->vec_elems[c->opnd[1].vec_first + 2].sym.index);
    }
    /* "temp_param_reg" is declared in both callseq blocks: two registers */
    int ntemp = 0;
    for (uint32_t k = 0; k < f->nregs; k++) ntemp += strcmp(f->regs[k].name, "temp_param_reg") == 0;
    CHECK_EQ(ntemp, 2);
out:
    ptx_module_free(m);
}

static void test_reduce(void) {
    ptx_module *m = load("reduce.sm90.ptx");
    if (!m) return;
    int gc = ptx_find_var(m, "g_counter"), cs = ptx_find_var(m, "c_scale"), dy = ptx_find_var(m, "dyn");
    CHECK(gc >= 0 && cs >= 0 && dy >= 0);
    if (gc >= 0) {
        CHECK_EQ(m->vars[gc].type, PTX_T_u32);
        CHECK_EQ(m->vars[gc].size, 4);
        CHECK(m->vars[gc].init == NULL);
        CHECK(m->vars[gc].is_visible == false);
    }
    if (cs >= 0) {
        const ptx_var *v = &m->vars[cs];
        CHECK_EQ(v->space, PTX_SPACE_CONST);
        CHECK_EQ(v->size, 16);
        float vals[4];
        if (v->init) memcpy(vals, v->init, 16);
        CHECK(v->init && vals[0] == 1.0f && vals[1] == 0.5f && vals[2] == 0.25f && vals[3] == 0.125f);
    }
    if (dy >= 0) {
        CHECK(m->vars[dy].is_extern && m->vars[dy].unsized);
        CHECK_EQ(m->vars[dy].space, PTX_SPACE_SHARED);
        CHECK_EQ(m->vars[dy].size, 0);
        CHECK_EQ(m->vars[dy].align, 16);
    }
    const ptx_func *f = func(m, "_Z6reduceILi256EEvPKfPfi");
    if (!f) goto out;
    CHECK_EQ(f->nlocals, 1);
    CHECK_EQ(f->locals[0].space, PTX_SPACE_SHARED);
    CHECK_EQ(f->locals[0].size, 1024);
    int i = find_insn(m, f, "shfl.sync.down.b32 %r17|%p6, %r12, %r15, %r14, %r16;");
    if (i >= 0) {
        const ptx_insn *in = &f->insns[i];
        CHECK_EQ(in->op, PTX_OP_shfl);
        CHECK_EQ(in->mods[0], PTX_MOD_sync);
        CHECK_EQ(in->mods[1], PTX_MOD_down);
        CHECK_EQ(in->types[0], PTX_T_b32);
        CHECK_EQ(in->nopnds, 5);
        CHECK_STR(f->regs[in->opnd[0].reg2].name, "%p6");
    }
    i = find_insn(m, f, "bar.warp.sync -1;");
    if (i >= 0) {
        CHECK_EQ(f->insns[i].mods[0], PTX_MOD_warp);
        CHECK_EQ(f->insns[i].opnd[0].ival, -1);
    }
    i = find_insn(m, f, "mov.f32 %f30, 0f00000000;");
    if (i >= 0) CHECK_EQ(f->insns[i].opnd[1].kind, PTX_OPND_IMM_F32);
    i = find_insn(m, f, "mov.u32 %r9, _ZZ6reduceILi256EEvPKfPfiE5sdata;");
    if (i >= 0) CHECK_EQ(f->insns[i].opnd[1].sym.scope, PTX_SYM_LOCAL_VAR);
    i = find_insn(m, f, "ld.shared.f32 %f11, [%r4+512];");
    if (i >= 0) CHECK_EQ(f->insns[i].opnd[1].ival, 512);
    /* Each guarded forward branch here skips an if-body: it reconverges at its target. */
    int nbranches = 0;
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const ptx_insn *in = &f->insns[k];
        if (in->op != PTX_OP_bra || in->guard < 0) continue;
        nbranches++;
        CHECK_EQ(in->reconv, f->labels[in->opnd[0].label].insn);
    }
    CHECK_EQ(nbranches, 7);
    i = find_insn(m, f, "atom.global.cas.b32 %r35, [%rd14], %r34, %r33;");
    if (i >= 0) CHECK_EQ(f->insns[i].mods[1], PTX_MOD_cas);
out:
    ptx_module_free(m);
}

static void test_recursion_and_structs(void) {
    ptx_module *m = load("recurse.sm90.ptx");
    if (!m) return;
    int fib = ptx_find_func(m, "_Z3fibi");
    const ptx_func *f = func(m, "_Z3fibi");
    if (f) {
        CHECK(!f->is_entry && !f->is_visible);
        CHECK_EQ(f->nrets, 1);
        CHECK_EQ(f->nparams, 1);
        int calls = 0;
        for (uint32_t k = 0; k < f->ninsns; k++) {
            const ptx_insn *in = &f->insns[k];
            if (in->op != PTX_OP_call) continue;
            calls++;
            CHECK_EQ(in->opnd[1].sym.scope, PTX_SYM_FUNC);
            CHECK_EQ(in->opnd[1].sym.index, fib);
        }
        CHECK_EQ(calls, 2);
        int i = find_insn(m, f, "st.param.b32 [func_retval0], %r8;");
        if (i >= 0) {
            CHECK_EQ(f->insns[i].opnd[0].sym.scope, PTX_SYM_RETPARAM);
            CHECK_EQ(f->insns[i].opnd[0].sym.index, 0);
        }
    }
    f = func(m, "_Z4kern4PairPiPdPfi");
    if (f) {
        CHECK_EQ(f->nparams, 5);
        CHECK_EQ(f->params[0].type, PTX_T_b8);
        CHECK_EQ(f->params[0].size, 32);
        CHECK_EQ(f->params[0].align, 8);
        /* A loop latch reconverges at the instruction after it. */
        int latches = 0;
        for (uint32_t k = 0; k < f->ninsns; k++) {
            const ptx_insn *in = &f->insns[k];
            if (in->op == PTX_OP_bra && in->guard >= 0 && f->labels[in->opnd[0].label].insn <= (int32_t)k) {
                latches++;
                CHECK_EQ(in->reconv, (int32_t)k + 1);
            }
        }
        CHECK(latches >= 1);
    }
    const ptx_func *comb = func(m, "_Z7combine4Pair");
    if (comb) {
        CHECK_EQ(comb->params[0].size, 32);
        CHECK_EQ(comb->rets[0].type, PTX_T_b64);
    }
    int tab = ptx_find_var(m, "__cudart_i2opi_f");
    CHECK(tab >= 0);
    if (tab >= 0) CHECK(m->vars[tab].size == 24 && m->vars[tab].init && m->vars[tab].init[0] == 65);
    ptx_module_free(m);
}

static void test_globals(void) {
    ptx_module *m = load("globals.sm90.ptx");
    if (!m) return;
    int gx = ptx_find_var(m, "gx"), garr = ptx_find_var(m, "garr");
#define VAR(name) (ptx_find_var(m, name) >= 0 ? &m->vars[ptx_find_var(m, name)] : NULL)
    const ptx_var *v = VAR("gx");
    CHECK(v && v->init && v->init[0] == 5 && v->size == 4);
    v = VAR("gp");
    CHECK(v && v->nrelocs == 1);
    if (v && v->nrelocs == 1) {
        CHECK(v->relocs[0].generic);
        CHECK_EQ(v->relocs[0].sym.scope, PTX_SYM_MODULE_VAR);
        CHECK_EQ(v->relocs[0].sym.index, gx);
        CHECK_EQ(v->relocs[0].size, 8);
        CHECK_EQ(v->relocs[0].offset, 0);
    }
    v = VAR("gpa");
    CHECK(v && v->nrelocs == 2);
    if (v && v->nrelocs == 2) {
        CHECK_EQ(v->relocs[0].sym.index, garr);
        CHECK_EQ(v->relocs[0].addend, 4);
        CHECK_EQ(v->relocs[1].offset, 8);
        CHECK_EQ(v->relocs[1].sym.index, gx);
    }
    v = VAR("gs"); /* {7, generic(garr)+8, 120, generic(gx)} */
    CHECK(v && v->size == 32 && v->nrelocs == 2);
    if (v && v->init) { CHECK_EQ(v->init[0], 7); CHECK_EQ(v->init[16], 120); CHECK_EQ(v->relocs[0].offset, 8); }
    v = VAR("gd");
    if (v && v->init) {
        double d[2];
        memcpy(d, v->init, 16);
        CHECK(d[0] == 1.5 && d[1] == -2.0);
    }
    v = VAR("gf");
    if (v && v->init) {
        float fl;
        memcpy(&fl, v->init, 4);
        CHECK(fl == 3.25f);
    }
    v = VAR("mv");
    CHECK(v && v->is_managed && v->init && v->init[0] == 3);
    v = VAR("fp");
    CHECK(v && v->init == NULL && v->size == 8);
    v = VAR("fps");
    CHECK(v && v->nrelocs == 2);
    if (v && v->nrelocs == 2) {
        CHECK_EQ(v->relocs[0].sym.scope, PTX_SYM_FUNC);
        CHECK_EQ(v->relocs[0].sym.index, ptx_find_func(m, "_Z2f1Pi"));
        CHECK(!v->relocs[0].generic);
        CHECK_EQ(v->relocs[1].sym.index, ptx_find_func(m, "_Z2f2Pi"));
    }
    v = VAR("gsh");
    if (v && v->init) { int16_t s[3]; memcpy(s, v->init, 6); CHECK(s[0] == -1 && s[1] == 2 && s[2] == 3); }
    v = VAR("gpacked"); /* {97, 0XFF(generic(garr)+4), ..., 3, 0}: one 8-byte reloc at offset 1 */
    CHECK(v && v->size == 11 && v->nrelocs == 1);
    if (v && v->nrelocs == 1) {
        CHECK_EQ(v->relocs[0].offset, 1);
        CHECK_EQ(v->relocs[0].size, 8);
        CHECK_EQ(v->relocs[0].addend, 4);
        CHECK(v->relocs[0].generic);
        CHECK_EQ(v->relocs[0].sym.index, garr);
        CHECK(v->init[0] == 97 && v->init[9] == 3);
    }
    /* the forward declarations of f1/f2 and their definitions are one function each */
    int n_f1 = 0;
    for (uint32_t k = 0; k < m->nfuncs; k++) n_f1 += strcmp(m->funcs[k].name, "_Z2f1Pi") == 0;
    CHECK_EQ(n_f1, 1);
    const ptx_func *f1 = func(m, "_Z2f1Pi");
    CHECK(f1 && f1->ninsns > 0);
    /* the indirect call: call %rdN, (param0), prototype_0; */
    const ptx_func *k = func(m, "_Z1kiPi");
    if (k) {
        int found = 0;
        for (uint32_t i = 0; i < k->ninsns; i++) {
            const ptx_insn *in = &k->insns[i];
            if (in->op != PTX_OP_call) continue;
            found++;
            CHECK_EQ(in->nopnds, 3);
            CHECK_EQ(in->opnd[0].kind, PTX_OPND_REG);
            CHECK_EQ(in->opnd[1].kind, PTX_OPND_LIST);
            CHECK_EQ(in->opnd[2].kind, PTX_OPND_LABEL);
            CHECK_STR(k->labels[in->opnd[2].label].name, "prototype_0");
        }
        CHECK_EQ(found, 1);
    }
#undef VAR
    ptx_module_free(m);
}

static void test_perf_directives(void) {
    ptx_module *m = load("scan.sm90a.ptx");
    if (!m) return;
    CHECK_EQ(m->target_sm, 90);
    const ptx_func *f = func(m, "_Z4scanIiLi256EEvPKT_PS0_i");
    if (f) {
        CHECK(f->maxntid[0] == 256 && f->maxntid[1] == 1 && f->maxntid[2] == 1);
        CHECK_EQ(f->minnctapersm, 2);
        CHECK_EQ(f->nlocals, 1);
        CHECK_EQ(f->locals[0].size, 2 * 256 * 4);
    }
    f = func(m, "_Z9clusteredPi");
    if (f) {
        CHECK(f->explicitcluster);
        CHECK(f->reqnctapercluster[0] == 2 && f->reqnctapercluster[1] == 1 && f->reqnctapercluster[2] == 1);
    }
    f = func(m, "_Z7limitedPi");
    if (f) CHECK_EQ(f->maxnreg, 32);
    ptx_module_free(m);
}

static void test_atomics_and_warp(void) {
    ptx_module *m = load("atomics.sm80.ptx");
    if (!m) return;
    CHECK_EQ(m->target_sm, 80);
    const ptx_func *f = &m->funcs[0];
    int counts[PTX_OP_COUNT] = {0};
    for (uint32_t i = 0; i < f->ninsns; i++) counts[f->insns[i].op]++;
    CHECK(counts[PTX_OP_atom] >= 15);
    CHECK(counts[PTX_OP_vote] >= 2);
    CHECK(counts[PTX_OP_match] >= 1);
    CHECK(counts[PTX_OP_activemask] >= 1);
    CHECK(counts[PTX_OP_membar] >= 3);
    int i = find_insn(m, f, "atom.global.add.f64 %fd1, [%rd22], 0d3FE0000000000000;");
    if (i >= 0) {
        CHECK_EQ(f->insns[i].opnd[2].kind, PTX_OPND_IMM_F64);
        CHECK(f->insns[i].opnd[2].fval == 0.5);
    }
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const ptx_insn *in = &f->insns[k];
        if (in->op == PTX_OP_mov && in->opnd[1].kind == PTX_OPND_SREG) {
            uint8_t s = in->opnd[1].sreg;
            CHECK(s == PTX_SREG_TID_X || s == PTX_SREG_CTAID_Y || s == PTX_SREG_LANEID || s == PTX_SREG_SMID ||
                  s == PTX_SREG_LANEMASK_LT || s == PTX_SREG_GLOBALTIMER || s == PTX_SREG_CLOCK64);
        }
    }
    ptx_module_free(m);
}

static void test_handwritten(void) {
    ptx_module *m = load("handwritten_sm50.ptx");
    if (!m) return;
    CHECK_EQ(m->version_major, 6);
    CHECK_EQ(m->version_minor, 0);
    CHECK_EQ(m->target_sm, 50);
#define VAR(name) (ptx_find_var(m, name) >= 0 ? &m->vars[ptx_find_var(m, name)] : NULL)
    const ptx_var *v = VAR("kTable"); /* {0f3F800000, 1.5, 2, -0f40000000} */
    if (v && v->init) {
        float t[4];
        memcpy(t, v->init, 16);
        CHECK(t[0] == 1.0f && t[1] == 1.5f && t[2] == 2.0f && t[3] == -2.0f);
    } else CHECK(!"kTable");
    v = VAR("kDouble");
    if (v && v->init) { double d[2]; memcpy(d, v->init, 16); CHECK(d[0] == 1.0 && d[1] == 1e-3); }
    v = VAR("gOct");
    CHECK(v && v->init && v->init[0] == 15);
    v = VAR("gBin");
    CHECK(v && v->init && v->init[0] == 5);
    v = VAR("gNeg");
    if (v && v->init) { int32_t x; memcpy(&x, v->init, 4); CHECK_EQ(x, -7); }
    v = VAR("gMat");
    CHECK(v && v->size == 24 && v->align == 8 && v->init && v->init[20] == 6);
    v = VAR("gVec");
    CHECK(v && v->size == 32 && v->align == 16);
    if (v && v->init) { float fv[8]; memcpy(fv, v->init, 32); CHECK(fv[0] == 1.0f && fv[7] == 8.0f); }
    v = VAR("gAddr32");
    CHECK(v && v->nrelocs == 1 && v->relocs[0].size == 4 && v->relocs[0].addend == 4 && !v->relocs[0].generic);
    v = VAR("smem_dyn");
    CHECK(v && v->unsized && v->is_extern);
#undef VAR

    const ptx_func *f = func(m, "old_style");
    if (f) {
        CHECK(f->is_entry && !f->is_visible);
        CHECK_EQ(f->maxntid[0], 128);
        CHECK_EQ(f->minnctapersm, 4);
        const struct { const char *text; int kind; long long ival; } imms[] = {
            {"mov.u32 %r8, 31;", PTX_OPND_IMM_INT, 31},
            {"mov.u32 %r9, 8;", PTX_OPND_IMM_INT, 8},
            {"mov.b32 %r10, 3;", PTX_OPND_IMM_INT, 3},
            {"mov.u32 %r11, 4294967295;", PTX_OPND_IMM_INT, 4294967295ll},
            {"mov.f32 %f1, 0fBF800000;", PTX_OPND_IMM_F32, 0xBF800000ll},
            {"mov.f32 %f2, 0fBF800000;", PTX_OPND_IMM_F32, 0xBF800000ll},
            {"mov.f64 %fd1, 0d3FD0000000000000;", PTX_OPND_IMM_F64, 0x3FD0000000000000ll},
        };
        for (size_t k = 0; k < sizeof imms / sizeof imms[0]; k++) {
            int i = find_insn(m, f, imms[k].text);
            if (i < 0) continue;
            CHECK_EQ(f->insns[i].opnd[1].kind, imms[k].kind);
            CHECK_EQ(f->insns[i].opnd[1].ival, imms[k].ival);
        }
        int i = find_insn(m, f, "mov.f32 %f2, 0fBF800000;");
        if (i >= 0) CHECK(f->insns[i].opnd[1].fval == -1.0);
        i = find_insn(m, f, "mov.u32 %r7, %envreg3;");
        if (i >= 0) CHECK_EQ(f->insns[i].opnd[1].sreg, PTX_SREG_ENVREG0 + 3);
        i = find_insn(m, f, "mov.u32 %r4, %nctaid.z;");
        if (i >= 0) CHECK_EQ(f->insns[i].opnd[1].sreg, PTX_SREG_NCTAID_Z);
        i = find_insn(m, f, "@!%p1 bra BB0_4;");
        if (i >= 0) { CHECK(f->insns[i].guard_neg); CHECK_EQ(f->insns[i].reconv, label_insn(f, "BB0_4")); }
        i = find_insn(m, f, "setp.lt.u32 %p1|%p2, %r2, %r1;");
        i = find_insn(m, f, "shfl.down.b32 %r8, %r2, 16, 31;");
        if (i >= 0) CHECK_EQ(f->insns[i].nmods, 1);
        /* nested scopes: the inner %r0/%r1 are new registers, the outer %r1 is back after */
        int inner = find_insn(m, f, "mov.u32 %r1, %r0;");
        int outer = find_insn(m, f, "mov.u32 %r1, %r2;");
        if (inner >= 0 && outer >= 0) {
            CHECK(f->insns[inner].opnd[0].reg != f->insns[outer].opnd[0].reg);
            CHECK_STR(f->regs[f->insns[outer].opnd[0].reg].name, "%r1");
            CHECK(f->insns[inner].opnd[0].reg > f->insns[outer].opnd[0].reg);
        }
        /* call forms */
        i = find_insn(m, f, "call noargs;");
        if (i >= 0) { CHECK_EQ(f->insns[i].nopnds, 1); CHECK_EQ(f->insns[i].opnd[0].kind, PTX_OPND_SYM); }
        i = find_insn(m, f, "call.uni noargs, ();");
        if (i >= 0) { CHECK_EQ(f->insns[i].nopnds, 2); CHECK_EQ(f->insns[i].opnd[1].vec_n, 0); }
        i = find_insn(m, f, "call (retval0), noparams;");
        if (i >= 0) { CHECK_EQ(f->insns[i].nopnds, 2); CHECK_EQ(f->insns[i].opnd[0].kind, PTX_OPND_LIST); }
        i = find_insn(m, f, "call sink, (param0);");
        i = find_insn(m, f, "call.uni (retval0), add3, (param0, param1, param2);");
        /* addresses */
        i = find_insn(m, f, "st.global.u32 [%rd3+-4], %r3;");
        if (i >= 0) CHECK_EQ(f->insns[i].opnd[0].ival, -4);
        i = find_insn(m, f, "ld.global.v4.u32 {%r5, _, %r6, _}, [%rd3];");
        if (i >= 0) {
            const ptx_operand *vec = &f->insns[i].opnd[0];
            CHECK_EQ(vec->vec_n, 4);
            CHECK_EQ(f->vec_elems[vec->vec_first + 1].kind, PTX_OPND_SINK);
        }
        i = find_insn(m, f, "ld.const.f32 %f1, [kTable+4];");
        if (i >= 0) { CHECK_EQ(f->insns[i].opnd[1].sym.scope, PTX_SYM_MODULE_VAR); CHECK_EQ(f->insns[i].opnd[1].ival, 4); }
        i = find_insn(m, f, "mov.u64 %rd5, kTable+8;");
        if (i >= 0) { CHECK_EQ(f->insns[i].opnd[1].kind, PTX_OPND_SYM); CHECK_EQ(f->insns[i].opnd[1].ival, 8); }
        i = find_insn(m, f, "ld.global.u32 %r8, [0];");
        if (i >= 0) { CHECK_EQ(f->insns[i].opnd[1].reg, -1); CHECK_EQ(f->insns[i].opnd[1].sym.index, -1); }
    }
    f = func(m, "noparams");
    if (f) { CHECK_EQ(f->nparams, 0); CHECK_EQ(f->nrets, 1); }
    f = func(m, "jump_table");
    if (f) {
        int i = find_insn(m, f, "brx.idx %r0, (L_case0, L_case1, L_case2);");
        if (i >= 0) {
            const ptx_operand *tab = &f->insns[i].opnd[1];
            CHECK_EQ(tab->kind, PTX_OPND_LIST);
            CHECK_EQ(tab->vec_n, 3);
            CHECK_EQ(f->labels[f->vec_elems[tab->vec_first + 2].label].insn, label_insn(f, "L_case2"));
            CHECK_EQ(f->insns[i].reconv, label_insn(f, "L_done"));
        }
    }
    v = m->vars + ptx_find_var(m, "gWeak");
    CHECK(v->is_weak && v->init && v->init[0] == 1);
    CHECK(m->vars[ptx_find_var(m, "gCommon")].is_weak);
    v = m->vars + ptx_find_var(m, "gUnsized"); /* [] sized by its initializer */
    CHECK(!v->unsized && v->size == 6 && v->init && v->init[2] == 2 && v->init[4] == 0xFF && v->init[5] == 0xFF);
    CHECK(ptx_find_var(m, "gA") >= 0 && m->vars[ptx_find_var(m, "gA")].init == NULL);
    CHECK(ptx_find_var(m, "gB") >= 0 && m->vars[ptx_find_var(m, "gB")].init[0] == 9);
    f = func(m, "weak_fn");
    if (f) {
        CHECK(f->is_weak && f->nparams == 2);
        CHECK_EQ(f->params[0].ptr_space, PTX_SPACE_GLOBAL);
        CHECK_EQ(f->params[0].ptr_align, 16);
        CHECK_EQ(f->params[0].align, 8);
        CHECK_EQ(f->params[1].ptr_space, PTX_SPACE_NONE);
        CHECK_EQ(f->params[1].ptr_align, 8);
    }
    f = func(m, "sregs");
    if (f) {
        CHECK(f->reqntid[0] == 64 && f->reqntid[1] == 2 && f->reqntid[2] == 0);
        CHECK_EQ(f->maxnreg, 40);
        CHECK_EQ(f->params[0].ptr_space, PTX_SPACE_GLOBAL);
        static const uint8_t want[] = {
            PTX_SREG_TID_Y, PTX_SREG_TID_Z, PTX_SREG_NTID_Y, PTX_SREG_NTID_Z, PTX_SREG_CTAID_X, PTX_SREG_CTAID_Z,
            PTX_SREG_NCTAID_X, PTX_SREG_NCTAID_Y, PTX_SREG_NWARPID, PTX_SREG_SMID, PTX_SREG_NSMID, PTX_SREG_GRIDID,
            PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_GE, PTX_SREG_LANEMASK_GT, PTX_SREG_CLOCK,
            PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64, PTX_SREG_GLOBALTIMER_LO, PTX_SREG_GLOBALTIMER_HI,
            PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_TOTAL_SMEM_SIZE, PTX_SREG_ENVREG0, PTX_SREG_ENVREG0 + 31};
        for (size_t k = 0; k < sizeof want; k++) {
            const ptx_insn *in = &f->insns[1 + k];
            CHECK_EQ(in->opnd[1].kind, PTX_OPND_SREG);
            CHECK_EQ(in->opnd[1].sreg, want[k]);
        }
        int i = find_insn(m, f, "setp.eq.and.s32 %q, %r0, %r1, !%p;");
        if (i >= 0) {
            CHECK_EQ(f->insns[i].mods[1], PTX_MOD_and_);
            CHECK(f->insns[i].opnd[3].neg);
            CHECK_EQ(f->regs[f->insns[i].opnd[3].reg].type, PTX_T_pred);
        }
        i = find_insn(m, f, "ld.global.nc.L2::cache_hint.L2::cache_hint.v4.f32 {%f0, %f1, %f2, %f3}, [%rd0];");
        if (i >= 0) {
            const ptx_insn *in = &f->insns[i];
            CHECK_EQ(in->nmods, 5);
            CHECK(in->mods[2] == PTX_MOD_cache_hint && in->mods[3] == PTX_MOD_cache_hint && in->mods[4] == PTX_MOD_v4);
        }
        i = find_insn(m, f, "ld.global.L2::cache_hint.u32 %r24, [%rd0+16], %rd2;");
        if (i >= 0) CHECK_EQ(f->insns[i].nopnds, 3);
        i = find_insn(m, f, "st.shared::cta.u32 [%r25], %r24;");
        if (i >= 0) CHECK_EQ(f->insns[i].mods[0], PTX_MOD_shared_cta);
        i = find_insn(m, f, "ld.shared::cluster.u32 %r26, [%r25];");
        if (i >= 0) CHECK_EQ(f->insns[i].mods[0], PTX_MOD_shared_cluster);
        i = find_insn(m, f, "prefetch.global.L2 [%rd0];");
        if (i >= 0) CHECK_EQ(f->insns[i].mods[1], PTX_MOD_L2);
    }
    ptx_module_free(m);
}

static void test_reconvergence_shapes(void) {
    ptx_module *m = load("diverge.ptx");
    if (!m) return;
    const ptx_func *f = func(m, "shapes");
    if (f) {
        CHECK_EQ(f->ninsns, 24);
        const int expect[][2] = {{3, 8}, {5, -1}, {11, 12}, {13, -1}, {15, 20}, {17, 19}, {21, -1}};
        for (size_t k = 0; k < sizeof expect / sizeof expect[0]; k++) {
            if (!(f->insns[expect[k][0]].op == PTX_OP_bra || f->insns[expect[k][0]].op == PTX_OP_exit))
                fprintf(stderr, "diverge.ptx: insn %d is %s\n", expect[k][0], insn_text(m, f, expect[k][0]));
            CHECK_EQ(f->insns[expect[k][0]].reconv, expect[k][1]);
        }
        CHECK_EQ(f->insns[21].op, PTX_OP_exit);
    }
    f = func(m, "spin");
    if (f) CHECK_EQ(f->insns[2].reconv, 4);
    ptx_module_free(m);
}

static void test_inline_lineinfo(void) {
    ptx_module *m = load("inline.lineinfo.ptx");
    if (!m) return;
    const ptx_func *f = func(m, "_Z3inlPf");
    if (f) {
        /* .loc 1 8 5, function_name $L__info_string0, inlined_at 1 13 5 */
        int i = find_insn(m, f, "fma.rn.f32 %f2, %f1, 0f40000000, 0f3F800000;");
        if (i >= 0) CHECK_EQ(f->insns[i].loc.line, 8);
        i = find_insn(m, f, "mul.f32 %f3, %f2, %f2;");
        if (i >= 0) CHECK_EQ(f->insns[i].loc.line, 9);
        i = find_insn(m, f, "st.global.f32 [%rd4], %f3;");
        if (i >= 0) CHECK_EQ(f->insns[i].loc.line, 13);
    }
    ptx_module_free(m);
}

static void test_features(void) {
    ptx_module *m = load("features.rdc.sm90.ptx");
    if (!m) return;
    const ptx_func *f = func(m, "_Z2nrv");
    if (f) CHECK(f->noreturn && f->is_visible);
    f = func(m, "malloc");
    if (f) CHECK(f->is_extern && f->nrets == 1 && f->nparams == 1);
    f = func(m, "_Z3ldgPK6float4PS_yi");
    if (f) {
        /* tex.2d.v4.f32.f32 {%f10, %f11, %f12, %f13}, [%rd4, {%f9, %f9}]; */
        int i = find_insn(m, f, "tex.2d.v4.f32.f32 {%f10, %f11, %f12, %f13}, [%rd4, {%f9, %f9}];");
        if (i >= 0) {
            const ptx_insn *in = &f->insns[i];
            CHECK_EQ(in->nmods, 2);
            CHECK_EQ(in->mods[0], PTX_MOD_dim_2d);
            CHECK_EQ(in->mods[1], PTX_MOD_v4);
            CHECK_EQ(in->ntypes, 2);
            CHECK_EQ(in->nopnds, 3);
            CHECK_EQ(in->opnd[0].kind, PTX_OPND_VEC);
            CHECK_EQ(in->opnd[1].kind, PTX_OPND_ADDR);
            CHECK_STR(f->regs[in->opnd[1].reg].name, "%rd4");
            CHECK_EQ(in->opnd[2].kind, PTX_OPND_VEC);
            CHECK_EQ(in->opnd[2].vec_n, 2);
        }
    }
    ptx_module_free(m);

    m = load("cluster.sm90.ptx");
    if (!m) return;
    f = func(m, "_Z2clPi");
    if (f) {
        CHECK(f->explicitcluster && f->reqnctapercluster[0] == 2);
        int i = find_insn(m, f, "mov.b32 %r1, %cluster_ctarank;");
        if (i >= 0) CHECK_EQ(f->insns[i].opnd[1].sreg, PTX_SREG_CLUSTER_CTARANK);
        i = find_insn(m, f, "barrier.cluster.arrive;");
        if (i >= 0) { CHECK_EQ(f->insns[i].mods[0], PTX_MOD_cluster); CHECK_EQ(f->insns[i].mods[1], PTX_MOD_arrive); }
    }
    ptx_module_free(m);
}

/* A large synthetic module parses completely (the parser's speed is measured by the
 * benchmark, not asserted here). */
static void test_large_module(void) {
    size_t cap = 8 << 20, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text + len, cap - len, ".version 8.0\n.target sm_80\n.address_size 64\n");
    int nfuncs = 0;
    while (len < (4u << 20)) {
        len += (size_t)snprintf(text + len, cap - len,
                                ".visible .entry k%d(.param .u64 p)\n{\n.reg .pred %%p<3>;\n.reg .b32 %%r<400>;\n"
                                ".reg .b64 %%rd<4>;\nld.param.u64 %%rd1, [p];\nmov.u32 %%r0, %%tid.x;\n",
                                nfuncs);
        for (int i = 1; i < 390; i++)
            len += (size_t)snprintf(text + len, cap - len,
                                    "\tadd.s32 %%r%d, %%r%d, %d;\n\tsetp.lt.s32 %%p1, %%r%d, %d;\n\t@%%p1 bra $L__BB%d_%d;\n"
                                    "\tmul.lo.s32 %%r%d, %%r%d, 3;\n$L__BB%d_%d:\n",
                                    i, i - 1, i, i, 1000 + i, nfuncs, i, i, i, nfuncs, i);
        len += (size_t)snprintf(text + len, cap - len, "st.global.u32 [%%rd1], %%r389;\nret;\n}\n");
        nfuncs++;
    }
    char err[256];
    ptx_module *m = ptx_parse(text, len, "large.ptx", err, sizeof err);
    CHECK(m != NULL);
    if (!m) fprintf(stderr, "%s\n", err);
    if (m) {
        CHECK_EQ(m->nfuncs, nfuncs);
        const ptx_func *f = &m->funcs[nfuncs - 1];
        CHECK_EQ(f->ninsns, 2 + 389 * 4 + 2);
        CHECK_EQ(f->nregs, 3 + 400 + 4);
        /* branch i at 2 + 4*(i-1) + 2 reconverges at its label, 2 + 4*i */
        CHECK_EQ(f->insns[4].reconv, 6);
        CHECK_EQ(f->insns[4 + 4 * 200].reconv, 6 + 4 * 200);
    }
    ptx_module_free(m);
    free(text);
}

int main(void) {
    test_all_files();
    test_vadd();
    test_lineinfo();
    test_printf_assert();
    test_reduce();
    test_recursion_and_structs();
    test_globals();
    test_perf_directives();
    test_atomics_and_warp();
    test_handwritten();
    test_reconvergence_shapes();
    test_inline_lineinfo();
    test_features();
    test_large_module();
    if (failures) {
        fprintf(stderr, "test_ptx_parse: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_ptx_parse: all passed\n");
    return 0;
}
