/* exec/bulk.c — Hopper's bulk asynchronous copies as vcuda runs them:
 *
 *   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d], [s], n, [mbar]
 *       {, ctaMask}{, policy}                          global -> shared, completes on mbar
 *   cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [d], [s], n, [mbar]
 *   cp.async.bulk.global.shared::cta.bulk_group [d], [s], n {, policy}   shared -> global
 *   cp.reduce.async.bulk.<dst>.<src>.<completion>.op.type [d], [s], n {, [mbar]}
 *   cp.async.bulk.prefetch.L2.global [s], n        (a hint: nothing to do)
 *   cp.async.bulk.commit_group, cp.async.bulk.wait_group{.read} N
 *   cp.async.bulk.tensor... (exec/bulk_tensor.c)
 *
 * The copy is made when the instruction executes, so bulk groups are complete as soon as
 * they are committed (commit_group / wait_group have nothing to wait for) and an mbarrier
 * sees its transaction bytes complete at once: the transaction count may go negative
 * until the arrive that expects the bytes (exec/mbarrier.c keeps it signed). Every lane
 * that executes the instruction makes its own copy, as on the hardware.
 *
 * shared::cluster addresses reach any block of the cluster (exec/cluster.c); a multicast
 * copy (.multicast::cluster, ctaMask) writes the same offset of every block whose rank's
 * bit is set, and completes the bytes on the mbarrier at the same offset in each. A
 * shared::cta -> shared::cluster copy is an illegal instruction in a kernel launched
 * without a cluster, as on the H200.
 *
 * Addresses and sizes must be multiples of 16 (the PTX ISA's rule): others fault as
 * misaligned, as they do on the H100.
 */
#include "core.h"
#include "bulk_internal.h"

#define BULK_MBAR      (EXEC_F_HANDLER << 8)  /* completes on an mbarrier */
#define BULK_MULTICAST (EXEC_F_HANDLER << 9)  /* a ctaMask operand follows */

/* The operands of a bulk copy (more than exec_insn holds). */
typedef struct {
    uint32_t dst, src, size, mbar, ctamask;   /* slots */
    int64_t dst_off, src_off, mbar_off;
    uint8_t dst_sp, src_sp;                   /* ptx_space */
    uint8_t red_op, red_type;                 /* cp.reduce: enum bulk_red, ptx_type */
} bulk_desc;

/* One element of a reduction: *d = *d op s, for the element types the PTX ISA lists
 * (exec/bulk_internal.h). */
void exec_bulk_reduce_elem(uint8_t *d, const uint8_t *s, unsigned op, ptx_type t) {
    switch (t) {
    case PTX_T_u32: case PTX_T_b32: case PTX_T_s32: {
        uint32_t a, b; memcpy(&a, d, 4); memcpy(&b, s, 4);
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        bool sg = t == PTX_T_s32;
        switch (op) {
        case BR_ADD: a += b; break;
        case BR_MIN: a = sg ? (uint32_t)(sa < sb ? sa : sb) : (a < b ? a : b); break;
        case BR_MAX: a = sg ? (uint32_t)(sa > sb ? sa : sb) : (a > b ? a : b); break;
        case BR_INC: a = a >= b ? 0 : a + 1; break;
        case BR_DEC: a = (a == 0 || a > b) ? b : a - 1; break;
        case BR_AND: a &= b; break;
        case BR_OR: a |= b; break;
        case BR_XOR: a ^= b; break;
        default: break;
        }
        memcpy(d, &a, 4);
        return;
    }
    case PTX_T_u64: case PTX_T_b64: case PTX_T_s64: {
        uint64_t a, b; memcpy(&a, d, 8); memcpy(&b, s, 8);
        int64_t sa = (int64_t)a, sb = (int64_t)b;
        bool sg = t == PTX_T_s64;
        switch (op) {
        case BR_ADD: a += b; break;
        case BR_MIN: a = sg ? (uint64_t)(sa < sb ? sa : sb) : (a < b ? a : b); break;
        case BR_MAX: a = sg ? (uint64_t)(sa > sb ? sa : sb) : (a > b ? a : b); break;
        case BR_AND: a &= b; break;
        case BR_OR: a |= b; break;
        case BR_XOR: a ^= b; break;
        default: break;
        }
        memcpy(d, &a, 8);
        return;
    }
    case PTX_T_f32: { /* .add only; no flush of subnormals */
        float a, b; memcpy(&a, d, 4); memcpy(&b, s, 4);
        a += b;
        memcpy(d, &a, 4);
        return;
    }
    case PTX_T_f64: {
        double a, b; memcpy(&a, d, 8); memcpy(&b, s, 8);
        a += b;
        memcpy(d, &a, 8);
        return;
    }
    default: return;
    }
}

/* Copy (or reduce) n bytes for one lane, 16 bytes at a time so that every chunk is checked
 * against the memory it lies in. false when the lane faulted. */
static bool bulk_move(exec_wstate *w, const exec_insn *in, uint32_t lane, const bulk_desc *b,
                      uint64_t dst, uint64_t src, uint64_t n) {
    if ((dst | src | n) & 15) {
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_MISALIGNED,
                      "cp.async.bulk: addresses and size must be multiples of 16");
        return false;
    }
    unsigned esz = b->red_op ? ptx_type_sizes[b->red_type] : 16;
    for (uint64_t o = 0; o < n; o += 16) {
        const uint8_t *s = exec_mem_addr(w, in, lane, (ptx_space)b->src_sp, src + o, 16,
                                         EXEC_ACC_READ);
        if (!s) return false;
        uint8_t *d = exec_mem_addr(w, in, lane, (ptx_space)b->dst_sp, dst + o, 16,
                                   b->red_op ? EXEC_ACC_ATOMIC : EXEC_ACC_WRITE);
        if (!d) return false;
        if (!b->red_op) {
            memmove(d, s, 16);
            continue;
        }
        for (unsigned e = 0; e < 16; e += esz) exec_bulk_reduce_elem(d + e, s + e, b->red_op,
                                                                (ptx_type)b->red_type);
    }
    return true;
}

/* One copy, and its bytes completed on the mbarrier at shared address mbar (0: none).
 * false when the lane faulted. */
static bool bulk_copy_to(exec_wstate *w, const exec_insn *in, uint32_t lane, const bulk_desc *b,
                         uint64_t dst, uint64_t src, uint64_t n, uint64_t mbar) {
    if (!bulk_move(w, in, lane, b, dst, src, n)) return false;
    if (!(in->flags & BULK_MBAR)) return true;
    uint64_t *obj = exec_mem_addr(w, in, lane, PTX_SPACE_SHARED, mbar, 8, EXEC_ACC_ATOMIC);
    if (!obj) return false;
    exec_mbarrier_complete_tx(obj, n);
    return true;
}

static void h_bulk(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const bulk_desc *b = (const bulk_desc *)(uintptr_t)in->imm;
    if (b->dst_sp == PTX_SPACE_SHARED && b->src_sp == PTX_SPACE_SHARED &&
        !hw->block->L->explicit_cluster) {
        /* the H200 refuses a shared::cta -> shared::cluster copy in a kernel not launched as
         * a cluster (tests/cuda/conformance/bulk_copy) */
        exec_fault_at(hw, in, (uint32_t)__builtin_ctz(mask), EXEC_FAULT_ILLEGAL_INSTRUCTION,
                      "cp.async.bulk shared::cta -> shared::cluster needs a kernel launched "
                      "as a cluster");
        return;
    }
    EXEC_FOR_LANES(mask, lane) {
        uint64_t dst = EXEC_R(hw, b->dst, lane) + (uint64_t)b->dst_off;
        uint64_t src = EXEC_R(hw, b->src, lane) + (uint64_t)b->src_off;
        uint64_t n = (uint32_t)EXEC_R(hw, b->size, lane);
        uint64_t mbar = (in->flags & BULK_MBAR) ? EXEC_R(hw, b->mbar, lane) + (uint64_t)b->mbar_off : 0;
        if (!(in->flags & BULK_MULTICAST)) {
            if (!bulk_copy_to(w, in, lane, b, dst, src, n, mbar)) return;
            continue;
        }
        /* a multicast copy reaches the blocks of ctaMask, at the same offsets in each */
        uint32_t ranks = (uint32_t)EXEC_R(hw, b->ctamask, lane) & 0xffffu;
        uint64_t keep = (1ull << EXEC_DSMEM_SHIFT) - 1;
        for (; ranks; ranks &= ranks - 1) {
            uint64_t r = (uint64_t)__builtin_ctz(ranks) + 1;
            if (!bulk_copy_to(w, in, lane, b, (dst & keep) | r << EXEC_DSMEM_SHIFT, src, n,
                              (mbar & keep) | r << EXEC_DSMEM_SHIFT))
                return;
        }
    }
}

/* [reg+imm] / [sym+imm] into a slot and an offset. */
static bool bulk_addr(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, ptx_space sp,
                      uint32_t *slot, int64_t *off) {
    exec_insn t;
    memset(&t, 0, sizeof t);
    if (!exec_dec_address(d, pi, o, sp, &t)) return false;
    *slot = t.a[0];
    *off = t.imm;
    return true;
}

unsigned exec_bulk_red_op(const ptx_insn *pi) {
    static const struct { ptx_mod mod; unsigned op; } ops[] = {
        { PTX_MOD_add, BR_ADD }, { PTX_MOD_min, BR_MIN }, { PTX_MOD_max, BR_MAX },
        { PTX_MOD_inc, BR_INC }, { PTX_MOD_dec, BR_DEC }, { PTX_MOD_and_, BR_AND },
        { PTX_MOD_or_, BR_OR },  { PTX_MOD_xor_, BR_XOR },
    };
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ptx_insn_has_mod(pi, ops[i].mod)) return ops[i].op;
    return BR_NONE;
}

/* The reduction's operation and type, checked against the combinations the PTX ISA has
 * (f16/bf16 reductions are refused by name). */
static bool bulk_red_decode(exec_decoder *d, const ptx_insn *pi, bulk_desc *b) {
    b->red_op = (uint8_t)exec_bulk_red_op(pi);
    ptx_type t = pi->ntypes ? (ptx_type)pi->types[0] : PTX_T_NONE;
    b->red_type = (uint8_t)t;
    bool ok;
    switch (b->red_op) {
    case BR_ADD: ok = t == PTX_T_u32 || t == PTX_T_s32 || t == PTX_T_u64 || t == PTX_T_f32 ||
                      t == PTX_T_f64; break;
    case BR_MIN: case BR_MAX: ok = t == PTX_T_u32 || t == PTX_T_s32 || t == PTX_T_u64 ||
                                   t == PTX_T_s64; break;
    case BR_INC: case BR_DEC: ok = t == PTX_T_u32; break;
    case BR_AND: case BR_OR: case BR_XOR: ok = t == PTX_T_b32 || t == PTX_T_b64; break;
    default: ok = false; break;
    }
    if (!ok)
        return exec_dec_error(d, pi, "cp.reduce.async.bulk: unsupported operation or type "
                                     "(f16/bf16 reductions are not supported)"), false;
    return true;
}

/* cp.async.bulk.tensor and cp.reduce.async.bulk.tensor (exec/bulk_tensor.c). */
int exec_decode_bulk_tensor(exec_decoder *d, const ptx_insn *pi, exec_insn *out);

int exec_decode_bulk(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (ptx_insn_has_mod(pi, PTX_MOD_commit_group) || ptx_insn_has_mod(pi, PTX_MOD_wait_group) ||
        ptx_insn_has_mod(pi, PTX_MOD_prefetch_)) {
        out->fn = exec_h_nop; /* copies are complete when made; a prefetch is a hint */
        return 1;
    }
    if (ptx_insn_has_mod(pi, PTX_MOD_tensor)) return exec_decode_bulk_tensor(d, pi, out);
    bool reduce = ptx_insn_has_mod(pi, PTX_MOD_reduce);
    /* the two state spaces in order: destination, then source */
    ptx_space sp[2];
    unsigned nsp = 0;
    for (unsigned i = 0; i < pi->nmods && nsp < 2; i++) {
        switch (pi->mods[i]) {
        case PTX_MOD_global: sp[nsp++] = PTX_SPACE_GLOBAL; break;
        case PTX_MOD_shared: case PTX_MOD_shared_cta: case PTX_MOD_shared_cluster:
            sp[nsp++] = PTX_SPACE_SHARED; break;
        default: break;
        }
    }
    if (nsp != 2 || (sp[0] == PTX_SPACE_GLOBAL && sp[1] == PTX_SPACE_GLOBAL))
        return exec_dec_error(d, pi, "cp.async.bulk needs a destination and a source space "
                                     "(shared::cluster.global, shared::cluster.shared::cta, "
                                     "global.shared::cta)"), -1;
    bulk_desc *b = exec_dec_blob(d, sizeof *b);
    b->dst_sp = (uint8_t)sp[0];
    b->src_sp = (uint8_t)sp[1];
    bool mbar = ptx_insn_has_mod(pi, PTX_MOD_complete_tx_bytes);
    if (sp[0] == PTX_SPACE_SHARED && !mbar)
        return exec_dec_error(d, pi, "cp.async.bulk into shared memory completes on an "
                                     "mbarrier (.mbarrier::complete_tx::bytes)"), -1;
    if (sp[0] == PTX_SPACE_GLOBAL && !ptx_insn_has_mod(pi, PTX_MOD_bulk_group))
        return exec_dec_error(d, pi, "cp.async.bulk into global memory completes in a bulk "
                                     "group (.bulk_group)"), -1;
    if (reduce && !bulk_red_decode(d, pi, b)) return -1;
    unsigned need = mbar ? 4u : 3u;
    if (pi->nopnds < need)
        return exec_dec_error(d, pi, "cp.async.bulk takes [dst], [src], size%s",
                              mbar ? ", [mbar]" : ""), -1;
    if (!bulk_addr(d, pi, &pi->opnd[0], sp[0], &b->dst, &b->dst_off) ||
        !bulk_addr(d, pi, &pi->opnd[1], sp[1], &b->src, &b->src_off) ||
        !exec_dec_src(d, pi, &pi->opnd[2], PTX_T_u32, &b->size))
        return -1;
    if (mbar) {
        if (!bulk_addr(d, pi, &pi->opnd[3], PTX_SPACE_SHARED, &b->mbar, &b->mbar_off)) return -1;
        out->flags |= BULK_MBAR;
    }
    if (ptx_insn_has_mod(pi, PTX_MOD_multicast_cluster)) {
        if (pi->nopnds <= need || !exec_dec_src(d, pi, &pi->opnd[need], PTX_T_u16, &b->ctamask))
            return exec_dec_error(d, pi, "multicast copy without its ctaMask"), -1;
        out->flags |= BULK_MULTICAST;
    }
    /* a further operand is the L2 cache policy (.L2::cache_hint): no effect */
    out->imm = (int64_t)(uintptr_t)b;
    out->space = (uint8_t)sp[0];
    out->fn = h_bulk;
    return 1;
}
