/* exec/regs.c — an estimate of the registers per thread ptxas would allocate, for
 * occupancy: the most 32-bit register words live at any instruction (a backward liveness
 * analysis over the function's control flow), plus a small fixed reserve.
 * PTX declares many more virtual registers than ptxas keeps, so counting declarations
 * would overstate register pressure badly.
 */
#include "core.h"

#include <stdlib.h>

#define REG_RESERVE 4u   /* registers ptxas keeps for addressing and the like */
#define REG_MIN 8u

typedef uint64_t word;
#define WBITS 64u

static void mark(word *set, const ptx_func *pf, const ptx_operand *o);

static void mark_reg(word *set, const ptx_func *pf, int32_t r) {
    if (r < 0 || (uint32_t)r >= pf->nregs || pf->regs[r].type == PTX_T_pred) return;
    set[(uint32_t)r / WBITS] |= 1ull << ((uint32_t)r % WBITS);
}

static void mark(word *set, const ptx_func *pf, const ptx_operand *o) {
    switch (o->kind) {
    case PTX_OPND_REG: mark_reg(set, pf, o->reg); break;
    case PTX_OPND_ADDR: mark_reg(set, pf, o->reg); break;
    case PTX_OPND_VEC: case PTX_OPND_LIST:
        for (uint32_t i = 0; i < o->vec_n && o->vec_first + i < pf->nvec_elems; i++)
            mark(set, pf, &pf->vec_elems[o->vec_first + i]);
        break;
    default: break;
    }
}

static bool ends_flow(const ptx_insn *pi) {
    if (pi->guard >= 0) return false;
    return pi->op == PTX_OP_bra || pi->op == PTX_OP_ret || pi->op == PTX_OP_exit ||
           pi->op == PTX_OP_trap;
}

uint32_t exec_estimate_regs(const ptx_func *pf) {
    uint32_t n = pf->ninsns, words = (pf->nregs + WBITS - 1) / WBITS;
    if (n == 0 || words == 0) return REG_MIN;
    word *use = calloc((size_t)n * words, sizeof *use);
    word *def = calloc((size_t)n * words, sizeof *def);
    word *live = calloc((size_t)(n + 1) * words, sizeof *live);
    word *tmp = calloc(words, sizeof *tmp);
    uint32_t *weight = calloc(pf->nregs, sizeof *weight);
    if (!use || !def || !live || !tmp || !weight) abort();
    for (uint32_t r = 0; r < pf->nregs; r++)
        weight[r] = ptx_type_sizes[pf->regs[r].type] > 4 ? 2 : 1;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_insn *pi = &pf->insns[i];
        word *u = use + (size_t)i * words, *d = def + (size_t)i * words;
        bool has_dst = !(ptx_opcode_flags[pi->op] & PTX_OPF_NODST);
        for (unsigned k = 0; k < pi->nopnds; k++) {
            const ptx_operand *o = &pi->opnd[k];
            if (k == 0 && has_dst && o->kind != PTX_OPND_ADDR) mark(d, pf, o);
            else mark(u, pf, o);
        }
    }
    /* iterate live_in[i] = use[i] | (live_in[succ...] & ~def[i]) to a fixed point */
    bool changed = true;
    for (int round = 0; changed && round < 64; round++) {
        changed = false;
        for (uint32_t i = n; i-- > 0;) {
            const ptx_insn *pi = &pf->insns[i];
            memset(tmp, 0, words * sizeof *tmp);
            if (!ends_flow(pi))
                for (uint32_t k = 0; k < words; k++) tmp[k] |= live[(size_t)(i + 1) * words + k];
            if (pi->op == PTX_OP_bra && pi->nopnds && pi->opnd[0].kind == PTX_OPND_LABEL) {
                int32_t t = pf->labels[pi->opnd[0].label].insn;
                if (t >= 0 && (uint32_t)t <= n)
                    for (uint32_t k = 0; k < words; k++) tmp[k] |= live[(size_t)t * words + k];
            }
            word *li = live + (size_t)i * words;
            const word *u = use + (size_t)i * words, *d = def + (size_t)i * words;
            for (uint32_t k = 0; k < words; k++) {
                word v = u[k] | (tmp[k] & ~d[k]);
                if (v != li[k]) { li[k] = v; changed = true; }
            }
        }
    }
    uint32_t most = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t sum = 0;
        const word *li = live + (size_t)i * words;
        for (uint32_t k = 0; k < words; k++)
            for (word v = li[k]; v; v &= v - 1) sum += weight[k * WBITS + (uint32_t)__builtin_ctzll(v)];
        if (sum > most) most = sum;
    }
    free(use);
    free(def);
    free(live);
    free(tmp);
    free(weight);
    uint32_t regs = most + REG_RESERVE;
    if (regs < REG_MIN) regs = REG_MIN;
    if (regs > 255) regs = 255;
    return regs;
}
