/* exec/texture.c — the texture and surface instructions: tex (with .level and .grad),
 * tld4, txq, suq, suld.b, sust.b, sured.b (an atomic reduction into a surface's texel) and
 * istypep, in the unified mode CUDA uses (the texture or surface is
 * a 64-bit object handle in a register, exec/texture.h). The sampling itself is
 * exec/tex_sample.c.
 *
 * Operands: the destination (or, for sust, the source) vector sits in d[], the handle in
 * a[0]. The coordinates (up to four) do not fit the remaining source fields, so their
 * slots are packed 16 bits each into imm; tex.grad's two gradient vectors likewise into
 * two constant slots (a[1], a[2]); tex.level's level of detail is a[1]. A compiled tier
 * that runs these handlers must keep those registers in the frame's slots.
 */
#include "core.h"
#include "tex_internal.h"
#include "observe.h"

#include <math.h>
#include <stdio.h>

/* Geometries (PTX's .1d ... .acube) in exec_insn.aux bits 0-3. */
enum { G_1D, G_2D, G_3D, G_A1D, G_A2D, G_CUBE, G_ACUBE };
#define AUX_GEOM(aux) ((aux) & 0xfu)
#define AUX_INT_COORDS 0x10u     /* tex: .s32 coordinates */
#define AUX_LOD_SHIFT 5          /* tex: enum exec_tex_lod, 2 bits */
#define AUX_COMP_SHIFT 8         /* tld4: component, 2 bits */
#define AUX_CLAMP_SHIFT 8        /* suld/sust: enum below, 2 bits */
#define AUX_SIZE_SHIFT 12        /* suld/sust: bytes per element, 4 bits */
#define AUX_LEVEL 0x10000u       /* txq: .level form (a[1] holds the level) */
#define AUX_QUERY_SHIFT 20       /* txq: enum exec_txq */
enum { CLAMP_TRAP, CLAMP_CLAMP, CLAMP_ZERO };

static const unsigned geom_coords[] = {1, 2, 3, 1, 2, 3, 3};   /* spatial coordinates */
static const unsigned geom_layered[] = {0, 0, 0, 1, 1, 0, 1};
static const unsigned geom_vec[] = {1, 2, 4, 2, 4, 4, 4};      /* elements PTX gives */

static int geometry(const ptx_insn *pi) {
    for (unsigned i = 0; i < pi->nmods; i++) {
        switch (pi->mods[i]) {
        case PTX_MOD_dim_1d: return G_1D;
        case PTX_MOD_dim_2d: return G_2D;
        case PTX_MOD_dim_3d: return G_3D;
        case PTX_MOD_dim_a1d: return G_A1D;
        case PTX_MOD_dim_a2d: return G_A2D;
        case PTX_MOD_dim_cube: return G_CUBE;
        case PTX_MOD_dim_acube: return G_ACUBE;
        default: break;
        }
    }
    return -1;
}

/* ---- decoding ---- */

/* A slot that must fit the 16 bits the packed operand lists give it. */
static bool small_slot(exec_decoder *d, const ptx_insn *pi, uint32_t slot) {
    if (slot <= 0xffffu) return true;
    return exec_dec_error(d, pi, "function too large for a texture instruction's operands");
}

/* Slots of the elements of vector o (n of them, each read as type t), packed. */
static bool packed_vec(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, unsigned n,
                       const ptx_type *types, uint64_t *packed) {
    if (o->kind != PTX_OPND_VEC || o->vec_n < n)
        return exec_dec_error(d, pi, "expected a vector of %u coordinates", n);
    uint64_t p = 0;
    for (unsigned k = 0; k < n; k++) {
        uint32_t slot;
        if (!exec_dec_src(d, pi, exec_dec_vec_elem(d, o, k), types[k], &slot) ||
            !small_slot(d, pi, slot))
            return false;
        p |= (uint64_t)slot << (16 * k);
    }
    *packed = p;
    return true;
}

/* The handle operand [h, ...]: a register holding a texture or surface object. */
static bool handle(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, uint32_t *slot) {
    if (o->kind == PTX_OPND_ADDR && o->reg >= 0 && o->ival == 0) {
        *slot = d->reg_slot[o->reg];
        return true;
    }
    if (o->kind == PTX_OPND_ADDR && o->sym.index >= 0)
        return exec_dec_error(d, pi, "texture and surface references (.texref, .surfref) are "
                              "not supported: only texture and surface objects");
    return exec_dec_error(d, pi, "expected a texture or surface object register");
}

static bool dests(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, unsigned n,
                  exec_insn *out) {
    if (o->kind == PTX_OPND_REG && n == 1) return exec_dec_dst(d, pi, o, &out->d[0]);
    if (o->kind != PTX_OPND_VEC || o->vec_n != n)
        return exec_dec_error(d, pi, "expected a destination vector of %u registers", n);
    for (unsigned k = 0; k < n; k++)
        if (!exec_dec_dst(d, pi, exec_dec_vec_elem(d, o, k), &out->d[k])) return false;
    return true;
}

/* Coordinates of a tex/tld4/suld/sust: the layer first for the arrayed geometries. */
static bool coords(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, int g,
                   ptx_type ct, exec_insn *out) {
    ptx_type types[4];
    unsigned n = geom_vec[g];
    for (unsigned k = 0; k < 4; k++) types[k] = ct;
    if (geom_layered[g]) types[0] = PTX_T_u32;
    uint64_t p;
    if (!packed_vec(d, pi, o, n, types, &p)) return false;
    out->imm = (int64_t)p;
    return true;
}

static void h_tex(exec_warp *w, const exec_insn *in, uint32_t mask);
static void h_tld4(exec_warp *w, const exec_insn *in, uint32_t mask);
static void h_txq(exec_warp *w, const exec_insn *in, uint32_t mask);
static void h_suq(exec_warp *w, const exec_insn *in, uint32_t mask);
static void h_suld(exec_warp *w, const exec_insn *in, uint32_t mask);
static void h_sust(exec_warp *w, const exec_insn *in, uint32_t mask);
static void h_sured(exec_warp *w, const exec_insn *in, uint32_t mask);
static void h_istypep(exec_warp *w, const exec_insn *in, uint32_t mask);

static int dec_tex(exec_decoder *d, const ptx_insn *pi, exec_insn *out, bool gather) {
    const char *name = gather ? "tld4" : "tex";
    int g = geometry(pi);
    if (g < 0) return exec_dec_error(d, pi, "%s of this geometry is not supported", name), -1;
    if (pi->ntypes != 2 || !ptx_insn_has_mod(pi, PTX_MOD_v4))
        return exec_dec_error(d, pi, "%s: only the .v4 forms with a result and a coordinate "
                              "type are supported", name), -1;
    ptx_type dt = (ptx_type)pi->types[0], ct = (ptx_type)pi->types[1];
    if ((dt != PTX_T_f32 && dt != PTX_T_s32 && dt != PTX_T_u32) ||
        (ct != PTX_T_f32 && ct != PTX_T_s32))
        return exec_dec_error(d, pi, "%s.%s.%s is not supported", name, ptx_type_names[dt],
                              ptx_type_names[ct]), -1;
    unsigned lod = EXEC_TEX_LOD_BASE;
    if (ptx_insn_has_mod(pi, PTX_MOD_level)) lod = EXEC_TEX_LOD_LEVEL;
    if (ptx_insn_has_mod(pi, PTX_MOD_grad)) lod = EXEC_TEX_LOD_GRAD;
    unsigned comp = 0;
    if (gather) {
        if (ptx_insn_has_mod(pi, PTX_MOD_r)) comp = 0;
        else if (ptx_insn_has_mod(pi, PTX_MOD_comp_g)) comp = 1;
        else if (ptx_insn_has_mod(pi, PTX_MOD_comp_b)) comp = 2;
        else if (ptx_insn_has_mod(pi, PTX_MOD_comp_a)) comp = 3;
        if (g != G_2D && g != G_A2D && g != G_CUBE && g != G_ACUBE)
            return exec_dec_error(d, pi, "tld4 of this geometry is not supported"), -1;
    }
    unsigned want = 3 + (lod == EXEC_TEX_LOD_LEVEL ? 1 : lod == EXEC_TEX_LOD_GRAD ? 2 : 0);
    if (pi->nopnds < 3 || pi->opnd[2].kind != PTX_OPND_VEC)
        return exec_dec_error(d, pi, "%s with a separate sampler is not supported", name), -1;
    if (pi->nopnds != want)
        return exec_dec_error(d, pi, "%s with offsets or a depth comparison is not supported",
                              name), -1;
    if (!dests(d, pi, &pi->opnd[0], 4, out) || !handle(d, pi, &pi->opnd[1], &out->a[0]) ||
        !coords(d, pi, &pi->opnd[2], g, ct, out))
        return -1;
    out->na = 1;
    if (lod == EXEC_TEX_LOD_LEVEL) {
        if (!exec_dec_src(d, pi, &pi->opnd[3], ct, &out->a[1])) return -1;
        out->na = 2;
    } else if (lod == EXEC_TEX_LOD_GRAD) {
        ptx_type f[4] = {PTX_T_f32, PTX_T_f32, PTX_T_f32, PTX_T_f32};
        unsigned n = geom_coords[g] == 1 ? 1 : geom_coords[g] == 2 ? 2 : 4;
        for (unsigned k = 0; k < 2; k++) {
            const ptx_operand *o = &pi->opnd[3 + k];
            uint64_t p;
            if (!packed_vec(d, pi, o, o->kind == PTX_OPND_VEC && o->vec_n < n ? o->vec_n : n,
                            f, &p))
                return -1;
            out->a[1 + k] = exec_dec_const(d, EXEC_CK_VALUE, 0, p);
        }
        out->na = 3;
    }
    out->nd = 4;
    out->type = (uint8_t)dt;
    out->type2 = (uint8_t)ct;
    out->aux = (uint32_t)g | (ct == PTX_T_s32 ? AUX_INT_COORDS : 0) | lod << AUX_LOD_SHIFT |
               comp << AUX_COMP_SHIFT;
    out->fn = gather ? h_tld4 : h_tex;
    return 1;
}

static int dec_txq(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    static const struct { ptx_mod mod; unsigned q; } names[] = {
        {PTX_MOD_width, EXEC_TXQ_WIDTH}, {PTX_MOD_height, EXEC_TXQ_HEIGHT},
        {PTX_MOD_depth, EXEC_TXQ_DEPTH}, {PTX_MOD_channel_data_type, EXEC_TXQ_CHANNEL_DATA_TYPE},
        {PTX_MOD_channel_order, EXEC_TXQ_CHANNEL_ORDER},
        {PTX_MOD_normalized_coords, EXEC_TXQ_NORMALIZED_COORDS},
        {PTX_MOD_filter_mode, EXEC_TXQ_FILTER_MODE}, {PTX_MOD_addr_mode_0, EXEC_TXQ_ADDR_MODE_0},
        {PTX_MOD_addr_mode_1, EXEC_TXQ_ADDR_MODE_1}, {PTX_MOD_addr_mode_2, EXEC_TXQ_ADDR_MODE_2},
        {PTX_MOD_array_size, EXEC_TXQ_ARRAY_SIZE},
        {PTX_MOD_num_mipmap_levels, EXEC_TXQ_NUM_MIPMAP_LEVELS},
        {PTX_MOD_num_samples, EXEC_TXQ_NUM_SAMPLES},
    };
    int q = -1;
    for (unsigned i = 0; i < sizeof names / sizeof names[0] && q < 0; i++)
        if (ptx_insn_has_mod(pi, names[i].mod)) q = (int)names[i].q;
    if (q < 0) return exec_dec_error(d, pi, "txq: unknown query"), -1;
    bool level = ptx_insn_has_mod(pi, PTX_MOD_level);
    if (pi->nopnds != (level ? 3u : 2u)) return exec_dec_error(d, pi, "txq: bad operands"), -1;
    if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0]) ||
        !handle(d, pi, &pi->opnd[1], &out->a[0]))
        return -1;
    out->nd = 1;
    out->na = 1;
    if (level) {
        if (!exec_dec_src(d, pi, &pi->opnd[2], PTX_T_s32, &out->a[1])) return -1;
        out->na = 2;
    }
    out->aux = (uint32_t)q << AUX_QUERY_SHIFT | (level ? AUX_LEVEL : 0);
    out->fn = h_txq;
    return 1;
}

/* suq: a surface's width (in elements), height, depth, layers, memory layout (0: the
 * block-linear layout of a CUDA array, which every surface object has), channel order and
 * data type (0, as txq's). */
#define SUQ_MEMORY_LAYOUT 100u
static int dec_suq(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    static const struct { ptx_mod mod; unsigned q; } names[] = {
        {PTX_MOD_width, EXEC_TXQ_WIDTH}, {PTX_MOD_height, EXEC_TXQ_HEIGHT},
        {PTX_MOD_depth, EXEC_TXQ_DEPTH}, {PTX_MOD_array_size, EXEC_TXQ_ARRAY_SIZE},
        {PTX_MOD_memory_layout, SUQ_MEMORY_LAYOUT},
        {PTX_MOD_channel_data_type, EXEC_TXQ_CHANNEL_DATA_TYPE},
        {PTX_MOD_channel_order, EXEC_TXQ_CHANNEL_ORDER},
    };
    int q = -1;
    for (unsigned i = 0; i < sizeof names / sizeof names[0] && q < 0; i++)
        if (ptx_insn_has_mod(pi, names[i].mod)) q = (int)names[i].q;
    if (q < 0) return exec_dec_error(d, pi, "suq: unknown query"), -1;
    if (pi->nopnds != 2) return exec_dec_error(d, pi, "suq: bad operands"), -1;
    if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0]) ||
        !handle(d, pi, &pi->opnd[1], &out->a[0]))
        return -1;
    out->nd = 1;
    out->na = 1;
    out->aux = (uint32_t)q << AUX_QUERY_SHIFT;
    out->fn = h_suq;
    return 1;
}

static int dec_surface(exec_decoder *d, const ptx_insn *pi, exec_insn *out, bool load) {
    const char *name = load ? "suld" : "sust";
    /* .p never gets here: the parser refuses it (ptx/parser_insn.c) */
    if (!ptx_insn_has_mod(pi, PTX_MOD_comp_b))
        return exec_dec_error(d, pi, "%s without .b is not supported", name), -1;
    int g = geometry(pi);
    if (g < 0 || g == G_CUBE || g == G_ACUBE)
        return exec_dec_error(d, pi, "%s of this geometry is not supported", name), -1;
    if (pi->ntypes != 1) return exec_dec_error(d, pi, "%s: missing type", name), -1;
    ptx_type t = (ptx_type)pi->types[0];
    unsigned size = ptx_type_sizes[t];
    if (ptx_type_kinds[t] != 'b' || size < 1 || size > 8)
        return exec_dec_error(d, pi, "%s.%s is not supported", name, ptx_type_names[t]), -1;
    unsigned vec = ptx_insn_has_mod(pi, PTX_MOD_v4) ? 4 : ptx_insn_has_mod(pi, PTX_MOD_v2) ? 2 : 1;
    unsigned clamp = ptx_insn_has_mod(pi, PTX_MOD_clamp) ? CLAMP_CLAMP :
                     ptx_insn_has_mod(pi, PTX_MOD_zero) ? CLAMP_ZERO : CLAMP_TRAP;
    if (pi->nopnds != 3) return exec_dec_error(d, pi, "%s: bad operands", name), -1;
    const ptx_operand *data = &pi->opnd[load ? 0 : 2];
    const ptx_operand *h = &pi->opnd[load ? 1 : 0];
    const ptx_operand *c = &pi->opnd[load ? 2 : 1];
    if (!handle(d, pi, h, &out->a[0]) || !coords(d, pi, c, g, PTX_T_s32, out)) return -1;
    if (load) {
        if (!dests(d, pi, data, vec, out)) return -1;
    } else {
        if (data->kind != PTX_OPND_VEC && vec > 1)
            return exec_dec_error(d, pi, "sust: expected a vector of %u values", vec), -1;
        for (unsigned k = 0; k < vec; k++) {
            const ptx_operand *o = data->kind == PTX_OPND_VEC ? exec_dec_vec_elem(d, data, k) : data;
            if (!o) return exec_dec_error(d, pi, "sust: expected %u values", vec), -1;
            ptx_type vt = size == 8 ? PTX_T_b64 : size == 4 ? PTX_T_b32 : PTX_T_b16;
            if (size == 1) vt = PTX_T_b16;
            if (!exec_dec_src(d, pi, o, vt, &out->d[k])) return -1;
        }
    }
    out->nd = load ? (uint8_t)vec : 0;
    out->na = 1;
    out->vec = (uint8_t)vec;
    out->type = (uint8_t)t;
    out->aux = (uint32_t)g | clamp << AUX_CLAMP_SHIFT | size << AUX_SIZE_SHIFT;
    out->fn = load ? h_suld : h_sust;
    return 1;
}

/* sured.b.op.geom.ctype.clamp [surf, {x, ..}], v: x counts bytes, as suld.b/sust.b's do. */
static int dec_sured(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (!ptx_insn_has_mod(pi, PTX_MOD_comp_b))
        return exec_dec_error(d, pi, "sured without .b (sured.p) is not supported"), -1;
    static const ptx_mod ops[] = { PTX_MOD_add, PTX_MOD_min, PTX_MOD_max, PTX_MOD_and_, PTX_MOD_or_ };
    int op = -1;
    for (unsigned i = 0; i < 5 && op < 0; i++)
        if (ptx_insn_has_mod(pi, ops[i])) op = (int)ops[i];
    int g = geometry(pi);
    if (op < 0 || pi->ntypes != 1 || (g != G_1D && g != G_2D && g != G_3D))
        return exec_dec_error(d, pi, "sured takes .b, an operation (.add .min .max .and .or), "
                              ".1d/.2d/.3d and a type"), -1;
    ptx_type t = (ptx_type)pi->types[0];
    bool ok;
    if (op == PTX_MOD_add) ok = t == PTX_T_u32 || t == PTX_T_s32 || t == PTX_T_u64;
    else if (op == PTX_MOD_and_ || op == PTX_MOD_or_) ok = t == PTX_T_b32;
    else ok = t == PTX_T_u32 || t == PTX_T_s32 || t == PTX_T_u64 || t == PTX_T_s64;
    if (!ok)
        return exec_dec_error(d, pi, "sured.%s.%s is not an operation the ISA has",
                              ptx_mod_names[op], ptx_type_names[t]), -1;
    unsigned clamp = ptx_insn_has_mod(pi, PTX_MOD_clamp) ? CLAMP_CLAMP :
                     ptx_insn_has_mod(pi, PTX_MOD_zero) ? CLAMP_ZERO : CLAMP_TRAP;
    if (pi->nopnds != 3) return exec_dec_error(d, pi, "sured: bad operands"), -1;
    if (!handle(d, pi, &pi->opnd[0], &out->a[0]) || !coords(d, pi, &pi->opnd[1], g, PTX_T_s32, out) ||
        !exec_dec_src(d, pi, &pi->opnd[2], t, &out->a[1]))
        return -1;
    unsigned size = ptx_type_sizes[t];
    out->nd = 0;
    out->na = 2;
    out->vec = 1;
    out->type = (uint8_t)t;
    out->type2 = (uint8_t)op;
    out->aux = (uint32_t)g | clamp << AUX_CLAMP_SHIFT | size << AUX_SIZE_SHIFT;
    out->fn = h_sured;
    return 1;
}

/* istypep.{texref,samplerref,surfref} p, handle */
static int dec_istypep(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    unsigned kind = ptx_insn_has_mod(pi, PTX_MOD_texref) ? 0
                  : ptx_insn_has_mod(pi, PTX_MOD_samplerref) ? 1
                  : ptx_insn_has_mod(pi, PTX_MOD_surfref) ? 2 : 3;
    if (kind == 3 || pi->nopnds != 2)
        return exec_dec_error(d, pi, "istypep takes .texref, .samplerref or .surfref, p, a"), -1;
    out->flags |= EXEC_F_D_PRED;
    if (!exec_dec_pred(d, pi, &pi->opnd[0], &out->d[0], NULL) ||
        !exec_dec_src(d, pi, &pi->opnd[1], PTX_T_u64, &out->a[0]))
        return -1;
    out->nd = 1;
    out->na = 1;
    out->aux = kind;
    out->fn = h_istypep;
    return 1;
}

int exec_decode_texture(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    switch (pi->op) {
    case PTX_OP_tex: return dec_tex(d, pi, out, false);
    case PTX_OP_tld4: return dec_tex(d, pi, out, true);
    case PTX_OP_txq: return dec_txq(d, pi, out);
    case PTX_OP_suld: return dec_surface(d, pi, out, true);
    case PTX_OP_sust: return dec_surface(d, pi, out, false);
    case PTX_OP_suq: return dec_suq(d, pi, out);
    case PTX_OP_sured: return dec_sured(d, pi, out);
    case PTX_OP_istypep: return dec_istypep(d, pi, out);
    default: return 0;
    }
}

/* ---- running ---- */

static uint32_t packed_slot(int64_t packed, unsigned k) {
    return (uint32_t)((uint64_t)packed >> (16 * k)) & 0xffffu;
}

static float lane_f32(exec_warp *w, uint32_t slot, uint32_t lane) {
    uint32_t b = (uint32_t)EXEC_R(w, slot, lane);
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* The object a handle names, or NULL. The last lookup is kept in *cache: a warp's lanes
 * nearly always use one object. A handle that names no live object: a surface access
 * faults; a texture read gives zeros (*dead set), as on an H200, where a kernel reading
 * through a destroyed texture object completes without an error. A live object whose
 * texels were freed faults with an illegal address, as there. */
typedef struct obj_cache { uint64_t handle; const exec_texobj *obj; } obj_cache;

static const exec_texobj *object(exec_warp *w, const exec_insn *in, uint32_t lane,
                                 uint32_t magic, obj_cache *cache, bool *dead) {
    uint64_t h = EXEC_R(w, in->a[0], lane);
    *dead = false;
    if (cache->obj && cache->handle == h) return cache->obj;
    const exec_launch *L = w->block->L;
    mem_alloc a;
    const char *what = magic == EXEC_SURFOBJ_MAGIC ? "surface" : "texture";
    char msg[160];
    if (!L->mem || !mem_table_find(L->mem, h, &a) || a.base != h ||
        !(a.flags & EXEC_MEM_FLAG_OBJECT) || a.size < sizeof(exec_texobj) ||
        ((const exec_texobj *)(uintptr_t)h)->magic != magic) {
        if (magic == EXEC_TEXOBJ_MAGIC) {
            *dead = true;
            return NULL;
        }
        snprintf(msg, sizeof msg, "0x%llx is not a live %s object", (unsigned long long)h, what);
        exec_fault_at(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, msg);
        return NULL;
    }
    const exec_texobj *t = (const exec_texobj *)(uintptr_t)h;
    if (!mem_table_check(L->mem, t->store_base, t->store_size, NULL)) {
        snprintf(msg, sizeof msg, "the memory of %s object 0x%llx was freed", what,
                 (unsigned long long)h);
        exec_fault_at(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, msg);
        return NULL;
    }
    cache->handle = h;
    cache->obj = t;
    return t;
}

/* The lookup lane asks for. */
static void lookup_of(exec_warp *w, const exec_insn *in, uint32_t lane, exec_tex_lookup *q) {
    unsigned g = AUX_GEOM(in->aux);
    memset(q, 0, sizeof *q);
    unsigned first = geom_layered[g];
    if (first) q->layer = (int32_t)(uint32_t)EXEC_R(w, packed_slot(in->imm, 0), lane);
    q->int_coords = (in->aux & AUX_INT_COORDS) != 0;
    for (unsigned k = 0; k < geom_coords[g]; k++) {
        uint32_t slot = packed_slot(in->imm, first + k);
        if (q->int_coords) q->ic[k] = (int32_t)(uint32_t)EXEC_R(w, slot, lane);
        else q->c[k] = lane_f32(w, slot, lane);
    }
    q->cube = g == G_CUBE || g == G_ACUBE;
    q->lod_kind = (uint8_t)((in->aux >> AUX_LOD_SHIFT) & 3u);
    if (q->lod_kind == EXEC_TEX_LOD_LEVEL) {
        q->lod = q->int_coords ? (float)(int32_t)(uint32_t)EXEC_R(w, in->a[1], lane)
                               : lane_f32(w, in->a[1], lane);
    } else if (q->lod_kind == EXEC_TEX_LOD_GRAD) {
        for (unsigned v = 0; v < 2; v++) {
            int64_t p = (int64_t)EXEC_R(w, in->a[1 + v], 0); /* a constant: every lane */
            for (unsigned k = 0; k < 3 && k < geom_coords[g]; k++)
                q->grad[v][k] = lane_f32(w, packed_slot(p, k), lane);
        }
    }
}

/* A texture lookup on a resource shape the instruction's geometry does not fit: the GPU's
 * result is undefined; vcuda says so. */
static bool shape_fits(exec_warp *w, const exec_insn *in, uint32_t lane, const exec_texobj *t) {
    unsigned g = AUX_GEOM(in->aux);
    bool cube = g == G_CUBE || g == G_ACUBE;
    bool ok = cube ? t->cubemap && t->layered == (g == G_ACUBE)
                   : !t->cubemap && t->dims == geom_coords[g] && t->layered == (geom_layered[g] != 0);
    if (!ok)
        exec_fault_at(w, in, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                      "the texture object's resource does not have the instruction's geometry");
    return ok;
}

static void h_tex(exec_warp *w, const exec_insn *in, uint32_t mask) {
    obj_cache cache = {0, NULL};
    /* Plain 2D lookups at float coordinates take the sampler's fast path where the
     * texture allows it; the object last checked (shape and fast path) is kept, as a
     * warp's lanes nearly always read one. */
    bool plain_2d = AUX_GEOM(in->aux) == G_2D && !(in->aux & AUX_INT_COORDS);
    const exec_texobj *checked = NULL;
    bool fast = false;
    EXEC_FOR_LANES(mask, lane) {
        bool dead;
        const exec_texobj *t = object(w, in, lane, EXEC_TEXOBJ_MAGIC, &cache, &dead);
        if (dead) {
            for (unsigned k = 0; k < 4; k++) EXEC_R(w, in->d[k], lane) = 0;
            continue;
        }
        if (!t) return;
        if (t != checked) {
            if (!shape_fits(w, in, lane, t)) return;
            checked = t;
            fast = plain_2d && exec_tex_fast_2d(t);
        }
        if (fast) {
            uint32_t out[4];
            exec_tex_sample_2d(t, lane_f32(w, packed_slot(in->imm, 0), lane),
                               lane_f32(w, packed_slot(in->imm, 1), lane), out);
            for (unsigned k = 0; k < 4; k++) EXEC_R(w, in->d[k], lane) = out[k];
            continue;
        }
        exec_tex_lookup q;
        lookup_of(w, in, lane, &q);
        uint32_t out[4];
        exec_tex_sample(t, &q, out);
        for (unsigned k = 0; k < 4; k++) EXEC_R(w, in->d[k], lane) = out[k];
    }
}

static void h_tld4(exec_warp *w, const exec_insn *in, uint32_t mask) {
    obj_cache cache = {0, NULL};
    EXEC_FOR_LANES(mask, lane) {
        bool dead;
        const exec_texobj *t = object(w, in, lane, EXEC_TEXOBJ_MAGIC, &cache, &dead);
        if (dead) {
            for (unsigned k = 0; k < 4; k++) EXEC_R(w, in->d[k], lane) = 0;
            continue;
        }
        if (!t || !shape_fits(w, in, lane, t)) return;
        exec_tex_lookup q;
        lookup_of(w, in, lane, &q);
        uint32_t out[4];
        exec_tex_gather(t, &q, (in->aux >> AUX_COMP_SHIFT) & 3u, out);
        for (unsigned k = 0; k < 4; k++) EXEC_R(w, in->d[k], lane) = out[k];
    }
}

static void h_txq(exec_warp *w, const exec_insn *in, uint32_t mask) {
    obj_cache cache = {0, NULL};
    EXEC_FOR_LANES(mask, lane) {
        bool dead;
        const exec_texobj *t = object(w, in, lane, EXEC_TEXOBJ_MAGIC, &cache, &dead);
        if (dead) {
            EXEC_R(w, in->d[0], lane) = 0;
            continue;
        }
        if (!t) return;
        int level = in->aux & AUX_LEVEL ? (int32_t)(uint32_t)EXEC_R(w, in->a[1], lane) : -1;
        unsigned q = in->aux >> AUX_QUERY_SHIFT;
        /* the channel order and data type (OpenCL's enumerations) read 0 on an H200 for
         * every format, element or normalized reads, arrays and linear memory alike
         * (tests/cuda/hopper/suq_channel.cu) */
        EXEC_R(w, in->d[0], lane) = q == EXEC_TXQ_CHANNEL_DATA_TYPE || q == EXEC_TXQ_CHANNEL_ORDER
                                        ? 0 : exec_tex_query(t, q, level);
    }
}

static void h_suq(exec_warp *w, const exec_insn *in, uint32_t mask) {
    obj_cache cache = {0, NULL};
    unsigned q = in->aux >> AUX_QUERY_SHIFT;
    EXEC_FOR_LANES(mask, lane) {
        bool dead;
        const exec_texobj *t = object(w, in, lane, EXEC_SURFOBJ_MAGIC, &cache, &dead);
        if (dead) {
            EXEC_R(w, in->d[0], lane) = 0;
            continue;
        }
        if (!t) return;
        EXEC_R(w, in->d[0], lane) = q == SUQ_MEMORY_LAYOUT || q == EXEC_TXQ_CHANNEL_DATA_TYPE ||
                                            q == EXEC_TXQ_CHANNEL_ORDER
                                        ? 0 : exec_tex_query(t, q, 0);
    }
}

/* Where a surface access of size bytes at coordinates lands: the texel's first byte, or
 * NULL when it falls outside in .zero mode (or after reporting the fault in .trap mode). */
static uint8_t *surface_at(exec_warp *w, const exec_insn *in, uint32_t lane,
                           const exec_texobj *t, unsigned size) {
    unsigned g = AUX_GEOM(in->aux);
    unsigned clamp = (in->aux >> AUX_CLAMP_SHIFT) & 3u;
    if (t->cubemap ? !(g == G_A2D || g == G_3D) :
        (t->dims != geom_coords[g] || t->layered != (geom_layered[g] != 0))) {
        exec_fault_at(w, in, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                      "the surface object's array does not have the instruction's geometry");
        return NULL;
    }
    const exec_tex_level *lv = &t->level[0];
    unsigned first = geom_layered[g];
    int64_t pos[3] = {0, 0, 0};
    for (unsigned k = 0; k < geom_coords[g]; k++)
        pos[k] = (int32_t)(uint32_t)EXEC_R(w, packed_slot(in->imm, first + k), lane);
    int64_t layer = first ? (int32_t)(uint32_t)EXEC_R(w, packed_slot(in->imm, 0), lane) : 0;
    /* x counts bytes, the others elements */
    const int64_t limit[3] = {(int64_t)lv->width * t->elem_size - size, (int64_t)lv->height - 1,
                              (int64_t)lv->depth - 1};
    uint32_t slices = t->layered ? t->layers * (t->cubemap ? 6u : 1u) : 1u;
    bool out = layer < 0 || layer >= slices;
    for (unsigned k = 0; k < geom_coords[g]; k++)
        if (pos[k] < 0 || pos[k] > limit[k]) out = true;
    if (out) {
        if (clamp == CLAMP_ZERO) return NULL;
        if (clamp == CLAMP_TRAP) {
            char msg[160];
            snprintf(msg, sizeof msg, "surface coordinates (%lld, %lld, %lld) are out of range",
                     (long long)pos[0], (long long)pos[1], (long long)(first ? layer : pos[2]));
            exec_fault_at(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS, msg);
            return NULL;
        }
        for (unsigned k = 0; k < geom_coords[g]; k++)
            pos[k] = pos[k] < 0 ? 0 : pos[k] > limit[k] ? limit[k] : pos[k];
        layer = layer < 0 ? 0 : layer >= slices ? slices - 1 : layer;
    }
    uint64_t s = g == G_3D ? (uint64_t)pos[2] : (uint64_t)layer;
    return lv->base + s * lv->slice + (uint64_t)pos[1] * lv->pitch + (uint64_t)pos[0];
}

static void h_suld(exec_warp *w, const exec_insn *in, uint32_t mask) {
    obj_cache cache = {0, NULL};
    unsigned esize = (in->aux >> AUX_SIZE_SHIFT) & 0xfu, vec = in->vec;
    EXEC_FOR_LANES(mask, lane) {
        bool dead;
        const exec_texobj *t = object(w, in, lane, EXEC_SURFOBJ_MAGIC, &cache, &dead);
        if (!t) return;
        const uint8_t *p = surface_at(w, in, lane, t, esize * vec);
        if (w->fault) return;
        for (unsigned k = 0; k < vec; k++) {
            uint64_t v = 0;
            if (p) memcpy(&v, p + k * esize, esize);
            EXEC_R(w, in->d[k], lane) = v;
        }
    }
}

/* Lanes that store to one texel: the lowest lane's value is what remains on the GPU, so
 * the lanes go from the highest down. */
static void h_sust(exec_warp *w, const exec_insn *in, uint32_t mask) {
    obj_cache cache = {0, NULL};
    unsigned esize = (in->aux >> AUX_SIZE_SHIFT) & 0xfu, vec = in->vec;
    for (uint32_t m = mask; m; m &= ~(1u << (31 - __builtin_clz(m)))) {
        uint32_t lane = 31u - (uint32_t)__builtin_clz(m);
        bool dead;
        const exec_texobj *t = object(w, in, lane, EXEC_SURFOBJ_MAGIC, &cache, &dead);
        if (!t) return;
        uint8_t *p = surface_at(w, in, lane, t, esize * vec);
        if (w->fault) return;
        if (!p) continue;
        for (unsigned k = 0; k < vec; k++) {
            uint64_t v = EXEC_R(w, in->d[k], lane);
            memcpy(p + k * esize, &v, esize); /* little-endian: the low bytes */
        }
    }
}

/* sured: each lane's texel takes the reduction atomically (blocks run on host threads),
 * in lane order. The texel must be aligned to the element's size. */
static void h_sured(exec_warp *w, const exec_insn *in, uint32_t mask) {
    obj_cache cache = {0, NULL};
    unsigned esize = (in->aux >> AUX_SIZE_SHIFT) & 0xfu;
    EXEC_FOR_LANES(mask, lane) {
        bool dead;
        const exec_texobj *t = object(w, in, lane, EXEC_SURFOBJ_MAGIC, &cache, &dead);
        if (!t) return;
        uint8_t *p = surface_at(w, in, lane, t, esize);
        if (w->fault) return;
        if (!p) continue;
        if ((uintptr_t)p % esize) {
            exec_fault_at(w, in, lane, EXEC_FAULT_MISALIGNED,
                          "sured: the texel's byte coordinate is not a multiple of the element size");
            return;
        }
        exec_atomic_red(p, (ptx_mod)in->type2, (ptx_type)in->type, EXEC_R(w, in->a[1], lane));
    }
}

/* istypep: is the handle a .texref, .samplerref or .surfref. Those types are the independent
 * texturing mode's module variables, which CUDA 12 no longer has (tests/ptx/isa/NOTE.md); the
 * handles a program holds are texture and surface objects, and an H200 answers false for
 * them as for any other value (tests/cuda/hopper/surf_misc.cu), so the answer is false. */
static void h_istypep(exec_warp *w, const exec_insn *in, uint32_t mask) {
    w->P[in->d[0]] &= ~mask;
}

/* ---- what an instruction touches, for an observer ---- */

/* The live object a handle names, or NULL: object()'s checks, without a fault. */
static const exec_texobj *live_object(exec_warp *w, uint64_t h, uint32_t magic) {
    const exec_launch *L = w->block->L;
    mem_alloc a;
    if (!L->mem || !mem_table_find(L->mem, h, &a) || a.base != h ||
        !(a.flags & EXEC_MEM_FLAG_OBJECT) || a.size < sizeof(exec_texobj) ||
        ((const exec_texobj *)(uintptr_t)h)->magic != magic)
        return NULL;
    const exec_texobj *t = (const exec_texobj *)(uintptr_t)h;
    return mem_table_check(L->mem, t->store_base, t->store_size, NULL) ? t : NULL;
}

/* The sectors and lines of a surface access of size bytes by lane (none when it falls
 * outside in .zero or .trap mode): surface_at's position, without its faults. */
static void surface_footprint(exec_warp *w, const exec_insn *in, uint32_t lane,
                              const exec_texobj *t, unsigned size, exec_tex_lane_footprint *f) {
    unsigned g = AUX_GEOM(in->aux);
    unsigned clamp = (in->aux >> AUX_CLAMP_SHIFT) & 3u;
    if (t->cubemap || t->dims != geom_coords[g] || t->layered != (geom_layered[g] != 0)) return;
    const exec_tex_level *lv = &t->level[0];
    unsigned first = geom_layered[g];
    const int64_t limit[3] = {(int64_t)lv->width * t->elem_size - size, (int64_t)lv->height - 1,
                              (int64_t)lv->depth - 1};
    int64_t pos[3] = {0, 0, 0};
    for (unsigned k = 0; k < geom_coords[g]; k++) {
        pos[k] = (int32_t)(uint32_t)EXEC_R(w, packed_slot(in->imm, first + k), lane);
        if (pos[k] < 0 || pos[k] > limit[k]) {
            if (clamp != CLAMP_CLAMP) return;
            pos[k] = pos[k] < 0 ? 0 : limit[k];
        }
    }
    int64_t layer = first ? (int32_t)(uint32_t)EXEC_R(w, packed_slot(in->imm, 0), lane) : 0;
    uint32_t slices = t->layered ? t->layers : 1u;
    if (layer < 0 || layer >= slices) {
        if (clamp != CLAMP_CLAMP) return;
        layer = layer < 0 ? 0 : slices - 1;
    }
    uint64_t s = g == G_3D ? (uint64_t)pos[2] : (uint64_t)layer;
    uint64_t plane = (uint64_t)(uintptr_t)(lv->base + s * lv->slice);
    uint64_t y = (uint64_t)pos[1];
    for (uint64_t xb = (uint64_t)pos[0] & ~(uint64_t)15; xb < (uint64_t)pos[0] + size &&
                                                         f->n < EXEC_TEX_FOOTPRINT_MAX; xb += 16) {
        f->sector[f->n] = plane + (y & ~1ull) * lv->pitch + xb;
        f->line[f->n] = plane + (y & ~3ull) * lv->pitch + (xb & ~(uint64_t)31);
        f->n++;
    }
}

void exec_tex_footprint_of(exec_warp *w, const exec_insn *in, uint32_t mask,
                           exec_tex_footprint *fp) {
    bool surface = in->fn == h_suld || in->fn == h_sust;
    fp->op = in->fn == h_suld ? EXEC_TEX_OP_SURFACE_LD
             : in->fn == h_sust ? EXEC_TEX_OP_SURFACE_ST : EXEC_TEX_OP_TEXTURE;
    fp->group = 4;
    fp->pass = 0;
    if (surface) fp->group = 8;
    unsigned esize = (in->aux >> AUX_SIZE_SHIFT) & 0xfu;
    for (uint32_t l = 0; l < 32; l++) fp->lane[l].n = 0;
    EXEC_FOR_LANES(mask, lane) {
        const exec_texobj *t = live_object(w, EXEC_R(w, in->a[0], lane),
                                           surface ? EXEC_SURFOBJ_MAGIC : EXEC_TEXOBJ_MAGIC);
        if (!t) continue;
        if (surface) {
            surface_footprint(w, in, lane, t, esize * in->vec, &fp->lane[lane]);
            continue;
        }
        unsigned g = AUX_GEOM(in->aux);
        bool cube = g == G_CUBE || g == G_ACUBE;
        if (cube ? !(t->cubemap && t->layered == (g == G_ACUBE))
                 : t->cubemap || t->dims != geom_coords[g] || t->layered != (geom_layered[g] != 0))
            continue;
        /* fetches from linear memory go eight lanes to a request, as surfaces do */
        if (t->res == EXEC_TEX_RES_LINEAR) fp->group = 8;
        /* trilinear filtering of a 3D array takes a request's lanes two at a time */
        if (t->dims == 3 && !t->layered && !t->cubemap && t->linear && in->fn != h_tld4)
            fp->pass = 2;
        exec_tex_lookup q;
        lookup_of(w, in, lane, &q);
        uint32_t out[4];
        exec_tex_trace = &fp->lane[lane];
        if (in->fn == h_tld4) exec_tex_gather(t, &q, (in->aux >> AUX_COMP_SHIFT) & 3u, out);
        else exec_tex_sample(t, &q, out);
        exec_tex_trace = NULL;
    }
}
