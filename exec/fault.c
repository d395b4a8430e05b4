/* exec/fault.c — device fault diagnostics: the one-line message naming kernel, block,
 * thread, the instruction as written in the PTX (rebuilt from the IR by ptx_insn_str),
 * its PTX line and the CUDA source line from .loc.
 */
#include "core.h"

#include <stdio.h>

exec_dim3 exec_thread_of(const struct exec_block *b, uint32_t warp, uint32_t lane) {
    uint32_t t = warp * EXEC_WARP_SIZE + lane;
    exec_dim3 r;
    r.x = t % b->ntid.x;
    r.y = (t / b->ntid.x) % b->ntid.y;
    r.z = t / (b->ntid.x * b->ntid.y);
    return r;
}

/* ---- faults ---- */

static const char *fault_name(int kind) {
    switch (kind) {
    case EXEC_FAULT_ILLEGAL_ADDRESS: return "illegal address";
    case EXEC_FAULT_MISALIGNED: return "misaligned address";
    case EXEC_FAULT_TRAP: return "trap";
    case EXEC_FAULT_ASSERT: return "assertion failed";
    case EXEC_FAULT_ILLEGAL_INSTRUCTION: return "illegal instruction";
    case EXEC_FAULT_STACK_OVERFLOW: return "stack overflow";
    case EXEC_FAULT_INVALID_PC: return "invalid program counter";
    case EXEC_FAULT_ABORTED: return "aborted";
    case EXEC_FAULT_TIMEOUT: return "launch timeout";
    case EXEC_FAULT_INVALID_ADDRESS_SPACE: return "invalid address space";
    default: return "fault";
    }
}

void exec_fault_at(exec_warp *hw, const exec_insn *in, uint32_t lane, int kind,
                   const char *detail) {
    exec_wstate *w = exec_ws(hw);
    struct exec_block *b = hw->block;
    hw->fault = 1;
    exec_warp_yield(w);
    if (b->fault_kind != EXEC_OK) return; /* the block's first fault is the one reported */
    b->fault_kind = (exec_fault_kind)kind;
    b->fault->kind = (exec_fault_kind)kind;

    const ptx_module *m = b->prog->m;
    const ptx_func *pf = w->frames[w->depth].func->pf;
    const ptx_insn *pi = in ? in->src : NULL;
    char text[200];
    if (pi) ptx_insn_str(m, pf, pi, text, sizeof text);
    else snprintf(text, sizeof text, "(end of %s)", pf->name);
    exec_dim3 t = exec_thread_of(b, hw->warp_in_block, lane);
    char where[200] = "";
    if (pi) {
        const char *file = pi->loc.file < m->nfiles ? m->files[pi->loc.file] : NULL;
        if (file && pi->loc.line)
            snprintf(where, sizeof where, " (PTX line %u, %s:%u)", pi->loc.ptx_line, file,
                     pi->loc.line);
        else
            snprintf(where, sizeof where, " (PTX line %u)", pi->loc.ptx_line);
    }
    char infunc[160] = "";
    if (pf != b->k->func->pf) snprintf(infunc, sizeof infunc, " in function '%s'", pf->name);
    snprintf(b->fault->msg, sizeof b->fault->msg,
             "%s: %s; kernel '%s', block (%u,%u,%u), thread (%u,%u,%u)%s, at `%s`%s",
             fault_name(kind), detail, b->k->info.name, b->ctaid.x, b->ctaid.y, b->ctaid.z,
             t.x, t.y, t.z, infunc, text, where);
}

void exec_fault_block(struct exec_block *b, exec_fault_kind kind, const char *fmt, ...) {
    if (b->fault_kind != EXEC_OK) return;
    b->fault_kind = kind;
    b->fault->kind = kind;
    char detail[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    snprintf(b->fault->msg, sizeof b->fault->msg, "%s: %s; kernel '%s', block (%u,%u,%u)",
             fault_name(kind), detail, b->k->info.name, b->ctaid.x, b->ctaid.y, b->ctaid.z);
}
