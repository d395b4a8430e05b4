/* exec/bulk_tensor.c — the tensor memory accelerator's tiled copies:
 *
 *   cp.async.bulk.tensor.Nd.shared::cluster.global{.tile}.mbarrier::complete_tx::bytes
 *       {.multicast::cluster} [dst], [tmap, {c0, ..}], [mbar] {, ctaMask}{, policy}
 *   cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group [tmap, {c0, ..}], [src]
 *   cp.reduce.async.bulk.tensor.Nd.global.shared::cta.op{.tile}.bulk_group [tmap, {..}], [src]
 *
 * The tensor map (exec/tensormap.h, made by cuTensorMapEncodeTiled) describes a tensor of
 * up to 5 dimensions in global memory and the box a copy moves. The box lies densely in
 * shared memory, dimension 0 innermost; with ceil(box[i] / elementStrides[i]) elements along
 * dimension i > 0. Elements outside the tensor (coordinates may be negative) are read as
 * zero, or as a NaN for float types with CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
 * and are not written by a store. With a swizzle mode the 16-byte chunks of shared memory
 * are permuted as the hardware does, by the bits of the shared address: chunk bits [4, 4+k)
 * are XORed with bits [7, 7+k) (k = 1, 2, 3 for 32B, 64B, 128B), and each row of the box
 * starts a new span of the swizzle (32, 64 or 128 bytes), however narrow the box.
 *
 * What the hardware refuses (measured on an H200, tests/cuda/hopper/tma_rules.cu): a box
 * whose innermost coordinate is not a multiple of 16 bytes (coordinate x element size;
 * negative ones too: x = -4 of f32 passes, x = -1 does not), with or without a swizzle, is
 * an illegal instruction; a shared-memory address that is not 128-byte aligned is a
 * misaligned address (with a swizzle too: the pattern follows the address bits, so a
 * swizzled box need not start on its 1024-byte pattern boundary).
 *
 * A tensor reduction is a store that combines each in-bounds element of the box with the
 * global one (op .add, .min, .max, .inc, .dec, .and, .or, .xor; the element type is the
 * map's: 32- and 64-bit integers, f32 and f64 add); f16/bf16 elements fault naming them.
 *
 * Im2col loads (.im2col, a map made by cuTensorMapEncodeIm2col; dimension 0 the channels,
 * 1..rank-2 the spatial ones W, H, D, rank-1 the images N) move pixelsPerColumn pixels of
 * channelsPerPixel elements each, pixel after pixel in shared memory. The coordinates name
 * the first pixel: its channel, its position in the bounding box (per spatial dimension
 * [lower, globalDim - 1 + upper]) and its image. Pixels follow in the box W first, then H,
 * then D, stepping by the traversal stride and going back to the box's lower corner past
 * its upper one, then to the next image; each pixel is read at its position plus the
 * instruction's im2col offsets (16-bit, one per spatial dimension: a filter tap), elements
 * outside the tensor reading as a tiled load's do. The H200 gave those pixels for every
 * load of tests/cuda/hopper/im2col.cu; a first pixel outside the bounding box is an
 * illegal instruction there.
 *
 * Like the other bulk copies (exec/bulk.c) the copy is made when the instruction executes.
 */
#include "core.h"
#include "bulk_internal.h"
#include "tensormap.h"

#include <stdio.h>

#define BT_MBAR      (EXEC_F_HANDLER << 8)
#define BT_MULTICAST (EXEC_F_HANDLER << 9)
#define BT_STORE     (EXEC_F_HANDLER << 10)  /* shared -> global */
#define BT_IM2COL    (EXEC_F_HANDLER << 11)

typedef struct {
    uint32_t smem, tmap, mbar, ctamask;       /* slots */
    int64_t smem_off, tmap_off, mbar_off;
    uint32_t coord[EXEC_TMAP_MAX_RANK];       /* slots of the s32 coordinates */
    uint32_t ioff[EXEC_TMAP_MAX_RANK - 2];    /* slots of the u16 im2col offsets */
    unsigned rank;
    unsigned red_op;                          /* a reduction (enum bulk_red), or BR_NONE */
} bt_desc;

/* The element type a reduction through map t works on (its op decides b32 over u32),
 * or PTX_T_NONE for one vcuda does not reduce. CUtensorMapDataType: 2 UINT32, 3 INT32,
 * 4 UINT64, 5 INT64, 7 FLOAT32, 8 FLOAT64, 10 FLOAT32_FTZ. */
static ptx_type bt_red_type(const exec_tmap *t, unsigned op) {
    bool bits = op == BR_AND || op == BR_OR || op == BR_XOR;
    switch (t->dtype) {
    case 2: return bits ? PTX_T_b32 : PTX_T_u32;
    case 3: return bits ? PTX_T_b32 : PTX_T_s32;
    case 4: return bits ? PTX_T_b64 : PTX_T_u64;
    case 5: return bits ? PTX_T_b64 : PTX_T_s64;
    case 7: case 10: return op == BR_ADD ? PTX_T_f32 : PTX_T_NONE;
    case 8: return op == BR_ADD ? PTX_T_f64 : PTX_T_NONE;
    default: return PTX_T_NONE;
    }
}

/* Copies the tensor map at generic (or kernel parameter) address a into *t; false after a
 * fault. (The map is read bytewise: vcuda's copy of a kernel's parameters is not 64-byte
 * aligned on the host, though the parameter's offset in it is.) */
static bool bt_tmap(exec_wstate *w, const exec_insn *in, uint32_t lane, uint64_t a,
                    exec_tmap *t) {
    ptx_space sp = a >= EXEC_KPARAM_BASE && a - EXEC_KPARAM_BASE < w->h.block->k->info.param_size
                       ? PTX_SPACE_PARAM : PTX_SPACE_GENERIC;
    const uint8_t *p = exec_mem_addr(w, in, lane, sp, a, 1, EXEC_ACC_READ);
    if (!p || !exec_mem_addr(w, in, lane, sp, a + sizeof *t - 1, 1, EXEC_ACC_READ)) return false;
    memcpy(t, p, sizeof *t);
    uint64_t pb = (uint64_t)(uintptr_t)w->h.block->L->params, psize = w->h.block->k->info.param_size;
    uint64_t rel = sp == PTX_SPACE_PARAM ? a - EXEC_KPARAM_BASE
                   : pb && a >= pb && a - pb < psize ? a - pb : a; /* params: by offset */
    if (rel & 63) {
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_MISALIGNED,
                      "cp.async.bulk.tensor: a tensor map is 64-byte aligned");
        return false;
    }
    if (t->magic != EXEC_TMAP_MAGIC) {
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS,
                      "cp.async.bulk.tensor: the operand is no tensor map made by "
                      "cuTensorMapEncodeTiled");
        return false;
    }
    /* what tensormap.replace can make that the encoder refuses: an H200 stops the copy
     * (tests/cuda/hopper/tensormap_enum.cu) */
    bool integer = t->dtype <= 5; /* CUtensorMapDataType: UINT8 .. INT64 */
    if ((t->oob_nan && integer) || (t->interleave != 0 && t->rank < 3)) {
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                      t->oob_nan && integer
                          ? "cp.async.bulk.tensor: the NaN fill with an integer element type"
                          : "cp.async.bulk.tensor: an interleaved layout below rank 3");
        return false;
    }
    if (t->interleave != 0 || t->swizzle > 3) {
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS,
                      "cp.async.bulk.tensor: interleaved layouts and the 128B_ATOM swizzle "
                      "modes are not supported");
        return false;
    }
    return true;
}

/* Shared byte address of the 16-byte chunk at a under the map's swizzle. */
static inline uint64_t bt_swizzle(uint64_t a, unsigned swizzle) {
    if (!swizzle) return a;
    uint64_t k = (1u << swizzle) - 1; /* 1, 3 or 7 */
    return a ^ (((a >> 7) & k) << 4);
}

/* The value an out-of-bounds element reads as: zero, or with the NaN fill the half-word
 * 0x7ff7 repeated (an f32 element reads 0x7ff77ff7 on the H200: tests/cuda/conformance/
 * bulk_copy; f16/bf16 and f64 elements get the same bytes, NaNs in their formats too). */
static void bt_fill(uint8_t *p, const exec_tmap *t) {
    for (unsigned i = 0; i < t->elem_size; i += 2) {
        p[i] = t->oob_nan ? 0xf7 : 0;
        p[i + 1] = t->oob_nan ? 0x7f : 0;
    }
}

/* A load through a tf32 map (CUtensorMapDataType TFLOAT32, TFLOAT32_FTZ) rounds each f32
 * element to tf32: its low 13 bits to nearest (0x33323130 arrives as 0x33324000 on an H200:
 * tests/cuda/hopper/tensormap_enum.cu), ties away from zero as cvt.rna.tf32.f32 rounds;
 * infinities and NaNs are kept. */
static void bt_tf32(uint8_t *p, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        uint32_t v;
        memcpy(&v, p + 4 * i, 4);
        if ((v & 0x7f800000u) != 0x7f800000u) v = (v + 0x1000u) & ~0x1fffu;
        memcpy(p + 4 * i, &v, 4);
    }
}

static bool bt_copy(exec_wstate *w, const exec_insn *in, uint32_t lane, const exec_tmap *t,
                    const int32_t *c, uint64_t smem, bool store, unsigned red, uint64_t *bytes) {
    unsigned r = t->rank, es = t->elem_size;
    ptx_type rt = red ? bt_red_type(t, red) : PTX_T_NONE;
    if (red && rt == PTX_T_NONE) {
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                      "cp.reduce.async.bulk.tensor: this operation on the tensor map's element "
                      "type is not supported (integers, f32/f64 add are)");
        return false;
    }
    uint32_t n[EXEC_TMAP_MAX_RANK] = { 1, 1, 1, 1, 1 };
    uint64_t rows = 1;
    for (unsigned i = 0; i < r; i++) {
        n[i] = i == 0 ? t->box[0] : (t->box[i] + t->estride[i] - 1) / t->estride[i];
        if (i) rows *= n[i];
    }
    uint64_t row_bytes = (uint64_t)n[0] * es;
    /* with a swizzle each row takes the swizzle's whole span in shared memory (a box row
     * narrower than it leaves the rest of the span as it was); the transaction count is
     * the box's bytes all the same */
    uint64_t pitch = t->swizzle ? 16u << t->swizzle : row_bytes;
    *bytes = row_bytes * rows;
    /* the two rules the H200 enforces (tests/cuda/hopper/tma_rules.cu), with any swizzle
     * or none, for loads and stores alike */
    if (smem & 127) {
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_MISALIGNED,
                      "cp.async.bulk.tensor: the shared memory address must be 128-byte aligned");
        return false;
    }
    if (((int64_t)c[0] * es) & 15) {
        char msg[160];
        snprintf(msg, sizeof msg, "cp.async.bulk.tensor: the box starts %lld bytes into the "
                 "innermost dimension (coordinate %d); it must start on a multiple of 16 bytes",
                 (long long)c[0] * es, (int)c[0]);
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION, msg);
        return false;
    }
    /* the whole box must lie in the block's shared memory */
    uint8_t *sbase = exec_mem_addr(w, in, lane, PTX_SPACE_SHARED, smem, 16,
                                   store ? EXEC_ACC_READ : EXEC_ACC_WRITE);
    uint64_t end = smem + pitch * (rows - 1) + row_bytes; /* past the last byte written */
    if (!sbase || !exec_mem_addr(w, in, lane, PTX_SPACE_SHARED, end - 16, 16,
                                 store ? EXEC_ACC_READ : EXEC_ACC_WRITE))
        return false;
    sbase -= smem; /* host address of shared offset 0 */
    uint8_t row[256 * 8];
    for (uint64_t ri = 0; ri < rows; ri++) {
        /* coordinates of this row's first element */
        int64_t g[EXEC_TMAP_MAX_RANK] = { c[0], 0, 0, 0, 0 };
        uint64_t rest = ri;
        bool row_in = true;
        uint64_t gaddr = t->gaddr;
        for (unsigned i = 1; i < r; i++) {
            g[i] = (int64_t)c[i] + (int64_t)(rest % n[i]) * t->estride[i];
            rest /= n[i];
            if (g[i] < 0 || (uint64_t)g[i] >= t->gdim[i]) row_in = false;
            else gaddr += (uint64_t)g[i] * t->gstride[i - 1];
        }
        /* the in-bounds elements of the row: [lo, hi) */
        int64_t lo = g[0] < 0 ? -g[0] : 0, hi = (int64_t)n[0];
        if ((int64_t)t->gdim[0] - g[0] < hi) hi = (int64_t)t->gdim[0] - g[0];
        if (!row_in || hi < lo) hi = lo;
        uint8_t *gp = NULL;
        if (hi > lo) {
            uint64_t first = gaddr + (uint64_t)(g[0] + lo) * es, len = (uint64_t)(hi - lo) * es;
            int acc = store ? EXEC_ACC_WRITE : EXEC_ACC_READ;
            gp = exec_mem_addr(w, in, lane, PTX_SPACE_GLOBAL, first, 1, acc);
            if (!gp || !exec_mem_addr(w, in, lane, PTX_SPACE_GLOBAL, first + len - 1, 1, acc))
                return false;
        }
        uint64_t soff = smem + ri * pitch;
        if (!store) {
            for (int64_t e = 0; e < lo; e++) bt_fill(row + e * es, t);
            if (hi > lo) memcpy(row + lo * es, gp, (size_t)(hi - lo) * es);
            if (t->dtype == 11 || t->dtype == 12) bt_tf32(row + lo * es, hi > lo ? hi - lo : 0);
            for (int64_t e = hi > lo ? hi : lo; e < (int64_t)n[0]; e++) bt_fill(row + e * es, t);
            for (uint64_t o = 0; o < row_bytes; o += 16)
                memcpy(sbase + bt_swizzle(soff + o, t->swizzle), row + o, 16);
        } else {
            for (uint64_t o = 0; o < row_bytes; o += 16)
                memcpy(row + o, sbase + bt_swizzle(soff + o, t->swizzle), 16);
            if (hi > lo && !red) memcpy(gp, row + lo * es, (size_t)(hi - lo) * es);
            for (int64_t e = lo; red && e < hi; e++)
                exec_bulk_reduce_elem(gp + (e - lo) * es, row + e * es, red, rt);
        }
    }
    return true;
}

/* An im2col load (see the header): pixel after pixel, each a row of t->ic.channels
 * elements laid out as a tiled box's rows are (swizzle included). */
static bool bt_im2col(exec_wstate *w, const exec_insn *in, uint32_t lane, const exec_tmap *t,
                      const int32_t *c, const uint16_t *off, uint64_t smem, uint64_t *bytes) {
    unsigned r = t->rank, es = t->elem_size, ns = r - 2;
    uint64_t row_bytes = (uint64_t)t->ic.channels * es;
    uint64_t pitch = t->swizzle ? 16u << t->swizzle : row_bytes;
    *bytes = row_bytes * t->ic.pixels;
    if (smem & 127) {
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_MISALIGNED,
                      "cp.async.bulk.tensor: the shared memory address must be 128-byte aligned");
        return false;
    }
    if (((int64_t)c[0] * es) & 15) {
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                      "cp.async.bulk.tensor: the channel coordinate must start on a multiple "
                      "of 16 bytes");
        return false;
    }
    int64_t lo[3], hi[3], p[3];
    for (unsigned i = 0; i < ns; i++) {
        lo[i] = t->ic.lower[i];
        hi[i] = (int64_t)t->gdim[i + 1] - 1 + t->ic.upper[i];
        p[i] = c[i + 1];
        if (p[i] < lo[i] || p[i] > hi[i]) {
            char msg[160];
            snprintf(msg, sizeof msg, "cp.async.bulk.tensor .im2col: the first pixel's coordinate "
                     "%d of dimension %u lies outside the bounding box [%lld, %lld]", (int)p[i],
                     i + 1, (long long)lo[i], (long long)hi[i]);
            exec_fault_at(&w->h, in, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION, msg);
            return false;
        }
    }
    int64_t n = c[r - 1];
    uint8_t *sbase = exec_mem_addr(w, in, lane, PTX_SPACE_SHARED, smem, 16, EXEC_ACC_WRITE);
    uint64_t end = smem + pitch * (t->ic.pixels - 1) + row_bytes;
    if (!sbase || !exec_mem_addr(w, in, lane, PTX_SPACE_SHARED, end - 16, 16, EXEC_ACC_WRITE))
        return false;
    sbase -= smem;
    /* the channels of a pixel that lie in the tensor: [clo, chi) */
    int64_t clo = c[0] < 0 ? -(int64_t)c[0] : 0, chi = (int64_t)t->ic.channels;
    if ((int64_t)t->gdim[0] - c[0] < chi) chi = (int64_t)t->gdim[0] - c[0];
    if (chi < clo) chi = clo;
    uint8_t row[256 * 8];
    for (uint32_t px = 0; px < t->ic.pixels; px++) {
        bool in_t = n >= 0 && (uint64_t)n < t->gdim[r - 1] && chi > clo;
        uint64_t gaddr = t->gaddr + (in_t ? (uint64_t)n * t->gstride[r - 2] : 0);
        for (unsigned i = 0; i < ns && in_t; i++) {
            int64_t g = p[i] + off[i];
            if (g < 0 || (uint64_t)g >= t->gdim[i + 1]) in_t = false;
            else gaddr += (uint64_t)g * t->gstride[i];
        }
        for (int64_t e = 0; e < (int64_t)t->ic.channels; e++) bt_fill(row + e * es, t);
        if (in_t) {
            uint64_t first = gaddr + (uint64_t)(c[0] + clo) * es, len = (uint64_t)(chi - clo) * es;
            const uint8_t *gp = exec_mem_addr(w, in, lane, PTX_SPACE_GLOBAL, first, 1, EXEC_ACC_READ);
            if (!gp || !exec_mem_addr(w, in, lane, PTX_SPACE_GLOBAL, first + len - 1, 1, EXEC_ACC_READ))
                return false;
            memcpy(row + clo * es, gp, (size_t)len);
        }
        uint64_t soff = smem + px * pitch;
        for (uint64_t o = 0; o < row_bytes; o += 16)
            memcpy(sbase + bt_swizzle(soff + o, t->swizzle), row + o, 16);
        /* the next pixel: W first, back to the box's lower corner past its upper one */
        unsigned i = 0;
        for (; i < ns; i++) {
            p[i] += t->estride[i + 1];
            if (p[i] <= hi[i]) break;
            p[i] = lo[i];
        }
        if (i == ns) n += t->estride[r - 1];
    }
    return true;
}

static void h_bulk_tensor(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const bt_desc *b = (const bt_desc *)(uintptr_t)in->imm;
    bool store = in->flags & BT_STORE;
    EXEC_FOR_LANES(mask, lane) {
        exec_tmap tm;
        if (!bt_tmap(w, in, lane, EXEC_R(hw, b->tmap, lane) + (uint64_t)b->tmap_off, &tm)) return;
        const exec_tmap *t = &tm;
        if (t->rank != b->rank) {
            exec_fault_at(hw, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS,
                          "cp.async.bulk.tensor: the instruction's dimension is not the "
                          "tensor map's rank");
            return;
        }
        bool im2col = in->flags & BT_IM2COL;
        if (im2col != (t->im2col != 0)) {
            exec_fault_at(hw, in, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                          im2col ? "cp.async.bulk.tensor .im2col: the tensor map is a tiled one"
                                 : "cp.async.bulk.tensor: the tensor map is an im2col one "
                                   "(cuTensorMapEncodeIm2col); the instruction needs .im2col");
            return;
        }
        int32_t c[EXEC_TMAP_MAX_RANK] = { 0 };
        for (unsigned i = 0; i < b->rank; i++) c[i] = (int32_t)EXEC_R(hw, b->coord[i], lane);
        uint16_t off[EXEC_TMAP_MAX_RANK - 2] = { 0 };
        for (unsigned i = 0; im2col && i + 2 < b->rank; i++)
            off[i] = (uint16_t)EXEC_R(hw, b->ioff[i], lane);
        uint64_t smem = EXEC_R(hw, b->smem, lane) + (uint64_t)b->smem_off, bytes = 0;
        uint64_t mbar = EXEC_R(hw, b->mbar, lane) + (uint64_t)b->mbar_off;
        /* a multicast copy reaches the blocks of ctaMask, at the same offsets in each
         * (shared::cluster addresses of those ranks, exec/cluster.c) */
        uint32_t ranks = (in->flags & BT_MULTICAST) ? (uint32_t)EXEC_R(hw, b->ctamask, lane) & 0xffffu
                                                    : 0;
        if ((in->flags & BT_MULTICAST) && !ranks) continue;
        uint64_t keep = (1ull << EXEC_DSMEM_SHIFT) - 1;
        do {
            uint64_t r = ranks ? (uint64_t)__builtin_ctz(ranks) + 1 : 0;
            uint64_t at = r ? (smem & keep) | r << EXEC_DSMEM_SHIFT : smem;
            if (im2col ? !bt_im2col(w, in, lane, t, c, off, at, &bytes)
                       : !bt_copy(w, in, lane, t, c, at, store, b->red_op, &bytes))
                return;
            if (in->flags & BT_MBAR) {
                uint64_t a = r ? (mbar & keep) | r << EXEC_DSMEM_SHIFT : mbar;
                uint64_t *obj = exec_mem_addr(w, in, lane, PTX_SPACE_SHARED, a, 8, EXEC_ACC_ATOMIC);
                if (!obj) return;
                exec_mbarrier_complete_tx(obj, bytes);
            }
            ranks &= ranks - 1;
        } while (ranks);
    }
}

static bool bt_addr(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, ptx_space sp,
                    uint32_t *slot, int64_t *off) {
    exec_insn t;
    memset(&t, 0, sizeof t);
    if (!exec_dec_address(d, pi, o, sp, &t)) return false;
    *slot = t.a[0];
    *off = t.imm;
    return true;
}

int exec_decode_bulk_tensor(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    static const ptx_mod dims[] = { PTX_MOD_dim_1d, PTX_MOD_dim_2d, PTX_MOD_dim_3d,
                                    PTX_MOD_dim_4d, PTX_MOD_dim_5d };
    unsigned rank = 0;
    for (unsigned i = 0; i < 5; i++)
        if (ptx_insn_has_mod(pi, dims[i])) rank = i + 1;
    if (!rank) return exec_dec_error(d, pi, "cp.async.bulk.tensor needs .1d to .5d"), -1;
    ptx_space first = PTX_SPACE_GENERIC;
    for (unsigned i = 0; i < pi->nmods && first == PTX_SPACE_GENERIC; i++) {
        if (pi->mods[i] == PTX_MOD_global) first = PTX_SPACE_GLOBAL;
        else if (pi->mods[i] == PTX_MOD_shared || pi->mods[i] == PTX_MOD_shared_cta ||
                 pi->mods[i] == PTX_MOD_shared_cluster)
            first = PTX_SPACE_SHARED;
    }
    bool store = first == PTX_SPACE_GLOBAL;
    bool im2col = ptx_insn_has_mod(pi, PTX_MOD_im2col);
    if (im2col && (store || rank < 3))
        return exec_dec_error(d, pi, "cp.async.bulk.tensor .im2col: %s", store
                              ? "tensor stores and reductions in im2col mode (.im2col_no_offs) "
                                "are not supported"
                              : "im2col copies are 3d, 4d or 5d"), -1;
    bool mbar = ptx_insn_has_mod(pi, PTX_MOD_complete_tx_bytes);
    if (store ? !ptx_insn_has_mod(pi, PTX_MOD_bulk_group) : !mbar)
        return exec_dec_error(d, pi, "cp.async.bulk.tensor: %s",
                              store ? "a store completes in a bulk group (.bulk_group)"
                                    : "a load completes on an mbarrier "
                                      "(.mbarrier::complete_tx::bytes)"), -1;
    bt_desc *b = exec_dec_blob(d, sizeof *b);
    b->rank = rank;
    if (ptx_insn_has_mod(pi, PTX_MOD_reduce)) {
        b->red_op = exec_bulk_red_op(pi);
        if (!store || b->red_op == BR_NONE)
            return exec_dec_error(d, pi, "cp.reduce.async.bulk.tensor reduces shared memory "
                                  "into global memory with .add, .min, .max, .inc, .dec, "
                                  ".and, .or or .xor"), -1;
    }
    unsigned k = 0;
    if (!store) {
        if (pi->nopnds < 4) return exec_dec_error(d, pi, "cp.async.bulk.tensor takes [dst], "
                                                         "[tmap, {coords}], [mbar]"), -1;
        if (!bt_addr(d, pi, &pi->opnd[0], PTX_SPACE_SHARED, &b->smem, &b->smem_off)) return -1;
        k = 1;
    } else if (pi->nopnds < 3) {
        return exec_dec_error(d, pi, "cp.async.bulk.tensor takes [tmap, {coords}], [src]"), -1;
    }
    if (!bt_addr(d, pi, &pi->opnd[k], PTX_SPACE_GENERIC, &b->tmap, &b->tmap_off)) return -1;
    const ptx_operand *cv = &pi->opnd[k + 1];
    if (cv->kind != PTX_OPND_VEC || cv->vec_n != rank)
        return exec_dec_error(d, pi, "cp.async.bulk.tensor needs %u coordinates", rank), -1;
    for (unsigned i = 0; i < rank; i++)
        if (!exec_dec_src(d, pi, exec_dec_vec_elem(d, cv, i), PTX_T_s32, &b->coord[i])) return -1;
    k += 2;
    if (store) {
        if (!bt_addr(d, pi, &pi->opnd[k], PTX_SPACE_SHARED, &b->smem, &b->smem_off)) return -1;
        out->flags |= BT_STORE;
    } else {
        if (!bt_addr(d, pi, &pi->opnd[k], PTX_SPACE_SHARED, &b->mbar, &b->mbar_off)) return -1;
        out->flags |= BT_MBAR;
        k++;
        if (im2col) {
            const ptx_operand *ov = k < pi->nopnds ? &pi->opnd[k] : NULL;
            if (!ov || ov->kind != PTX_OPND_VEC || ov->vec_n != rank - 2)
                return exec_dec_error(d, pi, "cp.async.bulk.tensor .im2col needs %u im2col "
                                      "offsets after the mbarrier", rank - 2), -1;
            for (unsigned i = 0; i + 2 < rank; i++)
                if (!exec_dec_src(d, pi, exec_dec_vec_elem(d, ov, i), PTX_T_u16, &b->ioff[i]))
                    return -1;
            out->flags |= BT_IM2COL;
            k++;
        }
        if (ptx_insn_has_mod(pi, PTX_MOD_multicast_cluster)) {
            if (k >= pi->nopnds || !exec_dec_src(d, pi, &pi->opnd[k], PTX_T_u16, &b->ctamask))
                return exec_dec_error(d, pi, "multicast copy without its ctaMask"), -1;
            out->flags |= BT_MULTICAST;
        }
    }
    out->imm = (int64_t)(uintptr_t)b;
    out->space = PTX_SPACE_SHARED;
    out->fn = h_bulk_tensor;
    return 1;
}
