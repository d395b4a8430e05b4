/* exec/atomic.c — atom and red: every operation and type nvcc emits, on global, shared
 * and generic addresses, 16-bit and 128-bit compare-and-swap and exchange included.
 *
 * Blocks run in parallel on host threads, so global atomics use the host's atomic
 * instructions (GCC __atomic builtins; compare-and-swap loops for the operations the
 * host lacks: min/max, inc/dec, floating-point adds). Shared and local memory belong to
 * one block on one thread, so there a plain read-modify-write is already atomic.
 * Lanes of a warp apply their operations in lane order.
 */
#include "core.h"
#include "alu_internal.h" /* float formats and their bit patterns */

#include <stdio.h>

enum atom_op {
    AOP_ADD = 1, AOP_AND, AOP_OR, AOP_XOR, AOP_EXCH, AOP_CAS, AOP_INC, AOP_DEC, AOP_MIN, AOP_MAX
};

#define ATOM_HAS_DST (EXEC_F_HANDLER << 8)

static inline uint32_t ftz32(uint32_t x) {
    return (x & 0x7f800000u) == 0 ? x & 0x80000000u : x;
}

/* The new value of an operation that the host has no single instruction for. */
static uint64_t combine(unsigned op, ptx_type t, unsigned size, uint64_t old, uint64_t b,
                        uint64_t c) {
    char kind = ptx_type_kinds[t];
    switch (op) {
    case AOP_ADD:
        if (t == PTX_T_f32) { /* atom.add.f32 flushes subnormal inputs and results */
            float r = alu_f32(ftz32((uint32_t)old)) + alu_f32(ftz32((uint32_t)b));
            return ftz32((uint32_t)alu_f32_bits(r));
        }
        if (t == PTX_T_f64) return alu_f64_bits(alu_f64(old) + alu_f64(b));
        if (t == PTX_T_f16 || t == PTX_T_bf16 || t == PTX_T_f16x2 || t == PTX_T_bf16x2) {
            /* each 16-bit half: the sum is exact in double, then rounded once */
            const alu_fmt *fmt = (t == PTX_T_f16 || t == PTX_T_f16x2) ? &alu_fmt_f16 : &alu_fmt_bf16;
            unsigned halves = ptx_type_sizes[t] / 2;
            uint64_t r = 0;
            for (unsigned h = 0; h < halves; h++) {
                uint64_t x = (old >> (16 * h)) & 0xffff, y = (b >> (16 * h)) & 0xffff;
                double sum = alu_fmt_to_double(x, fmt) + alu_fmt_to_double(y, fmt);
                r |= (alu_double_to_fmt(sum, EXEC_RND_RN, fmt, false) & 0xffff) << (16 * h);
            }
            return r;
        }
        return old + b;
    case AOP_AND: return old & b;
    case AOP_OR: return old | b;
    case AOP_XOR: return old ^ b;
    case AOP_EXCH: return b;
    case AOP_CAS: return old == b ? c : old;
    case AOP_INC: return old >= b ? 0 : old + 1;
    case AOP_DEC: return (old == 0 || old > b) ? b : old - 1;
    case AOP_MIN: case AOP_MAX: {
        bool less;
        if (kind == 's') {
            int64_t x = size == 4 ? (int32_t)old : (int64_t)old;
            int64_t y = size == 4 ? (int32_t)b : (int64_t)b;
            less = x < y;
        } else {
            less = old < b;
        }
        return (op == AOP_MIN) == less ? old : b;
    }
    default: return old;
    }
}

#define ATOMIC_RMW(T, p, op, t, size, b, c, shared_mem)                                      \
    do {                                                                                    \
        T *q_ = (T *)(p);                                                                   \
        T b_ = (T)(b), c_ = (T)(c);                                                         \
        if (shared_mem) {                                                                   \
            T old_ = *q_;                                                                   \
            *q_ = (T)combine(op, t, size, old_, b_, c_);                                    \
            return old_;                                                                    \
        }                                                                                   \
        bool int_add_ = op == AOP_ADD && ptx_type_kinds[t] != 'f' && ptx_type_kinds[t] != 'x'; \
        if (int_add_) return __atomic_fetch_add(q_, b_, __ATOMIC_SEQ_CST);                  \
        if (op == AOP_AND) return __atomic_fetch_and(q_, b_, __ATOMIC_SEQ_CST);             \
        if (op == AOP_OR) return __atomic_fetch_or(q_, b_, __ATOMIC_SEQ_CST);               \
        if (op == AOP_XOR) return __atomic_fetch_xor(q_, b_, __ATOMIC_SEQ_CST);             \
        if (op == AOP_EXCH) return __atomic_exchange_n(q_, b_, __ATOMIC_SEQ_CST);           \
        if (op == AOP_CAS) {                                                                \
            T e_ = b_;                                                                      \
            __atomic_compare_exchange_n(q_, &e_, c_, false, __ATOMIC_SEQ_CST,               \
                                        __ATOMIC_SEQ_CST);                                  \
            return e_;                                                                      \
        }                                                                                   \
        T old_ = __atomic_load_n(q_, __ATOMIC_RELAXED);                                     \
        for (;;) {                                                                          \
            T new_ = (T)combine(op, t, size, old_, b_, c_);                                 \
            if (__atomic_compare_exchange_n(q_, &old_, new_, true, __ATOMIC_SEQ_CST,        \
                                            __ATOMIC_RELAXED))                              \
                return old_;                                                                \
        }                                                                                   \
    } while (0)

static uint64_t atomic_apply(void *p, unsigned op, ptx_type t, unsigned size, uint64_t b,
                             uint64_t c, bool private_mem) {
    switch (size) {
    case 2: ATOMIC_RMW(uint16_t, p, op, t, size, b, c, private_mem);
    case 4: ATOMIC_RMW(uint32_t, p, op, t, size, b, c, private_mem);
    default: ATOMIC_RMW(uint64_t, p, op, t, size, b, c, private_mem);
    }
}

uint64_t exec_atomic_red(void *p, ptx_mod op, ptx_type t, uint64_t b) {
    unsigned aop = op == PTX_MOD_add ? AOP_ADD : op == PTX_MOD_min ? AOP_MIN
                 : op == PTX_MOD_max ? AOP_MAX : op == PTX_MOD_and_ ? AOP_AND : AOP_OR;
    return atomic_apply(p, aop, t, ptx_type_sizes[t], b, 0, false);
}

/* An atomic on the barrier word of the grid's workspace: cooperative groups' grid
 * barrier. In a co-resident grid, one that flips the word's top bit completes it, and the
 * blocks polling the word may go on (exec_coresident). In any other grid the blocks are
 * not all resident at once, so the barrier could never complete: it is refused. */
static bool grid_barrier_atom(exec_warp *hw, const exec_insn *in, uint32_t lane,
                              uint64_t addr, uint32_t old) {
    const exec_launch *L = hw->block->L;
    if (!L->coresident) {
        exec_fault_at(hw, in, lane, EXEC_FAULT_ILLEGAL_INSTRUCTION,
                      "grid-wide synchronisation (cooperative groups' this_grid().sync()) in a "
                      "grid not launched cooperatively: launch it with "
                      "cudaLaunchCooperativeKernel");
        return false;
    }
    uint32_t now = __atomic_load_n((const uint32_t *)(uintptr_t)addr, __ATOMIC_ACQUIRE);
    if ((now ^ old) & 0x80000000u) L->coresident->flipped(L->coresident->ctx);
    else exec_ws(hw)->grid_bar_arrived = true; /* it waits for the flip (exec/control.c) */
    return true;
}

static void h_atom(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    struct exec_block *b = hw->block;
    ptx_type t = (ptx_type)in->type;
    unsigned size = ptx_type_sizes[t];
    /* a block's shared memory is its host thread's alone, unless other blocks of its
     * cluster reach it (distributed shared memory): then its atomics are the host's */
    uintptr_t sh_lo = (uintptr_t)b->shared,
              sh_hi = sh_lo + (b->L->cluster ? 0 : b->shared_size);
    uintptr_t lo_lo = (uintptr_t)b->local, lo_hi = lo_lo + (size_t)b->nthreads * b->local_stride;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t a = EXEC_R(hw, in->a[0], lane) + (uint64_t)in->imm;
        void *p = exec_mem_addr(w, in, lane, (ptx_space)in->space, a, size, EXEC_ACC_ATOMIC);
        if (!p) return;
        uintptr_t u = (uintptr_t)p;
        bool private_mem = (u >= sh_lo && u < sh_hi) || (u >= lo_lo && u < lo_hi);
        uint64_t old = atomic_apply(p, in->aux, t, size, EXEC_R(hw, in->a[1], lane),
                                    in->na > 2 ? EXEC_R(hw, in->a[2], lane) : 0, private_mem);
        if (in->flags & ATOM_HAS_DST) EXEC_R(hw, in->d[0], lane) = old;
        if (__builtin_expect(u == b->L->grid_workspace + 4, 0) &&
            !grid_barrier_atom(hw, in, lane, u, (uint32_t)old))
            return;
    }
}

/* ---- 128-bit exchange and compare-and-swap (atom.exch.b128, atom.cas.b128) ----
 * The host has no portable 16-byte atomic, so global ones take one of a set of spin locks
 * chosen by address; they are atomic with respect to each other, which is all CUDA's
 * 128-bit atomicExch/atomicCAS promise. */
#define ATOM128_LOCKS 64u
static unsigned char atom128_locks[ATOM128_LOCKS];

static void h_atom128(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    struct exec_block *b = hw->block;
    uintptr_t sh_lo = (uintptr_t)b->shared, sh_hi = sh_lo + b->shared_size;
    const bool cas = in->aux == AOP_CAS;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t a = EXEC_R(hw, in->a[0], lane) + (uint64_t)in->imm;
        uint64_t *p = exec_mem_addr(w, in, lane, (ptx_space)in->space, a, 16, EXEC_ACC_ATOMIC);
        if (!p) return;
        uint64_t b_lo = EXEC_R(hw, in->a[1], lane), b_hi = EXEC_R(hw, in->a[1] + 1, lane);
        uint64_t c_lo = cas ? EXEC_R(hw, in->a[2], lane) : 0;
        uint64_t c_hi = cas ? EXEC_R(hw, in->a[2] + 1, lane) : 0;
        bool shared_mem = (uintptr_t)p >= sh_lo && (uintptr_t)p < sh_hi && !b->L->cluster;
        unsigned char *lock = &atom128_locks[(a >> 4) % ATOM128_LOCKS];
        if (!shared_mem)
            while (__atomic_test_and_set(lock, __ATOMIC_ACQUIRE)) {}
        uint64_t old_lo = p[0], old_hi = p[1];
        if (!cas) {
            p[0] = b_lo;
            p[1] = b_hi;
        } else if (old_lo == b_lo && old_hi == b_hi) {
            p[0] = c_lo;
            p[1] = c_hi;
        }
        if (!shared_mem) __atomic_clear(lock, __ATOMIC_RELEASE);
        EXEC_R(hw, in->d[0], lane) = old_lo;
        EXEC_R(hw, in->d[0] + 1, lane) = old_hi;
    }
}

static unsigned atom_op_of(const ptx_insn *pi) {
    for (unsigned i = 0; i < pi->nmods; i++) {
        switch (pi->mods[i]) {
        case PTX_MOD_add: return AOP_ADD;
        case PTX_MOD_and_: return AOP_AND;
        case PTX_MOD_or_: return AOP_OR;
        case PTX_MOD_xor_: return AOP_XOR;
        case PTX_MOD_exch: return AOP_EXCH;
        case PTX_MOD_cas: return AOP_CAS;
        case PTX_MOD_inc: return AOP_INC;
        case PTX_MOD_dec: return AOP_DEC;
        case PTX_MOD_min: return AOP_MIN;
        case PTX_MOD_max: return AOP_MAX;
        default: break;
        }
    }
    return 0;
}

static bool type_ok(unsigned op, ptx_type t) {
    char k = ptx_type_kinds[t];
    unsigned size = ptx_type_sizes[t];
    switch (op) {
    case AOP_ADD:
        return ((k == 'u' || k == 's') && size >= 4) || t == PTX_T_f32 || t == PTX_T_f64 ||
               t == PTX_T_f16 || t == PTX_T_bf16 || t == PTX_T_f16x2 || t == PTX_T_bf16x2;
    case AOP_CAS: /* also .b16 (sm_70) and .b128 (sm_90) */
        return (k == 'b' || k == 'u' || k == 's') &&
               (size == 4 || size == 8 || (k == 'b' && (size == 2 || size == 16)));
    case AOP_EXCH: /* also .b128 (sm_90) */
        return (k == 'b' || k == 'u' || k == 's') &&
               (size == 4 || size == 8 || (k == 'b' && size == 16));
    case AOP_AND: case AOP_OR: case AOP_XOR:
        return (k == 'b' || k == 'u' || k == 's') && (size == 4 || size == 8);
    case AOP_INC: case AOP_DEC: return t == PTX_T_u32;
    case AOP_MIN: case AOP_MAX: return (k == 'u' || k == 's') && (size == 4 || size == 8);
    default: return false;
    }
}

/* ---- vector atomics (sm_90: atom/red .global .v2/.v4/.v8) ----
 * Each element is an atomic of its own at its place in the 8-, 16- or 32-byte vector
 * (the PTX ISA makes the vector no single atomic): .add on f32, f16x2, bf16x2, f16, bf16,
 * .min/.max on the 16-bit float types, halves taken alone. min/max follow min/max.f16:
 * a NaN operand gives the other, and -0 is below +0. */
typedef struct {
    uint32_t dst[8], src[8];
    unsigned n;
    int64_t off; /* the address offset (exec_insn.imm points at this descriptor) */
} atom_vec;

static uint64_t half_minmax(unsigned op, ptx_type t, uint64_t old, uint64_t b) {
    const alu_fmt *fmt = (t == PTX_T_f16 || t == PTX_T_f16x2) ? &alu_fmt_f16 : &alu_fmt_bf16;
    unsigned halves = ptx_type_sizes[t] / 2;
    uint64_t r = 0;
    for (unsigned h = 0; h < halves; h++) {
        uint64_t x = (old >> (16 * h)) & 0xffff, y = (b >> (16 * h)) & 0xffff;
        double dx = alu_fmt_to_double(x, fmt), dy = alu_fmt_to_double(y, fmt);
        uint64_t v;
        if (dx != dx) v = dy != dy ? fmt->nan : y;
        else if (dy != dy) v = x;
        else if (dx == dy) v = op == AOP_MIN ? ((x & 0x8000) ? x : y) : ((x & 0x8000) ? y : x);
        else v = (dx < dy) == (op == AOP_MIN) ? x : y;
        r |= (v & 0xffff) << (16 * h);
    }
    return r;
}

static void h_atom_vec(exec_warp *hw, const exec_insn *in, uint32_t mask) {
    exec_wstate *w = exec_ws(hw);
    const atom_vec *v = (const atom_vec *)(uintptr_t)in->imm;
    ptx_type t = (ptx_type)in->type;
    unsigned size = ptx_type_sizes[t], op = in->aux;
    EXEC_FOR_LANES(mask, lane) {
        uint64_t a = EXEC_R(hw, in->a[0], lane) + (uint64_t)v->off;
        /* the whole vector, at its own alignment */
        uint8_t *p = exec_mem_addr(w, in, lane, (ptx_space)in->space, a, size * v->n,
                                   EXEC_ACC_ATOMIC);
        if (!p) return;
        for (unsigned k = 0; k < v->n; k++) {
            uint64_t b = EXEC_R(hw, v->src[k], lane), old;
            if (op == AOP_ADD) {
                old = atomic_apply(p + k * size, op, t, size, b, 0, false);
            } else { /* min/max of 16-bit floats: a compare-and-swap loop */
                if (size == 2) {
                    uint16_t *q = (uint16_t *)(p + k * size), o = __atomic_load_n(q, __ATOMIC_RELAXED);
                    while (!__atomic_compare_exchange_n(q, &o, (uint16_t)half_minmax(op, t, o, b),
                                                        true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {}
                    old = o;
                } else {
                    uint32_t *q = (uint32_t *)(p + k * size), o = __atomic_load_n(q, __ATOMIC_RELAXED);
                    while (!__atomic_compare_exchange_n(q, &o, (uint32_t)half_minmax(op, t, o, b),
                                                        true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {}
                    old = o;
                }
            }
            if (in->flags & ATOM_HAS_DST) EXEC_R(hw, v->dst[k], lane) = old;
        }
    }
}

static int dec_atom_vec(exec_decoder *d, const ptx_insn *pi, exec_insn *out, unsigned op,
                        bool is_atom) {
    unsigned n = ptx_insn_has_mod(pi, PTX_MOD_v8) ? 8 : ptx_insn_has_mod(pi, PTX_MOD_v4) ? 4 : 2;
    ptx_type t = (ptx_type)pi->types[pi->ntypes - 1];
    bool half = t == PTX_T_f16 || t == PTX_T_bf16, pair = t == PTX_T_f16x2 || t == PTX_T_bf16x2;
    bool ok = (t == PTX_T_f32 && op == AOP_ADD && n <= 4) ||
              ((half || pair) && (op == AOP_ADD || op == AOP_MIN || op == AOP_MAX) &&
               (n <= 4 || half));
    ptx_space sp = exec_dec_space(pi);
    if (!ok || (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_GENERIC)) {
        char text[200];
        ptx_insn_str(d->m, d->pf, pi, text, sizeof text);
        return exec_dec_error(d, pi, "unsupported vector atomic '%s' (.global .v2/.v4 .add.f32, "
                              ".add/.min/.max on f16x2/bf16x2, .v2 to .v8 on f16/bf16)", text), -1;
    }
    unsigned first = is_atom ? 1 : 0;
    if (pi->nopnds != first + 2) return exec_dec_error(d, pi, "missing operands"), -1;
    atom_vec *v = exec_dec_blob(d, sizeof *v);
    v->n = n;
    const ptx_operand *src = &pi->opnd[first + 1], *dst = &pi->opnd[0];
    if (src->kind != PTX_OPND_VEC || src->vec_n != n || (is_atom && (dst->kind != PTX_OPND_VEC ||
                                                                     dst->vec_n != n)))
        return exec_dec_error(d, pi, "vector operands do not match .v%u", n), -1;
    for (unsigned k = 0; k < n; k++) {
        if (!exec_dec_src(d, pi, exec_dec_vec_elem(d, src, k), t, &v->src[k])) return -1;
        if (is_atom && !exec_dec_dst(d, pi, exec_dec_vec_elem(d, dst, k), &v->dst[k])) return -1;
    }
    out->type = (uint8_t)t;
    out->space = (uint8_t)sp;
    out->aux = op;
    if (is_atom) out->flags |= ATOM_HAS_DST;
    if (!exec_dec_address(d, pi, &pi->opnd[first], sp, out)) return -1;
    out->na = 1;
    /* the element registers are in the descriptor, not in a[]/d[]: EXEC_F_D_PRED (no
     * predicate is written; nd is 0) keeps the compiled tier's vector form, which moves
     * only a[]/d[] between its lanes' locals and the registers around a handler call,
     * from taking it as an atomic of its kind (it then leaves the kernel out) */
    out->flags |= EXEC_F_D_PRED;
    v->off = out->imm;
    out->imm = (int64_t)(uintptr_t)v;
    out->fn = h_atom_vec;
    return 1;
}

/* A vector atomic's address offset and element count: its imm points at the descriptor
 * rather than holding the offset, so whoever reads the address (the observers behind
 * vcuda check) must ask here. False for any other instruction. */
bool exec_atom_vec_shape(const exec_insn *in, int64_t *off, unsigned *n) {
    if (in->fn != h_atom_vec && in->lane_fn != h_atom_vec) return false;
    const atom_vec *v = (const atom_vec *)(uintptr_t)in->imm;
    *off = v->off;
    *n = v->n;
    return true;
}

int exec_decode_atomic(exec_decoder *d, const ptx_insn *pi, exec_insn *out) {
    if (pi->op != PTX_OP_atom && pi->op != PTX_OP_red) return 0;
    bool is_atom = pi->op == PTX_OP_atom;
    unsigned op = atom_op_of(pi);
    if (!op) return exec_dec_error(d, pi, "%s without an operation", is_atom ? "atom" : "red"), -1;
    if (pi->ntypes < 1) return exec_dec_error(d, pi, "missing type"), -1;
    if (!is_atom && (op == AOP_CAS || op == AOP_EXCH))
        return exec_dec_error(d, pi, "red does not take .cas or .exch"), -1;
    if (ptx_insn_has_mod(pi, PTX_MOD_v2) || ptx_insn_has_mod(pi, PTX_MOD_v4) ||
        ptx_insn_has_mod(pi, PTX_MOD_v8))
        return dec_atom_vec(d, pi, out, op, is_atom);
    ptx_type t = (ptx_type)pi->types[pi->ntypes - 1];
    if (!type_ok(op, t))
        return exec_dec_error(d, pi, "%s of .%s is not supported", is_atom ? "atom" : "red",
                              ptx_type_names[t]), -1;
    ptx_space sp = exec_dec_space(pi);
    if (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_SHARED && sp != PTX_SPACE_GENERIC)
        return exec_dec_error(d, pi, "atomics are only defined on global, shared and generic "
                              "addresses"), -1;
    unsigned first = is_atom ? 1 : 0;
    unsigned nsrc = op == AOP_CAS ? 2 : 1;
    if (pi->nopnds < first + 1 + nsrc) return exec_dec_error(d, pi, "missing operands"), -1;
    out->type = (uint8_t)t;
    out->space = (uint8_t)sp;
    out->aux = op;
    if (is_atom) {
        if (!exec_dec_dst(d, pi, &pi->opnd[0], &out->d[0])) return -1;
        out->flags |= ATOM_HAS_DST;
        out->nd = 1;
    }
    if (!exec_dec_address(d, pi, &pi->opnd[first], sp, out)) return -1;
    for (unsigned k = 0; k < nsrc; k++)
        if (!exec_dec_src(d, pi, &pi->opnd[first + 1 + k], t, &out->a[1 + k])) return -1;
    out->na = (uint8_t)(1 + nsrc);
    out->fn = h_atom;
    if (t == PTX_T_b128) {
        if (!is_atom) return exec_dec_error(d, pi, "red of .b128 is not supported"), -1;
        out->fn = h_atom128;
    }
    return 1;
}
