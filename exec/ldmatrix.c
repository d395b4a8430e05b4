/* exec/ldmatrix.c — ldmatrix, stmatrix and movmatrix: the warp moves 8x8 matrices of
 * 16-bit elements between shared memory and mma fragments.
 *
 * An 8x8 matrix in fragment form: lane l holds, in one 32-bit register, row l / 4 and
 * columns 2*(l % 4) and 2*(l % 4) + 1 (the first in the low half). ldmatrix.x1/.x2/.x4
 * loads 1, 2 or 4 such matrices: matrix j's eight rows (16 bytes each) are at the
 * addresses lanes 8j .. 8j+7 give, and it goes to each lane's register j; .trans delivers
 * the transposed matrix. stmatrix is the reverse. movmatrix.trans transposes the matrix
 * held in a register, in fragment form.
 *
 * Operands: ldmatrix d[0..n-1], a[0] address (+imm); stmatrix a[0] address (+imm), the
 * data registers (sources) in d[0..n-1]; movmatrix d[0], a[0]. vec = n.
 */
#include "core.h"
#include "mma_internal.h"

#include <string.h>

#define LDM_TRANS EXEC_F_HANDLER

/* The element (row r, col c) of a matrix in fragment form, from per-lane values v. */
static uint16_t frag_elem(const uint64_t *v, unsigned r, unsigned c) {
    return (uint16_t)(v[4 * r + c / 2] >> (16 * (c & 1)));
}

static void h_ldmatrix(exec_warp *w, const exec_insn *in, uint32_t mask) {
    uint16_t m[4][8][8];
    bool trans = in->flags & LDM_TRANS;
    for (unsigned j = 0; j < in->vec; j++)
        for (unsigned i = 0; i < 8; i++) {
            uint32_t src = 8 * j + i;
            uint64_t a = EXEC_R(w, in->a[0], src) + (uint64_t)in->imm;
            const uint8_t *p = exec_mem_addr(exec_ws(w), in, src, (ptx_space)in->space, a, 16,
                                             EXEC_ACC_READ);
            if (!p) return;
            memcpy(m[j][i], p, 16);
        }
    for (uint32_t mm = mask; mm; mm &= mm - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(mm), r = lane / 4, c = 2 * (lane % 4);
        for (unsigned j = 0; j < in->vec; j++) {
            uint32_t lo = trans ? m[j][c][r] : m[j][r][c];
            uint32_t hi = trans ? m[j][c + 1][r] : m[j][r][c + 1];
            EXEC_R(w, in->d[j], lane) = lo | hi << 16;
        }
    }
}

static void h_stmatrix(exec_warp *w, const exec_insn *in, uint32_t mask) {
    (void)mask; /* the whole warp's registers make the matrices (.sync.aligned) */
    bool trans = in->flags & LDM_TRANS;
    for (unsigned j = 0; j < in->vec; j++) {
        const uint64_t *v = &EXEC_R(w, in->d[j], 0);
        for (unsigned i = 0; i < 8; i++) {
            uint32_t dst = 8 * j + i;
            uint16_t row[8];
            for (unsigned c = 0; c < 8; c++) row[c] = trans ? frag_elem(v, c, i) : frag_elem(v, i, c);
            uint64_t a = EXEC_R(w, in->a[0], dst) + (uint64_t)in->imm;
            uint8_t *p = exec_mem_addr(exec_ws(w), in, dst, (ptx_space)in->space, a, 16,
                                       EXEC_ACC_WRITE);
            if (!p) return;
            memcpy(p, row, 16);
        }
    }
}

static void h_movmatrix(exec_warp *w, const exec_insn *in, uint32_t mask) {
    uint64_t v[EXEC_WARP_SIZE];
    memcpy(v, &EXEC_R(w, in->a[0], 0), sizeof v);
    for (uint32_t mm = mask; mm; mm &= mm - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(mm), r = lane / 4, c = 2 * (lane % 4);
        EXEC_R(w, in->d[0], lane) =
            (uint32_t)frag_elem(v, c, r) | (uint32_t)frag_elem(v, c + 1, r) << 16;
    }
}

int exec_decode_ldmatrix(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    const char *name = ptx_opcode_names[pi->op];
    if (!ptx_insn_has_mod(pi, PTX_MOD_m8n8) || pi->ntypes != 1 || pi->types[0] != PTX_T_b16)
        return exec_dec_error(d, pi, "%s: only .m8n8 with .b16 elements is supported", name), -1;
    if (ptx_insn_has_mod(pi, PTX_MOD_trans)) out->flags |= LDM_TRANS;
    if (pi->nopnds != 2) return exec_dec_error(d, pi, "%s takes 2 operands", name), -1;
    if (pi->op == PTX_OP_movmatrix) {
        if (!(out->flags & LDM_TRANS))
            return exec_dec_error(d, pi, "movmatrix needs .trans"), -1;
        if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0]) ||
            !exec_dec_src(d, pi, &pi->opnd[1], PTX_T_b32, &out->a[0]))
            return -1;
        out->nd = out->na = 1;
        out->fn = h_movmatrix;
        return 1;
    }
    unsigned n = ptx_insn_has_mod(pi, PTX_MOD_x4) ? 4 : ptx_insn_has_mod(pi, PTX_MOD_x2) ? 2
               : ptx_insn_has_mod(pi, PTX_MOD_x1) ? 1 : 0;
    if (!n) return exec_dec_error(d, pi, "%s needs .x1, .x2 or .x4", name), -1;
    bool ld = pi->op == PTX_OP_ldmatrix;
    const ptx_operand *data = &pi->opnd[ld ? 0 : 1], *addr = &pi->opnd[ld ? 1 : 0];
    unsigned have = data->kind == PTX_OPND_VEC ? data->vec_n : 1;
    if (have != n) return exec_dec_error(d, pi, "%s.x%u needs %u registers", name, n, n), -1;
    ptx_space sp = exec_dec_space(pi);
    out->space = (uint8_t)sp;
    if (!exec_dec_address(d, pi, addr, sp, out)) return -1;
    for (unsigned j = 0; j < n; j++) {
        const ptx_operand *e = data->kind == PTX_OPND_VEC ? exec_dec_vec_elem(d, data, j) : data;
        if (!(ld ? exec_dec_dst(d, pi, e, &out->d[j]) : exec_dec_src(d, pi, e, PTX_T_b32, &out->d[j])))
            return -1;
    }
    out->vec = (uint8_t)n;
    out->nd = ld ? (uint8_t)n : 0;
    out->na = 1;
    out->fn = ld ? h_ldmatrix : h_stmatrix;
    return 1;
}
