/* exec/alu_decode.c — decoding of arithmetic, logic, conversion and comparison
 * instructions into type-specialised handlers (see exec_decode_alu in internal.h). */
#include "internal.h"

static void alu_mov_b64(exec_warp *w, const exec_insn *in, uint32_t mask) {
    EXEC_FOR_LANES(mask, l) EXEC_R(w, in->d[0], l) = EXEC_R(w, in->a[0], l);
}

static void alu_add_b32(exec_warp *w, const exec_insn *in, uint32_t mask) {
    EXEC_FOR_LANES(mask, l)
        EXEC_R(w, in->d[0], l) = (uint32_t)(EXEC_R(w, in->a[0], l) + EXEC_R(w, in->a[1], l));
}

static void alu_add_b64(exec_warp *w, const exec_insn *in, uint32_t mask) {
    EXEC_FOR_LANES(mask, l)
        EXEC_R(w, in->d[0], l) = EXEC_R(w, in->a[0], l) + EXEC_R(w, in->a[1], l);
}

int exec_decode_alu(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (pi->op != PTX_OP_mov && pi->op != PTX_OP_add) return 0;
    if (pi->ntypes != 1 || pi->nmods != 0)
        { exec_dec_error(d, pi, "unsupported form of %s", ptx_opcode_names[pi->op]); return -1; }
    ptx_type t = (ptx_type)pi->types[0];
    out->op = pi->op;
    out->type = (uint8_t)t;
    if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0])) return -1;
    out->nd = 1;
    unsigned nsrc = pi->op == PTX_OP_mov ? 1 : 2;
    for (unsigned i = 0; i < nsrc; i++)
        if (!exec_dec_src(d, pi, &pi->opnd[1 + i], t, &out->a[i])) return -1;
    out->na = (uint8_t)nsrc;
    if (pi->op == PTX_OP_mov) { out->fn = alu_mov_b64; return 1; }
    switch (ptx_type_sizes[t]) {
    case 4: if (ptx_type_kinds[t] != 'f') { out->fn = alu_add_b32; return 1; } break;
    case 8: if (ptx_type_kinds[t] != 'f') { out->fn = alu_add_b64; return 1; } break;
    }
    exec_dec_error(d, pi, "unsupported instruction add.%s", ptx_type_names[t]);
    return -1;
}
