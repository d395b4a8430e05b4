/* exec/alu_mov.c — mov between registers (sources already resolved to slots: registers,
 * immediates, special registers and symbol addresses alike) and the vector pack/unpack
 * forms mov.b64 %rd, {%r1,%r2} / mov.b64 {%r1,%r2}, %rd / mov.b32 {%h1,%h2}, %r ...,
 * and the .b128 moves (a .b128 register is two slots).
 * (mov.pred lives with the predicate logic in alu_bits.c).
 */
#include "alu_internal.h"

/* Slots hold zero-extended values, so one 64-bit copy serves every width. */
ALU_HANDLER(alu_mov) {
    uint64_t *D = ALU_D(0); const uint64_t *A = ALU_A(0);
    ALU_LANES(mask, l, { D[l] = A[l]; });
}

/* pack two 32-bit elements: d = a0 | a1 << 32 */
ALU_HANDLER(alu_mov_pack_2x32) {
    uint64_t *D = ALU_D(0); const uint64_t *A0 = ALU_A(0), *A1 = ALU_A(1);
    ALU_LANES(mask, l, { D[l] = (uint32_t)A0[l] | ((uint64_t)(uint32_t)A1[l] << 32); });
}
/* pack two 16-bit elements: d = a0 | a1 << 16 */
ALU_HANDLER(alu_mov_pack_2x16) {
    uint64_t *D = ALU_D(0); const uint64_t *A0 = ALU_A(0), *A1 = ALU_A(1);
    ALU_LANES(mask, l, { D[l] = (uint16_t)A0[l] | ((uint64_t)(uint16_t)A1[l] << 16); });
}
/* any other pack: vec elements of (type bits / vec) bits each, first element lowest */
ALU_HANDLER(alu_mov_pack) {
    const unsigned n = in->vec, ew = 8u * ptx_type_sizes[in->type] / n;
    const uint64_t emask = ew >= 64 ? ~0ull : (1ull << ew) - 1;
    uint64_t *D = ALU_D(0);
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t v = 0;
        for (unsigned i = 0; i < n; i++) v |= (ALU_A(i)[l] & emask) << (ew * i);
        D[l] = v;
    }
}
/* unpack: element i of a goes to d[i]. The source is read before any destination is
 * written (a destination may be the source register). */
ALU_HANDLER(alu_mov_unpack_2x32) {
    uint64_t *D0 = ALU_D(0), *D1 = ALU_D(1); const uint64_t *A = ALU_A(0);
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t v = A[l];
        D0[l] = (uint32_t)v;
        D1[l] = v >> 32;
    }
}
ALU_HANDLER(alu_mov_unpack_2x16) {
    uint64_t *D0 = ALU_D(0), *D1 = ALU_D(1); const uint64_t *A = ALU_A(0);
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t v = A[l];
        D0[l] = (uint16_t)v;
        D1[l] = (uint16_t)(v >> 16);
    }
}
ALU_HANDLER(alu_mov_unpack) {
    const unsigned n = in->vec, ew = 8u * ptx_type_sizes[in->type] / n;
    const uint64_t emask = ew >= 64 ? ~0ull : (1ull << ew) - 1;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t v = ALU_A(0)[l];
        for (unsigned i = 0; i < n; i++) ALU_D(i)[l] = (v >> (ew * i)) & emask;
    }
}

/* .b128 values live in two consecutive slots, low 64 bits first (exec/program.c). */
ALU_HANDLER(alu_mov_b128) {
    uint64_t *D0 = ALU_D(0), *D1 = D0 + EXEC_WARP_SIZE;
    const uint64_t *A0 = ALU_A(0), *A1 = A0 + EXEC_WARP_SIZE;
    ALU_LANES(mask, l, { uint64_t lo = A0[l], hi = A1[l]; D0[l] = lo; D1[l] = hi; });
}
/* mov.b128 d, {a0, a1} (64-bit elements) or {a0, a1, a2, a3} (32-bit elements) */
ALU_HANDLER(alu_mov_pack_b128) {
    uint64_t *D0 = ALU_D(0), *D1 = D0 + EXEC_WARP_SIZE;
    const bool four = in->vec == 4;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t lo, hi;
        if (four) {
            lo = (uint32_t)ALU_A(0)[l] | (uint64_t)(uint32_t)ALU_A(1)[l] << 32;
            hi = (uint32_t)ALU_A(2)[l] | (uint64_t)(uint32_t)ALU_A(3)[l] << 32;
        } else {
            lo = ALU_A(0)[l];
            hi = ALU_A(1)[l];
        }
        D0[l] = lo;
        D1[l] = hi;
    }
}
ALU_HANDLER(alu_mov_unpack_b128) {
    const uint64_t *A0 = ALU_A(0), *A1 = A0 + EXEC_WARP_SIZE;
    const bool four = in->vec == 4;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t lo = A0[l], hi = A1[l];
        if (four) {
            ALU_D(0)[l] = (uint32_t)lo;
            ALU_D(1)[l] = lo >> 32;
            ALU_D(2)[l] = (uint32_t)hi;
            ALU_D(3)[l] = hi >> 32;
        } else {
            ALU_D(0)[l] = lo;
            ALU_D(1)[l] = hi;
        }
    }
}

exec_fn exec_alu_mov_lookup(const exec_insn *in) {
    const ptx_type t = (ptx_type)in->type;
    const unsigned bytes = ptx_type_sizes[t], var = ALU_AUX_VAR(in->aux);
    if (in->flags || ALU_AUX_RND(in->aux)) return NULL;
    if (t == PTX_T_b128) {
        if (var == ALU_V_NONE) return alu_mov_b128;
        if (in->vec != 2 && in->vec != 4) return NULL;
        return var == ALU_V_PACK ? alu_mov_pack_b128 : var == ALU_V_UNPACK ? alu_mov_unpack_b128
                                                                          : NULL;
    }
    if (bytes < 2 || bytes > 8) return NULL;
    if (var == ALU_V_NONE) return alu_mov;
    if (ptx_type_kinds[t] != 'b') return NULL;
    const unsigned n = in->vec;
    if ((n != 2 && n != 4) || (8u * bytes) / n < 8) return NULL;
    const unsigned ew = 8u * bytes / n;
    if (var == ALU_V_PACK)
        return n == 2 && ew == 32 ? alu_mov_pack_2x32 : n == 2 && ew == 16 ? alu_mov_pack_2x16
                                                      : alu_mov_pack;
    if (var == ALU_V_UNPACK)
        return n == 2 && ew == 32 ? alu_mov_unpack_2x32
             : n == 2 && ew == 16 ? alu_mov_unpack_2x16 : alu_mov_unpack;
    return NULL;
}
