/* exec/tensormap_edit.c — editing a tensor map on the device (sm_90a):
 *
 *   tensormap.replace.tile.field{.global|.shared::cta}.b1024.type [map], {ord,} new_val
 *   tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
 *       [dst], [src], 128
 *
 * A map is vcuda's own 128-byte layout (exec/tensormap.h), so a field is replaced in that
 * layout: global_address (bytes), global_dim (elements of dimension ord), global_stride
 * (bytes between steps of dimension ord + 1, as cuTensorMapEncodeTiled's globalStrides[ord]
 * and CUTLASS give it since CUDA 12.4), box_dim (elements of dimension ord) and
 * element_stride (of dimension ord). The enumerated fields take an immediate (ptxas checks
 * its range) in the PTX ISA's codes, which an H200 follows (tests/cuda/hopper/
 * tensormap_enum.cu: each code edited into a map, then a load through it):
 *   rank               the rank less one (0: a 1D map, ..., 4: 5D)
 *   elemtype           0 u8, 1 u16, 2 u32, 3 s32, 4 u64, 5 s64, 6 f16, 7 f32, 8 f32.ftz,
 *                      9 f64, 10 bf16, 11 tf32, 12 tf32.ftz (not the driver's order:
 *                      CUtensorMapDataType has FLOAT64 8, BFLOAT16 9, FLOAT32_FTZ 10)
 *   interleave_layout  0 none, 1 16 bytes, 2 32 bytes
 *   swizzle_mode       0 none, 1 32, 2 64, 3 128 bytes
 *   fill_mode          0 zeros, 1 NaN
 * The map keeps the driver's codes (exec/tensormap.h), so the ISA's are translated. An
 * edit the encoder would refuse takes effect all the same; the copy through the map then
 * decides (an integer type with the NaN fill is an illegal instruction: exec/bulk_tensor.c).
 * swizzle_atomicity is not an sm_90 field (ptxas refuses it for sm_90a). A value the
 * encoder would refuse in the other fields is an illegal instruction. cp_fenceproxy copies
 * the 128 bytes; vcuda has one memory proxy, so its fence orders nothing more.
 */
#include "core.h"
#include "tensormap.h"

#include <stdio.h>

enum { TM_ADDRESS, TM_GDIM, TM_GSTRIDE, TM_BOX, TM_ESTRIDE,
       TM_RANK, TM_ELEMTYPE, TM_INTERLEAVE, TM_SWIZZLE, TM_FILL };

/* The enumerated fields' largest code. */
static const unsigned tm_max_code[] = {
    [TM_RANK] = 4, [TM_ELEMTYPE] = 12, [TM_INTERLEAVE] = 2, [TM_SWIZZLE] = 3, [TM_FILL] = 1,
};

typedef struct {
    uint32_t map, val, ord;    /* slots */
    int64_t map_off, src_off;
    uint32_t src;              /* cp_fenceproxy's source slot */
} tm_desc;

static bool tm_fail(exec_warp *hw, const exec_insn *in, uint32_t lane, const char *what) {
    char msg[160];
    snprintf(msg, sizeof msg, "tensormap.replace: %s", what);
    exec_fault_at(hw, in, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION, msg);
    return false;
}

/* An enumerated field's code v (checked at load time) into the map's own fields. */
static bool tm_apply_enum(exec_warp *hw, const exec_insn *in, uint32_t lane, exec_tmap *t,
                          unsigned field, uint64_t v) {
    /* elemtype: the ISA's code to CUtensorMapDataType, and the element's bytes */
    static const uint8_t dtype[13] = {0, 1, 2, 3, 4, 5, 6, 7, 10, 8, 9, 11, 12};
    static const uint8_t size[13] = {1, 2, 4, 4, 8, 8, 2, 4, 4, 8, 2, 4, 4};
    switch (field) {
    case TM_RANK:
        if (t->im2col && v < 2) return tm_fail(hw, in, lane, "an im2col map has rank 3 to 5");
        t->rank = (uint8_t)(v + 1);
        return true;
    case TM_ELEMTYPE:
        t->dtype = dtype[v];
        t->elem_size = size[v];
        return true;
    case TM_INTERLEAVE: t->interleave = (uint8_t)v; return true;
    case TM_SWIZZLE: t->swizzle = (uint8_t)v; return true;
    default: t->oob_nan = (uint8_t)v; return true;
    }
}

static bool tm_apply(exec_warp *hw, const exec_insn *in, uint32_t lane, exec_tmap *t,
                     unsigned field, uint64_t ord, uint64_t v) {
    if (t->magic != EXEC_TMAP_MAGIC) return tm_fail(hw, in, lane, "the operand is no tensor map");
    if (field >= TM_RANK) return tm_apply_enum(hw, in, lane, t, field, v);
    bool dim = field != TM_ADDRESS;
    if (dim && ord >= t->rank + 0u - (field == TM_GSTRIDE))
        return tm_fail(hw, in, lane, "the dimension (ord) is past the map's rank");
    switch (field) {
    case TM_ADDRESS:
        if (!v || (v & 15)) return tm_fail(hw, in, lane, "a global address is 16-byte aligned");
        t->gaddr = v;
        return true;
    case TM_GDIM:
        if (!v || v > (1ull << 32)) return tm_fail(hw, in, lane, "a dimension is 1 to 2^32");
        t->gdim[ord] = v;
        return true;
    case TM_GSTRIDE:
        if ((v & 15) || v >= (1ull << 40))
            return tm_fail(hw, in, lane, "a stride is a multiple of 16 below 2^40");
        t->gstride[ord] = v;
        return true;
    case TM_BOX:
        if (t->im2col) return tm_fail(hw, in, lane, "an im2col map has no box");
        if (!v || v > 256 || (ord == 0 && (v * t->elem_size) % 16))
            return tm_fail(hw, in, lane, "a box dimension is 1 to 256 (whole 16 bytes in "
                                         "dimension 0)");
        t->box[ord] = (uint32_t)v;
        return true;
    default:
        if (!v || v > 8) return tm_fail(hw, in, lane, "an element stride is 1 to 8");
        t->estride[ord] = (uint8_t)v;
        return true;
    }
}

static void h_tm_replace(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const tm_desc *b = (const tm_desc *)(uintptr_t)in->imm;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t a = EXEC_R(hw, b->map, lane) + (uint64_t)b->map_off;
        uint8_t *p = exec_mem_addr(w, in, lane, (ptx_space)in->space, a, sizeof(exec_tmap),
                                   EXEC_ACC_WRITE);
        if (!p) return;
        exec_tmap t;
        memcpy(&t, p, sizeof t);
        uint64_t ord = in->aux == TM_ADDRESS || in->aux >= TM_RANK ? 0 : EXEC_R(hw, b->ord, lane);
        if (!tm_apply(hw, in, lane, &t, in->aux, ord, EXEC_R(hw, b->val, lane))) return;
        memcpy(p, &t, sizeof t);
    }
}

static void h_tm_copy(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const tm_desc *b = (const tm_desc *)(uintptr_t)in->imm;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t dst = EXEC_R(hw, b->map, lane) + (uint64_t)b->map_off;
        uint64_t src = EXEC_R(hw, b->src, lane) + (uint64_t)b->src_off;
        const uint8_t *s = exec_mem_addr(w, in, lane, PTX_SPACE_SHARED, src, 128, EXEC_ACC_READ);
        if (!s) return;
        uint8_t *d = exec_mem_addr(w, in, lane, PTX_SPACE_GLOBAL, dst, 128, EXEC_ACC_WRITE);
        if (!d) return;
        memmove(d, s, 128);
    }
}

static bool tm_addr(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, ptx_space sp,
                    uint32_t *slot, int64_t *off) {
    exec_insn t;
    memset(&t, 0, sizeof t);
    if (!exec_dec_address(d, pi, o, sp, &t)) return false;
    *slot = t.a[0];
    *off = t.imm;
    return true;
}

int exec_decode_tensormap(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (pi->op != PTX_OP_tensormap) return 0;
    tm_desc *b = exec_dec_blob(d, sizeof *b);
    out->imm = (int64_t)(uintptr_t)b;
    if (ptx_insn_has_mod(pi, PTX_MOD_cp_fenceproxy)) {
        const ptx_operand *n = pi->nopnds == 3 ? &pi->opnd[2] : NULL;
        if (!n || n->kind != PTX_OPND_IMM_INT || n->ival != 128)
            return exec_dec_error(d, pi, "tensormap.cp_fenceproxy copies 128 bytes: [dst], "
                                  "[src], 128"), -1;
        if (!tm_addr(d, pi, &pi->opnd[0], PTX_SPACE_GLOBAL, &b->map, &b->map_off) ||
            !tm_addr(d, pi, &pi->opnd[1], PTX_SPACE_SHARED, &b->src, &b->src_off))
            return -1;
        out->space = PTX_SPACE_GLOBAL;
        out->fn = h_tm_copy;
        return 1;
    }
    if (!ptx_insn_has_mod(pi, PTX_MOD_replace) || !ptx_insn_has_mod(pi, PTX_MOD_tile))
        return exec_dec_error(d, pi, "unsupported tensormap operation (replace.tile and "
                              "cp_fenceproxy are)"), -1;
    static const struct { ptx_mod mod; int field; } fields[] = {
        { PTX_MOD_global_address, TM_ADDRESS }, { PTX_MOD_global_dim, TM_GDIM },
        { PTX_MOD_global_stride, TM_GSTRIDE }, { PTX_MOD_box_dim, TM_BOX },
        { PTX_MOD_element_stride, TM_ESTRIDE }, { PTX_MOD_rank, TM_RANK },
        { PTX_MOD_elemtype, TM_ELEMTYPE }, { PTX_MOD_interleave_layout, TM_INTERLEAVE },
        { PTX_MOD_swizzle_mode, TM_SWIZZLE }, { PTX_MOD_fill_mode, TM_FILL },
        { PTX_MOD_swizzle_atomicity, -1 },
    };
    int field = -2;
    for (unsigned i = 0; i < sizeof fields / sizeof fields[0] && field == -2; i++)
        if (ptx_insn_has_mod(pi, fields[i].mod)) {
            field = fields[i].field;
            if (field < 0)
                return exec_dec_error(d, pi, "tensormap.replace .swizzle_atomicity is not "
                                      "an sm_90 field (ptxas refuses it for sm_90a)"), -1;
        }
    if (field < 0) return exec_dec_error(d, pi, "tensormap.replace needs a field"), -1;
    ptx_space sp = ptx_insn_has_mod(pi, PTX_MOD_shared_cta) || ptx_insn_has_mod(pi, PTX_MOD_shared)
                       ? PTX_SPACE_SHARED
                   : ptx_insn_has_mod(pi, PTX_MOD_global) ? PTX_SPACE_GLOBAL : PTX_SPACE_GENERIC;
    bool has_ord = field != TM_ADDRESS && field < TM_RANK;
    ptx_type vt = field == TM_ADDRESS || field == TM_GSTRIDE ? PTX_T_b64 : PTX_T_b32;
    if (pi->ntypes != 1 || pi->types[0] != vt)
        return exec_dec_error(d, pi, "tensormap.replace of this field takes .%s",
                              ptx_type_names[vt]), -1;
    if (pi->nopnds != (has_ord ? 3u : 2u))
        return exec_dec_error(d, pi, "tensormap.replace takes [map], %snew_val",
                              has_ord ? "ord, " : ""), -1;
    if (!tm_addr(d, pi, &pi->opnd[0], sp, &b->map, &b->map_off)) return -1;
    if (has_ord && !exec_dec_src(d, pi, &pi->opnd[1], PTX_T_b32, &b->ord)) return -1;
    const ptx_operand *nv = &pi->opnd[has_ord ? 2 : 1];
    if (field >= TM_RANK && (nv->kind != PTX_OPND_IMM_INT || nv->ival < 0 ||
                             nv->ival > (int64_t)tm_max_code[field]))
        return exec_dec_error(d, pi, "tensormap.replace .%s takes a constant from 0 to %u",
                              field == TM_RANK ? "rank" : field == TM_ELEMTYPE ? "elemtype"
                              : field == TM_INTERLEAVE ? "interleave_layout"
                              : field == TM_SWIZZLE ? "swizzle_mode" : "fill_mode",
                              tm_max_code[field]), -1;
    if (!exec_dec_src(d, pi, nv, vt, &b->val)) return -1;
    out->space = (uint8_t)sp;
    out->aux = (uint32_t)field;
    out->fn = h_tm_replace;
    return 1;
}
