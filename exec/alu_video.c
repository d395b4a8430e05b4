/* exec/alu_video.c — the SIMD video instructions on 16-bit halves and 8-bit bytes of a
 * 32-bit word: vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4, with .sat and the
 * accumulating .add form. CUDA's SIMD intrinsics (__vabsdiffu4, __vsadu4, __vsads2, ...)
 * reach the device as these instructions in inline PTX.
 *
 *   vop.dtype.atype.btype{.sat}  d, a, b, c;   per element t = a op b; d takes t in every
 *                                              element (merge mask .b3210/.h10)
 *   vop.dtype.atype.btype.add    d, a, b, c;   d = c + the sum of the elements t
 *
 * Elements are sign- or zero-extended as .atype/.btype say; .sat clamps each t to the
 * element range of .dtype. Only the default operand selectors and merge mask exist here
 * (what the CUDA headers emit); others are refused by name at decode time.
 */
#include "alu_internal.h"

/* exec_insn.aux bits */
#define VID_LANES4   0x01u  /* bytes (vop4), else halves (vop2) */
#define VID_A_SIGNED 0x02u
#define VID_B_SIGNED 0x04u
#define VID_D_SIGNED 0x08u
#define VID_SAT      0x10u
#define VID_ADD      0x20u

static int64_t vid_elem(uint32_t v, unsigned i, unsigned bits, bool sign) {
    uint32_t e = (v >> (i * bits)) & ((1u << bits) - 1);
    if (sign && (e >> (bits - 1))) return (int64_t)e - ((int64_t)1 << bits);
    return e;
}

static int64_t vid_op(unsigned op, int64_t a, int64_t b) {
    switch (op) {
    case PTX_OP_vadd2: case PTX_OP_vadd4: return a + b;
    case PTX_OP_vsub2: case PTX_OP_vsub4: return a - b;
    case PTX_OP_vavrg2: case PTX_OP_vavrg4: /* rounds half away from zero */
        return a + b >= 0 ? (a + b + 1) >> 1 : (a + b) >> 1;
    case PTX_OP_vabsdiff2: case PTX_OP_vabsdiff4: return a > b ? a - b : b - a;
    case PTX_OP_vmin2: case PTX_OP_vmin4: return a < b ? a : b;
    default: return a > b ? a : b; /* vmax */
    }
}

ALU_HANDLER(alu_video) {
    uint64_t *D = ALU_D(0);
    const uint64_t *A = ALU_A(0), *B = ALU_A(1), *C = ALU_A(2);
    const uint32_t aux = in->aux;
    const unsigned n = (aux & VID_LANES4) ? 4 : 2, bits = 32 / n;
    const int64_t lo = (aux & VID_D_SIGNED) ? -((int64_t)1 << (bits - 1)) : 0;
    const int64_t hi = (aux & VID_D_SIGNED) ? ((int64_t)1 << (bits - 1)) - 1
                                            : ((int64_t)1 << bits) - 1;
    ALU_LANES(mask, l, {
        uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l];
        uint32_t d = (aux & VID_ADD) ? c : 0;
        for (unsigned i = 0; i < n; i++) {
            int64_t t = vid_op(in->op, vid_elem(a, i, bits, aux & VID_A_SIGNED),
                               vid_elem(b, i, bits, aux & VID_B_SIGNED));
            if (aux & VID_SAT) t = t < lo ? lo : t > hi ? hi : t;
            if (aux & VID_ADD) d += (uint32_t)t;
            else d |= ((uint32_t)t & ((1u << bits) - 1)) << (i * bits);
        }
        D[l] = d;
    });
}

static bool vid_signed(ptx_type t, bool *sign) {
    if (t == PTX_T_s32) { *sign = true; return true; }
    if (t == PTX_T_u32) { *sign = false; return true; }
    return false;
}

int exec_decode_video(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    bool four;
    switch (pi->op) {
    case PTX_OP_vadd2: case PTX_OP_vsub2: case PTX_OP_vavrg2: case PTX_OP_vabsdiff2:
    case PTX_OP_vmin2: case PTX_OP_vmax2:
        four = false;
        break;
    case PTX_OP_vadd4: case PTX_OP_vsub4: case PTX_OP_vavrg4: case PTX_OP_vabsdiff4:
    case PTX_OP_vmin4: case PTX_OP_vmax4:
        four = true;
        break;
    default:
        return 0;
    }
    const char *name = ptx_opcode_names[pi->op];
    bool ds, as, bs;
    if (pi->ntypes != 3 || !vid_signed((ptx_type)pi->types[0], &ds) ||
        !vid_signed((ptx_type)pi->types[1], &as) || !vid_signed((ptx_type)pi->types[2], &bs))
        return exec_dec_error(d, pi, "%s needs three types, each .u32 or .s32", name), -1;
    uint32_t aux = (four ? VID_LANES4 : 0) | (as ? VID_A_SIGNED : 0) |
                   (bs ? VID_B_SIGNED : 0) | (ds ? VID_D_SIGNED : 0);
    for (unsigned i = 0; i < pi->nmods; i++) {
        if (pi->mods[i] == PTX_MOD_sat) aux |= VID_SAT;
        else if (pi->mods[i] == PTX_MOD_add) aux |= VID_ADD;
        else
            return exec_dec_error(d, pi, "unsupported modifier .%s on %s",
                                  ptx_mod_names[pi->mods[i]], name), -1;
    }
    if ((aux & VID_SAT) && (aux & VID_ADD))
        return exec_dec_error(d, pi, "%s: .sat with .add", name), -1;
    if (pi->nopnds != 4)
        return exec_dec_error(d, pi, "%s needs d, a, b, c (operand selectors and merge masks "
                              "are not supported)", name), -1;
    for (unsigned i = 0; i < 4; i++)
        if (pi->opnd[i].kind != PTX_OPND_REG && (i == 0 || pi->opnd[i].kind != PTX_OPND_IMM_INT))
            return exec_dec_error(d, pi, "%s: operand %u must be a register%s (operand "
                                  "selectors and merge masks are not supported)", name, i,
                                  i ? " or an integer" : ""), -1;
    if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0])) return -1;
    for (unsigned i = 0; i < 3; i++)
        if (!exec_dec_src(d, pi, &pi->opnd[1 + i], PTX_T_u32, &out->a[i])) return -1;
    out->nd = 1;
    out->na = 3;
    out->type = PTX_T_u32;
    out->aux = aux;
    out->fn = alu_video;
    return 1;
}
