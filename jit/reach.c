/* jit/reach.c — what the compile job needs to know of a program's structure: which
 * functions a launch of a kernel may run (so that they are built before it runs), and
 * which PTX instruction a line of a unit's generated C belongs to (so that a compiler's
 * error names it).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Mark in `in` every function a launch of function root may run (the caller's array of
 * nfuncs): root, what it calls, and what it takes the address of (a function pointer, a
 * kernel it launches from the device), and through them; where one calls through a
 * pointer, every device function. */
void jit_reachable(const exec_program *p, uint32_t root, bool *in) {
    uint32_t nfuncs = exec_program_nfuncs(p);
    uint32_t *stack = malloc((nfuncs + 1) * sizeof *stack);
    if (!stack) abort();
    uint32_t n = 0;
    bool indirect = false;
    const exec_func *r = exec_program_func(p, root);
    in[r->index] = true;
    stack[n++] = r->index;
    while (n) {
        const exec_func *f = exec_program_func(p, stack[--n]);
#define REACH(idx)                                                                         \
    do {                                                                                   \
        const exec_func *g_ = exec_program_func(p, (idx));                                 \
        if (!in[g_->index]) {                                                              \
            in[g_->index] = true;                                                          \
            stack[n++] = g_->index;                                                        \
        }                                                                                  \
    } while (0)
        for (uint32_t c = 0; c < f->ncalls; c++) {
            if (f->calls[c].callee) REACH(f->calls[c].callee->index);
            else indirect = true;
        }
        for (uint32_t c = 0; c < f->nconsts; c++) {
            int64_t idx = f->consts[c].kind == EXEC_CK_VALUE
                              ? exec_func_token_index(f->consts[c].value) : -1;
            if (idx >= 0 && (uint64_t)idx < nfuncs) REACH((uint32_t)idx);
        }
#undef REACH
    }
    if (indirect) /* (a pointer may also come from a variable's initialiser) */
        for (uint32_t i = 0; i < nfuncs; i++) {
            const exec_func *f = exec_program_func(p, i);
            if (f->code && !f->pf->is_entry) in[i] = true;
        }
    free(stack);
}

/* The generators write an instruction's index in its label (`L<i>:`) and in its
 * handler's call (`INSN(<i>)`, `PLAIN(<i>)`, `CORE(<i>)`, `CORE_H(<i>)`): the nearest
 * one at or before the line named is the instruction that line is part of. */
void jit_name_insn(const exec_func *f, const jit_buf *src, char *why, size_t n) {
    const char *c = strstr(why, ".c:");
    long line = c ? strtol(c + 3, NULL, 10) : 0;
    if (line <= 0 || !src->s) return;
    const char *p = src->s, *end = src->s + src->len;
    for (long k = 1; k < line && p < end; k++) {
        p = memchr(p, '\n', (size_t)(end - p));
        p = p ? p + 1 : end;
    }
    /* back from the end of that line to the nearest index */
    const char *q = memchr(p, '\n', (size_t)(end - p));
    for (q = q ? q : end; q > src->s; q--) {
        long i = -1;
        if (q[-1] == 'L' && (q - 1 == src->s || q[-2] == ' ' || q[-2] == '\n') &&
            q[0] >= '0' && q[0] <= '9') {
            char *e;
            i = strtol(q, &e, 10);
            if (*e != ':') i = -1;
        } else if (q[-1] == '(' && q[0] >= '0' && q[0] <= '9' && q - src->s >= 5 &&
                   (!strncmp(q - 5, "INSN(", 5) || !strncmp(q - 5, "LAIN(", 5) ||
                    !strncmp(q - 5, "CORE(", 5) || !strncmp(q - 5, "RE_H(", 5))) {
            i = strtol(q, NULL, 10);
        }
        if (i < 0 || (uint32_t)i >= f->ncode) continue;
        const exec_insn *in = &f->code[i];
        const ptx_insn *pi = in->src_index < f->pf->ninsns ? &f->pf->insns[in->src_index] : NULL;
        size_t len = strlen(why);
        if (pi && len < n)
            snprintf(why + len, n - len, " (near instruction %ld: %s, line %u of the PTX)", i,
                     pi->op < PTX_OP_COUNT ? ptx_opcode_names[pi->op] : "?", pi->loc.ptx_line);
        return;
    }
}
