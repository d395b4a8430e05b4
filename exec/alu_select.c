/* exec/alu_select.c — exec_alu_lookup: from the decoded fields of an instruction (op,
 * type, type2, flags, aux) to its type-specialised handler. Decode time only. */
#include "alu_internal.h"

exec_fn exec_alu_lookup(const exec_insn *in) {
    if (in->type >= PTX_T_COUNT || in->type2 >= PTX_T_COUNT) return NULL;
    const char kind = ptx_type_kinds[in->type];
    switch (in->op) {
    case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_mad: case PTX_OP_fma:
    case PTX_OP_min: case PTX_OP_max: case PTX_OP_abs: case PTX_OP_neg:
        if (in->type == PTX_T_f16 || in->type == PTX_T_f16x2 || in->type == PTX_T_bf16 ||
            in->type == PTX_T_bf16x2)
            return exec_alu_half_lookup(in);
        if (kind == 'f') return exec_alu_float_lookup(in);
        return in->op == PTX_OP_fma ? NULL : exec_alu_int_lookup(in);
    case PTX_OP_addc: case PTX_OP_subc: case PTX_OP_madc: case PTX_OP_mul24:
    case PTX_OP_mad24: case PTX_OP_sad: case PTX_OP_div: case PTX_OP_rem:
    case PTX_OP_dp4a: case PTX_OP_dp2a:
        if (in->op == PTX_OP_div && kind == 'f') return exec_alu_float_lookup(in);
        return exec_alu_int_lookup(in);
    case PTX_OP_rcp: case PTX_OP_sqrt: case PTX_OP_rsqrt: case PTX_OP_sin: case PTX_OP_cos:
    case PTX_OP_lg2: case PTX_OP_copysign:
        return exec_alu_float_lookup(in);
    case PTX_OP_ex2: case PTX_OP_tanh:
        if (in->type == PTX_T_f16 || in->type == PTX_T_f16x2 || in->type == PTX_T_bf16 ||
            in->type == PTX_T_bf16x2)
            return exec_alu_half_lookup(in);
        return exec_alu_float_lookup(in);
    case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor: case PTX_OP_not: case PTX_OP_cnot:
    case PTX_OP_lop3: case PTX_OP_shl: case PTX_OP_shr: case PTX_OP_shf: case PTX_OP_prmt:
    case PTX_OP_popc: case PTX_OP_clz: case PTX_OP_bfind: case PTX_OP_brev: case PTX_OP_bfe:
    case PTX_OP_bfi: case PTX_OP_bmsk: case PTX_OP_szext: case PTX_OP_fns:
        return exec_alu_bits_lookup(in);
    case PTX_OP_setp: case PTX_OP_set: case PTX_OP_selp: case PTX_OP_slct:
    case PTX_OP_testp:
        return exec_alu_cmp_lookup(in);
    case PTX_OP_cvt:
        return exec_alu_cvt_lookup(in);
    case PTX_OP_mov:
        if (in->type == PTX_T_pred) return exec_alu_bits_lookup(in);
        return exec_alu_mov_lookup(in);
    case PTX_OP_activemask: case PTX_OP_shfl: case PTX_OP_vote: case PTX_OP_match:
    case PTX_OP_redux: case PTX_OP_elect:
        return exec_warp_ops_lookup(in);
    default:
        return NULL;
    }
}
