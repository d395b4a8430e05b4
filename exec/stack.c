/* exec/stack.c — dynamic allocation on a thread's stack: alloca, stacksave, stackrestore.
 *
 *   alloca.type ptr, size{, align}   ptr = the local address of size new bytes (align: a
 *                                    power of two, 8 by default)
 *   stacksave.type d                 d = the stack pointer
 *   stackrestore.type a              the stack pointer = a (giving back what was allocated
 *                                    since the stacksave that gave a)
 *
 * A kernel whose reachable functions use them gets a stack region at the top of each
 * thread's local memory, above its frames, as large as cudaLimitStackSize (1 KiB by
 * default). The stack grows down, as on the H200 (an alloca after another lies below it:
 * tests/cuda/hopper/stack_alloca.cu), from the region's top; each lane's pointer lives in
 * its warp (exec_wstate.sp). What a function allocates is given back when it returns: the
 * decoder saves the pointer on entry and restores it at each ret of a function that uses
 * alloca (exec/lower.c). Allocating past the region's bottom is a stack overflow, which
 * the ISA leaves undefined; vcuda faults there.
 */
#include "core.h"

#include <stdio.h>

static void h_alloca(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const struct exec_block *b = hw->block;
    uint64_t align = (uint64_t)in->imm;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t size = EXEC_R(hw, in->a[0], lane), sp = w->sp[lane];
        uint64_t p = size > sp ? 0 : (sp - size) & ~(align - 1);
        if (size > sp || p < b->stack_base) {
            char msg[160];
            snprintf(msg, sizeof msg, "alloca of %llu bytes: the thread's stack (%u bytes, "
                     "cudaLimitStackSize) is exhausted", (unsigned long long)size,
                     b->stack_top - b->stack_base);
            exec_fault_at(hw, in, lane, EXEC_FAULT_STACK_OVERFLOW, msg);
            return;
        }
        w->sp[lane] = (uint32_t)p;
        EXEC_R(hw, in->d[0], lane) = p;
    }
}

void exec_h_stacksave(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    EXEC_FOR_LANES(mask, lane) EXEC_R(hw, in->d[0], lane) = w->sp[lane];
}

void exec_h_stackrestore(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const struct exec_block *b = hw->block;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t a = EXEC_R(hw, in->a[0], lane);
        if (a < b->stack_base || a > b->stack_top) {
            char msg[128];
            snprintf(msg, sizeof msg, "stackrestore of 0x%llx: not a stack pointer of this "
                     "thread's stack", (unsigned long long)a);
            exec_fault_at(hw, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, msg);
            return;
        }
        w->sp[lane] = (uint32_t)a;
    }
}

int exec_decode_stack(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (pi->op != PTX_OP_alloca && pi->op != PTX_OP_stacksave && pi->op != PTX_OP_stackrestore)
        return 0;
    const char *name = ptx_opcode_names[pi->op];
    ptx_type t = pi->ntypes == 1 ? (ptx_type)pi->types[0] : PTX_T_NONE;
    if (t != PTX_T_u32 && t != PTX_T_u64)
        return exec_dec_error(d, pi, "%s takes .u32 or .u64", name), -1;
    out->type = (uint8_t)t;
    if (pi->op == PTX_OP_stacksave) {
        if (pi->nopnds != 1 || !exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0])) return -1;
        out->nd = 1;
        out->fn = exec_h_stacksave;
        return 1;
    }
    if (pi->op == PTX_OP_stackrestore) {
        if (pi->nopnds != 1 || !exec_dec_src(d, pi, &pi->opnd[0], t, &out->a[0])) return -1;
        out->na = 1;
        out->fn = exec_h_stackrestore;
        return 1;
    }
    if (pi->nopnds < 2 || pi->nopnds > 3)
        return exec_dec_error(d, pi, "alloca takes ptr, size{, align}"), -1;
    int64_t align = 8;
    if (pi->nopnds == 3) {
        const ptx_operand *o = &pi->opnd[2];
        if (o->kind != PTX_OPND_IMM_INT || o->ival <= 0 || o->ival > (1 << 23) ||
            (o->ival & (o->ival - 1)))
            return exec_dec_error(d, pi, "alloca: the alignment is a power of two up to 2^23"), -1;
        align = o->ival < 8 ? 8 : o->ival; /* 8 bytes is the least the ISA guarantees */
    }
    if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0]) ||
        !exec_dec_src(d, pi, &pi->opnd[1], t, &out->a[0]))
        return -1;
    out->nd = 1;
    out->na = 1;
    out->imm = align;
    out->space = PTX_SPACE_LOCAL;
    out->fn = h_alloca;
    return 1;
}
