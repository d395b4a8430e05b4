/* exec/sreg.c — special registers (%tid, %ctaid, %laneid, %clock64, %globaltimer, ...):
 * mov from a special register, and the reads the decoder inserts before other
 * instructions that name one, into a scratch slot.
 */
#include "core.h"

#include <stdio.h>
#include <time.h>

/* %nwarpid: warp slots per SM of the modelled device (64 on sm_70 and later). */
#define EXEC_NWARPID 64u

static uint64_t globaltimer_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* %reserved_smem_offset_end where shared memory is reserved: 0x120 on an H200 (CUDA 13.0) */
#define EXEC_RESERVED_SMEM_USED 0x120u

/* %total_smem_size: the user's shared memory (static, then dynamic) in the device's
 * allocation units, without the reserved region (an H200 reads 0x80 for 12 bytes) */
static uint32_t user_smem(const struct exec_block *b) {
    uint32_t n = b->shared_size - b->k->info.reserved_shared;
    uint32_t unit = b->prog->opts.shared_alloc_unit ? b->prog->opts.shared_alloc_unit : 1u;
    return (n + unit - 1) / unit * unit;
}

/* Blocks per cluster along dimension i (1 without a cluster launch). */
static inline uint32_t cdim(const exec_launch *L, int i) {
    uint32_t v = i == 0 ? L->cluster_dim.x : i == 1 ? L->cluster_dim.y : L->cluster_dim.z;
    return v ? v : 1u;
}

/* A value that is the same for every lane of the warp. */
static uint64_t uniform_value(exec_wstate *w, uint32_t sreg) {
    struct exec_block *b = w->h.block;
    const exec_launch *L = b->L;
    switch (sreg) {
    case PTX_SREG_NTID_X: return b->ntid.x;
    case PTX_SREG_NTID_Y: return b->ntid.y;
    case PTX_SREG_NTID_Z: return b->ntid.z;
    case PTX_SREG_CTAID_X: return b->ctaid.x;
    case PTX_SREG_CTAID_Y: return b->ctaid.y;
    case PTX_SREG_CTAID_Z: return b->ctaid.z;
    case PTX_SREG_NCTAID_X: return L->grid.x;
    case PTX_SREG_NCTAID_Y: return L->grid.y;
    case PTX_SREG_NCTAID_Z: return L->grid.z;
    case PTX_SREG_WARPID: return w->h.warp_in_block;
    case PTX_SREG_NWARPID: return EXEC_NWARPID;
    case PTX_SREG_SMID: return b->smid;
    case PTX_SREG_NSMID: return L->num_sms;
    case PTX_SREG_GRIDID: return L->grid_id;
    case PTX_SREG_CURRENT_GRAPH_EXEC: return L->graph_exec;
    case PTX_SREG_CLOCK: return (uint32_t)w->clock;
    case PTX_SREG_CLOCK_HI: return (uint32_t)(w->clock >> 32);
    case PTX_SREG_CLOCK64: return w->clock;
    case PTX_SREG_GLOBALTIMER: return globaltimer_ns();
    case PTX_SREG_GLOBALTIMER_LO: return (uint32_t)globaltimer_ns();
    case PTX_SREG_GLOBALTIMER_HI: return globaltimer_ns() >> 32;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return L->dyn_shared;
    case PTX_SREG_TOTAL_SMEM_SIZE: return user_smem(b);
    /* clusters: without a cluster launch every block is a cluster of one */
    case PTX_SREG_CLUSTERID_X: return b->ctaid.x / cdim(L, 0);
    case PTX_SREG_CLUSTERID_Y: return b->ctaid.y / cdim(L, 1);
    case PTX_SREG_CLUSTERID_Z: return b->ctaid.z / cdim(L, 2);
    case PTX_SREG_NCLUSTERID_X: return L->grid.x / cdim(L, 0);
    case PTX_SREG_NCLUSTERID_Y: return L->grid.y / cdim(L, 1);
    case PTX_SREG_NCLUSTERID_Z: return L->grid.z / cdim(L, 2);
    case PTX_SREG_CLUSTER_CTAID_X: return b->ctaid.x % cdim(L, 0);
    case PTX_SREG_CLUSTER_CTAID_Y: return b->ctaid.y % cdim(L, 1);
    case PTX_SREG_CLUSTER_CTAID_Z: return b->ctaid.z % cdim(L, 2);
    case PTX_SREG_CLUSTER_NCTAID_X: return cdim(L, 0);
    case PTX_SREG_CLUSTER_NCTAID_Y: return cdim(L, 1);
    case PTX_SREG_CLUSTER_NCTAID_Z: return cdim(L, 2);
    case PTX_SREG_CLUSTER_CTARANK: return b->cl_rank;
    case PTX_SREG_CLUSTER_NCTARANK: return cdim(L, 0) * cdim(L, 1) * cdim(L, 2);
    case PTX_SREG_IS_EXPLICIT_CLUSTER: return L->explicit_cluster;
    case PTX_SREG_AGGR_SMEM_SIZE: return user_smem(b) + b->k->info.reserved_shared;
    /* the reserved region as a GPU with one reads it: the whole window's first bytes (cap),
     * of which the system uses the first EXEC_RESERVED_SMEM_USED; cooperative groups'
     * tile barriers at offset 0 (the words are zero when a block starts) */
    case PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN: return 0;
    case PTX_SREG_RESERVED_SMEM_OFFSET_END:
        return b->k->info.reserved_shared ? EXEC_RESERVED_SMEM_USED : 0;
    case PTX_SREG_RESERVED_SMEM_OFFSET_CAP: return b->k->info.reserved_shared;
    case PTX_SREG_RESERVED_SMEM_OFFSET_0: return 0;
    case PTX_SREG_RESERVED_SMEM_OFFSET_1: return 0;
    /* the grid workspace of a cooperative launch, high word in %envreg1 and low word in
     * %envreg2 (as cooperative groups read it): 0 in other launches, which makes
     * this_grid().is_valid() false and this_grid().sync() trap, as on a GPU */
    case PTX_SREG_ENVREG0 + 1: return (uint32_t)(L->grid_workspace >> 32);
    case PTX_SREG_ENVREG0 + 2: return (uint32_t)L->grid_workspace;
    default: return 0; /* other %envregN */
    }
}

static uint64_t lane_value(exec_wstate *w, uint32_t sreg, uint32_t lane) {
    struct exec_block *b = w->h.block;
    switch (sreg) {
    case PTX_SREG_TID_X: case PTX_SREG_TID_Y: case PTX_SREG_TID_Z: {
        exec_dim3 t = exec_thread_of(b, w->h.warp_in_block, lane);
        return sreg == PTX_SREG_TID_X ? t.x : sreg == PTX_SREG_TID_Y ? t.y : t.z;
    }
    case PTX_SREG_LANEID: return lane;
    case PTX_SREG_LANEMASK_EQ: return 1u << lane;
    case PTX_SREG_LANEMASK_LE: return (uint32_t)((2ull << lane) - 1);
    case PTX_SREG_LANEMASK_LT: return (1u << lane) - 1;
    case PTX_SREG_LANEMASK_GE: return ~((1u << lane) - 1);
    case PTX_SREG_LANEMASK_GT: return ~(uint32_t)((2ull << lane) - 1);
    default: return uniform_value(w, sreg);
    }
}

/* %tid.x/y/z of the lanes in mask (what exec_thread_of gives each): the first lane's by
 * division, the others by counting on from it (a division per lane cost more than the
 * rest of a small kernel's warp). */
static void tid_lanes(const exec_wstate *w, uint32_t sreg, uint32_t mask, uint64_t *d) {
    const struct exec_block *b = w->h.block;
    uint32_t nx = b->ntid.x, ny = b->ntid.y;
    uint32_t t = w->h.warp_in_block * EXEC_WARP_SIZE;
    uint32_t x = t % nx, y = (t / nx) % ny, z = t / (nx * ny);
    for (uint32_t lane = 0; lane < EXEC_WARP_SIZE; lane++) {
        if ((mask >> lane) & 1u)
            d[lane] = sreg == PTX_SREG_TID_X ? x : sreg == PTX_SREG_TID_Y ? y : z;
        if (++x == nx) {
            x = 0;
            if (++y == ny) {
                y = 0;
                z++;
            }
        }
    }
}

void exec_h_sreg(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    if (in->flags & EXEC_F_PSEUDO) w->clock--; /* part of the instruction that follows */
    uint32_t sreg = (uint32_t)in->target;
    uint64_t *d = &EXEC_R(hw, in->d[0], 0);
    switch (sreg) {
    case PTX_SREG_TID_X:
        if (hw->block->ntid.y == 1 && hw->block->ntid.z == 1) {
            /* the common 1-D block: tid.x is the thread index */
            uint32_t base = hw->warp_in_block * EXEC_WARP_SIZE;
            EXEC_EACH_LANE(mask, lane, d[lane] = base + lane);
            return;
        }
        /* fall through */
    case PTX_SREG_TID_Y: case PTX_SREG_TID_Z:
        tid_lanes(w, sreg, mask, d);
        return;
    case PTX_SREG_LANEID:
    case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LE: case PTX_SREG_LANEMASK_LT:
    case PTX_SREG_LANEMASK_GE: case PTX_SREG_LANEMASK_GT:
        EXEC_EACH_LANE(mask, lane, d[lane] = lane_value(w, sreg, lane));
        return;
    default:
        exec_broadcast(d, mask, uniform_value(w, sreg));
        return;
    }
}

/* mov.pred p, %is_explicit_cluster: the predicate special register. */
static void h_sreg_pred(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    uint32_t v = uniform_value(exec_ws(hw), (uint32_t)in->target) ? mask : 0;
    hw->P[in->d[0]] = (hw->P[in->d[0]] & ~mask) | v;
}

/* mov of a special register reads it straight into the destination. 1 when pi is one. */
int exec_decode_sreg_mov(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (pi->op == PTX_OP_mov && pi->nopnds == 2 && pi->opnd[1].kind == PTX_OPND_SREG &&
        pi->ntypes && pi->types[0] == PTX_T_pred) {
        if (pi->opnd[1].sreg != PTX_SREG_IS_EXPLICIT_CLUSTER)
            return exec_dec_error(d, pi, "mov.pred of a special register that is no predicate"), -1;
        out->nd = 1;
        out->target = pi->opnd[1].sreg;
        out->flags |= EXEC_F_D_PRED;
        if (!exec_dec_pred(d, pi, &pi->opnd[0], &out->d[0], NULL)) return -1;
        out->fn = h_sreg_pred;
        return 1;
    }
    if (pi->op != PTX_OP_mov || pi->nopnds != 2 || pi->opnd[1].kind != PTX_OPND_SREG ||
        pi->opnd[0].kind != PTX_OPND_REG || !pi->ntypes || ptx_type_sizes[pi->types[0]] < 4)
        return 0;
    out->nd = 1;
    out->target = pi->opnd[1].sreg;
    if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0])) return -1;
    out->fn = exec_h_sreg;
    return 1;
}
