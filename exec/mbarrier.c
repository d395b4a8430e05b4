/* exec/mbarrier.c — mbarrier: the split arrive/wait barrier objects kept in shared memory
 * (cuda::barrier, cuda::memcpy_async), and cp.async.mbarrier.arrive.
 *
 * The object is 64 bits whose layout is private to vcuda (PTX treats it as opaque):
 *   bits  0-20  arrivals still pending in the current phase
 *   bits 21-41  arrivals expected in each phase (reloaded when a phase completes)
 *   bits 42-62  transaction bytes still pending (expect_tx / complete_tx), a 21-bit two's
 *               complement count: a bulk copy may complete its bytes before the arrive that
 *               expects them, leaving the count negative for a while, as the PTX ISA allows
 *   bit  63     phase parity
 * A phase completes when no arrivals and no transaction bytes are pending. The state an
 * arrive returns holds the phase it arrived in (bit 63) and the arrivals then pending.
 * Shared memory belongs to one block on one host thread, so no atomics are needed; lanes
 * act in lane order. In a cluster launch other blocks reach the object too (a remote
 * arrive, a multicast copy's complete_tx): each operation then holds a lock chosen by the
 * object's address. A try_wait that finds its phase incomplete lets the block's other
 * warps run before the warp tries again.
 */
#include "core.h"

#define MB_COUNT_BITS 21u
#define MB_COUNT_MAX ((1ull << MB_COUNT_BITS) - 1)
#define MB_PENDING(w) ((w) & MB_COUNT_MAX)
#define MB_EXPECTED(w) (((w) >> MB_COUNT_BITS) & MB_COUNT_MAX)
#define MB_TX(w) (((w) >> (2 * MB_COUNT_BITS)) & MB_COUNT_MAX)
#define MB_PHASE(w) ((w) >> 63)
#define MB_MAKE(pending, expected, tx, phase)                                              \
    (((uint64_t)(pending) & MB_COUNT_MAX) | (((uint64_t)(expected) & MB_COUNT_MAX) << 21) | \
     (((uint64_t)(tx) & MB_COUNT_MAX) << 42) | ((uint64_t)(phase) << 63))

enum mb_op {
    MB_INIT = 1, MB_INVAL, MB_ARRIVE, MB_ARRIVE_DROP, MB_EXPECT_TX, MB_COMPLETE_TX,
    MB_TEST_WAIT, MB_TRY_WAIT, MB_PENDING_COUNT, MB_CP_ASYNC_ARRIVE
};

#define MB_PARITY      (EXEC_F_HANDLER << 8)  /* test/try_wait take a phase parity */
#define MB_NO_COMPLETE (EXEC_F_HANDLER << 9)  /* arrive.noComplete */
#define MB_WITH_TX     (EXEC_F_HANDLER << 10) /* arrive.expect_tx: a[1] is the tx count */
#define MB_HAS_COUNT   (EXEC_F_HANDLER << 11) /* a[1] holds a count operand */
#define MB_HAS_DST     (EXEC_F_HANDLER << 12)

/* One arrival (count arrivals, after adding tx expected bytes). Returns the state. */
static uint64_t mb_arrive(uint64_t *obj, uint64_t count, uint64_t tx, bool drop,
                          bool no_complete) {
    uint64_t w = *obj;
    uint64_t pending = MB_PENDING(w), expected = MB_EXPECTED(w);
    uint64_t txp = (MB_TX(w) + tx) & MB_COUNT_MAX;
    uint64_t phase = MB_PHASE(w);
    pending = pending > count ? pending - count : 0;
    if (drop) expected = expected > count ? expected - count : 0;
    uint64_t state = (phase << 63) | pending;
    if (pending == 0 && txp == 0 && !no_complete) {
        phase ^= 1;
        pending = expected;
    }
    *obj = MB_MAKE(pending, expected, txp, phase);
    return state;
}

static void mb_complete_tx(uint64_t *obj, uint64_t bytes) {
    uint64_t o = *obj, tx = (MB_TX(o) - bytes) & MB_COUNT_MAX;
    uint64_t pending = MB_PENDING(o), phase = MB_PHASE(o);
    if (tx == 0 && pending == 0) { phase ^= 1; pending = MB_EXPECTED(o); }
    *obj = MB_MAKE(pending, MB_EXPECTED(o), tx, phase);
}

/* The locks of objects that blocks of a cluster share (spin locks: held for a few
 * instructions). */
#define MB_LOCKS 64u
static unsigned char mb_locks[MB_LOCKS];

static unsigned char *mb_lock(const uint64_t *obj) {
    unsigned char *l = &mb_locks[((uintptr_t)obj >> 3) % MB_LOCKS];
    while (__atomic_test_and_set(l, __ATOMIC_ACQUIRE)) {}
    return l;
}

static void mb_unlock(unsigned char *l) { __atomic_clear(l, __ATOMIC_RELEASE); }

void exec_mbarrier_complete_tx(uint64_t *obj, uint64_t bytes) {
    unsigned char *l = mb_lock(obj);
    mb_complete_tx(obj, bytes);
    mb_unlock(l);
}

static void h_mbarrier(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    uint32_t incomplete = 0, done = 0;
    EXEC_FOR_LANES(mask, lane) {
        if (in->aux == MB_PENDING_COUNT) { /* no object: decode the state */
            EXEC_R(hw, in->d[0], lane) = MB_PENDING(EXEC_R(hw, in->a[0], lane));
            continue;
        }
        uint64_t a = EXEC_R(hw, in->a[0], lane) + (uint64_t)in->imm;
        uint64_t *obj = exec_mem_addr(w, in, lane, (ptx_space)in->space, a, 8, EXEC_ACC_ATOMIC);
        if (!obj) return;
        uint64_t arg = (in->flags & MB_HAS_COUNT) ? EXEC_R(hw, in->a[1], lane) : 1;
        uint64_t r = 0;
        unsigned char *lock = hw->block->L->cluster ? mb_lock(obj) : NULL;
        switch (in->aux) {
        case MB_INIT: *obj = MB_MAKE(arg, arg, 0, 0); break;
        case MB_INVAL: *obj = 0; break;
        case MB_ARRIVE: case MB_ARRIVE_DROP: case MB_CP_ASYNC_ARRIVE:
            if (in->flags & MB_WITH_TX)
                r = mb_arrive(obj, 1, arg, false, false);
            else
                r = mb_arrive(obj, arg, 0, in->aux == MB_ARRIVE_DROP,
                              (in->flags & MB_NO_COMPLETE) != 0);
            break;
        case MB_EXPECT_TX: {
            uint64_t o = *obj;
            *obj = MB_MAKE(MB_PENDING(o), MB_EXPECTED(o), (MB_TX(o) + arg) & MB_COUNT_MAX,
                           MB_PHASE(o));
            break;
        }
        case MB_COMPLETE_TX: mb_complete_tx(obj, arg); break;
        case MB_TEST_WAIT: case MB_TRY_WAIT: {
            uint64_t want = (in->flags & MB_PARITY) ? (arg & 1) : MB_PHASE(arg);
            bool complete = MB_PHASE(*obj) != want;
            if (complete) done |= 1u << lane;
            else incomplete |= 1u << lane;
            break;
        }
        default: break;
        }
        if (lock) mb_unlock(lock);
        if ((in->flags & MB_HAS_DST) && in->aux != MB_TEST_WAIT && in->aux != MB_TRY_WAIT)
            EXEC_R(hw, in->d[0], lane) = r;
    }
    if (in->aux == MB_TEST_WAIT || in->aux == MB_TRY_WAIT) {
        hw->P[in->d[0]] = (hw->P[in->d[0]] & ~mask) | done;
        /* the phase can only complete when other warps arrive: let them run */
        if (incomplete && in->aux == MB_TRY_WAIT) exec_warp_yield(w);
    }
}

static bool has_mod(const ptx_insn *pi, ptx_mod m) { return ptx_insn_has_mod(pi, m); }

int exec_decode_mbarrier(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (pi->op != PTX_OP_mbarrier) return 0;
    unsigned op;
    if (has_mod(pi, PTX_MOD_init)) op = MB_INIT;
    else if (has_mod(pi, PTX_MOD_inval)) op = MB_INVAL;
    else if (has_mod(pi, PTX_MOD_arrive_drop)) op = MB_ARRIVE_DROP;
    else if (has_mod(pi, PTX_MOD_arrive)) op = MB_ARRIVE;
    else if (has_mod(pi, PTX_MOD_expect_tx)) op = MB_EXPECT_TX;
    else if (has_mod(pi, PTX_MOD_complete_tx)) op = MB_COMPLETE_TX;
    else if (has_mod(pi, PTX_MOD_test_wait)) op = MB_TEST_WAIT;
    else if (has_mod(pi, PTX_MOD_try_wait)) op = MB_TRY_WAIT;
    else if (has_mod(pi, PTX_MOD_pending_count)) op = MB_PENDING_COUNT;
    else return exec_dec_error(d, pi, "unsupported mbarrier operation"), -1;
    if ((op == MB_ARRIVE || op == MB_ARRIVE_DROP) && has_mod(pi, PTX_MOD_expect_tx))
        out->flags |= MB_WITH_TX;
    if (has_mod(pi, PTX_MOD_noComplete)) out->flags |= MB_NO_COMPLETE;
    if (has_mod(pi, PTX_MOD_parity)) out->flags |= MB_PARITY;
    out->aux = op;
    ptx_space sp = exec_dec_space(pi);
    if (sp != PTX_SPACE_SHARED && sp != PTX_SPACE_GENERIC)
        return exec_dec_error(d, pi, "mbarrier objects live in shared memory"), -1;
    out->space = (uint8_t)sp;

    unsigned k = 0; /* next operand */
    if (op == MB_PENDING_COUNT) {
        if (pi->nopnds < 2 || !exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0]) ||
            !exec_dec_src(d, pi, &pi->opnd[1], PTX_T_b64, &out->a[0]))
            return -1;
        out->fn = h_mbarrier;
        return 1;
    }
    bool has_dst = op == MB_ARRIVE || op == MB_ARRIVE_DROP || op == MB_TEST_WAIT ||
                   op == MB_TRY_WAIT;
    if (has_dst) {
        if (pi->nopnds < 2) return exec_dec_error(d, pi, "missing operands"), -1;
        if (op == MB_TEST_WAIT || op == MB_TRY_WAIT) {
            if (!exec_dec_pred(d, pi, &pi->opnd[0], &out->d[0], NULL)) return -1;
            out->flags |= EXEC_F_D_PRED;
        } else if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0])) {
            return -1;
        }
        out->flags |= MB_HAS_DST;
        k = 1;
    }
    if (k >= pi->nopnds) return exec_dec_error(d, pi, "missing address"), -1;
    if (!exec_dec_address(d, pi, &pi->opnd[k], sp, out)) return -1;
    k++;
    /* the count, tx count, state or parity; try_wait's time hint after it is ignored */
    if (k < pi->nopnds) {
        if (!exec_dec_src(d, pi, &pi->opnd[k], PTX_T_b64, &out->a[1])) return -1;
        out->flags |= MB_HAS_COUNT;
    } else if (op == MB_INIT || op == MB_EXPECT_TX || op == MB_COMPLETE_TX ||
               op == MB_TEST_WAIT || op == MB_TRY_WAIT || (out->flags & MB_WITH_TX)) {
        return exec_dec_error(d, pi, "missing operand"), -1;
    }
    out->fn = h_mbarrier;
    return 1;
}

/* cp.async.mbarrier.arrive[.noinc] [a]: the copies are already done, so the arrive happens
 * now; without .noinc it first adds the arrival it makes, which leaves the count as is. */
int exec_decode_cp_async_arrive(exec_decoder *d, const ptx_insn *pi, exec_insn *out,
                                bool noinc) {
    if (!noinc) {
        out->fn = exec_h_nop;
        return 1;
    }
    ptx_space sp = exec_dec_space(pi);
    out->space = (uint8_t)sp;
    out->aux = MB_CP_ASYNC_ARRIVE;
    if (pi->nopnds < 1 || !exec_dec_address(d, pi, &pi->opnd[0], sp, out)) return -1;
    out->fn = h_mbarrier;
    return 1;
}
