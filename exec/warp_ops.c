/* exec/warp_ops.c — warp collectives: activemask, shfl.sync (up down bfly idx, clamp and
 * segment mask, the optional predicate destination), vote.sync (all any uni ballot),
 * match.sync (any all, b32 b64), redux.sync (add min max and or xor; f32 min max),
 * elect.sync.
 *
 * A handler sees the whole warp, so each collective is one pass over the lanes in mask.
 * The lanes that take part are those both executing (mask) and named in the executing
 * lane's membermask; a membermask that names non-exited lanes which are not executing,
 * or that leaves out the executing lane itself, is recorded in the warp for the checkers
 * (exec_warp.sync_mask_*).
 */
#include "alu_internal.h"
#include "core.h"

/* Record the first membermask problem of the warp. */
static void warp_note_membermask(exec_warp *w, const exec_insn *in, uint32_t missing,
                                 uint32_t excluded) {
    if ((missing | excluded) == 0 || w->sync_mask_insn) return;
    w->sync_mask_insn = in;
    w->sync_mask_missing = missing;
    w->sync_mask_excluded = excluded;
}

/* Check the executing lanes' membermasks (slot mslot) and record a misfit; returns true
 * when all of them name the same lanes (as in every correct program), with those lanes
 * that are executing in *uniform. */
static bool warp_check_members(exec_warp *w, const exec_insn *in, uint32_t mask,
                               uint32_t mslot, uint32_t *uniform) {
    const uint64_t *M = w->R + (size_t)mslot * EXEC_WARP_SIZE;
    const uint32_t first = (uint32_t)M[__builtin_ctz(mask)];
    uint32_t any = 0, all = ~0u, excluded = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m), mm = (uint32_t)M[l];
        any |= mm;
        all &= mm;
        excluded |= ~mm & (1u << l);
    }
    warp_note_membermask(w, in, any & w->alive & ~mask, excluded);
    *uniform = first & mask;
    return any == all;
}

/* Lanes the membermask names that run apart from the executing ones come together at the
 * collective first (exec_warp_sync_meet): true when the handler must not run now. */
static bool warp_meet(exec_warp *w, const exec_insn *in, uint32_t mask, uint32_t mslot) {
    if (w->active == w->alive || !w->block) return false; /* (!block: a lone warp's test) */
    const uint32_t members = (uint32_t)w->R[(size_t)mslot * EXEC_WARP_SIZE + __builtin_ctz(mask)];
    return exec_warp_sync_meet(exec_ws(w), in, members);
}
#define WARP_MEET(slot) do { if (warp_meet(w, in, mask, (slot))) return; } while (0)

/* The lanes taking part as each executing lane sees them (its membermask and mask). */
static void warp_members(exec_warp *w, const exec_insn *in, uint32_t mask, uint32_t mslot,
                         uint32_t *lane_members) {
    uint32_t u;
    if (warp_check_members(w, in, mask, mslot, &u)) {
        for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++) lane_members[l] = u;
        return;
    }
    const uint64_t *M = w->R + (size_t)mslot * EXEC_WARP_SIZE;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m);
        lane_members[l] = (uint32_t)M[l] & mask;
    }
}

/* activemask d: the lanes executing this instruction. */
ALU_HANDLER(warp_activemask) {
    uint64_t *D = ALU_D(0);
    ALU_LANES(mask, l, { D[l] = mask; });
}

/* shfl.sync d[|p], a, b, c, membermask (ISA semantics): with bval = b[4:0],
 * cval = c[4:0], segmask = c[12:8], maxLane = (lane & segmask) | (cval & ~segmask),
 * minLane = lane & segmask, the source lane j is lane-bval (up, valid if >= maxLane),
 * lane+bval (down, valid if <= maxLane), lane^bval (bfly, <= maxLane) or
 * minLane | (bval & ~segmask) (idx, <= maxLane); an invalid j reads the lane's own a.
 * A source lane that is not executing the shfl gives 0 (p still true), as on the H100. */
#define WARP_SHFL(name, J, VALID)                                                       \
    static inline uint64_t name##_lane(const uint64_t *src, const uint64_t *B,          \
                                       const uint64_t *C, uint32_t mask, int32_t lane,  \
                                       uint32_t *pbits) {                               \
        const int32_t bval = (int32_t)(B[lane] & 31u), cval = (int32_t)(C[lane] & 31u); \
        const int32_t seg = (int32_t)((C[lane] >> 8) & 31u);                            \
        const int32_t max_lane = (lane & seg) | (cval & ~seg);                          \
        const int32_t min_lane = lane & seg;                                            \
        (void)min_lane;                                                                 \
        const int32_t j0 = (J);                                                         \
        const bool valid = (VALID);                                                     \
        const int32_t j = valid ? j0 : lane;                                            \
        *pbits |= (uint32_t)valid << lane;                                              \
        return ((mask >> j) & 1u) ? (uint32_t)src[j] : 0;                               \
    }                                                                                   \
    ALU_HANDLER(name) {                                                                 \
        WARP_MEET(in->a[3]);                                                            \
        uint32_t members;                                                               \
        warp_check_members(w, in, mask, in->a[3], &members);                            \
        uint64_t src[EXEC_WARP_SIZE];                                                   \
        memcpy(src, ALU_A(0), sizeof src);  /* d may be the same register as a */       \
        const uint64_t *B = ALU_A(1), *C = ALU_A(2);                                    \
        uint64_t *D = ALU_D(0);                                                         \
        uint32_t pbits = 0;                                                             \
        if (mask == EXEC_FULL_MASK) {                                                   \
            for (int32_t lane = 0; lane < EXEC_WARP_SIZE; lane++)                       \
                D[lane] = name##_lane(src, B, C, mask, lane, &pbits);                   \
        } else {                                                                        \
            for (uint32_t m = mask; m; m &= m - 1) {                                    \
                const int32_t lane = __builtin_ctz(m);                                  \
                D[lane] = name##_lane(src, B, C, mask, lane, &pbits);                   \
            }                                                                           \
        }                                                                               \
        if (in->flags & EXEC_F_D2_PRED) alu_write_pred(w, in->d[1], mask, pbits);       \
    }
WARP_SHFL(warp_shfl_up, lane - bval, j0 >= max_lane)
WARP_SHFL(warp_shfl_down, lane + bval, j0 <= max_lane)
WARP_SHFL(warp_shfl_bfly, lane ^ bval, j0 <= max_lane)
WARP_SHFL(warp_shfl_idx, min_lane | (bval & ~seg), j0 <= max_lane)

/* vote.sync: the source predicate over the lanes taking part (ballot: a 0 for each
 * lane not taking part). */
static inline uint32_t warp_vote_src(const exec_warp *w, const exec_insn *in) {
    uint32_t p = w->P[in->a[0]];
    return (in->flags & ALU_F_NEG_A0) ? ~p : p;
}
#define WARP_VOTE_PRED(name, EXPR)                                                      \
    ALU_HANDLER(name) {                                                                 \
        WARP_MEET(in->a[1]);                                                            \
        uint32_t members[EXEC_WARP_SIZE];                                               \
        warp_members(w, in, mask, in->a[1], members);                                   \
        const uint32_t src = warp_vote_src(w, in);                                      \
        uint32_t bits = 0;                                                              \
        for (uint32_t m = mask; m; m &= m - 1) {                                        \
            const uint32_t l = (uint32_t)__builtin_ctz(m), part = members[l];           \
            const uint32_t t = src & part;                                              \
            bits |= (uint32_t)(EXPR) << l;                                              \
            (void)t;                                                                    \
        }                                                                               \
        alu_write_pred(w, in->d[0], mask, bits);                                        \
    }
WARP_VOTE_PRED(warp_vote_all, t == part)
WARP_VOTE_PRED(warp_vote_any, t != 0)
WARP_VOTE_PRED(warp_vote_uni, t == 0 || t == part)
ALU_HANDLER(warp_vote_ballot) {
    WARP_MEET(in->a[1]);
    uint32_t members[EXEC_WARP_SIZE];
    warp_members(w, in, mask, in->a[1], members);
    const uint32_t src = warp_vote_src(w, in);
    uint64_t *D = ALU_D(0);
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        D[l] = src & members[l];
    }
}

/* match.sync: .any gives the lanes taking part whose a equals this lane's; .all gives
 * all lanes taking part (and p = 1) when they all hold the same a, else 0 (p = 0). */
#define WARP_MATCH(N, U)                                                                \
    ALU_HANDLER(warp_match_any_##N) {                                                   \
        WARP_MEET(in->a[1]);                                                            \
        uint32_t members[EXEC_WARP_SIZE];                                               \
        warp_members(w, in, mask, in->a[1], members);                                   \
        uint64_t src[EXEC_WARP_SIZE];                                                   \
        memcpy(src, ALU_A(0), sizeof src);                                              \
        uint64_t *D = ALU_D(0);                                                         \
        for (uint32_t m = mask; m; m &= m - 1) {                                        \
            const uint32_t l = (uint32_t)__builtin_ctz(m);                              \
            uint32_t same = 0;                                                          \
            for (uint32_t k = members[l]; k; k &= k - 1) {                              \
                uint32_t o = (uint32_t)__builtin_ctz(k);                                \
                if ((U)src[o] == (U)src[l]) same |= 1u << o;                            \
            }                                                                           \
            D[l] = same;                                                                \
        }                                                                               \
    }                                                                                   \
    ALU_HANDLER(warp_match_all_##N) {                                                   \
        WARP_MEET(in->a[1]);                                                            \
        uint32_t members[EXEC_WARP_SIZE];                                               \
        warp_members(w, in, mask, in->a[1], members);                                   \
        uint64_t src[EXEC_WARP_SIZE];                                                   \
        memcpy(src, ALU_A(0), sizeof src);                                              \
        uint64_t *D = ALU_D(0);                                                         \
        uint32_t pbits = 0;                                                             \
        for (uint32_t m = mask; m; m &= m - 1) {                                        \
            const uint32_t l = (uint32_t)__builtin_ctz(m);                              \
            bool all = true;                                                            \
            for (uint32_t k = members[l]; k; k &= k - 1)                                \
                all &= (U)src[__builtin_ctz(k)] == (U)src[l];                           \
            D[l] = all ? members[l] : 0;                                                \
            pbits |= (uint32_t)all << l;                                                \
        }                                                                               \
        if (in->flags & EXEC_F_D2_PRED) alu_write_pred(w, in->d[1], mask, pbits);       \
    }
WARP_MATCH(32, uint32_t)
WARP_MATCH(64, uint64_t)

/* redux.sync: the reduction over the lanes taking part, given to each of them. */
#define WARP_REDUX(name, T, INIT, OP)                                                   \
    ALU_HANDLER(name) {                                                                 \
        WARP_MEET(in->a[1]);                                                            \
        uint32_t members[EXEC_WARP_SIZE];                                               \
        warp_members(w, in, mask, in->a[1], members);                                   \
        uint64_t src[EXEC_WARP_SIZE];                                                   \
        memcpy(src, ALU_A(0), sizeof src);                                              \
        uint64_t *D = ALU_D(0);                                                         \
        for (uint32_t m = mask; m; m &= m - 1) {                                        \
            const uint32_t l = (uint32_t)__builtin_ctz(m);                              \
            T acc = (INIT);                                                             \
            for (uint32_t k = members[l]; k; k &= k - 1) {                              \
                T v = (T)src[__builtin_ctz(k)];                                         \
                acc = (T)(OP);                                                          \
            }                                                                           \
            D[l] = (uint32_t)acc;                                                       \
        }                                                                               \
    }
WARP_REDUX(warp_redux_add, uint32_t, 0u, acc + v)
WARP_REDUX(warp_redux_min_u32, uint32_t, UINT32_MAX, v < acc ? v : acc)
WARP_REDUX(warp_redux_max_u32, uint32_t, 0u, v > acc ? v : acc)
WARP_REDUX(warp_redux_min_s32, int32_t, INT32_MAX, v < acc ? v : acc)
WARP_REDUX(warp_redux_max_s32, int32_t, INT32_MIN, v > acc ? v : acc)
WARP_REDUX(warp_redux_and, uint32_t, UINT32_MAX, acc & v)
WARP_REDUX(warp_redux_or, uint32_t, 0u, acc | v)
WARP_REDUX(warp_redux_xor, uint32_t, 0u, acc ^ v)

/* redux.sync.min/max{.abs}{.NaN}.f32: NaN inputs are ignored (the result is NaN only
 * when all are), or with .NaN make the result NaN; -0 is below +0. */
ALU_HANDLER(warp_redux_fminmax) {
    WARP_MEET(in->a[1]);
    uint32_t members[EXEC_WARP_SIZE];
    warp_members(w, in, mask, in->a[1], members);
    uint64_t src[EXEC_WARP_SIZE];
    memcpy(src, ALU_A(0), sizeof src);
    uint64_t *D = ALU_D(0);
    const bool is_max = ALU_AUX_VAR(in->aux) == ALU_V_MAX, abs = in->flags & ALU_F_ABS;
    const bool nan_wins = in->flags & ALU_F_NANMODE;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m);
        bool any = false, nan = false;
        uint32_t acc = 0;
        for (uint32_t k = members[l]; k; k &= k - 1) {
            uint32_t v = (uint32_t)src[__builtin_ctz(k)];
            if (abs) v &= 0x7fffffffu;
            if ((v & 0x7fffffffu) > 0x7f800000u) { nan = true; continue; }
            /* order of the bit patterns as floats: sign-magnitude to a biased key */
            uint32_t kv = v >> 31 ? ~v : v | 0x80000000u, ka = acc >> 31 ? ~acc : acc | 0x80000000u;
            if (!any || (is_max ? kv > ka : kv < ka)) acc = v;
            any = true;
        }
        D[l] = (!any || (nan && nan_wins)) ? ALU_F32_CANON_NAN : acc;
    }
}

/* elect.sync d|p, membermask: the lowest lane taking part is the leader; d = its lane
 * id on every lane, p is true on the leader only. */
ALU_HANDLER(warp_elect) {
    WARP_MEET(in->a[0]);
    uint32_t members[EXEC_WARP_SIZE];
    warp_members(w, in, mask, in->a[0], members);
    uint64_t *D = ALU_D(0);
    uint32_t pbits = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m);
        const uint32_t leader = members[l] ? (uint32_t)__builtin_ctz(members[l]) : l;
        D[l] = leader;
        pbits |= (uint32_t)(leader == l) << l;
    }
    alu_write_pred(w, in->d[1], mask, pbits);
}

exec_fn exec_warp_ops_lookup(const exec_insn *in) {
    const ptx_type t = (ptx_type)in->type;
    const unsigned var = ALU_AUX_VAR(in->aux);
    switch (in->op) {
    case PTX_OP_activemask:
        return t == PTX_T_b32 ? warp_activemask : NULL;
    case PTX_OP_shfl:
        if (t != PTX_T_b32) return NULL;
        switch (var) {
        case ALU_V_UP: return warp_shfl_up;
        case ALU_V_DOWN: return warp_shfl_down;
        case ALU_V_BFLY: return warp_shfl_bfly;
        case ALU_V_IDX: return warp_shfl_idx;
        default: return NULL;
        }
    case PTX_OP_vote:
        if (var == ALU_V_BALLOT) return t == PTX_T_b32 ? warp_vote_ballot : NULL;
        if (t != PTX_T_pred) return NULL;
        return var == ALU_V_ALL ? warp_vote_all : var == ALU_V_ANY ? warp_vote_any
             : var == ALU_V_UNI ? warp_vote_uni : NULL;
    case PTX_OP_match:
        if (t != PTX_T_b32 && t != PTX_T_b64) return NULL;
        if (var == ALU_V_ANY)
            return (in->flags & EXEC_F_D2_PRED) ? NULL
                 : t == PTX_T_b32 ? warp_match_any_32 : warp_match_any_64;
        if (var == ALU_V_ALL) return t == PTX_T_b32 ? warp_match_all_32 : warp_match_all_64;
        return NULL;
    case PTX_OP_redux:
        switch (var) {
        case ALU_V_ADD: return t == PTX_T_u32 || t == PTX_T_s32 ? warp_redux_add : NULL;
        case ALU_V_MIN: case ALU_V_MAX:
            if (t == PTX_T_f32) return warp_redux_fminmax;
            if (in->flags & (ALU_F_ABS | ALU_F_NANMODE)) return NULL;
            if (var == ALU_V_MIN)
                return t == PTX_T_u32 ? warp_redux_min_u32 : t == PTX_T_s32 ? warp_redux_min_s32 : NULL;
            return t == PTX_T_u32 ? warp_redux_max_u32 : t == PTX_T_s32 ? warp_redux_max_s32 : NULL;
        case ALU_V_AND: return t == PTX_T_b32 ? warp_redux_and : NULL;
        case ALU_V_OR: return t == PTX_T_b32 ? warp_redux_or : NULL;
        case ALU_V_XOR: return t == PTX_T_b32 ? warp_redux_xor : NULL;
        default: return NULL;
        }
    case PTX_OP_elect:
        return warp_elect;
    default:
        return NULL;
    }
}
