/* exec/cluster.c — thread block clusters as vcuda runs them: every block is a cluster of
 * one (launches with larger clusters are refused), so mapa maps a shared address to the
 * block's own shared memory when the target rank is 0, and getctarank answers 0.
 * (barrier.cluster is a block-wide barrier, in exec/block.c; the %cluster_* special
 * registers are in exec/sreg.c.)
 *
 *   mapa{.shared::cluster}.type d, a, rank   d = a for rank 0; any other rank faults
 *   getctarank{.shared::cluster}.type d, a   d = 0
 */
#include "core.h"

static void h_mapa(exec_warp *w, const exec_insn *in, uint32_t mask) {
    EXEC_FOR_LANES(mask, lane) {
        uint32_t rank = (uint32_t)EXEC_R(w, in->a[1], lane);
        if (rank != 0) {
            exec_fault_at(w, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS,
                          "mapa: the cluster has one block (rank 0), no other rank");
            return;
        }
        EXEC_R(w, in->d[0], lane) = EXEC_R(w, in->a[0], lane);
    }
}

static void h_getctarank(exec_warp *w, const exec_insn *in, uint32_t mask) {
    exec_broadcast(&EXEC_R(w, in->d[0], 0), mask, 0);
}

int exec_decode_cluster(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (pi->op != PTX_OP_mapa && pi->op != PTX_OP_getctarank) return 0;
    bool mapa = pi->op == PTX_OP_mapa;
    ptx_type t = pi->ntypes ? (ptx_type)pi->types[0] : PTX_T_NONE;
    if (t != PTX_T_u32 && t != PTX_T_u64)
        return exec_dec_error(d, pi, "%s needs .u32 or .u64", ptx_opcode_names[pi->op]), -1;
    if (pi->nopnds != (mapa ? 3u : 2u))
        return exec_dec_error(d, pi, "%s takes %u operands", ptx_opcode_names[pi->op],
                              mapa ? 3u : 2u), -1;
    out->type = (uint8_t)t;
    if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0]) ||
        !exec_dec_src(d, pi, &pi->opnd[1], t, &out->a[0]))
        return -1;
    out->nd = 1;
    out->na = 1;
    if (mapa) {
        if (!exec_dec_src(d, pi, &pi->opnd[2], PTX_T_u32, &out->a[1])) return -1;
        out->na = 2;
    }
    out->fn = mapa ? h_mapa : h_getctarank;
    return 1;
}
